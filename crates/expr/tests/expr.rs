//! The expression language at the function level: precedence, every
//! numbering, error spans, and a seeded loop over random garbage that must
//! never panic.

use bitboards::{Bitboard, Color, Square, attacks, masks};
use bitboards_expr::{ExprError, Numbering, evaluate};

fn eval(source: &str) -> Result<Bitboard, ExprError> {
    evaluate(source, Numbering::Lerf, || Ok(String::new()))
}

fn board(source: &str) -> Bitboard {
    eval(source).unwrap_or_else(|error| panic!("{}", error.render(source)))
}

fn error(source: &str) -> ExprError {
    match eval(source) {
        Ok(board) => panic!("`{source}` evaluated to {board:?}, expected an error"),
        Err(error) => error,
    }
}

/// The text under the error's span.
fn blamed(source: &str) -> String {
    source[error(source).span()].to_owned()
}

#[test]
fn precedence_is_rusts() {
    let (a, b, c) = (masks::FILE_A, masks::RANK_1, masks::LIGHT_SQUARES);
    // `&` binds tighter than `^`, which binds tighter than `|`.
    assert_eq!(board("file_a | rank_1 & light_squares"), a | (b & c));
    assert_eq!(board("file_a ^ rank_1 & light_squares"), a ^ (b & c));
    assert_eq!(board("file_a | rank_1 ^ light_squares"), a | (b ^ c));
    // `!` binds tightest.
    assert_eq!(board("!file_a & rank_1"), !a & b);
    assert_eq!(board("~file_a & rank_1"), !a & b);
    // `-` sits at Rust's `-` level: tighter than shifts and `&`.
    assert_eq!(
        board("file_a | rank_1 - a1"),
        a | (b - Square::A1.bitboard())
    );
    assert_eq!(board("full - rank_1 & file_a"), (Bitboard::FULL - b) & a);
    assert_eq!(
        board("rank_1 - a1 << 8"),
        Bitboard((b - Square::A1.bitboard()).0 << 8)
    );
    // Shifts bind tighter than `&`.
    assert_eq!(board("rank_1 << 8 & file_a"), Bitboard(b.0 << 8) & a);
    // Left-associative.
    assert_eq!(board("full - file_a - rank_1"), Bitboard::FULL - a - b);
    assert_eq!(board("a1 << 1 << 8"), Square::B2.bitboard());
    // `,` is the loosest union.
    assert_eq!(board("e4, d5 & rank_4"), Square::E4.bitboard());
    assert_eq!(board("(e4, d5) & rank_5"), Square::D5.bitboard());
}

#[test]
fn numbers_in_every_base() {
    let c4 = Square::C4.bitboard();
    for source in [
        "0x0000000004000000",
        "0X4000000",
        "67108864",
        "67_108_864",
        "0b100000000000000000000000000",
        "0o400000000",
    ] {
        assert_eq!(board(source), c4, "{source}");
    }
    assert_eq!(board("0xffffffffffffffff"), Bitboard::FULL);
    assert_eq!(board("18446744073709551615"), Bitboard::FULL);
}

#[test]
fn every_numbering_reads_numbers_its_own_way() {
    let read = |numbering, source| evaluate(source, numbering, || Ok(String::new())).unwrap();
    assert_eq!(
        read(Numbering::Berbef, "0x0000000004000000"),
        Square::F5.bitboard()
    );
    assert_eq!(read(Numbering::Lerbef, "0x8080808080808080"), masks::FILE_A);
    assert_eq!(read(Numbering::Berf, "0xff"), masks::RANK_8);
    assert_eq!(read(Numbering::Berbef, "1"), Square::H8.bitboard());
    // Names and functions are the true squares whatever the numbering.
    for numbering in Numbering::ALL {
        assert_eq!(read(numbering, "knight(g5)"), attacks::knight(Square::G5));
        assert_eq!(read(numbering, "file_a"), masks::FILE_A);
    }
}

#[test]
fn functions_of_sets_take_the_union_over_their_squares() {
    assert_eq!(
        board("knight(b1 | g1)"),
        attacks::knight(Square::B1) | attacks::knight(Square::G1)
    );
    assert_eq!(
        board("pawn(black, rank_7)"),
        masks::RANK_6,
        "black pawns on rank 7 attack all of rank 6"
    );
    assert_eq!(board("pawn_push(white, e2)"), Square::E3.bitboard());
    assert_eq!(
        board("rook(a1, a4)"),
        attacks::rook(Square::A1, Square::A4.bitboard())
    );
    assert_eq!(board("king(empty)"), Bitboard::EMPTY);
    assert_eq!(
        board("PAWN(White, E4)"),
        attacks::pawn(Color::White, Square::E4)
    );
}

#[test]
fn directions_and_transforms() {
    let e4 = Square::E4.bitboard();
    let cases = [
        ("north", Square::E5),
        ("south", Square::E3),
        ("east", Square::F4),
        ("west", Square::D4),
        ("north_east", Square::F5),
        ("north_west", Square::D5),
        ("south_east", Square::F3),
        ("south_west", Square::D3),
    ];
    for (function, expected) in cases {
        assert_eq!(
            board(&format!("{function}(e4)")),
            expected.bitboard(),
            "{function}"
        );
    }
    assert_eq!(board("east(file_h)"), Bitboard::EMPTY);
    assert_eq!(board("flip(e4)"), e4.flip_ranks());
    assert_eq!(board("mirror(e4)"), e4.mirror_files());
    assert_eq!(board("flip_diagonal(h1)"), Square::A8.bitboard());
    assert_eq!(board("diagonal(c1)"), masks::diagonal(Square::C1));
    assert_eq!(board("anti_diagonal(c1)"), masks::anti_diagonal(Square::C1));
}

#[test]
fn standard_input_is_read_once_and_only_when_used() {
    let mut reads = 0;
    let result = evaluate("e4", Numbering::Lerf, || {
        reads += 1;
        Ok(String::new())
    });
    assert_eq!(result, Ok(Square::E4.bitboard()));
    assert_eq!(reads, 0);
    let diagram = masks::CENTER.to_string();
    let result = evaluate("- & rank_4 | - & file_e", Numbering::Lerf, || {
        reads += 1;
        Ok(diagram.clone())
    });
    assert_eq!(result, Ok(masks::CENTER & (masks::RANK_4 | masks::FILE_E)));
    assert_eq!(reads, 1);
    let failed = evaluate("-", Numbering::Lerf, || {
        Err(std::io::Error::other("the pipe broke"))
    })
    .unwrap_err();
    assert!(
        failed.message().contains("the pipe broke"),
        "{}",
        failed.message()
    );
}

#[test]
fn errors_point_at_the_offending_token() {
    assert_eq!(blamed("knight(g5) | fil_a"), "fil_a");
    assert_eq!(blamed("e4 d5"), "d5");
    assert_eq!(blamed("0x12g4"), "g");
    assert_eq!(blamed("0b102"), "2");
    assert_eq!(blamed("0x"), "0x");
    assert_eq!(blamed("a1 << 99"), "99");
    assert_eq!(blamed("between(rank_1, h8)"), "rank_1");
    assert_eq!(blamed("rook(d4, d6, f4)"), "f4");
    assert_eq!(blamed("e4 é d5"), "é");
    assert_eq!(blamed("pawn(e4, e5)"), "e4");
    assert_eq!(blamed("(e4)) | d5"), ")");
    assert_eq!(blamed("knight(g5"), "");
    assert_eq!(error("knight(g5").span(), 9..9);
    assert_eq!(blamed("e4 - (-d5)"), "-");
}

#[test]
fn errors_say_what_was_expected() {
    let cases = [
        ("fil_a", "did you mean `file_a`?"),
        ("quen(d1)", "did you mean `queen`?"),
        ("e9", "`9` is not a rank"),
        ("(e4", "expected `)` to close the `(` at column 1"),
        (
            "rook(d4 d6)",
            "or `,` or `)` to close the `(` of `rook` at column 5",
        ),
        ("e4 |", "found the end of the expression"),
        (
            "a1 << x",
            "the shift amount after `<<`, a number from 0 to 63",
        ),
        ("0x1_0000_0000_0000_0000", "does not fit in 64 bits"),
        ("12e4", "hex numbers start with `0x`"),
        ("black", "is a colour, not a set of squares"),
        ("knight", "call it with its arguments, as in `knight(g5)`"),
        ("e4)", "there is no `(` open"),
        ("-e4", "`-` is set difference and needs a left operand"),
    ];
    for (source, expected) in cases {
        let message = error(source).message().to_owned();
        assert!(message.contains(expected), "`{source}`: {message}");
    }
}

#[test]
fn the_caret_lines_up_under_multibyte_text() {
    let source = "é | e4 | x9";
    let rendered = error(source).render(source);
    let lines: Vec<&str> = rendered.lines().collect();
    assert_eq!(lines[1], "  é | e4 | x9");
    assert_eq!(lines[2], "  ^");
    let source = "e4 |\td5 | x9";
    let rendered = error(source).render(source);
    let lines: Vec<&str> = rendered.lines().collect();
    assert_eq!(lines[1], "  e4 | d5 | x9");
    assert_eq!(lines[2], "            ^^");
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for opener in ["(", "!", "north("] {
        let source = opener.repeat(100_000) + "e4";
        let message = error(&source).message().to_owned();
        assert!(message.contains("nests more than"), "{message}");
    }
    // A long flat chain is fine: it does not nest.
    let source = vec!["e4"; 100_000].join(" | ");
    assert_eq!(board(&source), Square::E4.bitboard());
}

/// A small fixed-seed generator, so a failure reproduces.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn random_garbage_never_panics_and_every_error_has_a_valid_span() {
    // Pieces of real syntax mixed with noise, so the parser gets deep into
    // both valid and broken input.
    let pieces = [
        "e4",
        "h8",
        "i9",
        "file_a",
        "fil",
        "white",
        "black",
        "knight",
        "rook",
        "pawn",
        "between",
        "north",
        "(",
        ")",
        ",",
        "|",
        "&",
        "^",
        "!",
        "~",
        "-",
        "<<",
        ">>",
        "<",
        ">",
        "0x",
        "0xff",
        "0b1",
        "0b2",
        "12",
        "99999999999999999999999",
        "_",
        " ",
        "  ",
        "é",
        "∪",
        "\t",
        "*",
        "{",
        "\"",
        "0",
        "63",
        "64",
        "x",
    ];
    let diagram = masks::CORNERS.to_string();
    let mut random = XorShift(0x005E_ED0F_B17B_0A2D);
    let (mut oks, mut errors) = (0, 0);
    for _ in 0..20_000 {
        let length = 1 + random.next() % 12;
        let source: String = (0..length).map(|_| random.pick(&pieces)).collect();
        let numbering = Numbering::ALL[(random.next() % 4) as usize];
        let result =
            std::panic::catch_unwind(|| evaluate(&source, numbering, || Ok(diagram.clone())));
        match result {
            Err(_) => panic!("evaluate panicked on {source:?}"),
            Ok(Ok(_)) => oks += 1,
            Ok(Err(error)) => {
                errors += 1;
                let span = error.span();
                assert!(
                    span.start <= span.end && span.end <= source.len(),
                    "{source:?}: {span:?}"
                );
                assert!(source.is_char_boundary(span.start) && source.is_char_boundary(span.end));
                assert!(!error.message().is_empty());
                let rendered = error.render(&source);
                assert!(
                    rendered.starts_with("error: ") && rendered.contains('^'),
                    "{rendered}"
                );
            }
        }
    }
    // Both paths were exercised in earnest.
    assert!(oks > 500 && errors > 5_000, "{oks} ok, {errors} errors");
}

#[test]
fn random_bytes_never_panic() {
    let mut random = XorShift(0xDEAD_BEEF_CAFE_F00D);
    for _ in 0..5_000 {
        let length = (random.next() % 24) as usize;
        let bytes: Vec<u8> = (0..length).map(|_| (random.next() % 128) as u8).collect();
        let source = String::from_utf8_lossy(&bytes).into_owned();
        let result = std::panic::catch_unwind(|| eval(&source));
        assert!(result.is_ok(), "evaluate panicked on {source:?}");
    }
}
