//! What an engine asks of a position besides its moves: `null_move`,
//! `mirror` (against shakmaty 0.30's `Setup::mirror`) and `gives_check`
//! (against playing the move and asking `is_check`).

mod common;

use bitboards::Validation;
use bitboards::{CastlingNotation, Color, MoveKind, Position};
use common::random_game_positions;
use shakmaty::fen::Fen;

/// A position read back from its own FEN: every field, and a Polyglot key
/// computed from nothing.
fn reread(position: &Position) -> Position {
    let fen = position.fen().shredder().to_string();
    Position::from_fen_with(&fen, Validation::ALL_RULES.allow_impossible_check())
        .unwrap_or_else(|error| panic!("{fen}: {error}"))
}

#[test]
fn null_move_passes_the_turn() {
    let samples = random_game_positions(0x0000_4E55, 120, 80);
    let mut passed = 0;
    for sample in &samples {
        let position = &sample.position;
        let fen = position.fen().shredder().to_string();
        match position.null_move() {
            None => assert!(position.is_check(), "{fen}: None but not in check"),
            Some(after) => {
                assert!(!position.is_check(), "{fen}: passed in check");
                passed += 1;
                assert_eq!(after.side_to_move(), position.side_to_move().opponent());
                assert_eq!(after.en_passant(), None, "{fen}");
                assert_eq!(after.occupied(), position.occupied(), "{fen}");
                assert_eq!(after.castling(), position.castling(), "{fen}");
                assert_eq!(after.halfmove_clock(), position.halfmove_clock() + 1);
                let next_number =
                    position.fullmove_number() + u16::from(position.side_to_move() == Color::Black);
                assert_eq!(after.fullmove_number(), next_number, "{fen}");
                // The incremental key equals one computed from nothing.
                let fresh = reread(&after);
                assert_eq!(after.polyglot_key(), fresh.polyglot_key(), "{fen}");
                assert_eq!(after, fresh, "{fen}");
                // Passing twice gives back the pieces, rights and key of
                // the start when no en passant square was lost.
                if position.en_passant().is_none()
                    && let Some(back) = after.null_move()
                {
                    assert_eq!(back.polyglot_key(), position.polyglot_key(), "{fen}");
                }
            }
        }
    }
    assert!(passed > 8_000, "{passed}");
}

#[test]
fn null_move_drops_the_en_passant_key() {
    // After 1. e4 d5 2. e5 f5 White may take en passant: the square is
    // hashed. Passing drops it from the key.
    let position =
        Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
            .unwrap();
    let passed = position.null_move().unwrap();
    let expected =
        Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3").unwrap();
    assert_eq!(passed, expected);
    assert_eq!(passed.polyglot_key(), expected.polyglot_key());
}

#[test]
fn mirror_agrees_with_shakmaty() {
    let samples = random_game_positions(0x3133_0001, 150, 80);
    for sample in &samples {
        let position = &sample.position;
        let mirrored = position.mirror();
        let fen = position.fen().shredder().to_string();
        assert_eq!(mirrored.mirror(), *position, "{fen}");
        assert_eq!(mirrored, reread(&mirrored), "{fen}: stored key or fields");

        let mut setup = fen
            .parse::<Fen>()
            .unwrap_or_else(|error| panic!("{fen}: {error}"))
            .into_setup();
        setup.mirror();
        let theirs = Fen::try_from_setup(setup)
            .unwrap_or_else(|_| panic!("{fen}: shakmaty cannot write the mirror"))
            .to_string();
        let theirs =
            Position::from_fen_with(&theirs, Validation::ALL_RULES.allow_impossible_check())
                .unwrap_or_else(|error| panic!("{fen} mirrored by shakmaty: {theirs}: {error}"));
        assert_eq!(mirrored, theirs, "{fen}");
        assert_eq!(mirrored.legal_moves().len(), position.legal_moves().len());
        assert_eq!(mirrored.is_check(), position.is_check(), "{fen}");
    }
}

#[test]
fn gives_check_equals_playing_the_move() {
    let mut samples = random_game_positions(0x61F3_0001, 150, 80);
    samples.extend(random_game_positions(0x61F3_0002, 12, 300));
    let mut counts = [0usize; 5];
    for sample in &samples {
        let position = &sample.position;
        for &mv in &position.legal_moves() {
            let after = position.play_unchecked(mv);
            let check = after.is_check();
            let fen = position.fen().shredder().to_string();
            assert_eq!(
                position.gives_check(mv),
                check,
                "{fen}: {}",
                mv.uci(CastlingNotation::KingTakesRook)
            );
            if check {
                counts[0] += 1;
                // Discovered: the moving piece does not attack the king
                // from where it lands.
                let landed =
                    after.attackers(after.king(after.side_to_move()), position.side_to_move());
                if !landed.contains(mv.king_target()) && !mv.is_castling() {
                    counts[1] += 1;
                }
                match mv.kind() {
                    MoveKind::Castling => counts[2] += 1,
                    MoveKind::EnPassant => counts[3] += 1,
                    MoveKind::Promotion(_) => counts[4] += 1,
                    MoveKind::Normal => {}
                }
            }
        }
    }
    let [checks, discovered, castling, en_passant, promotions] = counts;
    assert!(checks > 10_000, "{checks} checks");
    assert!(discovered > 100, "{discovered} discovered checks");
    assert!(promotions > 50, "{promotions} promotions with check");
    // Random games rarely castle into check or check by en passant: the
    // hand-made positions below cover those.
    let _ = (castling, en_passant);
}

#[test]
fn gives_check_in_the_hard_cases() {
    let cases = [
        // Castling long puts the rook on d1, facing the king on d8.
        ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", true),
        // Chess960: king c1, rook b1. Long castling leaves the king on c1
        // and puts the rook on d1: the check is the rook's.
        ("3k4/8/8/8/8/8/8/1RK5 w B - 0 1", "c1b1", true),
        // En passant takes d5 and leaves e5: the rook on a5 sees h5.
        ("8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", "e5d6", true),
        // The capturing pawn leaves the a1-h8 diagonal.
        ("7k/8/8/3pP3/8/8/8/B3K3 w - d6 0 1", "e5d6", true),
        // The captured pawn leaves the a2-g8 diagonal.
        ("6k1/8/8/3pP3/8/8/B7/4K3 w - d6 0 1", "e5d6", true),
        // The queen's file is opened on d5 and closed again on d6.
        ("3k4/8/8/3pP3/8/8/8/3QK3 w - d6 0 1", "e5d6", false),
        // A knight on e8 checks the king on g7; a queen there does not.
        ("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", true),
        ("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", false),
        // The promoting pawn opens the seventh rank for the rook on a7.
        ("8/R3P2k/8/8/8/8/8/4K3 w - - 0 1", "e7e8b", true),
        // The king's own step off the a1-h8 diagonal discovers the bishop;
        // a step along it does not.
        ("7k/8/8/8/8/2K5/8/B7 w - - 0 1", "c3c2", true),
        ("7k/8/8/8/8/2K5/8/B7 w - - 0 1", "c3b2", false),
    ];
    for (fen, uci, expected) in cases {
        let position = Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"));
        let mv = position
            .parse_uci(uci)
            .unwrap_or_else(|error| panic!("{fen} {uci}: {error}"));
        assert_eq!(
            position.play_unchecked(mv).is_check(),
            expected,
            "{fen} {uci}: fixture"
        );
        assert_eq!(position.gives_check(mv), expected, "{fen} {uci}");
    }
}
