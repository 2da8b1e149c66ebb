"""python-chess's module-level API in `bitboards` (the BB_* constants, the
square and bitboard helpers, `Status`, `SquareSet`), `bitboards.polyglot` and
`bitboards.svg`, against python-chess (the oracle) on random inputs."""

from __future__ import annotations

import copy
import pickle
import random
import struct
import xml.dom.minidom
from pathlib import Path

import chess
import chess.polyglot
import chess.svg
import pytest
from conftest import GAME_SPECS, our_board, play_game, polyglot_comparable

import bitboards
import bitboards.polyglot
import bitboards.svg

RNG_SEEDS = range(8)


def random_mask(rng: random.Random) -> int:
    """A mask of a random density: empty, sparse, half or dense."""
    kind = rng.randrange(5)
    if kind == 0:
        return 0
    if kind == 1:
        return 1 << rng.randrange(64)
    if kind == 2:
        return rng.getrandbits(64) & rng.getrandbits(64) & rng.getrandbits(64)
    if kind == 3:
        return rng.getrandbits(64)
    return rng.getrandbits(64) | rng.getrandbits(64)


# --- constants ---------------------------------------------------------------

CONSTANT_NAMES = sorted(
    name for name in dir(chess)
    if name.startswith(("BB_", "STATUS_")) and not name.startswith(
        # python-chess's slider lookup tables: its internals, not in bitboards.
        ("BB_DIAG_", "BB_FILE_ATTACKS", "BB_RANK_ATTACKS", "BB_FILE_MASKS", "BB_RANK_MASKS", "BB_RAYS"))
) + ["SQUARES_180", "UNICODE_PIECE_SYMBOLS", "COLOR_NAMES", "PIECE_SYMBOLS", "PIECE_NAMES",
     "SQUARE_NAMES", "FILE_NAMES", "RANK_NAMES", "SQUARES"]


@pytest.mark.parametrize("name", CONSTANT_NAMES)
def test_constants(name):
    assert getattr(bitboards, name) == getattr(chess, name), name
    assert name in bitboards.__all__


def test_status():
    for member in chess.Status:
        ours = bitboards.Status[member.name]
        assert int(ours) == int(member)
    assert len(bitboards.Status) == len(chess.Status)
    assert bitboards.STATUS_VALID == 0 and not bitboards.STATUS_VALID
    combined = bitboards.STATUS_NO_WHITE_KING | bitboards.STATUS_EMPTY
    assert isinstance(combined, bitboards.Status)
    assert int(combined) == int(chess.STATUS_NO_WHITE_KING | chess.STATUS_EMPTY)


def test_regexes():
    rng = random.Random(3)
    pieces = ["", "N", "B", "R", "Q", "K", "P"]
    sans = ["O-O", "O-O-O", "e4", "exd5", "Nbd7", "R1a3", "Qh4xe1", "e8=Q+", "e8Q#", "a1", "i9", "Nx", "", "--", "Z@e4"]
    for _ in range(3000):
        text = (rng.choice(pieces) + rng.choice(["", "a", "h", "i"]) + rng.choice(["", "1", "8", "9"])
                + rng.choice(["", "x", "-"]) + rng.choice(["a1", "h8", "e4", "z3", ""])
                + rng.choice(["", "=Q", "n", "=K", "=P", "q"]) + rng.choice(["", "+", "#", "++"]))
        sans.append(text)
    for text in sans:
        ours = bitboards.SAN_REGEX.match(text)
        theirs = chess.SAN_REGEX.match(text)
        assert (ours is None) == (theirs is None), text
        if ours is not None and theirs is not None:
            assert ours.groups() == theirs.groups(), text
    fields = ["-", "KQkq", "K", "kq", "AHah", "HAha", "Kkq", "KQQ", "x", "", "KQkqK", "QK", "qk", "Bb", "Kd"]
    for _ in range(2000):
        fields.append("".join(rng.choice("KQkqABHhab-x") for _ in range(rng.randrange(6))))
    for text in fields:
        assert bool(bitboards.FEN_CASTLING_REGEX.match(text)) == bool(chess.FEN_CASTLING_REGEX.match(text)), text


# --- square and bitboard helpers ---------------------------------------------

SQUARE_PAIR_FUNCTIONS = ["square_distance", "square_manhattan_distance", "square_knight_distance", "ray", "between"]


@pytest.mark.parametrize("name", SQUARE_PAIR_FUNCTIONS)
def test_square_pairs(name):
    ours, theirs = getattr(bitboards, name), getattr(chess, name)
    for a in chess.SQUARES:
        for b in chess.SQUARES:
            assert ours(a, b) == theirs(a, b), (name, a, b)


def test_square_functions():
    for square in chess.SQUARES:
        assert bitboards.square_mirror(square) == chess.square_mirror(square)
        assert bitboards.BB_KNIGHT_ATTACKS[square] == chess.BB_KNIGHT_ATTACKS[square]
        assert bitboards.BB_KING_ATTACKS[square] == chess.BB_KING_ATTACKS[square]
        for color in chess.COLORS:
            assert bitboards.BB_PAWN_ATTACKS[color][square] == chess.BB_PAWN_ATTACKS[color][square]
    for piece_type in chess.PIECE_TYPES:
        assert bitboards.piece_symbol(piece_type) == chess.piece_symbol(piece_type)
        assert bitboards.piece_name(piece_type) == chess.piece_name(piece_type)
    for name in chess.SQUARE_NAMES:
        assert bitboards.parse_square(name) == chess.parse_square(name)
    for bad in ["A1", "a0", "i1", "", "a11"]:
        with pytest.raises(ValueError):
            bitboards.parse_square(bad)


MASK_FUNCTIONS = [
    "lsb", "msb", "popcount", "flip_vertical", "flip_horizontal", "flip_diagonal", "flip_anti_diagonal",
    "shift_down", "shift_2_down", "shift_up", "shift_2_up", "shift_right", "shift_2_right", "shift_left",
    "shift_2_left", "shift_up_left", "shift_up_right", "shift_down_left", "shift_down_right",
]


@pytest.mark.parametrize("name", MASK_FUNCTIONS)
@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_mask_functions(name, seed):
    rng = random.Random(seed)
    ours, theirs = getattr(bitboards, name), getattr(chess, name)
    masks = [random_mask(rng) for _ in range(300)] + chess.BB_SQUARES + [chess.BB_ALL]
    for mask in masks:
        if name in ("lsb", "msb") and not mask:
            continue
        assert ours(mask) == theirs(mask), (name, hex(mask))


def test_scans():
    rng = random.Random(11)
    for _ in range(500):
        mask = random_mask(rng)
        assert list(bitboards.scan_forward(mask)) == list(chess.scan_forward(mask))
        assert list(bitboards.scan_reversed(mask)) == list(chess.scan_reversed(mask))


def test_flips_keep_the_argument_kind():
    rng = random.Random(5)
    for _ in range(100):
        mask = random_mask(rng)
        for name in ["flip_vertical", "flip_horizontal", "flip_diagonal", "flip_anti_diagonal"]:
            squares = bitboards.SquareSet(mask)
            flipped = getattr(bitboards, name)(squares)
            assert isinstance(flipped, bitboards.SquareSet)
            assert int(flipped) == getattr(chess, name)(mask)
            assert int(squares) == mask
            board = getattr(bitboards, name)(bitboards.Bitboard(mask))
            assert isinstance(board, bitboards.Bitboard) and int(board) == int(flipped)


# --- SquareSet ---------------------------------------------------------------

BINARY = ["__and__", "__or__", "__xor__", "__sub__", "union", "intersection", "difference",
          "symmetric_difference", "isdisjoint", "issubset", "issuperset", "__eq__", "__ne__"]
IN_PLACE = ["__iand__", "__ior__", "__ixor__", "__isub__", "update", "intersection_update",
            "difference_update", "symmetric_difference_update"]


def same(ours, theirs):
    """Whether a result of ours is python-chess's: a SquareSet for a SquareSet."""
    if isinstance(theirs, chess.SquareSet):
        return isinstance(ours, bitboards.SquareSet) and int(ours) == int(theirs)
    return ours == theirs


def as_kinds(mask, rng):
    """The same squares as an int, a SquareSet, a Bitboard and a list."""
    return [mask, bitboards.SquareSet(mask), bitboards.Bitboard(mask), list(chess.SquareSet(mask))]


@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_squareset_operations(seed):
    rng = random.Random(seed)
    for _ in range(150):
        a, b = random_mask(rng), random_mask(rng)
        ours, theirs = bitboards.SquareSet(a), chess.SquareSet(a)
        assert list(ours) == list(theirs) and list(reversed(ours)) == list(reversed(theirs))
        assert len(ours) == len(theirs) and bool(ours) == bool(theirs)
        assert str(ours) == str(theirs) and repr(ours) == repr(theirs)
        assert ours.tolist() == theirs.tolist()
        assert int(ours) == int(theirs) and hex(ours) == hex(theirs) and bin(ours) == bin(theirs)
        assert same(~ours, ~theirs) and same(ours.mirror(), theirs.mirror()) and same(ours.copy(), theirs.copy())
        shift = rng.randrange(10)
        assert same(ours << shift, theirs << shift) and same(ours >> shift, theirs >> shift)
        for square in rng.sample(chess.SQUARES, 5):
            assert (square in ours) == (square in theirs)
        for name in BINARY:
            for other in as_kinds(b, rng):
                if isinstance(other, bitboards.Bitboard):
                    theirs_other = chess.SquareSet(int(other))
                elif isinstance(other, bitboards.SquareSet):
                    theirs_other = chess.SquareSet(int(other))
                else:
                    theirs_other = other
                assert same(getattr(ours, name)(other), getattr(theirs, name)(theirs_other)), (name, a, b, other)
        for name in IN_PLACE:
            mine, oracle = bitboards.SquareSet(a), chess.SquareSet(a)
            result = getattr(mine, name)(b)
            expected = getattr(oracle, name)(b)
            assert int(mine) == int(oracle), name
            if expected is oracle:
                assert result is mine
            else:
                assert result is None and expected is None
        if bin(a).count("1") <= 10:
            assert list(ours.carry_rippler()) == list(theirs.carry_rippler())


def test_squareset_mutation():
    rng = random.Random(1)
    ours, theirs = bitboards.SquareSet(), chess.SquareSet()
    for _ in range(2000):
        action = rng.randrange(5)
        square = rng.randrange(64)
        if action == 0:
            ours.add(square), theirs.add(square)
        elif action == 1:
            ours.discard(square), theirs.discard(square)
        elif action == 2:
            errors = []
            for s in (ours, theirs):
                try:
                    s.remove(square)
                    errors.append(None)
                except KeyError:
                    errors.append(KeyError)
            assert errors[0] == errors[1]
        elif action == 3:
            if theirs:
                assert ours.pop() == theirs.pop()
            else:
                with pytest.raises(KeyError):
                    ours.pop()
        elif rng.random() < 0.05:
            ours.clear(), theirs.clear()
        assert int(ours) == int(theirs)


def test_squareset_construction_and_equality():
    assert bitboards.SquareSet() == 0 and not bitboards.SquareSet()
    assert bitboards.SquareSet(~bitboards.BB_ALL) == 0
    assert bitboards.SquareSet([bitboards.B8, bitboards.C1]) == bitboards.BB_B8 | bitboards.BB_C1
    assert bitboards.SquareSet(bitboards.SquareSet(999)) == 999
    assert bitboards.SquareSet.from_square(bitboards.H5) == bitboards.BB_H5
    assert bitboards.SquareSet.ray(bitboards.A1, bitboards.C3) == chess.SquareSet.ray(chess.A1, chess.C3)
    assert bitboards.SquareSet.between(bitboards.A1, bitboards.H8) == chess.SquareSet.between(chess.A1, chess.H8)
    board = bitboards.Board()
    pawns = board.pieces(bitboards.PAWN, bitboards.WHITE)
    # A Bitboard (what Board's methods return) and a SquareSet compare
    # equal both ways and convert into each other.
    assert bitboards.SquareSet(pawns) == pawns and pawns == bitboards.SquareSet(pawns)
    assert bitboards.Bitboard(bitboards.SquareSet(pawns)) == pawns
    assert bitboards.SquareSet(bitboards.BB_RANK_2) == pawns
    assert bitboards.SquareSet(1) != bitboards.SquareSet(2)
    assert bitboards.SquareSet(1) != "a1" and bitboards.SquareSet(1) != None  # noqa: E711
    with pytest.raises(TypeError):
        hash(bitboards.SquareSet())
    squares = bitboards.SquareSet(bitboards.BB_CENTER)
    assert copy.copy(squares) == squares and copy.copy(squares) is not squares
    assert pickle.loads(pickle.dumps(squares)) == squares
    picture = squares._repr_svg_()
    assert len(xml.dom.minidom.parseString(picture).getElementsByTagName("use")) == len(squares)


# --- bitboards.polyglot ------------------------------------------------------


REPO = Path(__file__).resolve().parents[3]


def test_polyglot_random_array():
    ours = bitboards.polyglot.POLYGLOT_RANDOM_ARRAY
    assert ours == chess.polyglot.POLYGLOT_RANDOM_ARRAY
    published = [int(line, 16) for line in (REPO / "base/codegen/data/polyglot-random64.txt").read_text().split()
                 if line.startswith("0x")]
    assert ours == published and len(ours) == 781


def game_positions(specs):
    """(python-chess board, bitboards board) after each ply of each game."""
    for spec in specs:
        start, chess960, moves = play_game(spec)
        py = chess.Board(start, chess960=chess960)
        ours = our_board(start, chess960)
        yield py, ours
        for uci in moves:
            py.push_uci(uci)
            ours.push_uci(uci)
            yield py, ours


def test_zobrist_hash():
    specs = [spec for spec in GAME_SPECS if not spec.chess960][:30] + [s for s in GAME_SPECS if s.chess960][:10]
    for py, ours in game_positions(specs):
        expected = chess.polyglot.zobrist_hash(py)
        # python-chess's board through the attributes, any board through its own hash.
        assert bitboards.polyglot.zobrist_hash(py) == expected, py.fen()
        if polyglot_comparable(py):
            assert bitboards.polyglot.zobrist_hash(ours) == expected, py.fen()
        hasher = bitboards.polyglot.ZobristHasher(bitboards.polyglot.POLYGLOT_RANDOM_ARRAY)
        assert bitboards.polyglot.zobrist_hash(py, _hasher=hasher) == expected


def raw_move(board, move):
    """The move as a Polyglot book writes it (castling: king takes rook)."""
    to_square = move.to_square
    if board.is_castling(move) and not board.chess960:
        to_square = {chess.G1: chess.H1, chess.C1: chess.A1, chess.G8: chess.H8, chess.C8: chess.A8}[to_square]
    promotion = move.promotion - 1 if move.promotion else 0
    return to_square | move.from_square << 6 | promotion << 12


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    """A book of the games' moves, a few moves more per position (legal or
    not), random weights (0 among them); and the boards it covers."""
    rng = random.Random(48)
    specs = [spec for spec in GAME_SPECS if not spec.chess960][:16] + [s for s in GAME_SPECS if s.chess960][:6]
    entries, boards = [], []
    for py, ours in game_positions(specs):
        if not polyglot_comparable(py) or py.is_game_over():
            continue
        key = chess.polyglot.zobrist_hash(py)
        boards.append((py.copy(stack=False), ours.copy(stack=False)))
        legal = list(py.legal_moves)
        # Castling (king takes rook in the book) wherever it is legal.
        chosen = set(rng.sample(legal, min(len(legal), rng.randrange(1, 5))))
        chosen.update(move for move in legal if py.is_castling(move))
        for move in sorted(chosen, key=lambda move: move.uci()):
            entries.append((key, raw_move(py, move), rng.choice([0, 1, 1, 5, 100, 65535]), rng.getrandbits(32)))
        if rng.random() < 0.3:  # an illegal move (from a square to itself: a drop's encoding, or any)
            entries.append((key, rng.getrandbits(15), rng.randrange(1, 9), 0))
    entries.sort(key=lambda entry: entry[0])
    path = tmp_path_factory.mktemp("polyglot") / "book.bin"
    path.write_bytes(b"".join(struct.pack(">QHHI", *entry) for entry in entries))
    return path, boards


class MockRandom:
    def __init__(self, rng):
        self.rng = rng
        self.calls = []

    def randint(self, a, b):
        value = self.rng.randint(a, b)
        self.calls.append((a, b, value))
        return value


def test_polyglot_reader(book):
    path, boards = book
    rng = random.Random(7)
    with chess.polyglot.open_reader(path) as theirs, bitboards.polyglot.open_reader(path) as ours:
        assert len(ours) == len(theirs)
        for index in list(range(0, len(theirs), 7)) + [-1, -len(theirs)]:
            assert tuple(ours[index])[:4] == tuple(theirs[index])[:4]
            expected = theirs[index].move
            if not expected.drop and (expected.promotion or 0) <= chess.KING:
                assert ours[index].move.uci() == expected.uci()
        for py, board in boards:
            key = chess.polyglot.zobrist_hash(py)
            for minimum_weight in (0, 1, 2):
                expected = [(e.key, e.raw_move, e.weight, e.learn, e.move.uci())
                            for e in theirs.find_all(py, minimum_weight=minimum_weight)]
                found = [(e.key, e.raw_move, e.weight, e.learn, e.move.uci())
                         for e in ours.find_all(board, minimum_weight=minimum_weight)]
                assert found == expected, py.fen()
                by_key = [(e.raw_move, e.weight, e.learn) for e in ours.find_all(key, minimum_weight=minimum_weight)]
                assert by_key == [(e.raw_move, e.weight, e.learn)
                                  for e in theirs.find_all(key, minimum_weight=minimum_weight)]
            expected_entries = list(theirs.find_all(py))
            if expected_entries:
                assert ours.find(board).move.uci() == theirs.find(py).move.uci()
                excluded = [chess.Move.from_uci(expected_entries[0].move.uci())]
                ours_excluded = [bitboards.Move.from_uci(expected_entries[0].move.uci())]
                assert ([e.move.uci() for e in ours.find_all(board, exclude_moves=ours_excluded)]
                        == [e.move.uci() for e in theirs.find_all(py, exclude_moves=excluded)])
                # Weighted choice draws once, in python-chess's range, and takes
                # the entry whose cumulative weight passes the draw.
                if sum(e.weight for e in expected_entries):
                    seed = rng.getrandbits(32)
                    mine, oracle = MockRandom(random.Random(seed)), MockRandom(random.Random(seed))
                    assert (ours.weighted_choice(board, random=mine).move.uci()
                            == theirs.weighted_choice(py, random=oracle).move.uci())
                    assert mine.calls == oracle.calls
                chosen = ours.choice(board, random=random.Random(1))
                assert chosen.move.uci() in {e.move.uci() for e in expected_entries}
            else:
                assert ours.get(board) is None
                with pytest.raises(IndexError):
                    ours.find(board)
                with pytest.raises(IndexError):
                    ours.choice(board)
        for entry in list(ours)[::11]:
            assert entry in ours


def test_polyglot_reader_errors(tmp_path):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"\0" * 17)
    with pytest.raises(OSError):
        bitboards.polyglot.open_reader(bad)
    with pytest.raises(FileNotFoundError):
        bitboards.polyglot.open_reader(tmp_path / "missing.bin")
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    with bitboards.polyglot.open_reader(empty) as book:
        assert len(book) == 0 and list(book) == [] and book.get(bitboards.Board()) is None
        with pytest.raises(IndexError):
            book[0]


# --- bitboards.svg -------------------------------------------------------------


def test_svg_arrow_against_python_chess():
    rng = random.Random(9)
    colors = ["green", "red", "yellow", "blue", "purple"]
    for _ in range(500):
        tail, head = rng.randrange(64), rng.choice([rng.randrange(64), None])
        head = tail if head is None else head
        color = rng.choice(colors)
        ours, theirs = bitboards.svg.Arrow(tail, head, color=color), chess.svg.Arrow(tail, head, color=color)
        assert ours.pgn() == theirs.pgn() and str(ours) == str(theirs) and repr(ours) == repr(theirs)
        for text in (theirs.pgn(), theirs.pgn()[1:]):
            back, oracle = bitboards.svg.Arrow.from_pgn(text), chess.svg.Arrow.from_pgn(text)
            assert (back.tail, back.head, back.color) == (oracle.tail, oracle.head, oracle.color)
    for bad in ["", "G", "Gz9", "a1h", "Xa1h8h"]:
        with pytest.raises(ValueError):
            bitboards.svg.Arrow.from_pgn(bad)


def test_svg_board():
    rng = random.Random(4)
    for spec in GAME_SPECS[:6]:
        start, chess960, moves = play_game(spec)
        board = our_board(start, chess960)
        for uci in moves[: rng.randrange(len(moves) + 1)]:
            board.push_uci(uci)
        arrows = [bitboards.svg.Arrow(rng.randrange(64), rng.randrange(64), color=rng.choice(["red", "blue"]))]
        picture = bitboards.svg.board(
            board, orientation=rng.random() < 0.5, lastmove=board.peek() if board.move_stack else None,
            check=board.king(board.turn) if board.is_check() else None, arrows=arrows + [(3, 3)],
            fill={rng.randrange(64): "#ff000080"}, squares=bitboards.SquareSet(random_mask(rng)),
            size=rng.choice([None, 300]), coordinates=rng.random() < 0.5, borders=rng.random() < 0.5,
            style=".square { }",
        )
        assert picture._repr_svg_() is picture
        document = xml.dom.minidom.parseString(picture)
        uses = [use.getAttribute("href") for use in document.getElementsByTagName("use")]
        pieces = {square: board.piece_at(square) for square in chess.SQUARES if board.piece_at(square)}
        assert sorted(use for use in uses if use != "#xx") == sorted(
            f"#{'white' if p.color else 'black'}-{chess.piece_name(p.piece_type)}" for p in pieces.values())
        defined = {g.getAttribute("id") for g in document.getElementsByTagName("g")}
        assert {use[1:] for use in uses} <= defined
        assert len(document.getElementsByTagName("circle")) == 1
    empty = bitboards.svg.board()
    xml.dom.minidom.parseString(empty)
    assert "<use" not in empty and "<line" not in empty and "<circle" not in empty
    # A python-chess board draws the same.
    py = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    assert bitboards.svg.board(py) == bitboards.svg.board(bitboards.Board(py.fen()))


def test_svg_piece():
    for symbol in "PNBRQKpnbrqk":
        picture = bitboards.svg.piece(bitboards.Piece.from_symbol(symbol), size=45)
        document = xml.dom.minidom.parseString(picture)
        (group,) = document.getElementsByTagName("g")
        color = "white" if symbol.isupper() else "black"
        name = chess.piece_name(chess.Piece.from_symbol(symbol).piece_type)
        assert group.getAttribute("id") == f"{color}-{name}"
        assert group.getAttribute("class") == f"{color} {name}"
