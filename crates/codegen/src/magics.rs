//! The sliding pieces' tables: relevant-occupancy masks and reference attacks
//! by walking coordinates, magic factors (published or searched here), the
//! attack table they index, verified entry by entry, and the PEXT layout.
//!
//! One row per square, `[mask, factor, offset]`, and the attacks of a rook
//! on that square with `occupied` are
//! `SLIDER_ATTACKS[(((occupied & mask).wrapping_mul(factor)) >> ROOK_SHIFT) as usize + offset as usize]`
//! (`BISHOP_SHIFT` for a bishop). Every layout shifts by one constant per
//! piece, so the runtime shifts by an immediate instead of loading a shift
//! per lookup (about 7% of the lookup's throughput, measured).

use std::time::{Duration, Instant};

use crate::Error;
use crate::geometry::{coords, ray, square_name};
use crate::published_magics;
use crate::render::{self, GeneratedFile, Table};

/// Where the magic factors of the slider tables come from.
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

/// The seed of the magic search: any fixed value works; this one is the
/// fractional part of pi in hex, so it is plainly not tuned.
const SEED: u64 = 0x243F_6A88_85A3_08D3;

/// How many candidates the search tries for one square before giving up.
const MAX_CANDIDATES: u32 = 100_000_000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Piece {
    Rook,
    Bishop,
}

impl Piece {
    const ALL: [Piece; 2] = [Piece::Rook, Piece::Bishop];

    fn name(self) -> &'static str {
        match self {
            Piece::Rook => "rook",
            Piece::Bishop => "bishop",
        }
    }

    /// The one shift of every lookup of this piece: 12 index bits for a
    /// rook, 9 for a bishop (each at least its largest mask's popcount).
    fn shift(self) -> u32 {
        match self {
            Piece::Rook => published_magics::ROOK_SHIFT,
            Piece::Bishop => published_magics::BISHOP_SHIFT,
        }
    }

    fn directions(self) -> [(i32, i32); 4] {
        match self {
            Piece::Rook => [(0, 1), (1, 0), (0, -1), (-1, 0)],
            Piece::Bishop => [(1, 1), (1, -1), (-1, -1), (-1, 1)],
        }
    }
}
/// The relevant occupancy of `piece` on `square`: every square of its rays but
/// the last one of each (on the edge, whose occupancy never changes the attacks).
fn mask(piece: Piece, square: usize) -> u64 {
    let (file, rank) = coords(square);
    piece
        .directions()
        .into_iter()
        .map(|direction| {
            let squares: Vec<u64> = ray(file, rank, direction).collect();
            let inner = squares.len().saturating_sub(1);
            squares[..inner].iter().fold(0, |acc, b| acc | b)
        })
        .fold(0, |acc, b| acc | b)
}

/// The slow reference: the squares `piece` on `square` attacks when
/// `occupied` is occupied, walking each ray up to and including the first
/// occupied square.
fn attacks(piece: Piece, square: usize, occupied: u64) -> u64 {
    let (file, rank) = coords(square);
    let mut attacked = 0;
    for direction in piece.directions() {
        for b in ray(file, rank, direction) {
            attacked |= b;
            if occupied & b != 0 {
                break;
            }
        }
    }
    attacked
}

/// Every subset of `mask`, the empty set first (the carry-rippler).
fn subsets(mask: u64) -> impl Iterator<Item = u64> {
    let mut next = Some(0u64);
    std::iter::from_fn(move || {
        let current = next?;
        let following = current.wrapping_sub(mask) & mask;
        next = (following != 0).then_some(following);
        Some(current)
    })
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

/// SplitMix64 (Steele, Lea and Flood): a tiny PRNG whose stream is the same
/// on every platform, which is all the search needs.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A candidate with about 8 of 64 bits set: magics are sparse.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

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

/// Every square's magic for both pieces, and the table length they assume.
#[derive(Clone, Debug)]
struct Layout {
    rook: Vec<Magic>,
    bishop: Vec<Magic>,
    size: usize,
}

impl Layout {
    fn magics(&self, piece: Piece) -> &[Magic] {
        match piece {
            Piece::Rook => &self.rook,
            Piece::Bishop => &self.bishop,
        }
    }

    fn published() -> Layout {
        let build = |piece: Piece, pairs: &[(u64, u32); 64], shift: u32| {
            pairs
                .iter()
                .enumerate()
                .map(|(square, &(factor, offset))| Magic {
                    mask: mask(piece, square),
                    factor,
                    offset: offset.into(),
                    shift,
                })
                .collect()
        };
        Layout {
            rook: build(
                Piece::Rook,
                &published_magics::ROOK,
                published_magics::ROOK_SHIFT,
            ),
            bishop: build(
                Piece::Bishop,
                &published_magics::BISHOP,
                published_magics::BISHOP_SHIFT,
            ),
            size: published_magics::TABLE_SIZE,
        }
    }

    /// Searches a factor for every square, rooks a1..h8 then bishops a1..h8,
    /// from one fixed seed, and lays the blocks out side by side.
    fn searched() -> Result<Layout, Error> {
        let mut rng = SplitMix64(SEED);
        let mut offset = 0u64;
        let mut per_piece = Vec::new();
        for piece in Piece::ALL {
            let shift = piece.shift();
            let mut magics = Vec::with_capacity(64);
            for square in 0..64 {
                let mask = mask(piece, square);
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
        Ok(Layout {
            rook,
            bishop,
            size: offset as usize,
        })
    }
}

/// Finds a factor that maps every subset of `mask` to `64 - shift` index
/// bits without a destructive collision.
fn search(
    piece: Piece,
    square: usize,
    mask: u64,
    shift: u32,
    rng: &mut SplitMix64,
) -> Result<u64, Error> {
    let bits = 64 - shift;
    let occupancies: Vec<u64> = subsets(mask).collect();
    let expected: Vec<u64> = occupancies
        .iter()
        .map(|&occupied| attacks(piece, square, occupied))
        .collect();
    let mut stored = vec![0u64; 1 << bits];
    // Which attempt last wrote each slot, so nothing is cleared between attempts.
    let mut written_by = vec![0u32; 1 << bits];
    for attempt in 1..=MAX_CANDIDATES {
        let candidate = rng.sparse();
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

/// Builds the attack table of `layout`: for every square and every subset of
/// its mask, stores the reference attacks at the magic index. Fails on an
/// index past the end or on a slot that two occupancies with different
/// attacks share (across all squares of both pieces). Unused slots stay 0.
fn fill(layout: &Layout) -> Result<Vec<u64>, Error> {
    let mut table = vec![0u64; layout.size];
    // The first writer of each slot: piece, square, occupancy.
    let mut writer: Vec<Option<(Piece, usize, u64)>> = vec![None; layout.size];
    for piece in Piece::ALL {
        for (square, magic) in layout.magics(piece).iter().enumerate() {
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
                if index >= layout.size {
                    return Err(Error::Table(format!(
                        "{} maps occupancy {occupied:#018x} to entry {index}, past the end of the {}-entry table",
                        describe(),
                        layout.size
                    )));
                }
                let attacked = attacks(piece, square, occupied);
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

/// The slider tables, computed once: the magics, their verified attack
/// table, and how long the search took (when there was one).
pub(crate) struct Sliders {
    source: MagicSource,
    layout: Layout,
    table: Vec<u64>,
    search_time: Option<Duration>,
}

impl Sliders {
    /// Takes or searches the magics and fills (and so verifies) their table.
    pub(crate) fn build(source: MagicSource) -> Result<Sliders, Error> {
        let (layout, search_time) = match source {
            MagicSource::Published => (Layout::published(), None),
            MagicSource::Searched => {
                let started = Instant::now();
                let layout = Layout::searched()?;
                (layout, Some(started.elapsed()))
            }
        };
        let table = fill(&layout)?;
        Ok(Sliders {
            source,
            layout,
            table,
            search_time,
        })
    }

    /// How long the magic search took; `None` for the published magics.
    pub(crate) fn search_time(&self) -> Option<Duration> {
        self.search_time
    }
}

/// The PEXT tables.
struct Pext {
    /// Per rook square: `[mask, rays, offset]`.
    rook_rows: Vec<Vec<u64>>,
    /// Per bishop square: `[mask, rays, offset]`.
    bishop_rows: Vec<Vec<u64>>,
    /// Each occupancy's attacks, packed by `pext(attacks, rays)` into 16 bits.
    attacks: Vec<u16>,
}

/// The PEXT layout: per square the relevant mask, the rays (the attacks on
/// an empty board) and the block's offset (rooks first, blocks of
/// `1 << popcount(mask)` side by side); the table holds, at
/// `offset + pext(occupied, mask)`, the attacks packed as
/// `pext(attacks, rays)`, which `pdep(entry, rays)` unpacks. A rook sees at
/// most 14 squares, so an entry fits in 16 bits and the table in 215 KB
/// instead of 861 KB.
fn pext_tables(layout: &Layout) -> Result<Pext, Error> {
    let mut rows = Vec::new();
    let mut table: Vec<u16> = Vec::new();
    for piece in Piece::ALL {
        let mut piece_rows = Vec::with_capacity(64);
        for (square, magic) in layout.magics(piece).iter().enumerate() {
            let offset = table.len();
            let rays = attacks(piece, square, 0);
            piece_rows.push(vec![magic.mask, rays, offset as u64]);
            let size = 1usize << magic.mask.count_ones();
            table.resize(offset + size, 0);
            let mut filled = 0;
            for occupied in subsets(magic.mask) {
                let fail = |what: &str| {
                    Err(Error::Table(format!(
                        "pext: occupancy {occupied:#018x} of the {} on {}: {what}",
                        piece.name(),
                        square_name(square)
                    )))
                };
                let index = pext(occupied, magic.mask);
                if pdep(index, magic.mask) != occupied || index as usize >= size {
                    return fail("the index does not round-trip");
                }
                let seen = attacks(piece, square, occupied);
                let packed = pext(seen, rays);
                let Ok(entry) = u16::try_from(packed) else {
                    return fail("the attacks do not fit in 16 bits");
                };
                if pdep(packed, rays) != seen {
                    return fail("the packed attacks do not unpack");
                }
                table[offset + index as usize] = entry;
                filled += 1;
            }
            if filled != size {
                return Err(Error::Table(format!(
                    "pext: the {} on {} filled {filled} of {size} entries",
                    piece.name(),
                    square_name(square)
                )));
            }
        }
        rows.push(piece_rows);
    }
    let bishop_rows = rows.pop().unwrap_or_default();
    let rook_rows = rows.pop().unwrap_or_default();
    Ok(Pext {
        rook_rows,
        bishop_rows,
        attacks: table,
    })
}

/// An example block for a doc comment.
fn example(code: &str) -> String {
    format!("\n\n```\n{code}\n```")
}

const LOOKUP: &str = "SLIDER_ATTACKS[(((occupied & mask).wrapping_mul(factor)) >> SHIFT) as usize + offset as usize]";

/// Renders `sliders.rs` (the magic tables) and `pext.rs`.
pub(crate) fn files(sliders: &Sliders) -> Result<Vec<GeneratedFile>, Error> {
    let layout = &sliders.layout;
    let origin = match sliders.source {
        MagicSource::Published => format!(
            "Factors and offsets: Volker Annuss's fixed-shift magics, TalkChess (CCC)\n\
             <http://www.talkchess.com/forum/viewtopic.php?p=727500&t=64790>, read from\n\
             niklasf/shakmaty src/magics.rs; rooks shift by {}, bishops by {}, and the\n\
             blocks overlap in one table of {} entries.",
            published_magics::ROOK_SHIFT,
            published_magics::BISHOP_SHIFT,
            layout.size
        ),
        MagicSource::Searched => format!(
            "Factors searched by the generator (`cargo xtask gen --search-magics`):\n\
             SplitMix64 seeded with {SEED:#018x}, sparse candidates; rooks shift by\n\
             {}, bishops by {}, and the blocks lie side by side, rooks first, in\n\
             {} entries.",
            Piece::Rook.shift(),
            Piece::Bishop.shift(),
            layout.size
        ),
    };
    let about = format!(
        "Magic bitboards for rooks and bishops: one shift per piece, per square\n\
         [mask, factor, offset], and the attack table they index. Every entry was\n\
         compared with the attacks found by walking the rays.\n{origin}"
    );
    let row_doc = |piece: &str, what: &str, a1: &str| {
        format!(
            "The {piece}'s magic for each square, a1 to h8: `[mask, factor, offset]`.\n\
             `mask` is the relevant occupancy ({what}, without the edge square that\n\
             ends each). The {piece}'s attacks from the square with `occupied` are\n\
             `{}`.{}",
            LOOKUP.replace("SHIFT", &format!("{}_SHIFT", piece.to_uppercase())),
            example(&format!(
                "use bitboards::{{tables::{}_MAGICS, Square}};\n\
                 assert_eq!({}_MAGICS.len(), 64);\n\
                 assert_eq!({}_MAGICS[Square::A1.index()][0], {a1});",
                piece.to_uppercase(),
                piece.to_uppercase(),
                piece.to_uppercase()
            ))
        )
    };
    let slider_doc = format!(
        "The attacks of rooks and bishops, indexed through [`ROOK_MAGICS`] and\n\
         [`BISHOP_MAGICS`] and [`ROOK_SHIFT`] or [`BISHOP_SHIFT`]:\n\
         `{LOOKUP}`.\n\
         Entries no occupancy maps to are 0.{}",
        example(
            "use bitboards::{tables::{ROOK_MAGICS, ROOK_SHIFT, SLIDER_ATTACKS}, Square};\n\
             let [mask, factor, offset] = ROOK_MAGICS[Square::A1.index()];\n\
             let occupied = 0u64; // an empty board: the whole a-file and first rank\n\
             let index = (((occupied & mask).wrapping_mul(factor)) >> ROOK_SHIFT) as usize + offset as usize;\n\
             assert_eq!(SLIDER_ATTACKS[index], 0x0101_0101_0101_01FE);"
        )
    );
    let rows = |piece| layout.magics(piece).iter().map(Magic::row).collect();
    let sliders_tables = [
        Table::word(
            "ROOK_SHIFT",
            format!(
                "How far every rook lookup shifts the product: `64 - ROOK_SHIFT` index bits.{}",
                example("assert_eq!(64 - bitboards::tables::ROOK_SHIFT, 12);")
            ),
            Piece::Rook.shift().into(),
        ),
        Table::word(
            "BISHOP_SHIFT",
            format!(
                "How far every bishop lookup shifts the product: `64 - BISHOP_SHIFT` index bits.{}",
                example("assert_eq!(64 - bitboards::tables::BISHOP_SHIFT, 9);")
            ),
            Piece::Bishop.shift().into(),
        ),
        Table::grid(
            "ROOK_MAGICS",
            row_doc("rook", "its file and rank", "0x0001_0101_0101_017E"),
            rows(Piece::Rook),
        ),
        Table::grid(
            "BISHOP_MAGICS",
            row_doc("bishop", "its diagonals", "0x0040_2010_0804_0200"),
            rows(Piece::Bishop),
        ),
        Table::list("SLIDER_ATTACKS", slider_doc, sliders.table.clone()),
    ];

    let Pext {
        rook_rows,
        bishop_rows,
        attacks: pext_attacks,
    } = pext_tables(layout)?;
    let pext_lookup =
        "pdep(PEXT_ATTACKS[offset as usize + pext(occupied, mask) as usize] as u64, rays)";
    let pext_doc = |piece: &str, first_offset: &str| {
        let upper = piece.to_uppercase();
        format!(
            "The {piece}'s PEXT entry for each square, a1 to h8: `[mask, rays, offset]`.\n\
             `mask` is the relevant occupancy (as in [`{upper}_MAGICS`]), `rays` the attacks on an\n\
             empty board, and the {piece}'s attacks with `occupied` are\n\
             `{pext_lookup}`\n\
             with BMI2's PEXT and PDEP.{}",
            example(&format!(
                "use bitboards::{{tables::{upper}_PEXT, Square}};\n\
                 assert_eq!({upper}_PEXT.len(), 64);\n\
                 assert_eq!({upper}_PEXT[Square::A1.index()][2], {first_offset});"
            )),
        )
    };
    let pext_tables = [
        Table::grid("ROOK_PEXT", pext_doc("rook", "0"), rook_rows),
        Table::grid("BISHOP_PEXT", pext_doc("bishop", "102_400"), bishop_rows),
        Table::list_u16(
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
            pext_attacks,
        ),
    ];

    Ok(vec![
        render::file("sliders.rs", &about, &sliders_tables, Vec::new())?,
        render::file(
            "pext.rs",
            "Rook and bishop attacks for the `pext` feature (x86-64 with BMI2): per square\n\
             [mask, rays, offset], and one table of attack sets packed into 16 bits, indexed\n\
             by offset + pext(occupied, mask) and unpacked by pdep(entry, rays). Blocks lie\n\
             side by side, rooks first.",
            &pext_tables,
            Vec::new(),
        )?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One past the highest entry any occupancy maps to.
    fn end(layout: &Layout) -> usize {
        Piece::ALL
            .into_iter()
            .flat_map(|piece| layout.magics(piece).iter())
            .flat_map(|magic| subsets(magic.mask).map(move |occupied| magic.index(occupied)))
            .max()
            .map_or(0, |highest| highest + 1)
    }

    /// The message of the error that filling `layout` must fail with.
    fn error(layout: &Layout) -> String {
        match fill(layout) {
            Ok(_) => panic!("a broken layout filled without error"),
            Err(error) => error.to_string(),
        }
    }

    /// Every lookup in `table` answers what the reference walk does.
    fn assert_lookups(layout: &Layout, table: &[u64]) {
        for piece in Piece::ALL {
            for (square, magic) in layout.magics(piece).iter().enumerate() {
                for occupied in subsets(magic.mask) {
                    // Squares outside the mask must not change the answer.
                    let noisy = occupied | !magic.mask;
                    assert_eq!(
                        table[magic.index(noisy)],
                        attacks(piece, square, occupied),
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
        let layout = Layout::published();
        assert!(layout.rook.iter().all(|m| m.shift == 52));
        assert!(layout.bishop.iter().all(|m| m.shift == 55));
        let table = fill(&layout).expect("the published magics have no collision");
        assert_eq!(table.len(), 88_772);
        assert_eq!(end(&layout), 88_772);
        assert_lookups(&layout, &table);
    }

    #[test]
    fn a_broken_offset_is_a_collision() {
        let mut layout = Layout::published();
        // Slide the e4 rook's block onto the d4 rook's.
        layout.rook[28].offset = layout.rook[27].offset;
        let message = error(&layout);
        assert!(message.contains("destructive magic collision"), "{message}");
        assert!(message.contains("rook magic for e4"), "{message}");
        assert!(
            message.contains(&format!("{:#018x}", layout.rook[28].factor)),
            "{message}"
        );
        assert!(message.contains("the rook on d4"), "{message}");
    }

    #[test]
    fn a_broken_factor_is_a_collision() {
        let mut layout = Layout::published();
        // Only bit 36 (e5) of the a1 bishop's mask reaches the index bits.
        layout.bishop[0].factor = 1 << 20;
        let message = error(&layout);
        assert!(message.contains("destructive magic collision"), "{message}");
        assert!(message.contains("bishop magic for a1"), "{message}");
        assert!(message.contains("factor 0x0000000000100000"), "{message}");
        assert_eq!(message.matches("occupancy 0x").count(), 2, "{message}");
    }

    #[test]
    fn an_index_past_the_end_is_an_error() {
        let mut layout = Layout::published();
        layout.bishop[63].offset = layout.size as u64;
        let message = error(&layout);
        assert!(message.contains("past the end"), "{message}");
        assert!(message.contains("bishop magic for h8"), "{message}");
    }

    #[test]
    fn searched_magics_fill_294912_entries_without_collision() {
        let layout = Layout::searched().expect("the search finds every square a factor");
        assert_eq!(layout.size, 64 * 4096 + 64 * 512);
        assert_eq!(layout.rook[0].offset, 0);
        assert_eq!(layout.bishop[0].offset, 64 * 4096);
        for piece in Piece::ALL {
            for magic in layout.magics(piece) {
                assert_eq!(magic.shift, piece.shift());
            }
        }
        let table = fill(&layout).expect("searched magics have no collision");
        assert_eq!(table.len(), 294_912);
        assert_lookups(&layout, &table);
        // The search is deterministic.
        assert_eq!(Layout::searched().unwrap().rook, layout.rook);
    }

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
    fn masks_by_hand() {
        assert_eq!(mask(Piece::Rook, 0), 0x0001_0101_0101_017E);
        // e4: e2, e3, e5, e6, e7 and b4, c4, d4, f4, g4.
        assert_eq!(mask(Piece::Rook, 28), 0x0010_1010_6E10_1000);
        assert_eq!(mask(Piece::Rook, 63), 0x7E80_8080_8080_8000);
        assert_eq!(mask(Piece::Bishop, 0), 0x0040_2010_0804_0200);
        // e4: d3, c2, f5, g6, f3, g2, d5, c6, b7.
        assert_eq!(mask(Piece::Bishop, 28), 0x0002_4428_0028_4400);
        let total = |piece| {
            (0..64)
                .map(|s| 1usize << mask(piece, s).count_ones())
                .sum::<usize>()
        };
        assert_eq!(total(Piece::Rook), 102_400);
        assert_eq!(total(Piece::Bishop), 5_248);
    }

    #[test]
    fn reference_attacks_stop_at_the_first_blocker() {
        // Rook on a1, blockers on a3 and d1: a2, a3, b1, c1, d1.
        let occupied = (1 << 16) | (1 << 3);
        assert_eq!(
            attacks(Piece::Rook, 0, occupied),
            (1 << 8) | (1 << 16) | 0b1110
        );
        // Bishop on e4, empty board: 13 squares.
        assert_eq!(attacks(Piece::Bishop, 28, 0).count_ones(), 13);
    }

    #[test]
    fn pext_layout() {
        let Pext {
            rook_rows,
            bishop_rows,
            attacks: table,
        } = pext_tables(&Layout::published()).unwrap();
        assert_eq!(table.len(), 107_648);
        assert_eq!((rook_rows[0][2], bishop_rows[0][2]), (0, 102_400));
        assert!(
            table.iter().all(|&a| a != 0),
            "every slot is some occupancy's attacks"
        );
        let [e4_mask, e4_rays, e4_offset] = rook_rows[28][..] else {
            panic!("a row has three entries");
        };
        assert_eq!(e4_mask, mask(Piece::Rook, 28));
        assert_eq!(e4_rays, attacks(Piece::Rook, 28, 0));
        let occupied = (1 << 20) | (1 << 30) | (1 << 63);
        let entry = table[e4_offset as usize + pext(occupied & e4_mask, e4_mask) as usize];
        assert_eq!(
            pdep(u64::from(entry), e4_rays),
            attacks(Piece::Rook, 28, occupied)
        );
    }
}
