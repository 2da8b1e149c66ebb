//! The diagram grammar through `Display` and `FromStr`: what prints reads
//! back, and every malformed diagram is a typed error with a line and column.

mod common;

use bitboards::diagram::DiagramErrorKind;
use bitboards::{Bitboard, File, Rank, Square, bitboard};
use common::Rng;

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
    let mut rng = Rng::new(2024);
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
    let mut rng = Rng::new(99);
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
