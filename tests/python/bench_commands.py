"""The command's data path as a user runs it, against the pgn-reader
program, in one run: the goals of issue 61 ("Rows straight into Arrow")
that the command meets or misses on this machine.

    cargo build --release -p bitboards-cli --bins -p bitboards-pgn --examples
    python3 tests/python/bench_commands.py [--games N] [--rounds N] [--write]

On one Lichess-shaped file (the `lichess_pgn` example: the open database's
tags, an eval and a clock after every move; 20,000 games by default), each
command once per round, in turn (`alternate.py`), so that the machine's
swings in speed fall on all of them alike:

- the short pgn-reader + shakmaty program that replays every game and
  writes nothing (`pgn_reader_peer` example), the measure of the goals;
- `bitboards pgn FILE` on one thread: the text output, and `--format json`;
- `--to parquet OUT` and `--rows positions --to parquet OUT`, on one
  reading thread and on every core; and `--to parquet` on one thread held
  to one core (`taskset -c 0`, where there is `taskset`), since
  `--threads 1` counts the reading threads only and the file is encoded on
  threads of its own.

A ratio is the median over the rounds of the pair's wall times (each pair
run one after the other); best and median times are beside it. The
Parquet files of one thread and of every core are compared byte for byte
(the goal of the same file whatever the thread count): the script fails
if they differ. Prints a markdown table; with `--write`, also puts it into
docs/performance.md between its `commands-summary` markers (the figures
there of another machine moving to the page's "Figures from other
machines", as bench.py's do). Not a test (pytest collects only
test_*.py).
"""

import argparse
import datetime
import filecmp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from alternate import alternate, paired_ratio

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The package's bench: how the page's blocks name the machine, and how
# they are written.
sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))
from bench import machine, write_block  # noqa: E402

RELEASE = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release")
BITBOARDS = os.path.join(RELEASE, "bitboards")
PEER_PROGRAM = os.path.join(RELEASE, "examples", "pgn_reader_peer")
LICHESS = os.path.join(RELEASE, "examples", "lichess_pgn")
PEER = "pgn-reader + shakmaty program (replays, writes nothing)"
TEXT = "`bitboards pgn FILE --threads 1` (text)"
JSON1 = "`--format json --threads 1`"
GAMES1 = "`--to parquet OUT --threads 1`"
GAMES = "`--to parquet OUT`, every core"
POSITIONS1 = "`--rows positions --to parquet OUT --threads 1`"
POSITIONS = "`--rows positions --to parquet OUT`, every core"
ONE_CORE = "`--to parquet OUT --threads 1` held to one core (`taskset -c 0`)"


def commands(pgn, out):
    """What is timed: name to argument list. `out` is a directory for the
    Parquet files, named so that the thread counts can be compared."""
    ours = [BITBOARDS, "pgn", pgn]
    parquet = lambda name: ["--to", "parquet", os.path.join(out, name)]
    timed = {
        PEER: [PEER_PROGRAM, pgn],
        TEXT: ours + ["--threads", "1"],
        JSON1: ours + ["--format", "json", "--threads", "1"],
        GAMES1: ours + ["--threads", "1"] + parquet("games1.parquet"),
        GAMES: ours + parquet("games.parquet"),
        POSITIONS1: ours + ["--rows", "positions", "--threads", "1"] + parquet("positions1.parquet"),
        POSITIONS: ours + ["--rows", "positions"] + parquet("positions.parquet"),
    }
    if shutil.which("taskset") and (os.cpu_count() or 1) > 1:
        timed[ONE_CORE] = ["taskset", "-c", "0"] + ours + ["--threads", "1"] + parquet("games0.parquet")
    return timed


def rows(runs):
    """The table's rows: (what, best ms, median ms, ratio, goal, met)."""
    best = {name: min(run[0] for run in runs[name]) * 1e3 for name in runs}
    median = {name: statistics.median(run[0] for run in runs[name]) * 1e3 for name in runs}
    table = []

    def row(name, ratio, against, goal):
        met = "" if goal is None else ("met" if ratio >= goal else "not met")
        goal = "" if goal is None else f"at least {goal}x"
        table.append((name, f"{best[name]:.1f}", f"{median[name]:.1f}",
                      f"{ratio:.3f}x {against}".strip(), goal, met))

    row(PEER, 1.0, "", None)
    row(TEXT, paired_ratio(runs, PEER, TEXT), "the program", 1.5)
    row(JSON1, paired_ratio(runs, PEER, JSON1), "the program", None)
    row(GAMES1, paired_ratio(runs, PEER, GAMES1), "the program", None)
    row(GAMES, paired_ratio(runs, PEER, GAMES), "the program", 0.7)
    row(POSITIONS1, paired_ratio(runs, PEER, POSITIONS1), "the program", None)
    row(POSITIONS, paired_ratio(runs, PEER, POSITIONS), "the program", 0.6)
    if ONE_CORE in runs:
        row(ONE_CORE, paired_ratio(runs, PEER, ONE_CORE), "the program", None)
        table.append(("every core against one core held to one core", "", "",
                      f"{paired_ratio(runs, ONE_CORE, GAMES):.3f}x", "", ""))
    return table


def markdown(games, size, rounds, table):
    lines = [
        f"`python3 tests/python/bench_commands.py --games {games} --rounds {rounds}`, "
        f"{datetime.date.today()}: {machine()}; {games:,} "
        f"Lichess-shaped games ({size:.1f} MB), each command once per round, "
        f"{rounds} rounds in turn; the ratio is the median of the paired rounds' "
        "wall times (issue 61's goals, on the default threads unless said).",
        "",
        "| what the user runs | best ms | median ms | ratio | goal | |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in table]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--write", action="store_true",
                        help="also write the table into docs/performance.md")
    args = parser.parse_args()
    for program in (BITBOARDS, PEER_PROGRAM, LICHESS):
        if not os.access(program, os.X_OK):
            sys.exit(f"{program} is missing: cargo build --release -p bitboards-cli --bins -p bitboards-pgn --examples")
    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "lichess.pgn")
        subprocess.run([LICHESS, str(args.games), pgn], check=True)
        size = os.path.getsize(pgn) / 1e6
        runs = alternate(commands(pgn, tmp), args.rounds)
        for one, every in [("games1", "games"), ("positions1", "positions"), ("games1", "games0")]:
            a, b = (os.path.join(tmp, f"{name}.parquet") for name in (one, every))
            if os.path.exists(b) and not filecmp.cmp(a, b, shallow=False):
                sys.exit(f"{one}.parquet and {every}.parquet differ: the thread count changed the file")
    text = markdown(args.games, size, args.rounds, rows(runs))
    print(text)
    if args.write:
        write_block(Path(ROOT, "docs", "performance.md"), "commands-summary", text, machine())


if __name__ == "__main__":
    main()
