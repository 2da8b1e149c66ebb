//! Every generated table, every entry, against a second method: the core
//! crate's one-step shifts (the generator walks coordinates instead), and
//! hand-drawn diagrams for the named regions and a few spot checks.

mod common;

use bitboards::{
    Bitboard, Color, File, Rank, Square, attacks, between, bitboard, line, masks, tables,
};
use common::{STEPS, walk};

#[test]
fn knight_attacks_are_two_steps_then_one_sideways() {
    for square in Square::ALL {
        let b = square.bitboard();
        let (n, s, e, w) = (b.north(), b.south(), b.east(), b.west());
        let expected = n.north().east()
            | n.north().west()
            | s.south().east()
            | s.south().west()
            | e.east().north()
            | e.east().south()
            | w.west().north()
            | w.west().south();
        assert_eq!(attacks::knight(square), expected, "knight on {square}");
    }
}

#[test]
fn king_attacks_are_one_step_in_every_direction() {
    for square in Square::ALL {
        let expected = STEPS
            .iter()
            .fold(Bitboard::EMPTY, |acc, step| acc | step(square.bitboard()));
        assert_eq!(attacks::king(square), expected, "king on {square}");
    }
}

#[test]
fn pawn_attacks_and_pushes_go_forward() {
    for square in Square::ALL {
        let b = square.bitboard();
        assert_eq!(
            attacks::pawn(Color::White, square),
            b.north_east() | b.north_west(),
            "white pawn on {square}"
        );
        assert_eq!(
            attacks::pawn(Color::Black, square),
            b.south_east() | b.south_west(),
            "black pawn on {square}"
        );
        assert_eq!(
            attacks::pawn_push(Color::White, square),
            b.north(),
            "white push from {square}"
        );
        assert_eq!(
            attacks::pawn_push(Color::Black, square),
            b.south(),
            "black push from {square}"
        );
    }
}

#[test]
fn knight_on_g5() {
    assert_eq!(
        attacks::knight(Square::G5),
        bitboard! {
            8 . . . . . . . .
            7 . . . . . X . X
            6 . . . . X . . .
            5 . . . . . . . .
            4 . . . . X . . .
            3 . . . . . X . X
            2 . . . . . . . .
            1 . . . . . . . .
              a b c d e f g h
        }
    );
}

#[test]
fn white_pawns_on_their_first_rank_attack_all_of_rank_3() {
    let attacked = masks::RANK_2.iter().fold(Bitboard::EMPTY, |acc, square| {
        acc | attacks::pawn(Color::White, square)
    });
    assert_eq!(attacked, masks::RANK_3);
}

#[test]
fn rank_3_masks_a_set_of_pawns() {
    let pawns = bitboard! {
        8 . . . . . . . .
        7 X X . . . X X X
        6 . . X . . . . .
        5 . . . X . . . .
        4 . . . . X . . .
        3 . . . . . X . .
        2 X X X . . . X X
        1 . . . . . . . .
    };
    assert_eq!(pawns & masks::RANK_3, Square::F3.bitboard());
    assert_eq!(
        pawns & masks::rank(Rank::Seventh),
        bitboard! {
            8 . . . . . . . .
            7 X X . . . X X X
            6 . . . . . . . .
            5 . . . . . . . .
            4 . . . . . . . .
            3 . . . . . . . .
            2 . . . . . . . .
            1 . . . . . . . .
        }
    );
}

#[test]
fn files_and_ranks_match_the_core_constants_and_their_squares() {
    for file in File::ALL {
        let by_squares: Bitboard = Square::ALL
            .into_iter()
            .filter(|s| s.file() == file)
            .collect();
        assert_eq!(masks::file(file), by_squares, "file {file}");
        assert_eq!(masks::file(file), file.bitboard(), "file {file}");
        assert_eq!(
            tables::NOT_FILES[file.index()],
            !by_squares.0,
            "not file {file}"
        );
    }
    for rank in Rank::ALL {
        let by_squares: Bitboard = Square::ALL
            .into_iter()
            .filter(|s| s.rank() == rank)
            .collect();
        assert_eq!(masks::rank(rank), by_squares, "rank {rank}");
        assert_eq!(masks::rank(rank), rank.bitboard(), "rank {rank}");
        assert_eq!(
            tables::NOT_RANKS[rank.index()],
            !by_squares.0,
            "not rank {rank}"
        );
    }
    let named = [
        masks::FILE_A,
        masks::FILE_B,
        masks::FILE_C,
        masks::FILE_D,
        masks::FILE_E,
        masks::FILE_F,
        masks::FILE_G,
        masks::FILE_H,
    ];
    assert!(named.iter().zip(File::ALL).all(|(&m, f)| m == f.bitboard()));
    let named = [
        masks::RANK_1,
        masks::RANK_2,
        masks::RANK_3,
        masks::RANK_4,
        masks::RANK_5,
        masks::RANK_6,
        masks::RANK_7,
        masks::RANK_8,
    ];
    assert!(named.iter().zip(Rank::ALL).all(|(&m, r)| m == r.bitboard()));
}

#[test]
fn diagonals_are_the_squares_reached_by_diagonal_steps() {
    for square in Square::ALL {
        let walked = |a, b| -> Bitboard {
            walk(square, a)
                .into_iter()
                .chain(walk(square, b))
                .chain([square])
                .collect()
        };
        assert_eq!(
            masks::diagonal(square),
            walked(Bitboard::north_east, Bitboard::south_west),
            "diagonal of {square}"
        );
        assert_eq!(
            masks::anti_diagonal(square),
            walked(Bitboard::north_west, Bitboard::south_east),
            "anti-diagonal of {square}"
        );
    }
    // Every square is on exactly one diagonal and one anti-diagonal.
    assert_eq!(tables::DIAGONALS.iter().fold(0, |a, d| a ^ d), !0);
    assert_eq!(tables::ANTI_DIAGONALS.iter().fold(0, |a, d| a ^ d), !0);
    assert_eq!(
        tables::DIAGONALS
            .iter()
            .map(|d| d.count_ones())
            .sum::<u32>(),
        64
    );
}

#[test]
fn single_square_table_has_one_bit_per_entry() {
    for square in Square::ALL {
        assert_eq!(
            tables::SQUARES[square.index()],
            1u64 << square as u8,
            "{square}"
        );
        assert_eq!(
            Bitboard(tables::SQUARES[square.index()]).first(),
            Some(square)
        );
        assert_eq!(Bitboard(tables::SQUARES[square.index()]).count(), 1);
    }
}

#[test]
fn between_and_line_match_walks_along_each_direction() {
    let mut expected_between = [[Bitboard::EMPTY; 64]; 64];
    let mut expected_line = [[Bitboard::EMPTY; 64]; 64];
    for from in Square::ALL {
        for (i, &step) in STEPS.iter().enumerate() {
            let opposite = STEPS[(i + 4) % 8];
            let whole: Bitboard = walk(from, step)
                .into_iter()
                .chain(walk(from, opposite))
                .chain([from])
                .collect();
            let mut passed = Bitboard::EMPTY;
            for to in walk(from, step) {
                expected_between[from.index()][to.index()] = passed;
                expected_line[from.index()][to.index()] = whole;
                passed.set(to);
            }
        }
    }
    for a in Square::ALL {
        for b in Square::ALL {
            assert_eq!(
                between(a, b),
                expected_between[a.index()][b.index()],
                "between {a} and {b}"
            );
            assert_eq!(
                line(a, b),
                expected_line[a.index()][b.index()],
                "line through {a} and {b}"
            );
            assert_eq!(
                between(a, b),
                between(b, a),
                "between is symmetric: {a} {b}"
            );
        }
    }
}

#[test]
fn rook_and_bishop_rays_are_the_walks_to_the_edge() {
    for square in Square::ALL {
        let rays = |steps: [usize; 4]| -> Bitboard {
            steps
                .iter()
                .flat_map(|&step| walk(square, STEPS[step]))
                .collect()
        };
        // STEPS: north, north-east, east, south-east, south, ...
        let rook = rays([0, 2, 4, 6]);
        let bishop = rays([1, 3, 5, 7]);
        assert_eq!(
            Bitboard(tables::ROOK_RAYS[square.index()]),
            rook,
            "{square}"
        );
        assert_eq!(
            Bitboard(tables::BISHOP_RAYS[square.index()]),
            bishop,
            "{square}"
        );
        assert_eq!(attacks::rook_rays(square), rook);
        assert_eq!(attacks::bishop_rays(square), bishop);
    }
}

#[test]
fn the_compact_layouts_diagonal_rays_split_the_bishop_rays() {
    for square in Square::ALL {
        let rays = |steps: [usize; 2]| -> Bitboard {
            steps
                .iter()
                .flat_map(|&step| walk(square, STEPS[step]))
                .collect()
        };
        // STEPS: north-east is 1, south-west 5; south-east 3, north-west 7.
        let diagonal = Bitboard(tables::DIAGONAL_RAYS[square.index()]);
        let anti_diagonal = Bitboard(tables::ANTI_DIAGONAL_RAYS[square.index()]);
        assert_eq!(diagonal, rays([1, 5]), "{square}");
        assert_eq!(anti_diagonal, rays([3, 7]), "{square}");
        assert_eq!(diagonal | anti_diagonal, attacks::bishop_rays(square));
    }
}

/// The compact layout's line tables against core's one-step shifts: entry
/// `[file][index]` of `LINE_ATTACKS` is the first rank's attacks with the
/// index's squares (files b to g) occupied, on every rank; `FILE_ATTACKS`
/// the same on file a, ranks 2 to 7. (The multipliers that make the
/// indices are checked through every lookup in tests/sliders.rs.)
#[test]
fn the_compact_line_tables_match_walks_along_rank_1_and_file_a() {
    let walk_until_blocked = |from: Square, step: fn(Bitboard) -> Bitboard, occupied: Bitboard| {
        let mut attacked = Bitboard::EMPTY;
        let mut current = step(from.bitboard());
        while !current.is_empty() {
            attacked |= current;
            if !(current & occupied).is_empty() {
                break;
            }
            current = step(current);
        }
        attacked
    };
    for line in 0..8 {
        for index in 0..64u64 {
            let inner = |k: usize| index >> k & 1 != 0;
            let on_rank_1: Bitboard = (0..6)
                .filter(|&k| inner(k))
                .map(|k| Square::ALL[k + 1])
                .collect();
            let rook = Square::ALL[line];
            let first_rank = walk_until_blocked(rook, Bitboard::east, on_rank_1)
                | walk_until_blocked(rook, Bitboard::west, on_rank_1);
            let every_rank = (0..8).fold(Bitboard::EMPTY, |acc, rank| {
                acc | Bitboard(first_rank.0 << (8 * rank))
            });
            assert_eq!(
                Bitboard(tables::LINE_ATTACKS[line][index as usize]),
                every_rank,
                "file {line}, index {index:#b}"
            );

            let on_file_a: Bitboard = (0..6)
                .filter(|&k| inner(k))
                .map(|k| Square::ALL[8 * (k + 1)])
                .collect();
            let rook = Square::ALL[8 * line];
            let file_a = walk_until_blocked(rook, Bitboard::north, on_file_a)
                | walk_until_blocked(rook, Bitboard::south, on_file_a);
            assert_eq!(
                Bitboard(tables::FILE_ATTACKS[line][index as usize]),
                file_a,
                "rank {line}, index {index:#b}"
            );
        }
    }
}

#[test]
fn between_and_line_by_hand() {
    assert_eq!(
        between(Square::E1, Square::E8),
        bitboard! {
            . . . . . . . .
            . . . . X . . .
            . . . . X . . .
            . . . . X . . .
            . . . . X . . .
            . . . . X . . .
            . . . . X . . .
            . . . . . . . .
        }
    );
    assert!(between(Square::E4, Square::E5).is_empty());
    assert!(between(Square::A1, Square::B3).is_empty());
    assert_eq!(
        line(Square::B7, Square::A8),
        bitboard! {
            X . . . . . . .
            . X . . . . . .
            . . X . . . . .
            . . . X . . . .
            . . . . X . . .
            . . . . . X . .
            . . . . . . X .
            . . . . . . . X
        }
    );
    assert!(line(Square::D4, Square::D4).is_empty());
}

#[test]
fn named_regions_match_their_pictures() {
    assert_eq!(
        masks::LIGHT_SQUARES,
        bitboard! {
            X . X . X . X .
            . X . X . X . X
            X . X . X . X .
            . X . X . X . X
            X . X . X . X .
            . X . X . X . X
            X . X . X . X .
            . X . X . X . X
        }
    );
    assert_eq!(masks::DARK_SQUARES, !masks::LIGHT_SQUARES);
    assert_eq!(
        masks::CENTER,
        bitboard! {
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . X X . . .
            . . . X X . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
        }
    );
    assert_eq!(
        masks::BIG_CENTER,
        bitboard! {
            . . . . . . . .
            . . . . . . . .
            . . X X X X . .
            . . X X X X . .
            . . X X X X . .
            . . X X X X . .
            . . . . . . . .
            . . . . . . . .
        }
    );
    let rims = masks::FILE_A | masks::FILE_H;
    let backs = masks::RANK_1 | masks::RANK_8;
    assert_eq!(masks::EDGES, rims | backs);
    assert_eq!(masks::CORNERS, rims & backs);
    assert_eq!(masks::BACK_RANKS, backs);
    assert_eq!(
        masks::KINGSIDE,
        masks::FILE_E | masks::FILE_F | masks::FILE_G | masks::FILE_H
    );
    assert_eq!(masks::QUEENSIDE, !masks::KINGSIDE);
}

/// The named regions, from the generator's registry: `(name, mask)`.
fn registry_regions() -> Vec<(&'static str, Bitboard)> {
    let report = bitboards_codegen::run(&bitboards_codegen::Options::new(
        bitboards_codegen::Destination::Memory,
    ))
    .expect("the generator runs");
    report
        .tables()
        .filter(|table| table.naming == bitboards_codegen::Naming::Region)
        .map(|table| (table.name, Bitboard(table.values[0])))
        .collect()
}

#[cfg(feature = "names")]
#[test]
fn every_name_resolves_to_its_mask() {
    use bitboards::FromName;

    let mut expected: Vec<(String, Bitboard)> = Vec::new();
    expected.extend(Square::ALL.map(|s| (s.to_string(), s.bitboard())));
    expected.extend(File::ALL.map(|f| (format!("file_{f}"), f.bitboard())));
    expected.extend(Rank::ALL.map(|r| (format!("rank_{r}"), r.bitboard())));
    let regions = registry_regions();
    assert!(regions.len() >= 9, "only {} regions", regions.len());
    expected.extend(
        regions
            .iter()
            .map(|&(name, mask)| (name.to_lowercase(), mask)),
    );
    expected.push(("empty".to_string(), Bitboard::EMPTY));
    expected.push(("full".to_string(), Bitboard::FULL));
    for (name, mask) in &expected {
        assert_eq!(Bitboard::from_name(name), Ok(*mask), "{name}");
    }
    assert_eq!(
        tables::NAMES.len(),
        expected.len(),
        "no name beyond the expected ones"
    );
    for bad in ["", "E4", "i9", "file_i", "rank_0", "center "] {
        assert!(Bitboard::from_name(bad).is_err(), "{bad:?} is not a name");
    }
}

/// `NameMap::get` is a binary search: it finds every name only if the
/// generator wrote them in strictly increasing byte order.
#[cfg(feature = "names")]
#[test]
fn the_names_are_sorted_once_each_for_the_binary_search() {
    let names: Vec<&str> = tables::NAMES.keys().collect();
    for pair in names.windows(2) {
        assert!(
            pair[0] < pair[1],
            "{:?} comes before {:?}",
            pair[0],
            pair[1]
        );
    }
    for &(name, word) in tables::NAMES.entries() {
        assert_eq!(tables::NAMES.get(name), Some(&word), "{name}");
        assert!(tables::NAMES.contains_key(name));
        assert!(!tables::NAMES.contains_key(&format!("{name} ")));
    }
    assert!(!tables::NAMES.is_empty());
}

#[cfg(feature = "names")]
#[test]
fn the_unknown_name_error_lists_every_region() {
    use bitboards::FromName;

    let message = Bitboard::from_name("middle").unwrap_err().to_string();
    assert!(message.starts_with("unknown bitboard name; known names are squares (`e4`), `file_a`..`file_h`, `rank_1`..`rank_8`, `light_squares`, "), "{message}");
    assert!(
        message.ends_with("`queenside`, `empty` and `full`"),
        "{message}"
    );
    for (name, _) in registry_regions() {
        assert!(
            message.contains(&format!("`{}`", name.to_lowercase())),
            "{name} missing: {message}"
        );
    }
}

#[test]
fn the_masks_module_has_every_region_as_a_bitboard() {
    // The generator writes one `masks` constant per region; spot-check that
    // they wrap the raw tables, and that the registry knows each one.
    let regions = registry_regions();
    for (name, mask) in [
        ("LIGHT_SQUARES", masks::LIGHT_SQUARES),
        ("CENTER", masks::CENTER),
        ("QUEENSIDE", masks::QUEENSIDE),
    ] {
        assert!(regions.contains(&(name, mask)), "{name}");
    }
    assert_eq!(masks::EDGES, Bitboard(tables::EDGES));
}

/// The Polyglot keys in tests/data/polyglot-random64.txt (a copy of the
/// shared file), read here without the generator's parser.
fn polyglot_keys_from_the_shared_file() -> Vec<u64> {
    let text = include_str!("data/polyglot-random64.txt");
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let digits = line.trim_start_matches("0x");
            u64::from_str_radix(digits, 16).unwrap_or_else(|e| panic!("{line:?}: {e}"))
        })
        .collect()
}

#[test]
fn polyglot_keys_are_the_shared_files() {
    let keys = polyglot_keys_from_the_shared_file();
    assert_eq!(keys.len(), 781);
    assert!(
        tables::POLYGLOT_RANDOM64 == keys[..],
        "the table differs from the file"
    );
}

/// A position's Polyglot key from the layout in the table's doc comment:
/// `placement` as in FEN, `white` to move, `castling` as in FEN, and the
/// en passant target square's file when a pawn of the side to move stands
/// beside the pawn that just moved two squares.
fn polyglot_key(placement: &str, white: bool, castling: &str, en_passant: Option<File>) -> u64 {
    let keys = &tables::POLYGLOT_RANDOM64;
    let mut key = 0;
    for (row, text) in placement.split('/').enumerate() {
        let rank = 7 - row;
        let mut file = 0;
        for c in text.chars() {
            if let Some(empty) = c.to_digit(10) {
                file += empty as usize;
                continue;
            }
            let kind = "pnbrqk"
                .find(c.to_ascii_lowercase())
                .expect("a piece letter");
            let colour = usize::from(c.is_ascii_uppercase());
            key ^= keys[64 * (2 * kind + colour) + 8 * rank + file];
            file += 1;
        }
    }
    for (i, right) in "KQkq".chars().enumerate() {
        if castling.contains(right) {
            key ^= keys[768 + i];
        }
    }
    if let Some(file) = en_passant {
        key ^= keys[772 + file.index()];
    }
    if white {
        key ^= keys[780];
    }
    key
}

#[test]
fn polyglot_keys_follow_the_documented_layout() {
    // Keys from the Polyglot book format's published test positions.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    assert_eq!(
        polyglot_key(start, true, "KQkq", None),
        0x463B_9618_1691_FC9C
    );
    // 1. e4: e3 is the en passant square, but no black pawn stands beside e4.
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR";
    assert_eq!(
        polyglot_key(after_e4, false, "KQkq", None),
        0x823C_9B50_FD11_4196
    );
    // 1. e4 d5: d6 is the en passant square, but no white pawn is on c5 or e5.
    let after_d5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR";
    assert_eq!(
        polyglot_key(after_d5, true, "KQkq", None),
        0x0756_B944_61C5_0FB0
    );
    // 1. e4 d5 2. e5 f5: the e5 pawn stands beside f5, so the f file is hashed.
    let after_f5 = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR";
    assert_eq!(
        polyglot_key(after_f5, true, "KQkq", Some(File::F)),
        0x22A4_8B5A_8E47_FF78
    );
    // Without the en passant key the f6 position hashes differently.
    assert_ne!(
        polyglot_key(after_f5, true, "KQkq", None),
        0x22A4_8B5A_8E47_FF78
    );
    // 1. e4 d5 2. e5 f5 3. Ke2: no castling rights for White.
    let after_ke2 = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR";
    assert_eq!(
        polyglot_key(after_ke2, false, "kq", None),
        0x652A_607C_A3F2_42C1
    );
}
