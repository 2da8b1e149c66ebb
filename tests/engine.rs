//! The example UCI engine (`examples/engine.rs`) driven as a GUI drives it:
//! the real binary, commands written to its stdin, answers read from its
//! stdout. Every move it plays is checked with the library (legal here,
//! checkmate there), and it must beat a random mover.
//!
//! Where the binary comes from: `cargo test` without a target filter builds
//! the examples too, into the profile's `examples/` folder, the sibling of
//! the `deps/` folder that holds this test; `cargo test --test engine` builds
//! none, and could leave an old one there. So the test always asks cargo for
//! it (`engine_binary`): a no-op when it is up to date. This does not
//! deadlock: the `cargo test` that runs this test holds no lock on the
//! target directory while tests run (it only waits, briefly, when another
//! cargo is building). In the test profile the `bitboards` package,
//! examples included, is built at opt-level 2 (see Cargo.toml), so the
//! engine is fast here too.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use bitboards::{Color, Move, Position};
use bitboards_codegen::rng::SplitMix64;

/// How long the engine may take over any one answer before the test calls
/// it hung (the searches here take milliseconds).
const TIMEOUT: Duration = Duration::from_secs(60);

/// The engine's executable, built once per test run.
fn engine_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let test = std::env::current_exe().expect("the test executable's path");
        // target/<profile>/deps/engine-<hash> -> target/<profile>
        let profile_dir = test
            .parent()
            .and_then(Path::parent)
            .expect("the test executable sits in target/<profile>/deps");
        build_engine(profile_dir);
        let binary = profile_dir
            .join("examples")
            .join(format!("engine{}", std::env::consts::EXE_SUFFIX));
        assert!(binary.exists(), "no engine at {}", binary.display());
        binary
    })
}

/// Has cargo build the example (or find it up to date) in `profile_dir`,
/// with the profile that built this test: `debug` is the folder of the
/// `test` profile (which shares the optimised library with this test),
/// `release` the folder of `cargo test --release`. It asks for the whole
/// workspace, as the README's `cargo test --workspace` does, so that the
/// library's features are unified as they were for that build and its
/// engine is up to date; with `--package bitboards` alone the features
/// differ, and cargo rebuilt the library and the Syzygy crate first (about
/// a minute of CI on 2 cores).
fn build_engine(profile_dir: &Path) {
    let folder = profile_dir.file_name().and_then(|name| name.to_str());
    let profile = match folder {
        Some("debug") | None => "test",
        Some(other) => other,
    };
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .args(["build", "--quiet", "--workspace", "--example", "engine"])
        .args(["--profile", profile])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    if let Some(target) = profile_dir.parent() {
        cargo.env("CARGO_TARGET_DIR", target);
    }
    let status = cargo.status().expect("cargo runs");
    assert!(status.success(), "cargo build --example engine: {status}");
}

/// A running engine, killed when dropped (also when a test fails).
struct Engine {
    child: Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(engine_binary())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        // A thread reads the answers, so that waiting for one can time out.
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{command}")
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|error| panic!("sending `{command}`: {error}"));
    }

    /// The lines the engine writes up to and including the first whose first
    /// word is `word`.
    fn read_until(&mut self, word: &str) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.split_whitespace().next() == Some(word);
                    lines.push(line);
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no `{word}` within {TIMEOUT:?}; the engine said {lines:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine exited before `{word}`; it said {lines:#?}")
                }
            }
        }
    }

    /// Sends `position` and `go`, and reads the answer: the best move, read
    /// as a legal move of `position` (the test fails otherwise), and the
    /// `info` lines before it.
    fn best_move(&mut self, setup: &str, position: &Position, go: &str) -> (Move, Vec<String>) {
        self.send(&format!("position {setup}"));
        self.send(go);
        let lines = self.read_until("bestmove");
        let answer = lines.last().expect("the bestmove line");
        let text = answer.split_whitespace().nth(1).unwrap_or_default();
        let mv = position
            .parse_uci(text)
            .unwrap_or_else(|error| panic!("`{answer}` in {position}: {error}; after {lines:#?}"));
        assert!(position.legal_moves().contains(&mv), "{mv} in {position}");
        (mv, lines)
    }

    /// Closes the engine's stdin, as the end of `printf ... | engine` does.
    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the engine to exit by itself.
    fn wait_for_exit(&mut self) {
        let deadline = Instant::now() + TIMEOUT;
        while self
            .child
            .try_wait()
            .expect("the engine's status")
            .is_none()
        {
            assert!(Instant::now() < deadline, "the engine did not exit");
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The score of the last `info` line before `bestmove`: `mate 2`, `cp 35`.
fn last_score(lines: &[String]) -> Option<String> {
    let info = lines.iter().rev().find(|line| line.starts_with("info "))?;
    let mut words = info.split_whitespace().skip_while(|&word| word != "score");
    words.next()?;
    Some(format!("{} {}", words.next()?, words.next()?))
}

fn from_fen(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

fn mates_in_one(position: &Position) -> bool {
    position
        .legal_moves()
        .iter()
        .any(|&mv| position.play_unchecked(mv).is_checkmate())
}

/// Whether `mv` forces mate on the move after: every reply has a mate.
fn forces_mate_in_two(position: &Position, mv: Move) -> bool {
    let after = position.play_unchecked(mv);
    let replies = after.legal_moves();
    !replies.is_empty()
        && replies
            .iter()
            .all(|&reply| mates_in_one(&after.play_unchecked(reply)))
}

#[test]
fn answers_uci_and_isready_and_ignores_unknown_commands() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.read_until("uciok");
    assert!(
        lines.iter().any(|line| line.starts_with("id name ")),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|line| line.starts_with("id author ")),
        "{lines:#?}"
    );
    engine.send("isready");
    assert_eq!(engine.read_until("readyok"), ["readyok"]);
    engine.send("no such command");
    engine.send("ucinewgame");
    engine.send("isready");
    assert_eq!(engine.read_until("readyok"), ["readyok"]);
    engine.send("quit");
    engine.wait_for_exit();
}

#[test]
fn finds_mate_in_one() {
    let mut engine = Engine::start();
    for fen in [
        // The back rank.
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        // Scholar's mate: Qxf7.
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        // Promotion (to a queen or a rook).
        "k7/7P/1K6/8/8/8/8/8 w - - 0 1",
    ] {
        let position = from_fen(fen);
        let (mv, lines) = engine.best_move(&format!("fen {fen}"), &position, "go depth 4");
        assert!(
            position.play_unchecked(mv).is_checkmate(),
            "{fen}: {mv} {lines:#?}"
        );
        assert_eq!(
            last_score(&lines).as_deref(),
            Some("mate 1"),
            "{fen}: {lines:#?}"
        );
    }
}

/// Castling written as Chess960 GUIs write it once `UCI_Chess960` is on:
/// the king takes its own rook. Here long castling (king b1, rook a1, so
/// the rook cannot reach d1 by itself) is the only mate in one. With the
/// option off the engine writes the king's destination, `b1c1`, which in
/// this Chess960 position also names the king's plain step: the ambiguity
/// the option exists for.
#[test]
fn writes_castling_as_the_uci_chess960_option_says() {
    let fen = "2rkr3/2p1p3/8/8/B7/8/8/RK6 w Q - 0 1";
    let position = from_fen(fen);
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.read_until("uciok");
    assert!(
        lines.contains(&"option name UCI_Chess960 type check default false".to_string()),
        "{lines:#?}"
    );
    engine.send("setoption name UCI_Chess960 value true");
    let (mv, lines) = engine.best_move(&format!("fen {fen}"), &position, "go depth 3");
    assert_eq!(mv.kind(), bitboards::MoveKind::Castling, "{lines:#?}");
    assert!(position.play_unchecked(mv).is_checkmate(), "{lines:#?}");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove b1a1"));
    assert!(
        lines.iter().any(|line| line.ends_with("pv b1a1")),
        "{lines:#?}"
    );

    engine.send("setoption name UCI_Chess960 value false");
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 3");
    let lines = engine.read_until("bestmove");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove b1c1"));
    engine.send("quit");
    engine.wait_for_exit();
}

#[test]
fn finds_mate_in_one_after_the_moves_of_the_position_command() {
    // The fool's mate, for Black: Qh4.
    let mut engine = Engine::start();
    let mut position = Position::START;
    for text in ["f2f3", "e7e5", "g2g4"] {
        position = position.play_unchecked(position.parse_uci(text).expect("legal"));
    }
    let setup = "startpos moves f2f3 e7e5 g2g4";
    let (mv, lines) = engine.best_move(setup, &position, "go depth 4");
    assert_eq!(mv.to_string(), "d8h4");
    assert!(position.play_unchecked(mv).is_checkmate());
    assert_eq!(last_score(&lines).as_deref(), Some("mate 1"), "{lines:#?}");
}

#[test]
fn finds_mate_in_two() {
    let mut engine = Engine::start();
    for fen in [
        // Légal's pattern: Nf6+ gxf6, Bxf7.
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
        // The rook ladder, for Black: Rg2 (only Kb1 is left), Rf1.
        "5r1k/6r1/8/8/8/8/8/K7 b - - 0 1",
    ] {
        let position = from_fen(fen);
        assert!(!mates_in_one(&position), "{fen} has a mate in one");
        let (mv, lines) = engine.best_move(&format!("fen {fen}"), &position, "go depth 6");
        assert!(forces_mate_in_two(&position, mv), "{fen}: {mv} {lines:#?}");
        assert_eq!(
            last_score(&lines).as_deref(),
            Some("mate 2"),
            "{fen}: {lines:#?}"
        );
    }
}

#[test]
fn answers_a_legal_move_after_opening_moves() {
    let mut engine = Engine::start();
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1",
    ];
    let mut position = Position::START;
    for text in moves {
        position = position.play_unchecked(position.parse_uci(text).expect("legal"));
    }
    let setup = format!("startpos moves {}", moves.join(" "));
    let (_, lines) = engine.best_move(&setup, &position, "go depth 3");
    assert!(
        lines.iter().any(|line| line.starts_with("info depth 3 ")),
        "{lines:#?}"
    );
}

#[test]
fn finishes_the_search_when_stdin_closes_then_exits() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go depth 4");
    engine.close_stdin();
    let lines = engine.read_until("bestmove");
    assert!(
        lines.iter().any(|line| line.starts_with("info depth 4 ")),
        "{lines:#?}"
    );
    let best = lines.last().and_then(|line| line.split_whitespace().nth(1));
    assert!(
        Position::START.parse_uci(best.unwrap_or_default()).is_ok(),
        "{lines:#?}"
    );
    engine.wait_for_exit();
}

/// How a game against the random mover ended, for the engine.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Won,
    Lost,
    Drawn(&'static str),
    Unfinished,
}

/// The longest game played out; anything longer is not a win.
const MAX_PLIES: usize = 300;

/// One game between the engine (with `go`, as `engine_color`) and a player
/// choosing uniformly among the legal moves with `rng`.
fn play_random_game(engine_color: Color, go: &str, rng: &mut SplitMix64) -> Outcome {
    let mut engine = Engine::start();
    engine.send("ucinewgame");
    let mut position = Position::START;
    let mut moves = Vec::new();
    let mut seen = HashMap::from([(position.polyglot_key(), 1)]);
    for _ in 0..MAX_PLIES {
        if position.is_checkmate() {
            return if position.side_to_move() == engine_color {
                Outcome::Lost
            } else {
                Outcome::Won
            };
        }
        if position.is_stalemate() {
            return Outcome::Drawn("stalemate");
        }
        if position.is_insufficient_material() {
            return Outcome::Drawn("insufficient material");
        }
        if position.is_fifty_move_draw() {
            return Outcome::Drawn("fifty-move rule");
        }
        if seen[&position.polyglot_key()] >= 3 {
            return Outcome::Drawn("threefold repetition");
        }
        let mv = if position.side_to_move() == engine_color {
            let setup = format!("startpos moves {}", moves.join(" "));
            engine.best_move(&setup, &position, go).0
        } else {
            let legal = position.legal_moves();
            legal[(rng.next_u64() % legal.len() as u64) as usize]
        };
        moves.push(mv.to_string());
        position = position.play_unchecked(mv);
        *seen.entry(position.polyglot_key()).or_insert(0) += 1;
    }
    Outcome::Unfinished
}

#[test]
fn beats_a_random_mover() {
    let mut rng = SplitMix64::new(0xE4E5);
    let mut outcomes = Vec::new();
    for game in 0..20 {
        let engine_color = if game % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        outcomes.push(play_random_game(engine_color, "go depth 3", &mut rng));
    }
    let wins = outcomes
        .iter()
        .filter(|&outcome| *outcome == Outcome::Won)
        .count();
    assert!(wins >= 15, "{wins} wins in 20: {outcomes:?}");
}

#[test]
fn plays_from_its_book_while_the_position_is_in_it() {
    use bitboards::book::BookWriter;
    // A book with one move from the start (1. c4) and one after 1. c4 e5
    // (2. g3); written where the test may write.
    let start = Position::START;
    let c4 = start.parse_san("c4").unwrap();
    let after = start.play_unchecked(c4);
    let e5 = after.parse_san("e5").unwrap();
    let reply = after.play_unchecked(e5);
    let g3 = reply.parse_san("g3").unwrap();
    let mut writer = BookWriter::new();
    writer.add(start.polyglot_key(), c4, 10, 0);
    writer.add(reply.polyglot_key(), g3, 3, 0);
    let path =
        std::env::temp_dir().join(format!("bitboards-engine-book-{}.bin", std::process::id()));
    std::fs::write(&path, writer.to_bytes()).unwrap();

    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.read_until("uciok");
    assert!(
        lines
            .iter()
            .any(|line| line == "option name Book type string default <empty>")
    );
    assert!(
        lines
            .iter()
            .any(|line| line == "option name OwnBook type check default true")
    );
    engine.send(&format!("setoption name Book value {}", path.display()));
    let (mv, lines) = engine.best_move("startpos", &start, "go depth 3");
    assert_eq!(mv, c4);
    assert!(
        lines.iter().any(|line| line == "info string book move"),
        "{lines:?}"
    );
    let (mv, _) = engine.best_move("startpos moves c2c4 e7e5", &reply, "go depth 3");
    assert_eq!(mv, g3);
    // Out of the book: a search (with info lines and a score).
    let out = reply.play_unchecked(g3);
    let (_, lines) = engine.best_move("startpos moves c2c4 e7e5 g2g3", &out, "go depth 3");
    assert!(lines.iter().all(|line| line != "info string book move"));
    assert!(last_score(&lines).is_some(), "{lines:?}");
    // OwnBook off: the engine searches from the start too.
    engine.send("setoption name OwnBook value false");
    let (_, lines) = engine.best_move("startpos", &start, "go depth 2");
    assert!(lines.iter().all(|line| line != "info string book move"));
    // A file that is not a book: said, and the engine goes on.
    engine.send(&format!(
        "setoption name Book value {}",
        engine_binary().display()
    ));
    engine.send("isready");
    let lines = engine.read_until("readyok");
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("info string cannot read the book")),
        "{lines:?}"
    );
    let _ = std::fs::remove_file(path);
}

/// The repository's Syzygy tables: every 3- and 4-piece table.
const SYZYGY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

fn syzygy_tables() -> bitboards_syzygy::Tablebase {
    let mut tables = bitboards_syzygy::Tablebase::new();
    tables.add_directory(SYZYGY).expect("the test tables");
    tables
}

/// With `SyzygyPath` set, the engine plays the tables' best move whenever
/// the root is in them: every 300th won position of the reference (either
/// side to move, tables of three and four pieces), then a whole game of
/// king and queen against king and rook, the defence playing the tables'
/// best (the slowest loss), to mate, the win kept at every move.
#[test]
fn plays_the_tablebase_move_and_keeps_the_win() {
    use bitboards_syzygy::Wdl;
    let tables = syzygy_tables();
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.read_until("uciok");
    assert!(
        lines
            .iter()
            .any(|line| line == "option name SyzygyPath type string default <empty>"),
        "{lines:#?}"
    );
    engine.send(&format!("setoption name SyzygyPath value {SYZYGY}"));
    engine.send("isready");
    let lines = engine.read_until("readyok");
    assert!(
        lines.contains(&"info string Syzygy tables: 70 files, up to 4 pieces".to_string()),
        "{lines:#?}"
    );

    let reference = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/syzygy-reference.csv"
    ))
    .expect("the reference");
    let won: Vec<&str> = reference
        .lines()
        .skip(1)
        .filter(|line| line.split(',').nth(1) == Some("2"))
        .map(|line| line.split(',').next().unwrap())
        .collect();
    let mut checked = 0;
    for fen in won.iter().step_by(300) {
        let position = from_fen(fen);
        let (mv, lines) = engine.best_move(&format!("fen {fen}"), &position, "go depth 3");
        assert!(
            lines
                .iter()
                .any(|line| line == "info string tablebase move"),
            "{fen}: {lines:#?}"
        );
        let ranked = tables.best_moves(&position).unwrap();
        let played = ranked.iter().find(|ranked| ranked.mv == mv).unwrap();
        assert_eq!(played.wdl, Wdl::Win, "{fen}: {mv}");
        assert_eq!(played.rank, ranked[0].rank, "{fen}: {mv} is not the best");
        let score = last_score(&lines).expect("a score");
        let cp: i32 = score
            .strip_prefix("cp ")
            .and_then(|cp| cp.parse().ok())
            .unwrap_or(0);
        assert!(cp > 10_000, "{fen}: {score}");
        checked += 1;
    }
    assert!(checked > 20, "{checked}");

    // A whole game: the queen wins the rook, then mates.
    let start = "8/8/1Q6/8/8/5K2/8/2k4r w - - 0 1";
    let mut position = from_fen(start);
    let mut moves: Vec<String> = Vec::new();
    while !position.is_checkmate() {
        assert!(moves.len() < 100, "no mate in 100 plies: {moves:?}");
        assert!(
            !position.is_stalemate() && !position.is_insufficient_material(),
            "{moves:?}"
        );
        let mv = if position.side_to_move() == Color::White {
            let setup = format!("fen {start} moves {}", moves.join(" "));
            let (mv, _) = engine.best_move(setup.trim_end(), &position, "go depth 3");
            let after = position.play_unchecked(mv);
            if !after.is_checkmate() {
                assert_eq!(
                    tables.probe_wdl(&after).unwrap(),
                    Wdl::Loss,
                    "{moves:?} {mv}"
                );
            }
            mv
        } else {
            tables.best_moves(&position).unwrap()[0].mv
        };
        moves.push(mv.to_string());
        position = position.play_unchecked(mv);
    }
    assert_eq!(position.side_to_move(), Color::Black, "{moves:?}");
    engine.send("quit");
    engine.wait_for_exit();
}

/// In the search, a capture into the tables scores as their result: here
/// Kxd2 leaves king and two rooks against the king, a win the search sees
/// as one (`TB_WIN` less the ply, 19999) instead of an evaluation; the
/// `info` lines count the probes (`tbhits`), and without tables say
/// nothing of them. A directory that cannot be read is said, and the engine
/// goes on.
#[test]
fn probes_the_tables_in_the_search() {
    let fen = "8/8/4k3/8/8/8/3r4/R3K2R w - - 0 1";
    let position = from_fen(fen);
    let mut engine = Engine::start();
    engine.send(&format!("setoption name SyzygyPath value {SYZYGY}"));
    let (mv, lines) = engine.best_move(&format!("fen {fen}"), &position, "go depth 4");
    assert_eq!(mv.to_string(), "e1d2", "{lines:#?}");
    assert_eq!(
        last_score(&lines).as_deref(),
        Some("cp 19999"),
        "{lines:#?}"
    );
    let hits: Vec<u64> = lines
        .iter()
        .filter_map(|line| line.split(" tbhits ").nth(1))
        .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(hits.last().is_some_and(|&hits| hits > 0), "{lines:#?}");
    assert!(
        lines
            .iter()
            .all(|line| line != "info string tablebase move")
    );

    engine.send("setoption name SyzygyPath value <empty>");
    let (_, lines) = engine.best_move(&format!("fen {fen}"), &position, "go depth 4");
    assert!(
        lines.iter().all(|line| !line.contains("tbhits")),
        "{lines:#?}"
    );
    let score = last_score(&lines).unwrap_or_default();
    assert!(score != "cp 19999", "{lines:#?}");

    engine.send("setoption name SyzygyPath value /no/such/directory");
    engine.send("isready");
    let lines = engine.read_until("readyok");
    assert!(
        lines.iter().any(|line| line
            .starts_with("info string cannot read the tablebase directory /no/such/directory")),
        "{lines:?}"
    );
    // Without tables, the root of a table position is searched.
    let krk = "8/8/8/8/4k3/8/8/R3K3 w - - 0 1";
    let (_, lines) = engine.best_move(&format!("fen {krk}"), &from_fen(krk), "go depth 2");
    assert!(
        lines
            .iter()
            .all(|line| line != "info string tablebase move")
    );
    engine.send("quit");
    engine.wait_for_exit();
}
