//! Helpers shared by the integration tests: the reference files, seeded
//! random games and pictures of tables. The seeded generator, the EPD
//! file's FENs and the read-with-fallback are `bitboards-test-support`'s,
//! shared with the benches and xtask.
#![allow(dead_code)]

use bitboards::{Bitboard, Position, Square};

#[allow(unused_imports)]
pub use bitboards_test_support::{Rng, SplitMix64, epd_fens, read};

/// Reads our position into shakmaty 0.30, the independent generator the
/// differential tests compare with (Shredder-FEN castling for Chess960, so
/// that every castling rook is named by its file).
pub fn shakmaty_position(position: &Position, chess960: bool) -> shakmaty::Chess {
    use shakmaty::{CastlingMode, fen::Fen};
    let (fen, mode) = if chess960 {
        (
            position.fen().shredder().to_string(),
            CastlingMode::Chess960,
        )
    } else {
        (position.fen().to_string(), CastlingMode::Standard)
    };
    let parsed: Fen = fen.parse().unwrap_or_else(|error| panic!("{fen}: {error}"));
    parsed
        .into_position(mode)
        .unwrap_or_else(|error| panic!("shakmaty refuses {fen}: {error}"))
}

pub const PERFT_SUITE: &str = include_str!("../data/perftsuite.epd");
pub const CHESS960_STARTS: &str = include_str!("../data/chess960-starts.epd");
pub const CHESS960_RANDOM: &str = include_str!("../data/chess960-random.epd");

/// A random square from `rng`.
pub fn random_square(rng: &mut SplitMix64) -> Square {
    Square::ALL[(rng.next_u64() % 64) as usize]
}

/// The one-step moves in all eight directions, clockwise from north.
pub const STEPS: [fn(Bitboard) -> Bitboard; 8] = [
    Bitboard::north,
    Bitboard::north_east,
    Bitboard::east,
    Bitboard::south_east,
    Bitboard::south,
    Bitboard::south_west,
    Bitboard::west,
    Bitboard::north_west,
];

/// The squares reached from `square` by repeating `step` until the edge,
/// nearest first.
pub fn walk(square: Square, step: fn(Bitboard) -> Bitboard) -> Vec<Square> {
    let mut out = Vec::new();
    let mut current = step(square.bitboard());
    while let Some(next) = current.first() {
        out.push(next);
        current = step(current);
    }
    out
}

/// FNV-1a over the little-endian bytes of `words`: a digest that shows in a
/// snapshot when any entry of a big table changes.
pub fn digest(words: impl IntoIterator<Item = u64>) -> u64 {
    let mut hash = 0xCBF2_9CE4_8422_2325u64;
    for word in words {
        for byte in word.to_le_bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
    hash
}

/// One labelled diagram per entry: the human view of a table for snapshots.
pub fn diagrams(entries: impl IntoIterator<Item = (String, u64)>) -> String {
    let mut out = String::new();
    for (label, bits) in entries {
        out.push_str(&format!("{label}:\n{}\n\n", Bitboard(bits)));
    }
    out
}

/// `diagrams` for a per-square table (64 entries, a1 first).
pub fn per_square(table: &[u64]) -> String {
    diagrams(
        Square::ALL
            .iter()
            .map(|s| (s.to_string(), table[s.index()])),
    )
}

/// A position of a random game, and whether the game is Chess960 (where
/// castling is written king takes rook).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub position: Position,
    pub chess960: bool,
}

/// Every position of `games` random games of up to `plies` plies each, the
/// start included: even games from the standard start, odd ones from a
/// random Chess960 start. Moves are drawn uniformly from
/// [`Position::legal_moves`]; a game stops at mate or stalemate.
pub fn random_game_positions(seed: u64, games: usize, plies: usize) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let mut positions = Vec::new();
    for game in 0..games {
        let chess960 = game % 2 == 1;
        let mut position = if chess960 {
            Position::chess960(rng.below(960) as u16).expect("a number below 960")
        } else {
            Position::START
        };
        for _ in 0..plies {
            positions.push(Sample { position, chess960 });
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position = position.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    positions
}
