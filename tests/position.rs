//! Position accessors, piece types and pictures, checked against the FEN
//! text they came from.

mod common;

use bitboards::Validation;
use bitboards::{
    Bitboard, CastlingRights, CastlingSide, Color, File, ParsePieceError, Piece, PieceKind,
    Position, Setup, Square, bitboard,
};
use common::{CHESS960_RANDOM, PERFT_SUITE, epd_fens};

fn positions() -> impl Iterator<Item = Position> {
    epd_fens(PERFT_SUITE)
        .chain(epd_fens(CHESS960_RANDOM))
        .map(|fen| {
            Position::from_fen_with(fen, Validation::ALL_RULES.allow_impossible_check()).unwrap()
        })
}

#[test]
fn piece_letters_both_ways() {
    for piece in Piece::ALL {
        assert_eq!(Piece::from_char(piece.to_char()), Some(piece));
        assert_eq!(piece.to_string().parse(), Ok(piece));
        assert_eq!(Piece::new(piece.color(), piece.kind()), piece);
        assert_eq!(Piece::ALL[piece.index()], piece);
        assert_eq!(
            piece.to_char().is_ascii_uppercase(),
            piece.color() == Color::White
        );
    }
    for kind in PieceKind::ALL {
        assert_eq!(PieceKind::from_char(kind.to_char()), Some(kind));
        assert_eq!(kind.to_string().to_uppercase().parse(), Ok(kind));
        assert_eq!(PieceKind::new(kind.index() as u8), Some(kind));
    }
    assert_eq!("".parse::<Piece>(), Err(ParsePieceError::BadLength(0)));
    assert_eq!(
        "Kk".parse::<PieceKind>(),
        Err(ParsePieceError::BadLength(2))
    );
    assert_eq!(
        "1".parse::<Piece>(),
        Err(ParsePieceError::UnknownLetter('1'))
    );
    assert_eq!(Piece::COUNT, 12);
    assert_eq!(PieceKind::COUNT, 6);
}

#[test]
fn accessors_agree_with_the_mailbox() {
    let mut count = 0;
    for position in positions() {
        let mut union = Bitboard::EMPTY;
        for square in Square::ALL {
            let piece = position.piece_on(square);
            for candidate in Piece::ALL {
                assert_eq!(
                    position.piece_bitboard(candidate).contains(square),
                    piece == Some(candidate)
                );
            }
            if let Some(piece) = piece {
                union.set(square);
                assert!(position.by_color(piece.color()).contains(square));
                assert!(position.by_kind(piece.kind()).contains(square));
            }
        }
        assert_eq!(position.occupied(), union);
        assert_eq!(
            position.by_color(Color::White) & position.by_color(Color::Black),
            Bitboard::EMPTY
        );
        for color in Color::ALL {
            assert_eq!(
                position.pieces(color, PieceKind::King),
                position.king(color).bitboard()
            );
        }
        count += 1;
    }
    assert_eq!(count, 327);
}

#[test]
fn fields_after_the_board() {
    let position = Position::from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 12 34").unwrap();
    assert_eq!(position.side_to_move(), Color::White);
    assert_eq!(position.en_passant(), Some(Square::D6));
    assert_eq!(position.halfmove_clock(), 12);
    assert_eq!(position.fullmove_number(), 34);
    let rights = position.castling();
    assert_eq!(rights.count(), 2);
    assert_eq!(
        rights.rook_file(Color::White, CastlingSide::KingSide),
        Some(File::H)
    );
    assert_eq!(
        rights.rook_file(Color::White, CastlingSide::QueenSide),
        None
    );
    assert_eq!(rights.rook_file(Color::Black, CastlingSide::KingSide), None);
    assert_eq!(
        rights.rook_file(Color::Black, CastlingSide::QueenSide),
        Some(File::A)
    );
}

#[test]
fn setup_round_trips() {
    for position in positions() {
        assert_eq!(
            Position::from_setup_allow_impossible_check(position.setup()),
            Ok(position)
        );
    }
    assert_eq!(Position::from_setup(Setup::START), Ok(Position::START));
    assert_eq!(Position::START.castling(), CastlingRights::STANDARD);
}

#[test]
fn checkers_and_attackers() {
    // Kiwipete: nothing gives check; of White's pieces only the knight on
    // e5 attacks f7 (the queen on f3 is blocked by the knight on f6).
    let kiwipete =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    assert!(kiwipete.checkers().is_empty());
    assert_eq!(
        kiwipete.attackers(Square::F7, Color::White),
        Square::E5.bitboard()
    );
    assert_eq!(
        kiwipete.attackers(Square::F6, Color::White),
        Square::F3.bitboard()
    );
    // A discovered double check: bishop and rook.
    let double = Position::from_fen("4k3/8/8/1B6/8/8/8/4R1K1 b - - 0 1").unwrap();
    assert_eq!(
        double.checkers(),
        Square::B5.bitboard() | Square::E1.bitboard()
    );
}

/// `is_check` (checkers only, with its own ray test) against the king's
/// attackers and against `checkers`, over the suites' positions and every
/// position one and two legal moves from each.
#[test]
fn is_check_is_the_king_attacked() {
    let (mut positions_seen, mut checks) = (0, 0);
    let mut verify = |position: &Position| {
        let us = position.side_to_move();
        let attacked = !position
            .attackers(position.king(us), us.opponent())
            .is_empty();
        assert_eq!(position.is_check(), attacked, "{position:?}");
        assert_eq!(position.checkers().is_empty(), !attacked, "{position:?}");
        positions_seen += 1;
        checks += usize::from(attacked);
    };
    for position in positions() {
        verify(&position);
        for &first in position.legal_moves().iter() {
            let after = position.play_unchecked(first);
            verify(&after);
            for &second in after.legal_moves().iter() {
                verify(&after.play_unchecked(second));
            }
        }
    }
    assert!(positions_seen > 200_000, "{positions_seen}");
    assert!(checks > 5_000, "{checks} of {positions_seen}");
}

#[test]
fn display_draws_the_board_then_the_fen() {
    let position =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let expected = "\
8 r . . . k . . r
7 p . p p q p b .
6 b n . . p n p .
5 . . . P N . . .
4 . p . . P . . .
3 . . N . . Q . p
2 P P P B B P P P
1 R . . . K . . R
  a b c d e f g h
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(position.to_string(), expected);
    assert_eq!(format!("{position:#?}"), expected);
}

#[test]
fn named_bitboards_follow_the_literature() {
    let position = Position::START;
    let names: Vec<&str> = position
        .named_bitboards()
        .iter()
        .map(|(name, _)| *name)
        .collect();
    assert_eq!(
        names,
        [
            "WhitePawns",
            "WhiteRooks",
            "WhiteKnights",
            "WhiteBishops",
            "WhiteQueens",
            "WhiteKing",
            "BlackPawns",
            "BlackRooks",
            "BlackKnights",
            "BlackBishops",
            "BlackQueens",
            "BlackKing",
            "AllWhitePieces",
            "AllBlackPieces",
            "AllPieces",
        ]
    );
    let boards = position.named_bitboards();
    assert_eq!(boards[8].0, "BlackKnights");
    assert_eq!(
        boards[8].1,
        bitboard! {
            8 . X . . . . X .
            7 . . . . . . . .
            6 . . . . . . . .
            5 . . . . . . . .
            4 . . . . . . . .
            3 . . . . . . . .
            2 . . . . . . . .
            1 . . . . . . . .
              a b c d e f g h
        }
    );
    for position in positions() {
        let boards = position.named_bitboards();
        let twelve = boards[..12]
            .iter()
            .fold(Bitboard::EMPTY, |all, (_, b)| all | *b);
        assert_eq!(twelve, boards[14].1);
        assert_eq!(boards[12].1 | boards[13].1, position.occupied());
        // Each square is on at most one of the twelve.
        let total: u32 = boards[..12].iter().map(|(_, b)| b.count()).sum();
        assert_eq!(total, position.occupied().count());
    }
}
