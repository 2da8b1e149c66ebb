//! [`Engine`]: one UCI engine process, its handshake, options, searches and
//! faults.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bitboards::{CastlingNotation, Game, Move, Position};

use crate::error::EngineError;
use crate::info::{Info, Warning};
use crate::limit::Limit;
use crate::options::{OptionKind, OptionValue, Options, UciOption};
use crate::process::{Next, Process};

/// The most warnings one call keeps (an engine that writes nothing but
/// garbage cannot fill the memory).
const MAX_WARNINGS: usize = 64;

/// The most lines one search may write before its `bestmove`: far beyond
/// any search (Stockfish writes some thousands at depth 40 with 50 PVs), so
/// that an engine that writes without end is found within seconds.
const MAX_SEARCH_LINES: u64 = 1_000_000;

/// How often a search that can be stopped from another thread
/// ([`Engine::analyse_until`]) looks at its stop flag.
const STOP_POLL: Duration = Duration::from_millis(10);

/// How to start an engine: its program, arguments and deadlines.
///
/// ```no_run
/// use std::time::Duration;
/// use bitboards_engine::EngineBuilder;
///
/// let engine = EngineBuilder::new("/usr/games/stockfish")
///     .handshake_timeout(Duration::from_secs(5))
///     .deadline_margin(Duration::from_millis(500))
///     .search_timeout(Duration::from_secs(60))
///     .start()?;
/// # Ok::<(), bitboards_engine::EngineError>(())
/// ```
#[derive(Clone, Debug)]
pub struct EngineBuilder {
    path: String,
    args: Vec<String>,
    handshake_timeout: Duration,
    ready_timeout: Duration,
    margin: Duration,
    search_timeout: Duration,
    silence_timeout: Duration,
    stop_grace: Duration,
    quit_grace: Duration,
    spin: Duration,
    inherit_stderr: bool,
    process_group: bool,
    ready_at_start: bool,
}

impl EngineBuilder {
    /// The engine at `path`, with the default deadlines: 10 s for the
    /// handshake, 30 s for `isready`, a timed search's time plus 1 s; for a
    /// search of depth or nodes alone, 10 s without a line from the engine
    /// and an hour in all; 1 s to answer `stop` or `quit`.
    #[must_use]
    pub fn new(path: impl Into<String>) -> EngineBuilder {
        EngineBuilder {
            path: path.into(),
            args: Vec::new(),
            handshake_timeout: Duration::from_secs(10),
            ready_timeout: Duration::from_secs(30),
            margin: Duration::from_secs(1),
            search_timeout: Duration::from_secs(3600),
            silence_timeout: Duration::from_secs(10),
            stop_grace: Duration::from_secs(1),
            quit_grace: Duration::from_secs(1),
            spin: Duration::from_micros(300),
            inherit_stderr: false,
            process_group: true,
            ready_at_start: true,
        }
    }

    /// Whether the start ends with `isready` (the default) or at `uciok`,
    /// as python-chess's does: an engine that answers `uci` but not
    /// `isready` is then found by the first command that waits on it.
    #[must_use]
    pub fn ready_at_start(mut self, ready: bool) -> EngineBuilder {
        self.ready_at_start = ready;
        self
    }

    /// Adds an argument of the program.
    #[must_use]
    pub fn arg(mut self, arg: impl Into<String>) -> EngineBuilder {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments of the program.
    #[must_use]
    pub fn args<I: IntoIterator<Item = S>, S: Into<String>>(mut self, args: I) -> EngineBuilder {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// How long `uci` may take to be answered by `uciok`.
    #[must_use]
    pub fn handshake_timeout(mut self, timeout: Duration) -> EngineBuilder {
        self.handshake_timeout = timeout;
        self
    }

    /// How long `isready` may take to be answered by `readyok` (after
    /// `ucinewgame` an engine clears its hash, which takes a while for a
    /// big one).
    #[must_use]
    pub fn ready_timeout(mut self, timeout: Duration) -> EngineBuilder {
        self.ready_timeout = timeout;
        self
    }

    /// What a timed search (movetime, clocks) may take beyond its time.
    #[must_use]
    pub fn deadline_margin(mut self, margin: Duration) -> EngineBuilder {
        self.margin = margin;
        self
    }

    /// How long a search limited by depth, nodes or mate alone may take in
    /// all (an hour by default).
    #[must_use]
    pub fn search_timeout(mut self, timeout: Duration) -> EngineBuilder {
        self.search_timeout = timeout;
        self
    }

    /// How long a search limited by depth, nodes or mate alone may go
    /// without a line from the engine (10 s by default). A hung engine is
    /// found within it; an engine that keeps reporting its search (UCI
    /// engines write `info` as they go deeper) may search for up to
    /// [`EngineBuilder::search_timeout`]. A timed search has its own
    /// deadline instead.
    ///
    /// ```no_run
    /// use std::time::Duration;
    /// use bitboards::Position;
    /// use bitboards_engine::{EngineBuilder, EngineError, Limit};
    ///
    /// let mut engine = EngineBuilder::new("/usr/games/stockfish")
    ///     .silence_timeout(Duration::from_secs(3))
    ///     .start()?;
    /// // A hung engine here would be a `Timeout` after 3 s of silence.
    /// let analysis = engine.analyse(&Position::START, &Limit::depth(20), 1)?;
    /// # Ok::<(), EngineError>(())
    /// ```
    #[must_use]
    pub fn silence_timeout(mut self, timeout: Duration) -> EngineBuilder {
        self.silence_timeout = timeout;
        self
    }

    /// How long the engine has to answer `stop` after a missed deadline
    /// before it is killed.
    #[must_use]
    pub fn stop_grace(mut self, grace: Duration) -> EngineBuilder {
        self.stop_grace = grace;
        self
    }

    /// How long the engine has to exit after `quit` before it is killed.
    #[must_use]
    pub fn quit_grace(mut self, grace: Duration) -> EngineBuilder {
        self.quit_grace = grace;
        self
    }

    /// How long a wait for the engine's next line polls (yielding the core
    /// between polls) before it sleeps; 300 µs by default. Waking a
    /// sleeping thread costs about a quarter of a search at `nodes=1`, so
    /// polling raises the positions per second of short searches (by about
    /// a third at `nodes=1`); `Duration::ZERO` never polls, and saves the
    /// CPU time instead.
    #[must_use]
    pub fn spin(mut self, spin: Duration) -> EngineBuilder {
        self.spin = spin;
        self
    }

    /// Lets the engine write to this process's standard error (by default
    /// its standard error goes nowhere).
    #[must_use]
    pub fn inherit_stderr(mut self, inherit: bool) -> EngineBuilder {
        self.inherit_stderr = inherit;
        self
    }

    /// Whether the engine runs in a process group of its own (on Unix; the
    /// default), killed whole: what the engine starts dies with it (an
    /// engine behind a wrapper script that does not `exec` it). A
    /// terminal's Ctrl-C then reaches only this program, which kills its
    /// engines on the way out ([`kill_all`](crate::kill_all) where no drop
    /// runs). `false` leaves the engine in this program's group, as
    /// python-chess does unless told `setpgrp=True`: Ctrl-C reaches it too,
    /// and only the engine's own process is killed.
    #[must_use]
    pub fn process_group(mut self, own: bool) -> EngineBuilder {
        self.process_group = own;
        self
    }

    /// Starts the engine: the process, the `uci` handshake (its `id` and
    /// `option` lines, up to `uciok`) and `isready`.
    pub fn start(self) -> Result<Engine, EngineError> {
        let process = Process::spawn(
            &self.path,
            &self.args,
            self.inherit_stderr,
            self.process_group,
        )
        .map_err(|source| EngineError::Spawn {
            path: self.path.clone(),
            source,
        })?;
        let mut engine = Engine {
            process,
            config: self,
            name: None,
            author: None,
            options: Options::default(),
            multipv: 1,
            chess960: false,
            closed: None,
            warnings: Vec::new(),
            pondering: None,
        };
        engine.handshake()?;
        if engine.config.ready_at_start {
            engine.is_ready()?;
        }
        Ok(engine)
    }
}

/// What to search: a start position and the moves played from it (sent as
/// `position startpos|fen ... moves ...`, so that the engine knows the
/// game's history for repetitions). From a `&Position`, a `&Game` or a
/// `(start, &moves)` pair.
///
/// ```
/// use bitboards::{Game, Position};
/// use bitboards_engine::Query;
///
/// let mut game = Game::new(Position::START);
/// game.play_san("e4")?;
/// let query = Query::from(&game);
/// assert_eq!(query.moves.len(), 1);
/// assert_eq!(Query::from(&Position::START).moves, &[]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query<'a> {
    /// Where the game starts.
    pub start: Position,
    /// The moves played from `start`; the position searched is after the
    /// last.
    pub moves: &'a [Move],
    /// The moves to search among (`go ... searchmoves`), legal in the
    /// position searched; `None` for all of them.
    pub searchmoves: Option<&'a [Move]>,
}

impl<'a> Query<'a> {
    /// This query with the search restricted to `moves` (UCI's
    /// `searchmoves`; python-chess's `root_moves`). An empty list is sent
    /// as `searchmoves 0000`, as python-chess sends it.
    #[must_use]
    pub fn with_searchmoves(self, moves: &'a [Move]) -> Query<'a> {
        Query {
            searchmoves: Some(moves),
            ..self
        }
    }
}

impl From<&Position> for Query<'_> {
    fn from(start: &Position) -> Self {
        Query {
            start: *start,
            moves: &[],
            searchmoves: None,
        }
    }
}

impl<'a> From<&'a Game> for Query<'a> {
    fn from(game: &'a Game) -> Self {
        Query {
            start: *game.start(),
            moves: game.moves(),
            searchmoves: None,
        }
    }
}

impl<'a> From<(Position, &'a [Move])> for Query<'a> {
    fn from((start, moves): (Position, &'a [Move])) -> Self {
        Query {
            start,
            moves,
            searchmoves: None,
        }
    }
}

impl<'a> From<(&Position, &'a [Move])> for Query<'a> {
    fn from((start, moves): (&Position, &'a [Move])) -> Self {
        Query {
            start: *start,
            moves,
            searchmoves: None,
        }
    }
}

/// What a search found: the engine's latest word on each PV, its best move
/// and the move it expects in reply.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The latest `info` line with a score or a PV of each rank, best
    /// first (`infos[0]` is rank 1; a rank the engine never reported is
    /// left out, so this can be shorter than the `multipv` asked for).
    pub infos: Vec<Info>,
    /// The best move, legal in `position`; `None` when there is no legal
    /// move (`bestmove (none)`).
    pub best: Option<Move>,
    /// The reply the engine expects, legal after `best` (an illegal one is
    /// left out, with a warning).
    pub ponder: Option<Move>,
    /// Lines and tokens the client set aside (at most 64).
    pub warnings: Vec<Warning>,
    /// The position searched.
    pub position: Position,
}

impl Analysis {
    /// The first PV's info, if the engine gave one.
    #[must_use]
    pub fn info(&self) -> Option<&Info> {
        self.infos.first()
    }

    /// The first PV's score, from the side to move's view.
    #[must_use]
    pub fn score(&self) -> Option<crate::info::Score> {
        self.info().and_then(|info| info.score)
    }

    /// The first PV's score, from White's view.
    #[must_use]
    pub fn white_score(&self) -> Option<crate::info::Score> {
        self.info().and_then(Info::white_score)
    }
}

/// A running UCI engine: one process, spoken to by one caller at a time
/// (`&mut self`); `Send`, so that a pool can own many, one per thread.
///
/// Every wait has a deadline. A fault of the engine (it exits, misses a
/// deadline and does not answer `stop`, answers an illegal `bestmove`)
/// shuts it down: `quit`, a kill if it does not exit, and `wait` to reap
/// it; later calls return [`EngineError::Closed`]. Dropping an engine does
/// the same, so no process is left behind.
#[derive(Debug)]
pub struct Engine {
    process: Process,
    config: EngineBuilder,
    name: Option<String>,
    author: Option<String>,
    options: Options,
    /// The `MultiPV` the engine has now.
    multipv: u32,
    /// The `UCI_Chess960` the engine has now.
    chess960: bool,
    closed: Option<String>,
    warnings: Vec<Warning>,
    /// A search left running on the reply the engine expects.
    pondering: Option<Pondering>,
}

/// A `go ponder` search left running ([`Engine::ponder`]).
#[derive(Debug)]
struct Pondering {
    start: Position,
    moves: Vec<Move>,
    /// The position searched: `start` with `moves` played.
    position: Position,
    go: String,
}

impl Engine {
    /// Starts the engine at `path` with `args` and the default deadlines
    /// ([`EngineBuilder`] sets others).
    pub fn start<I, S>(path: &str, args: I) -> Result<Engine, EngineError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        EngineBuilder::new(path).args(args).start()
    }

    /// The engine's `id name`.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The engine's `id author`.
    #[must_use]
    pub fn author(&self) -> Option<&str> {
        self.author.as_deref()
    }

    /// The options the engine declared.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The lines of the handshake the client could not read.
    #[must_use]
    pub fn handshake_warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The process id (on Linux, `/proc/<pid>` exists while the process
    /// is not reaped).
    #[must_use]
    pub fn pid(&self) -> u32 {
        self.process.id()
    }

    /// Whether the engine was shut down (by a fault).
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.closed.is_some()
    }

    fn ensure_open(&self) -> Result<(), EngineError> {
        match &self.closed {
            Some(reason) => Err(EngineError::Closed {
                reason: reason.clone(),
            }),
            None => Ok(()),
        }
    }

    /// Shuts the engine down after `error` and returns it.
    fn fail(&mut self, error: EngineError) -> EngineError {
        self.process.shutdown(self.config.quit_grace);
        self.closed = Some(error.to_string());
        error
    }

    /// The error for an engine whose output ended while `command` waited.
    fn terminated(&mut self, command: &str) -> EngineError {
        let status = self.process.exit_status();
        self.fail(EngineError::Terminated {
            command: command.to_owned(),
            status,
        })
    }

    /// Writes `text`; a failure is the engine's exit (or an I/O fault).
    fn send(&mut self, text: &str, command: &str) -> Result<(), EngineError> {
        match self.process.send(text) {
            Ok(()) => Ok(()),
            Err(source) if source.kind() == std::io::ErrorKind::BrokenPipe => {
                Err(self.terminated(command))
            }
            Err(source) => Err(self.fail(EngineError::Io {
                command: command.to_owned(),
                source,
            })),
        }
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        let path = self.config.path.clone();
        let not_uci = |engine: &mut Engine, reason: String| {
            engine.fail(EngineError::NotUci {
                path: path.clone(),
                reason,
            })
        };
        if self.process.send("uci\n").is_err() {
            let status = self.process.exit_status();
            let reason = format!(
                "it exited before reading `uci` ({})",
                status.as_deref().unwrap_or("status unknown")
            );
            return Err(not_uci(self, reason));
        }
        let started = Instant::now();
        let deadline = started + self.config.handshake_timeout;
        let mut lines = 0usize;
        let mut first: Option<String> = None;
        loop {
            match self.process.next_line(deadline, self.config.spin) {
                Next::Line(line) => {
                    lines += 1;
                    if first.is_none() {
                        first = Some(line.chars().take(80).collect());
                    }
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some("uciok") => return Ok(()),
                        Some("id") => {
                            let rest = || {
                                let text = line.trim_start();
                                let text = text["id".len()..].trim_start();
                                let key_len = text.find(char::is_whitespace).unwrap_or(text.len());
                                text[key_len..].trim().to_owned()
                            };
                            match words.next() {
                                Some("name") => self.name = Some(rest()),
                                Some("author") => self.author = Some(rest()),
                                _ => self.warn(&line, "an `id` line of another kind"),
                            }
                        }
                        Some("option") => match UciOption::parse(&line) {
                            Some(option) => {
                                match (&option.kind, option.name.to_ascii_lowercase().as_str()) {
                                    (OptionKind::Spin { default, .. }, "multipv") => {
                                        self.multipv = u32::try_from(*default).unwrap_or(1);
                                    }
                                    (OptionKind::Check { default }, "uci_chess960") => {
                                        self.chess960 = *default;
                                    }
                                    _ => {}
                                }
                                self.options.insert(option);
                            }
                            None => {
                                self.warn(&line, "an `option` line without a name or a known type")
                            }
                        },
                        None => {}
                        Some(_) => self.warn(&line, "not a line of the UCI handshake"),
                    }
                }
                Next::Eof => {
                    let status = self.process.exit_status();
                    let reason = format!(
                        "it exited ({}) before `uciok`, after {lines} line{}{}",
                        status.as_deref().unwrap_or("status unknown"),
                        if lines == 1 { "" } else { "s" },
                        first
                            .map(|f| format!(", the first `{f}`"))
                            .unwrap_or_default()
                    );
                    return Err(not_uci(self, reason));
                }
                Next::Timeout => {
                    let reason = format!(
                        "no `uciok` within {:.3} s of `uci` ({lines} line{} read{})",
                        self.config.handshake_timeout.as_secs_f64(),
                        if lines == 1 { "" } else { "s" },
                        first
                            .map(|f| format!(", the first `{f}`"))
                            .unwrap_or_default()
                    );
                    return Err(not_uci(self, reason));
                }
            }
        }
    }

    fn warn(&mut self, line: &str, message: &str) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(Warning {
                line: line.to_owned(),
                message: message.to_owned(),
            });
        }
    }

    /// Waits for `readyok` after `command` (already sent), skipping other
    /// lines; a timeout kills the engine.
    fn wait_ready(&mut self, command: &str) -> Result<(), EngineError> {
        let deadline = Instant::now() + self.config.ready_timeout;
        loop {
            match self.process.next_line(deadline, self.config.spin) {
                Next::Line(line) if line.trim() == "readyok" => return Ok(()),
                Next::Line(_) => {}
                Next::Eof => return Err(self.terminated(command)),
                Next::Timeout => {
                    self.process.kill();
                    let error = EngineError::Timeout {
                        command: command.to_owned(),
                        expected: "readyok",
                        waited: self.config.ready_timeout,
                        killed: true,
                    };
                    return Err(self.fail(error));
                }
            }
        }
    }

    /// `isready`, answered by `readyok`.
    pub fn is_ready(&mut self) -> Result<(), EngineError> {
        self.ensure_open()?;
        self.stop_pondering()?;
        self.send("isready\n", "isready")?;
        self.wait_ready("isready")
    }

    /// `ucinewgame` and `isready`: the next search starts afresh (the
    /// engine clears its hash), so that its result does not depend on the
    /// searches before it.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.ensure_open()?;
        self.stop_pondering()?;
        self.send("ucinewgame\nisready\n", "ucinewgame")?;
        self.wait_ready("ucinewgame")
    }

    /// `setoption`, checked against the options the engine declared: an
    /// unknown name, or a value of the wrong type, out of range or not
    /// among a combo's values, is an error naming them, and nothing is
    /// sent. `MultiPV` and `UCI_Chess960` are set by the client from each
    /// request. A button takes [`OptionValue::Button`].
    ///
    /// ```no_run
    /// use bitboards_engine::{Engine, OptionValue};
    ///
    /// let mut engine = Engine::start("/usr/games/stockfish", [] as [&str; 0])?;
    /// engine.set_option("Hash", 64)?;
    /// engine.set_option("UCI_ShowWDL", true)?;
    /// engine.set_option("Clear Hash", OptionValue::Button)?;
    /// assert!(engine.set_option("Hash", -1).is_err());
    /// # Ok::<(), bitboards_engine::EngineError>(())
    /// ```
    pub fn set_option(
        &mut self,
        name: &str,
        value: impl Into<OptionValue>,
    ) -> Result<(), EngineError> {
        self.ensure_open()?;
        self.stop_pondering()?;
        let value = value.into();
        if name.eq_ignore_ascii_case("MultiPV") {
            return Err(EngineError::ManagedOption {
                name: name.to_owned(),
                instead: "pass `multipv` to `analyse`",
            });
        }
        if name.eq_ignore_ascii_case("UCI_Chess960") {
            return Err(EngineError::ManagedOption {
                name: name.to_owned(),
                instead: "it follows the position's castling rights",
            });
        }
        let Some(option) = self.options.get(name) else {
            return Err(EngineError::UnknownOption {
                name: name.to_owned(),
                known: self.options.names(),
            });
        };
        let text = option
            .check(&value)
            .map_err(|expected| EngineError::InvalidOptionValue {
                name: option.name.clone(),
                value: value.to_string(),
                expected,
            })?;
        let command = match text {
            Some(text) => format!("setoption name {} value {text}", option.name),
            None => format!("setoption name {}", option.name),
        };
        self.send(&format!("{command}\n"), &command)
    }

    /// Searches `query` to `limit` with `multipv` PVs and returns the best
    /// move and the latest info of each PV.
    pub fn analyse<'a>(
        &mut self,
        query: impl Into<Query<'a>>,
        limit: &Limit,
        multipv: u32,
    ) -> Result<Analysis, EngineError> {
        self.analyse_with(query, limit, multipv, |_| {})
    }

    /// As [`Engine::analyse`], handing every `info` line to `on_info` as
    /// it arrives (progress lines, `info string` and PV lines alike).
    pub fn analyse_with<'a>(
        &mut self,
        query: impl Into<Query<'a>>,
        limit: &Limit,
        multipv: u32,
        on_info: impl FnMut(&Info),
    ) -> Result<Analysis, EngineError> {
        self.search(query.into(), limit, multipv, None, on_info)
    }

    /// As [`Engine::analyse_with`], and when another thread sets `stop`,
    /// the engine is told to `stop` (within 10 ms) and the result is its
    /// `bestmove` and the infos up to it: a search that the caller ends
    /// early, as python-chess's `analysis(...).stop()` does. The engine
    /// then has [`EngineBuilder::stop_grace`] to answer before it is
    /// killed.
    ///
    /// ```no_run
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use bitboards::Position;
    /// use bitboards_engine::{Engine, Limit};
    ///
    /// let mut engine = Engine::start("/usr/games/stockfish", [] as [&str; 0])?;
    /// let stop = AtomicBool::new(false);
    /// let analysis = engine.analyse_until(&Position::START, &Limit::depth(99), 1, &stop, |info| {
    ///     if info.depth >= Some(12) {
    ///         stop.store(true, Ordering::Relaxed); // or from another thread
    ///     }
    /// })?;
    /// assert!(analysis.best.is_some());
    /// # Ok::<(), bitboards_engine::EngineError>(())
    /// ```
    pub fn analyse_until<'a>(
        &mut self,
        query: impl Into<Query<'a>>,
        limit: &Limit,
        multipv: u32,
        stop: &AtomicBool,
        on_info: impl FnMut(&Info),
    ) -> Result<Analysis, EngineError> {
        self.search(query.into(), limit, multipv, Some(stop), on_info)
    }

    fn search(
        &mut self,
        query: Query<'_>,
        limit: &Limit,
        multipv: u32,
        stop: Option<&AtomicBool>,
        mut on_info: impl FnMut(&Info),
    ) -> Result<Analysis, EngineError> {
        self.ensure_open()?;
        if limit.infinite && stop.is_none() {
            return Err(EngineError::InvalidLimit(
                "an infinite search ends only when stopped: search with `analyse_until`".to_owned(),
            ));
        }
        let same = query.searchmoves.is_none() && multipv == self.multipv;
        let hit = self.pondering.take_if(|pondering| {
            same && pondering.start == query.start && pondering.moves == query.moves
        });
        let (position, go) = if let Some(pondering) = hit {
            // The engine has been searching this very position: it goes on.
            self.send("ponderhit\n", "ponderhit")?;
            (pondering.position, "ponderhit".to_owned())
        } else {
            self.stop_pondering()?;
            let (position, commands, go) = self.prepare(&query, limit, multipv)?;
            self.send(&commands, &go)?;
            if self.options.get("UCI_Chess960").is_some() {
                self.chess960 = query.start.castling_notation() == CastlingNotation::KingTakesRook;
            }
            if self.options.get("MultiPV").is_some() {
                self.multipv = multipv;
            }
            (position, go)
        };
        let waited = limit.deadline(
            position.side_to_move(),
            self.config.margin,
            self.config.search_timeout,
        );
        let mut deadline = Instant::now() + waited;
        // An untimed search is also given up after a silence: the wait for
        // the next line ends there.
        let silence =
            (limit.is_untimed() && !limit.infinite).then_some(self.config.silence_timeout);
        let mut heard = Instant::now();
        let mut lines = 0u64;
        // With a stop flag, waits end every STOP_POLL to look at it.
        let mut stop = stop;
        let mut ranks: Vec<Option<Info>> = Vec::new();
        let mut warnings = Vec::new();
        let warn = |warnings: &mut Vec<Warning>, warning: Warning| {
            if warnings.len() < MAX_WARNINGS {
                warnings.push(warning);
            }
        };
        loop {
            if stop.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                stop = None;
                self.send("stop\n", "stop")?;
                deadline = deadline.min(Instant::now() + self.config.stop_grace);
            }
            let quiet_until = silence.map_or(deadline, |silence| deadline.min(heard + silence));
            let wait_until = match stop {
                Some(_) => quiet_until.min(Instant::now() + STOP_POLL),
                None => quiet_until,
            };
            let line = match self.process.next_line(wait_until, self.config.spin) {
                Next::Line(line) => line,
                Next::Eof => return Err(self.terminated(&go)),
                Next::Timeout if Instant::now() < quiet_until => continue,
                Next::Timeout if Instant::now() < deadline => {
                    let silence = silence.unwrap_or(waited);
                    return Err(self.stop_after_timeout(&go, silence));
                }
                Next::Timeout => return Err(self.stop_after_timeout(&go, waited)),
            };
            heard = Instant::now();
            lines += 1;
            if lines > MAX_SEARCH_LINES {
                self.process.kill();
                return Err(self.fail(EngineError::Flood {
                    command: go.clone(),
                    lines,
                }));
            }
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    let (info, found) = Info::parse(&line, &position);
                    for warning in found {
                        warn(&mut warnings, warning);
                    }
                    on_info(&info);
                    if info.is_pv_line() {
                        // No position has more than 218 legal moves.
                        let rank = info.multipv as usize;
                        if rank <= multipv as usize && rank <= bitboards::MAX_MOVES {
                            if ranks.len() < rank {
                                ranks.resize(rank, None);
                            }
                            ranks[rank - 1] = Some(info);
                        } else {
                            warn(
                                &mut warnings,
                                Warning {
                                    line: line.clone(),
                                    message: format!(
                                        "PV rank {} beyond the {multipv} asked for",
                                        info.multipv
                                    ),
                                },
                            );
                        }
                    }
                }
                Some("bestmove") => {
                    let (best, ponder) = self.read_bestmove(&line, &position, &mut warnings)?;
                    return Ok(Analysis {
                        infos: ranks.into_iter().flatten().collect(),
                        best,
                        ponder,
                        warnings,
                        position,
                    });
                }
                None => {}
                Some(_) => warn(
                    &mut warnings,
                    Warning {
                        line: line.clone(),
                        message: "not a line of a search (`info` or `bestmove`)".to_owned(),
                    },
                ),
            }
        }
    }

    /// Leaves the engine searching `query` (the position after its move
    /// and the reply it expects) with `go ponder` and `limit`, and returns.
    /// The next command ends that search: an analysis of that very
    /// position (the same PVs, no `searchmoves`) says `ponderhit` and
    /// takes the search over; anything else says `stop` first and reads
    /// its `bestmove`.
    pub fn ponder<'a>(
        &mut self,
        query: impl Into<Query<'a>>,
        limit: &Limit,
    ) -> Result<(), EngineError> {
        self.ensure_open()?;
        self.stop_pondering()?;
        let query = query.into();
        if limit.infinite {
            return Err(EngineError::InvalidLimit(
                "pondering takes the limit of the search to come, not `infinite`".to_owned(),
            ));
        }
        let (position, mut commands, go) = self.prepare(&query, limit, self.multipv)?;
        let ponder_go = go.replacen("go", "go ponder", 1);
        commands.truncate(commands.len() - go.len() - 1);
        commands.push_str(&ponder_go);
        commands.push('\n');
        self.send(&commands, &ponder_go)?;
        if self.options.get("UCI_Chess960").is_some() {
            self.chess960 = query.start.castling_notation() == CastlingNotation::KingTakesRook;
        }
        self.pondering = Some(Pondering {
            start: query.start,
            moves: query.moves.to_vec(),
            position,
            go: ponder_go,
        });
        Ok(())
    }

    /// Whether a ponder search is running ([`Engine::ponder`]).
    #[must_use]
    pub fn is_pondering(&self) -> bool {
        self.pondering.is_some()
    }

    /// Ends a ponder search left running: `stop`, and its `bestmove` read
    /// within the stop grace (or the engine is killed). Nothing when none
    /// runs.
    pub fn stop_pondering(&mut self) -> Result<(), EngineError> {
        let Some(pondering) = self.pondering.take() else {
            return Ok(());
        };
        self.send("stop\n", "stop")?;
        let deadline = Instant::now() + self.config.stop_grace;
        loop {
            match self.process.next_line(deadline, self.config.spin) {
                Next::Line(line) if line.split_whitespace().next() == Some("bestmove") => {
                    return Ok(());
                }
                Next::Line(_) => {}
                Next::Eof => return Err(self.terminated(&pondering.go)),
                Next::Timeout => {
                    self.process.kill();
                    return Err(self.fail(EngineError::Timeout {
                        command: format!("stop (after `{}`)", pondering.go),
                        expected: "bestmove",
                        waited: self.config.stop_grace,
                        killed: true,
                    }));
                }
            }
        }
    }

    /// The engine's best move for `query` at `limit`.
    ///
    /// ```no_run
    /// use bitboards::Position;
    /// use bitboards_engine::{Engine, Limit};
    ///
    /// let mut engine = Engine::start("/usr/games/stockfish", [] as [&str; 0])?;
    /// let mv = engine.play(&Position::START, &Limit::nodes(1000))?;
    /// assert!(Position::START.is_legal(mv));
    /// # Ok::<(), bitboards_engine::EngineError>(())
    /// ```
    pub fn play<'a>(
        &mut self,
        query: impl Into<Query<'a>>,
        limit: &Limit,
    ) -> Result<Move, EngineError> {
        let query = query.into();
        let mut end = query.start;
        let mut legal = true;
        for &mv in query.moves {
            legal = end.is_legal(mv);
            if !legal {
                break;
            }
            end = end.play_unchecked(mv);
        }
        // An illegal move of the request is `analyse`'s error to report.
        if legal && end.legal_moves().is_empty() {
            return Err(EngineError::NoLegalMove {
                fen: end.fen().to_string(),
            });
        }
        let analysis = self.analyse(query, limit, 1)?;
        analysis.best.ok_or_else(|| EngineError::NoLegalMove {
            fen: analysis.position.fen().to_string(),
        })
    }

    /// Sends `quit`, waits for the engine to exit (killing it after the
    /// quit grace), and reaps it. An error says it had to be killed.
    pub fn quit(self) -> Result<(), EngineError> {
        let grace = self.config.quit_grace;
        self.quit_within(grace)
    }

    /// As [`Engine::quit`], with `grace` for the engine to exit before it
    /// is killed.
    pub fn quit_within(mut self, grace: Duration) -> Result<(), EngineError> {
        if self.process.is_reaped() {
            return Ok(());
        }
        if self.process.shutdown(grace) {
            Err(EngineError::Timeout {
                command: "quit".to_owned(),
                expected: "exit",
                waited: grace,
                killed: true,
            })
        } else {
            Ok(())
        }
    }

    /// Checks a request and writes its commands: the options it needs, the
    /// position and `go`. Returns the position searched, the commands and
    /// the `go` line.
    fn prepare(
        &mut self,
        query: &Query<'_>,
        limit: &Limit,
        multipv: u32,
    ) -> Result<(Position, String, String), EngineError> {
        if limit.is_empty() {
            return Err(EngineError::InvalidLimit(
                "no movetime, depth, nodes, mate or clocks: the search would never end".to_owned(),
            ));
        }
        if multipv == 0 {
            return Err(EngineError::InvalidLimit(
                "`multipv` starts at 1".to_owned(),
            ));
        }
        let mut commands = String::new();
        match self.options.get("MultiPV").map(|option| &option.kind) {
            Some(OptionKind::Spin { min, max, .. }) => {
                if !(*min..=*max).contains(&i64::from(multipv)) {
                    return Err(EngineError::InvalidOptionValue {
                        name: "MultiPV".to_owned(),
                        value: multipv.to_string(),
                        expected: format!("an integer from {min} to {max}"),
                    });
                }
                if multipv != self.multipv {
                    let _ = writeln!(commands, "setoption name MultiPV value {multipv}");
                }
            }
            _ if multipv > 1 => {
                return Err(EngineError::InvalidLimit(format!(
                    "`multipv` {multipv}: the engine declared no `MultiPV` option"
                )));
            }
            _ => {}
        }
        let chess960 = query.start.castling_notation() == CastlingNotation::KingTakesRook;
        let has_960 = self.options.get("UCI_Chess960").is_some();
        if chess960 && !has_960 {
            return Err(EngineError::Chess960Unsupported {
                fen: query.start.fen().to_string(),
            });
        }
        if has_960 && chess960 != self.chess960 {
            let _ = writeln!(commands, "setoption name UCI_Chess960 value {chess960}");
        }
        let notation = if chess960 {
            CastlingNotation::KingTakesRook
        } else {
            CastlingNotation::KingToTarget
        };
        if query.start == Position::START {
            commands.push_str("position startpos");
        } else {
            let _ = write!(commands, "position fen {}", query.start.fen());
        }
        let mut position = query.start;
        if !query.moves.is_empty() {
            commands.push_str(" moves");
            for (index, &mv) in query.moves.iter().enumerate() {
                if !position.is_legal(mv) {
                    return Err(EngineError::IllegalMoveInQuery {
                        index,
                        mv: position.uci(mv).to_string(),
                        fen: position.fen().to_string(),
                    });
                }
                commands.push(' ');
                mv.uci(notation).push_to(&mut commands);
                position = position.play_unchecked(mv);
            }
        }
        let mut go = limit.go();
        if let Some(searchmoves) = query.searchmoves {
            go.push_str(" searchmoves");
            if searchmoves.is_empty() {
                go.push_str(" 0000");
            }
            for &mv in searchmoves {
                if !position.is_legal(mv) {
                    return Err(EngineError::InvalidLimit(format!(
                        "the search move {} is not legal in {}",
                        position.uci(mv),
                        position.fen()
                    )));
                }
                go.push(' ');
                mv.uci(notation).push_to(&mut go);
            }
        }
        commands.push('\n');
        commands.push_str(&go);
        commands.push('\n');
        Ok((position, commands, go))
    }

    /// After a missed deadline: `stop`, then the `bestmove` within the stop
    /// grace (the engine stays usable) or a kill.
    fn stop_after_timeout(&mut self, go: &str, waited: Duration) -> EngineError {
        let error = |killed| EngineError::Timeout {
            command: go.to_owned(),
            expected: "bestmove",
            waited,
            killed,
        };
        if self.process.send("stop\n").is_ok() {
            let deadline = Instant::now() + self.config.stop_grace;
            loop {
                match self.process.next_line(deadline, self.config.spin) {
                    Next::Line(line) if line.split_whitespace().next() == Some("bestmove") => {
                        return error(false);
                    }
                    Next::Line(_) => {}
                    Next::Eof | Next::Timeout => break,
                }
            }
        }
        self.process.kill();
        self.fail(error(true))
    }

    /// Reads `bestmove <move> [ponder <move>]` in `position`.
    fn read_bestmove(
        &mut self,
        line: &str,
        position: &Position,
        warnings: &mut Vec<Warning>,
    ) -> Result<(Option<Move>, Option<Move>), EngineError> {
        let mut words = line.split_whitespace().skip(1);
        let no_moves = position.legal_moves().is_empty();
        let best = match words.next() {
            Some("(none)" | "0000") | None if no_moves => None,
            Some(text) => match position.parse_uci(text) {
                Ok(mv) => Some(mv),
                Err(_) => {
                    return Err(self.fail(EngineError::IllegalBestMove {
                        line: line.to_owned(),
                        fen: position.fen().to_string(),
                    }));
                }
            },
            None => {
                return Err(self.fail(EngineError::IllegalBestMove {
                    line: line.to_owned(),
                    fen: position.fen().to_string(),
                }));
            }
        };
        let ponder = match (best, words.next(), words.next()) {
            (Some(best), Some("ponder"), Some(text)) if text != "(none)" => {
                let after = position.play_unchecked(best);
                match after.parse_uci(text) {
                    Ok(mv) => Some(mv),
                    Err(error) => {
                        if warnings.len() < MAX_WARNINGS {
                            warnings.push(Warning {
                                line: line.to_owned(),
                                message: format!(
                                    "the ponder move `{text}` is not legal after the best move ({error}); left out"
                                ),
                            });
                        }
                        None
                    }
                }
            }
            _ => None,
        };
        Ok((best, ponder))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.process.shutdown(self.config.quit_grace);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_can_move_to_another_thread() {
        fn send<T: Send>() {}
        send::<Engine>();
        send::<Analysis>();
    }
}
