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

from typing import TYPE_CHECKING, Any

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
    Termination,
)

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

__all__ = [
    "AmbiguousMoveError", "Bitboard", "Board", "IllegalMoveError", "InvalidFenError",
    "InvalidMoveError", "LegalMoveGenerator", "Move", "NotPgnError", "Outcome", "Piece",
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
]

#: python-chess's name for a set of squares.
SquareSet = Bitboard

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
    it has them (AVX2, detected at run time), and from 16,384 rows on, on
    every core.

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
    # The encoder is the Rust one (bindings/python/src/planes.rs), which
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
