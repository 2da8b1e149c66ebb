"""bench.py's writing of its figures: the blocks it replaces in README.md and
docs/performance.md, and the rows README.md shows. (The timings themselves
are bench.py's to make, not a test's.)"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench  # noqa: E402


def test_a_block_is_replaced_and_the_rest_kept():
    text = "intro\n<!-- x:start -->\nold\nrows\n<!-- x:end -->\noutro\n<!-- y:start -->\nkept\n<!-- y:end -->\n"
    once = bench.replace_block(text, "x", "\nnew\n")
    assert once == "intro\n<!-- x:start -->\nnew\n<!-- x:end -->\noutro\n<!-- y:start -->\nkept\n<!-- y:end -->\n"
    assert bench.replace_block(once, "x", "new") == once
    with pytest.raises(ValueError, match="z:start"):
        bench.replace_block(text, "z", "new")
    with pytest.raises(ValueError):
        bench.replace_block("<!-- x:start -->\nno end\n", "x", "new")


def test_the_files_it_writes_have_their_blocks():
    for path, name in ((bench.README, "python-summary"), (bench.PERFORMANCE, "python-bench")):
        text = path.read_text(encoding="utf-8")
        assert bench.replace_block(text, name, "figures").count("figures") >= 1, path


def test_the_summary_has_the_goals_rows_in_order():
    report = bench.Report()
    names = [
        "`Board().perft(5)`, every core (2)",
        "`pgn.read_table(file, threads=1)`, its first call in the process",
        "`pgn.read_table(file, threads=1)`",
        "`pgn.read_table(file, threads=1, columns=[Result, plies, fen, outcome, clocks, evals])`",
        "`pgn.read_table(file, threads=1, columns=[Result, plies, fen, outcome])`",
        "`pgn.read_table(file)`, every core (2)",
        "python-chess `read_game` loop (first 300 games, extrapolated)",
        "`rust_pgn_reader_python_binding.parse_games`, every core (2) (read + split in Python included)",
        "`rust_pgn_reader_python_binding.parse_games`, 1 thread (read + split in Python included)",
        "random playouts, cozy_chess",
        "random playouts, bitboards",
        "`Board().perft(5)`, 1 thread",
    ]
    for number, name in enumerate(names):
        report.row(name, f"{number} a second", f"{number}x")
    rows = report.summary().splitlines()[2:]
    shown = [row.split(" | ")[0].removeprefix("| ") for row in rows]
    assert shown == [
        "`pgn.read_table(file, threads=1)`",
        "`pgn.read_table(file, threads=1, columns=[Result, plies, fen, outcome])`",
        "`pgn.read_table(file, threads=1, columns=[Result, plies, fen, outcome, clocks, evals])`",
        "`pgn.read_table(file)`, every core (2)",
        "python-chess `read_game` loop (first 300 games, extrapolated)",
        "`rust_pgn_reader_python_binding.parse_games`, 1 thread (read + split in Python included)",
        "random playouts, bitboards",
        "`Board().perft(5)`, every core (2)",
    ]
    assert rows[0] == "| `pgn.read_table(file, threads=1)` | 2 a second | 2x |"
