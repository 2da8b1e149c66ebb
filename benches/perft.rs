//! Perft speed against the Rust peers, each with its own fastest
//! bulk-counting perft, single thread: `cargo bench --bench perft`.
//!
//! A custom harness, not criterion: one perft to depth 5 or 6 takes a
//! second or more, so each case is run in interleaved rounds (every
//! contender once per round, the order rotating), the best time of each
//! kept, and the result printed as millions of nodes per second with the
//! ratio of ours to the best peer. `PERFT_ROUNDS` sets the rounds (default
//! 5); `PERFT_CASES` runs only the cases whose name contains it.

use std::hint::black_box;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The cases: name, FEN, depth (positions from the perft reference data's
/// README: the start position and the well-known positions 2 to 6).
const CASES: [(&str, &str, u32); 6] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
    ),
    (
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        5,
    ),
    (
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        5,
    ),
];

const CONTENDERS: [&str; 4] = [
    "bitboards",
    "cozy-chess 0.3.4",
    "shakmaty 0.30",
    "chess 3.2.0",
];

/// cozy-chess's own fastest shape: move sets from `generate_moves`, counted
/// by `len()` at the last ply.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += cozy_perft(&child, depth - 1);
        }
        false
    });
    nodes
}

fn run(contender: usize, fen: &str, depth: u32) -> (u64, Duration) {
    // Each contender reads the FEN into its own type outside the timing.
    match contender {
        0 => {
            let position = bitboards::Position::from_fen(fen).expect("a legal FEN");
            let start = Instant::now();
            let nodes = bitboards::perft(black_box(&position), depth);
            (nodes, start.elapsed())
        }
        1 => {
            let board = cozy_chess::Board::from_fen(fen, false).expect("a legal FEN");
            let start = Instant::now();
            let nodes = cozy_perft(black_box(&board), depth);
            (nodes, start.elapsed())
        }
        2 => {
            let position: shakmaty::Chess = shakmaty::fen::Fen::from_str(fen)
                .expect("a FEN")
                .into_position(shakmaty::CastlingMode::Standard)
                .expect("a legal position");
            let start = Instant::now();
            let nodes = shakmaty::perft(black_box(&position), depth);
            (nodes, start.elapsed())
        }
        _ => {
            let board = chess::Board::from_str(fen).expect("a legal FEN");
            let start = Instant::now();
            let nodes = chess::MoveGen::movegen_perft_test(black_box(&board), depth as usize);
            (nodes as u64, start.elapsed())
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too
    // (without it): then one round at depth 3 checks that it works.
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let rounds: usize = std::env::var("PERFT_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(if benchmarking { 5 } else { 1 });
    let filter = std::env::var("PERFT_CASES").unwrap_or_default();

    println!(
        "perft, single thread, best of {rounds} interleaved rounds; million nodes per second\n"
    );
    println!(
        "| case | depth | nodes | {} | ours / best peer |",
        CONTENDERS.join(" | ")
    );
    println!(
        "| --- | ---: | ---: |{} ---: |",
        " ---: |".repeat(CONTENDERS.len())
    );
    for (name, fen, depth) in CASES {
        if !name.contains(filter.as_str()) {
            continue;
        }
        let depth = if benchmarking { depth } else { 3 };
        let mut best = [Duration::MAX; CONTENDERS.len()];
        let mut nodes = [0u64; CONTENDERS.len()];
        for round in 0..rounds {
            for offset in 0..CONTENDERS.len() {
                let contender = (round + offset) % CONTENDERS.len();
                let (count, time) = run(contender, fen, depth);
                nodes[contender] = count;
                best[contender] = best[contender].min(time);
            }
        }
        assert!(
            nodes.iter().all(|&n| n == nodes[0]),
            "{name}: the contenders disagree: {nodes:?}"
        );
        let mnps: Vec<f64> = best
            .iter()
            .map(|time| nodes[0] as f64 / time.as_secs_f64() / 1e6)
            .collect();
        let best_peer = mnps[1..].iter().copied().fold(0.0, f64::max);
        let cells: Vec<String> = mnps.iter().map(|m| format!("{m:.0}")).collect();
        println!(
            "| {name} | {depth} | {} | {} | **{:.2}x** |",
            nodes[0],
            cells.join(" | "),
            mnps[0] / best_peer
        );
    }
}
