//! Where the editor draws what: the layout is fixed (80 columns by 19 rows,
//! from the top-left corner), so a mouse position maps to a square without
//! knowing what was drawn. The state machine (for mouse clicks) and the
//! view (for drawing) both read it here.

use bitboards::{File, Rank, Square};

/// The smallest terminal the editor draws in.
pub const MIN_WIDTH: u16 = 80;
/// The smallest terminal the editor draws in.
pub const MIN_HEIGHT: u16 = 19;

pub(crate) const BOARD_LEFT: u16 = 1;
pub(crate) const BOARD_TOP: u16 = 1;
pub(crate) const PANEL_LEFT: u16 = 23;
pub(crate) const NUMBERS_TOP: u16 = 11;
pub(crate) const LABEL_LEFT: u16 = 1;
pub(crate) const VALUE_LEFT: u16 = 9;

/// The square drawn at a screen cell, if any. A square covers its symbol
/// and the space after it, so every column of the board is clickable.
pub(crate) fn square_at(column: u16, row: u16) -> Option<Square> {
    let first_cell = BOARD_LEFT + 2;
    let file = column.checked_sub(first_cell)? / 2;
    let rank_from_top = row.checked_sub(BOARD_TOP)?;
    let file = File::new(u8::try_from(file).ok()?)?;
    let rank = Rank::new(7u8.checked_sub(u8::try_from(rank_from_top).ok()?)?)?;
    Some(Square::from_file_rank(file, rank))
}

/// The screen cell where `square`'s symbol is drawn.
pub(crate) fn cell_position(square: Square) -> (u16, u16) {
    let file = square.file().index() as u16;
    let rank = square.rank().index() as u16;
    (BOARD_LEFT + 2 + 2 * file, BOARD_TOP + 7 - rank)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_maps_back_from_its_cell_and_the_space_after_it() {
        for square in Square::ALL {
            let (column, row) = cell_position(square);
            assert_eq!(square_at(column, row), Some(square));
            assert_eq!(square_at(column + 1, row), Some(square));
        }
    }

    #[test]
    fn cells_off_the_board_map_to_no_square() {
        assert_eq!(square_at(0, 1), None);
        assert_eq!(square_at(BOARD_LEFT + 1, 1), None);
        assert_eq!(square_at(BOARD_LEFT + 18, 1), None);
        assert_eq!(square_at(5, 0), None);
        assert_eq!(square_at(5, BOARD_TOP + 8), None);
        assert_eq!(square_at(u16::MAX, u16::MAX), None);
    }
}
