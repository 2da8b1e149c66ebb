//! `bitboards book show BOOK [--fen FEN | --fens FILE]`: a position's (or
//! many positions') moves in a Polyglot
//! book; `bitboards book build GAMES... -o OUT`: a book from PGN files
//! (plain or compressed, on every core), weighted as polyglot's
//! `make-book` weights: 2 per win and 1 per draw for the side that played
//! the move.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufReader, Write};
use std::time::Instant;

use bitboards::book::Book;
use bitboards::{Color, Position};
use bitboards_pgn::ParallelReader;
use bitboards_pgn::book::{BookBuilder, BuildOptions, GameMoves};

use crate::{CommandError, Format};

/// The arguments of `bitboards book`.
///
/// ```
/// use bitboards_cli::book::{BookArgs, BookCommand};
/// use clap::Parser;
///
/// let args = BookArgs::parse_from(["book", "show", "book.bin", "--format", "json"]);
/// assert!(matches!(args.command, BookCommand::Show { .. }));
/// let args = BookArgs::parse_from(["book", "build", "a.pgn", "b.pgn.zst", "-o", "out.bin", "--max-ply", "20"]);
/// let BookCommand::Build { games, max_ply, .. } = args.command else { panic!() };
/// assert_eq!((games.len(), max_ply), (2, 20));
/// ```
#[derive(Clone, Debug, clap::Parser)]
pub struct BookArgs {
    /// What to do with a book.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// `show` or `build`.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum BookCommand {
    /// List a position's moves in a book: SAN, UCI, weight, share, learn.
    Show {
        /// The Polyglot book (`.bin`).
        book: String,
        /// The position (default: the start position).
        #[arg(long, conflicts_with = "fens")]
        fen: Option<String>,
        /// A file of FENs, one per line: every position's moves, each JSON
        /// object with its `fen` (for many lookups in one run).
        #[arg(long, value_name = "FILE")]
        fens: Option<String>,
        /// Text for people, or JSON (one object per move: `uci`, `san`,
        /// `weight`, `learn`).
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Build a book from PGN files (plain or zstd, gzip, bzip2).
    Build {
        /// The PGN files.
        #[arg(required = true)]
        games: Vec<String>,
        /// Where to write the book.
        #[arg(short, long, value_name = "OUT")]
        out: String,
        /// Plies of each game that count.
        #[arg(long, default_value_t = 40, value_name = "N")]
        max_ply: usize,
        /// Keep a move played in at least this many games.
        #[arg(long, default_value_t = 1, value_name = "N")]
        min_games: u32,
        /// Count only this side's moves.
        #[arg(long, value_enum)]
        only_color: Option<Side>,
        /// Count only games whose two players are rated at least this.
        #[arg(long, value_name = "N")]
        min_elo: Option<u32>,
        /// Worker threads (default: every core).
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
    },
}

/// A side, for `--only-color`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Side {
    /// White's moves.
    White,
    /// Black's moves.
    Black,
}

/// Runs `bitboards book`.
///
/// # Errors
/// Exit code 2 for a book, FEN or file that cannot be read or written.
pub fn run(
    args: &BookArgs,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    match &args.command {
        BookCommand::Show {
            book,
            fen,
            fens,
            format,
        } => show(book, fen.as_deref(), fens.as_deref(), *format, out),
        BookCommand::Build {
            games,
            out: path,
            max_ply,
            min_games,
            only_color,
            min_elo,
            threads,
        } => {
            let options = BuildOptions {
                max_ply: *max_ply,
                min_games: *min_games,
                only: only_color.map(|side| match side {
                    Side::White => Color::White,
                    Side::Black => Color::Black,
                }),
                min_elo: *min_elo,
                ..BuildOptions::default()
            };
            build(games, path, options, *threads, err)
        }
    }
}

fn show(
    path: &str,
    fen: Option<&str>,
    fens: Option<&str>,
    format: Format,
    out: &mut impl Write,
) -> Result<(), CommandError> {
    let book = Book::open(path)
        .map_err(|error| CommandError::unreadable(format!("cannot read {path}: {error}")))?;
    let mut text = String::new();
    match fens {
        None => {
            let position = match fen {
                Some(fen) => {
                    Position::from_fen(fen).map_err(|error| CommandError::fen(&error, fen))?
                }
                None => Position::START,
            };
            list(&book, &position, None, format, &mut text);
        }
        Some(file) => {
            let fens = std::fs::read_to_string(file).map_err(|error| {
                CommandError::unreadable(format!("cannot read {file}: {error}"))
            })?;
            for fen in fens.lines().map(str::trim).filter(|line| !line.is_empty()) {
                let position =
                    Position::from_fen(fen).map_err(|error| CommandError::fen(&error, fen))?;
                list(&book, &position, Some(fen), format, &mut text);
            }
        }
    }
    out.write_all(text.as_bytes())
        .map_err(|error| CommandError::unreadable(format!("cannot write the output: {error}")))
}

/// One position's book moves in `format`; with `fen` (from `--fens`), each
/// JSON object names the position, and text starts with it.
fn list<B: AsRef<[u8]>>(
    book: &Book<B>,
    position: &Position,
    fen: Option<&str>,
    format: Format,
    text: &mut String,
) {
    let entries: Vec<_> = book.entries(position).collect();
    let total: u64 = entries.iter().map(|entry| u64::from(entry.weight)).sum();
    if let (Some(fen), Format::Text) = (fen, format) {
        let _ = writeln!(text, "{fen}");
    }
    for entry in &entries {
        let san = position.san(entry.mv).to_string();
        let uci = position.uci(entry.mv).to_string();
        match format {
            Format::Text => {
                #[allow(clippy::cast_precision_loss)]
                let share = if total == 0 {
                    0.0
                } else {
                    100.0 * f64::from(entry.weight) / total as f64
                };
                let _ = writeln!(
                    text,
                    "{san:<8} {uci:<6} weight {:>5}  {share:5.1}%  learn {}",
                    entry.weight, entry.learn
                );
            }
            Format::Json => {
                let named = fen
                    .map(|fen| format!("\"fen\": \"{fen}\", "))
                    .unwrap_or_default();
                let _ = writeln!(
                    text,
                    "{{{named}\"uci\": \"{uci}\", \"san\": \"{san}\", \"weight\": {}, \"learn\": {}}}",
                    entry.weight, entry.learn
                );
            }
        }
    }
    if entries.is_empty() && format == Format::Text {
        text.push_str("no book moves in this position\n");
    }
}

fn build(
    games: &[String],
    path: &str,
    options: BuildOptions,
    threads: Option<usize>,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    let started = Instant::now();
    let mut builder = BookBuilder::new(options);
    let template = builder.visitor();
    let mut failure: Option<io::Error> = None;
    let mut bad = 0u64;
    for file in games {
        let input = File::open(file)
            .and_then(|file| {
                bitboards_pgn::decompress_in_background(BufReader::with_capacity(1 << 16, file))
            })
            .map_err(|error| CommandError::unreadable(format!("cannot read {file}: {error}")))?;
        let read = ParallelReader::new(input)
            .threads_or_default(threads)
            .for_each(
                || template.clone(),
                |game: &mut GameMoves| game.clone(),
                |_, game| match game {
                    Ok(game) => {
                        if failure.is_none()
                            && let Err(error) = builder.add_game(&game)
                        {
                            failure = Some(error);
                        }
                    }
                    Err(_failed) => bad += 1,
                },
            );
        if let Err(error) = read {
            return Err(CommandError::unreadable(format!(
                "cannot read {file}: {error}"
            )));
        }
    }
    if let Some(error) = failure {
        return Err(CommandError::unreadable(format!(
            "cannot spill the counts to disk: {error}"
        )));
    }
    let (used, skipped) = builder.games();
    // Streamed, one position at a time: the book need not fit in memory.
    // Under a temporary name until it is whole (`StagedFile`): a build
    // that stops leaves no book that looks complete.
    let written = bitboards_pgn::StagedFile::create(path).and_then(|mut out| {
        let entries = builder.write(&mut out)?;
        out.commit()?;
        Ok(entries)
    });
    let entries = written
        .map_err(|error| CommandError::unreadable(format!("cannot write {path}: {error}")))?;
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    #[allow(clippy::cast_precision_loss)]
    let rate = (used + skipped + bad) as f64 / seconds;
    let _ = writeln!(
        err,
        "{path}: {entries} entries from {used} games ({skipped} left out, {bad} unreadable) in {seconds:.2} s: {rate:.0} games/s"
    );
    Ok(())
}
