//! Positions per second through a pool of 1 and of 2 engines at
//! `nodes=20000` on the same positions, each after `ucinewgame` (the
//! reproducible default), with one search thread and 16 MB of hash per
//! engine (or HASH_MB); and a check that both give the same results. Beside it, the
//! floor's rate: bare loops that write the same commands to 1 or 2 engine
//! processes (one thread each, half of the positions each) and read their
//! lines until `bestmove`, nothing else; so that the pool's ratio can be
//! told from what the machine gives two engines at the time.
//!
//! ```text
//! cargo run --release -p bitboards-engine --example pool_throughput [ENGINE] [POSITIONS] [NODES] [HASH_MB] [keep-hash]
//! ```
//!
//! With `keep-hash`, no `ucinewgame` (`reset = false`): the engines keep
//! their hash, and 1 and 2 engines may give different results.

use std::time::Instant;

use bitboards::Position;
use bitboards_engine::{EngineBuilder, Limit, OptionValue, Pool};
use bitboards_test_support::BareEngine;

/// One bare engine over `positions`: `ucinewgame`, `isready`, `position`,
/// `go nodes`, its lines read until `bestmove`.
fn bare_engine(path: &str, positions: &[Position], nodes: u64, hash: u32, reset: bool) {
    let mut engine = BareEngine::start(path);
    engine.send(&format!(
        "setoption name Threads value 1\nsetoption name Hash value {hash}\nisready\n"
    ));
    engine.wait_for("readyok");
    for position in positions {
        engine.send(&format!(
            "{}position fen {}\ngo nodes {nodes}\n",
            if reset { "ucinewgame\nisready\n" } else { "" },
            position.fen()
        ));
        engine.wait_for("bestmove");
    }
    engine.quit();
}

/// The floor's positions/s with `engines` bare engines, the positions
/// shared out in equal slices (the engines started before the clock).
fn bare(
    path: &str,
    engines: usize,
    positions: &[Position],
    nodes: u64,
    hash: u32,
    reset: bool,
) -> f64 {
    let share = positions.len().div_ceil(engines);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for slice in positions.chunks(share) {
            scope.spawn(move || bare_engine(path, slice, nodes, hash, reset));
        }
    });
    positions.len() as f64 / started.elapsed().as_secs_f64()
}

/// Positions/s and each position's best move and first PV.
fn run(
    path: &str,
    engines: usize,
    positions: &[Position],
    nodes: u64,
    hash: u32,
    reset: bool,
) -> (f64, Vec<String>) {
    let options = [
        ("Threads", OptionValue::from(1)),
        ("Hash", OptionValue::from(hash)),
    ];
    let mut pool = Pool::new(EngineBuilder::new(path), engines, &options).expect("the engines");
    let started = Instant::now();
    let found: Vec<String> = pool
        .analyse_all(positions, &Limit::nodes(nodes), 1, reset)
        .map(|result| {
            let analysis = result.expect("an analysis");
            let info = analysis.info().expect("a PV");
            format!(
                "{:?} {:?} {:?} {:?}",
                analysis.best, info.score, info.depth, info.pv
            )
        })
        .collect();
    let rate = positions.len() as f64 / started.elapsed().as_secs_f64();
    (rate, found)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "/usr/games/stockfish".to_owned());
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100);
    let nodes: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(20_000);
    let hash: u32 = args.next().and_then(|n| n.parse().ok()).unwrap_or(16);
    let reset = args.next().as_deref() != Some("keep-hash");
    let positions = bitboards_test_support::random_positions(count, 1, 80);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{path}: {count} positions at nodes={nodes}, {}, Threads=1, \
         Hash={hash}, {cores} cores; interleaved rounds",
        if reset {
            "ucinewgame before each"
        } else {
            "the hash kept (no ucinewgame)"
        }
    );
    let mut best = [0.0f64; 4];
    for round in 1..=5 {
        let (one, found_one) = run(&path, 1, &positions, nodes, hash, reset);
        let (two, found_two) = run(&path, 2, &positions, nodes, hash, reset);
        let same = found_one == found_two;
        assert!(same || !reset, "1 and 2 engines disagree");
        let bare_one = bare(&path, 1, &positions, nodes, hash, reset);
        let bare_two = bare(&path, 2, &positions, nodes, hash, reset);
        println!(
            "round {round}: pool 1 engine {one:.1}/s, 2 engines {two:.1}/s ({:.2}x; {}); \
             bare loops 1 engine {bare_one:.1}/s, 2 engines {bare_two:.1}/s ({:.2}x)",
            two / one,
            if same {
                "the same results"
            } else {
                "different results"
            },
            bare_two / bare_one
        );
        for (best, rate) in best.iter_mut().zip([one, two, bare_one, bare_two]) {
            *best = best.max(rate);
        }
    }
    // The best of each: the run least disturbed by other work.
    println!(
        "\nEvery core: positions/s at nodes={nodes}, {} positions, best of 5 interleaved rounds\n",
        positions.len()
    );
    println!("| engines | pool | bare pipe loops | pool / bare |");
    println!("| --- | ---: | ---: | ---: |");
    println!(
        "| 1 | {:.1} | {:.1} | {:.2}x |",
        best[0],
        best[2],
        best[0] / best[2]
    );
    println!(
        "| 2 | {:.1} | {:.1} | {:.2}x |",
        best[1],
        best[3],
        best[1] / best[3]
    );
    println!(
        "| 2 / 1 | **{:.2}x** | {:.2}x | |",
        best[1] / best[0],
        best[3] / best[2]
    );
}
