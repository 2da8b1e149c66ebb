//! `is_legal` answers for any `Move` (a hash table's, another position's):
//! for every one of the 16-bit values `Move::from_bits` accepts, it says
//! yes exactly for the moves `legal_moves` lists.

mod common;

use bitboards::{Move, Position};
use common::{CHESS960_RANDOM, PERFT_SUITE, epd_fens, random_game_positions, read};

/// Every `Move` there is.
fn every_move() -> Vec<Move> {
    (0..=u16::MAX).filter_map(Move::from_bits).collect()
}

fn check(position: &Position, every_move: &[Move]) -> usize {
    let legal = position.legal_moves();
    let mut accepted = 0;
    for &mv in every_move {
        let answer = position.is_legal(mv);
        assert_eq!(answer, legal.contains(&mv), "{position:?}: {mv:?}");
        accepted += usize::from(answer);
    }
    assert_eq!(accepted, legal.len(), "{position:?}");
    accepted
}

#[test]
fn move_bits_read_back() {
    let mut count = 0;
    for bits in 0..=u16::MAX {
        if let Some(mv) = Move::from_bits(bits) {
            assert_eq!(mv.to_bits(), bits);
            count += 1;
        }
    }
    // Seven kinds (normal, en passant, castling, four promotions) of 64 x 64.
    assert_eq!(count, 7 * 64 * 64);
}

#[test]
fn is_legal_agrees_with_legal_moves_for_every_move_value() {
    let every_move = every_move();
    let mut positions: Vec<Position> = Vec::new();
    // Every fourth suite position (castling, en passant, promotions and
    // the impossible double check among them), some Chess960 positions in
    // play, and random game positions.
    positions.extend(epd_fens(PERFT_SUITE).step_by(4).map(read));
    positions.extend(epd_fens(CHESS960_RANDOM).step_by(25).map(read));
    positions.extend(
        random_game_positions(0x1E6A1, 6, 120)
            .into_iter()
            .step_by(37)
            .map(|sample| sample.position),
    );
    for fen in [
        // En passant that would expose the king along the rank.
        "8/8/8/K1pP3r/8/8/8/7k w - c6 0 1",
        // En passant that answers a double push's check.
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        // Chess960: king b1, rook a1 (b1c1 is a king move and castling's target).
        "4k2r/8/8/8/8/8/8/RK5R w HAh - 0 1",
    ] {
        positions.push(read(fen));
    }
    assert!(positions.len() >= 50, "{}", positions.len());
    let legal: usize = positions
        .iter()
        .map(|position| check(position, &every_move))
        .sum();
    assert!(legal > 1_000, "{legal}");
}
