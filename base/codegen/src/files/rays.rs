//! `rays.rs`: the squares between two squares, and the line through them.

use super::example;
use crate::Error;
use crate::geometry::{DIRECTIONS, bit, coords, ray};
use crate::inputs::Inputs;
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

/// For each square, the union of the rays in `directions` to the edge.
fn rays_to_edge(directions: &[(i32, i32)]) -> Vec<u64> {
    (0..64)
        .map(|index| {
            let (file, rank) = coords(index);
            directions
                .iter()
                .flat_map(|&direction| ray(file, rank, direction))
                .fold(0, |a, b| a | b)
        })
        .collect()
}

pub(crate) fn rook_rays(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list(
        "ROOK_RAYS",
        format!(
            "The squares a rook attacks from each square on an empty board: its rank and\nfile but the square itself. A slider on none of them cannot attack the square,\nwhatever blocks, which saves a magic lookup.{}",
            example(
                "use bitboards::{tables::{ROOK_RAYS, FILES, RANKS}, Square};\nlet e4 = Square::E4;\nassert_eq!(ROOK_RAYS[e4.index()], (FILES[4] | RANKS[3]) & !e4.bitboard().0);"
            )
        ),
        rays_to_edge(&[(0, 1), (1, 0), (0, -1), (-1, 0)]),
    ))
}

pub(crate) fn bishop_rays(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list(
        "BISHOP_RAYS",
        format!(
            "The squares a bishop attacks from each square on an empty board: both its\ndiagonals but the square itself.{}",
            example(
                "use bitboards::{tables::BISHOP_RAYS, Square};\nassert_eq!(BISHOP_RAYS[Square::A1.index()], 0x8040_2010_0804_0200);\nassert_eq!(BISHOP_RAYS[Square::E4.index()].count_ones(), 13);"
            )
        ),
        rays_to_edge(&[(1, 1), (1, -1), (-1, -1), (-1, 1)]),
    ))
}
