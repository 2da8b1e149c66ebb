//! What a `Board` says of itself: its pieces and their attacks, checks
//! and pins, castling rights, `status()`, and how the game ends.

use bitboards::any_setup;
use bitboards::{CastlingSide, Color, PieceKind};
use pyo3::prelude::*;

use super::outcome::{Outcome, Termination};
use super::state::{Board, STARTING_FEN};
use super::types::{Bitboard, Piece, color, is_white, piece_kind, square};

#[pymethods]
impl Board {
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
            .map(|piece| super::types::piece_type(piece.kind())))
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
}
