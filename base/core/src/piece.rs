//! Piece kinds and coloured pieces, with their FEN letters.

use core::fmt;
use core::str::FromStr;

use crate::Color;

/// What a piece is, without its colour: pawn, knight, bishop, rook, queen or
/// king.
///
/// The order (pawn first, king last) is the order of the per-kind boards of a
/// `Position` and of the Polyglot key table. The FEN letter
/// is lower case (`n` for a knight); [`PieceKind::from_char`] reads either
/// case.
///
/// ```
/// use bitboards_core::PieceKind;
///
/// assert_eq!(PieceKind::Knight.to_char(), 'n');
/// assert_eq!("Q".parse(), Ok(PieceKind::Queen));
/// assert_eq!(PieceKind::ALL.len(), PieceKind::COUNT);
/// assert_eq!(PieceKind::Rook.to_string(), "r");
/// ```
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum PieceKind {
    /// A pawn, `p`.
    Pawn,
    /// A knight, `n`.
    Knight,
    /// A bishop, `b`.
    Bishop,
    /// A rook, `r`.
    Rook,
    /// A queen, `q`.
    Queen,
    /// A king, `k`.
    King,
}

impl PieceKind {
    /// The number of piece kinds.
    ///
    /// ```
    /// assert_eq!(bitboards_core::PieceKind::COUNT, 6);
    /// ```
    pub const COUNT: usize = 6;

    /// Every kind, pawn first and king last.
    ///
    /// ```
    /// use bitboards_core::PieceKind;
    ///
    /// assert_eq!(PieceKind::ALL[0], PieceKind::Pawn);
    /// assert_eq!(PieceKind::ALL[5], PieceKind::King);
    /// ```
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// The kind's index in [`PieceKind::ALL`]: pawn 0 to king 5.
    ///
    /// ```
    /// assert_eq!(bitboards_core::PieceKind::Bishop.index(), 2);
    /// ```
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with the given index (pawn 0 to king 5), or `None` past 5.
    ///
    /// ```
    /// use bitboards_core::PieceKind;
    ///
    /// assert_eq!(PieceKind::new(3), Some(PieceKind::Rook));
    /// assert_eq!(PieceKind::new(6), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn new(index: u8) -> Option<PieceKind> {
        Some(match index {
            0 => PieceKind::Pawn,
            1 => PieceKind::Knight,
            2 => PieceKind::Bishop,
            3 => PieceKind::Rook,
            4 => PieceKind::Queen,
            5 => PieceKind::King,
            _ => return None,
        })
    }

    /// The kind named by a FEN letter in either case (`n` or `N` is a knight).
    ///
    /// ```
    /// use bitboards_core::PieceKind;
    ///
    /// assert_eq!(PieceKind::from_char('b'), Some(PieceKind::Bishop));
    /// assert_eq!(PieceKind::from_char('K'), Some(PieceKind::King));
    /// assert_eq!(PieceKind::from_char('x'), None);
    /// ```
    #[must_use]
    #[inline]
    pub const fn from_char(letter: char) -> Option<PieceKind> {
        Some(match letter.to_ascii_lowercase() {
            'p' => PieceKind::Pawn,
            'n' => PieceKind::Knight,
            'b' => PieceKind::Bishop,
            'r' => PieceKind::Rook,
            'q' => PieceKind::Queen,
            'k' => PieceKind::King,
            _ => return None,
        })
    }

    /// The kind's FEN letter, lower case.
    ///
    /// ```
    /// assert_eq!(bitboards_core::PieceKind::Pawn.to_char(), 'p');
    /// ```
    #[must_use]
    #[inline]
    pub const fn to_char(self) -> char {
        match self {
            PieceKind::Pawn => 'p',
            PieceKind::Knight => 'n',
            PieceKind::Bishop => 'b',
            PieceKind::Rook => 'r',
            PieceKind::Queen => 'q',
            PieceKind::King => 'k',
        }
    }

    /// Whether the kind moves any distance along lines: bishop, rook, queen.
    ///
    /// ```
    /// use bitboards_core::PieceKind;
    ///
    /// assert!(PieceKind::Queen.is_slider());
    /// assert!(!PieceKind::Knight.is_slider());
    /// ```
    #[must_use]
    #[inline]
    pub const fn is_slider(self) -> bool {
        matches!(self, PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen)
    }

    /// The kind's English name, lower case: `"knight"`.
    ///
    /// ```
    /// assert_eq!(bitboards_core::PieceKind::Knight.name(), "knight");
    /// ```
    #[must_use]
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Pawn => "pawn",
            PieceKind::Knight => "knight",
            PieceKind::Bishop => "bishop",
            PieceKind::Rook => "rook",
            PieceKind::Queen => "queen",
            PieceKind::King => "king",
        }
    }
}

/// Prints the FEN letter, lower case.
impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_char(), f)
    }
}

/// Why a string is not a piece letter.
///
/// ```
/// use bitboards_core::{ParsePieceError, Piece};
///
/// assert_eq!("x".parse::<Piece>(), Err(ParsePieceError::UnknownLetter('x')));
/// assert_eq!("".parse::<Piece>(), Err(ParsePieceError::BadLength(0)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ParsePieceError {
    /// The string is not exactly one character long; holds how many it has.
    BadLength(usize),
    /// The character is not one of `pnbrqk` (or upper case).
    UnknownLetter(char),
}

impl fmt::Display for ParsePieceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePieceError::BadLength(n) => {
                write!(
                    f,
                    "a piece is one FEN letter such as `N`; found {n} characters"
                )
            }
            ParsePieceError::UnknownLetter(c) => write!(
                f,
                "`{c}` is not a piece letter; expected one of `PNBRQK` (White) or `pnbrqk` (Black)"
            ),
        }
    }
}

impl core::error::Error for ParsePieceError {}

fn single_char(s: &str) -> Result<char, ParsePieceError> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(ParsePieceError::BadLength(s.chars().count())),
    }
}

/// Reads one FEN letter in either case.
impl FromStr for PieceKind {
    type Err = ParsePieceError;

    fn from_str(s: &str) -> Result<PieceKind, ParsePieceError> {
        let c = single_char(s)?;
        PieceKind::from_char(c).ok_or(ParsePieceError::UnknownLetter(c))
    }
}

/// A piece of one colour: one of the twelve kinds of man on a chess board.
///
/// Its FEN letter is upper case for White and lower case for Black. The
/// order (White's six kinds, then Black's, each pawn to king) is the order of
/// [`Piece::ALL`] and of `Position::named_bitboards`'s
/// first twelve entries' kinds within a colour.
///
/// ```
/// use bitboards_core::{Color, Piece, PieceKind};
///
/// let knight = Piece::new(Color::Black, PieceKind::Knight);
/// assert_eq!(knight, Piece::BlackKnight);
/// assert_eq!(knight.to_char(), 'n');
/// assert_eq!("N".parse(), Ok(Piece::WhiteKnight));
/// assert_eq!(knight.color(), Color::Black);
/// assert_eq!(knight.kind(), PieceKind::Knight);
/// assert_eq!(Piece::ALL.len(), Piece::COUNT);
/// ```
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Piece {
    /// `P`
    WhitePawn,
    /// `N`
    WhiteKnight,
    /// `B`
    WhiteBishop,
    /// `R`
    WhiteRook,
    /// `Q`
    WhiteQueen,
    /// `K`
    WhiteKing,
    /// `p`
    BlackPawn,
    /// `n`
    BlackKnight,
    /// `b`
    BlackBishop,
    /// `r`
    BlackRook,
    /// `q`
    BlackQueen,
    /// `k`
    BlackKing,
}

impl Piece {
    /// The number of coloured pieces.
    ///
    /// ```
    /// assert_eq!(bitboards_core::Piece::COUNT, 12);
    /// ```
    pub const COUNT: usize = 12;

    /// Every piece: White's pawn to king, then Black's.
    ///
    /// ```
    /// use bitboards_core::Piece;
    ///
    /// assert_eq!(Piece::ALL[0], Piece::WhitePawn);
    /// assert_eq!(Piece::ALL[11], Piece::BlackKing);
    /// ```
    pub const ALL: [Piece; 12] = [
        Piece::WhitePawn,
        Piece::WhiteKnight,
        Piece::WhiteBishop,
        Piece::WhiteRook,
        Piece::WhiteQueen,
        Piece::WhiteKing,
        Piece::BlackPawn,
        Piece::BlackKnight,
        Piece::BlackBishop,
        Piece::BlackRook,
        Piece::BlackQueen,
        Piece::BlackKing,
    ];

    /// The piece of `color` and `kind`.
    ///
    /// ```
    /// use bitboards_core::{Color, Piece, PieceKind};
    ///
    /// assert_eq!(Piece::new(Color::White, PieceKind::Queen), Piece::WhiteQueen);
    /// ```
    #[inline]
    #[must_use]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece::ALL[color as usize * PieceKind::COUNT + kind as usize]
    }

    /// The piece's index in [`Piece::ALL`]: White pawn 0 to Black king 11.
    ///
    /// ```
    /// assert_eq!(bitboards_core::Piece::BlackPawn.index(), 6);
    /// ```
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece's colour.
    ///
    /// ```
    /// use bitboards_core::{Color, Piece};
    ///
    /// assert_eq!(Piece::WhiteRook.color(), Color::White);
    /// ```
    #[inline]
    #[must_use]
    pub const fn color(self) -> Color {
        if (self as u8) < PieceKind::COUNT as u8 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The piece's kind.
    ///
    /// ```
    /// use bitboards_core::{Piece, PieceKind};
    ///
    /// assert_eq!(Piece::BlackBishop.kind(), PieceKind::Bishop);
    /// ```
    #[inline]
    #[must_use]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[self as usize % PieceKind::COUNT]
    }

    /// The piece named by a FEN letter: upper case is White, lower case Black.
    ///
    /// ```
    /// use bitboards_core::Piece;
    ///
    /// assert_eq!(Piece::from_char('k'), Some(Piece::BlackKing));
    /// assert_eq!(Piece::from_char('P'), Some(Piece::WhitePawn));
    /// assert_eq!(Piece::from_char('1'), None);
    /// ```
    #[must_use]
    #[inline]
    pub const fn from_char(letter: char) -> Option<Piece> {
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match PieceKind::from_char(letter) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }

    /// The piece's FEN letter: upper case for White, lower case for Black.
    ///
    /// ```
    /// use bitboards_core::Piece;
    ///
    /// assert_eq!(Piece::WhiteQueen.to_char(), 'Q');
    /// assert_eq!(Piece::BlackQueen.to_char(), 'q');
    /// ```
    #[must_use]
    #[inline]
    pub const fn to_char(self) -> char {
        let letter = self.kind().to_char();
        match self.color() {
            Color::White => letter.to_ascii_uppercase(),
            Color::Black => letter,
        }
    }

    /// The literature's name for this piece's bitboard: `"WhitePawns"`,
    /// `"BlackKing"`.
    ///
    /// ```
    /// use bitboards_core::Piece;
    ///
    /// assert_eq!(Piece::WhiteKnight.bitboard_name(), "WhiteKnights");
    /// assert_eq!(Piece::BlackKing.bitboard_name(), "BlackKing");
    /// ```
    #[must_use]
    #[inline]
    pub const fn bitboard_name(self) -> &'static str {
        [
            "WhitePawns",
            "WhiteKnights",
            "WhiteBishops",
            "WhiteRooks",
            "WhiteQueens",
            "WhiteKing",
            "BlackPawns",
            "BlackKnights",
            "BlackBishops",
            "BlackRooks",
            "BlackQueens",
            "BlackKing",
        ][self as usize]
    }
}

/// Prints the FEN letter.
impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_char(), f)
    }
}

/// Reads one FEN letter: upper case White, lower case Black.
impl FromStr for Piece {
    type Err = ParsePieceError;

    fn from_str(s: &str) -> Result<Piece, ParsePieceError> {
        let c = single_char(s)?;
        Piece::from_char(c).ok_or(ParsePieceError::UnknownLetter(c))
    }
}
