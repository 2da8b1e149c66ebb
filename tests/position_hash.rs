//! Polyglot hashing against the format's published test vectors.

use bitboards::Position;

const VECTORS: &str = include_str!("data/polyglot-vectors.txt");

#[test]
fn published_polyglot_vectors() {
    let mut count = 0;
    for line in VECTORS.lines().filter(|line| !line.starts_with('#')) {
        let (fen, key) = line.split_once(';').unwrap();
        let key = u64::from_str_radix(key.trim(), 16).unwrap();
        let position = Position::from_fen(fen.trim()).unwrap();
        assert_eq!(
            position.polyglot_key(),
            key,
            "{fen}: {:016x}",
            position.polyglot_key()
        );
        count += 1;
    }
    assert_eq!(count, 9);
    assert_eq!(Position::START.polyglot_key(), 0x463b_9618_1691_fc9c);
}

#[test]
fn en_passant_is_hashed_only_when_a_pawn_stands_beside_the_pushed_one() {
    // After 1. e4 d5 2. e5 f5 White's e5 pawn stands beside f5: f6 counts.
    let with = Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
        .unwrap();
    let without =
        Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3").unwrap();
    assert_ne!(with.polyglot_key(), without.polyglot_key());
    // After 1. e4 nothing stands beside e4: e3 does not count.
    let e4 =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    let e4_without =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_eq!(e4.polyglot_key(), e4_without.polyglot_key());
}

#[test]
fn clocks_are_not_hashed_and_everything_else_is() {
    let base = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let clocks = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 17 40").unwrap();
    assert_eq!(base.polyglot_key(), clocks.polyglot_key());
    for other in [
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
        "r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1",
    ] {
        assert_ne!(
            Position::from_fen(other).unwrap().polyglot_key(),
            base.polyglot_key(),
            "{other}"
        );
    }
}

#[test]
fn hash_is_a_const_fn() {
    const START_KEY: u64 = Position::START.polyglot_key();
    assert_eq!(START_KEY, 0x463b_9618_1691_fc9c);
}
