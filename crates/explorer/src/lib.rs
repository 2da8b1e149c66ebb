//! An opening explorer of your own games: every move played from a
//! position, how often, how it scored and at what rating, with the games,
//! from an index built from PGN files on every core, and answered as
//! Lichess's explorer answers (`GET /lichess`, `GET /player`).
//!
//! The index counts games as Lichess's explorer (lila-openingexplorer)
//! counts its own: standard chess, no bots, a known result, both ratings,
//! a month and a time control; the first 50 plies; a position that recurs
//! in a game counts once, with the move played from it last; positions
//! compared with en passant only when a capture is legal. Each move is
//! kept by month, speed and rating group, so any filter of those answers
//! exactly what filtering the games first would.
//!
//! A masters index (`BuildOptions::masters`) counts games as Lichess's
//! masters explorer does: over-the-board games whose players' midpoint
//! rating is 2200 and up, by year, every ply, with the top games by
//! rating ([`Explorer::masters`], `GET /masters`) and each game given back
//! as PGN ([`Explorer::masters_pgn`]).
//!
//! An index is a directory of segments (one per build, or per 400,000
//! games of one), listed by a manifest that is replaced only when a build
//! has written all of its segments: a second build adds games, a stopped
//! one leaves the index as it was, and [`merge`] makes one segment of
//! many.
//!
//! ```
//! use bitboards_explorer::{BuildOptions, Explorer, Filter, Limits, Play, Speed};
//!
//! let dir = std::env::temp_dir().join(format!("explorer-lib-{}", std::process::id()));
//! let game = |site: &str, result: &str, tc: &str, moves: &str| format!(
//!     "[Site \"https://lichess.org/{site}\"]\n[White \"alice\"]\n[Black \"bob\"]\n[Result \"{result}\"]\n\
//!      [WhiteElo \"1800\"]\n[BlackElo \"1700\"]\n[UTCDate \"2024.02.03\"]\n[TimeControl \"{tc}\"]\n\n{moves} {result}\n\n");
//! let pgn = game("aaaaaaaa", "1-0", "180+0", "1. e4 e5 2. Nf3") + &game("bbbbbbbb", "0-1", "60+0", "1. e4 c5");
//! bitboards_explorer::build_bytes(pgn.into_bytes(), &dir, &BuildOptions::default())?;
//!
//! let explorer = Explorer::open(&dir)?;
//! let after_e4 = Play::new(None, &["e2e4"])?;
//! let all = explorer.lichess(&after_e4, &Filter::default(), &Limits::default())?;
//! assert_eq!((all.white, all.draws, all.black), (1, 0, 1));
//! let blitz = Filter { speeds: Some(vec![Speed::Blitz]), ..Filter::default() };
//! let answer = explorer.lichess(&after_e4, &blitz, &Limits::default())?;
//! assert_eq!(answer.moves.len(), 1);
//! assert_eq!(answer.moves[0].san, "e5");
//! assert_eq!(answer.opening.unwrap().name, "King's Pawn Game");
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

mod build;
mod format;
mod game;
mod index;
mod key;
mod model;
mod openings;
mod pgn;
mod query;
mod read;
pub mod tablebase;
mod write;

use std::path::PathBuf;

pub use build::{BuildOptions, BuildReport, book, build, build_bytes, merge, merge_indexes};
pub use game::{GameReader, GameRecord, MastersTags, Skip};
pub use index::{Explorer, PlayerFilter};
pub use key::Key;
pub use model::{Month, ParseError, RatingGroup, Speed, Stats, Winner, parse_year};
pub use openings::{Opening, Openings};
pub use query::{
    Filter, GameInfo, GameRef, HistoryMonth, Limits, MoveStats, Play, PlayError, Player, Response,
};

/// Reads `bytes` as a segment file, its checksums first made right when
/// `reseal`, and walks all of it: every game, every player's games, every
/// position's rows (read in order, and looked up by key), each game a row
/// names. Returns the number of rows read. For the fuzz target and the
/// tests of damaged files: whatever the bytes, an error or an answer,
/// never a panic.
///
/// # Errors
/// What [`Explorer::open`] finds wrong with such a file.
#[doc(hidden)]
pub fn walk_segment(mut bytes: Vec<u8>, reseal: bool) -> Result<u64, IndexError> {
    if reseal {
        format::reseal(&mut bytes);
    }
    let segment = read::Segment::from_bytes(bytes, std::path::Path::new("<bytes>"))?;
    for index in 0..u32::try_from(segment.games()).unwrap_or(u32::MAX) {
        segment.game(index)?;
    }
    for name in segment.player_names()? {
        for (index, _) in segment.player_games(name)? {
            segment.game(index)?;
        }
    }
    let mut keys = Vec::new();
    let mut rows = 0u64;
    let mut failure = None;
    segment.for_each_key(|key_rows| {
        rows += key_rows.len() as u64;
        if let Some(row) = key_rows.first() {
            keys.push(row.key);
        }
        for row in key_rows {
            for &game in row.games() {
                if let Err(error) = segment.game(game) {
                    failure.get_or_insert(error);
                }
            }
        }
    })?;
    if let Some(error) = failure {
        return Err(error);
    }
    let mut found = Vec::new();
    for key in keys {
        found.clear();
        segment.rows(key, &mut found)?;
    }
    Ok(rows)
}

/// The segment file `bytes` with its body stored plain (not compressed),
/// checksums made right: what the tests and the fuzz target alter, so that
/// the decoder, not the decompressor, meets the damage.
///
/// # Errors
/// What [`Explorer::open`] finds wrong with `bytes`.
#[doc(hidden)]
pub fn uncompressed_segment(bytes: &[u8]) -> Result<Vec<u8>, IndexError> {
    format::uncompressed(bytes)
}

/// What goes wrong with an index.
#[derive(Debug)]
pub enum IndexError {
    /// There is no index in the directory (no `MANIFEST`).
    NoIndex(PathBuf),
    /// A file cannot be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// A file of the index is truncated or damaged.
    Corrupt {
        /// The file.
        file: PathBuf,
        /// What is wrong, and where.
        detail: String,
    },
    /// A build that does not fit the index it adds to.
    Mismatch(String),
}

impl core::fmt::Display for IndexError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            IndexError::NoIndex(dir) => {
                write!(f, "no explorer index in {} (no MANIFEST)", dir.display())
            }
            IndexError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            IndexError::Corrupt { file, detail } => {
                write!(f, "{}: damaged explorer index: {detail}", file.display())
            }
            IndexError::Mismatch(detail) => f.write_str(detail),
        }
    }
}

impl std::error::Error for IndexError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IndexError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}
