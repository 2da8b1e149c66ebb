//! Polyglot books: what the writer writes, the reader reads back, by binary
//! search over many positions; castling stored king-takes-rook in standard
//! chess and Chess960; illegal moves skipped; bad bytes refused.

mod common;

use std::collections::BTreeMap;

use bitboards::book::{Book, BookError, BookWriter, Choose, encode};
use bitboards::{Move, MoveKind, Position, Square};
use common::{CHESS960_STARTS, Rng, epd_fens};

/// Each move of a position (by its Polyglot bits) with its total weight.
type ByMove = BTreeMap<u16, (Move, u64)>;

/// Random games' positions and moves with random weights: the book the
/// writer makes has, for each position, each move once with the summed
/// weight, heaviest first.
#[test]
fn written_books_read_back_position_by_position() {
    let mut rng = Rng::new(0xB00C);
    let mut writer = BookWriter::new();
    let mut expected: BTreeMap<u64, (Position, ByMove)> = BTreeMap::new();
    for _ in 0..300 {
        let mut position = Position::START;
        for _ in 0..rng.below(16) {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let weight = rng.below(20) as u64;
            writer.add(position.polyglot_key(), mv, weight, 0);
            let (_, by_move) = expected
                .entry(position.polyglot_key())
                .or_insert_with(|| (position, BTreeMap::new()));
            by_move.entry(encode(mv)).or_insert((mv, 0)).1 += weight;
            position = position.play_unchecked(mv);
        }
    }
    let bytes = writer.to_bytes();
    let book = Book::from_bytes(&bytes[..]).unwrap();
    let total: usize = expected.values().map(|(_, moves)| moves.len()).sum();
    assert_eq!(book.len(), total);
    assert!(expected.len() > 500, "{} positions", expected.len());
    for (position, by_move) in expected.values() {
        let entries: Vec<_> = book.entries(position).collect();
        assert_eq!(entries.len(), by_move.len(), "{}", position.fen());
        for pair in entries.windows(2) {
            assert!(pair[0].weight >= pair[1].weight, "heaviest first");
        }
        for entry in &entries {
            let (mv, weight) = by_move[&encode(entry.mv)];
            assert_eq!((entry.mv, u64::from(entry.weight)), (mv, weight));
        }
        let best = book.best(position, &Choose::default());
        let heaviest = by_move.values().map(|&(_, weight)| weight).max().unwrap();
        match best {
            Some(best) => assert_eq!(u64::from(best.weight), heaviest),
            None => assert_eq!(heaviest, 0, "only weight-0 entries are not chosen"),
        }
    }
    // A position not in the book has no entries.
    let absent = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(book.entries(&absent).count(), 0);
}

#[test]
fn castling_is_king_takes_rook_in_standard_chess_and_chess960() {
    let kiwipete =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let short = Move::new(Square::E1, Square::H1, MoveKind::Castling);
    let long = Move::new(Square::E1, Square::A1, MoveKind::Castling);
    let mut writer = BookWriter::new();
    writer.add(kiwipete.polyglot_key(), short, 2, 0);
    writer.add(kiwipete.polyglot_key(), long, 1, 0);
    let bytes = writer.to_bytes();
    // e1h1 and e1a1, as Polyglot stores them.
    assert_eq!(u16::from_be_bytes([bytes[8], bytes[9]]), (4 << 6) | 7);
    let book = Book::from_bytes(&bytes[..]).unwrap();
    let moves: Vec<Move> = book.entries(&kiwipete).map(|entry| entry.mv).collect();
    assert_eq!(moves, [short, long]);

    // Every Chess960 start position, after moves that clear the back rank
    // where castling becomes legal: each castling move round-trips.
    let mut rng = Rng::new(960);
    let mut castlings = 0;
    for fen in epd_fens(CHESS960_STARTS) {
        let mut position = Position::from_fen(fen).unwrap();
        for _ in 0..40 {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &mv in moves.iter().filter(|mv| mv.is_castling()) {
                let mut writer = BookWriter::new();
                writer.add(position.polyglot_key(), mv, 1, 0);
                let bytes = writer.to_bytes();
                let book = Book::from_bytes(&bytes[..]).unwrap();
                let read: Vec<Move> = book.entries(&position).map(|entry| entry.mv).collect();
                assert_eq!(read, [mv], "{}", position.fen());
                castlings += 1;
            }
            position = position.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(castlings > 100, "{castlings} castling moves");
}

#[test]
fn illegal_moves_are_skipped_and_bad_bytes_refused() {
    let start = Position::START;
    let mut bytes = Vec::new();
    // e2e5 (not a move here), then e2e4: the first is skipped.
    for (from, to) in [(Square::E2, Square::E5), (Square::E2, Square::E4)] {
        bytes.extend_from_slice(&start.polyglot_key().to_be_bytes());
        bytes.extend_from_slice(&(((from as u16) << 6) | to as u16).to_be_bytes());
        bytes.extend_from_slice(&[0, 1, 0, 0, 0, 0]);
    }
    let book = Book::from_bytes(&bytes[..]).unwrap();
    let moves: Vec<String> = book
        .entries(&start)
        .map(|entry| entry.mv.to_string())
        .collect();
    assert_eq!(moves, ["e2e4"]);

    assert_eq!(
        Book::from_bytes(&bytes[..17]).unwrap_err(),
        BookError::Length { len: 17 }
    );
    let mut bad = bytes.clone();
    bad[24] |= 0x70; // entry 1's move: promotion code 7
    assert_eq!(
        Book::from_bytes(&bad[..]).unwrap_err(),
        BookError::BadMove {
            entry: 1,
            bits: 0x7000 | (12 << 6) | 28
        }
    );
    let mut unsorted = bytes.clone();
    unsorted[16..24].copy_from_slice(&(start.polyglot_key() - 1).to_be_bytes());
    assert_eq!(
        Book::from_bytes(&unsorted[..]).unwrap_err(),
        BookError::Unsorted { entry: 1 }
    );
}

#[test]
fn weighted_choice_follows_the_weights() {
    let start = Position::START;
    let mut writer = BookWriter::new();
    let moves: Vec<Move> = ["e4", "d4", "c4", "Nf3"]
        .iter()
        .map(|san| start.parse_san(san).unwrap())
        .collect();
    for (mv, weight) in moves.iter().zip([1, 2, 3, 0]) {
        writer.add(start.polyglot_key(), *mv, weight, 0);
    }
    let bytes = writer.to_bytes();
    let book = Book::from_bytes(&bytes[..]).unwrap();
    let mut rng = Rng::new(5);
    let mut counts = [0usize; 4];
    for _ in 0..6000 {
        let entry = book
            .weighted_choice(&start, &Choose::default(), &mut || rng.next_u64())
            .unwrap();
        counts[moves.iter().position(|&mv| mv == entry.mv).unwrap()] += 1;
    }
    // Expected 1000, 2000, 3000 and never the weight-0 move.
    assert_eq!(counts[3], 0);
    for (count, expected) in counts.iter().zip([1000, 2000, 3000]) {
        assert!(count.abs_diff(expected) < 200, "{counts:?}");
    }
    let with_zero = Choose {
        minimum_weight: 0,
        ..Choose::default()
    };
    let mut seen = [false; 4];
    for _ in 0..400 {
        let entry = book
            .choice(&start, &with_zero, &mut || rng.next_u64())
            .unwrap();
        seen[moves.iter().position(|&mv| mv == entry.mv).unwrap()] = true;
    }
    assert_eq!(seen, [true; 4]);
}
