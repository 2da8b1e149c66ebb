//! `bitboards pgn`: games replayed from files and standard input, each
//! output format, a bad game among good ones, and the exit codes.

// Only `run` of the shared helpers is needed here.
#[allow(dead_code)]
mod common;

use assert_cmd::Command;
use common::run;

/// Four games: fool's mate (checkmate), a stalemate, a game with a bad
/// move, a threefold repetition; then one that ends without a rule.
const GAMES: &str = r#"[Event "Fool's mate"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "Stalemate"]
[FEN "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"]
[SetUp "1"]
[Result "1/2-1/2"]

1. Qf7 1/2-1/2

[Event "Bad"]
[Result "*"]

1. e4 e5 2. Nf4 *

[Event "Repetition"]
[Result "1/2-1/2"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2

[Event "Open"]

1. d4 { still going } d5 *
"#;

/// The games in a file of the test's own (tests run in parallel).
fn pgn_file(test: &str) -> tempfile_path::Path {
    tempfile_path::write(&format!("{test}.pgn"), GAMES)
}

/// A file under the target directory, so that the test needs no crate.
mod tempfile_path {
    use std::path::PathBuf;

    pub struct Path(pub PathBuf);

    impl Drop for Path {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    pub fn write(name: &str, text: &str) -> Path {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let path = dir.join(format!("{}-{name}", std::process::id()));
        std::fs::write(&path, text).expect("the test can write its file");
        Path(path)
    }
}

#[test]
fn text_reports_each_game_and_the_bad_one_on_stderr() {
    let file = pgn_file("text_reports_each_game_and_the_bad_one_on_stderr");
    let (code, stdout, stderr) = run(&["pgn", file.0.to_str().unwrap()]);
    assert_eq!(code, 1, "a game failed: exit 1\n{stderr}");
    let expected = "\
game 1: 4 plies, result 0-1, outcome checkmate, Black wins
  fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3
game 2: 1 plies, result 1/2-1/2, outcome draw by stalemate
  fen 7k/5Q2/6K1/8/8/8/8/8 b - - 1 1
game 4: 8 plies, result 1/2-1/2, outcome draw by threefold repetition (claimable)
  fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5
game 5: 2 plies, result *, outcome none
  fen rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2
";
    assert_eq!(stdout, expected);
    let mut lines = stderr.lines();
    assert_eq!(
        lines.next(),
        Some(
            format!(
                "error: {}: game 3, line 16, column 13, byte {}: illegal move `Nf4`: no knight can move to f4 in this position",
                file.0.display(),
                GAMES.find("Nf4").unwrap()
            )
            .as_str()
        ),
        "{stderr}"
    );
    let summary = lines.next().unwrap_or_default();
    assert!(
        summary.starts_with("5 games (1 failed) in ") && summary.ends_with(" MB/s"),
        "{summary}"
    );
}

#[test]
fn json_is_one_object_per_game_with_exactly_the_documented_keys() {
    let file = pgn_file("json_is_one_object_per_game_with_exactly_the_documented_keys");
    let (code, stdout, _) = run(&["pgn", file.0.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 1);
    let objects: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is JSON"))
        .collect();
    assert_eq!(objects.len(), 4);
    for object in &objects {
        let keys: Vec<&str> = object
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            [
                "clocks", "evals", "fen", "game", "outcome", "plies", "result"
            ]
        );
    }
    assert_eq!(
        objects[0],
        serde_json::json!({
            "game": 1,
            "plies": 4,
            "fen": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "result": "0-1",
            "outcome": "checkmate",
            "clocks": [null, null, null, null],
            "evals": [null, null, null, null],
        })
    );
    let outcomes: Vec<&serde_json::Value> = objects.iter().map(|o| &o["outcome"]).collect();
    assert_eq!(
        outcomes,
        [
            &serde_json::json!("checkmate"),
            &serde_json::json!("stalemate"),
            &serde_json::json!("threefold_repetition"),
            &serde_json::Value::Null,
        ]
    );
    assert_eq!(objects[2]["game"], 4);
    // The object of the first line, byte for byte.
    assert_eq!(
        stdout.lines().next(),
        Some(
            r#"{"game": 1, "plies": 4, "fen": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "result": "0-1", "outcome": "checkmate", "clocks": [null, null, null, null], "evals": [null, null, null, null]}"#
        )
    );
}

#[test]
fn every_ply_in_san_uci_or_fen() {
    let file = pgn_file("every_ply_in_san_uci_or_fen");
    let path = file.0.to_str().unwrap();
    let (_, san, _) = run(&["pgn", path, "--moves", "san"]);
    assert!(san.contains("\n  1. f3 e5 2. g4 Qh4#\n"), "{san}");
    assert!(san.contains("\n  1. Qf7\n"), "{san}");
    let (_, uci, _) = run(&["pgn", path, "--moves", "uci"]);
    assert!(uci.contains("\n  f2f3\n  e7e5\n  g2g4\n  d8h4\n"), "{uci}");
    let (_, fen, _) = run(&["pgn", path, "--moves", "fen"]);
    assert!(
        fen.contains("\n  rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1\n"),
        "{fen}"
    );
    let (_, json, _) = run(&["pgn", path, "--moves", "san", "--format", "json"]);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(
        first["moves"],
        serde_json::json!(["f3", "e5", "g4", "Qh4#"])
    );
}

#[test]
fn standard_input_and_a_clean_exit() {
    let output = Command::cargo_bin("bitboards")
        .unwrap()
        .args(["pgn", "-", "--format", "json"])
        .write_stdin("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains(r#""outcome": "checkmate""#), "{stdout}");
    assert!(stdout.contains(r#""result": "1-0""#), "{stdout}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.starts_with("1 game in "), "{stderr}");
}

#[test]
fn a_file_that_cannot_be_read_exits_with_2() {
    let (code, stdout, stderr) = run(&["pgn", "/nonexistent/games.pgn"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(
        stderr.starts_with("error: cannot read /nonexistent/games.pgn: "),
        "{stderr}"
    );
}

/// Annotated games as Lichess writes them, for the clock and eval fields.
const LICHESS: &str = "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/abc\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[WhiteElo \"1500\"]\n[BlackElo \"?\"]\n[UTCDate \"2024.01.31\"]\n[UTCTime \"23:59:59\"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%eval #-3] [%clk 0:02:58.5] } 2. Qh5 { [%clk 0:02:55] } 1-0\n\n";

#[test]
fn json_carries_clocks_and_evals_and_files_may_be_several_and_compressed() {
    let plain = tempfile_path::write("clocks.pgn", LICHESS);
    let zst = tempfile_path::write("clocks.pgn.zst", "");
    let compressed = std::process::Command::new("zstd")
        .args(["-q", "-f", "-o"])
        .arg(&zst.0)
        .arg(&plain.0)
        .status();
    let (code, stdout, stderr) = run(&[
        "pgn",
        plain.0.to_str().unwrap(),
        zst.0.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    if compressed.is_ok_and(|status| status.success()) {
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(lines.len(), 2, "{stdout}");
        assert_eq!(lines[1]["game"], 2);
        assert_eq!(lines[1]["clocks"], lines[0]["clocks"]);
    }
    assert_eq!(lines[0]["clocks"], serde_json::json!([180, 178.5, 175]));
    assert_eq!(
        lines[0]["evals"],
        serde_json::json!([{"cp": 17}, {"mate": -3}, null])
    );
}

#[test]
fn threads_give_the_same_output_in_file_order() {
    // About a megabyte: several chunks (of at most 256 KiB) per thread.
    let many = GAMES.repeat(3000);
    let file = tempfile_path::write("threads.pgn", &many);
    let path = file.0.to_str().unwrap();
    let (one_code, one, one_err) = run(&["pgn", path, "--format", "json", "--threads", "1"]);
    let (two_code, two, two_err) = run(&["pgn", path, "--format", "json", "--threads", "2"]);
    assert_eq!((one_code, two_code), (1, 1));
    assert_eq!(one.lines().count(), 12_000);
    assert_eq!(one, two);
    let errors = |stderr: &str| -> Vec<String> {
        stderr
            .lines()
            .filter(|line| line.starts_with("error: "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(errors(&one_err).len(), 3000);
    assert_eq!(errors(&one_err), errors(&two_err));
    // The game numbers run on across the chunks.
    let last = one.lines().last().unwrap();
    assert!(last.starts_with("{\"game\": 15000, "), "{last}");
    let csv = |threads: &str| {
        let (_, rows, _) = run(&["pgn", path, "--to", "csv", "-", "--threads", threads]);
        rows
    };
    let rows = csv("1");
    assert_eq!(rows.lines().count(), 1 + 12_000);
    assert_eq!(rows, csv("2"));
}

#[test]
fn not_a_pgn_file_is_one_error() {
    let lock = concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock");
    let (code, stdout, stderr) = run(&["pgn", lock]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("error"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains("not a PGN file"), "{stderr}");
}

#[test]
fn csv_and_parquet_tables() {
    let file = tempfile_path::write("table.pgn", &format!("{LICHESS}{GAMES}"));
    let csv = tempfile_path::write("table.csv", "");
    let (code, _, stderr) = run(&[
        "pgn",
        file.0.to_str().unwrap(),
        "--to",
        "csv",
        csv.0.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "one game is bad\n{stderr}");
    let text = std::fs::read_to_string(&csv.0).unwrap();
    let mut lines = text.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("Event,Site,White,Black,Result,")
    );
    let first = lines.next().unwrap();
    assert!(
        first.starts_with("Rated Blitz game,https://lichess.org/abc,a,b,1-0,,,1500,,"),
        "{first}"
    );
    assert!(first.contains("e2e4 e7e5 d1h5"), "{first}");
    assert!(first.contains("180 178.5 175"), "{first}");
    assert_eq!(text.lines().count(), 1 + 5);

    let parquet = tempfile_path::write("table.parquet", "");
    let (code, _, stderr) = run(&[
        "pgn",
        file.0.to_str().unwrap(),
        "--to",
        "parquet",
        parquet.0.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    let bytes = std::fs::read(&parquet.0).unwrap();
    assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    assert!(stderr.contains("6 games (1 failed)"), "{stderr}");
}

#[test]
fn position_rows_count_every_position_before_a_move() {
    let file = tempfile_path::write("positions.pgn", &format!("{LICHESS}{GAMES}"));
    let path = file.0.to_str().unwrap();
    // The plies of the games that read, from the JSON reports.
    let (_, stdout, _) = run(&["pgn", path, "--format", "json"]);
    let plies: u64 = stdout
        .lines()
        .map(|line| {
            serde_json::from_str::<serde_json::Value>(line).unwrap()["plies"]
                .as_u64()
                .unwrap()
        })
        .sum();
    let parquet = tempfile_path::write("positions.parquet", "");
    let out = parquet.0.to_str().unwrap();
    let (code, _, stderr) = run(&["pgn", path, "--to", "parquet", out, "--rows", "positions"]);
    assert_eq!(code, 1, "one game is bad\n{stderr}");
    assert!(
        stderr.contains(&format!("{plies} positions; ")),
        "{plies}: {stderr}"
    );
    assert!(
        stderr
            .lines()
            .any(|line| line.starts_with("error: ") && line.contains("game ")),
        "{stderr}"
    );
    let bytes = std::fs::read(&parquet.0).unwrap();
    assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    // Every other position, from ply 2.
    let (_, _, fewer) = run(&[
        "pgn",
        path,
        "--to",
        "parquet",
        out,
        "--rows",
        "positions",
        "--every",
        "2",
        "--min-ply",
        "2",
    ]);
    let count = positions_written(&fewer);
    assert!(count > 0 && count < plies / 2 + 1, "{count} of {plies}");
    // Positions go to Parquet only.
    let (code, _, stderr) = run(&["pgn", path, "--rows", "positions"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--to parquet"), "{stderr}");
}

/// The positions `--rows positions` says it wrote (`N positions; ...` on
/// standard error).
fn positions_written(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|line| line.split_once(" positions; "))
        .map(|(count, _)| count.parse().unwrap())
        .unwrap()
}

#[test]
fn tables_as_built_are_the_same_bytes_on_any_threads() {
    // 1,200 games (4 MB: four chunks of the games' 1 MiB, sixteen of the
    // positions' 256 KiB), written as the workers built them: the same
    // chunks, batches and pages on any number of threads (100 would cut
    // smaller chunks by the reader's own rule). Some 80,000 positions
    // make a row group of 65,536 rows with several pages of boards.
    let games = bitboards_test_support::lichess_games(1200, 3);
    let file = tempfile_path::write("as-built-threads.pgn", std::str::from_utf8(&games).unwrap());
    let path = file.0.to_str().unwrap();
    let parquet = tempfile_path::write("as-built-threads.parquet", "");
    let out = parquet.0.to_str().unwrap();
    for rows in ["games", "positions"] {
        let write = |threads: &str| {
            let args = [
                "pgn",
                path,
                "--to",
                "parquet",
                out,
                "--rows",
                rows,
                "--threads",
                threads,
            ];
            let (code, _, stderr) = run(&args);
            assert_eq!(code, 0, "{stderr}");
            (stderr, std::fs::read(&parquet.0).unwrap())
        };
        let (stderr, one) = write("1");
        let (sizes, _) = parquet_footer(&parquet.0);
        match rows {
            "games" => assert_eq!(sizes, [1200]),
            _ => {
                let written = positions_written(&stderr);
                assert!(written > 40_000, "{written}");
                assert_eq!(sizes.iter().sum::<i64>() as u64, written);
                assert_eq!(sizes[0], 65_536, "{sizes:?}");
            }
        }
        for threads in ["2", "8", "100"] {
            let (_, more) = write(threads);
            assert!(more == one, "{rows}: --threads {threads} wrote other bytes");
        }
    }
}

#[test]
fn a_plain_file_read_in_place_gives_what_standard_input_gives() {
    // A plain file is mapped and its chunks read where they lie; standard
    // input is a stream: the same reports, CSV and Parquet bytes.
    let games = bitboards_test_support::lichess_games(600, 5);
    let text = std::str::from_utf8(&games).unwrap();
    let file = tempfile_path::write("in-place.pgn", text);
    let path = file.0.to_str().unwrap();
    let table = tempfile_path::write("in-place.table", "");
    let out = table.0.to_str().unwrap();
    let command = |input: &str, more: &[&str]| {
        let mut command = Command::cargo_bin("bitboards").unwrap();
        command.args(["pgn", input]).args(more);
        if input == "-" {
            command.write_stdin(games.clone());
        }
        let output = command.output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(0), "{more:?}: {stderr}");
        assert!(stderr.contains("600 games"), "{more:?}: {stderr}");
        (output.stdout, std::fs::read(&table.0).unwrap())
    };
    for threads in ["1", "2"] {
        for more in [
            &["--format", "text"][..],
            &["--format", "json"],
            &["--to", "csv", out],
            &["--to", "parquet", out],
            &["--to", "parquet", out, "--rows", "positions"],
        ] {
            let more = [more, &["--threads", threads]].concat();
            let (mapped, mapped_table) = command(path, &more);
            let (streamed, streamed_table) = command("-", &more);
            assert!(mapped == streamed, "{more:?}: other output");
            assert!(mapped_table == streamed_table, "{more:?}: another table");
            if more[0] == "--to" {
                assert!(mapped_table.len() > 1000, "{more:?}");
            } else {
                assert!(mapped.len() > 1000, "{more:?}");
            }
        }
    }
}

/// The row groups' sizes and the codec of every column chunk of the
/// Parquet file at `path`.
fn parquet_footer(path: &std::path::Path) -> (Vec<i64>, Vec<parquet::basic::Compression>) {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let groups = reader.metadata().row_groups();
    let sizes = groups.iter().map(|group| group.num_rows()).collect();
    let codecs = groups
        .iter()
        .flat_map(|group| group.columns().iter().map(|column| column.compression()))
        .collect();
    (sizes, codecs)
}

#[test]
fn parquet_compression_and_row_groups_as_asked_the_same_bytes_on_any_threads() {
    use parquet::basic::Compression;
    let games = format!("{LICHESS}{GAMES}").repeat(40);
    let file = tempfile_path::write("options.pgn", &games);
    let path = file.0.to_str().unwrap();
    let out = tempfile_path::write("options.parquet", "");
    let target = out.0.to_str().unwrap();
    let write = |extra: &[&str]| {
        let mut args = vec!["pgn", path, "--to", "parquet", target];
        args.extend_from_slice(extra);
        let (code, _, stderr) = run(&args);
        assert_eq!(code, 1, "one game in six is bad\n{stderr}");
        std::fs::read(target).unwrap()
    };
    // 240 games, 200 of them read: row groups of 64 rows.
    let mut sizes_seen = Vec::new();
    for (name, codec) in [
        ("zstd", Compression::ZSTD(Default::default())),
        ("snappy", Compression::SNAPPY),
        ("lz4", Compression::LZ4_RAW),
        ("none", Compression::UNCOMPRESSED),
    ] {
        let one = write(&[
            "--compression",
            name,
            "--row-group-size",
            "64",
            "--threads",
            "1",
        ]);
        for threads in ["2", "8"] {
            let more = write(&[
                "--compression",
                name,
                "--row-group-size",
                "64",
                "--threads",
                threads,
            ]);
            assert!(more == one, "{name}: --threads {threads} wrote other bytes");
        }
        let (sizes, codecs) = parquet_footer(&out.0);
        assert_eq!(sizes, [64, 64, 64, 8], "{name}");
        assert!(
            codecs.iter().all(|&found| match codec {
                Compression::ZSTD(_) => matches!(found, Compression::ZSTD(_)),
                other => found == other,
            }),
            "{name}: {codecs:?}"
        );
        sizes_seen.push((name, one.len()));
    }
    // Compression makes the file smaller; a higher zstd level no larger.
    let size = |name: &str| sizes_seen.iter().find(|(seen, _)| *seen == name).unwrap().1;
    assert!(
        size("zstd") < size("none") && size("lz4") < size("none"),
        "{sizes_seen:?}"
    );
    let level_19 = write(&["--level", "19"]).len();
    let level_1 = write(&[]).len();
    assert!(level_19 <= level_1, "{level_19} > {level_1}");
    // The default: zstd, one row group.
    let (sizes, codecs) = parquet_footer(&out.0);
    assert_eq!(sizes, [200]);
    assert!(matches!(codecs[0], Compression::ZSTD(_)));
    // Nothing but the file is left beside it (its own temporary name:
    // other tests write theirs in the same directory meanwhile).
    let dir = out.0.parent().unwrap();
    let own = format!(".{}.", out.0.file_name().unwrap().to_string_lossy());
    let partial: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(&own) && name.ends_with(".partial"))
        .collect();
    assert!(partial.is_empty(), "{partial:?}");
}

#[test]
fn parquet_options_that_do_not_fit_are_errors_that_say_why() {
    let file = tempfile_path::write("bad-options.pgn", GAMES);
    let path = file.0.to_str().unwrap();
    let out = tempfile_path::write("bad-options.parquet", "");
    let target = out.0.to_str().unwrap();
    for (extra, says) in [
        (&["--compression", "gzip"][..], "not a Parquet compression"),
        (
            &["--compression", "lz4", "--level", "3"][..],
            "a level is for zstd only",
        ),
        (&["--level", "23"][..], "1 to 22"),
        (&["--row-group-size", "0"][..], "at least 1"),
    ] {
        let mut args = vec!["pgn", path, "--to", "parquet", target];
        args.extend_from_slice(extra);
        let (code, _, stderr) = run(&args);
        assert_eq!(code, 2, "{extra:?}\n{stderr}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
    }
    let (code, _, stderr) = run(&["pgn", path, "--compression", "lz4"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("for --to parquet"), "{stderr}");
}

#[test]
fn a_table_that_cannot_be_finished_leaves_no_file() {
    // The input cannot be read: nothing is written at OUT, and no
    // temporary file is left.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("unfinished-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for format in ["parquet", "csv"] {
        let target = dir.join(format!("out.{format}"));
        let (code, _, stderr) = run(&[
            "pgn",
            "/nonexistent/games.pgn",
            "--to",
            format,
            target.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{stderr}");
        assert!(!target.exists(), "{format}");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir(&dir).unwrap();
}
