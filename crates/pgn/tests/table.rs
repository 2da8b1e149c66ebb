//! The game table read straight into its columns ([`GamesVisitor`]) holds
//! what the records of [`RecordVisitor`] pushed into a [`GamesBuilder`]
//! hold, column by column, whatever the settings, the batches and the
//! games that fail among them.
#![cfg(feature = "arrow")]

use arrow_array::RecordBatch;
use bitboards_pgn::Reader;
use bitboards_pgn::record::{MovetextForm, RecordVisitor};
use bitboards_pgn::table::{self, AS_BUILT, GamesBuilder, GamesVisitor, games_schema};

/// Odd games: variations, NAGs, comments before the first move and
/// between tags, a FEN start, null moves, a game without movetext, games
/// that fail in their tags and in their moves, tags twice, numbers that do
/// not parse, a checkmate and a stalemate, text that is not UTF-8.
const ODD: &[u8] = b"[Event \"odd\"]\n[WhiteElo \"+15\"]\n[WhiteElo \"1\"]\n[UTCDate \"????.??.??\"]\n[UTCTime \"12:00:01\"]\n{ before }\n1. e4 $1 (1. d4 {x} (1. c4)) e5 {[%clk 0:01:00] [%eval #-3]} 2. -- {[%eval 0.5]} Nc6 1/2-1/2\n\n\
[Event \"broken tag\n\n1. e4 *\n\n\
[FEN \"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Qg7# 1-0\n\n\
[Event \"stalemate\"]\n[FEN \"7k/5Q2/5K2/8/8/8/8/8 w - - 0 1\"]\n\n1. Qf7g6 1/2-1/2\n\n\
[Event \"illegal\"]\n[Site \"x\"]\n\n1. e4 { [%clk 0:00:10] } 1... e5 2. Ke3 *\n\n\
[Event \"no result\"]\n\n1. d4 d5\n\n\
[Event \"\xff latin\"]\n[White \"M\xfcller\"]\n\n1. e4 {caf\xe9} *\n\n\
[Event \"no movetext\"]\n";

/// The table of `pgn` in batches of `rows` games (the last fewer), made by
/// pushing each game's record into a builder.
fn by_records(pgn: &[u8], visitor: &mut RecordVisitor, rows: usize) -> Vec<RecordBatch> {
    let (mut reader, mut builder, mut batches) = (Reader::new(pgn), GamesBuilder::new(), vec![]);
    loop {
        match reader.read_game(visitor) {
            Ok(false) => break,
            Ok(true) => builder.push(visitor.record()),
            Err(_) => {}
        }
        if builder.len() == rows {
            batches.push(builder.finish());
        }
    }
    batches.push(builder.finish());
    batches
}

/// The same, read straight into the columns.
fn by_columns(pgn: &[u8], visitor: &mut GamesVisitor, rows: usize) -> Vec<RecordBatch> {
    let (mut reader, mut batches) = (Reader::new(pgn), vec![]);
    while !matches!(reader.read_game(visitor), Ok(false)) {
        if visitor.len() == rows {
            batches.push(visitor.finish());
        }
    }
    batches.push(visitor.finish());
    batches
}

/// Compares the two ways column by column, naming the first that differs.
fn assert_same(direct: &[RecordBatch], records: &[RecordBatch], what: &str) {
    assert_eq!(direct.len(), records.len(), "{what}: batches");
    for (a, b) in direct.iter().zip(records) {
        assert_eq!(a.schema(), games_schema());
        for (field, (x, y)) in games_schema()
            .fields()
            .iter()
            .zip(a.columns().iter().zip(b.columns()))
        {
            assert_eq!(x, y, "{what}: column {}", field.name());
        }
    }
}

/// Every input of the test: the odd games, many Lichess-shaped ones, the
/// fuzzer's seeds of the PGN target, and all of them one after another.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs = vec![
        ("odd games".to_string(), ODD.to_vec()),
        (
            "lichess".to_string(),
            bitboards_test_support::lichess_games(500, 21),
        ),
    ];
    let seeds = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/corpus/pgn");
    for entry in std::fs::read_dir(seeds).unwrap() {
        let path = entry.unwrap().path();
        inputs.push((path.display().to_string(), std::fs::read(&path).unwrap()));
    }
    let all = inputs
        .iter()
        .flat_map(|(_, pgn)| [&pgn[..], b"\n\n"])
        .flatten()
        .copied()
        .collect();
    inputs.push(("all".to_string(), all));
    inputs
}

#[test]
fn read_straight_into_columns_as_records_are_pushed() {
    let settings: [(bool, MovetextForm, bool, bool); 5] = [
        (true, MovetextForm::File, true, true),
        (true, MovetextForm::Rewritten, true, true),
        (false, MovetextForm::File, true, true),
        (true, MovetextForm::File, false, false),
        (false, MovetextForm::Rewritten, false, true),
    ];
    for (name, pgn) in inputs() {
        for (movetext, form, uci, annotations) in settings {
            let mut record = RecordVisitor::default()
                .movetext(movetext)
                .movetext_form(form)
                .uci(uci)
                .annotations(annotations);
            let mut direct = GamesVisitor::default()
                .movetext(movetext)
                .movetext_form(form)
                .uci(uci)
                .annotations(annotations);
            // One visitor for batches of several sizes: rows after a
            // failed game, room made from the batch before.
            for rows in [1, 3, 1000] {
                let what =
                    format!("{name}, {movetext} {form:?} {uci} {annotations}, batches of {rows}");
                assert_same(
                    &by_columns(&pgn, &mut direct, rows),
                    &by_records(&pgn, &mut record, rows),
                    &what,
                );
            }
        }
    }
}

#[test]
fn the_odd_games_rows_are_what_they_say() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, Int32Type};
    let batch = &by_columns(ODD, &mut GamesVisitor::default(), 1000)[0];
    let column = |name: &str| batch.column(batch.schema().index_of(name).unwrap()).clone();
    let events = column("Event");
    let events: Vec<_> = events.as_string::<i32>().iter().collect();
    // The broken tag and the illegal move leave no row; the game without
    // movetext is one.
    assert_eq!(
        events,
        [
            Some("odd"),
            None,
            Some("stalemate"),
            Some("no result"),
            Some("\u{fffd} latin"),
            Some("no movetext")
        ]
    );
    let movetext = column("movetext");
    let movetext = movetext.as_string::<i32>();
    assert_eq!(
        movetext.value(0),
        "{ before }\n1. e4 $1 (1. d4 {x} (1. c4)) e5 {[%clk 0:01:00] [%eval #-3]} 2. -- {[%eval 0.5]} Nc6 1/2-1/2"
    );
    assert_eq!((movetext.value(3), movetext.value(5)), ("1. d4 d5", ""));
    let elo = column("WhiteElo");
    assert_eq!(
        elo.as_primitive::<Int32Type>().value(0),
        15,
        "the first tag counts"
    );
    let outcome = column("outcome");
    let outcome: Vec<_> = outcome.as_string::<i32>().iter().collect();
    assert_eq!(outcome[1..3], [Some("checkmate"), Some("stalemate")]);
    let clocks = column("clocks");
    let first = clocks.as_list::<i32>().value(0);
    assert_eq!(
        first
            .as_primitive::<Float64Type>()
            .iter()
            .collect::<Vec<_>>(),
        [None, Some(60.0), None, None]
    );
}

#[test]
fn the_tables_readers_take_the_columns_way_on_any_thread_count() {
    let pgn = bitboards_test_support::lichess_games(3000, 4);
    let expected = by_records(&pgn, &mut RecordVisitor::default(), usize::MAX);
    let expected = arrow_select::concat::concat_batches(&games_schema(), &expected).unwrap();
    for threads in [1, 2, 3] {
        for rows in [AS_BUILT, 700] {
            let mut batches = vec![];
            table::for_each_batch(
                &pgn[..],
                Some(threads),
                GamesVisitor::default,
                rows,
                |batch| batches.push(batch),
                |_, _| {},
            )
            .unwrap();
            let joined = arrow_select::concat::concat_batches(&games_schema(), &batches).unwrap();
            assert_same(
                &[joined],
                std::slice::from_ref(&expected),
                &format!("{threads} threads, rows {rows}"),
            );
        }
    }
}
