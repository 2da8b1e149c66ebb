//! `sliders.rs`: magic bitboards for rooks and bishops. Factors published or
//! searched here, the attack table they index, verified entry by entry
//! against the reference ray walk.
//!
//! One row per square, `[mask, factor, offset]`, and the attacks of a rook
//! on that square with `occupied` are
//! `SLIDER_ATTACKS[(((occupied & mask).wrapping_mul(factor)) >> ROOK_SHIFT) as usize + offset as usize]`
//! (`BISHOP_SHIFT` for a bishop). Every layout shifts by one constant per
//! piece, so the runtime shifts by an immediate instead of loading a shift
//! per lookup (about 7% of the lookup's throughput, measured).

use std::time::{Duration, Instant};

use super::example;
use crate::Error;
use crate::geometry::{Slider, square_name, subsets};
use crate::published_magics;
use crate::registry::Inputs;
use crate::rng::SplitMix64;
use crate::table::Table;

/// Where the magic factors of the slider tables come from.
///
/// ```
/// use bitboards_codegen::{Destination, MagicSource, Options, run};
///
/// let mut options = Options::new(Destination::Memory);
/// options.magics = MagicSource::Published;
/// let report = run(&options).unwrap();
/// assert_eq!(report.magic_search, None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum MagicSource {
    /// Volker Annuss's published fixed-shift magics (shift 52 for rooks, 55
    /// for bishops), whose blocks overlap in one table of 88,772 entries.
    #[default]
    Published,
    /// Factors searched by the generator with its own fixed-seed PRNG, with
    /// the same fixed shifts, blocks side by side, rooks first: 294,912
    /// entries (no overlap, so bigger; a fallback, not the default).
    Searched,
}

/// The one shift of every rook lookup: 12 index bits (at least the popcount
/// of the largest rook mask).
pub(crate) const ROOK_SHIFT: u32 = published_magics::ROOK_SHIFT;

/// The one shift of every bishop lookup: 9 index bits.
pub(crate) const BISHOP_SHIFT: u32 = published_magics::BISHOP_SHIFT;

fn shift(piece: Slider) -> u32 {
    match piece {
        Slider::Rook => ROOK_SHIFT,
        Slider::Bishop => BISHOP_SHIFT,
    }
}

/// The seed of the magic search: any fixed value works; this one is the
/// fractional part of pi in hex, so it is plainly not tuned.
const SEED: u64 = 0x243F_6A88_85A3_08D3;

/// How many candidates the search tries for one square before giving up.
const MAX_CANDIDATES: u32 = 100_000_000;

/// One square's magic.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Magic {
    mask: u64,
    factor: u64,
    offset: u64,
    shift: u32,
}

impl Magic {
    fn index(&self, occupied: u64) -> usize {
        ((occupied & self.mask).wrapping_mul(self.factor) >> self.shift) as usize
            + self.offset as usize
    }

    fn row(&self) -> Vec<u64> {
        vec![self.mask, self.factor, self.offset]
    }
}

/// Every square's magic for both pieces, the table length they assume, where
/// they came from and how long the search took (when there was one).
#[derive(Clone, Debug)]
pub(crate) struct Magics {
    source: MagicSource,
    rook: Vec<Magic>,
    bishop: Vec<Magic>,
    size: usize,
    search_time: Option<Duration>,
}

impl Magics {
    /// Takes the published magics or searches new ones.
    pub(crate) fn new(source: MagicSource) -> Result<Magics, Error> {
        match source {
            MagicSource::Published => Ok(Magics::published()),
            MagicSource::Searched => {
                let started = Instant::now();
                let mut magics = Magics::searched()?;
                magics.search_time = Some(started.elapsed());
                Ok(magics)
            }
        }
    }

    /// How long the search took; `None` for the published magics.
    pub(crate) fn search_time(&self) -> Option<Duration> {
        self.search_time
    }

    fn of(&self, piece: Slider) -> &[Magic] {
        match piece {
            Slider::Rook => &self.rook,
            Slider::Bishop => &self.bishop,
        }
    }

    fn published() -> Magics {
        let build = |piece: Slider, pairs: &[(u64, u32); 64]| {
            pairs
                .iter()
                .enumerate()
                .map(|(square, &(factor, offset))| Magic {
                    mask: piece.mask(square),
                    factor,
                    offset: offset.into(),
                    shift: shift(piece),
                })
                .collect()
        };
        Magics {
            source: MagicSource::Published,
            rook: build(Slider::Rook, &published_magics::ROOK),
            bishop: build(Slider::Bishop, &published_magics::BISHOP),
            size: published_magics::TABLE_SIZE,
            search_time: None,
        }
    }

    /// Searches a factor for every square, rooks a1..h8 then bishops a1..h8,
    /// from one fixed seed, and lays the blocks out side by side.
    fn searched() -> Result<Magics, Error> {
        let mut rng = SplitMix64::new(SEED);
        let mut offset = 0u64;
        let mut per_piece = Vec::new();
        for piece in Slider::ALL {
            let shift = shift(piece);
            let mut magics = Vec::with_capacity(64);
            for square in 0..64 {
                let mask = piece.mask(square);
                let factor = search(piece, square, mask, shift, &mut rng)?;
                magics.push(Magic {
                    mask,
                    factor,
                    offset,
                    shift,
                });
                offset += 1 << (64 - shift);
            }
            per_piece.push(magics);
        }
        let bishop = per_piece.pop().unwrap_or_default();
        let rook = per_piece.pop().unwrap_or_default();
        Ok(Magics {
            source: MagicSource::Searched,
            rook,
            bishop,
            size: offset as usize,
            search_time: None,
        })
    }
}

/// A candidate with about 8 of 64 bits set: magics are sparse.
fn sparse(rng: &mut SplitMix64) -> u64 {
    rng.next_u64() & rng.next_u64() & rng.next_u64()
}

/// Finds a factor that maps every subset of `mask` to `64 - shift` index
/// bits without a destructive collision.
fn search(
    piece: Slider,
    square: usize,
    mask: u64,
    shift: u32,
    rng: &mut SplitMix64,
) -> Result<u64, Error> {
    let bits = 64 - shift;
    let occupancies: Vec<u64> = subsets(mask).collect();
    let expected: Vec<u64> = occupancies
        .iter()
        .map(|&occupied| piece.attacks(square, occupied))
        .collect();
    let mut stored = vec![0u64; 1 << bits];
    // Which attempt last wrote each slot, so nothing is cleared between attempts.
    let mut written_by = vec![0u32; 1 << bits];
    for attempt in 1..=MAX_CANDIDATES {
        let candidate = sparse(rng);
        if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
            continue;
        }
        let fits = occupancies
            .iter()
            .zip(&expected)
            .all(|(&occupied, &attacked)| {
                let index = (occupied.wrapping_mul(candidate) >> shift) as usize;
                if written_by[index] == attempt {
                    stored[index] == attacked
                } else {
                    written_by[index] = attempt;
                    stored[index] = attacked;
                    true
                }
            });
        if fits {
            return Ok(candidate);
        }
    }
    Err(Error::Table(format!(
        "magic search: no factor found for the {} on {} in {MAX_CANDIDATES} candidates",
        piece.name(),
        square_name(square),
    )))
}

impl Magics {
    /// The table's length with every square's whole block inside it: the
    /// published blocks overlap so tightly that the last few overhang the
    /// 88,772 entries any occupancy reaches, so the table is padded with
    /// zeros to 90,498. The runtime then takes each square's block as a
    /// `&[u64; 4096]` (or `512`), which the shift alone indexes in bounds:
    /// no offset to add and no bounds check per lookup.
    pub(crate) fn padded_len(&self) -> usize {
        Slider::ALL
            .into_iter()
            .flat_map(|piece| {
                self.of(piece)
                    .iter()
                    .map(move |magic| magic.offset as usize + (1 << (64 - shift(piece))))
            })
            .fold(self.size, usize::max)
    }
}

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
