//! Squares, files, ranks and colours.

use core::fmt;
use core::str::FromStr;

use crate::Bitboard;

macro_rules! define_squares {
    ($($name:ident = $text:literal,)*) => {
        /// One of the 64 squares, numbered little-endian rank-file:
        /// a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
        ///
        /// A `Square` can only hold a real square: there is no square 64.
        ///
        /// ```
        /// use bitboards_core::{File, Rank, Square};
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
            /// use bitboards_core::Square;
            ///
            /// assert_eq!(Square::ALL.len(), 64);
            /// assert_eq!(Square::ALL[9], Square::B2);
            /// ```
            pub const ALL: [Square; 64] = [$(Square::$name,)*];
            const NAMES: [&'static str; 64] = [$($text,)*];
        }
    };
}

define_squares! {
    A1 = "a1", B1 = "b1", C1 = "c1", D1 = "d1", E1 = "e1", F1 = "f1", G1 = "g1", H1 = "h1",
    A2 = "a2", B2 = "b2", C2 = "c2", D2 = "d2", E2 = "e2", F2 = "f2", G2 = "g2", H2 = "h2",
    A3 = "a3", B3 = "b3", C3 = "c3", D3 = "d3", E3 = "e3", F3 = "f3", G3 = "g3", H3 = "h3",
    A4 = "a4", B4 = "b4", C4 = "c4", D4 = "d4", E4 = "e4", F4 = "f4", G4 = "g4", H4 = "h4",
    A5 = "a5", B5 = "b5", C5 = "c5", D5 = "d5", E5 = "e5", F5 = "f5", G5 = "g5", H5 = "h5",
    A6 = "a6", B6 = "b6", C6 = "c6", D6 = "d6", E6 = "e6", F6 = "f6", G6 = "g6", H6 = "h6",
    A7 = "a7", B7 = "b7", C7 = "c7", D7 = "d7", E7 = "e7", F7 = "f7", G7 = "g7", H7 = "h7",
    A8 = "a8", B8 = "b8", C8 = "c8", D8 = "d8", E8 = "e8", F8 = "f8", G8 = "g8", H8 = "h8",
}

impl Square {
    /// The number of squares on the board.
    ///
    /// ```
    /// assert_eq!(bitboards_core::Square::COUNT, 64);
    /// ```
    pub const COUNT: usize = 64;

    /// The square with the given index (a1 = 0, h8 = 63), or `None` when the
    /// index is 64 or more.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::new(0), Some(Square::A1));
    /// assert_eq!(Square::new(63), Some(Square::H8));
    /// assert_eq!(Square::new(64), None);
    /// ```
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square::ALL[index as usize])
        } else {
            None
        }
    }

    /// The square on `file` and `rank`.
    ///
    /// ```
    /// use bitboards_core::{File, Rank, Square};
    ///
    /// assert_eq!(Square::from_file_rank(File::G, Rank::Fifth), Square::G5);
    /// ```
    #[must_use]
    pub const fn from_file_rank(file: File, rank: Rank) -> Square {
        Square::ALL[rank as usize * 8 + file as usize]
    }

    /// The square's index, a1 = 0 to h8 = 63: the bit that stands for it in
    /// a [`Bitboard`], and its position in every per-square table.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::H1.index(), 7);
    /// assert_eq!(Square::A2.index(), 8);
    /// ```
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file (column) the square is on.
    ///
    /// ```
    /// use bitboards_core::{File, Square};
    ///
    /// assert_eq!(Square::C7.file(), File::C);
    /// ```
    #[must_use]
    pub const fn file(self) -> File {
        File::ALL[self as usize % 8]
    }

    /// The rank (row) the square is on.
    ///
    /// ```
    /// use bitboards_core::{Rank, Square};
    ///
    /// assert_eq!(Square::C7.rank(), Rank::Seventh);
    /// ```
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self as usize / 8]
    }

    /// The bitboard with only this square set.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Square};
    ///
    /// assert_eq!(Square::D3.bitboard(), Bitboard(1 << 19));
    /// ```
    #[must_use]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1 << self as u8)
    }

    /// The square's name, such as `"e4"`.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.name(), "e4");
    /// ```
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
/// use bitboards_core::{ParseSquareError, Square};
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
/// use bitboards_core::{File, Square};
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
    /// use bitboards_core::File;
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
    /// use bitboards_core::File;
    ///
    /// assert_eq!(File::new(2), Some(File::C));
    /// assert_eq!(File::new(8), None);
    /// ```
    #[must_use]
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// The file named by a letter `a` to `h`.
    ///
    /// ```
    /// use bitboards_core::File;
    ///
    /// assert_eq!(File::from_char('g'), Some(File::G));
    /// assert_eq!(File::from_char('i'), None);
    /// ```
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
    /// assert_eq!(bitboards_core::File::B.to_char(), 'b');
    /// ```
    #[must_use]
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The file's index, a = 0 to h = 7.
    ///
    /// ```
    /// assert_eq!(bitboards_core::File::D.index(), 3);
    /// ```
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The eight squares of this file.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, File};
    ///
    /// assert_eq!(File::A.bitboard(), Bitboard(0x0101_0101_0101_0101));
    /// ```
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
/// use bitboards_core::{Rank, Square};
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
    /// use bitboards_core::Rank;
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
    /// use bitboards_core::Rank;
    ///
    /// assert_eq!(Rank::new(2), Some(Rank::Third));
    /// assert_eq!(Rank::new(8), None);
    /// ```
    #[must_use]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// The rank named by a digit `1` to `8`.
    ///
    /// ```
    /// use bitboards_core::Rank;
    ///
    /// assert_eq!(Rank::from_char('8'), Some(Rank::Eighth));
    /// assert_eq!(Rank::from_char('9'), None);
    /// ```
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
    /// assert_eq!(bitboards_core::Rank::Seventh.to_char(), '7');
    /// ```
    #[must_use]
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The rank's index, first = 0 to eighth = 7.
    ///
    /// ```
    /// assert_eq!(bitboards_core::Rank::Third.index(), 2);
    /// ```
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The eight squares of this rank.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Rank};
    ///
    /// assert_eq!(Rank::Second.bitboard(), Bitboard(0xFF00));
    /// ```
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
/// use bitboards_core::Color;
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
    /// use bitboards_core::Color;
    ///
    /// assert_eq!(Color::ALL, [Color::White, Color::Black]);
    /// ```
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The colour's index in per-colour tables: White 0, Black 1.
    ///
    /// ```
    /// assert_eq!(bitboards_core::Color::White.index(), 0);
    /// ```
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    ///
    /// ```
    /// use bitboards_core::Color;
    ///
    /// assert_eq!(Color::White.opponent(), Color::Black);
    /// ```
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
