//! Static exchange evaluation on positions checked by hand. Each case's
//! comment gives the exchange and the sum (pawn 100, knight and bishop 300,
//! rook 500, queen 900: `bitboards::SEE_VALUES`).

mod common;

use bitboards::{PieceKind, Position, Rank, SEE_VALUES};
use common::Rng;

/// `(FEN, move, SEE)`.
const CASES: &[(&str, &str, i32)] = &[
    // A pawn takes an undefended knight: +300.
    ("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300),
    // A knight takes a pawn that a pawn defends: +100 - 300.
    ("1k6/8/4p3/3p4/8/4N3/8/1K6 w - - 0 1", "e3d5", -200),
    // Rxe5; the rook on e8 could take back, but the rook on e1 behind
    // e2 would then take it: Black stops, +100.
    ("1k2r3/8/8/4p3/8/8/4R3/1K2R3 w - - 0 1", "e2e5", 100),
    // The same without the rook on e1: Rxe5 Rxe5, +100 - 500.
    ("1k2r3/8/8/4p3/8/8/4R3/1K6 w - - 0 1", "e2e5", -400),
    // A quiet move onto a square a pawn attacks: the knight is lost.
    ("4k3/2p5/8/8/2N5/8/8/4K3 w - - 0 1", "c4b6", -300),
    // A quiet move to a safe square: 0.
    ("4k3/8/8/8/2N5/8/8/4K3 w - - 0 1", "c4b6", 0),
    // En passant takes a pawn: +100; with c7 defending d6, pawn for pawn.
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100),
    ("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0),
    // axb8=Q takes a rook and becomes a queen (+500 + 800); Nxb8 takes the
    // queen back: 1300 - 900 = +400.
    ("1r2k3/P2n4/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", 400),
    // A push promotion nothing attacks: +800.
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 800),
    // Promoting under the rook's eye: b8=Q Rxb8 loses the pawn, -100;
    // bxa8=Q takes the rook instead: +500 + 800.
    ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", -100),
    ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q", 1300),
    // Black to move: Rxb1 takes an undefended knight, +300.
    ("4k3/8/8/8/8/8/1r6/1N2K3 b - - 0 1", "b2b1", 300),
    // The king defends d5 alone: Qxd5 Kxd5, +100 - 900.
    ("8/8/4k3/3p4/8/3Q4/8/4K3 w - - 0 1", "d3d5", -800),
    // The same with a rook on d1 behind the queen: the king may not take
    // on a square the rook then attacks, so Qxd5 wins the pawn.
    ("8/8/4k3/3p4/8/3Q4/8/3RK3 w - - 0 1", "d3d5", 100),
    // The king captures an undefended pawn: +100.
    ("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2", 100),
    // Chess Programming Wiki's SEE examples (positions from its page):
    // Rxe5 takes an undefended pawn: +100.
    (
        "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
        "e1e5",
        100,
    ),
    // Nxe5 Nxe5 Rxe5 Bxe5 Qxe5 Qxe5: with best play Black takes the
    // knight and White stops: 100 - 300.
    (
        "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
        "d3e5",
        -200,
    ),
    // Castling exchanges nothing.
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1", 0),
];

#[test]
fn hand_checked_exchanges() {
    for &(fen, uci, expected) in CASES {
        let position = Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"));
        let mv = position
            .parse_uci(uci)
            .unwrap_or_else(|error| panic!("{fen} {uci}: {error}"));
        assert_eq!(position.see(mv), expected, "{fen} {uci}");
        assert!(position.see_ge(mv, expected), "{fen} {uci}");
        assert!(!position.see_ge(mv, expected + 1), "{fen} {uci}");
    }
}

#[test]
fn values_are_the_documented_ones() {
    let values: Vec<i32> = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ]
    .iter()
    .map(|&kind| SEE_VALUES[kind as usize])
    .collect();
    assert_eq!(values, [100, 300, 300, 500, 900]);
}

/// Over every capture of many positions: SEE never exceeds what the move
/// takes (plus what a promotion adds), and is never below that minus the
/// capturing piece (the mover stops after one recapture at worst), less a
/// queen's gain when the recapture may be a promoting pawn's.
#[test]
fn bounds_hold_on_random_positions() {
    let mut position = Position::START;
    let mut rng = Rng::new(0x5EE5_EE00);
    let mut checked = 0;
    for _ in 0..20_000 {
        let moves = position.legal_moves();
        if moves.is_empty() || position.halfmove_clock() > 80 {
            position = Position::START;
            continue;
        }
        for &mv in &position.captures() {
            let taken = position
                .piece_on(mv.to())
                .map_or(SEE_VALUES[0], |piece| SEE_VALUES[piece.kind() as usize]);
            let promotion = mv
                .promotion()
                .map_or(0, |kind| SEE_VALUES[kind as usize] - SEE_VALUES[0]);
            let mover = mv.promotion().map_or_else(
                || SEE_VALUES[position.piece_on(mv.from()).unwrap().kind() as usize],
                |kind| SEE_VALUES[kind as usize],
            );
            let see = position.see(mv);
            let fen = position.fen().to_string();
            assert!(see <= taken + promotion, "{fen} {mv}: {see}");
            let back_rank = (Rank::First.bitboard() | Rank::Eighth.bitboard()).contains(mv.to());
            let recapture_promotes = if back_rank {
                SEE_VALUES[4] - SEE_VALUES[0]
            } else {
                0
            };
            assert!(
                see >= taken + promotion - mover - recapture_promotes,
                "{fen} {mv}: {see}"
            );
            checked += 1;
        }
        position = position.play_unchecked(moves[rng.below(moves.len())]);
    }
    assert!(checked > 10_000, "{checked}");
}
