"""python-chess's module-level API in `bitboards` (the BB_* constants, the
square and bitboard helpers, `Status`, `SquareSet`) and `bitboards.polyglot`,
against python-chess (the oracle) on random inputs."""

from __future__ import annotations

import copy
import pickle
import random

import chess
import pytest

import bitboards

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
    assert isinstance(squares._repr_html_(), str)
