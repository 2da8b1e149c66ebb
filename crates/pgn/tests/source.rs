//! `Source::open`: the same games from a plain or compressed file, plain or
//! compressed bytes, on one thread or two; every byte counted; nothing read
//! once the counter is stopped; a missing file an error that names it.
#![cfg(feature = "gzip")]

use std::io::Write;

use bitboards_pgn::{ReadCounter, Source, Visitor};

/// A visitor that keeps nothing: the games are counted by `for_each`.
struct Nothing;

impl Visitor for Nothing {}

/// 300 short games, each with a different last move.
fn pgn() -> Vec<u8> {
    let mut text = String::new();
    for game in 0..300 {
        let last = ["Nf3", "Nc3", "d3"][game % 3];
        text.push_str(&format!("[Event \"{game}\"]\n\n1. e4 e5 2. {last} *\n\n"));
    }
    text.into_bytes()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// (games, failed games, bytes counted) of `source` on `threads` threads.
fn read(source: &Source, threads: usize, counter: &ReadCounter) -> (usize, usize, u64) {
    let (mut games, mut failed) = (0, 0);
    source
        .open(Some(threads), counter)
        .unwrap()
        .for_each(
            || Nothing,
            |_| (),
            |_, game| {
                games += 1;
                failed += usize::from(game.is_err());
            },
        )
        .unwrap();
    (games, failed, counter.bytes())
}

#[test]
fn every_kind_of_source_gives_the_same_games_and_counts_its_bytes() {
    let dir = std::env::temp_dir().join(format!("bitboards-source-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plain = pgn();
    let zipped = gzip(&plain);
    let (plain_path, zipped_path) = (dir.join("games.pgn"), dir.join("games.pgn.gz"));
    std::fs::write(&plain_path, &plain).unwrap();
    std::fs::write(&zipped_path, &zipped).unwrap();
    let sources = [
        (Source::File(plain_path.clone()), plain.len()),
        (Source::File(zipped_path), zipped.len()),
        (Source::Bytes(plain.clone().into()), plain.len()),
        (Source::Bytes(zipped.clone().into()), zipped.len()),
    ];
    for (source, size) in &sources {
        assert_eq!(source.size(), Some(*size as u64), "{}", source.name());
        for threads in [1, 2] {
            let counter = ReadCounter::default();
            let read = read(source, threads, &counter);
            assert_eq!(
                read,
                (300, 0, *size as u64),
                "{} on {threads}",
                source.name()
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stopped_counter_ends_the_read_at_the_next_chunk() {
    let plain = pgn();
    for source in [
        Source::Bytes(plain.clone().into()),
        Source::Bytes(gzip(&plain).into()),
    ] {
        let counter = ReadCounter::default();
        counter.stop();
        assert!(counter.is_stopped());
        let mut games = 0;
        source
            .open(Some(1), &counter)
            .unwrap()
            .chunk_size(1000)
            .for_each(|| Nothing, |_| (), |_, _| games += 1)
            .unwrap();
        // Text in memory: the chunks cut before the flag is heard (a
        // chunk is at least 1000 bytes, about 14 games, of the 300 games'
        // 20,400). A stream: nothing is read at all.
        let streamed = !matches!(source.size(), Some(size) if size == plain.len() as u64);
        if streamed {
            assert_eq!(games, 0);
        } else {
            assert!((1..100).contains(&games), "{games} games");
        }
    }
}

#[test]
fn a_missing_file_is_an_error_and_has_no_size() {
    let source = Source::from_arg("no/such/games.pgn");
    assert_eq!(source.name(), "no/such/games.pgn");
    assert_eq!(source.size(), None);
    let error = source
        .open(Some(1), &ReadCounter::default())
        .err()
        .expect("an error");
    assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
    assert!(matches!(Source::from_arg("-"), Source::Stdin));
}

/// A named pipe (what `<(zstdcat games.pgn.zst)` hands a command) cannot be
/// mapped: it is streamed, from its first byte.
#[cfg(unix)]
#[test]
fn a_named_pipe_is_streamed_whole() {
    let dir = std::env::temp_dir().join(format!("bitboards-pgn-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("games.pgn");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let bytes = pgn();
    let writer = {
        let (fifo, bytes) = (fifo.clone(), bytes.clone());
        std::thread::spawn(move || std::fs::write(fifo, bytes).expect("written to the pipe"))
    };
    let counter = ReadCounter::default();
    let (games, failed, counted) = read(&Source::File(fifo.clone()), 2, &counter);
    writer.join().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!((games, failed), (300, 0));
    assert_eq!(counted, bytes.len() as u64);
}
