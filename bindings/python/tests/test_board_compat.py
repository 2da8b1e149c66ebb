"""Board's python-chess methods beyond the everyday ones, against
python-chess on random positions of random games: pseudo-legal and masked
move generation, attacks, pins, castling rights, draw claims, notations
(LAN, variations, XBoard), EPD with operations, null moves, drops."""

import random

import pytest

import bitboards

chess = pytest.importorskip("chess")


def random_boards(count, seed, plies=80):
    """Pairs (ours, python-chess's) along random games."""
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        ours, theirs = bitboards.Board(), chess.Board()
        for _ in range(rng.randrange(plies)):
            moves = list(theirs.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            theirs.push(move)
            ours.push(bitboards.Move.from_uci(move.uci()))
        pairs.append((ours, theirs))
    return pairs


def ucis(moves):
    return sorted(move.uci() for move in moves)


@pytest.mark.parametrize("seed", range(4))
def test_move_generation_with_masks(seed):
    rng = random.Random(seed)
    for ours, theirs in random_boards(60, seed):
        assert ucis(ours.pseudo_legal_moves) == ucis(theirs.pseudo_legal_moves), theirs.fen()
        assert len(ours.pseudo_legal_moves) == theirs.pseudo_legal_moves.count()
        for _ in range(3):
            from_mask, to_mask = rng.getrandbits(64), rng.getrandbits(64)
            for name in ("generate_legal_moves", "generate_pseudo_legal_moves", "generate_legal_captures",
                         "generate_pseudo_legal_captures", "generate_castling_moves", "generate_legal_ep",
                         "generate_pseudo_legal_ep"):
                assert ucis(getattr(ours, name)(from_mask, to_mask)) == ucis(getattr(theirs, name)(from_mask, to_mask)), (name, theirs.fen())
        for move in theirs.pseudo_legal_moves:
            assert ours.is_pseudo_legal(bitboards.Move.from_uci(move.uci()))
        assert ours.has_pseudo_legal_en_passant() == theirs.has_pseudo_legal_en_passant()
        assert ours.has_legal_en_passant() == theirs.has_legal_en_passant()


@pytest.mark.parametrize("seed", range(2))
def test_attacks_pins_and_rights(seed):
    for ours, theirs in random_boards(80, 10 + seed):
        for square in range(64):
            assert ours.attacks_mask(square) == theirs.attacks_mask(square)
            for color in (True, False):
                assert ours.pin_mask(color, square) == theirs.pin_mask(color, square), (theirs.fen(), square)
                assert ours.is_pinned(color, square) == theirs.is_pinned(color, square)
        assert int(ours.checkers()) == int(theirs.checkers())
        for name in ("pawns", "knights", "bishops", "rooks", "queens", "kings"):
            assert getattr(ours, name) == getattr(theirs, name)
        for color in (True, False):
            assert ours.has_castling_rights(color) == theirs.has_castling_rights(color)
            assert ours.has_kingside_castling_rights(color) == theirs.has_kingside_castling_rights(color)
            assert ours.has_queenside_castling_rights(color) == theirs.has_queenside_castling_rights(color)
            assert ours.has_insufficient_material(color) == theirs.has_insufficient_material(color)
        assert ours.clean_castling_rights() == theirs.clean_castling_rights()
        assert ours.shredder_fen() == theirs.shredder_fen()
        for spec in ("legal", "xfen"):
            assert ours.fen(en_passant=spec) == theirs.fen(en_passant=spec)
        assert ours.result() == theirs.result()
        assert ours.can_claim_draw() == theirs.can_claim_draw()
        assert ours.unicode() == theirs.unicode()
        assert ours.unicode(borders=True, invert_color=True, orientation=False) == \
            theirs.unicode(borders=True, invert_color=True, orientation=False)


def test_notations():
    for ours, theirs in random_boards(80, 20):
        line = []
        probe = theirs.copy()
        for _ in range(6):
            moves = list(probe.legal_moves)
            if not moves:
                break
            line.append(moves[len(moves) // 2])
            probe.push(line[-1])
        our_line = [bitboards.Move.from_uci(move.uci()) for move in line]
        assert ours.variation_san(our_line) == theirs.variation_san(line)
        for move in theirs.legal_moves:
            our_move = bitboards.Move.from_uci(move.uci())
            assert ours.lan(our_move) == theirs.lan(move)
            assert ours.xboard(our_move) == theirs.xboard(move)
            assert ours.parse_xboard(theirs.xboard(move)) == our_move
            assert ours.is_irreversible(our_move) == theirs.is_irreversible(move), (theirs.fen(), move)
            assert ours.is_zeroing(our_move) == theirs.is_zeroing(move)
            found = ours.find_move(move.from_square, move.to_square, move.promotion)
            assert found.uci() == theirs.find_move(move.from_square, move.to_square, move.promotion).uci()
    board = bitboards.Board()
    with pytest.raises(bitboards.IllegalMoveError):
        board.variation_san([bitboards.Move.from_uci("e2e4"), bitboards.Move.from_uci("e2e4")])
    with pytest.raises(bitboards.IllegalMoveError):
        board.find_move(bitboards.E2, bitboards.E5)


def test_epd_round_trip_with_operations():
    for ours, theirs in random_boards(40, 30):
        moves = list(theirs.legal_moves)
        if not moves:
            continue
        best = moves[0]
        operations = {"bm": [best], "id": 'a "quoted" id', "acd": 12, "ce": 0.5, "c0": None}
        text = theirs.epd(**operations)
        assert ours.epd(bm=[bitboards.Move.from_uci(best.uci())], id='a "quoted" id', acd=12, ce=0.5, c0=None) == text
        board, ops = bitboards.Board.from_epd(text + " hmvc 7; fmvn 20;")
        their_board, their_ops = chess.Board.from_epd(text + " hmvc 7; fmvn 20;")
        assert board.fen() == their_board.fen()
        assert {key: value for key, value in ops.items() if key != "bm"} == \
            {key: value for key, value in their_ops.items() if key != "bm"}
        assert [move.uci() for move in ops["bm"]] == [move.uci() for move in their_ops["bm"]]
    with pytest.raises(ValueError):
        bitboards.Board().set_epd(bitboards.Board().fen())


def test_null_moves_and_drops():
    board = bitboards.Board("rnbqkbnr/ppp1pppp/8/2Pp4/8/8/PP1PPPPP/RNBQKBNR w KQkq d6 0 2")
    assert board.push_san("--") == bitboards.Move.null()
    assert board.fen() == "rnbqkbnr/ppp1pppp/8/2Pp4/8/8/PP1PPPPP/RNBQKBNR b KQkq - 1 2"
    assert board.pop() == bitboards.Move.null()
    check = bitboards.Board("4k3/8/8/8/8/8/8/R3K2r w - - 0 1")
    with pytest.raises(bitboards.IllegalMoveError):
        check.push(bitboards.Move.null())
    drop = bitboards.Move.from_uci("N@f3")
    assert (drop.drop, drop.to_square, drop.uci(), drop.xboard()) == (bitboards.KNIGHT, bitboards.F3, "N@f3", "N@f3")
    assert not bitboards.Board().is_legal(drop)
    assert not bitboards.Board("8/6P1/8/8/8/8/8/K6k w - - 0 1").is_legal(bitboards.Move.from_uci("g7g8p"))
    assert {hash(bitboards.Piece(kind, color)) for kind in range(1, 7) for color in (True, False)} == set(range(12))


def test_castling_rights_set_as_python_chess_cleans_them():
    rng = random.Random(40)
    fens = [
        "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
        "rnbqkbnr/5p2/1pp3pp/p2P4/6P1/2NPpN2/PPP1Q1BP/R3K2R w Qq - 0 11",
        "rkbqrbnn/pppppppp/8/8/8/8/PPPPPPPP/RKBQRBNN w - - 0 1",
        "r1k1r3/8/8/8/8/8/8/R2K2R1 b - - 0 1",
    ]
    for fen in fens:
        for _ in range(20):
            ours, theirs = bitboards.Board(fen), chess.Board(fen)
            mask = theirs.rooks & rng.getrandbits(64) | rng.getrandbits(64) & bitboards.BB_BACKRANKS
            ours.castling_rights = mask
            theirs.castling_rights = mask
            assert ours.fen() == theirs.fen(), (fen, hex(mask))
            assert ours.clean_castling_rights() == theirs.clean_castling_rights()
        for field in ("KQkq", "kq", "-", "Q"):
            ours, theirs = bitboards.Board(fen), chess.Board(fen)
            ours.set_castling_fen(field)
            theirs.set_castling_fen(field)
            assert ours.fen() == theirs.fen(), (fen, field)


def test_every_chess960_start_position():
    board = bitboards.Board()
    for number in range(960):
        board.set_chess960_pos(number)
        assert board.board_fen() == chess.Board.from_chess960_pos(number).board_fen()
        assert board.chess960_pos() == number
    assert bitboards.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").chess960_pos() is None


def compare_setups(ours, theirs):
    """What a setup answers, valid or not, ours against python-chess's; its
    moves too, but for castling where the setup is not valid (bitboards
    generates none there) and pawns on a back rank (which python-chess
    moves off the board)."""
    assert ours.fen() == theirs.fen()
    for rule in ("legal", "xfen", "fen"):
        assert ours.fen(en_passant=rule) == theirs.fen(en_passant=rule), rule
    assert ours.status() == theirs.status(), theirs.fen()
    assert ours.is_valid() == theirs.is_valid()
    assert ours.castling_rights == theirs.castling_rights
    assert ours.clean_castling_rights() == theirs.clean_castling_rights()
    assert ours.ep_square == theirs.ep_square
    assert ours.promoted == theirs.promoted
    for color in chess.COLORS:
        assert ours.king(color) == theirs.king(color)
    assert ours.is_check() == theirs.is_check()
    assert int(ours.checkers()) == int(theirs.checkers())
    if theirs.status() & chess.STATUS_PAWNS_ON_BACKRANK:
        return
    valid = theirs.is_valid()

    def moves(board, generator):
        return sorted(m.uci() for m in generator if valid or not board.is_castling(m))

    assert moves(ours, ours.legal_moves) == moves(theirs, theirs.legal_moves), theirs.fen()
    assert moves(ours, ours.pseudo_legal_moves) == moves(theirs, theirs.pseudo_legal_moves), theirs.fen()
    for move in ours.legal_moves:
        if valid or not ours.is_castling(move):
            assert ours.san(move) == theirs.san(move), (theirs.fen(), move)
            assert ours.gives_check(move) == theirs.gives_check(move)


def test_pieces_set_and_removed_as_python_chess_does():
    rng = random.Random(50)
    symbols = "PNBRQpnbrq"
    valid = invalid = 0
    for ours, theirs in random_boards(60, 60):
        assert {sq: p.symbol() for sq, p in ours.piece_map().items()} == \
            {sq: p.symbol() for sq, p in theirs.piece_map().items()}
        assert {sq: p.symbol() for sq, p in ours.piece_map(mask=bitboards.BB_RANK_2).items()} == \
            {sq: p.symbol() for sq, p in theirs.piece_map(mask=chess.BB_RANK_2).items()}
        for _ in range(4):
            square = rng.randrange(64)
            symbol = rng.choice(symbols + "-")
            before = ours.fen()
            if symbol == "-":
                theirs.remove_piece_at(square)
                action = lambda: ours.remove_piece_at(square)  # noqa: E731
            else:
                theirs.set_piece_at(square, chess.Piece.from_symbol(symbol))
                action = lambda: ours.set_piece_at(square, bitboards.Piece.from_symbol(symbol))  # noqa: E731
            # Whatever the result, valid or not, both hold it and say the same.
            action()
            compare_setups(ours, theirs)
            assert ours.move_stack == []
            # And play on from it the same, a move and back.
            playable = [m for m in ours.legal_moves if not ours.is_castling(m)]
            if playable and not theirs.status() & chess.STATUS_PAWNS_ON_BACKRANK:
                move = rng.choice(playable)
                assert ours.san(move) == theirs.san(chess.Move.from_uci(move.uci()))
                ours.push(move)
                theirs.push(chess.Move.from_uci(move.uci()))
                compare_setups(ours, theirs)
                ours.pop()
                theirs.pop()
                compare_setups(ours, theirs)
            if theirs.is_valid():
                valid += 1
            else:
                invalid += 1
            if theirs.status() & chess.STATUS_PAWNS_ON_BACKRANK:
                theirs.set_fen(before)
                ours.set_fen(before)
    assert valid > 50 and invalid > 50
    board = bitboards.Board()
    board.set_board_fen("4k3/8/8/8/8/8/8/R3K2R")
    assert board.fen() == "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    board.set_piece_map({bitboards.E1: bitboards.Piece.from_symbol("K"), bitboards.E8: bitboards.Piece.from_symbol("k")})
    assert board.fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    board.set_board_fen("8/8/8/8/8/8/8/8")
    assert board.status() & bitboards.STATUS_EMPTY
    with pytest.raises(ValueError):
        board.set_board_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")


def test_the_attack_tables_are_python_chess_s():
    # Every BB_ table python-chess has, the sliders' occupancy dicts too.
    names = sorted(name for name in dir(chess) if name.startswith("BB_"))
    assert "BB_DIAG_ATTACKS" in names and "BB_RANK_MASKS" in names
    for name in names:
        assert getattr(bitboards, name) == getattr(chess, name), name
    for a in chess.SQUARES:
        for b in chess.SQUARES:
            assert bitboards.ray(a, b) == chess.ray(a, b)
            assert bitboards.between(a, b) == chess.between(a, b)
