//! Any setup a board editor or python-chess's `Board` can hold, and the
//! moves of one the move generator does not take.
//!
//! [`Position`] keeps the rules of chess: one king a side, no pawn on a back
//! rank, the side not to move not in check. [`AnySetup`] keeps none of them:
//! no king or two, pawns on the first rank, castling rights without their
//! rook, an en passant square no pawn made, promoted pieces. It says what is
//! wrong with itself ([`AnySetup::status`], python-chess's `status()` flags)
//! and becomes a position with [`AnySetup::to_position`].
//!
//! A position made from a setup that breaks the generator's rules is
//! *loose*: [`Position::legal_moves`] does not apply to it, and this
//! module's functions answer instead, by python-chess's rules: the
//! pseudo-legal moves ([`pseudo_legal_moves`]) that leave the side to
//! move's king (the highest square's, if any) unattacked
//! ([`loose_legal_moves`]), with no castling.
//!
//! ```
//! use bitboards::{AnySetup, Square, SetupStatus};
//! use bitboards::any_setup;
//!
//! // A king alone: no black king, and a pawn on the first rank.
//! let setup = AnySetup::from_fen("8/8/8/8/8/8/8/K3P3 w - - 0 1")?;
//! let status = setup.status(false);
//! assert!(status.contains(SetupStatus::NO_BLACK_KING));
//! assert!(status.contains(SetupStatus::PAWNS_ON_BACKRANK));
//!
//! let (position, loose) = setup.to_position(false);
//! assert!(loose);
//! let moves = any_setup::loose_legal_moves(&position);
//! // The king's three moves, and the pawn's pushes from the first rank
//! // (one or two squares, as python-chess pushes a pawn from its second).
//! assert_eq!(moves.len(), 5);
//! assert!(moves.iter().any(|mv| mv.to() == Square::E3));
//! # Ok::<(), bitboards::AnyFenError>(())
//! ```

use core::fmt;

use crate::{
    Bitboard, CastlingRights, CastlingSide, Color, FenField, Move, MoveKind, MoveList, Piece,
    PieceKind, Position, PositionError, Setup, Square, attacks,
};

const RANK_1: Bitboard = Bitboard(0xFF);
const RANK_8: Bitboard = Bitboard(0xFF << 56);

/// What is wrong with a setup: python-chess's `Status` flags, with its bit
/// values (`int(board.status())` is [`SetupStatus::bits`]).
///
/// ```
/// use bitboards::{AnySetup, SetupStatus};
///
/// let start = AnySetup::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")?;
/// assert!(start.status(false).is_valid());
/// let empty = AnySetup::EMPTY.status(false);
/// assert_eq!(empty, SetupStatus::EMPTY | SetupStatus::NO_WHITE_KING | SetupStatus::NO_BLACK_KING);
/// assert_eq!(empty.bits(), 2051);
/// # Ok::<(), bitboards::AnyFenError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct SetupStatus(u32);

impl SetupStatus {
    /// Nothing wrong.
    pub const VALID: SetupStatus = SetupStatus(0);
    /// White has no king.
    pub const NO_WHITE_KING: SetupStatus = SetupStatus(1 << 0);
    /// Black has no king.
    pub const NO_BLACK_KING: SetupStatus = SetupStatus(1 << 1);
    /// More than two kings.
    pub const TOO_MANY_KINGS: SetupStatus = SetupStatus(1 << 2);
    /// More than eight white pawns.
    pub const TOO_MANY_WHITE_PAWNS: SetupStatus = SetupStatus(1 << 3);
    /// More than eight black pawns.
    pub const TOO_MANY_BLACK_PAWNS: SetupStatus = SetupStatus(1 << 4);
    /// A pawn on the first or eighth rank.
    pub const PAWNS_ON_BACKRANK: SetupStatus = SetupStatus(1 << 5);
    /// More than sixteen white pieces.
    pub const TOO_MANY_WHITE_PIECES: SetupStatus = SetupStatus(1 << 6);
    /// More than sixteen black pieces.
    pub const TOO_MANY_BLACK_PIECES: SetupStatus = SetupStatus(1 << 7);
    /// Castling rights that are not [`AnySetup::clean_castling`]'s.
    pub const BAD_CASTLING_RIGHTS: SetupStatus = SetupStatus(1 << 8);
    /// An en passant square no double push could have made.
    pub const INVALID_EP_SQUARE: SetupStatus = SetupStatus(1 << 9);
    /// The side not to move is in check.
    pub const OPPOSITE_CHECK: SetupStatus = SetupStatus(1 << 10);
    /// No pieces at all.
    pub const EMPTY: SetupStatus = SetupStatus(1 << 11);
    /// More than two pieces give check.
    pub const TOO_MANY_CHECKERS: SetupStatus = SetupStatus(1 << 15);
    /// A check no last move could have given.
    pub const IMPOSSIBLE_CHECK: SetupStatus = SetupStatus(1 << 16);

    /// The flags as python-chess's integer.
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The flags of python-chess's integer (unknown bits kept).
    #[must_use]
    pub const fn from_bits(bits: u32) -> SetupStatus {
        SetupStatus(bits)
    }

    /// Whether every flag of `other` is set here.
    #[must_use]
    pub const fn contains(self, other: SetupStatus) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no flag is set.
    #[must_use]
    pub const fn is_valid(self) -> bool {
        self.0 == 0
    }
}

impl core::ops::BitOr for SetupStatus {
    type Output = SetupStatus;

    fn bitor(self, other: SetupStatus) -> SetupStatus {
        SetupStatus(self.0 | other.0)
    }
}

impl core::ops::BitOrAssign for SetupStatus {
    fn bitor_assign(&mut self, other: SetupStatus) {
        self.0 |= other.0;
    }
}

/// A FEN field [`AnySetup::from_fen`] cannot read, or a seventh field.
///
/// ```
/// use bitboards::{AnySetup, FenField};
///
/// let error = AnySetup::from_fen("8/8/8/8/8/8/8/8 x").unwrap_err();
/// assert_eq!(error.field(), Some(FenField::SideToMove));
/// assert_eq!(error.to_string(), "invalid side to move field in FEN: \"x\"");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AnyFenError {
    field: Option<FenField>,
    #[cfg(feature = "alloc")]
    text: alloc::string::String,
}

impl AnyFenError {
    fn new(field: Option<FenField>, _text: &str) -> AnyFenError {
        AnyFenError {
            field,
            #[cfg(feature = "alloc")]
            text: alloc::string::String::from(_text),
        }
    }

    /// The field that is wrong; `None` when the FEN has more than six.
    #[must_use]
    pub const fn field(&self) -> Option<FenField> {
        self.field
    }
}

impl fmt::Display for AnyFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field {
            Some(field) => write!(f, "invalid {} field in FEN", field.name())?,
            None => f.write_str("a FEN has at most six fields")?,
        }
        #[cfg(feature = "alloc")]
        write!(f, ": {:?}", self.text)?;
        Ok(())
    }
}

impl core::error::Error for AnyFenError {}

/// Any placement, with the castling rights and en passant square as set
/// (python-chess's `Board` before it is judged): the rights are rook
/// squares, not cleaned; the en passant square is kept whether or not a
/// pawn could have made it; promoted pieces are marked.
///
/// [`Setup`] is the same for positions that keep the rules, with castling
/// rights as [`CastlingRights`] (one rook a side); this holds what those
/// cannot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AnySetup {
    /// The piece on each square, indexed by [`Square::index`] (a1 = 0).
    pub board: [Option<Piece>; 64],
    /// The side whose turn it is.
    pub side_to_move: Color,
    /// The castling rights as set: the squares of their rooks.
    pub castling: Bitboard,
    /// The en passant square as set.
    pub en_passant: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove_clock: u16,
    /// The move number, from 1.
    pub fullmove_number: u16,
    /// The pieces that were pawns (python-chess's `promoted`, `~` after a
    /// piece in a FEN).
    pub promoted: Bitboard,
}

impl AnySetup {
    /// No pieces, White to move, no rights, the clocks at their start.
    pub const EMPTY: AnySetup = AnySetup {
        board: [None; 64],
        side_to_move: Color::White,
        castling: Bitboard::EMPTY,
        en_passant: None,
        halfmove_clock: 0,
        fullmove_number: 1,
        promoted: Bitboard::EMPTY,
    };

    /// A position's setup: its rights as their rooks, no promoted pieces.
    ///
    /// ```
    /// use bitboards::{AnySetup, Position};
    ///
    /// let setup = AnySetup::from_position(&Position::START);
    /// assert_eq!(setup.castling.count(), 4);
    /// assert!(setup.status(false).is_valid());
    /// ```
    #[must_use]
    pub const fn from_position(position: &Position) -> AnySetup {
        let setup = position.setup();
        AnySetup {
            board: setup.board,
            side_to_move: setup.side_to_move,
            castling: position.castling_rooks(),
            en_passant: setup.en_passant,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number,
            promoted: Bitboard::EMPTY,
        }
    }

    /// A FEN read as python-chess reads it: any placement (`~` after a
    /// piece marks it promoted), the fields after the board optional (`w`,
    /// `-`, `-`, 0, 1), castling letters resolved against the pieces as
    /// python-chess resolves them ([`castling_field`]).
    ///
    /// ```
    /// use bitboards::{AnySetup, Square};
    ///
    /// let setup = AnySetup::from_fen("Q~3k3/8/8/8/8/8/8/4K3 b")?;
    /// assert!(setup.promoted.contains(Square::A8));
    /// assert_eq!(setup.fullmove_number, 1);
    /// # Ok::<(), bitboards::AnyFenError>(())
    /// ```
    ///
    /// # Errors
    /// The first field that is not what python-chess reads, or a seventh.
    pub fn from_fen(fen: &str) -> Result<AnySetup, AnyFenError> {
        let mut fields = fen.split_ascii_whitespace();
        let placement = fields.next().unwrap_or("");
        let mut setup = AnySetup::EMPTY;
        let (board, promoted) = parse_placement(placement)
            .ok_or_else(|| AnyFenError::new(Some(FenField::Board), placement))?;
        setup.board = board;
        setup.promoted = promoted;
        setup.side_to_move = match fields.next().unwrap_or("w") {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(AnyFenError::new(Some(FenField::SideToMove), other)),
        };
        let castling = fields.next().unwrap_or("-");
        setup.castling = castling_field(&setup.board, promoted, castling)
            .ok_or_else(|| AnyFenError::new(Some(FenField::Castling), castling))?;
        setup.en_passant = match fields.next().unwrap_or("-") {
            "-" => None,
            name => Some(
                name.parse::<Square>()
                    .map_err(|_| AnyFenError::new(Some(FenField::EnPassant), name))?,
            ),
        };
        if let Some(clock) = fields.next() {
            setup.halfmove_clock = clock
                .parse()
                .map_err(|_| AnyFenError::new(Some(FenField::HalfmoveClock), clock))?;
        }
        if let Some(number) = fields.next() {
            setup.fullmove_number = number
                .parse::<u16>()
                .map_err(|_| AnyFenError::new(Some(FenField::FullmoveNumber), number))?
                .max(1);
        }
        match fields.next() {
            Some(extra) => Err(AnyFenError::new(None, extra)),
            None => Ok(setup),
        }
    }

    /// The pieces, side to move and clocks as a position without any rule
    /// checked, castling and en passant left out (they are the setup's to
    /// judge).
    #[must_use]
    pub const fn placement(&self) -> Position {
        let fullmove_number = if self.fullmove_number == 0 {
            1
        } else {
            self.fullmove_number
        };
        Position::from_setup_unchecked(Setup {
            board: self.board,
            side_to_move: self.side_to_move,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove_clock: self.halfmove_clock,
            fullmove_number,
        })
    }

    /// The king python-chess takes for `color`: the highest square's that
    /// is not promoted.
    #[must_use]
    pub fn king(&self, color: Color) -> Option<Square> {
        (self.placement().pieces(color, PieceKind::King) & !self.promoted).last()
    }

    /// python-chess's `clean_castling_rights()`: the rights that have their
    /// rook on its corner or (in Chess960) either side of a king on its back
    /// rank.
    ///
    /// ```
    /// use bitboards::{AnySetup, Bitboard, Square};
    ///
    /// // Rights for rooks that are not there.
    /// let setup = AnySetup::from_fen("1r2k3/8/8/8/8/8/8/R3KR2 w KQkq - 0 1")?;
    /// assert_eq!(setup.clean_castling(false), Square::A1.bitboard());
    /// # Ok::<(), bitboards::AnyFenError>(())
    /// ```
    #[must_use]
    pub fn clean_castling(&self, chess960: bool) -> Bitboard {
        self.clean_castling_of(&self.placement(), chess960)
    }

    fn clean_castling_of(&self, position: &Position, chess960: bool) -> Bitboard {
        let rooks = position.by_kind(PieceKind::Rook) & self.castling;
        let kings = position.by_kind(PieceKind::King) & !self.promoted;
        let mut clean = Bitboard::EMPTY;
        for (color, backrank) in [(Color::White, RANK_1), (Color::Black, RANK_8)] {
            let own = position.by_color(color);
            let mut castling = rooks & own & backrank;
            let king_mask = kings & own & backrank;
            if !chess960 {
                castling &= Bitboard(0x8100_0000_0000_0081);
                if (king_mask & Bitboard(0x1000_0000_0000_0010)).is_empty() {
                    castling = Bitboard::EMPTY;
                }
                clean |= castling;
                continue;
            }
            let (Some(king), Some(a_side), Some(h_side)) =
                (king_mask.last(), castling.first(), castling.last())
            else {
                continue;
            };
            if a_side < king {
                clean |= a_side.bitboard();
            }
            if h_side > king {
                clean |= h_side.bitboard();
            }
        }
        clean
    }

    /// python-chess's valid en passant square: the one set, if a pawn of
    /// the side not to move stands in front of it and it and the square
    /// behind it are empty.
    #[must_use]
    pub fn valid_en_passant(&self) -> Option<Square> {
        let square = self.en_passant?;
        let index = square.index();
        let (rank, pawn, behind) = match self.side_to_move {
            Color::White => (5, index.checked_sub(8)?, index + 8),
            Color::Black => (2, index + 8, index.checked_sub(8)?),
        };
        if square.rank().index() != rank || pawn >= 64 || behind >= 64 {
            return None;
        }
        let them = self.side_to_move.opponent();
        (self.board[pawn] == Some(Piece::new(them, PieceKind::Pawn))
            && self.board[index].is_none()
            && self.board[behind].is_none())
        .then_some(square)
    }

    /// python-chess's `status()`: every rule the setup breaks.
    ///
    /// ```
    /// use bitboards::{AnySetup, SetupStatus};
    ///
    /// // Black gives check, and it is Black's turn.
    /// let setup = AnySetup::from_fen("4k3/8/8/8/8/8/8/r3K3 b - - 0 1")?;
    /// assert_eq!(setup.status(false), SetupStatus::OPPOSITE_CHECK);
    /// # Ok::<(), bitboards::AnyFenError>(())
    /// ```
    #[must_use]
    pub fn status(&self, chess960: bool) -> SetupStatus {
        let position = self.placement();
        let mut errors = SetupStatus::VALID;
        let occupied = position.occupied();
        let kings = position.by_kind(PieceKind::King);
        let pawns = position.by_kind(PieceKind::Pawn);
        let (white, black) = (
            position.by_color(Color::White),
            position.by_color(Color::Black),
        );
        for (broken, flag) in [
            (occupied.is_empty(), SetupStatus::EMPTY),
            ((white & kings).is_empty(), SetupStatus::NO_WHITE_KING),
            ((black & kings).is_empty(), SetupStatus::NO_BLACK_KING),
            (kings.count() > 2, SetupStatus::TOO_MANY_KINGS),
            (white.count() > 16, SetupStatus::TOO_MANY_WHITE_PIECES),
            (black.count() > 16, SetupStatus::TOO_MANY_BLACK_PIECES),
            (
                (white & pawns).count() > 8,
                SetupStatus::TOO_MANY_WHITE_PAWNS,
            ),
            (
                (black & pawns).count() > 8,
                SetupStatus::TOO_MANY_BLACK_PAWNS,
            ),
            (
                !(pawns & (RANK_1 | RANK_8)).is_empty(),
                SetupStatus::PAWNS_ON_BACKRANK,
            ),
            (
                self.castling != self.clean_castling_of(&position, chess960),
                SetupStatus::BAD_CASTLING_RIGHTS,
            ),
        ] {
            if broken {
                errors |= flag;
            }
        }
        let valid = self.valid_en_passant();
        if self.en_passant != valid {
            errors |= SetupStatus::INVALID_EP_SQUARE;
        }
        let us = self.side_to_move;
        let not_promoted = !self.promoted;
        let king = |color| (position.pieces(color, PieceKind::King) & not_promoted).last();
        if let Some(theirs) = king(us.opponent())
            && !position.attackers(theirs, us).is_empty()
        {
            errors |= SetupStatus::OPPOSITE_CHECK;
        }
        let checkers = king(us).map_or(Bitboard::EMPTY, |ours| {
            position.attackers(ours, us.opponent())
        });
        let (Some(first), Some(last)) = (checkers.first(), checkers.last()) else {
            return errors;
        };
        let count = checkers.count();
        if count > 2 {
            errors |= SetupStatus::TOO_MANY_CHECKERS;
        }
        let our_kings = position.pieces(us, PieceKind::King) & not_promoted;
        let impossible = match valid {
            Some(square) => {
                // The double push that made the square: the pawn now on
                // `pushed_to` stood on `pushed_from`.
                let pushed_to = Square::new(square.index() as u8 ^ 8).unwrap_or(square);
                let pushed_from = Square::new(square.index() as u8 ^ 24).unwrap_or(square);
                let before = (occupied & !pushed_to.bitboard()) | pushed_from.bitboard();
                count > 1
                    || (last != pushed_to
                        && our_kings.into_iter().any(|king| {
                            !position
                                .attackers_through(king, us.opponent(), before)
                                .is_empty()
                        }))
            }
            None => count > 2 || (count == 2 && !(crate::line(first, last) & our_kings).is_empty()),
        };
        if impossible {
            errors |= SetupStatus::IMPOSSIBLE_CHECK;
        }
        errors
    }

    /// The position to play on, and whether it is loose (its moves are
    /// [`loose_legal_moves`]'s, not [`Position::legal_moves`]'). Castling
    /// rights are the clean ones; the en passant square is kept where a
    /// pawn can take there, as a position keeps it after a double push.
    ///
    /// ```
    /// use bitboards::AnySetup;
    ///
    /// let start = AnySetup::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")?;
    /// let (position, loose) = start.to_position(false);
    /// assert!(!loose);
    /// assert_eq!(position.legal_moves().len(), 20);
    /// # Ok::<(), bitboards::AnyFenError>(())
    /// ```
    #[must_use]
    pub fn to_position(&self, chess960: bool) -> (Position, bool) {
        let placement = self.placement();
        let castling = rights_of(&placement, self.clean_castling_of(&placement, chess960));
        let us = self.side_to_move;
        let en_passant = self.valid_en_passant().filter(|&square| {
            !(attacks::pawn(us.opponent(), square) & placement.pieces(us, PieceKind::Pawn))
                .is_empty()
        });
        let setup = Setup {
            board: self.board,
            side_to_move: us,
            castling,
            en_passant,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number.max(1),
        };
        let unchecked = Position::from_setup_unchecked(setup);
        // python-chess takes en passant on the square as set, whether or
        // not a pawn of the other side made it: a pawn that can take there
        // makes the position loose, the square kept.
        if let Some(square) = self.en_passant
            && Some(square) != en_passant
            && !placement.occupied().contains(square)
            && !en_passant_takers(&placement, square).is_empty()
        {
            let mut raw = setup;
            raw.en_passant = Some(square);
            return (Position::from_setup_unchecked(raw), true);
        }
        if !generator_takes(&placement) {
            return (unchecked, true);
        }
        match Position::from_setup_allow_impossible_check(setup) {
            Ok(position) => (position, false),
            // The generator does not count material; the rules after it in
            // `PositionError`'s order hold by construction (clean rights, an
            // en passant square with its pawn, the side not to move not in
            // check, impossible checks waived).
            Err(PositionError::TooMuchMaterial { .. }) => (unchecked, false),
            Err(_) => (unchecked, true),
        }
    }
}

/// A FEN's first field as python-chess reads it: the pieces, and the
/// promoted ones (`~` after a piece). `None` when it is not eight rows of
/// eight squares.
///
/// ```
/// use bitboards::{Piece, Square, any_setup};
///
/// let (board, promoted) = any_setup::parse_placement("K~7/8/8/8/8/8/8/8").unwrap();
/// assert_eq!(board[Square::A8.index()], Some(Piece::WhiteKing));
/// assert_eq!(promoted, Square::A8.bitboard());
/// assert!(any_setup::parse_placement("9/8/8/8/8/8/8/8").is_none());
/// ```
#[must_use]
pub fn parse_placement(placement: &str) -> Option<([Option<Piece>; 64], Bitboard)> {
    let mut board = [None; 64];
    let mut promoted = Bitboard::EMPTY;
    let mut rows = placement.split('/');
    for rank in (0..8usize).rev() {
        let text = rows.next()?;
        let mut file = 0usize;
        let mut last: Option<usize> = None;
        for byte in text.bytes() {
            match byte {
                b'1'..=b'8' => {
                    file += usize::from(byte - b'0');
                    last = None;
                }
                b'~' => promoted |= Bitboard(1u64 << last?),
                _ => {
                    let piece = Piece::from_char(char::from(byte))?;
                    if file >= 8 {
                        return None;
                    }
                    board[rank * 8 + file] = Some(piece);
                    last = Some(rank * 8 + file);
                    file += 1;
                }
            }
            if file > 8 {
                return None;
            }
        }
        if file != 8 {
            return None;
        }
    }
    rows.next().is_none().then_some((board, promoted))
}

/// A FEN's castling field as python-chess reads it, as rook squares, not
/// cleaned: `K` the outermost rook on the back rank beyond the king (the
/// h-file corner when there is none or no king), `Q` the outermost rook
/// before it (the a-file corner when there is no king; nothing when the
/// king has no rook before it), a file letter that file's corner. The king
/// is python-chess's: the highest square's that is not `promoted`, on any
/// rank. `None` for a letter no FEN has.
///
/// ```
/// use bitboards::{Piece, Square, any_setup};
///
/// let (board, promoted) = any_setup::parse_placement("4k3/8/8/8/8/8/8/1R2K2R").unwrap();
/// let rooks = any_setup::castling_field(&board, promoted, "KQ").unwrap();
/// assert_eq!(rooks, Square::B1.bitboard() | Square::H1.bitboard());
/// ```
#[must_use]
pub fn castling_field(
    board: &[Option<Piece>; 64],
    promoted: Bitboard,
    field: &str,
) -> Option<Bitboard> {
    if field == "-" {
        return Some(Bitboard::EMPTY);
    }
    let mut mask = Bitboard::EMPTY;
    for letter in field.chars() {
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let backrank = match color {
            Color::White => RANK_1,
            Color::Black => RANK_8,
        };
        let own = |kind| {
            Square::ALL
                .into_iter()
                .filter(|square| board[square.index()] == Some(Piece::new(color, kind)))
                .fold(Bitboard::EMPTY, |mask, square| mask | square.bitboard())
        };
        let rooks = own(PieceKind::Rook) & backrank;
        let king = (own(PieceKind::King) & !promoted).last();
        let corner = |file: u8| backrank & Bitboard(0x0101_0101_0101_0101u64 << file);
        mask |= match letter.to_ascii_lowercase() {
            // python-chess compares the king with the lowest rook's index,
            // -1 when there is none: a king with no rook before it has no
            // queen-side right.
            'q' => match king {
                Some(king) if rooks.first().is_none_or(|rook| rook < king) => {
                    rooks.first().map_or(Bitboard::EMPTY, Square::bitboard)
                }
                _ => corner(0),
            },
            'k' => match (king, rooks.last()) {
                (Some(king), Some(rook)) if king < rook => rook.bitboard(),
                _ => corner(7),
            },
            file @ 'a'..='h' => corner(file as u8 - b'a'),
            _ => return None,
        };
    }
    Some(mask)
}

/// The rights of a clean castling mask, each rook's side by its king.
fn rights_of(position: &Position, clean: Bitboard) -> CastlingRights {
    let mut rights = CastlingRights::NONE;
    for rook in clean {
        let color = if rook.rank().index() == 0 {
            Color::White
        } else {
            Color::Black
        };
        let Some(king) = king_of(position, color) else {
            continue;
        };
        let side = if rook.file().index() < king.file().index() {
            CastlingSide::QueenSide
        } else {
            CastlingSide::KingSide
        };
        rights = rights.with(color, side, Some(rook.file()));
    }
    rights
}

/// The king python-chess moves for `color`: the highest square's.
#[must_use]
pub fn king_of(position: &Position, color: Color) -> Option<Square> {
    position.pieces(color, PieceKind::King).last()
}

/// Whether the move generator takes the position's placement: one king a
/// side, no pawn on a back rank, the side not to move not in check. Where
/// it does not, the position is loose.
#[must_use]
pub fn generator_takes(position: &Position) -> bool {
    let one_king = |color| position.pieces(color, PieceKind::King).count() == 1;
    let back_rank_pawn = !(position.by_kind(PieceKind::Pawn) & (RANK_1 | RANK_8)).is_empty();
    let them = position.side_to_move().opponent();
    let opposite_check = king_of(position, them)
        .is_some_and(|king| !position.attackers(king, them.opponent()).is_empty());
    one_king(Color::White) && one_king(Color::Black) && !back_rank_pawn && !opposite_check
}

/// Whether `position` is loose: the move generator does not take its
/// placement ([`generator_takes`]), or it keeps an en passant square with
/// no pawn in front of it (as [`AnySetup::to_position`] keeps a square as
/// set where a pawn can take there). Its moves are then
/// [`loose_legal_moves`]'s, and [`after`] plays them.
///
/// ```
/// use bitboards::{AnySetup, Position, any_setup};
///
/// assert!(!any_setup::is_loose(&Position::START));
/// // The g3 square as set, with no white pawn on g4 to have made it.
/// let setup = AnySetup::from_fen("8/8/1K6/5B2/5p2/8/4k3/8 b - g3 0 1")?;
/// let (position, loose) = setup.to_position(false);
/// assert!(loose && any_setup::is_loose(&position));
/// # Ok::<(), bitboards::AnyFenError>(())
/// ```
#[must_use]
pub fn is_loose(position: &Position) -> bool {
    let them = position.side_to_move().opponent();
    let stray_en_passant = position.en_passant().is_some_and(|square| {
        let pushed = match them {
            Color::White => square.index().checked_add(8),
            Color::Black => square.index().checked_sub(8),
        };
        pushed
            .and_then(|index| Square::new(index as u8))
            .and_then(|pushed| position.piece_on(pushed))
            != Some(Piece::new(them, PieceKind::Pawn))
    });
    stray_en_passant || !generator_takes(position)
}

/// The side to move's king's attackers (none without a king).
#[must_use]
pub fn checkers(position: &Position) -> Bitboard {
    let us = position.side_to_move();
    king_of(position, us).map_or(Bitboard::EMPTY, |king| {
        position.attackers(king, us.opponent())
    })
}

/// The pawns of the side to move that take en passant on `square` by
/// python-chess's rules (its pseudo-legal en passant, the square's pawn
/// there or not): `square` empty, the pawns beside it on their fifth rank.
///
/// ```
/// use bitboards::{AnySetup, Square, any_setup};
///
/// // e3 as set, White to move: the d2 pawn is not on its fifth rank.
/// let setup = AnySetup::from_fen("4k3/8/8/8/8/8/3P4/4K3 w - e3 0 1")?;
/// assert!(any_setup::en_passant_takers(&setup.placement(), Square::E3).is_empty());
/// # Ok::<(), bitboards::AnyFenError>(())
/// ```
#[must_use]
pub fn en_passant_takers(position: &Position, square: Square) -> Bitboard {
    if position.occupied().contains(square) {
        return Bitboard::EMPTY;
    }
    let us = position.side_to_move();
    let fifth = match us {
        Color::White => Bitboard(0xFF << 32),
        Color::Black => Bitboard(0xFF << 24),
    };
    attacks::pawn(us.opponent(), square) & position.pieces(us, PieceKind::Pawn) & fifth
}

/// The position after `mv`, a legal move of `position`, loose or not.
///
/// An en passant capture on a square no double push made (a loose
/// position keeps the square as set) takes whatever stands behind it, or
/// nothing, as python-chess does.
#[must_use]
pub fn after(position: &Position, mv: Move) -> Position {
    let us = position.side_to_move();
    if mv.kind() == MoveKind::EnPassant {
        let behind = Square::from_file_rank(mv.to().file(), mv.from().rank());
        if position.piece_on(behind) != Some(Piece::new(us.opponent(), PieceKind::Pawn)) {
            let mut setup = position.setup();
            setup.board[behind.index()] = None;
            setup.board[mv.to().index()] = setup.board[mv.from().index()].take();
            setup.en_passant = None;
            setup.halfmove_clock = 0;
            if us == Color::Black {
                setup.fullmove_number = setup.fullmove_number.saturating_add(1);
            }
            setup.side_to_move = us.opponent();
            return Position::from_setup_unchecked(setup);
        }
    }
    let mut after = *position;
    after.play_unchecked_in_place(mv);
    after
}

/// Whether `mv` leaves `king` (the side to move's, if any) unattacked.
#[must_use]
pub fn is_safe(position: &Position, king: Option<Square>, mv: Move) -> bool {
    let Some(king) = king else {
        return true;
    };
    let us = position.side_to_move();
    let after = after(position, mv);
    let king = if mv.from() == king { mv.to() } else { king };
    after.attackers(king, us.opponent()).is_empty()
}

/// The promotions python-chess generates, in its order.
const PROMOTIONS: [PieceKind; 4] = [
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
];

/// python-chess's pseudo-legal moves from a square of `from` to a square
/// of `to`: every move of the side to move's pieces by how they move,
/// whether or not it leaves the king in check, with a pawn pushed two
/// squares from its first or second rank. Castling is taken from `legal`
/// (the position's legal moves: python-chess generates castling only where
/// it is legal) by its king's square and its written target.
#[must_use]
pub fn pseudo_legal_moves(
    position: &Position,
    legal: &MoveList,
    from: Bitboard,
    to: Bitboard,
) -> MoveList {
    let us = position.side_to_move();
    let own = position.by_color(us);
    let enemy = position.by_color(us.opponent());
    let occupied = position.occupied();
    let mut moves = MoveList::new();
    let pawns = position.pieces(us, PieceKind::Pawn);
    for square in own & !pawns & from {
        let Some(piece) = position.piece_on(square) else {
            continue;
        };
        for target in attacks::piece(piece, square, occupied) & !own & to {
            moves.push(Move::new(square, target, MoveKind::Normal));
        }
    }
    for mv in castling(legal, from, to) {
        moves.push(mv);
    }
    let (last_rank, double_ranks) = match us {
        Color::White => (7, Bitboard(0xFFFF << 16)),
        Color::Black => (0, Bitboard(0xFFFF << 32)),
    };
    for square in pawns & from {
        let mut targets = attacks::pawn(us, square) & enemy;
        let single = attacks::pawn_push(us, square) & !occupied;
        targets |= single;
        if let Some(step) = single.first() {
            targets |= attacks::pawn_push(us, step) & !occupied & double_ranks;
        }
        for target in targets & to {
            if target.rank().index() == last_rank {
                for kind in PROMOTIONS {
                    moves.push(Move::new(square, target, MoveKind::Promotion(kind)));
                }
            } else {
                moves.push(Move::new(square, target, MoveKind::Normal));
            }
        }
    }
    for mv in pseudo_legal_en_passant(position, from, to) {
        moves.push(mv);
    }
    moves
}

/// The en passant captures by how pawns move, from `from` to `to` (the
/// capture may leave the king in check).
pub fn pseudo_legal_en_passant(
    position: &Position,
    from: Bitboard,
    to: Bitboard,
) -> impl Iterator<Item = Move> {
    let target = position
        .en_passant()
        .filter(|&square| to.contains(square) && !position.occupied().contains(square));
    let takers = target.map_or(Bitboard::EMPTY, |square| {
        en_passant_takers(position, square) & from
    });
    takers
        .into_iter()
        .filter_map(move |taker| target.map(|square| Move::new(taker, square, MoveKind::EnPassant)))
}

/// The castling moves among `legal` from `from` to `to`: the king's square
/// in `from`, its rook's square in `to` (as python-chess masks castling).
pub fn castling(legal: &MoveList, from: Bitboard, to: Bitboard) -> impl Iterator<Item = Move> {
    legal
        .iter()
        .copied()
        .filter(move |mv| mv.is_castling() && from.contains(mv.from()) && to.contains(mv.to()))
}

/// The legal moves of a loose position, by python-chess's rules: its
/// pseudo-legal moves (no castling) that leave its king (the highest
/// square's) unattacked; when that king is in check, no other king moves.
///
/// A list holds [`crate::MAX_MOVES`] moves; a setup with more (a board of
/// queens) has the first that many.
#[must_use]
pub fn loose_legal_moves(position: &Position) -> MoveList {
    let all = Bitboard::FULL;
    let us = position.side_to_move();
    let king = king_of(position, us);
    let other_kings = match king {
        Some(king) if !position.attackers(king, us.opponent()).is_empty() => {
            position.pieces(us, PieceKind::King) & !king.bitboard()
        }
        _ => Bitboard::EMPTY,
    };
    let mut list = MoveList::new();
    for mv in pseudo_legal_moves(position, &MoveList::new(), all, all) {
        if !other_kings.contains(mv.from()) && is_safe(position, king, mv) {
            list.push(mv);
        }
    }
    list
}

/// The legal moves of any position made by [`AnySetup::to_position`]:
/// [`loose_legal_moves`] where it is loose ([`is_loose`]),
/// [`Position::legal_moves`] where it is not.
#[must_use]
pub fn legal_moves(position: &Position) -> MoveList {
    if is_loose(position) {
        loose_legal_moves(position)
    } else {
        position.legal_moves()
    }
}

/// Whether `mv` (legal here) checks the other side's king.
#[must_use]
pub fn gives_check(position: &Position, mv: Move) -> bool {
    !checkers(&after(position, mv)).is_empty()
}

/// The position after passing the turn.
#[must_use]
pub fn null_move(position: &Position) -> Position {
    let mut setup = position.setup();
    if setup.side_to_move == Color::Black {
        setup.fullmove_number = setup.fullmove_number.saturating_add(1);
    }
    setup.side_to_move = setup.side_to_move.opponent();
    setup.en_passant = None;
    setup.halfmove_clock = setup.halfmove_clock.saturating_add(1);
    Position::from_setup_unchecked(setup)
}

/// The ray through `square` from `color`'s king along which an enemy
/// slider pins a piece standing there (python-chess's `pin_mask`: an empty
/// square counts as if a piece stood on it), or every square.
#[must_use]
pub fn pin(position: &Position, color: Color, king: Square, square: Square) -> Bitboard {
    let line = crate::line(king, square);
    if line.is_empty() {
        return Bitboard::FULL;
    }
    let occupied = position.occupied();
    let enemy = position.by_color(color.opponent());
    let queens = position.by_kind(PieceKind::Queen);
    let rooks = (position.by_kind(PieceKind::Rook) | queens) & enemy;
    let bishops = (position.by_kind(PieceKind::Bishop) | queens) & enemy;
    let straight = attacks::rook_rays(king).contains(square);
    let sliders = if straight { rooks } else { bishops } & line;
    for slider in sliders {
        let between = crate::between(king, slider);
        if between.contains(square)
            && (between & (occupied | square.bitboard())) == square.bitboard()
        {
            return line;
        }
    }
    Bitboard::FULL
}

#[cfg(feature = "alloc")]
mod san;
#[cfg(feature = "alloc")]
pub use san::{parse_san, san};
