//! The twelve piece boards as NumPy planes: `(N, 12, 8, 8)` uint8, one byte
//! per square, row 0 = rank 1 and column 0 = file a.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

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
    new_planes(py, boards.len(), |out| fill(boards, &flip, out))
}

/// A new NumPy array of shape `(rows, 12, 8, 8)`, uint8, its bytes written
/// by `write` (`rows * 768` of them, zero until written).
///
/// NumPy allocates it (`numpy.zeros`): a large array gets pages that the
/// kernel zeroes as they are first written, in huge pages where it can.
/// Against a `bytearray` made by PyO3 (zeroed on this thread first, in
/// small pages) and viewed with `numpy.frombuffer`, that took
/// `bitboards.planes` on 340,000 rows (260 MB) from 144 to 51-61 ms
/// (`python bindings/python/bench.py`).
fn new_planes<'py>(
    py: Python<'py>,
    rows: usize,
    write: impl FnOnce(&mut [u8]),
) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("zeros", ((rows, 12, 8, 8), numpy.getattr("uint8")?))?;
    let len = rows * 768;
    let flags = array.getattr("flags")?;
    let flag = |name: &str| -> PyResult<bool> { flags.get_item(name)?.extract() };
    let (address, read_only): (usize, bool) = array
        .getattr("__array_interface__")?
        .get_item("data")?
        .extract()?;
    let sound = array.get_type().is(numpy.getattr("ndarray")?)
        && flag("C_CONTIGUOUS")?
        && flag("WRITEABLE")?
        && flag("OWNDATA")?
        && !read_only
        && array.getattr("nbytes")?.extract::<usize>()? == len
        && (address != 0 || len == 0);
    if !sound {
        return Err(PyRuntimeError::new_err(
            "numpy.zeros did not give a new writable C-contiguous uint8 array",
        ));
    }
    let out: &mut [u8] = if len == 0 {
        &mut []
    } else {
        // SAFETY: `address` is the start of the data of `array`, an ndarray
        // that `numpy.zeros` has just made and that owns its data (OWNDATA):
        // `len` bytes (its `nbytes`), C-contiguous, writable, initialised
        // (zeros), non-null, and u8 needs no alignment. `array` is held
        // until this function returns, so the memory outlives `out`, which
        // is dropped before `array` is handed to anyone. Nothing else can
        // reach that memory while `out` lives: the array has not left this
        // function, NumPy keeps no reference to a new array, and the GIL is
        // held throughout, so no Python code runs meanwhile.
        unsafe { std::slice::from_raw_parts_mut(address as *mut u8, len) }
    };
    write(out);
    Ok(array)
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
    new_planes(py, rows, |out| {
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
    })
}
