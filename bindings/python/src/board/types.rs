//! `Move`, `Piece` and `Bitboard`: small immutable values with
//! python-chess's names (square numbers from 0 = a1, piece types from
//! 1 = pawn, colours as `True` = White).

use bitboards::{CastlingNotation, Color, MoveKind, PieceKind, Square};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::InvalidMoveError;

/// A square from python-chess's number (0 = a1 ... 63 = h8).
pub fn square(index: i64) -> PyResult<Square> {
    u8::try_from(index)
        .ok()
        .and_then(Square::new)
        .ok_or_else(|| PyIndexError::new_err(format!("{index} is not a square (0 to 63)")))
}

/// A piece kind from python-chess's piece type (1 = pawn ... 6 = king).
pub fn piece_kind(piece_type: i64) -> PyResult<PieceKind> {
    piece_type
        .checked_sub(1)
        .and_then(|index| u8::try_from(index).ok())
        .and_then(PieceKind::new)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{piece_type} is not a piece type (1 = pawn ... 6 = king)"
            ))
        })
}

pub fn piece_type(kind: PieceKind) -> u8 {
    kind.index() as u8 + 1
}

pub fn color(white: bool) -> Color {
    if white { Color::White } else { Color::Black }
}

pub fn is_white(color: Color) -> bool {
    color == Color::White
}

/// A move: from-square, to-square and the promotion's piece type.
///
/// Castling is the king's two-square move (`e1g1`) on a standard board and
/// the king taking its rook (`e1h1`) on a Chess960 board, as in
/// python-chess.
///
/// >>> import bitboards
/// >>> move = bitboards.Move.from_uci("e7e8q")
/// >>> move.from_square, move.to_square, move.promotion
/// (52, 60, 5)
#[pyclass(module = "bitboards", frozen, eq, hash, str, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    /// The promotion's piece type, 0 for none.
    pub promotion: u8,
    /// The dropped piece's type (crazyhouse's `P@e4`), 0 for none: read
    /// and written as python-chess does, never legal in standard chess.
    pub drop: u8,
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        let name = |index: u8| Square::new(index).map_or("??", Square::name);
        if let Some(kind) = PieceKind::new(self.drop.wrapping_sub(1)) {
            return write!(
                f,
                "{}@{}",
                kind.to_char().to_ascii_uppercase(),
                name(self.to)
            );
        }
        write!(f, "{}{}", name(self.from), name(self.to))?;
        if let Some(kind) = PieceKind::new(self.promotion.wrapping_sub(1)) {
            write!(f, "{}", kind.to_char())?;
        }
        Ok(())
    }
}

impl Move {
    /// A move read from UCI (`Move.from_uci`): `InvalidMoveError` when the
    /// text is not UCI.
    pub fn parse_uci(uci: &str) -> PyResult<Move> {
        if uci == "0000" {
            return Ok(Move::NULL);
        }
        let bytes = uci.as_bytes();
        // A drop, `P@e4`: parsed as python-chess parses it (and never
        // legal on a standard board).
        if bytes.len() == 4 && bytes[1] == b'@' {
            let kind = PieceKind::from_char((bytes[0] as char).to_ascii_lowercase());
            let to = uci.get(2..4).and_then(|name| name.parse::<Square>().ok());
            if let (Some(kind), Some(to)) = (kind, to) {
                let to = to.index() as u8;
                return Ok(Move {
                    from: to,
                    to,
                    promotion: 0,
                    drop: piece_type(kind),
                });
            }
        }
        let square_at = |at: usize| {
            uci.get(at..at + 2)
                .and_then(|name| name.parse::<Square>().ok())
        };
        let promotion = match bytes.len() {
            4 => Some(0),
            // A pawn as the promotion reads (python-chess reads `g7g8p`)
            // and is never legal.
            5 => PieceKind::from_char(bytes[4] as char).map(piece_type),
            _ => None,
        };
        match (square_at(0), square_at(2), promotion) {
            (Some(from), Some(to), Some(promotion)) if from != to => Ok(Move {
                from: from.index() as u8,
                to: to.index() as u8,
                promotion,
                drop: 0,
            }),
            _ => Err(InvalidMoveError::new_err(format!(
                "invalid uci: {uci:?} (expected two square names and an optional promotion: e2e4, e7e8q)"
            ))),
        }
    }

    pub const NULL: Move = Move {
        from: 0,
        to: 0,
        promotion: 0,
        drop: 0,
    };

    pub fn is_null(self) -> bool {
        self.from == 0 && self.to == 0 && self.promotion == 0 && self.drop == 0
    }

    /// `mv` as python-chess writes it for a board with this castling
    /// notation.
    pub fn from_move(mv: bitboards::Move, notation: CastlingNotation) -> Move {
        if mv.is_null() {
            return Move::NULL;
        }
        let to = match (mv.kind(), notation) {
            (MoveKind::Castling, CastlingNotation::KingToTarget) => mv.king_target(),
            _ => mv.to(),
        };
        Move {
            from: mv.from().index() as u8,
            to: to.index() as u8,
            promotion: mv.promotion().map_or(0, piece_type),
            drop: 0,
        }
    }
}

/// Every move value once, as a Python object: a move is immutable, so
/// `legal_moves` hands out shared objects instead of allocating one per
/// move (what random playouts spend most of their time on otherwise).
static MOVES: pyo3::sync::PyOnceLock<Vec<Py<Move>>> = pyo3::sync::PyOnceLock::new();

impl Move {
    /// The index of this move among [`MOVES`]: from, to, and the promotion
    /// (0 for none, else a piece type from 1 to 6). Every move has one:
    /// its squares are below 64 (the masks only keep the index in bounds)
    /// and its promotion a piece type.
    fn slot(self) -> usize {
        (usize::from(self.from & 63) * 64 + usize::from(self.to & 63)) * 7
            + usize::from(self.promotion % 7)
    }

    /// Every move value once, as a Python object ([`MOVES`]), by
    /// [`slot`](Self::slot).
    pub fn objects(py: Python<'_>) -> PyResult<&'static [Py<Move>]> {
        let table = MOVES.get_or_try_init(py, || -> PyResult<Vec<Py<Move>>> {
            (0..64 * 64 * 7)
                .map(|slot: usize| {
                    let mv = Move {
                        from: (slot / 7 / 64) as u8,
                        to: (slot / 7 % 64) as u8,
                        promotion: (slot % 7) as u8,
                        drop: 0,
                    };
                    Py::new(py, mv)
                })
                .collect()
        })?;
        Ok(table)
    }

    /// This move as a Python object shared with every other use of it: one
    /// of `objects` (from [`objects`](Self::objects)).
    pub fn shared<'py>(self, py: Python<'py>, objects: &[Py<Move>]) -> Bound<'py, Move> {
        objects[self.slot()].bind(py).clone()
    }
}

#[pymethods]
impl Move {
    #[new]
    #[pyo3(signature = (from_square, to_square, promotion = None, drop = None))]
    fn new(
        from_square: i64,
        to_square: i64,
        promotion: Option<i64>,
        drop: Option<i64>,
    ) -> PyResult<Move> {
        let from = square(from_square)?.index() as u8;
        let to = square(to_square)?.index() as u8;
        let promotion = match promotion {
            None => 0,
            Some(piece) => piece_type(piece_kind(piece)?),
        };
        let drop = match drop {
            None => 0,
            Some(piece) => piece_type(piece_kind(piece)?),
        };
        Ok(Move {
            from,
            to,
            promotion,
            drop,
        })
    }

    /// The move from UCI text (`e2e4`, `e7e8q`, `0000` for the null move).
    ///
    /// Raises `InvalidMoveError` when the text is not UCI.
    #[staticmethod]
    fn from_uci(uci: &str) -> PyResult<Move> {
        Move::parse_uci(uci)
    }

    /// The null move, `0000` (`bool(Move.null())` is False).
    #[staticmethod]
    fn null() -> Move {
        Move::NULL
    }

    #[getter]
    #[allow(clippy::wrong_self_convention)]
    fn from_square(&self) -> u8 {
        self.from
    }

    #[getter]
    #[allow(clippy::wrong_self_convention)]
    fn to_square(&self) -> u8 {
        self.to
    }

    #[getter]
    fn promotion(&self) -> Option<u8> {
        (self.promotion != 0).then_some(self.promotion)
    }

    /// The dropped piece's type (`P@e4`), or None.
    #[getter]
    fn drop(&self) -> Option<u8> {
        (self.drop != 0).then_some(self.drop)
    }

    /// The move's UCI text.
    fn uci(&self) -> String {
        self.to_string()
    }

    /// The move as XBoard writes it: its UCI text, `@@@@` for the null
    /// move.
    fn xboard(&self) -> String {
        if self.is_null() {
            "@@@@".to_owned()
        } else {
            self.to_string()
        }
    }

    fn __bool__(&self) -> bool {
        !self.is_null()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{self}')")
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let me = slf.get();
        let args = (me.from, me.to, me.promotion(), me.drop()).into_pyobject(slf.py())?;
        (slf.get_type(), args).into_pyobject(slf.py())
    }
}

/// A piece: its type (1 = pawn ... 6 = king) and colour (True = White).
///
/// >>> import bitboards
/// >>> bitboards.Piece.from_symbol("n").symbol()
/// 'n'
#[pyclass(module = "bitboards", frozen, eq, str, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(pub bitboards::Piece);

impl std::fmt::Display for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.to_char())
    }
}

#[pymethods]
impl Piece {
    #[new]
    fn new(piece_type: i64, color: bool) -> PyResult<Piece> {
        Ok(Piece(bitboards::Piece::new(
            self::color(color),
            piece_kind(piece_type)?,
        )))
    }

    /// The piece of a FEN letter: `P` a white pawn, `n` a black knight.
    #[staticmethod]
    fn from_symbol(symbol: &str) -> PyResult<Piece> {
        let mut chars = symbol.chars();
        match (
            chars.next().and_then(bitboards::Piece::from_char),
            chars.next(),
        ) {
            (Some(piece), None) => Ok(Piece(piece)),
            _ => Err(PyValueError::new_err(format!(
                "invalid piece symbol: {symbol:?} (one of PNBRQK for White, pnbrqk for Black)"
            ))),
        }
    }

    #[getter]
    fn piece_type(&self) -> u8 {
        piece_type(self.0.kind())
    }

    #[getter]
    fn color(&self) -> bool {
        is_white(self.0.color())
    }

    /// The FEN letter: upper case for White.
    /// python-chess's hash: 0 to 5 for White's pawn to king, 6 to 11
    /// for Black's.
    fn __hash__(&self) -> u64 {
        let kind = u64::from(piece_type(self.0.kind())) - 1;
        if self.0.color() == Color::White {
            kind
        } else {
            kind + 6
        }
    }

    fn symbol(&self) -> String {
        self.0.to_char().to_string()
    }

    /// The chess figurine (♔ for a white king).
    fn unicode_symbol(&self) -> &'static str {
        crate::svg::figurine(self.0)
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.0.to_char())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let piece = slf.get().0;
        let args = (piece_type(piece.kind()), is_white(piece.color())).into_pyobject(slf.py())?;
        (slf.get_type(), args).into_pyobject(slf.py())
    }
}

/// A set of squares as a 64-bit mask (a1 = bit 0): python-chess's
/// `SquareSet`, whose `repr` is the 8x8 diagram.
///
/// >>> import bitboards
/// >>> board = bitboards.Bitboard([bitboards.E4, bitboards.D5])
/// >>> len(board), int(board)
/// (2, 34628173824)
#[pyclass(module = "bitboards", frozen, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

/// A mask from a Bitboard, an int or an iterable of squares.
fn mask_of(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(board) = value.cast::<Bitboard>() {
        return Ok(board.get().0);
    }
    if let Ok(mask) = value.extract::<u64>() {
        return Ok(mask);
    }
    if let Ok(mask) = value.extract::<i64>() {
        // A negative int: its two's complement, as `~` gives in Python.
        return Ok(mask as u64);
    }
    let mut mask = 0u64;
    for item in value.try_iter()? {
        mask |= square(item?.extract()?)?.bitboard().0;
    }
    Ok(mask)
}

#[pymethods]
impl Bitboard {
    #[new]
    #[pyo3(signature = (squares = None))]
    fn new(squares: Option<&Bound<'_, PyAny>>) -> PyResult<Bitboard> {
        squares.map_or(Ok(0), mask_of).map(Bitboard)
    }

    /// The mask, a1 = bit 0.
    #[getter]
    fn mask(&self) -> u64 {
        self.0
    }

    fn __int__(&self) -> u64 {
        self.0
    }

    fn __index__(&self) -> u64 {
        self.0
    }

    fn __len__(&self) -> usize {
        self.0.count_ones() as usize
    }

    fn __bool__(&self) -> bool {
        self.0 != 0
    }

    fn __contains__(&self, square: i64) -> bool {
        (0..64).contains(&square) && self.0 >> square & 1 == 1
    }

    fn __iter__(&self) -> BitboardIter {
        BitboardIter(self.0)
    }

    /// The squares, ascending, as a list.
    fn tolist(&self) -> Vec<u32> {
        BitboardIter(self.0).map(u32::from).collect()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        mask_of(other).is_ok_and(|mask| mask == self.0)
    }

    fn __hash__(&self) -> u64 {
        // As the int's hash would be for masks below 2**61 - 1.
        self.0 % ((1 << 61) - 1)
    }

    fn __and__(&self, other: &Bound<'_, PyAny>) -> PyResult<Bitboard> {
        Ok(Bitboard(self.0 & mask_of(other)?))
    }

    fn __rand__(&self, other: &Bound<'_, PyAny>) -> PyResult<Bitboard> {
        self.__and__(other)
    }

    fn __or__(&self, other: &Bound<'_, PyAny>) -> PyResult<Bitboard> {
        Ok(Bitboard(self.0 | mask_of(other)?))
    }

    fn __ror__(&self, other: &Bound<'_, PyAny>) -> PyResult<Bitboard> {
        self.__or__(other)
    }

    fn __xor__(&self, other: &Bound<'_, PyAny>) -> PyResult<Bitboard> {
        Ok(Bitboard(self.0 ^ mask_of(other)?))
    }

    fn __rxor__(&self, other: &Bound<'_, PyAny>) -> PyResult<Bitboard> {
        self.__xor__(other)
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Bitboard> {
        Ok(Bitboard(self.0 & !mask_of(other)?))
    }

    fn __invert__(&self) -> Bitboard {
        Bitboard(!self.0)
    }

    /// The 8x8 diagram, rank 8 on top and file a on the left: `X` a
    /// square in the set, `.` not.
    fn __repr__(&self) -> String {
        let mut text = String::with_capacity(128);
        for rank in (0..8).rev() {
            for file in 0..8 {
                text.push(if self.0 >> (8 * rank + file) & 1 == 1 {
                    'X'
                } else {
                    '.'
                });
                text.push(if file == 7 { '\n' } else { ' ' });
            }
        }
        text.pop();
        text
    }

    fn __str__(&self) -> String {
        self.__repr__()
    }

    /// The diagram for Jupyter.
    fn _repr_html_(&self) -> String {
        format!("<pre style=\"line-height: 1.15\">{}</pre>", self.__repr__())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let args = (slf.get().0,).into_pyobject(slf.py())?;
        (slf.get_type(), args).into_pyobject(slf.py())
    }
}

/// The squares of a set, ascending.
#[pyclass(module = "bitboards")]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let square = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(square)
    }
}

#[pymethods]
impl BitboardIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<u8> {
        self.next()
    }
}
