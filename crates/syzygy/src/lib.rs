//! Syzygy endgame tablebases for the `bitboards` chess crate: win, draw or
//! loss ([`Wdl`]) and the distance to the next capture or pawn move
//! ([`Dtz`]) of every position of up to seven pieces, read from the
//! standard table files (`KQvKR.rtbw`, `KQvKR.rtbz`), in Rust, under MIT OR
//! Apache-2.0.
//!
//! A [`Tablebase`] finds its tables by name in the directories it is given
//! and opens each the first time a probe needs it: a memory map and a
//! header read. It is `Sync`: every thread of a search or of a batch job
//! probes the same tables. The answers mean what python-chess's
//! `chess.syzygy` and Stockfish's mean: from the side to move, under the
//! fifty-move rule, from a position just reached by a zeroing move.
//!
//! A table that is not there, a file that is not a table or is cut short,
//! a position with castling rights or too many pieces: each is a
//! [`SyzygyError`] that says what and where. A corrupted table never makes
//! a probe panic or read out of bounds.
//!
//! ```
//! use bitboards::Position;
//! use bitboards_syzygy::{Dtz, Tablebase, Wdl};
//!
//! let mut tables = Tablebase::new();
//! // The repository's test tables: every table of three and four pieces.
//! tables.add_directory("../../tests/data/syzygy")?;
//! // White's king and rook against the king: won, 25 plies to zeroing.
//! let position = Position::from_fen("8/8/8/8/4k3/8/8/R3K3 w - - 0 1")?;
//! assert_eq!(tables.probe_wdl(&position)?, Wdl::Win);
//! assert_eq!(tables.probe_dtz(&position)?, Dtz(25));
//! let best = &tables.best_moves(&position)?[0];
//! assert_eq!(position.san(best.mv).to_string(), "Ra5");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The README's examples run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

mod answers;
mod encoding;
mod error;
mod probe;
mod table;
#[cfg(test)]
mod tests;

pub use answers::{Dtz, RankedMove, Wdl};
pub use error::SyzygyError;
pub use probe::{MAX_PIECES, Tablebase, table_name};
