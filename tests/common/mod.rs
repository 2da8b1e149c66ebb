//! Helpers shared by the integration tests: the reference files and their
//! positions, seeded random games, and pictures of tables. The seeded PRNG is
//! the generator's own ([`SplitMix64`]), so tests, benches and the magic
//! search share one implementation.
#![allow(dead_code)]

use bitboards::{Bitboard, Epd, Position, Square};

pub use bitboards_codegen::rng::SplitMix64;

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

pub const PERFT_SUITE: &str = include_str!("../data/perftsuite.epd");
pub const CHESS960_STARTS: &str = include_str!("../data/chess960-starts.epd");
pub const CHESS960_RANDOM: &str = include_str!("../data/chess960-random.epd");

/// The FENs of an EPD perft file as the file writes them: of each record
/// (read by [`Epd`]), the text of its FEN fields, four or six.
pub fn epd_fens(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            let record = Epd::parse_allow_impossible_check(line)
                .unwrap_or_else(|error| panic!("line {}: {error}", index + 1));
            fen_fields(line, if record.fen_has_clocks() { 6 } else { 4 })
        })
}

/// The first `count` fields of `line` (separated by whitespace, ended by
/// `;` too), without the whitespace around them.
fn fen_fields(line: &str, count: usize) -> &str {
    let is_end = |b: u8| b.is_ascii_whitespace() || b == b';';
    let bytes = line.as_bytes();
    let start = line.len() - line.trim_ascii_start().len();
    let mut at = start;
    for _ in 0..count {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        while bytes.get(at).is_some_and(|&b| !is_end(b)) {
            at += 1;
        }
    }
    &line[start..at]
}

/// Reads a FEN (an EPD record without operations) from the reference files
/// or a test; one suite position has a check no legal move could give, and
/// reads only without those rules.
pub fn read(fen: &str) -> Position {
    Epd::parse(fen)
        .or_else(|_| Epd::parse_allow_impossible_check(fen))
        .map(|record| *record.position())
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
