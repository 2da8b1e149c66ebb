//! Developer commands for the bitboards workspace.
//!
//! ```text
//! cargo xtask gen            regenerate every table under generated/ and the table list in docs/design.md
//! cargo xtask gen --check    fail if generated/ or the table list is stale; write nothing
//! cargo xtask gen --search-magics [--check]
//!                            the same, with slider magics searched now
//!                            instead of the published ones
//! cargo xtask build-time     clean debug build: bitboards against cozy-chess
//! cargo xtask bench [--quick] run the benches against the peers, write their figures into docs/performance.md
//! cargo xtask bench --engine   the engine client and `bitboards analyse` against Stockfish alone
//!                             and its summary table of ratios (--summary: only the table)
//! cargo xtask web            build the visualiser page into target/web/index.html
//! cargo xtask perft --suite FILE --depth N [--parallel]
//!                            perft over an EPD file, in release, every depth compared
//! ```

mod bench;
mod build_time;
mod perft;
mod web;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use bitboards_codegen::{Destination, MagicSource, Mode, Options, Report, Status};

const USAGE: &str = "\
usage: cargo xtask (gen [--check] [--search-magics] | build-time [ROUNDS] | bench [--quick|--summary|--engine]
                   | block NAME [--machine M] [--page FILE] | perft --suite FILE --depth N [--parallel]
                   | web | help)

  gen                  regenerate every table under generated/ and the table list in
                       docs/design.md (writes only changed files)
  gen --check          write nothing; fail if any generated file or the table list is stale
  gen --search-magics  search the slider magics now (fixed seed) instead of using the
                       published ones, print how long the search took, and write
                       generated/sliders.rs with them (`cargo xtask gen` goes back)
  build-time [ROUNDS]  clean debug build of the bitboards library against cozy-chess 0.3,
                       alternating, each from an empty target directory (default 3 rounds)
  bench [--quick]      run the perft, sliders, movegen, pgn, fen and book benches against the
                       peers (several minutes; --quick: one perft round, criterion's quick
                       mode), rewrite the figures in docs/performance.md between its bench
                       markers, then its summary table of ratios from them, then
                       the engine figures (below)
  bench --summary      only rewrite docs/performance.md's summary table from its figures
  bench --engine       only the UCI client and `bitboards analyse` against Stockfish driven
                       by bare pipe loops (Stockfish at $STOCKFISH or /usr/games/stockfish):
                       protocol cost at nodes=1, the pool on every core, the command at
                       nodes=10000; rewrites docs/performance.md between its engine markers
  block NAME [--machine M] [--page FILE]
                       write standard input into the block NAME of docs/performance.md (or
                       FILE), between its `<!-- NAME:start -->` and `<!-- NAME:end -->`
                       lines; with --machine, the block names the machine its figures were
                       measured on, and the figures there of another machine move to the
                       page's \"Figures from other machines\" (what bench.py and
                       bench_commands.py write their figures with)
  perft --suite FILE --depth N [--parallel]
                       run perft in release on every line of an EPD file (`FEN ;D1 n ;D2 n ...`)
                       to depth N or the deepest count listed, compare every depth, print a
                       summary; exit 1 on any mismatch. --parallel spreads root moves over
                       every core
  web                  build the visualiser page (crates/web, the library as WebAssembly)
                       into one self-contained file, target/web/index.html; adds the
                       wasm32-unknown-unknown target with rustup when it is missing";

const GEN_FLAGS: [&str; 2] = ["--check", "--search-magics"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["gen", flags @ ..] => {
            if let Some(unknown) = flags.iter().find(|f| !GEN_FLAGS.contains(f)) {
                return usage_error(&format!("unknown flag `{unknown}` for `cargo xtask gen`"));
            }
            let mut options = Options::new(Destination::Workspace(workspace_root()));
            if flags.contains(&"--check") {
                options.mode = Mode::Check;
            }
            if flags.contains(&"--search-magics") {
                options.magics = MagicSource::Searched;
            }
            generate(&options)
        }
        ["build-time"] => build_time::run(&workspace_root(), 3),
        ["build-time", rounds] => match rounds.parse() {
            Ok(rounds) if rounds > 0 => build_time::run(&workspace_root(), rounds),
            _ => usage_error(&format!("ROUNDS must be a positive number, not `{rounds}`")),
        },
        ["build-time", _, extra, ..] => usage_error(&format!(
            "unexpected argument `{extra}` for `cargo xtask build-time`"
        )),
        ["perft", arguments @ ..] => match perft::Request::parse(arguments) {
            Ok(request) => perft::run(&workspace_root(), &request),
            Err(problem) => usage_error(&problem),
        },
        ["bench"] => bench::run(&workspace_root(), false),
        ["bench", "--quick"] => bench::run(&workspace_root(), true),
        ["bench", "--summary"] => bench::write_summary(&workspace_root()),
        ["bench", "--engine"] => bench::run_engine(&workspace_root(), false),
        ["bench", extra, ..] => usage_error(&format!(
            "unexpected argument `{extra}` for `cargo xtask bench` (--quick, --summary or --engine)"
        )),
        ["block", name, flags @ ..] => match bench::BlockRequest::parse(name, flags) {
            Ok(request) => bench::write_block(&workspace_root(), &request),
            Err(problem) => usage_error(&problem),
        },
        ["web"] => web::run(&workspace_root()),
        ["web", extra, ..] => usage_error(&format!(
            "unexpected argument `{extra}` for `cargo xtask web`"
        )),
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        [] => usage_error("no command given"),
        [command, ..] => usage_error(&format!("unknown command `{command}`")),
    }
}

fn usage_error(problem: &str) -> ExitCode {
    eprintln!("error: {problem}\n\n{USAGE}");
    ExitCode::from(2)
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

fn generate(options: &Options) -> ExitCode {
    let root = workspace_root();
    let started = Instant::now();
    let report = match bitboards_codegen::run(options) {
        Ok(report) => report,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let elapsed = started.elapsed();
    print_files(&report, &root);
    println!(
        "{} files in {:.0} ms",
        report.files.len(),
        elapsed.as_secs_f64() * 1000.0
    );
    if let Some(search) = report.magic_search {
        println!("magic search: {:.0} ms", search.as_secs_f64() * 1000.0);
        let written: Vec<String> = written(&report).map(|path| shown(&root, &path)).collect();
        if !written.is_empty() {
            println!(
                "note: wrote {} with the searched magics instead of the published ones, so \
                 `cargo xtask gen --check` fails until you run `cargo xtask gen` to go back",
                written.join(" and ")
            );
        }
    }
    if check_fresh(&report, &root) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Prints each file with its size, its status and its tables, then the
/// table list's page (docs/design.md).
fn print_files(report: &Report, root: &Path) {
    for file in &report.files {
        let path = file
            .path
            .as_deref()
            .map_or_else(|| file.name.to_string(), |path| shown(root, path));
        println!(
            "{path:<24} {:>9} bytes  {}",
            file.contents.len(),
            status_word(file.status)
        );
        for table in &file.tables {
            println!(
                "    {:<22} {:>7} entries {:>9} bytes",
                table.name,
                table.values.len(),
                table.bytes
            );
        }
    }
    if let Some(list) = &report.table_list {
        println!(
            "{:<24} table list       {}",
            shown(root, &list.path),
            status_word(list.status)
        );
    }
}

/// Whether nothing is stale and nothing stray; each file that is, is
/// reported as an error.
fn check_fresh(report: &Report, root: &Path) -> bool {
    let mut fresh = true;
    for path in stale(report) {
        eprintln!(
            "error: {} is stale; run `cargo xtask gen` and commit the result",
            shown(root, &path)
        );
        fresh = false;
    }
    for stray in &report.strays {
        eprintln!(
            "error: {} is not generated by anything; delete it",
            shown(root, stray)
        );
        fresh = false;
    }
    fresh
}

/// `path` relative to the workspace `root`, when it is inside it.
fn shown(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// How a file's status reads in the listing.
fn status_word(status: Status) -> &'static str {
    match status {
        Status::Unchanged => "unchanged",
        Status::Written => "written",
        Status::Stale => "STALE",
        Status::InMemory => "in memory",
    }
}

/// The files (and the table list's page) this run wrote.
fn written(report: &Report) -> impl Iterator<Item = PathBuf> + '_ {
    with_status(report, Status::Written)
}

/// The files (and the table list's page) that differ from what the
/// generator makes now.
fn stale(report: &Report) -> impl Iterator<Item = PathBuf> + '_ {
    with_status(report, Status::Stale)
}

fn with_status(report: &Report, wanted: Status) -> impl Iterator<Item = PathBuf> + '_ {
    let files = report
        .files
        .iter()
        .filter(move |file| file.status == wanted)
        .filter_map(|file| file.path.clone());
    let list = report
        .table_list
        .iter()
        .filter(move |list| list.status == wanted)
        .map(|list| list.path.clone());
    files.chain(list)
}
