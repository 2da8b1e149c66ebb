//! `bitboards perft`, run as a binary: published counts, `--divide` lines
//! checked one by one against the library, threads, Chess960 castling in
//! UCI, JSON, the errors (exit code 2), and the progress bar (only on a
//! terminal). Times vary, so the snapshots hold them redacted after their
//! shape is checked.

mod common;

use bitboards::{Position, perft};
use common::{KIWIPETE, fail_with_usage_error, run, succeed};
use insta::assert_snapshot;

fn perft_command(args: &[&str]) -> String {
    let mut full = vec!["perft"];
    full.extend_from_slice(args);
    succeed(&full)
}

/// Checks the shape of the time and speed lines (`time    1.234 ms`,
/// `speed   56.78 Mnps`) and replaces their figures with placeholders.
fn redact_timing(output: &str) -> String {
    let decimal = |text: &str, places: usize| {
        let (whole, fraction) = text.split_once('.').unwrap_or(("", ""));
        !whole.is_empty()
            && whole.bytes().all(|b| b.is_ascii_digit())
            && fraction.len() == places
            && fraction.bytes().all(|b| b.is_ascii_digit())
    };
    let mut redacted = String::new();
    for line in output.lines() {
        if let Some(time) = line.strip_prefix("time    ") {
            let figure = time
                .strip_suffix(" ms")
                .or_else(|| time.strip_suffix(" s"))
                .unwrap_or_else(|| panic!("no unit in {line:?}"));
            assert!(decimal(figure, 3), "{line:?}");
            redacted.push_str("time    [time]\n");
        } else if let Some(speed) = line.strip_prefix("speed   ") {
            let valid = speed == "(too fast to time)"
                || speed.strip_suffix(" Mnps").is_some_and(|f| decimal(f, 2));
            assert!(valid, "{line:?}");
            redacted.push_str("speed   [speed]\n");
        } else {
            redacted.push_str(line);
            redacted.push('\n');
        }
    }
    redacted
}

/// The `move: count` lines of a divide.
fn divide_lines(output: &str) -> Vec<(String, u64)> {
    output
        .lines()
        .filter_map(|line| {
            let (mv, count) = line.split_once(": ")?;
            Some((mv.to_owned(), count.parse().expect("a count")))
        })
        .collect()
}

/// The number on the `nodes` line.
fn nodes(output: &str) -> u64 {
    output
        .lines()
        .find_map(|line| line.strip_prefix("nodes   "))
        .expect("a nodes line")
        .parse()
        .expect("a number")
}

#[test]
fn the_start_position_to_depth_4() {
    let output = perft_command(&["4"]);
    assert_eq!(nodes(&output), 197_281);
    assert_snapshot!("start_4", redact_timing(&output));
}

#[test]
fn kiwipete_divide_to_depth_3() {
    let output = perft_command(&["3", "--divide", "--fen", KIWIPETE]);
    assert_snapshot!("kiwipete_divide_3", redact_timing(&output));
    let lines = divide_lines(&output);
    assert_eq!(lines.len(), 48);
    assert_eq!(nodes(&output), 97_862);
    assert_eq!(lines.iter().map(|(_, n)| n).sum::<u64>(), 97_862);
    // Each line against the library: the move read back from its UCI text,
    // played, and counted two plies deeper.
    let position = Position::from_fen(KIWIPETE).expect("Kiwipete reads");
    for (text, count) in &lines {
        let mv = position.parse_uci(text).expect("a legal move");
        assert_eq!(perft(&position.play_unchecked(mv), 2), *count, "{text}");
    }
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted, "lines are sorted by move");
}

#[test]
fn the_fen_as_one_argument_or_as_its_fields() {
    let mut args = vec!["3", "--divide", "--fen"];
    args.extend(KIWIPETE.split(' '));
    let fields = perft_command(&args);
    let quoted = perft_command(&["3", "--divide", "--fen", KIWIPETE]);
    assert_eq!(redact_timing(&fields), redact_timing(&quoted));
    // Options may follow the fields.
    let mut args = vec!["2", "--fen"];
    args.extend(KIWIPETE.split(' '));
    args.push("--divide");
    assert_eq!(divide_lines(&perft_command(&args)).len(), 48);
    // So may DEPTH, after six fields.
    let mut args = vec!["--fen"];
    args.extend(KIWIPETE.split(' '));
    args.push("3");
    assert_eq!(nodes(&perft_command(&args)), 97_862);
}

#[test]
fn threads_give_the_same_counts() {
    let one = perft_command(&["3", "--divide", "--fen", KIWIPETE]);
    for threads in ["1", "2", "3"] {
        let many = perft_command(&["3", "--divide", "--threads", threads, "--fen", KIWIPETE]);
        assert_eq!(
            redact_timing(&many),
            redact_timing(&one),
            "{threads} threads"
        );
    }
    let output = perft_command(&["5", "--threads", "2"]);
    // The start position's published count to depth 5.
    assert_eq!(nodes(&output), 4_865_609);
}

#[test]
fn json_output() {
    let value: serde_json::Value = serde_json::from_str(&perft_command(&[
        "2",
        "--divide",
        "--format",
        "json",
        "--threads",
        "2",
        "--fen",
        KIWIPETE,
    ]))
    .expect("valid JSON");
    assert_eq!(value["fen"].as_str(), Some(KIWIPETE));
    assert_eq!(value["depth"].as_u64(), Some(2));
    assert_eq!(value["threads"].as_u64(), Some(2));
    assert_eq!(value["nodes"].as_u64(), Some(2_039));
    assert!(value["seconds"].as_f64().is_some_and(|s| s >= 0.0));
    assert!(value["mnps"].is_null() || value["mnps"].as_f64().is_some_and(|s| s > 0.0));
    let divide = value["divide"].as_array().expect("a divide list");
    assert_eq!(divide.len(), 48);
    let sum: u64 = divide
        .iter()
        .filter_map(|entry| entry["nodes"].as_u64())
        .sum();
    assert_eq!(sum, 2_039);
    assert!(divide.iter().any(|entry| entry["move"] == "e1g1"));

    let value: serde_json::Value =
        serde_json::from_str(&perft_command(&["1", "--format", "json"])).expect("valid JSON");
    assert_eq!(value["nodes"].as_u64(), Some(20));
    assert_eq!(value["threads"].as_u64(), Some(1));
    assert!(value.get("divide").is_none());
}

#[test]
fn chess960_counts_and_castling_as_king_takes_rook() {
    // Published Chess960 counts (the repository's tests/data/chess960-*.epd):
    // a start position, and one from a game, both in Shredder-FEN.
    let cases = [
        (
            "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1",
            10_238,
        ),
        (
            "rkbnn1rq/3p2pp/ppp1p3/1P4B1/N2p1b2/6P1/P1P1PP1P/RK3BRQ b GAga - 0 11",
            27_344,
        ),
    ];
    for (fen, expected) in cases {
        assert_eq!(
            nodes(&perft_command(&["3", "--fen", fen])),
            expected,
            "{fen}"
        );
    }
    // The king on e1 castles with the rook on g1 and the rook on a1; UCI
    // for Chess960 writes the king taking its rook, as the standard
    // notation's e1g1 would be a plain king move here.
    let chess960 = "1r2k2r/8/8/8/8/8/8/R3K1R1 w GAhb - 0 1";
    let output = perft_command(&["1", "--divide", "--fen", chess960]);
    assert_snapshot!("chess960_divide_1", redact_timing(&output));
    let moves: Vec<String> = divide_lines(&output)
        .into_iter()
        .map(|(mv, _)| mv)
        .collect();
    let position = Position::from_fen(chess960).expect("reads");
    let castles: Vec<&String> = moves
        .iter()
        .filter(|text| position.parse_uci(text).is_ok_and(|mv| mv.is_castling()))
        .collect();
    assert_eq!(castles, ["e1a1", "e1g1"]);
    // In standard chess castling stays the king's two-square move.
    let standard = perft_command(&[
        "1",
        "--divide",
        "--fen",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ]);
    assert!(
        standard.contains("\ne1g1: 1\n") && standard.contains("\ne1c1: 1\n"),
        "{standard}"
    );
}

#[test]
fn depth_0_and_positions_without_moves() {
    assert_eq!(nodes(&perft_command(&["0"])), 1);
    let output = perft_command(&["0", "--divide"]);
    assert!(divide_lines(&output).is_empty(), "{output}");
    let mate = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    let output = perft_command(&["3", "--divide", "--fen", mate]);
    assert!(divide_lines(&output).is_empty(), "{output}");
    assert_eq!(nodes(&output), 0);
}

#[test]
fn errors_exit_with_code_2() {
    let cases: [&[&str]; 9] = [
        &["perft", "five"],
        &["perft", "-1"],
        &["perft", "99999999999"],
        &["perft", "3", "--threads", "0"],
        &["perft", "3", "--threads", "two"],
        &[
            "perft",
            "3",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
        ],
        // Four unquoted fields take the depth as a fifth.
        &["perft", "--fen", "4k3/8/8/8/8/8/8/4K3", "w", "-", "-", "3"],
        &["perft"],
        &["perft", "3", "--fen"],
    ];
    let mut all = String::new();
    for args in cases {
        let stderr = fail_with_usage_error(args);
        all.push_str(&format!("$ bitboards {}\n{stderr}\n", args.join(" ")));
    }
    assert_snapshot!("errors", all);
}

#[test]
fn depths_past_the_limit_need_force() {
    // Past depth 10 the start position takes days: refused, saying how to
    // insist.
    let stderr = fail_with_usage_error(&["perft", "99"]);
    assert_eq!(
        stderr,
        "error: depth 99 is past perft's limit of 10 plies (the start position to depth 10 \
         has 69,352,859,712,417 leaves, days of counting, and each ply multiplies the work \
         by about 30); add --force to count it anyway\n"
    );
    // A number past u32 is too large, not "not a depth".
    let stderr = fail_with_usage_error(&["perft", "4294967296"]);
    assert!(
        stderr.contains("`4294967296` is too large; perft's limit is depth 10"),
        "{stderr}"
    );
    // At the limit, and past it with --force, in a position without moves.
    let mate = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    assert_eq!(nodes(&perft_command(&["10", "--fen", mate])), 0);
    assert_eq!(
        nodes(&perft_command(&["4294967295", "--force", "--fen", mate])),
        0
    );
}

#[test]
fn help() {
    assert_snapshot!("perft_help", perft_command(&["--help"]));
}

#[test]
fn no_progress_bar_without_a_terminal() {
    // Position 3 of the well-known set, to depth 6: 11,030,083 nodes (the
    // published figure), long enough in a debug build for the bar's delay.
    let (code, stdout, stderr) = run(&[
        "perft",
        "6",
        "--fen",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(nodes(&stdout), 11_030_083);
    assert!(
        stderr.is_empty(),
        "the progress bar reached a pipe: {stderr:?}"
    );
}

/// On a terminal (util-linux's `script` gives one, as in tests/pty.rs), a
/// count that runs past the delay shows the bar with its root-move count.
#[cfg(target_os = "linux")]
#[test]
fn a_progress_bar_on_a_terminal() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    let binary = env!("CARGO_BIN_EXE_bitboards");
    // The start position to depth 7 runs for minutes: the bar must appear
    // long before the end, and the child is stopped once it has.
    let command = format!("stty rows 24 cols 100; exec '{binary}' perft 7");
    let mut child = Command::new("script")
        .args(["--quiet", "--return", "--command", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("this test needs util-linux's `script` (package bsdutils) on PATH");
    let screen = Arc::new(Mutex::new(Vec::new()));
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let sink = Arc::clone(&screen);
    std::thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(count @ 1..) = stdout.read(&mut chunk) {
            sink.lock()
                .expect("lock")
                .extend_from_slice(&chunk[..count]);
        }
    });
    let start = Instant::now();
    let shown = loop {
        let text = String::from_utf8_lossy(&screen.lock().expect("lock")).into_owned();
        if text.contains("/20 root moves") || start.elapsed() > Duration::from_secs(30) {
            break text;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        shown.contains("perft depth 7 ["),
        "the terminal showed:\n{shown:?}"
    );
    assert!(
        shown.contains("/20 root moves"),
        "the terminal showed:\n{shown:?}"
    );
}
