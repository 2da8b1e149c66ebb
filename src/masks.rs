//! Named sets of squares: files, ranks, diagonals and regions, read from the
//! generated tables.
//!
//! ```
//! use bitboards::{bitboard, masks};
//!
//! assert_eq!(masks::CENTER | masks::RANK_1, bitboard! {
//!     8 . . . . . . . .
//!     7 . . . . . . . .
//!     6 . . . . . . . .
//!     5 . . . X X . . .
//!     4 . . . X X . . .
//!     3 . . . . . . . .
//!     2 . . . . . . . .
//!     1 X X X X X X X X
//!       a b c d e f g h
//! });
//! ```

use crate::{Bitboard, File, Rank, Square, tables};

/// The squares of `file`, as the generated table has them.
///
/// ```
/// use bitboards::{masks, File, Square};
///
/// assert!(masks::file(File::C).contains(Square::C6));
/// assert_eq!(masks::file(File::C).count(), 8);
/// ```
#[inline]
#[must_use]
pub const fn file(file: File) -> Bitboard {
    Bitboard(tables::FILES[file.index()])
}

/// The squares of `rank`, as the generated table has them.
///
/// ```
/// use bitboards::{masks, Rank, Square};
///
/// assert!(masks::rank(Rank::Sixth).contains(Square::C6));
/// ```
#[inline]
#[must_use]
pub const fn rank(rank: Rank) -> Bitboard {
    Bitboard(tables::RANKS[rank.index()])
}

/// The diagonal through `square` running up to the right (a1-h8 direction).
///
/// ```
/// use bitboards::{bitboard, masks, Square};
///
/// assert_eq!(masks::diagonal(Square::C1), bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . . . X
///     5 . . . . . . X .
///     4 . . . . . X . .
///     3 . . . . X . . .
///     2 . . . X . . . .
///     1 . . X . . . . .
///       a b c d e f g h
/// });
/// ```
#[inline]
#[must_use]
pub const fn diagonal(square: Square) -> Bitboard {
    Bitboard(tables::DIAGONALS[7 + square.rank().index() - square.file().index()])
}

/// The diagonal through `square` running up to the left (h1-a8 direction).
///
/// ```
/// use bitboards::{bitboard, masks, Square};
///
/// assert_eq!(masks::anti_diagonal(Square::C1), bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . . . .
///     5 . . . . . . . .
///     4 . . . . . . . .
///     3 X . . . . . . .
///     2 . X . . . . . .
///     1 . . X . . . . .
///       a b c d e f g h
/// });
/// ```
#[inline]
#[must_use]
pub const fn anti_diagonal(square: Square) -> Bitboard {
    Bitboard(tables::ANTI_DIAGONALS[square.rank().index() + square.file().index()])
}

macro_rules! indexed_masks {
    ($table:ident: $($name:ident = $index:literal, $what:literal;)*) => {$(
        #[doc = concat!("The squares of ", $what, ".")]
        ///
        /// ```
        #[doc = concat!("assert_eq!(bitboards::masks::", stringify!($name), ".count(), 8);")]
        /// ```
        pub const $name: Bitboard = Bitboard(tables::$table[$index]);
    )*};
}

indexed_masks! { FILES:
    FILE_A = 0, "file a"; FILE_B = 1, "file b"; FILE_C = 2, "file c"; FILE_D = 3, "file d";
    FILE_E = 4, "file e"; FILE_F = 5, "file f"; FILE_G = 6, "file g"; FILE_H = 7, "file h";
}

indexed_masks! { RANKS:
    RANK_1 = 0, "rank 1"; RANK_2 = 1, "rank 2"; RANK_3 = 2, "rank 3"; RANK_4 = 3, "rank 4";
    RANK_5 = 4, "rank 5"; RANK_6 = 5, "rank 6"; RANK_7 = 6, "rank 7"; RANK_8 = 7, "rank 8";
}

// The named regions (`CENTER`, `LIGHT_SQUARES`, ...) as `Bitboard`s: the
// generator writes one per region in its registry, with its doc and example.
pub use crate::tables::regions::*;
