//! The twelve piece boards as NumPy planes: `(N, 12, 8, 8)` uint8, one byte
//! per square, row 0 = rank 1 and column 0 = file a.
//!
//! The one encoder of the package: `bitboards.planes` (Python) brings its
//! input to a NumPy array and calls [`planes_into`]; `Board.planes` calls
//! [`to_numpy`].

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyTuple};
use rayon::prelude::*;

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

/// The bytes of one row of input: twelve little-endian u64.
const ROW_IN: usize = 12 * 8;
/// The bytes of one row of planes.
const ROW_OUT: usize = 12 * 64;
/// Rows from which the planes are written on every core (rayon's pool).
const THREADED_ROWS: usize = 16_384;

/// Writes one row's planes (`out`, 768 bytes) from its twelve boards
/// (`boards`, 96 bytes, little-endian); with `flip`, as Black sees them:
/// colours swapped and ranks mirrored (each board's bytes reversed).
#[inline]
fn fill_row(boards: &[u8], flip: bool, out: &mut [u8]) {
    for (plane, out) in out.chunks_exact_mut(64).enumerate() {
        let source = if flip { (plane + 6) % 12 } else { plane };
        let bytes = boards[8 * source..8 * source + 8]
            .try_into()
            .expect("8 bytes");
        let board = match flip {
            true => u64::from_be_bytes(bytes),
            false => u64::from_le_bytes(bytes),
        };
        for (rank, row) in out.chunks_exact_mut(8).enumerate() {
            row.copy_from_slice(&SPREAD[(board >> (8 * rank)) as usize & 0xff].to_le_bytes());
        }
    }
}

/// Fills `out` (768 bytes a row) with the planes of the rows of `boards`
/// (96 bytes a row: twelve little-endian u64); `flip(row)` says whether row
/// `row` is seen from Black's side. From [`THREADED_ROWS`] rows on, on
/// every core.
pub fn fill(boards: &[u8], flip: impl Fn(usize) -> bool + Sync, out: &mut [u8]) {
    let rows = boards.len() / ROW_IN;
    assert_eq!(out.len(), rows * ROW_OUT, "768 bytes of planes per row");
    let rows_of = |first: usize, boards: &[u8], out: &mut [u8]| {
        let pairs = boards
            .chunks_exact(ROW_IN)
            .zip(out.chunks_exact_mut(ROW_OUT));
        for (row, (boards, out)) in pairs.enumerate() {
            fill_row(boards, flip(first + row), out);
        }
    };
    if rows < THREADED_ROWS {
        return rows_of(0, boards, out);
    }
    let per_part = rows.div_ceil(rayon::current_num_threads());
    boards
        .par_chunks(per_part * ROW_IN)
        .zip(out.par_chunks_mut(per_part * ROW_OUT))
        .enumerate()
        .for_each(|(part, (boards, out))| rows_of(part * per_part, boards, out));
}

/// The rows' planes as a NumPy array of shape `(N, 12, 8, 8)`.
pub fn to_numpy<'py>(
    py: Python<'py>,
    boards: &[[u64; 12]],
    flip: impl Fn(usize) -> bool + Sync,
) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = boards
        .iter()
        .flatten()
        .flat_map(|board| board.to_le_bytes())
        .collect();
    let planes = PyByteArray::new_with(py, boards.len() * ROW_OUT, |out| {
        fill(&bytes, &flip, out);
        Ok(())
    })?;
    let numpy = py.import("numpy")?;
    numpy
        .call_method1("frombuffer", (planes, numpy.getattr("uint8")?))?
        .call_method1("reshape", ((boards.len(), 12, 8, 8),))
}

/// What `__array_interface__` says of a NumPy array: where its bytes are,
/// how many, and whether they may be written.
struct ArrayMemory {
    address: usize,
    len: usize,
    readonly: bool,
}

/// The memory of `array` when it is a C-contiguous `numpy.ndarray` (not a
/// subclass) of
/// `typestr` (`"<u8"`, `"|u1"`, ...) and `shape`; `None` otherwise.
fn array_memory(
    array: &Bound<'_, PyAny>,
    typestr: &str,
    shape: &[usize],
) -> PyResult<Option<ArrayMemory>> {
    let py = array.py();
    // Exactly `numpy.ndarray`, whose `__array_interface__` is NumPy's own:
    // a subclass could answer any address (`bitboards.planes` passes a
    // subclass's arrays as plain views).
    if !array
        .get_type()
        .is(&py.import("numpy")?.getattr("ndarray")?)
    {
        return Ok(None);
    }
    let interface = array.getattr("__array_interface__")?;
    let interface = interface.cast::<PyDict>()?;
    let item = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        interface
            .get_item(key)?
            .ok_or_else(|| PyValueError::new_err(format!("__array_interface__ has no {key:?}")))
    };
    // `strides` is None exactly for a C-contiguous array.
    if item("typestr")?.extract::<String>()? != typestr
        || item("shape")?.extract::<Vec<usize>>()? != shape
        || !item("strides")?.is_none()
    {
        return Ok(None);
    }
    let data = item("data")?;
    let data = data.cast::<PyTuple>()?;
    Ok(Some(ArrayMemory {
        address: data.get_item(0)?.extract()?,
        // The typestr ends with the item's size in bytes.
        len: shape.iter().product::<usize>() * typestr[2..].parse::<usize>().unwrap_or(1),
        readonly: data.get_item(1)?.extract()?,
    }))
}

/// `type shape dtype` of a value, for an error message.
fn describe(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let attribute = |name: &str| -> PyResult<String> {
        match value.getattr(name) {
            Ok(attribute) => Ok(attribute.str()?.to_string()),
            Err(_) => Ok(String::new()),
        }
    };
    let kind = value.get_type().name()?.to_string();
    Ok(
        format!("{kind} {} {}", attribute("dtype")?, attribute("shape")?)
            .trim_end()
            .to_string(),
    )
}

/// Writes the planes of `boards` into `out` (what `bitboards.planes` calls
/// once it has its input as NumPy arrays).
///
/// `boards`: a C-contiguous `(N, 12)` little-endian uint64 array; `turn`:
/// None, or a C-contiguous `(N,)` bool array, True where White is to move
/// (the other rows are seen from Black's side); `out`: a C-contiguous,
/// writable `(N, 12, 8, 8)` uint8 array, apart from the other two.
/// Anything else is a `ValueError`.
///
/// The GIL is released while the planes are written (from 16,384 rows on
/// every core): another thread that writes these arrays meanwhile gets
/// unspecified planes.
#[pyfunction]
#[pyo3(signature = (boards, turn, out))]
pub fn planes_into(
    py: Python<'_>,
    boards: &Bound<'_, PyAny>,
    turn: Option<&Bound<'_, PyAny>>,
    out: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let rows = boards
        .getattr("shape")
        .and_then(|shape| shape.extract::<(usize, usize)>());
    let rows = rows
        .ok()
        .and_then(|(rows, twelve)| (twelve == 12).then_some(rows));
    let boards_memory = match rows {
        Some(rows) => array_memory(boards, "<u8", &[rows, 12])?,
        None => None,
    };
    let (Some(rows), Some(boards_memory)) = (rows, boards_memory) else {
        return Err(PyValueError::new_err(format!(
            "boards must be a C-contiguous little-endian uint64 array of shape (N, 12), not {}",
            describe(boards)?
        )));
    };
    let turn_memory = match turn {
        None => None,
        Some(turn) => Some(array_memory(turn, "|b1", &[rows])?.ok_or_else(|| -> PyErr {
            let got = describe(turn).unwrap_or_default();
            PyValueError::new_err(format!(
                "turn must be a C-contiguous bool array of shape ({rows},), not {got}"
            ))
        })?),
    };
    let out_memory = array_memory(out, "|u1", &[rows, 12, 8, 8])?
        .filter(|memory| !memory.readonly)
        .ok_or_else(|| -> PyErr {
            let got = describe(out).unwrap_or_default();
            PyValueError::new_err(format!(
                "out must be a C-contiguous, writable uint8 array of shape ({rows}, 12, 8, 8), not {got}"
            ))
        })?;
    if rows == 0 {
        return Ok(());
    }
    let overlaps = |memory: &ArrayMemory| {
        memory.address < out_memory.address + out_memory.len
            && out_memory.address < memory.address + memory.len
    };
    if overlaps(&boards_memory) || turn_memory.as_ref().is_some_and(overlaps) {
        return Err(PyValueError::new_err(
            "out shares memory with boards or turn",
        ));
    }
    // SAFETY: each address and length is what `__array_interface__` says
    // of a C-contiguous numpy.ndarray of the checked dtype and shape, held
    // alive by this call's references for as long as the slices live; `out`
    // is writable and overlaps neither input. (Concurrent writes from
    // another thread are the caller's race, as for any NumPy function that
    // releases the GIL.)
    #[allow(unsafe_code)]
    let (boards, turn, out) = unsafe {
        (
            std::slice::from_raw_parts(boards_memory.address as *const u8, boards_memory.len),
            turn_memory
                .map(|memory| std::slice::from_raw_parts(memory.address as *const u8, memory.len)),
            std::slice::from_raw_parts_mut(out_memory.address as *mut u8, out_memory.len),
        )
    };
    let flip = |row: usize| turn.is_some_and(|turn| turn[row] == 0);
    py.detach(|| fill(boards, flip, out));
    Ok(())
}
