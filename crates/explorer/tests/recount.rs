//! The explorer against an independent recount: `tests/python/recount.py`
//! counts the games of `tests/data/recount-games.pgn` with python-chess by
//! lila-openingexplorer's rules and writes, for each of its queries (a
//! position, a filter, limits), what the explorer must answer
//! (`tests/data/recount-reference.jsonl`), and the games it must leave
//! out (`tests/data/recount-skips.json`). Each index built here, in one go,
//! on two threads in many segments, or in two builds then merged, must
//! answer every query as the recount does.

use std::path::Path;

use bitboards::Color;
use bitboards_explorer::{
    BuildOptions, BuildReport, Explorer, Filter, Limits, Play, PlayerFilter, Response, build_bytes,
    merge,
};

mod common;
use common::{TempDir, data};
use serde_json::{Value, json};

fn games_pgn() -> Vec<u8> {
    std::fs::read(data("recount-games.pgn")).expect("tests/data/recount-games.pgn")
}

fn build_from(pgn: Vec<u8>, dir: &Path, options: &BuildOptions) -> BuildReport {
    build_bytes(pgn, dir, options).expect("the index builds")
}

fn text<'a>(query: &'a Value, name: &str) -> Option<&'a str> {
    query[name].as_str()
}

/// The position a reference query asks: its `fen` (or the start) after
/// its `play`.
fn play_of(query: &Value) -> Play {
    let moves: Vec<&str> = query["play"]
        .as_array()
        .expect("play")
        .iter()
        .map(|mv| mv.as_str().expect("a UCI move"))
        .collect();
    Play::new(text(query, "fen"), &moves).expect("the query's position")
}

/// The explorer's answer in the reference's shape: moves by games (most
/// first) then UCI, the top and recent games by id.
fn answer_json(response: &Response) -> Value {
    let mut moves: Vec<_> = response.moves.iter().collect();
    moves.sort_by(|a, b| {
        let games = |m: &&bitboards_explorer::MoveStats| m.white + m.draws + m.black;
        games(b).cmp(&games(a)).then(a.uci.cmp(&b.uci))
    });
    let moves: Vec<Value> = moves
        .into_iter()
        .map(|m| {
            json!({
                "uci": m.uci,
                "white": m.white,
                "draws": m.draws,
                "black": m.black,
                "averageRating": m.average_rating,
                "game": m.game.as_ref().map(|game| game.id.clone()),
            })
        })
        .collect();
    let ids = |games: &[bitboards_explorer::GameRef]| -> Vec<String> {
        games.iter().map(|game| game.game.id.clone()).collect()
    };
    json!({
        "white": response.white,
        "draws": response.draws,
        "black": response.black,
        "moves": moves,
        "topGames": ids(response.top_games.as_deref().unwrap_or_default()),
        "recentGames": ids(response.recent_games.as_deref().unwrap_or_default()),
        "history": response.history.as_ref().map(|months| {
            months
                .iter()
                .map(|month| {
                    json!({
                        "month": month.month,
                        "white": month.white,
                        "draws": month.draws,
                        "black": month.black,
                    })
                })
                .collect::<Vec<_>>()
        }),
    })
}

/// The first field where `got` differs from `expected`, with both.
fn first_difference(expected: &Value, got: &Value) -> Option<String> {
    for field in [
        "white",
        "draws",
        "black",
        "moves",
        "topGames",
        "recentGames",
        "history",
    ] {
        let (want, have) = (&expected[field], &got[field]);
        if want == have {
            continue;
        }
        if let (Some(want), Some(have)) = (want.as_array(), have.as_array()) {
            for index in 0..want.len().max(have.len()) {
                if want.get(index) != have.get(index) {
                    return Some(format!(
                        "{field}[{index}]: expected {}, got {}\n  expected {field}: {want:?}\n  got {field}: {have:?}",
                        want.get(index).unwrap_or(&Value::Null),
                        have.get(index).unwrap_or(&Value::Null),
                    ));
                }
            }
        }
        return Some(format!("{field}: expected {want}, got {have}"));
    }
    None
}

/// Asks `explorer` every query of the reference; panics with the first
/// differences found. Returns the number of queries.
fn check_reference(explorer: &Explorer, label: &str) -> usize {
    let reference = std::fs::read_to_string(data("recount-reference.jsonl"))
        .expect("tests/data/recount-reference.jsonl");
    let mut failures = Vec::new();
    let mut checked = 0;
    for (number, line) in reference.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let query: Value = serde_json::from_str(line).expect("a JSON line");
        let play = play_of(&query);
        let filter = Filter::parse(
            text(&query, "speeds"),
            text(&query, "ratings"),
            text(&query, "since"),
            text(&query, "until"),
        )
        .expect("the query's filter");
        let count = |name: &str| usize::try_from(query[name].as_u64().expect(name)).unwrap();
        let limits = Limits {
            moves: 100,
            top_games: count("topGames"),
            recent_games: count("recentGames"),
            history: query["history"].as_bool().expect("history"),
        };
        let response = explorer
            .lichess(&play, &filter, &limits)
            .expect("the query answers");
        checked += 1;
        let got = answer_json(&response);
        if let Some(difference) = first_difference(&query["expect"], &got) {
            let mut asked = query.clone();
            asked.as_object_mut().expect("an object").remove("expect");
            failures.push(format!("line {}: {asked}\n  {difference}", number + 1));
        }
    }
    assert!(checked > 0, "no queries in the reference");
    if !failures.is_empty() {
        let shown: Vec<_> = failures.iter().take(8).cloned().collect();
        panic!(
            "{label}: {} of {checked} queries differ from the recount; the first:\n{}",
            failures.len(),
            shown.join("\n")
        );
    }
    checked
}

/// Asks `explorer` every player query of the reference
/// (`tests/data/recount-player-reference.jsonl`); panics with the first
/// differences found.
fn check_player_reference(explorer: &Explorer, label: &str) -> usize {
    let reference = std::fs::read_to_string(data("recount-player-reference.jsonl"))
        .expect("tests/data/recount-player-reference.jsonl");
    let mut failures = Vec::new();
    let mut checked = 0;
    for (number, line) in reference.lines().enumerate() {
        let query: Value = serde_json::from_str(line).expect("a JSON line");
        let play = play_of(&query);
        let filter = PlayerFilter::parse(
            text(&query, "speeds"),
            text(&query, "modes"),
            text(&query, "since"),
            text(&query, "until"),
        )
        .expect("the query's filter");
        let limits = Limits {
            moves: 100,
            top_games: 0,
            recent_games: usize::try_from(query["recentGames"].as_u64().expect("recentGames"))
                .unwrap(),
            history: false,
        };
        let color = if text(&query, "color") == Some("white") {
            Color::White
        } else {
            Color::Black
        };
        let response = explorer
            .player(
                text(&query, "player").expect("player"),
                color,
                &play,
                &filter,
                &limits,
            )
            .expect("the query answers");
        checked += 1;
        let mut moves: Vec<_> = response.moves.iter().collect();
        moves.sort_by(|a, b| {
            let games = |m: &&bitboards_explorer::MoveStats| m.white + m.draws + m.black;
            games(b).cmp(&games(a)).then(a.uci.cmp(&b.uci))
        });
        let got = json!({
            "white": response.white,
            "draws": response.draws,
            "black": response.black,
            "moves": moves.iter().map(|m| json!({
                "uci": m.uci,
                "white": m.white,
                "draws": m.draws,
                "black": m.black,
                "averageOpponentRating": m.average_opponent_rating,
                "performance": m.performance,
                "game": m.game.as_ref().map(|game| game.id.clone()),
            })).collect::<Vec<_>>(),
            "recentGames": response.recent_games.iter().flatten().map(|game| game.game.id.clone()).collect::<Vec<_>>(),
        });
        if got != query["expect"] {
            failures.push(format!(
                "line {}: {}\n  expected {}\n  got {got}",
                number + 1,
                query["player"],
                query["expect"]
            ));
        }
    }
    assert!(checked > 0, "no player queries in the reference");
    assert!(
        failures.is_empty(),
        "{label}: {} of {checked} player queries differ; the first:\n{}",
        failures.len(),
        failures[..failures.len().min(4)].join("\n")
    );
    checked
}

#[test]
fn one_build_on_one_thread() {
    let dir = TempDir::new("one");
    let options = BuildOptions {
        threads: Some(1),
        ..BuildOptions::default()
    };
    build_from(games_pgn(), &dir.0, &options);
    let explorer = Explorer::open(&dir.0).expect("the index opens");
    let checked = check_reference(&explorer, "one build, one thread");
    let players = check_player_reference(&explorer, "one build, one thread");
    eprintln!("{checked} queries and {players} player queries as the recount");
}

#[test]
fn many_segments_on_two_threads() {
    let dir = TempDir::new("segments");
    let options = BuildOptions {
        threads: Some(2),
        segment_games: 97,
        ..BuildOptions::default()
    };
    let report = build_from(games_pgn(), &dir.0, &options);
    assert!(report.segments_written > 1, "{report:?}");
    let explorer = Explorer::open(&dir.0).expect("the index opens");
    assert_eq!(explorer.segment_count(), report.segments_written);
    check_reference(&explorer, "two threads, segments of 97 games");
}

#[test]
fn two_builds_then_merged() {
    let pgn = games_pgn();
    let text = std::str::from_utf8(&pgn).expect("UTF-8");
    // Split at the game boundary nearest the middle.
    let split = text[text.len() / 2..]
        .find("\n\n[Event ")
        .map(|at| text.len() / 2 + at + 2)
        .expect("a game after the middle");
    let dir = TempDir::new("two");
    let options = BuildOptions {
        threads: Some(1),
        ..BuildOptions::default()
    };
    let first = build_from(pgn[..split].to_vec(), &dir.0, &options);
    let second = build_from(pgn[split..].to_vec(), &dir.0, &options);
    let skips: Value = serde_json::from_str(
        &std::fs::read_to_string(data("recount-skips.json")).expect("recount-skips.json"),
    )
    .expect("JSON");
    assert_eq!(
        first.games_read + second.games_read,
        skips["games_read"].as_u64().unwrap()
    );
    assert_eq!(
        first.games_indexed + second.games_indexed,
        skips["games_indexed"].as_u64().unwrap()
    );
    let explorer = Explorer::open(&dir.0).expect("the index opens");
    assert_eq!(explorer.segment_count(), 2);
    check_reference(&explorer, "two builds");
    // Whole answers, names and all, as the index built in one go.
    let whole = TempDir::new("whole");
    build_from(pgn.clone(), &whole.0, &options);
    let one = Explorer::open(&whole.0).expect("the index opens");
    let limits = Limits {
        history: true,
        ..Limits::default()
    };
    for moves in [
        &[][..],
        &["e2e4"],
        &["d2d4", "d7d5"],
        &["e2e4", "e7e5", "g1f3"],
    ] {
        let play = Play::new(None, moves).expect("legal");
        assert_eq!(
            explorer
                .lichess(&play, &Filter::default(), &limits)
                .unwrap(),
            one.lichess(&play, &Filter::default(), &limits).unwrap(),
            "{moves:?}"
        );
    }
    drop(explorer);
    merge(&dir.0).expect("the segments merge");
    let explorer = Explorer::open(&dir.0).expect("the merged index opens");
    assert_eq!(explorer.segment_count(), 1);
    check_reference(&explorer, "two builds, merged");
    check_player_reference(&explorer, "two builds, merged");
}

#[test]
fn skipped_games_as_the_recount() {
    let dir = TempDir::new("skips");
    let report = build_from(games_pgn(), &dir.0, &BuildOptions::default());
    let skips: Value = serde_json::from_str(
        &std::fs::read_to_string(data("recount-skips.json")).expect("recount-skips.json"),
    )
    .expect("JSON");
    let got = json!({
        "games_read": report.games_read,
        "games_indexed": report.games_indexed,
        "skipped": report
            .skipped
            .iter()
            .map(|(skip, count)| (skip.name().to_owned(), json!(count)))
            .collect::<serde_json::Map<_, _>>(),
    });
    assert_eq!(got, skips, "the build's report against the recount's");
    let explorer = Explorer::open(&dir.0).expect("the index opens");
    assert_eq!(explorer.games(), skips["games_indexed"].as_u64().unwrap());
}

/// As lila, which replays a game's first 50 moves and never looks at the
/// rest: a game whose 51st move is illegal is counted (its first 50 plies),
/// one whose third is illegal is left out as unreadable.
#[test]
fn only_the_counted_moves_are_read() {
    let tags = |id: &str| {
        format!(
            "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/{id}\"]\n\
             [Result \"1-0\"]\n[UTCDate \"2024.01.05\"]\n[WhiteElo \"1500\"]\n\
             [BlackElo \"1500\"]\n[TimeControl \"300+0\"]\n\n"
        )
    };
    // 25 turns of knights out and back: 50 plies, then an illegal king
    // move, a comment with a `[` and a `;` comment holding a `{`.
    let mut shuffle = String::new();
    for turn in 0..25 {
        let (white, black) = if turn % 2 == 0 {
            ("Nf3", "Nf6")
        } else {
            ("Ng1", "Ng8")
        };
        shuffle += &format!("{}. {white} {{ [%clk 0:05:00] }} {black} ", turn + 1);
    }
    let pgn = format!(
        "{}{shuffle}26. Ke5 {{ [%eval 0.1] }} ; a {{\n1-0\n\n{}1. e4 e5 2. Ke3 1-0\n\n",
        tags("shuffle1"),
        tags("badthird")
    );
    let dir = TempDir::new("counted-moves");
    let report = build_from(pgn.into_bytes(), &dir.0, &BuildOptions::default());
    assert_eq!((report.games_read, report.games_indexed), (2, 1));
    let skipped: Vec<(&str, u64)> = report
        .skipped
        .iter()
        .filter(|(_, count)| *count > 0)
        .map(|(skip, count)| (skip.name(), *count))
        .collect();
    assert_eq!(skipped, [("unreadable", 1)]);
    let explorer = Explorer::open(&dir.0).expect("the index opens");
    let limits = Limits::default();
    let start = explorer
        .lichess(&Play::new(None, &[]).unwrap(), &Filter::default(), &limits)
        .expect("an answer");
    // The start position's last move in the game was its 49th ply, Nf3.
    let moves: Vec<(&str, u64)> = start
        .moves
        .iter()
        .map(|m| (m.uci.as_str(), m.white))
        .collect();
    assert_eq!(moves, [("g1f3", 1)]);
    // The position after ply 50 (the start again) was left by no counted
    // move: the 51st, illegal, was never read.
    let after_nf3 = explorer
        .lichess(
            &Play::new(None, &["g1f3"]).unwrap(),
            &Filter::default(),
            &limits,
        )
        .expect("an answer");
    let moves: Vec<&str> = after_nf3.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(moves, ["g8f6"]);
}
