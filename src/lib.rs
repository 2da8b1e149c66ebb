//! Chess bitboards whose every lookup table was computed ahead of time.
//!
//! A [`Bitboard`] is a set of squares in one `u64` (a1 = bit 0, h8 = bit 63).
//! The tables behind [`attacks`], [`masks`], [`between()`] and [`line()`] are
//! plain `static` arrays written by a generator and committed to the
//! repository: there is no initialisation, no lazy static, and no table
//! building at build time or run time. The crate is `no_std`.
//!
//! ```
//! use bitboards::{attacks, bitboard, Bitboard, Square};
//!
//! const KNIGHT_ON_G5_ATTACKS: Bitboard = bitboard! {
//!     8 . . . . . . . .
//!     7 . . . . . X . X
//!     6 . . . . X . . .
//!     5 . . . . . . . .
//!     4 . . . . X . . .
//!     3 . . . . . X . X
//!     2 . . . . . . . .
//!     1 . . . . . . . .
//!       a b c d e f g h
//! };
//! assert_eq!(attacks::knight(Square::G5), KNIGHT_ON_G5_ATTACKS);
//! ```
//!
//! # Features
//! - `macros` (default): the [`bitboard!`] macro.
//! - `names` (default): [`FromName`], `Bitboard::from_name("e4")`.
//! - `regenerate`: build the tables from source in the build script instead
//!   of using the committed copies (same bytes; slower build).
#![no_std]
// The one `unsafe` is the PEXT instruction behind feature `pext`.
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod assertions;
pub mod attacks;
pub mod masks;
mod movegen;
mod moves;
#[cfg(feature = "names")]
mod names;
mod perft;
mod piece;
pub mod position;
mod rules;
pub mod tables;

pub use bitboards_core::{
    Bitboard, Color, Comparison, File, ParseBitboardError, ParseColorError, ParseFileError,
    ParseRankError, ParseSquareError, Rank, Square, SquareIndexError, Squares, Subsets, diagram,
};
#[cfg(feature = "names")]
pub use names::{FromName, UnknownName};
pub use moves::{CastlingNotation, MAX_MOVES, Move, MoveKind, MoveList, Uci};
#[cfg(feature = "parallel")]
pub use perft::perft_parallel;
pub use perft::{Divided, perft, perft_divide};
pub use piece::{ParsePieceError, Piece, PieceKind};
pub use rules::{ParseUciError, WhichSquare};
pub use position::{
    CastlingRights, CastlingSide, Chess960NumberError, Fen, FenError, FenField, FenSyntaxError,
    Position, PositionError, Setup,
};

/// The squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise (and for neighbours or the same square).
///
/// ```
/// use bitboards::{between, bitboard, Square};
///
/// assert_eq!(between(Square::B2, Square::F6), bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . . . .
///     5 . . . . X . . .
///     4 . . . X . . . .
///     3 . . X . . . . .
///     2 . . . . . . . .
///     1 . . . . . . . .
///       a b c d e f g h
/// });
/// assert!(between(Square::A1, Square::B3).is_empty());
/// ```
#[inline]
#[must_use]
pub const fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(tables::BETWEEN[a.index()][b.index()])
}

/// The whole rank, file or diagonal through `a` and `b`, edge to edge; empty
/// when they share none, or are the same square.
///
/// ```
/// use bitboards::{bitboard, line, Square};
///
/// assert_eq!(line(Square::C2, Square::E4), bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . X
///     6 . . . . . . X .
///     5 . . . . . X . .
///     4 . . . . X . . .
///     3 . . . X . . . .
///     2 . . X . . . . .
///     1 . X . . . . . .
///       a b c d e f g h
/// });
/// assert!(line(Square::A1, Square::B3).is_empty());
/// ```
#[inline]
#[must_use]
pub const fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(tables::LINE[a.index()][b.index()])
}

/// A [`Bitboard`] written as an 8x8 diagram, checked at compile time.
///
/// Rank 8 is on top and file a on the left; `X` is a set square and `.` an
/// empty one. Rank labels (`8` down to `1`) in front of the rows and a last
/// row of file labels (`a b c d e f g h`) are optional, and checked when
/// present. This is the grammar of [`diagram`], the same one `Display`
/// prints and `FromStr` reads, so printed output can be pasted back in.
///
/// The expansion is a constant: usable in `const` and `static` items and as
/// a `match` pattern.
///
/// ```
/// use bitboards::{bitboard, Bitboard};
///
/// const WHITE_PAWNS: Bitboard = bitboard! {
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     X X X X X X X X
///     . . . . . . . .
/// };
/// assert_eq!(WHITE_PAWNS, Bitboard(0xFF00));
/// ```
///
/// A mistake is a compile error on the offending token; every mistake in the
/// diagram is reported in the same compile:
///
/// ```compile_fail
/// let board = bitboards::bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . . . .
///     5 . . . . o . . .
///     4 . . . . . . . .
///     3 . . . . . . . .
///     2 . . . . . . . .
///     1 . . . . . . . .
/// };
/// ```
///
/// ```text
/// error: unknown symbol `o`; a cell is `X` (set) or `.` (empty)
///  --> src/main.rs:5:15
///   |
/// 5 |     5 . . . . o . . .
///   |               ^
/// ```
///
/// # How rows are found
///
/// Rows follow source lines, with one exception. A line break ends a row,
/// unless the row has fewer than eight cells and what follows, up to the
/// next line break, fits in the cells it lacks and does not begin with a
/// rank label: then it joins the row. So a cell whose line is not the row's,
/// such as a `macro_rules!` argument (its line is where that macro was
/// called), still lands in its row, while a short row followed by a full one
/// is reported as short. A row that reads `a b c d e f g h` is the
/// file-label row wherever it stands; any other row is a board row until
/// there are eight of them. Comments (`//`, `/* */`) may appear anywhere; a
/// doc comment (`///`) is an error.
///
/// ```
/// use bitboards::{bitboard, Bitboard, Square};
///
/// macro_rules! with_cell {
///     ($cell:tt) => {
///         bitboard! {
///             . . . . . . . .
///             . . . . . . . .
///             . . . . . . . .
///             . . . . . . . .
///             . . . . $cell . . .
///             . . . . . . . .
///             . . . . . . . .
///             . . . . . . . .
///         }
///     };
/// }
/// assert_eq!(with_cell!(X), Square::E4.bitboard());
/// assert_eq!(with_cell!(.), Bitboard::EMPTY);
/// ```
#[cfg(feature = "macros")]
#[macro_export]
macro_rules! bitboard {
    // Answered here rather than by the proc macro, whose error would have
    // nothing of the user's to point at and so would name the hidden macro.
    () => {
        ::core::compile_error!(
            "`bitboard!` needs a diagram: 8 rows of 8 cells, `X` (set) or `.` (empty), rank 8 on top"
        )
    };
    ($($diagram:tt)*) => {
        $crate::Bitboard($crate::__private::bitboard_bits!($($diagram)*))
    };
}

/// A [`Position`] written as a piece-letter diagram, checked at compile
/// time and built in const evaluation.
///
/// (docs to come)
#[cfg(feature = "macros")]
#[macro_export]
macro_rules! position {
    () => {
        ::core::compile_error!(
            "`position!` needs a diagram: 8 rows of 8 cells, a piece letter or `.` (empty), rank 8 on top"
        )
    };
    ($($diagram:tt)*) => {
        {
            // A named constant rather than an inline `const { .. }` block:
            // `cargo check` evaluates constant items, but inline blocks in a
            // function body only when the function is compiled to code, so
            // a broken rule would go unnoticed until `cargo build`.
            const RESULT: ::core::result::Result<$crate::Position, $crate::PositionError> =
                $crate::Position::from_setup($crate::__private::position_setup!($crate $($diagram)*));
            const MESSAGE: $crate::__private::RuleMessage = $crate::__private::RuleMessage::new(&RESULT);
            const POSITION: $crate::Position = match RESULT {
                ::core::result::Result::Ok(position) => position,
                ::core::result::Result::Err(_) => ::core::panic!("{}", MESSAGE.as_str()),
            };
            POSITION
        }
    };
}

#[cfg(feature = "macros")]
#[doc(hidden)]
pub mod __private {
    pub use bitboards_macros::{bitboard_bits, position_setup};

    use crate::{Position, PositionError};

    /// The message `position!` stops const evaluation with when its
    /// position breaks a rule, such as "this position breaks a rule: each
    /// side has exactly one king". `PositionError::rule` alone would read
    /// like a statement about the position, and a const panic prints one
    /// string but cannot format, so the words are put together here.
    pub struct RuleMessage {
        bytes: [u8; 160],
        length: usize,
    }

    impl RuleMessage {
        /// The message for `result`'s error; empty for a position.
        pub const fn new(result: &Result<Position, PositionError>) -> RuleMessage {
            let mut message = RuleMessage {
                bytes: [0; 160],
                length: 0,
            };
            if let Err(error) = result {
                message.push(b"this position breaks a rule: ");
                message.push(error.rule().as_bytes());
            }
            message
        }

        const fn push(&mut self, bytes: &[u8]) {
            let mut index = 0;
            while index < bytes.len() && self.length < self.bytes.len() {
                self.bytes[self.length] = bytes[index];
                self.length += 1;
                index += 1;
            }
        }

        /// The message as text.
        pub const fn as_str(&self) -> &str {
            // The parts are ASCII, so any cut is on a character boundary.
            match core::str::from_utf8(self.bytes.split_at(self.length).0) {
                Ok(text) => text,
                Err(_) => "this position breaks a rule",
            }
        }
    }
}
