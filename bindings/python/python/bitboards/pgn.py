"""PGN databases read in Rust: games, Arrow tables and Parquet files.

Every function takes a path (``str`` or ``os.PathLike``; plain, ``.zst``,
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

import os
import sys
import warnings
from typing import IO, TYPE_CHECKING, Iterable, Iterator, Optional, Sequence, Union

from . import _bitboards
from ._bitboards import Game, Score

if TYPE_CHECKING:
    import pyarrow  # type: ignore  # (pyarrow has no type hints)

    # One PGN source: a path, a file's contents, or a binary or text file object.
    _Item = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes], IO[str]]
    # What the functions take: one source or a list of them.
    _Sources = Union[_Item, Sequence[_Item]]

__all__ = [
    "Game", "Score", "GAME_COLUMNS", "POSITION_COLUMNS", "read_games", "read_table", "to_parquet",
    "read_positions", "iter_positions",
]

#: The columns of ``read_table``, in order: the Lichess database's tags and
#: ``movetext``, then ``plies``, ``fen`` (final position), ``outcome`` (by the
#: rules), ``uci`` (the moves), ``clocks`` and ``evals`` (per move).
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
) -> Iterator[Game]:
    """The games of a PGN source, in order, as ``Game`` objects.

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
    is a ``ValueError``.
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
