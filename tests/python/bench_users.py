"""What users run, timed against the peers the issues name, in one run.

    cargo build --release -p bitboards-cli --bins -p bitboards-pgn --examples
    cargo build --release --example book_lookups
    python tests/python/bench_users.py [GAMES]     # needs python-chess

On one Lichess-shaped file (the `lichess_pgn` example: the open database's
tags, an eval and a clock after every move; 5,000 games by default), each
command several times, alternating, best time kept:

- reading every game to its final position: `bitboards pgn FILE --format
  json` on one thread and on all, against the short pgn-reader + shakmaty
  program (`pgn_reader_peer` example) and python-chess's `read_game`;
- building a Polyglot book: `bitboards book build FILE`, one thread and all;
- book lookups: `Book::entries` over every position (the `book_lookups`
  example, as a Rust program calls it) against python-chess's bare
  `find_all`; and `bitboards book show BOOK --fens FENS --format json`
  against python-chess doing the same (every position's entries in SAN and
  UCI, as JSON lines).

Prints a markdown table. Not a test (pytest collects only test_*.py).
"""

import io
import json
import os
import subprocess
import sys
import tempfile
import time

import chess
import chess.pgn
import chess.polyglot

RELEASE = os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release")
BITBOARDS = os.path.join(RELEASE, "bitboards")
PEER = os.path.join(RELEASE, "examples", "pgn_reader_peer")
LICHESS = os.path.join(RELEASE, "examples", "lichess_pgn")
LOOKUPS = os.path.join(RELEASE, "examples", "book_lookups")
ROUNDS = 3


def run(*command):
    """Seconds that `command` took, its output thrown away."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def best(tasks):
    """Each task's best time over ROUNDS alternating rounds."""
    times = {name: float("inf") for name in tasks}
    for _ in range(ROUNDS):
        for name, task in tasks.items():
            times[name] = min(times[name], task())
    return times


def python_chess_read(pgn, games):
    """python-chess reading the first `games` games to their final boards."""
    start = time.perf_counter()
    with open(pgn) as file:
        for _ in range(games):
            game = chess.pgn.read_game(file)
            if game is None:
                break
            game.end().board()
    return time.perf_counter() - start


def python_chess_show(book, fens, out):
    """python-chess listing every position's book moves as JSON lines."""
    start = time.perf_counter()
    with chess.polyglot.open_reader(book) as reader:
        for fen in fens:
            board = chess.Board(fen)
            for entry in reader.find_all(board, minimum_weight=0):
                out.write(json.dumps({
                    "fen": fen, "uci": entry.move.uci(), "san": board.san(entry.move),
                    "weight": entry.weight, "learn": entry.learn,
                }) + "\n")
    return time.perf_counter() - start


def python_chess_lookups(book, boards):
    start = time.perf_counter()
    with chess.polyglot.open_reader(book) as reader:
        for board in boards:
            sum(1 for _ in reader.find_all(board, minimum_weight=0))
    return time.perf_counter() - start


def main(games):
    threads = str(os.cpu_count() or 1)
    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "lichess.pgn")
        subprocess.run([LICHESS, str(games), pgn], check=True)
        size = os.path.getsize(pgn) / 1e6
        book = os.path.join(tmp, "book.bin")
        subprocess.run([BITBOARDS, "book", "build", pgn, "-o", book], check=True, capture_output=True)
        # The positions of the games' first 20 plies, as the book has them.
        fens = []
        with open(pgn) as file:
            while len(fens) < 20_000:
                game = chess.pgn.read_game(file)
                if game is None:
                    break
                board = game.board()
                for move in list(game.mainline_moves())[:20]:
                    fens.append(board.fen())
                    board.push(move)
        fen_file = os.path.join(tmp, "fens.txt")
        with open(fen_file, "w") as out:
            out.write("\n".join(fens) + "\n")
        boards = [chess.Board(fen) for fen in fens]
        python_games = min(games, 500)
        times = best({
            "bitboards pgn --format json, 1 thread": lambda: run(BITBOARDS, "pgn", pgn, "--format", "json", "--threads", "1"),
            f"bitboards pgn --format json, {threads} threads": lambda: run(BITBOARDS, "pgn", pgn, "--format", "json", "--threads", threads),
            "pgn-reader + shakmaty program": lambda: run(PEER, pgn),
            "bitboards book build, 1 thread": lambda: run(BITBOARDS, "book", "build", pgn, "-o", os.path.join(tmp, "b1.bin"), "--threads", "1"),
            f"bitboards book build, {threads} threads": lambda: run(BITBOARDS, "book", "build", pgn, "-o", os.path.join(tmp, "b2.bin"), "--threads", threads),
            "bitboards book show --fens --format json": lambda: run(BITBOARDS, "book", "show", book, "--fens", fen_file, "--format", "json"),
            "python-chess polyglot, the same JSON lines": lambda: python_chess_show(book, fens, io.StringIO()),
        })
        # python-chess reading is slow: timed once, on fewer games.
        times["python-chess read_game"] = python_chess_read(pgn, python_games) * games / python_games
        lookups = min(python_chess_lookups(book, boards) for _ in range(ROUNDS))
        ours = subprocess.run([LOOKUPS, book, fen_file], check=True, capture_output=True, text=True).stdout
        ours_rate = float(ours.split()[-2])

    peer = times["pgn-reader + shakmaty program"]
    print(f"{games} Lichess-shaped games, {size:.1f} MB; {len(fens)} book positions; best of {ROUNDS}\n")
    print("| what the user runs | time | rate | vs the peer |")
    print("| --- | ---: | ---: | ---: |")
    for name in [
        "bitboards pgn --format json, 1 thread", f"bitboards pgn --format json, {threads} threads",
        "pgn-reader + shakmaty program", "python-chess read_game",
        "bitboards book build, 1 thread", f"bitboards book build, {threads} threads",
    ]:
        ratio = f"{peer / times[name]:.2f}x pgn-reader" if name.startswith("bitboards") else ""
        print(f"| {name} | {times[name]:.3f} s | {games / times[name]:,.0f} games/s | {ratio} |")
    show = times["bitboards book show --fens --format json"]
    theirs = times["python-chess polyglot, the same JSON lines"]
    print(f"| bitboards book show --fens --format json | {show:.3f} s | {len(fens) / show:,.0f} positions/s | {theirs / show:.1f}x python-chess |")
    print(f"| python-chess polyglot, the same JSON lines | {theirs:.3f} s | {len(fens) / theirs:,.0f} positions/s | |")
    print(f"| python-chess polyglot, bare lookups | {lookups:.3f} s | {len(fens) / lookups:,.0f} positions/s | |")
    theirs_rate = len(fens) / lookups
    print(f"| Book::entries (book_lookups example), bare lookups | {len(fens) / ours_rate:.3f} s | {ours_rate:,.0f} positions/s | {ours_rate / theirs_rate:.0f}x python-chess |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
