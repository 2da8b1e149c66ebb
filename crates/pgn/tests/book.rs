//! Books built from games: the same book whether the counts stay in memory
//! or spill to disk, the weighting and the filters, and the moves read
//! back by `bitboards::book`.

use bitboards::Color;
use bitboards::book::{Book, Choose};
use bitboards_pgn::Reader;
use bitboards_pgn::book::{BookBuilder, BuildOptions};

fn build(pgn: &[u8], options: BuildOptions) -> Vec<u8> {
    let mut builder = BookBuilder::new(options);
    let mut game = builder.visitor();
    let mut reader = Reader::new(pgn);
    while reader.read_game(&mut game).unwrap() {
        builder.add_game(&game).unwrap();
    }
    builder.finish().unwrap()
}

#[test]
fn spilled_runs_give_the_book_memory_gives() {
    let pgn = bitboards_test_support::lichess_games(300, 3);
    let in_memory = build(&pgn, BuildOptions::default());
    let spilled = build(
        &pgn,
        BuildOptions {
            run_entries: 500,
            ..BuildOptions::default()
        },
    );
    assert!(in_memory.len() > 16 * 1000);
    assert_eq!(in_memory, spilled);
    let book = Book::from_bytes(&in_memory[..]).unwrap();
    // Every game starts from the start position: its entries hold 300
    // games' first moves, weighted 2 per White win and 1 per draw.
    let start = bitboards::Position::START;
    assert!(book.entries(&start).count() >= 15);
    assert!(book.best(&start, &Choose::default()).is_some());
}

#[test]
fn weights_filters_and_chess960() {
    let pgn = "[Result \"1-0\"]\n[WhiteElo \"2000\"]\n[BlackElo \"1900\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
               [Result \"1/2-1/2\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1900\"]\n\n1. e4 c5 1/2-1/2\n\n\
               [Result \"0-1\"]\n\n1. e4 e5 0-1\n\n\
               [Result \"*\"]\n\n1. d4 *\n\n\
               [Variant \"Chess960\"]\n[Result \"1-0\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 1-0\n";
    let start = bitboards::Position::START;
    let weights = |bytes: &[u8], position: &bitboards::Position| -> Vec<(String, u16)> {
        let book = Book::from_bytes(bytes).unwrap();
        book.entries(position)
            .map(|entry| (entry.mv.to_string(), entry.weight))
            .collect()
    };
    // e4: 2 (win) + 1 (draw) + 0 (loss); d4's game has no result; the
    // Chess960 game is left out.
    let all = build(pgn.as_bytes(), BuildOptions::default());
    assert_eq!(weights(&all, &start), [("e2e4".to_string(), 3)]);
    let after_e4 = start.play_unchecked(start.parse_san("e4").unwrap());
    assert_eq!(
        weights(&all, &after_e4),
        [("e7e5".to_string(), 2), ("c7c5".to_string(), 1)]
    );
    // Played in two games at least: e4 and e5.
    let two = build(
        pgn.as_bytes(),
        BuildOptions {
            min_games: 2,
            ..BuildOptions::default()
        },
    );
    assert_eq!(weights(&two, &after_e4), [("e7e5".to_string(), 2)]);
    // Both players rated 1800 or more: the first game only.
    let rated = build(
        pgn.as_bytes(),
        BuildOptions {
            min_elo: Some(1800),
            ..BuildOptions::default()
        },
    );
    assert_eq!(weights(&rated, &start), [("e2e4".to_string(), 2)]);
    // Black's moves only; one ply only.
    let black = build(
        pgn.as_bytes(),
        BuildOptions {
            only: Some(Color::Black),
            ..BuildOptions::default()
        },
    );
    assert!(weights(&black, &start).is_empty());
    let one = build(
        pgn.as_bytes(),
        BuildOptions {
            max_ply: 1,
            ..BuildOptions::default()
        },
    );
    assert!(weights(&one, &after_e4).is_empty());
}
