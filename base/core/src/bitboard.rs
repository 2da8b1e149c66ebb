//! The [`Bitboard`] type: a set of squares in one `u64`.

use core::fmt;
use core::iter::FusedIterator;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, ShlAssign, Shr,
    ShrAssign, Sub, SubAssign,
};
use core::str::FromStr;

use crate::diagram::{self, ParseBitboardError};
use crate::{File, Rank, Square};

/// A set of squares: bit `n` of the `u64` is set when square `n` (a1 = 0,
/// h8 = 63) is in the set.
///
/// `Display` draws the board, rank 8 on top, and `FromStr` reads the same
/// drawing back (see [`diagram`] for the grammar), or a number such as
/// `0xff00`:
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// let pawns = Bitboard(0x0000_0000_0000_FF00);
/// assert_eq!(pawns.to_string(), "\
/// 8 . . . . . . . .
/// 7 . . . . . . . .
/// 6 . . . . . . . .
/// 5 . . . . . . . .
/// 4 . . . . . . . .
/// 3 . . . . . . . .
/// 2 X X X X X X X X
/// 1 . . . . . . . .
///   a b c d e f g h");
/// assert_eq!(pawns.to_string().parse(), Ok(pawns));
/// assert!(pawns.contains(Square::E2));
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bitboard(pub u64);

const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;

impl Bitboard {
    /// No squares.
    ///
    /// ```
    /// assert!(bitboards_core::Bitboard::EMPTY.is_empty());
    /// ```
    pub const EMPTY: Bitboard = Bitboard(0);

    /// All 64 squares.
    ///
    /// ```
    /// assert_eq!(bitboards_core::Bitboard::FULL.count(), 64);
    /// ```
    pub const FULL: Bitboard = Bitboard(!0);

    /// Whether `square` is in the set.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert!(Square::B7.bitboard().contains(Square::B7));
    /// assert!(!Square::B7.bitboard().contains(Square::B6));
    /// ```
    #[inline]
    #[must_use]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & square.bitboard().0 != 0
    }

    /// Whether no square is set.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// assert!(Bitboard::EMPTY.is_empty());
    /// assert!(!Square::A1.bitboard().is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many squares are set.
    ///
    /// ```
    /// use bitboards_core::Bitboard;
    ///
    /// assert_eq!(Bitboard(0xFF00).count(), 8);
    /// ```
    #[inline]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether more than one square is set.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// assert!(!Square::C3.bitboard().has_more_than_one());
    /// assert!(Bitboard(0b11).has_more_than_one());
    /// ```
    #[inline]
    #[must_use]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest set square (nearest a1), or `None` when empty.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// assert_eq!(Bitboard(0xFF00).first(), Some(Square::A2));
    /// assert_eq!(Bitboard::EMPTY.first(), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// The highest set square (nearest h8), or `None` when empty.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// assert_eq!(Bitboard(0xFF00).last(), Some(Square::H2));
    /// assert_eq!(Bitboard::EMPTY.last(), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::new(63 - self.0.leading_zeros() as u8)
        }
    }

    /// Removes and returns the lowest set square, or `None` when empty.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// let mut board = Bitboard(0b101);
    /// assert_eq!(board.pop(), Some(Square::A1));
    /// assert_eq!(board.pop(), Some(Square::C1));
    /// assert_eq!(board.pop(), None);
    /// ```
    #[inline]
    pub const fn pop(&mut self) -> Option<Square> {
        let square = self.first();
        self.0 &= self.0.wrapping_sub(1);
        square
    }

    /// Removes and returns the highest set square, or `None` when empty.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// let mut board = Bitboard(0b101);
    /// assert_eq!(board.pop_last(), Some(Square::C1));
    /// assert_eq!(board.pop_last(), Some(Square::A1));
    /// assert_eq!(board.pop_last(), None);
    /// ```
    #[inline]
    pub const fn pop_last(&mut self) -> Option<Square> {
        let square = self.last();
        if let Some(square) = square {
            self.0 ^= square.bitboard().0;
        }
        square
    }

    /// The one set square when exactly one is set; `None` when the set is
    /// empty or has two or more squares.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// assert_eq!(Square::F6.bitboard().single_square(), Some(Square::F6));
    /// assert_eq!(Bitboard::EMPTY.single_square(), None);
    /// assert_eq!((Square::F6 | Square::F7).single_square(), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn single_square(self) -> Option<Square> {
        if self.has_more_than_one() {
            None
        } else {
            self.first()
        }
    }

    /// Whether every square of `self` is also in `other`. The empty set is a
    /// subset of every set.
    ///
    /// ```
    /// use bitboards_core::{Rank, Square};
    ///
    /// assert!(Square::E2.bitboard().is_subset(Rank::Second.bitboard()));
    /// assert!(!Rank::Second.bitboard().is_subset(Square::E2.bitboard()));
    /// ```
    #[inline]
    #[must_use]
    pub const fn is_subset(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether every square of `other` is also in `self`.
    ///
    /// ```
    /// use bitboards_core::{File, Square};
    ///
    /// assert!(File::E.bitboard().is_superset(Square::E4 | Square::E5));
    /// assert!(!File::E.bitboard().is_superset(Square::E4 | Square::D4));
    /// ```
    #[inline]
    #[must_use]
    pub const fn is_superset(self, other: Bitboard) -> bool {
        other.is_subset(self)
    }

    /// Whether `self` and `other` have no square in common.
    ///
    /// ```
    /// use bitboards_core::{File, Square};
    ///
    /// assert!(File::A.bitboard().is_disjoint(File::H.bitboard()));
    /// assert!(!File::A.bitboard().is_disjoint(Square::A4.bitboard()));
    /// ```
    #[inline]
    #[must_use]
    pub const fn is_disjoint(self, other: Bitboard) -> bool {
        self.0 & other.0 == 0
    }

    /// Adds `square` to the set.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// let mut board = Bitboard::EMPTY;
    /// board.set(Square::H8);
    /// assert_eq!(board, Bitboard(1 << 63));
    /// ```
    #[inline]
    pub const fn set(&mut self, square: Square) {
        self.0 |= square.bitboard().0;
    }

    /// Removes `square` from the set.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// let mut board = Bitboard::FULL;
    /// board.clear(Square::A1);
    /// assert_eq!(board.count(), 63);
    /// ```
    #[inline]
    pub const fn clear(&mut self, square: Square) {
        self.0 &= !square.bitboard().0;
    }

    /// Adds `square` if it is absent, removes it if present.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// let mut board = Bitboard::EMPTY;
    /// board.toggle(Square::E4);
    /// assert!(board.contains(Square::E4));
    /// board.toggle(Square::E4);
    /// assert!(board.is_empty());
    /// ```
    #[inline]
    pub const fn toggle(&mut self, square: Square) {
        self.0 ^= square.bitboard().0;
    }

    /// The squares in both sets: `self & other`, usable in `const`.
    ///
    /// ```
    /// use bitboards_core::Bitboard;
    ///
    /// assert_eq!(Bitboard(0b110).intersection(Bitboard(0b011)), Bitboard(0b010));
    /// ```
    #[inline]
    #[must_use]
    pub const fn intersection(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    /// The squares in either set: `self | other`, usable in `const`.
    ///
    /// ```
    /// use bitboards_core::Bitboard;
    ///
    /// assert_eq!(Bitboard(0b100).union(Bitboard(0b001)), Bitboard(0b101));
    /// ```
    #[inline]
    #[must_use]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// The squares in exactly one of the sets: `self ^ other`, usable in
    /// `const`.
    ///
    /// ```
    /// use bitboards_core::Bitboard;
    ///
    /// assert_eq!(Bitboard(0b110).symmetric_difference(Bitboard(0b011)), Bitboard(0b101));
    /// ```
    #[inline]
    #[must_use]
    pub const fn symmetric_difference(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ other.0)
    }

    /// The squares of `self` that are not in `other`: `self - other`, usable
    /// in `const`.
    ///
    /// ```
    /// use bitboards_core::Bitboard;
    ///
    /// assert_eq!(Bitboard(0b110).difference(Bitboard(0b011)), Bitboard(0b100));
    /// ```
    #[inline]
    #[must_use]
    pub const fn difference(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// The squares not in the set: `!self`, usable in `const`.
    ///
    /// ```
    /// use bitboards_core::Bitboard;
    ///
    /// assert_eq!(Bitboard::EMPTY.complement(), Bitboard::FULL);
    /// ```
    #[inline]
    #[must_use]
    pub const fn complement(self) -> Bitboard {
        Bitboard(!self.0)
    }

    /// Every square moved one rank up (towards rank 8); rank 8 falls off.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.bitboard().north(), Square::E5.bitboard());
    /// assert!(Square::E8.bitboard().north().is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Every square moved one rank down (towards rank 1); rank 1 falls off.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.bitboard().south(), Square::E3.bitboard());
    /// assert!(Square::E1.bitboard().south().is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Every square moved one file right (towards file h); file h falls off
    /// rather than wrapping to file a.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.bitboard().east(), Square::F4.bitboard());
    /// assert!(Square::H4.bitboard().east().is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 << 1) & NOT_FILE_A)
    }

    /// Every square moved one file left (towards file a); file a falls off
    /// rather than wrapping to file h.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.bitboard().west(), Square::D4.bitboard());
    /// assert!(Square::A4.bitboard().west().is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 >> 1) & NOT_FILE_H)
    }

    /// One step up and right; nothing wraps around an edge.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.bitboard().north_east(), Square::F5.bitboard());
    /// assert!(Square::H4.bitboard().north_east().is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub const fn north_east(self) -> Bitboard {
        Bitboard((self.0 << 9) & NOT_FILE_A)
    }

    /// One step up and left; nothing wraps around an edge.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.bitboard().north_west(), Square::D5.bitboard());
    /// assert!(Square::A4.bitboard().north_west().is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub const fn north_west(self) -> Bitboard {
        Bitboard((self.0 << 7) & NOT_FILE_H)
    }

    /// One step down and right; nothing wraps around an edge.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.bitboard().south_east(), Square::F3.bitboard());
    /// assert!(Square::H4.bitboard().south_east().is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub const fn south_east(self) -> Bitboard {
        Bitboard((self.0 >> 7) & NOT_FILE_A)
    }

    /// One step down and left; nothing wraps around an edge.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.bitboard().south_west(), Square::D3.bitboard());
    /// assert!(Square::A4.bitboard().south_west().is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub const fn south_west(self) -> Bitboard {
        Bitboard((self.0 >> 9) & NOT_FILE_H)
    }

    /// The board turned upside down: rank 1 swaps with rank 8, a1 with a8.
    ///
    /// For porting code written for a numbering with a8 = 0 (rank 8 first).
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::B2.bitboard().flip_ranks(), Square::B7.bitboard());
    /// ```
    #[inline]
    #[must_use]
    pub const fn flip_ranks(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// The board mirrored left to right: file a swaps with file h, a1 with h1.
    ///
    /// For porting code written for a numbering with h1 = 0 (a1 at bit 7).
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::B2.bitboard().mirror_files(), Square::G2.bitboard());
    /// ```
    #[inline]
    #[must_use]
    pub const fn mirror_files(self) -> Bitboard {
        // Reversing all 64 bits mirrors files and flips ranks; flipping the
        // ranks back leaves only the mirror.
        Bitboard(self.0.reverse_bits().swap_bytes())
    }

    /// The board flipped about the a1-h8 diagonal: file and rank trade
    /// places, so b1 goes to a2 and h1 to a8.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::H1.bitboard().flip_diagonal(), Square::A8.bitboard());
    /// assert_eq!(Square::D4.bitboard().flip_diagonal(), Square::D4.bitboard());
    /// ```
    #[inline]
    #[must_use]
    pub const fn flip_diagonal(self) -> Bitboard {
        // Swap ever larger blocks across the diagonal: bits, then 2x2 blocks,
        // then 4x4 blocks, each by a delta swap.
        const K1: u64 = 0x5500_5500_5500_5500;
        const K2: u64 = 0x3333_0000_3333_0000;
        const K4: u64 = 0x0F0F_0F0F_0000_0000;
        let mut x = self.0;
        let mut t = K4 & (x ^ (x << 28));
        x ^= t ^ (t >> 28);
        t = K2 & (x ^ (x << 14));
        x ^= t ^ (t >> 14);
        t = K1 & (x ^ (x << 7));
        x ^= t ^ (t >> 7);
        Bitboard(x)
    }

    /// Every subset of the set, the empty set first and the whole set last:
    /// `2^count` bitboards, each once (the carry-rippler).
    ///
    /// This is how slider tables enumerate the occupancies of a mask.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// let board = Square::A1.bitboard() | Square::C1.bitboard();
    /// let subsets: Vec<Bitboard> = board.subsets().collect();
    /// assert_eq!(subsets, [
    ///     Bitboard::EMPTY,
    ///     Square::A1.bitboard(),
    ///     Square::C1.bitboard(),
    ///     board,
    /// ]);
    /// assert_eq!(Bitboard::EMPTY.subsets().count(), 1);
    /// ```
    #[inline]
    #[must_use]
    pub const fn subsets(self) -> Subsets {
        Subsets {
            mask: self.0,
            next: Some(0),
        }
    }

    /// The set squares, from a1 towards h8; also `for square in board`.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// let squares: Vec<Square> = Bitboard(0x8000_0000_0000_0101).iter().collect();
    /// assert_eq!(squares, [Square::A1, Square::A2, Square::H8]);
    /// ```
    #[inline]
    #[must_use]
    pub const fn iter(self) -> Squares {
        Squares(self.0)
    }
}

/// The set squares of a [`Bitboard`], lowest first, or highest first with
/// `.rev()`.
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// let mut squares = Bitboard(0b1011).iter();
/// assert_eq!(squares.len(), 3);
/// assert_eq!(squares.next_back(), Some(Square::D1));
/// assert_eq!(squares.next(), Some(Square::A1));
/// assert_eq!(squares.len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let mut rest = Bitboard(self.0);
        let square = rest.pop();
        self.0 = rest.0;
        square
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Squares {
    #[inline]
    fn next_back(&mut self) -> Option<Square> {
        let square = Bitboard(self.0).last()?;
        self.0 ^= square.bitboard().0;
        Some(square)
    }
}

impl ExactSizeIterator for Squares {}
impl FusedIterator for Squares {}

/// Every subset of a [`Bitboard`], from [`Bitboard::subsets`]: the empty
/// set first, then counting up through the mask's bits.
///
/// ```
/// use bitboards_core::Bitboard;
///
/// let mask = Bitboard(0b1011);
/// assert!(mask.subsets().all(|subset| subset.0 & !mask.0 == 0));
/// assert_eq!(mask.subsets().count(), 8);
/// ```
#[derive(Clone, Debug)]
pub struct Subsets {
    mask: u64,
    /// The next subset to yield; `None` once the whole mask was yielded.
    next: Option<u64>,
}

impl Iterator for Subsets {
    type Item = Bitboard;

    #[inline]
    fn next(&mut self) -> Option<Bitboard> {
        let current = self.next?;
        // Subtracting the mask carries through the bits outside it, so the
        // bits inside count up by one: the next subset in binary order.
        let following = current.wrapping_sub(self.mask) & self.mask;
        self.next = (following != 0).then_some(following);
        Some(Bitboard(current))
    }
}

impl FusedIterator for Subsets {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut board = Bitboard::EMPTY;
        iter.into_iter().for_each(|square| board.set(square));
        board
    }
}

impl Extend<Square> for Bitboard {
    fn extend<I: IntoIterator<Item = Square>>(&mut self, iter: I) {
        iter.into_iter().for_each(|square| self.set(square));
    }
}

/// The bitboard with only this square set, as [`Square::bitboard`].
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// assert_eq!(Bitboard::from(Square::A2), Bitboard(0x100));
/// ```
impl From<Square> for Bitboard {
    #[inline]
    fn from(square: Square) -> Bitboard {
        square.bitboard()
    }
}

/// The eight squares of the file, as [`File::bitboard`].
///
/// ```
/// use bitboards_core::{Bitboard, File};
///
/// assert_eq!(Bitboard::from(File::H), Bitboard(0x8080_8080_8080_8080));
/// ```
impl From<File> for Bitboard {
    #[inline]
    fn from(file: File) -> Bitboard {
        file.bitboard()
    }
}

/// The eight squares of the rank, as [`Rank::bitboard`].
///
/// ```
/// use bitboards_core::{Bitboard, Rank};
///
/// assert_eq!(Bitboard::from(Rank::Eighth), Bitboard(0xFF00_0000_0000_0000));
/// ```
impl From<Rank> for Bitboard {
    #[inline]
    fn from(rank: Rank) -> Bitboard {
        rank.bitboard()
    }
}

impl From<u64> for Bitboard {
    #[inline]
    fn from(bits: u64) -> Bitboard {
        Bitboard(bits)
    }
}

impl From<Bitboard> for u64 {
    #[inline]
    fn from(board: Bitboard) -> u64 {
        board.0
    }
}

macro_rules! binary_ops {
    ($($trait:ident $method:ident $assign_trait:ident $assign_method:ident $op:tt;)*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;

            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }

        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                *self = *self $op rhs;
            }
        }
    )*};
}

binary_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

/// Set difference: the squares of the left side that are not on the right.
impl Sub for Bitboard {
    type Output = Bitboard;

    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        self.difference(rhs)
    }
}

impl SubAssign for Bitboard {
    #[inline]
    fn sub_assign(&mut self, rhs: Bitboard) {
        *self = self.difference(rhs);
    }
}

macro_rules! square_ops {
    ($(
        $(#[$doc:meta])*
        $trait:ident $method:ident $assign_trait:ident $assign_method:ident => $set_op:ident;
    )*) => {$(
        $(#[$doc])*
        impl $trait<Square> for Bitboard {
            type Output = Bitboard;

            #[inline]
            fn $method(self, square: Square) -> Bitboard {
                self.$set_op(square.bitboard())
            }
        }

        $(#[$doc])*
        impl $assign_trait<Square> for Bitboard {
            #[inline]
            fn $assign_method(&mut self, square: Square) {
                *self = self.$set_op(square.bitboard());
            }
        }
    )*};
}

square_ops! {
    /// Keeps only `square`, if it is in the set.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Rank, Square};
    ///
    /// assert_eq!(Rank::Second.bitboard() & Square::E2, Square::E2.bitboard());
    /// let mut board = Rank::Second.bitboard();
    /// board &= Square::E4;
    /// assert_eq!(board, Bitboard::EMPTY);
    /// ```
    BitAnd bitand BitAndAssign bitand_assign => intersection;
    /// Adds `square` to the set.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// let mut board = Bitboard::EMPTY | Square::E4;
    /// board |= Square::D5;
    /// assert_eq!(board, Bitboard((1 << 28) | (1 << 35)));
    /// ```
    BitOr bitor BitOrAssign bitor_assign => union;
    /// Adds `square` if it is absent, removes it if present.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// let mut board = Square::E4 | Square::D5;
    /// board ^= Square::E4;
    /// assert_eq!(board, Square::D5.bitboard());
    /// assert_eq!(board ^ Square::A1, Square::D5 | Square::A1);
    /// ```
    BitXor bitxor BitXorAssign bitxor_assign => symmetric_difference;
    /// Removes `square` from the set, if it is there.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Rank, Square};
    ///
    /// let mut board = Rank::First.bitboard() - Square::E1;
    /// assert_eq!(board.count(), 7);
    /// board -= Square::E4;
    /// assert_eq!(board.count(), 7);
    /// ```
    Sub sub SubAssign sub_assign => difference;
}

/// The bitboard of both squares.
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// let castling_path = Square::F1 | Square::G1;
/// assert_eq!(castling_path, Bitboard(0x60));
/// assert_eq!(Square::F1 | Square::F1, Square::F1.bitboard());
/// ```
impl BitOr for Square {
    type Output = Bitboard;

    #[inline]
    fn bitor(self, other: Square) -> Bitboard {
        self.bitboard().union(other.bitboard())
    }
}

impl Not for Bitboard {
    type Output = Bitboard;

    #[inline]
    fn not(self) -> Bitboard {
        self.complement()
    }
}

/// Shifts every bit `n` places up (towards h8): `<< 8` is one rank north,
/// `<< 1` one square east. Bits shifted past h8 fall off, and squares on
/// file h wrap onto file a of the next rank (use [`Bitboard::east`] and
/// friends for shifts that stop at the edge). A shift of 64 or more gives
/// the empty board rather than panicking as `u64`'s does.
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// assert_eq!(Square::E4.bitboard() << 8, Square::E5.bitboard());
/// assert_eq!(Square::H4.bitboard() << 1, Square::A5.bitboard());
/// assert_eq!(Bitboard::FULL << 64, Bitboard::EMPTY);
/// let mut board = Square::A1.bitboard();
/// board <<= 9;
/// assert_eq!(board, Square::B2.bitboard());
/// ```
impl Shl<u32> for Bitboard {
    type Output = Bitboard;

    #[inline]
    fn shl(self, n: u32) -> Bitboard {
        Bitboard(self.0.checked_shl(n).unwrap_or(0))
    }
}

/// `board <<= n`, the assign form of `<<`: bits move towards h8, and 64 or more
/// empties the board.
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// let mut board = Square::E4.bitboard();
/// board <<= 8;
/// assert_eq!(board, Square::E5.bitboard());
/// board <<= 64;
/// assert_eq!(board, Bitboard::EMPTY);
/// ```
impl ShlAssign<u32> for Bitboard {
    #[inline]
    fn shl_assign(&mut self, n: u32) {
        *self = *self << n;
    }
}

/// Shifts every bit `n` places down (towards a1): `>> 8` is one rank
/// south, `>> 1` one square west. Bits shifted past a1 fall off, and
/// squares on file a wrap onto file h of the rank below (use
/// [`Bitboard::west`] and friends for shifts that stop at the edge). A
/// shift of 64 or more gives the empty board rather than panicking as
/// `u64`'s does.
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// assert_eq!(Square::E4.bitboard() >> 8, Square::E3.bitboard());
/// assert_eq!(Square::A4.bitboard() >> 1, Square::H3.bitboard());
/// assert_eq!(Bitboard::FULL >> 64, Bitboard::EMPTY);
/// ```
impl Shr<u32> for Bitboard {
    type Output = Bitboard;

    #[inline]
    fn shr(self, n: u32) -> Bitboard {
        Bitboard(self.0.checked_shr(n).unwrap_or(0))
    }
}

/// `board >>= n`, the assign form of `>>`: bits move towards a1, and 64 or more
/// empties the board.
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// let mut board = Square::E4.bitboard();
/// board >>= 8;
/// assert_eq!(board, Square::E3.bitboard());
/// board >>= 100;
/// assert_eq!(board, Bitboard::EMPTY);
/// ```
impl ShrAssign<u32> for Bitboard {
    #[inline]
    fn shr_assign(&mut self, n: u32) {
        *self = *self >> n;
    }
}

/// Draws the board as the labelled diagram that [`FromStr`] and the
/// `bitboard!` macro read back: nine lines of 17 characters, without a
/// trailing newline.
///
/// Width, fill and alignment apply to each line, as they apply to a
/// [`Square`]'s name, so `{:>21}` indents the whole diagram by four and the
/// result still reads back. Precision is ignored. `{:#?}` draws the same.
///
/// ```
/// use bitboards_core::Square;
///
/// let board = Square::E4.bitboard();
/// let indented = format!("{board:>21}");
/// assert_eq!(indented.lines().nth(4), Some("    4 . . . . X . . ."));
/// assert_eq!(indented.lines().last(), Some("      a b c d e f g h"));
/// assert_eq!(indented.parse(), Ok(board));
/// assert_eq!(format!("{board:>#21?}"), indented);
/// ```
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        diagram::write(self.0, f)
    }
}

/// `{:?}` prints `Bitboard(0x...)`; `{:#?}` draws the diagram, padded like
/// `Display`'s.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            diagram::write(self.0, f)
        } else {
            write!(f, "Bitboard({:#018x})", self.0)
        }
    }
}

macro_rules! number_formats {
    ($($trait:ident),*) => {$(
        impl fmt::$trait for Bitboard {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::$trait::fmt(&self.0, f)
            }
        }
    )*};
}

number_formats!(LowerHex, UpperHex, Binary, Octal);

/// Reads a diagram in the grammar of [`diagram`] (rank 8 on top, `X` for a
/// set square, `.` for an empty one, labels optional), or the board's
/// number: one word that starts with a digit, in hex after `0x`, binary
/// after `0b`, octal after `0o`, decimal otherwise, with `_` allowed between
/// digits and whitespace around it. Bit `n` is square `n` (a1 = 0), as in
/// `Bitboard(n)`; other numberings are converted with
/// [`Bitboard::flip_ranks`] and [`Bitboard::mirror_files`].
///
/// Text that is neither is an error in the diagram's terms, with its line
/// and column; a word that starts with a digit is a number, and a bad one
/// says which character is not a digit.
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// assert_eq!("0x10000000".parse(), Ok(Square::E4.bitboard()));
/// assert_eq!("268435456".parse(), Ok(Square::E4.bitboard()));
/// assert_eq!(Square::E4.bitboard().to_string().parse(), Ok(Square::E4.bitboard()));
/// assert_eq!(
///     "0xe4".parse::<Bitboard>(),
///     Ok(Bitboard(0xe4)), // a number, not the square
/// );
/// assert_eq!(
///     "0x1g".parse::<Bitboard>().unwrap_err().to_string(),
///     "line 1, column 4: `g` is not a hex digit; a bitboard is read from a diagram, \
///      or from a number in hex (`0x10`), binary (`0b1_0000`), octal (`0o20`) or decimal (`16`)"
/// );
/// ```
impl FromStr for Bitboard {
    type Err = ParseBitboardError;

    fn from_str(s: &str) -> Result<Bitboard, ParseBitboardError> {
        match diagram::parse_number(s) {
            Some(number) => number.map(Bitboard),
            None => diagram::parse_str(s).map(Bitboard),
        }
    }
}
