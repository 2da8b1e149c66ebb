//! [`Comparison`]: two bitboards drawn side by side, with their differences.

use core::fmt;

use crate::{Bitboard, File, Rank, Square};

/// Two bitboards drawn side by side for a reader to compare, from
/// [`Bitboard::compare`]; what `assert_bitboard_eq!` prints when it fails.
///
/// Three diagrams in a row: `left`, `right`, and their difference, where `-`
/// marks a square set only on the left, `+` one set only on the right, and
/// `.` a square on which they agree. Below them, both boards as Rust
/// expressions. The left and right diagrams are in the grammar `bitboard!`
/// reads: select one (a block selection in most editors) and paste it into
/// the next test. Drawing writes straight to the formatter, without
/// allocating.
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// let comparison = Square::E4.bitboard().compare(Square::E4 | Square::D5);
/// assert_eq!(comparison.to_string(), "\
/// left                 right                difference (- left only, + right only)
/// 8 . . . . . . . .    8 . . . . . . . .    8 . . . . . . . .
/// 7 . . . . . . . .    7 . . . . . . . .    7 . . . . . . . .
/// 6 . . . . . . . .    6 . . . . . . . .    6 . . . . . . . .
/// 5 . . . . . . . .    5 . . . X . . . .    5 . . . + . . . .
/// 4 . . . . X . . .    4 . . . . X . . .    4 . . . . . . . .
/// 3 . . . . . . . .    3 . . . . . . . .    3 . . . . . . . .
/// 2 . . . . . . . .    2 . . . . . . . .    2 . . . . . . . .
/// 1 . . . . . . . .    1 . . . . . . . .    1 . . . . . . . .
///   a b c d e f g h      a b c d e f g h      a b c d e f g h
/// left:  Bitboard(0x0000000010000000)
/// right: Bitboard(0x0000000810000000)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Comparison {
    left: Bitboard,
    right: Bitboard,
}

impl Bitboard {
    /// Draws `self` (left) and `other` (right) side by side with a third
    /// diagram of the squares where they differ; see [`Comparison`].
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// let text = Bitboard::EMPTY.compare(Square::A1.bitboard()).to_string();
    /// assert!(text.contains("1 . . . . . . . .    1 X . . . . . . .    1 + . . . . . . ."));
    /// ```
    #[inline]
    #[must_use]
    pub const fn compare(self, other: Bitboard) -> Comparison {
        Comparison {
            left: self,
            right: other,
        }
    }
}

/// The space between two diagrams, wide enough that a block selection of
/// one diagram is easy to make.
const GAP: &str = "    ";
/// A diagram row is a rank label and eight cells of two characters each.
const DIAGRAM_WIDTH: usize = 17;

impl Comparison {
    /// The cell of `square` in the difference diagram.
    fn difference_cell(&self, square: Square) -> char {
        match (self.left.contains(square), self.right.contains(square)) {
            (true, false) => '-',
            (false, true) => '+',
            _ => '.',
        }
    }
}

/// One diagram row: the rank label, then a cell per file.
fn write_row(f: &mut fmt::Formatter<'_>, rank: Rank, cell: impl Fn(Square) -> char) -> fmt::Result {
    write!(f, "{rank}")?;
    for file in File::ALL {
        write!(f, " {}", cell(Square::from_file_rank(file, rank)))?;
    }
    Ok(())
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Each title over the rank labels of its diagram.
        let stride = DIAGRAM_WIDTH + GAP.len();
        for title in ["left", "right"] {
            write!(f, "{title:<stride$}")?;
        }
        f.write_str("difference (- left only, + right only)\n")?;
        let set = |board: Bitboard| move |square| if board.contains(square) { 'X' } else { '.' };
        for rank in Rank::ALL.into_iter().rev() {
            write_row(f, rank, set(self.left))?;
            f.write_str(GAP)?;
            write_row(f, rank, set(self.right))?;
            f.write_str(GAP)?;
            write_row(f, rank, |square| self.difference_cell(square))?;
            f.write_str("\n")?;
        }
        let files = "  a b c d e f g h";
        writeln!(f, "{files}{GAP}{files}{GAP}{files}")?;
        writeln!(f, "left:  {:?}", self.left)?;
        write!(f, "right: {:?}", self.right)
    }
}
