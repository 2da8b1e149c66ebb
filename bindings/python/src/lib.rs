//! The compiled part of the `bitboards` Python package (`bitboards._bitboards`).
//!
//! python-chess's everyday names over the Rust crate: [`board::Board`] and
//! its moves, pieces and square sets, and the PGN functions of
//! `bitboards.pgn` ([`pgn`]), whose tables reach Python through the Arrow C
//! stream interface. The pure-Python part of the package
//! (`python/bitboards`) adds the constants, the progress switch and the
//! argument handling.

#![deny(unsafe_code)]

mod arrow;
mod board;
mod book;
mod engine;
mod errors;
mod helpers;
mod pgn;
mod planes;
mod pool;
mod svg;
mod syzygy;
mod tree;
mod types;

use pyo3::prelude::*;

#[pymodule]
fn _bitboards(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_class::<types::Move>()?;
    module.add_class::<types::Piece>()?;
    module.add_class::<types::Bitboard>()?;
    module.add_class::<board::Board>()?;
    module.add_class::<board::LegalMoveGenerator>()?;
    module.add_class::<board::PseudoLegalMoveGenerator>()?;
    module.add_class::<board::Outcome>()?;
    module.add_class::<board::Termination>()?;
    module.add_class::<book::PolyglotBook>()?;
    module.add_class::<pgn::Game>()?;
    module.add_class::<pgn::Score>()?;
    module.add_class::<pgn::GameIter>()?;
    module.add_class::<arrow::ArrowStream>()?;
    module.add_class::<pgn::PositionStream>()?;
    module.add_function(wrap_pyfunction!(board::board_from_state, module)?)?;
    module.add_function(wrap_pyfunction!(tree::build_game_tree, module)?)?;
    module.add_function(wrap_pyfunction!(tree::read_tags, module)?)?;
    module.add_function(wrap_pyfunction!(pgn::read_games, module)?)?;
    module.add_function(wrap_pyfunction!(pgn::read_table, module)?)?;
    module.add_function(wrap_pyfunction!(pgn::to_parquet, module)?)?;
    module.add_function(wrap_pyfunction!(pgn::game_columns, module)?)?;
    module.add_function(wrap_pyfunction!(pgn::position_stream, module)?)?;
    module.add_function(wrap_pyfunction!(planes::planes_into, module)?)?;
    module.add_function(wrap_pyfunction!(planes::planes_kernels, module)?)?;
    module.add_class::<engine::UciEngine>()?;
    module.add_class::<engine::SearchStop>()?;
    module.add_function(wrap_pyfunction!(engine::analyse_many, module)?)?;
    errors::register(py, module)?;
    syzygy::register(py, module)?;
    Ok(())
}
