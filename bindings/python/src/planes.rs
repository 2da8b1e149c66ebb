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

/// The instructions that write the planes: the fastest this processor has
/// ([`Kernel::best`]), or one named (the tests compare each with
/// [`Kernel::Portable`]). Every kernel writes the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust: a table lookup per rank. Every processor.
    Portable,
    /// AVX2: per board, two byte shuffles of the broadcast word, each
    /// ANDed with the bits of a byte and brought to 0/1.
    Avx2,
}

impl Kernel {
    /// Every kernel, by name.
    pub const ALL: [(Kernel, &'static str); 2] =
        [(Kernel::Portable, "portable"), (Kernel::Avx2, "avx2")];

    /// The kernel's name (`"portable"`, `"avx2"`).
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(kernel, _)| *kernel == self)
            .map_or("", |(_, name)| name)
    }

    /// Whether this processor runs the kernel (detected at run time).
    pub fn available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The fastest kernel this processor runs.
    pub fn best() -> Kernel {
        match Kernel::Avx2.available() {
            true => Kernel::Avx2,
            false => Kernel::Portable,
        }
    }
}

/// One row's twelve boards (96 bytes, little-endian) in the order of its
/// planes; with `flip`, as Black sees them: colours swapped (plane p is
/// board (p + 6) % 12) and ranks mirrored (each board's bytes reversed).
#[inline(always)]
fn words(boards: &[u8; ROW_IN], flip: bool) -> [u64; 12] {
    let (boards, _) = boards.as_chunks::<8>();
    // Without a branch: the rows' turns are as random as the games.
    let shift = 6 * usize::from(flip);
    let swap = 0u64.wrapping_sub(u64::from(flip));
    std::array::from_fn(|plane| {
        let source = if plane < 6 {
            plane + shift
        } else {
            plane - shift
        };
        let word = u64::from_le_bytes(boards[source]);
        (word & !swap) | (word.swap_bytes() & swap)
    })
}

/// Writes the planes of `boards` (96 bytes a row) into `out` (768 bytes a
/// row) with plain Rust; `flip(row)`, `row` counted from `first`, says
/// which rows are seen from Black's side.
fn rows_portable(
    boards: &[[u8; ROW_IN]],
    first: usize,
    flip: &impl Fn(usize) -> bool,
    out: &mut [[u8; ROW_OUT]],
) {
    for (row, (boards, out)) in boards.iter().zip(out).enumerate() {
        let words = words(boards, flip(first + row));
        let (out, _) = out.as_chunks_mut::<8>();
        for (rank, out) in out.iter_mut().enumerate() {
            *out = SPREAD[(words[rank / 8] >> (8 * (rank % 8))) as usize & 0xff].to_le_bytes();
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The vector kernels. Each is a `#[target_feature]` function that
    //! [`super::rows`] calls only once the feature is detected; its only
    //! `unsafe` is the unaligned store into a byte array of the store's
    //! width.
    use super::{ROW_IN, ROW_OUT, words};
    use std::arch::x86_64::*;

    /// Writes `planes` into `out`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn store_256(out: &mut [u8; 32], planes: __m256i) {
        // SAFETY: `out` is 32 writable bytes, exactly what the store
        // writes; `storeu` takes any alignment.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_storeu_si256(out.as_mut_ptr().cast(), planes)
        }
    }

    /// [`super::rows_portable`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub fn rows_avx2(
        boards: &[[u8; ROW_IN]],
        first: usize,
        flip: &impl Fn(usize) -> bool,
        out: &mut [[u8; ROW_OUT]],
    ) {
        // Byte k of a half takes the word's byte k / 8 (ranks 0-3, then
        // 4-7), within each 128-bit lane as the shuffle works.
        #[rustfmt::skip]
        let low = _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
            2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
        );
        #[rustfmt::skip]
        let high = _mm256_setr_epi8(
            4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5,
            6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7,
        );
        // Byte k keeps bit k % 8 of its byte.
        let bits = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
        let one = _mm256_set1_epi8(1);
        for (row, (boards, out)) in boards.iter().zip(out).enumerate() {
            let words = words(boards, flip(first + row));
            let (out, _) = out.as_chunks_mut::<32>();
            for (word, out) in words.iter().zip(out.chunks_exact_mut(2)) {
                let word = _mm256_set1_epi64x(*word as i64);
                let spread = |index| {
                    _mm256_min_epu8(
                        _mm256_and_si256(_mm256_shuffle_epi8(word, index), bits),
                        one,
                    )
                };
                store_256(&mut out[0], spread(low));
                store_256(&mut out[1], spread(high));
            }
        }
    }
}

/// Writes the planes of `boards` into `out` with `kernel`, which this
/// processor must run (checked).
fn rows(
    kernel: Kernel,
    boards: &[[u8; ROW_IN]],
    first: usize,
    flip: &impl Fn(usize) -> bool,
    out: &mut [[u8; ROW_OUT]],
) {
    assert!(
        kernel.available(),
        "this processor does not run {}",
        kernel.name()
    );
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: this processor has AVX2 (asserted above).
        #[allow(unsafe_code)]
        Kernel::Avx2 => unsafe { x86::rows_avx2(boards, first, flip, out) },
        _ => rows_portable(boards, first, flip, out),
    }
}

/// Fills `out` (768 bytes a row) with the planes of the rows of `boards`
/// (96 bytes a row: twelve little-endian u64); `flip(row)` says whether row
/// `row` is seen from Black's side. From [`THREADED_ROWS`] rows on, on
/// every core.
pub fn fill(boards: &[u8], flip: impl Fn(usize) -> bool + Sync, out: &mut [u8]) {
    fill_with(Kernel::best(), boards, flip, out)
}

/// [`fill`] with `kernel`, which this processor must run.
pub fn fill_with(
    kernel: Kernel,
    boards: &[u8],
    flip: impl Fn(usize) -> bool + Sync,
    out: &mut [u8],
) {
    let (boards, rest) = boards.as_chunks::<ROW_IN>();
    assert!(rest.is_empty(), "96 bytes of boards per row");
    let (out, rest) = out.as_chunks_mut::<ROW_OUT>();
    assert!(
        rest.is_empty() && out.len() == boards.len(),
        "768 bytes of planes per row"
    );
    let rows_count = boards.len();
    if rows_count < THREADED_ROWS {
        return rows(kernel, boards, 0, &flip, out);
    }
    let per_part = rows_count.div_ceil(rayon::current_num_threads());
    boards
        .par_chunks(per_part)
        .zip(out.par_chunks_mut(per_part))
        .enumerate()
        .for_each(|(part, (boards, out))| rows(kernel, boards, part * per_part, &flip, out));
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
///
/// `kernel` names the instructions (one of [`planes_kernels`]); None, the
/// fastest this processor runs. Every kernel writes the same bytes.
#[pyfunction]
#[pyo3(signature = (boards, turn, out, *, kernel=None))]
pub fn planes_into(
    py: Python<'_>,
    boards: &Bound<'_, PyAny>,
    turn: Option<&Bound<'_, PyAny>>,
    out: &Bound<'_, PyAny>,
    kernel: Option<&str>,
) -> PyResult<()> {
    let kernel = match kernel {
        None => Kernel::best(),
        Some(name) => Kernel::ALL
            .into_iter()
            .find(|(kernel, known)| *known == name && kernel.available())
            .map(|(kernel, _)| kernel)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "kernel must be one of {:?} (what this processor runs), not {name:?}",
                    planes_kernels()
                ))
            })?,
    };
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
    py.detach(|| fill_with(kernel, boards, flip, out));
    Ok(())
}

/// The names of the kernels this processor runs, the fastest first: what
/// `planes_into(..., kernel=)` takes.
#[pyfunction]
pub fn planes_kernels() -> Vec<&'static str> {
    let mut kernels: Vec<_> = Kernel::ALL
        .into_iter()
        .filter(|(kernel, _)| kernel.available())
        .map(|(_, name)| name)
        .collect();
    kernels.reverse();
    kernels
}
