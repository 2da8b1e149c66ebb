//! The placement checker: every violation at once, each with its square,
//! and the messages that say what the rules check.

use bitboards::{Color, Piece, Position, PositionError, Setup, Square};
use bitboards_core::placement;

#[test]
fn every_violation_is_listed_with_its_square() {
    let mut setup = Setup::START;
    setup.board[Square::E4.index()] = Some(Piece::BlackKing);
    setup.board[Square::B8.index()] = Some(Piece::WhitePawn);
    setup.board[Square::A1.index()] = Some(Piece::BlackPawn);
    setup.board[Square::H8.index()] = None;
    setup.fullmove_number = 0;
    let violations = placement::check(&setup);
    let found: Vec<_> = violations
        .as_slice()
        .iter()
        .map(|violation| (violation.error, violation.square))
        .collect();
    assert_eq!(
        found,
        [
            (
                PositionError::KingCount {
                    color: Color::Black,
                    found: 2
                },
                Some(Square::E4)
            ),
            (
                PositionError::PawnOnBackRank {
                    square: Square::A1,
                    piece: Piece::BlackPawn
                },
                Some(Square::A1)
            ),
            (
                PositionError::PawnOnBackRank {
                    square: Square::B8,
                    piece: Piece::WhitePawn
                },
                Some(Square::B8)
            ),
            // Nine pawns each: the piece that makes the ninth, in reading
            // order (rank 8 first).
            (
                PositionError::TooMuchMaterial {
                    color: Color::White
                },
                Some(Square::H2)
            ),
            (
                PositionError::TooMuchMaterial {
                    color: Color::Black
                },
                Some(Square::A1)
            ),
            (
                PositionError::CastlingWithoutRook {
                    color: Color::White,
                    side: bitboards::CastlingSide::QueenSide,
                    rook: Square::A1
                },
                Some(Square::A1)
            ),
            (PositionError::FullmoveNumberZero, None),
        ]
    );
    // `from_setup` reports the first.
    assert_eq!(Position::from_setup(setup), Err(found[0].0));
}

#[test]
fn the_material_message_says_what_is_counted() {
    // Two light-squared bishops and a full row of pawns: one bishop past
    // the first on its square colour, with no pawn missing to have made it.
    let position = "4k3/8/8/8/8/8/PPPPPPPP/2B1KB1B w - - 0 1";
    let error = Position::from_fen(position).unwrap_err().to_string();
    assert!(
        error.contains("bishop past the first on either square colour"),
        "{error}"
    );
    assert!(
        !error.contains("past the second is a promoted pawn"),
        "{error}"
    );
}

#[test]
fn const_messages_name_the_squares() {
    const CHECK: PositionError = PositionError::OpponentInCheck {
        king: Square::E8,
        checker: Square::E1,
    };
    const TEXT: placement::Message = CHECK.message();
    assert_eq!(
        TEXT.as_str(),
        "the side not to move is in check (the king on e8 is attacked from e1)"
    );
}
