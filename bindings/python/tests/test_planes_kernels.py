"""Every kernel of `bitboards.planes` (AVX-512 where the processor has it)
against the portable one, at every byte offset of `out` and at the row
counts where the encoder splits its work between threads (from 512 rows,
in parts of 256 rows, the calling thread from the front and the helpers from
the back)."""

import numpy as np
import pytest

import bitboards

planes_into = bitboards._bitboards.planes_into
KERNELS = bitboards._bitboards.planes_kernels()


def random_boards(rng, rows):
    # Sparse and dense words alike, every bit reachable.
    words = rng.integers(0, 2**64, size=(rows, 12), dtype=np.uint64, endpoint=False)
    sparse = words & rng.integers(0, 2**64, size=(rows, 12), dtype=np.uint64, endpoint=False)
    return np.where(rng.integers(0, 2, size=(rows, 12)).astype(bool), words, sparse)


def by_unpackbits(boards, turn=None):
    boards = boards.copy()
    if turn is not None:
        black = ~turn
        seen = np.concatenate([boards[black, 6:], boards[black, :6]], axis=1)
        boards[black] = seen.byteswap()
    return np.unpackbits(boards.view(np.uint8), bitorder="little").reshape(-1, 12, 8, 8)


def test_the_kernels_are_the_fastest_first_and_portable_last():
    assert KERNELS[-1] == "portable"
    assert set(KERNELS) <= {"avx512", "avx2", "portable"}
    if "avx512" in KERNELS:
        assert KERNELS[0] == "avx512"


@pytest.mark.parametrize("kernel", KERNELS)
def test_every_kernel_at_every_byte_offset_of_out(kernel):
    # The AVX-512 kernel aligns its stores: each offset mod 64 is another
    # head and tail.
    rng = np.random.default_rng(64)
    for rows in (1, 2, 3, 7):
        boards = random_boards(rng, rows)
        turn = rng.integers(0, 2, size=rows).astype(bool)
        for want, turn_ in ((by_unpackbits(boards), None), (by_unpackbits(boards, turn), turn)):
            for offset in range(64):
                raw = np.full(rows * 768 + 128, 7, dtype=np.uint8)
                out = raw[offset:offset + rows * 768].reshape(rows, 12, 8, 8)
                planes_into(boards, turn_, out, kernel=kernel)
                assert np.array_equal(out, want), (kernel, rows, offset, turn_ is None)
                assert (raw[:offset] == 7).all() and (raw[offset + rows * 768:] == 7).all()


@pytest.mark.parametrize("kernel", KERNELS)
def test_every_kernel_where_the_rows_are_split_between_threads(kernel):
    rng = np.random.default_rng(2048)
    for rows in (511, 512, 513, 767, 768, 2047, 2048, 2049, 2048 + 255, 4095, 4096, 4097, 4096 + 256 * 3 + 5, 16_385):
        boards = random_boards(rng, rows)
        turn = rng.integers(0, 2, size=rows).astype(bool)
        for turn_ in (None, turn):
            want = by_unpackbits(boards, turn_)
            for offset in (0, 16, 33):
                raw = np.full(rows * 768 + 64, 7, dtype=np.uint8)
                out = raw[offset:offset + rows * 768].reshape(rows, 12, 8, 8)
                planes_into(boards, turn_, out, kernel=kernel)
                assert np.array_equal(out, want), (kernel, rows, offset, turn_ is None)
                assert (raw[:offset] == 7).all() and (raw[offset + rows * 768:] == 7).all()


def test_the_same_batch_again_and_again_from_several_python_threads():
    # Calls from several Python threads at once: one has the helpers, the
    # others work alone; each gets its own rows.
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(7)
    batches = [random_boards(rng, 4096) for _ in range(4)]
    wants = [by_unpackbits(boards) for boards in batches]

    def run(index):
        out = np.empty((4096, 12, 8, 8), dtype=np.uint8)
        for _ in range(20):
            out[:] = 9
            assert bitboards.planes(batches[index], out=out) is out
            assert np.array_equal(out, wants[index])
        return True

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(run, range(4)))

