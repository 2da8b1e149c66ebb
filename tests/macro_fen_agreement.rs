//! `position!` reads what the FEN reader reads, through a committed corpus.
//!
//! The macro crate (base/macros) stands below `bitboards` and cannot use its
//! FEN reader, even in its tests. So this test draws seeded random positions,
//! reads each FEN with `Position::from_fen`, and pins the verdicts in
//! base/macros/tests/data/fen_agreement.txt; the macro crate's unit test
//! `the_macro_agrees_with_the_fen_reader` reads every line's FEN as a diagram
//! with `position!`'s own reader and asserts the same verdict. Together
//! they say what the one differential test said when both readers were in
//! one crate: the macro agrees with the FEN reader.
//!
//! After a change to the generator, the FEN reader or its messages, write the
//! corpus again with `BITBOARDS_BLESS=1 cargo test -p bitboards --test
//! macro_fen_agreement`, review `git diff`, and run the macro crate's tests.
//!
//! After a header of `#` lines, one line per position kept (see [`KEPT`]),
//! `FEN | verdict`, the verdict one of:
//!
//! - `ok | S`: the FEN reads, and the position's setup is `S`;
//! - `check | S`: the setup `S` breaks a rule on check, which `position!`
//!   leaves to `Position::from_setup` in const evaluation, where it fails
//!   with the FEN reader's error (this test asserts that `from_setup(S)`
//!   fails as `from_fen` does);
//! - `illegal | message`: the FEN breaks one of the placement rules, which
//!   the macro reports itself (`message` is among its errors);
//! - `duplicate | message`: a castling right given twice.
//!
//! `S` is a setup as [`encode`] writes it (and the macro crate's test, from
//! the setup the macro builds): the board in FEN's notation, the side to
//! move, the four castling rooks' files (White's king side, queen side,
//! Black's; upper case for White, `-` for none), the en passant square or
//! `-`, and the two clocks.

use std::fmt::Write as _;
use std::path::Path;

use bitboards::Validation;
use bitboards::{
    CastlingRights, Color, FenError, FenSyntaxError, Piece, Position, PositionError, Setup, Square,
};
use bitboards_core::CastlingLetter;
use bitboards_test_support::Rng as Random;

/// The corpus, in the macro crate that reads it.
const CORPUS: &str = "base/macros/tests/data/fen_agreement.txt";

/// How many positions are drawn.
const POSITIONS: usize = 10_000;

/// Most drawn positions break a placement rule (a castling right without
/// its rook, two kings): of those, and of castling rights given twice, the
/// corpus keeps the first `KEPT` of each rule, and every position that
/// reads or breaks a rule on check. About 2,200 lines.
const KEPT: usize = 60;

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// A random position as the generator drew it, before it is written as FEN.
struct Drawn {
    /// Piece letters by square index (a1 = 0).
    board: [Option<char>; 64],
    side: &'static str,
    /// The castling field as written (`KQkq`, file letters or `-`).
    castling: String,
    en_passant: Option<usize>,
    /// The clock fields with their leading space, or nothing.
    clocks: String,
}

/// A random position. Kings and rooks favour their home squares so that
/// castling rights are often valid, and en passant squares favour ranks 3
/// and 6; now and then a rule is broken, for the macro to report.
fn random_position(random: &mut Random) -> Drawn {
    let mut board = [None; 64];
    let mut place = |random: &mut Random, letter: char, squares: &[usize]| {
        let square = random.pick(squares);
        board[square] = Some(letter);
    };
    let everywhere: Vec<usize> = (0..64).collect();
    let between_back_ranks: Vec<usize> = (8..56).collect();
    for (rook, rank) in [('R', 0), ('r', 56)] {
        if random.below(2) == 0 {
            place(random, rook, &[rank]);
            place(random, rook, &[rank + 7]);
        } else {
            for _ in 0..random.below(3) {
                let squares: Vec<usize> = (rank..rank + 8).collect();
                place(random, rook, &squares);
            }
        }
    }
    for _ in 0..random.below(8) {
        let letter = random.pick(&['P', 'p', 'P', 'p', 'N', 'n', 'B', 'b', 'R', 'r', 'Q', 'q']);
        let squares = if letter.eq_ignore_ascii_case(&'p') && random.below(10) > 0 {
            &between_back_ranks
        } else {
            &everywhere
        };
        place(random, letter, squares);
    }
    // Now and then, more material than a game can give.
    if random.below(10) == 0 {
        for _ in 0..6 + random.below(10) {
            let letter = random.pick(&['Q', 'Q', 'B', 'n']);
            place(random, letter, &everywhere);
        }
    }
    // Kings last, so that nothing takes their squares; now and then
    // none or two.
    for (king, home) in [('K', 4), ('k', 60)] {
        let count = random.pick(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 2]);
        for _ in 0..count {
            let squares = if random.below(3) == 0 {
                everywhere.clone()
            } else {
                vec![home, home - 1, home + 1]
            };
            place(random, king, &squares);
        }
    }

    let side = random.pick(&["w", "b"]);
    let mut castling = String::new();
    if random.below(2) == 0 {
        // Standard letters, each at most once.
        castling.extend("KQkq".chars().filter(|_| random.below(2) == 0));
    } else {
        for _ in 0..random.below(3) {
            castling.push(random.pick(&['K', 'q', 'A', 'H', 'a', 'h', 'C', 'f', 'E']));
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let en_passant = match random.below(6) {
        0..=2 => None,
        3 | 4 => {
            let file = random.pick(&[0, 3, 4, 7]);
            let (rank, pawn, step) = match (side, random.below(8)) {
                // Now and then on the rank of the other side's turn.
                ("w", 1..) | ("b", 0) => (5, 'p', -8),
                _ => (2, 'P', 8),
            };
            let square = rank * 8 + file;
            // Mostly with the pawn that double-pushed, sometimes with
            // something in the way.
            if random.below(4) > 0 {
                board[(square as isize + step) as usize] = Some(pawn);
            }
            if random.below(6) == 0 {
                board[(square as isize - step * random.below(2) as isize) as usize] = Some('N');
            }
            Some(square)
        }
        _ => Some(random.below(64)),
    };
    let clocks = match random.below(4) {
        0 => String::new(),
        1 => " 3 0".to_string(),
        _ => format!(" {} {}", random.below(100), 1 + random.below(100)),
    };
    Drawn {
        board,
        side,
        castling,
        en_passant,
        clocks,
    }
}

impl Drawn {
    /// The position as FEN: four fields, or six with the clocks.
    fn fen(&self) -> String {
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board[rank * 8 + file] {
                    Some(letter) => {
                        if empty > 0 {
                            write!(fen, "{empty}").unwrap();
                            empty = 0;
                        }
                        fen.push(letter);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(fen, "{empty}").unwrap();
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let en_passant = self
            .en_passant
            .map_or("-".to_string(), |square| Square::ALL[square].to_string());
        let (side, castling, clocks) = (self.side, &self.castling, &self.clocks);
        write!(fen, " {side} {castling} {en_passant}{clocks}").unwrap();
        fen
    }

    /// The setup the FEN stands for, built from the drawn parts with the
    /// castling letters resolved as both readers resolve them
    /// (`CastlingLetter`). For a FEN broken only by a rule on check, where
    /// the reader hands out no setup; checked against the reader's setup
    /// wherever it hands one out.
    fn setup(&self) -> Setup {
        let board = self.board.map(|cell| cell.and_then(Piece::from_char));
        let mut castling = CastlingRights::NONE;
        for byte in self.castling.bytes().filter(|&byte| byte != b'-') {
            let letter = CastlingLetter::from_ascii(byte).expect("a castling letter");
            let (side, file) = letter.resolve(&board);
            castling = castling.with(letter.color, side, Some(file));
        }
        let mut clocks = self.clocks.split_whitespace().map(|n| n.parse().unwrap());
        Setup {
            board,
            side_to_move: if self.side == "w" {
                Color::White
            } else {
                Color::Black
            },
            castling,
            en_passant: self.en_passant.map(|square| Square::ALL[square]),
            halfmove_clock: clocks.next().unwrap_or(0),
            fullmove_number: clocks.next().unwrap_or(1),
        }
    }
}

// `encode`: the setup's one-line form, the same function the macro crate's
// unit test uses.
include!("../base/macros/tests/data/setup_line.rs");

/// Whether `Position::from_setup` reports `error` on the rules about
/// check, which the macro leaves to const evaluation.
fn is_about_check(error: &PositionError) -> bool {
    use PositionError::*;
    matches!(
        error,
        OpponentInCheck { .. }
            | TooManyCheckers { .. }
            | DoubleCheckWithoutSlider { .. }
            | AlignedCheckers { .. }
            | CheckNotFromDoublePush { .. }
    )
}

/// Of the positions drawn, every branch of the verdicts is taken at least
/// `BRANCH_MINIMUM` times, and every rule the macro checks is broken at
/// least `RULE_MINIMUM` times.
const BRANCH_MINIMUM: usize = 200;
const RULE_MINIMUM: usize = 50;

/// The corpus as it should be: a header, then one line per position kept.
fn corpus() -> String {
    let mut out = String::from(
        "# Random FENs and what `bitboards`' `Position::from_fen` makes of them,\n\
         # read by this crate's unit test `the_macro_agrees_with_the_fen_reader`.\n\
         # Written and checked by the `bitboards` package's test\n\
         # tests/macro_fen_agreement.rs, which explains the format. Do not edit;\n\
         # write it again with `BITBOARDS_BLESS=1 cargo test -p bitboards --test\n\
         # macro_fen_agreement`.\n",
    );
    let mut random = Random::new(SEED);
    // Positions read, positions left to const evaluation (checks), rules
    // broken, castling rights given twice.
    let mut outcomes = [0usize; 4];
    let mut rules_broken = std::collections::BTreeMap::new();
    for _ in 0..POSITIONS {
        let drawn = random_position(&mut random);
        let fen = drawn.fen();
        let setup = drawn.setup();
        let verdict = match Position::from_fen(&fen) {
            Ok(position) => {
                outcomes[0] += 1;
                // The setup built here is the reader's wherever it has one.
                assert_eq!(position.setup(), setup, "{fen}");
                Some(format!("ok | {}", encode(&position.setup())))
            }
            Err(FenError::Illegal { problem, .. }) if is_about_check(&problem) => {
                outcomes[1] += 1;
                assert_eq!(Position::from_setup(setup), Err(problem), "{fen}");
                if let Ok(position) =
                    Position::from_fen_with(&fen, Validation::ALL_RULES.allow_impossible_check())
                {
                    assert_eq!(position.setup(), setup, "{fen}");
                }
                Some(format!("check | {}", encode(&setup)))
            }
            Err(FenError::Illegal { problem, .. }) => {
                outcomes[2] += 1;
                let count = rules_broken.entry(problem.rule()).or_insert(0);
                *count += 1;
                (*count <= KEPT).then(|| format!("illegal | {problem}"))
            }
            Err(FenError::Syntax {
                problem: problem @ FenSyntaxError::CastlingDuplicate { .. },
                ..
            }) => {
                outcomes[3] += 1;
                (outcomes[3] <= KEPT).then(|| format!("duplicate | {problem}"))
            }
            Err(other) => panic!("{fen}: the generator wrote an unexpected FEN: {other}"),
        };
        if let Some(verdict) = verdict {
            writeln!(out, "{fen} | {verdict}").unwrap();
        }
    }
    // Every branch is taken, and every rule the macro checks is broken,
    // often enough to mean something.
    assert!(
        outcomes.iter().all(|&count| count >= BRANCH_MINIMUM),
        "{outcomes:?}"
    );
    assert_eq!(rules_broken.len(), 9, "{rules_broken:?}");
    assert!(
        rules_broken.values().all(|&count| count >= RULE_MINIMUM),
        "{rules_broken:?}"
    );
    out
}

#[test]
fn the_committed_corpus_is_the_fen_readers_verdicts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let expected = corpus();
    // (The published package leaves this test out: the corpus and the
    // encoding it shares live in the macro crate's folder.)
    let path = root.join(CORPUS);
    if std::env::var_os("BITBOARDS_BLESS").is_some_and(|value| value == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &expected).unwrap();
        eprintln!("wrote {CORPUS}");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != expected {
        let first = committed
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || "one is a prefix of the other".to_string(),
                |line| format!("first difference at line {}", line + 1),
            );
        panic!(
            "{CORPUS} is not what the FEN reader says now ({first}); write it with \
             `BITBOARDS_BLESS=1 cargo test -p bitboards --test macro_fen_agreement`, \
             review the diff and run `cargo test -p bitboards-macros`"
        );
    }
}
