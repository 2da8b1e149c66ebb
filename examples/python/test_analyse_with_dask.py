"""The Dask analysis example on a 2-worker LocalCluster against Stockfish:
the Parquet parts together hold exactly what one local `analyse_many` gives
(each position after a fresh `ucinewgame`, at a node limit), numbered over
the whole input; `--unique` keeps each position once.

    pip install pytest pyarrow "dask[distributed]" ./bindings/python
    pytest examples/python/test_analyse_with_dask.py
"""

import os
import random
import shutil
import sys

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("distributed")
engine = pytest.importorskip("bitboards.engine")
bitboards = pytest.importorskip("bitboards")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyse_with_dask  # noqa: E402

STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")


def stockfish():
    if os.path.exists(STOCKFISH):
        return STOCKFISH
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and no Stockfish at {STOCKFISH}: .ci/run installs it")
    pytest.skip(f"no Stockfish at {STOCKFISH}")


def random_fens(count, seed):
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        board = bitboards.Board()
        for _ in range(rng.randint(0, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if list(board.legal_moves):
            fens.append(board.fen())
    return fens


def test_unique_ignores_the_clocks():
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    other = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    later = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3"
    assert analyse_with_dask.unique([start, other, later, other]) == [start, other]


def test_two_workers_write_what_one_local_pool_gives(tmp_path):
    path = stockfish()
    fens = random_fens(26, 4)
    # A duplicate (other clocks) that --unique drops.
    duplicate = " ".join(fens[0].split()[:4] + ["7", "30"])
    lines = ["# positions", ""] + fens[:13] + [duplicate] + fens[13:]
    (tmp_path / "positions.epd").write_text("\n".join(lines) + "\n")
    out = tmp_path / "evals"
    code = analyse_with_dask.main([
        str(tmp_path / "positions.epd"), "--engine", path, "--nodes", "2000", "--unique",
        "--shard-size", "7", "--engines", "1", "--workers", "2", "--out", str(out),
    ])
    assert code == 0
    parts = sorted(os.listdir(out))
    assert parts == [f"part-{index:05d}.parquet" for index in range(4)], parts
    written = pa.concat_tables([pq.read_table(out / part) for part in parts])
    assert written.num_rows == len(fens)
    local = engine.analyse_many(path, fens, engine.Limit(nodes=2000), engines=1)
    columns = ["game", "fen", "best", "cp", "mate", "depth", "nodes", "pv"]
    assert written.select(columns).to_pylist() == local.select(columns).to_pylist()
    assert written.column("game").to_pylist() == list(range(len(fens)))


def test_a_limit_is_required(capsys):
    with pytest.raises(SystemExit) as exit:
        analyse_with_dask.main(["x.epd", "--engine", "sf", "--out", "o"])
    assert exit.value.code == 2
    assert "give a limit" in capsys.readouterr().err
