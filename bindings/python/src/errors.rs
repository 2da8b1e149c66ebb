//! The package's exceptions: python-chess's names, all `ValueError`s.

use bitboards::{FenError, ParseUciError, SanError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    bitboards,
    InvalidMoveError,
    PyValueError,
    "Text that is not a move at all (SAN or UCI that does not parse)."
);
pyo3::create_exception!(
    bitboards,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal in the position."
);
pyo3::create_exception!(
    bitboards,
    AmbiguousMoveError,
    PyValueError,
    "SAN that fits more than one legal move."
);
pyo3::create_exception!(
    bitboards,
    InvalidFenError,
    PyValueError,
    "A FEN that does not read: the message names the field and the column."
);
pyo3::create_exception!(
    bitboards,
    NotPgnError,
    PyValueError,
    "A file that is not PGN at all (its first token has no place in PGN)."
);

pub fn register(py: Python<'_>, module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    module.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    module.add("AmbiguousMoveError", py.get_type::<AmbiguousMoveError>())?;
    module.add("InvalidFenError", py.get_type::<InvalidFenError>())?;
    module.add("NotPgnError", py.get_type::<NotPgnError>())?;
    Ok(())
}

pub fn fen_error(fen: &str, error: &FenError) -> PyErr {
    InvalidFenError::new_err(format!("{error}: {fen:?}"))
}

pub fn san_error(text: &str, error: &SanError) -> PyErr {
    let message = format!("{text:?}: {error}");
    match error {
        SanError::Malformed { .. } => InvalidMoveError::new_err(message),
        SanError::Ambiguous { .. } => AmbiguousMoveError::new_err(message),
        _ => IllegalMoveError::new_err(message),
    }
}

pub fn uci_error(text: &str, error: &ParseUciError) -> PyErr {
    let message = format!("{text:?}: {error}");
    match error {
        ParseUciError::Illegal { .. } | ParseUciError::NoPieceToMove { .. } => {
            IllegalMoveError::new_err(message)
        }
        _ => InvalidMoveError::new_err(message),
    }
}
