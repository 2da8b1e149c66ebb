//! This crate depends on `bitboards` renamed to `chessboard`, so no path
//! `::bitboards` exists here: `bitboard!` and `position!` must expand
//! through `$crate`.
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

/// Two kings and a rook, written with the renamed crate's `position!`.
pub const ROOK_ENDING: chessboard::Position = chessboard::position! {
    . . . . k . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    R . . . K . . .
    ; w Q -
};

#[cfg(test)]
mod tests {
    #[test]
    fn the_macro_resolves_the_renamed_crate() {
        assert_eq!(super::H1, chessboard::Square::H1.bitboard());
        assert_eq!(super::H1.0, 1 << 7);
    }

    #[test]
    fn position_resolves_the_renamed_crate() {
        let rook = super::ROOK_ENDING.piece_on(chessboard::Square::A1);
        assert_eq!(rook, Some(chessboard::Piece::WhiteRook));
        assert_eq!(super::ROOK_ENDING.castling().count(), 1);
    }
}
