//! `bitboards analyse` on Stockfish (skipped without it, a failure under
//! `CI=true`): Parquet rows checked column by column, the same bytes on
//! one engine and two, the PGN written back read by `bitboards pgn` to
//! the same evals, and every user error with its message and exit code.

#[allow(dead_code)]
mod common;

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, UInt16Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use bitboards::Position;
use common::run;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value;

/// Two games and Scholar's mate; the first has comments, one with an old
/// eval that the analysis replaces, and a clock that stays.
const GAMES: &str = r#"[Event "One"]
[Result "*"]

1. e4 { [%eval 9.99] [%clk 0:03:00] } e5 { a reply } 2. Nf3 Nc6 3. Bb5 a6 *

[Event "Two"]
[FEN "7k/8/8/8/8/8/6Q1/6K1 b - - 0 1"]
[SetUp "1"]
[Result "*"]

1... Kh7 2. Qg5 Kh8 *

[Event "Scholar"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"#;

fn stockfish() -> Option<String> {
    let path = std::env::var("STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".to_owned());
    if Path::new(&path).exists() {
        Some(path)
    } else if std::env::var("CI").is_ok_and(|ci| ci == "true") {
        panic!("CI=true and no Stockfish at {path}: .ci/run installs Debian's `stockfish`");
    } else {
        eprintln!("skipped: no Stockfish at {path}");
        None
    }
}

fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-analyse-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).expect("a scratch directory");
    path
}

fn read_parquet(path: &Path) -> RecordBatch {
    let file = File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    // The files here are small: one row group, one batch.
    assert_eq!(batches.len(), 1, "one batch expected");
    batches.remove(0)
}

fn analyse(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["analyse"];
    all.extend_from_slice(args);
    run(&all)
}

#[test]
fn fens_to_parquet_the_same_bytes_on_one_engine_and_two() {
    let Some(engine) = stockfish() else { return };
    let dir = scratch("fens");
    let fens = dir.join("fens.txt");
    let positions = bitboards_test_support::random_positions(24, 5, 40);
    let mut text = String::from("# random positions\n\n");
    for position in &positions {
        text.push_str(&format!("{}\n", position.fen()));
    }
    std::fs::write(&fens, text).unwrap();
    let mut files = Vec::new();
    for engines in ["1", "2"] {
        let out = dir.join(format!("{engines}.parquet"));
        let (code, stdout, stderr) = analyse(&[
            "--fens",
            fens.to_str().unwrap(),
            "--engine",
            &engine,
            "--nodes",
            "3000",
            "--engines",
            engines,
            "--multipv",
            "2",
            "--to",
            "parquet",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.is_empty());
        assert!(stderr.starts_with("24 positions analysed in "), "{stderr}");
        files.push(std::fs::read(&out).unwrap());
        let batch = read_parquet(&out);
        assert_eq!(batch.num_rows(), 48, "two PVs per position");
        let column = |name: &str| batch.column_by_name(name).unwrap().clone();
        let game = column("game");
        let game = game.as_primitive::<UInt64Type>();
        let multipv = column("multipv");
        let multipv = multipv.as_primitive::<UInt16Type>();
        let fen = column("fen");
        let fen = fen.as_string::<i32>();
        let best = column("best");
        let best = best.as_string::<i32>();
        let (cp, mate) = (column("cp"), column("mate"));
        let (cp, mate) = (
            cp.as_primitive::<Int32Type>(),
            mate.as_primitive::<Int32Type>(),
        );
        for row in 0..48 {
            // Line 3 of the file is the first FEN (0-based line 2).
            let index = row / 2;
            assert_eq!(game.value(row), index as u64 + 2);
            assert_eq!(multipv.value(row), (row % 2) as u16 + 1);
            let position = Position::from_fen(fen.value(row)).unwrap();
            assert_eq!(position, positions[index]);
            let mv = position.parse_uci(best.value(row)).unwrap();
            assert!(position.is_legal(mv));
            assert!(cp.is_valid(row) != mate.is_valid(row));
        }
    }
    assert!(files[0] == files[1], "the same bytes with 1 and 2 engines");
}

#[test]
fn games_to_pgn_read_back_with_the_same_evals() {
    let Some(engine) = stockfish() else { return };
    let dir = scratch("games");
    let input = dir.join("games.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let pgn = dir.join("out.pgn");
    let parquet = dir.join("out.parquet");
    for (kind, out) in [("pgn", &pgn), ("parquet", &parquet)] {
        let (code, _, stderr) = analyse(&[
            input.to_str().unwrap(),
            "--engine",
            &engine,
            "--depth",
            "8",
            "--to",
            kind,
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
        // 6 + 3 + 7 moves.
        assert!(stderr.starts_with("16 positions analysed"), "{stderr}");
    }
    let written = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        !written.contains("9.99"),
        "the old eval is replaced:\n{written}"
    );
    assert!(written.contains("[%clk 0:03:00]"), "{written}");
    assert!(written.contains("a reply"), "{written}");
    assert!(
        written.contains("[FEN \"7k/8/8/8/8/8/6Q1/6K1 b - - 0 1\"]"),
        "{written}"
    );

    // The evals as `bitboards pgn` reads them back, per game and ply.
    let (code, stdout, stderr) = run(&["pgn", pgn.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let games: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(games.len(), 3);
    let batch = read_parquet(&parquet);
    assert_eq!(batch.num_rows(), 16);
    let column = |name: &str| batch.column_by_name(name).unwrap().clone();
    let (game, ply) = (column("game"), column("ply"));
    let (game, ply) = (
        game.as_primitive::<UInt64Type>(),
        ply.as_primitive::<UInt16Type>(),
    );
    let (cp, mate) = (column("cp"), column("mate"));
    let (cp, mate) = (
        cp.as_primitive::<Int32Type>(),
        mate.as_primitive::<Int32Type>(),
    );
    let best = column("best");
    for row in 0..batch.num_rows() {
        let number = game.value(row) as usize;
        let at = ply.value(row) as usize - 1;
        let read = &games[number]["evals"][at];
        if best.is_null(row) {
            // Checkmate: no eval written.
            assert!(read.is_null(), "game {number} ply {at}: {read}");
            assert_eq!(mate.value(row), 0);
        } else if cp.is_valid(row) {
            assert_eq!(read["cp"], cp.value(row), "game {number} ply {}", at + 1);
        } else {
            assert_eq!(
                read["mate"],
                mate.value(row),
                "game {number} ply {}",
                at + 1
            );
        }
    }
    // White's view: a queen up, whoever is to move.
    for row in 0..batch.num_rows() {
        if game.value(row) == 1 {
            assert!(
                cp.is_valid(row) && cp.value(row) > 500
                    || mate.is_valid(row) && mate.value(row) > 0,
                "row {row}"
            );
        }
    }
}

#[test]
fn text_lines_unique_positions_and_bad_input() {
    let Some(engine) = stockfish() else { return };
    let dir = scratch("text");
    let fens = dir.join("fens.txt");
    let start = Position::START.fen().to_string();
    std::fs::write(&fens, format!("{start}\nnot a fen\n{start}\n")).unwrap();
    let (code, stdout, stderr) = analyse(&[
        "--fens",
        fens.to_str().unwrap(),
        "--engine",
        &engine,
        "--nodes",
        "1000",
        "--unique",
    ]);
    assert_eq!(code, 1, "the bad line is a failure: {stderr}");
    assert!(stderr.contains("fens.txt: line 2: "), "{stderr}");
    assert!(stderr.contains("1 positions analysed"), "{stderr}");
    assert!(stderr.contains("1 inputs unreadable"), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "the repeated start position once: {stdout}");
    assert!(
        lines[0].starts_with(&format!("game 0 ply 0: {start} best ")),
        "{stdout}"
    );
    assert!(lines[0].contains(" depth "), "{stdout}");
}

#[test]
fn errors_say_what_is_wrong() {
    let dir = scratch("errors");
    let input = dir.join("games.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let input = input.to_str().unwrap();
    let cases: [(&[&str], i32, &str); 7] = [
        // Read before any engine starts: a missing file is the error, not
        // the missing engine.
        (
            &[
                "--fens",
                "/nonexistent/fens.txt",
                "--engine",
                "/nonexistent/engine",
                "--nodes",
                "5",
            ],
            2,
            "cannot read /nonexistent/fens.txt",
        ),
        (&[input, "--engine", "x"], 2, "give a limit"),
        (&[input, "--engine", "x", "--nodes", "0"], 2, "a limit of 0"),
        (
            &[input, "--engine", "x", "--nodes", "5", "--to", "csv", "o"],
            2,
            "`csv` is not an output of analyse",
        ),
        (
            &[
                "--fens", input, "--engine", "x", "--nodes", "5", "--to", "pgn", "o",
            ],
            2,
            "--to pgn writes games back",
        ),
        (
            &[input, "--engine", "x", "--nodes", "5", "--option", "Hash"],
            2,
            "expected NAME=VALUE",
        ),
        (
            &[input, "--engine", "/nonexistent/engine", "--nodes", "5"],
            1,
            "engine /nonexistent/engine: ",
        ),
    ];
    for (args, expected, message) in cases {
        let (code, stdout, stderr) = analyse(args);
        assert_eq!(code, expected, "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(stdout.is_empty());
    }
    // Not an engine at all: refused within the handshake's deadline.
    let (code, _, stderr) = analyse(&[input, "--engine", "/bin/cat", "--nodes", "5"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("engine /bin/cat: "), "{stderr}");
    // An option the engine does not have.
    if let Some(engine) = stockfish() {
        let (code, _, stderr) = analyse(&[
            input,
            "--engine",
            &engine,
            "--nodes",
            "5",
            "--option",
            "Frobnicate=3",
        ]);
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains("Frobnicate"), "{stderr}");
    }
}

#[test]
fn a_file_that_is_not_pgn_is_reported_once() {
    let dir = scratch("not-pgn");
    let input = dir.join("binary.pgn");
    std::fs::write(&input, b"\x00\x01\x02 not a chess game at all \xff").unwrap();
    // The engines start (a real one) but are never asked: no game reads.
    let Some(engine) = stockfish() else { return };
    let (code, stdout, stderr) = analyse(&[
        input.to_str().unwrap(),
        "--engine",
        &engine,
        "--nodes",
        "10",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert_eq!(stderr.matches("binary.pgn: ").count(), 1, "{stderr}");
    assert!(stderr.contains("0 positions analysed"), "{stderr}");
}

/// bitboards-engine's scripted engine (its test helper, built with the
/// workspace), behind a script that starts it in `mode`; None when it is
/// not built (a failure under CI=true, where `cargo test --workspace`
/// builds it).
fn fake_engine(dir: &Path, mode: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let fake = exe.parent()?.parent()?.join("fake-uci-engine");
    if !fake.exists() {
        assert!(
            !std::env::var("CI").is_ok_and(|ci| ci == "true"),
            "CI=true and no fake engine at {}",
            fake.display()
        );
        eprintln!("skipped: no fake engine at {}", fake.display());
        return None;
    }
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\nexec '{}' {mode}\n", fake.display()),
    )
    .unwrap();
    let mut permissions = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&script, permissions).unwrap();
    Some(script)
}

#[test]
fn a_game_that_fails_goes_back_without_evals() {
    let dir = scratch("failing");
    // Each engine process dies at its third `go`: the two-move game is
    // analysed; the five-move game kills its engine and the fresh one.
    let Some(engine) = fake_engine(&dir, "die-on-nth-go 3") else {
        return;
    };
    let input = dir.join("games.pgn");
    std::fs::write(
        &input,
        "[Event \"short\"]\n\n1. e4 e5 *\n\n[Event \"long\"]\n\n1. d4 d5 2. c4 e6 3. Nc3 {kept} *\n",
    )
    .unwrap();
    let out = dir.join("out.pgn");
    let (code, _, stderr) = analyse(&[
        input.to_str().unwrap(),
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "1",
        "--engines",
        "1",
        "--to",
        "pgn",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("game 1: "), "{stderr}");
    assert!(stderr.contains("2 positions analysed"), "{stderr}");
    assert!(stderr.contains("1 failed"), "{stderr}");
    let written = std::fs::read_to_string(&out).unwrap();
    let games: Vec<&str> = written.split("[Event").skip(1).collect();
    assert_eq!(games.len(), 2, "{written}");
    assert_eq!(games[0].matches("[%eval").count(), 2, "{written}");
    assert!(!games[1].contains("[%eval"), "{written}");
    assert!(
        games[1].contains("1. d4 d5 2. c4 e6 3. Nc3 {kept} *"),
        "{written}"
    );
}

#[test]
fn a_hung_engine_is_given_up_after_the_timeout() {
    let dir = scratch("hung");
    // The engine answers `uci` and `isready`, then nothing to `go`.
    let Some(engine) = fake_engine(&dir, "hang-on-go") else {
        return;
    };
    let fens = dir.join("fens.txt");
    std::fs::write(&fens, "4k3/8/8/8/8/8/8/4K2R w K - 0 1\n").unwrap();
    let started = std::time::Instant::now();
    let (code, _, stderr) = analyse(&[
        "--fens",
        fens.to_str().unwrap(),
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "100",
        "--engines",
        "1",
        "--timeout",
        "1",
    ]);
    let elapsed = started.elapsed();
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("no `bestmove` within 1.000 s of `go nodes 100`"),
        "{stderr}"
    );
    assert!(elapsed < std::time::Duration::from_secs(8), "{elapsed:?}");
    let (code, _, stderr) = analyse(&[
        "--fens",
        fens.to_str().unwrap(),
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "100",
        "--timeout",
        "0",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--timeout must be a positive number of seconds, not 0"),
        "{stderr}"
    );
}

#[test]
#[cfg(target_os = "linux")]
fn sigterm_leaves_no_engine_behind() {
    let dir = scratch("sigterm");
    // An engine that ignores `stop` and `quit`, behind a script that does
    // not `exec` it.
    let Some(exec_script) = fake_engine(&dir, "hang") else {
        return;
    };
    let fake = std::fs::read_to_string(&exec_script).unwrap();
    let script = dir.join("wrapper.sh");
    std::fs::write(&script, fake.replace("exec ", "")).unwrap();
    std::fs::set_permissions(
        &script,
        std::fs::metadata(&exec_script).unwrap().permissions(),
    )
    .unwrap();
    let fens = dir.join("fens.txt");
    std::fs::write(&fens, "4k3/8/8/8/8/8/8/4K2R w K - 0 1\n").unwrap();
    let bin = std::env::var("CARGO_BIN_EXE_bitboards").unwrap();
    let mut command = std::process::Command::new(bin)
        .args([
            "analyse",
            "--fens",
            fens.to_str().unwrap(),
            "--engine",
            script.to_str().unwrap(),
        ])
        .args(["--nodes", "100", "--engines", "1", "--timeout", "60"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let children = |pid: u32| -> Vec<u32> {
        std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect()
    };
    // The engine behind the script, once it is running.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let engine = loop {
        let scripts = children(command.id());
        if let Some(engine) = scripts
            .first()
            .and_then(|&script| children(script).first().copied())
        {
            break engine;
        }
        assert!(std::time::Instant::now() < until, "no engine started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &command.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = command.wait().unwrap();
    assert_eq!(status.code(), Some(143), "{status:?}");
    // The engine is killed, and reaped by init.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while Path::new(&format!("/proc/{engine}")).exists() {
        let zombie = std::fs::read_to_string(format!("/proc/{engine}/stat"))
            .is_ok_and(|stat| stat.split_whitespace().nth(2) == Some("Z"));
        if zombie {
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "engine {engine} left behind"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}
