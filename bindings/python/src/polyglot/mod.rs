//! `PolyglotBook`: a Polyglot book read into memory, whose lookups for a
//! `bitboards.Board` (binary search, move decoding and the legality check)
//! run in Rust; `bitboards.polyglot`'s readers call it.

use bitboards::book::{Book, encode};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::board::Board;
use crate::board::types::Move;

/// A Polyglot book held in memory, checked when opened (a whole number of
/// 16-byte entries, sorted by key, every move's bits meaningful).
#[pyclass(module = "bitboards", frozen)]
pub struct PolyglotBook {
    book: Book<Vec<u8>>,
}

#[pymethods]
impl PolyglotBook {
    /// Reads the book at `path`: `OSError` when it cannot be read,
    /// `ValueError` when it is not a valid Polyglot book (saying why).
    #[new]
    fn new(path: std::path::PathBuf) -> PyResult<PolyglotBook> {
        let bytes = std::fs::read(&path)
            .map_err(|error| PyOSError::new_err(format!("{}: {error}", path.display())))?;
        let book = Book::from_bytes(bytes).map_err(|error| {
            PyValueError::new_err(format!(
                "{} is not a valid Polyglot book: {error}",
                path.display()
            ))
        })?;
        Ok(PolyglotBook { book })
    }

    fn __len__(&self) -> usize {
        self.book.len()
    }

    /// The entries of `board`'s position in book order, weighing at least
    /// `minimum_weight`, whose moves are legal: `(key, raw_move, weight,
    /// learn, move)` tuples, the move as the board writes it.
    #[pyo3(signature = (board, minimum_weight = 1))]
    fn find_all<'py>(
        &self,
        py: Python<'py>,
        board: PyRef<'py, Board>,
        minimum_weight: u16,
    ) -> PyResult<Bound<'py, PyList>> {
        let position = board.position();
        let key = position.polyglot_key();
        let notation = board.castling_notation();
        let objects = Move::objects(py)?;
        let list = PyList::empty(py);
        for entry in self.book.entries(position) {
            if entry.weight < minimum_weight {
                continue;
            }
            let mv = Move::from_move(entry.mv, notation).shared(py, objects);
            let item = PyTuple::new(
                py,
                [
                    key.into_pyobject(py)?.into_any(),
                    encode(entry.mv).into_pyobject(py)?.into_any(),
                    entry.weight.into_pyobject(py)?.into_any(),
                    entry.learn.into_pyobject(py)?.into_any(),
                    mv.into_any(),
                ],
            )?;
            list.append(item)?;
        }
        Ok(list)
    }
}

/// `bitboards.polyglot`'s compiled part: the book reader.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PolyglotBook>()?;
    Ok(())
}
