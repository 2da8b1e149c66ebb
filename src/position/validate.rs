//! The rules every [`Position`] follows, checked in a `const fn`.

use core::fmt;

use super::{CastlingSide, Position, Setup};
use crate::{Color, File, Piece, PieceKind, Rank, Square, between};

/// Why a setup is not a position that can arise in a game: each rule
/// [`Position::from_setup`] and [`Position::from_fen`] check.
///
/// ```
/// use bitboards::{Position, PositionError, Square};
///
/// let mut setup = Position::START.setup();
/// setup.board[Square::A1.index()] = Some(bitboards::Piece::WhitePawn);
/// let error = Position::from_setup(setup).unwrap_err();
/// assert_eq!(error, PositionError::PawnOnBackRank { square: Square::A1, piece: bitboards::Piece::WhitePawn });
/// assert!(error.to_string().contains("a1"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum PositionError {
    /// A side does not have exactly one king.
    KingCount {
        /// The side with too many or no kings.
        color: Color,
        /// How many kings of that colour are on the board.
        found: u32,
    },
    /// A pawn stands on the first or last rank, where no pawn can be.
    PawnOnBackRank {
        /// The pawn's square.
        square: Square,
        /// The pawn.
        piece: Piece,
    },
    /// More pieces of one side than a game can produce: more than 8 pawns,
    /// or more queens, rooks, knights and bishops (per square colour)
    /// beyond the starting set than pawns missing to have promoted.
    TooMuchMaterial {
        /// The side with too much material.
        color: Color,
    },
    /// A castling right while the king is not on its home rank (rank 1 for
    /// White, 8 for Black).
    CastlingWithoutKing {
        /// Whose right.
        color: Color,
        /// Which side.
        side: CastlingSide,
    },
    /// A castling right whose rook is not on the home rank, on that side of
    /// the king.
    CastlingWithoutRook {
        /// Whose right.
        color: Color,
        /// Which side.
        side: CastlingSide,
        /// Where the right says the rook stands.
        rook: Square,
    },
    /// An en passant square on a rank where the side to move cannot capture
    /// en passant (rank 6 when White is to move, rank 3 when Black is).
    EnPassantRank {
        /// The en passant square.
        square: Square,
    },
    /// No pawn of the side that just moved stands just past the en passant
    /// square, so none can just have double-pushed over it.
    EnPassantWithoutPawn {
        /// The en passant square.
        square: Square,
        /// Where the pawn that double-pushed should stand.
        pawn: Square,
    },
    /// The en passant square or the square the pawn started from is
    /// occupied, so no pawn can just have double-pushed across them.
    EnPassantBlocked {
        /// The en passant square.
        square: Square,
        /// The occupied square.
        occupied: Square,
    },
    /// The side not to move is in check: its opponent could take its king.
    OpponentInCheck {
        /// The king in check.
        king: Square,
        /// A piece attacking it.
        checker: Square,
    },
    /// The king of the side to move is attacked by more than two pieces; no
    /// move gives more than a double check.
    TooManyCheckers {
        /// How many pieces give check.
        count: u32,
    },
    /// Two checking pieces of which neither is a bishop, rook or queen: a
    /// double check needs a slider uncovered by the other piece's move.
    DoubleCheckWithoutSlider {
        /// One checking piece.
        first: Square,
        /// The other.
        second: Square,
    },
    /// Two checking pieces on one line through the king, one on each side:
    /// one of them must have given check before the last move.
    AlignedCheckers {
        /// One checking piece.
        first: Square,
        /// The other.
        second: Square,
    },
    /// The en passant square says the last move was a double push, but that
    /// push could not have given this check (neither by the pawn nor by
    /// uncovering a slider), or there are two checkers.
    CheckNotFromDoublePush {
        /// A checking piece the push does not explain.
        checker: Square,
    },
    /// The fullmove number is 0; it starts at 1.
    FullmoveNumberZero,
}

impl PositionError {
    /// The rule broken, as a fixed sentence without the squares: usable in a
    /// `const` panic, where the full `Display` message cannot be formatted.
    ///
    /// ```
    /// use bitboards::{Position, Setup};
    ///
    /// const EMPTY: Setup = Setup { board: [None; 64], ..Setup::START };
    /// // In a `const` item, an `Err` here would stop the compile with this text.
    /// let rule = match Position::from_setup(EMPTY) {
    ///     Ok(_) => "",
    ///     Err(error) => error.rule(),
    /// };
    /// assert_eq!(rule, "each side has exactly one king");
    /// ```
    #[must_use]
    pub const fn rule(&self) -> &'static str {
        match self {
            PositionError::KingCount { .. } => "each side has exactly one king",
            PositionError::PawnOnBackRank { .. } => "pawns never stand on the first or last rank",
            PositionError::TooMuchMaterial { .. } => {
                "a side has at most 8 pawns, and no more extra pieces than pawns it lacks"
            }
            PositionError::CastlingWithoutKing { .. } => {
                "a castling right needs its king on the home rank"
            }
            PositionError::CastlingWithoutRook { .. } => {
                "a castling right needs its rook on the home rank, on that side of the king"
            }
            PositionError::EnPassantRank { .. } => {
                "the en passant square is on rank 6 with White to move, rank 3 with Black"
            }
            PositionError::EnPassantWithoutPawn { .. } => {
                "the en passant square needs the pawn that just moved two squares past it"
            }
            PositionError::EnPassantBlocked { .. } => "the squares a double push crossed are empty",
            PositionError::OpponentInCheck { .. } => "the side not to move is not in check",
            PositionError::TooManyCheckers { .. } => "no more than two pieces give check",
            PositionError::DoubleCheckWithoutSlider { .. } => {
                "a double check includes a bishop, rook or queen"
            }
            PositionError::AlignedCheckers { .. } => {
                "two checking pieces are not on one line through the king"
            }
            PositionError::CheckNotFromDoublePush { .. } => {
                "a check after a double push comes from that push"
            }
            PositionError::FullmoveNumberZero => "the fullmove number starts at 1",
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionError::KingCount { color, found } => {
                write!(f, "{color} has {found} kings; each side has exactly one")
            }
            PositionError::PawnOnBackRank { square, piece } => write!(
                f,
                "a {} {} on {square}: pawns never stand on the first or last rank",
                piece.color(),
                piece.kind().name()
            ),
            PositionError::TooMuchMaterial { color } => write!(
                f,
                "{color} has more material than a game can give it: at most 8 pawns, and each queen past the first, rook, knight or bishop (per square colour) past the second is a promoted pawn"
            ),
            PositionError::CastlingWithoutKing { color, side } => write!(
                f,
                "{color} has a {} castling right but its king is not on rank {}",
                side.name(),
                home_rank(color)
            ),
            PositionError::CastlingWithoutRook { color, side, rook } => write!(
                f,
                "{color}'s {} castling right needs a {color} rook on {rook}, on that side of the king",
                side.name()
            ),
            PositionError::EnPassantRank { square } => write!(
                f,
                "en passant square {square} is not on the rank the last double push crossed (rank 6 with White to move, rank 3 with Black)"
            ),
            PositionError::EnPassantWithoutPawn { square, pawn } => write!(
                f,
                "en passant square {square}, but no pawn stands on {pawn} that could just have moved two squares"
            ),
            PositionError::EnPassantBlocked { square, occupied } => write!(
                f,
                "en passant square {square}, but {occupied} is occupied, so no pawn just moved two squares across it"
            ),
            PositionError::OpponentInCheck { king, checker } => write!(
                f,
                "the side not to move is in check (the king on {king} is attacked from {checker})"
            ),
            PositionError::TooManyCheckers { count } => write!(
                f,
                "{count} pieces give check; a move gives at most a double check"
            ),
            PositionError::DoubleCheckWithoutSlider { first, second } => write!(
                f,
                "double check from {first} and {second}, neither a bishop, rook or queen: no single move gives that"
            ),
            PositionError::AlignedCheckers { first, second } => write!(
                f,
                "double check from {first} and {second} along one line through the king: no single move gives that"
            ),
            PositionError::CheckNotFromDoublePush { checker } => write!(
                f,
                "the check from {checker} cannot come from the double push the en passant square says was the last move"
            ),
            PositionError::FullmoveNumberZero => {
                f.write_str("the fullmove number is 0; it starts at 1")
            }
        }
    }
}

impl core::error::Error for PositionError {}

/// Rank 1 for White, 8 for Black: where the king and rooks start.
pub(crate) const fn home_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    }
}

/// The square `ranks` ranks north (negative: south) of `square`, if on the
/// board.
const fn offset(square: Square, ranks: i8) -> Option<Square> {
    let index = square as i8 + 8 * ranks;
    if index < 0 {
        None
    } else {
        Square::new(index as u8)
    }
}

/// Which rook square a castling right names, and whether it is on the right
/// side of the king; the check is shared with the FEN reader, which resolves
/// X-FEN letters through it.
pub(crate) const fn castling_rook_ok(
    king: Square,
    color: Color,
    side: CastlingSide,
    rook_file: File,
) -> bool {
    let on_that_side = match side {
        CastlingSide::KingSide => rook_file as u8 > king.file() as u8,
        CastlingSide::QueenSide => (rook_file as u8) < king.file() as u8,
    };
    on_that_side && king.rank() as u8 == home_rank(color) as u8
}

/// Builds the position of `setup` and checks every rule, in the order of the
/// variants of [`PositionError`]; with `allow_impossible_check`, all but the
/// four rules on how the side to move can be in check.
pub(super) const fn check(
    setup: Setup,
    allow_impossible_check: bool,
) -> Result<Position, PositionError> {
    let position = Position::from_setup_unchecked(&setup);
    let kings = position.by_kind(PieceKind::King);

    let mut color_index = 0;
    while color_index < 2 {
        let color = Color::ALL[color_index];
        let found = kings.intersection(position.by_color(color)).count();
        if found != 1 {
            return Err(PositionError::KingCount { color, found });
        }
        color_index += 1;
    }

    let back_ranks = Rank::First.bitboard().union(Rank::Eighth.bitboard());
    if let Some(square) = position
        .by_kind(PieceKind::Pawn)
        .intersection(back_ranks)
        .first()
    {
        let piece = match position.piece_on(square) {
            Some(piece) => piece,
            None => Piece::WhitePawn,
        };
        return Err(PositionError::PawnOnBackRank { square, piece });
    }

    let mut color_index = 0;
    while color_index < 2 {
        let color = Color::ALL[color_index];
        if !is_standard_material(&position, color) {
            return Err(PositionError::TooMuchMaterial { color });
        }
        color_index += 1;
    }

    if let Err(error) = check_castling(&position) {
        return Err(error);
    }
    if let Err(error) = check_en_passant(&position) {
        return Err(error);
    }
    if let Err(error) = check_checks(&position, allow_impossible_check) {
        return Err(error);
    }
    if position.fullmove_number == 0 {
        return Err(PositionError::FullmoveNumberZero);
    }
    Ok(position)
}

/// Whether `color`'s pieces can all come from the starting set and its
/// pawns' promotions. This also bounds the number of legal moves, so that a
/// [`MoveList`](crate::MoveList) always has room.
const fn is_standard_material(position: &Position, color: Color) -> bool {
    let bishops = position.pieces(color, PieceKind::Bishop);
    let light = bishops.intersection(crate::masks::LIGHT_SQUARES).count();
    let dark = bishops.count() - light;
    let pawns = position.pieces(color, PieceKind::Pawn).count();
    let promoted = position.pieces(color, PieceKind::Queen).count().saturating_sub(1)
        + position.pieces(color, PieceKind::Rook).count().saturating_sub(2)
        + position.pieces(color, PieceKind::Knight).count().saturating_sub(2)
        + light.saturating_sub(1)
        + dark.saturating_sub(1);
    pawns <= 8 && pawns + promoted <= 8
}

const fn check_castling(position: &Position) -> Result<(), PositionError> {
    let mut index = 0;
    while index < 4 {
        let color = Color::ALL[index / 2];
        let side = CastlingSide::ALL[index % 2];
        index += 1;
        let Some(rook_file) = position.castling.rook_file(color, side) else {
            continue;
        };
        let king = position.king(color);
        if king.rank() as u8 != home_rank(color) as u8 {
            return Err(PositionError::CastlingWithoutKing { color, side });
        }
        let rook = Square::from_file_rank(rook_file, home_rank(color));
        let rook_there = position.pieces(color, PieceKind::Rook).contains(rook);
        if !rook_there || !castling_rook_ok(king, color, side, rook_file) {
            return Err(PositionError::CastlingWithoutRook { color, side, rook });
        }
    }
    Ok(())
}

/// For an en passant square: the square of the pawn that double-pushed over
/// it and the square that pawn started from, seen from the side to move.
const fn double_push_squares(en_passant: Square, side_to_move: Color) -> (Square, Square) {
    let toward_mover = match side_to_move {
        Color::White => -1,
        Color::Black => 1,
    };
    // Only called once the square is on rank 3 or 6, so both exist.
    match (
        offset(en_passant, toward_mover),
        offset(en_passant, -toward_mover),
    ) {
        (Some(pawn), Some(origin)) => (pawn, origin),
        _ => (en_passant, en_passant),
    }
}

const fn check_en_passant(position: &Position) -> Result<(), PositionError> {
    let Some(square) = position.en_passant else {
        return Ok(());
    };
    let us = position.side_to_move;
    let expected_rank = match us {
        Color::White => Rank::Sixth,
        Color::Black => Rank::Third,
    };
    if square.rank() as u8 != expected_rank as u8 {
        return Err(PositionError::EnPassantRank { square });
    }
    let (pawn, origin) = double_push_squares(square, us);
    if !position
        .pieces(us.opponent(), PieceKind::Pawn)
        .contains(pawn)
    {
        return Err(PositionError::EnPassantWithoutPawn { square, pawn });
    }
    let occupied = position.occupied();
    if occupied.contains(square) {
        return Err(PositionError::EnPassantBlocked {
            square,
            occupied: square,
        });
    }
    if occupied.contains(origin) {
        return Err(PositionError::EnPassantBlocked {
            square,
            occupied: origin,
        });
    }
    Ok(())
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
        // its start square uncovered a slider's line to the king.
        let (pawn, origin) = double_push_squares(en_passant, us);
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
