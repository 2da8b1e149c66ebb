//! `bitboard!`: known values, constant contexts, hygiene, and the compile
//! errors pinned by trybuild (tests/ui/*.rs and their .stderr files). The
//! knight-on-g5 diagram is checked against `attacks::knight` in tables.rs.

use bitboards::{Bitboard, File, Square, bitboard};

#[test]
fn known_values() {
    let f5 = bitboard! {
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
    assert_eq!(f5, Bitboard(0x0000_0020_0000_0000));
    assert_eq!(f5, Square::F5.bitboard());
    let file_a = bitboard! {
        X . . . . . . .
        X . . . . . . .
        X . . . . . . .
        X . . . . . . .
        X . . . . . . .
        X . . . . . . .
        X . . . . . . .
        X . . . . . . .
    };
    assert_eq!(file_a, Bitboard(0x0101_0101_0101_0101));
    assert_eq!(file_a, File::A.bitboard());
}

#[test]
fn the_twelve_initial_piece_boards() {
    let white_pawns = bitboard! {
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        X X X X X X X X
        . . . . . . . .
    };
    let white_knights = bitboard! {
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . X . . . . X .
    };
    let white_bishops = bitboard! {
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . X . . X . .
    };
    let white_rooks = bitboard! {
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        X . . . . . . X
    };
    let white_queen = bitboard! {
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . X . . . .
    };
    let white_king = bitboard! {
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . X . . .
    };
    let black_pawns = bitboard! {
        . . . . . . . .
        X X X X X X X X
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    };
    let black_knights = bitboard! {
        . X . . . . X .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    };
    let black_bishops = bitboard! {
        . . X . . X . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    };
    let black_rooks = bitboard! {
        X . . . . . . X
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    };
    let black_queen = bitboard! {
        . . . X . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    };
    let black_king = bitboard! {
        . . . . X . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    };
    let boards = [
        (white_pawns, 0x0000_0000_0000_FF00),
        (white_knights, 0x0000_0000_0000_0042),
        (white_bishops, 0x0000_0000_0000_0024),
        (white_rooks, 0x0000_0000_0000_0081),
        (white_queen, 0x0000_0000_0000_0008),
        (white_king, 0x0000_0000_0000_0010),
        (black_pawns, 0x00FF_0000_0000_0000),
        (black_knights, 0x4200_0000_0000_0000),
        (black_bishops, 0x2400_0000_0000_0000),
        (black_rooks, 0x8100_0000_0000_0000),
        (black_queen, 0x0800_0000_0000_0000),
        (black_king, 0x1000_0000_0000_0000),
    ];
    for (i, (board, hex)) in boards.iter().enumerate() {
        assert_eq!(*board, Bitboard(*hex), "piece board {i}");
    }
    let all = boards.iter().fold(Bitboard::EMPTY, |acc, (b, _)| acc | *b);
    assert_eq!(all, Bitboard(0xFFFF_0000_0000_FFFF));
}

const CORNERS: Bitboard = bitboard! {
    X . . . . . . X
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    X . . . . . . X
};

static LONG_DIAGONAL: Bitboard = bitboard! {
    . . . . . . . X
    . . . . . . X .
    . . . . . X . .
    . . . . X . . .
    . . . X . . . .
    . . X . . . . .
    . X . . . . . .
    X . . . . . . .
};

#[test]
fn usable_in_const_static_and_match() {
    assert_eq!(CORNERS, bitboards::masks::CORNERS);
    assert_eq!(LONG_DIAGONAL, bitboards::masks::diagonal(Square::A1));
    let describe = |board: Bitboard| match board {
        CORNERS => "corners",
        bitboard! {
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . X X . . .
            . . . X X . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
        } => "center",
        _ => "other",
    };
    assert_eq!(describe(bitboards::masks::CORNERS), "corners");
    assert_eq!(describe(bitboards::masks::CENTER), "center");
    assert_eq!(describe(Bitboard::FULL), "other");
}

#[test]
fn compile_errors_point_at_the_bad_token() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
