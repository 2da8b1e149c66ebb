//! Serde round trips for moves, positions and outcomes, through JSON (a
//! readable format) and serde_test's compact tokens (a binary one). Built
//! with feature `serde`, which `cargo test --workspace` turns on (the
//! test-support crate asks for it).
#![cfg(feature = "serde")]

mod common;

use bitboards::{CastlingNotation, Color, Move, MoveKind, Outcome, Position};
use common::random_game_positions;
use serde_test::{Configure, Token, assert_tokens};

#[test]
fn every_legal_move_round_trips() {
    let samples = random_game_positions(0x5E2D_0001, 60, 60);
    let (mut castles, mut en_passant) = (0, 0);
    for sample in &samples {
        for &mv in &sample.position.legal_moves() {
            let json = serde_json::to_string(&mv).unwrap();
            assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), mv, "{json}");
            // The text is UCI (king takes rook), tagged for the two kinds
            // UCI cannot tell apart.
            let uci = mv.uci(CastlingNotation::KingTakesRook).to_string();
            let expected = match mv.kind() {
                MoveKind::Castling => {
                    castles += 1;
                    format!("\"{uci}:castling\"")
                }
                MoveKind::EnPassant => {
                    en_passant += 1;
                    format!("\"{uci}:en_passant\"")
                }
                _ => format!("\"{uci}\""),
            };
            assert_eq!(json, expected);
            // Binary formats: the 16 bits.
            assert_tokens(&mv.compact(), &[Token::U16(mv.to_bits())]);
        }
    }
    assert!(castles > 20 && en_passant > 5, "{castles} {en_passant}");
}

#[test]
fn bad_moves_are_errors() {
    for text in [
        "",
        "e2",
        "e2e9",
        "e2e4k",
        "e7e8q:castling",
        "e1h1:castle",
        "é2e4",
    ] {
        let json = serde_json::to_string(text).unwrap();
        assert!(serde_json::from_str::<Move>(&json).is_err(), "{text}");
    }
}

#[test]
fn positions_are_fens_checked_when_read() {
    for sample in random_game_positions(0x5E2D_0002, 40, 80) {
        let position = sample.position;
        let json = serde_json::to_string(&position).unwrap();
        assert_eq!(json, format!("\"{}\"", position.fen()));
        assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), position);
    }
    // Every rule of from_fen applies: two white kings, the side not to
    // move in check, a broken FEN.
    for fen in [
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
        "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1x",
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        "not a fen",
    ] {
        let json = serde_json::to_string(fen).unwrap();
        let error = serde_json::from_str::<Position>(&json).unwrap_err();
        let expected = Position::from_fen(fen).unwrap_err().to_string();
        assert!(error.to_string().contains(&expected), "{fen}: {error}");
    }
}

#[test]
fn outcomes_by_name() {
    let all = [
        Outcome::Checkmate {
            winner: Color::White,
        },
        Outcome::Checkmate {
            winner: Color::Black,
        },
        Outcome::Stalemate,
        Outcome::InsufficientMaterial,
        Outcome::SeventyFiveMoves,
        Outcome::FivefoldRepetition,
        Outcome::FiftyMoves,
        Outcome::ThreefoldRepetition,
    ];
    for outcome in all {
        let json = serde_json::to_string(&outcome).unwrap();
        assert_eq!(serde_json::from_str::<Outcome>(&json).unwrap(), outcome);
        if outcome.winner().is_none() {
            assert_eq!(json, format!("\"{}\"", outcome.name()));
        }
    }
    assert!(serde_json::from_str::<Outcome>("\"resignation\"").is_err());
}
