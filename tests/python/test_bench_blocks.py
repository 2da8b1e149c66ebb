"""bench.py's blocks of figures in docs/performance.md: a run replaces its
machine's figures, and keeps the last figures of every other machine under
"Figures from other machines" (as `cargo xtask bench` does: its tests hold
the same story)."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))

from bench import OTHERS, machine_of, replace_block  # noqa: E402


def page(machine, figures):
    return (f"# Page\n\n## Figures\n\n<!-- python-bench:start -->\n<!-- machine: {machine} -->\n"
            f"{figures}\n<!-- python-bench:end -->\n\n## After\n\nText.\n")


def test_a_run_on_the_same_machine_replaces_its_figures():
    updated = replace_block(page("EPYC, 2 cores", "| a | 1.0x |"), "python-bench", "| a | 2.0x |",
                            "EPYC, 2 cores")
    assert updated == page("EPYC, 2 cores", "| a | 2.0x |")
    with pytest.raises(ValueError):
        replace_block("no markers", "python-bench", "x", "EPYC")


def test_figures_of_another_machine_are_kept_each_machines_last():
    xeon = replace_block(page("EPYC, 2 cores", "| a | 1.0x |"), "python-bench", "| a | 2.0x |",
                         "Xeon, 2 cores")
    head, others = xeon.split(OTHERS)
    assert "| a | 2.0x |" in head and "1.0x" not in head and "## After\n\nText.\n" in head
    assert machine_of(head) == "Xeon, 2 cores"
    assert ("<!-- python-bench on EPYC, 2 cores:start -->\n"
            "### The `python-bench` figures, measured on EPYC, 2 cores\n") in others
    assert "| a | 1.0x |" in others
    # Back on the EPYC: its new figures above, the Xeon's under OTHERS, its
    # own first ones there, superseded, gone.
    epyc = replace_block(xeon, "python-bench", "| a | 3.0x |", "EPYC, 2 cores")
    head, others = epyc.split(OTHERS)
    assert "| a | 3.0x |" in head and "2.0x" not in head
    assert "| a | 2.0x |" in others and "1.0x" not in others and "on EPYC" not in others
    # Again on the Xeon: the EPYC's last figures under OTHERS, once.
    again = replace_block(epyc, "python-bench", "| a | 4.0x |", "Xeon, 2 cores")
    head, others = again.split(OTHERS)
    assert "| a | 4.0x |" in head
    assert "| a | 3.0x |" in others and "2.0x" not in others and "on Xeon" not in others
    assert again.count(OTHERS) == 1


def test_a_block_without_a_machine_is_replaced_as_before():
    text = "<!-- python-summary:start -->\nold\n<!-- python-summary:end -->\n"
    assert replace_block(text, "python-summary", "new") == (
        "<!-- python-summary:start -->\nnew\n<!-- python-summary:end -->\n")


def test_the_page_names_the_machine_of_each_block_of_figures():
    with open(os.path.join(ROOT, "docs", "performance.md"), encoding="utf-8") as file:
        text = file.read()
    for name in ["python-bench", "commands-summary"]:
        block = text.split(f"<!-- {name}:start -->")[1].split(f"<!-- {name}:end -->")[0]
        assert machine_of(block), name
