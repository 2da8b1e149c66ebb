//! The twelve piece boards as NumPy planes: `(N, 12, 8, 8)` uint8, one byte
//! per square, row 0 = rank 1 and column 0 = file a.
//!
//! The one encoder of the package: `bitboards.planes` (Python) brings its
//! input to a NumPy array and calls [`planes_into`]; `Board.planes` calls
//! [`to_numpy`].

use super::helpers;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyString, PyTuple, PyType};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

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
/// Rows from which the planes are written on every core: this thread and
/// the [`helpers`]. A batch of 4,096 rows (3 MB of planes) outgrows one
/// core's L2 cache (2 MB here) but its halves fit in two; from 512 rows
/// (two parts) two threads measured faster than one (docs/performance.md).
const THREADED_ROWS: usize = 512;
/// Rows that a thread takes at a time (192 KiB of planes).
const PART_ROWS: usize = 256;

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
    /// AVX-512 (BW): per board, the word as a 64-bit mask selects a 1 in
    /// each of 64 bytes, written with one 64-byte store.
    Avx512,
}

impl Kernel {
    /// Every kernel, by name.
    pub const ALL: [(Kernel, &'static str); 3] = [
        (Kernel::Portable, "portable"),
        (Kernel::Avx2, "avx2"),
        (Kernel::Avx512, "avx512"),
    ];

    /// The kernel's name (`"portable"`, `"avx2"`, `"avx512"`).
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
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The fastest kernel this processor runs.
    pub fn best() -> Kernel {
        Self::ALL
            .into_iter()
            .rev()
            .map(|(kernel, _)| kernel)
            .find(|kernel| kernel.available())
            .unwrap_or(Kernel::Portable)
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
    //!
    //! The AVX-512 intrinsics are stable from Rust 1.89, the package's
    //! `rust-version`.
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

    /// Writes `planes` into `out`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn store_512(out: &mut [u8; 64], planes: __m512i) {
        // SAFETY: `out` is 64 writable bytes, exactly what the store
        // writes; `storeu` takes any alignment.
        #[allow(unsafe_code)]
        unsafe {
            _mm512_storeu_si512(out.as_mut_ptr().cast(), planes)
        }
    }

    /// [`super::rows_portable`] with AVX-512: a board's bits are a mask
    /// that picks, byte by byte, a 1 or a 0 (bit j, byte j), and each
    /// store writes a whole 64-byte line. A line of `out` that starts
    /// `head` bytes into a board's plane takes that board's last 64 - `head`
    /// bits and the next board's first `head` (a funnel shift): every store
    /// is aligned (a store across two lines costs twice).
    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn rows_avx512(
        boards: &[[u8; ROW_IN]],
        first: usize,
        flip: &impl Fn(usize) -> bool,
        out: &mut [[u8; ROW_OUT]],
    ) {
        let one = _mm512_set1_epi8(1);
        let spread = |mask: u64| _mm512_maskz_mov_epi8(_cvtu64_mask64(mask), one);
        let out = out.as_flattened_mut();
        // The bytes before the first 64-byte boundary.
        let head = out.as_ptr().addr().wrapping_neg() % 64;
        if out.len() < 64 {
            return;
        }
        let (head_bytes, body) = out.split_at_mut(head);
        let (lines, tail) = body.as_chunks_mut::<64>();
        let mut lines = lines.iter_mut();
        let (mut first_word, mut previous) = (None, 0);
        for (row, boards) in boards.iter().enumerate() {
            for word in words(boards, flip(first + row)) {
                match first_word {
                    None => first_word = Some(word),
                    Some(_) => {
                        let line = ((u128::from(word) << 64 | u128::from(previous)) >> head) as u64;
                        if let Some(out) = lines.next() {
                            store_512(out, spread(line));
                        }
                    }
                }
                previous = word;
            }
        }
        // Without a head, the last board is the last line; with one, its
        // last bits are the tail, and the first board's first bits the head.
        if let Some(out) = lines.next() {
            store_512(out, spread(previous));
        }
        let mut bytes = [0; 64];
        store_512(&mut bytes, spread(previous));
        tail.copy_from_slice(&bytes[64 - tail.len()..]);
        store_512(&mut bytes, spread(first_word.unwrap_or(0)));
        head_bytes.copy_from_slice(&bytes[..head]);
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
        #[cfg(target_arch = "x86_64")]
        // SAFETY: this processor has AVX-512 F and BW (asserted above).
        #[allow(unsafe_code)]
        Kernel::Avx512 => unsafe { x86::rows_avx512(boards, first, flip, out) },
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

/// The rows not yet written, of which each thread takes [`PART_ROWS`] at a
/// time: the calling thread from the front, the pool's from the back.
struct Remaining<'a> {
    first: usize,
    boards: &'a [[u8; ROW_IN]],
    out: &'a mut [[u8; ROW_OUT]],
}

/// A part of the rows: its first row, its boards and its planes.
type Part<'a> = (usize, &'a [[u8; ROW_IN]], &'a mut [[u8; ROW_OUT]]);

impl<'a> Remaining<'a> {
    /// The next part from the front or the back, with its first row.
    fn take(&mut self, front: bool) -> Option<Part<'a>> {
        let count = self.boards.len().min(PART_ROWS);
        if count == 0 {
            return None;
        }
        let out = std::mem::take(&mut self.out);
        if front {
            let (boards, rest) = self.boards.split_at(count);
            let (out, out_rest) = out.split_at_mut(count);
            let first = self.first;
            (self.first, self.boards, self.out) = (first + count, rest, out_rest);
            Some((first, boards, out))
        } else {
            let (rest, boards) = self.boards.split_at(self.boards.len() - count);
            let (out_rest, out) = out.split_at_mut(out.len() - count);
            (self.boards, self.out) = (rest, out_rest);
            Some((self.first + rest.len(), boards, out))
        }
    }
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
    if boards.len() < THREADED_ROWS || helpers::threads_available() < 2 {
        return rows(kernel, boards, 0, &flip, out);
    }
    // This thread writes from the front and the helpers from the back, so
    // that each writes the same rows call after call (a batch's half stays
    // in its core's cache); a thread the system runs late finds less to do.
    // When the helpers wrote nothing last call (their cores busy with other
    // work), this thread alone goes front to back and back to front in
    // turn: what it wrote last is what its cache still holds, where one
    // direction would find a batch larger than the cache evicted ahead of it.
    static ALONE: AtomicBool = AtomicBool::new(false);
    static BACKWARD: AtomicBool = AtomicBool::new(false);
    let front = !ALONE.load(Ordering::Relaxed) || BACKWARD.fetch_xor(true, Ordering::Relaxed);
    let remaining = Mutex::new(Remaining {
        first: 0,
        boards,
        out,
    });
    let helped = AtomicBool::new(false);
    helpers::help(&|helper: bool| {
        loop {
            // The lock is held only while a part is taken.
            let part = remaining
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take(front != helper);
            let Some((first, boards, out)) = part else {
                break;
            };
            if helper {
                helped.store(true, Ordering::Relaxed);
            }
            rows(kernel, boards, first, &flip, out);
        }
    });
    ALONE.store(!helped.into_inner(), Ordering::Relaxed);
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
fn array_memory<'py>(
    array: &Bound<'py, PyAny>,
    typestr: &str,
    shape: &[usize],
) -> PyResult<Option<ArrayMemory>> {
    let py = array.py();
    // Exactly `numpy.ndarray`, whose `__array_interface__` is NumPy's own:
    // a subclass could answer any address (`bitboards.planes` passes a
    // subclass's arrays as plain views).
    // The type looked up once, the names interned: each call of
    // `bitboards.planes` comes here three times.
    static NDARRAY: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    if !array.get_type().is(NDARRAY.import(py, "numpy", "ndarray")?) {
        return Ok(None);
    }
    let interface = array.getattr(intern!(py, "__array_interface__"))?;
    let interface = interface.cast::<PyDict>()?;
    let item = |key: &Bound<'py, PyString>| -> PyResult<Bound<'py, PyAny>> {
        interface
            .get_item(key)?
            .ok_or_else(|| PyValueError::new_err(format!("__array_interface__ has no {key}")))
    };
    // `strides` is None exactly for a C-contiguous array.
    if item(intern!(py, "typestr"))?.extract::<String>()? != typestr
        || item(intern!(py, "shape"))?.extract::<Vec<usize>>()? != shape
        || !item(intern!(py, "strides"))?.is_none()
    {
        return Ok(None);
    }
    let data = item(intern!(py, "data"))?;
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
/// The GIL is released while the planes are written (from 512 rows on
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
        .getattr(intern!(py, "shape"))
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
