"""Builds of the Python package timed in turn on one call, several rounds.

    target/venv/bin/python tests/python/alternate_packages.py ROUNDS CALL PGN PACKAGE_DIR...

Each PACKAGE_DIR holds a `bitboards` package, made for instance with

    CARGO_TARGET_DIR=/tmp/old-target pip install --no-deps --target /tmp/pkg_old ./bindings/python

(a checkout of the commit to compare, its own target directory); run it
with the Python that has the packages' dependencies (pyarrow). Every
round runs CALL once per package, each in a Python process of its own with
that package first on its path, the packages in turn, so that the
machine's swings in speed fall on all of them alike; a process prints the
best of 11 calls, and the script prints, per package, each round's
figure and their minimum, in milliseconds. CALL is one of:

- `games1`, `games`: `pgn.read_games(PGN)` to its end, on one thread or
  every core;
- `table1`, `table`: `pgn.read_table(PGN)`, one thread or every core;
- `positions1`: `pgn.read_positions(PGN, threads=1)`;
- `parquet1`: `pgn.to_parquet(PGN, a temporary file, threads=1)`;
- `playouts`: 200 random playouts from the start, python-chess's API
  (PGN is not read).

Not a test (pytest collects only test_*.py). `OPENBLAS_NUM_THREADS=1` is
set for the children, as bench.py runs.
"""

import os
import subprocess
import sys

CALLS = 11

CHILD = r"""
import os, random, sys, tempfile, time
package, call, pgn, calls = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.path.insert(0, package)
import bitboards, bitboards.pgn
assert bitboards.__file__.startswith(package), bitboards.__file__
out = os.path.join(tempfile.mkdtemp(), "out.parquet")

def playouts():
    rng = random.Random(7)
    for _ in range(200):
        board = bitboards.Board()
        for _ in range(400):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))

run = {
    "games1": lambda: sum(1 for _ in bitboards.pgn.read_games(pgn, threads=1)),
    "games": lambda: sum(1 for _ in bitboards.pgn.read_games(pgn)),
    "table1": lambda: bitboards.pgn.read_table(pgn, threads=1, progress=False),
    "table": lambda: bitboards.pgn.read_table(pgn, progress=False),
    "positions1": lambda: bitboards.pgn.read_positions(pgn, threads=1, progress=False),
    "parquet1": lambda: bitboards.pgn.to_parquet(pgn, out, threads=1, progress=False),
    "playouts": playouts,
}[call]
best = float("inf")
for _ in range(calls):
    start = time.perf_counter()
    run()
    best = min(best, time.perf_counter() - start)
print(f"{best * 1000:.2f}")
"""


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    rounds, call, pgn, packages = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    figures = {package: [] for package in packages}
    for _ in range(rounds):
        for package in packages:
            done = subprocess.run(
                [sys.executable, "-c", CHILD, os.path.abspath(package), call, pgn, str(CALLS)],
                capture_output=True, text=True, env=env,
            )
            if done.returncode != 0:
                sys.exit(f"{package}: {done.stderr.strip()}")
            figures[package].append(float(done.stdout))
    for package, times in figures.items():
        rounds_text = " ".join(f"{time:.1f}" for time in times)
        print(f"{call} {package}: {rounds_text}  best {min(times):.1f} ms")


if __name__ == "__main__":
    main()
