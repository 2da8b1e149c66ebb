//! Where a read's games come from ([`Source`]) and how it is opened: a
//! plain file mapped into memory and read where it lies, anything else
//! streamed and decompressed on a thread of its own, the bytes counted for
//! a progress line and the read stopped on request ([`ReadCounter`]).
//! The `bitboards pgn` command and the Python package open their inputs
//! here.

use std::io::{self, BufReader, Cursor, Read};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::open::{Compression, MappedFile, decompress_in_background};
use crate::parallel::ParallelReader;

/// Where games come from: a file (plain, or compressed with zstd, gzip or
/// bzip2), standard input, or bytes in memory (plain or compressed).
///
/// ```
/// use bitboards_pgn::{ReadCounter, Source};
///
/// let source = Source::Bytes(b"1. e4 e5 *\n\n1. d4 *\n".to_vec().into());
/// let counter = ReadCounter::default();
/// let mut games = 0;
/// struct Nothing;
/// impl bitboards_pgn::Visitor for Nothing {}
/// source.open(Some(1), &counter)?.for_each(|| Nothing, |_| (), |_, _| games += 1)?;
/// assert_eq!((games, counter.bytes()), (2, 20));
/// assert_eq!(Source::from_arg("-").name(), "<stdin>");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub enum Source {
    /// A file's path.
    File(PathBuf),
    /// The process's standard input, streamed.
    Stdin,
    /// Bytes in memory.
    Bytes(Arc<[u8]>),
}

/// The bytes a read has taken from its sources so far, and a flag that
/// stops it: shared with the threads that read, a progress line, and
/// whoever may cancel the read (a dropped iterator).
#[derive(Clone, Debug, Default)]
pub struct ReadCounter {
    /// Bytes read so far (compressed bytes, for a compressed source).
    pub bytes: Arc<AtomicU64>,
    /// Once set, each source ends where the reading stands, as if it had
    /// no more games.
    pub stop: Arc<AtomicBool>,
}

impl ReadCounter {
    /// Bytes read so far.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Ends the read at the next chunk.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`ReadCounter::stop`] was called.
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl Source {
    /// A command-line argument: `-` is standard input, anything else a
    /// file's path.
    #[must_use]
    pub fn from_arg(arg: &str) -> Source {
        match arg {
            "-" => Source::Stdin,
            path => Source::File(PathBuf::from(path)),
        }
    }

    /// The name messages give it: the path, `<stdin>` or `<bytes>`.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Stdin => "<stdin>".to_owned(),
            Source::Bytes(_) => "<bytes>".to_owned(),
        }
    }

    /// Its size in bytes where it is known before reading (a file's size
    /// on disk, the bytes' length), for a progress bar's total.
    #[must_use]
    pub fn size(&self) -> Option<u64> {
        match self {
            Source::File(path) => std::fs::metadata(path).ok().map(|meta| meta.len()),
            Source::Stdin => None,
            Source::Bytes(bytes) => Some(bytes.len() as u64),
        }
    }

    /// A reader of the source's games on `threads` threads (every core
    /// when `None`), its bytes counted into `counter`, ending early once
    /// `counter` is stopped.
    ///
    /// Plain text that lies whole in memory (a plain file, mapped; plain
    /// bytes) is cut into chunks where it lies, with no copy
    /// (docs/performance.md, "Positions from a mapped file"); compressed
    /// text, and standard input, is streamed, decompressed on a thread of
    /// its own.
    ///
    /// # Errors
    /// The file's I/O error when it cannot be opened; a compression the
    /// crate was built without.
    pub fn open(
        &self,
        threads: Option<usize>,
        counter: &ReadCounter,
    ) -> io::Result<ParallelReader<Box<dyn Read + Send>>> {
        let reader = match self {
            Source::File(path) => match MappedFile::open_or_stream(path)? {
                Ok(mapped) => in_memory(mapped, counter),
                Err(file) => streamed(file, counter)?,
            },
            Source::Stdin => streamed(io::stdin(), counter)?,
            Source::Bytes(bytes) => match Compression::detect(bytes) {
                Compression::None => in_memory(Arc::clone(bytes), counter),
                _ => streamed(Cursor::new(Arc::clone(bytes)), counter)?,
            },
        };
        Ok(reader.threads_or_default(threads))
    }
}

/// A reader cutting `text` where it lies, each chunk's bytes counted.
fn in_memory(
    text: impl AsRef<[u8]> + Send + Sync + 'static,
    counter: &ReadCounter,
) -> ParallelReader<Box<dyn Read + Send>> {
    let counter = counter.clone();
    ParallelReader::in_memory(text)
        .on_cut(move |bytes| {
            counter.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
            !counter.is_stopped()
        })
        .boxed()
}

/// A reader of `input` decompressed on a thread of its own, its bytes
/// counted as they are read.
fn streamed(
    input: impl Read + Send + 'static,
    counter: &ReadCounter,
) -> io::Result<ParallelReader<Box<dyn Read + Send>>> {
    let counted = BufReader::with_capacity(
        1 << 16,
        Counted {
            inner: input,
            counter: counter.clone(),
        },
    );
    Ok(ParallelReader::new(decompress_in_background(counted)?).boxed())
}

/// Counts the bytes read through it, and ends the input once stopped.
struct Counted<R> {
    inner: R,
    counter: ReadCounter,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.counter.is_stopped() {
            return Ok(0);
        }
        let read = self.inner.read(buf)?;
        self.counter.bytes.fetch_add(read as u64, Ordering::Relaxed);
        Ok(read)
    }
}
