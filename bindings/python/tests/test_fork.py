"""Every call that works on several cores, in a process forked from one
that made that call already: `multiprocessing` with the `fork` start
method, PyTorch's data loader workers. The parent's threads are not in the
child; a call that waited for them would never return (rayon's global
pool did, for `perft` and `probe_wdl_many`, and so did `planes`)."""

import multiprocessing
import os
import random
import sys
from pathlib import Path

import numpy as np
import pytest

import bitboards
import bitboards.syzygy as syzygy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from endgames import random_endgame  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")

TABLES = Path(__file__).resolve().parents[3] / "tests" / "data" / "syzygy"
TIMEOUT = 60


def _child(call, queue):
    queue.put(call())


def in_forked_child(call):
    """What `call()` returns in a process forked from this one; fails when
    the child does not finish in TIMEOUT seconds."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child, args=(call, queue))
    child.start()
    child.join(timeout=TIMEOUT)
    if child.is_alive():
        child.kill()
        child.join()
        pytest.fail(f"the forked process did not finish in {TIMEOUT} s")
    assert child.exitcode == 0
    return queue.get(timeout=5)


def test_perft_on_every_core():
    board = bitboards.Board()
    assert board.perft(3) == 8902  # the parent's pool made
    assert in_forked_child(lambda: board.perft(3)) == 8902
    # A pool of a given size is made per call: it was never the parent's.
    assert in_forked_child(lambda: board.perft(3, threads=2)) == 8902


def test_probe_wdl_many_on_every_core():
    rng = random.Random(5)
    boards = [random_endgame(rng, "KRvK") for _ in range(2000)]
    rows = np.array([[board.pieces_mask(kind, color) for color in (True, False) for kind in range(1, 7)]
                     for board in boards], dtype=np.uint64)
    turn = np.array([board.turn for board in boards], dtype=bool)
    with syzygy.open_tablebase(TABLES) as tablebase:
        want = tablebase.probe_wdl_many(rows, turn).tolist()  # the parent's pool made
        assert want == [tablebase.probe_wdl(board) for board in boards]
        assert in_forked_child(lambda: tablebase.probe_wdl_many(rows, turn).tolist()) == want


def test_planes_on_every_core():
    rng = np.random.default_rng(11)
    boards = rng.integers(0, 2**63, size=(4096, 12), dtype=np.uint64)
    want = np.unpackbits(boards.view(np.uint8), bitorder="little").reshape(-1, 12, 8, 8)
    assert np.array_equal(bitboards.planes(boards), want)  # the helpers started
    assert in_forked_child(lambda: bool(np.array_equal(bitboards.planes(boards), want)))
