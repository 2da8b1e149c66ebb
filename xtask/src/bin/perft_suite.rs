//! The release binary behind `cargo xtask perft`: runs `bitboards::perft` on
//! every line of an EPD perft file and compares each depth with the file.
//!
//! ```text
//! perft-suite --suite FILE --depth N [--parallel]
//! ```
//!
//! Each line is an EPD record (`bitboards::Epd`), as the perft files write
//! it: `FEN ;D1 n ;D2 n ...` (any castling notation the library reads,
//! Shredder-FEN included). A line is run at every depth it lists up to
//! `N`. Exit code 0 when every count matches, 1 on any mismatch, 2 when the
//! arguments or the file cannot be used.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitboards::{Position, perft, perft_parallel};
use bitboards_test_support::read_epd;
use indicatif::{ProgressBar, ProgressStyle};

const USAGE: &str = "usage: perft-suite --suite FILE --depth N [--parallel]";

/// One line of the file: where it is, the position, and the counts it lists.
struct Case {
    line: usize,
    fen: String,
    position: Position,
    /// Whether the position reads only without the impossible-check rules.
    impossible_check: bool,
    /// `(depth, nodes)`, in the file's order.
    counts: Vec<(u32, u64)>,
}

/// A count that differs from the file's.
struct Mismatch {
    line: usize,
    fen: String,
    depth: u32,
    expected: u64,
    got: u64,
}

struct Arguments {
    suite: String,
    depth: u32,
    parallel: bool,
}

fn main() -> ExitCode {
    let arguments = match parse_arguments(std::env::args().skip(1)) {
        Ok(arguments) => arguments,
        Err(problem) => return usage_error(&problem),
    };
    let text = match std::fs::read_to_string(&arguments.suite) {
        Ok(text) => text,
        Err(error) => return input_error(&format!("cannot read {}: {error}", arguments.suite)),
    };
    let cases = match parse_suite(&text) {
        Ok(cases) => cases,
        Err(problem) => return input_error(&format!("{}:{problem}", arguments.suite)),
    };
    run(&arguments, &cases)
}

fn usage_error(problem: &str) -> ExitCode {
    eprintln!("error: {problem}\n{USAGE}");
    ExitCode::from(2)
}

/// A file that cannot be used is a usage error too, but the arguments
/// were fine: no usage line.
fn input_error(problem: &str) -> ExitCode {
    eprintln!("error: {problem}");
    ExitCode::from(2)
}

fn parse_arguments(mut args: impl Iterator<Item = String>) -> Result<Arguments, String> {
    let mut suite = None;
    let mut depth = None;
    let mut parallel = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--suite" => suite = Some(args.next().ok_or("`--suite` needs a file")?),
            "--depth" => {
                let text = args.next().ok_or("`--depth` needs a number")?;
                depth = Some(match text.parse::<u32>() {
                    Ok(depth) if depth > 0 => depth,
                    _ => return Err(format!("the depth must be a positive number, not `{text}`")),
                });
            }
            "--parallel" => parallel = true,
            other => return Err(format!("unexpected argument `{other}`")),
        }
    }
    Ok(Arguments {
        suite: suite.ok_or("missing `--suite FILE`")?,
        depth: depth.ok_or("missing `--depth N`")?,
        parallel,
    })
}

/// Reads every non-blank line as an EPD record; an error names the line
/// (1-based), the column and what is wrong with it.
fn parse_suite(text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        // The suites hold positions whose check no legal move could have
        // given; move generation handles them all the same.
        let (record, impossible_check) = match read_epd(line) {
            Ok(read) => read,
            Err(strict) => return Err(format!("{number}: {}", Located(&strict))),
        };
        let counts: Vec<(u32, u64)> = record.perft_counts().collect();
        if counts.is_empty() {
            return Err(format!(
                "{number}: no perft counts; expected `;D<depth> <nodes>` after the FEN"
            ));
        }
        let position = *record.position();
        cases.push(Case {
            line: number,
            fen: position.fen().to_string(),
            position,
            impossible_check,
            counts,
        });
    }
    if cases.is_empty() {
        return Err(" no positions in the file".to_string());
    }
    Ok(cases)
}

/// An EPD error after the line number: `column 57: ...`, the error's own
/// text without its `EPD column 57: ` prefix, which names no line.
struct Located<'a>(&'a bitboards::EpdError);

impl std::fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "column {}: {}", self.0.column(), self.0.kind())
    }
}

/// The counts of `case` to check: those at depths up to `depth` (which is
/// never more than the deepest the file lists).
fn case_depths(case: &Case, depth: u32) -> impl Iterator<Item = (u32, u64)> + '_ {
    case.counts
        .iter()
        .copied()
        .filter(move |&(listed, _)| listed <= depth)
}

fn run(arguments: &Arguments, cases: &[Case]) -> ExitCode {
    let wanted = |case| case_depths(case, arguments.depth);
    let expected_nodes: u64 = cases.iter().flat_map(wanted).map(|(_, nodes)| nodes).sum();
    let progress = Progress::new(cases.len(), expected_nodes);

    let started = Instant::now();
    let mut mismatches = Vec::new();
    let mut checked = 0usize;
    let mut nodes = 0u64;
    for (done, case) in cases.iter().enumerate() {
        for (depth, expected) in wanted(case) {
            let got = if arguments.parallel {
                perft_parallel(&case.position, depth)
            } else {
                perft(&case.position, depth)
            };
            checked += 1;
            nodes += got;
            progress.advance(expected);
            if got != expected {
                progress.println(&format!(
                    "MISMATCH line {}: {} at depth {depth}: expected {expected}, got {got}",
                    case.line, case.fen
                ));
                mismatches.push(Mismatch {
                    line: case.line,
                    fen: case.fen.clone(),
                    depth,
                    expected,
                    got,
                });
            }
        }
        progress.position_done(done + 1, started.elapsed());
    }
    let elapsed = started.elapsed();
    progress.finish();

    let relaxed = cases.iter().filter(|case| case.impossible_check).count();
    println!("suite:      {}", arguments.suite);
    println!(
        "positions:  {} ({relaxed} read without the impossible-check rules)",
        cases.len()
    );
    println!(
        "depth:      up to {}{}",
        arguments.depth,
        if arguments.parallel {
            ", parallel"
        } else {
            ", one thread"
        }
    );
    println!("counts:     {checked} checked");
    println!("mismatches: {}", mismatches.len());
    for mismatch in &mismatches {
        println!(
            "  line {}: {} depth {}: expected {}, got {}",
            mismatch.line, mismatch.fen, mismatch.depth, mismatch.expected, mismatch.got
        );
    }
    println!("nodes:      {nodes}");
    println!("time:       {:.2} s", elapsed.as_secs_f64());
    println!(
        "speed:      {:.1} Mnps",
        nodes as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6
    );
    if mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// A progress bar on a terminal; on anything else (a log, a pipe), a plain
/// line now and then on stderr.
enum Progress {
    Bar {
        bar: ProgressBar,
        positions: usize,
    },
    Plain {
        positions: usize,
        next_report: std::cell::Cell<Duration>,
    },
}

/// How often the plain progress line is printed.
const PLAIN_INTERVAL: Duration = Duration::from_secs(30);

impl Progress {
    fn new(positions: usize, expected_nodes: u64) -> Progress {
        if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(expected_nodes);
            let style = ProgressStyle::with_template(
                "{bar:30} {percent:>3}% {human_pos}/{human_len} nodes, {msg}, {elapsed} (eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.set_message(format!("0/{positions} positions"));
            Progress::Bar { bar, positions }
        } else {
            Progress::Plain {
                positions,
                next_report: std::cell::Cell::new(PLAIN_INTERVAL),
            }
        }
    }

    fn advance(&self, nodes: u64) {
        if let Progress::Bar { bar, .. } = self {
            bar.inc(nodes);
        }
    }

    fn position_done(&self, done: usize, elapsed: Duration) {
        match self {
            Progress::Bar { bar, positions } => {
                bar.set_message(format!("{done}/{positions} positions"));
            }
            Progress::Plain {
                positions,
                next_report,
            } => {
                if elapsed >= next_report.get() || done == *positions {
                    eprintln!(
                        "{done}/{positions} positions done, {:.0} s",
                        elapsed.as_secs_f64()
                    );
                    next_report.set(elapsed + PLAIN_INTERVAL);
                }
            }
        }
    }

    fn println(&self, line: &str) {
        match self {
            Progress::Bar { bar, .. } => bar.println(line),
            Progress::Plain { .. } => eprintln!("{line}"),
        }
    }

    fn finish(&self) {
        if let Progress::Bar { bar, .. } = self {
            bar.finish_and_clear();
        }
    }
}
