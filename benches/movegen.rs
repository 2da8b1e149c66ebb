//! What an engine's search asks for besides perft, in one run: captures-only
//! generation against the peers, and the throughput of `null_move`,
//! `gives_check` and `see`.
//!
//! ```text
//! cargo bench --bench movegen
//! ```
//!
//! The positions are the perft suite's standard-chess ones that every
//! contender reads (each suite position and every position one legal move
//! after it, for more captures, en passant and promotions than the suite's
//! 126 roots hold).
//!
//! - `captures`: one element is one position's legal captures collected into
//!   a list: ours `Position::captures`; cozy-chess 0.3.4 `generate_moves`
//!   with each piece's targets masked to the enemy's pieces (and the en
//!   passant square for pawns), its documented way; shakmaty 0.30
//!   `capture_moves`. `bitboards (all, then filter)` is our own
//!   `legal_moves` filtered afterwards, the cost that masked generation
//!   avoids.
//! - `engine`: one element is one call of ours, per position (`null_move`)
//!   or per legal move (`gives_check`, with `play` + `is_check` beside it
//!   as the slow way to the same answer) or per capture (`see`).

use std::hint::black_box;
use std::time::Duration;

use bitboards::{MoveKind, Position};
use bitboards_test_support::{epd_fens, read_epd};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen};

const PERFT_SUITE: &str = include_str!("../tests/data/perftsuite.epd");

/// Every contender's form of each workload position.
struct Workload {
    ours: Vec<Position>,
    cozy: Vec<cozy_chess::Board>,
    shakmaty: Vec<Chess>,
}

fn workload() -> Workload {
    let mut ours = Vec::new();
    // The suite's positions the strict rules accept.
    for fen in epd_fens(PERFT_SUITE) {
        let Ok((record, false)) = read_epd(fen) else {
            continue;
        };
        let root = *record.position();
        ours.push(root);
        ours.extend(root.legal_moves().iter().map(|&mv| root.play_unchecked(mv)));
    }
    let mut workload = Workload {
        ours: Vec::new(),
        cozy: Vec::new(),
        shakmaty: Vec::new(),
    };
    for position in ours {
        let fen = position.fen().to_string();
        let Ok(cozy) = cozy_chess::Board::from_fen(&fen, false) else {
            continue;
        };
        let Some(shakmaty) = Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|fen| fen.into_position::<Chess>(CastlingMode::Standard).ok())
        else {
            continue;
        };
        workload.ours.push(position);
        workload.cozy.push(cozy);
        workload.shakmaty.push(shakmaty);
    }
    workload
}

fn ours(positions: &[Position]) -> usize {
    positions
        .iter()
        .map(|position| black_box(position.captures()).len())
        .sum()
}

fn ours_filtered(positions: &[Position]) -> usize {
    positions
        .iter()
        .map(|position| {
            let theirs = position.by_color(position.side_to_move().opponent());
            let mut captures = bitboards::MoveList::new();
            for &mv in &position.legal_moves() {
                if theirs.contains(mv.to()) && !mv.is_castling() || mv.kind() == MoveKind::EnPassant
                {
                    captures.push(mv);
                }
            }
            black_box(captures).len()
        })
        .sum()
}

fn cozy(boards: &[cozy_chess::Board]) -> usize {
    boards
        .iter()
        .map(|board| {
            let us = board.side_to_move();
            let enemy = board.colors(!us);
            let en_passant = board
                .en_passant()
                .map_or(cozy_chess::BitBoard::EMPTY, |file| {
                    cozy_chess::Square::new(file, cozy_chess::Rank::Sixth.relative_to(us))
                        .bitboard()
                });
            let mut captures = Vec::with_capacity(64);
            board.generate_moves(|mut moves| {
                moves.to &= if moves.piece == cozy_chess::Piece::Pawn {
                    enemy | en_passant
                } else {
                    enemy
                };
                captures.extend(moves);
                false
            });
            black_box(captures).len()
        })
        .sum()
}

fn shakmaty(positions: &[Chess]) -> usize {
    positions
        .iter()
        .map(|position| black_box(position.capture_moves()).len())
        .sum()
}

fn captures(c: &mut Criterion) {
    let workload = workload();
    assert!(workload.ours.len() > 1_000, "{}", workload.ours.len());
    // The same answer from everyone, or the comparison means nothing.
    let expected = ours(&workload.ours);
    assert_eq!(ours_filtered(&workload.ours), expected);
    assert_eq!(cozy(&workload.cozy), expected);
    assert_eq!(shakmaty(&workload.shakmaty), expected);

    let mut group = c.benchmark_group("captures");
    group.throughput(Throughput::Elements(workload.ours.len() as u64));
    group.bench_function("bitboards", |b| b.iter(|| ours(black_box(&workload.ours))));
    group.bench_function("bitboards (all, then filter)", |b| {
        b.iter(|| ours_filtered(black_box(&workload.ours)))
    });
    group.bench_function("cozy-chess", |b| b.iter(|| cozy(black_box(&workload.cozy))));
    group.bench_function("shakmaty", |b| {
        b.iter(|| shakmaty(black_box(&workload.shakmaty)))
    });
    group.finish();
}

fn engine(c: &mut Criterion) {
    let positions = workload().ours;
    let moves: Vec<(Position, bitboards::Move)> = positions
        .iter()
        .flat_map(|position| {
            position
                .legal_moves()
                .iter()
                .map(|&mv| (*position, mv))
                .collect::<Vec<_>>()
        })
        .collect();
    let captures: Vec<(Position, bitboards::Move)> = positions
        .iter()
        .flat_map(|position| {
            position
                .captures()
                .iter()
                .map(|&mv| (*position, mv))
                .collect::<Vec<_>>()
        })
        .collect();

    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("null_move", |b| {
        b.iter(|| {
            black_box(&positions)
                .iter()
                .filter_map(Position::null_move)
                .map(|position| position.polyglot_key())
                .fold(0, |acc, key| acc ^ key)
        })
    });
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("gives_check", |b| {
        b.iter(|| {
            black_box(&moves)
                .iter()
                .filter(|(position, mv)| position.gives_check(*mv))
                .count()
        })
    });
    group.bench_function("play + is_check", |b| {
        b.iter(|| {
            black_box(&moves)
                .iter()
                .filter(|(position, mv)| position.play_unchecked(*mv).is_check())
                .count()
        })
    });
    group.throughput(Throughput::Elements(captures.len() as u64));
    group.bench_function("see", |b| {
        b.iter(|| {
            black_box(&captures)
                .iter()
                .map(|(position, mv)| i64::from(position.see(*mv)))
                .sum::<i64>()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);
    targets = captures, engine
}
criterion_main!(benches);
