//! Standard Algebraic Notation: writing a move as people and PGN files
//! write it (`Nf3`, `exd5`, `O-O`, `e8=Q+`), and reading it back.
//!
//! Both directions ask the move generator only for what they need: the
//! moves of one kind of piece onto one square, through generation by mask.

use core::fmt;

use crate::moves::{Move, MoveKind};
use crate::position::movegen::{Filter, Sink, behind};
use crate::{Bitboard, CastlingSide, File, PieceKind, Position, Rank, Square, attacks};

/// A move in Standard Algebraic Notation, from [`Position::san`]: `Display`
/// writes it (`Nbd2`, `exd6`, `O-O-O`, `a8=Q#`).
///
/// ```
/// use bitboards::Position;
///
/// let position = Position::START;
/// let mv = position.parse_uci("g1f3")?;
/// assert_eq!(position.san(mv).to_string(), "Nf3");
/// # Ok::<(), bitboards::ParseUciError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct San {
    /// What the text names: castling, or a piece, the squares it may come
    /// from, its target and a promotion (as a parse finds them).
    body: Parsed,
    /// `x` in the text (never for castling).
    capture: bool,
    suffix: Option<Suffix>,
}

/// What a SAN move says about the position it leads to: `+` or `#`.
///
/// ```
/// use bitboards::{Position, Suffix};
///
/// // Fool's mate: 1. f3 e5 2. g4 Qh4#.
/// let position = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2")?;
/// let mate = position.parse_san("Qh4")?;
/// assert_eq!(position.san(mate).suffix(), Some(Suffix::Checkmate));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Suffix {
    /// `+`: the move gives check.
    Check,
    /// `#`: the move gives checkmate.
    Checkmate,
}

impl San {
    /// `+`, `#` or nothing.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let mv = Position::START.parse_san("e4")?;
    /// assert_eq!(Position::START.san(mv).suffix(), None);
    /// # Ok::<(), bitboards::SanError>(())
    /// ```
    #[must_use]
    pub const fn suffix(&self) -> Option<Suffix> {
        self.suffix
    }

    /// Whether the move captures (`x` in the text).
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let position = Position::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")?;
    /// assert!(position.san(position.parse_san("exd5")?).is_capture());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn is_capture(&self) -> bool {
        self.capture
    }
}

/// SAN read on its own, before any position: what it says (the piece, the
/// squares, a capture, a promotion, castling, `+` or `#`), to be resolved
/// against a position later with [`San::to_move`], as shakmaty's `San`
/// is. Annotation glyphs (`!`, `?`) are read and left out; `0-0` reads as
/// `O-O`.
///
/// ```
/// use bitboards::{Position, San};
///
/// let san: San = "Nf3".parse()?;
/// assert_eq!(san.to_string(), "Nf3");
/// let mv = san.to_move(&Position::START)?;
/// assert_eq!(mv.to_string(), "g1f3");
/// let mate: San = "Qxf7#".parse()?;
/// assert!(mate.is_capture());
/// assert_eq!(mate.suffix(), Some(bitboards::Suffix::Checkmate));
/// assert!("Nz9".parse::<San>().is_err());
/// # Ok::<(), bitboards::SanError>(())
/// ```
impl core::str::FromStr for San {
    type Err = SanError;

    fn from_str(text: &str) -> Result<San, SanError> {
        let parsed = parse_text(text)?;
        let marks = text.trim_end_matches(['!', '?']);
        let suffix = if marks.ends_with('#') {
            Some(Suffix::Checkmate)
        } else if marks.ends_with('+') {
            Some(Suffix::Check)
        } else {
            None
        };
        Ok(San {
            body: parsed,
            capture: matches!(parsed, Parsed::Move { .. }) && text.contains(['x', ':']),
            suffix,
        })
    }
}

impl San {
    /// The legal move of `position` this SAN names, as
    /// [`Position::parse_san`] resolves it: the capture mark and the suffix
    /// are not checked against the position.
    ///
    /// # Errors
    /// [`SanError`]: no such legal move, an ambiguous one, castling that is
    /// not allowed, a promotion left out.
    ///
    /// ```
    /// use bitboards::{Position, San, SanError};
    ///
    /// let san: San = "e5".parse()?;
    /// assert!(matches!(san.to_move(&Position::START), Err(SanError::Illegal { .. })));
    /// # Ok::<(), SanError>(())
    /// ```
    pub fn to_move(&self, position: &Position) -> Result<Move, SanError> {
        position.resolve_parsed(self.body).map(|(mv, _)| mv)
    }
}

impl San {
    /// Reads the SAN move that `bytes` starts with, when it has one of the
    /// shapes nearly every move in a game file has: a pawn's push or
    /// capture (`e4`, `exd5`, `e8=Q`), a piece's move with or without its
    /// origin (`Nf3`, `Nbd2`, `R1xe4`, `Qh4xe1`) and castling (`O-O`,
    /// `O-O-O`), each with a `+` or `#` after it or not. Returns the move
    /// and the number of bytes it takes, or `None` for any other text,
    /// which [`str::parse`] reads in full (and says what is wrong with).
    ///
    /// What follows the move is not looked at: a reader that finds words
    /// by what ends them checks that the next byte ends one. Where this
    /// answers, `str::parse` of the same bytes gives the same `San`.
    ///
    /// ```
    /// use bitboards::{Position, San, Suffix};
    ///
    /// let (san, len) = San::from_ascii_prefix(b"Nf3+ Nc6").unwrap();
    /// assert_eq!(len, 4);
    /// assert_eq!(san.suffix(), Some(Suffix::Check));
    /// assert_eq!(san, "Nf3+".parse()?);
    /// // Text of other shapes is left to the full parse.
    /// assert_eq!(San::from_ascii_prefix(b"N:f3"), None);
    /// assert_eq!(San::from_ascii_prefix(b"Nz9"), None);
    /// // What follows is the caller's to check: here `-f3` goes on the word.
    /// assert_eq!(San::from_ascii_prefix(b"Ng1-f3").map(|(_, len)| len), Some(3));
    /// # Ok::<(), bitboards::SanError>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn from_ascii_prefix(bytes: &[u8]) -> Option<(San, usize)> {
        prefix_san(bytes).map(|(san, len)| (san, usize::from(len)))
    }

    /// The text's ASCII bytes, in a buffer longer than any SAN move, and
    /// how many of them there are.
    fn ascii(&self) -> ([u8; 10], usize) {
        let mut text = [0u8; 10];
        let mut len = 0;
        let mut put = |byte: u8| {
            text[len] = byte;
            len += 1;
        };
        match self.body {
            Parsed::Castling(CastlingSide::KingSide) => b"O-O".iter().for_each(|&b| put(b)),
            Parsed::Castling(CastlingSide::QueenSide) => b"O-O-O".iter().for_each(|&b| put(b)),
            Parsed::Move {
                piece,
                from_file,
                from_rank,
                to,
                promotion,
            } => {
                if piece != PieceKind::Pawn {
                    put(piece.to_char().to_ascii_uppercase() as u8);
                }
                if let Some(file) = from_file {
                    put(b'a' + file as u8);
                }
                if let Some(rank) = from_rank {
                    put(b'1' + rank as u8);
                }
                if self.capture {
                    put(b'x');
                }
                put(b'a' + to.file() as u8);
                put(b'1' + to.rank() as u8);
                if let Some(piece) = promotion {
                    put(b'=');
                    put(piece.to_char().to_ascii_uppercase() as u8);
                }
            }
        }
        match self.suffix {
            Some(Suffix::Check) => put(b'+'),
            Some(Suffix::Checkmate) => put(b'#'),
            None => {}
        }
        (text, len)
    }

    /// Appends the text to `out`: what `to_string` gives, without the
    /// formatting machinery or an allocation of its own (a PGN writer or a
    /// table of games writes one per move).
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let position = Position::START;
    /// let mut movetext = String::from("1. ");
    /// position.san(position.parse_uci("g1f3")?).push_to(&mut movetext);
    /// assert_eq!(movetext, "1. Nf3");
    /// # Ok::<(), bitboards::ParseUciError>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn push_to(&self, out: &mut alloc::string::String) {
        let (text, len) = self.ascii();
        // ASCII, so always UTF-8: one copy rather than a `char` at a time.
        if let Ok(text) = core::str::from_utf8(&text[..len]) {
            out.push_str(text);
        }
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One `pad` of the whole move, so that width and alignment apply.
        let (text, len) = self.ascii();
        // Every byte written is ASCII.
        f.pad(core::str::from_utf8(&text[..len]).map_err(|_| fmt::Error)?)
    }
}

/// Why a string is not a legal move in SAN here, from
/// [`Position::parse_san`].
///
/// ```
/// use bitboards::{Position, SanError};
///
/// let error = Position::START.parse_san("Nf4").unwrap_err();
/// assert_eq!(error.to_string(), "no knight can move to f4 in this position");
/// assert!(matches!(Position::START.parse_san("Nz3"), Err(SanError::Malformed { column: 2, .. })));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum SanError {
    /// The text is not SAN; `column` (1-based, in characters) is where it
    /// goes wrong.
    Malformed {
        /// Where (1-based, in characters).
        column: usize,
        /// What is wrong there.
        problem: SanSyntax,
    },
    /// No legal move of `piece` reaches `to` (with the promotion and from
    /// the file or rank given, if any).
    Illegal {
        /// The kind of piece the text moves.
        piece: PieceKind,
        /// The square it names.
        to: Square,
    },
    /// The castling the text asks for is not legal here.
    IllegalCastling {
        /// Which side.
        side: CastlingSide,
    },
    /// A pawn move onto the last rank that does not say what it becomes.
    MissingPromotion {
        /// The square the pawn reaches.
        to: Square,
    },
    /// More than one legal move fits the text.
    Ambiguous {
        /// The kind of piece the text moves.
        piece: PieceKind,
        /// The square it names.
        to: Square,
        /// The squares of every piece that could make the move.
        candidates: Bitboard,
    },
}

/// What is wrong with SAN text, at [`SanError::Malformed`]'s column.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum SanSyntax {
    /// There is no text (or only check and annotation marks).
    Empty,
    /// A character that has no place there.
    Unexpected(char),
    /// The text ends before the target square.
    MissingTarget,
    /// A promotion to a piece no pawn becomes (`K` or `P`).
    BadPromotion(char),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SanError::Malformed { column, problem } => {
                write!(f, "SAN column {column}: ")?;
                match problem {
                    SanSyntax::Empty => f.write_str(
                        "no move; expected a move such as `e4`, `Nf3`, `exd5`, `O-O` or `e8=Q`",
                    ),
                    SanSyntax::Unexpected(letter) => {
                        write!(
                            f,
                            "`{}` has no place in a SAN move here",
                            letter.escape_debug()
                        )
                    }
                    SanSyntax::MissingTarget => {
                        f.write_str("the move ends before its target square (such as `f3`)")
                    }
                    SanSyntax::BadPromotion(letter) => write!(
                        f,
                        "a pawn cannot become `{letter}`; expected `Q`, `R`, `B` or `N`"
                    ),
                }
            }
            SanError::Illegal { piece, to } => {
                write!(f, "no {} can move to {to} in this position", piece.name())
            }
            SanError::IllegalCastling { side } => {
                let text = match side {
                    CastlingSide::KingSide => "O-O",
                    CastlingSide::QueenSide => "O-O-O",
                };
                write!(f, "castling {text} is not legal in this position")
            }
            SanError::MissingPromotion { to } => write!(
                f,
                "a pawn reaching {to} must promote: add the piece, as in `{to}=Q`"
            ),
            SanError::Ambiguous {
                piece,
                to,
                candidates,
            } => {
                write!(f, "ambiguous: the {}s on", piece.name())?;
                let count = candidates.count();
                for (index, square) in candidates.iter().enumerate() {
                    let separator = match index {
                        0 => " ",
                        _ if index + 1 == count as usize => " and ",
                        _ => ", ",
                    };
                    write!(f, "{separator}{square}")?;
                }
                write!(
                    f,
                    " can all move to {to}; add the file or rank of the one meant"
                )
            }
        }
    }
}

impl core::error::Error for SanError {}

impl Position {
    /// The legal move `mv` in Standard Algebraic Notation: the piece letter
    /// (none for pawns), the file or rank (or both) of its square only when
    /// another legal move of the same kind of piece reaches the same square,
    /// `x` for a capture, the target, `=Q` for a promotion, and `+` or `#`.
    /// Castling is `O-O` or `O-O-O`, Chess960 included.
    ///
    /// A pinned piece's move is no legal move, so it never makes another
    /// piece's move ambiguous.
    ///
    /// `mv` must be legal here; any other move is written as well as it
    /// can be, never with a panic.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// // Knights on b1 and f3 both reach d2: the file tells them apart.
    /// let position = Position::from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")?;
    /// assert_eq!(position.san(position.parse_uci("b1d2")?).to_string(), "Nbd2");
    ///
    /// // With the king on e2, the bishop on h5 pins the knight on f3: only
    /// // one knight can go to d2.
    /// let pinned = Position::from_fen("4k3/8/8/7b/8/5N2/4K3/1N6 w - - 0 1")?;
    /// assert_eq!(pinned.san(pinned.parse_uci("b1d2")?).to_string(), "Nd2");
    ///
    /// let castle = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
    /// assert_eq!(castle.san(castle.parse_uci("e1g1")?).to_string(), "O-O");
    ///
    /// let promotion = Position::from_fen("8/1P2k3/8/8/8/8/8/4K3 w - - 0 1")?;
    /// assert_eq!(promotion.san(promotion.parse_uci("b7b8q")?).to_string(), "b8=Q");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn san(&self, mv: Move) -> San {
        let (body, capture) = self.san_body(mv);
        San {
            body,
            capture,
            suffix: self.san_suffix(mv),
        }
    }

    /// The SAN of `mv` without the check mark: what it names, and whether
    /// it captures.
    fn san_body(&self, mv: Move) -> (Parsed, bool) {
        let from = mv.from();
        let to = mv.to();
        if mv.is_castling() {
            let side = if (to as u8) > (from as u8) {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            };
            return (Parsed::Castling(side), false);
        }
        let piece = self.kind_on(from.bitboard()).unwrap_or(PieceKind::Pawn);
        let capture = mv.kind() == MoveKind::EnPassant
            || self.by_color(self.side_to_move().opponent()).contains(to);
        let (from_file, from_rank) = if piece == PieceKind::Pawn {
            (capture.then(|| from.file()), None)
        } else {
            // Pieces of the kind that reach `to` at all; only those are asked
            // whether their move is legal (most moves have none).
            let others = (self.pieces(self.side_to_move(), piece) - from.bitboard())
                & reach(piece, to, self.occupied());
            let mut rivals = Rivals(Bitboard::EMPTY);
            if !others.is_empty() {
                self.generate_filtered(
                    &mut rivals,
                    Filter {
                        from: others,
                        to: to.bitboard(),
                        en_passant: false,
                    },
                );
            }
            let rivals = rivals.0;
            if rivals.is_empty() {
                (None, None)
            } else if (rivals & from.file().bitboard()).is_empty() {
                (Some(from.file()), None)
            } else if (rivals & from.rank().bitboard()).is_empty() {
                (None, Some(from.rank()))
            } else {
                (Some(from.file()), Some(from.rank()))
            }
        };
        let body = Parsed::Move {
            piece,
            from_file,
            from_rank,
            to,
            promotion: mv.promotion(),
        };
        (body, capture)
    }

    /// `+` or `#` for `mv`, or `None`.
    fn san_suffix(&self, mv: Move) -> Option<Suffix> {
        if !self.gives_check(mv) {
            return None;
        }
        if !self.play_unchecked(mv).has_legal_moves() {
            Some(Suffix::Checkmate)
        } else {
            Some(Suffix::Check)
        }
    }

    /// Reads a move in Standard Algebraic Notation and finds it among the
    /// legal moves.
    ///
    /// Besides canonical SAN it reads what real files contain: castling
    /// with zeros (`0-0`, `0-0-0`), a promotion without `=` (`e8Q`, also
    /// `e8q`), more of the origin than needed (`Ngf3`, `N1f3`, `Ng1f3`,
    /// `Ng1-f3`), `x` where nothing is taken, and check, mate and
    /// annotation marks at the end (`+ # ! ? !! ?? !? ?!`), which are not
    /// checked against the position. It never panics, whatever the text.
    ///
    /// ```
    /// use bitboards::{Position, SanError};
    ///
    /// let position = Position::START;
    /// assert_eq!(position.parse_san("Nf3")?, position.parse_uci("g1f3")?);
    /// assert_eq!(position.parse_san("Ng1f3!?")?, position.parse_uci("g1f3")?);
    ///
    /// let error = Position::from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")?
    ///     .parse_san("Nd2")
    ///     .unwrap_err();
    /// assert_eq!(
    ///     error.to_string(),
    ///     "ambiguous: the knights on b1 and f3 can all move to d2; add the file or rank of the one meant"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        self.resolve_san(text).map(|(mv, _)| mv)
    }

    /// [`Position::parse_san`], with the kind of piece that moves (the king
    /// for castling).
    #[inline]
    fn resolve_san(&self, text: &str) -> Result<(Move, PieceKind), SanError> {
        self.resolve_parsed(parse_text(text)?)
    }

    /// The legal move a parsed SAN names here, with the kind of piece that
    /// moves.
    #[inline(always)]
    fn resolve_parsed(&self, parsed: Parsed) -> Result<(Move, PieceKind), SanError> {
        match parsed {
            Parsed::Castling(side) => self.find_castling(side).map(|mv| (mv, PieceKind::King)),
            Parsed::Move {
                piece,
                from_file,
                from_rank,
                to,
                promotion,
            } => {
                let from = self.san_origins(piece, from_file, from_rank, to);
                if promotion.is_none() {
                    if let Some(mv) = self.sure_piece_move(piece, from, to) {
                        return Ok((mv, piece));
                    }
                    if piece == PieceKind::Pawn
                        && let Some(mv) = self.sure_pawn_move(from, to)
                    {
                        return Ok((mv, piece));
                    }
                    if piece == PieceKind::King
                        && let Some(step) = self.king_step(from, to)
                    {
                        return step.map(|mv| (mv, piece));
                    }
                }
                self.find_matching(piece, from, to, promotion)
            }
        }
    }

    /// The squares of the side to move's `piece`s that the text may mean: on
    /// the file and rank it gives, and for any but a pawn, reaching `to`.
    #[inline(always)]
    fn san_origins(
        &self,
        piece: PieceKind,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        to: Square,
    ) -> Bitboard {
        let mut from = self.pieces(self.side_to_move(), piece);
        // A pawn named without its file moves along the target's.
        let from_file = match (piece, from_file) {
            (PieceKind::Pawn, None) => Some(to.file()),
            (_, file) => file,
        };
        if let Some(file) = from_file {
            from &= file.bitboard();
        }
        if let Some(rank) = from_rank {
            from &= rank.bitboard();
        }
        if piece != PieceKind::Pawn {
            from &= reach(piece, to, self.occupied());
        }
        from
    }

    /// The move of the only knight, bishop, rook or queen in `from` onto
    /// `to`, when it is sure to be legal without asking the move generator.
    #[inline(always)]
    fn sure_piece_move(&self, piece: PieceKind, from: Bitboard, to: Square) -> Option<Move> {
        // Most moves of a knight, bishop, rook or queen need no generation:
        // one piece reaches the square, and when the side to move is not in
        // check and that piece is not pinned, any move of it onto a square
        // without one of its own pieces is legal.
        if !matches!(piece, PieceKind::Pawn | PieceKind::King)
            && let Some(only) = from.first()
            && !from.has_more_than_one()
            && !self.by_color(self.side_to_move()).contains(to)
        {
            return self.free_move(only, to);
        }
        None
    }

    /// The move of `only` onto `to` when nothing can make it illegal:
    /// `only` not pinned, and the side to move not in check, or in check
    /// by one piece that the move takes or blocks (for a move that is not
    /// the king's nor en passant, onto a square its own side does not
    /// hold).
    #[inline(always)]
    fn free_move(&self, only: Square, to: Square) -> Option<Move> {
        let checks = self.checks();
        if checks.pinned.contains(only) {
            return None;
        }
        let answers = match checks.checkers.first() {
            None => true,
            Some(_) if checks.checkers.has_more_than_one() => false,
            Some(checker) => crate::between(self.king(self.side_to_move()), checker)
                .union(checker.bitboard())
                .contains(to),
        };
        answers.then(|| Move::new(only, to, MoveKind::Normal))
    }

    /// The push or capture of the only pawn in `from` that can make it onto
    /// `to`, when it is sure to be legal without asking the move generator:
    /// no promotion and no en passant, the side to move not in check and
    /// the pawn not pinned. `None` leaves the move, and any error, to the
    /// generator.
    #[inline(always)]
    fn sure_pawn_move(&self, from: Bitboard, to: Square) -> Option<Move> {
        let us = self.side_to_move();
        let them = us.opponent();
        if crate::masks::BACK_RANKS.contains(to) {
            return None;
        }
        let occupied = self.occupied();
        // The square behind `to`, seen from our side.
        let behind = attacks::pawn_push(them, to);
        let origin = if (from & to.file().bitboard()).is_empty() {
            // A capture (en passant goes to the generator).
            if !self.by_color(them).contains(to) {
                return None;
            }
            attacks::pawn(them, to) & from
        } else if occupied.contains(to) {
            return None;
        } else if !(behind & from).is_empty() {
            behind
        } else if (behind & occupied).is_empty() && to.relative_to(us).rank() == Rank::Fourth {
            // A double push from our second rank.
            let start = attacks::pawn_push(them, behind.first()?);
            if (start & from).is_empty() {
                return None;
            }
            start
        } else {
            return None;
        };
        let only = origin.first()?;
        if origin.has_more_than_one() {
            return None;
        }
        self.free_move(only, to)
    }

    /// The king's step onto `to`, legal or not, decided without the move
    /// generator; `None` without a king in `from` or with its own piece on `to`.
    #[inline]
    fn king_step(&self, from: Bitboard, to: Square) -> Option<Result<Move, SanError>> {
        // A king's step (castling is written `O-O`) is legal when nothing of
        // the opponent's attacks its target with the king lifted off its
        // square.
        let king = from.first()?;
        let us = self.side_to_move();
        if self.by_color(us).contains(to) {
            return None;
        }
        let lifted = self.occupied().difference(king.bitboard());
        if self.attackers_through(to, us.opponent(), lifted).is_empty() {
            Some(Ok(Move::new(king, to, MoveKind::Normal)))
        } else {
            Some(Err(SanError::Illegal {
                piece: PieceKind::King,
                to,
            }))
        }
    }

    /// The one legal move of a `piece` in `from` onto `to` with `promotion`,
    /// asked of the move generator: an error when none or more than one fits.
    #[inline]
    fn find_matching(
        &self,
        piece: PieceKind,
        from: Bitboard,
        to: Square,
        promotion: Option<PieceKind>,
    ) -> Result<(Move, PieceKind), SanError> {
        let mut matcher = Matcher {
            promotion,
            found: None,
            froms: Bitboard::EMPTY,
            unpromoted: false,
        };
        self.generate_filtered(
            &mut matcher,
            Filter {
                from,
                to: to.bitboard(),
                en_passant: piece == PieceKind::Pawn && self.en_passant() == Some(to),
            },
        );
        match matcher.froms.count() {
            1 => matcher
                .found
                .map(|mv| (mv, piece))
                .ok_or(SanError::Illegal { piece, to }),
            0 if matcher.unpromoted => Err(SanError::MissingPromotion { to }),
            0 => Err(SanError::Illegal { piece, to }),
            _ => Err(SanError::Ambiguous {
                piece,
                to,
                candidates: matcher.froms,
            }),
        }
    }

    /// Reads `text` as [`Position::parse_san`] does and plays the move on
    /// this position, returning it; the parse knows what moves, so making
    /// the move skips asking the board. This is what a PGN reader calls for
    /// each move. On an error the position is unchanged.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let mut position = Position::START;
    /// let mv = position.play_san_in_place("Nf3")?;
    /// assert_eq!(mv.to_string(), "g1f3");
    /// assert!(position.play_san_in_place("Nf3").is_err());
    /// assert_eq!(position, Position::START.play_unchecked(mv));
    /// # Ok::<(), bitboards::SanError>(())
    /// ```
    pub fn play_san_in_place(&mut self, text: &str) -> Result<Move, SanError> {
        self.play_parsed(parse_text(text)?)
    }

    /// Plays the move `san` names here, as [`Position::play_san_in_place`]
    /// plays its text, and returns it; on an error the position is
    /// unchanged. With [`San::from_ascii_prefix`] this is a reader's way
    /// through a move without a pass to find where its word ends.
    ///
    /// ```
    /// use bitboards::{Position, San};
    ///
    /// let mut position = Position::START;
    /// let (san, _) = San::from_ascii_prefix(b"e4 e5").unwrap();
    /// assert_eq!(position.play_san(san)?.to_string(), "e2e4");
    /// assert!(position.play_san(san).is_err());
    /// # Ok::<(), bitboards::SanError>(())
    /// ```
    // Inlined into the caller with what it resolves and plays the move by
    // (`play_parsed`, `resolve_parsed`, `san_origins`, `sure_piece_move`,
    // `sure_pawn_move`, `free_move` and `play_known`, always inlined): a
    // PGN reader calls it once a move, and the chain of calls cost its
    // token loop the registers they spilled. Each of them inlined alone
    // showed nothing; the chain inlined together did (docs/performance.md,
    // "Calls the reader no longer makes").
    #[inline]
    pub fn play_san(&mut self, san: San) -> Result<Move, SanError> {
        self.play_parsed(san.body)
    }

    /// Plays the legal move `parsed` names; on an error the position is
    /// unchanged.
    #[inline(always)]
    fn play_parsed(&mut self, parsed: Parsed) -> Result<Move, SanError> {
        let (mv, kind) = self.resolve_parsed(parsed)?;
        self.play_known(kind, mv);
        Ok(mv)
    }

    fn find_castling(&self, side: CastlingSide) -> Result<Move, SanError> {
        let king = self.king(self.side_to_move());
        let Some(file) = self.castling().rook_file(self.side_to_move(), side) else {
            return Err(SanError::IllegalCastling { side });
        };
        let rook = Square::from_file_rank(file, king.rank());
        let mv = Move::new(king, rook, MoveKind::Castling);
        let mut finder = CastlingFinder {
            wanted: mv,
            found: false,
        };
        self.generate_filtered(
            &mut finder,
            Filter {
                from: king.bitboard(),
                to: rook.bitboard(),
                en_passant: false,
            },
        );
        if finder.found {
            Ok(mv)
        } else {
            Err(SanError::IllegalCastling { side })
        }
    }
}

/// The squares from which a `piece` (not a pawn) reaches `to` on a board
/// holding `occupied`: its attacks from `to`, as every move but a pawn's is
/// symmetric.
#[inline]
fn reach(piece: PieceKind, to: Square, occupied: Bitboard) -> Bitboard {
    match piece {
        PieceKind::Knight => attacks::knight(to),
        PieceKind::Bishop => attacks::bishop(to, occupied),
        PieceKind::Rook => attacks::rook(to, occupied),
        PieceKind::Queen => attacks::queen(to, occupied),
        PieceKind::King => attacks::king(to),
        PieceKind::Pawn => Bitboard::FULL,
    }
}

/// The squares of the pieces that have a legal move (the masks ask for one
/// kind of piece onto one square).
struct Rivals(Bitboard);

impl Sink for Rivals {
    #[inline]
    fn moves(&mut self, _: PieceKind, from: Square, targets: Bitboard) {
        if !targets.is_empty() {
            self.0.set(from);
        }
    }

    #[inline]
    fn pawn_moves(&mut self, _: Bitboard, _: i8) {}

    #[inline]
    fn promotions(&mut self, _: Bitboard, _: i8) {}

    #[inline]
    fn one(&mut self, _: Move) {}
}

/// Collects the moves that fit a parsed SAN text.
struct Matcher {
    promotion: Option<PieceKind>,
    found: Option<Move>,
    froms: Bitboard,
    /// A pawn reaches the last rank, but the text names no piece.
    unpromoted: bool,
}

impl Matcher {
    #[inline]
    fn add(&mut self, mv: Move) {
        self.found = Some(mv);
        self.froms.set(mv.from());
    }
}

impl Sink for Matcher {
    #[inline]
    fn moves(&mut self, _: PieceKind, from: Square, targets: Bitboard) {
        if self.promotion.is_some() {
            return;
        }
        for to in targets {
            self.add(Move::new(from, to, MoveKind::Normal));
        }
    }

    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        if self.promotion.is_some() {
            return;
        }
        for to in targets {
            self.add(Move::new(behind(to, delta), to, MoveKind::Normal));
        }
    }

    #[inline]
    fn promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            match self.promotion {
                Some(piece) => {
                    self.add(Move::new(behind(to, delta), to, MoveKind::Promotion(piece)));
                }
                None => self.unpromoted = true,
            }
        }
    }

    #[inline]
    fn one(&mut self, mv: Move) {
        // Castling is written `O-O`, never as a king move.
        if mv.kind() == MoveKind::EnPassant && self.promotion.is_none() {
            self.add(mv);
        }
    }
}

/// Whether one castling move is legal.
struct CastlingFinder {
    wanted: Move,
    found: bool,
}

impl Sink for CastlingFinder {
    #[inline]
    fn moves(&mut self, _: PieceKind, _: Square, _: Bitboard) {}

    #[inline]
    fn pawn_moves(&mut self, _: Bitboard, _: i8) {}

    #[inline]
    fn one(&mut self, mv: Move) {
        self.found |= mv == self.wanted;
    }
}

/// SAN text taken apart, before the position is asked.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Parsed {
    Castling(CastlingSide),
    Move {
        piece: PieceKind,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        to: Square,
        promotion: Option<PieceKind>,
    },
}

/// The 1-based character column of byte offset `at` in `text`.
fn column(text: &str, at: usize) -> usize {
    text.get(..at).map_or(at, |head| head.chars().count()) + 1
}

/// The error for the character that starts at byte `at`.
fn unexpected(text: &str, at: usize) -> SanError {
    let letter = text.get(at..).and_then(|rest| rest.chars().next());
    SanError::Malformed {
        column: column(text, at),
        problem: match letter {
            Some(letter) => SanSyntax::Unexpected(letter),
            None => SanSyntax::MissingTarget,
        },
    }
}

/// The piece a SAN text's first letter names (upper case only: a pawn's
/// move starts with its file, and `b` is a file, not a bishop).
fn piece_of(letter: u8) -> Option<PieceKind> {
    match letter {
        b'N' => Some(PieceKind::Knight),
        b'B' => Some(PieceKind::Bishop),
        b'R' => Some(PieceKind::Rook),
        b'Q' => Some(PieceKind::Queen),
        b'K' => Some(PieceKind::King),
        _ => None,
    }
}

fn file_of(byte: u8) -> Option<File> {
    match byte {
        b'a'..=b'h' => File::new(byte - b'a'),
        _ => None,
    }
}

fn rank_of(byte: u8) -> Option<Rank> {
    match byte {
        b'1'..=b'8' => Rank::new(byte - b'1'),
        _ => None,
    }
}

fn promotion_of(byte: u8) -> Option<PieceKind> {
    match byte {
        b'Q' | b'q' => Some(PieceKind::Queen),
        b'R' | b'r' => Some(PieceKind::Rook),
        b'B' | b'b' => Some(PieceKind::Bishop),
        b'N' | b'n' => Some(PieceKind::Knight),
        _ => None,
    }
}

/// The square written at `bytes[at..at + 2]`, if one is.
#[inline]
fn square_at(bytes: &[u8], at: usize) -> Option<Square> {
    let file = file_of(*bytes.get(at)?)?;
    let rank = rank_of(*bytes.get(at + 1)?)?;
    Some(Square::from_file_rank(file, rank))
}

/// [`San::from_ascii_prefix`]'s reading of the move before its suffix:
/// what it names, whether it has an `x`, and its length.
#[inline(always)]
fn prefix_body(bytes: &[u8]) -> Option<(Parsed, bool, usize)> {
    let first = *bytes.first()?;
    if let Some(file) = file_of(first) {
        // A pawn: `e4`, `exd5`, then `=Q` or nothing.
        let capture = bytes.get(1) == Some(&b'x');
        let at = if capture { 2 } else { 0 };
        let to = square_at(bytes, at)?;
        let mut len = at + 2;
        let mut promotion = None;
        if bytes.get(len) == Some(&b'=') {
            promotion = Some(match bytes.get(len + 1) {
                Some(b'Q') => PieceKind::Queen,
                Some(b'R') => PieceKind::Rook,
                Some(b'B') => PieceKind::Bishop,
                Some(b'N') => PieceKind::Knight,
                _ => return None,
            });
            len += 2;
        }
        let parsed = Parsed::Move {
            piece: PieceKind::Pawn,
            from_file: capture.then_some(file),
            from_rank: None,
            to,
            promotion,
        };
        return Some((parsed, capture, len));
    }
    if first == b'O' {
        return if bytes.starts_with(b"O-O-O") {
            Some((Parsed::Castling(CastlingSide::QueenSide), false, 5))
        } else if bytes.starts_with(b"O-O") {
            Some((Parsed::Castling(CastlingSide::KingSide), false, 3))
        } else {
            None
        };
    }
    let piece = piece_of(first)?;
    // The core after the letter: the origin's file and rank (each or
    // neither), an `x`, the target; its length says which it has. Most
    // moves are `Nf3` or `Nxf3`.
    let is_core = |at: usize| {
        bytes
            .get(at)
            .is_some_and(|byte| matches!(byte, b'a'..=b'h' | b'1'..=b'8' | b'x'))
    };
    let capture = bytes.get(1) == Some(&b'x');
    let at = 1 + usize::from(capture);
    if let Some(to) = square_at(bytes, at)
        && !is_core(at + 2)
    {
        let parsed = Parsed::Move {
            piece,
            from_file: None,
            from_rank: None,
            to,
            promotion: None,
        };
        return Some((parsed, capture, at + 2));
    }
    let mut end = 1;
    while end < bytes.len() && end < 6 && matches!(bytes[end], b'a'..=b'h' | b'1'..=b'8' | b'x') {
        end += 1;
    }
    let to = square_at(bytes, end.checked_sub(2)?)?;
    let mut origin = bytes.get(1..end - 2)?;
    let capture = origin.last() == Some(&b'x');
    if capture {
        origin = &origin[..origin.len() - 1];
    }
    let (from_file, from_rank) = match *origin {
        [] => (None, None),
        [byte] => match (file_of(byte), rank_of(byte)) {
            (None, None) => return None,
            one => one,
        },
        [file, rank] => (Some(file_of(file)?), Some(rank_of(rank)?)),
        _ => return None,
    };
    let parsed = Parsed::Move {
        piece,
        from_file,
        from_rank,
        to,
        promotion: None,
    };
    Some((parsed, capture, end))
}

/// [`San::from_ascii_prefix`], with the length in a byte: the answer then
/// fits in one register, where a `usize` beside the `San` made the caller
/// read it back from memory, a byte of it at a time written, which the
/// processor could not forward (`perf annotate` showed the stall).
///
/// Always inlined, with [`prefix_body`]: LLVM kept it a call of its own,
/// once a move in the PGN reader's token loop, into which
/// `San::from_ascii_prefix` inlines; without the call the loop is measurably
/// faster (docs/performance.md, "Figures behind the code").
#[inline(always)]
fn prefix_san(bytes: &[u8]) -> Option<(San, u8)> {
    let (body, capture, len) = prefix_body(bytes)?;
    let suffix = match bytes.get(len) {
        Some(b'+') => Some(Suffix::Check),
        Some(b'#') => Some(Suffix::Checkmate),
        _ => None,
    };
    let san = San {
        body,
        capture,
        suffix,
    };
    // A prefix is at most eight bytes long (`a7xb8=Q+`).
    Some((san, u8::try_from(len + usize::from(suffix.is_some())).ok()?))
}

/// Takes SAN text apart: castling, or piece, origin hints, target and
/// promotion.
fn parse_text(text: &str) -> Result<Parsed, SanError> {
    let bytes = text.as_bytes();
    // Check, mate and annotation marks at the end say nothing about which
    // move it is.
    let mut end = bytes.len();
    while end > 0 && matches!(bytes[end - 1], b'+' | b'#' | b'!' | b'?') {
        end -= 1;
    }
    let body = &bytes[..end];
    short_move(body).map_or_else(|| parse_body(text, body), Ok)
}

/// The four shapes most moves have, `Nf3`, `Nxf3`, `e4` and `exd5`, read
/// without the general parse ([`parse_body`] reads them the same way).
#[inline]
fn short_move(body: &[u8]) -> Option<Parsed> {
    let (piece, from_file, target) = match *body {
        [file, rank] => (PieceKind::Pawn, None, [file, rank]),
        [letter, file, rank] => (piece_of(letter)?, None, [file, rank]),
        [letter, b'x', file, rank] => match piece_of(letter) {
            Some(piece) => (piece, None, [file, rank]),
            None => (PieceKind::Pawn, Some(file_of(letter)?), [file, rank]),
        },
        _ => return None,
    };
    Some(Parsed::Move {
        piece,
        from_file,
        from_rank: None,
        to: Square::from_file_rank(file_of(target[0])?, rank_of(target[1])?),
        promotion: None,
    })
}

/// [`parse_text`] for any text, `body` being `text` without the marks at
/// its end.
fn parse_body(text: &str, body: &[u8]) -> Result<Parsed, SanError> {
    if body.is_empty() {
        return Err(SanError::Malformed {
            column: 1,
            problem: SanSyntax::Empty,
        });
    }
    match body {
        b"O-O" | b"0-0" => return Ok(Parsed::Castling(CastlingSide::KingSide)),
        b"O-O-O" | b"0-0-0" => return Ok(Parsed::Castling(CastlingSide::QueenSide)),
        _ => {}
    }
    let mut at = 0;
    let piece = piece_of(body[0]).unwrap_or(PieceKind::Pawn);
    if piece != PieceKind::Pawn {
        at = 1;
    }
    let core_end = core_end(body, piece, at);
    let promotion = parse_promotion(text, body, piece, at, core_end)?;
    let to = parse_target(text, body, at, core_end)?;
    let (from_file, from_rank) = parse_origin(text, &body[at..core_end - 2], at)?;
    Ok(Parsed::Move {
        piece,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

/// Where the core that starts at `at` ends: origin, separator and target,
/// `[a-h]?[1-8]?[x:-]?[a-h][1-8]`.
#[inline]
fn core_end(body: &[u8], piece: PieceKind, at: usize) -> usize {
    // What follows the core may only be a promotion.
    let mut core_end = at;
    while core_end < body.len()
        && matches!(body[core_end], b'a'..=b'h' | b'1'..=b'8' | b'x' | b':' | b'-')
    {
        core_end += 1;
    }
    // A pawn's lower-case bishop promotion (`e8b`) looks like a file.
    if piece == PieceKind::Pawn
        && core_end == body.len()
        && core_end >= at + 3
        && body[core_end - 1] == b'b'
        && rank_of(body[core_end - 2]).is_some()
    {
        core_end -= 1;
    }
    core_end
}

/// The promotion after the core (`=Q`, `Q` or `q`), which only a pawn's
/// move has and nothing may follow; `None` when the core ends the body.
#[inline]
fn parse_promotion(
    text: &str,
    body: &[u8],
    piece: PieceKind,
    at: usize,
    core_end: usize,
) -> Result<Option<PieceKind>, SanError> {
    if core_end == body.len() {
        return Ok(None);
    }
    let mut letter_at = core_end;
    if body[letter_at] == b'=' {
        letter_at += 1;
    }
    let Some(&byte) = body.get(letter_at) else {
        return Err(SanError::Malformed {
            column: column(text, letter_at),
            problem: SanSyntax::MissingTarget,
        });
    };
    if piece != PieceKind::Pawn || core_end == at {
        return Err(unexpected(text, core_end));
    }
    let promotion = match promotion_of(byte) {
        Some(kind) => kind,
        None if matches!(byte, b'K' | b'k' | b'P' | b'p') => {
            return Err(SanError::Malformed {
                column: column(text, letter_at),
                problem: SanSyntax::BadPromotion(byte as char),
            });
        }
        None => return Err(unexpected(text, letter_at)),
    };
    if letter_at + 1 < body.len() {
        return Err(unexpected(text, letter_at + 1));
    }
    Ok(Some(promotion))
}

/// The target square: the last two characters of the core, which runs from
/// `at` to `core_end`.
#[inline]
fn parse_target(text: &str, body: &[u8], at: usize, core_end: usize) -> Result<Square, SanError> {
    if core_end - at < 2 {
        return Err(SanError::Malformed {
            column: column(text, core_end),
            problem: match text.get(core_end..).and_then(|rest| rest.chars().next()) {
                Some(letter) if core_end < body.len() => SanSyntax::Unexpected(letter),
                _ => SanSyntax::MissingTarget,
            },
        });
    }
    let target_at = core_end - 2;
    let Some(to_file) = file_of(body[target_at]) else {
        return Err(unexpected(text, target_at));
    };
    let Some(to_rank) = rank_of(body[target_at + 1]) else {
        return Err(unexpected(text, target_at + 1));
    };
    Ok(Square::from_file_rank(to_file, to_rank))
}

/// The origin in the core before the target, which starts at byte `at`:
/// file, rank, both or neither, then at most one separator.
#[inline]
fn parse_origin(
    text: &str,
    mut origin: &[u8],
    at: usize,
) -> Result<(Option<File>, Option<Rank>), SanError> {
    if let [rest @ .., b'x' | b':' | b'-'] = origin {
        origin = rest;
    }
    match *origin {
        [] => Ok((None, None)),
        [byte] => match (file_of(byte), rank_of(byte)) {
            (Some(file), _) => Ok((Some(file), None)),
            (_, Some(rank)) => Ok((None, Some(rank))),
            _ => Err(unexpected(text, at)),
        },
        [file, rank] => match (file_of(file), rank_of(rank)) {
            (Some(file), Some(rank)) => Ok((Some(file), Some(rank))),
            (None, _) => Err(unexpected(text, at)),
            (Some(_), None) => Err(unexpected(text, at + 1)),
        },
        _ => {
            // Too much before the target: blame the first character that
            // cannot be part of an origin square.
            let bad = origin
                .iter()
                .enumerate()
                .position(|(index, &byte)| match index {
                    0 => file_of(byte).is_none() && rank_of(byte).is_none(),
                    1 => rank_of(byte).is_none(),
                    _ => true,
                })
                .unwrap_or(0);
            Err(unexpected(text, at + bad))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{San, parse_body, short_move};

    /// Every text of up to seven characters over the letters that matter:
    /// where [`San::from_ascii_prefix`] answers, the full parse of the
    /// bytes it took answers the same.
    #[test]
    fn a_prefix_reads_as_the_full_parse_of_it() {
        const LETTERS: &[u8] = b"NRKPaeh18x=Q-O+#: ";
        let longest = if cfg!(miri) { 3 } else { 6 };
        let mut read = [0usize; 8];
        let mut text = [0u8; 8];
        for length in 1..=longest {
            let count = LETTERS.len().pow(length as u32);
            for mut index in 0..count {
                for byte in &mut text[..length] {
                    *byte = LETTERS[index % LETTERS.len()];
                    index /= LETTERS.len();
                }
                let bytes = &text[..length];
                let Some((san, len)) = San::from_ascii_prefix(bytes) else {
                    continue;
                };
                assert!(len <= length, "{bytes:?}");
                let taken = core::str::from_utf8(&bytes[..len]).unwrap();
                assert_eq!(taken.parse::<San>(), Ok(san), "{taken}");
                if len == length {
                    read[len] += 1;
                }
            }
        }
        // The texts read whole, by length. A square is one of 3 files by 2
        // ranks; N, R, Q and K are pieces; N, R and Q promotions.
        assert_eq!(read[2], 6, "pawn pushes");
        // A piece's move, `O-O`, a push with `+` or `#`.
        assert_eq!(read[3], 4 * 6 + 1 + 6 * 2);
        if longest == 6 {
            // A piece's move with a file or rank (5) before the square,
            // with `x`, or with a suffix; a pawn's capture; a promotion;
            // `O-O` with a suffix.
            assert_eq!(read[4], 4 * 5 * 6 + 4 * 6 + 4 * 6 * 2 + 3 * 6 + 6 * 3 + 2);
        }
    }

    /// Every text of two to four characters over the letters of SAN: where
    /// the quick reading of the four common shapes answers, the general
    /// parse answers the same.
    #[test]
    fn short_moves_read_as_the_general_parse_does() {
        const LETTERS: &[u8] = b"NBRQKPabcdefgh12345678x=-O";
        // Miri runs the library's unit tests: there, the lengths up to three.
        let longest = if cfg!(miri) { 3 } else { 4 };
        let mut quick = 0;
        let mut text = [0u8; 4];
        for length in 2..=longest {
            let count = LETTERS.len().pow(length as u32);
            for mut index in 0..count {
                for byte in &mut text[..length] {
                    *byte = LETTERS[index % LETTERS.len()];
                    index /= LETTERS.len();
                }
                let body = &text[..length];
                let Some(parsed) = short_move(body) else {
                    continue;
                };
                let text = core::str::from_utf8(body).unwrap();
                assert_eq!(parse_body(text, body), Ok(parsed), "{text}");
                quick += 1;
            }
        }
        // `e4`, `Nf3`, and with four characters `Nxf3` and `exd5`: every
        // square, five piece letters, eight capturing files.
        let expected = 64 + 5 * 64 + if longest == 4 { 5 * 64 + 8 * 64 } else { 0 };
        assert_eq!(quick, expected);
    }
}
