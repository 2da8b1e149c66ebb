//! The rules on checks, the part of [`PositionError`] that needs attack
//! tables; every other rule is `bitboards_core`'s placement checker, which
//! `position!` calls too.

use bitboards_core::placement::{self, double_push_squares};

use super::{Position, Setup};
use crate::{Bitboard, Piece, PieceKind, PositionError, between};

/// Builds the position of `setup` and checks every rule, in the order of the
/// variants of [`PositionError`]: the placement rules first, then those on
/// checks, then the fullmove number. With `allow_impossible_check`, all but
/// the four rules on how the side to move can be in check.
pub(super) const fn check(
    setup: Setup,
    allow_impossible_check: bool,
) -> Result<Position, PositionError> {
    check_with_boards(
        &setup,
        &placement::piece_boards(&setup.board),
        allow_impossible_check,
    )
}

/// [`check`] for a setup whose piece boards (`placement::piece_boards`)
/// were built already, as the FEN reader builds them while reading.
pub(super) const fn check_with_boards(
    setup: &Setup,
    boards: &[Bitboard; Piece::COUNT],
    allow_impossible_check: bool,
) -> Result<Position, PositionError> {
    // The fullmove number, always the last violation, comes after the
    // rules on checks.
    let fullmove = match placement::first_violation(setup, boards) {
        Some(violation) => match violation.error {
            PositionError::FullmoveNumberZero => Some(violation.error),
            error => return Err(error),
        },
        None => None,
    };
    let position = Position::from_boards_unchecked(setup, boards);
    if let Err(error) = check_checks(&position, allow_impossible_check) {
        return Err(error);
    }
    match fullmove {
        Some(error) => Err(error),
        None => Ok(position),
    }
}

const fn check_checks(
    position: &Position,
    allow_impossible_check: bool,
) -> Result<(), PositionError> {
    let us = position.side_to_move;
    let their_king = position.king(us.opponent());
    if let Some(checker) = position.attackers(their_king, us).first() {
        return Err(PositionError::OpponentInCheck {
            king: their_king,
            checker,
        });
    }

    if allow_impossible_check {
        return Ok(());
    }
    let checkers = position.checkers();
    let count = checkers.count();
    if count > 2 {
        return Err(PositionError::TooManyCheckers { count });
    }
    let (Some(first), Some(last)) = (checkers.first(), checkers.last()) else {
        return Ok(());
    };
    let our_king = position.king(us);

    if let Some(en_passant) = position.en_passant {
        // The last move was a double push: the pushed pawn gives check, or
        // its start square uncovered a slider's line to the king. The
        // placement rules put the square on rank 3 or 6.
        let Some((pawn, origin)) = double_push_squares(en_passant, us) else {
            return Ok(());
        };
        if count == 2 {
            return Err(PositionError::CheckNotFromDoublePush { checker: last });
        }
        if first as u8 != pawn as u8 && !between(first, our_king).contains(origin) {
            return Err(PositionError::CheckNotFromDoublePush { checker: first });
        }
        return Ok(());
    }

    if count == 2 {
        let sliders = position
            .by_kind(PieceKind::Bishop)
            .union(position.by_kind(PieceKind::Rook))
            .union(position.by_kind(PieceKind::Queen));
        if checkers.intersection(sliders).is_empty() {
            return Err(PositionError::DoubleCheckWithoutSlider {
                first,
                second: last,
            });
        }
        if crate::line(first, our_king).contains(last) {
            return Err(PositionError::AlignedCheckers {
                first,
                second: last,
            });
        }
    }
    Ok(())
}
