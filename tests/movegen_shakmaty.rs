//! Differential tests against shakmaty 0.30, an independent move generator:
//! on seeded random games (standard and Chess960) and random sparse
//! placements, the legal moves as UCI text and the answers of `is_check`,
//! `is_checkmate`, `is_stalemate` and `is_insufficient_material` agree.
//!
//! Insufficient material: shakmaty's `is_insufficient_material` holds when
//! each side's `has_insufficient_material` does (0.30, src/position.rs):
//! no pawn, rook or queen; a lone knight only against a bare king (or
//! queens, which the other side's own test then refuses); bishops only when
//! every bishop on the board stands on one colour and there are no knights
//! or pawns. For both sides at once that is exactly this crate's rule
//! (kings alone, one minor piece, or bishops all on one colour), so no
//! difference is intended and none is allowed here.

mod common;

use bitboards::{CastlingNotation, Position};
use common::{Rng, Sample, random_game_positions, shakmaty_position};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position as _};

/// The legal moves of both libraries, each list sorted.
struct Moves {
    ours: Vec<String>,
    theirs: Vec<String>,
}

fn moves(position: &Position, theirs: &Chess, notation: CastlingNotation) -> Moves {
    let mut ours: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|mv| mv.uci(notation).to_string())
        .collect();
    let mut theirs: Vec<String> = theirs
        .legal_moves()
        .into_iter()
        .map(|mv| match notation {
            CastlingNotation::KingToTarget => UciMove::from_standard(mv),
            CastlingNotation::KingTakesRook => UciMove::from_chess960(mv),
        })
        .map(|uci| uci.to_string())
        .collect();
    ours.sort();
    theirs.sort();
    Moves { ours, theirs }
}

/// Compares one position; returns shakmaty's position for the caller's
/// tallies.
fn compare(sample: &Sample) -> Chess {
    let position = &sample.position;
    let theirs = shakmaty_position(position, sample.chess960);
    let fen = position.fen().shredder().to_string();

    // King takes rook is unambiguous in every game; the king's two-square
    // form is what standard GUIs send, compared too (as lists, since in
    // Chess960 it may repeat a plain king move).
    for notation in [
        CastlingNotation::KingTakesRook,
        CastlingNotation::KingToTarget,
    ] {
        let Moves { ours, theirs } = moves(position, &theirs, notation);
        let missing: Vec<&String> = theirs.iter().filter(|mv| !ours.contains(mv)).collect();
        let extra: Vec<&String> = ours.iter().filter(|mv| !theirs.contains(mv)).collect();
        assert_eq!(
            ours, theirs,
            "{fen} ({notation:?}): missing {missing:?}, extra {extra:?}"
        );
    }
    assert_eq!(
        position.count_legal_moves() as usize,
        theirs.legal_moves().len(),
        "{fen}"
    );
    assert_eq!(
        position.has_legal_moves(),
        !theirs.legal_moves().is_empty(),
        "{fen}: has_legal_moves"
    );
    assert_eq!(position.is_check(), theirs.is_check(), "{fen}: is_check");
    assert_eq!(
        position.is_checkmate(),
        theirs.is_checkmate(),
        "{fen}: is_checkmate"
    );
    assert_eq!(
        position.is_stalemate(),
        theirs.is_stalemate(),
        "{fen}: is_stalemate"
    );
    assert_eq!(
        position.is_insufficient_material(),
        theirs.is_insufficient_material(),
        "{fen}: is_insufficient_material"
    );
    theirs
}

#[test]
fn random_games_agree_with_shakmaty() {
    // Many short games for castling and en passant, a few long ones for
    // endings with few pieces, promotions and mates.
    let mut samples = random_game_positions(0x5EED_0960, 160, 30);
    samples.extend(random_game_positions(0x5EED_0961, 12, 300));
    assert!(samples.len() > 6_000, "{}", samples.len());
    let mut chess960 = 0;
    let mut checks = 0;
    let mut castling = 0;
    let mut en_passant = 0;
    let mut promotions = 0;
    for sample in &samples {
        let theirs = compare(sample);
        chess960 += usize::from(sample.chess960);
        checks += usize::from(theirs.is_check());
        let moves = sample.position.legal_moves();
        castling += usize::from(moves.iter().any(|mv| mv.is_castling()));
        en_passant += usize::from(sample.position.en_passant().is_some());
        promotions += usize::from(moves.iter().any(|mv| mv.promotion().is_some()));
    }
    // The games reach what is worth comparing.
    assert!(chess960 > 3_000, "{chess960} Chess960 positions");
    assert!(checks > 200, "{checks} checks");
    assert!(castling > 500, "{castling} positions with castling");
    assert!(en_passant > 25, "{en_passant} positions with en passant");
    assert!(promotions > 100, "{promotions} positions with promotions");
}

/// A random sparse position: two kings and up to four other pieces, either
/// side to move, as a FEN both libraries may refuse.
fn random_placement(rng: &mut Rng) -> String {
    const PIECES: &[u8] = b"PNBRQQRpnbrqqrNBnb";
    let mut board = [b'.'; 64];
    for king in [b'K', b'k'] {
        board[rng.below(64)] = king;
    }
    for _ in 0..rng.below(5) {
        let square = rng.below(64);
        if board[square] == b'.' {
            board[square] = PIECES[rng.below(PIECES.len())];
        }
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[8 * rank + file] {
                b'.' => empty += 1,
                piece => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(char::from(piece));
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    format!("{fen} {side} - - 0 1")
}

#[test]
fn sparse_placements_agree_with_shakmaty_on_the_ends_of_games() {
    let mut rng = Rng::new(0xE2D5);
    let mut compared = 0;
    let (mut mates, mut stalemates, mut insufficient) = (0, 0, 0);
    let mut tally = |position: Position| {
        compare(&Sample {
            position,
            chess960: false,
        });
        compared += 1;
        mates += usize::from(position.is_checkmate());
        stalemates += usize::from(position.is_stalemate());
        insufficient += usize::from(position.is_insufficient_material());
    };
    for _ in 0..4_000 {
        let fen = random_placement(&mut rng);
        // Placements either library refuses (kings touching, the side not
        // to move in check, pawns on the back ranks) are not compared.
        let Ok(position) = Position::from_fen(&fen) else {
            continue;
        };
        let Ok(parsed) = fen.parse::<Fen>() else {
            continue;
        };
        if parsed
            .into_position::<Chess>(CastlingMode::Standard)
            .is_err()
        {
            continue;
        }
        // The position and every one a move away, where a bare king is
        // mated or stalemated far more often than in a random placement.
        tally(position);
        for &mv in position.legal_moves().iter() {
            tally(position.play_unchecked(mv));
        }
    }
    assert!(compared > 30_000, "{compared} positions compared");
    assert!(mates > 30, "{mates} checkmates");
    assert!(stalemates > 50, "{stalemates} stalemates");
    assert!(
        insufficient > 5_000,
        "{insufficient} with insufficient material"
    );
}
