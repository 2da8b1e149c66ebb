//! Making a move: every board, the rights, the clocks and the Polyglot key
//! updated incrementally.

use super::hash::{castling_key, piece_key, side_key};
use super::{CastlingSide, Position};
use crate::masks::BACK_RANKS;
use crate::moves::{Move, MoveKind};
use crate::{Bitboard, Color, Piece, PieceKind, Square, attacks};

impl Position {
    /// The position after `mv` if it is legal here (copy-make: `self` is
    /// unchanged); an error naming the move otherwise. The check generates
    /// this position's moves: an engine or a generator that knows its move
    /// is legal calls [`Position::play_unchecked`].
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Piece, Position, Square};
    ///
    /// let e4 = Position::START.play(Move::new(Square::E2, Square::E4, MoveKind::Normal))?;
    /// assert_eq!(e4.piece_on(Square::E4), Some(Piece::WhitePawn));
    /// assert_eq!(e4.fen().to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// // The king cannot go to e8: an error, and no position without a black king.
    /// let error = Position::START.play(Move::new(Square::E1, Square::E8, MoveKind::Normal)).unwrap_err();
    /// assert_eq!(error.to_string(), "Move(e1e8) is not a legal move in the position");
    /// # Ok::<(), bitboards::IllegalMoveError>(())
    /// ```
    ///
    /// # Errors
    /// [`IllegalMoveError`] when `mv` is not one of [`Position::legal_moves`].
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMoveError> {
        if !self.is_legal(mv) {
            return Err(IllegalMoveError(mv));
        }
        Ok(self.play_unchecked(mv))
    }

    /// The position after `mv`, which the caller knows to be legal here
    /// (copy-make: `self` is unchanged): the engine's and the move
    /// generator's call, with no legality test. `mv` must be one of
    /// [`Position::legal_moves`] (checked in debug builds only); any other
    /// move never panics in a release build, but leaves a position that
    /// may break the rules.
    ///
    /// ```
    /// use bitboards::{Move, MoveKind, Piece, Position, Square};
    ///
    /// let e4 = Position::START.play_unchecked(Move::new(Square::E2, Square::E4, MoveKind::Normal));
    /// assert_eq!(e4.piece_on(Square::E4), Some(Piece::WhitePawn));
    /// assert_eq!(e4.polyglot_key(), 0x823c_9b50_fd11_4196);
    /// ```
    #[inline]
    #[must_use]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        debug_assert!(self.is_legal(mv), "{mv:?} is not legal in {}", self.fen());
        let mut position = *self;
        position.play_unchecked_in_place(mv);
        position
    }

    /// Plays `mv` on this position (make without copy), without checking
    /// that it is legal: the same contract as [`Position::play_unchecked`].
    /// `mv` must be one of [`Position::legal_moves`]; any other move never
    /// panics, but leaves a position that may break the rules.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let mut position = Position::START;
    /// for uci in ["e2e4", "e7e5", "g1f3"] {
    ///     let mv = position.parse_uci(uci)?;
    ///     position.play_unchecked_in_place(mv);
    /// }
    /// assert_eq!(position.fen().to_string(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    /// # Ok::<(), bitboards::ParseUciError>(())
    /// ```
    #[inline]
    pub fn play_unchecked_in_place(&mut self, mv: Move) {
        let us = self.side_to_move;
        let from = mv.from();
        let to = mv.to();
        if !self.colors[us as usize].contains(from) {
            return;
        }
        let Some(kind) = self.kind_on(from.bitboard()) else {
            return;
        };
        match mv.kind() {
            MoveKind::Normal => self.play_normal(kind, from, to),
            MoveKind::Promotion(promoted) => {
                self.begin_move();
                self.capture(to);
                self.remove(Piece::new(us, PieceKind::Pawn), from);
                self.put(Piece::new(us, promoted), to);
                self.halfmove_clock = 0;
                self.end_move(from, to);
            }
            MoveKind::EnPassant => {
                self.begin_move();
                let pawn = Piece::new(us, PieceKind::Pawn);
                // The captured pawn is beside the capturer, on its rank.
                let captured = Square::from_file_rank(to.file(), from.rank());
                self.remove(Piece::new(us.opponent(), PieceKind::Pawn), captured);
                self.remove(pawn, from);
                self.put(pawn, to);
                self.halfmove_clock = 0;
                self.end_move(from, to);
            }
            MoveKind::Castling => {
                self.begin_move();
                let king = Piece::new(us, PieceKind::King);
                let rook = Piece::new(us, PieceKind::Rook);
                // Lift both first: in Chess960 either may land where the
                // other stood.
                self.remove(king, from);
                self.remove(rook, to);
                let king_target = mv.king_target();
                self.put(king, king_target);
                self.put(rook, mv.castling_rook_target().unwrap_or(to));
                self.kings[us as usize] = king_target;
                // The king's squares: ends both of its side's rights.
                self.end_move(from, king_target);
            }
        }
    }

    /// The old name of [`Position::play_unchecked_in_place`], which says
    /// what this never did: check the move.
    #[deprecated(
        since = "0.1.0",
        note = "renamed `play_unchecked_in_place`: it does not check legality"
    )]
    #[inline]
    pub fn play_in_place(&mut self, mv: Move) {
        self.play_unchecked_in_place(mv);
    }

    /// A normal move (no promotion, en passant or castling) of our `kind`
    /// from `from` to `to`: [`Position::play_unchecked_in_place`] when the caller
    /// (move generation) already knows what moves.
    #[inline]
    pub(crate) fn play_normal(&mut self, kind: PieceKind, from: Square, to: Square) {
        self.play_normal_inline(kind, from, to);
    }

    /// [`Position::play_normal`], always inlined: for [`Position::play_known`],
    /// the SAN reader's, which a PGN reader runs once a move, where the call
    /// showed in the reading time (docs/performance.md, "Calls the reader no
    /// longer makes"); move generation keeps its own inlining decision.
    #[inline(always)]
    fn play_normal_inline(&mut self, kind: PieceKind, from: Square, to: Square) {
        let us = self.side_to_move;
        self.begin_move();
        self.capture(to);
        let piece = Piece::new(us, kind);
        self.remove(piece, from);
        self.put(piece, to);
        match kind {
            PieceKind::Pawn => {
                self.halfmove_clock = 0;
                if (to as u8).abs_diff(from as u8) == 16 {
                    self.double_push(from, to);
                }
            }
            PieceKind::King => self.kings[us as usize] = to,
            _ => {}
        }
        self.end_move(from, to);
    }

    /// [`Position::play_unchecked_in_place`] for a legal move whose moving piece the
    /// caller knows (a SAN reader knows it from the piece letter), so that
    /// the board need not be asked.
    #[inline(always)]
    pub(crate) fn play_known(&mut self, kind: PieceKind, mv: Move) {
        match mv.kind() {
            MoveKind::Normal => self.play_normal_inline(kind, mv.from(), mv.to()),
            _ => self.play_unchecked_in_place(mv),
        }
    }

    /// What every move does first: no en passant square any more, one more
    /// half-move on the clock.
    #[inline]
    fn begin_move(&mut self) {
        self.en_passant = None;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
    }

    /// Removes the enemy piece on `to`, if any, and resets the clock.
    #[inline]
    fn capture(&mut self, to: Square) {
        let them = self.side_to_move.opponent();
        if self.colors[them as usize].contains(to)
            && let Some(captured) = self.kind_on(to.bitboard())
        {
            self.remove(Piece::new(them, captured), to);
            self.halfmove_clock = 0;
        }
    }

    /// After a double push from `from` to `to`: the skipped square becomes
    /// the en passant square, but only when an enemy pawn could take there,
    /// so that move generation and the hash skip it otherwise.
    #[inline]
    fn double_push(&mut self, from: Square, to: Square) {
        let us = self.side_to_move;
        if let Some(skipped) = Square::new((from as u8 + to as u8) / 2) {
            let capturers = attacks::pawn(us, skipped)
                & self.kinds[PieceKind::Pawn as usize]
                & self.colors[us.opponent() as usize];
            if !capturers.is_empty() {
                self.en_passant = Some(skipped);
            }
        }
    }

    /// What every move does last: castling rights its squares end, the
    /// move number, the side to move.
    #[inline]
    fn end_move(&mut self, from: Square, to: Square) {
        let us = self.side_to_move;
        // Only a move to or from a back rank (a king's or a castling rook's
        // home) can end a castling right.
        let touched = from.bitboard() | to.bitboard();
        if !(touched & BACK_RANKS).is_empty() && !self.castling.is_empty() {
            self.update_castling(touched);
        }
        if let Color::Black = us {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side_to_move = us.opponent();
        self.zobrist ^= side_key();
    }

    /// Drops the castling rights that a move touching the squares `touched`
    /// ends: a side's both when its king's square is touched, and any whose
    /// rook's square is (the rook left, or was captured there).
    #[inline(never)]
    fn update_castling(&mut self, touched: Bitboard) {
        for color in Color::ALL {
            let home = if let Color::White = color {
                crate::Rank::First
            } else {
                crate::Rank::Eighth
            };
            let king_moved = touched.contains(self.kings[color as usize]);
            for side in CastlingSide::ALL {
                let Some(file) = self.castling.rook_file(color, side) else {
                    continue;
                };
                if king_moved || touched.contains(Square::from_file_rank(file, home)) {
                    self.castling = self.castling.with(color, side, None);
                    self.zobrist ^= castling_key(color, side);
                }
            }
        }
    }

    #[inline]
    fn remove(&mut self, piece: Piece, square: Square) {
        let bit = square.bitboard();
        self.kinds[piece.kind() as usize] ^= bit;
        self.colors[piece.color() as usize] ^= bit;
        self.zobrist ^= piece_key(piece, square);
    }

    /// Puts `piece` on the empty `square`.
    #[inline]
    fn put(&mut self, piece: Piece, square: Square) {
        let bit: Bitboard = square.bitboard();
        self.kinds[piece.kind() as usize] |= bit;
        self.colors[piece.color() as usize] |= bit;
        self.zobrist ^= piece_key(piece, square);
    }
}

impl Position {
    /// The position after passing: the other side to move, no en passant
    /// square, one more half-move on the clock (and the move number after
    /// Black), the Polyglot key updated incrementally. `None` when the side
    /// to move is in check, where passing would leave its king in check.
    ///
    /// Engines search a null move to prove a position so good that even a
    /// free move for the opponent does not spoil it (null-move pruning).
    ///
    /// ```
    /// use bitboards::{Color, Position};
    ///
    /// let e4 = Position::from_fen("rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2")?;
    /// let passed = e4.null_move().expect("not in check");
    /// assert_eq!(passed.side_to_move(), Color::White);
    /// assert_eq!(passed.en_passant(), None);
    /// assert_eq!(passed.fen().to_string(), "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR w KQkq - 1 3");
    /// // The key is the one a FEN of the new position hashes to.
    /// assert_eq!(passed.polyglot_key(), Position::from_fen(&passed.fen().to_string())?.polyglot_key());
    ///
    /// let check = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")?;
    /// assert_eq!(check.null_move(), None);
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn null_move(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut position = *self;
        position.begin_move();
        if let Color::Black = position.side_to_move {
            position.fullmove_number = position.fullmove_number.saturating_add(1);
        }
        position.side_to_move = position.side_to_move.opponent();
        position.zobrist ^= side_key();
        Some(position)
    }

    /// Whether the legal move `mv` gives check, worked out without playing
    /// it: a check by the piece that lands (the promoted piece, the castling
    /// rook), or a discovered one by a slider whose line the move opens
    /// (en passant opens two squares, castling the king's and the rook's).
    ///
    /// `mv` must be legal here, as for [`Position::play`]; any other move
    /// gives an answer that means nothing, never a panic.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// // Any knight move uncovers the rook on e1; the king's step does not.
    /// let position = Position::from_fen("4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1")?;
    /// assert!(position.gives_check(position.parse_uci("e4c5")?));
    /// assert!(!position.gives_check(position.parse_uci("a1b1")?));
    ///
    /// // Castling short puts the rook on f1, facing the king on f8.
    /// let castle = Position::from_fen("5k2/8/8/8/8/8/8/4K2R w K - 0 1")?;
    /// assert!(castle.gives_check(castle.parse_uci("e1g1")?));
    ///
    /// // A queen on b8 checks along the rank; a knight there does not.
    /// let promotion = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")?;
    /// assert!(promotion.gives_check(promotion.parse_uci("b7b8q")?));
    /// assert!(!promotion.gives_check(promotion.parse_uci("b7b8n")?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side_to_move;
        let king = self.kings[us.opponent() as usize];
        let from = mv.from();
        let to = mv.to();
        let Some(moving) = self.kind_on(from.bitboard()) else {
            return false;
        };
        let mut occupied = self.occupied() ^ from.bitboard();
        // The piece that lands, where, and the squares our pieces left.
        let (landed, square, left) = match mv.kind() {
            MoveKind::Normal => (moving, to, from.bitboard()),
            MoveKind::Promotion(promoted) => (promoted, to, from.bitboard()),
            MoveKind::EnPassant => {
                occupied ^= Square::from_file_rank(to.file(), from.rank()).bitboard();
                (PieceKind::Pawn, to, from.bitboard())
            }
            MoveKind::Castling => {
                let rook_target = mv.castling_rook_target().unwrap_or(to);
                occupied ^= to.bitboard();
                occupied |= mv.king_target().bitboard();
                (
                    PieceKind::Rook,
                    rook_target,
                    from.bitboard() | to.bitboard(),
                )
            }
        };
        occupied |= square.bitboard();
        let direct = match landed {
            PieceKind::Pawn => attacks::pawn(us, square),
            PieceKind::Knight => attacks::knight(square),
            PieceKind::Bishop => attacks::bishop(square, occupied),
            PieceKind::Rook => attacks::rook(square, occupied),
            PieceKind::Queen => attacks::queen(square, occupied),
            PieceKind::King => Bitboard::EMPTY,
        };
        if direct.contains(king) {
            return true;
        }
        // Discovered: our sliders that stayed put, seen from the king.
        let ours = self.colors[us as usize] - left;
        let queens = self.kinds[PieceKind::Queen as usize];
        let diagonal = (self.kinds[PieceKind::Bishop as usize] | queens) & ours;
        let straight = (self.kinds[PieceKind::Rook as usize] | queens) & ours;
        !(attacks::bishop(king, occupied) & diagonal).is_empty()
            || !(attacks::rook(king, occupied) & straight).is_empty()
    }
}

/// A move that is not legal where it was played: from [`Position::play`] and
/// [`Game::play`](crate::Game::play).
///
/// ```
/// use bitboards::{Move, MoveKind, Position, Square};
///
/// let error = Position::START.play(Move::new(Square::E2, Square::E5, MoveKind::Normal)).unwrap_err();
/// assert_eq!(error.0, Move::new(Square::E2, Square::E5, MoveKind::Normal));
/// assert_eq!(error.to_string(), "Move(e2e5) is not a legal move in the position");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct IllegalMoveError(pub Move);

impl core::fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?} is not a legal move in the position", self.0)
    }
}

impl core::error::Error for IllegalMoveError {}
