//! `bitboards pgn FILE...`: every game of PGN files replayed, on every
//! core, from plain or compressed files (zstd, gzip, bzip2) or standard
//! input: plies, final position, result tag, what the rules say of its end,
//! and each move's clock and eval; or the games as a Parquet or CSV table.
//!
//! A game that does not read (bad PGN, an illegal or ambiguous move) is
//! reported on standard error with its file, number, line, column and byte
//! offset, and the games after it still go through. Exit code 0 when every
//! game read, 1 when any failed, 2 when a file cannot be read.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

use bitboards::{Move, Position};
use bitboards_pgn::positions::{self, PositionOptions, positions_schema};
use bitboards_pgn::record::{MovetextForm, RecordVisitor, push_unsigned_bytes};
use bitboards_pgn::table::{
    self, BackgroundWriter, GamesVisitor, ParquetOptions, ParquetWriter, games_schema,
};
use bitboards_pgn::{Chunk, ParallelReader, PgnError, ReadCounter, ReadError, Source, StagedFile};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::CommandError;

pub use crate::Format;

mod report;

use report::ReportVisitor;

/// How `--moves` writes each ply.
///
/// ```
/// use bitboards_cli::pgn::Moves;
///
/// assert_ne!(Moves::San, Moves::Uci);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Moves {
    /// Standard Algebraic Notation, with move numbers in text.
    San,
    /// UCI (castling as the king's two-square move in standard chess, as
    /// king takes rook in Chess960 positions: `Position::uci`).
    Uci,
    /// The FEN of the position after each ply.
    Fen,
}

/// The kinds of table `--to` writes.
///
/// ```
/// use bitboards_cli::pgn::Table;
///
/// assert_eq!("parquet".parse::<Table>(), Ok(Table::Parquet));
/// assert!("xlsx".parse::<Table>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Table {
    /// Parquet, zstd-compressed, in row groups of 65,536 games.
    Parquet,
    /// CSV (RFC 4180), lists as space-separated fields.
    Csv,
}

impl std::str::FromStr for Table {
    type Err = String;

    fn from_str(text: &str) -> Result<Table, String> {
        match text {
            "parquet" => Ok(Table::Parquet),
            "csv" => Ok(Table::Csv),
            other => Err(format!(
                "`{other}` is not a table format; expected `parquet` or `csv`"
            )),
        }
    }
}

/// The arguments of `bitboards pgn`.
///
/// ```
/// use bitboards_cli::pgn::{Format, Moves, PgnArgs, Table};
/// use clap::Parser;
///
/// let args = PgnArgs::parse_from(["pgn", "a.pgn", "b.pgn.zst", "--moves", "san", "--format", "json", "--threads", "2"]);
/// assert_eq!(args.files, ["a.pgn", "b.pgn.zst"]);
/// assert_eq!((args.moves, args.format, args.threads), (Some(Moves::San), Format::Json, Some(2)));
/// let args = PgnArgs::parse_from(["pgn", "a.pgn", "--to", "parquet", "games.parquet"]);
/// assert_eq!(args.table()?, Some((Table::Parquet, "games.parquet")));
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Debug, clap::Parser)]
pub struct PgnArgs {
    /// PGN files, plain or compressed (zstd, gzip, bzip2: found by their
    /// first bytes), or `-` for standard input.
    #[arg(value_name = "FILE|-", required = true)]
    pub files: Vec<String>,
    /// Print every ply of each game: in SAN, in UCI, or as the FEN after it.
    #[arg(long, value_enum)]
    pub moves: Option<Moves>,
    /// Text for people (one line per game), or JSON for scripts (one object
    /// per game and line: `game`, `plies`, `fen`, `result`, `outcome`,
    /// `clocks` (seconds after each ply, or null), `evals` (`{"cp": n}`,
    /// `{"mate": n}` or null per ply, White's view), and `moves` with
    /// `--moves`).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Threads that read the games (default: every core). Games come out in
    /// file order whatever the number. `--to parquet` also encodes the file
    /// on threads of its own, one per core (at most 8), whatever this says.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Write the games as a table instead: `--to parquet OUT` or `--to csv
    /// OUT` (`-` for standard output), one row per game with the Lichess
    /// database's columns, then plies, fen, outcome, uci, clocks and evals.
    #[arg(long, num_args = 2, value_names = ["parquet|csv", "OUT"])]
    pub to: Vec<String>,
    /// What a row of `--to parquet` is: a game (the default), or a
    /// position: every position before a move, as twelve bitboards with
    /// the side to move, castling, en passant, clocks, the move played,
    /// its clock and eval, the ratings and the result (a training set).
    #[arg(long, value_enum, default_value_t)]
    pub rows: Rows,
    /// With `--rows positions`: every Nth position of each game.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub every: u16,
    /// With `--rows positions`: no position before this ply (0 is the start).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub min_ply: u16,
    /// With `--rows positions`: no position after this ply.
    #[arg(long, value_name = "N")]
    pub max_ply: Option<u16>,
    /// With `--rows positions`: only games whose players are both rated
    /// at least N.
    #[arg(long, value_name = "N")]
    pub min_elo: Option<i32>,
    /// With `--to parquet`: how the pages are compressed: zstd (the
    /// default, at level 1), snappy, lz4 or none.
    #[arg(long, value_name = "zstd|snappy|lz4|none")]
    pub compression: Option<String>,
    /// With `--to parquet` and zstd: the level, 1 (fastest, the default)
    /// to 22 (smallest).
    #[arg(long, value_name = "N")]
    pub level: Option<i32>,
    /// With `--to parquet`: the most rows in a row group (default 65536).
    #[arg(long, value_name = "N")]
    pub row_group_size: Option<usize>,
    /// With `--to parquet` or `--to csv`: what the movetext column holds:
    /// the game's movetext as the file has it (comments, NAGs, variations
    /// and whitespace included), or the mainline written back as Lichess
    /// writes it (canonical SAN, comments, NAGs, the result).
    #[arg(long, value_enum, default_value_t)]
    pub movetext: Movetext,
}

/// What a row of `--to parquet` stands for.
///
/// ```
/// use bitboards_cli::pgn::Rows;
///
/// assert_eq!(Rows::default(), Rows::Games);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum Rows {
    /// One row per game.
    #[default]
    Games,
    /// One row per position (`bitboards_pgn::positions`).
    Positions,
}

/// What the movetext column of `--to parquet` and `--to csv` holds.
///
/// ```
/// use bitboards_cli::pgn::Movetext;
///
/// assert_eq!(Movetext::default(), Movetext::File);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum Movetext {
    /// The game's movetext as the file has it.
    #[default]
    File,
    /// The mainline written back as Lichess writes it.
    Rewritten,
}

impl PgnArgs {
    /// What the movetext column holds, as `--movetext` says.
    fn movetext_form(&self) -> MovetextForm {
        match self.movetext {
            Movetext::File => MovetextForm::File,
            Movetext::Rewritten => MovetextForm::Rewritten,
        }
    }

    /// The Parquet file's compression and row groups, from
    /// `--compression`, `--level` and `--row-group-size`.
    ///
    /// ```
    /// use bitboards_cli::pgn::PgnArgs;
    /// use bitboards_pgn::table::PageCompression;
    /// use clap::Parser;
    ///
    /// let args = PgnArgs::parse_from(["pgn", "a.pgn", "--to", "parquet", "o", "--level", "9"]);
    /// assert_eq!(args.parquet_options()?.compression, PageCompression::Zstd { level: 9 });
    /// let args = PgnArgs::parse_from(["pgn", "a.pgn", "--compression", "lz4"]);
    /// assert!(args.parquet_options().is_err(), "no --to parquet");
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    /// An unknown compression, a level with another compression than zstd
    /// or outside 1 to 22, a row group of 0 rows, or any of them without
    /// `--to parquet`.
    pub fn parquet_options(&self) -> Result<ParquetOptions, String> {
        let given =
            self.compression.is_some() || self.level.is_some() || self.row_group_size.is_some();
        if given && !matches!(self.table()?, Some((Table::Parquet, _))) {
            return Err(
                "--compression, --level and --row-group-size are for --to parquet OUT".to_string(),
            );
        }
        ParquetOptions::chosen(self.compression.as_deref(), self.level, self.row_group_size)
    }

    /// The table `--to` asks for, and where to write it.
    ///
    /// # Errors
    /// A format other than `parquet` or `csv`.
    pub fn table(&self) -> Result<Option<(Table, &str)>, String> {
        match &self.to[..] {
            [kind, out] => Ok(Some((kind.parse()?, out.as_str()))),
            _ => Ok(None),
        }
    }
}

/// Files at least this large get a progress bar on a terminal.
const BAR_THRESHOLD: u64 = 4 << 20;

/// What a worker makes of a chunk's games, from [`read_file`]: their
/// reports (without their numbers) or CSV rows, one after another.
#[derive(Debug, Default)]
pub struct Written {
    /// The reports or rows, one after another.
    pub text: Vec<u8>,
    /// Where each game's text ends in `text`, in order; a game that
    /// failed wrote nothing.
    pub ends: Vec<usize>,
}

impl Written {
    /// What was written, leaving room for as much: the next chunk's text
    /// takes about as much, made at once rather than doubled from nothing
    /// and copied each time (a twentieth of a JSON report's time).
    fn take(&mut self) -> Written {
        let room = (self.text.capacity(), self.ends.capacity());
        let written = std::mem::take(self);
        self.text.reserve(room.0);
        self.ends.reserve(room.1);
        written
    }

    /// Each game's report or row, in order (empty for a game that failed).
    pub fn games(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.text[start..end])
    }
}

/// Where the games' reports or CSV rows go.
enum Sink<'a, W: Write> {
    /// The reports, and room for the text put before each.
    Reports(&'a mut W, Vec<u8>),
    Csv(Output),
}

/// Reads the files and writes one report per game to `out` (or the table
/// to its file), errors and the summary to `err`; `terminal` says whether
/// standard error is a terminal (for the progress bar).
///
/// # Errors
/// Exit code 2 when a file cannot be opened or read (or the table not
/// written), 1 when any game did not read (after every game was tried).
pub fn run(
    args: &PgnArgs,
    terminal: bool,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    let table = args.table().map_err(CommandError::unreadable)?;
    let parquet = args.parquet_options().map_err(CommandError::unreadable)?;
    if args.rows == Rows::Positions {
        return match table {
            Some((Table::Parquet, path)) => run_positions(args, parquet, path, terminal, err),
            _ => Err(CommandError::unreadable(
                "--rows positions writes Parquet: add --to parquet OUT",
            )),
        };
    }
    if let Some((Table::Parquet, path)) = table {
        return run_games_table(args, parquet, path, terminal, err);
    }
    let progress = Progress::new(total_size(&args.files), terminal);
    let mut buffered = io::BufWriter::with_capacity(1 << 16, out);
    let csv = table.is_some();
    let mut sink = Sink::open(table, &mut buffered)?;
    let started = Instant::now();
    let mut summary = Summary::default();
    let mut number = 0u64;
    for file in &args.files {
        let reader = open_input(file, args, &progress.counter)?;
        let name = display_name(file);
        let mut failure = None;
        let read = read_chunks(reader, csv, args, |chunk| {
            let mut errors = chunk.errors.iter().peekable();
            for (index, text) in chunk.value.games().enumerate() {
                number += 1;
                if failure.is_some() {
                    continue;
                }
                let in_file = chunk.games_before + index + 1;
                let written = match errors.next_if(|error| error.game() == in_file) {
                    Some(error) => {
                        summary.failed += 1;
                        writeln!(err, "error: {}", located(name, error))
                    }
                    None => {
                        summary.read += 1;
                        sink.write(number, text)
                    }
                };
                if let Err(error) = written {
                    failure = Some(error);
                }
            }
            progress.show();
        });
        if let Some(error) = failure {
            return Err(unwritable("the output", &error));
        }
        if let Err(error) = read {
            file_failed(file, error, &mut summary, err)?;
        }
    }
    progress.finish();
    sink.finish(table.map(|(_, path)| path))?;
    close_summary(&summary, progress.bytes(), started.elapsed(), err)
}

/// `--to parquet`: every file's games into the Parquet file at `path`, a
/// row per game, the rows built on the worker threads and encoded on a
/// thread of the writer's own.
fn run_games_table(
    args: &PgnArgs,
    options: ParquetOptions,
    path: &str,
    terminal: bool,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    let mut writer = ParquetWriter::with_options(create_output(path)?, games_schema(), options)
        .map_err(|error| cannot_write(path, &error))?
        .in_background();
    let progress = Progress::new(total_size(&args.files), terminal);
    let started = Instant::now();
    let mut summary = Summary::default();
    for file in &args.files {
        let reader = open_input(file, args, &progress.counter)?;
        let mut written = Ok(());
        let read = table::for_each_batch_of(
            reader,
            || GamesVisitor::default().movetext_form(args.movetext_form()),
            // The workers' batches as built, the same on any number of
            // threads and from a stream or a mapped file, so that the file
            // is the same bytes.
            table::AS_BUILT,
            |batch| {
                if written.is_ok() {
                    written = writer.write(batch).map_err(io::Error::other);
                }
            },
            |games, errors| {
                summary.failed += errors.len() as u64;
                summary.read += (games - errors.len()) as u64;
                for error in &errors {
                    let _ = writeln!(err, "error: {}", located(display_name(file), error));
                }
                progress.show();
            },
        );
        written.map_err(|error| unwritable(path, &error))?;
        if let Err(error) = read {
            file_failed(file, error, &mut summary, err)?;
        }
    }
    progress.finish();
    close_parquet(writer, path)?;
    close_summary(&summary, progress.bytes(), started.elapsed(), err)
}

/// The files' total size in bytes; `None` when one is standard input or
/// its size cannot be read.
fn total_size(files: &[String]) -> Option<u64> {
    files.iter().map(|file| Source::from_arg(file).size()).sum()
}

/// `file` as messages name it: `-` is standard input.
fn display_name(file: &str) -> &str {
    if file == "-" { "standard input" } else { file }
}

/// A file that stopped before its end: its I/O error stops the command
/// (exit code 2); a file that is not PGN counts as one failed game.
fn file_failed(
    file: &str,
    error: ReadError,
    summary: &mut Summary,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    match error {
        ReadError::Io(error) => Err(unreadable(file, &error)),
        other => {
            summary.failed += 1;
            let _ = writeln!(err, "error: {}: {other}", display_name(file));
            Ok(())
        }
    }
}

/// Writes the closing line to `err`; exit code 1 when any game failed.
fn close_summary(
    summary: &Summary,
    bytes: u64,
    elapsed: Duration,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    let _ = err.write_all(summary.describe(bytes, elapsed).as_bytes());
    if summary.failed > 0 {
        return Err(CommandError::reported());
    }
    Ok(())
}

/// The file at `path` for writing (or standard output for `-`), written
/// under a temporary name and renamed by [`Output::commit`] once complete
/// ([`StagedFile`]), so that a write that stops leaves no file at `path`
/// that looks complete.
pub(crate) fn create_output(path: &str) -> Result<Output, CommandError> {
    if path == "-" {
        return Ok(Output::Stdout(io::stdout()));
    }
    StagedFile::create(path)
        .map(Output::File)
        .map_err(|error| cannot_write(path, &error))
}

/// Where a table goes: standard output, or a file named when complete.
pub(crate) enum Output {
    Stdout(io::Stdout),
    File(StagedFile),
}

impl Output {
    /// Flushes the output; a file gets its name.
    pub(crate) fn commit(self, path: &str) -> Result<(), CommandError> {
        match self {
            Output::Stdout(mut out) => out.flush(),
            Output::File(file) => file.commit(),
        }
        .map_err(|error| unwritable(path, &error))
    }
}

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(out) => out.write(bytes),
            Output::File(file) => file.write(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(out) => out.flush(),
            Output::File(file) => file.flush(),
        }
    }
}

/// The error for an output file that cannot be made: exit code 2.
fn cannot_write(path: &str, error: &dyn std::fmt::Display) -> CommandError {
    CommandError::unreadable(format!("cannot write {path}: {error}"))
}

/// Finishes the Parquet file at `path`: its last row group and footer,
/// then the file flushed and named.
fn close_parquet(writer: BackgroundWriter<Output>, path: &str) -> Result<(), CommandError> {
    writer
        .close()
        .map_err(|error| unwritable(path, &io::Error::other(error)))?
        .commit(path)
}

/// The reader of `file` (`-`: standard input) on `--threads` threads,
/// its bytes counted into `counter` for the progress bar, as
/// [`Source::open`] opens it.
fn open_input(
    file: &str,
    args: &PgnArgs,
    counter: &ReadCounter,
) -> Result<ParallelReader<Box<dyn Read + Send>>, CommandError> {
    Source::from_arg(file)
        .open(args.threads, counter)
        .map_err(|error| unreadable(file, &error))
}

/// `--rows positions`: every file's position rows into the Parquet file
/// at `path`, made on the worker threads and encoded on a thread of the
/// writer's own.
fn run_positions(
    args: &PgnArgs,
    parquet: ParquetOptions,
    path: &str,
    terminal: bool,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    let options = position_options(args)?;
    let out = create_output(path)?;
    let mut writer = ParquetWriter::with_options(out, positions_schema(&options.columns), parquet)
        .map_err(|error| cannot_write(path, &error))?
        .in_background();
    let progress = Progress::new(total_size(&args.files), terminal);
    let started = Instant::now();
    let (mut games, mut rows) = (0u64, 0u64);
    let mut summary = Summary::default();
    for file in &args.files {
        let reader = open_input(file, args, &progress.counter)?;
        let mut written = Ok(());
        let read = positions::for_each_batch_of(reader, &options, games, |batch| {
            if written.is_ok() {
                written = writer.write(batch).map_err(io::Error::other);
            }
            progress.show();
        });
        written.map_err(|error| unwritable(path, &error))?;
        match read {
            Ok(read) => {
                games += read.games;
                rows += read.rows;
                summary.failed += read.errors.len() as u64;
                summary.read += read.games - read.errors.len() as u64;
                for error in &read.errors {
                    let _ = writeln!(err, "error: {}", located(display_name(file), error));
                }
            }
            Err(error) => file_failed(file, error, &mut summary, err)?,
        }
    }
    progress.finish();
    close_parquet(writer, path)?;
    let _ = write!(err, "{rows} positions; ");
    close_summary(&summary, progress.bytes(), started.elapsed(), err)
}

/// The `--rows positions` options that `args` give, checked.
fn position_options(args: &PgnArgs) -> Result<PositionOptions, CommandError> {
    let options = PositionOptions {
        every: args.every,
        min_ply: args.min_ply,
        max_ply: args.max_ply,
        min_elo: args.min_elo,
        batch_rows: positions::AS_BUILT,
        ..PositionOptions::default()
    };
    options.check().map_err(CommandError::unreadable)?;
    Ok(options)
}

/// The bytes the inputs have given so far (counted by [`open_input`]'s
/// reader), and the bar that shows them on a terminal.
struct Progress {
    counter: ReadCounter,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Nothing read yet; a bar when standard error is a `terminal` and the
    /// files' `size` is known and at least [`BAR_THRESHOLD`].
    fn new(size: Option<u64>, terminal: bool) -> Progress {
        let bar = match size {
            Some(size) if terminal && size >= BAR_THRESHOLD => Some(progress_bar(size)),
            _ => None,
        };
        Progress {
            counter: ReadCounter::default(),
            bar,
        }
    }

    /// The bytes read so far.
    fn bytes(&self) -> u64 {
        self.counter.bytes()
    }

    /// Moves the bar, if any, to the bytes read so far.
    fn show(&self) {
        if let Some(bar) = &self.bar {
            bar.set_position(self.bytes());
        }
    }

    /// Clears the bar, if any, from the terminal.
    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl<'a, W: Write> Sink<'a, W> {
    /// Where the games go: reports to `reports`, or the CSV `table` (with
    /// its header written).
    fn open(table: Option<(Table, &str)>, reports: &'a mut W) -> Result<Self, CommandError> {
        let Some((_, path)) = table else {
            return Ok(Sink::Reports(reports, Vec::new()));
        };
        let mut file = create_output(path)?;
        bitboards_pgn::csv::write_header(&mut file).map_err(|error| unwritable(path, &error))?;
        Ok(Sink::Csv(file))
    }
}

impl<W: Write> Sink<'_, W> {
    /// Writes game `number`'s report (made without its number) or row.
    fn write(&mut self, number: u64, text: &[u8]) -> io::Result<()> {
        match self {
            Sink::Reports(out, head) => {
                // The report was made on a worker, which knows the game's
                // number only within its chunk: the number goes in here.
                head.clear();
                let rest = match text.strip_prefix(b"{") {
                    Some(json) => {
                        head.extend_from_slice(b"{\"game\": ");
                        push_unsigned_bytes(head, number);
                        head.extend_from_slice(b", ");
                        json
                    }
                    None => {
                        head.extend_from_slice(b"game ");
                        push_unsigned_bytes(head, number);
                        head.extend_from_slice(b": ");
                        text
                    }
                };
                out.write_all(head)?;
                out.write_all(rest)
            }
            Sink::Csv(out) => out.write_all(text),
        }
    }

    /// Flushes the reports, or completes the CSV file at `path`.
    fn finish(self, path: Option<&str>) -> Result<(), CommandError> {
        match self {
            Sink::Reports(out, _) => out
                .flush()
                .map_err(|error| unwritable("the output", &error)),
            Sink::Csv(out) => out.commit(path.unwrap_or("the table")),
        }
    }
}

/// Reads one input on `--threads` threads and hands `deliver` its chunks
/// in file order: each game's report (or with `csv` its CSV row), made on
/// the worker that read it, and the errors of the games that failed.
///
/// # Errors
/// The input's I/O error, or that it is not PGN.
///
/// ```
/// use bitboards_cli::pgn::{read_file, PgnArgs};
/// use clap::Parser;
///
/// let args = PgnArgs::parse_from(["pgn", "-", "--format", "json"]);
/// let pgn = "1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 Ke7 Ke2 *\n";
/// let (mut reports, mut failed) = (Vec::new(), Vec::new());
/// read_file(pgn.as_bytes(), &args, false, |chunk| {
///     reports.extend(chunk.value.games().map(|text| String::from_utf8_lossy(text).into_owned()));
///     failed.extend(chunk.errors.iter().map(|error| error.game()));
/// })?;
/// assert!(reports[0].starts_with("{\"plies\": 4, "), "{}", reports[0]);
/// assert_eq!((reports[1].as_str(), failed), ("", vec![2]));
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
pub fn read_file(
    input: impl Read + Send,
    args: &PgnArgs,
    csv: bool,
    deliver: impl FnMut(Chunk<Written>),
) -> Result<(), ReadError> {
    let reader = ParallelReader::new(input).threads_or_default(args.threads);
    read_chunks(reader, csv, args, deliver)
}

/// [`read_file`] with `reader`, on its threads.
fn read_chunks<R: Read + Send>(
    reader: ParallelReader<R>,
    csv: bool,
    args: &PgnArgs,
    deliver: impl FnMut(Chunk<Written>),
) -> Result<(), ReadError> {
    if csv {
        return reader.for_each_chunk(
            || {
                let visitor = RecordVisitor::default().movetext_form(args.movetext_form());
                (visitor, Written::default())
            },
            |visitor, written, _, error| {
                if error.is_none() {
                    bitboards_pgn::csv::push_row(&mut written.text, visitor.record());
                }
                written.ends.push(written.text.len());
            },
            Written::take,
            deliver,
        );
    }
    reader.for_each_chunk(
        || {
            (
                ReportVisitor::new(args.format == Format::Json),
                (Written::default(), String::new()),
            )
        },
        |visitor, (written, report), _, error| {
            if error.is_none() {
                write_report(visitor, args, &mut written.text, report);
            }
            written.ends.push(written.text.len());
        },
        |(written, _)| written.take(),
        deliver,
    )
}

/// `error` with the file it is in, its game, line, column and byte offset.
fn located(file: &str, error: &PgnError) -> String {
    format!(
        "{file}: game {}, line {}, column {}, byte {}: {}",
        error.game(),
        error.line(),
        error.column(),
        error.offset(),
        error.kind()
    )
}

/// What a whole file gave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games that read.
    pub read: u64,
    /// Games that did not.
    pub failed: u64,
}

impl Summary {
    /// The closing line: games, failures, time and speed.
    ///
    /// ```
    /// use std::time::Duration;
    /// use bitboards_cli::pgn::Summary;
    ///
    /// let line = Summary { read: 9, failed: 1 }.describe(2_000_000, Duration::from_secs(2));
    /// assert_eq!(line, "10 games (1 failed) in 2.00 s: 5 games/s, 1.0 MB/s\n");
    ///
    /// let one = Summary { read: 0, failed: 1 }.describe(100, Duration::from_secs(1));
    /// assert!(one.starts_with("1 game (1 failed) in 1.00 s"), "{one}");
    /// ```
    #[must_use]
    pub fn describe(&self, bytes: u64, elapsed: Duration) -> String {
        let seconds = elapsed.as_secs_f64().max(1e-9);
        let games = self.read + self.failed;
        let failed = if self.failed > 0 {
            format!(" ({} failed)", self.failed)
        } else {
            String::new()
        };
        let noun = if games == 1 { "game" } else { "games" };
        format!(
            "{games} {noun}{failed} in {seconds:.2} s: {:.0} games/s, {:.1} MB/s\n",
            games as f64 / seconds,
            bytes as f64 / seconds / 1e6,
        )
    }
}

/// Writes one game's report in the chosen format onto `text`, without its
/// number (the text after `game N: `, or the JSON object without its
/// `"game"` key); `report` is room for the text report.
fn write_report(visitor: &ReportVisitor, args: &PgnArgs, text: &mut Vec<u8>, report: &mut String) {
    if !visitor.has_movetext() {
        return;
    }
    let result = visitor.result().unwrap_or("*");
    let outcome = visitor.outcome();
    let plies = visitor.moves().len();
    let last = visitor.last();
    let moves = args
        .moves
        .map(|style| plies_as(visitor.start(), visitor.moves(), style));
    match args.format {
        Format::Text => {
            report.clear();
            let outcome = outcome.map_or_else(|| "none".to_owned(), |outcome| outcome.to_string());
            let _ = writeln!(
                report,
                "{plies} plies, result {result}, outcome {outcome}\n  fen {}",
                last.fen()
            );
            match (args.moves, moves) {
                (Some(Moves::San), Some(moves)) => {
                    let _ = writeln!(report, "  {}", numbered(visitor.start(), &moves));
                }
                (Some(_), Some(moves)) => {
                    for line in moves {
                        let _ = writeln!(report, "  {line}");
                    }
                }
                _ => {}
            }
            text.extend_from_slice(report.as_bytes());
        }
        Format::Json => {
            // Piece by piece, straight into the worker's output: the clocks
            // and evals were written as their comments were read.
            text.extend_from_slice(b"{\"plies\": ");
            push_unsigned_bytes(text, plies as u64);
            // A FEN has nothing to escape.
            text.extend_from_slice(b", \"fen\": \"");
            text.extend_from_slice(last.fen().text().as_bytes());
            text.push(b'"');
            text.extend_from_slice(b", \"result\": ");
            push_quoted(text, result);
            text.extend_from_slice(b", \"outcome\": ");
            match outcome {
                Some(outcome) => push_quoted(text, outcome.name()),
                None => text.extend_from_slice(b"null"),
            }
            text.extend_from_slice(b", \"clocks\": [");
            text.extend_from_slice(visitor.clocks());
            text.extend_from_slice(b"], \"evals\": [");
            text.extend_from_slice(visitor.evals());
            text.push(b']');
            if let Some(moves) = moves {
                text.extend_from_slice(b", \"moves\": [");
                for (index, mv) in moves.iter().enumerate() {
                    if index > 0 {
                        text.extend_from_slice(b", ");
                    }
                    push_quoted(text, mv);
                }
                text.push(b']');
            }
            text.extend_from_slice(b"}\n");
        }
    }
}

/// Each ply of the game from `start` in `style`.
fn plies_as(start: &Position, moves: &[Move], style: Moves) -> Vec<String> {
    let mut position = *start;
    moves
        .iter()
        .map(|&mv| {
            let after = match mv.is_null() {
                true => position.null_move().unwrap_or(position),
                false => position.play_unchecked(mv),
            };
            let text = match (style, mv.is_null()) {
                (Moves::San, true) => "--".to_owned(),
                (Moves::San, false) => position.san(mv).to_string(),
                (Moves::Uci, _) => position.uci(mv).to_string(),
                (Moves::Fen, _) => after.fen().to_string(),
            };
            position = after;
            text
        })
        .collect()
}

/// SAN moves with move numbers, as a PGN's movetext writes them.
fn numbered(start: &Position, sans: &[String]) -> String {
    let mut number = start.fullmove_number();
    let mut white = start.side_to_move() == bitboards::Color::White;
    let mut text = String::new();
    for (index, san) in sans.iter().enumerate() {
        if !text.is_empty() {
            text.push(' ');
        }
        if white {
            let _ = write!(text, "{number}. ");
        } else if index == 0 {
            let _ = write!(text, "{number}... ");
        }
        text.push_str(san);
        if !white {
            number += 1;
        }
        white = !white;
    }
    text
}

/// Appends `text` as a JSON string.
fn push_quoted(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    if !text
        .bytes()
        .any(|byte| byte == b'"' || byte == b'\\' || byte < 0x20)
    {
        // Nothing to escape (FENs, results, outcomes): one copy.
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
        return;
    }
    for c in text.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out.push(b'"');
}

/// The error for an output that cannot be written: exit code 2.
fn unwritable(what: &str, error: &io::Error) -> CommandError {
    CommandError::unreadable(format!("cannot write {what}: {error}"))
}

/// The error for a file that cannot be opened or read: exit code 2.
fn unreadable(file: &str, error: &io::Error) -> CommandError {
    let name = display_name(file);
    CommandError::unreadable(format!("cannot read {name}: {error}"))
}

/// A bar over the file's bytes, on standard error.
fn progress_bar(size: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(size), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} {eta} left",
    ) {
        bar.set_style(style);
    }
    bar
}
