"""The Python package timed against its command and its Python peers, in one process.

    pip install ./bindings/python chess pyarrow            # required
    pip install cozy-chess-py fastchess rust_pgn_reader_python_binding  # peers, optional
    cargo build --release -p bitboards-cli                 # the `bitboards` command
    python bindings/python/bench.py [--games 5000] [--pgn FILE] [--json OUT] [--write]
    python bindings/python/bench.py --only syzygy     # one section (not with --write)
    python bindings/python/bench.py --only planes     # bitboards.planes alone (part of the pgn section)
    python bindings/python/bench.py --only engine [--engine /usr/games/stockfish]

Without `--pgn`, it writes a Lichess-shaped file of `--games` games (the open
database's tags, a `{ [%eval ...] [%clk ...] }` comment after every move)
with `cargo run --release -p bitboards-pgn --example lichess_pgn -- N OUT`.
Every figure is the best of 3 runs (`time.perf_counter`), but these:
`read_table` and rust_pgn_reader, each on one thread and on every core,
the readers the goals compare, are timed in 10 interleaved rounds (each
once a round, the order rotating), the best of each kept, so that the
machine's speed, which drifts between figures timed seconds apart, falls
on all alike. `read_table`'s first call in the process is a row of its
own: it faults in the pages of the table it writes (later calls reuse what
the allocator kept).

- PGN: `bitboards.pgn.read_table` on one thread against the `bitboards pgn`
  command (text output, and `--to parquet`) on one thread, and with only
  the columns that the command's text report and its JSON hold against
  those outputs (the Python boundary's own cost); on every core;
  `to_parquet`; iterating `read_games` (touching `.moves`); python-chess's
  `read_game` loop (the first 300 games, extrapolated);
  `rust_pgn_reader_python_binding` (reading the file and splitting it into
  games in Python counted in its time), against `read_table` whole and
  against `read_table` with the columns that hold what its games hold
  (every tag, the moves, clocks, evals, final position and outcome; it
  gives each position's board too, and no movetext). Then the positions:
  `read_positions`, and `bitboards.planes` on their boards.
- planes (the end of the pgn section; `--only planes` alone):
  `bitboards.planes` against NumPy's `unpackbits` on the same rows in the
  same interleaved rounds, on the whole table and in batches of 4,096 rows,
  into a new array and with `out=`, without and with `turn`.
- Random playouts through each library's Python API (same seed, capped at
  400 plies): bitboards, python-chess, cozy_chess, fastchess.
- perft: `Board().perft(5)` against python-chess's perft(3) by recursion,
  compared by nodes per second.
- syzygy: `bitboards.syzygy`'s `Tablebase.probe_wdl` and `probe_dtz`, one
  board at a time, against python-chess's `chess.syzygy` on the same random
  positions of the repository's 3- and 4-piece tables (tests/data/syzygy),
  the answers compared; `probe_wdl_many` on a batch of them, every core.
- engine: `bitboards.engine.SimpleEngine.analyse` in a loop over random
  positions at `nodes=1` through one Stockfish (`--engine`), without and
  with a `ucinewgame` before each position (`game=object()`), against
  python-chess's `SimpleEngine.analyse` loop and a bare pipe (the floor: the
  same commands written to Stockfish's standard input, its lines read until
  `bestmove`, in a few lines of Python), in interleaved rounds; the asyncio
  `UciProtocol.analyse` loop against python-chess's and an asyncio bare
  pipe on one event loop; then `analyse_many` on 2 engines against 1 at
  `nodes=20000`.

Prints a Markdown table (figure, value, ratio), then notes (peers not
installed are skipped and named there). With `--write`, it also puts them in
docs/performance.md's Python section (between `<!-- python-bench:start -->`
and `<!-- python-bench:end -->`) and the goals' rows in the same page's
summary at its top (between `<!-- python-summary:start -->` and
`<!-- python-summary:end -->`), unless a count is wrong; it writes nothing
else (the README carries no generated text). The Python section names the
machine it was measured on; figures there of another machine move to the
page's "Figures from other machines" (each machine's last run is kept).
Exits 1 if a count is wrong.
Not a test (pytest collects only test_*.py).
"""

import argparse
import asyncio
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PERFORMANCE = ROOT / "docs" / "performance.md"
ROUNDS = 3
PLY_CAP = 400
PERFT_5 = 4865609
PERFT_3 = 8902
SYZYGY = ROOT / "tests" / "data" / "syzygy"
SYZYGY_POSITIONS = 2000
SYZYGY_BATCH = 200_000
# `bitboards.planes`: the batch a data loader makes, and the rows from
# which the encoder writes on every core (bindings/python/src/planes.rs).
PLANES_BATCH = 4096
THREADED_PLANES_ROWS = 512
SECTIONS = ("pgn", "playouts", "perft", "syzygy", "planes", "engine", "compat")
# The compat section: boards along random games, and the games of the
# generated file read as game trees.
COMPAT_BOARDS = 300
COMPAT_GAMES = 1000
# bitboards.engine: positions per loop at nodes=1 (without and with
# ucinewgame), and for analyse_many at nodes=20000.
ENGINE_POSITIONS = 500
ENGINE_NEWGAME_POSITIONS = 200
POOL_POSITIONS = 200
POOL_NODES = 20_000
# What the command's text report and its JSON objects hold, as table columns.
REPORT_COLUMNS = ["Result", "plies", "fen", "outcome"]
JSON_COLUMNS = REPORT_COLUMNS + ["clocks", "evals"]
# What rust_pgn_reader_python_binding's games hold, as table columns: the
# tags (the Lichess database's 17), then the moves, clocks, evals, the
# final position and the outcome.
PEER_COLUMNS = ["Event", "Site", "White", "Black", "Result", "WhiteTitle", "BlackTitle", "WhiteElo", "BlackElo",
                "WhiteRatingDiff", "BlackRatingDiff", "UTCDate", "UTCTime", "ECO", "Opening", "Termination",
                "TimeControl", "uci", "clocks", "evals", "fen", "outcome"]


# The rows docs/performance.md's summary shows (the goals' figures), by how
# their names begin, in this order.
SUMMARY = [
    "`pgn.read_table(file, threads=1)` ",
    "`pgn.read_table(file, threads=1, columns=[Result, plies, fen, outcome])`",
    "`pgn.read_table(file, threads=1, columns=[Result, plies, fen, outcome, clocks, evals])`",
    "`pgn.read_table(file)`, every core",
    "python-chess `read_game` loop",
    "`rust_pgn_reader_python_binding.parse_games`, 1 thread",
    # Issue 45's goals: positions against rust_pgn_reader, planes against
    # NumPy's unpackbits.
    "`pgn.read_positions(file, threads=1)`",
    "`bitboards.planes`, the whole table",
    "`bitboards.planes`, in batches",
    "random playouts, bitboards",
    "`Board().perft(5)`, every core",
    "`syzygy.Tablebase.probe_wdl(board)`",
    "`board.push(move); board.pop()`",
    "`pgn.read_game` loop",
    "`polyglot.open_reader(book).find_all(board)`",
    "`engine.SimpleEngine.analyse` loop",
    "`engine.UciProtocol.analyse` loop (asyncio)",
    "`engine.analyse_many`, `nodes=20000`, 2 engines",
]


def rounds_of(tasks, rounds=10):
    """([every round's seconds], [last results]) of each task, in `rounds`
    rounds of every task once, the order rotating."""
    times, results = [[] for _ in tasks], [None] * len(tasks)
    for round_ in range(rounds):
        for offset in range(len(tasks)):
            which = (round_ + offset) % len(tasks)
            start = time.perf_counter()
            results[which] = tasks[which]()
            times[which].append(time.perf_counter() - start)
    return times, results


def interleaved(tasks, rounds=10):
    """([best seconds], [last results]) of each task, in `rounds` rounds of
    every task once, the order rotating."""
    times, results = rounds_of(tasks, rounds)
    return [min(each) for each in times], results


def median_ratio(theirs, ours):
    """The median over rounds of theirs / ours (seconds of the same round):
    how many times faster ours was, paired round by round."""
    return statistics.median(t / o for t, o in zip(theirs, ours))


def best(task, rounds=ROUNDS):
    """(best seconds, the last run's result) of `task()` over `rounds` runs."""
    times, result = [], None
    for _ in range(rounds):
        start = time.perf_counter()
        result = task()
        times.append(time.perf_counter() - start)
    return min(times), result


def optional(name):
    try:
        return __import__(name)
    except ImportError:
        return None


class Report:
    def __init__(self):
        self.rows = []  # (figure, value, ratio)
        self.figures = {}  # for --json
        self.notes = []
        self.failed = False

    def row(self, figure, value, ratio="", **numbers):
        self.rows.append((figure, value, ratio))
        self.figures[figure] = numbers

    def note(self, text):
        self.notes.append(text)
        print(f"note: {text}", file=sys.stderr)

    def fail(self, text):
        self.failed = True
        self.note("WRONG: " + text)

    def markdown(self, rows=None):
        lines = ["| figure | value | ratio |", "| --- | ---: | --- |"]
        lines += [f"| {f} | {v} | {r} |" for f, v, r in (self.rows if rows is None else rows)]
        return "\n".join(lines)

    def summary(self):
        """The table of the rows that SUMMARY names, in its order."""
        rows = [row for start in SUMMARY for row in self.rows if (row[0] + " ").startswith(start)]
        return self.markdown(rows)


def machine():
    """This machine as the page's blocks name it: the processor and cores."""
    return f"{processor()}, {os.cpu_count()} cores"


def write_block(path, name, body, measured_on=None):
    """Writes `body` into the block `name` (between its `<!-- NAME:start -->`
    and `<!-- NAME:end -->` lines) of the page at `path`, by `cargo xtask
    block`, the page's one writer of blocks: with `measured_on` (a machine,
    as machine() names it) the block names it, and figures there of another
    machine move to the page's "Figures from other machines" in place of
    that machine's last ones. ValueError when the page has no such block."""
    command = ["cargo", "run", "--quiet", "--package", "xtask", "--", "block", name, "--page", str(path)]
    if measured_on:
        command += ["--machine", measured_on]
    done = subprocess.run(command, input=body, text=True, cwd=ROOT, capture_output=True)
    if done.returncode != 0:
        raise ValueError(f"cargo xtask block {name}: {done.stderr.strip()}")


def rate(count, seconds, unit):
    return f"{count / seconds:,.0f} {unit}/s"


def times(ours, theirs, name):
    """'2.3x name': how many times faster `ours` (a rate) is than `theirs`."""
    return f"{ours / theirs:.2f}x {name}"


# PGN ---------------------------------------------------------------------

def make_pgn(games, out):
    subprocess.run(
        ["cargo", "run", "--quiet", "--release", "-p", "bitboards-pgn", "--example", "lichess_pgn", "--",
         str(games), out],
        cwd=ROOT, check=True,
    )


def python_chess_read(chess, pgn, games):
    """python-chess reading the first `games` games to their final boards; returns the games read."""
    import chess.pgn

    read = 0
    with open(pgn, encoding="utf-8") as file:
        for _ in range(games):
            game = chess.pgn.read_game(file)
            if game is None:
                break
            game.end().board()
            read += 1
    return read


def rust_pgn_reader_read(reader, pyarrow, pgn, threads):
    """rust_pgn_reader_python_binding: read the file, split it into games here, parse them."""
    with open(pgn, encoding="utf-8") as file:
        text = file.read()
    games = [game for game in re.split(r"\n\s*\n(?=\[)", text) if game.strip()]
    parsed = reader.parse_games(pyarrow.chunked_array([pyarrow.array(games, type=pyarrow.large_string())]),
                                num_threads=threads)
    return parsed


def bench_pgn(report, args, pgn, expected_games):
    import bitboards.pgn

    cores = os.cpu_count() or 1
    size = os.path.getsize(pgn) / 1e6

    start = time.perf_counter()
    first_table = bitboards.pgn.read_table(pgn, threads=1)
    first = first_table.num_rows / (time.perf_counter() - start)
    del first_table
    reader, pyarrow = optional("rust_pgn_reader_python_binding"), optional("pyarrow")
    both = reader is not None and pyarrow is not None
    tasks = [lambda: bitboards.pgn.read_table(pgn, threads=1),
             lambda: bitboards.pgn.read_table(pgn, threads=None)]
    if both:
        tasks += [lambda: rust_pgn_reader_read(reader, pyarrow, pgn, 1),
                  lambda: rust_pgn_reader_read(reader, pyarrow, pgn, None)]
    interleaved_times, interleaved_results = interleaved(tasks)
    seconds, table = interleaved_times[0], interleaved_results[0]
    games = table.num_rows
    if expected_games is not None and games != expected_games:
        report.fail(f"read_table read {games} games, the file has {expected_games}")
    plies = sum(table.column("plies").to_pylist()) if "plies" in table.column_names else None
    one = games / seconds
    report.note(f"PGN file: {args.pgn or 'Lichess-shaped, generated'}, {size:.1f} MB, {games:,} games"
                + (f", {plies:,} plies" if plies is not None else ""))
    figures = {"read_table, 1 thread": one}

    command_text = command_parquet = command_json = None
    if os.access(args.bin, os.X_OK):
        with tempfile.TemporaryDirectory() as tmp:
            seconds_text, _ = best(lambda: subprocess.run(
                [args.bin, "pgn", pgn, "--threads", "1"], check=True,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            seconds_json, _ = best(lambda: subprocess.run(
                [args.bin, "pgn", pgn, "--threads", "1", "--format", "json"], check=True,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            command_json = games / seconds_json
            out = os.path.join(tmp, "x.parquet")
            seconds_parquet, _ = best(lambda: subprocess.run(
                [args.bin, "pgn", pgn, "--to", "parquet", out, "--threads", "1"], check=True,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        command_text, command_parquet = games / seconds_text, games / seconds_parquet
    else:
        report.note(f"no command at {args.bin} (--bin): the command's rows are skipped")

    ratio = ""
    if command_text:
        ratio = (f"{times(one, command_text, 'the command (text)')}, "
                 f"{times(one, command_json, 'the command (--format json)')}, "
                 f"{times(one, command_parquet, 'the command (--to parquet)')}")
    report.row("`pgn.read_table(file, threads=1)`", f"{one:,.0f} games/s", ratio, games_per_s=one)
    report.row("`pgn.read_table(file, threads=1)`, its first call in the process", f"{first:,.0f} games/s",
               f"{first / one:.2f}x the later calls", games_per_s=first)
    if command_text:
        report.row("`bitboards pgn FILE --threads 1 > /dev/null`", f"{command_text:,.0f} games/s", "",
                   games_per_s=command_text)
        report.row("`bitboards pgn FILE --to parquet OUT --threads 1`", f"{command_parquet:,.0f} games/s", "",
                   games_per_s=command_parquet)
        report.row("`bitboards pgn FILE --format json --threads 1 > /dev/null`",
                   f"{command_json:,.0f} games/s", "", games_per_s=command_json)
        # The Python boundary alone: the columns that hold what each of the
        # command's outputs prints, so that both do the same work.
        for columns, output, theirs in ((REPORT_COLUMNS, "text", command_text),
                                        (JSON_COLUMNS, "--format json", command_json)):
            seconds, _ = best(lambda: bitboards.pgn.read_table(pgn, threads=1, columns=columns))
            same = games / seconds
            report.row(f"`pgn.read_table(file, threads=1, columns=[{', '.join(columns)}])`",
                       f"{same:,.0f} games/s", times(same, theirs, f"the command ({output})"),
                       games_per_s=same)

    seconds, table = interleaved_times[1], interleaved_results[1]
    if table.num_rows != games:
        report.fail(f"read_table(threads=None) read {table.num_rows} games, threads=1 {games}")
    every = games / seconds
    report.row(f"`pgn.read_table(file)`, every core ({cores})", f"{every:,.0f} games/s",
               times(every, one, "one thread"), games_per_s=every, cores=cores)

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "x.parquet")
        seconds, rows = best(lambda: bitboards.pgn.to_parquet(pgn, out, threads=1))
    if rows != games:
        report.fail(f"to_parquet wrote {rows} rows, read_table read {games}")
    written = games / seconds
    report.row("`pgn.to_parquet(file, out, threads=1)`", f"{written:,.0f} games/s",
               times(written, command_parquet, "the command (--to parquet)") if command_parquet else "",
               games_per_s=written)

    def iterate():
        count = moves = 0
        for game in bitboards.pgn.read_games(pgn, threads=1):
            moves += len(game.moves)
            count += 1
        return count, moves

    seconds, (count, moves) = best(iterate)
    if count != games:
        report.fail(f"read_games gave {count} games, read_table {games}")
    iterated = count / seconds
    report.row("iterating `pgn.read_games(file, threads=1)`, `.moves`", f"{iterated:,.0f} games/s",
               f"read_table is {one / iterated:.2f}x this", games_per_s=iterated)

    chess = optional("chess")
    if chess is not None:
        sample = min(300, games)
        seconds, read = best(lambda: python_chess_read(chess, pgn, sample))
        theirs = read / seconds
        figures["python-chess"] = theirs
        report.row(f"python-chess `read_game` loop (first {read} games, extrapolated)", f"{theirs:,.0f} games/s",
                   f"read_table {times(one, theirs, 'python-chess')}; read_games {times(iterated, theirs, 'python-chess')}",
                   games_per_s=theirs, games_timed=read)
    else:
        report.note("python-chess is not installed: its PGN, playout and perft rows are skipped")

    if both:
        for threads, label, ours in ((1, "1 thread", one), (None, f"every core ({cores})", every)):
            # Timed in read_table's interleaved rounds.
            slot = 2 if threads == 1 else 3
            seconds, parsed = interleaved_times[slot], interleaved_results[slot]
            bad = sum(1 for game in parsed if not game.is_valid)
            if parsed.num_games != games or bad:
                report.note(f"rust_pgn_reader_python_binding: {parsed.num_games} games, {bad} not valid "
                            f"(read_table: {games})")
            theirs = games / seconds
            report.row(f"`rust_pgn_reader_python_binding.parse_games`, {label} (read + split in Python included)",
                       f"{theirs:,.0f} games/s", f"read_table {times(ours, theirs, 'rust_pgn_reader')}",
                       games_per_s=theirs)
            if threads == 1:
                # What it gives, and more: every tag, the moves (UCI),
                # clocks, evals and the outcome (it also gives each
                # position's board; it has no movetext).
                seconds, _ = best(lambda: bitboards.pgn.read_table(pgn, threads=1, columns=PEER_COLUMNS))
                same = games / seconds
                report.row(f"`pgn.read_table(file, threads=1, columns=[every tag, {', '.join(PEER_COLUMNS[17:])}])`",
                           f"{same:,.0f} games/s", times(same, theirs, "rust_pgn_reader (1 thread)"),
                           games_per_s=same)
    else:
        report.note("rust_pgn_reader_python_binding (or pyarrow) is not installed: its rows are skipped")


# Random playouts ---------------------------------------------------------

def playouts_python_chess_like(module):
    """bitboards and python-chess: the same loop on the same API."""

    def run(count, seed):
        rng = random.Random(seed)
        plies = 0
        for _ in range(count):
            board = module.Board()
            for _ in range(PLY_CAP):
                if board.is_game_over():
                    break
                moves = list(board.legal_moves)
                board.push(rng.choice(moves))
                plies += 1
        return plies

    return run


def playouts_cozy(cozy_chess):
    ongoing = cozy_chess.GameStatus.Ongoing

    def run(count, seed):
        rng = random.Random(seed)
        plies = 0
        for _ in range(count):
            board = cozy_chess.Board()
            for _ in range(PLY_CAP):
                if board.status() != ongoing:
                    break
                moves = board.generate_moves()
                board.play(rng.choice(moves))
                plies += 1
        return plies

    return run


def playouts_fastchess(fastchess):
    def run(count, seed):
        rng = random.Random(seed)
        plies = 0
        for _ in range(count):
            board = fastchess.Board()
            for _ in range(PLY_CAP):
                moves = board.legal_moves_uci()
                if not moves or board.halfmove >= 150:
                    break
                board.push_uci(rng.choice(moves))
                plies += 1
        return plies

    return run


def bench_playouts(report, args):
    import bitboards

    libraries = {"bitboards": playouts_python_chess_like(bitboards)}
    game_over = {"bitboards": "`is_game_over()`"}
    for name, module, make, rule in (
        ("python-chess", "chess", playouts_python_chess_like, "`is_game_over()`"),
        ("cozy_chess", "cozy_chess", playouts_cozy,
         "`status() != Ongoing` (mate, stalemate, 50 moves; no insufficient material or repetition)"),
        ("fastchess", "fastchess", playouts_fastchess,
         "no legal move or halfmove clock >= 150 (it has no game-over call)"),
    ):
        loaded = optional(module)
        if loaded is None:
            report.note(f"{name} is not installed: its playout row is skipped")
            continue
        libraries[name] = make(loaded)
        game_over[name] = rule

    results = {}
    for name, run in libraries.items():
        seconds, plies = best(lambda: run(args.playouts, args.seed))
        results[name] = (args.playouts / seconds, plies / seconds, plies / args.playouts)

    ours = results["bitboards"][1]
    for name, (playouts, plies, mean) in results.items():
        if name == "bitboards":
            ratio = ", ".join(times(ours, results[peer][1], peer) for peer in results if peer != name)
        else:
            ratio = f"bitboards is {ours / plies:.2f}x" + (
                f"; {times(plies, results['python-chess'][1], 'python-chess')}"
                if name != "python-chess" and "python-chess" in results else "")
        report.row(f"random playouts, {name}", f"{playouts:,.1f} playouts/s ({plies:,.0f} plies/s, "
                   f"{mean:.0f} plies each)", ratio, playouts_per_s=playouts, plies_per_s=plies, plies_each=mean)
    report.note(f"playouts: {args.playouts} per library, seed {args.seed}, capped at {PLY_CAP} plies; each "
                "loop `list(legal moves)`, `rng.choice`, push/play, until the library says the game is over: "
                + "; ".join(f"{n}: {r}" for n, r in game_over.items())
                + ". The rules differ and so do the games' lengths: the ratios are of plies per second.")


# compat: python-chess's API, ours against python-chess's ---------------

def bench_compat(report, args, pgn, tmp):
    """python-chess's everyday calls, the same code on `bitboards` and on
    `chess`: each call over boards along random games, the `read_game` loop
    over the generated file with every node's comment read, and a Polyglot
    book's `find_all` over every position the book was built from."""
    import chess
    import chess.pgn
    import chess.polyglot

    import bitboards
    import bitboards.pgn
    import bitboards.polyglot

    rng = random.Random(args.seed)
    lines = []
    probe = chess.Board()
    while len(lines) < COMPAT_BOARDS:
        probe.reset()
        for _ in range(rng.randrange(1, 80)):
            moves = list(probe.legal_moves)
            if not moves:
                break
            probe.push(rng.choice(moves))
        lines.append([move.uci() for move in probe.move_stack])

    def boards(lib):
        made = []
        for line in lines:
            board = lib.Board()
            for uci in line:
                board.push(lib.Move.from_uci(uci))
            made.append(board)
        return made

    libs = {"bitboards": bitboards, "python-chess": chess}
    made = {name: boards(lib) for name, lib in libs.items()}
    fens = [board.fen() for board in made["python-chess"]]
    moves = {name: [list(board.legal_moves) for board in made[name]] for name in libs}
    count = sum(len(legal) for legal in moves["python-chess"])

    def push_pop(name):
        for board, legal in zip(made[name], moves[name]):
            for move in legal:
                board.push(move)
                board.pop()

    calls = [
        ("`Board(fen)`", len(fens), lambda name: [libs[name].Board(fen) for fen in fens]),
        ("`list(board.legal_moves)`", len(fens), lambda name: [list(board.legal_moves) for board in made[name]]),
        ("`board.san(move)`, every legal move", count,
         lambda name: [board.san(move) for board, legal in zip(made[name], moves[name]) for move in legal]),
        ("`board.push(move); board.pop()`, every legal move", count, push_pop),
        ("`board.fen()`", len(fens), lambda name: [board.fen() for board in made[name]]),
        ("`board.is_checkmate()`", len(fens), lambda name: [board.is_checkmate() for board in made[name]]),
        ("`board.copy()` (with its move stack)", len(fens), lambda name: [board.copy() for board in made[name]]),
    ]
    for figure, calls_made, run in calls:
        (ours, theirs), _ = interleaved([lambda: run("bitboards"), lambda: run("python-chess")])
        report.row(f"{figure}", rate(calls_made, ours, "calls"),
                   times(calls_made / ours, calls_made / theirs, "python-chess"), calls_per_s=calls_made / ours)
        report.row(f"python-chess {figure}", rate(calls_made, theirs, "calls"), "",
                   calls_per_s=calls_made / theirs)

    def read_games(lib):
        nodes = 0
        with open(pgn, encoding="utf-8") as handle:
            for _ in range(COMPAT_GAMES):
                game = lib.pgn.read_game(handle)
                if game is None:
                    break
                for node in game.mainline():
                    node.comment
                    nodes += 1
        return nodes

    (ours, theirs), (our_nodes, their_nodes) = interleaved(
        [lambda: read_games(bitboards), lambda: read_games(chess)], rounds=3)
    if our_nodes != their_nodes:
        report.fail(f"read_game loops disagree: {our_nodes} nodes against python-chess's {their_nodes}")
    report.row(f"`pgn.read_game` loop, {COMPAT_GAMES} games, every node's comment",
               rate(COMPAT_GAMES, ours, "games"), times(COMPAT_GAMES / ours, COMPAT_GAMES / theirs, "python-chess"),
               games_per_s=COMPAT_GAMES / ours)
    report.row(f"python-chess `pgn.read_game` loop, {COMPAT_GAMES} games, every node's comment",
               rate(COMPAT_GAMES, theirs, "games"), "", games_per_s=COMPAT_GAMES / theirs)

    book = os.path.join(tmp, "book.bin")
    subprocess.run([args.bin, "book", "build", pgn, "--out", book], check=True, capture_output=True)
    positions = {name: [] for name in libs}
    with open(pgn, encoding="utf-8") as handle:
        for _ in range(200):
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            board = game.board()
            for move in list(game.mainline_moves())[:40]:
                positions["python-chess"].append(board.copy(stack=False))
                positions["bitboards"].append(bitboards.Board(board.fen()))
                board.push(move)

    def lookups(name):
        lib = libs[name]
        found = 0
        with lib.polyglot.open_reader(book) as reader:
            for board in positions[name]:
                found += sum(1 for _ in reader.find_all(board))
        return found

    (ours, theirs), (our_found, their_found) = interleaved([lambda: lookups("bitboards"),
                                                          lambda: lookups("python-chess")], rounds=3)
    if our_found != their_found:
        report.fail(f"polyglot find_all disagrees: {our_found} entries against python-chess's {their_found}")
    looked = len(positions["python-chess"])
    size = os.path.getsize(book) // 16
    report.row(f"`polyglot.open_reader(book).find_all(board)`, {looked} positions, a book of {size:,} entries "
               "built from the file", rate(looked, ours, "positions"),
               times(looked / ours, looked / theirs, "python-chess"), positions_per_s=looked / ours)
    report.row("python-chess `polyglot.open_reader(book).find_all(board)`", rate(looked, theirs, "positions"), "",
               positions_per_s=looked / theirs)
    report.note(f"compat: the same code on `bitboards` and on `chess` (python-chess); {COMPAT_BOARDS} boards along "
                "random games (their move stacks kept), best of 10 interleaved rounds; the read_game loop and "
                "the book lookups best of 3.")


# perft -------------------------------------------------------------------

def python_chess_perft(board, depth):
    """python-chess's perft, as its test suite counts it (the last ply by `legal_moves.count()`)."""
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += python_chess_perft(board, depth - 1)
        board.pop()
    return nodes


def bench_perft(report):
    import bitboards

    cores = os.cpu_count() or 1
    rates = {}
    for threads, label in ((1, "1 thread"), (None, f"every core ({cores})")):
        seconds, nodes = best(lambda: bitboards.Board().perft(5, threads=threads))
        if nodes != PERFT_5:
            report.fail(f"Board().perft(5, threads={threads}) = {nodes}, not {PERFT_5}")
        rates[label] = nodes / seconds
    chess = optional("chess")
    theirs = None
    if chess is not None:
        seconds, nodes = best(lambda: python_chess_perft(chess.Board(), 3))
        if nodes != PERFT_3:
            report.fail(f"python-chess perft(3) = {nodes}, not {PERFT_3}")
        theirs = nodes / seconds
    for label, ours in rates.items():
        report.row(f"`Board().perft(5)`, {label}", f"{ours:,.0f} nodes/s",
                   f"{times(ours, theirs, 'python-chess')} (nodes/s)" if theirs else "", nodes_per_s=ours)
    if theirs:
        report.row("python-chess perft(3) by recursion", f"{theirs:,.0f} nodes/s", "", nodes_per_s=theirs)
        report.note("perft: bitboards counts perft(5) and python-chess perft(3) (too slow deeper); "
                    "the ratios compare nodes (leaves) per second, not times")


# Training rows ------------------------------------------------------------

def python_chess_planes(pgn, games):
    """The common python-chess loop: replay, `pieces_mask` twelve times per
    position, NumPy planes; the positions made from the first `games` games."""
    import chess
    import chess.pgn
    import numpy as np

    bits = np.arange(64, dtype=np.uint64)
    positions = 0
    with open(pgn, encoding="utf-8") as file:
        for _ in range(games):
            game = chess.pgn.read_game(file)
            if game is None:
                break
            board = game.board()
            rows = []
            for move in game.mainline_moves():
                rows.append([board.pieces_mask(kind, color) for color in (True, False) for kind in range(1, 7)])
                board.push(move)
            masks = np.array(rows, dtype=np.uint64).reshape(-1, 12, 1)
            planes = ((masks >> bits) & np.uint64(1)).astype(np.uint8).reshape(-1, 12, 8, 8)
            positions += len(planes)
    return positions


def bench_positions(report, pgn, games_per_s_table):
    import bitboards.pgn

    ours_task = lambda: bitboards.pgn.read_positions(pgn, threads=1, progress=False)  # noqa: E731
    reader, pyarrow = optional("rust_pgn_reader_python_binding"), optional("pyarrow")
    against_reader = ""
    if reader is not None and pyarrow is not None:
        # Paired with rust_pgn_reader on one thread, round by round, as the
        # goal is stated (its games into memory, as in bench_pgn).
        (our_times, their_times), (table, _) = rounds_of(
            [ours_task, lambda: rust_pgn_reader_read(reader, pyarrow, pgn, 1)])
        seconds = min(our_times)
        against_reader = (f"; {min(their_times) / seconds:.2f}x rust_pgn_reader's games/s (1 thread, best "
                          f"against best; median of {len(our_times)} paired rounds "
                          f"{median_ratio(their_times, our_times):.2f}x)")
    else:
        seconds, table = best(ours_task)
    rows, games = table.num_rows, len(set(table["game"].to_pylist()))
    ours = rows / seconds
    seconds_all, _ = best(lambda: bitboards.pgn.read_positions(pgn, progress=False))
    theirs_seconds, theirs_rows = best(lambda: python_chess_planes(pgn, 100), rounds=1)
    theirs = theirs_rows / theirs_seconds
    report.row("`pgn.read_positions(file, threads=1)`", rate(rows, seconds, "positions"),
               f"{times(ours, theirs, 'python-chess loop')}; {games / seconds / games_per_s_table:.2f}x "
               f"read_table's games/s{against_reader}", positions_per_s=ours, games_per_s=games / seconds)
    report.row(f"`pgn.read_positions(file)`, every core ({os.cpu_count()})", rate(rows, seconds_all, "positions"),
               f"{seconds / seconds_all:.2f}x one thread", positions_per_s=rows / seconds_all)
    report.row("python-chess loop (replay, 12 `pieces_mask`, NumPy planes; first 100 games)",
               rate(theirs_rows, theirs_seconds, "positions"), "", positions_per_s=theirs)
    bench_planes(report, table)


def bench_planes(report, table):
    """`bitboards.planes` against NumPy's `unpackbits` on the same rows in
    the same interleaved rounds: the whole table, and batches of
    PLANES_BATCH rows (each made and dropped, as a data loader does), each
    into a new array and into one array reused (`out=`), without and with
    `turn`."""
    import numpy as np

    import bitboards

    boards = np.asarray(table["bitboards"].combine_chunks().flatten().to_numpy(), dtype=np.uint64).reshape(-1, 12)
    turn = np.asarray(table["turn"].to_numpy(zero_copy_only=False), dtype=bool)
    rows = len(boards)
    batches = [(boards[start:start + PLANES_BATCH], turn[start:start + PLANES_BATCH])
               for start in range(0, rows - PLANES_BATCH + 1, PLANES_BATCH)]
    batch_bytes = len(batches) * PLANES_BATCH * 768

    def unpack(x):
        return np.unpackbits(x.view(np.uint8), bitorder="little").reshape(-1, 12, 8, 8)

    # The first call of each apart: the first large NumPy arrays of a
    # process can wait for the kernel to assemble huge pages, which a data
    # loader pays once, not per batch. Its own row.
    seconds_first, first = best(lambda: bitboards.planes(boards), rounds=1)
    if not np.array_equal(first, unpack(boards)):
        report.fail("bitboards.planes differs from NumPy's unpackbits")
    whole = np.empty_like(first)
    batch = np.empty((PLANES_BATCH, 12, 8, 8), dtype=np.uint8)
    del first

    def each(make):
        def run():
            for rows_, turn_ in batches:
                make(rows_, turn_)
        return run

    tasks = {
        "unpack": lambda: unpack(boards),
        "new": lambda: bitboards.planes(boards),
        "out": lambda: bitboards.planes(boards, out=whole),
        "turn new": lambda: bitboards.planes(boards, turn),
        "turn out": lambda: bitboards.planes(boards, turn, out=whole),
        "batches unpack": each(lambda rows_, turn_: unpack(rows_)),
        "batches new": each(lambda rows_, turn_: bitboards.planes(rows_)),
        "batches out": each(lambda rows_, turn_: bitboards.planes(rows_, out=batch)),
        "batches turn new": each(lambda rows_, turn_: bitboards.planes(rows_, turn_)),
        "batches turn out": each(lambda rows_, turn_: bitboards.planes(rows_, turn_, out=batch)),
    }
    def dropped(task):
        # The result dropped at once, as a loader drops a batch it has used
        # (interleaved keeps the last result of each task).
        def run():
            task()
        return run

    seconds = dict(zip(tasks, interleaved([dropped(task) for task in tasks.values()])[0]))
    kernel = bitboards._bitboards.planes_kernels()[0]
    for key, label in (("", f"the whole table ({rows:,} rows)"),
                       ("batches ", f"in batches of {PLANES_BATCH:,} rows ({len(batches)} batches)")):
        nbytes = rows * 768 if not key else batch_bytes
        numpy_seconds = seconds[key + "unpack"]
        report.row(f"NumPy `unpackbits`, {label} (output)", f"{nbytes / numpy_seconds / 1e9:.2f} GB/s", "",
                   gb_per_s=nbytes / numpy_seconds / 1e9)
        for task, how in (("new", "a new array"), ("out", "`out=` one array reused"),
                          ("turn new", "`turn`, a new array"), ("turn out", "`turn`, `out=` one array reused")):
            took = seconds[key + task]
            report.row(f"`bitboards.planes`, {label}, {how} (output)", f"{nbytes / took / 1e9:.2f} GB/s",
                       f"{numpy_seconds / took:.2f}x NumPy `unpackbits`", gb_per_s=nbytes / took / 1e9)
    report.row("`bitboards.planes`, its first call in the process (output)",
               f"{rows * 768 / seconds_first / 1e9:.2f} GB/s", "", gb_per_s=rows * 768 / seconds_first / 1e9)
    report.note(f"planes: kernel {kernel} (the fastest of {', '.join(bitboards._bitboards.planes_kernels())} "
                "this processor runs); each figure the best of 10 interleaved rounds, NumPy's "
                "`unpackbits(x.view(uint8), bitorder=\"little\")` on the same rows in the same rounds; "
                f"from {THREADED_PLANES_ROWS:,} rows on, planes are written on every core")


# Syzygy ------------------------------------------------------------------

def random_endgames(count, seed):
    """`count` boards of the tables in SYZYGY, each table in turn
    (tests/endgames.py's `random_endgame`: valid for python-chess and for
    the crate's rules)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))
    try:
        from endgames import random_endgame
    finally:
        sys.path.pop(0)
    materials = sorted({name.split(".")[0] for name in os.listdir(SYZYGY) if name.endswith(".rtbw")})
    rng = random.Random(seed)
    return [random_endgame(rng, materials[i % len(materials)]) for i in range(count)]


def bench_syzygy(report, args):
    import numpy as np

    import bitboards
    import bitboards.syzygy

    chess = optional("chess")
    if chess is None:
        report.note("python-chess is not installed: the syzygy rows are skipped (its positions are python-chess's)")
        return
    import chess.syzygy

    theirs_boards = random_endgames(SYZYGY_POSITIONS, args.seed)
    ours_boards = [bitboards.Board(board.fen()) for board in theirs_boards]
    pieces = [(color, kind) for color in (True, False) for kind in range(1, 7)]
    rows = np.array([[board.pieces_mask(kind, color) for color, kind in pieces] for board in theirs_boards],
                    dtype=np.uint64)
    turn = np.array([board.turn for board in theirs_boards])
    repeat = SYZYGY_BATCH // len(rows)
    batch_rows, batch_turn = np.tile(rows, (repeat, 1)), np.tile(turn, repeat)
    count = len(theirs_boards)
    with bitboards.syzygy.open_tablebase(SYZYGY) as ours, chess.syzygy.open_tablebase(str(SYZYGY)) as theirs:
        # The tables are mapped and their headers read at their first probe:
        # once, before the clocks.
        ours.probe_wdl_many(rows, turn)
        [theirs.probe_wdl(board) for board in theirs_boards]
        rates = {}
        answers = {}
        for name, task in (
            ("wdl, bitboards", lambda: [ours.probe_wdl(board) for board in ours_boards]),
            ("wdl, python-chess board", lambda: [ours.probe_wdl(board) for board in theirs_boards]),
            ("wdl, python-chess", lambda: [theirs.probe_wdl(board) for board in theirs_boards]),
            ("dtz, bitboards", lambda: [ours.probe_dtz(board) for board in ours_boards]),
            ("dtz, python-chess", lambda: [theirs.probe_dtz(board) for board in theirs_boards]),
        ):
            seconds, answers[name] = best(task)
            rates[name] = count / seconds
        seconds_many, many = best(lambda: ours.probe_wdl_many(batch_rows, batch_turn))
    for name in ("wdl, python-chess board", "wdl, python-chess"):
        if answers[name] != answers["wdl, bitboards"]:
            report.fail(f"syzygy: probe_wdl ({name}) differs from bitboards' on the same positions")
    if answers["dtz, python-chess"] != answers["dtz, bitboards"]:
        report.fail("syzygy: probe_dtz differs from python-chess's on the same positions")
    if many.tolist() != answers["wdl, bitboards"] * repeat:
        report.fail("syzygy: probe_wdl_many differs from probe_wdl")
    theirs_wdl, theirs_dtz = rates["wdl, python-chess"], rates["dtz, python-chess"]
    report.row("`syzygy.Tablebase.probe_wdl(board)`", rate(count, count / rates["wdl, bitboards"], "probes"),
               times(rates["wdl, bitboards"], theirs_wdl, "python-chess"), probes_per_s=rates["wdl, bitboards"])
    report.row("`syzygy.Tablebase.probe_wdl(chess.Board)` (read through its FEN)",
               rate(count, count / rates["wdl, python-chess board"], "probes"),
               times(rates["wdl, python-chess board"], theirs_wdl, "python-chess"),
               probes_per_s=rates["wdl, python-chess board"])
    report.row("python-chess `chess.syzygy` `probe_wdl`", rate(count, count / theirs_wdl, "probes"), "",
               probes_per_s=theirs_wdl)
    report.row("`syzygy.Tablebase.probe_dtz(board)`", rate(count, count / rates["dtz, bitboards"], "probes"),
               times(rates["dtz, bitboards"], theirs_dtz, "python-chess"), probes_per_s=rates["dtz, bitboards"])
    report.row("python-chess `chess.syzygy` `probe_dtz`", rate(count, count / theirs_dtz, "probes"), "",
               probes_per_s=theirs_dtz)
    batch = len(batch_rows)
    one = rates["wdl, bitboards"]
    report.row(f"`syzygy.Tablebase.probe_wdl_many` ({batch:,} rows), every core ({os.cpu_count()})",
               rate(batch, seconds_many, "probes"),
               f"{times(batch / seconds_many, one, 'probe_wdl one by one')}; "
               f"{times(batch / seconds_many, theirs_wdl, 'python-chess')}", probes_per_s=batch / seconds_many)
    report.note(f"syzygy: {count:,} random positions of the {len(os.listdir(SYZYGY)) // 2 - 1} 3- and 4-piece "
                f"tables of tests/data/syzygy (seed {args.seed}), both sides to move, the same for both "
                "libraries, tables opened before timing; probe_wdl_many on them repeated "
                f"{repeat}x as NumPy rows")


def random_boards(chess, count, seed):
    """python-chess boards after seeded random games of 0 to 80 plies, none
    finished."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randrange(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            boards.append(chess.Board(board.fen()))
    return boards


class BarePipe:
    """The floor: Stockfish driven through its pipes by a few lines of
    Python, the same commands as the clients send."""

    def __init__(self, path):
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        universal_newlines=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send("isready")
        self.until("readyok")

    def send(self, text):
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def until(self, word):
        for line in self.process.stdout:
            if line.startswith(word):
                return line
        raise RuntimeError(f"the engine exited before {word}")

    def bestmove(self, fen, new_game):
        if new_game:
            self.send("ucinewgame\nisready")
            self.until("readyok")
        self.send(f"position fen {fen}\ngo nodes 1")
        return self.until("bestmove").split()[1]

    def close(self):
        self.send("quit")
        self.process.wait()


def bench_engine(report, args):
    import bitboards
    import bitboards.engine

    chess = optional("chess")
    if chess is None:
        report.note("python-chess is not installed: the engine rows are skipped")
        return
    import chess.engine

    if not os.path.exists(args.engine):
        report.note(f"engine: no engine at {args.engine} (--engine): the engine rows are skipped")
        return
    theirs_boards = random_boards(chess, ENGINE_POSITIONS, args.seed)
    ours_boards = [bitboards.Board(board.fen()) for board in theirs_boards]
    fens = [board.fen() for board in theirs_boards]
    limit, their_limit = bitboards.engine.Limit(nodes=1), chess.engine.Limit(nodes=1)
    pipe = BarePipe(args.engine)
    ours = bitboards.engine.SimpleEngine.popen_uci(args.engine)
    theirs = chess.engine.SimpleEngine.popen_uci(args.engine)
    try:
        for new_game, count in ((False, ENGINE_POSITIONS), (True, ENGINE_NEWGAME_POSITIONS)):
            def game():
                return object() if new_game else None

            tasks = [
                lambda: [pipe.bestmove(fen, new_game) for fen in fens[:count]],
                lambda: [ours.analyse(board, limit, game=game())["pv"][0].uci() for board in ours_boards[:count]],
                lambda: [theirs.analyse(board, their_limit, game=game())["pv"][0].uci()
                         for board in theirs_boards[:count]],
            ]
            (floor, mine, python_chess), results = interleaved(tasks, rounds=5)
            for result, name in zip(results, ("bare pipe", "bitboards", "python-chess")):
                if any(move is None for move in result) or len(result) != count:
                    report.fail(f"engine: the {name} loop missed moves")
            kind = "with `ucinewgame` each" if new_game else "without `ucinewgame`"
            report.row(f"`engine.SimpleEngine.analyse` loop, `nodes=1`, {kind}", rate(count, mine, "positions"),
                       f"{times(count / mine, count / floor, 'the bare pipe')}; "
                       f"{times(count / mine, count / python_chess, 'python-chess')}",
                       positions_per_s=count / mine)
            report.row(f"python-chess `SimpleEngine.analyse` loop, `nodes=1`, {kind}",
                       rate(count, python_chess, "positions"), "", positions_per_s=count / python_chess)
            report.row(f"bare pipe (the floor), `nodes=1`, {kind}", rate(count, floor, "positions"), "",
                       positions_per_s=count / floor)
    finally:
        pipe.close()
        ours.quit()
        theirs.quit()
    bench_engine_asyncio(report, args, chess, theirs_boards)
    pool_fens = fens[:POOL_POSITIONS]
    pool_limit = bitboards.engine.Limit(nodes=POOL_NODES)
    tables = {}

    def pool(engines):
        def run():
            tables[engines] = bitboards.engine.analyse_many(args.engine, pool_fens, pool_limit, engines=engines,
                                                            options={"Hash": 16, "Threads": 1})
        return run

    (one, two), _ = interleaved([pool(1), pool(2)], rounds=3)
    if not tables[1].equals(tables[2]):
        report.fail("engine: analyse_many on 2 engines differs from 1 engine")
    count = len(pool_fens)
    report.row(f"`engine.analyse_many`, `nodes={POOL_NODES}`, 1 engine", rate(count, one, "positions"), "",
               positions_per_s=count / one)
    report.row(f"`engine.analyse_many`, `nodes={POOL_NODES}`, 2 engines", rate(count, two, "positions"),
               times(count / two, count / one, "1 engine"), positions_per_s=count / two)
    report.note(f"engine: {ENGINE_POSITIONS} random positions (seed {args.seed}; the first "
                f"{ENGINE_NEWGAME_POSITIONS} with `ucinewgame`, after which Stockfish clears its hash and "
                "answers `isready` when done: that clearing bounds those loops) sent as `position fen`, one "
                f"Stockfish each ({args.engine}), each loop's best of 5 interleaved rounds; analyse_many on the "
                f"first {POOL_POSITIONS} at nodes={POOL_NODES}, Hash=16, Threads=1, a fresh `ucinewgame` "
                "before each position, best of 3 interleaved rounds, the same table on 1 and 2 engines")


class AsyncBarePipe(asyncio.SubprocessProtocol):
    """The asyncio floor: Stockfish's pipes read by a few lines of Python,
    the same commands as the clients send."""

    def __init__(self):
        self.buffer = b""
        self.waiting = None
        self.word = b""

    def pipe_data_received(self, fd, data):
        self.buffer += data
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            if line.startswith(self.word) and self.waiting is not None and not self.waiting.done():
                self.waiting.set_result(line.decode())

    async def ask(self, transport, text, word):
        self.word = word.encode()
        self.waiting = asyncio.get_running_loop().create_future()
        transport.get_pipe_transport(0).write(text.encode())
        return await self.waiting


def bench_engine_asyncio(report, args, chess, boards):
    """The asyncio protocols' `analyse` loop at nodes=1: ours, python-chess's
    and the bare pipe, one Stockfish each, on one event loop."""
    import bitboards.engine

    loop = asyncio.new_event_loop()
    count = len(boards)
    fens = [board.fen() for board in boards]
    try:
        _, ours = loop.run_until_complete(bitboards.engine.popen_uci(args.engine))
        _, theirs = loop.run_until_complete(chess.engine.popen_uci(args.engine))
        pipe_transport, pipe = loop.run_until_complete(loop.subprocess_exec(AsyncBarePipe, args.engine))
        loop.run_until_complete(pipe.ask(pipe_transport, "uci\nisready\n", "readyok"))

        async def ours_loop():
            limit = bitboards.engine.Limit(nodes=1)
            return [(await ours.analyse(board, limit), 1)[1] for board in boards]

        async def theirs_loop():
            limit = chess.engine.Limit(nodes=1)
            return [(await theirs.analyse(board, limit), 1)[1] for board in boards]

        async def pipe_loop():
            return [(await pipe.ask(pipe_transport, f"position fen {fen}\ngo nodes 1\n", "bestmove")).split()[1]
                    for fen in fens]

        tasks = [lambda: loop.run_until_complete(pipe_loop()), lambda: loop.run_until_complete(ours_loop()),
                 lambda: loop.run_until_complete(theirs_loop())]
        (floor, mine, python_chess), results = interleaved(tasks, rounds=7)
        if any(len(result) != count for result in results):
            report.fail("engine: an asyncio loop missed positions")
        report.row("`engine.UciProtocol.analyse` loop (asyncio), `nodes=1`", rate(count, mine, "positions"),
                   f"{times(count / mine, count / floor, 'the bare pipe')}; "
                   f"{times(count / mine, count / python_chess, 'python-chess')}", positions_per_s=count / mine)
        report.row("python-chess `UciProtocol.analyse` loop (asyncio), `nodes=1`",
                   rate(count, python_chess, "positions"), "", positions_per_s=count / python_chess)
        report.row("bare asyncio pipe (the floor), `nodes=1`", rate(count, floor, "positions"), "",
                   positions_per_s=count / floor)
        loop.run_until_complete(ours.quit())
        loop.run_until_complete(theirs.quit())
        pipe_transport.get_pipe_transport(0).write(b"quit\n")
        pipe_transport.close()
    finally:
        loop.close()
    report.note(f"engine (asyncio): the same {count} positions, python-chess boards for both clients, each loop's "
                "best of 7 interleaved rounds on one event loop, one Stockfish each")


def processor():
    """The processor's model, as /proc/cpuinfo names it (machines differ:
    every figure is of the processor it was measured on), else the
    architecture."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="games of the generated file (default 5000)")
    parser.add_argument("--pgn", help="time this PGN file instead of generating one")
    parser.add_argument("--bin", default=str(ROOT / "target" / "release" / "bitboards"),
                        help="the `bitboards` command (default: target/release/bitboards)")
    parser.add_argument("--playouts", type=int, default=200, help="random playouts per library (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="the playouts' seed (default 1)")
    parser.add_argument("--engine", default="/usr/games/stockfish",
                        help="the UCI engine of the engine section (default /usr/games/stockfish)")
    parser.add_argument("--json", metavar="OUT", help="also save the figures as JSON")
    parser.add_argument("--write", action="store_true",
                        help="also write the figures and their summary into docs/performance.md")
    parser.add_argument("--only", choices=SECTIONS, action="append",
                        help="run only this section (repeatable; not with --write)")
    args = parser.parse_args()
    if args.only and args.write:
        parser.error("--write needs every section: leave out --only")
    sections = set(args.only or SECTIONS)

    import bitboards  # noqa: F401 (fail early)

    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        if "pgn" in sections or "planes" in sections or "compat" in sections:
            if args.pgn:
                pgn, expected = args.pgn, None
            else:
                pgn, expected = os.path.join(tmp, "lichess.pgn"), args.games
                print(f"writing {args.games} Lichess-shaped games ...", file=sys.stderr)
                make_pgn(args.games, pgn)
        if "pgn" not in sections and "planes" in sections:
            # The planes alone (they are also the end of the pgn section).
            print("planes ...", file=sys.stderr)
            import bitboards.pgn
            bench_planes(report, bitboards.pgn.read_positions(pgn, progress=False))
        if "pgn" in sections:
            print("PGN ...", file=sys.stderr)
            bench_pgn(report, args, pgn, expected)
            print("positions ...", file=sys.stderr)
            table_rate = report.figures.get("`pgn.read_table(file, threads=1)`", {}).get("games_per_s")
            bench_positions(report, pgn, table_rate or 1.0)
        if "compat" in sections:
            print("compat ...", file=sys.stderr)
            bench_compat(report, args, pgn, tmp)
    if "playouts" in sections:
        print("playouts ...", file=sys.stderr)
        bench_playouts(report, args)
    if "perft" in sections:
        print("perft ...", file=sys.stderr)
        bench_perft(report)
    if "syzygy" in sections:
        print("syzygy ...", file=sys.stderr)
        bench_syzygy(report, args)
    if "engine" in sections:
        print("engine ...", file=sys.stderr)
        bench_engine(report, args)

    heading = (f"best of {ROUNDS} runs (the readers: best of 10 interleaved rounds); Python "
               f"{platform.python_version()}, {processor()}, {os.cpu_count()} cores")
    notes = "\n".join(f"- {note}" for note in report.notes)
    print(f"\n{heading}\n\n{report.markdown()}\n\n{notes}")
    if args.write and not report.failed:
        command = "python bindings/python/bench.py" + (f" --games {args.games}" if not args.pgn else " --pgn FILE")
        write_block(PERFORMANCE, "python-bench", f"`{command} --write`: {heading}.\n\n{report.markdown()}\n\n{notes}",
                    machine())
        write_block(PERFORMANCE, "python-summary",
                    f"`{command} --write`, {heading}; every row is in "
                    f"[the Python section](#python).\n\n{report.summary()}")
        print(f"wrote {PERFORMANCE.relative_to(ROOT)}", file=sys.stderr)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"rounds": ROUNDS, "figures": report.figures, "notes": report.notes,
                       "python": platform.python_version(), "processor": processor(),
                       "cores": os.cpu_count()}, out, indent=2)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
