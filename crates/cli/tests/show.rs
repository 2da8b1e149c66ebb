//! `bitboards show`, run as a binary: the examples, every output
//! form, colour, standard input, and the errors (exit code 2, caret under the
//! offending token). Outputs are insta snapshots in tests/snapshots/.

use assert_cmd::Command;
use bitboards::{Bitboard, Square, attacks, masks};
use insta::assert_snapshot;

/// Runs `bitboards ARGS` with `NO_COLOR` unset and no terminal, and returns
/// (exit code, stdout, stderr).
fn run_with_stdin(args: &[&str], stdin: &str) -> (i32, String, String) {
    let output = Command::cargo_bin("bitboards")
        .expect("the binary is built for integration tests")
        .args(args)
        .env_remove("NO_COLOR")
        .write_stdin(stdin)
        .output()
        .expect("the binary runs");
    (
        output
            .status
            .code()
            .expect("exited, not killed by a signal"),
        String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    )
}

fn run(args: &[&str]) -> (i32, String, String) {
    run_with_stdin(args, "")
}

/// Runs a `show` that must succeed and returns its standard output.
fn show(args: &[&str]) -> String {
    let mut full = vec!["show"];
    full.extend_from_slice(args);
    let (code, stdout, stderr) = run(&full);
    assert_eq!(code, 0, "bitboards {full:?} failed:\n{stderr}");
    assert!(stderr.is_empty(), "unexpected stderr: {stderr}");
    stdout
}

/// The `value` of `--format json` output, parsed back.
fn json(args: &[&str]) -> serde_json::Value {
    let mut full = vec!["--format", "json"];
    full.extend_from_slice(args);
    serde_json::from_str(&show(&full)).expect("show --format json prints valid JSON")
}

fn squares_of(value: &serde_json::Value) -> Vec<String> {
    value["squares"]
        .as_array()
        .expect("squares is a list")
        .iter()
        .map(|s| s.as_str().expect("a square is a string").to_owned())
        .collect()
}

#[test]
fn a_number_is_c4_by_default_and_f5_in_berbef() {
    let lerf = show(&["0x0000000004000000"]);
    assert!(lerf.contains("\nsquares   c4\n"), "{lerf}");
    assert_snapshot!("c4_lerf", lerf);
    let berbef = show(&["--numbering", "berbef", "0x0000000004000000"]);
    assert!(berbef.contains("\nsquares   f5\n"), "{berbef}");
    assert_snapshot!("f5_berbef", berbef);
}

#[test]
fn the_same_number_in_decimal_and_binary() {
    let decimal = json(&["67108864"]);
    let binary = json(&["0b100_0000_0000_0000_0000_0000_0000"]);
    assert_eq!(decimal, binary);
    assert_eq!(squares_of(&decimal), ["c4"]);
}

#[test]
fn rook_with_blockers_and_its_literal() {
    let out = show(&["--literal", "rook(d4, d6 | f4)"]);
    assert_snapshot!("rook_d4_literal", out);
    // The literal's diagram reads back as the same board.
    let literal = &out[out.find("bitboard! {").expect("the literal is printed")..];
    let body: String = literal
        .lines()
        .skip(1)
        .take_while(|line| *line != "}")
        .map(|line| format!("{line}\n"))
        .collect();
    let expected = attacks::rook(Square::D4, Square::D6.bitboard() | Square::F4.bitboard());
    assert_eq!(body.parse::<Bitboard>(), Ok(expected));
}

#[test]
fn json_parses_back_with_value_hex_squares_and_count() {
    let value = json(&["knight(g5)"]);
    let knight = attacks::knight(Square::G5);
    assert_eq!(value["value"].as_u64(), Some(knight.0));
    assert_eq!(
        value["hex"].as_str(),
        Some(format!("{:#018x}", knight.0).as_str())
    );
    assert_eq!(value["count"].as_u64(), Some(6));
    assert_eq!(value["numbering"].as_str(), Some("lerf"));
    let expected: Vec<String> = knight.iter().map(|s| s.name().to_owned()).collect();
    assert_eq!(squares_of(&value), expected);
    assert!(value.get("literal").is_none());
}

#[test]
fn json_numbers_follow_the_numbering_but_squares_do_not() {
    let lerbef = json(&["--numbering", "lerbef", "file_a"]);
    assert_eq!(lerbef["value"].as_u64(), Some(0x8080_8080_8080_8080));
    assert_eq!(lerbef["hex"].as_str(), Some("0x8080808080808080"));
    assert_eq!(lerbef["numbering"].as_str(), Some("lerbef"));
    assert_eq!(
        squares_of(&lerbef),
        ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"]
    );
    let with_literal = json(&["--literal", "e4"]);
    let literal = with_literal["literal"].as_str().expect("a literal string");
    assert!(literal.starts_with("bitboard! {\n"));
    assert!(literal.contains("\n    4 . . . . X . . .\n"));
}

#[test]
fn every_numbering_reads_and_writes_its_own_numbers() {
    // (numbering, the number for file a, for rank 8)
    let cases = [
        ("lerf", 0x0101_0101_0101_0101u64, 0xFF00_0000_0000_0000u64),
        ("lerbef", 0x8080_8080_8080_8080, 0xFF00_0000_0000_0000),
        ("berf", 0x0101_0101_0101_0101, 0x0000_0000_0000_00FF),
        ("berbef", 0x8080_8080_8080_8080, 0x0000_0000_0000_00FF),
    ];
    for (numbering, file_a, rank_8) in cases {
        let out = json(&["--numbering", numbering, "file_a"]);
        assert_eq!(out["value"].as_u64(), Some(file_a), "{numbering}");
        let out = json(&["--numbering", numbering, "rank_8"]);
        assert_eq!(out["value"].as_u64(), Some(rank_8), "{numbering}");
        // And back: the number names the same squares.
        let back = json(&["--numbering", numbering, &format!("{file_a:#x}")]);
        assert_eq!(squares_of(&back).first().map(String::as_str), Some("a1"));
    }
    assert_snapshot!("file_a_lerbef", show(&["--numbering", "lerbef", "file_a"]));
}

#[test]
fn shifts_act_on_the_number_as_written_in_the_numbering() {
    // In LERF `<< 1` moves east; in BERBEF, where h8 is bit 0, it moves west.
    assert_eq!(squares_of(&json(&["e4 << 1"])), ["f4"]);
    assert_eq!(
        squares_of(&json(&["--numbering", "berbef", "e4 << 1"])),
        ["d4"]
    );
    assert_eq!(squares_of(&json(&["e4 >> 8"])), ["e3"]);
    assert_eq!(
        squares_of(&json(&["--numbering", "berf", "e4 >> 8"])),
        ["e5"]
    );
}

#[test]
fn names_functions_and_operators() {
    let cases: [(&str, Bitboard); 12] = [
        ("e4,d5", Square::E4.bitboard() | Square::D5.bitboard()),
        (
            "light_squares & rank_1",
            masks::LIGHT_SQUARES & masks::RANK_1,
        ),
        ("king(e1)", attacks::king(Square::E1)),
        (
            "pawn(white, e4)",
            attacks::pawn(bitboards::Color::White, Square::E4),
        ),
        (
            "bishop(c1, d2)",
            attacks::bishop(Square::C1, Square::D2.bitboard()),
        ),
        ("queen(d4)", attacks::queen(Square::D4, Bitboard::EMPTY)),
        (
            "between(a1, h8)",
            bitboards::between(Square::A1, Square::H8),
        ),
        ("line(c2, e4)", bitboards::line(Square::C2, Square::E4)),
        ("north(rank_2)", masks::RANK_3),
        (
            "flip(rank_2) ^ mirror(file_b)",
            masks::RANK_7 ^ masks::FILE_G,
        ),
        ("~file_a - rank_1", !masks::FILE_A - masks::RANK_1),
        ("!(center | corners)", !(masks::CENTER | masks::CORNERS)),
    ];
    for (expression, expected) in cases {
        let value = json(&[expression]);
        assert_eq!(value["value"].as_u64(), Some(expected.0), "{expression}");
    }
}

#[test]
fn arguments_are_joined_into_one_expression() {
    assert_eq!(json(&["file_a", "|", "rank_1"]), json(&["file_a | rank_1"]));
}

#[test]
fn a_diagram_on_standard_input() {
    let diagram = attacks::knight(Square::G5).to_string();
    let (code, stdout, stderr) = run_with_stdin(&["show", "-"], &diagram);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with(&diagram), "{stdout}");
    // Used inside an expression, and fed the full output of `show`.
    let previous = show(&["--literal", "knight(g5)"]);
    // An argument that starts with `-` and more follows `--`; a lone `-`
    // needs nothing.
    for args in [
        &["show", "--format", "json", "--", "- & rank_3"][..],
        &["show", "--format", "json", "-", "&", "rank_3"][..],
    ] {
        let (code, stdout, stderr) = run_with_stdin(args, &previous);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        let value: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
        assert_eq!(squares_of(&value), ["f3", "h3"], "{args:?}");
    }
}

#[test]
fn a_number_on_standard_input() {
    for stdin in ["0xff\n", "255\n"] {
        let (code, stdout, stderr) = run_with_stdin(&["show", "-"], stdin);
        assert_eq!(code, 0, "{stdin:?}: {stderr}");
        assert!(
            stdout.contains("squares   a1 b1 c1 d1 e1 f1 g1 h1\n"),
            "{stdout}"
        );
    }
    // In the chosen numbering, as a number in the expression is.
    let (code, stdout, stderr) = run_with_stdin(
        &["show", "--numbering", "berbef", "-"],
        "0x0000000004000000\n",
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("squares   f5\n"), "{stdout}");
    let (code, _, stderr) = run_with_stdin(&["show", "-"], "0xfg\n");
    assert_eq!(code, 2);
    assert!(stderr.contains("`g` is not a hex digit"), "{stderr}");
}

#[test]
fn a_bad_diagram_on_standard_input_points_at_its_line() {
    let text = "8 . . . . . . . .\n7 . . o . . . . .\n";
    let (code, stdout, stderr) = run_with_stdin(&["show", "e4 | -"], text);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert_snapshot!("stdin_bad_symbol", stderr);
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let set_square = "\x1b[1;32mX\x1b[0m";
    assert!(show(&["--color", "always", "e4"]).contains(set_square));
    assert!(!show(&["--color", "never", "e4"]).contains('\x1b'));
    // Not a terminal: `auto` means no colour.
    assert!(!show(&["e4"]).contains('\x1b'));
    let with_no_color = Command::cargo_bin("bitboards")
        .expect("binary")
        .args(["show", "--color", "always", "e4"])
        .env("NO_COLOR", "1")
        .output()
        .expect("runs");
    // `always` is the user's explicit word and wins over NO_COLOR.
    assert!(String::from_utf8_lossy(&with_no_color.stdout).contains(set_square));
}

#[test]
fn errors_show_a_caret_and_exit_with_code_2() {
    let cases = [
        ("unknown_name", "knight(g5) | fil_a"),
        ("two_operands", "e4 d5"),
        ("unclosed_paren", "(e4 | d5"),
        ("dangling_operator", "file_a |"),
        ("not_a_square", "i9"),
        ("number_too_big", "0x1_0000_0000_0000_0000"),
        ("bad_hex_digit", "0x00g0"),
        ("shift_too_far", "a1 << 64"),
        ("shift_without_amount", "a1 << e4"),
        ("single_angle", "e4 < 1"),
        ("unknown_character", "e4 * 2"),
        ("unknown_function", "knigth(g5)"),
        ("wrong_arity", "between(a1)"),
        ("too_many_arguments", "rook(d4, d6, f4)"),
        ("needs_one_square", "line(file_a, h8)"),
        ("colour_as_board", "white | e4"),
        ("board_as_colour", "pawn(e4, white)"),
        ("function_without_call", "knight"),
        ("stray_close", "e4)"),
        ("minus_without_left", "(-e4)"),
        ("empty", " "),
    ];
    let mut all = String::new();
    for (name, expression) in cases {
        let (code, stdout, stderr) = run(&["show", expression]);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(stdout.is_empty(), "{name}");
        assert!(stderr.starts_with("error: "), "{name}: {stderr}");
        assert!(stderr.contains('^'), "{name}: no caret in {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        all.push_str(&format!("$ bitboards show '{expression}'\n{stderr}\n"));
    }
    assert_snapshot!("errors", all);
}

#[test]
fn usage_errors_exit_with_code_2() {
    let (code, _, stderr) = run(&["show"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("<EXPR>"), "{stderr}");
    let (code, _, stderr) = run(&["show", "--numbering", "abcd", "e4"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("berbef"), "{stderr}");
}

#[test]
fn help_lists_the_subcommands_and_options() {
    let (code, stdout, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert_snapshot!("help", stdout);
    let (code, stdout, _) = run(&["show", "--help"]);
    assert_eq!(code, 0);
    assert_snapshot!("show_help", stdout);
    let (code, stdout, _) = run(&["edit", "--help"]);
    assert_eq!(code, 0);
    assert_snapshot!("edit_help", stdout);
}

#[test]
fn edit_without_a_terminal_says_so() {
    // The test harness gives the child pipes, not a terminal.
    let (code, stdout, stderr) = run(&["edit", "e4"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("not a terminal"), "{stderr}");
    // A bad starting expression is reported before that, as for `show`.
    let (code, _, stderr) = run(&["edit", "e4 |"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("  e4 |\n      ^\n"), "{stderr}");
}
