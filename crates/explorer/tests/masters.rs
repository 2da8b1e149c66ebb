//! A masters index against an independent recount:
//! `tests/python/recount_masters.py` counts the games of
//! `tests/data/masters-games.pgn` with python-chess by the rules of
//! lila-openingexplorer's masters import and writes what `/masters` must
//! answer for each of its queries (`masters-reference.jsonl`), the PGN of
//! each game with a `LichessId` (`masters-pgn.jsonl`) and the games left
//! out (`masters-skips.json`). Each index built here (in one go; on two
//! threads in many segments; in two builds, the second meeting games the
//! first indexed; merged) must answer as the recount does.

use bitboards_explorer::{BuildOptions, BuildReport, Explorer, Limits, Play, build_bytes, merge};

mod common;
use common::{TempDir, data};
use serde_json::{Value, json};

fn read(name: &str) -> String {
    std::fs::read_to_string(data(name)).expect("the recount's data")
}

fn lines(name: &str) -> Vec<Value> {
    read(name)
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect()
}

/// A game as the recount names it: players, ratings, year and month.
fn name_of(game: &bitboards_explorer::GameInfo) -> String {
    format!(
        "{}|{}|{}|{}|{}|{}",
        game.white.name,
        game.black.name,
        game.white.rating,
        game.black.rating,
        game.year,
        game.month.as_deref().unwrap_or("")
    )
}

fn check(explorer: &Explorer, how: &str) {
    let references = lines("masters-reference.jsonl");
    assert!(references.len() > 400, "the reference has its queries");
    let mut failures = Vec::new();
    for query in &references {
        let play: Vec<&str> = query["play"]
            .as_array()
            .expect("play")
            .iter()
            .map(|mv| mv.as_str().expect("UCI"))
            .collect();
        let play = Play::new(query["fen"].as_str(), &play).expect("the query's position");
        let year = |name: &str| query[name].as_u64().map(|year| year as u16);
        let limits = Limits {
            moves: query["moves"].as_u64().unwrap() as usize,
            top_games: query["topGames"].as_u64().unwrap() as usize,
            ..Limits::masters()
        };
        let response = explorer
            .masters(&play, year("since"), year("until"), &limits)
            .expect("an answer");
        assert!(response.recent_games.is_none() && response.history.is_none());
        let got = json!({
            "white": response.white,
            "draws": response.draws,
            "black": response.black,
            "moves": response.moves.iter().map(|m| json!({
                "uci": m.uci,
                "white": m.white,
                "draws": m.draws,
                "black": m.black,
                "averageRating": m.average_rating,
                "game": m.game.as_ref().map(name_of),
            })).collect::<Vec<_>>(),
            "topGames": response.top_games.as_ref().expect("top games").iter()
                .map(|game| json!([game.uci, name_of(&game.game)])).collect::<Vec<_>>(),
        });
        if got != query["expect"] {
            failures.push(format!(
                "{:?} {:?} {:?}-{:?}:\n  got    {got}\n  expect {}",
                query["fen"], query["play"], query["since"], query["until"], query["expect"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{how}: {} of {} queries differ from the recount; first:\n{}",
        failures.len(),
        references.len(),
        failures[0]
    );
    let pgns = lines("masters-pgn.jsonl");
    assert!(pgns.len() > 50);
    for game in &pgns {
        let id = game["id"].as_str().unwrap();
        let pgn = explorer.masters_pgn(id).expect("no damage");
        assert_eq!(
            pgn.as_deref(),
            game["pgn"].as_str(),
            "{how}: the PGN of {id}"
        );
    }
    assert_eq!(explorer.masters_pgn("nosuchid").expect("no damage"), None);
}

fn skips_json(reports: &[BuildReport]) -> Value {
    let mut skipped = serde_json::Map::new();
    for report in reports {
        for (skip, count) in &report.skipped {
            let entry = skipped.entry(skip.name()).or_insert(json!(0));
            *entry = json!(entry.as_u64().unwrap() + count);
        }
    }
    json!({
        "games_read": reports.iter().map(|r| r.games_read).sum::<u64>(),
        "games_indexed": reports.iter().map(|r| r.games_indexed).sum::<u64>(),
        "skipped": skipped,
    })
}

#[test]
fn a_masters_index_answers_as_the_recount() {
    let pgn = read("masters-games.pgn");
    let expected_skips: Value = serde_json::from_str(&read("masters-skips.json")).unwrap();

    let dir = TempDir::new("masters-one");
    let report = build_bytes(pgn.clone().into_bytes(), &dir.0, &BuildOptions::masters())
        .expect("the index builds");
    assert_eq!(skips_json(&[report]), expected_skips, "the games left out");
    let explorer = Explorer::open(&dir.0).expect("the index opens");
    assert!(explorer.is_masters());
    check(&explorer, "one build");

    let dir = TempDir::new("masters-segments");
    let options = BuildOptions {
        threads: Some(2),
        segment_games: 37,
        ..BuildOptions::masters()
    };
    build_bytes(pgn.clone().into_bytes(), &dir.0, &options).expect("the index builds");
    let explorer = Explorer::open(&dir.0).expect("the index opens");
    assert!(explorer.segment_count() > 5);
    check(&explorer, "many segments, two threads");

    // Two builds: the second meets games the first indexed.
    let dir = TempDir::new("masters-two");
    let middle = pgn[pgn.len() / 2..].find("\n\n[Event ").unwrap() + pgn.len() / 2 + 2;
    let first = build_bytes(
        pgn.as_bytes()[..middle].to_vec(),
        &dir.0,
        &BuildOptions::masters(),
    )
    .expect("the first build");
    let second = build_bytes(
        pgn.as_bytes()[middle..].to_vec(),
        &dir.0,
        &BuildOptions::masters(),
    )
    .expect("the second build");
    assert_eq!(skips_json(&[first, second]), expected_skips, "two builds");
    check(&Explorer::open(&dir.0).unwrap(), "two builds");
    merge(&dir.0).expect("the segments merge");
    let explorer = Explorer::open(&dir.0).unwrap();
    assert_eq!(explorer.segment_count(), 1);
    check(&explorer, "two builds, merged");
}

#[test]
fn a_masters_build_does_not_mix_with_a_lichess_index() {
    let dir = TempDir::new("masters-mix");
    let pgn = read("masters-games.pgn").into_bytes();
    build_bytes(pgn.clone(), &dir.0, &BuildOptions::masters()).expect("the index builds");
    let error = build_bytes(pgn, &dir.0, &BuildOptions::default()).unwrap_err();
    assert!(error.to_string().contains("masters"), "{error}");
}
