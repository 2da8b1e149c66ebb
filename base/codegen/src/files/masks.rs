//! `masks.rs`: files, ranks, their complements, diagonals, the single-square
//! table and the named regions.

use super::example;
use crate::Error;
use crate::geometry::{bit, coords, squares_where};
use crate::inputs::Inputs;
use crate::table::Table;

pub(crate) fn about(_: &Inputs) -> String {
    "Masks: files, ranks, their complements, diagonals, named regions and\n\
     the single-square table."
        .into()
}

fn each_file() -> Vec<u64> {
    (0..8).map(|f| squares_where(|file, _| file == f)).collect()
}

fn each_rank() -> Vec<u64> {
    (0..8).map(|r| squares_where(|_, rank| rank == r)).collect()
}

fn complements(masks: Vec<u64>) -> Vec<u64> {
    masks.into_iter().map(|m| !m).collect()
}

pub(crate) fn files(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list(
        "FILES",
        format!(
            "The squares of each file, a to h (the literature's MaskFile).{}",
            example(
                "use bitboards::{tables::FILES, File, Square};\nassert_eq!(FILES[File::E.index()] & Square::E4.bitboard().0, Square::E4.bitboard().0);"
            )
        ),
        each_file(),
    ))
}

pub(crate) fn not_files(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list(
        "NOT_FILES",
        format!(
            "Every square off each file, a to h (the literature's ClearFile).{}",
            example(
                "use bitboards::tables::{FILES, NOT_FILES};\nassert_eq!(NOT_FILES[0], !FILES[0]);"
            )
        ),
        complements(each_file()),
    ))
}

pub(crate) fn ranks(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list(
        "RANKS",
        format!(
            "The squares of each rank, first to eighth (the literature's MaskRank).{}",
            example(
                "use bitboards::{tables::RANKS, Rank};\nassert_eq!(RANKS[Rank::Second.index()], 0xFF00);"
            )
        ),
        each_rank(),
    ))
}

pub(crate) fn not_ranks(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list(
        "NOT_RANKS",
        format!(
            "Every square off each rank, first to eighth (the literature's ClearRank).{}",
            example(
                "use bitboards::tables::{NOT_RANKS, RANKS};\nassert_eq!(NOT_RANKS[7], !RANKS[7]);"
            )
        ),
        complements(each_rank()),
    ))
}

pub(crate) fn diagonals(_: &Inputs) -> Result<Table, Error> {
    // Diagonal d holds the squares with rank - file == d - 7: index 0 is h1,
    // 7 the long a1-h8 diagonal, 14 is a8.
    let diagonals = (0..15)
        .map(|d| squares_where(|file, rank| rank - file == d - 7))
        .collect();
    Ok(Table::list(
        "DIAGONALS",
        format!(
            "The 15 diagonals running up to the right (a1-h8 direction), indexed\nby `7 + rank - file`: 0 is h1 alone, 7 the long diagonal a1-h8, 14 is a8 alone.{}",
            example(
                "use bitboards::{tables::DIAGONALS, Square};\nassert_eq!(DIAGONALS[7] & Square::E5.bitboard().0, Square::E5.bitboard().0);\nassert_eq!(DIAGONALS[0], Square::H1.bitboard().0);"
            )
        ),
        diagonals,
    ))
}

pub(crate) fn anti_diagonals(_: &Inputs) -> Result<Table, Error> {
    // Anti-diagonal d holds the squares with file + rank == d: index 0 is a1,
    // 7 the long a8-h1 diagonal, 14 is h8.
    let anti_diagonals = (0..15)
        .map(|d| squares_where(|file, rank| file + rank == d))
        .collect();
    Ok(Table::list(
        "ANTI_DIAGONALS",
        format!(
            "The 15 diagonals running up to the left (h1-a8 direction), indexed\nby `file + rank`: 0 is a1 alone, 7 the long diagonal h1-a8, 14 is h8 alone.{}",
            example(
                "use bitboards::{tables::ANTI_DIAGONALS, Square};\nassert_eq!(ANTI_DIAGONALS[7] & Square::D5.bitboard().0, Square::D5.bitboard().0);\nassert_eq!(ANTI_DIAGONALS[14], Square::H8.bitboard().0);"
            )
        ),
        anti_diagonals,
    ))
}

pub(crate) fn squares(_: &Inputs) -> Result<Table, Error> {
    let single = (0..64)
        .map(|i| {
            let (file, rank) = coords(i);
            bit(file, rank).unwrap_or(0)
        })
        .collect();
    Ok(Table::list(
        "SQUARES",
        format!(
            "The single-square table (the literature's Piece table): entry `n`\nhas only square `n` set.{}",
            example(
                "use bitboards::{tables::SQUARES, Square};\nassert_eq!(SQUARES[Square::D3.index()], 1 << 19);"
            )
        ),
        single,
    ))
}

/// A named region, documented with one square inside it and one outside.
fn region(
    name: &'static str,
    doc: &str,
    (inside, outside): (&str, &str),
    value: u64,
) -> Result<Table, Error> {
    let code = format!(
        "use bitboards::{{tables::{name}, Square}};\n\
         assert_ne!({name} & Square::{inside}.bitboard().0, 0);\n\
         assert_eq!({name} & Square::{outside}.bitboard().0, 0);"
    );
    Ok(Table::word(name, format!("{doc}{}", example(&code)), value))
}

pub(crate) fn light_squares(_: &Inputs) -> Result<Table, Error> {
    region(
        "LIGHT_SQUARES",
        "The 32 light squares (h1 is light, a1 dark).",
        ("H1", "A1"),
        squares_where(|file, rank| (file + rank) % 2 == 1),
    )
}

pub(crate) fn dark_squares(_: &Inputs) -> Result<Table, Error> {
    region(
        "DARK_SQUARES",
        "The 32 dark squares (a1 is dark).",
        ("A1", "H1"),
        squares_where(|file, rank| (file + rank) % 2 == 0),
    )
}

pub(crate) fn center(_: &Inputs) -> Result<Table, Error> {
    region(
        "CENTER",
        "The four centre squares d4, e4, d5 and e5.",
        ("E4", "E3"),
        squares_where(|file, rank| (3..=4).contains(&file) && (3..=4).contains(&rank)),
    )
}

pub(crate) fn big_center(_: &Inputs) -> Result<Table, Error> {
    region(
        "BIG_CENTER",
        "The 16 squares c3 to f6.",
        ("C3", "B2"),
        squares_where(|file, rank| (2..=5).contains(&file) && (2..=5).contains(&rank)),
    )
}

pub(crate) fn edges(_: &Inputs) -> Result<Table, Error> {
    region(
        "EDGES",
        "The 28 squares on the edge of the board.",
        ("A5", "B5"),
        squares_where(|file, rank| file == 0 || file == 7 || rank == 0 || rank == 7),
    )
}

pub(crate) fn corners(_: &Inputs) -> Result<Table, Error> {
    region(
        "CORNERS",
        "The four corners a1, h1, a8 and h8.",
        ("H8", "G8"),
        squares_where(|file, rank| (file == 0 || file == 7) && (rank == 0 || rank == 7)),
    )
}

pub(crate) fn back_ranks(_: &Inputs) -> Result<Table, Error> {
    region(
        "BACK_RANKS",
        "Ranks 1 and 8, where the pieces start and pawns promote.",
        ("D8", "D7"),
        squares_where(|_, rank| rank == 0 || rank == 7),
    )
}

pub(crate) fn kingside(_: &Inputs) -> Result<Table, Error> {
    region(
        "KINGSIDE",
        "Files e to h.",
        ("E4", "D4"),
        squares_where(|file, _| file >= 4),
    )
}

pub(crate) fn queenside(_: &Inputs) -> Result<Table, Error> {
    region(
        "QUEENSIDE",
        "Files a to d.",
        ("D4", "E4"),
        squares_where(|file, _| file <= 3),
    )
}
