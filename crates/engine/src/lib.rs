//! A UCI chess engine client for [`bitboards`]: start an engine process
//! (Stockfish, Lc0, any UCI engine), check its options, analyse positions
//! and games, play moves, with a deadline on every wait and a typed error
//! for every fault.
//!
//! ```no_run
//! use bitboards::Position;
//! use bitboards_engine::{Engine, Limit};
//!
//! let mut engine = Engine::start("/usr/games/stockfish", [] as [&str; 0])?;
//! println!("{}", engine.name().unwrap_or("an engine"));
//! engine.set_option("Hash", 64)?;
//! engine.new_game()?;
//!
//! // Three PVs at 100,000 nodes: each with its depth, score and legal moves.
//! let analysis = engine.analyse(&Position::START, &Limit::nodes(100_000), 3)?;
//! for info in &analysis.infos {
//!     let moves: Vec<String> = info.pv.iter().map(|mv| mv.to_string()).collect();
//!     println!("{} depth {:?} {:?}: {}", info.multipv, info.depth, info.white_score(), moves.join(" "));
//! }
//! println!("best {:?}", analysis.best);
//!
//! // Or watch the info lines as they arrive, and only take the move.
//! let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
//! let position = Position::from_fen(fen)?;
//! engine.analyse_with(&position, &Limit::depth(10), 1, |info| {
//!     if let Some(score) = info.score {
//!         println!("depth {:?}: {score}", info.depth);
//!     }
//! })?;
//! let mv = engine.play(&position, &Limit::nodes(10_000))?; // h5f7, mate
//! println!("{}", position.uci(mv));
//! engine.quit()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Python-chess's `chess.engine` is the behavioural model (read, not
//! copied): the same handshake and option checks, the same `info` fields,
//! scores from the side to move with a White's-view method, `bestmove` and
//! `ponder`. What it adds is a deadline on every wait:
//!
//! - the handshake must end with `uciok` within
//!   [`EngineBuilder::handshake_timeout`], or the program is
//!   [`EngineError::NotUci`] (`/bin/cat`, `/bin/true`, an engine that
//!   writes only garbage);
//! - a search must end with `bestmove` within its time plus
//!   [`EngineBuilder::deadline_margin`] (a movetime or the mover's clock),
//!   or, for a limit of depth, nodes or mate alone, a line from the engine
//!   within [`EngineBuilder::silence_timeout`] and `bestmove` within
//!   [`EngineBuilder::search_timeout`]; then the client sends `stop`, waits
//!   [`EngineBuilder::stop_grace`] for `bestmove`, and kills the engine if
//!   it does not come ([`EngineError::Timeout`]);
//! - an engine that exits is [`EngineError::Terminated`] with its exit
//!   status; an illegal `bestmove` is [`EngineError::IllegalBestMove`];
//!   lines the client cannot read are skipped with a [`Warning`], and an
//!   illegal PV move ends the PV there, with a warning.
//!
//! After a fault, on [`Engine::quit`] and on drop, the engine is told to
//! `quit`, killed if it has not exited within
//! [`EngineBuilder::quit_grace`], and always reaped: no zombie, no process
//! left behind. An [`Engine`] is `Send`, so that a pool can own one per
//! thread: [`Pool`] runs N engines over a stream of positions, the results
//! in input order, a dead engine replaced (see [the `pool` module](pool)).
//!
//! Positions are sent as `position startpos|fen <fen> moves ...`, castling
//! as the king's move (`e1g1`) in standard chess; a position whose castling
//! rights need Chess960 (a king off the e-file or a rook off the corners)
//! turns on `UCI_Chess960` and is sent with castling as the king taking
//! its rook (`e1h1`). The engine's moves are read in either notation.

#![deny(unsafe_code)]
#![warn(missing_docs)]

// The README's examples are compiled as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod engine;
mod error;
mod info;
mod limit;
mod options;
pub mod pool;
mod process;
#[cfg(feature = "arrow")]
pub mod table;

pub use engine::{Analysis, Engine, EngineBuilder, Query};
pub use error::EngineError;
pub use info::{Bound, Info, Score, Warning, Wdl};
pub use limit::{Clocks, Limit};
pub use options::{OptionKind, OptionValue, Options, UciOption};
pub use pool::{Analyses, GameAnalyses, Job, Pool, PoolError};
pub use process::kill_all;
