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
//! - `macros` (default): the [`bitboard!`] and [`position!`] macros.
//! - `names` (default): [`FromName`], `Bitboard::from_name("e4")`.
//! - `std` (default): perft detects POPCNT at run time, `Book::open` reads
//!   a file; implies `alloc`. PGN is the `bitboards-pgn` crate.
//! - `alloc` (default through `std`): [`epd`] and [`Game`], which own their
//!   text and moves, and `book::BookWriter` (the `alloc` crate, not `std`).
//! - `serde`: `Serialize`/`Deserialize` for squares, boards, moves (UCI),
//!   positions (FEN, checked when read) and outcomes.
//! - `parallel`: `perft_parallel`, perft over rayon's thread pool (brings in
//!   `std`).
//! - `pext`: slider lookups by PEXT in `attacks::pext` (x86-64 with BMI2
//!   only; a compile error elsewhere says how to enable it).
//! - `compact`: [`attacks::rook`], `bishop` and `queen` from 9 KB of
//!   kindergarten tables instead of the 710 KB magics, for WebAssembly and
//!   small targets.
//! - `regenerate`: build the tables from source in the build script instead
//!   of using the committed copies (same bytes; slower build).
//!
//! The Polyglot opening book reader ([`book::Book`]) needs no feature.
#![no_std]
// `unsafe` appears twice, each allowed where it stands with its proof: the
// PEXT instruction behind feature `pext`, and perft's call into code compiled
// for POPCNT once the CPU was found to have it (`perft::popcnt`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod any_setup;
mod assertions;
pub mod attacks;
pub mod book;
#[cfg(feature = "alloc")]
pub mod epd;
#[cfg(feature = "alloc")]
mod game;
pub mod masks;
mod moves;
#[cfg(feature = "names")]
mod names;
mod perft;
pub mod position;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod tables;

pub use any_setup::{AnyFenError, AnySetup, SetupStatus};
pub use bitboards_core::{
    Bitboard, Color, Comparison, File, ParseBitboardError, ParseColorError, ParseFileError,
    ParsePieceError, ParseRankError, ParseSquareError, Piece, PieceKind, Rank, Square,
    SquareIndexError, Squares, Subsets, diagram,
};
#[cfg(feature = "alloc")]
pub use epd::{Epd, EpdError, EpdErrorKind, Operation};
#[cfg(feature = "alloc")]
pub use game::{Game, Outcome, Repetitions};
pub use moves::{CastlingNotation, MAX_MOVES, Move, MoveKind, MoveList, MoveListIntoIter, Uci};
#[cfg(feature = "names")]
pub use names::{FromName, UnknownName};
#[allow(deprecated)]
pub use perft::Divided;
#[cfg(feature = "parallel")]
pub use perft::perft_parallel;
pub use perft::{RootMoveCounts, perft, perft_divide, perft_divide_with};
pub use position::{
    CastlingRights, CastlingSide, Chess960NumberError, Fen, FenError, FenField, FenSyntaxError,
    FenText, Position, PositionError, SEE_VALUES, Setup, Validation,
};
pub use position::{IllegalMoveError, ParseUciError, WhichSquare};
pub use position::{San, SanError, SanSyntax, Suffix};

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
/// time: a constant, usable in `const` and `static` items.
///
/// The diagram is [`bitboard!`]'s with pieces for cells: rank 8 on top, a
/// piece's FEN letter (`PNBRQK` White, `pnbrqk` Black) or `.` for an empty
/// square, cells apart or together, rank labels and a row of file labels
/// optional and checked when present. What `Position`'s `Display` prints
/// above its FEN line can be pasted in.
///
/// ```
/// use bitboards::{position, Position};
///
/// const START: Position = position! {
///     8 r n b q k b n r
///     7 p p p p p p p p
///     6 . . . . . . . .
///     5 . . . . . . . .
///     4 . . . . . . . .
///     3 . . . . . . . .
///     2 P P P P P P P P
///     1 R N B Q K B N R
///       a b c d e f g h
///     ; w KQkq -
/// };
/// assert_eq!(START, Position::START);
/// ```
///
/// # The fields after the diagram
///
/// A `;` ends the diagram. After it come FEN's fields, each optional from
/// the end: the side to move (`w` or `b`; White when left out), castling
/// rights (`KQkq` for the outermost rook on each side, a rook's file letter
/// as in X-FEN and Shredder-FEN such as `HAha`, or `-`; none when left out),
/// the en passant square (`e3` or `-`), the halfmove clock and the fullmove
/// number (0 and 1 when left out). They mean what they mean in
/// [`Position::from_fen`], which reads the same position:
///
/// ```
/// use bitboards::{position, Position};
///
/// static KIWIPETE: Position = position! {
///     r . . . k . . r
///     p . p p q p b .
///     b n . . p n p .
///     . . . P N . . .
///     . p . . P . . .
///     . . N . . Q . p
///     P P P B B P P P
///     R . . . K . . R
///     ; w KQkq -
/// };
/// let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// assert_eq!(KIWIPETE, Position::from_fen(fen)?);
///
/// // Chess960, Black to move, Shredder-FEN castling and both clocks.
/// let chess960 = position! {
///     rqkbbr.n
///     p...pppp
///     ..p.....
///     .p.p.n..
///     P.P.....
///     R......P
///     .P.PPPP.
///     .QKBBRNN
///     ; b Ffa - 1 6
/// };
/// assert_eq!(chess960, Position::from_fen("rqkbbr1n/p3pppp/2p5/1p1p1n2/P1P5/R6P/1P1PPPP1/1QKBBRNN b Ffa - 1 6")?);
/// # Ok::<(), bitboards::FenError>(())
/// ```
///
/// # Errors
///
/// The position must follow every rule of [`PositionError`], as one read
/// from a FEN does. A mistake in the diagram or a field is a compile error
/// on its token, and so is a broken rule that the pieces' squares alone
/// show: a side without exactly one king (at the second king), a pawn on
/// the first or last rank, more material than a game can give (at the piece
/// that exceeds it), a castling right without its king or rook (at the
/// castling field), an en passant square that no double push can explain
/// (at the square), a fullmove number of 0. Every such error in the macro is
/// reported in the same compile:
///
/// ```compile_fail
/// let position = bitboards::position! {
///     8 . . . . k . . .
///     7 . . . . . . . .
///     6 . . . . . . . .
///     5 . . . . . . . .
///     4 . . . . . . . .
///     3 . . . . . . . .
///     2 . . . . . . . .
///     1 . . . . K . . P
///     ; w K -
/// };
/// ```
///
/// ```text
/// error: a white pawn on h1: pawns never stand on the first or last rank
///  --> src/main.rs:9:21
///   |
/// 9 |     1 . . . . K . . P
///   |                     ^
///
/// error: white's king-side castling right needs a white rook on h1, on that side of the king
///   --> src/main.rs:10:9
///    |
/// 10 |     ; w K -
///    |         ^
/// ```
///
/// The rules on check need the attack tables, which the macro, compiled
/// before this crate, cannot use. [`Position::from_setup`] checks them in
/// const evaluation, and a broken one stops the compile at the macro with
/// the rule and its squares, as `Position::from_fen` says it:
///
/// ```compile_fail
/// // White to move, with Black's king attacked by the rook.
/// let position = bitboards::position! {
///     . . . . k . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . R . K .
/// };
/// ```
///
/// ```text
/// error[E0080]: evaluation panicked: the side not to move is in check (the king on e8 is attacked from e1)
/// ```
///
/// Rows are found as [`bitboard!`] finds them, so a piece passed in from
/// another macro's argument lands in its row:
///
/// ```
/// use bitboards::{position, Piece, Square};
///
/// macro_rules! with_piece_on_e4 {
///     ($piece:tt) => {
///         position! {
///             . . . . k . . .
///             . . . . . . . .
///             . . . . . . . .
///             . . . . . . . .
///             . . . . $piece . . .
///             . . . . . . . .
///             . . . . . . . .
///             . . . . K . . .
///         }
///     };
/// }
/// assert_eq!(with_piece_on_e4!(N).piece_on(Square::E4), Some(Piece::WhiteKnight));
/// ```
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
            // Named constants rather than an inline `const { .. }` block:
            // `cargo check` evaluates constant items, but inline blocks in a
            // function body only when the function is compiled to code, so
            // a broken rule would go unnoticed until `cargo build`. The
            // names are ones no variable has: rustc's warnings suggest a
            // constant named like an unused variable.
            const CHECKED_SETUP: ::core::result::Result<$crate::Position, $crate::PositionError> =
                $crate::Position::from_setup($crate::__private::position_setup!($crate $($diagram)*));
            const BROKEN_RULE: $crate::__private::RuleMessage =
                $crate::__private::RuleMessage::new(&CHECKED_SETUP);
            const POSITION_LITERAL: $crate::Position = match CHECKED_SETUP {
                ::core::result::Result::Ok(position) => position,
                ::core::result::Result::Err(_) => ::core::panic!("{}", BROKEN_RULE.as_str()),
            };
            POSITION_LITERAL
        }
    };
}

#[cfg(feature = "macros")]
#[doc(hidden)]
pub mod __private {
    pub use bitboards_macros::{bitboard_bits, position_setup};

    use crate::{Position, PositionError};

    /// The message `position!` stops const evaluation with when its
    /// position breaks a rule on checks (the macro reports every other rule
    /// on its token): `PositionError`'s own message, squares and all, as
    /// `Position::from_fen` writes it. A const panic prints one string but
    /// cannot format, so the message is built by a `const fn`.
    pub struct RuleMessage(Option<bitboards_core::placement::Message>);

    impl RuleMessage {
        /// The message for `result`'s error; empty for a position.
        pub const fn new(result: &Result<Position, PositionError>) -> RuleMessage {
            match result {
                Ok(_) => RuleMessage(None),
                Err(error) => RuleMessage(Some(error.message())),
            }
        }

        /// The message as text.
        pub const fn as_str(&self) -> &str {
            match &self.0 {
                Some(message) => message.as_str(),
                None => "",
            }
        }
    }
}

/// The README's Rust examples run as doc tests, so that what a newcomer
/// reads first compiles and holds.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

/// The guide's Rust examples (docs/guide.md) run as doc tests too.
#[cfg(doctest)]
#[doc = include_str!("../docs/guide.md")]
struct GuideExamples;
