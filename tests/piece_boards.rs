//! `Position::piece_boards` against `Position::piece_on`, square by square,
//! over the positions of seeded random games (standard and Chess960) and
//! the perft suite.

mod common;

use bitboards::{Piece, Position, Square, Validation};
use common::{PERFT_SUITE, epd_fens, random_game_positions};

/// Each square is on the board of the piece `piece_on` finds there, and on
/// no other; an empty square is on none.
fn check(position: &Position) {
    let boards = position.piece_boards();
    for square in Square::ALL {
        let on: Vec<Piece> = Piece::ALL
            .into_iter()
            .filter(|piece| boards[piece.index()].contains(square))
            .collect();
        let want: Vec<Piece> = position.piece_on(square).into_iter().collect();
        assert_eq!(on, want, "{square} in {}", position.fen());
    }
    for piece in Piece::ALL {
        assert_eq!(boards[piece.index()], position.piece_bitboard(piece));
    }
}

#[test]
fn piece_boards_hold_the_piece_on_every_square() {
    let samples = random_game_positions(0xB0A2D5, 40, 160);
    assert!(samples.len() > 2_000, "{} positions", samples.len());
    for sample in &samples {
        check(&sample.position);
    }
    for fen in epd_fens(PERFT_SUITE) {
        let position =
            Position::from_fen_with(fen, Validation::ALL_RULES.allow_impossible_check()).unwrap();
        check(&position);
    }
}
