//! A segment file: the games of one build step and the positions they
//! reach, sorted by key, read whole into memory when opened.
//!
//! ```text
//! header (136 bytes): magic "BBEXSEG1", version, flags, counts, section
//!                     offsets (in the body decompressed), the body's length
//!                     as stored and its checksum, the header's checksum
//! body               zstd frames (flag 2) or plain: the games and players,
//!                     each run of blocks (as encoded on one core) and the
//!                     block index each in frames of its own, of 1 MiB at
//!                     most; holding, decompressed:
//! games              one record per game (id, names, ratings, result,
//!                     speed, month, the first plies' moves, FEN; a masters
//!                     segment's also all moves, Event, Site, Round, Date)
//! game offsets       u64 per game
//! names              each player's name in lower case and games (index,
//!                     colour), sorted by name
//! name offsets       u64 per name
//! blocks             positions: key (12 bytes), payload length, payload
//!                     (rows by month, move, speed, rating band)
//! block index        first key and offset of each block of positions
//! ```
//!
//! Every number is little-endian; counts and most numbers are LEB128
//! varints. A segment is read whole into memory (decompressed) when
//! opened. Every read is bounds-checked, and the body's checksum is
//! verified when the segment is opened: a truncated or altered file is an
//! [`IndexError::Corrupt`], never a panic or a wrong answer.

use std::path::{Path, PathBuf};

use crate::IndexError;
use crate::key::{KEY_BYTES, Key};

pub(crate) const MAGIC: &[u8; 8] = b"BBEXSEG1";
pub(crate) const VERSION: u32 = 3;
pub(crate) const HEADER_BYTES: usize = 136;
/// Positions per block of the block index.
pub(crate) const BLOCK_KEYS: usize = 32;
/// Games kept per row of a Lichess index: the latest (lila-openingexplorer
/// keeps 8).
pub(crate) const ROW_GAMES: usize = 8;
/// Games kept per row of a masters index: those of the highest rating
/// sums, as many as `/masters` answers top games (lila-openingexplorer's
/// `MAX_MASTERS_GAMES`), so that its top games are exact for any years.
pub(crate) const MASTERS_ROW_GAMES: usize = 15;

/// A segment flag: a masters index (years, top games by rating).
pub(crate) const FLAG_MASTERS: u32 = 1;
/// A segment flag: the body is zstd frames.
pub(crate) const FLAG_COMPRESSED: u32 = 2;
/// The most bytes of the body one zstd frame holds.
const FRAME_BYTES: usize = 1 << 20;
/// zstd's level for segments: its default, a fifth of the build's time at
/// most (docs/performance.md, "Opening explorer").
const COMPRESSION_LEVEL: i32 = 3;

/// Appends `value` as an LEB128 varint.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// A 64-bit checksum of `bytes`: eight bytes at a time through a
/// multiply-and-fold, the tail byte by byte.
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    let mut sum = Checksum::new(bytes.len());
    sum.update(bytes);
    sum.finish()
}

/// [`checksum`] of bytes given in pieces: of their concatenation, whose
/// length is given first.
pub(crate) struct Checksum {
    hash: u64,
    word: [u8; 8],
    filled: usize,
}

impl Checksum {
    pub(crate) fn new(length: usize) -> Checksum {
        Checksum {
            hash: 0x6a09_e667_f3bc_c908_u64 ^ length as u64,
            word: [0; 8],
            filled: 0,
        }
    }

    fn mix(&mut self, word: [u8; 8]) {
        let product = u128::from(self.hash ^ u64::from_le_bytes(word)) * 0x9e37_79b9_7f4a_7c15_u128;
        self.hash = (product as u64) ^ ((product >> 64) as u64);
    }

    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
        if self.filled > 0 {
            let take = (8 - self.filled).min(bytes.len());
            self.word[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled < 8 {
                return;
            }
            self.mix(self.word);
            self.filled = 0;
        }
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut eight = [0; 8];
            eight.copy_from_slice(word);
            self.mix(eight);
        }
        let rest = words.remainder();
        self.word[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    pub(crate) fn finish(self) -> u64 {
        let mut hash = self.hash;
        for &byte in &self.word[..self.filled] {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        hash
    }
}

/// A cursor over a segment's bytes whose every read is checked.
#[derive(Clone, Copy)]
pub(crate) struct Cursor<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) at: usize,
    pub(crate) file: &'a Path,
}

impl<'a> Cursor<'a> {
    pub(crate) fn corrupt(&self, what: &str) -> IndexError {
        IndexError::Corrupt {
            file: self.file.to_path_buf(),
            detail: format!("{what} at byte {}", self.at),
        }
    }

    pub(crate) fn take(&mut self, count: usize) -> Result<&'a [u8], IndexError> {
        let end = self
            .at
            .checked_add(count)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| self.corrupt("truncated record"))?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, IndexError> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16, IndexError> {
        let bytes = self.take(2)?;
        Ok(u16::from_le_bytes([bytes[0], bytes[1]]))
    }

    pub(crate) fn u32(&mut self) -> Result<u32, IndexError> {
        let mut four = [0; 4];
        four.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(four))
    }

    pub(crate) fn u64(&mut self) -> Result<u64, IndexError> {
        let mut eight = [0; 8];
        eight.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(eight))
    }

    pub(crate) fn varint(&mut self) -> Result<u64, IndexError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.u8()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.corrupt("overlong number"))
    }

    /// A varint that must fit in `usize` and be at most `limit`.
    pub(crate) fn count(&mut self, limit: usize) -> Result<usize, IndexError> {
        let value = self.varint()?;
        usize::try_from(value)
            .ok()
            .filter(|&value| value <= limit)
            .ok_or_else(|| self.corrupt("count out of range"))
    }

    pub(crate) fn text(&mut self) -> Result<&'a str, IndexError> {
        let length = self.count(self.bytes.len())?;
        let bytes = self.take(length)?;
        std::str::from_utf8(bytes).map_err(|_| self.corrupt("text not UTF-8"))
    }

    pub(crate) fn key(&mut self) -> Result<Key, IndexError> {
        let bytes = self.take(KEY_BYTES)?;
        Key::from_bytes(bytes).ok_or_else(|| self.corrupt("bad key"))
    }
}

/// The fixed header of a segment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Header {
    pub(crate) flags: u32,
    pub(crate) max_ply: u32,
    pub(crate) games: u64,
    pub(crate) names: u64,
    pub(crate) keys: u64,
    pub(crate) blocks: u64,
    /// Offsets of the sections, in file order, and the end.
    pub(crate) games_at: u64,
    pub(crate) game_offsets_at: u64,
    pub(crate) names_at: u64,
    pub(crate) name_offsets_at: u64,
    pub(crate) blocks_at: u64,
    pub(crate) block_index_at: u64,
    pub(crate) end: u64,
}

impl Header {
    /// The file's header (with [`FLAG_COMPRESSED`] set), for a body stored
    /// as `stored`: the body's parts, each compressed by [`compress_part`],
    /// to be written end to end after it.
    pub(crate) fn bytes(&self, stored: &[&[u8]]) -> Vec<u8> {
        let flags = self.flags | FLAG_COMPRESSED;
        let length: usize = stored.iter().map(|part| part.len()).sum();
        let mut sum = Checksum::new(length);
        for part in stored {
            sum.update(part);
        }
        let mut out = Vec::with_capacity(HEADER_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(&self.max_ply.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        for value in [
            self.games,
            self.names,
            self.keys,
            self.blocks,
            self.games_at,
            self.game_offsets_at,
            self.names_at,
            self.name_offsets_at,
            self.blocks_at,
            self.block_index_at,
            self.end,
            length as u64,
            sum.finish(),
        ] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads and checks the file `bytes`: its header, the stored body's
    /// length and checksum; returns the header and the segment's image
    /// (the header's bytes, then the body, decompressed), whose offsets the
    /// header gives.
    pub(crate) fn read(bytes: &[u8], file: &Path) -> Result<(Header, Vec<u8>), IndexError> {
        let corrupt = |detail: &str| IndexError::Corrupt {
            file: file.to_path_buf(),
            detail: detail.to_owned(),
        };
        if bytes.len() < HEADER_BYTES {
            return Err(corrupt("shorter than a segment header (truncated)"));
        }
        if &bytes[..8] != MAGIC {
            return Err(corrupt("not a bitboards explorer segment (bad magic)"));
        }
        let mut cursor = Cursor { bytes, at: 8, file };
        let version = cursor.u32()?;
        if version != VERSION {
            return Err(corrupt(&format!(
                "segment version {version}, this build reads {VERSION}"
            )));
        }
        let flags = cursor.u32()?;
        let max_ply = cursor.u32()?;
        cursor.u32()?;
        let mut values = [0u64; 13];
        for value in &mut values {
            *value = cursor.u64()?;
        }
        let summed = cursor.at;
        if checksum(&bytes[..summed]) != cursor.u64()? {
            return Err(corrupt("header checksum mismatch"));
        }
        let [
            games,
            names,
            keys,
            blocks,
            games_at,
            game_offsets_at,
            names_at,
            name_offsets_at,
            blocks_at,
            block_index_at,
            end,
            stored,
            body_sum,
        ] = values;
        let header = Header {
            flags,
            max_ply,
            games,
            names,
            keys,
            blocks,
            games_at,
            game_offsets_at,
            names_at,
            name_offsets_at,
            blocks_at,
            block_index_at,
            end,
        };
        let body = &bytes[HEADER_BYTES..];
        if body.len() as u64 != stored {
            return Err(corrupt(&format!(
                "{} bytes where the header says {} (truncated or extended)",
                bytes.len(),
                HEADER_BYTES as u64 + stored
            )));
        }
        if checksum(body) != body_sum {
            return Err(corrupt(
                "checksum mismatch (the file was altered or damaged)",
            ));
        }
        let size = end
            .checked_sub(HEADER_BYTES as u64)
            .ok_or_else(|| corrupt("section offsets out of order"))?;
        let mut image = bytes[..HEADER_BYTES].to_vec();
        if flags & FLAG_COMPRESSED != 0 {
            // A bound on what the body can hold, whatever its header says.
            if size > stored.saturating_mul(2048).saturating_add(1 << 20) {
                return Err(corrupt("a compressed body too small for its size"));
            }
            let capacity = usize::try_from(size).map_err(|_| corrupt("a body too large"))?;
            let plain = zstd::bulk::decompress(body, capacity)
                .map_err(|error| corrupt(&format!("the body does not decompress: {error}")))?;
            image.extend_from_slice(&plain);
        } else {
            image.extend_from_slice(body);
        }
        if end != image.len() as u64 {
            return Err(corrupt(&format!(
                "a body of {} bytes where the header says {size}",
                image.len() - HEADER_BYTES
            )));
        }
        let ordered = [
            HEADER_BYTES as u64,
            games_at,
            game_offsets_at,
            names_at,
            name_offsets_at,
            blocks_at,
            block_index_at,
            end,
        ];
        let table_end = |at: u64, count: u64, width: u64| {
            count
                .checked_mul(width)
                .and_then(|bytes| at.checked_add(bytes))
        };
        if ordered.windows(2).any(|pair| pair[0] > pair[1])
            || table_end(game_offsets_at, games, 8) != Some(names_at)
            || table_end(name_offsets_at, names, 8) != Some(blocks_at)
            || table_end(block_index_at, blocks, KEY_BYTES as u64 + 8) != Some(end)
        {
            return Err(corrupt("section offsets out of order"));
        }
        Ok((header, image))
    }
}

/// What a part of a segment's body holds, for its compression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// Games, players and the tables of offsets: zstd's level 3.
    Games,
    /// Position blocks, mostly keys (hashes, which do not compress) and
    /// rows of a few bytes: zstd's fastest strategy with a larger hash
    /// table (2^16) and matches of 5 bytes, which here compresses as well
    /// as level 3 at about twice its speed (docs/performance.md, "Opening
    /// explorer").
    Blocks,
}

/// A part of a segment's body as zstd frames of a megabyte at most: the
/// parts, each compressed where it was made (on the core that encoded
/// it), are laid end to end (zstd reads concatenated frames as one).
pub(crate) fn compress_part(part: &[u8], kind: Part) -> std::io::Result<Vec<u8>> {
    use zstd::zstd_safe::{CParameter, Strategy};
    let mut compressor = match kind {
        Part::Games => zstd::bulk::Compressor::new(COMPRESSION_LEVEL)?,
        Part::Blocks => {
            let mut compressor = zstd::bulk::Compressor::new(1)?;
            compressor.set_parameter(CParameter::Strategy(Strategy::ZSTD_fast))?;
            compressor.set_parameter(CParameter::HashLog(16))?;
            compressor.set_parameter(CParameter::MinMatch(5))?;
            compressor
        }
    };
    let mut out = Vec::with_capacity(part.len() / 2);
    for piece in part.chunks(FRAME_BYTES) {
        out.extend_from_slice(&compressor.compress(piece)?);
    }
    Ok(out)
}

/// `bytes` with the checksums of its header and body made right (what
/// the fuzz target does to reach the decoding behind them), and the
/// stored length set to what follows the header.
pub(crate) fn reseal(bytes: &mut [u8]) {
    if bytes.len() < HEADER_BYTES {
        return;
    }
    // After the 24 bytes of magic, version, flags, max ply and padding:
    // twelve u64, then the stored length, the body's checksum and the
    // header's.
    let stored = (bytes.len() - HEADER_BYTES) as u64;
    let at = 24 + 11 * 8;
    bytes[at..at + 8].copy_from_slice(&stored.to_le_bytes());
    let body = checksum(&bytes[HEADER_BYTES..]);
    bytes[at + 8..at + 16].copy_from_slice(&body.to_le_bytes());
    let header = checksum(&bytes[..at + 16]);
    bytes[at + 16..at + 24].copy_from_slice(&header.to_le_bytes());
}

/// The segment `bytes` (a file as written) with its body stored plain:
/// what the tests and the fuzz target alter, to reach the decoder.
pub(crate) fn uncompressed(bytes: &[u8]) -> Result<Vec<u8>, IndexError> {
    let (_, mut image) = Header::read(bytes, Path::new("<bytes>"))?;
    let flags = u32::from_le_bytes([image[12], image[13], image[14], image[15]]) & !FLAG_COMPRESSED;
    image[12..16].copy_from_slice(&flags.to_le_bytes());
    reseal(&mut image);
    Ok(image)
}

/// Where segment number `number` of the index in `dir` lives.
pub(crate) fn segment_path(dir: &Path, number: u64) -> PathBuf {
    dir.join(format!("segment-{number:06}.bbx"))
}
