"""`bitboards.syzygy`'s python-chess names below `probe_wdl`/`probe_dtz`,
against python-chess's `chess.syzygy` (the oracle): the table-name helpers
(`tablenames`, `normalize_tablename`, `is_tablename`, `calc_key`,
`dependencies`, `all_dependencies`, `dtz_before_zeroing`) on every table
name of up to five pieces, their shuffles and random strings; the raw
probes (`Tablebase.probe_wdl_table`, `probe_dtz_table`, `probe_ab`,
`probe_dtz_no_ep`) and the one-file tables (`WdlTable`, `DtzTable`) on
random positions of every 3- and 4-piece table, en passant and castling
rights among them; `add_directory`'s counts; the errors."""

import itertools
import os
import random
import sys
from pathlib import Path

import chess
import chess.syzygy
import pytest

import bitboards
import bitboards.syzygy as syzygy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from endgames import en_passant_endgame, random_endgame  # noqa: E402

sys.path.pop(0)

TABLES = Path(__file__).resolve().parents[3] / "tests" / "data" / "syzygy"
MATERIALS = sorted({name.split(".")[0] for name in os.listdir(TABLES) if name.endswith(".rtbw")})
ERRORS = (KeyError, OSError, ValueError, TypeError, IndexError)


def outcome(call, *args, **kwargs):
    """('ok', value) or the exception's type: what a call gives."""
    try:
        return ("ok", call(*args, **kwargs))
    except ERRORS as error:
        return ("error", type(error))


def same_error_kind(ours, theirs):
    """Both answered alike, or both raised a KeyError (MissingTableError is
    one) or both an OSError."""
    if ours == theirs:
        return True
    for kind in (chess.syzygy.MissingTableError, KeyError, OSError):
        if ours[0] == theirs[0] == "error" and issubclass(ours[1], kind) and issubclass(theirs[1], kind):
            return True
    return False


# Names ----------------------------------------------------------------------

ALL_NAMES = sorted(set(chess.syzygy.tablenames(piece_count=5)) | set(chess.syzygy.tablenames(one_king=False, piece_count=5)))


def variants_of(name, rng):
    """The name, its sides swapped, and each side shuffled."""
    white, black = name.split("v")
    shuffled = ["".join(rng.sample(side, len(side))) for side in (white, black)]
    return [name, f"{black}v{white}", "v".join(shuffled), f"{shuffled[1]}v{shuffled[0]}"]


@pytest.fixture(scope="module")
def names():
    rng = random.Random(11)
    return [variant for name in ALL_NAMES for variant in variants_of(name, rng)]


def test_the_names_cover_five_pieces():
    assert len(ALL_NAMES) > 2500
    assert "KRPvKR" in ALL_NAMES and "KKvQQ" in ALL_NAMES


@pytest.mark.parametrize("one_king", [True, False])
def test_tablenames(one_king):
    for piece_count in range(0, 8):
        ours = list(syzygy.tablenames(one_king=one_king, piece_count=piece_count))
        theirs = list(chess.syzygy.tablenames(one_king=one_king, piece_count=piece_count))
        assert len(ours) == len(set(ours)), piece_count
        assert set(ours) == set(theirs), piece_count
    assert sum(1 for name in syzygy.tablenames(one_king=False) if len(name) == 7) == 5754
    assert "KRRvKRR" in syzygy.tablenames() and "KQRBNvKP" not in syzygy.tablenames()


def test_normalize_tablename(names):
    for name in names:
        for mirror in (False, True):
            assert syzygy.normalize_tablename(name, mirror=mirror) == chess.syzygy.normalize_tablename(name, mirror=mirror), name
    assert syzygy.normalize_tablename("KNNvKBB") == "KBBvKNN"
    assert syzygy.normalize_tablename("KvKPR") == "KRPvK"


def test_is_tablename(names):
    rng = random.Random(5)
    noise = ["".join(rng.choice("KQRBNPvkx ") for _ in range(rng.randrange(0, 10))) for _ in range(3000)]
    for name in names + noise + ["", "v", "KvK", "Kv", "vK", "KvK\n", "KQvKvK"]:
        for one_king, piece_count, normalized in itertools.product((True, False), (None, 2, 3, 5, 7), (True, False)):
            kwargs = dict(one_king=one_king, piece_count=piece_count, normalized=normalized)
            assert syzygy.is_tablename(name, **kwargs) == chess.syzygy.is_tablename(name, **kwargs), (name, kwargs)


def test_dependencies(names):
    for name in names:
        for one_king in (True, False):
            ours = list(syzygy.dependencies(name, one_king=one_king))
            assert len(ours) == len(set(ours)), name
            assert set(ours) == set(chess.syzygy.dependencies(name, one_king=one_king)), (name, one_king)
    assert set(syzygy.dependencies("KBNvK")) == {"KBvK", "KNvK"}


def test_all_dependencies(names):
    rng = random.Random(8)
    for one_king in (True, False):
        for name in names[::7]:
            ours = list(syzygy.all_dependencies([name], one_king=one_king))
            assert len(ours) == len(set(ours))
            assert set(ours) == set(chess.syzygy.all_dependencies([name], one_king=one_king)), name
        for _ in range(200):
            targets = rng.sample(ALL_NAMES if not one_king else list(syzygy.tablenames(piece_count=5)), rng.randrange(0, 4))
            assert set(syzygy.all_dependencies(targets, one_king=one_king)) == set(
                chess.syzygy.all_dependencies(targets, one_king=one_king)), targets


def test_names_that_are_not_names_are_value_errors():
    for bad in ("KQK", "", "KXvK", "kqvk", "K Q v K"):
        for call in (syzygy.normalize_tablename, lambda name: list(syzygy.dependencies(name)),
                     lambda name: list(syzygy.all_dependencies([name]))):
            with pytest.raises(ValueError, match="not a table name"):
                call(bad)
        assert not syzygy.is_tablename(bad)
    with pytest.raises(TypeError):
        syzygy.normalize_tablename(42)


def test_dtz_before_zeroing():
    for wdl in range(-4, 5):
        assert syzygy.dtz_before_zeroing(wdl) == chess.syzygy.dtz_before_zeroing(wdl)


def test_calc_key_on_random_material(boards):
    """Random material (up to 32 pieces, kings or none) on random squares,
    on python-chess boards; on bitboards boards, the valid random boards of
    the probes' tests."""
    rng = random.Random(3)
    symbols = "PNBRQKpnbrqk"
    for _ in range(2000):
        board = chess.Board(None)
        for square in rng.sample(range(64), rng.randrange(0, 33)):
            board.set_piece_at(square, chess.Piece.from_symbol(rng.choice(symbols)))
        for mirror in (False, True):
            assert syzygy.calc_key(board, mirror=mirror) == chess.syzygy.calc_key(board, mirror=mirror)
    for board in boards:
        for mirror in (False, True):
            assert syzygy.calc_key(bitboards.Board(board.fen()), mirror=mirror) == chess.syzygy.calc_key(board, mirror=mirror)
    board = chess.Board("8/8/8/5N2/5K2/2kB4/8/8 b - - 0 1")
    assert syzygy.calc_key(bitboards.Board(board.fen())) == syzygy.normalize_tablename("KBNvK") == "KBNvK"


# Probes ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def boards():
    """1,400 random boards of every 3- and 4-piece table (both sides the
    stronger), 300 with en passant, a few of five pieces (whose tables are
    missing, but whose captures reach four) and of castling rights."""
    rng = random.Random(48)
    extra = [chess.Board(fen) for fen in (
        "8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2",
        "8/8/8/8/2pP4/2K5/4k3/8 b - d3 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        "r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
        "8/8/8/8/8/1k6/2R5/K7 b - - 0 1",
        "7k/8/8/8/8/8/1rR5/K7 w - - 0 1",
        "8/8/8/3k4/3r4/3R4/3Q4/3K4 b - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    )]
    return ([random_endgame(rng, MATERIALS[i % len(MATERIALS)]) for i in range(1400)]
            + [en_passant_endgame(rng) for _ in range(300)]
            + [random_endgame(rng, rng.choice(MATERIALS) + rng.choice("QRBNP")) for _ in range(100)]
            + extra)


@pytest.fixture(scope="module")
def theirs():
    with chess.syzygy.open_tablebase(str(TABLES)) as tablebase:
        yield tablebase


@pytest.fixture(scope="module")
def ours():
    with syzygy.open_tablebase(TABLES) as tablebase:
        yield tablebase


def test_add_directory_counts(tmp_path):
    for load_wdl, load_dtz in ((True, True), (True, False), (False, True), (False, False)):
        with chess.syzygy.Tablebase() as theirs, syzygy.Tablebase() as ours:
            expected = theirs.add_directory(str(TABLES), load_wdl=load_wdl, load_dtz=load_dtz)
            assert ours.add_directory(TABLES, load_wdl=load_wdl, load_dtz=load_dtz) == expected
    assert expected == 0
    # Names python-chess passes over: not normalized, the kings alone, not a table's suffix.
    for name in ("KRvK.rtbw", "KvKR.rtbw", "KvK.rtbw", "KRvK.txt", "notes.rtbw", "KRvK.rtbz"):
        source = TABLES / ("KRvK" + os.path.splitext(name)[1]) if name.startswith("K") else TABLES / "KRvK.rtbw"
        (tmp_path / name).write_bytes(source.read_bytes() if source.exists() else b"")
    with chess.syzygy.Tablebase() as theirs, syzygy.Tablebase() as ours:
        assert ours.add_directory(tmp_path) == theirs.add_directory(str(tmp_path)) == 2
        for name in sorted(os.listdir(tmp_path)):
            path = str(tmp_path / name)
            assert ours.add_file(path) == theirs.add_file(path), name
        board = chess.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1")
        assert ours.probe_wdl(board) == theirs.probe_wdl(board) == 2


def test_probe_wdl_table(boards, ours, theirs):
    checked = 0
    for board in boards:
        expected = outcome(theirs.probe_wdl_table, board)
        for given in (bitboards.Board(board.fen()), board):
            got = outcome(ours.probe_wdl_table, given)
            assert same_error_kind(got, expected), (board.fen(), got, expected)
        checked += expected[0] == "ok"
    assert checked > 1500


def test_probe_wdl_table_differs_from_probe_wdl_where_python_chess_says(ours):
    board = bitboards.Board("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2")  # only en passant wins
    assert (ours.probe_wdl_table(board), ours.probe_wdl(board)) == (0, 2)
    # KvK needs no table; castling rights are not looked at by the table.
    assert syzygy.Tablebase().probe_wdl_table(bitboards.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")) == 0
    assert ours.probe_wdl_table(bitboards.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")) == 2


def test_probe_dtz_table(boards, ours, theirs):
    rng = random.Random(9)
    found = other_side = 0
    for board in boards:
        wdl = outcome(theirs.probe_wdl, board)
        for asked in ([wdl[1]] if wdl[0] == "ok" else []) + [rng.choice((-2, -1, 0, 1, 2))]:
            expected = outcome(theirs.probe_dtz_table, board, asked)
            got = outcome(ours.probe_dtz_table, bitboards.Board(board.fen()), asked)
            assert same_error_kind(got, expected), (board.fen(), asked, got, expected)
            if expected[0] == "ok":
                found += expected[1][1] == 1
                other_side += expected[1] == (0, -1)
    assert found > 1000 and other_side > 500
    with pytest.raises(ValueError, match="wdl must be"):
        ours.probe_dtz_table(bitboards.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1"), 3)


def test_probe_ab(boards, ours, theirs):
    rng = random.Random(10)
    for board in boards:
        windows = [(-2, 2)] + [tuple(sorted(rng.sample(range(-3, 4), 2))) for _ in range(2)]
        for alpha, beta in windows:
            expected = outcome(theirs.probe_ab, board, alpha, beta)
            got = outcome(ours.probe_ab, bitboards.Board(board.fen()), alpha, beta)
            assert same_error_kind(got, expected), (board.fen(), alpha, beta, got, expected)
    assert ours.probe_ab(bitboards.Board("8/8/8/8/8/1k6/2R5/K7 b - - 0 1"), -2, 2, threats=True) == (0, 1)


def test_probe_dtz_no_ep(boards, ours, theirs):
    differs = 0
    for board in boards:
        expected = outcome(theirs.probe_dtz_no_ep, board)
        got = outcome(ours.probe_dtz_no_ep, bitboards.Board(board.fen()))
        if (got[0] == "ok" and expected == ("error", chess.syzygy.MissingTableError)
                and len(board.piece_map()) == 5 and all(board.is_zeroing(move) for move in board.legal_moves)):
            # Every move captures or moves a pawn: bitboards needs no table of
            # the position's own (as probe_dtz, which has the same answer).
            assert got[1] == ours.probe_dtz(bitboards.Board(board.fen()))
            continue
        assert same_error_kind(got, expected), (board.fen(), got, expected)
        if board.ep_square is not None and expected[0] == "ok":
            differs += expected[1] != theirs.probe_dtz(board)
    assert differs > 10  # en passant changes some of them
    board = bitboards.Board("8/8/8/8/2pP4/2K5/4k3/8 b - d3 0 1")
    assert (ours.probe_dtz_no_ep(board), ours.probe_dtz(board)) == (-1, 1)


def test_one_file_tables(boards, theirs):
    by_material = {}
    for board in boards:
        key = chess.syzygy.calc_key(board)
        name = chess.syzygy.normalize_tablename(key)
        if name in MATERIALS and not board.castling_rights:
            by_material.setdefault(name, []).append(board)
    assert len(by_material) == len(MATERIALS)
    for name, group in by_material.items():
        with syzygy.WdlTable(TABLES / f"{name}.rtbw") as wdl, syzygy.DtzTable(TABLES / f"{name}.rtbz") as dtz, \
                chess.syzygy.WdlTable(str(TABLES / f"{name}.rtbw")) as their_wdl, \
                chess.syzygy.DtzTable(str(TABLES / f"{name}.rtbz")) as their_dtz:
            wdl.init_table_wdl()
            dtz.init_table_dtz()
            their_wdl.init_table_wdl()
            their_dtz.init_table_dtz()
            for attribute in ("key", "mirrored_key", "symmetric", "num", "has_pawns"):
                assert getattr(wdl, attribute) == getattr(their_wdl, attribute), (name, attribute)
            assert wdl.initialized and dtz.initialized
            for board in group:
                ours_board = bitboards.Board(board.fen())
                assert wdl.probe_wdl_table(ours_board) == their_wdl.probe_wdl_table(board), board.fen()
                for asked in (-2, -1, 1, 2):
                    assert dtz.probe_dtz_table(ours_board, asked) == their_dtz.probe_dtz_table(board, asked), (board.fen(), asked)
        assert not wdl.initialized
        # A closed table is read again by the next probe.
        assert wdl.probe_wdl_table(bitboards.Board(group[0].fen())) == their_wdl.probe_wdl_table(group[0])


def test_python_chess_table_tests():
    """test.py's own positions for the one-file tables."""
    wdl = syzygy.WdlTable(str(TABLES / "KBNvK.rtbw"))
    for fen, value in (("8/8/8/5N2/5K2/2kB4/8/8 b - - 0 1", -2), ("7B/5kNK/8/8/8/8/8/8 w - - 0 1", 2),
                       ("N7/8/2k5/8/7K/8/8/B7 w - - 0 1", 2), ("8/8/1NkB4/8/7K/8/8/8 w - - 1 1", 0),
                       ("8/8/8/2n5/2b1K3/2k5/8/8 w - - 0 1", -2)):
        assert wdl.probe_wdl_table(bitboards.Board(fen)) == value
    dtz = syzygy.DtzTable(TABLES / "KRvKN.rtbz")
    assert dtz.probe_dtz_table(bitboards.Board("7n/6k1/4R3/4K3/8/8/8/8 w - - 0 1"), 2) == (0, -1)
    assert dtz.probe_dtz_table(bitboards.Board("7n/6k1/4R3/4K3/8/8/8/8 b - - 1 1"), -2) == (8, 1)
    assert syzygy.DtzTable(TABLES / "KNvKP.rtbz").probe_dtz_table(
        bitboards.Board("8/1K6/1P6/8/8/8/6n1/7k w - - 0 1"), 2) == (2, 1)


def test_table_errors(tmp_path):
    with pytest.raises(ValueError, match="not named as a Syzygy table"):
        syzygy.WdlTable(tmp_path / "notes.rtbw")
    with pytest.raises(ValueError, match="ends in .rtbz"):
        syzygy.DtzTable(TABLES / "KRvK.rtbw")
    with pytest.raises(FileNotFoundError):
        syzygy.WdlTable(tmp_path / "KQvK.rtbw").init_table_wdl()
    (tmp_path / "KQvK.rtbw").write_bytes(b"not a table")
    with pytest.raises(OSError, match="not a Syzygy WDL table"):
        syzygy.WdlTable(tmp_path / "KQvK.rtbw").probe_wdl_table(bitboards.Board("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"))
    (tmp_path / "KRvK.rtbz").write_bytes((TABLES / "KRvK.rtbw").read_bytes())
    with pytest.raises(OSError, match="not a Syzygy DTZ table"):
        syzygy.DtzTable(tmp_path / "KRvK.rtbz").init_table_dtz()
    with pytest.raises(ValueError, match="material is KQvK, not this table's \\(KRvK\\)"):
        syzygy.WdlTable(TABLES / "KRvK.rtbw").probe_wdl_table(bitboards.Board("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"))
    # The mirrored material is the table's.
    assert syzygy.WdlTable(TABLES / "KRvK.rtbw").probe_wdl_table(bitboards.Board("8/8/8/8/8/2K5/8/kr6 b - - 0 1")) == 2
    with pytest.raises(ValueError, match="standard chess"):
        syzygy.WdlTable(TABLES / "KRvK.rtbw", variant=type("Atomic", (), {"uci_variant": "atomic"}))


def test_tablebase_errors():
    empty = syzygy.Tablebase()
    board = bitboards.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1")
    with pytest.raises(syzygy.MissingTableError, match="did not find wdl table KRvK"):
        empty.probe_wdl_table(board)
    with pytest.raises(syzygy.MissingTableError, match="did not find dtz table KRvK"):
        empty.probe_dtz_table(board, 2)
    with pytest.raises(syzygy.MissingTableError):
        empty.probe_ab(board, -2, 2)
    with pytest.raises(syzygy.MissingTableError):
        empty.probe_dtz_no_ep(board)
    with pytest.raises(KeyError, match="castling"):
        empty.probe_ab(bitboards.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), -2, 2)
    crowded = bitboards.Board("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1")
    with pytest.raises(KeyError, match="up to 7 pieces, not 10"):
        empty.probe_wdl_table(crowded)
    with pytest.raises(KeyError, match="up to 7 pieces, not 10"):
        empty.probe_ab(crowded, -2, 2)
    with pytest.raises(TypeError, match="bitboards.Board"):
        empty.probe_wdl_table("8/8/8/8/8/2k5/8/KR6 w - - 0 1")
