//! The pool against the scripted engine (`tests/support/fake_engine.rs`)
//! and against Stockfish (at `/usr/games/stockfish` or where `STOCKFISH`
//! says; those tests print that they were skipped without it, and fail
//! under `CI=true`): results in input order, bounded reading of the input,
//! the same results whatever the number of engines, a dead engine replaced
//! and its position retried once, and no process left behind.

use std::cell::Cell;
use std::path::Path;
use std::time::{Duration, Instant};

use bitboards::Position;
use bitboards_engine::{EngineBuilder, EngineError, Job, Limit, OptionValue, Pool};

mod common;
use common::stockfish;

/// Positions of seeded random games from the start, each with a legal move.
fn positions(count: usize) -> Vec<Position> {
    bitboards_test_support::random_positions(count, 7, 60)
}

const FAKE: &str = env!("CARGO_BIN_EXE_fake-uci-engine");

/// The fake engine in `mode` (with `args`), with short deadlines.
fn fake(mode: &str, args: &[&str]) -> EngineBuilder {
    EngineBuilder::new(FAKE)
        .arg(mode)
        .args(args.iter().copied())
        .handshake_timeout(Duration::from_millis(1500))
        .ready_timeout(Duration::from_millis(1500))
        .search_timeout(Duration::from_millis(1500))
        .stop_grace(Duration::from_millis(300))
        .quit_grace(Duration::from_millis(300))
}

/// Whether the process `pid` is gone (reaped: a zombie keeps its `/proc`
/// entry).
fn gone(pid: u32) -> bool {
    !Path::new(&format!("/proc/{pid}")).exists()
}

fn assert_all_gone(pids: &[u32]) {
    assert!(!pids.is_empty());
    let left: Vec<u32> = pids.iter().copied().filter(|&pid| !gone(pid)).collect();
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

/// The fake engine's answer: the first legal move.
fn first_move(position: &Position) -> bitboards::Move {
    position.legal_moves().as_slice()[0]
}

#[test]
fn results_come_in_input_order() {
    let positions = positions(60);
    let mut pool = Pool::new(fake("random-delay", &[]), 3, &[]).unwrap();
    assert_eq!(pool.engines(), 3);
    let results: Vec<_> = pool
        .analyse_all(&positions, &Limit::nodes(1), 1, true)
        .collect();
    assert_eq!(results.len(), positions.len());
    for (position, result) in positions.iter().zip(&results) {
        let analysis = result.as_ref().unwrap();
        assert_eq!(analysis.position, *position);
        assert_eq!(analysis.best, Some(first_move(position)));
    }
    // The pool can be used again, with its engines.
    let again: Vec<_> = pool
        .analyse_all(
            positions[..5].iter().map(Job::from),
            &Limit::nodes(1),
            2,
            false,
        )
        .map(Result::unwrap)
        .collect();
    assert_eq!(again.len(), 5);
    assert_eq!(again[4].infos.len(), 2);
    assert_eq!(pool.started_pids().len(), 3);
    let pids = pool.started_pids();
    drop(pool);
    assert_all_gone(&pids);
}

#[test]
fn jobs_with_moves_and_an_empty_input() {
    let mut pool = Pool::new(fake("normal", &[]), 2, &[("Hash", OptionValue::from(32))]).unwrap();
    let e4 = Position::START.parse_uci("e2e4").unwrap();
    let jobs = vec![
        Job::from(Position::START),
        Job::from((Position::START, vec![e4])),
    ];
    let results: Vec<_> = pool
        .analyse_all(jobs, &Limit::nodes(1), 1, true)
        .map(Result::unwrap)
        .collect();
    assert_eq!(results[0].position, Position::START);
    assert_eq!(results[1].position, Position::START.play(e4).unwrap());
    assert_eq!(
        pool.analyse_all(Vec::<Job>::new(), &Limit::nodes(1), 1, true)
            .count(),
        0
    );
}

#[test]
fn the_input_is_read_only_as_results_are_taken() {
    let positions = positions(200);
    let mut pool = Pool::new(fake("normal", &[]), 2, &[]).unwrap();
    let window = pool.window();
    assert_eq!(window, 8);
    let pulled = Cell::new(0usize);
    let jobs = positions.iter().inspect(|_| pulled.set(pulled.get() + 1));
    let mut results = pool.analyse_all(jobs, &Limit::nodes(1), 1, true);
    for taken in 1..=20 {
        results.next().unwrap().unwrap();
        assert!(
            pulled.get() <= taken + window,
            "{} jobs read for {taken} results",
            pulled.get()
        );
    }
    drop(results);
    assert!(pulled.get() <= 20 + window);
}

#[test]
fn a_dead_engine_is_replaced_and_its_position_retried() {
    // Each process dies at its second `go`: every other position is
    // retried on a fresh engine, and succeeds there.
    let positions = positions(10);
    let mut pool = Pool::new(fake("die-on-nth-go", &["2"]), 1, &[]).unwrap();
    let results: Vec<_> = pool
        .analyse_all(&positions, &Limit::nodes(1), 1, true)
        .collect();
    for (position, result) in positions.iter().zip(&results) {
        let analysis = result.as_ref().unwrap();
        assert_eq!(analysis.best, Some(first_move(position)));
    }
    // The first engine took positions 0 and 1 (dying there); each
    // replacement took one retried position and the next.
    let pids = pool.started_pids();
    assert_eq!(pids.len(), 10, "{pids:?}");
    drop(pool);
    assert_all_gone(&pids);
}

#[test]
fn a_position_that_kills_every_engine_fails_and_the_others_go_on() {
    let positions = positions(12);
    let deadly = positions[5].fen().to_string();
    let mut pool = Pool::new(fake("die-on-position", &[&deadly]), 2, &[]).unwrap();
    let started = Instant::now();
    let results: Vec<_> = pool
        .analyse_all(&positions, &Limit::nodes(1), 1, true)
        .collect();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(results.len(), 12);
    for (index, (position, result)) in positions.iter().zip(&results).enumerate() {
        if index == 5 {
            let error = result.as_ref().unwrap_err();
            assert_eq!(error.index, 5);
            assert_eq!(error.attempts, 2);
            assert!(
                matches!(error.error, EngineError::Terminated { .. }),
                "{error:?}"
            );
            assert!(error.to_string().starts_with("position 5: "), "{error}");
        } else {
            assert_eq!(result.as_ref().unwrap().best, Some(first_move(position)));
        }
    }
    // The two engines, the fresh one that died on position 5 too, and
    // the one that replaced it if its thread took another job.
    let pids = pool.started_pids();
    assert!((3..=4).contains(&pids.len()), "{pids:?}");
    drop(pool);
    assert_all_gone(&pids);
}

#[test]
fn an_error_of_the_request_is_not_retried() {
    let mut pool = Pool::new(fake("normal", &[]), 1, &[]).unwrap();
    let e4 = Position::START.parse_uci("e2e4").unwrap();
    // e2e4 twice: the second is illegal.
    let jobs = vec![
        Job::from((Position::START, vec![e4, e4])),
        Job::from(Position::START),
    ];
    let results: Vec<_> = pool.analyse_all(jobs, &Limit::nodes(1), 1, true).collect();
    let error = results[0].as_ref().unwrap_err();
    assert_eq!((error.index, error.attempts), (0, 1));
    assert!(matches!(
        error.error,
        EngineError::IllegalMoveInQuery { index: 1, .. }
    ));
    assert!(results[1].is_ok());
    assert_eq!(pool.started_pids().len(), 1);
}

#[test]
fn engines_that_cannot_start_are_an_error() {
    let started = Instant::now();
    let error = Pool::new(EngineBuilder::new("/nonexistent/engine"), 2, &[]).unwrap_err();
    assert!(matches!(error, EngineError::Spawn { .. }), "{error:?}");
    let error = Pool::new(fake("no-uciok", &[]), 2, &[]).unwrap_err();
    assert!(matches!(error, EngineError::NotUci { .. }), "{error:?}");
    // An option the engine refuses: the engines started are shut down.
    let error = Pool::new(fake("normal", &[]), 2, &[("Hsh", OptionValue::from(1))]).unwrap_err();
    assert!(
        matches!(error, EngineError::UnknownOption { .. }),
        "{error:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn dropping_the_results_mid_stream_stops_and_reaps() {
    let positions = positions(500);
    let mut pool = Pool::new(fake("random-delay", &[]), 2, &[]).unwrap();
    let started = Instant::now();
    let taken: Vec<_> = pool
        .analyse_all(&positions, &Limit::nodes(1), 1, true)
        .take(5)
        .map(Result::unwrap)
        .collect();
    assert_eq!(taken.len(), 5);
    // Not the 500: only the searches under way were finished.
    assert!(started.elapsed() < Duration::from_secs(5));
    let pids = pool.started_pids();
    assert_eq!(pids.len(), 2);
    assert!(pids.iter().all(|&pid| !gone(pid)), "the engines are kept");
    drop(pool);
    assert_all_gone(&pids);
}

fn stockfish_pool(path: &str, engines: usize) -> Pool {
    let builder = EngineBuilder::new(path).search_timeout(Duration::from_secs(60));
    let options = [
        ("Threads", OptionValue::from(1)),
        ("Hash", OptionValue::from(16)),
    ];
    Pool::new(builder, engines, &options).unwrap()
}

/// What a search at a node limit determines: not `time`, `nps`.
type Found = (
    Option<bitboards::Move>,
    Option<bitboards::Move>,
    Vec<(
        u32,
        Option<u32>,
        Option<u32>,
        Option<u64>,
        String,
        Vec<bitboards::Move>,
    )>,
);

fn found(analysis: &bitboards_engine::Analysis) -> Found {
    (
        analysis.best,
        analysis.ponder,
        analysis
            .infos
            .iter()
            .map(|info| {
                (
                    info.multipv,
                    info.depth,
                    info.seldepth,
                    info.nodes,
                    format!("{:?}", info.score),
                    info.pv.clone(),
                )
            })
            .collect(),
    )
}

#[test]
fn stockfish_gives_the_same_results_on_one_and_two_engines() {
    let Some(path) = stockfish() else { return };
    let positions = positions(20);
    let limit = Limit::nodes(5000);
    let mut runs = Vec::new();
    for engines in [1, 2] {
        let mut pool = stockfish_pool(&path, engines);
        let results: Vec<Found> = pool
            .analyse_all(&positions, &limit, 1, true)
            .map(|result| found(&result.unwrap()))
            .collect();
        assert_eq!(results.len(), 20);
        let pids = pool.started_pids();
        drop(pool);
        assert_all_gone(&pids);
        runs.push(results);
    }
    for (index, (one, two)) in runs[0].iter().zip(&runs[1]).enumerate() {
        assert_eq!(one, two, "position {index}");
        assert!(one.0.is_some());
    }
    // And with three PVs.
    let mut pool = stockfish_pool(&path, 2);
    let three: Vec<_> = pool
        .analyse_all(&positions[..4], &limit, 3, true)
        .map(Result::unwrap)
        .collect();
    assert!(three.iter().all(|analysis| analysis.infos.len() == 3));
}

#[test]
fn stockfish_keeping_the_hash() {
    let Some(path) = stockfish() else { return };
    let positions = positions(10);
    let mut pool = stockfish_pool(&path, 2);
    let results: Vec<_> = pool
        .analyse_all(&positions, &Limit::nodes(2000), 1, false)
        .map(Result::unwrap)
        .collect();
    for (position, analysis) in positions.iter().zip(&results) {
        assert_eq!(analysis.position, *position);
        assert!(position.is_legal(analysis.best.unwrap()));
    }
}

#[test]
fn a_hung_engine_is_killed_replaced_and_the_position_reported() {
    // `hang` ignores `stop`: killed at the deadline (1.5 s + 0.3 s), a
    // fresh engine tried, killed too.
    let mut pool = Pool::new(fake("hang", &[]), 1, &[]).unwrap();
    let started = Instant::now();
    let results: Vec<_> = pool
        .analyse_all([Position::START], &Limit::nodes(1), 1, true)
        .collect();
    let elapsed = started.elapsed();
    let error = results[0].as_ref().unwrap_err();
    assert_eq!((error.index, error.attempts), (0, 2));
    assert!(
        matches!(error.error, EngineError::Timeout { killed: true, .. }),
        "{error:?}"
    );
    assert!(elapsed >= Duration::from_millis(3000), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
    let pids = pool.started_pids();
    assert_eq!(pids.len(), 2);
    drop(pool);
    assert_all_gone(&pids);
}

#[test]
fn a_search_stopped_at_its_deadline_is_not_retried() {
    // `hang-on-go` answers `stop`: the engine lives on, the position is
    // an error at once, and the engine takes the next.
    let mut pool = Pool::new(fake("hang-on-go", &[]), 1, &[]).unwrap();
    let started = Instant::now();
    let results: Vec<_> = pool
        .analyse_all(
            [Position::START, Position::START],
            &Limit::nodes(1),
            1,
            true,
        )
        .collect();
    assert!(started.elapsed() < Duration::from_secs(12));
    for (index, result) in results.iter().enumerate() {
        let error = result.as_ref().unwrap_err();
        assert_eq!((error.index, error.attempts), (index, 1));
        assert!(
            matches!(error.error, EngineError::Timeout { killed: false, .. }),
            "{error:?}"
        );
    }
    assert_eq!(pool.started_pids().len(), 1);
}

/// Seeded random games: each one's moves from the start.
fn games(count: usize) -> Vec<Job> {
    let mut rng = bitboards_test_support::Rng::new(11);
    (0..count)
        .map(|index| {
            let mut position = Position::START;
            let mut moves = Vec::new();
            for _ in 0..(5 + index % 17) {
                let legal = position.legal_moves();
                let Some(&mv) = legal.as_slice().get(rng.below(legal.len().max(1))) else {
                    break;
                };
                moves.push(mv);
                position = position.play(mv).unwrap();
            }
            Job::from((Position::START, moves))
        })
        .collect()
}

#[test]
fn games_come_back_whole_and_in_input_order() {
    let games = games(25);
    let mut pool = Pool::new(fake("random-delay", &[]), 3, &[]).unwrap();
    let results: Vec<_> = pool
        .analyse_games(&games, &Limit::nodes(1), 1, true)
        .collect();
    assert_eq!(results.len(), games.len());
    for (game, result) in games.iter().zip(&results) {
        let analyses = result.as_ref().unwrap();
        assert_eq!(analyses.len(), game.moves.len());
        // The position after each move, in order.
        let mut position = game.start;
        for (mv, analysis) in game.moves.iter().zip(analyses) {
            position = position.play(*mv).unwrap();
            assert_eq!(analysis.position, position);
            let legal = position.legal_moves();
            assert_eq!(analysis.best, legal.as_slice().first().copied());
        }
    }
    let pids = pool.started_pids();
    drop(pool);
    assert_all_gone(&pids);
}

#[test]
fn a_game_whose_engine_dies_is_searched_again_from_its_start() {
    // Each process dies at its 7th `go`: a game of more than six moves
    // kills its first engine, and its second dies too when the game has
    // more than six; games of up to six moves on a fresh engine succeed.
    let short = games(30)
        .into_iter()
        .filter(|game| game.moves.len() <= 6)
        .take(3);
    let long = games(30).into_iter().find(|game| game.moves.len() > 12);
    let jobs: Vec<Job> = short.chain(long).collect();
    assert_eq!(jobs.len(), 4);
    let mut pool = Pool::new(fake("die-on-nth-go", &["7"]), 1, &[]).unwrap();
    let results: Vec<_> = pool
        .analyse_games(&jobs, &Limit::nodes(1), 1, true)
        .collect();
    assert_eq!(results.len(), 4);
    let failed = results[3].as_ref().unwrap_err();
    assert_eq!((failed.index, failed.game, failed.attempts), (3, true, 2));
    assert!(failed.to_string().starts_with("game 3: "), "{failed}");
    let pids = pool.started_pids();
    drop(pool);
    assert_all_gone(&pids);
}

#[test]
fn stockfish_analyses_a_game_the_same_on_one_and_two_engines() {
    let Some(path) = stockfish() else { return };
    let games = games(6);
    let limit = Limit::nodes(3000);
    let mut runs = Vec::new();
    for engines in [1, 2] {
        let mut pool = stockfish_pool(&path, engines);
        let results: Vec<Vec<Found>> = pool
            .analyse_games(&games, &limit, 1, true)
            .map(|result| result.unwrap().iter().map(found).collect())
            .collect();
        runs.push(results);
    }
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0].len(), 6);
}
