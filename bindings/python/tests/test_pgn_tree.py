"""`bitboards.pgn`'s game tree (python-chess's `chess.pgn` API) against
python-chess itself, the oracle.

The same PGN text is read by both: real files (python-chess's own test data,
from its sdist, when it can be had), games python-chess writes with
variations, comments, NAGs and clock/eval commands (seeded), and
hand-written edge cases. The trees (moves, comments, starting comments,
NAGs, variations, headers, errors), the visitors' calls and the exported
text (`str(game)`, every `StringExporter` option, `FileExporter`) must be the
same; a tree written by `StringExporter` and read back is the same tree.
"""

from __future__ import annotations

import io
import logging
import os
import random
import re
import sys
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import chess.svg
import pytest

import bitboards
import bitboards.engine
import bitboards.pgn
import bitboards.svg

sys.path.insert(0, str(Path(__file__).resolve().parent))
import python_chess_suite as suite  # noqa: E402

sys.path.pop(0)


# ---- what a game is, for comparing ----

def writable(comment):
    """A comment as PGN can hold it (what the exporters write of it)."""
    return comment.replace("}", "").strip()


def tree(game, writable_comments=False):
    """The game as plain data: headers, comment, errors, and the nodes in
    PGN order (depth, move, starting comment, comment, NAGs), without
    recursion (games may be deep). ``writable_comments``: the comments as
    an exporter writes them."""
    text = writable if writable_comments else (lambda comment: comment)
    nodes = []
    stack = [(child, 0) for child in reversed(game.variations)]
    while stack:
        node, depth = stack.pop()
        nodes.append((depth, node.move.uci(), text(node.starting_comment), text(node.comment),
                      sorted(node.nags)))
        stack.extend((child, depth + 1) for child in reversed(node.variations))
    return {
        "headers": list(game.headers.items()),
        "comment": text(game.comment),
        "errors": len(game.errors),
        "nodes": nodes,
    }


def read_all(module, text):
    """Every game of `text` read by `module.pgn.read_game`, as trees, with
    the file's position after each."""
    handle = io.StringIO(text)
    games = []
    while True:
        game = module.pgn.read_game(handle)
        if game is None:
            return games
        games.append((game, handle.tell()))


def exports(module, game):
    """The texts `module` writes of `game`: str(), each StringExporter
    option, FileExporter."""
    texts = {"str": str(game)}
    for columns in (None, 80, 40):
        for headers in (True, False):
            for comments in (True, False):
                for variations in (True, False):
                    exporter = module.pgn.StringExporter(
                        columns=columns, headers=headers, comments=comments, variations=variations
                    )
                    texts[(columns, headers, comments, variations)] = game.accept(exporter)
    handle = io.StringIO()
    exporter = module.pgn.FileExporter(handle)
    written = game.accept(exporter)
    texts["file"] = (handle.getvalue(), written)
    return texts


def trace_visitor(module):
    """A visitor of `module.pgn` that records every call it gets."""

    class Trace(module.pgn.BaseVisitor):
        def __init__(self):
            self.calls = []

        def begin_game(self):
            self.calls.append("begin_game")

        def begin_headers(self):
            self.calls.append("begin_headers")

        def visit_header(self, tagname, tagvalue):
            self.calls.append(("header", tagname, tagvalue))

        def begin_parse_san(self, board, san):
            self.calls.append(("san", board.fen(), san))

        def end_headers(self):
            self.calls.append("end_headers")

        def visit_board(self, board):
            self.calls.append(("board", board.fen()))

        def visit_move(self, board, move):
            self.calls.append(("move", board.fen(), move.uci()))

        def visit_comment(self, comment):
            self.calls.append(("comment", comment))

        def visit_nag(self, nag):
            self.calls.append(("nag", nag))

        def begin_variation(self):
            self.calls.append("(")

        def end_variation(self):
            self.calls.append(")")

        def visit_result(self, result):
            self.calls.append(("result", result))

        def end_game(self):
            self.calls.append("end_game")

        def handle_error(self, error):
            self.calls.append("error")

        def result(self):
            return self.calls

    return Trace


def assert_same_reading(text, *, check_exports=True):
    """Both modules read `text` into the same games, leave the file at the
    same places, call visitors the same way and write the games the same."""
    logging.disable(logging.ERROR)
    try:
        ours = read_all(bitboards, text)
        theirs = read_all(chess, text)
        assert [tree(g) for g, _ in ours] == [tree(g) for g, _ in theirs]
        assert [at for _, at in ours] == [at for _, at in theirs]
        # The visitor calls, reading and walking the tree.
        handle_ours, handle_theirs = io.StringIO(text), io.StringIO(text)
        for _ in range(len(ours) + 1):
            calls_ours = bitboards.pgn.read_game(handle_ours, Visitor=trace_visitor(bitboards))
            calls_theirs = chess.pgn.read_game(handle_theirs, Visitor=trace_visitor(chess))
            assert calls_ours == calls_theirs
        for (game, _), (oracle, _) in zip(ours, theirs):
            if game.errors:
                continue
            assert game.accept(trace_visitor(bitboards)()) == oracle.accept(trace_visitor(chess)())
            if check_exports:
                assert exports(bitboards, game) == exports(chess, oracle)
            # Written and read back: the same tree (comments as PGN can
            # hold them: without "}" and surrounding whitespace).
            for columns in (None, 80):
                written = game.accept(bitboards.pgn.StringExporter(columns=columns))
                again = bitboards.pgn.read_game(io.StringIO(written))
                assert tree(again) == tree(game, writable_comments=True)
    finally:
        logging.disable(logging.NOTSET)
    return ours


# ---- python-chess's data files ----

# Standard chess and Chess960 files (the others are variants).
DATA_FILES = [
    "anastasian-lewis.pgn", "chessbase-empty-line.pgn", "cutechess-fischerrandom.pgn",
    "kasparov-deep-blue-1997.pgn", "molinari-bordais-1979.pgn", "nepomniachtchi-liren-game1.pgn",
    "stockfish-learning.pgn", "uci-moves.pgn", "utf8-bom.pgn",
]


@pytest.mark.parametrize("name", DATA_FILES)
def test_data_files(sdist, name):
    text = (sdist / "data" / "pgn" / name).read_text(encoding="utf-8")
    games = assert_same_reading(text)
    assert games
    for game, _ in games:
        assert not game.errors


def test_null_move_game(sdist):
    # anastasian-lewis.pgn has a null move (Z0).
    text = (sdist / "data" / "pgn" / "anastasian-lewis.pgn").read_text()
    game = bitboards.pgn.read_game(io.StringIO(text))
    oracle = chess.pgn.read_game(io.StringIO(text))
    assert game.end().board().fen() == oracle.end().board().fen()
    assert "41. Bxf3 -- 42. Ke1" in str(game)


# ---- generated games: variations, comments, NAGs, commands ----

COMMENTS = [
    "", "good", " spaced ", "two  spaces", "multi\nline", "tab\there", "[%clk 0:03:00]",
    "[%eval 0.17] [%clk 1:02:03.5]", "[%eval #-3,20]", "[%csl Ga1,Rb2][%cal Ya1h8] arrows",
    "a } closing brace", "ends with newline\n", "{ opening brace", "x" * 90, "semi ; colon",
    "percent\n% at a line start",
]


def random_game(seed):
    """A python-chess game with variations, comments, starting comments and
    NAGs, from a seed."""
    rng = random.Random(seed)
    start = chess.Board()
    if seed % 5 == 1:
        start = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4")
    elif seed % 5 == 2:
        start = chess.Board.from_chess960_pos(rng.randrange(960))
    game = chess.pgn.Game()
    game.setup(start)
    game.headers["White"] = rng.choice(["Tal, Mikhail", "?", "Deep Blue (Computer)"])
    game.headers["Result"] = rng.choice(["*", "1-0", "0-1", "1/2-1/2"])
    if rng.random() < 0.5:
        game.headers["ECO"] = "C20"
        game.headers["Annotator"] = "a [bracketed] name"
    if rng.random() < 0.5:
        game.comment = rng.choice(COMMENTS)
    todo = [(game, start, 0)]
    nodes = 0
    while todo and nodes < 300:
        node, board, depth = todo.pop()
        length = rng.randrange(1, 40 if depth == 0 else 8)
        for _ in range(length):
            moves = list(board.legal_moves)
            if not moves:
                break
            count = 1 + (rng.random() < 0.25) + (rng.random() < 0.1)
            chosen = rng.sample(moves, min(count, len(moves)))
            children = []
            for move in chosen:
                child = node.add_variation(move)
                nodes += 1
                if rng.random() < 0.3:
                    child.comment = rng.choice(COMMENTS)
                if child.starts_variation() and rng.random() < 0.4:
                    child.starting_comment = rng.choice(COMMENTS)
                if rng.random() < 0.2:
                    child.nags.update(rng.sample([1, 2, 3, 4, 5, 6, 10, 14, 18, 146], rng.randrange(1, 3)))
                children.append(child)
            for child in children[1:]:
                if depth < 3:
                    branch = board.copy()
                    branch.push(child.move)
                    todo.append((child, branch, depth + 1))
            node = children[0]
            board.push(node.move)
    return game


@pytest.mark.parametrize("seed", range(40))
def test_generated_games(seed):
    game = random_game(seed)
    # python-chess writes the game, wrapped and not; both read it back.
    for columns in (80, None):
        text = game.accept(chess.pgn.StringExporter(columns=columns))
        ours = assert_same_reading(text + "\n\n" + text)
        assert len(ours) == 2


def test_generated_file_of_games():
    handle = io.StringIO()
    for seed in range(100, 120):
        random_game(seed).accept(chess.pgn.FileExporter(handle))
    games = assert_same_reading(handle.getvalue())
    assert len(games) == 20


# ---- hand-written edge cases ----

EDGE_CASES = [
    "1. e4 e5 2. Nf3 *",
    "{ game comment } 1. e4 { after e4 } { and more } e5 $1 $14 2. Nf3!? Nc6?! *",
    "{  a  \n  b  } 1. e4 {x}{y}{}{  }{\ta\t} { z\n\n w } e5 {a}}",
    "1. e4 (1. d4 d5 (1... Nf6 2. c4 (2. Nf3 g6 3. g3))) e5 *",
    "1. e4 e5 (1... c5 2. Nf3 (2. Nc3) (2. c3 d5) 2... d6) 2. Nf3 *",
    "1. e4 (1. d4))) !? *",
    "((( 1. c4 *",
    "1. e4 ( { starting } 1. d4 { after d4 } ) { back on e4 } 1... e5",
    "1. e4 (1. d4) {after the variation} e5",
    "{Start of game} 1. e4 ({Start of variation} 1. d4) 1... e5\n",
    "1. e4 $ e5 $12 $300 !! ?? !? ?! ! ? $0 *",
    "1. e4 e5 ; a comment to the end of the line { not a comment\n2. Nf3 {multi\n\nline} Nc6",
    "1. e4 e5 {unterminated\n\n[Event \"x\"]\n\n1. d4",
    "\ufeff[Event \"x\"]\n1. e4",
    "[Event \"A\"]\n\n\n1. e4",
    "[Event \"A\"]\n\n[Site \"B\"]\n1. e4",
    "[Event \"A\"]\n%foo\n;bar\n[Site \"B\"]\n\n1. e4 e5\n% x\n; y\n2. Nf3",
    "1. e4\n\n2. e5",
    "1. e4 e5\n[Event \"B\"]\n\n1. d4",
    '[White "a \\"b\\" c"]\n[Black "a\\\\b"]\n[Round "x"y"]\n[Site ""]\n[Date]\n[Foo  "bar" ]  \n[ Bar "x"]\n\n1. e4',
    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. 0-0 O-O *",
    "1. e2-e4 e7e5 2. Ng1f3 Nb8-c6 3. Bf1xc6 dxc6 *",
    "[FEN \"8/P7/8/8/8/8/8/k6K w - - 0 1\"]\n\n1. a8=Q+ Kb2 (1... Kb1 2. Qa2+) 2. Qb7+ *",
    "[FEN \"8/P7/8/8/8/8/8/k6K w - - 0 1\"]\n[SetUp \"1\"]\n\n1. a8N *",
    "[Variant \"Chess960\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n\n1. e4",
    "[Variant \"wild/1\"]\n\n1. e4",
    "[FEN \"bad fen\"]\n\n1. e4 e5\n\n1. d4",
    "1. e4 e5 2. Qxf8 d5 (2... d6) 3. Nf3\n\n1. a3",
    "1. e4 1-0 e5 0-1",
    "1-0 1. e4 *",
    "[Result \"1-0\"]\n\n1. e4 0-1",
    "[BlackType: \"program\"]",
    "[Black \"[=0040.34h5a4]\"]",
    " \n\n   ",
    "\n[Event \"A\"]\n\n\n[Event \"B\"]\n",
    "{ Empty game, but has a comment }",
    "1. e4 ; e5",
    "\n1. a3 ; { ; }\n\n1. b3 { ;\n% {\n1... g6 ; {\n\n1. c3 { }\n% {\n1... f6 ; { } {{{\n\n1. d3",
    "1. e4 e5 2. Ke2 Ke7 3. O-O",
    "1. f3 e5 2. g4 Qh4# 0-1",
    "1. e4 Z0 2. d4 (2. Nf3 -- (2... Z0 3. c4) 3. Nc3) Nf6 *",
    "1. e4 {[%clk 0:03:00]} e5 {[%eval 0.17] [%clk 0:02:59.5]} 2. Nf3 {[%csl Ga1][%cal Ra1h8]}",
    # Tag lines as TAG_REGEX reads them (read in Rust by the default reader).
    '[Event "a"] "b"]\n[Site\t"tab"]\n[Date\x1c"sep"]\n[Round "x"]   \n[White "x\ry"]\n'
    '[Black"nospace"]\n[_bad "x"]\n[a-b "dash"]\n[Ω "greek"]\n\n1. e4',
    '[Event "x"]\n   \n[Site "y"]\n\n\n1. e4',
    '[Event "x"]\n\x1c\n1. e4 e5\n\x1c\n\n1. d4',
]


@pytest.mark.parametrize("index", range(len(EDGE_CASES)))
def test_edge_cases(index):
    assert_same_reading(EDGE_CASES[index])


def test_skip_and_headers_leave_the_file_where_python_chess_does():
    text = "\n\n".join(EDGE_CASES)
    for module in (bitboards, chess):
        handle = io.StringIO(text)
        offsets = []
        while module.pgn.skip_game(handle):
            offsets.append(handle.tell())
        if module is bitboards:
            ours = offsets
        else:
            assert ours == offsets
    logging.disable(logging.ERROR)
    try:
        ours_h, theirs_h = io.StringIO(text), io.StringIO(text)
        while True:
            a, b = bitboards.pgn.read_headers(ours_h), chess.pgn.read_headers(theirs_h)
            assert (a is None) == (b is None)
            if a is None:
                break
            assert list(a.items()) == list(b.items())
            assert ours_h.tell() == theirs_h.tell()
    finally:
        logging.disable(logging.NOTSET)


# Where bitboards' reader knowingly differs (documented in pgn.py): after a
# move that does not parse in a variation, the reading goes on after the
# variation, in the position before it.
def test_error_in_variation_resumes_after_it():
    logging.disable(logging.ERROR)
    try:
        game = bitboards.pgn.read_game(io.StringIO("1. e4 (1. d4 Qxf8 (1... d5) 2. c4) e5 2. Nf3 *"))
    finally:
        logging.disable(logging.NOTSET)
    assert len(game.errors) == 1
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    assert [v.move.uci() for v in game.variations] == ["e2e4", "d2d4"]
    assert game.variations[1].is_end()
    assert game.headers["Result"] == "*"


def test_errors_are_logged_and_kept(caplog):
    with caplog.at_level(logging.ERROR, logger="bitboards.pgn"):
        game = bitboards.pgn.read_game(io.StringIO("1. e4 Qa1 e5 2. Qxf8\n\n1. a3"))
    assert len(game.errors) == 1 and isinstance(game.errors[0], ValueError)
    assert "Qa1" in caplog.text
    assert game.end().board().fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def test_a_visitor_that_does_not_handle_errors_raises():
    class Strict(bitboards.pgn.BaseVisitor):
        def result(self):
            return None

    with pytest.raises(ValueError):
        bitboards.pgn.read_game(io.StringIO("1. e4 Qa1"), Visitor=Strict)


# ---- the tree's API, step by step against python-chess ----

def test_tree_editing():
    uci = ["e2e4", "d2d4", "c2c4", "g1f3"]
    games = {}
    for module in (bitboards, chess):
        game = module.pgn.Game()
        nodes = [game.add_variation(module.Move.from_uci(m)) for m in uci]
        log = []

        def order():
            log.append([v.move.uci() for v in game.variations])

        game.promote(nodes[2]); order()
        game.demote(nodes[2]); order()
        game.promote_to_main(module.Move.from_uci("g1f3")); order()
        game.demote(0); order()
        game.remove_variation(module.Move.from_uci("d2d4")); order()
        game.add_main_variation(module.Move.from_uci("b2b3"), comment="main", nags=[3]); order()
        tail = game.variations[1].add_line(
            [module.Move.from_uci(m) for m in ["e7e5", "g1f3", "b8c6"]],
            starting_comment="s", comment="c", nags=(1, 14),
        )
        log.append([tail.move.uci(), tail.comment, sorted(tail.nags), tail.parent.parent.starting_comment])
        log.append([tail.ply(), tail.turn(), tail.is_mainline(), tail.is_main_variation(),
                    tail.starts_variation(), tail.san(), tail.uci(), tail.board().fen()])
        log.append([module.Move.from_uci("b2b3") in game, game.has_variation(module.Move.from_uci("a2a3")),
                    game.variation(1).move.uci(), game[0].move.uci(), game.next().move.uci()])
        log.append([str(game.mainline_moves()), [m.uci() for m in reversed(game.mainline_moves())],
                    bool(game.mainline_moves()), bool(tail.mainline_moves())])
        log.append(str(game))
        log.append(str(game.variations[1]))
        log.append(game.variations[1].accept_subgame(module.pgn.StringExporter()))
        with pytest.raises(KeyError):
            game.variation(module.Move.from_uci("h2h4"))
        games[module] = log
    assert games[bitboards] == games[chess]


def test_game_from_board_and_setup():
    for fen in [chess.STARTING_FEN, "3k4/8/4K3/8/8/8/8/2R5 b - - 0 1",
                "rkbqrnnb/pppppppp/8/8/8/8/PPPPPPPP/RKBQRNNB w KQkq - 0 1"]:
        out = {}
        for module in (bitboards, chess):
            board = module.Board(fen)
            if fen.startswith("rk"):
                board.chess960 = True
            for _ in range(6):
                moves = sorted(board.legal_moves, key=lambda m: m.uci())
                board.push(moves[len(moves) // 2])
            game = module.pgn.Game.from_board(board)
            other = module.pgn.Game()
            other.setup(fen)
            out[module] = (str(game), list(other.headers.items()), other.board().fen(),
                           other.board().chess960)
        assert out[bitboards] == out[chess]


def test_long_game_without_recursion():
    board = bitboards.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    for _ in range(1000):
        for uci in ("e1e2", "e8e7", "e2e1", "e7e8"):
            board.push(bitboards.Move.from_uci(uci))
    game = bitboards.pgn.Game.from_board(board)
    text = str(game)
    assert text.endswith("2000. Ke1 Ke8 1/2-1/2")
    again = bitboards.pgn.read_game(io.StringIO(text))
    assert tree(again) == tree(game)


def test_headers_mapping():
    for module in (bitboards, chess):
        headers = module.pgn.Headers(White="x", Foo="y")
        headers["Annotator"] = "z"
        del headers["Event"]
        assert list(headers) == ["Site", "Date", "Round", "White", "Black", "Result", "Foo", "Annotator"]
        assert repr(module.pgn.Headers({})) == "Headers()"
        for bad in ("~", "", "A b", "_a"):
            with pytest.raises(ValueError):
                headers[bad] = "v"
        with pytest.raises(ValueError):
            headers["A"] = "line\nbreak"
        headers["Equals="] = "ok"
        assert headers.copy() == headers
    assert repr(bitboards.pgn.Headers()) == repr(chess.pgn.Headers())
    for variant in ["Chess960", "fischerandom", "wild/1", "Standard", "from position", "960"]:
        ours, theirs = bitboards.pgn.Headers(Variant=variant), chess.pgn.Headers(Variant=variant)
        assert (ours.is_chess960(), ours.is_wild()) == (theirs.is_chess960(), theirs.is_wild())
    with pytest.raises(ValueError):
        bitboards.pgn.Headers(Variant="Atomic").variant()


# ---- comments' commands ----

def make_score(module, rng):
    color = rng.choice([module.WHITE, module.BLACK])
    if rng.random() < 0.3:
        return module.engine.PovScore(module.engine.Mate(rng.randrange(-5, 6)), color)
    return module.engine.PovScore(module.engine.Cp(rng.randrange(-2000, 2000)), color)


def arrows_of(arrows):
    return [(a.tail, a.head, a.color) for a in arrows]


def test_comment_commands():
    rng = random.Random(7)
    pieces = ["", "foo", " ", "\n", "[%clk 0:01:02]", "[%clk 1:00:01.5]", "[%emt 0:00:03]",
              "[%eval 0.17]", "[%eval #-2,12]", "[%eval 1.5, 20]", "[%csl Ga1,Rb2]", "[%cal Ya1h8]",
              "[%cal Xa1h8]", "[%bar]", "  ", "a\tb", "\t", "\r"]
    for _ in range(1500):
        comment = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 6)))
        ops = []
        for _ in range(rng.randrange(1, 5)):
            op = rng.choice(["clock", "emt", "eval", "arrows"])
            if op in ("clock", "emt"):
                value = rng.choice([None, 0, 59.9999, 6.54321, 12345, -70, rng.uniform(0, 10000)])
                ops.append((op, value))
            elif op == "eval":
                ops.append((op, rng.random(), rng.choice([None, 5, 20])))
            else:
                ops.append((op, [(rng.randrange(64), rng.randrange(64)) for _ in range(rng.randrange(3))]))
        results = {}
        for module in (bitboards, chess):
            op_rng = random.Random(comment)
            node = module.pgn.Game()
            node.comment = comment
            log = [node.clock(), node.emt(), node.eval_depth(), arrows_of(node.arrows())]
            score = node.eval()
            log.append(None if score is None else (score.white().score(), score.white().mate()))
            for op in ops:
                if op[0] == "clock":
                    node.set_clock(op[1])
                elif op[0] == "emt":
                    node.set_emt(op[1])
                elif op[0] == "eval":
                    node.set_eval(None if op[1] < 0.2 else make_score(module, op_rng), op[2])
                else:
                    arrows = [module.svg.Arrow(t, h, color="red") if (t + h) % 2 else (t, h) for t, h in op[1]]
                    node.set_arrows(arrows)
                log.append(node.comment)
                log.append((node.clock(), node.emt(), node.eval_depth(), arrows_of(node.arrows())))
            results[module] = log
        assert results[bitboards] == results[chess], comment


def test_time_controls():
    for text in ["60", "60+1", "180+2", "300", "900", "1800+30", "5400", "40/7200:20/3600:900+30",
                 "40/300+5:60", "300+2d", "?", "-", "", "0/60", "1/2"]:
        ours, theirs = bitboards.pgn.parse_time_control(text), chess.pgn.parse_time_control(text)
        assert ours.type.name == theirs.type.name
        assert [(p.moves, p.time, p.increment, p.delay) for p in ours.parts] == \
            [(p.moves, p.time, p.increment, p.delay) for p in theirs.parts]
    for bad in ["300+a", "abc", "40/abc", "600:20/180", "*180", "40/", "1.5"]:
        with pytest.raises(ValueError):
            bitboards.pgn.parse_time_control(bad)
        with pytest.raises(ValueError):
            chess.pgn.parse_time_control(bad)


def test_builders():
    text = '[White "A"]\n[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]\n\n1... e5 (1... d5 2. exd5) 2. Nf3 Nc6\n'
    board = bitboards.pgn.read_game(io.StringIO(text), Visitor=bitboards.pgn.BoardBuilder)
    oracle = chess.pgn.read_game(io.StringIO(text), Visitor=chess.pgn.BoardBuilder)
    assert board.fen() == oracle.fen()
    headers = bitboards.pgn.read_headers(io.StringIO(text))
    assert list(headers.items()) == list(chess.pgn.read_headers(io.StringIO(text)).items())

    class MyGame(bitboards.pgn.Game):
        pass

    game = bitboards.pgn.read_game(io.StringIO(text), Visitor=MyGame.builder)
    assert isinstance(game, MyGame) and game.next().san() == "e5"


# ---- damaged input ----

def test_damaged_pgn_never_raises():
    """PGN with random damage (characters inserted, deleted, swapped): the
    default reader never raises, what it reads without errors can be
    written, and where python-chess reads a game without errors, so does
    bitboards, into the same tree. (Texts with a FEN tag or a null move are
    not compared: python-chess holds setups, and plays null moves in check,
    that bitboards.Board refuses.)"""
    rng = random.Random(11)
    bases = EDGE_CASES + [random_game(seed).accept(chess.pgn.StringExporter()) for seed in range(6)]
    pieces = list("{}();%$!?[]\"\n \t*-/0123456789abcdefghNBRQKOxZ=+@.\\\r") + [
        "\n\n", "1-0", "{x}", "(1. e4)", "$12", "Z0", "--", "O-O", "[Variant \"Chess960\"]\n",
    ]
    compared = 0
    logging.disable(logging.ERROR)
    try:
        for _ in range(1500):
            text = rng.choice(bases)
            for _ in range(rng.randrange(1, 6)):
                at = rng.randrange(len(text) + 1)
                roll = rng.random()
                if roll < 0.4:
                    text = text[:at] + rng.choice(pieces) + text[at:]
                elif roll < 0.8:
                    text = text[:at] + text[at + rng.randrange(1, 5):]
                else:
                    text = text[:at] + text[at:at + 3][::-1] + text[at + 3:]
            ours = read_all(bitboards, text)
            for game, _ in ours:
                if not game.errors:
                    str(game)
                    game.accept(bitboards.pgn.StringExporter(columns=20))
            if "FEN" in text or any(token in text for token in ("Z0", "--", "0000", "@@@@")):
                continue
            try:
                theirs = read_all(chess, text)
            except IndexError:
                # python-chess's own reader fails on some damaged texts
                # (a move that fails in the main line, then a stray ")",
                # then two moves: "1. e4 e5 2. Qxf8 d6) 3. Nf3").
                continue
            if any(game.errors for game, _ in theirs):
                continue
            assert [tree(g) for g, _ in ours] == [tree(g) for g, _ in theirs], text
            assert [at for _, at in ours] == [at for _, at in theirs], text
            compared += 1
    finally:
        logging.disable(logging.NOTSET)
    assert compared > 500


def test_begin_parse_san_can_skip_a_move():
    def skipper(module):
        class Skipper(module.pgn.GameBuilder):
            def begin_parse_san(self, board, san):
                return module.pgn.SKIP if san == "Nc6" else None

        return Skipper

    # Nc6 left out: Black is still to move, so 3. Bb5 fails.
    text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *"
    logging.disable(logging.ERROR)
    try:
        ours = bitboards.pgn.read_game(io.StringIO(text), Visitor=skipper(bitboards))
        theirs = chess.pgn.read_game(io.StringIO(text), Visitor=skipper(chess))
    finally:
        logging.disable(logging.NOTSET)
    assert tree(ours) == tree(theirs)
    assert [m.uci() for m in ours.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    assert len(ours.errors) == 1


def test_node_san_and_uci_forms():
    """Every node's san(), uci() and uci(chess960=...) of generated games
    (standard and Chess960, castling included) as python-chess's."""
    castlings = 0
    for seed in range(0, 25):
        text = random_game(seed).accept(chess.pgn.StringExporter())
        ours = bitboards.pgn.read_game(io.StringIO(text))
        theirs = chess.pgn.read_game(io.StringIO(text))
        pairs = [(ours, theirs)]
        while pairs:
            a, b = pairs.pop()
            if b.move is not None:
                forms = (b.san(), b.uci(), b.uci(chess960=True), b.uci(chess960=False), b.ply(), b.turn())
                assert (a.san(), a.uci(), a.uci(chess960=True), a.uci(chess960=False), a.ply(), a.turn()) == forms
                castlings += "O-O" in forms[0]
            if seed < 6:
                # The texts of nodes and main lines (addresses aside).
                for text_of in (repr, str, lambda n: repr(n.mainline()), lambda n: str(n.mainline()),
                                lambda n: repr(n.mainline_moves())):
                    assert re.sub("0x[0-9a-f]+", "", text_of(a)) == re.sub("0x[0-9a-f]+", "", text_of(b))
            pairs.extend(zip(a.variations, b.variations))
    assert castlings > 5


def test_tree_reader_agrees_with_the_rust_reader():
    """`read_game` (the tree) and `read_games` (the Rust reader's records)
    on the same Lichess-shaped file: the same headers, moves, clocks and
    evals."""
    rng = random.Random(5)
    games = []
    for _ in range(30):
        board = chess.Board()
        game = chess.pgn.Game()
        game.headers["WhiteElo"] = str(rng.randrange(1000, 2800))
        node = game
        for _ in range(rng.randrange(1, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            node = node.add_variation(rng.choice(moves))
            node.set_clock(rng.randrange(0, 600))
            if rng.random() < 0.7:
                node.set_eval(chess.engine.PovScore(chess.engine.Cp(rng.randrange(-900, 900)), chess.WHITE))
            board.push(node.move)
        game.headers["Result"] = board.result()
        games.append(str(game))
    text = "\n\n".join(games) + "\n"
    records = list(bitboards.pgn.read_games(io.BytesIO(text.encode())))
    handle = io.StringIO(text)
    for record in records:
        game = bitboards.pgn.read_game(handle)
        assert dict(game.headers) == record.headers
        nodes = list(game.mainline())
        assert [node.move for node in nodes] == record.moves
        assert [node.clock() for node in nodes] == record.clocks
        evals = [node.eval() for node in nodes]
        assert [None if e is None else e.white().score() for e in evals] == \
            [None if e is None else e.cp for e in record.evals]
    assert bitboards.pgn.read_game(handle) is None
    assert len(records) == 30


def test_exporters_driven_by_the_reader():
    """A StringExporter as read_game's visitor (the text written as it is
    read, no tree) writes what python-chess's does."""
    texts = EDGE_CASES + [random_game(seed).accept(chess.pgn.StringExporter()) for seed in range(50, 56)]
    options = [{}, {"headers": False}, {"variations": False}, {"comments": False}, {"columns": 30}]
    logging.disable(logging.ERROR)
    try:
        for text in texts:
            for kwargs in options:
                ours, theirs = io.StringIO(text), io.StringIO(text)
                while True:
                    # An exporter does not handle errors: both raise them.
                    try:
                        a = bitboards.pgn.read_game(ours, Visitor=lambda: bitboards.pgn.StringExporter(**kwargs))
                    except ValueError:
                        a = ValueError
                    try:
                        b = chess.pgn.read_game(theirs, Visitor=lambda: chess.pgn.StringExporter(**kwargs))
                    except ValueError:
                        b = ValueError
                    assert a == b, (text, kwargs)
                    if a is None or a is ValueError:
                        break
    finally:
        logging.disable(logging.NOTSET)
