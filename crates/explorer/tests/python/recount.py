"""An independent recount of the explorer's answers, with python-chess as
the oracle.

Writes, deterministically (random.Random(7)):

- tests/data/recount-games.pgn: random legal games in Lichess's PGN, drawn
  from a small opening tree so that positions recur and transpose, with
  games the explorer must leave out (variants, bots, no result, no
  ratings, no month, no time control);
- tests/data/recount-reference.jsonl: one query a line (a position, a
  filter, limits) and what the explorer must answer, counted here from
  the games by lila-openingexplorer's rules;
- tests/data/recount-skips.json: the games read, indexed and left out by
  reason.

Run from anywhere: python crates/explorer/tests/python/recount.py
"""

import io
import json
import logging
import os
import random
import string

import chess
import chess.pgn

from rules import explorer_uci, key_of

# The variant games that are left out do not read as standard chess: quiet.
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data")

MAX_PLY = 50
ROW_GAMES = 8
MAX_TOP_GAMES = 4

rng = random.Random(7)

# ---------------------------------------------------------------------------
# The counting rules.

SPEEDS = ["ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"]
HIGHSCORE = {
    "ultraBullet": 2644,
    "bullet": 3352,
    "blitz": 2974,
    "rapid": 2949,
    "classical": 2533,
    "correspondence": 4000,
}
GROUPS = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500]


def speed_of(tc):
    """The speed of a TimeControl value, None when it gives none."""
    if tc is None:
        return None
    if tc == "-":
        return "correspondence"
    if tc.count("+") != 1:
        return None
    seconds, increment = tc.split("+")
    if not (seconds.isdigit() and increment.isdigit()):
        return None
    total = int(seconds) + 40 * int(increment)
    if total < 30:
        return "ultraBullet"
    if total < 180:
        return "bullet"
    if total < 480:
        return "blitz"
    if total < 1500:
        return "rapid"
    if total < 21600:
        return "classical"
    return "correspondence"


def band_of(white, black):
    """The band: 0..8 for the groups, 9 for a midpoint of 2800 and up."""
    mid = (white + black) // 2
    if mid >= 2800:
        return 9
    for index in range(len(GROUPS) - 1, -1, -1):
        if mid >= GROUPS[index]:
            return index
    return 0


def group_of_band(band):
    return GROUPS[min(band, 8)]


def band_bound(band):
    return 3200 if band == 9 else GROUPS[band]


def month_of(date):
    """The month (year, month) of a PGN date, None when it has none."""
    parts = date.split(".")
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    year, month = int(parts[0]), int(parts[1])
    if year > 5000 or not 1 <= month <= 12:
        return None
    return (year, month)


def month_name(month):
    return "%04d-%02d" % month


def skip_reason(tags):
    """Why the explorer leaves a game out (its order of checks), or None."""
    variant = tags.get("Variant")
    if variant is not None and variant not in ("Standard", "From Position"):
        return "variant"
    if tags.get("WhiteTitle") == "BOT" or tags.get("BlackTitle") == "BOT":
        return "bot"
    if tags.get("Result") not in ("1-0", "0-1", "1/2-1/2"):
        return "no result"
    for name in ("WhiteElo", "BlackElo"):
        value = tags.get(name)
        if value is None or not value.isdigit():
            return "no ratings"
    date = None
    for name, value in tags.items():  # in tag order: the last one counts
        if name in ("Date", "UTCDate"):
            date = value
    if date is None or month_of(date) is None:
        return "no month"
    if speed_of(tags.get("TimeControl")) is None:
        return "no time control"
    return None


# ---------------------------------------------------------------------------
# The games.

NAMES = ["Alice", "alice", "Bob", "BOB", "carol", "Dave", "erin", "Frank",
         "grace", "Heidi", "ivan", "Judy"]
MONTHS = [(2023, 9), (2023, 10), (2023, 11), (2023, 12), (2024, 1), (2024, 2),
          (2024, 3), (2024, 4)]
MONTH_WEIGHTS = [1, 2, 2, 3, 6, 3, 2, 1]
TIME_CONTROLS = {
    "ultraBullet": ["15+0", "29+0", "0+0"],
    "bullet": ["60+0", "120+1", "30+0", "0+1"],
    "blitz": ["180+0", "180+2", "300+0", "300+3", "120+2"],
    "rapid": ["600+0", "600+5", "900+10", "480+0"],
    "classical": ["1800+0", "1800+20", "900+15", "600+23"],
    "correspondence": ["-", "-", "21600+0"],
}
SPEED_WEIGHTS = [1, 3, 7, 3, 2, 1]
BAD_TIME_CONTROLS = ["?", "180", "1/259200", "180+x"]
# Midpoints to aim at, by weight: every group, and 2800 and up.
MIDPOINTS = [(700, 2), (1100, 2), (1300, 2), (1500, 3), (1700, 3), (1900, 3),
             (2100, 3), (2350, 3), (2650, 2), (2900, 2)]

# The opening tree: the moves the first plies choose from, most liked first.
TREE = ["e2e4", "d2d4", "g1f3", "c2c4", "b1c3",
        "e7e5", "c7c5", "d7d5", "g8f6", "e7e6", "b8c6", "c7c6", "d7d6",
        "e4e5", "d4d5", "f1c4", "f1b5", "f8c5", "f8b4", "c1g5", "c8g4",
        "f3e5", "e4d5", "d5e4", "c4d5", "d5c4", "f6e4", "e5d4", "c5d4",
        "f3d4", "g1e2", "e1g1", "e8g8", "a7a6", "a2a3", "h2h3", "h7h6"]
TREE_WEIGHTS = [6, 3, 2, 1, 1]


def alnum_id():
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(8))


used_ids = set()


def new_id():
    while True:
        game_id = alnum_id()
        if game_id not in used_ids:
            used_ids.add(game_id)
            return game_id


def weighted(items, weights):
    return rng.choices(items, weights=weights)[0]


def knight_shuffle(board, moves):
    """Four plies that come back to the position (two knights out and
    back), when they can be played; True when played."""
    plan = []
    probe = board.copy()
    for _ in range(2):
        outs = [m for m in probe.legal_moves
                if probe.piece_type_at(m.from_square) == chess.KNIGHT
                and not probe.is_capture(m) and not probe.gives_check(m)]
        if not outs:
            return False
        out = rng.choice(sorted(outs, key=lambda m: m.uci()))
        plan.append(out)
        probe.push(out)
    for out in plan:
        back = chess.Move(out.to_square, out.from_square)
        if not probe.is_legal(back):
            return False
        probe.push(back)
    for mv in plan:
        board.push(mv)
        moves.append(mv)
    for mv in plan:
        back = chess.Move(mv.to_square, mv.from_square)
        board.push(back)
        moves.append(back)
    return True


def random_moves(board, plies, tree_plies, shuffle):
    """Legal moves from `board`: the tree for `tree_plies`, then random."""
    moves = []
    shuffled = False
    while len(moves) < plies and not board.is_game_over():
        if shuffle and not shuffled and len(moves) >= rng.randint(2, 20):
            shuffled = knight_shuffle(board, moves)
            if shuffled:
                continue
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        if len(moves) < tree_plies:
            liked = [m for name in TREE for m in legal if m.uci() == name][:len(TREE_WEIGHTS)]
            if liked and rng.random() < 0.9:
                move = weighted(liked, TREE_WEIGHTS[:len(liked)])
            else:
                move = rng.choice(legal)
        else:
            # Some en passant when it can be taken, some double pushes.
            eps = [m for m in legal if board.is_en_passant(m)]
            if eps and rng.random() < 0.5:
                move = rng.choice(eps)
            else:
                move = rng.choice(legal)
        board.push(move)
        moves.append(move)
    return moves


def ratings_near(mid):
    spread = rng.randint(0, 140)
    white = max(600, min(3000, mid + rng.randint(-90, 90) + spread))
    black = max(600, min(3000, mid + rng.randint(-90, 90) - spread))
    if rng.random() < 0.5:
        white, black = black, white
    return white, black


def pgn_date(month):
    return "%04d.%02d.%02d" % (month[0], month[1], rng.randint(1, 28))


def lichess_tags(game_id, month, speed_tc, result, white_elo, black_elo):
    """Tags in Lichess's order."""
    casual = rng.random() < 0.12
    speed = speed_of(speed_tc) or "blitz"
    name = speed[0].upper() + speed[1:]
    if speed == "ultraBullet":
        name = "UltraBullet"
    event = ("Casual %s game" if casual else "Rated %s game") % name
    date = pgn_date(month)
    white, black = rng.sample(NAMES, 2)
    tags = [("Event", event), ("Site", "https://lichess.org/" + game_id), ("Date", date),
            ("White", white), ("Black", black), ("Result", result), ("UTCDate", date),
            ("UTCTime", "%02d:%02d:%02d" % (rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))),
            ("WhiteElo", str(white_elo)), ("BlackElo", str(black_elo)),
            ("TimeControl", speed_tc), ("Termination", "Normal")]
    return tags


def set_tag(tags, name, value):
    for index, (tag, _) in enumerate(tags):
        if tag == name:
            tags[index] = (name, value)
            return
    tags.append((name, value))


def drop_tag(tags, name):
    tags[:] = [(tag, value) for tag, value in tags if tag != name]


def movetext(start, moves, result):
    board = chess.Board(start) if start else chess.Board()
    text = board.variation_san(moves) if moves else ""
    # Lines of at most 80 characters.
    out, line = [], ""
    for word in (text.split() + [result]):
        if line and len(line) + 1 + len(word) > 79:
            out.append(line)
            line = word
        else:
            line = word if not line else line + " " + word
    out.append(line)
    return "\n".join(out)


games = []  # dicts: tags (list), start (FEN or None), moves (chess.Move list)


def make_game(start=None, moves=None, skip=None, fixed=None):
    game_id = new_id()
    month = weighted(MONTHS, MONTH_WEIGHTS)
    speed = weighted(SPEEDS, SPEED_WEIGHTS)
    tc = rng.choice(TIME_CONTROLS[speed])
    mid = weighted([m for m, _ in MIDPOINTS], [w for _, w in MIDPOINTS])
    prefix = []
    if fixed is not None:
        month, tc, mid, prefix = fixed
    white_elo, black_elo = ratings_near(mid)
    result = weighted(["1-0", "0-1", "1/2-1/2"], [5, 4, 2])
    if moves is None:
        board = chess.Board(start) if start else chess.Board()
        roll = rng.random()
        if roll < 0.03:
            plies = 0
        elif roll < 0.08:
            plies = rng.randint(1, 4)
        else:
            plies = rng.randint(5, 80)
        moves = [chess.Move.from_uci(uci) for uci in prefix]
        for mv in moves:
            board.push(mv)
        moves += random_moves(board, max(0, plies - len(moves)), rng.randint(4, 10), rng.random() < 0.2)
    tags = lichess_tags(game_id, month, tc, result, white_elo, black_elo)
    if rng.random() < 0.05:
        # Date and UTCDate differ: the last one gives the month.
        other = weighted(MONTHS, MONTH_WEIGHTS)
        set_tag(tags, "Date", pgn_date(other))
        if rng.random() < 0.5:
            # UTCDate first, Date last.
            drop_tag(tags, "Date")
            tags.insert(7, ("Date", pgn_date(other)))
    elif rng.random() < 0.04:
        set_tag(tags, "Date", "????.??.??")
    elif rng.random() < 0.04:
        drop_tag(tags, "UTCDate")
        drop_tag(tags, "UTCTime")
    if rng.random() < 0.03:
        tags.insert(6, ("Variant", "Standard"))
    if start is not None:
        tags.insert(len(tags), ("SetUp", "1"))
        tags.insert(len(tags), ("FEN", start))
        if rng.random() < 0.7:
            tags.insert(len(tags) - 2, ("Variant", "From Position"))
    if skip == "variant":
        tags.insert(rng.choice([6, 10, 12]), ("Variant", rng.choice(["Chess960", "Atomic"])))
    elif skip == "bot":
        tags.insert(9, (rng.choice(["WhiteTitle", "BlackTitle"]), "BOT"))
        if rng.random() < 0.3:
            tags.insert(9, ("WhiteTitle", "GM"))
    elif skip == "no result":
        set_tag(tags, "Result", "*")
        result = "*"
    elif skip == "no ratings":
        choice = rng.random()
        if choice < 0.4:
            drop_tag(tags, rng.choice(["WhiteElo", "BlackElo"]))
        else:
            set_tag(tags, rng.choice(["WhiteElo", "BlackElo"]), "?")
    elif skip == "no month":
        set_tag(tags, "UTCDate", "????.??.??")
        if rng.random() < 0.5:
            set_tag(tags, "Date", "????.??.??")
    elif skip == "no time control":
        if rng.random() < 0.3:
            drop_tag(tags, "TimeControl")
        else:
            set_tag(tags, "TimeControl", rng.choice(BAD_TIME_CONTROLS))
    elif skip == "two":
        # Two reasons: the first in the explorer's order is reported.
        set_tag(tags, "Result", "*")
        result = "*"
        set_tag(tags, "TimeControl", "?")
        if rng.random() < 0.5:
            tags.insert(9, ("BlackTitle", "BOT"))
    if result != dict(tags).get("Result", result):
        result = dict(tags)["Result"]
    game = {"tags": tags, "start": start, "moves": moves, "result": result}
    games.append(game)
    return game


SKIPS = ["variant", "bot", "no result", "no ratings", "no month", "no time control", "two"]

for number in range(560):
    roll = rng.random()
    skip = rng.choice(SKIPS) if roll < 0.14 else None
    make_game(skip=skip)

# Clusters: games of one month, speed and rating band, more than a row
# keeps (ROW_GAMES), in the tree's main line.
for number in range(36):
    make_game(fixed=((2024, 1), rng.choice(["180+0", "300+0"]), 2900, ["e2e4", "e7e5"]))
for number in range(24):
    skip = "bot" if number % 8 == 7 else None
    make_game(fixed=((2023, 12), "600+0", 2350, ["e2e4"]), skip=skip)

# Some games copied (moves and all) under other tags: more rows shared.
for number in range(25):
    source = rng.choice(games)
    if source["start"] is None:
        make_game(moves=list(source["moves"]))

# Games from a FEN reached in the tree: they meet the others.
fen_starts = []
for number in range(16):
    source = rng.choice([g for g in games if g["start"] is None and len(g["moves"]) >= 6])
    ply = rng.randint(2, min(10, len(source["moves"]) - 1))
    board = chess.Board()
    for mv in source["moves"][:ply]:
        board.push(mv)
    fen = board.fen()
    if rng.random() < 0.5:
        moves = list(source["moves"][ply:])
    else:
        moves = random_moves(board, rng.randint(1, 40), 4, False)
    make_game(start=fen, moves=moves)
    fen_starts.append(fen)

# En passant from a FEN: the pawn pinned (no capture: the position meets
# the one without the square), or free (it does not meet).
PINNED = "4k3/2p5/8/KP5r/8/8/7P/8 b - - 0 1"
PINNED_NO_EP = "4k3/8/2p5/KP5r/8/8/7P/8 b - - 0 1"
FREE = "4k3/2p5/8/KP6/8/8/7P/7r b - - 0 1"
FREE_NO_EP = "4k3/8/2p5/KP6/8/8/7P/7r b - - 0 1"
EP_STARTS = [(PINNED, "c7c5"), (PINNED_NO_EP, "c6c5"), (FREE, "c7c5"), (FREE_NO_EP, "c6c5")]
for start, first in EP_STARTS * 3:
    board = chess.Board(start)
    move = chess.Move.from_uci(first)
    board.push(move)
    moves = [move]
    if start == FREE and rng.random() < 0.7:
        take = chess.Move.from_uci("b5c6")
        board.push(take)
        moves.append(take)
    moves += random_moves(board, rng.randint(1, 12), 0, False)
    make_game(start=start, moves=moves)
    fen_starts.append(start)

# The order of the file: a shuffle, so that months come in any order.
rng.shuffle(games)


def game_pgn(game):
    lines = ['[%s "%s"]' % (name, value) for name, value in game["tags"]]
    return "\n".join(lines) + "\n\n" + movetext(game["start"], game["moves"], game["result"]) + "\n\n"


pgn = "".join(game_pgn(game) for game in games)

# ---------------------------------------------------------------------------
# Counting, from the games as written (read back with python-chess).

counted = []  # in file order
skips = {name: 0 for name in ["variant", "bot", "no result", "no ratings", "no month",
                              "no time control", "unreadable"]}
stream = io.StringIO(pgn)
read_games = 0
while True:
    headers_game = chess.pgn.read_game(stream)
    if headers_game is None:
        break
    read_games += 1
    tags = list(games[read_games - 1]["tags"])
    # The tags in file order; a repeated name keeps its last value (as the
    # explorer's reader, which sets each in turn).
    ordered = {}
    for name, value in tags:
        ordered[name] = value
    for name, value in ordered.items():
        assert headers_game.headers.get(name) == value, (name, value)
    reason = skip_reason(ordered)
    if reason is not None:
        skips[reason] += 1
        continue
    if ordered.get("Variant") not in (None, "Standard", "From Position"):
        raise AssertionError("variant")
    board = headers_game.board()
    mainline = list(headers_game.mainline_moves())
    assert mainline == games[read_games - 1]["moves"], "the PGN reads back"
    date = None
    for name, value in tags:
        if name in ("Date", "UTCDate"):
            date = value
    white_elo, black_elo = int(ordered["WhiteElo"]), int(ordered["BlackElo"])
    result = ordered["Result"]
    positions = {}  # key -> (uci, mover's rating, ply)
    for ply, move in enumerate(mainline[:MAX_PLY]):
        key = key_of(board)
        mover = white_elo if board.turn == chess.WHITE else black_elo
        # A position met again: the move played from it last counts.
        positions[key] = (explorer_uci(board, move), mover, ply)
        board.push(move)
    counted.append({
        "file_index": read_games - 1,
        "id": ordered["Site"].rsplit("/", 1)[-1],
        "month": month_of(date),
        "speed": speed_of(ordered["TimeControl"]),
        "band": band_of(white_elo, black_elo),
        "winner": {"1-0": "white", "0-1": "black", "1/2-1/2": "draw"}[result],
        "positions": positions,
        "start": ordered.get("FEN"),
        "moves": [m.uci() for m in mainline],
        "names": (ordered.get("White", "").lower(), ordered.get("Black", "").lower()),
        "elos": (white_elo, black_elo),
        "rated": "Casual" not in ordered.get("Event", ""),
    })
assert read_games == len(games)

# The index: for each position, one entry per game.
index = {}
for game in counted:
    for key, (uci, mover, _) in game["positions"].items():
        index.setdefault(key, []).append((game, uci, mover))

# The games each row keeps: the latest ROW_GAMES of each (position, month,
# move, speed, band).
kept = set()
for key, entries in index.items():
    rows = {}
    for game, uci, _ in entries:
        rows.setdefault((game["month"], uci, game["speed"], game["band"]), []).append(game)
    for row in rows.values():
        row.sort(key=lambda g: g["file_index"])
        for game in row[-ROW_GAMES:]:
            kept.add((key, game["file_index"]))


def order_of(game):
    return (game["month"], game["file_index"])


def answer(key, speeds, ratings, since, until, history, top_games, recent_games):
    def passes(game):
        if speeds is not None and game["speed"] not in speeds:
            return False
        if ratings is not None and group_of_band(game["band"]) not in ratings:
            return False
        if since is not None and game["month"] < since:
            return False
        if until is not None and game["month"] > until:
            return False
        return True

    entries = [(g, uci, mover) for g, uci, mover in index.get(key, []) if passes(g)]
    moves = {}
    totals = {"white": 0, "draws": 0, "black": 0}
    months = {}
    for game, uci, mover in entries:
        stats = moves.setdefault(uci, {"white": 0, "draws": 0, "black": 0, "sum": 0, "games": []})
        field = {"white": "white", "draw": "draws", "black": "black"}[game["winner"]]
        stats[field] += 1
        stats["sum"] += mover
        stats["games"].append(game)
        totals[field] += 1
        month = months.setdefault(game["month"], {"white": 0, "draws": 0, "black": 0})
        month[field] += 1
    move_list = []
    for uci, stats in moves.items():
        count = len(stats["games"])
        move_list.append({
            "uci": uci,
            "white": stats["white"],
            "draws": stats["draws"],
            "black": stats["black"],
            # f64::round: half away from zero.
            "averageRating": (2 * stats["sum"] + count) // (2 * count),
            "game": stats["games"][0]["id"] if count == 1 else None,
        })
    move_list.sort(key=lambda m: (-(m["white"] + m["draws"] + m["black"]), m["uci"]))

    met = [(g, uci) for g, uci, _ in entries if (key, g["file_index"]) in kept]

    def has_band(band):
        return ratings is None or group_of_band(band) in ratings

    top_band = None
    for band in (9, 8, 7, 6):
        if not has_band(band):
            break
        top_band = band
    top = []
    if top_band is not None:
        top = [m for m in met if m[0]["band"] >= top_band]
        top.sort(key=lambda m: (HIGHSCORE[m[0]["speed"]] - band_bound(m[0]["band"]),
                                tuple(-x for x in (m[0]["month"][0], m[0]["month"][1], m[0]["file_index"]))))
        top = top[:MAX_TOP_GAMES]
    chosen = {m[0]["file_index"] for m in top}
    rest = [m for m in met if m[0]["file_index"] not in chosen]
    rest.sort(key=lambda m: order_of(m[0]), reverse=True)
    room = ROW_GAMES - len(top)
    recent = rest[:min(room, recent_games)]
    top = top[:top_games]

    hist = None
    if history:
        hist = []
        if months:
            first = since if since is not None else min(months)
            last = max(months)
            month = first
            while month <= last:
                stats = months.get(month, {"white": 0, "draws": 0, "black": 0})
                hist.append({"month": month_name(month), **stats})
                month = (month[0] + 1, 1) if month[1] == 12 else (month[0], month[1] + 1)
    return {
        "white": totals["white"],
        "draws": totals["draws"],
        "black": totals["black"],
        "moves": move_list,
        "topGames": [m[0]["id"] for m in top],
        "recentGames": [m[0]["id"] for m in recent],
        "history": hist,
    }


# ---------------------------------------------------------------------------
# The queries.

SPEED_FILTERS = [None, "blitz", "bullet,blitz", "rapid,classical,correspondence", "ultraBullet",
                 "blitz,rapid", "correspondence,bullet"]
RATING_FILTERS = [None, "2000,2200,2500", "2500", "2200,2500", "1600,1800,2000,2200,2500",
                  "0,1000,1200", "1800,2000,2200", "2000", "2000,2500", "1400,1600,2500",
                  "0,1000,1200,1400,1600,1800,2000,2200,2500"]
MONTH_FILTERS = [(None, None), ("2024-01", None), (None, "2023-12"), ("2023-10", "2024-02"),
                 ("2024-01", "2024-01"), ("2023-08", None), (None, "2024-06")]
LIMITS = [(4, 8), (4, 8), (4, 8), (2, 3), (4, 4), (0, 8), (4, 0)]


def parse_month(text):
    return None if text is None else (int(text[:4]), int(text[5:]))


queries = []  # (play, fen)
seen_keys = set()


def add_query(fen, play):
    board = chess.Board(fen) if fen else chess.Board()
    for uci in play:
        board.push_uci(uci)
    key = key_of(board)
    if key in seen_keys:
        return
    seen_keys.add(key)
    queries.append((fen, play, key))


add_query(None, [])
standard = [g for g in counted if g["start"] is None and g["moves"]]
attempts = 0
while len(queries) < 270 and attempts < 10000:
    attempts += 1
    game = rng.choice(standard)
    # Shallow plies more often: more games meet there.
    ply = min(rng.randint(1, 12), rng.randint(1, 12), len(game["moves"]))
    add_query(None, game["moves"][:ply])
# Positions a game comes back to, having left them by another move: the
# move played from them last counts.
repeats = 0
for game in standard:
    board = chess.Board()
    first = {}
    for ply, uci in enumerate(game["moves"][:MAX_PLY]):
        key = key_of(board)
        if key in first and first[key][1] != uci and repeats < 20:
            before = len(queries)
            add_query(None, game["moves"][:first[key][0]])
            repeats += len(queries) - before
        first.setdefault(key, (ply, uci))
        board.push_uci(uci)
# Around the 50th ply: the positions before it count, those after do not.
deep = 0
for game in standard:
    if len(game["moves"]) >= MAX_PLY + 2 and deep < 30:
        for ply in (MAX_PLY - 2, MAX_PLY - 1, MAX_PLY, MAX_PLY + 1):
            add_query(None, game["moves"][:ply])
        deep += 4
for fen in sorted(set(fen_starts)):
    add_query(fen, [])
from_fen = [g for g in counted if g["start"] is not None and g["moves"]]
for game in from_fen:
    ply = rng.randint(1, min(4, len(game["moves"])))
    add_query(game["start"], game["moves"][:ply])
# The pinned en passant: asked with the square in the FEN, which does not count.
add_query("4k3/8/8/KPp4r/8/8/7P/8 w - c6 0 2", [])
add_query("4k3/8/8/KPp5/8/8/7P/7r w - c6 0 2", [])
add_query("4k3/8/8/KPp5/8/8/7P/7r w - - 0 2", [])
# Positions no game reaches.
add_query(None, ["h2h4", "a7a5", "h4h5", "a5a4", "h1h4"])
add_query(None, ["g2g4", "e7e5", "f2f3"])

# The clusters' rows, asked for by the filters that take them alone.
CLUSTER_FILTERS = [("blitz", "2500", None, None), ("blitz", "2500", "2024-01", "2024-01"),
                   ("rapid", "2200", None, None), ("rapid", "2000,2200,2500", "2023-12", "2023-12"),
                   (None, "2500", None, None), ("blitz,rapid", "2200,2500", None, None)]
cluster_keys = set()
for play in ([], ["e2e4"], ["e2e4", "e7e5"]):
    board = chess.Board()
    for uci in play:
        board.push_uci(uci)
    cluster_keys.add(key_of(board))

lines = []
for fen, play, key in queries:
    count = rng.choice([3, 4, 5, 6])
    filters = [(None, None, None, None)]
    if key in cluster_keys:
        filters += CLUSTER_FILTERS
        count += len(CLUSTER_FILTERS)
    while len(filters) < count:
        speeds = rng.choice(SPEED_FILTERS) if rng.random() < 0.5 else None
        ratings = rng.choice(RATING_FILTERS) if rng.random() < 0.6 else None
        since, until = rng.choice(MONTH_FILTERS) if rng.random() < 0.4 else (None, None)
        filters.append((speeds, ratings, since, until))
    for speeds, ratings, since, until in filters:
        history = rng.random() < 0.35
        top_games, recent_games = rng.choice(LIMITS)
        expect = answer(
            key,
            None if speeds is None else set(speeds.split(",")),
            None if ratings is None else {int(r) for r in ratings.split(",")},
            parse_month(since),
            parse_month(until),
            history,
            top_games,
            recent_games,
        )
        lines.append(json.dumps({
            "play": play,
            "fen": fen,
            "speeds": speeds,
            "ratings": ratings,
            "since": since,
            "until": until,
            "history": history,
            "topGames": top_games,
            "recentGames": recent_games,
            "expect": expect,
        }, separators=(",", ":")))


# ---------------------------------------------------------------------------
# A player's explorer (GET /player): the games of one player as one colour,
# each counted at the position with the move played from it last, with the
# opponent's rating and the player's performance (FIDE's table of rating
# differences by percentage score, handbook B.02, as lila computes it).

FIDE_DP = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309,
    -296, -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158,
    -149, -141, -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29,
    -21, -14, -7, 0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133,
    141, 149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309,
    322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
]


def round_half_away(x):
    return int(x + 0.5) if x >= 0 else -int(-x + 0.5)


def performance(wins, draws, games, opponent_sum, color_white):
    percent = (100 * wins + 50 * draws) / games
    index = int(percent)
    fraction = percent - index
    following = FIDE_DP[index + 1] if index + 1 <= 100 else 800
    return round_half_away(opponent_sum / games + FIDE_DP[index] * (1 - fraction) + following * fraction)


def player_answer(name, color, key, speeds, modes, since, until, recent_games):
    side = 0 if color == "white" else 1
    moves = {}
    totals = {"white": 0, "draws": 0, "black": 0}
    met = []
    for game in counted:
        if game["names"][side] != name.lower():
            continue
        if speeds is not None and game["speed"] not in speeds:
            continue
        if modes is not None and game["rated"] not in modes:
            continue
        if since is not None and game["month"] < since:
            continue
        if until is not None and game["month"] > until:
            continue
        if key not in game["positions"]:
            continue
        uci = game["positions"][key][0]
        field = {"white": "white", "draw": "draws", "black": "black"}[game["winner"]]
        stats = moves.setdefault(uci, {"white": 0, "draws": 0, "black": 0, "sum": 0, "games": []})
        stats[field] += 1
        stats["sum"] += game["elos"][1 - side]
        stats["games"].append(game)
        totals[field] += 1
        met.append(game)
    move_list = []
    for uci, stats in moves.items():
        count = len(stats["games"])
        wins = stats["white"] if color == "white" else stats["black"]
        move_list.append({
            "uci": uci,
            "white": stats["white"],
            "draws": stats["draws"],
            "black": stats["black"],
            "averageOpponentRating": (2 * stats["sum"] + count) // (2 * count),
            "performance": performance(wins, stats["draws"], count, stats["sum"], color == "white"),
            "game": stats["games"][0]["id"] if count == 1 else None,
        })
    move_list.sort(key=lambda m: (-(m["white"] + m["draws"] + m["black"]), m["uci"]))
    met.sort(key=order_of, reverse=True)
    return {
        **totals,
        "moves": move_list,
        "recentGames": [game["id"] for game in met[:min(recent_games, ROW_GAMES)]],
    }


player_names = sorted({name for game in counted for name in game["names"]})
player_lines = []
for fen, play, key in queries[:120]:
    for _ in range(3):
        reaching = index.get(key, [])
        if reaching and rng.random() < 0.8:
            # Someone who reached the position, in the colour they played.
            game = rng.choice(reaching)[0]
            side = rng.choice([0, 1])
            name, color = game["names"][side], ["white", "black"][side]
        else:
            name, color = rng.choice(player_names), rng.choice(["white", "black"])
        if rng.random() < 0.5:
            name = name.upper() if rng.random() < 0.5 else name.capitalize()
        speeds = rng.choice(SPEED_FILTERS) if rng.random() < 0.4 else None
        modes = rng.choice([None, "rated", "casual", "rated,casual"])
        since, until = rng.choice(MONTH_FILTERS) if rng.random() < 0.4 else (None, None)
        recent_games = rng.choice([0, 3, 8])
        expect = player_answer(
            name,
            color,
            key,
            None if speeds is None else set(speeds.split(",")),
            None if modes is None else {mode == "rated" for mode in modes.split(",")},
            parse_month(since),
            parse_month(until),
            recent_games,
        )
        player_lines.append(json.dumps({
            "player": name, "color": color, "play": play, "fen": fen, "speeds": speeds,
            "modes": modes, "since": since, "until": until, "recentGames": recent_games,
            "expect": expect,
        }, separators=(",", ":")))

os.makedirs(DATA, exist_ok=True)
with open(os.path.join(DATA, "recount-player-reference.jsonl"), "w", newline="\n") as out:
    out.write("\n".join(player_lines) + "\n")
with open(os.path.join(DATA, "recount-games.pgn"), "w", newline="\n") as out:
    out.write(pgn)
with open(os.path.join(DATA, "recount-reference.jsonl"), "w", newline="\n") as out:
    out.write("\n".join(lines) + "\n")
summary = {"games_read": read_games, "games_indexed": len(counted), "skipped": skips}
with open(os.path.join(DATA, "recount-skips.json"), "w", newline="\n") as out:
    out.write(json.dumps(summary, indent=2) + "\n")
row_sizes = {}
for key, entries in index.items():
    for game, uci, _ in entries:
        row = (key, game["month"], uci, game["speed"], game["band"])
        row_sizes[row] = row_sizes.get(row, 0) + 1
print("rows of more than %d games: %d; queries at a repeated position: %d; at the 50th ply: %d"
      % (ROW_GAMES, sum(1 for n in row_sizes.values() if n > ROW_GAMES), repeats, deep))
print("games %d, indexed %d, skipped %s, queries %d, positions %d, pgn %d bytes"
      % (read_games, len(counted), skips, len(lines), len(queries), len(pgn)))
