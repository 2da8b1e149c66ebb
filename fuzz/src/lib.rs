//! What the fuzz targets share: the positions that move text is read in,
//! and the checks on error locations.

use bitboards::Position;

/// Kiwipete, the perft suite's busiest middle game: castling both ways,
/// en passant after a double step, pins, many captures.
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Promotions (with and without capture, on both sides of a pinned pawn's
/// file), and black to move after white's double step (en passant).
const FENS: [&str; 4] = [
    KIWIPETE,
    // White promotes on b8, or takes on a8 or c8; black may take en passant.
    "r1n1k3/1P6/8/8/3pP3/8/6p1/4K2R b K e3 0 1",
    "r1n1k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1",
    // Two knights and two rooks that reach the same squares, one knight
    // pinned: disambiguation by file, rank, both, or not at all.
    "4k3/8/8/7b/R6R/5N2/4K3/1N1R3R w - - 0 1",
];

/// Chess960: the king beside its rook on both sides, with castling rights,
/// so that castling and a king's step can go to the same square.
const CHESS960_FENS: [&str; 1] = ["1rk3r1/8/8/8/8/8/8/1RK3R1 w GBgb - 0 1"];

/// The positions move text is tried in: the start, [`KIWIPETE`], the
/// positions above, and Chess960 start position `number % 960`.
#[must_use]
pub fn positions(number: u16) -> Vec<Position> {
    let mut positions = vec![Position::START];
    for fen in FENS.iter().chain(&CHESS960_FENS) {
        positions.push(Position::from_fen(fen).expect("a fuzzing position reads"));
    }
    positions.push(Position::chess960(number % 960).expect("a Chess960 number below 960"));
    positions
}

/// A number from the input's bytes, to pick the Chess960 position.
#[must_use]
pub fn number_of(data: &[u8]) -> u16 {
    data.iter().fold(0u16, |sum, &byte| {
        sum.wrapping_mul(31).wrapping_add(u16::from(byte))
    })
}

/// Panics unless `column` (counted in characters from 1) points into
/// `text` or just past its end.
pub fn assert_column(text: &str, column: usize, what: &dyn core::fmt::Display) {
    let end = text.chars().count() + 1;
    assert!(
        (1..=end).contains(&column),
        "column {column} outside 1..={end} for {text:?}: {what}"
    );
}
