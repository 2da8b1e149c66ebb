"""Polyglot books against python-chess, the reference reader.

A book is built by `bitboards book build` from random games that
python-chess plays and writes as PGN (castling, promotions and en passant
included); then, for every position of those games, `bitboards book show
--format json` and python-chess's `polyglot` reader must list the same
entries: the same moves (UCI), weights and learn values, in the same order.
python-chess also reads the book as a whole, so it is a valid Polyglot file.

Run by .ci/run: `BITBOARDS_BIN=target/debug/bitboards pytest tests/python`.
"""

import json
import os
import random
import subprocess
import tempfile

import chess
import chess.pgn
import chess.polyglot

BIN = os.environ.get("BITBOARDS_BIN", "target/debug/bitboards")


def random_games(count, seed):
    """Seeded random games, to at most 30 plies, with random results."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = chess.Board()
        for _ in range(rng.randrange(4, 30)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        game = chess.pgn.Game.from_board(board)
        game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2"])
        games.append(game)
    return games


def build_book(games, tmp, *options):
    """The games as a PGN file in `tmp`, and the book `bitboards book build`
    makes of it (with `options`): the book's path."""
    pgn = os.path.join(tmp, "games.pgn")
    with open(pgn, "w") as out:
        for game in games:
            print(game, file=out, end="\n\n")
    book = os.path.join(tmp, "book.bin")
    subprocess.run([BIN, "book", "build", pgn, "-o", book, *options], check=True, capture_output=True)
    return book


def show(book, fen):
    out = subprocess.run(
        [BIN, "book", "show", book, "--fen", fen, "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


def test_built_book_reads_the_same_in_python_chess():
    games = random_games(150, 7)
    with tempfile.TemporaryDirectory() as tmp:
        book = build_book(games, tmp, "--max-ply", "12")
        fens = set()
        for game in games:
            board = game.board()
            for move in list(game.mainline_moves())[:14]:
                fens.add(board.fen())
                board.push(move)
        compared = 0
        with chess.polyglot.open_reader(book) as reader:
            assert len(reader) > 100
            for fen in sorted(fens):
                board = chess.Board(fen)
                theirs = [
                    {
                        "uci": entry.move.uci(),
                        "san": board.san(entry.move),
                        "weight": entry.weight,
                        "learn": entry.learn,
                    }
                    for entry in reader.find_all(board, minimum_weight=0)
                ]
                ours = show(book, fen)
                assert ours == theirs, fen
                compared += len(ours)
        # Castling and the deeper plies are in there.
        assert compared > 300


def test_weights_follow_polyglot():
    """2 per win and 1 per draw for the side that played the move."""
    games = random_games(40, 11)
    with tempfile.TemporaryDirectory() as tmp:
        book = build_book(games, tmp)
        expected = {}
        for game in games:
            result = game.headers["Result"]
            board = game.board()
            for move in list(game.mainline_moves())[:40]:
                key = (chess.polyglot.zobrist_hash(board), move.uci())
                mover = "1-0" if board.turn == chess.WHITE else "0-1"
                points = 2 if result == mover else 1 if result == "1/2-1/2" else 0
                expected[key] = expected.get(key, 0) + points
                board.push(move)
        with chess.polyglot.open_reader(book) as reader:
            found = {}
            for entry in reader:
                board_move = entry.raw_move
                found[(entry.key, board_move)] = entry.weight
            assert len(found) == len(expected)
            assert sorted(found.values()) == sorted(expected.values())
