//! PGN: the streaming reader (`bitboards_pgn::Reader`) over any bytes, as
//! a `&[u8]` `BufRead`, to the end. It never panics and always gets to the
//! end.
//!
//! - Through a visitor that enters every variation, with the smallest
//!   buffer (64 bytes, so tokens straddle refills): games are numbered 1,
//!   2, ..., bad ones included; each move is legal where it is played,
//!   leads to the position reported after it, and its SAN text reads back
//!   to it; variations open and close in pairs; an error names the game
//!   being read and a line and column from 1, within the input.
//! - Through `Reader::games` (the default buffer): each game read is
//!   written (`Writer::write_game`) and read back without error, to the
//!   same start position and moves; writing that again gives the same text.
//! - Null moves and UCI text read as themselves; every comment's one-pass
//!   `Annotations::parse` agrees with `clock`, `emt` and `eval`.
//! - The same bytes through `decompress` (zstd, gzip, bzip2 when they start
//!   like one; 1 MB of output at most) and the reader: no panic.
#![no_main]

use std::io::Read as _;

use bitboards_pgn::annotations::{self, Annotations};
use bitboards_pgn::{PgnGame, PgnMove, ReadError, Reader, Visit, Visitor};
use libfuzzer_sys::fuzz_target;

#[derive(Default)]
struct Checker {
    game: usize,
    depth: usize,
}

impl Visitor for Checker {
    fn begin_game(&mut self, number: usize) {
        assert_eq!(number, self.game + 1, "games are numbered in order");
        self.game = number;
        self.depth = 0;
    }

    fn san(&mut self, played: PgnMove<'_>) {
        let PgnMove {
            before,
            after,
            san,
            mv,
        } = played;
        if mv.is_null() {
            // `--`, `Z0`, `0000` or `@@@@`: a pass, never out of check.
            assert!(matches!(san, "--" | "Z0" | "0000" | "@@@@"), "{san:?}");
            assert_eq!(
                before.null_move().as_ref(),
                Some(after),
                "{san:?} in {}",
                before.fen()
            );
            return;
        }
        assert!(
            before.is_legal(mv),
            "{san:?} read as illegal {mv:?} in {}",
            before.fen()
        );
        assert_eq!(
            before.play_unchecked(mv),
            *after,
            "{san:?} in {}",
            before.fen()
        );
        // SAN, or else UCI (which real files write too).
        let read_back = before
            .parse_san(san)
            .or_else(|_| before.parse_uci(san).map_err(|_| ()));
        assert_eq!(read_back, Ok(mv), "{san:?} in {}", before.fen());
    }

    fn comment(&mut self, text: &str) {
        // The one-pass reading of a comment's commands agrees with the
        // three single readings.
        let found = Annotations::parse(text);
        assert_eq!(
            found.clock.map(f64::to_bits),
            annotations::clock(text).map(f64::to_bits)
        );
        assert_eq!(
            found.emt.map(f64::to_bits),
            annotations::emt(text).map(f64::to_bits)
        );
        assert_eq!(found.eval, annotations::eval(text));
        for arrow in annotations::arrows(text) {
            let _ = (arrow.tail, arrow.head);
        }
    }

    fn begin_variation(&mut self) -> Visit {
        self.depth += 1;
        Visit::Enter
    }

    fn end_variation(&mut self) {
        assert!(self.depth > 0, "a variation ends that did not begin");
        self.depth -= 1;
    }

    fn end_game(&mut self, _: &bitboards::Position) {
        assert_eq!(self.depth, 0, "a game ends inside a variation");
    }
}

/// Every game of `pgn`, read by `Reader::games`.
fn games(pgn: &[u8]) -> Vec<Result<PgnGame, ReadError>> {
    Reader::new(pgn).games().collect()
}

/// The games written by `Writer::write_game`, one after the other.
fn write(games: &[PgnGame]) -> String {
    games.iter().map(PgnGame::to_string).collect()
}

fuzz_target!(|data: &[u8]| {
    let lines = 1 + data.iter().filter(|&&b| b == b'\n' || b == b'\r').count();
    let mut reader = Reader::with_capacity(64, data);
    let mut checker = Checker::default();
    let mut calls = 0;
    loop {
        calls += 1;
        assert!(calls <= data.len() + 2, "the reader makes no progress");
        match reader.read_game(&mut checker) {
            Ok(true) => {}
            Ok(false) => break,
            Err(ReadError::Game(error)) => {
                let message = error.to_string();
                assert_eq!(error.game(), checker.game, "{message}");
                assert!(error.column() >= 1, "{message}");
                assert!((1..=lines as u64).contains(&error.line()), "{message}");
            }
            // Not PGN at all: one error, then nothing more.
            Err(ReadError::NotPgn { .. }) => {
                assert!(matches!(reader.read_game(&mut checker), Ok(false)));
                break;
            }
            Err(error) => panic!("a slice cannot fail to read: {error}"),
        }
    }

    // The same bytes as a compressed stream, if they are one: decompressed
    // (at most 1 MB of it) and read, without panicking.
    if let Ok(input) = bitboards_pgn::decompress(data) {
        let mut reader = Reader::new(std::io::BufReader::new(input.take(1 << 20)));
        let mut checker = Checker::default();
        loop {
            match reader.read_game(&mut checker) {
                Ok(true) | Err(ReadError::Game(_)) => {}
                Ok(false) | Err(_) => break,
            }
        }
    }

    let first: Vec<PgnGame> = games(data).into_iter().filter_map(Result::ok).collect();
    let written = write(&first);
    let second: Vec<PgnGame> = games(written.as_bytes())
        .into_iter()
        .map(|game| game.unwrap_or_else(|error| panic!("{error} in what was written:\n{written}")))
        .collect();
    assert_eq!(first.len(), second.len(), "games written:\n{written}");
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(a.mainline, b.mainline, "written:\n{written}");
    }
    assert_eq!(write(&second), written, "written twice");
});
