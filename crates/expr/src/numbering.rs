//! The square numberings found in the literature, and the conversions
//! between their numbers and the crate's own bitboards.

use core::fmt;

use bitboards::Bitboard;

/// How a 64-bit number maps to squares.
///
/// Every numbering here keeps each rank in one byte; they differ in which
/// corner is bit 0. The crate's own is [`Numbering::Lerf`]; the others are
/// its rank flip, file mirror, or both, so each conversion is its own
/// inverse.
///
/// ```
/// use bitboards::Square;
/// use bitboards_expr::Numbering;
///
/// // A visualiser page calls 0x0000000004000000 "f5" in BERBEF; in LERF it is c4.
/// assert_eq!(Numbering::Berbef.to_board(0x0000_0000_0400_0000), Square::F5.bitboard());
/// assert_eq!(Numbering::Lerf.to_board(0x0000_0000_0400_0000), Square::C4.bitboard());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Numbering {
    /// Little-endian rank-file: a1 = bit 0, h1 = bit 7, h8 = bit 63 (the crate's own).
    #[default]
    Lerf,
    /// Little-endian rank, big-endian file: h1 = bit 0, a1 = bit 7, so
    /// file a is `0x8080808080808080`.
    Lerbef,
    /// Big-endian rank, little-endian file: a8 = bit 0, a1 = bit 56.
    Berf,
    /// Big-endian rank-file: h8 = bit 0, a1 = bit 63.
    Berbef,
}

impl Numbering {
    /// Every numbering, in the order the editor cycles through them.
    ///
    /// ```
    /// use bitboards_expr::Numbering;
    ///
    /// assert_eq!(Numbering::ALL.len(), 4);
    /// assert_eq!(Numbering::ALL[0], Numbering::default());
    /// ```
    pub const ALL: [Numbering; 4] = [
        Numbering::Lerf,
        Numbering::Lerbef,
        Numbering::Berf,
        Numbering::Berbef,
    ];

    /// The number that stands for `board` in this numbering.
    ///
    /// ```
    /// use bitboards::masks;
    /// use bitboards_expr::Numbering;
    ///
    /// assert_eq!(Numbering::Lerbef.to_number(masks::FILE_A), 0x8080_8080_8080_8080);
    /// assert_eq!(Numbering::Berf.to_number(masks::RANK_8), 0xFF);
    /// ```
    #[must_use]
    pub const fn to_number(self, board: Bitboard) -> u64 {
        match self {
            Numbering::Lerf => board.0,
            Numbering::Lerbef => board.mirror_files().0,
            Numbering::Berf => board.flip_ranks().0,
            Numbering::Berbef => board.0.reverse_bits(),
        }
    }

    /// The board that `number` stands for in this numbering.
    ///
    /// ```
    /// use bitboards::Square;
    /// use bitboards_expr::Numbering;
    ///
    /// assert_eq!(Numbering::Berbef.to_board(1), Square::H8.bitboard());
    /// assert_eq!(Numbering::Lerbef.to_board(1), Square::H1.bitboard());
    /// ```
    #[must_use]
    pub const fn to_board(self, number: u64) -> Bitboard {
        // Each conversion is an involution: mirror, flip, or both.
        Bitboard(self.to_number(Bitboard(number)))
    }

    /// The next numbering in [`Numbering::ALL`], wrapping around.
    ///
    /// ```
    /// use bitboards_expr::Numbering;
    ///
    /// assert_eq!(Numbering::Lerf.next(), Numbering::Lerbef);
    /// assert_eq!(Numbering::Berbef.next(), Numbering::Lerf);
    /// ```
    #[must_use]
    pub const fn next(self) -> Numbering {
        match self {
            Numbering::Lerf => Numbering::Lerbef,
            Numbering::Lerbef => Numbering::Berf,
            Numbering::Berf => Numbering::Berbef,
            Numbering::Berbef => Numbering::Lerf,
        }
    }

    /// The short name used on the command line (`--numbering lerbef`).
    ///
    /// ```
    /// use bitboards_expr::Numbering;
    ///
    /// assert_eq!(Numbering::Lerbef.name(), "lerbef");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Numbering::Lerf => "lerf",
            Numbering::Lerbef => "lerbef",
            Numbering::Berf => "berf",
            Numbering::Berbef => "berbef",
        }
    }

    /// Which corners are bit 0 and bit 63, for the reader.
    ///
    /// ```
    /// use bitboards_expr::Numbering;
    ///
    /// assert_eq!(Numbering::Lerf.corners(), "a1 = bit 0, h8 = bit 63");
    /// ```
    #[must_use]
    pub const fn corners(self) -> &'static str {
        match self {
            Numbering::Lerf => "a1 = bit 0, h8 = bit 63",
            Numbering::Lerbef => "h1 = bit 0, a8 = bit 63",
            Numbering::Berf => "a8 = bit 0, h1 = bit 63",
            Numbering::Berbef => "h8 = bit 0, a1 = bit 63",
        }
    }

    /// The rank held by byte `byte` of a number (byte 0 is the lowest).
    ///
    /// ```
    /// use bitboards::Rank;
    /// use bitboards_expr::Numbering;
    ///
    /// assert_eq!(Numbering::Lerf.rank_of_byte(0), Rank::First);
    /// assert_eq!(Numbering::Berf.rank_of_byte(0), Rank::Eighth);
    /// ```
    #[must_use]
    pub fn rank_of_byte(self, byte: usize) -> bitboards::Rank {
        let lowest_square = self.to_board(1 << (8 * (byte % 8)));
        // A single bit, so `first` is always `Some`; a1 keeps the fallback total.
        lowest_square
            .first()
            .map_or(bitboards::Rank::First, |s| s.rank())
    }
}

impl fmt::Display for Numbering {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Numbering;
    use bitboards::{Bitboard, Square};

    #[test]
    fn each_numbering_puts_bit_zero_on_its_corner() {
        let corners = [
            (Numbering::Lerf, Square::A1, Square::H8),
            (Numbering::Lerbef, Square::H1, Square::A8),
            (Numbering::Berf, Square::A8, Square::H1),
            (Numbering::Berbef, Square::H8, Square::A1),
        ];
        for (numbering, bit_zero, bit_63) in corners {
            assert_eq!(numbering.to_board(1), bit_zero.bitboard(), "{numbering}");
            assert_eq!(
                numbering.to_board(1 << 63),
                bit_63.bitboard(),
                "{numbering}"
            );
            assert!(numbering.corners().starts_with(bit_zero.name()));
        }
    }

    #[test]
    fn conversions_round_trip() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            for numbering in Numbering::ALL {
                assert_eq!(
                    numbering.to_board(numbering.to_number(Bitboard(state))).0,
                    state
                );
            }
        }
    }

    #[test]
    fn next_visits_every_numbering() {
        let mut numbering = Numbering::Lerf;
        for expected in Numbering::ALL {
            assert_eq!(numbering, expected);
            numbering = numbering.next();
        }
        assert_eq!(numbering, Numbering::Lerf);
    }
}
