//! Positions per second through one engine at `nodes=1`: the protocol's
//! cost. Against the floor, a bare loop that writes the same commands to
//! the engine's pipe and reads its lines until `bestmove` (no parsing, no
//! checks), with and without `ucinewgame` + `isready` before each position.
//!
//! ```text
//! cargo run --release -p bitboards-engine --example throughput [ENGINE] [POSITIONS]
//! ```

use std::time::{Duration, Instant};

use bitboards::Position;
use bitboards_engine::{EngineBuilder, Limit};
use bitboards_test_support::BareEngine;

/// The floor: commands written and lines read, nothing else.
fn bare(path: &str, positions: &[Position], new_game: bool) -> f64 {
    let mut engine = BareEngine::start(path);
    let started = Instant::now();
    for position in positions {
        if new_game {
            engine.send("ucinewgame\nisready\n");
            engine.wait_for("readyok");
        }
        engine.send(&format!("position fen {}\ngo nodes 1\n", position.fen()));
        engine.wait_for("bestmove");
    }
    let rate = positions.len() as f64 / started.elapsed().as_secs_f64();
    engine.quit();
    rate
}

/// The client: `analyse` (every info line read, PVs and the best move
/// checked legal), polling for `spin` before sleeping on each line.
fn client(path: &str, positions: &[Position], new_game: bool, spin: Duration) -> f64 {
    let mut engine = EngineBuilder::new(path)
        .spin(spin)
        .start()
        .expect("the engine");
    let limit = Limit::nodes(1);
    let started = Instant::now();
    for position in positions {
        if new_game {
            engine.new_game().unwrap();
        }
        let analysis = engine.analyse(position, &limit, 1).unwrap();
        assert!(analysis.best.is_some());
    }
    positions.len() as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "/usr/games/stockfish".to_owned());
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(4000);
    let positions = bitboards_test_support::random_positions(count, 1, 80);
    // Fewer with ucinewgame: each clears the hash.
    let fresh = &positions[..count / 10];
    println!("{path}: positions/s at nodes=1, one engine, interleaved rounds");
    let polling = Duration::from_micros(300);
    // The best of each: the run least disturbed by other work.
    let mut best = [0.0f64; 6];
    for round in 1..=3 {
        let floor = bare(&path, &positions, false);
        let polled = client(&path, &positions, false, polling);
        let asleep = client(&path, &positions, false, Duration::ZERO);
        let floor_new = bare(&path, fresh, true);
        let polled_new = client(&path, fresh, true, polling);
        let asleep_new = client(&path, fresh, true, Duration::ZERO);
        println!(
            "round {round}: without ucinewgame: floor {floor:.0}, client {polled:.0} ({:.2}x), \
             client without polling {asleep:.0} ({:.2}x); with ucinewgame + isready: floor {floor_new:.0}, \
             client {polled_new:.0} ({:.2}x), without polling {asleep_new:.0} ({:.2}x)",
            polled / floor,
            asleep / floor,
            polled_new / floor_new,
            asleep_new / floor_new
        );
        let rates = [floor, polled, asleep, floor_new, polled_new, asleep_new];
        for (best, rate) in best.iter_mut().zip(rates) {
            *best = best.max(rate);
        }
    }
    println!(
        "\nProtocol cost: positions/s through one engine at nodes=1, best of 3 interleaved rounds \
         ({} positions without ucinewgame, {} with)\n",
        positions.len(),
        fresh.len()
    );
    println!("| case | floor (bare pipe loop) | client | client, not polling | client / floor |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (case, [floor, polled, asleep]) in [
        ("without ucinewgame", [best[0], best[1], best[2]]),
        (
            "ucinewgame + isready before each",
            [best[3], best[4], best[5]],
        ),
    ] {
        println!(
            "| {case} | {floor:.0} | {polled:.0} | {asleep:.0} | **{:.2}x** |",
            polled.max(asleep) / floor
        );
    }
}
