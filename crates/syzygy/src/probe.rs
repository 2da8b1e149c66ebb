//! The tables of a directory and the probes: [`Tablebase`].

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use bitboards::{Bitboard, Color, Move, MoveKind, Piece, PieceKind, Position, attacks};

use crate::answers::{Dtz, RankedMove, Wdl};
use crate::encoding::{
    BELOW_DIAGONAL, KING_PAIRS, PAWN_SQUARES, TRIANGLE, diagonal_offset, lead_pawn_start,
    small_binomial,
};
use crate::error::{Malformed, SyzygyError};
use crate::table::{Kind, Layout, Material, Source, flag, read_exact_at};

/// The most pieces a Syzygy table holds, kings included.
pub const MAX_PIECES: u32 = 7;

/// Syzygy tables: the files of the directories added, opened the first
/// time a probe needs them (a memory map and a header read), then shared
/// by every thread that probes.
///
/// ```
/// use bitboards::Position;
/// use bitboards_syzygy::{Tablebase, Wdl};
///
/// let mut tables = Tablebase::new();
/// assert_eq!(tables.add_directory("../../tests/data/syzygy")?, 70);
/// let position = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")?;
/// assert_eq!(tables.probe_wdl(&position)?, Wdl::Win);
/// assert_eq!(tables.max_pieces(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Tablebase {
    /// Each file under its material's key, and under the key of its
    /// material with the colours swapped (`true` beside it), so that a
    /// position with Black the stronger side finds its table in one look.
    files: HashMap<u64, (Arc<TableFile>, bool), BuildHasherDefault<KeyHasher>>,
    /// How many files were added.
    count: usize,
    /// Files of at most this many bytes are read into memory when first
    /// probed; longer ones are read where they lie.
    in_memory: u64,
}

impl Default for Tablebase {
    fn default() -> Tablebase {
        Tablebase {
            files: HashMap::default(),
            count: 0,
            in_memory: Tablebase::IN_MEMORY,
        }
    }
}

/// A table's material and kind packed in a word: three bits a count.
fn key(material: &Material, kind: Kind) -> u64 {
    material
        .counts
        .iter()
        .flatten()
        .fold(u64::from(kind == Kind::Dtz), |key, &count| {
            (key << 3) | u64::from(count & 7)
        })
}

/// The key of the same material and kind with the colours swapped.
const fn swap_sides(key: u64) -> u64 {
    const SIDE: u64 = (1 << 18) - 1;
    (key & !(SIDE << 18 | SIDE)) | (key >> 18 & SIDE) | (key & SIDE) << 18
}

/// Hashes the packed keys: one multiply, where the default hasher costs a
/// tenth of a WDL probe.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0 ^ value)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

/// What a table's material says of how positions are indexed in it.
#[derive(Clone, Copy, Debug)]
struct Traits {
    /// Both sides have the same pieces.
    symmetric: bool,
    has_pawns: bool,
    /// A piece other than a king is alone of its kind and colour.
    unique_pieces: bool,
}

/// One table file: where it comes from, and once a probe has needed it,
/// its bytes and header (or why they could not be read).
#[derive(Debug)]
struct TableFile {
    material: Material,
    traits: Traits,
    origin: Origin,
    opened: OnceLock<Result<Opened, Failure>>,
}

#[derive(Debug)]
enum Origin {
    Path(PathBuf),
    Bytes { name: PathBuf, bytes: Arc<[u8]> },
}

impl Origin {
    fn path(&self) -> &Path {
        match self {
            Origin::Path(path) => path,
            Origin::Bytes { name, .. } => name,
        }
    }
}

/// A table's bytes and header.
#[derive(Debug)]
struct Opened {
    source: Source,
    layout: Layout,
}

/// Why a file could not be opened, kept for every later probe of it.
#[derive(Clone, Debug)]
enum Failure {
    Io(std::io::ErrorKind, String),
    Corrupt(String),
}

impl TableFile {
    fn open(&self, kind: Kind, material: Material, in_memory: u64) -> Result<&Opened, SyzygyError> {
        let opened = self.opened.get_or_init(|| {
            let (source, layout) = match &self.origin {
                Origin::Path(path) => open_file(path, kind, material, in_memory)?,
                Origin::Bytes { bytes, .. } => {
                    let layout = Layout::parse(bytes, bytes.len(), kind, material)
                        .map_err(|malformed| Failure::Corrupt(malformed.0))?;
                    (Source::Memory(bytes.clone()), layout)
                }
            };
            Ok(Opened { source, layout })
        });
        opened.as_ref().map_err(|failure| {
            let path = self.origin.path().to_path_buf();
            match failure {
                Failure::Io(kind, message) => SyzygyError::Io {
                    path,
                    source: std::io::Error::new(*kind, message.clone()),
                },
                Failure::Corrupt(problem) => SyzygyError::Corrupt {
                    path,
                    problem: problem.clone(),
                },
            }
        })
    }
}

/// The bytes of a table file read for its header first, enough for the
/// symbol trees and DTZ maps of common tables; a longer header is read
/// again with twice as many, up to the whole file.
const HEADER_BYTES: usize = 1 << 16;

/// Opens the table file at `path`: read whole into memory when it is at
/// most `in_memory` bytes long, else kept open for positioned reads (its
/// header read and parsed now).
fn open_file(
    path: &Path,
    kind: Kind,
    material: Material,
    in_memory: u64,
) -> Result<(Source, Layout), Failure> {
    let io = |error: std::io::Error| Failure::Io(error.kind(), error.to_string());
    let corrupt = |malformed: Malformed| Failure::Corrupt(malformed.0);
    let file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len <= in_memory {
        let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        std::io::Read::read_to_end(&mut &file, &mut bytes).map_err(io)?;
        let layout = Layout::parse(&bytes, bytes.len(), kind, material).map_err(corrupt)?;
        return Ok((Source::Memory(bytes.into()), layout));
    }
    let len = usize::try_from(len)
        .map_err(|_| Failure::Corrupt("it is larger than this machine can address".into()))?;
    let mut header = Vec::new();
    let mut want = HEADER_BYTES.min(len);
    loop {
        header.resize(want, 0);
        read_exact_at(&file, 0, &mut header).map_err(corrupt)?;
        match Layout::parse(&header, len, kind, material) {
            Ok(layout) => return Ok((Source::File { file, len }, layout)),
            Err(_) if want < len => want = want.saturating_mul(2).min(len),
            Err(malformed) => return Err(corrupt(malformed)),
        }
    }
}

impl Tablebase {
    /// The default of [`set_in_memory_limit`](Self::set_in_memory_limit):
    /// 16 MiB, far more than any table of up to four pieces (the largest,
    /// `KBNvK.rtbz`, is 462 KB), where a file of seven pieces is gigabytes.
    pub const IN_MEMORY: u64 = 16 << 20;

    /// Sets the size of the largest table file read whole into memory when
    /// a probe first needs it (from then on, probes of it read memory).
    /// A longer file stays open and is read where it lies, a few bytes per
    /// probe, with positioned reads: slower, but a table of gigabytes
    /// costs no memory. No file is ever mapped, so a file cut short while
    /// in use is an error ([`SyzygyError::Corrupt`]), never a crash.
    /// Applies to tables opened after the call; 0 reads every file where
    /// it lies.
    ///
    /// ```
    /// use bitboards::Position;
    /// use bitboards_syzygy::{Tablebase, Wdl};
    ///
    /// let mut tables = Tablebase::new();
    /// tables.set_in_memory_limit(0);
    /// tables.add_directory("../../tests/data/syzygy")?;
    /// let position = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1")?;
    /// assert_eq!(tables.probe_wdl(&position)?, Wdl::Win);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_in_memory_limit(&mut self, bytes: u64) {
        self.in_memory = bytes;
    }

    /// No tables yet: add them with [`add_directory`](Self::add_directory).
    #[must_use]
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// Adds the tables of `directory`: every file named as a table
    /// (`KQvKR.rtbw`, `KQvKR.rtbz`). Nothing is opened until a probe needs
    /// it. Returns how many files were added; a table of the same name
    /// added before is replaced.
    ///
    /// # Errors
    /// [`SyzygyError::Io`] when the directory cannot be read.
    pub fn add_directory(&mut self, directory: impl AsRef<Path>) -> Result<usize, SyzygyError> {
        let directory = directory.as_ref();
        let io = |source| SyzygyError::Io {
            path: directory.to_path_buf(),
            source,
        };
        let mut added = 0;
        for entry in std::fs::read_dir(directory).map_err(io)? {
            let path = entry.map_err(io)?.path();
            let Some((material, kind)) = table_of(&path) else {
                continue;
            };
            self.insert(material, kind, Origin::Path(path));
            added += 1;
        }
        Ok(added)
    }

    /// Adds one table file, found by its name (`KQvKR.rtbw`), opened the
    /// first time a probe needs it.
    ///
    /// # Errors
    /// [`SyzygyError::Corrupt`] when the file's name is not a table's.
    pub fn add_file(&mut self, path: impl AsRef<Path>) -> Result<(), SyzygyError> {
        let path = path.as_ref();
        let Some((material, kind)) = table_of(path) else {
            return Err(SyzygyError::Corrupt {
                path: path.to_path_buf(),
                problem: "the name is not a table's (KQvKR.rtbw or .rtbz)".into(),
            });
        };
        self.insert(material, kind, Origin::Path(path.to_path_buf()));
        Ok(())
    }

    fn insert(&mut self, material: Material, kind: Kind, origin: Origin) {
        let file = TableFile {
            material,
            traits: Traits {
                symmetric: material.is_symmetric(),
                has_pawns: material.has_pawns(),
                unique_pieces: material.has_unique_pieces(),
            },
            origin,
            opened: OnceLock::new(),
        };
        let file = Arc::new(file);
        let straight = key(&material, kind);
        let swapped = swap_sides(straight);
        if self
            .files
            .insert(straight, (file.clone(), false))
            .is_none_or(|(_, was_swapped)| was_swapped)
        {
            self.count += 1;
        }
        // A file under its own key is never replaced by a swapped one.
        self.files.entry(swapped).or_insert((file, true));
    }

    /// Adds one table from its bytes, `name` its file name
    /// (`KRvK.rtbw`): for tables embedded in a program, or read some other
    /// way than from a directory.
    ///
    /// # Errors
    /// [`SyzygyError::Corrupt`] when `name` is not a table's file name.
    pub fn add_table_bytes(&mut self, name: &str, bytes: Vec<u8>) -> Result<(), SyzygyError> {
        let Some((material, kind)) = table_of(Path::new(name)) else {
            return Err(SyzygyError::Corrupt {
                path: PathBuf::from(name),
                problem: "the name is not a table's (KQvKR.rtbw or .rtbz)".into(),
            });
        };
        let origin = Origin::Bytes {
            name: PathBuf::from(name),
            bytes: bytes.into(),
        };
        self.insert(material, kind, origin);
        Ok(())
    }

    /// How many table files were added.
    #[must_use]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether no table was added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The most pieces of the tables added (kings included), 0 with none.
    #[must_use]
    pub fn max_pieces(&self) -> usize {
        self.files
            .values()
            .map(|(file, _)| file.material.piece_count())
            .max()
            .unwrap_or(0)
    }

    /// Win, draw or loss for the side to move, as the fifty-move rule
    /// scores it from a position just reached by a capture or a pawn move
    /// (the tables' assumption): [`Wdl::CursedWin`] is a win that takes
    /// more than fifty moves, [`Wdl::BlessedLoss`] a loss that does.
    ///
    /// En passant captures, which the tables do not hold, are played out.
    ///
    /// # Errors
    /// [`SyzygyError::Castling`] for a position with castling rights,
    /// [`SyzygyError::TooManyPieces`], [`SyzygyError::MissingTable`] for a
    /// table (of the position, or of one it captures into) that was not
    /// added, and the errors of opening a table.
    pub fn probe_wdl(&self, position: &Position) -> Result<Wdl, SyzygyError> {
        check(position)?;
        Ok(Wdl::from_score(self.wdl(position, -2, 2)?))
    }

    /// The distance to zeroing for the side to move: the plies to the next
    /// capture or pawn move on the way to the result [`probe_wdl`]
    /// gives, positive when winning, negative when losing, 0 for a draw.
    /// Rounded as Stockfish (and python-chess) round it: where the table
    /// counts moves rather than plies, the answer may be one ply more
    /// than the shortest way.
    ///
    /// [`probe_wdl`]: Self::probe_wdl
    ///
    /// # Errors
    /// Those of [`probe_wdl`](Self::probe_wdl); DTZ needs the WDL tables
    /// too.
    pub fn probe_dtz(&self, position: &Position) -> Result<Dtz, SyzygyError> {
        check(position)?;
        Ok(Dtz(self.dtz(position)?.0))
    }

    /// [`probe_dtz`](Self::probe_dtz)'s answer, and whether it is exact:
    /// `false` when it comes from a table that counts moves rather than
    /// plies (every cursed win and blessed loss, and the wins or losses of
    /// tables stored so), which may be one ply more than the shortest way
    /// (as shakmaty-syzygy's `MaybeRounded` and tablebase.lichess.ovh's
    /// `precise_dtz` tell it). Draws, zeroing moves and mates in one are
    /// exact.
    ///
    /// ```
    /// use bitboards::Position;
    /// use bitboards_syzygy::{Dtz, Tablebase};
    ///
    /// let mut tables = Tablebase::new();
    /// tables.add_directory("../../tests/data/syzygy")?;
    /// // KPvK's table counts this win in moves: 9 plies, or 8.
    /// let position = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?;
    /// assert_eq!(tables.probe_dtz_precision(&position)?, (Dtz(9), false));
    /// // Promoting zeroes at once: exact.
    /// let position = Position::from_fen("4k3/6KP/8/8/8/8/7p/8 w - - 0 1")?;
    /// assert_eq!(tables.probe_dtz_precision(&position)?, (Dtz(1), true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Those of [`probe_dtz`](Self::probe_dtz).
    pub fn probe_dtz_precision(&self, position: &Position) -> Result<(Dtz, bool), SyzygyError> {
        check(position)?;
        let (dtz, precise) = self.dtz(position)?;
        Ok((Dtz(dtz), precise))
    }

    /// The WDL table's value for the position as it stands (python-chess's
    /// `probe_wdl_table`): what the table holds, with no capture or en
    /// passant played out and castling rights not looked at. Where a
    /// capture does better the table may hold anything (the format leaves
    /// such positions free for compression): [`probe_wdl`] is the
    /// position's value. The kings alone are a draw, without a table.
    ///
    /// [`probe_wdl`]: Self::probe_wdl
    ///
    /// ```
    /// use bitboards::Position;
    /// use bitboards_syzygy::{Tablebase, Wdl};
    ///
    /// let mut tables = Tablebase::new();
    /// tables.add_directory("../../tests/data/syzygy")?;
    /// // Only the en passant capture wins: the table holds a draw.
    /// let position = Position::from_fen("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2")?;
    /// assert_eq!(tables.probe_wdl_table(&position)?, Wdl::Draw);
    /// assert_eq!(tables.probe_wdl(&position)?, Wdl::Win);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`SyzygyError::TooManyPieces`], [`SyzygyError::MissingTable`] for
    /// a table of the position's material that was not added, and the
    /// errors of opening it.
    pub fn probe_wdl_table(&self, position: &Position) -> Result<Wdl, SyzygyError> {
        check_count(position)?;
        Ok(Wdl::from_score(self.wdl_table(position)?))
    }

    /// The DTZ table's distance for the position, `wdl` its result for
    /// the side to move (python-chess's `probe_dtz_table`, plus one): the
    /// plies to zeroing as the table stores them (in moves or plies, by
    /// table), at least 1, without the 100 that a cursed win or blessed
    /// loss adds, no zeroing move searched; `None` when the table holds
    /// the other side to move. Read for a draw, the value means nothing.
    ///
    /// ```
    /// use bitboards::Position;
    /// use bitboards_syzygy::{Tablebase, Wdl};
    ///
    /// let mut tables = Tablebase::new();
    /// tables.add_directory("../../tests/data/syzygy")?;
    /// // KRvKN's DTZ table holds Black to move.
    /// let black = Position::from_fen("7n/6k1/4R3/4K3/8/8/8/8 b - - 1 1")?;
    /// assert_eq!(tables.probe_dtz_table(&black, Wdl::Loss)?, Some(9));
    /// let white = Position::from_fen("7n/6k1/4R3/4K3/8/8/8/8 w - - 0 1")?;
    /// assert_eq!(tables.probe_dtz_table(&white, Wdl::Win)?, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Those of [`probe_wdl_table`](Self::probe_wdl_table), for the DTZ
    /// table.
    pub fn probe_dtz_table(
        &self,
        position: &Position,
        wdl: Wdl,
    ) -> Result<Option<u32>, SyzygyError> {
        check_count(position)?;
        Ok(self
            .dtz_table(position, wdl as i32)?
            .map(|(dtz, _)| dtz.unsigned_abs()))
    }

    /// Every legal move with the result it keeps ([`RankedMove::wdl`], for
    /// the side to move) and its distance to zeroing counted from here
    /// ([`RankedMove::dtz`]), best first: wins that the fifty-move rule
    /// (from the position's halfmove clock) lets through, the fastest to
    /// zero first; then wins it turns into draws, then draws, then losses,
    /// the slowest first.
    ///
    /// # Errors
    /// Those of [`probe_dtz`](Self::probe_dtz).
    pub fn best_moves(&self, position: &Position) -> Result<Vec<RankedMove>, SyzygyError> {
        check(position)?;
        let clock = i32::from(position.halfmove_clock());
        let mut ranked = Vec::new();
        for mv in position.legal_moves().iter().copied() {
            let after = position.play_unchecked(mv);
            let dtz = if is_zeroing(position, mv) {
                before_zeroing(-self.wdl(&after, -2, 2)?)
            } else {
                let dtz = -self.dtz(&after)?.0;
                dtz + dtz.signum()
            };
            // A mating move zeroes nothing but ends the game: one ply.
            let dtz = if dtz == 2 && after.is_check() && !after.has_legal_moves() {
                1
            } else {
                dtz
            };
            let wdl = match dtz {
                0 => Wdl::Draw,
                1..=100 => Wdl::Win,
                101.. => Wdl::CursedWin,
                -100..=-1 => Wdl::Loss,
                _ => Wdl::BlessedLoss,
            };
            let rank = match dtz {
                0 => 0,
                1.. if dtz + clock <= 100 => 4000 - dtz,
                1.. => 2000 - (dtz + clock),
                _ if -dtz + clock <= 100 => -4000 - dtz,
                _ => -2000 + (-dtz + clock),
            };
            ranked.push(RankedMove {
                mv,
                wdl,
                dtz: Dtz(dtz),
                rank,
            });
        }
        ranked.sort_by_key(|ranked| std::cmp::Reverse(ranked.rank));
        Ok(ranked)
    }

    /// The position's value (-2..2) once its captures are played out:
    /// the best of the captures' values and the table's (which holds
    /// positions as if no capture were possible, en passant included).
    /// Alpha-beta over the captures, failing hard: a value at or below
    /// `alpha` or at or above `beta` is only a bound, so that a capture
    /// that cannot change the result is not searched to the end.
    fn wdl(&self, position: &Position, mut alpha: i32, beta: i32) -> Result<i32, SyzygyError> {
        if !may_capture(position) {
            return Ok(alpha.max(self.wdl_table(position)?));
        }
        let mut searched = 0;
        for mv in position.captures().iter().copied() {
            if !is_capture(position, mv) {
                continue;
            }
            searched += 1;
            let value = -self.wdl(&position.play_unchecked(mv), -beta, -alpha)?;
            if value > alpha {
                if value >= beta {
                    return Ok(value);
                }
                alpha = value;
            }
        }
        // Every legal move searched: the table is not needed (and may not
        // be there).
        if searched > 0 && searched == position.count_legal_moves() as usize {
            return Ok(alpha);
        }
        Ok(alpha.max(self.wdl_table(position)?))
    }

    /// The position's value (-2..2) once its zeroing moves (captures and
    /// pawn moves) are played out, and whether the best move is one of
    /// them (so that a DTZ table's value is not to be trusted).
    fn search_zeroing(&self, position: &Position) -> Result<(i32, bool), SyzygyError> {
        let moves = position.legal_moves();
        let mut best = -2;
        let mut searched = 0;
        for mv in moves.iter().copied() {
            if !is_zeroing(position, mv) {
                continue;
            }
            searched += 1;
            // Only a value above `best` matters, and it must be exact.
            let value = -self.wdl(&position.play_unchecked(mv), -2, -best)?;
            if value > best {
                best = value;
                if value >= 2 {
                    return Ok((value, true));
                }
            }
        }
        let all = searched > 0 && searched == moves.len();
        let value = if all { best } else { self.wdl_table(position)? };
        if best >= value {
            return Ok((best, best > 0 || all));
        }
        Ok((value, false))
    }

    /// The distance to zeroing, and whether it is exact (not rounded).
    fn dtz(&self, position: &Position) -> Result<(i32, bool), SyzygyError> {
        let (wdl, zeroing) = self.search_zeroing(position)?;
        if wdl == 0 {
            return Ok((0, true));
        }
        if zeroing {
            return Ok((before_zeroing(wdl), true));
        }
        if let Some((dtz, precise)) = self.dtz_table(position, wdl)? {
            let cursed = i32::from(wdl.abs() == 1);
            return Ok(((dtz + 100 * cursed) * wdl.signum(), precise));
        }
        // The table is for the other side to move: one ply deeper.
        let mut shortest = (i32::MAX, true);
        for mv in position.legal_moves().iter().copied() {
            let after = position.play_unchecked(mv);
            let zeroing = is_zeroing(position, mv);
            let (mut dtz, precise) = if zeroing {
                (-before_zeroing(self.wdl(&after, -2, 2)?), true)
            } else {
                let (dtz, precise) = self.dtz(&after)?;
                (-dtz, precise)
            };
            if dtz == 1 && after.is_check() && !after.has_legal_moves() {
                shortest = (1, true);
            }
            if !zeroing {
                dtz += dtz.signum();
            }
            if dtz < shortest.0 && dtz.signum() == wdl.signum() {
                shortest = (dtz, precise);
            }
        }
        Ok(if shortest.0 == i32::MAX {
            (-1, true)
        } else {
            shortest
        })
    }

    /// The WDL table's value for the position as it stands (-2..2).
    fn wdl_table(&self, position: &Position) -> Result<i32, SyzygyError> {
        // The kings alone: a draw, with no table to read.
        if position.occupied() == position.by_kind(PieceKind::King) {
            return Ok(0);
        }
        let found = self.locate(position, Kind::Wdl)?;
        let (value, _) = found.value(position)?;
        let value = i32::from(value) - 2;
        if !(-2..=2).contains(&value) {
            return Err(found.corrupt(Malformed(format!("a WDL value of {}", value + 2))));
        }
        Ok(value)
    }

    /// The DTZ table's value for the position, `wdl` its result, and
    /// whether the table counts it in plies (exact); `None` when the table
    /// holds the other side to move.
    fn dtz_table(&self, position: &Position, wdl: i32) -> Result<Option<(i32, bool)>, SyzygyError> {
        let found = self.locate(position, Kind::Dtz)?;
        let Some((value, file)) = found.dtz_value(position)? else {
            return Ok(None);
        };
        let layout = &found.opened.layout;
        let source = &found.opened.source;
        let table = layout.pairs(0, file);
        let mut value = i32::from(value);
        if table.flags & flag::MAPPED != 0 {
            // The maps are kept in the order win, loss, cursed win,
            // blessed loss.
            // A draw (asked only through `probe_dtz_table`) reads the
            // win's map, as python-chess does.
            let which = match wdl {
                -2 => 1,
                1 => 2,
                -1 => 3,
                _ => 0,
            };
            let start = table.map_start[which];
            value = if table.flags & flag::WIDE != 0 {
                let at = start + 2 * value as usize;
                let pair = source
                    .array::<2>(at)
                    .map_err(|_| found.corrupt(Malformed::at(at, "a DTZ map ends early")))?;
                i32::from(u16::from_le_bytes(pair))
            } else {
                let at = start + value as usize;
                let [byte] = source
                    .array::<1>(at)
                    .map_err(|_| found.corrupt(Malformed::at(at, "a DTZ map ends early")))?;
                i32::from(byte)
            };
        }
        let in_moves = match wdl {
            2 => table.flags & flag::WIN_PLIES == 0,
            -2 => table.flags & flag::LOSS_PLIES == 0,
            _ => true,
        };
        if in_moves {
            value *= 2;
        }
        Ok(Some((value + 1, !in_moves)))
    }

    /// The table file of `kind` for the position's material, opened, and
    /// how the position maps onto it.
    fn locate(&self, position: &Position, kind: Kind) -> Result<Found<'_>, SyzygyError> {
        // The key of the material as it stands, packed as `key` packs
        // it: three bits a count, White's pawns highest. Summed piece by
        // piece (at most seven), which costs less than twelve population
        // counts without the processor's own instruction.
        let black = position.by_color(Color::Black).0;
        let kinds = PieceKind::ALL.map(|kind| position.by_kind(kind).0);
        let mut straight = u64::from(kind == Kind::Dtz) << 36;
        for square in position.occupied() {
            let at = square.index();
            let mut piece = 0;
            for (index, board) in kinds.iter().enumerate().skip(1) {
                piece += index as u32 * ((board >> at) & 1) as u32;
            }
            let side = ((black >> at) & 1) as u32;
            straight += 1 << (3 * (5 - piece) + 18 * (1 - side));
        }
        let Some((file, black_stronger)) = self.files.get(&straight) else {
            return Err(SyzygyError::MissingTable {
                name: format!("{}.{}", table_name(position), kind.extension()),
            });
        };
        let black_stronger = *black_stronger;
        let opened = file.open(kind, file.material, self.in_memory)?;
        Ok(Found {
            opened,
            path: file.origin.path(),
            material: &file.traits,
            black_stronger,
        })
    }
}

/// The name of the table a position needs, as its files are named
/// without their extension: the stronger side first (more pieces, then
/// the stronger piece by piece from the queen down), `KQvKR` for White's
/// queen against Black's rook and for Black's queen against White's rook.
///
/// ```
/// use bitboards::Position;
/// use bitboards_syzygy::table_name;
///
/// let white = Position::from_fen("8/8/8/8/4k3/8/2KQ4/6r1 w - - 0 1")?;
/// let black = Position::from_fen("8/8/8/8/4K3/8/2kq4/6R1 w - - 0 1")?;
/// assert_eq!(table_name(&white), "KQvKR");
/// assert_eq!(table_name(&black), "KQvKR");
/// # Ok::<(), bitboards::FenError>(())
/// ```
#[must_use]
pub fn table_name(position: &Position) -> String {
    let mut counts = [[0u8; 6]; 2];
    for (side, color) in [Color::White, Color::Black].into_iter().enumerate() {
        for (at, piece) in PieceKind::ALL.into_iter().enumerate() {
            counts[side][at] = position.pieces(color, piece).count() as u8;
        }
    }
    let material = Material { counts };
    let swapped = Material {
        counts: [counts[1], counts[0]],
    };
    if strongest_first(&swapped, &material) {
        swapped.name()
    } else {
        material.name()
    }
}

/// Whether the first side of `a` is the one a table's name puts first
/// against the first side of `b`: the one with more pieces, then the
/// stronger, piece by piece from the queen down.
fn strongest_first(a: &Material, b: &Material) -> bool {
    let key = |m: &Material| {
        let side = m.counts[0];
        let pieces: u8 = side.iter().sum();
        (pieces, [side[4], side[3], side[2], side[1], side[0]])
    };
    key(a) > key(b)
}

/// A table file found for a position.
struct Found<'a> {
    opened: &'a Opened,
    path: &'a Path,
    material: &'a Traits,
    black_stronger: bool,
}

impl Found<'_> {
    fn corrupt(&self, malformed: Malformed) -> SyzygyError {
        malformed.in_file(self.path.to_path_buf())
    }

    /// The WDL table's stored value for the position.
    fn value(&self, position: &Position) -> Result<(u16, usize), SyzygyError> {
        match self.encode(position, false)? {
            Some(found) => Ok(found),
            None => Err(self.corrupt(Malformed("a WDL table for one side only".into()))),
        }
    }

    /// The DTZ table's stored value for the position and the leading
    /// pawn's file, or `None` when the table holds the other side to move.
    fn dtz_value(&self, position: &Position) -> Result<Option<(u16, usize)>, SyzygyError> {
        self.encode(position, true)
    }

    /// The position's index in its table, and the value there.
    fn encode(&self, position: &Position, dtz: bool) -> Result<Option<(u16, usize)>, SyzygyError> {
        let layout = &self.opened.layout;
        let source = &self.opened.source;
        let symmetric = self.material.symmetric;
        let black_to_move = position.side_to_move() == Color::Black;
        let flip = (symmetric && black_to_move) || self.black_stronger;
        let (flip_color, flip_squares) = if flip { (8u8, 56u8) } else { (0, 0) };
        let side = usize::from(flip ^ black_to_move);
        let code = |color: Color, kind: PieceKind| -> u8 {
            let color = if color == Color::White { 0 } else { 8 };
            (color | (kind.index() as u8 + 1)) ^ flip_color
        };
        let mut squares = [0u8; 7];
        let mut pieces = [0u8; 7];
        let mut size = 0;
        let mut lead = 0;
        let mut file = 0;
        let has_pawns = self.material.has_pawns;
        let mut lead_pawns = bitboards::Bitboard::EMPTY;
        if has_pawns {
            let first = layout.pairs(0, 0).pieces[0] ^ flip_color;
            let color = if first & 8 == 0 {
                Color::White
            } else {
                Color::Black
            };
            lead_pawns = position.pieces(color, PieceKind::Pawn);
            for square in lead_pawns {
                if size == 7 {
                    return Err(self.corrupt(Malformed("more pawns than the table".into())));
                }
                squares[size] = square.index() as u8 ^ flip_squares;
                pieces[size] = code(color, PieceKind::Pawn);
                size += 1;
            }
            lead = size;
            let leader = (0..lead)
                .max_by_key(|&at| PAWN_SQUARES[usize::from(squares[at])])
                .unwrap_or(0);
            squares.swap(0, leader);
            let f = usize::from(squares[0] & 7);
            file = f.min(7 - f);
        }
        let table = layout.pairs(side, file);
        // A symmetric pawnless DTZ table holds either side (the colours
        // were flipped to White to move).
        let either_side = symmetric && !has_pawns;
        if dtz && !either_side && usize::from(table.flags & flag::STM) != side {
            return Ok(None);
        }
        for color in [Color::White, Color::Black] {
            for kind in PieceKind::ALL {
                for square in position.pieces(color, kind) & !lead_pawns {
                    if size == 7 {
                        return Err(self.corrupt(Malformed("more pieces than the table".into())));
                    }
                    squares[size] = square.index() as u8 ^ flip_squares;
                    pieces[size] = code(color, kind);
                    size += 1;
                }
            }
        }
        // The pieces in the table's order.
        for at in lead..size.saturating_sub(1) {
            if let Some(other) = (at + 1..size).find(|&other| table.pieces[at] == pieces[other]) {
                pieces.swap(at, other);
                squares.swap(at, other);
            }
        }
        // Compared byte by byte: a slice comparison calls `memcmp`, 2% of
        // a WDL probe.
        if (0..size).any(|at| pieces[at] != table.pieces[at]) {
            return Err(self.corrupt(Malformed(
                "its pieces are not the material its name says".into(),
            )));
        }
        if squares[0] & 7 > 3 {
            for square in &mut squares[..size] {
                *square ^= 7;
            }
        }
        let sq = |square: u8| usize::from(square);
        let mut index: u64;
        if has_pawns {
            index = lead_pawn_start(lead, sq(squares[0]));
            if lead > 2 {
                squares[1..lead].sort_by_key(|&square| PAWN_SQUARES[sq(square)]);
            }
            for at in 1..lead {
                index += small_binomial(usize::from(PAWN_SQUARES[sq(squares[at])]), at);
            }
        } else {
            if squares[0] >> 3 > 3 {
                for square in &mut squares[..size] {
                    *square ^= 56;
                }
            }
            for at in 0..usize::from(table.group_len[0]).min(size) {
                let offset = diagonal_offset(sq(squares[at]));
                if offset == 0 {
                    continue;
                }
                if offset > 0 {
                    for square in &mut squares[at..size] {
                        *square = ((*square >> 3) | (*square << 3)) & 63;
                    }
                }
                break;
            }
            if self.material.unique_pieces {
                let [s0, s1, s2] = [sq(squares[0]), sq(squares[1]), sq(squares[2])];
                let adjust1 = usize::from(s1 > s0);
                let adjust2 = usize::from(s2 > s0) + usize::from(s2 > s1);
                let (r0, r1, r2) = (s0 >> 3, s1 >> 3, s2 >> 3);
                let below = |square: usize| usize::from(BELOW_DIAGONAL[square]);
                let value = if diagonal_offset(s0) != 0 {
                    (usize::from(TRIANGLE[s0]) * 63 + (s1 - adjust1)) * 62 + s2 - adjust2
                } else if diagonal_offset(s1) != 0 {
                    (6 * 63 + r0 * 28 + below(s1)) * 62 + s2 - adjust2
                } else if diagonal_offset(s2) != 0 {
                    6 * 63 * 62 + 4 * 28 * 62 + r0 * 7 * 28 + (r1 - adjust1) * 28 + below(s2)
                } else {
                    6 * 63 * 62
                        + 4 * 28 * 62
                        + 4 * 7 * 28
                        + r0 * 7 * 6
                        + (r1 - adjust1) * 6
                        + (r2 - adjust2)
                };
                index = value as u64;
            } else {
                let pair = KING_PAIRS[usize::from(TRIANGLE[sq(squares[0])])][sq(squares[1])];
                if pair == u16::MAX {
                    return Err(self.corrupt(Malformed(
                        "the kings stand where the table has no index".into(),
                    )));
                }
                index = u64::from(pair);
            }
        }
        index = index.wrapping_mul(table.group_factor[0]);
        let mut start = usize::from(table.group_len[0]);
        let mut other_pawns = has_pawns && layout.pawns[1] > 0;
        let mut group = 1;
        while group < 8 && table.group_len[group] != 0 {
            let len = usize::from(table.group_len[group]);
            let end = (start + len).min(size);
            if end > start + 1 {
                squares[start..end].sort_unstable();
            }
            let mut n = 0u64;
            for at in start..end {
                let adjust = squares[..start]
                    .iter()
                    .filter(|&&s| squares[at] > s)
                    .count();
                let place = usize::from(squares[at])
                    .checked_sub(adjust + if other_pawns { 8 } else { 0 })
                    .ok_or_else(|| self.corrupt(Malformed("a pawn off the pawns' ranks".into())))?;
                n += small_binomial(place, at - start + 1);
            }
            other_pawns = false;
            index = index.wrapping_add(n.wrapping_mul(table.group_factor[group]));
            start = end;
            group += 1;
        }
        let value = table
            .value(source, index)
            .map_err(|malformed| self.corrupt(malformed))?;
        Ok(Some((value, file)))
    }
}

/// Whether a position can be probed at all.
fn check(position: &Position) -> Result<(), SyzygyError> {
    if !position.castling().is_empty() {
        return Err(SyzygyError::Castling);
    }
    check_count(position)
}

/// Whether a position has no more pieces than a table holds.
fn check_count(position: &Position) -> Result<(), SyzygyError> {
    let count = position.occupied().count();
    if count > MAX_PIECES {
        return Err(SyzygyError::TooManyPieces { count });
    }
    Ok(())
}

/// The table file a path names, by its file name.
fn table_of(path: &Path) -> Option<(Material, Kind)> {
    let kind = match path.extension()?.to_str()? {
        "rtbw" => Kind::Wdl,
        "rtbz" => Kind::Dtz,
        _ => return None,
    };
    let material = Material::from_name(path.file_stem()?.to_str()?)?;
    Some((material, kind))
}

/// Whether the side to move may have a capture: a piece of its attacks
/// one of the other side's (not its king), or en passant is possible.
/// Cheaper than listing the captures, which most positions of a table
/// lack.
pub(crate) fn may_capture(position: &Position) -> bool {
    if position.en_passant().is_some() {
        return true;
    }
    let us = position.side_to_move();
    let occupied = position.occupied();
    let targets = position.by_color(!us) & !position.by_kind(PieceKind::King);
    let mut attacked = Bitboard::EMPTY;
    for kind in PieceKind::ALL {
        for square in position.pieces(us, kind) {
            attacked |= attacks::piece(Piece::new(us, kind), square, occupied);
        }
    }
    !(attacked & targets).is_empty()
}

pub(crate) fn is_capture(position: &Position, mv: Move) -> bool {
    match mv.kind() {
        MoveKind::EnPassant => true,
        MoveKind::Castling => false,
        _ => position.piece_on(mv.to()).is_some(),
    }
}

fn moves_pawn(position: &Position, mv: Move) -> bool {
    position
        .piece_on(mv.from())
        .is_some_and(|piece| piece.kind() == PieceKind::Pawn)
}

fn is_zeroing(position: &Position, mv: Move) -> bool {
    is_capture(position, mv) || moves_pawn(position, mv)
}

/// The DTZ of a position whose best move zeroes, by its result.
const fn before_zeroing(wdl: i32) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        -1 => -101,
        -2 => -1,
        _ => 0,
    }
}
