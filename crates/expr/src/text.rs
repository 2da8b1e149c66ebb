//! How a board is written out for people, shared by the command and the web
//! page so that both print the same text.

use bitboards::Bitboard;

/// `0x` and 16 hex digits.
///
/// ```
/// use bitboards_expr::text::hex;
///
/// assert_eq!(hex(0x0400_0000), "0x0000000004000000");
/// ```
#[must_use]
pub fn hex(number: u64) -> String {
    format!("{number:#018x}")
}

/// A `bitboard!` invocation that evaluates to `board`, ready to paste into
/// Rust.
///
/// ```
/// use bitboards::Square;
/// use bitboards_expr::text::literal;
///
/// let text = literal(Square::E4.bitboard());
/// assert!(text.starts_with("bitboard! {\n    8 . . . . . . . .\n"));
/// assert!(text.contains("\n    4 . . . . X . . .\n"));
/// assert!(text.ends_with("\n      a b c d e f g h\n}"));
/// ```
#[must_use]
pub fn literal(board: Bitboard) -> String {
    let mut out = String::from("bitboard! {\n");
    for line in board.to_string().lines() {
        out.push_str("    ");
        out.push_str(line);
        out.push('\n');
    }
    out.push('}');
    out
}
