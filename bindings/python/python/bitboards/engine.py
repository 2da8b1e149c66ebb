"""UCI engines (Stockfish, Lc0, any UCI engine) with python-chess's names.

``SimpleEngine.popen_uci``, ``configure``, ``options``, ``id``, ``ping``,
``analyse``, ``analysis``, ``play``, ``quit``, ``close``, ``Limit``, the
scores (``Cp``, ``Mate``, ``MateGiven``, ``PovScore``), the WDL models
(``Wdl``, ``PovWdl``, ``Score.wdl(model=, ply=)``), ``UciOptionMap``,
``InfoDict``, ``PlayResult``, ``EngineError`` and ``EngineTerminatedError``
mean what python-chess's ``chess.engine`` names mean: code written for
``chess.engine`` runs with ``import bitboards.engine as engine``, on
``bitboards.Board`` boards or python-chess boards (sent as their start FEN
and move stack, ``position fen ... moves ...``).

The engine process, the UCI protocol and the parsing are the Rust client
``bitboards-engine``: every wait has a deadline and releases the GIL, an
engine that dies, hangs or answers an illegal move raises a typed error
(``EngineTerminatedError``, ``EngineTimeoutError``, ``EngineError``) and is
killed and reaped, never left behind.

What python-chess lacks: ``analyse_many(command, positions, limit)`` runs
one engine per core over many positions (Boards, FENs, or a pyarrow table
with a ``fen`` column) and returns a ``pyarrow.Table`` with a row per PV.

>>> import shutil, bitboards, bitboards.engine as engine
>>> engine.Mate(-0) < engine.Mate(-1) < engine.Cp(-50) < engine.Cp(200) < engine.Mate(4) < engine.MateGiven
True
>>> engine.PovScore(engine.Cp(35), bitboards.BLACK).white()
Cp(-35)
>>> engine.Cp(100).wdl(model="sf15.1", ply=64)
Wdl(wins=497, draws=503, losses=0)
>>> stockfish = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
>>> if stockfish:
...     with engine.SimpleEngine.popen_uci(stockfish) as sf:
...         info = sf.analyse(bitboards.Board(), engine.Limit(depth=8))
...         assert info["depth"] >= 8 and info["pv"][0] in bitboards.Board().legal_moves
"""

from __future__ import annotations

import dataclasses
import enum
import math
import os
import queue
import threading
from typing import (
    TYPE_CHECKING,
    Any,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    MutableMapping,
    Optional,
    Tuple,
    TypeVar,
    Union,
    overload,
)

from . import _bitboards
from ._bitboards import SearchStop, UciEngine

if TYPE_CHECKING:
    from types import TracebackType

    import pyarrow  # type: ignore  # (pyarrow has no type hints)

    from ._bitboards import Move

__all__ = [
    "EngineError", "EngineTerminatedError", "EngineTimeoutError", "AnalysisComplete",
    "Option", "Limit", "InfoDict", "PlayResult", "BestMove", "Info",
    "INFO_NONE", "INFO_BASIC", "INFO_SCORE", "INFO_PV", "INFO_REFUTATION", "INFO_CURRLINE", "INFO_ALL",
    "Score", "Cp", "Mate", "MateGivenType", "MateGiven", "PovScore", "Wdl", "PovWdl",
    "UciOptionMap", "SimpleEngine", "SimpleAnalysisResult", "analyse_many", "MANAGED_OPTIONS",
]

T = TypeVar("T")
ConfigValue = Union[str, int, bool, None]
ConfigMapping = Mapping[str, ConfigValue]


class EngineError(RuntimeError):
    """An engine misbehaved, or a request it cannot take (an unknown option,
    a value out of range, a limit that sets nothing)."""


class EngineTerminatedError(EngineError):
    """The engine exited, or was quit or shut down by an earlier fault."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine did not answer within its deadline (the search's time
    plus a margin, or the handshake's ``timeout``). Not in python-chess,
    which raises ``TimeoutError`` for these: this one is both."""


class AnalysisComplete(Exception):
    """``SimpleAnalysisResult.get()`` after the search ended and every
    info was taken."""


#: Options the client sets itself from each request (python-chess's list).
MANAGED_OPTIONS = ["uci_chess960", "uci_variant", "multipv", "ponder"]


@dataclasses.dataclass(frozen=True)
class Option:
    """An option the engine declared: its ``name``, ``type`` (``check``,
    ``spin``, ``combo``, ``button`` or ``string``), ``default``, and ``min``
    and ``max`` (spin) or ``var`` (combo's values)."""

    name: str
    type: str
    default: ConfigValue
    min: Optional[int]
    max: Optional[int]
    var: Optional[List[str]]

    def parse(self, value: ConfigValue) -> ConfigValue:
        """``value`` as this option takes it, or ``EngineError`` saying what
        it takes instead."""
        if self.type == "check":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower() == "true"
            raise EngineError(f"option {self.name!r} is a check: True or False, not {value!r}")
        if self.type == "spin":
            try:
                number = int(value)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise EngineError(f"option {self.name!r} is a spin: an integer, not {value!r}") from None
            low = self.min if self.min is not None else number
            high = self.max if self.max is not None else number
            if not low <= number <= high:
                raise EngineError(f"option {self.name!r} takes an integer from {self.min} to {self.max}, not {number}")
            return number
        if self.type == "combo":
            for var in self.var or []:
                if str(value).lower() == var.lower():
                    return var
            raise EngineError(f"option {self.name!r} takes one of {self.var}, not {value!r}")
        if self.type == "button":
            return None
        text = "" if value is None else str(value)
        if "\n" in text or "\r" in text:
            raise EngineError(f"option {self.name!r} takes text on one line, not {value!r}")
        return text

    def is_managed(self) -> bool:
        """Whether the client sets this option itself (``MultiPV``,
        ``UCI_Chess960``, ``UCI_Variant``, ``Ponder``)."""
        return self.name.lower() in MANAGED_OPTIONS


@dataclasses.dataclass
class Limit:
    """When a search ends: any of ``time`` (seconds), ``depth``, ``nodes``,
    ``mate`` (moves) and the clocks (seconds; a clock given for one side
    only leaves the other at 0); the engine stops at the first reached."""

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    white_clock: Optional[float] = None
    black_clock: Optional[float] = None
    white_inc: Optional[float] = None
    black_inc: Optional[float] = None
    remaining_moves: Optional[int] = None
    clock_id: object = None

    def __repr__(self) -> str:
        names = ["time", "depth", "nodes", "mate", "white_clock", "black_clock", "white_inc", "black_inc",
                 "remaining_moves"]
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names if getattr(self, name) is not None)
        return f"Limit({shown})"

    def _fields(self) -> Tuple[Any, ...]:
        return (self.time, self.depth, self.nodes, self.mate, self.white_clock, self.black_clock,
                self.white_inc, self.black_inc, self.remaining_moves)


try:
    from typing import TypedDict
except ImportError:  # pragma: no cover  (Python 3.7)
    TypedDict = dict  # type: ignore


class InfoDict(TypedDict, total=False):  # type: ignore[misc]
    """What the engine said about one PV: ``score`` (a ``PovScore``),
    ``pv`` (a list of ``bitboards.Move``), ``depth``, ``seldepth``,
    ``multipv`` (1 for the best), ``nodes``, ``nps``, ``time`` (seconds),
    ``hashfull``, ``tbhits``, ``wdl`` (a ``PovWdl``, when the engine gives
    it), ``string``, and ``lowerbound``/``upperbound`` (True) for a bound."""

    score: "PovScore"
    pv: List["Move"]
    depth: int
    seldepth: int
    time: float
    nodes: int
    nps: int
    tbhits: int
    multipv: int
    hashfull: int
    wdl: "PovWdl"
    string: str
    lowerbound: bool
    upperbound: bool


class PlayResult:
    """What ``SimpleEngine.play`` returns: the ``move`` (None when there is
    none), the ``ponder`` move the engine expects in reply, and the ``info``
    asked for with ``info=``."""

    def __init__(self, move: Optional["Move"], ponder: Optional["Move"], info: Optional[InfoDict] = None, *,
                 draw_offered: bool = False, resigned: bool = False) -> None:
        self.move = move
        self.ponder = ponder
        self.info: InfoDict = info if info is not None else {}  # type: ignore[assignment]
        self.draw_offered = draw_offered
        self.resigned = resigned

    def __repr__(self) -> str:
        return (f"<PlayResult at {id(self):#x} (move={self.move}, ponder={self.ponder}, info={self.info}, "
                f"draw_offered={self.draw_offered}, resigned={self.resigned})>")


class BestMove:
    """The end of a search: its ``move`` and ``ponder`` move."""

    def __init__(self, move: Optional["Move"], ponder: Optional["Move"]) -> None:
        self.move = move
        self.ponder = ponder

    def __repr__(self) -> str:
        return f"<BestMove at {id(self):#x} (move={self.move}, ponder={self.ponder})>"


class Info(enum.IntFlag):
    """Which keys an ``InfoDict`` gets (python-chess's selector)."""

    NONE = 0
    BASIC = 1
    SCORE = 2
    PV = 4
    REFUTATION = 8
    CURRLINE = 16
    ALL = BASIC | SCORE | PV | REFUTATION | CURRLINE


INFO_NONE = Info.NONE
INFO_BASIC = Info.BASIC
INFO_SCORE = Info.SCORE
INFO_PV = Info.PV
INFO_REFUTATION = Info.REFUTATION
INFO_CURRLINE = Info.CURRLINE
INFO_ALL = Info.ALL


# --- Scores ---------------------------------------------------------------

# Stockfish's win-rate models (the probability of a win, in permille, of an
# evaluation at a ply), as published in Stockfish's source (src/uci.cpp of
# each release): win = 1000 / (1 + exp((a - x) / b)) with a and b cubic
# polynomials in m. Each entry: how m follows from the ply, the pawn value
# the evaluation is rescaled by (None: not rescaled), the clamp of x, and
# the coefficients of a and b, highest power first. The operations are in
# Stockfish's order, so that the rounding is the same.
def _m_by_ply(ply: int) -> float:
    return min(240, max(ply, 0)) / 64


def _m_by_move(ply: int) -> float:
    return min(120, max(8, ply / 2 + 1)) / 32


_MODELS = {
    "sf16.1": (_m_by_move, 356, 4000,
               (-1.06249702, 7.42016937, 0.89425629, 348.60356174),
               (-5.33122190, 39.57831533, -90.84473771, 123.40620748)),
    "sf16": (_m_by_ply, 328, 4000,
             (0.38036525, -2.82015070, 23.17882135, 307.36768407),
             (-2.29434733, 13.27689788, -14.26828904, 63.45318330)),
    "sf15.1": (_m_by_ply, 361, 4000,
               (-0.58270499, 2.68512549, 15.24638015, 344.49745382),
               (-2.65734562, 15.96509799, -20.69040836, 73.61029937)),
    "sf15": (_m_by_ply, None, 2000,
             (-1.17202460e-1, 5.94729104e-1, 1.12065546e+1, 1.22606222e+2),
             (-1.79066759, 11.30759193, -17.43677612, 36.47147479)),
    "sf14": (_m_by_ply, None, 2000,
             (-3.68389304, 30.07065921, -60.52878723, 149.53378557),
             (-2.01818570, 15.85685038, -29.83452023, 47.59078827)),
    "sf12": (_m_by_ply, None, 1000,
             (-8.24404295, 64.23892342, -95.73056462, 153.86478679),
             (-3.37154371, 28.44489198, -56.67657741, 72.05858751)),
}
_MODELS["sf"] = _MODELS["sf16.1"]
WDL_MODELS = ["sf", "sf16.1", "sf16", "sf15.1", "sf15", "sf14", "sf12", "lichess"]


def _cubic(c: Tuple[float, float, float, float], m: float) -> float:
    return ((c[0] * m + c[1]) * m + c[2]) * m + c[3]


def _model_wins(model: str, cp: int, ply: int) -> int:
    try:
        m_of, pawn, clamp, a_coefficients, b_coefficients = _MODELS[model]
    except KeyError:
        raise ValueError(f"unknown WDL model {model!r}: one of {', '.join(WDL_MODELS)}") from None
    m = m_of(ply)
    a = _cubic(a_coefficients, m)
    b = _cubic(b_coefficients, m)
    x = cp * pawn / 100 if pawn is not None else cp
    x = min(clamp, max(x, -clamp))
    return int(0.5 + 1000 / (1 + math.exp((a - x) / b)))


def _lichess_wins(cp: int) -> int:
    # Lichess's winning chances (lila's WinPercent), in permille.
    return round(1000 / (1 + math.exp(-0.00368208 * cp)))


class Score:
    """An evaluation from one side's view: ``Cp`` (centipawns), ``Mate``
    (moves to mate, negative when this side is mated) or ``MateGiven``
    (this side has mated). Scores are totally ordered, worst first:
    mated now, mated later, centipawns, mating later, mating sooner,
    ``MateGiven``; ``-score`` is the other side's view."""

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        """Centipawns; a mate is None, or ``mate_score`` minus the moves to
        it (negated when this side is mated) if ``mate_score`` is given."""
        raise NotImplementedError

    def mate(self) -> Optional[int]:
        """Moves to mate (negative when this side is mated, 0 for both
        ``Mate(0)`` and ``MateGiven``), or None for centipawns."""
        raise NotImplementedError

    def is_mate(self) -> bool:
        """Whether this is a mate score."""
        return self.mate() is not None

    def wdl(self, *, model: str = "sf", ply: int = 30) -> "Wdl":
        """Win, draw and loss chances (permille) of this score at ``ply``,
        by a Stockfish model (``sf`` is ``sf16.1``; ``sf16``, ``sf15.1``,
        ``sf15``, ``sf14``, ``sf12``) or Lichess's (``lichess``: no draws,
        no ply)."""
        raise NotImplementedError

    def _key(self) -> Tuple[int, int]:
        raise NotImplementedError

    def __neg__(self) -> "Score":
        raise NotImplementedError

    def __pos__(self) -> "Score":
        return self

    def __abs__(self) -> "Score":
        return -self if self < Cp(0) else self

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._key() == other._key()
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._key() != other._key()
        return NotImplemented

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._key() < other._key()
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._key() <= other._key()
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._key() > other._key()
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, Score):
            return self._key() >= other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())


class Cp(Score):
    """A score in centipawns: ``Cp(35)``."""

    def __init__(self, cp: int) -> None:
        self.cp = cp

    def score(self, *, mate_score: Optional[int] = None) -> int:
        return self.cp

    def mate(self) -> None:
        return None

    def wdl(self, *, model: str = "sf", ply: int = 30) -> "Wdl":
        if model == "lichess":
            wins = _lichess_wins(max(-1000, min(self.cp, 1000)))
            return Wdl(wins, 0, 1000 - wins)
        wins = _model_wins(model, self.cp, ply)
        losses = _model_wins(model, -self.cp, ply)
        return Wdl(wins, 1000 - wins - losses, losses)

    def _key(self) -> Tuple[int, int]:
        return (1, self.cp)

    def __neg__(self) -> "Cp":
        return Cp(-self.cp)

    def __pos__(self) -> "Cp":
        return Cp(self.cp)

    def __abs__(self) -> "Cp":
        return Cp(abs(self.cp))

    def __str__(self) -> str:
        return f"+{self.cp}" if self.cp > 0 else str(self.cp)

    def __repr__(self) -> str:
        return f"Cp({self})"


class Mate(Score):
    """A mate in ``moves`` moves: positive when this side mates, negative
    when it is mated, ``Mate(0)`` (``Mate(-0)``) when it is mated now."""

    def __init__(self, moves: int) -> None:
        self.moves = moves

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> int:
        return self.moves

    def wdl(self, *, model: str = "sf", ply: int = 30) -> "Wdl":
        if model == "lichess":
            wins = _lichess_wins((21 - min(10, abs(self.moves))) * 100)
            return Wdl(wins, 0, 1000 - wins) if self.moves > 0 else Wdl(1000 - wins, 0, wins)
        return Wdl(1000, 0, 0) if self.moves > 0 else Wdl(0, 0, 1000)

    def _key(self) -> Tuple[int, int]:
        # Mated sooner is worse; mating sooner is better.
        return (2, -self.moves) if self.moves > 0 else (0, -self.moves)

    def __neg__(self) -> Score:
        return MateGiven if self.moves == 0 else Mate(-self.moves)

    def __pos__(self) -> "Mate":
        return Mate(self.moves)

    def __abs__(self) -> Score:
        return MateGiven if self.moves == 0 else Mate(abs(self.moves))

    def __str__(self) -> str:
        return f"#+{self.moves}" if self.moves > 0 else f"#-{abs(self.moves)}"

    def __repr__(self) -> str:
        return f"Mate({str(self)[1:]})"


class MateGivenType(Score):
    """The side has mated (``-Mate(0)``): the best score there is."""

    def score(self, *, mate_score: Optional[int] = None) -> Optional[int]:
        return mate_score

    def mate(self) -> int:
        return 0

    def wdl(self, *, model: str = "sf", ply: int = 30) -> "Wdl":
        return Wdl(1000, 0, 0)

    def _key(self) -> Tuple[int, int]:
        return (3, 0)

    def __neg__(self) -> "Mate":
        return Mate(0)

    def __abs__(self) -> "MateGivenType":
        return self

    def __str__(self) -> str:
        return "#+0"

    def __repr__(self) -> str:
        return "MateGiven"


#: The side has mated.
MateGiven = MateGivenType()


class PovScore:
    """A score (``relative``) from the view of ``turn``, the side to move
    when it was given; ``white()``, ``black()`` and ``pov(color)`` give it
    from either side."""

    def __init__(self, relative: Score, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def white(self) -> Score:
        """The score from White's view."""
        return self.pov(True)

    def black(self) -> Score:
        """The score from Black's view."""
        return self.pov(False)

    def pov(self, color: bool) -> Score:
        """The score from ``color``'s view."""
        return self.relative if bool(self.turn) == bool(color) else -self.relative

    def is_mate(self) -> bool:
        """Whether this is a mate score."""
        return self.relative.is_mate()

    def wdl(self, *, model: str = "sf", ply: int = 30) -> "PovWdl":
        """The win, draw and loss chances of the score (see ``Score.wdl``)."""
        return PovWdl(self.relative.wdl(model=model, ply=ply), self.turn)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PovScore):
            return self.white() == other.white()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.white())

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"


class Wdl:
    """Wins, draws and losses (usually permille): ``Wdl(wins, draws,
    losses)``, a tuple-like of three ints."""

    __slots__ = ("wins", "draws", "losses")

    def __init__(self, wins: int, draws: int, losses: int) -> None:
        self.wins = wins
        self.draws = draws
        self.losses = losses

    def total(self) -> int:
        """wins + draws + losses."""
        return self.wins + self.draws + self.losses

    def winning_chance(self) -> float:
        """The share of wins."""
        return self.wins / self.total()

    def drawing_chance(self) -> float:
        """The share of draws."""
        return self.draws / self.total()

    def losing_chance(self) -> float:
        """The share of losses."""
        return self.losses / self.total()

    def expectation(self) -> float:
        """The expected points: a win 1, a draw 0.5."""
        return (self.wins + 0.5 * self.draws) / self.total()

    def __bool__(self) -> bool:
        return bool(self.total())

    def __iter__(self) -> Iterator[int]:
        return iter((self.wins, self.draws, self.losses))

    def __reversed__(self) -> Iterator[int]:
        return iter((self.losses, self.draws, self.wins))

    def __pos__(self) -> "Wdl":
        return self

    def __neg__(self) -> "Wdl":
        return Wdl(self.losses, self.draws, self.wins)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Wdl):
            return (self.wins, self.draws, self.losses) == (other.wins, other.draws, other.losses)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.wins, self.draws, self.losses))

    def __repr__(self) -> str:
        return f"Wdl(wins={self.wins}, draws={self.draws}, losses={self.losses})"


class PovWdl:
    """WDL (``relative``) from the view of ``turn``; also a tuple of the
    relative wins, draws and losses, as in older python-chess."""

    def __init__(self, relative: Wdl, turn: bool) -> None:
        self.relative = relative
        self.turn = turn

    def white(self) -> Wdl:
        """The WDL from White's view."""
        return self.pov(True)

    def black(self) -> Wdl:
        """The WDL from Black's view."""
        return self.pov(False)

    def pov(self, color: bool) -> Wdl:
        """The WDL from ``color``'s view."""
        return self.relative if bool(self.turn) == bool(color) else -self.relative

    def __bool__(self) -> bool:
        return bool(self.relative)

    def __iter__(self) -> Iterator[int]:
        return iter(self.relative)

    def __len__(self) -> int:
        return 3

    def __getitem__(self, index: int) -> int:
        return (self.relative.wins, self.relative.draws, self.relative.losses)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PovWdl):
            return self.white() == other.white()
        if isinstance(other, tuple):
            return tuple(self.relative) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.white())

    def __repr__(self) -> str:
        return f"PovWdl({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"


# --- Options ----------------------------------------------------------------

class UciOptionMap(MutableMapping[str, T]):
    """A dict whose keys are compared without case (as UCI compares option
    names), keeping each key as it was first written."""

    def __init__(self, data: Optional[Union[Mapping[str, T], Iterable[Tuple[str, T]]]] = None, **kwargs: T) -> None:
        self._store: Dict[str, Tuple[str, T]] = {}
        self.update(data or {}, **kwargs)

    def __setitem__(self, key: str, value: T) -> None:
        self._store[key.lower()] = (key, value)

    def __getitem__(self, key: str) -> T:
        return self._store[key.lower()][1]

    def __delitem__(self, key: str) -> None:
        del self._store[key.lower()]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.lower() in self._store

    def __iter__(self) -> Iterator[str]:
        return iter([key for key, _ in self._store.values()])

    def __len__(self) -> int:
        return len(self._store)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        if len(self) != len(other):
            return False
        for key, value in other.items():
            if key not in self or self[key] != value:
                return False
        return True

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]

    def copy(self) -> "UciOptionMap[T]":
        return type(self)(self._store.values())

    def __copy__(self) -> "UciOptionMap[T]":
        return self.copy()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self.items())!r})"


# --- Boards and infos -------------------------------------------------------

def _query(board: Any) -> Any:
    """What the Rust client takes: a ``bitboards.Board`` as it is, a FEN,
    or ``(start fen, [uci], chess960)`` for another board (python-chess's)."""
    if isinstance(board, (_bitboards.Board, str)):
        return board
    try:
        stack = board.move_stack
        root = board.root() if stack else board
        fen = root.fen()
    except AttributeError:
        raise TypeError(f"expected a board (bitboards.Board or chess.Board) or a FEN, not {type(board).__name__}") from None
    return (fen, [move.uci() for move in stack], bool(getattr(board, "chess960", False)))


_SCORES = {
    "cp": Cp,
    "mate": Mate,
    "mated": lambda _: Mate(0),
    "mate_given": lambda _: MateGiven,
}
_BASIC = ("depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull", "tbhits")


def _info(raw: Dict[str, Any], turn: bool, selector: int) -> InfoDict:
    """An ``InfoDict`` of the Rust client's dict (whose ``score`` and ``wdl``
    are tuples from the side to move's view), with the keys ``selector``
    asks for."""
    # Plain ints: IntFlag's operators make a member each time.
    selector = int(selector)
    if not selector:
        return {}  # type: ignore[typeddict-item]
    score = raw.pop("score", None)
    if score is not None:
        if selector & 2:  # INFO_SCORE
            kind, value = score
            raw["score"] = PovScore(_SCORES[kind](value), turn)
        else:
            raw.pop("lowerbound", None)
            raw.pop("upperbound", None)
    wdl = raw.get("wdl")
    if wdl is not None:
        raw["wdl"] = PovWdl(Wdl(*wdl), turn)
    if not selector & 4:  # INFO_PV
        raw.pop("pv", None)
    return raw  # type: ignore[return-value]


# --- The engine -------------------------------------------------------------

class SimpleEngine:
    """A UCI engine process, spoken to synchronously (python-chess's
    ``SimpleEngine``): start one with ``SimpleEngine.popen_uci(command)``.

    ``timeout`` (seconds, default 10) bounds the handshake; a search ends
    by its limit, and a timed one must answer within its time plus a
    second, a search by depth, nodes or mate alone within
    ``search_timeout`` (default 300 s), or it is stopped
    (``EngineTimeoutError``), and the engine killed if it does not answer
    ``stop``. Calls from several threads take turns. Use it as a
    context manager, or call ``quit()``: the process is always reaped.
    """

    def __init__(self, engine: UciEngine, *, timeout: Optional[float] = 10.0) -> None:
        self._engine = engine
        self.timeout = timeout
        self._lock = threading.Lock()
        self._game: object = None
        self._first_game = True
        # What was sent (by lower-case name), and what configure() asked for.
        self._config: Dict[str, ConfigValue] = {}
        self._target: UciOptionMap[ConfigValue] = UciOptionMap()
        # The options the last call set for itself.
        self._last_call: UciOptionMap[ConfigValue] = UciOptionMap()
        options: UciOptionMap[Option] = UciOptionMap()
        for name, kind, default, low, high, var in engine.engine_options():
            options[name] = Option(name, kind, default, low, high, var)
        self._options = options
        engine_name, author = engine.engine_id()
        self._id = {key: value for key, value in (("name", engine_name), ("author", author)) if value is not None}

    @classmethod
    def popen_uci(cls, command: Union[str, os.PathLike, List[str]], *, timeout: Optional[float] = 10.0,
                  debug: Optional[bool] = None, setpgrp: bool = False, search_timeout: Optional[float] = 300.0,
                  **popen_args: Any) -> "SimpleEngine":
        """Starts the UCI engine ``command`` (a path, or a list of the path
        and its arguments; a bare name is looked up on ``PATH``) and its
        handshake, within ``timeout`` seconds (``EngineTimeoutError``),
        ``uci`` and each ``isready`` alike (None: no deadline, as in
        python-chess).
        A search by depth, nodes or mate alone must end within
        ``search_timeout`` seconds (None: no deadline, as in python-chess);
        a timed one within its time plus a second.
        A program that cannot be found raises ``FileNotFoundError``.
        ``setpgrp=True`` starts the engine in a process group of its own,
        killed whole when it is closed (an engine behind a wrapper script
        too), as python-chess's does; Ctrl-C then no longer reaches it.
        ``debug`` is accepted and changes nothing (the engine's standard
        error is dropped); other ``popen`` arguments
        (``cwd``, ``env``, ...) are a ``TypeError``."""
        if popen_args:
            raise TypeError(f"popen_uci does not take {', '.join(sorted(popen_args))} (no popen arguments)")
        if isinstance(command, (str, os.PathLike)):
            argv = [os.fspath(command)]
        else:
            argv = [os.fspath(part) for part in command]
        # python-chess's None: no deadline on the handshake either.
        handshake = _search_timeout(timeout)
        return cls(UciEngine(argv, handshake, _search_timeout(search_timeout), setpgrp), timeout=timeout)

    @classmethod
    def popen(cls, Protocol: Any, command: Union[str, List[str]], **kwargs: Any) -> "SimpleEngine":
        """python-chess's generic start: only the UCI protocol is here."""
        if getattr(Protocol, "__name__", "") != "UciProtocol":
            raise EngineError("bitboards.engine speaks UCI only (no XBoard)")
        return cls.popen_uci(command, **kwargs)

    @property
    def options(self) -> UciOptionMap[Option]:
        """The options the engine declared, by name (any case)."""
        return self._options

    @property
    def id(self) -> Dict[str, str]:
        """The engine's ``id`` lines: ``name`` and ``author``."""
        return dict(self._id)

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return self._engine.pid

    def _set(self, name: str, value: ConfigValue) -> None:
        option = self._options.get(name)
        if option is None:
            raise EngineError(f"the engine has no option {name!r}; it declared: {', '.join(self._options)}")
        if option.is_managed():
            raise EngineError(f"option {option.name!r} is set by the client itself (multipv=, the board's chess960)")
        if value is None and option.type != "button":
            value = option.default
        parsed = option.parse(value)
        key = option.name.lower()
        if option.type == "button" or self._config.get(key) != parsed:
            self._engine.set_option(option.name, parsed)
            self._config[key] = parsed

    def configure(self, options: ConfigMapping) -> None:
        """Sets options (``setoption``), checked against those the engine
        declared: an unknown name, a managed one (``MultiPV``,
        ``UCI_Chess960``, ``Ponder``, ``UCI_Variant``) or a value it does
        not take raises ``EngineError``. None is the option's default (or
        presses a button)."""
        with self._lock:
            for name, value in options.items():
                self._set(name, value)
                if value is not None:
                    self._target[name] = value

    def _prepare(self, game: object, options: ConfigMapping) -> bool:
        """Sets the call's options (and the configured ones it does not
        name back), and says whether to send ``ucinewgame``."""
        if options or self._last_call:
            for name, value in options.items():
                self._set(name, value)
            # The last call's options that this one does not set go back to
            # the configured value, or the default.
            call = UciOptionMap(options)
            for name in self._last_call:
                option = self._options.get(name)
                if name not in call and option is not None and option.type != "button":
                    self._set(name, self._target.get(name))
            self._last_call = call
        new_game = self._first_game or self._game != game
        self._game = game
        self._first_game = False
        return new_game

    def ping(self) -> None:
        """``isready``, answered by ``readyok``: raises
        ``EngineTerminatedError`` if the engine is gone."""
        with self._lock:
            self._engine.is_ready()

    @overload
    def analyse(self, board: Any, limit: Limit, *, multipv: None = None, game: object = None,
                info: Info = INFO_ALL, root_moves: Optional[Iterable[Any]] = None,
                options: ConfigMapping = {}) -> InfoDict: ...

    @overload
    def analyse(self, board: Any, limit: Limit, *, multipv: int, game: object = None,
                info: Info = INFO_ALL, root_moves: Optional[Iterable[Any]] = None,
                options: ConfigMapping = {}) -> List[InfoDict]: ...

    def analyse(self, board: Any, limit: Limit, *, multipv: Optional[int] = None, game: object = None,
                info: Info = INFO_ALL, root_moves: Optional[Iterable[Any]] = None,
                options: ConfigMapping = {}) -> Union[InfoDict, List[InfoDict]]:
        """Searches ``board`` (a ``bitboards.Board``, a python-chess board or
        a FEN) to ``limit`` and returns the ``InfoDict`` of the best PV, or
        with ``multipv`` the list of the PVs' (best first; fewer when there
        are fewer legal moves). ``ucinewgame`` comes first when ``game``
        differs from the last call's (python-chess's ``game=object()``
        forces it); ``options`` are set for this call. ``root_moves`` (UCI's
        ``searchmoves``) is not supported: anything but None is an
        ``EngineError``."""
        _no_root_moves(root_moves)
        with self._lock:
            new_game = self._prepare(game, options)
            infos, _, _, turn, _ = self._engine.analyse(_query(board), limit._fields(), multipv or 1, new_game)
        selected = [_info(raw, turn, info) for raw in infos]
        if multipv is None:
            return selected[0] if selected else {}  # type: ignore[return-value]
        return selected

    def play(self, board: Any, limit: Limit, *, game: object = None, info: Info = INFO_NONE, ponder: bool = False,
             draw_offered: bool = False, root_moves: Optional[Iterable[Any]] = None, options: ConfigMapping = {},
             opponent: object = None) -> PlayResult:
        """The engine's move in ``board`` at ``limit``: a ``PlayResult`` with
        the move, the expected reply (``ponder``) and the ``info`` keys asked
        for (none by default). A board without a legal move raises
        ``EngineError``. ``ponder``, ``draw_offered`` and ``opponent`` are
        accepted and ignored."""
        _no_root_moves(root_moves)
        query = _query(board)
        if not self._engine.has_legal_moves(query):
            raise EngineError("there is no legal move to play (the game is over)")
        with self._lock:
            new_game = self._prepare(game, options)
            infos, best, reply, turn, _ = self._engine.analyse(query, limit._fields(), 1, new_game)
        result_info = _info(infos[0], turn, info) if infos and info else {}
        return PlayResult(best, reply, result_info)  # type: ignore[arg-type]

    def analysis(self, board: Any, limit: Optional[Limit] = None, *, multipv: Optional[int] = None,
                 game: object = None, info: Info = INFO_ALL, root_moves: Optional[Iterable[Any]] = None,
                 options: ConfigMapping = {}) -> "SimpleAnalysisResult":
        """Starts a search in the background and returns its handle, which
        yields each ``InfoDict`` as the engine sends it (iterate, or
        ``next()``/``get()``); ``stop()``, or leaving its ``with`` block,
        tells the engine to stop, and ``wait()`` returns the ``BestMove``.
        A ``limit`` is needed (a search without one would end only at the
        300 s deadline): None raises ``EngineError``."""
        _no_root_moves(root_moves)
        if limit is None:
            raise EngineError("analysis() needs a Limit here (no infinite search): give time, depth or nodes")
        query = _query(board)
        result = SimpleAnalysisResult(self, info)
        self._lock.acquire()
        try:
            new_game = self._prepare(game, options)
        except BaseException:
            self._lock.release()
            raise
        result._start(query, limit, multipv or 1, new_game)
        return result

    def quit(self) -> None:
        """Tells the engine to quit (killed if it has not within a second)
        and reaps it; later calls raise ``EngineTerminatedError``."""
        self._engine.quit()

    def close(self) -> None:
        """As ``quit``."""
        self._engine.quit()

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, exc_type: Optional[type], exc_value: Optional[BaseException],
                 traceback: Optional["TracebackType"]) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SimpleEngine (pid={self._engine.pid})>"


def _search_timeout(seconds: Optional[float]) -> float:
    # No deadline: a century.
    return 3.2e9 if seconds is None else seconds


def _no_root_moves(root_moves: Optional[Iterable[Any]]) -> None:
    if root_moves is not None:
        raise EngineError("root_moves (UCI searchmoves) is not supported by bitboards.engine")


_END = object()


class SimpleAnalysisResult:
    """A search running in the background (``SimpleEngine.analysis``):
    iterate over its ``InfoDict``s as they come, read ``info`` (the best
    PV's latest) and ``multipv``, ``stop()`` it, ``wait()`` for its
    ``BestMove``. Leaving its ``with`` block stops it."""

    def __init__(self, engine: SimpleEngine, selector: int) -> None:
        self._engine = engine
        self._selector = selector
        self._queue: "queue.Queue[Any]" = queue.Queue()
        self._stop = SearchStop()
        self._done = threading.Event()
        self._seen_end = False
        self._best: Optional[BestMove] = None
        self._error: Optional[BaseException] = None
        self._turn = True
        self.multipv: List[InfoDict] = [{}]  # type: ignore[list-item]
        self._thread: Optional[threading.Thread] = None

    @property
    def info(self) -> InfoDict:
        """The best PV's information so far."""
        return self.multipv[0]

    def _post(self, raw: Dict[str, Any]) -> None:
        info = _info(raw, self._turn, self._selector)
        if not info:
            return
        rank = info.get("multipv", 1)
        while len(self.multipv) < rank:
            self.multipv.append({})  # type: ignore[arg-type]
        self.multipv[rank - 1].update(info)
        self._queue.put(info)

    def _start(self, query: Any, limit: Limit, multipv: int, new_game: bool) -> None:
        self._turn = _turn_of(query)

        def run() -> None:
            try:
                _, best, reply, _, _ = self._engine._engine.analyse_stream(
                    query, limit._fields(), multipv, new_game, self._stop, self._post)
                self._best = BestMove(best, reply)
            except BaseException as error:  # handed to wait()
                self._error = error
            finally:
                self._engine._lock.release()
                self._done.set()
                self._queue.put(_END)

        self._thread = threading.Thread(target=run, name="bitboards-engine-analysis", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Tells the engine to stop (its ``bestmove`` follows at once)."""
        self._stop.set()

    def wait(self) -> BestMove:
        """Waits for the end of the search and returns its ``BestMove`` (or
        raises the search's error)."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        assert self._best is not None
        return self._best

    def would_block(self) -> bool:
        """Whether ``get()`` would wait for the engine."""
        return not self._seen_end and self._queue.empty()

    def empty(self) -> bool:
        """Whether every info sent so far was taken."""
        if self._seen_end:
            return True
        with self._queue.mutex:
            pending = list(self._queue.queue)
        return all(item is _END for item in pending)

    def get(self) -> InfoDict:
        """The next info, waiting for it; ``AnalysisComplete`` once the
        search ended and every info was taken."""
        if self._seen_end:
            raise AnalysisComplete()
        item = self._queue.get()
        if item is _END:
            self._seen_end = True
            self.wait()
            raise AnalysisComplete()
        return item  # type: ignore[no-any-return]

    def next(self) -> Optional[InfoDict]:
        """The next info, or None at the end."""
        try:
            return self.get()
        except AnalysisComplete:
            return None

    def __iter__(self) -> "SimpleAnalysisResult":
        return self

    def __next__(self) -> InfoDict:
        try:
            return self.get()
        except AnalysisComplete:
            raise StopIteration from None

    def __enter__(self) -> "SimpleAnalysisResult":
        return self

    def __exit__(self, exc_type: Optional[type], exc_value: Optional[BaseException],
                 traceback: Optional["TracebackType"]) -> None:
        self.stop()


def _turn_of(query: Any) -> bool:
    if isinstance(query, tuple):
        fen, moves, _ = query
        white = fen.split()[1:2] != ["b"]
        return white if len(moves) % 2 == 0 else not white
    if isinstance(query, str):
        return query.split()[1:2] != ["b"]
    return bool(query.turn)


# --- Many positions ---------------------------------------------------------

def analyse_many(command: Union[str, os.PathLike, List[str]], positions: Any, limit: Limit, *,
                 engines: Optional[int] = None, multipv: int = 1, options: Optional[ConfigMapping] = None,
                 reset: bool = True, timeout: Optional[float] = 10.0,
                 search_timeout: Optional[float] = 300.0) -> "pyarrow.Table":
    """Analyses every position on ``engines`` engines at once (default: one
    per core), each started from ``command`` with ``options`` set
    (``{"Hash": 16}``; each engine gets them, and ``Threads`` is best left
    at 1), and returns a ``pyarrow.Table`` with a row per PV in input order:
    ``game`` (the position's index in the input), ``ply`` (moves played
    from the board's root; 0 for a FEN), ``fen``, ``bitboards``, ``turn``,
    ``multipv``, ``best``, ``cp``, ``mate`` and ``wdl`` (White's view),
    ``depth``, ``seldepth``, ``nodes``, ``pv`` (UCI).

    ``positions``: an iterable of boards (``bitboards.Board`` or
    python-chess's, with their move stack) and FEN strings, or a pyarrow
    table with a ``fen`` column, or a positions table
    (``bitboards.pgn.read_positions``' columns ``bitboards`` and ``turn``,
    with ``castling``, ``ep_square``, ``halfmove_clock`` and
    ``fullmove_number`` where present); the rows of a positions table keep
    its ``game`` and ``ply``, so that the analysis joins back onto it. With ``reset=True`` (the default) each
    position is searched after ``ucinewgame``: at a node or depth limit
    the table is the same whatever ``engines`` is; ``reset=False`` keeps
    each engine's hash, faster at small limits but dependent on the order.

    ``timeout`` bounds each engine's handshake, ``search_timeout`` a
    search by depth or nodes (None: no deadline). The work is done in Rust
    with the GIL released. An engine that dies is
    replaced and its position searched once more; a position that fails
    again (or a request the engine refuses) raises its error
    (``EngineError`` or a subclass) naming the position's index, after
    every engine is shut down. A position that cannot be read (a bad FEN,
    an illegal move) raises before any engine starts.
    """
    if isinstance(command, (str, os.PathLike)):
        argv = [os.fspath(command)]
    else:
        argv = [os.fspath(part) for part in command]
    if engines is None:
        engines = os.cpu_count() or 1
    if engines < 1:
        raise ValueError(f"engines must be at least 1, not {engines}")
    if multipv < 1:
        raise ValueError(f"multipv starts at 1, not {multipv}")
    try:
        import pyarrow as pa
    except ImportError as error:
        raise ImportError("analyse_many needs pyarrow: pip install pyarrow") from error
    numbering: Any = None
    if hasattr(positions, "column_names") and hasattr(positions, "column"):
        names = positions.column_names
        if "fen" in names:
            queries: List[Any] = positions.column("fen").to_pylist()
        elif "bitboards" in names and "turn" in names:
            queries = _positions_table_fens(positions)
            if "game" in names and "ply" in names:
                numbering = positions
        else:
            raise ValueError("a table of positions needs a 'fen' column, or 'bitboards' and 'turn' "
                             f"(a positions table); it has {names}")
    else:
        queries = [_query(board) for board in positions]
    for index, query in enumerate(queries):
        if query is None:
            raise ValueError(f"position {index}: the FEN is null")
    pairs = [(name, value) for name, value in (options or {}).items()]
    stream = _bitboards.analyse_many(argv, queries, limit._fields(), engines, multipv, pairs, reset, timeout,
                                     _search_timeout(search_timeout))
    if hasattr(pa.RecordBatchReader, "from_stream"):
        reader = pa.RecordBatchReader.from_stream(stream)
    else:  # pragma: no cover  (pyarrow < 15)
        reader = pa.RecordBatchReader._import_from_c_capsule(stream.__arrow_c_stream__())
    table = reader.read_all()
    if numbering is not None:
        # Each row's game and ply are its position's in the given table.
        rows = table.column("game").to_pylist()
        for name, kind in (("game", pa.uint64()), ("ply", pa.uint16())):
            given = numbering.column(name).to_pylist()
            values = pa.array([given[row] for row in rows], type=kind)
            table = table.set_column(table.schema.get_field_index(name), name, values)
    return table


_PIECE_LETTERS = "PNBRQKpnbrqk"
_FILE_LETTERS = "abcdefgh"


def _positions_table_fens(table: Any) -> List[str]:
    """The FEN of each row of a positions table: its twelve ``bitboards``
    (White's pawns ... king, then Black's; a1 = bit 0) and ``turn``, with
    ``castling`` (the castling rooks' squares), ``ep_square``,
    ``halfmove_clock`` and ``fullmove_number`` where the table has them."""
    names = table.column_names
    count = table.num_rows

    def column(name: str, default: Any) -> List[Any]:
        return table.column(name).to_pylist() if name in names else [default] * count

    boards, turns = column("bitboards", None), column("turn", True)
    castling, eps = column("castling", 0), column("ep_square", None)
    halves, fulls = column("halfmove_clock", 0), column("fullmove_number", 1)
    fens = []
    for index in range(count):
        row = boards[index]
        if row is None or len(row) != 12 or turns[index] is None:
            raise ValueError(f"position {index}: a positions row needs twelve bitboards and a turn")
        grid: List[Optional[str]] = [None] * 64
        for kind, mask in enumerate(row):
            while mask:
                low = mask & -mask
                grid[low.bit_length() - 1] = _PIECE_LETTERS[kind]
                mask ^= low
        ranks = []
        for rank in range(7, -1, -1):
            text, empty = "", 0
            for file in range(8):
                piece = grid[rank * 8 + file]
                if piece is None:
                    empty += 1
                    continue
                if empty:
                    text += str(empty)
                    empty = 0
                text += piece
            ranks.append(text + (str(empty) if empty else ""))
        rooks = castling[index] or 0
        # Castling by rook files (Shredder-FEN), White's first.
        rights = "".join(_FILE_LETTERS[square % 8].upper() for square in range(7, -1, -1) if rooks >> square & 1)
        rights += "".join(_FILE_LETTERS[square % 8] for square in range(63, 55, -1) if rooks >> square & 1)
        ep = eps[index]
        ep_name = "-" if ep is None else _FILE_LETTERS[ep % 8] + str(ep // 8 + 1)
        fens.append(f"{'/'.join(ranks)} {'w' if turns[index] else 'b'} {rights or '-'} {ep_name} "
                    f"{halves[index] or 0} {fulls[index] or 1}")
    return fens
