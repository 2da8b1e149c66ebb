"""A training batch from a game database: a `.pgn.zst` in, NumPy planes,
moves and results out.

    python examples/python/positions_to_numpy.py lichess_db_standard_rated_2013-01.pgn.zst \
        --out batch.npz --min-elo 1800 --every 2 --limit 100000

Every position before a move of the games whose players are both rated at
least `--min-elo` becomes a row: its twelve piece boards as planes of shape
(12, 8, 8) seen from the side to move (`flip`), the move played (as an index
from-square * 64 + to-square, the usual policy target) and the game's result
from the mover's side (1 win, 0 draw, -1 loss). The rows stream through in
batches, so memory stays bounded whatever the file's size.

To hand the arrays to PyTorch:

    batch = numpy.load("batch.npz")
    planes, moves = torch.from_numpy(batch["planes"]), torch.from_numpy(batch["moves"])
"""

import argparse

import numpy as np
import pyarrow.compute as pc

import bitboards
import bitboards.pgn

RESULTS = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}


def square_index(names):
    """Square numbers (a1 = 0) of an array of two-letter names."""
    files = np.frombuffer(b"".join(name.encode() for name in names), dtype=np.uint8).reshape(-1, 2)
    return (files[:, 1].astype(np.int64) - ord("1")) * 8 + (files[:, 0].astype(np.int64) - ord("a"))


def batch_arrays(batch):
    """Planes, move indices and results of one record batch."""
    planes = bitboards.planes(batch.column("bitboards"), turn=batch.column("turn"))
    moves = batch.column("move").to_pylist()
    from_squares = square_index([move[:2] for move in moves])
    to_squares = square_index([move[2:4] for move in moves])
    turn = batch.column("turn").to_numpy(zero_copy_only=False)
    if turn.size:
        # Seen from Black's side, Black's squares are mirrored like the planes.
        from_squares = np.where(turn, from_squares, from_squares ^ 56)
        to_squares = np.where(turn, to_squares, to_squares ^ 56)
    white_result = np.array([RESULTS.get(r, 0) for r in batch.column("Result").to_pylist()], dtype=np.int8)
    results = np.where(turn, white_result, -white_result).astype(np.int8)
    return planes, (from_squares * 64 + to_squares).astype(np.int16), results


def training_batch(path, min_elo=None, every=1, limit=None, threads=None):
    """Planes `(N, 12, 8, 8)` uint8, moves `(N,)` int16 and results `(N,)`
    int8 for the positions of `path`, at most `limit` of them."""
    planes, moves, results = [], [], []
    rows = 0
    for batch in bitboards.pgn.iter_positions(path, min_elo=min_elo, every=every, threads=threads):
        # Decided games only: a result to learn from.
        batch = batch.filter(pc.is_in(batch.column("Result"), value_set=pc.cast(list(RESULTS), "string")))
        if limit is not None:
            batch = batch.slice(0, max(0, limit - rows))
        p, m, r = batch_arrays(batch)
        planes.append(p)
        moves.append(m)
        results.append(r)
        rows += batch.num_rows
        if limit is not None and rows >= limit:
            break
    if not planes:
        empty = np.zeros((0, 12, 8, 8), dtype=np.uint8)
        return empty, np.zeros(0, dtype=np.int16), np.zeros(0, dtype=np.int8)
    return np.concatenate(planes), np.concatenate(moves), np.concatenate(results)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", help="a PGN file, plain or compressed (.zst, .gz, .bz2)")
    parser.add_argument("--out", required=True, help="the .npz file to write")
    parser.add_argument("--min-elo", type=int, default=None)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    planes, moves, results = training_batch(args.pgn, args.min_elo, args.every, args.limit, args.threads)
    np.savez(args.out, planes=planes, moves=moves, results=results)
    print(f"{len(planes)} positions: planes {planes.shape}, moves {moves.shape}, results {results.shape} -> {args.out}")


if __name__ == "__main__":
    main()
