//! `AnySetup` and the moves of loose positions against python-chess, on
//! the setups of `tests/data/any-setup-reference.txt`: the hand-picked
//! setups of the Python package's tests (no king, two kings, pawns on a
//! back rank, rights without their rook, en passant squares no pawn made,
//! impossible checks), then 1,000 seeded random ones, each as standard
//! chess and as Chess960, with python-chess's answers written by
//! `tests/python/any_setup_reference.py`.

use bitboards::any_setup::{self, AnySetup};
use bitboards::{Bitboard, CastlingNotation, Color, Move, MoveList, Position, Square};

const REFERENCE: &str = include_str!("data/any-setup-reference.txt");

/// One line of the reference: python-chess's answers for one setup.
struct Expected<'a> {
    fen: &'a str,
    chess960: bool,
    status: u32,
    clean_castling: u64,
    castling: u64,
    en_passant: Option<u8>,
    kings: [Option<u8>; 2],
    check: bool,
    checkmate: bool,
    stalemate: bool,
    pins: &'a str,
    moves: &'a str,
    after: &'a str,
}

fn square_or_none(field: &str) -> Option<u8> {
    (field != "-").then(|| field.parse().expect("a square index"))
}

fn reference() -> Vec<Expected<'static>> {
    REFERENCE
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 15, "{line}");
            let flag = |i: usize| f[i] == "1";
            Expected {
                fen: f[0],
                chess960: flag(1),
                status: f[3].parse().unwrap(),
                clean_castling: f[4].parse().unwrap(),
                castling: f[5].parse().unwrap(),
                en_passant: square_or_none(f[6]),
                kings: [square_or_none(f[7]), square_or_none(f[8])],
                check: flag(9),
                checkmate: flag(10),
                stalemate: flag(11),
                pins: f[12],
                moves: f[13],
                after: f[14],
            }
        })
        .collect()
}

/// The legal moves of a setup's position, loose or not, as `uci:san`
/// sorted by UCI (castling left out where python-chess calls the setup
/// invalid, as the reference leaves it out).
fn moves(position: &Position, loose: bool, chess960: bool, valid: bool) -> (MoveList, String) {
    let legal = if loose {
        any_setup::loose_legal_moves(position)
    } else {
        position.legal_moves()
    };
    let notation = if chess960 {
        CastlingNotation::KingTakesRook
    } else {
        CastlingNotation::KingToTarget
    };
    let mut written: Vec<(String, String)> = legal
        .iter()
        .filter(|mv| valid || !mv.is_castling())
        .map(|&mv| {
            let san = if loose {
                any_setup::san(position, &legal, mv)
            } else {
                position.san(mv).to_string()
            };
            (mv.uci(notation).to_string(), san)
        })
        .collect();
    written.sort();
    let text: Vec<String> = written
        .iter()
        .map(|(uci, san)| format!("{uci}:{san}"))
        .collect();
    let text = if text.is_empty() {
        "-".to_owned()
    } else {
        text.join(",")
    };
    (legal, text)
}

fn pins(position: &Position) -> String {
    let mut pins = Vec::new();
    for color in [Color::White, Color::Black] {
        let Some(king) = any_setup::king_of(position, color) else {
            continue;
        };
        for square in Square::ALL {
            let mask = any_setup::pin(position, color, king, square);
            if mask != Bitboard::FULL {
                let bit = usize::from(color == Color::White);
                pins.push(format!("{}:{bit}:{}", square.index(), mask.0));
            }
        }
    }
    // python-chess lists White's first.
    pins.sort_by_key(|pin| pin.split(':').nth(1) != Some("1"));
    if pins.is_empty() {
        "-".to_owned()
    } else {
        pins.join(",")
    }
}

/// A FEN's placement, side, and clocks (the fields a move changes that
/// this test's subject writes alike for every variant).
fn fen_core(fen: &str) -> Vec<&str> {
    let fields: Vec<&str> = fen.split(' ').collect();
    vec![fields[0], fields[1], fields[4], fields[5]]
}

#[test]
fn every_setup_is_read_judged_and_played_as_python_chess_does() {
    let reference = reference();
    assert!(reference.len() > 2000, "{} setups", reference.len());
    let mut failures = Vec::new();
    let mut loose_count = 0;
    for expected in &reference {
        let setup =
            AnySetup::from_fen(expected.fen).unwrap_or_else(|e| panic!("{}: {e}", expected.fen));
        let mut wrong = Vec::new();
        let status = setup.status(expected.chess960).bits();
        if status != expected.status {
            wrong.push(format!(
                "status {status} (python-chess {})",
                expected.status
            ));
        }
        if setup.clean_castling(expected.chess960).0 != expected.clean_castling {
            wrong.push(format!(
                "clean castling {:?}",
                setup.clean_castling(expected.chess960)
            ));
        }
        if setup.castling.0 != expected.castling {
            wrong.push(format!("castling {:?}", setup.castling));
        }
        if setup.en_passant.map(|s| s.index() as u8) != expected.en_passant {
            wrong.push(format!("en passant {:?}", setup.en_passant));
        }
        let kings = [Color::White, Color::Black].map(|c| setup.king(c).map(|s| s.index() as u8));
        if kings != expected.kings {
            wrong.push(format!("kings {kings:?}"));
        }
        let (position, loose) = setup.to_position(expected.chess960);
        loose_count += usize::from(loose);
        if any_setup::is_loose(&position) != loose {
            wrong.push(format!("is_loose {}", !loose));
        }
        let check = !any_setup::checkers(&position).is_empty();
        if check != expected.check {
            wrong.push(format!("check {check}"));
        }
        let pins = pins(&position);
        if pins != expected.pins {
            wrong.push(format!("pins {pins}"));
        }
        let (legal, written) = moves(&position, loose, expected.chess960, expected.status == 0);
        if written != expected.moves {
            wrong.push(format!(
                "moves {written}\n      python-chess {}",
                expected.moves
            ));
        }
        if (check && legal.is_empty()) != expected.checkmate
            || (!check && legal.is_empty()) != expected.stalemate
        {
            wrong.push("checkmate or stalemate".to_owned());
        }
        let notation = if expected.chess960 {
            CastlingNotation::KingTakesRook
        } else {
            CastlingNotation::KingToTarget
        };
        let first: Option<Move> = legal
            .iter()
            .copied()
            .filter(|mv| expected.status == 0 || !mv.is_castling())
            .min_by_key(|mv| mv.uci(notation).to_string());
        if let Some(mv) = first {
            let after = any_setup::after(&position, mv).fen().to_string();
            if fen_core(&after) != fen_core(expected.after) {
                wrong.push(format!(
                    "after {mv:?}: {after} (python-chess {})",
                    expected.after
                ));
            }
        }
        if !wrong.is_empty() {
            failures.push(format!(
                "{} (chess960 {}):\n    {}",
                expected.fen,
                expected.chess960,
                wrong.join("\n    ")
            ));
        }
    }
    assert!(loose_count > 500, "only {loose_count} loose setups");
    assert!(
        failures.is_empty(),
        "{} of {} setups differ:\n{}",
        failures.len(),
        reference.len(),
        failures
            .iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
