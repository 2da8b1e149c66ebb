//! Games and outcomes: the moves and keys a `Game` keeps, repetition
//! counting, and the order in which `outcome` asks the rules.

use bitboards::{Color, Game, Outcome, Position};

fn game_from(fen: &str) -> Game {
    Game::new(Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}")))
}

fn play(game: &mut Game, sans: &str) {
    for san in sans.split_whitespace() {
        game.play_san(san)
            .unwrap_or_else(|error| panic!("{san}: {error}"));
    }
}

#[test]
fn repetition_counts_the_same_side_to_move_only() {
    let mut game = Game::default();
    assert!(game.is_repetition(1));
    assert!(!game.is_repetition(2));
    play(&mut game, "Nf3 Nf6 Ng1 Ng8");
    assert!(game.is_repetition(2));
    assert!(!game.is_repetition(3));
    assert_eq!(game.outcome(), None);
    play(&mut game, "Nf3 Nf6 Ng1 Ng8");
    assert!(game.is_repetition(3));
    assert_eq!(game.outcome(), Some(Outcome::ThreefoldRepetition));
    // One more knight move: the position after 1. Nf3 and 3. Nf3 comes a
    // third time.
    play(&mut game, "Nf3");
    assert!(game.is_repetition(3));
    play(&mut game, "Nf6 Ng1 Ng8");
    assert!(game.is_repetition(4));
    assert_eq!(game.outcome(), Some(Outcome::ThreefoldRepetition));
    play(&mut game, "Nf3 Nf6 Ng1 Ng8");
    assert!(game.is_repetition(5));
    assert_eq!(game.outcome(), Some(Outcome::FivefoldRepetition));
    assert_eq!(game.moves().len(), 16);
}

#[test]
fn counting_starts_again_after_a_pawn_move() {
    let mut game = Game::default();
    play(&mut game, "Nf3 Nf6 Ng1 Ng8 e4 e5 Nf3 Nf6 Ng1 Ng8");
    assert!(game.is_repetition(2));
    assert!(!game.is_repetition(3));
    // Kings that step out and back lose the castling rights: the first
    // return is a new position, the second repeats it.
    play(&mut game, "Ke2 Ke7 Ke1 Ke8");
    assert!(!game.is_repetition(2));
    play(&mut game, "Ke2 Ke7 Ke1 Ke8");
    assert!(game.is_repetition(2));
}

#[test]
fn castling_rights_make_positions_differ() {
    // The rooks return, but the rights are gone: a different position.
    let mut game = game_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut game, "Rb1 Rb8 Ra1 Ra8");
    assert!(!game.is_repetition(2));
    play(&mut game, "Rb1 Rb8 Ra1 Ra8");
    assert!(game.is_repetition(2));
}

#[test]
fn outcome_applies_the_rules_in_order() {
    // Checkmate beats the 75-move rule on the same move.
    let mut game = game_from("7k/8/6K1/8/8/8/8/R7 w - - 149 100");
    play(&mut game, "Ra8#");
    assert_eq!(game.position().halfmove_clock(), 150);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );

    // Stalemate.
    let game = game_from("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(game.outcome(), Some(Outcome::Stalemate));

    // Stalemate comes before insufficient material: king and bishop
    // against a king with no move.
    let game = game_from("k7/2K5/1B6/8/8/8/8/8 b - - 0 1");
    assert_eq!(game.outcome(), Some(Outcome::Stalemate));

    // Insufficient material before the move counters.
    let game = game_from("4k3/8/8/8/8/8/8/4KN2 b - - 160 200");
    assert_eq!(game.outcome(), Some(Outcome::InsufficientMaterial));

    // Seventy-five moves before fivefold repetition and the fifty-move
    // claim.
    let game = game_from("4k3/8/8/8/8/8/8/R3K3 b - - 150 200");
    assert_eq!(game.outcome(), Some(Outcome::SeventyFiveMoves));

    // The fifty-move claim before the threefold claim.
    let mut game = game_from("4k3/8/8/8/8/8/8/R3K3 w - - 92 100");
    play(&mut game, "Kd1 Kd8 Ke1 Ke8 Kd1 Kd8 Ke1 Ke8");
    assert_eq!(game.position().halfmove_clock(), 100);
    assert!(game.is_repetition(3));
    assert_eq!(game.outcome(), Some(Outcome::FiftyMoves));
    let mut game = game_from("4k3/8/8/8/8/8/8/R3K3 w - - 91 100");
    play(&mut game, "Kd1 Kd8 Ke1 Ke8 Kd1 Kd8 Ke1 Ke8");
    assert_eq!(game.outcome(), Some(Outcome::ThreefoldRepetition));

    // Fivefold before the fifty-move claim.
    let mut game = game_from("4k3/8/8/8/8/8/8/R3K3 w - - 84 100");
    play(
        &mut game,
        "Kd1 Kd8 Ke1 Ke8 Kd1 Kd8 Ke1 Ke8 Kd1 Kd8 Ke1 Ke8 Kd1 Kd8 Ke1 Ke8",
    );
    assert_eq!(game.position().halfmove_clock(), 100);
    assert_eq!(game.outcome(), Some(Outcome::FivefoldRepetition));
}

#[test]
fn outcomes_name_themselves() {
    let all = [
        (
            Outcome::Checkmate {
                winner: Color::White,
            },
            "checkmate",
            "1-0",
            false,
        ),
        (
            Outcome::Checkmate {
                winner: Color::Black,
            },
            "checkmate",
            "0-1",
            false,
        ),
        (Outcome::Stalemate, "stalemate", "1/2-1/2", false),
        (
            Outcome::InsufficientMaterial,
            "insufficient_material",
            "1/2-1/2",
            false,
        ),
        (
            Outcome::SeventyFiveMoves,
            "seventyfive_moves",
            "1/2-1/2",
            false,
        ),
        (
            Outcome::FivefoldRepetition,
            "fivefold_repetition",
            "1/2-1/2",
            false,
        ),
        (Outcome::FiftyMoves, "fifty_moves", "1/2-1/2", true),
        (
            Outcome::ThreefoldRepetition,
            "threefold_repetition",
            "1/2-1/2",
            true,
        ),
    ];
    for (outcome, name, result, claim) in all {
        assert_eq!(outcome.name(), name);
        assert_eq!(outcome.result(), result);
        assert_eq!(outcome.is_claim(), claim, "{name}");
        assert!(!outcome.to_string().is_empty());
    }
    assert_eq!(
        Outcome::Checkmate {
            winner: Color::Black
        }
        .to_string(),
        "checkmate, Black wins"
    );
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut game = Game::default();
    let before = game.clone();
    assert!(game.play_san("Nf4").is_err());
    let e5 = bitboards::Move::new(
        bitboards::Square::E2,
        bitboards::Square::E5,
        bitboards::MoveKind::Normal,
    );
    assert!(game.play(e5).is_err());
    assert_eq!(game, before);
}
