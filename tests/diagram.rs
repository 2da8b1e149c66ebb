//! The diagram grammar through `Display` and `FromStr`: what prints reads
//! back, and every malformed diagram is a typed error with a line and column;
//! position diagrams follow the same rules with piece letters for cells.

use bitboards::diagram::{Cells, DiagramError, DiagramErrorKind, Symbol, parse, parse_cells};
use bitboards::{Bitboard, File, Position, Rank, Square, bitboard};
use bitboards_codegen::rng::SplitMix64;

fn error(text: &str) -> (DiagramErrorKind, usize, usize) {
    let error = text
        .parse::<Bitboard>()
        .expect_err("the diagram is malformed");
    (error.kind(), error.line(), error.column())
}

#[test]
fn display_draws_rank_8_on_top() {
    assert_eq!(
        Square::F5.bitboard().to_string(),
        "\
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . X . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . . . . . . . .
  a b c d e f g h"
    );
}

#[test]
fn display_then_parse_is_the_identity() {
    let mut rng = SplitMix64::new(2024);
    for _ in 0..10_000 {
        let board = Bitboard(rng.next_u64());
        assert_eq!(board.to_string().parse(), Ok(board));
        assert_eq!(format!("{board:#?}").parse(), Ok(board));
    }
    for board in [Bitboard::EMPTY, Bitboard::FULL] {
        assert_eq!(board.to_string().parse(), Ok(board));
    }
}

#[test]
fn labels_are_optional_and_cells_may_touch() {
    let labelled = Square::B7.bitboard().to_string();
    let bare = "
        ........
        .X......
        ........
        ........
        ........
        ........
        ........
        ........
    ";
    let ranks_only = "8 . . . . . . . .\n7 . X . . . . . .\n6 . . . . . . . .\n5 . . . . . . . .\n4 . . . . . . . .\n3 . . . . . . . .\n2 . . . . . . . .\n1 . . . . . . . .";
    for text in [labelled.as_str(), bare, ranks_only] {
        assert_eq!(text.parse(), Ok(Square::B7.bitboard()), "{text}");
    }
}

#[test]
fn pasted_display_output_compiles_in_the_macro() {
    // The Display output of 0x0000_0020_0000_0000 (f5), pasted verbatim.
    let pasted = bitboard! {
    8 . . . . . . . .
    7 . . . . . . . .
    6 . . . . . . . .
    5 . . . . . X . .
    4 . . . . . . . .
    3 . . . . . . . .
    2 . . . . . . . .
    1 . . . . . . . .
      a b c d e f g h
        };
    assert_eq!(pasted, Bitboard(0x0000_0020_0000_0000));
    assert_eq!(pasted.to_string().parse(), Ok(pasted));
}

const EMPTY_ROW: &str = ". . . . . . . .";

/// A bare 8-row diagram with `row` (0 = rank 8) replaced by `replacement`.
fn with_row(row: usize, replacement: &str) -> String {
    (0..8)
        .map(|i| if i == row { replacement } else { EMPTY_ROW })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn wrong_row_length_names_the_row() {
    assert_eq!(
        error(&with_row(2, ". . . . . . .")),
        (DiagramErrorKind::RowLength { found: 7 }, 3, 1)
    );
    assert_eq!(
        error(&with_row(7, "  . . . . . . . . .")),
        (DiagramErrorKind::RowLength { found: 9 }, 8, 3)
    );
}

#[test]
fn unknown_symbols_are_named_with_their_column() {
    assert_eq!(
        error(&with_row(4, ". . . o . . . .")),
        (DiagramErrorKind::UnknownSymbol('o'), 5, 7)
    );
    assert_eq!(
        error(&with_row(0, "x . . . . . . .")),
        (DiagramErrorKind::UnknownSymbol('x'), 1, 1)
    );
    let message = with_row(0, ". . * . . . . .")
        .parse::<Bitboard>()
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "line 1, column 5: unknown symbol `*`; a cell is `X` (set) or `.` (empty)"
    );
}

#[test]
fn wrong_labels_are_errors() {
    let mut text = Bitboard::EMPTY.to_string().replacen("6 ", "5 ", 1);
    assert_eq!(
        error(&text),
        (
            DiagramErrorKind::RankLabel {
                found: '5',
                expected: Rank::Sixth
            },
            3,
            1
        )
    );
    text = Bitboard::EMPTY
        .to_string()
        .replace("a b c d e f g h", "a b c d e f g g");
    assert_eq!(
        error(&text),
        (
            DiagramErrorKind::FileLabel {
                found: 'g',
                expected: Some(File::H)
            },
            9,
            17
        )
    );
    text = Bitboard::EMPTY
        .to_string()
        .replace("a b c d e f g h", "a b c d e f g h i");
    assert_eq!(
        error(&text),
        (
            DiagramErrorKind::FileLabel {
                found: 'i',
                expected: None
            },
            9,
            19
        )
    );
    text = Bitboard::EMPTY
        .to_string()
        .replace("a b c d e f g h", "a b c");
    assert_eq!(
        error(&text),
        (DiagramErrorKind::MissingFileLabels { found: 3 }, 9, 3)
    );
    text = Bitboard::EMPTY.to_string().replacen("4 ", "", 1);
    assert_eq!(
        error(&text),
        (
            DiagramErrorKind::MissingRankLabel {
                expected: Rank::Fourth
            },
            5,
            1
        )
    );
    text = with_row(3, "4 . . . . . . . .");
    assert_eq!(
        error(&text),
        (DiagramErrorKind::UnexpectedRankLabel('4'), 4, 1)
    );
}

#[test]
fn wrong_row_counts_are_errors() {
    assert_eq!(error(""), (DiagramErrorKind::TooFewRows { found: 0 }, 1, 1));
    let seven = [EMPTY_ROW; 7].join("\n");
    assert_eq!(
        error(&seven),
        (DiagramErrorKind::TooFewRows { found: 7 }, 7, 16)
    );
    let nine = [EMPTY_ROW; 9].join("\n");
    assert_eq!(error(&nine), (DiagramErrorKind::TooManyRows, 9, 1));
    let after_labels = format!("{}\n{EMPTY_ROW}", Bitboard::EMPTY);
    assert_eq!(
        error(&after_labels),
        (DiagramErrorKind::RowAfterFileLabels, 10, 1)
    );
}

#[test]
fn garbage_never_panics() {
    let mut rng = SplitMix64::new(99);
    let alphabet: Vec<char> = "X. \n12345678abcdefghxo9é".chars().collect();
    for _ in 0..20_000 {
        let length = (rng.next_u64() % 200) as usize;
        let text: String = (0..length)
            .map(|_| alphabet[(rng.next_u64() % alphabet.len() as u64) as usize])
            .collect();
        if let Err(error) = text.parse::<Bitboard>() {
            assert!(
                error.line() >= 1 && error.column() >= 1,
                "{text:?}: {error}"
            );
            assert!(!error.to_string().is_empty());
        }
    }
}

fn message(text: &str) -> String {
    text.parse::<Bitboard>()
        .expect_err("the diagram is malformed")
        .to_string()
}

#[test]
fn a_typo_at_the_start_of_a_row_is_an_unknown_symbol() {
    let text = format!(
        "{}e.......\n{}",
        "........\n".repeat(3),
        "........\n".repeat(4)
    );
    assert_eq!(error(&text), (DiagramErrorKind::UnknownSymbol('e'), 4, 1));
    let mut errors = Vec::new();
    let symbols = text.lines().enumerate().flat_map(|(line, row)| {
        row.chars().enumerate().map(move |(column, char)| Symbol {
            char,
            line,
            at: (line, column),
        })
    });
    assert_eq!(
        parse(symbols, (8, 0), |error| errors.push(error.kind)),
        None
    );
    assert_eq!(errors, [DiagramErrorKind::UnknownSymbol('e')]);
}

#[test]
fn file_labels_before_the_eighth_row_are_misplaced() {
    // A complete label row is taken for one wherever it stands.
    let text = with_row(7, "a b c d e f g h\n. . . . . . . .");
    assert_eq!(error(&text), (DiagramErrorKind::RowAfterFileLabels, 9, 1));
}

#[test]
fn a_second_file_label_row_is_an_error() {
    let text = format!("{}abcdefgh\nabcdefgh", "........\n".repeat(8));
    assert_eq!(error(&text), (DiagramErrorKind::RepeatedFileLabels, 10, 1));
    let labelled = format!("{}\n  a b c d e f g h", Bitboard::EMPTY);
    assert_eq!(
        message(&labelled),
        "line 10, column 3: a second row of file labels; the diagram has one, under the eighth row"
    );
}

#[test]
fn counts_of_one_are_singular() {
    assert_eq!(
        message(EMPTY_ROW),
        "line 1, column 16: the diagram has 1 row; it needs 8, one per rank, 8 down to 1"
    );
    assert_eq!(
        message(&with_row(0, ".")),
        "line 1, column 1: this row has 1 cell; a row has 8, files a to h"
    );
    assert_eq!(
        message(&format!("{}\na", [EMPTY_ROW; 8].join("\n"))),
        "line 9, column 1: the file-label row has 1 label; it reads `a b c d e f g h`"
    );
    assert_eq!(
        message(&with_row(0, ". .")),
        "line 1, column 1: this row has 2 cells; a row has 8, files a to h"
    );
}

#[test]
fn invisible_and_look_alike_characters_are_named_by_code_point() {
    let cases = [
        (
            '\u{200B}',
            "unknown symbol U+200B (invisible); a cell is `X` (set) or `.` (empty)",
        ),
        (
            '\u{FEFF}',
            "unknown symbol U+FEFF (a byte order mark, invisible); a cell is `X` (set) or `.` (empty)",
        ),
        (
            '\u{0425}',
            "unknown symbol `\u{0425}` (U+0425), which looks like `X` but is not; a cell is `X` (set) or `.` (empty)",
        ),
        (
            '\u{0445}',
            "unknown symbol `\u{0445}` (U+0445), which looks like `X` but is not; a cell is `X` (set) or `.` (empty)",
        ),
        (
            '\u{03A7}',
            "unknown symbol `\u{03A7}` (U+03A7), which looks like `X` but is not; a cell is `X` (set) or `.` (empty)",
        ),
        (
            '\u{00D7}',
            "unknown symbol `\u{00D7}` (U+00D7), which looks like `X` but is not; a cell is `X` (set) or `.` (empty)",
        ),
        (
            '\u{FF38}',
            "unknown symbol `\u{FF38}` (U+FF38), which looks like `X` but is not; a cell is `X` (set) or `.` (empty)",
        ),
        (
            '\u{00B7}',
            "unknown symbol `\u{00B7}` (U+00B7), which looks like `.` but is not; a cell is `X` (set) or `.` (empty)",
        ),
        (
            '\u{2024}',
            "unknown symbol `\u{2024}` (U+2024), which looks like `.` but is not; a cell is `X` (set) or `.` (empty)",
        ),
        (
            '\u{FF0E}',
            "unknown symbol `\u{FF0E}` (U+FF0E), which looks like `.` but is not; a cell is `X` (set) or `.` (empty)",
        ),
        (
            'x',
            "unknown symbol `x` (did you mean `X`?); a cell is `X` (set) or `.` (empty)",
        ),
        (
            '\u{00E9}',
            "unknown symbol `\u{00E9}` (U+00E9); a cell is `X` (set) or `.` (empty)",
        ),
        (
            'o',
            "unknown symbol `o`; a cell is `X` (set) or `.` (empty)",
        ),
    ];
    for (symbol, expected) in cases {
        let text = with_row(2, &format!(". . {symbol} . . . . ."));
        assert_eq!(
            error(&text),
            (DiagramErrorKind::UnknownSymbol(symbol), 3, 5),
            "{symbol:?}"
        );
        assert_eq!(message(&text), format!("line 3, column 5: {expected}"));
    }
    // A byte order mark at the very start is not skipped either.
    let text = format!("\u{FEFF}{}", Bitboard::EMPTY);
    assert_eq!(
        error(&text),
        (DiagramErrorKind::UnknownSymbol('\u{FEFF}'), 1, 1)
    );
    // In a label, the character is shown the same way.
    let text = Bitboard::EMPTY.to_string().replace("d e f", "d \u{0435} f");
    assert_eq!(
        message(&text),
        "line 9, column 11: file label `\u{0435}` (U+0435) is wrong; expected `e` (the row reads `a b c d e f g h`)"
    );
}

#[test]
fn a_row_split_over_lines_is_one_row_when_it_fits() {
    // What the macro needs for a cell whose line is not its row's.
    let split = with_row(4, ". . . .\n. . . .");
    assert_eq!(split.parse(), Ok(Bitboard::EMPTY));
    let moved = with_row(4, ". . . .\n\n\nX\n. . .");
    assert_eq!(moved.parse(), Ok(Square::E4.bitboard()));
    // A short row followed by a full one is short; the next row is not
    // pulled up into it.
    assert_eq!(
        error(&with_row(4, ". . . . . . .\n. . . . . . . .")),
        (DiagramErrorKind::RowLength { found: 7 }, 5, 1)
    );
    // A rank label always starts a row.
    let labelled = Bitboard::EMPTY
        .to_string()
        .replace("4 . . . . . . . .", "4 . . . .");
    assert_eq!(
        error(&labelled),
        (DiagramErrorKind::RowLength { found: 4 }, 5, 1)
    );
}

#[test]
fn width_fill_and_alignment_apply_to_each_line() {
    let board = Square::E4.bitboard();
    let plain = board.to_string();
    let each_line =
        |pad: &dyn Fn(&str) -> String| plain.lines().map(pad).collect::<Vec<_>>().join("\n");
    assert_eq!(
        format!("{board:>24}"),
        each_line(&|line| format!("{line:>24}"))
    );
    assert_eq!(
        format!("{board:<20}"),
        each_line(&|line| format!("{line:<20}"))
    );
    assert_eq!(
        format!("{board:20}"),
        each_line(&|line| format!("{line:20}"))
    );
    assert_eq!(
        format!("{board:*^22}"),
        each_line(&|line| format!("{line:*^22}"))
    );
    assert!(format!("{board:>24}").lines().all(|line| line.len() == 24));
    // Narrower than a line, and precision, change nothing.
    assert_eq!(format!("{board:>5}"), plain);
    assert_eq!(format!("{board:.3}"), plain);
    // Indented output still reads back; `{:#?}` pads the same way.
    assert_eq!(format!("{board:>24}").parse(), Ok(board));
    assert_eq!(format!("{board:>#24?}"), format!("{board:>24}"));
    assert_eq!(format!("{board:#?}"), plain);
}

/// The symbols of a text diagram, each at its 1-based line and column.
fn symbols(text: &str) -> Vec<Symbol<(usize, usize)>> {
    let mut symbols = Vec::new();
    for (line, content) in text.lines().enumerate() {
        for (column, char) in content.chars().enumerate() {
            if !char.is_whitespace() {
                let at = (line + 1, column + 1);
                symbols.push(Symbol { char, line, at });
            }
        }
    }
    symbols
}

/// A diagram's problems, read with `cells`.
fn cell_errors(text: &str, cells: Cells) -> Vec<DiagramError<(usize, usize)>> {
    let mut errors = Vec::new();
    let board = parse_cells(symbols(text), cells, (0, 0), |error| errors.push(error));
    assert_eq!(board.is_none(), !errors.is_empty());
    errors
}

#[test]
fn a_position_diagram_reads_back_from_position_display() {
    let kiwipete =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    for position in [Position::START, kiwipete] {
        // The diagram, without the FEN line `Display` ends with.
        let text = position.to_string();
        let diagram = text.rsplit_once('\n').unwrap().0;
        let board = parse_cells(symbols(diagram), Cells::Pieces, (0, 0), |error| {
            panic!("{error:?}")
        })
        .unwrap();
        for square in Square::ALL {
            let written = board[square.index()].map(|cell| cell.char);
            assert_eq!(
                written,
                position.piece_on(square).map(|p| p.to_char()),
                "{square}"
            );
        }
        // Each cell knows where it was written: e1 is on line 8, column 11.
        assert_eq!(board[Square::E1.index()].unwrap().at, (8, 11));
    }
}

#[test]
fn both_kinds_of_diagram_share_labels_rows_and_their_messages() {
    let pieces = Position::START.to_string();
    let pieces = pieces.rsplit_once('\n').unwrap().0;
    let bits = Bitboard(0xFFFF_0000_0000_FFFF).to_string();
    for (text, cells) in [(pieces, Cells::Pieces), (bits.as_str(), Cells::Bits)] {
        let misordered = text.replacen("6 ", "5 ", 1);
        let errors = cell_errors(&misordered, cells);
        let expected = DiagramErrorKind::RankLabel {
            found: '5',
            expected: Rank::Sixth,
        };
        assert_eq!(
            errors.iter().map(|e| e.kind).collect::<Vec<_>>(),
            [expected]
        );
        assert_eq!(errors[0].start, (3, 1));

        let short = text.replacen(" . . . . . . . .", " . . . . . . .", 1);
        let errors = cell_errors(&short, cells);
        assert_eq!(errors[0].kind, DiagramErrorKind::RowLength { found: 7 });
        assert_eq!((errors[0].start, errors[0].end), ((3, 1), (3, 15)));

        let no_files = text.rsplit_once('\n').unwrap().0;
        assert!(cell_errors(no_files, cells).is_empty());
    }
}

#[test]
fn each_kind_knows_its_own_cells() {
    let with = |cell: &str| with_row(4, &format!(". . . . {cell} . . ."));
    // A piece letter is unknown in a bitboard, `X` in a position.
    assert_eq!(
        cell_errors(&with("k"), Cells::Bits)[0].kind,
        DiagramErrorKind::UnknownSymbol('k')
    );
    assert_eq!(
        cell_errors(&with("X"), Cells::Pieces)[0].kind,
        DiagramErrorKind::UnknownPiece('X')
    );
    for letter in "PNBRQKpnbrqk".chars() {
        assert!(cell_errors(&with(&letter.to_string()), Cells::Pieces).is_empty());
        assert!(Cells::Pieces.is_occupied(letter));
        assert!(!Cells::Bits.is_occupied(letter));
    }
    // The hints fit the kind: a dot's look-alike in both, a FEN count in a
    // position.
    let middle_dot = DiagramErrorKind::UnknownPiece('\u{00B7}').to_string();
    assert!(middle_dot.contains("looks like `.`"), "{middle_dot}");
    let count = DiagramErrorKind::UnknownPiece('3').to_string();
    assert!(count.contains("each empty square as `.`"), "{count}");
    let cross = DiagramErrorKind::UnknownPiece('x').to_string();
    assert!(!cross.contains("did you mean"), "{cross}");
}

#[test]
fn numbers_read_as_well_as_diagrams() {
    let e4 = Square::E4.bitboard();
    for text in [
        "0x10000000",
        "0X1000_0000",
        "268435456",
        "0b1_0000_0000_0000_0000_0000_0000_0000",
        "0o2000000000",
        "  0x10000000\n",
    ] {
        assert_eq!(text.parse::<Bitboard>(), Ok(e4), "{text:?}");
    }
    assert_eq!("0x10".parse::<Bitboard>(), Ok(Square::E1.bitboard()));
    assert_eq!("0".parse::<Bitboard>(), Ok(Bitboard::EMPTY));
    assert_eq!("0xffffffffffffffff".parse::<Bitboard>(), Ok(Bitboard::FULL));
    assert_eq!(u64::MAX.to_string().parse::<Bitboard>(), Ok(Bitboard::FULL));
    // A diagram still reads, and so does what `{:x}` prints after `0x`.
    assert_eq!(e4.to_string().parse::<Bitboard>(), Ok(e4));
    assert_eq!(format!("{e4:#x}").parse::<Bitboard>(), Ok(e4));
}

#[test]
fn a_malformed_number_says_what_a_bitboard_reads() {
    assert_eq!(
        error("0xZZ"),
        (
            DiagramErrorKind::NumberDigit {
                found: 'Z',
                radix: 16
            },
            1,
            3
        )
    );
    assert_eq!(
        message("0xZZ"),
        "line 1, column 3: `Z` is not a hex digit; a bitboard is read from a diagram, \
         or from a number in hex (`0x10`), binary (`0b1_0000`), octal (`0o20`) or decimal (`16`)"
    );
    assert_eq!(
        error("\n  12a"),
        (
            DiagramErrorKind::NumberDigit {
                found: 'a',
                radix: 10
            },
            2,
            5
        )
    );
    assert_eq!(error("0x"), (DiagramErrorKind::NumberWithoutDigits, 1, 1));
    assert_eq!(
        message("0x"),
        "line 1, column 1: the number has no digits after its prefix"
    );
    assert_eq!(
        error("0x1_0000_0000_0000_0000"),
        (DiagramErrorKind::NumberTooLarge, 1, 1)
    );
    assert_eq!(
        message("18446744073709551616"),
        "line 1, column 1: the number does not fit in 64 bits"
    );
}
