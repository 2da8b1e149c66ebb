"""The asyncio engine API (``popen_uci``, ``UciProtocol``, ``AnalysisResult``)
against python-chess's as the reference: the same calls on both protocols,
each over a scripted engine, must write the same lines and return the same
moves and infos; then a real engine (Stockfish) and real processes."""

import asyncio
import os
import shutil
import time

import chess
import chess.engine
import pytest

import bitboards
import bitboards.engine as engine

STOCKFISH = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")

OPTIONS = [
    "id name Scripted",
    "id author The tests",
    "option name Hash type spin default 16 min 1 max 1024",
    "option name Ponder type check default false",
    "option name MultiPV type spin default 1 min 1 max 500",
    "option name UCI_Opponent type string",
    "option name UCI_AnalyseMode type check default false",
    "option name UCI_Chess960 type check default false",
    "option name Style type combo default Normal var Solid var Normal var Risky",
    "option name Clear Hash type button",
    "uciok",
]


class Scripted(asyncio.SubprocessTransport, asyncio.WriteTransport):
    """A transport that records every line the protocol writes and answers
    each (``answer``) after the current step of the loop, as a process
    would."""

    def __init__(self, protocol):
        super().__init__()
        self.protocol = protocol
        self.written = []
        self.board = chess.Board()
        self._buffer = b""
        protocol.connection_made(self)

    def get_pipe_transport(self, fd):
        return self

    def get_pid(self):
        return 1

    def get_returncode(self):
        return None

    def write(self, data):
        self._buffer += data
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            line = line.decode()
            self.written.append(line)
            self.answer(line)

    def send(self, *lines):
        data = "".join(line + "\n" for line in lines).encode()
        self.protocol.loop.call_soon(self.protocol.pipe_data_received, 1, data)


class ScriptedEngine(Scripted):
    """A UCI engine whose moves are the first legal ones in UCI order, so
    that both protocols see the same game."""

    waiting = None  # the position of a search waiting for `stop`


    def best(self, board):
        moves = sorted(board.legal_moves, key=lambda move: move.uci())
        if not moves:
            return ["bestmove (none)"]
        after = board.copy()
        after.push(moves[0])
        replies = sorted(after.legal_moves, key=lambda move: move.uci())
        pv = [moves[0].uci()] + ([replies[0].uci()] if replies else [])
        infos = [
            f"info depth 1 seldepth 2 multipv 1 score cp 31 nodes 20 nps 2000 time 10 pv {' '.join(pv)}",
            f"info depth 2 seldepth 3 multipv 1 score cp 12 wdl 300 600 100 nodes 80 nps 4000 hashfull 3 "
            f"tbhits 0 time 20 pv {' '.join(pv)}",
            f"info depth 2 currmove {moves[-1].uci()} currmovenumber {len(moves)}",
            "info string scripted  engine",
        ]
        if len(moves) > 1:
            infos.append(f"info depth 2 multipv 2 score mate -3 nodes 80 pv {moves[1].uci()}")
        ponder = f" ponder {replies[0].uci()}" if replies else ""
        return infos + [f"bestmove {moves[0].uci()}{ponder}"]

    def answer(self, line):
        words = line.split()
        if line == "uci":
            self.send(*OPTIONS)
        elif line == "isready":
            self.send("readyok")
        elif words[:1] == ["position"]:
            chess960 = "UCI_Chess960 value true" in " ".join(self.written)
            if words[1] == "startpos":
                self.board = chess.Board(chess960=chess960)
                rest = words[2:]
            else:
                self.board = chess.Board(" ".join(words[2:8]), chess960=chess960)
                rest = words[8:]
            for uci in rest[1:]:
                self.board.push_uci(uci)
        elif words[:1] == ["go"]:
            if "ponder" in words or "infinite" in words:
                self.waiting = self.board.copy()
            else:
                self.send(*self.best(self.board))
        elif line in ("stop", "ponderhit") and self.waiting is not None:
            board, self.waiting = self.waiting, None
            self.send(*self.best(board))


def plain(value):
    """Results as plain data, the same whichever library made them."""
    if isinstance(value, dict):
        return {str(plain(key)): plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if hasattr(value, "uci"):
        return value.uci()
    if hasattr(value, "white") and hasattr(value, "relative"):
        white = value.white()
        return ("pov", str(white) if not hasattr(white, "wins") else tuple(white))
    if hasattr(value, "move") and hasattr(value, "ponder"):
        return {"move": plain(value.move), "ponder": plain(value.ponder), "info": plain(getattr(value, "info", None))}
    return value


async def scenario(E, board_of):
    """A game with pondering, analyses, options and an opponent, as a
    program would play it; returns what it saw."""
    protocol = E.UciProtocol()
    transport = ScriptedEngine(protocol)
    seen = []
    await protocol.initialize()
    seen.append(dict(protocol.id))
    seen.append(sorted((name, option.type, option.default) for name, option in protocol.options.items()))
    await protocol.send_opponent_information(opponent=E.Opponent("Eliza", None, 2100, True))
    game = chess.Board()
    result = await protocol.play(board_of(game), E.Limit(time=0.5), ponder=True, info=E.INFO_ALL, game="one")
    seen.append(plain(result))
    game.push(chess.Move.from_uci(result.move.uci()))
    game.push(chess.Move.from_uci(result.ponder.uci()))
    # The reply expected: ponderhit.
    result = await protocol.play(board_of(game), E.Limit(time=2), ponder=True, game="one")
    seen.append(plain(result))
    game.push(chess.Move.from_uci(result.move.uci()))
    game.push(chess.Move.from_uci(result.ponder.uci()))
    # Changed options: stop, not ponderhit.
    result = await protocol.play(board_of(game), E.Limit(depth=5), ponder=True, game="one", options={"Hash": 64})
    seen.append(plain(result))
    # Clocks (without pondering: its clocks depend on the time the search took).
    result = await protocol.play(board_of(game), E.Limit(white_clock=60, black_clock=50, white_inc=1, black_inc=2,
                                                         remaining_moves=30), game="one")
    seen.append(plain(result))
    seen.append(plain(await protocol.analyse(board_of(game), E.Limit(nodes=100), multipv=2, game="one")))
    seen.append(plain(await protocol.analyse(board_of(game), E.Limit(depth=4), info=E.INFO_SCORE | E.INFO_PV)))
    await protocol.configure({"Style": "Risky", "Clear Hash": None})
    analysis = await protocol.analysis(board_of(game), game="one")
    assert analysis.would_block()
    analysis.stop()
    seen.append(plain(await analysis.wait()))
    infos = []
    async for info in analysis:
        infos.append(plain(info))
    seen.append(infos)
    seen.append(plain(analysis.info))
    # A new game: a Chess960 start, a new opponent, root moves.
    start = chess.Board.from_chess960_pos(518 + 1)
    moves = sorted(start.legal_moves, key=lambda move: move.uci())[:3]
    result = await protocol.play(board_of(start), E.Limit(nodes=500), game="two", root_moves=moves,
                                 opponent=E.Opponent("Guy", "GM", 2600, False), info=E.INFO_BASIC)
    seen.append(plain(result))
    await protocol.ping()
    with pytest.raises(E.EngineError):
        await protocol.configure({"MultiPV": 3})
    with pytest.raises(E.EngineError):
        await protocol.configure({"No such option": 3})
    return transport.written, seen


def as_bitboards(board):
    ours = bitboards.Board(board.root().fen(), chess960=board.chess960)
    for move in board.move_stack:
        ours.push_uci(move.uci())
    return ours


@pytest.mark.parametrize("board_of", [lambda board: board.copy(), as_bitboards], ids=["chess.Board", "bitboards.Board"])
def test_the_same_lines_and_answers_as_python_chess(board_of):
    theirs = asyncio.run(scenario(chess.engine, lambda board: board.copy()))
    ours = asyncio.run(scenario(engine, board_of))
    assert ours[0] == theirs[0]
    assert "ponderhit" in ours[0] and "stop" in ours[0]
    assert ours[1] == theirs[1]


def test_info_lines_read_as_python_chess_reads_them():
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    lines = [
        "depth 12 seldepth 17 multipv 1 score cp 35 nodes 1234 nps 56789 hashfull 12 tbhits 0 time 21 pv f1b5 a7a6",
        "depth 3 score mate -2 lowerbound pv f3e5 c6e5",
        "depth 3 score cp -5 upperbound wdl 20 900 80",
        "currmove f1c4 currmovenumber 7 cpuload 998",
        "refutation f1c4 g8f6 refutation f3g5",
        "currline 2 d2d4 e5d4 f3d4",
        "ebf 1.75 string a  spaced   string",
        "depth 2 unknown 5 seldepth 3 pv f1b5 a7a6 x9x9 nodes 4",
    ]
    for line in lines:
        for selector in (engine.INFO_ALL, engine.INFO_BASIC, engine.INFO_SCORE | engine.INFO_PV,
                         engine.INFO_REFUTATION | engine.INFO_CURRLINE):
            theirs = plain(chess.engine._parse_uci_info(line, board, selector))
            ours = plain(engine._parse_uci_info(line, board, selector))
            assert ours == theirs, (line, selector)


def test_python_chess_boards_are_sent_as_python_chess_writes_them():
    # Their FEN is made in Rust from their masks: the same text as
    # python-chess's fen(shredder=chess960, en_passant="fen"), for random
    # games from the standard start and from Chess960 starts, with castling
    # rights, en passant squares and clocks of every kind.
    import random

    rng = random.Random(11)
    checked = 0
    for number in [518] + [rng.randrange(960) for _ in range(30)]:
        board = chess.Board.from_chess960_pos(number)
        board.chess960 = number != 518
        for _ in range(80):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            for chess960 in (False, True) if number == 518 else (True,):
                assert engine._root_fen(board, chess960) == board.fen(shredder=chess960, en_passant="fen")
                checked += 1
    odd = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    odd.castling_rights |= chess.BB_A8  # a right python-chess keeps as set
    odd.ep_square = chess.E3
    odd.halfmove_clock, odd.fullmove_number = 99, 500
    assert engine._root_fen(odd, False) == odd.fen(en_passant="fen")
    assert checked > 2000


def test_analysis_results_iterate_and_end():
    async def main():
        protocol = engine.UciProtocol()
        transport = ScriptedEngine(protocol)
        await protocol.initialize()
        analysis = await protocol.analysis(chess.Board(), engine.Limit(depth=2))
        infos = [info async for info in analysis]
        best = await analysis.wait()
        assert best.move.uci() == "a2a3" and best.ponder.uci() == "a7a5"
        assert [info.get("depth") for info in infos] == [1, 2, 2, None, 2]
        assert infos[3]["string"] == "scripted  engine"
        assert analysis.multipv[1]["score"].relative == engine.Mate(-3)
        assert analysis.empty() and not analysis.would_block()
        assert await analysis.next() is None
        with pytest.raises(engine.AnalysisComplete):
            await analysis.get()
        # A bestmove nobody asked for is an error of the command, not a crash.
        assert transport.written[-1] == "go depth 2"

    asyncio.run(main())


def test_a_bad_bestmove_is_an_engine_error_and_the_protocol_goes_on():
    async def main():
        protocol = engine.UciProtocol()
        mock = engine.MockTransport(protocol)
        mock.expect("uci", ["uciok"])
        await protocol.initialize()
        mock.expect("ucinewgame")
        mock.expect("isready", ["readyok"])
        mock.expect("position startpos")
        mock.expect("go nodes 5", ["info depth 1 pv e2e5", "bestmove e2e5"])
        with pytest.raises(engine.EngineError, match="e2e5"):
            await protocol.play(chess.Board(), engine.Limit(nodes=5))
        mock.expect("isready", ["readyok"])
        await protocol.ping()
        mock.assert_done()
        with pytest.raises(engine.EngineError, match="already initialized"):
            await protocol.initialize()

    asyncio.run(main())


@pytest.mark.skipif(STOCKFISH is None, reason="needs stockfish")
def test_stockfish_over_asyncio():
    async def main():
        transport, protocol = await engine.popen_uci(STOCKFISH)
        try:
            assert protocol.id["name"].startswith("Stockfish")
            board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            info = await protocol.analyse(board, engine.Limit(depth=10))
            assert info["depth"] >= 10 and board.is_legal(chess.Move.from_uci(info["pv"][0].uci()))
            # Analysis until stopped, read as it comes.
            with await protocol.analysis(bitboards.Board()) as analysis:
                async for info in analysis:
                    if info.get("depth", 0) >= 8:
                        break
            best = await analysis.wait()
            assert best.move in bitboards.Board().legal_moves
            multipv = await protocol.analyse(board, engine.Limit(depth=6), multipv=3)
            assert [line["multipv"] for line in multipv] == [1, 2, 3]
            played = await protocol.play(chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1"), engine.Limit(depth=8))
            assert played.move.uci() == "a1a8"
        finally:
            await protocol.quit()
        assert await protocol.returncode == 0
        with pytest.raises(engine.EngineTerminatedError):
            await protocol.ping()

    asyncio.run(main())


def test_a_wrapper_script_in_its_own_group_leaves_nothing_behind(tmp_path):
    marker = tmp_path / "child.pid"
    # A wrapper that does not exec: its child is what reads and answers.
    script = f"sleep 300 & echo $! > {marker}; read line; echo uciok; wait"

    async def main():
        transport, protocol = await engine.popen_uci(["/bin/sh", "-c", script], setpgrp=True)
        assert os.getpgid(transport.get_pid()) == transport.get_pid()
        pending = asyncio.ensure_future(protocol.ping())
        await asyncio.sleep(0.05)
        transport.close()
        with pytest.raises(engine.EngineTerminatedError):
            await pending
        return int(marker.read_text())

    child = asyncio.run(main())
    deadline = time.monotonic() + 5
    while os.path.exists(f"/proc/{child}") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not os.path.exists(f"/proc/{child}")


def test_run_in_background_returns_the_first_result():
    async def work(future):
        await asyncio.sleep(0.001)
        future.set_result(41 + 1)
        await asyncio.sleep(0.01)

    assert engine.run_in_background(work) == 42

    async def fails(future):
        raise KeyError("before any result")

    with pytest.raises(KeyError):
        engine.run_in_background(fails)


# --- XBoard -----------------------------------------------------------------

FEATURES = [
    "# a comment before the features",
    'feature done=0 myname="Scripted XB" ping=1 setboard=1 exclude=1 variants="normal,fischerandom"',
    'feature option="Hash -spin 16 1 1024" option="Style -combo Solid /// *Normal /// Risky"',
    'feature option="Clear -button" option="Book -check 1" option="Log -string none"',
    "feature egt=syzygy memory=1 smp=1 reuse=0 done=1",
]


class ScriptedXBoard(Scripted):
    """An XBoard engine whose moves are the first legal ones in UCI order."""

    post = False


    def first(self, board):
        return sorted(board.legal_moves, key=lambda move: move.uci())[0]

    def answer(self, line):
        words = line.split()
        if line == "protover 2":
            self.send(*FEATURES)
        elif words[:1] == ["ping"]:
            self.send(f"pong {words[1]}")
        elif line == "new":
            self.board = chess.Board()
        elif words[:1] == ["variant"]:
            self.board.chess960 = words[1] == "fischerandom"
        elif words[:1] == ["setboard"]:
            self.board.set_fen(" ".join(words[1:]))
        elif line == "undo":
            self.board.pop()
        elif line == "remove":
            self.board.pop()
            self.board.pop()
        elif line in ("post", "nopost"):
            self.post = line == "post"
        elif line == "go":
            move = self.first(self.board)
            after = self.board.copy()
            after.push(move)
            reply = self.first(after)
            lines = [f"4 -37 12 4321 7 3000 {move.uci()} {reply.uci()}"] if self.post else []
            self.board.push(move)
            self.send(*lines, f"move {move.uci()}", f"Hint: {reply.uci()}")
        elif line == "analyze":
            move = self.first(self.board)
            self.send(f"1 15 1 20 {move.uci()}", f"2 100003 2 90 1. {move.uci()}")
        elif len(words) == 1 and len(line) in (4, 5) and line[1].isdigit():
            self.board.push_uci(line)


async def xboard_scenario(E):
    protocol = E.XBoardProtocol()
    transport = ScriptedXBoard(protocol)
    seen = []
    await protocol.initialize()
    seen.append(dict(protocol.id))
    seen.append(sorted((name, option.type, option.default, option.min, option.max, option.var)
                       for name, option in protocol.options.items()))
    await protocol.configure({"Hash": 32, "Style": "Risky", "Clear": None, "Book": False,
                              "egtpath syzygy": "/tables", "memory": 64, "cores": 2})
    await protocol.send_opponent_information(opponent=E.Opponent("Turk", "Mechanical", 2100, True),
                                             engine_rating=2500)
    game = chess.Board()
    for limit, info in [(E.Limit(time=1.5, depth=4), E.INFO_ALL), (E.Limit(depth=3), E.INFO_NONE)]:
        result = await protocol.play(game, limit, game="one", info=info)
        seen.append(plain(result))
        game.push(chess.Move.from_uci(result.move.uci()))
    clocks = E.Limit(white_clock=61, black_clock=55.5, white_inc=2, black_inc=2, remaining_moves=40, clock_id="c")
    for _ in range(2):
        result = await protocol.play(game, clocks, game="one")
        seen.append(plain(result))
        game.push(chess.Move.from_uci(result.move.uci()))
    game.pop()
    game.pop()
    game.pop()
    seen.append(plain(await protocol.play(game, E.Limit(time=2), game="one")))
    info = await protocol.analyse(game, E.Limit(depth=2), game="one", root_moves=list(game.legal_moves)[:2])
    seen.append(plain(info))
    analysis = await protocol.analysis(game, game="one")
    analysis.stop()
    seen.append(plain(await analysis.wait()))
    await protocol.send_game_result(game, chess.BLACK, "Time forfeiture")
    start = chess.Board.from_chess960_pos(0)
    seen.append(plain(await protocol.play(start, E.Limit(time=1), game="two", opponent=E.Opponent("Guy", None, 1900, False))))
    with pytest.raises(E.EngineError):
        await protocol.configure({"Style": "Wild"})
    with pytest.raises(E.EngineError):
        await protocol.play(game, E.Limit(nodes=5, time=1))
    await protocol.ping()
    return transport.written, seen


def test_xboard_writes_the_same_lines_and_answers_as_python_chess():
    theirs = asyncio.run(xboard_scenario(chess.engine))
    ours = asyncio.run(xboard_scenario(engine))

    def pings(lines):  # the numbers are each library's own
        return ["ping" if line.startswith("ping ") else line for line in lines]

    assert pings(ours[0]) == pings(theirs[0])
    assert {"remove", "undo", "level 40 1:01 2", "exclude all", "variant fischerandom", "rejected reuse"} <= set(ours[0])
    assert ours[1] == theirs[1]


def test_xboard_post_lines():
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    for line in ["9 156 1084 48000 Bb5 a6 Ba4", "4 -100005 12 900 7 3000 11 f1b5 a7a6", "5 100000 1 1 1. Bb5",
                 "12 -34 100 2000 4 f1c4 zz", "3 7 1", "2 3 4 5"]:
        for selector in (engine.INFO_ALL, engine.INFO_SCORE):
            theirs = plain(chess.engine._parse_xboard_post(line, board, selector))
            assert plain(engine._parse_xboard_post(line, board, selector)) == theirs, line


PHALANX = shutil.which("phalanx") or shutil.which("/usr/games/phalanx")


@pytest.mark.skipif(PHALANX is None, reason="needs phalanx (Debian's XBoard engine)")
def test_a_real_xboard_engine():
    async def main():
        transport, protocol = await engine.popen_xboard(PHALANX)
        try:
            assert protocol.id["name"].startswith("Phalanx")
            game = chess.Board()
            for _ in range(4):
                played = await protocol.play(game, engine.Limit(time=0.05), game="g")
                assert game.is_legal(chess.Move.from_uci(played.move.uci()))
                game.push(chess.Move.from_uci(played.move.uci()))
            game.pop()
            game.pop()
            game.pop()  # taken back with `remove` and `undo`
            played = await protocol.play(game, engine.Limit(time=0.05), game="g")
            assert game.is_legal(chess.Move.from_uci(played.move.uci()))
            await protocol.ping()
            await protocol.send_game_result(game, chess.WHITE, "adjudicated")
        finally:
            await protocol.quit()
        assert await protocol.returncode == 0

    asyncio.run(main())
    # And the synchronous API over it.
    with engine.SimpleEngine.popen_xboard(PHALANX) as phalanx:
        played = phalanx.play(chess.Board(), engine.Limit(time=0.05))
        assert played.move in chess.Board().legal_moves
        phalanx.quit()
    with pytest.raises(engine.EngineTerminatedError):
        phalanx.ping()


def test_an_engine_that_writes_without_end_of_line_is_stopped():
    # It answers `uci`, then writes 64 MiB without a newline: the protocol
    # keeps at most 1 MiB of it, fails the waiting command and ends it.
    script = "read line; echo uciok; read line; head -c 67108864 /dev/zero | tr '\\0' x; sleep 60"

    async def main():
        transport, protocol = await engine.popen_uci(["/bin/sh", "-c", script], setpgrp=True)
        with pytest.raises(engine.EngineError, match="more than"):
            await asyncio.wait_for(protocol.ping(), 30)
        assert len(protocol._buffer) <= 1 << 20
        assert await asyncio.wait_for(protocol.returncode, 10) != 0

    asyncio.run(main())
