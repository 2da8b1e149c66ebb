//! `bitboards analyse` as a user runs it, against what bounds it: the
//! engine's own speed. A Lichess-shaped file of GAMES games (seeded), every
//! position after a move searched to NODES nodes, each game by one engine
//! after one `ucinewgame`; beside it, bare loops that write the same
//! commands to the same number of Stockfish processes (the games dealt out
//! the same way) and read their lines until `bestmove`, nothing else.
//!
//! ```text
//! cargo build --release -p bitboards-cli --examples
//! target/release/examples/analyse_throughput [ENGINE] [GAMES] [NODES]
//! ```
//!
//! The command is found beside the example's directory
//! (`target/release/bitboards`), or at `$BITBOARDS_BIN`.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use bitboards::{Move, Position};
use bitboards_test_support::BareEngine;

/// One bare engine over whole games: per game `ucinewgame` + `isready`,
/// then per ply `position fen START moves ...` and `go nodes N`, its lines
/// read until `bestmove`.
fn bare_engine(path: &str, games: &[(Position, Vec<Move>)], nodes: u64) {
    let mut engine = BareEngine::start(path);
    for (start, moves) in games {
        engine.send("ucinewgame\nisready\n");
        engine.wait_for("readyok");
        let mut text = format!("position fen {} moves", start.fen());
        for &mv in moves {
            text.push(' ');
            text.push_str(&start.uci(mv).to_string());
            engine.send(&format!("{text}\ngo nodes {nodes}\n"));
            engine.wait_for("bestmove");
        }
    }
    engine.quit();
}

/// Positions/s of `engines` bare loops, the games dealt out in turn.
fn bare(path: &str, engines: usize, games: &[(Position, Vec<Move>)], nodes: u64) -> f64 {
    let positions: usize = games.iter().map(|(_, moves)| moves.len()).sum();
    let mut shares = vec![Vec::new(); engines];
    for (index, game) in games.iter().enumerate() {
        shares[index % engines].push(game.clone());
    }
    let started = Instant::now();
    std::thread::scope(|scope| {
        for share in &shares {
            scope.spawn(move || bare_engine(path, share, nodes));
        }
    });
    positions as f64 / started.elapsed().as_secs_f64()
}

/// Positions/s of the command with `engines` engines, writing Parquet.
fn command(bin: &PathBuf, path: &str, file: &str, engines: usize, nodes: u64) -> (f64, u64) {
    let out =
        std::env::temp_dir().join(format!("analyse-throughput-{}.parquet", std::process::id()));
    let started = Instant::now();
    let output = Command::new(bin)
        .args([
            "analyse",
            file,
            "--engine",
            path,
            "--nodes",
            &nodes.to_string(),
        ])
        .args(["--engines", &engines.to_string(), "--to", "parquet"])
        .arg(&out)
        .output()
        .expect("the command");
    let elapsed = started.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let positions: u64 = stderr
        .split_whitespace()
        .next()
        .and_then(|count| count.parse().ok())
        .expect("the summary's count");
    let _ = std::fs::remove_file(&out);
    (positions as f64 / elapsed, positions)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "/usr/games/stockfish".to_owned());
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(24);
    let nodes: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let bin = std::env::var_os("BITBOARDS_BIN").map_or_else(
        || {
            let exe = std::env::current_exe().expect("the example's path");
            exe.parent()
                .and_then(|dir| dir.parent())
                .expect("target/release")
                .join("bitboards")
        },
        PathBuf::from,
    );
    let pgn = bitboards_test_support::lichess_games(count, 3);
    let file = std::env::temp_dir().join(format!("analyse-throughput-{}.pgn", std::process::id()));
    std::fs::write(&file, &pgn).expect("the PGN file");
    let games: Vec<(Position, Vec<Move>)> = bitboards_pgn::Reader::new(&pgn[..])
        .games()
        .map(|game| {
            let game = game.expect("a game");
            (*game.mainline.start(), game.mainline.moves().to_vec())
        })
        .collect();
    let file = file.to_str().expect("a UTF-8 path").to_owned();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut best = [0.0f64; 4];
    let mut positions = 0;
    for round in 1..=3 {
        let (one, counted) = command(&bin, &path, &file, 1, nodes);
        let (two, _) = command(&bin, &path, &file, cores, nodes);
        let bare_one = bare(&path, 1, &games, nodes);
        let bare_two = bare(&path, cores, &games, nodes);
        positions = counted;
        eprintln!(
            "round {round}: command 1 engine {one:.1}/s, {cores} engines {two:.1}/s; \
             bare 1 {bare_one:.1}/s, {cores} {bare_two:.1}/s"
        );
        for (best, rate) in best.iter_mut().zip([one, two, bare_one, bare_two]) {
            *best = best.max(rate);
        }
    }
    let _ = std::fs::remove_file(&file);
    println!(
        "The command: `bitboards analyse FILE --nodes {nodes} --to parquet OUT` on a Lichess-shaped \
         file ({count} games, {positions} positions), positions/s, best of 3 interleaved rounds\n"
    );
    println!(
        "| engines | bitboards analyse | bare pipe loops (the engine alone) | command / bare |"
    );
    println!("| --- | ---: | ---: | ---: |");
    println!(
        "| 1 | {:.1} | {:.1} | **{:.2}x** |",
        best[0],
        best[2],
        best[0] / best[2]
    );
    println!(
        "| {cores} | {:.1} | {:.1} | **{:.2}x** |",
        best[1],
        best[3],
        best[1] / best[3]
    );
}
