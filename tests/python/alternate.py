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


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds, template, commands = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    best = {command: (float("inf"), float("inf")) for command in commands}
    walls = {command: [] for command in commands}
    for _ in range(rounds):
        for command in commands:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(template.format(command), shell=True, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            best[command] = (min(best[command][0], wall), min(best[command][1], cpu))
            walls[command].append(wall)
    for command in commands:
        wall, cpu = best[command]
        median = statistics.median(walls[command])
        ratio = statistics.median(
            first / this for first, this in zip(walls[commands[0]], walls[command])
        )
        print(f"{wall * 1e3:9.1f} ms wall {cpu * 1e3:9.1f} ms CPU {median * 1e3:9.1f} ms median"
              f" {ratio:6.3f}x  {command}")


if __name__ == "__main__":
    main()
