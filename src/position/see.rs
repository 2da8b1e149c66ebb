//! Static exchange evaluation: what a capture sequence on one square wins,
//! both sides taking with their least valuable piece and free to stop.

use super::Position;
use crate::moves::{Move, MoveKind};
use crate::{Bitboard, PieceKind, Rank, Square, attacks};

/// The piece values [`Position::see`] counts in, indexed by
/// [`PieceKind`] (`SEE_VALUES[PieceKind::Rook as usize]`): the textbook
/// pawn 100, knight 300, bishop 300, rook 500, queen 900. The king's value
/// never counts, since no exchange takes a king; it is set high so that
/// nothing ever trades for it.
///
/// ```
/// use bitboards::{PieceKind, SEE_VALUES};
///
/// assert_eq!(SEE_VALUES[PieceKind::Pawn as usize], 100);
/// assert_eq!(SEE_VALUES[PieceKind::Queen as usize], 900);
/// ```
pub const SEE_VALUES: [i32; PieceKind::COUNT] = [100, 300, 300, 500, 900, 20_000];

/// The value of a piece kind.
#[cfg_attr(not(bitboards_unoptimized), inline(always))]
const fn value(kind: PieceKind) -> i32 {
    SEE_VALUES[kind as usize]
}

/// More captures than pieces on a board cannot follow one another.
const MAX_EXCHANGE: usize = 34;

impl Position {
    /// Static exchange evaluation: the material the side to move wins with
    /// `mv` when both sides go on capturing on its target square, each
    /// with its least valuable attacker and each free to stop when going
    /// on would lose, in the values of [`SEE_VALUES`].
    ///
    /// Sliders behind the capturers join in as the pieces in front of them
    /// leave (x-rays). A pawn that captures onto the last rank becomes a
    /// queen, a king never captures onto a square the other side still
    /// attacks, and en passant takes a pawn. Pins are not considered, as is
    /// usual for SEE: a pinned piece may join the exchange. A move that
    /// captures nothing scores what it loses if the piece is taken (0 or
    /// less); castling scores 0.
    ///
    /// `mv` must be legal here; any other move gives an answer that means
    /// nothing, never a panic.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// // Rxe5 wins a pawn: taking back with the rook on e8 would lose it to
    /// // the white rook on e1, which sees e5 once e2 is empty (an x-ray).
    /// let position = Position::from_fen("1k2r3/8/8/4p3/8/8/4R3/1K2R3 w - - 0 1")?;
    /// assert_eq!(position.see(position.parse_uci("e2e5")?), 100);
    ///
    /// // Nxd5 takes a pawn defended by a pawn: 100 - 300.
    /// let position = Position::from_fen("1k6/8/4p3/3p4/8/4N3/8/1K6 w - - 0 1")?;
    /// assert_eq!(position.see(position.parse_uci("e3d5")?), -200);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn see(&self, mv: Move) -> i32 {
        let from = mv.from();
        let to = mv.to();
        let Some(moving) = self.kind_on(from.bitboard()) else {
            return 0;
        };
        if mv.is_castling() {
            return 0;
        }
        let mut occupied = self.occupied() ^ from.bitboard();
        let mut gain = [0i32; MAX_EXCHANGE];
        // The value standing on the target square, which the next capture
        // takes.
        let mut on_target = value(moving);
        gain[0] = match mv.kind() {
            MoveKind::EnPassant => {
                occupied ^= Square::from_file_rank(to.file(), from.rank()).bitboard();
                value(PieceKind::Pawn)
            }
            MoveKind::Promotion(promoted) => {
                on_target = value(promoted);
                self.captured_value(to) + value(promoted) - value(PieceKind::Pawn)
            }
            _ => self.captured_value(to),
        };
        let promotes_here = (Rank::First.bitboard() | Rank::Eighth.bitboard()).contains(to);
        let queens = self.by_kind(PieceKind::Queen);
        let diagonal = self.by_kind(PieceKind::Bishop) | queens;
        let straight = self.by_kind(PieceKind::Rook) | queens;
        let mut attackers = self.all_attackers(to, occupied) & occupied;
        let mut side = self.side_to_move().opponent();
        let mut depth = 0;
        while depth + 1 < MAX_EXCHANGE {
            let candidates = attackers & self.by_color(side);
            let Some((kind, square)) = self.cheapest(candidates) else {
                break;
            };
            if kind == PieceKind::King && !(attackers & self.by_color(side.opponent())).is_empty() {
                break;
            }
            depth += 1;
            // Taking what stands there, against what the exchange stood at.
            gain[depth] = on_target - gain[depth - 1];
            on_target = value(kind);
            if kind == PieceKind::Pawn && promotes_here {
                gain[depth] += value(PieceKind::Queen) - value(PieceKind::Pawn);
                on_target = value(PieceKind::Queen);
            }
            occupied ^= square.bitboard();
            // The capturer's square is empty now: sliders behind it see
            // through. Only pieces on a line through the target can uncover
            // one (a knight never stands on such a line).
            if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
                attackers |= attacks::bishop(to, occupied) & diagonal;
            }
            if matches!(kind, PieceKind::Rook | PieceKind::Queen | PieceKind::King) {
                attackers |= attacks::rook(to, occupied) & straight;
            }
            attackers &= occupied;
            side = side.opponent();
        }
        // Each side stops when capturing would leave it worse off.
        while depth > 0 {
            gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
            depth -= 1;
        }
        gain[0]
    }

    /// Whether [`Position::see`] of `mv` is at least `threshold`: the test
    /// move ordering and pruning ask ("does this capture lose material?"
    /// is `!see_ge(mv, 0)`).
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let position = Position::from_fen("1k6/8/4p3/3p4/8/4N3/8/1K6 w - - 0 1")?;
    /// let nxd5 = position.parse_uci("e3d5")?;
    /// assert!(position.see_ge(nxd5, -200));
    /// assert!(!position.see_ge(nxd5, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        self.see(mv) >= threshold
    }

    /// The value of the enemy piece on `square`, or 0.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn captured_value(&self, square: Square) -> i32 {
        let theirs = self.by_color(self.side_to_move().opponent());
        match self.kind_on(square.bitboard() & theirs) {
            Some(kind) => value(kind),
            None => 0,
        }
    }

    /// The pieces of both colours attacking `square` when the board holds
    /// `occupied`.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn all_attackers(&self, square: Square, occupied: Bitboard) -> Bitboard {
        let queens = self.by_kind(PieceKind::Queen);
        let pawns = self.by_kind(PieceKind::Pawn);
        let white_pawns = pawns & self.by_color(crate::Color::White);
        let black_pawns = pawns & self.by_color(crate::Color::Black);
        (attacks::pawn(crate::Color::Black, square) & white_pawns)
            | (attacks::pawn(crate::Color::White, square) & black_pawns)
            | (attacks::knight(square) & self.by_kind(PieceKind::Knight))
            | (attacks::king(square) & self.by_kind(PieceKind::King))
            | (attacks::bishop(square, occupied) & (self.by_kind(PieceKind::Bishop) | queens))
            | (attacks::rook(square, occupied) & (self.by_kind(PieceKind::Rook) | queens))
    }

    /// The least valuable piece among `candidates`, with its square.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn cheapest(&self, candidates: Bitboard) -> Option<(PieceKind, Square)> {
        if candidates.is_empty() {
            return None;
        }
        // `PieceKind::ALL` runs from the least valuable to the king.
        for kind in PieceKind::ALL {
            if let Some(square) = (candidates & self.by_kind(kind)).first() {
                return Some((kind, square));
            }
        }
        None
    }
}
