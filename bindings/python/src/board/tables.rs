//! python-chess's module-level tables (`BB_KNIGHT_ATTACKS`, `BB_RAYS`,
//! `BB_DIAG_ATTACKS`, ...), read from the crate's generated tables, so
//! that no attack is worked out again in Python.

use bitboards::{Bitboard, Color, Square, attacks};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The rim of the board a slider's occupancy mask leaves out for `square`
/// (python-chess's `_edges`): the first and eighth ranks but its own, the
/// a- and h-files but its own.
fn edges(square: Square) -> Bitboard {
    let ranks = Bitboard(0xFF | (0xFF << 56)) & !square.rank().bitboard();
    let files =
        Bitboard(0x0101_0101_0101_0101 | (0x8080_8080_8080_8080)) & !square.file().bitboard();
    ranks | files
}

/// One of python-chess's slider tables: for each square the mask of the
/// squares whose occupancy matters (`BB_DIAG_MASKS`), and a dict from
/// each subset of it to the attacked squares (`BB_DIAG_ATTACKS`), along
/// the diagonals, the file or the rank.
fn slider_table<'py>(
    py: Python<'py>,
    lines: impl Fn(Square, Bitboard) -> Bitboard,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
    let (masks, tables) = (PyList::empty(py), PyList::empty(py));
    for square in Square::ALL {
        let mask = lines(square, Bitboard::EMPTY) & !edges(square);
        let table = PyDict::new(py);
        for subset in mask.subsets() {
            table.set_item(subset.0, lines(square, subset).0)?;
        }
        masks.append(mask.0)?;
        tables.append(table)?;
    }
    Ok((masks, tables))
}

/// The tables, by name: `knight`, `king`, `pawn` (Black's, then White's),
/// `rays` and `between` (64 by 64), and `diag`, `file`, `rank` (each its
/// masks and attack dicts).
#[pyfunction]
pub fn attack_tables(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let by_square = |table: fn(Square) -> Bitboard| Square::ALL.map(|square| table(square).0);
    let tables = PyDict::new(py);
    tables.set_item("knight", by_square(attacks::knight))?;
    tables.set_item("king", by_square(attacks::king))?;
    tables.set_item(
        "pawn",
        [Color::Black, Color::White]
            .map(|color| Square::ALL.map(|square| attacks::pawn(color, square).0)),
    )?;
    let pairs = |table: fn(Square, Square) -> Bitboard| {
        Square::ALL.map(|a| Square::ALL.map(|b| table(a, b).0).to_vec())
    };
    tables.set_item("rays", pairs(bitboards::line))?;
    tables.set_item("between", pairs(bitboards::between))?;
    tables.set_item("diag", slider_table(py, attacks::bishop)?)?;
    tables.set_item(
        "file",
        slider_table(py, |square, occupied| {
            attacks::rook(square, occupied) & square.file().bitboard()
        })?,
    )?;
    tables.set_item(
        "rank",
        slider_table(py, |square, occupied| {
            attacks::rook(square, occupied) & square.rank().bitboard()
        })?,
    )?;
    Ok(tables)
}
