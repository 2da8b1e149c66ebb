"""python-chess's own test suite (its test.py, fetched from PyPI at test
time) with ``bitboards`` in ``chess``'s place: no class's count of tests
passed may fall below the last count the project reached for it, stored in
``python_chess_suite_count.txt``. See ``python_chess_suite.py``.

Without network the test is skipped, unless ``CI=true`` (set by .ci/run),
where it fails. ``PYTHON_CHESS_SDIST`` may name an sdist already downloaded
(the tarball or its unpacked directory).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import python_chess_suite as suite  # noqa: E402

sys.path.pop(0)


def test_python_chess_suite(sdist, record_property):
    run = suite.run_suite(sdist)
    counts = run.counts()
    stored = suite.read_counts()
    # The table of classes, printed at the end of the run by conftest.py's
    # pytest_terminal_summary (from a report's properties, which reach the
    # terminal from pytest-xdist's workers too, where printed output does
    # not).
    changes = [
        f"  {name}: {before} -> {passed}"
        for name, (passed, total) in counts.items()
        if passed != (before := stored.get(name, (0, total))[0])
    ]
    record_property("summary", "\n".join([run.table(), *changes]))
    assert not [p for p in run.problems if "failed to load" in p], run.problems
    # test.py's classes all named: in scope, or left out (OUT_OF_SCOPE).
    assert not [p for p in run.problems if "neither in scope" in p], run.problems
    passed, total = counts["total"]
    assert total == suite.EXPECTED_TOTAL, f"{total} tests in scope, expected {suite.EXPECTED_TOTAL}: {run.problems}"
    # Each class keeps its own floor: a class that loses a test fails the
    # run even when another gains one (the total alone would hide it).
    lost = suite.below_floor(counts, stored)
    if lost:
        failing = [f"{c}.{t}: {o}" for (c, t), (o, _) in run.outcomes.items() if o != "pass"]
        pytest.fail(
            f"python-chess's suite: {passed}/{total} passed; below the count the project reached in "
            f"{', '.join(lost)}; failing: {failing}"
        )


def test_stored_counts():
    """The count file names the classes in scope, with their sizes."""
    stored = suite.read_counts()
    assert list(stored) == list(suite.SCOPE) + ["total"]
    assert stored["total"][1] == suite.EXPECTED_TOTAL
    assert sum(total for name, (_, total) in stored.items() if name != "total") == suite.EXPECTED_TOTAL
    assert sum(passed for name, (passed, _) in stored.items() if name != "total") == stored["total"][0]
    for name, only in suite.SCOPE.items():
        if only is not None:
            assert stored[name][1] == len(only)


def test_a_class_losing_a_test_is_named_though_the_total_holds():
    stored = suite.read_counts()
    counts = dict(stored)
    counts["SquareTestCase"] = (stored["SquareTestCase"][0] - 1, stored["SquareTestCase"][1])
    counts["SyzygyTestCase"] = (stored["SyzygyTestCase"][0] + 1, stored["SyzygyTestCase"][1])
    assert counts["total"] == stored["total"]
    before = stored["SquareTestCase"][0]
    assert suite.below_floor(counts, stored) == [f"SquareTestCase: {before} -> {before - 1}"]
    assert suite.below_floor(stored, stored) == []
