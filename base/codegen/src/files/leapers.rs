//! `leapers.rs`: knight, king and pawn attacks, and pawn pushes.

use super::example;
use crate::Error;
use crate::geometry::{DIRECTIONS, leaps};
use crate::inputs::Inputs;
use crate::table::Table;

pub(crate) fn about(_: &Inputs) -> String {
    "Knight, king and pawn attacks, and pawn pushes, from every square.".into()
}

const KNIGHT_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

pub(crate) fn knight_attacks(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list(
        "KNIGHT_ATTACKS",
        format!(
            "The squares a knight attacks from each square.{}",
            example(
                "use bitboards::{tables::KNIGHT_ATTACKS, Square};\n// From a1: b3 and c2.\nassert_eq!(KNIGHT_ATTACKS[Square::A1.index()], (Square::B3.bitboard() | Square::C2.bitboard()).0);"
            )
        ),
        leaps(&KNIGHT_JUMPS),
    ))
}

pub(crate) fn king_attacks(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list(
        "KING_ATTACKS",
        format!(
            "The squares a king attacks from each square.{}",
            example(
                "use bitboards::{tables::KING_ATTACKS, Square};\nassert_eq!(KING_ATTACKS[Square::E4.index()].count_ones(), 8);\nassert_eq!(KING_ATTACKS[Square::H8.index()].count_ones(), 3);"
            )
        ),
        leaps(&DIRECTIONS),
    ))
}

pub(crate) fn pawn_attacks(_: &Inputs) -> Result<Table, Error> {
    Table::grid(
        "PAWN_ATTACKS",
        format!(
            "The squares a pawn attacks, by colour (White 0, Black 1) then square.\nDefined for pawns on every rank, so it also answers \"which pawns attack this square\".{}",
            example(
                "use bitboards::{tables::PAWN_ATTACKS, Color, Square};\nlet e4 = PAWN_ATTACKS[Color::White.index()][Square::E4.index()];\nassert_eq!(e4, (Square::D5.bitboard() | Square::F5.bitboard()).0);"
            )
        ),
        vec![leaps(&[(-1, 1), (1, 1)]), leaps(&[(-1, -1), (1, -1)])],
    )
}

pub(crate) fn pawn_pushes(_: &Inputs) -> Result<Table, Error> {
    Table::grid(
        "PAWN_PUSHES",
        format!(
            "The square one step forward for a pawn, by colour then square (empty on the far rank).{}",
            example(
                "use bitboards::{tables::PAWN_PUSHES, Color, Square};\nassert_eq!(PAWN_PUSHES[Color::Black.index()][Square::E7.index()], Square::E6.bitboard().0);"
            )
        ),
        vec![leaps(&[(0, 1)]), leaps(&[(0, -1)])],
    )
}
