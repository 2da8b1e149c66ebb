//! The rules on checks, the part of [`PositionError`] that needs attack
//! tables; every other rule is `bitboards_core`'s placement checker, which
//! `position!` calls too.

use bitboards_core::placement::{self, double_push_squares};

use super::{Position, Setup};
use crate::{Bitboard, Piece, PieceKind, PositionError, between};

/// How strictly a FEN is read: the options of the one FEN reader
/// ([`Position::from_fen_with`], [`Epd::parse_with`](crate::Epd::parse_with)).
/// The default is every rule of [`PositionError`] and Chess960 castling
/// (a right may have its king and rook anywhere on the home rank), which is
/// what [`Position::from_fen`] reads.
///
/// ```
/// use bitboards::{Position, Validation};
///
/// // Two bishops check along one diagonal: no game reaches this, but a
/// // published perft suite holds it.
/// let fen = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
/// assert!(Position::from_fen(fen).is_err());
/// let position = Position::from_fen_with(fen, Validation::default().allow_impossible_check())?;
/// assert_eq!(position.checkers().count(), 2);
///
/// // Standard chess only: castling kings on e1/e8, rooks in the corners.
/// let chess960 = "4k3/8/8/8/8/8/8/3K3R w K - 0 1";
/// assert!(Position::from_fen(chess960).is_ok());
/// assert!(Position::from_fen_with(chess960, Validation::default().standard_castling()).is_err());
/// # Ok::<(), bitboards::FenError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Validation {
    standard_castling: bool,
    impossible_check: bool,
}

impl Validation {
    /// Every rule, Chess960 castling: [`Validation::default`], as a constant.
    pub const ALL_RULES: Validation = Validation {
        standard_castling: false,
        impossible_check: false,
    };

    /// Also requires each castling right to have its king on e1 (e8) and
    /// its rook in that side's corner, as standard chess does
    /// ([`FenError::NotStandardCastling`](crate::FenError::NotStandardCastling)
    /// otherwise).
    #[must_use]
    pub const fn standard_castling(self) -> Validation {
        Validation {
            standard_castling: true,
            ..self
        }
    }

    /// Waives the four rules on how the side to move can be in check
    /// ([`PositionError::TooManyCheckers`],
    /// [`DoubleCheckWithoutSlider`](PositionError::DoubleCheckWithoutSlider),
    /// [`AlignedCheckers`](PositionError::AlignedCheckers),
    /// [`CheckNotFromDoublePush`](PositionError::CheckNotFromDoublePush)):
    /// such positions cannot arise in a game, but the move generator handles
    /// them and perft suites hold some. Every other rule still holds.
    #[must_use]
    pub const fn allow_impossible_check(self) -> Validation {
        Validation {
            impossible_check: true,
            ..self
        }
    }

    /// Whether castling must be standard chess's.
    ///
    /// ```
    /// use bitboards::Validation;
    ///
    /// assert!(!Validation::default().requires_standard_castling());
    /// assert!(Validation::default().standard_castling().requires_standard_castling());
    /// ```
    #[must_use]
    pub const fn requires_standard_castling(self) -> bool {
        self.standard_castling
    }

    /// Whether the rules on impossible checks are waived.
    ///
    /// ```
    /// use bitboards::Validation;
    ///
    /// assert!(!Validation::ALL_RULES.allows_impossible_check());
    /// assert!(Validation::ALL_RULES.allow_impossible_check().allows_impossible_check());
    /// ```
    #[must_use]
    pub const fn allows_impossible_check(self) -> bool {
        self.impossible_check
    }
}

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
