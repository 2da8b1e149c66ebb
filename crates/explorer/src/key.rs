//! The 96-bit key a position is indexed by.

use bitboards::{Color, PieceKind, Position};

/// A position's key: 96 bits of a hash of its pieces, side to move,
/// castling rights (by rook square) and en passant square, counted only
/// when a legal capture there exists, so that positions reached by
/// different orders of moves meet, as Lichess's explorer compares them.
///
/// 96 bits as lila-openingexplorer keeps: at a billion positions, a
/// 64-bit key would be expected to collide (the birthday bound is about
/// 2^32 positions); a 96-bit one, not before 2^48.
///
/// ```
/// use bitboards::Position;
/// use bitboards_explorer::Key;
///
/// // 1. Nf3 Nf6 2. Nc3 and 1. Nc3 Nf6 2. Nf3 meet.
/// let play = |sans: [&str; 3]| -> Result<Position, bitboards::SanError> {
///     let mut position = Position::START;
///     for san in sans {
///         position.play_san_in_place(san)?;
///     }
///     Ok(position)
/// };
/// assert_eq!(Key::of(&play(["Nf3", "Nf6", "Nc3"])?), Key::of(&play(["Nc3", "Nf6", "Nf3"])?));
/// assert_ne!(Key::of(&play(["Nf3", "Nf6", "Nc3"])?), Key::of(&play(["Nc3", "Nc6", "Nf3"])?));
/// // After 1. e4 no capture en passant is possible: the square is not counted.
/// let e4 = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
/// let plain = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")?;
/// assert_eq!(Key::of(&e4), Key::of(&plain));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key(pub(crate) u128);

/// The bytes of a key on disk.
pub(crate) const KEY_BYTES: usize = 12;

/// The product of `a` and `b` folded to 64 bits (wyhash's mixing step).
const fn fold(a: u64, b: u64) -> u64 {
    let product = (a as u128) * (b as u128);
    (product as u64) ^ ((product >> 64) as u64)
}

impl Key {
    /// The key of `position`.
    #[must_use]
    pub fn of(position: &Position) -> Key {
        let board = |kind| position.by_kind(kind).0;
        let en_passant = match position.en_passant() {
            Some(square) if position.legal_en_passant().is_some() => 1 + square.index() as u64,
            _ => 0,
        };
        let meta = u64::from(position.side_to_move() == Color::White) | en_passant << 1;
        let words = [
            position.by_color(Color::White).0,
            position.by_color(Color::Black).0,
            board(PieceKind::Pawn),
            board(PieceKind::Knight),
            board(PieceKind::Bishop),
            board(PieceKind::Rook),
            board(PieceKind::Queen),
            board(PieceKind::King),
            position.castling_rooks().0,
            meta,
        ];
        // Two lanes with their own constants (digits of pi and e).
        let (mut a, mut b) = (0x243f_6a88_85a3_08d3_u64, 0xb7e1_5162_8aed_2a6a_u64);
        for (index, word) in words.into_iter().enumerate() {
            let salt = (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            a = fold(a ^ word ^ salt, 0xa076_1d64_78bd_642f);
            b = fold(b ^ word.rotate_left(29) ^ !salt, 0xe703_7ed1_a0b4_28db);
        }
        Key((u128::from(a) << 32 | u128::from(b >> 32)) & ((1 << 96) - 1))
    }

    pub(crate) fn to_bytes(self) -> [u8; KEY_BYTES] {
        let bytes = self.0.to_be_bytes();
        let mut out = [0; KEY_BYTES];
        out.copy_from_slice(&bytes[16 - KEY_BYTES..]);
        out
    }

    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Key> {
        let bytes: [u8; KEY_BYTES] = bytes.try_into().ok()?;
        let mut wide = [0; 16];
        wide[16 - KEY_BYTES..].copy_from_slice(&bytes);
        Some(Key(u128::from_be_bytes(wide)))
    }
}
