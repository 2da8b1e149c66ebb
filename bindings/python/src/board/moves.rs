//! `Board`'s moves: generated, tested, played and taken back, written in
//! SAN, UCI and XBoard, counted by perft.

use bitboards::any_setup;
use bitboards::{MoveKind, PieceKind};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

use super::generators::{LegalMoveGenerator, PseudoLegalMoveGenerator};
use super::state::{Board, bit, find_in, is_capture, is_null_san, python_part};
use super::types::Move;

#[pymethods]
impl Board {
    /// The legal moves.
    #[getter]
    fn legal_moves(&mut self) -> LegalMoveGenerator {
        self.legal_generator()
    }

    /// Plays `move` (a legal `Move`, or the null move when not in check;
    /// `IllegalMoveError` otherwise).
    pub(crate) fn push(&mut self, r#move: Move) -> PyResult<()> {
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
            self.loose = any_setup::is_loose(&self.position);
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

    /// Half-moves since the start of the game (from the fullmove number).
    fn ply(&self) -> u32 {
        2 * (u32::from(self.position.fullmove_number()) - 1) + u32::from(!self.turn())
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
}
