//! Standard Algebraic Notation: every legal move's SAN against shakmaty
//! 0.30's (an independent implementation) on random games, standard and
//! Chess960, each read back by `parse_san`; then the forms real files use,
//! the errors, and garbage that must not panic.

mod common;

use bitboards::{Position, SanError, SanSyntax, Square};
use common::{Rng, random_game_positions, shakmaty_position};
use shakmaty::Position as _;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;

#[test]
fn every_move_agrees_with_shakmaty_and_reads_back() {
    let mut samples = random_game_positions(0x5A4E_0001, 240, 60);
    samples.extend(random_game_positions(0x5A4E_0002, 16, 300));
    assert!(samples.len() >= 10_000, "{}", samples.len());
    let (mut moves, mut disambiguated, mut mates, mut castles_960) = (0, 0, 0, 0);
    for sample in &samples {
        let position = &sample.position;
        let theirs = shakmaty_position(position, sample.chess960);
        let fen = position.fen().shredder().to_string();
        for theirs_move in theirs.legal_moves() {
            let uci = UciMove::from_chess960(theirs_move).to_string();
            let mv = position
                .parse_uci(&uci)
                .unwrap_or_else(|error| panic!("{fen} {uci}: {error}"));
            let expected = SanPlus::from_move(theirs.clone(), theirs_move).to_string();
            let san = position.san(mv).to_string();
            assert_eq!(san, expected, "{fen} {uci}");
            assert_eq!(position.parse_san(&san), Ok(mv), "{fen} {san}");
            moves += 1;
            let letters = san.trim_end_matches(['+', '#']);
            if letters.len() > 3 && letters.starts_with(['N', 'B', 'R', 'Q']) {
                let middle = &letters[1..letters.len() - 2].trim_end_matches('x');
                disambiguated += usize::from(!middle.is_empty());
            }
            mates += usize::from(san.ends_with('#'));
            castles_960 += usize::from(sample.chess960 && san.starts_with('O'));
        }
    }
    assert!(moves > 300_000, "{moves} moves");
    assert!(disambiguated > 1_000, "{disambiguated} disambiguated moves");
    assert!(mates > 10, "{mates} mates");
    assert!(castles_960 > 100, "{castles_960} Chess960 castling moves");
}

fn read(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

fn uci(position: &Position, text: &str) -> bitboards::Move {
    position.parse_uci(text).unwrap()
}

#[test]
fn pinned_pieces_do_not_make_moves_ambiguous() {
    // The knight on f3 is pinned by the bishop on h5 to the king on e2:
    // only the b1 knight can go to d2, so no file is written.
    let position = read("4k3/8/8/7b/8/5N2/4K3/1N6 w - - 0 1");
    assert_eq!(position.san(uci(&position, "b1d2")).to_string(), "Nd2");
    assert_eq!(position.parse_san("Nd2"), Ok(uci(&position, "b1d2")));
    // Unpinned, both can: the file tells them apart.
    let position = read("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_eq!(position.san(uci(&position, "b1d2")).to_string(), "Nbd2");
    assert_eq!(position.san(uci(&position, "f3d2")).to_string(), "Nfd2");
    // Three queens: a file, a rank, and both.
    let position = read("1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1");
    assert_eq!(position.san(uci(&position, "h4e1")).to_string(), "Qh4e1");
    assert_eq!(position.san(uci(&position, "e4e1")).to_string(), "Qee1");
    assert_eq!(position.san(uci(&position, "h1e1")).to_string(), "Q1e1");
    assert_eq!(position.parse_san("Qh4e1"), Ok(uci(&position, "h4e1")));
}

#[test]
fn castling_promotions_and_marks() {
    let position = read("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(position.san(uci(&position, "e1g1")).to_string(), "O-O");
    assert_eq!(position.san(uci(&position, "e1c1")).to_string(), "O-O-O");
    for text in ["O-O", "0-0", "O-O+", "O-O!?"] {
        assert_eq!(
            position.parse_san(text),
            Ok(uci(&position, "e1h1")),
            "{text}"
        );
    }
    for text in ["O-O-O", "0-0-0"] {
        assert_eq!(
            position.parse_san(text),
            Ok(uci(&position, "e1a1")),
            "{text}"
        );
    }
    // Chess960: king b1, rook a1; O-O-O leaves the king on c1.
    let chess960 = read("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
    let castle = chess960.parse_san("O-O-O").unwrap();
    assert!(castle.is_castling());
    assert_eq!(chess960.san(castle).to_string(), "O-O-O");
    assert_eq!(chess960.parse_san("Kc1"), Ok(uci(&chess960, "b1c1")));
    assert_eq!(
        chess960.parse_san("O-O"),
        Err(SanError::IllegalCastling {
            side: bitboards::CastlingSide::KingSide
        })
    );

    let promotion = read("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(promotion.san(uci(&promotion, "e7e8q")).to_string(), "e8=Q+");
    assert_eq!(
        promotion.san(uci(&promotion, "e7d8n")).to_string(),
        "exd8=N"
    );
    for (text, expected) in [
        ("e8=Q", "e7e8q"),
        ("e8Q", "e7e8q"),
        ("e8q", "e7e8q"),
        ("e8=N", "e7e8n"),
        ("e8b", "e7e8b"),
        ("exd8=R+", "e7d8r"),
        ("ed8R", "e7d8r"),
        ("e7d8=Q", "e7d8q"),
        ("e8=Q+!", "e7e8q"),
    ] {
        assert_eq!(
            promotion.parse_san(text),
            Ok(uci(&promotion, expected)),
            "{text}"
        );
    }
    assert_eq!(
        promotion.parse_san("e8"),
        Err(SanError::MissingPromotion { to: Square::E8 })
    );
    assert!(matches!(
        promotion.parse_san("e8=K"),
        Err(SanError::Malformed {
            column: 4,
            problem: SanSyntax::BadPromotion('K')
        })
    ));
}

#[test]
fn what_real_files_contain() {
    let start = Position::START;
    let g1f3 = uci(&start, "g1f3");
    for text in [
        "Nf3", "Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "Nf3+", "Nf3#", "Nf3!", "Nf3?", "Nf3!!", "Nf3??",
        "Nf3!?", "Nf3?!", "Nxf3",
    ] {
        assert_eq!(start.parse_san(text), Ok(g1f3), "{text}");
    }
    assert_eq!(start.parse_san("e4"), Ok(uci(&start, "e2e4")));
    assert_eq!(start.parse_san("e2e4"), Ok(uci(&start, "e2e4")));
    assert_eq!(start.parse_san("e2-e4"), Ok(uci(&start, "e2e4")));
    // En passant is written as a capture onto the empty square.
    let position = read("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    let en_passant = uci(&position, "e5d6");
    assert_eq!(position.san(en_passant).to_string(), "exd6");
    assert_eq!(position.parse_san("exd6"), Ok(en_passant));
    assert_eq!(position.parse_san("ed6"), Ok(en_passant));
    assert_eq!(position.parse_san("exd6!"), Ok(en_passant));
}

#[test]
fn errors_say_what_and_where() {
    let start = Position::START;
    let cases: [(&str, SanError, &str); 7] = [
        (
            "",
            SanError::Malformed {
                column: 1,
                problem: SanSyntax::Empty,
            },
            "SAN column 1: no move; expected a move such as `e4`, `Nf3`, `exd5`, `O-O` or `e8=Q`",
        ),
        (
            "Nz3",
            SanError::Malformed {
                column: 2,
                problem: SanSyntax::Unexpected('z'),
            },
            "SAN column 2: `z` has no place in a SAN move here",
        ),
        (
            "N",
            SanError::Malformed {
                column: 2,
                problem: SanSyntax::MissingTarget,
            },
            "SAN column 2: the move ends before its target square (such as `f3`)",
        ),
        (
            "Nf3 ",
            SanError::Malformed {
                column: 4,
                problem: SanSyntax::Unexpected(' '),
            },
            "SAN column 4: ` ` has no place in a SAN move here",
        ),
        (
            "Ñf3",
            SanError::Malformed {
                column: 1,
                problem: SanSyntax::Unexpected('Ñ'),
            },
            "SAN column 1: `Ñ` has no place in a SAN move here",
        ),
        (
            "Nf4",
            SanError::Illegal {
                piece: bitboards::PieceKind::Knight,
                to: Square::F4,
            },
            "no knight can move to f4 in this position",
        ),
        (
            "e5",
            SanError::Illegal {
                piece: bitboards::PieceKind::Pawn,
                to: Square::E5,
            },
            "no pawn can move to e5 in this position",
        ),
    ];
    for (text, error, message) in cases {
        assert_eq!(start.parse_san(text), Err(error), "{text:?}");
        assert_eq!(error.to_string(), message, "{text:?}");
    }
    let rooks = read("3k4/8/8/8/8/8/K7/R6R w - - 0 1");
    let error = rooks.parse_san("Rf1").unwrap_err();
    assert_eq!(
        error,
        SanError::Ambiguous {
            piece: bitboards::PieceKind::Rook,
            to: Square::F1,
            candidates: Square::A1.bitboard() | Square::H1.bitboard(),
        }
    );
    assert_eq!(
        error.to_string(),
        "ambiguous: the rooks on a1 and h1 can all move to f1; add the file or rank of the one meant"
    );
    assert_eq!(rooks.parse_san("Raf1"), Ok(uci(&rooks, "a1f1")));
}

#[test]
fn garbage_never_panics() {
    // Mutations of real SAN, and random strings over SAN's alphabet and a
    // few others: every answer is a move or an error, and a malformed
    // text's column lies within it.
    let positions: Vec<Position> = random_game_positions(0x6A7B_0001, 40, 40)
        .into_iter()
        .map(|sample| sample.position)
        .collect();
    let alphabet: Vec<char> = "abcdefghKQRBNPO0-x:=+#!?12345678 é\u{0}\u{200B}"
        .chars()
        .collect();
    let mut rng = Rng::new(0x6A7B_0002);
    let mut moves_found = 0;
    for round in 0..200_000 {
        let position = &positions[round % positions.len()];
        let text: String = if round % 2 == 0 {
            let legal = position.legal_moves();
            let mut chars: Vec<char> = match legal.first() {
                Some(_) => position
                    .san(legal[rng.below(legal.len())])
                    .to_string()
                    .chars()
                    .collect(),
                None => Vec::new(),
            };
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(chars.len() + 1);
                match rng.below(3) {
                    0 if at < chars.len() => {
                        chars.remove(at);
                    }
                    1 if at < chars.len() => chars[at] = alphabet[rng.below(alphabet.len())],
                    _ => chars.insert(at, alphabet[rng.below(alphabet.len())]),
                }
            }
            chars.into_iter().collect()
        } else {
            (0..rng.below(9))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        };
        match position.parse_san(&text) {
            Ok(mv) => {
                assert!(position.is_legal(mv), "{text:?}");
                moves_found += 1;
            }
            Err(SanError::Malformed { column, .. }) => {
                assert!(
                    (1..=text.chars().count() + 1).contains(&column),
                    "{text:?}: column {column}"
                );
            }
            Err(_) => {}
        }
    }
    assert!(moves_found > 3_000, "{moves_found}");
}

/// Every text of a piece letter (or none, for a pawn) and a target square,
/// and every pawn capture `exd5` style, resolves as the legal moves say:
/// the one move when exactly one fits, `Ambiguous` naming the pieces when
/// several do, an error when none does. Random-game positions, in and out
/// of check, with pins; the resolver decides many of these without
/// generating moves, and this holds it to the move generator.
#[test]
fn short_texts_resolve_as_the_legal_moves_say() {
    use bitboards::{MoveKind, PieceKind};

    let samples = random_game_positions(0x5A4E_0003, 60, 80);
    assert!(samples.len() >= 3_000, "{}", samples.len());
    let (mut resolved, mut ambiguous, mut refused, mut in_check) = (0, 0, 0, 0);
    for sample in &samples {
        let position = &sample.position;
        in_check += usize::from(position.is_check());
        let legal = position.legal_moves();
        for (letter, kind) in [
            ("", PieceKind::Pawn),
            ("N", PieceKind::Knight),
            ("B", PieceKind::Bishop),
            ("R", PieceKind::Rook),
            ("Q", PieceKind::Queen),
            ("K", PieceKind::King),
        ] {
            for to in Square::ALL {
                let mut texts = vec![(format!("{letter}{to}"), None)];
                if kind == PieceKind::Pawn {
                    for file in [to.file().index().wrapping_sub(1), to.file().index() + 1] {
                        if let Some(from_file) = bitboards::File::ALL.get(file) {
                            texts.push((format!("{from_file}x{to}"), Some(*from_file)));
                        }
                    }
                }
                for (text, capture_from) in texts {
                    let fits: Vec<_> = legal
                        .iter()
                        .filter(|mv| {
                            mv.to() == to
                                && mv.kind() != MoveKind::Castling
                                && !matches!(mv.kind(), MoveKind::Promotion(_))
                                && position.piece_on(mv.from()).map(|piece| piece.kind())
                                    == Some(kind)
                                && match (kind, capture_from) {
                                    (PieceKind::Pawn, None) => mv.from().file() == to.file(),
                                    (PieceKind::Pawn, Some(file)) => mv.from().file() == file,
                                    _ => true,
                                }
                        })
                        .copied()
                        .collect();
                    let fen = position.fen();
                    match (fits.as_slice(), position.parse_san(&text)) {
                        ([only], Ok(mv)) => {
                            assert_eq!(mv, *only, "{fen} {text}");
                            resolved += 1;
                        }
                        ([], Err(SanError::Illegal { .. } | SanError::MissingPromotion { .. })) => {
                            refused += 1;
                        }
                        ([_, _, ..], Err(SanError::Ambiguous { candidates, .. })) => {
                            let froms: bitboards::Bitboard =
                                fits.iter().map(|mv| mv.from()).collect();
                            assert_eq!(candidates, froms, "{fen} {text}");
                            ambiguous += 1;
                        }
                        (fits, result) => panic!("{fen} {text}: {fits:?} but {result:?}"),
                    }
                }
            }
        }
    }
    assert!(resolved > 50_000, "{resolved} resolved");
    assert!(ambiguous > 500, "{ambiguous} ambiguous");
    assert!(refused > 500_000, "{refused} refused");
    assert!(in_check > 100, "{in_check} positions in check");
}

#[test]
fn san_parses_on_its_own_and_resolves_later() {
    // Every legal move of positions along seeded random games, standard and
    // Chess960: its SAN text parses to the same `San`, which resolves to the
    // move.
    let mut rng = common::Rng::new(0x5A4);
    let mut checked = 0;
    for fen in common::epd_fens(common::PERFT_SUITE)
        .chain(common::epd_fens(common::CHESS960_STARTS).take(50))
    {
        let mut position = common::read(fen);
        for _ in 0..30 {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            for mv in moves.clone() {
                let san = position.san(mv);
                let parsed: bitboards::San = san
                    .to_string()
                    .parse()
                    .unwrap_or_else(|e| panic!("{san}: {e}"));
                assert_eq!(parsed, san, "{}", position.fen());
                assert_eq!(
                    parsed.to_move(&position),
                    Ok(mv),
                    "{san} in {}",
                    position.fen()
                );
                checked += 1;
            }
            position = position.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 50_000, "{checked}");
}
