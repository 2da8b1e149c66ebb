//! The chess types shared by the `bitboards` runtime crate, its table
//! generator and its `bitboard!` macro: [`Square`], [`File`], [`Rank`],
//! [`Color`], [`Bitboard`], and the [`diagram`] grammar.
//!
//! This crate holds no lookup tables and has no dependencies (with feature
//! `serde`, one: `serde`, without its derive). Everything is `no_std` and,
//! where the language allows, `const fn`.
//!
//! ```
//! use bitboards_core::{Bitboard, Square};
//!
//! let board: Bitboard = "
//!     8 . . . . . . . .
//!     7 . . . . . . . .
//!     6 . . . . . . . .
//!     5 . . . . . . . .
//!     4 . . . . X . . .
//!     3 . . . . . . . .
//!     2 . . . . . . . .
//!     1 . . . . . . . .
//!       a b c d e f g h
//! ".parse().unwrap();
//! assert_eq!(board, Square::E4.bitboard());
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bitboard;
mod comparison;
pub mod diagram;
mod piece;
pub mod placement;
#[cfg(feature = "serde")]
mod serde_impls;
mod setup;
mod square;

pub use bitboard::{Bitboard, Squares, Subsets};
pub use comparison::Comparison;
pub use diagram::ParseBitboardError;
pub use piece::{ParsePieceError, Piece, PieceKind};
pub use placement::PositionError;
pub use setup::{CastlingLetter, CastlingRights, CastlingSide, Setup};
pub use square::{
    Color, File, ParseColorError, ParseFileError, ParseRankError, ParseSquareError, Rank, Square,
    SquareIndexError,
};
