//! `bitboard!`: known values, constant contexts and hygiene (its compile
//! errors are pinned by trybuild in tests/macro-errors). The knight-on-g5
//! diagram is checked against `attacks::knight` in tables.rs.

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

// A cell passed to another macro keeps the line of that macro's call, not
// the line of its row: `bitboard!` must still put it in its row.
macro_rules! with_cell {
    ($c:tt) => {
        bitboard! {
            8 . . . . . . . .
            7 . . . . . . . .
            6 . . . . . . . .
            5 . . . . . . . .
            4 . . . . $c . . .
            3 . . . . . . . .
            2 . . . . . . . .
            1 . . . . . . . .
              a b c d e f g h
        }
    };
}

macro_rules! with_unlabelled_cell {
    ($c:tt) => {
        bitboard! {
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . $c . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
        }
    };
}

// The same, with the cell at either end of the diagram and the argument
// captured as an `ident` (which arrives in an invisible group).
macro_rules! with_corners {
    ($first:ident, $last:tt) => {
        bitboard! {
            $first . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . $last
        }
    };
}

const E4_FROM_A_MACRO_ARGUMENT: Bitboard = with_cell!(X);

#[test]
fn a_cell_from_a_macro_argument_lands_in_its_row() {
    assert_eq!(E4_FROM_A_MACRO_ARGUMENT, Square::E4.bitboard());
    let on_its_own_line = with_cell!(X);
    assert_eq!(on_its_own_line, Square::E4.bitboard());
    assert_eq!(with_unlabelled_cell!(X), Square::E4.bitboard());
    let unlabelled_on_its_own_line = with_unlabelled_cell!(X);
    assert_eq!(unlabelled_on_its_own_line, Square::E4.bitboard());
    assert_eq!(with_cell!(.), Bitboard::EMPTY);
    assert_eq!(
        with_corners!(X, X),
        Square::A8.bitboard() | Square::H1.bitboard()
    );
}

#[test]
fn comments_may_sit_inside_a_diagram() {
    let e4 = bitboard! {
        8 . . . . . . . .  // the back rank
        7 . . . . . . . .
        6 . . . . . . . .
        5 . . . . . . . .
        4 . . . . X . . .  /* the only set square */
        3 . . . /* a comment between cells */ . . . . .
        2 . . . . . . . .
        /* a line of its own */
        1 . . . . . . . .
          a b c d e f g h
    };
    assert_eq!(e4, Square::E4.bitboard());
}
