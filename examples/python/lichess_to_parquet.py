"""Lichess database shards (`.pgn.zst`) into Parquet with Dask, then a DuckDB query.

The open database (https://database.lichess.org) is published as one
zstd-compressed PGN file per month; split or not, each file is a *shard*
here. Every shard becomes one Dask task, which calls
`bitboards.pgn.to_parquet(shard, OUT/<shard stem>.parquet, threads=1)`: one
thread per task, as many tasks at once as the cluster has worker threads.
Each task returns `(shard, rows)`. Then DuckDB reads `OUT/*.parquet` and
prints the most played openings (the `Opening` tag) by rating band: bands of
400 of the average of `WhiteElo` and `BlackElo`, top 3 per band.

On a laptop (a `distributed.LocalCluster` of N one-thread worker processes,
N defaults to the number of cores):

    pip install ./bindings/python "dask[distributed]" duckdb pyarrow
    python examples/python/lichess_to_parquet.py \\
        lichess_db_standard_rated_2014-*.pgn.zst --out parquet/ --workers 4
    python examples/python/lichess_to_parquet.py --out parquet/ --query-only

Shards are file paths or glob patterns (quote a pattern to have it expanded
here rather than by the shell).

On a real cluster, start a scheduler on one machine and workers on the
others (each worker with one thread: the tasks are CPU-bound), in an
environment with `bitboards`, `dask[distributed]` and `pyarrow` installed:

    dask scheduler                                       # on the head node
    dask worker tcp://HEAD:8786 --nworkers 16 --nthreads 1   # on each machine

then point the script at the scheduler:

    python examples/python/lichess_to_parquet.py \\
        /shared/lichess/*.pgn.zst --out /shared/parquet --scheduler tcp://HEAD:8786

The workers open the shards and write the Parquet files themselves, so both
must be on storage every worker (and this script, for the glob and the
query) sees under the same name: a shared filesystem (NFS, Lustre, ...) or,
with fsspec URLs such as `s3://bucket/lichess/*.pgn.zst` and `--out
s3://bucket/parquet` (needs `s3fs` on the workers), object storage: each
task then copies its shard to local scratch space, converts it there and
uploads the Parquet file. DuckDB reads `s3://` itself (its `httpfs`
extension, with credentials from the environment via `CREATE SECRET`).
"""

import argparse
import glob
import os
import shutil
import sys
import tempfile
import time


def _is_url(path):
    return "://" in str(path)


def _join(directory, name):
    directory = str(directory)
    if _is_url(directory):
        return directory.rstrip("/") + "/" + name
    return os.path.join(directory, name)


def shard_stem(shard):
    """`lichess_db_standard_rated_2014-01.pgn.zst` -> `lichess_db_standard_rated_2014-01`."""
    name = str(shard).rstrip("/").rsplit("/", 1)[-1]
    name = os.path.basename(name)
    for suffix in (".zst", ".gz", ".bz2"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    if name.endswith(".pgn"):
        name = name[: -len(".pgn")]
    return name


def expand_shards(patterns):
    """File paths and glob patterns (local or fsspec URLs) -> sorted shard list."""
    shards = []
    for pattern in patterns:
        pattern = str(pattern)
        if not any(c in pattern for c in "*?["):
            shards.append(pattern)
        elif _is_url(pattern):
            import fsspec

            fs, _, paths = fsspec.get_fs_token_paths(pattern)
            protocol = pattern.split("://", 1)[0]
            shards.extend(f"{protocol}://{p}" for p in sorted(paths))
        else:
            found = sorted(glob.glob(pattern))
            if not found:
                raise FileNotFoundError(f"no shard matches {pattern!r}")
            shards.extend(found)
    # The same shard twice would write the same output twice.
    seen = set()
    return [s for s in shards if not (s in seen or seen.add(s))]


def convert(shard, out_dir):
    """One Dask task: one shard into `out_dir/<stem>.parquet`; returns (shard, rows).

    Runs on a worker, so it imports bitboards there.
    """
    import bitboards.pgn

    out = _join(out_dir, shard_stem(shard) + ".parquet")
    if not (_is_url(shard) or _is_url(out)):
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        return shard, bitboards.pgn.to_parquet(shard, out, threads=1)

    # Object storage: copy the shard to local scratch space, convert it
    # there, upload the table.
    import fsspec

    with tempfile.TemporaryDirectory(prefix="lichess-") as scratch:
        local_in = os.path.join(scratch, os.path.basename(str(shard)) or "shard.pgn")
        local_out = os.path.join(scratch, "out.parquet")
        with fsspec.open(shard, "rb") as src, open(local_in, "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
        rows = bitboards.pgn.to_parquet(local_in, local_out, threads=1)
        with open(local_out, "rb") as src, fsspec.open(out, "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
    return shard, rows


def convert_shards(shards, out_dir, client):
    """Every shard converted by one task on `client`'s cluster: [(shard, rows)], in `shards` order."""
    from distributed import as_completed

    shards = list(shards)
    if not _is_url(out_dir):
        os.makedirs(out_dir, exist_ok=True)
    # pure=False: a shard rewritten since the last run is converted again.
    futures = client.map(convert, shards, out_dir=str(out_dir), pure=False)
    done = {}
    for future in as_completed(futures):
        shard, rows = future.result()
        done[shard] = rows
        print(f"  {len(done)}/{len(shards)} {shard}: {rows:,} games", file=sys.stderr)
    return [(shard, done[shard]) for shard in shards]


TOP_OPENINGS = """
WITH games AS (
    SELECT
        Opening,
        CAST(floor((TRY_CAST(WhiteElo AS INTEGER) + TRY_CAST(BlackElo AS INTEGER)) / 2 / 400) * 400
             AS INTEGER) AS band
    FROM read_parquet(?)
    WHERE Opening IS NOT NULL AND Opening <> '' AND Opening <> '?'
),
counts AS (
    SELECT band, Opening, count(*) AS games
    FROM games
    WHERE band IS NOT NULL
    GROUP BY band, Opening
),
ranked AS (
    SELECT band, Opening, games,
           row_number() OVER (PARTITION BY band ORDER BY games DESC, Opening) AS rank
    FROM counts
)
SELECT band, Opening, games FROM ranked WHERE rank <= ? ORDER BY band, rank
"""


def top_openings(out_dir, per_band=3):
    """[(band, opening, games)]: the `per_band` most played openings of each rating band.

    `band` is the band's lower bound (a multiple of 400) of the average of
    the two Elos; games without both Elos or without an opening are left
    out; ties go to the opening first in alphabetical order.
    """
    import duckdb

    with duckdb.connect() as con:
        return [tuple(row) for row in con.execute(TOP_OPENINGS, [_join(out_dir, "*.parquet"), per_band]).fetchall()]


def print_table(rows, file=sys.stdout):
    """The rows of `top_openings` as a Markdown table."""
    print("| rating band | rank | opening | games |", file=file)
    print("| --- | ---: | --- | ---: |", file=file)
    rank, last = 0, None
    for band, opening, games in rows:
        rank = rank + 1 if band == last else 1
        last = band
        print(f"| {band}-{band + 399} | {rank} | {opening} | {games:,} |", file=file)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("shards", nargs="*", metavar="SHARD", help=".pgn.zst files or glob patterns")
    parser.add_argument("--out", required=True, metavar="DIR", help="directory of the Parquet files")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="an existing cluster's scheduler, e.g. tcp://host:8786")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="worker processes of the local cluster (default: the cores)")
    parser.add_argument("--per-band", type=int, default=3, metavar="K", help="openings per band (default 3)")
    parser.add_argument("--query-only", action="store_true", help="skip the conversion, only query DIR")
    args = parser.parse_args(argv)

    if not args.query_only:
        if not args.shards:
            parser.error("no SHARD given (or --query-only)")
        shards = expand_shards(args.shards)
        from distributed import Client, LocalCluster

        start = time.perf_counter()
        if args.scheduler:
            client = Client(args.scheduler)
            cluster = None
        else:
            cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
            client = Client(cluster)
        try:
            print(f"{len(shards)} shards on {client.dashboard_link or client.scheduler.address}", file=sys.stderr)
            done = convert_shards(shards, args.out, client)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        rows = sum(r for _, r in done)
        elapsed = time.perf_counter() - start
        print(f"{rows:,} games from {len(done)} shards in {elapsed:.1f} s "
              f"({rows / elapsed:,.0f} games/s) into {args.out}\n")

    print_table(top_openings(args.out, args.per_band))
    return 0


if __name__ == "__main__":
    sys.exit(main())
