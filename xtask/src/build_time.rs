//! `cargo xtask build-time`: the clean debug build of the `bitboards` library
//! (default features) against cozy-chess 0.3 built the same way, in the same
//! session, alternating, each from an empty target directory and without
//! incremental compilation, as Cargo builds a dependency from crates.io.

use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

const PEER_MANIFEST: &str = r#"[package]
name = "build-time-peer"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
cozy-chess = "=0.3.4"

[workspace]
"#;

pub fn run(root: &Path, rounds: usize) -> ExitCode {
    let scratch = root.join("target").join("build-time");
    let peer = scratch.join("peer");
    if let Err(error) = std::fs::create_dir_all(peer.join("src"))
        .and_then(|()| std::fs::write(peer.join("Cargo.toml"), PEER_MANIFEST))
        .and_then(|()| std::fs::write(peer.join("src").join("lib.rs"), ""))
    {
        eprintln!("error: cannot set up {}: {error}", peer.display());
        return ExitCode::FAILURE;
    }
    // Downloads are not build time: fetch first.
    for dir in [root, peer.as_path()] {
        if !cargo(dir).arg("fetch").status().is_ok_and(|s| s.success()) {
            eprintln!("error: `cargo fetch` failed in {}", dir.display());
            return ExitCode::FAILURE;
        }
    }

    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for round in 1..=rounds {
        let target = scratch.join("target-ours");
        let Some(a) =
            timed_clean_build(root, &target, &["build", "--package", "bitboards", "--lib"])
        else {
            return ExitCode::FAILURE;
        };
        let target = scratch.join("target-peer");
        let Some(b) = timed_clean_build(&peer, &target, &["build", "--package", "cozy-chess"])
        else {
            return ExitCode::FAILURE;
        };
        println!(
            "round {round}: bitboards {:.2} s, cozy-chess {:.2} s",
            a.as_secs_f64(),
            b.as_secs_f64()
        );
        ours.push(a);
        theirs.push(b);
    }
    let (a, b) = (median(&mut ours), median(&mut theirs));
    println!(
        "median of {rounds}: bitboards {:.2} s, cozy-chess 0.3.4 {:.2} s; ratio cozy-chess / bitboards = {:.2}x",
        a.as_secs_f64(),
        b.as_secs_f64(),
        b.as_secs_f64() / a.as_secs_f64()
    );
    ExitCode::SUCCESS
}

fn cargo(dir: &Path) -> Command {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.current_dir(dir);
    command
}

fn timed_clean_build(dir: &Path, target: &Path, args: &[&str]) -> Option<Duration> {
    let _ = std::fs::remove_dir_all(target);
    let started = Instant::now();
    let status = cargo(dir)
        .args(args)
        .arg("--quiet")
        .env("CARGO_TARGET_DIR", target)
        // As a user builds each: cozy-chess comes from crates.io, and so
        // would bitboards, and Cargo compiles registry packages without
        // incremental state. A workspace member or path dependency gets
        // incremental compilation by default, which makes a clean build
        // slower than a user's would be (the figure is in
        // docs/performance.md); turn it off for both.
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("RUSTFLAGS")
        .status();
    let elapsed = started.elapsed();
    if status.is_ok_and(|s| s.success()) {
        Some(elapsed)
    } else {
        eprintln!(
            "error: `cargo {}` failed in {}",
            args.join(" "),
            dir.display()
        );
        None
    }
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}
