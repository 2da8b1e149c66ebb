//! Compressed input: zstd, gzip and bzip2 streams recognised by their
//! first bytes and decompressed as they are read, so that memory stays
//! bounded however large the file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek};
use std::path::Path;
use std::sync::mpsc::{Receiver, sync_channel};

use crate::input::read_from_buffer;

/// How an input is compressed, from its first bytes ([`Compression::detect`]).
///
/// ```
/// use bitboards_pgn::Compression;
///
/// assert_eq!(Compression::detect(b"\x28\xb5\x2f\xfd..."), Compression::Zstd);
/// assert_eq!(Compression::detect(b"\x1f\x8b\x08"), Compression::Gzip);
/// assert_eq!(Compression::detect(b"BZh9"), Compression::Bzip2);
/// assert_eq!(Compression::detect(b"[Event \"?\"]"), Compression::None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Compression {
    /// Plain text.
    None,
    /// Zstandard (`.zst`), as the Lichess database is published.
    Zstd,
    /// gzip (`.gz`), one or more members.
    Gzip,
    /// bzip2 (`.bz2`), one or more streams.
    Bzip2,
}

impl Compression {
    /// The compression whose magic number starts `head` (at least four
    /// bytes to tell them all apart).
    #[must_use]
    pub fn detect(head: &[u8]) -> Compression {
        match head {
            [0x28, 0xB5, 0x2F, 0xFD, ..] => Compression::Zstd,
            [0x1F, 0x8B, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', b'1'..=b'9', ..] => Compression::Bzip2,
            _ => Compression::None,
        }
    }

    /// The name used in messages and features: `zstd`, `gzip`, `bzip2`.
    ///
    /// ```
    /// use bitboards_pgn::Compression;
    ///
    /// assert_eq!(Compression::Zstd.name(), "zstd");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        }
    }
}

/// `inner`, decompressed if its first bytes say it is compressed: what
/// [`Reader::new`](crate::Reader::new) or [`ParallelReader`](crate::ParallelReader)
/// read. Plain text passes through untouched. The decoders stream: memory
/// does not grow with the input.
///
/// # Errors
/// The input's I/O error, or [`io::ErrorKind::Unsupported`] for a
/// compression whose feature (`zstd`, `gzip`, `bzip2`) is off.
///
/// ```
/// use std::io::Read;
///
/// let plain: &[u8] = b"1. e4 e5 *";
/// let mut text = String::new();
/// bitboards_pgn::decompress(plain)?.read_to_string(&mut text)?;
/// assert_eq!(text, "1. e4 e5 *");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn decompress<'a, R: BufRead + Send + 'a>(
    inner: R,
) -> io::Result<Box<dyn BufRead + Send + 'a>> {
    detect(inner).map(|(_, decoded)| decoded)
}

/// [`decompress`], with the decompression on a thread of its own when the
/// input is compressed: the reader then gets text as fast as it reads it,
/// and a `.pgn.zst` costs a second core rather than time. Plain input is
/// handed back as it is, with no thread. Memory stays bounded: the thread
/// is at most four blocks of 256 KiB ahead.
///
/// # Errors
/// As [`decompress`]; an error of the input or the decoder met later on the
/// thread comes out of the reads.
///
/// ```
/// use std::io::Read;
///
/// let plain: &'static [u8] = b"1. e4 e5 *";
/// let mut text = String::new();
/// bitboards_pgn::decompress_in_background(plain)?.read_to_string(&mut text)?;
/// assert_eq!(text, "1. e4 e5 *");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn decompress_in_background<R: BufRead + Send + 'static>(
    inner: R,
) -> io::Result<Box<dyn BufRead + Send>> {
    let (compression, decoded) = detect(inner)?;
    if compression == Compression::None {
        return Ok(decoded);
    }
    Ok(Box::new(Background::spawn(decoded)))
}

/// A plain PGN file mapped into memory, for
/// [`ParallelReader::in_memory`](crate::ParallelReader::in_memory): read
/// where it lies, with no copy into the reader's buffers.
///
/// ```
/// use bitboards_pgn::{MappedFile, ParallelReader, Visitor};
///
/// # let dir = std::env::temp_dir().join(format!("mapped-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("games.pgn");
/// std::fs::write(&path, "1. e4 e5 *\n\n1. d4 *\n")?;
/// let mapped = MappedFile::open_plain(&path)?.expect("a plain file, not empty");
/// assert_eq!(mapped.as_ref().len(), 20);
///
/// struct Nothing;
/// impl Visitor for Nothing {}
/// let mut games = 0;
/// ParallelReader::in_memory(mapped).threads(1).for_each(|| Nothing, |_| (), |_, _| games += 1)?;
/// assert_eq!(games, 2);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct MappedFile(memmap2::Mmap);

impl MappedFile {
    /// `path` mapped when it is a plain (not compressed), non-empty file;
    /// `None` for a compressed or empty one, or one that is not a regular
    /// file (a pipe, a device), which [`open`] reads.
    ///
    /// The file must not be cut shorter while it is mapped: reading the
    /// bytes it lost ends the process with `SIGBUS`, as in any program
    /// that maps its input. A file rewritten in place gives games that
    /// fail to read.
    ///
    /// # Errors
    /// The file's I/O error.
    pub fn open_plain(path: impl AsRef<Path>) -> io::Result<Option<MappedFile>> {
        Ok(MappedFile::open_or_stream(path)?.ok())
    }

    /// `path` mapped when it is a plain, non-empty regular file; else the
    /// file opened, at its start, to be streamed. A pipe is opened once
    /// only: opening a named pipe again would wait for another writer.
    pub(crate) fn open_or_stream(path: impl AsRef<Path>) -> io::Result<Result<MappedFile, File>> {
        let mut file = File::open(path)?;
        // A pipe (`<(zstdcat games.pgn.zst)`) or a device cannot be mapped:
        // it is streamed, and nothing of it has been read here.
        if !file.metadata()?.is_file() {
            return Ok(Err(file));
        }
        let mut head = [0; 4];
        let mut seen = 0;
        while seen < head.len() {
            match file.read(&mut head[seen..])? {
                0 => break,
                read => seen += read,
            }
        }
        if seen == 0 || Compression::detect(&head[..seen]) != Compression::None {
            file.seek(io::SeekFrom::Start(0))?;
            return Ok(Err(file));
        }
        // SAFETY: the mapping is read-only and owned by the `MappedFile`,
        // which the reader keeps for as long as it borrows its bytes; they
        // are only read, through bounds-checked slices, and any bytes are
        // valid input (the reader checks UTF-8 itself). What no mapped
        // reader can promise is that no other process changes the file
        // meanwhile (see above): games files are written once, then read.
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(&file) }?;
        Ok(Ok(MappedFile(map)))
    }
}

impl AsRef<[u8]> for MappedFile {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// Blocks decoded on another thread, read in order.
struct Background {
    blocks: Receiver<io::Result<Vec<u8>>>,
    block: Vec<u8>,
    at: usize,
}

/// The size of the blocks the decoding thread hands over, and how many may
/// wait.
const BLOCK: usize = 256 << 10;
const BLOCKS_AHEAD: usize = 4;

impl Background {
    fn spawn(mut decoded: Box<dyn BufRead + Send>) -> Background {
        let (send, blocks) = sync_channel(BLOCKS_AHEAD);
        std::thread::spawn(move || {
            loop {
                let mut block = vec![0; BLOCK];
                let mut len = 0;
                let result = loop {
                    if len == block.len() {
                        break Ok(());
                    }
                    match decoded.read(&mut block[len..]) {
                        Ok(0) => break Ok(()),
                        Ok(read) => len += read,
                        Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                        Err(error) => break Err(error),
                    }
                };
                block.truncate(len);
                let last = len < BLOCK;
                let sent = match result {
                    Ok(()) if len == 0 => break,
                    Ok(()) => send.send(Ok(block)),
                    Err(error) => {
                        let _ = send.send(Ok(block));
                        let _ = send.send(Err(error));
                        break;
                    }
                };
                // The reader is gone, or the input has ended.
                if sent.is_err() || last {
                    break;
                }
            }
        });
        Background {
            blocks,
            block: Vec::new(),
            at: 0,
        }
    }
}

impl Read for Background {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_from_buffer(self, buf)
    }
}

impl BufRead for Background {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at == self.block.len() {
            match self.blocks.recv() {
                Ok(Ok(block)) => {
                    self.block = block;
                    self.at = 0;
                }
                Ok(Err(error)) => return Err(error),
                // The thread has ended: so has the input.
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.block[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.block.len());
    }
}

/// The input's compression (from the first bytes buffered: fewer than four
/// only when the input is that short or hands out little at a time) and
/// the input decompressed.
#[allow(clippy::type_complexity)]
fn detect<'a, R: BufRead + Send + 'a>(
    mut inner: R,
) -> io::Result<(Compression, Box<dyn BufRead + Send + 'a>)> {
    let compression = loop {
        match inner.fill_buf() {
            Ok(head) => break Compression::detect(head),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    };
    Ok((compression, decoder(compression, inner)?))
}

/// The file at `path`, decompressed as [`decompress_in_background`] does.
///
/// # Errors
/// The file's I/O error, or an unsupported compression (see [`decompress`]).
///
/// ```no_run
/// use bitboards_pgn::Reader;
///
/// let mut reader = Reader::new(bitboards_pgn::open("lichess_db_standard_rated_2013-01.pgn.zst")?);
/// for game in reader.games() {
///     println!("{}", game?.mainline.moves().len());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn open(path: impl AsRef<Path>) -> io::Result<Box<dyn BufRead + Send>> {
    decompress_in_background(BufReader::with_capacity(1 << 16, File::open(path)?))
}

fn decoder<'a, R: BufRead + Send + 'a>(
    compression: Compression,
    inner: R,
) -> io::Result<Box<dyn BufRead + Send + 'a>> {
    let buffered = |read: Box<dyn Read + Send + 'a>| -> Box<dyn BufRead + Send + 'a> {
        Box::new(BufReader::with_capacity(1 << 16, read))
    };
    match compression {
        Compression::None => Ok(Box::new(inner)),
        #[cfg(feature = "zstd")]
        Compression::Zstd => Ok(buffered(Box::new(
            zstd::stream::read::Decoder::with_buffer(inner)?,
        ))),
        #[cfg(feature = "gzip")]
        Compression::Gzip => Ok(buffered(Box::new(flate2::bufread::MultiGzDecoder::new(
            inner,
        )))),
        #[cfg(feature = "bzip2")]
        Compression::Bzip2 => Ok(buffered(Box::new(bzip2::bufread::MultiBzDecoder::new(
            inner,
        )))),
        #[allow(unreachable_patterns)]
        other => {
            let _ = buffered;
            Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "the input is compressed with {0}, and bitboards-pgn was built without its feature `{0}`",
                    other.name()
                ),
            ))
        }
    }
}
