//! `cargo xtask perft`: checks the arguments, then builds and runs the
//! `perft-suite` binary in release (an unoptimised build is far too slow for
//! the suites' billions of leaves; docs/performance.md, "Figures behind the
//! code"). The binary sits behind xtask's `perft` feature, so that
//! `cargo xtask gen` never compiles the library or the progress bar.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// `--suite FILE --depth N [--parallel]`, checked.
pub struct Request {
    suite: PathBuf,
    depth: u32,
    parallel: bool,
}

impl Request {
    /// Reads the arguments after `perft`; an error says what is wrong.
    pub fn parse(arguments: &[&str]) -> Result<Request, String> {
        let mut suite = None;
        let mut depth = None;
        let mut parallel = false;
        let mut rest = arguments.iter();
        while let Some(&argument) = rest.next() {
            match argument {
                "--suite" => {
                    let file = rest.next().ok_or("`--suite` needs an EPD file")?;
                    suite = Some(PathBuf::from(file));
                }
                "--depth" => {
                    let text = rest.next().ok_or("`--depth` needs a number")?;
                    depth = Some(match text.parse::<u32>() {
                        Ok(depth) if depth > 0 => depth,
                        _ => {
                            return Err(format!(
                                "the depth must be a positive number, not `{text}`"
                            ));
                        }
                    });
                }
                "--parallel" => parallel = true,
                other => {
                    return Err(format!(
                        "unexpected argument `{other}` for `cargo xtask perft`"
                    ));
                }
            }
        }
        let suite = suite.ok_or("`cargo xtask perft` needs `--suite FILE`")?;
        if !suite.is_file() {
            return Err(format!("{} is not a file", suite.display()));
        }
        Ok(Request {
            // Absolute, so that it means the same whatever cargo's directory.
            suite: std::path::absolute(&suite).unwrap_or(suite),
            depth: depth.ok_or("`cargo xtask perft` needs `--depth N`")?,
            parallel,
        })
    }
}

/// Runs the suite and passes on the binary's exit code (1 for a mismatch,
/// 2 for a file it cannot read).
pub fn run(root: &Path, request: &Request) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(root)
        .args(["run", "--quiet", "--release", "--package", "xtask"])
        .args(["--no-default-features", "--features", "perft"])
        .args(["--bin", "perft-suite", "--"])
        .arg("--suite")
        .arg(&request.suite)
        .args(["--depth", &request.depth.to_string()]);
    if request.parallel {
        command.arg("--parallel");
    }
    eprintln!("building and running perft-suite in release ...");
    match command.status() {
        Ok(status) => match status.code() {
            Some(0) => ExitCode::SUCCESS,
            Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            None => {
                eprintln!("error: perft-suite was stopped by a signal");
                ExitCode::FAILURE
            }
        },
        Err(error) => {
            eprintln!("error: cannot run cargo: {error}");
            ExitCode::FAILURE
        }
    }
}
