"""bitboards.engine: the scores and WDL models against python-chess's
chess.engine, Stockfish through both clients on the same positions, the
pool (analyse_many), and the scripted fake engine's faults (typed errors
within a deadline, no process left behind).

Stockfish tests are skipped when /usr/games/stockfish is missing, unless
CI=true (then they fail). The fake engine is crates/engine's
`fake-uci-engine` binary, built with cargo when it is not there.
"""

from __future__ import annotations

import itertools
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import pytest

import bitboards
import bitboards.engine as engine

ROOT = Path(__file__).resolve().parents[3]
STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")
CI = os.environ.get("CI") == "true"


def need_stockfish():
    if not os.path.exists(STOCKFISH):
        if CI:
            pytest.fail(f"Stockfish is not at {STOCKFISH} (CI=true)")
        pytest.skip(f"no Stockfish at {STOCKFISH}")


@pytest.fixture(scope="module")
def fake():
    """The path of the fake engine, built if needed."""
    path = ROOT / "target" / "debug" / "fake-uci-engine"
    if not path.exists() and shutil.which("cargo"):
        subprocess.run(["cargo", "build", "-q", "-p", "bitboards-engine", "--bin", "fake-uci-engine"],
                       cwd=ROOT, check=False)
    if not path.exists():
        if CI:
            pytest.fail(f"the fake engine is not at {path} (CI=true)")
        pytest.skip("no fake-uci-engine (cargo build -p bitboards-engine --bin fake-uci-engine)")
    return str(path)


def children():
    """The process ids whose parent is this process (zombies included)."""
    mine = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == mine:
            found.append(int(entry))
    return found


def gone(pid):
    return not os.path.exists(f"/proc/{pid}")


# --- Scores, WDL, options: no engine ---------------------------------------

def ours_and_theirs():
    return [
        (engine.Mate(-0), chess.engine.Mate(-0)),
        (engine.Mate(-1), chess.engine.Mate(-1)),
        (engine.Mate(-30), chess.engine.Mate(-30)),
        (engine.Cp(-2000), chess.engine.Cp(-2000)),
        (engine.Cp(-1), chess.engine.Cp(-1)),
        (engine.Cp(0), chess.engine.Cp(0)),
        (engine.Cp(77), chess.engine.Cp(77)),
        (engine.Mate(12), chess.engine.Mate(12)),
        (engine.Mate(1), chess.engine.Mate(1)),
        (engine.MateGiven, chess.engine.MateGiven),
    ]


def test_scores_order_negate_and_print_as_python_chess():
    pairs = ours_and_theirs()
    for a, pa in pairs:
        assert repr(a) == repr(pa)
        assert str(a) == str(pa)
        assert repr(-a) == repr(-pa)
        assert a.mate() == pa.mate()
        assert a.is_mate() == pa.is_mate()
        assert a.score() == pa.score()
        assert a.score(mate_score=10000) == pa.score(mate_score=10000)
        assert repr(abs(a)) == repr(abs(pa))
        for b, pb in pairs:
            assert (a < b) == (pa < pb), (a, b)
            assert (a == b) == (pa == pb), (a, b)
            assert (a >= b) == (pa >= pb), (a, b)
    assert sorted(a for a, _ in reversed(pairs)) == [a for a, _ in pairs]
    assert engine.Mate(0) == engine.Mate(-0) != engine.MateGiven
    assert -engine.Mate(0) is engine.MateGiven


@pytest.mark.parametrize("model", ["sf", "sf16.1", "sf16", "sf15.1", "sf15", "sf14", "sf12", "lichess"])
def test_wdl_models_equal_python_chess(model):
    rng = random.Random(7)
    for _ in range(400):
        cp = rng.randrange(-2500, 2500)
        ply = rng.randrange(0, 300)
        ours = engine.Cp(cp).wdl(model=model, ply=ply)
        theirs = chess.engine.Cp(cp).wdl(model=model, ply=ply)
        assert tuple(ours) == tuple(theirs), (model, cp, ply)
    for moves in (-5, -1, 0, 1, 9):
        assert tuple(engine.Mate(moves).wdl(model=model)) == tuple(chess.engine.Mate(moves).wdl(model=model))
    with pytest.raises(ValueError, match="unknown WDL model"):
        engine.Cp(1).wdl(model="sf99")


def test_pov_score_and_wdl():
    pov = engine.PovScore(engine.Mate(2), bitboards.BLACK)
    assert pov.black() == engine.Mate(2) and pov.white() == engine.Mate(-2)
    assert pov.pov(bitboards.WHITE) == engine.Mate(-2) and pov.is_mate()
    assert pov == engine.PovScore(engine.Mate(-2), bitboards.WHITE)
    wdl = engine.PovWdl(engine.Wdl(600, 300, 100), bitboards.BLACK)
    assert wdl.white() == engine.Wdl(100, 300, 600)
    assert wdl == (600, 300, 100) and list(wdl) == [600, 300, 100] and wdl[2] == 100
    assert engine.Wdl(1, 2, 1).expectation() == 0.5
    assert not engine.Wdl(0, 0, 0)


def test_uci_option_map_ignores_case_and_keeps_the_first_spelling():
    options = engine.UciOptionMap(Hash=16)
    options["THREADS"] = 2
    assert options["hash"] == 16 and "threads" in options and "Ponder" not in options
    assert sorted(options) == ["Hash", "THREADS"]
    assert options == {"HASH": 16, "threads": 2}
    assert options != {"hash": 16}
    copy = options.copy()
    del copy["hash"]
    assert len(copy) == 1 and len(options) == 2


def test_limit_repr_and_errors():
    assert repr(engine.Limit(depth=5, nodes=10)) == "Limit(depth=5, nodes=10)"
    assert repr(engine.Limit(depth=5)) == repr(chess.engine.Limit(depth=5))


# --- Stockfish -----------------------------------------------------------------

def random_positions(count, seed):
    """python-chess boards after seeded random games of 0 to 60 plies (the
    oracle picks the moves)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randrange(0, 60)):
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            boards.append(board)
    return boards


def key(info):
    return (info["depth"], repr(info["score"].white()), [m.uci() for m in info["pv"]])


@pytest.mark.parametrize("multipv", [1, 3])
def test_same_analysis_as_python_chess(multipv):
    need_stockfish()
    # Hundreds of positions in all (the check), at a node limit
    # small enough to keep the test to seconds.
    boards = random_positions(150 if multipv == 1 else 100, seed=multipv)
    limit_ours, limit_theirs = engine.Limit(nodes=1500), chess.engine.Limit(nodes=1500)
    with engine.SimpleEngine.popen_uci(STOCKFISH) as ours, chess.engine.SimpleEngine.popen_uci(STOCKFISH) as theirs:
        for board in boards:
            theirs_result = theirs.analyse(board, limit_theirs, multipv=multipv, game=object())
            # python-chess's board as it is (start FEN and moves), and ours
            # replayed from the start: both sent as position ... moves ...
            ours_board = bitboards.Board()
            for move in board.move_stack:
                ours_board.push_uci(move.uci())
            for query in (board, ours_board):
                ours_result = ours.analyse(query, limit_ours, multipv=multipv, game=object())
                assert len(ours_result) == len(theirs_result) == min(multipv, board.legal_moves.count())
                assert [key(i) for i in ours_result] == [key(i) for i in theirs_result], board.fen()
                assert [i["multipv"] for i in ours_result] == list(range(1, len(ours_result) + 1))
                assert all(i["nodes"] >= 1500 and isinstance(i["time"], float) for i in ours_result)
            played = ours.play(ours_board, limit_ours, game=object())
            assert played.move.uci() == theirs.play(board, limit_theirs, game=object()).move.uci()
            assert played.move in ours_board.legal_moves and played.info == {}


def test_options_and_id_as_python_chess():
    need_stockfish()
    with engine.SimpleEngine.popen_uci([STOCKFISH]) as ours, chess.engine.SimpleEngine.popen_uci(STOCKFISH) as theirs:
        assert ours.id == theirs.id
        assert list(ours.options) == list(theirs.options)
        for name, option in theirs.options.items():
            mine = ours.options[name.upper()]
            # UCI's "<empty>" string default is "" here (python-chess keeps
            # the word).
            default = "" if option.default == "<empty>" else option.default
            assert (mine.name, mine.type, mine.default, mine.min, mine.max) == \
                (option.name, option.type, default, option.min, option.max), name
            assert (mine.var or []) == (option.var or [])
        ours.configure({"Hash": 32, "UCI_ShowWDL": True})
        info = ours.analyse(bitboards.Board(), engine.Limit(depth=6))
        assert isinstance(info["wdl"], engine.PovWdl) and info["wdl"].white().total() == 1000
        with pytest.raises(engine.EngineError, match="no option 'Hsh'"):
            ours.configure({"Hsh": 1})
        with pytest.raises(engine.EngineError, match="from 1 to"):
            ours.configure({"Hash": 0})
        with pytest.raises(engine.EngineError, match="set by the client"):
            ours.configure({"MultiPV": 2})
        with pytest.raises(ValueError, match="sets nothing"):
            ours.analyse(bitboards.Board(), engine.Limit())
        ours.ping()


def test_root_moves_and_an_analysis_until_stopped():
    need_stockfish()
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    # Without h5f7 (the mate), the engine's choice is among the moves given.
    allowed = [board.parse_san(san) for san in ("d3", "Nc3", "Qe2")]
    with engine.SimpleEngine.popen_uci(STOCKFISH) as ours, chess.engine.SimpleEngine.popen_uci(STOCKFISH) as theirs:
        for limit_ours, limit_theirs in ((engine.Limit(depth=8), chess.engine.Limit(depth=8)),):
            info = ours.analyse(board, limit_ours, root_moves=allowed)
            their_info = theirs.analyse(board, limit_theirs, root_moves=allowed)
            assert info["pv"][0].uci() in {move.uci() for move in allowed}
            assert info["pv"][0].uci() == their_info["pv"][0].uci()
            played = ours.play(board, limit_ours, root_moves=allowed[:1])
            assert played.move.uci() == "d2d3"
        with pytest.raises(bitboards.IllegalMoveError, match="e1e3"):
            ours.analyse(board, engine.Limit(depth=1), root_moves=[chess.Move.from_uci("e1e3")])
        # No limit: the engine searches until stopped, past any deadline a
        # limit would have.
        with ours.analysis(board) as analysis:
            depths = [info.get("depth", 0) for info in itertools.islice(analysis, 40)]
            assert max(depths) >= 5
        best = analysis.wait()
        assert best.move.uci() == "h5f7"
        ours.ping()
        # quit() does not wait behind an analysis left running: it stops it.
        ours.analysis(board)
        started = time.monotonic()
        ours.quit()
        assert time.monotonic() - started < 3


PONDERING_ENGINE = """
import sys
log = open(sys.argv[1], "w", buffering=1)
def say(line):
    sys.stdout.write(line + "\\n")
    sys.stdout.flush()
waiting = False
for line in sys.stdin:
    line = line.strip()
    log.write(line + "\\n")
    if line == "uci":
        say("id name Pondering")
        say("option name Ponder type check default false")
        say("option name UCI_Opponent type string")
        say("uciok")
    elif line == "isready":
        say("readyok")
    elif line.startswith("position"):
        moves = line.split(" moves ")[1].split() if " moves " in line else []
    elif line.startswith("go ponder"):
        waiting = True
    elif line.startswith("go"):
        reply = ["e2e4 ponder e7e5", "g1f3 ponder b8c6"][len(moves) // 2 % 2]
        say("info depth 1 score cp 20 pv " + reply.replace(" ponder", ""))
        say("bestmove " + reply)
    elif line in ("stop", "ponderhit") and waiting:
        waiting = False
        reply = ["e2e4 ponder e7e5", "g1f3 ponder b8c6"][len(moves) // 2 % 2]
        say("bestmove " + reply)
    elif line == "quit":
        break
"""


def test_pondering_and_the_opponent(tmp_path):
    script, log = tmp_path / "pondering.py", tmp_path / "commands"
    script.write_text(PONDERING_ENGINE)
    board = chess.Board()
    with engine.SimpleEngine.popen_uci([sys.executable, str(script), str(log)]) as sf:
        guy = engine.Opponent("Guy Chapman", "GM", 2600, False)
        played = sf.play(board, engine.Limit(time=1), ponder=True, opponent=guy)
        assert (played.move.uci(), played.ponder.uci()) == ("e2e4", "e7e5")
        board.push_uci("e2e4")
        board.push_uci("e7e5")
        # The expected reply came: the search on it goes on (ponderhit),
        # and pondering starts on the next expected reply.
        again = sf.play(board, engine.Limit(time=1), ponder=True, opponent=guy)
        assert (again.move.uci(), again.ponder.uci()) == ("g1f3", "b8c6")
        # Anything else stops the ponder search first.
        sf.analyse(chess.Board(), engine.Limit(depth=3))
        # A new opponent is a new game.
        sf.play(chess.Board(), engine.Limit(time=1), opponent=engine.Opponent("Eliza", None, 3500, True))
    sent = log.read_text().splitlines()
    assert sent[:7] == ["uci", "ucinewgame", "isready", "setoption name UCI_Opponent value GM 2600 human Guy Chapman",
                        "setoption name Ponder value true", "position startpos", "go movetime 1000"]
    assert sent[7:12] == ["position startpos moves e2e4 e7e5", "go ponder movetime 1000", "ponderhit",
                          "position startpos moves e2e4 e7e5 g1f3 b8c6", "go ponder movetime 1000"]
    assert sent[12:15] == ["stop", "position startpos", "go depth 3"]
    assert sent[15:19] == ["ucinewgame", "isready", "setoption name UCI_Opponent value none 3500 computer Eliza",
                           "setoption name Ponder value false"]


def test_mates_play_and_finished_games():
    need_stockfish()
    with engine.SimpleEngine.popen_uci(STOCKFISH) as sf:
        board = bitboards.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
        info = sf.analyse(board, engine.Limit(depth=5))
        assert info["score"] == engine.PovScore(engine.Mate(1), bitboards.WHITE)
        assert sf.play(board, engine.Limit(mate=1)).move == bitboards.Move.from_uci("h5f7")
        board.push_uci("h5f7")
        info = sf.analyse(board, engine.Limit(depth=5))
        assert info["score"].relative == engine.Mate(0) and info["score"].white() == engine.MateGiven
        with pytest.raises(engine.EngineError, match="no legal move"):
            sf.play(board, engine.Limit(depth=5))
        # A Chess960 board: castling sent and read back as king takes rook.
        board = bitboards.Board("4k3/8/8/8/8/8/8/RK6 w A - 0 1", chess960=True)
        info = sf.analyse(board, engine.Limit(depth=6), multipv=5)
        assert all(info_["pv"][0] in board.legal_moves for info_ in info)


def test_analysis_streams_and_stops():
    need_stockfish()
    with engine.SimpleEngine.popen_uci(STOCKFISH) as sf:
        started = time.monotonic()
        with sf.analysis(bitboards.Board(), engine.Limit(depth=99)) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 12:
                    break
        best = analysis.wait()
        assert time.monotonic() - started < 20
        assert best.move in bitboards.Board().legal_moves
        assert analysis.info["depth"] >= 12 and "score" in analysis.info
        list(analysis)
        assert analysis.empty() and not analysis.would_block() and analysis.next() is None
        sf.ping()  # usable after the stop


def test_a_calls_options_last_for_that_call():
    need_stockfish()
    with engine.SimpleEngine.popen_uci(STOCKFISH) as sf:
        board = chess.Board()
        board.push_san("e4")
        assert "wdl" in sf.analyse(board, engine.Limit(depth=4), options={"UCI_ShowWDL": True})
        assert "wdl" not in sf.analyse(board, engine.Limit(depth=4))
        sf.configure({"UCI_ShowWDL": True})
        assert "wdl" in sf.analyse(board, engine.Limit(depth=4))
        assert "wdl" not in sf.analyse(board, engine.Limit(depth=4), options={"UCI_ShowWDL": False})
        # (python-chess 1.11.2 does the same with these five calls.)
        info = sf.analyse(board, engine.Limit(depth=4))
        # Black to move: the WDL and score are Black's, White's by white().
        assert info["wdl"].turn == bitboards.BLACK and info["score"].turn == bitboards.BLACK
        assert info["wdl"].white() == -info["wdl"].relative
        # analysis() on a python-chess board: its moves go with it.
        with sf.analysis(board, engine.Limit(depth=6), multipv=2) as analysis:
            infos = list(analysis)
        assert analysis.wait().move in [bitboards.Move.from_uci(m.uci()) for m in board.legal_moves]
        assert {info.get("multipv") for info in infos} >= {1, 2} and len(analysis.multipv) == 2


def test_threads_sharing_one_engine_take_turns():
    need_stockfish()
    boards = [bitboards.Board(board.fen()) for board in random_positions(16, seed=5)]
    limit = engine.Limit(nodes=2000)
    with engine.SimpleEngine.popen_uci(STOCKFISH) as sf:
        alone = [key(sf.analyse(board, limit, game=object())) for board in boards]
        shared = [None] * len(boards)

        def work(start):
            for index in range(start, len(boards), 4):
                shared[index] = key(sf.analyse(boards[index], limit, game=object()))

        threads = [threading.Thread(target=work, args=(start,)) for start in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert shared == alone


def test_the_gil_is_released_while_waiting():
    need_stockfish()
    with engine.SimpleEngine.popen_uci(STOCKFISH) as sf:
        done = threading.Event()
        counted = [0]

        def count():
            while not done.is_set():
                counted[0] += 1

        counter = threading.Thread(target=count)
        counter.start()
        try:
            sf.analyse(bitboards.Board(), engine.Limit(time=0.5))
        finally:
            done.set()
            counter.join()
        assert counted[0] > 10_000


def test_quit_and_closed_engines():
    need_stockfish()
    sf = engine.SimpleEngine.popen_uci(STOCKFISH)
    pid = sf.pid
    with sf:
        sf.quit()
    assert gone(pid)
    with pytest.raises(engine.EngineTerminatedError):
        sf.ping()
    with pytest.raises(engine.EngineTerminatedError):
        sf.analyse(bitboards.Board(), engine.Limit(depth=1))
    with pytest.raises(FileNotFoundError):
        engine.SimpleEngine.popen_uci("/no/such/engine")


def test_analyse_many_on_one_and_two_engines():
    need_stockfish()
    pa = pytest.importorskip("pyarrow")
    boards = random_positions(12, seed=11)
    limit = engine.Limit(nodes=3000)
    one = engine.analyse_many(STOCKFISH, boards, limit, engines=1, multipv=2, options={"Hash": 16})
    two = engine.analyse_many(STOCKFISH, boards, limit, engines=2, multipv=2, options={"Hash": 16})
    assert one.equals(two)
    assert {"game", "ply", "fen", "best", "cp", "mate", "depth", "nodes", "pv", "multipv"} <= set(one.column_names)
    rows = one.to_pylist()
    assert [row["game"] for row in rows] == [i for i, b in enumerate(boards) for _ in range(min(2, b.legal_moves.count()))]
    # The same as SimpleEngine, in White's view.
    with engine.SimpleEngine.popen_uci(STOCKFISH) as sf:
        for index, board in enumerate(boards[:4]):
            infos = sf.analyse(board, limit, multipv=2, game=object())
            mine = [row for row in rows if row["game"] == index]
            assert [row["ply"] for row in mine] == [len(board.move_stack)] * len(mine)
            for row, info in zip(mine, infos):
                white = info["score"].white()
                assert (row["cp"], row["mate"]) == (white.score(), white.mate())
                assert row["pv"] == [m.uci() for m in info["pv"]] and row["best"] == row["pv"][0]
                assert row["depth"] == info["depth"] and row["fen"] == board.fen()
    # FENs, and a table with a fen column, give the same rows at ply 0.
    fens = [board.fen() for board in boards]
    by_fen = engine.analyse_many(STOCKFISH, fens, limit, engines=2, multipv=2)
    by_table = engine.analyse_many(STOCKFISH, pa.table({"fen": fens}), limit, engines=2, multipv=2)
    assert by_fen.equals(by_table)
    assert by_fen.column("fen").to_pylist() == one.column("fen").to_pylist()
    assert set(by_fen.column("ply").to_pylist()) == {0}
    with pytest.raises(bitboards.InvalidFenError, match="position 1"):
        engine.analyse_many(STOCKFISH, [fens[0], "not a fen"], limit)
    with pytest.raises(ValueError, match="'fen' column"):
        engine.analyse_many(STOCKFISH, pa.table({"x": fens}), limit)
    assert children() == []


# --- Faults, with the fake engine ------------------------------------------------

def test_an_engine_that_dies(fake):
    sf = engine.SimpleEngine.popen_uci([fake, "die-on-go"])
    pid = sf.pid
    started = time.monotonic()
    with pytest.raises(engine.EngineTerminatedError, match="exited"):
        sf.analyse(bitboards.Board(), engine.Limit(nodes=10))
    assert time.monotonic() - started < 3
    assert gone(pid)
    with pytest.raises(engine.EngineTerminatedError):
        sf.ping()


def test_an_engine_that_hangs_is_killed_at_its_deadline(fake):
    sf = engine.SimpleEngine.popen_uci([fake, "hang"])
    pid = sf.pid
    started = time.monotonic()
    with pytest.raises(engine.EngineTimeoutError, match="killed") as raised:
        sf.analyse(bitboards.Board(), engine.Limit(time=0.2))
    assert isinstance(raised.value, TimeoutError)
    # The time, a margin of 1 s, a grace of 1 s for stop.
    assert time.monotonic() - started < 4
    assert gone(pid)
    sf.close()


def test_a_search_stopped_at_its_deadline_leaves_the_engine_usable(fake):
    with engine.SimpleEngine.popen_uci([fake, "hang-on-go"], search_timeout=0.3) as sf:
        with pytest.raises(engine.EngineTimeoutError, match="stopped"):
            sf.analyse(bitboards.Board(), engine.Limit(time=0.1))
        sf.ping()
        started = time.monotonic()
        with pytest.raises(engine.EngineTimeoutError, match="within 0.300 s"):
            sf.analyse(bitboards.Board(), engine.Limit(nodes=100))
        assert time.monotonic() - started < 2
        # analysis().stop() before its deadline: the engine answers stop.
        with sf.analysis(bitboards.Board(), engine.Limit(depth=5)) as analysis:
            pass
        assert analysis.wait().move in bitboards.Board().legal_moves


def test_setpgrp_kills_an_engine_behind_a_wrapper_script(fake, tmp_path):
    # An engine that ignores quit, behind a script that does not exec it:
    # with setpgrp=True its whole process group is killed on close.
    script = tmp_path / "engine.sh"
    script.write_text(f"#!/bin/sh\n'{fake}' hang\n")
    script.chmod(0o755)

    def behind(pid):
        with open(f"/proc/{pid}/task/{pid}/children") as found:
            return [int(child) for child in found.read().split()]

    sf = engine.SimpleEngine.popen_uci(str(script), setpgrp=True)
    wrapper = sf.pid
    (real,) = behind(wrapper)
    assert os.getpgid(real) == wrapper != os.getpgid(0)
    sf.close()

    def dead(pid):  # gone, or a zombie its new parent has yet to reap
        try:
            with open(f"/proc/{pid}/stat") as stat:
                return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            return True

    deadline = time.monotonic() + 5
    while not dead(real) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert gone(wrapper) and dead(real)
    # Without it the engine stays in this process's group, as python-chess's.
    with engine.SimpleEngine.popen_uci([fake, "normal"]) as sf:
        assert os.getpgid(sf.pid) == os.getpgid(0)


def test_the_start_waits_for_uciok_only_and_timeout_bounds_each_wait(fake):
    # As python-chess's: `timeout` bounds the `uci` exchange, and the start
    # ends at `uciok`. The fake answers `isready` after 3 s: a ping within a
    # 1 s timeout gives up, and with None it waits.
    with engine.SimpleEngine.popen_uci([fake, "slow-ready"], timeout=1.0) as sf:
        started = time.monotonic()
        with pytest.raises(engine.EngineTimeoutError, match="readyok"):
            sf.ping()
        assert time.monotonic() - started < 2.9
    with engine.SimpleEngine.popen_uci([fake, "slow-ready"], timeout=None) as sf:
        assert sf.timeout is None and sf.id["name"] == "Fake Engine 1.0"
        started = time.monotonic()
        sf.ping()
        assert time.monotonic() - started > 2


def test_quit_raises_when_the_engine_had_to_be_killed():
    # An engine that answers `uci` and then nothing: quit() gives it
    # `timeout` seconds, kills it and says so (python-chess raises
    # asyncio.TimeoutError, which is TimeoutError).
    sf = engine.SimpleEngine.popen_uci(["/bin/sh", "-c", "read line && echo uciok && exec sleep 60"], setpgrp=True)
    pid = sf.pid
    sf.timeout = 0.05
    with pytest.raises(TimeoutError, match="quit"):
        sf.quit()
    assert gone(pid)
    sf.close()  # nothing left to end, and no error


def test_an_illegal_bestmove_and_garbage(fake):
    sf = engine.SimpleEngine.popen_uci([fake, "illegal-bestmove"])
    pid = sf.pid
    with pytest.raises(engine.EngineError, match="not a legal move") as raised:
        sf.analyse(bitboards.Board(), engine.Limit(nodes=1))
    assert not isinstance(raised.value, engine.EngineTerminatedError)
    assert gone(pid)
    with engine.SimpleEngine.popen_uci([fake, "garbage"]) as garbage:
        info = garbage.analyse(bitboards.Board(), engine.Limit(nodes=1), multipv=2)
        assert [i["multipv"] for i in info] == [1, 2]
        assert all(i["pv"][0] in bitboards.Board().legal_moves for i in info)
    with engine.SimpleEngine.popen_uci([fake, "illegal-pv"]) as illegal:
        info = illegal.analyse(bitboards.Board(), engine.Limit(nodes=1))
        assert len(info["pv"]) == 1  # cut before the illegal move


def test_programs_that_are_not_uci_engines(fake):
    started = time.monotonic()
    with pytest.raises(engine.EngineTimeoutError, match="uciok"):
        engine.SimpleEngine.popen_uci([fake, "no-uciok"], timeout=0.3)
    assert time.monotonic() - started < 3
    # `true` may exit before or after reading `uci`: both say it exited.
    with pytest.raises(engine.EngineTerminatedError, match="not a UCI engine: it exited"):
        engine.SimpleEngine.popen_uci("/bin/true")
    with pytest.raises(ValueError, match="empty"):
        engine.SimpleEngine.popen_uci([])
    assert children() == []


def test_analyse_many_names_the_position_that_fails(fake):
    pytest.importorskip("pyarrow")
    fens = [bitboards.Board().fen()] * 3 + ["4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"] + [bitboards.Board().fen()] * 3
    table = engine.analyse_many([fake, "normal"], fens, engine.Limit(nodes=1), engines=2)
    assert table.num_rows == len(fens)
    started = time.monotonic()
    with pytest.raises(engine.EngineTerminatedError, match="position 3") as raised:
        engine.analyse_many([fake, "die-on-position", "R3K3"], fens, engine.Limit(nodes=1), engines=2)
    assert "exited" in str(raised.value)
    assert time.monotonic() - started < 10
    assert children() == []


def test_analyse_many_takes_a_positions_table(tmp_path):
    need_stockfish()
    pa = pytest.importorskip("pyarrow")
    import bitboards.pgn

    pgn = tmp_path / "games.pgn"
    pgn.write_text(
        '[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 *\n\n'
        '[Event "b"]\n[FEN "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 20"]\n[SetUp "1"]\n\n20. exd6 O-O 21. Ke2 *\n'
    )
    table = bitboards.pgn.read_positions(str(pgn), progress=False)
    limit = engine.Limit(nodes=500)
    ours = engine.analyse_many(STOCKFISH, table, limit, engines=2)
    assert ours.num_rows == table.num_rows
    # The same positions as FENs, replayed by python-chess: each one before
    # a move, as the positions table holds them.
    fens = []
    with open(pgn) as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            board = game.board()
            for move in game.mainline_moves():
                fens.append(board.fen())
                board.push(move)
    assert [chess.Board(fen).epd() for fen in ours.column("fen").to_pylist()] == \
        [chess.Board(fen).epd() for fen in fens]
    by_fen = engine.analyse_many(STOCKFISH, fens, limit, engines=1)
    for name in ("best", "cp", "mate", "depth", "pv"):
        assert ours.column(name).to_pylist() == by_fen.column(name).to_pylist(), name
    # Each row keeps its position's game and ply, to join back.
    assert ours.column("game").to_pylist() == table.column("game").to_pylist()
    assert ours.column("ply").to_pylist() == table.column("ply").to_pylist()
    assert ours.schema.field("game").type == pa.uint64()
    with pytest.raises(ValueError, match="bitboards"):
        engine.analyse_many(STOCKFISH, pa.table({"x": [1]}), limit)


def test_a_setup_no_game_reaches_is_refused_before_the_engine_sees_it(fake):
    with engine.SimpleEngine.popen_uci([fake, "normal"]) as eng:
        for board in (bitboards.Board(None), bitboards.Board("8/8/8/8/8/8/8/K7 w - - 0 1")):
            with pytest.raises(ValueError, match="an engine needs a position the rules allow"):
                eng.analyse(board, engine.Limit(nodes=1))
        # A pseudo-legal move on the stack leaves the other king capturable.
        pinned = bitboards.Board("4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1")
        pinned.push(bitboards.Move.from_uci("e2d3"))
        with pytest.raises(ValueError, match="rules allow"):
            eng.analyse(pinned, engine.Limit(nodes=1))
        pinned.pop()
        assert eng.analyse(pinned, engine.Limit(nodes=1))["pv"]
    assert children() == []
