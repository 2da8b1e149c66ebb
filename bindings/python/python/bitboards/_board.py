"""The parts of ``bitboards.Board`` written in Python: notations and EPD.

``Board``'s methods ``lan``, ``variation_san``, ``find_move``, ``xboard``,
``parse_xboard``, ``push_xboard``, ``unicode``, ``set_epd``, ``from_epd``,
``transform``, ``apply_transform`` and ``epd``'s operations are compiled shims that call the functions here
with the board: text handling that is not on any hot path. They mean what
python-chess's methods of the same names mean.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Tuple, Type, Union

from ._bitboards import IllegalMoveError, Move

if TYPE_CHECKING:
    from ._bitboards import Board

EpdOperand = Union[None, str, int, float, Move, List[Move]]

_FILES = "abcdefgh"
_SQUARE_NAMES = [f + r for r in "12345678" for f in _FILES]
_PIECE_LETTERS = [None, "", "N", "B", "R", "Q", "K"]
_PROMOTION_LETTERS = {2: "N", 3: "B", 4: "R", 5: "Q"}
_UNICODE = {
    "P": "♙", "N": "♘", "B": "♗", "R": "♖", "Q": "♕", "K": "♔",
    "p": "♟", "n": "♞", "b": "♝", "r": "♜", "q": "♛", "k": "♚",
}
_INVERTED = {"P": "p", "N": "n", "B": "b", "R": "r", "Q": "q", "K": "k",
             "p": "P", "n": "N", "b": "B", "r": "R", "q": "Q", "k": "K"}


def _legal(board: "Board", move: Move) -> None:
    if not board.is_legal(move):
        raise IllegalMoveError(f"illegal move {move} in position {board.fen()}")


def lan(board: "Board", move: Move) -> str:
    """The move in long algebraic notation: the piece, its square, ``-`` or
    ``x``, the target (``Ng1-f3``, ``e4xd5``, ``e7-e8=Q+``), castling as
    ``O-O``; ``--`` for the null move."""
    if not move:
        return "--"
    san = board.san(move)
    suffix = san[-1] if san[-1] in "+#" else ""
    if board.is_castling(move):
        return san
    piece = board.piece_type_at(move.from_square)
    letter = _PIECE_LETTERS[piece] if piece is not None else ""
    capture = "x" if board.is_capture(move) else "-"
    text = f"{letter}{_SQUARE_NAMES[move.from_square]}{capture}{_SQUARE_NAMES[move.to_square]}"
    if move.promotion:
        text += "=" + _PROMOTION_LETTERS[move.promotion]
    return text + suffix


def variation_san(board: "Board", variation: Iterable[Move]) -> str:
    """The moves in SAN with their numbers (``1. e4 e5 2. Nf3``,
    ``37...Bg6 38. fxg6``); the board is left as it was.
    ``IllegalMoveError`` names the first illegal move."""
    line = board.copy(stack=False)
    words: List[str] = []
    for move in variation:
        _legal(line, move)
        san = line.san(move)
        if line.turn:
            words.append(f"{line.fullmove_number}. {san}")
        elif not words:
            words.append(f"{line.fullmove_number}...{san}")
        else:
            words.append(san)
        line.push(move)
    return " ".join(words)


def find_move(board: "Board", from_square: int, to_square: int, promotion: Optional[int] = None) -> Move:
    """The legal move from ``from_square`` to ``to_square``: a pawn reaching
    the last rank becomes a queen unless ``promotion`` says otherwise, and
    castling may be given as the king's two-square move or onto its rook.
    ``IllegalMoveError`` when there is none."""
    backranks = (1 << to_square) & 0xFF000000000000FF
    if promotion is None and board.pawns & (1 << from_square) and backranks:
        promotion = 5
    move = Move(from_square, to_square, promotion)
    if board.is_legal(move):
        # As the board writes it (castling onto the rook becomes the king's
        # move on a standard board).
        kingside = to_square > from_square
        for legal in board.generate_legal_moves(1 << from_square):
            if legal == move:
                return legal
            if board.is_castling(legal) and (legal.to_square > legal.from_square) == kingside:
                return legal
        return move
    raise IllegalMoveError(
        f"no matching legal move for {move.uci()} "
        f"({_SQUARE_NAMES[from_square]} -> {_SQUARE_NAMES[to_square]}) in {board.fen()}"
    )


def xboard(board: "Board", move: Move, chess960: Optional[bool] = None) -> str:
    """The move as XBoard writes it: UCI (``@@@@`` for the null move); on a
    Chess960 board castling is ``O-O`` or ``O-O-O``."""
    if chess960 is None:
        chess960 = board.chess960
    if not chess960 or not board.is_castling(move):
        return move.xboard()
    return "O-O" if move.to_square > move.from_square else "O-O-O"


def parse_xboard(board: "Board", text: str) -> Move:
    """A move as XBoard writes it: SAN (castling ``O-O``), or UCI;
    ``@@@@`` and ``--`` are the null move."""
    if text in ("@@@@", "--", "0000"):
        return Move.null()
    try:
        return board.parse_san(text)
    except ValueError:
        return board.parse_uci(text)


def push_xboard(board: "Board", text: str) -> Move:
    """Plays a move as XBoard writes it and returns it."""
    move = parse_xboard(board, text)
    board.push(move)
    return move


def unicode(board: "Board", invert_color: bool = False, borders: bool = False, empty_square: str = "⭘",
            orientation: bool = True) -> str:
    """The board in Unicode figures, rank 8 first (``orientation=False``:
    from Black's side), with a frame and coordinates when ``borders``."""
    lines: List[str] = []
    rule = "  " + "-" * 17
    ranks = range(7, -1, -1) if orientation else range(8)
    files = list(range(8)) if orientation else list(range(7, -1, -1))
    for rank in ranks:
        cells: List[str] = []
        for file in files:
            piece = board.piece_at(rank * 8 + file)
            if piece is None:
                cells.append(empty_square)
            else:
                symbol = piece.symbol()
                cells.append(_UNICODE[_INVERTED[symbol] if invert_color else symbol])
        if borders:
            lines.append(rule)
            lines.append(f"{rank + 1} |" + "|".join(cells) + "|")
        else:
            lines.append(" ".join(cells))
    if borders:
        lines.append(rule)
        letters = "a b c d e f g h" if orientation else "h g f e d c b a"
        lines.append("   " + letters)
    return "\n".join(lines)


def _escape(text: str) -> str:
    return (text.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "\\r")
            .replace("\n", "\\n").replace('"', '\\"'))


def _check_opcode(opcode: str) -> None:
    if not opcode:
        raise ValueError("empty string is not a valid epd opcode")
    if opcode == "-":
        raise ValueError("dash (-) is not a valid epd opcode")
    if not opcode[0].isalpha():
        raise ValueError(f"expected epd opcode to start with a letter, got: {opcode!r}")
    for space in (" ", "\n", "\t", "\r"):
        if space in opcode:
            raise ValueError(f"invalid character {space!r} in epd opcode: {opcode!r}")


def epd_operations(board: "Board", operations: Mapping[str, Any]) -> str:
    """EPD operations as text, ``opcode operand;`` each: moves in SAN (a
    ``pv`` played out, ``am``/``bm`` sorted), numbers as Python writes
    them, anything else as a quoted, escaped string."""
    words: List[str] = []
    for opcode, operand in operations.items():
        _check_opcode(opcode)
        if operand is None:
            words.append(f"{opcode};")
        elif isinstance(operand, Move):
            words.append(f"{opcode} {board.san(operand)};")
        elif isinstance(operand, bool) or isinstance(operand, int):
            words.append(f"{opcode} {int(operand)};")
        elif isinstance(operand, float):
            if not math.isfinite(operand):
                raise ValueError(f"expected numeric epd operand to be finite, got: {operand}")
            words.append(f"{opcode} {operand};")
        elif opcode == "pv" and not isinstance(operand, str) and hasattr(operand, "__iter__"):
            line = board.copy(stack=False)
            sans = []
            for move in operand:
                sans.append(line.san(move))
                line.push(move)
            words.append(" ".join([opcode] + sans) + ";")
        elif opcode in ("am", "bm") and not isinstance(operand, str) and hasattr(operand, "__iter__"):
            sans = sorted(board.san(move) for move in operand)
            words.append(" ".join([opcode] + sans) + ";")
        else:
            words.append(f'{opcode} "{_escape(str(operand))}";')
    return " ".join(words)


def _moves(board: "Board", opcode: str, text: str) -> EpdOperand:
    """A move operand: a variation for ``pv``, a list for ``am``/``bm``, else
    one move; read as XBoard reads moves (SAN or UCI)."""
    if opcode == "pv":
        line = board.copy(stack=False)
        variation = []
        for token in text.split():
            move = parse_xboard(line, token)
            variation.append(move)
            line.push(move)
        return variation
    if opcode in ("am", "bm"):
        return [parse_xboard(board, token) for token in text.split()]
    return parse_xboard(board, text)


def _number(opcode: str, text: str) -> Union[int, float]:
    if "." in text or "e" in text or "E" in text:
        value = float(text)
        if not math.isfinite(value):
            raise ValueError(f"invalid numeric operand for epd operation {opcode!r}: {text!r}")
        return value
    return int(text)


def parse_operations(board: "Board", text: str) -> Dict[str, EpdOperand]:
    """The operations of an EPD line after its four fields, moves read on
    ``board``."""
    operations: Dict[str, EpdOperand] = {}
    at, end = 0, len(text)
    empty_lists = ("pv", "am", "bm")
    while at < end:
        while at < end and text[at] in " \t\r\n;":
            at += 1
        start = at
        while at < end and text[at] not in " \t\r\n;":
            at += 1
        opcode = text[start:at]
        if not opcode:
            continue
        if opcode == "-":
            continue
        _check_opcode(opcode)
        while at < end and text[at] in " \t\r\n":
            at += 1
        if at >= end or text[at] == ";":
            operations[opcode] = [] if opcode in empty_lists else None
            at += 1
            continue
        if text[at] == '"':
            at += 1
            value: List[str] = []
            while at < end and text[at] != '"':
                if text[at] == "\\" and at + 1 < end:
                    at += 1
                    value.append({"r": "\r", "n": "\n", "t": "\t"}.get(text[at], text[at]))
                else:
                    value.append(text[at])
                at += 1
            operations[opcode] = "".join(value)
            at += 1
            # Anything up to the semicolon after a string is ignored.
            while at < end and text[at] != ";":
                at += 1
            at += 1
            continue
        start = at
        while at < end and text[at] != ";":
            at += 1
        operand = text[start:at].strip()
        at += 1
        if operand[0] in "+-.0123456789":
            operations[opcode] = _number(opcode, operand)
        else:
            operations[opcode] = _moves(board, opcode, operand)
    return operations


def set_epd(board: "Board", epd: str) -> Dict[str, EpdOperand]:
    """Sets ``board`` from an EPD line and returns its operations; ``hmvc``
    and ``fmvn`` give the clocks (0 and 1 otherwise)."""
    parts = epd.strip().rstrip(";").split(None, 4)
    if len(parts) <= 4:
        board.set_fen(epd)
        return {}
    operation_text = parts.pop()
    position = " ".join(parts)
    probe = type(board)(position + " 0 1", chess960=board.chess960)
    operations = parse_operations(probe, operation_text)
    halfmove = operations.get("hmvc", 0)
    fullmove = operations.get("fmvn", 1)
    board.set_fen(f"{position} {halfmove} {fullmove}")
    return operations


def from_epd(cls: Type["Board"], epd: str, chess960: bool = False) -> Tuple["Board", Dict[str, EpdOperand]]:
    """A board from an EPD line, and its operations."""
    board = cls(chess960=chess960)
    operations = set_epd(board, epd)
    return board, operations


def apply_transform(board: "Board", f: Any) -> None:
    """Applies ``f`` (a map of bitboards, such as ``flip_vertical``) to the
    board's pieces, promoted pieces, castling rights and en passant square;
    the move stack is cleared."""
    from . import Piece

    pieces = {}
    for piece_type in range(1, 7):
        for color in (True, False):
            mask = int(f(board.pieces_mask(piece_type, color)))
            while mask:
                square = (mask & -mask).bit_length() - 1
                pieces[square] = Piece(piece_type, color)
                mask &= mask - 1
    promoted = int(f(board.promoted))
    castling = int(f(board.castling_rights))
    ep = board.ep_square
    ep_mask = 0 if ep is None else int(f(1 << ep))
    board.set_piece_map(pieces)
    mask = promoted
    while mask:
        square = (mask & -mask).bit_length() - 1
        board.set_piece_at(square, board.piece_at(square), promoted=True)
        mask &= mask - 1
    board.castling_rights = castling
    board.ep_square = ep_mask.bit_length() - 1 if ep_mask else None


def transform(board: "Board", f: Any) -> "Board":
    """A copy of the board (without its moves) with ``f`` applied, as
    ``apply_transform`` applies it."""
    copy = board.copy(stack=False)
    apply_transform(copy, f)
    return copy
