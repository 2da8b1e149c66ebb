//! `bitboards perft DEPTH [--fen FEN] [--divide] [--threads N]`: the leaf
//! nodes of the legal move tree, the time it took and the speed.
//!
//! The count walks the root moves one after another, so that a progress bar
//! can advance per root move and `--divide` falls out of the same loop;
//! below each root move it is the library's [`perft`] (one thread) or
//! [`perft_parallel`] (`--threads N`, on a pool of N threads).

use std::fmt::Write as _;
use std::io::Write;
use std::num::NonZeroUsize;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use bitboards::{CastlingNotation, Move, Position, perft, perft_divide_with, perft_parallel};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::CommandError;
use crate::read_position;

pub use crate::Format;

/// The arguments of `bitboards perft`.
///
/// ```
/// use bitboards_cli::perft::PerftArgs;
/// use clap::Parser;
///
/// let args = PerftArgs::parse_from(["perft", "5", "--divide", "--threads", "2"]);
/// assert_eq!((args.depth, args.divide), (5, true));
/// assert_eq!(args.threads.map(|n| n.get()), Some(2));
/// assert!(PerftArgs::try_parse_from(["perft", "5", "--threads", "0"]).is_err());
/// ```
#[derive(Clone, Debug, clap::Parser)]
pub struct PerftArgs {
    /// How many plies deep to count (0 counts the position itself), at
    /// most 10 unless --force.
    #[arg(value_name = "DEPTH", value_parser = parse_depth)]
    pub depth: u32,
    /// The position (the standard start if left out): one argument in
    /// quotes, or its fields as up to six separate arguments (a DEPTH after
    /// an unquoted four-field FEN would be read as its fifth field).
    #[arg(long, value_name = "FEN", num_args = 1..=6)]
    pub fen: Vec<String>,
    /// Print each root move (UCI) with the count below it, then the total.
    #[arg(long)]
    pub divide: bool,
    /// Count on a pool of N threads (the parallel perft); without it, one
    /// thread.
    #[arg(long, value_name = "N", value_parser = parse_thread_count)]
    pub threads: Option<NonZeroUsize>,
    /// Text for people (`move: count` lines with `--divide`, then nodes, time
    /// and speed), or JSON for scripts (one object: fen, depth, threads,
    /// nodes, seconds, mnps, and divide with `--divide`).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Accept a check no game can reach, as some perft suites hold (see
    /// `bitboards fen --help`).
    #[arg(long)]
    pub allow_impossible_check: bool,
    /// Count past depth 10 (from the start position that takes days, and
    /// each further ply about 30 times longer).
    #[arg(long)]
    pub force: bool,
}

/// The deepest count `perft` runs without `--force`: the start position to
/// depth 10 has 69,352,859,712,417 leaves, days of counting at the
/// library's speed, and each ply multiplies the work by about 30.
///
/// ```
/// use bitboards_cli::perft::{run, PerftArgs, MAX_DEPTH};
/// use clap::Parser;
///
/// assert_eq!(MAX_DEPTH, 10);
/// let past = (MAX_DEPTH + 1).to_string();
/// let error = run(&PerftArgs::parse_from(["perft", &past]), false, &mut Vec::new()).unwrap_err();
/// assert_eq!(error.exit_code(), 2);
/// assert!(error.message().ends_with("add --force to count it anyway\n"));
/// ```
pub const MAX_DEPTH: u32 = 10;

/// The depth: a whole number of plies that fits a `u32`.
fn parse_depth(text: &str) -> Result<u32, String> {
    text.parse().map_err(|error: std::num::ParseIntError| {
        if *error.kind() == std::num::IntErrorKind::PosOverflow {
            format!(
                "`{text}` is too large; perft's limit is depth {MAX_DEPTH} (past it with --force, \
                 up to {})",
                u32::MAX
            )
        } else {
            format!("`{text}` is not a depth; a depth is a whole number of plies, such as 5")
        }
    })
}

/// The thread count: a whole number, at least 1.
fn parse_thread_count(text: &str) -> Result<NonZeroUsize, String> {
    let count = text.parse::<usize>().map_err(|_| {
        format!("`{text}` is not a thread count; expected a whole number from 1 up")
    })?;
    NonZeroUsize::new(count).ok_or_else(|| "perft needs at least 1 thread".to_owned())
}

/// What a perft run found: the count below each root move (in generation
/// order; empty at depth 0), the total and how long the counting took.
///
/// ```
/// use bitboards::Position;
/// use bitboards_cli::perft::count;
///
/// let counted = count(&Position::START, 3, None, |_, _| {})?;
/// assert_eq!(counted.nodes, 8_902);
/// assert_eq!(counted.root_moves.len(), 20);
/// # Ok::<(), bitboards_cli::CommandError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Counted {
    /// Each root move with the leaves below it.
    pub root_moves: Vec<(Move, u64)>,
    /// The leaves at the depth: the sum of the root moves' counts (1 at
    /// depth 0).
    pub nodes: u64,
    /// The time spent counting (not reading the FEN or starting threads).
    pub elapsed: Duration,
}

/// Counts the leaves of `position`'s move tree `depth` plies deep, root
/// move by root move, calling `after_root_move` with each move and its
/// count as it is done. With `threads`, each root move's subtree is counted
/// by [`perft_parallel`] on a pool of that many threads.
///
/// ```
/// use std::num::NonZeroUsize;
/// use bitboards::Position;
/// use bitboards_cli::perft::count;
///
/// let mut done = 0;
/// let counted = count(&Position::START, 4, NonZeroUsize::new(2), |_, _| done += 1)?;
/// assert_eq!((counted.nodes, done), (197_281, 20));
/// # Ok::<(), bitboards_cli::CommandError>(())
/// ```
pub fn count(
    position: &Position,
    depth: u32,
    threads: Option<NonZeroUsize>,
    mut after_root_move: impl FnMut(Move, u64) + Send,
) -> Result<Counted, CommandError> {
    let Some(threads) = threads else {
        return Ok(count_by_root_move(
            position,
            depth,
            perft,
            &mut after_root_move,
        ));
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.get())
        .build()
        .map_err(|error| {
            CommandError::failure(format!("could not start {threads} threads: {error}"))
        })?;
    Ok(pool.install(|| count_by_root_move(position, depth, perft_parallel, &mut after_root_move)))
}

fn count_by_root_move(
    position: &Position,
    depth: u32,
    count_below: fn(&Position, u32) -> u64,
    after_root_move: &mut dyn FnMut(Move, u64),
) -> Counted {
    let start = Instant::now();
    if depth == 0 {
        return Counted {
            root_moves: Vec::new(),
            nodes: 1,
            elapsed: start.elapsed(),
        };
    }
    let divided = perft_divide_with(position, depth, count_below, after_root_move);
    let root_moves: Vec<(Move, u64)> = divided.iter().collect();
    Counted {
        nodes: root_moves.iter().map(|(_, nodes)| nodes).sum(),
        root_moves,
        elapsed: start.elapsed(),
    }
}

/// Whether UCI text should write castling as the king taking its rook
/// (Chess960, `UCI_Chess960`) rather than the king's two-square move: the
/// library's [`Position::castling_notation`], kept here under its old name.
///
/// ```
/// use bitboards::{CastlingNotation, Position};
/// use bitboards_cli::perft::castling_notation;
///
/// assert_eq!(castling_notation(&Position::START), CastlingNotation::KingToTarget);
/// let chess960 = Position::chess960(0).unwrap();
/// assert_eq!(castling_notation(&chess960), CastlingNotation::KingTakesRook);
/// ```
#[must_use]
pub fn castling_notation(position: &Position) -> CastlingNotation {
    position.castling_notation()
}

/// How long a count runs before its progress bar appears: shorter runs
/// print their answer without a flicker.
const PROGRESS_DELAY: Duration = Duration::from_millis(500);

/// Runs `work` with a progress bar over `root_moves` root moves on standard
/// error, drawn only when `show` is true and `work` is still running after
/// [`PROGRESS_DELAY`], and cleared at the end.
fn with_progress<T: Send>(
    show: bool,
    root_moves: usize,
    depth: u32,
    work: impl FnOnce(&ProgressBar) -> T + Send,
) -> T {
    let bar = ProgressBar::with_draw_target(
        Some(u64::try_from(root_moves).unwrap_or(u64::MAX)),
        ProgressDrawTarget::hidden(),
    );
    // The template is fixed and valid; a failure would only lose the style.
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} perft {msg} [{bar:30}] {pos}/{len} root moves, {elapsed}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(format!("depth {depth}"));
    if !show {
        return work(&bar);
    }
    let result = thread::scope(|scope| {
        let (done, finished) = mpsc::channel::<()>();
        let watcher_bar = bar.clone();
        scope.spawn(move || {
            // Dropping `done` (the work ended) wakes this with Disconnected.
            if finished.recv_timeout(PROGRESS_DELAY) == Err(mpsc::RecvTimeoutError::Timeout) {
                watcher_bar.set_draw_target(ProgressDrawTarget::stderr());
                watcher_bar.enable_steady_tick(Duration::from_millis(120));
            }
        });
        let result = work(&bar);
        drop(done);
        result
    });
    bar.finish_and_clear();
    result
}

/// Reads the position, counts, and writes the report to `out`;
/// `show_progress` allows the progress bar on standard error (the caller
/// passes whether standard error is a terminal).
///
/// ```
/// use bitboards_cli::perft::{run, PerftArgs};
/// use clap::Parser;
///
/// let args = PerftArgs::parse_from(["perft", "3"]);
/// let mut out = Vec::new();
/// run(&args, false, &mut out).unwrap();
/// assert!(String::from_utf8(out).unwrap().starts_with("nodes   8902\n"));
/// ```
pub fn run(args: &PerftArgs, show_progress: bool, out: &mut dyn Write) -> Result<(), CommandError> {
    if args.depth > MAX_DEPTH && !args.force {
        return Err(CommandError::usage(format!(
            "depth {} is past perft's limit of {MAX_DEPTH} plies (the start position to depth \
             10 has 69,352,859,712,417 leaves, days of counting, and each ply multiplies the \
             work by about 30); add --force to count it anyway",
            args.depth
        )));
    }
    let position = if args.fen.is_empty() {
        Position::START
    } else {
        read_position(&args.fen.join(" "), args.allow_impossible_check)?
    };
    let root_moves = if args.depth == 0 {
        0
    } else {
        position.legal_moves().len()
    };
    let counted = with_progress(show_progress, root_moves, args.depth, |bar| {
        count(&position, args.depth, args.threads, |_, _| bar.inc(1))
    })?;
    let report = match args.format {
        Format::Text => text_report(&position, &counted, args.divide),
        Format::Json => json_report(&position, args, &counted),
    };
    out.write_all(report.as_bytes())
        .and_then(|()| out.flush())
        .map_err(CommandError::from_write)
}

/// The root moves as UCI text with their counts, sorted by the text (as
/// other programs' divides are usually compared).
fn divide_lines(position: &Position, counted: &Counted) -> Vec<(String, u64)> {
    let mut lines: Vec<(String, u64)> = counted
        .root_moves
        .iter()
        .map(|&(mv, nodes)| (position.uci(mv).to_string(), nodes))
        .collect();
    lines.sort();
    lines
}

/// A time to three decimals, in milliseconds below a second.
fn duration_text(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds < 1.0 {
        format!("{:.3} ms", seconds * 1e3)
    } else {
        format!("{seconds:.3} s")
    }
}

/// Millions of nodes per second, when the time is measurable.
fn mnps(counted: &Counted) -> Option<f64> {
    let seconds = counted.elapsed.as_secs_f64();
    (seconds > 0.0).then(|| counted.nodes as f64 / seconds / 1e6)
}

/// The text report: with `divide`, one `move: count` line per root move
/// and a blank line; then nodes, time and speed.
///
/// ```
/// use bitboards::Position;
/// use bitboards_cli::perft::{count, text_report};
///
/// let counted = count(&Position::START, 2, None, |_, _| {})?;
/// let report = text_report(&Position::START, &counted, true);
/// assert!(report.starts_with("a2a3: 20\na2a4: 20\n"));
/// assert!(report.contains("\n\nnodes   400\ntime    "));
/// # Ok::<(), bitboards_cli::CommandError>(())
/// ```
#[must_use]
pub fn text_report(position: &Position, counted: &Counted, divide: bool) -> String {
    let mut out = String::new();
    if divide {
        for (uci, nodes) in divide_lines(position, counted) {
            let _ = writeln!(out, "{uci}: {nodes}");
        }
        out.push('\n');
    }
    let _ = writeln!(out, "nodes   {}", counted.nodes);
    let _ = writeln!(out, "time    {}", duration_text(counted.elapsed));
    let _ = match mnps(counted) {
        Some(speed) => writeln!(out, "speed   {speed:.2} Mnps"),
        None => writeln!(out, "speed   (too fast to time)"),
    };
    out
}

/// The JSON object for scripts: `fen`, `depth`, `threads`, `nodes`,
/// `seconds`, `mnps` (`null` when too fast to time), and with `--divide`
/// `divide`, a list of `{"move", "nodes"}` objects.
///
/// ```
/// use bitboards::Position;
/// use bitboards_cli::perft::{count, json_report, PerftArgs};
/// use clap::Parser;
///
/// let args = PerftArgs::parse_from(["perft", "1", "--divide"]);
/// let counted = count(&Position::START, 1, None, |_, _| {})?;
/// let json = json_report(&Position::START, &args, &counted);
/// assert!(json.contains("\"nodes\": 20,"));
/// assert!(json.contains("{\"move\": \"e2e4\", \"nodes\": 1}"));
/// # Ok::<(), bitboards_cli::CommandError>(())
/// ```
#[must_use]
pub fn json_report(position: &Position, args: &PerftArgs, counted: &Counted) -> String {
    let mut out = String::from("{\n");
    let _ = writeln!(out, "  \"fen\": \"{}\",", position.fen());
    let _ = writeln!(out, "  \"depth\": {},", args.depth);
    let _ = writeln!(
        out,
        "  \"threads\": {},",
        args.threads.map_or(1, NonZeroUsize::get)
    );
    let _ = writeln!(out, "  \"nodes\": {},", counted.nodes);
    let _ = writeln!(out, "  \"seconds\": {},", counted.elapsed.as_secs_f64());
    let speed = mnps(counted).map_or_else(|| "null".to_owned(), |speed| format!("{speed:.3}"));
    let _ = write!(out, "  \"mnps\": {speed}");
    if args.divide {
        let entries: Vec<String> = divide_lines(position, counted)
            .iter()
            .map(|(uci, nodes)| format!("    {{\"move\": \"{uci}\", \"nodes\": {nodes}}}"))
            .collect();
        let _ = write!(out, ",\n  \"divide\": [\n{}\n  ]", entries.join(",\n"));
    }
    out.push_str("\n}\n");
    out
}
