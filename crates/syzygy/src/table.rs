//! One table file, read from its bytes: the header (which pieces, in what
//! order, how the index is built), then the compressed values, decoded one
//! at a time. Every read is checked against the file's length: a file cut
//! short or corrupted is a [`Malformed`], never a panic or a read out of
//! bounds.
//!
//! The layout, as the format's generator writes it: a magic number, a
//! flags byte, then for each table of the file (one per side to move for
//! WDL files of unequal material, and one per file of the leading pawn,
//! a to d, for files with pawns) the order and the pieces of its index;
//! then each table's decoding parameters; for DTZ files, the maps from
//! stored values to distances; then each table's sparse index, its block
//! lengths and, each aligned to 64 bytes, its blocks of Huffman-coded
//! symbols (symbols that stand for pairs of symbols, recursively).

use crate::encoding::{binomial, lead_pawns_size};
use crate::error::Malformed;

/// WDL or DTZ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// Win, draw or loss (`.rtbw`).
    Wdl,
    /// Distance to zeroing (`.rtbz`).
    Dtz,
}

impl Kind {
    pub(crate) const fn magic(self) -> [u8; 4] {
        match self {
            Kind::Wdl => [0x71, 0xe8, 0x23, 0x5d],
            Kind::Dtz => [0xd7, 0x66, 0x0c, 0xa5],
        }
    }

    pub(crate) const fn extension(self) -> &'static str {
        match self {
            Kind::Wdl => "rtbw",
            Kind::Dtz => "rtbz",
        }
    }
}

/// The material of a table as its name says it (`KRPvKR`): the pieces of
/// the side named first ("white" in the table) and of the other, counted
/// by kind (pawn, knight, bishop, rook, queen, king).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Material {
    pub(crate) counts: [[u8; 6]; 2],
}

impl Material {
    /// The pieces of both sides.
    pub(crate) fn piece_count(&self) -> usize {
        self.counts.iter().flatten().map(|&n| usize::from(n)).sum()
    }

    pub(crate) fn has_pawns(&self) -> bool {
        self.counts[0][0] + self.counts[1][0] > 0
    }

    /// Both sides have the same pieces (`KRvKR`).
    pub(crate) fn is_symmetric(&self) -> bool {
        self.counts[0] == self.counts[1]
    }

    /// Some piece other than a king is alone of its kind and colour.
    pub(crate) fn has_unique_pieces(&self) -> bool {
        self.counts.iter().any(|side| side[..5].contains(&1))
    }

    /// The pawns of the leading colour (the one with fewer pawns, if both
    /// have some; White if equal) and of the other: `(lead, other)`, with
    /// whether the leading colour is the table's second.
    pub(crate) fn pawn_counts(&self) -> ([u8; 2], bool) {
        let (white, black) = (self.counts[0][0], self.counts[1][0]);
        let white_leads = black == 0 || (white > 0 && black >= white);
        if white_leads {
            ([white, black], false)
        } else {
            ([black, white], true)
        }
    }

    /// The name of a side: `K`, then `Q`, `R`, `B`, `N`, `P` as many times
    /// as it has them.
    pub(crate) fn side_name(counts: &[u8; 6]) -> String {
        let mut name = String::new();
        for (letter, kind) in [('K', 5), ('Q', 4), ('R', 3), ('B', 2), ('N', 1), ('P', 0)] {
            for _ in 0..counts[kind] {
                name.push(letter);
            }
        }
        name
    }

    /// The table's name, `KRPvKR`.
    pub(crate) fn name(&self) -> String {
        format!(
            "{}v{}",
            Material::side_name(&self.counts[0]),
            Material::side_name(&self.counts[1])
        )
    }

    /// The material a table name says, or `None` for a name that is not
    /// one (each side a king and then pieces, at most 7 in all).
    pub(crate) fn from_name(name: &str) -> Option<Material> {
        let (first, second) = name.split_once('v')?;
        let side = |text: &str| -> Option<[u8; 6]> {
            let mut counts = [0u8; 6];
            for letter in text.chars() {
                let kind = match letter {
                    'P' => 0,
                    'N' => 1,
                    'B' => 2,
                    'R' => 3,
                    'Q' => 4,
                    'K' => 5,
                    _ => return None,
                };
                counts[kind] += 1;
            }
            (counts[5] == 1).then_some(counts)
        };
        let material = Material {
            counts: [side(first)?, side(second)?],
        };
        (material.piece_count() <= 7 && material.name() == name).then_some(material)
    }
}

/// The flags of a table's decoding parameters.
pub(crate) mod flag {
    /// DTZ: the table is for Black to move (the side in the table).
    pub(crate) const STM: u8 = 1;
    /// DTZ: stored values go through a map.
    pub(crate) const MAPPED: u8 = 2;
    /// DTZ: wins are stored in plies, not moves.
    pub(crate) const WIN_PLIES: u8 = 4;
    /// DTZ: losses are stored in plies, not moves.
    pub(crate) const LOSS_PLIES: u8 = 8;
    /// DTZ: the map's entries are 16 bits wide.
    pub(crate) const WIDE: u8 = 16;
    /// Every position of the table has one value.
    pub(crate) const SINGLE_VALUE: u8 = 128;
}

/// One table of a file: the index (pieces and groups) and the decoding
/// parameters of its compressed values.
#[derive(Clone, Debug, Default)]
pub(crate) struct Pairs {
    /// The pieces in index order: 1..6 White's pawn to king, 9..14
    /// Black's, colours as in the table.
    pub(crate) pieces: [u8; 7],
    /// The sizes of the groups the pieces are indexed in, zero-ended.
    pub(crate) group_len: [u8; 8],
    /// What each group's index is multiplied by; after the last group,
    /// the table's size.
    pub(crate) group_factor: [u64; 8],
    pub(crate) flags: u8,
    /// The one value of a single-valued table.
    single: Option<u8>,
    /// Blocks of `1 << block_log` bytes.
    block_log: u32,
    /// A sparse index entry every `1 << span_log` positions.
    span_log: u32,
    sparse_entries: usize,
    blocks: usize,
    block_lengths_count: usize,
    min_len: u32,
    /// The lowest symbol of each code length from `min_len`.
    lowest: Vec<u16>,
    /// For each length from `min_len`, the smallest code of that length,
    /// left-aligned in 64 bits.
    base: Vec<u64>,
    /// For each value of a code's first byte, the first length (from
    /// `min_len`) its code can have: where the search of `base` starts.
    first_len: Vec<u8>,
    /// For each value of the first [`FAST_BITS`] bits, the whole codes
    /// they begin, when the first is that short. The run of every whole
    /// code in those bits: its length in bits (bits 0-4) and how many
    /// values it stands for (38-63); and the first code alone: its length
    /// (5-9), its symbol (10-21) and its values (22-37). 0 for a longer
    /// first code. Built at the first value read from this table (a file
    /// holds up to eight). The codes are short (2.8 bits on average over
    /// the 3- and 4-piece tables), so a run skips about three at once.
    fast: std::sync::OnceLock<Vec<u64>>,
    /// For each symbol, how many values it stands for, minus one.
    symbol_len: Vec<u16>,
    /// Each symbol's two halves (left, right; a symbol that stands for
    /// one value has that value on the left), then its left half's
    /// `symbol_len` and its own: a step down the tree is one load.
    tree: Vec<[u16; 4]>,
    sparse_index: usize,
    block_lengths: usize,
    data: usize,
    /// DTZ: where each of the four maps starts (win, loss, cursed win,
    /// blessed loss order as the format keeps it).
    pub(crate) map_start: [usize; 4],
}

/// A cursor over a file's bytes that fails, naming the offset, rather
/// than read past the end.
struct Cursor<'a> {
    /// The file's first bytes, where its header is.
    bytes: &'a [u8],
    /// The file's length, which sections skipped over must fit in.
    len: usize,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn u8(&mut self) -> Result<u8, Malformed> {
        let byte = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| Malformed::at(self.at, "the file ends in its header"))?;
        self.at += 1;
        Ok(byte)
    }

    fn u16(&mut self) -> Result<u16, Malformed> {
        let bytes = read::<2>(self.bytes, self.at)?;
        self.at += 2;
        Ok(u16::from_le_bytes(bytes))
    }

    fn u32(&mut self) -> Result<u32, Malformed> {
        let bytes = read::<4>(self.bytes, self.at)?;
        self.at += 4;
        Ok(u32::from_le_bytes(bytes))
    }

    fn skip(&mut self, len: usize) -> Result<(), Malformed> {
        self.at = self
            .at
            .checked_add(len)
            .filter(|&end| end <= self.len)
            .ok_or_else(|| Malformed::at(self.at, "a section runs past the end of the file"))?;
        Ok(())
    }

    /// Moves on to the next multiple of `to` (a power of two).
    fn align(&mut self, to: usize) -> Result<(), Malformed> {
        let padding = self.at.wrapping_neg() & (to - 1);
        self.skip(padding)
    }
}

/// `N` bytes at `at`, or an error naming the offset.
fn read<const N: usize>(bytes: &[u8], at: usize) -> Result<[u8; N], Malformed> {
    at.checked_add(N)
        .and_then(|end| bytes.get(at..end))
        .and_then(|slice| slice.try_into().ok())
        .ok_or_else(|| Malformed::at(at, "the file ends inside a value"))
}

/// `N` bytes at `at`, zeros for what lies past the end: the decoder reads a
/// few bytes ahead of the symbols it needs, which at a file's last block
/// may be past its end.
fn read_padded<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    let mut out = [0u8; N];
    if let Some(rest) = bytes.get(at..) {
        let len = rest.len().min(N);
        out[..len].copy_from_slice(&rest[..len]);
    }
    out
}

/// Where a table file's bytes are read from: memory (a file read whole
/// when opened, or bytes given), or the file itself, with positioned
/// reads. A file is never mapped: a mapped file cut short by another
/// process would end this one (`SIGBUS`) at the next read of what it lost,
/// where a positioned read returns fewer bytes, which is an error.
#[derive(Debug)]
pub(crate) enum Source {
    Memory(std::sync::Arc<[u8]>),
    File {
        file: std::fs::File,
        /// The file's length when it was opened.
        len: usize,
    },
}

impl Source {
    /// The `N` bytes at `at`, or an error naming the offset.
    pub(crate) fn array<const N: usize>(&self, at: usize) -> Result<[u8; N], Malformed> {
        match self {
            Source::Memory(bytes) => read::<N>(bytes, at),
            Source::File { file, len } => {
                let mut out = [0u8; N];
                if at.checked_add(N).is_none_or(|end| end > *len) {
                    return Err(Malformed::at(at, "the file ends inside a value"));
                }
                read_exact_at(file, at, &mut out)?;
                Ok(out)
            }
        }
    }

    /// The bytes from `at` on, `want` of them or more, fewer where the file
    /// ends first: in memory, where they lie; from a file, read into
    /// `scratch`.
    pub(crate) fn from<'a>(
        &'a self,
        at: usize,
        want: usize,
        scratch: &'a mut Vec<u8>,
    ) -> Result<&'a [u8], Malformed> {
        match self {
            Source::Memory(bytes) => bytes
                .get(at..)
                .ok_or_else(|| Malformed::at(at, "a block past the end of the file")),
            Source::File { file, len } => {
                let len = len
                    .checked_sub(at)
                    .ok_or_else(|| Malformed::at(at, "a block past the end of the file"))?
                    .min(want);
                scratch.resize(len, 0);
                read_exact_at(file, at, scratch)?;
                Ok(scratch)
            }
        }
    }
}

/// Fills `out` from `file`'s byte `at`: an error when the file has fewer
/// bytes there than it had when opened (cut short meanwhile), or cannot be
/// read.
pub(crate) fn read_exact_at(
    file: &std::fs::File,
    at: usize,
    out: &mut [u8],
) -> Result<(), Malformed> {
    let mut done = 0;
    while done < out.len() {
        match read_at(file, &mut out[done..], (at + done) as u64) {
            Ok(0) => {
                return Err(Malformed::at(
                    at + done,
                    "the file is shorter than when it was opened (cut short meanwhile?)",
                ));
            }
            Ok(read) => done += read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => {
                return Err(Malformed(format!(
                    "it cannot be read at byte {}: {error}",
                    at + done
                )));
            }
        }
    }
    Ok(())
}

/// One positioned read of `file` at `offset` (the file's own position
/// untouched, so that threads share it).
#[cfg(unix)]
fn read_at(file: &std::fs::File, out: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, out, offset)
}

#[cfg(windows)]
fn read_at(file: &std::fs::File, out: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, out, offset)
}

/// A table file's header, parsed: where everything is.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// The tables, `file * sides + side`.
    pub(crate) pairs: Vec<Pairs>,
    pub(crate) sides: usize,
    /// The leading pawns (0 without pawns) and the other colour's.
    pub(crate) pawns: [u8; 2],
}

impl Layout {
    /// Reads the header of a `kind` file of `material`, `len` bytes long,
    /// from its first bytes, `bytes` (all of them, or enough to hold the
    /// header: a read past them is an error).
    pub(crate) fn parse(
        bytes: &[u8],
        len: usize,
        kind: Kind,
        material: Material,
    ) -> Result<Layout, Malformed> {
        if bytes.get(..4) != Some(&kind.magic()[..]) {
            return Err(Malformed(format!(
                "it does not start with the {} magic number",
                kind.extension()
            )));
        }
        let mut cursor = Cursor {
            bytes,
            len: len.max(bytes.len()),
            at: 4,
        };
        let flags = cursor.u8()?;
        let has_pawns = material.has_pawns();
        let symmetric = material.is_symmetric();
        if (flags & 2 != 0) != has_pawns {
            return Err(Malformed::at(4, "its pawn flag disagrees with its name"));
        }
        if (flags & 1 != 0) == symmetric {
            return Err(Malformed::at(4, "its split flag disagrees with its name"));
        }
        let files = if has_pawns { 4 } else { 1 };
        let sides = if kind == Kind::Wdl && !symmetric {
            2
        } else {
            1
        };
        let pieces = material.piece_count();
        let (pawns, _) = if has_pawns {
            material.pawn_counts()
        } else {
            ([0, 0], false)
        };
        let both_pawns = pawns[1] > 0;
        let unique = material.has_unique_pieces();
        let mut pairs = vec![Pairs::default(); files * sides];
        for file in 0..files {
            let first = cursor.u8()?;
            let second = if both_pawns { cursor.u8()? } else { 0xff };
            let order = [[first & 0xf, second & 0xf], [first >> 4, second >> 4]];
            for at in 0..pieces {
                let byte = cursor.u8()?;
                for side in 0..sides {
                    pairs[file * sides + side].pieces[at] =
                        if side == 0 { byte & 0xf } else { byte >> 4 };
                }
            }
            for side in 0..sides {
                let table = &mut pairs[file * sides + side];
                set_groups(table, pieces, has_pawns, unique, pawns, order[side], file)
                    .map_err(|problem| Malformed::at(cursor.at, &problem))?;
            }
        }
        cursor.align(2)?;
        for table in &mut pairs {
            set_sizes(&mut cursor, table)?;
        }
        if kind == Kind::Dtz {
            for file in 0..files {
                let table = &mut pairs[file * sides];
                if table.flags & flag::MAPPED == 0 {
                    continue;
                }
                if table.flags & flag::WIDE != 0 {
                    cursor.align(2)?;
                    for start in &mut table.map_start {
                        let len = cursor.u16()?;
                        *start = cursor.at;
                        cursor.skip(2 * usize::from(len))?;
                    }
                } else {
                    for start in &mut table.map_start {
                        let len = cursor.u8()?;
                        *start = cursor.at;
                        cursor.skip(usize::from(len))?;
                    }
                }
            }
            cursor.align(2)?;
        }
        for table in &mut pairs {
            table.sparse_index = cursor.at;
            cursor.skip(table.sparse_entries.checked_mul(6).ok_or_else(too_large)?)?;
        }
        for table in &mut pairs {
            table.block_lengths = cursor.at;
            cursor.skip(
                table
                    .block_lengths_count
                    .checked_mul(2)
                    .ok_or_else(too_large)?,
            )?;
        }
        for table in &mut pairs {
            cursor.align(64)?;
            table.data = cursor.at;
            let len = table
                .blocks
                .checked_mul(1 << table.block_log)
                .ok_or_else(too_large)?;
            cursor.skip(len)?;
        }
        Ok(Layout {
            pairs,
            sides,
            pawns,
        })
    }

    /// The table for `side` (0 the table's White to move) and `file` of the
    /// leading pawn (0 without pawns).
    pub(crate) fn pairs(&self, side: usize, file: usize) -> &Pairs {
        // `sides` is 1 or 2: a test, where `%` would divide.
        let side = if self.sides == 1 { 0 } else { side };
        &self.pairs[file * self.sides + side]
    }
}

fn too_large() -> Malformed {
    Malformed("a section is larger than memory".into())
}

/// Splits the pieces into the groups the index is built from, and works
/// out each group's factor from the order the file gives.
fn set_groups(
    table: &mut Pairs,
    pieces: usize,
    has_pawns: bool,
    unique: bool,
    pawns: [u8; 2],
    order: [u8; 2],
    file: usize,
) -> Result<(), String> {
    // The leading group: the leading pawns, or the three unique pieces
    // (kings included), or the two kings.
    let mut first_len: i32 = if has_pawns {
        0
    } else if unique {
        3
    } else {
        2
    };
    let mut groups = 0;
    table.group_len = [0; 8];
    table.group_len[0] = 1;
    for at in 1..pieces {
        first_len -= 1;
        if first_len > 0 || table.pieces[at] == table.pieces[at - 1] {
            table.group_len[groups] += 1;
        } else {
            groups += 1;
            table.group_len[groups] = 1;
        }
    }
    groups += 1;
    if has_pawns && usize::from(table.group_len[0]) != usize::from(pawns[0]) {
        return Err("its leading pawns are not its first group".into());
    }
    let both_pawns = has_pawns && pawns[1] > 0;
    let mut next = if both_pawns { 2 } else { 1 };
    let mut free = 64
        - u64::from(table.group_len[0])
        - if both_pawns {
            u64::from(table.group_len[1])
        } else {
            0
        };
    let mut factor = 1u64;
    let mut k = 0;
    while next < groups || k == order[0] || k == order[1] {
        if k > 15 {
            return Err("its group order is out of range".into());
        }
        if k == order[0] {
            table.group_factor[0] = factor;
            let size = if has_pawns {
                lead_pawns_size(usize::from(table.group_len[0]), file)
            } else if unique {
                31_332
            } else {
                462
            };
            factor = factor.checked_mul(size).ok_or("its index overflows")?;
        } else if k == order[1] {
            table.group_factor[1] = factor;
            let size = binomial(
                48 - u64::from(table.group_len[0]),
                u64::from(table.group_len[1]),
            );
            factor = factor.checked_mul(size).ok_or("its index overflows")?;
        } else {
            table.group_factor[next] = factor;
            let len = u64::from(table.group_len[next]);
            factor = factor
                .checked_mul(binomial(free, len))
                .ok_or("its index overflows")?;
            free = free
                .checked_sub(len)
                .ok_or("its groups overfill the board")?;
            next += 1;
        }
        k += 1;
    }
    table.group_factor[groups] = factor;
    Ok(())
}

/// Reads a table's decoding parameters and works out the canonical
/// Huffman code's bases and each symbol's length in values.
fn set_sizes(cursor: &mut Cursor<'_>, table: &mut Pairs) -> Result<(), Malformed> {
    table.flags = cursor.u8()?;
    if table.flags & flag::SINGLE_VALUE != 0 {
        table.single = Some(cursor.u8()?);
        return Ok(());
    }
    let size = table.group_factor[table
        .group_len
        .iter()
        .position(|&len| len == 0)
        .unwrap_or(7)];
    let at = cursor.at;
    let block_log = cursor.u8()?;
    let span_log = cursor.u8()?;
    if block_log > 30 || span_log > 40 || span_log == 0 {
        return Err(Malformed::at(at, "its block or span size is out of range"));
    }
    table.block_log = u32::from(block_log);
    table.span_log = u32::from(span_log);
    table.sparse_entries = usize::try_from(size.div_ceil(1 << span_log))
        .map_err(|_| Malformed::at(at, "its index is larger than memory"))?;
    let padding = cursor.u8()?;
    table.blocks = cursor.u32()? as usize;
    table.block_lengths_count = table.blocks + usize::from(padding);
    let max_len = cursor.u8()?;
    let min_len = cursor.u8()?;
    if min_len == 0 || max_len < min_len || max_len > 64 {
        return Err(Malformed::at(
            cursor.at - 2,
            "its symbol lengths are out of range",
        ));
    }
    table.min_len = u32::from(min_len);
    let lengths = usize::from(max_len - min_len) + 1;
    let lowest_at = cursor.at;
    let mut lowest = Vec::with_capacity(lengths);
    for _ in 0..lengths {
        lowest.push(cursor.u16()?);
    }
    let mut base = vec![0u64; lengths];
    for at in (0..lengths - 1).rev() {
        let sum = (base[at + 1] + u64::from(lowest[at]))
            .checked_sub(u64::from(lowest[at + 1]))
            .ok_or_else(|| Malformed::at(lowest_at, "its code is not canonical"))?;
        base[at] = sum / 2;
    }
    for (at, value) in base.iter_mut().enumerate() {
        let shift = 64 - at as u32 - table.min_len;
        *value = value.checked_shl(shift).unwrap_or(0);
    }
    table.first_len = (0..256u64)
        .map(|byte| {
            let most = (byte << 56) | ((1 << 56) - 1);
            base.iter()
                .position(|&smallest| most >= smallest)
                .unwrap_or(0) as u8
        })
        .collect();
    table.base = base;
    table.lowest = lowest;
    let symbols = usize::from(cursor.u16()?);
    let tree = cursor.at;
    cursor.skip(3 * symbols + (symbols & 1))?;
    let halves = (0..symbols)
        .map(|symbol| halves(cursor.bytes, tree, symbol))
        .collect::<Result<Vec<_>, _>>()?;
    let lengths = symbol_lengths(&halves, tree)?;
    // A symbol of more than one value has halves within the tree
    // (`symbol_lengths` checked).
    table.tree = halves
        .iter()
        .zip(&lengths)
        .map(|(&[left, right], &len)| {
            let left_len = if len > 0 {
                lengths[usize::from(left)]
            } else {
                0
            };
            [left, right, left_len, len]
        })
        .collect();
    table.symbol_len = lengths;
    Ok(())
}

/// How many of a code's first bits the table of short codes reads.
const FAST_BITS: u32 = 10;

/// The code that `known` bits (the top of `bits`, the rest 0) begin, when
/// they decide it: its symbol, its length and how many values it stands
/// for.
fn short_code(table: &Pairs, bits: u64, known: u32) -> Option<(u64, u32, u64)> {
    if known == 0 {
        return None;
    }
    let base = &table.base;
    let len_of = |bits: u64| -> usize {
        let mut len = usize::from(table.first_len[(bits >> 56) as usize]);
        while bits < base[len] {
            len += 1;
        }
        len
    };
    let low = bits;
    let high = bits | (u64::MAX >> known);
    let len = len_of(low);
    let used = len as u32 + table.min_len;
    if len_of(high) != len || used > known {
        return None;
    }
    let code = (low - base[len]) >> (64 - used);
    let symbol = usize::from(table.lowest[len].wrapping_add(code as u16));
    let count = *table.symbol_len.get(symbol)?;
    (symbol < 1 << 12).then_some((symbol as u64, used, u64::from(count) + 1))
}

/// The table of codes of at most [`FAST_BITS`] bits, by those bits, with
/// the code after each where it fits too.
fn fast_codes(table: &Pairs) -> Vec<u64> {
    let shift = 64 - FAST_BITS;
    let mask = (1 << FAST_BITS) - 1;
    // Each prefix's first code, when it is that short.
    let firsts: Vec<_> = (0..1u64 << FAST_BITS)
        .map(|prefix| short_code(table, prefix << shift, FAST_BITS))
        .collect();
    firsts
        .iter()
        .enumerate()
        .map(|(prefix, first)| {
            let Some((symbol, used, count)) = *first else {
                return 0;
            };
            if count >= 1 << 16 {
                return 0;
            }
            // The run: every whole code these bits begin, from the first.
            // A code that begins `used` bits on is the first code of the
            // prefix shifted by `used` (zeros after), when it ends within
            // the bits known here.
            let (mut run_used, mut run_count) = (used, count);
            while let Some((_, next_used, next_count)) = firsts[(prefix << run_used) & mask]
                && run_used + next_used <= FAST_BITS
                && run_count + next_count < 1 << 26
            {
                run_used += next_used;
                run_count += next_count;
            }
            u64::from(run_used)
                | (u64::from(used) << 5)
                | (symbol << 10)
                | (count << 22)
                | (run_count << 38)
        })
        .collect()
}

/// A symbol's two halves as the file packs them (12 bits each); a symbol
/// that stands for one value has 0xfff on the right.
fn halves(bytes: &[u8], tree: usize, symbol: usize) -> Result<[u16; 2], Malformed> {
    let [a, b, c] = read::<3>(bytes, tree + 3 * symbol)?;
    let left = u16::from(a) | (u16::from(b & 0xf) << 8);
    let right = (u16::from(c) << 4) | u16::from(b >> 4);
    Ok([left, right])
}

/// How many values (minus one) each symbol stands for, from the pairs
/// tree (`at` where it is in the file, for errors); a tree that loops or
/// points past its end is malformed.
fn symbol_lengths(tree: &[[u16; 2]], at: usize) -> Result<Vec<u16>, Malformed> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let symbols = tree.len();
    let mut state = vec![NEW; symbols];
    let mut lengths = vec![0u16; symbols];
    let mut stack = Vec::new();
    for root in 0..symbols {
        if state[root] != NEW {
            continue;
        }
        stack.push(root);
        state[root] = OPEN;
        while let Some(&symbol) = stack.last() {
            let [left, right] = tree[symbol];
            if right == 0xfff {
                lengths[symbol] = 0;
                state[symbol] = DONE;
                stack.pop();
                continue;
            }
            let (left, right) = (usize::from(left), usize::from(right));
            if left >= symbols || right >= symbols {
                return Err(Malformed::at(
                    at + 3 * symbol,
                    "a symbol names one past the tree",
                ));
            }
            let mut pending = None;
            for child in [left, right] {
                match state[child] {
                    NEW => {
                        pending = Some(child);
                        break;
                    }
                    OPEN => {
                        return Err(Malformed::at(at + 3 * symbol, "the symbol tree loops"));
                    }
                    _ => {}
                }
            }
            if let Some(child) = pending {
                state[child] = OPEN;
                stack.push(child);
            } else {
                lengths[symbol] = lengths[left]
                    .checked_add(lengths[right])
                    .and_then(|sum| sum.checked_add(1))
                    .ok_or_else(|| {
                        Malformed::at(at + 3 * symbol, "a symbol stands for too many values")
                    })?;
                state[symbol] = DONE;
                stack.pop();
            }
        }
    }
    Ok(lengths)
}

/// The big-endian `u32` at `at`, zeros for what lies past the end: the
/// decoder reads a few bytes ahead of the symbols it needs, which at a
/// file's last block may be past its end.
#[inline]
fn be32(bytes: &[u8], at: usize) -> u32 {
    match bytes.get(at..).and_then(<[u8]>::first_chunk::<4>) {
        Some(chunk) => u32::from_be_bytes(*chunk),
        None => u32::from_be_bytes(read_padded::<4>(bytes, at)),
    }
}

/// The big-endian `u64` at `at`, zeros past the end.
#[inline]
fn be64(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        Some(chunk) => u64::from_be_bytes(*chunk),
        None => u64::from_be_bytes(read_padded::<8>(bytes, at)),
    }
}

impl Pairs {
    /// The symbol of the block at `at` that holds its `offset`th value,
    /// and the offset of that value within the symbol's; `None` for codes
    /// that do not decode (a corrupted block).
    #[inline]
    fn find_symbol(&self, bytes: &[u8], mut at: usize, mut offset: i64) -> Option<(usize, i64)> {
        let fast = self.fast.get_or_init(|| fast_codes(self));
        let fast: &[u64; 1 << FAST_BITS] = fast.as_slice().try_into().ok()?;
        let mut bits = be64(bytes, at);
        at += 8;
        let mut bits_left: u32 = 64;
        loop {
            let entry = fast[(bits >> (64 - FAST_BITS)) as usize];
            let used = if entry != 0 {
                // Every whole code of these bits at once when the value
                // is past them all, else the first.
                let run_count = (entry >> 38) as i64;
                if offset >= run_count {
                    offset -= run_count;
                    (entry & 0x1f) as u32
                } else {
                    let count = ((entry >> 22) & 0xffff) as i64;
                    if offset < count {
                        return Some((((entry >> 10) & 0xfff) as usize, offset));
                    }
                    offset -= count;
                    ((entry >> 5) & 0x1f) as u32
                }
            } else {
                let (symbol, used, count) = self.long_code(bits)?;
                if offset < count {
                    return Some((symbol, offset));
                }
                offset -= count;
                used
            };
            if used >= bits_left {
                return None;
            }
            // `used` < `bits_left` <= 64.
            bits <<= used;
            bits_left -= used;
            if bits_left <= 32 {
                bits_left += 32;
                bits |= u64::from(be32(bytes, at)) << (64 - bits_left);
                at += 4;
            }
        }
    }

    /// The symbol of a code longer than [`FAST_BITS`] that `bits` begins
    /// with, its length and how many values it stands for.
    #[inline]
    fn long_code(&self, bits: u64) -> Option<(usize, u32, i64)> {
        // A code's length is the first whose smallest code it is not
        // below; its first byte says where to start looking. The last
        // length's smallest code is 0: the search ends there at the latest.
        let base = &self.base[..];
        let mut len = usize::from(self.first_len[(bits >> 56) as usize]);
        while bits < base[len] {
            len += 1;
        }
        // `min_len` is at least 1 and `len + min_len` at most 64.
        let used = len as u32 + self.min_len;
        let code = (bits - base[len]) >> (64 - used);
        let symbol = usize::from(self.lowest.get(len)?.wrapping_add(code as u16));
        Some((symbol, used, i64::from(*self.symbol_len.get(symbol)?) + 1))
    }

    /// The value stored at `index` of this table, read from `source`.
    pub(crate) fn value(&self, source: &Source, index: u64) -> Result<u16, Malformed> {
        if let Some(value) = self.single {
            return Ok(u16::from(value));
        }
        let corrupt = |what: &str| Malformed(format!("{what} (index {index})"));
        let entry = usize::try_from(index >> self.span_log)
            .ok()
            .filter(|&entry| entry < self.sparse_entries)
            .ok_or_else(|| corrupt("an index past the table's end"))?;
        let sparse = source.array::<6>(self.sparse_index + 6 * entry)?;
        let mut block = u32::from_le_bytes([sparse[0], sparse[1], sparse[2], sparse[3]]) as usize;
        let within = index & ((1 << self.span_log) - 1);
        let mut offset = i64::from(u16::from_le_bytes([sparse[4], sparse[5]])) + within as i64
            - (1i64 << (self.span_log - 1));
        let length = |block: usize| -> Result<i64, Malformed> {
            if block >= self.block_lengths_count {
                return Err(corrupt("a block past the table's blocks"));
            }
            let pair = source.array::<2>(self.block_lengths + 2 * block)?;
            Ok(i64::from(u16::from_le_bytes(pair)))
        };
        while offset < 0 {
            block = block
                .checked_sub(1)
                .ok_or_else(|| corrupt("a block before the table's first"))?;
            offset += length(block)? + 1;
        }
        loop {
            let len = length(block)?;
            if offset <= len {
                break;
            }
            offset -= len + 1;
            block += 1;
        }
        if block >= self.blocks {
            return Err(corrupt("a block past the table's blocks"));
        }
        let at = self.data + (block << self.block_log);
        // The block, and the few bytes after it that the decoder reads
        // ahead (zeros past the file's end).
        let mut scratch = Vec::new();
        let bytes = source.from(at, (1 << self.block_log) + 16, &mut scratch)?;
        let (symbol, mut offset) = self
            .find_symbol(bytes, 0, offset)
            .ok_or_else(|| corrupt("a block's codes do not decode"))?;
        let tree = &self.tree[..];
        let mut node = tree[symbol];
        while node[3] > 0 {
            let left_count = i64::from(node[2]) + 1;
            let next = if offset < left_count {
                node[0]
            } else {
                offset -= left_count;
                node[1]
            };
            node = tree[usize::from(next)];
        }
        Ok(node[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_material() {
        let material = Material::from_name("KRPvKR").unwrap();
        assert_eq!(material.counts[0], [1, 0, 0, 1, 0, 1]);
        assert_eq!(material.name(), "KRPvKR");
        assert!(material.has_pawns() && !material.is_symmetric());
        assert_eq!(material.pawn_counts(), ([1, 0], false));
        assert_eq!(
            Material::from_name("KPvKP").unwrap().pawn_counts(),
            ([1, 1], false)
        );
        assert_eq!(
            Material::from_name("KvKPP").unwrap().pawn_counts(),
            ([2, 0], true)
        );
        for bad in ["KRvR", "KRK", "KXvK", "RKvK", "KQQQQQvKQ", ""] {
            assert_eq!(Material::from_name(bad), None, "{bad}");
        }
        assert!(!Material::from_name("KQQvK").unwrap().has_unique_pieces());
        assert!(Material::from_name("KQRvK").unwrap().has_unique_pieces());
    }

    /// The short-code table against the codes read one by one: each
    /// prefix's first code, and its run as every whole code that
    /// `short_code` reads from the bits left.
    #[test]
    // Safe code over every prefix of every table: a minute under Miri,
    // for a crate with no unsafe code.
    #[cfg_attr(miri, ignore)]
    fn short_code_runs_are_the_codes_read_one_by_one() {
        for (name, bytes) in [
            (
                "KRvK",
                include_bytes!("../../../tests/data/syzygy/KRvK.rtbw").as_slice(),
            ),
            (
                "KPvK",
                include_bytes!("../../../tests/data/syzygy/KPvK.rtbw").as_slice(),
            ),
            (
                "KRvKN",
                include_bytes!("../../../tests/data/syzygy/KRvKN.rtbw").as_slice(),
            ),
        ] {
            let material = Material::from_name(name).unwrap();
            let layout = Layout::parse(bytes, bytes.len(), Kind::Wdl, material).unwrap();
            for table in layout.pairs.iter().filter(|table| table.single.is_none()) {
                let fast = fast_codes(table);
                let mut longer = 0;
                for (prefix, &entry) in fast.iter().enumerate() {
                    let bits = (prefix as u64) << (64 - FAST_BITS);
                    let Some((symbol, used, count)) = short_code(table, bits, FAST_BITS) else {
                        assert_eq!(entry, 0);
                        longer += 1;
                        continue;
                    };
                    let (mut run_used, mut run_count) = (used, count);
                    while let Some((_, next_used, next_count)) =
                        short_code(table, bits << run_used, FAST_BITS - run_used)
                    {
                        run_used += next_used;
                        run_count += next_count;
                    }
                    assert_eq!(entry & 0x1f, u64::from(run_used), "{name} {prefix:b}");
                    assert_eq!((entry >> 5) & 0x1f, u64::from(used));
                    assert_eq!((entry >> 10) & 0xfff, symbol);
                    assert_eq!((entry >> 22) & 0xffff, count);
                    assert_eq!(entry >> 38, run_count);
                }
                assert!(longer < fast.len(), "{name}: every first code is long");
            }
        }
    }

    #[test]
    fn headers_that_lie_or_end_are_errors() {
        let material = Material::from_name("KRvK").unwrap();
        assert!(Layout::parse(b"", 0, Kind::Wdl, material).is_err());
        assert!(Layout::parse(&Kind::Dtz.magic(), 4, Kind::Wdl, material).is_err());
        let mut bytes = Kind::Wdl.magic().to_vec();
        bytes.push(1);
        assert!(Layout::parse(&bytes, bytes.len(), Kind::Wdl, material).is_err());
        bytes[4] = 3; // pawns, which KRvK has none of
        assert!(Layout::parse(&bytes, bytes.len(), Kind::Wdl, material).is_err());
    }
}
