//! The client against the scripted engine (`tests/support/fake_engine.rs`):
//! a normal engine's protocol, and every fault, each a typed error within
//! its deadline, with no process left behind.

use std::path::Path;
use std::time::{Duration, Instant};

use bitboards::{Game, Move, Position};
use bitboards_engine::{
    Bound, Engine, EngineBuilder, EngineError, Limit, OptionKind, OptionValue, Score,
};

const FAKE: &str = env!("CARGO_BIN_EXE_fake-uci-engine");

/// The fake engine in `mode`, with short deadlines. The tests' upper
/// bounds on elapsed time are the deadlines with a few seconds to spare:
/// they tell a deadline from a hang, on a loaded machine too.
fn fake(mode: &str) -> EngineBuilder {
    EngineBuilder::new(FAKE)
        .arg(mode)
        .handshake_timeout(Duration::from_millis(1500))
        .ready_timeout(Duration::from_millis(1500))
        .search_timeout(Duration::from_millis(800))
        .deadline_margin(Duration::from_millis(300))
        .stop_grace(Duration::from_millis(300))
        .quit_grace(Duration::from_millis(300))
}

/// Whether the process `pid` is gone (reaped: a zombie still has its
/// `/proc` entry).
fn gone(pid: u32) -> bool {
    !Path::new(&format!("/proc/{pid}")).exists()
}

/// The processes this thread started that are still there, running or
/// zombies (`None` where the kernel does not list them). Each test runs on
/// a thread of its own, so these are the test's own.
fn children() -> Option<Vec<u32>> {
    let text = std::fs::read_to_string("/proc/thread-self/children").ok()?;
    Some(
        text.split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect(),
    )
}

fn assert_no_children() {
    if let Some(children) = children() {
        assert!(children.is_empty(), "processes left behind: {children:?}");
    }
}

/// Every `info string` of a search: what the fake engine received.
fn received(engine: &mut Engine, position: &Position, moves: &[Move]) -> Vec<String> {
    let mut strings = Vec::new();
    engine
        .analyse_with((position, moves), &Limit::nodes(1), 1, |info| {
            if let Some(text) = &info.string {
                strings.push(text.clone());
            }
        })
        .unwrap();
    strings
}

#[test]
fn handshake_and_typed_options() {
    let engine = fake("normal").start().unwrap();
    assert_eq!(engine.name(), Some("Fake Engine 1.0"));
    assert_eq!(engine.author(), Some("The Tests"));
    let options = engine.options();
    assert_eq!(options.len(), 7);
    assert_eq!(
        options.get("hash").unwrap().kind,
        OptionKind::Spin {
            default: 16,
            min: 1,
            max: 1024
        }
    );
    assert_eq!(
        options.get("UCI_CHESS960").unwrap().kind,
        OptionKind::Check { default: false }
    );
    assert_eq!(options.get("Clear Hash").unwrap().kind, OptionKind::Button);
    assert!(engine.handshake_warnings().is_empty());
    let pid = engine.pid();
    drop(engine);
    assert!(gone(pid), "the engine {pid} was not reaped");
    assert_no_children();
}

#[test]
fn set_option_checks_names_and_values() {
    let mut engine = fake("normal").start().unwrap();
    engine.set_option("Hash", 64).unwrap();
    engine.set_option("hash", "128").unwrap();
    engine.set_option("Style", "risky").unwrap();
    engine
        .set_option("Clear Hash", OptionValue::Button)
        .unwrap();
    engine.set_option("SyzygyPath", "/tmp/tb").unwrap();

    let error = engine.set_option("Hsh", 1).unwrap_err();
    assert!(matches!(error, EngineError::UnknownOption { .. }));
    assert!(error.to_string().contains("`Hsh`") && error.to_string().contains("Hash, Threads"));
    let error = engine.set_option("Hash", 0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "option `Hash` does not take `0`: it takes an integer from 1 to 1024"
    );
    assert!(engine.set_option("Hash", 1025).is_err());
    assert!(engine.set_option("Threads", "many").is_err());
    assert!(engine.set_option("Threads", true).is_err());
    let error = engine.set_option("Style", "Wild").unwrap_err();
    assert!(
        error.to_string().contains("one of: Solid, Normal, Risky"),
        "{error}"
    );
    assert!(engine.set_option("Clear Hash", 1).is_err());
    assert!(engine.set_option("SyzygyPath", "a\nquit").is_err());
    assert!(matches!(
        engine.set_option("MultiPV", 3),
        Err(EngineError::ManagedOption { .. })
    ));
    assert!(matches!(
        engine.set_option("UCI_Chess960", true),
        Err(EngineError::ManagedOption { .. })
    ));
    assert!(!error.is_fatal());
    // Nothing was sent for the refused ones; the accepted ones arrived.
    let strings = received(&mut engine, &Position::START, &[]);
    assert_eq!(
        strings,
        [
            "setoption name Hash value 64",
            "setoption name Hash value 128",
            "setoption name Style value Risky",
            "setoption name Clear Hash",
            "setoption name SyzygyPath value /tmp/tb",
            "position startpos",
        ]
    );
}

#[test]
fn analyse_keeps_the_latest_info_of_each_rank() {
    let mut engine = fake("normal").start().unwrap();
    let mut seen = 0;
    let analysis = engine
        .analyse_with(&Position::START, &Limit::depth(1), 3, |_| seen += 1)
        .unwrap();
    // The setoption echo, the position echo and three PV lines.
    assert_eq!(seen, 5);
    assert_eq!(analysis.infos.len(), 3);
    for (rank, info) in analysis.infos.iter().enumerate() {
        assert_eq!(info.multipv as usize, rank + 1);
        assert_eq!(info.depth, Some(1));
        assert_eq!(info.seldepth, Some(2));
        assert_eq!(info.score, Some(Score::Cp(10 - rank as i32)));
        assert_eq!(info.bound, Bound::Exact);
        assert_eq!(info.nodes, Some(20));
        assert_eq!(info.nps, Some(1000));
        assert_eq!(info.time, Some(Duration::from_millis(3)));
        assert_eq!(info.hashfull, Some(1));
        assert_eq!(info.tbhits, Some(0));
        assert_eq!(info.wdl.unwrap().win, 500);
        assert_eq!(info.pv.len(), 2);
        assert!(Position::START.is_legal(info.pv[0]));
    }
    let best = analysis.best.unwrap();
    assert_eq!(best, analysis.infos[0].pv[0]);
    assert!(
        Position::START
            .play(best)
            .unwrap()
            .is_legal(analysis.ponder.unwrap())
    );
    assert!(analysis.warnings.is_empty(), "{:?}", analysis.warnings);

    // Black to move: the score as given, and from White's view.
    let position = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
    let analysis = engine.analyse(&position, &Limit::nodes(1), 1).unwrap();
    assert_eq!(analysis.score(), Some(Score::Cp(10)));
    assert_eq!(analysis.white_score(), Some(Score::Cp(-10)));
    assert_eq!(analysis.info().unwrap().white_wdl().unwrap().win, 200);
    assert!(position.is_legal(engine.play(&position, &Limit::nodes(1)).unwrap()));
}

#[test]
fn positions_and_chess960_castling_as_sent() {
    let mut engine = fake("normal").start().unwrap();
    let mut game = Game::new(Position::START);
    for san in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6"] {
        game.play_san(san).unwrap();
    }
    game.play_san("O-O").unwrap();
    let strings = received(&mut engine, game.start(), game.moves());
    assert_eq!(
        strings,
        ["position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1"]
    );
    // The same game from a FEN.
    let after = Position::START.play(game.moves()[0]).unwrap();
    let strings = received(&mut engine, &after, &game.moves()[1..3]);
    assert_eq!(
        strings,
        [format!("position fen {} moves e7e5 g1f3", after.fen())]
    );

    // Chess960: king b1, rook a1; castling is b1a1, and UCI_Chess960 goes on.
    let chess960 = Position::from_fen("4k3/8/8/8/8/8/8/RK6 w A - 0 1").unwrap();
    let castle = chess960.parse_uci("b1a1").unwrap();
    assert!(castle.is_castling());
    let strings = received(&mut engine, &chess960, &[castle]);
    assert_eq!(
        strings,
        [
            "setoption name UCI_Chess960 value true".to_owned(),
            format!("position fen {} moves b1a1", chess960.fen()),
        ]
    );
    // The engine answers in the Chess960 notation; the client reads it.
    let analysis = engine.analyse(&chess960, &Limit::nodes(1), 1).unwrap();
    assert!(chess960.is_legal(analysis.best.unwrap()));
    // Back to standard chess: off again, and castling as the king's move.
    let standard = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let castle = standard.parse_uci("e1h1").unwrap();
    let strings = received(&mut engine, &standard, &[castle]);
    assert_eq!(
        strings,
        [
            "setoption name UCI_Chess960 value false".to_owned(),
            format!("position fen {} moves e1g1", standard.fen()),
        ]
    );
}

#[test]
fn errors_of_a_request_leave_the_engine_usable() {
    let mut engine = fake("normal").start().unwrap();
    let error = engine
        .analyse(&Position::START, &Limit::default(), 1)
        .unwrap_err();
    assert!(matches!(error, EngineError::InvalidLimit(_)), "{error}");
    assert!(
        engine
            .analyse(&Position::START, &Limit::nodes(1), 0)
            .is_err()
    );
    let error = engine
        .analyse(&Position::START, &Limit::nodes(1), 51)
        .unwrap_err();
    assert!(error.to_string().contains("MultiPV"), "{error}");
    let e4 = Position::START.parse_uci("e2e4").unwrap();
    let error = engine
        .analyse((&Position::START, &[e4, e4][..]), &Limit::nodes(1), 1)
        .unwrap_err();
    assert!(
        matches!(error, EngineError::IllegalMoveInQuery { index: 1, .. }),
        "{error}"
    );
    assert_eq!(
        error.to_string(),
        "move 2 of the request, `e2e4`, is not legal in \
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert!(!error.is_fatal());
    // Checkmated: no move to play; analysis says so.
    let mated = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
    assert!(matches!(
        engine.play(&mated, &Limit::nodes(1)),
        Err(EngineError::NoLegalMove { .. })
    ));
    let analysis = engine.analyse(&mated, &Limit::nodes(1), 1).unwrap();
    assert_eq!(analysis.best, None);
    assert_eq!(analysis.score(), Some(Score::Mated));
    assert_eq!(analysis.white_score(), Some(Score::MateGiven));
    engine.new_game().unwrap();
    engine.is_ready().unwrap();
    assert!(engine.play(&Position::START, &Limit::nodes(1)).is_ok());
    engine.quit().unwrap();
    assert_no_children();
}

#[test]
fn garbage_is_skipped_with_warnings() {
    let mut engine = fake("garbage").start().unwrap();
    assert_eq!(engine.options().len(), 7);
    assert_eq!(
        engine.handshake_warnings().len(),
        3,
        "{:?}",
        engine.handshake_warnings()
    );
    let analysis = engine
        .analyse(&Position::START, &Limit::nodes(1), 2)
        .unwrap();
    assert_eq!(analysis.infos.len(), 2);
    assert!(analysis.best.is_some());
    // The bad info line's fields and the two lines that are not info.
    assert!(analysis.warnings.len() >= 5, "{:?}", analysis.warnings);
    assert!(
        analysis
            .warnings
            .iter()
            .any(|w| w.message.contains("`zz99`")),
        "{:?}",
        analysis.warnings
    );
}

#[test]
fn an_illegal_pv_move_ends_the_pv_and_an_illegal_ponder_is_dropped() {
    let mut engine = fake("illegal-pv").start().unwrap();
    let analysis = engine
        .analyse(&Position::START, &Limit::nodes(1), 1)
        .unwrap();
    assert_eq!(analysis.infos[0].pv.len(), 1);
    assert!(analysis.best.is_some());
    assert_eq!(analysis.ponder, None);
    assert_eq!(analysis.warnings.len(), 2, "{:?}", analysis.warnings);
    assert!(analysis.warnings[0].message.contains("PV move 2 `e2e5`"));
    assert!(analysis.warnings[1].message.contains("ponder move `a1a1`"));
}

#[test]
fn an_illegal_bestmove_is_a_fault() {
    let mut engine = fake("illegal-bestmove").start().unwrap();
    let pid = engine.pid();
    let error = engine
        .analyse(&Position::START, &Limit::nodes(1), 1)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the engine answered `bestmove e2e5`, which is not a legal move in \
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert!(error.is_fatal());
    assert!(gone(pid));
    assert!(engine.is_closed());
    let again = engine.play(&Position::START, &Limit::nodes(1)).unwrap_err();
    assert!(matches!(again, EngineError::Closed { .. }), "{again}");
    assert!(again.to_string().contains("bestmove e2e5"));
}

#[test]
fn an_engine_that_dies_after_the_handshake() {
    let started = Instant::now();
    let error = fake("die-after-uci").start().unwrap_err();
    match &error {
        EngineError::Terminated { command, status } => {
            assert_eq!(command, "isready");
            assert_eq!(status.as_deref(), Some("exit status: 3"));
        }
        other => panic!("{other}"),
    }
    assert_eq!(
        error.to_string(),
        "the engine exited while waiting for the answer to `isready` (exit status: 3)"
    );
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_no_children();
}

#[test]
fn an_engine_that_dies_in_a_search() {
    let mut engine = fake("die-on-go").start().unwrap();
    let pid = engine.pid();
    let started = Instant::now();
    let error = engine
        .analyse(&Position::START, &Limit::nodes(1000), 1)
        .unwrap_err();
    assert!(
        matches!(&error, EngineError::Terminated { command, .. } if command == "go nodes 1000"),
        "{error}"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(gone(pid));
    assert!(matches!(engine.new_game(), Err(EngineError::Closed { .. })));
}

#[test]
fn a_search_that_hangs_is_stopped_at_its_deadline() {
    let mut engine = fake("hang-on-go").start().unwrap();
    let pid = engine.pid();
    // A node limit: the search timeout (800 ms).
    let started = Instant::now();
    let error = engine
        .analyse(&Position::START, &Limit::nodes(1000), 1)
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(
        matches!(error, EngineError::Timeout { killed: false, .. }),
        "{error}"
    );
    assert!(
        elapsed >= Duration::from_millis(800) && elapsed < Duration::from_millis(4000),
        "{elapsed:?}"
    );
    assert_eq!(
        error.to_string(),
        "no `bestmove` within 0.800 s of `go nodes 1000`; the search was stopped"
    );
    // It answered `stop`: still usable. A movetime: its time plus the margin.
    assert!(!engine.is_closed());
    let started = Instant::now();
    let error = engine
        .play(
            &Position::START,
            &Limit::movetime(Duration::from_millis(100)),
        )
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(matches!(error, EngineError::Timeout { .. }));
    assert!(
        elapsed >= Duration::from_millis(400) && elapsed < Duration::from_millis(3000),
        "{elapsed:?}"
    );
    engine.is_ready().unwrap();
    drop(engine);
    assert!(gone(pid));
}

#[test]
fn an_engine_that_hangs_for_good_is_killed() {
    let mut engine = fake("hang").start().unwrap();
    let pid = engine.pid();
    let started = Instant::now();
    let error = engine
        .analyse(&Position::START, &Limit::depth(5), 1)
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(
        matches!(error, EngineError::Timeout { killed: true, .. }),
        "{error}"
    );
    assert!(error.is_fatal());
    // The search timeout and the stop grace, then the kill.
    assert!(elapsed < Duration::from_millis(5000), "{elapsed:?}");
    assert!(gone(pid), "the hung engine {pid} is still there");
    assert!(engine.is_closed());
    drop(engine);
    assert_no_children();
}

#[test]
fn an_engine_that_ignores_quit_is_killed_and_reaped() {
    let engine = fake("ignore-quit").start().unwrap();
    let pid = engine.pid();
    let started = Instant::now();
    let error = engine.quit().unwrap_err();
    assert!(matches!(error, EngineError::Timeout { killed: true, .. }));
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(gone(pid));
    // Dropped without quit: the same.
    let engine = fake("ignore-quit").start().unwrap();
    let pid = engine.pid();
    drop(engine);
    assert!(gone(pid));
    assert_no_children();
}

#[test]
fn no_uciok_is_not_uci() {
    let started = Instant::now();
    let error = fake("no-uciok").start().unwrap_err();
    let elapsed = started.elapsed();
    assert!(matches!(error, EngineError::NotUci { .. }), "{error}");
    assert!(
        error
            .to_string()
            .contains("no `uciok` within 1.500 s of `uci` (9 lines read"),
        "{error}"
    );
    assert!(elapsed < Duration::from_millis(5000), "{elapsed:?}");
    assert_no_children();
}

#[test]
fn a_slow_readyok_is_a_timeout() {
    let error = fake("slow-ready")
        .ready_timeout(Duration::from_millis(300))
        .start()
        .unwrap_err();
    assert!(
        matches!(
            &error,
            EngineError::Timeout {
                expected: "readyok",
                killed: true,
                ..
            }
        ),
        "{error}"
    );
    assert_no_children();
}

#[test]
fn programs_that_are_not_uci_engines() {
    // `cat` echoes `uci` back and never says `uciok`.
    if Path::new("/bin/cat").exists() {
        let started = Instant::now();
        let error = EngineBuilder::new("/bin/cat")
            .handshake_timeout(Duration::from_millis(500))
            .start()
            .unwrap_err();
        assert!(started.elapsed() < Duration::from_millis(4000));
        assert_eq!(
            error.to_string(),
            "`/bin/cat` is not a UCI engine: no `uciok` within 0.500 s of `uci` (1 line read, the first `uci`)"
        );
    }
    // `true` exits at once.
    if Path::new("/bin/true").exists() {
        let error = Engine::start("/bin/true", [] as [&str; 0]).unwrap_err();
        assert!(matches!(error, EngineError::NotUci { .. }), "{error}");
        assert!(error.to_string().contains("exit"), "{error}");
    }
    let error = Engine::start("/nonexistent/engine", ["x"]).unwrap_err();
    assert!(matches!(error, EngineError::Spawn { .. }));
    assert!(std::error::Error::source(&error).is_some());
    assert_no_children();
}

#[test]
fn engines_work_from_other_threads() {
    let handles: Vec<_> = (0..3)
        .map(|_| {
            let mut engine = fake("normal").start().unwrap();
            std::thread::spawn(move || {
                let mut moves = Vec::new();
                let mut position = Position::START;
                for _ in 0..20 {
                    engine.new_game().unwrap();
                    let mv = engine.play(&position, &Limit::nodes(1)).unwrap();
                    moves.push(mv);
                    position = position.play(mv).unwrap();
                }
                (engine.pid(), moves)
            })
        })
        .collect();
    for handle in handles {
        let (pid, moves) = handle.join().unwrap();
        assert_eq!(moves.len(), 20);
        assert!(gone(pid));
    }
}

#[test]
fn a_silent_engine_is_given_up_after_its_silence_and_a_talking_one_searches_on() {
    // The whole search may take a minute; half a second of silence ends it.
    let quiet = |mode| {
        fake(mode)
            .search_timeout(Duration::from_secs(60))
            .silence_timeout(Duration::from_millis(500))
    };
    let mut engine = quiet("hang-on-go").start().unwrap();
    let started = Instant::now();
    let error = engine
        .analyse(&Position::START, &Limit::depth(30), 1)
        .unwrap_err();
    let elapsed = started.elapsed();
    assert!(
        matches!(error, EngineError::Timeout { killed: false, .. }),
        "{error}"
    );
    assert!(
        elapsed >= Duration::from_millis(500) && elapsed < Duration::from_millis(4000),
        "{elapsed:?}"
    );
    assert_eq!(
        error.to_string(),
        "no `bestmove` within 0.500 s of `go depth 30`; the search was stopped"
    );
    // A search that says something every 200 ms may take 1.2 s.
    let mut engine = quiet("slow-talker").start().unwrap();
    let started = Instant::now();
    let analysis = engine
        .analyse(&Position::START, &Limit::nodes(1000), 1)
        .unwrap();
    assert!(analysis.best.is_some());
    assert!(started.elapsed() >= Duration::from_millis(1200));
    // A timed search keeps its own deadline, whatever the silence.
    let mut engine = quiet("slow-talker")
        .silence_timeout(Duration::from_millis(100))
        .start()
        .unwrap();
    let analysis = engine
        .analyse(
            &Position::START,
            &Limit::movetime(Duration::from_millis(1500)),
            1,
        )
        .unwrap();
    assert!(analysis.best.is_some());
}

/// A shell script that starts the fake engine in `mode` and waits for it,
/// as a wrapper without `exec` does: the engine is the script's child.
#[cfg(unix)]
fn wrapper(name: &str, mode: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("bitboards-wrapper-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("engine.sh");
    std::fs::write(&script, format!("#!/bin/sh\n'{FAKE}' {mode}\n")).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// The children of process `pid` (Linux: `/proc/PID/task/PID/children`).
fn children_of(pid: u32) -> Vec<u32> {
    std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

/// Waits up to 5 s for `pid` to be gone, or a zombie (an orphan's new
/// parent reaps it in its own time).
fn gone_soon(pid: u32) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit(')')
                .next()
                .and_then(|rest| rest.split_whitespace().next())
                == Some("Z")
        });
        if gone(pid) || zombie {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
#[cfg(target_os = "linux")]
fn an_engine_behind_a_wrapper_script_leaves_no_process() {
    // An engine that ignores `quit`, behind a script that does not `exec`
    // it: only killing the script's whole process group ends the engine.
    let script = wrapper("hang", "hang");
    let builder = EngineBuilder::new(script.to_str().unwrap())
        .handshake_timeout(Duration::from_millis(3000))
        .quit_grace(Duration::from_millis(300));
    let engine = builder.start().unwrap();
    let wrapper_pid = engine.pid();
    let engines = children_of(wrapper_pid);
    assert_eq!(engines.len(), 1, "the script's child: {engines:?}");
    drop(engine);
    assert!(gone_soon(wrapper_pid), "the script is left");
    assert!(
        gone_soon(engines[0]),
        "the engine behind the script is left"
    );
    // A search that hangs: the kill after `stop` goes unanswered takes the
    // engine behind the script too.
    let mut engine = EngineBuilder::new(script.to_str().unwrap())
        .search_timeout(Duration::from_millis(500))
        .stop_grace(Duration::from_millis(300))
        .start()
        .unwrap();
    let engines = children_of(engine.pid());
    let error = engine
        .analyse(&Position::START, &Limit::nodes(100), 1)
        .unwrap_err();
    assert!(
        matches!(error, EngineError::Timeout { killed: true, .. }),
        "{error}"
    );
    assert!(
        gone_soon(engines[0]),
        "the engine behind the script is left"
    );
    let _ = std::fs::remove_dir_all(script.parent().unwrap());
}

#[test]
fn an_engine_that_floods_is_killed_with_an_error_that_says_so() {
    let mut engine = fake("flood")
        .search_timeout(Duration::from_secs(60))
        .start()
        .unwrap();
    let pid = engine.pid();
    let started = Instant::now();
    let error = engine
        .analyse(&Position::START, &Limit::nodes(1), 1)
        .unwrap_err();
    assert!(
        matches!(
            error,
            EngineError::Flood {
                lines: 1_000_001,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.is_fatal());
    assert_eq!(
        error.to_string(),
        "the engine wrote 1000001 lines after `go nodes 1` without a `bestmove`: it floods, and was killed"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert!(gone(pid));
    assert!(engine.is_closed());
}
