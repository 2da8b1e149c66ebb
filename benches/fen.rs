//! FEN parsing, ours against the peers, in one run on the same FENs: the
//! standard-chess positions of the perft suite that every contender accepts
//! (125 of its 126; the one with two bishops checking along a diagonal is
//! refused as unreachable by us and by shakmaty).
//!
//! ```text
//! cargo bench --bench fen
//! ```
//!
//! One element is one FEN read into a checked position: `Position::from_fen`,
//! `cozy_chess::Board::from_fen(fen, false)`, and shakmaty's
//! `Fen::from_ascii` + `into_position::<Chess>(CastlingMode::Standard)`.

use std::hint::black_box;
use std::time::Duration;

use bitboards::Position;
use bitboards::epd;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::{CastlingMode, Chess, fen::Fen};

const PERFT_SUITE: &str = include_str!("../tests/data/perftsuite.epd");

fn ours(fen: &str) -> bool {
    Position::from_fen(fen).is_ok()
}

fn cozy(fen: &str) -> bool {
    cozy_chess::Board::from_fen(fen, false).is_ok()
}

fn shakmaty(fen: &str) -> bool {
    Fen::from_ascii(fen.as_bytes())
        .ok()
        .and_then(|fen| fen.into_position::<Chess>(CastlingMode::Standard).ok())
        .is_some()
}

/// The suite's FENs that all three contenders read: each record read as a
/// `bitboards::Epd` (the one our strict rules refuse is left out there)
/// and its position written back as a FEN, which for this suite is the
/// text of the file.
fn workload() -> Vec<String> {
    let mut fens: Vec<String> = epd::read(PERFT_SUITE)
        .filter_map(Result::ok)
        .map(|record| record.position().fen().to_string())
        .collect();
    let mut seen = std::collections::HashSet::new();
    fens.retain(|fen| seen.insert(fen.clone()) && ours(fen) && cozy(fen) && shakmaty(fen));
    fens
}

fn parse(c: &mut Criterion) {
    let fens = workload();
    assert!(fens.len() >= 120, "only {} FENs read by all", fens.len());
    let mut group = c.benchmark_group("fen");
    group.throughput(Throughput::Elements(fens.len() as u64));
    for (name, read) in [
        ("bitboards", ours as fn(&str) -> bool),
        ("cozy-chess", cozy),
        ("shakmaty", shakmaty),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(&fens)
                    .iter()
                    .filter(|fen| read(black_box(fen)))
                    .count()
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50);
    targets = parse
}
criterion_main!(benches);
