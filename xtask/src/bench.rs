//! `cargo xtask bench`: runs the benches against the peers and writes their
//! figures into docs/performance.md, between `<!-- bench:start -->` and
//! `<!-- bench:end -->`, then the same page's summary table of ratios
//! (between `<!-- summary:start -->` and `<!-- summary:end -->`, at its top)
//! from those figures, so that every number in either comes from one command
//! and never goes stale. `cargo xtask bench --summary` rewrites only the
//! summary table, from the figures already there. The figures name the
//! machine they were measured on; those of another machine move to the
//! page's "Figures from other machines", which keeps each machine's last
//! run (the summary is of the figures above). The README carries no
//! generated text: one line of headline ratios and a link to the page.
//!
//! The perft bench (a custom harness) prints its own markdown table; the
//! criterion benches leave their estimates under `target/criterion`, which
//! are read back here (only those this run wrote) and laid out one table per
//! group, with each of our contenders' ratio against the best peer in the
//! same run.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::SystemTime;

const START: &str = "<!-- bench:start -->";
const END: &str = "<!-- bench:end -->";
const SUMMARY_START: &str = "<!-- summary:start -->";
const SUMMARY_END: &str = "<!-- summary:end -->";
const ENGINE_START: &str = "<!-- engine:start -->";
const ENGINE_END: &str = "<!-- engine:end -->";
/// Where the engine benches find Stockfish: `$STOCKFISH`, else Debian's.
const STOCKFISH: &str = "/usr/games/stockfish";
/// Where the full figures live, and their summary table with them.
const FIGURES: &str = "docs/performance.md";

/// The criterion benches, in the order they run, with their packages.
const CRITERION_BENCHES: [(&str, &str, &str); 6] = [
    ("bitboards", "sliders", ""),
    ("bitboards", "movegen", ""),
    // `parquet` (and with it `arrow`) for the position rows' and the
    // Parquet writer's groups.
    ("bitboards-pgn", "pgn", "parquet"),
    ("bitboards", "fen", ""),
    ("bitboards", "book", ""),
    // Against Fathom: needs Debian's libfathom-dev (.ci/run installs it).
    ("bitboards-syzygy", "syzygy", ""),
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
        "{}\nWritten by `cargo xtask bench` on {}; rustc {}. Ratios compare contenders \
         measured in the same run; each figure is a median (criterion) or the \
         best of the rounds (perft).\n",
        machine_line(&machine()),
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

    // The markdown tables a criterion bench prints besides criterion's own
    // output (the PGN bench's interleaved rounds).
    let mut printed = String::new();
    for (package, bench, features) in CRITERION_BENCHES {
        eprintln!("running cargo bench -p {package} --bench {bench} ...");
        let mut command = cargo(root);
        command.args(["bench", "-p", package, "--bench", bench]);
        if !features.is_empty() {
            command.args(["--features", features]);
        }
        if quick {
            command.env("PGN_ROUNDS", "3");
            command.args(["--", "--quick"]);
        }
        let output = match command.stderr(Stdio::inherit()).output() {
            Ok(output) if output.status.success() => output,
            Ok(_) | Err(_) => {
                eprintln!("error: `cargo bench --bench {bench}` failed");
                return ExitCode::FAILURE;
            }
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        print!("{stdout}");
        printed.push_str(&tables(&stdout));
    }
    section.push_str(&printed);
    let measurements = read_criterion(&root.join("target").join("criterion"), started);
    section.push_str(&render(&measurements));
    let _ = writeln!(section, "{END}");

    if let Err(problem) = rewrite(&root.join(FIGURES), START, END, &section) {
        eprintln!("error: {problem}");
        return ExitCode::FAILURE;
    }
    eprintln!("{FIGURES}: benchmark figures rewritten");
    if write_summary(root) != ExitCode::SUCCESS {
        return ExitCode::FAILURE;
    }
    run_engine(root, quick)
}

/// `cargo xtask bench --engine` (and the end of `cargo xtask bench`): the
/// UCI client and the `analyse` command against Stockfish driven through
/// bare pipe loops, in one run, written between the engine markers of
/// docs/performance.md.
pub fn run_engine(root: &Path, quick: bool) -> ExitCode {
    let stockfish = std::env::var("STOCKFISH").unwrap_or_else(|_| STOCKFISH.to_owned());
    if !Path::new(&stockfish).exists() {
        eprintln!(
            "error: no Stockfish at {stockfish} (apt-get install stockfish, or set STOCKFISH)"
        );
        return ExitCode::FAILURE;
    }
    let mut build = cargo(root);
    build.args([
        "build",
        "--release",
        "-p",
        "bitboards-cli",
        "-p",
        "bitboards-engine",
    ]);
    build.args(["--bins", "--examples"]);
    eprintln!("building the command and the engine examples ...");
    if !build.status().is_ok_and(|status| status.success()) {
        eprintln!("error: the release build failed");
        return ExitCode::FAILURE;
    }
    let examples = root.join("target").join("release").join("examples");
    let (positions, games) = if quick { ("1000", "6") } else { ("4000", "24") };
    let runs: [(&str, Vec<&str>); 3] = [
        ("throughput", vec![&stockfish, positions]),
        (
            "pool_throughput",
            vec![&stockfish, if quick { "40" } else { "100" }],
        ),
        ("analyse_throughput", vec![&stockfish, games]),
    ];
    let mut section = String::new();
    let _ = writeln!(section, "{ENGINE_START}");
    let _ = writeln!(
        section,
        "{}\nWritten by `cargo xtask bench --engine` on {}; {}.\n",
        machine_line(&machine()),
        machine(),
        engine_name(&stockfish),
    );
    for (example, args) in runs {
        eprintln!("running {example} ...");
        let output = match Command::new(examples.join(example))
            .args(&args)
            .stderr(Stdio::inherit())
            .output()
        {
            Ok(output) if output.status.success() => output,
            Ok(_) | Err(_) => {
                eprintln!("error: the example {example} failed");
                return ExitCode::FAILURE;
            }
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        print!("{stdout}");
        section.push_str(&tables(&stdout));
    }
    let _ = writeln!(section, "{ENGINE_END}");
    if let Err(problem) = rewrite(&root.join(FIGURES), ENGINE_START, ENGINE_END, &section) {
        eprintln!("error: {problem}");
        return ExitCode::FAILURE;
    }
    eprintln!("{FIGURES}: engine figures rewritten");
    ExitCode::SUCCESS
}

/// The engine's name as its `id name` line gives it.
fn engine_name(path: &str) -> String {
    use std::io::Write as _;
    let child = Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return path.to_owned();
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"uci\nquit\n");
    }
    child
        .wait_with_output()
        .ok()
        .and_then(|output| {
            String::from_utf8_lossy(&output.stdout)
                .lines()
                .find_map(|line| line.strip_prefix("id name ").map(str::to_owned))
        })
        .unwrap_or_else(|| path.to_owned())
}

/// The tables a bench printed as markdown, each under the line before it
/// made its title (`**title**`), as the figures' other groups are: the
/// summary table reads their ratios the same way.
fn tables(stdout: &str) -> String {
    let mut out = String::new();
    let mut title = "";
    let mut in_table = false;
    for line in stdout.lines() {
        if line.starts_with('|') {
            if !in_table {
                let _ = writeln!(out, "**{title}**:\n");
                in_table = true;
            }
            let _ = writeln!(out, "{line}");
        } else {
            if in_table {
                out.push('\n');
                in_table = false;
            }
            if !line.trim().is_empty() {
                title = line.trim();
            }
        }
    }
    if in_table {
        out.push('\n');
    }
    out
}

/// Rewrites the summary table of ratios at the top of docs/performance.md
/// from the figures further down (`cargo xtask bench --summary`).
pub fn write_summary(root: &Path) -> ExitCode {
    let figures = match std::fs::read_to_string(root.join(FIGURES)) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("error: cannot read {FIGURES}: {error}");
            return ExitCode::FAILURE;
        }
    };
    let Some(section) = between(&figures, START, END) else {
        eprintln!("error: {FIGURES} has no `{START}` ... `{END}` markers");
        return ExitCode::FAILURE;
    };
    let table = format!("{SUMMARY_START}\n{}{SUMMARY_END}\n", summary(section));
    if let Err(problem) = rewrite(&root.join(FIGURES), SUMMARY_START, SUMMARY_END, &table) {
        eprintln!("error: {problem}");
        return ExitCode::FAILURE;
    }
    eprintln!("{FIGURES}: the summary table rewritten from its figures");
    ExitCode::SUCCESS
}

/// What `cargo xtask block` is asked: the block's name, the machine its
/// figures were measured on, and the page (docs/performance.md unless
/// given).
#[derive(Debug, PartialEq, Eq)]
pub struct BlockRequest {
    name: String,
    machine: Option<String>,
    page: Option<PathBuf>,
}

impl BlockRequest {
    /// `NAME [--machine M] [--page FILE]`.
    ///
    /// # Errors
    /// A flag without its value, an unknown flag, or a name that is not
    /// one a marker can hold (empty, or with a space or `-->`).
    pub fn parse(name: &str, flags: &[&str]) -> Result<BlockRequest, String> {
        if name.is_empty() || name.contains(char::is_whitespace) || name.contains("-->") {
            return Err(format!(
                "`{name}` is not a block name (one word, as in its markers)"
            ));
        }
        let mut request = BlockRequest {
            name: name.to_owned(),
            machine: None,
            page: None,
        };
        let mut flags = flags.iter();
        while let Some(&flag) = flags.next() {
            let value = flags
                .next()
                .ok_or_else(|| format!("`{flag}` needs a value"))?;
            match flag {
                "--machine" => request.machine = Some((*value).to_owned()),
                "--page" => request.page = Some(PathBuf::from(value)),
                other => {
                    return Err(format!(
                        "unknown flag `{other}` for `cargo xtask block` (--machine or --page)"
                    ));
                }
            }
        }
        Ok(request)
    }

    /// The block as it goes into the page: its markers around `body`,
    /// with the line that names its machine.
    fn section(&self, body: &str) -> String {
        let name = &self.name;
        let machine = self
            .machine
            .as_deref()
            .map(|machine| format!("{}\n", machine_line(machine)))
            .unwrap_or_default();
        format!(
            "<!-- {name}:start -->\n{machine}{}\n<!-- {name}:end -->\n",
            body.trim()
        )
    }
}

/// `cargo xtask block`: standard input into the block the request names,
/// figures of another machine kept ([`replaced`]): the one writer of the
/// page's blocks, which the Python bench scripts call.
pub fn write_block(root: &Path, request: &BlockRequest) -> ExitCode {
    let mut body = String::new();
    if let Err(error) = std::io::stdin().read_to_string(&mut body) {
        eprintln!("error: cannot read the block from standard input: {error}");
        return ExitCode::FAILURE;
    }
    let page = request.page.clone().unwrap_or_else(|| root.join(FIGURES));
    let name = &request.name;
    let (start, end) = (
        format!("<!-- {name}:start -->"),
        format!("<!-- {name}:end -->"),
    );
    match rewrite(&page, &start, &end, &request.section(&body)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(problem) => {
            eprintln!("error: {problem}");
            ExitCode::FAILURE
        }
    }
}

/// The text between `start` and `end` (both excluded).
fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let begin = text.find(start)? + start.len();
    let stop = begin + text[begin..].find(end)?;
    Some(&text[begin..stop])
}

/// Replaces the file's lines from `start` to `end` (markers included) with
/// `section`, which holds its own markers, keeping figures of another
/// machine ([`replaced`]).
fn rewrite(path: &Path, start: &str, end: &str, section: &str) -> Result<(), String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let updated = replaced(&text, start, end, section)
        .ok_or_else(|| format!("{shown} has no `{start}` ... `{end}` markers"))?;
    std::fs::write(path, updated).map_err(|e| format!("cannot write {shown}: {e}"))
}

/// The line of a block of figures that names the machine they were
/// measured on, as the blocks of `bench.py` and `bench_commands.py` name it
/// too.
fn machine_line(machine: &str) -> String {
    format!("<!-- machine: {machine} -->")
}

/// The machine a block of figures names ([`machine_line`]), if it does.
fn machine_of(block: &str) -> Option<&str> {
    block.lines().find_map(|line| {
        line.strip_prefix("<!-- machine: ")
            .and_then(|rest| rest.strip_suffix(" -->"))
    })
}

/// The section of the page that keeps the last figures of each machine
/// but the one that wrote the blocks above.
const OTHERS: &str = "## Figures from other machines";

/// `text` with its lines from `start` to `end` (markers included) replaced
/// by `section` (which holds its own markers); `None` without the
/// markers. Figures that name another machine than `section`'s are not
/// lost: they move to [`OTHERS`], in place of that machine's last figures
/// of the same block, so that the page keeps every machine's last run.
fn replaced(text: &str, start: &str, end: &str, section: &str) -> Option<String> {
    let begin = text.find(start)?;
    let stop = begin + text[begin..].find(end)?;
    let old = &text[begin + start.len()..stop];
    let rest = &text[stop + end.len()..];
    let rest = rest.strip_prefix('\n').unwrap_or(rest);
    let updated = format!("{}{section}{rest}", &text[..begin]);
    let name = start
        .trim_start_matches("<!-- ")
        .trim_end_matches(":start -->");
    match (machine_of(old), machine_of(section)) {
        (Some(was), Some(now)) if was != now => {
            // This machine's figures under OTHERS are superseded by these.
            let updated = without(&updated, &format!("{name} on {now}"));
            Some(kept(&updated, name, was, old.trim_matches('\n')))
        }
        _ => Some(updated),
    }
}

/// `text` without the block between the markers named `key` (and the
/// blank line after it), if there is one.
fn without(text: &str, key: &str) -> String {
    let (start, end) = (
        format!("<!-- {key}:start -->"),
        format!("<!-- {key}:end -->\n"),
    );
    let Some(begin) = text.find(&start) else {
        return text.to_owned();
    };
    let Some(stop) = text[begin..].find(&end).map(|at| begin + at + end.len()) else {
        return text.to_owned();
    };
    let rest = &text[stop..];
    format!(
        "{}{}",
        &text[..begin],
        rest.strip_prefix('\n').unwrap_or(rest)
    )
}

/// `text` with `block`, block `name`'s figures measured on `machine`,
/// under [`OTHERS`] between markers named for both: in place of the block
/// there of that name, else at the section's end (the section is made at
/// the page's end if there is none).
fn kept(text: &str, name: &str, machine: &str, block: &str) -> String {
    let key = format!("{name} on {machine}");
    let (start, end) = (
        format!("<!-- {key}:start -->"),
        format!("<!-- {key}:end -->"),
    );
    let section =
        format!("{start}\n### The `{name}` figures, measured on {machine}\n\n{block}\n{end}\n");
    if let Some(updated) = replaced(text, &start, &end, &section) {
        return updated;
    }
    let mut text = text.to_owned();
    if !text.contains(OTHERS) {
        text = format!(
            "{}\n\n{OTHERS}\n\nThe last figures of each machine but the one above, moved here \
             by the command that wrote their block when it ran on another machine.\n",
            text.trim_end()
        );
    }
    let after = text.find(OTHERS).map_or(text.len(), |at| at + OTHERS.len());
    let stop = text[after..]
        .find("\n## ")
        .map_or(text.len(), |at| after + at + 1);
    let (head, tail) = text.split_at(stop);
    let gap = if head.ends_with("\n\n") { "" } else { "\n" };
    format!(
        "{head}{gap}{section}{}{tail}",
        if tail.is_empty() { "" } else { "\n" }
    )
}

/// The summary table: for each bench, our contenders' ratios against
/// the best peer of the same run, read from the figures `run` wrote (perft
/// as the range over its positions).
fn summary(section: &str) -> String {
    let mut perft = Vec::new();
    let mut rows = Vec::new();
    let mut group = "";
    for line in section.lines() {
        if let Some(rest) = line.strip_prefix("**")
            && let Some((name, _)) = rest.split_once("**")
        {
            group = name;
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let ratio = cells
            .last()
            .and_then(|last| last.strip_prefix("**"))
            .and_then(|last| last.strip_suffix("x**"))
            .and_then(|ratio| ratio.parse::<f64>().ok());
        match ratio {
            Some(ratio) if group == "Perft" => perft.push(ratio),
            Some(ratio) => rows.push(format!("| {group} | {} | {ratio:.2}x |", cells[0])),
            None => {}
        }
    }
    let mut out = machine_of(section)
        .map(|machine| format!("On {machine}:\n\n"))
        .unwrap_or_default();
    out.push_str("| bench (below) | contender | vs best peer, same run |\n| --- | --- | ---: |\n");
    let low = perft.iter().copied().reduce(f64::min);
    let high = perft.iter().copied().reduce(f64::max);
    if let (Some(low), Some(high)) = (low, high) {
        let positions = perft.len();
        let _ = writeln!(
            out,
            "| perft, {positions} positions, one thread | bitboards | {low:.2}x to {high:.2}x |"
        );
    }
    for row in rows {
        let _ = writeln!(out, "{row}");
    }
    out
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
    use super::{
        BlockRequest, END, FIGURES, OTHERS, START, SUMMARY_END, SUMMARY_START, between,
        json_number, json_string, machine_line, replaced, summary, tables,
    };

    /// `cargo xtask block`'s arguments, and the block it makes of a body:
    /// what the Python bench scripts hand it (their tests run it whole).
    #[test]
    fn a_block_request_names_its_block_machine_and_page() {
        let request = BlockRequest::parse("python-bench", &["--machine", "Xeon, 2 cores"]).unwrap();
        assert_eq!(
            request.section("\n| a | 1.0x |\n\n"),
            "<!-- python-bench:start -->\n<!-- machine: Xeon, 2 cores -->\n| a | 1.0x |\n<!-- python-bench:end -->\n"
        );
        let bare = BlockRequest::parse("python-summary", &["--page", "/tmp/p.md"]).unwrap();
        assert_eq!(
            bare.page.as_deref(),
            Some(std::path::Path::new("/tmp/p.md"))
        );
        assert_eq!(
            bare.section("x"),
            "<!-- python-summary:start -->\nx\n<!-- python-summary:end -->\n"
        );
        for (name, flags, problem) in [
            ("a", &["--machine"][..], "`--machine` needs a value"),
            ("a", &["--pages", "x"][..], "unknown flag `--pages`"),
            ("two words", &[][..], "is not a block name"),
            ("", &[][..], "is not a block name"),
        ] {
            let error = BlockRequest::parse(name, flags).unwrap_err();
            assert!(error.contains(problem), "{error}");
        }
    }

    fn workspace_file(path: &str) -> String {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        std::fs::read_to_string(root.join(path)).unwrap()
    }

    /// A page of one block, `figures` measured on `machine`.
    fn page(machine: &str, figures: &str) -> String {
        let line = machine_line(machine);
        format!("# Page\n\n## Figures\n\n{START}\n{line}\n{figures}\n{END}\n\n## After\n\nText.\n")
    }

    fn block(machine: &str, figures: &str) -> String {
        format!("{START}\n{}\n{figures}\n{END}\n", machine_line(machine))
    }

    #[test]
    fn a_run_on_the_same_machine_replaces_its_figures() {
        let text = page("EPYC, 2 cores", "| a | 1.0x |");
        let updated = replaced(&text, START, END, &block("EPYC, 2 cores", "| a | 2.0x |")).unwrap();
        assert_eq!(updated, page("EPYC, 2 cores", "| a | 2.0x |"));
        assert!(!updated.contains(OTHERS));
        assert_eq!(
            replaced("no markers", START, END, &block("EPYC", "x")),
            None
        );
    }

    #[test]
    fn figures_of_another_machine_are_kept_each_machines_last() {
        let text = page("EPYC, 2 cores", "| a | 1.0x |");
        let xeon = replaced(&text, START, END, &block("Xeon, 2 cores", "| a | 2.0x |")).unwrap();
        // The new figures in the block, the EPYC's under OTHERS, after
        // the page's sections.
        let (head, others) = xeon
            .split_once(OTHERS)
            .expect("the section of other machines");
        assert!(head.contains("| a | 2.0x |") && head.contains("## After\n\nText.\n"));
        assert!(!head.contains("1.0x"));
        assert!(others.contains(
            "<!-- bench on EPYC, 2 cores:start -->\n### The `bench` figures, measured on EPYC, 2 cores\n"
        ));
        assert!(others.contains("| a | 1.0x |"));
        // Back on the EPYC: its new figures above, the Xeon's under
        // OTHERS, and the EPYC's first ones, superseded, gone.
        let epyc = replaced(&xeon, START, END, &block("EPYC, 2 cores", "| a | 3.0x |")).unwrap();
        let (head, others) = epyc.split_once(OTHERS).unwrap();
        assert!(head.contains("| a | 3.0x |") && !head.contains("2.0x"));
        assert!(others.contains("| a | 2.0x |") && !others.contains("1.0x"));
        assert!(!others.contains("bench on EPYC"));
        // A later Xeon run: the EPYC's last figures go under OTHERS.
        let again = replaced(&epyc, START, END, &block("Xeon, 2 cores", "| a | 4.0x |")).unwrap();
        let (head, others) = again.split_once(OTHERS).unwrap();
        assert!(head.contains("| a | 4.0x |"));
        assert!(others.contains("| a | 3.0x |") && !others.contains("1.0x"));
        // The Xeon's older figures there are gone: its last are above.
        assert!(!others.contains("2.0x") && !others.contains("bench on Xeon"));
        assert_eq!(again.matches(OTHERS).count(), 1);
        assert_eq!(again.matches("bench on EPYC, 2 cores:start").count(), 1);
    }

    #[test]
    fn the_page_names_the_machine_of_each_block_of_figures() {
        let figures = workspace_file(FIGURES);
        for (start, end) in [
            (START, END),
            ("<!-- engine:start -->", "<!-- engine:end -->"),
        ] {
            let section = between(&figures, start, end).expect("the markers");
            assert!(
                super::machine_of(section).is_some(),
                "{start} names no machine"
            );
        }
    }

    #[test]
    fn the_summary_table_is_the_summary_of_the_figures() {
        let figures = workspace_file(FIGURES);
        let section = between(&figures, START, END).expect("the bench markers");
        let table = between(&figures, SUMMARY_START, SUMMARY_END).expect("the summary markers");
        assert_eq!(
            table.trim_start_matches('\n'),
            summary(section),
            "{FIGURES}'s summary table differs from `cargo xtask bench --summary`'s: run it"
        );
    }

    /// The README holds no generated block, and the ratios of its one
    /// headline line are figures the tools wrote into docs/performance.md:
    /// after `cargo xtask bench` or `bench.py --write` moves them, this
    /// fails until the line is brought up to date by hand.
    #[test]
    fn the_readme_quotes_only_figures_of_the_notebook() {
        let readme = workspace_file("README.md");
        let figures = workspace_file(FIGURES);
        for marker in [
            "summary:start",
            "python-summary:start",
            "bench:start",
            "tables:start",
        ] {
            assert!(
                !readme.contains(marker),
                "README.md holds a generated block ({marker}); it belongs in docs/"
            );
        }
        let ratios: Vec<&str> = readme
            .split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ',' | ';' | ':'))
            .filter(|word| {
                word.strip_suffix('x')
                    .is_some_and(|number| number.contains('.') && number.parse::<f64>().is_ok())
            })
            .collect();
        assert!(!ratios.is_empty(), "README.md quotes no headline ratio");
        for ratio in ratios {
            assert!(
                figures.contains(ratio),
                "README.md quotes {ratio}, which {FIGURES} does not hold: bring the headline line up to date"
            );
        }
    }

    #[test]
    fn the_summary_keeps_every_ratio_and_ranges_perft() {
        let section = "**Perft**, one thread.\n\n| case | depth | ours / best peer |\n| --- | ---: | ---: |\n\
            | start | 6 | **2.00x** |\n| kiwipete | 5 | **1.89x** |\n\n\
            **fen** (criterion group `fen`):\n\n| contender | time | throughput | vs best peer |\n\
            | --- | ---: | ---: | ---: |\n| bitboards | 23.64 µs | 5.29 M/s | **0.79x** |\n\
            | shakmaty | 18.72 µs | 6.68 M/s |  |\n";
        let table = summary(section);
        let rows: Vec<&str> = table.lines().skip(2).collect();
        assert_eq!(
            rows,
            [
                "| perft, 2 positions, one thread | bitboards | 1.89x to 2.00x |",
                "| fen | bitboards | 0.79x |",
            ]
        );
    }

    #[test]
    fn printed_tables_keep_their_titles_and_reach_the_summary() {
        let stdout = "pgn_read/bitboards      time:   [39.4 ms 39.5 ms 39.6 ms]\n\n\
            PGN reading, interleaved\n\n| workload | bitboards | pgn-reader | ours / peer |\n\
            | --- | ---: | ---: | ---: |\n| pgn_read | 38.5 ms | 58.2 ms | **1.51x** |\n\
            | pgn_headers | 0.6 ms | 2.3 ms | **3.85x** |\n";
        let printed = tables(stdout);
        assert_eq!(
            printed,
            "**PGN reading, interleaved**:\n\n| workload | bitboards | pgn-reader | ours / peer |\n\
             | --- | ---: | ---: | ---: |\n| pgn_read | 38.5 ms | 58.2 ms | **1.51x** |\n\
             | pgn_headers | 0.6 ms | 2.3 ms | **3.85x** |\n\n"
        );
        let rows: Vec<String> = summary(&printed)
            .lines()
            .skip(2)
            .map(String::from)
            .collect();
        assert_eq!(
            rows,
            [
                "| PGN reading, interleaved | pgn_read | 1.51x |",
                "| PGN reading, interleaved | pgn_headers | 3.85x |",
            ]
        );
        assert_eq!(tables("no table here\n"), "");
    }

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
