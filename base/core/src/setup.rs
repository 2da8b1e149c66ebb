//! What a position is made of before it is checked: the castling side and
//! rights, and [`Setup`] (a piece or nothing on every square, and the FEN
//! fields after the board); and the castling letters of a FEN matched with
//! a board, shared by the FEN reader and `position!`.

use crate::{Color, File, Piece, PieceKind, Square};

/// A side of the board to castle to: towards the h-file (king side, `O-O`) or
/// the a-file (queen side, `O-O-O`).
///
/// In Chess960 the side is told by where the castling rook stands relative
/// to the king, whatever the files.
///
/// ```
/// use bitboards_core::CastlingSide;
///
/// assert_eq!(CastlingSide::KingSide.index(), 0);
/// assert_eq!(CastlingSide::ALL, [CastlingSide::KingSide, CastlingSide::QueenSide]);
/// ```
#[repr(u8)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum CastlingSide {
    /// Towards the h-file: the king ends on g1 (g8), the rook on f1 (f8).
    KingSide,
    /// Towards the a-file: the king ends on c1 (c8), the rook on d1 (d8).
    QueenSide,
}

impl CastlingSide {
    /// Both sides, king side first (the order of FEN's `KQ`).
    ///
    /// ```
    /// assert_eq!(bitboards_core::CastlingSide::ALL.len(), 2);
    /// ```
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// King side 0, queen side 1.
    ///
    /// ```
    /// assert_eq!(bitboards_core::CastlingSide::QueenSide.index(), 1);
    /// ```
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"king-side"` or `"queen-side"`.
    ///
    /// ```
    /// assert_eq!(bitboards_core::CastlingSide::KingSide.name(), "king-side");
    /// ```
    #[must_use]
    #[inline]
    pub const fn name(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "king-side",
            CastlingSide::QueenSide => "queen-side",
        }
    }
}

/// Who may still castle, and with which rook.
///
/// Each right is stored as the file of its castling rook (on the owner's back
/// rank), so standard chess and Chess960 are the same data: the standard
/// start position has rooks on the h- and a-files.
///
/// ```
/// use bitboards_core::{CastlingRights, CastlingSide, Color, File};
///
/// let rights = CastlingRights::NONE.with(Color::White, CastlingSide::KingSide, Some(File::H));
/// assert_eq!(rights.rook_file(Color::White, CastlingSide::KingSide), Some(File::H));
/// assert!(!rights.has(Color::Black, CastlingSide::KingSide));
/// assert_eq!(CastlingRights::STANDARD.count(), 4);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct CastlingRights {
    rook_files: [[Option<File>; 2]; 2],
}

impl CastlingRights {
    /// No castling rights (FEN `-`).
    ///
    /// ```
    /// assert!(bitboards_core::CastlingRights::NONE.is_empty());
    /// ```
    pub const NONE: CastlingRights = CastlingRights {
        rook_files: [[None; 2]; 2],
    };

    /// All four rights of the standard start, rooks on the h- and a-files
    /// (FEN `KQkq`).
    ///
    /// ```
    /// use bitboards_core::{CastlingRights, CastlingSide, Color, File};
    ///
    /// let rights = CastlingRights::STANDARD;
    /// assert_eq!(rights.rook_file(Color::Black, CastlingSide::QueenSide), Some(File::A));
    /// ```
    pub const STANDARD: CastlingRights = CastlingRights {
        rook_files: [[Some(File::H), Some(File::A)]; 2],
    };

    /// The file of `color`'s castling rook on `side`, or `None` when that
    /// right is gone.
    ///
    /// ```
    /// use bitboards_core::{CastlingRights, CastlingSide, Color, File};
    ///
    /// assert_eq!(CastlingRights::STANDARD.rook_file(Color::White, CastlingSide::KingSide), Some(File::H));
    /// assert_eq!(CastlingRights::NONE.rook_file(Color::White, CastlingSide::KingSide), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn rook_file(self, color: Color, side: CastlingSide) -> Option<File> {
        self.rook_files[color as usize][side as usize]
    }

    /// Whether `color` may still castle on `side`.
    ///
    /// ```
    /// use bitboards_core::{CastlingRights, CastlingSide, Color};
    ///
    /// assert!(CastlingRights::STANDARD.has(Color::Black, CastlingSide::QueenSide));
    /// ```
    #[inline]
    #[must_use]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.rook_file(color, side).is_some()
    }

    /// These rights with `color`'s right on `side` set to the rook on
    /// `rook_file` (or removed with `None`).
    ///
    /// ```
    /// use bitboards_core::{CastlingRights, CastlingSide, Color, File};
    ///
    /// let rights = CastlingRights::STANDARD.with(Color::White, CastlingSide::QueenSide, None);
    /// assert_eq!(rights.count(), 3);
    /// ```
    #[must_use]
    #[inline]
    pub const fn with(
        mut self,
        color: Color,
        side: CastlingSide,
        rook_file: Option<File>,
    ) -> CastlingRights {
        self.rook_files[color as usize][side as usize] = rook_file;
        self
    }

    /// Whether no side may castle at all.
    ///
    /// ```
    /// use bitboards_core::CastlingRights;
    ///
    /// assert!(CastlingRights::NONE.is_empty());
    /// assert!(!CastlingRights::STANDARD.is_empty());
    /// ```
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        // Four byte compares rather than `count`, which the compiler reads
        // as one wide load that stalls on a move's just-written fields.
        matches!(self.rook_files, [[None, None], [None, None]])
    }

    /// How many of the four rights are held.
    ///
    /// ```
    /// assert_eq!(bitboards_core::CastlingRights::STANDARD.count(), 4);
    /// ```
    #[must_use]
    #[inline]
    pub const fn count(self) -> usize {
        let mut count = 0;
        let mut index = 0;
        while index < 4 {
            if self.rook_files[index / 2][index % 2].is_some() {
                count += 1;
            }
            index += 1;
        }
        count
    }
}

/// The parts of a position before they are checked: a piece (or nothing) on
/// every square, and the fields of a FEN after the board.
///
/// `bitboards`' `Position::from_setup` checks a setup by the same rules as
/// its FEN reader, and is a `const fn`, so a checked position can be a
/// constant. The placement rules alone are [`placement::check`](crate::placement::check),
/// also a `const fn`:
///
/// ```
/// use bitboards_core::{CastlingRights, Color, Piece, Setup, Square, placement};
///
/// const KINGS_AND_PAWN: Setup = {
///     let mut board = [None; 64];
///     board[Square::E1.index()] = Some(Piece::WhiteKing);
///     board[Square::E2.index()] = Some(Piece::WhitePawn);
///     board[Square::E8.index()] = Some(Piece::BlackKing);
///     let setup = Setup {
///         board,
///         side_to_move: Color::White,
///         castling: CastlingRights::NONE,
///         en_passant: None,
///         halfmove_clock: 0,
///         fullmove_number: 1,
///     };
///     assert!(placement::check(&setup).is_empty(), "not a legal placement");
///     setup
/// };
/// assert_eq!(KINGS_AND_PAWN.board[Square::E2.index()], Some(Piece::WhitePawn));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square::index`] (a1 = 0).
    pub board: [Option<Piece>; 64],
    /// The side whose turn it is.
    pub side_to_move: Color,
    /// Who may castle, with which rook.
    pub castling: CastlingRights,
    /// The square a pawn just skipped with a double push, if any.
    pub en_passant: Option<Square>,
    /// Half-moves since the last capture or pawn move (the fifty-move rule).
    pub halfmove_clock: u16,
    /// The move number, starting at 1 and counting up after Black moves.
    pub fullmove_number: u16,
}

impl Setup {
    /// The standard start position's setup.
    ///
    /// ```
    /// use bitboards_core::{Piece, Setup, Square, placement};
    ///
    /// assert!(placement::check(&Setup::START).is_empty());
    /// assert_eq!(Setup::START.board[Square::E1.index()], Some(Piece::WhiteKing));
    /// assert_eq!(Setup::START.board[Square::D8.index()], Some(Piece::BlackQueen));
    /// ```
    pub const START: Setup = {
        let back_rank = [
            PieceKind::Rook,
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Queen,
            PieceKind::King,
            PieceKind::Bishop,
            PieceKind::Knight,
            PieceKind::Rook,
        ];
        Setup {
            board: start_board(back_rank),
            side_to_move: Color::White,
            castling: CastlingRights::STANDARD,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    };
}

/// The start board with `back_rank` (files a to h) for both sides and a row
/// of pawns in front.
const fn start_board(back_rank: [PieceKind; 8]) -> [Option<Piece>; 64] {
    let mut board = [None; 64];
    let mut file = 0;
    while file < 8 {
        board[file] = Some(Piece::new(Color::White, back_rank[file]));
        board[8 + file] = Some(Piece::WhitePawn);
        board[48 + file] = Some(Piece::BlackPawn);
        board[56 + file] = Some(Piece::new(Color::Black, back_rank[file]));
        file += 1;
    }
    board
}

/// One letter of a FEN castling field, before it is matched with a board:
/// `K`/`Q`/`k`/`q` (the outermost rook on that side, X-FEN) or a rook's
/// file letter (`A`-`H` White, `a`-`h` Black, Shredder-FEN). The FEN
/// reader and `position!` both read and resolve letters through it.
///
/// ```
/// use bitboards_core::{CastlingSide, Color, File, Setup};
/// use bitboards_core::CastlingLetter;
///
/// let letter = CastlingLetter::from_ascii(b'q').unwrap();
/// assert_eq!(letter.color, Color::Black);
/// assert_eq!(letter.resolve(&Setup::START.board), (CastlingSide::QueenSide, File::A));
/// assert!(CastlingLetter::from_ascii(b'x').is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CastlingLetter {
    /// Whose right: upper case is White's.
    pub color: Color,
    /// `Some` for `K`/`Q`, `None` for a file letter.
    pub side: Option<CastlingSide>,
    /// A file letter's file; for `K`/`Q` the standard rook's (h, a), which
    /// they name when the board shows no rook on that side.
    pub file: File,
}

impl CastlingLetter {
    /// The letter `byte` names, or `None` when it is no castling letter.
    #[must_use]
    #[inline]
    pub const fn from_ascii(byte: u8) -> Option<CastlingLetter> {
        let color = if byte.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let (side, file) = match byte.to_ascii_lowercase() {
            b'k' => (Some(CastlingSide::KingSide), File::H),
            b'q' => (Some(CastlingSide::QueenSide), File::A),
            lower @ b'a'..=b'h' => (None, File::ALL[(lower - b'a') as usize]),
            _ => return None,
        };
        Some(CastlingLetter { color, side, file })
    }

    /// The right the letter names on `board`, as its side and rook file:
    /// `K`/`Q` the outermost rook on that side of the king on its home rank,
    /// a file letter the side of the king it is on. Where the board gives no
    /// answer (no king on the home rank, no such rook) the right is the
    /// standard rook's, or the side it would be on in standard chess, for
    /// the placement rules to report.
    #[must_use]
    pub const fn resolve(self, board: &[Option<Piece>; 64]) -> (CastlingSide, File) {
        let color = self.color;
        let king_file = home_rank_file(board, color, PieceKind::King, false);
        match (self.side, king_file) {
            (Some(side), Some(king_file)) => {
                let outermost = home_rank_file(
                    board,
                    color,
                    PieceKind::Rook,
                    matches!(side, CastlingSide::KingSide),
                );
                let file = match outermost {
                    Some(file) if beyond(side, file, king_file) => file,
                    _ => self.file,
                };
                (side, file)
            }
            (Some(side), None) => (side, self.file),
            (None, king_file) => {
                let king_file = match king_file {
                    Some(file) => file,
                    None => File::E,
                };
                let side = if self.file as u8 > king_file as u8 {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                (side, self.file)
            }
        }
    }
}

/// Whether `file` is on `side` of `king_file`.
const fn beyond(side: CastlingSide, file: File, king_file: File) -> bool {
    match side {
        CastlingSide::KingSide => file as u8 > king_file as u8,
        CastlingSide::QueenSide => (file as u8) < king_file as u8,
    }
}

/// The file of the first of `color`'s `kind` on its home rank, searching
/// from file a (or from file h, `from_h`).
const fn home_rank_file(
    board: &[Option<Piece>; 64],
    color: Color,
    kind: PieceKind,
    from_h: bool,
) -> Option<File> {
    let rank = crate::placement::home_rank(color);
    let wanted = Piece::new(color, kind);
    let mut step = 0;
    while step < 8 {
        let file = File::ALL[if from_h { 7 - step } else { step }];
        if let Some(piece) = board[Square::from_file_rank(file, rank).index()]
            && piece as u8 == wanted as u8
        {
            return Some(file);
        }
        step += 1;
    }
    None
}
