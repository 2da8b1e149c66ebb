//! Developer commands for the bitboards workspace.
//!
//! ```text
//! cargo xtask build-time     clean debug build: bitboards against cozy-chess
//! cargo xtask gen            regenerate every table under generated/
//! cargo xtask gen --check    fail if generated/ is stale; write nothing
//! cargo xtask gen --search-magics [--check]
//!                            the same, with slider magics searched now
//!                            instead of the published ones
//! ```

mod build_time;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use bitboards_codegen::{MagicSource, Mode, Status};

const USAGE: &str = "\
usage: cargo xtask gen [--check] [--search-magics]

  gen                  regenerate every table under generated/ (writes only changed files)
  gen --check          write nothing; fail if any generated file is stale
  gen --search-magics  search the slider magics now (fixed seed) instead of using the
                       published ones, and print how long the search took
  build-time [ROUNDS]  clean debug build of the bitboards library against cozy-chess 0.3,
                       alternating, each from an empty target directory (default 3 rounds)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["gen", flags @ ..]
            if flags
                .iter()
                .all(|f| ["--check", "--search-magics"].contains(f)) =>
        {
            let mode = if flags.contains(&"--check") {
                Mode::Check
            } else {
                Mode::Write
            };
            let source = if flags.contains(&"--search-magics") {
                MagicSource::Searched
            } else {
                MagicSource::Published
            };
            generate(mode, source)
        }
        ["build-time"] => build_time::run(&workspace_root(), 3),
        ["build-time", rounds] => match rounds.parse() {
            Ok(rounds) if rounds > 0 => build_time::run(&workspace_root(), rounds),
            _ => {
                eprintln!("error: ROUNDS must be a positive number, not `{rounds}`\n\n{USAGE}");
                ExitCode::from(2)
            }
        },
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

fn generate(mode: Mode, source: MagicSource) -> ExitCode {
    let root = workspace_root();
    let started = Instant::now();
    let synced = match bitboards_codegen::sync_with(&root.join("generated"), mode, source) {
        Ok(synced) => synced,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let elapsed = started.elapsed();
    let outcomes = synced.outcomes;

    let mut stale = Vec::new();
    for outcome in &outcomes {
        let shown = outcome.path.strip_prefix(&root).unwrap_or(&outcome.path);
        let status = match outcome.status {
            Status::Unchanged => "unchanged",
            Status::Written => "written",
            Status::Stale => {
                stale.push(shown.display().to_string());
                "STALE"
            }
        };
        println!(
            "{:<24} {:>9} bytes  {status}",
            shown.display(),
            outcome.bytes
        );
        for table in &outcome.tables {
            println!(
                "    {:<22} {:>7} entries {:>9} bytes",
                table.name, table.entries, table.bytes
            );
        }
    }
    println!(
        "{} files in {:.0} ms",
        outcomes.len(),
        elapsed.as_secs_f64() * 1000.0
    );
    if let Some(search) = synced.magic_search {
        println!("magic search: {:.0} ms", search.as_secs_f64() * 1000.0);
    }
    if stale.is_empty() {
        ExitCode::SUCCESS
    } else {
        for file in stale {
            eprintln!("error: {file} is stale; run `cargo xtask gen` and commit the result");
        }
        ExitCode::FAILURE
    }
}
