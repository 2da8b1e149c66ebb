"""The Dask explorer example on a 2-worker LocalCluster: the index merged
from one part per file answers every query as the index built from all the
files at once on one machine.

    pip install pytest "dask[distributed]" ./bindings/python
    pytest examples/python/test_explorer_with_dask.py
"""

import os
import pathlib
import sys

import pytest

pytest.importorskip("distributed")
explorer = pytest.importorskip("bitboards.explorer")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import explorer_with_dask  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[2] / "crates" / "explorer" / "tests" / "data" / "recount-games.pgn"


def test_two_workers_merge_into_what_one_machine_builds(tmp_path):
    from distributed import Client, LocalCluster

    # The games in four files, cut at game boundaries.
    text = GAMES.read_text()
    cuts = [0] + [text.index("\n\n[Event ", len(text) * k // 4) + 2 for k in (1, 2, 3)] + [len(text)]
    paths = []
    for number in range(4):
        path = tmp_path / f"part{number}.pgn"
        path.write_text(text[cuts[number]:cuts[number + 1]])
        paths.append(str(path))

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster, Client(cluster) as client:
        index, reports = explorer_with_dask.build(paths, str(tmp_path / "out"), client)
        workers = {address for address in client.scheduler_info()["workers"]}
    assert len(workers) == 2
    assert len(reports) == 4

    whole = tmp_path / "whole"
    explorer.build(paths, whole)
    merged, one = explorer.open(index), explorer.open(whole)
    assert merged.segments == 1
    assert merged.games == one.games == sum(report["games_indexed"] for report in reports)
    for play in ([], ["e2e4"], ["d2d4"], ["e2e4", "e7e5"], ["d2d4", "d7d5", "c2c4"], ["g1f3"]):
        for query in ({}, {"speeds": ["blitz"]}, {"ratings": [2000, 2200, 2500], "history": True}):
            assert merged.lichess(play=play, top_games=4, recent_games=4, **query) == \
                one.lichess(play=play, top_games=4, recent_games=4, **query), (play, query)
    assert merged.player("alice", "white", play=["e2e4"]) == one.player("alice", "white", play=["e2e4"])
