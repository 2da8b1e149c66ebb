//! `play` updates every board, the mailbox, the kings, the rights and the
//! Polyglot key incrementally. Here each position it reaches is compared
//! with the same position rebuilt from scratch out of its own `setup()`, at
//! every node of the perft trees of the reference suites, and its FEN is
//! read back.

mod common;

use bitboards::Validation;
use bitboards::{Color, Move, PieceKind, Position, Square};
use common::{CHESS960_RANDOM, PERFT_SUITE, epd_fens, read};

/// Asserts that `position` (reached by `mv` from `parent`) equals itself
/// rebuilt from scratch and read back from its FEN; a failure names the
/// first part that differs.
fn check_node(parent: &Position, mv: Move, position: &Position) {
    let context = || format!("{parent:?} then {mv:?}");
    // A legal move never leads to a position the strict rules refuse, so
    // the strict constructor is used unless the parent itself needed the
    // relaxed one.
    let rebuilt = if Position::from_setup(parent.setup()).is_ok() {
        Position::from_setup(position.setup())
    } else {
        Position::from_setup_allow_impossible_check(position.setup())
    }
    .unwrap_or_else(|error| panic!("{}: the result breaks a rule: {error}", context()));

    for kind in PieceKind::ALL {
        assert_eq!(
            position.by_kind(kind),
            rebuilt.by_kind(kind),
            "{}: {kind:?} board",
            context()
        );
    }
    for color in Color::ALL {
        assert_eq!(
            position.by_color(color),
            rebuilt.by_color(color),
            "{}: {color:?} board",
            context()
        );
        assert_eq!(
            position.king(color),
            rebuilt.king(color),
            "{}: {color:?} king",
            context()
        );
    }
    for square in Square::ALL {
        assert_eq!(
            position.piece_on(square),
            rebuilt.piece_on(square),
            "{}: mailbox on {square}",
            context()
        );
    }
    assert_eq!(
        position.polyglot_key(),
        rebuilt.polyglot_key(),
        "{}: incremental key against the key from scratch",
        context()
    );
    // Everything else, the private incremental key included.
    assert_eq!(*position, rebuilt, "{}", context());

    let fen = position.fen().to_string();
    let reread = Position::from_fen_with(&fen, Validation::ALL_RULES.allow_impossible_check())
        .unwrap_or_else(|error| panic!("{}: its FEN {fen} does not read: {error}", context()));
    assert_eq!(reread, *position, "{}: FEN {fen}", context());
}

/// Walks the legal move tree of `position` to `depth` plies, checking every
/// node below the root; returns how many nodes were checked.
fn walk(position: &Position, depth: u32) -> u64 {
    let mut nodes = 0;
    for &mv in position.legal_moves().iter() {
        let child = position.play_unchecked(mv);
        check_node(position, mv, &child);
        nodes += 1;
        if depth > 1 {
            nodes += walk(&child, depth - 1);
        }
    }
    nodes
}

/// The tree depth: 3 as asked, or `PLAY_DEPTH`.
fn depth() -> u32 {
    std::env::var("PLAY_DEPTH")
        .ok()
        .and_then(|depth| depth.parse().ok())
        .unwrap_or(3)
}

#[test]
fn every_node_of_the_suite_trees_equals_its_rebuild() {
    let fens: Vec<&str> = epd_fens(PERFT_SUITE).collect();
    assert!(fens.len() >= 126);
    let mut nodes = 0;
    for fen in fens {
        let root = read(fen);
        nodes += walk(&root, depth());
    }
    // The suite's published D1 + D2 + D3 counts.
    if depth() == 3 {
        assert_eq!(nodes, 1_418 + 21_197 + 486_708);
    }
}

#[test]
fn every_node_of_chess960_trees_equals_its_rebuild() {
    // Chess960 castling (king or rook landing where the other stood) is
    // the part of `play` the standard suite does not reach; two plies keep
    // the debug run short.
    let mut nodes = 0;
    for fen in epd_fens(CHESS960_RANDOM) {
        nodes += walk(&read(fen), depth().min(2));
    }
    assert!(nodes > 150_000, "{nodes}");
}
