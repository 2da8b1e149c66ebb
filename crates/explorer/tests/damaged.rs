//! Damaged indexes and failed builds: a truncated or altered file is a
//! clear error, never a panic or a wrong answer; a build that fails leaves
//! the index as it was.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bitboards_explorer::{
    BuildOptions, Explorer, Filter, IndexError, Limits, Play, build, walk_segment,
};
use bitboards_pgn::{ReadCounter, Source};

mod common;
use common::{TempDir, data};

/// The first `count` games of the recount's file.
fn games(count: usize) -> Vec<u8> {
    let text = std::fs::read_to_string(data("recount-games.pgn")).expect("the games");
    let mut end = 0;
    for _ in 0..count {
        end = text[end + 1..]
            .find("\n\n[Event ")
            .map_or(text.len(), |at| end + 1 + at + 2);
    }
    text.as_bytes()[..end].to_vec()
}

fn build_bytes(pgn: Vec<u8>, dir: &Path) -> Result<bitboards_explorer::BuildReport, IndexError> {
    bitboards_explorer::build_bytes(pgn, dir, &BuildOptions::default())
}

fn segment_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the index")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "bbx"))
        .collect();
    files.sort();
    files
}

fn answer(explorer: &Explorer, moves: &[&str]) -> String {
    let play = Play::new(None, moves).expect("legal");
    let limits = Limits {
        history: true,
        ..Limits::default()
    };
    explorer
        .lichess(&play, &Filter::default(), &limits)
        .expect("an answer")
        .to_json()
}

#[test]
fn every_altered_byte_is_found_and_no_bytes_panic() {
    let dir = TempDir::new("bytes");
    build_bytes(games(8), &dir.0).expect("the index builds");
    every_byte(&std::fs::read(&segment_files(&dir.0)[0]).expect("the segment"));
}

#[test]
fn every_altered_byte_of_a_masters_segment_is_found() {
    // A masters segment's games hold more (their tags), and its rows more
    // games: the same checks.
    let dir = TempDir::new("masters-bytes");
    let text = std::fs::read_to_string(data("masters-games.pgn")).expect("the games");
    let end = text
        .match_indices("\n\n[Event ")
        .nth(9)
        .map_or(text.len(), |(at, _)| at + 2);
    bitboards_explorer::build_bytes(
        text.as_bytes()[..end].to_vec(),
        &dir.0,
        &BuildOptions::masters(),
    )
    .expect("the index builds");
    every_byte(&std::fs::read(&segment_files(&dir.0)[0]).expect("the segment"));
}

/// Each bit flipped (one a byte) in `bytes`, a segment file, is found by
/// its checksums, and decoding it with the checksums made right is an
/// error or an answer, never a panic; every cut is "truncated".
fn every_byte(bytes: &[u8]) {
    let rows = walk_segment(bytes.to_vec(), false).expect("the segment reads whole");
    assert!(rows > 50, "{rows} rows");
    let mut decoded = 0;
    for at in 0..bytes.len() {
        let mut altered = bytes.to_vec();
        altered[at] ^= 1 << (at % 8);
        // As written: the checksums find it.
        assert!(
            matches!(
                walk_segment(altered.clone(), false),
                Err(IndexError::Corrupt { .. })
            ),
            "a flipped bit at byte {at} went unseen"
        );
        // With the checksums made right, the decoder meets the damage: an
        // error or an answer, never a panic.
        if walk_segment(altered, true).is_ok() {
            decoded += 1;
        }
    }
    // Many alterations still decode (a rating, a count of games): they are
    // what the checksums are for.
    assert!(decoded > 0 && decoded < bytes.len());
    for length in (0..bytes.len()).step_by(7) {
        let error = walk_segment(bytes[..length].to_vec(), false).expect_err("cut short");
        assert!(error.to_string().contains("truncated"), "{length}: {error}");
        let _ = walk_segment(bytes[..length].to_vec(), true);
    }
}

#[test]
fn a_damaged_segment_is_an_error_naming_its_file() {
    let dir = TempDir::new("open");
    build_bytes(games(40), &dir.0).expect("the index builds");
    let file = segment_files(&dir.0)[0].clone();
    let bytes = std::fs::read(&file).expect("the segment");
    std::fs::write(&file, &bytes[..bytes.len() / 2]).expect("cut");
    let error = Explorer::open(&dir.0).err().expect("a truncated segment");
    let message = error.to_string();
    assert!(message.contains(&file.display().to_string()), "{message}");
    assert!(message.contains("truncated"), "{message}");
    let mut altered = bytes.clone();
    let middle = altered.len() / 2;
    altered[middle] ^= 0x10;
    std::fs::write(&file, &altered).expect("altered");
    let message = Explorer::open(&dir.0)
        .err()
        .expect("an altered segment")
        .to_string();
    assert!(message.contains("checksum mismatch"), "{message}");
    std::fs::write(dir.0.join("MANIFEST"), "not a manifest\n").expect("manifest");
    let message = Explorer::open(&dir.0)
        .err()
        .expect("a bad manifest")
        .to_string();
    assert!(message.contains("MANIFEST"), "{message}");
    std::fs::remove_file(dir.0.join("MANIFEST")).expect("removed");
    assert!(matches!(
        Explorer::open(&dir.0),
        Err(IndexError::NoIndex(_))
    ));
}

#[test]
fn a_failed_build_leaves_the_index_as_it_was() {
    let dir = TempDir::new("failed");
    build_bytes(games(60), &dir.0).expect("the index builds");
    let before = Explorer::open(&dir.0).expect("opens");
    let answers: Vec<String> = [&[][..], &["e2e4"], &["d2d4"]]
        .iter()
        .map(|moves| answer(&before, moves))
        .collect();
    drop(before);
    // More games, then a file that is not there: the build fails before it
    // writes anything.
    let more = Source::Bytes(Arc::from(games(120)));
    let missing = Source::File(dir.0.join("missing.pgn.zst"));
    let options = BuildOptions {
        segment_games: 10,
        ..BuildOptions::default()
    };
    let error = build(&[more, missing], &dir.0, &options, &ReadCounter::default())
        .expect_err("a missing file");
    assert!(
        error.to_string().contains("missing.pgn.zst: no such file"),
        "{error}"
    );
    assert_eq!(segment_files(&dir.0).len(), 1, "no segment is left behind");
    let after = Explorer::open(&dir.0).expect("opens");
    for (moves, before) in [&[][..], &["e2e4"], &["d2d4"]].iter().zip(&answers) {
        assert_eq!(&answer(&after, moves), before);
    }
    // More games, then a zstd stream cut short: the build fails after
    // writing segments for the games before, and they go with it.
    let mut cut = vec![0x28, 0xb5, 0x2f, 0xfd];
    cut.extend_from_slice(&[0x17; 64]);
    let junk = Source::Bytes(Arc::from(cut));
    let more = Source::Bytes(Arc::from(games(120)));
    let error =
        build(&[more, junk], &dir.0, &options, &ReadCounter::default()).expect_err("not PGN");
    assert!(!error.to_string().is_empty());
    assert_eq!(segment_files(&dir.0).len(), 1, "no segment is left behind");
    let after = Explorer::open(&dir.0).expect("opens");
    assert_eq!(answer(&after, &["e2e4"]), answers[1]);
    drop(after);
    // A build killed half way leaves files the manifest does not list: they
    // are not read, and the next build removes them.
    std::fs::write(dir.0.join("segment-000099.bbx"), b"half a segment").expect("stray");
    std::fs::write(dir.0.join("segment-000100.partial"), b"half").expect("stray");
    let after = Explorer::open(&dir.0).expect("opens");
    assert_eq!(after.segment_count(), 1);
    drop(after);
    build_bytes(games(5), &dir.0).expect("builds");
    assert!(!dir.0.join("segment-000099.bbx").exists());
    assert!(!dir.0.join("segment-000100.partial").exists());
    assert_eq!(Explorer::open(&dir.0).expect("opens").segment_count(), 2);
}

#[test]
fn a_build_that_counts_other_plies_is_refused() {
    let dir = TempDir::new("plies");
    build_bytes(games(5), &dir.0).expect("builds");
    let options = BuildOptions {
        max_ply: 20,
        ..BuildOptions::default()
    };
    let error = build(
        &[Source::Bytes(Arc::from(games(5)))],
        &dir.0,
        &options,
        &ReadCounter::default(),
    )
    .expect_err("another max ply");
    assert!(matches!(error, IndexError::Mismatch(_)), "{error}");
}
