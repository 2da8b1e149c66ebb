//! This crate depends on `bitboards` renamed to `chessboard`, so no path
//! `::bitboards` exists here: `bitboard!` must expand through `$crate`.
#![no_std]

/// The h1 corner, written with the renamed crate's macro.
pub const H1: chessboard::Bitboard = chessboard::bitboard! {
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . X
};

#[cfg(test)]
mod tests {
    #[test]
    fn the_macro_resolves_the_renamed_crate() {
        assert_eq!(super::H1, chessboard::Square::H1.bitboard());
        assert_eq!(super::H1.0, 1 << 7);
    }
}
