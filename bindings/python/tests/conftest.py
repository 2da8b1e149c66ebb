"""Shared helpers of the `bitboards` tests: seeded games played by
python-chess (the oracle), which the tests replay on `bitboards.Board`.

A game is described by a `GameSpec` (a start, a seed and a style of play);
`play_game(spec)` plays it with python-chess alone and returns the start FEN,
whether it is Chess960 and the moves as UCI. Keeping the generation on the
oracle's side means a bug in the package cannot steer the games away from
the positions that would show it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import chess
import chess.polyglot
import pytest

import bitboards

CORNERS = chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8

# Text a test leaves for the end of the run (`record_property("summary",
# text)`), such as python-chess's suite's table of classes: collected from
# the reports, which pytest-xdist carries back from its workers.
_SUMMARIES: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call":
        _SUMMARIES.extend(str(value) for name, value in report.user_properties if name == "summary")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for text in _SUMMARIES:
        terminalreporter.write_line("")
        for line in text.splitlines():
            terminalreporter.write_line(line)


@dataclass(frozen=True)
class GameSpec:
    """How to play one generated game."""

    name: str
    seed: int
    fen: str = chess.STARTING_FEN
    chess960: bool = False
    # Chess960 start position number (overrides fen).
    pos960: int | None = None
    plies: int = 120
    # Probability of taking a capture when there is one.
    capture: float = 0.3
    # Probability of castling when castling is legal.
    castle: float = 0.5
    # Look for mating moves (costly: only for short endgame games).
    mate: bool = False
    # (after_ply, cycles): at that ply, shuffle pieces back and forth for
    # `cycles` cycles of four plies (repetitions up to fivefold).
    shuffles: tuple = field(default_factory=tuple)
    # UCI moves played first.
    opening: tuple = field(default_factory=tuple)

    def __str__(self):
        return self.name


def start_board(spec):
    """python-chess's start position of `spec`."""
    if spec.pos960 is not None:
        return chess.Board.from_chess960_pos(spec.pos960)
    return chess.Board(spec.fen, chess960=spec.chess960)


def _is_mate(board, move):
    board.push(move)
    try:
        return board.is_checkmate()
    finally:
        board.pop()


def _hangs(board, move):
    board.push(move)
    try:
        return any(board.is_capture(m) for m in board.legal_moves)
    finally:
        board.pop()


def pick_move(board, rng, spec):
    """A move for python-chess's `board`, chosen by `rng` in `spec`'s style
    (from the legal moves sorted by UCI, so the choice is reproducible)."""
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    if not moves:
        return None
    if spec.mate:
        mates = [m for m in moves if _is_mate(board, m)]
        if mates and rng.random() < 0.5:
            return rng.choice(mates)
        if board.turn == chess.WHITE:
            # The attacker keeps its pieces: no move that leaves one to take.
            safe = [m for m in moves if not _hangs(board, m)]
            moves = safe or moves
    castles = [m for m in moves if board.is_castling(m)]
    if castles and rng.random() < spec.castle:
        return rng.choice(castles)
    promotions = [m for m in moves if m.promotion]
    if promotions and rng.random() < 0.7:
        return rng.choice(promotions)
    en_passant = [m for m in moves if board.is_en_passant(m)]
    if en_passant and rng.random() < 0.7:
        return rng.choice(en_passant)
    captures = [m for m in moves if board.is_capture(m)]
    if captures and rng.random() < spec.capture:
        return rng.choice(captures)
    return rng.choice(moves)


def _quiet_piece_moves(board):
    return sorted(
        (
            m
            for m in board.legal_moves
            if board.piece_type_at(m.from_square) != chess.PAWN
            and not board.is_capture(m)
            and not board.is_castling(m)
        ),
        key=lambda m: m.uci(),
    )


def _shuffle_cycle(board, rng):
    """Four plies that come back to the position: a quiet piece move of each
    side and their reverses. Returns the moves (not played) or None."""
    white = _quiet_piece_moves(board)
    rng.shuffle(white)
    for first in white[:8]:
        board.push(first)
        replies = _quiet_piece_moves(board)
        rng.shuffle(replies)
        for second in replies[:8]:
            board.push(second)
            back1 = chess.Move(first.to_square, first.from_square)
            if board.is_legal(back1):
                board.push(back1)
                back2 = chess.Move(second.to_square, second.from_square)
                ok = board.is_legal(back2)
                board.pop()
                if ok:
                    board.pop()
                    board.pop()
                    return [first, second, back1, back2]
            board.pop()
        board.pop()
    return None


def play_game(spec):
    """Plays `spec` with python-chess: (start FEN, chess960, [uci])."""
    rng = random.Random(spec.seed)
    board = start_board(spec)
    start = board.fen()
    shuffles = dict(spec.shuffles)
    for uci in spec.opening:
        board.push_uci(uci)
    for ply in range(len(spec.opening), spec.plies):
        if ply in shuffles and not board.is_game_over():
            cycle = _shuffle_cycle(board, rng)
            if cycle is not None:
                for _ in range(shuffles[ply]):
                    for move in cycle:
                        board.push(move)
                continue
        move = pick_move(board, rng, spec)
        if move is None:
            break
        board.push(move)
    return start, board.chess960, [m.uci() for m in board.move_stack]


# Endgame starts where random play reaches checkmate, stalemate,
# insufficient material, promotions (and underpromotions), en passant and
# the move-count rules.
ENDGAMES = [
    ("kq_mate", "8/8/3k4/8/8/8/1Q6/4K3 w - - 0 1", dict(mate=True, plies=80)),
    ("kr_mate", "8/8/3k4/8/8/8/8/R3K3 w - - 0 1", dict(mate=True, plies=80)),
    ("kq_vs_kp", "8/8/8/8/8/2k5/1p6/4K1Q1 w - - 0 1", dict(mate=True, plies=80)),
    ("stalemate_corner", "k7/8/1Q6/8/8/8/8/6K1 w - - 0 1", dict(mate=True, plies=40)),
    ("promotions", "8/1P2P1k1/8/8/8/8/1p3p1K/8 w - - 0 1", dict(capture=0.8, plies=60)),
    ("underpromotion_mates", "3r2k1/4P3/6K1/8/8/8/8/8 w - - 0 1", dict(mate=True, capture=0.5, plies=40)),
    ("en_passant", "4k3/1p1p1p1p/8/P1P1P1P1/8/8/8/4K3 b - - 0 1", dict(capture=0.9, plies=60)),
    ("en_passant_white", "4k3/8/8/8/p1p1p1p1/8/1P1P1P1P/4K3 w - - 0 1", dict(capture=0.9, plies=60)),
    ("minor_pieces", "4k3/8/3n4/8/2b5/8/3B4/4K1N1 w - - 0 1", dict(capture=0.9, plies=80)),
    ("bishops_same_colour", "4k3/8/8/2b5/8/4B3/8/4K3 w - - 0 1", dict(capture=0.9, plies=40)),
    ("knight_vs_queen", "4k3/8/8/8/3q4/8/8/2N1K3 w - - 0 1", dict(capture=0.9, plies=40)),
    ("seventyfive", "8/8/4k3/8/8/3K4/8/R7 w - - 140 100", dict(capture=0.0, plies=30)),
    ("fifty", "8/8/4k3/8/8/3KN3/8/R7 b - - 93 80", dict(capture=0.0, plies=30)),
    ("mate_on_the_100th", "7k/8/6K1/8/8/8/8/R7 w - - 99 90", dict(mate=True, plies=4)),
    ("mate_on_the_150th", "7k/8/6K1/8/8/8/8/R7 w - - 149 120", dict(mate=True, plies=2)),
    # Black's c7-c5 gives an en passant square whose capture is illegal
    # (b5xc6 would open the fifth rank to the rook): not a position of its
    # own for repetitions, yet its Polyglot key hashes the file.
    ("pinned_en_passant", "4k3/2p5/8/KP5r/8/8/8/6N1 b - - 0 1", dict(plies=40, opening=("c7c5",), shuffles=((1, 4),))),
    ("castling_rights_lost_in_shuffle", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
     dict(plies=50, capture=0.2, castle=0.0, shuffles=((0, 4), (30, 2)))),
]


def _game_specs():
    specs = []
    for seed in range(24):
        specs.append(GameSpec(f"standard-{seed}", seed, capture=0.25 + 0.02 * seed))
    for seed in range(20):
        pos = random.Random(1000 + seed).randrange(960)
        specs.append(GameSpec(f"chess960-{pos}-{seed}", 1000 + seed, chess960=True, pos960=pos,
                              capture=0.3 + 0.02 * seed))
    # Knights (or whatever can go back) shuffling: threefold and fivefold
    # repetitions, from the start and from the middle of games.
    for seed in range(6):
        specs.append(GameSpec(f"shuffle-{seed}", 2000 + seed, plies=90,
                              shuffles=((0, 2 + seed % 3), (20 + seed, 4), (60, 3))))
    for seed in range(3):
        pos = random.Random(3000 + seed).randrange(960)
        specs.append(GameSpec(f"shuffle960-{pos}", 3000 + seed, chess960=True, pos960=pos, plies=80,
                              shuffles=((2, 4), (40, 3))))
    for i, (name, fen, options) in enumerate(ENDGAMES):
        for seed in range(2):
            specs.append(GameSpec(f"{name}-{seed}", 4000 + 10 * i + seed, fen=fen, **options))
    return specs


GAME_SPECS = _game_specs()


@pytest.fixture(scope="session")
def played_games():
    """Every spec's game, played once per session: {spec name: game}."""
    return {spec.name: play_game(spec) for spec in GAME_SPECS}


def our_board(fen, chess960):
    if chess960:
        return bitboards.Board(fen, chess960=True)
    return bitboards.Board(fen)


def polyglot_comparable(board):
    """Whether python-chess's Polyglot key and ours are defined the same for
    python-chess's `board`: python-chess hashes a castling right by its
    rook's corner (a1, h1, a8, h8) and leaves out a Chess960 right whose
    rook is elsewhere, ours hashes it by colour and side."""
    return not (board.clean_castling_rights() & ~CORNERS)


def termination_of(ours_outcome, py_name):
    """Our `Termination` member named like python-chess's."""
    return getattr(type(ours_outcome.termination), py_name)


@pytest.fixture(scope="session")
def sdist(tmp_path_factory):
    """python-chess's source distribution, unpacked once per session
    (`PYTHON_CHESS_SDIST` names one already downloaded): its `test.py` and
    data files. Skipped when it cannot be fetched, a failure under CI=true."""
    import os
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import python_chess_suite as suite

    sys.path.pop(0)
    scratch = tmp_path_factory.mktemp("python-chess-sdist")
    given = os.environ.get("PYTHON_CHESS_SDIST")
    try:
        if given:
            return suite.locate_sdist(Path(given), scratch)
        return suite.fetch_sdist(scratch)
    except suite.FetchError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"python-chess {suite.VERSION}'s sdist is needed in CI: {error}")
        pytest.skip(f"python-chess {suite.VERSION}'s sdist could not be fetched: {error}")
