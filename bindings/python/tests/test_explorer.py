"""bitboards.explorer against the python-chess recount of the same games.

crates/explorer/tests/python/recount.py counts the games of
crates/explorer/tests/data/recount-games.pgn with python-chess by
lila-openingexplorer's rules and writes what each query must answer; here
the Python API (lists of speeds and ratings, boards as positions, the
player's colour by name or constant) must answer as the recount does.
"""

from __future__ import annotations

import json
import pathlib
import shutil

import chess
import pyarrow
import pytest

import bitboards
import bitboards.explorer

DATA = pathlib.Path(__file__).resolve().parents[3] / "crates" / "explorer" / "tests" / "data"


def references(name: str, step: int) -> list[dict]:
    lines = (DATA / name).read_text().splitlines()
    return [json.loads(line) for line in lines[::step]]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("explorer") / "index"
    report = bitboards.explorer.build(DATA / "recount-games.pgn", out, threads=2)
    skips = json.loads((DATA / "recount-skips.json").read_text())
    assert report["games_read"] == skips["games_read"]
    assert report["games_indexed"] == skips["games_indexed"]
    assert report["skipped"] == skips["skipped"]
    return out


@pytest.fixture(scope="module")
def explorer(index: pathlib.Path) -> bitboards.explorer.Explorer:
    return bitboards.explorer.open(index)


def by_games(moves: list[dict]) -> list[dict]:
    return sorted(moves, key=lambda move: (-(move["white"] + move["draws"] + move["black"]), move["uci"]))


def split(text: str | None, kind: type = str) -> list | None:
    return None if text is None else [kind(item) for item in text.split(",")]


@pytest.mark.parametrize("query", references("recount-reference.jsonl", 7), ids=lambda q: ",".join(q["play"]) or "start")
def test_lichess_as_the_recount(explorer: bitboards.explorer.Explorer, query: dict) -> None:
    board = chess.Board(query["fen"]) if query["fen"] else None
    answer = explorer.lichess(
        board,
        play=query["play"],
        speeds=split(query["speeds"]),
        ratings=split(query["ratings"], int),
        since=query["since"],
        until=query["until"],
        moves=100,
        top_games=query["topGames"],
        recent_games=query["recentGames"],
        history=query["history"],
    )
    expect = query["expect"]
    assert (answer["white"], answer["draws"], answer["black"]) == (expect["white"], expect["draws"], expect["black"])
    got = [
        {
            "uci": move["uci"],
            "white": move["white"],
            "draws": move["draws"],
            "black": move["black"],
            "averageRating": move["averageRating"],
            "game": move["game"]["id"] if move["game"] else None,
        }
        for move in by_games(answer["moves"])
    ]
    assert got == expect["moves"]
    assert [game["id"] for game in answer["topGames"]] == expect["topGames"]
    assert [game["id"] for game in answer["recentGames"]] == expect["recentGames"]
    assert answer.get("history") == expect["history"]


@pytest.mark.parametrize("query", references("recount-player-reference.jsonl", 5), ids=lambda q: q["player"])
def test_player_as_the_recount(explorer: bitboards.explorer.Explorer, query: dict) -> None:
    color = chess.WHITE if query["color"] == "white" else chess.BLACK
    answer = explorer.player(
        query["player"],
        color,
        chess.Board(query["fen"]) if query["fen"] else None,
        play=query["play"],
        speeds=split(query["speeds"]),
        modes=split(query["modes"]),
        since=query["since"],
        until=query["until"],
        moves=100,
        recent_games=query["recentGames"],
    )
    expect = query["expect"]
    assert answer["queuePosition"] == 0
    assert (answer["white"], answer["draws"], answer["black"]) == (expect["white"], expect["draws"], expect["black"])
    got = [
        {
            "uci": move["uci"],
            "white": move["white"],
            "draws": move["draws"],
            "black": move["black"],
            "averageOpponentRating": move["averageOpponentRating"],
            "performance": move["performance"],
            "game": move["game"]["id"] if move["game"] else None,
        }
        for move in by_games(answer["moves"])
    ]
    assert got == expect["moves"]
    assert [game["id"] for game in answer["recentGames"]] == expect["recentGames"]


def test_a_board_is_its_root_and_moves(explorer: bitboards.explorer.Explorer) -> None:
    by_play = explorer.lichess(play=["e2e4", "e7e5", "g1f3"])
    for board in (bitboards.Board(), chess.Board()):
        for uci in ["e2e4", "e7e5"]:
            board.push_uci(uci)
        assert explorer.lichess(board, play=["g1f3"]) == by_play
        board.push_uci("g1f3")
        assert explorer.lichess(board) == by_play
    # A board set up from a FEN without moves asks that position, with the
    # opening of the position itself.
    board = bitboards.Board()
    for uci in ["e2e4", "e7e5", "g1f3"]:
        board.push_uci(uci)
    alone = explorer.lichess(bitboards.Board(board.fen()))
    assert alone["moves"] == by_play["moves"]


def test_moves_as_a_table(explorer: bitboards.explorer.Explorer) -> None:
    answer = explorer.lichess(play=["e2e4"], moves=100)
    table = explorer.moves(play=["e2e4"], moves=100)
    assert isinstance(table, pyarrow.Table)
    assert table.column_names == [
        "uci", "san", "games", "white", "draws", "black", "average_rating", "opening_eco", "opening_name",
    ]
    assert table.column("uci").to_pylist() == [move["uci"] for move in answer["moves"]]
    assert sum(table.column("games").to_pylist()) == answer["white"] + answer["draws"] + answer["black"]
    assert table.column("average_rating").to_pylist() == [move["averageRating"] for move in answer["moves"]]


def test_opening_names(explorer: bitboards.explorer.Explorer) -> None:
    answer = explorer.lichess(play=["e2e4", "c7c5"])
    assert answer["opening"] == {"eco": "B20", "name": "Sicilian Defense"}
    # The last named position on the way names a position past the book.
    deeper = explorer.lichess(play=["e2e4", "c7c5", "a2a3", "h7h6"])
    assert deeper["opening"]["eco"].startswith("B2")


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"play": ["e2e5"]}, "illegal move"),
        ({"speeds": ["blitzz"]}, "invalid speed"),
        ({"ratings": [1650]}, "invalid rating group"),
        ({"since": "2024-13"}, "invalid month"),
        ({"until": "24-01"}, "invalid month"),
    ],
)
def test_bad_queries_are_value_errors(explorer: bitboards.explorer.Explorer, query: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        explorer.lichess(**query)


def test_bad_fen_and_colour(explorer: bitboards.explorer.Explorer) -> None:
    with pytest.raises(ValueError, match="invalid fen"):
        explorer.lichess(bitboards.Board.empty(), play=["e2e4"])
    with pytest.raises(ValueError, match="color"):
        explorer.player("alice", "green")
    with pytest.raises(ValueError, match="mode"):
        explorer.player("alice", "white", modes=["blitz"])


def test_missing_and_damaged_indexes(index: pathlib.Path, tmp_path: pathlib.Path) -> None:
    with pytest.raises(OSError, match="no explorer index"):
        bitboards.explorer.open(tmp_path / "nothing")
    with pytest.raises(OSError, match="no such file"):
        bitboards.explorer.build(tmp_path / "missing.pgn", tmp_path / "out")
    copy = tmp_path / "copy"
    shutil.copytree(index, copy)
    segment = sorted(copy.glob("segment-*.bbx"))[0]
    data = bytearray(segment.read_bytes())
    data[len(data) // 2] ^= 0x40
    segment.write_bytes(bytes(data))
    with pytest.raises(bitboards.explorer.IndexCorruptError, match="checksum"):
        bitboards.explorer.open(copy)
    segment.write_bytes(bytes(data[: len(data) // 3]))
    with pytest.raises(bitboards.explorer.IndexCorruptError, match="truncated"):
        bitboards.explorer.open(copy)


def test_a_second_build_adds_games(tmp_path: pathlib.Path) -> None:
    pgn = (DATA / "recount-games.pgn").read_text()
    cut = pgn.index("\n\n[Event ", len(pgn) // 2) + 2
    (tmp_path / "a.pgn").write_text(pgn[:cut])
    (tmp_path / "b.pgn").write_text(pgn[cut:])
    out = tmp_path / "index"
    first = bitboards.explorer.build(tmp_path / "a.pgn", out)
    second = bitboards.explorer.build([tmp_path / "b.pgn"], out, threads=1)
    explorer = bitboards.explorer.open(out)
    assert explorer.segments == 2
    assert explorer.games == first["games_indexed"] + second["games_indexed"]
    whole = tmp_path / "whole"
    bitboards.explorer.build(DATA / "recount-games.pgn", whole)
    one = bitboards.explorer.open(whole)
    for play in ([], ["e2e4"], ["d2d4", "d7d5"]):
        assert explorer.lichess(play=play, history=True) == one.lichess(play=play, history=True)
    assert bitboards.explorer.merge(out) == explorer.games
    merged = bitboards.explorer.open(out)
    assert merged.segments == 1
    assert merged.lichess(play=["e2e4"], history=True) == one.lichess(play=["e2e4"], history=True)


@pytest.fixture(scope="module")
def masters(tmp_path_factory: pytest.TempPathFactory) -> bitboards.explorer.Explorer:
    out = tmp_path_factory.mktemp("explorer") / "masters"
    report = bitboards.explorer.build(DATA / "masters-games.pgn", out, masters=True)
    skips = json.loads((DATA / "masters-skips.json").read_text())
    assert (report["games_read"], report["games_indexed"], report["skipped"]) == (
        skips["games_read"], skips["games_indexed"], skips["skipped"])
    return bitboards.explorer.open(out)


def masters_name(game: dict) -> str:
    """A game as recount_masters.py names it."""
    return "%s|%s|%d|%d|%d|%s" % (game["white"]["name"], game["black"]["name"], game["white"]["rating"],
                                  game["black"]["rating"], game["year"], game.get("month", ""))


@pytest.mark.parametrize("query", references("masters-reference.jsonl", 9), ids=lambda q: ",".join(q["play"]) or "start")
def test_masters_as_the_recount(masters: bitboards.explorer.Explorer, query: dict) -> None:
    assert masters.is_masters
    board = chess.Board(query["fen"]) if query["fen"] else None
    answer = masters.masters(board, play=query["play"], since=query["since"], until=query["until"],
                             moves=query["moves"], top_games=query["topGames"])
    expect = query["expect"]
    assert (answer["white"], answer["draws"], answer["black"]) == (expect["white"], expect["draws"], expect["black"])
    assert [{"uci": m["uci"], "white": m["white"], "draws": m["draws"], "black": m["black"],
             "averageRating": m["averageRating"], "game": masters_name(m["game"]) if m["game"] else None}
            for m in answer["moves"]] == expect["moves"]
    assert [[g["uci"], masters_name(g)] for g in answer["topGames"]] == expect["topGames"]
    assert "recentGames" not in answer


def test_masters_pgn(masters: bitboards.explorer.Explorer) -> None:
    for game in references("masters-pgn.jsonl", 10):
        assert masters.masters_pgn(game["id"]) == game["pgn"]
    assert masters.masters_pgn("nosuchid") is None
