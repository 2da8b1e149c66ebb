//! What the rules say about a position: check, mate, draws, whether a move
//! is legal, and reading a move in UCI notation.

use core::fmt;

use crate::moves::{CastlingNotation, Move, MoveKind, Uci};
use crate::position::movegen::{Sink, behind};
use crate::{
    Bitboard, CastlingSide, Color, File, ParseSquareError, Piece, PieceKind, Position, Square,
    masks,
};

impl Position {
    /// Whether the side to move is in check.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let position = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")?;
    /// assert!(position.is_check());
    /// assert!(!Position::START.is_check());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn is_check(&self) -> bool {
        // The checkers alone, without the pins that `checks` finds too: a
        // table of games asks this once per move, after the reader has
        // found both for the move itself. A slider is looked up only where
        // one stands on the king's lines.
        let us = self.side_to_move();
        !self.leaper_checkers().is_empty()
            || self.attacked_by_slider(self.king(us), us.opponent(), self.occupied())
    }

    /// The pieces of the side to move that are pinned to its king: moving
    /// one off the line between the king and the enemy slider behind it
    /// would expose the king.
    ///
    /// ```
    /// use bitboards::{Position, Square};
    ///
    /// let position = Position::from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")?;
    /// assert_eq!(position.pinned(), Square::E2.bitboard());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn pinned(&self) -> Bitboard {
        self.checks().pinned
    }

    /// Whether the side to move is checkmated: in check with no legal move.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let mate = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")?;
    /// assert!(mate.is_checkmate());
    /// assert!(!Position::START.is_checkmate());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated: not in check, no legal move.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let stalemate = Position::from_fen("7k/8/6Q1/8/8/8/8/K7 b - - 0 1")?;
    /// assert!(stalemate.is_stalemate());
    /// assert!(!stalemate.is_checkmate());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// The en passant square when a capture there is legal ([`en_passant`]
    /// gives it whenever the last move was a double push the FEN named):
    /// what python-chess's `ep_square` and FEN writer treat as en passant,
    /// and what tells repeated positions apart.
    ///
    /// [`en_passant`]: Position::en_passant
    ///
    /// ```
    /// use bitboards::{Position, Square};
    ///
    /// let open = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")?;
    /// assert_eq!(open.legal_en_passant(), Some(Square::E3));
    /// // The d4 pawn is pinned to its king on the fourth rank.
    /// let pinned = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1")?;
    /// assert_eq!(pinned.en_passant(), Some(Square::E3));
    /// assert_eq!(pinned.legal_en_passant(), None);
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn legal_en_passant(&self) -> Option<Square> {
        let square = self.en_passant()?;
        self.legal_moves_masked(Bitboard::FULL, square.bitboard())
            .iter()
            .any(|mv| mv.kind() == MoveKind::EnPassant)
            .then_some(square)
    }

    /// Whether neither side has the material to checkmate by any sequence
    /// of legal moves: king against king, king and one minor piece against
    /// king, or kings and bishops only, all on squares of one colour.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// assert!(Position::from_fen("4k3/8/8/8/8/8/8/4KN2 w - - 0 1")?.is_insufficient_material());
    /// // Bishops on f8 and e1, both dark squares: no mate can be forced or helped.
    /// assert!(Position::from_fen("4kb2/8/8/8/8/8/8/3KB3 w - - 0 1")?.is_insufficient_material());
    /// // On f8 and f1, one dark and one light: a helpmate exists.
    /// assert!(!Position::from_fen("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1")?.is_insufficient_material());
    /// assert!(!Position::from_fen("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1")?.is_insufficient_material());
    /// assert!(!Position::START.is_insufficient_material());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_kind(PieceKind::Pawn)
            | self.by_kind(PieceKind::Rook)
            | self.by_kind(PieceKind::Queen);
        if !heavy.is_empty() {
            return false;
        }
        let knights = self.by_kind(PieceKind::Knight);
        let bishops = self.by_kind(PieceKind::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        knights.is_empty()
            && (bishops.is_subset(masks::LIGHT_SQUARES) || bishops.is_subset(masks::DARK_SQUARES))
    }

    /// Whether the fifty-move rule lets a player claim a draw: a hundred
    /// half-moves without a capture or a pawn move. (A checkmate on the
    /// hundredth half-move still wins; ask [`Position::is_checkmate`].)
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// assert!(Position::from_fen("4k3/8/8/8/8/8/8/4KR2 b - - 100 80")?.is_fifty_move_draw());
    /// assert!(!Position::from_fen("4k3/8/8/8/8/8/8/4KR2 b - - 99 80")?.is_fifty_move_draw());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove_clock() >= 100
    }

    /// Whether `mv` is a legal move here. Any `Move` may be asked about,
    /// even one read from a hash table that belongs to another position.
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Position, Square};
    ///
    /// assert!(Position::START.is_legal(Move::new(Square::G1, Square::F3, MoveKind::Normal)));
    /// assert!(!Position::START.is_legal(Move::new(Square::G1, Square::G3, MoveKind::Normal)));
    /// assert!(!Position::START.is_legal(Move::new(Square::E1, Square::H1, MoveKind::Castling)));
    /// ```
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut finder = Finder {
            wanted: mv,
            found: false,
        };
        self.generate(&mut finder);
        finder.found
    }

    /// How UCI text should write castling in this position: as the king
    /// taking its rook (`UCI_Chess960`) when a castling right belongs to a
    /// king off the e-file or to a rook off the a- and h-files, where the
    /// king's two-square form can be the same text as a plain king step
    /// (`b1c1`) or no move at all (`g1g1`); otherwise as the king's move,
    /// which is what GUIs expect in standard chess. Without castling
    /// rights no castling move is legal, and either notation does.
    ///
    /// ```
    /// use bitboards::{CastlingNotation, Position};
    ///
    /// assert_eq!(Position::START.castling_notation(), CastlingNotation::KingToTarget);
    /// let chess960 = Position::chess960(0)?;
    /// assert_eq!(chess960.castling_notation(), CastlingNotation::KingTakesRook);
    /// # Ok::<(), bitboards::Chess960NumberError>(())
    /// ```
    #[must_use]
    pub fn castling_notation(&self) -> CastlingNotation {
        let rights = self.castling();
        let chess960 = Color::ALL.into_iter().any(|color| {
            CastlingSide::ALL.into_iter().any(|side| {
                let corner = match side {
                    CastlingSide::KingSide => File::H,
                    CastlingSide::QueenSide => File::A,
                };
                rights
                    .rook_file(color, side)
                    .is_some_and(|file| file != corner || self.king(color).file() != File::E)
            })
        });
        if chess960 {
            CastlingNotation::KingTakesRook
        } else {
            CastlingNotation::KingToTarget
        }
    }

    /// `mv` in UCI notation as this position calls for: castling as
    /// [`Position::castling_notation`] says, so that the text always reads
    /// back to `mv` through [`Position::parse_uci`], in standard chess and
    /// in Chess960. (`mv`'s own `Display` always writes the king's move,
    /// which in Chess960 can read back as a different move.)
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// // Chess960, king b1 and rook a1: castling is `b1a1`, since `b1c1`
    /// // is the king's step.
    /// let position = Position::from_fen("4k3/8/8/8/8/8/8/RK6 w A - 0 1")?;
    /// let castle = position.legal_moves().iter().copied().find(|mv| mv.is_castling()).unwrap();
    /// assert_eq!(position.uci(castle).to_string(), "b1a1");
    /// assert_eq!(castle.to_string(), "b1c1");
    /// assert_eq!(position.parse_uci("b1a1")?, castle);
    ///
    /// let standard = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
    /// assert_eq!(standard.uci(standard.parse_uci("e1h1")?).to_string(), "e1g1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn uci(&self, mv: Move) -> Uci {
        mv.uci(self.castling_notation())
    }

    /// Reads a move in UCI notation (`e2e4`, `e7e8q`) and finds it among the
    /// legal moves. Castling may be written either way: as the king's move
    /// (`e1g1`, standard chess) or as the king taking its rook (`e1h1`,
    /// Chess960). Where a king's move to the castling square is also a
    /// plain king move (possible in Chess960), the plain move is meant, and
    /// castling is written king-takes-rook.
    ///
    /// ```
    /// use bitboards::{MoveKind, Position, ParseUciError};
    ///
    /// let position = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
    /// let short = position.parse_uci("e1g1")?;
    /// assert_eq!(short.kind(), MoveKind::Castling);
    /// assert_eq!(position.parse_uci("e1h1")?, short);
    /// assert!(matches!(position.parse_uci("e1e3"), Err(ParseUciError::Illegal { .. })));
    /// assert_eq!(
    ///     position.parse_uci("e1z1").unwrap_err().to_string(),
    ///     "the target square is not a square: `z` is not a file; expected a letter from `a` to `h`"
    /// );
    ///
    /// // Chess960, king b1 and rook a1: castling takes the king to c1, where
    /// // its plain step goes too. `b1c1` is the step; castling is `b1a1`.
    /// let chess960 = Position::from_fen("4k3/8/8/8/8/8/8/RK6 w A - 0 1")?;
    /// assert_eq!(chess960.parse_uci("b1c1")?.kind(), MoveKind::Normal);
    /// assert_eq!(chess960.parse_uci("b1a1")?.kind(), MoveKind::Castling);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, ParseUciError> {
        let (from, to, promotion) = parse_uci_text(text)?;
        match self.piece_on(from) {
            Some(piece) if piece.color() == self.side_to_move() => {}
            found => return Err(ParseUciError::NoPieceToMove { from, found }),
        }
        let mut castling = None;
        for &mv in self.legal_moves().iter() {
            if mv.from() != from || mv.promotion() != promotion {
                continue;
            }
            if mv.is_castling() {
                if mv.to() == to {
                    return Ok(mv);
                }
                if mv.king_target() == to {
                    castling = Some(mv);
                }
            } else if mv.to() == to {
                return Ok(mv);
            }
        }
        castling.ok_or(ParseUciError::Illegal {
            from,
            to,
            promotion,
        })
    }
}

/// Reads `from`, `to` and the promotion letter of a UCI move.
fn parse_uci_text(text: &str) -> Result<(Square, Square, Option<PieceKind>), ParseUciError> {
    if text == "0000" {
        return Err(ParseUciError::NullMove);
    }
    if let Some(index) = text.chars().position(char::is_whitespace) {
        let trailing = index > 0 && text.trim_end().chars().count() == index;
        return Err(ParseUciError::Whitespace {
            column: index + 1,
            trailing,
        });
    }
    let length = text.chars().count();
    if !(4..=5).contains(&length) {
        return Err(ParseUciError::Length(length));
    }
    if let Some(letter) = text.chars().find(|letter| !letter.is_ascii()) {
        return Err(ParseUciError::NotAscii(letter));
    }
    let square = |part: &str, which| {
        part.parse::<Square>()
            .map_err(|error| ParseUciError::BadSquare { which, error })
    };
    let from = square(&text[0..2], WhichSquare::From)?;
    let to = square(&text[2..4], WhichSquare::To)?;
    let promotion = match text[4..].chars().next() {
        None => None,
        Some(letter) => match PieceKind::from_char(letter) {
            Some(
                kind @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen),
            ) if letter.is_ascii_lowercase() => Some(kind),
            _ => return Err(ParseUciError::BadPromotion(letter)),
        },
    };
    Ok((from, to, promotion))
}

/// Which of the two squares of a UCI move is meant.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WhichSquare {
    /// The first two characters: where the piece starts.
    From,
    /// Characters 3 and 4: where it goes.
    To,
}

/// Why a string is not a legal move in UCI notation here.
///
/// The enum is `#[non_exhaustive]`: a `match` on it needs a `_` arm, so
/// that a more precise reason can be added without breaking callers.
///
/// ```
/// use bitboards::{ParseUciError, Position};
///
/// assert_eq!(Position::START.parse_uci("e2e4e"), Err(ParseUciError::BadPromotion('e')));
/// assert_eq!(Position::START.parse_uci("e2"), Err(ParseUciError::Length(2)));
/// assert_eq!(Position::START.parse_uci("e2e4é"), Err(ParseUciError::NotAscii('é')));
/// assert_eq!(Position::START.parse_uci("0000"), Err(ParseUciError::NullMove));
/// assert_eq!(
///     Position::START.parse_uci("e2e5").unwrap_err().to_string(),
///     "e2e5 is not a legal move in this position"
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ParseUciError {
    /// The text is not 4 or 5 characters long; holds how many characters
    /// it has.
    Length(usize),
    /// The text holds a character outside ASCII (the first such one).
    NotAscii(char),
    /// A square is not a square name such as `e4`.
    BadSquare {
        /// Which of the two.
        which: WhichSquare,
        /// What is wrong with it.
        error: ParseSquareError,
    },
    /// The fifth character is not `n`, `b`, `r` or `q`.
    BadPromotion(char),
    /// `0000`, which UCI uses for the null move (an engine's "no move",
    /// or passing the turn): not a move in a position. To pass the turn,
    /// use [`Position::null_move`].
    ///
    /// ```
    /// use bitboards::{ParseUciError, Position};
    ///
    /// assert_eq!(Position::START.parse_uci("0000"), Err(ParseUciError::NullMove));
    /// ```
    NullMove,
    /// The text holds whitespace; holds the column (counted in characters
    /// from 1) of the first, and whether it only trails the move, as when a
    /// line's newline was kept.
    ///
    /// ```
    /// use bitboards::{ParseUciError, Position};
    ///
    /// assert_eq!(
    ///     Position::START.parse_uci("e2e4\n"),
    ///     Err(ParseUciError::Whitespace { column: 5, trailing: true })
    /// );
    /// assert_eq!(Position::START.parse_uci("e2e4\n".trim()).map(|mv| mv.to_string()), Ok("e2e4".to_owned()));
    /// ```
    Whitespace {
        /// Where the first whitespace character is, counted from 1.
        column: usize,
        /// Whether everything from there on is whitespace.
        trailing: bool,
    },
    /// The starting square holds no piece of the side to move: it is empty,
    /// or holds an opponent's piece.
    ///
    /// ```
    /// use bitboards::{ParseUciError, Position, Square};
    ///
    /// assert_eq!(
    ///     Position::START.parse_uci("e7e5"),
    ///     Err(ParseUciError::NoPieceToMove { from: Square::E7, found: "p".parse().ok() })
    /// );
    /// ```
    NoPieceToMove {
        /// The starting square.
        from: Square,
        /// What stands there: `None` when it is empty, else a piece of the
        /// side not to move.
        found: Option<Piece>,
    },
    /// The move is well formed and a piece of the side to move stands on
    /// its starting square, but the move is not legal in this position.
    /// The message adds, for a pawn's step to the last rank written without
    /// a promotion letter, that a promotion needs one.
    Illegal {
        /// The square it starts from.
        from: Square,
        /// The square it goes to.
        to: Square,
        /// The piece it promotes to, if any.
        promotion: Option<PieceKind>,
    },
}

impl fmt::Display for ParseUciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseUciError::Length(length) => write!(
                f,
                "a UCI move has 4 or 5 characters (from, to, and a promotion letter: `e2e4`, `e7e8q`); found {length}"
            ),
            ParseUciError::NotAscii(letter) => write!(
                f,
                "`{letter}` is not ASCII; a UCI move is two square names and a promotion letter (`e2e4`, `e7e8q`)"
            ),
            ParseUciError::BadSquare { which, error } => {
                let which = match which {
                    WhichSquare::From => "starting",
                    WhichSquare::To => "target",
                };
                write!(f, "the {which} square is not a square: {error}")
            }
            ParseUciError::BadPromotion(letter) => write!(
                f,
                "`{letter}` is not a promotion; expected `n`, `b`, `r` or `q` (lower case)"
            ),
            ParseUciError::NullMove => f.write_str(
                "`0000` is UCI's null move (passing the turn), not a move in a position; \
                 `Position::null_move` passes the turn",
            ),
            ParseUciError::Whitespace { trailing: true, .. } => f.write_str(
                "trailing whitespace after the move; a UCI move is 4 or 5 characters \
                 (`e2e4`, `e7e8q`): trim the text first",
            ),
            ParseUciError::Whitespace {
                column,
                trailing: false,
            } => write!(
                f,
                "whitespace at character {column}; a UCI move is 4 or 5 characters with none \
                 (`e2e4`, `e7e8q`)"
            ),
            ParseUciError::NoPieceToMove { from, found: None } => {
                write!(f, "there is no piece on {from} to move")
            }
            ParseUciError::NoPieceToMove {
                from,
                found: Some(piece),
            } => write!(
                f,
                "{from} holds a {} {}, and it is {}'s move: a move starts on a square of \
                 the side to move",
                piece.color(),
                piece.kind().name(),
                !piece.color()
            ),
            ParseUciError::Illegal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(piece) = promotion {
                    write!(f, "{}", piece.to_char())?;
                }
                f.write_str(" is not a legal move in this position")?;
                if promotion.is_none() && looks_like_a_promotion(*from, *to) {
                    write!(
                        f,
                        "; a promotion needs its piece letter: `{from}{to}q`, `{from}{to}r`, \
                         `{from}{to}b` or `{from}{to}n`"
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl core::error::Error for ParseUciError {}

/// Whether `from` to `to` is the shape of a pawn's step or capture onto
/// the last rank: from the seventh rank to the eighth, or from the second
/// to the first, to the same or a neighbouring file.
fn looks_like_a_promotion(from: Square, to: Square) -> bool {
    let (from_rank, to_rank) = (from.rank().index(), to.rank().index());
    let last_rank_step = matches!((from_rank, to_rank), (6, 7) | (1, 0));
    last_rank_step && from.file().index().abs_diff(to.file().index()) <= 1
}

/// Finds one move among the generated ones without listing them.
struct Finder {
    wanted: Move,
    found: bool,
}

impl Sink for Finder {
    #[inline]
    fn moves(&mut self, _: PieceKind, from: Square, targets: Bitboard) {
        self.found |= self.wanted.from() == from
            && self.wanted.kind() == MoveKind::Normal
            && targets.contains(self.wanted.to());
    }

    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        let to = self.wanted.to();
        self.found |= self.wanted.kind() == MoveKind::Normal
            && targets.contains(to)
            && behind(to, delta) == self.wanted.from();
    }

    #[inline]
    fn promotions(&mut self, targets: Bitboard, delta: i8) {
        let to = self.wanted.to();
        self.found |= matches!(self.wanted.kind(), MoveKind::Promotion(_))
            && targets.contains(to)
            && behind(to, delta) == self.wanted.from();
    }

    #[inline]
    fn one(&mut self, mv: Move) {
        self.found |= mv == self.wanted;
    }
}
