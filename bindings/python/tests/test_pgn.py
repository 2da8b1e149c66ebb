"""`bitboards.pgn` against python-chess's PGN reader.

python-chess writes seeded games (Lichess-like headers, `[%eval]` and
`[%clk]` comments, a Chess960 game) into PGN files; `bitboards.pgn` and
`chess.pgn` read them back and must agree on the headers, the moves, the
SAN, the clocks, the evals and the final position. The same files are read
compressed (zstd, gzip, bzip2), from file objects, on one and two threads,
and as Arrow tables and Parquet files.
"""

import bz2
import gzip
import io
import random
import shutil
import subprocess
import warnings

import chess
import chess.pgn
import pyarrow
import pyarrow.parquet
import pytest

import bitboards
import bitboards.pgn
from conftest import GameSpec, play_game

COLUMNS = [
    "Event", "Site", "White", "Black", "Result", "WhiteTitle", "BlackTitle", "WhiteElo", "BlackElo",
    "WhiteRatingDiff", "BlackRatingDiff", "UTCDate", "UTCTime", "ECO", "Opening", "Termination",
    "TimeControl", "movetext", "plies", "fen", "outcome", "uci", "clocks", "evals",
]

OPENINGS = [
    ("C20", "King's Pawn Game"),
    ("B01", "Scandinavian Defense: Mieses-Kotroc Variation"),
    ("A00", "Van't Kruijs Opening"),
    ("D02", "Queen's Pawn Game: Zukertort Variation"),
]

# Evals as written (White's view): centipawns in pawns with up to two
# decimals, and mates. Each with its exact value.
CP_TEXTS = ["0.17", "-0.3", "0.0", "1.05", "-2.5", "12.34", "0.29", "-0.07", "3", "0.57", "-10.01"]
MATE_TEXTS = ["#-3", "#4", "#1", "#-1", "#12"]


def exact_cp(text):
    """The centipawns of an eval written in pawns, without floats."""
    sign = -1 if text.startswith("-") else 1
    whole, _, frac = text.lstrip("+-").partition(".")
    return sign * (int(whole or "0") * 100 + int((frac + "00")[:2]))


def clock_text(tenths):
    """`[%clk]`'s text of a clock in tenths of a second."""
    whole, tenth = divmod(tenths, 10)
    text = f"{whole // 3600}:{whole % 3600 // 60:02}:{whole % 60:02}"
    return text + (f".{tenth}" if tenth else "")


def same_clocks(got, expected):
    """Clock lists equal, None for None and floats to a microsecond."""
    return len(got) == len(expected) and all(
        (a is None and b is None) or (a is not None and b is not None and abs(a - b) < 1e-6)
        for a, b in zip(got, expected)
    )


def make_game(index, rng, spec):
    """A python-chess game of `spec` with Lichess's headers and comments,
    and what was written: [(clock seconds or None, eval text or None)]."""
    start, chess960, moves = play_game(spec)
    board = chess.Board(start, chess960=chess960)
    game = chess.pgn.Game()
    if start != chess.STARTING_FEN or chess960:
        game.setup(board)
    eco, opening = OPENINGS[index % len(OPENINGS)]
    headers = {
        "Event": f"Rated Blitz game {index}",
        "Site": f"https://lichess.org/g{index:07}",
        "White": f"white_{index}",
        "Black": f"O'Black {index}" if index % 5 == 3 else f"black_{index}",
        "WhiteElo": str(1500 + 37 * index),
        "BlackElo": str(2400 - 29 * index),
        "UTCDate": "2024.01.02",
        "UTCTime": "12:34:56",
        "ECO": eco,
        "Opening": opening,
        "TimeControl": "180+0",
        "Termination": "Normal" if index % 2 else "Time forfeit",
    }
    if index % 3 == 0:
        headers["WhiteRatingDiff"] = f"+{index + 1}"
        headers["BlackRatingDiff"] = f"-{index + 2}"
    if index % 4 == 1:
        headers["WhiteTitle"] = "GM"
    for name, value in headers.items():
        game.headers[name] = value
    node = game
    written = []
    clocks = [1800, 1800]  # Tenths of a second.
    for ply, uci in enumerate(moves):
        move = chess.Move.from_uci(uci)
        node = node.add_variation(move)
        board.push(move)
        clocks[ply % 2] = max(0, clocks[ply % 2] - rng.choice([0, 5, 10, 23, 70]))
        kind = rng.random()
        clock = eval_text = None
        if kind < 0.08:
            pass  # No comment.
        elif kind < 0.15:
            clock = clocks[ply % 2] / 10
            node.comment = f"[%clk {clock_text(clocks[ply % 2])}]"
        else:
            eval_text = rng.choice(MATE_TEXTS) if kind > 0.92 else rng.choice(CP_TEXTS)
            clock = clocks[ply % 2] / 10
            note = "A blunder. " if kind > 0.9 else ""
            node.comment = f"{note}[%eval {eval_text}] [%clk {clock_text(clocks[ply % 2])}]"
        written.append((clock, eval_text))
    outcome = board.outcome(claim_draw=True)
    game.headers["Result"] = outcome.result() if outcome else rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    return game, written


def make_games(count, seed):
    rng = random.Random(seed)
    games = []
    for index in range(count):
        if index == 5:
            pos = rng.randrange(960)
            spec = GameSpec(f"pgn960-{index}", seed + index, chess960=True, pos960=pos if pos != 518 else 0,
                            plies=rng.randrange(20, 90))
        elif index == 7:
            spec = GameSpec(f"pgn-fen-{index}", seed + index, fen="4k3/1p1p1p1p/8/P1P1P1P1/8/8/8/4K3 b - - 0 1",
                            capture=0.9, plies=40)
        elif index == 9:
            spec = GameSpec(f"pgn-short-{index}", seed + index, plies=0)
        elif index == 11:
            # Fool's mate: the game ends in checkmate.
            spec = GameSpec(f"pgn-mate-{index}", seed + index, opening=("f2f3", "e7e5", "g2g4", "d8h4"), plies=4)
        elif index == 13:
            # The king takes the queen: insufficient material.
            spec = GameSpec(f"pgn-draw-{index}", seed + index, fen="4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
                            opening=("e1d2",), plies=1)
        else:
            spec = GameSpec(f"pgn-{index}", seed + index, plies=rng.randrange(1, 110), capture=0.4)
        games.append(make_game(index, rng, spec))
    return games


def pgn_text(games):
    return "".join(f"{game}\n\n" for game, _ in games)


@pytest.fixture(scope="module")
def games():
    return make_games(24, 77)


@pytest.fixture
def pgn_path(tmp_path, games):
    path = tmp_path / "games.pgn"
    path.write_text(pgn_text(games), encoding="utf-8")
    return path


def python_chess_games(path):
    result = []
    with open(path, encoding="utf-8") as handle:
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                return result
            result.append(game)


def game_summary(game):
    """What a `bitboards.pgn.GameRecord` says, for comparing two readings."""
    return (
        game.number,
        dict(game.headers),
        [m.uci() for m in game.moves],
        list(game.clocks),
        [None if e is None else (e.cp, e.mate) for e in game.evals],
        list(game.errors),
        game.result,
    )


def compare_games(ours, theirs, written):
    assert len(ours) == len(theirs) == len(written)
    for number, (game, py, (_, notes)) in enumerate(zip(ours, theirs, written), start=1):
        assert game.number == number
        assert game.errors == []
        assert py.errors == []
        assert game.headers == dict(py.headers)
        moves = list(py.mainline_moves())
        assert [m.uci() for m in game.moves] == [m.uci() for m in moves]
        sans = []
        board = py.board()
        for move in moves:
            sans.append(board.san(move))
            board.push(move)
        assert game.sans() == sans
        assert game.board().fen() == py.end().board().fen()
        assert [m.uci() for m in game.board().move_stack] == [m.uci() for m in moves]
        assert game.start().fen() == py.board().fen()
        assert game.board().chess960 == py.board().chess960
        nodes = list(py.mainline())
        assert len(game.clocks) == len(game.evals) == len(nodes) == len(notes)
        for node, clock, score, (clock_written, eval_text) in zip(nodes, game.clocks, game.evals, notes):
            assert same_clocks([clock], [node.clock()])
            assert same_clocks([clock], [clock_written])
            expected = node.eval()
            if expected is None:
                assert score is None
                assert eval_text is None
                continue
            white = expected.white()
            assert score is not None
            assert score.mate == white.mate()
            assert score.is_mate() == white.is_mate()
            if eval_text.startswith("#"):
                assert score.cp is None
                assert score.mate == int(eval_text[1:])
            else:
                assert score.mate is None
                assert score.cp == exact_cp(eval_text)
                assert score.cp == round(float(eval_text) * 100) == white.score()
        # The movetext's result.
        assert game.result == py.headers["Result"]
        check_outcome(game.outcome, py.end().board())


def check_outcome(outcome, board):
    """`Game.outcome` by the rules against python-chess's final board, where
    the two are defined alike."""
    expected = board.outcome(claim_draw=False)
    if expected is not None and expected.termination == chess.Termination.CHECKMATE:
        assert outcome is not None
        assert outcome.winner == expected.winner
        assert outcome.result() == expected.result()
    elif expected is not None:
        assert outcome is not None
        assert outcome.winner is None
        assert outcome.result() == "1/2-1/2"
    elif board.halfmove_clock < 100 and not board.is_repetition(3):
        assert outcome is None


def test_read_games_against_python_chess(pgn_path, games):
    ours = list(bitboards.pgn.read_games(pgn_path))
    compare_games(ours, python_chess_games(pgn_path), games)
    # The Chess960 game carries its headers.
    c960 = ours[5]
    assert c960.headers["Variant"] == "Chess960"
    assert c960.headers["SetUp"] == "1"
    assert c960.start().fen() == c960.headers["FEN"]
    assert c960.start().chess960


def test_read_games_from_str_path_and_list(pgn_path, games):
    expected = [game_summary(g) for g in bitboards.pgn.read_games(pgn_path)]
    assert [game_summary(g) for g in bitboards.pgn.read_games(str(pgn_path))] == expected
    # A list of paths: the files one after the other, numbered on.
    both = [game_summary(g) for g in bitboards.pgn.read_games([pgn_path, str(pgn_path)])]
    assert [s[1:] for s in both] == [s[1:] for s in expected] * 2


def test_read_games_from_file_objects(pgn_path, games):
    expected = [game_summary(g) for g in bitboards.pgn.read_games(pgn_path)]
    with open(pgn_path, "rb") as handle:
        assert [game_summary(g) for g in bitboards.pgn.read_games(handle)] == expected
    with open(pgn_path, encoding="utf-8") as handle:
        assert [game_summary(g) for g in bitboards.pgn.read_games(handle)] == expected
    data = pgn_path.read_bytes()
    assert [game_summary(g) for g in bitboards.pgn.read_games(io.BytesIO(data))] == expected


def test_compressed_files(tmp_path, pgn_path, games):
    expected = [game_summary(g) for g in bitboards.pgn.read_games(pgn_path)]
    data = pgn_path.read_bytes()
    gz = tmp_path / "games.pgn.gz"
    with gzip.open(gz, "wb") as out:
        out.write(data)
    assert [game_summary(g) for g in bitboards.pgn.read_games(gz)] == expected
    bz = tmp_path / "games.pgn.bz2"
    bz.write_bytes(bz2.compress(data))
    assert [game_summary(g) for g in bitboards.pgn.read_games(bz)] == expected
    # Told apart by content, not by name.
    disguised = tmp_path / "gzipped.pgn"
    disguised.write_bytes(gz.read_bytes())
    assert [game_summary(g) for g in bitboards.pgn.read_games(disguised)] == expected
    with open(gz, "rb") as handle:
        assert [game_summary(g) for g in bitboards.pgn.read_games(handle)] == expected
    assert bitboards.pgn.read_table(gz).num_rows == len(games)


@pytest.mark.skipif(shutil.which("zstd") is None, reason="no zstd command")
def test_zstd_file(tmp_path, pgn_path, games):
    expected = [game_summary(g) for g in bitboards.pgn.read_games(pgn_path)]
    subprocess.run(["zstd", "-q", str(pgn_path)], check=True)
    zst = tmp_path / "games.pgn.zst"
    assert zst.exists()
    assert [game_summary(g) for g in bitboards.pgn.read_games(zst)] == expected
    assert [game_summary(g) for g in bitboards.pgn.read_games(zst, threads=2)] == expected
    compare_games(list(bitboards.pgn.read_games(zst)), python_chess_games(pgn_path), games)
    assert bitboards.pgn.read_table(zst).equals(bitboards.pgn.read_table(pgn_path))


def test_threads_give_the_same_games(tmp_path, games):
    # Enough games that the file is read in several chunks: read_table's
    # are 1 MiB on two threads.
    path = tmp_path / "many.pgn"
    text = pgn_text(games)
    copies = 1 + (2_500_000 // len(text))
    path.write_text(text * copies, encoding="utf-8")
    one = [game_summary(g) for g in bitboards.pgn.read_games(path, threads=1)]
    two = [game_summary(g) for g in bitboards.pgn.read_games(path, threads=2)]
    default = [game_summary(g) for g in bitboards.pgn.read_games(path)]
    assert len(one) == copies * len(games)
    assert two == one
    assert default == one
    assert [s[0] for s in one] == list(range(1, len(one) + 1))
    # Each copy reads as the first.
    first = [s[1:] for s in one[: len(games)]]
    for start in range(0, len(one), len(games)):
        assert [s[1:] for s in one[start : start + len(games)]] == first
    table1 = bitboards.pgn.read_table(path, threads=1)
    table2 = bitboards.pgn.read_table(path, threads=2)
    assert table1.num_rows == len(one)
    assert table1.equals(table2)
    # On two threads, a batch per chunk of the file, none of them empty.
    batches = table2.to_batches()
    assert len(batches) > 1 and all(batch.num_rows > 0 for batch in batches)


BAD_MIDDLE = """[Event "good one"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "bad one"]
[White "C"]
[Black "D"]
[WhiteElo "2000"]
[Result "0-1"]

1. e4 e5 2. Ke3 Nf6 3. Nf3 0-1

[Event "after"]
[White "E"]
[Black "F"]
[Result "*"]

1. d4 d5 2. c4 *
"""


def test_bad_game_in_the_middle(tmp_path):
    path = tmp_path / "bad.pgn"
    path.write_text(BAD_MIDDLE)
    ours = list(bitboards.pgn.read_games(path))
    with open(path) as handle:
        theirs = [chess.pgn.read_game(handle) for _ in range(3)]
    assert [g.number for g in ours] == [1, 2, 3]
    for game, py in zip(ours, theirs):
        for name, value in game.headers.items():
            assert py.headers[name] == value
        assert set(game.headers) == {"Event", "White", "Black", "Result"} | (
            {"WhiteElo"} if game.headers["Event"] == "bad one" else set())
        assert [m.uci() for m in game.moves] == [m.uci() for m in py.mainline_moves()]
        assert bool(game.errors) == bool(py.errors)
    bad = ours[1]
    assert bad.errors and all(isinstance(e, str) for e in bad.errors)
    assert bad.headers["WhiteElo"] == "2000"
    assert [m.uci() for m in bad.moves] == ["e2e4", "e7e5"]
    assert [m.uci() for m in ours[2].moves] == ["d2d4", "d7d5", "c2c4"]
    assert ours[2].board().fen() == theirs[2].end().board().fen()
    # The games around the bad one are in the table.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = bitboards.pgn.read_table(path, columns=["Event", "plies", "uci"])
    rows = {row["Event"]: row for row in table.to_pylist()}
    assert rows["good one"]["uci"] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert rows["after"]["uci"] == ["d2d4", "d7d5", "c2c4"]
    assert rows["after"]["plies"] == 3


def test_first_tag_of_a_name_wins(tmp_path):
    path = tmp_path / "dup.pgn"
    path.write_text('[White "first"]\n[Black "x"]\n[White "second"]\n\n1. e4 *\n')
    (game,) = bitboards.pgn.read_games(path)
    assert game.headers["White"] == "first"
    assert bitboards.pgn.read_table(path, columns=["White"]).column("White").to_pylist() == ["first"]


def test_not_pgn(tmp_path):
    png = tmp_path / "image.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06" + bytes(range(256)))
    with pytest.raises(bitboards.NotPgnError):
        list(bitboards.pgn.read_games(png))
    with pytest.raises(bitboards.NotPgnError):
        bitboards.pgn.read_table(png)
    lock = tmp_path / "Cargo.lock"
    lock.write_text(
        "# This file is automatically @generated by Cargo.\n"
        "# It is not intended for manual editing.\n"
        "version = 4\n\n"
        '[[package]]\nname = "aho-corasick"\nversion = "1.1.3"\n'
        'source = "registry+https://github.com/rust-lang/crates.io-index"\n'
        'dependencies = [\n "memchr",\n]\n'
    )
    with pytest.raises(bitboards.NotPgnError):
        list(bitboards.pgn.read_games(lock))
    assert issubclass(bitboards.NotPgnError, ValueError)


def test_empty_and_missing_files(tmp_path):
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"")
    assert list(bitboards.pgn.read_games(empty)) == []
    assert bitboards.pgn.read_table(empty).num_rows == 0
    assert bitboards.pgn.read_table(empty).column_names == COLUMNS
    with pytest.raises(FileNotFoundError):
        list(bitboards.pgn.read_games(tmp_path / "missing.pgn"))
    with pytest.raises(OSError):
        bitboards.pgn.read_table(tmp_path / "missing.pgn")


def test_score():
    path = io.BytesIO(b"1. e4 { [%eval 0.17] } e5 { [%eval #-3] } 2. Nf3 { [%eval -1.5] } *\n")
    (game,) = bitboards.pgn.read_games(path)
    first, second, third = game.evals
    assert (first.cp, first.mate, first.is_mate()) == (17, None, False)
    assert (second.cp, second.mate, second.is_mate()) == (None, -3, True)
    assert (third.cp, third.mate) == (-150, None)
    assert first == game.evals[0]
    assert first != third
    assert game.clocks == [None, None, None]


# --- tables ------------------------------------------------------------------


def test_read_table(pgn_path, games):
    table = bitboards.pgn.read_table(pgn_path)
    assert isinstance(table, pyarrow.Table)
    assert table.column_names == COLUMNS
    assert table.num_rows == len(games)
    assert table.schema.field("WhiteElo").type == pyarrow.int32()
    assert table.schema.field("BlackElo").type == pyarrow.int32()
    theirs = python_chess_games(pgn_path)
    rows = table.to_pylist()
    for row, py, (_, notes) in zip(rows, theirs, games):
        headers = py.headers
        for name in ["Event", "Site", "White", "Black", "Result", "ECO", "Opening", "Termination", "TimeControl",
                     "WhiteTitle", "BlackTitle"]:
            assert row[name] == headers.get(name), name
        for name in ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"]:
            assert row[name] == (int(headers[name]) if name in headers else None), name
        # (A date and a time, or the tags' text.)
        assert str(row["UTCDate"]).replace("-", ".") == headers["UTCDate"] == "2024.01.02"
        assert str(row["UTCTime"]) == headers["UTCTime"] == "12:34:56"
        moves = [m.uci() for m in py.mainline_moves()]
        assert row["plies"] == len(moves)
        assert row["uci"] == moves
        assert row["fen"] == py.end().board().fen()
        assert same_clocks(row["clocks"], [node.clock() for node in py.mainline()])
        assert same_clocks(row["clocks"], [clock for clock, _ in notes])
        evals = [
            None if text is None else
            {"cp": None, "mate": int(text[1:])} if text.startswith("#") else {"cp": exact_cp(text), "mate": None}
            for _, text in notes
        ]
        assert row["evals"] == evals
        # The movetext reads back as the same moves.
        reread = chess.pgn.read_game(io.StringIO(row["movetext"]))
        if "FEN" in headers:
            reread = chess.pgn.read_game(io.StringIO(f'[FEN "{headers["FEN"]}"]\n[Variant "{headers.get("Variant", "Standard")}"]\n\n{row["movetext"]}'))
        assert [m.uci() for m in reread.mainline_moves()] == moves
        expected = py.end().board().outcome(claim_draw=False)
        if expected is not None and expected.termination == chess.Termination.CHECKMATE:
            assert row["outcome"] == "checkmate"


def test_a_plain_file_is_read_in_place_as_bytes_are_read(tmp_path, pgn_path):
    """A plain file is mapped and cut into chunks where they lie; bytes are
    read as a stream: the same games, tables and Parquet bytes, on one
    thread and on two."""
    text = pgn_path.read_bytes() * 40
    path = tmp_path / "many.pgn"
    path.write_bytes(text)
    for threads in (1, 2):
        assert bitboards.pgn.read_table(path, threads=threads).equals(bitboards.pgn.read_table(text, threads=threads))
        mapped = [(g.number, g.headers, g.ucis()) for g in bitboards.pgn.read_games(path, threads=threads)]
        streamed = [(g.number, g.headers, g.ucis()) for g in bitboards.pgn.read_games(text, threads=threads)]
        assert mapped == streamed and len(mapped) == 40 * 24
        bitboards.pgn.to_parquet(path, tmp_path / "mapped.parquet", threads=threads)
        bitboards.pgn.to_parquet(text, tmp_path / "streamed.parquet", threads=threads)
        assert (tmp_path / "mapped.parquet").read_bytes() == (tmp_path / "streamed.parquet").read_bytes()


def test_the_progress_line_counts_a_mapped_file_to_its_end(tmp_path, pgn_path, capfd):
    path = tmp_path / "many.pgn"
    path.write_bytes(pgn_path.read_bytes() * 40)
    megabytes = path.stat().st_size / 1e6
    for read in (bitboards.pgn.read_table, bitboards.pgn.read_positions):
        read(path, threads=1, progress=True)
        last = capfd.readouterr().err.replace("\r", "\n").strip().splitlines()[-1]
        assert last.startswith(f"{megabytes:.1f}/{megabytes:.1f} MB (100%), {40 * 24} games"), last


def test_read_table_columns(pgn_path, games):
    table = bitboards.pgn.read_table(pgn_path, columns=["White", "plies"])
    assert table.column_names == ["White", "plies"]
    theirs = python_chess_games(pgn_path)
    assert table.column("White").to_pylist() == [g.headers["White"] for g in theirs]
    assert table.column("plies").to_pylist() == [len(list(g.mainline_moves())) for g in theirs]
    with pytest.raises(ValueError, match="NoSuchColumn"):
        bitboards.pgn.read_table(pgn_path, columns=["White", "NoSuchColumn"])


@pytest.mark.parametrize("compression, codec", [
    ("zstd", "ZSTD"), ("snappy", "SNAPPY"), ("lz4", "LZ4"), ("none", "UNCOMPRESSED"),
])
def test_to_parquet_compression_and_row_groups(tmp_path, pgn_path, games, compression, codec):
    out = tmp_path / f"{compression}.parquet"
    rows = bitboards.pgn.to_parquet(pgn_path, out, compression=compression, row_group_size=7)
    assert rows == len(games)
    metadata = pyarrow.parquet.ParquetFile(out).metadata
    assert [metadata.row_group(i).num_rows for i in range(metadata.num_row_groups)] == (
        [7] * (rows // 7) + ([rows % 7] if rows % 7 else [])
    )
    assert {metadata.row_group(0).column(i).compression for i in range(metadata.num_columns)} == {codec}
    assert pyarrow.parquet.read_table(out).to_pylist() == bitboards.pgn.read_table(pgn_path).to_pylist()


def test_to_parquet_that_stops_leaves_no_file(tmp_path, pgn_path):
    out = tmp_path / "stopped.parquet"
    with pytest.raises(OSError):
        bitboards.pgn.to_parquet([pgn_path, tmp_path / "missing.pgn"], out)
    written = lambda: sorted(path.name for path in tmp_path.iterdir() if path != pgn_path)
    assert written() == []
    bitboards.pgn.to_parquet(pgn_path, out)
    assert written() == ["stopped.parquet"]


def test_to_parquet_refuses_what_does_not_fit(tmp_path, pgn_path):
    out = tmp_path / "bad.parquet"
    for kwargs, says in [
        ({"compression": "gzip"}, "not a Parquet compression"),
        ({"compression": "lz4", "compression_level": 3}, "for zstd only"),
        ({"compression_level": 0}, "1 to 22"),
        ({"row_group_size": 0}, "at least 1"),
    ]:
        with pytest.raises(ValueError, match=says):
            bitboards.pgn.to_parquet(pgn_path, out, **kwargs)


def test_to_parquet_and_duckdb(tmp_path, pgn_path, games):
    out = tmp_path / "games.parquet"
    rows = bitboards.pgn.to_parquet(pgn_path, out)
    assert rows == len(games)
    table = bitboards.pgn.read_table(pgn_path)
    written = pyarrow.parquet.read_table(out)
    assert written.column_names == COLUMNS
    assert written.num_rows == rows
    assert written.to_pylist() == table.to_pylist()
    duckdb = pytest.importorskip("duckdb")
    count = duckdb.sql(f"select count(*) from read_parquet('{out}')").fetchall()
    assert count == [(len(games),)]
    theirs = python_chess_games(pgn_path)
    plies = duckdb.sql(f"select sum(plies) from read_parquet('{out}')").fetchall()
    assert plies == [(sum(len(list(g.mainline_moves())) for g in theirs),)]
    elo = duckdb.sql(f"select max(WhiteElo) from read_parquet('{out}')").fetchall()
    assert elo == [(max(int(g.headers["WhiteElo"]) for g in theirs),)]
    white = duckdb.sql(f"select White from read_parquet('{out}') where Site = 'https://lichess.org/g0000004'").fetchall()
    assert white == [("white_4",)]
