//! Syzygy tablebases: the compiled part of `bitboards.syzygy`
//! (python-chess's `chess.syzygy` names) over the `bitboards-syzygy` crate.
//!
//! [`SyzygyTablebase`] is the base class of `bitboards.syzygy.Tablebase`,
//! which adds in Python what is argument handling (python-chess's keyword
//! arguments, the NumPy and Arrow inputs of `probe_wdl_many`) and the
//! context manager. The probes are here: one board at a time with the GIL
//! held (a probe takes microseconds), a batch of rows on every core with
//! the GIL released.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use bitboards::{Bitboard, CastlingRights, Color, Piece, Position, Setup, Square};
use bitboards_syzygy::{MAX_PIECES, SyzygyError, Tablebase, Wdl};
use pyo3::exceptions::{PyKeyError, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyByteArray;
use rayon::prelude::*;

use crate::board::Board;
use crate::errors::fen_error;

pyo3::create_exception!(
    bitboards.syzygy,
    MissingTableError,
    PyKeyError,
    "A table the probe needs was not added (python-chess's name; a KeyError)."
);

/// The bytes of a row of a batch: twelve little-endian u64.
const ROW_BYTES: usize = 12 * 8;
/// The rows one task of a batch probes.
const CHUNK_ROWS: usize = 256;
/// An en passant byte that names no square.
const NO_SQUARE: u8 = 255;

/// The tables added, and the real paths of the files added through links
/// or as bytes (for error messages).
#[derive(Default)]
struct State {
    tables: Tablebase,
    aliases: HashMap<PathBuf, PathBuf>,
}

/// Where a probe's question came from, for its error message.
enum Asked<'a> {
    /// One board: python-chess names its FEN.
    Board(&'a Position),
    /// A row of a batch.
    Row(usize),
}

impl State {
    fn real_path<'a>(&'a self, path: &'a Path) -> &'a Path {
        self.aliases.get(path).map_or(path, PathBuf::as_path)
    }

    /// Whether python-chess answers this error with a `KeyError` (which
    /// `get_wdl` and `get_dtz` turn into their default).
    fn is_key_error(error: &SyzygyError) -> bool {
        matches!(
            error,
            SyzygyError::MissingTable { .. }
                | SyzygyError::Castling
                | SyzygyError::TooManyPieces { .. }
        )
    }

    /// The Python exception for `error`: python-chess's types and
    /// messages (`MissingTableError`, a `KeyError`, for a missing table;
    /// `KeyError` for castling rights and too many pieces), `OSError` for a
    /// file that cannot be read or is not a table.
    fn error(&self, error: SyzygyError, asked: Asked<'_>) -> PyErr {
        let (prefix, suffix) = match asked {
            Asked::Board(position) => (String::new(), format!(": {}", position.fen())),
            Asked::Row(row) => (format!("row {row}: "), String::new()),
        };
        match error {
            SyzygyError::MissingTable { name } => {
                let path = Path::new(&name);
                let kind = match path.extension().and_then(|e| e.to_str()) {
                    Some("rtbz") => "dtz",
                    _ => "wdl",
                };
                let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or(&name);
                MissingTableError::new_err(format!("{prefix}did not find {kind} table {stem}"))
            }
            SyzygyError::Castling => PyKeyError::new_err(format!(
                "{prefix}syzygy tables do not contain positions with castling rights{suffix}"
            )),
            SyzygyError::TooManyPieces { count } => PyKeyError::new_err(format!(
                "{prefix}syzygy tables support up to {MAX_PIECES} pieces, not {count}{suffix}"
            )),
            SyzygyError::Io { path, source } => {
                let path = self.real_path(&path).display();
                std::io::Error::new(source.kind(), format!("{prefix}{path}: {source}")).into()
            }
            SyzygyError::Corrupt { path, problem } => {
                let path = self.real_path(&path).display();
                PyOSError::new_err(format!(
                    "{prefix}{path}: not a valid Syzygy table: {problem}"
                ))
            }
            other => PyOSError::new_err(format!("{prefix}{other}")),
        }
    }
}

/// The position of a `bitboards.Board`, or of anything with a `fen()`
/// method (a python-chess `chess.Board`).
fn position_of(board: &Bound<'_, PyAny>) -> PyResult<Position> {
    if let Ok(board) = board.cast::<Board>() {
        return Ok(*board.try_borrow()?.position());
    }
    let Ok(fen) = board.getattr("fen") else {
        return Err(PyTypeError::new_err(format!(
            "expected a bitboards.Board (or a board with a fen() method), not {}",
            board.get_type().name()?
        )));
    };
    let fen: String = fen.call0()?.extract()?;
    Position::from_fen(&fen).map_err(|error| fen_error(&fen, &error))
}

/// Why a row of a batch has no WDL.
enum RowError {
    /// The row is not a legal position: the message says why.
    Invalid(String),
    /// The probe failed.
    Probe(SyzygyError),
}

/// The position of a row: twelve boards (White's pawns ... king, then
/// Black's), the side to move and the en passant square (or
/// [`NO_SQUARE`]), checked as a FEN is.
fn row_position(boards: &[u8], white: bool, ep_square: u8) -> Result<Position, RowError> {
    let mut board = [None; 64];
    let mut union = 0u64;
    for (index, bytes) in boards.chunks_exact(8).enumerate() {
        let mut bits = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        if union & bits != 0 {
            let square = Square::new((union & bits).trailing_zeros() as u8).expect("a square");
            return Err(RowError::Invalid(format!(
                "two pieces on {} (bitboard {index} and an earlier one)",
                square.name()
            )));
        }
        union |= bits;
        while bits != 0 {
            board[bits.trailing_zeros() as usize] = Some(Piece::ALL[index]);
            bits &= bits - 1;
        }
    }
    let en_passant = match ep_square {
        NO_SQUARE => None,
        square => Some(Square::new(square).ok_or_else(|| {
            RowError::Invalid(format!("en passant square {square} is not a square"))
        })?),
    };
    let setup = Setup {
        board,
        side_to_move: if white { Color::White } else { Color::Black },
        castling: CastlingRights::NONE,
        en_passant,
        halfmove_clock: 0,
        fullmove_number: 1,
    };
    Position::from_setup(setup)
        .map_err(|error| RowError::Invalid(format!("not a legal position: {error}")))
}

/// A WDL given as python-chess's int (-2..2).
fn wdl_of(wdl: i32) -> PyResult<Wdl> {
    Ok(match wdl {
        -2 => Wdl::Loss,
        -1 => Wdl::BlessedLoss,
        0 => Wdl::Draw,
        1 => Wdl::CursedWin,
        2 => Wdl::Win,
        _ => {
            return Err(PyValueError::new_err(format!(
                "wdl must be -2, -1, 0, 1 or 2 (loss ... win), not {wdl}"
            )));
        }
    })
}

/// python-chess's `probe_ab`: the value (-2..2) of `position` once its
/// captures other than en passant are played out, by alpha-beta from the
/// table values, and how it was found: 2 where a capture reached `beta`,
/// 1 + (alpha > 0) where the captures' best was at least the table's, 1
/// where the table's value was better.
fn probe_ab(
    tables: &Tablebase,
    position: &Position,
    mut alpha: i32,
    beta: i32,
) -> Result<(i32, i32), SyzygyError> {
    if !position.castling().is_empty() {
        return Err(SyzygyError::Castling);
    }
    // As python-chess: one piece more than a table holds may be captured
    // down to one.
    let count = position.occupied().count();
    if count > MAX_PIECES + 1 {
        return Err(SyzygyError::TooManyPieces { count });
    }
    let theirs = position.by_color(!position.side_to_move());
    for mv in position
        .legal_moves_masked(Bitboard::FULL, theirs)
        .iter()
        .copied()
    {
        let (value, _) = probe_ab(tables, &position.play_unchecked(mv), -beta, -alpha)?;
        let value = -value;
        if value > alpha {
            if value >= beta {
                return Ok((value, 2));
            }
            alpha = value;
        }
    }
    let value = tables.probe_wdl_table(position)? as i32;
    Ok(if alpha >= value {
        (alpha, 1 + i32::from(alpha > 0))
    } else {
        (value, 1)
    })
}

/// Syzygy tables (the compiled base class of `bitboards.syzygy.Tablebase`).
///
/// Probing is thread-safe: every thread may probe the same object, and
/// `probe_wdl_many` probes on every core.
#[pyclass(module = "bitboards.syzygy", subclass, frozen)]
#[derive(Default)]
pub struct SyzygyTablebase {
    state: RwLock<State>,
}

impl SyzygyTablebase {
    fn read(&self) -> RwLockReadGuard<'_, State> {
        self.state
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn write(&self) -> RwLockWriteGuard<'_, State> {
        self.state
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Adds a directory's tables, recording `aliases` (a link's path, the
    /// real file's) for error messages. The lock is taken without the GIL:
    /// a batch may be probing on other threads.
    fn add(
        &self,
        py: Python<'_>,
        directory: PathBuf,
        aliases: Vec<(PathBuf, PathBuf)>,
    ) -> PyResult<usize> {
        py.detach(|| {
            let mut state = self.write();
            let added = state.tables.add_directory(&directory)?;
            state.aliases.extend(aliases);
            Ok::<_, SyzygyError>(added)
        })
        .map_err(|error| match error {
            SyzygyError::Io { path, source } => {
                std::io::Error::new(source.kind(), format!("{}: {source}", path.display())).into()
            }
            other => PyOSError::new_err(other.to_string()),
        })
    }
}

#[pymethods]
impl SyzygyTablebase {
    #[new]
    fn new() -> SyzygyTablebase {
        SyzygyTablebase::default()
    }

    /// Adds every table file of `directory` (both kinds); returns how many.
    fn _add_directory(&self, py: Python<'_>, directory: PathBuf) -> PyResult<usize> {
        self.add(py, directory, Vec::new())
    }

    /// Adds the tables of `directory`, a directory of links, naming in
    /// errors the files the links point to (`aliases`: link, real path).
    fn _add_links(
        &self,
        py: Python<'_>,
        directory: PathBuf,
        aliases: Vec<(PathBuf, PathBuf)>,
    ) -> PyResult<usize> {
        self.add(py, directory, aliases)
    }

    /// Adds one table from its bytes: `name` its file name, `path` where
    /// it was read (for errors).
    fn _add_table_bytes(
        &self,
        py: Python<'_>,
        name: &str,
        data: PyBackedBytes,
        path: PathBuf,
    ) -> PyResult<()> {
        let bytes = data.to_vec();
        py.detach(|| {
            let mut state = self.write();
            state.tables.add_table_bytes(name, bytes)?;
            state.aliases.insert(PathBuf::from(name), path);
            Ok::<_, SyzygyError>(())
        })
        .map_err(|error| PyValueError::new_err(error.to_string()))
    }

    /// Forgets every table (their memory maps are closed once no probe
    /// uses them).
    fn _clear(&self, py: Python<'_>) {
        py.detach(|| *self.write() = State::default());
    }

    /// How many table files were added.
    fn _len(&self) -> usize {
        self.read().tables.len()
    }

    /// The most pieces of the tables added (kings included), 0 with none.
    fn max_pieces(&self) -> usize {
        self.read().tables.max_pieces()
    }

    /// Win (2), cursed win (1), draw (0), blessed loss (-1) or loss (-2)
    /// for the side to move, under the fifty-move rule, from a position
    /// just reached by a capture or a pawn move: python-chess's
    /// ``probe_wdl``. En passant captures are played out.
    ///
    /// `board` is a `bitboards.Board`, or a board with a `fen()` method (a
    /// python-chess `chess.Board`). Raises `MissingTableError` (a
    /// `KeyError`) for a table that was not added, `KeyError` for castling
    /// rights or more than seven pieces, `OSError` for a file that cannot
    /// be read or is not a table.
    ///
    /// >>> import bitboards, bitboards.syzygy
    /// >>> tablebase = bitboards.syzygy.open_tablebase("../tests/data/syzygy")
    /// >>> tablebase.probe_wdl(bitboards.Board("8/8/8/8/8/2k5/8/KR6 b - - 0 1"))
    /// -2
    /// >>> tablebase.probe_wdl(bitboards.Board("8/8/8/8/8/1k6/2R5/K7 b - - 0 1"))  # takes the rook
    /// 0
    fn probe_wdl(&self, board: &Bound<'_, PyAny>) -> PyResult<i8> {
        let position = position_of(board)?;
        let state = self.read();
        match state.tables.probe_wdl(&position) {
            Ok(wdl) => Ok(wdl as i8),
            Err(error) => Err(state.error(error, Asked::Board(&position))),
        }
    }

    /// The distance to zeroing for the side to move, in plies: to the next
    /// capture or pawn move on the way to the ``probe_wdl`` result,
    /// positive when winning, negative when losing, 0 for a draw; past 100
    /// a cursed win (blessed loss). python-chess's ``probe_dtz``, rounded
    /// as it rounds; its errors are ``probe_wdl``'s (DTZ needs the WDL
    /// tables too).
    ///
    /// >>> import bitboards, bitboards.syzygy
    /// >>> tablebase = bitboards.syzygy.open_tablebase("../tests/data/syzygy")
    /// >>> tablebase.probe_dtz(bitboards.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1"))
    /// 27
    fn probe_dtz(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        let position = position_of(board)?;
        let state = self.read();
        match state.tables.probe_dtz(&position) {
            Ok(dtz) => Ok(dtz.0),
            Err(error) => Err(state.error(error, Asked::Board(&position))),
        }
    }

    /// Adds one table file, found by its name (`KQvKR.rtbw`): the
    /// file itself is read the first time a probe needs it.
    fn _add_file(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| self.write().tables.add_file(&path))
            .map_err(|error| PyValueError::new_err(error.to_string()))
    }

    /// The WDL table's value for the position as it stands: no capture or
    /// en passant played out, castling rights not looked at
    /// (python-chess's ``probe_wdl_table``). Where a capture does better,
    /// the table may hold anything: ``probe_wdl`` is the position's value.
    /// The kings alone are 0, without a table. Raises
    /// ``MissingTableError`` (a ``KeyError``) for a table that was not
    /// added, ``KeyError`` for more than seven pieces, ``OSError`` for a
    /// file that cannot be read or is not a table.
    ///
    /// >>> import bitboards, bitboards.syzygy
    /// >>> tablebase = bitboards.syzygy.open_tablebase("../tests/data/syzygy")
    /// >>> board = bitboards.Board("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2")
    /// >>> tablebase.probe_wdl_table(board), tablebase.probe_wdl(board)   # en passant wins
    /// (0, 2)
    fn probe_wdl_table(&self, board: &Bound<'_, PyAny>) -> PyResult<i8> {
        let position = position_of(board)?;
        let state = self.read();
        match state.tables.probe_wdl_table(&position) {
            Ok(wdl) => Ok(wdl as i8),
            Err(error) => Err(state.error(error, Asked::Board(&position))),
        }
    }

    /// The DTZ table's value for the position, ``wdl`` (-2..2) its result
    /// for the side to move (python-chess's ``probe_dtz_table``): ``(n,
    /// 1)``, ``n`` the plies (or moves, by table) to zeroing less one as
    /// the table stores them, no zeroing move searched and no 100 added for
    /// a cursed result; ``(0, -1)`` when the table holds the other side to
    /// move. Errors as ``probe_wdl_table``'s, for the DTZ table; a ``wdl``
    /// outside -2..2 is a ``ValueError``.
    ///
    /// >>> import bitboards, bitboards.syzygy
    /// >>> tablebase = bitboards.syzygy.open_tablebase("../tests/data/syzygy")
    /// >>> tablebase.probe_dtz_table(bitboards.Board("7n/6k1/4R3/4K3/8/8/8/8 b - - 1 1"), -2)
    /// (8, 1)
    fn probe_dtz_table(&self, board: &Bound<'_, PyAny>, wdl: i32) -> PyResult<(u32, i32)> {
        let wdl = wdl_of(wdl)?;
        let position = position_of(board)?;
        let state = self.read();
        match state.tables.probe_dtz_table(&position, wdl) {
            Ok(Some(dtz)) => Ok((dtz - 1, 1)),
            Ok(None) => Ok((0, -1)),
            Err(error) => Err(state.error(error, Asked::Board(&position))),
        }
    }

    /// ``probe_dtz`` as if en passant were not possible (python-chess's
    /// ``probe_dtz_no_ep``); errors as ``probe_dtz``'s.
    ///
    /// >>> import bitboards, bitboards.syzygy
    /// >>> tablebase = bitboards.syzygy.open_tablebase("../tests/data/syzygy")
    /// >>> board = bitboards.Board("8/8/8/8/2pP4/2K5/4k3/8 b - d3 0 1")
    /// >>> tablebase.probe_dtz_no_ep(board), tablebase.probe_dtz(board)   # cxd3 saves Black
    /// (-1, 1)
    fn probe_dtz_no_ep(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        let position = position_of(board)?;
        let mut setup = position.setup();
        setup.en_passant = None;
        let without = Position::from_setup(setup).map_err(|error| {
            PyValueError::new_err(format!("{}: without en passant: {error}", position.fen()))
        })?;
        let state = self.read();
        match state.tables.probe_dtz(&without) {
            Ok(dtz) => Ok(dtz.0),
            Err(error) => Err(state.error(error, Asked::Board(&position))),
        }
    }

    /// python-chess's ``probe_ab``: the value (-2..2) for the side to move
    /// once the captures other than en passant are played out, searched
    /// between ``alpha`` and ``beta`` (fail-hard: a value at or past either
    /// is a bound) over the WDL tables' values, and how it was found: 2
    /// when a capture reached ``beta``; 1, or 2 for a win, when the best
    /// capture was at least the table's value; 1 when the table's value
    /// was better. ``threats`` is accepted and, as in python-chess for
    /// standard chess, does nothing. Raises ``KeyError`` for castling
    /// rights or more than eight pieces, and the table errors of
    /// ``probe_wdl_table``.
    ///
    /// >>> import bitboards, bitboards.syzygy
    /// >>> tablebase = bitboards.syzygy.open_tablebase("../tests/data/syzygy")
    /// >>> tablebase.probe_ab(bitboards.Board("8/8/8/8/8/1k6/2R5/K7 b - - 0 1"), -2, 2)
    /// (0, 1)
    #[pyo3(signature = (board, alpha, beta, threats = false))]
    fn probe_ab(
        &self,
        board: &Bound<'_, PyAny>,
        alpha: i32,
        beta: i32,
        threats: bool,
    ) -> PyResult<(i32, i32)> {
        let _ = threats;
        let position = position_of(board)?;
        let state = self.read();
        probe_ab(&state.tables, &position, alpha, beta)
            .map_err(|error| state.error(error, Asked::Board(&position)))
    }

    /// ``probe_wdl``, or ``default`` where it raises a ``KeyError`` (a
    /// missing table, castling rights, too many pieces); other errors are
    /// raised.
    ///
    /// >>> import bitboards, bitboards.syzygy
    /// >>> tablebase = bitboards.syzygy.open_tablebase("../tests/data/syzygy")
    /// >>> tablebase.get_wdl(bitboards.Board()) is None
    /// True
    #[pyo3(signature = (board, default = None))]
    fn get_wdl(
        &self,
        board: &Bound<'_, PyAny>,
        default: Option<Py<PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let py = board.py();
        let position = position_of(board)?;
        let state = self.read();
        match state.tables.probe_wdl(&position) {
            Ok(wdl) => Ok(Some((wdl as i8).into_pyobject(py)?.into_any().unbind())),
            Err(error) if State::is_key_error(&error) => Ok(default),
            Err(error) => Err(state.error(error, Asked::Board(&position))),
        }
    }

    /// ``probe_dtz``, or ``default`` where it raises a ``KeyError`` (a
    /// missing table, castling rights, too many pieces); other errors are
    /// raised.
    ///
    /// >>> import bitboards, bitboards.syzygy
    /// >>> tablebase = bitboards.syzygy.open_tablebase("../tests/data/syzygy")
    /// >>> tablebase.get_dtz(bitboards.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1"), default=0)
    /// 27
    #[pyo3(signature = (board, default = None))]
    fn get_dtz(
        &self,
        board: &Bound<'_, PyAny>,
        default: Option<Py<PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let py = board.py();
        let position = position_of(board)?;
        let state = self.read();
        match state.tables.probe_dtz(&position) {
            Ok(dtz) => Ok(Some(dtz.0.into_pyobject(py)?.into_any().unbind())),
            Err(error) if State::is_key_error(&error) => Ok(default),
            Err(error) => Err(state.error(error, Asked::Board(&position))),
        }
    }

    /// The WDL of rows of twelve boards, as int8 bytes (what
    /// `Tablebase.probe_wdl_many` calls once it has its input as bytes).
    ///
    /// `boards`: 96 bytes a row (twelve little-endian u64); `turn`: a byte
    /// a row, nonzero where White is to move; `castling`: None or a byte a
    /// row, nonzero where the row has castling rights; `ep_square`: None or
    /// a byte a row, the en passant square or 255. With `default`, the rows
    /// that `get_wdl` would give its default get `default`; without, the
    /// first row that cannot be probed raises what `probe_wdl` would. A row
    /// that is not a legal position is a `ValueError` either way.
    #[pyo3(signature = (boards, turn, castling = None, ep_square = None, default = None))]
    fn _probe_wdl_rows<'py>(
        &self,
        py: Python<'py>,
        boards: PyBackedBytes,
        turn: PyBackedBytes,
        castling: Option<PyBackedBytes>,
        ep_square: Option<PyBackedBytes>,
        default: Option<i8>,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        let rows = turn.len();
        if boards.len() != rows * ROW_BYTES {
            return Err(PyValueError::new_err(format!(
                "{} bytes of boards for {rows} rows: 96 a row expected",
                boards.len()
            )));
        }
        for (name, column) in [("castling", &castling), ("ep_square", &ep_square)] {
            if let Some(column) = column
                && column.len() != rows
            {
                return Err(PyValueError::new_err(format!(
                    "{} bytes of {name} for {rows} rows",
                    column.len()
                )));
            }
        }
        let castling = castling.as_deref();
        let ep_square = ep_square.as_deref();
        let mut out = vec![0u8; rows];
        let first_failure = AtomicUsize::new(usize::MAX);
        let failure = py.detach(|| {
            let state = self.read();
            let probe = |row: usize| -> Result<i8, RowError> {
                let position = row_position(
                    &boards[row * ROW_BYTES..(row + 1) * ROW_BYTES],
                    turn[row] != 0,
                    ep_square.map_or(NO_SQUARE, |ep| ep[row]),
                )?;
                if castling.is_some_and(|castling| castling[row] != 0) {
                    return Err(RowError::Probe(SyzygyError::Castling));
                }
                state
                    .tables
                    .probe_wdl(&position)
                    .map(|wdl| wdl as i8)
                    .map_err(RowError::Probe)
            };
            // On every core, in a pool that a forked process makes again.
            let failure = crate::pool::every_core(|| {
                out.par_chunks_mut(CHUNK_ROWS)
                    .enumerate()
                    .filter_map(|(chunk, out)| {
                        let first = chunk * CHUNK_ROWS;
                        // Past a row that raises, nothing is kept.
                        if first > first_failure.load(Ordering::Relaxed) {
                            return None;
                        }
                        for (offset, out) in out.iter_mut().enumerate() {
                            let row = first + offset;
                            let value = match (probe(row), default) {
                                (Ok(wdl), _) => wdl,
                                (Err(RowError::Probe(error)), Some(default))
                                    if State::is_key_error(&error) =>
                                {
                                    default
                                }
                                (Err(error), _) => {
                                    first_failure.fetch_min(row, Ordering::Relaxed);
                                    return Some((row, error));
                                }
                            };
                            *out = value as u8;
                        }
                        None
                    })
                    .min_by_key(|(row, _)| *row)
            });
            failure.map(|(row, error)| match error {
                RowError::Invalid(message) => {
                    PyValueError::new_err(format!("row {row}: {message}"))
                }
                RowError::Probe(error) => state.error(error, Asked::Row(row)),
            })
        });
        if let Some(error) = failure {
            return Err(error);
        }
        Ok(PyByteArray::new(py, &out))
    }
}

pub fn register(py: Python<'_>, module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<SyzygyTablebase>()?;
    module.add("MissingTableError", py.get_type::<MissingTableError>())?;
    Ok(())
}
