//! Hand-built positions for the rules a move generator gets wrong: checks
//! and pins, en passant that uncovers the king, castling through attacked
//! squares, Chess960 castling with the king or rook already home or the rook
//! shielding the king, promotions with capture, and the ends of the game.

use bitboards::{Bitboard, Move, MoveKind, MoveList, PieceKind, Position, Square, bitboard, perft};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

/// The legal moves as UCI text, castling as king takes rook, sorted.
fn moves(position: &Position) -> Vec<String> {
    let mut moves: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|mv| {
            mv.uci(bitboards::CastlingNotation::KingTakesRook)
                .to_string()
        })
        .collect();
    moves.sort();
    moves
}

fn has(position: &Position, uci: &str) -> bool {
    moves(position).iter().any(|mv| mv == uci)
}

#[test]
fn sizes_are_pinned() {
    // A position is copied at every node of a search: its size matters.
    // Six kind boards, two colour boards, the kings, the castling files,
    // en passant, side, clocks and the Polyglot key; no mailbox (measured:
    // its 64 bytes made every copy-make slower than the bit tests that
    // replace it).
    assert_eq!(size_of::<Position>(), 88);
    assert_eq!(size_of::<Move>(), 2);
    assert_eq!(
        size_of::<MoveList>(),
        2 * bitboards::MAX_MOVES + size_of::<usize>()
    );
}

#[test]
fn pins_along_files_and_diagonals() {
    // 8 . . . . r . k .     The white king on e1 has three of its pieces
    // 7 . . . . . . . .     pinned: the knight on e3 (rook e8), the bishop
    // 6 . . . . . . . .     on c3 (bishop a5) and the rook on f2 (queen
    // 5 b . . . . . . .     h4). On the first rank two white pieces stand
    // 4 . . . . . . . q     between the a1 rook and the king, and a black
    // 3 . . B . N . . .     knight shares the h1 rook's line with the f1
    // 2 . . . . . R . .     bishop: none of those is pinned.
    // 1 r N B . K B n r
    //   a b c d e f g h
    let position = position("4r1k1/8/8/b7/7q/2B1N3/5R2/rNB1KBnr w - - 0 1");
    assert!(position.checkers().is_empty());
    assert!(!position.is_check());
    assert_eq!(
        position.pinned(),
        bitboard! {
            8 . . . . . . . .
            7 . . . . . . . .
            6 . . . . . . . .
            5 . . . . . . . .
            4 . . . . . . . .
            3 . . X . X . . .
            2 . . . . . X . .
            1 . . . . . . . .
              a b c d e f g h
        }
    );
    let legal = moves(&position);
    let from = |square: &str| -> Vec<&str> {
        legal
            .iter()
            .filter(|mv| mv.starts_with(square))
            .map(String::as_str)
            .collect()
    };
    // A pinned knight never stays on its line; a rook pinned on a diagonal
    // cannot move along it; a pinned bishop slides up to taking its pinner.
    assert_eq!(from("e3"), Vec::<&str>::new());
    assert_eq!(from("f2"), Vec::<&str>::new());
    assert_eq!(from("c3"), ["c3a5", "c3b4", "c3d2"]);
    // The unpinned pieces move freely.
    assert_eq!(from("b1"), ["b1a3", "b1d2"]);
    assert!(from("f1").contains(&"f1h3"));
    assert!(from("c1").contains(&"c1d2"));
}

#[test]
fn checkers_of_every_kind() {
    for (fen, checkers) in [
        // Pawn.
        ("4k3/3P4/8/8/8/8/8/4K3 b - - 0 1", Square::D7.bitboard()),
        // Knight.
        ("4k3/8/5N2/8/8/8/8/4K3 b - - 0 1", Square::F6.bitboard()),
        // Rook and knight: a discovered double check.
        (
            "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1",
            Square::D6.bitboard() | Square::E1.bitboard(),
        ),
        // Bishop and rook: a double check after a discovery.
        (
            "4k3/8/8/7B/8/8/8/K3R3 b - - 0 1",
            Square::H5.bitboard() | Square::E1.bitboard(),
        ),
        // None: the queen's line is blocked.
        ("4k3/4p3/8/8/8/8/8/K3Q3 b - - 0 1", Bitboard::EMPTY),
    ] {
        let position = position(fen);
        assert_eq!(position.checkers(), checkers, "{fen}");
        assert_eq!(position.is_check(), !checkers.is_empty(), "{fen}");
        if checkers.count() == 2 {
            // Only the king answers a double check.
            let king = position.king(position.side_to_move());
            assert!(
                position.legal_moves().iter().all(|mv| mv.from() == king),
                "{fen}"
            );
        }
    }
}

#[test]
fn en_passant_that_uncovers_the_king_along_the_rank_is_illegal() {
    // 5 K . p P . . . r     d5xc6 would lift both pawns off the fifth
    //   a b c d e f g h     rank and open it to the rook.
    let position = position("8/8/8/K1pP3r/8/8/8/7k w - c6 0 1");
    assert_eq!(position.en_passant(), Some(Square::C6));
    assert!(position.pinned().is_empty(), "no single piece is pinned");
    assert!(!has(&position, "d5c6"));
    let capture = Move::new(Square::D5, Square::C6, MoveKind::EnPassant);
    assert!(!position.is_legal(capture));
    assert!(position.parse_uci("d5c6").is_err());
    // The push is legal: only one pawn leaves the rank.
    assert!(has(&position, "d5d6"));
    // Without the rook, the capture is legal.
    let open = self::position("8/8/8/K1pP4/8/8/8/7k w - c6 0 1");
    assert!(open.is_legal(capture));
    assert_eq!(
        open.play_unchecked(capture).fen().to_string(),
        "8/8/2P5/K7/8/8/8/7k b - - 0 1"
    );

    // The same for Black, the pawns the other way round and a queen.
    let position = self::position("8/8/8/8/k2Pp2Q/8/8/7K b - d3 0 1");
    assert!(!has(&position, "e4d3"));
    assert!(has(&position, "e4e3"));
}

#[test]
fn en_passant_along_a_diagonal() {
    // The capturing pawn pinned on a diagonal (bishop h8, king b2).
    let pinned = position("k6b/8/8/3pP3/8/8/1K6/8 w - d6 0 1");
    assert_eq!(pinned.pinned(), Square::E5.bitboard());
    assert!(!moves(&pinned).iter().any(|mv| mv.starts_with("e5")));
    // The captured pawn shielding the king (bishop g8, king b3): taking it
    // opens the diagonal, and the capturer lands off it.
    let shield = position("6b1/8/8/3pP3/8/1K6/8/7k w - d6 0 1");
    assert!(shield.pinned().is_empty());
    assert!(!has(&shield, "e5d6"));
    assert!(has(&shield, "e5e6"));
}

#[test]
fn en_passant_takes_the_double_pushed_checker() {
    // White's d2-d4 checks the king on c5; e4xd3 takes the checker.
    let position = position("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert_eq!(position.checkers(), Square::D4.bitboard());
    assert!(has(&position, "e4d3"));
    // The plain push does not answer the check.
    assert!(!has(&position, "e4e3"));
    let after = position.play_unchecked(Move::new(Square::E4, Square::D3, MoveKind::EnPassant));
    assert_eq!(after.fen().to_string(), "8/8/8/2k5/8/3p4/8/4K3 w - - 0 2");
    assert!(!after.is_check());
}

#[test]
fn castling_never_crosses_or_reaches_an_attacked_square() {
    let cases = [
        // Nothing attacked: both sides.
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true, true),
        // f1 attacked (bishop a6): no king side.
        ("r3k2r/8/b7/8/8/8/8/R3K2R w KQkq - 0 1", false, true),
        // g1 attacked (bishop c5): the king may not land in check.
        ("r3k2r/8/8/2b5/8/8/8/R3K2R w KQkq - 0 1", false, true),
        // d1 attacked (rook d8 over an open file).
        ("3rk2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", true, false),
        // b1 attacked (bishop e4): only the rook crosses it, so allowed.
        ("r3k2r/8/8/8/4b3/8/8/R3K2R w KQkq - 0 1", true, true),
        // In check (queen e5): neither.
        ("r3k2r/8/8/4q3/8/8/8/R3K2R w KQkq - 0 1", false, false),
        // b1 occupied: the rook cannot pass.
        ("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", true, false),
    ];
    for (fen, king_side, queen_side) in cases {
        let position = position(fen);
        assert_eq!(has(&position, "e1h1"), king_side, "{fen}: king side");
        assert_eq!(has(&position, "e1a1"), queen_side, "{fen}: queen side");
    }
}

#[test]
fn chess960_castling_with_the_king_or_rook_already_home() {
    // King on g1, its castling square: king-side castling moves only the
    // rook, and the attacked f1 is no obstacle, since the king crosses
    // nothing. Queen side the king crosses f1, so no.
    let king_home = position("1r4k1/5r2/8/8/8/8/8/1R4KR w HB - 0 1");
    assert!(has(&king_home, "g1h1"));
    assert!(!has(&king_home, "g1b1"));
    assert_eq!(
        king_home
            .play_unchecked(Move::new(Square::G1, Square::H1, MoveKind::Castling))
            .fen()
            .to_string(),
        "1r4k1/5r2/8/8/8/8/8/1R3RK1 b - - 1 1"
    );
    // With f1 taken, the rook has nowhere to go.
    let blocked = position("1r4k1/8/8/8/8/8/8/1R3NKR w HB - 0 1");
    assert!(!has(&blocked, "g1h1"));

    // Rook on f1, its castling square: the king goes to g1 as usual, and
    // not into an attack.
    let rook_home = position("4k3/8/8/8/8/8/8/4KR2 w F - 0 1");
    assert!(has(&rook_home, "e1f1"));
    let attacked = position("4k1r1/8/8/8/8/8/8/4KR2 w F - 0 1");
    assert!(!has(&attacked, "e1f1"));

    // King c1, rook a1: the king stays, the rook jumps over b1 to d1.
    let queen_side = position("4k3/8/8/8/8/8/8/R1K5 w A - 0 1");
    assert!(has(&queen_side, "c1a1"));
    assert_eq!(
        queen_side
            .play_unchecked(Move::new(Square::C1, Square::A1, MoveKind::Castling))
            .fen()
            .to_string(),
        "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"
    );
}

#[test]
fn chess960_castling_rook_shielding_the_king_on_the_back_rank() {
    // q R K . . . . .   The castling rook on b1 is all that stands between
    // the queen on a1 and the king on c1. Queen-side castling leaves the
    // king on c1 and takes the rook to d1: the king would be in check.
    let position = position("4k3/8/8/8/8/8/8/qRK5 w B - 0 1");
    assert_eq!(position.pinned(), Square::B1.bitboard());
    assert!(!has(&position, "c1b1"));
    let rook: Vec<String> = moves(&position)
        .into_iter()
        .filter(|mv| mv.starts_with("b1"))
        .collect();
    assert_eq!(rook, ["b1a1"]);

    // King side: K R r, castling would put the king on g1 beside the rook.
    let king_side = self::position("4k3/8/8/8/8/8/8/5KRr w G - 0 1");
    assert!(!has(&king_side, "f1g1"));
}

#[test]
fn promotion_with_capture_answers_a_check() {
    // The rook on h8 checks along the h-file; only taking it with the g7
    // pawn (four ways) or stepping aside answers. Pushing to g8 does not.
    let position = position("4k2r/6P1/8/8/8/8/8/7K w - - 0 1");
    assert_eq!(
        moves(&position),
        ["g7h8b", "g7h8n", "g7h8q", "g7h8r", "h1g1", "h1g2"]
    );
    let knight = position.play_unchecked(Move::new(
        Square::G7,
        Square::H8,
        MoveKind::Promotion(PieceKind::Knight),
    ));
    assert_eq!(knight.fen().to_string(), "4k2N/8/8/8/8/8/8/7K b - - 0 1");
    assert_eq!(knight.halfmove_clock(), 0);
    assert!(!knight.is_check());
    let queen = position.play_unchecked(Move::new(
        Square::G7,
        Square::H8,
        MoveKind::Promotion(PieceKind::Queen),
    ));
    assert!(queen.is_check());
    assert_eq!(perft(&position, 1), 6);
}

#[test]
fn mates_and_stalemates() {
    for (fen, check, mate, stalemate) in [
        // Back-rank mate.
        ("3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", true, true, false),
        // Smothered mate.
        ("6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", true, true, false),
        // Double check (rook e1, bishop h5), every flight covered: mate,
        // though the knight could take the bishop if it checked alone.
        ("3rkr2/3p4/8/7B/5n2/8/8/K3R3 b - - 0 1", true, true, false),
        // Check with an escape.
        ("3R2k1/5pp1/8/8/8/8/8/6K1 b - - 0 1", true, false, false),
        // Stalemate: queen f7, king g6.
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false, false, true),
        // Stalemate with a pawn that cannot move.
        ("8/8/8/8/8/p7/P1K5/kB6 b - - 0 1", false, false, true),
        // Not stalemate: the king takes the unguarded pawn.
        ("8/8/8/8/8/p7/P7/k1K5 b - - 0 1", false, false, false),
        ("k7/P7/1K6/8/8/8/8/8 b - - 0 1", false, false, true),
        // Neither.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            false,
            false,
            false,
        ),
    ] {
        let position = position(fen);
        assert_eq!(position.is_check(), check, "{fen}: check");
        assert_eq!(position.is_checkmate(), mate, "{fen}: mate");
        assert_eq!(position.is_stalemate(), stalemate, "{fen}: stalemate");
        assert_eq!(
            position.count_legal_moves() == 0,
            mate || stalemate,
            "{fen}: no moves"
        );
        assert_eq!(position.has_legal_moves(), !(mate || stalemate), "{fen}");
    }
}

#[test]
fn draws_by_rule() {
    // The fifty-move rule: at a hundred half-moves, not before.
    assert!(!position("4k3/8/8/8/8/8/8/4KR2 w - - 99 70").is_fifty_move_draw());
    let claimable = position("4k3/8/8/8/8/8/8/4KR2 w - - 100 70");
    assert!(claimable.is_fifty_move_draw());
    // A capture or a pawn move resets the clock; any other move counts on.
    let after = claimable.play_unchecked(claimable.parse_uci("f1f2").expect("a rook move"));
    assert_eq!(after.halfmove_clock(), 101);
    let pawn = position("4k3/8/8/8/8/8/4P3/4K3 w - - 100 70");
    assert_eq!(
        pawn.play_unchecked(pawn.parse_uci("e2e4").expect("a push"))
            .halfmove_clock(),
        0
    );
    // Mate on the hundredth half-move is still mate.
    let mate = position("3R2k1/5ppp/8/8/8/8/8/6K1 b - - 100 80");
    assert!(mate.is_checkmate() && mate.is_fifty_move_draw());

    for (fen, insufficient) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KB2 b - - 0 1", true),
        ("4kn2/8/8/8/8/8/8/4K3 w - - 0 1", true),
        // Bishops all on dark squares (f8, e1, c3), both sides.
        ("4kb2/8/8/8/8/2B5/8/3KB3 w - - 0 1", true),
        // A light and a dark bishop: a mate can be helped.
        ("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", false),
        // Knight against bishop, two knights, knight and bishop.
        ("4kb2/8/8/8/8/8/8/4KN2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/3BKN2 w - - 0 1", false),
        // Any pawn, rook or queen.
        ("4k3/8/8/8/8/8/7P/4K3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/3qK3 w - - 0 1", false),
    ] {
        assert_eq!(
            position(fen).is_insufficient_material(),
            insufficient,
            "{fen}"
        );
    }
}
