//! The client against a real engine: Stockfish, at `/usr/games/stockfish`
//! (Debian's `stockfish` package, which `.ci/run` installs) or where
//! `STOCKFISH` says. Without it, each test prints that it was skipped
//! (and fails under `CI=true`, which `.ci/run` sets).

use std::time::Duration;

use bitboards::{Game, Position};
use bitboards_engine::{Engine, EngineBuilder, EngineError, Limit, OptionKind, Score};

mod common;
use common::stockfish;

fn start(path: &str) -> Engine {
    let mut engine = EngineBuilder::new(path)
        .search_timeout(Duration::from_secs(60))
        .start()
        .unwrap();
    engine.set_option("Threads", 1).unwrap();
    engine.set_option("Hash", 16).unwrap();
    engine
}

/// Plays `moves` from `position`, checking each is legal.
fn play_out(position: &Position, moves: &[bitboards::Move]) -> Position {
    let mut position = *position;
    for &mv in moves {
        position = position.play(mv).expect("a legal PV move");
    }
    position
}

const POSITIONS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

#[test]
fn handshake_and_options() {
    let Some(path) = stockfish() else { return };
    let mut engine = Engine::start(&path, [] as [&str; 0]).unwrap();
    assert!(
        engine.name().unwrap().starts_with("Stockfish"),
        "{:?}",
        engine.name()
    );
    assert!(engine.author().is_some());
    let options = engine.options();
    assert!(matches!(
        options.get("Hash").unwrap().kind,
        OptionKind::Spin { min: 1, .. }
    ));
    assert!(matches!(
        options.get("Threads").unwrap().kind,
        OptionKind::Spin {
            default: 1,
            min: 1,
            ..
        }
    ));
    assert!(
        matches!(options.get("MultiPV").unwrap().kind, OptionKind::Spin { default: 1, min: 1, max } if max >= 256)
    );
    assert!(matches!(
        options.get("UCI_Chess960").unwrap().kind,
        OptionKind::Check { default: false }
    ));
    assert_eq!(options.get("Clear Hash").unwrap().kind, OptionKind::Button);
    assert!(matches!(
        options.get("SyzygyPath").unwrap().kind,
        OptionKind::String { .. }
    ));

    assert!(matches!(
        engine.set_option("Hsh", 1),
        Err(EngineError::UnknownOption { .. })
    ));
    assert!(matches!(
        engine.set_option("Hash", 0),
        Err(EngineError::InvalidOptionValue { .. })
    ));
    assert!(matches!(
        engine.set_option("Threads", "two"),
        Err(EngineError::InvalidOptionValue { .. })
    ));
    assert!(matches!(
        engine.set_option("Ponder", 3),
        Err(EngineError::InvalidOptionValue { .. })
    ));
    engine.set_option("Hash", 32).unwrap();
    engine.set_option("UCI_ShowWDL", true).unwrap();
    engine
        .set_option("Clear Hash", bitboards_engine::OptionValue::Button)
        .unwrap();
    engine.is_ready().unwrap();
    // WDL shown: read from the side to move, and turned for White.
    let black = Position::from_fen(POSITIONS[3]).unwrap();
    let analysis = engine.analyse(&black, &Limit::nodes(2000), 1).unwrap();
    let info = analysis.info().unwrap();
    let wdl = info.wdl.expect("wdl with UCI_ShowWDL");
    assert_eq!(info.white_wdl().unwrap().win, wdl.loss);
    engine.quit().unwrap();
}

#[test]
fn analyse_one_and_three_pvs() {
    let Some(path) = stockfish() else { return };
    let mut engine = start(&path);
    for fen in POSITIONS {
        let position = Position::from_fen(fen).unwrap();
        for multipv in [1, 3] {
            engine.new_game().unwrap();
            let mut lines = 0;
            let analysis = engine
                .analyse_with(&position, &Limit::nodes(20_000), multipv, |_| lines += 1)
                .unwrap();
            assert!(lines >= multipv as usize);
            assert_eq!(analysis.infos.len(), multipv as usize, "{fen}");
            assert!(analysis.warnings.is_empty(), "{:?}", analysis.warnings);
            let best = analysis.best.unwrap();
            assert!(position.is_legal(best));
            assert_eq!(analysis.infos[0].pv[0], best, "{fen}");
            let mut firsts = Vec::new();
            for (rank, info) in analysis.infos.iter().enumerate() {
                assert_eq!(info.multipv as usize, rank + 1);
                assert!(info.depth.unwrap() > 0);
                assert!(info.seldepth.is_some() && info.nodes.is_some() && info.time.is_some());
                assert!(info.score.is_some());
                assert!(!info.pv.is_empty());
                play_out(&position, &info.pv);
                firsts.push(info.pv[0]);
            }
            firsts.dedup();
            assert_eq!(firsts.len(), multipv as usize, "each PV its own first move");
            if let Some(ponder) = analysis.ponder {
                assert!(position.play(best).unwrap().is_legal(ponder));
            }
        }
    }
}

#[test]
fn mate_in_two() {
    let Some(path) = stockfish() else { return };
    let mut engine = start(&path);
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10";
    let position = Position::from_fen(fen).unwrap();
    let analysis = engine.analyse(&position, &Limit::nodes(50_000), 1).unwrap();
    assert_eq!(analysis.score(), Some(Score::Mate(2)));
    assert_eq!(analysis.white_score(), Some(Score::Mate(2)));
    let info = analysis.info().unwrap();
    assert_eq!(info.pv.len(), 3);
    assert!(play_out(&position, &info.pv).is_checkmate());
    assert_eq!(position.uci(analysis.best.unwrap()).to_string(), "d5f6");
    // From the side being mated, after the first move: mated in one... or two
    // after the reply, from Black's view a negative mate.
    let after = position.play(analysis.best.unwrap()).unwrap();
    let analysis = engine.analyse(&after, &Limit::nodes(50_000), 1).unwrap();
    assert_eq!(analysis.score(), Some(Score::Mate(-1)));
    assert_eq!(analysis.white_score(), Some(Score::Mate(1)));
    // Mate on the board: no best move, and `mate 0`.
    let mated = play_out(&position, &info.pv);
    let analysis = engine.analyse(&mated, &Limit::nodes(1000), 1).unwrap();
    assert_eq!(analysis.best, None);
    assert_eq!(analysis.score(), Some(Score::Mated));
    assert!(matches!(
        engine.play(&mated, &Limit::nodes(1000)),
        Err(EngineError::NoLegalMove { .. })
    ));
    // A mate search.
    let analysis = engine.analyse(&position, &Limit::mate(2), 1).unwrap();
    assert_eq!(analysis.score(), Some(Score::Mate(2)));
}

#[test]
fn play_a_game_of_legal_moves() {
    let Some(path) = stockfish() else { return };
    let mut engine = start(&path);
    engine.new_game().unwrap();
    let mut game = Game::new(Position::START);
    for _ in 0..16 {
        if game.position().legal_moves().is_empty() {
            break;
        }
        let mv = engine.play(&game, &Limit::nodes(2000)).unwrap();
        assert!(game.position().is_legal(mv));
        game.play(mv).unwrap();
    }
    assert_eq!(game.moves().len(), 16);
    // A movetime: back within its time and the margin.
    let started = std::time::Instant::now();
    let mv = engine
        .play(&game, &Limit::movetime(Duration::from_millis(100)))
        .unwrap();
    assert!(game.position().is_legal(mv));
    assert!(started.elapsed() < Duration::from_millis(3000));
}

#[test]
fn chess960_castling_with_stockfish() {
    let Some(path) = stockfish() else { return };
    let mut engine = start(&path);
    // King b1, rook a1 and h1... castling both ways is legal for White; the
    // moves are sent and read king-takes-rook.
    let position =
        Position::from_fen("1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAhb - 0 1").unwrap();
    let castles: Vec<_> = position
        .legal_moves()
        .iter()
        .copied()
        .filter(|mv| mv.is_castling())
        .collect();
    assert_eq!(castles.len(), 2);
    for castle in castles {
        let analysis = engine
            .analyse((&position, &[castle][..]), &Limit::nodes(5000), 3)
            .unwrap();
        assert!(analysis.warnings.is_empty(), "{:?}", analysis.warnings);
        let after = position.play(castle).unwrap();
        assert!(after.is_legal(analysis.best.unwrap()));
        for info in &analysis.infos {
            play_out(&after, &info.pv);
        }
    }
    // Every Chess960 start position tried here: a legal move back.
    for number in [0, 100, 518, 959] {
        let start = Position::chess960(number).unwrap();
        let mv = engine.play(&start, &Limit::nodes(1000)).unwrap();
        assert!(start.is_legal(mv));
    }
}

/// Stockfish with one thread at a node limit after `ucinewgame` is
/// deterministic: two engines agree on the move and the score.
#[test]
fn fresh_engines_agree_at_a_node_limit() {
    let Some(path) = stockfish() else { return };
    let mut first = start(&path);
    let mut second = start(&path);
    for fen in POSITIONS {
        let position = Position::from_fen(fen).unwrap();
        let mut results = Vec::new();
        for engine in [&mut first, &mut second] {
            engine.new_game().unwrap();
            let analysis = engine.analyse(&position, &Limit::nodes(10_000), 1).unwrap();
            let info = analysis.info().unwrap().clone();
            results.push((analysis.best, info.score, info.depth, info.pv));
        }
        assert_eq!(results[0], results[1], "{fen}");
    }
}
