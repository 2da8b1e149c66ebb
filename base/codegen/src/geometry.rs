//! Board coordinates, the only way the generator looks at the board: a
//! square is a (file, rank) pair, both 0..8, and bit `8 * rank + file`.
//!
//! This walk is deliberately not `bitboards-core`'s: the tests check every
//! table with core's one-step shifts, so a table is only accepted when two
//! different methods agree on it.

/// The bit of the square at (`file`, `rank`), or `None` off the board.
pub fn bit(file: i32, rank: i32) -> Option<u64> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| 1u64 << (8 * rank + file))
}

/// The (file, rank) of square `index`.
pub fn coords(index: usize) -> (i32, i32) {
    ((index % 8) as i32, (index / 8) as i32)
}

/// The name of square `index`: "e4" for 28.
pub fn square_name(index: usize) -> String {
    let (file, rank) = coords(index);
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// The union of the squares at (`file`, `rank`) for which `keep` is true.
pub fn squares_where(keep: impl Fn(i32, i32) -> bool) -> u64 {
    (0..64)
        .map(coords)
        .filter(|&(file, rank)| keep(file, rank))
        .filter_map(|(file, rank)| bit(file, rank))
        .fold(0, |acc, b| acc | b)
}

/// For each square, the union of the squares reached by one jump of each of
/// `offsets` that stays on the board.
pub fn leaps(offsets: &[(i32, i32)]) -> Vec<u64> {
    (0..64)
        .map(|index| {
            let (file, rank) = coords(index);
            offsets
                .iter()
                .filter_map(|&(df, dr)| bit(file + df, rank + dr))
                .fold(0, |acc, b| acc | b)
        })
        .collect()
}

/// The eight directions a queen moves in, as (file step, rank step).
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The squares from (`file`, `rank`) outwards in direction (`df`, `dr`),
/// nearest first, not including the start.
pub fn ray(file: i32, rank: i32, (df, dr): (i32, i32)) -> impl Iterator<Item = u64> {
    (1..8).map_while(move |k| bit(file + k * df, rank + k * dr))
}

/// A sliding piece whose attacks have their own tables: rooks and bishops
/// (a queen is the union of both).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Slider {
    Rook,
    Bishop,
}

impl Slider {
    /// Rooks first: the order of every slider table's blocks.
    pub const ALL: [Slider; 2] = [Slider::Rook, Slider::Bishop];

    pub fn name(self) -> &'static str {
        match self {
            Slider::Rook => "rook",
            Slider::Bishop => "bishop",
        }
    }

    fn directions(self) -> [(i32, i32); 4] {
        match self {
            Slider::Rook => [(0, 1), (1, 0), (0, -1), (-1, 0)],
            Slider::Bishop => [(1, 1), (1, -1), (-1, -1), (-1, 1)],
        }
    }

    /// The relevant occupancy on `square`: every square of its rays but the
    /// last one of each (on the edge, whose occupancy never changes the
    /// attacks).
    pub fn mask(self, square: usize) -> u64 {
        let (file, rank) = coords(square);
        self.directions()
            .into_iter()
            .map(|direction| {
                let squares: Vec<u64> = ray(file, rank, direction).collect();
                let inner = squares.len().saturating_sub(1);
                squares[..inner].iter().fold(0, |acc, b| acc | b)
            })
            .fold(0, |acc, b| acc | b)
    }

    /// The slow reference: the squares attacked from `square` when
    /// `occupied` is occupied, walking each ray up to and including the first
    /// occupied square.
    pub fn attacks(self, square: usize, occupied: u64) -> u64 {
        let (file, rank) = coords(square);
        let mut attacked = 0;
        for direction in self.directions() {
            for b in ray(file, rank, direction) {
                attacked |= b;
                if occupied & b != 0 {
                    break;
                }
            }
        }
        attacked
    }
}

/// Every subset of `mask`, the empty set first: core's carry-rippler
/// ([`bitboards_core::Bitboard::subsets`]), the one place the generator uses
/// the core crate.
pub fn subsets(mask: u64) -> impl Iterator<Item = u64> {
    bitboards_core::Bitboard(mask)
        .subsets()
        .map(|subset| subset.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_by_hand() {
        assert_eq!(Slider::Rook.mask(0), 0x0001_0101_0101_017E);
        // e4: e2, e3, e5, e6, e7 and b4, c4, d4, f4, g4.
        assert_eq!(Slider::Rook.mask(28), 0x0010_1010_6E10_1000);
        assert_eq!(Slider::Rook.mask(63), 0x7E80_8080_8080_8000);
        assert_eq!(Slider::Bishop.mask(0), 0x0040_2010_0804_0200);
        // e4: d3, c2, f5, g6, f3, g2, d5, c6, b7.
        assert_eq!(Slider::Bishop.mask(28), 0x0002_4428_0028_4400);
        let total = |piece: Slider| {
            (0..64)
                .map(|s| 1usize << piece.mask(s).count_ones())
                .sum::<usize>()
        };
        assert_eq!(total(Slider::Rook), 102_400);
        assert_eq!(total(Slider::Bishop), 5_248);
    }

    #[test]
    fn reference_attacks_stop_at_the_first_blocker() {
        // Rook on a1, blockers on a3 and d1: a2, a3, b1, c1, d1.
        let occupied = (1 << 16) | (1 << 3);
        assert_eq!(
            Slider::Rook.attacks(0, occupied),
            (1 << 8) | (1 << 16) | 0b1110
        );
        // Bishop on e4, empty board: 13 squares.
        assert_eq!(Slider::Bishop.attacks(28, 0).count_ones(), 13);
    }

    #[test]
    fn subsets_count_up_through_the_mask() {
        let all: Vec<u64> = subsets(0b1010).collect();
        assert_eq!(all, [0, 0b10, 0b1000, 0b1010]);
        assert_eq!(subsets(0).collect::<Vec<_>>(), [0]);
    }
}
