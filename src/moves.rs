//! Moves: the compact [`Move`], its UCI text, and the fixed-capacity
//! [`MoveList`] that move generation fills without touching the heap.

use core::fmt;

use crate::{File, PieceKind, Square};

/// What a move does besides going from one square to another.
///
/// ```
/// use bitboards::{Move, MoveKind, PieceKind, Square};
///
/// let promotion = Move::new(Square::E7, Square::E8, MoveKind::Promotion(PieceKind::Queen));
/// assert_eq!(promotion.kind(), MoveKind::Promotion(PieceKind::Queen));
/// assert_eq!(promotion.promotion(), Some(PieceKind::Queen));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A piece moves, capturing whatever stands on the target square
    /// (pawn pushes and double pushes included).
    Normal,
    /// A pawn captures en passant: the target is the square the enemy pawn
    /// skipped, and that pawn is removed from beside the capturing one.
    EnPassant,
    /// Castling, written as the king taking its own rook: the move goes
    /// from the king's square to the castling rook's square, so Chess960 is
    /// the same code as standard chess.
    Castling,
    /// A pawn reaches the last rank and becomes this piece (knight, bishop,
    /// rook or queen).
    Promotion(PieceKind),
}

/// A move in 16 bits: from-square, to-square and [`MoveKind`].
///
/// Castling goes from the king to the castling rook (king takes rook), which
/// says which rook in Chess960. `Display` writes UCI as GUIs expect it in
/// standard chess (`e1g1`); [`Move::uci`] writes the Chess960 form (`e1h1`)
/// on request.
///
/// A `Move` does not know whether its game is Chess960, so its `Display`
/// is right for standard chess only: in Chess960 the king's-move text of a
/// castling move can be the text of a plain king step (king b1, rook a1:
/// `b1c1`) or no move at all (king g1, rook h1: `g1g1`), and does not read
/// back to the castling move. To write a move for a position, use
/// [`Position::uci`](crate::Position::uci), which picks the notation from
/// the position's castling rights.
///
/// ```
/// use bitboards::{Move, MoveKind, Square};
///
/// let castle = Move::new(Square::E1, Square::H1, MoveKind::Castling);
/// assert_eq!(castle.to_string(), "e1g1");
/// assert_eq!(castle.uci(bitboards::CastlingNotation::KingTakesRook).to_string(), "e1h1");
/// assert_eq!(core::mem::size_of::<Move>(), 2);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

// Bits 0..6 from, 6..12 to, 12..16 the kind's tag.
const TAG_NORMAL: u16 = 0;
const TAG_EN_PASSANT: u16 = 1;
const TAG_CASTLING: u16 = 2;
/// A promotion's tag is `PROMOTION_BASE` plus the piece kind's index,
/// knight (1) to queen (4): tags 3 to 6, right after castling's.
const PROMOTION_BASE: u16 = TAG_CASTLING;

impl Move {
    /// The null move: a pass, as PGN writes `--` and UCI `0000`. It is no
    /// legal move of any position ([`Position::is_legal`](crate::Position::is_legal)
    /// says no, and [`Position::play`](crate::Position::play) must not be
    /// given it); [`Game::play_null`](crate::Game::play_null) plays it as
    /// [`Position::null_move`](crate::Position::null_move).
    ///
    /// ```
    /// use bitboards::{Move, Position};
    ///
    /// assert!(Move::NULL.is_null());
    /// assert_eq!(Move::NULL.to_string(), "0000");
    /// assert!(!Position::START.is_legal(Move::NULL));
    /// ```
    pub const NULL: Move = Move(0);

    /// Whether this is [`Move::NULL`].
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Square};
    ///
    /// assert!(!Move::new(Square::E2, Square::E4, MoveKind::Normal).is_null());
    /// ```
    #[inline]
    #[must_use]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The move from `from` to `to` of the given kind.
    ///
    /// A promotion to a pawn or a king is not a move; it is made a queen
    /// promotion, so that every `Move` value stands for something.
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Square};
    ///
    /// let mv = Move::new(Square::G1, Square::F3, MoveKind::Normal);
    /// assert_eq!((mv.from(), mv.to()), (Square::G1, Square::F3));
    /// assert_eq!(mv.to_string(), "g1f3");
    /// ```
    #[inline]
    #[must_use]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let tag = match kind {
            MoveKind::Normal => TAG_NORMAL,
            MoveKind::EnPassant => TAG_EN_PASSANT,
            MoveKind::Castling => TAG_CASTLING,
            MoveKind::Promotion(piece) => match piece {
                PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook => {
                    PROMOTION_BASE + piece as u16
                }
                _ => PROMOTION_BASE + PieceKind::Queen as u16,
            },
        };
        Move(from as u16 | (to as u16) << 6 | tag << 12)
    }

    /// The move's 16 bits, for a transposition table or a book entry;
    /// [`Move::from_bits`] reads them back.
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Square};
    ///
    /// let mv = Move::new(Square::E2, Square::E4, MoveKind::Normal);
    /// assert_eq!(Move::from_bits(mv.to_bits()), Some(mv));
    /// ```
    #[inline]
    #[must_use]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// The move whose [`Move::to_bits`] is `bits`, or `None` for bits no
    /// move has (an unknown kind tag). The move need not be legal anywhere:
    /// ask [`Position::is_legal`](crate::Position::is_legal).
    ///
    /// ```
    /// use bitboards::Move;
    ///
    /// assert!(Move::from_bits(0x1234).is_some());
    /// assert_eq!(Move::from_bits(0xF000), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u16) -> Option<Move> {
        if bits >> 12 <= PROMOTION_BASE + PieceKind::Queen as u16 {
            Some(Move(bits))
        } else {
            None
        }
    }

    /// The square the moving piece leaves (the king's, for castling).
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Square};
    ///
    /// assert_eq!(Move::new(Square::B1, Square::C3, MoveKind::Normal).from(), Square::B1);
    /// ```
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        square(self.0 & 63)
    }

    /// The target square (the castling rook's square, for castling).
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Square};
    ///
    /// assert_eq!(Move::new(Square::B1, Square::C3, MoveKind::Normal).to(), Square::C3);
    /// ```
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        square(self.0 >> 6 & 63)
    }

    /// What kind of move this is.
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Square};
    ///
    /// let mv = Move::new(Square::E5, Square::D6, MoveKind::EnPassant);
    /// assert_eq!(mv.kind(), MoveKind::EnPassant);
    /// ```
    #[inline]
    #[must_use]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            TAG_NORMAL => MoveKind::Normal,
            TAG_EN_PASSANT => MoveKind::EnPassant,
            TAG_CASTLING => MoveKind::Castling,
            tag => match PieceKind::new((tag - PROMOTION_BASE) as u8) {
                Some(piece) => MoveKind::Promotion(piece),
                None => MoveKind::Normal,
            },
        }
    }

    /// The piece a promotion makes, or `None`.
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, PieceKind, Square};
    ///
    /// let mv = Move::new(Square::A7, Square::B8, MoveKind::Promotion(PieceKind::Knight));
    /// assert_eq!(mv.promotion(), Some(PieceKind::Knight));
    /// assert_eq!(Move::new(Square::A2, Square::A3, MoveKind::Normal).promotion(), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn promotion(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::Promotion(piece) => Some(piece),
            _ => None,
        }
    }

    /// Whether this is castling.
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Square};
    ///
    /// assert!(Move::new(Square::E8, Square::A8, MoveKind::Castling).is_castling());
    /// ```
    #[inline]
    #[must_use]
    pub const fn is_castling(self) -> bool {
        self.0 >> 12 == TAG_CASTLING
    }

    /// Where the king ends up: the target square, except for castling,
    /// where it is the g- or c-file of the king's rank.
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Square};
    ///
    /// assert_eq!(Move::new(Square::E1, Square::A1, MoveKind::Castling).king_target(), Square::C1);
    /// assert_eq!(Move::new(Square::F1, Square::H1, MoveKind::Castling).king_target(), Square::G1);
    /// ```
    #[inline]
    #[must_use]
    pub const fn king_target(self) -> Square {
        if self.is_castling() {
            let file = if (self.to() as u8) > (self.from() as u8) {
                File::G
            } else {
                File::C
            };
            Square::from_file_rank(file, self.from().rank())
        } else {
            self.to()
        }
    }

    /// Where the castling rook ends up: the f- or d-file of the king's rank
    /// (the side the rook stood on); `None` for any other move.
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Square};
    ///
    /// assert_eq!(Move::new(Square::E1, Square::A1, MoveKind::Castling).castling_rook_target(), Some(Square::D1));
    /// assert_eq!(Move::new(Square::B8, Square::H8, MoveKind::Castling).castling_rook_target(), Some(Square::F8));
    /// assert_eq!(Move::new(Square::E1, Square::F1, MoveKind::Normal).castling_rook_target(), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn castling_rook_target(self) -> Option<Square> {
        if !self.is_castling() {
            return None;
        }
        let file = if (self.to() as u8) > (self.from() as u8) {
            File::F
        } else {
            File::D
        };
        Some(Square::from_file_rank(file, self.from().rank()))
    }

    /// The move in UCI notation, with castling written as `notation` says.
    ///
    /// ```
    /// use bitboards::{CastlingNotation, Move, MoveKind, Square};
    ///
    /// let castle = Move::new(Square::E8, Square::A8, MoveKind::Castling);
    /// assert_eq!(castle.uci(CastlingNotation::KingToTarget).to_string(), "e8c8");
    /// assert_eq!(castle.uci(CastlingNotation::KingTakesRook).to_string(), "e8a8");
    /// ```
    #[inline]
    #[must_use]
    pub const fn uci(self, notation: CastlingNotation) -> Uci {
        Uci { mv: self, notation }
    }
}

const fn square(index: u16) -> Square {
    match Square::new(index as u8) {
        Some(square) => square,
        // Six bits are always below 64.
        None => Square::A1,
    }
}

/// How UCI text writes castling.
///
/// ```
/// use bitboards::{CastlingNotation, Move, MoveKind, Square};
///
/// let castle = Move::new(Square::E1, Square::H1, MoveKind::Castling);
/// assert_eq!(castle.uci(CastlingNotation::default()).to_string(), "e1g1");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum CastlingNotation {
    /// The king's two-square move, `e1g1`: standard chess, what GUIs expect.
    #[default]
    KingToTarget,
    /// The king taking its own rook, `e1h1`: Chess960 (`UCI_Chess960`),
    /// where the king's move alone can be ambiguous or no move at all.
    KingTakesRook,
}

/// A move's UCI text, from [`Move::uci`].
///
/// ```
/// use bitboards::{CastlingNotation, Move, MoveKind, PieceKind, Square};
///
/// let mv = Move::new(Square::B7, Square::A8, MoveKind::Promotion(PieceKind::Rook));
/// assert_eq!(mv.uci(CastlingNotation::KingTakesRook).to_string(), "b7a8r");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Uci {
    mv: Move,
    notation: CastlingNotation,
}

impl Uci {
    /// The text's ASCII bytes, in a buffer of the longest (`a7a8q`), and
    /// how many of them there are: for a writer of bytes (a column of a
    /// table) that has no `String` to [`push_to`](Self::push_to).
    ///
    /// ```
    /// use bitboards::{CastlingNotation, Move, MoveKind, PieceKind, Square};
    ///
    /// let mv = Move::new(Square::B7, Square::A8, MoveKind::Promotion(PieceKind::Queen));
    /// let (text, len) = mv.uci(CastlingNotation::KingToTarget).ascii();
    /// assert_eq!(&text[..len], b"b7a8q");
    /// let (text, len) = Move::NULL.uci(CastlingNotation::KingToTarget).ascii();
    /// assert_eq!(&text[..len], b"0000");
    /// ```
    #[must_use]
    #[inline]
    pub fn ascii(&self) -> ([u8; 5], usize) {
        if self.mv.is_null() {
            return (*b"0000\0", 4);
        }
        let to = match self.notation {
            CastlingNotation::KingToTarget => self.mv.king_target(),
            CastlingNotation::KingTakesRook => self.mv.to(),
        };
        let mut text = [0u8; 5];
        text[..2].copy_from_slice(self.mv.from().name().as_bytes());
        text[2..4].copy_from_slice(to.name().as_bytes());
        let len = match self.mv.promotion() {
            Some(piece) => {
                text[4] = piece.to_char() as u8;
                5
            }
            None => 4,
        };
        (text, len)
    }

    /// Appends the text to `out`: what `to_string` gives, without the
    /// formatting machinery or an allocation of its own (a table of games
    /// writes one per move).
    ///
    /// ```
    /// use bitboards::{CastlingNotation, Move, MoveKind, Square};
    ///
    /// let mut line = String::from("e2e4 ");
    /// Move::new(Square::E7, Square::E5, MoveKind::Normal)
    ///     .uci(CastlingNotation::KingToTarget)
    ///     .push_to(&mut line);
    /// assert_eq!(line, "e2e4 e7e5");
    /// ```
    #[cfg(feature = "alloc")]
    pub fn push_to(&self, out: &mut alloc::string::String) {
        // The squares' names as they are (`&'static str`): no UTF-8 check
        // of the bytes `ascii` puts together, which cost as much as the rest.
        if self.mv.is_null() {
            out.push_str("0000");
            return;
        }
        let to = match self.notation {
            CastlingNotation::KingToTarget => self.mv.king_target(),
            CastlingNotation::KingTakesRook => self.mv.to(),
        };
        out.push_str(self.mv.from().name());
        out.push_str(to.name());
        if let Some(piece) = self.mv.promotion() {
            out.push(piece.to_char());
        }
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (text, len) = self.ascii();
        // Square names and piece letters are ASCII.
        f.pad(core::str::from_utf8(&text[..len]).map_err(|_| fmt::Error)?)
    }
}

/// UCI, with castling as the king's move (`e1g1`): right for standard
/// chess; in Chess960 that text can be a different move or none (`g1g1`).
/// [`Position::uci`](crate::Position::uci) writes the form that reads back
/// in the move's position.
///
/// ```
/// use bitboards::{Move, MoveKind, Square};
///
/// assert_eq!(Move::new(Square::E1, Square::H1, MoveKind::Castling).to_string(), "e1g1");
/// // Chess960, king g1 and rook h1: the king stays where it is.
/// assert_eq!(Move::new(Square::G1, Square::H1, MoveKind::Castling).to_string(), "g1g1");
/// ```
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.uci(CastlingNotation::KingToTarget), f)
    }
}

/// `Move(e2e4)`, the UCI text with castling as king takes rook, so that the
/// rook is visible.
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({})", self.uci(CastlingNotation::KingTakesRook))
    }
}

/// How many moves a [`MoveList`] holds. No legal position has more than 218
/// legal moves, and [`Position`](crate::Position) rejects material that no
/// game can reach (more than 16 pieces or 8 pawns a side), which keeps every
/// position it accepts within that bound.
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack: room for every legal move of any position,
/// no heap allocation.
///
/// ```
/// use bitboards::Position;
///
/// let moves = Position::START.legal_moves();
/// assert_eq!(moves.len(), 20);
/// assert!(moves.iter().any(|mv| mv.to_string() == "g1f3"));
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    ///
    /// ```
    /// assert!(bitboards::MoveList::new().is_empty());
    /// ```
    #[inline]
    #[must_use]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    /// Adds `mv` at the end; returns `false` (and adds nothing) when the
    /// list is full, which move generation never makes it.
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, MoveList, Square};
    ///
    /// let mut list = MoveList::new();
    /// assert!(list.push(Move::new(Square::E2, Square::E4, MoveKind::Normal)));
    /// assert_eq!(list.len(), 1);
    /// ```
    #[inline]
    pub fn push(&mut self, mv: Move) -> bool {
        match self.moves.get_mut(self.len) {
            Some(slot) => {
                *slot = mv;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    /// How many moves the list holds.
    ///
    /// ```
    /// assert_eq!(bitboards::MoveList::new().len(), 0);
    /// ```
    #[inline]
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let mate = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")?;
    /// assert!(mate.legal_moves().is_empty());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let moves = Position::START.legal_moves();
    /// assert_eq!(moves.as_slice().len(), 20);
    /// ```
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves, in generation order.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// assert_eq!(Position::START.legal_moves().iter().count(), 20);
    /// ```
    #[inline]
    pub fn iter(&self) -> core::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether the list holds `mv`: the slice's `contains`, with the same
    /// signature (a reference).
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Position, Square};
    ///
    /// let moves = Position::START.legal_moves();
    /// assert!(moves.contains(&Move::new(Square::E2, Square::E4, MoveKind::Normal)));
    /// ```
    #[inline]
    #[must_use]
    pub fn contains(&self, mv: &Move) -> bool {
        self.as_slice().contains(mv)
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The moves by value: `for mv in position.legal_moves()` yields `Move`.
///
/// ```
/// use bitboards::{Move, Position};
///
/// let mut count = 0;
/// for mv in Position::START.legal_moves() {
///     let _: Move = mv;
///     count += 1;
/// }
/// assert_eq!(count, 20);
/// let moves: Vec<Move> = Position::START.legal_moves().into_iter().collect();
/// assert_eq!(moves.len(), 20);
/// ```
impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;

    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter {
            list: self,
            next: 0,
        }
    }
}

/// The moves of a [`MoveList`] by value, from its `into_iter`.
#[derive(Clone, Debug)]
pub struct MoveListIntoIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        let mv = self.list.as_slice().get(self.next).copied()?;
        self.next += 1;
        Some(mv)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for MoveListIntoIter {}

impl core::iter::FusedIterator for MoveListIntoIter {}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
