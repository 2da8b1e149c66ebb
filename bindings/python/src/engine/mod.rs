//! UCI engines: the compiled part of `bitboards.engine` (python-chess's
//! `chess.engine` names) over the `bitboards-engine` crate.
//!
//! [`UciEngine`] is one engine process: the handshake, options, `isready`,
//! searches and `quit`, every wait with the GIL released and a deadline.
//! `bitboards.engine.SimpleEngine` wraps it in Python, where the scores,
//! the `InfoDict`s and python-chess's keyword arguments are.
//! [`analyse_many`] runs a [`Pool`] over many positions on every core and
//! returns the rows as an Arrow stream.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bitboards::{CastlingNotation, Color, Position};
use bitboards_engine::table::{AnalysisBuilder, analysis_schema};
use bitboards_engine::{
    Analysis, Clocks, Engine, EngineBuilder, EngineError, Info, Job, Limit, OptionKind,
    OptionValue, Pool, Score,
};
use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::arrow::ArrowStream;
use crate::board::Board;
use crate::board::types::Move;
use crate::errors::{fen_error, uci_error};

/// The exception of `bitboards.engine` named `name` (defined in Python,
/// so that `EngineTimeoutError` can be both an `EngineError` and a
/// `TimeoutError`), with `message`.
fn raise(py: Python<'_>, name: &str, message: String) -> PyErr {
    match py
        .import("bitboards.engine")
        .and_then(|module| module.getattr(name))
    {
        Ok(class) => match class.cast_into::<pyo3::types::PyType>() {
            Ok(class) => PyErr::from_type(class, message),
            Err(_) => pyo3::exceptions::PyRuntimeError::new_err(message),
        },
        Err(error) => error,
    }
}

/// The Python exception for `error`: `EngineTerminatedError` when the
/// engine is gone, `EngineTimeoutError` for a missed deadline,
/// `FileNotFoundError`/`OSError` when it could not start, `EngineError`
/// for everything else (a refused option, a bad limit, an illegal move).
pub fn engine_error(py: Python<'_>, error: &EngineError) -> PyErr {
    let message = error.to_string();
    match error {
        EngineError::Spawn { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            PyFileNotFoundError::new_err(message)
        }
        EngineError::Spawn { .. } => PyOSError::new_err(message),
        // The crate's reason for a handshake that ran out of time starts
        // so; any other is an exit.
        EngineError::NotUci { reason, .. } if reason.starts_with("no `uciok` within") => {
            raise(py, "EngineTimeoutError", message)
        }
        EngineError::NotUci { .. }
        | EngineError::Terminated { .. }
        | EngineError::Closed { .. } => raise(py, "EngineTerminatedError", message),
        EngineError::Timeout { .. } => raise(py, "EngineTimeoutError", message),
        _ => raise(py, "EngineError", message),
    }
}

fn seconds(value: f64, what: &str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(value).map_err(|_| {
        PyValueError::new_err(format!(
            "{what} must be a number of seconds from 0, not {value}"
        ))
    })
}

/// A search limit from python-chess's `Limit` fields: (time, depth, nodes,
/// mate, white_clock, black_clock, white_inc, black_inc, remaining_moves).
/// A clock given for one side only leaves the other at 0.
type LimitFields = (
    Option<f64>,
    Option<u32>,
    Option<u64>,
    Option<u32>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<u32>,
);

fn limit_of(fields: LimitFields) -> PyResult<Limit> {
    let (time, depth, nodes, mate, wclock, bclock, winc, binc, movestogo) = fields;
    let mut limit = Limit {
        movetime: time.map(|t| seconds(t, "Limit.time")).transpose()?,
        depth,
        nodes,
        mate,
        clocks: None,
        infinite: false,
    };
    if wclock.is_some() || bclock.is_some() {
        let get =
            |value: Option<f64>, what: &str| value.map_or(Ok(Duration::ZERO), |v| seconds(v, what));
        limit.clocks = Some(Clocks {
            wtime: get(wclock, "Limit.white_clock")?,
            btime: get(bclock, "Limit.black_clock")?,
            winc: get(winc, "Limit.white_inc")?,
            binc: get(binc, "Limit.black_inc")?,
            movestogo,
        });
    }
    if limit.is_empty() {
        return Err(PyValueError::new_err(
            "the Limit sets nothing (time, depth, nodes, mate or the clocks): the search would never end",
        ));
    }
    Ok(limit)
}

/// What to search: a start, the moves from it, and how castling moves are
/// written back to Python (king takes rook on a Chess960 board).
pub struct Request {
    start: Position,
    moves: Vec<bitboards::Move>,
    notation: CastlingNotation,
}

impl Request {
    /// The engine's query, restricted to `searchmoves` when given.
    fn query<'a>(
        &'a self,
        searchmoves: Option<&'a [bitboards::Move]>,
    ) -> bitboards_engine::Query<'a> {
        let query = bitboards_engine::Query::from((&self.start, self.moves.as_slice()));
        match searchmoves {
            Some(moves) => query.with_searchmoves(moves),
            None => query,
        }
    }

    /// `root_moves` (UCI) read in the position searched: an illegal one
    /// raises `IllegalMoveError`.
    fn searchmoves(&self, root_moves: Option<&[String]>) -> PyResult<Option<Vec<bitboards::Move>>> {
        let Some(ucis) = root_moves else {
            return Ok(None);
        };
        let end = self.end();
        ucis.iter()
            .map(|uci| end.parse_uci(uci).map_err(|error| uci_error(uci, &error)))
            .collect::<PyResult<Vec<_>>>()
            .map(Some)
    }

    fn end(&self) -> Position {
        let mut position = self.start;
        for &mv in &self.moves {
            position = position.play_unchecked(mv);
        }
        position
    }
}

/// A request from a `bitboards.Board` (its root position and move stack),
/// a FEN, or a `(fen, [uci, ...], chess960)` tuple (what `engine.py` makes
/// of a python-chess board).
fn request_of(query: &Bound<'_, PyAny>) -> PyResult<Request> {
    if let Ok(board) = query.cast::<Board>() {
        let board = board.try_borrow()?;
        if board.is_loose() || board.stack_is_loose() {
            return Err(PyValueError::new_err(format!(
                "an engine needs a position the rules allow (one king a side, no pawn on a back rank, the side not to move not in check), with legal moves: {}",
                board.position().fen()
            )));
        }
        let (start, moves) = board.start_and_moves();
        return Ok(Request {
            start,
            moves,
            notation: board.castling_notation(),
        });
    }
    if let Ok(fen) = query.cast::<PyString>() {
        return parse_request(&fen.to_cow()?, &[], false);
    }
    if let Ok((fen, moves, chess960)) = query.extract::<(String, Vec<String>, bool)>() {
        return parse_request(&fen, &moves, chess960);
    }
    Err(PyTypeError::new_err(format!(
        "expected a board (bitboards.Board or chess.Board) or a FEN, not {}",
        query.get_type().name()?
    )))
}

fn notation(start: &Position, chess960: bool) -> CastlingNotation {
    if chess960 {
        CastlingNotation::KingTakesRook
    } else {
        start.castling_notation()
    }
}

fn parse_request(fen: &str, moves: &[String], chess960: bool) -> PyResult<Request> {
    let start = Position::from_fen(fen).map_err(|error| fen_error(fen, &error))?;
    let mut position = start;
    let mut parsed = Vec::with_capacity(moves.len());
    for uci in moves {
        let mv = position
            .parse_uci(uci)
            .map_err(|error| uci_error(uci, &error))?;
        position = position.play_unchecked(mv);
        parsed.push(mv);
    }
    Ok(Request {
        start,
        moves: parsed,
        notation: notation(&start, chess960),
    })
}

fn option_value(value: &Bound<'_, PyAny>) -> PyResult<OptionValue> {
    if value.is_none() {
        return Ok(OptionValue::Button);
    }
    // bool before int: a Python bool is an int.
    if let Ok(flag) = value.cast::<pyo3::types::PyBool>() {
        return Ok(OptionValue::Bool(flag.is_true()));
    }
    if let Ok(number) = value.extract::<i64>() {
        return Ok(OptionValue::Int(number));
    }
    if let Ok(text) = value.extract::<String>() {
        return Ok(OptionValue::Text(text));
    }
    Err(PyTypeError::new_err(format!(
        "an option's value is a bool, an int, a str or None, not {}",
        value.get_type().name()?
    )))
}

/// The score as `(kind, value)`: ("cp", n), ("mate", n) with n != 0,
/// ("mated", 0) for `mate 0` and ("mate_given", 0) for `mate +0`.
fn score_tuple(score: Score) -> (&'static str, i32) {
    match score {
        Score::Cp(cp) => ("cp", cp),
        Score::Mate(n) => ("mate", n),
        Score::Mated => ("mated", 0),
        Score::MateGiven => ("mate_given", 0),
    }
}

/// One PV's info as a dict with python-chess's keys, but "score" a
/// `(kind, value)` tuple and "wdl" a `(win, draw, loss)` tuple, both from
/// the side to move's view (engine.py makes them `PovScore`/`PovWdl`).
fn info_dict<'py>(
    py: Python<'py>,
    info: &Info,
    notation: CastlingNotation,
    objects: &[Py<Move>],
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    if let Some(depth) = info.depth {
        dict.set_item("depth", depth)?;
    }
    if let Some(seldepth) = info.seldepth {
        dict.set_item("seldepth", seldepth)?;
    }
    dict.set_item("multipv", info.multipv)?;
    if let Some(score) = info.score {
        dict.set_item("score", score_tuple(score))?;
        match info.bound {
            bitboards_engine::Bound::Lower => dict.set_item("lowerbound", true)?,
            bitboards_engine::Bound::Upper => dict.set_item("upperbound", true)?,
            bitboards_engine::Bound::Exact => {}
        }
    }
    if let Some(wdl) = info.wdl {
        dict.set_item("wdl", (wdl.win, wdl.draw, wdl.loss))?;
    }
    if let Some(nodes) = info.nodes {
        dict.set_item("nodes", nodes)?;
    }
    if let Some(nps) = info.nps {
        dict.set_item("nps", nps)?;
    }
    if let Some(time) = info.time {
        dict.set_item("time", time.as_secs_f64())?;
    }
    if let Some(hashfull) = info.hashfull {
        dict.set_item("hashfull", hashfull)?;
    }
    if let Some(tbhits) = info.tbhits {
        dict.set_item("tbhits", tbhits)?;
    }
    if !info.pv.is_empty() {
        let pv = PyList::new(
            py,
            info.pv
                .iter()
                .map(|&mv| Move::from_move(mv, notation).shared(py, objects)),
        )?;
        dict.set_item("pv", pv)?;
    }
    if let Some(string) = &info.string {
        dict.set_item("string", string)?;
    }
    let shared = |mv: bitboards::Move| Move::from_move(mv, notation).shared(py, objects);
    let line = |moves: &[bitboards::Move]| PyList::new(py, moves.iter().map(|&mv| shared(mv)));
    if let Some(mv) = info.currmove {
        dict.set_item("currmove", shared(mv))?;
    }
    if let Some(number) = info.currmovenumber {
        dict.set_item("currmovenumber", number)?;
    }
    if let Some(load) = info.cpuload {
        dict.set_item("cpuload", load)?;
    }
    if !info.refutation.is_empty() {
        let refutation = PyDict::new(py);
        for (mv, moves) in &info.refutation {
            refutation.set_item(shared(*mv), line(moves)?)?;
        }
        dict.set_item("refutation", refutation)?;
    }
    if !info.currline.is_empty() {
        let currline = PyDict::new(py);
        for (cpu, moves) in &info.currline {
            currline.set_item(cpu, line(moves)?)?;
        }
        dict.set_item("currline", currline)?;
    }
    if let Some(ebf) = info.ebf {
        dict.set_item("ebf", ebf)?;
    }
    Ok(dict)
}

/// A `bestmove` line's move and ponder move.
type BestAndPonder<'py> = (Option<Bound<'py, Move>>, Option<Bound<'py, Move>>);

/// The position a search is about, for reading the engine's lines on it
/// (`bitboards.engine`'s asyncio protocol): its `info` lines and its
/// `bestmove`, every move checked against the position.
#[pyclass(module = "bitboards._bitboards", frozen)]
pub struct UciSearch {
    position: Position,
    notation: CastlingNotation,
}

#[pymethods]
impl UciSearch {
    /// The position at the end of `query` (a `bitboards.Board`, a FEN, or
    /// `(start fen, [uci, ...], chess960)`).
    #[new]
    fn new(query: &Bound<'_, PyAny>) -> PyResult<UciSearch> {
        let request = request_of(query)?;
        Ok(UciSearch {
            position: request.end(),
            notation: request.notation,
        })
    }

    /// Whether White is to move.
    #[getter]
    fn turn(&self) -> bool {
        self.position.side_to_move() == Color::White
    }

    /// The fields of an `info` line (with or without its `info` word) as
    /// `info_dict` gives them: "score" and "wdl" tuples from the side to
    /// move's view. Bad fields are left out, never an error;
    /// "multipv" only when the line has it, as python-chess reads lines.
    fn info<'py>(&self, py: Python<'py>, line: &str) -> PyResult<Bound<'py, PyDict>> {
        let (info, _) = Info::parse(line, &self.position);
        let dict = info_dict(py, &info, self.notation, Move::objects(py)?)?;
        let ranked = line
            .split_whitespace()
            .take_while(|&token| token != "string")
            .any(|token| token == "multipv");
        if !ranked {
            dict.del_item("multipv")?;
        }
        Ok(dict)
    }

    /// The move and the expected reply of a `bestmove` line's arguments
    /// (`e2e4 ponder e7e5`): None for `(none)`, `0000` or `NULL`; an
    /// illegal move raises `EngineError`, an illegal ponder move is None.
    fn bestmove<'py>(&self, py: Python<'py>, args: &str) -> PyResult<BestAndPonder<'py>> {
        let objects = Move::objects(py)?;
        let mut tokens = args.split_whitespace();
        let best = match tokens.next() {
            None | Some("(none)" | "NULL" | "0000") => return Ok((None, None)),
            Some(text) => self.position.parse_uci(text).map_err(|error| {
                raise(
                    py,
                    "EngineError",
                    format!(
                        "the engine's best move {text:?} is not legal in {} ({error})",
                        self.position.fen()
                    ),
                )
            })?,
        };
        let after = self.position.play_unchecked(best);
        let ponder = match (tokens.next(), tokens.next()) {
            (Some("ponder"), Some(text)) => after.parse_uci(text).ok(),
            _ => None,
        };
        let shared = |mv: bitboards::Move| Move::from_move(mv, self.notation).shared(py, objects);
        Ok((Some(shared(best)), ponder.map(shared)))
    }
}

/// An analysis as `(infos, best, ponder, turn, warnings)`.
fn analysis_tuple<'py>(
    py: Python<'py>,
    analysis: &Analysis,
    notation: CastlingNotation,
) -> PyResult<Bound<'py, PyTuple>> {
    let objects = Move::objects(py)?;
    let infos = PyList::empty(py);
    for info in &analysis.infos {
        infos.append(info_dict(py, info, notation, objects)?)?;
    }
    let mv = |mv: Option<bitboards::Move>| {
        mv.map(|mv| Move::from_move(mv, notation).shared(py, objects))
    };
    let warnings: Vec<String> = analysis.warnings.iter().map(ToString::to_string).collect();
    (
        infos,
        mv(analysis.best),
        mv(analysis.ponder),
        analysis.position.side_to_move() == Color::White,
        warnings,
    )
        .into_pyobject(py)
}

/// A builder from `command` (the program and its arguments), the
/// handshake timeout and the deadline of a search by depth, nodes or mate
/// alone, in seconds (None: the crate's 10 s and an hour). The search's
/// deadline is its silence's too: python-chess gives up on no engine for
/// keeping quiet.
fn builder_of(
    command: &[String],
    timeout: Option<f64>,
    search_timeout: Option<f64>,
) -> PyResult<EngineBuilder> {
    let Some((program, args)) = command.split_first() else {
        return Err(PyValueError::new_err(
            "the engine's command is empty: give its path (and arguments)",
        ));
    };
    let mut builder = EngineBuilder::new(program.clone()).args(args.iter().cloned());
    if let Some(timeout) = timeout {
        // python-chess's `timeout` bounds the whole start: `uci`, then
        // `isready`.
        let timeout = seconds(timeout, "timeout")?;
        builder = builder.handshake_timeout(timeout).ready_timeout(timeout);
    }
    if let Some(timeout) = search_timeout {
        let timeout = seconds(timeout, "search_timeout")?;
        builder = builder.search_timeout(timeout).silence_timeout(timeout);
    }
    Ok(builder)
}

/// A flag that ends a search of `UciEngine.analyse_stream` early: the
/// engine is told to `stop` within 10 ms of `set()`.
#[pyclass(module = "bitboards._bitboards", frozen)]
#[derive(Default)]
pub struct SearchStop {
    flag: AtomicBool,
}

#[pymethods]
impl SearchStop {
    #[new]
    fn new() -> SearchStop {
        SearchStop::default()
    }

    /// Asks for the search to stop.
    fn set(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether `set()` was called.
    fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

/// One UCI engine process (the base of `bitboards.engine.SimpleEngine`).
///
/// Calls from several threads take turns (each waits for the engine with
/// the GIL released); after `quit`, or a fault that shut the engine down,
/// every call raises `EngineTerminatedError`.
#[pyclass(module = "bitboards._bitboards", frozen, subclass)]
pub struct UciEngine {
    engine: Mutex<Option<Engine>>,
    pid: u32,
    name: Option<String>,
    author: Option<String>,
    /// The options as engine.py's `Option` fields: (name, type, default,
    /// min, max, var).
    options: Vec<OptionRow>,
}

type OptionRow = (
    String,
    &'static str,
    OptionDefault,
    Option<i64>,
    Option<i64>,
    Vec<String>,
);

/// An option's default as Python sees it.
#[derive(Clone)]
enum OptionDefault {
    Bool(bool),
    Int(i64),
    Text(String),
    None,
}

impl<'py> IntoPyObject<'py> for OptionDefault {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            OptionDefault::Bool(flag) => flag.into_pyobject(py)?.to_owned().into_any(),
            OptionDefault::Int(number) => number.into_pyobject(py)?.into_any(),
            OptionDefault::Text(text) => text.into_pyobject(py)?.into_any(),
            OptionDefault::None => py.None().into_bound(py),
        })
    }
}

fn option_row(option: &bitboards_engine::UciOption) -> OptionRow {
    let name = option.name.clone();
    match &option.kind {
        OptionKind::Check { default } => (
            name,
            "check",
            OptionDefault::Bool(*default),
            None,
            None,
            vec![],
        ),
        OptionKind::Spin { default, min, max } => (
            name,
            "spin",
            OptionDefault::Int(*default),
            Some(*min),
            Some(*max),
            vec![],
        ),
        OptionKind::Combo { default, vars } => (
            name,
            "combo",
            OptionDefault::Text(default.clone()),
            None,
            None,
            vars.clone(),
        ),
        OptionKind::Button => (name, "button", OptionDefault::None, None, None, vec![]),
        OptionKind::String { default } => (
            name,
            "string",
            OptionDefault::Text(default.clone()),
            None,
            None,
            vec![],
        ),
    }
}

impl UciEngine {
    /// Runs `work` on the engine with the GIL released; an engine already
    /// quit is `EngineTerminatedError`.
    fn with_engine<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut Engine) -> Result<T, EngineError> + Send,
    ) -> PyResult<T> {
        let result = py.detach(|| {
            let mut guard = match self.engine.lock() {
                Ok(guard) => guard,
                Err(poisoned) => poisoned.into_inner(),
            };
            guard.as_mut().map(work)
        });
        match result {
            Some(Ok(value)) => Ok(value),
            Some(Err(error)) => Err(engine_error(py, &error)),
            None => Err(raise(
                py,
                "EngineTerminatedError",
                "the engine was quit or closed".to_owned(),
            )),
        }
    }
}

#[pymethods]
impl UciEngine {
    /// Starts the engine: `command` is its path and arguments; `timeout`
    /// (seconds) bounds the handshake, `search_timeout` a search by depth,
    /// nodes or mate alone; `setpgrp` puts the engine in a process group
    /// of its own, killed whole (python-chess's `setpgrp`).
    #[new]
    #[pyo3(signature = (command, timeout = None, search_timeout = None, setpgrp = false))]
    fn new(
        py: Python<'_>,
        command: Vec<String>,
        timeout: Option<f64>,
        search_timeout: Option<f64>,
        setpgrp: bool,
    ) -> PyResult<UciEngine> {
        let builder = builder_of(&command, timeout, search_timeout)?
            .process_group(setpgrp)
            // As python-chess: `timeout` bounds `uci`, and the first command
            // that waits on the engine finds one that never says `readyok`.
            .ready_at_start(false);
        let engine = py
            .detach(|| builder.start())
            .map_err(|error| engine_error(py, &error))?;
        Ok(UciEngine {
            pid: engine.pid(),
            name: engine.name().map(str::to_owned),
            author: engine.author().map(str::to_owned),
            options: engine.options().iter().map(option_row).collect(),
            engine: Mutex::new(Some(engine)),
        })
    }

    /// The engine's process id.
    #[getter]
    fn pid(&self) -> u32 {
        self.pid
    }

    /// The engine's `id name` and `id author`, as given.
    fn engine_id(&self) -> (Option<String>, Option<String>) {
        (self.name.clone(), self.author.clone())
    }

    /// The options the engine declared, in its order: `(name, type,
    /// default, min, max, var)`.
    fn engine_options(&self) -> Vec<OptionRow> {
        self.options.clone()
    }

    /// `isready`, answered by `readyok`.
    fn is_ready(&self, py: Python<'_>) -> PyResult<()> {
        self.with_engine(py, Engine::is_ready)
    }

    /// `ucinewgame` and `isready`.
    fn new_game(&self, py: Python<'_>) -> PyResult<()> {
        self.with_engine(py, Engine::new_game)
    }

    /// `setoption`, checked against the options the engine declared.
    fn set_option(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = option_value(value)?;
        self.with_engine(py, |engine| engine.set_option(name, value))
    }

    /// Searches `query` (a board, a FEN, or `(fen, [uci], chess960)`) to
    /// `limit` with `multipv` PVs, after `ucinewgame` when `new_game`:
    /// `(infos, best, ponder, white_to_move, warnings)`.
    /// `ponderhit`: whether a ponder search of this very position may go
    /// on (a play; an analysis stops it).
    #[pyo3(signature = (query, limit, multipv = 1, new_game = false, root_moves = None, ponderhit = false))]
    #[allow(clippy::too_many_arguments)]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        query: &Bound<'py, PyAny>,
        limit: LimitFields,
        multipv: u32,
        new_game: bool,
        root_moves: Option<Vec<String>>,
        ponderhit: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let request = request_of(query)?;
        let limit = limit_of(limit)?;
        let searchmoves = request.searchmoves(root_moves.as_deref())?;
        let analysis = self.with_engine(py, |engine| {
            if !ponderhit {
                engine.stop_pondering()?;
            }
            if new_game {
                engine.new_game()?;
            }
            engine.analyse(request.query(searchmoves.as_deref()), &limit, multipv)
        })?;
        analysis_tuple(py, &analysis, request.notation)
    }

    /// As `analyse`, handing each `info` line to `on_info` as it arrives
    /// (a dict as in the result), and telling the engine to `stop` when
    /// `stop.set()` is called from another thread. An exception of
    /// `on_info` stops the search and is raised after its `bestmove`.
    /// A `limit` of None searches until `stop` is set (`go infinite`);
    /// `root_moves` (UCI) restricts the search to those moves.
    #[pyo3(signature = (query, limit, multipv, new_game, stop, on_info, root_moves = None))]
    #[allow(clippy::too_many_arguments)]
    fn analyse_stream<'py>(
        &self,
        py: Python<'py>,
        query: &Bound<'py, PyAny>,
        limit: Option<LimitFields>,
        multipv: u32,
        new_game: bool,
        stop: Py<SearchStop>,
        on_info: Py<PyAny>,
        root_moves: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let request = request_of(query)?;
        let limit = limit.map_or_else(|| Ok(Limit::infinite()), limit_of)?;
        let searchmoves = request.searchmoves(root_moves.as_deref())?;
        let objects = Move::objects(py)?;
        let notation = request.notation;
        let mut failure: Option<PyErr> = None;
        let analysis = self.with_engine(py, |engine| {
            engine.stop_pondering()?;
            if new_game {
                engine.new_game()?;
            }
            let flag = &stop.get().flag;
            engine.analyse_until(
                request.query(searchmoves.as_deref()),
                &limit,
                multipv,
                flag,
                |info| {
                    if failure.is_some() {
                        return;
                    }
                    let called = Python::attach(|py| -> PyResult<()> {
                        let dict = info_dict(py, info, notation, objects)?;
                        on_info.call1(py, (dict,))?;
                        Ok(())
                    });
                    if let Err(error) = called {
                        failure = Some(error);
                        flag.store(true, Ordering::Relaxed);
                    }
                },
            )
        })?;
        if let Some(error) = failure {
            return Err(error);
        }
        analysis_tuple(py, &analysis, notation)
    }

    /// Leaves the engine searching `query` (after its move and the reply
    /// it expects) with `go ponder` at `limit`; the next search of that
    /// very position says `ponderhit`, any other command `stop`.
    fn start_ponder(
        &self,
        py: Python<'_>,
        query: &Bound<'_, PyAny>,
        limit: LimitFields,
    ) -> PyResult<()> {
        let request = request_of(query)?;
        let limit = limit_of(limit)?;
        self.with_engine(py, |engine| engine.ponder(request.query(None), &limit))
    }

    /// Whether `query` has a legal move (for `play`, which python-chess
    /// refuses in a finished game).
    fn has_legal_moves(&self, query: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(!request_of(query)?.end().legal_moves().is_empty())
    }

    /// `quit`: the engine is told to exit, killed if it does not within
    /// `grace` seconds (None: a second), and reaped. Returns whether it
    /// had to be killed; nothing when it was quit already.
    #[pyo3(signature = (grace=None))]
    fn quit(&self, py: Python<'_>, grace: Option<f64>) -> PyResult<bool> {
        let grace = grace.map(|grace| seconds(grace, "timeout")).transpose()?;
        Ok(py.detach(|| {
            let engine = match self.engine.lock() {
                Ok(mut guard) => guard.take(),
                Err(poisoned) => poisoned.into_inner().take(),
            };
            engine.is_some_and(|engine| {
                match grace {
                    Some(grace) => engine.quit_within(grace),
                    None => engine.quit(),
                }
                .is_err()
            })
        }))
    }

    /// Whether the engine was quit, or shut down by a fault.
    fn is_closed(&self, py: Python<'_>) -> bool {
        py.detach(|| match self.engine.lock() {
            Ok(guard) => guard.as_ref().is_none_or(Engine::is_closed),
            Err(_) => true,
        })
    }
}

/// Analyses every position of `positions` (boards, FENs or `(fen, [uci],
/// chess960)` tuples, turned into requests here, with the GIL) on
/// `engines` engines at once, and returns the rows (one per PV) as an
/// Arrow stream; the first position that fails raises after the pool is
/// shut down, naming its index.
#[pyfunction]
#[pyo3(signature = (command, positions, limit, engines, multipv, options, reset, timeout = None, search_timeout = None))]
#[allow(clippy::too_many_arguments)]
pub fn analyse_many(
    py: Python<'_>,
    command: Vec<String>,
    positions: &Bound<'_, PyAny>,
    limit: LimitFields,
    engines: usize,
    multipv: u32,
    options: Vec<(String, Bound<'_, PyAny>)>,
    reset: bool,
    timeout: Option<f64>,
    search_timeout: Option<f64>,
) -> PyResult<ArrowStream> {
    let builder = builder_of(&command, timeout, search_timeout)?.process_group(false);
    let limit = limit_of(limit)?;
    if multipv == 0 {
        return Err(PyValueError::new_err("multipv starts at 1"));
    }
    let mut jobs = Vec::new();
    for (index, item) in positions.try_iter()?.enumerate() {
        let request = request_of(&item?).map_err(|error| {
            let message = format!("position {index}: {}", error.value(py));
            PyErr::from_type(error.get_type(py), message)
        })?;
        let ply = request.moves.len();
        jobs.push((Job::from((request.start, request.moves)), ply));
    }
    let options: Vec<(String, OptionValue)> = options
        .iter()
        .map(|(name, value)| Ok((name.clone(), option_value(value)?)))
        .collect::<PyResult<_>>()?;
    let result = py.detach(
        || -> Result<AnalysisBuilder, (Option<usize>, EngineError)> {
            let borrowed: Vec<(&str, OptionValue)> = options
                .iter()
                .map(|(name, value)| (name.as_str(), value.clone()))
                .collect();
            let mut pool = Pool::new(builder, engines, &borrowed).map_err(|error| (None, error))?;
            let plies: Vec<usize> = jobs.iter().map(|(_, ply)| *ply).collect();
            let mut rows = AnalysisBuilder::new();
            let results =
                pool.analyse_all(jobs.into_iter().map(|(job, _)| job), &limit, multipv, reset);
            for (index, result) in results.enumerate() {
                match result {
                    Ok(analysis) => rows.push(index as u64, plies[index], &analysis),
                    Err(failure) => return Err((Some(failure.index), failure.error)),
                }
            }
            Ok(rows)
        },
    );
    match result {
        Ok(mut rows) => Ok(ArrowStream::new(analysis_schema(), vec![rows.finish()])),
        Err((index, error)) => {
            let error = engine_error(py, &error);
            Err(match index {
                Some(index) => PyErr::from_type(
                    error.get_type(py),
                    format!("position {index}: {}", error.value(py)),
                ),
                None => error,
            })
        }
    }
}

/// An `option name ... type ...` line as engine.py's `Option` fields, or
/// None when it declares no option the crate can read (the line is then
/// ignored, as the handshake does).
#[pyfunction]
fn parse_uci_option(line: &str) -> Option<OptionRow> {
    bitboards_engine::UciOption::parse(line).map(|option| option_row(&option))
}

/// `bitboards.engine`'s compiled part: the UCI client and the pool.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<UciEngine>()?;
    module.add_class::<SearchStop>()?;
    module.add_class::<UciSearch>()?;
    module.add_function(wrap_pyfunction!(parse_uci_option, module)?)?;
    module.add_function(wrap_pyfunction!(analyse_many, module)?)?;
    Ok(())
}
