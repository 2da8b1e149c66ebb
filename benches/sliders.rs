//! Rook + bishop lookups, ours against the peers, in one run on one seeded
//! workload: random (square, occupancy) pairs with about a quarter of the
//! board occupied.
//!
//! ```text
//! cargo bench --bench sliders
//! RUSTFLAGS="-C target-cpu=native" cargo bench --bench sliders --features pext
//! ```
//!
//! - `throughput`: independent lookups; the CPU may overlap them.
//! - `latency`: each lookup's occupancy depends on the previous result, so
//!   lookups run one after another.
//!
//! One element is one rook lookup plus one bishop lookup. Each contender gets
//! the workload converted to its own square and bitboard types before
//! timing, so only the lookups are measured.

use std::hint::black_box;
use std::time::Duration;

use bitboards::{Bitboard, Square, attacks};
use bitboards_codegen::rng::SplitMix64;
use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};

const PAIRS: usize = 4096;

/// (square index, occupancy) pairs from the project's seeded SplitMix64.
fn workload() -> Vec<(usize, u64)> {
    let mut rng = SplitMix64::new(0x5EED);
    (0..PAIRS)
        .map(|_| {
            (
                (rng.next_u64() % 64) as usize,
                rng.next_u64() & rng.next_u64(),
            )
        })
        .collect()
}

/// One library's types and lookups.
trait Contender {
    const NAME: &'static str;
    type Square: Copy;
    fn square(index: usize) -> Self::Square;
    /// Rook and bishop attacks from `square` with `occupied`, combined.
    fn lookup(square: Self::Square, occupied: u64) -> u64;
}

struct Ours;
impl Contender for Ours {
    const NAME: &'static str = "bitboards";
    type Square = Square;
    fn square(index: usize) -> Square {
        Square::ALL[index]
    }
    #[inline(always)]
    fn lookup(square: Square, occupied: u64) -> u64 {
        let occupied = Bitboard(occupied);
        (attacks::rook(square, occupied) ^ attacks::bishop(square, occupied)).0
    }
}

#[cfg(feature = "pext")]
struct OursPext;
#[cfg(feature = "pext")]
impl Contender for OursPext {
    const NAME: &'static str = "bitboards-pext";
    type Square = Square;
    fn square(index: usize) -> Square {
        Square::ALL[index]
    }
    #[inline(always)]
    fn lookup(square: Square, occupied: u64) -> u64 {
        let occupied = Bitboard(occupied);
        (attacks::pext::rook(square, occupied) ^ attacks::pext::bishop(square, occupied)).0
    }
}

struct Cozy;
impl Contender for Cozy {
    const NAME: &'static str = "cozy-chess";
    type Square = cozy_chess::Square;
    fn square(index: usize) -> cozy_chess::Square {
        cozy_chess::Square::index(index)
    }
    #[inline(always)]
    fn lookup(square: cozy_chess::Square, occupied: u64) -> u64 {
        let blockers = cozy_chess::BitBoard(occupied);
        (cozy_chess::get_rook_moves(square, blockers)
            ^ cozy_chess::get_bishop_moves(square, blockers))
        .0
    }
}

struct Chess;
impl Contender for Chess {
    const NAME: &'static str = "chess";
    type Square = chess::Square;
    fn square(index: usize) -> chess::Square {
        chess::ALL_SQUARES[index]
    }
    #[inline(always)]
    fn lookup(square: chess::Square, occupied: u64) -> u64 {
        let blockers = chess::BitBoard(occupied);
        (chess::get_rook_moves(square, blockers) ^ chess::get_bishop_moves(square, blockers)).0
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Throughput,
    Latency,
}

fn run<C: Contender>(group: &mut BenchmarkGroup<WallTime>, mode: Mode, pairs: &[(usize, u64)]) {
    let native: Vec<(C::Square, u64)> = pairs.iter().map(|&(s, o)| (C::square(s), o)).collect();
    // Every contender answers as we do before any is timed.
    for (&(index, occupied), &(square, _)) in pairs.iter().zip(&native) {
        assert_eq!(
            C::lookup(square, occupied),
            Ours::lookup(Square::ALL[index], occupied),
            "{} disagrees",
            C::NAME
        );
    }
    group.bench_function(C::NAME, |b| match mode {
        Mode::Throughput => b.iter(|| {
            black_box(&native)
                .iter()
                .fold(0, |acc, &(square, occupied)| {
                    acc ^ C::lookup(square, occupied)
                })
        }),
        // Folding the previous result into the next occupancy makes each
        // lookup wait for the one before.
        Mode::Latency => b.iter(|| {
            black_box(&native)
                .iter()
                .fold(0, |previous, &(square, occupied)| {
                    C::lookup(square, occupied ^ (previous & 1))
                })
        }),
    });
}

fn sliders(c: &mut Criterion) {
    let pairs = workload();
    for (name, mode) in [("throughput", Mode::Throughput), ("latency", Mode::Latency)] {
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(PAIRS as u64));
        run::<Ours>(&mut group, mode, &pairs);
        #[cfg(feature = "pext")]
        run::<OursPext>(&mut group, mode, &pairs);
        run::<Cozy>(&mut group, mode, &pairs);
        run::<Chess>(&mut group, mode, &pairs);
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50);
    targets = sliders
}
criterion_main!(benches);
