//! Does analysing a game backwards pay, as fishnet does it? Each game of a
//! Lichess-shaped file (seeded) is analysed by one engine after one
//! `ucinewgame`, every position after a move at NODES nodes: forwards (as
//! `bitboards analyse` does) and backwards (the last move first, so that
//! the hash carries what was found at the end of the game to the positions
//! before it). Both are compared with a reference: each position searched
//! at REFERENCE nodes after a `ucinewgame` of its own. Figures: the time,
//! the mean depth, how often the best move is the reference's, and the
//! mean gap to the reference's eval (centipawns, clipped at 1,000; a mate
//! as 1,000).
//!
//! ```text
//! cargo build --release -p bitboards-cli --examples
//! target/release/examples/game_order [ENGINE] [GAMES] [NODES] [REFERENCE]
//! ```

use std::time::Instant;

use bitboards::{Move, Position};
use bitboards_engine::{Analysis, Engine, EngineBuilder, Limit, Score};

fn clipped(score: Option<Score>) -> i32 {
    score.map_or(0, |score| score.score(1000).clamp(-1000, 1000))
}

/// Every game's positions after each move, searched in `order` by one
/// engine after one `ucinewgame` per game: the analyses per game in ply
/// order, and the seconds taken.
fn analyse_games(
    engine: &mut Engine,
    games: &[(Position, Vec<Move>)],
    limit: &Limit,
    backwards: bool,
) -> (Vec<Vec<Analysis>>, f64) {
    let started = Instant::now();
    let mut all = Vec::new();
    for (start, moves) in games {
        engine.new_game().unwrap();
        let mut plies: Vec<usize> = (1..=moves.len()).collect();
        if backwards {
            plies.reverse();
        }
        let mut found: Vec<Option<Analysis>> = vec![None; moves.len()];
        for ply in plies {
            found[ply - 1] = Some(engine.analyse((start, &moves[..ply]), limit, 1).unwrap());
        }
        all.push(found.into_iter().map(Option::unwrap).collect());
    }
    (all, started.elapsed().as_secs_f64())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "/usr/games/stockfish".to_owned());
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(6);
    let nodes: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let reference: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(200_000);
    let pgn = bitboards_test_support::lichess_games(count, 3);
    let games: Vec<(Position, Vec<Move>)> = bitboards_pgn::Reader::new(&pgn[..])
        .games()
        .map(|game| {
            let game = game.expect("a game");
            (*game.mainline.start(), game.mainline.moves().to_vec())
        })
        .collect();
    let positions: usize = games.iter().map(|(_, moves)| moves.len()).sum();
    let start = || {
        let mut engine = EngineBuilder::new(path.as_str())
            .start()
            .expect("the engine");
        engine.set_option("Threads", 1).unwrap();
        engine.set_option("Hash", 16).unwrap();
        engine
    };
    // The reference: every position alone, deeper; on two engines.
    let jobs: Vec<(Position, Vec<Move>)> = games
        .iter()
        .flat_map(|(start, moves)| (1..=moves.len()).map(|ply| (*start, moves[..ply].to_vec())))
        .collect();
    let limit = Limit::nodes(reference);
    let halves: Vec<Vec<Analysis>> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(2))
            .map(|chunk| {
                let start = &start;
                scope.spawn(move || {
                    let mut engine = start();
                    chunk
                        .iter()
                        .map(|(position, moves)| {
                            engine.new_game().unwrap();
                            engine
                                .analyse((position, moves.as_slice()), &limit, 1)
                                .unwrap()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().unwrap())
            .collect()
    });
    let reference: Vec<Analysis> = halves.into_iter().flatten().collect();
    println!(
        "Games forwards and backwards: {count} Lichess-shaped games, {positions} positions at \
         nodes={nodes}, one engine, one ucinewgame per game; against each position alone at \
         nodes={}\n",
        limit.nodes.unwrap_or(0)
    );
    println!("| order | seconds | mean depth | best move = reference's | mean eval gap (cp) |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    let mut engine = start();
    for (name, backwards) in [("forwards", false), ("backwards", true)] {
        let (found, seconds) = analyse_games(&mut engine, &games, &Limit::nodes(nodes), backwards);
        let found: Vec<&Analysis> = found.iter().flatten().collect();
        let depth: f64 = found
            .iter()
            .map(|analysis| f64::from(analysis.info().and_then(|info| info.depth).unwrap_or(0)))
            .sum::<f64>()
            / found.len() as f64;
        let same = found
            .iter()
            .zip(&reference)
            .filter(|(found, reference)| found.best == reference.best)
            .count();
        let gap: f64 = found
            .iter()
            .zip(&reference)
            .map(|(found, reference)| {
                f64::from((clipped(found.white_score()) - clipped(reference.white_score())).abs())
            })
            .sum::<f64>()
            / found.len() as f64;
        println!(
            "| {name} | {seconds:.1} | {depth:.1} | {:.1}% | {gap:.1} |",
            100.0 * same as f64 / found.len() as f64
        );
    }
}
