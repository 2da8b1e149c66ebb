"""The blocks of figures in docs/performance.md, as the Python bench scripts
write them: through `cargo xtask block`, the page's one writer of blocks
(bench.py's `write_block`). A run replaces its machine's figures and keeps
the last figures of every other machine under "Figures from other
machines"; the xtask's own tests hold the same story on the text."""

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))

from bench import write_block  # noqa: E402

OTHERS = "## Figures from other machines"


def machine_of(block):
    """The machine a block's `<!-- machine: ... -->` line names, or None."""
    match = re.search(r"^<!-- machine: (.*) -->$", block, re.MULTILINE)
    return match and match.group(1)


def page(machine, figures):
    return (f"# Page\n\n## Figures\n\n<!-- python-bench:start -->\n<!-- machine: {machine} -->\n"
            f"{figures}\n<!-- python-bench:end -->\n\n## After\n\nText.\n")


def written(path, name, body, machine=None):
    """The page at `path` after `write_block`."""
    write_block(path, name, body, machine)
    return path.read_text(encoding="utf-8")


def test_a_run_on_the_same_machine_replaces_its_figures(tmp_path):
    path = tmp_path / "page.md"
    path.write_text(page("EPYC, 2 cores", "| a | 1.0x |"), encoding="utf-8")
    assert written(path, "python-bench", "| a | 2.0x |", "EPYC, 2 cores") == page("EPYC, 2 cores", "| a | 2.0x |")
    path.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(ValueError, match="python-bench"):
        write_block(path, "python-bench", "x", "EPYC")
    assert path.read_text(encoding="utf-8") == "no markers\n"


def test_figures_of_another_machine_are_kept_each_machines_last(tmp_path):
    path = tmp_path / "page.md"
    path.write_text(page("EPYC, 2 cores", "| a | 1.0x |"), encoding="utf-8")
    xeon = written(path, "python-bench", "| a | 2.0x |", "Xeon, 2 cores")
    head, others = xeon.split(OTHERS)
    assert "| a | 2.0x |" in head and "1.0x" not in head and "## After\n\nText.\n" in head
    assert machine_of(head) == "Xeon, 2 cores"
    assert ("<!-- python-bench on EPYC, 2 cores:start -->\n"
            "### The `python-bench` figures, measured on EPYC, 2 cores\n") in others
    assert "| a | 1.0x |" in others
    # Back on the EPYC: its new figures above, the Xeon's under OTHERS, its
    # own first ones there, superseded, gone.
    epyc = written(path, "python-bench", "| a | 3.0x |", "EPYC, 2 cores")
    head, others = epyc.split(OTHERS)
    assert "| a | 3.0x |" in head and "2.0x" not in head
    assert "| a | 2.0x |" in others and "1.0x" not in others and "on EPYC" not in others
    # Again on the Xeon: the EPYC's last figures under OTHERS, once.
    again = written(path, "python-bench", "| a | 4.0x |", "Xeon, 2 cores")
    head, others = again.split(OTHERS)
    assert "| a | 4.0x |" in head
    assert "| a | 3.0x |" in others and "2.0x" not in others and "on Xeon" not in others
    assert again.count(OTHERS) == 1


def test_a_block_without_a_machine_is_replaced_as_before(tmp_path):
    path = tmp_path / "page.md"
    path.write_text("<!-- python-summary:start -->\nold\n<!-- python-summary:end -->\n", encoding="utf-8")
    assert written(path, "python-summary", "new") == (
        "<!-- python-summary:start -->\nnew\n<!-- python-summary:end -->\n")


def test_the_page_names_the_machine_of_each_block_of_figures():
    text = Path(ROOT, "docs", "performance.md").read_text(encoding="utf-8")
    for name in ["python-bench", "commands-summary"]:
        block = text.split(f"<!-- {name}:start -->")[1].split(f"<!-- {name}:end -->")[0]
        assert machine_of(block), name
