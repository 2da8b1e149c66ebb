//! Reading moves in UCI notation with `Position::parse_uci`: both ways of
//! writing castling, the Chess960 cases where the king's move is ambiguous
//! or no move at all, promotions, every error with its text, and a round
//! trip over every legal move of many positions.

mod common;

use bitboards::{
    CastlingNotation, Move, MoveKind, ParseSquareError, ParseUciError, PieceKind, Position, Square,
    WhichSquare,
};
use common::{CHESS960_RANDOM, PERFT_SUITE, epd_fens, random_game_positions, read};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}"))
}

fn parse(position: &Position, text: &str) -> Move {
    position
        .parse_uci(text)
        .unwrap_or_else(|error| panic!("{position:?}: {text}: {error}"))
}

fn castling(king: Square, rook: Square) -> Move {
    Move::new(king, rook, MoveKind::Castling)
}

#[test]
fn standard_castling_reads_as_the_kings_move_or_king_takes_rook() {
    let white = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for text in ["e1g1", "e1h1"] {
        assert_eq!(
            parse(&white, text),
            castling(Square::E1, Square::H1),
            "{text}"
        );
    }
    for text in ["e1c1", "e1a1"] {
        assert_eq!(
            parse(&white, text),
            castling(Square::E1, Square::A1),
            "{text}"
        );
    }
    let black = position("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    for text in ["e8c8", "e8a8"] {
        assert_eq!(
            parse(&black, text),
            castling(Square::E8, Square::A8),
            "{text}"
        );
    }
    for text in ["e8g8", "e8h8"] {
        assert_eq!(
            parse(&black, text),
            castling(Square::E8, Square::H8),
            "{text}"
        );
    }
    // And they print back each way.
    let long = castling(Square::E8, Square::A8);
    assert_eq!(long.to_string(), "e8c8");
    assert_eq!(
        long.uci(CastlingNotation::KingTakesRook).to_string(),
        "e8a8"
    );
    // Without the right, neither form is a move.
    let no_rights = position("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1");
    for text in ["e1c1", "e1a1"] {
        assert!(
            matches!(
                no_rights.parse_uci(text),
                Err(ParseUciError::Illegal { .. })
            ),
            "{text}"
        );
    }
}

#[test]
fn chess960_castling_reads_as_king_takes_rook() {
    // King g1, rooks b1 and h1: king-side castling leaves the king where it
    // is and moves the rook to f1; queen-side takes the king to c1.
    let start = position("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1");
    let short = castling(Square::G1, Square::H1);
    let long = castling(Square::G1, Square::B1);
    assert_eq!(parse(&start, "g1h1"), short);
    assert_eq!(parse(&start, "g1b1"), long);
    // The king's-move forms: g1g1 (the king stays) and g1c1.
    assert_eq!(short.to_string(), "g1g1");
    assert_eq!(parse(&start, "g1g1"), short);
    assert_eq!(parse(&start, "g1c1"), long);
    let after = start.play_unchecked(short);
    assert_eq!(
        after.fen().to_string(),
        "1r4kr/8/8/8/8/8/8/1R3RK1 b kq - 1 1"
    );
    let after = start.play_unchecked(long);
    assert_eq!(
        after.fen().to_string(),
        "1r4kr/8/8/8/8/8/8/2KR3R b kq - 1 1"
    );

    // The rook already on its target square: king e1, rook f1.
    let rook_home = position("4k3/8/8/8/8/8/8/4KR2 w F - 0 1");
    let short = castling(Square::E1, Square::F1);
    assert_eq!(parse(&rook_home, "e1f1"), short);
    assert_eq!(parse(&rook_home, "e1g1"), short);
    assert_eq!(
        rook_home.play_unchecked(short).fen().to_string(),
        "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    );
}

#[test]
fn chess960_king_move_onto_the_castling_square_is_the_plain_move() {
    // King b1, rook a1: queen-side castling takes the king to c1, where a
    // plain king move also goes. `b1c1` is the king's move; castling is
    // written only `b1a1`.
    let position = position("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
    let plain = parse(&position, "b1c1");
    assert_eq!(plain, Move::new(Square::B1, Square::C1, MoveKind::Normal));
    assert!(position.play_unchecked(plain).castling().is_empty());
    let long = parse(&position, "b1a1");
    assert_eq!(long, castling(Square::B1, Square::A1));
    assert_eq!(
        position.play_unchecked(long).fen().to_string(),
        "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"
    );
    // Both are legal, and print the same in the king's-move notation.
    assert!(position.is_legal(plain) && position.is_legal(long));
    assert_eq!(plain.to_string(), long.to_string());

    // With d1 taken, castling is out and b1c1 is still the king's move.
    let blocked = self::position("4k3/8/8/8/8/8/8/RK1N4 w A - 0 1");
    assert_eq!(parse(&blocked, "b1c1").kind(), MoveKind::Normal);
    assert_eq!(
        blocked.parse_uci("b1a1"),
        Err(ParseUciError::Illegal {
            from: Square::B1,
            to: Square::A1,
            promotion: None,
        })
    );
    // With c1 attacked, neither.
    let attacked = self::position("2r1k3/8/8/8/8/8/8/RK6 w A - 0 1");
    for text in ["b1c1", "b1a1"] {
        assert!(attacked.parse_uci(text).is_err(), "{text}");
    }
}

#[test]
fn promotions_need_their_letter() {
    let position = position("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    for (text, piece) in [
        ("b7b8q", PieceKind::Queen),
        ("b7b8r", PieceKind::Rook),
        ("b7b8b", PieceKind::Bishop),
        ("b7b8n", PieceKind::Knight),
    ] {
        let mv = parse(&position, text);
        assert_eq!(mv.kind(), MoveKind::Promotion(piece), "{text}");
        assert_eq!(mv.to_string(), text);
    }
    // Promotion with capture.
    let capture = parse(&position, "b7a8n");
    assert_eq!(
        capture,
        Move::new(
            Square::B7,
            Square::A8,
            MoveKind::Promotion(PieceKind::Knight)
        )
    );
    assert_eq!(
        position.play_unchecked(capture).fen().to_string(),
        "N3k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
    // Without a letter it is not a move; nor is a letter on a plain move.
    assert_eq!(
        position.parse_uci("b7b8"),
        Err(ParseUciError::Illegal {
            from: Square::B7,
            to: Square::B8,
            promotion: None,
        })
    );
    assert!(matches!(
        position.parse_uci("e1e2q"),
        Err(ParseUciError::Illegal {
            promotion: Some(PieceKind::Queen),
            ..
        })
    ));
    for letter in ['Q', 'k', 'p', 'x'] {
        assert_eq!(
            position.parse_uci(&format!("b7b8{letter}")),
            Err(ParseUciError::BadPromotion(letter))
        );
    }
}

#[test]
fn every_error_says_what_is_wrong() {
    let start = Position::START;
    let cases: [(&str, ParseUciError, &str); 9] = [
        (
            "",
            ParseUciError::Length(0),
            "a UCI move has 4 or 5 characters (from, to, and a promotion letter: `e2e4`, `e7e8q`); found 0",
        ),
        (
            "e2e",
            ParseUciError::Length(3),
            "a UCI move has 4 or 5 characters (from, to, and a promotion letter: `e2e4`, `e7e8q`); found 3",
        ),
        (
            "e7e8qq",
            ParseUciError::Length(6),
            "a UCI move has 4 or 5 characters (from, to, and a promotion letter: `e2e4`, `e7e8q`); found 6",
        ),
        (
            "e2é4",
            ParseUciError::NotAscii('é'),
            "`é` is not ASCII; a UCI move is two square names and a promotion letter (`e2e4`, `e7e8q`)",
        ),
        (
            "i2e4",
            ParseUciError::BadSquare {
                which: WhichSquare::From,
                error: "i2".parse::<Square>().unwrap_err(),
            },
            "the starting square is not a square: `i` is not a file; expected a letter from `a` to `h`",
        ),
        (
            "e2e9",
            ParseUciError::BadSquare {
                which: WhichSquare::To,
                error: "e9".parse::<Square>().unwrap_err(),
            },
            "the target square is not a square: `9` is not a rank; expected a digit from `1` to `8`",
        ),
        (
            "e2e4k",
            ParseUciError::BadPromotion('k'),
            "`k` is not a promotion; expected `n`, `b`, `r` or `q` (lower case)",
        ),
        (
            "e2e5",
            ParseUciError::Illegal {
                from: Square::E2,
                to: Square::E5,
                promotion: None,
            },
            "e2e5 is not a legal move in this position",
        ),
        (
            "e2e4r",
            ParseUciError::Illegal {
                from: Square::E2,
                to: Square::E4,
                promotion: Some(PieceKind::Rook),
            },
            "e2e4r is not a legal move in this position",
        ),
    ];
    for (text, error, message) in cases {
        assert_eq!(start.parse_uci(text), Err(error), "{text:?}");
        assert_eq!(error.to_string(), message, "{text:?}");
    }
    // The square errors carry the square's own.
    let Err(ParseUciError::BadSquare { error, .. }) = start.parse_uci("e2z4") else {
        panic!("e2z4 is not a bad square");
    };
    let _: ParseSquareError = error;
    // Errors are std errors.
    let boxed: Box<dyn std::error::Error> = Box::new(ParseUciError::Length(1));
    assert!(boxed.to_string().ends_with("found 1"));
}

#[test]
fn every_legal_move_reads_back_from_its_text() {
    let mut positions: Vec<(Position, bool)> = Vec::new();
    positions.extend(epd_fens(PERFT_SUITE).map(|fen| (read(fen), false)));
    positions.extend(epd_fens(CHESS960_RANDOM).map(|fen| (read(fen), true)));
    positions.extend(
        random_game_positions(0x0C1, 120, 40)
            .into_iter()
            .map(|sample| (sample.position, sample.chess960)),
    );
    let (mut moves, mut castles, mut ambiguous) = (0, 0, 0);
    for (position, chess960) in &positions {
        let legal = position.legal_moves();
        for &mv in legal.iter() {
            let takes_rook = mv.uci(CastlingNotation::KingTakesRook).to_string();
            assert_eq!(
                parse(position, &takes_rook),
                mv,
                "{position:?}: {takes_rook}"
            );
            let king_move = mv.to_string();
            let read_back = parse(position, &king_move);
            if read_back != mv {
                // Only where the notation is ambiguous: Chess960 castling
                // whose king's-move text is also a plain legal king move.
                assert!(*chess960 && mv.is_castling(), "{position:?}: {king_move}");
                assert_eq!(
                    read_back.kind(),
                    MoveKind::Normal,
                    "{position:?}: {king_move}"
                );
                assert_eq!(read_back.from(), mv.from());
                assert_eq!(read_back.to(), mv.king_target());
                ambiguous += 1;
            }
            moves += 1;
            castles += usize::from(mv.is_castling());
        }
    }
    assert!(moves > 50_000, "{moves}");
    assert!(castles > 400, "{castles}");
    // Chess960 games reach the ambiguous case (king f1, rook h1: `f1g1`).
    assert!(ambiguous > 10, "{ambiguous}");
}

#[test]
fn position_uci_writes_chess960_castling_as_king_takes_rook() {
    // King b1, rook a1: the king's-move text `b1c1` is also the king's step.
    let queen_side = position("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
    let long = castling(Square::B1, Square::A1);
    assert_eq!(queen_side.uci(long).to_string(), "b1a1");
    assert_eq!(parse(&queen_side, &queen_side.uci(long).to_string()), long);
    assert_eq!(
        queen_side.castling_notation(),
        CastlingNotation::KingTakesRook
    );
    // King g1, rook h1: the king's-move text would be `g1g1`.
    let king_side = position("4k3/8/8/8/8/8/8/6KR w H - 0 1");
    let short = castling(Square::G1, Square::H1);
    assert_eq!(king_side.uci(short).to_string(), "g1h1");
    assert_eq!(parse(&king_side, &king_side.uci(short).to_string()), short);
    // Standard chess keeps what GUIs expect, and other moves are plain UCI.
    let standard = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(standard.castling_notation(), CastlingNotation::KingToTarget);
    assert_eq!(
        standard.uci(castling(Square::E1, Square::H1)).to_string(),
        "e1g1"
    );
    assert_eq!(
        Position::START
            .uci(parse(&Position::START, "g1f3"))
            .to_string(),
        "g1f3"
    );
    // A Chess960 start whose king is on the e-file but whose rooks are not
    // in the corners is Chess960 too.
    let b_and_g_rooks = position("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1");
    assert_eq!(
        b_and_g_rooks.castling_notation(),
        CastlingNotation::KingTakesRook
    );
}

#[test]
fn every_legal_move_reads_back_from_the_positions_uci() {
    let mut positions: Vec<Position> = Vec::new();
    positions.extend(epd_fens(PERFT_SUITE).map(read));
    positions.extend(epd_fens(CHESS960_RANDOM).map(read));
    positions.extend(
        random_game_positions(0x0C1, 120, 40)
            .into_iter()
            .map(|sample| sample.position),
    );
    let mut castles = 0;
    for position in &positions {
        for &mv in position.legal_moves().iter() {
            let text = position.uci(mv).to_string();
            assert_eq!(parse(position, &text), mv, "{position:?}: {text}");
            castles += usize::from(mv.is_castling());
        }
    }
    assert!(castles > 400, "{castles}");
}

#[test]
fn errors_give_the_reason_a_text_is_not_a_move_here() {
    let start = Position::START;
    // UCI's null move is a word of the protocol, not a move in a position.
    assert_eq!(start.parse_uci("0000"), Err(ParseUciError::NullMove));
    assert_eq!(
        ParseUciError::NullMove.to_string(),
        "`0000` is UCI's null move (passing the turn), not a move in a position; \
         `Position::null_move` passes the turn"
    );
    // Whitespace is named as such, not as a bad promotion or square.
    assert_eq!(
        start.parse_uci("e2e4 "),
        Err(ParseUciError::Whitespace {
            column: 5,
            trailing: true
        })
    );
    assert_eq!(
        start.parse_uci("e2e4 ").unwrap_err().to_string(),
        "trailing whitespace after the move; a UCI move is 4 or 5 characters \
         (`e2e4`, `e7e8q`): trim the text first"
    );
    assert_eq!(
        start.parse_uci("e2e4\n").unwrap_err().to_string(),
        start.parse_uci("e2e4 ").unwrap_err().to_string()
    );
    assert_eq!(
        start.parse_uci("e2 e4"),
        Err(ParseUciError::Whitespace {
            column: 3,
            trailing: false
        })
    );
    assert_eq!(
        start.parse_uci(" e2e4").unwrap_err().to_string(),
        "whitespace at character 1; a UCI move is 4 or 5 characters with none \
         (`e2e4`, `e7e8q`)"
    );
    // A pawn reaching the last rank without its promotion letter.
    let promotion = position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        promotion.parse_uci("a7a8").unwrap_err().to_string(),
        "a7a8 is not a legal move in this position; a promotion needs its piece \
         letter: `a7a8q`, `a7a8r`, `a7a8b` or `a7a8n`"
    );
    // No piece of the side to move on the starting square.
    let black_pawn = position("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        black_pawn.parse_uci("e7e8"),
        Err(ParseUciError::NoPieceToMove {
            from: Square::E7,
            found: Some(bitboards::Piece::new(
                bitboards::Color::Black,
                PieceKind::Pawn
            )),
        })
    );
    assert_eq!(
        black_pawn.parse_uci("e7e8").unwrap_err().to_string(),
        "e7 holds a black pawn, and it is white's move: a move starts on a square of \
         the side to move"
    );
    assert_eq!(
        start.parse_uci("e4e5").unwrap_err().to_string(),
        "there is no piece on e4 to move"
    );
}

#[test]
fn push_to_appends_what_display_writes_for_every_move() {
    let kinds = [
        MoveKind::Normal,
        MoveKind::EnPassant,
        MoveKind::Castling,
        MoveKind::Promotion(PieceKind::Knight),
        MoveKind::Promotion(PieceKind::Bishop),
        MoveKind::Promotion(PieceKind::Rook),
        MoveKind::Promotion(PieceKind::Queen),
    ];
    let mut written = 0;
    for notation in [
        CastlingNotation::KingToTarget,
        CastlingNotation::KingTakesRook,
    ] {
        for from in Square::ALL {
            for to in Square::ALL {
                for kind in kinds {
                    let mv = Move::new(from, to, kind);
                    if mv.is_null() {
                        // `a1a1` as a normal move is the null move's code.
                        continue;
                    }
                    let uci = mv.uci(notation);
                    // The text built here from the squares' names.
                    let target = match notation {
                        CastlingNotation::KingToTarget => mv.king_target(),
                        CastlingNotation::KingTakesRook => to,
                    };
                    let letter = match kind {
                        MoveKind::Promotion(piece) => piece.to_char().to_string(),
                        _ => String::new(),
                    };
                    let expected = format!("{}{}{letter}", from.name(), target.name());
                    assert_eq!(uci.to_string(), expected, "{mv:?}");
                    let mut line = String::from("e2e4 ");
                    uci.push_to(&mut line);
                    assert_eq!(line, format!("e2e4 {expected}"), "{mv:?}");
                    written += 1;
                }
            }
        }
        let mut null = String::new();
        Move::NULL.uci(notation).push_to(&mut null);
        assert_eq!(null, "0000");
        assert_eq!(Move::NULL.uci(notation).to_string(), "0000");
    }
    assert_eq!(written, 2 * (64 * 64 * kinds.len() - 1));
}
