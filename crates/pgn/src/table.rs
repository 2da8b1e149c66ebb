//! Game tables as Arrow record batches ([`GamesBuilder`], feature `arrow`)
//! and Parquet files (`ParquetWriter`, feature `parquet`).
//!
//! The schema ([`games_schema`]) starts with the columns of the Lichess
//! open database as published on Hugging Face
//! (`Lichess/standard-chess-games`), so that the two can be queried
//! together, then has ours:
//!
//! | column | type | from |
//! | --- | --- | --- |
//! | `Event`, `Site`, `White`, `Black`, `Result`, `WhiteTitle`, `BlackTitle` | utf8 | the tag |
//! | `WhiteElo`, `BlackElo`, `WhiteRatingDiff`, `BlackRatingDiff` | int32 | the tag (`"+11"` is 11) |
//! | `UTCDate` | date32 | the tag, `2024.01.31` |
//! | `UTCTime` | time32\[ms\] | the tag, `23:59:59` |
//! | `ECO`, `Opening`, `Termination`, `TimeControl` | utf8 | the tag |
//! | `movetext` | utf8 | [`GameRecord::movetext`]: the file's movetext as it is, or written back ([`MovetextForm`](crate::record::MovetextForm)) |
//! | `plies` | int32, not null | [`GameRecord::plies`] |
//! | `fen` | utf8, not null | [`GameRecord::fen`] |
//! | `outcome` | utf8 | [`GameRecord::outcome`] |
//! | `uci` | list\<utf8\>, not null | [`GameRecord::uci`] |
//! | `clocks` | list\<float64\>, not null | [`GameRecord::clocks`] (seconds, null where absent) |
//! | `evals` | list\<struct\<cp: int32, mate: int32\>\>, not null | [`GameRecord::evals`] (null where absent) |
//!
//! The tag columns are nullable: a missing tag is null (the first tag of a
//! name counts), and so is an integer, date or time that does not parse
//! (`"?"`, `""`, `"????.??.??"`). `UTCTime` is `time32[ms]` where the
//! dataset says `time32[s]`: Parquet has no time in seconds, so pyarrow
//! stores the dataset's as milliseconds too (the same Parquet type, `TIME`
//! to DuckDB), while this crate's `parquet` would store `time32[s]` as a
//! plain integer. The Elo columns are `int32` where the dataset's are
//! `int16`.
//!
//! ```
//! use bitboards_pgn::annotations::Score;
//! use bitboards_pgn::record::GameRecord;
//! use bitboards_pgn::table::GamesBuilder;
//!
//! let mut games = GamesBuilder::new();
//! games.push(&GameRecord {
//!     tags: vec![("WhiteElo".into(), "1500".into())],
//!     movetext: "1. e4 { [%eval 0.3] } *".into(),
//!     plies: 1,
//!     fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
//!     uci: "e2e4".into(),
//!     clocks: vec![None],
//!     evals: vec![Some(Score::Cp(30))],
//!     ..GameRecord::default()
//! });
//! let batch = games.finish();
//! assert_eq!((batch.num_rows(), batch.num_columns()), (1, 24));
//! assert!(games.is_empty());
//! ```

use std::io::Read;
use std::sync::{Arc, OnceLock};

use arrow_array::builder::{Date32Builder, Int32Builder, StringBuilder, Time32MillisecondBuilder};
use arrow_array::{ArrayRef, Float64Array, ListArray, RecordBatch, StringArray};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field, FieldRef, Schema, SchemaRef, TimeUnit};

use crate::annotations::Score;
use crate::columns::{Evals, Nullable, eval_fields};
use crate::error::{PgnError, ReadError};
use crate::parallel::{Chunk, ParallelReader};
use crate::record::{
    GAME_TABLE, GameRecord, TagKind, Value, game_column, parse_date, parse_int, parse_time,
};

mod visitor;
pub use visitor::GamesVisitor;

/// The element field of the `uci` list: a move, never null.
fn uci_item() -> FieldRef {
    Arc::new(Field::new_list_field(DataType::Utf8, false))
}

/// The element field of the `clocks` list: seconds, null where absent.
fn clock_item() -> FieldRef {
    Arc::new(Field::new_list_field(DataType::Float64, true))
}

/// The element field of the `evals` list: a score, null where absent.
fn eval_item() -> FieldRef {
    Arc::new(Field::new_list_field(DataType::Struct(eval_fields()), true))
}

/// The Arrow schema of a game table: the 24 columns of
/// [`GAME_COLUMNS`](crate::record::GAME_COLUMNS) with the types of the [module](self)'s table.
///
/// ```
/// use arrow_schema::DataType;
/// use bitboards_pgn::table::games_schema;
///
/// let schema = games_schema();
/// assert_eq!(schema.fields().len(), 24);
/// assert_eq!(schema.field_with_name("UTCDate")?.data_type(), &DataType::Date32);
/// assert!(!schema.field_with_name("fen")?.is_nullable());
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[must_use]
pub fn games_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let fields = GAME_TABLE
                .iter()
                .map(|column| Field::new(column.name, data_type(column.value), column.nullable));
            Arc::new(Schema::new(fields.collect::<Vec<_>>()))
        })
        .clone()
}

/// The Arrow type of a column that holds `value`.
fn data_type(value: Value) -> DataType {
    match value {
        Value::Tag(TagKind::Text) | Value::Text(_) => DataType::Utf8,
        Value::Tag(TagKind::Int) | Value::Int(_) => DataType::Int32,
        Value::Tag(TagKind::Date) => DataType::Date32,
        Value::Tag(TagKind::Time) => DataType::Time32(TimeUnit::Millisecond),
        Value::Moves(_) => DataType::List(uci_item()),
        Value::Clocks(_) => DataType::List(clock_item()),
        Value::Evals(_) => DataType::List(eval_item()),
    }
}

/// Builds a game table row by row, straight into Arrow arrays: push
/// [`GameRecord`]s, then [`finish`](Self::finish) a [`RecordBatch`] of
/// [`games_schema`] and go on with the next batch.
///
/// Batches of a few thousand games keep memory small and are what
/// `ParquetWriter` (feature `parquet`) gathers into row groups.
#[derive(Debug)]
pub struct GamesBuilder {
    /// One builder per column of the game table, in its order.
    columns: Vec<ColumnBuilder>,
    /// The rows pushed since the last batch.
    rows: usize,
    /// Room for the next batch, made at its first row: what the last
    /// batch held.
    room: Option<Room>,
}

/// The builder of one column, of the kind its [`Value`] says, with where
/// its values come from.
#[derive(Debug)]
enum ColumnBuilder {
    /// A tag's text (the record's tag values are found in one pass for all
    /// the tag columns: `at` is this column's place among them).
    TagText(usize, StringBuilder),
    TagInt(usize, Int32Builder),
    TagDate(usize, Date32Builder),
    TagTime(usize, Time32MillisecondBuilder),
    Text(fn(&GameRecord) -> Option<&str>, StringBuilder),
    Int(fn(&GameRecord) -> u32, Int32Builder),
    Moves(fn(&GameRecord) -> &str, UciColumn),
    Clocks(fn(&GameRecord) -> &[Option<f64>], ClockColumn),
    Evals(fn(&GameRecord) -> &[Option<Score>], EvalColumn),
}

/// How much one column's next batch makes room for besides its rows: the
/// bytes of its text, or the items and bytes of its lists.
#[derive(Debug, Clone, Copy, Default)]
struct ColumnRoom {
    items: usize,
    bytes: usize,
}

impl ColumnBuilder {
    /// The builder of column `at` of the game table, `value` its
    /// declaration, with room for `rows` rows and `room` more.
    fn new(at: usize, value: Value, rows: usize, room: ColumnRoom) -> ColumnBuilder {
        let text = || StringBuilder::with_capacity(rows, room.bytes);
        match value {
            Value::Tag(TagKind::Text) => ColumnBuilder::TagText(at, text()),
            Value::Tag(TagKind::Int) => {
                ColumnBuilder::TagInt(at, Int32Builder::with_capacity(rows))
            }
            Value::Tag(TagKind::Date) => {
                ColumnBuilder::TagDate(at, Date32Builder::with_capacity(rows))
            }
            Value::Tag(TagKind::Time) => {
                ColumnBuilder::TagTime(at, Time32MillisecondBuilder::with_capacity(rows))
            }
            Value::Text(get) => ColumnBuilder::Text(get, text()),
            Value::Int(get) => ColumnBuilder::Int(get, Int32Builder::with_capacity(rows)),
            Value::Moves(get) => {
                ColumnBuilder::Moves(get, UciColumn::with_capacity(rows, room.items, room.bytes))
            }
            Value::Clocks(get) => {
                ColumnBuilder::Clocks(get, ClockColumn::with_capacity(rows, room.items))
            }
            Value::Evals(get) => {
                ColumnBuilder::Evals(get, EvalColumn::with_capacity(rows, room.items))
            }
        }
    }

    /// Appends the row's value of this column, column `at` of the table;
    /// `tags` are the row's tag columns' texts.
    #[inline]
    fn push(&mut self, at: usize, row: Row<'_>, tags: &[Option<&str>]) {
        match self {
            ColumnBuilder::TagText(at, builder) => builder.append_option(tags[*at]),
            ColumnBuilder::TagInt(at, builder) => {
                builder.append_option(tags[*at].and_then(parse_int));
            }
            ColumnBuilder::TagDate(at, builder) => {
                builder.append_option(tags[*at].and_then(parse_date));
            }
            ColumnBuilder::TagTime(at, builder) => builder.append_option(
                tags[*at]
                    .and_then(parse_time)
                    .map(|seconds| seconds as i32 * 1000),
            ),
            ColumnBuilder::Text(get, builder) => match row {
                Row::Record(record) => builder.append_option(get(record)),
                Row::Read(read) => match at {
                    MOVETEXT => {} // appended as it came
                    FEN => builder.append_value(read.fen),
                    OUTCOME => builder.append_option(read.outcome),
                    // A text column a read game does not fill (the
                    // tests compare both ways of every column).
                    _ => builder.append_null(),
                },
            },
            ColumnBuilder::Int(get, builder) => {
                let count = match row {
                    Row::Record(record) => get(record),
                    Row::Read(read) => read.plies,
                };
                builder.append_value(i32::try_from(count).unwrap_or(i32::MAX));
            }
            ColumnBuilder::Moves(get, column) => match row {
                Row::Record(record) => column.push(get(record)),
                Row::Read(_) => column.end_row(),
            },
            ColumnBuilder::Clocks(get, column) => match row {
                Row::Record(record) => column.push(get(record)),
                Row::Read(_) => column.games.end_row(column.seconds.values.len()),
            },
            ColumnBuilder::Evals(get, column) => match row {
                Row::Record(record) => column.push(get(record)),
                Row::Read(_) => column.games.end_row(column.scores.valid.len()),
            },
        }
    }

    /// Drops the list items appended since the last row ended (of a game
    /// that failed after its first moves).
    fn drop_open_items(&mut self) {
        match self {
            ColumnBuilder::Moves(_, column) => {
                let moves = column.games.last();
                column.moves.0.truncate(moves + 1);
                column.bytes.truncate(column.moves.last());
            }
            ColumnBuilder::Clocks(_, column) => column.seconds.truncate(column.games.last()),
            ColumnBuilder::Evals(_, column) => column.scores.truncate(column.games.last()),
            _ => {}
        }
    }

    /// What the next batch makes room for, for a batch like this one and a
    /// little more.
    fn room(&self) -> ColumnRoom {
        let bytes = |builder: &StringBuilder| more(builder.values_slice().len());
        match self {
            ColumnBuilder::TagText(_, builder) | ColumnBuilder::Text(_, builder) => ColumnRoom {
                items: 0,
                bytes: bytes(builder),
            },
            ColumnBuilder::Moves(_, column) => ColumnRoom {
                items: more(column.moves.0.len()),
                bytes: more(column.bytes.len()),
            },
            ColumnBuilder::Clocks(_, column) => ColumnRoom {
                items: more(column.seconds.values.len()),
                bytes: 0,
            },
            ColumnBuilder::Evals(_, column) => ColumnRoom {
                items: more(column.scores.valid.len()),
                bytes: 0,
            },
            ColumnBuilder::TagInt(..)
            | ColumnBuilder::TagDate(..)
            | ColumnBuilder::TagTime(..)
            | ColumnBuilder::Int(..) => ColumnRoom::default(),
        }
    }

    /// The values pushed as an array, and a fresh start.
    fn finish(&mut self) -> ArrayRef {
        match self {
            ColumnBuilder::TagText(_, builder) | ColumnBuilder::Text(_, builder) => {
                Arc::new(builder.finish())
            }
            ColumnBuilder::TagInt(_, builder) | ColumnBuilder::Int(_, builder) => {
                Arc::new(builder.finish())
            }
            ColumnBuilder::TagDate(_, builder) => Arc::new(builder.finish()),
            ColumnBuilder::TagTime(_, builder) => Arc::new(builder.finish()),
            ColumnBuilder::Moves(_, column) => Arc::new(column.finish()),
            ColumnBuilder::Clocks(_, column) => Arc::new(column.finish()),
            ColumnBuilder::Evals(_, column) => Arc::new(column.finish()),
        }
    }
}

/// `len` and an eighth more, for a batch a little larger than the last.
fn more(len: usize) -> usize {
    len + len / 8 + 16
}

/// Where each row's items end in a list column's values, after a leading
/// zero: the list's offsets, written as the rows come.
#[derive(Debug)]
struct RowEnds(Vec<i32>);

impl RowEnds {
    /// Room for `rows` rows.
    fn with_capacity(rows: usize) -> RowEnds {
        let mut ends = Vec::with_capacity(rows + 1);
        ends.push(0);
        RowEnds(ends)
    }

    /// Ends the row at `items` values. Batches stay far below `i32::MAX`
    /// items (a chunk's games; five bytes a move for `uci`).
    fn end_row(&mut self, items: usize) {
        self.0
            .push(i32::try_from(items).expect("a batch's list items fit in i32 offsets"));
    }

    /// Where the last row ended (0 before the first).
    fn last(&self) -> usize {
        self.0.last().map_or(0, |&end| end as usize)
    }

    /// The offsets, and a fresh start for the next batch.
    fn finish(&mut self) -> OffsetBuffer<i32> {
        let ends = core::mem::replace(self, RowEnds::with_capacity(0)).0;
        OffsetBuffer::new(ScalarBuffer::from(ends))
    }
}

/// The `uci` column as its buffers: the moves' bytes, where each move ends
/// and where each game's moves end. One copy per move, where a
/// `ListBuilder<StringBuilder>` paid a builder call with its checks.
#[derive(Debug)]
struct UciColumn {
    bytes: Vec<u8>,
    moves: RowEnds,
    games: RowEnds,
}

impl UciColumn {
    /// Room for `moves` moves of `bytes` bytes in `rows` rows.
    fn with_capacity(rows: usize, moves: usize, bytes: usize) -> UciColumn {
        UciColumn {
            bytes: Vec::with_capacity(bytes),
            moves: RowEnds::with_capacity(moves),
            games: RowEnds::with_capacity(rows),
        }
    }

    /// Appends a row of moves in UCI separated by spaces.
    fn push(&mut self, moves: &str) {
        for mv in moves.split_ascii_whitespace() {
            self.bytes.extend_from_slice(mv.as_bytes());
            self.moves.end_row(self.bytes.len());
        }
        self.end_row();
    }

    /// Appends a move to the row being written.
    #[inline]
    fn push_move(&mut self, mv: bitboards::Uci) {
        let (text, len) = mv.ascii();
        self.bytes.extend_from_slice(&text[..len]);
        self.moves.end_row(self.bytes.len());
    }

    /// Ends the row being written, after the moves pushed since the last.
    fn end_row(&mut self) {
        self.games.end_row(self.moves.0.len() - 1);
    }

    fn finish(&mut self) -> ListArray {
        let bytes = Buffer::from_vec(core::mem::take(&mut self.bytes));
        let moves = StringArray::try_new(self.moves.finish(), bytes, None)
            .expect("whole moves of UTF-8 text");
        ListArray::try_new(uci_item(), self.games.finish(), Arc::new(moves), None)
            .expect("the moves match the list's field")
    }
}

/// The `clocks` column as its buffers: the seconds and where each game's
/// end.
#[derive(Debug)]
struct ClockColumn {
    seconds: Nullable<f64>,
    games: RowEnds,
}

impl ClockColumn {
    fn with_capacity(rows: usize, clocks: usize) -> ClockColumn {
        ClockColumn {
            seconds: Nullable::with_capacity(clocks),
            games: RowEnds::with_capacity(rows),
        }
    }

    fn push(&mut self, clocks: &[Option<f64>]) {
        self.seconds.extend(clocks.iter().copied());
        self.games.end_row(self.seconds.values.len());
    }

    fn finish(&mut self) -> ListArray {
        let (seconds, valid) = self.seconds.take(0);
        let seconds = Float64Array::new(seconds, valid);
        ListArray::try_new(clock_item(), self.games.finish(), Arc::new(seconds), None)
            .expect("the clocks match the list's field")
    }
}

/// The `evals` column as its buffers: the scores ([`Evals`]) and where
/// each game's end.
#[derive(Debug)]
struct EvalColumn {
    scores: Evals,
    games: RowEnds,
}

impl EvalColumn {
    fn with_capacity(rows: usize, evals: usize) -> EvalColumn {
        EvalColumn {
            scores: Evals::with_capacity(evals),
            games: RowEnds::with_capacity(rows),
        }
    }

    fn push(&mut self, evals: &[Option<Score>]) {
        self.scores.extend(evals.iter().copied());
        self.games.end_row(self.scores.valid.len());
    }

    fn finish(&mut self) -> ListArray {
        let scores = self.scores.take(0);
        ListArray::try_new(eval_item(), self.games.finish(), Arc::new(scores), None)
            .expect("the evals match the list's field")
    }
}

impl Default for GamesBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl GamesBuilder {
    /// An empty builder.
    #[must_use]
    pub fn new() -> Self {
        Self::with_room(&Room::default())
    }

    /// An empty builder with the room `room` gives.
    fn with_room(room: &Room) -> Self {
        let columns = GAME_TABLE
            .iter()
            .enumerate()
            .map(|(at, column)| {
                let extra = room.columns.get(at).copied().unwrap_or_default();
                ColumnBuilder::new(at, column.value, room.rows, extra)
            })
            .collect();
        Self {
            columns,
            rows: 0,
            room: None,
        }
    }

    /// The room for a batch like the one built so far, and a little more.
    fn room(&self) -> Room {
        Room {
            rows: more(self.rows),
            columns: self.columns.iter().map(ColumnBuilder::room).collect(),
        }
    }

    /// Appends one game as one row.
    ///
    /// `plies` above `i32::MAX` (no real game) is written as `i32::MAX`.
    ///
    /// # Panics
    /// When one column of the batch outgrows Arrow's 32-bit offsets (over
    /// 2 GiB of text, or `i32::MAX` list items), as Arrow's own builders
    /// do: [`finish`](Self::finish) batches of bounded size, as the readers
    /// here do (a chunk's games, or the rows asked for).
    pub fn push(&mut self, record: &GameRecord) {
        self.ready();
        self.end_row(Row::Record(record), &record.tag_values());
    }

    /// Makes the room for a batch at its first row (a game read straight
    /// into the builder calls it before its first move).
    fn ready(&mut self) {
        if let Some(room) = self.room.take() {
            *self = Self::with_room(&room);
        }
    }

    /// Appends `row`'s values to every column but the lists of a game
    /// read straight into the builder (appended as it was read), and ends
    /// the row; `tags` are its tag columns' texts.
    fn end_row(&mut self, row: Row<'_>, tags: &[Option<&str>; GAME_TABLE.len()]) {
        for (at, column) in self.columns.iter_mut().enumerate() {
            column.push(at, row, tags);
        }
        self.rows += 1;
    }

    /// Drops what a game read straight into the builder appended before it
    /// failed: its moves, clocks and evals.
    fn drop_open_row(&mut self) {
        self.columns
            .iter_mut()
            .for_each(ColumnBuilder::drop_open_items);
    }

    /// The `uci`, `clocks` and `evals` columns, for a game read straight
    /// into them.
    #[inline]
    fn lists(&mut self) -> (&mut UciColumn, &mut ClockColumn, &mut EvalColumn) {
        match self.columns.get_disjoint_mut([UCI, CLOCKS, EVALS]) {
            Ok(
                [
                    ColumnBuilder::Moves(_, uci),
                    ColumnBuilder::Clocks(_, clocks),
                    ColumnBuilder::Evals(_, evals),
                ],
            ) => (uci, clocks, evals),
            _ => unreachable!("`uci`, `clocks` and `evals` are the game table's lists"),
        }
    }

    /// Appends a game's movetext to its column as it comes, before the
    /// rest of its row.
    fn push_movetext(&mut self, text: &str) {
        if let ColumnBuilder::Text(_, builder) = &mut self.columns[MOVETEXT] {
            builder.append_value(text);
        }
    }

    /// The number of rows pushed since the last [`finish`](Self::finish).
    #[must_use]
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was pushed since the last [`finish`](Self::finish).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The rows pushed so far as a [`RecordBatch`] of [`games_schema`]; the
    /// builder is then empty, ready for the next batch. Its first row makes
    /// room for a batch like this one, so that batches of one size (a
    /// chunk's games) are written without growing their buffers.
    pub fn finish(&mut self) -> RecordBatch {
        let room = self.room();
        let columns: Vec<ArrayRef> = self.columns.iter_mut().map(ColumnBuilder::finish).collect();
        self.rows = 0;
        self.room = Some(room);
        RecordBatch::try_new(games_schema(), columns).expect("the builders match the schema")
    }
}

/// Where `movetext`, `fen`, `outcome` and the lists are in the game table.
const MOVETEXT: usize = game_column("movetext");
const FEN: usize = game_column("fen");
const OUTCOME: usize = game_column("outcome");
const UCI: usize = game_column("uci");
const CLOCKS: usize = game_column("clocks");
const EVALS: usize = game_column("evals");

/// Where a row's values come from: a [`GameRecord`], or a game read
/// straight into the builder ([`GamesVisitor`]), whose movetext and lists
/// are in their columns already.
#[derive(Clone, Copy)]
enum Row<'a> {
    Record(&'a GameRecord),
    Read(&'a ReadRow<'a>),
}

/// The values of a game read straight into the builder besides its tags,
/// movetext and lists: what it learns at its end.
struct ReadRow<'a> {
    plies: u32,
    fen: &'a str,
    outcome: Option<&'a str>,
}

/// How much a [`GamesBuilder`]'s next batch makes room for: a little more
/// than the last batch held, so that a batch like it (a chunk of the same
/// size) is written without growing its buffers.
#[derive(Debug, Clone, Default)]
struct Room {
    rows: usize,
    /// Per column, in the table's order (none for a fresh builder).
    columns: Vec<ColumnRoom>,
}

/// Reads every game of `input` (decompressed already) into the game
/// table on `threads` threads (all cores when None): each chunk of the
/// input (1 MiB on one or two threads, down to 256 KiB on eight or more)
/// becomes one record batch, built on the worker that read it with the
/// [`GamesVisitor`] that `visitor` makes, and `each` gets the chunks in
/// input order, with the errors of the games that failed (left out of the
/// batch). Join the batches with a [`Rebatcher`] where they should be
/// larger than a chunk's games.
///
/// ```
/// use bitboards_pgn::table::{self, GamesVisitor};
///
/// let pgn = "[White \"A\"]\n\n1. e4 e5 *\n\n[White \"B\"]\n\n1. e4 Ke7 *\n\n".repeat(500);
/// let (mut rows, mut failed) = (0, 0);
/// table::for_each_chunk(pgn.as_bytes(), Some(2), GamesVisitor::default, |chunk| {
///     rows += chunk.value.num_rows();
///     failed += chunk.errors.len();
/// })?;
/// assert_eq!((rows, failed), (500, 500));
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
///
/// # Errors
/// As [`ParallelReader::for_each`]'s.
pub fn for_each_chunk(
    input: impl Read + Send,
    threads: Option<usize>,
    visitor: impl Fn() -> GamesVisitor + Sync,
    each: impl FnMut(Chunk<RecordBatch>),
) -> Result<(), ReadError> {
    for_each_chunk_of(
        ParallelReader::new(input).threads_or_default(threads),
        visitor,
        each,
    )
}

/// [`for_each_chunk`] with a reader of the caller's, on its threads: one
/// over text held in memory ([`ParallelReader::in_memory`]), or one that
/// reports or stops the reading ([`ParallelReader::on_cut`]). The chunk
/// size is set here, as `for_each_chunk` sets it.
///
/// ```
/// use bitboards_pgn::ParallelReader;
/// use bitboards_pgn::table::{self, GamesVisitor};
///
/// let pgn = "[White \"A\"]\n\n1. e4 e5 *\n\n".repeat(500).into_bytes();
/// let mut rows = 0;
/// table::for_each_chunk_of(ParallelReader::in_memory(pgn).threads(2), GamesVisitor::default, |chunk| {
///     rows += chunk.value.num_rows();
/// })?;
/// assert_eq!(rows, 500);
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
///
/// # Errors
/// As [`ParallelReader::for_each`]'s.
pub fn for_each_chunk_of<R: Read + Send>(
    reader: ParallelReader<R>,
    visitor: impl Fn() -> GamesVisitor + Sync,
    each: impl FnMut(Chunk<RecordBatch>),
) -> Result<(), ReadError> {
    let chunk = batch_chunk(reader.thread_count());
    chunks(reader.chunk_size(chunk), visitor, each)
}

/// The size of the chunks [`for_each_chunk`] cuts on `threads` threads.
/// Each chunk is a record batch, and whoever takes the batches pays a
/// fixed cost for each (pyarrow's import through the C stream interface),
/// so these chunks are larger than the reader's own: 1 MiB on two threads,
/// where smaller ones left the import of many batches on the calling
/// thread (docs/performance.md, "A table on two threads, chunk by chunk").
/// On more threads they shrink back towards 256 KiB, so that every thread
/// still reads as many: the wait for the last chunk grows with its size.
fn batch_chunk(threads: usize) -> usize {
    ((2 << 20) / threads).clamp(256 << 10, 1 << 20)
}

/// [`for_each_chunk`] with `reader`.
fn chunks<R: Read + Send>(
    reader: ParallelReader<R>,
    visitor: impl Fn() -> GamesVisitor + Sync,
    each: impl FnMut(Chunk<RecordBatch>),
) -> Result<(), ReadError> {
    // Each game's row is in the visitor's columns once read; one that
    // failed leaves none.
    reader.for_each_visited_chunk(
        || (visitor(), ()),
        |_, (), _, _| {},
        |visitor, ()| visitor.finish(),
        each,
    )
}

/// `rows` of [`for_each_batch`] (and [`PositionOptions::batch_rows`]) for
/// the batches as the workers built them, one per chunk of the input: for
/// a caller that takes every batch into one table, where joining them into
/// batches of a set size would only copy them (3% of `read_positions`), or
/// that writes them to Parquet (a fifth of the reading thread's time of
/// `bitboards pgn --rows positions` went into joining them into batches of
/// 65,536 rows; `--to parquet` is faster with them on one thread and on
/// two: docs/performance.md, "Games as built"). The chunks are of one
/// size whatever the thread count, so that the batches, and the pages of
/// a Parquet file written from them, are the same.
///
/// [`PositionOptions::batch_rows`]: crate::positions::PositionOptions::batch_rows
pub const AS_BUILT: usize = usize::MAX;

/// The bytes of input of a batch of games with [`AS_BUILT`]: of 256 KiB,
/// 512 KiB, 1 MiB and 2 MiB, the fastest `--to parquet` on one thread and
/// on two (docs/performance.md, "Games as built").
pub const AS_BUILT_CHUNK: usize = 1 << 20;

/// Reads every game of `input` (decompressed already) into the game
/// table on `threads` threads (all cores when None), with the
/// [`GamesVisitor`]s that `visitor` makes, and hands `each` the record
/// batches in input order, `rows` rows each (the last one fewer); `tally`
/// hears of the games as they are read: how many, and the errors of those
/// that failed (left out of the table).
///
/// On several threads each chunk's rows are built where the chunk is read
/// ([`for_each_chunk`]) and joined on the calling thread by a
/// [`Rebatcher`]; on one, the games go straight into one builder, which
/// copies less. With `rows` [`AS_BUILT`], each chunk of [`AS_BUILT_CHUNK`]
/// bytes is one batch, as built, on any number of threads (on one, on the
/// calling thread).
///
/// ```
/// use bitboards_pgn::table::{self, AS_BUILT, GamesVisitor};
///
/// let pgn = "[White \"A\"]\n\n1. e4 e5 *\n\n[White \"B\"]\n\n1. e4 Ke7 *\n\n".repeat(500);
/// for threads in [1, 2] {
///     let (mut sizes, mut games, mut failed) = (Vec::new(), 0, 0);
///     table::for_each_batch(pgn.as_bytes(), Some(threads), GamesVisitor::default, 200,
///         |batch| sizes.push(batch.num_rows()),
///         |count, errors| (games, failed) = (games + count, failed + errors.len()),
///     )?;
///     assert_eq!((sizes, games, failed), (vec![200, 200, 100], 1000, 500));
///     // The input is less than a chunk: one batch of every game that read.
///     let mut sizes = Vec::new();
///     table::for_each_batch(pgn.as_bytes(), Some(threads), GamesVisitor::default, AS_BUILT,
///         |batch| sizes.push(batch.num_rows()), |_, _| {})?;
///     assert_eq!(sizes, [500]);
/// }
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
///
/// # Errors
/// As [`ParallelReader::for_each`]'s, and [`ReadError::Io`] should the
/// batches not join (they are of one schema: never).
pub fn for_each_batch(
    input: impl Read + Send,
    threads: Option<usize>,
    visitor: impl Fn() -> GamesVisitor + Sync,
    rows: usize,
    each: impl FnMut(RecordBatch),
    tally: impl FnMut(usize, Vec<PgnError>),
) -> Result<(), ReadError> {
    for_each_batch_of(
        ParallelReader::new(input).threads_or_default(threads),
        visitor,
        rows,
        each,
        tally,
    )
}

/// [`for_each_batch`] with a reader of the caller's, on its threads: one
/// over text held in memory ([`ParallelReader::in_memory`]), or one that
/// reports or stops the reading ([`ParallelReader::on_cut`]). On one
/// thread the games are read one by one, as `for_each_batch` reads them;
/// with [`AS_BUILT`] the chunks, and so the batches, are the same as
/// `for_each_batch`'s.
///
/// ```
/// use bitboards_pgn::ParallelReader;
/// use bitboards_pgn::table::{self, AS_BUILT, GamesVisitor};
///
/// let pgn = "[White \"A\"]\n\n1. e4 e5 *\n\n".repeat(500);
/// let (mut held, mut streamed) = (Vec::new(), Vec::new());
/// let reader = ParallelReader::in_memory(pgn.clone().into_bytes()).threads(1);
/// table::for_each_batch_of(reader, GamesVisitor::default, AS_BUILT, |batch| held.push(batch), |_, _| {})?;
/// table::for_each_batch(pgn.as_bytes(), Some(2), GamesVisitor::default, AS_BUILT, |batch| streamed.push(batch), |_, _| {})?;
/// assert_eq!(held, streamed);
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
///
/// # Errors
/// As [`for_each_batch`]'s.
pub fn for_each_batch_of<R: Read + Send>(
    mut reader: ParallelReader<R>,
    visitor: impl Fn() -> GamesVisitor + Sync,
    rows: usize,
    mut each: impl FnMut(RecordBatch),
    mut tally: impl FnMut(usize, Vec<PgnError>),
) -> Result<(), ReadError> {
    if rows == AS_BUILT {
        reader = reader.chunk_size(AS_BUILT_CHUNK);
    } else if reader.thread_count() == 1 {
        let mut reader = reader.one_by_one();
        let mut visitor = visitor();
        loop {
            match reader.read_next(&mut visitor) {
                Ok(true) => {
                    tally(1, Vec::new());
                    if visitor.len() >= rows.max(1) {
                        each(visitor.finish());
                    }
                }
                Ok(false) => break,
                Err(ReadError::Game(error)) => tally(1, vec![error]),
                Err(error) => return Err(error),
            }
        }
        if !visitor.is_empty() {
            each(visitor.finish());
        }
        return Ok(());
    }
    joined_chunks(reader, visitor, rows, each, tally)
}

/// [`for_each_batch`] chunk by chunk: each chunk's rows built where it is
/// read, joined into batches of `rows` rows.
fn joined_chunks<R: Read + Send>(
    reader: ParallelReader<R>,
    visitor: impl Fn() -> GamesVisitor + Sync,
    rows: usize,
    each: impl FnMut(RecordBatch),
    mut tally: impl FnMut(usize, Vec<PgnError>),
) -> Result<(), ReadError> {
    let mut joined = JoinInto::new(rows, each);
    chunks(reader, visitor, |chunk| {
        tally(chunk.games, chunk.errors);
        joined.push(Ok(chunk.value));
    })?;
    joined
        .finish()
        .map_err(|error| ReadError::Io(std::io::Error::other(error)))
}

/// Joins record batches of one schema (one per chunk of the input, say)
/// into batches of exactly `rows` rows each, the last one of the input
/// excepted. A batch longer than that is cut (without copying); shorter
/// ones are copied into one.
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{Int32Array, RecordBatch};
/// use bitboards_pgn::table::Rebatcher;
///
/// let batch = |n: i32| RecordBatch::try_from_iter([("x", Arc::new(Int32Array::from_iter_values(0..n)) as _)]).unwrap();
/// let mut joined = Rebatcher::new(100);
/// let mut sizes = Vec::new();
/// for n in [30, 30, 30, 30, 250, 7] {
///     sizes.extend(joined.push(batch(n))?.iter().map(RecordBatch::num_rows));
/// }
/// sizes.extend(joined.finish()?.iter().map(RecordBatch::num_rows));
/// assert_eq!(sizes, [100, 100, 100, 77]);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
#[derive(Debug)]
pub struct Rebatcher {
    rows: usize,
    pending: Vec<RecordBatch>,
    pending_rows: usize,
}

impl Rebatcher {
    /// Batches of `rows` rows (at least one).
    #[must_use]
    pub fn new(rows: usize) -> Rebatcher {
        Rebatcher {
            rows: rows.max(1),
            pending: Vec::new(),
            pending_rows: 0,
        }
    }

    /// Adds `batch`; the batches of `rows` rows that are complete now.
    ///
    /// Only the rows that complete a batch begun by earlier ones are
    /// copied (those and the earlier ones, fewer than `rows` each time);
    /// the rest of `batch` is cut into slices of it, so that batches larger
    /// than `rows` pass through with at most one seam copied each.
    ///
    /// # Errors
    /// A batch whose schema is not the first one's.
    pub fn push(&mut self, batch: RecordBatch) -> Result<Vec<RecordBatch>, ArrowError> {
        let mut out = Vec::new();
        let mut rest = batch;
        if self.pending_rows > 0 && rest.num_rows() > 0 {
            let head = rest.num_rows().min(self.rows - self.pending_rows);
            self.pending.push(rest.slice(0, head));
            self.pending_rows += head;
            rest = rest.slice(head, rest.num_rows() - head);
            if self.pending_rows < self.rows {
                return Ok(out);
            }
            out.push(self.join()?);
            self.pending_rows = 0;
        }
        let mut at = 0;
        while rest.num_rows() - at >= self.rows {
            out.push(rest.slice(at, self.rows));
            at += self.rows;
        }
        if at < rest.num_rows() {
            self.pending_rows = rest.num_rows() - at;
            self.pending.push(rest.slice(at, self.pending_rows));
        }
        Ok(out)
    }

    /// The rows left, as one batch (None when no row is left).
    ///
    /// # Errors
    /// A batch whose schema is not the first one's.
    pub fn finish(&mut self) -> Result<Option<RecordBatch>, ArrowError> {
        if self.pending.is_empty() {
            return Ok(None);
        }
        self.pending_rows = 0;
        self.join().map(Some)
    }

    /// The pending batches as one, leaving none pending.
    fn join(&mut self) -> Result<RecordBatch, ArrowError> {
        let joined = match self.pending.len() {
            1 => self.pending[0].clone(),
            _ => arrow_select::concat::concat_batches(&self.pending[0].schema(), &self.pending)?,
        };
        self.pending.clear();
        Ok(joined)
    }
}

/// A [`Rebatcher`] that hands each batch it completes to `each`, and keeps
/// the first error (a batch that would not join, or one that failed to be
/// made) for [`finish`](Self::finish).
pub(crate) struct JoinInto<F> {
    /// `None`: every batch handed on as it comes (but empty ones).
    joined: Option<Rebatcher>,
    each: F,
    error: Option<ArrowError>,
}

impl<F: FnMut(RecordBatch)> JoinInto<F> {
    /// Batches of `rows` rows for `each`, or with `usize::MAX` the batches
    /// as they come.
    pub(crate) fn new(rows: usize, each: F) -> JoinInto<F> {
        JoinInto {
            joined: (rows != usize::MAX).then(|| Rebatcher::new(rows)),
            each,
            error: None,
        }
    }

    /// Adds `batch`, handing on the batches it completes.
    pub(crate) fn push(&mut self, batch: Result<RecordBatch, ArrowError>) {
        let full = batch.and_then(|batch| match &mut self.joined {
            Some(joined) => joined.push(batch),
            None => Ok((batch.num_rows() > 0)
                .then_some(batch)
                .into_iter()
                .collect()),
        });
        match full {
            Ok(full) => full.into_iter().for_each(&mut self.each),
            Err(error) => self.error = self.error.take().or(Some(error)),
        }
    }

    /// Hands on the rows left; the first error, if any.
    pub(crate) fn finish(mut self) -> Result<(), ArrowError> {
        let last = self.joined.as_mut().map_or(Ok(None), Rebatcher::finish);
        if let Some(error) = self.error {
            return Err(error);
        }
        last?.into_iter().for_each(self.each);
        Ok(())
    }
}

#[cfg(feature = "parquet")]
pub use parquet_writer::{BackgroundWriter, PageCompression, ParquetOptions, ParquetWriter};

#[cfg(feature = "parquet")]
mod parquet_writer;

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Date32Type, Float64Type, Int32Type, Time32MillisecondType};
    use arrow_array::{Array, Int32Array, ListArray};
    #[cfg(feature = "parquet")]
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    #[test]
    fn rebatcher_cuts_large_batches_and_copies_only_seams() {
        let numbers = |from: i32, count: usize| {
            let values = Int32Array::from_iter_values(from..from + count as i32);
            RecordBatch::try_from_iter([("x", Arc::new(values) as ArrayRef)]).unwrap()
        };
        // Sizes below, at and above the batch size, in an order that leaves
        // every kind of remainder.
        let sizes = [0, 3, 100, 250, 7, 1, 99, 100, 333, 64, 0, 2, 1000, 5];
        for rows in [1, 7, 64, 100, 128] {
            let mut joined = Rebatcher::new(rows);
            let (mut out, mut next) = (Vec::new(), 0);
            for &size in &sizes {
                let batch = numbers(next, size);
                let input = batch
                    .column(0)
                    .as_primitive::<Int32Type>()
                    .values()
                    .as_ptr();
                for made in joined.push(batch).unwrap() {
                    // A batch of whole rows of this input is a slice of it.
                    let first = made.column(0).as_primitive::<Int32Type>().value(0);
                    if first >= next {
                        let at = made.column(0).as_primitive::<Int32Type>().values().as_ptr();
                        assert_eq!(
                            at,
                            input.wrapping_add((first - next) as usize),
                            "{rows}: copied"
                        );
                    }
                    out.push(made);
                }
                next += size as i32;
            }
            out.extend(joined.finish().unwrap());
            let counts: Vec<usize> = out.iter().map(RecordBatch::num_rows).collect();
            let total = next as usize;
            let mut expected = vec![rows; total / rows];
            if !total.is_multiple_of(rows) {
                expected.push(total % rows);
            }
            assert_eq!(counts, expected, "{rows}");
            let values: Vec<i32> = out
                .iter()
                .flat_map(|batch| {
                    batch
                        .column(0)
                        .as_primitive::<Int32Type>()
                        .values()
                        .to_vec()
                })
                .collect();
            assert_eq!(values, (0..next).collect::<Vec<_>>(), "{rows}");
        }
    }

    fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|&(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    /// A Lichess game with every tag the database has, a missing Elo, and
    /// clocks and evals with gaps.
    fn lichess() -> GameRecord {
        GameRecord {
            tags: tags(&[
                ("Event", "Rated Blitz game"),
                ("Site", "https://lichess.org/abcd"),
                ("Date", "2024.01.31"),
                ("Round", "-"),
                ("White", "alice"),
                ("Black", "bob"),
                ("Result", "0-1"),
                ("UTCDate", "2024.01.31"),
                ("UTCTime", "23:59:59"),
                ("WhiteElo", "1500"),
                ("BlackElo", "?"),
                ("WhiteRatingDiff", "-6"),
                ("BlackRatingDiff", "+6"),
                ("BlackTitle", "BOT"),
                ("Variant", "Standard"),
                ("TimeControl", "180+2"),
                ("ECO", "C20"),
                ("Opening", "King's Pawn Game: Wayward Queen Attack"),
                ("Termination", "Normal"),
            ]),
            movetext: "1. e4 { [%eval 0.3] [%clk 0:03:00] } 1... e5 { [%clk 0:02:59.5] } \
                       2. Qh5 { [%eval #-3] } 0-1"
                .into(),
            plies: 3,
            fen: "rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2".into(),
            outcome: None,
            uci: "e2e4 e7e5 d1h5".into(),
            clocks: vec![Some(180.0), Some(179.5), None],
            evals: vec![Some(Score::Cp(30)), None, Some(Score::Mate(-3))],
        }
    }

    /// No tags at all, no moves.
    fn bare() -> GameRecord {
        GameRecord {
            movetext: "*".into(),
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            ..GameRecord::default()
        }
    }

    /// Unicode, commas and quotes; tags present but unparsable; a tag twice.
    fn odd() -> GameRecord {
        GameRecord {
            tags: tags(&[
                ("White", "Müller, Jörg"),
                ("Black", "Smith \"The Hammer\" 王"),
                ("Black", "second Black"),
                ("Result", "1/2-1/2"),
                ("WhiteElo", ""),
                ("BlackElo", "2100"),
                ("WhiteRatingDiff", "12x"),
                ("UTCDate", "????.??.??"),
                ("UTCTime", "25:00:00"),
                ("ECO", ""),
                ("Opening", "\"quoted\", with a comma"),
            ]),
            movetext: "1. d4 { a \"quote\", a comma }\n1/2-1/2".into(),
            plies: 1,
            fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            outcome: Some("stalemate".into()),
            uci: "d2d4".into(),
            clocks: vec![Some(0.25)],
            evals: vec![Some(Score::Mate(3))],
        }
    }

    /// Writes `records` as Parquet (two batches, to test reuse) and reads
    /// the file back as one batch.
    #[cfg(feature = "parquet")]
    fn round_trip(records: &[GameRecord]) -> RecordBatch {
        round_trip_with(records, ParquetOptions::default()).0
    }

    /// [`round_trip`] with `options`, and the row groups' sizes and
    /// compression as the file's footer gives them.
    #[cfg(feature = "parquet")]
    fn round_trip_with(
        records: &[GameRecord],
        options: ParquetOptions,
    ) -> (RecordBatch, Vec<i64>, Vec<parquet::basic::Compression>) {
        let mut games = GamesBuilder::new();
        let mut out = ParquetWriter::with_options(Vec::new(), games_schema(), options).unwrap();
        let (first, second) = records.split_at(records.len() / 2);
        for part in [first, second] {
            for record in part {
                games.push(record);
            }
            assert_eq!(games.len(), part.len());
            out.write(&games.finish()).unwrap();
            assert!(games.is_empty());
        }
        assert_eq!(out.rows(), records.len() as u64);
        let bytes = out.close().unwrap();
        assert_eq!(&bytes[..4], b"PAR1");
        assert_eq!(&bytes[bytes.len() - 4..], b"PAR1");

        // parquet reads a `File` (or `bytes::Bytes`, not a dependency here).
        // A name of its own: tests run at once.
        static FILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "bitboards-pgn-table-{}-{}.parquet",
            std::process::id(),
            FILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        std::fs::write(&path, &bytes).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        let groups = builder.metadata().row_groups();
        let sizes = groups.iter().map(|group| group.num_rows()).collect();
        let codecs = groups
            .iter()
            .flat_map(|group| group.columns().iter().map(|column| column.compression()))
            .collect();
        let reader = builder.with_batch_size(1024).build().unwrap();
        let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
        std::fs::remove_file(&path).unwrap();
        let batch = arrow_select::concat::concat_batches(&games_schema(), &batches).unwrap();
        (batch, sizes, codecs)
    }

    #[cfg(feature = "parquet")]
    #[test]
    fn every_compression_and_row_group_size_reads_back() {
        use parquet::basic::{Compression, ZstdLevel};
        for (compression, codec) in [
            (
                PageCompression::default(),
                Compression::ZSTD(ZstdLevel::try_new(1).unwrap()),
            ),
            (
                PageCompression::Zstd { level: 19 },
                Compression::ZSTD(ZstdLevel::try_new(19).unwrap()),
            ),
            (PageCompression::Snappy, Compression::SNAPPY),
            (PageCompression::Lz4, Compression::LZ4_RAW),
            (PageCompression::None, Compression::UNCOMPRESSED),
        ] {
            let options = ParquetOptions {
                compression,
                row_group_rows: 2,
            };
            let (batch, sizes, codecs) = round_trip_with(&[lichess(), bare(), odd()], options);
            check(&batch);
            assert_eq!(sizes, [2, 1], "{compression:?}");
            // The footer names each column chunk's codec as zstd alone, not
            // its level: the level is checked by the bytes below.
            assert!(
                codecs.iter().all(|&found| matches!(
                    (found, codec),
                    (Compression::ZSTD(_), Compression::ZSTD(_))
                ) || found == codec),
                "{compression:?}: {codecs:?}"
            );
        }
        let bytes = |compression| {
            let options = ParquetOptions {
                compression,
                ..ParquetOptions::default()
            };
            let mut out = ParquetWriter::with_options(Vec::new(), games_schema(), options).unwrap();
            let mut games = GamesBuilder::new();
            for _ in 0..200 {
                games.push(&lichess());
            }
            out.write(&games.finish()).unwrap();
            out.close().unwrap()
        };
        assert_ne!(
            bytes(PageCompression::Zstd { level: 1 }),
            bytes(PageCompression::Zstd { level: 19 })
        );
        let no_rows = ParquetOptions {
            row_group_rows: 0,
            ..ParquetOptions::default()
        };
        assert!(ParquetWriter::with_options(Vec::new(), games_schema(), no_rows).is_err());
    }

    fn strings(batch: &RecordBatch, name: &str) -> Vec<Option<String>> {
        let column = batch.column_by_name(name).unwrap().as_string::<i32>();
        column
            .iter()
            .map(|value| value.map(str::to_string))
            .collect()
    }

    fn ints(batch: &RecordBatch, name: &str) -> Vec<Option<i32>> {
        let column = batch.column_by_name(name).unwrap();
        column.as_primitive::<Int32Type>().iter().collect()
    }

    fn list(batch: &RecordBatch, name: &str) -> ListArray {
        let column = batch.column_by_name(name).unwrap();
        assert_eq!(column.null_count(), 0);
        column.as_list::<i32>().clone()
    }

    fn s(text: &str) -> Option<String> {
        Some(text.to_string())
    }

    #[test]
    fn arrow_batch() {
        let mut games = GamesBuilder::new();
        for record in [lichess(), bare(), odd()] {
            games.push(&record);
        }
        check(&games.finish());
    }

    #[cfg(feature = "parquet")]
    #[test]
    fn parquet_round_trip() {
        check(&round_trip(&[lichess(), bare(), odd()]));
    }

    /// Checks every column of `[lichess(), bare(), odd()]` as a batch.
    fn check(batch: &RecordBatch) {
        assert_eq!(batch.schema().fields(), games_schema().fields());
        assert_eq!(batch.num_rows(), 3);

        assert_eq!(strings(batch, "Event"), [s("Rated Blitz game"), None, None]);
        assert_eq!(
            strings(batch, "Site"),
            [s("https://lichess.org/abcd"), None, None]
        );
        assert_eq!(
            strings(batch, "White"),
            [s("alice"), None, s("Müller, Jörg")]
        );
        assert_eq!(
            strings(batch, "Black"),
            [s("bob"), None, s("Smith \"The Hammer\" 王")]
        );
        assert_eq!(strings(batch, "Result"), [s("0-1"), None, s("1/2-1/2")]);
        assert_eq!(strings(batch, "WhiteTitle"), [None, None, None]);
        assert_eq!(strings(batch, "BlackTitle"), [s("BOT"), None, None]);
        assert_eq!(ints(batch, "WhiteElo"), [Some(1500), None, None]);
        assert_eq!(ints(batch, "BlackElo"), [None, None, Some(2100)]);
        assert_eq!(ints(batch, "WhiteRatingDiff"), [Some(-6), None, None]);
        assert_eq!(ints(batch, "BlackRatingDiff"), [Some(6), None, None]);
        assert_eq!(dates(batch, "UTCDate"), [Some(19_753), None, None]);
        assert_eq!(times(batch, "UTCTime"), [Some(86_399_000), None, None]);
        assert_eq!(strings(batch, "ECO"), [s("C20"), None, s("")]);
        assert_eq!(
            strings(batch, "Opening"),
            [
                s("King's Pawn Game: Wayward Queen Attack"),
                None,
                s("\"quoted\", with a comma")
            ]
        );
        assert_eq!(strings(batch, "Termination"), [s("Normal"), None, None]);
        assert_eq!(strings(batch, "TimeControl"), [s("180+2"), None, None]);
        assert_eq!(
            strings(batch, "movetext"),
            [lichess(), bare(), odd()].map(|record| Some(record.movetext))
        );
        assert_eq!(ints(batch, "plies"), [Some(3), Some(0), Some(1)]);
        assert_eq!(
            strings(batch, "fen"),
            [lichess(), bare(), odd()].map(|record| Some(record.fen))
        );
        assert_eq!(strings(batch, "outcome"), [None, None, s("stalemate")]);

        assert_eq!(
            string_lists(batch, "uci"),
            [lichess(), bare(), odd()]
                .map(|record| { record.uci_moves().map(str::to_owned).collect::<Vec<_>>() })
        );
        assert_eq!(
            float_lists(batch, "clocks"),
            [lichess(), bare(), odd()].map(|record| record.clocks)
        );
        assert_eq!(
            score_lists(batch, "evals"),
            [lichess(), bare(), odd()].map(|record| record.evals)
        );
    }

    /// A `date32` column's days.
    fn dates(batch: &RecordBatch, name: &str) -> Vec<Option<i32>> {
        let column = batch.column_by_name(name).unwrap();
        column.as_primitive::<Date32Type>().iter().collect()
    }

    /// A `time32[ms]` column's milliseconds.
    fn times(batch: &RecordBatch, name: &str) -> Vec<Option<i32>> {
        let column = batch.column_by_name(name).unwrap();
        column
            .as_primitive::<Time32MillisecondType>()
            .iter()
            .collect()
    }

    /// A `list<utf8>` column whose items are never null, such as `uci`.
    fn string_lists(batch: &RecordBatch, name: &str) -> Vec<Vec<String>> {
        list(batch, name)
            .iter()
            .map(|row| {
                let row = row.unwrap();
                let row = row.as_string::<i32>();
                row.iter().map(|item| item.unwrap().to_string()).collect()
            })
            .collect()
    }

    /// A `list<float64>` column, such as `clocks`.
    fn float_lists(batch: &RecordBatch, name: &str) -> Vec<Vec<Option<f64>>> {
        list(batch, name)
            .iter()
            .map(|row| {
                let row = row.unwrap();
                row.as_primitive::<Float64Type>().iter().collect()
            })
            .collect()
    }

    /// An `evals` column read back as scores, checking that a null eval has
    /// both fields null and any other exactly one.
    fn score_lists(batch: &RecordBatch, name: &str) -> Vec<Vec<Option<Score>>> {
        list(batch, name)
            .iter()
            .map(|evals| {
                let evals = evals.unwrap();
                let evals = evals.as_struct();
                let cp = evals.column(0).as_primitive::<Int32Type>();
                let mate = evals.column(1).as_primitive::<Int32Type>();
                (0..evals.len())
                    .map(|i| {
                        if evals.is_null(i) {
                            assert!(cp.is_null(i) && mate.is_null(i));
                            return None;
                        }
                        match (cp.is_valid(i), mate.is_valid(i)) {
                            (true, false) => Some(Score::Cp(cp.value(i))),
                            (false, true) => Some(Score::Mate(mate.value(i))),
                            other => panic!("cp and mate both {other:?}"),
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn schema() {
        let schema = games_schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(names, crate::record::GAME_COLUMNS);
        for field in schema.fields() {
            let required = ["plies", "fen", "uci", "clocks", "evals"];
            assert_eq!(
                field.is_nullable(),
                !required.contains(&field.name().as_str()),
                "{}",
                field.name()
            );
        }
        assert_eq!(
            schema.field_with_name("UTCTime").unwrap().data_type(),
            &DataType::Time32(TimeUnit::Millisecond)
        );
    }

    #[test]
    fn empty_and_reused_builder() {
        let mut games = GamesBuilder::default();
        assert!(games.is_empty());
        let empty = games.finish();
        assert_eq!((empty.num_rows(), empty.num_columns()), (0, 24));
        games.push(&lichess());
        games.push(&odd());
        assert_eq!(games.finish().num_rows(), 2);
        games.push(&bare());
        let batch = games.finish();
        assert_eq!(batch.num_rows(), 1);
        assert_eq!(strings(&batch, "Event"), [None]);
    }

    /// A builder that has finished a batch makes room for the next one like
    /// it; a next batch larger or smaller than that, or another kind of
    /// game, still comes out as a fresh builder would make it.
    #[test]
    fn room_for_the_next_batch_changes_no_row() {
        let batches: [&[GameRecord]; 4] = [
            &[bare()],
            &[lichess(), odd(), lichess(), bare(), odd(), lichess()],
            &[odd()],
            &[lichess(), lichess()],
        ];
        let mut reused = GamesBuilder::new();
        for records in batches {
            let mut fresh = GamesBuilder::new();
            for record in records {
                reused.push(record);
                fresh.push(record);
            }
            assert!(reused.room.is_none());
            let batch = reused.finish();
            assert!(
                reused
                    .room
                    .as_ref()
                    .is_some_and(|room| room.rows > records.len())
            );
            assert_eq!(batch, fresh.finish());
        }
    }

    #[cfg(feature = "parquet")]
    #[test]
    fn foreign_batch_is_refused() {
        let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, false)]));
        let column: ArrayRef = Arc::new(arrow_array::Int32Array::from(vec![1]));
        let batch = RecordBatch::try_new(schema, vec![column]).unwrap();
        let mut out = ParquetWriter::new(Vec::new()).unwrap();
        assert!(out.write(&batch).is_err());
    }

    /// A writer that fails after `room` bytes.
    #[cfg(feature = "parquet")]
    struct Full {
        room: usize,
    }

    #[cfg(feature = "parquet")]
    impl std::io::Write for Full {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            if bytes.len() > self.room {
                return Err(std::io::Error::other("the disk is full"));
            }
            self.room -= bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[cfg(feature = "parquet")]
    #[test]
    fn the_background_writer_writes_the_same_bytes() {
        let batches: Vec<RecordBatch> = (0..5)
            .map(|round| {
                let mut games = GamesBuilder::new();
                for record in [lichess(), bare(), odd()]
                    .iter()
                    .cycle()
                    .take(round * 7 + 1)
                {
                    games.push(record);
                }
                games.finish()
            })
            .collect();
        // And batches that cross row groups: 70,000 rows in batches of
        // 30,000, row groups of 65,536 and 4,464.
        let mut games = GamesBuilder::new();
        for _ in 0..30_000 {
            games.push(&bare());
        }
        let large = games.finish();
        let crossing = [large.clone(), large.clone(), large.slice(0, 10_000)];
        // And none.
        let small = ParquetOptions {
            row_group_rows: 5,
            compression: PageCompression::Lz4,
        };
        for (batches, options) in [
            (&batches[..], ParquetOptions::default()),
            (&batches[..], small),
            (&crossing[..], ParquetOptions::default()),
            (&[], ParquetOptions::default()),
        ] {
            let start = || ParquetWriter::with_options(Vec::new(), games_schema(), options);
            let mut here = start().unwrap();
            for batch in batches {
                here.write(batch).unwrap();
            }
            let rows = here.rows();
            let bytes = here.close().unwrap();
            // On the writer's thread alone, and with the columns shared out
            // between two and three encoding threads.
            for encoders in [1, 2, 3] {
                let mut there = start().unwrap().in_background_on(encoders);
                for batch in batches {
                    there.write(batch.clone()).unwrap();
                }
                assert_eq!(there.rows(), rows);
                assert!(there.close().unwrap() == bytes, "{encoders} encoders");
            }
        }

        // Another schema is refused at once; a failing output by `write`
        // or `close`, whichever comes first after the thread meets it.
        let mut there = ParquetWriter::new(Vec::new()).unwrap().in_background();
        let schema = Arc::new(Schema::new(vec![Field::new("x", DataType::Int32, false)]));
        let column: ArrayRef = Arc::new(arrow_array::Int32Array::from(vec![1]));
        let other = RecordBatch::try_new(schema, vec![column]).unwrap();
        assert!(there.write(other).is_err());
        let mut full = ParquetWriter::new(Full { room: 100 })
            .unwrap()
            .in_background();
        let failed = batches
            .iter()
            .map(|batch| full.write(batch.clone()))
            .find_map(Result::err)
            .or_else(|| full.close().err());
        assert!(failed.unwrap().to_string().contains("the disk is full"));
    }

    /// Writes `$BITBOARDS_PGN_PARQUET` (a path) for checks with DuckDB,
    /// pandas or pyarrow: `cargo test --features parquet -- --ignored`.
    #[cfg(feature = "parquet")]
    #[test]
    #[ignore = "writes a file for outside readers"]
    fn write_sample_file() {
        let path = std::env::var("BITBOARDS_PGN_PARQUET").unwrap();
        let mut games = GamesBuilder::new();
        for record in [lichess(), bare(), odd()] {
            games.push(&record);
        }
        let mut out = ParquetWriter::new(std::fs::File::create(path).unwrap()).unwrap();
        out.write(&games.finish()).unwrap();
        out.close().unwrap();
    }
}
