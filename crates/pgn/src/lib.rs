//! PGN (Portable Game Notation) for the `bitboards` chess crate: reading
//! game files as a stream of events or of games, on one thread or on every
//! core, plain or compressed, and writing them back; annotations as values
//! and games as table rows for data work.
//!
//! [`Reader`] reads from any [`std::io::BufRead`] through one fixed-size
//! buffer, so memory stays the same however large the file is. It hands
//! each game to a [`Visitor`] as it goes: tags, moves (the SAN text, the
//! move it resolves to and the positions around it), comments, NAGs,
//! variations (entered or skipped, as the visitor says), the result. Nothing
//! is built that the visitor does not build. [`Reader::games`] is the
//! convenience on top: an iterator of [`PgnGame`]s.
//!
//! A game that breaks the rules of PGN or of chess is a [`PgnError`] naming
//! the game number, line, column and byte offset; the reader then skips to
//! the next game and goes on. Only an I/O error stops it ([`ReadError::Io`]),
//! or an input that is not PGN at all ([`ReadError::NotPgn`]).
//!
//! [`open`] and [`decompress`] read zstd, gzip and bzip2 streams, found by
//! their first bytes; [`ParallelReader`] reads one input on several
//! threads and delivers its games in order; [`annotations`] reads `[%clk]`,
//! `[%emt]`, `[%eval]`, `[%csl]` and `[%cal]`; [`record`] turns games into
//! rows, which [`csv`] and (feature `parquet`) `table` write.
//!
//! # Features
//! - `zstd`, `gzip`, `bzip2` (default): reading compressed input.
//! - `arrow`: game rows as Arrow record batches (`table::GamesBuilder`).
//! - `parquet`: Parquet files of games (`table::ParquetWriter`); implies
//!   `arrow`.
//!
//! [`Writer`] writes tags, movetext with move numbers wrapped at 80
//! columns, comments, NAGs, variations and the result.
//!
//! ```
//! use bitboards_pgn::Reader;
//!
//! let pgn = "[Event \"Casual\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 {oops} Qh4# 0-1\n";
//! let games: Vec<_> = Reader::new(pgn.as_bytes()).games().collect::<Result<_, _>>()?;
//! assert_eq!(games.len(), 1);
//! assert_eq!(games[0].tag("Event"), Some("Casual"));
//! assert_eq!(games[0].mainline.moves().len(), 4);
//! assert_eq!(games[0].comments, [(3, "oops".to_string())]);
//! assert_eq!(games[0].mainline.outcome().map(|outcome| outcome.result()), Some("0-1"));
//! # Ok::<(), bitboards_pgn::ReadError>(())
//! ```

#![deny(unsafe_code)]
#![warn(missing_docs)]

// The README's examples run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

pub mod annotations;
pub mod book;
#[cfg(feature = "arrow")]
mod columns;
pub mod csv;
mod error;
mod game;
mod input;
mod open;
mod parallel;
#[cfg(feature = "arrow")]
pub mod positions;
mod reader;
pub mod record;
mod result;
mod source;
mod staged;
#[cfg(feature = "arrow")]
pub mod table;
mod text;
mod visitor;
mod writer;

pub use error::{PgnError, PgnErrorKind, ReadError};
pub use game::{Games, PgnGame};
pub use open::{Compression, MappedFile, decompress, decompress_in_background, open};
pub use parallel::{Chunk, ParallelReader, default_thread_count};
pub use reader::{Reader, is_chess960_variant, is_standard_variant};
pub use result::{GameResult, ParseResultError};
pub use source::{ReadCounter, Source};
pub use staged::StagedFile;
pub use visitor::{PgnMove, Visit, Visitor};
pub use writer::Writer;
