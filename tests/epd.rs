//! EPD records: known lines read field by field, the perft files read and
//! written back, every error with its message and place, and a seeded fuzz
//! loop over mutated real lines.

mod common;

use bitboards::Validation;
use bitboards::epd::{self, Epd, EpdError, EpdErrorKind, Operation};
use bitboards::{FenError, FenField, FenSyntaxError, Position, PositionError, Square};
use common::{CHESS960_RANDOM, CHESS960_STARTS, PERFT_SUITE, Rng};

const WAC_001: &str =
    r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#;

fn parse(line: &str) -> Epd {
    Epd::parse(line).unwrap_or_else(|error| panic!("{line}: {error}"))
}

fn operation(opcode: &str, operands: &[&str]) -> Operation {
    Operation::new(opcode, operands.iter().copied()).expect("a valid operation")
}

fn opcodes(epd: &Epd) -> Vec<&str> {
    epd.operations().iter().map(Operation::opcode).collect()
}

#[test]
fn a_test_suite_line_reads_field_by_field() {
    let epd = parse(WAC_001);
    assert_eq!(
        *epd.position(),
        Position::from_fen("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1").unwrap()
    );
    assert_eq!(
        epd.operations(),
        [operation("bm", &["Qg6"]), operation("id", &["WAC.001"])]
    );
    assert_eq!(epd.best_moves(), ["Qg6"]);
    assert!(epd.avoid_moves().is_empty());
    assert_eq!(epd.id(), Some("WAC.001"));
    assert_eq!(epd.comment(0), None);
    assert_eq!(
        epd.operation("bm").map(Operation::operand),
        Some(Some("Qg6"))
    );
    assert_eq!(epd.operation("am"), None);
    assert_eq!(epd.perft_counts().count(), 0);
    assert!(!epd.fen_has_clocks());
    assert_eq!(epd.position().halfmove_clock(), 0);
    assert_eq!(epd.position().fullmove_number(), 1);
    // Written back exactly as the suites write it.
    assert_eq!(epd.to_string(), WAC_001);
    assert_eq!(WAC_001.parse::<Epd>(), Ok(epd));
}

#[test]
fn quoted_operands_comments_clocks_and_unknown_opcodes() {
    let line = r#"4k3/8/8/8/8/8/8/4K2R w K - c0 "a comment; with a semicolon";am Kf1 Ke2 ; hmvc 7;fmvn 31; c9 "say \"hi\" \\o/" ; x_Y9 a "b c" "";;"#;
    let epd = parse(line);
    assert_eq!(opcodes(&epd), ["c0", "am", "hmvc", "fmvn", "c9", "x_Y9"]);
    assert_eq!(epd.comment(0), Some("a comment; with a semicolon"));
    assert_eq!(epd.comment(9), Some(r#"say "hi" \o/"#));
    assert_eq!(epd.comment(10), None);
    assert_eq!(epd.avoid_moves(), ["Kf1", "Ke2"]);
    assert!(epd.best_moves().is_empty());
    assert_eq!(epd.operation("x_Y9").unwrap().operands(), ["a", "b c", ""]);
    assert_eq!(epd.position().halfmove_clock(), 7);
    assert_eq!(epd.position().fullmove_number(), 31);
    assert_eq!(
        epd.to_string(),
        r#"4k3/8/8/8/8/8/8/4K2R w K - c0 "a comment; with a semicolon"; am Kf1 Ke2; hmvc 7; fmvn 31; c9 "say \"hi\" \\o/"; x_Y9 a "b c" "";"#
    );
    assert_eq!(parse(&epd.to_string()), epd);
}

#[test]
fn six_field_fen_clocks_win_over_hmvc_and_fmvn() {
    let epd = parse("4k3/8/8/8/8/8/8/4K3 b - - 12 50 ;hmvc 3 ;fmvn 9");
    assert!(epd.fen_has_clocks());
    assert_eq!(epd.position().halfmove_clock(), 12);
    assert_eq!(epd.position().fullmove_number(), 50);
    assert_eq!(
        epd.to_string(),
        "4k3/8/8/8/8/8/8/4K3 b - - 12 50 hmvc 3; fmvn 9;"
    );
    assert_eq!(parse(&epd.to_string()), epd);
    // One integer after the fields is not a clock but a bad opcode.
    assert_eq!(
        Epd::parse("4k3/8/8/8/8/8/8/4K3 b - - 12 bm Kd7;")
            .unwrap_err()
            .kind(),
        &EpdErrorKind::OpcodeStart('1')
    );
}

#[test]
fn perft_counts_of_the_first_suite_line() {
    let first = PERFT_SUITE.lines().next().unwrap();
    let epd = parse(first);
    assert_eq!(*epd.position(), Position::START);
    assert!(epd.fen_has_clocks());
    assert_eq!(
        epd.perft_counts().collect::<Vec<_>>(),
        [
            (1, 20),
            (2, 400),
            (3, 8902),
            (4, 197_281),
            (5, 4_865_609),
            (6, 119_060_324)
        ]
    );
    assert_eq!(opcodes(&epd), ["D1", "D2", "D3", "D4", "D5", "D6"]);
    assert_eq!(
        epd.to_string(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 D1 20; D2 400; D3 8902; D4 197281; D5 4865609; D6 119060324;"
    );
}

/// Reads every line of `text` (the one impossible check without its
/// rules), writes each record and reads it back: equal records, the same
/// counts as the line, and the six-field FEN kept. Returns the count.
fn round_trip_file(text: &str) -> usize {
    let mut count = 0;
    for (index, record) in
        epd::read_with(text, Validation::ALL_RULES.allow_impossible_check()).enumerate()
    {
        let record = record.unwrap_or_else(|error| panic!("{error}"));
        let line = text.lines().nth(index).unwrap();
        let strict = Epd::parse(line).is_ok();
        let written = record.to_string();
        let again = if strict {
            Epd::parse(&written)
        } else {
            Epd::parse_with(&written, Validation::ALL_RULES.allow_impossible_check())
        };
        assert_eq!(again.as_ref(), Ok(&record), "{line}\n{written}");
        assert!(record.fen_has_clocks(), "{line}");
        let counts: Vec<(u32, u64)> = line
            .split(';')
            .skip(1)
            .map(|part| {
                let (depth, nodes) = part.trim().split_once(' ').unwrap();
                (depth[1..].parse().unwrap(), nodes.parse().unwrap())
            })
            .collect();
        assert!(!counts.is_empty());
        assert_eq!(record.perft_counts().collect::<Vec<_>>(), counts, "{line}");
        count += 1;
    }
    count
}

#[test]
fn the_perft_files_round_trip() {
    assert_eq!(round_trip_file(PERFT_SUITE), 127);
    assert_eq!(round_trip_file(CHESS960_STARTS), 960);
    assert_eq!(round_trip_file(CHESS960_RANDOM), 200);
}

#[test]
fn the_suite_needs_the_relaxed_reader_for_one_line() {
    let rejected: Vec<EpdError> = epd::read(PERFT_SUITE).filter_map(Result::err).collect();
    assert_eq!(rejected.len(), 1);
    let error = &rejected[0];
    assert!(
        matches!(
            error.kind(),
            EpdErrorKind::Fen(FenError::Illegal {
                problem: PositionError::AlignedCheckers { .. },
                ..
            })
        ),
        "{error}"
    );
    let line = error.line().unwrap();
    assert!(
        PERFT_SUITE
            .lines()
            .nth(line - 1)
            .unwrap()
            .starts_with("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1")
    );
    assert_eq!(error.column(), 1);
}

#[test]
fn built_records_round_trip() {
    let mut epd = Epd::new(Position::START);
    assert!(!epd.fen_has_clocks());
    epd.push(operation("bm", &["e4", "d4"]));
    epd.push(operation("c0", &["open; wide"]));
    epd.push(operation("hmvc", &["4"]));
    assert_eq!(epd.position().halfmove_clock(), 4);
    epd.set(operation("bm", &["Nf3"]));
    epd.set(operation("id", &["start"]));
    assert_eq!(opcodes(&epd), ["bm", "c0", "hmvc", "id"]);
    assert_eq!(
        epd.to_string(),
        r#"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Nf3; c0 "open; wide"; hmvc 4; id "start";"#
    );
    assert_eq!(parse(&epd.to_string()), epd);

    // A position with clocks other than 0 and 1 is written with them.
    let position = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 9 30").unwrap();
    let epd = Epd::new(position);
    assert!(epd.fen_has_clocks());
    assert_eq!(epd.to_string(), "4k3/8/8/8/8/8/8/4K3 w - - 9 30");
    assert_eq!(parse(&epd.to_string()), epd);
}

#[test]
fn set_replaces_every_operation_with_its_opcode() {
    let mut epd = parse("4k3/8/8/8/8/8/8/4K3 w - - D1 5; pv Kd2; D1 6; D2 30; D1 7;");
    epd.set(operation("D1", &["5"]));
    assert_eq!(opcodes(&epd), ["D1", "pv", "D2"]);
    assert_eq!(epd.perft_counts().collect::<Vec<_>>(), [(1, 5), (2, 30)]);
}

#[test]
fn operations_are_checked_when_built() {
    let error = |opcode: &str, operands: &[&str]| {
        Operation::new(opcode, operands.iter().copied())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(error("", &[]), "EPD column 1: an operation needs an opcode");
    assert_eq!(
        error("_x", &[]),
        "EPD column 1: an opcode starts with a letter, not `_`"
    );
    assert_eq!(
        error("bé", &[]),
        "EPD column 2: `é` cannot be in an opcode; an opcode is a letter, then letters, digits and `_`"
    );
    assert_eq!(
        error("D2", &["1", "2"]),
        "EPD column 6: `D2` needs one unsigned integer, found 2 operands"
    );
    assert_eq!(
        error("hmvc", &["1 2"]),
        "EPD column 6: `hmvc` needs one unsigned integer, found `1 2`"
    );
    assert_eq!(
        Operation::new("D2", ["40"]).map(|operation| operation.to_string()),
        Ok("D2 40;".to_string())
    );
}

/// The error `line` gives, read as the second line of a file.
fn error_on_line_2(line: &str) -> EpdError {
    let text = format!("{}\n{line}\n", PERFT_SUITE.lines().next().unwrap());
    let mut records = epd::read(&text);
    assert!(records.next().unwrap().is_ok());
    let error = records.next().unwrap().unwrap_err();
    assert!(records.next().is_none());
    assert_eq!(error.line(), Some(2));
    // Read alone, the same error without the line.
    let alone = Epd::parse(line).unwrap_err();
    assert_eq!(alone.line(), None);
    assert_eq!(
        (alone.column(), alone.kind()),
        (error.column(), error.kind())
    );
    error
}

fn check_error(line: &str, column: usize, kind: EpdErrorKind, message: &str) {
    let error = error_on_line_2(line);
    assert_eq!(error.kind(), &kind, "{line}");
    assert_eq!(error.column(), column, "{line}");
    assert_eq!(
        error.to_string(),
        format!("EPD line 2, column {column}: {message}")
    );
}

#[test]
fn fen_errors_keep_their_field_and_column() {
    check_error(
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;",
        19,
        EpdErrorKind::Fen(FenError::Syntax {
            field: FenField::Board,
            column: 19,
            problem: FenSyntaxError::BoardSymbol('9'),
        }),
        "FEN field 1 (board): `9` is not a piece letter (`PNBRQK` White, `pnbrqk` Black), a digit 1 to 8 or `/`",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0 ;D1 5",
        29,
        EpdErrorKind::Fen(FenError::Illegal {
            field: FenField::FullmoveNumber,
            column: 29,
            problem: PositionError::FullmoveNumberZero,
        }),
        "FEN field 6 (fullmove number): the fullmove number is 0; it starts at 1",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 70000 ;D1 5",
        29,
        EpdErrorKind::Fen(FenError::Syntax {
            field: FenField::FullmoveNumber,
            column: 29,
            problem: FenSyntaxError::ClockTooLarge,
        }),
        "FEN field 6 (fullmove number): the number does not fit; at most 65535",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - e3 bm Kd2;",
        25,
        EpdErrorKind::Fen(FenError::Illegal {
            field: FenField::EnPassant,
            column: 25,
            problem: PositionError::EnPassantRank { square: Square::E3 },
        }),
        "FEN field 4 (en passant): en passant square e3 is not on the rank the last double push crossed (rank 6 with White to move, rank 3 with Black)",
    );
    // The FEN error is in the kind, and in the message once (no source, so
    // that a chain printer does not repeat it).
    let error = Epd::parse("8/8/8/8/8/8/8/8 w - -").unwrap_err();
    let EpdErrorKind::Fen(fen) = error.kind() else {
        panic!("{error}")
    };
    assert_eq!(
        fen.to_string(),
        "FEN field 1 (board), column 1: white has 0 kings; each side has exactly one"
    );
    assert_eq!(error.to_string().matches("white has 0 kings").count(), 1);
    assert!(std::error::Error::source(&error).is_none());
}

#[test]
fn missing_fields() {
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - ;D1 5",
        25,
        EpdErrorKind::MissingFields { found: 3 },
        "3 FEN fields; an EPD record starts with 4 (board, side to move, castling, en passant)",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w",
        22,
        EpdErrorKind::MissingFields { found: 2 },
        "2 FEN fields; an EPD record starts with 4 (board, side to move, castling, en passant)",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3",
        20,
        EpdErrorKind::MissingFields { found: 1 },
        "1 FEN field; an EPD record starts with 4 (board, side to move, castling, en passant)",
    );
    check_error(
        ";D1 20",
        1,
        EpdErrorKind::MissingFields { found: 0 },
        "0 FEN fields; an EPD record starts with 4 (board, side to move, castling, en passant)",
    );
}

#[test]
fn numeric_operands() {
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - D1 5; D2 40x;",
        36,
        EpdErrorKind::NotANumber {
            opcode: "D2".into(),
            operand: "40x".into(),
        },
        "`D2` needs one unsigned integer, found `40x`",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 -5",
        35,
        EpdErrorKind::NotANumber {
            opcode: "D1".into(),
            operand: "-5".into(),
        },
        "`D1` needs one unsigned integer, found `-5`",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 ;D2 30",
        32,
        EpdErrorKind::OperandCount {
            opcode: "D1".into(),
            found: 0,
        },
        "`D1` needs one unsigned integer, found none",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 6",
        37,
        EpdErrorKind::OperandCount {
            opcode: "D1".into(),
            found: 2,
        },
        "`D1` needs one unsigned integer, found 2 operands",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - D1 18446744073709551616;",
        30,
        EpdErrorKind::OutOfRange {
            opcode: "D1".into(),
            operand: "18446744073709551616".into(),
            min: 0,
            max: u64::MAX,
        },
        "`D1` needs a number from 0 to 18446744073709551615, found `18446744073709551616`",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - hmvc 65536;",
        32,
        EpdErrorKind::OutOfRange {
            opcode: "hmvc".into(),
            operand: "65536".into(),
            min: 0,
            max: 65535,
        },
        "`hmvc` needs a number from 0 to 65535, found `65536`",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - fmvn 0;",
        32,
        EpdErrorKind::OutOfRange {
            opcode: "fmvn".into(),
            operand: "0".into(),
            min: 1,
            max: 65535,
        },
        "`fmvn` needs a number from 1 to 65535, found `0`",
    );
    // `D` alone and `Dx` are other opcodes, kept as they are.
    let epd = parse("4k3/8/8/8/8/8/8/4K3 w - - D x; Dx y; D1 \"7\";");
    assert_eq!(epd.perft_counts().collect::<Vec<_>>(), [(1, 7)]);
    assert_eq!(epd.operation("Dx").unwrap().operands(), ["y"]);
}

#[test]
fn opcodes_and_quotes() {
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; 1bm Kd2;",
        35,
        EpdErrorKind::OpcodeStart('1'),
        "an opcode starts with a letter, not `1`",
    );
    check_error(
        r#"4k3/8/8/8/8/8/8/4K3 w - - "bm" Kd2;"#,
        27,
        EpdErrorKind::OpcodeStart('"'),
        "an opcode starts with a letter, not `\"`",
    );
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - b-m Kd2;",
        28,
        EpdErrorKind::OpcodeSymbol('-'),
        "`-` cannot be in an opcode; an opcode is a letter, then letters, digits and `_`",
    );
    check_error(
        r#"4k3/8/8/8/8/8/8/4K3 w - - c0 "a; b" ; c1 "open \" ;"#,
        42,
        EpdErrorKind::UnterminatedQuote,
        "the quoted operand that starts here has no closing `\"`",
    );
    // Columns count characters, not bytes.
    check_error(
        "4k3/8/8/8/8/8/8/4K3 w - - c0 \"é ♞\"; D1 x;",
        40,
        EpdErrorKind::NotANumber {
            opcode: "D1".into(),
            operand: "x".into(),
        },
        "`D1` needs one unsigned integer, found `x`",
    );
}

#[test]
fn read_numbers_lines_from_one_and_skips_blank_ones() {
    let text = "\r\n  \n4k3/8/8/8/8/8/8/4K3 w - - id a;\r\n\t\n4k3/8/8/8/8/8/8/4K3 b - - id b;\n4k3/8/8/8/8/8/8/4K3 b - - D1\n";
    let records: Vec<_> = epd::read(text).collect();
    assert_eq!(records.len(), 3);
    assert_eq!(records[0].as_ref().unwrap().id(), Some("a"));
    assert_eq!(records[1].as_ref().unwrap().id(), Some("b"));
    let error = records[2].as_ref().unwrap_err();
    assert_eq!((error.line(), error.column()), (Some(6), 27));
}

/// What the fuzz loop inserts: the characters EPD gives meaning to, FEN's
/// letters, and multi-byte characters.
const ALPHABET: &str = "  \t;;\"\"\\/-_012589DcbmKQkqwehpPnré♞\u{a0}\u{1F600}";

/// Mutated real lines never panic the reader; errors point inside the
/// line, and what reads writes back to an equal record.
#[test]
fn fuzzed_lines_never_panic() {
    let mut corpus: Vec<&str> = PERFT_SUITE
        .lines()
        .chain(CHESS960_STARTS.lines().step_by(7))
        .chain(CHESS960_RANDOM.lines())
        .collect();
    corpus.extend([
        WAC_001,
        r#"4k3/8/8/8/8/8/8/4K2R w K - c0 "a; b"; am Kf1 Ke2; hmvc 7; fmvn 31; c9 "\"q\" \\";"#,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; D1 20;",
    ]);
    let alphabet: Vec<char> = ALPHABET.chars().collect();
    let mut rng = Rng::new(0xE9D_F022);
    let (mut accepted, mut rejected) = (0usize, 0usize);
    for _ in 0..300_000 {
        let mut chars: Vec<char> = corpus[rng.below(corpus.len())].chars().collect();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(chars.len() + 1);
            let c = alphabet[rng.below(alphabet.len())];
            match rng.below(3) {
                0 if at < chars.len() => {
                    chars.remove(at);
                }
                1 if at < chars.len() => chars[at] = c,
                _ => chars.insert(at, c),
            }
        }
        let line: String = chars.iter().collect();
        for relaxed in [false, true] {
            let read = |text: &str| {
                if relaxed {
                    Epd::parse_with(text, Validation::ALL_RULES.allow_impossible_check())
                } else {
                    Epd::parse(text)
                }
            };
            match read(&line) {
                Ok(epd) => {
                    accepted += 1;
                    let written = epd.to_string();
                    assert_eq!(read(&written).as_ref(), Ok(&epd), "{line:?}\n{written:?}");
                }
                Err(error) => {
                    rejected += 1;
                    assert!(
                        (1..=chars.len() + 1).contains(&error.column()),
                        "{line:?}: {error}"
                    );
                    assert!(!error.to_string().is_empty());
                }
            }
        }
    }
    // Both outcomes are common, so the loop tests both paths.
    assert!(accepted > 50_000, "{accepted} accepted");
    assert!(rejected > 50_000, "{rejected} rejected");
}

#[test]
fn an_epd_error_prints_the_fen_error_once_in_a_chain() {
    let error = "8/8/8 w - - bm e4;".parse::<bitboards::Epd>().unwrap_err();
    let message = error.to_string();
    assert!(message.contains("FEN"), "{message}");
    // No source: a chain printer adds nothing that the message holds.
    assert!(std::error::Error::source(&error).is_none(), "{message}");
}
