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
//! One element is one rook lookup plus one bishop lookup.

use std::hint::black_box;
use std::time::Duration;

use bitboards::{Bitboard, Square, attacks};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const PAIRS: usize = 4096;

/// (square index, occupancy) pairs from a fixed-seed SplitMix64.
fn workload() -> Vec<(usize, u64)> {
    let mut state = 0x5EED_u64;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    (0..PAIRS)
        .map(|_| ((next() % 64) as usize, next() & next()))
        .collect()
}

fn ours(square: usize, occupied: u64) -> u64 {
    let square = Square::ALL[square];
    (attacks::rook(square, Bitboard(occupied)) ^ attacks::bishop(square, Bitboard(occupied))).0
}

#[cfg(feature = "pext")]
fn ours_pext(square: usize, occupied: u64) -> u64 {
    let square = Square::ALL[square];
    (attacks::pext::rook(square, Bitboard(occupied)) ^ attacks::pext::bishop(square, Bitboard(occupied))).0
}

fn cozy(square: usize, occupied: u64) -> u64 {
    let square = cozy_chess::Square::index(square);
    let blockers = cozy_chess::BitBoard(occupied);
    (cozy_chess::get_rook_moves(square, blockers) ^ cozy_chess::get_bishop_moves(square, blockers)).0
}

fn chess(square: usize, occupied: u64) -> u64 {
    let square = chess::ALL_SQUARES[square];
    let blockers = chess::BitBoard(occupied);
    (chess::get_rook_moves(square, blockers) ^ chess::get_bishop_moves(square, blockers)).0
}

fn contenders() -> Vec<(&'static str, fn(usize, u64) -> u64)> {
    let mut list: Vec<(&'static str, fn(usize, u64) -> u64)> = vec![("bitboards", ours)];
    #[cfg(feature = "pext")]
    list.push(("bitboards-pext", ours_pext));
    list.push(("cozy-chess", cozy));
    list.push(("chess", chess));
    list
}

/// Calls `f` through a generic so that each contender is inlined into its
/// own loop, as it would be in an engine.
#[inline(always)]
fn throughput_loop<F: Fn(usize, u64) -> u64>(pairs: &[(usize, u64)], f: F) -> u64 {
    pairs.iter().fold(0, |acc, &(square, occupied)| acc ^ f(square, occupied))
}

#[inline(always)]
fn latency_loop<F: Fn(usize, u64) -> u64>(pairs: &[(usize, u64)], f: F) -> u64 {
    // Folding the previous result into the next occupancy makes each lookup
    // wait for the one before.
    pairs.iter().fold(0, |previous, &(square, occupied)| f(square, occupied ^ (previous & 1)))
}

macro_rules! for_each_contender {
    ($group:ident, $pairs:ident, $looper:ident) => {
        for (name, _) in contenders() {
            $group.bench_function(name, |b| match name {
                "bitboards" => b.iter(|| $looper(black_box(&$pairs), ours)),
                #[cfg(feature = "pext")]
                "bitboards-pext" => b.iter(|| $looper(black_box(&$pairs), ours_pext)),
                "cozy-chess" => b.iter(|| $looper(black_box(&$pairs), cozy)),
                _ => b.iter(|| $looper(black_box(&$pairs), chess)),
            });
        }
    };
}

fn sliders(c: &mut Criterion) {
    let pairs = workload();
    // Every contender answers the same before any is timed.
    for (name, f) in contenders() {
        for &(square, occupied) in &pairs {
            assert_eq!(f(square, occupied), ours(square, occupied), "{name} disagrees");
        }
    }

    let mut group = c.benchmark_group("throughput");
    group.throughput(Throughput::Elements(PAIRS as u64));
    for_each_contender!(group, pairs, throughput_loop);
    group.finish();

    let mut group = c.benchmark_group("latency");
    group.throughput(Throughput::Elements(PAIRS as u64));
    for_each_contender!(group, pairs, latency_loop);
    group.finish();
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
