//! Serde: names and hex in readable formats, integers in binary ones, both
//! read back, and bad input an error rather than a panic.
#![cfg(feature = "serde")]

use bitboards::{Bitboard, Color, File, Rank, Square};
use serde_test::{Configure, Token, assert_de_tokens, assert_de_tokens_error, assert_tokens};

#[test]
fn squares_are_names_when_readable_and_indices_when_compact() {
    for square in Square::ALL {
        assert_tokens(&square.readable(), &[Token::Str(square.name())]);
        assert_tokens(&square.compact(), &[Token::U8(square.index() as u8)]);
    }
    assert_tokens(&Square::E4.readable(), &[Token::Str("e4")]);
    assert_tokens(&Square::E4.compact(), &[Token::U8(28)]);
}

#[test]
fn files_ranks_and_colors_round_trip_in_both_modes() {
    let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
    for (file, name) in File::ALL.into_iter().zip(names) {
        assert_tokens(&file.readable(), &[Token::Str(name)]);
        assert_tokens(&file.compact(), &[Token::U8(file.index() as u8)]);
    }
    let digits = ["1", "2", "3", "4", "5", "6", "7", "8"];
    for (rank, digit) in Rank::ALL.into_iter().zip(digits) {
        assert_tokens(&rank.readable(), &[Token::Str(digit)]);
        assert_tokens(&rank.compact(), &[Token::U8(rank.index() as u8)]);
    }
    assert_tokens(&Color::White.readable(), &[Token::Str("white")]);
    assert_tokens(&Color::Black.readable(), &[Token::Str("black")]);
    assert_tokens(&Color::White.compact(), &[Token::U8(0)]);
    assert_tokens(&Color::Black.compact(), &[Token::U8(1)]);
    // The FEN letters are read too (and a char where a format has one).
    assert_de_tokens(&Color::Black.readable(), &[Token::Str("b")]);
    assert_de_tokens(&Color::White.readable(), &[Token::Char('w')]);
    assert_de_tokens(&File::E.readable(), &[Token::Char('e')]);
}

#[test]
fn bitboards_are_hex_when_readable_and_u64_when_compact() {
    let board = Square::E4.bitboard();
    assert_tokens(&board.readable(), &[Token::Str("0x0000000010000000")]);
    assert_tokens(&board.compact(), &[Token::U64(0x1000_0000)]);
    assert_tokens(
        &Bitboard::FULL.readable(),
        &[Token::Str("0xffffffffffffffff")],
    );
    assert_tokens(
        &Bitboard::EMPTY.readable(),
        &[Token::Str("0x0000000000000000")],
    );
    // Also read: a plain integer, short or upper-case hex.
    assert_de_tokens(&board.readable(), &[Token::U64(0x1000_0000)]);
    assert_de_tokens(&board.readable(), &[Token::Str("0x10000000")]);
    assert_de_tokens(&Bitboard(0xABCD).readable(), &[Token::Str("0XABCD")]);
}

#[test]
fn json_round_trips_every_square_and_random_boards() {
    for square in Square::ALL {
        let json = serde_json::to_string(&square).unwrap();
        assert_eq!(json, format!("\"{square}\""));
        assert_eq!(serde_json::from_str::<Square>(&json).unwrap(), square);
    }
    let mut bits = 0x0123_4567_89AB_CDEFu64;
    for _ in 0..100 {
        bits = bits.rotate_left(7).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let board = Bitboard(bits);
        let json = serde_json::to_string(&board).unwrap();
        assert_eq!(json, format!("\"{bits:#018x}\""));
        assert_eq!(serde_json::from_str::<Bitboard>(&json).unwrap(), board);
        assert_eq!(
            serde_json::from_str::<Bitboard>(&bits.to_string()).unwrap(),
            board
        );
    }
    let value = (Square::G1, File::C, Rank::Eighth, Color::Black);
    let json = serde_json::to_string(&value).unwrap();
    assert_eq!(json, r#"["g1","c","8","black"]"#);
    assert_eq!(
        serde_json::from_str::<(Square, File, Rank, Color)>(&json).unwrap(),
        value
    );
}

#[test]
fn bad_names_are_errors_that_say_what_was_expected() {
    assert_de_tokens_error::<serde_test::Readable<Square>>(
        &[Token::Str("i9")],
        r#"invalid value: string "i9", expected a square name such as "e4""#,
    );
    assert_de_tokens_error::<serde_test::Readable<File>>(
        &[Token::Str("E")],
        r#"invalid value: string "E", expected a file letter from "a" to "h""#,
    );
    assert_de_tokens_error::<serde_test::Readable<Rank>>(
        &[Token::Str("9")],
        r#"invalid value: string "9", expected a rank digit from "1" to "8""#,
    );
    assert_de_tokens_error::<serde_test::Readable<Color>>(
        &[Token::Str("blue")],
        r#"invalid value: string "blue", expected a colour: "white", "black", "w" or "b""#,
    );
    for json in [r#""i9""#, r#""""#, r#""e44""#, "28", "null"] {
        assert!(serde_json::from_str::<Square>(json).is_err(), "{json}");
    }
}

#[test]
fn out_of_range_indices_are_errors() {
    assert_de_tokens_error::<serde_test::Compact<Square>>(
        &[Token::U8(64)],
        "invalid value: integer `64`, expected a square index from 0 to 63",
    );
    assert_de_tokens_error::<serde_test::Compact<Square>>(
        &[Token::U64(300)],
        "invalid value: integer `300`, expected a square index from 0 to 63",
    );
    assert_de_tokens_error::<serde_test::Compact<Square>>(
        &[Token::I32(-1)],
        "invalid value: integer `-1`, expected a square index from 0 to 63",
    );
    assert_de_tokens_error::<serde_test::Compact<File>>(
        &[Token::U8(8)],
        "invalid value: integer `8`, expected a file index from 0 to 7",
    );
    assert_de_tokens_error::<serde_test::Compact<Rank>>(
        &[Token::U8(8)],
        "invalid value: integer `8`, expected a rank index from 0 to 7",
    );
    assert_de_tokens_error::<serde_test::Compact<Color>>(
        &[Token::U8(2)],
        "invalid value: integer `2`, expected a colour index, 0 (white) or 1 (black)",
    );
    // Truncation would make 284 into 28, e4.
    assert_de_tokens_error::<serde_test::Compact<Square>>(
        &[Token::U16(284)],
        "invalid value: integer `284`, expected a square index from 0 to 63",
    );
}

#[test]
fn bad_hex_and_negative_boards_are_errors() {
    let expected = "a bitboard: a hex string \"0x\" and 1 to 16 digits, or an unsigned integer";
    for text in [
        "0xZZ",
        "0x",
        "ff",
        "0x00000000000000001",
        "0x+1",
        "0x-1",
        "0x1_0",
        " 0x10",
        "",
        "0x１",
    ] {
        assert_de_tokens_error::<serde_test::Readable<Bitboard>>(
            &[Token::Str(text)],
            &format!("invalid value: string {text:?}, expected {expected}"),
        );
    }
    assert_de_tokens_error::<serde_test::Readable<Bitboard>>(
        &[Token::I64(-1)],
        &format!("invalid value: integer `-1`, expected {expected}"),
    );
    for json in [r#""0xZZ""#, "-1", "1.5", "true", "18446744073709551616"] {
        assert!(serde_json::from_str::<Bitboard>(json).is_err(), "{json}");
    }
}
