//! How the Syzygy format numbers squares and groups of pieces: the maps
//! from a square to its place among the squares a piece may stand on once
//! the board's symmetries are used, computed here by walking the board
//! (const evaluation, at compile time) from the format's rules.
//!
//! Squares are the crate's: a1 = 0, b1 = 1, ..., h8 = 63.

/// The rank minus the file: 0 on the a1-h8 diagonal, negative below it.
pub(crate) const fn diagonal_offset(square: usize) -> i32 {
    (square >> 3) as i32 - (square & 7) as i32
}

/// `n` choose `k` for `n` < 64 and `k` < 8 (a table's groups), by table:
/// the division of [`binomial`] is slow enough to show in a probe.
#[inline]
pub(crate) fn small_binomial(n: usize, k: usize) -> u64 {
    const TABLE: [[u64; 64]; 8] = {
        let mut table = [[0u64; 64]; 8];
        let mut k = 0;
        while k < 8 {
            let mut n = 0;
            while n < 64 {
                table[k][n] = binomial(n as u64, k as u64);
                n += 1;
            }
            k += 1;
        }
        table
    };
    TABLE[k][n]
}

/// `n` choose `k` (0 when `k > n`).
pub(crate) const fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut result = 1u64;
    let mut i = 0;
    while i < k {
        result = result * (n - i) / (i + 1);
        i += 1;
    }
    result
}

/// Squares below the a1-h8 diagonal (b1-h1-h7) numbered 0..28 in square
/// order; 0 elsewhere.
pub(crate) const BELOW_DIAGONAL: [u8; 64] = {
    let mut map = [0u8; 64];
    let (mut square, mut next) = (0, 0);
    while square < 64 {
        if diagonal_offset(square) < 0 {
            map[square] = next;
            next += 1;
        }
        square += 1;
    }
    map
};

/// The a1-d1-d4 triangle numbered 0..10: the six squares below the
/// diagonal first (b1 0, c1 1, d1 2, c2 3, d2 4, d3 5), then the four on it
/// (a1 6, b2 7, c3 8, d4 9); 0 elsewhere.
pub(crate) const TRIANGLE: [u8; 64] = {
    let mut map = [0u8; 64];
    let mut next = 0;
    let mut square = 0;
    while square < 28 {
        if square & 7 < 4 && diagonal_offset(square) < 0 {
            map[square] = next;
            next += 1;
        }
        square += 1;
    }
    square = 0;
    while square < 28 {
        if square & 7 < 4 && diagonal_offset(square) == 0 {
            map[square] = next;
            next += 1;
        }
        square += 1;
    }
    map
};

/// Whether two squares are the same or touch.
const fn kings_touch(a: usize, b: usize) -> bool {
    let files = (a & 7) as i32 - (b & 7) as i32;
    let ranks = (a >> 3) as i32 - (b >> 3) as i32;
    files.abs() <= 1 && ranks.abs() <= 1
}

/// The index of two kings, the first in the a1-d1-d4 triangle
/// (`KING_PAIRS[TRIANGLE[first]][second]`), 0..462, for tables whose only
/// single pieces are the kings. Pairs whose second king is above the
/// diagonal while the first is on it are not legal encodings (the board is
/// mirrored first), nor are touching kings; pairs with both kings on the
/// diagonal come last. `u16::MAX` where there is no index.
pub(crate) const KING_PAIRS: [[u16; 64]; 10] = {
    let mut map = [[u16::MAX; 64]; 10];
    let mut code = 0u16;
    let mut both_on_diagonal = [(0usize, 0usize); 64];
    let mut on_diagonal = 0;
    let mut index = 0;
    while index < 10 {
        // The square of the triangle that `index` names.
        let mut first = 0;
        while first < 28 {
            if first & 7 < 4 && diagonal_offset(first) <= 0 && TRIANGLE[first] as usize == index {
                break;
            }
            first += 1;
        }
        let mut second = 0;
        while second < 64 {
            if kings_touch(first, second) {
                // Not a legal pair.
            } else if diagonal_offset(first) == 0 && diagonal_offset(second) > 0 {
                // Mirrored to below the diagonal first.
            } else if diagonal_offset(first) == 0 && diagonal_offset(second) == 0 {
                both_on_diagonal[on_diagonal] = (index, second);
                on_diagonal += 1;
            } else {
                map[index][second] = code;
                code += 1;
            }
            second += 1;
        }
        index += 1;
    }
    let mut at = 0;
    while at < on_diagonal {
        let (index, second) = both_on_diagonal[at];
        map[index][second] = code;
        code += 1;
        at += 1;
    }
    map
};

/// The squares a pawn may stand on (a2-h7) numbered so that the leading
/// pawn of a group, the one nearest the edge and then lowest, has the
/// highest number: a2 47, h2 46, a3 45, h3 44, ..., a7 37, h7 36, b2 35,
/// g2 34, ..., d7 1, e7 0. The number is also how many squares the other
/// pawns of the group may stand on when that one leads.
pub(crate) const PAWN_SQUARES: [u8; 64] = {
    let mut map = [0u8; 64];
    let mut available = 47u8;
    let mut file = 0;
    while file < 4 {
        let mut rank = 1;
        while rank < 7 {
            let square = rank * 8 + file;
            map[square] = available;
            map[square ^ 7] = available - 1;
            available = available.wrapping_sub(2);
            rank += 1;
        }
        file += 1;
    }
    map
};

/// Where the index of `count` leading pawns starts when the first stands
/// on `square` (a file a-d, ranks 2-7), within its file's table.
pub(crate) const fn lead_pawn_index(count: usize, square: usize) -> u64 {
    let file = square & 7;
    let mut index = 0;
    let mut rank = 1;
    while rank < square >> 3 {
        index += binomial(PAWN_SQUARES[rank * 8 + file] as u64, count as u64 - 1);
        rank += 1;
    }
    index
}

/// [`lead_pawn_index`] by table, for `count` < 8 (0 for none) and any
/// square.
#[inline]
pub(crate) fn lead_pawn_start(count: usize, square: usize) -> u64 {
    const TABLE: [[u64; 64]; 8] = {
        let mut table = [[0u64; 64]; 8];
        let mut count = 1;
        while count < 8 {
            let mut square = 0;
            while square < 64 {
                table[count][square] = lead_pawn_index(count, square);
                square += 1;
            }
            count += 1;
        }
        table
    };
    TABLE[count & 7][square & 63]
}

/// How many placements `count` leading pawns have when the first is on
/// `file` (0 for a to 3 for d).
pub(crate) const fn lead_pawns_size(count: usize, file: usize) -> u64 {
    lead_pawn_index(count, 7 * 8 + file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangle_and_diagonal_numbering() {
        // b1 c1 d1 c2 d2 d3, then a1 b2 c3 d4.
        let order = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];
        for (index, square) in order.into_iter().enumerate() {
            assert_eq!(TRIANGLE[square] as usize, index, "square {square}");
        }
        assert_eq!(BELOW_DIAGONAL[1], 0);
        assert_eq!(BELOW_DIAGONAL[55], 27); // h7
        assert_eq!((0..64).filter(|&s| diagonal_offset(s) < 0).count(), 28);
    }

    #[test]
    fn king_pairs_number_every_legal_pair_once() {
        let mut seen = [false; 462];
        for row in KING_PAIRS {
            for code in row {
                if code != u16::MAX {
                    assert!(!seen[code as usize], "{code} twice");
                    seen[code as usize] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        // King on b1: a1, b1, c1 touch it; d1 is the first pair.
        assert_eq!(KING_PAIRS[0][..4], [u16::MAX, u16::MAX, u16::MAX, 0]);
        // King on a1, king on b3... and both on the diagonal last: a1 with c3.
        assert_eq!(KING_PAIRS[6][18], 441);
        assert_eq!(KING_PAIRS[9][63], 461);
    }

    #[test]
    fn pawn_squares_lead_from_the_edge_and_the_back() {
        assert_eq!(PAWN_SQUARES[8], 47); // a2
        assert_eq!(PAWN_SQUARES[15], 46); // h2
        assert_eq!(PAWN_SQUARES[16], 45); // a3
        assert_eq!(PAWN_SQUARES[9], 35); // b2
        assert_eq!(PAWN_SQUARES[52], 0); // e7
        let mut all: Vec<u8> = (8..56).map(|s| PAWN_SQUARES[s]).collect();
        all.sort_unstable();
        assert_eq!(all, (0..48).collect::<Vec<u8>>());
        assert_eq!(binomial(62, 2), 1891);
        assert_eq!(lead_pawns_size(1, 0), 6);
        assert_eq!(lead_pawn_index(2, 8 * 3), 47 + 45);
    }
}
