//! `Board`: a position and the moves that led to it, with python-chess's
//! names.

use bitboards::{
    CastlingNotation, CastlingSide, Color, MoveKind, MoveList, PieceKind, Position, Square,
};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::errors::{IllegalMoveError, fen_error, san_error, uci_error};
use crate::types::{Bitboard, Move, Piece, color, is_white, piece_kind, square};
use bitboards::any_setup::{self, AnySetup};

/// python-chess's starting FEN.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A chess position and the moves that led to it: python-chess's `Board`.
///
/// It holds any setup, valid or not, as python-chess's does (`status()`
/// says what is wrong). `push` plays a legal or pseudo-legal move, as
/// python-chess's contract says, and refuses any other with
/// `IllegalMoveError` where python-chess would break the board.
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
    /// Whether `position` is loose (`crate::loose`): a setup the crate's
    /// move generator does not take, whose moves `loose` finds.
    loose: bool,
    /// What python-chess keeps of the setup under the move stack that
    /// `position` does not hold.
    root: Root,
}

/// What python-chess keeps of a setup beside what the position holds: the
/// castling rights as set (not cleaned), the en passant square as set
/// (even where no pawn can take), the promoted pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Root {
    castling: u64,
    en_passant: Option<Square>,
    promoted: u64,
}

impl Root {
    /// What a valid position holds: its rights, its en passant square.
    fn of(position: &Position) -> Root {
        Root {
            castling: position.castling_rooks().0,
            en_passant: position.en_passant(),
            promoted: 0,
        }
    }
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
            loose: false,
            root: Root::of(&position),
        }
    }

    /// A board holding `raw` as python-chess would, whatever it breaks.
    fn from_raw(raw: &AnySetup, chess960: bool) -> Board {
        let (position, loose) = raw.to_position(chess960);
        Board {
            position,
            chess960,
            stack: Vec::new(),
            legal: None,
            loose,
            root: Root {
                castling: raw.castling.0,
                en_passant: raw.en_passant,
                promoted: raw.promoted.0,
            },
        }
    }

    /// A board read from a FEN as python-chess reads it: the crate's
    /// reader for a position that keeps its rules, python-chess's reading
    /// (`any_setup::parse_fen`) for any other setup; the crate's error when
    /// neither reads it.
    fn read_fen(fen: &str, chess960: bool) -> PyResult<Board> {
        match Position::from_fen(fen) {
            // Castling rights beyond standard chess's on a standard board
            // are python-chess's to clean.
            Ok(position)
                if chess960 || position.castling_notation() == CastlingNotation::KingToTarget =>
            {
                // The reader keeps the FEN's en passant square as it is
                // (python-chess's `ep_square`): `Root::of` takes it.
                Ok(Board::new_at(position, chess960))
            }
            result => match AnySetup::from_fen(fen).ok() {
                Some(raw) => Ok(Board::from_raw(&raw, chess960)),
                None => Err(match result {
                    Err(error) => fen_error(fen, &error),
                    Ok(_) => PyValueError::new_err(format!("invalid FEN: {fen:?}")),
                }),
            },
        }
    }

    /// The setup as python-chess holds it now.
    fn raw(&self) -> AnySetup {
        let setup = self.position.setup();
        AnySetup {
            board: setup.board,
            side_to_move: setup.side_to_move,
            castling: bitboards::Bitboard(self.raw_castling()),
            en_passant: self.raw_en_passant(),
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number,
            promoted: bitboards::Bitboard(self.promoted_mask()),
        }
    }

    /// Replaces the board's setup with `raw`, the move stack cleared.
    fn reset_to(&mut self, raw: &AnySetup) {
        *self = Board::from_raw(raw, self.chess960);
    }

    /// The castling rights as python-chess holds them: as set under the
    /// stack, clean after a move.
    fn raw_castling(&self) -> u64 {
        if self.stack.is_empty() {
            self.root.castling
        } else {
            self.position.castling_rooks().0
        }
    }

    /// python-chess's en passant square: as set under the stack; after a
    /// move, the square a double push skipped.
    fn raw_en_passant(&self) -> Option<Square> {
        let Some((before, mv)) = self.stack.last() else {
            return self.root.en_passant;
        };
        let (from, to) = (mv.from().index(), mv.to().index());
        let pawn = before.piece_on(mv.from()).map(|piece| piece.kind()) == Some(PieceKind::Pawn);
        (pawn && mv.kind() == MoveKind::Normal && from.abs_diff(to) == 16)
            .then(|| Square::new(((from + to) / 2) as u8))
            .flatten()
    }

    /// python-chess's promoted pieces: those set so, and every piece a
    /// promotion made, followed through the moves.
    fn promoted_mask(&self) -> u64 {
        let mut promoted = self.root.promoted;
        for (before, mv) in &self.stack {
            if mv.is_null() {
                continue;
            }
            let (from, to) = (mv.from().bitboard().0, mv.to().bitboard().0);
            let was = promoted & from != 0;
            promoted &= !from & !to;
            match mv.kind() {
                MoveKind::EnPassant => {
                    let captured = Square::from_file_rank(mv.to().file(), mv.from().rank());
                    promoted &= !captured.bitboard().0;
                }
                MoveKind::Castling => continue,
                _ => {}
            }
            if was || matches!(mv.kind(), MoveKind::Promotion(_)) {
                promoted |= to;
            }
            let _ = before;
        }
        promoted
    }

    /// The side to move's king's attackers.
    fn checkers_now(&self) -> bitboards::Bitboard {
        if self.loose {
            any_setup::checkers(&self.position)
        } else {
            self.position.checkers()
        }
    }

    fn in_check(&self) -> bool {
        !self.checkers_now().is_empty()
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

    /// Whether the board's setup is one the crate's move generator does not
    /// take (`crate::loose`).
    pub fn is_loose(&self) -> bool {
        self.loose
    }

    /// Whether a position of the move stack is loose (a pseudo-legal move
    /// was pushed, or the stack starts from a loose setup).
    pub fn stack_is_loose(&self) -> bool {
        self.stack
            .iter()
            .any(|(before, _)| !any_setup::generator_takes(before))
    }

    /// The position under the move stack, and the moves played from it.
    pub fn start_and_moves(&self) -> (Position, Vec<bitboards::Move>) {
        let start = self
            .stack
            .first()
            .map_or(self.position, |(start, _)| *start);
        (start, self.stack.iter().map(|&(_, mv)| mv).collect())
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
        let loose = self.loose;
        self.legal.get_or_insert_with(|| {
            if loose {
                any_setup::loose_legal_moves(position)
            } else {
                position.legal_moves()
            }
        })
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
        let check = self.in_check();
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
                .any(|&mv| any_setup::after(&position, mv).halfmove_clock() >= 100)
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
            let after = any_setup::after(&position, mv);
            history
                .iter()
                .filter(|seen| Board::same_position(seen, &after))
                .count()
                >= 2
        })
    }

    /// A board at this one's setup, without its moves.
    fn detached(&self) -> Board {
        Board {
            position: self.position,
            chess960: self.chess960,
            stack: Vec::new(),
            legal: None,
            loose: self.loose,
            root: Root {
                castling: self.raw_castling(),
                en_passant: self.raw_en_passant(),
                promoted: self.promoted_mask(),
            },
        }
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
/// `in`, and a repr in SAN. Made from a `Board`, it holds the board's moves
/// then; made from any other object with python-chess's board methods, it
/// asks that object each time, as python-chess's does.
macro_rules! move_generator {
    ($name:ident, $generate:literal, $test:literal, $make:ident, $doc:literal) => {
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
            /// Whether the position is loose (`crate::loose`).
            loose: bool,
            /// Another kind of board, asked each time.
            foreign: Option<Py<PyAny>>,
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
            #[new]
            fn new(board: &Bound<'_, PyAny>) -> PyResult<$name> {
                if let Ok(board) = board.cast::<Board>() {
                    let mut board = board.borrow_mut();
                    return Ok(board.$make());
                }
                Ok($name {
                    moves: Vec::new(),
                    notation: CastlingNotation::KingToTarget,
                    position: Position::START,
                    loose: false,
                    foreign: Some(board.clone().unbind()),
                })
            }

            fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
                match &self.foreign {
                    None => Ok(self.moves.len()),
                    Some(board) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                        "the moves of a {} are counted with count()",
                        board.bind(py).get_type().name()?
                    ))),
                }
            }

            fn count(&self, py: Python<'_>) -> PyResult<usize> {
                match &self.foreign {
                    None => Ok(self.moves.len()),
                    Some(board) => Ok(board.bind(py).call_method0($generate)?.try_iter()?.count()),
                }
            }

            fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
                match &self.foreign {
                    None => Ok(!self.moves.is_empty()),
                    Some(board) => Ok(board
                        .bind(py)
                        .call_method0($generate)?
                        .try_iter()?
                        .next()
                        .transpose()?
                        .is_some()),
                }
            }

            fn __contains__(&self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<bool> {
                if let Some(board) = &self.foreign {
                    return board.bind(py).call_method1($test, (mv,))?.is_truthy();
                }
                let Ok(mv) = mv.cast::<Move>() else {
                    return Ok(false);
                };
                Ok(find_in(&self.moves, self.notation, *mv.get()).is_some())
            }

            fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                if let Some(board) = &self.foreign {
                    return board
                        .bind(py)
                        .call_method0($generate)?
                        .try_iter()
                        .map(Bound::into_any);
                }
                let objects = Move::objects(py)?;
                PyList::new(py, self.written().map(|mv| mv.shared(py, objects)))?
                    .as_any()
                    .try_iter()
                    .map(Bound::into_any)
            }

            /// python-chess's repr: the moves in SAN (UCI for one that is
            /// not legal).
            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                if let Some(board) = &self.foreign {
                    let board = board.bind(py);
                    let mut sans = Vec::new();
                    for mv in board.call_method0($generate)?.try_iter()? {
                        sans.push(board.call_method1("san", (mv?,))?.extract::<String>()?);
                    }
                    return Ok(format!("<{} ({})>", stringify!($name), sans.join(", ")));
                }
                let legal = if self.loose {
                    any_setup::loose_legal_moves(&self.position)
                } else {
                    self.position.legal_moves()
                };
                let moves: Vec<String> = self
                    .moves
                    .iter()
                    .map(|&mv| {
                        if !legal.contains(&mv) {
                            mv.uci(self.notation).to_string()
                        } else if self.loose {
                            any_setup::san(&self.position, &legal, mv)
                        } else {
                            self.position.san(mv).to_string()
                        }
                    })
                    .collect();
                Ok(format!("<{} ({})>", stringify!($name), moves.join(", ")))
            }
        }
    };
}

move_generator!(
    LegalMoveGenerator,
    "generate_legal_moves",
    "is_legal",
    legal_generator,
    "The legal moves of a board (`board.legal_moves`)."
);
move_generator!(
    PseudoLegalMoveGenerator,
    "generate_pseudo_legal_moves",
    "is_pseudo_legal",
    pseudo_generator,
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

    /// The legal moves.
    #[getter]
    fn legal_moves(&mut self) -> LegalMoveGenerator {
        self.legal_generator()
    }

    /// Plays `move` (a legal `Move`, or the null move when not in check;
    /// `IllegalMoveError` otherwise).
    fn push(&mut self, r#move: Move) -> PyResult<()> {
        if r#move.is_null() {
            return self.play_null();
        }
        match self.resolve(&r#move) {
            Ok(mv) => self.play(mv),
            Err(error) => {
                // python-chess's contract: a pseudo-legal move is played,
                // the board left with the side not to move in check
                // (`status()` says so). Anything else is refused.
                let pseudo = self.pseudo_legal_list(u64::MAX, u64::MAX);
                let Some(mv) = find_in(&pseudo, self.notation(), r#move) else {
                    return Err(error);
                };
                self.play(mv);
                self.loose = true;
            }
        }
        Ok(())
    }

    /// Plays the move written in SAN (`Nf3`, `O-O`, `exd8=Q+`) and returns it.
    fn push_san(&mut self, san: &str) -> PyResult<Move> {
        if is_null_san(san) {
            self.play_null()?;
            return Ok(Move::NULL);
        }
        let mv = self.read_san(san)?;
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
        let mv = self.read_uci(uci)?;
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
        if self.loose {
            // Back, perhaps, to a position the generator takes.
            self.loose = !any_setup::generator_takes(&self.position);
        }
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
        if self.loose {
            let position = self.position;
            return Ok(any_setup::san(&position, self.legal(), mv));
        }
        Ok(self.position.san(mv).to_string())
    }

    /// `move` in UCI, castling as this board writes it.
    fn uci(&mut self, r#move: Move) -> PyResult<String> {
        let mv = self.resolve(&r#move)?;
        Ok(mv.uci(self.notation()).to_string())
    }

    /// The legal move written in SAN.
    fn parse_san(&mut self, san: &str) -> PyResult<Move> {
        if is_null_san(san) {
            return Ok(Move::NULL);
        }
        let mv = self.read_san(san)?;
        Ok(Move::from_move(mv, self.notation()))
    }

    /// The legal move written in UCI.
    fn parse_uci(&mut self, uci: &str) -> PyResult<Move> {
        let mv = self.read_uci(uci)?;
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
        *self = Board::read_fen(fen, self.chess960)?;
        Ok(())
    }

    /// The side to move: True for White.
    #[getter]
    fn turn(&self) -> bool {
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

    /// Half-moves since the start of the game (from the fullmove number).
    fn ply(&self) -> u32 {
        2 * (u32::from(self.position.fullmove_number()) - 1) + u32::from(!self.turn())
    }

    fn is_check(&self) -> bool {
        self.in_check()
    }

    fn is_checkmate(&mut self) -> bool {
        self.in_check() && !self.has_legal_moves()
    }

    fn is_stalemate(&mut self) -> bool {
        !self.in_check() && !self.has_legal_moves()
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

    /// The square of `color`'s king (the highest one's if there are
    /// several), or None.
    fn king(&self, color: bool) -> Option<u8> {
        any_setup::king_of(&self.position, self::color(color)).map(|square| square.index() as u8)
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
        if self.loose {
            return Ok(any_setup::gives_check(&self.position, mv));
        }
        Ok(self.position.gives_check(mv))
    }

    /// Whether `move` takes a piece of the side not to move (en passant
    /// included), by the squares it touches: legal or not, as python-chess.
    fn is_capture(&self, r#move: Move) -> bool {
        let touched = bit(r#move.from) | bit(r#move.to);
        let enemy = self
            .position
            .by_color(self.position.side_to_move().opponent())
            .0;
        touched & enemy != 0 || self.is_en_passant(r#move)
    }

    /// Whether `move` is a king's castling move: two files or more, or
    /// onto its own rook.
    fn is_castling(&self, r#move: Move) -> bool {
        if self.position.by_kind(PieceKind::King).0 & bit(r#move.from) == 0 {
            return false;
        }
        let files = (r#move.from % 8).abs_diff(r#move.to % 8);
        let own_rooks = self
            .position
            .pieces(self.position.side_to_move(), PieceKind::Rook)
            .0;
        files > 1 || own_rooks & bit(r#move.to) != 0
    }

    /// Whether `move` is a pawn's diagonal step onto the en passant square.
    fn is_en_passant(&self, r#move: Move) -> bool {
        let us = self.position.side_to_move();
        self.raw_en_passant().map(|square| square.index() as u8) == Some(r#move.to)
            && self.position.pieces(us, PieceKind::Pawn).0 & bit(r#move.from) != 0
            && matches!(r#move.to.abs_diff(r#move.from), 7 | 9)
            && self.position.occupied().0 & bit(r#move.to) == 0
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
        let moves: Vec<bitboards::Move> = any_setup::castling(self.legal(), from, to).collect();
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
        let moves = any_setup::pseudo_legal_en_passant(
            &self.position,
            bitboards::Bitboard(from_mask),
            bitboards::Bitboard(to_mask),
        );
        self.iterate(py, moves.collect())
    }

    /// The pseudo-legal moves (`len()`, iterate, `in`).
    #[getter]
    fn pseudo_legal_moves(&mut self) -> PseudoLegalMoveGenerator {
        self.pseudo_generator()
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
    fn has_legal_en_passant(&mut self) -> bool {
        self.legal_en_passant().is_some()
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
            bitboards::attacks::piece(piece, square, self.position.occupied()).0
        }))
    }

    /// The line through `square` along which `color`'s piece there is
    /// pinned to its king, or every square when it is not pinned.
    fn pin(&self, color: bool, square: i64) -> PyResult<Bitboard> {
        Ok(Bitboard(self.pin_mask(color, square)?))
    }

    /// `pin` as a mask.
    fn pin_mask(&self, color: bool, square: i64) -> PyResult<u64> {
        let color = self::color(color);
        let Some(king) = any_setup::king_of(&self.position, color) else {
            return Ok(u64::MAX);
        };
        Ok(any_setup::pin(&self.position, color, king, self::square(square)?).0)
    }

    /// Whether `color`'s piece on `square` is pinned to its king.
    fn is_pinned(&self, color: bool, square: i64) -> PyResult<bool> {
        Ok(self.pin_mask(color, square)? != u64::MAX)
    }

    /// The pieces giving check to the side to move.
    fn checkers(&self) -> Bitboard {
        Bitboard(self.checkers_now().0)
    }

    fn checkers_mask(&self) -> u64 {
        self.checkers_now().0
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

    /// The pieces that were promoted (set so, or made by a promotion).
    #[getter]
    fn promoted(&self) -> u64 {
        self.promoted_mask()
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
        const CORNERS: u64 = 0x8100_0000_0000_0081;
        let rights = self.raw().clean_castling(true).0;
        let king_home =
            |color, square: u64| self.position.pieces(color, PieceKind::King).0 & square != 0;
        rights & !CORNERS != 0
            || (rights & 0xFF != 0 && !king_home(Color::White, 1 << 4))
            || (rights & (0xFF << 56) != 0 && !king_home(Color::Black, 1 << 60))
    }

    /// The castling rights that are rights at all: the rook on its home
    /// rank with its king (standard chess: king on e1/e8, rooks in the
    /// corners; Chess960: one rook each side of the king).
    fn clean_castling_rights(&self) -> u64 {
        self.raw().clean_castling(self.chess960).0
    }

    /// python-chess's validity flags (`Status`): every rule the setup
    /// breaks, `STATUS_VALID` (0) for none.
    fn status(&self) -> u32 {
        self.raw().status(self.chess960).bits()
    }

    /// Whether the setup breaks no rule (`status() == STATUS_VALID`).
    fn is_valid(&self) -> bool {
        self.status() == 0
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
        let after = any_setup::after(&self.position, mv);
        after.castling() != self.position.castling() || self.legal_en_passant().is_some()
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
        *self = self.detached();
    }

    /// Mirrors the position in place (colours swapped, board flipped; the
    /// move stack cleared).
    fn apply_mirror(&mut self) {
        *self = self.mirror();
    }

    // python-chess's variant attributes, as its standard `Board` has them.

    #[classattr]
    fn aliases() -> Vec<&'static str> {
        vec![
            "Standard",
            "Chess",
            "Classical",
            "Normal",
            "Illegal",
            "From Position",
        ]
    }

    #[classattr]
    fn uci_variant() -> &'static str {
        "chess"
    }

    #[classattr]
    fn xboard_variant() -> &'static str {
        "normal"
    }

    #[classattr]
    fn starting_fen() -> &'static str {
        STARTING_FEN
    }

    #[classattr]
    fn tbw_suffix() -> &'static str {
        ".rtbw"
    }

    #[classattr]
    fn tbz_suffix() -> &'static str {
        ".rtbz"
    }

    #[classattr]
    fn tbw_magic() -> &'static [u8] {
        b"\x71\xe8\x23\x5d"
    }

    #[classattr]
    fn tbz_magic() -> &'static [u8] {
        b"\xd7\x66\x0c\xa5"
    }

    #[classattr]
    fn pawnless_tbw_suffix() -> Option<&'static str> {
        None
    }

    #[classattr]
    fn pawnless_tbz_suffix() -> Option<&'static str> {
        None
    }

    #[classattr]
    fn pawnless_tbw_magic() -> Option<&'static [u8]> {
        None
    }

    #[classattr]
    fn pawnless_tbz_magic() -> Option<&'static [u8]> {
        None
    }

    #[classattr]
    fn connected_kings() -> bool {
        false
    }

    #[classattr]
    fn one_king() -> bool {
        true
    }

    #[classattr]
    fn captures_compulsory() -> bool {
        false
    }

    /// Always False: standard chess ends by its rules alone (`outcome()`).
    fn is_variant_end(&self) -> bool {
        false
    }

    /// Always False (standard chess).
    fn is_variant_loss(&self) -> bool {
        false
    }

    /// Always False (standard chess).
    fn is_variant_win(&self) -> bool {
        false
    }

    /// Always False (standard chess).
    fn is_variant_draw(&self) -> bool {
        false
    }

    /// The mask of `color`'s pieces that attack `square`.
    fn attackers_mask(&self, color: bool, square: i64) -> PyResult<u64> {
        Ok(self
            .position
            .attackers(self::square(square)?, self::color(color))
            .0)
    }

    /// Whether the side not to move is in check (the last move left its
    /// own king attacked).
    fn was_into_check(&self) -> bool {
        let them = self.position.side_to_move().opponent();
        any_setup::king_of(&self.position, them)
            .is_some_and(|king| !self.position.attackers(king, them.opponent()).is_empty())
    }

    /// Whether the pseudo-legal `move` would leave the side to move's king
    /// attacked (False for a move that is not pseudo-legal).
    fn is_into_check(&mut self, r#move: Move) -> bool {
        let pseudo = self.pseudo_legal_list(u64::MAX, u64::MAX);
        let Some(mv) = find_in(&pseudo, self.notation(), r#move) else {
            return false;
        };
        let king = any_setup::king_of(&self.position, self.position.side_to_move());
        !any_setup::is_safe(&self.position, king, mv)
    }

    /// Whether `move` castles on the king's side.
    fn is_kingside_castling(&self, r#move: Move) -> bool {
        self.is_castling(r#move) && r#move.to % 8 > r#move.from % 8
    }

    /// Whether `move` castles on the queen's side.
    fn is_queenside_castling(&self, r#move: Move) -> bool {
        self.is_castling(r#move) && r#move.to % 8 < r#move.from % 8
    }

    /// `move` in SAN, then played.
    fn san_and_push(&mut self, r#move: Move) -> PyResult<String> {
        let san = self.san(r#move)?;
        self.push(r#move)?;
        Ok(san)
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

    /// The number of leaf nodes of the legal move tree `depth` plies deep,
    /// counted in Rust with the GIL released, on `threads` threads (all
    /// cores when None).
    #[pyo3(signature = (depth, threads = None))]
    fn perft(&self, py: Python<'_>, depth: u32, threads: Option<usize>) -> PyResult<u64> {
        if self.loose {
            return Err(PyValueError::new_err(format!(
                "perft needs a position with one king a side, no pawn on a back rank and the side not to move not in check: {}",
                self.fen_as(false, "legal")
            )));
        }
        let position = self.position;
        let threads = match threads {
            Some(1) => return Ok(py.detach(|| bitboards::perft(&position, depth))),
            // Every core: a pool made once per process (a pool of its own
            // per call cost a tenth of `perft(5)`'s time), and again in a
            // forked one (`pool::every_core`).
            None => {
                return Ok(py.detach(|| {
                    crate::pool::every_core(|| bitboards::perft_parallel(&position, depth))
                }));
            }
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
        let checked = self
            .in_check()
            .then(|| any_setup::king_of(&self.position, self.position.side_to_move()))
            .flatten();
        crate::svg::board(&self.position, last, checked, size, flipped)
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

/// A board from its start FEN, what python-chess keeps beside it (the
/// castling rights and en passant square as set, the promoted pieces) and
/// its moves in UCI: what pickle stores.
#[pyfunction]
#[pyo3(signature = (fen, chess960, moves, castling = None, en_passant = None, promoted = 0))]
pub fn board_from_state(
    fen: &str,
    chess960: bool,
    moves: Vec<String>,
    castling: Option<u64>,
    en_passant: Option<i64>,
    promoted: u64,
) -> PyResult<Board> {
    let mut board = Board::read_fen(fen, chess960)?;
    if let Some(castling) = castling {
        let mut raw = board.raw();
        raw.castling = bitboards::Bitboard(castling);
        raw.en_passant = en_passant.map(square).transpose()?;
        raw.promoted = bitboards::Bitboard(promoted);
        board.reset_to(&raw);
    }
    for uci in &moves {
        board.push(Move::parse_uci(uci)?)?;
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
        let raw = self.raw_en_passant();
        let shown = match en_passant {
            "fen" => raw,
            "xfen" => raw.filter(|&square| !self.en_passant_takers(square).is_empty()),
            _ => raw.filter(|&square| self.legal_en_passant_ro() == Some(square)),
        };
        // The position's FEN writes its own square: most often the one
        // to show.
        if shown == self.position.en_passant() {
            return text;
        }
        let mut fields: Vec<&str> = text.split(' ').collect();
        if let Some(field) = fields.get_mut(3) {
            *field = shown.map_or("-", |square| square.name());
        }
        fields.join(" ")
    }

    /// The pawns of the side to move that can take en passant on `square`
    /// by how pawns move (python-chess's pseudo-legal en passant).
    fn en_passant_takers(&self, square: Square) -> bitboards::Bitboard {
        let position = &self.position;
        let us = position.side_to_move();
        if position.occupied().contains(square) {
            return bitboards::Bitboard::EMPTY;
        }
        bitboards::attacks::pawn(us.opponent(), square) & position.pieces(us, PieceKind::Pawn)
    }

    /// The en passant square, where a capture there is legal.
    fn legal_en_passant(&mut self) -> Option<Square> {
        let square = self.position.en_passant()?;
        self.legal()
            .iter()
            .any(|mv| mv.kind() == MoveKind::EnPassant)
            .then_some(square)
    }

    /// `legal_en_passant` without the board's move cache.
    fn legal_en_passant_ro(&self) -> Option<Square> {
        if self.loose {
            let square = self.position.en_passant()?;
            let legal = any_setup::loose_legal_moves(&self.position);
            legal
                .iter()
                .any(|mv| mv.kind() == MoveKind::EnPassant)
                .then_some(square)
        } else {
            self.position.legal_en_passant()
        }
    }

    fn legal_generator(&mut self) -> LegalMoveGenerator {
        LegalMoveGenerator {
            moves: self.legal().as_slice().to_vec(),
            notation: self.notation(),
            position: self.position,
            loose: self.loose,
            foreign: None,
        }
    }

    fn pseudo_generator(&mut self) -> PseudoLegalMoveGenerator {
        PseudoLegalMoveGenerator {
            moves: self.pseudo_legal_list(u64::MAX, u64::MAX),
            notation: self.notation(),
            position: self.position,
            loose: self.loose,
            foreign: None,
        }
    }

    /// The legal move written `san`.
    fn read_san(&mut self, san: &str) -> PyResult<bitboards::Move> {
        if self.loose {
            let position = self.position;
            return any_setup::parse_san(&position, self.legal(), san).ok_or_else(|| {
                IllegalMoveError::new_err(format!(
                    "illegal san: {san:?} in {}",
                    self.fen_as(false, "legal")
                ))
            });
        }
        self.position
            .parse_san(san)
            .map_err(|error| san_error(san, &error))
    }

    /// The legal move written `uci`.
    fn read_uci(&mut self, uci: &str) -> PyResult<bitboards::Move> {
        if self.loose {
            let notation = self.notation();
            let found = self
                .legal()
                .iter()
                .copied()
                .find(|mv| mv.uci(notation).to_string() == uci);
            return found.ok_or_else(|| {
                IllegalMoveError::new_err(format!(
                    "illegal uci: {uci:?} in {}",
                    self.fen_as(false, "legal")
                ))
            });
        }
        self.position
            .parse_uci(uci)
            .map_err(|error| uci_error(uci, &error))
    }

    /// Sets the setup to `raw`, keeping the move stack (python-chess's
    /// property setters do).
    fn rebuild(&mut self, raw: &AnySetup) {
        if self.stack.is_empty() {
            self.reset_to(raw);
            return;
        }
        let (position, loose) = raw.to_position(self.chess960);
        self.position = position;
        self.loose = loose;
        self.legal = None;
    }

    /// The pseudo-legal moves within the masks.
    fn pseudo_legal_list(&mut self, from_mask: u64, to_mask: u64) -> Vec<bitboards::Move> {
        let position = self.position;
        any_setup::pseudo_legal_moves(
            &position,
            self.legal(),
            bitboards::Bitboard(from_mask),
            bitboards::Bitboard(to_mask),
        )
        .into_iter()
        .collect()
    }

    /// Passes the turn (python-chess's null move, `--`): not while in
    /// check, where the position would have the side not to move in check.
    fn play_null(&mut self) -> PyResult<()> {
        let after = if self.loose {
            (!self.in_check()).then(|| any_setup::null_move(&self.position))
        } else {
            self.position.null_move()
        };
        let Some(after) = after else {
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

    /// Whether a pawn can capture en passant by how pawns move.
    fn pseudo_en_passant(&self) -> bool {
        let all = bitboards::Bitboard(u64::MAX);
        any_setup::pseudo_legal_en_passant(&self.position, all, all)
            .next()
            .is_some()
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

/// The mask of the square numbered `index` (none past h8).
fn bit(index: u8) -> u64 {
    1u64.checked_shl(u32::from(index)).unwrap_or(0)
}

/// Whether a move captures: en passant, or onto an enemy piece (castling
/// onto its own rook does not).
fn is_capture(mv: bitboards::Move, enemy: bitboards::Bitboard) -> bool {
    mv.kind() == MoveKind::EnPassant || (!mv.is_castling() && enemy.contains(mv.to()))
}
