"""bench.py's writing of its figures: the blocks it replaces in
docs/performance.md (the figures, and the summary of the goals' rows at the
page's top), and the rows that summary shows. (The timings themselves are
bench.py's to make, not a test's.)"""

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


def test_the_page_it_writes_has_its_blocks_and_the_readme_none():
    text = bench.PERFORMANCE.read_text(encoding="utf-8")
    for name in ("python-summary", "python-bench"):
        assert bench.replace_block(text, name, "figures").count("figures") >= 1, name
    # The summary comes first, at the page's top, and replacing one block
    # leaves the other alone.
    assert text.index("<!-- python-summary:start -->") < text.index("<!-- python-bench:start -->")
    assert "<!-- python-bench:start -->" in bench.replace_block(text, "python-summary", "figures")
    readme = (bench.ROOT / "README.md").read_text(encoding="utf-8")
    assert "python-summary:start" not in readme and "python-bench:start" not in readme


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
