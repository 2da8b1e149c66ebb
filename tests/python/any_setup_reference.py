"""Writes tests/data/any-setup-reference.txt: setups no game reaches (no
king, two kings, pawns on a back rank, rights without their rook, en
passant squares no pawn made, impossible checks) with python-chess's
answers for each, the reference `tests/any_setup.rs` checks
`bitboards::AnySetup` and the loose move generation against.

    python tests/python/any_setup_reference.py [RANDOM]   (default 1000)

The file holds the hand-picked setups of the Python package's tests, then
RANDOM seeded random ones, each read as standard chess and as Chess960.
One line a setup, tab-separated:

    fen-as-given  chess960(0/1)  fen()  status()  clean_castling_rights()
    castling_rights  ep_square(-)  king(WHITE)(-)  king(BLACK)(-)
    is_check()  is_checkmate()  is_stalemate()
    pins: "square:color:mask" for each pin_mask(color, square) that is not
      every square, comma-separated (- for none)
    moves: "uci:san" for each legal move, sorted by UCI, castling left out
      where the setup is not valid (- for none)
    fen() after the first of those moves (- for none)

python-chess is a test oracle only (pip); its answers are data here, and
none of its code is in this project.
"""

import os
import random
import sys

import chess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "any-setup-reference.txt")

PICKED = [
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "8/8/8/8/8/8/8/K7 w - - 0 1",
    "8/8/8/8/8/8/r7/K6K w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
    "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1",
    "4k3/5P2/3N4/8/8/8/4R3/4K3 b - - 0 1",
    "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1",
    "2Nq4/2K5/1b6/8/7R/3k4/7P/8 w - - 0 1",
    "5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1",
    "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
    "1b1b4/8/b1P5/2kP4/8/2b4K/8/8 w - c6 0 1",
    "5K2/8/2pp2Pp/2PP4/P5Pp/2pP1Ppp/P6p/7k b - g3 0 1",
    "8/7k/8/7p/8/8/8/K7 w - h6 0 1",
    "8/8/8/pP6/8/8/8/8 w - a6 0 1",
    "1r6/8/8/pP6/8/8/8/1K6 w - a6 0 1",
    "3q1rk1/ppp1p1pp/4b3/3pPp2/3P4/1K1n4/PPQ2PPP/3b1BNR w - f6 0 1",
    "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6",
    "1r2k3/8/8/8/8/8/8/R3KR2 w KQkq - 0 1",
    "2rrk3/8/8/8/8/8/3PPPPP/2RK4 w cd - 0 1",
    "k6K/8/8/pppppppp/8/8/8/QqQq4 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "Q~3k3/8/8/8/8/8/8/4K3 b - - 0 1",
    "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1",
    "r3k2r/pp1n1ppp/8/2pPp3/8/8/PPP2PPP/R3K2R w KQkq c6 0 1",
    "rkbqrnnb/pppppppp/8/8/8/8/PPPPPPPP/RKBQRNNB w KQkq - 0 1",
    "8/1P2k3/8/8/8/8/8/4K3 w - - 0 1",
]

CASTLING = ["-", "-", "KQkq", "K", "q", "Kk", "AHah", "Bb", "Qk"]


def random_fen(rng):
    """A random placement: kings 0 to 2 a side, pawns anywhere, up to 20
    other pieces; random rights and en passant square."""
    board = chess.Board.empty()
    squares = list(chess.SQUARES)
    rng.shuffle(squares)
    pieces = []
    for color in chess.COLORS:
        pieces += [chess.Piece(chess.KING, color)] * rng.choice([0, 1, 1, 1, 1, 1, 1, 2])
    for _ in range(rng.randrange(0, 20)):
        kind = rng.choice([chess.PAWN, chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
        pieces.append(chess.Piece(kind, rng.choice(chess.COLORS)))
    for piece, square in zip(pieces, squares):
        board.set_piece_at(square, piece, promoted=piece.piece_type not in (chess.PAWN, chess.KING) and rng.random() < 0.05)
    placement = board.board_fen(promoted=True)
    turn = rng.choice("wb")
    ep = "-"
    if rng.random() < 0.3:
        ep = chess.square_name(chess.square(rng.randrange(8), 5 if turn == "w" else 2))
    return f"{placement} {turn} {rng.choice(CASTLING)} {ep} 0 1"


def line(fen, chess960):
    board = chess.Board(fen, chess960=chess960)
    opt = lambda square: "-" if square is None else str(square)
    pins = [f"{square}:{int(color)}:{mask}"
            for color in chess.COLORS for square in chess.SQUARES
            if (mask := board.pin_mask(color, square)) != chess.BB_ALL]
    valid = board.is_valid()
    moves = sorted((m for m in board.legal_moves if valid or not board.is_castling(m)), key=lambda m: m.uci())
    after = "-"
    if moves:
        copy = board.copy(stack=False)
        copy.push(moves[0])
        after = copy.fen()
    fields = [
        fen, str(int(chess960)), board.fen(), str(int(board.status())),
        str(board.clean_castling_rights()), str(board.castling_rights), opt(board.ep_square),
        opt(board.king(chess.WHITE)), opt(board.king(chess.BLACK)),
        str(int(board.is_check())), str(int(board.is_checkmate())), str(int(board.is_stalemate())),
        ",".join(pins) or "-",
        ",".join(f"{m.uci()}:{board.san(m)}" for m in moves) or "-",
        after,
    ]
    return "\t".join(fields)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = random.Random(2026)
    fens = PICKED + [random_fen(rng) for _ in range(count)]
    with open(OUT, "w") as out:
        out.write(f"# python-chess {chess.__version__}: written by tests/python/any_setup_reference.py\n")
        for fen in fens:
            for chess960 in (False, True):
                out.write(line(fen, chess960) + "\n")
    print(f"{OUT}: {2 * len(fens)} setups")


if __name__ == "__main__":
    main()
