//! Differential tests against shakmaty (an independent chess library): the
//! positions of random games read and print the same FEN, and random piece
//! placements are accepted or refused alike.

mod common;

use bitboards::{FenError, Position, PositionError};

use common::{CHESS960_STARTS, Rng, epd_fens};
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

/// Every position of `games` seeded random games (up to `plies` plies each),
/// from the standard start or a random Chess960 start, as shakmaty writes
/// them with the en passant square after every double push.
fn random_game_positions(seed: u64, games: usize, plies: usize) -> Vec<(String, Chess)> {
    let starts: Vec<&str> = epd_fens(CHESS960_STARTS).collect();
    let mut rng = Rng::new(seed);
    let mut positions = Vec::new();
    for game in 0..games {
        let mut position = if game % 2 == 0 {
            Chess::default()
        } else {
            let fen: Fen = starts[rng.below(starts.len())].trim().parse().unwrap();
            fen.into_position(CastlingMode::Chess960).unwrap()
        };
        for _ in 0..plies {
            positions.push((
                Fen::from_position(&position, EnPassantMode::Always).to_string(),
                position.clone(),
            ));
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let chosen = moves[rng.below(moves.len())];
            position.play_unchecked(chosen);
        }
    }
    positions
}

#[test]
fn random_game_positions_read_and_print_as_shakmaty_writes_them() {
    let positions = random_game_positions(0x6A3E5, 60, 160);
    assert!(positions.len() > 5_000, "{}", positions.len());
    let mut with_en_passant = 0;
    let mut with_castling = 0;
    for (fen, _) in &positions {
        let position = Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"));
        assert_eq!(&position.fen().to_string(), fen);
        with_en_passant += usize::from(position.en_passant().is_some());
        with_castling += usize::from(!position.castling().is_empty());
    }
    // The games reach the cases worth reaching.
    assert!(with_en_passant > 100, "{with_en_passant}");
    assert!(with_castling > 1_000, "{with_castling}");
}

/// A random placement: two kings, up to `extra` other pieces, either side to
/// move, and sometimes an en passant square.
fn random_placement(rng: &mut Rng, extra: usize) -> String {
    let mut board = [None; 64];
    for king in ['K', 'k'] {
        board[rng.below(64)] = Some(king);
    }
    for _ in 0..rng.below(extra + 1) {
        board[rng.below(64)] =
            Some(['P', 'N', 'B', 'R', 'Q', 'p', 'n', 'b', 'r', 'q'][rng.below(10)]);
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(letter) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let white = rng.below(2) == 0;
    let en_passant = if rng.below(3) == 0 {
        format!(
            "{}{}",
            (b'a' + rng.below(8) as u8) as char,
            if white { 6 } else { 3 }
        )
    } else {
        "-".to_owned()
    };
    format!("{fen} {} - {en_passant} 0 1", if white { 'w' } else { 'b' })
}

#[test]
fn random_placements_are_accepted_exactly_when_shakmaty_accepts_them() {
    let mut rng = Rng::new(0xACCE_97ED);
    let (mut accepted, mut refused) = (0, 0);
    for round in 0..40_000 {
        let fen = random_placement(&mut rng, 4 + round % 12);
        let ours = Position::from_fen(&fen);
        let theirs = Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position::<Chess>(CastlingMode::Standard);
        assert_eq!(
            ours.is_ok(),
            theirs.is_ok(),
            "{fen}: ours {ours:?}, shakmaty {:?}",
            theirs.as_ref().err()
        );
        if ours.is_ok() {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    assert!(
        accepted > 5_000 && refused > 5_000,
        "{accepted} / {refused}"
    );
}

#[test]
fn a_check_from_beyond_the_pushed_pawn_is_refused_by_both() {
    // The en passant square says Black's last move was e7-e5, but the rook
    // on e4 checked the king on e1 before that push too: White was in check
    // with Black to move, which no game reaches.
    let fen = "4k3/8/8/4p3/4r3/8/8/4K3 w - e6 0 1";
    assert!(matches!(
        Position::from_fen(fen),
        Err(FenError::Illegal {
            problem: PositionError::CheckNotFromDoublePush { .. },
            ..
        })
    ));
    let theirs = Fen::from_ascii(fen.as_bytes())
        .unwrap()
        .into_position::<Chess>(CastlingMode::Standard);
    assert!(theirs.is_err());
}

#[test]
fn hash_equals_shakmaty_zobrist64_on_random_game_positions() {
    let positions = random_game_positions(0x2A5B_0C1D, 80, 160);
    let mut with_en_passant_key = 0;
    for (fen, theirs) in &positions {
        let ours = Position::from_fen(fen).unwrap();
        let expected: Zobrist64 = theirs.zobrist_hash(EnPassantMode::PseudoLegal);
        assert_eq!(ours.polyglot_key(), expected.0, "{fen}");
        with_en_passant_key += usize::from(theirs.ep_square(EnPassantMode::PseudoLegal).is_some());
    }
    assert!(positions.len() > 8_000, "{}", positions.len());
    assert!(with_en_passant_key > 20, "{with_en_passant_key}");
}

#[test]
fn hash_equals_shakmaty_zobrist64_on_random_placements() {
    let mut rng = Rng::new(0x4A5B);
    let mut compared = 0;
    while compared < 5_000 {
        let fen = random_placement(&mut rng, 16);
        let (Ok(ours), Ok(theirs)) = (
            Position::from_fen(&fen),
            Fen::from_ascii(fen.as_bytes())
                .unwrap()
                .into_position::<Chess>(CastlingMode::Standard),
        ) else {
            continue;
        };
        let expected: Zobrist64 = theirs.zobrist_hash(EnPassantMode::PseudoLegal);
        assert_eq!(ours.polyglot_key(), expected.0, "{fen}");
        compared += 1;
    }
}
