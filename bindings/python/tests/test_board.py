"""`bitboards.Board`, `Move`, `Piece` and `Bitboard` against python-chess.

The main test replays seeded games (standard, Chess960, endgames, pieces
shuffling back and forth into repetitions) on both boards and compares, at
every ply, the legal moves, the SAN of every legal move both ways, the FEN,
the Polyglot key, the rules (check, mate, stalemate, material, the move
counts, repetitions, the outcome) and what stands where.
"""

import copy
import pickle
import random

import chess
import chess.polyglot
import pytest

import bitboards
from conftest import GAME_SPECS, our_board, polyglot_comparable, termination_of

# --- the replayed games ----------------------------------------------------


def compare_outcome(ours, py):
    expected = py.outcome()
    got = ours.outcome()
    if expected is None:
        assert got is None
        return
    assert got is not None, f"python-chess: {expected}"
    assert got.termination == termination_of(got, expected.termination.name)
    assert got.winner == expected.winner
    assert got.result() == expected.result()
    # The outcome is the same with claim_draw=True when it ends the game by
    # itself (python-chess answers the automatic ends first).
    claimed = ours.outcome(claim_draw=True)
    assert claimed is not None and claimed.termination == got.termination


def compare_position(ours, py, rng):
    """Everything a position answers, ours against python-chess's."""
    fen = py.fen()
    assert ours.fen() == fen
    assert ours.board_fen() == py.board_fen()
    assert ours.epd() == py.epd()
    assert ours.fen(shredder=True) == py.fen(shredder=True)
    assert ours.turn == py.turn
    assert ours.castling_rights == py.castling_rights
    assert ours.clean_castling_rights() == py.clean_castling_rights()
    assert ours.ep_square == py.ep_square
    assert ours.has_legal_en_passant() == py.has_legal_en_passant()
    assert ours.has_pseudo_legal_en_passant() == py.has_pseudo_legal_en_passant()
    for rule in ("legal", "xfen", "fen"):
        assert ours.fen(en_passant=rule) == py.fen(en_passant=rule)
    assert ours.status() == py.status()
    assert ours.promoted == py.promoted
    assert ours.halfmove_clock == py.halfmove_clock
    assert ours.fullmove_number == py.fullmove_number
    assert ours.ply() == py.ply()
    assert ours.chess960 == py.chess960
    assert str(ours) == str(py)
    if not py.chess960:
        assert repr(ours) == repr(py)
    if polyglot_comparable(py):
        assert ours.zobrist_hash() == chess.polyglot.zobrist_hash(py), fen

    # The rules.
    assert ours.is_check() == py.is_check()
    assert ours.is_checkmate() == py.is_checkmate()
    assert ours.is_stalemate() == py.is_stalemate()
    assert ours.is_insufficient_material() == py.is_insufficient_material()
    assert ours.is_seventyfive_moves() == py.is_seventyfive_moves()
    assert ours.is_fifty_moves() == py.is_fifty_moves()
    assert ours.is_fivefold_repetition() == py.is_fivefold_repetition()
    for count in (2, 3, 4, 5):
        assert ours.is_repetition(count) == py.is_repetition(count), (count, fen)
    assert ours.is_repetition() == py.is_repetition()
    assert ours.is_game_over() == py.is_game_over()
    compare_outcome(ours, py)

    # What stands where.
    for color in chess.COLORS:
        for piece_type in chess.PIECE_TYPES:
            mask = py.pieces_mask(piece_type, color)
            assert ours.pieces_mask(piece_type, color) == mask
            assert int(ours.pieces(piece_type, color)) == mask
        assert ours.king(color) == py.king(color)
    assert ours.occupied == py.occupied
    assert list(ours.occupied_co) == [py.occupied_co[chess.BLACK], py.occupied_co[chess.WHITE]]
    for square in chess.SQUARES:
        piece = py.piece_at(square)
        got = ours.piece_at(square)
        if piece is None:
            assert got is None
        else:
            assert (got.piece_type, got.color, got.symbol()) == (piece.piece_type, piece.color, piece.symbol())
        assert ours.piece_type_at(square) == py.piece_type_at(square)
        assert ours.color_at(square) == py.color_at(square)
    for square in rng.sample(chess.SQUARES, 8) + [py.king(py.turn)]:
        for color in chess.COLORS:
            assert int(ours.attackers(color, square)) == int(py.attackers(color, square)), (color, square, fen)
            assert ours.is_attacked_by(color, square) == py.is_attacked_by(color, square)

    # The legal moves, their SAN both ways and what they are.
    py_moves = {m.uci(): m for m in py.legal_moves}
    our_moves = {m.uci(): m for m in ours.legal_moves}
    assert set(our_moves) == set(py_moves), fen
    assert len(ours.legal_moves) == len(py_moves)
    assert ours.legal_moves.count() == len(py_moves)
    for uci, py_move in py_moves.items():
        move = our_moves[uci]
        assert move == bitboards.Move.from_uci(uci)
        assert move in ours.legal_moves
        assert ours.is_legal(move)
        san = py.san(py_move)
        assert ours.san(move) == san, (uci, fen)
        assert ours.parse_san(san) == move, (san, fen)
        assert ours.parse_uci(uci) == move
        assert ours.uci(move) == py.uci(py_move)
        assert ours.gives_check(move) == py.gives_check(py_move), (uci, fen)
        assert ours.is_capture(move) == py.is_capture(py_move)
        assert ours.is_castling(move) == py.is_castling(py_move)
        assert ours.is_en_passant(move) == py.is_en_passant(py_move)
    # Some moves that are not legal here are not in the list.
    for _ in range(4):
        move = bitboards.Move(rng.randrange(64), rng.randrange(64))
        py_move = chess.Move(move.from_square, move.to_square)
        # (python-chess reads a king's two-square move as castling in
        # Chess960 too: left out.)
        king_jump = py.piece_type_at(move.from_square) == chess.KING and abs(
            chess.square_file(move.from_square) - chess.square_file(move.to_square)) > 1
        if move.from_square != move.to_square and not king_jump:
            assert (move in ours.legal_moves) == py.is_legal(py_move)
            assert ours.is_legal(move) == py.is_legal(py_move)


@pytest.mark.parametrize("spec", GAME_SPECS, ids=str)
def test_random_game(spec, played_games):
    start, chess960, moves = played_games[spec.name]
    py = chess.Board(start, chess960=chess960)
    ours = our_board(start, chess960)
    if spec.pos960 is not None:
        from_pos = bitboards.Board.from_chess960_pos(spec.pos960)
        assert from_pos.chess960
        assert from_pos.fen() == start
        assert from_pos == ours
    assert ours.fen() == start
    rng = random.Random(spec.seed)
    fens = [start]
    for ply, uci in enumerate(moves):
        compare_position(ours, py, rng)
        py_move = chess.Move.from_uci(uci)
        san = py.san(py_move)
        # Pushed in turn as a Move, as SAN and as UCI.
        way = ply % 3
        if way == 0:
            ours.push(bitboards.Move.from_uci(uci))
        elif way == 1:
            assert ours.push_san(san).uci() == uci
        else:
            assert ours.push_uci(uci).uci() == uci
        py.push(py_move)
        assert ours.peek().uci() == uci
        # A pop and a push come back to the same board.
        if ply % 7 == 0:
            assert ours.pop().uci() == uci
            assert ours.fen() == fens[-1]
            ours.push(bitboards.Move.from_uci(uci))
        fens.append(py.fen())
        assert ours.fen() == fens[-1]
        assert [m.uci() for m in ours.move_stack] == [m.uci() for m in py.move_stack]
    compare_position(ours, py, rng)

    # Copies, the root and equality.
    assert ours.copy() == ours
    assert [m.uci() for m in ours.copy().move_stack] == moves
    assert ours.copy(stack=False).move_stack == []
    assert ours.copy(stack=False).fen() == py.fen()
    assert copy.copy(ours).fen() == py.fen()
    assert copy.deepcopy(ours).move_stack == ours.move_stack
    assert ours.root().fen() == start
    assert ours.root().move_stack == []
    if not chess960:
        assert ours.mirror().fen() == py.mirror().fen()

    # Pickle keeps the moves.
    again = pickle.loads(pickle.dumps(ours))
    assert again == ours
    assert again.fen() == ours.fen()
    assert again.chess960 == chess960
    assert again.move_stack == ours.move_stack
    assert again.is_repetition(3) == py.is_repetition(3)

    # Popping everything walks back through the same positions.
    for uci in reversed(moves):
        assert ours.pop().uci() == uci
        fens.pop()
        assert ours.fen() == fens[-1]
    assert ours.move_stack == []
    with pytest.raises(IndexError):
        ours.pop()


# --- fixed positions ---------------------------------------------------------

FIXED_FENS = [
    # Checkmate, stalemate, stalemate with insufficient material (python-chess
    # answers insufficient material first), fifty and seventy-five moves.
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "7k/5K2/6B1/8/8/8/8/8 b - - 0 1",
    "7k/8/6K1/8/8/8/8/R7 b - - 100 80",
    "7k/8/6K1/8/8/8/8/R7 b - - 150 120",
    "R6k/8/6K1/8/8/8/8/8 b - - 150 120",
    # Insufficient material and not.
    "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
    "4kb2/8/8/8/8/8/8/3KB3 w - - 0 1",
    "4kb2/8/8/8/8/8/8/4KB2 w - - 0 1",
    "4k3/8/8/8/8/8/8/4KNN1 w - - 0 1",
    "4k3/8/8/8/8/8/8/2n1KN2 w - - 0 1",
    "4k3/8/8/8/8/8/8/2b1KN2 w - - 0 1",
    "4k3/8/8/8/8/8/8/3qKN2 w - - 0 1",
    "4k3/8/8/8/8/8/8/3qKB2 w - - 0 1",
    "8/8/8/8/8/8/8/K1k5 w - - 0 1",
    # En passant: legal, pinned, and into check.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    "8/8/3k4/8/2pP4/8/8/3K1B2 b - d3 0 1",
    # Kiwipete and friends (perft positions).
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    # Promotions with captures, check and mate.
    "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
    "3r2k1/4P3/6K1/8/8/8/8/8 w - - 0 1",
    # SAN disambiguation: by file, by rank, by both.
    "4k3/8/8/8/8/8/8/N3K2N w - - 0 1",
    "4k3/8/8/N7/8/N7/8/4K3 w - - 0 1",
    "2k5/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1",
    "k7/8/8/8/8/2N1N3/8/2N1N2K w - - 0 1",
]


@pytest.mark.parametrize("fen", FIXED_FENS)
def test_fixed_position(fen):
    py = chess.Board(fen)
    ours = bitboards.Board(fen)
    compare_position(ours, py, random.Random(fen))
    # One move further along every legal move (mates, promotions).
    for py_move in list(py.legal_moves)[:40]:
        py.push(py_move)
        ours.push(bitboards.Move.from_uci(py_move.uci()))
        assert ours.fen() == py.fen()
        assert ours.is_checkmate() == py.is_checkmate()
        assert ours.is_stalemate() == py.is_stalemate()
        compare_outcome(ours, py)
        py.pop()
        ours.pop()
    assert ours.fen() == py.fen()


def test_stalemate_with_insufficient_material_is_insufficient_material():
    board = bitboards.Board("7k/5K2/6B1/8/8/8/8/8 b - - 0 1")
    assert board.is_stalemate()
    assert board.is_insufficient_material()
    outcome = board.outcome()
    assert outcome.termination == termination_of(outcome, "INSUFFICIENT_MATERIAL")
    assert outcome.winner is None
    assert outcome.result() == "1/2-1/2"


def test_claimable_draws():
    # Fifty moves: python-chess and ours only claim with claim_draw=True.
    fen = "7k/8/6K1/8/8/8/8/R7 b - - 100 80"
    ours = bitboards.Board(fen)
    assert ours.outcome() is None
    assert not ours.is_game_over()
    claimed = ours.outcome(claim_draw=True)
    assert claimed.termination == termination_of(claimed, "FIFTY_MOVES")
    assert claimed.result() == "1/2-1/2"
    assert ours.is_game_over(claim_draw=True)
    # Threefold: the knights out and back twice.
    ours = bitboards.Board()
    py = chess.Board()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"] * 2:
        ours.push_san(san)
        py.push_san(san)
    assert ours.is_repetition(3) and py.is_repetition(3)
    assert not ours.is_repetition(4)
    assert ours.outcome() is None and py.outcome() is None
    claimed = ours.outcome(claim_draw=True)
    assert claimed.termination == termination_of(claimed, py.outcome(claim_draw=True).termination.name)
    # Twice more: fivefold ends the game by itself.
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"] * 2:
        ours.push_san(san)
        py.push_san(san)
    assert ours.is_fivefold_repetition() and py.is_fivefold_repetition()
    outcome = ours.outcome()
    assert outcome.termination == termination_of(outcome, "FIVEFOLD_REPETITION")
    assert outcome.winner is None


def test_repetition_ignores_an_illegal_en_passant_square():
    # After c7-c5 the pawn on b5 cannot take en passant (the rook would
    # take the king): the position comes back after four knight and king
    # moves, although its Polyglot key (which hashes the c-file) differs.
    fen = "4k3/2p5/8/KP5r/8/8/8/6N1 b - - 0 1"
    ours = bitboards.Board(fen)
    py = chess.Board(fen)
    moves = ["c7c5", "g1f3", "e8d8", "f3g1", "d8e8"]
    keys = []
    for uci in moves:
        ours.push_uci(uci)
        py.push_uci(uci)
        keys.append(ours.zobrist_hash())
        assert ours.zobrist_hash() == chess.polyglot.zobrist_hash(py)
    assert keys[0] != keys[-1]
    assert ours.ep_square is None
    assert ours.is_repetition(2) == py.is_repetition(2) is True
    assert ours.fen() == py.fen()


# --- perft -------------------------------------------------------------------


def py_perft(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += py_perft(board, depth - 1)
        board.pop()
    return total


def test_perft_start():
    board = bitboards.Board()
    assert board.perft(1) == 20
    assert board.perft(2) == 400
    assert board.perft(3) == 8902
    assert board.perft(4) == 197281
    assert board.perft(4, threads=1) == 197281
    assert board.perft(4, threads=2) == 197281


def test_perft_known_positions():
    kiwipete = bitboards.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert [kiwipete.perft(d) for d in (1, 2, 3)] == [48, 2039, 97862]
    position3 = bitboards.Board("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1")
    assert [position3.perft(d) for d in (1, 2, 3, 4)] == [14, 191, 2812, 43238]
    position5 = bitboards.Board("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8")
    assert [position5.perft(d) for d in (1, 2, 3)] == [44, 1486, 62379]


@pytest.mark.parametrize("pos", [0, 518, 959, 123, 764])
def test_perft_chess960_start(pos):
    py = chess.Board.from_chess960_pos(pos)
    ours = bitboards.Board.from_chess960_pos(pos)
    assert ours.perft(1) == py.legal_moves.count()
    assert ours.perft(2) == py_perft(py, 2)


@pytest.mark.parametrize(
    "fen",
    [
        # Chess960 positions with castling into and across the rooks.
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
        "rbbqn1kr/pp2p1pp/6n1/2pp1p2/2P4P/P7/BP1PPPP1/R1BQNNKR w HAha - 0 9",
        "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
        "2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1",
    ],
)
def test_perft_chess960_positions(fen):
    py = chess.Board(fen, chess960=True)
    ours = bitboards.Board(fen, chess960=True)
    assert ours.fen(shredder=True) == py.fen(shredder=True)
    assert ours.perft(1) == py.legal_moves.count()
    assert ours.perft(2) == py_perft(py, 2)
    assert ours.perft(3, threads=2) == py_perft(py, 3)


# --- moves, pieces, constants ------------------------------------------------


def test_constants_match_python_chess():
    assert bitboards.WHITE is True and bitboards.BLACK is False
    assert list(bitboards.COLORS) == list(chess.COLORS)
    assert (bitboards.PAWN, bitboards.KNIGHT, bitboards.BISHOP) == (1, 2, 3)
    assert (bitboards.ROOK, bitboards.QUEEN, bitboards.KING) == (4, 5, 6)
    assert list(bitboards.PIECE_TYPES) == list(chess.PIECE_TYPES)
    assert list(bitboards.PIECE_SYMBOLS) == list(chess.PIECE_SYMBOLS)
    assert list(bitboards.SQUARES) == list(chess.SQUARES)
    assert list(bitboards.SQUARE_NAMES) == list(chess.SQUARE_NAMES)
    assert list(bitboards.FILE_NAMES) == list(chess.FILE_NAMES)
    assert list(bitboards.RANK_NAMES) == list(chess.RANK_NAMES)
    assert bitboards.STARTING_FEN == chess.STARTING_FEN
    assert bitboards.STARTING_BOARD_FEN == chess.STARTING_BOARD_FEN
    assert (bitboards.A1, bitboards.H1, bitboards.E4, bitboards.H8) == (0, 7, 28, 63)
    for name in chess.SQUARE_NAMES:
        assert getattr(bitboards, name.upper()) == getattr(chess, name.upper())
    for sq in chess.SQUARES:
        assert bitboards.square_file(sq) == chess.square_file(sq)
        assert bitboards.square_rank(sq) == chess.square_rank(sq)
        assert bitboards.square_name(sq) == chess.square_name(sq)
        assert bitboards.parse_square(chess.square_name(sq)) == sq
        assert bitboards.square(chess.square_file(sq), chess.square_rank(sq)) == sq


def test_move():
    for uci in ["e2e4", "g1f3", "a7a8q", "h2h1n", "b7c8r", "d2d1b", "e1g1", "e1h1"]:
        ours = bitboards.Move.from_uci(uci)
        py = chess.Move.from_uci(uci)
        assert (ours.from_square, ours.to_square, ours.promotion) == (py.from_square, py.to_square, py.promotion)
        assert ours.drop is None
        assert ours.uci() == str(ours) == uci
        assert repr(ours) == repr(py) == f"Move.from_uci('{uci}')"
        assert bool(ours)
        assert ours == bitboards.Move(py.from_square, py.to_square, py.promotion)
        assert hash(ours) == hash(bitboards.Move(py.from_square, py.to_square, py.promotion))
        assert pickle.loads(pickle.dumps(ours)) == ours
    assert bitboards.Move(12, 28) != bitboards.Move(12, 20)
    assert bitboards.Move(52, 60, bitboards.QUEEN) != bitboards.Move(52, 60, bitboards.KNIGHT)
    assert len({bitboards.Move(12, 28), bitboards.Move.from_uci("e2e4"), bitboards.Move(12, 20)}) == 2
    null = bitboards.Move.null()
    assert not null
    assert null.uci() == chess.Move.null().uci() == "0000"
    assert pickle.loads(pickle.dumps(null)) == null


def test_piece():
    for symbol in "PNBRQKpnbrqk":
        ours = bitboards.Piece.from_symbol(symbol)
        py = chess.Piece.from_symbol(symbol)
        assert (ours.piece_type, ours.color) == (py.piece_type, py.color)
        assert ours.symbol() == py.symbol() == symbol
        assert ours.unicode_symbol() == py.unicode_symbol()
        assert bitboards.Piece(py.piece_type, py.color) == ours
    assert bitboards.Piece(chess.KNIGHT, chess.WHITE) != bitboards.Piece(chess.KNIGHT, chess.BLACK)


def test_chess960_castling_moves():
    # The king takes its rook in Chess960, moves two squares in standard.
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    standard = bitboards.Board(fen)
    c960 = bitboards.Board(fen, chess960=True)
    py_standard = chess.Board(fen)
    py_c960 = chess.Board(fen, chess960=True)
    assert {m.uci() for m in standard.legal_moves} == {m.uci() for m in py_standard.legal_moves}
    assert {m.uci() for m in c960.legal_moves} == {m.uci() for m in py_c960.legal_moves}
    assert "e1g1" in {m.uci() for m in standard.legal_moves}
    assert "e1h1" in {m.uci() for m in c960.legal_moves}
    # As in python-chess, `in` finds castling written king-takes-rook on a
    # standard board too, but iteration gives it one way only.
    assert bitboards.Move.from_uci("e1h1") in standard.legal_moves
    assert "e1h1" not in {m.uci() for m in standard.legal_moves}
    assert bitboards.Move.from_uci("e1g1") not in c960.legal_moves
    assert standard.push_san("O-O") == bitboards.Move.from_uci("e1g1")
    assert c960.push_san("O-O-O") == bitboards.Move.from_uci("e1a1")
    py_c960.push_san("O-O-O")
    assert c960.fen() == py_c960.fen()
    assert standard.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"


def test_castling_notations_as_python_chess():
    # python-chess reads the other side's castling notation too: e1h1 on a
    # standard board and e1g1 on a Chess960 one (when no rook stands on
    # g1). `in legal_moves`, `is_legal` and `parse_uci` agree with it, and
    # with each other.
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    for chess960 in (False, True):
        ours = bitboards.Board(fen, chess960=chess960)
        py = chess.Board(fen, chess960=chess960)
        for uci in ["e1g1", "e1h1", "e1c1", "e1a1", "e1f1", "e1d1"]:
            move = bitboards.Move.from_uci(uci)
            py_move = chess.Move.from_uci(uci)
            expected = py.is_legal(py_move)
            assert ours.is_legal(move) == expected, (chess960, uci)
            assert (move in ours.legal_moves) == expected, (chess960, uci)
            assert ours.parse_uci(uci).uci() == py.parse_uci(uci).uci()
            assert ours.uci(ours.parse_uci(uci)) == py.uci(py.parse_uci(uci)), (chess960, uci)


def test_fen_writes_only_a_legal_en_passant_square():
    # After g2-g4 the f4 pawn cannot take en passant (the rook on b4 would
    # take the king on h4): python-chess's FEN has no en passant square,
    # though its ep_square is g3, as ours.
    fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
    ours = bitboards.Board(fen)
    py = chess.Board(fen)
    ours.push_san("g4")
    py.push_san("g4")
    assert not py.has_legal_en_passant() and not ours.has_legal_en_passant()
    assert ours.has_pseudo_legal_en_passant() and py.has_pseudo_legal_en_passant()
    assert ours.ep_square == py.ep_square == chess.G3
    assert ours.fen(en_passant="xfen") == py.fen(en_passant="xfen")
    assert ours.fen() == py.fen() == "8/2p5/3p4/KP5r/1R3pPk/8/4P3/8 b - - 0 1"
    assert ours.epd() == py.epd()
    assert repr(ours) == repr(py)
    # A legal one is written.
    ours = bitboards.Board("8/8/8/8/1p6/8/P7/4K2k w - - 0 1")
    py = chess.Board("8/8/8/8/1p6/8/P7/4K2k w - - 0 1")
    ours.push_uci("a2a4")
    py.push_uci("a2a4")
    assert ours.ep_square == chess.A3
    assert ours.fen() == py.fen() == "8/8/8/8/Pp6/8/8/4K2k b - a3 0 1"


def test_set_fen_and_equality():
    board = bitboards.Board()
    board.push_san("e4")
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    board.set_fen(fen)
    assert board.fen() == fen
    assert board.move_stack == []
    assert board == bitboards.Board(fen)
    assert board != bitboards.Board()
    # Equality compares positions: the same position by other moves.
    a = bitboards.Board()
    b = bitboards.Board()
    for san in ["Nf3", "Nf6", "Nc3"]:
        a.push_san(san)
    for san in ["Nc3", "Nf6", "Nf3"]:
        b.push_san(san)
    assert a == b
    assert a.move_stack != b.move_stack


# --- errors ------------------------------------------------------------------

BAD_FENS = [
    # (fen, the field the message names)
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "board"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", "castling"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y", "fullmove number"),
]


@pytest.mark.parametrize("fen,field", BAD_FENS)
def test_bad_fen(fen, field):
    with pytest.raises(ValueError):
        chess.Board(fen)
    with pytest.raises(bitboards.InvalidFenError) as info:
        bitboards.Board(fen)
    assert isinstance(info.value, ValueError)
    assert field in str(info.value)
    board = bitboards.Board()
    with pytest.raises(bitboards.InvalidFenError):
        board.set_fen(fen)
    assert board.fen() == chess.STARTING_FEN


def test_bad_fen_other():
    for fen in ["", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "8/8/8/8/8/8/8 w - - 0 1"]:
        with pytest.raises(ValueError):
            chess.Board(fen)
        with pytest.raises(bitboards.InvalidFenError):
            bitboards.Board(fen)
    # A setup no game reaches is a FEN all the same: held, and flagged.
    empty = "8/8/8/8/8/8/8/8 w - - 0 1"
    assert bitboards.Board(empty).fen() == chess.Board(empty).fen() == empty
    assert bitboards.Board(empty).status() == chess.Board(empty).status() == (
        chess.STATUS_EMPTY | chess.STATUS_NO_WHITE_KING | chess.STATUS_NO_BLACK_KING
    )


def test_exception_hierarchy():
    for error in [
        bitboards.InvalidMoveError,
        bitboards.IllegalMoveError,
        bitboards.AmbiguousMoveError,
        bitboards.InvalidFenError,
        bitboards.NotPgnError,
    ]:
        assert issubclass(error, ValueError)
    assert len({bitboards.InvalidMoveError, bitboards.IllegalMoveError, bitboards.AmbiguousMoveError}) == 3


def test_move_errors():
    board = bitboards.Board()
    py = chess.Board()
    with pytest.raises(chess.InvalidMoveError):
        py.parse_san("Qxz9")
    with pytest.raises(bitboards.InvalidMoveError):
        board.parse_san("Qxz9")
    with pytest.raises(chess.IllegalMoveError):
        py.parse_san("Nf5")
    with pytest.raises(bitboards.IllegalMoveError):
        board.parse_san("Nf5")
    with pytest.raises(bitboards.IllegalMoveError):
        board.push_san("e5")
    with pytest.raises(bitboards.IllegalMoveError):
        board.push_uci("e2e5")
    with pytest.raises(bitboards.IllegalMoveError):
        board.push(bitboards.Move.from_uci("e2e5"))
    with pytest.raises(bitboards.IllegalMoveError):
        board.parse_uci("e1e2")
    with pytest.raises(bitboards.InvalidMoveError):
        bitboards.Move.from_uci("zz")
    with pytest.raises(chess.InvalidMoveError):
        chess.Move.from_uci("zz")
    for text in ["", "e2", "e2e4e4", "i2i4", "e2e4x", "e0e4"]:
        with pytest.raises(chess.InvalidMoveError):
            chess.Move.from_uci(text)
        with pytest.raises(bitboards.InvalidMoveError):
            bitboards.Move.from_uci(text)
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()
    # Nothing was played by the failures.
    assert board.fen() == chess.STARTING_FEN
    assert board.move_stack == []


def test_ambiguous_san():
    fen = "4k3/8/8/8/8/8/8/1N1NK3 w - - 0 1"  # the knights on b1 and d1 both reach c3
    py = chess.Board(fen)
    board = bitboards.Board(fen)
    with pytest.raises(chess.AmbiguousMoveError):
        py.parse_san("Nc3")
    with pytest.raises(bitboards.AmbiguousMoveError):
        board.parse_san("Nc3")
    assert board.parse_san("Nbc3") == bitboards.Move.from_uci("b1c3")
    assert board.parse_san("Ndc3") == bitboards.Move.from_uci("d1c3")
    assert board.san(bitboards.Move.from_uci("b1c3")) == py.san(chess.Move.from_uci("b1c3")) == "Nbc3"


# --- pickle ------------------------------------------------------------------


def test_pickle_board_keeps_the_moves():
    board = bitboards.Board()
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"]:
        board.push_san(san)
    again = pickle.loads(pickle.dumps(board))
    assert again == board
    assert again.fen() == board.fen()
    assert again.move_stack == board.move_stack
    assert [m.uci() for m in again.move_stack] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"]
    assert again.pop() == bitboards.Move.from_uci("e1g1")
    assert again.root().fen() == chess.STARTING_FEN
    # From a FEN, in Chess960.
    board = bitboards.Board.from_chess960_pos(100)
    py = chess.Board.from_chess960_pos(100)
    for uci in [m.uci() for m in sorted(py.legal_moves, key=lambda m: m.uci())][:1]:
        board.push_uci(uci)
        py.push_uci(uci)
    again = pickle.loads(pickle.dumps(board))
    assert again.chess960
    assert again.fen() == py.fen()
    assert again.root().fen() == chess.Board.from_chess960_pos(100).fen()
    assert again.move_stack == board.move_stack


# --- Bitboard ----------------------------------------------------------------


def test_bitboard_diagram():
    bb = bitboards.Bitboard(chess.BB_A1 | chess.BB_H8 | chess.BB_E4)
    lines = repr(bb).strip("\n").split("\n")
    assert len(lines) == 8
    assert str(bb) == repr(bb)
    rows = [line.split() if " " in line.strip() else list(line.strip()) for line in lines]
    for row in rows:
        assert len(row) == 8 and set(row) <= {"X", "."}
    # Rank 8 on top.
    expected = [["X" if (7 - r) * 8 + f in (0, 63, 28) else "." for f in range(8)] for r in range(8)]
    assert rows == expected
    # python-chess's SquareSet prints the same diagram (with "1" for set).
    py_rows = [line.split() for line in str(chess.SquareSet(int(bb))).split("\n")]
    assert [["X" if c == "1" else "." for c in row] for row in py_rows] == rows
    assert isinstance(bb._repr_html_(), str)


def test_bitboard_set_operations():
    rng = random.Random(7)
    # SquareSet is python-chess's mutable set (Python); Bitboard the
    # immutable one Board's methods return: equal both ways.
    assert bitboards.SquareSet(bitboards.Bitboard(5)) == bitboards.Bitboard(5)
    assert bitboards.Bitboard(5) == bitboards.SquareSet(5)
    assert int(bitboards.Bitboard()) == 0
    assert len(bitboards.Bitboard()) == 0
    for _ in range(200):
        a = rng.getrandbits(64) & rng.getrandbits(64)
        b = rng.getrandbits(64)
        ours = bitboards.Bitboard(a)
        other = bitboards.Bitboard(b)
        py = chess.SquareSet(a)
        assert list(ours) == list(py)
        assert len(ours) == len(py)
        assert int(ours) == ours.mask == a
        assert ours == a and ours == bitboards.Bitboard(a)
        assert int(ours & other) == a & b == int(ours & b)
        assert int(ours | other) == a | b == int(ours | b)
        assert int(ours ^ other) == a ^ b == int(ours ^ b)
        assert int(ours - other) == a & ~b & chess.BB_ALL == int(ours - b)
        assert int(~ours) == ~a & chess.BB_ALL == int(~py)
        for sq in rng.sample(chess.SQUARES, 6):
            assert (sq in ours) == (sq in py)
        # From a list of squares.
        assert bitboards.Bitboard(list(py)) == ours
    empty = bitboards.Bitboard(0)
    full = ~empty
    assert len(full) == 64 and list(full) == list(chess.SQUARES)


def test_board_bitboards_match_squaresets():
    py = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    ours = bitboards.Board(py.fen())
    for color in chess.COLORS:
        for piece_type in chess.PIECE_TYPES:
            assert list(ours.pieces(piece_type, color)) == list(py.pieces(piece_type, color))
        for square in chess.SQUARES:
            assert list(ours.attackers(color, square)) == list(py.attackers(color, square))


# --- svg ---------------------------------------------------------------------


def test_svg():
    board = bitboards.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    svg = board.svg()
    assert isinstance(svg, str)
    assert svg.startswith("<svg")
    assert svg.rstrip().endswith("</svg>")
    assert board._repr_svg_() == svg
    assert board.svg(size=200) != svg
    assert board.svg(flipped=True) != svg
    assert bitboards.Board().svg() != svg


def test_claimable_draws_as_python_chess():
    # One half-move short of fifty moves: a quiet move makes the claim.
    fen = "8/2K4k/8/8/6p1/6P1/8/8 b - - 99 164"
    ours, theirs = bitboards.Board(fen), chess.Board(fen)
    assert ours.is_game_over(claim_draw=True) == theirs.is_game_over(claim_draw=True) is True
    assert ours.outcome(claim_draw=True).termination.name == theirs.outcome(claim_draw=True).termination.name
    assert not ours.is_game_over()
    # The move that would repeat the position a third time can be claimed.
    ours, theirs = bitboards.Board(), chess.Board()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        ours.push_san(san)
        theirs.push_san(san)
        assert ours.is_game_over(claim_draw=True) == theirs.is_game_over(claim_draw=True), san
    assert ours.outcome(claim_draw=True).termination == bitboards.Termination.THREEFOLD_REPETITION
    assert ours.outcome(claim_draw=True).termination.value == theirs.outcome(claim_draw=True).termination.value


def test_bitboard_tolist_is_a_list_of_squares():
    assert bitboards.Bitboard([bitboards.E4, bitboards.A1]).tolist() == [0, 28]
    assert list(bitboards.Bitboard(0x8000000000000001)) == [0, 63]


def test_legal_moves_are_shared_objects_equal_to_new_ones():
    board = bitboards.Board("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    first, again = list(board.legal_moves), list(board.legal_moves)
    assert all(a is b for a, b in zip(first, again))
    made = {bitboards.Move.from_uci(m.uci()) for m in first}
    assert made == set(first)
    assert {m.uci() for m in first} >= {"b7b8q", "b7b8n", "e1d1"}
    # A promotion to a piece no move makes is a move too, but not a legal one.
    pawn = bitboards.Move(bitboards.B7, bitboards.B8, promotion=bitboards.PAWN)
    assert pawn not in board.legal_moves and pawn.promotion == bitboards.PAWN
