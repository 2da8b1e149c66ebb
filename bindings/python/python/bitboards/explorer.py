"""An opening explorer of your own games, built in Rust, answered as Lichess's.

``build`` indexes PGN files (plain or compressed) on every core; building
into a directory that holds an index adds the games. ``open`` returns an
``Explorer`` whose ``lichess`` and ``player`` answer what Lichess's explorer
API (``GET /lichess``, ``GET /player``) answers, as the same dict, and whose
``moves`` gives the moves as a ``pyarrow.Table``. A position is given as a
board (``bitboards.Board`` or python-chess's: its root position and moves
are used, so the opening is named as on the way) or as moves ``play`` from
the standard start.

Games count as Lichess's explorer counts them: standard chess, no bots, a
known result, both ratings, a month (``Date``/``UTCDate``) and a
``TimeControl``; the first 50 plies, a position recurring in a game counted
once. A masters index (``build(..., masters=True)``) counts as Lichess's
masters explorer: over-the-board games of a 2200 midpoint and up, by year,
every ply; ``Explorer.masters`` answers ``GET /masters`` and
``Explorer.masters_pgn`` gives a game back as PGN.

>>> import os, pathlib, tempfile, bitboards, bitboards.explorer
>>> pgn = pathlib.Path(tempfile.mkdtemp()) / "games.pgn"
>>> tags = '[White "a"]\\n[Black "b"]\\n[WhiteElo "2100"]\\n[BlackElo "1900"]\\n[UTCDate "2024.05.01"]\\n[TimeControl "180+0"]\\n'
>>> _ = pgn.write_text(tags + '[Result "1-0"]\\n\\n1. e4 e5 1-0\\n\\n' + tags + '[Result "0-1"]\\n\\n1. e4 c5 0-1\\n\\n')
>>> index = os.path.join(tempfile.mkdtemp(), "index")
>>> bitboards.explorer.build([pgn], index)["games_indexed"]
2
>>> explorer = bitboards.explorer.open(index)
>>> answer = explorer.lichess(play=["e2e4"])
>>> answer["white"], answer["black"], sorted(move["san"] for move in answer["moves"])
(1, 1, ['c5', 'e5'])
>>> board = bitboards.Board()
>>> board.push_san("e4")
Move.from_uci('e2e4')
>>> explorer.lichess(board, speeds=["blitz"], ratings=[2000])["moves"][0]["averageRating"]
1900
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Union

from ._bitboards import ExplorerIndex, IndexCorruptError, explorer_build, explorer_merge

if TYPE_CHECKING:
    import pyarrow  # type: ignore  # (pyarrow has no type hints)

__all__ = ["build", "merge", "open", "Explorer", "IndexCorruptError"]

_PathLike = Union[str, "os.PathLike[str]"]


def build(
    paths: Union[_PathLike, Iterable[_PathLike]],
    out: _PathLike,
    *,
    max_ply: Optional[int] = None,
    threads: Optional[int] = None,
    masters: bool = False,
) -> Dict[str, Any]:
    """Indexes the games of ``paths`` (PGN files, plain or ``.zst``, ``.gz``,
    ``.bz2``) into the directory ``out`` on ``threads`` threads (every core by
    default), adding to the index already there, counting ``max_ply`` plies
    of each game (50 by default; every ply for a ``masters`` index). Returns
    the report: games read and indexed, those left out by reason, segments
    and bytes written, seconds."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return explorer_build([os.fspath(path) for path in paths], os.fspath(out), max_ply, threads, masters)


def merge(path: _PathLike, others: Iterable[_PathLike] = ()) -> int:
    """Merges the segments of the index in ``path`` into one, with the games
    of the indexes in ``others`` (built apart: one per file on Dask workers,
    say; left as they are) after its own. Returns the number of games."""
    return explorer_merge(os.fspath(path), [os.fspath(other) for other in others])


def open(path: _PathLike) -> "Explorer":
    """Opens the index in ``path`` (every segment read and checked)."""
    return Explorer(os.fspath(path))


def _where(board: Any, play: Sequence[str]) -> "tuple[Optional[str], List[str]]":
    """The FEN and moves of a query: a board's root and its moves, then ``play``."""
    moves = [str(move) for move in play]
    if board is None:
        return None, moves
    stack = getattr(board, "move_stack", None)
    root = board.root() if stack else board
    return root.fen(), [move.uci() for move in (stack or [])] + moves


def _list(values: Optional[Iterable[Any]]) -> Optional[str]:
    return None if values is None else ",".join(str(value) for value in values)


def _color(color: Any) -> bool:
    if isinstance(color, str):
        if color not in ("white", "black"):
            raise ValueError(f"invalid color {color!r}: expected 'white' or 'black'")
        return color == "white"
    return bool(color)


class Explorer(ExplorerIndex):
    """An index, opened: its answers are Lichess's explorer API's dicts.

    ``games`` is the number of games indexed, ``segments`` the segments on
    disk (``merge`` makes one)."""

    def lichess(
        self,
        board: Any = None,
        *,
        play: Sequence[str] = (),
        speeds: Optional[Iterable[str]] = None,
        ratings: Optional[Iterable[int]] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        moves: int = 12,
        top_games: int = 4,
        recent_games: int = 4,
        history: bool = False,
    ) -> Dict[str, Any]:
        """What ``GET /lichess`` answers for the position of ``board`` (the
        standard start by default) after ``play`` (UCI moves): ``white``,
        ``draws``, ``black``, the ``moves`` most played first (``uci``,
        ``san``, ``averageRating``, the results, the ``game`` of a move
        played once, the ``opening`` after it), ``topGames``,
        ``recentGames``, the ``opening`` and, with ``history``, the games by
        month. ``speeds`` are Lichess's names (``blitz``, ...), ``ratings``
        the groups' lower bounds (0, 1000, 1200, ..., 2200, 2500), ``since``
        and ``until`` months ``YYYY-MM``."""
        fen, played = _where(board, play)
        return json.loads(
            self.lichess_json(
                fen, played, _list(speeds), _list(ratings), since, until, moves, top_games, recent_games, history
            )
        )

    def masters(
        self,
        board: Any = None,
        *,
        play: Sequence[str] = (),
        since: Optional[int] = None,
        until: Optional[int] = None,
        moves: int = 12,
        top_games: int = 15,
    ) -> Dict[str, Any]:
        """What ``GET /masters`` answers for the position of ``board`` after
        ``play``, from the games of the years ``since`` to ``until``:
        ``white``, ``draws``, ``black``, the ``moves`` (as ``lichess``'s),
        the ``topGames`` by the players' rating sum (15 at the most) and the
        ``opening``. For a masters index (``build(..., masters=True)``)."""
        fen, played = _where(board, play)
        return json.loads(self.masters_json(fen, played, since, until, moves, top_games))

    def player(
        self,
        name: str,
        color: Any,
        board: Any = None,
        *,
        play: Sequence[str] = (),
        speeds: Optional[Iterable[str]] = None,
        modes: Optional[Iterable[str]] = None,
        since: Optional[str] = None,
        until: Optional[str] = None,
        moves: int = 12,
        recent_games: int = 8,
    ) -> Dict[str, Any]:
        """What ``GET /player`` answers: the moves ``name`` played or met as
        ``color`` (``"white"``/``"black"``, or ``bitboards.WHITE``/``BLACK``),
        with ``averageOpponentRating`` and ``performance``, and the
        ``recentGames``. ``modes`` are ``"rated"`` and ``"casual"``."""
        fen, played = _where(board, play)
        return json.loads(
            self.player_json(
                name, _color(color), fen, played, _list(speeds), _list(modes), since, until, moves, recent_games
            )
        )

    def moves(self, board: Any = None, **query: Any) -> "pyarrow.Table":
        """The moves of ``lichess(board, **query)`` as a ``pyarrow.Table``:
        ``uci``, ``san``, ``games``, ``white``, ``draws``, ``black``,
        ``average_rating``, ``opening_eco``, ``opening_name``, most played
        first."""
        import pyarrow

        query.setdefault("top_games", 0)
        query.setdefault("recent_games", 0)
        answer = self.lichess(board, **query)
        rows = answer["moves"]
        return pyarrow.table(
            {
                "uci": pyarrow.array([row["uci"] for row in rows], pyarrow.string()),
                "san": pyarrow.array([row["san"] for row in rows], pyarrow.string()),
                "games": pyarrow.array([row["white"] + row["draws"] + row["black"] for row in rows], pyarrow.uint64()),
                "white": pyarrow.array([row["white"] for row in rows], pyarrow.uint64()),
                "draws": pyarrow.array([row["draws"] for row in rows], pyarrow.uint64()),
                "black": pyarrow.array([row["black"] for row in rows], pyarrow.uint64()),
                "average_rating": pyarrow.array([row.get("averageRating") for row in rows], pyarrow.uint16()),
                "opening_eco": pyarrow.array([(row["opening"] or {}).get("eco") for row in rows], pyarrow.string()),
                "opening_name": pyarrow.array([(row["opening"] or {}).get("name") for row in rows], pyarrow.string()),
            }
        )
