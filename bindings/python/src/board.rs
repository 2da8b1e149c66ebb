//! `Board`: a position and the moves that led to it, with python-chess's
//! names.

use bitboards::{CastlingNotation, Color, MoveKind, MoveList, PieceKind, Position, Square};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::errors::{IllegalMoveError, fen_error, san_error, uci_error};
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
    let written = |candidate: bitboards::Move, notation| Move::from_move(candidate, notation) == mv;
    legal
        .iter()
        .copied()
        .find(|&candidate| written(candidate, notation))
        .or_else(|| {
            (notation == CastlingNotation::KingToTarget)
                .then(|| {
                    legal
                        .iter()
                        .copied()
                        .find(|&candidate| written(candidate, CastlingNotation::KingTakesRook))
                })
                .flatten()
        })
}

/// The legal moves of a board (`board.legal_moves`): iterate, `len()`,
/// `in`.
#[pyclass(module = "bitboards", frozen)]
pub struct LegalMoveGenerator {
    legal: MoveList,
    /// How the board writes castling. On a standard board `in` also finds
    /// castling written king-takes-rook; iteration does not give it.
    notation: CastlingNotation,
}

impl LegalMoveGenerator {
    /// The moves as python-chess writes them on the board.
    fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.legal
            .iter()
            .map(|&mv| Move::from_move(mv, self.notation))
    }
}

#[pymethods]
impl LegalMoveGenerator {
    fn __len__(&self) -> usize {
        self.legal.len()
    }

    fn count(&self) -> usize {
        self.legal.len()
    }

    fn __bool__(&self) -> bool {
        !self.legal.is_empty()
    }

    fn __contains__(&self, mv: &Bound<'_, PyAny>) -> bool {
        let Ok(mv) = mv.cast::<Move>() else {
            return false;
        };
        find_legal(&self.legal, self.notation, *mv.get()).is_some()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let objects = Move::objects(py)?;
        PyList::new(py, self.moves().map(|mv| mv.shared(py, objects)))?
            .as_any()
            .try_iter()
            .map(Bound::into_any)
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self.moves().map(|mv| mv.to_string()).collect();
        format!("<LegalMoveGenerator ({})>", moves.join(", "))
    }
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
            legal: self.legal().clone(),
            notation,
        }
    }

    /// Plays `move` (a legal `Move`; `IllegalMoveError` otherwise).
    fn push(&mut self, r#move: Move) -> PyResult<()> {
        let mv = self.resolve(&r#move)?;
        self.play(mv);
        Ok(())
    }

    /// Plays the move written in SAN (`Nf3`, `O-O`, `exd8=Q+`) and returns it.
    fn push_san(&mut self, san: &str) -> PyResult<Move> {
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

    /// The position's FEN (`shredder=True`: castling by rook files).
    #[pyo3(signature = (*, shredder = false))]
    fn fen(&self, shredder: bool) -> String {
        let fen = self.position.fen();
        let text = if shredder {
            fen.shredder().to_string()
        } else {
            fen.to_string()
        };
        // As python-chess writes it: an en passant square only where the
        // capture is legal.
        match (self.position.en_passant(), self.position.legal_en_passant()) {
            (Some(square), None) => text.replacen(&format!(" {} ", square.name()), " - ", 1),
            _ => text,
        }
    }

    /// The FEN's first four fields.
    fn epd(&self) -> String {
        let fen = self.fen(false);
        fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
    }

    /// The FEN's first field: where the pieces stand.
    fn board_fen(&self) -> String {
        let fen = self.fen(false);
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
            true => format!("Board('{}', chess960=True)", self.fen(false)),
            false => format!("Board('{}')", self.fen(false)),
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
