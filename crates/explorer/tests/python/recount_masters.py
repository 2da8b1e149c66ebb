"""An independent recount of a masters index's answers (`GET /masters`,
`GET /masters/pgn/{id}`), with python-chess as the oracle.

Writes, deterministically (random.Random(11)):

- tests/data/masters-games.pgn: over-the-board games in the usual PGN of
  masters collections (Event, Site as a place, Date with parts possibly
  `??`, Round; some with a `LichessId`), with games a masters index must
  leave out (below a 2200 midpoint, no ratings, no result, no year, a
  variant, the same game twice);
- tests/data/masters-reference.jsonl: one query a line (a position, years,
  limits) and what the index must answer, counted here by
  lila-openingexplorer's masters rules: every ply, a position counted once
  a game (the move played from it last), positions compared with en
  passant only when legal, games by year, top games by the players' rating
  sum (then the later month, then the later game);
- tests/data/masters-pgn.jsonl: the PGN of each game with a `LichessId`,
  as the masters explorer writes it;
- tests/data/masters-skips.json: the games read, indexed and left out.

A game is named in the answers by its players, ratings, year and month
(the index makes the id of a game with no `LichessId`).

Run from anywhere: python crates/explorer/tests/python/recount_masters.py
"""

import hashlib
import io
import json
import logging
import os
import random
import string

import chess
import chess.pgn

from rules import explorer_uci, key_of

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "data")
MAX_TOP_GAMES = 15

rng = random.Random(11)


# ---------------------------------------------------------------------------
# The games.

SURNAMES = ["Aronov", "Belyaev", "Castillo", "Dvorak", "Eriksen", "Fontaine", "Galvez",
            "Horvath", "Ilic", "Jansen", "Kovacs", "Lindqvist", "Moreau", "Novak", "Okafor",
            "Petrov", "Quist", "Rossi", "Sato", "Tanaka", "Urbina", "Varga", "Weber", "Yilmaz"]
PLAYERS = ["%s, %s." % (name, rng.choice(string.ascii_uppercase)) for name in SURNAMES]
EVENTS = [("Hoogovens", "Wijk aan Zee NED"), ("Olympiad", "Baku AZE"), ("Open", "Reykjavik ISL"),
          ("Candidates", "Toronto CAN"), ("Memorial", "Zagreb CRO"), ("Cup", "Sochi RUS"),
          ("Championship \"A\"", "Linares ESP")]
TREE = ["e2e4", "d2d4", "g1f3", "c2c4", "e7e5", "c7c5", "e7e6", "g8f6", "d7d5", "c7c6",
        "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "c2c3", "d2d4", "c5d4", "f3d4", "e1g1",
        "e8g8", "f1e2", "f8e7", "b1c3"]
TREE_WEIGHTS = [8, 4, 2, 1]

used_ids = set()


def new_lichess_id():
    while True:
        game_id = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(8))
        if game_id not in used_ids:
            used_ids.add(game_id)
            return game_id


def random_moves(board, plies, tree_plies):
    moves = []
    while len(moves) < plies and not board.is_game_over():
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        liked = [m for name in TREE for m in legal if m.uci() == name][:len(TREE_WEIGHTS)]
        if len(moves) < tree_plies and liked and rng.random() < 0.9:
            move = rng.choices(liked, weights=TREE_WEIGHTS[:len(liked)])[0]
        else:
            eps = [m for m in legal if board.is_en_passant(m)]
            move = rng.choice(eps) if eps and rng.random() < 0.5 else rng.choice(legal)
        board.push(move)
        moves.append(move)
    return moves


def masters_date():
    year = rng.randint(1985, 2024)
    roll = rng.random()
    if roll < 0.15:
        return "%04d.??.??" % year
    if roll < 0.2:
        return "%04d.%02d.??" % (year, rng.randint(1, 12))
    return "%04d.%02d.%02d" % (year, rng.randint(1, 12), rng.randint(1, 28))


def ratings(mid):
    spread = rng.randint(0, 120)
    white, black = mid + spread, mid - spread + rng.randint(0, 1)
    return (white, black) if rng.random() < 0.5 else (black, white)


games = []


def add_game(moves, start=None, date=None, elos=None, result=None, extra=(), lichess_id=None,
             prefix=()):
    white, black = rng.sample(PLAYERS, 2)
    event, site = rng.choice(EVENTS)
    tags = [("Event", event), ("Site", site), ("Date", date or masters_date()),
            ("Round", str(rng.randint(1, 13))), ("White", white), ("Black", black),
            ("Result", result or rng.choices(["1-0", "0-1", "1/2-1/2"], [4, 3, 4])[0])]
    white_elo, black_elo = elos or ratings(rng.choice([2250, 2400, 2550, 2650, 2750, 2850]))
    tags += [("WhiteElo", str(white_elo)), ("BlackElo", str(black_elo))]
    if lichess_id is None and rng.random() < 0.3:
        lichess_id = new_lichess_id()
    if lichess_id is not None:
        tags.append(("LichessId", lichess_id))
    if start is not None:
        tags += [("SetUp", "1"), ("FEN", start)]
    tags += list(extra)
    if moves is None:
        board = chess.Board(start) if start else chess.Board()
        moves = [chess.Move.from_uci(uci) for uci in prefix]
        for move in moves:
            board.push(move)
        moves += random_moves(board, rng.randint(10, 110), rng.randint(4, 12))
    game = {"tags": tags, "start": start, "moves": moves}
    games.append(game)
    return game


for _ in range(380):
    roll = rng.random()
    if roll < 0.05:
        add_game(None, elos=ratings(rng.choice([1900, 2100, 2150])))  # below 2200
    elif roll < 0.07:
        add_game(None, elos=(2199, 2200))  # a midpoint of 2199
    elif roll < 0.09:
        game = add_game(None)
        game["tags"] = [(n, "?" if n == "BlackElo" else v) for n, v in game["tags"]]
    elif roll < 0.11:
        add_game(None, result="*")
    elif roll < 0.13:
        add_game(None, date=rng.choice(["????.??.??", "?"]))
    elif roll < 0.14:
        add_game(None, extra=[("Variant", "Chess960")])
    else:
        add_game(None)

# A row of more than 15 games (one month, one move, one band), some of one
# rating sum: the top games are the highest sums, then the later games.
for number in range(24):
    mid = 2600 + 10 * rng.randint(0, 12)
    add_game(None, date="2019.03.%02d" % rng.randint(1, 28), elos=(mid + 40, mid - 40),
             prefix=["e2e4", "e7e5"])
# Games that come back to a position (the move played from it last counts)
# and long games (every ply counts).
for number in range(20):
    board = chess.Board()
    moves = random_moves(board, 6, 6)
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        move = chess.Move.from_uci(uci)
        if not board.is_legal(move):
            break
        board.push(move)
        moves.append(move)
    moves += random_moves(board, rng.randint(60, 140), 0)
    add_game(moves)
# Games from a position.
for start in ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
              "4k3/2p5/8/KP5r/8/8/7P/8 b - - 0 1", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 40"] * 2:
    add_game(None, start=start)
# The same games again: with no LichessId (the index makes the same id) or
# with one (the same id): left out as duplicates.
for number in range(12):
    source = rng.choice(games[:380])
    games.append({"tags": list(source["tags"]), "start": source["start"],
                  "moves": list(source["moves"])})
with_ids = [g for g in games[:380] if any(n == "LichessId" for n, _ in g["tags"])]
for number in range(4):
    source = rng.choice(with_ids)
    copy = add_game(None, lichess_id=dict(source["tags"])["LichessId"])

rng.shuffle(games)


def game_pgn(game):
    board = chess.Board(game["start"]) if game["start"] else chess.Board()
    tags = dict(game["tags"])
    text = board.variation_san(game["moves"]) if game["moves"] else ""
    lines = ['[%s "%s"]' % (name, value.replace("\\", "\\\\").replace('"', '\\"'))
             for name, value in game["tags"]]
    return "\n".join(lines) + "\n\n" + (text + " " if text else "") + tags["Result"] + "\n\n"


pgn = "".join(game_pgn(game) for game in games)

# ---------------------------------------------------------------------------
# Counting, from the games as written.


def year_month(date):
    parts = date.split(".")
    if not parts[0].isdigit():
        return None, None
    month = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    if month is not None and not 1 <= month <= 12:
        month = None
    return int(parts[0]), month


SKIPS = ["variant", "no result", "no ratings", "below 2200", "no year", "unreadable", "duplicate"]
skips = {name: 0 for name in SKIPS}
counted = []
seen_ids = set()
stream = io.StringIO(pgn)
read_games = 0
while True:
    parsed = chess.pgn.read_game(stream)
    if parsed is None:
        break
    read_games += 1
    tags = dict(games[read_games - 1]["tags"])
    if tags.get("Variant", "Standard") not in ("Standard", "From Position"):
        skips["variant"] += 1
        continue
    if tags["Result"] not in ("1-0", "0-1", "1/2-1/2"):
        skips["no result"] += 1
        continue
    if not (tags["WhiteElo"].isdigit() and tags["BlackElo"].isdigit()):
        skips["no ratings"] += 1
        continue
    white_elo, black_elo = int(tags["WhiteElo"]), int(tags["BlackElo"])
    if (white_elo + black_elo) // 2 < 2200:
        skips["below 2200"] += 1
        continue
    year, month = year_month(tags["Date"])
    if year is None:
        skips["no year"] += 1
        continue
    mainline = list(parsed.mainline_moves())
    assert mainline == games[read_games - 1]["moves"], "the PGN reads back"
    # What identifies a game: its LichessId, or what the index hashes into
    # the id it makes (players, ratings, month, result, moves, start).
    identity = tags.get("LichessId") or hashlib.sha256(repr((
        tags["White"], tags["Black"], white_elo, black_elo, year, month or 1, tags["Result"],
        [m.uci() for m in mainline], tags.get("FEN"))).encode()).hexdigest()
    if identity in seen_ids:
        skips["duplicate"] += 1
        continue
    seen_ids.add(identity)
    board = parsed.board()
    positions = {}
    for move in mainline:
        mover = white_elo if board.turn == chess.WHITE else black_elo
        positions[key_of(board)] = (explorer_uci(board, move), mover)
        board.push(move)
    counted.append({
        "order": ((year, month or 1), read_games - 1),
        "year": year,
        "name": "%s|%s|%d|%d|%d|%s" % (tags["White"], tags["Black"], white_elo, black_elo, year,
                                       "" if month is None else "%04d-%02d" % (year, month)),
        "sum": white_elo + black_elo,
        "winner": {"1-0": "white", "0-1": "black", "1/2-1/2": "draw"}[tags["Result"]],
        "positions": positions,
        "tags": tags,
        "start": tags.get("FEN"),
        "moves": mainline,
    })
assert read_games == len(games)

index = {}
for game in counted:
    for key, (uci, mover) in game["positions"].items():
        index.setdefault(key, []).append((game, uci, mover))


def answer(key, since, until, moves_limit, top_limit):
    moves = {}
    totals = {"white": 0, "draws": 0, "black": 0}
    met = []
    for game, uci, mover in index.get(key, []):
        if since is not None and game["year"] < since:
            continue
        if until is not None and game["year"] > until:
            continue
        field = {"white": "white", "draw": "draws", "black": "black"}[game["winner"]]
        stats = moves.setdefault(uci, {"white": 0, "draws": 0, "black": 0, "sum": 0, "games": []})
        stats[field] += 1
        stats["sum"] += mover
        stats["games"].append(game)
        totals[field] += 1
        met.append((game, uci))
    move_list = []
    for uci, stats in moves.items():
        count = len(stats["games"])
        move_list.append({
            "uci": uci, "white": stats["white"], "draws": stats["draws"], "black": stats["black"],
            "averageRating": (2 * stats["sum"] + count) // (2 * count),
            "game": stats["games"][0]["name"] if count == 1 else None,
        })
    move_list.sort(key=lambda m: (-(m["white"] + m["draws"] + m["black"]), m["uci"]))
    met.sort(key=lambda m: (m[0]["sum"], m[0]["order"]), reverse=True)
    top = met[:min(top_limit, MAX_TOP_GAMES)]
    return {**totals, "moves": move_list[:moves_limit],
            "topGames": [[uci, game["name"]] for game, uci in top]}


queries = []
seen_keys = set()


def add_query(fen, play):
    board = chess.Board(fen) if fen else chess.Board()
    for uci in play:
        board.push_uci(uci)
    key = key_of(board)
    if key not in seen_keys:
        seen_keys.add(key)
        queries.append((fen, play, key))


add_query(None, [])
add_query(None, ["e2e4", "e7e5"])
standard = [g for g in counted if g["start"] is None and g["moves"]]
attempts = 0
while len(queries) < 150 and attempts < 5000:
    attempts += 1
    game = rng.choice(standard)
    ply = min(rng.randint(1, 14), rng.randint(1, 14), len(game["moves"]))
    add_query(None, [m.uci() for m in game["moves"][:ply]])
# Deep plies: past the 50th, every ply counts.
for game in [g for g in standard if len(g["moves"]) > 60][:15]:
    add_query(None, [m.uci() for m in game["moves"][:rng.randint(51, len(game["moves"]) - 1)]])
for game in [g for g in counted if g["start"] is not None][:4]:
    add_query(game["start"], [m.uci() for m in game["moves"][:rng.randint(0, 3)]])
add_query(None, ["h2h4", "a7a5", "h4h5"])

YEARS = [(None, None), (2000, None), (None, 1999), (2010, 2019), (2019, 2019), (1952, 2030),
         (2025, None)]
lines = []
for fen, play, key in queries:
    for since, until in [(None, None)] + rng.sample(YEARS[1:], 2):
        moves_limit = rng.choice([12, 12, 3])
        top_limit = rng.choice([15, 15, 4, 0, 20])
        lines.append(json.dumps({
            "fen": fen, "play": play, "since": since, "until": until, "moves": moves_limit,
            "topGames": top_limit, "expect": answer(key, since, until, moves_limit, top_limit),
        }, separators=(",", ":")))


def lila_pgn(game):
    tags = game["tags"]
    out = []
    names = ["Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteElo", "BlackElo"]
    values = [tags[name] for name in names]
    if game["start"]:
        names += ["FEN", "SetUp"]
        values += [game["start"], "1"]
    for name, value in zip(names, values):
        out.append('[%s "%s"]\n' % (name, value.replace("\\", "\\\\").replace('"', '\\"')))
    out.append("\n")
    board = chess.Board(game["start"]) if game["start"] else chess.Board()
    words = []
    for move in game["moves"]:
        if board.turn == chess.WHITE:
            words.append("%d." % board.fullmove_number)
        elif not words:
            words.append("%d..." % board.fullmove_number)
        words.append(board.san(move))
        board.push(move)
    words.append(tags["Result"])
    out.append(" ".join(words) + "\n")
    return "".join(out)


pgn_lines = [json.dumps({"id": game["tags"]["LichessId"], "pgn": lila_pgn(game)})
             for game in counted if "LichessId" in game["tags"]]

os.makedirs(DATA, exist_ok=True)
with open(os.path.join(DATA, "masters-games.pgn"), "w", newline="\n") as out:
    out.write(pgn)
with open(os.path.join(DATA, "masters-reference.jsonl"), "w", newline="\n") as out:
    out.write("\n".join(lines) + "\n")
with open(os.path.join(DATA, "masters-pgn.jsonl"), "w", newline="\n") as out:
    out.write("\n".join(pgn_lines) + "\n")
with open(os.path.join(DATA, "masters-skips.json"), "w", newline="\n") as out:
    out.write(json.dumps({"games_read": read_games, "games_indexed": len(counted),
                          "skipped": skips}, indent=2) + "\n")
big_rows = {}
for key, entries in index.items():
    for game, uci, _ in entries:
        row = (key, game["order"][0], uci, min((game["sum"] // 2 - 2200) // 300, 2))
        big_rows[row] = big_rows.get(row, 0) + 1
print("games %d, indexed %d, skipped %s, queries %d, pgn %d, rows of more than 15 games %d"
      % (read_games, len(counted), skips, len(lines), len(pgn_lines),
         sum(1 for n in big_rows.values() if n > MAX_TOP_GAMES)))
