//! The magic factors of the slider tables: the published ones, or a search
//! with a fixed seed. Each generator function reads them through
//! [`Inputs`](crate::inputs::Inputs); `files/sliders.rs` builds and checks
//! the attack table they index.

use std::time::{Duration, Instant};

use crate::Error;
use crate::geometry::{Slider, square_name, subsets};
use crate::published_magics;
use crate::rng::SplitMix64;

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

pub(crate) fn shift(piece: Slider) -> u32 {
    match piece {
        Slider::Rook => ROOK_SHIFT,
        Slider::Bishop => BISHOP_SHIFT,
    }
}

/// The seed of the magic search: any fixed value works; this one is the
/// fractional part of pi in hex, so it is plainly not tuned.
pub(crate) const SEED: u64 = 0x243F_6A88_85A3_08D3;

/// How many candidates the search tries for one square before giving up.
const MAX_CANDIDATES: u32 = 100_000_000;

/// One square's magic.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Magic {
    pub(crate) mask: u64,
    pub(crate) factor: u64,
    pub(crate) offset: u64,
    pub(crate) shift: u32,
}

impl Magic {
    pub(crate) fn index(&self, occupied: u64) -> usize {
        ((occupied & self.mask).wrapping_mul(self.factor) >> self.shift) as usize
            + self.offset as usize
    }

    pub(crate) fn row(&self) -> Vec<u64> {
        vec![self.mask, self.factor, self.offset]
    }
}

/// Every square's magic for both pieces, the table length they assume, where
/// they came from and how long the search took (when there was one).
#[derive(Clone, Debug)]
pub(crate) struct Magics {
    pub(crate) source: MagicSource,
    pub(crate) rook: Vec<Magic>,
    pub(crate) bishop: Vec<Magic>,
    pub(crate) size: usize,
    pub(crate) search_time: Option<Duration>,
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

    pub(crate) fn of(&self, piece: Slider) -> &[Magic] {
        match piece {
            Slider::Rook => &self.rook,
            Slider::Bishop => &self.bishop,
        }
    }

    pub(crate) fn published() -> Magics {
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
    pub(crate) fn searched() -> Result<Magics, Error> {
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
