"""What both recounts (recount.py, recount_masters.py) compare positions and
write moves by: the explorer's rules, with python-chess."""

import chess


def key_of(board):
    """A position as the explorer tells positions apart: en passant only
    when a capture there is legal."""
    ep = board.ep_square if board.has_legal_en_passant() else None
    return (board.board_fen(), board.turn, board.castling_rights, ep)


def explorer_uci(board, move):
    """UCI as the explorer writes it: castling as the king taking its rook."""
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        file = 7 if chess.square_file(move.to_square) > chess.square_file(move.from_square) else 0
        return chess.square_name(move.from_square) + chess.square_name(chess.square(file, rank))
    return move.uci()
