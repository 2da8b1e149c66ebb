//! Polyglot opening books: the `.bin` format every GUI and engine reads.
//!
//! A book is a sorted run of 16-byte entries, big-endian: the position's
//! Polyglot key ([`Position::polyglot_key`]), the move, a weight and a learn value.
//! [`Book`] reads one in place over its bytes (a `&[u8]`, a `Vec<u8>`, a
//! memory map): finding a position is a binary search, with no copy and no
//! allocation. [`BookWriter`] (feature `alloc`) collects entries and writes
//! a valid, sorted book.
//!
//! Moves are stored as Polyglot writes them: castling as the king taking its
//! own rook (`e1h1`), which is exactly this crate's castling [`Move`], in
//! standard chess and in Chess960 alike. A stored move that is not legal in
//! the position is skipped, as python-chess skips it.
//!
//! ```
//! use bitboards::book::{Book, BookWriter};
//! use bitboards::Position;
//!
//! let start = Position::START;
//! let e4 = start.parse_san("e4")?;
//! let d4 = start.parse_san("d4")?;
//! let mut writer = BookWriter::new();
//! writer.add(start.polyglot_key(), e4, 3, 0);
//! writer.add(start.polyglot_key(), d4, 1, 0);
//! writer.add(start.polyglot_key(), e4, 2, 0); // merged with the first: weight 5
//! let bytes = writer.to_bytes();
//!
//! let book = Book::from_bytes(&bytes[..])?;
//! let entries: Vec<_> = book.entries(&start).collect();
//! assert_eq!(entries.len(), 2);
//! assert_eq!((entries[0].mv, entries[0].weight), (e4, 5));
//! assert_eq!(book.best(&start, &Choose::default()).map(|entry| entry.mv), Some(e4));
//! # use bitboards::book::Choose;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use crate::{Move, MoveKind, PieceKind, Position, Square};

/// The size of one entry.
const ENTRY: usize = 16;

/// A Polyglot book over its bytes: `&[u8]`, `Vec<u8>`, or anything else
/// that holds them.
///
/// ```
/// use bitboards::book::Book;
///
/// let empty = Book::from_bytes(&[][..])?;
/// assert_eq!(empty.len(), 0);
/// assert!(Book::from_bytes(&[0u8; 15][..]).is_err());
/// # Ok::<(), bitboards::book::BookError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Book<B> {
    bytes: B,
}

/// One move of a position in a book.
///
/// ```
/// use bitboards::book::BookEntry;
/// use bitboards::Position;
///
/// let entry = BookEntry { mv: Position::START.parse_san("e4")?, weight: 10, learn: 0 };
/// assert_eq!(entry.mv.to_string(), "e2e4");
/// # Ok::<(), bitboards::SanError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BookEntry {
    /// The move, legal in the position (castling as this crate's castling
    /// move, the king taking its rook).
    pub mv: Move,
    /// How good the book finds it: higher is played more.
    pub weight: u16,
    /// The learn field, as the book stores it (most books hold 0).
    pub learn: u32,
}

/// What the choosing methods leave out, with python-chess's defaults.
///
/// ```
/// use bitboards::book::Choose;
///
/// let choose = Choose::default();
/// assert_eq!(choose.minimum_weight, 1);
/// assert!(choose.exclude.is_empty());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Choose<'a> {
    /// Entries lighter than this are not chosen (1 by default, so that
    /// weight-0 entries, kept in books to mark bad moves, are not).
    pub minimum_weight: u16,
    /// Moves not to choose.
    pub exclude: &'a [Move],
}

impl Default for Choose<'_> {
    fn default() -> Self {
        Choose {
            minimum_weight: 1,
            exclude: &[],
        }
    }
}

impl Choose<'_> {
    fn allows(&self, entry: &BookEntry) -> bool {
        entry.weight >= self.minimum_weight && !self.exclude.contains(&entry.mv)
    }
}

/// Why bytes are not a Polyglot book.
///
/// ```
/// use bitboards::book::{Book, BookError};
///
/// assert_eq!(Book::from_bytes(&[0u8; 20][..]).unwrap_err(), BookError::Length { len: 20 });
/// assert_eq!(
///     BookError::Length { len: 20 }.to_string(),
///     "a Polyglot book is a whole number of 16-byte entries; this one has 20 bytes (4 too many)"
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum BookError {
    /// The length is not a multiple of 16.
    Length {
        /// The number of bytes.
        len: usize,
    },
    /// An entry's key is smaller than the one before it: the book is not
    /// sorted, and a binary search would miss positions.
    Unsorted {
        /// The entry's index, from 0.
        entry: usize,
    },
    /// An entry's move does not decode: a promotion code above 4, or a
    /// move from a square to itself.
    BadMove {
        /// The entry's index, from 0.
        entry: usize,
        /// The move's 16 bits.
        bits: u16,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BookError::Length { len } => write!(
                f,
                "a Polyglot book is a whole number of 16-byte entries; this one has {len} bytes ({} too many)",
                len % ENTRY
            ),
            BookError::Unsorted { entry } => write!(
                f,
                "entry {entry} has a smaller key than the entry before it; a Polyglot book is sorted by key"
            ),
            BookError::BadMove { entry, bits } => write!(
                f,
                "entry {entry} holds move bits {bits:#06x}, which name no move (promotion code above 4, or from and to the same square)"
            ),
        }
    }
}

impl core::error::Error for BookError {}

/// The parts of an entry.
struct Raw {
    key: u64,
    mv: u16,
    weight: u16,
    learn: u32,
}

fn raw(entry: &[u8]) -> Raw {
    let mut key = [0; 8];
    key.copy_from_slice(&entry[..8]);
    Raw {
        key: u64::from_be_bytes(key),
        mv: u16::from_be_bytes([entry[8], entry[9]]),
        weight: u16::from_be_bytes([entry[10], entry[11]]),
        learn: u32::from_be_bytes([entry[12], entry[13], entry[14], entry[15]]),
    }
}

/// A Polyglot move's squares and promotion, if its bits name one.
fn decode(bits: u16) -> Option<(Square, Square, Option<PieceKind>)> {
    let to = Square::new((bits & 0x3F) as u8)?;
    let from = Square::new(((bits >> 6) & 0x3F) as u8)?;
    let promotion = match (bits >> 12) & 0x7 {
        0 => None,
        1 => Some(PieceKind::Knight),
        2 => Some(PieceKind::Bishop),
        3 => Some(PieceKind::Rook),
        4 => Some(PieceKind::Queen),
        _ => return None,
    };
    (from != to && bits >> 15 == 0).then_some((from, to, promotion))
}

/// A move's Polyglot bits: castling as the king taking its rook, which is
/// how this crate's castling moves are made already.
///
/// ```
/// use bitboards::book::encode;
/// use bitboards::{Move, MoveKind, Square};
///
/// let castle = Move::new(Square::E1, Square::H1, MoveKind::Castling);
/// assert_eq!(encode(castle), (4 << 6) | 7);
/// ```
#[must_use]
pub const fn encode(mv: Move) -> u16 {
    let promotion = match mv.promotion() {
        None => 0,
        Some(PieceKind::Knight) => 1,
        Some(PieceKind::Bishop) => 2,
        Some(PieceKind::Rook) => 3,
        Some(_) => 4,
    };
    (promotion << 12) | ((mv.from() as u16) << 6) | mv.to() as u16
}

impl<B: AsRef<[u8]>> Book<B> {
    /// A book over `bytes`, checked whole: a length that is a multiple of
    /// 16, keys in order, and moves that decode.
    ///
    /// # Errors
    /// [`BookError`] naming the first entry at fault.
    ///
    /// ```
    /// use bitboards::book::{Book, BookError};
    ///
    /// let mut bytes = [0u8; 32];
    /// bytes[0] = 1; // the first key is larger than the second
    /// bytes[9] = 1; bytes[25] = 1; // a1 to b1 for both moves
    /// assert_eq!(Book::from_bytes(&bytes[..]).unwrap_err(), BookError::Unsorted { entry: 1 });
    /// ```
    pub fn from_bytes(bytes: B) -> Result<Book<B>, BookError> {
        let data = bytes.as_ref();
        if data.len() % ENTRY != 0 {
            return Err(BookError::Length { len: data.len() });
        }
        let mut last = 0;
        for (entry, chunk) in data.chunks_exact(ENTRY).enumerate() {
            let raw = raw(chunk);
            if raw.key < last {
                return Err(BookError::Unsorted { entry });
            }
            last = raw.key;
            if decode(raw.mv).is_none() {
                return Err(BookError::BadMove {
                    entry,
                    bits: raw.mv,
                });
            }
        }
        Ok(Book { bytes })
    }

    /// The number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bytes.as_ref().len() / ENTRY
    }

    /// Whether the book has no entry.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The position's entries in book order, weight-0 ones included, moves
    /// that are not legal in it skipped. A binary search and no allocation.
    ///
    /// ```
    /// use bitboards::book::{Book, BookWriter};
    /// use bitboards::Position;
    ///
    /// let start = Position::START;
    /// let mut writer = BookWriter::new();
    /// writer.add(start.polyglot_key(), start.parse_san("Nf3")?, 0, 7);
    /// let bytes = writer.to_bytes();
    /// let book = Book::from_bytes(&bytes[..])?;
    /// let entry = book.entries(&start).next().expect("the entry");
    /// assert_eq!((entry.weight, entry.learn), (0, 7));
    /// assert_eq!(book.entries(&start.play_unchecked(entry.mv)).count(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn entries<'b>(&'b self, position: &Position) -> Entries<'b> {
        let data = self.bytes.as_ref();
        let key = position.polyglot_key();
        // The first entry whose key is not below `key`.
        let (mut low, mut high) = (0, data.len() / ENTRY);
        while low < high {
            let middle = low + (high - low) / 2;
            if raw(&data[middle * ENTRY..][..ENTRY]).key < key {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        Entries {
            rest: &data[low * ENTRY..],
            key,
            position: *position,
        }
    }

    /// The heaviest entry that `choose` allows (the first of the heaviest),
    /// as python-chess's `find`.
    ///
    /// ```
    /// use bitboards::book::{Book, BookWriter, Choose};
    /// use bitboards::Position;
    ///
    /// let start = Position::START;
    /// let (e4, d4) = (start.parse_san("e4")?, start.parse_san("d4")?);
    /// let mut writer = BookWriter::new();
    /// writer.add(start.polyglot_key(), e4, 5, 0);
    /// writer.add(start.polyglot_key(), d4, 3, 0);
    /// let bytes = writer.to_bytes();
    /// let book = Book::from_bytes(&bytes[..])?;
    /// assert_eq!(book.best(&start, &Choose::default()).map(|e| e.mv), Some(e4));
    /// let not_e4 = Choose { exclude: &[e4], ..Choose::default() };
    /// assert_eq!(book.best(&start, &not_e4).map(|e| e.mv), Some(d4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn best(&self, position: &Position, choose: &Choose<'_>) -> Option<BookEntry> {
        self.entries(position)
            .filter(|entry| choose.allows(entry))
            .fold(None, |best: Option<BookEntry>, entry| match best {
                Some(best) if best.weight >= entry.weight => Some(best),
                _ => Some(entry),
            })
    }

    /// An entry that `choose` allows, each as likely as the others
    /// (python-chess's `choice`); `random` gives uniform 64-bit numbers.
    ///
    /// ```
    /// use bitboards::book::{Book, BookWriter, Choose};
    /// use bitboards::Position;
    ///
    /// let start = Position::START;
    /// let mut writer = BookWriter::new();
    /// writer.add(start.polyglot_key(), start.parse_san("e4")?, 1, 0);
    /// writer.add(start.polyglot_key(), start.parse_san("c4")?, 100, 0);
    /// let bytes = writer.to_bytes();
    /// let book = Book::from_bytes(&bytes[..])?;
    /// let mut state = 1u64;
    /// let mut random = || { state = state.wrapping_mul(6364136223846793005).wrapping_add(1); state };
    /// let picks: Vec<_> = (0..100).filter_map(|_| book.choice(&start, &Choose::default(), &mut random)).collect();
    /// assert!(picks.iter().any(|e| e.weight == 1) && picks.iter().any(|e| e.weight == 100));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn choice(
        &self,
        position: &Position,
        choose: &Choose<'_>,
        random: &mut impl FnMut() -> u64,
    ) -> Option<BookEntry> {
        let count = self
            .entries(position)
            .filter(|entry| choose.allows(entry))
            .count();
        if count == 0 {
            return None;
        }
        let pick = (random() % count as u64) as usize;
        self.entries(position)
            .filter(|entry| choose.allows(entry))
            .nth(pick)
    }

    /// An entry that `choose` allows, each as likely as its weight says
    /// (python-chess's `weighted_choice`); `random` gives uniform 64-bit
    /// numbers.
    ///
    /// ```
    /// use bitboards::book::{Book, BookWriter, Choose};
    /// use bitboards::Position;
    ///
    /// let start = Position::START;
    /// let mut writer = BookWriter::new();
    /// writer.add(start.polyglot_key(), start.parse_san("e4")?, 1, 0);
    /// writer.add(start.polyglot_key(), start.parse_san("c4")?, 999, 0);
    /// let bytes = writer.to_bytes();
    /// let book = Book::from_bytes(&bytes[..])?;
    /// let mut state = 7u64;
    /// let mut random = || { state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407); state };
    /// let heavy = (0..1000)
    ///     .filter_map(|_| book.weighted_choice(&start, &Choose::default(), &mut random))
    ///     .filter(|e| e.weight == 999)
    ///     .count();
    /// assert!(heavy > 950, "{heavy}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn weighted_choice(
        &self,
        position: &Position,
        choose: &Choose<'_>,
        random: &mut impl FnMut() -> u64,
    ) -> Option<BookEntry> {
        let total: u64 = self
            .entries(position)
            .filter(|entry| choose.allows(entry))
            .map(|entry| u64::from(entry.weight))
            .sum();
        if total == 0 {
            return None;
        }
        let mut pick = random() % total;
        self.entries(position)
            .filter(|entry| choose.allows(entry))
            .find(|entry| {
                let weight = u64::from(entry.weight);
                if pick < weight {
                    true
                } else {
                    pick -= weight;
                    false
                }
            })
    }
}

#[cfg(feature = "std")]
impl Book<alloc::vec::Vec<u8>> {
    /// The book in the file at `path`, read whole and checked.
    ///
    /// # Errors
    /// The file's I/O error, or what [`Book::from_bytes`] finds (as
    /// [`std::io::ErrorKind::InvalidData`], with the [`BookError`] inside).
    ///
    /// ```no_run
    /// use bitboards::book::{Book, Choose};
    /// use bitboards::Position;
    ///
    /// let book = Book::open("performance.bin")?;
    /// if let Some(entry) = book.best(&Position::START, &Choose::default()) {
    ///     println!("{}", Position::START.san(entry.mv));
    /// }
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn open(path: impl AsRef<std::path::Path>) -> std::io::Result<Self> {
        let bytes = std::fs::read(path)?;
        Book::from_bytes(bytes)
            .map_err(|error| std::io::Error::new(std::io::ErrorKind::InvalidData, error))
    }
}

/// The entries of one position, from [`Book::entries`].
#[derive(Clone, Debug)]
pub struct Entries<'b> {
    rest: &'b [u8],
    key: u64,
    position: Position,
}

impl Iterator for Entries<'_> {
    type Item = BookEntry;

    fn next(&mut self) -> Option<BookEntry> {
        loop {
            let entry = self.rest.get(..ENTRY)?;
            let raw = raw(entry);
            if raw.key != self.key {
                self.rest = &[];
                return None;
            }
            self.rest = &self.rest[ENTRY..];
            if let Some(mv) = legal(&self.position, raw.mv) {
                return Some(BookEntry {
                    mv,
                    weight: raw.weight,
                    learn: raw.learn,
                });
            }
        }
    }
}

/// The legal move of `position` that Polyglot's `bits` name.
fn legal(position: &Position, bits: u16) -> Option<Move> {
    let (from, to, promotion) = decode(bits)?;
    let kind = match promotion {
        Some(piece) => MoveKind::Promotion(piece),
        None => match position.piece_on(from) {
            Some(piece)
                if piece.kind() == PieceKind::King
                    && position.piece_on(to).is_some_and(|rook| {
                        rook.kind() == PieceKind::Rook && rook.color() == piece.color()
                    }) =>
            {
                MoveKind::Castling
            }
            Some(piece)
                if piece.kind() == PieceKind::Pawn
                    && position.en_passant() == Some(to)
                    && from.file() != to.file() =>
            {
                MoveKind::EnPassant
            }
            _ => MoveKind::Normal,
        },
    };
    let mv = Move::new(from, to, kind);
    position.is_legal(mv).then_some(mv)
}

/// Collects book entries and writes a valid Polyglot book: sorted by key,
/// equal moves of a position merged (weights added), and a position whose
/// weights overflow 16 bits scaled down, ratios kept, rather than wrapped.
///
/// ```
/// use bitboards::book::{Book, BookWriter};
/// use bitboards::Position;
///
/// let start = Position::START;
/// let (e4, d4) = (start.parse_san("e4")?, start.parse_san("d4")?);
/// let mut writer = BookWriter::new();
/// writer.add(start.polyglot_key(), e4, 100_000, 0);
/// writer.add(start.polyglot_key(), d4, 50_000, 0);
/// let bytes = writer.to_bytes();
/// let book = Book::from_bytes(&bytes[..])?;
/// let weights: Vec<u16> = book.entries(&start).map(|e| e.weight).collect();
/// assert_eq!(weights, [65535, 32767]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, Default)]
pub struct BookWriter {
    entries: alloc::vec::Vec<(u64, u16, u64, u32)>,
}

#[cfg(feature = "alloc")]
impl BookWriter {
    /// An empty writer.
    #[must_use]
    pub fn new() -> BookWriter {
        BookWriter::default()
    }

    /// Adds `mv` for the position whose Polyglot key is `key`, with its
    /// weight (any size: scaled when written) and learn value (the largest
    /// is kept when equal moves merge).
    pub fn add(&mut self, key: u64, mv: Move, weight: u64, learn: u32) {
        self.entries.push((key, encode(mv), weight, learn));
    }

    /// The number of entries added (before merging).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing was added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's bytes: for each key in order, its moves heaviest first.
    #[must_use]
    pub fn to_bytes(&self) -> alloc::vec::Vec<u8> {
        let mut entries = self.entries.clone();
        entries.sort_unstable_by_key(|&(key, mv, _, _)| (key, mv));
        let mut merged: alloc::vec::Vec<(u64, u16, u64, u32)> = alloc::vec::Vec::new();
        for (key, mv, weight, learn) in entries {
            match merged.last_mut() {
                Some(last) if last.0 == key && last.1 == mv => {
                    last.2 = last.2.saturating_add(weight);
                    last.3 = last.3.max(learn);
                }
                _ => merged.push((key, mv, weight, learn)),
            }
        }
        let mut bytes = alloc::vec::Vec::with_capacity(merged.len() * ENTRY);
        for position in merged.chunk_by_mut(|a, b| a.0 == b.0) {
            let key = position[0].0;
            let mut moves: alloc::vec::Vec<(u16, u64, u32)> = position
                .iter()
                .map(|&(_, mv, weight, learn)| (mv, weight, learn))
                .collect();
            write_position(key, &mut moves, |entry| bytes.extend_from_slice(&entry));
        }
        bytes
    }
}

/// One position's entries as a book stores them, each handed to `emit` as
/// its 16 bytes: heaviest first (then by move), weights above 65535 scaled
/// down with their ratios kept (never to 0 from above 0). `moves` holds
/// each move once, as Polyglot bits ([`encode`]), with its weight and
/// learn value. For writers that stream a book too large to hold, one
/// position at a time in key order.
///
/// ```
/// use bitboards::book::write_position;
///
/// let mut moves = [(0x0123, 10, 0), (0x0456, 200_000, 0)];
/// let mut out = Vec::new();
/// write_position(7, &mut moves, |entry| out.extend_from_slice(&entry));
/// assert_eq!(out.len(), 32);
/// assert_eq!(&out[8..12], &[0x04, 0x56, 0xFF, 0xFF]); // heaviest, scaled to 65535
/// assert_eq!(&out[24..28], &[0x01, 0x23, 0x00, 0x03]); // 10 * 65535 / 200000
/// ```
pub fn write_position(key: u64, moves: &mut [(u16, u64, u32)], mut emit: impl FnMut([u8; 16])) {
    moves.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let heaviest = moves.first().map_or(0, |&(_, weight, _)| weight);
    for &(mv, weight, learn) in moves.iter() {
        let weight = if heaviest > u64::from(u16::MAX) {
            let scaled = u128::from(weight) * u128::from(u16::MAX) / u128::from(heaviest);
            (scaled as u16).max(u16::from(weight > 0))
        } else {
            weight as u16
        };
        let mut entry = [0u8; ENTRY];
        entry[..8].copy_from_slice(&key.to_be_bytes());
        entry[8..10].copy_from_slice(&mv.to_be_bytes());
        entry[10..12].copy_from_slice(&weight.to_be_bytes());
        entry[12..].copy_from_slice(&learn.to_be_bytes());
        emit(entry);
    }
}
