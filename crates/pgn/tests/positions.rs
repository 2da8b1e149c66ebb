//! Position rows: every row against the game replayed move by move, the
//! filters, and the same table whatever the thread count.
#![cfg(feature = "arrow")]

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type, UInt8Type, UInt16Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use bitboards::{Color, PieceKind, Position};
use bitboards_pgn::annotations::Annotations;
use bitboards_pgn::positions::{self, PositionOptions};
use bitboards_pgn::{PgnGame, Reader};

fn rows(
    pgn: &[u8],
    options: &PositionOptions,
    threads: usize,
) -> (Vec<RecordBatch>, positions::Summary) {
    let mut batches = Vec::new();
    let summary =
        positions::for_each_batch(pgn, options, Some(threads), 0, |batch| batches.push(batch))
            .unwrap();
    (batches, summary)
}

#[test]
fn every_row_is_the_position_before_its_move() {
    let pgn = bitboards_test_support::lichess_games(60, 7);
    let (batches, summary) = rows(
        &pgn,
        &PositionOptions {
            final_position: true,
            ..PositionOptions::default()
        },
        1,
    );
    assert_eq!(summary.games, 60);
    assert!(summary.errors.is_empty());
    assert_eq!(batches.len(), 1, "fewer rows than a batch holds");
    let table = &batches[0];
    let game_column = table
        .column_by_name("game")
        .unwrap()
        .as_primitive::<UInt64Type>();
    let ply = table
        .column_by_name("ply")
        .unwrap()
        .as_primitive::<UInt16Type>();
    let boards = table
        .column_by_name("bitboards")
        .unwrap()
        .as_fixed_size_list();
    let boards = boards.values().as_primitive::<UInt64Type>();
    let turn = table.column_by_name("turn").unwrap().as_boolean();
    let castling = table
        .column_by_name("castling")
        .unwrap()
        .as_primitive::<UInt64Type>();
    let ep = table
        .column_by_name("ep_square")
        .unwrap()
        .as_primitive::<UInt8Type>();
    let halfmove = table
        .column_by_name("halfmove_clock")
        .unwrap()
        .as_primitive::<UInt16Type>();
    let moves = table.column_by_name("move").unwrap().as_string::<i32>();
    let clock = table
        .column_by_name("move_clock")
        .unwrap()
        .as_primitive::<Float64Type>();
    let eval = table.column_by_name("move_eval").unwrap().as_struct();
    let cp = eval.column(0).as_primitive::<Int32Type>();
    let white_elo = table
        .column_by_name("WhiteElo")
        .unwrap()
        .as_primitive::<Int32Type>();

    // The reference: each game read into a `PgnGame`, replayed by hand.
    let mut reader = Reader::new(&pgn[..]);
    let mut row = 0;
    for (number, game) in reader.games().enumerate() {
        let game: PgnGame = game.unwrap();
        let mut position: Position = *game.mainline.start();
        let elo: Option<i32> = game.tag("WhiteElo").and_then(|elo| elo.parse().ok());
        let plies = game.mainline.moves().len();
        for at in 0..=plies {
            assert_eq!(
                (game_column.value(row), ply.value(row) as usize),
                (number as u64, at),
                "row {row}"
            );
            for (index, (color, kind)) in Color::ALL
                .into_iter()
                .flat_map(|color| PieceKind::ALL.into_iter().map(move |kind| (color, kind)))
                .enumerate()
            {
                assert_eq!(
                    boards.value(12 * row + index),
                    position.pieces(color, kind).0,
                    "row {row}"
                );
            }
            assert_eq!(turn.value(row), position.side_to_move() == Color::White);
            assert_eq!(castling.value(row), position.castling_rooks().0);
            assert_eq!(
                ep.is_valid(row).then(|| ep.value(row)),
                position.legal_en_passant().map(|s| s.index() as u8)
            );
            assert_eq!(halfmove.value(row), position.halfmove_clock());
            assert_eq!(white_elo.is_valid(row).then(|| white_elo.value(row)), elo);
            if at < plies {
                let mv = game.mainline.moves()[at];
                assert_eq!(moves.value(row), position.uci(mv).to_string());
                let comment: Vec<&str> = game
                    .comments
                    .iter()
                    .filter(|(after, _)| *after == at + 1)
                    .map(|(_, text)| text.as_str())
                    .collect();
                let found = Annotations::parse(&comment.join(" "));
                assert_eq!(
                    clock.is_valid(row).then(|| clock.value(row)),
                    found.clock,
                    "row {row}"
                );
                let want_cp = found.eval.and_then(|eval| match eval.score {
                    bitboards_pgn::annotations::Score::Cp(cp) => Some(cp),
                    bitboards_pgn::annotations::Score::Mate(_) => None,
                });
                assert_eq!(
                    cp.is_valid(row).then(|| cp.value(row)),
                    want_cp,
                    "row {row}"
                );
                position.play_unchecked_in_place(mv);
            } else {
                assert!(moves.is_null(row), "the final position has no move");
            }
            row += 1;
        }
    }
    assert_eq!(row, table.num_rows());
}

#[test]
fn filters_pick_rows_and_threads_do_not_change_them() {
    let mut pgn = bitboards_test_support::lichess_games(150, 11);
    // A bad game in the middle: left out, counted, and the numbers of the
    // games after it unchanged.
    pgn.extend_from_slice(
        b"\n[Event \"bad\"]\n[WhiteElo \"3000\"]\n[BlackElo \"3000\"]\n\n1. e4 Ke7 *\n\n",
    );
    pgn.extend_from_slice(&bitboards_test_support::lichess_games(150, 12));
    let options = PositionOptions {
        every: 3,
        min_ply: 2,
        max_ply: Some(40),
        min_elo: Some(1500),
        sample: Some((0.5, 9)),
        columns: vec!["Opening".into(), "plies".into(), "UTCDate".into()],
        ..PositionOptions::default()
    };
    let (one, summary) = rows(&pgn, &options, 1);
    assert_eq!(summary.games, 301);
    assert_eq!(summary.errors.len(), 1);
    assert_eq!(summary.errors[0].game(), 151);
    for threads in [2, 3] {
        let (many, again) = rows(&pgn, &options, threads);
        assert_eq!(many, one, "{threads} threads");
        assert_eq!(again.rows, summary.rows);
    }
    let table = &one[0];
    assert_eq!(table.num_rows() as u64, summary.rows);
    let schema = table.schema();
    let names: Vec<&str> = schema
        .fields()
        .iter()
        .map(|field| field.name().as_str())
        .collect();
    assert_eq!(names[14..], ["Opening", "plies", "UTCDate"]);
    let ply = table
        .column_by_name("ply")
        .unwrap()
        .as_primitive::<UInt16Type>();
    let white = table
        .column_by_name("WhiteElo")
        .unwrap()
        .as_primitive::<Int32Type>();
    let black = table
        .column_by_name("BlackElo")
        .unwrap()
        .as_primitive::<Int32Type>();
    let game = table
        .column_by_name("game")
        .unwrap()
        .as_primitive::<UInt64Type>();
    for row in 0..table.num_rows() {
        let ply = ply.value(row);
        assert!(ply % 3 == 0 && (2..=40).contains(&ply), "ply {ply}");
        assert!(white.value(row) >= 1500 && black.value(row) >= 1500);
        assert_ne!(game.value(row), 150, "the bad game has no rows");
    }
    // The sample keeps about half of what the filters let through.
    let unsampled = rows(
        &pgn,
        &PositionOptions {
            sample: None,
            ..options.clone()
        },
        2,
    )
    .1
    .rows;
    let kept = summary.rows as f64 / unsampled as f64;
    assert!((0.4..0.6).contains(&kept), "kept {kept}");
    assert!(
        unsampled > 500,
        "{unsampled} rows: the filters keep too little to test"
    );
}

/// `AS_BUILT` hands on the workers' batches as they are: the same rows in
/// the same order as batches of a set size, in several batches of no
/// empty one, on any thread count.
#[test]
fn batches_as_built_are_the_same_rows() {
    let pgn = bitboards_test_support::lichess_games(400, 5);
    let joined = PositionOptions::default();
    let as_built = PositionOptions {
        batch_rows: positions::AS_BUILT,
        ..PositionOptions::default()
    };
    let (one, summary) = rows(&pgn, &joined, 1);
    assert_eq!(one.len(), 1, "{} rows in one batch of 65,536", summary.rows);
    for threads in [1, 2] {
        let (built, again) = rows(&pgn, &as_built, threads);
        assert_eq!(again.rows, summary.rows);
        assert!(built.len() > 1, "{threads} threads: {} batch", built.len());
        assert!(built.iter().all(|batch| batch.num_rows() > 0));
        let schema = built[0].schema();
        let concatenated = arrow_select::concat::concat_batches(&schema, &built).unwrap();
        assert_eq!(concatenated, one[0], "{threads} threads");
    }
}

/// A builder that draws the sample row by row (`PositionsBuilder::push`
/// with a sample) keeps the rows, and makes the table, that the readers
/// make by building every row and filtering the batch.
#[test]
fn a_sampled_builder_makes_the_readers_table() {
    let pgn = bitboards_test_support::lichess_games(120, 5);
    let options = PositionOptions {
        final_position: true,
        sample: Some((0.3, 17)),
        columns: vec!["Opening".into(), "plies".into(), "UTCTime".into()],
        ..PositionOptions::default()
    };
    let (expected, summary) = rows(&pgn, &options, 1);
    let mut visitor = positions::PositionsVisitor::new(options.clone());
    let mut builder = positions::PositionsBuilder::new(options);
    let mut reader = Reader::new(&pgn[..]);
    let mut game = 0;
    while reader.read_game(&mut visitor).unwrap() {
        builder.push(game, visitor.rows());
        game += 1;
    }
    assert_eq!(game, summary.games);
    assert_eq!(builder.len() as u64, summary.rows);
    assert!(
        summary.rows > 1000,
        "{} rows: too few to test",
        summary.rows
    );
    let built = builder.finish();
    assert_eq!(expected.len(), 1);
    assert_eq!(built, expected[0]);
    assert!(builder.is_empty());
}

#[test]
fn options_that_make_no_sense_are_refused() {
    let refused = |options: PositionOptions| {
        positions::for_each_batch(&b"1. e4 *"[..], &options, Some(1), 0, |_| {})
            .unwrap_err()
            .to_string()
    };
    assert!(
        refused(PositionOptions {
            every: 0,
            ..PositionOptions::default()
        })
        .contains("every")
    );
    assert!(
        refused(PositionOptions {
            sample: Some((1.5, 0)),
            ..PositionOptions::default()
        })
        .contains("sample")
    );
    let unknown = refused(PositionOptions {
        columns: vec!["movetext".into()],
        ..PositionOptions::default()
    });
    assert!(
        unknown.contains("\"movetext\"") && unknown.contains("Opening"),
        "{unknown}"
    );
}

/// A comment longer than the reader's buffer comes in pieces: on a ply that
/// makes no row it says nothing, and its pieces do not run into the
/// comment of the next row's ply (whose clock and eval are its own).
#[test]
fn a_long_comment_of_a_ply_without_a_row_says_nothing() {
    let long = format!("[%clk 0:09:09] [%eval 9.99] {}", "x".repeat(500));
    let pgn = format!(
        "1. e4 {{ [%clk 0:01:00] }} 1... e5 {{ {long} }} 2. Nf3 {{ [%eval 0.25] [%clk 0:00:58] }} *\n\n"
    );
    let options = PositionOptions {
        every: 2,
        ..PositionOptions::default()
    };
    let mut visitor = positions::PositionsVisitor::new(options.clone());
    let mut builder = positions::PositionsBuilder::new(options);
    let mut reader = Reader::with_capacity(64, pgn.as_bytes());
    assert!(reader.read_game(&mut visitor).unwrap());
    builder.push(0, visitor.rows());
    let table = builder.finish();
    let ply = table
        .column_by_name("ply")
        .unwrap()
        .as_primitive::<UInt16Type>();
    assert_eq!(ply.values(), &[0, 2]);
    let clock = table
        .column_by_name("move_clock")
        .unwrap()
        .as_primitive::<Float64Type>();
    assert_eq!(clock.iter().collect::<Vec<_>>(), [Some(60.0), Some(58.0)]);
    let eval = table.column_by_name("move_eval").unwrap().as_struct();
    let cp = eval.column(0).as_primitive::<Int32Type>();
    assert_eq!(cp.iter().collect::<Vec<_>>(), [None, Some(25)]);
}
