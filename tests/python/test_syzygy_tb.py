"""`bitboards tb` against a second Syzygy prober, Fathom (Debian's `fathom`
command, a C program of its own descent from the tables' author's code),
and against python-chess's answers in tests/data/syzygy-reference.csv.

A few hundred positions of the reference, every table of tests/data/syzygy
among them and en passant ones too: `bitboards tb FEN --path
tests/data/syzygy --format json` must give the WDL and DTZ that `fathom`
gives (converted where its conventions differ: see `fathom_probe`) and the
CSV's. The test fails, never skips, when `fathom` is missing: `apt-get
install fathom` (.ci/run installs it).

Over all 24,500 rows of the reference, Debian's fathom
(1.0+git.20190811.97fb5c) and python-chess agree on every WDL and DTZ
once converted; before the conversion they differ on the 43 checkmates
only.

Run by .ci/run: `BITBOARDS_BIN=target/debug/bitboards pytest tests/python`.
"""

import collections
import csv
import json
import os
import random
import re
import shutil
import subprocess

import chess
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("BITBOARDS_BIN", "target/debug/bitboards")
TABLES = os.path.join(ROOT, "tests", "data", "syzygy")
REFERENCE = os.path.join(ROOT, "tests", "data", "syzygy-reference.csv")
# Positions drawn from each table's rows, and en passant ones and
# checkmates besides.
PER_TABLE = 7
EN_PASSANT = 40
MATES = 5

# Fathom's names for the side to move's result, as the format's numbers.
FATHOM_WDL = {"Loss": -2, "BlessedLoss": -1, "Draw": 0, "CursedWin": 1, "Win": 2}


def find_fathom():
    """The `fathom` executable: $FATHOM_BIN, else `fathom` on the PATH, else
    /usr/games/fathom, where Debian's package puts it (/usr/games is on a
    login shell's PATH, often not on a CI job's)."""
    named = os.environ.get("FATHOM_BIN")
    if named:
        return named
    return shutil.which("fathom") or shutil.which("fathom", path="/usr/games")


@pytest.fixture(scope="module")
def fathom():
    found = find_fathom()
    if found is None or not os.access(found, os.X_OK):
        pytest.fail(
            f"`fathom` is not installed (FATHOM_BIN={os.environ.get('FATHOM_BIN')!r}, "
            "not on the PATH, not /usr/games/fathom): "
            "`apt-get install fathom`, or set FATHOM_BIN to its path. This test "
            "compares `bitboards tb` with it and does not skip without it.",
            pytrace=False,
        )
    return found


def table_name(board):
    """The table a position belongs to, as the files name it: the side with
    more (or stronger) pieces first, `KRPvKR`."""
    order = "KQRBNP"

    def side(color):
        return "".join(
            sorted(
                (chess.piece_symbol(p.piece_type).upper() for p in board.piece_map().values() if p.color == color),
                key=order.index,
            )
        )

    def strength(pieces):
        return (len(pieces), [-order.index(c) for c in pieces])

    white, black = side(chess.WHITE), side(chess.BLACK)
    strong, weak = (white, black) if strength(white) >= strength(black) else (black, white)
    return f"{strong}v{weak}"


def sample():
    """Seeded: PER_TABLE rows of every table, EN_PASSANT rows with an en
    passant square (of the tables with a pawn on each side) and MATES
    checkmates."""
    with open(REFERENCE) as f:
        rows = [(r["fen"], int(r["wdl"]), int(r["dtz"])) for r in csv.DictReader(f)]
    by_table = collections.defaultdict(list)
    mates = []
    for row in rows:
        board = chess.Board(row[0])
        by_table[table_name(board)].append(row)
        if board.is_checkmate():
            mates.append(row)
    rng = random.Random(47)
    chosen = []
    for table in sorted(by_table):
        chosen += rng.sample(by_table[table], PER_TABLE)
    en_passant = [row for row in rows if row[0].split()[3] != "-" and row not in chosen]
    chosen += rng.sample(en_passant, EN_PASSANT)
    chosen += rng.sample([row for row in mates if row not in chosen], MATES)
    return sorted(by_table), chosen


TABLE_NAMES, POSITIONS = sample()


def test_the_sample_covers_every_table():
    files = {name.rsplit(".", 1)[0] for name in os.listdir(TABLES) if name.endswith(".rtbw")}
    assert set(TABLE_NAMES) == files
    assert len(POSITIONS) == PER_TABLE * len(files) + EN_PASSANT + MATES
    assert sum(fen.split()[3] != "-" for fen, _, _ in POSITIONS) >= EN_PASSANT


def bitboards_tb(fen):
    out = subprocess.run(
        [BIN, "tb", fen, "--path", TABLES, "--format", "json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, f"bitboards tb {fen!r}: {out.stderr}"
    value = json.loads(out.stdout)
    return value["wdl"], value["dtz"]


def fathom_probe(fathom, fen):
    """Fathom's WDL and DTZ, in the CSV's (python-chess's, and the
    command's) conventions.

    Fathom prints a PGN whose tags hold the root probe: `[WDL "Win"]` for
    the side to move, and `[DTZ "n"]`, which is the absolute value (its API
    keeps the DTZ unsigned, `TB_SET_DTZ(res, dtz < 0 ? -dtz : dtz)`): the
    sign comes from the WDL, negative for a loss. Its WDL also counts the
    FEN's halfmove clock against the fifty-move rule (a win further than
    100 - clock plies off is a cursed win); the reference's positions all
    have a clock of 0, where this changes nothing.

    A checkmated side to move is the one convention that differs: Fathom's
    API answers `TB_RESULT_CHECKMATE`, which is `TB_SET_WDL(0, TB_WIN)`, the
    winner's result with a DTZ of 0, and the command prints it as is
    (`[WDL "Win"]`, `[DTZ "0"]`). python-chess and `bitboards tb` give the
    side to move's loss, WDL -2 and DTZ -1; the conversion is that.
    """
    out = subprocess.run(
        [fathom, f"--path={TABLES}", fen],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, f"fathom {fen!r} failed: {out.stderr}{out.stdout}"
    wdl = re.search(r'^\[WDL "(\w+)"\]$', out.stdout, re.M)
    dtz = re.search(r'^\[DTZ "(\d+)"\]$', out.stdout, re.M)
    assert wdl and dtz, f"fathom {fen!r}: no WDL and DTZ tags in\n{out.stdout}"
    wdl, dtz = FATHOM_WDL[wdl.group(1)], int(dtz.group(1))
    if chess.Board(fen).is_checkmate():
        assert (wdl, dtz) == (2, 0), f"fathom {fen!r}: checkmate reported as {wdl}, {dtz}"
        return -2, -1
    return wdl, -dtz if wdl < 0 else dtz


def test_fathom_answers_as_documented(fathom):
    # White's king and rook against the king: a win, 25 plies to the rook's
    # mate (no capture or pawn move on the way).
    assert fathom_probe(fathom, "8/8/8/8/4k3/8/8/R3K3 w - - 0 1") == (2, 25)
    # The same with Black to move after Ra5: the loss, from Black.
    assert fathom_probe(fathom, "8/8/8/R7/4k3/8/8/4K3 b - - 1 1") == (-2, -24)
    # Checkmate: converted from Fathom's winner's result.
    assert fathom_probe(fathom, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1") == (-2, -1)


@pytest.mark.parametrize("fen,wdl,dtz", POSITIONS, ids=[fen for fen, _, _ in POSITIONS])
def test_tb_agrees_with_fathom_and_python_chess(fathom, fen, wdl, dtz):
    ours = bitboards_tb(fen)
    theirs = fathom_probe(fathom, fen)
    assert ours == theirs, f"{fen}: bitboards {ours}, fathom {theirs}"
    assert ours == (wdl, dtz), f"{fen}: bitboards {ours}, python-chess {(wdl, dtz)}"
