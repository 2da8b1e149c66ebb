//! Game tables (and any other table) as Parquet files: [`ParquetWriter`],
//! and [`BackgroundWriter`], which encodes on threads of its own.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::thread::JoinHandle;

use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{
    ArrowColumnChunk, ArrowColumnWriter, ArrowLeafColumn, compute_leaves,
};
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesBuilder};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;

use super::{SchemaRef, games_schema};

/// The zstd level of the pages by default: 1, not 3, because
/// compression is most of writing the file and level 3 saved almost no
/// bytes (docs/performance.md, "Parquet on a thread of its own").
const ZSTD_LEVEL: i32 = 1;
/// The most rows in one row group, by default.
const ROW_GROUP_ROWS: usize = 64 * 1024;

/// How the pages of a Parquet file are compressed.
///
/// ```
/// use bitboards_pgn::table::PageCompression;
///
/// assert_eq!("lz4".parse(), Ok(PageCompression::Lz4));
/// assert_eq!(PageCompression::default(), PageCompression::Zstd { level: 1 });
/// assert_eq!(
///     PageCompression::Zstd { level: 1 }.with_level(9),
///     Ok(PageCompression::Zstd { level: 9 })
/// );
/// assert!(PageCompression::Snappy.with_level(9).is_err());
/// assert!("gzip".parse::<PageCompression>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageCompression {
    /// Zstandard at `level` (1 to 22): the default, at level 1.
    Zstd {
        /// 1 (fastest) to 22 (smallest).
        level: i32,
    },
    /// Snappy.
    Snappy,
    /// LZ4 (Parquet's `LZ4_RAW`).
    Lz4,
    /// None: the largest file, the least work.
    None,
}

impl Default for PageCompression {
    fn default() -> Self {
        PageCompression::Zstd { level: ZSTD_LEVEL }
    }
}

impl std::str::FromStr for PageCompression {
    type Err = String;

    /// `zstd` (at level 1), `snappy`, `lz4` or `none`.
    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "zstd" => Ok(PageCompression::default()),
            "snappy" => Ok(PageCompression::Snappy),
            "lz4" => Ok(PageCompression::Lz4),
            "none" => Ok(PageCompression::None),
            other => Err(format!(
                "`{other}` is not a Parquet compression; expected zstd, snappy, lz4 or none"
            )),
        }
    }
}

impl PageCompression {
    /// Zstandard at `level` instead.
    ///
    /// # Errors
    /// A compression other than zstd (which has no levels here), or a
    /// level outside 1 to 22.
    pub fn with_level(self, level: i32) -> Result<Self, String> {
        match self {
            PageCompression::Zstd { .. } if (1..=22).contains(&level) => {
                Ok(PageCompression::Zstd { level })
            }
            PageCompression::Zstd { .. } => Err(format!("a zstd level is 1 to 22, not {level}")),
            other => Err(format!(
                "a level is for zstd only, not {}",
                format!("{other:?}").to_lowercase()
            )),
        }
    }

    fn parquet(self) -> Result<Compression, ParquetError> {
        Ok(match self {
            PageCompression::Zstd { level } => Compression::ZSTD(ZstdLevel::try_new(level)?),
            PageCompression::Snappy => Compression::SNAPPY,
            PageCompression::Lz4 => Compression::LZ4_RAW,
            PageCompression::None => Compression::UNCOMPRESSED,
        })
    }
}

/// What a [`ParquetWriter`] makes: how its pages are compressed and
/// how many rows a row group holds at most.
///
/// ```
/// use bitboards_pgn::table::{PageCompression, ParquetOptions};
///
/// let options = ParquetOptions::default();
/// assert_eq!(options.compression, PageCompression::Zstd { level: 1 });
/// assert_eq!(options.row_group_rows, 65_536);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParquetOptions {
    /// How the pages are compressed (zstd at level 1 by default).
    pub compression: PageCompression,
    /// The most rows in a row group (65,536 by default; at least 1).
    pub row_group_rows: usize,
}

impl Default for ParquetOptions {
    fn default() -> Self {
        ParquetOptions {
            compression: PageCompression::default(),
            row_group_rows: ROW_GROUP_ROWS,
        }
    }
}

impl ParquetOptions {
    /// The options a user's choices make, each `None` for the default:
    /// a compression by name (`zstd`, `snappy`, `lz4`, `none`), a zstd
    /// level, the rows of a row group.
    ///
    /// ```
    /// use bitboards_pgn::table::{PageCompression, ParquetOptions};
    ///
    /// let options = ParquetOptions::chosen(None, Some(9), Some(1000))?;
    /// assert_eq!(options.compression, PageCompression::Zstd { level: 9 });
    /// assert_eq!(options.row_group_rows, 1000);
    /// assert!(ParquetOptions::chosen(Some("lz4"), Some(9), None).is_err());
    /// assert!(ParquetOptions::chosen(None, None, Some(0)).is_err());
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    /// An unknown compression, a level with a compression other than
    /// zstd or outside 1 to 22, a row group of no rows: in words.
    pub fn chosen(
        compression: Option<&str>,
        level: Option<i32>,
        row_group_rows: Option<usize>,
    ) -> Result<ParquetOptions, String> {
        let mut options = ParquetOptions::default();
        if let Some(name) = compression {
            options.compression = name.parse()?;
        }
        if let Some(level) = level {
            options.compression = options.compression.with_level(level)?;
        }
        if let Some(rows) = row_group_rows {
            if rows == 0 {
                return Err("a row group holds at least 1 row".to_string());
            }
            options.row_group_rows = rows;
        }
        Ok(options)
    }
}
/// The most bytes (as estimated while encoding) in one row group, which
/// the writer holds in memory until it is complete.
const ROW_GROUP_BYTES: usize = 128 * 1024 * 1024;

/// Writes game tables ([`games_schema`]) as one Parquet file:
/// zstd-compressed (level 1), in row groups of at most 65,536 rows and
/// about 128 MiB, so that readers can stream the file a row group at a
/// time and skip row groups by their statistics.
///
/// ```
/// use bitboards_pgn::record::GameRecord;
/// use bitboards_pgn::table::{GamesBuilder, ParquetWriter};
///
/// let mut games = GamesBuilder::new();
/// games.push(&GameRecord {
///     tags: vec![("Event".into(), "Casual".into())],
///     fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
///     ..GameRecord::default()
/// });
/// let mut out = ParquetWriter::new(Vec::new())?;
/// out.write(&games.finish())?;
/// let bytes = out.close()?;
/// assert_eq!(&bytes[..4], b"PAR1");
/// # Ok::<(), parquet::errors::ParquetError>(())
/// ```
pub struct ParquetWriter<W: Write + Send> {
    writer: ArrowWriter<W>,
    schema: SchemaRef,
    row_group_rows: usize,
}

/// What a file gets: `options`' compression and row groups of its
/// rows and about [`ROW_GROUP_BYTES`].
fn properties(options: &ParquetOptions) -> Result<WriterPropertiesBuilder, ParquetError> {
    if options.row_group_rows == 0 {
        return Err(ParquetError::General(
            "a row group holds at least one row".to_string(),
        ));
    }
    Ok(WriterProperties::builder()
        .set_compression(options.compression.parquet()?)
        .set_max_row_group_row_count(Some(options.row_group_rows))
        .set_max_row_group_bytes(Some(ROW_GROUP_BYTES)))
}

/// An error unless `batch` is of the file's `schema`.
fn of_schema(batch: &RecordBatch, schema: &SchemaRef) -> Result<(), ParquetError> {
    if batch.schema() != *schema {
        return Err(ParquetError::General(
            "the batch is not of the file's schema".to_string(),
        ));
    }
    Ok(())
}

/// How a leaf column of a game or positions table is written where
/// Parquet's defaults (a dictionary, and statistics of each page and
/// column chunk) cost more than they give.
#[derive(Clone, Copy)]
enum Leaf {
    /// Plain values, no statistics: a value of its own in (nearly) every
    /// row, so that a dictionary is wasted work, and no minimum or
    /// maximum a query filters on.
    Plain,
    /// Dictionary values, no statistics: list items and the like, whose
    /// minimum and maximum no query filters on (the encoder compared
    /// every value for them).
    NoStatistics,
    /// `DELTA_BINARY_PACKED`, no statistics: integers that change a
    /// little from one row to the next (an eval, a clock of moves).
    Delta,
    /// `DELTA_BINARY_PACKED` with statistics: integers that count up
    /// through the file and that queries filter on (a game's number, a
    /// ply).
    DeltaWithStatistics,
}

/// The leaf columns written otherwise than by Parquet's defaults, by path,
/// where a table has them. Measured on 3,000 Lichess-shaped games with
/// cachegrind (instructions, one reading thread) and on 20,000 for the
/// file's size (docs/performance.md, "Parquet's encodings"):
///
/// - `Site`, the players' names, `movetext`, `fen` and the positions'
///   boards have a value of their own in every game: no dictionary. A
///   month of Lichess has millions of names, a row group tens of
///   thousands, and the dictionary interned every name before it outgrew
///   its page (without it `--to parquet` took 0.65 s of CPU time where it
///   took 0.78 s, Intel Xeon); the boards' dictionary likewise fell back
///   to plain values in every row group after interning all twelve boards
///   of every row, and zstd packs the plain boards smaller (14% less CPU
///   time, a file 23% smaller).
/// - The game table's list items (`uci`, `clocks`, `evals`) lose their
///   statistics, and an eval's centipawns are written as deltas (a game's
///   evals move a little from ply to ply): 5.6% fewer instructions for
///   `--to parquet`, and a file 2.1% smaller.
/// - The positions' game number and ply count up and are filtered on:
///   deltas with statistics; the clocks of moves and the centipawns are
///   deltas without; the rest of the per-move columns lose their
///   statistics: 6.7% fewer instructions for `--rows positions`, and a
///   file 2.4% smaller.
const LEAVES: &[(&[&str], Leaf)] = &[
    (&["Site"], Leaf::Plain),
    (&["White"], Leaf::Plain),
    (&["Black"], Leaf::Plain),
    (&["movetext"], Leaf::Plain),
    (&["fen"], Leaf::Plain),
    (&["bitboards", "list", "item"], Leaf::Plain),
    (&["uci", "list", "item"], Leaf::NoStatistics),
    (&["clocks", "list", "item"], Leaf::NoStatistics),
    (&["evals", "list", "item", "cp"], Leaf::Delta),
    (&["evals", "list", "item", "mate"], Leaf::NoStatistics),
    (&["game"], Leaf::DeltaWithStatistics),
    (&["ply"], Leaf::DeltaWithStatistics),
    (&["halfmove_clock"], Leaf::Delta),
    (&["fullmove_number"], Leaf::Delta),
    (&["castling"], Leaf::NoStatistics),
    (&["move"], Leaf::NoStatistics),
    (&["move_clock"], Leaf::NoStatistics),
    (&["move_eval", "cp"], Leaf::Delta),
    (&["move_eval", "mate"], Leaf::NoStatistics),
];

/// The type of the leaf at `path` in `schema` (a list's items are
/// `list.item`, as Parquet names them), if there is one.
fn leaf_type<'a>(schema: &'a SchemaRef, path: &[&str]) -> Option<&'a DataType> {
    let (first, mut rest) = path.split_first()?;
    let mut data_type = schema.field_with_name(first).ok()?.data_type();
    while !rest.is_empty() {
        (data_type, rest) = match (data_type, rest) {
            (
                DataType::List(item) | DataType::LargeList(item) | DataType::FixedSizeList(item, _),
                ["list", "item", after @ ..],
            ) => (item.data_type(), after),
            (DataType::Struct(fields), [name, after @ ..]) => {
                let field = fields.iter().find(|field| field.name() == name)?;
                (field.data_type(), after)
            }
            _ => return None,
        };
    }
    Some(data_type)
}

impl<W: Write + Send> ParquetWriter<W> {
    /// Starts a file on `out` (nothing is written before the first row
    /// group but the magic bytes). `out` gets large writes only; a
    /// [`std::io::BufWriter`] is not needed.
    ///
    /// # Errors
    ///
    /// What writing to `out` returns.
    pub fn new(out: W) -> Result<Self, ParquetError> {
        Self::with_options(out, games_schema(), ParquetOptions::default())
    }

    /// Starts a file of `schema`'s table on `out`, compressed and cut
    /// into row groups as `options` say.
    ///
    /// ```
    /// use bitboards_pgn::table::{
    ///     GamesBuilder, PageCompression, ParquetOptions, ParquetWriter, games_schema,
    /// };
    ///
    /// let options = ParquetOptions {
    ///     compression: PageCompression::Lz4,
    ///     row_group_rows: 10_000,
    /// };
    /// let out = ParquetWriter::with_options(Vec::new(), games_schema(), options)?;
    /// let bytes = out.close()?;
    /// assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    /// # Ok::<(), parquet::errors::ParquetError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A zstd level outside 1 to 22, a row group of no rows, or what
    /// writing to `out` returns.
    pub fn with_options(
        out: W,
        schema: SchemaRef,
        options: ParquetOptions,
    ) -> Result<Self, ParquetError> {
        let mut properties = properties(&options)?;
        for (leaf, setting) in LEAVES {
            let Some(data_type) = leaf_type(&schema, leaf) else {
                continue;
            };
            let path = ColumnPath::new(leaf.iter().map(|part| (*part).to_owned()).collect());
            if matches!(setting, Leaf::Plain) {
                properties = properties.set_column_dictionary_enabled(path.clone(), false);
            }
            // A delta is only for integers (a table of another schema may
            // have a column of the name that is not).
            if matches!(setting, Leaf::Delta | Leaf::DeltaWithStatistics) && data_type.is_integer()
            {
                properties = properties
                    .set_column_dictionary_enabled(path.clone(), false)
                    .set_column_encoding(path.clone(), Encoding::DELTA_BINARY_PACKED);
            }
            if !matches!(setting, Leaf::DeltaWithStatistics) {
                properties =
                    properties.set_column_statistics_enabled(path, EnabledStatistics::None);
            }
        }
        let writer = ArrowWriter::try_new(out, schema.clone(), Some(properties.build()))?;
        Ok(Self {
            writer,
            schema,
            row_group_rows: options.row_group_rows,
        })
    }

    /// Starts a file of another table on `out`: `schema`'s (the rows of
    /// [`positions`](crate::positions), for one), zstd level 1, in the
    /// same row groups.
    ///
    /// # Errors
    ///
    /// What writing to `out` returns.
    pub fn with_schema(out: W, schema: SchemaRef) -> Result<Self, ParquetError> {
        Self::with_options(out, schema, ParquetOptions::default())
    }

    /// Writes a batch from [`GamesBuilder::finish`](super::GamesBuilder::finish),
    /// completing row groups as they fill.
    ///
    /// # Errors
    ///
    /// A batch of another schema, or what writing to `out` returns.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), ParquetError> {
        of_schema(batch, &self.schema)?;
        self.writer.write(batch)
    }

    /// The number of rows written so far, in complete row groups and in
    /// the one being filled.
    #[must_use]
    pub fn rows(&self) -> u64 {
        let flushed: i64 = self
            .writer
            .flushed_row_groups()
            .iter()
            .map(|group| group.num_rows())
            .sum();
        u64::try_from(flushed).unwrap_or(0) + self.writer.in_progress_rows() as u64
    }

    /// Writes the last row group and the footer, and hands `out` back
    /// (not flushed: flush a `BufWriter` or a file yourself). Without
    /// this the file is not readable.
    ///
    /// # Errors
    ///
    /// What writing to `out` returns.
    pub fn close(self) -> Result<W, ParquetError> {
        self.writer.into_inner()
    }
}

/// Batches that may wait for a [`BackgroundWriter`]'s thread.
const QUEUE: usize = 2;
/// The most threads that encode a [`BackgroundWriter`]'s columns.
const MAX_ENCODERS: usize = 8;

/// What an encoding thread is told.
enum Work {
    /// The column writers of a new row group, with their leaves'
    /// indices.
    Start(Vec<(usize, ArrowColumnWriter)>),
    /// A batch's leaves for those writers, in their order.
    Write(Vec<ArrowLeafColumn>),
    /// The row group is complete: its column chunks, with their leaves'
    /// indices, or the first error.
    Close(Sender<Result<Vec<(usize, ArrowColumnChunk)>, ParquetError>>),
}

/// An encoding thread: the column writers of its share of the leaves.
/// `estimate` follows their encoded bytes, for the row group's limit.
fn encode(work: &Receiver<Work>, estimate: &AtomicUsize) {
    let mut writers = Vec::new();
    let mut failed = None;
    for message in work {
        match message {
            Work::Start(new) => {
                writers = new;
                estimate.store(0, Ordering::Relaxed);
            }
            Work::Write(leaves) => {
                if failed.is_some() {
                    continue;
                }
                for ((_, writer), leaf) in writers.iter_mut().zip(&leaves) {
                    if let Err(error) = ArrowColumnWriter::write(writer, leaf) {
                        failed = Some(error);
                        break;
                    }
                }
                let bytes = writers
                    .iter()
                    .map(|(_, writer)| writer.get_estimated_total_bytes())
                    .sum();
                estimate.store(bytes, Ordering::Relaxed);
            }
            Work::Close(reply) => {
                let chunks = match failed.take() {
                    Some(error) => Err(error),
                    None => writers
                        .drain(..)
                        .map(|(index, writer)| writer.close().map(|chunk| (index, chunk)))
                        .collect(),
                };
                writers.clear();
                let _ = reply.send(chunks);
            }
        }
    }
}

/// An encoding thread as the writer's thread sees it: its work waits
/// in a queue of [`QUEUE`] messages, so that a thread that falls behind
/// holds the writer's thread back (and with it the reading) rather
/// than let batches pile up in memory.
struct Lane {
    work: SyncSender<Work>,
    estimate: Arc<AtomicUsize>,
}

/// A stopped encoding thread, which only a panic there could cause.
fn lane_lost() -> ParquetError {
    ParquetError::General("a Parquet encoding thread stopped".to_string())
}

/// Writes the batches of `queue` with `writer`'s file and properties,
/// each row group's columns encoded on `encoders` threads at once: the
/// same row groups (of the options' rows) and pages as
/// [`ParquetWriter::write`] makes, but for the encoded bytes'
/// [`ROW_GROUP_BYTES`], which the threads report as they go: a row group
/// closes after the batch that took it past them (`write` splits the
/// batch by its rows' average size). The leaves are shared out by their
/// size in the first batch of each row group, the largest first, each
/// to the thread with the least so far.
fn write_in_parallel<W: Write + Send>(
    writer: ParquetWriter<W>,
    queue: &Receiver<RecordBatch>,
    encoders: usize,
) -> Result<W, ParquetError> {
    let schema = writer.schema.clone();
    let row_group_rows = writer.row_group_rows;
    let (mut file, factory) = writer.writer.into_serialized_writer()?;
    std::thread::scope(|scope| {
        let lanes: Vec<Lane> = (0..encoders)
            .map(|_| {
                let (work, orders) = sync_channel(QUEUE);
                let estimate = Arc::new(AtomicUsize::new(0));
                let bytes = Arc::clone(&estimate);
                scope.spawn(move || encode(&orders, &bytes));
                Lane { work, estimate }
            })
            .collect();
        // The row group being written: its rows so far, and each leaf's
        // thread.
        let mut rows = 0;
        let mut lane_of = Vec::new();
        for batch in queue {
            let mut rest = batch;
            while rest.num_rows() > 0 {
                let take = rest.num_rows().min(row_group_rows - rows);
                let part = rest.slice(0, take);
                rest = rest.slice(take, rest.num_rows() - take);
                // Each leaf, and the size of its column's array shared
                // among the column's leaves.
                let mut leaves = Vec::new();
                let mut sizes = Vec::new();
                for (field, column) in schema.fields().iter().zip(part.columns()) {
                    let field_leaves = compute_leaves(field, column)?;
                    if rows == 0 {
                        let size = column.get_array_memory_size() / field_leaves.len().max(1);
                        sizes.extend(std::iter::repeat_n(size, field_leaves.len()));
                    }
                    leaves.extend(field_leaves);
                }
                if rows == 0 {
                    lane_of = share_out(&sizes, lanes.len());
                    let writers = factory.create_column_writers(file.flushed_row_groups().len())?;
                    let writers = by_lane(writers.into_iter().enumerate(), &lane_of, lanes.len());
                    for (lane, share) in lanes.iter().zip(writers) {
                        lane.work
                            .send(Work::Start(share))
                            .map_err(|_| lane_lost())?;
                    }
                }
                for (lane, share) in lanes.iter().zip(by_lane(leaves, &lane_of, lanes.len())) {
                    lane.work
                        .send(Work::Write(share))
                        .map_err(|_| lane_lost())?;
                }
                rows += take;
                let bytes: usize = lanes
                    .iter()
                    .map(|lane| lane.estimate.load(Ordering::Relaxed))
                    .sum();
                if rows >= row_group_rows || bytes >= ROW_GROUP_BYTES {
                    close_row_group(&mut file, &lanes)?;
                    rows = 0;
                }
            }
        }
        if rows > 0 {
            close_row_group(&mut file, &lanes)?;
        }
        Ok::<(), ParquetError>(())
    })?;
    file.into_inner()
}

/// Leaf by leaf, the thread that encodes it: the largest `sizes` first,
/// each to the thread with the least so far.
fn share_out(sizes: &[usize], threads: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&leaf| std::cmp::Reverse(sizes[leaf]));
    let mut load = vec![0usize; threads];
    let mut lane_of = vec![0; sizes.len()];
    for leaf in order {
        let (lane, _) = load
            .iter()
            .enumerate()
            .min_by_key(|&(_, &load)| load)
            .unwrap_or((0, &0));
        lane_of[leaf] = lane;
        load[lane] += sizes[leaf].max(1);
    }
    lane_of
}

/// The leaves' `items`, in order, as each thread's share (`lane_of`
/// gives each leaf's thread).
fn by_lane<T>(items: impl IntoIterator<Item = T>, lane_of: &[usize], lanes: usize) -> Vec<Vec<T>> {
    let mut shares: Vec<Vec<T>> = (0..lanes).map(|_| Vec::new()).collect();
    for (item, &lane) in items.into_iter().zip(lane_of) {
        shares[lane].push(item);
    }
    shares
}

/// Has every thread close its columns, and writes them as one row group
/// in the leaves' order.
fn close_row_group<W: Write + Send>(
    file: &mut SerializedFileWriter<W>,
    lanes: &[Lane],
) -> Result<(), ParquetError> {
    // Every thread closes its columns before any answer is awaited.
    let answers = lanes
        .iter()
        .map(|lane| {
            let (reply, answer) = channel();
            lane.work
                .send(Work::Close(reply))
                .map_err(|_| lane_lost())?;
            Ok(answer)
        })
        .collect::<Result<Vec<_>, ParquetError>>()?;
    let mut chunks = Vec::new();
    for answer in answers {
        chunks.extend(answer.recv().map_err(|_| lane_lost())??);
    }
    chunks.sort_by_key(|&(leaf, _)| leaf);
    let mut group = file.next_row_group()?;
    for (_, chunk) in chunks {
        chunk.append_to_row_group(&mut group)?;
    }
    group.close()?;
    Ok(())
}

impl<W: Write + Send + 'static> ParquetWriter<W> {
    /// This writer on a thread of its own: [`BackgroundWriter::write`]
    /// hands each batch over and returns, so that encoding and
    /// compressing the file (most of the time it takes to write) go on
    /// while the caller reads the next games. On a machine of several
    /// cores that thread shares each row group's columns out among
    /// encoding threads (one per core, up to eight); the file is the
    /// same, byte for byte, as [`write`](Self::write) makes (but for a
    /// row group that reaches about 128 MiB before its 65,536 rows: it
    /// closes after the batch that took it there). Up to two
    /// batches wait; give batches of a thousand rows or so, not whole
    /// row groups, so that the work is spread over the reading (the row
    /// groups are the same whatever the batches).
    ///
    /// ```
    /// use bitboards_pgn::record::GameRecord;
    /// use bitboards_pgn::table::{GamesBuilder, ParquetWriter};
    ///
    /// let mut out = ParquetWriter::new(Vec::new())?.in_background();
    /// let mut games = GamesBuilder::new();
    /// for _ in 0..3 {
    ///     games.push(&GameRecord::default());
    ///     out.write(games.finish())?;
    /// }
    /// assert_eq!(out.rows(), 3);
    /// let bytes = out.close()?;
    /// assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    /// # Ok::<(), parquet::errors::ParquetError>(())
    /// ```
    #[must_use]
    pub fn in_background(self) -> BackgroundWriter<W> {
        self.in_background_on(crate::default_thread_count().min(MAX_ENCODERS))
    }

    /// [`in_background`](Self::in_background) with the columns encoded
    /// on `encoders` threads besides the writer's (none for one).
    pub(crate) fn in_background_on(self, encoders: usize) -> BackgroundWriter<W> {
        let schema = self.schema.clone();
        let (batches, queue) = sync_channel::<RecordBatch>(QUEUE);
        let thread = std::thread::spawn(move || {
            if encoders > 1 {
                return write_in_parallel(self, &queue, encoders);
            }
            let mut writer = self;
            for batch in queue {
                writer.write(&batch)?;
            }
            writer.close()
        });
        BackgroundWriter {
            batches: Some(batches),
            thread: Some(thread),
            schema,
            rows: 0,
        }
    }
}

/// A [`ParquetWriter`] on a thread of its own, from
/// [`ParquetWriter::in_background`]. Dropped without
/// [`close`](Self::close), it still finishes the file, waiting for its
/// thread, but an error is lost: close it.
pub struct BackgroundWriter<W> {
    /// To the thread; `None` once it is told to finish.
    batches: Option<SyncSender<RecordBatch>>,
    thread: Option<JoinHandle<Result<W, ParquetError>>>,
    schema: SchemaRef,
    rows: u64,
}

impl<W> BackgroundWriter<W> {
    /// Hands `batch` to the writer's thread, waiting only while two
    /// batches wait already.
    ///
    /// # Errors
    ///
    /// A batch of another schema, or what stopped the thread: an error
    /// writing an earlier batch (the file is then not readable).
    pub fn write(&mut self, batch: RecordBatch) -> Result<(), ParquetError> {
        of_schema(&batch, &self.schema)?;
        let rows = batch.num_rows() as u64;
        match self.batches.as_ref().map(|batches| batches.send(batch)) {
            Some(Ok(())) => {
                self.rows += rows;
                Ok(())
            }
            // The thread has stopped: its error says why.
            _ => Err(self.finish().err().unwrap_or_else(|| {
                ParquetError::General("the file is already closed".to_string())
            })),
        }
    }

    /// The rows handed over so far.
    #[must_use]
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Waits for the batches handed over to be written, then writes the
    /// last row group and the footer, and hands `out` back (not
    /// flushed, as [`ParquetWriter::close`]).
    ///
    /// # Errors
    ///
    /// What writing to `out` returned.
    pub fn close(mut self) -> Result<W, ParquetError> {
        self.finish()
    }

    /// Tells the thread that no batch follows and waits for it.
    fn finish(&mut self) -> Result<W, ParquetError> {
        drop(self.batches.take());
        match self.thread.take() {
            Some(thread) => thread.join().unwrap_or_else(|_| {
                Err(ParquetError::General(
                    "the Parquet writer's thread panicked".to_string(),
                ))
            }),
            None => Err(ParquetError::General(
                "the file is already closed".to_string(),
            )),
        }
    }
}

impl<W> Drop for BackgroundWriter<W> {
    fn drop(&mut self) {
        if self.thread.is_some() {
            let _ = self.finish();
        }
    }
}
