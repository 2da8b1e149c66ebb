"""bench.py's writing of its figures: the blocks it replaces in
docs/performance.md (the figures, and the summary of the goals' rows at the
page's top), and the rows that summary shows. (The timings themselves are
bench.py's to make, not a test's.)"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench  # noqa: E402


def test_a_block_is_replaced_and_the_rest_kept(tmp_path):
    # Through `cargo xtask block`, the page's one writer of blocks.
    text = "intro\n<!-- x:start -->\nold\nrows\n<!-- x:end -->\noutro\n<!-- y:start -->\nkept\n<!-- y:end -->\n"
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    bench.write_block(page, "x", "\nnew\n")
    once = page.read_text(encoding="utf-8")
    assert once == "intro\n<!-- x:start -->\nnew\n<!-- x:end -->\noutro\n<!-- y:start -->\nkept\n<!-- y:end -->\n"
    bench.write_block(page, "x", "new")
    assert page.read_text(encoding="utf-8") == once
    with pytest.raises(ValueError, match="z:start"):
        bench.write_block(page, "z", "new")
    page.write_text("<!-- x:start -->\nno end\n", encoding="utf-8")
    with pytest.raises(ValueError):
        bench.write_block(page, "x", "new")


def test_the_page_it_writes_has_its_blocks_and_the_readme_none(tmp_path):
    text = bench.PERFORMANCE.read_text(encoding="utf-8")
    page = tmp_path / "performance.md"
    page.write_text(text, encoding="utf-8")
    for name in ("python-summary", "python-bench"):
        bench.write_block(page, name, f"figures of {name}")
        assert f"figures of {name}" in page.read_text(encoding="utf-8"), name
    # The summary comes first, at the page's top, and replacing one block
    # leaves the other alone.
    assert text.index("<!-- python-summary:start -->") < text.index("<!-- python-bench:start -->")
    assert "figures of python-summary" in page.read_text(encoding="utf-8")
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
