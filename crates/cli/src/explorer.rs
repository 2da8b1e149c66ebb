//! `bitboards explorer`: an opening explorer of your own games. `build`
//! indexes PGN files (a second build adds games), `merge` makes one
//! segment of many, `query` answers for a position (a table to read, or
//! the JSON of Lichess's API), `serve` answers over HTTP as Lichess's
//! explorer and tablebase do.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bitboards::Color;
use bitboards_explorer::{
    BuildOptions, Explorer, Filter, IndexError, Limits, Play, PlayerFilter, Response, Skip,
};
use bitboards_pgn::{ReadCounter, Source};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::CommandError;

pub mod serve;

/// The arguments of `bitboards explorer`.
///
/// ```
/// use bitboards_cli::explorer::{ExplorerArgs, ExplorerCommand};
/// use clap::Parser;
///
/// #[derive(Parser)]
/// struct Cli {
///     #[command(flatten)]
///     args: ExplorerArgs,
/// }
/// let cli = Cli::parse_from(["explorer", "build", "a.pgn.zst", "b.pgn", "--out", "index"]);
/// assert!(matches!(cli.args.command, ExplorerCommand::Build { .. }));
/// ```
#[derive(Args, Debug)]
pub struct ExplorerArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: ExplorerCommand,
}

/// How `query` writes its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum QueryFormat {
    /// A table to read.
    Text,
    /// The JSON of Lichess's API.
    Json,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum ExplorerCommand {
    /// Index the games of PGN files (plain, .zst, .gz, .bz2; `-` for
    /// standard input) on every core. Into a directory that holds an index
    /// already, the games are added.
    Build {
        /// The PGN files.
        #[arg(required = true)]
        files: Vec<String>,
        /// The index's directory.
        #[arg(long)]
        out: PathBuf,
        /// Plies of each game counted [default: 50; every ply with
        /// --masters].
        #[arg(long)]
        max_ply: Option<usize>,
        /// Threads (every core by default).
        #[arg(long)]
        threads: Option<usize>,
        /// A masters index (`/masters`): over-the-board games of a 2200
        /// midpoint and up, by year, each kept to be given back as PGN.
        #[arg(long)]
        masters: bool,
    },
    /// Merge the index's segments into one, with the games of other
    /// indexes (built apart, one per file, say) after its own.
    Merge {
        /// The index's directory (made if it is not there).
        dir: PathBuf,
        /// Indexes whose games join it (left as they are).
        #[arg(long = "from")]
        from: Vec<PathBuf>,
    },
    /// The moves played from a position, with their results.
    Query {
        /// The index's directory.
        dir: PathBuf,
        /// The position (the standard start by default).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from it, UCI, comma-separated.
        #[arg(long, value_delimiter = ',')]
        play: Vec<String>,
        /// Speeds counted, comma-separated: ultraBullet, bullet, blitz,
        /// rapid, classical, correspondence.
        #[arg(long)]
        speeds: Option<String>,
        /// Rating groups counted, comma-separated: 0, 1000, 1200, 1400,
        /// 1600, 1800, 2000, 2200, 2500.
        #[arg(long)]
        ratings: Option<String>,
        /// The first month counted, YYYY-MM (a year, YYYY, for a masters
        /// index).
        #[arg(long)]
        since: Option<String>,
        /// The last month counted, YYYY-MM (a year, YYYY, for a masters
        /// index).
        #[arg(long)]
        until: Option<String>,
        /// Moves shown at most.
        #[arg(long, default_value_t = 12)]
        moves: usize,
        /// Top games at most [default: 4, the most; 15 from a masters
        /// index, the most].
        #[arg(long)]
        top_games: Option<usize>,
        /// Recent games at most.
        #[arg(long, default_value_t = 4)]
        recent_games: usize,
        /// The history by month too.
        #[arg(long)]
        history: bool,
        /// A player's explorer: this player's games only.
        #[arg(long)]
        player: Option<String>,
        /// The player's colour (with --player).
        #[arg(long, default_value = "white")]
        color: String,
        /// The answer's form.
        #[arg(long, value_enum, default_value_t = QueryFormat::Text)]
        format: QueryFormat,
    },
    /// A Polyglot opening book from the index's games (2 per win and 1 per
    /// draw for the side that played the move, as `bitboards book build`).
    Book {
        /// The index's directory.
        dir: PathBuf,
        /// Where to write the book (`.bin`).
        #[arg(long)]
        out: PathBuf,
        /// Moves played in fewer games are left out.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
    },
    /// Serve Lichess's explorer API (`/lichess`, `/player`,
    /// `/lichess/history`, and `/masters` from a masters index) and its
    /// tablebase API (`/standard`) over HTTP.
    Serve(serve::ServeArgs),
}

/// Runs `bitboards explorer`.
///
/// # Errors
/// Exit code 2 for a file or index that cannot be read or written, a bad
/// FEN, move or filter.
pub fn run(
    args: &ExplorerArgs,
    terminal: bool,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    match &args.command {
        ExplorerCommand::Build {
            files,
            out: dir,
            max_ply,
            threads,
            masters,
        } => {
            let defaults = if *masters {
                BuildOptions::masters()
            } else {
                BuildOptions::default()
            };
            let options = BuildOptions {
                max_ply: max_ply.unwrap_or(defaults.max_ply),
                threads: *threads,
                ..defaults
            };
            build(files, dir, &options, terminal, err)
        }
        ExplorerCommand::Merge { dir, from } => {
            let others: Vec<&Path> = from.iter().map(PathBuf::as_path).collect();
            let report = bitboards_explorer::merge_indexes(dir, &others).map_err(index_error)?;
            let _ = writeln!(
                err,
                "{}: {} games in one segment of {} bytes in {:.2} s",
                dir.display(),
                report.games_indexed,
                report.bytes_written,
                report.seconds
            );
            Ok(())
        }
        ExplorerCommand::Query {
            dir,
            fen,
            play,
            speeds,
            ratings,
            since,
            until,
            moves,
            top_games,
            recent_games,
            history,
            player,
            color,
            format,
        } => {
            let explorer = Explorer::open(dir).map_err(index_error)?;
            let moves_played: Vec<&str> = play.iter().map(String::as_str).collect();
            let play = Play::new(fen.as_deref(), &moves_played)
                .map_err(|error| CommandError::usage(error.to_string()))?;
            let masters = explorer.is_masters();
            let limits = Limits {
                moves: *moves,
                top_games: top_games.unwrap_or(if masters { 15 } else { 4 }),
                recent_games: *recent_games,
                history: *history,
            };
            let bad =
                |error: bitboards_explorer::ParseError| CommandError::usage(error.to_string());
            let answer = match player {
                _ if masters => {
                    if speeds.is_some() || ratings.is_some() || player.is_some() {
                        return Err(CommandError::usage(
                            "a masters index has no speeds, rating groups or players: ask by years (--since, --until)",
                        ));
                    }
                    let year = |text: &Option<String>| {
                        text.as_deref()
                            .map(bitboards_explorer::parse_year)
                            .transpose()
                            .map_err(bad)
                    };
                    explorer.masters(&play, year(since)?, year(until)?, &limits)
                }
                Some(name) => {
                    let color = match color.as_str() {
                        "white" => Color::White,
                        "black" => Color::Black,
                        other => {
                            return Err(CommandError::usage(format!(
                                "invalid color {other:?}: expected white or black"
                            )));
                        }
                    };
                    let filter = PlayerFilter::parse(
                        speeds.as_deref(),
                        None,
                        since.as_deref(),
                        until.as_deref(),
                    )
                    .map_err(bad)?;
                    explorer.player(name, color, &play, &filter, &limits)
                }
                None => {
                    let filter = Filter::parse(
                        speeds.as_deref(),
                        ratings.as_deref(),
                        since.as_deref(),
                        until.as_deref(),
                    )
                    .map_err(bad)?;
                    explorer.lichess(&play, &filter, &limits)
                }
            }
            .map_err(index_error)?;
            let text = match format {
                QueryFormat::Json => answer.to_json() + "\n",
                QueryFormat::Text => table(&answer),
            };
            out.write_all(text.as_bytes())
                .map_err(|error| CommandError::failure(format!("cannot write the answer: {error}")))
        }
        ExplorerCommand::Book {
            dir,
            out: path,
            min_games,
        } => {
            let entries = bitboards_explorer::book(dir, path, *min_games).map_err(index_error)?;
            let _ = writeln!(err, "{}: {entries} entries", path.display());
            Ok(())
        }
        ExplorerCommand::Serve(args) => serve::run(args, err),
    }
}

fn index_error(error: IndexError) -> CommandError {
    CommandError::unreadable(error.to_string())
}

/// Builds the index, a bar on a terminal following the bytes read.
fn build(
    files: &[String],
    dir: &Path,
    options: &BuildOptions,
    terminal: bool,
    err: &mut impl Write,
) -> Result<(), CommandError> {
    let sources: Vec<Source> = files.iter().map(|file| Source::from_arg(file)).collect();
    let total: Option<u64> = sources.iter().map(Source::size).sum();
    let counter = ReadCounter::default();
    let bar = match total {
        Some(total) if terminal => {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:40} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} {eta} left",
            ) {
                bar.set_style(style);
            }
            Some(bar)
        }
        _ => None,
    };
    let done = std::sync::atomic::AtomicBool::new(false);
    let report = std::thread::scope(|scope| {
        if let Some(bar) = &bar {
            let (counter, done) = (&counter, &done);
            scope.spawn(move || {
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    bar.set_position(counter.bytes());
                    std::thread::sleep(Duration::from_millis(100));
                }
                bar.finish_and_clear();
            });
        }
        let report = bitboards_explorer::build(&sources, dir, options, &counter);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        report
    })
    .map_err(index_error)?;
    let skipped: Vec<String> = report
        .skipped
        .iter()
        .filter(|(_, count)| *count > 0)
        .map(|(skip, count)| format!("{count} {}", Skip::name(*skip)))
        .collect();
    #[allow(clippy::cast_precision_loss)]
    let rate = report.games_read as f64 / report.seconds.max(1e-9);
    let _ = writeln!(
        err,
        "{}: {} games indexed of {} read{} into {} new segment(s), {} bytes, in {:.2} s: {rate:.0} games/s",
        dir.display(),
        report.games_indexed,
        report.games_read,
        if skipped.is_empty() {
            String::new()
        } else {
            format!(" (left out: {})", skipped.join(", "))
        },
        report.segments_written,
        report.bytes_written,
        report.seconds,
    );
    Ok(())
}

/// The answer as a table: the opening, then each move with its games, its
/// results as a bar and in percent, and the average rating.
fn table(answer: &Response) -> String {
    use std::fmt::Write as _;
    let mut text = String::new();
    if let Some(opening) = &answer.opening {
        let _ = writeln!(text, "{} {}", opening.eco, opening.name);
    }
    let games = answer.white + answer.draws + answer.black;
    let _ = writeln!(
        text,
        "{:<8} {:>9}  {:<20}  {:>6} {:>5} {:>5}  {:>6}",
        "move", "games", "", "white", "draws", "black", "rating"
    );
    let row =
        |text: &mut String, name: &str, white: u64, draws: u64, black: u64, rating: Option<u16>| {
            let total = (white + draws + black).max(1);
            #[allow(clippy::cast_possible_truncation)]
            let cells = |count: u64| ((count * 20 + total / 2) / total) as usize;
            let (w, d) = (cells(white), cells(draws));
            let b = 20usize.saturating_sub(w + d);
            let percent = |count: u64| (count * 100 + total / 2) / total;
            let line = format!(
                "{name:<8} {:>9}  {}{}{}  {:>5}% {:>4}% {:>4}%  {:>6}",
                white + draws + black,
                "#".repeat(w),
                "=".repeat(d),
                ".".repeat(b),
                percent(white),
                percent(draws),
                percent(black),
                rating.map_or_else(String::new, |rating| rating.to_string()),
            );
            let _ = writeln!(text, "{}", line.trim_end());
        };
    for mv in &answer.moves {
        row(
            &mut text,
            &mv.san,
            mv.white,
            mv.draws,
            mv.black,
            mv.average_rating.or(mv.average_opponent_rating),
        );
    }
    row(
        &mut text,
        "total",
        answer.white,
        answer.draws,
        answer.black,
        None,
    );
    if games == 0 {
        text.push_str("no games reach this position\n");
    }
    text
}
