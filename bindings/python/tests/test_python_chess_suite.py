"""python-chess's own test suite (its test.py, fetched from PyPI at test
time) with ``bitboards`` in ``chess``'s place: the count of tests passed
must not fall below the last count the project reached, stored in
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


def test_python_chess_suite(sdist, capsys):
    run = suite.run_suite(sdist)
    counts = run.counts()
    stored = suite.read_counts()
    with capsys.disabled():
        print()
        print(run.table())
        for name, (passed, total) in counts.items():
            before = stored.get(name, (0, total))[0]
            if passed != before:
                print(f"  {name}: {before} -> {passed}")
    assert not [p for p in run.problems if "failed to load" in p], run.problems
    passed, total = counts["total"]
    assert total == suite.EXPECTED_TOTAL, f"{total} tests in scope, expected {suite.EXPECTED_TOTAL}: {run.problems}"
    floor = stored["total"][0]
    if passed < floor:
        lost = [
            f"{name}: {stored[name][0]} -> {count[0]}"
            for name, count in counts.items()
            if name in stored and name != "total" and count[0] < stored[name][0]
        ]
        failing = [f"{c}.{t}: {o}" for (c, t), (o, _) in run.outcomes.items() if o != "pass"]
        pytest.fail(
            f"python-chess's suite: {passed}/{total} passed, below the {floor} the project reached "
            f"({', '.join(lost)}); failing: {failing}"
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
