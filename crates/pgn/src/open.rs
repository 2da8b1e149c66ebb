//! Compressed input: zstd, gzip and bzip2 streams recognised by their
//! first bytes and decompressed as they are read, so that memory stays
//! bounded however large the file.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

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
    mut inner: R,
) -> io::Result<Box<dyn BufRead + Send + 'a>> {
    let compression = loop {
        match inner.fill_buf() {
            Ok(head) if head.len() >= 4 || head.is_empty() => break Compression::detect(head),
            // Fewer than four bytes buffered: a short input, or a reader
            // that hands out little at a time. Decide on what is there.
            Ok(head) => break Compression::detect(head),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    };
    decoder(compression, inner)
}

/// The file at `path`, decompressed as [`decompress`] does.
///
/// # Errors
/// The file's I/O error, or an unsupported compression (see [`decompress`]).
///
/// ```no_run
/// use bitboards_pgn::Reader;
///
/// let mut reader = Reader::new(bitboards_pgn::open("lichess_db_standard_rated_2013-01.pgn.zst")?);
/// for game in reader.games() {
///     println!("{}", game?.game.moves().len());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn open(path: impl AsRef<Path>) -> io::Result<Box<dyn BufRead + Send>> {
    decompress(BufReader::with_capacity(1 << 16, File::open(path)?))
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
