//! Generation by mask: `captures` against shakmaty 0.30's `capture_moves`
//! (an independent generator) on random games, standard and Chess960, and
//! `legal_moves_masked` against filtering `legal_moves` over random masks.

mod common;

use bitboards::{Bitboard, CastlingNotation, Move, MoveKind, Position, Square};
use common::{Rng, random_game_positions, shakmaty_position};
use shakmaty::Position as _;
use shakmaty::uci::UciMove;

fn sorted(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    let mut out: Vec<String> = moves
        .into_iter()
        .map(|mv| mv.uci(CastlingNotation::KingTakesRook).to_string())
        .collect();
    out.sort();
    out
}

#[test]
fn captures_agree_with_shakmaty() {
    let mut samples = random_game_positions(0xCA97_0001, 200, 60);
    samples.extend(random_game_positions(0xCA97_0002, 16, 300));
    assert!(samples.len() > 12_000, "{}", samples.len());
    let (mut en_passant, mut promotions, mut total) = (0, 0, 0);
    for sample in &samples {
        let position = &sample.position;
        let theirs = shakmaty_position(position, sample.chess960);
        let ours = position.captures();
        let mut expected: Vec<String> = theirs
            .capture_moves()
            .into_iter()
            .map(|mv| UciMove::from_chess960(mv).to_string())
            .collect();
        expected.sort();
        let fen = position.fen().shredder().to_string();
        assert_eq!(sorted(ours.iter().copied()), expected, "{fen}");
        assert_eq!(position.count_captures(), ours.len() as u64, "{fen}");
        for mv in &ours {
            assert!(!mv.is_castling(), "{fen}: {mv:?}");
            match mv.kind() {
                MoveKind::EnPassant => en_passant += 1,
                MoveKind::Promotion(_) => promotions += 1,
                _ => {}
            }
        }
        total += ours.len();
    }
    // The samples reach the cases that go wrong most easily.
    assert!(en_passant > 50, "only {en_passant} en passant captures");
    assert!(promotions > 50, "only {promotions} capturing promotions");
    assert!(total > 20_000, "only {total} captures");
}

/// Sets for masks: the empty and full boards, single squares, the pieces of
/// each side, and random boards.
fn random_mask(rng: &mut Rng, position: &Position) -> Bitboard {
    match rng.below(6) {
        0 => Bitboard::FULL,
        1 => Bitboard::EMPTY,
        2 => Square::ALL[rng.below(64)].bitboard(),
        3 => position.by_color(position.side_to_move()),
        4 => position.by_color(position.side_to_move().opponent()),
        _ => Bitboard(rng.0.next_u64() & rng.0.next_u64()),
    }
}

#[test]
fn masked_generation_equals_filtering() {
    let samples = random_game_positions(0x3A5C_0003, 120, 80);
    let mut rng = Rng::new(0x3A5C_0004);
    let (mut castles, mut en_passant, mut nonempty) = (0, 0, 0);
    for sample in &samples {
        let position = &sample.position;
        let all = position.legal_moves();
        // Each castling move and each en passant once by its own squares,
        // then random masks.
        let mut masks: Vec<(Bitboard, Bitboard)> = all
            .iter()
            .filter(|mv| mv.is_castling() || mv.kind() == MoveKind::EnPassant)
            .map(|mv| (mv.from().bitboard(), mv.to().bitboard()))
            .collect();
        for _ in 0..4 {
            masks.push((
                random_mask(&mut rng, position),
                random_mask(&mut rng, position),
            ));
        }
        for (from, to) in masks {
            let masked = position.legal_moves_masked(from, to);
            let filtered = all
                .iter()
                .copied()
                .filter(|mv| from.contains(mv.from()) && to.contains(mv.to()));
            let fen = position.fen().shredder().to_string();
            assert_eq!(
                sorted(masked.iter().copied()),
                sorted(filtered),
                "{fen} from {from:?} to {to:?}"
            );
            assert_eq!(
                position.count_legal_moves_masked(from, to),
                masked.len() as u64,
                "{fen}"
            );
            castles += masked.iter().filter(|mv| mv.is_castling()).count();
            en_passant += masked
                .iter()
                .filter(|mv| mv.kind() == MoveKind::EnPassant)
                .count();
            nonempty += usize::from(!masked.is_empty());
        }
    }
    assert!(castles > 100, "only {castles} castling moves");
    assert!(en_passant > 20, "only {en_passant} en passant moves");
    assert!(nonempty > 5_000, "only {nonempty} non-empty lists");
}

#[test]
fn en_passant_is_a_capture_and_castling_is_not() {
    // 1. e4 ... d5 2. e5 f5: exf6 en passant. The king may castle, which
    // captures its own rook in the encoding, and must not be listed.
    let position =
        Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQK2R w KQkq f6 0 4").unwrap();
    let captures = sorted(position.captures().iter().copied());
    assert_eq!(captures, ["e5f6"]);
    assert!(
        position
            .legal_moves()
            .iter()
            .any(|mv| mv.is_castling() && mv.to() == Square::H1)
    );
    // Masked by the king's square and the rook's: the castling move.
    let castle = position.legal_moves_masked(Square::E1.bitboard(), Square::H1.bitboard());
    assert_eq!(sorted(castle.iter().copied()), ["e1h1"]);
    // Masked to the en passant square only: exf6 (e.p.), no other piece
    // moves onto the empty f6.
    let onto_f6 = position.legal_moves_masked(Bitboard::FULL, Square::F6.bitboard());
    assert_eq!(sorted(onto_f6.iter().copied()), ["e5f6"]);
    // A push promotion is not a capture; a capturing one is.
    let promotions = Position::from_fen("1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let captures = sorted(promotions.captures().iter().copied());
    assert_eq!(
        captures,
        [
            "a7b8b", "a7b8n", "a7b8q", "a7b8r", "c7b8b", "c7b8n", "c7b8q", "c7b8r"
        ]
    );
}
