//! What the move generation tests share: the reference files' positions and
//! seeded random games played with the library's own moves.
#![allow(dead_code)]

use bitboards::Position;
use bitboards_codegen::rng::SplitMix64;

pub const PERFT_SUITE: &str = include_str!("../data/perftsuite.epd");
pub const CHESS960_RANDOM: &str = include_str!("../data/chess960-random.epd");

/// The FENs of an EPD perft file (the text before the first `;` of each
/// line).
pub fn epd_fens(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| line.split(';').next())
        .map(str::trim)
        .filter(|fen| !fen.is_empty())
        .collect()
}

/// Reads a FEN from the reference files; one suite position has a check no
/// legal move could give, and reads only without those rules.
pub fn read(fen: &str) -> Position {
    Position::from_fen(fen)
        .or_else(|_| Position::from_fen_allow_impossible_check(fen))
        .unwrap_or_else(|error| panic!("{fen}: {error}"))
}

/// The seeded generator with the one helper the tests need.
pub struct Rng(pub SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }
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
            position = position.play(moves[rng.below(moves.len())]);
        }
    }
    positions
}
