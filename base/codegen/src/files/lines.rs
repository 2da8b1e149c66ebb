//! `lines.rs`: the compact slider layout (feature `compact`, and
//! `attacks::compact`), about 9 KB instead of the magics' 709 KB: a slider's
//! attacks are the union of its lines (rank and file, or the two diagonals),
//! and the attacks along one line depend only on its six inner squares. A
//! multiplication gathers those six occupancy bits into an index, and a
//! table of 8 x 64 entries answers for every line ("kindergarten"
//! bitboards). Every index the runtime can compute is checked here against
//! the reference walk, for every square and every occupancy of its lines.
//!
//! - A rank: `(occupied >> (8 * rank + 1)) & 63` is the index, and
//!   `LINE_ATTACKS[file][index] & RANKS[rank]` the attacks.
//! - A diagonal: `((occupied & ray).wrapping_mul(LINE_INDEX_MULTIPLIER) >> 58)`
//!   is the index (the multiplication moves the line's square on file `f` to
//!   bit `57 + f`, one per file, without carries), and
//!   `LINE_ATTACKS[file][index] & ray` the attacks.
//! - A file: `((occupied >> file) & FILES[0]).wrapping_mul(FILE_INDEX_MULTIPLIER) >> 58`
//!   is the index (a2..a7 to bits 58..63), `FILE_ATTACKS[rank][index] << file`
//!   the attacks.

use super::example;
use crate::Error;
use crate::geometry::{bit, coords, ray, square_name, squares_where, subsets};
use crate::inputs::Inputs;
use crate::table::Table;

/// Gathers a diagonal's (or rank's) squares on files b..g into the top six
/// bits: the b-file, so that the square on file `f` at rank `r` lands on
/// `8 * r + f + 8 * (7 - r) + 1 = 57 + f`.
const LINE_INDEX_MULTIPLIER: u64 = 0x0202_0202_0202_0202;

/// Gathers file a's squares a2..a7 (bits 8, 16, .. 48) into bits 58..63,
/// rank order: bit `8 * k` times `1 << (57 - 7 * k)` lands on `57 + k`.
const FILE_INDEX_MULTIPLIER: u64 = 0x0004_0810_2040_8000;

/// The index is the product's top six bits.
const INDEX_SHIFT: u32 = 58;

pub(crate) fn about(_: &Inputs) -> String {
    "The compact slider layout (feature `compact`, and `attacks::compact`): a slider's\n\
     attacks are the union of its lines, and a line's attacks depend on its six inner\n\
     squares, which a multiplication gathers into an index (\"kindergarten\" bitboards).\n\
     Every index was checked against the ray walk, for every square and every occupancy\n\
     of its lines."
        .into()
}

/// The attacks from (`file`, `rank`) along `directions`, walking each ray up
/// to and including the first occupied square.
fn walk(file: i32, rank: i32, directions: &[(i32, i32)], occupied: u64) -> u64 {
    let mut attacked = 0;
    for &direction in directions {
        for b in ray(file, rank, direction) {
            attacked |= b;
            if occupied & b != 0 {
                break;
            }
        }
    }
    attacked
}

const RANK: [(i32, i32); 2] = [(1, 0), (-1, 0)];
const FILE: [(i32, i32); 2] = [(0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 2] = [(1, 1), (-1, -1)];
const ANTI_DIAGONAL: [(i32, i32); 2] = [(-1, 1), (1, -1)];

/// Every square on file `file` at the rank chosen by a set bit of the
/// index: bit `k` is rank `k + 1`'s square, or file `k + 1`'s for a rank.
fn spread(index: u64, square: impl Fn(i32) -> u64) -> u64 {
    (0..6)
        .filter(|k| index >> k & 1 != 0)
        .map(|k| square(k + 1))
        .fold(0, |acc, b| acc | b)
}

/// `[file][index]`: the attacks along the first rank of a slider on `file`
/// when files b..g are occupied as `index`'s bits say, copied onto all eight
/// ranks.
fn line_attacks() -> Vec<Vec<u64>> {
    (0..8)
        .map(|file| {
            (0..64)
                .map(|index| {
                    let occupied = spread(index, |f| bit(f, 0).unwrap_or(0));
                    let first_rank = walk(file, 0, &RANK, occupied);
                    (0..8).fold(0, |acc, rank| acc | first_rank << (8 * rank))
                })
                .collect()
        })
        .collect()
}

/// `[rank][index]`: the attacks along file a of a rook on `rank` when
/// a2..a7 are occupied as `index`'s bits say.
fn file_attacks() -> Vec<Vec<u64>> {
    (0..8)
        .map(|rank| {
            (0..64)
                .map(|index| {
                    let occupied = spread(index, |r| bit(0, r).unwrap_or(0));
                    walk(0, rank, &FILE, occupied)
                })
                .collect()
        })
        .collect()
}

/// The squares along `directions` from each square on an empty board.
fn rays(directions: &[(i32, i32)]) -> Vec<u64> {
    (0..64)
        .map(|square| {
            let (file, rank) = coords(square);
            walk(file, rank, directions, 0)
        })
        .collect()
}

/// One line of a square for [`check`]: its name, its squares, the walk's
/// directions and the lookup as the runtime makes it.
type Case<'a> = (
    &'static str,
    u64,
    &'static [(i32, i32)],
    &'a dyn Fn(u64) -> u64,
);

/// Runs every lookup the runtime can make, exactly as it makes them, for
/// every square and every occupancy of the whole line through it (the
/// square itself and the edges included), against the reference walk.
fn check() -> Result<(), Error> {
    let lines = line_attacks();
    let files = file_attacks();
    let file_a = squares_where(|file, _| file == 0);
    let diagonals = rays(&DIAGONAL);
    let anti_diagonals = rays(&ANTI_DIAGONAL);
    for square in 0..64 {
        let (file, rank) = coords(square);
        let (f, r) = (file as usize, rank as usize);
        let rank_mask = squares_where(|_, on| on == rank);
        let file_mask = squares_where(|on, _| on == file);
        let along_rank =
            |occupied: u64| lines[f][((occupied >> (8 * r + 1)) & 63) as usize] & rank_mask;
        let along_file = |occupied: u64| {
            let index =
                ((occupied >> f) & file_a).wrapping_mul(FILE_INDEX_MULTIPLIER) >> INDEX_SHIFT;
            files[r][index as usize] << f
        };
        let along = |ray: u64, occupied: u64| {
            let index = (occupied & ray).wrapping_mul(LINE_INDEX_MULTIPLIER) >> INDEX_SHIFT;
            lines[f][index as usize] & ray
        };
        let cases: [Case; 4] = [
            ("rank", rank_mask, &RANK, &along_rank),
            ("file", file_mask, &FILE, &along_file),
            (
                "diagonal",
                diagonals[square] | (1 << square),
                &DIAGONAL,
                &|o| along(diagonals[square], o),
            ),
            (
                "anti-diagonal",
                anti_diagonals[square] | (1 << square),
                &ANTI_DIAGONAL,
                &|o| along(anti_diagonals[square], o),
            ),
        ];
        for (name, line, directions, lookup) in cases {
            for occupied in subsets(line) {
                // Squares off the line must not change the answer either.
                for noise in [0, !line] {
                    let expected = walk(file, rank, directions, occupied);
                    let got = lookup(occupied | noise);
                    if got != expected {
                        return Err(Error::Table(format!(
                            "lines: the {name} lookup on {} with occupancy {:#018x} gives \
                             {got:#018x}, the walk {expected:#018x}",
                            square_name(square),
                            occupied | noise
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}

pub(crate) fn line_attacks_table(_: &Inputs) -> Result<Table, Error> {
    check()?;
    Table::grid(
        "LINE_ATTACKS",
        format!(
            "`LINE_ATTACKS[file][index]`: the attacks along a line of a slider on `file`,\n\
             when the line's squares on files b to g are occupied as the six bits of\n\
             `index` say (bit 0 for file b), copied onto every rank so that `& line`\n\
             keeps the rank or diagonal wanted. See [`LINE_INDEX_MULTIPLIER`].{}",
            example(
                "use bitboards::{tables::{LINE_ATTACKS, RANKS}, Square};\n\
                 // A rook on d1 with b1 and f1 occupied (index bits 0 and 4):\n\
                 let index = 0b01_0001;\n\
                 let along_rank = LINE_ATTACKS[3][index] & RANKS[0];\n\
                 assert_eq!(along_rank, (Square::B1.bitboard() | Square::C1.bitboard() | Square::E1.bitboard() | Square::F1.bitboard()).0);"
            )
        ),
        line_attacks(),
    )
}

pub(crate) fn file_attacks_table(_: &Inputs) -> Result<Table, Error> {
    Table::grid(
        "FILE_ATTACKS",
        format!(
            "`FILE_ATTACKS[rank][index]`: the attacks along file a of a rook on `rank`,\n\
             when a2..a7 are occupied as the six bits of `index` say (bit 0 for a2);\n\
             `<< file` moves them onto another file. See [`FILE_INDEX_MULTIPLIER`].{}",
            example(
                "use bitboards::{tables::{FILE_ATTACKS, FILE_INDEX_MULTIPLIER, FILES}, Square};\n\
                 // A rook on e4 with e6 occupied: file e moved onto file a, its six\n\
                 // inner squares gathered into the index.\n\
                 let occupied = Square::E6.bitboard().0;\n\
                 let index = ((occupied >> 4) & FILES[0]).wrapping_mul(FILE_INDEX_MULTIPLIER) >> 58;\n\
                 assert_eq!(index, 0b1_0000);\n\
                 let along_file = FILE_ATTACKS[3][index as usize] << 4;\n\
                 assert_eq!(along_file.count_ones(), 5); // e1, e2, e3, e5, e6"
            )
        ),
        file_attacks(),
    )
}

pub(crate) fn diagonal_rays(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list(
        "DIAGONAL_RAYS",
        format!(
            "The diagonal (a1-h8 direction) through each square, without the square: a\n\
             bishop's attacks along it on an empty board.{}",
            example(
                "use bitboards::{tables::DIAGONAL_RAYS, Square};\n\
                 assert_eq!(DIAGONAL_RAYS[Square::A1.index()], 0x8040_2010_0804_0200);"
            )
        ),
        rays(&DIAGONAL),
    ))
}

pub(crate) fn anti_diagonal_rays(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list(
        "ANTI_DIAGONAL_RAYS",
        format!(
            "The anti-diagonal (h1-a8 direction) through each square, without the square.{}",
            example(
                "use bitboards::{tables::ANTI_DIAGONAL_RAYS, Square};\n\
                 assert_eq!(ANTI_DIAGONAL_RAYS[Square::H1.index()], 0x0102_0408_1020_4000);"
            )
        ),
        rays(&ANTI_DIAGONAL),
    ))
}

pub(crate) fn line_index_multiplier(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::word(
        "LINE_INDEX_MULTIPLIER",
        format!(
            "`((occupied & line).wrapping_mul(LINE_INDEX_MULTIPLIER) >> 58)`: the six\n\
             occupancy bits of a rank or diagonal on files b to g, the index into\n\
             [`LINE_ATTACKS`].{}",
            example(
                "use bitboards::{tables::{LINE_INDEX_MULTIPLIER, DIAGONAL_RAYS}, Square};\n\
                 let ray = DIAGONAL_RAYS[Square::C3.index()];\n\
                 let occupied = Square::E5.bitboard().0; // on file e: index bit 3\n\
                 assert_eq!((occupied & ray).wrapping_mul(LINE_INDEX_MULTIPLIER) >> 58, 0b1000);"
            )
        ),
        LINE_INDEX_MULTIPLIER,
    ))
}

pub(crate) fn file_index_multiplier(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::word(
        "FILE_INDEX_MULTIPLIER",
        format!(
            "`((occupied >> file) & FILES[0]).wrapping_mul(FILE_INDEX_MULTIPLIER) >> 58`:\n\
             the six occupancy bits of a file's squares on ranks 2 to 7, the index into\n\
             [`FILE_ATTACKS`].{}",
            example(
                "use bitboards::tables::FILE_INDEX_MULTIPLIER;\n\
                 // a2 and a7 occupied: index bits 0 and 5.\n\
                 let occupied: u64 = (1 << 8) | (1 << 48);\n\
                 assert_eq!(occupied.wrapping_mul(FILE_INDEX_MULTIPLIER) >> 58, 0b10_0001);"
            )
        ),
        FILE_INDEX_MULTIPLIER,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_lookup_matches_the_walk() {
        check().unwrap();
    }

    #[test]
    fn the_multipliers_gather_six_bits_without_carries() {
        for index in 0..64u64 {
            let on_file_a = spread(index, |r| bit(0, r).unwrap_or(0));
            assert_eq!(
                on_file_a.wrapping_mul(FILE_INDEX_MULTIPLIER) >> INDEX_SHIFT,
                index
            );
            let on_rank_8 = spread(index, |f| bit(f, 7).unwrap_or(0));
            assert_eq!(
                on_rank_8.wrapping_mul(LINE_INDEX_MULTIPLIER) >> INDEX_SHIFT,
                index
            );
        }
    }
}
