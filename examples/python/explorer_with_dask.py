"""An opening explorer of more games than one machine reads in good time:
one index per PGN file on Dask workers, merged into one.

Each file is one Dask task, which calls ``bitboards.explorer.build`` on its
worker (every core of it, the GIL released) into ``OUT/parts/NNNNN`` and
returns the build's report. When every part is built, the driver merges
them, in the order of the files, into ``OUT/index`` with
``bitboards.explorer.merge``: the merged index answers every query as an
index built from all the files on one machine does (the games of each file
after those of the files before it, so "recent games" mean the same).

On a laptop (a ``distributed.LocalCluster`` of ``--workers`` processes):

    pip install ./bindings/python "dask[distributed]"
    python examples/python/explorer_with_dask.py lichess_db_2024-*.pgn.zst \\
        --out explorer/ --workers 2
    bitboards explorer serve explorer/index

On a cluster (``OUT`` on storage every worker sees):

    dask scheduler                                          # on the head node
    dask worker tcp://HEAD:8786 --nworkers 1 --nthreads 1   # on each machine
    python examples/python/explorer_with_dask.py /shared/pgn/*.pgn.zst \\
        --out /shared/explorer --scheduler tcp://HEAD:8786
"""

import argparse
import os
import shutil
import sys
import time


def build_part(number, path, out, max_ply):
    """Builds the index of one file into ``out/parts/NNNNN`` (from scratch)."""
    import bitboards.explorer

    part = os.path.join(out, "parts", "%05d" % number)
    shutil.rmtree(part, ignore_errors=True)
    report = bitboards.explorer.build(path, part, max_ply=max_ply)
    return number, part, report


def build(paths, out, client, *, max_ply=50):
    """Builds one part per file on the workers of ``client``, then merges
    them in file order into ``out/index``; returns the merged index's path
    and the parts' reports."""
    import bitboards.explorer

    futures = [client.submit(build_part, number, os.path.abspath(path), out, max_ply, pure=False)
               for number, path in enumerate(paths)]
    parts = sorted(client.gather(futures))
    index = os.path.join(out, "index")
    shutil.rmtree(index, ignore_errors=True)
    bitboards.explorer.merge(index, [part for _, part, _ in parts])
    return index, [report for _, _, report in parts]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", help="PGN files (plain, .zst, .gz, .bz2)")
    parser.add_argument("--out", required=True, help="where the parts and the merged index go")
    parser.add_argument("--max-ply", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2, help="local worker processes (without --scheduler)")
    parser.add_argument("--scheduler", help="a Dask scheduler's address")
    args = parser.parse_args(argv)

    from distributed import Client, LocalCluster

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True))
    started = time.perf_counter()
    with client:
        index, reports = build(args.pgn, args.out, client, max_ply=args.max_ply)
    games = sum(report["games_indexed"] for report in reports)
    print(f"{index}: {games} games from {len(reports)} files in {time.perf_counter() - started:.1f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
