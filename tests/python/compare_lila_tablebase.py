"""`bitboards explorer serve --syzygy` against lila-tablebase, Lichess's own
tablebase server, on the same tables: every field of every answer.

Not part of CI: lila-tablebase (AGPL) is built by hand, outside the
repository (`cargo build --release` in its checkout, about 5 minutes here),
and named by LILA_TABLEBASE_BIN. Both servers are started on free loopback
ports over the same Syzygy directory; for each of N positions (random legal
placements of every material the directory has tables for, with side to
move, en passant squares that can be taken, mates, stalemates and moves
that leave insufficient material, and positions beyond the tables), both
answers to `GET /standard?fen=` are compared field by field: the
position's `category`, `dtz`, `precise_dtz`, `dtm`, `checkmate`,
`stalemate`, `insufficient_material`, and each move's `uci`, `san`,
`category`, `dtz`, `precise_dtz`, `dtm`, `zeroing`, `checkmate`,
`stalemate`, `insufficient_material`, in the order given (best first).
lila-tablebase sorts the moves with an unstable sort, so moves that its
order cannot tell apart (the same category, mate, stalemate, dead draw,
conversion, zeroing, DTZ, captured piece and promotion) may come in any
order: such runs are compared as sets.
(python-chess's probe of the same answers is tests/python/test_explorer_server.py's,
in CI.)

    LILA_TABLEBASE_BIN=/path/to/lila-tablebase \
        python tests/python/compare_lila_tablebase.py --syzygy ../shared/syzygy --positions 600

With `--write FILE`, lila's answers are also written (one `{"fen", "answer"}`
a line): tests/data/lila-tablebase-answers.jsonl is such a file, over
tests/data/syzygy, which tests/python/test_explorer_server.py checks the
server against in CI (lila-tablebase's answers as data, with `compare`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import chess

BITBOARDS = os.environ.get("BITBOARDS_BIN", "target/release/bitboards")
LILA = os.environ.get("LILA_TABLEBASE_BIN", "")

POSITION_FIELDS = ["category", "dtz", "precise_dtz", "dtm", "checkmate", "stalemate", "insufficient_material"]
MOVE_FIELDS = ["uci", "san", "category", "dtz", "precise_dtz", "dtm", "zeroing", "checkmate", "stalemate",
               "insufficient_material"]
PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT,
          "P": chess.PAWN}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(url: str) -> None:
    for _ in range(100):
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{url} did not answer")


def materials(syzygy: str) -> list[str]:
    names = sorted({name.split(".")[0] for name in os.listdir(syzygy) if name.endswith(".rtbw")})
    return [name for name in names if "v" in name]


def placement(rng: random.Random, material: str) -> chess.Board | None:
    white, black = material.split("v")
    board = chess.Board(None)
    squares = rng.sample(range(64), len(white) + len(black))
    for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
        for letter in pieces:
            square = squares.pop()
            if letter == "P" and chess.square_rank(square) in (0, 7):
                return None
            board.set_piece_at(square, chess.Piece(PIECES[letter], color))
    if rng.random() < 0.5:
        # Colours swapped: the weaker side to move as often as not.
        board = board.mirror()
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board if board.is_valid() else None


def positions(rng: random.Random, syzygy: str, count: int) -> list[str]:
    tables = materials(syzygy)
    fens = [
        "4k3/6KP/8/8/8/8/7p/8 w - - 0 1",  # the specification's example
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
        "6Qk/8/6K1/8/8/8/8/8 b - - 0 1",  # mate
        "8/8/8/8/4k3/8/8/R3K3 w - - 0 1",
        "8/8/8/8/8/4k3/3p4/4K2R w K - 0 1",
        "8/8/8/8/4k3/8/3pP3/4K3 b - e3 0 1",  # en passant that can be taken
        "8/8/4k3/8/3Pp3/8/8/4K3 b - d3 0 1",
        "8/8/8/8/8/2k5/2p5/2K1N3 w - - 0 1",  # a capture to insufficient material
        "8/8/8/2k5/8/8/1K6/1Q1r4 w - - 0 1",
        "4k3/8/8/8/8/8/4PP2/4K2R w K - 0 1",  # beyond the tables: unknown
    ]
    while len(fens) < count:
        board = placement(rng, rng.choice(tables))
        if board is None:
            continue
        fens.append(board.fen())
    return fens


def get(url: str) -> dict:
    """The answer, or {"status": CODE} for an error."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        return {"status": error.code, "category": None}


def tie_class(board: chess.Board, move: dict) -> tuple:
    """What lila-tablebase's sort key sees of a move."""
    mv = chess.Move.from_uci(move["uci"])
    captured = board.piece_type_at(mv.to_square) if not board.is_castling(mv) else None
    if board.is_en_passant(mv):
        captured = chess.PAWN
    return (move["category"], move["checkmate"], move["stalemate"], move["insufficient_material"],
            move["zeroing"], move["dtz"], captured, mv.promotion)


def in_runs(board: chess.Board, moves: list[dict]) -> list[tuple]:
    """The moves as runs of one tie class, each run sorted by UCI."""
    runs: list[tuple] = []
    for move in moves:
        key = tie_class(board, move)
        if runs and runs[-1][0] == key:
            runs[-1][1].append(move["uci"])
        else:
            runs.append((key, [move["uci"]]))
    return [(key, sorted(ucis)) for key, ucis in runs]


def compare(fen: str, ours: dict, theirs: dict) -> list[str]:
    differences = []
    if ours.get("status") != theirs.get("status"):
        return [f"status: ours {ours.get('status', 200)}, lila {theirs.get('status', 200)}"]
    for field in POSITION_FIELDS:
        if ours.get(field) != theirs.get(field):
            differences.append(f"{field}: ours {ours.get(field)!r}, lila {theirs.get(field)!r}")
    our_moves, their_moves = ours.get("moves", []), theirs.get("moves", [])
    if sorted(m["uci"] for m in our_moves) != sorted(m["uci"] for m in their_moves):
        differences.append(f"moves: ours {[m['uci'] for m in our_moves]}, lila {[m['uci'] for m in their_moves]}")
        return differences
    board = chess.Board(fen)
    if in_runs(board, our_moves) != in_runs(board, their_moves):
        differences.append(f"order: ours {[m['uci'] for m in our_moves]}, lila {[m['uci'] for m in their_moves]}")
    by_uci = {m["uci"]: m for m in their_moves}
    for ours_move in our_moves:
        theirs_move = by_uci[ours_move["uci"]]
        for field in MOVE_FIELDS:
            if ours_move.get(field) != theirs_move.get(field):
                differences.append(f"{ours_move['uci']} {field}: ours {ours_move.get(field)!r}, "
                                   f"lila {theirs_move.get(field)!r}")
    return differences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--syzygy", default="../shared/syzygy")
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--write", help="also write lila's answers to this file (JSON lines)")
    args = parser.parse_args()
    if not (LILA and os.access(LILA, os.X_OK)):
        sys.exit("set LILA_TABLEBASE_BIN to a built lila-tablebase")
    rng = random.Random(args.seed)
    fens = positions(rng, args.syzygy, args.positions)
    ours_port, lila_port = free_port(), free_port()
    ours = subprocess.Popen([BITBOARDS, "explorer", "serve", "--syzygy", args.syzygy, "--port", str(ours_port)],
                            stderr=subprocess.DEVNULL)
    lila = subprocess.Popen([LILA, "--standard", args.syzygy, "--bind", f"127.0.0.1:{lila_port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        start = urllib.parse.quote("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
        wait_until_up(f"http://127.0.0.1:{ours_port}/standard?fen={start}")
        wait_until_up(f"http://127.0.0.1:{lila_port}/standard?fen={start}")
        differing = []
        written = []
        moves = 0
        categories: dict[str, int] = {}
        for fen in fens:
            query = "/standard?fen=" + urllib.parse.quote(fen)
            our_answer = get(f"http://127.0.0.1:{ours_port}{query}")
            their_answer = get(f"http://127.0.0.1:{lila_port}{query}")
            kept = {field: their_answer.get(field) for field in POSITION_FIELDS + ["status"] if field in their_answer}
            kept["moves"] = [{field: move.get(field) for field in MOVE_FIELDS}
                             for move in their_answer.get("moves", [])]
            written.append(json.dumps({"fen": fen, "answer": kept}, separators=(",", ":")))
            moves += len(their_answer.get("moves", []))
            categories[their_answer["category"]] = categories.get(their_answer["category"], 0) + 1
            differences = compare(fen, our_answer, their_answer)
            if differences:
                differing.append((fen, differences))
        print(f"{len(fens)} positions, {moves} moves; lila's categories {categories}")
        print(f"{len(differing)} positions differ")
        if args.write:
            with open(args.write, "w", newline="\n") as out:
                out.write("\n".join(written) + "\n")
        for fen, differences in differing[:20]:
            print(f"  {fen}")
            for difference in differences[:6]:
                print(f"    {difference}")
        sys.exit(1 if differing else 0)
    finally:
        for server in (ours, lila):
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
