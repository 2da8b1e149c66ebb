//! Polyglot Zobrist hashing over the generated key table.

use super::{CastlingSide, Position};
use crate::tables::POLYGLOT_RANDOM64;
use crate::{Bitboard, CastlingRights, Color, Piece, PieceKind, Square, attacks};

/// Where each group of keys starts in [`POLYGLOT_RANDOM64`] (the layout of
/// the Polyglot book format: 768 piece keys, 4 castling, 8 en passant files,
/// 1 side to move).
const CASTLING_KEYS: usize = 768;
const EN_PASSANT_KEYS: usize = 772;
const WHITE_TO_MOVE_KEY: usize = 780;

impl Position {
    /// The position's Polyglot key: the 64-bit Zobrist hash that Polyglot
    /// opening books are indexed by, equal to it for every standard chess
    /// position.
    ///
    /// It XORs one key per piece on its square, one per castling right, one
    /// for the en passant file and one when White is to move. As Polyglot
    /// defines it, the en passant file counts only when a pawn of the side
    /// to move stands beside the pawn that just double-pushed (whether or
    /// not capturing would be legal). The clocks are not hashed. Chess960
    /// castling rights hash by colour and side, whatever the rook's file.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// assert_eq!(Position::START.polyglot_key(), 0x463b_9618_1691_fc9c);
    /// // After 1. e4 no black pawn can take en passant: e3 is not hashed.
    /// let e4 = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
    /// assert_eq!(e4.polyglot_key(), 0x823c_9b50_fd11_4196);
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[inline]
    #[must_use]
    pub const fn polyglot_key(&self) -> u64 {
        let mut key = self.zobrist;
        if let Some(en_passant) = self.en_passant {
            let us = self.side_to_move;
            // The squares beside the pushed pawn are those from which a pawn
            // of the side to move attacks the square it skipped.
            let capturers = attacks::pawn(us.opponent(), en_passant)
                .intersection(self.pieces(us, PieceKind::Pawn));
            if !capturers.is_empty() {
                key ^= POLYGLOT_RANDOM64[EN_PASSANT_KEYS + en_passant.file() as usize];
            }
        }
        key
    }

    /// The key of the pieces, castling rights and side to move, computed
    /// from nothing: what `zobrist` holds, and what moves keep it equal to.
    pub(super) const fn zobrist_from_scratch(&self) -> u64 {
        let mut boards = [Bitboard::EMPTY; Piece::COUNT];
        let mut index = 0;
        while index < Piece::COUNT {
            let piece = Piece::ALL[index];
            boards[index] = self.pieces(piece.color(), piece.kind());
            index += 1;
        }
        Position::zobrist_of(&boards, self.castling, self.side_to_move)
    }

    /// The key of `boards` (indexed by [`Piece::index`]), castling rights
    /// and side to move: [`Position::zobrist_from_scratch`] for a position
    /// being built from those boards.
    pub(super) const fn zobrist_of(
        boards: &[Bitboard; Piece::COUNT],
        castling: CastlingRights,
        side_to_move: Color,
    ) -> u64 {
        let mut key = 0;
        let mut index = 0;
        while index < Piece::COUNT {
            let piece = Piece::ALL[index];
            let mut board = boards[index];
            while let Some(square) = board.pop() {
                key ^= piece_key(piece, square);
            }
            index += 1;
        }
        let mut right = 0;
        while right < 4 {
            let color = Color::ALL[right / 2];
            let side = CastlingSide::ALL[right % 2];
            if castling.has(color, side) {
                key ^= castling_key(color, side);
            }
            right += 1;
        }
        if let Color::White = side_to_move {
            key ^= side_key();
        }
        key
    }
}

/// The key of `piece` on `square`. Polyglot's kinds interleave the colours,
/// Black first: black pawn 0, white pawn 1, black knight 2, ...
#[cfg_attr(not(bitboards_unoptimized), inline(always))]
pub(super) const fn piece_key(piece: Piece, square: Square) -> u64 {
    let white = matches!(piece.color(), Color::White) as usize;
    let kind = 2 * piece.kind() as usize + white;
    POLYGLOT_RANDOM64[64 * kind + square as usize]
}

/// The key of a castling right: white short, white long, black short, black
/// long, whatever the rook's file.
#[cfg_attr(not(bitboards_unoptimized), inline(always))]
pub(super) const fn castling_key(color: Color, side: CastlingSide) -> u64 {
    POLYGLOT_RANDOM64[CASTLING_KEYS + 2 * color as usize + side as usize]
}

/// The key XORed in when White is to move (so toggled by every move).
#[cfg_attr(not(bitboards_unoptimized), inline(always))]
pub(super) const fn side_key() -> u64 {
    POLYGLOT_RANDOM64[WHITE_TO_MOVE_KEY]
}

impl Position {
    /// The Polyglot key: the old name of [`Position::polyglot_key`], kept
    /// for one release.
    #[deprecated(
        since = "0.1.0",
        note = "renamed to `polyglot_key`, which says which hash it is"
    )]
    #[inline]
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.polyglot_key()
    }
}
