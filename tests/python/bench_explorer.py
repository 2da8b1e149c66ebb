"""The opening explorer against Lichess's own (lila-openingexplorer), in one
run: building the index, its size, and answering `GET /lichess`.

    cargo build --release -p bitboards-cli
    python3 tests/python/bench_explorer.py [--games N] [--rounds N] [--write]

Needs python-chess, `zstd` and `wrk`. lila-openingexplorer is AGPL and is
never built inside this repository: build it elsewhere (its `iai`
dev-dependency dropped, a git one) and name its binaries with
LILA_EXPLORER_BIN and LILA_IMPORT_BIN (by default
/tmp/lila-target/release/lila-openingexplorer and .../import-lichess, the
importer of its `import-pgn` folder). Without them lila is skipped and
only ours is measured.

1. Games: N (5,000) seeded Lichess-shaped games as the open database writes
   them: its 17 tags, mixed time controls, an eval and a clock after every
   move, 20 to 120 plies. The first plies follow common openings (weighted,
   with deviations), then random legal moves, so that positions recur and
   transpose across games; the ECO and Opening tags name the last named
   position reached (the opening names the index carries). Written as
   games.pgn and games.pgn.zst (`zstd -19`).
2. Build: `bitboards pgn games.pgn.zst` (text to /dev/null) and `bitboards
   explorer build games.pgn.zst --out DIR` (DIR fresh each time), one
   after the other, --rounds rounds (9); games/s from the median, the ratio
   the median over the rounds of the paired wall times.
3. lila: its server on a fresh database, `import-lichess` run on
   games.pgn.zst (games/s from the wall time of the importer, which ends
   when the server has taken the last batch), --import-rounds times (3),
   each round a fresh database and one of our builds just before it (the
   ratio the median of these pairs); then, on the last, `POST /compact` and the
   size of its database directory (`du -sb`), against our index's
   (`du -sb DIR`) and the .pgn.zst. Opening names: lila downloads them from
   GitHub at start; the script serves the repository's copy of the same
   files (crates/explorer/data/openings) on localhost and points lila there
   with EXPLORER_OPENINGS_URL, which a lila patched to read it honours (an
   unpatched lila answers without names and says so in its log).
4. Queries: 2,000 distinct positions of the games' first 20 plies (`play=`
   UCI lists), cycled by a wrk Lua script, `wrk -t2 -c16 -d10s --latency`
   against each server: ours twice, lila three times: just after its
   start (its response cache empty at first), again (every answer cached)
   and with `--lichess-cache 0` (no response cache). Requests/s and p99;
   the servers' CPU over the run (wrk shares the machine's cores). Then
   the same offered load to both, their caches full: each connection
   pausing --pause ms (1) after each answer (wrk's `delay`), --paced-rounds
   runs (5) of each server alternated; p50 and p99, medians. 200 answers of
   the two servers compared field by field, as wrk asks and with
   `topGames=4&recentGames=4` (lila's default is up to 8 games, ours 4).

Prints a markdown table; with `--write`, also puts it into
docs/performance.md as the section "## Opening explorer: ...", replaced
where there is one. Not a test (pytest collects only test_*.py).
"""

import argparse
import datetime
import functools
import http.server
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import chess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RELEASE = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release")
BITBOARDS = os.path.join(RELEASE, "bitboards")
LILA_EXPLORER = os.environ.get("LILA_EXPLORER_BIN", "/tmp/lila-target/release/lila-openingexplorer")
LILA_IMPORT = os.environ.get("LILA_IMPORT_BIN", "/tmp/lila-target/release/import-lichess")
OPENINGS = os.path.join(ROOT, "crates", "explorer", "data", "openings")
PAGE = os.path.join(ROOT, "docs", "performance.md")
HEADING = "## Opening explorer: `python3 tests/python/bench_explorer.py --write`"
CLK_TCK = os.sysconf("SC_CLK_TCK")

# --- the games -------------------------------------------------------------

# Common lines (weight, SAN): a game follows one for its first 4 to 12
# plies, now and then leaving it for another legal move. Several reach the
# same positions by other move orders (London, Queen's Gambit, English,
# Reti, Sicilian), as games do.
LINES = [
    (10, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5"),
    (8, "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6 O-O O-O"),
    (5, "e4 e5 Nf3 Nc6 Bc4 Nf6 Ng5 d5 exd5 Na5 Bb5+ c6"),
    (5, "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6 Nxc6 bxc6 e5 Qe7"),
    (4, "e4 e5 Nf3 d6 d4 exd4 Nxd4 Nf6 Nc3 Be7 Bc4 O-O"),
    (3, "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4 d4 d5 Bd3 Nc6"),
    (3, "e4 e5 f4 exf4 Nf3 g5 h4 g4 Ne5 Nf6 Bc4 d5"),
    (3, "e4 e5 Bc4 Nf6 d3 c6 Nf3 d5 Bb3 Bd6 Nc3 dxe4"),
    (4, "e4 e5 Nc3 Nf6 f4 d5 fxe5 Nxe4 Nf3 Be7 d4 O-O"),
    (10, "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5"),
    (6, "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 g6 Nc3 Bg7 Be3 Nf6"),
    (4, "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6 Nc3 Qc7 Be3 a6"),
    (4, "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7 d3 d6 f4 e6"),
    (3, "e4 c5 c3 d5 exd5 Qxd5 d4 Nf6 Nf3 Bg4 Be2 e6"),
    (7, "e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7 e5 Nfd7 Bxe7 Qxe7"),
    (3, "e4 e6 d4 d5 e5 c5 c3 Nc6 Nf3 Qb6 a3 c4"),
    (6, "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6 h4 h6"),
    (3, "e4 c6 d4 d5 e5 Bf5 Nf3 e6 Be2 c5 Be3 Nd7"),
    (6, "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 c6 Bc4 Bf5"),
    (3, "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 O-O"),
    (3, "e4 g6 d4 Bg7 Nc3 d6 f4 Nf6 Nf3 O-O Bd3 Nc6"),
    (2, "e4 Nc6 d4 d5 e5 Bf5 c3 e6 Nf3 f6 Bd3 Bxd3"),
    (8, "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O Nf3 h6"),
    (4, "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4 Bf5 e3 e6"),
    (4, "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6 Bxc4 c5 O-O a6"),
    (7, "d4 d5 Bf4 Nf6 e3 c5 c3 Nc6 Nd2 e6 Ngf3 Bd6"),
    (5, "d4 Nf6 Bf4 d5 e3 e6 Nf3 c5 c3 Nc6 Nbd2 Bd6"),
    (4, "d4 d5 Nf3 Nf6 Bf4 e6 e3 c5 c3 Nc6 Nbd2 Bd6"),
    (6, "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5"),
    (5, "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 Nf3 c5"),
    (4, "d4 Nf6 c4 e6 Nf3 d5 Nc3 Be7 Bg5 O-O e3 h6"),
    (3, "d4 f5 g3 Nf6 Bg2 g6 Nf3 Bg7 O-O O-O c4 d6"),
    (3, "d4 d5 e3 Nf6 Bd3 c5 c3 Nc6 f4 e6 Nf3 Bd6"),
    (5, "Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4 d3 Nbd7 Nbd2 e5"),
    (3, "Nf3 Nf6 c4 e6 Nc3 d5 d4 Be7 Bg5 O-O e3 h6"),
    (5, "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5 cxd5 Nxd5 Bg2 Nb6"),
    (3, "c4 Nf6 Nc3 e6 d4 Bb4 e3 O-O Bd3 d5 Nf3 c5"),
    (2, "g3 d5 Bg2 Nf6 Nf3 c6 O-O Bg4 d3 Nbd7 Nbd2 e5"),
    (2, "b3 e5 Bb2 Nc6 e3 d5 Bb5 Bd6 Nf3 Qe7 c4 Nf6"),
    (2, "f4 d5 Nf3 g6 e3 Bg7 Be2 Nf6 O-O O-O d3 c5"),
]

# Lichess's time controls, weighted roughly as its games are, with the
# speed its Event tag names.
TIME_CONTROLS = [
    (2, "15+0", "UltraBullet"), (20, "60+0", "Bullet"), (8, "120+1", "Bullet"),
    (25, "180+0", "Blitz"), (10, "180+2", "Blitz"), (10, "300+0", "Blitz"),
    (5, "300+3", "Blitz"), (10, "600+0", "Rapid"), (5, "600+5", "Rapid"),
    (3, "900+10", "Rapid"), (1.5, "1800+0", "Classical"), (1, "1800+20", "Classical"),
    (0.5, "-", "Correspondence"),
]

ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def weighted(rng, items):
    return rng.choices(items, weights=[item[0] for item in items])[0]


def opening_names():
    """The named positions (as python-chess's EPD with the en passant
    square only where a capture is legal) of the repository's copy of
    lichess-org/chess-openings: EPD to (ECO, name)."""
    names = {}
    for part in "abcde":
        with open(os.path.join(OPENINGS, f"{part}.tsv"), encoding="utf-8") as file:
            next(file)
            for line in file:
                eco, name, pgn = line.rstrip("\n").split("\t")
                board = chess.Board()
                for token in pgn.split():
                    if not token[0].isdigit():
                        board.push_san(token)
                names[board.epd()] = (eco, name)
    return names


def clock(seconds):
    seconds = max(0, int(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02}"


def make_games(count, seed, names):
    """`count` Lichess-shaped games: the PGN text and each game's UCI moves."""
    rng = random.Random(seed)
    lines = [(weight, san.split()) for weight, san in LINES]
    players = [
        "".join(rng.choice(ALPHANUMERIC) for _ in range(rng.randint(4, 12)))
        + rng.choice(["", "", "_", "-"]) + str(rng.randint(0, 999)) * rng.randint(0, 1)
        for _ in range(3000)
    ]
    ids = set()
    texts, games = [], []
    for _ in range(count):
        game_id = "".join(rng.choice(ALPHANUMERIC) for _ in range(8))
        while game_id in ids:
            game_id = "".join(rng.choice(ALPHANUMERIC) for _ in range(8))
        ids.add(game_id)
        _, control, speed = weighted(rng, TIME_CONTROLS)
        base, increment = (0, 0) if control == "-" else map(int, control.split("+"))
        _, line = weighted(rng, lines)
        follow = rng.randint(4, len(line))
        limit = rng.randint(20, 120)
        board = chess.Board()
        opening = ("?", "?")
        on_line = True
        tokens, ucis = [], []
        clocks = [base, base]
        evaluation = rng.gauss(20, 15)
        while len(ucis) < limit and not board.is_game_over(claim_draw=False):
            ply = len(ucis)
            move = None
            if on_line and ply < follow and rng.random() > 0.06:
                try:
                    move = board.parse_san(line[ply])
                except ValueError:
                    move = None
            if move is None:
                on_line = False
                move = rng.choice(list(board.legal_moves))
            san = board.san(move)
            if board.turn == chess.WHITE:
                tokens.append(f"{board.fullmove_number}. {san}")
            else:
                tokens.append(f"{board.fullmove_number}... {san}")
            side = 0 if board.turn == chess.WHITE else 1
            board.push(move)
            ucis.append(move.uci())
            named = names.get(board.epd())
            if named:
                opening = named
            evaluation += rng.gauss(0, 40)
            if abs(evaluation) > 900 and rng.random() < 0.5:
                mate = rng.randint(1, 9)
                score = f"#{mate if evaluation > 0 else -mate}"
            else:
                score = f"{evaluation / 100:.2f}"
            if control == "-":
                tokens.append(f"{{ [%eval {score}] }}")
            else:
                clocks[side] = max(0, clocks[side] - rng.expovariate(1 / max(1, base / 40)) + increment)
                tokens.append(f"{{ [%eval {score}] [%clk {clock(clocks[side])}] }}")
        if board.is_checkmate():
            result = "0-1" if board.turn == chess.WHITE else "1-0"
            termination = "Normal"
        elif board.is_game_over(claim_draw=False):
            result, termination = "1/2-1/2", "Normal"
        else:
            result = rng.choices(["1-0", "0-1", "1/2-1/2"], weights=[49, 45, 6])[0]
            termination = "Time forfeit" if result != "1/2-1/2" and rng.random() < 0.15 else "Normal"
        white_elo = min(3000, max(600, int(rng.gauss(1550, 330))))
        black_elo = min(3000, max(600, int(white_elo + rng.gauss(0, 150))))
        change = rng.randint(3, 12)
        white_diff, black_diff = {"1-0": (change, -change), "0-1": (-change, change)}.get(result, (1, -1))
        month = rng.choice(["2024.01", "2024.02", "2024.03"])
        date = f"{month}.{rng.randint(1, 28):02}"
        white, black = rng.sample(players, 2)
        tags = [
            ("Event", f"Rated {speed} game"), ("Site", f"https://lichess.org/{game_id}"),
            ("Date", date), ("Round", "-"), ("White", white), ("Black", black),
            ("Result", result), ("UTCDate", date),
            ("UTCTime", f"{rng.randint(0, 23):02}:{rng.randint(0, 59):02}:{rng.randint(0, 59):02}"),
            ("WhiteElo", str(white_elo)), ("BlackElo", str(black_elo)),
            ("WhiteRatingDiff", f"{white_diff:+d}"), ("BlackRatingDiff", f"{black_diff:+d}"),
            ("ECO", opening[0]), ("Opening", opening[1]), ("TimeControl", control),
            ("Termination", termination),
        ]
        header = "".join(f'[{name} "{value}"]\n' for name, value in tags)
        texts.append(f"{header}\n{' '.join(tokens)} {result}\n\n")
        games.append(ucis)
    return "".join(texts), games


def pick_plays(games, count, seed):
    """`count` distinct `play=` lists of the games' first 20 plies (a
    random game, a random ply: common positions as often as they occur)."""
    rng = random.Random(seed)
    plays, seen = [], set()
    attempts = 0
    while len(plays) < count and attempts < count * 100:
        attempts += 1
        moves = rng.choice(games)
        play = ",".join(moves[:rng.randint(0, min(20, len(moves)))])
        if play not in seen:
            seen.add(play)
            plays.append(play)
    return plays


# --- processes ---------------------------------------------------------------


def du(path):
    return int(subprocess.run(["du", "-sb", path], check=True, capture_output=True, text=True).stdout.split()[0])


def sst_bytes(path):
    return sum(entry.stat().st_size for entry in os.scandir(path) if entry.name.endswith(".sst"))


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid):
    """User and system seconds of a running process (all its threads)."""
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def children_cpu():
    usage = os.times()
    return usage.children_user + usage.children_system


def timed(command):
    """Wall and CPU seconds of `command`, its output thrown away."""
    before = children_cpu()
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, children_cpu() - before


def get(url, timeout=60):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read()


def wait_until_up(url, process, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped (exit {process.returncode}) before answering {url}")
        try:
            get(url, timeout=5)
            return
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.2)
    raise RuntimeError(f"no answer from {url} in {seconds} s")


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class OpeningFiles:
    """The repository's copy of chess-openings served on localhost, in place
    of raw.githubusercontent.com (unreachable offline)."""

    def __enter__(self):
        handler = functools.partial(QuietHandler, directory=OPENINGS)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        return self

    def __exit__(self, *_):
        self.server.shutdown()
        self.server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *_):
        pass


class Ours:
    def __init__(self, index):
        self.process = subprocess.Popen(
            [BITBOARDS, "explorer", "serve", index, "--port", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        found = re.search(r"listening on (http://\S+)", line)
        if not found:
            stop(self.process)
            raise RuntimeError(f"bitboards explorer serve: {line!r}")
        self.url = found.group(1)
        # Drain stderr so that the server never blocks on it.
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        wait_until_up(self.url + "/lichess", self.process)

    def close(self):
        stop(self.process)


class Lila:
    """lila-openingexplorer on `db`, its log in `log`: default settings but
    the address, the database, lila's own URL (a closed local port: its
    blacklist requests fail at once rather than going out) and `extra`."""

    def __init__(self, db, log, openings_url, extra=()):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = dict(os.environ, EXPLORER_LOG="lila_openingexplorer=info", EXPLORER_OPENINGS_URL=openings_url)
        self.log_file = open(log, "a")
        offset = self.log_file.tell()
        self.process = subprocess.Popen(
            [LILA_EXPLORER, "--bind", f"127.0.0.1:{self.port}", "--db", db,
             "--lila", "http://127.0.0.1:9", *extra],
            stdout=self.log_file, stderr=self.log_file, env=env)
        wait_until_up(self.url + "/monitor", self.process)
        # The opening names: loaded (or given up) in the first seconds.
        deadline = time.time() + 90
        self.openings = None
        while time.time() < deadline and self.openings is None:
            text = self.since_start(offset)
            loaded = re.findall(r"refreshed (\d+) opening names", text)
            if loaded:
                self.openings = int(loaded[-1])
            elif "failed to refresh opening names" in text:
                # Once more, by its endpoint for a reload.
                try:
                    urllib.request.urlopen(urllib.request.Request(self.url + "/import/openings", method="POST"),
                                           timeout=60).read()
                except (urllib.error.URLError, OSError):
                    pass
                text = self.since_start(offset)
                loaded = re.findall(r"loaded (\d+) opening names", text)
                self.openings = int(loaded[-1]) if loaded else 0
            else:
                time.sleep(0.2)

    def since_start(self, offset):
        with open(self.log) as file:
            file.seek(offset)
            return file.read()

    def close(self):
        stop(self.process)
        self.log_file.close()


# --- wrk -----------------------------------------------------------------------


def lua_script(path, plays, pause_ms=0):
    """The wrk script cycling `plays`; with `pause_ms`, each connection
    waits that long after each answer before it asks again (wrk's
    `delay`), so that the load offered is fixed rather than as much as the
    server takes."""
    urls = ["/lichess?play=" + play for play in plays]
    body = ",\n".join(json.dumps(url) for url in urls)
    with open(path, "w") as file:
        file.write(
            "local paths = {\n" + body + "\n}\n"
            "local threads = 0\n"
            "function setup(thread)\n"
            "  thread:set('id', threads)\n"
            "  threads = threads + 1\n"
            "end\n"
            "function init(args)\n"
            "  i = (id or 0) * 997\n"
            "end\n"
            "function request()\n"
            "  i = i % #paths + 1\n"
            "  return wrk.format('GET', paths[i])\n"
            "end\n"
            + (f"function delay()\n  return {pause_ms}\nend\n" if pause_ms else ""))


def seconds_of(text):
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}[unit]


def wrk(url, script, duration, pid):
    """requests/s, p99 seconds, non-2xx count, errors, the server's CPU
    (cores busy) over the run."""
    before = cpu_seconds(pid)
    start = time.perf_counter()
    done = subprocess.run(["wrk", "-t2", "-c16", f"-d{duration}s", "--latency", "-s", script, url],
                          check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    cores = (cpu_seconds(pid) - before) / wall
    out = done.stdout
    rps = float(re.search(r"Requests/sec:\s*([\d.]+)", out).group(1))
    p50 = seconds_of(re.search(r"^\s*50%\s+(\S+)", out, re.M).group(1))
    p99 = seconds_of(re.search(r"^\s*99%\s+(\S+)", out, re.M).group(1))
    bad = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", out)
    errors = re.search(r"Socket errors:(.*)", out)
    return {"rps": rps, "p50": p50, "p99": p99, "non2xx": int(bad.group(1)) if bad else 0,
            "errors": errors.group(1).strip() if errors else "", "cores": cores}


# --- profiles ------------------------------------------------------------------


def short_symbol(symbol):
    """A symbol's last two path segments, generics left out."""
    depth, kept = 0, []
    for char in symbol:
        if char == "<":
            depth += 1
        elif char == ">":
            depth = max(0, depth - 1)
        elif depth == 0:
            kept.append(char)
    parts = [part for part in "".join(kept).split("::") if part.strip()]
    return "::".join(parts[-2:]) if parts else symbol


def perf_report(data, sort):
    """(percent, name) rows of `perf report --sort SORT` on `data`."""
    done = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", sort, "--stdio"],
                          capture_output=True, text=True)
    rows = []
    for line in done.stdout.splitlines():
        found = re.match(r"\s*([\d.]+)%\s+(?:\[[.k]\]\s+)?(.*?)(?:\s+-\s+-)?\s*$", line)
        if found and not line.startswith("#"):
            rows.append((float(found.group(1)), found.group(2)))
    return rows


def profile_summary(data, top=6):
    """'kernel 40%, the program 44%, libc 15%; legal_moves 21%, ...', or None."""
    dsos = perf_report(data, "dso")
    symbols = perf_report(data, "symbol")
    if not dsos or not symbols:
        return None
    where = ", ".join(f"{'the kernel' if name.startswith('[kernel') else name} {pct:.0f}%"
                      for pct, name in dsos[:3])
    heaviest = ", ".join(f"`{short_symbol(name)}` {pct:.0f}%" for pct, name in symbols[:top])
    return f"{where}; heaviest: {heaviest}"


def fsync_seconds(command, rounds=5):
    """The median over `rounds` runs of the time `command` spends in fsync
    (its calls timed by `strace -T`), or None without strace."""
    if not shutil.which("strace"):
        return None
    spent = []
    for _ in range(rounds):
        done = subprocess.run(["strace", "-f", "-T", "-e", "trace=fsync,fdatasync", "--", *command()],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            return None
        spent.append(sum(float(t) for t in re.findall(r"<(\d+\.\d+)>", done.stderr)))
    return statistics.median(spent)


def profile_command(command, out):
    """`perf record` of `command`: its summary, or None without perf."""
    if not shutil.which("perf"):
        return None
    done = subprocess.run(["perf", "record", "-F", "4000", "-o", out, "--", *command],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return profile_summary(out) if done.returncode == 0 else None


def profile_server(pid, url, script, seconds, out):
    """`perf record` of a running server for `seconds` of a wrk run (not a
    run whose figures are kept): its summary, or None without perf."""
    if not shutil.which("perf"):
        return None
    load = subprocess.Popen(["wrk", "-t2", "-c16", f"-d{seconds + 2}s", "-s", script, url],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    done = subprocess.run(["perf", "record", "-F", "2000", "-p", str(pid), "-o", out, "--", "sleep", str(seconds)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    load.wait()
    return profile_summary(out) if done.returncode == 0 else None


# --- answers compared --------------------------------------------------------


def total(answer):
    return answer["white"] + answer["draws"] + answer["black"]


def compare(ours_url, lila_url, plays, extra=""):
    """Each play's answers from both servers, field by field: (identical,
    {kind of difference: count}, {kind: the first example})."""
    identical, kinds, examples = 0, {}, {}
    for play in plays:
        query = "/lichess?play=" + play + extra
        a = json.loads(get(ours_url + query)[1])
        b = json.loads(get(lila_url + query)[1])
        found = []

        def note(kind, detail):
            found.append(kind)
            examples.setdefault(kind, (play, detail))

        for key in ("white", "draws", "black"):
            if a.get(key) != b.get(key):
                note(f"total {key}", (a.get(key), b.get(key)))
        if a.get("opening") != b.get("opening"):
            note("opening", (a.get("opening"), b.get("opening")))
        ours_moves = {move["uci"]: move for move in a["moves"]}
        lila_moves = {move["uci"]: move for move in b["moves"]}
        if [total(m) for m in a["moves"]] != [total(m) for m in b["moves"]]:
            note("moves: the counts in order", ([(m["uci"], total(m)) for m in a["moves"]],
                                                [(m["uci"], total(m)) for m in b["moves"]]))
        elif set(ours_moves) != set(lila_moves):
            note("moves: another of the moves tied at the cut (`moves`, 12)",
                 (sorted(set(ours_moves) - set(lila_moves)), sorted(set(lila_moves) - set(ours_moves))))
        elif list(ours_moves) != list(lila_moves):
            note("moves: tied moves in another order",
                 ([(m["uci"], total(m)) for m in a["moves"]], [(m["uci"], total(m)) for m in b["moves"]]))
        for uci in set(ours_moves) & set(lila_moves):
            for key in sorted(set(ours_moves[uci]) | set(lila_moves[uci])):
                x, y = ours_moves[uci].get(key, "absent"), lila_moves[uci].get(key, "absent")
                if x != y:
                    note(f"moves[].{key}", (uci, x, y))
        for games in ("topGames", "recentGames"):
            x = [game["id"] for game in a.get(games, [])]
            y = [game["id"] for game in b.get(games, [])]
            if x != y:
                if len(x) < len(y) and y[:len(x)] == x:
                    note(f"{games}: lila's longer (the same first {len(x)})", (len(x), len(y)))
                else:
                    note(f"{games}: ids", (x, y))
            elif a.get(games) != b.get(games):
                note(f"{games}: fields", (a.get(games), b.get(games)))
        for key in sorted(set(a) ^ set(b)):
            note(f"`{key}` in one answer only", key in a)
        if not found:
            identical += 1
        for kind in set(found):
            kinds[kind] = kinds.get(kind, 0) + 1
    return identical, kinds, examples


# --- the run -------------------------------------------------------------------


def processor():
    with open("/proc/cpuinfo") as file:
        for line in file:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown processor"


def rate(count, seconds):
    return f"{count / seconds:,.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--duration", type=int, default=10, help="seconds of each wrk run")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--import-rounds", type=lambda text: max(1, int(text)), default=3,
                        help="lila imports, each into a fresh database after one of our builds")
    parser.add_argument("--pause", type=int, default=1,
                        help="ms each connection waits after an answer in the paced runs")
    parser.add_argument("--paced-rounds", type=lambda text: max(1, int(text)), default=5,
                        help="paced wrk runs of each server, alternated")
    parser.add_argument("--compare", type=int, default=200, help="answers compared field by field")
    parser.add_argument("--no-profile", dest="profile", action="store_false",
                        help="no `perf record` of the build and the servers (done where there is perf)")
    parser.add_argument("--write", action="store_true", help="also write the section into docs/performance.md")
    args = parser.parse_args()
    if not os.access(BITBOARDS, os.X_OK):
        sys.exit(f"{BITBOARDS} is missing: cargo build --release -p bitboards-cli")
    for tool in ("zstd", "wrk"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing (apt-get install -y {tool})")
    lila = os.access(LILA_EXPLORER, os.X_OK) and os.access(LILA_IMPORT, os.X_OK)
    if not lila:
        print(f"lila-openingexplorer skipped: {LILA_EXPLORER} or {LILA_IMPORT} not found "
              "(LILA_EXPLORER_BIN, LILA_IMPORT_BIN)", file=sys.stderr)

    figures = {}
    notes = []
    with tempfile.TemporaryDirectory(prefix="bench-explorer-") as tmp:
        started = time.perf_counter()
        text, games = make_games(args.games, args.seed, opening_names())
        pgn = os.path.join(tmp, "games.pgn")
        with open(pgn, "w") as file:
            file.write(text)
        subprocess.run(["zstd", "-19", "-q", "-f", pgn, "-o", pgn + ".zst"], check=True)
        zst = pgn + ".zst"
        plies = sum(len(game) for game in games)
        figures["pgn_bytes"] = os.path.getsize(pgn)
        figures["zst_bytes"] = os.path.getsize(zst)
        print(f"{args.games} games, {plies} plies, {figures['pgn_bytes'] / 1e6:.1f} MB, "
              f"{figures['zst_bytes'] / 1e6:.2f} MB .zst (made in {time.perf_counter() - started:.0f} s)",
              file=sys.stderr)

        # Build, alternated with the PGN reading.
        index = os.path.join(tmp, "index")
        runs = {"pgn": [], "build": []}
        for _ in range(args.rounds):
            runs["pgn"].append(timed([BITBOARDS, "pgn", zst]))
            shutil.rmtree(index, ignore_errors=True)
            runs["build"].append(timed([BITBOARDS, "explorer", "build", zst, "--out", index]))
        figures["runs"] = runs
        figures["index_bytes"] = du(index)
        def fresh_build():
            shutil.rmtree(index + "-synced", ignore_errors=True)
            return [BITBOARDS, "explorer", "build", zst, "--out", index + "-synced"]
        figures["build_fsync"] = fsync_seconds(fresh_build)
        if args.profile:
            figures["build_profile"] = profile_command(
                [BITBOARDS, "explorer", "build", zst, "--out", os.path.join(tmp, "index-profiled")],
                os.path.join(tmp, "build.perf"))

        plays = pick_plays(games, args.queries, args.seed + 1)
        script = os.path.join(tmp, "plays.lua")
        lua_script(script, plays)
        server = Ours(index)
        try:
            figures["ours"] = [wrk(server.url, script, args.duration, server.process.pid) for _ in range(2)]
            if args.profile:
                figures["ours_profile"] = profile_server(server.process.pid, server.url, script, 5,
                                                         os.path.join(tmp, "ours.perf"))
            if lila:
                with OpeningFiles() as openings:
                    log = os.path.join(tmp, "lila.log")
                    # Each round: our build (a fresh DIR), then lila's import
                    # into a fresh database, so that the machine's drift falls
                    # on both; the last database is kept for the queries.
                    figures["lila_import"] = []
                    figures["import_pairs"] = []
                    for round_number in range(args.import_rounds):
                        shutil.rmtree(index + "-paired", ignore_errors=True)
                        ours_wall = timed([BITBOARDS, "explorer", "build", zst, "--out", index + "-paired"])[0]
                        db = os.path.join(tmp, f"lila-db-{round_number}")
                        peer = Lila(db, log, openings.url)
                        try:
                            figures["lila_openings"] = peer.openings
                            before_server = cpu_seconds(peer.process.pid)
                            before = children_cpu()
                            start = time.perf_counter()
                            done = subprocess.run([LILA_IMPORT, "--endpoint", peer.url, zst], check=True,
                                                  capture_output=True, text=True)
                            wall = time.perf_counter() - start
                            importer_cpu = children_cpu() - before
                            # The importer prints a line for each batch the server refused.
                            refused = re.findall(r"^.*: \d{3} .* - .*$", done.stdout, re.M)
                            if refused:
                                notes.append(f"lila refused {len(refused)} batches, the first: {refused[0]}")
                            figures["lila_import"].append(
                                (wall, importer_cpu, cpu_seconds(peer.process.pid) - before_server))
                            figures["import_pairs"].append((ours_wall, wall))
                        except BaseException:
                            peer.close()
                            raise
                        if round_number + 1 < args.import_rounds:
                            peer.close()
                            shutil.rmtree(db, ignore_errors=True)
                    try:
                        start = time.perf_counter()
                        urllib.request.urlopen(urllib.request.Request(peer.url + "/compact", method="POST"),
                                               timeout=3600).read()
                        figures["lila_compact"] = time.perf_counter() - start
                        figures["lila_bytes"] = du(db)
                        figures["lila_sst"] = sst_bytes(db)
                    finally:
                        peer.close()
                    # Queries on a fresh start of the compacted database: the
                    # response cache empty, then full.
                    peer = Lila(db, log, openings.url)
                    try:
                        figures["lila"] = [wrk(peer.url, script, args.duration, peer.process.pid) for _ in range(2)]
                        # The same offered load to both, their caches full:
                        # alternated, so that the machine's drift falls on both.
                        paced = os.path.join(tmp, "plays-paced.lua")
                        lua_script(paced, plays, args.pause)
                        figures["paced"] = {"ours": [], "lila": []}
                        for _ in range(args.paced_rounds):
                            figures["paced"]["ours"].append(
                                wrk(server.url, paced, args.duration, server.process.pid))
                            figures["paced"]["lila"].append(wrk(peer.url, paced, args.duration, peer.process.pid))
                        if args.profile:
                            figures["lila_profile"] = profile_server(peer.process.pid, peer.url, script, 5,
                                                                     os.path.join(tmp, "lila.perf"))
                        sample = plays[:args.compare]
                        figures["compare"] = [(extra, len(sample)) + compare(server.url, peer.url, sample, extra)
                                              for extra in ("", "&topGames=4&recentGames=4")]
                        figures["counted"] = (total(json.loads(get(server.url + "/lichess")[1])),
                                              total(json.loads(get(peer.url + "/lichess")[1])))
                    finally:
                        peer.close()
                    peer = Lila(db, log, openings.url, ["--lichess-cache", "0"])
                    try:
                        figures["lila_nocache"] = wrk(peer.url, script, args.duration, peer.process.pid)
                    finally:
                        peer.close()
                    with open(log) as file:
                        errors = [line for line in file if "ERROR" in line and "blacklist" not in line]
                    if errors:
                        notes.append(f"lila's log had {len(errors)} errors, the first: {errors[0].strip()}")
        finally:
            server.close()

    text = markdown(args, figures, lila, notes)
    print(text)
    if args.write:
        write_section(text)


def markdown(args, f, lila, notes):
    runs = f["runs"]
    pgn_median = statistics.median(run[0] for run in runs["pgn"])
    build_median = statistics.median(run[0] for run in runs["build"])
    pgn_best = min(run[0] for run in runs["pgn"])
    build_best = min(run[0] for run in runs["build"])
    paired = statistics.median(p[0] / b[0] for p, b in zip(runs["pgn"], runs["build"]))
    build_cores = statistics.median(run[1] / run[0] for run in runs["build"])
    pgn_cores = statistics.median(run[1] / run[0] for run in runs["pgn"])
    games = args.games
    build_rate = games / build_median

    def met(ok):
        return "met" if ok else "**not met**"

    lines = [
        f"{datetime.date.today()}: {processor()}, {os.cpu_count()} cores; {games:,} Lichess-shaped "
        f"games (seed {args.seed}), {f['pgn_bytes'] / 1e6:.1f} MB of PGN, "
        f"{f['zst_bytes'] / 1e6:.2f} MB as .pgn.zst (`zstd -19`). The build and the PGN reading "
        f"alternated, {args.rounds} rounds: games/s from the median wall time, the ratio the "
        "median of the paired rounds. Each wrk run: `wrk -t2 -c16 "
        f"-d{args.duration}s --latency` cycling {args.queries:,} distinct `/lichess?play=...` "
        "positions of the games' first 20 plies; wrk runs on the same two cores as the server.",
        "",
        "| what | figure | against | goal |",
        "| --- | ---: | ---: | --- |",
        f"| `bitboards pgn games.pgn.zst` (text to /dev/null) | {rate(games, pgn_median)} games/s "
        f"(median {pgn_median * 1e3:.0f} ms, best {pgn_best * 1e3:.0f} ms) | | |",
        f"| `bitboards explorer build games.pgn.zst --out DIR` | {rate(games, build_median)} games/s "
        f"(median {build_median * 1e3:.0f} ms, best {build_best * 1e3:.0f} ms) | {paired:.2f}x `bitboards pgn` "
        f"| at least 0.5x: {met(paired >= 0.5)} |",
    ]
    index = f["index_bytes"]
    lines.append(f"| our index (`du -sb DIR`) | {index / 1e6:.2f} MB | {index / f['zst_bytes']:.2f}x the .pgn.zst "
                 f"| at most 2.0x: {met(index <= 2.0 * f['zst_bytes'])} |")
    if lila:
        imports = f["lila_import"]
        wall = statistics.median(run[0] for run in imports)
        # The median run's CPU figures, for the paragraph below.
        _, importer_cpu, server_cpu = sorted(imports)[len(imports) // 2]
        pairs = f["import_pairs"]
        import_ratio = statistics.median(lila_wall / ours_wall for ours_wall, lila_wall in pairs)
        walls = ", ".join(f"{run[0]:.2f}" for run in imports)
        ours_walls = ", ".join(f"{ours_wall * 1e3:.0f}" for ours_wall, _ in pairs)
        lines.append(f"| lila: `import-lichess games.pgn.zst` into a fresh database, {len(imports)} rounds, each "
                     f"after one of our builds | {rate(games, wall)} games/s (median {wall:.2f} s; runs {walls} s; "
                     f"our builds beside them {ours_walls} ms) | ours {import_ratio:.1f}x (median of the pairs; "
                     f"{build_rate * wall / games:.1f}x from the two medians) | ours at least 8x: "
                     f"{met(import_ratio >= 8)} |")
        lines.append(f"| lila: its database after `POST /compact` ({f['lila_compact']:.1f} s) (`du -sb`) "
                     f"| {f['lila_bytes'] / 1e6:.2f} MB ({f['lila_sst'] / 1e6:.2f} MB of .sst) "
                     f"| ours {index / f['lila_bytes']:.2f}x, the .pgn.zst {f['lila_bytes'] / f['zst_bytes']:.2f}x "
                     f"| ours at most 0.5x: {met(index <= 0.5 * f['lila_bytes'])} |")
    for number, run in enumerate(f["ours"], 1):
        lines.append(f"| ours, `bitboards explorer serve DIR`, run {number} | {run['rps']:,.0f} requests/s, "
                     f"p99 {run['p99'] * 1e3:.2f} ms | server {run['cores']:.2f} cores | |")
    if lila:
        ours = f["ours"][0]
        names = {0: "first run after its start (response cache empty at first)",
                 1: "second run (every answer in its response cache)"}
        for number, run in enumerate(f["lila"]):
            lines.append(f"| lila, {names[number]} | {run['rps']:,.0f} requests/s, p99 {run['p99'] * 1e3:.2f} ms "
                         f"| server {run['cores']:.2f} cores; ours {ours['rps'] / run['rps']:.2f}x the requests/s, "
                         f"p99 {ours['p99'] / run['p99']:.2f}x | ours at least 1.2x the requests/s: "
                         f"{met(ours['rps'] >= 1.2 * run['rps'])} |")
        paced = f["paced"]
        medians = {name: {key: statistics.median(run[key] for run in runs) for key in ("rps", "p50", "p99")}
                   for name, runs in paced.items()}
        for name, label in (("ours", "ours"), ("lila", "lila, its cache full")):
            m = medians[name]
            spread = ", ".join(f"{run['p99'] * 1e3:.2f}" for run in paced[name])
            against = ""
            goal = ""
            if name == "lila":
                o = medians["ours"]
                against = f"ours p99 {o['p99'] / m['p99']:.2f}x, p50 {o['p50'] / m['p50']:.2f}x"
                goal = f"p99 no worse at the same load: {met(o['p99'] <= m['p99'])}"
            lines.append(f"| {label}, the same offered load (each connection pausing {args.pause} ms after "
                         f"each answer), median of {len(paced[name])} runs | {m['rps']:,.0f} requests/s, "
                         f"p50 {m['p50'] * 1e3:.2f} ms, p99 {m['p99'] * 1e3:.2f} ms (runs: {spread}) "
                         f"| {against} | {goal} |")
        run = f["lila_nocache"]
        lines.append(f"| lila, `--lichess-cache 0` (no response cache) | {run['rps']:,.0f} requests/s, "
                     f"p99 {run['p99'] * 1e3:.2f} ms | server {run['cores']:.2f} cores; ours "
                     f"{ours['rps'] / run['rps']:.2f}x, p99 {ours['p99'] / run['p99']:.2f}x | |")
    lines.append("")
    paced_runs = [run for runs in f.get("paced", {}).values() for run in runs]
    bad = [run for run in f["ours"] + f.get("lila", []) + ([f["lila_nocache"]] if lila else []) + paced_runs
           if run["non2xx"] or run["errors"]]
    if bad:
        lines.append("Some wrk runs had failures: " + "; ".join(
            f"{run['non2xx']} non-2xx, socket errors {run['errors'] or 'none'}" for run in bad) + ".")
        lines.append("")
    synced = ""
    if f.get("build_fsync") is not None:
        synced = (f", of which {f['build_fsync'] * 1e3:.0f} ms waiting for the segment to reach the disk "
                  "(`fsync` before it is renamed into place, so that a crash never leaves a half-written "
                  "index; the median of 5 builds under `strace -T`)")
    build = (f"What bounds them. The build: CPU, {build_cores:.2f} of the {os.cpu_count()} cores busy over "
             f"its wall time (`bitboards pgn`: {pgn_cores:.2f}){synced}; `bitboards pgn` (reading the "
             f"games, writing the text) takes {pgn_median / build_median * 100:.0f}% of the build's "
             "wall time.")
    if f.get("build_profile"):
        build += f" `perf record` of one build: {f['build_profile']}."
    paragraphs = [build]
    if lila:
        paragraphs.append(
            f"lila's import: its server busy {server_cpu / wall:.2f} cores over the import "
            f"({server_cpu:.2f} s of CPU) and the importer {importer_cpu / wall:.2f} (parsing the PGN, "
            "writing JSON): the importer sends one batch of 200 games at a time, which the server imports "
            "game after game under one mutex (a RocksDB write batch of merge operands each): the server "
            "imports on one core at most.")
    queries = ("The queries: CPU, each server sharing the two cores with wrk (the cores column is the "
               "server's). Ours answers a repeated query from its response cache (40,000 answers by "
               "default, `--cache`), and computes the others from the index, held whole in memory (each "
               "segment read at start).")
    if lila:
        queries += (" lila answers a repeated query from its response cache (moka, 40,000 answers by "
                    f"default; with {args.queries:,} positions cycled, each is computed once a run, then cached), its "
                    "database in its block cache.")
    if lila:
        queries += (
            " Two loads. As fast as each server answers (wrk's default: each connection asks again as soon "
            "as it has its answer), the two cores are shared by the server and wrk, and the faster the "
            "server, the more of them wrk needs: the latencies then count the time an answer waits for "
            "wrk's own thread, which serves 8 connections and is preempted by the server's threads. "
            "At a fixed load below both servers' limits (each connection pausing "
            f"{args.pause} ms after each answer: the same requests per second to both), the latencies are the "
            "servers' own; the rows above give both.")
    if f.get("ours_profile"):
        queries += f" `perf record` of ours over 5 s of wrk: {f['ours_profile']}."
    if f.get("lila_profile"):
        queries += f" Of lila (its cache full): {f['lila_profile']}."
    paragraphs.append(queries)
    if lila:
        ours_count, lila_count = f["counted"]
        answers = [f"Games counted at the start position: ours {ours_count:,}, lila {lila_count:,}."]
        for extra, count, identical, kinds, _ in f["compare"]:
            summary = "; ".join(f"{kind} in {n}" for kind, n in sorted(kinds.items(), key=lambda item: -item[1]))
            answers.append(
                f"Answers to `/lichess?play=...{extra}` compared field by field on {count} of the positions: "
                f"{identical} identical" + (f"; differing: {summary}" if kinds else "") + ".")
        paragraphs.append(" ".join(answers))
        if f.get("lila_openings") == 0:
            notes.append("lila had no opening names (unpatched: EXPLORER_OPENINGS_URL not read).")
    for paragraph in paragraphs:
        lines += [paragraph, ""]
    commands = [
        "cargo build --release -p bitboards-cli",
        "target/release/bitboards pgn games.pgn.zst > /dev/null",
        "target/release/bitboards explorer build games.pgn.zst --out DIR",
        "target/release/bitboards explorer serve DIR --port 0",
    ]
    if lila:
        commands += [
            "EXPLORER_LOG=lila_openingexplorer=info EXPLORER_OPENINGS_URL=http://127.0.0.1:PORT2 "
            "lila-openingexplorer --bind 127.0.0.1:PORT --db LILA_DB --lila http://127.0.0.1:9",
            "import-lichess --endpoint http://127.0.0.1:PORT games.pgn.zst",
            "curl -X POST http://127.0.0.1:PORT/compact; du -sb LILA_DB DIR",
        ]
    commands.append(f"wrk -t2 -c16 -d{args.duration}s --latency -s plays.lua http://127.0.0.1:PORT")
    if lila:
        commands.append(f"wrk -t2 -c16 -d{args.duration}s --latency -s plays-paced.lua http://127.0.0.1:PORT"
                        f"   (plays.lua with `function delay() return {args.pause} end`)")
    lines += ["Commands:", "", "```"] + commands + ["```", ""]
    if lila:
        lines += [
            "lila-openingexplorer was built outside the repository (AGPL, nothing of it here) in release "
            "with its `iai` dev-dependency and bench dropped (a git dependency that cannot be fetched) and one "
            "change: the base URL of its opening names read from EXPLORER_OPENINGS_URL, so that it loads "
            "them offline from the same files as ours (crates/explorer/data/openings) instead of GitHub. "
            "`--lila http://127.0.0.1:9` points its blacklist requests (lichess.org, unreachable) at a closed "
            "port; its other settings are its defaults.",
            "",
        ]
    else:
        lines += ["lila-openingexplorer was not found: only ours was measured.", ""]
    lines += [note + "\n" for note in notes]
    return "\n".join(lines).rstrip() + "\n"


def write_section(text):
    """Replaces the section under HEADING (to the next `## ` heading), or
    inserts it before "## Figures behind the code" (the end otherwise)."""
    with open(PAGE, encoding="utf-8") as file:
        page = file.read()
    section = f"{HEADING}\n\n{text}\n"
    start = page.find(HEADING + "\n")
    if start >= 0:
        after = page.find("\n## ", start + len(HEADING))
        end = len(page) if after < 0 else after + 1
        page = page[:start] + section + page[end:]
    else:
        anchor = page.find("\n## Figures behind the code\n")
        if anchor >= 0:
            page = page[:anchor + 1] + section + page[anchor + 1:]
        else:
            page = page.rstrip("\n") + "\n\n" + section
    with open(PAGE, "w", encoding="utf-8") as file:
        file.write(page)


if __name__ == "__main__":
    main()
