"""python-chess's Polyglot reader on the book and positions of `cargo bench
--bench book` (written there with BOOK_BENCH_OUT=PATH), timed the same way:
every position looked up, its entries counted. Prints lookups per second.

    BOOK_BENCH_OUT=target/book cargo bench --bench book
    python tests/python/bench_book.py target/book

Not a test (pytest collects only test_*.py).
"""

import sys
import time

import chess
import chess.polyglot


def main(path):
    with open(path + ".fens") as fens:
        boards = [chess.Board(line.strip()) for line in fens if line.strip()]
    with chess.polyglot.open_reader(path + ".bin") as reader:
        best = None
        for _ in range(3):
            start = time.perf_counter()
            found = 0
            for board in boards:
                found += sum(1 for _ in reader.find_all(board, minimum_weight=0))
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
    print(f"python-chess: {len(boards)} lookups, {found} entries, {len(boards) / best:,.0f} lookups/s")


if __name__ == "__main__":
    main(sys.argv[1])
