//! Board coordinates, the only way the generator looks at the board: a
//! square is a (file, rank) pair, both 0..8, and bit `8 * rank + file`.

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
