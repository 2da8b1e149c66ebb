//! FEN reading and writing: round trips over the perft suites, every
//! rejection rule with the error it gives, and a seeded fuzz loop.

mod common;

use bitboards::Validation;
use bitboards::{
    CastlingRights, CastlingSide, Color, FenError, FenField, FenSyntaxError, File,
    ParseSquareError, Piece, Position, PositionError, Rank, Setup, Square,
};

use common::{CHESS960_RANDOM, CHESS960_STARTS, PERFT_SUITE, Rng, epd_fens};

fn parse(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

#[test]
fn perft_suite_round_trips_as_written() {
    let mut count = 0;
    for fen in epd_fens(PERFT_SUITE) {
        let position = Position::from_fen_with(fen, Validation::ALL_RULES.allow_impossible_check())
            .unwrap_or_else(|error| panic!("{fen}: {error}"));
        assert_eq!(position.fen().to_string(), fen);
        count += 1;
    }
    // 126 positions; `6KQ/8/8/8/8/8/8/7k b - - 0 1` is listed twice.
    assert_eq!(count, 127);
}

/// One position of the suite has two bishops checking along one diagonal:
/// no legal move leads there, so the strict reader refuses it.
#[test]
fn perft_suite_is_legal_but_for_one_impossible_check() {
    let rejected: Vec<(&str, FenError)> = epd_fens(PERFT_SUITE)
        .filter_map(|fen| Position::from_fen(fen).err().map(|error| (fen, error)))
        .collect();
    assert_eq!(
        rejected,
        [(
            "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
            FenError::Illegal {
                field: FenField::Board,
                column: 1,
                problem: PositionError::AlignedCheckers {
                    first: Square::H1,
                    second: Square::A8
                }
            }
        )]
    );
}

#[test]
fn chess960_files_round_trip_in_shredder_fen() {
    let mut count = 0;
    for fen in epd_fens(CHESS960_STARTS).chain(epd_fens(CHESS960_RANDOM)) {
        let position = parse(fen);
        assert_eq!(position.fen().shredder().to_string(), fen);
        // The default (X-FEN) form reads back as the same position.
        assert_eq!(parse(&position.fen().to_string()), position, "{fen}");
        count += 1;
    }
    assert_eq!(count, 1160);
}

#[test]
fn chess960_start_numbers_follow_the_scharnagl_order_of_the_file() {
    for (number, fen) in epd_fens(CHESS960_STARTS).enumerate() {
        let number = u16::try_from(number).unwrap();
        assert_eq!(Position::chess960(number), Ok(parse(fen)), "start {number}");
    }
    assert!(Position::chess960(960).is_err());
    assert!(Position::chess960(u16::MAX).is_err());
}

#[test]
fn four_field_fens_default_the_clocks() {
    let position = parse("4k3/8/8/8/8/8/8/4K3 b - -");
    assert_eq!(position.halfmove_clock(), 0);
    assert_eq!(position.fullmove_number(), 1);
    assert_eq!(position.fen().to_string(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn whitespace_around_and_between_fields_is_allowed() {
    let position = parse("  4k3/8/8/8/8/8/8/4K3\tw  -   - 3 9 ");
    assert_eq!(position.fen().to_string(), "4k3/8/8/8/8/8/8/4K3 w - - 3 9");
}

#[test]
fn clocks_up_to_u16_max_fit() {
    let position = parse("4k3/8/8/8/8/8/8/4K3 w - - 65535 65535");
    assert_eq!(position.halfmove_clock(), u16::MAX);
    assert_eq!(position.fullmove_number(), u16::MAX);
}

#[test]
fn castling_letters_in_any_order_print_in_canonical_order() {
    let position = parse("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1");
    assert_eq!(position.castling(), CastlingRights::STANDARD);
    assert_eq!(
        position.fen().to_string(),
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    );
}

#[test]
fn shredder_letters_for_standard_rooks_read_as_kqkq() {
    let position = parse("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    assert_eq!(position, parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
}

#[test]
fn x_fen_kq_means_the_outermost_rook() {
    // White rooks on a1, b1 and h1 with the king on c1: `Q` is a1, `K` h1.
    let position = parse("1r2k1r1/8/8/8/8/8/8/RRK4R w KQ - 0 1");
    let rights = position.castling();
    assert_eq!(
        rights.rook_file(Color::White, CastlingSide::QueenSide),
        Some(File::A)
    );
    assert_eq!(
        rights.rook_file(Color::White, CastlingSide::KingSide),
        Some(File::H)
    );
    // The inner queen-side rook is named by its file, and printed that way.
    let inner = parse("4k3/8/8/8/8/8/8/RRK4R w KB - 0 1");
    assert_eq!(
        inner
            .castling()
            .rook_file(Color::White, CastlingSide::QueenSide),
        Some(File::B)
    );
    assert_eq!(inner.fen().to_string(), "4k3/8/8/8/8/8/8/RRK4R w KB - 0 1");
    assert_eq!(
        inner.fen().shredder().to_string(),
        "4k3/8/8/8/8/8/8/RRK4R w HB - 0 1"
    );
}

#[test]
fn en_passant_square_is_kept_when_no_pawn_can_capture() {
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert_eq!(parse(fen).en_passant(), Some(Square::E3));
    assert_eq!(parse(fen).fen().to_string(), fen);
}

/// The error for `fen`, which must be rejected.
fn error(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(position) => panic!("{fen} was accepted as {position:?}"),
        Err(error) => error,
    }
}

fn syntax(fen: &str) -> (FenField, usize, FenSyntaxError) {
    match error(fen) {
        FenError::Syntax {
            field,
            column,
            problem,
        } => (field, column, problem),
        other => panic!("{fen}: expected a syntax error, got {other:?}"),
    }
}

fn illegal(fen: &str) -> (FenField, usize, PositionError) {
    match error(fen) {
        FenError::Illegal {
            field,
            column,
            problem,
        } => (field, column, problem),
        other => panic!("{fen}: expected an illegal position, got {other:?}"),
    }
}

#[test]
fn error_messages_name_field_column_and_reason() {
    let fen = "rnbqkbnr/pppppppp/ppp6/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        error(fen).to_string(),
        "FEN field 1 (board), column 22: rank 6 has 9 squares; a rank has 8"
    );
    assert_eq!(
        error("4k3/8/8/8/8/8/8/4K3 w - - 0").to_string(),
        "FEN column 28: 5 fields; a FEN has 6 (board, side to move, castling, en passant, \
         halfmove clock, fullmove number) or the first 4"
    );
    assert_eq!(
        error("4k3/8/8/8/8/8/8/4K3 w - e4 0 1").to_string(),
        "FEN field 4 (en passant), column 25: en passant square e4 is not on the rank the \
         last double push crossed (rank 6 with White to move, rank 3 with Black)"
    );
}

#[test]
fn wrong_number_of_fields() {
    for (fen, found, column) in [
        ("", 0, 1),
        ("   ", 0, 4),
        ("4k3/8/8/8/8/8/8/4K3", 1, 20),
        ("4k3/8/8/8/8/8/8/4K3 w", 2, 22),
        ("4k3/8/8/8/8/8/8/4K3 w -", 3, 24),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0", 5, 28),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 x", 7, 31),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 x y z", 7, 31),
    ] {
        assert_eq!(
            error(fen),
            FenError::FieldCount { found, column },
            "{fen:?}"
        );
    }
}

#[test]
fn one_field_is_singular() {
    assert_eq!(
        error("4k3/8/8/8/8/8/8/4K3").to_string(),
        "FEN column 20: 1 field; a FEN has 6 (board, side to move, castling, en passant, \
         halfmove clock, fullmove number) or the first 4"
    );
    assert!(error("").to_string().starts_with("FEN column 1: 0 fields;"));
    assert!(
        error("4k3/8/8/8/8/8/8/4K3 w")
            .to_string()
            .starts_with("FEN column 22: 2 fields;")
    );
}

#[test]
fn board_syntax() {
    use FenSyntaxError::*;
    let board = FenField::Board;
    assert_eq!(
        syntax("4k3/8/8/8/4x3/8/8/4K3 w - - 0 1"),
        (board, 12, BoardSymbol('x'))
    );
    assert_eq!(
        syntax("4k3/8/8/8/0/8/8/4K3 w - - 0 1"),
        (board, 11, BoardSymbol('0'))
    );
    assert_eq!(
        syntax("4k3/8/8/8/44/8/8/4K3 w - - 0 1"),
        (board, 12, AdjacentDigits)
    );
    assert_eq!(
        syntax("4k3/8/8/8/4P4/8/8/4K3 w - - 0 1"),
        (
            board,
            13,
            RankSquares {
                rank: Rank::Fourth,
                squares: 9
            }
        )
    );
    assert_eq!(
        syntax("4k3/8/8/8/7/8/8/4K3 w - - 0 1"),
        (
            board,
            12,
            RankSquares {
                rank: Rank::Fourth,
                squares: 7
            }
        )
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K2 w - - 0 1"),
        (
            board,
            20,
            RankSquares {
                rank: Rank::First,
                squares: 7
            }
        )
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/4K3 w - - 0 1"),
        (board, 18, RankCount { found: 7 })
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3/8 w - - 0 1"),
        (board, 20, RankCount { found: 9 })
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3/ w - - 0 1"),
        (board, 20, RankCount { found: 9 })
    );
}

#[test]
fn side_to_move_syntax() {
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 W - - 0 1"),
        (FenField::SideToMove, 21, FenSyntaxError::SideToMove('W'))
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 wb - - 0 1"),
        (FenField::SideToMove, 22, FenSyntaxError::Trailing('b'))
    );
}

#[test]
fn castling_syntax() {
    let field = FenField::Castling;
    assert_eq!(
        syntax("r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1"),
        (field, 28, FenSyntaxError::CastlingSymbol('X'))
    );
    assert_eq!(
        syntax("r3k2r/8/8/8/8/8/8/R3K2R w -K - 0 1"),
        (field, 27, FenSyntaxError::CastlingSymbol('-'))
    );
    assert_eq!(
        syntax("r3k2r/8/8/8/8/8/8/R3K2R w KQkq- - 0 1"),
        (field, 31, FenSyntaxError::CastlingSymbol('-'))
    );
    assert_eq!(
        syntax("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1"),
        (
            field,
            28,
            FenSyntaxError::CastlingDuplicate {
                color: Color::White,
                side: CastlingSide::KingSide
            }
        )
    );
    // `H` names the rook `K` already named.
    assert_eq!(
        syntax("r3k2r/8/8/8/8/8/8/R3K2R w KQkqh - 0 1"),
        (
            field,
            31,
            FenSyntaxError::CastlingDuplicate {
                color: Color::Black,
                side: CastlingSide::KingSide
            }
        )
    );
}

#[test]
fn en_passant_syntax() {
    let field = FenField::EnPassant;
    let bad = |error| FenSyntaxError::EnPassant(error);
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - i6 0 1"),
        (field, 25, bad(ParseSquareError::BadFile('i')))
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - e9 0 1"),
        (field, 26, bad(ParseSquareError::BadRank('9')))
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - e 0 1"),
        (field, 25, bad(ParseSquareError::BadLength(1)))
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - e6x 0 1"),
        (field, 27, FenSyntaxError::Trailing('x'))
    );
}

#[test]
fn clock_syntax() {
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
        (
            FenField::HalfmoveClock,
            27,
            FenSyntaxError::ClockNotANumber('x')
        )
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - - -1 1"),
        (
            FenField::HalfmoveClock,
            27,
            FenSyntaxError::ClockNotANumber('-')
        )
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - - 0 1.5"),
        (
            FenField::FullmoveNumber,
            30,
            FenSyntaxError::ClockNotANumber('.')
        )
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - - 65536 1"),
        (FenField::HalfmoveClock, 27, FenSyntaxError::ClockTooLarge)
    );
    assert_eq!(
        syntax("4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999"),
        (FenField::FullmoveNumber, 29, FenSyntaxError::ClockTooLarge)
    );
}

#[test]
fn fullmove_number_zero() {
    assert_eq!(
        illegal("4k3/8/8/8/8/8/8/4K3 w - - 0 0"),
        (
            FenField::FullmoveNumber,
            29,
            PositionError::FullmoveNumberZero
        )
    );
}

#[test]
fn exactly_one_king_per_side() {
    assert_eq!(
        illegal("4k3/8/8/8/8/8/8/8 w - - 0 1"),
        (
            FenField::Board,
            1,
            PositionError::KingCount {
                color: Color::White,
                found: 0
            }
        )
    );
    // Points at the second black king as the FEN writes them.
    assert_eq!(
        illegal("4k3/8/8/8/1k6/8/8/4K3 w - - 0 1"),
        (
            FenField::Board,
            12,
            PositionError::KingCount {
                color: Color::Black,
                found: 2
            }
        )
    );
}

#[test]
fn no_pawns_on_the_first_or_last_rank() {
    assert_eq!(
        illegal("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        (
            FenField::Board,
            1,
            PositionError::PawnOnBackRank {
                square: Square::A8,
                piece: Piece::WhitePawn
            }
        )
    );
    assert_eq!(
        illegal("4k3/8/8/8/8/8/8/4K2p w - - 0 1"),
        (
            FenField::Board,
            20,
            PositionError::PawnOnBackRank {
                square: Square::H1,
                piece: Piece::BlackPawn
            }
        )
    );
}

#[test]
fn no_more_material_than_promotions_can_give() {
    let too_much = |color| (FenField::Board, 1, PositionError::TooMuchMaterial { color });
    // Nine pawns.
    assert_eq!(
        illegal("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"),
        too_much(Color::White)
    );
    // Eight pawns and a second queen: no pawn is missing to have promoted.
    assert_eq!(
        illegal("3qk3/pppppppp/8/8/8/8/8/q3K3 w - - 0 1"),
        too_much(Color::Black)
    );
    // Two bishops on light squares and eight pawns.
    assert_eq!(
        illegal("4k3/8/8/8/8/8/PPPPPPPP/4KB1B w - - 0 1"),
        too_much(Color::White)
    );
    // With one pawn gone, the second queen or the third knight is a promotion.
    assert!(Position::from_fen("3qk3/ppppppp1/8/8/8/8/8/q3K3 w - - 0 1").is_ok());
    assert!(Position::from_fen("4k3/8/8/8/8/8/PPPPPPP1/NNN1K3 w - - 0 1").is_ok());
    // Nine queens: the most a side can have.
    assert!(Position::from_fen("QQQ1k3/8/8/8/8/8/8/QQQQK2Q b - - 0 1").is_ok());
}

#[test]
fn the_side_not_to_move_is_not_in_check() {
    assert_eq!(
        illegal("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"),
        (
            FenField::SideToMove,
            23,
            PositionError::OpponentInCheck {
                king: Square::E8,
                checker: Square::E1
            }
        )
    );
    // Kings side by side: each attacks the other.
    assert!(matches!(
        illegal("8/8/8/3kK3/8/8/8/8 b - - 0 1").2,
        PositionError::OpponentInCheck { .. }
    ));
    // The same with the checked side to move is fine.
    parse("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
}

#[test]
fn at_most_two_checkers() {
    // Rook e1, knight d6 and bishop b5 all attack the king on e8.
    assert_eq!(
        illegal("4k3/8/3N4/1B6/8/8/8/4R1K1 b - - 0 1").2,
        PositionError::TooManyCheckers { count: 3 }
    );
}

#[test]
fn a_double_check_needs_a_slider() {
    let two_knights = illegal("4k3/8/3N1N2/8/8/8/8/6K1 b - - 0 1");
    assert_eq!(
        two_knights.2,
        PositionError::DoubleCheckWithoutSlider {
            first: Square::D6,
            second: Square::F6
        }
    );
    assert_eq!(two_knights.0, FenField::Board);
    let two_pawns = illegal("4k3/3P1P2/8/8/8/8/8/6K1 b - - 0 1").2;
    assert!(matches!(
        two_pawns,
        PositionError::DoubleCheckWithoutSlider { .. }
    ));
    let pawn_and_knight = illegal("4k3/3P4/5N2/8/8/8/8/6K1 b - - 0 1").2;
    assert!(matches!(
        pawn_and_knight,
        PositionError::DoubleCheckWithoutSlider { .. }
    ));
    // Knight and rook: a knight move that uncovers the rook. Legal.
    parse("4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1");
}

#[test]
fn two_checkers_on_one_line_are_impossible() {
    assert_eq!(
        illegal("R3k2R/8/8/8/8/8/8/6K1 b - - 0 1").2,
        PositionError::AlignedCheckers {
            first: Square::A8,
            second: Square::H8
        }
    );
    // Two sliders on different lines: a discovered double check. Legal.
    parse("4k2R/8/8/8/B7/8/8/6K1 b - - 0 1");
}

#[test]
fn castling_needs_king_and_rook_on_the_home_rank() {
    let without_king = illegal("4k3/8/8/8/8/8/4K3/R6R w K - 0 1");
    assert_eq!(
        without_king,
        (
            FenField::Castling,
            25,
            PositionError::CastlingWithoutKing {
                color: Color::White,
                side: CastlingSide::KingSide
            }
        )
    );
    assert_eq!(
        illegal("r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        (
            FenField::Castling,
            28,
            PositionError::CastlingWithoutRook {
                color: Color::Black,
                side: CastlingSide::KingSide,
                rook: Square::H8
            }
        )
    );
    // A black rook on h1 is not White's.
    assert!(matches!(
        illegal("4k3/8/8/8/8/8/8/4K2r w K - 0 1").2,
        PositionError::CastlingWithoutRook { .. }
    ));
    // Shredder letter for a file without a rook.
    assert!(matches!(
        illegal("4k3/8/8/8/8/8/8/R3K3 w G - 0 1").2,
        PositionError::CastlingWithoutRook {
            rook: Square::G1,
            ..
        }
    ));
    // A file letter on the king's own file names no rook.
    assert!(matches!(
        illegal("4k3/8/8/8/8/8/8/R3K2R w E - 0 1").2,
        PositionError::CastlingWithoutRook { .. }
    ));
}

#[test]
fn castling_rook_must_be_on_its_side_of_the_king() {
    // Through a setup: a king-side right whose rook is on the queen side.
    let mut setup = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
        .unwrap()
        .setup();
    setup.castling = CastlingRights::NONE.with(Color::White, CastlingSide::KingSide, Some(File::A));
    assert_eq!(
        Position::from_setup(setup),
        Err(PositionError::CastlingWithoutRook {
            color: Color::White,
            side: CastlingSide::KingSide,
            rook: Square::A1
        })
    );
}

#[test]
fn en_passant_square_must_be_on_the_crossed_rank() {
    assert_eq!(
        illegal("4k3/8/8/4pP2/8/8/8/4K3 w - e5 0 1"),
        (
            FenField::EnPassant,
            28,
            PositionError::EnPassantRank { square: Square::E5 }
        )
    );
    // Rank 3 is Black's capture rank, not White's.
    assert!(matches!(
        illegal("4k3/8/8/8/3Pp3/8/8/4K3 w - d3 0 1").2,
        PositionError::EnPassantRank { .. }
    ));
}

#[test]
fn en_passant_square_needs_the_pawn_that_double_pushed() {
    assert_eq!(
        illegal("4k3/8/8/5P2/8/8/8/4K3 w - e6 0 1").2,
        PositionError::EnPassantWithoutPawn {
            square: Square::E6,
            pawn: Square::E5
        }
    );
    // A white pawn where the black one should be.
    assert!(matches!(
        illegal("4k3/8/8/4PP2/8/8/8/4K3 w - e6 0 1").2,
        PositionError::EnPassantWithoutPawn { .. }
    ));
}

#[test]
fn en_passant_squares_crossed_must_be_empty() {
    assert_eq!(
        illegal("4k3/8/4n3/4pP2/8/8/8/4K3 w - e6 0 1").2,
        PositionError::EnPassantBlocked {
            square: Square::E6,
            occupied: Square::E6
        }
    );
    assert_eq!(
        illegal("4k3/4n3/8/4pP2/8/8/8/4K3 w - e6 0 1").2,
        PositionError::EnPassantBlocked {
            square: Square::E6,
            occupied: Square::E7
        }
    );
    assert!(matches!(
        illegal("4k3/8/8/8/3pP3/8/4N3/4K3 b - e3 0 1").2,
        PositionError::EnPassantBlocked {
            occupied: Square::E2,
            ..
        }
    ));
}

#[test]
fn a_check_must_fit_the_double_push() {
    // The rook on a1 checks the king on e1, but the last move was e7-e5.
    assert_eq!(
        illegal("4k3/8/8/4pP2/8/8/8/r3K3 w - e6 0 1"),
        (
            FenField::EnPassant,
            29,
            PositionError::CheckNotFromDoublePush {
                checker: Square::A1
            }
        )
    );
    // The pushed pawn gives check: fine.
    parse("8/8/8/3Pp3/5K2/8/8/4k3 w - e6 0 1");
    // d7-d5 uncovered the bishop on a4 onto the king on e8: fine.
    parse("4K3/8/8/3pP3/b7/8/8/4k3 w - d6 0 1");
}

#[test]
fn setup_checks_are_usable_in_const() {
    const EMPTY_BOARD: Result<Position, PositionError> = Position::from_setup(Setup {
        board: [None; 64],
        ..Setup::START
    });
    assert_eq!(
        EMPTY_BOARD,
        Err(PositionError::KingCount {
            color: Color::White,
            found: 0
        })
    );
    const START: Position = match Position::from_setup(Setup::START) {
        Ok(position) => position,
        Err(_) => panic!(),
    };
    assert_eq!(START, Position::default());
}

/// Characters that FEN uses, plus a few that it does not.
const ALPHABET: &[char] = &[
    'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', '1', '2', '3', '4', '5', '6', '7',
    '8', '9', '0', '/', ' ', '-', 'w', 'a', 'c', 'd', 'e', 'f', 'g', 'h', 'A', 'H', 'x', '+', '\t',
    'é', '\u{3000}',
];

/// One random edit of `fen`: a character replaced, inserted or deleted,
/// two swapped, a field dropped or repeated, or the string cut short.
fn mutate(rng: &mut Rng, fen: &str) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    let edits = 1 + rng.below(3);
    for _ in 0..edits {
        let at = rng.below(chars.len() + 1);
        let symbol = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(6) {
            0 if at < chars.len() => chars[at] = symbol,
            1 => chars.insert(at, symbol),
            2 if at < chars.len() => {
                chars.remove(at);
            }
            3 if chars.len() > 1 => {
                let other = rng.below(chars.len());
                let at = at.min(chars.len() - 1);
                chars.swap(at, other);
            }
            4 => {
                let text: String = chars.iter().collect();
                let mut fields: Vec<&str> = text.split(' ').collect();
                let field = rng.below(fields.len());
                if rng.below(2) == 0 {
                    fields.remove(field);
                } else {
                    fields.insert(field, fields[field]);
                }
                chars = fields.join(" ").chars().collect();
            }
            _ => chars.truncate(at),
        }
    }
    chars.into_iter().collect()
}

/// Reads `input`; whatever it is, reading must not panic, an error must
/// point inside (or just past) the input, and an accepted position must
/// print a FEN that reads back as itself.
fn check_input(input: &str) -> bool {
    let lenient = Position::from_fen_with(input, Validation::ALL_RULES.allow_impossible_check());
    let strict = Position::from_fen(input);
    if let Ok(position) = strict {
        assert_eq!(lenient, Ok(position), "{input:?}");
    }
    if let Ok(position) = lenient {
        let printed = position.fen().to_string();
        assert_eq!(
            Position::from_fen_with(&printed, Validation::ALL_RULES.allow_impossible_check()),
            Ok(position)
        );
    }
    match strict {
        Ok(position) => {
            let printed = position.fen().to_string();
            assert_eq!(
                Position::from_fen(&printed),
                Ok(position),
                "{input:?} printed as {printed:?}"
            );
            let shredder = position.fen().shredder().to_string();
            assert_eq!(Position::from_fen(&shredder), Ok(position), "{shredder:?}");
            true
        }
        Err(error) => {
            let column = error.column();
            assert!(
                (1..=input.chars().count() + 1).contains(&column),
                "{input:?}: column {column} of {error}"
            );
            assert!(!error.to_string().is_empty());
            false
        }
    }
}

fn fuzz(seed: u64, inputs: usize) -> (usize, usize) {
    let corpus: Vec<&str> = epd_fens(PERFT_SUITE)
        .chain(epd_fens(CHESS960_STARTS))
        .chain(epd_fens(CHESS960_RANDOM))
        .collect();
    let mut rng = Rng::new(seed);
    let mut accepted = 0;
    for round in 0..inputs {
        let input = if round % 8 == 0 {
            // Pure noise from the alphabet.
            let length = rng.below(80);
            (0..length)
                .map(|_| ALPHABET[rng.below(ALPHABET.len())])
                .collect()
        } else {
            let fen = corpus[rng.below(corpus.len())];
            mutate(&mut rng, fen)
        };
        if check_input(&input) {
            accepted += 1;
        }
    }
    (inputs, accepted)
}

/// Two million random and mutated FENs in the normal test run (affordable
/// there because the test profile builds the library optimised; the time is
/// in docs/performance.md, "Figures behind the code"); none may panic.
#[test]
fn random_and_mutated_fens_never_panic() {
    let (inputs, accepted) = fuzz(0x00F3_A11E, 2_000_000);
    // Some mutations keep the FEN valid (a changed clock digit, say).
    assert!(
        accepted > inputs / 50,
        "only {accepted} of {inputs} accepted"
    );
    assert!(accepted < inputs, "every input accepted");
}

/// Ten million more: `cargo test --release --test fen -- --ignored`.
#[test]
#[ignore = "long: ten million inputs"]
fn ten_million_random_and_mutated_fens_never_panic() {
    fuzz(0x5EED_0002, 10_000_000);
}

#[test]
fn the_standard_reading_refuses_chess960_castling() {
    // King d1, rook h1, right `K`: Chess960 castling, which from_fen reads.
    let fen = "4k3/8/8/8/8/8/8/3K3R w K - 0 1";
    assert!(Position::from_fen(fen).is_ok());
    let error =
        Position::from_fen_with(fen, Validation::ALL_RULES.standard_castling()).unwrap_err();
    assert_eq!(
        error,
        FenError::NotStandardCastling {
            column: 24,
            color: Color::White,
            side: CastlingSide::KingSide,
            king: Square::D1,
            rook: Square::H1,
        }
    );
    assert_eq!(error.field(), Some(FenField::Castling));
    assert_eq!(
        error.to_string(),
        "FEN field 3 (castling), column 24: white's king-side castling right has its king on d1 \
         and its rook on h1, which only Chess960 allows; standard chess castles with the king on \
         e1 and the rook on h1 (`Position::from_fen` reads Chess960)"
    );
    // A rook off the corner, with the king on e8.
    let error = Position::from_fen_with(
        "1r2k3/8/8/8/8/8/8/4K3 w q - 0 1",
        Validation::ALL_RULES.standard_castling(),
    )
    .unwrap_err();
    assert!(
        matches!(
            error,
            FenError::NotStandardCastling {
                color: Color::Black,
                side: CastlingSide::QueenSide,
                rook: Square::B8,
                ..
            }
        ),
        "{error}"
    );
    // Standard positions read the same both ways, Shredder letters too,
    // and rules other than castling still apply.
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
        "4k3/8/8/8/8/8/8/3K3R w - - 0 1",
    ] {
        assert_eq!(
            Position::from_fen_with(fen, Validation::ALL_RULES.standard_castling()),
            Position::from_fen(fen),
            "{fen}"
        );
    }
    assert_eq!(
        Position::from_fen_with(
            "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
            Validation::ALL_RULES.standard_castling()
        ),
        Position::from_fen("4k3/8/8/8/8/8/8/4K3 x - - 0 1")
    );
}

#[test]
fn the_old_relaxed_readers_still_answer_as_their_options_do() {
    // Deprecated for one release: each is `from_fen_with` (or `parse_with`,
    // `read_with`) with one option.
    let aligned = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
    let relaxed = Validation::default().allow_impossible_check();
    let chess960 = "4k3/8/8/8/8/8/8/3K3R w K - 0 1";
    let standard = Validation::default().standard_castling();
    #[allow(deprecated)]
    {
        assert_eq!(
            Position::from_fen_allow_impossible_check(aligned),
            Position::from_fen_with(aligned, relaxed)
        );
        assert!(Position::from_fen_allow_impossible_check(aligned).is_ok());
        assert_eq!(
            Position::from_fen_standard(chess960),
            Position::from_fen_with(chess960, standard)
        );
        assert!(Position::from_fen_standard(chess960).is_err());
        let line = format!("{aligned} ;D1 8");
        assert_eq!(
            bitboards::Epd::parse_allow_impossible_check(&line),
            bitboards::Epd::parse_with(&line, relaxed)
        );
        assert_eq!(
            bitboards::epd::read_allow_impossible_check(&line).count(),
            bitboards::epd::read_with(&line, relaxed)
                .filter(Result::is_ok)
                .count()
        );
    }
}
