//! `Board`'s state: the position, the move stack, and what python-chess
//! keeps of a setup beside them; the helpers its methods share.

use bitboards::any_setup::{self, AnySetup};
use bitboards::{CastlingNotation, Color, MoveKind, MoveList, PieceKind, Position, Square};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use super::outcome::Termination;
use super::types::{Move, square};
use crate::errors::{IllegalMoveError, fen_error, san_error, uci_error};

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
    pub(super) position: Position,
    pub(super) chess960: bool,
    /// Each move played and the position before it.
    pub(super) stack: Vec<(Position, bitboards::Move)>,
    /// The legal moves of `position`, once asked for.
    pub(super) legal: Option<MoveList>,
    /// Whether `position` is loose (`crate::loose`): a setup the crate's
    /// move generator does not take, whose moves `loose` finds.
    pub(super) loose: bool,
    /// What python-chess keeps of the setup under the move stack that
    /// `position` does not hold.
    pub(super) root: Root,
}

/// What python-chess keeps of a setup beside what the position holds: the
/// castling rights as set (not cleaned), the en passant square as set
/// (even where no pawn can take), the promoted pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Root {
    pub(super) castling: u64,
    pub(super) en_passant: Option<Square>,
    pub(super) promoted: u64,
}

impl Root {
    /// What a valid position holds: its rights, its en passant square.
    pub(super) fn of(position: &Position) -> Root {
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
    pub(super) fn from_raw(raw: &AnySetup, chess960: bool) -> Board {
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
    pub(super) fn read_fen(fen: &str, chess960: bool) -> PyResult<Board> {
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
    pub(super) fn raw(&self) -> AnySetup {
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
    pub(super) fn reset_to(&mut self, raw: &AnySetup) {
        *self = Board::from_raw(raw, self.chess960);
    }

    /// The castling rights as python-chess holds them: as set under the
    /// stack, clean after a move.
    pub(super) fn raw_castling(&self) -> u64 {
        if self.stack.is_empty() {
            self.root.castling
        } else {
            self.position.castling_rooks().0
        }
    }

    /// python-chess's en passant square: as set under the stack; after a
    /// move, the square a double push skipped.
    pub(super) fn raw_en_passant(&self) -> Option<Square> {
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
    pub(super) fn promoted_mask(&self) -> u64 {
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
    pub(super) fn checkers_now(&self) -> bitboards::Bitboard {
        if self.loose {
            any_setup::checkers(&self.position)
        } else {
            self.position.checkers()
        }
    }

    pub(super) fn in_check(&self) -> bool {
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
            .any(|(before, _)| any_setup::is_loose(before))
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

    pub(super) fn notation(&self) -> CastlingNotation {
        if self.chess960 {
            CastlingNotation::KingTakesRook
        } else {
            self.position.castling_notation()
        }
    }

    pub(super) fn legal(&mut self) -> &MoveList {
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
    pub(super) fn resolve(&mut self, mv: &Move) -> PyResult<bitboards::Move> {
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

    pub(super) fn play(&mut self, mv: bitboards::Move) {
        let before = self.position;
        if self.loose {
            self.position = any_setup::after(&before, mv);
        } else {
            self.position.play_unchecked_in_place(mv);
        }
        self.stack.push((before, mv));
        self.legal = None;
    }

    /// The positions that count for repetition are equal: pieces, side to
    /// move, castling rights and a legal en passant square.
    pub(super) fn same_position(a: &Position, b: &Position) -> bool {
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

    pub(super) fn repetitions(&self, count: usize) -> bool {
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

    pub(super) fn has_legal_moves(&mut self) -> bool {
        !self.legal().is_empty()
    }

    /// python-chess's order: checkmate, insufficient material, stalemate,
    /// the 75-move rule, fivefold repetition; with `claim_draw` the 50-move
    /// rule and threefold repetition.
    pub(super) fn outcome_of(&mut self, claim_draw: bool) -> Option<Termination> {
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
    pub(super) fn can_claim_fifty_moves(&mut self) -> bool {
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
    pub(super) fn can_claim_threefold_repetition(&mut self) -> bool {
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
    pub(super) fn detached(&self) -> Board {
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

/// The move among `legal` that `mv` stands for on a board that writes
/// castling in `notation`. On a standard board castling may also be written
/// king-takes-rook (python-chess accepts both there); on a Chess960 board
/// only so.
pub(super) fn find_legal(
    legal: &MoveList,
    notation: CastlingNotation,
    mv: Move,
) -> Option<bitboards::Move> {
    find_in(legal.as_slice(), notation, mv)
}

/// The move among `moves` that `mv` stands for (castling written either
/// way on a standard board, as `find_legal`).
pub(super) fn find_in(
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
pub(super) fn move_iter<'py>(
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
pub(super) fn python_part<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("bitboards._board")?.getattr(name)
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

/// The FEN python-chess's `fen(shredder=chess960, en_passant="fen")`
/// writes for a board as python-chess holds it: a mask per piece kind
/// (pawns to kings), White's squares, the turn, the castling rooks, the en
/// passant square and the clocks. What engines are sent a python-chess
/// board as: python-chess's own `fen()` is slow.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn fen_of_masks(
    kinds: [u64; 6],
    white: u64,
    turn: bool,
    castling: u64,
    en_passant: Option<i64>,
    halfmove_clock: u16,
    fullmove_number: u16,
    chess960: bool,
) -> PyResult<String> {
    let mut raw = AnySetup::EMPTY;
    for (kind, mask) in PieceKind::ALL.into_iter().zip(kinds) {
        for square in bitboards::Bitboard(mask) {
            let color = if white >> square.index() & 1 == 1 {
                Color::White
            } else {
                Color::Black
            };
            raw.board[square.index()] = Some(bitboards::Piece::new(color, kind));
        }
    }
    raw.side_to_move = if turn { Color::White } else { Color::Black };
    raw.castling = bitboards::Bitboard(castling);
    raw.en_passant = en_passant.map(square).transpose()?;
    raw.halfmove_clock = halfmove_clock;
    raw.fullmove_number = fullmove_number;
    Ok(Board::from_raw(&raw, chess960).fen_as(chess960, "fen"))
}

impl Board {
    /// The FEN as `fen` writes it, with the en passant rule given.
    pub(super) fn fen_as(&self, shredder: bool, en_passant: &str) -> String {
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
    pub(super) fn en_passant_takers(&self, square: Square) -> bitboards::Bitboard {
        any_setup::en_passant_takers(&self.position, square)
    }

    /// The en passant square, where a capture there is legal.
    pub(super) fn legal_en_passant(&mut self) -> Option<Square> {
        let square = self.position.en_passant()?;
        self.legal()
            .iter()
            .any(|mv| mv.kind() == MoveKind::EnPassant)
            .then_some(square)
    }

    /// `legal_en_passant` without the board's move cache.
    pub(super) fn legal_en_passant_ro(&self) -> Option<Square> {
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

    /// The legal move written `san`.
    pub(super) fn read_san(&mut self, san: &str) -> PyResult<bitboards::Move> {
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
    pub(super) fn read_uci(&mut self, uci: &str) -> PyResult<bitboards::Move> {
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
    pub(super) fn rebuild(&mut self, raw: &AnySetup) {
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
    pub(super) fn pseudo_legal_list(
        &mut self,
        from_mask: u64,
        to_mask: u64,
    ) -> Vec<bitboards::Move> {
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
    pub(super) fn play_null(&mut self) -> PyResult<()> {
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
    pub(super) fn legal_where(
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
    pub(super) fn pseudo_en_passant(&self) -> bool {
        let all = bitboards::Bitboard(u64::MAX);
        any_setup::pseudo_legal_en_passant(&self.position, all, all)
            .next()
            .is_some()
    }

    /// Whether `mv` resets the fifty-move counter.
    pub(super) fn zeroing(&self, mv: bitboards::Move) -> bool {
        let enemy = self
            .position
            .by_color(self.position.side_to_move().opponent());
        self.position.piece_on(mv.from()).map(|piece| piece.kind()) == Some(PieceKind::Pawn)
            || is_capture(mv, enemy)
    }

    /// `moves` as python-chess's generators give them: an iterator of
    /// moves written as this board writes castling.
    pub(super) fn iterate<'py>(
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
pub(super) fn is_null_san(san: &str) -> bool {
    matches!(san, "--" | "Z0" | "0000" | "@@@@")
}

/// `ValueError` unless `en_passant` is one of python-chess's three rules.
pub(super) fn check_en_passant(en_passant: &str) -> PyResult<()> {
    if matches!(en_passant, "legal" | "xfen" | "fen") {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "en_passant must be \"legal\", \"xfen\" or \"fen\", not {en_passant:?}"
        )))
    }
}

/// The mask of the square numbered `index` (none past h8).
pub(super) fn bit(index: u8) -> u64 {
    1u64.checked_shl(u32::from(index)).unwrap_or(0)
}

/// Whether a move captures: en passant, or onto an enemy piece (castling
/// onto its own rook does not).
pub(super) fn is_capture(mv: bitboards::Move, enemy: bitboards::Bitboard) -> bool {
    mv.kind() == MoveKind::EnPassant || (!mv.is_castling() && enemy.contains(mv.to()))
}
