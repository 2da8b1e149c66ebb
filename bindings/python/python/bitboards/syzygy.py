"""Syzygy endgame tablebases, probed in Rust, with python-chess's names.

``open_tablebase``, ``Tablebase`` (``add_directory``, ``add_file``,
``probe_wdl``, ``probe_dtz``, ``get_wdl``, ``get_dtz``, ``close``, use as a
context manager) and ``MissingTableError`` mean what python-chess's
``chess.syzygy`` names mean: code written for ``chess.syzygy`` works with
``import bitboards.syzygy as syzygy`` (and ``bitboards.Board`` boards, or
python-chess boards, read through their FEN). The answers are python-chess's:
WDL from the side to move (2 win, 1 cursed win, 0 draw, -1 blessed loss,
-2 loss), DTZ in plies under the fifty-move rule, en passant played out.

Below those, python-chess's lower-level names: the raw table probes
``Tablebase.probe_wdl_table``, ``probe_dtz_table``, ``probe_dtz_no_ep`` and
``probe_ab``; one table file opened alone, ``WdlTable`` and ``DtzTable``; and
the table-name helpers ``tablenames``, ``normalize_tablename``,
``is_tablename``, ``calc_key``, ``dependencies``, ``all_dependencies`` and
``dtz_before_zeroing``.

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
import re
import shutil
import tempfile
import weakref
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Type, Union

from ._bitboards import MissingTableError, SyzygyTablebase

if TYPE_CHECKING:
    from types import TracebackType

    import numpy
    from numpy.typing import NDArray

__all__ = [
    "MissingTableError",
    "Tablebase",
    "open_tablebase",
    "TBPIECES",
    "Table",
    "WdlTable",
    "DtzTable",
    "tablenames",
    "normalize_tablename",
    "is_tablename",
    "calc_key",
    "dependencies",
    "all_dependencies",
    "dtz_before_zeroing",
]

#: The most pieces a Syzygy table holds, kings included (python-chess's name).
TBPIECES = 7

_SUFFIXES = {".rtbw": "wdl", ".rtbz": "dtz"}


# Table names ----------------------------------------------------------------

#: The piece letters of a table's name, strongest first.
_LETTERS = "KQRBNP"
_NAME = re.compile(r"[KQRBNP]+v[KQRBNP]+")


def _sides(name: str) -> Tuple[str, str]:
    """The two sides of a table name (``"KRP"``, ``"KR"`` of ``"KRPvKR"``),
    each in the name's order; a ``ValueError`` for what is not one."""
    if not isinstance(name, str):
        raise TypeError(f"a table name is a str (KQvKR), not {type(name).__name__}")
    first, v, second = name.partition("v")
    if not v:
        raise ValueError(f"{name!r} is not a table name: no 'v' between the sides (KQvKR)")
    for side in (first, second):
        wrong = sorted(set(side) - set(_LETTERS))
        if wrong:
            raise ValueError(f"{name!r} is not a table name: {', '.join(map(repr, wrong))} "
                             "is not a piece letter (K, Q, R, B, N, P)")
    return first, second


def _sorted_side(side: str) -> str:
    return "".join(sorted(side, key=_LETTERS.index))


def _strength(side: str) -> Tuple[int, List[int]]:
    """What puts a side first in a table's name: more pieces, then the
    stronger piece by piece (a sorted side)."""
    return len(side), [-_LETTERS.index(letter) for letter in side]


def normalize_tablename(name: str, *, mirror: bool = False) -> str:
    """The name under which Syzygy files hold this material (python-chess's
    ``normalize_tablename``): each side's pieces in the order K, Q, R, B, N,
    P, and the stronger side first (more pieces, then the stronger pieces
    from the queen down; as named where both are alike). With ``mirror``,
    the other side first. A name that is not one (no ``v``, a letter that
    is not a piece's) is a ``ValueError``.

    >>> import bitboards.syzygy as syzygy
    >>> syzygy.normalize_tablename("KNNvKBB"), syzygy.normalize_tablename("KvKPR")
    ('KBBvKNN', 'KRPvK')
    >>> syzygy.normalize_tablename("KRPvK", mirror=True)
    'KvKRP'
    """
    first, second = (_sorted_side(side) for side in _sides(name))
    if (_strength(second) > _strength(first)) != mirror:
        first, second = second, first
    return f"{first}v{second}"


def is_tablename(
    name: str, *, one_king: bool = True, piece_count: Optional[int] = TBPIECES, normalized: bool = True
) -> bool:
    """Whether ``name`` is a table's name (python-chess's ``is_tablename``):
    piece letters on both sides of a ``v``, at most ``piece_count`` pieces
    (None: any number), normalized as ``normalize_tablename`` does it
    (unless ``normalized`` is False), and with ``one_king``, each side's
    first piece a king and not the kings alone (``KvK``).

    >>> import bitboards.syzygy as syzygy
    >>> syzygy.is_tablename("KRPvKR"), syzygy.is_tablename("KRvKRP"), syzygy.is_tablename("KvK")
    (True, False, False)
    """
    if piece_count is not None and len(name) > piece_count + 1:
        return False
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        return False
    if normalized and normalize_tablename(name) != name:
        return False
    if one_king:
        first, second = name.split("v", 1)
        return name != "KvK" and first.startswith("K") and second.startswith("K")
    return True


def dtz_before_zeroing(wdl: int) -> int:
    """The DTZ of a position whose best move zeroes (a capture or a pawn
    move) and has result ``wdl``: 1 for a win, 101 for a cursed win, 0 for a
    draw, -101 and -1 for a blessed loss and a loss (python-chess's
    ``dtz_before_zeroing``).

    >>> import bitboards.syzygy as syzygy
    >>> [syzygy.dtz_before_zeroing(wdl) for wdl in (-2, -1, 0, 1, 2)]
    [-1, -101, 0, 101, 1]
    """
    sign = (wdl > 0) - (wdl < 0)
    return sign * (1 if abs(wdl) == 2 else 101)


def calc_key(board: Any, *, mirror: bool = False) -> str:
    """The material of ``board`` as a table name, White's side first (Black's
    with ``mirror``), not normalized: ``KvKQ`` for a black queen
    (python-chess's ``calc_key``). ``board`` is a ``bitboards.Board`` or a
    python-chess board (anything with ``pieces_mask(piece_type, color)``).

    >>> import bitboards, bitboards.syzygy as syzygy
    >>> board = bitboards.Board("8/8/8/5N2/5K2/2kB4/8/8 b - - 0 1")
    >>> syzygy.calc_key(board), syzygy.calc_key(board, mirror=True)
    ('KBNvK', 'KvKBN')
    """
    sides = []
    for color in ((False, True) if mirror else (True, False)):
        side = ""
        # Piece types 6 (king) down to 1 (pawn): K, Q, R, B, N, P.
        for piece_type, letter in zip(range(6, 0, -1), _LETTERS):
            side += letter * bin(int(board.pieces_mask(piece_type, color))).count("1")
        sides.append(side)
    return "v".join(sides)


def _steps(name: str, one_king: bool) -> Iterator[str]:
    """The materials one capture or one promotion leads to from ``name``
    (normalized; a side keeps at least one piece; with ``one_king``, kings
    are neither captured nor promoted to)."""
    sides = list(_sides(name))
    pieces = _LETTERS[1:] if one_king else _LETTERS
    for at, side in enumerate(sides):
        for letter in sorted(set(side)):
            if letter in pieces and len(side) > 1:
                changed = list(sides)
                changed[at] = side.replace(letter, "", 1)
                yield normalize_tablename("v".join(changed))
        if "P" in side:
            for letter in pieces:
                if letter != "P":
                    changed = list(sides)
                    changed[at] = side.replace("P", letter, 1)
                    yield normalize_tablename("v".join(changed))


def dependencies(target: str, *, one_king: bool = True) -> Iterator[str]:
    """The tables one capture or one promotion leads to from ``target``,
    each once, normalized (python-chess's ``dependencies``): the tables a
    probe of ``target`` may need besides its own. With ``one_king``, kings
    are neither captured nor promoted to, and the kings alone (``KvK``,
    which needs no table) are left out.

    >>> import bitboards.syzygy as syzygy
    >>> sorted(syzygy.dependencies("KBNvK"))
    ['KBvK', 'KNvK']
    """
    seen: Set[str] = {"KvK"} if one_king else set()
    for name in _steps(target, one_king):
        if name not in seen:
            seen.add(name)
            yield name


def all_dependencies(targets: Iterable[str], *, one_king: bool = True) -> Iterator[str]:
    """``targets`` and every table their captures and promotions lead to,
    however many moves on, each once, normalized (python-chess's
    ``all_dependencies``): every table a probe of ``targets`` may need.

    >>> import bitboards.syzygy as syzygy
    >>> sorted(syzygy.all_dependencies(["KRvKP"]))
    ['KBvK', 'KNvK', 'KPvK', 'KQvK', 'KQvKR', 'KRvK', 'KRvKB', 'KRvKN', 'KRvKP', 'KRvKR']
    """
    seen: Set[str] = {"KvK"} if one_king else set()
    queue = [normalize_tablename(target) for target in targets]
    while queue:
        name = queue.pop(0)
        if name in seen:
            continue
        seen.add(name)
        yield name
        queue.extend(_steps(name, one_king))


def tablenames(*, one_king: bool = True, piece_count: int = 6) -> Iterator[str]:
    """The name of every table of up to ``piece_count`` pieces (python-chess's
    ``tablenames``; 6 by default, ``TBPIECES`` is 7), normalized, fewest
    pieces first. With ``one_king`` False, for variants without royal
    kings: any pieces on either side, kings counted as any other.

    >>> import bitboards.syzygy as syzygy
    >>> list(syzygy.tablenames(piece_count=3))
    ['KBvK', 'KNvK', 'KPvK', 'KQvK', 'KRvK']
    >>> sum(1 for _ in syzygy.tablenames())
    510
    """
    king = "K" if one_king else ""
    letters = _LETTERS[1:] if one_king else _LETTERS
    for count in range(2, piece_count + 1):
        names: Set[str] = set()
        others = count - 2 * len(king)
        for split in range(0 if one_king else 1, others // 2 + 1):
            for weaker in combinations_with_replacement(letters, split):
                for stronger in combinations_with_replacement(letters, others - split):
                    name = normalize_tablename(king + "".join(stronger) + "v" + king + "".join(weaker))
                    if name != "KvK" or not one_king:
                        names.add(name)
        yield from sorted(names)


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


class Table:
    """One table file opened alone (python-chess's ``chess.syzygy.Table``,
    the base of ``WdlTable`` and ``DtzTable``): ``path`` named as a table
    (``KRvKP.rtbw``), read the first time it is probed (or by
    ``init_table_wdl``/``init_table_dtz``). A name that is not a table's is
    a ``ValueError``; a file that cannot be read an ``OSError`` when it is
    first read. ``variant`` may be None or a standard board class.

    ``key`` is the table's normalized name, ``mirrored_key`` the same
    material with the other side first, ``symmetric`` whether the two are
    alike, ``num`` its pieces and ``has_pawns`` whether it has some.
    ``close()`` (or leaving a ``with`` block) forgets the file until the
    next probe.
    """

    _suffix = ""
    _kind = ""
    _magic = b""

    def __init__(self, path: Union[str, os.PathLike[str]], *, variant: Optional[Type[Any]] = None) -> None:
        _check_variant(variant)
        self.path = os.fspath(path)
        self.variant = variant
        name, suffix = os.path.splitext(os.path.basename(self.path))
        if not is_tablename(name, normalized=False):
            raise ValueError(f"{self.path!r} is not named as a Syzygy table (KRvKP{self._suffix or '.rtbw'})")
        if self._suffix and suffix != self._suffix:
            raise ValueError(f"{self.path!r}: a {self._kind} table's file name ends in {self._suffix}")
        self.key = normalize_tablename(name)
        self.mirrored_key = normalize_tablename(name, mirror=True)
        self.symmetric = self.key == self.mirrored_key
        self.num = len(name) - 1
        self.has_pawns = "P" in name
        self.initialized = False
        self._tables: Optional[SyzygyTablebase] = None

    def _init(self) -> SyzygyTablebase:
        """The file, checked by its magic number and added to a tablebase of
        its own."""
        if self._tables is None:
            with open(self.path, "rb") as file:
                magic = file.read(4)
            if magic != self._magic:
                raise OSError(f"{self.path}: not a Syzygy {self._kind} table (it starts with "
                              f"{magic.hex() or 'nothing'}, not the magic number {self._magic.hex()})")
            tables = SyzygyTablebase()
            tables._add_file(self.path)
            self._tables = tables
            self.initialized = True
        return self._tables

    def _check(self, board: Any) -> None:
        key = calc_key(board)
        if key != self.key and key != self.mirrored_key:
            raise ValueError(f"the board's material is {key}, not this table's ({self.key}): {board.fen()}")

    def close(self) -> None:
        """Forgets the file (python-chess's ``close``); a later probe reads it again."""
        self._tables = None
        self.initialized = False

    def __enter__(self) -> Table:
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc_value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()


class WdlTable(Table):
    """One WDL file (``.rtbw``) opened alone: python-chess's ``WdlTable``.

    >>> import bitboards, bitboards.syzygy as syzygy
    >>> with syzygy.WdlTable("../tests/data/syzygy/KRvKP.rtbw") as table:
    ...     table.probe_wdl_table(bitboards.Board("8/8/2K5/8/4P3/8/8/3r3k b - - 1 1"))
    2
    """

    _suffix = ".rtbw"
    _kind = "WDL"
    _magic = bytes([0x71, 0xE8, 0x23, 0x5D])

    def init_table_wdl(self) -> None:
        """Reads the file's header now rather than at the first probe: an
        ``OSError`` if it cannot be read or is not a WDL table."""
        self._init()

    def probe_wdl_table(self, board: Any) -> int:
        """The table's value for ``board`` (of this table's material, else a
        ``ValueError``), as ``Tablebase.probe_wdl_table``: no capture or
        en passant played out."""
        tables = self._init()
        self._check(board)
        return tables.probe_wdl_table(board)


class DtzTable(Table):
    """One DTZ file (``.rtbz``) opened alone: python-chess's ``DtzTable``.

    >>> import bitboards, bitboards.syzygy as syzygy
    >>> with syzygy.DtzTable("../tests/data/syzygy/KRvKN.rtbz") as table:
    ...     board = bitboards.Board("7n/6k1/4R3/4K3/8/8/8/8 w - - 0 1")
    ...     table.probe_dtz_table(board, 2), table.probe_dtz_table(board.mirror(), 2)
    ((0, -1), (0, -1))
    """

    _suffix = ".rtbz"
    _kind = "DTZ"
    _magic = bytes([0xD7, 0x66, 0x0C, 0xA5])

    def init_table_dtz(self) -> None:
        """Reads the file's header now rather than at the first probe: an
        ``OSError`` if it cannot be read or is not a DTZ table."""
        self._init()

    def probe_dtz_table(self, board: Any, wdl: int) -> Tuple[int, int]:
        """The table's value for ``board`` (of this table's material, else a
        ``ValueError``) given its result ``wdl``, as
        ``Tablebase.probe_dtz_table``: ``(n, 1)``, or ``(0, -1)`` where the
        table holds the other side to move."""
        tables = self._init()
        self._check(board)
        return tables.probe_dtz_table(board, wdl)


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
    raised. python-chess's lower-level probes are here too:
    ``probe_wdl_table`` and ``probe_dtz_table`` (a table's stored value, no
    capture played out), ``probe_ab`` (the captures' alpha-beta over the
    stored values) and ``probe_dtz_no_ep`` (DTZ without en passant).

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
        ``KQvKR.rtbw``, ``KQvKR.rtbz``; as in python-chess, a name that
        ``is_tablename`` refuses, ``KvKQ.rtbw`` say, is passed over) and
        returns how many files were added (python-chess's count); with
        ``load_wdl`` or ``load_dtz`` False, only the other kind.
        A table of the same name added before is replaced. Nothing is read
        until a probe needs it. A directory that cannot be listed is an
        ``OSError`` (``FileNotFoundError`` when it does not exist).

        >>> import bitboards.syzygy
        >>> bitboards.syzygy.Tablebase().add_directory("../tests/data/syzygy")
        70
        """
        directory = os.fspath(directory)
        names = sorted(os.listdir(directory))
        # The compiled reader takes a directory whole where every name with
        # a table's suffix is a table's (not, say, KvKR.rtbw: python-chess
        # passes over names that are not normalized).
        if load_wdl and load_dtz and all(
            _wanted(name, True, True) for name in names if os.path.splitext(name)[1] in _SUFFIXES
        ):
            return self._add_directory(directory)
        paths = [
            os.path.join(directory, name)
            for name in names
            if _wanted(name, load_wdl, load_dtz) and os.path.isfile(os.path.join(directory, name))
        ]
        return self._add_files(paths)

    def add_file(self, path: Union[str, os.PathLike[str]], *, load_wdl: bool = True, load_dtz: bool = True) -> int:
        """Adds one table file: 1 if ``path`` is a file named as a table
        (``is_tablename``) of a kind asked for, else 0 (as python-chess's
        ``add_file``)."""
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
    """Whether ``name`` is a table's file name (normalized, as python-chess
    takes them) of a kind asked for."""
    stem, suffix = os.path.splitext(name)
    kind = _SUFFIXES.get(suffix)
    return ((kind == "wdl" and load_wdl) or (kind == "dtz" and load_dtz)) and is_tablename(stem)


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
