"""Chess bitboards from Rust, with python-chess's everyday names.

>>> import bitboards
>>> board = bitboards.Board()
>>> board.push_san("e4")
Move.from_uci('e2e4')
>>> len(board.legal_moves)
20
>>> board.pieces(bitboards.PAWN, bitboards.WHITE).mask == 0x1000EF00
True

Switching from python-chess is meant to be a change of import: ``Board``,
``Move``, ``Piece``, the square and piece constants and the exceptions have
python-chess's names and values. ``bitboards.pgn`` reads PGN databases
(compressed, on every core) into games, Arrow tables and Parquet.
"""

import abc
import enum
import re
from typing import (
    TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, SupportsInt, Tuple,
    TypeVar, Union,
)

from . import _bitboards
from ._bitboards import (
    AmbiguousMoveError,
    Bitboard,
    Board,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    LegalMoveGenerator,
    Move,
    NotPgnError,
    Outcome,
    Piece,
    PseudoLegalMoveGenerator,
    Termination,
)

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

__all__ = [
    "AmbiguousMoveError", "BaseBoard", "Bitboard", "Board", "IllegalMoveError", "InvalidFenError",
    "InvalidMoveError", "LegalMoveGenerator", "Move", "NotPgnError", "Outcome", "Piece",
    "PseudoLegalMoveGenerator",
    "SquareSet", "Termination", "planes",
    "WHITE", "BLACK", "COLORS", "COLOR_NAMES",
    "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING", "PIECE_TYPES", "PIECE_SYMBOLS",
    "PIECE_NAMES", "FILE_NAMES", "RANK_NAMES", "SQUARES", "SQUARE_NAMES",
    "STARTING_FEN", "STARTING_BOARD_FEN",
    "square", "square_file", "square_rank", "square_name", "parse_square",
    "A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1",
    "A2", "B2", "C2", "D2", "E2", "F2", "G2", "H2",
    "A3", "B3", "C3", "D3", "E3", "F3", "G3", "H3",
    "A4", "B4", "C4", "D4", "E4", "F4", "G4", "H4",
    "A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5",
    "A6", "B6", "C6", "D6", "E6", "F6", "G6", "H6",
    "A7", "B7", "C7", "D7", "E7", "F7", "G7", "H7",
    "A8", "B8", "C8", "D8", "E8", "F8", "G8", "H8",
    "Color", "PieceType", "Square", "IntoSquareSet", "UNICODE_PIECE_SYMBOLS", "SAN_REGEX",
    "FEN_CASTLING_REGEX", "piece_symbol", "piece_name", "square_distance",
    "square_manhattan_distance", "square_knight_distance", "square_mirror", "SQUARES_180",
    "lsb", "msb", "scan_forward", "scan_reversed", "popcount", "flip_vertical",
    "flip_horizontal", "flip_diagonal", "flip_anti_diagonal", "shift_down", "shift_2_down",
    "shift_up", "shift_2_up", "shift_right", "shift_2_right", "shift_left", "shift_2_left",
    "shift_up_left", "shift_up_right", "shift_down_left", "shift_down_right",
    "BB_KNIGHT_ATTACKS", "BB_KING_ATTACKS", "BB_PAWN_ATTACKS", "BB_RAYS", "ray", "between",
    "BB_DIAG_MASKS", "BB_DIAG_ATTACKS", "BB_FILE_MASKS", "BB_FILE_ATTACKS", "BB_RANK_MASKS", "BB_RANK_ATTACKS",
    "Status", "STATUS_VALID", "STATUS_NO_WHITE_KING", "STATUS_NO_BLACK_KING",
    "STATUS_TOO_MANY_KINGS", "STATUS_TOO_MANY_WHITE_PAWNS", "STATUS_TOO_MANY_BLACK_PAWNS", "STATUS_PAWNS_ON_BACKRANK",
    "STATUS_TOO_MANY_WHITE_PIECES", "STATUS_TOO_MANY_BLACK_PIECES", "STATUS_BAD_CASTLING_RIGHTS", "STATUS_INVALID_EP_SQUARE",
    "STATUS_OPPOSITE_CHECK", "STATUS_EMPTY", "STATUS_RACE_CHECK", "STATUS_RACE_OVER",
    "STATUS_RACE_MATERIAL", "STATUS_TOO_MANY_CHECKERS", "STATUS_IMPOSSIBLE_CHECK",
    "BB_EMPTY", "BB_ALL", "BB_SQUARES", "BB_FILES", "BB_RANKS", "BB_CORNERS", "BB_CENTER",
    "BB_LIGHT_SQUARES", "BB_DARK_SQUARES", "BB_BACKRANKS",
    "BB_FILE_A", "BB_FILE_B", "BB_FILE_C", "BB_FILE_D", "BB_FILE_E", "BB_FILE_F", "BB_FILE_G", "BB_FILE_H",
    "BB_RANK_1", "BB_RANK_2", "BB_RANK_3", "BB_RANK_4", "BB_RANK_5", "BB_RANK_6", "BB_RANK_7", "BB_RANK_8",
    "BB_A1", "BB_B1", "BB_C1", "BB_D1", "BB_E1", "BB_F1", "BB_G1", "BB_H1",
    "BB_A2", "BB_B2", "BB_C2", "BB_D2", "BB_E2", "BB_F2", "BB_G2", "BB_H2",
    "BB_A3", "BB_B3", "BB_C3", "BB_D3", "BB_E3", "BB_F3", "BB_G3", "BB_H3",
    "BB_A4", "BB_B4", "BB_C4", "BB_D4", "BB_E4", "BB_F4", "BB_G4", "BB_H4",
    "BB_A5", "BB_B5", "BB_C5", "BB_D5", "BB_E5", "BB_F5", "BB_G5", "BB_H5",
    "BB_A6", "BB_B6", "BB_C6", "BB_D6", "BB_E6", "BB_F6", "BB_G6", "BB_H6",
    "BB_A7", "BB_B7", "BB_C7", "BB_D7", "BB_E7", "BB_F7", "BB_G7", "BB_H7",
    "BB_A8", "BB_B8", "BB_C8", "BB_D8", "BB_E8", "BB_F8", "BB_G8", "BB_H8",
]

WHITE = True
BLACK = False
COLORS = [WHITE, BLACK]
COLOR_NAMES = ["black", "white"]

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
PIECE_TYPES = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING]
PIECE_SYMBOLS = [None, "p", "n", "b", "r", "q", "k"]
PIECE_NAMES = [None, "pawn", "knight", "bishop", "rook", "queen", "king"]

FILE_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h"]
RANK_NAMES = ["1", "2", "3", "4", "5", "6", "7", "8"]
SQUARES = list(range(64))
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]
# The squares' constants, A1 = 0 to H8 = 63 (named in __all__ too).
(
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
) = SQUARES

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
STARTING_BOARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def square(file_index: int, rank_index: int) -> int:
    """The square on file ``file_index`` and rank ``rank_index`` (both from 0)."""
    return rank_index * 8 + file_index


def square_file(square: int) -> int:
    """The file of ``square``, from 0 (file a)."""
    return square & 7


def square_rank(square: int) -> int:
    """The rank of ``square``, from 0 (rank 1)."""
    return square >> 3


def square_name(square: int) -> str:
    """The name of ``square``: ``square_name(E4) == "e4"``."""
    return SQUARE_NAMES[square]


def parse_square(name: str) -> int:
    """The square named ``name``: ``parse_square("e4") == E4``.

    Raises ``ValueError`` for a name that is not a square.
    """
    try:
        return SQUARE_NAMES.index(name)
    except ValueError:
        raise ValueError(f"not a square name: {name!r} (a1 to h8)") from None


# ---- python-chess's module-level names: types, pieces, bitboards ----

#: python-chess's type aliases: a colour is a bool, a piece type and a square an int.
Color = bool
PieceType = int
Square = int

#: The pieces' symbols as Unicode chess figures, by ASCII symbol.
UNICODE_PIECE_SYMBOLS: Dict[str, str] = {
    "K": "\u2654", "Q": "\u2655", "R": "\u2656", "B": "\u2657", "N": "\u2658", "P": "\u2659",
    "k": "\u265a", "q": "\u265b", "r": "\u265c", "b": "\u265d", "n": "\u265e", "p": "\u265f",
}

#: A move in Standard Algebraic Notation: groups piece, from-file,
#: from-rank, to-square, promotion.
SAN_REGEX = re.compile(r"^([NBKRQ])?([a-h])?([1-8])?[\-x]?([a-h][1-8])(=?[nbrqkNBRQK])?[\+#]?\Z")

#: A FEN's castling field: ``-``, or up to two of White's rights then up to
#: two of Black's (``KQkq``, or Shredder-FEN files).
FEN_CASTLING_REGEX = re.compile(r"^(?:-|[KQABCDEFGH]{0,2}[kqabcdefgh]{0,2})\Z")


def piece_symbol(piece_type: int) -> str:
    """The lowercase letter of a piece type: ``piece_symbol(KNIGHT) == "n"``."""
    symbol = PIECE_SYMBOLS[piece_type]
    if symbol is None:
        raise IndexError(f"no piece type {piece_type}")
    return symbol


def piece_name(piece_type: int) -> str:
    """The name of a piece type: ``piece_name(KNIGHT) == "knight"``."""
    name = PIECE_NAMES[piece_type]
    if name is None:
        raise IndexError(f"no piece type {piece_type}")
    return name


def square_distance(a: int, b: int) -> int:
    """The king's distance between two squares (moves of a king)."""
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


def square_manhattan_distance(a: int, b: int) -> int:
    """Files plus ranks between two squares."""
    return abs((a & 7) - (b & 7)) + abs((a >> 3) - (b >> 3))


_KNIGHT_DISTANCES: Dict[int, List[int]] = {}


def _knight_distances(origin: int) -> List[int]:
    # Breadth-first over the knight's moves from `origin`, once per origin.
    known = _KNIGHT_DISTANCES.get(origin)
    if known is not None:
        return known
    distances = [-1] * 64
    distances[origin] = 0
    frontier = [origin]
    while frontier:
        following = []
        for square in frontier:
            for target in scan_forward(BB_KNIGHT_ATTACKS[square]):
                if distances[target] < 0:
                    distances[target] = distances[square] + 1
                    following.append(target)
        frontier = following
    _KNIGHT_DISTANCES[origin] = distances
    return distances


def square_knight_distance(a: int, b: int) -> int:
    """The fewest knight moves from one square to another."""
    return _knight_distances(a)[b]


def square_mirror(square: int) -> int:
    """The square on the same file, the rank mirrored (a1 <-> a8)."""
    return square ^ 0x38


#: The squares, each mirrored (``SQUARES_180[A1] == A8``).
SQUARES_180 = [square_mirror(sq) for sq in SQUARES]

#: Bitboards (int masks, a1 = bit 0).
BB_EMPTY = 0
BB_ALL = 0xFFFF_FFFF_FFFF_FFFF
BB_SQUARES = [1 << sq for sq in SQUARES]
(
    BB_A1, BB_B1, BB_C1, BB_D1, BB_E1, BB_F1, BB_G1, BB_H1,
    BB_A2, BB_B2, BB_C2, BB_D2, BB_E2, BB_F2, BB_G2, BB_H2,
    BB_A3, BB_B3, BB_C3, BB_D3, BB_E3, BB_F3, BB_G3, BB_H3,
    BB_A4, BB_B4, BB_C4, BB_D4, BB_E4, BB_F4, BB_G4, BB_H4,
    BB_A5, BB_B5, BB_C5, BB_D5, BB_E5, BB_F5, BB_G5, BB_H5,
    BB_A6, BB_B6, BB_C6, BB_D6, BB_E6, BB_F6, BB_G6, BB_H6,
    BB_A7, BB_B7, BB_C7, BB_D7, BB_E7, BB_F7, BB_G7, BB_H7,
    BB_A8, BB_B8, BB_C8, BB_D8, BB_E8, BB_F8, BB_G8, BB_H8,
) = BB_SQUARES
BB_FILES = [0x0101_0101_0101_0101 << file for file in range(8)]
BB_FILE_A, BB_FILE_B, BB_FILE_C, BB_FILE_D, BB_FILE_E, BB_FILE_F, BB_FILE_G, BB_FILE_H = BB_FILES
BB_RANKS = [0xFF << (8 * rank) for rank in range(8)]
BB_RANK_1, BB_RANK_2, BB_RANK_3, BB_RANK_4, BB_RANK_5, BB_RANK_6, BB_RANK_7, BB_RANK_8 = BB_RANKS
BB_CORNERS = BB_A1 | BB_H1 | BB_A8 | BB_H8
BB_CENTER = BB_D4 | BB_E4 | BB_D5 | BB_E5
BB_LIGHT_SQUARES = 0x55AA_55AA_55AA_55AA
BB_DARK_SQUARES = 0xAA55_AA55_AA55_AA55
BB_BACKRANKS = BB_RANK_1 | BB_RANK_8


def lsb(bb: int) -> int:
    """The lowest square of a non-empty bitboard."""
    return (bb & -bb).bit_length() - 1


def msb(bb: int) -> int:
    """The highest square of a non-empty bitboard."""
    return bb.bit_length() - 1


def scan_forward(bb: int) -> Iterator[int]:
    """The squares of a bitboard, ascending."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def scan_reversed(bb: int) -> Iterator[int]:
    """The squares of a bitboard, descending."""
    while bb:
        square = bb.bit_length() - 1
        yield square
        bb ^= 1 << square


def popcount(bb: int) -> int:
    """How many squares a bitboard holds."""
    return bin(bb).count("1")


_B = TypeVar("_B", bound=SupportsInt)


def _like(bb: Any, mask: int) -> Any:
    # An int for an int; otherwise the argument's own type (SquareSet, Bitboard).
    return mask if isinstance(bb, int) else type(bb)(mask)


_FLIPPED_BYTES = bytes(int(f"{byte:08b}"[::-1], 2) for byte in range(256))


def _transpose_table(target: Callable[[int, int], int]) -> List[List[int]]:
    # For each rank and each byte of that rank, the mask its squares move to.
    table = []
    for rank in range(8):
        row = []
        for byte in range(256):
            mask = 0
            for file in range(8):
                if byte >> file & 1:
                    mask |= 1 << target(file, rank)
            row.append(mask)
        table.append(row)
    return table


_DIAGONAL = _transpose_table(lambda file, rank: file * 8 + rank)
_ANTI_DIAGONAL = _transpose_table(lambda file, rank: (7 - file) * 8 + (7 - rank))


def flip_vertical(bb: _B) -> _B:
    """The bitboard mirrored rank by rank (a1 <-> a8). Takes an int or a
    set of squares and returns the same kind."""
    mask = int(bb) & BB_ALL
    return _like(bb, int.from_bytes(mask.to_bytes(8, "little"), "big"))  # type: ignore[no-any-return]


def flip_horizontal(bb: _B) -> _B:
    """The bitboard mirrored file by file (a1 <-> h1)."""
    mask = int(bb) & BB_ALL
    return _like(bb, int.from_bytes(mask.to_bytes(8, "little").translate(_FLIPPED_BYTES), "little"))  # type: ignore[no-any-return]


def _transpose(bb: Any, table: List[List[int]]) -> Any:
    mask = 0
    for rank, byte in enumerate((int(bb) & BB_ALL).to_bytes(8, "little")):
        if byte:
            mask |= table[rank][byte]
    return _like(bb, mask)


def flip_diagonal(bb: _B) -> _B:
    """The bitboard mirrored about the a1-h8 diagonal (b1 <-> a2)."""
    return _transpose(bb, _DIAGONAL)  # type: ignore[no-any-return]


def flip_anti_diagonal(bb: _B) -> _B:
    """The bitboard mirrored about the h1-a8 diagonal (a1 <-> h8)."""
    return _transpose(bb, _ANTI_DIAGONAL)  # type: ignore[no-any-return]


def shift_down(b: int) -> int:
    """Every square one rank down (towards rank 1); off the board is dropped."""
    return b >> 8


def shift_2_down(b: int) -> int:
    return b >> 16


def shift_up(b: int) -> int:
    """Every square one rank up (towards rank 8)."""
    return (b << 8) & BB_ALL


def shift_2_up(b: int) -> int:
    return (b << 16) & BB_ALL


def shift_right(b: int) -> int:
    """Every square one file right (towards file h)."""
    return (b << 1) & ~BB_FILE_A & BB_ALL


def shift_2_right(b: int) -> int:
    return (b << 2) & ~(BB_FILE_A | BB_FILE_B) & BB_ALL


def shift_left(b: int) -> int:
    """Every square one file left (towards file a)."""
    return (b >> 1) & ~BB_FILE_H


def shift_2_left(b: int) -> int:
    return (b >> 2) & ~(BB_FILE_G | BB_FILE_H)


def shift_up_left(b: int) -> int:
    return (b << 7) & ~BB_FILE_H & BB_ALL


def shift_up_right(b: int) -> int:
    return (b << 9) & ~BB_FILE_A & BB_ALL


def shift_down_left(b: int) -> int:
    return (b >> 9) & ~BB_FILE_H


def shift_down_right(b: int) -> int:
    return (b >> 7) & ~BB_FILE_A


# The attack tables, from the crate's generated ones (`attack_tables`):
# none is worked out again here.
_TABLES = _bitboards.attack_tables()

#: The squares a knight (king) on each square attacks.
BB_KNIGHT_ATTACKS: List[int] = _TABLES["knight"]
BB_KING_ATTACKS: List[int] = _TABLES["king"]
#: The squares a pawn of each colour attacks from each square: ``BB_PAWN_ATTACKS[color][square]``.
BB_PAWN_ATTACKS: List[List[int]] = _TABLES["pawn"]
#: ``BB_RAYS[a][b]``: the whole line through two squares (``ray(a, b)``).
BB_RAYS: List[List[int]] = _TABLES["rays"]
_BETWEEN: List[List[int]] = _TABLES["between"]
#: The sliders' tables as python-chess has them: for each square, the
#: squares whose occupancy matters along the diagonals (file, rank), and a
#: dict from each occupancy of them to the squares attacked:
#: ``BB_DIAG_ATTACKS[square][occupied & BB_DIAG_MASKS[square]]``.
BB_DIAG_MASKS, BB_DIAG_ATTACKS = _TABLES["diag"]
BB_FILE_MASKS, BB_FILE_ATTACKS = _TABLES["file"]
BB_RANK_MASKS, BB_RANK_ATTACKS = _TABLES["rank"]
del _TABLES


def ray(a: int, b: int) -> int:
    """The whole line (rank, file or diagonal) through two squares, edge to
    edge; empty if they share none."""
    return BB_RAYS[a][b]


def between(a: int, b: int) -> int:
    """The squares strictly between two squares on a line; empty if none."""
    return _BETWEEN[a][b]


class Status(enum.IntFlag):
    """What is wrong with a setup (python-chess's flags and values):
    ``Status.VALID`` (0) when nothing is."""

    VALID = 0
    NO_WHITE_KING = 1 << 0
    NO_BLACK_KING = 1 << 1
    TOO_MANY_KINGS = 1 << 2
    TOO_MANY_WHITE_PAWNS = 1 << 3
    TOO_MANY_BLACK_PAWNS = 1 << 4
    PAWNS_ON_BACKRANK = 1 << 5
    TOO_MANY_WHITE_PIECES = 1 << 6
    TOO_MANY_BLACK_PIECES = 1 << 7
    BAD_CASTLING_RIGHTS = 1 << 8
    INVALID_EP_SQUARE = 1 << 9
    OPPOSITE_CHECK = 1 << 10
    EMPTY = 1 << 11
    RACE_CHECK = 1 << 12
    RACE_OVER = 1 << 13
    RACE_MATERIAL = 1 << 14
    TOO_MANY_CHECKERS = 1 << 15
    IMPOSSIBLE_CHECK = 1 << 16


STATUS_VALID = Status.VALID
STATUS_NO_WHITE_KING = Status.NO_WHITE_KING
STATUS_NO_BLACK_KING = Status.NO_BLACK_KING
STATUS_TOO_MANY_KINGS = Status.TOO_MANY_KINGS
STATUS_TOO_MANY_WHITE_PAWNS = Status.TOO_MANY_WHITE_PAWNS
STATUS_TOO_MANY_BLACK_PAWNS = Status.TOO_MANY_BLACK_PAWNS
STATUS_PAWNS_ON_BACKRANK = Status.PAWNS_ON_BACKRANK
STATUS_TOO_MANY_WHITE_PIECES = Status.TOO_MANY_WHITE_PIECES
STATUS_TOO_MANY_BLACK_PIECES = Status.TOO_MANY_BLACK_PIECES
STATUS_BAD_CASTLING_RIGHTS = Status.BAD_CASTLING_RIGHTS
STATUS_INVALID_EP_SQUARE = Status.INVALID_EP_SQUARE
STATUS_OPPOSITE_CHECK = Status.OPPOSITE_CHECK
STATUS_EMPTY = Status.EMPTY
STATUS_RACE_CHECK = Status.RACE_CHECK
STATUS_RACE_OVER = Status.RACE_OVER
STATUS_RACE_MATERIAL = Status.RACE_MATERIAL
STATUS_TOO_MANY_CHECKERS = Status.TOO_MANY_CHECKERS
STATUS_IMPOSSIBLE_CHECK = Status.IMPOSSIBLE_CHECK


IntoSquareSet = Union[SupportsInt, Iterable[int]]


class SquareSet:
    """A mutable set of squares over a 64-bit mask (a1 = bit 0): python-chess's
    ``SquareSet``. Built from an int mask (``SquareSet(BB_RANK_1)``), anything
    with ``__int__`` (a ``Bitboard``, another SquareSet) or an iterable of
    squares; equal to any of those with the same squares.

    ``Bitboard`` is the immutable set ``Board``'s methods return; the two
    compare equal and convert each into the other (``SquareSet(bitboard)``,
    ``Bitboard(square_set)``).

    >>> import bitboards
    >>> squares = bitboards.SquareSet(bitboards.BB_RANK_1) & bitboards.BB_FILE_E
    >>> squares
    SquareSet(0x0000_0000_0000_0010)
    >>> list(squares), squares == bitboards.BB_E1
    ([4], True)
    >>> squares.add(bitboards.E2); len(squares)
    2
    """

    __slots__ = ("mask",)

    def __init__(self, squares: IntoSquareSet = BB_EMPTY) -> None:
        try:
            self.mask: int = squares.__int__() & BB_ALL  # type: ignore[union-attr]
        except AttributeError:
            mask = 0
            for square in squares:  # type: ignore[union-attr]
                mask |= BB_SQUARES[square]
            self.mask = mask

    # Set

    def __contains__(self, square: object) -> bool:
        return isinstance(square, int) and 0 <= square < 64 and bool(self.mask >> square & 1)

    def __iter__(self) -> Iterator[int]:
        return scan_forward(self.mask)

    def __reversed__(self) -> Iterator[int]:
        return scan_reversed(self.mask)

    def __len__(self) -> int:
        return popcount(self.mask)

    # set's

    def add(self, square: int) -> None:
        """Adds a square."""
        self.mask |= BB_SQUARES[square]

    def discard(self, square: int) -> None:
        """Removes a square if it is there."""
        self.mask &= ~BB_SQUARES[square]

    # frozenset's methods

    def isdisjoint(self, other: IntoSquareSet) -> bool:
        """Whether no square is in both."""
        return not bool(self & other)

    def issubset(self, other: IntoSquareSet) -> bool:
        """Whether every square is in ``other``."""
        return not bool(self & ~SquareSet(other))

    def issuperset(self, other: IntoSquareSet) -> bool:
        """Whether every square of ``other`` is here."""
        return not bool(~self & other)

    def union(self, other: IntoSquareSet) -> "SquareSet":
        return self | other

    def __or__(self, other: IntoSquareSet) -> "SquareSet":
        result = SquareSet(other)
        result.mask |= self.mask
        return result

    def intersection(self, other: IntoSquareSet) -> "SquareSet":
        return self & other

    def __and__(self, other: IntoSquareSet) -> "SquareSet":
        result = SquareSet(other)
        result.mask &= self.mask
        return result

    def difference(self, other: IntoSquareSet) -> "SquareSet":
        return self - other

    def __sub__(self, other: IntoSquareSet) -> "SquareSet":
        return SquareSet(self.mask & ~SquareSet(other).mask)

    def symmetric_difference(self, other: IntoSquareSet) -> "SquareSet":
        return self ^ other

    def __xor__(self, other: IntoSquareSet) -> "SquareSet":
        result = SquareSet(other)
        result.mask ^= self.mask
        return result

    def copy(self) -> "SquareSet":
        return SquareSet(self.mask)

    # set's methods

    def update(self, *others: IntoSquareSet) -> None:
        """Adds the squares of each of ``others``."""
        for other in others:
            self.mask |= SquareSet(other).mask

    def __ior__(self, other: IntoSquareSet) -> "SquareSet":
        self.mask |= SquareSet(other).mask
        return self

    def intersection_update(self, *others: IntoSquareSet) -> None:
        """Keeps the squares that are in each of ``others``."""
        for other in others:
            self.mask &= SquareSet(other).mask

    def __iand__(self, other: IntoSquareSet) -> "SquareSet":
        self.mask &= SquareSet(other).mask
        return self

    def difference_update(self, other: IntoSquareSet) -> None:
        """Removes the squares of ``other``."""
        self.mask &= ~SquareSet(other).mask

    def __isub__(self, other: IntoSquareSet) -> "SquareSet":
        self.mask &= ~SquareSet(other).mask
        return self

    def symmetric_difference_update(self, other: IntoSquareSet) -> None:
        """Keeps the squares in exactly one of the two."""
        self.mask ^= SquareSet(other).mask

    def __ixor__(self, other: IntoSquareSet) -> "SquareSet":
        self.mask ^= SquareSet(other).mask
        return self

    def remove(self, square: int) -> None:
        """Removes a square; KeyError if it is not there."""
        bit = BB_SQUARES[square]
        if not self.mask & bit:
            raise KeyError(square)
        self.mask ^= bit

    def pop(self) -> int:
        """Removes and returns the lowest square; KeyError if empty."""
        if not self.mask:
            raise KeyError("pop from empty SquareSet")
        square = lsb(self.mask)
        self.mask &= self.mask - 1
        return square

    def clear(self) -> None:
        """Removes every square."""
        self.mask = BB_EMPTY

    # python-chess's own

    def carry_rippler(self) -> Iterator[int]:
        """Every subset of the mask (as int masks), the empty one first."""
        subset = BB_EMPTY
        while True:
            yield subset
            subset = (subset - self.mask) & self.mask
            if not subset:
                break

    def mirror(self) -> "SquareSet":
        """The squares mirrored rank by rank (a1 <-> a8)."""
        return SquareSet(flip_vertical(self.mask))

    def tolist(self) -> List[bool]:
        """64 booleans, one per square from a1: whether it is in the set."""
        mask = self.mask
        return [bool(mask >> sq & 1) for sq in SQUARES]

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __eq__(self, other: object) -> bool:
        try:
            return self.mask == SquareSet(other).mask  # type: ignore[arg-type]
        except (TypeError, ValueError, IndexError):
            return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as python-chess's

    def __lshift__(self, shift: int) -> "SquareSet":
        return SquareSet((self.mask << shift) & BB_ALL)

    def __rshift__(self, shift: int) -> "SquareSet":
        return SquareSet(self.mask >> shift)

    def __ilshift__(self, shift: int) -> "SquareSet":
        self.mask = (self.mask << shift) & BB_ALL
        return self

    def __irshift__(self, shift: int) -> "SquareSet":
        self.mask >>= shift
        return self

    def __invert__(self) -> "SquareSet":
        return SquareSet(~self.mask & BB_ALL)

    def __int__(self) -> int:
        return self.mask

    def __index__(self) -> int:
        return self.mask

    def __repr__(self) -> str:
        return f"SquareSet({self.mask:#021_x})"

    def __str__(self) -> str:
        rows = []
        for rank in range(7, -1, -1):
            byte = self.mask >> (8 * rank) & 0xFF
            rows.append(" ".join("1" if byte >> file & 1 else "." for file in range(8)))
        return "\n".join(rows)

    def _repr_svg_(self) -> str:
        """The squares marked on an empty board (what Jupyter shows)."""
        from .svg import board

        return board(squares=self, size=390)

    @classmethod
    def ray(cls, a: int, b: int) -> "SquareSet":
        """The line through two squares, edge to edge (empty if none)."""
        return cls(ray(a, b))

    @classmethod
    def between(cls, a: int, b: int) -> "SquareSet":
        """The squares strictly between two squares on a line."""
        return cls(between(a, b))

    @classmethod
    def from_square(cls, square: int) -> "SquareSet":
        """The set of one square."""
        return cls(BB_SQUARES[square])


class BaseBoard(metaclass=abc.ABCMeta):
    """Pieces on squares and nothing else: python-chess's ``BaseBoard``.

    No side to move, castling rights, en passant square or clocks; any
    placement, valid or not. ``Board`` has every method here (a ``Board``
    is an instance of ``BaseBoard``), and a ``BaseBoard`` keeps its pieces
    in one.

    >>> import bitboards
    >>> board = bitboards.BaseBoard("4k3/8/8/8/8/8/8/4KB2")
    >>> board.piece_at(bitboards.F1)
    Piece.from_symbol('B')
    >>> board == bitboards.BaseBoard.empty()
    False
    """

    def __init__(self, board_fen: Optional[str] = STARTING_BOARD_FEN) -> None:
        self._board = Board(None)
        if board_fen is not None:
            self._board.set_board_fen(board_fen)

    @classmethod
    def empty(cls) -> "BaseBoard":
        """A board without pieces."""
        return cls(None)

    @classmethod
    def from_chess960_pos(cls, scharnagl: int) -> "BaseBoard":
        """The pieces of the Chess960 start position numbered ``scharnagl``."""
        board = cls.empty()
        board.set_chess960_pos(scharnagl)
        return board

    def reset_board(self) -> None:
        self._board.set_board_fen(STARTING_BOARD_FEN)

    def clear_board(self) -> None:
        self._board.set_board_fen("8/8/8/8/8/8/8/8")

    def board_fen(self, *, promoted: Optional[bool] = False) -> str:
        return self._board.board_fen()

    def set_board_fen(self, fen: str) -> None:
        self._board.set_board_fen(fen)

    def piece_map(self, *, mask: int = BB_ALL) -> Dict[int, Piece]:
        return self._board.piece_map(mask=mask)

    def set_piece_map(self, pieces: Dict[int, Piece]) -> None:
        self._board.set_piece_map(pieces)

    def set_chess960_pos(self, scharnagl: int) -> None:
        self._board.set_board_fen(Board.from_chess960_pos(scharnagl).board_fen())

    def chess960_pos(self) -> Optional[int]:
        return self._board.chess960_pos(ignore_turn=True, ignore_castling=True)

    def piece_at(self, square: int) -> Optional[Piece]:
        return self._board.piece_at(square)

    def piece_type_at(self, square: int) -> Optional[int]:
        return self._board.piece_type_at(square)

    def color_at(self, square: int) -> Optional[bool]:
        return self._board.color_at(square)

    def set_piece_at(self, square: int, piece: Optional[Piece], promoted: bool = False) -> None:
        self._board.set_piece_at(square, piece, promoted)

    def remove_piece_at(self, square: int) -> Optional[Piece]:
        return self._board.remove_piece_at(square)

    def king(self, color: bool) -> Optional[int]:
        return self._board.king(color)

    def pieces_mask(self, piece_type: int, color: bool) -> int:
        return self._board.pieces_mask(piece_type, color)

    def pieces(self, piece_type: int, color: bool) -> "SquareSet":
        return SquareSet(self.pieces_mask(piece_type, color))

    def attacks_mask(self, square: int) -> int:
        return self._board.attacks_mask(square)

    def attacks(self, square: int) -> "SquareSet":
        return SquareSet(self.attacks_mask(square))

    def attackers_mask(self, color: bool, square: int) -> int:
        return int(self._board.attackers(color, square))

    def attackers(self, color: bool, square: int) -> "SquareSet":
        return SquareSet(self.attackers_mask(color, square))

    def is_attacked_by(self, color: bool, square: int) -> bool:
        return self._board.is_attacked_by(color, square)

    def pin_mask(self, color: bool, square: int) -> int:
        return self._board.pin_mask(color, square)

    def pin(self, color: bool, square: int) -> "SquareSet":
        return SquareSet(self.pin_mask(color, square))

    def is_pinned(self, color: bool, square: int) -> bool:
        return self._board.is_pinned(color, square)

    @property
    def occupied(self) -> int:
        return self._board.occupied

    @property
    def occupied_co(self) -> List[int]:
        return list(self._board.occupied_co)

    @property
    def pawns(self) -> int:
        return self._board.pawns

    @property
    def knights(self) -> int:
        return self._board.knights

    @property
    def bishops(self) -> int:
        return self._board.bishops

    @property
    def rooks(self) -> int:
        return self._board.rooks

    @property
    def queens(self) -> int:
        return self._board.queens

    @property
    def kings(self) -> int:
        return self._board.kings

    @property
    def promoted(self) -> int:
        return self._board.promoted

    def unicode(self, *, invert_color: bool = False, borders: bool = False,
                empty_square: str = "\u2b58", orientation: bool = True) -> str:
        return self._board.unicode(invert_color=invert_color, borders=borders,
                                   empty_square=empty_square, orientation=orientation)

    def apply_transform(self, f: Callable[[int], int]) -> None:
        """Applies ``f`` (a map of bitboards, such as ``flip_vertical``) to
        the pieces."""
        self._board.apply_transform(f)

    def transform(self, f: Callable[[int], int]) -> "BaseBoard":
        """A copy with ``f`` applied to the pieces."""
        board = self.copy()
        board.apply_transform(f)
        return board

    def mirror(self) -> "BaseBoard":
        """The board flipped top to bottom, colours swapped."""
        mirrored = type(self).empty()
        mirrored._board = self._board.mirror()
        return mirrored

    def apply_mirror(self) -> None:
        self._board = self._board.mirror()

    def copy(self) -> "BaseBoard":
        board = type(self).empty()
        board._board = self._board.copy(stack=False)
        return board

    __copy__ = copy

    def __deepcopy__(self, memo: Dict[int, object]) -> "BaseBoard":
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseBoard):
            return NotImplemented
        return self.board_fen() == other.board_fen() and self.promoted == other.promoted

    __hash__ = None  # type: ignore[assignment]  # mutable, as python-chess's

    def __str__(self) -> str:
        return str(self._board)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.board_fen()!r})"

    def _repr_svg_(self) -> str:
        from . import svg
        return svg.board(self, size=400)


BaseBoard.register(Board)


def planes(bitboards: Any, turn: Any = None, out: Any = None) -> "NDArray[numpy.uint8]":
    """Twelve piece boards per row as NumPy planes, shape ``(N, 12, 8, 8)``, uint8.

    ``bitboards`` is the ``bitboards`` column of ``bitboards.pgn.read_positions``
    (a pyarrow array or chunked array of fixed-size lists of 12 uint64), or a
    NumPy array of shape ``(N, 12)`` (or ``(12,)``) of uint64: White's pawns,
    knights, bishops, rooks, queens, king, then Black's, a1 = bit 0. In the
    planes, row 0 is rank 1 and column 0 is file a.

    With ``turn`` (the ``turn`` column, or a boolean array: True where White
    is to move), the rows where Black is to move are seen from Black's side:
    ranks mirrored and colours swapped, so that planes 0-5 are always the
    mover's pieces.

    With ``out`` (a C-contiguous, writable uint8 array of shape
    ``(N, 12, 8, 8)``), the planes are written there and ``out`` is
    returned. A data loader that makes batch after batch of one size can
    keep one array: a new array's memory is faulted in by the kernel as it
    is written, which can cost more than the planes themselves. (A new
    array is NumPy's ``numpy.empty``, with NumPy's request for transparent
    huge pages: faulting a large array in 2 MB at a time measured twice as
    fast as 4 KB pages here.)

    The planes are written with the processor's vector instructions where
    it has them (AVX-512 or AVX2, detected at run time), and from 512
    rows on, on every core.

    >>> import numpy as np, bitboards
    >>> p = bitboards.planes(np.array([[1 << bitboards.E2] + [0] * 11], dtype=np.uint64))
    >>> p.shape, int(p[0, 0, 1, 4])
    ((1, 12, 8, 8), 1)
    >>> batch = np.empty((1, 12, 8, 8), dtype=np.uint8)
    >>> bitboards.planes(np.zeros((1, 12), dtype=np.uint64), out=batch) is batch
    True
    """
    import numpy as np

    array = _as_uint64_rows(bitboards, np).astype("<u8", copy=False)
    if turn is not None:
        turn = np.ascontiguousarray(_as_numpy(turn, np), dtype=bool)
    if out is None:
        out = np.empty((array.shape[0], 12, 8, 8), dtype=np.uint8)
    # The encoder is the Rust one (bindings/python/src/board/planes.rs), which
    # also checks turn's and out's shapes and out's dtype and layout. It
    # takes plain ndarrays: a subclass's (a memmap, say) as a view.
    plain = out.view(np.ndarray) if isinstance(out, np.ndarray) else out
    _bitboards.planes_into(
        np.asarray(array), None if turn is None else np.asarray(turn), plain
    )
    return out


def _as_numpy(values, np):
    if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):
        try:
            return values.to_numpy(zero_copy_only=False)
        except TypeError:
            return values.to_numpy()
    return np.asarray(values)


def _as_uint64_rows(values, np):
    """An ``(N, 12)`` uint64 array from a NumPy array or an Arrow column of lists."""
    if hasattr(values, "combine_chunks"):
        values = values.combine_chunks()
    if hasattr(values, "flatten") and hasattr(values, "type") and not isinstance(values, np.ndarray):
        flat = values.flatten().to_numpy(zero_copy_only=False)
        array = np.asarray(flat, dtype=np.uint64).reshape(-1, 12)
    else:
        array = np.asarray(values, dtype=np.uint64)
        if array.ndim == 1:
            array = array.reshape(1, -1)
    if array.ndim != 2 or array.shape[1] != 12:
        raise ValueError(f"expected rows of 12 bitboards, got shape {array.shape}")
    return np.ascontiguousarray(array)


from . import pgn  # noqa: E402  (pgn uses the names above)
