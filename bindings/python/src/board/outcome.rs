//! How a game ended: python-chess's `Outcome` and `Termination`.

use pyo3::prelude::*;

use super::types::is_white;

/// How a game ended by the rules (python-chess's `Termination`).
#[pyclass(module = "bitboards", eq, eq_int, hash, frozen, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub enum Termination {
    CHECKMATE = 1,
    STALEMATE = 2,
    INSUFFICIENT_MATERIAL = 3,
    SEVENTYFIVE_MOVES = 4,
    FIVEFOLD_REPETITION = 5,
    FIFTY_MOVES = 6,
    THREEFOLD_REPETITION = 7,
}

#[pymethods]
impl Termination {
    /// The member's name, as in python-chess (`"CHECKMATE"`).
    #[getter]
    fn name(&self) -> String {
        format!("{self:?}")
    }

    /// The member's number, as in python-chess (`CHECKMATE` is 1).
    #[getter]
    fn value(&self) -> u8 {
        *self as u8
    }
}

impl Termination {
    pub fn of(outcome: bitboards::Outcome) -> Termination {
        match outcome {
            bitboards::Outcome::Checkmate { .. } => Termination::CHECKMATE,
            bitboards::Outcome::Stalemate => Termination::STALEMATE,
            bitboards::Outcome::InsufficientMaterial => Termination::INSUFFICIENT_MATERIAL,
            bitboards::Outcome::SeventyFiveMoves => Termination::SEVENTYFIVE_MOVES,
            bitboards::Outcome::FivefoldRepetition => Termination::FIVEFOLD_REPETITION,
            bitboards::Outcome::FiftyMoves => Termination::FIFTY_MOVES,
            bitboards::Outcome::ThreefoldRepetition => Termination::THREEFOLD_REPETITION,
        }
    }
}

/// The end of a game: `termination`, `winner` (True for White, False for
/// Black, None for a draw) and `result()`.
#[pyclass(module = "bitboards", frozen, eq)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    #[pyo3(get)]
    pub termination: Termination,
    #[pyo3(get)]
    pub winner: Option<bool>,
}

#[pymethods]
impl Outcome {
    #[new]
    #[pyo3(signature = (termination, winner = None))]
    fn new(termination: Termination, winner: Option<bool>) -> Outcome {
        Outcome {
            termination,
            winner,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    fn result(&self) -> &'static str {
        match self.winner {
            Some(true) => "1-0",
            Some(false) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __repr__(&self) -> String {
        let winner = match self.winner {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        format!(
            "Outcome(termination=Termination.{:?}, winner={winner})",
            self.termination
        )
    }
}

impl Outcome {
    pub fn new_from(outcome: bitboards::Outcome) -> Outcome {
        Outcome {
            termination: Termination::of(outcome),
            winner: outcome.winner().map(is_white),
        }
    }
}
