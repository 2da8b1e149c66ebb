//! `bitboards fen`, run as a binary: the report (snapshots), the grid of
//! boards read back and compared with the FEN read here by hand, the facts
//! against published figures, Chess960, JSON, and the errors (exit code 2,
//! caret under the column the error names).

mod common;

use bitboards::Bitboard;
use common::{KIWIPETE, fail_with_usage_error, succeed};
use insta::assert_snapshot;

fn fen(args: &[&str]) -> String {
    let mut full = vec!["fen"];
    full.extend_from_slice(args);
    succeed(&full)
}

fn json(fen_text: &str) -> serde_json::Value {
    serde_json::from_str(&fen(&["--format", "json", fen_text]))
        .expect("fen --format json prints valid JSON")
}

/// The twelve piece boards of a FEN's board field, read here without the
/// library: (literature name, bits). Rank 8 comes first in a FEN.
fn piece_boards_by_hand(fen_text: &str) -> Vec<(String, u64)> {
    let board = fen_text.split(' ').next().expect("a board field");
    let mut bits = std::collections::HashMap::<char, u64>::new();
    for (rank_from_top, rank) in board.split('/').enumerate() {
        let mut file = 0;
        for symbol in rank.chars() {
            match symbol.to_digit(10) {
                Some(empty) => file += empty,
                None => {
                    let square = 8 * (7 - rank_from_top as u32) + file;
                    *bits.entry(symbol).or_default() |= 1 << square;
                    file += 1;
                }
            }
        }
    }
    let kinds = [
        ('p', "Pawns"),
        ('r', "Rooks"),
        ('n', "Knights"),
        ('b', "Bishops"),
        ('q', "Queens"),
        ('k', "King"),
    ];
    let mut boards = Vec::new();
    for (color, upper) in [("White", true), ("Black", false)] {
        for (letter, name) in kinds {
            let letter = if upper {
                letter.to_ascii_uppercase()
            } else {
                letter
            };
            let value = bits.get(&letter).copied().unwrap_or(0);
            boards.push((format!("{color}{name}"), value));
        }
    }
    boards
}

/// The grid of the text report read back: each board's name, the diagram
/// under it (parsed as a `Bitboard`) and the hex under that.
fn grid_read_back(report: &str) -> Vec<(String, Bitboard, String)> {
    let lines: Vec<&str> = report.lines().collect();
    let first = lines
        .iter()
        .position(|line| line.starts_with("WhitePawns"))
        .expect("the grid starts with WhitePawns");
    let mut boards = Vec::new();
    // Five rows of three cells, each row 11 lines (name, 9 diagram lines,
    // hex) and a blank line; a cell is 18 columns and a 2-column gap.
    for row in 0..5 {
        let top = first + row * 12;
        for column in 0..3 {
            let cell = |line: &str| -> String {
                line.chars().skip(column * 20).take(18).collect::<String>()
            };
            let name = cell(lines[top]).trim().to_owned();
            let diagram: String = lines[top + 1..top + 10]
                .iter()
                .map(|line| format!("{}\n", cell(line).trim_end()))
                .collect();
            let board = diagram
                .parse::<Bitboard>()
                .unwrap_or_else(|error| panic!("{name}: {error}\n{diagram}"));
            let hex = cell(lines[top + 10]).trim().to_owned();
            boards.push((name, board, hex));
        }
    }
    boards
}

#[test]
fn the_start_position() {
    let report = fen(&["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]);
    assert_snapshot!("start", report);
}

#[test]
fn kiwipete_grid_reads_back_as_the_fen_board() {
    let report = fen(&[KIWIPETE]);
    assert_snapshot!("kiwipete", report);
    let grid = grid_read_back(&report);
    let by_hand = piece_boards_by_hand(KIWIPETE);
    for ((name, board, hex), (expected_name, bits)) in grid.iter().zip(&by_hand) {
        assert_eq!(name, expected_name);
        assert_eq!(board.0, *bits, "{name}");
        assert_eq!(hex, &format!("{bits:#018x}"), "{name}");
    }
    let union =
        |range: std::ops::Range<usize>| by_hand[range].iter().fold(0, |all, (_, b)| all | b);
    let unions = [
        ("AllWhitePieces", union(0..6)),
        ("AllBlackPieces", union(6..12)),
        ("AllPieces", union(0..12)),
    ];
    for ((name, board, _), (expected_name, bits)) in grid[12..].iter().zip(unions) {
        assert_eq!((name.as_str(), board.0), (expected_name, bits));
    }
}

#[test]
fn the_fen_as_one_argument_or_as_its_fields() {
    let fields: Vec<&str> = KIWIPETE.split(' ').collect();
    assert_eq!(fen(&fields), fen(&[KIWIPETE]));
    // Four fields: the clocks read as 0 and 1.
    assert_eq!(fen(&fields[..4]), fen(&[KIWIPETE]));
}

#[test]
fn checkers_pinned_and_the_move_count() {
    // The white pawn on d2 is pinned by the bishop on b4; the knight on f3
    // gives check.
    let report = fen(&["4k3/8/8/8/1b6/5n2/3P4/4K3 w - - 0 1"]);
    assert!(
        report.contains("\ncheckers      f3 (0x0000000000200000)\n"),
        "{report}"
    );
    assert!(
        report.contains("\npinned        d2 (0x0000000000000800)\n"),
        "{report}"
    );
    let value = json("4k3/8/8/8/1b6/5n2/3P4/4K3 w - - 0 1");
    assert_eq!(value["checkers"], serde_json::json!(["f3"]));
    assert_eq!(value["pinned"], serde_json::json!(["d2"]));
    // In check from a knight, with d2 pinned and unable to take it: only
    // the king moves, to d1, e2, f1 or f2 (none attacked).
    assert!(
        report.contains("\nlegal moves   4\n              Kd1 Kf1 Ke2 Kf2\n"),
        "{report}"
    );
    assert_eq!(value["legal_moves"].as_u64(), Some(4));
    assert_eq!(
        value["san"],
        serde_json::json!(["Kd1", "Kf1", "Ke2", "Kf2"])
    );

    let mate = fen(&["7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"]);
    assert!(mate.contains("\nlegal moves   0 (checkmate)\n"), "{mate}");
    assert!(mate.contains("\ncheckers      g7 "), "{mate}");
    let stalemate = fen(&["7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]);
    assert!(
        stalemate.contains("\nlegal moves   0 (stalemate)\n"),
        "{stalemate}"
    );
    assert!(
        stalemate.contains("\ncheckers      (none)\n"),
        "{stalemate}"
    );
}

#[test]
fn polyglot_keys_match_the_published_vectors() {
    // From the Polyglot book format's published test positions (the
    // repository's tests/data/polyglot-vectors.txt).
    let vectors = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "0x463b96181691fc9c",
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "0x22a48b5a8e47ff78",
        ),
        (
            "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
            "0x5c3f9b829b279560",
        ),
    ];
    for (fen_text, key) in vectors {
        let report = fen(&[fen_text]);
        assert!(
            report.contains(&format!("\nPolyglot key  {key}\n")),
            "{report}"
        );
        assert_eq!(json(fen_text)["polyglot_key"].as_str(), Some(key));
    }
    let en_passant = fen(&["rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"]);
    assert!(en_passant.contains("\nen passant    f6\n"), "{en_passant}");
    assert!(
        en_passant.contains("\nside to move  white\n"),
        "{en_passant}"
    );
}

#[test]
fn chess960_shredder_fens() {
    // Inner rooks (on g1 and e1, the king on f1) and an outer one.
    let shredder = "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1";
    let report = fen(&[shredder]);
    assert_snapshot!("chess960", report);
    assert!(
        report.contains("\ncastling      KQkq (Shredder-FEN GEge)\n"),
        "{report}"
    );
    let value = json(shredder);
    assert_eq!(value["shredder_fen"].as_str(), Some(shredder));
    // X-FEN: KQkq where they name the outermost rook, a file letter where
    // they would name another one.
    let x_fen = "rkbnn1rq/3p2pp/ppp1p3/1P4B1/N2p1b2/6P1/P1P1PP1P/RK3BRQ b GAga - 0 11";
    let value = json(x_fen);
    assert_eq!(value["shredder_fen"].as_str(), Some(x_fen));
    assert_eq!(value["castling"].as_str(), Some("KQkq"));
    assert_eq!(value["side_to_move"].as_str(), Some("black"));
    let only_inner = "1r2k1r1/8/8/8/8/8/8/1R2K1RR w Gk - 0 1";
    let value = json(only_inner);
    assert_eq!(value["castling"].as_str(), Some("Gk"));
}

#[test]
fn json_holds_every_board_and_fact() {
    let value = json(KIWIPETE);
    assert_eq!(value["fen"].as_str(), Some(KIWIPETE));
    assert_eq!(value["castling"].as_str(), Some("KQkq"));
    assert!(value["en_passant"].is_null());
    assert_eq!(value["legal_moves"].as_u64(), Some(48));
    let san = value["san"].as_array().expect("a list");
    assert_eq!(san.len(), 48);
    for expected in ["O-O", "O-O-O", "Bxa6", "Qxf6", "Nxf7", "d6", "gxh3"] {
        assert!(san.iter().any(|mv| mv == expected), "{expected}: {san:?}");
    }
    assert_eq!(value["checkmate"].as_bool(), Some(false));
    let boards = value["bitboards"].as_object().expect("an object");
    assert_eq!(boards.len(), 15);
    for (name, bits) in piece_boards_by_hand(KIWIPETE) {
        assert_eq!(
            boards[&name].as_str(),
            Some(format!("{bits:#018x}").as_str()),
            "{name}"
        );
    }
}

#[test]
fn impossible_checks_only_when_asked() {
    // Two bishops checking along one diagonal: a perft suite position no
    // game reaches.
    let aligned = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
    let error = fail_with_usage_error(&["fen", aligned]);
    assert!(error.contains("field 1 (board)"), "{error}");
    let report = fen(&["--allow-impossible-check", aligned]);
    assert!(report.contains("\ncheckers      h1 a8 "), "{report}");
}

#[test]
fn bad_fens_exit_with_code_2_and_a_caret_under_the_column() {
    let cases = [
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/ppp6/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w Kx - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 x",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
        "4k3/8/8/8/8/8/8/4K3 w",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2q b - - 0 1",
        "",
    ];
    let mut all = String::new();
    for case in cases {
        let stderr = fail_with_usage_error(&["fen", case]);
        let column: usize = stderr
            .split("column ")
            .nth(1)
            .and_then(|rest| rest.split(':').next())
            .and_then(|number| number.parse().ok())
            .unwrap_or_else(|| panic!("no column in {stderr}"));
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines[1], format!("  {case}"), "{stderr}");
        assert_eq!(lines[2].find('^'), Some(2 + column - 1), "{stderr}");
        all.push_str(&format!("$ bitboards fen '{case}'\n{stderr}\n"));
    }
    assert_snapshot!("errors", all);
}

#[test]
fn usage_errors_exit_with_code_2() {
    let stderr = fail_with_usage_error(&["fen"]);
    assert!(stderr.contains("<FEN>"), "{stderr}");
    let stderr = fail_with_usage_error(&["fen", "--format", "yaml", KIWIPETE]);
    assert!(stderr.contains("json"), "{stderr}");
}

#[test]
fn help() {
    assert_snapshot!("fen_help", succeed(&["fen", "--help"]));
}
