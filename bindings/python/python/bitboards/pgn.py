"""PGN: python-chess's game tree, and databases read in Rust.

Two parts. python-chess's ``chess.pgn`` API, with its names and meanings:
``read_game`` (one game from a text file object, as a tree of ``Game``,
``ChildNode`` s with moves, comments, NAGs and variations), ``read_headers``,
``skip_game``, the visitors (``BaseVisitor``, ``GameBuilder``,
``StringExporter``, ``FileExporter``, ...) and ``str(game)`` as python-chess
writes it. The boards are ``bitboards.Board``, the moves ``bitboards.Move``.

>>> import io, bitboards.pgn
>>> game = bitboards.pgn.read_game(io.StringIO("1. e4 { best by test } e5 (1... c5 $1) 2. Nf3 *"))
>>> [move.uci() for move in game.mainline_moves()]
['e2e4', 'e7e5', 'g1f3']
>>> game.next().comment, game.next().variations[1].san()
('best by test', 'c5')
>>> print(game.accept(bitboards.pgn.StringExporter(headers=False)))
1. e4 { best by test } 1... e5 ( 1... c5 $1 ) 2. Nf3 *

Where ``read_game`` knowingly differs from python-chess 1.11's:

- after a move that fails inside a variation, the rest of that variation is
  left out and reading goes on after its closing bracket, in the position
  before the variation (python-chess goes on in the variation's position,
  which can put the next moves on the wrong node); after one in the main
  line, the rest of the game's movetext is left out, even past a stray
  closing bracket (where python-chess can raise ``IndexError``);
- the variants are standard chess, Chess960 and the ``wild/0``..``wild/8a``
  names read as standard chess; another Variant tag is an error (in
  ``game.errors``) and the game is read as standard chess;
- a FEN tag that ``bitboards.Board`` refuses (no king, fewer than six
  fields...) is an error and the game's movetext is skipped, where
  python-chess holds any setup;
- a null move (``--``, ``Z0``) by a side in check is an error
  (``bitboards.Board`` refuses it; python-chess plays it).

And fast readers of whole databases, in Rust (``read_games``, which yields
``GameRecord`` s, ``read_table``, ``read_positions``, ``to_parquet``). Each
takes a path (``str`` or ``os.PathLike``; plain, ``.zst``,
``.gz`` or ``.bz2``, told apart by content), a list of paths, or a binary or
text file object. Reading runs in Rust with the GIL released, on ``threads``
threads (all cores when None), and games come out in file order whatever the
thread count. ``progress`` prints a progress line to standard error; by
default it does when standard error is a terminal.

>>> import io, bitboards.pgn
>>> pgn = io.BytesIO(b'[White "Carlsen"]\\n\\n1. e4 { [%eval 0.17] [%clk 0:03:00] } e5 1-0\\n')
>>> game = next(bitboards.pgn.read_games(pgn))
>>> game.headers["White"], [m.uci() for m in game.moves], game.clocks, game.evals
('Carlsen', ['e2e4', 'e7e5'], [180.0, None], [Score(cp=17), None])
"""

from __future__ import annotations

import abc
import dataclasses
import enum
import io
import logging
import os
import re
import sys
import warnings
from typing import (
    IO, TYPE_CHECKING, Any, Callable, Dict, Generic, Iterable, Iterator, List, Mapping,
    MutableMapping, Optional, Sequence, Set, TextIO, Tuple, Type, TypeVar, Union, overload,
)

from . import BLACK, ROOK, SQUARE_NAMES, STARTING_FEN, WHITE, _bitboards
from ._bitboards import Board, Move
from ._bitboards import GameRecord
from ._bitboards import Score

if TYPE_CHECKING:
    import pyarrow  # type: ignore  # (pyarrow has no type hints)

    # One PGN source: a path, a file's contents, or a binary or text file object.
    _Item = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes], IO[str]]
    # What the functions take: one source or a list of them.
    _Sources = Union[_Item, Sequence[_Item]]

__all__ = [
    "GameRecord", "Score", "GAME_COLUMNS", "POSITION_COLUMNS", "read_games", "read_table", "to_parquet",
    "read_positions", "iter_positions",
    # python-chess's chess.pgn
    "Game", "GameNode", "ChildNode", "Headers", "Mainline", "MainlineMoves", "read_game",
    "read_headers", "skip_game", "BaseVisitor", "GameBuilder", "HeadersBuilder", "BoardBuilder",
    "SkipVisitor", "StringExporterMixin", "StringExporter", "FileExporter", "SkipType", "SKIP",
    "LOGGER", "TAG_ROSTER", "TimeControl", "TimeControlPart", "TimeControlType",
    "parse_time_control", "TAG_REGEX", "TAG_NAME_REGEX", "MOVETEXT_REGEX", "SKIP_MOVETEXT_REGEX",
    "CLOCK_REGEX", "EMT_REGEX", "EVAL_REGEX", "ARROWS_REGEX",
    "NAG_NULL", "NAG_GOOD_MOVE", "NAG_MISTAKE", "NAG_BRILLIANT_MOVE", "NAG_BLUNDER",
    "NAG_SPECULATIVE_MOVE", "NAG_DUBIOUS_MOVE", "NAG_FORCED_MOVE", "NAG_SINGULAR_MOVE",
    "NAG_WORST_MOVE", "NAG_DRAWISH_POSITION", "NAG_QUIET_POSITION", "NAG_ACTIVE_POSITION",
    "NAG_UNCLEAR_POSITION", "NAG_WHITE_SLIGHT_ADVANTAGE", "NAG_BLACK_SLIGHT_ADVANTAGE",
    "NAG_WHITE_MODERATE_ADVANTAGE", "NAG_BLACK_MODERATE_ADVANTAGE",
    "NAG_WHITE_DECISIVE_ADVANTAGE", "NAG_BLACK_DECISIVE_ADVANTAGE", "NAG_WHITE_ZUGZWANG",
    "NAG_BLACK_ZUGZWANG", "NAG_WHITE_MODERATE_COUNTERPLAY", "NAG_BLACK_MODERATE_COUNTERPLAY",
    "NAG_WHITE_DECISIVE_COUNTERPLAY", "NAG_BLACK_DECISIVE_COUNTERPLAY",
    "NAG_WHITE_MODERATE_TIME_PRESSURE", "NAG_BLACK_MODERATE_TIME_PRESSURE",
    "NAG_WHITE_SEVERE_TIME_PRESSURE", "NAG_BLACK_SEVERE_TIME_PRESSURE", "NAG_NOVELTY",
]

#: The columns of ``read_table``, in order: the Lichess database's tags and
#: ``movetext`` (the game's movetext as the file has it: comments, NAGs,
#: variations and spacing as read, to the result), then ``plies``, ``fen``
#: (final position), ``outcome`` (by the rules), ``uci`` (the moves),
#: ``clocks`` and ``evals`` (per move).
GAME_COLUMNS = _bitboards.game_columns()

#: The columns of ``read_positions``, in order (then the ``columns=`` asked for).
POSITION_COLUMNS = [
    "game", "ply", "bitboards", "turn", "castling", "ep_square", "halfmove_clock",
    "fullmove_number", "move", "move_clock", "move_eval", "WhiteElo", "BlackElo", "Result",
]


def _sources(path_or_file):
    """Paths as str and file contents as bytes, for the Rust side."""
    items = path_or_file if isinstance(path_or_file, (list, tuple)) else [path_or_file]
    sources = []
    for item in items:
        if isinstance(item, (bytes, bytearray, memoryview)):
            sources.append(bytes(item))
        elif hasattr(item, "read"):
            data = item.read()
            sources.append(data.encode("utf-8") if isinstance(data, str) else bytes(data))
        else:
            sources.append(os.fspath(item))
    return sources


def _progress(progress):
    if progress is None:
        stderr = sys.stderr
        return bool(stderr is not None and hasattr(stderr, "isatty") and stderr.isatty())
    return bool(progress)


def _warn(failures):
    if failures:
        more = f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""
        warnings.warn(
            f"{len(failures)} game(s) left out for errors: {failures[0]}{more}",
            stacklevel=3,
        )


def read_games(
    path_or_file: _Sources, threads: Optional[int] = None, progress: Optional[bool] = None
) -> Iterator[GameRecord]:
    """The games of a PGN source, in order, as ``GameRecord`` objects (the
    Rust reader's record of a game: headers, moves, clocks, evals; for
    python-chess's game tree, see ``read_game``).

    A game with an error is yielded with ``errors`` set and what was read
    before the error (its headers, its first moves); reading goes on with the
    next game. A file that is not PGN raises ``bitboards.NotPgnError`` and a
    file that cannot be read ``OSError``, after the games before.

    >>> import io, bitboards.pgn
    >>> games = list(bitboards.pgn.read_games(io.BytesIO(b"1. e4 e5 *\\n\\n1. d4 Ke7 *\\n")))
    >>> [len(g.moves) for g in games], games[1].errors != []
    ([2, 1], True)
    """
    return _bitboards.read_games(_sources(path_or_file), threads, _progress(progress))


def _pyarrow():
    try:
        import pyarrow
    except ImportError as error:  # pragma: no cover
        raise ImportError("read_table needs pyarrow: pip install pyarrow") from error
    return pyarrow


def read_table(
    paths: _Sources,
    columns: Optional[Iterable[str]] = None,
    threads: Optional[int] = None,
    progress: Optional[bool] = None,
) -> pyarrow.Table:
    """The games of PGN sources as a ``pyarrow.Table``, one row per game.

    The table is built in Rust and handed over through the Arrow C stream
    interface: no Python object per game. ``columns`` picks some of
    ``GAME_COLUMNS`` (leaving out ``movetext`` and ``uci`` saves their cost).
    Games with errors are left out, with a warning that counts them. On one
    thread the table's record batches hold 65,536 games each; on several,
    each chunk of the input (up to a megabyte) is one batch, as the
    thread that read it built it (``combine_chunks()`` joins them).

    >>> import io, bitboards.pgn
    >>> table = bitboards.pgn.read_table(io.BytesIO(b'[WhiteElo "2100"]\\n\\n1. e4 e5 *\\n'), columns=["WhiteElo", "plies"])
    >>> table.to_pylist()
    [{'WhiteElo': 2100, 'plies': 2}]
    """
    pa = _pyarrow()
    stream, failures = _bitboards.read_table(
        _sources(paths), None if columns is None else list(columns), threads, _progress(progress)
    )
    _warn(failures)
    return _import_stream(pa, stream).read_all()


def _import_stream(pa, stream):
    if hasattr(pa.RecordBatchReader, "from_stream"):
        return pa.RecordBatchReader.from_stream(stream)
    return pa.RecordBatchReader._import_from_c_capsule(stream.__arrow_c_stream__())


def to_parquet(
    paths: _Sources,
    out: Union[str, os.PathLike[str]],
    threads: Optional[int] = None,
    progress: Optional[bool] = None,
    compression: str = "zstd",
    compression_level: Optional[int] = None,
    row_group_size: Optional[int] = None,
) -> int:
    """Writes the games of PGN sources to the Parquet file ``out`` as they
    are read, in bounded memory, and returns the number of rows.

    The columns are ``read_table``'s. Games with errors are left out, with a
    warning that counts them. ``compression`` is ``"zstd"`` (the default, at
    ``compression_level`` 1 unless given, 1 to 22), ``"snappy"``, ``"lz4"``
    or ``"none"``; ``row_group_size`` the most rows of a row group (65,536
    by default), as ``pyarrow.parquet.write_table`` names them. A bad value
    is a ``ValueError``. ``threads`` is the number of threads that read the
    games (every core by default); the file is encoded on threads of its
    own besides, one per core (at most 8).
    """
    rows, failures = _bitboards.to_parquet(
        _sources(paths), os.fspath(out), threads, _progress(progress),
        compression, compression_level, row_group_size,
    )
    _warn(failures)
    return rows


def _position_reader(paths, threads, every, min_ply, max_ply, min_elo, sample, seed,
                     final_position, columns, batch_size, progress):
    pa = _pyarrow()
    stream = _bitboards.position_stream(
        _sources(paths), threads, every, min_ply, max_ply, min_elo, sample, seed,
        final_position, None if columns is None else list(columns), batch_size,
        _progress(progress),
    )
    return pa, stream, _import_stream(pa, stream)


def _batches(pa, stream, reader):
    try:
        while True:
            try:
                batch = reader.read_next_batch()
            except StopIteration:
                break
            except pa.ArrowException:
                stream.raise_fatal()
                raise
            yield batch
    finally:
        reader.close()
    stream.raise_fatal()
    _warn(stream.errors())


def iter_positions(paths: _Sources, batch_size: int = 65536, threads: Optional[int] = None,
                   every: int = 1, min_ply: int = 0, max_ply: Optional[int] = None,
                   min_elo: Optional[int] = None, sample: Optional[float] = None, seed: int = 0,
                   final_position: bool = False, columns: Optional[Iterable[str]] = None,
                   progress: Optional[bool] = None) -> Iterator[pyarrow.RecordBatch]:
    """The rows of ``read_positions`` as ``pyarrow.RecordBatch`` es of about
    ``batch_size`` rows, made while you consume them: a month of Lichess
    streams through in bounded memory.

    >>> import io, bitboards.pgn
    >>> batches = bitboards.pgn.iter_positions(io.BytesIO(b"1. e4 e5 2. Nf3 *"), batch_size=2)
    >>> sum(batch.num_rows for batch in batches)
    3
    """
    pa, stream, reader = _position_reader(
        paths, threads, every, min_ply, max_ply, min_elo, sample, seed, final_position,
        columns, batch_size, progress,
    )
    return _batches(pa, stream, reader)


def read_positions(paths: _Sources, threads: Optional[int] = None, every: int = 1,
                   min_ply: int = 0, max_ply: Optional[int] = None, min_elo: Optional[int] = None,
                   columns: Optional[Iterable[str]] = None, sample: Optional[float] = None,
                   seed: int = 0, final_position: bool = False,
                   progress: Optional[bool] = None) -> pyarrow.Table:
    """Every position of the games as a ``pyarrow.Table``, one row per
    position before a move, built in Rust.

    Columns (``POSITION_COLUMNS``): ``game`` (number in the input, from 0),
    ``ply`` (from 0 at the game's start), ``bitboards`` (12 uint64: White's
    pawns, knights, bishops, rooks, queens, king, then Black's; a1 = bit 0),
    ``turn``, ``castling`` (the castling rooks' squares), ``ep_square``
    (where an en passant capture is legal), ``halfmove_clock``,
    ``fullmove_number``, ``move`` (UCI), ``move_clock`` and ``move_eval``
    (the annotations after the move), ``WhiteElo``, ``BlackElo``,
    ``Result``; then the game columns named in ``columns`` (tags of
    ``GAME_COLUMNS``, or ``plies``).

    Filters: ``every`` (every Nth position), ``min_ply``/``max_ply``,
    ``min_elo`` (both players), ``sample`` (a fraction kept, by a hash of
    ``seed``, the game and the ply: the same rows whatever the thread
    count); ``final_position`` adds the final position with a null move.
    Games with errors are left out, with a warning that counts them.

    A plain (not compressed) file is mapped into memory and read where it
    lies, with no copy: it must not be cut shorter while it is read (the
    process would end with ``SIGBUS``, as any program that maps its input).

    >>> import io, bitboards, bitboards.pgn
    >>> table = bitboards.pgn.read_positions(io.BytesIO(b"1. e4 e5 *"))
    >>> table["move"].to_pylist(), bitboards.planes(table["bitboards"]).shape
    (['e2e4', 'e7e5'], (2, 12, 8, 8))
    """
    # The batches as the workers built them (None): a table holds them as
    # they are, where batches of a set size would be copies.
    pa, stream, reader = _position_reader(
        paths, threads, every, min_ply, max_ply, min_elo, sample, seed, final_position,
        columns, None, progress,
    )
    batches = list(_batches(pa, stream, reader))
    return pa.Table.from_batches(batches, schema=reader.schema)


# ---------------------------------------------------------------------------
# python-chess's chess.pgn: the game tree, its visitors, and a reader of one
# game at a time from a text file object. Written for this package from
# python-chess's documented names and observed behaviour (python-chess is a
# test oracle in bindings/python/tests/test_pgn_tree.py, not a source).
#
# Where it knowingly differs from python-chess 1.11: see the module's
# docstring.
# ---------------------------------------------------------------------------

#: The logger that ``GameBuilder`` reports errors to.
LOGGER = logging.getLogger(__name__)

# NAGs, the numeric annotation glyphs ($1 ...).
NAG_NULL = 0
NAG_GOOD_MOVE = 1  #: ``!``
NAG_MISTAKE = 2  #: ``?``
NAG_BRILLIANT_MOVE = 3  #: ``!!``
NAG_BLUNDER = 4  #: ``??``
NAG_SPECULATIVE_MOVE = 5  #: ``!?``
NAG_DUBIOUS_MOVE = 6  #: ``?!``
NAG_FORCED_MOVE = 7
NAG_SINGULAR_MOVE = 8
NAG_WORST_MOVE = 9
NAG_DRAWISH_POSITION = 10
NAG_QUIET_POSITION = 11
NAG_ACTIVE_POSITION = 12
NAG_UNCLEAR_POSITION = 13
NAG_WHITE_SLIGHT_ADVANTAGE = 14
NAG_BLACK_SLIGHT_ADVANTAGE = 15
NAG_WHITE_MODERATE_ADVANTAGE = 16
NAG_BLACK_MODERATE_ADVANTAGE = 17
NAG_WHITE_DECISIVE_ADVANTAGE = 18
NAG_BLACK_DECISIVE_ADVANTAGE = 19
NAG_WHITE_ZUGZWANG = 22
NAG_BLACK_ZUGZWANG = 23
NAG_WHITE_MODERATE_COUNTERPLAY = 132
NAG_BLACK_MODERATE_COUNTERPLAY = 133
NAG_WHITE_DECISIVE_COUNTERPLAY = 134
NAG_BLACK_DECISIVE_COUNTERPLAY = 135
NAG_WHITE_MODERATE_TIME_PRESSURE = 136
NAG_BLACK_MODERATE_TIME_PRESSURE = 137
NAG_WHITE_SEVERE_TIME_PRESSURE = 138
NAG_BLACK_SEVERE_TIME_PRESSURE = 139
NAG_NOVELTY = 146

# The move suffixes that stand for NAGs.
_SUFFIX_NAGS = {
    "!": NAG_GOOD_MOVE, "?": NAG_MISTAKE, "!!": NAG_BRILLIANT_MOVE, "??": NAG_BLUNDER,
    "!?": NAG_SPECULATIVE_MOVE, "?!": NAG_DUBIOUS_MOVE,
}

#: The Seven Tag Roster, in the order it is written.
TAG_ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]

_ROSTER_DEFAULTS = {
    "Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?",
    "Result": "*",
}

#: A tag pair line: ``[Name "value"]``.
TAG_REGEX = re.compile(r'^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"([^\r]*)"\]\s*$')

#: The names a tag may have.
TAG_NAME_REGEX = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+#=:-]*\Z")

#: The tokens of movetext: a move (SAN, long algebraic, UCI, castling, a null
#: move), the start of a ``{`` or ``;`` comment, a NAG, brackets, a result, a
#: ``!``/``?`` suffix. Anything else (move numbers, ``+``, dots) is skipped.
MOVETEXT_REGEX = re.compile(r"""
    (?P<move>
        [NBKRQ]?[a-h]?[1-8]?[-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?
        | [PNBRQK]?@[a-h][1-8]
        | -- | Z0 | 0000 | @@@@
        | O-O(?:-O)? | 0-0(?:-0)?
    )
    | (?P<brace>\{)
    | (?P<semicolon>;)
    | \$(?P<nag>[0-9]+)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<result>\*|1-0|0-1|1/2-1/2)
    | (?P<suffix>[?!]{1,2})
""", re.VERBOSE)

#: What skipping a game has to look at: comment brackets and ``;``.
SKIP_MOVETEXT_REGEX = re.compile(r"[{};]")

#: ``[%clk 1:02:03]`` (seconds may have a fraction).
CLOCK_REGEX = re.compile(r"\[%clk\s(\d+):(\d+):(\d+(?:\.\d*)?)\]")

#: ``[%emt 0:00:05]``, the time a move took.
EMT_REGEX = re.compile(r"\[%emt\s(\d+):(\d+):(\d+(?:\.\d*)?)\]")

#: ``[%eval 0.17]``, ``[%eval #-3]``, optionally with ``,depth``.
EVAL_REGEX = re.compile(
    r"\[%eval\s(?:#([+-]?\d+)|([+-]?(?:\d+(?:\.\d{1,2})?|\.\d{1,2})))(?:,(\d+))?\]")

#: ``[%csl Ga1,Rb2]`` (circles) and ``[%cal Ga1h8]`` (arrows).
ARROWS_REGEX = re.compile(
    r"\[%(?:csl|cal)\s([RGYB][a-h][1-8](?:[a-h][1-8])?(?:,[RGYB][a-h][1-8](?:[a-h][1-8])?)*)\]")

def _spaced(regex: "re.Pattern[str]") -> "re.Pattern[str]":
    """``regex`` with the whitespace character before and after it, if any."""
    return re.compile(r"(?P<lead>\s?)(?:" + regex.pattern + r")(?P<trail>\s?)")


_SPACED = {regex: _spaced(regex) for regex in (CLOCK_REGEX, EMT_REGEX, EVAL_REGEX, ARROWS_REGEX)}

_NULL_MOVE_TOKENS = ("--", "Z0", "0000", "@@@@")
_LONG_MOVE = re.compile(r"^([a-h][1-8])[-x]?([a-h][1-8])(?:=?([nbrqkNBRQK]))?[+#]?\Z")

_CHESS960_NAMES = {"chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random"}
_WILD_NAMES = {f"wild/{n}" for n in ("0", "1", "2", "3", "4", "5", "6", "7", "8", "8a")}
_STANDARD_NAMES = {"standard", "chess", "classical", "normal", "illegal", "from position"}


class SkipType(enum.Enum):
    """What a visitor returns to have a part of the game left out."""

    SKIP = 1


#: Returned by ``BaseVisitor.begin_game``, ``begin_headers``,
#: ``end_headers`` or ``begin_variation``: leave that part out.
SKIP = SkipType.SKIP


# ---- time controls ----

class TimeControlType(enum.Enum):
    """How fast a time control is, from its first part: the base time plus
    60 increments, under 3 minutes bullet, under 15 blitz, under 60 rapid."""

    UNKNOWN = 0
    UNLIMITED = 1
    STANDARD = 2
    RAPID = 3
    BLITZ = 4
    BULLET = 5


@dataclasses.dataclass
class TimeControlPart:
    """One period: ``moves`` (0: the rest of the game) in ``time`` seconds,
    with ``increment`` or ``delay`` seconds a move."""

    moves: int = 0
    time: int = 0
    increment: float = 0
    delay: float = 0


@dataclasses.dataclass
class TimeControl:
    """A ``TimeControl`` tag read: its periods and how fast it is."""

    parts: List[TimeControlPart] = dataclasses.field(default_factory=list)
    type: TimeControlType = TimeControlType.UNKNOWN


def parse_time_control(time_control: str) -> TimeControl:
    """Reads a ``TimeControl`` tag (``"300+2"``, ``"40/7200:3600"``, ``"-"``
    for none, ``"?"`` unknown); a malformed one is a ``ValueError``.

    >>> import bitboards.pgn
    >>> bitboards.pgn.parse_time_control("180+2").type
    <TimeControlType.BLITZ: 4>
    """
    control = TimeControl()
    if not time_control or time_control.startswith("?"):
        return control
    if time_control.startswith("-"):
        control.type = TimeControlType.UNLIMITED
        return control
    periods = time_control.split(":")
    for index, period in enumerate(periods):
        part = TimeControlPart()
        if "/" in period:
            moves, period = period.split("/", 1)
            part.moves = int(moves)
        if "+" in period:
            period, extra = period.split("+", 1)
            if extra.endswith("d"):
                part.delay = float(extra[:-1])
            else:
                part.increment = float(extra)
        part.time = int(period)
        if part.moves == 0 and index != len(periods) - 1:
            raise ValueError("Only last part can be 'sudden death'.")
        control.parts.append(part)
    first = control.parts[0]
    estimate = first.time + 60 * first.increment
    if estimate < 180:
        control.type = TimeControlType.BULLET
    elif estimate < 900:
        control.type = TimeControlType.BLITZ
    elif estimate < 3600:
        control.type = TimeControlType.RAPID
    else:
        control.type = TimeControlType.STANDARD
    return control


# ---- boards ----

def _has_chess960_castling(board: Board) -> bool:
    """Whether the board's castling rights need Chess960 (a king not on the
    e-file or a castling rook not in a corner)."""
    rights = board.castling_rights
    if not rights:
        return False
    corners = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
    if rights & ~corners:
        return True
    if rights & 0xFF and board.king(WHITE) != 4:
        return True
    if rights & (0xFF << 56) and board.king(BLACK) != 60:
        return True
    return False


def _san(board: Board, move: Move) -> str:
    return board.san(move) if move else "--"


def _uci(board: Board, move: Move, chess960: Optional[bool] = None) -> str:
    """The move in UCI; with ``chess960``, castling as the king's move to its
    rook's square; without, standard castling as the king's move two squares
    (None: as the board writes it)."""
    if not move:
        return "0000"
    if chess960 is None or not board.is_castling(move):
        return board.uci(move)
    king, target = move.from_square, move.to_square
    piece = board.piece_at(target)
    if piece is not None and piece.piece_type == ROOK and piece.color == board.turn:
        rook = target
        kingside = target % 8 > king % 8
    else:
        kingside = target % 8 > king % 8
        rank = king // 8
        rooks = [square for square in range(rank * 8, rank * 8 + 8)
                 if board.castling_rights >> square & 1
                 and (square % 8 > king % 8) == kingside]
        rook = rooks[0] if rooks else target
    # Without chess960, only castling from e1/e8 with a corner rook has
    # another form (as python-chess's): the king's move two squares.
    if not chess960 and king in (4, 60) and rook % 8 in (0, 7) and rook // 8 == king // 8:
        return SQUARE_NAMES[king] + SQUARE_NAMES[king + (2 if kingside else -2)]
    return SQUARE_NAMES[king] + SQUARE_NAMES[rook]


def _result(board: Board) -> str:
    outcome = board.outcome()
    return outcome.result() if outcome is not None else "*"


def _variation_san(board: Board, moves: Iterable[Move]) -> str:
    """``1. e4 e5`` (or ``1... e5``): the moves from ``board``, numbered."""
    board = board.copy()
    tokens = []
    for move in moves:
        if board.turn == WHITE:
            tokens.append(f"{board.fullmove_number}. {_san(board, move)}")
        elif not tokens:
            tokens.append(f"{board.fullmove_number}... {_san(board, move)}")
        else:
            tokens.append(_san(board, move))
        board.push(move)
    return " ".join(tokens)


# ---- headers ----

class Headers(MutableMapping[str, str]):
    """A game's tags: a mapping of names (case-sensitive) to values, the
    Seven Tag Roster first, in its order, then the others as they were set.

    ``Headers()`` holds the roster with its unknown values (``"?"``,
    ``"????.??.??"``, ``"*"``); ``Headers({})`` holds nothing.

    >>> import bitboards.pgn
    >>> headers = bitboards.pgn.Headers(White="Carlsen", ECO="C20")
    >>> list(headers)[:7] == bitboards.pgn.TAG_ROSTER, headers["White"], list(headers)[-1]
    (True, 'Carlsen', 'ECO')
    """

    def __init__(self, data: Optional[Union[Mapping[str, str], Iterable[Tuple[str, str]]]] = None,
                 **kwargs: str) -> None:
        self._roster: Dict[str, str] = {}
        self._others: Dict[str, str] = {}
        if data is None:
            data = _ROSTER_DEFAULTS
        self.update(data, **kwargs)

    @classmethod
    def _of(cls, roster: Dict[str, str], others: Dict[str, str]) -> "Headers":
        """Headers holding these dicts as they are: the roster's tags and the
        others, their names already checked (``read_game``'s)."""
        headers = cls.__new__(cls)
        headers._roster = roster
        headers._others = others
        return headers

    def is_chess960(self) -> bool:
        """Whether the Variant tag names Chess960."""
        return self.get("Variant", "").lower() in _CHESS960_NAMES

    def is_wild(self) -> bool:
        """Whether the Variant tag is one of ICS's wild/0 .. wild/8a."""
        return self.get("Variant", "").lower() in _WILD_NAMES

    def variant(self) -> Type[Board]:
        """The board class of the Variant tag: ``bitboards.Board`` for
        standard chess, Chess960 and the wild ones; ``ValueError`` for other
        variants (this package plays standard chess and Chess960)."""
        if "Variant" not in self or self.is_chess960() or self.is_wild():
            return Board
        name = self["Variant"]
        if name.lower() in _STANDARD_NAMES:
            return Board
        raise ValueError(f"unsupported variant: {name}")

    def board(self) -> Board:
        """The starting position: the FEN tag's, or the standard one."""
        board_type = self.variant()
        board = board_type(self.get("FEN", STARTING_FEN), chess960=self.is_chess960())
        if not board.chess960 and _has_chess960_castling(board):
            board.chess960 = True
        return board

    def __setitem__(self, key: str, value: str) -> None:
        if not isinstance(key, str):
            raise TypeError(f"pgn header tag must be str, not {type(key).__name__}")
        if not isinstance(value, str):
            raise TypeError(f"pgn header value must be str, not {type(value).__name__}")
        if key in _ROSTER_DEFAULTS:
            target = self._roster
        elif TAG_NAME_REGEX.match(key):
            target = self._others
        else:
            raise ValueError(f"invalid pgn header tag: {key!r}")
        if "\n" in value or "\r" in value:
            raise ValueError(f"line break in pgn header {key}: {value!r}")
        target[key] = value

    def __getitem__(self, key: str) -> str:
        if key in _ROSTER_DEFAULTS:
            return self._roster[key]
        return self._others[key]

    def __delitem__(self, key: str) -> None:
        if key in _ROSTER_DEFAULTS:
            del self._roster[key]
        else:
            del self._others[key]

    def __iter__(self) -> Iterator[str]:
        for key in TAG_ROSTER:
            if key in self._roster:
                yield key
        yield from self._others

    def __len__(self) -> int:
        return len(self._roster) + len(self._others)

    def copy(self) -> "Headers":
        """A copy of these headers."""
        return type(self)(self)

    def __copy__(self) -> "Headers":
        return self.copy()

    def __repr__(self) -> str:
        pairs = ", ".join(f"{key}={value!r}" for key, value in self.items())
        return f"{type(self).__name__}({pairs})"

    @classmethod
    def builder(cls) -> "HeadersBuilder":
        """A visitor that reads a game's headers only (``read_game(handle, Visitor=Headers.builder)``)."""
        return HeadersBuilder(Headers=cls)


# ---- comments' commands: [%clk], [%emt], [%eval], [%csl]/[%cal] ----

def _format_time(seconds: float) -> str:
    seconds = max(0.0, float(seconds))
    hours = int(seconds // 3600)
    minutes = int(seconds % 3600 // 60)
    rest = f"{seconds % 60:06.3f}".rstrip("0").rstrip(".")
    return f"{hours}:{minutes:02}:{rest}"


def _time_of(match: "re.Match[str]") -> float:
    return int(match.group(1)) * 3600 + int(match.group(2)) * 60 + float(match.group(3))


def _cut(comment: str, regex: "re.Pattern[str]", count: int = 0) -> str:
    """The comment without the commands ``regex`` (a ``_spaced`` one) finds
    (the first ``count``; 0: all), each with the whitespace around it
    closed up: one character stays where there was some on both sides."""
    return regex.sub(lambda match: match.group("trail") if match.group("lead") else "", comment, count)


def _set_command(comment: str, regex: "re.Pattern[str]", command: Optional[str],
                 separators: str = " \n") -> str:
    """Replaces the first command ``regex`` finds by ``command`` (removes it
    when None), or appends ``command`` when the comment has none, after a
    space unless the comment is empty or ends with one of ``separators``
    (as python-chess does: a space or a line break for clocks, a space for
    evals)."""
    match = regex.search(comment)
    if match is None:
        if command is None:
            return comment
        if comment and comment[-1] not in separators:
            return f"{comment} {command}"
        return comment + command
    if command is None:
        return _cut(comment, _SPACED[regex], 1)
    return comment[:match.start()] + command + comment[match.end():]


# ---- the game tree ----

NodeT = TypeVar("NodeT", bound="GameNode")
GameT = TypeVar("GameT", bound="Game")
ResultT = TypeVar("ResultT")
MainlineMapT = TypeVar("MainlineMapT")


def _emit_node(node: "ChildNode", board: Board, visitor: "BaseVisitor[Any]") -> None:
    """A node's visitor calls, ``board`` being its parent's position (left as it was)."""
    if node.starting_comment:
        visitor.visit_comment(node.starting_comment)
    visitor.visit_move(board, node.move)
    board.push(node.move)
    visitor.visit_board(board)
    board.pop()
    for nag in sorted(node.nags):
        visitor.visit_nag(nag)
    if node.comment:
        visitor.visit_comment(node.comment)


class _EndVariation:
    pass


_END_VARIATION = _EndVariation()


def _walk(node: "GameNode", board: Board, visitor: "BaseVisitor[Any]") -> None:
    """The visitor calls of what follows ``node`` (its main line and all
    variations, in PGN order), ``board`` being ``node``'s position. Without
    recursion: a game may be thousands of moves deep."""
    todo: List[Any] = [(node, board)]
    while todo:
        item = todo.pop()
        if item is _END_VARIATION:
            visitor.end_variation()
            continue
        if isinstance(item, tuple) and len(item) == 3:
            # The start of a variation: the alternative node and its parent's position.
            _, alternative, parent_board = item
            if visitor.begin_variation() is not SKIP:
                _emit_node(alternative, parent_board, visitor)
                after = parent_board.copy()
                after.push(alternative.move)
                todo.append((alternative, after))
            continue
        current, current_board = item
        while current.variations:
            main = current.variations[0]
            _emit_node(main, current_board, visitor)
            if len(current.variations) > 1:
                after = current_board.copy()
                after.push(main.move)
                todo.append((main, after))
                for alternative in reversed(current.variations[1:]):
                    todo.append(_END_VARIATION)
                    todo.append(("begin", alternative, current_board))
                break
            current_board.push(main.move)
            current = main


class GameNode(abc.ABC):
    """A node of a game tree: a ``Game`` (the root) or a ``ChildNode``.

    ``variations`` are the nodes that follow, the main line first;
    ``comment`` is the comment after the node's move (for a game, the one
    before the first move), ``starting_comment`` the one before a move that
    starts a variation, ``nags`` the node's NAGs.
    """

    # The fields in slots (a game of a hundred moves is a hundred nodes);
    # anything else a subclass sets goes in a __dict__ made when needed.
    __slots__ = ("parent", "move", "variations", "comment", "starting_comment", "_nags",
                 "__dict__", "__weakref__")

    parent: Optional["GameNode"]
    move: Optional[Move]
    variations: List["ChildNode"]
    comment: str
    starting_comment: str
    _nags: Optional[Set[int]]

    def __init__(self, *, comment: str = "") -> None:
        self.parent = None
        self.move = None
        self.variations = []
        self.comment = comment
        self.starting_comment = ""
        self._nags = None

    @property
    def nags(self) -> Set[int]:
        """The node's NAGs (a set, made when first asked for)."""
        nags = self._nags
        if nags is None:
            nags = self._nags = set()
        return nags

    @nags.setter
    def nags(self, nags: Set[int]) -> None:
        self._nags = nags

    @abc.abstractmethod
    def board(self) -> Board:
        """The position at this node (a new board, with the moves from the
        game's start on its stack)."""

    @abc.abstractmethod
    def ply(self) -> int:
        """The number of half-moves to this node from the start of chess
        (the starting position's count included)."""

    def turn(self) -> bool:
        """The side to move at this node (``WHITE`` is True)."""
        return self.ply() % 2 == 0

    def root(self) -> "GameNode":
        """The top of the tree."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def game(self) -> "Game":
        """The game this node is part of."""
        root = self.root()
        assert isinstance(root, Game), "the tree's root is not a Game"
        return root

    def end(self) -> "GameNode":
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        """Whether no move follows."""
        return not self.variations

    def starts_variation(self) -> bool:
        """Whether this node is an alternative to its parent's main move."""
        parent = self.parent
        if parent is None or not parent.variations:
            return False
        return parent.variations[0] is not self

    def is_mainline(self) -> bool:
        """Whether this node is on the game's main line."""
        node: GameNode = self
        while node.parent is not None:
            parent = node.parent
            if not parent.variations or parent.variations[0] is not node:
                return False
            node = parent
        return True

    def is_main_variation(self) -> bool:
        """Whether this node is its parent's main move (the root is)."""
        parent = self.parent
        if parent is None:
            return True
        return not parent.variations or parent.variations[0] is self

    def _index(self, move: Union[int, Move, "GameNode"]) -> int:
        for index, variation in enumerate(self.variations):
            if isinstance(move, GameNode):
                if variation is move:
                    return index
            elif isinstance(move, Move):
                if variation.move == move:
                    return index
            elif isinstance(move, int) and index == move:
                return index
        raise KeyError("variation not found")

    def variation(self, move: Union[int, Move, "GameNode"]) -> "ChildNode":
        """The following node by index, move or node; ``KeyError`` when none is."""
        return self.variations[self._index(move)]

    def __getitem__(self, move: Union[int, Move, "GameNode"]) -> "ChildNode":
        return self.variation(move)

    def __contains__(self, move: object) -> bool:
        return self.has_variation(move)  # type: ignore[arg-type]

    def has_variation(self, move: Union[int, Move, "GameNode"]) -> bool:
        """Whether a following node has this move (index or node)."""
        try:
            self._index(move)
        except KeyError:
            return False
        return True

    def promote_to_main(self, move: Union[int, Move, "GameNode"]) -> None:
        """Makes the variation the main one."""
        variation = self.variations.pop(self._index(move))
        self.variations.insert(0, variation)

    def promote(self, move: Union[int, Move, "GameNode"]) -> None:
        """Moves the variation one place up."""
        index = self._index(move)
        if index > 0:
            variations = self.variations
            variations[index - 1], variations[index] = variations[index], variations[index - 1]

    def demote(self, move: Union[int, Move, "GameNode"]) -> None:
        """Moves the variation one place down."""
        index = self._index(move)
        if index < len(self.variations) - 1:
            variations = self.variations
            variations[index + 1], variations[index] = variations[index], variations[index + 1]

    def remove_variation(self, move: Union[int, Move, "GameNode"]) -> None:
        """Removes the variation (and what follows it)."""
        del self.variations[self._index(move)]

    def add_variation(self, move: Move, *, comment: str = "", starting_comment: str = "",
                      nags: Iterable[int] = ()) -> "ChildNode":
        """Adds a node with ``move`` after the others and returns it."""
        return ChildNode(self, move, comment=comment, starting_comment=starting_comment, nags=nags)

    def add_main_variation(self, move: Move, *, comment: str = "",
                           nags: Iterable[int] = ()) -> "ChildNode":
        """Adds a node with ``move`` as the main line and returns it."""
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.remove(node)
        self.variations.insert(0, node)
        return node

    def next(self) -> Optional["ChildNode"]:
        """The main line's next node, or None at the end."""
        return self.variations[0] if self.variations else None

    def mainline(self) -> "Mainline[ChildNode]":
        """The nodes of the main line after this one."""
        return Mainline(self, _node_itself)

    def mainline_moves(self) -> "Mainline[Move]":
        """The moves of the main line after this node."""
        return Mainline(self, _node_move)

    def add_line(self, moves: Iterable[Move], *, comment: str = "", starting_comment: str = "",
                 nags: Iterable[int] = ()) -> "GameNode":
        """Adds the moves as a line of nodes from here (the first starting
        with ``starting_comment``, the last with ``comment`` and ``nags``)
        and returns its last node."""
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move, starting_comment=starting_comment)
            starting_comment = ""
        if comment:
            node.comment = comment
        node.nags.update(nags)
        return node

    # The commands comments carry.

    def eval(self) -> Optional[Any]:
        """The ``[%eval]`` of the comment as ``bitboards.engine.PovScore``
        (from White's point of view), or None."""
        match = EVAL_REGEX.search(self.comment)
        if match is None:
            return None
        from .engine import Cp, Mate, PovScore
        if match.group(1) is not None:
            return PovScore(Mate(int(match.group(1))), WHITE)
        return PovScore(Cp(int(round(float(match.group(2)) * 100))), WHITE)

    def eval_depth(self) -> Optional[int]:
        """The depth of the ``[%eval]``, or None."""
        match = EVAL_REGEX.search(self.comment)
        return int(match.group(3)) if match is not None and match.group(3) else None

    def set_eval(self, score: Optional[Any], depth: Optional[int] = None) -> None:
        """Sets the comment's ``[%eval]`` to a ``PovScore`` (None removes it)."""
        command = None
        if score is not None:
            white = score.white()
            mate = white.mate()
            cp = white.score()
            depth_suffix = f",{int(depth)}" if depth is not None else ""
            if mate:
                command = f"[%eval #{mate}{depth_suffix}]"
            elif cp is not None:
                command = f"[%eval {cp / 100:.2f}{depth_suffix}]"
        self.comment = _set_command(self.comment, EVAL_REGEX, command, " ")

    def arrows(self) -> List[Any]:
        """The ``[%csl]`` circles and ``[%cal]`` arrows of the comment, as
        ``bitboards.svg.Arrow`` s, in order."""
        from .svg import Arrow
        found = []
        for match in ARROWS_REGEX.finditer(self.comment):
            for item in match.group(1).split(","):
                found.append(Arrow.from_pgn(item))
        return found

    def set_arrows(self, arrows: Iterable[Any]) -> None:
        """Replaces the comment's ``[%csl]``/``[%cal]`` by these (``Arrow`` s
        or ``(tail, head)`` pairs), written first."""
        from .svg import Arrow
        circles: List[str] = []
        lines: List[str] = []
        for arrow in arrows:
            if isinstance(arrow, (tuple, list)):
                tail, head = arrow
                arrow = Arrow(tail, head)
            (circles if arrow.tail == arrow.head else lines).append(arrow.pgn())
        comment = _cut(self.comment, _SPACED[ARROWS_REGEX])
        prefix = ""
        if circles:
            prefix += f"[%csl {','.join(circles)}]"
        if lines:
            prefix += f"[%cal {','.join(lines)}]"
        if prefix and comment and comment[0] not in " \n":
            comment = f"{prefix} {comment}"
        else:
            comment = prefix + comment
        self.comment = comment

    def clock(self) -> Optional[float]:
        """The ``[%clk]`` of the comment in seconds (the time left), or None."""
        match = CLOCK_REGEX.search(self.comment)
        return _time_of(match) if match is not None else None

    def set_clock(self, seconds: Optional[float]) -> None:
        """Sets the comment's ``[%clk]`` (None removes it)."""
        command = None if seconds is None else f"[%clk {_format_time(seconds)}]"
        self.comment = _set_command(self.comment, CLOCK_REGEX, command)

    def emt(self) -> Optional[float]:
        """The ``[%emt]`` of the comment in seconds (the move's time), or None."""
        match = EMT_REGEX.search(self.comment)
        return _time_of(match) if match is not None else None

    def set_emt(self, seconds: Optional[float]) -> None:
        """Sets the comment's ``[%emt]`` (None removes it)."""
        command = None if seconds is None else f"[%emt {_format_time(seconds)}]"
        self.comment = _set_command(self.comment, EMT_REGEX, command)

    # Traversal.

    @abc.abstractmethod
    def accept(self, visitor: "BaseVisitor[ResultT]") -> ResultT:
        """Has the visitor visit this node and what follows, in PGN order."""

    def accept_subgame(self, visitor: "BaseVisitor[ResultT]") -> ResultT:
        """Has the visitor visit what follows this node as a game of its own,
        starting at this node's position (a FEN tag says where)."""
        game = self.game()
        board = self.board()
        setup = Game.without_tag_roster()
        setup.setup(board)
        if visitor.begin_game() is not SKIP:
            if visitor.begin_headers() is not SKIP:
                for name, value in game.headers.items():
                    if name not in setup.headers:
                        visitor.visit_header(name, value)
                for name, value in setup.headers.items():
                    visitor.visit_header(name, value)
            if visitor.end_headers() is not SKIP:
                visitor.visit_board(board)
                _walk(self, board, visitor)
                visitor.visit_result(game.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def __str__(self) -> str:
        return self.accept(StringExporter(columns=None))


def _node_itself(node: "ChildNode") -> "ChildNode":
    return node


def _node_move(node: "ChildNode") -> Move:
    return node.move


class ChildNode(GameNode):
    """A node after a move: ``parent`` and ``move`` are set. Making one adds
    it to its parent's variations."""

    parent: GameNode
    move: Move

    def __init__(self, parent: GameNode, move: Move, *, comment: str = "",
                 starting_comment: str = "", nags: Iterable[int] = ()) -> None:
        # (GameNode's fields set here directly: this runs once a move read.)
        self.parent = parent
        self.move = move
        self.variations = []
        self.comment = comment
        self.starting_comment = starting_comment
        self._nags = set(nags) if nags else None
        parent.variations.append(self)

    def _moves_from_root(self) -> Tuple[GameNode, List[Move]]:
        moves = []
        node: GameNode = self
        while node.parent is not None:
            assert node.move is not None
            moves.append(node.move)
            node = node.parent
        moves.reverse()
        return node, moves

    def board(self) -> Board:
        root, moves = self._moves_from_root()
        board = root.board()
        for move in moves:
            board.push(move)
        return board

    def ply(self) -> int:
        depth = 0
        node: GameNode = self
        while node.parent is not None:
            depth += 1
            node = node.parent
        return node.ply() + depth

    def san(self) -> str:
        """The move in SAN, in the parent's position."""
        return _san(self.parent.board(), self.move)

    def uci(self, *, chess960: Optional[bool] = None) -> str:
        """The move in UCI (castling as the king's move to its square, or to
        the rook's in Chess960)."""
        return _uci(self.parent.board(), self.move, chess960)

    def end(self) -> "ChildNode":
        node = super().end()
        assert isinstance(node, ChildNode)
        return node

    def accept(self, visitor: "BaseVisitor[ResultT]") -> ResultT:
        """Has the visitor visit this node's move and what follows (its
        siblings left out), without a game's headers and result."""
        board = self.parent.board()
        _emit_node(self, board, visitor)
        board.push(self.move)
        _walk(self, board, visitor)
        return visitor.result()

    def __repr__(self) -> str:
        try:
            board = self.parent.board()
            number = f"{board.fullmove_number}{'.' if board.turn == WHITE else '...'}"
            text = f"{number} {_san(board, self.move)} ..."
        except ValueError:
            text = f"{self.move} ..."
        return f"<{type(self).__name__} at {id(self):#x} ({text})>"


class Game(GameNode):
    """A game: the root of the tree, with ``headers`` and the ``errors``
    met reading it (exceptions, as python-chess keeps them)."""

    headers: Headers
    errors: List[Exception]

    def __init__(self, headers: Optional[Union[Mapping[str, str], Iterable[Tuple[str, str]]]] = None) -> None:
        super().__init__()
        self.headers = Headers(headers)
        self.errors = []

    def board(self) -> Board:
        return self.headers.board()

    def ply(self) -> int:
        board = self.board()
        return 2 * (board.fullmove_number - 1) + (board.turn == BLACK)

    def setup(self, board: Union[Board, str]) -> None:
        """Sets the FEN, SetUp and Variant tags for a start from this
        position (a board or a FEN); the standard start has none."""
        if isinstance(board, str):
            position = Board(board)
            if _has_chess960_castling(position):
                position.chess960 = True
        else:
            position = board
        fen = position.fen()
        if fen == STARTING_FEN:
            self.headers.pop("FEN", None)
            self.headers.pop("SetUp", None)
        else:
            self.headers["FEN"] = fen
            self.headers["SetUp"] = "1"
        if position.chess960:
            self.headers["Variant"] = "Chess960"
        else:
            self.headers.pop("Variant", None)

    def accept(self, visitor: "BaseVisitor[ResultT]") -> ResultT:
        """Has the visitor visit the game: headers, comment, moves and
        variations, result."""
        if visitor.begin_game() is not SKIP:
            # As python-chess's: no begin_headers call here (accept_subgame has one).
            for name, value in self.headers.items():
                visitor.visit_header(name, value)
            if visitor.end_headers() is not SKIP:
                board = self.board()
                visitor.visit_board(board)
                if self.comment:
                    visitor.visit_comment(self.comment)
                _walk(self, board, visitor)
                visitor.visit_result(self.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def time_control(self) -> TimeControl:
        """The TimeControl tag, read (``ValueError`` when malformed)."""
        return parse_time_control(self.headers.get("TimeControl", ""))

    @classmethod
    def from_board(cls: Type[GameT], board: Board) -> GameT:
        """The game of a board's moves, from its root position, with its
        result by the rules."""
        game = cls()
        game.setup(board.root())
        node: GameNode = game
        for move in board.move_stack:
            node = node.add_variation(move)
        game.headers["Result"] = _result(board)
        return game

    @classmethod
    def without_tag_roster(cls: Type[GameT]) -> GameT:
        """A game with no headers at all."""
        return cls(headers={})

    @classmethod
    def builder(cls: Type[GameT]) -> "GameBuilder[GameT]":
        """A ``GameBuilder`` of this class (``read_game(handle, Visitor=MyGame.builder)``)."""
        return GameBuilder(Game=cls)

    def __repr__(self) -> str:
        headers = self.headers
        errors = f", {len(self.errors)} errors" if self.errors else ""
        return (f"<{type(self).__name__} at {id(self):#x} ({headers.get('White', '?')!r} vs. "
                f"{headers.get('Black', '?')!r}, {headers.get('Date', '????.??.??')!r} at "
                f"{headers.get('Site', '?')!r}{errors})>")


class Mainline(Generic[MainlineMapT]):
    """The main line after a node, each node mapped by a function (the
    nodes themselves for ``mainline()``, their moves for ``mainline_moves()``)."""

    def __init__(self, start: GameNode, f: Callable[[ChildNode], MainlineMapT]) -> None:
        self.start = start
        self.f = f

    def __bool__(self) -> bool:
        return bool(self.start.variations)

    def __iter__(self) -> Iterator[MainlineMapT]:
        node = self.start
        f = self.f
        if f is _node_itself:
            # The common case, without a call a node.
            variations = node.variations
            while variations:
                node = variations[0]
                variations = node.variations
                yield node  # type: ignore[misc]
            return
        while node.variations:
            node = node.variations[0]
            yield f(node)

    def __reversed__(self) -> Iterator[MainlineMapT]:
        node = self.start.end()
        while node is not self.start and isinstance(node, ChildNode):
            yield self.f(node)
            node = node.parent

    def accept(self, visitor: "BaseVisitor[ResultT]") -> ResultT:
        """Has the visitor visit the main line's moves (with their comments
        and NAGs, not their variations)."""
        node = self.start
        board = self.start.board()
        while node.variations:
            child = node.variations[0]
            _emit_node(child, board, visitor)
            board.push(child.move)
            node = child
        return visitor.result()

    def __str__(self) -> str:
        return self.accept(StringExporter(columns=None))

    def __repr__(self) -> str:
        moves = [node.move for node in Mainline(self.start, _node_itself)]
        return f"<Mainline at {id(self):#x} ({_variation_san(self.start.board(), moves)})>"


#: The main line's moves (what ``mainline_moves()`` returns).
MainlineMoves = Mainline[Move]


# ---- visitors ----

class BaseVisitor(abc.ABC, Generic[ResultT]):
    """What ``read_game`` and ``accept`` call, in PGN order: ``begin_game``,
    ``begin_headers``, ``visit_header`` for each tag, ``end_headers``,
    ``visit_board`` (the start), then for the movetext ``visit_move`` (the
    position before the move) and ``visit_board`` (after), ``visit_comment``,
    ``visit_nag``, ``begin_variation``/``end_variation``, ``visit_result``;
    ``end_game``; ``result()`` is what ``read_game`` returns. Returning
    ``SKIP`` from ``begin_game``, ``begin_headers``, ``end_headers`` or
    ``begin_variation`` leaves that part out."""

    def begin_game(self) -> Optional[SkipType]:
        """A game starts."""
        return None

    def begin_headers(self) -> Optional[Union[Headers, SkipType]]:
        """Its headers start (a ``Headers`` returned is the one being filled)."""
        return None

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        """A tag pair."""

    def end_headers(self) -> Optional[SkipType]:
        """The headers end (``SKIP``: leave out the movetext)."""
        return None

    def begin_parse_san(self, board: Board, san: str) -> Optional[SkipType]:
        """A move token is about to be parsed (``SKIP``: leave it out)."""
        return None

    def parse_san(self, board: Board, san: str) -> Move:
        """The move a movetext token stands for in ``board``'s position:
        SAN, also long algebraic (``e2-e4``), UCI (``g1f3``) and the null
        move (``--``, ``Z0``, ``0000``, ``@@@@``). ``ValueError`` otherwise."""
        try:
            return board.parse_san(san)
        except ValueError as error:
            if san in _NULL_MOVE_TOKENS:
                return Move.null()
            match = _LONG_MOVE.match(san)
            if match is None:
                raise
            promotion = (match.group(3) or "").lower()
            try:
                return board.parse_uci(match.group(1) + match.group(2) + promotion)
            except ValueError:
                raise error from None

    def visit_move(self, board: Board, move: Move) -> None:
        """A move, in ``board``'s position (the one before the move)."""

    def visit_board(self, board: Board) -> None:
        """The position: the start, then after each move."""

    def visit_comment(self, comment: str) -> None:
        """A comment."""

    def visit_nag(self, nag: int) -> None:
        """A NAG."""

    def begin_variation(self) -> Optional[SkipType]:
        """A variation starts: an alternative to the last move visited."""
        return None

    def end_variation(self) -> None:
        """The variation ends."""

    def visit_result(self, result: str) -> None:
        """The game's result token."""

    def end_game(self) -> None:
        """The game ends."""

    @abc.abstractmethod
    def result(self) -> ResultT:
        """What the visit made."""

    def handle_error(self, error: Exception) -> None:
        """A part of the game could not be read (a move, the FEN, the
        variant): raises it by default."""
        raise error


class GameBuilder(BaseVisitor[GameT]):
    """Builds the game tree (what ``read_game`` uses by default). Errors
    are logged to ``LOGGER`` and kept in the game's ``errors``."""

    game: GameT
    variation_stack: List[GameNode]

    def __init__(self, *, Game: Type[Any] = Game) -> None:
        self.Game: Type[GameT] = Game

    def begin_game(self) -> None:
        self.game = self.Game()
        self.variation_stack = [self.game]
        self.starting_comment = ""
        self.in_variation = False

    def begin_headers(self) -> Headers:
        return self.game.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.game.headers[tagname] = tagvalue

    def visit_nag(self, nag: int) -> None:
        self.variation_stack[-1].nags.add(nag)

    def begin_variation(self) -> None:
        parent = self.variation_stack[-1].parent
        assert parent is not None, "a variation needs a move to be an alternative to"
        self.variation_stack.append(parent)
        self.in_variation = False

    def end_variation(self) -> None:
        self.variation_stack.pop()

    def visit_result(self, result: str) -> None:
        if self.game.headers.get("Result", "*") == "*":
            self.game.headers["Result"] = result

    def visit_comment(self, comment: str) -> None:
        node = self.variation_stack[-1]
        if self.in_variation or (node.parent is None and not node.variations):
            # After a move, or before the game's first move.
            node.comment = _join_comments(node.comment, comment)
        else:
            # Before the first move of a variation.
            self.starting_comment = _join_comments(self.starting_comment, comment)

    def visit_move(self, board: Board, move: Move) -> None:
        parent = self.variation_stack[-1]
        if type(parent).add_variation is GameNode.add_variation:
            node = ChildNode(parent, move, starting_comment=self.starting_comment)
        else:
            node = parent.add_variation(move)
            node.starting_comment = self.starting_comment
        self.starting_comment = ""
        self.variation_stack[-1] = node
        self.in_variation = True

    def handle_error(self, error: Exception) -> None:
        LOGGER.error("%s while parsing %r", error, self.game)
        self.game.errors.append(error)

    def result(self) -> GameT:
        return self.game


def _join_comments(first: str, second: str) -> str:
    if first and second:
        return f"{first} {second}"
    return first or second


class HeadersBuilder(BaseVisitor[Headers]):
    """Reads a game's headers and skips its movetext (``read_headers``)."""

    def __init__(self, *, Headers: Type[Headers] = Headers) -> None:
        self.Headers = Headers

    def begin_headers(self) -> Headers:
        self.headers = self.Headers({})
        return self.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def end_headers(self) -> SkipType:
        return SKIP

    def result(self) -> Headers:
        return self.headers


class BoardBuilder(BaseVisitor[Board]):
    """Plays the main line and returns its final position (variations are
    skipped)."""

    def begin_game(self) -> None:
        self.board = Board()

    def begin_variation(self) -> SkipType:
        return SKIP

    def visit_board(self, board: Board) -> None:
        self.board = board

    def handle_error(self, error: Exception) -> None:
        pass

    def result(self) -> Board:
        return self.board


class SkipVisitor(BaseVisitor[bool]):
    """Skips a game (``skip_game``)."""

    def begin_game(self) -> SkipType:
        return SKIP

    def end_headers(self) -> SkipType:
        return SKIP

    def begin_variation(self) -> SkipType:
        return SKIP

    def result(self) -> bool:
        return True


class StringExporterMixin:
    """Writes PGN: tokens wrapped at ``columns`` (None: no wrapping), with
    or without the headers, comments (and NAGs) and variations."""

    def __init__(self, *, columns: Optional[int] = 80, headers: bool = True,
                 comments: bool = True, variations: bool = True) -> None:
        self.columns = columns
        self.headers = headers
        self.comments = comments
        self.variations = variations
        self.found_headers = False
        self.force_movenumber = True
        self.variation_depth = 0
        self.current_line = ""

    def flush_current_line(self) -> None:
        if self.current_line:
            self.write_line_text(self.current_line.rstrip())
        self.current_line = ""

    def write_line_text(self, line: str) -> None:
        raise NotImplementedError

    def write_token(self, token: str) -> None:
        if (self.columns is not None and self.current_line
                and self.columns - len(self.current_line) < len(token)):
            self.flush_current_line()
        self.current_line += token

    def write_line(self, line: str = "") -> None:
        self.flush_current_line()
        self.write_line_text(line.rstrip())

    def begin_game(self) -> None:
        self.found_headers = False
        self.force_movenumber = True
        self.variation_depth = 0

    def end_game(self) -> None:
        self.write_line()

    def begin_headers(self) -> Optional[SkipType]:
        self.found_headers = False
        return None if self.headers else SKIP

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        if self.headers:
            self.found_headers = True
            self.write_line(f'[{tagname} "{tagvalue}"]')

    def end_headers(self) -> None:
        if self.found_headers:
            self.write_line()

    def _writing(self) -> bool:
        return self.variations or not self.variation_depth

    def begin_variation(self) -> Optional[SkipType]:
        self.variation_depth += 1
        if not self.variations:
            return SKIP
        self.write_token("( ")
        self.force_movenumber = True
        return None

    def end_variation(self) -> None:
        self.variation_depth -= 1
        if self.variations:
            self.write_token(") ")
            self.force_movenumber = True

    def visit_comment(self, comment: str) -> None:
        if self.comments and self._writing():
            self.write_token("{ " + comment.replace("}", "").strip() + " } ")
            self.force_movenumber = True

    def visit_nag(self, nag: int) -> None:
        if self.comments and self._writing():
            self.write_token(f"${nag} ")

    def visit_move(self, board: Board, move: Move) -> None:
        if not self._writing():
            return
        if board.turn == WHITE:
            self.write_token(f"{board.fullmove_number}. ")
        elif self.force_movenumber:
            self.write_token(f"{board.fullmove_number}... ")
        self.write_token(_san(board, move) + " ")
        self.force_movenumber = False

    def visit_result(self, result: str) -> None:
        self.write_token(result + " ")


class StringExporter(StringExporterMixin, BaseVisitor[str]):
    """Writes a game as a PGN string (``game.accept(exporter)`` returns it,
    so does ``str(exporter)``).

    >>> import bitboards, bitboards.pgn
    >>> game = bitboards.pgn.Game.without_tag_roster()
    >>> game.add_line([bitboards.Move.from_uci("e2e4"), bitboards.Move.from_uci("e7e5")]).comment = "open"
    >>> game.accept(bitboards.pgn.StringExporter())
    '1. e4 e5 { open } *'
    """

    def __init__(self, *, columns: Optional[int] = 80, headers: bool = True,
                 comments: bool = True, variations: bool = True) -> None:
        super().__init__(columns=columns, headers=headers, comments=comments,
                         variations=variations)
        self.lines: List[str] = []

    def write_line_text(self, line: str) -> None:
        self.lines.append(line)

    def result(self) -> str:
        if self.current_line:
            return "\n".join(self.lines + [self.current_line.rstrip()]).rstrip()
        return "\n".join(self.lines).rstrip()

    def __str__(self) -> str:
        return self.result()


class FileExporter(StringExporterMixin, BaseVisitor[int]):
    """Writes games as PGN to a text file object, each followed by an empty
    line; ``result()`` is the number of characters written."""

    def __init__(self, handle: TextIO, *, columns: Optional[int] = 80, headers: bool = True,
                 comments: bool = True, variations: bool = True) -> None:
        super().__init__(columns=columns, headers=headers, comments=comments,
                         variations=variations)
        self.handle = handle
        self.written = 0

    def begin_game(self) -> None:
        super().begin_game()
        self.written = 0

    def write_line_text(self, line: str) -> None:
        self.written += self.handle.write(line + "\n")

    def result(self) -> int:
        return self.written

    def __repr__(self) -> str:
        return f"<FileExporter at {id(self):#x}>"


# ---- reading ----

def _readline(handle: Any) -> str:
    line = handle.readline()
    if isinstance(line, (bytes, bytearray)):
        return bytes(line).decode("utf-8", errors="replace")
    return line


def _skip_movetext(handle: Any, line: str) -> None:
    """Reads past the rest of a game's movetext, from ``line``."""
    in_comment = False
    while line:
        if not in_comment:
            if line.isspace():
                return
            if line.startswith("%"):
                line = _readline(handle)
                continue
        for match in SKIP_MOVETEXT_REGEX.finditer(line):
            char = match.group(0)
            if char == "{":
                in_comment = True
            elif char == "}":
                in_comment = False
            elif not in_comment:
                break
        line = _readline(handle)


class _Level:
    """One line of play being read: the main line or a variation."""

    __slots__ = ("board", "moves")

    def __init__(self, board: Board, moves: int = 0) -> None:
        self.board = board
        # Half-moves from the game's start.
        self.moves = moves


def _before_last_move(level: _Level) -> Optional[Board]:
    """A new board at the position before the level's last move (None when
    the board does not know it)."""
    branch = level.board.copy()
    try:
        branch.pop()
    except (IndexError, ValueError):
        return None
    return branch


@overload
def read_game(handle: TextIO, *, Visitor: Type[GameBuilder[Any]] = ...) -> Optional[Game]: ...
@overload
def read_game(handle: TextIO, *, Visitor: Callable[[], BaseVisitor[ResultT]]) -> Optional[ResultT]: ...
def read_game(handle: TextIO, *, Visitor: Any = GameBuilder) -> Any:
    """Reads the next game from a text file object and returns what the
    visitor (a class or factory, ``GameBuilder`` by default: a ``Game``)
    made of it; None at the end of the file. The file is left at the start
    of the next game.

    Errors do not raise with the default visitor: a move that does not parse
    ends its variation (in the main line, the game's movetext), and the
    errors are in ``game.errors`` (and logged to ``LOGGER``).

    >>> import io, bitboards.pgn
    >>> pgn = io.StringIO('[White "Tal"]\\n\\n1. e4 e5 2. Qh5?! Nc6 *\\n\\n1. d4 *\\n')
    >>> first, second = bitboards.pgn.read_game(pgn), bitboards.pgn.read_game(pgn)
    >>> first.headers["White"], first.end().ply(), second.next().san(), bitboards.pgn.read_game(pgn)
    ('Tal', 4, 'd4', None)
    """
    visitor = Visitor()
    if type(visitor) is GameBuilder and visitor.Game is Game:
        return _read_built_game(handle, visitor)

    line = _readline(handle).lstrip("\ufeff")
    while line.isspace() or line.startswith("%") or line.startswith(";"):
        line = _readline(handle)

    # Headers.
    found_game = False
    skipping = False
    tags: Dict[str, str] = {}
    blank_lines = 0
    while line:
        if line.startswith("%") or line.startswith(";"):
            line = _readline(handle)
            continue
        if blank_lines < 1 and line.isspace():
            blank_lines += 1
            line = _readline(handle)
            continue
        if not found_game:
            found_game = True
            skipping = visitor.begin_game() is SKIP
            if not skipping:
                visitor.begin_headers()
        if not line.startswith("["):
            break
        blank_lines = 0
        if not skipping:
            match = TAG_REGEX.match(line)
            if match is not None:
                tags[match.group(1)] = match.group(2)
                visitor.visit_header(match.group(1), match.group(2))
        line = _readline(handle)

    if not found_game:
        return None

    board: Optional[Board] = None
    if not skipping:
        skipping = visitor.end_headers() is SKIP
    if not skipping:
        board = _start_board(Headers(tags), visitor)
        if board is None:
            skipping = True
        else:
            visitor.visit_board(board)

    if skipping or board is None:
        _skip_movetext(handle, line)
        visitor.end_game()
        return visitor.result()

    _visit_movetext(_movetext_tokens(lambda: _readline(handle), line), board, visitor)
    visitor.end_game()
    return visitor.result()


def _start_board(headers: Headers, visitor: BaseVisitor[Any]) -> Optional[Board]:
    """The board a game starts from (its FEN and Variant tags; Chess960 where
    its castling rights need it); None, the error handed to the visitor,
    when there is none."""
    try:
        headers.variant()
    except ValueError as error:
        visitor.handle_error(error)
    try:
        board = Board(headers.get("FEN", STARTING_FEN), chess960=headers.is_chess960())
    except ValueError as error:
        visitor.handle_error(error)
        return None
    if not board.chess960 and _has_chess960_castling(board):
        board.chess960 = True
    return board


def _read_built_game(handle: Any, visitor: GameBuilder[Game]) -> Optional[Game]:
    """``read_game`` with the default ``GameBuilder``: what the general
    reader does, with the headers set at once and the tree built in Rust
    (``build_game_tree``); the general reader where that cannot."""
    line = handle.readline()
    if isinstance(line, (bytes, bytearray)):
        def readline() -> str:
            return _readline(handle)
        line = bytes(line).decode("utf-8", errors="replace")
    else:
        readline = handle.readline
    line = line.lstrip("\ufeff")
    while line.isspace() or line.startswith("%") or line.startswith(";"):
        line = readline()

    # Headers: the roster's defaults, then the tags as they come (their
    # names are valid: TAG_REGEX's are TAG_NAME_REGEX's), read in Rust.
    roster = dict(_ROSTER_DEFAULTS)
    line, found_game, others = _bitboards.read_tags(readline, line, roster)
    if not found_game:
        return None

    # Game.__init__ but for its headers' checks.
    game = Game.__new__(Game)
    GameNode.__init__(game)
    headers = game.headers = Headers._of(roster, others)
    game.errors = []
    visitor.game = game
    visitor.variation_stack = [game]
    visitor.starting_comment = ""
    visitor.in_variation = False

    board = _start_board(headers, visitor)
    if board is None:
        _skip_movetext(handle, line)
        return game

    # The movetext: to an empty line outside a comment.
    parts = []
    while True:
        while line and not line.isspace():
            parts.append(line)
            line = readline()
        text = "".join(parts)
        built = _bitboards.build_game_tree(game, ChildNode, board, text)
        if built is not None and (built[0] or not line):
            for result in built[1]:
                visitor.visit_result(result)
            return game
        GameNode.__init__(game)  # a fresh tree
        if built is None:
            # Read again by the general reader.
            _visit_movetext(_bitboards.movetext_tokens(text)[0], board, visitor)
            return game
        # An empty line inside a comment: read on.
        parts.append(line)
        line = readline()


def _movetext_tokens(readline: Callable[[], str], line: str) -> List[Tuple[Any, ...]]:
    """The tokens of one game's movetext, from ``line`` on: to an empty line
    outside a comment, or the end of the file (``_bitboards.movetext_tokens``,
    the tokenizer ``build_game_tree`` reads with)."""
    parts = []
    while True:
        while line and not line.isspace():
            parts.append(line)
            line = readline()
        tokens, complete = _bitboards.movetext_tokens("".join(parts))
        if complete or not line:
            return tokens
        # An empty line inside a comment: read on.
        parts.append(line)
        line = readline()


def _visit_movetext(tokens: List[Tuple[Any, ...]], board: Board, visitor: BaseVisitor[Any]) -> None:
    """Hands one game's movetext tokens to ``visitor`` as python-chess's
    reader does. The Rust tree builder (``build_game_tree``) does this for
    ``GameBuilder``; this is the rest: any other visitor (its methods are
    Python's to call), and what the builder leaves to it (a move that
    does not parse, whose error the visitor handles; a null move or a drop;
    a result inside a variation; a setup the move generator does not
    take)."""
    levels = [_Level(board)]
    # Skipping: the depth of brackets in a variation being left out (0: not
    # skipping), whether leaving it pops a level, and whether the rest of
    # the game is left out (after an error in the main line).
    skip_depth = 0
    skip_pops = False
    skip_game = False
    # The visitor's methods, None where they are BaseVisitor's no-ops (not
    # called then: this loop runs once a token).
    visitor_type = type(visitor)
    begin_parse_san = (None if visitor_type.begin_parse_san is BaseVisitor.begin_parse_san
                       else visitor.begin_parse_san)
    parse_san = visitor.parse_san
    default_parse_san = visitor_type.parse_san is BaseVisitor.parse_san
    visit_move = visitor.visit_move
    visit_board: Optional[Callable[[Board], None]] = (
        None if visitor_type.visit_board is BaseVisitor.visit_board else visitor.visit_board)
    for token in tokens:
        kind = token[0]
        if kind == "move" and not (skip_depth or skip_game):
            # The common case first.
            current = levels[-1]
            board = current.board
            san = token[1]
            if begin_parse_san is not None and begin_parse_san(board, san) is SKIP:
                if visit_board is not None:
                    visit_board(board)
                continue
            try:
                try:
                    move = board.parse_san(san) if default_parse_san else parse_san(board, san)
                except ValueError:
                    if not default_parse_san:
                        raise
                    move = parse_san(board, san)  # its fallbacks
                if not move:
                    # A null move the board refuses (in check) is an
                    # error before the visitor hears of it.
                    board.copy().push(move)
                visit_move(board, move)
                board.push(move)
            except ValueError as error:
                visitor.handle_error(error)
                if len(levels) > 1:
                    skip_depth = 1
                    skip_pops = True
                else:
                    skip_game = True
                # As python-chess does, the position (unchanged) after a move that failed.
                if visit_board is not None:
                    visit_board(board)
                continue
            current.moves += 1
            if visit_board is not None:
                visit_board(board)
            continue
        if kind == "comment":
            text, closed = token[1], token[2]
            if not (skip_depth or skip_game):
                if text.startswith(" "):
                    text = text[1:]
                # Not closed before the end of the file: no closing space
                # to take off.
                if closed and text.endswith(" "):
                    text = text[:-1]
                visitor.visit_comment(text)
            if not closed:
                return
            continue
        if skip_game:
            continue
        if kind == "open":
            if skip_depth:
                skip_depth += 1
            elif levels[-1].moves:
                # (As python-chess: any move since the game's start will
                # do, even one before this variation.)
                current = levels[-1]
                branch = _before_last_move(current)
                if branch is None:
                    continue
                if visitor.begin_variation() is SKIP:
                    skip_depth = 1
                    skip_pops = False
                else:
                    levels.append(_Level(branch, current.moves - 1))
            continue
        if kind == "close":
            if skip_depth > 1:
                skip_depth -= 1
            elif skip_depth == 1:
                skip_depth = 0
                if skip_pops:
                    levels.pop()
                visitor.end_variation()
            elif len(levels) > 1:
                levels.pop()
                visitor.end_variation()
            continue
        if skip_depth or kind == "move":
            continue
        if kind == "nag":
            visitor.visit_nag(token[1])
            continue
        if len(levels) == 1:
            visitor.visit_result(token[1])
            continue
        # A result inside a variation: python-chess reads it as a move,
        # which fails, and so does this.
        current = levels[-1]
        san = token[1]
        if begin_parse_san is not None and begin_parse_san(current.board, san) is SKIP:
            if visit_board is not None:
                visit_board(current.board)
            continue
        try:
            parse_san(current.board, san)
        except ValueError as error:
            visitor.handle_error(error)
            skip_depth = 1
            skip_pops = True
            if visit_board is not None:
                visit_board(current.board)


def read_headers(handle: TextIO) -> Optional[Headers]:
    """Reads the next game's headers and skips its movetext; None at the
    end of the file (seek back to read the game)."""
    return read_game(handle, Visitor=HeadersBuilder)


def skip_game(handle: TextIO) -> bool:
    """Skips the next game; False at the end of the file."""
    skipped = read_game(handle, Visitor=SkipVisitor)
    return bool(skipped)
