//! Helpers shared by the integration tests. The seeded PRNG is the
//! generator's own ([`SplitMix64`]), so tests, benches and the magic search
//! share one implementation.
#![allow(dead_code)]

use bitboards::{Bitboard, Square};

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
