"""Writes tests/data/syzygy-reference.csv: random legal positions of every
3- and 4-piece table (both sides to move, both colours stronger, en passant
among them) with python-chess's `probe_wdl` and `probe_dtz` for each, the
reference the prober's tests check every answer against.

    python tests/python/syzygy_reference.py [PER_TABLE]   (default 700)

python-chess is a test oracle only (pip); its answers are data here, and
none of its code is in this project.
"""

import os
import random
import sys

import chess
import chess.syzygy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLES = os.path.join(ROOT, "tests", "data", "syzygy")
OUT = os.path.join(ROOT, "tests", "data", "syzygy-reference.csv")
LETTERS = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


def random_board(rng, white, black):
    """A random legal board with `white` and `black` pieces, or None."""
    board = chess.Board(None)
    squares = rng.sample(range(64), len(white) + len(black))
    for color, letters in ((chess.WHITE, white), (chess.BLACK, black)):
        for letter in letters:
            square = squares.pop()
            if letter == "P" and chess.square_rank(square) in (0, 7):
                return None
            board.set_piece_at(square, chess.Piece(LETTERS[letter], color))
    board.turn = rng.random() < 0.5
    board.castling_rights = 0
    return board if valid(board) else None


def valid(board):
    """Legal for python-chess and for the library."""
    if not board.is_valid():
        return False
    # Two checkers, neither a slider, cannot come from one move: the
    # library refuses such a position (python-chess takes it).
    checkers = board.checkers()
    sliders = (chess.BISHOP, chess.ROOK, chess.QUEEN)
    return not (len(checkers) > 1 and not any(board.piece_type_at(s) in sliders for s in checkers))


def en_passant_board(rng, white, black):
    """A random legal board where the side to move can take en passant: a
    pawn of each side, side by side, the one not to move just pushed two
    squares. None when the material has no pawn on one side."""
    if "P" not in white or "P" not in black:
        return None
    mover = rng.random() < 0.5
    pusher_rank = 3 if mover == chess.BLACK else 4
    file = rng.randrange(8)
    beside = file + rng.choice([-1, 1])
    if not 0 <= beside < 8:
        return None
    board = chess.Board(None)
    taken = {chess.square(file, pusher_rank), chess.square(beside, pusher_rank)}
    board.set_piece_at(chess.square(file, pusher_rank), chess.Piece(chess.PAWN, not mover))
    board.set_piece_at(chess.square(beside, pusher_rank), chess.Piece(chess.PAWN, mover))
    step = -1 if mover == chess.BLACK else 1
    behind = chess.square(file, pusher_rank + step)
    start = chess.square(file, pusher_rank + 2 * step)
    rest = {chess.WHITE: list(white), chess.BLACK: list(black)}
    rest[chess.WHITE].remove("P")
    rest[chess.BLACK].remove("P")
    free = [s for s in range(64) if s not in taken and s not in (behind, start)]
    squares = rng.sample(free, len(rest[chess.WHITE]) + len(rest[chess.BLACK]))
    for color in (chess.WHITE, chess.BLACK):
        for letter in rest[color]:
            square = squares.pop()
            if letter == "P" and chess.square_rank(square) in (0, 7):
                return None
            board.set_piece_at(square, chess.Piece(LETTERS[letter], color))
    board.turn = mover
    board.castling_rights = 0
    board.ep_square = behind
    if not valid(board) or not board.has_legal_en_passant():
        return None
    return board


def with_en_passant(rng, board):
    """The board with an en passant square where a pawn of the side not to
    move could have just pushed two squares and one of ours can take it."""
    mover = board.turn
    pusher = not mover
    rank = 4 if pusher == chess.BLACK else 3  # the pawn's rank after the push
    candidates = []
    for square in board.pieces(chess.PAWN, pusher):
        if chess.square_rank(square) != rank:
            continue
        behind = square + (8 if pusher == chess.BLACK else -8)
        start = behind + (8 if pusher == chess.BLACK else -8)
        if board.piece_at(behind) or board.piece_at(start):
            continue
        candidates.append(behind)
    rng.shuffle(candidates)
    for ep in candidates:
        board.ep_square = ep
        if board.is_valid() and board.has_legal_en_passant():
            return board
    board.ep_square = None
    return None


def main():
    per_table = int(sys.argv[1]) if len(sys.argv) > 1 else 700
    rng = random.Random(0x5E2E)
    names = sorted(name[:-5] for name in os.listdir(TABLES) if name.endswith(".rtbw"))
    rows = []
    with chess.syzygy.open_tablebase(TABLES) as tables:
        for name in names:
            strong, weak = name.split("v")
            made, tries = 0, 0
            while made < per_table and tries < per_table * 200:
                tries += 1
                white, black = (strong, weak) if rng.random() < 0.5 else (weak, strong)
                board = random_board(rng, white, black)
                if board is None:
                    continue
                if "P" in name and rng.random() < 0.25:
                    board = with_en_passant(rng, board)
                    if board is None:
                        continue
                if "P" in strong and "P" in weak and rng.random() < 0.5:
                    board = en_passant_board(rng, white, black)
                    if board is None:
                        continue
                wdl = tables.probe_wdl(board)
                dtz = tables.probe_dtz(board)
                rows.append(f"{board.fen()},{wdl},{dtz}\n")
                made += 1
            print(f"{name}: {made}", file=sys.stderr)
    with open(OUT, "w") as out:
        out.write("fen,wdl,dtz\n")
        out.writelines(rows)
    print(f"{OUT}: {len(rows)} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
