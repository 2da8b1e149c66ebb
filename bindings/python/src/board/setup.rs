//! `Board`'s setup: made, reset, read from and written to FEN and EPD,
//! its fields and pieces set one by one, copied, mirrored, pickled.

use bitboards::any_setup::{self, AnySetup};
use bitboards::{Color, Position, Square};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::state::{Board, STARTING_FEN, check_en_passant, python_part};
use super::types::{Piece, color, is_white, square};

#[pymethods]
impl Board {
    /// A board at `fen` (the start position by default; None: no pieces),
    /// held whatever rules it breaks (`status()` says which).
    #[new]
    #[pyo3(signature = (fen = Some(STARTING_FEN), *, chess960 = false))]
    fn new(fen: Option<&str>, chess960: bool) -> PyResult<Board> {
        match fen {
            Some(fen) => Board::read_fen(fen, chess960),
            None => Ok(Board::from_raw(&AnySetup::EMPTY, chess960)),
        }
    }

    /// A board without pieces, White to move.
    #[staticmethod]
    #[pyo3(signature = (*, chess960 = false))]
    fn empty(chess960: bool) -> Board {
        Board::from_raw(&AnySetup::EMPTY, chess960)
    }

    /// Removes every piece, the rights and the en passant square; White to
    /// move, the clocks at their start, the move stack cleared.
    fn clear(&mut self) {
        self.reset_to(&AnySetup::EMPTY);
    }

    /// Removes every piece (the side to move, rights and clocks kept as
    /// python-chess keeps them), the move stack cleared.
    fn clear_board(&mut self) {
        let mut raw = self.raw();
        raw.board = [None; 64];
        raw.promoted = bitboards::Bitboard::EMPTY;
        self.reset_to(&raw);
    }

    /// Back to the standard start position, the move stack cleared.
    fn reset(&mut self) {
        *self = Board::new_at(Position::START, self.chess960);
    }

    /// The start position's pieces, the rest kept (the move stack
    /// cleared).
    fn reset_board(&mut self) {
        let mut raw = self.raw();
        raw.board = Position::START.setup().board;
        raw.promoted = bitboards::Bitboard::EMPTY;
        self.reset_to(&raw);
    }

    /// The Chess960 start position numbered `number` (0 to 959; 518 is
    /// standard chess), on a Chess960 board.
    #[staticmethod]
    fn from_chess960_pos(number: u16) -> PyResult<Board> {
        let position =
            Position::chess960(number).map_err(|error| PyValueError::new_err(error.to_string()))?;
        Ok(Board::new_at(position, true))
    }

    /// Whether castling is written king-takes-rook (`e1h1`), as Chess960
    /// needs.
    #[getter]
    fn chess960(&self) -> bool {
        self.chess960
    }

    /// Which castling rights are clean depends on it: the position is
    /// rebuilt from the rights as set.
    #[setter]
    fn set_chess960(&mut self, chess960: bool) {
        if chess960 != self.chess960 {
            let raw = self.raw();
            self.chess960 = chess960;
            self.rebuild(&raw);
        }
    }

    /// The position's FEN (`shredder=True`: castling by rook files;
    /// `en_passant`: `"legal"`, the square only where the capture is
    /// legal, `"xfen"` where a pawn can capture by how pawns move, `"fen"`
    /// always).
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None))]
    fn fen(&self, shredder: bool, en_passant: &str, promoted: Option<bool>) -> PyResult<String> {
        let _ = promoted;
        check_en_passant(en_passant)?;
        Ok(self.fen_as(shredder, en_passant))
    }

    /// The EPD: the FEN's first four fields, then `operations` as
    /// `opcode operand;` (python-chess's operands: None, strings, numbers,
    /// moves, and lists of moves for `pv`, `am` and `bm`).
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None, **operations))]
    fn epd<'py>(
        slf: &Bound<'py, Self>,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
        operations: Option<&Bound<'py, pyo3::types::PyDict>>,
    ) -> PyResult<String> {
        let _ = promoted;
        check_en_passant(en_passant)?;
        let fen = slf.borrow().fen_as(shredder, en_passant);
        let head = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        let Some(operations) = operations.filter(|operations| !operations.is_empty()) else {
            return Ok(head);
        };
        let tail: String = python_part(slf.py(), "epd_operations")?
            .call1((slf, operations))?
            .extract()?;
        Ok(format!("{head} {tail}"))
    }

    /// The FEN's first field: where the pieces stand.
    fn board_fen(&self) -> String {
        let fen = self.fen_as(false, "legal");
        fen.split(' ').next().unwrap_or_default().to_owned()
    }

    /// Sets the position from a FEN and clears the move stack.
    fn set_fen(&mut self, fen: &str) -> PyResult<()> {
        *self = Board::read_fen(fen, self.chess960)?;
        Ok(())
    }

    /// The side to move: True for White.
    #[getter]
    pub(crate) fn turn(&self) -> bool {
        is_white(self.position.side_to_move())
    }

    /// The castling rights as python-chess holds them: the castling rooks'
    /// squares as set (`clean_castling_rights()` drops those without their
    /// king or rook).
    #[getter]
    fn castling_rights(&self) -> u64 {
        self.raw_castling()
    }

    /// The en passant square as python-chess holds it: the square a double
    /// push skipped, whether or not a pawn can take there.
    #[getter]
    fn ep_square(&self) -> Option<u8> {
        self.raw_en_passant().map(|square| square.index() as u8)
    }

    #[getter]
    fn halfmove_clock(&self) -> u16 {
        self.position.halfmove_clock()
    }

    #[getter]
    fn fullmove_number(&self) -> u16 {
        self.position.fullmove_number()
    }

    // python-chess's fields are writable; the move stack stays.
    #[setter(turn)]
    fn set_turn(&mut self, turn: bool) {
        let mut raw = self.raw();
        raw.side_to_move = self::color(turn);
        self.rebuild(&raw);
    }

    #[setter(ep_square)]
    fn set_ep_square(&mut self, square: Option<i64>) -> PyResult<()> {
        let mut raw = self.raw();
        raw.en_passant = square.map(self::square).transpose()?;
        self.rebuild(&raw);
        Ok(())
    }

    #[setter(halfmove_clock)]
    fn set_halfmove_clock(&mut self, clock: u16) {
        let mut raw = self.raw();
        raw.halfmove_clock = clock;
        self.rebuild(&raw);
    }

    #[setter(fullmove_number)]
    fn set_fullmove_number(&mut self, number: u16) {
        let mut raw = self.raw();
        raw.fullmove_number = number;
        self.rebuild(&raw);
    }

    /// Forgets the moves played (the position stays).
    fn clear_stack(&mut self) {
        *self = self.detached();
    }

    /// Mirrors the position in place (colours swapped, board flipped; the
    /// move stack cleared).
    fn apply_mirror(&mut self) {
        *self = self.mirror();
    }

    /// The FEN's castling field in Shredder's letters (rook files).
    fn castling_shredder_fen(&self) -> String {
        self.fen_as(true, "legal")
            .split(' ')
            .nth(2)
            .unwrap_or("-")
            .to_owned()
    }

    /// The FEN's castling field (`KQkq`, file letters where those would
    /// not say which rook).
    fn castling_xfen(&self) -> String {
        self.fen_as(false, "legal")
            .split(' ')
            .nth(2)
            .unwrap_or("-")
            .to_owned()
    }

    /// A copy with `f` applied to every bitboard (the pieces, the castling
    /// rights, the en passant square): `f` maps squares to squares, as
    /// `bitboards.flip_vertical` does.
    fn transform<'py>(
        slf: &Bound<'py, Self>,
        f: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        python_part(slf.py(), "transform")?.call1((slf, f))
    }

    /// `transform` in place (the move stack cleared).
    fn apply_transform<'py>(
        slf: &Bound<'py, Self>,
        f: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        python_part(slf.py(), "apply_transform")?.call1((slf, f))
    }

    /// The FEN with castling written by rook files (Shredder-FEN).
    fn shredder_fen(&self) -> String {
        self.fen_as(true, "legal")
    }

    /// Sets the position from an EPD line and returns its operations
    /// (`hmvc` and `fmvn` set the clocks).
    fn set_epd<'py>(slf: &Bound<'py, Self>, epd: &str) -> PyResult<Bound<'py, PyAny>> {
        python_part(slf.py(), "set_epd")?.call1((slf, epd))
    }

    /// A board from an EPD line, and its operations.
    #[classmethod]
    #[pyo3(signature = (epd, *, chess960 = false))]
    fn from_epd<'py>(
        cls: &Bound<'py, pyo3::types::PyType>,
        epd: &str,
        chess960: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        python_part(cls.py(), "from_epd")?.call1((cls, epd, chess960))
    }

    /// Sets the castling rights as python-chess holds them: rook squares,
    /// as set (`clean_castling_rights()` and the FEN keep those that are
    /// rights at all; `status()` flags the others).
    #[setter(castling_rights)]
    fn set_castling_rights_mask(&mut self, mask: u64) {
        let mut raw = self.raw();
        raw.castling = bitboards::Bitboard(mask);
        self.rebuild(&raw);
    }

    /// Sets the castling rights from a FEN's castling field (`KQkq`,
    /// Shredder's `HAha`, or `-`), read as python-chess reads it, and
    /// clears the move stack.
    fn set_castling_fen(&mut self, castling_fen: &str) -> PyResult<()> {
        let field = castling_fen.trim();
        let mut raw = self.raw();
        raw.castling = (!field.is_empty() && !field.contains(char::is_whitespace))
            .then(|| any_setup::castling_field(&raw.board, raw.promoted, field))
            .flatten()
            .ok_or_else(|| {
                PyValueError::new_err(format!("invalid castling fen: {castling_fen:?}"))
            })?;
        self.reset_to(&raw);
        Ok(())
    }

    /// Sets up the Chess960 start position numbered `number` (0 to 959;
    /// 518 is standard chess) and clears the move stack.
    fn set_chess960_pos(&mut self, number: u16) -> PyResult<()> {
        let position =
            Position::chess960(number).map_err(|error| PyValueError::new_err(error.to_string()))?;
        *self = Board::new_at(position, self.chess960);
        Ok(())
    }

    /// The number (0 to 959) of the Chess960 start position on the board,
    /// or None when it is not one (pieces, castling rights, side to move
    /// and counters as a game starts, unless told to ignore them).
    #[pyo3(signature = (*, ignore_turn = false, ignore_castling = false, ignore_counters = true))]
    fn chess960_pos(
        &self,
        ignore_turn: bool,
        ignore_castling: bool,
        ignore_counters: bool,
    ) -> Option<u16> {
        let position = &self.position;
        if !ignore_turn && position.side_to_move() != Color::White {
            return None;
        }
        if !ignore_counters && (position.halfmove_clock() != 0 || position.fullmove_number() != 1) {
            return None;
        }
        (0..960u16).find(|&number| {
            Position::chess960(number).is_ok_and(|start| {
                start.piece_boards() == position.piece_boards()
                    && (ignore_castling || start.castling() == position.castling())
            })
        })
    }

    /// The pieces on the squares of `mask`: a dict from square to `Piece`.
    #[pyo3(signature = (*, mask = u64::MAX))]
    fn piece_map<'py>(&self, py: Python<'py>, mask: u64) -> PyResult<Bound<'py, PyDict>> {
        let map = PyDict::new(py);
        for square in self.position.occupied() & bitboards::Bitboard(mask) {
            if let Some(piece) = self.position.piece_on(square) {
                map.set_item(square.index(), Piece(piece))?;
            }
        }
        Ok(map)
    }

    /// Puts `piece` on `square` (None empties it; `promoted` marks it
    /// promoted) and clears the move stack. Any setup is held:
    /// `status()` says what it breaks.
    #[pyo3(signature = (square, piece, promoted = false))]
    fn set_piece_at(&mut self, square: i64, piece: Option<Piece>, promoted: bool) -> PyResult<()> {
        let square = self::square(square)?;
        let mut raw = self.raw();
        raw.board[square.index()] = piece.map(|piece| piece.0);
        raw.promoted &= !square.bitboard();
        if promoted && piece.is_some() {
            raw.promoted |= square.bitboard();
        }
        self.reset_to(&raw);
        Ok(())
    }

    /// Empties `square` and returns the piece that stood there (the move
    /// stack cleared).
    fn remove_piece_at(&mut self, square: i64) -> PyResult<Option<Piece>> {
        let square = self::square(square)?;
        let removed = self.position.piece_on(square).map(Piece);
        self.set_piece_at(square.index() as i64, None, false)?;
        Ok(removed)
    }

    /// Replaces every piece with those of `pieces` (a dict from square to
    /// `Piece`), the move stack cleared.
    fn set_piece_map(&mut self, pieces: &Bound<'_, PyDict>) -> PyResult<()> {
        let mut raw = self.raw();
        raw.board = [None; 64];
        raw.promoted = bitboards::Bitboard::EMPTY;
        for (square, piece) in pieces.iter() {
            let square = self::square(square.extract()?)?;
            raw.board[square.index()] = Some(piece.extract::<Piece>()?.0);
        }
        self.reset_to(&raw);
        Ok(())
    }

    /// Replaces the pieces with those of a FEN's first field (`~` marks a
    /// promoted piece), the rest kept; the move stack cleared.
    fn set_board_fen(&mut self, fen: &str) -> PyResult<()> {
        let placement = fen.trim();
        let (board, promoted) = (!placement.contains(char::is_whitespace))
            .then(|| any_setup::parse_placement(placement))
            .flatten()
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "expected a board FEN (eight ranks of pieces and digits), got {fen:?}"
                ))
            })?;
        let mut raw = self.raw();
        raw.board = board;
        raw.promoted = promoted;
        self.reset_to(&raw);
        Ok(())
    }

    /// The Polyglot key (`chess.polyglot.zobrist_hash`).
    fn zobrist_hash(&self) -> u64 {
        self.position.polyglot_key()
    }

    /// The position with colours swapped and the board flipped (no moves).
    fn mirror(&self) -> Board {
        let raw = self.raw();
        let flip = |mask: bitboards::Bitboard| bitboards::Bitboard(mask.0.swap_bytes());
        let mut board = [None; 64];
        for (index, piece) in raw.board.iter().enumerate() {
            board[index ^ 56] =
                piece.map(|piece| bitboards::Piece::new(piece.color().opponent(), piece.kind()));
        }
        let mirrored = AnySetup {
            board,
            side_to_move: raw.side_to_move.opponent(),
            castling: flip(raw.castling),
            en_passant: raw
                .en_passant
                .and_then(|square| Square::new(square.index() as u8 ^ 56)),
            promoted: flip(raw.promoted),
            ..raw
        };
        Board::from_raw(&mirrored, self.chess960)
    }

    /// A copy (with the move stack unless `stack=False`).
    #[pyo3(signature = (*, stack = true))]
    fn copy(&self, stack: bool) -> Board {
        if stack { self.clone() } else { self.detached() }
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// The position before the first move of the stack.
    fn root(&self) -> Board {
        let start = self
            .stack
            .first()
            .map_or(self.position, |(start, _)| *start);
        let mut root = Board::new_at(start, self.chess960);
        root.root = self.root;
        root.loose = self.loose;
        root
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let start = self
            .stack
            .first()
            .map_or(self.position, |(start, _)| *start);
        let notation = self.notation();
        let moves: Vec<String> = self
            .stack
            .iter()
            .map(|(_, mv)| mv.uci(notation).to_string())
            .collect();
        let constructor = py
            .import("bitboards._bitboards")?
            .getattr("board_from_state")?;
        let root = self.root;
        let en_passant = root.en_passant.map(|square| square.index() as u8);
        let args = (
            start.fen().to_string(),
            self.chess960,
            moves,
            root.castling,
            en_passant,
            root.promoted,
        )
            .into_pyobject(py)?;
        (constructor, args).into_pyobject(py)
    }
}
