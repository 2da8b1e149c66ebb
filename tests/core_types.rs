//! Square, File, Rank, Color and Bitboard: construction, bad input, set
//! operations, shifts, flips, iteration and formatting.

mod common;

use bitboards::{Bitboard, Color, File, ParseSquareError, Rank, Square, bitboard};
use common::Rng;

/// The square `(df, dr)` away from `square`, by coordinates, if on the board.
fn offset(square: Square, df: i32, dr: i32) -> Option<Square> {
    let file = square.file().index() as i32 + df;
    let rank = square.rank().index() as i32 + dr;
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Square::new((rank * 8 + file) as u8)
    } else {
        None
    }
}

#[test]
fn squares_are_numbered_little_endian_rank_file() {
    for (index, square) in Square::ALL.into_iter().enumerate() {
        assert_eq!(square.index(), index);
        assert_eq!(Square::new(index as u8), Some(square));
        assert_eq!(square.file().index(), index % 8);
        assert_eq!(square.rank().index(), index / 8);
        assert_eq!(Square::from_file_rank(square.file(), square.rank()), square);
        assert_eq!(square.bitboard(), Bitboard(1 << index));
    }
    assert_eq!(Square::A1.index(), 0);
    assert_eq!(Square::H1.index(), 7);
    assert_eq!(Square::A2.index(), 8);
    assert_eq!(Square::H8.index(), 63);
}

#[test]
fn out_of_range_indices_are_none() {
    for index in 64..=u8::MAX {
        assert_eq!(Square::new(index), None);
    }
    assert_eq!(File::new(8), None);
    assert_eq!(Rank::new(8), None);
}

#[test]
fn square_names_round_trip_and_bad_names_are_typed_errors() {
    for square in Square::ALL {
        assert_eq!(square.to_string().parse(), Ok(square));
    }
    assert_eq!("e4".parse(), Ok(Square::E4));
    assert_eq!("i9".parse::<Square>(), Err(ParseSquareError::BadFile('i')));
    assert_eq!("a9".parse::<Square>(), Err(ParseSquareError::BadRank('9')));
    assert_eq!("a0".parse::<Square>(), Err(ParseSquareError::BadRank('0')));
    assert_eq!("E4".parse::<Square>(), Err(ParseSquareError::BadFile('E')));
    assert_eq!("".parse::<Square>(), Err(ParseSquareError::BadLength(0)));
    assert_eq!("e44".parse::<Square>(), Err(ParseSquareError::BadLength(3)));
    assert_eq!("é4".parse::<Square>(), Err(ParseSquareError::BadFile('é')));
    assert_eq!(
        "i9".parse::<Square>().unwrap_err().to_string(),
        "`i` is not a file; expected a letter from `a` to `h`"
    );
    assert_eq!(format!("{:>4}", Square::C7), "  c7");
}

#[test]
fn colors_alternate() {
    assert_eq!(!Color::White, Color::Black);
    assert_eq!(!!Color::Black, Color::Black);
    assert_eq!(Color::ALL.map(Color::index), [0, 1]);
    assert_eq!(Color::White.to_string(), "white");
}

#[test]
fn set_operations() {
    let a = bitboard! {
        X X X X . . . .
        X X X X . . . .
        X X X X . . . .
        X X X X . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    };
    let b = bitboard! {
        . . . . . . . .
        . . . . . . . .
        X X X X X X X X
        X X X X X X X X
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    };
    assert_eq!((a & b).count(), 8);
    assert_eq!((a | b).count(), 24);
    assert_eq!((a ^ b).count(), 16);
    assert_eq!((a - b).count(), 8);
    assert_eq!(a - b, a & !b);
    assert_eq!((!a).count(), 48);
    assert_eq!(a.intersection(b), a & b);
    assert_eq!(a.union(b), a | b);
    assert_eq!(a.difference(b), a - b);
    assert_eq!(a.complement(), !a);
    let mut c = a;
    c &= b;
    assert_eq!(c, a & b);
    c = a;
    c |= b;
    assert_eq!(c, a | b);
    c = a;
    c ^= b;
    assert_eq!(c, a ^ b);
    c = a;
    c -= b;
    assert_eq!(c, a - b);
}

#[test]
fn set_clear_toggle_contains() {
    let mut board = Bitboard::EMPTY;
    for square in Square::ALL {
        assert!(!board.contains(square));
        board.set(square);
        assert!(board.contains(square));
        board.set(square);
        assert_eq!(board.count(), square.index() as u32 + 1);
    }
    assert_eq!(board, Bitboard::FULL);
    board.clear(Square::D4);
    assert!(!board.contains(Square::D4));
    board.toggle(Square::D4);
    board.toggle(Square::E5);
    assert_eq!(board, !Square::E5.bitboard());
}

#[test]
fn empty_boards_answer_none_not_garbage() {
    let mut empty = Bitboard::EMPTY;
    assert_eq!(empty.first(), None);
    assert_eq!(empty.last(), None);
    assert_eq!(empty.pop(), None);
    assert_eq!(empty.iter().next(), None);
    assert_eq!(empty.iter().next_back(), None);
    assert!(!empty.has_more_than_one());
    assert_eq!(Bitboard::FULL.first(), Some(Square::A1));
    assert_eq!(Bitboard::FULL.last(), Some(Square::H8));
}

#[test]
fn shifts_never_wrap_around_an_edge() {
    type Step = fn(Bitboard) -> Bitboard;
    let steps: [(Step, i32, i32); 8] = [
        (Bitboard::north, 0, 1),
        (Bitboard::north_east, 1, 1),
        (Bitboard::east, 1, 0),
        (Bitboard::south_east, 1, -1),
        (Bitboard::south, 0, -1),
        (Bitboard::south_west, -1, -1),
        (Bitboard::west, -1, 0),
        (Bitboard::north_west, -1, 1),
    ];
    for square in Square::ALL {
        for (step, df, dr) in steps {
            let expected = offset(square, df, dr).map_or(Bitboard::EMPTY, Square::bitboard);
            assert_eq!(
                step(square.bitboard()),
                expected,
                "step ({df}, {dr}) from {square}"
            );
        }
    }
    // Shifts act square by square, so a whole board moves as its squares do.
    let mut rng = Rng::new(7);
    for _ in 0..1000 {
        let board = Bitboard(rng.next_u64());
        for (step, _, _) in steps {
            let by_squares = board
                .iter()
                .fold(Bitboard::EMPTY, |acc, s| acc | step(s.bitboard()));
            assert_eq!(step(board), by_squares);
        }
    }
}

#[test]
fn flips_and_mirrors_move_every_square_to_its_image() {
    let mut rng = Rng::new(11);
    let boards: Vec<Bitboard> = (0..1000).map(|_| Bitboard(rng.next_u64())).collect();
    for board in boards
        .iter()
        .copied()
        .chain(Square::ALL.map(Square::bitboard))
    {
        let image = |map: fn(File, Rank) -> Square| -> Bitboard {
            board.iter().map(|s| map(s.file(), s.rank())).collect()
        };
        assert_eq!(
            board.flip_ranks(),
            image(|f, r| Square::from_file_rank(f, Rank::ALL[7 - r.index()]))
        );
        assert_eq!(
            board.mirror_files(),
            image(|f, r| Square::from_file_rank(File::ALL[7 - f.index()], r))
        );
        assert_eq!(
            board.flip_diagonal(),
            image(|f, r| Square::from_file_rank(File::ALL[r.index()], Rank::ALL[f.index()]))
        );
        assert_eq!(board.flip_ranks().flip_ranks(), board);
        assert_eq!(board.mirror_files().mirror_files(), board);
        assert_eq!(board.flip_diagonal().flip_diagonal(), board);
    }
}

#[test]
fn iteration_is_exact_size_and_double_ended() {
    let board = bitboard! {
        X . . . . . . X
        . . . . . . . .
        . . . . . . . .
        . . . X . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        X . . . . . . X
    };
    let forward: Vec<Square> = board.into_iter().collect();
    assert_eq!(
        forward,
        [Square::A1, Square::H1, Square::D5, Square::A8, Square::H8]
    );
    let backward: Vec<Square> = board.iter().rev().collect();
    assert_eq!(
        backward,
        [Square::H8, Square::A8, Square::D5, Square::H1, Square::A1]
    );
    let mut squares = board.iter();
    assert_eq!(squares.len(), 5);
    squares.next();
    squares.next_back();
    assert_eq!(squares.len(), 3);
    assert_eq!(
        squares.collect::<Bitboard>(),
        Square::H1.bitboard() | Square::D5.bitboard() | Square::A8.bitboard()
    );
    let mut extended = Bitboard::EMPTY;
    extended.extend(board);
    assert_eq!(extended, board);
    assert_eq!(Bitboard::from(Square::C3), Square::C3.bitboard());
    assert_eq!(u64::from(board), board.0);
}

#[test]
fn number_formats_delegate_to_the_word() {
    let board = Bitboard(0x0000_0020_0000_00FF);
    assert_eq!(format!("{board:?}"), "Bitboard(0x00000020000000ff)");
    assert_eq!(format!("{board:x}"), "20000000ff");
    assert_eq!(format!("{board:#X}"), "0x20000000FF");
    assert_eq!(format!("{board:#018x}"), "0x00000020000000ff");
    assert_eq!(format!("{:b}", Bitboard(5)), "101");
    assert_eq!(format!("{board:#?}"), board.to_string());
}
