//! [`Pool`]: N engines analysing a stream of positions at once, each on a
//! thread of its own, the results delivered in input order.
//!
//! ```no_run
//! use bitboards::Position;
//! use bitboards_engine::{EngineBuilder, Job, Limit, OptionValue, Pool};
//!
//! let fens = [
//!     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
//!     "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
//! ];
//! let positions: Vec<Position> = fens.iter().map(|fen| Position::from_fen(fen)).collect::<Result<_, _>>()?;
//!
//! // Two Stockfish processes, one thread and 16 MB of hash each.
//! let options = [("Threads", OptionValue::from(1)), ("Hash", OptionValue::from(16))];
//! let mut pool = Pool::new(EngineBuilder::new("/usr/games/stockfish"), 2, &options)?;
//!
//! // A fresh `ucinewgame` before each position (reset = true): the same
//! // results whatever the number of engines.
//! for (index, result) in pool.analyse_all(positions.iter().map(Job::from), &Limit::nodes(20_000), 1, true).enumerate() {
//!     match result {
//!         Ok(analysis) => println!("{index}: {:?} {:?}", analysis.best, analysis.white_score()),
//!         Err(error) => eprintln!("{error}"), // names the position's index
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! - **Order and memory.** Results come in the order of the jobs. The
//!   pool reads jobs from the input only as results are taken: at most
//!   [`Pool::window`] jobs (four per engine) are between the input and the
//!   caller at any time, queued, searched, or finished and held back until
//!   the results before them are done. A slow position stalls the others
//!   once the window is full, and memory stays bounded however long the
//!   input.
//! - **Reproducible.** With `reset = true` each position is searched after
//!   `ucinewgame` and `isready` ([`Engine::new_game`]): at a limit of
//!   nodes or depth (and one search thread per engine), the results are
//!   the same whatever the number of engines and whichever engine took
//!   which position. `reset = false` keeps each engine's hash from one
//!   position to the next: faster at small limits, but a result then
//!   depends on what that engine searched before, so on the order and on
//!   the sharing of the work.
//! - **Faults.** An engine that dies (an error that is
//!   [`EngineError::is_fatal`]: it exited, hung past its deadline and was
//!   killed, answered an illegal move) is replaced by a fresh one, started
//!   from the same [`EngineBuilder`] with the same options, and its
//!   position is searched once more. If that fails too, the position's
//!   result is a [`PoolError`] naming its index and the engine's error,
//!   and the other positions go on. An error of the request (an illegal
//!   move in a job, a limit the client cannot send) or a search that timed
//!   out and was stopped leaves the engine as it was, and is the
//!   position's error at once, without a retry.
//! - **Processes.** [`Pool::new`] starts every engine (at once) and
//!   returns the first error if one cannot start or take the options, with
//!   every engine already started shut down. When an [`Analyses`]
//!   iterator is dropped, finished or not, the pool stops feeding jobs,
//!   waits for the searches under way (each within its deadline) and takes
//!   its engines back; dropping the [`Pool`] shuts them down (`quit`, a
//!   kill if needed, and reaped), so no process is left behind.

use std::collections::BTreeMap;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use bitboards::{Game, Move, Position};

use crate::engine::{Analysis, Engine, EngineBuilder};
use crate::error::EngineError;
use crate::limit::Limit;
use crate::options::OptionValue;

/// Jobs between the input and the caller, per engine.
const WINDOW_PER_ENGINE: usize = 4;

/// One position for the pool: a start position and the moves played from
/// it (sent as `position ... moves ...`, so that the engine knows the
/// game's history), searched after the last move.
///
/// ```
/// use bitboards::{Game, Position};
/// use bitboards_engine::Job;
///
/// let mut game = Game::new(Position::START);
/// game.play_san("e4")?;
/// assert_eq!(Job::from(&game).moves.len(), 1);
/// assert_eq!(Job::from(Position::START).moves, vec![]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Where the game starts.
    pub start: Position,
    /// The moves played from `start`.
    pub moves: Vec<Move>,
}

impl From<Position> for Job {
    fn from(start: Position) -> Self {
        Job {
            start,
            moves: Vec::new(),
        }
    }
}

impl From<&Position> for Job {
    fn from(start: &Position) -> Self {
        Job::from(*start)
    }
}

impl From<&Game> for Job {
    fn from(game: &Game) -> Self {
        Job {
            start: *game.start(),
            moves: game.moves().to_vec(),
        }
    }
}

impl From<&Job> for Job {
    fn from(job: &Job) -> Self {
        job.clone()
    }
}

impl From<(Position, Vec<Move>)> for Job {
    fn from((start, moves): (Position, Vec<Move>)) -> Self {
        Job { start, moves }
    }
}

/// A position (or a game) the pool could not analyse: its index in the
/// input, the engine's error, and how many engines tried it.
#[derive(Debug)]
pub struct PoolError {
    /// The job's index in the input (0 for the first).
    pub index: usize,
    /// Whether the job was a whole game ([`Pool::analyse_games`]).
    pub game: bool,
    /// The last engine's error.
    pub error: EngineError,
    /// How many searches were tried: 2 when the first engine died and a
    /// fresh one failed too; 1 for an error of the request, a search
    /// stopped at its deadline, or when no fresh engine could be started;
    /// 0 when the pool's threads ended before the position was searched
    /// (which they are written never to do; the results end there).
    pub attempts: u32,
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let job = if self.game { "game" } else { "position" };
        write!(f, "{job} {}: {}", self.index, self.error)?;
        if self.attempts > 1 {
            write!(f, " (after {} attempts)", self.attempts)?;
        }
        Ok(())
    }
}

impl std::error::Error for PoolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// What every engine of a pool is started with.
#[derive(Debug)]
struct Recipe {
    builder: EngineBuilder,
    options: Vec<(String, OptionValue)>,
    /// The id of every process started, in order.
    started: Mutex<Vec<u32>>,
}

impl Recipe {
    /// A fresh engine with the options set.
    fn start(&self) -> Result<Engine, EngineError> {
        let mut engine = self.builder.clone().start()?;
        if let Ok(mut started) = self.started.lock() {
            started.push(engine.pid());
        }
        for (name, value) in &self.options {
            engine.set_option(name, value.clone())?;
        }
        Ok(engine)
    }
}

/// N engines, each searched from a thread of its own, analysing a stream
/// of positions with the results in input order (see the [module
/// docs](crate::pool)).
#[derive(Debug)]
pub struct Pool {
    recipe: Arc<Recipe>,
    /// The engines at rest; `None` where one died and is not replaced yet.
    engines: Vec<Option<Engine>>,
}

impl Pool {
    /// Starts `engines` engines from `builder` (at least one), each with
    /// `options` set in order (`Threads`, `Hash`, ...; checked as
    /// [`Engine::set_option`] checks them). When the engines are as many
    /// as the cores or more, the client does not poll for their lines
    /// ([`EngineBuilder::spin`] of zero): a polling thread would take the
    /// engines' CPU time. The engines start at once, on
    /// threads of their own; the first error (an engine that cannot start,
    /// an option it refuses) is returned, and every engine started is shut
    /// down.
    pub fn new(
        builder: EngineBuilder,
        engines: usize,
        options: &[(&str, OptionValue)],
    ) -> Result<Pool, EngineError> {
        let engines = engines.max(1);
        let cores = thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        // A client polling for the engine's next line takes CPU time from
        // the engines once they fill the cores (2 engines on 2 cores at
        // nodes=20000: 1.05x one engine polling, 1.8x not).
        let builder = if engines >= cores {
            builder.spin(Duration::ZERO)
        } else {
            builder
        };
        let recipe = Arc::new(Recipe {
            builder,
            options: options
                .iter()
                .map(|(name, value)| ((*name).to_owned(), value.clone()))
                .collect(),
            started: Mutex::new(Vec::new()),
        });
        let starting: Vec<JoinHandle<Result<Engine, EngineError>>> = (0..engines)
            .map(|_| {
                let recipe = Arc::clone(&recipe);
                thread::spawn(move || recipe.start())
            })
            .collect();
        let mut started = Vec::with_capacity(starting.len());
        let mut first_error = None;
        for handle in starting {
            match handle.join() {
                Ok(Ok(engine)) => started.push(Some(engine)),
                Ok(Err(error)) => {
                    first_error.get_or_insert(error);
                }
                Err(_) => {
                    first_error.get_or_insert(EngineError::Closed {
                        reason: "the thread starting an engine panicked".to_owned(),
                    });
                }
            }
        }
        match first_error {
            // `started` is dropped: each engine is shut down and reaped.
            Some(error) => Err(error),
            None => Ok(Pool {
                recipe,
                engines: started,
            }),
        }
    }

    /// How many engines the pool runs.
    #[must_use]
    pub fn engines(&self) -> usize {
        self.engines.len()
    }

    /// How many jobs at most are between the input and the caller at any
    /// time (queued, searched, or held back for the order): four per
    /// engine.
    #[must_use]
    pub fn window(&self) -> usize {
        WINDOW_PER_ENGINE * self.engines.len()
    }

    /// The process id of every engine this pool started, replacements
    /// included, in order (for those who check that none is left behind
    /// once the pool is dropped).
    #[must_use]
    pub fn started_pids(&self) -> Vec<u32> {
        self.recipe
            .started
            .lock()
            .map(|started| started.clone())
            .unwrap_or_default()
    }

    /// Analyses every job of `jobs` to `limit` with `multipv` PVs, on
    /// every engine at once, and returns the results in input order as an
    /// iterator: an [`Analysis`], or a [`PoolError`] naming the job's index.
    /// With `reset` each search follows a `ucinewgame` (reproducible
    /// whatever the number of engines); without, each engine keeps its
    /// hash (results depend on the order). Jobs are read from `jobs` only
    /// as results are taken (at most [`Pool::window`] ahead); dropping the
    /// iterator stops the work and gives the engines back to the pool.
    pub fn analyse_all<I>(
        &mut self,
        jobs: I,
        limit: &Limit,
        multipv: u32,
        reset: bool,
    ) -> Analyses<'_, I::IntoIter>
    where
        I: IntoIterator,
        I::Item: Into<Job>,
    {
        Analyses {
            run: self.run(jobs.into_iter(), limit, multipv, reset, false),
        }
    }

    /// Analyses whole games: each job's position after every one of its
    /// moves (plies 1 to the last, the final position included), in order,
    /// by one engine, with one `ucinewgame` before the game when `reset`
    /// (as fishnet and Lichess analyse a game: the hash carries from one
    /// move to the next, and at a limit of nodes or depth the results are
    /// the same whatever the number of engines). Each result is the list
    /// of the game's analyses, one per move, or a [`PoolError`] naming the
    /// game's index (an engine that died is replaced and the game
    /// searched once more from its start). The games come back in input
    /// order, at most [`Pool::window`] of them in flight.
    ///
    /// ```no_run
    /// use bitboards::{Game, Position};
    /// use bitboards_engine::{EngineBuilder, Job, Limit, Pool};
    ///
    /// let mut game = Game::new(Position::START);
    /// for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
    ///     game.play_san(san)?;
    /// }
    /// let mut pool = Pool::new(EngineBuilder::new("/usr/games/stockfish"), 2, &[])?;
    /// for result in pool.analyse_games([&game], &Limit::nodes(20_000), 1, true) {
    ///     let analyses = result?;
    ///     assert_eq!(analyses.len(), 7);
    ///     assert_eq!(analyses[6].best, None); // checkmate: no move
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn analyse_games<I>(
        &mut self,
        games: I,
        limit: &Limit,
        multipv: u32,
        reset: bool,
    ) -> GameAnalyses<'_, I::IntoIter>
    where
        I: IntoIterator,
        I::Item: Into<Job>,
    {
        GameAnalyses {
            run: self.run(games.into_iter(), limit, multipv, reset, true),
        }
    }

    /// The engines at work on `jobs`, one search per job or one per move
    /// of each job (`games`).
    fn run<I>(
        &mut self,
        jobs: I,
        limit: &Limit,
        multipv: u32,
        reset: bool,
        games: bool,
    ) -> Run<'_, I>
    where
        I: Iterator,
        I::Item: Into<Job>,
    {
        let (job_sender, job_receiver) = mpsc::channel::<(usize, Job)>();
        let (result_sender, results) = mpsc::channel();
        let job_receiver = Arc::new(Mutex::new(job_receiver));
        let window = self.window();
        let stop = Arc::new(AtomicBool::new(false));
        let workers = self
            .engines
            .iter_mut()
            .map(|slot| {
                let worker = Worker {
                    engine: slot.take(),
                    recipe: Arc::clone(&self.recipe),
                    jobs: Arc::clone(&job_receiver),
                    results: result_sender.clone(),
                    limit: *limit,
                    multipv,
                    reset,
                    games,
                    stop: Arc::clone(&stop),
                };
                thread::spawn(move || worker.run())
            })
            .collect();
        Run {
            pool: self,
            games,
            input: jobs,
            input_done: false,
            jobs: Some(job_sender),
            results,
            workers,
            window,
            sent: 0,
            next: 0,
            ready: BTreeMap::new(),
            broken: false,
            stop,
        }
    }
}

/// One engine's thread: takes jobs until there are none, sends each
/// result with its index, and hands its engine back when done.
struct Worker {
    engine: Option<Engine>,
    recipe: Arc<Recipe>,
    jobs: Arc<Mutex<Receiver<(usize, Job)>>>,
    results: Sender<(usize, Result<Vec<Analysis>, PoolError>)>,
    limit: Limit,
    multipv: u32,
    reset: bool,
    /// Every move of each job searched, not only its last position.
    games: bool,
    /// Set when the caller dropped the results: take no other job.
    stop: Arc<AtomicBool>,
}

impl Worker {
    fn run(mut self) -> Option<Engine> {
        loop {
            let next = match self.jobs.lock() {
                Ok(jobs) => jobs.recv(),
                Err(_) => break,
            };
            let Ok((index, job)) = next else { break };
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            // A panic (a bug; the client is written not to) is this job's
            // error, not a result missing for ever.
            let result = panic::catch_unwind(AssertUnwindSafe(|| self.analyse(index, &job)))
                .unwrap_or_else(|_| {
                    // Dropped: shut down and reaped; replaced at the next job.
                    self.engine = None;
                    Err(PoolError {
                        index,
                        game: self.games,
                        error: EngineError::Closed {
                            reason: "the search panicked".to_owned(),
                        },
                        attempts: 1,
                    })
                });
            if self.results.send((index, result)).is_err() {
                break;
            }
        }
        self.engine
    }

    /// The job's searches on the engine, started afresh if there is none:
    /// one, or one after each move of a game.
    fn search(&mut self, job: &Job) -> Result<Vec<Analysis>, EngineError> {
        let engine = match &mut self.engine {
            Some(engine) => engine,
            slot => slot.insert(self.recipe.start()?),
        };
        if self.reset {
            engine.new_game()?;
        }
        if !self.games {
            let analysis = engine.analyse(
                (&job.start, job.moves.as_slice()),
                &self.limit,
                self.multipv,
            )?;
            return Ok(vec![analysis]);
        }
        let mut analyses = Vec::with_capacity(job.moves.len());
        for ply in 1..=job.moves.len() {
            if self.stop.load(Ordering::Relaxed) {
                return Err(EngineError::Closed {
                    reason: "the results were dropped before the game's end".to_owned(),
                });
            }
            analyses.push(engine.analyse(
                (&job.start, &job.moves[..ply]),
                &self.limit,
                self.multipv,
            )?);
        }
        Ok(analyses)
    }

    /// The job's result: a second search on a fresh engine if the first
    /// one's engine died.
    fn analyse(&mut self, index: usize, job: &Job) -> Result<Vec<Analysis>, PoolError> {
        let mut attempts = 0;
        loop {
            attempts += 1;
            let had_engine = self.engine.is_some();
            match self.search(job) {
                Ok(analysis) => return Ok(analysis),
                Err(error) => {
                    let fatal = error.is_fatal();
                    if fatal {
                        // Shut down already; replaced at the next search.
                        self.engine = None;
                    }
                    // A retry only when an engine that was running died:
                    // not when a fresh one would not even start.
                    if fatal && had_engine && attempts == 1 {
                        continue;
                    }
                    return Err(PoolError {
                        index,
                        game: self.games,
                        error,
                        attempts,
                    });
                }
            }
        }
    }
}

/// The results of [`Pool::analyse_all`], in input order.
///
/// Dropping it stops feeding jobs, waits for the searches under way and
/// gives the engines back to the pool.
pub struct Analyses<'a, I> {
    run: Run<'a, I>,
}

/// The results of [`Pool::analyse_games`], a list of analyses per game, in
/// input order.
///
/// Dropping it stops feeding games, waits for the searches under way and
/// gives the engines back to the pool.
pub struct GameAnalyses<'a, I> {
    run: Run<'a, I>,
}

/// The engines at work on a stream of jobs, the results in input order.
struct Run<'a, I> {
    pool: &'a mut Pool,
    /// Each job is a game, searched after every move.
    games: bool,
    input: I,
    input_done: bool,
    jobs: Option<Sender<(usize, Job)>>,
    results: Receiver<(usize, Result<Vec<Analysis>, PoolError>)>,
    workers: Vec<JoinHandle<Option<Engine>>>,
    window: usize,
    /// Jobs sent to the workers.
    sent: usize,
    /// The index of the next result to give.
    next: usize,
    /// Results that came before their turn.
    ready: BTreeMap<usize, Result<Vec<Analysis>, PoolError>>,
    /// Every worker is gone with results missing (a worker panicked).
    broken: bool,
    /// Tells the workers to take no other job.
    stop: Arc<AtomicBool>,
}

impl<I> fmt::Debug for Analyses<'_, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.run.fmt("Analyses", f)
    }
}

impl<I> fmt::Debug for GameAnalyses<'_, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.run.fmt("GameAnalyses", f)
    }
}

impl<I> Run<'_, I> {
    fn fmt(&self, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(name)
            .field("sent", &self.sent)
            .field("next", &self.next)
            .field("held", &self.ready.len())
            .field("window", &self.window)
            .finish_non_exhaustive()
    }
}

impl<I> Run<'_, I> {
    /// Joins the workers and puts their engines back in the pool.
    fn finish(&mut self) {
        self.jobs = None;
        let workers = std::mem::take(&mut self.workers);
        let mut engines = Vec::with_capacity(workers.len());
        for worker in workers {
            engines.push(worker.join().ok().flatten());
        }
        // A slot per worker, whatever came back (`None` is replaced at the
        // next search).
        for (slot, engine) in self.pool.engines.iter_mut().zip(engines) {
            *slot = engine;
        }
    }
}

impl<I> Run<'_, I>
where
    I: Iterator,
    I::Item: Into<Job>,
{
    /// Sends jobs until the window is full or the input ends.
    fn feed(&mut self) {
        while !self.input_done && self.sent - self.next < self.window {
            let Some(job) = self.input.next() else {
                self.input_done = true;
                // The workers end once the queue is empty.
                self.jobs = None;
                break;
            };
            let sent = match &self.jobs {
                Some(jobs) => jobs.send((self.sent, job.into())).is_ok(),
                None => false,
            };
            if !sent {
                self.input_done = true;
                break;
            }
            self.sent += 1;
        }
    }
}

impl<I> Iterator for Analyses<'_, I>
where
    I: Iterator,
    I::Item: Into<Job>,
{
    type Item = Result<Analysis, PoolError>;

    fn next(&mut self) -> Option<Self::Item> {
        let result = self.run.next()?;
        Some(result.and_then(|mut analyses| match analyses.pop() {
            Some(analysis) => Ok(analysis),
            // A position job gives one analysis, always.
            None => Err(PoolError {
                index: self.run.next - 1,
                game: false,
                error: EngineError::Closed {
                    reason: "no analysis came back".to_owned(),
                },
                attempts: 0,
            }),
        }))
    }
}

impl<I> Iterator for GameAnalyses<'_, I>
where
    I: Iterator,
    I::Item: Into<Job>,
{
    type Item = Result<Vec<Analysis>, PoolError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.run.next()
    }
}

impl<I> Run<'_, I>
where
    I: Iterator,
    I::Item: Into<Job>,
{
    fn next(&mut self) -> Option<Result<Vec<Analysis>, PoolError>> {
        if self.broken {
            return None;
        }
        self.feed();
        loop {
            if let Some(result) = self.ready.remove(&self.next) {
                self.next += 1;
                self.feed();
                return Some(result);
            }
            if self.next == self.sent {
                // Nothing sent is missing: the input has ended.
                self.finish();
                return None;
            }
            match self.results.recv() {
                Ok((index, result)) => {
                    self.ready.insert(index, result);
                }
                Err(_) => {
                    // Every worker is gone and a result is missing: only a
                    // panic in a worker does this.
                    self.broken = true;
                    let index = self.next;
                    self.finish();
                    return Some(Err(PoolError {
                        index,
                        game: self.games,
                        error: EngineError::Closed {
                            reason: "the pool's threads ended before this position's result"
                                .to_owned(),
                        },
                        attempts: 0,
                    }));
                }
            }
        }
    }
}

impl<I> Drop for Run<'_, I> {
    fn drop(&mut self) {
        // The workers finish the search they are in and take no other job.
        self.stop.store(true, Ordering::Relaxed);
        self.finish();
    }
}
