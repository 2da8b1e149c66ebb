"""bitboards.polyglot's Rust path (a bitboards.Board looked up in the book
held by _bitboards.PolyglotBook) against python-chess's reader on the same
book, entry for entry; and the Python path taken for a book the Rust side
refuses (unsorted)."""

import random
import struct

import pytest

import bitboards
import bitboards.polyglot

chess = pytest.importorskip("chess")
chess_polyglot = pytest.importorskip("chess.polyglot")


def raw_move(board, move):
    if board.is_castling(move):
        # Polyglot writes castling as the king taking its rook.
        rook_file = 7 if chess.square_file(move.to_square) > chess.square_file(move.from_square) else 0
        to_square = chess.square(rook_file, chess.square_rank(move.from_square))
    else:
        to_square = move.to_square
    promotion = move.promotion - 1 if move.promotion else 0
    return to_square | move.from_square << 6 | promotion << 12


def write_book(path, seed, shuffle=False):
    rng = random.Random(seed)
    entries, boards = [], []
    for _ in range(40):
        board = chess.Board()
        for _ in range(rng.randrange(0, 30)):
            legal = list(board.legal_moves)
            if not legal:
                break
            boards.append(board.copy(stack=False))
            key = chess_polyglot.zobrist_hash(board)
            for move in rng.sample(legal, min(len(legal), 3)):
                entries.append((key, raw_move(board, move), rng.choice([0, 1, 3, 70]), rng.getrandbits(32)))
            board.push(rng.choice(legal))
    entries.sort(key=lambda entry: entry[0])
    if shuffle:
        entries.reverse()
    path.write_bytes(b"".join(struct.pack(">QHHI", *entry) for entry in entries))
    return boards


def as_tuples(entries):
    return [(e.key, e.raw_move, e.weight, e.learn, e.move.uci()) for e in entries]


@pytest.mark.parametrize("minimum_weight", [0, 1, 5])
def test_the_rust_path_gives_python_chess_entries(tmp_path, minimum_weight):
    path = tmp_path / "book.bin"
    boards = write_book(path, 3)
    with bitboards.polyglot.open_reader(path) as ours, chess_polyglot.open_reader(path) as theirs:
        assert ours._book is not None
        for board in boards:
            mine = bitboards.Board(board.fen())
            expected = as_tuples(theirs.find_all(board, minimum_weight=minimum_weight))
            assert as_tuples(ours.find_all(mine, minimum_weight=minimum_weight)) == expected
            # The Python path (a key) finds the same entries, legal or not.
            assert len(list(ours.find_all(mine.zobrist_hash(), minimum_weight=minimum_weight))) >= len(expected)
            if expected:
                first = bitboards.Move.from_uci(expected[0][4])
                rest = as_tuples(ours.find_all(mine, minimum_weight=minimum_weight, exclude_moves=[first]))
                assert rest == [entry for entry in expected if entry[4] != expected[0][4]]


def test_an_unsorted_book_is_read_by_the_python_path(tmp_path):
    path = tmp_path / "unsorted.bin"
    boards = write_book(path, 4, shuffle=True)
    with bitboards.polyglot.open_reader(path) as ours:
        assert ours._book is None
        # Found or not, no error: the entries python-chess's reader would
        # give from its binary search.
        for board in boards[:10]:
            list(ours.find_all(bitboards.Board(board.fen())))
    with pytest.raises(ValueError, match="not a valid Polyglot book"):
        bitboards._bitboards.PolyglotBook(str(path))
    with pytest.raises(OSError):
        bitboards._bitboards.PolyglotBook(str(tmp_path / "missing.bin"))
