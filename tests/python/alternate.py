"""Commands timed in turn, several rounds, best wall and CPU time of each.

    python tests/python/alternate.py ROUNDS TEMPLATE COMMAND...

Each COMMAND is put into TEMPLATE at `{}` and run by the shell, its output
thrown away; the rounds alternate the commands, so that the machine's swings
in speed fall on all of them alike. For an old build against a new one, or
the command against its peer program:

    python tests/python/alternate.py 5 "{} games.pgn" \\
        target/release/examples/pgn_reader_peer "old/bitboards pgn" "target/release/bitboards pgn"

Prints one line per command: best wall time, best CPU time (user and
system, the command's children included), median wall time, the median
over the rounds of the first command's wall time over this one's (each
pair run one after the other, so that a machine busy with something else
slows both alike), the command. Not a test (pytest collects only
test_*.py).
"""

import resource
import statistics
import subprocess
import sys
import time


def timed(command, shell=False):
    """One run of `command` (an argument list, or a line for the shell),
    its output thrown away: wall and CPU seconds (user and system, its
    children included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, shell=shell, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def alternate(commands, rounds, shell=False):
    """Each of `commands` (a dict: name to command) run once per round, in
    turn, for `rounds` rounds: per name, each round's (wall, CPU) seconds."""
    runs = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            runs[name].append(timed(command, shell))
    return runs


def paired_ratio(runs, first, this):
    """The median over the rounds of `first`'s wall time over `this`'s: each
    pair run one after the other, so that a machine busy with something
    else slows both alike."""
    return statistics.median(a[0] / b[0] for a, b in zip(runs[first], runs[this]))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds, template, commands = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    runs = alternate({command: template.format(command) for command in commands}, rounds, shell=True)
    for command in commands:
        wall = min(run[0] for run in runs[command])
        cpu = min(run[1] for run in runs[command])
        median = statistics.median(run[0] for run in runs[command])
        ratio = paired_ratio(runs, commands[0], command)
        print(f"{wall * 1e3:9.1f} ms wall {cpu * 1e3:9.1f} ms CPU {median * 1e3:9.1f} ms median"
              f" {ratio:6.3f}x  {command}")


if __name__ == "__main__":
    main()
