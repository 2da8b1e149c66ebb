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

/// `bitboards.planes`: the planes of `n` rows of twelve little-endian
/// uint64 boards (`data`, `96 * n` bytes), with the rows where `black[row]`
/// is 1 seen from Black's side (`black` empty: none).
#[pyfunction]
#[pyo3(signature = (data, black))]
pub fn planes_from_bytes<'py>(
    py: Python<'py>,
    data: &[u8],
    black: &[u8],
) -> PyResult<Bound<'py, PyAny>> {
    if !data.len().is_multiple_of(96) {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{} bytes are not rows of twelve uint64 boards (96 bytes each)",
            data.len()
        )));
    }
    let rows = data.len() / 96;
    if !black.is_empty() && black.len() != rows {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "{} flags for {rows} rows",
            black.len()
        )));
    }
    let bytes = PyByteArray::new_with(py, rows * 768, |out| {
        py.detach(|| {
            // Large arrays on every core: the work is writing memory.
            let threads = match rows {
                0..=16_383 => 1,
                _ => std::thread::available_parallelism().map_or(1, usize::from),
            };
            let per_thread = rows.div_ceil(threads).max(1);
            std::thread::scope(|scope| {
                for (part, out) in out.chunks_mut(per_thread * 768).enumerate() {
                    let first = part * per_thread;
                    scope.spawn(move || {
                        let input = &data[first * 96..];
                        for (at, (input, out)) in input
                            .chunks_exact(96)
                            .zip(out.chunks_exact_mut(768))
                            .enumerate()
                        {
                            let mut twelve = [0u64; 12];
                            for (board, word) in twelve.iter_mut().zip(input.chunks_exact(8)) {
                                *board = u64::from_le_bytes(word.try_into().expect("8 bytes"));
                            }
                            let flip = black.get(first + at).is_some_and(|&flag| flag != 0);
                            fill(&[twelve], |_| flip, out);
                        }
                    });
                }
            });
        });
        Ok(())
    })?;
    as_planes(py, bytes, rows)
}
