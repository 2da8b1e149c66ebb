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

The asyncio API is python-chess's too: ``await popen_uci(command)`` gives
``(transport, protocol)``, a ``UciProtocol`` with ``initialize``, ``ping``,
``configure``, ``analyse``, ``analysis`` (an ``AnalysisResult``, iterated
with ``async for``), ``play`` (pondering included: ``ponderhit`` when the
reply was the one expected), ``send_opponent_information`` and ``quit``;
it writes the lines python-chess writes, over any asyncio transport
(``MockTransport`` plays an engine from a script), and reads the engine's
lines in Rust. ``run_in_background`` runs a coroutine on a thread of its
own.

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

import asyncio
import collections
import concurrent.futures
import dataclasses
import enum
import math
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Coroutine,
    Deque,
    Dict,
    Generic,
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
    "UciOptionMap", "SimpleEngine", "SimpleAnalysisResult", "analyse_many", "MANAGED_OPTIONS", "Opponent",
    "Protocol", "UciProtocol", "XBoardProtocol", "AnalysisResult", "popen_uci", "popen_xboard",
    "run_in_background", "MockTransport",
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
        if self.type in ("button", "reset", "save"):
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
    it), ``string``, and ``lowerbound``/``upperbound`` (True) for a bound;
    and as the engine sends them ``currmove``, ``currmovenumber``,
    ``cpuload``, ``ebf``, ``refutation`` (a dict of a move to the line
    refuting it) and ``currline`` (a dict of a processor's number to the
    line it searches)."""

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
    currmove: "Move"
    currmovenumber: int
    cpuload: int
    ebf: float
    refutation: Dict["Move", List["Move"]]
    currline: Dict[int, List["Move"]]
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


@dataclasses.dataclass
class Opponent:
    """The player an engine faces (UCI's ``UCI_Opponent``): ``name``,
    ``title`` (``GM``, ...), ``rating``, and whether it ``is_engine``."""

    name: Optional[str]
    title: Optional[str]
    rating: Optional[int]
    is_engine: Optional[bool]


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

    def get(self, key: str, default: Any = None) -> Any:
        entry = self._store.get(key.lower()) if isinstance(key, str) else None
        return default if entry is None else entry[1]

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
    if not selector & 8:  # INFO_REFUTATION
        raw.pop("refutation", None)
    if not selector & 16:  # INFO_CURRLINE
        raw.pop("currline", None)
    return raw  # type: ignore[return-value]


def _parse_uci_info(arg: str, root_board: Any, selector: int = INFO_ALL) -> InfoDict:
    """The ``InfoDict`` of an ``info`` line's arguments about
    ``root_board`` (python-chess's private function of the same name, which
    python-chess's tests call): the fields ``selector`` asks for."""
    if not selector:
        return {}  # type: ignore[typeddict-item]
    search = _bitboards.UciSearch(_query(root_board))
    return _info(search.info(arg), search.turn, selector)


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
        # The analysis running in the background, stopped by quit().
        self._analysis: Optional["SimpleAnalysisResult"] = None
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
        """python-chess's generic start: ``UciProtocol`` starts the Rust
        client (``popen_uci``), another protocol (``XBoardProtocol``) runs
        on an event loop of its own (``popen_xboard``)."""
        if getattr(Protocol, "__name__", "") == "UciProtocol":
            return cls.popen_uci(command, **kwargs)
        return _ProtocolEngine.start(Protocol, command, **kwargs)

    @classmethod
    def popen_xboard(cls, command: Union[str, os.PathLike, List[str]], *, timeout: Optional[float] = 10.0,
                     debug: Optional[bool] = None, setpgrp: bool = False, **popen_args: Any) -> "SimpleEngine":
        """Starts an XBoard engine and reads its features within ``timeout``
        seconds: the asyncio ``XBoardProtocol`` on an event loop of its own,
        called synchronously (``configure``, ``ping``, ``play``,
        ``analyse``, ``analysis``, ``send_opponent_information``,
        ``send_game_result``, ``quit``)."""
        return _ProtocolEngine.start(XBoardProtocol, command, timeout=timeout, debug=debug, setpgrp=setpgrp,
                                     **popen_args)

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
        forces it); ``options`` are set for this call. ``root_moves``
        restricts the search to those moves (UCI's ``searchmoves``)."""
        with self._lock:
            new_game = self._prepare(game, options)
            infos, _, _, turn, _ = self._engine.analyse(_query(board), limit._fields(), multipv or 1, new_game,
                                                        _ucis(root_moves))
        selected = [_info(raw, turn, info) for raw in infos]
        if multipv is None:
            return selected[0] if selected else {}  # type: ignore[return-value]
        return selected

    def play(self, board: Any, limit: Limit, *, game: object = None, info: Info = INFO_NONE, ponder: bool = False,
             draw_offered: bool = False, root_moves: Optional[Iterable[Any]] = None, options: ConfigMapping = {},
             opponent: Optional["Opponent"] = None) -> PlayResult:
        """The engine's move in ``board`` at ``limit``: a ``PlayResult`` with
        the move, the expected reply (``ponder``) and the ``info`` keys asked
        for (none by default); ``root_moves`` restricts the search to those
        moves. A board without a legal move raises ``EngineError``.

        With ``ponder=True`` the engine goes on thinking on the reply it
        expects (``go ponder``), and the next ``play`` on that position
        continues that search (``ponderhit``); any other call stops it
        first. ``opponent`` sets ``UCI_Opponent`` (when the engine has it)
        and starts a new game when it changes. ``draw_offered`` is ignored,
        as python-chess ignores it over UCI (UCI has no word for it)."""
        query = _query(board)
        if not self._engine.has_legal_moves(query):
            raise EngineError("there is no legal move to play (the game is over)")
        started = time.perf_counter()
        with self._lock:
            new_game = self._prepare(game, options)
            who = _uci_opponent(opponent) if "UCI_Opponent" in self._options else None
            if who is not None and self._config.get("uci_opponent") != who:
                # A new opponent is a new game, told after `ucinewgame`.
                self._engine.new_game()
                new_game = False
                self._engine.set_option(self._options["UCI_Opponent"].name, who)
                self._config["uci_opponent"] = who
            if "Ponder" in self._options and self._config.get("ponder") != ponder:
                self._engine.set_option(self._options["Ponder"].name, ponder)
                self._config["ponder"] = ponder
            infos, best, reply, turn, _ = self._engine.analyse(query, limit._fields(), 1, new_game,
                                                               _ucis(root_moves), ponder)
            if ponder and best is not None and reply is not None:
                self._engine.start_ponder(_after(query, best, reply),
                                          _ponder_limit(limit, turn, time.perf_counter() - started)._fields())
        result_info = _info(infos[0], turn, info) if infos and info else {}
        return PlayResult(best, reply, result_info)  # type: ignore[arg-type]

    def send_opponent_information(self, *, opponent: Optional["Opponent"] = None,
                                  engine_rating: Optional[int] = None) -> None:
        """Sets ``UCI_Opponent`` (when the engine has it) to ``opponent``."""
        who = _uci_opponent(opponent)
        if who is not None and "UCI_Opponent" in self._options:
            self.configure({"UCI_Opponent": who})

    def send_game_result(self, board: Any, winner: Optional[bool] = None, game_ending: Optional[str] = None,
                         game_complete: bool = True) -> None:
        """UCI has no word for a game's end: nothing is sent."""

    def analysis(self, board: Any, limit: Optional[Limit] = None, *, multipv: Optional[int] = None,
                 game: object = None, info: Info = INFO_ALL, root_moves: Optional[Iterable[Any]] = None,
                 options: ConfigMapping = {}) -> "SimpleAnalysisResult":
        """Starts a search in the background and returns its handle, which
        yields each ``InfoDict`` as the engine sends it (iterate, or
        ``next()``/``get()``); ``stop()``, or leaving its ``with`` block,
        tells the engine to stop, and ``wait()`` returns the ``BestMove``.
        Without a ``limit`` the engine searches until stopped
        (``go infinite``, no deadline); ``root_moves`` restricts the search
        to those moves."""
        query = _query(board)
        result = SimpleAnalysisResult(self, info)
        self._lock.acquire()
        try:
            new_game = self._prepare(game, options)
        except BaseException:
            self._lock.release()
            raise
        result._start(query, limit, multipv or 1, new_game, _ucis(root_moves))
        self._analysis = result
        return result

    def _stop_analysis(self) -> None:
        """Stops an analysis still running, so that quit() does not wait
        behind it (an analysis without a limit would never end)."""
        analysis, self._analysis = self._analysis, None
        if analysis is not None:
            analysis.stop()

    def quit(self) -> None:
        """Tells the engine to quit and reaps it; later calls raise
        ``EngineTerminatedError``. An engine that has not exited within
        ``timeout`` seconds (None: a second) is killed, and
        ``EngineTimeoutError`` (a ``TimeoutError``: from Python 3.11 that
        is ``asyncio.TimeoutError``, which python-chess raises) says so."""
        self._stop_analysis()
        if self._engine.quit(self.timeout):
            raise EngineTimeoutError(f"the engine did not exit within {self.timeout} s of `quit`: it was killed")

    def close(self) -> None:
        """Ends the engine: ``quit``, and killed if it has not exited
        within a second; never an error."""
        self._stop_analysis()
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


def _uci_opponent(opponent: Optional["Opponent"]) -> Optional[str]:
    """``UCI_Opponent``'s value: ``title rating computer|human name``."""
    if opponent is None or not opponent.name:
        return None
    kind = "computer" if opponent.is_engine else "human"
    return f"{opponent.title or 'none'} {opponent.rating or 'none'} {kind} {opponent.name}"


def _after(query: Any, *moves: Any) -> Any:
    """``query`` (what ``_query`` makes) with ``moves`` played."""
    if isinstance(query, tuple):
        fen, ucis, chess960 = query
        return (fen, ucis + [move.uci() for move in moves], chess960)
    if isinstance(query, str):
        return (query, [move.uci() for move in moves], False)
    board = query.copy()
    for move in moves:
        board.push(move)
    return board


def _ponder_limit(limit: Limit, turn: bool, used: float) -> Limit:
    """The limit of a search on the expected reply, as python-chess sets it:
    each clock given its increment, the mover's less the time just used,
    one move fewer to the time control."""
    limit = dataclasses.replace(limit)
    if limit.white_clock is not None:
        limit.white_clock += limit.white_inc or 0.0
        if turn:
            limit.white_clock = max(0.0, limit.white_clock - used)
    if limit.black_clock is not None:
        limit.black_clock += limit.black_inc or 0.0
        if not turn:
            limit.black_clock = max(0.0, limit.black_clock - used)
    if limit.remaining_moves:
        limit.remaining_moves -= 1
    return limit


def _ucis(root_moves: Optional[Iterable[Any]]) -> Optional[List[str]]:
    """``root_moves`` as UCI text, for the Rust client."""
    return None if root_moves is None else [move.uci() for move in root_moves]


_END = object()


class _Iterating:
    """What a synchronous analysis handle derives from ``get()`` and
    ``stop()``: ``next()``, iteration, and a ``with`` block that stops it."""

    def get(self) -> InfoDict:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def next(self) -> Optional[InfoDict]:
        """The next info, or None at the end."""
        try:
            return self.get()
        except AnalysisComplete:
            return None

    def __iter__(self) -> "_Iterating":
        return self

    def __next__(self) -> InfoDict:
        try:
            return self.get()
        except AnalysisComplete:
            raise StopIteration from None

    def __enter__(self) -> Any:
        return self

    def __exit__(self, exc_type: Optional[type], exc_value: Optional[BaseException],
                 traceback: Optional["TracebackType"]) -> None:
        self.stop()


class SimpleAnalysisResult(_Iterating):
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

    def _start(self, query: Any, limit: Optional[Limit], multipv: int, new_game: bool,
               root_moves: Optional[List[str]]) -> None:
        self._turn = _turn_of(query)
        fields = None if limit is None else limit._fields()

        def run() -> None:
            try:
                _, best, reply, _, _ = self._engine._engine.analyse_stream(
                    query, fields, multipv, new_game, self._stop, self._post, root_moves)
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



def _turn_of(query: Any) -> bool:
    if isinstance(query, tuple):
        fen, moves, _ = query
        white = fen.split()[1:2] != ["b"]
        return white if len(moves) % 2 == 0 else not white
    if isinstance(query, str):
        return query.split()[1:2] != ["b"]
    return bool(query.turn)


class _ProtocolEngine(SimpleEngine):
    """A ``SimpleEngine`` over an asyncio protocol (XBoard's) running on an
    event loop of its own thread, as python-chess's ``SimpleEngine`` is: a
    search with a time limit waits ``timeout`` seconds more than its time,
    one without is not bounded; the other calls wait ``timeout``."""

    def __init__(self, transport: Any, protocol: Any, *, timeout: Optional[float] = 10.0) -> None:
        self.transport = transport
        self.protocol = protocol
        self.timeout = timeout
        self._ended = threading.Event()

    @classmethod
    def start(cls, Protocol: Any, command: Union[str, os.PathLike, List[str]], *, timeout: Optional[float] = 10.0,
              debug: Optional[bool] = None, setpgrp: bool = False, **popen_args: Any) -> "_ProtocolEngine":
        async def background(future: "concurrent.futures.Future[_ProtocolEngine]") -> None:
            transport, protocol = await Protocol.popen(command, setpgrp=setpgrp, **popen_args)
            engine = cls(transport, protocol, timeout=timeout)
            try:
                await asyncio.wait_for(protocol.initialize(), timeout)
                future.set_result(engine)
                await protocol.returncode
            finally:
                transport.close()
                engine._ended.set()

        return run_in_background(background, name=f"bitboards-engine {command!r}", debug=debug)

    def _call(self, coroutine: Any, timeout: Optional[float]) -> Any:
        """Runs ``coroutine`` on the engine's loop and waits for it, at most
        ``timeout`` seconds (None: as long as the engine runs)."""
        if self._ended.is_set():
            coroutine.close()
            raise EngineTerminatedError("the engine has ended")
        try:
            future = asyncio.run_coroutine_threadsafe(coroutine, self.protocol.loop)
        except RuntimeError:  # the loop ended with the engine
            coroutine.close()
            raise EngineTerminatedError("the engine has ended") from None
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            step = 0.1 if deadline is None else max(0.0, min(0.1, deadline - time.monotonic()))
            try:
                return future.result(step)
            except concurrent.futures.CancelledError:
                raise EngineTerminatedError("the engine ended during the call") from None
            except concurrent.futures.TimeoutError:
                if self._ended.is_set() and not future.done():
                    future.cancel()
                    raise EngineTerminatedError("the engine ended during the call") from None
                if deadline is not None and time.monotonic() >= deadline:
                    future.cancel()
                    raise EngineTimeoutError(f"the engine did not answer within {timeout} s") from None

    def _search_timeout(self, limit: Optional[Limit]) -> Optional[float]:
        if self.timeout is None or limit is None or limit.time is None:
            return None
        return self.timeout + limit.time

    @property
    def options(self) -> Any:
        """The options the engine declared, by name."""
        return self.protocol.options

    @property
    def id(self) -> Dict[str, str]:
        """What the engine said its name is."""
        return dict(self.protocol.id)

    @property
    def pid(self) -> int:
        """The engine's process id."""
        return int(self.transport.get_pid())

    def configure(self, options: ConfigMapping) -> None:
        self._call(self.protocol.configure(options), self.timeout)

    def ping(self) -> None:
        self._call(self.protocol.ping(), self.timeout)

    def send_opponent_information(self, *, opponent: Optional["Opponent"] = None,
                                  engine_rating: Optional[int] = None) -> None:
        self._call(self.protocol.send_opponent_information(opponent=opponent, engine_rating=engine_rating),
                   self.timeout)

    def send_game_result(self, board: Any, winner: Optional[bool] = None, game_ending: Optional[str] = None,
                         game_complete: bool = True) -> None:
        self._call(self.protocol.send_game_result(board, winner, game_ending, game_complete), self.timeout)

    def analyse(self, board: Any, limit: Limit, **kwargs: Any) -> Any:  # type: ignore[override]
        return self._call(self.protocol.analyse(board, limit, **kwargs), self._search_timeout(limit))

    def play(self, board: Any, limit: Limit, **kwargs: Any) -> PlayResult:  # type: ignore[override]
        return self._call(self.protocol.play(board, limit, **kwargs),  # type: ignore[no-any-return]
                          self._search_timeout(limit))

    def analysis(self, board: Any, limit: Optional[Limit] = None, **kwargs: Any) -> Any:  # type: ignore[override]
        result = self._call(self.protocol.analysis(board, limit, **kwargs), self.timeout)
        return _ThreadAnalysis(self, result)

    def quit(self) -> None:
        """``quit``, waiting ``timeout`` seconds for the engine to exit
        (``EngineTimeoutError`` after killing it)."""
        try:
            self._call(self.protocol.quit(), self.timeout)
        finally:
            self.close()

    def close(self) -> None:
        """Ends the engine at once (its process is killed if it runs)."""
        try:
            self.protocol.loop.call_soon_threadsafe(self.transport.close)
        except RuntimeError:
            pass  # the loop ended with the engine

    def __repr__(self) -> str:
        return f"<SimpleEngine ({type(self.protocol).__name__}, pid={self.pid})>"


class _ThreadAnalysis(_Iterating):
    """An asyncio ``AnalysisResult`` read from another thread."""

    def __init__(self, engine: _ProtocolEngine, result: AnalysisResult) -> None:
        self._engine = engine
        self._result = result

    @property
    def info(self) -> InfoDict:
        return self._result.info

    @property
    def multipv(self) -> List[InfoDict]:
        return self._result.multipv

    def stop(self) -> None:
        self._engine.protocol.loop.call_soon_threadsafe(self._result.stop)

    def wait(self) -> BestMove:
        return self._engine._call(self._result.wait(), None)  # type: ignore[no-any-return]

    def would_block(self) -> bool:
        return self._result.would_block()

    def empty(self) -> bool:
        return self._result.empty()

    def get(self) -> InfoDict:
        return self._engine._call(self._result.get(), None)  # type: ignore[no-any-return]


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



# --- asyncio: python-chess's protocols -------------------------------------
#
# popen_uci, UciProtocol, AnalysisResult, MockTransport and
# run_in_background, with the lines an engine sends read in Rust
# (_bitboards.UciSearch: info fields, PV moves and best moves checked against
# the position searched). A protocol runs one command at a time. A command
# still running when the next is asked for (an analysis, a search pondering
# on the expected reply) is told to end first: `stop`, or, when the pondered
# position is the one now asked about, nothing at all and `ponderhit` sent
# by the next search.

def _split(line: str) -> Tuple[str, str]:
    """The first word of ``line`` and the rest (leading spaces removed)."""
    parts = line.split(None, 1)
    if not parts:
        return "", ""
    return parts[0], parts[1] if len(parts) > 1 else ""


def _command_line(command: Union[str, "os.PathLike[str]", List[str]]) -> List[str]:
    if isinstance(command, (str, os.PathLike)):
        return [os.fspath(command)]
    return [os.fspath(part) for part in command]


# --- Results ----------------------------------------------------------------

_END = object()


class AnalysisResult:
    """A search running on an asyncio engine (``Protocol.analysis``): its
    ``InfoDict``s as they come (``await get()``, ``async for``), ``info``
    (the best PV's so far) and ``multipv``, ``stop()``, and
    ``await wait()`` for its ``BestMove``. Leaving its ``with`` block
    stops it."""

    def __init__(self, stop: Optional[Callable[[], None]] = None) -> None:
        self._stop = stop
        # The infos not yet taken (then _END), and a get() waiting for one.
        self._queue: Deque[Any] = collections.deque()
        self._waiter: "Optional[asyncio.Future[None]]" = None
        self._best: "asyncio.Future[BestMove]" = asyncio.get_running_loop().create_future()
        self._ended = False
        self.multipv: List[InfoDict] = [{}]  # type: ignore[list-item]

    @property
    def info(self) -> InfoDict:
        """The best PV's information so far."""
        return self.multipv[0]

    def post(self, info: InfoDict) -> None:
        """Adds an info the engine sent (its ``multipv`` rank's entry is
        updated, and it is queued for ``get``)."""
        rank = int(info.get("multipv", 1))
        while len(self.multipv) < rank:
            self.multipv.append({})  # type: ignore[arg-type]
        self.multipv[rank - 1].update(info)
        self._put(info)

    def _put(self, item: Any) -> None:
        self._queue.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def set_finished(self, best: BestMove) -> None:
        """Ends the search with its best move."""
        if not self._best.done():
            self._best.set_result(best)
            self._put(_END)

    def set_exception(self, error: BaseException) -> None:
        """Ends the search with an error (``wait`` raises it)."""
        if not self._best.done():
            self._best.set_exception(error)
            self._put(_END)

    def stop(self) -> None:
        """Tells the engine to stop (its ``bestmove`` follows)."""
        if self._stop is not None and not self._best.done():
            stop, self._stop = self._stop, None
            stop()

    async def wait(self) -> BestMove:
        """Waits for the end of the search: its ``BestMove``, or its error."""
        if self._best.done():
            return self._best.result()
        return await asyncio.shield(self._best)

    def would_block(self) -> bool:
        """Whether ``get()`` would wait for the engine."""
        return not self._ended and not self._queue

    def empty(self) -> bool:
        """Whether every info sent so far was taken."""
        return self._ended or len(self._queue) <= int(self._best.done())

    async def get(self) -> InfoDict:
        """The next info, waiting for it; ``AnalysisComplete`` once the
        search ended and every info was taken (or the search's error)."""
        if self._ended:
            raise AnalysisComplete()
        while not self._queue:
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        item = self._queue.popleft()
        if item is _END:
            self._ended = True
            await self.wait()
            raise AnalysisComplete()
        return item  # type: ignore[no-any-return]

    async def next(self) -> Optional[InfoDict]:
        """The next info, or None at the end."""
        try:
            return await self.get()
        except AnalysisComplete:
            return None

    def __aiter__(self) -> "AnalysisResult":
        return self

    async def __anext__(self) -> InfoDict:
        try:
            return await self.get()
        except AnalysisComplete:
            raise StopAsyncIteration from None

    def __enter__(self) -> "AnalysisResult":
        return self

    def __exit__(self, exc_type: Optional[type], exc_value: Optional[BaseException],
                 traceback: Optional["TracebackType"]) -> None:
        self.stop()


# --- Commands ---------------------------------------------------------------

class _Command(Generic[T]):
    """One exchange with the engine. ``result`` is what the caller awaits;
    ``finished`` is when the engine is free for the next command (later,
    for a search left running)."""

    def __init__(self, protocol: "Protocol") -> None:
        self.protocol = protocol
        self.result: "asyncio.Future[T]" = protocol.loop.create_future()
        self.finished: "asyncio.Future[None]" = protocol.loop.create_future()
        # An error nobody awaits is not worth a warning at exit.
        self.result.add_done_callback(_retrieve)

    def start(self) -> None:
        raise NotImplementedError

    def line_received(self, line: str) -> None:
        """A line of the engine's output while this command runs."""

    def cancel(self) -> None:
        """A later command waits for this one: end it soon."""

    def fail(self, error: BaseException) -> None:
        """The command cannot go on (the engine died, or said something
        wrong): its caller gets ``error``, and the engine is free."""
        if not self.result.done():
            self.result.set_exception(error)
        self.finish()

    def finish(self) -> None:
        if not self.finished.done():
            self.finished.set_result(None)


# The longest line read from an engine (UCI's longest are PVs: a few KiB).
_MAX_LINE = 1 << 20


def _retrieve(future: "asyncio.Future[Any]") -> None:
    if not future.cancelled():
        future.exception()


class Protocol(asyncio.SubprocessProtocol):
    """What every asyncio engine protocol shares: the transport, the lines
    read from the engine's output, one command at a time, ``returncode``
    (a future of the exit code)."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.transport: Optional[asyncio.SubprocessTransport] = None
        self.returncode: "asyncio.Future[int]" = self.loop.create_future()
        self.initialized = False
        self.id: Dict[str, str] = {}
        self._buffer = bytearray()
        self._lock = asyncio.Lock()
        self._command: Optional[_Command[Any]] = None
        self._group: Optional[int] = None
        # Lines kept to be written at once (a search's position and go).
        self._batch: Optional[List[str]] = None

    # The transport's side.

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def pipe_data_received(self, fd: int, data: Union[bytes, str]) -> None:
        if fd != 1:
            return  # standard error: not the protocol's
        self._buffer += data.encode() if isinstance(data, str) else data
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                break
            raw = bytes(self._buffer[:end])
            del self._buffer[:end + 1]
            self._line_received(raw.decode("utf-8", errors="replace").rstrip("\r"))
        if len(self._buffer) > _MAX_LINE:
            # An engine that writes without end of line: stopped, not kept.
            self._buffer.clear()
            error = EngineError(f"the engine wrote a line of more than {_MAX_LINE} bytes: it was stopped")
            command = self._command
            if command is not None and not command.finished.done():
                command.fail(error)
            if self.transport is not None:
                self.transport.close()

    def process_exited(self) -> None:
        code = self.transport.get_returncode() if self.transport is not None else None
        if not self.returncode.done():
            self.returncode.set_result(code if code is not None else -1)
        command = self._command
        if command is not None and not command.finished.done():
            command.fail(EngineTerminatedError(f"the engine process ended (exit code {code})"))
        self._kill_group()

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self._kill_group()

    def _kill_group(self) -> None:
        group, self._group = self._group, None
        if group is not None:
            try:
                os.killpg(group, signal.SIGKILL)
            except OSError:
                pass  # already gone

    def _line_received(self, line: str) -> None:
        command = self._command
        if command is None or command.finished.done():
            return  # nothing is waiting for it (a late `info string`)
        try:
            command.line_received(line)
        except Exception as error:  # a line the command cannot take
            command.fail(error)

    def send_line(self, line: str) -> None:
        """Writes ``line`` to the engine."""
        if self._batch is not None:
            self._batch.append(line)
            return
        if self.transport is None:
            raise EngineTerminatedError("the engine is not connected")
        stdin = self.transport.get_pipe_transport(0)
        if stdin is None:
            raise EngineTerminatedError("the engine's input is closed")
        stdin.write((line + "\n").encode("utf-8"))  # type: ignore[attr-defined]

    def _send_together(self, write: Callable[[], None]) -> None:
        """Calls ``write``, its lines sent to the engine in one write."""
        self._batch = []
        try:
            write()
        finally:
            lines, self._batch = self._batch, None
            if lines:
                self.send_line("\n".join(lines))

    # Commands.

    async def _run(self, command: _Command[T], *, initializing: bool = False) -> T:
        async with self._lock:
            running = self._command
            if running is not None and not running.finished.done():
                running.cancel()
                await asyncio.shield(running.finished)
            if self.returncode.done():
                raise EngineTerminatedError(f"the engine process ended (exit code {self.returncode.result()})")
            if initializing and self.initialized:
                raise EngineError("the engine is already initialized")
            if not initializing and not self.initialized:
                raise EngineError("the engine is not initialized (initialize() first, or it failed)")
            self._command = command
            try:
                command.start()
            except BaseException:
                command.finish()
                raise
        if command.result.done():  # answered without waiting on the engine
            return command.result.result()
        try:
            return await asyncio.shield(command.result)
        except asyncio.CancelledError:
            command.cancel()
            raise

    @classmethod
    async def popen(cls, command: Union[str, "os.PathLike[str]", List[str]], *, setpgrp: bool = False,
                    **popen_args: Any) -> Tuple[asyncio.SubprocessTransport, Any]:
        """Starts ``command`` with this protocol on its pipes (not yet
        initialized). ``setpgrp=True`` gives it a process group of its own,
        killed whole when the engine ends (an engine behind a wrapper
        script too)."""
        loop = asyncio.get_running_loop()
        popen_args.setdefault("stdin", subprocess.PIPE)
        popen_args.setdefault("stdout", subprocess.PIPE)
        popen_args.setdefault("stderr", subprocess.DEVNULL)
        if setpgrp:
            popen_args["start_new_session"] = True
        transport, protocol = await loop.subprocess_exec(cls, *_command_line(command), **popen_args)
        if setpgrp:
            protocol._group = transport.get_pid()
        return transport, protocol

    # The API every protocol has.

    async def initialize(self) -> None:
        raise NotImplementedError

    async def ping(self) -> None:
        raise NotImplementedError

    async def configure(self, options: ConfigMapping) -> None:
        raise NotImplementedError

    async def send_opponent_information(self, *, opponent: Optional[Opponent] = None,
                                        engine_rating: Optional[int] = None) -> None:
        raise NotImplementedError

    async def play(self, board: Any, limit: Limit, *, game: object = None, info: Info = INFO_NONE,
                   ponder: bool = False, draw_offered: bool = False, root_moves: Optional[Iterable[Any]] = None,
                   options: ConfigMapping = {}, opponent: Optional[Opponent] = None) -> PlayResult:
        raise NotImplementedError

    async def analysis(self, board: Any, limit: Optional[Limit] = None, *, multipv: Optional[int] = None,
                       game: object = None, info: Info = INFO_ALL, root_moves: Optional[Iterable[Any]] = None,
                       options: ConfigMapping = {}) -> AnalysisResult:
        raise NotImplementedError

    async def analyse(self, board: Any, limit: Limit, *, multipv: Optional[int] = None, game: object = None,
                      info: Info = INFO_ALL, root_moves: Optional[Iterable[Any]] = None,
                      options: ConfigMapping = {}) -> Union[InfoDict, List[InfoDict]]:
        """Searches ``board`` to ``limit``: the best PV's ``InfoDict``, or
        with ``multipv`` the list of the PVs'."""
        analysis = await self.analysis(board, limit, multipv=multipv, game=game, info=info,
                                       root_moves=root_moves, options=options)
        with analysis:
            await analysis.wait()
        return analysis.info if multipv is None else analysis.multipv

    async def send_game_result(self, board: Any, winner: Optional[bool] = None, game_ending: Optional[str] = None,
                               game_complete: bool = True) -> None:
        raise NotImplementedError

    async def quit(self) -> None:
        """Sends ``quit`` and waits for the engine to exit."""
        self.send_line("quit")
        await asyncio.shield(self.returncode)

    def __repr__(self) -> str:
        pid = self.transport.get_pid() if self.transport is not None else None
        return f"<{type(self).__name__} (pid={pid})>"


# --- UCI --------------------------------------------------------------------

def _same_position(a: Any, b: Any) -> bool:
    return [m.uci() for m in a.move_stack] == [m.uci() for m in b.move_stack] and a.fen() == b.fen()


def _root_fen(root: Any, chess960: bool) -> str:
    """The FEN a search's start is sent as (``shredder`` castling for
    Chess960, the en passant square whenever there is one). A standard
    python-chess board's is made in Rust from its masks: python-chess's
    own ``fen()`` would take longer than the rest of a short search."""
    if isinstance(root, _bitboards.Board) or getattr(type(root), "uci_variant", None) != "chess":
        return root.fen(shredder=chess960, en_passant="fen")  # type: ignore[no-any-return]
    try:
        return _bitboards.fen_of_masks(
            (root.pawns, root.knights, root.bishops, root.rooks, root.queens, root.kings), root.occupied_co[1],
            root.turn, root.castling_rights, root.ep_square, root.halfmove_clock, root.fullmove_number, chess960)
    except (AttributeError, IndexError, TypeError, ValueError, OverflowError):
        return root.fen(shredder=chess960, en_passant="fen")  # type: ignore[no-any-return]


def _milliseconds(seconds: float) -> int:
    return max(1, round(seconds * 1000))


class UciProtocol(Protocol):
    """The UCI protocol over an asyncio transport, as python-chess's
    ``UciProtocol``: ``initialize``, ``ping``, ``debug``, ``configure``,
    ``play`` (with pondering: ``ponderhit`` when the reply was the one
    expected), ``analysis``, ``analyse``, ``send_opponent_information``,
    ``quit``. It writes the lines python-chess writes."""

    def __init__(self) -> None:
        super().__init__()
        self.options: UciOptionMap[Option] = UciOptionMap()
        # What the engine has been sent, and what configure() asked for.
        self.config: UciOptionMap[ConfigValue] = UciOptionMap()
        self.target_config: UciOptionMap[ConfigValue] = UciOptionMap()
        self.game: object = None
        self.first_game = True
        self._search: Any = None
        self._turn = True
        # The position a ponder search may be continuing into, and whether
        # the next search is to say `ponderhit`.
        self._may_ponderhit: Any = None
        self._ponderhit = False
        # Whether the options sent are the configured ones.
        self._configured = False

    # Lines.

    def debug(self, on: bool = True) -> None:
        """Switches the engine's debug mode on or off."""
        self.send_line("debug on" if on else "debug off")

    def _setoption(self, name: str, value: ConfigValue) -> None:
        current = self.config.get(name)
        if value is not None and type(current) is type(value) and current == value:
            return  # as set (every search checks the managed options)
        option = self.options.get(name)
        if option is None:
            raise EngineError(f"the engine has no option {name!r}; it declared: {', '.join(self.options)}")
        value = option.parse(value)
        if value is not None and value == self.config.get(name):
            return
        if option.name != "UCI_Opponent":  # sent after ucinewgame
            if value is None:
                self.send_line(f"setoption name {option.name}")
            elif isinstance(value, bool):
                self.send_line(f"setoption name {option.name} value {'true' if value else 'false'}")
            else:
                self.send_line(f"setoption name {option.name} value {value}")
        self.config[option.name] = value

    def _wanted(self, options: ConfigMapping) -> Iterator[Tuple[str, ConfigValue]]:
        """The call's options, then the configured ones it does not name."""
        given = UciOptionMap(options)
        yield from given.items()
        for name, value in self.target_config.items():
            if name not in given:
                yield name, value

    def _changed_options(self, options: ConfigMapping) -> bool:
        return any(value is None or value != self.config.get(name) for name, value in self._wanted(options))

    def _configure(self, options: ConfigMapping) -> None:
        # A call without options after one that left every option as
        # configured has nothing to send: skip going through them all.
        if not options and self._configured:
            return
        self._configured = False
        for name, value in self._wanted(options):
            option = self.options.get(name)
            if option is not None and option.is_managed():
                raise EngineError(f"option {option.name!r} is set by the client itself "
                                  "(multipv=, ponder=, the board's chess960 and variant)")
            self._setoption(name, value)
        self._configured = not options

    def _ucinewgame(self) -> None:
        self.send_line("ucinewgame")
        opponent = self.config.get("UCI_Opponent") or self.target_config.get("UCI_Opponent")
        if opponent:
            self.send_line(f"setoption name UCI_Opponent value {opponent}")
        self.first_game = False
        self._ponderhit = False

    def _opponent_options(self, opponent: Optional[Opponent]) -> Dict[str, ConfigValue]:
        who = _uci_opponent(opponent)
        if who is None or "UCI_Opponent" not in self.options:
            return {}
        return {"UCI_Opponent": who}

    def _position(self, board: Any) -> None:
        variant = getattr(type(board), "uci_variant", "chess")
        if "UCI_Variant" in self.options:
            self._setoption("UCI_Variant", variant)
        elif variant != "chess":
            raise EngineError(f"the engine has no UCI_Variant option: it cannot play {variant}")
        chess960 = bool(getattr(board, "chess960", False))
        if "UCI_Chess960" in self.options:
            self._setoption("UCI_Chess960", chess960)
        elif chess960:
            raise EngineError("the engine has no UCI_Chess960 option: it cannot play Chess960")
        stack = list(board.move_stack)
        # A null move cannot be sent: the position alone is.
        whole = all(stack)
        root = board.root() if whole and stack else board
        fen = _root_fen(root, chess960)
        words = ["position"]
        if variant == "chess" and fen == _START_FEN:
            words.append("startpos")
        else:
            words += ["fen", fen]
        ucis = [move.uci() for move in stack] if whole else []
        if ucis:
            words.append("moves")
            words += ucis
        self.send_line(" ".join(words))
        # The position again for Rust, from the FEN made above (a
        # python-chess board's FEN is slow to make: once per search).
        query = board if isinstance(board, _bitboards.Board) else (fen, ucis, chess960)
        self._search = _bitboards.UciSearch(query)
        self._turn = self._search.turn

    def _go(self, limit: Limit, *, root_moves: Optional[Iterable[Any]] = None, ponder: bool = False,
            infinite: bool = False) -> None:
        words = ["go"]
        if ponder:
            words.append("ponder")
        if limit.white_clock is not None:
            words += ["wtime", str(_milliseconds(limit.white_clock))]
        if limit.black_clock is not None:
            words += ["btime", str(_milliseconds(limit.black_clock))]
        if limit.white_inc is not None:
            words += ["winc", str(round(limit.white_inc * 1000))]
        if limit.black_inc is not None:
            words += ["binc", str(round(limit.black_inc * 1000))]
        if limit.remaining_moves is not None and int(limit.remaining_moves) > 0:
            words += ["movestogo", str(int(limit.remaining_moves))]
        for name in ("depth", "nodes", "mate"):
            value = getattr(limit, name)
            if value is not None:
                words += [name, str(max(1, int(value)))]
        if limit.time is not None:
            words += ["movetime", str(_milliseconds(limit.time))]
        if infinite:
            words.append("infinite")
        if root_moves is not None:
            moves = [move.uci() for move in root_moves]
            # `searchmoves` followed by nothing would be read as no limit.
            words += ["searchmoves"] + (moves or ["0000"])
        self.send_line(" ".join(words))

    def _info(self, rest: str, selector: int) -> InfoDict:
        if not selector:
            return {}  # type: ignore[typeddict-item]
        return _info(self._search.info(rest), self._turn, selector)

    def _bestmove(self, rest: str) -> BestMove:
        move, reply = self._search.bestmove(rest)
        return BestMove(move, reply)

    # Commands.

    async def initialize(self) -> None:
        """The ``uci`` handshake: the engine's ``id`` and ``option`` lines,
        up to ``uciok``."""
        return await self._run(_UciInitialize(self), initializing=True)

    async def ping(self) -> None:
        """``isready``, answered by ``readyok``."""
        return await self._run(_UciPing(self))

    async def configure(self, options: ConfigMapping) -> None:
        """Sets options, checked against those the engine declared; they
        stay set for later searches."""
        return await self._run(_Configure(self, options))

    async def send_opponent_information(self, *, opponent: Optional[Opponent] = None,
                                        engine_rating: Optional[int] = None) -> None:
        """Sets ``UCI_Opponent`` (when the engine has it) for the next game."""
        return await self.configure(self._opponent_options(opponent))

    async def play(self, board: Any, limit: Limit, *, game: object = None, info: Info = INFO_NONE,
                   ponder: bool = False, draw_offered: bool = False, root_moves: Optional[Iterable[Any]] = None,
                   options: ConfigMapping = {}, opponent: Optional[Opponent] = None) -> PlayResult:
        """The engine's move in ``board`` at ``limit``. With ``ponder=True``
        the engine goes on thinking on the reply it expects, and the next
        ``play`` on that position continues that search (``ponderhit``)."""
        return await self._run(_UciPlay(self, board, limit, game, int(info), ponder, root_moves, options, opponent))

    async def analysis(self, board: Any, limit: Optional[Limit] = None, *, multipv: Optional[int] = None,
                       game: object = None, info: Info = INFO_ALL, root_moves: Optional[Iterable[Any]] = None,
                       options: ConfigMapping = {}) -> AnalysisResult:
        """Starts a search (without ``limit``, until stopped) and returns its
        ``AnalysisResult`` once the engine searches."""
        return await self._run(_UciAnalysis(self, board, limit, multipv, game, int(info), root_moves, options))

    async def send_game_result(self, board: Any, winner: Optional[bool] = None, game_ending: Optional[str] = None,
                               game_complete: bool = True) -> None:
        """UCI has no word for a game's end: nothing is sent."""



_START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


class _UciInitialize(_Command[None]):
    protocol: UciProtocol

    def start(self) -> None:
        self.protocol.send_line("uci")

    def line_received(self, line: str) -> None:
        protocol = self.protocol
        word, rest = _split(line)
        if line.strip() == "uciok":
            protocol.initialized = True
            self.result.set_result(None)
            self.finish()
        elif word == "option":
            row = _bitboards.parse_uci_option(line.strip())
            if row is None:
                return
            option = Option(*row)
            protocol.options[option.name] = option
            if option.default is not None:
                protocol.config[option.name] = option.default
                if not option.is_managed() and option.name.lower() != "uci_analysemode":
                    protocol.target_config[option.name] = option.default
        elif word == "id":
            key, value = _split(rest)
            if key:
                protocol.id[key] = value.strip()


class _UciPing(_Command[None]):
    def start(self) -> None:
        self.protocol.send_line("isready")

    def line_received(self, line: str) -> None:
        if line.strip() == "readyok":
            self.result.set_result(None)
            self.finish()


class _Configure(_Command[None]):
    """``configure``, for either protocol: the options set, and kept (but
    None, a button or a default) for later searches."""

    protocol: Any

    def __init__(self, protocol: Protocol, options: ConfigMapping) -> None:
        super().__init__(protocol)
        self.options = options

    def start(self) -> None:
        self.protocol._configure(self.options)
        self.protocol.target_config.update({name: value for name, value in self.options.items() if value is not None})
        self.result.set_result(None)
        self.finish()


class _UciSearchCommand(_Command[T]):
    """What a play and an analysis share: options, then ``ucinewgame`` and
    ``isready`` for a new game, then the position and ``go``."""

    protocol: UciProtocol

    def __init__(self, protocol: UciProtocol, game: object, selector: int) -> None:
        super().__init__(protocol)
        self.game = game
        self.selector = selector
        self.waiting_ready = False
        self.stop_sent = False

    def _new_game_or_go(self, new_game: bool) -> None:
        protocol = self.protocol
        if new_game:
            protocol.game = self.game
            protocol._ucinewgame()
            self.waiting_ready = True
            protocol.send_line("isready")
        else:
            self.go()

    def go(self) -> None:
        raise NotImplementedError

    def info_line(self, rest: str) -> None:
        raise NotImplementedError

    def bestmove_line(self, rest: str) -> None:
        raise NotImplementedError

    def line_received(self, line: str) -> None:
        word, rest = _split(line)
        if word == "info":
            self.info_line(rest)
        elif word == "bestmove":
            self.bestmove_line(rest)
        elif self.waiting_ready and line.strip() == "readyok":
            self.waiting_ready = False
            self.go()

    def _stop(self) -> None:
        if not self.stop_sent and not self.finished.done():
            self.stop_sent = True
            self.protocol.send_line("stop")


class _UciPlay(_UciSearchCommand[PlayResult]):
    def __init__(self, protocol: UciProtocol, board: Any, limit: Limit, game: object, selector: int, ponder: bool,
                 root_moves: Optional[Iterable[Any]], options: ConfigMapping, opponent: Optional[Opponent]) -> None:
        super().__init__(protocol, game, selector)
        self.board = board
        self.limit = limit
        self.ponder = ponder
        self.root_moves = root_moves
        self.options: Dict[str, ConfigValue] = dict(options)
        self.options.update(protocol._opponent_options(opponent))
        self.info: InfoDict = {}  # type: ignore[typeddict-item]
        self.pondering: Any = None
        self.started = 0.0
        # A search pondering on this very position may go on: only in the
        # same game, with the same options.
        same = ponder and not protocol.first_game and game == protocol.game
        protocol._may_ponderhit = board if same and not protocol._changed_options(self.options) else None

    def start(self) -> None:
        protocol = self.protocol
        self.started = time.perf_counter()
        if protocol._ponderhit:
            protocol._ponderhit = False
            protocol.send_line("ponderhit")
            return
        if ("UCI_AnalyseMode" in protocol.options and "UCI_AnalyseMode" not in protocol.target_config
                and all(name.lower() != "uci_analysemode" for name in self.options)):
            protocol._setoption("UCI_AnalyseMode", False)
        if "Ponder" in protocol.options:
            protocol._setoption("Ponder", self.ponder)
        if "MultiPV" in protocol.options:
            protocol._setoption("MultiPV", protocol.options["MultiPV"].default)
        opponent = self.options.get("UCI_Opponent") or protocol.target_config.get("UCI_Opponent")
        new_opponent = opponent != protocol.config.get("UCI_Opponent")
        protocol._configure(self.options)
        self._new_game_or_go(protocol.first_game or protocol.game != self.game or new_opponent)

    def go(self) -> None:
        def write() -> None:
            self.protocol._position(self.board)
            self.protocol._go(self.limit, root_moves=self.root_moves)

        self.protocol._send_together(write)

    def info_line(self, rest: str) -> None:
        if self.pondering is None:
            self.info.update(self.protocol._info(rest, self.selector))

    def bestmove_line(self, rest: str) -> None:
        if self.pondering is not None:
            # The ponder search's end (after `stop`).
            self.pondering = None
        elif not self.result.done():
            best = self.protocol._bestmove(rest)
            self.result.set_result(PlayResult(best.move, best.ponder, self.info))
            if self.ponder and best.move and best.ponder:
                self._ponder_on(best.move, best.ponder)
        if self.pondering is None:
            self._end()

    def _ponder_on(self, move: Any, reply: Any) -> None:
        board = self.board.copy()
        board.push(move)
        board.push(reply)
        self.pondering = board
        self.protocol._position(board)
        # The clocks as they will be when the reply is played.
        used = time.perf_counter() - self.started
        limit = dataclasses.replace(self.limit)
        if limit.white_clock is not None:
            limit.white_clock += limit.white_inc or 0.0
            if board.turn:
                limit.white_clock -= used
        if limit.black_clock is not None:
            limit.black_clock += limit.black_inc or 0.0
            if not board.turn:
                limit.black_clock -= used
        if limit.remaining_moves:
            limit.remaining_moves -= 1
        self.protocol._go(limit, ponder=True)

    def _end(self) -> None:
        self.protocol._may_ponderhit = None
        self.finish()

    def cancel(self) -> None:
        if self.finished.done():
            return
        expected = self.protocol._may_ponderhit
        if self.pondering is not None and expected is not None and _same_position(expected, self.pondering):
            # The next search is on the pondered position: it goes on.
            self.protocol._ponderhit = True
            self._end()
        else:
            self._stop()

    def fail(self, error: BaseException) -> None:
        # An engine that ends while pondering ends a play already answered.
        if not self.result.done():
            self.result.set_exception(error)
        self._end()


class _UciAnalysis(_UciSearchCommand[AnalysisResult]):
    def __init__(self, protocol: UciProtocol, board: Any, limit: Optional[Limit], multipv: Optional[int],
                 game: object, selector: int, root_moves: Optional[Iterable[Any]], options: ConfigMapping) -> None:
        super().__init__(protocol, game, selector)
        self.board = board
        self.limit = limit
        self.multipv = multipv
        self.root_moves = root_moves
        self.options = options
        self.analysis: Optional[AnalysisResult] = None

    def start(self) -> None:
        protocol = self.protocol
        self.analysis = AnalysisResult(stop=self.cancel)
        if "Ponder" in protocol.options:
            protocol._setoption("Ponder", False)
        if ("UCI_AnalyseMode" in protocol.options and "UCI_AnalyseMode" not in protocol.target_config
                and all(name.lower() != "uci_analysemode" for name in self.options)):
            protocol._setoption("UCI_AnalyseMode", True)
        if "MultiPV" in protocol.options or (self.multipv and self.multipv > 1):
            protocol._setoption("MultiPV", 1 if self.multipv is None else self.multipv)
        protocol._configure(self.options)
        self._new_game_or_go(protocol.first_game or protocol.game != self.game)

    def go(self) -> None:
        protocol = self.protocol

        def write() -> None:
            protocol._position(self.board)
            if self.limit is not None:
                protocol._go(self.limit, root_moves=self.root_moves)
            else:
                protocol._go(Limit(), root_moves=self.root_moves, infinite=True)

        protocol._send_together(write)
        self.result.set_result(self.analysis)  # type: ignore[arg-type]

    def info_line(self, rest: str) -> None:
        info = self.protocol._info(rest, self.selector)
        if info and self.analysis is not None:
            self.analysis.post(info)

    def bestmove_line(self, rest: str) -> None:
        if not self.result.done():
            raise EngineError("the engine sent `bestmove` before it was asked to search")
        best = self.protocol._bestmove(rest)
        self.finish()
        assert self.analysis is not None
        self.analysis.set_finished(best)

    def cancel(self) -> None:
        self._stop()

    def fail(self, error: BaseException) -> None:
        if self.analysis is not None:
            self.analysis.set_exception(error)
        super().fail(error)


# --- XBoard -----------------------------------------------------------------

_XBOARD_ERROR = re.compile(r"^\s*(Error|Illegal move)(\s*\([^()]+\))?\s*:")

# Options XBoard has as commands, not `option` lines: set in a new game.
_XBOARD_GAME_OPTIONS = ("random", "computer", "name", "engine_rating", "opponent_rating")


_XBOARD_OPTION_TYPES = ("check", "spin", "slider", "combo", "string", "file", "path", "button", "reset", "save")


def _xboard_option(text: str) -> Option:
    """An ``option="NAME -TYPE ..."`` feature's value as an ``Option``."""
    words = text.split()
    # A name may have spaces (`Debug Log File -string`): it ends at the type.
    at = next((i for i, word in enumerate(words) if i and word[1:] in _XBOARD_OPTION_TYPES and word[0] == "-"), None)
    if at is None:
        raise EngineError(f"an XBoard option is `NAME -TYPE ...`, not {text!r}")
    name, kind, rest = " ".join(words[:at]), words[at][1:], words[at + 1:]
    default: ConfigValue = None
    low = high = None
    var: Optional[List[str]] = None
    try:
        if kind == "combo":
            var = []
            for choice in rest:
                if choice == "///":
                    continue
                if choice.startswith("*"):
                    choice = choice[1:]
                    default = choice
                var.append(choice)
        elif kind == "check":
            default = bool(int(rest[0])) if rest else False
        elif kind in ("string", "file", "path"):
            default = rest[0] if rest else ""
        elif kind in ("spin", "slider"):
            kind = "spin"
            default, low, high = int(rest[0]), int(rest[1]), int(rest[2])
    except (IndexError, ValueError):
        raise EngineError(f"the XBoard option {text!r} has values that cannot be read") from None
    return Option(name, kind, default, low, high, var)


def _parse_xboard_post(line: str, root_board: Any, selector: int = INFO_ALL) -> InfoDict:
    """A thinking line (``depth score time nodes [seldepth [nps [tbhits]]]
    pv``; the score in centipawns, a mate as 100000 plus or minus the
    moves, the time in centiseconds) as an ``InfoDict``."""
    info: Dict[str, Any] = {}
    words = line.split()
    numbers: List[int] = []
    while words:
        try:
            numbers.append(int(words[0]))
        except ValueError:
            break
        words.pop(0)
    if len(numbers) < 4:
        return info  # type: ignore[return-value]
    depth, cp, centiseconds, nodes, *more = numbers
    info["depth"] = depth
    info["time"] = centiseconds / 100
    info["nodes"] = nodes
    if cp <= -100000:
        score: Score = Mate(cp + 100000)
    elif cp == 100000:
        score = MateGiven
    elif cp > 100000:
        score = Mate(cp - 100000)
    else:
        score = Cp(cp)
    info["score"] = PovScore(score, root_board.turn)
    if more:
        info["seldepth"] = more.pop(0)
    if more:
        info["nps"] = more.pop(0)
    if more:
        info["tbhits"] = more[-1]  # those between are reserved
    pv: List[Any] = []
    board = root_board.copy(stack=False)
    for word in words:
        if word.rstrip(".").isdigit():
            continue  # a move number
        try:
            pv.append(board.push_xboard(word))
        except ValueError:
            break
        if not selector & INFO_PV:
            break
    info["pv"] = pv
    return info  # type: ignore[return-value]


class XBoardProtocol(Protocol):
    """The XBoard protocol (CECP) over an asyncio transport, as
    python-chess's ``XBoardProtocol``: features, ``ping``, options, games
    replayed with ``force``, ``undo`` and ``remove``, ``level``/``st``/
    ``sd`` and the clocks, ``analyze``, opponents and results."""

    def __init__(self) -> None:
        super().__init__()
        self.features: Dict[str, Union[int, str]] = {}
        self.options: Dict[str, Option] = {
            "random": Option("random", "check", False, None, None, None),
            "computer": Option("computer", "check", False, None, None, None),
            "name": Option("name", "string", "", None, None, None),
            "engine_rating": Option("engine_rating", "spin", 0, None, None, None),
            "opponent_rating": Option("opponent_rating", "spin", 0, None, None, None),
        }
        self.config: Dict[str, ConfigValue] = {}
        self.target_config: Dict[str, ConfigValue] = {}
        self.board: Any = None
        self.game: object = None
        self.clock_id: object = None
        self.first_game = True
        self._pings = 0

    def _next_ping(self) -> str:
        """Sends ``ping N`` and returns the ``pong N`` that answers it."""
        self._pings = (self._pings + 1) & 0xffff
        self.send_line(f"ping {self._pings}")
        return f"pong {self._pings}"

    def _setoption(self, name: str, value: ConfigValue) -> None:
        if value is not None and value == self.config.get(name):
            return
        option = self.options.get(name)
        if option is None:
            raise EngineError(f"the XBoard engine has no option {name!r}; it has: {', '.join(self.options)}")
        value = option.parse(value)
        self.config[name] = value
        if name in _XBOARD_GAME_OPTIONS:
            return  # sent with the next new game
        if name in ("memory", "cores") or name.startswith("egtpath "):
            self.send_line(f"{name} {value}")
        elif value is None:
            self.send_line(f"option {name}")
        elif isinstance(value, bool):
            self.send_line(f"option {name}={int(value)}")
        else:
            self.send_line(f"option {name}={value}")

    def _configure(self, options: ConfigMapping) -> None:
        wanted = list(options.items()) + [(k, v) for k, v in self.target_config.items() if k not in options]
        for name, value in wanted:
            if name.lower() in MANAGED_OPTIONS:
                raise EngineError(f"option {name!r} is set by the client itself")
            self._setoption(name, value)

    def _opponent_options(self, opponent: Optional[Opponent], engine_rating: Optional[int] = None) -> Dict[str, ConfigValue]:
        if opponent is None:
            return {}
        options: Dict[str, ConfigValue] = {
            "engine_rating": engine_rating or self.target_config.get("engine_rating") or 0,
            "opponent_rating": opponent.rating or 0,
            "computer": bool(opponent.is_engine),
        }
        if opponent.name and self.features.get("name", True):
            options["name"] = f"{opponent.title or ''} {opponent.name}".strip()
        return options

    def _variant(self, variant: str) -> None:
        variants = str(self.features.get("variants", "")).split(",")
        if variant not in variants:
            raise EngineError(f"the XBoard engine does not play {variant} (it plays: {', '.join(variants)})")
        self.send_line(f"variant {variant}")

    def _new(self, board: Any, game: object, options: ConfigMapping, opponent: Optional[Opponent] = None) -> None:
        """Brings the engine's game to ``board``: a new game when the game,
        the start or the opponent changed, else moves taken back to where
        the two agree and the rest played."""
        self._configure(options)
        self._configure(self._opponent_options(opponent))
        root = board.root()
        new_game = (self.first_game or game != self.game or "random" in options or "computer" in options
                    or opponent is not None or self.board is None or root.fen() != self.board.root().fen())
        self.game = game
        self.first_game = False
        chess960 = bool(getattr(board, "chess960", False))
        if new_game:
            self.board = root.copy()
            self.send_line("new")
            variant = getattr(type(board), "xboard_variant", "normal")
            if variant == "normal" and chess960:
                self._variant("fischerandom")
            elif variant != "normal":
                self._variant(variant)
            if self.config.get("random"):
                self.send_line("random")
            name = self.config.get("name")
            if name and self.features.get("name", True):
                self.send_line(f"name {name}")
            engine_rating, opponent_rating = self.config.get("engine_rating"), self.config.get("opponent_rating")
            if engine_rating or opponent_rating:
                self.send_line(f"rating {engine_rating or 0} {opponent_rating or 0}")
            if self.config.get("computer"):
                self.send_line("computer")
            self.send_line("force")
            fen = root.fen(shredder=chess960, en_passant="fen")
            if variant != "normal" or fen != _START_FEN or chess960:
                self.send_line(f"setboard {fen}")
        else:
            self.send_line("force")
        ours = [move.uci() for move in self.board.move_stack]
        wanted = list(board.move_stack)
        common = 0
        if not new_game:
            for left, right in zip(ours, wanted):
                if left != right.uci():
                    break
                common += 1
            while len(self.board.move_stack) > common + 1:
                self.send_line("remove")
                self.board.pop()
                self.board.pop()
            while len(self.board.move_stack) > common:
                self.send_line("undo")
                self.board.pop()
        prefix = "usermove " if self.features.get("usermove", 0) else ""
        for move in wanted[common:]:
            self.send_line(prefix + self.board.xboard(move))
            self.board.push(move)

    async def initialize(self) -> None:
        """``xboard`` and ``protover 2``, then the engine's features, up to
        ``feature done=1`` (or 2 s of silence without ``done=0``)."""
        return await self._run(_XBoardInitialize(self), initializing=True)

    async def ping(self) -> None:
        """``ping N``, answered by ``pong N``."""
        return await self._run(_XBoardPing(self))

    async def configure(self, options: ConfigMapping) -> None:
        """Sets options (``option NAME=VALUE``; ``memory``, ``cores``,
        ``egtpath``), kept for later games."""
        return await self._run(_Configure(self, options))

    async def send_opponent_information(self, *, opponent: Optional[Opponent] = None,
                                        engine_rating: Optional[int] = None) -> None:
        """``name``, ``rating`` and ``computer``, sent with the next game."""
        return await self.configure(self._opponent_options(opponent, engine_rating))

    async def play(self, board: Any, limit: Limit, *, game: object = None, info: Info = INFO_NONE,
                   ponder: bool = False, draw_offered: bool = False, root_moves: Optional[Iterable[Any]] = None,
                   options: ConfigMapping = {}, opponent: Optional[Opponent] = None) -> PlayResult:
        """The engine's move in ``board`` at ``limit``."""
        if root_moves is not None:
            raise EngineError("XBoard restricts the root moves (`include`) only in analysis, not in play")
        return await self._run(_XBoardPlay(self, board, limit, game, int(info), ponder, draw_offered, options,
                                           opponent))

    async def analysis(self, board: Any, limit: Optional[Limit] = None, *, multipv: Optional[int] = None,
                       game: object = None, info: Info = INFO_ALL, root_moves: Optional[Iterable[Any]] = None,
                       options: ConfigMapping = {}) -> AnalysisResult:
        """``analyze`` on ``board``, stopped at ``limit`` (time, depth, nodes
        or mate; no clocks) or by ``stop()``."""
        if multipv is not None:
            raise EngineError("XBoard has no multipv")
        if limit is not None and (limit.white_clock is not None or limit.black_clock is not None):
            raise EngineError("an XBoard analysis takes no clocks")
        return await self._run(_XBoardAnalysis(self, board, limit, game, int(info), root_moves, options))

    async def send_game_result(self, board: Any, winner: Optional[bool] = None, game_ending: Optional[str] = None,
                               game_complete: bool = True) -> None:
        """``result``: the winner given, or the board's outcome."""
        return await self._run(_XBoardResult(self, board, winner, game_ending, game_complete))



class _XBoardInitialize(_Command[None]):
    protocol: XBoardProtocol

    def start(self) -> None:
        self.protocol.send_line("xboard")
        self.protocol.send_line("protover 2")
        self.silence = self.protocol.loop.call_later(2.0, self.end)

    def line_received(self, line: str) -> None:
        word, rest = _split(line)
        if word.startswith("#"):
            return
        if word == "feature":
            self.feature(rest)
        elif _XBOARD_ERROR.match(line):
            self.silence.cancel()
            raise EngineError(f"the engine says: {line.strip()}")

    def feature(self, text: str) -> None:
        protocol = self.protocol
        try:
            pairs = shlex.split(text)
        except ValueError as error:
            raise EngineError(f"a feature line that cannot be read ({error}): {text!r}") from None
        for pair in pairs:
            key, _, value = pair.partition("=")
            if key == "option":
                option = _xboard_option(value)
                if option.name not in ("random", "computer", "cores", "memory"):
                    protocol.options[option.name] = option
            else:
                try:
                    protocol.features[key] = int(value)
                except ValueError:
                    protocol.features[key] = value
        if "done" in protocol.features:
            self.silence.cancel()
        if protocol.features.get("done"):
            self.end()

    def end(self) -> None:
        if self.finished.done():
            return
        protocol = self.protocol
        features = protocol.features
        for needed in ("ping", "setboard"):
            if not features.get(needed, 0):
                self.fail(EngineError(f"the XBoard engine lacks the feature {needed}=1, which is needed"))
                return
        if not features.get("reuse", 1):
            protocol.send_line("rejected reuse")
        if not features.get("sigterm", 1):
            protocol.send_line("rejected sigterm")
        if features.get("san", 0):
            protocol.send_line("rejected san")
        if "myname" in features:
            protocol.id["name"] = str(features["myname"])
        if features.get("memory", 0):
            protocol.options["memory"] = Option("memory", "spin", 16, 1, None, None)
            protocol.send_line("accepted memory")
        if features.get("smp", 0):
            protocol.options["cores"] = Option("cores", "spin", 1, 1, None, None)
            protocol.send_line("accepted smp")
        if features.get("egt"):
            for kind in str(features["egt"]).split(","):
                name = f"egtpath {kind}"
                protocol.options[name] = Option(name, "path", None, None, None, None)
            protocol.send_line("accepted egt")
        for option in protocol.options.values():
            if option.default is not None:
                protocol.config[option.name] = option.default
                if not option.is_managed():
                    protocol.target_config[option.name] = option.default
        protocol.initialized = True
        self.result.set_result(None)
        self.finish()

    def fail(self, error: BaseException) -> None:
        self.silence.cancel()
        super().fail(error)


class _XBoardPing(_Command[None]):
    protocol: XBoardProtocol

    def start(self) -> None:
        self.pong = self.protocol._next_ping()

    def line_received(self, line: str) -> None:
        if line.strip() == self.pong:
            self.result.set_result(None)
            self.finish()
        elif _XBOARD_ERROR.match(line):
            raise EngineError(f"the engine says: {line.strip()}")


class _XBoardResult(_Command[None]):
    protocol: XBoardProtocol

    def __init__(self, protocol: XBoardProtocol, board: Any, winner: Optional[bool], ending: Optional[str],
                 complete: bool) -> None:
        super().__init__(protocol)
        self.board, self.winner, self.ending, self.complete = board, winner, ending, complete

    def start(self) -> None:
        ending = self.ending
        if ending and any(c in ending for c in "{}\n\r"):
            raise EngineError(f"a game's ending is one line without braces, not {ending!r}")
        self.protocol._new(self.board, self.protocol.game, {})  # the last moves
        outcome = self.board.outcome(claim_draw=True)
        if not self.complete:
            result, text = "*", ending or ""
        elif self.winner is not None or ending:
            result = "1-0" if self.winner is True else "0-1" if self.winner is False else "1/2-1/2"
            text = ending or ""
        elif outcome is not None and outcome.winner is not None:
            result = outcome.result()
            mates = outcome.termination.name == "CHECKMATE"
            text = f"{'White' if outcome.winner else 'Black'} {'mates' if mates else 'variant win'}"
        elif outcome is not None:
            result = outcome.result()
            text = outcome.termination.name.capitalize().replace("_", " ")
        else:
            result, text = "*", ""
        self.protocol.send_line(f"result {result} {{{text}}}" if text else f"result {result}")
        self.result.set_result(None)
        self.finish()


class _XBoardPlay(_Command[PlayResult]):
    protocol: XBoardProtocol

    def __init__(self, protocol: XBoardProtocol, board: Any, limit: Limit, game: object, selector: int, ponder: bool,
                 draw_offered: bool, options: ConfigMapping, opponent: Optional[Opponent]) -> None:
        super().__init__(protocol)
        self.board, self.limit, self.game, self.selector = board, limit, game, selector
        self.ponder, self.draw_offered, self.options, self.opponent = ponder, draw_offered, options, opponent
        self.played = PlayResult(None, None)
        self.stopped = False
        self.pong_after_move: Optional[str] = None
        self.pong_after_ponder: Optional[str] = None

    def start(self) -> None:
        protocol, board, limit = self.protocol, self.board, self.limit
        protocol._new(board, self.game, self.options, self.opponent)
        clock = limit.white_clock if board.turn else limit.black_clock
        increment = limit.white_inc if board.turn else limit.black_inc
        if limit.clock_id is None or limit.clock_id != protocol.clock_id:
            if limit.remaining_moves or clock is not None or increment is not None:
                minutes, seconds = divmod(int(clock or 0), 60)
                protocol.send_line(f"level {limit.remaining_moves or 0} {minutes}:{seconds:02d} {increment or 0}")
            if limit.time is not None:
                protocol.send_line(f"st {max(0.01, limit.time)}")
        protocol.clock_id = limit.clock_id
        if limit.nodes is not None:
            if (limit.time is not None or limit.white_clock is not None or limit.black_clock is not None
                    or increment is not None):
                raise EngineError("XBoard cannot limit nodes and time at once")
            if not protocol.features.get("nps", 1):
                raise EngineError("the XBoard engine cannot limit nodes (feature nps=0)")
            protocol.send_line("nps 1")
            protocol.send_line(f"st {max(1, int(limit.nodes))}")
        if limit.depth is not None:
            protocol.send_line(f"sd {max(1, int(limit.depth))}")
        if limit.white_clock is not None:
            protocol.send_line(f"{'time' if board.turn else 'otim'} {max(1, round(limit.white_clock * 100))}")
        if limit.black_clock is not None:
            protocol.send_line(f"{'otim' if board.turn else 'time'} {max(1, round(limit.black_clock * 100))}")
        if self.draw_offered and protocol.features.get("draw", 1):
            protocol.send_line("draw")
        protocol.send_line("post" if self.selector else "nopost")
        protocol.send_line("hard" if self.ponder else "easy")
        protocol.send_line("go")

    def line_received(self, line: str) -> None:
        word, rest = _split(line)
        rest = rest.strip()
        if word == "move":
            self.move(rest)
        elif word == "Hint:":
            if not self.result.done() and self.played.move is not None and self.played.ponder is None:
                try:
                    self.played.ponder = self.protocol.board.parse_xboard(rest)
                except ValueError:
                    pass  # a hint that is not a move: none
        elif word == "pong":
            pong = f"pong {rest}"
            if pong == self.pong_after_move:
                if not self.result.done():
                    self.result.set_result(self.played)
                if not self.ponder:
                    self.finish()
            elif pong == self.pong_after_ponder:
                if not self.result.done():
                    self.result.set_result(self.played)
                self.finish()
        elif line.strip() == "offer draw":
            if not self.result.done():
                self.played.draw_offered = True
            self.ping_after_move()
        elif line.strip() == "resign":
            if not self.result.done():
                self.played.resigned = True
            self.ping_after_move()
        elif word in ("1-0", "0-1", "1/2-1/2"):
            if "resign" in line and not self.result.done():
                self.played.resigned = True
            self.ping_after_move()
        elif word.startswith("#"):
            pass
        elif _XBOARD_ERROR.match(line):
            self.protocol.first_game = True  # the engine's board may differ from ours now
            raise EngineError(f"the engine says: {line.strip()}")
        elif len(line.split()) >= 4 and line.lstrip()[:1].isdigit():
            if not self.result.done():
                self.played.info = _parse_xboard_post(line, self.protocol.board, self.selector)

    def move(self, text: str) -> None:
        board = self.protocol.board
        if not self.result.done() and self.played.move is None:
            try:
                self.played.move = board.push_xboard(text)
            except ValueError as error:
                raise EngineError(f"the engine's move {text!r} is not legal in {board.fen()} ({error})") from None
            self.ping_after_move()
        else:
            try:
                board.push_xboard(text)  # a move while pondering
            except ValueError:
                pass

    def ping_after_move(self) -> None:
        if self.pong_after_move is None:
            self.pong_after_move = self.protocol._next_ping()

    def cancel(self) -> None:
        if self.stopped or self.finished.done():
            return
        self.stopped = True
        if self.result.cancelled():
            self.protocol.send_line("?")
        if self.ponder:
            self.protocol.send_line("easy")
            self.pong_after_ponder = self.protocol._next_ping()

    def fail(self, error: BaseException) -> None:
        if not self.result.done():
            self.result.set_exception(error)
        self.finish()


class _XBoardAnalysis(_Command[AnalysisResult]):
    protocol: XBoardProtocol

    def __init__(self, protocol: XBoardProtocol, board: Any, limit: Optional[Limit], game: object, selector: int,
                 root_moves: Optional[Iterable[Any]], options: ConfigMapping) -> None:
        super().__init__(protocol)
        self.board, self.limit, self.game, self.selector = board, limit, game, selector
        self.root_moves, self.options = root_moves, options
        self.stopped = False
        self.best: Any = None
        self.final_pong: Optional[str] = None
        self.timer: Optional[asyncio.TimerHandle] = None
        self.analysis: Optional[AnalysisResult] = None

    def start(self) -> None:
        protocol = self.protocol
        self.analysis = AnalysisResult(stop=self.cancel)
        protocol._new(self.board, self.game, self.options)
        if self.root_moves is not None:
            if not protocol.features.get("exclude", 0):
                raise EngineError("the XBoard engine cannot restrict the root moves (feature exclude=0)")
            protocol.send_line("exclude all")
            for move in self.root_moves:
                protocol.send_line(f"include {protocol.board.xboard(move)}")
        protocol.send_line("post")
        protocol.send_line("analyze")
        self.result.set_result(self.analysis)
        if self.limit is not None and self.limit.time is not None:
            self.timer = protocol.loop.call_later(self.limit.time, self.cancel)

    def line_received(self, line: str) -> None:
        word, rest = _split(line)
        if word.startswith("#"):
            return
        if len(line.split()) >= 4 and line.lstrip()[:1].isdigit():
            self.post(line)
        elif f"{word} {rest.strip()}" == self.final_pong:
            self.end()
        elif _XBOARD_ERROR.match(line):
            self.protocol.first_game = True
            raise EngineError(f"the engine says: {line.strip()}")

    def post(self, line: str) -> None:
        assert self.analysis is not None
        info = _parse_xboard_post(line, self.protocol.board, self.selector)
        self.analysis.post(info)
        if info.get("pv"):
            self.best = info["pv"][0]
        limit = self.limit
        if limit is None:
            return
        if ((limit.time is not None and info.get("time", 0) >= limit.time)
                or (limit.nodes is not None and info.get("nodes", 0) >= limit.nodes)
                or (limit.depth is not None and info.get("depth", 0) >= limit.depth)
                or (limit.mate is not None and "score" in info and info["score"].relative >= Mate(limit.mate))):
            self.cancel()

    def end(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.finish()
        assert self.analysis is not None
        self.analysis.set_finished(BestMove(self.best, None))

    def cancel(self) -> None:
        if self.stopped or self.finished.done():
            return
        self.stopped = True
        self.protocol.send_line(".")
        self.protocol.send_line("exit")
        self.final_pong = self.protocol._next_ping()

    def fail(self, error: BaseException) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.analysis is not None:
            self.analysis.set_exception(error)
        super().fail(error)


# --- Starting engines -------------------------------------------------------

async def popen_uci(command: Union[str, "os.PathLike[str]", List[str]], *, setpgrp: bool = False,
                    **popen_args: Any) -> Tuple[asyncio.SubprocessTransport, UciProtocol]:
    """Starts a UCI engine (a path, or a list of the path and its
    arguments) and its handshake: ``(transport, protocol)``. Bound the
    wait with ``asyncio.wait_for``. ``setpgrp=True`` starts it in a
    process group of its own, killed whole when it ends (an engine behind
    a wrapper script too); Ctrl-C then no longer reaches it."""
    return await _popen_initialized(UciProtocol, command, setpgrp, popen_args)


async def popen_xboard(command: Union[str, "os.PathLike[str]", List[str]], *, setpgrp: bool = False,
                       **popen_args: Any) -> Tuple[asyncio.SubprocessTransport, XBoardProtocol]:
    """Starts an XBoard engine and reads its features, as ``popen_uci``."""
    return await _popen_initialized(XBoardProtocol, command, setpgrp, popen_args)


async def _popen_initialized(cls: Any, command: Union[str, "os.PathLike[str]", List[str]], setpgrp: bool,
                             popen_args: Dict[str, Any]) -> Any:
    """A started engine, initialized (its process ended if that fails)."""
    transport, protocol = await cls.popen(command, setpgrp=setpgrp, **popen_args)
    try:
        await protocol.initialize()
    except BaseException:
        transport.close()
        raise
    return transport, protocol


def run_in_background(coroutine: Callable[["concurrent.futures.Future[T]"], Coroutine[Any, Any, None]], *,
                      name: Optional[str] = None, debug: Optional[bool] = None) -> T:
    """Runs ``coroutine(future)`` in a new event loop on a thread of its
    own and returns the future's result as soon as it is set; the
    coroutine may go on after that. An error it raises before setting the
    result is raised here."""
    future: "concurrent.futures.Future[T]" = concurrent.futures.Future()

    def background() -> None:
        try:
            asyncio.run(coroutine(future), debug=debug)
            if not future.done():
                future.set_exception(EngineError("the coroutine ended without setting the future's result"))
        except BaseException as error:
            if not future.done():
                future.set_exception(error)

    threading.Thread(target=background, name=name or "bitboards-engine-background", daemon=True).start()
    return future.result()


# --- A transport for tests --------------------------------------------------

class MockTransport(asyncio.SubprocessTransport, asyncio.WriteTransport):
    """A transport that plays an engine from a script, for tests:
    ``expect(line, responses)`` says what the protocol must write next
    and what the engine answers (after the current step of the loop);
    ``expect_ping()`` answers one XBoard ``ping N`` with ``pong N``;
    ``assert_done()`` checks that every expected line was written."""

    def __init__(self, protocol: Protocol) -> None:
        super().__init__()
        self.protocol = protocol
        self._script: Deque[Tuple[str, List[str]]] = collections.deque()
        self._pings = 0
        self._written = bytearray()
        protocol.connection_made(self)

    def expect(self, expectation: str, responses: List[str] = []) -> None:
        self._script.append((expectation, list(responses)))

    def expect_ping(self) -> None:
        self._pings += 1

    def assert_done(self) -> None:
        assert not self._script, f"lines expected but not written: {list(self._script)}"

    def get_pipe_transport(self, fd: int) -> Any:
        assert fd == 0, f"only the engine's input (0) is written, not {fd}"
        return self

    def write(self, data: Union[bytes, bytearray, memoryview]) -> None:
        self._written += data
        while b"\n" in self._written:
            raw, _, rest = bytes(self._written).partition(b"\n")
            self._written = bytearray(rest)
            self._line(raw.decode("utf-8"))

    def _line(self, line: str) -> None:
        if self._pings and line.startswith("ping "):
            self._pings -= 1
            self._answer(["pong " + line[len("ping "):]])
            return
        assert self._script, f"the protocol wrote {line!r}, and nothing more was expected"
        expected, responses = self._script.popleft()
        assert line == expected, f"the protocol wrote {line!r} where {expected!r} was expected"
        if responses:
            self._answer(responses)

    def _answer(self, lines: List[str]) -> None:
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        self.protocol.loop.call_soon(self.protocol.pipe_data_received, 1, data)

    def get_pid(self) -> int:
        return id(self)

    def get_returncode(self) -> Optional[int]:
        return 0 if not self._script else None
