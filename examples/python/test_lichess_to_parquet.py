"""The Dask example on three small shards: rows per shard, the Parquet files,
and DuckDB's top openings against a count made here from the games written.

    pip install pytest chess pyarrow duckdb "dask[distributed]" ./bindings/python
    pytest examples/python
"""

import collections
import os
import random
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("bitboards.pgn")
chess_pgn = pytest.importorskip("chess.pgn")
pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")
distributed = pytest.importorskip("distributed")

import chess  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lichess_to_parquet  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lichess_to_parquet.py")
SHARDS = 3
GAMES_PER_SHARD = 30
OPENINGS = [
    "Sicilian Defense", "French Defense", "Caro-Kann Defense", "Queen's Gambit Declined",
    "King's Pawn Game", "Italian Game", "Scandinavian Defense",
]


def random_game(rng, number):
    """A random legal game with Lichess-like tags; returns (pgn text, tags)."""
    board = chess.Board()
    for _ in range(rng.randint(0, 120)):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    outcome = board.outcome()
    result = outcome.result() if outcome else rng.choice(["1-0", "0-1", "1/2-1/2"])
    tags = {
        "Event": "Rated Blitz game",
        "Site": f"https://lichess.org/{number:08d}",
        "White": f"white{rng.randrange(1000)}",
        "Black": f"black{rng.randrange(1000)}",
        "Result": result,
        "WhiteElo": str(rng.randint(800, 2800)),
        "BlackElo": str(rng.randint(800, 2800)),
        "Opening": rng.choice(OPENINGS),
        "TimeControl": "180+0",
        "Termination": "Normal",
    }
    game = chess_pgn.Game.from_board(board)
    game.headers.clear()
    game.headers.update(tags)
    return str(game), tags


def compress(path):
    """`path` + `.zst`, by the zstd command or the zstandard module."""
    if shutil.which("zstd"):
        subprocess.run(["zstd", "-q", "-f", path, "-o", path + ".zst"], check=True)
    else:
        zstandard = pytest.importorskip("zstandard")
        with open(path, "rb") as src, open(path + ".zst", "wb") as dst:
            dst.write(zstandard.ZstdCompressor().compress(src.read()))
    os.remove(path)
    return path + ".zst"


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    """Three `.pgn.zst` shards: [(path, [tags of each game])]."""
    directory = tmp_path_factory.mktemp("shards")
    rng = random.Random(20240611)
    made = []
    for index in range(SHARDS):
        path = str(directory / f"lichess_db_test_{index}.pgn")
        games = [random_game(rng, index * 1000 + number) for number in range(GAMES_PER_SHARD)]
        with open(path, "w") as out:
            out.write("\n\n".join(text for text, _ in games) + "\n")
        made.append((compress(path), [tags for _, tags in games]))
    return made


def expected_top(shards, per_band=3):
    """The top openings by band, counted here from the tags written."""
    counts = collections.Counter()
    for _, games in shards:
        for tags in games:
            band = (int(tags["WhiteElo"]) + int(tags["BlackElo"])) // 800 * 400
            counts[band, tags["Opening"]] += 1
    by_band = collections.defaultdict(list)
    for (band, opening), games in counts.items():
        by_band[band].append((-games, opening))
    return [
        (band, opening, -negative)
        for band in sorted(by_band)
        for negative, opening in sorted(by_band[band])[:per_band]
    ]


def test_convert_shards_and_query(shards, tmp_path):
    out = str(tmp_path / "parquet")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as client:
        done = lichess_to_parquet.convert_shards([path for path, _ in shards], out, client)

    assert done == [(path, len(games)) for path, games in shards]
    for path, _ in shards:
        assert os.path.getsize(os.path.join(out, lichess_to_parquet.shard_stem(path) + ".parquet")) > 0
    assert sorted(os.listdir(out)) == [f"lichess_db_test_{i}.parquet" for i in range(SHARDS)]

    assert lichess_to_parquet.top_openings(out) == expected_top(shards)
    assert lichess_to_parquet.top_openings(out, per_band=1) == expected_top(shards, per_band=1)


def test_command(shards, tmp_path):
    out = str(tmp_path / "parquet")
    run = subprocess.run(
        [sys.executable, SCRIPT, *[path for path, _ in shards], "--out", out, "--workers", "2"],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert f"{SHARDS * GAMES_PER_SHARD:,} games from {SHARDS} shards" in run.stdout
    band, opening, games = expected_top(shards)[0]
    assert f"| {band}-{band + 399} | 1 | {opening} | {games:,} |" in run.stdout

    # The query alone, on what the first run wrote.
    again = subprocess.run(
        [sys.executable, SCRIPT, "--out", out, "--query-only"], capture_output=True, text=True, timeout=60,
    )
    assert again.returncode == 0, again.stderr
    assert again.stdout.strip() == run.stdout.strip().split("\n\n", 1)[1].strip()


def test_shard_stem_and_glob(shards):
    assert lichess_to_parquet.shard_stem("/d/lichess_db_standard_rated_2014-01.pgn.zst") == (
        "lichess_db_standard_rated_2014-01")
    assert lichess_to_parquet.shard_stem("s3://b/x/part-7.pgn") == "part-7"
    directory = os.path.dirname(shards[0][0])
    found = lichess_to_parquet.expand_shards([os.path.join(directory, "*.pgn.zst"), shards[0][0]])
    assert found == [path for path, _ in shards]
