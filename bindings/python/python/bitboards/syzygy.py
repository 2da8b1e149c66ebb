"""Syzygy endgame tablebases, probed in Rust, with python-chess's names.

``open_tablebase``, ``Tablebase`` (``add_directory``, ``add_file``,
``probe_wdl``, ``probe_dtz``, ``get_wdl``, ``get_dtz``, ``close``, use as a
context manager) and ``MissingTableError`` mean what python-chess's
``chess.syzygy`` names mean: code written for ``chess.syzygy`` works with
``import bitboards.syzygy as syzygy`` (and ``bitboards.Board`` boards, or
python-chess boards, read through their FEN). The answers are python-chess's:
WDL from the side to move (2 win, 1 cursed win, 0 draw, -1 blessed loss,
-2 loss), DTZ in plies under the fifty-move rule, en passant played out.

What python-chess does not have: ``Tablebase.probe_wdl_many`` probes a table
of positions (``bitboards.pgn.read_positions``' rows, or NumPy bitboards) on
every core with the GIL released, into a NumPy int8 array.

Tables are memory-mapped the first time a probe needs them, and every thread
may probe the same ``Tablebase``.

>>> import bitboards, bitboards.syzygy
>>> with bitboards.syzygy.open_tablebase("../tests/data/syzygy") as tablebase:
...     board = bitboards.Board("8/8/8/8/4k3/8/8/R3K3 w - - 0 1")
...     tablebase.probe_wdl(board), tablebase.probe_dtz(board)
(2, 25)
"""

from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple, Type, Union

from ._bitboards import MissingTableError, SyzygyTablebase

if TYPE_CHECKING:
    from types import TracebackType

    import numpy
    from numpy.typing import NDArray

__all__ = ["MissingTableError", "Tablebase", "open_tablebase", "TBPIECES"]

#: The most pieces a Syzygy table holds, kings included (python-chess's name).
TBPIECES = 7

_SUFFIXES = {".rtbw": "wdl", ".rtbz": "dtz"}


def _check_variant(VariantBoard: Optional[Type[Any]]) -> None:
    variant = getattr(VariantBoard, "uci_variant", "chess")
    if variant != "chess":
        raise ValueError(
            f"bitboards.syzygy probes standard chess tables (.rtbw, .rtbz), not {variant}: "
            "use chess.syzygy for variant tables"
        )


def _remove(directories: List[str]) -> None:
    for directory in directories:
        shutil.rmtree(directory, ignore_errors=True)
    directories.clear()


class Tablebase(SyzygyTablebase):
    """Syzygy tables: python-chess's ``chess.syzygy.Tablebase``.

    ``max_fds`` is accepted and does nothing: a table is memory-mapped and
    its file closed at once, so tables hold no file descriptors.
    ``VariantBoard`` may be None or a standard board class
    (``chess.Board``, ``bitboards.Board``); variant tables (atomic,
    antichess) are a ``ValueError``.

    ``probe_wdl``, ``probe_dtz``, ``get_wdl`` and ``get_dtz`` take a
    ``bitboards.Board``, or any board with a ``fen()`` method (a python-chess
    ``chess.Board``, read through its FEN: slower, by the FEN's cost). They
    raise ``MissingTableError`` (a ``KeyError``) for a table that was not
    added, ``KeyError`` for castling rights or more than seven pieces, and
    ``OSError`` for a file that cannot be read or is not a table;
    ``get_wdl``/``get_dtz`` give ``default`` where a ``KeyError`` would be
    raised.

    >>> import bitboards, bitboards.syzygy
    >>> tablebase = bitboards.syzygy.Tablebase()
    >>> tablebase.add_directory("../tests/data/syzygy", load_dtz=False)
    35
    >>> tablebase.probe_wdl(bitboards.Board("8/8/8/8/8/2k5/8/KR6 b - - 0 1"))
    -2
    >>> tablebase.get_dtz(bitboards.Board("8/8/8/8/8/2k5/8/KR6 b - - 0 1")) is None
    True
    >>> tablebase.close()
    """

    def __new__(cls, *, max_fds: Optional[int] = 128, VariantBoard: Optional[Type[Any]] = None) -> Tablebase:
        return super().__new__(cls)

    def __init__(self, *, max_fds: Optional[int] = 128, VariantBoard: Optional[Type[Any]] = None) -> None:
        _check_variant(VariantBoard)
        #: Accepted for python-chess's sake; unused (tables hold no descriptors).
        self.max_fds = max_fds
        # Directories of links to the files added one by one (add_file, and
        # add_directory with load_wdl or load_dtz False), removed by close()
        # or when the tablebase is collected.
        self._link_directories: List[str] = []
        weakref.finalize(self, _remove, self._link_directories)

    def add_directory(
        self, directory: Union[str, os.PathLike[str]], *, load_wdl: bool = True, load_dtz: bool = True
    ) -> int:
        """Adds the tables of ``directory`` (files named as tables:
        ``KQvKR.rtbw``, ``KQvKR.rtbz``) and returns how many files were
        added; with ``load_wdl`` or ``load_dtz`` False, only the other kind.
        A table of the same name added before is replaced. Nothing is read
        until a probe needs it. A directory that cannot be listed is an
        ``OSError`` (``FileNotFoundError`` when it does not exist).

        >>> import bitboards.syzygy
        >>> bitboards.syzygy.Tablebase().add_directory("../tests/data/syzygy")
        70
        """
        directory = os.fspath(directory)
        if load_wdl and load_dtz:
            return self._add_directory(directory)
        paths = [
            os.path.join(directory, name)
            for name in sorted(os.listdir(directory))
            if _wanted(name, load_wdl, load_dtz) and os.path.isfile(os.path.join(directory, name))
        ]
        return self._add_files(paths)

    def add_file(self, path: Union[str, os.PathLike[str]], *, load_wdl: bool = True, load_dtz: bool = True) -> int:
        """Adds one table file: 1 if ``path`` is a file named as a table of a
        kind asked for, else 0 (as python-chess's ``add_file``)."""
        path = os.fspath(path)
        if not (_wanted(os.path.basename(path), load_wdl, load_dtz) and os.path.isfile(path)):
            return 0
        return self._add_files([path])

    def _add_files(self, paths: Sequence[str]) -> int:
        """Adds these table files (each named as a table), through a
        directory of links to them; where links cannot be made (Windows
        without the privilege), by reading them into memory."""
        if not paths:
            return 0
        staging = tempfile.mkdtemp(prefix="bitboards-syzygy-")
        aliases: List[Tuple[str, str]] = []
        try:
            for path in paths:
                real = os.path.abspath(path)
                link = os.path.join(staging, os.path.basename(path))
                os.symlink(real, link)
                aliases.append((link, real))
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
            added = 0
            for path in paths:
                with open(path, "rb") as file:
                    data = file.read()
                try:
                    self._add_table_bytes(os.path.basename(path), data, os.path.abspath(path))
                except ValueError:  # not a table's name after all
                    continue
                added += 1
            return added
        self._link_directories.append(staging)
        return self._add_links(staging, aliases)

    def probe_wdl_many(
        self,
        positions: Any,
        turn: Any = None,
        *,
        castling: Any = None,
        ep_square: Any = None,
        default: Optional[int] = None,
    ) -> NDArray[numpy.int8]:
        """The WDL of many positions as a NumPy int8 array, probed on every
        core with the GIL released.

        ``positions`` is a ``pyarrow.Table`` or ``RecordBatch`` with the
        ``bitboards`` and ``turn`` columns of ``bitboards.pgn.read_positions``
        (and its ``castling`` and ``ep_square`` columns where it has them),
        or twelve bitboards a row as ``bitboards.planes`` takes them (a NumPy
        ``(N, 12)`` uint64 array or an Arrow ``bitboards`` column), with
        ``turn`` (True where White is to move) and optionally ``castling``
        (nonzero where the row has castling rights) and ``ep_square`` (the
        en passant square, 0-63; null, negative or past 63 for none). The
        halfmove clock does not change a WDL and is not read.

        Each row means what ``probe_wdl`` of its board means. Where a row
        cannot be probed: without ``default``, the first such row raises
        what ``probe_wdl`` would (``MissingTableError``, ``KeyError``),
        its message naming the row; with ``default`` (an int8), the rows
        for which ``get_wdl`` would give its default get ``default`` (-128,
        say, outside -2..2) instead. A row that is not a legal position
        (two pieces on a square, no king, the side not to move in check, an
        impossible en passant square) is a ``ValueError`` naming the row,
        and a table that cannot be read an ``OSError``, either way.

        >>> import numpy as np, bitboards, bitboards.syzygy
        >>> rows = np.zeros((2, 12), dtype=np.uint64)
        >>> rows[:, 3] = 1 << bitboards.A1                 # White's rook
        >>> rows[:, 5] = 1 << bitboards.B1                 # White's king
        >>> rows[:, 11] = 1 << bitboards.C3                # Black's king
        >>> with bitboards.syzygy.open_tablebase("../tests/data/syzygy") as tablebase:
        ...     tablebase.probe_wdl_many(rows, turn=np.array([True, False]))
        array([ 2, -2], dtype=int8)
        """
        import numpy as np

        from . import _as_numpy, _as_uint64_rows

        if hasattr(positions, "column_names"):
            if turn is not None or castling is not None or ep_square is not None:
                raise TypeError("a table brings its own turn, castling and ep_square columns: "
                                "pass turn=, castling= and ep_square= only with an array of bitboards")
            names = list(positions.column_names)
            for needed in ("bitboards", "turn"):
                if needed not in names:
                    raise ValueError(f"the table has no {needed!r} column "
                                     "(as bitboards.pgn.read_positions makes it)")
            turn = positions.column("turn")
            castling = positions.column("castling") if "castling" in names else None
            ep_square = positions.column("ep_square") if "ep_square" in names else None
            positions = positions.column("bitboards")
        elif turn is None:
            raise TypeError("probe_wdl_many(bitboards, turn): turn (True where White is to move) "
                            "is needed with an array of bitboards")
        if default is not None and not -128 <= int(default) <= 127:
            raise ValueError(f"default must fit an int8 (-128 to 127), not {default}")
        boards = _as_uint64_rows(positions, np).astype("<u8", copy=False)
        rows = boards.shape[0]

        def column(values: Any, name: str) -> Any:
            array = np.asarray(_as_numpy(values, np))
            if array.shape != (rows,):
                raise ValueError(f"{name} has shape {array.shape}; ({rows},) expected, one per row")
            return array

        turn_bytes = column(turn, "turn").astype(bool).tobytes()
        castling_bytes = None
        if castling is not None:
            castling_bytes = (column(castling, "castling") != 0).tobytes()
        ep_bytes = None
        if ep_square is not None:
            ep = column(ep_square, "ep_square")
            if ep.dtype == object:
                ep = np.array([-1 if value is None else value for value in ep], dtype=np.int64)
            with np.errstate(invalid="ignore"):
                valid = (ep >= 0) & (ep < 64)
            ep_bytes = np.where(valid, np.nan_to_num(ep), 255).astype(np.uint8).tobytes()
        data = self._probe_wdl_rows(boards.tobytes(), turn_bytes, castling_bytes, ep_bytes,
                                    None if default is None else int(default))
        return np.frombuffer(data, dtype=np.int8)

    def close(self) -> None:
        """Forgets every table (python-chess's ``close``): later probes raise
        ``MissingTableError`` until tables are added again. A batch being
        probed on another thread finishes first."""
        self._clear()
        _remove(self._link_directories)

    def __enter__(self) -> Tablebase:
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc_value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()


def _wanted(name: str, load_wdl: bool, load_dtz: bool) -> bool:
    kind = _SUFFIXES.get(os.path.splitext(name)[1])
    return (kind == "wdl" and load_wdl) or (kind == "dtz" and load_dtz)


def open_tablebase(
    directory: Union[str, os.PathLike[str]],
    *,
    load_wdl: bool = True,
    load_dtz: bool = True,
    max_fds: Optional[int] = 128,
    VariantBoard: Optional[Type[Any]] = None,
) -> Tablebase:
    """A ``Tablebase`` with the tables of ``directory`` (python-chess's
    ``open_tablebase``); add more with ``add_directory``. A probe needs the
    tables of the position's material and of every material a capture or
    promotion leads to. ``max_fds`` does nothing here (see ``Tablebase``).

    >>> import bitboards, bitboards.syzygy
    >>> tablebase = bitboards.syzygy.open_tablebase("../tests/data/syzygy")
    >>> tablebase.get_wdl(bitboards.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1"))
    2
    >>> tablebase.get_wdl(bitboards.Board("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), default="castling")
    'castling'
    """
    tables = Tablebase(max_fds=max_fds, VariantBoard=VariantBoard)
    tables.add_directory(directory, load_wdl=load_wdl, load_dtz=load_dtz)
    return tables
