//! Which squares a piece attacks, by table lookup.

use crate::{Bitboard, Color, Square, tables};

/// The squares a knight on `square` attacks.
///
/// ```
/// use bitboards::{attacks, bitboard, Square};
///
/// let expected = bitboard! {
///     8 . . . . . . . .
///     7 . . . . . X . X
///     6 . . . . X . . .
///     5 . . . . . . . .
///     4 . . . . X . . .
///     3 . . . . . X . X
///     2 . . . . . . . .
///     1 . . . . . . . .
///       a b c d e f g h
/// };
/// assert_eq!(attacks::knight(Square::G5), expected);
/// ```
#[must_use]
pub const fn knight(square: Square) -> Bitboard {
    Bitboard(tables::KNIGHT_ATTACKS[square.index()])
}

/// The squares a king on `square` attacks.
///
/// ```
/// use bitboards::{attacks, bitboard, Square};
///
/// let expected = bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . . . .
///     5 . . . . . . . .
///     4 . . . . . . . .
///     3 . . . . . . . .
///     2 X X . . . . . .
///     1 . X . . . . . .
///       a b c d e f g h
/// };
/// assert_eq!(attacks::king(Square::A1), expected);
/// ```
#[must_use]
pub const fn king(square: Square) -> Bitboard {
    Bitboard(tables::KING_ATTACKS[square.index()])
}

/// The squares a pawn of `color` on `square` attacks (diagonally forward).
///
/// Because attacks are symmetric, `pawn(!color, s)` is also the set of
/// squares from which a `color` pawn would attack `s`.
///
/// ```
/// use bitboards::{attacks, bitboard, Color, Square};
///
/// let expected = bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . . . .
///     5 . . . X . X . .
///     4 . . . . . . . .
///     3 . . . . . . . .
///     2 . . . . . . . .
///     1 . . . . . . . .
///       a b c d e f g h
/// };
/// assert_eq!(attacks::pawn(Color::White, Square::E4), expected);
/// assert_eq!(attacks::pawn(Color::Black, Square::E4), Square::D3.bitboard() | Square::F3.bitboard());
/// ```
#[must_use]
pub const fn pawn(color: Color, square: Square) -> Bitboard {
    Bitboard(tables::PAWN_ATTACKS[color.index()][square.index()])
}

/// The square a pawn of `color` on `square` moves to with a single push, as
/// a bitboard (empty for a pawn on its last rank).
///
/// ```
/// use bitboards::{attacks, Color, Square};
///
/// assert_eq!(attacks::pawn_push(Color::White, Square::E2), Square::E3.bitboard());
/// assert!(attacks::pawn_push(Color::White, Square::E8).is_empty());
/// ```
#[must_use]
pub const fn pawn_push(color: Color, square: Square) -> Bitboard {
    Bitboard(tables::PAWN_PUSHES[color.index()][square.index()])
}
