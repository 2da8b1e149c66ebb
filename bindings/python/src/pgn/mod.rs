//! `bitboards.pgn`: games read in Rust, on every core, with the GIL
//! released; one Python object per game (`read_games`) or none at all
//! (`read_table`, `to_parquet`).

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use bitboards::Position;
use bitboards_pgn::annotations;
use bitboards_pgn::record::{GAME_COLUMNS, RecordVisitor};
use bitboards_pgn::table::{self, GamesVisitor, ParquetOptions, ParquetWriter, games_schema};
use bitboards_pgn::{ParallelReader, PgnError, ReadCounter, ReadError, Source, StagedFile};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

mod tree;

use crate::arrow::ArrowStream;
use crate::board::types::Move;
use crate::board::{Board, Outcome};
use crate::errors::NotPgnError;

/// The sources of a call: paths (str) or bytes, as the Python wrapper
/// hands them over.
fn sources(items: Vec<Bound<'_, PyAny>>) -> PyResult<Vec<Source>> {
    items
        .into_iter()
        .map(|item| {
            if let Ok(bytes) = item.cast::<PyBytes>() {
                Ok(Source::Bytes(bytes.as_bytes().into()))
            } else {
                Ok(Source::File(item.extract::<String>()?.into()))
            }
        })
        .collect()
}

/// What stops a source as a whole: it cannot be read, or is not PGN.
pub enum Fatal {
    Io(String, io::Error),
    NotPgn(String, ReadError),
}

impl Fatal {
    /// What a reader's error of the whole source `name` means.
    fn of(name: &str, error: ReadError) -> Fatal {
        match error {
            ReadError::Io(error) => Fatal::Io(name.to_owned(), error),
            other => Fatal::NotPgn(name.to_owned(), other),
        }
    }

    pub fn into_py(self) -> PyErr {
        let message = self.to_string();
        match self {
            Fatal::Io(_, error) if error.kind() == io::ErrorKind::NotFound => {
                PyFileNotFoundError::new_err(message)
            }
            Fatal::Io(..) => PyOSError::new_err(message),
            Fatal::NotPgn(..) => NotPgnError::new_err(message),
        }
    }
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fatal::Io(name, error) => write!(f, "{name}: {error}"),
            Fatal::NotPgn(name, error) => write!(f, "{name}: {error}"),
        }
    }
}

/// The shared state of one read: bytes read and the flag that stops the
/// read (`counter`), games so far.
#[derive(Clone, Default)]
pub struct Progress {
    pub counter: ReadCounter,
    pub games: Arc<AtomicU64>,
}

/// The progress line's thread, while one is shown: dropping it prints the
/// last line and ends the thread.
struct Reporter(Option<(Arc<AtomicBool>, std::thread::JoinHandle<()>)>);

impl Drop for Reporter {
    fn drop(&mut self) {
        if let Some((done, thread)) = self.0.take() {
            done.store(true, Ordering::Relaxed);
            let _ = thread.join();
        }
    }
}

impl Progress {
    /// A progress line for reading `sources` on standard error, when
    /// `show`, until the returned [`Reporter`] is dropped.
    fn reporter(&self, show: bool, sources: &[Source]) -> Reporter {
        Reporter(show.then(|| {
            let done = Arc::new(AtomicBool::new(false));
            let total = sources.iter().filter_map(Source::size).sum();
            (done.clone(), self.report(total, done))
        }))
    }

    /// Prints a progress line to standard error twice a second until
    /// `done` is set, then a last one.
    fn report(&self, total: u64, done: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
        let (read, games) = (self.counter.bytes.clone(), self.games.clone());
        std::thread::spawn(move || {
            let start = Instant::now();
            let line = |end: &str| {
                let (bytes, count) = (read.load(Ordering::Relaxed), games.load(Ordering::Relaxed));
                let seconds = start.elapsed().as_secs_f64().max(1e-9);
                let percent = if total > 0 {
                    100.0 * bytes as f64 / total as f64
                } else {
                    0.0
                };
                eprint!(
                    "\r{:.1}/{:.1} MB ({percent:.0}%), {count} games, {:.0} games/s{end}",
                    bytes as f64 / 1e6,
                    total as f64 / 1e6,
                    count as f64 / seconds
                );
            };
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                if start.elapsed().as_millis() % 500 < 100 {
                    line("");
                }
            }
            line("\n");
        })
    }
}

/// Reads every game of `sources` in order, on `threads` threads: `make`
/// and `finish` as [`ParallelReader::for_each`]'s, `deliver` each game's
/// value (and error, for a game that failed). Stops at the first source
/// that cannot be read or is not PGN.
pub fn read_all<V, T>(
    sources: &[Source],
    threads: Option<usize>,
    progress: &Progress,
    make: impl Fn() -> V + Sync,
    finish: impl Fn(&mut V) -> T + Sync,
    mut deliver: impl FnMut(T, Option<PgnError>),
) -> Result<(), Fatal>
where
    V: bitboards_pgn::Visitor,
    T: Send,
{
    each_source(sources, progress, threads, |_, reader| {
        reader.for_each(&make, &finish, |_, game| {
            progress.games.fetch_add(1, Ordering::Relaxed);
            match game {
                Ok(value) => deliver(value, None),
                Err((error, partial)) => deliver(partial, Some(error)),
            }
        })
    })
}

/// Opens each of `sources` in order ([`Source::open`], with `threads`) and
/// has `read` read it (with its name), until one cannot be opened or read
/// or is not PGN, or the read is cancelled.
fn each_source(
    sources: &[Source],
    progress: &Progress,
    threads: Option<usize>,
    mut read: impl FnMut(&str, ParallelReader<Box<dyn Read + Send>>) -> Result<(), ReadError>,
) -> Result<(), Fatal> {
    for source in sources {
        let name = source.name();
        let reader = source
            .open(threads, &progress.counter)
            .map_err(|error| Fatal::Io(name.clone(), error))?;
        read(&name, reader).map_err(|error| Fatal::of(&name, error))?;
        if progress.counter.is_stopped() {
            break;
        }
    }
    Ok(())
}

/// Reads the game table of every one of `sources` in order, on `threads`
/// threads, with the visitors `visitor` makes: `each` gets the record
/// batches, `rows` rows each, and `failed` the errors of the games that
/// failed. Stops at the first source that cannot be read or is not PGN.
///
/// With `rows` `None` and more than one thread, each chunk of the input
/// is one batch, as the worker that read it built it: joining the chunks'
/// batches into larger ones is a copy of the whole table on the calling
/// thread, which the workers would wait on (docs/performance.md, "Tables
/// on every core").
fn read_all_tables(
    sources: &[Source],
    threads: Option<usize>,
    progress: &Progress,
    visitor: impl Fn() -> GamesVisitor + Sync,
    rows: Option<usize>,
    mut each: impl FnMut(RecordBatch),
    mut failed: impl FnMut(PgnError),
) -> Result<(), Fatal> {
    each_source(sources, progress, threads, |_, reader| {
        let mut tally = |games: usize, errors: Vec<PgnError>| {
            progress.games.fetch_add(games as u64, Ordering::Relaxed);
            errors.into_iter().for_each(&mut failed);
        };
        match rows {
            None if reader.thread_count() != 1 => {
                table::for_each_chunk_of(reader, &visitor, |chunk| {
                    tally(chunk.games, chunk.errors);
                    if chunk.value.num_rows() > 0 {
                        each(chunk.value);
                    }
                })
            }
            _ => table::for_each_batch_of(reader, &visitor, rows.unwrap_or(ROWS), &mut each, tally),
        }
    })
}

/// Runs `work` with the progress line on standard error when `show`.
fn with_progress<T: Send>(
    py: Python<'_>,
    sources: &[Source],
    show: bool,
    work: impl FnOnce(&Progress) -> T + Send,
) -> T {
    let progress = Progress::default();
    py.detach(|| {
        let reporter = progress.reporter(show, sources);
        let result = work(&progress);
        drop(reporter);
        result
    })
}

/// One game as read: what `Game` shows.
pub struct GameData {
    number: u64,
    tags: Vec<(String, String)>,
    start: Position,
    moves: Vec<bitboards::Move>,
    clocks: Vec<Option<f64>>,
    evals: Vec<Option<annotations::Score>>,
    outcome: Option<bitboards::Outcome>,
    result: Option<&'static str>,
    error: Option<String>,
}

fn game_data(visitor: &mut RecordVisitor) -> GameData {
    let record = visitor.take();
    let (start, moves) = visitor
        .game()
        .map_or((Position::START, Vec::new()), |game| {
            (*game.start(), game.moves().to_vec())
        });
    GameData {
        number: 0,
        tags: record.tags,
        start,
        moves,
        clocks: record.clocks,
        evals: record.evals,
        outcome: visitor.outcome(),
        result: visitor.result().map(|result| result.as_str()),
        error: None,
    }
}

/// `position` after `mv`, a null move passing the turn.
fn step(position: &mut Position, mv: bitboards::Move) {
    if mv.is_null() {
        *position = position.null_move().unwrap_or(*position);
    } else {
        position.play_unchecked_in_place(mv);
    }
}

/// A game of a PGN file, as `read_games` yields it.
///
/// >>> import bitboards.pgn, io
/// >>> game = next(bitboards.pgn.read_games(io.BytesIO(b'[White "A"]\n\n1. e4 { [%clk 0:03:00] } e5 *')))
/// >>> game.headers["White"], game.sans(), game.clocks
/// ('A', ['e4', 'e5'], [180.0, None])
#[pyclass(module = "bitboards.pgn", name = "GameRecord", frozen)]
pub struct Game(GameData);

impl Game {
    fn chess960(&self) -> bool {
        self.0
            .tags
            .iter()
            .any(|(name, value)| name == "Variant" && bitboards_pgn::is_chess960_variant(value))
            || self.0.start.castling_notation() == bitboards::CastlingNotation::KingTakesRook
    }
}

#[pymethods]
impl Game {
    /// The game's number in the input, from 1.
    #[getter]
    fn number(&self) -> u64 {
        self.0.number
    }

    /// The tags, first of a name first.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let headers = PyDict::new(py);
        for (name, value) in &self.0.tags {
            if !headers.contains(name)? {
                headers.set_item(name, value)?;
            }
        }
        Ok(headers)
    }

    /// The mainline's moves.
    #[getter]
    fn moves(&self) -> Vec<Move> {
        let mut position = self.0.start;
        let chess960 = self.chess960();
        self.0
            .moves
            .iter()
            .map(|&mv| {
                let notation = match chess960 {
                    true => bitboards::CastlingNotation::KingTakesRook,
                    false => position.castling_notation(),
                };
                let out = Move::from_move(mv, notation);
                step(&mut position, mv);
                out
            })
            .collect()
    }

    /// The mainline's moves in UCI.
    fn ucis(&self) -> Vec<String> {
        self.moves().iter().map(ToString::to_string).collect()
    }

    /// The mainline's moves in SAN.
    fn sans(&self) -> Vec<String> {
        let mut position = self.0.start;
        self.0
            .moves
            .iter()
            .map(|&mv| {
                let san = match mv.is_null() {
                    true => "--".to_owned(),
                    false => position.san(mv).to_string(),
                };
                step(&mut position, mv);
                san
            })
            .collect()
    }

    /// Per move: the `[%clk]` after it, in seconds, or None.
    #[getter]
    fn clocks(&self) -> Vec<Option<f64>> {
        self.0.clocks.clone()
    }

    /// Per move: the `[%eval]` after it (White's view), or None.
    #[getter]
    fn evals(&self) -> Vec<Option<Score>> {
        self.0.evals.iter().map(|eval| eval.map(Score)).collect()
    }

    /// The start position (the `FEN` tag's, or the standard one).
    fn start(&self) -> Board {
        Board::new_at(self.0.start, self.chess960())
    }

    /// The final position, with the moves on its stack.
    fn board(&self) -> Board {
        let real: Vec<bitboards::Move> = self
            .0
            .moves
            .iter()
            .copied()
            .filter(|mv| !mv.is_null())
            .collect();
        if real.len() == self.0.moves.len() {
            Board::replay(self.0.start, &real, self.chess960())
        } else {
            // Null moves: the final position without a move stack.
            let mut position = self.0.start;
            for &mv in &self.0.moves {
                step(&mut position, mv);
            }
            Board::new_at(position, self.chess960())
        }
    }

    /// What the rules say of the final position (checkmate, stalemate, ...)
    /// or None.
    #[getter]
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome.map(Outcome::new_from)
    }

    /// The result that ends the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`) or
    /// None.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.0.result
    }

    /// What went wrong in this game (empty for a game that read): the
    /// game is kept with what was read before the error.
    #[getter]
    fn errors(&self) -> Vec<String> {
        self.0.error.iter().cloned().collect()
    }

    fn __repr__(&self) -> String {
        let tag = |name: &str| {
            self.0
                .tags
                .iter()
                .find(|(tag, _)| tag == name)
                .map_or("?", |(_, value)| value.as_str())
        };
        format!(
            "<GameRecord #{} {} vs {}, {} moves{}>",
            self.0.number,
            tag("White"),
            tag("Black"),
            self.0.moves.len(),
            if self.0.error.is_some() {
                ", with an error"
            } else {
                ""
            }
        )
    }
}

/// An engine evaluation from White's side: centipawns (`cp`) or mate in
/// `mate` moves (negative when Black mates).
#[pyclass(module = "bitboards.pgn", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Score(pub annotations::Score);

#[pymethods]
impl Score {
    #[new]
    #[pyo3(signature = (*, cp = None, mate = None))]
    fn new(cp: Option<i32>, mate: Option<i32>) -> PyResult<Score> {
        match (cp, mate) {
            (Some(cp), None) => Ok(Score(annotations::Score::Cp(cp))),
            (None, Some(mate)) => Ok(Score(annotations::Score::Mate(mate))),
            _ => Err(PyValueError::new_err("a Score is either cp= or mate=")),
        }
    }

    #[getter]
    fn cp(&self) -> Option<i32> {
        match self.0 {
            annotations::Score::Cp(cp) => Some(cp),
            annotations::Score::Mate(_) => None,
        }
    }

    #[getter]
    fn mate(&self) -> Option<i32> {
        match self.0 {
            annotations::Score::Mate(mate) => Some(mate),
            annotations::Score::Cp(_) => None,
        }
    }

    fn is_mate(&self) -> bool {
        matches!(self.0, annotations::Score::Mate(_))
    }

    fn __repr__(&self) -> String {
        match self.0 {
            annotations::Score::Cp(cp) => format!("Score(cp={cp})"),
            annotations::Score::Mate(mate) => format!("Score(mate={mate})"),
        }
    }
}

/// The games of `read_games`, read ahead on other threads.
#[pyclass(module = "bitboards.pgn")]
pub struct GameIter {
    batches: Mutex<Receiver<Vec<Result<GameData, Fatal>>>>,
    ready: VecDeque<Result<GameData, Fatal>>,
    cancel: Arc<AtomicBool>,
}

impl Drop for GameIter {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

#[pymethods]
impl GameIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Game>> {
        if self.ready.is_empty() {
            let batches = &self.batches;
            let batch = py.detach(|| batches.lock().ok().and_then(|batches| batches.recv().ok()));
            match batch {
                Some(batch) => self.ready.extend(batch),
                None => return Ok(None),
            }
        }
        match self.ready.pop_front() {
            Some(Ok(game)) => Ok(Some(Game(game))),
            Some(Err(fatal)) => Err(fatal.into_py()),
            None => Ok(None),
        }
    }
}

/// How many games go to Python at once.
const BATCH: usize = 256;

/// `bitboards.pgn.read_games`: the games of `sources`, read on other
/// threads while Python takes them.
#[pyfunction]
#[pyo3(signature = (sources, threads = None, progress = false))]
pub fn read_games(
    sources: Vec<Bound<'_, PyAny>>,
    threads: Option<usize>,
    progress: bool,
) -> PyResult<GameIter> {
    let sources = self::sources(sources)?;
    let (send, batches) = sync_channel::<Vec<Result<GameData, Fatal>>>(8);
    let state = Progress::default();
    let cancel = state.counter.stop.clone();
    std::thread::spawn(move || {
        let _reporter = state.reporter(progress, &sources);
        let mut batch = Vec::with_capacity(BATCH);
        let mut number = 0;
        let result = read_all(
            &sources,
            threads,
            &state,
            || RecordVisitor::default().movetext(false).uci(false),
            game_data,
            |mut game, error| {
                number += 1;
                game.number = number;
                game.error = error.map(|error| error.to_string());
                batch.push(Ok(game));
                if batch.len() == BATCH
                    && send
                        .send(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)))
                        .is_err()
                {
                    state.counter.stop();
                }
            },
        );
        if let Err(fatal) = result {
            batch.push(Err(fatal));
        }
        let _ = send.send(batch);
    });
    Ok(GameIter {
        batches: Mutex::new(batches),
        ready: VecDeque::new(),
        cancel,
    })
}

/// The game table's column names, in order.
#[pyfunction]
pub fn game_columns() -> Vec<&'static str> {
    GAME_COLUMNS.to_vec()
}

/// The indices of `columns` among the game table's (all when None).
fn projection(columns: Option<Vec<String>>) -> PyResult<Option<Vec<usize>>> {
    let Some(columns) = columns else {
        return Ok(None);
    };
    columns
        .iter()
        .map(|name| {
            GAME_COLUMNS
                .iter()
                .position(|column| column == name)
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "no column {name:?}; the columns are {}",
                        GAME_COLUMNS.join(", ")
                    ))
                })
        })
        .collect::<PyResult<Vec<usize>>>()
        .map(Some)
}

/// Rows per record batch of a table read on one thread (on several, each
/// chunk of the input is a batch: see `read_all_tables`).
const ROWS: usize = 1 << 16;

/// The failed games' errors, as the Python wrapper reports them.
type Failures = Vec<String>;

/// `bitboards.pgn.read_table`: the game table of `sources` as Arrow record
/// batches, built in Rust, and the errors of the games left out.
#[pyfunction]
#[pyo3(signature = (sources, columns = None, threads = None, progress = false))]
pub fn read_table(
    py: Python<'_>,
    sources: Vec<Bound<'_, PyAny>>,
    columns: Option<Vec<String>>,
    threads: Option<usize>,
    progress: bool,
) -> PyResult<(ArrowStream, Failures)> {
    let sources = self::sources(sources)?;
    let projection = projection(columns)?;
    let wants = |name: &str| {
        let at = GAME_COLUMNS.iter().position(|column| *column == name);
        projection
            .as_ref()
            .is_none_or(|columns| columns.iter().any(|&c| Some(c) == at))
    };
    let (movetext, uci) = (wants("movetext"), wants("uci"));
    let annotations = wants("clocks") || wants("evals");
    let (batches, failures) = with_progress(py, &sources, progress, |state| {
        let mut batches = Vec::new();
        let mut failures = Vec::new();
        let result = read_all_tables(
            &sources,
            threads,
            state,
            || {
                GamesVisitor::default()
                    .movetext(movetext)
                    .uci(uci)
                    .annotations(annotations)
            },
            None,
            |batch| batches.push(batch),
            |error| failures.push(error.to_string()),
        );
        result.map(|()| (batches, failures))
    })
    .map_err(Fatal::into_py)?;
    let (schema, batches) = match projection {
        None => (games_schema(), batches),
        Some(columns) => {
            let schema = Arc::new(
                games_schema()
                    .project(&columns)
                    .map_err(|error| PyValueError::new_err(error.to_string()))?,
            );
            let batches = batches
                .iter()
                .map(|batch| batch.project(&columns))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|error| PyValueError::new_err(error.to_string()))?;
            (schema, batches)
        }
    };
    Ok((ArrowStream::new(schema, batches), failures))
}

/// `bitboards.pgn.to_parquet`: the game table of `sources` written to the
/// Parquet file `out` as it is read (by default zstd at level 1, row
/// groups of 65,536 games, encoded on a thread of the writer's own); the
/// rows written and the errors of the games left out.
#[pyfunction]
#[pyo3(signature = (
    sources, out, threads = None, progress = false, compression = "zstd",
    compression_level = None, row_group_size = None,
))]
#[allow(clippy::too_many_arguments)]
pub fn to_parquet(
    py: Python<'_>,
    sources: Vec<Bound<'_, PyAny>>,
    out: String,
    threads: Option<usize>,
    progress: bool,
    compression: &str,
    compression_level: Option<i32>,
    row_group_size: Option<usize>,
) -> PyResult<(u64, Failures)> {
    let sources = self::sources(sources)?;
    let options = ParquetOptions::chosen(Some(compression), compression_level, row_group_size)
        .map_err(PyValueError::new_err)?;
    // Written under a temporary name, named when complete: a write that
    // stops leaves no file at `out` that looks whole.
    let file = StagedFile::create(&out).map_err(|error| Fatal::Io(out.clone(), error).into_py())?;
    let parquet_error =
        |error: &dyn std::fmt::Display| PyOSError::new_err(format!("{out}: {error}"));
    let mut writer = ParquetWriter::with_options(file, games_schema(), options)
        .map_err(|e| parquet_error(&e))?
        .in_background();
    let (written, failures) = with_progress(py, &sources, progress, |state| {
        let mut failures = Vec::new();
        let mut written: Result<(), String> = Ok(());
        let result = read_all_tables(
            &sources,
            threads,
            state,
            GamesVisitor::default,
            Some(table::AS_BUILT),
            |batch| {
                if written.is_ok() {
                    written = writer.write(batch).map_err(|e| e.to_string());
                }
            },
            |error| failures.push(error.to_string()),
        );
        result.map(|()| (written, failures))
    })
    .map_err(Fatal::into_py)?;
    written.map_err(|error| parquet_error(&error))?;
    let rows = writer.rows();
    let file = writer.close().map_err(|error| parquet_error(&error))?;
    file.commit().map_err(|error| parquet_error(&error))?;
    Ok((rows, failures))
}

/// Position rows streaming out of a reading thread: the Arrow C stream
/// interface over a channel, so that Python takes each batch as it is made
/// and memory stays bounded.
#[pyclass(module = "bitboards.pgn")]
pub struct PositionStream {
    stream: ArrowStream,
    errors: Arc<Mutex<Vec<String>>>,
    fatal: Arc<Mutex<Option<Fatal>>>,
    games: Arc<AtomicU64>,
    cancel: Arc<AtomicBool>,
}

impl Drop for PositionStream {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The batches of a channel, as an Arrow `RecordBatchReader`.
struct ChannelReader {
    schema: arrow_schema::SchemaRef,
    batches: Receiver<Result<arrow_array::RecordBatch, arrow_schema::ArrowError>>,
}

impl Iterator for ChannelReader {
    type Item = Result<arrow_array::RecordBatch, arrow_schema::ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.batches.recv().ok()
    }
}

impl arrow_array::RecordBatchReader for ChannelReader {
    fn schema(&self) -> arrow_schema::SchemaRef {
        self.schema.clone()
    }
}

#[pymethods]
impl PositionStream {
    /// The rows as an `ArrowArrayStream` capsule (taken once).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, pyo3::types::PyCapsule>> {
        let _ = requested_schema;
        self.stream.export(py)
    }

    /// The errors of the games left out so far.
    fn errors(&self) -> Vec<String> {
        self.errors
            .lock()
            .map(|errors| errors.clone())
            .unwrap_or_default()
    }

    /// Games read so far (errors included).
    fn games(&self) -> u64 {
        self.games.load(Ordering::Relaxed)
    }

    /// The error that stopped the reading (a file that cannot be read or
    /// is not PGN), raised; nothing when there was none.
    fn raise_fatal(&self) -> PyResult<()> {
        match self.fatal.lock().ok().and_then(|mut fatal| fatal.take()) {
            Some(fatal) => Err(fatal.into_py()),
            None => Ok(()),
        }
    }
}

/// `bitboards.pgn.read_positions` and `iter_positions`: the position rows
/// of `sources`, made on `threads` threads while Python takes them, in
/// batches of `batch_size` rows, or as the workers built them with `None`
/// (`read_positions`, which joins them into one table anyway).
#[pyfunction]
#[pyo3(signature = (sources, threads = None, every = 1, min_ply = 0, max_ply = None, min_elo = None, sample = None, seed = 0, final_position = false, columns = None, batch_size = Some(65536), progress = false))]
#[allow(clippy::too_many_arguments)]
pub fn position_stream(
    sources: Vec<Bound<'_, PyAny>>,
    threads: Option<usize>,
    every: u16,
    min_ply: u16,
    max_ply: Option<u16>,
    min_elo: Option<i32>,
    sample: Option<f64>,
    seed: u64,
    final_position: bool,
    columns: Option<Vec<String>>,
    batch_size: Option<usize>,
    progress: bool,
) -> PyResult<PositionStream> {
    use bitboards_pgn::positions::{self, AS_BUILT, PositionOptions, positions_schema};
    let options = PositionOptions {
        every,
        min_ply,
        max_ply,
        min_elo,
        final_position,
        sample: sample.map(|fraction| (fraction, seed)),
        columns: columns.unwrap_or_default(),
        batch_rows: batch_size.unwrap_or(AS_BUILT),
    };
    options.check().map_err(PyValueError::new_err)?;
    let sources = self::sources(sources)?;
    let schema = positions_schema(&options.columns);
    let (send, batches) = sync_channel(2);
    let state = Progress::default();
    let stream = PositionStream {
        stream: ArrowStream::from_reader(Box::new(ChannelReader { schema, batches })),
        errors: Arc::default(),
        fatal: Arc::default(),
        games: state.games.clone(),
        cancel: state.counter.stop.clone(),
    };
    let (errors, fatal) = (stream.errors.clone(), stream.fatal.clone());
    std::thread::spawn(move || {
        let _reporter = state.reporter(progress, &sources);
        let mut first = 0;
        let read = each_source(&sources, &state, threads, |name, reader| {
            let summary = positions::for_each_batch_of(reader, &options, first, |batch| {
                if send.send(Ok(batch)).is_err() {
                    state.counter.stop();
                }
            })?;
            first += summary.games;
            state.games.fetch_add(summary.games, Ordering::Relaxed);
            if let Ok(mut errors) = errors.lock() {
                let named = summary
                    .errors
                    .iter()
                    .map(|error| format!("{name}: {error}"));
                errors.extend(named);
            }
            Ok(())
        });
        if let Err(error) = read {
            // The stream ends with an error; Python raises the typed one.
            let message = error.to_string();
            let _ = fatal.lock().map(|mut slot| *slot = Some(error));
            let _ = send.send(Err(arrow_schema::ArrowError::ExternalError(message.into())));
        }
    });
    Ok(stream)
}

/// `bitboards.pgn`'s compiled part: games, their tables and their trees.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Game>()?;
    module.add_class::<Score>()?;
    module.add_class::<GameIter>()?;
    module.add_class::<PositionStream>()?;
    module.add_class::<ArrowStream>()?;
    module.add_function(wrap_pyfunction!(tree::build_game_tree, module)?)?;
    module.add_function(wrap_pyfunction!(tree::read_tags, module)?)?;
    module.add_function(wrap_pyfunction!(tree::movetext_tokens, module)?)?;
    module.add_function(wrap_pyfunction!(read_games, module)?)?;
    module.add_function(wrap_pyfunction!(read_table, module)?)?;
    module.add_function(wrap_pyfunction!(to_parquet, module)?)?;
    module.add_function(wrap_pyfunction!(game_columns, module)?)?;
    module.add_function(wrap_pyfunction!(position_stream, module)?)?;
    Ok(())
}
