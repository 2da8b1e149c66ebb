//! `rays.rs`: the squares between two squares, and the line through them.

use super::example;
use crate::Error;
use crate::geometry::{DIRECTIONS, bit, coords, ray};
use crate::registry::Inputs;
use crate::table::Table;

pub(crate) fn about(_: &Inputs) -> String {
    "Squares between two squares, and the line through them.".into()
}

/// Walks every ray from every square: `(between, line)`, each indexed
/// `[from][to]`.
fn walk_rays() -> (Vec<Vec<u64>>, Vec<Vec<u64>>) {
    let mut between = vec![vec![0u64; 64]; 64];
    let mut line = vec![vec![0u64; 64]; 64];
    for from in 0..64 {
        let (file, rank) = coords(from);
        for direction in DIRECTIONS {
            let (df, dr) = direction;
            let whole = bit(file, rank).unwrap_or(0)
                | ray(file, rank, direction).fold(0, |a, b| a | b)
                | ray(file, rank, (-df, -dr)).fold(0, |a, b| a | b);
            let mut passed = 0u64;
            for to in ray(file, rank, direction) {
                let to_index = to.trailing_zeros() as usize;
                between[from][to_index] = passed;
                line[from][to_index] = whole;
                passed |= to;
            }
        }
    }
    (between, line)
}

pub(crate) fn between(_: &Inputs) -> Result<Table, Error> {
    Table::grid(
        "BETWEEN",
        format!(
            "`BETWEEN[a][b]`: the squares strictly between `a` and `b` when they share a\nrank, file or diagonal; empty otherwise.{}",
            example(
                "use bitboards::{tables::BETWEEN, Square};\nassert_eq!(BETWEEN[Square::A1.index()][Square::D4.index()], (Square::B2.bitboard() | Square::C3.bitboard()).0);\nassert_eq!(BETWEEN[Square::A1.index()][Square::B3.index()], 0);"
            )
        ),
        walk_rays().0,
    )
}

pub(crate) fn line(_: &Inputs) -> Result<Table, Error> {
    Table::grid(
        "LINE",
        format!(
            "`LINE[a][b]`: the whole rank, file or diagonal through `a` and `b`, edge to\nedge; empty when they share none (or are the same square).{}",
            example(
                "use bitboards::{tables::{LINE, FILES}, Square};\nassert_eq!(LINE[Square::E2.index()][Square::E7.index()], FILES[4]);\nassert_eq!(LINE[Square::A1.index()][Square::B3.index()], 0);"
            )
        ),
        walk_rays().1,
    )
}
