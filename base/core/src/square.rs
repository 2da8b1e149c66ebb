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
        /// To turn an integer wider than `u8` into a square, use `TryFrom`,
        /// which checks the whole value; `Square::new(index as u8)` would
        /// first cut it to its low byte (300 becomes 44, which is e6).
        ///
        /// ```
        /// use bitboards_core::{File, Rank, Square};
        ///
        /// assert_eq!(Square::E4.index(), 28);
        /// assert_eq!(Square::E4.file(), File::E);
        /// assert_eq!(Square::E4.rank(), Rank::Fourth);
        /// assert_eq!(Square::try_from(28usize), Ok(Square::E4));
        /// assert!(Square::try_from(300usize).is_err());
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

            /// The square with the given index (a1 = 0, h8 = 63), or `None`
            /// when the index is 64 or more.
            ///
            /// This takes a `u8` so that it can be `const`. For a `usize`,
            /// `u32` or any other integer, use [`Square::try_from`]: casting
            /// with `as u8` first would keep only the low byte, and
            /// `Square::new(300usize as u8)` is e6, not an error.
            ///
            /// ```
            /// use bitboards_core::Square;
            ///
            /// assert_eq!(Square::new(0), Some(Square::A1));
            /// assert_eq!(Square::new(63), Some(Square::H8));
            /// assert_eq!(Square::new(64), None);
            /// // From a wider integer, check the whole value:
            /// assert!(Square::try_from(300usize).is_err());
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
    /// assert_eq!(bitboards_core::Square::COUNT, 64);
    /// ```
    pub const COUNT: usize = 64;

    /// The square on `file` and `rank`.
    ///
    /// ```
    /// use bitboards_core::{File, Rank, Square};
    ///
    /// const G5: Square = Square::from_file_rank(File::G, Rank::Fifth);
    /// assert_eq!(G5, Square::G5);
    /// ```
    #[doc(alias = "from_coords")]
    #[inline]
    #[must_use]
    pub const fn from_file_rank(file: File, rank: Rank) -> Square {
        Square::from_low_bits(rank as u8 * 8 + file as u8)
    }

    /// The square whose index is the low six bits of `bits`, for arithmetic
    /// that cannot leave the board (a file and a rank, a flip).
    #[inline]
    const fn from_low_bits(bits: u8) -> Square {
        match Square::new(bits & 63) {
            Some(square) => square,
            // Six bits are below 64, so there is always a square.
            None => Square::A1,
        }
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
    #[inline]
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
    /// use bitboards_core::{Rank, Square};
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
    /// use bitboards_core::{Bitboard, Square};
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
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.name(), "e4");
    /// ```
    #[inline]
    #[must_use]
    pub const fn name(self) -> &'static str {
        Square::NAMES[self as usize]
    }

    /// The square `files` to the right (towards file h; negative: left) and
    /// `ranks` up (towards rank 8; negative: down), or `None` when that is
    /// off the board. Nothing wraps around an edge: h4 moved one file right
    /// is `None`, not a5.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// // A knight's jump from g1.
    /// assert_eq!(Square::G1.offset(-1, 2), Some(Square::F3));
    /// assert_eq!(Square::H4.offset(1, 0), None);
    /// assert_eq!(Square::A1.offset(0, -1), None);
    /// assert_eq!(Square::E4.offset(i8::MAX, i8::MIN), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn offset(self, files: i8, ranks: i8) -> Option<Square> {
        // In i16, so that no offset, however large, can overflow.
        let file = self.file() as i16 + files as i16;
        let rank = self.rank() as i16 + ranks as i16;
        if file < 0 || file > 7 || rank < 0 || rank > 7 {
            return None;
        }
        Square::new((rank * 8 + file) as u8)
    }

    /// The square on the same file and the opposite rank: a1 and a8 swap,
    /// e4 and e5 swap.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::A1.flip_rank(), Square::A8);
    /// assert_eq!(Square::E4.flip_rank(), Square::E5);
    /// ```
    #[inline]
    #[must_use]
    pub const fn flip_rank(self) -> Square {
        // Rank 7 - r is r with its three bits inverted: bits 3 to 5.
        Square::from_low_bits(self as u8 ^ 0b111_000)
    }

    /// The square on the same rank and the mirrored file: a1 and h1 swap,
    /// d4 and e4 swap.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::A1.flip_file(), Square::H1);
    /// assert_eq!(Square::D4.flip_file(), Square::E4);
    /// ```
    #[inline]
    #[must_use]
    pub const fn flip_file(self) -> Square {
        // File 7 - f is f with its three bits inverted: bits 0 to 2.
        Square::from_low_bits(self as u8 ^ 0b000_111)
    }

    /// The square as `color` sees the board from its own side: unchanged for
    /// White, rank-flipped for Black. Black's e7 is White's e2, so a table
    /// written for White serves Black through this.
    ///
    /// ```
    /// use bitboards_core::{Color, Square};
    ///
    /// assert_eq!(Square::E2.relative_to(Color::White), Square::E2);
    /// assert_eq!(Square::E2.relative_to(Color::Black), Square::E7);
    /// ```
    #[inline]
    #[must_use]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// How many king steps apart the squares are: the larger of the file
    /// and rank distances (the Chebyshev distance), 0 to 7.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.distance(Square::E4), 0);
    /// assert_eq!(Square::E4.distance(Square::F5), 1);
    /// assert_eq!(Square::A1.distance(Square::H8), 7);
    /// assert_eq!(Square::A1.distance(Square::C7), 6);
    /// ```
    #[inline]
    #[must_use]
    pub const fn distance(self, other: Square) -> u8 {
        let files = (self.file() as u8).abs_diff(other.file() as u8);
        let ranks = (self.rank() as u8).abs_diff(other.rank() as u8);
        if files > ranks { files } else { ranks }
    }

    /// How many rook steps of one square apart the squares are: the file
    /// distance plus the rank distance (the Manhattan distance), 0 to 14.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::E4.manhattan_distance(Square::F5), 2);
    /// assert_eq!(Square::A1.manhattan_distance(Square::H8), 14);
    /// ```
    #[inline]
    #[must_use]
    pub const fn manhattan_distance(self, other: Square) -> u8 {
        (self.file() as u8).abs_diff(other.file() as u8)
            + (self.rank() as u8).abs_diff(other.rank() as u8)
    }

    /// Whether the square is light: h1 is light ("light on the right") and
    /// a1 is dark.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert!(Square::H1.is_light());
    /// assert!(!Square::A1.is_light());
    /// assert!(Square::D5.is_light());
    /// ```
    #[inline]
    #[must_use]
    pub const fn is_light(self) -> bool {
        (self.file() as u8 + self.rank() as u8) % 2 == 1
    }

    /// Whether the square is dark, like a1; the opposite of
    /// [`is_light`](Square::is_light).
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert!(Square::A1.is_dark());
    /// assert!(Square::D4.is_dark());
    /// assert!(!Square::E4.is_dark());
    /// ```
    #[inline]
    #[must_use]
    pub const fn is_dark(self) -> bool {
        !self.is_light()
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
                write!(f, "`{c}` is not a file; expected a letter from `a` to `h`")?;
                if let 'A'..='H' = c {
                    write!(
                        f,
                        " (file letters are lower case: `{}`)",
                        c.to_ascii_lowercase()
                    )?;
                }
                Ok(())
            }
            ParseSquareError::BadRank(c) => {
                write!(f, "`{c}` is not a rank; expected a digit from `1` to `8`")
            }
        }
    }
}

impl core::error::Error for ParseSquareError {}

/// Reads a square name: a file letter `a`-`h` then a rank digit `1`-`8`.
///
/// Only lower case is a square name, as in FEN, UCI and SAN, where case
/// carries meaning (`B` is a bishop, `b` the b-file: `Bc4` and `bc4` are
/// different moves), so a reader of those formats can use this as it is.
/// `E4` is refused with a message that says why; a tool that wants to be
/// lenient with people's typing (as the `bitboards` command is) lower-cases
/// first.
///
/// ```
/// use bitboards_core::{ParseSquareError, Square};
///
/// assert_eq!("e4".parse(), Ok(Square::E4));
/// assert_eq!("E4".parse::<Square>(), Err(ParseSquareError::BadFile('E')));
/// assert!("E4".parse::<Square>().unwrap_err().to_string().ends_with("(file letters are lower case: `e`)"));
/// assert_eq!("E4".to_ascii_lowercase().parse(), Ok(Square::E4));
/// ```
impl FromStr for Square {
    type Err = ParseSquareError;

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

/// An integer that is not a square index: below 0, or 64 and above. Holds
/// the integer, widened so that any integer type fits.
///
/// ```
/// use bitboards_core::Square;
///
/// let error = Square::try_from(300usize).unwrap_err();
/// assert_eq!(error.index(), 300);
/// assert_eq!(error.to_string(), "300 is not a square index; expected 0 to 63");
/// assert_eq!(Square::try_from(-1i32).unwrap_err().index(), -1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SquareIndexError {
    index: i128,
}

impl SquareIndexError {
    /// The integer that was given.
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(Square::try_from(64u32).unwrap_err().index(), 64);
    /// ```
    #[must_use]
    pub const fn index(&self) -> i128 {
        self.index
    }
}

impl fmt::Display for SquareIndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a square index; expected 0 to 63", self.index)
    }
}

impl core::error::Error for SquareIndexError {}

macro_rules! square_from_index {
    ($($int:ident $($below_zero:literal)?,)*) => {$(
        #[doc = concat!(
            "The square with the given index (a1 = 0, h8 = 63), checking the whole `",
            stringify!($int), "`: nothing is truncated.\n\n",
            "```\nuse bitboards_core::Square;\n\n",
            "assert_eq!(Square::try_from(28", stringify!($int), "), Ok(Square::E4));\n",
            "assert!(Square::try_from(64", stringify!($int), ").is_err());\n",
            $("assert!(Square::try_from(", $below_zero, stringify!($int), ").is_err());\n",)?
            "```",
        )]
        impl TryFrom<$int> for Square {
            type Error = SquareIndexError;

            #[inline]
            fn try_from(index: $int) -> Result<Square, SquareIndexError> {
                // Widened first (losslessly: i128 holds every u64 and i64),
                // so that the range check sees the whole value.
                let wide = index as i128;
                match u8::try_from(wide) {
                    Ok(byte) if byte < 64 => Ok(Square::from_low_bits(byte)),
                    _ => Err(SquareIndexError { index: wide }),
                }
            }
        }
    )*};
}

square_from_index! {
    u8, u16, u32, u64, usize,
    i8 "-1", i16 "-1", i32 "-1", i64 "-1", isize "-1",
}

/// Writes a file or rank type once: the enum, `ALL`, `COUNT`, `new`,
/// `from_char`, `to_char`, `index`, `bitboard`, `Display`, `FromStr`,
/// `TryFrom<char>` and the parse error. Every doc comment comes from the
/// invocation, so each one speaks of files or of ranks.
macro_rules! define_line {
    (
        $(#[$type_doc:meta])*
        pub enum $Type:ident {
            $($(#[$variant_doc:meta])* $variant:ident = $index:literal,)*
        }
        named $first:literal ..= $last:literal;
        $(#[$all_doc:meta])* const ALL;
        $(#[$count_doc:meta])* const COUNT;
        $(#[$new_doc:meta])* fn new;
        $(#[$from_char_doc:meta])* fn from_char;
        $(#[$to_char_doc:meta])* fn to_char;
        $(#[$index_doc:meta])* fn index;
        $(#[$bitboard_doc:meta])* fn bitboard = |$bitboard_index:ident| $bits:expr;
        $(#[$from_str_doc:meta])* impl FromStr;
        $(#[$try_from_doc:meta])* impl TryFrom<char>;
        $(#[$error_doc:meta])*
        pub enum $Error:ident { a $noun:literal, $expected:literal }
    ) => {
        $(#[$type_doc])*
        #[repr(u8)]
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        pub enum $Type {
            $($(#[$variant_doc])* $variant,)*
        }

        impl $Type {
            $(#[$all_doc])*
            pub const ALL: [$Type; 8] = [$($Type::$variant,)*];

            $(#[$count_doc])*
            pub const COUNT: usize = 8;

            $(#[$new_doc])*
            #[inline]
            #[must_use]
            pub const fn new(index: u8) -> Option<$Type> {
                match index {
                    $($index => Some($Type::$variant),)*
                    _ => None,
                }
            }

            $(#[$from_char_doc])*
            #[inline]
            #[must_use]
            pub const fn from_char(c: char) -> Option<$Type> {
                let code = c as u32;
                if code >= $first as u32 && code <= $last as u32 {
                    $Type::new((code - $first as u32) as u8)
                } else {
                    None
                }
            }

            $(#[$to_char_doc])*
            #[inline]
            #[must_use]
            pub const fn to_char(self) -> char {
                ($first + self as u8) as char
            }

            $(#[$index_doc])*
            #[inline]
            #[must_use]
            pub const fn index(self) -> usize {
                self as usize
            }

            $(#[$bitboard_doc])*
            #[inline]
            #[must_use]
            pub const fn bitboard(self) -> Bitboard {
                let $bitboard_index = self as u8;
                Bitboard($bits)
            }
        }

        impl fmt::Display for $Type {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.to_char(), f)
            }
        }

        $(#[$error_doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub enum $Error {
            /// The text is not exactly one character long; holds how many
            /// characters it has.
            BadLength(usize),
            #[doc = concat!("The character is not ", $expected, ".")]
            BadChar(char),
        }

        impl fmt::Display for $Error {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $Error::BadLength(n) => write!(
                        f,
                        concat!("a ", $noun, " is one character, ", $expected, "; found {} characters"),
                        n
                    ),
                    $Error::BadChar(c) => {
                        write!(f, concat!("`{}` is not a ", $noun, "; expected ", $expected), c)
                    }
                }
            }
        }

        impl core::error::Error for $Error {}

        $(#[$from_str_doc])*
        impl FromStr for $Type {
            type Err = $Error;

            fn from_str(s: &str) -> Result<$Type, $Error> {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => $Type::try_from(c),
                    _ => Err($Error::BadLength(s.chars().count())),
                }
            }
        }

        $(#[$try_from_doc])*
        impl TryFrom<char> for $Type {
            type Error = $Error;

            #[inline]
            fn try_from(c: char) -> Result<$Type, $Error> {
                $Type::from_char(c).ok_or($Error::BadChar(c))
            }
        }
    };
}

define_line! {
    /// A file: a column of the board, `a` (queenside) to `h` (kingside).
    ///
    /// ```
    /// use bitboards_core::{File, Square};
    ///
    /// assert_eq!(File::E.to_char(), 'e');
    /// assert_eq!("e".parse(), Ok(File::E));
    /// assert!(File::E.bitboard().contains(Square::E4));
    /// ```
    pub enum File {
        /// File a.
        A = 0,
        /// File b.
        B = 1,
        /// File c.
        C = 2,
        /// File d.
        D = 3,
        /// File e.
        E = 4,
        /// File f.
        F = 5,
        /// File g.
        G = 6,
        /// File h.
        H = 7,
    }
    named b'a'..=b'h';
    /// Every file from a to h.
    ///
    /// ```
    /// use bitboards_core::File;
    ///
    /// assert_eq!(File::ALL[7], File::H);
    /// ```
    const ALL;
    /// The number of files on the board.
    ///
    /// ```
    /// use bitboards_core::File;
    ///
    /// assert_eq!(File::COUNT, File::ALL.len());
    /// ```
    const COUNT;
    /// The file with the given index (a = 0, h = 7), or `None` past 7.
    ///
    /// ```
    /// use bitboards_core::File;
    ///
    /// assert_eq!(File::new(2), Some(File::C));
    /// assert_eq!(File::new(8), None);
    /// ```
    fn new;
    /// The file named by a letter `a` to `h`. `TryFrom<char>` does the same
    /// with an error that says what was wrong.
    ///
    /// ```
    /// use bitboards_core::File;
    ///
    /// assert_eq!(File::from_char('g'), Some(File::G));
    /// assert_eq!(File::from_char('i'), None);
    /// assert_eq!(File::from_char('G'), None);
    /// ```
    fn from_char;
    /// The file's letter.
    ///
    /// ```
    /// assert_eq!(bitboards_core::File::B.to_char(), 'b');
    /// ```
    fn to_char;
    /// The file's index, a = 0 to h = 7.
    ///
    /// ```
    /// assert_eq!(bitboards_core::File::D.index(), 3);
    /// ```
    fn index;
    /// The eight squares of this file.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, File};
    ///
    /// assert_eq!(File::A.bitboard(), Bitboard(0x0101_0101_0101_0101));
    /// ```
    fn bitboard = |index| 0x0101_0101_0101_0101 << index;
    /// Reads a file letter, `a` to `h`, as the only character of the text.
    ///
    /// ```
    /// use bitboards_core::{File, ParseFileError};
    ///
    /// assert_eq!("h".parse(), Ok(File::H));
    /// assert_eq!("i".parse::<File>(), Err(ParseFileError::BadChar('i')));
    /// assert_eq!("ab".parse::<File>(), Err(ParseFileError::BadLength(2)));
    /// ```
    impl FromStr;
    /// The file named by a letter `a` to `h`.
    ///
    /// ```
    /// use bitboards_core::{File, ParseFileError};
    ///
    /// assert_eq!(File::try_from('c'), Ok(File::C));
    /// assert_eq!(File::try_from('C'), Err(ParseFileError::BadChar('C')));
    /// ```
    impl TryFrom<char>;
    /// Why a character or string is not a file letter `a` to `h`.
    ///
    /// ```
    /// use bitboards_core::{File, ParseFileError};
    ///
    /// let error = "x".parse::<File>().unwrap_err();
    /// assert_eq!(error, ParseFileError::BadChar('x'));
    /// assert_eq!(error.to_string(), "`x` is not a file; expected a letter from `a` to `h`");
    /// assert_eq!(
    ///     "".parse::<File>().unwrap_err().to_string(),
    ///     "a file is one character, a letter from `a` to `h`; found 0 characters"
    /// );
    /// ```
    pub enum ParseFileError { a "file", "a letter from `a` to `h`" }
}

define_line! {
    /// A rank: a row of the board, first (White's back rank) to eighth.
    ///
    /// ```
    /// use bitboards_core::{Rank, Square};
    ///
    /// assert_eq!(Rank::Fourth.to_char(), '4');
    /// assert_eq!("4".parse(), Ok(Rank::Fourth));
    /// assert!(Rank::Fourth.bitboard().contains(Square::E4));
    /// ```
    pub enum Rank {
        /// Rank 1, White's back rank.
        First = 0,
        /// Rank 2.
        Second = 1,
        /// Rank 3.
        Third = 2,
        /// Rank 4.
        Fourth = 3,
        /// Rank 5.
        Fifth = 4,
        /// Rank 6.
        Sixth = 5,
        /// Rank 7.
        Seventh = 6,
        /// Rank 8, Black's back rank.
        Eighth = 7,
    }
    named b'1'..=b'8';
    /// Every rank from first to eighth.
    ///
    /// ```
    /// use bitboards_core::Rank;
    ///
    /// assert_eq!(Rank::ALL[0], Rank::First);
    /// ```
    const ALL;
    /// The number of ranks on the board.
    ///
    /// ```
    /// use bitboards_core::Rank;
    ///
    /// assert_eq!(Rank::COUNT, Rank::ALL.len());
    /// ```
    const COUNT;
    /// The rank with the given index (first = 0, eighth = 7), or `None` past 7.
    ///
    /// ```
    /// use bitboards_core::Rank;
    ///
    /// assert_eq!(Rank::new(2), Some(Rank::Third));
    /// assert_eq!(Rank::new(8), None);
    /// ```
    fn new;
    /// The rank named by a digit `1` to `8`. `TryFrom<char>` does the same
    /// with an error that says what was wrong.
    ///
    /// ```
    /// use bitboards_core::Rank;
    ///
    /// assert_eq!(Rank::from_char('8'), Some(Rank::Eighth));
    /// assert_eq!(Rank::from_char('9'), None);
    /// assert_eq!(Rank::from_char('0'), None);
    /// ```
    fn from_char;
    /// The rank's digit.
    ///
    /// ```
    /// assert_eq!(bitboards_core::Rank::Seventh.to_char(), '7');
    /// ```
    fn to_char;
    /// The rank's index, first = 0 to eighth = 7.
    ///
    /// ```
    /// assert_eq!(bitboards_core::Rank::Third.index(), 2);
    /// ```
    fn index;
    /// The eight squares of this rank.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Rank};
    ///
    /// assert_eq!(Rank::Second.bitboard(), Bitboard(0xFF00));
    /// ```
    fn bitboard = |index| 0xFF << (8 * index);
    /// Reads a rank digit, `1` to `8`, as the only character of the text.
    ///
    /// ```
    /// use bitboards_core::{ParseRankError, Rank};
    ///
    /// assert_eq!("1".parse(), Ok(Rank::First));
    /// assert_eq!("9".parse::<Rank>(), Err(ParseRankError::BadChar('9')));
    /// assert_eq!("10".parse::<Rank>(), Err(ParseRankError::BadLength(2)));
    /// ```
    impl FromStr;
    /// The rank named by a digit `1` to `8`.
    ///
    /// ```
    /// use bitboards_core::{ParseRankError, Rank};
    ///
    /// assert_eq!(Rank::try_from('3'), Ok(Rank::Third));
    /// assert_eq!(Rank::try_from('0'), Err(ParseRankError::BadChar('0')));
    /// ```
    impl TryFrom<char>;
    /// Why a character or string is not a rank digit `1` to `8`.
    ///
    /// ```
    /// use bitboards_core::{ParseRankError, Rank};
    ///
    /// let error = "9".parse::<Rank>().unwrap_err();
    /// assert_eq!(error, ParseRankError::BadChar('9'));
    /// assert_eq!(error.to_string(), "`9` is not a rank; expected a digit from `1` to `8`");
    /// assert_eq!(
    ///     "10".parse::<Rank>().unwrap_err().to_string(),
    ///     "a rank is one character, a digit from `1` to `8`; found 2 characters"
    /// );
    /// ```
    pub enum ParseRankError { a "rank", "a digit from `1` to `8`" }
}

/// A side: White moves up the board (north), Black down.
///
/// ```
/// use bitboards_core::Color;
///
/// assert_eq!(!Color::White, Color::Black);
/// assert_eq!(Color::Black.index(), 1);
/// assert_eq!("black".parse(), Ok(Color::Black));
/// assert_eq!(Color::try_from('w'), Ok(Color::White));
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

    /// The number of colours: the length of a per-colour table.
    ///
    /// ```
    /// use bitboards_core::{Bitboard, Color};
    ///
    /// let pieces_by_color = [Bitboard::EMPTY; Color::COUNT];
    /// assert_eq!(pieces_by_color.len(), 2);
    /// ```
    pub const COUNT: usize = 2;

    /// The colour's index in per-colour tables: White 0, Black 1.
    ///
    /// ```
    /// assert_eq!(bitboards_core::Color::White.index(), 0);
    /// ```
    #[inline]
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
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The colour named by its letter as FEN writes the side to move: `w`
    /// or `b`. `TryFrom<char>` does the same with an error.
    ///
    /// ```
    /// use bitboards_core::Color;
    ///
    /// assert_eq!(Color::from_char('b'), Some(Color::Black));
    /// assert_eq!(Color::from_char('W'), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// The colour's letter as FEN writes the side to move: `w` or `b`.
    ///
    /// ```
    /// assert_eq!(bitboards_core::Color::White.to_char(), 'w');
    /// ```
    #[inline]
    #[must_use]
    pub const fn to_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl core::ops::Not for Color {
    type Output = Color;

    #[inline]
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

/// Why a character or string is not a colour.
///
/// Like the standard library's `ParseBoolError`, it does not keep a rejected
/// string (that would need an allocation); a rejected character it does.
///
/// ```
/// use bitboards_core::{Color, ParseColorError};
///
/// assert_eq!(Color::try_from('x'), Err(ParseColorError::BadChar('x')));
/// assert_eq!("x".parse::<Color>(), Err(ParseColorError::BadChar('x')));
/// assert_eq!("White".parse::<Color>(), Err(ParseColorError::BadName));
/// assert_eq!(
///     ParseColorError::BadName.to_string(),
///     "not a colour; expected `white`, `black`, `w` or `b`"
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ParseColorError {
    /// The character, or one-character string, is not `w` or `b`.
    BadChar(char),
    /// The string is not `white`, `black`, `w` or `b`.
    BadName,
}

impl fmt::Display for ParseColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseColorError::BadChar(c) => {
                write!(f, "`{c}` is not a colour; expected `w` or `b`")
            }
            ParseColorError::BadName => {
                f.write_str("not a colour; expected `white`, `black`, `w` or `b`")
            }
        }
    }
}

impl core::error::Error for ParseColorError {}

/// Reads `white` or `black`, or the FEN letters `w` or `b` (lower case, as
/// `Display` and FEN write them).
///
/// ```
/// use bitboards_core::Color;
///
/// assert_eq!("white".parse(), Ok(Color::White));
/// assert_eq!("b".parse(), Ok(Color::Black));
/// assert!("blue".parse::<Color>().is_err());
/// ```
impl FromStr for Color {
    type Err = ParseColorError;

    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            _ => {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Color::try_from(c),
                    _ => Err(ParseColorError::BadName),
                }
            }
        }
    }
}

/// The colour named by its FEN letter, `w` or `b`.
///
/// ```
/// use bitboards_core::{Color, ParseColorError};
///
/// assert_eq!(Color::try_from('b'), Ok(Color::Black));
/// assert_eq!(Color::try_from('B'), Err(ParseColorError::BadChar('B')));
/// ```
impl TryFrom<char> for Color {
    type Error = ParseColorError;

    #[inline]
    fn try_from(c: char) -> Result<Color, ParseColorError> {
        Color::from_char(c).ok_or(ParseColorError::BadChar(c))
    }
}
