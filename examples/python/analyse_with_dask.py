"""Positions analysed by Stockfish beyond one machine: Dask tasks, each an engine pool.

The job of ChessBench and of the Lichess evaluations: a list of positions in,
an engine evaluation of each out. The positions (FEN or EPD lines in text
files, or Parquet files with a ``fen`` column, such as a previous
analysis) are read here, optionally de-duplicated (``--unique``: the first
four FEN fields, as ChessBench did), and cut into shards of ``--shard-size``
positions. Each shard is one Dask task, which calls
``bitboards.engine.analyse_many`` on its worker: that worker's own pool of
``--engines`` Stockfish processes, the GIL released, each position after a
fresh ``ucinewgame``. The task writes ``OUT/part-NNNNN.parquet`` (under a
temporary name, renamed when complete) and returns its row count. The
tables' ``game`` column is the position's number among all those analysed
(after ``--unique``), from 0.

Each position is searched from a fresh ``ucinewgame`` at a node or depth
limit: the files hold the same rows whatever the number of workers and
engines, and however the shards were shared out.

On a laptop (a ``distributed.LocalCluster`` of ``--workers`` processes):

    pip install ./bindings/python "dask[distributed]" pyarrow
    python examples/python/analyse_with_dask.py positions.epd \\
        --engine /usr/games/stockfish --nodes 100000 --out evals/ --workers 2

On a cluster: a scheduler on one machine and a worker per machine, each
with one thread (the engines are the work; the thread only waits):

    dask scheduler                                        # on the head node
    dask worker tcp://HEAD:8786 --nworkers 1 --nthreads 1    # on each machine

    python examples/python/analyse_with_dask.py /shared/positions.epd \\
        --engine /usr/games/stockfish --nodes 100000 --out /shared/evals \\
        --scheduler tcp://HEAD:8786

``--engines`` defaults to each worker's core count (``os.cpu_count()`` on
the worker); the engine must exist under the same path on every worker,
and ``OUT`` must be storage every worker sees (a shared filesystem).
"""

import argparse
import glob
import os
import sys
import time


def read_positions(paths):
    """FENs from text files (one FEN or EPD per line; blank lines and `#`
    comments skipped) and Parquet files (their `fen` column), in order."""
    fens = []
    for path in paths:
        if path.endswith(".parquet"):
            import pyarrow.parquet as pq

            fens.extend(pq.read_table(path, columns=["fen"]).column("fen").to_pylist())
            continue
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                line = line.strip()
                if line and not line.startswith("#"):
                    fens.append(line)
    return fens


def unique(fens):
    """The first time each position comes: its placement, side to move,
    castling and en passant (the clocks left out)."""
    seen = set()
    kept = []
    for fen in fens:
        key = " ".join(fen.split()[:4])
        if key not in seen:
            seen.add(key)
            kept.append(fen)
    return kept


def analyse_shard(index, first, fens, out, engine, limit, engines, multipv, options):
    """One task: `fens` (the input's positions from number `first`) through
    `analyse_many` on this worker, written to OUT/part-<index>.parquet."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    import bitboards.engine

    started = time.perf_counter()
    table = bitboards.engine.analyse_many(
        engine, fens, limit, engines=engines, multipv=multipv, options=options
    )
    # The index of each position in the whole input, not in the shard.
    game = pc.add(table.column("game"), pa.scalar(first, pa.uint64()))
    table = table.set_column(table.schema.get_field_index("game"), "game", game)
    path = os.path.join(out, f"part-{index:05d}.parquet")
    partial = os.path.join(out, f".part-{index:05d}.parquet.{os.getpid()}.partial")
    pq.write_table(table, partial)
    os.replace(partial, path)
    return index, table.num_rows, time.perf_counter() - started


def analyse(fens, out, client, engine, limit, *, shard_size=1000, engines=None, multipv=1,
            options=None):
    """Every position of `fens` analysed on the cluster of `client`, into
    Parquet files under `out`; returns the rows written."""
    os.makedirs(out, exist_ok=True)
    futures = []
    for index, first in enumerate(range(0, len(fens), shard_size)):
        futures.append(
            client.submit(
                analyse_shard, index, first, fens[first:first + shard_size], out, engine, limit,
                engines, multipv, options, pure=False,
            )
        )
    rows = 0
    for _, count, _ in client.gather(futures):
        rows += count
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", help="FEN/EPD text files or Parquet files with a fen column (globs allowed)")
    parser.add_argument("--engine", required=True, help="the UCI engine's path on every worker")
    parser.add_argument("--nodes", type=int, help="search each position to N nodes")
    parser.add_argument("--depth", type=int, help="search each position to depth D")
    parser.add_argument("--multipv", type=int, default=1)
    parser.add_argument("--hash", type=int, help="each engine's hash in MB")
    parser.add_argument("--engines", type=int, help="engines per worker (default: its cores)")
    parser.add_argument("--shard-size", type=int, default=1000)
    parser.add_argument("--unique", action="store_true", help="each position once")
    parser.add_argument("--out", required=True, help="the directory of the Parquet files")
    parser.add_argument("--workers", type=int, default=1, help="local worker processes (without --scheduler)")
    parser.add_argument("--scheduler", help="a Dask scheduler's address (tcp://HOST:8786)")
    args = parser.parse_args(argv)
    if args.nodes is None and args.depth is None:
        parser.error("give a limit: --nodes N or --depth D")

    import bitboards.engine
    from distributed import Client, LocalCluster

    paths = []
    for pattern in args.inputs:
        found = sorted(glob.glob(pattern))
        if not found:
            parser.error(f"no file matches {pattern}")
        paths.extend(found)
    fens = read_positions(paths)
    if args.unique:
        fens = unique(fens)
    limit = bitboards.engine.Limit(nodes=args.nodes, depth=args.depth)
    options = {"Hash": args.hash} if args.hash else None

    started = time.perf_counter()
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
        client = Client(cluster)
    try:
        rows = analyse(fens, args.out, client, args.engine, limit, shard_size=args.shard_size,
                       engines=args.engines, multipv=args.multipv, options=options)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    seconds = time.perf_counter() - started
    print(f"{len(fens)} positions, {rows} rows in {seconds:.1f} s "
          f"({len(fens) / max(seconds, 1e-9):.1f} positions/s) -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
