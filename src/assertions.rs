//! [`assert_bitboard_eq!`]: a failed bitboard comparison shown as diagrams.

/// Asserts that two [`Bitboard`](crate::Bitboard)s are equal, like
/// `assert_eq!`; when they are not, the panic message draws both boards side
/// by side, with a third diagram marking where they differ (`-` set only on
/// the left, `+` only on the right), and both values in hex.
///
/// Each of the left and right diagrams is in the grammar of `bitboard!`, so
/// the board a failing test printed can be pasted into the next one. An
/// optional message, formatted like `assert_eq!`'s, goes after the operands.
///
/// ```
/// use bitboards::{assert_bitboard_eq, attacks, bitboard, Square};
///
/// assert_bitboard_eq!(attacks::king(Square::A1), bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . . . .
///     5 . . . . . . . .
///     4 . . . . . . . .
///     3 . . . . . . . .
///     2 X X . . . . . .
///     1 . X . . . . . .
///       a b c d e f g h
/// }, "king steps from {}", Square::A1);
/// ```
///
/// A failure, here with a knight attack forgotten on c2:
///
/// ```should_panic
/// use bitboards::{assert_bitboard_eq, attacks, Square};
///
/// assert_bitboard_eq!(attacks::knight(Square::A1), Square::B3.bitboard());
/// ```
///
/// panics with:
///
/// ```text
/// assertion `left == right` failed
/// left                 right                difference (- left only, + right only)
/// 8 . . . . . . . .    8 . . . . . . . .    8 . . . . . . . .
/// 7 . . . . . . . .    7 . . . . . . . .    7 . . . . . . . .
/// 6 . . . . . . . .    6 . . . . . . . .    6 . . . . . . . .
/// 5 . . . . . . . .    5 . . . . . . . .    5 . . . . . . . .
/// 4 . . . . . . . .    4 . . . . . . . .    4 . . . . . . . .
/// 3 . X . . . . . .    3 . X . . . . . .    3 . . . . . . . .
/// 2 . . X . . . . .    2 . . . . . . . .    2 . . - . . . . .
/// 1 . . . . . . . .    1 . . . . . . . .    1 . . . . . . . .
///   a b c d e f g h      a b c d e f g h      a b c d e f g h
/// left:  Bitboard(0x0000000000020400)
/// right: Bitboard(0x0000000000020000)
/// ```
///
/// Why a macro rather than a different `Debug`: `{:?}` stays the one-line
/// `Bitboard(0x...)`, because a bitboard is often printed inside something
/// larger (a position, a list of boards, a tuple) where an 8-line diagram
/// per field would bury the rest; `{:#?}` already draws one diagram. This
/// macro is for the moment a reader compares two boards.
///
/// Both operands must be `Bitboard`s; like `assert_eq!`, they are taken by
/// reference and each is evaluated once.
#[macro_export]
macro_rules! assert_bitboard_eq {
    ($left:expr, $right:expr $(,)?) => {
        match (&$left, &$right) {
            (left, right) => {
                let (left, right): (&$crate::Bitboard, &$crate::Bitboard) = (left, right);
                if *left != *right {
                    ::core::panic!(
                        "assertion `left == right` failed\n{}",
                        $crate::Bitboard::compare(*left, *right)
                    );
                }
            }
        }
    };
    ($left:expr, $right:expr, $($message:tt)+) => {
        match (&$left, &$right) {
            (left, right) => {
                let (left, right): (&$crate::Bitboard, &$crate::Bitboard) = (left, right);
                if *left != *right {
                    ::core::panic!(
                        "assertion `left == right` failed: {}\n{}",
                        ::core::format_args!($($message)+),
                        $crate::Bitboard::compare(*left, *right)
                    );
                }
            }
        }
    };
}
