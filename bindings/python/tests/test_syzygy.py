"""`bitboards.syzygy` against python-chess's `chess.syzygy` (the oracle) on
the repository's 3- and 4-piece tables: random positions of every table,
both sides to move, en passant; every entry point, the errors, the context
manager and `close`; `probe_wdl_many` against `probe_wdl` one by one, on
NumPy rows and on `read_positions` tables."""

import io
import os
import random
import sys
import shutil
import threading
from pathlib import Path

import chess
import chess.pgn
import chess.syzygy
import chess.variant
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import bitboards
import bitboards.pgn
import bitboards.syzygy as syzygy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from endgames import en_passant_endgame, random_endgame  # noqa: E402

sys.path.pop(0)

TABLES = Path(__file__).resolve().parents[3] / "tests" / "data" / "syzygy"
MATERIALS = sorted({name.split(".")[0] for name in os.listdir(TABLES) if name.endswith(".rtbw")})
PIECES = [(color, kind) for color in (chess.WHITE, chess.BLACK) for kind in range(1, 7)]
ERRORS = (KeyError, OSError, ValueError, TypeError)


@pytest.fixture(scope="module")
def boards():
    """3,000 random boards of every table, and 300 with en passant."""
    rng = random.Random(47)
    return [random_endgame(rng, MATERIALS[i % len(MATERIALS)]) for i in range(3000)] + [
        en_passant_endgame(rng) for _ in range(300)]


@pytest.fixture(scope="module")
def theirs():
    with chess.syzygy.open_tablebase(str(TABLES)) as tablebase:
        yield tablebase


@pytest.fixture(scope="module")
def ours():
    with syzygy.open_tablebase(TABLES) as tablebase:
        yield tablebase


@pytest.fixture(scope="module")
def expected(boards, theirs):
    """python-chess's (wdl, dtz) of each board."""
    return [(theirs.probe_wdl(board), theirs.probe_dtz(board)) for board in boards]


def outcome(call, *args):
    """What `call(*args)` gives: ('ok', value) or (exception type, message)."""
    try:
        return ("ok", call(*args))
    except ERRORS as error:
        return (type(error), str(error))


def rows_of(boards):
    """(N, 12) uint64 bitboards, turn and ep_square arrays of python-chess boards."""
    rows = np.array([[board.pieces_mask(kind, color) for color, kind in PIECES] for board in boards],
                    dtype=np.uint64).reshape(-1, 12)
    turn = np.array([board.turn for board in boards], dtype=bool)
    ep = np.array([board.ep_square if board.has_legal_en_passant() else -1 for board in boards])
    return rows, turn, ep


# Single probes ------------------------------------------------------------

def test_probes_match_python_chess(boards, expected, ours):
    assert sum(board.has_legal_en_passant() for board in boards) == 300
    assert {board.turn for board in boards} == {True, False}
    for board, (wdl, dtz) in zip(boards, expected):
        ours_board = bitboards.Board(board.fen())
        assert ours.probe_wdl(ours_board) == wdl, board.fen()
        assert ours.probe_dtz(ours_board) == dtz, board.fen()
        assert ours.get_wdl(ours_board) == wdl
        assert ours.get_dtz(ours_board, default=999) == dtz


def test_python_chess_boards_through_their_fen(boards, expected, ours):
    for board, (wdl, dtz) in list(zip(boards, expected))[::7]:
        assert ours.probe_wdl(board) == wdl, board.fen()
        assert ours.probe_dtz(board) == dtz, board.fen()
        assert ours.get_wdl(board) == wdl


def test_every_value_is_seen(expected):
    # No 3- or 4-piece table has a cursed win or a blessed loss.
    assert {wdl for wdl, _ in expected} == {-2, 0, 2}
    assert len({dtz for _, dtz in expected}) > 40


def test_add_directory_counts_as_python_chess(theirs):
    for options in ({}, {"load_wdl": False}, {"load_dtz": False}, {"load_wdl": False, "load_dtz": False}):
        ours, theirs_ = syzygy.Tablebase(), chess.syzygy.Tablebase()
        assert ours.add_directory(str(TABLES), **options) == theirs_.add_directory(str(TABLES), **options)
        ours.close()
        theirs_.close()
    tablebase = syzygy.Tablebase()
    assert tablebase.add_file(TABLES / "KRvK.rtbw") == 1
    assert tablebase.add_file(TABLES / "KRvK.rtbz", load_dtz=False) == 0
    assert tablebase.add_file(TABLES / "README.md") == 0
    assert tablebase.add_file(TABLES / "KXvK.rtbw") == 0  # no such file
    assert tablebase.probe_wdl(bitboards.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1")) == 2
    tablebase.close()


def same_outcome(mine, other):
    """Our outcome and python-chess's agree: the same value, or the same
    exception (MissingTableError naming a table of the same kind: which
    missing table is found first may differ, the position's own or that of a
    capture, and the sides are in the file's order for us, White's first
    for python-chess)."""
    if mine[0] is syzygy.MissingTableError and other[0] is chess.syzygy.MissingTableError:
        *words, _ = mine[1].strip("'").split()
        *other_words, _ = other[1].strip("'").split()
        return words == other_words
    return mine == other


def test_partial_loads_answer_and_fail_as_python_chess(boards, expected):
    sample = list(zip(boards, expected))[::50] + list(zip(boards, expected))[-20:]
    for options in ({"load_dtz": False}, {"load_wdl": False}):
        ours = syzygy.open_tablebase(TABLES, **options)
        theirs = chess.syzygy.open_tablebase(str(TABLES), **options)
        failures = 0
        for board, values in sample:
            ours_board = bitboards.Board(board.fen())
            for name, value in zip(("probe_wdl", "probe_dtz"), values):
                mine = outcome(getattr(ours, name), ours_board)
                other = outcome(getattr(theirs, name), board)
                # Where python-chess misses a table the crate does not need
                # (en passant drawing a position whose own table is absent),
                # the answer is the one all the tables give.
                fewer = mine[0] == "ok" and other[0] is chess.syzygy.MissingTableError
                assert same_outcome(mine, other) or (fewer and mine[1] == value), (
                    name, options, board.fen(), mine, other)
                failures += mine[0] != "ok"
        assert failures > 10
        ours.close()
        theirs.close()


# Errors -------------------------------------------------------------------

def test_missing_tables_raise_missing_table_error(tmp_path):
    for name in ("KQvK", "KRvK"):
        for suffix in (".rtbw", ".rtbz"):
            shutil.copy(TABLES / (name + suffix), tmp_path)
    ours = syzygy.open_tablebase(tmp_path)
    theirs = chess.syzygy.open_tablebase(str(tmp_path))
    for fen in ("8/8/8/8/8/2k5/8/KB6 w - - 0 1", "8/8/8/8/8/2k5/8/KQ5r b - - 0 1",
                "8/8/8/8/8/2k5/p7/7K w - - 0 1"):
        board = chess.Board(fen)
        for name in ("probe_wdl", "probe_dtz"):
            with pytest.raises(chess.syzygy.MissingTableError):
                getattr(theirs, name)(board)
            with pytest.raises(syzygy.MissingTableError, match="did not find wdl table K") as raised:
                getattr(ours, name)(bitboards.Board(fen))
            assert isinstance(raised.value, KeyError)
        assert ours.get_wdl(bitboards.Board(fen)) is None
        assert ours.get_dtz(bitboards.Board(fen), -7) == -7
    # A capture into a table that is there: KQvKR with the rook hanging,
    # the queen taking it is a win python-chess finds too.
    assert ours.get_wdl(bitboards.Board("8/8/8/8/8/2k5/8/KQ5r w - - 0 1")) == 2
    assert theirs.get_wdl(chess.Board("8/8/8/8/8/2k5/8/KQ5r w - - 0 1")) == 2
    # Where every legal move is a capture, python-chess still asks for the
    # position's own table; the crate needs none (and is right: a draw).
    only_captures = "8/8/8/8/8/2k5/p7/K7 w - - 0 1"
    assert theirs.get_wdl(chess.Board(only_captures)) is None
    assert ours.probe_wdl(bitboards.Board(only_captures)) == 0
    ours.close()
    theirs.close()


def test_castling_and_too_many_pieces_are_key_errors_as_in_python_chess(ours, theirs):
    for fen in ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
                chess.STARTING_FEN, "4k3/8/8/8/8/8/PPPPPP2/4K3 w - - 0 1"):
        board = chess.Board(fen)
        for name in ("probe_wdl", "probe_dtz"):
            mine = outcome(getattr(ours, name), bitboards.Board(fen))
            other = outcome(getattr(theirs, name), board)
            assert mine == other, (fen, mine, other)
            assert mine[0] is KeyError
        assert ours.get_wdl(bitboards.Board(fen), "no") == "no"
        assert ours.get_dtz(bitboards.Board(fen)) is None


def test_five_to_seven_pieces_are_missing_tables_here(ours, theirs):
    fen = "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1"
    assert outcome(theirs.probe_wdl, chess.Board(fen))[0] is chess.syzygy.MissingTableError
    assert outcome(ours.probe_wdl, bitboards.Board(fen))[0] is syzygy.MissingTableError


def test_unreadable_tables_are_os_errors(tmp_path):
    (tmp_path / "KRvK.rtbw").write_bytes(b"not a table at all, but long enough to have a header" * 4)
    (tmp_path / "KQvK.rtbw").write_bytes(b"")
    board = "8/8/8/8/8/2k5/8/KR6 w - - 0 1"
    with syzygy.open_tablebase(tmp_path) as ours, chess.syzygy.open_tablebase(str(tmp_path)) as theirs:
        with pytest.raises(OSError):
            theirs.probe_wdl(chess.Board(board))
        with pytest.raises(OSError, match="KRvK.rtbw: not a valid Syzygy table"):
            ours.probe_wdl(bitboards.Board(board))
        with pytest.raises(OSError, match="KRvK.rtbw"):
            ours.get_wdl(bitboards.Board(board))  # not a KeyError: get_wdl raises it
        with pytest.raises(OSError, match="KQvK.rtbw"):
            ours.probe_wdl(bitboards.Board("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"))


def test_a_link_names_the_real_file_in_errors(tmp_path):
    (tmp_path / "KRvK.rtbw").write_bytes(b"\x00" * 64)
    with syzygy.Tablebase() as ours:
        assert ours.add_directory(tmp_path, load_dtz=False) == 1
        with pytest.raises(OSError) as raised:
            ours.probe_wdl(bitboards.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1"))
        assert str(tmp_path / "KRvK.rtbw") in str(raised.value)


def test_directories_that_cannot_be_read(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere"):
        syzygy.open_tablebase(tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError):
        syzygy.Tablebase().add_directory(tmp_path / "nowhere", load_dtz=False)
    assert syzygy.open_tablebase(tmp_path).add_directory(tmp_path) == 0


def test_what_is_not_a_board_is_a_type_error(ours):
    with pytest.raises(TypeError, match="bitboards.Board"):
        ours.probe_wdl("8/8/8/8/8/2k5/8/KR6 w - - 0 1")


def test_keyword_arguments_of_python_chess(tmp_path):
    tablebase = syzygy.open_tablebase(TABLES, max_fds=None, VariantBoard=chess.Board)
    assert tablebase.max_fds is None
    assert syzygy.Tablebase(max_fds=4, VariantBoard=bitboards.Board).max_fds == 4
    with pytest.raises(ValueError, match="atomic"):
        syzygy.Tablebase(VariantBoard=chess.variant.AtomicBoard)
    with pytest.raises(TypeError):
        syzygy.Tablebase(4)  # keyword-only, as in python-chess
    assert syzygy.TBPIECES == chess.syzygy.TBPIECES
    assert syzygy.MissingTableError.__module__ == "bitboards.syzygy"
    assert tablebase.max_pieces() == 4


# Close and the context manager -------------------------------------------

def test_close_forgets_the_tables_as_python_chess_does():
    board = bitboards.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1")
    with syzygy.open_tablebase(TABLES) as tablebase:
        assert isinstance(tablebase, syzygy.Tablebase)
        assert tablebase.probe_wdl(board) == 2
    with pytest.raises(syzygy.MissingTableError):
        tablebase.probe_wdl(board)
    assert tablebase.get_wdl(board) is None
    tablebase.close()  # twice is fine
    assert tablebase.add_directory(TABLES) == 70
    assert tablebase.probe_wdl(board) == 2


def test_close_removes_the_link_directories():
    tablebase = syzygy.open_tablebase(TABLES, load_dtz=False)
    links = list(tablebase._link_directories)
    assert len(links) == 1 and os.path.isdir(links[0])
    tablebase.close()
    assert not os.path.exists(links[0])
    # And a collected tablebase removes them too.
    tablebase = syzygy.open_tablebase(TABLES, load_wdl=False)
    links = list(tablebase._link_directories)
    del tablebase
    import gc

    gc.collect()
    assert not os.path.exists(links[0])


def test_without_links_the_files_are_read(monkeypatch, boards, expected):
    def refuse(*args, **kwargs):
        raise OSError("no symlinks here")

    monkeypatch.setattr(os, "symlink", refuse)
    with syzygy.open_tablebase(TABLES, load_dtz=False) as tablebase:
        assert tablebase._link_directories == []
        for board, (wdl, _) in list(zip(boards, expected))[::30]:
            assert tablebase.probe_wdl(board) == wdl
        assert tablebase.add_file(TABLES / "KRvK.rtbz") == 1
        assert tablebase.probe_dtz(bitboards.Board("8/8/8/8/8/2k5/8/KR6 b - - 0 1")) < 0


# probe_wdl_many -----------------------------------------------------------

def test_probe_wdl_many_matches_probe_wdl(boards, expected, ours):
    rows, turn, ep = rows_of(boards)
    # Without ep_square, the positions are the same but en passant: compare
    # with the boards without it.
    got = ours.probe_wdl_many(rows, turn=turn, ep_square=ep)
    assert got.dtype == np.int8 and got.shape == (len(boards),)
    assert got.tolist() == [wdl for wdl, _ in expected]
    no_ep = ours.probe_wdl_many(rows, turn)
    for board, value in zip(boards, no_ep.tolist()):
        board = board.copy()
        board.ep_square = None
        assert value == ours.probe_wdl(board)
    # The result is a writable array of its own.
    got[0] = 9
    # One row, and none.
    assert ours.probe_wdl_many(rows[0], turn[:1]).tolist() == [expected[0][0]]
    assert ours.probe_wdl_many(np.zeros((0, 12), np.uint64), np.zeros(0, bool)).tolist() == []


def test_probe_wdl_many_on_every_core_from_several_threads(boards, expected, ours):
    rows, turn, ep = rows_of(boards)
    rows, turn, ep = np.tile(rows, (8, 1)), np.tile(turn, 8), np.tile(ep, 8)
    want = [wdl for wdl, _ in expected] * 8
    results = [None] * 4

    def run(i):
        results[i] = ours.probe_wdl_many(rows, turn, ep_square=ep).tolist()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result == want for result in results)


def test_probe_wdl_many_errors(ours):
    rows, turn, _ = rows_of([chess.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1")] * 5
                           + [chess.Board("8/8/8/8/8/2k5/8/KR5r w - - 0 1")]  # KRvKR
                           + [chess.Board("4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1")])  # 5 pieces
    castling = np.zeros(7, dtype=np.uint64)
    castling[2] = chess.BB_A1
    with pytest.raises(KeyError, match="row 2: syzygy tables do not contain positions with castling rights"):
        ours.probe_wdl_many(rows, turn, castling=castling)
    with pytest.raises(syzygy.MissingTableError, match="row 6: did not find wdl table KPPPvK"):
        ours.probe_wdl_many(rows, turn)
    got = ours.probe_wdl_many(rows, turn, castling=castling, default=-128)
    assert got.tolist() == [2, 2, -128, 2, 2, 2, -128]
    # Too many pieces.
    many = np.array([chess.Board().pieces_mask(kind, color) for color, kind in PIECES], dtype=np.uint64)
    with pytest.raises(KeyError, match="row 0: syzygy tables support up to 7 pieces, not 32"):
        ours.probe_wdl_many(many, [True])
    assert ours.probe_wdl_many(many, [True], default=0).tolist() == [0]
    # Rows that are no position: ValueError even with a default.
    bad = np.tile(rows[0], (4, 1))
    bad[1, 0] = 1 << chess.B1  # a pawn on the first rank, on the rook's square too
    bad[2, 11] = 0  # no black king
    bad[3, 3] = 1 << chess.C1  # White's rook checks Black's king, White to move
    for default in (None, 0):
        with pytest.raises(ValueError, match="row 1: two pieces on b1"):
            ours.probe_wdl_many(bad, [True] * 4, default=default)
    with pytest.raises(ValueError, match="row 0: not a legal position: .*black has 0 kings"):
        ours.probe_wdl_many(bad[2:], [True, True])
    with pytest.raises(ValueError, match="row 0: not a legal position"):
        ours.probe_wdl_many(bad[3:], [True])
    with pytest.raises(ValueError, match="row 0: not a legal position"):
        ours.probe_wdl_many(rows[:1], [True], ep_square=[chess.E3])
    # Shapes and arguments.
    with pytest.raises(ValueError, match="turn has shape"):
        ours.probe_wdl_many(rows, turn[:3])
    with pytest.raises(ValueError, match="12"):
        ours.probe_wdl_many(np.zeros((3, 11), np.uint64), [True] * 3)
    with pytest.raises(TypeError, match="turn"):
        ours.probe_wdl_many(rows)
    with pytest.raises(ValueError, match="int8"):
        ours.probe_wdl_many(rows, turn, default=300)


def positions_pgn(games):
    """A PGN of python-chess games: (start FEN, chess960, [uci])."""
    out = io.StringIO()
    for start, chess960, moves in games:
        board = chess.Board(start, chess960=chess960)
        game = chess.pgn.Game()
        if start != chess.STARTING_FEN or chess960:
            game.setup(board)
        node = game
        for uci in moves:
            node = node.add_variation(chess.Move.from_uci(uci))
        print(game, file=out, end="\n\n")
    return out.getvalue().encode()


def board_of_row(row):
    """python-chess's board of a read_positions row (a dict)."""
    board = chess.Board(None)
    for (color, kind), mask in zip(PIECES, row["bitboards"]):
        for square in chess.SquareSet(mask):
            board.set_piece_at(square, chess.Piece(kind, color))
    board.turn = row["turn"]
    board.castling_rights = row["castling"]
    board.ep_square = row["ep_square"]
    return board


def check_table(table, ours, theirs):
    """probe_wdl_many of a read_positions table (default -128) against
    python-chess's get_wdl of each row's board; returns the rows probed."""
    got = ours.probe_wdl_many(table, default=-128).tolist()
    probed = 0
    for value, row in zip(got, table.to_pylist()):
        board = board_of_row(row)
        want = theirs.get_wdl(board, -128)
        assert value == want, board.fen()
        probed += want != -128
    return probed


def test_probe_wdl_many_on_read_positions_of_the_test_games(played_games, ours, theirs):
    table = bitboards.pgn.read_positions(positions_pgn(played_games.values()), final_position=True)
    assert set(table.column_names) >= {"bitboards", "turn", "castling", "ep_square"}
    probed = check_table(table, ours, theirs)
    assert 0 < probed < table.num_rows
    with pytest.raises(KeyError, match="castling"):
        ours.probe_wdl_many(table)
    with pytest.raises(TypeError, match="own turn"):
        ours.probe_wdl_many(table, table["turn"])


def test_probe_wdl_many_on_an_endgame_table(ours, theirs):
    """Random games from random 3- and 4-piece positions (double pushes
    among them): every row is in the tables."""
    rng = random.Random(4747)
    games = []
    for i in range(150):
        board = random_endgame(rng, MATERIALS[i % len(MATERIALS)]) if i % 3 else en_passant_endgame(rng)
        start = board.fen()
        moves = []
        for _ in range(rng.randrange(1, 30)):
            legal = list(board.legal_moves)
            if not legal or board.is_game_over():
                break
            move = rng.choice(legal)
            moves.append(move.uci())
            board.push(move)
        games.append((start, False, moves))
    table = bitboards.pgn.read_positions(positions_pgn(games), final_position=True)
    assert pc.sum(pc.is_valid(table["ep_square"])).as_py() > 20
    assert check_table(table, ours, theirs) == table.num_rows
    # Raising, as probe_wdl does: no row fails.
    assert ours.probe_wdl_many(table).tolist() == ours.probe_wdl_many(table, default=-128).tolist()
    # Record batches, as iter_positions streams them, and the columns as arrays.
    batches = list(bitboards.pgn.iter_positions(positions_pgn(games), batch_size=100, final_position=True))
    whole = np.concatenate([ours.probe_wdl_many(batch) for batch in batches])
    assert whole.tolist() == ours.probe_wdl_many(table).tolist()
    columns = ours.probe_wdl_many(table["bitboards"], table["turn"], castling=table["castling"],
                                  ep_square=table["ep_square"])
    assert columns.tolist() == whole.tolist()
    # A table without its optional columns.
    bare = pa.table({"bitboards": table["bitboards"], "turn": table["turn"]})
    assert ours.probe_wdl_many(bare).shape == (table.num_rows,)
    with pytest.raises(ValueError, match="no 'turn' column"):
        ours.probe_wdl_many(pa.table({"bitboards": table["bitboards"]}))

