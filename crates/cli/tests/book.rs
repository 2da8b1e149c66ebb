//! `bitboards book build` and `bitboards book show`: a book built from a
//! PGN file (plain and zstd, one and two threads) lists its moves with
//! weights, shares and SAN, as text and JSON.

// Only `run` of the shared helpers is needed here.
#[allow(dead_code)]
mod common;

use common::run;

const GAMES: &str = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n\
                     [Result \"1/2-1/2\"]\n\n1. e4 c5 1/2-1/2\n\n\
                     [Result \"0-1\"]\n\n1. d4 d5 0-1\n\n\
                     [Result \"1-0\"]\n\n1. e4 e5 2. Bc4 1-0\n";

fn path(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-{name}", std::process::id()))
}

#[test]
fn build_then_show() {
    let pgn = path("book-games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let out = path("book.bin");
    let (code, _, stderr) = run(&[
        "book",
        "build",
        pgn.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("from 4 games"), "{stderr}");

    let (code, stdout, stderr) = run(&["book", "show", out.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    // e4: 2 + 1 + 2; d4: 0.
    assert_eq!(
        lines,
        [
            serde_json::json!({"uci": "e2e4", "san": "e4", "weight": 5, "learn": 0}),
            serde_json::json!({"uci": "d2d4", "san": "d4", "weight": 0, "learn": 0}),
        ]
    );
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let (_, text, _) = run(&["book", "show", out.to_str().unwrap(), "--fen", after_e4]);
    // Black's replies: e5 lost both games (0), c5 drew (1).
    assert_eq!(
        text,
        "c5       c7c5   weight     1  100.0%  learn 0\ne5       e7e5   weight     0    0.0%  learn 0\n"
    );

    // Many positions in one run: each position's moves, as `--fen` lists
    // them, with the position named.
    let fens = path("book-fens.txt");
    std::fs::write(
        &fens,
        format!("{}\n{after_e4}\n", bitboards::Position::START.fen()),
    )
    .unwrap();
    let (code, many, stderr) = run(&[
        "book",
        "show",
        out.to_str().unwrap(),
        "--fens",
        fens.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (_, replies, _) = run(&[
        "book",
        "show",
        out.to_str().unwrap(),
        "--fen",
        after_e4,
        "--format",
        "json",
    ]);
    let mut expected: Vec<serde_json::Value> = Vec::new();
    for (fen, text) in [
        (
            bitboards::Position::START.fen().to_string(),
            stdout.as_str(),
        ),
        (after_e4.to_string(), replies.as_str()),
    ] {
        for line in text.lines() {
            let mut object: serde_json::Value = serde_json::from_str(line).unwrap();
            object["fen"] = serde_json::json!(fen);
            expected.push(object);
        }
    }
    let got: Vec<serde_json::Value> = many
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(got, expected);
    assert_eq!(got.len(), 4);
    let _ = std::fs::remove_file(fens);

    // The same book from the file compressed, on one thread, when zstd is here.
    let zst = path("book-games.pgn.zst");
    let compressed = std::process::Command::new("zstd")
        .args(["-q", "-f", "-o"])
        .arg(&zst)
        .arg(&pgn)
        .status();
    if compressed.is_ok_and(|status| status.success()) {
        let again = path("book-again.bin");
        let (code, _, stderr) = run(&[
            "book",
            "build",
            zst.to_str().unwrap(),
            "-o",
            again.to_str().unwrap(),
            "--threads",
            "1",
        ]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&out).unwrap());
        let _ = std::fs::remove_file(again);
        let _ = std::fs::remove_file(zst);
    }
    for file in [pgn, out] {
        let _ = std::fs::remove_file(file);
    }
}

#[test]
fn a_bad_book_is_an_error() {
    let bad = path("bad.bin");
    std::fs::write(&bad, [0u8; 17]).unwrap();
    let (code, _, stderr) = run(&["book", "show", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("16-byte entries"), "{stderr}");
    let _ = std::fs::remove_file(bad);
}
