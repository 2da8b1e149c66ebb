//! The human view of every table, as insta snapshots in tests/snapshots/:
//! a change to a table is reviewed as pictures (`cargo insta review`, or
//! `INSTA_UPDATE=always cargo test` and `git diff`). With `CI=true` a
//! mismatch fails instead of writing.

mod common;

use bitboards::{Bitboard, Color, File, Rank, Square, tables};
use common::{diagrams, digest, per_square};
use insta::assert_snapshot;

#[test]
fn files_and_ranks() {
    assert_snapshot!(
        "files",
        diagrams(File::ALL.map(|f| (format!("file {f}"), tables::FILES[f.index()])))
    );
    assert_snapshot!(
        "not_files",
        diagrams(File::ALL.map(|f| (format!("not file {f}"), tables::NOT_FILES[f.index()])))
    );
    assert_snapshot!(
        "ranks",
        diagrams(Rank::ALL.map(|r| (format!("rank {r}"), tables::RANKS[r.index()])))
    );
    assert_snapshot!(
        "not_ranks",
        diagrams(Rank::ALL.map(|r| (format!("not rank {r}"), tables::NOT_RANKS[r.index()])))
    );
}

#[test]
fn diagonals() {
    assert_snapshot!(
        "diagonals",
        diagrams(
            tables::DIAGONALS
                .iter()
                .enumerate()
                .map(|(i, &d)| (format!("diagonal {i}"), d))
        )
    );
    assert_snapshot!(
        "anti_diagonals",
        diagrams(
            tables::ANTI_DIAGONALS
                .iter()
                .enumerate()
                .map(|(i, &d)| (format!("anti-diagonal {i}"), d))
        )
    );
}

#[test]
fn named_regions() {
    let named = [
        ("LIGHT_SQUARES", tables::LIGHT_SQUARES),
        ("DARK_SQUARES", tables::DARK_SQUARES),
        ("CENTER", tables::CENTER),
        ("BIG_CENTER", tables::BIG_CENTER),
        ("EDGES", tables::EDGES),
        ("CORNERS", tables::CORNERS),
        ("BACK_RANKS", tables::BACK_RANKS),
        ("KINGSIDE", tables::KINGSIDE),
        ("QUEENSIDE", tables::QUEENSIDE),
    ];
    assert_snapshot!(
        "named_regions",
        diagrams(named.map(|(n, m)| (n.to_string(), m)))
    );
}

#[test]
fn single_squares() {
    assert_snapshot!("squares", per_square(&tables::SQUARES));
}

#[test]
fn leapers() {
    assert_snapshot!("knight_attacks", per_square(&tables::KNIGHT_ATTACKS));
    assert_snapshot!("king_attacks", per_square(&tables::KING_ATTACKS));
    for color in Color::ALL {
        assert_snapshot!(
            format!("pawn_attacks_{color}"),
            per_square(&tables::PAWN_ATTACKS[color.index()])
        );
        assert_snapshot!(
            format!("pawn_pushes_{color}"),
            per_square(&tables::PAWN_PUSHES[color.index()])
        );
    }
}

/// A few pairs for each ray table, then the whole table's size and digest.
fn ray_table(table: &[[u64; 64]; 64]) -> String {
    use Square::*;
    let pairs = [
        (A1, H8),
        (H8, A1),
        (B2, G7),
        (E1, E8),
        (A4, H4),
        (C1, H6),
        (H1, A8),
        (D4, F5),
        (E4, E5),
        (E4, E4),
        (B6, F2),
        (G3, B3),
    ];
    let mut out = diagrams(pairs.map(|(a, b)| (format!("{a} {b}"), table[a.index()][b.index()])));
    let nonempty = table.iter().flatten().filter(|&&e| e != 0).count();
    out.push_str(&format!(
        "entries: {}\nnon-empty: {nonempty}\ndigest (FNV-1a): {:#018x}\n",
        table.len() * 64,
        digest(table.iter().flatten().copied())
    ));
    out
}

#[test]
fn rays() {
    assert_snapshot!("between", ray_table(&tables::BETWEEN));
    assert_snapshot!("line", ray_table(&tables::LINE));
}

#[cfg(feature = "names")]
#[test]
fn names() {
    let mut names: Vec<(&str, u64)> = tables::NAMES.entries().map(|(k, v)| (*k, *v)).collect();
    names.sort();
    let listing: String = names
        .iter()
        .map(|(name, bits)| format!("{name:<14} {:?}\n", Bitboard(*bits)))
        .collect();
    assert_snapshot!("names", listing);
}
