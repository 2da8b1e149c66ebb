//! `bitboards pgn`: games replayed from files and standard input, each
//! output format, a bad game among good ones, and the exit codes.

// Only `run` of the shared helpers is needed here.
#[allow(dead_code)]
mod common;

use assert_cmd::Command;
use common::run;

/// Four games: fool's mate (checkmate), a stalemate, a game with a bad
/// move, a threefold repetition; then one that ends without a rule.
const GAMES: &str = r#"[Event "Fool's mate"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "Stalemate"]
[FEN "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"]
[SetUp "1"]
[Result "1/2-1/2"]

1. Qf7 1/2-1/2

[Event "Bad"]
[Result "*"]

1. e4 e5 2. Nf4 *

[Event "Repetition"]
[Result "1/2-1/2"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2

[Event "Open"]

1. d4 { still going } d5 *
"#;

/// The games in a file of the test's own (tests run in parallel).
fn pgn_file(test: &str) -> tempfile_path::Path {
    tempfile_path::write(&format!("{test}.pgn"), GAMES)
}

/// A file under the target directory, so that the test needs no crate.
mod tempfile_path {
    use std::path::PathBuf;

    pub struct Path(pub PathBuf);

    impl Drop for Path {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    pub fn write(name: &str, text: &str) -> Path {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let path = dir.join(format!("{}-{name}", std::process::id()));
        std::fs::write(&path, text).expect("the test can write its file");
        Path(path)
    }
}

#[test]
fn text_reports_each_game_and_the_bad_one_on_stderr() {
    let file = pgn_file("text_reports_each_game_and_the_bad_one_on_stderr");
    let (code, stdout, stderr) = run(&["pgn", file.0.to_str().unwrap()]);
    assert_eq!(code, 1, "a game failed: exit 1\n{stderr}");
    let expected = "\
game 1: 4 plies, result 0-1, outcome checkmate, Black wins
  fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3
game 2: 1 plies, result 1/2-1/2, outcome draw by stalemate
  fen 7k/5Q2/6K1/8/8/8/8/8 b - - 1 1
game 4: 8 plies, result 1/2-1/2, outcome draw by threefold repetition (claimable)
  fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5
game 5: 2 plies, result *, outcome none
  fen rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2
";
    assert_eq!(stdout, expected);
    let mut lines = stderr.lines();
    assert_eq!(
        lines.next(),
        Some(
            "error: PGN game 3, line 16, column 13: illegal move `Nf4`: no knight can move to f4 in this position"
        ),
        "{stderr}"
    );
    let summary = lines.next().unwrap_or_default();
    assert!(
        summary.starts_with("5 games (1 failed) in ") && summary.ends_with(" MB/s"),
        "{summary}"
    );
}

#[test]
fn json_is_one_object_per_game_with_exactly_the_documented_keys() {
    let file = pgn_file("json_is_one_object_per_game_with_exactly_the_documented_keys");
    let (code, stdout, _) = run(&["pgn", file.0.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 1);
    let objects: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect();
    assert_eq!(objects.len(), 4);
    for object in &objects {
        let keys: Vec<&str> = object
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, ["fen", "game", "outcome", "plies", "result"]);
    }
    assert_eq!(
        objects[0],
        serde_json::json!({
            "game": 1,
            "plies": 4,
            "fen": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "result": "0-1",
            "outcome": "checkmate",
        })
    );
    let outcomes: Vec<&serde_json::Value> = objects.iter().map(|o| &o["outcome"]).collect();
    assert_eq!(
        outcomes,
        [
            &serde_json::json!("checkmate"),
            &serde_json::json!("stalemate"),
            &serde_json::json!("threefold_repetition"),
            &serde_json::Value::Null,
        ]
    );
    assert_eq!(objects[2]["game"], 4);
    // The object of the first line, byte for byte.
    assert_eq!(
        stdout.lines().next(),
        Some(
            r#"{"game": 1, "plies": 4, "fen": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "result": "0-1", "outcome": "checkmate"}"#
        )
    );
}

#[test]
fn every_ply_in_san_uci_or_fen() {
    let file = pgn_file("every_ply_in_san_uci_or_fen");
    let path = file.0.to_str().unwrap();
    let (_, san, _) = run(&["pgn", path, "--moves", "san"]);
    assert!(san.contains("\n  1. f3 e5 2. g4 Qh4#\n"), "{san}");
    assert!(san.contains("\n  1. Qf7\n"), "{san}");
    let (_, uci, _) = run(&["pgn", path, "--moves", "uci"]);
    assert!(uci.contains("\n  f2f3\n  e7e5\n  g2g4\n  d8h4\n"), "{uci}");
    let (_, fen, _) = run(&["pgn", path, "--moves", "fen"]);
    assert!(
        fen.contains("\n  rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1\n"),
        "{fen}"
    );
    let (_, json, _) = run(&["pgn", path, "--moves", "san", "--format", "json"]);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(
        first["moves"],
        serde_json::json!(["f3", "e5", "g4", "Qh4#"])
    );
}

#[test]
fn standard_input_and_a_clean_exit() {
    let output = Command::cargo_bin("bitboards")
        .unwrap()
        .args(["pgn", "-", "--format", "json"])
        .write_stdin("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains(r#""outcome": "checkmate""#), "{stdout}");
    assert!(stdout.contains(r#""result": "1-0""#), "{stdout}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("1 games in "), "{stderr}");
}

#[test]
fn a_file_that_cannot_be_read_exits_with_2() {
    let (code, stdout, stderr) = run(&["pgn", "/nonexistent/games.pgn"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(
        stderr.starts_with("error: cannot read /nonexistent/games.pgn: "),
        "{stderr}"
    );
}
