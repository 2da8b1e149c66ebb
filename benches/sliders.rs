//! Rook + bishop lookups, ours against the peers, in one run on one seeded
//! workload: random (square, occupancy) pairs with about a quarter of the
//! board occupied.
//!
//! ```text
//! cargo bench --bench sliders
//! cargo bench --bench sliders --features compact   # `bitboards` is then the compact layout too
//! RUSTFLAGS="-C target-cpu=native" cargo bench --bench sliders --features pext
//! ```
//!
//! - `throughput`: independent lookups; the CPU may overlap them.
//! - `latency`: each lookup's occupancy depends on the previous result, so
//!   lookups run one after another.
//!
//! Criterion measures each contender in turn; then every contender runs in
//! interleaved rounds, and the best pass of each is printed with its ratio
//! to the best peer: the figures docs/performance.md's slider section quotes.
//!
//! One element is one rook lookup plus one bishop lookup. Each contender gets
//! the workload converted to its own square and bitboard types before
//! timing, so only the lookups are measured.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bitboards::{Bitboard, Square, attacks};
use bitboards_test_support::SplitMix64;
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

/// The compact layout (`attacks::compact`, what feature `compact` makes
/// `attacks::rook` and `attacks::bishop`), side by side with the default.
struct OursCompact;
impl Contender for OursCompact {
    const NAME: &'static str = "bitboards-compact";
    type Square = Square;
    fn square(index: usize) -> Square {
        Square::ALL[index]
    }
    #[inline(always)]
    fn lookup(square: Square, occupied: u64) -> u64 {
        let occupied = Bitboard(occupied);
        (attacks::compact::rook(square, occupied) ^ attacks::compact::bishop(square, occupied)).0
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

/// One pass over the workload: every lookup independent, or each waiting
/// for the one before.
#[inline(always)]
fn pass<C: Contender>(mode: Mode, native: &[(C::Square, u64)]) -> u64 {
    match mode {
        Mode::Throughput => black_box(native)
            .iter()
            .fold(0, |acc, &(square, occupied)| {
                acc ^ C::lookup(square, occupied)
            }),
        // Folding the previous result into the next occupancy makes each
        // lookup wait for the one before.
        Mode::Latency => black_box(native)
            .iter()
            .fold(0, |previous, &(square, occupied)| {
                C::lookup(square, occupied ^ (previous & 1))
            }),
    }
}

/// The workload in `C`'s own types, after checking that `C` answers as we
/// do for every pair.
fn native<C: Contender>(pairs: &[(usize, u64)]) -> Vec<(C::Square, u64)> {
    let native: Vec<(C::Square, u64)> = pairs.iter().map(|&(s, o)| (C::square(s), o)).collect();
    for (&(index, occupied), &(square, _)) in pairs.iter().zip(&native) {
        assert_eq!(
            C::lookup(square, occupied),
            Ours::lookup(Square::ALL[index], occupied),
            "{} disagrees",
            C::NAME
        );
    }
    native
}

fn run<C: Contender>(group: &mut BenchmarkGroup<WallTime>, mode: Mode, pairs: &[(usize, u64)]) {
    let native = native::<C>(pairs);
    group.bench_function(C::NAME, |b| b.iter(|| pass::<C>(mode, &native)));
}

/// One contender in the interleaved rounds: its name, whether it is a peer,
/// one timed pass per mode, and the best time of each so far.
struct Entrant {
    name: &'static str,
    peer: bool,
    timed: Box<dyn Fn(Mode) -> Duration>,
    best: [Duration; 2],
}

fn entrant<C: Contender + 'static>(pairs: &[(usize, u64)], peer: bool) -> Entrant {
    let native = native::<C>(pairs);
    Entrant {
        name: C::NAME,
        peer,
        timed: Box::new(move |mode| {
            // One untimed pass first, so that every timed pass starts warm.
            black_box(pass::<C>(mode, &native));
            let start = Instant::now();
            black_box(pass::<C>(mode, &native));
            start.elapsed()
        }),
        best: [Duration::MAX; 2],
    }
}

/// Every contender in interleaved rounds (the order rotating), keeping each
/// one's best pass: on a shared, busy machine the best of many short passes
/// is what a lookup costs, where criterion's means above drift with the
/// load. Prints nanoseconds per element and the ratio to the best peer of
/// the same run. `SLIDER_ROUNDS` sets the rounds (default 2000).
fn interleaved(_: &mut Criterion) {
    let pairs = workload();
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too
    // (without it), and then a few rounds show that it works.
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let rounds = std::env::var("SLIDER_ROUNDS")
        .ok()
        .and_then(|rounds| rounds.parse().ok())
        .unwrap_or(if benchmarking { 2000 } else { 3 });
    let mut entrants = vec![
        entrant::<Ours>(&pairs, false),
        entrant::<OursCompact>(&pairs, false),
        #[cfg(feature = "pext")]
        entrant::<OursPext>(&pairs, false),
        entrant::<Cozy>(&pairs, true),
        entrant::<Chess>(&pairs, true),
    ];
    for round in 0..rounds {
        let count = entrants.len();
        for k in 0..count {
            let entrant = &mut entrants[(round + k) % count];
            for (slot, mode) in [Mode::Throughput, Mode::Latency].into_iter().enumerate() {
                entrant.best[slot] = entrant.best[slot].min((entrant.timed)(mode));
            }
        }
    }
    let per_pair = |time: Duration| time.as_secs_f64() * 1e9 / PAIRS as f64;
    let best_peer = |slot: usize| {
        entrants
            .iter()
            .filter(|entrant| entrant.peer)
            .map(|entrant| per_pair(entrant.best[slot]))
            .fold(f64::MAX, f64::min)
    };
    let peers = [best_peer(0), best_peer(1)];
    println!(
        "\ninterleaved, best of {rounds} rounds (ns per rook + bishop pair; ratio = best peer / this)"
    );
    println!(
        "{:<20} {:>10} {:>7} {:>10} {:>7}",
        "", "throughput", "ratio", "latency", "ratio"
    );
    for entrant in &entrants {
        let [throughput, latency] = entrant.best.map(per_pair);
        println!(
            "{:<20} {throughput:>10.2} {:>6.2}x {latency:>10.2} {:>6.2}x",
            entrant.name,
            peers[0] / throughput,
            peers[1] / latency
        );
    }
}

fn sliders(c: &mut Criterion) {
    let pairs = workload();
    for (name, mode) in [("throughput", Mode::Throughput), ("latency", Mode::Latency)] {
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(PAIRS as u64));
        run::<Ours>(&mut group, mode, &pairs);
        run::<OursCompact>(&mut group, mode, &pairs);
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
    targets = sliders, interleaved
}
criterion_main!(benches);
