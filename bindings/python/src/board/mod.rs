//! `Board`: a position and the moves that led to it, with python-chess's
//! names. The class's methods stand in files by concern: its setup
//! ([`setup`]), its moves ([`moves`]), what it says of itself
//! ([`queries`]), and how it is shown ([`view`]).

use pyo3::prelude::*;

mod generators;
mod helpers;
mod moves;
mod outcome;
mod planes;
mod queries;
mod setup;
mod state;
mod tables;
pub mod types;
mod view;

pub use outcome::Outcome;
pub use state::Board;

/// The top module's compiled part: `Board`, its moves, pieces and square
/// sets, and the planes of boards.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<types::Move>()?;
    module.add_class::<types::Piece>()?;
    module.add_class::<types::Bitboard>()?;
    module.add_class::<Board>()?;
    module.add_class::<generators::LegalMoveGenerator>()?;
    module.add_class::<generators::PseudoLegalMoveGenerator>()?;
    module.add_class::<outcome::Outcome>()?;
    module.add_class::<outcome::Termination>()?;
    module.add_function(wrap_pyfunction!(state::board_from_state, module)?)?;
    module.add_function(wrap_pyfunction!(state::fen_of_masks, module)?)?;
    module.add_function(wrap_pyfunction!(planes::planes_into, module)?)?;
    module.add_function(wrap_pyfunction!(planes::planes_kernels, module)?)?;
    module.add_function(wrap_pyfunction!(tables::attack_tables, module)?)?;
    Ok(())
}
