//! Squares, files, ranks and colours.

use core::fmt;
use core::str::FromStr;

use crate::Bitboard;

macro_rules! define_squares {
    ($($name:ident = $text:literal $index:literal,)*) => {
        /// One of the 64 squares, numbered little-endian rank-file:
        /// a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
        ///
        /// A `Square` can only hold a real square: there is no square 64.
        ///
        /// ```
        /// use bitboards::{File, Rank, Square};
        ///
        /// assert_eq!(Square::E4.index(), 28);
        /// assert_eq!(Square::E4.file(), File::E);
        /// assert_eq!(Square::E4.rank(), Rank::Fourth);
        /// assert_eq!(Square::new(64), None);
        /// assert_eq!("e4".parse(), Ok(Square::E4));
        /// ```
        #[repr(u8)]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        pub enum Square {
            $(#[doc = concat!("The square ", $text, ".")] $name,)*
        }

        impl Square {
            /// Every square in index order, a1 first and h8 last.
            ///
            /// ```
            /// use bitboards::Square;
            ///
            /// assert_eq!(Square::ALL.len(), 64);
            /// assert_eq!(Square::ALL[9], Square::B2);
            /// ```
            pub const ALL: [Square; 64] = [$(Square::$name,)*];
            const NAMES: [&'static str; 64] = [$($text,)*];

            /// The square with the given index (a1 = 0, h8 = 63), or `None`
            /// when the index is 64 or more.
            ///
            /// ```
            /// use bitboards::Square;
            ///
            /// assert_eq!(Square::new(0), Some(Square::A1));
            /// assert_eq!(Square::new(63), Some(Square::H8));
            /// assert_eq!(Square::new(64), None);
            /// ```
            // A match, not `ALL[index]`: it compiles to a range check, where
            // indexing an array would add a memory load to every conversion.
            #[inline]
            #[must_use]
            pub const fn new(index: u8) -> Option<Square> {
                match index {
                    $($index => Some(Square::$name),)*
                    _ => None,
                }
            }
        }
    };
}

define_squares! {
    A1 = "a1" 0, B1 = "b1" 1, C1 = "c1" 2, D1 = "d1" 3, E1 = "e1" 4, F1 = "f1" 5, G1 = "g1" 6, H1 = "h1" 7,
    A2 = "a2" 8, B2 = "b2" 9, C2 = "c2" 10, D2 = "d2" 11, E2 = "e2" 12, F2 = "f2" 13, G2 = "g2" 14, H2 = "h2" 15,
    A3 = "a3" 16, B3 = "b3" 17, C3 = "c3" 18, D3 = "d3" 19, E3 = "e3" 20, F3 = "f3" 21, G3 = "g3" 22, H3 = "h3" 23,
    A4 = "a4" 24, B4 = "b4" 25, C4 = "c4" 26, D4 = "d4" 27, E4 = "e4" 28, F4 = "f4" 29, G4 = "g4" 30, H4 = "h4" 31,
    A5 = "a5" 32, B5 = "b5" 33, C5 = "c5" 34, D5 = "d5" 35, E5 = "e5" 36, F5 = "f5" 37, G5 = "g5" 38, H5 = "h5" 39,
    A6 = "a6" 40, B6 = "b6" 41, C6 = "c6" 42, D6 = "d6" 43, E6 = "e6" 44, F6 = "f6" 45, G6 = "g6" 46, H6 = "h6" 47,
    A7 = "a7" 48, B7 = "b7" 49, C7 = "c7" 50, D7 = "d7" 51, E7 = "e7" 52, F7 = "f7" 53, G7 = "g7" 54, H7 = "h7" 55,
    A8 = "a8" 56, B8 = "b8" 57, C8 = "c8" 58, D8 = "d8" 59, E8 = "e8" 60, F8 = "f8" 61, G8 = "g8" 62, H8 = "h8" 63,
}

impl Square {
    /// The number of squares on the board.
    ///
    /// ```
    /// assert_eq!(bitboards::Square::COUNT, 64);
    /// ```
    pub const COUNT: usize = 64;

    /// The square on `file` and `rank`.
    ///
    /// ```
    /// use bitboards::{File, Rank, Square};
    ///
    /// assert_eq!(Square::from_file_rank(File::G, Rank::Fifth), Square::G5);
    /// ```
    #[inline]
    #[must_use]
    pub const fn from_file_rank(file: File, rank: Rank) -> Square {
        match Square::new(rank as u8 * 8 + file as u8) {
            Some(square) => square,
            // A file and a rank are both below 8, so the index is below 64.
            None => Square::A1,
        }
    }

    /// The square's index, a1 = 0 to h8 = 63: the bit that stands for it in
    /// a [`Bitboard`], and its position in every per-square table.
    ///
    /// ```
    /// use bitboards::Square;
    ///
    /// assert_eq!(Square::H1.index(), 7);
    /// assert_eq!(Square::A2.index(), 8);
    /// ```
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file (column) the square is on.
    ///
    /// ```
    /// use bitboards::{File, Square};
    ///
    /// assert_eq!(Square::C7.file(), File::C);
    /// ```
    #[inline]
    #[must_use]
    pub const fn file(self) -> File {
        match File::new(self as u8 % 8) {
            Some(file) => file,
            None => File::A,
        }
    }

    /// The rank (row) the square is on.
    ///
    /// ```
    /// use bitboards::{Rank, Square};
    ///
    /// assert_eq!(Square::C7.rank(), Rank::Seventh);
    /// ```
    #[inline]
    #[must_use]
    pub const fn rank(self) -> Rank {
        match Rank::new(self as u8 / 8) {
            Some(rank) => rank,
            None => Rank::First,
        }
    }

    /// The bitboard with only this square set.
    ///
    /// ```
    /// use bitboards::{Bitboard, Square};
    ///
    /// assert_eq!(Square::D3.bitboard(), Bitboard(1 << 19));
    /// ```
    #[inline]
    #[must_use]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1 << self as u8)
    }

    /// The square's name, such as `"e4"`.
    ///
    /// ```
    /// use bitboards::Square;
    ///
    /// assert_eq!(Square::E4.name(), "e4");
    /// ```
    #[inline]
    #[must_use]
    pub const fn name(self) -> &'static str {
        Square::NAMES[self as usize]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// Why a string is not a square name such as `e4`.
///
/// ```
/// use bitboards::{ParseSquareError, Square};
///
/// assert_eq!("i9".parse::<Square>(), Err(ParseSquareError::BadFile('i')));
/// assert_eq!("e9".parse::<Square>(), Err(ParseSquareError::BadRank('9')));
/// assert_eq!("e".parse::<Square>(), Err(ParseSquareError::BadLength(1)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ParseSquareError {
    /// The name does not have exactly two characters; holds how many it has.
    BadLength(usize),
    /// The first character is not a file letter `a` to `h`.
    BadFile(char),
    /// The second character is not a rank digit `1` to `8`.
    BadRank(char),
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::BadLength(n) => write!(
                f,
                "a square name has 2 characters, a file and a rank such as `e4`; found {n}"
            ),
            ParseSquareError::BadFile(c) => {
                write!(f, "`{c}` is not a file; expected a letter from `a` to `h`")
            }
            ParseSquareError::BadRank(c) => {
                write!(f, "`{c}` is not a rank; expected a digit from `1` to `8`")
            }
        }
    }
}

impl core::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads a square name: a file letter `a`-`h` then a rank digit `1`-`8`.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let (Some(file), Some(rank), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParseSquareError::BadLength(s.chars().count()));
        };
        let file = File::from_char(file).ok_or(ParseSquareError::BadFile(file))?;
        let rank = Rank::from_char(rank).ok_or(ParseSquareError::BadRank(rank))?;
        Ok(Square::from_file_rank(file, rank))
    }
}

/// A file: a column of the board, `a` (queenside) to `h` (kingside).
///
/// ```
/// use bitboards::{File, Square};
///
/// assert_eq!(File::E.to_char(), 'e');
/// assert!(File::E.bitboard().contains(Square::E4));
/// ```
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum File {
    /// File a.
    A,
    /// File b.
    B,
    /// File c.
    C,
    /// File d.
    D,
    /// File e.
    E,
    /// File f.
    F,
    /// File g.
    G,
    /// File h.
    H,
}

impl File {
    /// Every file from a to h.
    ///
    /// ```
    /// use bitboards::File;
    ///
    /// assert_eq!(File::ALL[7], File::H);
    /// ```
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with the given index (a = 0, h = 7), or `None` past 7.
    ///
    /// ```
    /// use bitboards::File;
    ///
    /// assert_eq!(File::new(2), Some(File::C));
    /// assert_eq!(File::new(8), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn new(index: u8) -> Option<File> {
        Some(match index {
            0 => File::A,
            1 => File::B,
            2 => File::C,
            3 => File::D,
            4 => File::E,
            5 => File::F,
            6 => File::G,
            7 => File::H,
            _ => return None,
        })
    }

    /// The file named by a letter `a` to `h`.
    ///
    /// ```
    /// use bitboards::File;
    ///
    /// assert_eq!(File::from_char('g'), Some(File::G));
    /// assert_eq!(File::from_char('i'), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => File::new(c as u8 - b'a'),
            _ => None,
        }
    }

    /// The file's letter.
    ///
    /// ```
    /// assert_eq!(bitboards::File::B.to_char(), 'b');
    /// ```
    #[inline]
    #[must_use]
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The file's index, a = 0 to h = 7.
    ///
    /// ```
    /// assert_eq!(bitboards::File::D.index(), 3);
    /// ```
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The eight squares of this file.
    ///
    /// ```
    /// use bitboards::{Bitboard, File};
    ///
    /// assert_eq!(File::A.bitboard(), Bitboard(0x0101_0101_0101_0101));
    /// ```
    #[inline]
    #[must_use]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << self as u8)
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_char(), f)
    }
}

/// A rank: a row of the board, first (White's back rank) to eighth.
///
/// ```
/// use bitboards::{Rank, Square};
///
/// assert_eq!(Rank::Fourth.to_char(), '4');
/// assert!(Rank::Fourth.bitboard().contains(Square::E4));
/// ```
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Rank {
    /// Rank 1, White's back rank.
    First,
    /// Rank 2.
    Second,
    /// Rank 3.
    Third,
    /// Rank 4.
    Fourth,
    /// Rank 5.
    Fifth,
    /// Rank 6.
    Sixth,
    /// Rank 7.
    Seventh,
    /// Rank 8, Black's back rank.
    Eighth,
}

impl Rank {
    /// Every rank from first to eighth.
    ///
    /// ```
    /// use bitboards::Rank;
    ///
    /// assert_eq!(Rank::ALL[0], Rank::First);
    /// ```
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with the given index (first = 0, eighth = 7), or `None` past 7.
    ///
    /// ```
    /// use bitboards::Rank;
    ///
    /// assert_eq!(Rank::new(2), Some(Rank::Third));
    /// assert_eq!(Rank::new(8), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn new(index: u8) -> Option<Rank> {
        Some(match index {
            0 => Rank::First,
            1 => Rank::Second,
            2 => Rank::Third,
            3 => Rank::Fourth,
            4 => Rank::Fifth,
            5 => Rank::Sixth,
            6 => Rank::Seventh,
            7 => Rank::Eighth,
            _ => return None,
        })
    }

    /// The rank named by a digit `1` to `8`.
    ///
    /// ```
    /// use bitboards::Rank;
    ///
    /// assert_eq!(Rank::from_char('8'), Some(Rank::Eighth));
    /// assert_eq!(Rank::from_char('9'), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Rank::new(c as u8 - b'1'),
            _ => None,
        }
    }

    /// The rank's digit.
    ///
    /// ```
    /// assert_eq!(bitboards::Rank::Seventh.to_char(), '7');
    /// ```
    #[inline]
    #[must_use]
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The rank's index, first = 0 to eighth = 7.
    ///
    /// ```
    /// assert_eq!(bitboards::Rank::Third.index(), 2);
    /// ```
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The eight squares of this rank.
    ///
    /// ```
    /// use bitboards::{Bitboard, Rank};
    ///
    /// assert_eq!(Rank::Second.bitboard(), Bitboard(0xFF00));
    /// ```
    #[inline]
    #[must_use]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(0xFF << (8 * self as u8))
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_char(), f)
    }
}

/// A side: White moves up the board (north), Black down.
///
/// ```
/// use bitboards::Color;
///
/// assert_eq!(!Color::White, Color::Black);
/// assert_eq!(Color::Black.index(), 1);
/// ```
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    /// The side that moves first, from ranks 1 and 2.
    White,
    /// The side that starts on ranks 7 and 8.
    Black,
}

impl Color {
    /// Both colours, White first: the order of the per-colour tables.
    ///
    /// ```
    /// use bitboards::Color;
    ///
    /// assert_eq!(Color::ALL, [Color::White, Color::Black]);
    /// ```
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The colour's index in per-colour tables: White 0, Black 1.
    ///
    /// ```
    /// assert_eq!(bitboards::Color::White.index(), 0);
    /// ```
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    ///
    /// ```
    /// use bitboards::Color;
    ///
    /// assert_eq!(Color::White.opponent(), Color::Black);
    /// ```
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl core::ops::Not for Color {
    type Output = Color;

    fn not(self) -> Color {
        self.opponent()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}
