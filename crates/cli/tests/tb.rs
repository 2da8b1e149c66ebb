//! `bitboards tb` and `bitboards fen --tb`, run as a binary on the
//! repository's 3- and 4-piece tables: the report (a snapshot), the JSON
//! field by field against python-chess's answers
//! (tests/data/syzygy-reference.csv), every move's answer against the
//! position it leads to, and every error (its message and exit code,
//! never a panic).

// KIWIPETE of the shared helpers is not needed here.
#[allow(dead_code)]
mod common;

use bitboards::Position;
use common::{fail_with_usage_error, run, succeed};
use insta::assert_snapshot;
use serde_json::Value;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/syzygy");
const REFERENCE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/syzygy-reference.csv"
);
/// White's king and rook against the king: a win.
const KRK: &str = "8/8/8/8/4k3/8/8/R3K3 w - - 0 1";

fn tb_json(fen: &str) -> Value {
    let stdout = succeed(&["tb", fen, "--path", TABLES, "--format", "json"]);
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
}

fn scratch(name: &str) -> std::path::PathBuf {
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-tb-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).expect("a scratch directory");
    path
}

#[test]
fn king_and_rook_against_king() {
    let text = succeed(&["tb", KRK, "--path", TABLES]);
    assert_snapshot!("krk", text);
    assert!(text.starts_with("WDL   2 (win)\nDTZ   25 "), "{text}");
    let value = tb_json(KRK);
    assert_eq!(value["fen"].as_str(), Some(KRK));
    assert_eq!(value["wdl"].as_i64(), Some(2));
    assert_eq!(value["dtz"].as_i64(), Some(25));
    let moves = value["moves"].as_array().expect("a list of moves");
    assert_eq!(moves.len(), 15);
    assert_eq!(
        value["best"],
        serde_json::json!({"san": moves[0]["san"], "uci": moves[0]["uci"]})
    );
    // Every move keeps the win; the fastest first.
    let dtz: Vec<i64> = moves.iter().map(|mv| mv["dtz"].as_i64().unwrap()).collect();
    assert!(moves.iter().all(|mv| mv["wdl"] == 2), "{moves:?}");
    assert!(dtz.windows(2).all(|pair| pair[0] <= pair[1]), "{dtz:?}");
    assert_eq!(dtz[0], 25);
    // The same moves as the text, in the same order.
    for (mv, line) in moves.iter().zip(text.lines().skip(5)) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], mv["san"].as_str().unwrap());
        assert_eq!(words[1], mv["uci"].as_str().unwrap());
        assert_eq!(words[2], mv["wdl"].to_string());
        assert_eq!(words[3], mv["dtz"].to_string());
    }
}

/// Every 80th position of the reference (every table, both sides to move,
/// en passant ones among them) gives python-chess's WDL and DTZ; and
/// each position's moves agree with the positions they lead to: a move's
/// WDL is the negated WDL after it, its DTZ one ply more than the
/// negated DTZ after it (or, for a capture or pawn move, 1, -1 or 0,
/// counted as the tables count zeroing moves).
#[test]
fn agrees_with_python_chess_and_with_itself() {
    let reference = std::fs::read_to_string(REFERENCE).expect("the reference CSV");
    let rows: Vec<(&str, i64, i64)> = reference
        .lines()
        .skip(1)
        .map(|line| {
            let mut fields = line.split(',');
            let fen = fields.next().unwrap();
            let wdl = fields.next().unwrap().parse().unwrap();
            let dtz = fields.next().unwrap().parse().unwrap();
            (fen, wdl, dtz)
        })
        .collect();
    let mut checked = 0;
    let mut en_passant = 0;
    let sample = rows.iter().step_by(80).chain(
        rows.iter()
            .filter(|(fen, _, _)| fen.split(' ').nth(3) != Some("-"))
            .take(10),
    );
    for &(fen, wdl, dtz) in sample {
        let value = tb_json(fen);
        assert_eq!(value["wdl"].as_i64(), Some(wdl), "{fen}");
        assert_eq!(value["dtz"].as_i64(), Some(dtz), "{fen}");
        let position = Position::from_fen(fen).unwrap();
        let moves = value["moves"].as_array().unwrap();
        assert_eq!(moves.len(), position.legal_moves().len(), "{fen}");
        en_passant += usize::from(position.en_passant().is_some());
        checked += 1;
        // The best move keeps the position's result.
        if let Some(best) = moves.first() {
            assert_eq!(best["wdl"].as_i64(), Some(wdl), "{fen}: {best}");
        }
        // Two moves a position, the first and the last, checked against the
        // positions they reach.
        for mv in moves.iter().take(1).chain(moves.iter().skip(1).last()) {
            let played = position.parse_uci(mv["uci"].as_str().unwrap()).unwrap();
            assert_eq!(
                position.san(played).to_string(),
                mv["san"].as_str().unwrap()
            );
            let after = position.play_unchecked(played);
            let (mv_wdl, mv_dtz) = (mv["wdl"].as_i64().unwrap(), mv["dtz"].as_i64().unwrap());
            if after.legal_moves().is_empty() {
                let mated = after.is_check();
                assert_eq!(mv_wdl, if mated { 2 } else { 0 }, "{fen}: {mv}");
                continue;
            }
            let answer = tb_json(&after.fen().to_string());
            let (after_wdl, after_dtz) = (
                answer["wdl"].as_i64().unwrap(),
                answer["dtz"].as_i64().unwrap(),
            );
            assert_eq!(mv_wdl, -after_wdl, "{fen}: {mv} then {answer}");
            if after.halfmove_clock() == 0 {
                // A zeroing move: the win (or loss) starts again from it.
                let expected = match -after_wdl {
                    2 => 1,
                    1 => 101,
                    0 => 0,
                    -1 => -101,
                    _ => -1,
                };
                assert_eq!(mv_dtz, expected, "{fen}: {mv}");
            } else {
                assert_eq!(mv_dtz, -after_dtz - after_dtz.signum(), "{fen}: {mv}");
            }
        }
    }
    assert!(checked > 300 && en_passant >= 10, "{checked} {en_passant}");
}

#[test]
fn checkmate_and_stalemate() {
    let mate = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
    let text = succeed(&["tb", mate, "--path", TABLES]);
    assert!(text.ends_with("no legal moves (checkmate)\n"), "{text}");
    let value = tb_json(mate);
    assert_eq!(
        (value["wdl"].as_i64(), value["best"].is_null()),
        (Some(-2), true)
    );
    assert_eq!(value["moves"], serde_json::json!([]));
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let text = succeed(&["tb", stalemate, "--path", TABLES]);
    assert!(text.starts_with("WDL   0 (draw)\nDTZ   0 "), "{text}");
    assert!(text.ends_with("no legal moves (stalemate)\n"), "{text}");
}

#[test]
fn a_win_too_late_for_the_fifty_move_rule_is_noted() {
    // From 90 plies without a capture or pawn move, the rook's 25 plies to
    // mate come too late: the fifty-move rule draws first.
    let fen = "8/8/8/8/4k3/8/8/R3K3 w - - 90 60";
    let text = succeed(&["tb", fen, "--path", TABLES]);
    assert!(
        text.contains(
            "\n      with the halfmove clock at 90, the fifty-move rule comes first: a draw\n"
        ),
        "{text}"
    );
}

#[test]
fn several_directories() {
    // KRvK's tables in one directory, KQvK's in another: each position
    // finds its own.
    let rook = scratch("rook");
    let queen = scratch("queen");
    for (dir, stem) in [(&rook, "KRvK"), (&queen, "KQvK")] {
        for ext in ["rtbw", "rtbz"] {
            let name = format!("{stem}.{ext}");
            std::fs::copy(format!("{TABLES}/{name}"), dir.join(&name)).unwrap();
        }
    }
    let (rook, queen) = (rook.to_str().unwrap(), queen.to_str().unwrap());
    for fen in [KRK, "8/8/8/8/4k3/8/8/Q3K3 w - - 0 1"] {
        let stdout = succeed(&[
            "tb", fen, "--path", rook, "--path", queen, "--format", "json",
        ]);
        let value: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(value, tb_json(fen), "{fen}");
    }
    // Only the queen's: the rook's table is missing, and named.
    let (code, stdout, stderr) = run(&["tb", KRK, "--path", queen]);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    assert_eq!(
        stderr,
        format!("error: no table KRvK.rtbw in {queen}: add the directory that holds it\n")
    );
}

#[test]
fn errors_say_what_is_wrong() {
    let empty = scratch("empty");
    let empty = empty.to_str().unwrap();
    let corrupt = scratch("corrupt");
    std::fs::write(corrupt.join("KRvK.rtbw"), b"not a table at all").unwrap();
    std::fs::write(corrupt.join("KRvK.rtbz"), b"not a table at all").unwrap();
    let corrupt = corrupt.to_str().unwrap();
    let cases: [(&[&str], i32); 8] = [
        (
            &[
                "tb",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "--path",
                TABLES,
            ],
            2,
        ),
        (
            &["tb", "r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "--path", TABLES],
            2,
        ),
        (
            &["tb", "8/8/8/8/4k3/8/8/R3K3 w - e3 0 1", "--path", TABLES],
            2,
        ),
        (&["tb", KRK, "--path", "/no/such/directory"], 2),
        (&["tb", KRK, "--path", empty], 2),
        (&["tb", KRK, "--path", corrupt], 1),
        (&["tb", KRK], 2),
        (&["tb", KRK, "--path", TABLES, "--format", "yaml"], 2),
    ];
    let mut all = String::new();
    for (args, expected) in cases {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, expected, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        let shown: Vec<String> = args
            .iter()
            .map(|arg| {
                arg.replace(TABLES, "TABLES")
                    .replace(empty, "EMPTY")
                    .replace(corrupt, "CORRUPT")
            })
            .collect();
        let stderr = stderr
            .replace(TABLES, "TABLES")
            .replace(empty, "EMPTY")
            .replace(corrupt, "CORRUPT");
        all.push_str(&format!(
            "$ bitboards {}  # exit {code}\n{stderr}\n",
            shown.join(" ")
        ));
    }
    assert_snapshot!("errors", all);
}

#[test]
fn fen_with_tb() {
    let text = succeed(&["fen", KRK, "--tb", TABLES]);
    assert!(
        text.ends_with("\ntablebase     WDL 2 (win), DTZ 25\n              best Ra5 (a1a5)\n"),
        "{text}"
    );
    // The rest of the view is the view without `--tb`.
    let plain = succeed(&["fen", KRK]);
    assert!(text.starts_with(&plain), "{text}");

    let json = |args: &[&str]| -> Value {
        let stdout = succeed(args);
        serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("{error}: {stdout}"))
    };
    let value = json(&["fen", KRK, "--tb", TABLES, "--format", "json"]);
    assert_eq!(
        value["tablebase"],
        serde_json::json!({"wdl": 2, "dtz": 25, "best": {"san": "Ra5", "uci": "a1a5"}})
    );
    assert_eq!(value["legal_moves"].as_u64(), Some(15));
    let tb = tb_json(KRK);
    assert_eq!(
        (&value["tablebase"]["wdl"], &value["tablebase"]["dtz"]),
        (&tb["wdl"], &tb["dtz"])
    );

    // A position the tables do not hold: the view, and why.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let text = succeed(&["fen", start, "--tb", TABLES]);
    assert!(
        text.ends_with("\ntablebase     not in the tables: 32 pieces on the board (kings included); the tables in TABLES hold at most 4\n".replace("TABLES", TABLES).as_str()),
        "{text}"
    );
    let value = json(&[
        "fen",
        "r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
        "--tb",
        TABLES,
        "--format",
        "json",
    ]);
    let error = value["tablebase"]["error"].as_str().expect("an error");
    assert!(
        error.starts_with("the position has castling rights"),
        "{error}"
    );

    // A directory that cannot be read fails the command.
    let stderr = fail_with_usage_error(&["fen", KRK, "--tb", "/no/such/directory"]);
    assert!(
        stderr.starts_with("error: cannot read the tablebase directory /no/such/directory: "),
        "{stderr}"
    );
}

#[test]
fn help() {
    assert_snapshot!("tb_help", succeed(&["tb", "--help"]));
}
