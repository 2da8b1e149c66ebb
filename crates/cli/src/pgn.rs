//! `bitboards pgn FILE|-`: every game of a PGN file replayed, with its plies,
//! final position, result tag and what the rules say of its end.
//!
//! A game that does not read (bad PGN, an illegal or ambiguous move) is
//! reported on standard error with its number, line and column, and the
//! games after it still go through. Exit code 0 when every game read, 1 when
//! any failed, 2 when the file cannot be read.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bitboards::Position;
use bitboards_pgn::{PgnGame, ReadError, Reader};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::CommandError;

pub use crate::Format;

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

/// The arguments of `bitboards pgn`.
///
/// ```
/// use bitboards_cli::pgn::{Format, Moves, PgnArgs};
/// use clap::Parser;
///
/// let args = PgnArgs::parse_from(["pgn", "games.pgn", "--moves", "san", "--format", "json"]);
/// assert_eq!(args.file, "games.pgn");
/// assert_eq!((args.moves, args.format), (Some(Moves::San), Format::Json));
/// ```
#[derive(Clone, Debug, clap::Parser)]
pub struct PgnArgs {
    /// The PGN file, or `-` for standard input.
    #[arg(value_name = "FILE|-")]
    pub file: String,
    /// Print every ply of each game: in SAN, in UCI, or as the FEN after it.
    #[arg(long, value_enum)]
    pub moves: Option<Moves>,
    /// Text for people (one line per game), or JSON for scripts (one object
    /// per game and line: `game`, `plies`, `fen`, `result`, `outcome`, and
    /// `moves` with `--moves`).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// Files at least this large get a progress bar on a terminal.
const BAR_THRESHOLD: u64 = 4 << 20;

/// Reads the file and writes one report per game to `out`, errors and the
/// summary to `err`; `terminal` says whether standard error is a terminal
/// (for the progress bar).
///
/// # Errors
/// Exit code 2 when the file cannot be opened or read, 1 when any game did
/// not read (after every game was tried).
pub fn run(
    args: &PgnArgs,
    terminal: bool,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    let counter = Arc::new(AtomicU64::new(0));
    let (input, size): (Box<dyn Read>, Option<u64>) = if args.file == "-" {
        (Box::new(io::stdin().lock()), None)
    } else {
        let file = File::open(&args.file).map_err(|error| unreadable(&args.file, &error))?;
        let size = file.metadata().ok().map(|meta| meta.len());
        (Box::new(file), size)
    };
    let counting = Counting {
        inner: input,
        read: Arc::clone(&counter),
    };
    let bar = match size {
        Some(size) if terminal && size >= BAR_THRESHOLD => Some(progress_bar(size)),
        _ => None,
    };
    let started = Instant::now();
    let summary = read_all(
        BufReader::with_capacity(1 << 16, counting),
        args,
        out,
        err,
        |games| {
            if let Some(bar) = &bar
                && games % 256 == 0
            {
                bar.set_position(counter.load(Ordering::Relaxed));
            }
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let summary = summary.map_err(|error| unreadable(&args.file, &error))?;
    let elapsed = started.elapsed();
    let _ = err.write_all(
        summary
            .describe(counter.load(Ordering::Relaxed), elapsed)
            .as_bytes(),
    );
    if summary.failed > 0 {
        return Err(CommandError::reported());
    }
    Ok(())
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
        format!(
            "{games} games{failed} in {seconds:.2} s: {:.0} games/s, {:.1} MB/s\n",
            games as f64 / seconds,
            bytes as f64 / seconds / 1e6,
        )
    }
}

/// Reads every game of `input`, writing reports to `out` and game errors to
/// `err`; `progress` is told how many games are done after each. An I/O
/// error stops the reading.
///
/// # Errors
/// The I/O error that stopped it.
///
/// ```
/// use bitboards_cli::pgn::{read_all, Format, PgnArgs, Summary};
/// use clap::Parser;
///
/// let args = PgnArgs::parse_from(["pgn", "-", "--format", "json"]);
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let pgn = "1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 Ke7 Ke2 *\n";
/// let summary = read_all(pgn.as_bytes(), &args, &mut out, &mut err, |_| {})?;
/// assert_eq!(summary, Summary { read: 1, failed: 1 });
/// let out = String::from_utf8(out).unwrap();
/// assert!(out.starts_with(r#"{"game": 1, "plies": 4, "#));
/// assert!(String::from_utf8(err).unwrap().contains("PGN game 2, line 3"));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_all(
    input: impl BufRead,
    args: &PgnArgs,
    out: &mut impl Write,
    err: &mut impl Write,
    mut progress: impl FnMut(u64),
) -> io::Result<Summary> {
    let mut reader = Reader::new(input);
    let mut summary = Summary::default();
    let mut number = 0u64;
    for result in reader.games() {
        number += 1;
        match result {
            Ok(game) => {
                summary.read += 1;
                out.write_all(report(number, &game, args).as_bytes())?;
            }
            Err(ReadError::Game(error)) => {
                summary.failed += 1;
                writeln!(err, "error: {error}")?;
            }
            Err(ReadError::Io(error)) => return Err(error),
            Err(other) => {
                summary.failed += 1;
                writeln!(err, "error: {other}")?;
            }
        }
        progress(number);
    }
    Ok(summary)
}

/// One game's report in the chosen format.
fn report(number: u64, game: &PgnGame, args: &PgnArgs) -> String {
    let position = game.game.position();
    let fen = position.fen().to_string();
    let result = game
        .tag("Result")
        .map(str::to_owned)
        .or_else(|| game.result.map(|result| result.to_string()))
        .unwrap_or_else(|| "*".to_owned());
    let outcome = game.game.outcome();
    let plies = game.game.moves().len();
    let moves = args.moves.map(|style| plies_as(game, style));
    let mut text = String::new();
    match args.format {
        Format::Text => {
            let outcome = outcome.map_or_else(|| "none".to_owned(), |outcome| outcome.to_string());
            let _ = writeln!(
                text,
                "game {number}: {plies} plies, result {result}, outcome {outcome}\n  fen {fen}"
            );
            match (args.moves, moves) {
                (Some(Moves::San), Some(moves)) => {
                    let _ = writeln!(text, "  {}", numbered(game.game.start(), &moves));
                }
                (Some(_), Some(moves)) => {
                    for line in moves {
                        let _ = writeln!(text, "  {line}");
                    }
                }
                _ => {}
            }
        }
        Format::Json => {
            let outcome =
                outcome.map_or_else(|| "null".to_owned(), |outcome| quoted(outcome.name()));
            let _ = write!(
                text,
                "{{\"game\": {number}, \"plies\": {plies}, \"fen\": {}, \"result\": {}, \"outcome\": {outcome}",
                quoted(&fen),
                quoted(&result),
            );
            if let Some(moves) = moves {
                let list: Vec<String> = moves.iter().map(|mv| quoted(mv)).collect();
                let _ = write!(text, ", \"moves\": [{}]", list.join(", "));
            }
            text.push_str("}\n");
        }
    }
    text
}

/// Each ply of the game in `style`.
fn plies_as(game: &PgnGame, style: Moves) -> Vec<String> {
    let mut position = *game.game.start();
    game.game
        .moves()
        .iter()
        .map(|&mv| {
            let text = match style {
                Moves::San => position.san(mv).to_string(),
                Moves::Uci => position.uci(mv).to_string(),
                Moves::Fen => position.play(mv).fen().to_string(),
            };
            position.play_in_place(mv);
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

/// `text` as a JSON string.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The error for a file that cannot be opened or read: exit code 2.
fn unreadable(file: &str, error: &io::Error) -> CommandError {
    let name = if file == "-" { "standard input" } else { file };
    CommandError::unreadable(format!("cannot read {name}: {error}"))
}

/// Counts the bytes read through it, for the progress bar and the summary.
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let count = self.inner.read(buf)?;
        self.read.fetch_add(count as u64, Ordering::Relaxed);
        Ok(count)
    }
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
