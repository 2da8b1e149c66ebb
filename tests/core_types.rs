//! Square, File, Rank, Color and Bitboard: construction, bad input, set
//! operations, shifts, flips, iteration, formatting, and the side-by-side
//! comparison that `assert_bitboard_eq!` prints.

use bitboards::{
    Bitboard, Color, File, ParseColorError, ParseFileError, ParseRankError, ParseSquareError, Rank,
    Square, assert_bitboard_eq, bitboard,
};
use common::{STEPS, SplitMix64, random_square};

mod common;

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
    let mut rng = SplitMix64::new(7);
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
    let mut rng = SplitMix64::new(11);
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

#[test]
fn counts_match_the_lists() {
    assert_eq!(Square::COUNT, Square::ALL.len());
    assert_eq!(File::COUNT, File::ALL.len());
    assert_eq!(Rank::COUNT, Rank::ALL.len());
    assert_eq!(Color::COUNT, Color::ALL.len());
    assert_eq!((File::COUNT, Rank::COUNT, Color::COUNT), (8, 8, 2));
}

#[test]
fn files_and_ranks_parse_from_chars_and_strings() {
    for file in File::ALL {
        assert_eq!(File::try_from(file.to_char()), Ok(file));
        assert_eq!(file.to_string().parse(), Ok(file));
        assert_eq!(File::new(file.index() as u8), Some(file));
    }
    for rank in Rank::ALL {
        assert_eq!(Rank::try_from(rank.to_char()), Ok(rank));
        assert_eq!(rank.to_string().parse(), Ok(rank));
        assert_eq!(Rank::new(rank.index() as u8), Some(rank));
    }
    for c in ['i', 'A', 'H', '1', ' ', 'é'] {
        assert_eq!(File::try_from(c), Err(ParseFileError::BadChar(c)));
    }
    for c in ['0', '9', 'a', '-'] {
        assert_eq!(Rank::try_from(c), Err(ParseRankError::BadChar(c)));
    }
    assert_eq!("".parse::<File>(), Err(ParseFileError::BadLength(0)));
    assert_eq!("ef".parse::<File>(), Err(ParseFileError::BadLength(2)));
    assert_eq!(" e".parse::<File>(), Err(ParseFileError::BadLength(2)));
    assert_eq!("44".parse::<Rank>(), Err(ParseRankError::BadLength(2)));
    assert_eq!(
        "i".parse::<File>().unwrap_err().to_string(),
        "`i` is not a file; expected a letter from `a` to `h`"
    );
    assert_eq!(
        "0".parse::<Rank>().unwrap_err().to_string(),
        "`0` is not a rank; expected a digit from `1` to `8`"
    );
    assert_eq!(
        "ab".parse::<File>().unwrap_err().to_string(),
        "a file is one character, a letter from `a` to `h`; found 2 characters"
    );
}

#[test]
fn colors_parse_from_names_and_fen_letters() {
    for color in Color::ALL {
        assert_eq!(color.to_string().parse(), Ok(color));
        assert_eq!(Color::try_from(color.to_char()), Ok(color));
        assert_eq!(Color::from_char(color.to_char()), Some(color));
    }
    assert_eq!("w".parse(), Ok(Color::White));
    assert_eq!("b".parse(), Ok(Color::Black));
    assert_eq!("W".parse::<Color>(), Err(ParseColorError::BadChar('W')));
    assert_eq!("White".parse::<Color>(), Err(ParseColorError::BadName));
    assert_eq!("".parse::<Color>(), Err(ParseColorError::BadName));
    assert_eq!("whit".parse::<Color>(), Err(ParseColorError::BadName));
    assert_eq!(Color::try_from('x'), Err(ParseColorError::BadChar('x')));
    assert_eq!(
        Color::try_from('x').unwrap_err().to_string(),
        "`x` is not a colour; expected `w` or `b`"
    );
    assert_eq!(
        "red".parse::<Color>().unwrap_err().to_string(),
        "not a colour; expected `white`, `black`, `w` or `b`"
    );
}

#[test]
fn wide_integers_are_checked_whole_not_truncated() {
    // The defect: `300usize as u8` is 44, e6; `try_from` sees all of 300.
    assert_eq!(Square::new(300usize as u8), Some(Square::E6));
    let error = Square::try_from(300usize).unwrap_err();
    assert_eq!(error.index(), 300);
    assert_eq!(
        error.to_string(),
        "300 is not a square index; expected 0 to 63"
    );
    for index in 0..64usize {
        let square = Square::ALL[index];
        assert_eq!(Square::try_from(index), Ok(square));
        assert_eq!(Square::try_from(index as u8), Ok(square));
        assert_eq!(Square::try_from(index as u16), Ok(square));
        assert_eq!(Square::try_from(index as u32), Ok(square));
        assert_eq!(Square::try_from(index as u64), Ok(square));
        assert_eq!(Square::try_from(index as i8), Ok(square));
        assert_eq!(Square::try_from(index as i16), Ok(square));
        assert_eq!(Square::try_from(index as i32), Ok(square));
        assert_eq!(Square::try_from(index as i64), Ok(square));
        assert_eq!(Square::try_from(index as isize), Ok(square));
    }
    assert_eq!(Square::try_from(64u8).unwrap_err().index(), 64);
    assert_eq!(Square::try_from(u8::MAX).unwrap_err().index(), 255);
    assert_eq!(Square::try_from(256u16).unwrap_err().index(), 256);
    assert_eq!(
        Square::try_from(u64::MAX).unwrap_err().index(),
        i128::from(u64::MAX)
    );
    assert_eq!(Square::try_from(-1i32).unwrap_err().index(), -1);
    assert_eq!(
        Square::try_from(i64::MIN).unwrap_err().index(),
        i128::from(i64::MIN)
    );
    assert_eq!(Square::try_from(-128i8).unwrap_err().index(), -128);
    // 256 + 28 would be e4 after truncation to u8.
    assert!(Square::try_from(284u32).is_err());
    assert_eq!(
        Square::try_from(-5i64).unwrap_err().to_string(),
        "-5 is not a square index; expected 0 to 63"
    );
}

#[test]
fn offsets_match_coordinates_and_never_wrap() {
    for square in Square::ALL {
        for files in -8i8..=8 {
            for ranks in -8i8..=8 {
                assert_eq!(
                    square.offset(files, ranks),
                    offset(square, files.into(), ranks.into()),
                    "{square} by ({files}, {ranks})"
                );
            }
        }
        for extreme in [i8::MIN, i8::MAX] {
            assert_eq!(square.offset(extreme, 0), None);
            assert_eq!(square.offset(0, extreme), None);
        }
    }
    assert_eq!(Square::H4.offset(1, 0), None);
    assert_eq!(Square::A5.offset(-1, 0), None);
}

#[test]
fn flips_and_relative_squares() {
    for square in Square::ALL {
        let (file, rank) = (square.file(), square.rank());
        let flipped_rank = Square::from_file_rank(file, Rank::ALL[7 - rank.index()]);
        let flipped_file = Square::from_file_rank(File::ALL[7 - file.index()], rank);
        assert_eq!(square.flip_rank(), flipped_rank);
        assert_eq!(square.flip_file(), flipped_file);
        assert_eq!(square.flip_rank().flip_rank(), square);
        assert_eq!(square.flip_file().flip_file(), square);
        assert_eq!(square.relative_to(Color::White), square);
        assert_eq!(square.relative_to(Color::Black), flipped_rank);
        // A flipped square is the square of the flipped board.
        assert_eq!(
            square.flip_rank().bitboard(),
            square.bitboard().flip_ranks()
        );
        assert_eq!(
            square.flip_file().bitboard(),
            square.bitboard().mirror_files()
        );
    }
}

#[test]
fn distances_count_king_and_rook_steps() {
    for a in Square::ALL {
        // Breadth-first king walk: the distance is the first ring that holds b.
        let mut reached = a.bitboard();
        let mut rings = [Bitboard::EMPTY; 8];
        rings[0] = reached;
        for ring in rings.iter_mut().skip(1) {
            let grown = STEPS.iter().fold(reached, |acc, step| acc | step(reached));
            *ring = grown - reached;
            reached = grown;
        }
        for b in Square::ALL {
            let ring = rings.iter().position(|r| r.contains(b)).unwrap();
            assert_eq!(usize::from(a.distance(b)), ring, "{a} to {b}");
            assert_eq!(a.distance(b), b.distance(a));
            let manhattan = a.file().index().abs_diff(b.file().index())
                + a.rank().index().abs_diff(b.rank().index());
            assert_eq!(usize::from(a.manhattan_distance(b)), manhattan);
        }
    }
}

#[test]
fn light_and_dark_squares_alternate_like_the_board() {
    let light = bitboard! {
        8 X . X . X . X .
        7 . X . X . X . X
        6 X . X . X . X .
        5 . X . X . X . X
        4 X . X . X . X .
        3 . X . X . X . X
        2 X . X . X . X .
        1 . X . X . X . X
          a b c d e f g h
    };
    for square in Square::ALL {
        assert_eq!(square.is_light(), light.contains(square), "{square}");
        assert_eq!(square.is_dark(), !light.contains(square), "{square}");
    }
    assert_eq!(light.count(), 32);
}

#[test]
fn set_relations() {
    let mut rng = SplitMix64::new(5);
    for _ in 0..1000 {
        let a = Bitboard(rng.next_u64());
        let b = Bitboard(rng.next_u64() & rng.next_u64());
        let sub = a & b;
        assert!(sub.is_subset(a) && sub.is_subset(b));
        assert!(a.is_superset(sub) && b.is_superset(sub));
        assert_eq!(a.is_subset(b), a.iter().all(|s| b.contains(s)));
        assert_eq!(a.is_superset(b), b.iter().all(|s| a.contains(s)));
        assert_eq!(a.is_disjoint(b), a.iter().all(|s| !b.contains(s)));
        assert!((a - b).is_disjoint(b));
        assert_eq!(a.symmetric_difference(b), a ^ b);
    }
    assert!(Bitboard::EMPTY.is_subset(Bitboard::EMPTY));
    assert!(Bitboard::EMPTY.is_disjoint(Bitboard::FULL));
    assert!(!Bitboard::FULL.is_subset(!Square::H8.bitboard()));
}

#[test]
fn single_square_is_some_only_for_exactly_one() {
    for square in Square::ALL {
        assert_eq!(square.bitboard().single_square(), Some(square));
        // With a1 added: still one square only when the square is a1.
        assert_eq!(
            (square.bitboard() | Square::A1).single_square(),
            (square == Square::A1).then_some(Square::A1)
        );
    }
    assert_eq!(Bitboard::EMPTY.single_square(), None);
    assert_eq!(Bitboard::FULL.single_square(), None);
    assert_eq!((Square::A1 | Square::H8).single_square(), None);
}

#[test]
fn pop_last_walks_down_from_h8() {
    let mut rng = SplitMix64::new(9);
    for _ in 0..200 {
        let board = Bitboard(rng.next_u64());
        let mut rest = board;
        let mut popped = Vec::new();
        while let Some(square) = rest.pop_last() {
            popped.push(square);
        }
        assert_eq!(popped, board.iter().rev().collect::<Vec<_>>());
        assert!(rest.is_empty());
    }
}

#[test]
fn files_ranks_and_squares_combine_into_bitboards() {
    for file in File::ALL {
        assert_eq!(Bitboard::from(file), file.bitboard());
        assert_eq!(
            Bitboard::from(file),
            Square::ALL
                .into_iter()
                .filter(|s| s.file() == file)
                .collect()
        );
    }
    for rank in Rank::ALL {
        assert_eq!(
            Bitboard::from(rank),
            Square::ALL
                .into_iter()
                .filter(|s| s.rank() == rank)
                .collect()
        );
    }
    let mut rng = SplitMix64::new(13);
    for _ in 0..200 {
        let board = Bitboard(rng.next_u64());
        let square = random_square(&mut rng);
        let alone = square.bitboard();
        assert_eq!(board | square, board | alone);
        assert_eq!(board & square, board & alone);
        assert_eq!(board ^ square, board ^ alone);
        assert_eq!(board - square, board - alone);
        let mut assigned = board;
        assigned |= square;
        assert_eq!(assigned, board | alone);
        assigned = board;
        assigned &= square;
        assert_eq!(assigned, board & alone);
        assigned = board;
        assigned ^= square;
        assert_eq!(assigned, board ^ alone);
        assigned = board;
        assigned -= square;
        assert_eq!(assigned, board - alone);
    }
    assert_eq!(
        Square::E4 | Square::D5,
        bitboard! {
            8 . . . . . . . .
            7 . . . . . . . .
            6 . . . . . . . .
            5 . . . X . . . .
            4 . . . . X . . .
            3 . . . . . . . .
            2 . . . . . . . .
            1 . . . . . . . .
              a b c d e f g h
        }
    );
}

#[test]
fn const_api_is_usable_in_constants() {
    const G1_KNIGHT_JUMP: Option<Square> = Square::G1.offset(-1, 2);
    const BLACK_E2: Square = Square::E2.relative_to(Color::Black);
    const ONE: Option<Square> = Bitboard(1 << 40).single_square();
    const RELATIONS: [bool; 3] = [
        Bitboard(0xFF).is_disjoint(Bitboard(0xFF00)),
        Bitboard(0xFF).is_subset(Bitboard(0xFF00)),
        Bitboard(0xFFFF).is_superset(Bitboard(0xFF00)),
    ];
    assert_eq!(G1_KNIGHT_JUMP, Some(Square::F3));
    assert_eq!(BLACK_E2, Square::E7);
    assert_eq!(ONE, Some(Square::A6));
    assert_eq!(RELATIONS, [true, false, true]);
}

/// Cuts one diagram out of a comparison: the block of columns
/// `start..start + 17` of the diagram lines, as a block selection would.
fn cut_diagram(comparison: &str, start: usize) -> String {
    comparison
        .lines()
        .skip(1)
        .take(9)
        .map(|line| line.get(start..start + 17).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn comparison_diagrams_paste_back_and_mark_differences() {
    let mut rng = SplitMix64::new(17);
    for _ in 0..200 {
        let left = Bitboard(rng.next_u64() & rng.next_u64());
        let right = Bitboard(rng.next_u64() & rng.next_u64());
        let text = left.compare(right).to_string();
        assert_eq!(cut_diagram(&text, 0).parse(), Ok(left));
        assert_eq!(cut_diagram(&text, 21).parse(), Ok(right));
        assert_eq!(cut_diagram(&text, 0), left.to_string());
        // The difference diagram: `-` for left only, `+` for right only.
        let difference = cut_diagram(&text, 42);
        let marked = |mark: char| -> Bitboard {
            difference
                .replace(mark, "X")
                .replace(['+', '-'], ".")
                .parse()
                .unwrap()
        };
        assert_eq!(marked('-'), left - right);
        assert_eq!(marked('+'), right - left);
        assert!(text.ends_with(&format!("left:  {left:?}\nright: {right:?}")));
    }
}

#[test]
fn comparing_a_board_with_itself_marks_nothing() {
    let board = Bitboard(0x0000_1800_0018_0000);
    let text = board.compare(board).to_string();
    let difference = cut_diagram(&text, 42);
    assert_eq!(difference, Bitboard::EMPTY.to_string());
    assert_bitboard_eq!(board, board);
    assert_bitboard_eq!(board, Bitboard(0x0000_1800_0018_0000), "with a message");
}

#[test]
#[should_panic(expected = "assertion `left == right` failed\nleft                 right")]
fn assert_bitboard_eq_fails_with_the_comparison() {
    assert_bitboard_eq!(Square::E4.bitboard(), Square::E4 | Square::D5);
}

#[test]
#[should_panic(expected = "\
5 . . . . . . . .    5 . . . X . . . .    5 . . . + . . . .
4 . . . . X . . .    4 . . . . X . . .    4 . . . . . . . .")]
fn assert_bitboard_eq_marks_the_square_only_on_the_right() {
    assert_bitboard_eq!(Square::E4.bitboard(), Square::E4 | Square::D5);
}

#[test]
#[should_panic(
    expected = "left:  Bitboard(0x0000000010000000)\nright: Bitboard(0x0000000000000000)"
)]
fn assert_bitboard_eq_prints_both_values_in_hex() {
    assert_bitboard_eq!(Square::E4.bitboard(), Bitboard::EMPTY);
}

#[test]
#[should_panic(expected = "assertion `left == right` failed: pawn pushes from e2\nleft")]
fn assert_bitboard_eq_puts_the_message_first() {
    let pushes = Square::E3 | Square::E4;
    assert_bitboard_eq!(
        pushes,
        Square::E3.bitboard(),
        "pawn pushes from {}",
        Square::E2
    );
}

#[test]
fn upper_case_square_names_are_refused_with_the_reason() {
    // Refused (FEN, UCI and SAN write squares in lower case, and SAN needs
    // the case: `B` is a bishop, `b` a file), and the message says so.
    assert_eq!("E4".parse::<Square>(), Err(ParseSquareError::BadFile('E')));
    assert_eq!(
        "E4".parse::<Square>().unwrap_err().to_string(),
        "`E` is not a file; expected a letter from `a` to `h` (file letters are lower case: `e`)"
    );
    // Other letters keep the plain message.
    assert_eq!(
        "I4".parse::<Square>().unwrap_err().to_string(),
        "`I` is not a file; expected a letter from `a` to `h`"
    );
}

#[test]
fn bitboards_shift_by_bit_counts_and_past_63_give_the_empty_board() {
    let e4 = Square::E4.bitboard();
    assert_eq!(e4 << 8, Square::E5.bitboard());
    assert_eq!(e4 >> 8, Square::E3.bitboard());
    assert_eq!(e4 << 0, e4);
    assert_eq!(Bitboard::FULL << 63, Square::H8.bitboard());
    assert_eq!(Bitboard::FULL >> 63, Square::A1.bitboard());
    for n in [64, 65, 100, u32::MAX] {
        assert_eq!(Bitboard::FULL << n, Bitboard::EMPTY, "<< {n}");
        assert_eq!(Bitboard::FULL >> n, Bitboard::EMPTY, ">> {n}");
    }
    let mut board = e4;
    board <<= 1;
    assert_eq!(board, Square::F4.bitboard());
    board >>= 2;
    assert_eq!(board, Square::D4.bitboard());
    board <<= 64;
    assert_eq!(board, Bitboard::EMPTY);
    let mut board = Bitboard::FULL;
    board >>= 64;
    assert_eq!(board, Bitboard::EMPTY);
}
