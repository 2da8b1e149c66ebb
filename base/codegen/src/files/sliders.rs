//! `sliders.rs`: magic bitboards for rooks and bishops. Factors published or
//! searched here, the attack table they index, verified entry by entry
//! against the reference ray walk.
//!
//! One row per square, `[mask, factor, offset]`, and the attacks of a rook
//! on that square with `occupied` are
//! `SLIDER_ATTACKS[(((occupied & mask).wrapping_mul(factor)) >> ROOK_SHIFT) as usize + offset as usize]`
//! (`BISHOP_SHIFT` for a bishop). Every layout shifts by one constant per
//! piece, so the runtime shifts by an immediate instead of loading a shift
//! per lookup: one load fewer on every lookup's path, which the slider
//! benchmark sees (docs/performance.md, "Figures behind the code").

use super::example;
use crate::Error;
use crate::MagicSource;
use crate::geometry::{Slider, square_name, subsets};
use crate::inputs::Inputs;
use crate::magics::{BISHOP_SHIFT, Magic, Magics, ROOK_SHIFT, SEED};
use crate::table::Table;

/// Builds the attack table of `magics`: for every square and every subset of
/// its mask, stores the reference attacks at the magic index. Fails on an
/// index past the end or on a slot that two occupancies with different
/// attacks share (across all squares of both pieces). Unused slots, and the
/// padding after the last entry any occupancy reaches, stay 0.
fn fill(magics: &Magics) -> Result<Vec<u64>, Error> {
    let mut table = vec![0u64; magics.padded_len()];
    // The first writer of each slot: piece, square, occupancy.
    let mut writer: Vec<Option<(Slider, usize, u64)>> = vec![None; magics.size];
    for piece in Slider::ALL {
        for (square, magic) in magics.of(piece).iter().enumerate() {
            let describe = || {
                format!(
                    "{} magic for {} (factor {:#018x}, offset {}, shift {})",
                    piece.name(),
                    square_name(square),
                    magic.factor,
                    magic.offset,
                    magic.shift
                )
            };
            for occupied in subsets(magic.mask) {
                let index = magic.index(occupied);
                if index >= magics.size {
                    return Err(Error::Table(format!(
                        "{} maps occupancy {occupied:#018x} to entry {index}, past the end of the {}-entry table",
                        describe(),
                        magics.size
                    )));
                }
                let attacked = piece.attacks(square, occupied);
                match writer[index] {
                    None => {
                        writer[index] = Some((piece, square, occupied));
                        table[index] = attacked;
                    }
                    Some(_) if table[index] == attacked => {}
                    Some((first_piece, first_square, first_occupied)) => {
                        return Err(Error::Table(format!(
                            "destructive magic collision: {} maps occupancy {occupied:#018x} \
                             (attacks {attacked:#018x}) to entry {index}, which already holds \
                             the attacks of the {} on {} with occupancy {first_occupied:#018x} \
                             (attacks {:#018x})",
                            describe(),
                            first_piece.name(),
                            square_name(first_square),
                            table[index]
                        )));
                    }
                }
            }
        }
    }
    Ok(table)
}

pub(crate) fn about(inputs: &Inputs) -> String {
    let magics = &inputs.magics;
    let origin = match magics.source {
        MagicSource::Published => format!(
            "Factors and offsets: Volker Annuss's fixed-shift magics, TalkChess (CCC)\n\
             <http://www.talkchess.com/forum/viewtopic.php?p=727500&t=64790>, read from\n\
             niklasf/shakmaty src/magics.rs; rooks shift by {ROOK_SHIFT}, bishops by {BISHOP_SHIFT}, and the\n\
             blocks overlap in one table of {} entries, padded with zeros to {} so that\n\
             every square's whole block of 4096 (rook) or 512 (bishop) entries lies inside.",
            magics.size,
            magics.padded_len()
        ),
        MagicSource::Searched => format!(
            "Factors searched by the generator (`cargo xtask gen --search-magics`):\n\
             SplitMix64 seeded with {SEED:#018x}, sparse candidates; rooks shift by\n\
             {ROOK_SHIFT}, bishops by {BISHOP_SHIFT}, and the blocks lie side by side, rooks first, in\n\
             {} entries.",
            magics.padded_len()
        ),
    };
    format!(
        "Magic bitboards for rooks and bishops: one shift per piece, per square\n\
         [mask, factor, offset], and the attack table they index. Every entry was\n\
         compared with the attacks found by walking the rays.\n{origin}"
    )
}

const LOOKUP: &str = "SLIDER_ATTACKS[(((occupied & mask).wrapping_mul(factor)) >> SHIFT) as usize + offset as usize]";

pub(crate) fn rook_shift(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::word(
        "ROOK_SHIFT",
        format!(
            "How far every rook lookup shifts the product: `64 - ROOK_SHIFT` index bits.{}",
            example("assert_eq!(64 - bitboards::tables::ROOK_SHIFT, 12);")
        ),
        ROOK_SHIFT.into(),
    ))
}

pub(crate) fn bishop_shift(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::word(
        "BISHOP_SHIFT",
        format!(
            "How far every bishop lookup shifts the product: `64 - BISHOP_SHIFT` index bits.{}",
            example("assert_eq!(64 - bitboards::tables::BISHOP_SHIFT, 9);")
        ),
        BISHOP_SHIFT.into(),
    ))
}

/// A piece's `[mask, factor, offset]` rows, with `a1_mask` in the example.
fn magic_rows(
    inputs: &Inputs,
    piece: Slider,
    name: &'static str,
    what: &str,
    a1_mask: &str,
) -> Result<Table, Error> {
    let piece_name = piece.name();
    let upper = piece_name.to_uppercase();
    let doc = format!(
        "The {piece_name}'s magic for each square, a1 to h8: `[mask, factor, offset]`.\n\
         `mask` is the relevant occupancy ({what}, without the edge square that\n\
         ends each). The {piece_name}'s attacks from the square with `occupied` are\n\
         `{}`.{}",
        LOOKUP.replace("SHIFT", &format!("{upper}_SHIFT")),
        example(&format!(
            "use bitboards::{{tables::{name}, Square}};\n\
             assert_eq!({name}.len(), 64);\n\
             assert_eq!({name}[Square::A1.index()][0], {a1_mask});"
        ))
    );
    let rows = inputs.magics.of(piece).iter().map(Magic::row).collect();
    Table::grid(name, doc, rows)
}

pub(crate) fn rook_magics(inputs: &Inputs) -> Result<Table, Error> {
    magic_rows(
        inputs,
        Slider::Rook,
        "ROOK_MAGICS",
        "its file and rank",
        "0x0001_0101_0101_017E",
    )
}

pub(crate) fn bishop_magics(inputs: &Inputs) -> Result<Table, Error> {
    magic_rows(
        inputs,
        Slider::Bishop,
        "BISHOP_MAGICS",
        "its diagonals",
        "0x0040_2010_0804_0200",
    )
}

pub(crate) fn slider_attacks(inputs: &Inputs) -> Result<Table, Error> {
    let doc = format!(
        "The attacks of rooks and bishops, indexed through [`ROOK_MAGICS`] and\n\
         [`BISHOP_MAGICS`] and [`ROOK_SHIFT`] or [`BISHOP_SHIFT`]:\n\
         `{LOOKUP}`.\n\
         Entries no occupancy maps to are 0, and so is the padding at the end, which\n\
         makes every square's whole block of `1 << (64 - SHIFT)` entries part of the\n\
         table: a square's block can be taken as a fixed-size array, which the shifted\n\
         product indexes without a bounds check.{}",
        example(
            "use bitboards::{tables::{ROOK_MAGICS, ROOK_SHIFT, SLIDER_ATTACKS}, Square};\n\
             let [mask, factor, offset] = ROOK_MAGICS[Square::A1.index()];\n\
             let occupied = 0u64; // an empty board: the whole a-file and first rank\n\
             let index = (((occupied & mask).wrapping_mul(factor)) >> ROOK_SHIFT) as usize + offset as usize;\n\
             assert_eq!(SLIDER_ATTACKS[index], 0x0101_0101_0101_01FE);"
        )
    );
    Ok(Table::list("SLIDER_ATTACKS", doc, fill(&inputs.magics)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magics::shift;

    /// One past the highest entry any occupancy maps to.
    fn end(magics: &Magics) -> usize {
        Slider::ALL
            .into_iter()
            .flat_map(|piece| magics.of(piece).iter())
            .flat_map(|magic| subsets(magic.mask).map(move |occupied| magic.index(occupied)))
            .max()
            .map_or(0, |highest| highest + 1)
    }

    /// The message of the error that filling `magics` must fail with.
    fn error(magics: &Magics) -> String {
        match fill(magics) {
            Ok(_) => panic!("broken magics filled without error"),
            Err(error) => error.to_string(),
        }
    }

    /// Every lookup in `table` answers what the reference walk does.
    fn assert_lookups(magics: &Magics, table: &[u64]) {
        for piece in Slider::ALL {
            for (square, magic) in magics.of(piece).iter().enumerate() {
                for occupied in subsets(magic.mask) {
                    // Squares outside the mask must not change the answer.
                    let noisy = occupied | !magic.mask;
                    assert_eq!(
                        table[magic.index(noisy)],
                        piece.attacks(square, occupied),
                        "{} on {} with {occupied:#x}",
                        piece.name(),
                        square_name(square)
                    );
                }
            }
        }
    }

    #[test]
    fn published_magics_fill_88772_entries_without_collision() {
        let magics = Magics::published();
        assert!(magics.rook.iter().all(|m| m.shift == 52));
        assert!(magics.bishop.iter().all(|m| m.shift == 55));
        let table = fill(&magics).expect("the published magics have no collision");
        assert_eq!(end(&magics), 88_772);
        // Padded so that every whole block fits; the padding is zeros.
        assert_eq!(table.len(), 90_498);
        assert!(table[88_772..].iter().all(|&entry| entry == 0));
        for piece in Slider::ALL {
            for magic in magics.of(piece) {
                assert!(magic.offset as usize + (1 << (64 - magic.shift)) <= table.len());
            }
        }
        assert_lookups(&magics, &table);
    }

    #[test]
    fn a_broken_offset_is_a_collision() {
        let mut magics = Magics::published();
        // Slide the e4 rook's block onto the d4 rook's.
        magics.rook[28].offset = magics.rook[27].offset;
        let message = error(&magics);
        assert!(message.contains("destructive magic collision"), "{message}");
        assert!(message.contains("rook magic for e4"), "{message}");
        assert!(
            message.contains(&format!("{:#018x}", magics.rook[28].factor)),
            "{message}"
        );
        assert!(message.contains("the rook on d4"), "{message}");
    }

    #[test]
    fn a_broken_factor_is_a_collision() {
        let mut magics = Magics::published();
        // Only bit 36 (e5) of the a1 bishop's mask reaches the index bits.
        magics.bishop[0].factor = 1 << 20;
        let message = error(&magics);
        assert!(message.contains("destructive magic collision"), "{message}");
        assert!(message.contains("bishop magic for a1"), "{message}");
        assert!(message.contains("factor 0x0000000000100000"), "{message}");
        assert_eq!(message.matches("occupancy 0x").count(), 2, "{message}");
    }

    #[test]
    fn an_index_past_the_end_is_an_error() {
        let mut magics = Magics::published();
        magics.bishop[63].offset = magics.size as u64;
        let message = error(&magics);
        assert!(message.contains("past the end"), "{message}");
        assert!(message.contains("bishop magic for h8"), "{message}");
    }

    #[test]
    fn searched_magics_fill_294912_entries_without_collision() {
        let magics =
            Magics::new(MagicSource::Searched).expect("the search finds every square a factor");
        assert!(magics.search_time().is_some());
        assert_eq!(magics.size, 64 * 4096 + 64 * 512);
        assert_eq!(
            magics.padded_len(),
            magics.size,
            "side by side: nothing overhangs"
        );
        assert_eq!(magics.rook[0].offset, 0);
        assert_eq!(magics.bishop[0].offset, 64 * 4096);
        for piece in Slider::ALL {
            for magic in magics.of(piece) {
                assert_eq!(magic.shift, shift(piece));
            }
        }
        let table = fill(&magics).expect("searched magics have no collision");
        assert_eq!(table.len(), 294_912);
        assert_lookups(&magics, &table);
        // The search is deterministic.
        assert_eq!(Magics::searched().unwrap().rook, magics.rook);
    }
}
