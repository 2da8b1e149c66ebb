//! A chess position: the twelve piece bitboards, the side to move, castling
//! rights, the en passant square and the clocks.
//!
//! Reading and writing FEN is in [`fen`], the rules a
//! position must follow are in [`PositionError`], and Polyglot hashing is
//! [`Position::polyglot_key`].
//!
//! ```
//! use bitboards::{Color, PieceKind, Position, Square};
//!
//! let position = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?;
//! assert_eq!(position.pieces(Color::White, PieceKind::Pawn), Square::E2.bitboard());
//! assert_eq!(position.fen().to_string(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
//! assert_eq!(Position::START.polyglot_key(), 0x463b_9618_1691_fc9c);
//! # Ok::<(), bitboards::FenError>(())
//! ```

use core::fmt;

use crate::{Bitboard, Color, File, Piece, PieceKind, Rank, Square, attacks};

pub mod fen;
mod hash;
pub(crate) mod movegen;
mod play;
mod rules;
mod san;
mod see;
mod validate;

pub use bitboards_core::{CastlingRights, CastlingSide, PositionError, Setup};
pub use fen::{Fen, FenError, FenField, FenSyntaxError, FenText};
pub use play::IllegalMoveError;
pub use rules::{ParseUciError, WhichSquare};
pub use san::{San, SanError, SanSyntax, Suffix};
pub use see::SEE_VALUES;
pub use validate::Validation;

/// A Chess960 start position number outside `0..960`.
///
/// ```
/// use bitboards::{Chess960NumberError, Position};
///
/// assert_eq!(Position::chess960(960), Err(Chess960NumberError(960)));
/// assert_eq!(
///     Chess960NumberError(960).to_string(),
///     "there is no Chess960 start position 960; they are numbered 0 to 959"
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Chess960NumberError(pub u16);

impl fmt::Display for Chess960NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "there is no Chess960 start position {}; they are numbered 0 to 959",
            self.0
        )
    }
}

impl core::error::Error for Chess960NumberError {}

/// A chess position that follows the rules checked by [`PositionError`]:
/// where every piece stands, whose turn it is, castling rights, the en
/// passant square and the two clocks.
///
/// The literature keeps twelve bitboards (WhitePawns ... BlackKing) plus
/// AllWhitePieces, AllBlackPieces and AllPieces. A `Position` stores six
/// per-kind boards and two per-colour boards, so each of the twelve is one
/// AND ([`Position::pieces`]), each colour one load ([`Position::by_color`])
/// and all pieces one OR ([`Position::occupied`]). "What is on e4"
/// ([`Position::piece_on`]) tests the square's bit in the eight boards, and
/// the kings' squares are kept. (A 64-byte mailbox beside the boards was
/// measured too: it made every move's copy 64 bytes longer and perft slower,
/// so there is none.) Every accessor is O(1). The type is `Copy`,
/// `no_std` and allocates nothing.
///
/// ```
/// use bitboards::{bitboard, Color, Piece, PieceKind, Position, Square};
///
/// let position = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
/// assert_eq!(position.piece_on(Square::E4), Some(Piece::WhitePawn));
/// assert_eq!(position.side_to_move(), Color::Black);
/// assert_eq!(position.en_passant(), Some(Square::E3));
/// assert_eq!(position.pieces(Color::White, PieceKind::Pawn), bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . . . .
///     5 . . . . . . . .
///     4 . . . . X . . .
///     3 . . . . . . . .
///     2 X X X X . X X X
///     1 . . . . . . . .
///       a b c d e f g h
/// });
/// assert_eq!(position.king(Color::Black), Square::E8);
/// # Ok::<(), bitboards::FenError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    kinds: [Bitboard; PieceKind::COUNT],
    colors: [Bitboard; 2],
    kings: [Square; 2],
    castling: CastlingRights,
    en_passant: Option<Square>,
    side_to_move: Color,
    halfmove_clock: u16,
    fullmove_number: u16,
    /// The Polyglot key of the pieces, castling rights and side to move,
    /// kept up to date by every move; [`Position::polyglot_key`] adds the en passant
    /// file when it counts.
    zobrist: u64,
}

impl Position {
    /// The standard start position.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// assert_eq!(
    ///     Position::START.fen().to_string(),
    ///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    /// );
    /// assert_eq!(Position::default(), Position::START);
    /// ```
    pub const START: Position = match Position::from_setup(Setup::START) {
        Ok(position) => position,
        Err(error) => panic!("{}", error.rule()),
    };

    /// Checks `setup` by every rule of [`PositionError`] and builds the
    /// position. This is the check behind [`Position::from_fen`], written as
    /// a `const fn` so that a checked position can be a constant (see
    /// [`Setup`]).
    ///
    /// ```
    /// use bitboards::{Color, Piece, Position, PositionError, Setup, Square};
    ///
    /// let mut setup = Setup::START;
    /// setup.board[Square::E4.index()] = Some(Piece::BlackKing);
    /// assert_eq!(
    ///     Position::from_setup(setup),
    ///     Err(PositionError::KingCount { color: Color::Black, found: 2 })
    /// );
    /// ```
    pub const fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        validate::check(setup, false)
    }

    /// [`Position::from_setup`] without the four rules on how the side to
    /// move can be in check ([`PositionError::TooManyCheckers`],
    /// [`DoubleCheckWithoutSlider`](PositionError::DoubleCheckWithoutSlider),
    /// [`AlignedCheckers`](PositionError::AlignedCheckers),
    /// [`CheckNotFromDoublePush`](PositionError::CheckNotFromDoublePush)).
    ///
    /// Such a position cannot arise in a game, but a move generator handles
    /// it (only king moves answer a double check), and published perft
    /// suites contain one. Every other rule still holds.
    ///
    /// ```
    /// use bitboards::{Position, PositionError, Validation};
    ///
    /// // Two rooks check along the eighth rank from both sides.
    /// let fen = "R3k2R/8/8/8/8/8/8/6K1 b - - 0 1";
    /// let setup = Position::from_fen_with(fen, Validation::ALL_RULES.allow_impossible_check())?.setup();
    /// assert!(matches!(Position::from_setup(setup), Err(PositionError::AlignedCheckers { .. })));
    /// assert!(Position::from_setup_allow_impossible_check(setup).is_ok());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    pub const fn from_setup_allow_impossible_check(
        setup: Setup,
    ) -> Result<Position, PositionError> {
        validate::check(setup, true)
    }

    /// Builds the position of `setup` without checking any rule of
    /// [`PositionError`]: for tools that must hold whatever a user sets up
    /// (a board editor, python-chess's `Board`) and say what is wrong with
    /// it themselves.
    ///
    /// Such a position answers questions about its placement (pieces,
    /// [`attackers`](Position::attackers), its FEN, its Polyglot key), and
    /// [`play_unchecked`](Position::play_unchecked) moves its pieces. Move
    /// generation, SAN and the check queries assume the rules hold (one king
    /// a side, [`king`](Position::king) reads a1 for a missing one): on a
    /// setup that breaks them their answers are unspecified. A setup that
    /// breaks only [`PositionError::TooMuchMaterial`] or the rules on
    /// impossible checks is an exception: the move generator needs neither.
    ///
    /// ```
    /// use bitboards::{Position, Setup, Square};
    ///
    /// let mut setup = Setup::START;
    /// setup.board[Square::E1.index()] = None;
    /// assert!(Position::from_setup(setup).is_err());
    /// let position = Position::from_setup_unchecked(setup);
    /// assert_eq!(position.piece_on(Square::E1), None);
    /// // The FEN writes the rights as the setup holds them.
    /// assert_eq!(position.fen().to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1");
    /// ```
    #[must_use]
    pub const fn from_setup_unchecked(setup: Setup) -> Position {
        Position::from_boards_unchecked(
            &setup,
            &bitboards_core::placement::piece_boards(&setup.board),
        )
    }

    /// Builds the position of `setup` from its twelve piece boards (indexed
    /// by [`Piece::index`], as `bitboards_core::placement::piece_boards`
    /// builds them) without checking any rule. A missing king leaves a1.
    const fn from_boards_unchecked(setup: &Setup, boards: &[Bitboard; Piece::COUNT]) -> Position {
        let mut kinds = [Bitboard::EMPTY; PieceKind::COUNT];
        let mut colors = [Bitboard::EMPTY; 2];
        let mut kind = 0;
        while kind < PieceKind::COUNT {
            let (white, black) = (boards[kind], boards[PieceKind::COUNT + kind]);
            kinds[kind] = white.union(black);
            colors[0] = colors[0].union(white);
            colors[1] = colors[1].union(black);
            kind += 1;
        }
        Position {
            kinds,
            colors,
            kings: [
                king_square(boards[Piece::WhiteKing.index()]),
                king_square(boards[Piece::BlackKing.index()]),
            ],
            castling: setup.castling,
            en_passant: setup.en_passant,
            side_to_move: setup.side_to_move,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number,
            zobrist: Position::zobrist_of(boards, setup.castling, setup.side_to_move),
        }
    }

    /// The Chess960 start position with Scharnagl number `number` (0 to 959;
    /// 518 is the standard start), with all four castling rights.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// assert_eq!(Position::chess960(518), Ok(Position::START));
    /// let position = Position::chess960(0)?;
    /// assert_eq!(position.fen().to_string(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    /// assert_eq!(position.fen().shredder().to_string(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    /// assert!(Position::chess960(960).is_err());
    /// # Ok::<(), bitboards::Chess960NumberError>(())
    /// ```
    pub const fn chess960(number: u16) -> Result<Position, Chess960NumberError> {
        if number >= 960 {
            return Err(Chess960NumberError(number));
        }
        let mut back_rank: [Option<PieceKind>; 8] = [None; 8];
        let mut rest = number as usize;
        // Scharnagl's numbering: the light-squared bishop's file (b, d, f,
        // h), the dark-squared bishop's (a, c, e, g), the queen among the six
        // files left, the knights' pair among the five left, and R K R on the
        // last three.
        back_rank[rest % 4 * 2 + 1] = Some(PieceKind::Bishop);
        rest /= 4;
        back_rank[rest % 4 * 2] = Some(PieceKind::Bishop);
        rest /= 4;
        place_on_nth_free(&mut back_rank, rest % 6, PieceKind::Queen);
        rest /= 6;
        const KNIGHT_PAIRS: [(usize, usize); 10] = [
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 2),
            (1, 3),
            (1, 4),
            (2, 3),
            (2, 4),
            (3, 4),
        ];
        let (first, second) = KNIGHT_PAIRS[rest];
        // The second knight first, so the first one's count of free files
        // is not shifted by it.
        place_on_nth_free(&mut back_rank, second, PieceKind::Knight);
        place_on_nth_free(&mut back_rank, first, PieceKind::Knight);
        place_on_nth_free(&mut back_rank, 0, PieceKind::Rook);
        place_on_nth_free(&mut back_rank, 0, PieceKind::King);
        place_on_nth_free(&mut back_rank, 0, PieceKind::Rook);

        let mut kinds = [PieceKind::Pawn; 8];
        let mut castling = CastlingRights::NONE;
        let mut rooks_seen = 0;
        let mut file = 0;
        while file < 8 {
            if let Some(kind) = back_rank[file] {
                kinds[file] = kind;
            }
            if let PieceKind::Rook = kinds[file] {
                let side = if rooks_seen == 0 {
                    CastlingSide::QueenSide
                } else {
                    CastlingSide::KingSide
                };
                let rook_file = File::new(file as u8);
                castling = castling.with(Color::White, side, rook_file).with(
                    Color::Black,
                    side,
                    rook_file,
                );
                rooks_seen += 1;
            }
            file += 1;
        }
        let mut board = Setup::START.board;
        let mut file = 0;
        while file < 8 {
            board[file] = Some(Piece::new(Color::White, kinds[file]));
            board[56 + file] = Some(Piece::new(Color::Black, kinds[file]));
            file += 1;
        }
        let setup = Setup {
            board,
            castling,
            ..Setup::START
        };
        Ok(Position::from_boards_unchecked(
            &setup,
            &bitboards_core::placement::piece_boards(&setup.board),
        ))
    }

    /// The pieces of `color` and `kind`: one of the literature's twelve
    /// boards (WhitePawns, ..., BlackKing).
    ///
    /// ```
    /// use bitboards::{Color, PieceKind, Position, Square};
    ///
    /// let knights = Position::START.pieces(Color::Black, PieceKind::Knight);
    /// assert_eq!(knights, Square::B8.bitboard() | Square::G8.bitboard());
    /// ```
    #[inline]
    #[must_use]
    pub const fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.kinds[kind as usize].intersection(self.colors[color as usize])
    }

    /// The squares of `piece`: [`Position::pieces`] by a coloured piece.
    ///
    /// ```
    /// use bitboards::{Piece, Position, Square};
    ///
    /// assert_eq!(Position::START.piece_bitboard(Piece::WhiteKing), Square::E1.bitboard());
    /// ```
    #[inline]
    #[must_use]
    pub const fn piece_bitboard(&self, piece: Piece) -> Bitboard {
        self.pieces(piece.color(), piece.kind())
    }

    /// The twelve piece boards, indexed by [`Piece::index`]: White's pawns,
    /// knights, bishops, rooks, queens and king, then Black's in the same
    /// order ([`Piece::ALL`]'s order). Entry `i` is
    /// [`Position::piece_bitboard`] of `Piece::ALL[i]`.
    ///
    /// This is the order of the `bitboards` column of the PGN crate's
    /// position tables and of the Python package's NumPy planes. (The
    /// literature's order, with names, is [`Position::named_bitboards`].)
    ///
    /// ```
    /// use bitboards::{Bitboard, Piece, Position, Square};
    ///
    /// let boards = Position::START.piece_boards();
    /// assert_eq!(boards[0], Bitboard(0xFF00)); // White's pawns
    /// assert_eq!(boards[Piece::WhiteKing.index()], Square::E1.bitboard());
    /// assert_eq!(boards[11], Square::E8.bitboard()); // Black's king
    /// // As raw masks, for a table or an array:
    /// let masks: [u64; 12] = boards.map(|board| board.0);
    /// assert_eq!(masks[6], 0x00FF_0000_0000_0000); // Black's pawns
    /// ```
    #[inline]
    #[must_use]
    pub const fn piece_boards(&self) -> [Bitboard; 12] {
        let mut boards = [Bitboard::EMPTY; Piece::COUNT];
        let mut index = 0;
        while index < Piece::COUNT {
            boards[index] = self.piece_bitboard(Piece::ALL[index]);
            index += 1;
        }
        boards
    }

    /// The pieces of `kind` of both colours.
    ///
    /// ```
    /// use bitboards::{PieceKind, Position};
    ///
    /// assert_eq!(Position::START.by_kind(PieceKind::Pawn).count(), 16);
    /// ```
    #[inline]
    #[must_use]
    pub const fn by_kind(&self, kind: PieceKind) -> Bitboard {
        self.kinds[kind as usize]
    }

    /// Every piece of `color`: AllWhitePieces or AllBlackPieces.
    ///
    /// ```
    /// use bitboards::{Bitboard, Color, Position};
    ///
    /// assert_eq!(Position::START.by_color(Color::White), Bitboard(0xFFFF));
    /// ```
    #[inline]
    #[must_use]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color as usize]
    }

    /// Every piece on the board: AllPieces.
    ///
    /// ```
    /// use bitboards::{Bitboard, Position};
    ///
    /// assert_eq!(Position::START.occupied(), Bitboard(0xFFFF_0000_0000_FFFF));
    /// ```
    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> Bitboard {
        self.colors[0].union(self.colors[1])
    }

    /// The piece on `square`, if any.
    ///
    /// ```
    /// use bitboards::{Piece, Position, Square};
    ///
    /// assert_eq!(Position::START.piece_on(Square::D8), Some(Piece::BlackQueen));
    /// assert_eq!(Position::START.piece_on(Square::D4), None);
    /// ```
    #[inline]
    #[must_use]
    pub const fn piece_on(&self, square: Square) -> Option<Piece> {
        let bit = square.bitboard();
        let color = if self.colors[0].intersection(bit).is_empty() {
            if self.colors[1].intersection(bit).is_empty() {
                return None;
            }
            Color::Black
        } else {
            Color::White
        };
        match self.kind_on(bit) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }

    /// The kind of the piece on the square of `bit`, if any.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    pub(crate) const fn kind_on(&self, bit: Bitboard) -> Option<PieceKind> {
        // At most one kind board holds the bit, so the sum of the indices
        // of those that do is its index: no branch per kind.
        let mut index = 0;
        let mut found = false;
        let mut kind = 0;
        while kind < PieceKind::COUNT {
            let here = !self.kinds[kind].intersection(bit).is_empty();
            index += kind * here as usize;
            found |= here;
            kind += 1;
        }
        if found {
            PieceKind::new(index as u8)
        } else {
            None
        }
    }

    /// The square of `color`'s king.
    ///
    /// ```
    /// use bitboards::{Color, Position, Square};
    ///
    /// assert_eq!(Position::START.king(Color::White), Square::E1);
    /// ```
    #[inline]
    #[must_use]
    pub const fn king(&self, color: Color) -> Square {
        self.kings[color as usize]
    }

    /// The side whose turn it is.
    ///
    /// ```
    /// use bitboards::{Color, Position};
    ///
    /// assert_eq!(Position::START.side_to_move(), Color::White);
    /// ```
    #[inline]
    #[must_use]
    pub const fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// Who may still castle, and with which rook.
    ///
    /// ```
    /// use bitboards::{CastlingRights, Position};
    ///
    /// assert_eq!(Position::START.castling(), CastlingRights::STANDARD);
    /// ```
    #[inline]
    #[must_use]
    pub const fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The squares of the rooks that may still castle: python-chess's
    /// `castling_rights` mask.
    ///
    /// ```
    /// use bitboards::{Bitboard, Position, Square};
    ///
    /// let rooks = Position::START.castling_rooks();
    /// assert_eq!(rooks, Square::A1.bitboard() | Square::H1.bitboard() | Square::A8.bitboard() | Square::H8.bitboard());
    /// let chess960 = Position::from_fen("4k3/8/8/8/8/8/8/1R2K1R1 w B - 0 1")?;
    /// assert_eq!(chess960.castling_rooks(), Square::B1.bitboard());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub const fn castling_rooks(&self) -> Bitboard {
        let mut rooks = Bitboard::EMPTY;
        let mut color = 0;
        while color < Color::COUNT {
            let (color_of, rank) = match color {
                0 => (Color::White, Rank::First),
                _ => (Color::Black, Rank::Eighth),
            };
            let mut side = 0;
            while side < CastlingSide::ALL.len() {
                if let Some(file) = self.castling.rook_file(color_of, CastlingSide::ALL[side]) {
                    rooks.set(Square::from_file_rank(file, rank));
                }
                side += 1;
            }
            color += 1;
        }
        rooks
    }

    /// The square a pawn skipped with a double push on the last move, as the
    /// FEN gave it (whether or not a pawn can capture there).
    ///
    /// ```
    /// use bitboards::{Position, Square};
    ///
    /// let position = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")?;
    /// assert_eq!(position.en_passant(), Some(Square::E3));
    /// assert_eq!(Position::START.en_passant(), None);
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[inline]
    #[must_use]
    pub const fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Half-moves since the last capture or pawn move.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let position = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 37 80")?;
    /// assert_eq!(position.halfmove_clock(), 37);
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[inline]
    #[must_use]
    pub const fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The move number: 1 at the start, up by one after each Black move.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let position = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 37 80")?;
    /// assert_eq!(position.fullmove_number(), 80);
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[inline]
    #[must_use]
    pub const fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// The parts of this position, for changing and checking again with
    /// [`Position::from_setup`].
    ///
    /// ```
    /// use bitboards::{Color, Position};
    ///
    /// let mut setup = Position::START.setup();
    /// setup.side_to_move = Color::Black;
    /// let position = Position::from_setup(setup)?;
    /// assert_eq!(position.fen().to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    /// # Ok::<(), bitboards::PositionError>(())
    /// ```
    #[must_use]
    pub const fn setup(&self) -> Setup {
        let mut board = [None; 64];
        let mut index = 0;
        while index < 64 {
            board[index] = self.piece_on(Square::ALL[index]);
            index += 1;
        }
        Setup {
            board,
            side_to_move: self.side_to_move,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    /// The same position seen from the other side: ranks flipped and
    /// colours swapped, with the castling rights, the en passant square and
    /// the side to move swapped too (python-chess's `Board.mirror()`). The
    /// clocks stay. An evaluation that treats both colours alike gives a
    /// position and its mirror the same score, which makes it a handy test.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let e4 = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
    /// assert_eq!(
    ///     e4.mirror().fen().to_string(),
    ///     "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"
    /// );
    /// assert_eq!(e4.mirror().mirror(), e4);
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub const fn mirror(&self) -> Position {
        let mut kinds = self.kinds;
        let mut kind = 0;
        while kind < PieceKind::COUNT {
            kinds[kind] = kinds[kind].flip_ranks();
            kind += 1;
        }
        let [white, black] = self.colors;
        let [white_king, black_king] = self.kings;
        let mut castling = CastlingRights::NONE;
        let mut side = 0;
        while side < 2 {
            let side_of = CastlingSide::ALL[side];
            castling = castling
                .with(
                    Color::White,
                    side_of,
                    self.castling.rook_file(Color::Black, side_of),
                )
                .with(
                    Color::Black,
                    side_of,
                    self.castling.rook_file(Color::White, side_of),
                );
            side += 1;
        }
        let mut position = Position {
            kinds,
            colors: [black.flip_ranks(), white.flip_ranks()],
            kings: [black_king.flip_rank(), white_king.flip_rank()],
            castling,
            en_passant: match self.en_passant {
                Some(square) => Some(square.flip_rank()),
                None => None,
            },
            side_to_move: self.side_to_move.opponent(),
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
            zobrist: 0,
        };
        position.zobrist = position.zobrist_from_scratch();
        position
    }

    /// The pieces of `by` that attack `square`, with the sliders seeing
    /// through nothing but the pieces on the board.
    ///
    /// ```
    /// use bitboards::{Color, Position, Square};
    ///
    /// let position = Position::START;
    /// assert_eq!(position.attackers(Square::F3, Color::White), Square::E2.bitboard() | Square::G2.bitboard() | Square::G1.bitboard());
    /// ```
    #[must_use]
    pub const fn attackers(&self, square: Square, by: Color) -> Bitboard {
        self.attackers_through(square, by, self.occupied())
    }

    /// [`Position::attackers`] with the sliders seeing through all but
    /// `occupied` (a king's move asks with the king lifted off its square).
    pub(crate) const fn attackers_through(
        &self,
        square: Square,
        by: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        let diagonal =
            self.kinds[PieceKind::Bishop as usize].union(self.kinds[PieceKind::Queen as usize]);
        let straight =
            self.kinds[PieceKind::Rook as usize].union(self.kinds[PieceKind::Queen as usize]);
        attacks::pawn(by.opponent(), square)
            .intersection(self.kinds[PieceKind::Pawn as usize])
            .union(attacks::knight(square).intersection(self.kinds[PieceKind::Knight as usize]))
            .union(attacks::king(square).intersection(self.kinds[PieceKind::King as usize]))
            .union(attacks::bishop(square, occupied).intersection(diagonal))
            .union(attacks::rook(square, occupied).intersection(straight))
            .intersection(self.colors[by as usize])
    }

    /// The pieces giving check to the side to move.
    ///
    /// ```
    /// use bitboards::{Position, Square};
    ///
    /// let position = Position::from_fen("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1")?;
    /// assert_eq!(position.checkers(), Square::D3.bitboard());
    /// assert!(Position::START.checkers().is_empty());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub const fn checkers(&self) -> Bitboard {
        self.checks().checkers
    }

    /// The literature's fifteen boards with their names: the twelve piece
    /// boards (WhitePawns, WhiteRooks, WhiteKnights, WhiteBishops,
    /// WhiteQueens, WhiteKing, then Black's), then AllWhitePieces,
    /// AllBlackPieces and AllPieces. A tool can draw each as its own diagram.
    ///
    /// ```
    /// use bitboards::{bitboard, Position};
    ///
    /// let boards = Position::START.named_bitboards();
    /// assert_eq!(boards[1].0, "WhiteRooks");
    /// assert_eq!(boards[1].1, bitboard! {
    ///     8 . . . . . . . .
    ///     7 . . . . . . . .
    ///     6 . . . . . . . .
    ///     5 . . . . . . . .
    ///     4 . . . . . . . .
    ///     3 . . . . . . . .
    ///     2 . . . . . . . .
    ///     1 X . . . . . . X
    ///       a b c d e f g h
    /// });
    /// assert_eq!(boards[14].0, "AllPieces");
    /// ```
    #[must_use]
    pub const fn named_bitboards(&self) -> [(&'static str, Bitboard); 15] {
        const LITERATURE_ORDER: [PieceKind; 6] = [
            PieceKind::Pawn,
            PieceKind::Rook,
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Queen,
            PieceKind::King,
        ];
        let mut boards = [("", Bitboard::EMPTY); 15];
        let mut index = 0;
        while index < 12 {
            let piece = Piece::new(Color::ALL[index / 6], LITERATURE_ORDER[index % 6]);
            boards[index] = (piece.bitboard_name(), self.piece_bitboard(piece));
            index += 1;
        }
        boards[12] = ("AllWhitePieces", self.by_color(Color::White));
        boards[13] = ("AllBlackPieces", self.by_color(Color::Black));
        boards[14] = ("AllPieces", self.occupied());
        boards
    }
}

/// Puts `kind` on the `n`th still-empty file (counting from 0 at the a-side).
const fn place_on_nth_free(back_rank: &mut [Option<PieceKind>; 8], n: usize, kind: PieceKind) {
    let mut free_seen = 0;
    let mut file = 0;
    while file < 8 {
        if back_rank[file].is_none() {
            if free_seen == n {
                back_rank[file] = Some(kind);
                return;
            }
            free_seen += 1;
        }
        file += 1;
    }
}

/// The standard start position.
impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}

/// Draws the board as a piece-letter diagram in the layout of a bitboard
/// diagram (rank 8 on top, rank and file labels, `.` for an empty square),
/// followed by the FEN on its own line.
///
/// ```
/// use bitboards::Position;
///
/// assert_eq!(Position::START.to_string(), "\
/// 8 r n b q k b n r
/// 7 p p p p p p p p
/// 6 . . . . . . . .
/// 5 . . . . . . . .
/// 4 . . . . . . . .
/// 3 . . . . . . . .
/// 2 P P P P P P P P
/// 1 R N B Q K B N R
///   a b c d e f g h
/// rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
/// ```
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            write!(f, "{rank}")?;
            for file in File::ALL {
                let letter = match self.piece_on(Square::from_file_rank(file, *rank)) {
                    Some(piece) => piece.to_char(),
                    None => '.',
                };
                write!(f, " {letter}")?;
            }
            f.write_str("\n")?;
        }
        write!(f, "  a b c d e f g h\n{}", self.fen())
    }
}

/// `{:?}` prints `Position("<FEN>")`; `{:#?}` draws the diagram of
/// `Display`.
///
/// ```
/// use bitboards::Position;
///
/// assert_eq!(
///     format!("{:?}", Position::START),
///     "Position(\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\")"
/// );
/// assert!(format!("{:#?}", Position::START).starts_with("8 r n b q k b n r\n"));
/// ```
impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            fmt::Display::fmt(self, f)
        } else {
            write!(f, "Position(\"{}\")", self.fen())
        }
    }
}

/// The square of the king on `board`, a1 when there is none.
const fn king_square(board: Bitboard) -> Square {
    match board.first() {
        Some(square) => square,
        None => Square::A1,
    }
}
