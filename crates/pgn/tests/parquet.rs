//! The Parquet files of the game and positions tables: written with the
//! encodings and statistics `ParquetWriter` chooses per column (deltas for
//! the integers that move a little from row to row, no statistics where no
//! query filters), and read back, with the parquet crate's own reader, as
//! the batches that were written.
#![cfg(feature = "parquet")]

use std::fs::File;
use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray, UInt64Array};
use arrow_schema::{DataType, Field, Schema};
use bitboards_pgn::positions::{self, PositionOptions, positions_schema};
use bitboards_pgn::table::{self, GamesVisitor, ParquetWriter};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Encoding;
use parquet::file::metadata::ParquetMetaData;

/// A file of its own for one test.
fn path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("parquet-{name}-{}.parquet", std::process::id()))
}

/// Writes `batches` of `schema` to a file, and reads the file back: its
/// metadata and its rows as one batch. The file is removed.
fn round_trip(
    name: &str,
    schema: Arc<Schema>,
    batches: &[RecordBatch],
) -> (Arc<ParquetMetaData>, RecordBatch) {
    let path = path(name);
    let mut writer = ParquetWriter::with_schema(File::create(&path).unwrap(), schema.clone())
        .expect("the file starts");
    for batch in batches {
        writer.write(batch).expect("the batch is written");
    }
    writer.close().expect("the file ends");
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).unwrap())
        .expect("the file reads");
    let metadata = reader.metadata().clone();
    let read: Vec<RecordBatch> = reader.build().unwrap().collect::<Result<_, _>>().unwrap();
    std::fs::remove_file(&path).unwrap();
    let read = arrow_select::concat::concat_batches(&schema, &read).unwrap();
    (metadata, read)
}

/// For the leaf column at `path` (`a.list.item`) of the first row group:
/// whether it holds deltas, whether it has a dictionary, and whether it
/// has statistics.
fn leaf(metadata: &ParquetMetaData, path: &str) -> (bool, bool, bool) {
    let group = metadata.row_group(0);
    let column = (0..group.num_columns())
        .map(|at| group.column(at))
        .find(|column| column.column_path().string() == path)
        .unwrap_or_else(|| panic!("no leaf {path}"));
    let encodings: Vec<Encoding> = column.encodings().collect();
    (
        encodings.contains(&Encoding::DELTA_BINARY_PACKED),
        encodings.contains(&Encoding::RLE_DICTIONARY),
        column.statistics().is_some(),
    )
}

#[test]
fn the_game_table_keeps_its_rows_with_deltas_and_without_statistics_of_list_items() {
    let pgn = bitboards_test_support::lichess_games(300, 11);
    let mut batches = Vec::new();
    table::for_each_chunk(&pgn[..], Some(2), GamesVisitor::default, |chunk| {
        batches.push(chunk.value);
    })
    .unwrap();
    let written = arrow_select::concat::concat_batches(&table::games_schema(), &batches).unwrap();
    assert_eq!(written.num_rows(), 300);
    let (metadata, read) = round_trip("games", table::games_schema(), &batches);
    assert_eq!(read, written);
    // (deltas, dictionary, statistics)
    assert_eq!(leaf(&metadata, "evals.list.item.cp"), (true, false, false));
    assert_eq!(
        leaf(&metadata, "evals.list.item.mate"),
        (false, true, false)
    );
    assert_eq!(leaf(&metadata, "uci.list.item"), (false, true, false));
    assert_eq!(leaf(&metadata, "clocks.list.item"), (false, true, false));
    assert_eq!(leaf(&metadata, "movetext"), (false, false, false));
    // Parquet's defaults elsewhere.
    assert_eq!(leaf(&metadata, "WhiteElo"), (false, true, true));
    assert_eq!(leaf(&metadata, "plies"), (false, true, true));
}

#[test]
fn the_positions_table_keeps_its_rows_with_deltas_where_integers_count_up() {
    let pgn = bitboards_test_support::lichess_games(60, 12);
    let options = PositionOptions {
        columns: vec!["TimeControl".into()],
        batch_rows: 1000,
        ..PositionOptions::default()
    };
    let schema = positions_schema(&options.columns);
    let mut batches = Vec::new();
    positions::for_each_batch(&pgn[..], &options, Some(2), 0, |batch| batches.push(batch)).unwrap();
    let written = arrow_select::concat::concat_batches(&schema, &batches).unwrap();
    assert!(written.num_rows() > 60 * 20, "{}", written.num_rows());
    let (metadata, read) = round_trip("positions", schema, &batches);
    assert_eq!(read, written);
    // The game and the ply count up and queries filter on them: deltas
    // with statistics.
    assert_eq!(leaf(&metadata, "game"), (true, false, true));
    assert_eq!(leaf(&metadata, "ply"), (true, false, true));
    assert_eq!(leaf(&metadata, "halfmove_clock"), (true, false, false));
    assert_eq!(leaf(&metadata, "fullmove_number"), (true, false, false));
    assert_eq!(leaf(&metadata, "move_eval.cp"), (true, false, false));
    assert_eq!(leaf(&metadata, "move"), (false, true, false));
    assert_eq!(leaf(&metadata, "move_clock"), (false, true, false));
    assert_eq!(
        leaf(&metadata, "bitboards.list.item"),
        (false, false, false)
    );
    assert_eq!(leaf(&metadata, "WhiteElo"), (false, true, true));
    assert_eq!(leaf(&metadata, "TimeControl"), (false, true, true));
}

/// A table of another schema whose columns have the names of ours with
/// other types: no delta where it is not an integer (Parquet would refuse
/// it), and the rows come back whole.
#[test]
fn a_column_of_the_name_but_not_an_integer_gets_no_delta() {
    let schema = Arc::new(Schema::new(vec![
        Field::new("game", DataType::Utf8, false),
        Field::new("ply", DataType::UInt64, false),
    ]));
    let games: ArrayRef = Arc::new(StringArray::from_iter_values(
        (0..500).map(|at| format!("game {}", at / 7)),
    ));
    let plies: ArrayRef = Arc::new(UInt64Array::from_iter_values(0..500));
    let batch = RecordBatch::try_new(schema.clone(), vec![games, plies]).unwrap();
    let (metadata, read) = round_trip("other", schema, std::slice::from_ref(&batch));
    assert_eq!(read, batch);
    assert_eq!(leaf(&metadata, "game"), (false, true, true));
    assert_eq!(leaf(&metadata, "ply"), (true, false, true));
}
