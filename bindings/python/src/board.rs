//! `Board`: a position and the moves that led to it, with python-chess's
//! names.

use bitboards::{
    CastlingNotation, CastlingSide, Color, MoveKind, MoveList, PieceKind, Position, Square,
};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::errors::{IllegalMoveError, fen_error, san_error, uci_error};
use crate::pseudo;
use crate::types::{Bitboard, Move, Piece, color, is_white, piece_kind, square};

/// python-chess's starting FEN.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A chess position and the moves that led to it: python-chess's `Board`.
///
/// Unlike python-chess, `push` checks that the move is legal (raising
/// `IllegalMoveError`): the position can never become one the rules do not
/// allow.
///
/// >>> import bitboards
/// >>> board = bitboards.Board()
/// >>> board.push_san("e4")
/// Move.from_uci('e2e4')
/// >>> board.fen()
/// 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
/// >>> len(board.legal_moves)
/// 20
#[pyclass(module = "bitboards", eq)]
#[derive(Clone)]
pub struct Board {
    position: Position,
    chess960: bool,
    /// Each move played and the position before it.
    stack: Vec<(Position, bitboards::Move)>,
    /// The legal moves of `position`, once asked for.
    legal: Option<MoveList>,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.position == other.position
    }
}

impl Board {
    pub fn new_at(position: Position, chess960: bool) -> Board {
        Board {
            position,
            chess960,
            stack: Vec::new(),
            legal: None,
        }
    }

    /// A board at `start` with `moves` played (all legal).
    pub fn replay(start: Position, moves: &[bitboards::Move], chess960: bool) -> Board {
        let mut board = Board::new_at(start, chess960);
        for &mv in moves {
            board.play(mv);
        }
        board
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// How this board writes castling (the king's two steps, or onto its
    /// rook on a Chess960 board).
    pub fn castling_notation(&self) -> CastlingNotation {
        self.notation()
    }

    fn notation(&self) -> CastlingNotation {
        if self.chess960 {
            CastlingNotation::KingTakesRook
        } else {
            self.position.castling_notation()
        }
    }

    fn legal(&mut self) -> &MoveList {
        let position = &self.position;
        self.legal.get_or_insert_with(|| position.legal_moves())
    }

    /// The legal move `mv` stands for, or `IllegalMoveError`.
    fn resolve(&mut self, mv: &Move) -> PyResult<bitboards::Move> {
        if mv.is_null() {
            return Err(IllegalMoveError::new_err(
                "the null move is not a legal move",
            ));
        }
        let notation = self.notation();
        find_legal(self.legal(), notation, *mv).ok_or_else(|| {
            IllegalMoveError::new_err(format!("illegal move: {mv} in {}", self.position.fen()))
        })
    }

    fn play(&mut self, mv: bitboards::Move) {
        let before = self.position;
        self.position.play_unchecked_in_place(mv);
        self.stack.push((before, mv));
        self.legal = None;
    }

    /// The positions that count for repetition are equal: pieces, side to
    /// move, castling rights and a legal en passant square.
    fn same_position(a: &Position, b: &Position) -> bool {
        a.occupied() == b.occupied()
            && a.side_to_move() == b.side_to_move()
            && a.castling() == b.castling()
            && Color::ALL
                .into_iter()
                .all(|color| a.by_color(color) == b.by_color(color))
            && PieceKind::ALL
                .into_iter()
                .all(|kind| a.by_kind(kind) == b.by_kind(kind))
            && a.legal_en_passant() == b.legal_en_passant()
    }

    fn repetitions(&self, count: usize) -> bool {
        let mut seen = 1;
        if seen >= count {
            return true;
        }
        // Back to the last capture or pawn move (the halfmove clock's
        // reset), the same side to move every other ply.
        let reversible = usize::from(self.position.halfmove_clock()).min(self.stack.len());
        for (before, _) in self.stack.iter().rev().take(reversible).skip(1).step_by(2) {
            if Board::same_position(before, &self.position) {
                seen += 1;
                if seen >= count {
                    return true;
                }
            }
        }
        false
    }

    fn has_legal_moves(&mut self) -> bool {
        !self.legal().is_empty()
    }

    /// python-chess's order: checkmate, insufficient material, stalemate,
    /// the 75-move rule, fivefold repetition; with `claim_draw` the 50-move
    /// rule and threefold repetition.
    fn outcome_of(&mut self, claim_draw: bool) -> Option<Termination> {
        let moves = self.has_legal_moves();
        let check = self.position.is_check();
        if !moves && check {
            return Some(Termination::CHECKMATE);
        }
        if self.position.is_insufficient_material() {
            return Some(Termination::INSUFFICIENT_MATERIAL);
        }
        if !moves {
            return Some(Termination::STALEMATE);
        }
        if self.position.halfmove_clock() >= 150 {
            return Some(Termination::SEVENTYFIVE_MOVES);
        }
        if self.repetitions(5) {
            return Some(Termination::FIVEFOLD_REPETITION);
        }
        if claim_draw {
            if self.can_claim_fifty_moves() {
                return Some(Termination::FIFTY_MOVES);
            }
            if self.can_claim_threefold_repetition() {
                return Some(Termination::THREEFOLD_REPETITION);
            }
        }
        None
    }

    /// As python-chess: 50 moves without a capture or pawn move, or a legal
    /// move that makes them 50.
    fn can_claim_fifty_moves(&mut self) -> bool {
        let clock = self.position.halfmove_clock();
        if clock >= 100 {
            return self.has_legal_moves();
        }
        let position = self.position;
        clock == 99
            && self
                .legal()
                .iter()
                .any(|&mv| position.play_unchecked(mv).halfmove_clock() >= 100)
    }

    /// As python-chess: the position stands for the third time, or a legal
    /// move leads to one that has stood twice since the last capture or
    /// pawn move.
    fn can_claim_threefold_repetition(&mut self) -> bool {
        if self.repetitions(3) {
            return true;
        }
        let reversible = usize::from(self.position.halfmove_clock()).min(self.stack.len());
        let history: Vec<Position> = self
            .stack
            .iter()
            .rev()
            .take(reversible)
            .map(|(before, _)| *before)
            .chain([self.position])
            .collect();
        let position = self.position;
        self.legal().iter().any(|&mv| {
            let after = position.play_unchecked(mv);
            history
                .iter()
                .filter(|seen| Board::same_position(seen, &after))
                .count()
                >= 2
        })
    }

    fn new_board(&self, position: Position) -> Board {
        Board::new_at(position, self.chess960)
    }
}

/// How a game ended by the rules (python-chess's `Termination`).
#[pyclass(module = "bitboards", eq, eq_int, hash, frozen, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub enum Termination {
    CHECKMATE = 1,
    STALEMATE = 2,
    INSUFFICIENT_MATERIAL = 3,
    SEVENTYFIVE_MOVES = 4,
    FIVEFOLD_REPETITION = 5,
    FIFTY_MOVES = 6,
    THREEFOLD_REPETITION = 7,
}

#[pymethods]
impl Termination {
    /// The member's name, as in python-chess (`"CHECKMATE"`).
    #[getter]
    fn name(&self) -> String {
        format!("{self:?}")
    }

    /// The member's number, as in python-chess (`CHECKMATE` is 1).
    #[getter]
    fn value(&self) -> u8 {
        *self as u8
    }
}

impl Termination {
    pub fn of(outcome: bitboards::Outcome) -> Termination {
        match outcome {
            bitboards::Outcome::Checkmate { .. } => Termination::CHECKMATE,
            bitboards::Outcome::Stalemate => Termination::STALEMATE,
            bitboards::Outcome::InsufficientMaterial => Termination::INSUFFICIENT_MATERIAL,
            bitboards::Outcome::SeventyFiveMoves => Termination::SEVENTYFIVE_MOVES,
            bitboards::Outcome::FivefoldRepetition => Termination::FIVEFOLD_REPETITION,
            bitboards::Outcome::FiftyMoves => Termination::FIFTY_MOVES,
            bitboards::Outcome::ThreefoldRepetition => Termination::THREEFOLD_REPETITION,
        }
    }
}

/// The end of a game: `termination`, `winner` (True for White, False for
/// Black, None for a draw) and `result()`.
#[pyclass(module = "bitboards", frozen, eq)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    #[pyo3(get)]
    pub termination: Termination,
    #[pyo3(get)]
    pub winner: Option<bool>,
}

#[pymethods]
impl Outcome {
    #[new]
    #[pyo3(signature = (termination, winner = None))]
    fn new(termination: Termination, winner: Option<bool>) -> Outcome {
        Outcome {
            termination,
            winner,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    fn result(&self) -> &'static str {
        match self.winner {
            Some(true) => "1-0",
            Some(false) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __repr__(&self) -> String {
        let winner = match self.winner {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        format!(
            "Outcome(termination=Termination.{:?}, winner={winner})",
            self.termination
        )
    }
}

impl Outcome {
    pub fn new_from(outcome: bitboards::Outcome) -> Outcome {
        Outcome {
            termination: Termination::of(outcome),
            winner: outcome.winner().map(is_white),
        }
    }
}

/// The move among `legal` that `mv` stands for on a board that writes
/// castling in `notation`. On a standard board castling may also be written
/// king-takes-rook (python-chess accepts both there); on a Chess960 board
/// only so.
fn find_legal(legal: &MoveList, notation: CastlingNotation, mv: Move) -> Option<bitboards::Move> {
    find_in(legal.as_slice(), notation, mv)
}

/// A generator of moves as python-chess has them on a board
/// (`board.legal_moves`, `board.pseudo_legal_moves`): iterate, `len()`,
/// `in`, and a repr in SAN.
macro_rules! move_generator {
    ($name:ident, $doc:literal) => {
        #[doc = $doc]
        #[pyclass(module = "bitboards", frozen)]
        pub struct $name {
            moves: Vec<bitboards::Move>,
            /// How the board writes castling. On a standard board `in`
            /// also finds castling written king-takes-rook; iteration does
            /// not give it.
            notation: CastlingNotation,
            /// The board's position, for the repr's SAN.
            position: Position,
        }

        impl $name {
            /// The moves as python-chess writes them on the board.
            fn written(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
                self.moves
                    .iter()
                    .map(|&mv| Move::from_move(mv, self.notation))
            }
        }

        #[pymethods]
        impl $name {
            fn __len__(&self) -> usize {
                self.moves.len()
            }

            fn count(&self) -> usize {
                self.moves.len()
            }

            fn __bool__(&self) -> bool {
                !self.moves.is_empty()
            }

            fn __contains__(&self, mv: &Bound<'_, PyAny>) -> bool {
                let Ok(mv) = mv.cast::<Move>() else {
                    return false;
                };
                find_in(&self.moves, self.notation, *mv.get()).is_some()
            }

            fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                let objects = Move::objects(py)?;
                PyList::new(py, self.written().map(|mv| mv.shared(py, objects)))?
                    .as_any()
                    .try_iter()
                    .map(Bound::into_any)
            }

            /// python-chess's repr: the moves in SAN (UCI for one that is
            /// not legal).
            fn __repr__(&self) -> String {
                let legal = self.position.legal_moves();
                let moves: Vec<String> = self
                    .moves
                    .iter()
                    .map(|&mv| {
                        if legal.contains(&mv) {
                            self.position.san(mv).to_string()
                        } else {
                            mv.uci(self.notation).to_string()
                        }
                    })
                    .collect();
                format!("<{} ({})>", stringify!($name), moves.join(", "))
            }
        }
    };
}

move_generator!(
    LegalMoveGenerator,
    "The legal moves of a board (`board.legal_moves`)."
);
move_generator!(
    PseudoLegalMoveGenerator,
    "The pseudo-legal moves of a board (`board.pseudo_legal_moves`): by how the pieces move, the king perhaps left in check."
);

/// The move among `moves` that `mv` stands for (castling written either
/// way on a standard board, as `find_legal`).
fn find_in(
    moves: &[bitboards::Move],
    notation: CastlingNotation,
    mv: Move,
) -> Option<bitboards::Move> {
    let written = |candidate: bitboards::Move, notation| Move::from_move(candidate, notation) == mv;
    moves
        .iter()
        .copied()
        .find(|&candidate| written(candidate, notation))
        .or_else(|| {
            (notation == CastlingNotation::KingToTarget)
                .then(|| {
                    moves
                        .iter()
                        .copied()
                        .find(|&candidate| written(candidate, CastlingNotation::KingTakesRook))
                })
                .flatten()
        })
}

/// A list of moves as python-chess's generators give them: an iterator.
fn move_iter<'py>(
    py: Python<'py>,
    moves: impl ExactSizeIterator<Item = Move>,
) -> PyResult<Bound<'py, PyAny>> {
    let objects = Move::objects(py)?;
    PyList::new(py, moves.map(|mv| mv.shared(py, objects)))?
        .as_any()
        .try_iter()
        .map(Bound::into_any)
}

/// A function of the pure-Python part of `Board` (`bitboards._board`).
fn python_part<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("bitboards._board")?.getattr(name)
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (fen = STARTING_FEN, *, chess960 = false))]
    fn new(fen: &str, chess960: bool) -> PyResult<Board> {
        let position = Position::from_fen(fen).map_err(|error| fen_error(fen, &error))?;
        Ok(Board::new_at(position, chess960))
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

    #[setter]
    fn set_chess960(&mut self, chess960: bool) {
        self.chess960 = chess960;
    }

    /// The legal moves.
    #[getter]
    fn legal_moves(&mut self) -> LegalMoveGenerator {
        let notation = self.notation();
        LegalMoveGenerator {
            moves: self.legal().as_slice().to_vec(),
            notation,
            position: self.position,
        }
    }

    /// Plays `move` (a legal `Move`, or the null move when not in check;
    /// `IllegalMoveError` otherwise).
    fn push(&mut self, r#move: Move) -> PyResult<()> {
        if r#move.is_null() {
            return self.play_null();
        }
        let mv = self.resolve(&r#move)?;
        self.play(mv);
        Ok(())
    }

    /// Plays the move written in SAN (`Nf3`, `O-O`, `exd8=Q+`) and returns it.
    fn push_san(&mut self, san: &str) -> PyResult<Move> {
        if is_null_san(san) {
            self.play_null()?;
            return Ok(Move::NULL);
        }
        let mv = self
            .position
            .parse_san(san)
            .map_err(|error| san_error(san, &error))?;
        let played = Move::from_move(mv, self.notation());
        self.play(mv);
        Ok(played)
    }

    /// Plays the move written in UCI (`e2e4`, `e7e8q`) and returns it.
    fn push_uci(&mut self, uci: &str) -> PyResult<Move> {
        if uci == "0000" {
            self.play_null()?;
            return Ok(Move::NULL);
        }
        let mv = self
            .position
            .parse_uci(uci)
            .map_err(|error| uci_error(uci, &error))?;
        let played = Move::from_move(mv, self.notation());
        self.play(mv);
        Ok(played)
    }

    /// Takes back the last move and returns it (`IndexError` when there is
    /// none).
    fn pop(&mut self) -> PyResult<Move> {
        let (before, mv) = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from empty move stack"))?;
        self.position = before;
        self.legal = None;
        Ok(Move::from_move(mv, self.notation()))
    }

    /// The last move (`IndexError` when there is none).
    fn peek(&self) -> PyResult<Move> {
        let (_, mv) = self
            .stack
            .last()
            .ok_or_else(|| PyIndexError::new_err("peek at empty move stack"))?;
        Ok(Move::from_move(*mv, self.notation()))
    }

    /// The moves played, first first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        let notation = self.notation();
        self.stack
            .iter()
            .map(|&(_, mv)| Move::from_move(mv, notation))
            .collect()
    }

    /// `move` in SAN (`IllegalMoveError` if it is not legal).
    fn san(&mut self, r#move: Move) -> PyResult<String> {
        if r#move.is_null() {
            return Ok("--".to_owned());
        }
        let mv = self.resolve(&r#move)?;
        Ok(self.position.san(mv).to_string())
    }

    /// `move` in UCI, castling as this board writes it.
    fn uci(&mut self, r#move: Move) -> PyResult<String> {
        let mv = self.resolve(&r#move)?;
        Ok(mv.uci(self.notation()).to_string())
    }

    /// The legal move written in SAN.
    fn parse_san(&self, san: &str) -> PyResult<Move> {
        if is_null_san(san) {
            return Ok(Move::NULL);
        }
        let mv = self
            .position
            .parse_san(san)
            .map_err(|error| san_error(san, &error))?;
        Ok(Move::from_move(mv, self.notation()))
    }

    /// The legal move written in UCI.
    fn parse_uci(&self, uci: &str) -> PyResult<Move> {
        let mv = self
            .position
            .parse_uci(uci)
            .map_err(|error| uci_error(uci, &error))?;
        Ok(Move::from_move(mv, self.notation()))
    }

    fn is_legal(&mut self, r#move: Move) -> bool {
        self.resolve(&r#move).is_ok()
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
        self.position = Position::from_fen(fen).map_err(|error| fen_error(fen, &error))?;
        self.stack.clear();
        self.legal = None;
        Ok(())
    }

    /// The side to move: True for White.
    #[getter]
    fn turn(&self) -> bool {
        is_white(self.position.side_to_move())
    }

    /// The castling rooks' squares, as a mask.
    #[getter]
    fn castling_rights(&self) -> u64 {
        self.position.castling_rooks().0
    }

    /// The en passant square, where a capture there is legal.
    #[getter]
    fn ep_square(&self) -> Option<u8> {
        self.position
            .legal_en_passant()
            .map(|square| square.index() as u8)
    }

    #[getter]
    fn halfmove_clock(&self) -> u16 {
        self.position.halfmove_clock()
    }

    #[getter]
    fn fullmove_number(&self) -> u16 {
        self.position.fullmove_number()
    }

    /// Half-moves since the start of the game (from the fullmove number).
    fn ply(&self) -> u32 {
        2 * (u32::from(self.position.fullmove_number()) - 1) + u32::from(!self.turn())
    }

    fn is_check(&self) -> bool {
        self.position.is_check()
    }

    fn is_checkmate(&mut self) -> bool {
        self.position.is_check() && !self.has_legal_moves()
    }

    fn is_stalemate(&mut self) -> bool {
        !self.position.is_check() && !self.has_legal_moves()
    }

    fn is_insufficient_material(&self) -> bool {
        self.position.is_insufficient_material()
    }

    fn is_seventyfive_moves(&mut self) -> bool {
        self.position.halfmove_clock() >= 150 && self.has_legal_moves()
    }

    fn is_fifty_moves(&mut self) -> bool {
        self.position.halfmove_clock() >= 100 && self.has_legal_moves()
    }

    fn is_fivefold_repetition(&self) -> bool {
        self.repetitions(5)
    }

    /// Whether the position has stood on the board `count` times (this
    /// time included) since the last capture or pawn move.
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: usize) -> bool {
        self.repetitions(count)
    }

    /// Whether the rules end the game here (checkmate, stalemate,
    /// insufficient material, the 75-move rule, fivefold repetition; with
    /// `claim_draw`, also the 50-move rule and threefold repetition).
    #[pyo3(signature = (*, claim_draw = false))]
    fn is_game_over(&mut self, claim_draw: bool) -> bool {
        self.outcome_of(claim_draw).is_some()
    }

    /// How the rules end the game here, or None.
    #[pyo3(signature = (*, claim_draw = false))]
    fn outcome(&mut self, claim_draw: bool) -> Option<Outcome> {
        let termination = self.outcome_of(claim_draw)?;
        let winner = (termination == Termination::CHECKMATE).then(|| !self.turn());
        Some(Outcome {
            termination,
            winner,
        })
    }

    fn piece_at(&self, square: i64) -> PyResult<Option<Piece>> {
        Ok(self.position.piece_on(self::square(square)?).map(Piece))
    }

    fn piece_type_at(&self, square: i64) -> PyResult<Option<u8>> {
        Ok(self
            .position
            .piece_on(self::square(square)?)
            .map(|piece| crate::types::piece_type(piece.kind())))
    }

    fn color_at(&self, square: i64) -> PyResult<Option<bool>> {
        Ok(self
            .position
            .piece_on(self::square(square)?)
            .map(|piece| is_white(piece.color())))
    }

    /// The square of `color`'s king.
    fn king(&self, color: bool) -> u8 {
        self.position.king(self::color(color)).index() as u8
    }

    /// The squares of `color`'s pieces of `piece_type`.
    fn pieces(&self, piece_type: i64, color: bool) -> PyResult<Bitboard> {
        Ok(Bitboard(self.pieces_mask(piece_type, color)?))
    }

    /// The mask of `color`'s pieces of `piece_type` (a1 = bit 0).
    fn pieces_mask(&self, piece_type: i64, color: bool) -> PyResult<u64> {
        Ok(self
            .position
            .pieces(self::color(color), piece_kind(piece_type)?)
            .0)
    }

    #[getter]
    fn occupied(&self) -> u64 {
        self.position.occupied().0
    }

    /// The masks of Black's and White's pieces (index with the colour).
    #[getter]
    fn occupied_co(&self) -> [u64; 2] {
        [
            self.position.by_color(Color::Black).0,
            self.position.by_color(Color::White).0,
        ]
    }

    /// The squares of `color`'s pieces that attack `square`.
    fn attackers(&self, color: bool, square: i64) -> PyResult<Bitboard> {
        Ok(Bitboard(
            self.position
                .attackers(self::square(square)?, self::color(color))
                .0,
        ))
    }

    fn is_attacked_by(&self, color: bool, square: i64) -> PyResult<bool> {
        Ok(!self
            .position
            .attackers(self::square(square)?, self::color(color))
            .is_empty())
    }

    fn gives_check(&mut self, r#move: Move) -> PyResult<bool> {
        let mv = self.resolve(&r#move)?;
        Ok(self.position.gives_check(mv))
    }

    fn is_capture(&mut self, r#move: Move) -> PyResult<bool> {
        let mv = self.resolve(&r#move)?;
        Ok(mv.kind() == MoveKind::EnPassant
            || !mv.is_castling() && self.position.piece_on(mv.to()).is_some())
    }

    fn is_castling(&mut self, r#move: Move) -> PyResult<bool> {
        Ok(self.resolve(&r#move)?.is_castling())
    }

    fn is_en_passant(&mut self, r#move: Move) -> PyResult<bool> {
        Ok(self.resolve(&r#move)?.kind() == MoveKind::EnPassant)
    }

    /// The legal moves from a square of `from_mask` to one of `to_mask`
    /// (python-chess's masks: a1 = bit 0; castling by its rook's square),
    /// as an iterator.
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_legal_moves<'py>(
        &mut self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let moves = self.legal_where(from_mask, to_mask, |_, _| true);
        self.iterate(py, moves)
    }

    /// The legal captures (en passant included) within the masks.
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_legal_captures<'py>(
        &mut self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let moves = self.legal_where(from_mask, to_mask, is_capture);
        self.iterate(py, moves)
    }

    /// The legal en passant captures within the masks.
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_legal_ep<'py>(
        &mut self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let moves = self.legal_where(from_mask, to_mask, |mv, _| mv.kind() == MoveKind::EnPassant);
        self.iterate(py, moves)
    }

    /// The legal castling moves within the masks (the king's square in
    /// `from_mask`, the rook's in `to_mask`).
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_castling_moves<'py>(
        &mut self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (from, to) = (bitboards::Bitboard(from_mask), bitboards::Bitboard(to_mask));
        let moves: Vec<bitboards::Move> = pseudo::castling(self.legal(), from, to).collect();
        self.iterate(py, moves)
    }

    /// The pseudo-legal moves within the masks: by how the pieces move,
    /// the king perhaps left in check (castling only where legal).
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_pseudo_legal_moves<'py>(
        &mut self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let moves = self.pseudo_legal_list(from_mask, to_mask);
        self.iterate(py, moves)
    }

    /// The pseudo-legal captures within the masks.
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_pseudo_legal_captures<'py>(
        &mut self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let enemy = self
            .position
            .by_color(self.position.side_to_move().opponent());
        let moves: Vec<bitboards::Move> = self
            .pseudo_legal_list(from_mask, to_mask)
            .into_iter()
            .filter(|mv| is_capture(*mv, enemy))
            .collect();
        self.iterate(py, moves)
    }

    /// The en passant captures by how pawns move, within the masks.
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_pseudo_legal_ep<'py>(
        &self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let moves = pseudo::pseudo_legal_en_passant(
            &self.position,
            bitboards::Bitboard(from_mask),
            bitboards::Bitboard(to_mask),
        );
        self.iterate(py, moves)
    }

    /// The pseudo-legal moves (`len()`, iterate, `in`).
    #[getter]
    fn pseudo_legal_moves(&mut self) -> PseudoLegalMoveGenerator {
        PseudoLegalMoveGenerator {
            moves: self.pseudo_legal_list(u64::MAX, u64::MAX),
            notation: self.notation(),
            position: self.position,
        }
    }

    /// Whether `move` is pseudo-legal here.
    fn is_pseudo_legal(&mut self, r#move: Move) -> bool {
        if r#move.is_null() {
            return false;
        }
        let moves = self.pseudo_legal_list(u64::MAX, u64::MAX);
        find_in(&moves, self.notation(), r#move).is_some()
    }

    /// Whether an en passant capture is legal here.
    fn has_legal_en_passant(&self) -> bool {
        self.position.legal_en_passant().is_some()
    }

    /// Whether a pawn can capture en passant by how pawns move.
    fn has_pseudo_legal_en_passant(&self) -> bool {
        self.pseudo_en_passant()
    }

    /// The squares the piece on `square` attacks (none if it is empty).
    fn attacks(&self, square: i64) -> PyResult<Bitboard> {
        Ok(Bitboard(self.attacks_mask(square)?))
    }

    /// The mask of the squares the piece on `square` attacks.
    fn attacks_mask(&self, square: i64) -> PyResult<u64> {
        let square = self::square(square)?;
        Ok(self.position.piece_on(square).map_or(0, |piece| {
            pseudo::piece_attacks(
                piece.color(),
                piece.kind(),
                square,
                self.position.occupied(),
            )
            .0
        }))
    }

    /// The line through `square` along which `color`'s piece there is
    /// pinned to its king, or every square when it is not pinned.
    fn pin(&self, color: bool, square: i64) -> PyResult<Bitboard> {
        Ok(Bitboard(self.pin_mask(color, square)?))
    }

    /// `pin` as a mask.
    fn pin_mask(&self, color: bool, square: i64) -> PyResult<u64> {
        Ok(pseudo::pin(&self.position, self::color(color), self::square(square)?).0)
    }

    /// Whether `color`'s piece on `square` is pinned to its king.
    fn is_pinned(&self, color: bool, square: i64) -> PyResult<bool> {
        Ok(self.pin_mask(color, square)? != u64::MAX)
    }

    /// The pieces giving check to the side to move.
    fn checkers(&self) -> Bitboard {
        Bitboard(self.position.checkers().0)
    }

    fn checkers_mask(&self) -> u64 {
        self.position.checkers().0
    }

    #[getter]
    fn pawns(&self) -> u64 {
        self.position.by_kind(PieceKind::Pawn).0
    }

    #[getter]
    fn knights(&self) -> u64 {
        self.position.by_kind(PieceKind::Knight).0
    }

    #[getter]
    fn bishops(&self) -> u64 {
        self.position.by_kind(PieceKind::Bishop).0
    }

    #[getter]
    fn rooks(&self) -> u64 {
        self.position.by_kind(PieceKind::Rook).0
    }

    #[getter]
    fn queens(&self) -> u64 {
        self.position.by_kind(PieceKind::Queen).0
    }

    #[getter]
    fn kings(&self) -> u64 {
        self.position.by_kind(PieceKind::King).0
    }

    /// Promoted pieces (crazyhouse's, in python-chess): none here.
    #[getter]
    fn promoted(&self) -> u64 {
        0
    }

    /// Whether `color` may still castle either way.
    fn has_castling_rights(&self, color: bool) -> bool {
        let color = self::color(color);
        CastlingSide::ALL
            .into_iter()
            .any(|side| self.position.castling().has(color, side))
    }

    fn has_kingside_castling_rights(&self, color: bool) -> bool {
        self.position
            .castling()
            .has(self::color(color), CastlingSide::KingSide)
    }

    fn has_queenside_castling_rights(&self, color: bool) -> bool {
        self.position
            .castling()
            .has(self::color(color), CastlingSide::QueenSide)
    }

    /// Whether a castling right needs Chess960 (a king off the e-file or
    /// a rook off its corner).
    fn has_chess960_castling_rights(&self) -> bool {
        self.position.castling_notation() == CastlingNotation::KingTakesRook
    }

    /// The castling rooks' squares: the rights as the position holds
    /// them (always clean here).
    fn clean_castling_rights(&self) -> u64 {
        self.position.castling_rooks().0
    }

    /// python-chess's validity flags: a `bitboards.Board` only ever holds
    /// a valid position, so none (`STATUS_VALID`).
    fn status(&self) -> u32 {
        0
    }

    /// Always true: a `bitboards.Board` only ever holds a valid position.
    fn is_valid(&self) -> bool {
        true
    }

    /// Whether `move` resets the fifty-move counter (a capture or a pawn
    /// move).
    fn is_zeroing(&mut self, r#move: Move) -> bool {
        let Ok(mv) = self.resolve(&r#move) else {
            return false;
        };
        self.zeroing(mv)
    }

    /// Whether `move` cannot be taken back to repeat a position: zeroing,
    /// castling, losing a castling right, or passing up an en passant
    /// capture.
    fn is_irreversible(&mut self, r#move: Move) -> bool {
        let Ok(mv) = self.resolve(&r#move) else {
            return false;
        };
        if self.zeroing(mv) || mv.is_castling() {
            return true;
        }
        let after = self.position.play_unchecked(mv);
        after.castling() != self.position.castling() || self.position.legal_en_passant().is_some()
    }

    /// Whether `color` lacks the material to checkmate whatever the other
    /// side does (python-chess's rule: a lone king; a king and one knight
    /// against no pieces but queens; or bishops all on one colour with no
    /// pawns or knights on the board).
    fn has_insufficient_material(&self, color: bool) -> bool {
        let position = &self.position;
        let color = self::color(color);
        let own = position.by_color(color);
        let heavy = position.by_kind(PieceKind::Pawn)
            | position.by_kind(PieceKind::Rook)
            | position.by_kind(PieceKind::Queen);
        if !(own & heavy).is_empty() {
            return false;
        }
        let knights = position.by_kind(PieceKind::Knight);
        if !(own & knights).is_empty() {
            let others = position.by_color(color.opponent())
                & !position.by_kind(PieceKind::King)
                & !position.by_kind(PieceKind::Queen);
            return own.count() <= 2 && others.is_empty();
        }
        let bishops = position.by_kind(PieceKind::Bishop);
        if !(own & bishops).is_empty() {
            const DARK: u64 = 0xAA55_AA55_AA55_AA55;
            let one_colour = (bishops.0 & DARK) == 0 || (bishops.0 & !DARK) == 0;
            return one_colour
                && position.by_kind(PieceKind::Pawn).is_empty()
                && knights.is_empty();
        }
        true
    }

    #[pyo3(name = "can_claim_fifty_moves")]
    fn py_can_claim_fifty_moves(&mut self) -> bool {
        self.can_claim_fifty_moves()
    }

    #[pyo3(name = "can_claim_threefold_repetition")]
    fn py_can_claim_threefold_repetition(&mut self) -> bool {
        self.can_claim_threefold_repetition()
    }

    /// Whether the side to move can claim a draw (fifty moves or
    /// threefold repetition).
    fn can_claim_draw(&mut self) -> bool {
        self.can_claim_fifty_moves() || self.can_claim_threefold_repetition()
    }

    /// Forgets the moves played (the position stays).
    fn clear_stack(&mut self) {
        self.stack.clear();
    }

    /// Mirrors the position in place (colours swapped, board flipped; the
    /// move stack cleared).
    fn apply_mirror(&mut self) {
        self.position = self.position.mirror();
        self.stack.clear();
        self.legal = None;
    }

    /// The FEN with castling written by rook files (Shredder-FEN).
    fn shredder_fen(&self) -> String {
        self.fen_as(true, "legal")
    }

    /// The game's result: `1-0`, `0-1`, `1/2-1/2`, or `*` while it goes on.
    #[pyo3(signature = (*, claim_draw = false))]
    fn result(&mut self, claim_draw: bool) -> &'static str {
        match self.outcome_of(claim_draw) {
            Some(Termination::CHECKMATE) if self.turn() => "0-1",
            Some(Termination::CHECKMATE) => "1-0",
            Some(_) => "1/2-1/2",
            None => "*",
        }
    }

    /// The board in Unicode pieces, as python-chess draws it.
    #[pyo3(signature = (*, invert_color = false, borders = false, empty_square = "⭘", orientation = true))]
    fn unicode<'py>(
        slf: &Bound<'py, Self>,
        invert_color: bool,
        borders: bool,
        empty_square: &str,
        orientation: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        python_part(slf.py(), "unicode")?.call1((
            slf,
            invert_color,
            borders,
            empty_square,
            orientation,
        ))
    }

    /// The move in long algebraic notation (`Ng1-f3`, `e4xd5`, `O-O`).
    fn lan<'py>(slf: &Bound<'py, Self>, r#move: Move) -> PyResult<Bound<'py, PyAny>> {
        python_part(slf.py(), "lan")?.call1((slf, r#move))
    }

    /// A line of legal moves from here in SAN with move numbers
    /// (`1. e4 e5 2. Nf3`); `IllegalMoveError` at the first illegal one.
    fn variation_san<'py>(
        slf: &Bound<'py, Self>,
        variation: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        python_part(slf.py(), "variation_san")?.call1((slf, variation))
    }

    /// The legal move from `from_square` to `to_square` (a pawn reaching
    /// the last rank becomes a queen unless `promotion` says otherwise;
    /// castling may be given as the king's move or onto its rook);
    /// `IllegalMoveError` if there is none.
    #[pyo3(signature = (from_square, to_square, promotion = None))]
    fn find_move<'py>(
        slf: &Bound<'py, Self>,
        from_square: i64,
        to_square: i64,
        promotion: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        python_part(slf.py(), "find_move")?.call1((slf, from_square, to_square, promotion))
    }

    /// The move as XBoard writes it.
    #[pyo3(signature = (r#move, chess960 = None))]
    fn xboard<'py>(
        slf: &Bound<'py, Self>,
        r#move: Move,
        chess960: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        python_part(slf.py(), "xboard")?.call1((slf, r#move, chess960))
    }

    /// Reads a move as XBoard writes it (SAN, UCI, `O-O`, `@@@@`).
    fn parse_xboard<'py>(slf: &Bound<'py, Self>, xboard: &str) -> PyResult<Bound<'py, PyAny>> {
        python_part(slf.py(), "parse_xboard")?.call1((slf, xboard))
    }

    /// Plays a move written as XBoard writes it and returns it.
    fn push_xboard<'py>(slf: &Bound<'py, Self>, xboard: &str) -> PyResult<Bound<'py, PyAny>> {
        python_part(slf.py(), "push_xboard")?.call1((slf, xboard))
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

    /// Sets the castling rights from a mask of rook squares, keeping those
    /// that are rights at all (a rook on its home rank beside its king),
    /// as python-chess's `clean_castling_rights` reads them.
    #[setter(castling_rights)]
    fn set_castling_rights_mask(&mut self, mask: u64) -> PyResult<()> {
        let mut letters = String::new();
        for square in bitboards::Bitboard(mask) {
            let color = match square.rank().index() {
                0 => Color::White,
                7 => Color::Black,
                _ => continue,
            };
            let letter = (b'a' + square.file().index() as u8) as char;
            letters.push(match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            });
        }
        self.set_castling_letters(&letters, true)
    }

    /// Sets the castling rights from a FEN's castling field (`KQkq`,
    /// Shredder's `HAha`, or `-`); rights without their king and rook are
    /// dropped, as python-chess cleans them.
    fn set_castling_fen(&mut self, castling_fen: &str) -> PyResult<()> {
        let field = castling_fen.trim();
        if field.is_empty() || field.contains(char::is_whitespace) {
            return Err(PyValueError::new_err(format!(
                "invalid castling fen: {castling_fen:?}"
            )));
        }
        let letters = if field == "-" { "" } else { field };
        self.set_castling_letters(letters, false)
    }

    /// Sets up the Chess960 start position numbered `number` (0 to 959;
    /// 518 is standard chess) and clears the move stack.
    fn set_chess960_pos(&mut self, number: u16) -> PyResult<()> {
        self.position =
            Position::chess960(number).map_err(|error| PyValueError::new_err(error.to_string()))?;
        self.stack.clear();
        self.legal = None;
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

    /// Puts `piece` on `square` (None empties it) and clears the move
    /// stack. `ValueError` (the board unchanged) when the result is not a
    /// position the rules allow; castling rights and an en passant square
    /// the new placement cannot hold are dropped.
    #[pyo3(signature = (square, piece, promoted = false))]
    fn set_piece_at(&mut self, square: i64, piece: Option<Piece>, promoted: bool) -> PyResult<()> {
        let _ = promoted;
        let square = self::square(square)?;
        let mut setup = self.position.setup();
        setup.board[square.index()] = piece.map(|piece| piece.0);
        self.settle(setup, &format!("a piece set on {}", square.name()))
    }

    /// Empties `square` and returns the piece that stood there (the move
    /// stack cleared); `ValueError` when the result is not a position the
    /// rules allow (removing a king, for one).
    fn remove_piece_at(&mut self, square: i64) -> PyResult<Option<Piece>> {
        let square = self::square(square)?;
        let removed = self.position.piece_on(square).map(Piece);
        let mut setup = self.position.setup();
        setup.board[square.index()] = None;
        self.settle(setup, &format!("the piece on {} removed", square.name()))?;
        Ok(removed)
    }

    /// Replaces every piece with those of `pieces` (a dict from square to
    /// `Piece`), as `set_piece_at` does one.
    fn set_piece_map(&mut self, pieces: &Bound<'_, PyDict>) -> PyResult<()> {
        let mut setup = self.position.setup();
        setup.board = [None; 64];
        for (square, piece) in pieces.iter() {
            let square = self::square(square.extract()?)?;
            setup.board[square.index()] = Some(piece.extract::<Piece>()?.0);
        }
        self.settle(setup, "the piece map set")
    }

    /// Replaces the pieces with those of a FEN's first field, the rest
    /// (side to move, rights, clocks) kept where they still hold.
    fn set_board_fen(&mut self, fen: &str) -> PyResult<()> {
        let placement = fen.trim();
        if placement.is_empty() || placement.contains(char::is_whitespace) {
            return Err(PyValueError::new_err(format!(
                "expected a board FEN (the first field alone), got {fen:?}"
            )));
        }
        let current = self.position.fen().to_string();
        let rest: Vec<&str> = current.split(' ').skip(1).collect();
        // The placement read with the side to move and the clocks (which
        // the rules on checks and the FEN reader need), then set as
        // `set_piece_map` sets pieces: rights and en passant kept where
        // they still hold.
        let placed = format!("{placement} {} - - {} {}", rest[0], rest[3], rest[4]);
        let placed = Position::from_fen(&placed).map_err(|error| fen_error(&placed, &error))?;
        let mut setup = self.position.setup();
        setup.board = placed.setup().board;
        self.settle(setup, "the board FEN set")
    }

    /// The Polyglot key (`chess.polyglot.zobrist_hash`).
    fn zobrist_hash(&self) -> u64 {
        self.position.polyglot_key()
    }

    /// The position with colours swapped and the board flipped (no moves).
    fn mirror(&self) -> Board {
        self.new_board(self.position.mirror())
    }

    /// A copy (with the move stack unless `stack=False`).
    #[pyo3(signature = (*, stack = true))]
    fn copy(&self, stack: bool) -> Board {
        if stack {
            self.clone()
        } else {
            self.new_board(self.position)
        }
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
        self.new_board(start)
    }

    /// The number of leaf nodes of the legal move tree `depth` plies deep,
    /// counted in Rust with the GIL released, on `threads` threads (all
    /// cores when None).
    #[pyo3(signature = (depth, threads = None))]
    fn perft(&self, py: Python<'_>, depth: u32, threads: Option<usize>) -> PyResult<u64> {
        let position = self.position;
        let threads = match threads {
            Some(1) => return Ok(py.detach(|| bitboards::perft(&position, depth))),
            // Every core: rayon's global pool, made once per process (a
            // pool of its own per call cost a tenth of `perft(5)`'s time).
            None => return Ok(py.detach(|| bitboards::perft_parallel(&position, depth))),
            Some(threads) => threads,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map_err(|error| PyValueError::new_err(error.to_string()))?;
        Ok(py.detach(|| pool.install(|| bitboards::perft_parallel(&position, depth))))
    }

    /// The twelve piece boards as a `(12, 8, 8)` uint8 NumPy array: White's
    /// pawns, knights, bishops, rooks, queens, king, then Black's; row 0 is
    /// rank 1 and column 0 file a. With `flip=True` and Black to move, the
    /// board as Black sees it: ranks mirrored and colours swapped, so that
    /// the first six planes are always the mover's.
    #[pyo3(signature = (*, flip = false))]
    fn planes<'py>(&self, py: Python<'py>, flip: bool) -> PyResult<Bound<'py, PyAny>> {
        let boards = self.position.piece_boards().map(|board| board.0);
        let black = flip && self.position.side_to_move() == Color::Black;
        crate::planes::to_numpy(py, &[boards], |_| black)?.call_method1("reshape", ((12, 8, 8),))
    }

    fn __str__(&self) -> String {
        let mut text = String::with_capacity(128);
        for rank in (0..8).rev() {
            for file in 0..8 {
                let square = Square::new(rank * 8 + file).expect("0..64");
                text.push(
                    self.position
                        .piece_on(square)
                        .map_or('.', |piece| piece.to_char()),
                );
                text.push(if file == 7 { '\n' } else { ' ' });
            }
        }
        text.pop();
        text
    }

    fn __repr__(&self) -> String {
        match self.chess960 {
            true => format!("Board('{}', chess960=True)", self.fen_as(false, "legal")),
            false => format!("Board('{}')", self.fen_as(false, "legal")),
        }
    }

    /// The board as an SVG picture, `size` pixels wide, from Black's side
    /// when `flipped`.
    #[pyo3(signature = (*, size = 400, flipped = false))]
    fn svg(&self, size: u32, flipped: bool) -> String {
        let last = self.stack.last().map(|&(_, mv)| mv);
        crate::svg::board(&self.position, last, size, flipped)
    }

    /// The picture Jupyter shows.
    fn _repr_svg_(&self) -> String {
        self.svg(400, false)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let start = self
            .stack
            .first()
            .map_or(self.position, |(start, _)| *start);
        let moves: Vec<String> = self
            .stack
            .iter()
            .map(|(before, mv)| before.uci(*mv).to_string())
            .collect();
        let constructor = py
            .import("bitboards._bitboards")?
            .getattr("board_from_state")?;
        let args = (start.fen().to_string(), self.chess960, moves).into_pyobject(py)?;
        (constructor, args).into_pyobject(py)
    }
}

/// A board from its start FEN and moves in UCI (what pickle stores).
#[pyfunction]
pub fn board_from_state(fen: &str, chess960: bool, moves: Vec<String>) -> PyResult<Board> {
    let mut board = Board::new(fen, chess960)?;
    for uci in &moves {
        board.push_uci(uci)?;
    }
    Ok(board)
}

impl Board {
    /// The FEN as `fen` writes it, with the en passant rule given.
    fn fen_as(&self, shredder: bool, en_passant: &str) -> String {
        let fen = self.position.fen();
        let text = if shredder {
            fen.shredder().to_string()
        } else {
            fen.to_string()
        };
        // As python-chess writes it: by default an en passant square only
        // where the capture is legal.
        let shown = match en_passant {
            "fen" => self.position.en_passant(),
            "xfen" => self
                .position
                .en_passant()
                .filter(|_| self.pseudo_en_passant()),
            _ => self.position.legal_en_passant(),
        };
        match (self.position.en_passant(), shown) {
            (Some(square), None) => text.replacen(&format!(" {} ", square.name()), " - ", 1),
            _ => text,
        }
    }

    /// The pseudo-legal moves within the masks.
    fn pseudo_legal_list(&mut self, from_mask: u64, to_mask: u64) -> Vec<bitboards::Move> {
        let position = self.position;
        pseudo::pseudo_legal(
            &position,
            self.legal(),
            bitboards::Bitboard(from_mask),
            bitboards::Bitboard(to_mask),
        )
    }

    /// Passes the turn (python-chess's null move, `--`): not while in
    /// check, where the position would have the side not to move in check.
    fn play_null(&mut self) -> PyResult<()> {
        let Some(after) = self.position.null_move() else {
            return Err(IllegalMoveError::new_err(format!(
                "a null move in check: {}",
                self.position.fen()
            )));
        };
        self.stack.push((self.position, bitboards::Move::NULL));
        self.position = after;
        self.legal = None;
        Ok(())
    }

    /// Replaces the castling field of the FEN with `letters` (FEN or
    /// Shredder letters). With `clean`, each right is tried alone and only
    /// those the position can hold are kept; otherwise the field as a
    /// whole must be valid, or the rights it can hold are kept.
    fn set_castling_letters(&mut self, letters: &str, clean: bool) -> PyResult<()> {
        let fen = self.position.fen().to_string();
        let fields: Vec<&str> = fen.split(' ').collect();
        // A standard board holds standard rights only (king on e1/e8, rook
        // in its corner), as python-chess cleans them.
        let validation = if self.chess960 {
            bitboards::Validation::default()
        } else {
            bitboards::Validation::default().standard_castling()
        };
        let with = |castling: &str| {
            let mut fields = fields.clone();
            fields[2] = if castling.is_empty() { "-" } else { castling };
            Position::from_fen_with(&fields.join(" "), validation)
        };
        let position = match (clean, with(letters)) {
            (false, Ok(position)) => position,
            _ => {
                // Each right alone, kept where the position can hold it.
                let mut kept = String::new();
                for letter in letters.chars() {
                    let mut trial = kept.clone();
                    trial.push(letter);
                    if with(&trial).is_ok() {
                        kept = trial;
                    }
                }
                with(&kept).map_err(|error| PyValueError::new_err(error.to_string()))?
            }
        };
        self.position = position;
        self.legal = None;
        Ok(())
    }

    /// The legal moves from `from_mask` to `to_mask` (castling by its
    /// rook's square) that `keep` keeps, given the enemy's pieces.
    fn legal_where(
        &mut self,
        from_mask: u64,
        to_mask: u64,
        keep: impl Fn(bitboards::Move, bitboards::Bitboard) -> bool,
    ) -> Vec<bitboards::Move> {
        let (from, to) = (bitboards::Bitboard(from_mask), bitboards::Bitboard(to_mask));
        let enemy = self
            .position
            .by_color(self.position.side_to_move().opponent());
        self.legal()
            .iter()
            .copied()
            .filter(|&mv| from.contains(mv.from()) && to.contains(mv.to()) && keep(mv, enemy))
            .collect()
    }

    /// Makes `setup` the board's position (the move stack cleared): as it
    /// is, else without its en passant square and with only the castling
    /// rights it can hold (python-chess cleans them so); `ValueError`
    /// saying what `change` broke when the pieces themselves break a rule.
    fn settle(&mut self, mut setup: bitboards::Setup, change: &str) -> PyResult<()> {
        let position = match Position::from_setup(setup) {
            Ok(position) => position,
            Err(_) => {
                setup.en_passant = None;
                let rights = setup.castling;
                let mut kept = bitboards::CastlingRights::NONE;
                for color in Color::ALL {
                    for side in CastlingSide::ALL {
                        if let Some(file) = rights.rook_file(color, side) {
                            let trial = kept.with(color, side, Some(file));
                            setup.castling = trial;
                            if Position::from_setup(setup).is_ok() {
                                kept = trial;
                            }
                        }
                    }
                }
                setup.castling = kept;
                Position::from_setup(setup).map_err(|error| {
                    PyValueError::new_err(format!(
                        "{change} leaves no position the rules allow: {error}"
                    ))
                })?
            }
        };
        self.position = position;
        self.stack.clear();
        self.legal = None;
        Ok(())
    }

    /// Whether a pawn can capture en passant by how pawns move.
    fn pseudo_en_passant(&self) -> bool {
        let all = bitboards::Bitboard(u64::MAX);
        !pseudo::pseudo_legal_en_passant(&self.position, all, all).is_empty()
    }

    /// Whether `mv` resets the fifty-move counter.
    fn zeroing(&self, mv: bitboards::Move) -> bool {
        let enemy = self
            .position
            .by_color(self.position.side_to_move().opponent());
        self.position.piece_on(mv.from()).map(|piece| piece.kind()) == Some(PieceKind::Pawn)
            || is_capture(mv, enemy)
    }

    /// `moves` as python-chess's generators give them: an iterator of
    /// moves written as this board writes castling.
    fn iterate<'py>(
        &self,
        py: Python<'py>,
        moves: Vec<bitboards::Move>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let notation = self.notation();
        move_iter(
            py,
            moves.into_iter().map(|mv| Move::from_move(mv, notation)),
        )
    }
}

/// Whether `san` is the null move as python-chess reads it.
fn is_null_san(san: &str) -> bool {
    matches!(san, "--" | "Z0" | "0000" | "@@@@")
}

/// `ValueError` unless `en_passant` is one of python-chess's three rules.
fn check_en_passant(en_passant: &str) -> PyResult<()> {
    if matches!(en_passant, "legal" | "xfen" | "fen") {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "en_passant must be \"legal\", \"xfen\" or \"fen\", not {en_passant:?}"
        )))
    }
}

/// Whether a move captures: en passant, or onto an enemy piece (castling
/// onto its own rook does not).
fn is_capture(mv: bitboards::Move, enemy: bitboards::Bitboard) -> bool {
    mv.kind() == MoveKind::EnPassant || (!mv.is_castling() && enemy.contains(mv.to()))
}
