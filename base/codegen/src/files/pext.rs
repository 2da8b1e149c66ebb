//! `pext.rs`: the PEXT layout for feature `pext` (not magics: no factors,
//! the index is the occupancy's bits under the mask, packed). Per square the
//! relevant mask, the rays (the attacks on an empty board) and the block's
//! offset (rooks first, blocks of `1 << popcount(mask)` side by side); the
//! table holds, at `offset + pext(occupied, mask)`, the attacks packed as
//! `pext(attacks, rays)`, which `pdep(entry, rays)` unpacks. A rook sees at
//! most 14 squares, so an entry fits in 16 bits and the table in 215 KB
//! instead of 861 KB.

use super::example;
use crate::Error;
use crate::geometry::{Slider, square_name, subsets};
use crate::inputs::Inputs;
use crate::table::Table;

pub(crate) fn about(_: &Inputs) -> String {
    "Rook and bishop attacks for the `pext` feature (x86-64 with BMI2): per square\n\
     [mask, rays, offset], and one table of attack sets packed into 16 bits, indexed\n\
     by offset + pext(occupied, mask) and unpacked by pdep(entry, rays). Blocks lie\n\
     side by side, rooks first."
        .into()
}

/// Bits of `value` selected by `mask`, packed into the low bits (software PEXT).
fn pext(value: u64, mask: u64) -> u64 {
    let mut packed = 0;
    let mut remaining = mask;
    let mut out = 1u64;
    while remaining != 0 {
        let lowest = remaining & remaining.wrapping_neg();
        if value & lowest != 0 {
            packed |= out;
        }
        out <<= 1;
        remaining &= remaining - 1;
    }
    packed
}

/// The low bits of `value` spread onto the set bits of `mask` (software PDEP).
fn pdep(value: u64, mask: u64) -> u64 {
    let mut spread = 0;
    let mut remaining = mask;
    let mut from = 1u64;
    while remaining != 0 {
        let lowest = remaining & remaining.wrapping_neg();
        if value & from != 0 {
            spread |= lowest;
        }
        from <<= 1;
        remaining &= remaining - 1;
    }
    spread
}

/// One square's PEXT row.
#[derive(Clone, Copy, Debug)]
struct Row {
    mask: u64,
    rays: u64,
    offset: usize,
}

/// Every square's row, rooks a1..h8 then bishops a1..h8, and the table length.
fn layout() -> (Vec<(Slider, usize, Row)>, usize) {
    let mut rows = Vec::with_capacity(128);
    let mut offset = 0;
    for piece in Slider::ALL {
        for square in 0..64 {
            let mask = piece.mask(square);
            let rays = piece.attacks(square, 0);
            rows.push((piece, square, Row { mask, rays, offset }));
            offset += 1usize << mask.count_ones();
        }
    }
    (rows, offset)
}

/// The packed attack table; fails naming the square and occupancy if an
/// entry does not round-trip.
fn packed_attacks() -> Result<Vec<u16>, Error> {
    let (rows, size) = layout();
    let mut table = vec![0u16; size];
    for (piece, square, row) in rows {
        let block = 1usize << row.mask.count_ones();
        let mut filled = 0;
        for occupied in subsets(row.mask) {
            let fail = |what: &str| {
                Err(Error::Table(format!(
                    "pext: occupancy {occupied:#018x} of the {} on {}: {what}",
                    piece.name(),
                    square_name(square)
                )))
            };
            let index = pext(occupied, row.mask);
            if pdep(index, row.mask) != occupied || index as usize >= block {
                return fail("the index does not round-trip");
            }
            let seen = piece.attacks(square, occupied);
            let packed = pext(seen, row.rays);
            let Ok(entry) = u16::try_from(packed) else {
                return fail("the attacks do not fit in 16 bits");
            };
            if pdep(packed, row.rays) != seen {
                return fail("the packed attacks do not unpack");
            }
            table[row.offset + index as usize] = entry;
            filled += 1;
        }
        if filled != block {
            return Err(Error::Table(format!(
                "pext: the {} on {} filled {filled} of {block} entries",
                piece.name(),
                square_name(square)
            )));
        }
    }
    Ok(table)
}

/// A piece's `[mask, rays, offset]` rows.
fn rows(piece: Slider, name: &'static str, first_offset: &str) -> Result<Table, Error> {
    let piece_name = piece.name();
    let upper = piece_name.to_uppercase();
    let lookup = "pdep(PEXT_ATTACKS[offset as usize + pext(occupied, mask) as usize] as u64, rays)";
    let doc = format!(
        "The {piece_name}'s PEXT entry for each square, a1 to h8: `[mask, rays, offset]`.\n\
         `mask` is the relevant occupancy (as in [`{upper}_MAGICS`]), `rays` the attacks on an\n\
         empty board, and the {piece_name}'s attacks with `occupied` are\n\
         `{lookup}`\n\
         with BMI2's PEXT and PDEP.{}",
        example(&format!(
            "use bitboards::{{tables::{name}, Square}};\n\
             assert_eq!({name}.len(), 64);\n\
             assert_eq!({name}[Square::A1.index()][2], {first_offset});"
        )),
    );
    let rows = layout()
        .0
        .into_iter()
        .filter(|&(p, _, _)| p == piece)
        .map(|(_, _, row)| vec![row.mask, row.rays, row.offset as u64])
        .collect();
    Table::grid(name, doc, rows)
}

pub(crate) fn rook_pext(_: &Inputs) -> Result<Table, Error> {
    rows(Slider::Rook, "ROOK_PEXT", "0")
}

pub(crate) fn bishop_pext(_: &Inputs) -> Result<Table, Error> {
    rows(Slider::Bishop, "BISHOP_PEXT", "102_400")
}

pub(crate) fn pext_attacks(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list_u16(
        "PEXT_ATTACKS",
        format!(
            "The attacks of rooks and bishops for BMI2, packed: one block of\n\
             `1 << popcount(mask)` entries per square, rooks a1..h8 then bishops a1..h8,\n\
             indexed by `offset + pext(occupied, mask)`; each entry is the attack set\n\
             packed by `pext(attacks, rays)`, so `pdep(entry, rays)` gives it back. See\n\
             [`ROOK_PEXT`] and [`BISHOP_PEXT`].{}",
            example(
                "use bitboards::{tables::{PEXT_ATTACKS, ROOK_PEXT}, Square};\n\
                 assert_eq!(PEXT_ATTACKS.len(), 107_648);\n\
                 // An empty board: pext gives index 0, and the rook on a1 sees all its\n\
                 // 14 ray squares, packed as 14 set bits.\n\
                 let [_, _, offset] = ROOK_PEXT[Square::A1.index()];\n\
                 assert_eq!(PEXT_ATTACKS[offset as usize], 0x3FFF);"
            )
        ),
        packed_attacks()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn software_pext_and_pdep_round_trip() {
        for mask in [
            0,
            1,
            0x0001_0101_0101_017E,
            0x0040_2010_0804_0200,
            0x8000_0000_0000_0001,
            u64::MAX,
        ] {
            for (i, occupied) in subsets(mask).take(300).enumerate() {
                // The carry-rippler counts up through the subsets, so pext counts 0, 1, 2, ...
                assert_eq!(pext(occupied, mask), i as u64);
                assert_eq!(pdep(i as u64, mask), occupied);
                // Bits outside the mask are ignored.
                assert_eq!(pext(occupied | !mask, mask), i as u64);
            }
            assert_eq!(pext(mask, mask).count_ones(), mask.count_ones());
            assert_eq!(pdep(u64::MAX, mask), mask);
        }
        assert_eq!(pext(0b1011_0000, 0b1111_0000), 0b1011);
        assert_eq!(pdep(0b101, 0b1001_0010), 0b1000_0010);
        assert_eq!(pext(u64::MAX, u64::MAX), u64::MAX);
        assert_eq!(pdep(u64::MAX, u64::MAX), u64::MAX);
    }

    #[test]
    fn pext_layout() {
        let (rows, size) = layout();
        let table = packed_attacks().unwrap();
        assert_eq!((size, table.len()), (107_648, 107_648));
        assert_eq!((rows[0].2.offset, rows[64].2.offset), (0, 102_400));
        assert!(
            table.iter().all(|&a| a != 0),
            "every slot is some occupancy's attacks"
        );
        let (piece, square, e4) = rows[28];
        assert_eq!((piece, square), (Slider::Rook, 28));
        assert_eq!(e4.mask, Slider::Rook.mask(28));
        assert_eq!(e4.rays, Slider::Rook.attacks(28, 0));
        let occupied = (1 << 20) | (1 << 30) | (1 << 63);
        let entry = table[e4.offset + pext(occupied & e4.mask, e4.mask) as usize];
        assert_eq!(
            pdep(u64::from(entry), e4.rays),
            Slider::Rook.attacks(28, occupied)
        );
    }
}
