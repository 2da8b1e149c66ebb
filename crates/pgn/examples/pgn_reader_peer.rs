//! The peer the game-data issue names: the short program a user writes with
//! pgn-reader 0.29 and shakmaty 0.30 to replay every game of a PGN file to
//! its final position, printing one JSON line per game (plies and final
//! FEN), as `bitboards pgn FILE --format json` does. Only for timing the
//! command against it (`tests/python/bench_users.py`); pgn-reader is GPL-3.0
//! and a dev-dependency, never linked into the crate.
//!
//! ```text
//! cargo run --release -p bitboards-pgn --example pgn_reader_peer -- games.pgn > /dev/null
//! ```

use std::io::{BufWriter, Write};
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// Each game's final position and ply count.
struct LastPosition;

impl Visitor for LastPosition {
    type Tags = Option<Chess>;
    type Movetext = (Chess, usize);
    type Output = Option<(Chess, usize)>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            *tags = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Standard).ok());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue((tags.unwrap_or_default(), 0))
    }

    fn begin_variation(&mut self, _: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn san(
        &mut self,
        (position, plies): &mut Self::Movetext,
        san: SanPlus,
    ) -> ControlFlow<Self::Output> {
        match san.san.to_move(position) {
            Ok(mv) => {
                position.play_unchecked(mv);
                *plies += 1;
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(None),
        }
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        Some(movetext)
    }
}

fn main() -> std::io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .expect("usage: pgn_reader_peer FILE");
    let mut reader = Reader::new(std::fs::File::open(path)?);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut number = 0;
    while let Some(game) = reader.read_game(&mut LastPosition)? {
        number += 1;
        match game {
            Some((position, plies)) => writeln!(
                out,
                "{{\"game\": {number}, \"plies\": {plies}, \"fen\": \"{}\"}}",
                Fen::from_position(&position, EnPassantMode::Legal)
            )?,
            None => eprintln!("game {number}: an illegal move"),
        }
    }
    out.flush()
}
