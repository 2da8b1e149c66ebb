"""`bitboards explorer serve` with the client its users run: berserk.

The server is started on a free loopback port over an index built by
`bitboards explorer build` from crates/explorer/tests/data/recount-games.pgn,
and over tests/data/syzygy. Lichess's own Python client, berserk, pointed
at it (`explorer_url`, `tablebase_url`), must get:

- for /lichess and /player, what python-chess's recount of the same games
  says (crates/explorer/tests/python/recount.py writes it);
- for /masters and /master/pgn/{id}, from a masters index built with
  `--masters` from crates/explorer/tests/data/masters-games.pgn, what
  python-chess's recount says (recount_masters.py writes it);
- for /standard, what python-chess's Syzygy probe says of every move;
- answers with every field lichess-org/api's schemas require, typed as
  they say (checked here, and by TypeScript against `@lichess-org/types`
  when npm is there: tests/python/test_explorer_types.py);
- for a bad request, a 400 with a JSON error, and a server that goes on.

Run by .ci/run: `BITBOARDS_BIN=target/debug/bitboards pytest tests/python`.
"""

from __future__ import annotations

import io
import json
import os
import pathlib
import random
import re
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import berserk
import chess
import chess.pgn
import chess.polyglot
import chess.syzygy
import pytest

BIN = os.environ.get("BITBOARDS_BIN", "target/debug/bitboards")
ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "crates" / "explorer" / "tests" / "data"
SYZYGY = ROOT / "tests" / "data" / "syzygy"


def start_server(*args: str) -> tuple[subprocess.Popen, str]:
    """Starts `bitboards explorer serve ARGS --port 0`; returns it and its URL."""
    server = subprocess.Popen(
        [BIN, "explorer", "serve", *args, "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    line = server.stderr.readline()
    match = re.search(r"listening on (http://\S+)", line)
    if not match:
        server.kill()
        raise AssertionError(f"the server did not start: {line!r}")
    return server, match.group(1)


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory):
    index = tmp_path_factory.mktemp("explorer") / "index"
    subprocess.run(
        [BIN, "explorer", "build", str(DATA / "recount-games.pgn"), "--out", str(index)],
        check=True,
        capture_output=True,
    )
    masters = tmp_path_factory.mktemp("explorer") / "masters"
    subprocess.run(
        [BIN, "explorer", "build", str(DATA / "masters-games.pgn"), "--masters", "--out", str(masters)],
        check=True,
        capture_output=True,
    )
    server, address = start_server(str(index), "--masters", str(masters), "--syzygy", str(SYZYGY))
    yield address
    server.terminate()
    assert server.wait(timeout=10) == 0, "the server stops cleanly on SIGTERM"


@pytest.fixture(scope="module")
def client(url: str) -> berserk.Client:
    return berserk.Client(explorer_url=url, tablebase_url=url)


def references(name: str, step: int) -> list[dict]:
    lines = (DATA / name).read_text().splitlines()
    return [json.loads(line) for line in lines[::step]]


def by_games(moves: list[dict]) -> list[dict]:
    return sorted(moves, key=lambda move: (-(move["white"] + move["draws"] + move["black"]), move["uci"]))


# What lichess-org/api's schemas require of each answer (OpeningExplorerLichess,
# OpeningExplorerPlayer, their games and moves, TablebaseJson, TablebaseMove),
# with the types they give; None among the types: the field may be null.
OPENING = {"eco": (str,), "name": (str,)}
LICHESS_GAME = {"id": (str,), "winner": (str, None), "white": (dict,), "black": (dict,), "year": (int,), "month": (str, None)}
PLAYER_GAME = {**LICHESS_GAME, "speed": (str,), "mode": (str,), "month": (str,)}
MASTERS_GAME = {"id": (str,), "winner": (str, None), "white": (dict,), "black": (dict,), "year": (int,)}
LICHESS_MOVE = {
    "uci": (str,), "san": (str,), "averageRating": (int,), "white": (int,), "draws": (int,), "black": (int,),
    "game": (dict, None), "opening": (dict, None),
}
PLAYER_MOVE = {
    "uci": (str,), "san": (str,), "averageOpponentRating": (int,), "performance": (int,), "white": (int,),
    "draws": (int,), "black": (int,), "game": (dict, None), "opening": (dict, None),
}
TABLEBASE_CATEGORIES = {
    "win", "unknown", "syzygy-win", "maybe-win", "cursed-win", "draw", "blessed-loss", "maybe-loss",
    "syzygy-loss", "loss",
}
SPEEDS = {"ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"}


def require(value: dict, schema: dict, where: str) -> None:
    for field, types in schema.items():
        assert field in value, f"{where}: {field} missing"
        allowed = tuple(t for t in types if t is not None)
        if value[field] is None:
            assert None in types, f"{where}: {field} is null"
        else:
            assert isinstance(value[field], allowed) and not isinstance(value[field], bool), f"{where}: {field} {value[field]!r}"


def check_game(game: dict, schema: dict, where: str) -> None:
    require(game, {"uci": (str,), **schema}, where)
    for side in ("white", "black"):
        require(game[side], {"name": (str,), "rating": (int,)}, f"{where}.{side}")
    assert game["winner"] in ("white", "black", None)
    if "speed" in game:
        assert game["speed"] in SPEEDS
    if game["month"] is not None:
        assert re.fullmatch(r"\d{4}-\d\d", game["month"])


def check_lichess_schema(answer: dict) -> None:
    require(answer, {"opening": (dict, None), "white": (int,), "draws": (int,), "black": (int,),
                     "moves": (list,), "topGames": (list,)}, "answer")
    if answer["opening"] is not None:
        require(answer["opening"], OPENING, "opening")
    for move in answer["moves"]:
        require(move, LICHESS_MOVE, "move")
        if move["game"] is not None:
            require(move["game"], LICHESS_GAME, "move.game")
    for game in answer["topGames"] + answer.get("recentGames", []):
        check_game(game, LICHESS_GAME, "game")
    for month in answer.get("history", []):
        require(month, {"month": (str,), "white": (int,), "draws": (int,), "black": (int,)}, "history")


def check_masters_schema(answer: dict) -> None:
    require(answer, {"opening": (dict, None), "white": (int,), "draws": (int,), "black": (int,),
                     "moves": (list,), "topGames": (list,)}, "answer")
    assert "recentGames" not in answer and "history" not in answer
    for move in answer["moves"]:
        require(move, LICHESS_MOVE, "move")
        if move["game"] is not None:
            require(move["game"], MASTERS_GAME, "move.game")
            assert "speed" not in move["game"] and "mode" not in move["game"]
    for game in answer["topGames"]:
        check_game({"month": None, **game}, MASTERS_GAME, "game")


def masters_name(game: dict) -> str:
    """A game as recount_masters.py names it."""
    return "%s|%s|%d|%d|%d|%s" % (game["white"]["name"], game["black"]["name"], game["white"]["rating"],
                                  game["black"]["rating"], game["year"], game.get("month", ""))


@pytest.mark.parametrize("query", references("masters-reference.jsonl", 7), ids=lambda q: ",".join(q["play"]) or "start")
def test_masters_through_berserk(client: berserk.Client, query: dict) -> None:
    answer = client.opening_explorer.get_masters_games(
        position=query["fen"],
        play=query["play"],
        since=query["since"],
        until=query["until"],
        moves=query["moves"],
        top_games=query["topGames"],
    )
    check_masters_schema(answer)
    expect = query["expect"]
    assert (answer["white"], answer["draws"], answer["black"]) == (expect["white"], expect["draws"], expect["black"])
    moves = [
        {"uci": m["uci"], "white": m["white"], "draws": m["draws"], "black": m["black"],
         "averageRating": m["averageRating"], "game": masters_name(m["game"]) if m["game"] else None}
        for m in answer["moves"]
    ]
    assert moves == expect["moves"]
    assert [[game["uci"], masters_name(game)] for game in answer["topGames"]] == expect["topGames"]


@pytest.mark.parametrize("game", references("masters-pgn.jsonl", 5), ids=lambda g: g["id"])
def test_masters_pgn_through_berserk(client: berserk.Client, game: dict) -> None:
    pgn = client.opening_explorer.get_otb_master_game(game["id"])
    assert pgn == game["pgn"]
    # python-chess reads it back whole, every move legal.
    read = chess.pgn.read_game(io.StringIO(pgn))
    assert read is not None and not read.errors
    assert read.end().board().fullmove_number > 1


def test_an_unknown_masters_game_is_a_404(url: str) -> None:
    status, headers, body = get(url + "/masters/pgn/nosuchid")
    assert status == 404 and "error" in json.loads(body)
    assert headers.get("access-control-allow-origin") == "*"


def check_player_schema(answer: dict) -> None:
    require(answer, {"opening": (dict, None), "queuePosition": (int,), "white": (int,), "draws": (int,),
                     "black": (int,), "moves": (list,), "recentGames": (list,)}, "answer")
    for move in answer["moves"]:
        require(move, PLAYER_MOVE, "move")
        if move["game"] is not None:
            require(move["game"], PLAYER_GAME, "move.game")
    for game in answer["recentGames"]:
        check_game(game, PLAYER_GAME, "game")


@pytest.mark.parametrize("query", references("recount-reference.jsonl", 11), ids=lambda q: ",".join(q["play"]) or "start")
def test_lichess_through_berserk(client: berserk.Client, query: dict) -> None:
    answer = client.opening_explorer.get_lichess_games(
        position=query["fen"],
        play=query["play"],
        speeds=query["speeds"].split(",") if query["speeds"] else None,
        ratings=query["ratings"].split(",") if query["ratings"] else None,
        since=query["since"],
        until=query["until"],
        moves=100,
        top_games=query["topGames"],
        recent_games=query["recentGames"],
        history=query["history"],
    )
    check_lichess_schema(answer)
    expect = query["expect"]
    assert (answer["white"], answer["draws"], answer["black"]) == (expect["white"], expect["draws"], expect["black"])
    moves = [
        {"uci": m["uci"], "white": m["white"], "draws": m["draws"], "black": m["black"],
         "averageRating": m["averageRating"], "game": m["game"]["id"] if m["game"] else None}
        for m in by_games(answer["moves"])
    ]
    assert moves == expect["moves"]
    # The moves come most played first.
    totals = [m["white"] + m["draws"] + m["black"] for m in answer["moves"]]
    assert totals == sorted(totals, reverse=True)
    assert [game["id"] for game in answer["topGames"]] == expect["topGames"]
    assert [game["id"] for game in answer["recentGames"]] == expect["recentGames"]
    assert answer.get("history") == expect["history"]


@pytest.mark.parametrize("query", references("recount-player-reference.jsonl", 9), ids=lambda q: q["player"])
def test_player_through_berserk(client: berserk.Client, url: str, query: dict) -> None:
    if query["modes"] is None:
        answers = list(client.opening_explorer.stream_player_games(
            query["player"],
            query["color"],
            position=query["fen"],
            play=query["play"],
            speeds=query["speeds"].split(",") if query["speeds"] else None,
            since=query["since"],
            until=query["until"],
            moves=100,
            recent_games=query["recentGames"],
        ))
    else:
        # berserk has no `modes`: asked as Lichess's pages ask it.
        params = {"player": query["player"], "color": query["color"], "modes": query["modes"], "moves": 100,
                  "recentGames": query["recentGames"], "play": ",".join(query["play"])}
        for name in ("fen", "speeds", "since", "until"):
            if query[name] is not None:
                params[name] = query[name]
        status, headers, body = get(f"{url}/player?{urllib.parse.urlencode(params)}")
        assert status == 200 and headers["content-type"] == "application/x-ndjson"
        answers = [json.loads(line) for line in body.splitlines()]
    assert len(answers) == 1, "one line: the index is complete"
    answer = answers[0]
    check_player_schema(answer)
    assert answer["queuePosition"] == 0
    expect = query["expect"]
    assert (answer["white"], answer["draws"], answer["black"]) == (expect["white"], expect["draws"], expect["black"])
    moves = [
        {"uci": m["uci"], "white": m["white"], "draws": m["draws"], "black": m["black"],
         "averageOpponentRating": m["averageOpponentRating"], "performance": m["performance"],
         "game": m["game"]["id"] if m["game"] else None}
        for m in by_games(answer["moves"])
    ]
    assert moves == expect["moves"]
    assert [game["id"] for game in answer["recentGames"]] == expect["recentGames"]


def tablebase_positions(count: int, seed: int) -> list[str]:
    """Seeded legal positions of 3 and 4 pieces (the shared tables), no castling."""
    rng = random.Random(seed)
    pieces = ["Q", "R", "B", "N", "P", "q", "r", "b", "n", "p"]
    fens = []
    while len(fens) < count:
        board = chess.Board(None)
        squares = rng.sample(range(64), 4)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2:2 + rng.choice([1, 2])]:
            piece = chess.Piece.from_symbol(rng.choice(pieces))
            if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                continue
            board.set_piece_at(square, piece)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        board.halfmove_clock = rng.choice([0, 0, 0, 10, 60, 99])
        if board.is_valid():
            fens.append(board.fen())
    return fens


# lila-tablebase's order of a move's category, best for the mover first.
CATEGORY_ORDER = ["loss", "unknown", "syzygy-loss", "maybe-loss", "blessed-loss", "draw", "cursed-win",
                  "maybe-win", "syzygy-win", "win"]


def expected_category(board: chess.Board, tablebase: chess.syzygy.Tablebase) -> tuple[str, int | None]:
    """A position's category and DTZ, from python-chess's probe, as Lichess words them."""
    if board.is_checkmate():
        return "loss", -1
    if board.is_stalemate() or board.is_insufficient_material():
        return "draw", 0
    dtz = tablebase.probe_dtz(board)
    clock = board.halfmove_clock
    distance = dtz + clock if dtz > 0 else dtz - clock if dtz < 0 else 0

    def of(d: int) -> str:
        return "blessed-loss" if d < -100 else "loss" if d < 0 else "draw" if d == 0 else "win" if d <= 100 else "cursed-win"

    category = of(dtz) if clock == 0 else of(distance)
    if clock and category == "cursed-win" and of(dtz) == "win":
        category = "syzygy-win"
    if clock and category == "blessed-loss" and of(dtz) == "loss":
        category = "syzygy-loss"
    return category, dtz


def test_standard_through_berserk(client: berserk.Client) -> None:
    flip = dict(zip(CATEGORY_ORDER, ["win", "unknown", "syzygy-win", "maybe-win", "cursed-win", "draw",
                                     "blessed-loss", "maybe-loss", "syzygy-loss", "loss"]))
    with chess.syzygy.open_tablebase(str(SYZYGY)) as tablebase:
        for fen in tablebase_positions(150, 11):
            board = chess.Board(fen)
            answer = client.tablebase.standard(fen)
            assert set(answer) >= {"category", "moves", "dtz", "precise_dtz", "dtm", "checkmate", "stalemate",
                                   "insufficient_material"}, fen
            assert answer["category"] in TABLEBASE_CATEGORIES
            assert answer["dtm"] is None
            assert sorted(m["uci"] for m in answer["moves"]) == sorted(m.uci() for m in board.legal_moves), fen
            for move in answer["moves"]:
                child = board.copy()
                mv = chess.Move.from_uci(move["uci"])
                assert move["san"] == board.san(mv)
                assert move["zeroing"] == board.is_zeroing(mv)
                child.push(mv)
                category, dtz = expected_category(child, tablebase)
                assert (move["category"], move["dtz"]) == (category, dtz), (fen, move["uci"])
                assert move["checkmate"] == child.is_checkmate()
            # Best first: the categories in lila-tablebase's order.
            ranks = [CATEGORY_ORDER.index(move["category"]) for move in answer["moves"]]
            assert ranks == sorted(ranks), fen
            if answer["moves"]:
                assert answer["category"] == flip[answer["moves"][0]["category"]]
            else:
                assert answer["category"] == ("loss" if board.is_checkmate() else "draw")


def test_standard_as_lila_tablebase_answers(url: str) -> None:
    """Every field of 300 answers of lila-tablebase (Lichess's own server,
    run by hand over the same tables: compare_lila_tablebase.py --write),
    moves that its unstable sort cannot order compared as sets."""
    from compare_lila_tablebase import compare

    lines = (ROOT / "tests" / "data" / "lila-tablebase-answers.jsonl").read_text().splitlines()
    assert len(lines) >= 300
    differing = []
    for line in lines:
        expected = json.loads(line)
        status, _, body = get(url + "/standard?fen=" + urllib.parse.quote(expected["fen"]))
        ours = json.loads(body) if status == 200 else {"status": status, "category": None}
        differences = compare(expected["fen"], ours, expected["answer"])
        if differences:
            differing.append((expected["fen"], differences[:3]))
    assert not differing, f"{len(differing)} positions differ from lila-tablebase; first {differing[:3]}"


def test_a_position_beyond_the_tables_is_unknown(client: berserk.Client) -> None:
    answer = client.tablebase.standard("4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 1")
    assert answer["category"] == "unknown"
    assert answer["dtz"] is None
    assert all(move["category"] == "unknown" for move in answer["moves"])


def get(url: str) -> tuple[int, dict, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/lichess?fen=not-a-fen", "invalid fen"),
        ("/lichess?play=e2e5", "illegal move"),
        ("/lichess?play=e2e4,zz", "illegal move"),
        ("/lichess?speeds=blitz,turbo", "invalid speed"),
        ("/lichess?ratings=1650", "invalid rating group"),
        ("/lichess?since=2024-13", "invalid month"),
        ("/lichess?until=yesterday", "invalid month"),
        ("/lichess?variant=atomic", "unsupported variant"),
        ("/lichess?history=maybe", "invalid history"),
        ("/lichess?moves=-1", "invalid moves"),
        ("/player?color=white", "missing player"),
        ("/player?player=alice&color=green", "invalid color"),
        ("/player?player=alice&color=white&modes=turbo", "invalid mode"),
        ("/masters?since=19x9", "invalid year"),
        ("/masters?until=2019-01", "invalid year"),
        ("/masters?play=e2e5", "illegal move"),
        ("/standard", "missing fen"),
        ("/standard?fen=8/8/8/8/8/8/8/8_w_-_-_0_1", "invalid fen"),
    ],
)
def test_bad_requests_are_400s_and_the_server_goes_on(url: str, path: str, message: str) -> None:
    status, headers, body = get(url + path)
    assert status == 400, body
    assert headers.get("access-control-allow-origin") == "*"
    assert message in json.loads(body)["error"]
    status, _, _ = get(url + "/lichess?play=e2e4")
    assert status == 200


def test_booleans_as_clients_send_them(url: str) -> None:
    answers = [json.loads(get(f"{url}/lichess?play=d2d4&history={value}")[2]) for value in ("true", "True", "1", "on")]
    assert all("history" in answer for answer in answers)
    assert all(answer == answers[0] for answer in answers)
    assert "history" not in json.loads(get(f"{url}/lichess?play=d2d4&history=false")[2])
    # Lists as Lichess's own pages send them: repeated `speeds[]`.
    repeated = json.loads(get(f"{url}/lichess?speeds[]=blitz&speeds[]=rapid&ratings[]=2000&ratings[]=2200")[2])
    joined = json.loads(get(f"{url}/lichess?speeds=blitz,rapid&ratings=2000,2200")[2])
    assert repeated == joined


def test_many_clients_at_once(url: str) -> None:
    paths = [f"/lichess?play={play}" for play in ("", "e2e4", "d2d4", "e2e4,c7c5", "g1f3")] * 40
    expected = {path: get(url + path)[2] for path in set(paths)}
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda path: (path, get(url + path)), paths))
    for path, (status, headers, body) in answers:
        assert status == 200
        assert headers.get("access-control-allow-origin") == "*"
        assert body == expected[path]


def test_cors_and_not_found(url: str) -> None:
    status, headers, body = get(url + "/nowhere")
    assert status == 404
    assert headers.get("access-control-allow-origin") == "*"
    assert "error" in json.loads(body)


# TypeScript's check of the answers against lichess-org/api's own types, as
# published on npm (`@lichess-org/types`, AGPL: installed at test time into
# target/, never committed). Fields the types do not declare (`mode` on a
# game, as Lichess sends it) are let through; every declared one must be
# there, with its type.
TYPES_CHECK = """
import type { components } from "@lichess-org/types";
type Schemas = components["schemas"];
type Loose<T> = T extends (infer U)[]
  ? Loose<U>[]
  : T extends object
    ? { [K in keyof T]: Loose<T[K]> } & { [extra: string]: unknown }
    : T;
"""


def test_answers_type_check_against_lichess_types(url: str) -> None:
    cache = ROOT / "target" / "npm-lichess-types"
    if not (cache / "node_modules" / "@lichess-org" / "types").is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(cache),
             "@lichess-org/types", "typescript@5"],
            check=True,
            capture_output=True,
        )
    answers = {
        "OpeningExplorerLichess": [
            get(url + path)[2]
            for path in ("/lichess", "/lichess?play=e2e4&history=true", "/lichess?play=e2e4,e7e5,g1f3&ratings=2000,2200,2500",
                         "/lichess?play=h2h4,a7a5,h4h5,a5a4,h1h4")
        ],
        "OpeningExplorerPlayer": [
            get(url + path)[2].strip()
            for path in ("/player?player=alice&color=white", "/player?player=Bob&color=black&play=e2e4")
        ],
        "OpeningExplorerMasters": [
            get(url + path)[2]
            for path in ("/masters", "/masters?play=e2e4,e7e5&since=2000", "/masters?play=h2h4,a7a5,h4h5")
        ],
        "TablebaseJson": [
            get(url + "/standard?fen=" + urllib.parse.quote(fen))[2]
            for fen in ("4k3/6KP/8/8/8/8/7p/8 w - - 0 1", "8/8/8/8/4k3/8/8/R3K3 w - - 0 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
        ],
    }
    source = TYPES_CHECK + "".join(
        f"const {schema}_{number}: Loose<Schemas[\"{schema}\"]> = {body};\n"
        for schema, bodies in answers.items()
        for number, body in enumerate(bodies)
    )
    (cache / "check.ts").write_text(source)
    tsc = cache / "node_modules" / ".bin" / "tsc"
    result = subprocess.run(
        [str(tsc), "--noEmit", "--strict", "--module", "esnext",
         "--moduleResolution", "bundler", "check.ts"],
        cwd=cache,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # The check bites: an answer without a required field fails it.
    broken = json.loads(answers["OpeningExplorerLichess"][0])
    del broken["topGames"]
    (cache / "broken.ts").write_text(
        TYPES_CHECK + f"const broken: Loose<Schemas[\"OpeningExplorerLichess\"]> = {json.dumps(broken)};\n"
    )
    result = subprocess.run(
        [str(tsc), "--noEmit", "--strict", "--module", "esnext", "--moduleResolution", "bundler", "broken.ts"],
        cwd=cache,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0 and "topGames" in result.stdout


def counted_by_the_explorer(game: chess.pgn.Game) -> bool:
    """Whether the explorer indexes `game` (its rules, from the tags)."""
    headers = game.headers
    if headers.get("Variant", "Standard") not in ("Standard", "From Position"):
        return False
    if "BOT" in (headers.get("WhiteTitle"), headers.get("BlackTitle")):
        return False
    if headers.get("Result") not in ("1-0", "0-1", "1/2-1/2"):
        return False
    if not all(headers.get(tag, "").isdigit() for tag in ("WhiteElo", "BlackElo")):
        return False
    dates = [value for name, value in headers.items() if name in ("Date", "UTCDate")]
    month = dates[-1].split(".")[1] if dates and len(dates[-1].split(".")) > 1 else "??"
    if not month.isdigit() or not 1 <= int(month) <= 12:
        return False
    control = headers.get("TimeControl", "")
    return control == "-" or bool(re.fullmatch(r"\d+\+\d+", control))


def test_a_book_from_the_index_is_the_book_of_its_games(tmp_path: pathlib.Path) -> None:
    index = tmp_path / "index"
    subprocess.run([BIN, "explorer", "build", str(DATA / "recount-games.pgn"), "--out", str(index)],
                   check=True, capture_output=True)
    subprocess.run([BIN, "explorer", "book", str(index), "--out", str(tmp_path / "index.bin")],
                   check=True, capture_output=True)
    # The games the index holds, by python-chess, into `bitboards book build`.
    kept = []
    with open(DATA / "recount-games.pgn") as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            if counted_by_the_explorer(game):
                kept.append(str(game))
    (tmp_path / "kept.pgn").write_text("\n\n".join(kept) + "\n")
    subprocess.run([BIN, "book", "build", str(tmp_path / "kept.pgn"), "-o", str(tmp_path / "games.bin"),
                    "--max-ply", "50"], check=True, capture_output=True)
    assert (tmp_path / "index.bin").read_bytes() == (tmp_path / "games.bin").read_bytes()
    # python-chess reads it: 1. e4 and 1. d4 from the start, weighted.
    with chess.polyglot.open_reader(tmp_path / "index.bin") as reader:
        entries = list(reader.find_all(chess.Board()))
    assert {entry.move.uci() for entry in entries} >= {"e2e4", "d2d4"}
    assert all(entry.weight > 0 for entry in entries)
