//! Rook, bishop and queen lookups: exhaustive against a ray walk written
//! here, differential against cozy-chess, pictures of a few lookups, and the
//! tables' static size. (The pictures of the tables themselves come from the
//! registry walk in tests/snapshots.rs.)

mod common;

use bitboards::{Bitboard, Square, attacks, bitboard, tables};
use common::{STEPS, SplitMix64, diagrams, digest, random_square, walk};

const ROOK_STEPS: [fn(Bitboard) -> Bitboard; 4] = [STEPS[0], STEPS[2], STEPS[4], STEPS[6]];
const BISHOP_STEPS: [fn(Bitboard) -> Bitboard; 4] = [STEPS[1], STEPS[3], STEPS[5], STEPS[7]];

/// Walks each ray from `square` until the edge or the first blocker, which
/// is attacked too.
fn ray_walk(square: Square, occupied: Bitboard, steps: &[fn(Bitboard) -> Bitboard]) -> Bitboard {
    let mut attacks = Bitboard::EMPTY;
    for step in steps {
        let mut current = step(square.bitboard());
        while !current.is_empty() {
            attacks |= current;
            if !(current & occupied).is_empty() {
                break;
            }
            current = step(current);
        }
    }
    attacks
}

/// The squares whose occupancy matters: each ray without its edge square.
fn relevant(square: Square, steps: &[fn(Bitboard) -> Bitboard]) -> Bitboard {
    let mut mask = Bitboard::EMPTY;
    for &step in steps {
        let ray = walk(square, step);
        mask.extend(ray.iter().take(ray.len().saturating_sub(1)).copied());
    }
    mask
}

type Lookup = fn(Square, Bitboard) -> Bitboard;

fn check_exhaustively(name: &str, rook: Lookup, bishop: Lookup) {
    let mut checked = 0usize;
    for square in Square::ALL {
        for (piece, steps, lookup, mask) in [
            (
                "rook",
                &ROOK_STEPS,
                rook,
                tables::ROOK_MAGICS[square.index()][0],
            ),
            (
                "bishop",
                &BISHOP_STEPS,
                bishop,
                tables::BISHOP_MAGICS[square.index()][0],
            ),
        ] {
            assert_eq!(
                Bitboard(mask),
                relevant(square, steps),
                "{piece} mask on {square}"
            );
            // Core's carry-rippler, as the generator enumerates them too.
            for occupied in Bitboard(mask).subsets() {
                assert_eq!(
                    lookup(square, occupied),
                    ray_walk(square, occupied, steps),
                    "{name} {piece} on {square} with {occupied:?}"
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 102_400 + 5_248);
}

#[test]
fn magic_lookups_equal_the_ray_walk_for_every_relevant_occupancy() {
    check_exhaustively("magic", attacks::rook, attacks::bishop);
}

#[test]
fn compact_lookups_equal_the_ray_walk_for_every_relevant_occupancy() {
    check_exhaustively("compact", attacks::compact::rook, attacks::compact::bishop);
}

#[test]
#[cfg_attr(
    not(feature = "pext"),
    ignore = "needs `--features pext` on a BMI2 target: RUSTFLAGS='-C target-feature=+bmi2'"
)]
fn pext_lookups_equal_the_ray_walk_for_every_relevant_occupancy() {
    #[cfg(feature = "pext")]
    check_exhaustively("pext", attacks::pext::rook, attacks::pext::bishop);
}

#[test]
fn occupancy_outside_the_mask_changes_nothing() {
    let mut rng = SplitMix64::new(5);
    for _ in 0..20_000 {
        let square = random_square(&mut rng);
        let occupied = Bitboard(rng.next_u64() & rng.next_u64());
        assert_eq!(
            attacks::rook(square, occupied),
            ray_walk(square, occupied, &ROOK_STEPS)
        );
        assert_eq!(
            attacks::bishop(square, occupied),
            ray_walk(square, occupied, &BISHOP_STEPS)
        );
        assert_eq!(
            attacks::queen(square, occupied),
            ray_walk(square, occupied, &STEPS),
            "queen on {square} with {occupied:?}"
        );
        // The compact layout reads every square of its lines, the edges and
        // the slider's own square included: all of them must be ignored.
        assert_eq!(
            attacks::compact::queen(square, occupied | square.bitboard()),
            ray_walk(square, occupied, &STEPS),
            "compact queen on {square} with {occupied:?}"
        );
    }
}

#[test]
fn a_million_random_lookups_agree_with_cozy_chess() {
    // (Whichever layout `attacks::rook` uses; the other is compared with the
    // ray walk above, and with this one in the library's unit tests.)
    let mut rng = SplitMix64::new(0xB175_B0A2D5);
    for _ in 0..1_000_000 {
        let square = random_square(&mut rng);
        // About a quarter of the board occupied.
        let occupied = Bitboard(rng.next_u64() & rng.next_u64());
        let theirs = cozy_chess::Square::index(square.index());
        let blockers = cozy_chess::BitBoard(occupied.0);
        let rook = cozy_chess::get_rook_moves(theirs, blockers).0;
        let bishop = cozy_chess::get_bishop_moves(theirs, blockers).0;
        assert_eq!(
            attacks::rook(square, occupied).0,
            rook,
            "rook on {square} with {occupied:?}"
        );
        assert_eq!(
            attacks::bishop(square, occupied).0,
            bishop,
            "bishop on {square} with {occupied:?}"
        );
        assert_eq!(
            attacks::queen(square, occupied).0,
            rook | bishop,
            "queen on {square}"
        );
    }
}

#[test]
fn rook_on_d4_with_blockers_on_d6_and_f4() {
    let blockers = bitboard! {
        8 . . . . . . . .
        7 . . . . . . . .
        6 . . . X . . . .
        5 . . . . . . . .
        4 . . . . . X . .
        3 . . . . . . . .
        2 . . . . . . . .
        1 . . . . . . . .
          a b c d e f g h
    };
    assert_eq!(
        attacks::rook(Square::D4, blockers),
        bitboard! {
            8 . . . . . . . .
            7 . . . . . . . .
            6 . . . X . . . .
            5 . . . X . . . .
            4 X X X . X X . .
            3 . . . X . . . .
            2 . . . X . . . .
            1 . . . X . . . .
              a b c d e f g h
        }
    );
}

#[test]
fn slider_tables_have_the_pinned_static_size() {
    use std::mem::size_of_val;
    // 88,772 entries reached by some occupancy, padded with zeros so that
    // every square's whole block lies inside.
    assert_eq!(tables::SLIDER_ATTACKS.len(), 90_498);
    assert!(tables::SLIDER_ATTACKS[88_772..].iter().all(|&e| e == 0));
    let total = size_of_val(&tables::SLIDER_ATTACKS)
        + size_of_val(&tables::ROOK_MAGICS)
        + size_of_val(&tables::BISHOP_MAGICS);
    assert_eq!(total, 90_498 * 8 + 2 * 64 * 3 * 8);
    assert_eq!(total, 727_056, "about 710 KiB");
}

#[test]
fn compact_tables_fit_in_128_kib_with_room_to_spare() {
    use std::mem::size_of_val;
    let total = size_of_val(&tables::LINE_ATTACKS)
        + size_of_val(&tables::FILE_ATTACKS)
        + size_of_val(&tables::DIAGONAL_RAYS)
        + size_of_val(&tables::ANTI_DIAGONAL_RAYS)
        + size_of_val(&tables::LINE_INDEX_MULTIPLIER)
        + size_of_val(&tables::FILE_INDEX_MULTIPLIER)
        // Shared with the rest of the crate, counted here all the same.
        + size_of_val(&tables::RANKS)
        + size_of_val(&tables::FILES);
    assert_eq!(total, 2 * 8 * 64 * 8 + 2 * 64 * 8 + 2 * 8 + 2 * 8 * 8);
    assert_eq!(total, 9_360, "about 9.1 KiB");
    assert!(total <= 128 * 1024);
}

/// The compact lookups are `const fn`s like the default ones.
#[test]
fn both_layouts_answer_in_const_context() {
    const ROOK: Bitboard = attacks::rook(Square::E4, Bitboard::EMPTY);
    const COMPACT: Bitboard = attacks::compact::queen(Square::E4, Bitboard::EMPTY);
    assert_eq!(ROOK, attacks::rook_rays(Square::E4));
    assert_eq!(
        COMPACT,
        attacks::rook_rays(Square::E4) | attacks::bishop_rays(Square::E4)
    );
}

#[test]
fn snapshot_of_a_few_lookups() {
    let examples = [
        (
            "rook d4, blockers d6 f4",
            attacks::rook(Square::D4, Square::D6.bitboard() | Square::F4.bitboard()),
        ),
        (
            "rook a1, empty board",
            attacks::rook(Square::A1, Bitboard::EMPTY),
        ),
        (
            "rook h8, blockers h7 g8",
            attacks::rook(Square::H8, Square::H7.bitboard() | Square::G8.bitboard()),
        ),
        (
            "bishop c1, blockers e3 b2",
            attacks::bishop(Square::C1, Square::E3.bitboard() | Square::B2.bitboard()),
        ),
        (
            "bishop e5, empty board",
            attacks::bishop(Square::E5, Bitboard::EMPTY),
        ),
        (
            "queen d4, blockers d6 f4 b2 f6",
            attacks::queen(
                Square::D4,
                Square::D6.bitboard()
                    | Square::F4.bitboard()
                    | Square::B2.bitboard()
                    | Square::F6.bitboard(),
            ),
        ),
    ];
    let mut text = diagrams(examples.map(|(label, board)| (label.to_string(), board.0)));
    text.push_str(&format!(
        "SLIDER_ATTACKS entries: {}\nnon-empty: {}\ndigest (FNV-1a): {:#018x}\n",
        tables::SLIDER_ATTACKS.len(),
        tables::SLIDER_ATTACKS.iter().filter(|&&e| e != 0).count(),
        digest(tables::SLIDER_ATTACKS.iter().copied())
    ));
    insta::assert_snapshot!("slider_lookups", text);
}

#[cfg(feature = "pext")]
#[test]
fn pext_tables_have_the_pinned_size() {
    use std::mem::size_of_val;
    let total = size_of_val(&tables::PEXT_ATTACKS)
        + size_of_val(&tables::ROOK_PEXT)
        + size_of_val(&tables::BISHOP_PEXT);
    assert_eq!(total, 107_648 * 2 + 2 * 64 * 3 * 8, "about 213 KiB");
}

#[test]
fn every_piece_attacks_as_cozy_chess_says() {
    use bitboards::{Color, Piece, PieceKind};
    let mut rng = SplitMix64::new(0x09A1_ECE5);
    for _ in 0..2_000 {
        let occupied = Bitboard(rng.next_u64() & rng.next_u64());
        let blockers = cozy_chess::BitBoard(occupied.0);
        for square in Square::ALL {
            let theirs = cozy_chess::Square::index(square.index());
            for color in Color::ALL {
                let their_color = match color {
                    Color::White => cozy_chess::Color::White,
                    Color::Black => cozy_chess::Color::Black,
                };
                for kind in PieceKind::ALL {
                    let expected = match kind {
                        PieceKind::Pawn => cozy_chess::get_pawn_attacks(theirs, their_color),
                        PieceKind::Knight => cozy_chess::get_knight_moves(theirs),
                        PieceKind::Bishop => cozy_chess::get_bishop_moves(theirs, blockers),
                        PieceKind::Rook => cozy_chess::get_rook_moves(theirs, blockers),
                        PieceKind::Queen => {
                            cozy_chess::get_rook_moves(theirs, blockers)
                                | cozy_chess::get_bishop_moves(theirs, blockers)
                        }
                        PieceKind::King => cozy_chess::get_king_moves(theirs),
                    };
                    let piece = Piece::new(color, kind);
                    assert_eq!(
                        attacks::piece(piece, square, occupied).0,
                        expected.0,
                        "{piece:?} on {square} with {occupied:?}"
                    );
                }
            }
        }
    }
}
