"""Random positions of Syzygy tables, as python-chess boards, for the
tests and the benchmark that probe `bitboards.syzygy` beside python-chess's
`chess.syzygy` (the oracle). Not a test (pytest collects test_*.py)."""

import chess


def crate_takes(board):
    """Whether the crate's rules take `board`, a valid python-chess board:
    they also refuse a double check without a bishop, rook or queen among
    the checkers, which no single move can give (python-chess holds it)."""
    checkers = board.checkers_mask()
    sliders = board.bishops | board.rooks | board.queens
    return chess.popcount(checkers) < 2 or bool(checkers & sliders)


def random_endgame(rng, material):
    """A board of `material` (a table's name, such as "KRvKP"; either side
    the stronger), pieces on random squares, a random side to move, valid
    for python-chess and for the crate."""
    strong, weak = material.split("v")
    if rng.random() < 0.5:
        strong, weak = weak, strong
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(strong) + len(weak))
        for color, side in ((chess.WHITE, strong), (chess.BLACK, weak)):
            for letter in side:
                board.set_piece_at(squares.pop(), chess.Piece.from_symbol(letter if color else letter.lower()))
        board.turn = rng.random() < 0.5
        if board.is_valid() and crate_takes(board):
            return board


def en_passant_endgame(rng):
    """A KPvKP board just after a double pawn push that can be taken en
    passant (the only such table of up to four pieces)."""
    while True:
        white = rng.random() < 0.5  # to move, and to take
        file = rng.randrange(8)
        beside = rng.choice([f for f in (file - 1, file + 1) if 0 <= f < 8])
        rank, step = (4, 1) if white else (3, -1)
        board = chess.Board(None)
        board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, not white))
        board.set_piece_at(chess.square(beside, rank), chess.Piece(chess.PAWN, white))
        free = [square for square in chess.SQUARES if board.piece_at(square) is None
                and square not in (chess.square(file, rank + step), chess.square(file, rank + 2 * step))]
        for color, square in zip((chess.WHITE, chess.BLACK), rng.sample(free, 2)):
            board.set_piece_at(square, chess.Piece(chess.KING, color))
        board.turn = white
        board.ep_square = chess.square(file, rank + step)
        if board.is_valid() and board.has_legal_en_passant() and crate_takes(board):
            return chess.Board(board.fen())
