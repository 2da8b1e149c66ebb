//! The twelve piece boards as NumPy planes: `(N, 12, 8, 8)` uint8, one byte
//! per square, row 0 = rank 1 and column 0 = file a.

use pyo3::prelude::*;
use pyo3::types::PyByteArray;

/// Each byte value's bits spread into the bytes of a little-endian word:
/// bit j of the byte becomes byte j, 0 or 1.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte] |= ((byte as u64 >> bit) & 1) << (8 * bit);
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The side-to-move view of the twelve boards: ranks mirrored, colours
/// swapped.
pub fn flipped(boards: &[u64; 12]) -> [u64; 12] {
    let mut out = [0; 12];
    for at in 0..12 {
        out[(at + 6) % 12] = boards[at].swap_bytes();
    }
    out
}

/// Writes one board's 64 bytes into `out` (64 bytes).
#[inline]
fn spread(board: u64, out: &mut [u8]) {
    for (rank, row) in out.chunks_exact_mut(8).enumerate() {
        row.copy_from_slice(&SPREAD[(board >> (8 * rank)) as usize & 0xff].to_le_bytes());
    }
}

/// Fills `out` (`boards.len() * 768` bytes) with the planes of each row;
/// `flip(row)` says whether row `row` is seen from Black's side.
pub fn fill(boards: &[[u64; 12]], flip: impl Fn(usize) -> bool, out: &mut [u8]) {
    for (row, (twelve, out)) in boards.iter().zip(out.chunks_exact_mut(768)).enumerate() {
        let twelve = if flip(row) { flipped(twelve) } else { *twelve };
        for (board, out) in twelve.iter().zip(out.chunks_exact_mut(64)) {
            spread(*board, out);
        }
    }
}

/// The rows' planes as a NumPy array of shape `(N, 12, 8, 8)`.
pub fn to_numpy<'py>(
    py: Python<'py>,
    boards: &[[u64; 12]],
    flip: impl Fn(usize) -> bool,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes = PyByteArray::new_with(py, boards.len() * 768, |out| {
        fill(boards, &flip, out);
        Ok(())
    })?;
    as_planes(py, bytes, boards.len())
}

/// `bytes` (`rows * 768` of them) as a NumPy array of shape `(rows, 12, 8, 8)`,
/// without a copy.
fn as_planes<'py>(
    py: Python<'py>,
    bytes: Bound<'py, PyByteArray>,
    rows: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy")?;
    numpy
        .call_method1("frombuffer", (bytes, numpy.getattr("uint8")?))?
        .call_method1("reshape", ((rows, 12, 8, 8),))
}
