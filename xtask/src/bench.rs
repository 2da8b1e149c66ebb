//! `cargo xtask bench`: runs the benches against the peers and writes their
//! figures into README.md, between `<!-- bench:start -->` and
//! `<!-- bench:end -->`, so that the README's numbers come from one command
//! and never go stale.
//!
//! The perft bench (a custom harness) prints its own markdown table; the
//! criterion benches leave their estimates under `target/criterion`, which
//! are read back here (only those this run wrote) and laid out one table per
//! group, with each of our contenders' ratio against the best peer in the
//! same run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::SystemTime;

const START: &str = "<!-- bench:start -->";
const END: &str = "<!-- bench:end -->";

/// The criterion benches, in the README's order, with their packages.
const CRITERION_BENCHES: [(&str, &str, &str); 5] = [
    ("bitboards", "sliders", ""),
    ("bitboards", "movegen", ""),
    // `arrow` for the position rows' group.
    ("bitboards-pgn", "pgn", "arrow"),
    ("bitboards", "fen", ""),
    ("bitboards", "book", ""),
];

/// One criterion measurement.
struct Measurement {
    group: String,
    function: String,
    /// Median time per iteration, in nanoseconds.
    nanos: f64,
    /// Elements or bytes per iteration, if the bench said.
    throughput: Option<(u64, &'static str)>,
}

pub fn run(root: &Path, quick: bool) -> ExitCode {
    let started = SystemTime::now();
    let mut section = String::new();
    let _ = writeln!(section, "{START}");
    let _ = writeln!(
        section,
        "Written by `cargo xtask bench` on {}; rustc {}. Ratios compare contenders \
         measured in the same run; each figure is a median (criterion) or the \
         best of the rounds (perft).\n",
        machine(),
        rustc_version(),
    );

    let mut perft = cargo(root);
    perft.args(["bench", "--bench", "perft"]);
    if quick {
        perft.env("PERFT_ROUNDS", "1");
    }
    eprintln!("running cargo bench --bench perft ...");
    let output = match perft.stderr(Stdio::inherit()).output() {
        Ok(output) if output.status.success() => output,
        Ok(_) | Err(_) => {
            eprintln!("error: `cargo bench --bench perft` failed");
            return ExitCode::FAILURE;
        }
    };
    let table: String = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| line.starts_with('|'))
        .map(|line| format!("{line}\n"))
        .collect();
    let _ = writeln!(
        section,
        "**Perft**, `cargo bench --bench perft`: one thread, each contender's own \
         bulk-counting perft, million nodes per second.\n\n{table}"
    );

    for (package, bench, features) in CRITERION_BENCHES {
        eprintln!("running cargo bench -p {package} --bench {bench} ...");
        let mut command = cargo(root);
        command.args(["bench", "-p", package, "--bench", bench]);
        if !features.is_empty() {
            command.args(["--features", features]);
        }
        if quick {
            command.args(["--", "--quick"]);
        }
        if !command.status().is_ok_and(|status| status.success()) {
            eprintln!("error: `cargo bench --bench {bench}` failed");
            return ExitCode::FAILURE;
        }
    }
    let measurements = read_criterion(&root.join("target").join("criterion"), started);
    section.push_str(&render(&measurements));
    let _ = writeln!(section, "{END}");

    let readme = root.join("README.md");
    let text = match std::fs::read_to_string(&readme) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("error: cannot read {}: {error}", readme.display());
            return ExitCode::FAILURE;
        }
    };
    let (Some(begin), Some(end)) = (text.find(START), text.find(END)) else {
        eprintln!("error: README.md has no `{START}` ... `{END}` markers");
        return ExitCode::FAILURE;
    };
    let rest = &text[end + END.len()..];
    let rest = rest.strip_prefix('\n').unwrap_or(rest);
    let updated = format!("{}{section}{rest}", &text[..begin]);
    if let Err(error) = std::fs::write(&readme, updated) {
        eprintln!("error: cannot write {}: {error}", readme.display());
        return ExitCode::FAILURE;
    }
    eprintln!("README.md: benchmark figures rewritten");
    ExitCode::SUCCESS
}

fn cargo(root: &Path) -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command.current_dir(root);
    command
}

/// The CPU model and core count, from /proc/cpuinfo where there is one.
fn machine() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find_map(|line| line.strip_prefix("model name"))
        .and_then(|rest| rest.split_once(':'))
        .map_or("an unknown CPU", |(_, model)| model.trim());
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    format!("{model}, {cores} cores")
}

fn rustc_version() -> String {
    Command::new("rustc")
        .arg("--version")
        .output()
        .ok()
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map_or_else(
            || "(unknown)".to_owned(),
            |version| {
                version
                    .split_whitespace()
                    .nth(1)
                    .unwrap_or("(unknown)")
                    .to_owned()
            },
        )
}

/// Every `new/benchmark.json` under `dir` written since `since`, with its
/// median from `new/estimates.json`.
fn read_criterion(dir: &Path, since: SystemTime) -> Vec<Measurement> {
    let mut found = Vec::new();
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.ends_with("new/benchmark.json") {
                let fresh = entry
                    .metadata()
                    .and_then(|meta| meta.modified())
                    .is_ok_and(|modified| modified >= since);
                if fresh && let Some(measurement) = read_one(&path) {
                    found.push(measurement);
                }
            }
        }
    }
    found.sort_by(|a, b| (&a.group, &a.function).cmp(&(&b.group, &b.function)));
    found
}

fn read_one(benchmark: &Path) -> Option<Measurement> {
    let meta = std::fs::read_to_string(benchmark).ok()?;
    let estimates = std::fs::read_to_string(benchmark.with_file_name("estimates.json")).ok()?;
    let group = json_string(&meta, "group_id")?;
    let function = json_string(&meta, "function_id")?;
    let median = &estimates[estimates.find("\"median\"")?..];
    let nanos = json_number(median, "point_estimate")?;
    let throughput = json_number(&meta, "Elements")
        .map(|n| (n as u64, "elements"))
        .or_else(|| json_number(&meta, "Bytes").map(|n| (n as u64, "bytes")));
    Some(Measurement {
        group,
        function,
        nanos,
        throughput,
    })
}

/// The string after `"key":` in a small JSON text (criterion's files hold
/// no escaped quotes in the fields read here).
fn json_string(text: &str, key: &str) -> Option<String> {
    let after = &text[text.find(&format!("\"{key}\":\""))? + key.len() + 4..];
    Some(after[..after.find('"')?].to_owned())
}

/// The number after `"key":`.
fn json_number(text: &str, key: &str) -> Option<f64> {
    let after = &text[text.find(&format!("\"{key}\":"))? + key.len() + 3..];
    let end = after
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | 'e' | 'E' | '+')))
        .unwrap_or(after.len());
    after[..end].parse().ok()
}

/// One table per group: time, throughput, and for our contenders the ratio
/// against the fastest peer of the group.
fn render(measurements: &[Measurement]) -> String {
    let mut out = String::new();
    let mut groups: Vec<&str> = measurements.iter().map(|m| m.group.as_str()).collect();
    groups.dedup();
    for group in groups {
        let rows: Vec<&Measurement> = measurements.iter().filter(|m| m.group == group).collect();
        let best_peer = rows
            .iter()
            .filter(|m| !is_ours(&m.function))
            .map(|m| m.nanos)
            .fold(f64::INFINITY, f64::min);
        let _ = writeln!(
            out,
            "**{group}** (criterion group `{group}`):\n\n| contender | time | throughput | vs best peer |\n| --- | ---: | ---: | ---: |"
        );
        for row in rows {
            let throughput = row.throughput.map_or_else(String::new, |(count, unit)| {
                let per_second = count as f64 / (row.nanos * 1e-9);
                match unit {
                    "bytes" => format!("{:.1} MB/s", per_second / 1e6),
                    _ => format!("{:.2} M/s", per_second / 1e6),
                }
            });
            let ratio = if is_ours(&row.function) && best_peer.is_finite() {
                format!("**{:.2}x**", best_peer / row.nanos)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "| {} | {} | {throughput} | {ratio} |",
                row.function,
                time(row.nanos)
            );
        }
        out.push('\n');
    }
    out
}

fn is_ours(function: &str) -> bool {
    function.starts_with("bitboards")
}

fn time(nanos: f64) -> String {
    if nanos >= 1e6 {
        format!("{:.2} ms", nanos / 1e6)
    } else if nanos >= 1e3 {
        format!("{:.2} µs", nanos / 1e3)
    } else {
        format!("{nanos:.2} ns")
    }
}

#[cfg(test)]
mod tests {
    use super::{json_number, json_string};

    #[test]
    fn reads_criterion_fields() {
        let meta = r#"{"group_id":"pgn_read","function_id":"bitboards","value_str":null,"throughput":{"Bytes":10685975}}"#;
        assert_eq!(json_string(meta, "group_id").as_deref(), Some("pgn_read"));
        assert_eq!(
            json_string(meta, "function_id").as_deref(),
            Some("bitboards")
        );
        assert_eq!(json_number(meta, "Bytes"), Some(10_685_975.0));
        let estimates = r#"{"median":{"confidence_interval":{"lower_bound":1.5},"point_estimate":91797152.83333333,"standard_error":2.0}}"#;
        assert_eq!(
            json_number(estimates, "point_estimate"),
            Some(91_797_152.833_333_33)
        );
    }
}
