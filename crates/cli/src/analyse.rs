//! `bitboards analyse`: a UCI engine (Stockfish) over every position of PGN
//! files or a list of FENs, on every core, into Parquet, annotated PGN or
//! lines of text.
//!
//! Games are analysed whole, each by one engine after one `ucinewgame`,
//! the position after every move; FENs (`--fens`) one by one, each after
//! its own `ucinewgame`. So at a limit of nodes or depth the output is the
//! same bytes whatever `--engines` is. `--keep-hash` skips the
//! `ucinewgame`s: faster at small limits, but each result then depends on
//! what its engine searched before.

use std::cell::RefCell;
use std::collections::{HashSet, VecDeque};
use std::fmt::Write as _;
use std::io::{self, BufRead, BufWriter, Write};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bitboards::{Epd, Position};
use bitboards_engine::table::{AnalysisBuilder, analysis_schema};
use bitboards_engine::{Analysis, EngineBuilder, Job, Limit, OptionValue, Pool, PoolError};
use bitboards_pgn::table::{ParquetOptions, ParquetWriter};
use bitboards_pgn::{GameResult, PgnGame, Writer};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::CommandError;
use crate::pgn::{Output, create_output};

/// Rows per batch handed to the Parquet writer.
const BATCH_ROWS: usize = 4096;

/// The arguments of `bitboards analyse`.
///
/// ```
/// use bitboards_cli::analyse::{AnalyseArgs, Target};
/// use clap::Parser;
///
/// let args = AnalyseArgs::parse_from([
///     "analyse", "games.pgn.zst", "--engine", "/usr/games/stockfish", "--nodes", "10000",
///     "--to", "parquet", "evals.parquet",
/// ]);
/// assert_eq!(args.target()?, Some((Target::Parquet, "evals.parquet")));
/// assert_eq!(args.limit()?.nodes, Some(10_000));
/// let no_limit = AnalyseArgs::parse_from(["analyse", "a.pgn", "--engine", "sf"]);
/// assert!(no_limit.limit().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Debug, clap::Parser)]
pub struct AnalyseArgs {
    /// PGN files, plain or compressed (zstd, gzip, bzip2), or `-` for
    /// standard input. Each game's every position after a move is
    /// analysed, in order, by one engine.
    #[arg(value_name = "FILE|-", required_unless_present = "fens")]
    pub files: Vec<String>,
    /// The engine: the path of a UCI engine's program.
    #[arg(long, value_name = "PATH")]
    pub engine: String,
    /// Search each position to this many nodes.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search each position to this depth.
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Search each position for this many milliseconds (not reproducible).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Principal variations per position: a row each with `--to parquet`.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub multipv: u32,
    /// Engines at once (default: one per core).
    #[arg(long, value_name = "N")]
    pub engines: Option<usize>,
    /// Each engine's hash table, in MB (default: the engine's own).
    #[arg(long, value_name = "MB")]
    pub hash: Option<u64>,
    /// An engine option, `NAME=VALUE`, checked against those the engine
    /// declares (repeat for more).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Keep each engine's hash from one game (or FEN) to the next: no
    /// `ucinewgame`. Faster at small limits, but results then depend on
    /// the order and on which engine took which position.
    #[arg(long)]
    pub keep_hash: bool,
    /// Analyse the positions of this file instead, one FEN or EPD a line
    /// (blank lines and lines starting with `#` skipped).
    #[arg(long, value_name = "FILE")]
    pub fens: Option<String>,
    /// Analyse each position once, the first time it comes (by its
    /// Polyglot key), each after its own `ucinewgame`.
    #[arg(long)]
    pub unique: bool,
    /// How long an engine may stay silent in a search of `--nodes` or
    /// `--depth` before it counts as hung: it is told to `stop`, then
    /// killed, and the position is an error (default 10; a search that
    /// keeps writing `info` lines may go on for an hour). A `--movetime`
    /// search has its time plus a second instead.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Where the analyses go: `--to parquet OUT` (one row per position
    /// and PV: game, ply, fen, bitboards, turn, multipv, best, cp, mate,
    /// wdl, depth, seldepth, nodes, pv) or `--to pgn OUT` (the games back
    /// with `[%eval ...]` after every move, as Lichess writes it). `-` is
    /// standard output. Without `--to`: a line of text per position.
    #[arg(long, num_args = 2, value_names = ["parquet|pgn", "OUT"])]
    pub to: Vec<String>,
}

/// What `--to` writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Target {
    /// One row per position and PV.
    Parquet,
    /// The games with their evals.
    Pgn,
}

impl AnalyseArgs {
    /// The search limit of `--nodes`, `--depth` and `--movetime`.
    ///
    /// # Errors
    /// None of them given, or a limit of zero.
    pub fn limit(&self) -> Result<Limit, String> {
        let limit = Limit {
            nodes: self.nodes,
            depth: self.depth,
            movetime: self.movetime.map(Duration::from_millis),
            ..Limit::default()
        };
        if limit.is_empty() {
            return Err("give a limit: --nodes N, --depth D or --movetime MS".to_owned());
        }
        if self.nodes == Some(0) || self.depth == Some(0) || self.movetime == Some(0) {
            return Err("a limit of 0 searches nothing: give at least 1".to_owned());
        }
        Ok(limit)
    }

    /// The output `--to` asks for, and where.
    ///
    /// # Errors
    /// A format other than `parquet` or `pgn`, or `pgn` with `--fens` or
    /// `--unique` (which have no games to write back).
    pub fn target(&self) -> Result<Option<(Target, &str)>, String> {
        let [kind, out] = &self.to[..] else {
            return Ok(None);
        };
        let target = match kind.as_str() {
            "parquet" => Target::Parquet,
            "pgn" => Target::Pgn,
            other => {
                return Err(format!(
                    "`{other}` is not an output of analyse; expected `parquet` or `pgn`"
                ));
            }
        };
        if target == Target::Pgn && self.fens.is_some() {
            return Err("--to pgn writes games back: it needs PGN input, not --fens".to_owned());
        }
        if target == Target::Pgn && self.unique {
            return Err(
                "--to pgn writes every move's eval: it cannot skip repeated positions (--unique)"
                    .to_owned(),
            );
        }
        Ok(Some((target, out.as_str())))
    }

    /// The options each engine gets: `--hash`, then every `--option`.
    ///
    /// # Errors
    /// An `--option` without `=`.
    pub fn engine_options(&self) -> Result<Vec<(String, OptionValue)>, String> {
        let mut options = Vec::new();
        if let Some(hash) = self.hash {
            options.push((
                "Hash".to_owned(),
                OptionValue::Int(i64::try_from(hash).unwrap_or(i64::MAX)),
            ));
        }
        for option in &self.options {
            let Some((name, value)) = option.split_once('=') else {
                return Err(format!(
                    "--option `{option}`: expected NAME=VALUE (for example Threads=1)"
                ));
            };
            options.push((name.trim().to_owned(), OptionValue::from(value.trim())));
        }
        Ok(options)
    }
}

/// Where one job came from: what its results are written with.
enum Origin {
    /// A game (numbered from 0 over every file), written back with
    /// `--to pgn`.
    Game { number: u64, game: Box<PgnGame> },
    /// One position: the game or line it came from, and its ply.
    Position { number: u64, ply: usize },
}

/// What the run counted.
#[derive(Debug, Default)]
struct Counts {
    positions: u64,
    failed: u64,
    skipped: u64,
}

/// Runs `bitboards analyse`; text lines go to `out`, reports and the
/// summary to `err`; a progress bar when `terminal`.
///
/// # Errors
/// Bad arguments, an engine that cannot start or refuses an option, an
/// input that cannot be read or an output that cannot be written (exit
/// code 2); positions or games that failed (exit code 1, after the rest).
pub fn run(
    args: &AnalyseArgs,
    terminal: bool,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    let limit = args.limit().map_err(CommandError::usage)?;
    let target = args.target().map_err(CommandError::usage)?;
    let options = args.engine_options().map_err(CommandError::usage)?;
    if args.multipv == 0 {
        return Err(CommandError::usage("--multipv must be at least 1"));
    }
    if args.fens.is_some() && !args.files.is_empty() {
        return Err(CommandError::usage(
            "give PGN files or --fens FILE, not both",
        ));
    }
    let engines = args.engines.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if engines == 0 {
        return Err(CommandError::usage("--engines must be at least 1"));
    }
    let mut builder = EngineBuilder::new(args.engine.as_str());
    if let Some(seconds) = args.timeout {
        let silence = Duration::try_from_secs_f64(seconds)
            .ok()
            .filter(|silence| !silence.is_zero())
            .ok_or_else(|| {
                CommandError::usage(format!(
                    "--timeout must be a positive number of seconds, not {seconds}"
                ))
            })?;
        builder = builder.silence_timeout(silence);
    }
    // The text of --fens (which the jobs borrow), read before any engine
    // starts.
    let fen_text = match &args.fens {
        Some(fens) => std::fs::read_to_string(fens)
            .map_err(|error| CommandError::unreadable(format!("cannot read {fens}: {error}")))?,
        None => String::new(),
    };
    let borrowed: Vec<(&str, OptionValue)> = options
        .iter()
        .map(|(name, value)| (name.as_str(), value.clone()))
        .collect();
    kill_engines_on_signals();
    let mut pool = Pool::new(builder, engines, &borrowed)
        .map_err(|error| CommandError::failure(format!("engine {}: {error}", args.engine)))?;

    let mut sink = Sink::open(target, out)?;
    let progress = Progress::new(terminal);
    let started = Instant::now();
    let mut counts = Counts::default();
    let origins: Rc<RefCell<VecDeque<Origin>>> = Rc::default();
    let reports: Rc<RefCell<Vec<String>>> = Rc::default();
    let reset = !args.keep_hash;

    if args.fens.is_some() || args.unique {
        // Positions one by one, each after its own ucinewgame.
        let jobs: Box<dyn Iterator<Item = Job> + '_> = match &args.fens {
            Some(fens) => Box::new(fen_jobs(
                args, fens, &fen_text, &origins, &reports, &progress,
            )),
            None => {
                let mut seen = HashSet::new();
                Box::new(game_positions(
                    args,
                    &origins,
                    &reports,
                    &progress,
                    move |position| seen.insert(position.polyglot_key()),
                ))
            }
        };
        let results = pool.analyse_all(jobs, &limit, args.multipv, reset);
        for result in results {
            flush_reports(&reports, err, &mut counts);
            let origin = origins.borrow_mut().pop_front();
            let Some(Origin::Position { number, ply }) = origin else {
                continue;
            };
            sink.position(number, ply, result, &mut counts, err)?;
            progress.advance(1);
        }
    } else {
        let games = games(args, &origins, &reports, &progress);
        let results = pool.analyse_games(games, &limit, args.multipv, reset);
        for result in results {
            flush_reports(&reports, err, &mut counts);
            let origin = origins.borrow_mut().pop_front();
            let Some(Origin::Game { number, game }) = origin else {
                continue;
            };
            let plies = game.mainline.moves().len() as u64;
            sink.game(number, &game, result, &mut counts, err)?;
            progress.advance(plies);
        }
    }
    flush_reports(&reports, err, &mut counts);
    progress.finish();
    drop(pool);
    sink.finish()?;

    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    let mut summary = format!(
        "{} positions analysed in {seconds:.2} s: {:.1} positions/s",
        counts.positions,
        counts.positions as f64 / seconds,
    );
    if counts.failed > 0 {
        let _ = write!(summary, ", {} failed", counts.failed);
    }
    if counts.skipped > 0 {
        let _ = write!(summary, ", {} inputs unreadable", counts.skipped);
    }
    let _ = writeln!(err, "{summary}");
    if counts.failed > 0 || counts.skipped > 0 {
        return Err(CommandError::reported());
    }
    Ok(())
}

/// The positions of the `--fens` file `name` (its `text`), each a pool
/// job, in order; a line that does not read goes to `reports`, a repeated
/// position (with `--unique`) is skipped.
fn fen_jobs<'a>(
    args: &'a AnalyseArgs,
    name: &'a str,
    text: &'a str,
    origins: &Rc<RefCell<VecDeque<Origin>>>,
    reports: &Rc<RefCell<Vec<String>>>,
    progress: &Progress,
) -> impl Iterator<Item = Job> + 'a {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .collect();
    progress.set_total(lines.len() as u64);
    let mut seen = HashSet::new();
    let origins = Rc::clone(origins);
    let reports = Rc::clone(reports);
    let progress = progress.clone();
    lines.into_iter().filter_map(move |(number, line)| {
        let position = match read_fen(line) {
            Ok(position) => position,
            Err(error) => {
                reports
                    .borrow_mut()
                    .push(format!("{name}: line {}: {error}", number + 1));
                progress.skip();
                return None;
            }
        };
        if args.unique && !seen.insert(position.polyglot_key()) {
            progress.skip();
            return None;
        }
        origins.borrow_mut().push_back(Origin::Position {
            number: number as u64,
            ply: 0,
        });
        Some(Job::from(position))
    })
}

/// A line of `--fens`: a FEN, or an EPD record.
fn read_fen(line: &str) -> Result<Position, String> {
    let line = line.trim();
    match Position::from_fen(line) {
        Ok(position) => Ok(position),
        Err(fen_error) => match Epd::parse(line) {
            Ok(epd) => Ok(*epd.position()),
            Err(_) => Err(fen_error.to_string()),
        },
    }
}

/// Writes the reports the input gathered, each a failed input.
fn flush_reports(reports: &RefCell<Vec<String>>, err: &mut impl Write, counts: &mut Counts) {
    for report in reports.borrow_mut().drain(..) {
        counts.skipped += 1;
        let _ = writeln!(err, "{report}");
    }
}

/// Every game of the PGN files, in order, as a pool job; each game's
/// origin goes to `origins`, and a game that does not read to `reports`.
fn games<'a>(
    args: &'a AnalyseArgs,
    origins: &Rc<RefCell<VecDeque<Origin>>>,
    reports: &Rc<RefCell<Vec<String>>>,
    progress: &Progress,
) -> impl Iterator<Item = Job> + 'a {
    let origins = Rc::clone(origins);
    let reports = Rc::clone(reports);
    let progress = progress.clone();
    let mut number = 0u64;
    read_games(args, reports).filter_map(move |game| {
        let this = number;
        number += 1;
        let game = game?;
        progress.grow(game.mainline.moves().len() as u64);
        let job = Job::from(&game.mainline);
        origins.borrow_mut().push_back(Origin::Game {
            number: this,
            game: Box::new(game),
        });
        Some(job)
    })
}

/// Every position after a move of every game, as a pool job, where `keep`
/// says so (the first time a position comes, for `--unique`).
fn game_positions<'a>(
    args: &'a AnalyseArgs,
    origins: &Rc<RefCell<VecDeque<Origin>>>,
    reports: &Rc<RefCell<Vec<String>>>,
    progress: &Progress,
    mut keep: impl FnMut(&Position) -> bool + 'a,
) -> impl Iterator<Item = Job> + 'a {
    let origins = Rc::clone(origins);
    let reports = Rc::clone(reports);
    let progress = progress.clone();
    let mut number = 0u64;
    read_games(args, reports).flat_map(move |game| {
        let this = number;
        number += 1;
        let mut jobs = Vec::new();
        if let Some(game) = game {
            let start = *game.mainline.start();
            let moves = game.mainline.moves();
            let mut position = start;
            for (ply, &mv) in moves.iter().enumerate() {
                position = position.play_unchecked(mv);
                if keep(&position) {
                    origins.borrow_mut().push_back(Origin::Position {
                        number: this,
                        ply: ply + 1,
                    });
                    jobs.push(Job::from((start, moves[..=ply].to_vec())));
                }
            }
            progress.grow(jobs.len() as u64);
        }
        jobs
    })
}

/// The games of every file in order: `None` for one that did not read
/// (reported with its file and place), and the files' errors reported.
fn read_games<'a>(
    args: &'a AnalyseArgs,
    reports: Rc<RefCell<Vec<String>>>,
) -> impl Iterator<Item = Option<PgnGame>> + 'a {
    args.files.iter().flat_map(move |file| {
        let reports = Rc::clone(&reports);
        let input: Box<dyn BufRead + Send> = if file == "-" {
            match bitboards_pgn::decompress_in_background(io::BufReader::new(io::stdin())) {
                Ok(input) => input,
                Err(error) => {
                    reports
                        .borrow_mut()
                        .push(format!("cannot read standard input: {error}"));
                    return Box::new(std::iter::empty()) as Box<dyn Iterator<Item = _>>;
                }
            }
        } else {
            match bitboards_pgn::open(file) {
                Ok(input) => input,
                Err(error) => {
                    reports
                        .borrow_mut()
                        .push(format!("cannot read {file}: {error}"));
                    return Box::new(std::iter::empty());
                }
            }
        };
        let mut reader = bitboards_pgn::Reader::new(input);
        let file = file.clone();
        // After an input that cannot be read, or is not PGN, the file ends
        // (the next game follows only a malformed one).
        let mut ended = false;
        Box::new(std::iter::from_fn(move || {
            if ended {
                return None;
            }
            let next = reader.games().next()?;
            Some(match next {
                Ok(game) => Some(game),
                Err(error) => {
                    ended = !matches!(error, bitboards_pgn::ReadError::Game(_));
                    reports.borrow_mut().push(format!("{file}: {error}"));
                    None
                }
            })
        }))
    })
}

/// Where the analyses go.
enum Sink<'o, O> {
    Parquet {
        path: String,
        builder: Box<AnalysisBuilder>,
        writer: Box<ParquetWriter<Output>>,
    },
    Pgn {
        path: String,
        writer: Writer<BufWriter<Output>>,
    },
    Text(&'o mut O),
}

impl<'o, O: Write> Sink<'o, O> {
    fn open(target: Option<(Target, &str)>, out: &'o mut O) -> Result<Self, CommandError> {
        Ok(match target {
            None => Sink::Text(out),
            Some((Target::Parquet, path)) => {
                let file = create_output(path)?;
                let writer =
                    ParquetWriter::with_options(file, analysis_schema(), ParquetOptions::default())
                        .map_err(|error| {
                            CommandError::unreadable(format!("cannot write {path}: {error}"))
                        })?;
                Sink::Parquet {
                    path: path.to_owned(),
                    builder: Box::default(),
                    writer: Box::new(writer),
                }
            }
            Some((Target::Pgn, path)) => Sink::Pgn {
                path: path.to_owned(),
                writer: Writer::new(BufWriter::with_capacity(1 << 16, create_output(path)?)),
            },
        })
    }

    /// One position's result.
    fn position(
        &mut self,
        number: u64,
        ply: usize,
        result: Result<Analysis, PoolError>,
        counts: &mut Counts,
        err: &mut impl Write,
    ) -> Result<(), CommandError> {
        match result {
            Ok(analysis) => {
                counts.positions += 1;
                self.analysis(number, ply, &analysis)
            }
            Err(error) => {
                counts.failed += 1;
                let _ = writeln!(err, "game {number}, ply {ply}: {}", error.error);
                Ok(())
            }
        }
    }

    /// One game's results.
    fn game(
        &mut self,
        number: u64,
        game: &PgnGame,
        result: Result<Vec<Analysis>, PoolError>,
        counts: &mut Counts,
        err: &mut impl Write,
    ) -> Result<(), CommandError> {
        let analyses = match result {
            Ok(analyses) => analyses,
            Err(error) => {
                counts.failed += 1;
                let _ = writeln!(err, "game {number}: {}", error.error);
                // The game goes back as it came, without evals: the output
                // keeps every game of the input.
                if let Sink::Pgn { path, writer } = self {
                    return writer
                        .write_game(&with_evals(game, &[]))
                        .map_err(|error| cannot_write(path, &error));
                }
                return Ok(());
            }
        };
        counts.positions += analyses.len() as u64;
        if let Sink::Pgn { path, writer } = self {
            let annotated = with_evals(game, &analyses);
            return writer
                .write_game(&annotated)
                .map_err(|error| cannot_write(path, &error));
        }
        for (ply, analysis) in analyses.iter().enumerate() {
            self.analysis(number, ply + 1, analysis)?;
        }
        Ok(())
    }

    /// One analysis as rows or a line.
    fn analysis(
        &mut self,
        number: u64,
        ply: usize,
        analysis: &Analysis,
    ) -> Result<(), CommandError> {
        match self {
            Sink::Parquet {
                path,
                builder,
                writer,
            } => {
                builder.push(number, ply, analysis);
                if builder.len() >= BATCH_ROWS {
                    writer
                        .write(&builder.finish())
                        .map_err(|error| cannot_write(path, &io::Error::other(error)))?;
                }
                Ok(())
            }
            // Positions from --fens or --unique: no game to write back
            // (refused by `target`).
            Sink::Pgn { .. } => Ok(()),
            Sink::Text(out) => writeln!(out, "{}", text_line(number, ply, analysis))
                .map_err(CommandError::from_write),
        }
    }

    fn finish(self) -> Result<(), CommandError> {
        match self {
            Sink::Parquet {
                path,
                mut builder,
                mut writer,
            } => {
                if !builder.is_empty() {
                    writer
                        .write(&builder.finish())
                        .map_err(|error| cannot_write(&path, &io::Error::other(error)))?;
                }
                let file = (*writer)
                    .close()
                    .map_err(|error| cannot_write(&path, &io::Error::other(error)))?;
                file.commit(&path)
            }
            Sink::Pgn { path, writer } => {
                let file = writer
                    .into_inner()
                    .into_inner()
                    .map_err(|error| cannot_write(&path, error.error()))?;
                file.commit(&path)
            }
            Sink::Text(out) => out.flush().map_err(CommandError::from_write),
        }
    }
}

fn cannot_write(path: &str, error: &dyn std::fmt::Display) -> CommandError {
    CommandError::unreadable(format!("cannot write {path}: {error}"))
}

/// A line of text: game, ply, FEN, best move, score (White's view), depth
/// and PV.
fn text_line(number: u64, ply: usize, analysis: &Analysis) -> String {
    let notation = analysis.position.castling_notation();
    let mut line = format!("game {number} ply {ply}: ");
    let _ = write!(line, "{}", analysis.position.fen());
    match analysis.best {
        Some(mv) => {
            let _ = write!(line, " best {}", mv.uci(notation));
        }
        None => line.push_str(" best (none)"),
    }
    if let Some(score) = analysis.white_score() {
        let _ = write!(line, " eval {}", eval_text(score));
    }
    if let Some(depth) = analysis.info().and_then(|info| info.depth) {
        let _ = write!(line, " depth {depth}");
    }
    if let Some(info) = analysis.info().filter(|info| !info.pv.is_empty()) {
        line.push_str(" pv");
        for mv in &info.pv {
            let _ = write!(line, " {}", mv.uci(notation));
        }
    }
    line
}

/// A score from White's view as `[%eval ...]` writes it: pawns with two
/// decimals (`0.17`, `-1.50`), or `#3` / `#-3` for a mate.
fn eval_text(score: bitboards_engine::Score) -> String {
    match score.cp() {
        Some(cp) => {
            let sign = if cp < 0 { "-" } else { "" };
            let abs = cp.unsigned_abs();
            format!("{sign}{}.{:02}", abs / 100, abs % 100)
        }
        None => format!("#{}", score.mate().unwrap_or(0)),
    }
}

/// `game` with `[%eval ...]` after every move the engine scored: in the
/// move's comment when it has one (in place of an eval there), or as a
/// comment of its own.
fn with_evals(game: &PgnGame, analyses: &[Analysis]) -> PgnGame {
    let mut annotated = game.clone();
    let mut comments = Vec::with_capacity(game.comments.len() + analyses.len());
    let mut old = game.comments.iter().peekable();
    for ply in 0..=analyses.len().max(game.mainline.moves().len()) {
        let mut here: Vec<String> = Vec::new();
        while let Some((_, text)) = old.next_if(|(at, _)| *at <= ply) {
            here.push(text.clone());
        }
        let eval = ply
            .checked_sub(1)
            .and_then(|at| analyses.get(at))
            // No eval where the game is over (no legal move): Lichess
            // writes none there either.
            .filter(|analysis| analysis.best.is_some())
            .and_then(Analysis::white_score)
            .map(|score| format!("[%eval {}]", eval_text(score)));
        match eval {
            Some(eval) => {
                let rest: Vec<String> = here
                    .iter()
                    .map(|text| without_eval(text))
                    .filter(|text| !text.is_empty())
                    .collect();
                let text = if rest.is_empty() {
                    eval
                } else {
                    format!("{eval} {}", rest.join(" "))
                };
                comments.push((ply, text));
            }
            None => comments.extend(here.into_iter().map(|text| (ply, text))),
        }
    }
    // Comments past the moves (there are none in a game read from PGN).
    comments.extend(old.cloned());
    annotated.comments = comments;
    if annotated.result.is_none() && annotated.tag("Result").is_none() {
        annotated.result = Some(GameResult::Unknown);
    }
    annotated
}

/// `text` without its `[%eval ...]` commands, trimmed.
fn without_eval(text: &str) -> String {
    let mut rest = String::with_capacity(text.len());
    let mut remaining = text;
    while let Some(at) = remaining.find("[%eval") {
        rest.push_str(&remaining[..at]);
        match remaining[at..].find(']') {
            Some(end) => remaining = &remaining[at + end + 1..],
            None => {
                remaining = "";
            }
        }
    }
    rest.push_str(remaining);
    rest.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The positions done (and, for `--fens`, to do), shown as a bar on a
/// terminal with positions/s and the time left.
#[derive(Clone)]
struct Progress {
    bar: Option<ProgressBar>,
    total: Arc<AtomicU64>,
}

impl Progress {
    fn new(terminal: bool) -> Progress {
        let bar = terminal.then(|| {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            if let Ok(style) =
                ProgressStyle::with_template("{bar:40} {pos}/{len} positions {per_sec} {eta} left")
            {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            total: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The positions to do, when known up front.
    fn set_total(&self, total: u64) {
        self.total.store(total, Ordering::Relaxed);
        if let Some(bar) = &self.bar {
            bar.set_length(total);
        }
    }

    /// More positions to do (a game read).
    fn grow(&self, positions: u64) {
        let total = self.total.fetch_add(positions, Ordering::Relaxed) + positions;
        if let Some(bar) = &self.bar {
            bar.set_length(total);
        }
    }

    /// A position that will not be analysed.
    fn skip(&self) {
        let total = self.total.load(Ordering::Relaxed).saturating_sub(1);
        self.set_total(total);
    }

    fn advance(&self, positions: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(positions);
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Once: a thread that, when the command gets SIGINT or SIGTERM, kills
/// every engine's process group and exits as the signal would have (130,
/// 143). The engines lead groups of their own, so a terminal's Ctrl-C no
/// longer reaches them, and the pool's drops do not run on a signal.
fn kill_engines_on_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        static INSTALLED: std::sync::Once = std::sync::Once::new();
        INSTALLED.call_once(|| {
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
                return;
            };
            let _ = std::thread::Builder::new()
                .name("signals".to_owned())
                .spawn(move || {
                    if let Some(signal) = signals.forever().next() {
                        bitboards_engine::kill_all();
                        std::process::exit(128 + signal);
                    }
                });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{eval_text, without_eval};
    use bitboards_engine::Score;

    #[test]
    fn evals_are_written_as_lichess_writes_them() {
        assert_eq!(eval_text(Score::Cp(17)), "0.17");
        assert_eq!(eval_text(Score::Cp(-150)), "-1.50");
        assert_eq!(eval_text(Score::Cp(-5)), "-0.05");
        assert_eq!(eval_text(Score::Cp(0)), "0.00");
        assert_eq!(eval_text(Score::Mate(3)), "#3");
        assert_eq!(eval_text(Score::Mate(-2)), "#-2");
        for cp in [-1234, -100, -99, -1, 0, 1, 99, 100, 2345] {
            let text = format!("[%eval {}]", eval_text(Score::Cp(cp)));
            let read = bitboards_pgn::annotations::eval(&text).map(|eval| eval.score);
            assert_eq!(
                read,
                Some(bitboards_pgn::annotations::Score::Cp(cp)),
                "{text}"
            );
        }
    }

    #[test]
    fn an_old_eval_is_taken_out_of_a_comment() {
        assert_eq!(without_eval("[%eval 0.3] [%clk 0:01:00]"), "[%clk 0:01:00]");
        assert_eq!(without_eval("good [%eval #-2]"), "good");
        assert_eq!(without_eval("[%eval 0.3"), "");
        assert_eq!(without_eval("no eval"), "no eval");
    }
}
