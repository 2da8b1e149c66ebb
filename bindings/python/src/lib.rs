//! The compiled part of the `bitboards` Python package (`bitboards._bitboards`).
//!
//! An adapter: the rules live in the crates (`bitboards`, `bitboards-pgn`,
//! `bitboards-engine`, `bitboards-syzygy`, `bitboards-explorer`), and this crate gives them
//! python-chess's names. Its folders mirror the Python modules, each with
//! a `register` that adds its classes and functions:
//!
//! - [`board`]: `bitboards` itself (`Board`, `Move`, `Piece`, `SquareSet`'s
//!   masks, the planes of boards);
//! - [`pgn`]: `bitboards.pgn` (games, Arrow tables, game trees);
//! - [`engine`]: `bitboards.engine` (the UCI client and pool);
//! - [`syzygy`]: `bitboards.syzygy`; [`polyglot`]: `bitboards.polyglot`;
//! - [`explorer`]: `bitboards.explorer` (the opening explorer's index);
//!   [`svg`]: `bitboards.svg`'s board drawing.
//!
//! Beside them: the exceptions ([`errors`]), the Arrow C stream
//! ([`arrow`]) and the fork-safe thread pool ([`pool`]) that several
//! modules share. The pure-Python part of the package (`python/bitboards`)
//! adds the constants, the progress switch and the argument handling.

#![deny(unsafe_code)]

mod arrow;
mod board;
mod engine;
mod errors;
mod explorer;
mod pgn;
mod polyglot;
mod pool;
mod svg;
mod syzygy;

use pyo3::prelude::*;

#[pymodule]
fn _bitboards(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    board::register(module)?;
    pgn::register(module)?;
    engine::register(module)?;
    polyglot::register(module)?;
    syzygy::register(py, module)?;
    explorer::register(py, module)?;
    errors::register(py, module)?;
    Ok(())
}
