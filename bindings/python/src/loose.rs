//! Any setup, as python-chess's `Board` holds it: a FEN read as python-chess
//! reads it (no king, too much material, castling rights without their
//! rook, an en passant square no pawn could have made), python-chess's
//! `status()` of it, the position a `Board` plays on, and the moves of a
//! board the crate's move generator does not take (a side without exactly
//! one king, a pawn on a back rank, the side not to move in check).
//!
//! A setup that keeps the rules the move generator needs (one king a side,
//! no pawn on a back rank, the side not to move not in check) is played by
//! the crate's generator, whatever else is wrong with it (material no game
//! reaches, an impossible check). Other setups are "loose": their moves are
//! the pseudo-legal moves that leave the side to move's king (python-chess's:
//! the highest square's, if any) unattacked, found the slow way here, with
//! no castling.

use bitboards::{
    Bitboard, CastlingRights, CastlingSide, Color, Move, MoveKind, MoveList, Piece, PieceKind,
    Position, PositionError, Setup, Square, attacks,
};

use crate::pseudo;

// python-chess's `Status` flags.
pub const NO_WHITE_KING: u32 = 1 << 0;
pub const NO_BLACK_KING: u32 = 1 << 1;
pub const TOO_MANY_KINGS: u32 = 1 << 2;
pub const TOO_MANY_WHITE_PAWNS: u32 = 1 << 3;
pub const TOO_MANY_BLACK_PAWNS: u32 = 1 << 4;
pub const PAWNS_ON_BACKRANK: u32 = 1 << 5;
pub const TOO_MANY_WHITE_PIECES: u32 = 1 << 6;
pub const TOO_MANY_BLACK_PIECES: u32 = 1 << 7;
pub const BAD_CASTLING_RIGHTS: u32 = 1 << 8;
pub const INVALID_EP_SQUARE: u32 = 1 << 9;
pub const OPPOSITE_CHECK: u32 = 1 << 10;
pub const EMPTY: u32 = 1 << 11;
pub const TOO_MANY_CHECKERS: u32 = 1 << 15;
pub const IMPOSSIBLE_CHECK: u32 = 1 << 16;

const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;

/// A setup as python-chess holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawSetup {
    pub board: [Option<Piece>; 64],
    pub turn: Color,
    /// The castling rights as set: rook squares, not cleaned.
    pub castling: u64,
    /// The en passant square as set, whether or not a pawn could have
    /// made it.
    pub en_passant: Option<Square>,
    pub halfmove_clock: u16,
    pub fullmove_number: u16,
    /// python-chess's promoted pieces (`~` after a piece in a FEN).
    pub promoted: u64,
}

impl RawSetup {
    /// No pieces, White to move, no rights, the clocks at their start.
    pub const EMPTY: RawSetup = RawSetup {
        board: [None; 64],
        turn: Color::White,
        castling: 0,
        en_passant: None,
        halfmove_clock: 0,
        fullmove_number: 1,
        promoted: 0,
    };

    /// The pieces, side to move and clocks on a position without any rule
    /// checked (castling and en passant left out: they are python-chess's
    /// to judge).
    fn placement(&self) -> Position {
        Position::from_setup_unchecked(Setup {
            board: self.board,
            side_to_move: self.turn,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number.max(1),
        })
    }
}

/// The king python-chess takes for `color`: the highest square's.
pub fn king_of(position: &Position, color: Color) -> Option<Square> {
    position.pieces(color, PieceKind::King).last()
}

/// A FEN read as python-chess reads it: any placement (`~` marking a
/// promoted piece), the fields after the first optional (`w`, `-`, `-`,
/// 0, 1), castling letters resolved against the pieces as python-chess
/// resolves them. None when it is not a FEN at all.
pub fn parse_fen(fen: &str) -> Option<RawSetup> {
    let mut fields = fen.split_ascii_whitespace();
    let placement = fields.next()?;
    let mut raw = RawSetup::EMPTY;
    let (board, promoted) = parse_board(placement)?;
    raw.board = board;
    raw.promoted = promoted;
    raw.turn = match fields.next().unwrap_or("w") {
        "w" => Color::White,
        "b" => Color::Black,
        _ => return None,
    };
    raw.castling = castling_mask(&raw.board, fields.next().unwrap_or("-"))?;
    raw.en_passant = match fields.next().unwrap_or("-") {
        "-" => None,
        name => Some(name.parse::<Square>().ok()?),
    };
    raw.halfmove_clock = fields.next().map_or(Some(0), |clock| clock.parse().ok())?;
    raw.fullmove_number = fields
        .next()
        .map_or(Some(1), |number| number.parse::<u16>().ok())?
        .max(1);
    fields.next().is_none().then_some(raw)
}

/// A FEN's first field: the pieces, and the promoted ones (`~`).
pub fn parse_board(placement: &str) -> Option<([Option<Piece>; 64], u64)> {
    let mut board = [None; 64];
    let mut promoted = 0u64;
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 8 {
        return None;
    }
    for (row, text) in rows.iter().enumerate() {
        let rank = 7 - row;
        let mut file = 0usize;
        let mut last: Option<usize> = None;
        for byte in text.bytes() {
            match byte {
                b'1'..=b'8' => {
                    file += usize::from(byte - b'0');
                    last = None;
                }
                b'~' => promoted |= 1u64 << last?,
                _ => {
                    let piece = Piece::from_char(char::from(byte))?;
                    if file >= 8 {
                        return None;
                    }
                    board[rank * 8 + file] = Some(piece);
                    last = Some(rank * 8 + file);
                    file += 1;
                }
            }
            if file > 8 {
                return None;
            }
        }
        if file != 8 {
            return None;
        }
    }
    Some((board, promoted))
}

/// python-chess's castling field as rook squares: `K`/`Q` the outermost
/// rook beyond the king on that side (the corner when there is none),
/// file letters their rook's square; not cleaned.
pub fn castling_mask(board: &[Option<Piece>; 64], field: &str) -> Option<u64> {
    if field == "-" {
        return Some(0);
    }
    let mut mask = 0u64;
    for letter in field.chars() {
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let backrank = match color {
            Color::White => RANK_1,
            Color::Black => RANK_8,
        };
        let own = |kind| {
            board
                .iter()
                .enumerate()
                .filter(|(_, piece)| **piece == Some(Piece::new(color, kind)))
                .fold(0u64, |mask, (index, _)| mask | 1 << index)
                & backrank
        };
        let rooks = own(PieceKind::Rook);
        let king = own(PieceKind::King);
        let king = (king != 0).then(|| 63 - king.leading_zeros());
        let corner = |file: u32| backrank & (0x0101_0101_0101_0101u64 << file);
        mask |= match letter.to_ascii_lowercase() {
            'q' => match king {
                Some(king) if rooks != 0 && rooks.trailing_zeros() < king => {
                    rooks & rooks.wrapping_neg()
                }
                _ => corner(0),
            },
            'k' => match king {
                Some(king) if rooks != 0 && king < 63 - rooks.leading_zeros() => {
                    1u64 << (63 - rooks.leading_zeros())
                }
                _ => corner(7),
            },
            file @ 'a'..='h' => corner(u32::from(file as u8 - b'a')),
            _ => return None,
        };
    }
    Some(mask)
}

/// python-chess's `clean_castling_rights`: the rights that have their rook
/// and their king on its home rank (standard chess: the king on e1/e8 and
/// the rooks in the corners; Chess960: one right a side of the king).
pub fn clean_castling(raw: &RawSetup, chess960: bool) -> u64 {
    clean_castling_of(raw, &raw.placement(), chess960)
}

/// [`clean_castling`] with `raw`'s placement made already.
fn clean_castling_of(raw: &RawSetup, position: &Position, chess960: bool) -> u64 {
    let rooks = position.by_kind(PieceKind::Rook).0 & raw.castling;
    let kings = position.by_kind(PieceKind::King).0 & !raw.promoted;
    let mut clean = 0;
    for (color, backrank) in [(Color::White, RANK_1), (Color::Black, RANK_8)] {
        let own = position.by_color(color).0;
        let mut castling = rooks & own & backrank;
        let king_mask = kings & own & backrank;
        if !chess960 {
            castling &= backrank & 0x8100_0000_0000_0081;
            let home = backrank & 0x1000_0000_0000_0010;
            if king_mask & home == 0 {
                castling = 0;
            }
            clean |= castling;
            continue;
        }
        if king_mask == 0 || castling == 0 {
            continue;
        }
        let king = 63 - king_mask.leading_zeros();
        let a_side = castling & castling.wrapping_neg();
        let h_side = 1u64 << (63 - castling.leading_zeros());
        if a_side.trailing_zeros() < king {
            clean |= a_side;
        }
        if h_side.trailing_zeros() > king {
            clean |= h_side;
        }
    }
    clean
}

/// The rights of a clean castling mask, each rook's side by its king.
fn rights_of(position: &Position, clean: u64) -> CastlingRights {
    let mut rights = CastlingRights::NONE;
    for rook in Bitboard(clean) {
        let color = if rook.rank().index() == 0 {
            Color::White
        } else {
            Color::Black
        };
        let Some(king) = king_of(position, color) else {
            continue;
        };
        let side = if rook.file().index() < king.file().index() {
            CastlingSide::QueenSide
        } else {
            CastlingSide::KingSide
        };
        rights = rights.with(color, side, Some(rook.file()));
    }
    rights
}

/// python-chess's `_valid_ep_square`: the en passant square, if a pawn of
/// the side not to move stands in front of it, and it and the square
/// behind it are empty.
pub fn valid_en_passant(raw: &RawSetup) -> Option<Square> {
    let square = raw.en_passant?;
    let index = square.index();
    let (rank, pawn, behind) = match raw.turn {
        Color::White => (5, index.checked_sub(8)?, index + 8),
        Color::Black => (2, index + 8, index.checked_sub(8)?),
    };
    if square.rank().index() != rank || pawn >= 64 || behind >= 64 {
        return None;
    }
    let them = raw.turn.opponent();
    (raw.board[pawn] == Some(Piece::new(them, PieceKind::Pawn))
        && raw.board[index].is_none()
        && raw.board[behind].is_none())
    .then_some(square)
}

/// The squares from which `by`'s pieces attack `square`, sliders seen
/// through `occupied` (python-chess's `_attackers_mask`).
fn attackers_through(
    position: &Position,
    square: Square,
    by: Color,
    occupied: Bitboard,
) -> Bitboard {
    let kind = |kind| position.by_kind(kind);
    let queens = kind(PieceKind::Queen);
    (attacks::knight(square) & kind(PieceKind::Knight)
        | attacks::king(square) & kind(PieceKind::King)
        | attacks::pawn(by.opponent(), square) & kind(PieceKind::Pawn)
        | attacks::bishop(square, occupied) & (kind(PieceKind::Bishop) | queens)
        | attacks::rook(square, occupied) & (kind(PieceKind::Rook) | queens))
        & position.by_color(by)
}

/// python-chess's `status()` of `raw`: the flags of every rule it breaks.
pub fn status(raw: &RawSetup, chess960: bool) -> u32 {
    let position = raw.placement();
    let mut errors = 0;
    let occupied = position.occupied();
    let kings = position.by_kind(PieceKind::King);
    let pawns = position.by_kind(PieceKind::Pawn);
    let (white, black) = (
        position.by_color(Color::White),
        position.by_color(Color::Black),
    );
    if occupied.is_empty() {
        errors |= EMPTY;
    }
    if (white & kings).is_empty() {
        errors |= NO_WHITE_KING;
    }
    if (black & kings).is_empty() {
        errors |= NO_BLACK_KING;
    }
    if kings.count() > 2 {
        errors |= TOO_MANY_KINGS;
    }
    if white.count() > 16 {
        errors |= TOO_MANY_WHITE_PIECES;
    }
    if black.count() > 16 {
        errors |= TOO_MANY_BLACK_PIECES;
    }
    if (white & pawns).count() > 8 {
        errors |= TOO_MANY_WHITE_PAWNS;
    }
    if (black & pawns).count() > 8 {
        errors |= TOO_MANY_BLACK_PAWNS;
    }
    if pawns.0 & (RANK_1 | RANK_8) != 0 {
        errors |= PAWNS_ON_BACKRANK;
    }
    if raw.castling != clean_castling_of(raw, &position, chess960) {
        errors |= BAD_CASTLING_RIGHTS;
    }
    let valid = valid_en_passant(raw);
    if raw.en_passant != valid {
        errors |= INVALID_EP_SQUARE;
    }
    let us = raw.turn;
    let not_promoted = !Bitboard(raw.promoted);
    let king = |color| (position.pieces(color, PieceKind::King) & not_promoted).last();
    if let Some(theirs) = king(us.opponent())
        && !position.attackers(theirs, us).is_empty()
    {
        errors |= OPPOSITE_CHECK;
    }
    let checkers = king(us).map_or(Bitboard::EMPTY, |ours| {
        position.attackers(ours, us.opponent())
    });
    let (Some(first), Some(last)) = (checkers.first(), checkers.last()) else {
        return errors;
    };
    let count = checkers.count();
    if count > 2 {
        errors |= TOO_MANY_CHECKERS;
    }
    let our_kings = position.pieces(us, PieceKind::King) & not_promoted;
    let impossible = match valid {
        Some(square) => {
            // The double push that made the square: the pawn now on
            // `pushed_to` stood on `pushed_from`.
            let pushed_to = Square::new(square.index() as u8 ^ 8).unwrap_or(square);
            let pushed_from = Square::new(square.index() as u8 ^ 24).unwrap_or(square);
            let before = (occupied & !pushed_to.bitboard()) | pushed_from.bitboard();
            count > 1
                || (last != pushed_to
                    && our_kings.into_iter().any(|king| {
                        !attackers_through(&position, king, us.opponent(), before).is_empty()
                    }))
        }
        None => count > 2 || (count == 2 && !(bitboards::line(first, last) & our_kings).is_empty()),
    };
    if impossible {
        errors |= IMPOSSIBLE_CHECK;
    }
    errors
}

/// The position a board plays on for `raw`, and whether it is loose (its
/// moves found here, not by the crate's generator). Castling rights are
/// the clean ones; the en passant square is kept where a pawn can take
/// there, as the crate keeps it after a double push.
pub fn build(raw: &RawSetup, chess960: bool) -> (Position, bool) {
    let placement = raw.placement();
    let castling = rights_of(&placement, clean_castling_of(raw, &placement, chess960));
    let us = raw.turn;
    let en_passant = valid_en_passant(raw).filter(|&square| {
        !(attacks::pawn(us.opponent(), square) & placement.pieces(us, PieceKind::Pawn)).is_empty()
    });
    let setup = Setup {
        board: raw.board,
        side_to_move: us,
        castling,
        en_passant,
        halfmove_clock: raw.halfmove_clock,
        fullmove_number: raw.fullmove_number.max(1),
    };
    let unchecked = Position::from_setup_unchecked(setup);
    if !generator_takes(&placement) {
        return (unchecked, true);
    }
    match Position::from_setup_allow_impossible_check(setup) {
        Ok(position) => (position, false),
        // The generator does not count material; the rules after it in
        // `PositionError`'s order hold by construction (clean rights, an
        // en passant square with its pawn, the side not to move not in
        // check, impossible checks waived).
        Err(PositionError::TooMuchMaterial { .. }) => (unchecked, false),
        Err(_) => (unchecked, true),
    }
}

/// The position after `mv`, a legal move of `position`, loose or not
/// (`Position::play_unchecked` asserts in debug builds that the position
/// is one the generator takes).
pub fn after(position: &Position, mv: Move) -> Position {
    let mut after = *position;
    after.play_unchecked_in_place(mv);
    after
}

/// Whether the crate's move generator takes the position's placement: one
/// king a side, no pawn on a back rank, the side not to move not in check.
pub fn generator_takes(position: &Position) -> bool {
    let one_king = |color| position.pieces(color, PieceKind::King).count() == 1;
    let back_rank_pawn = position.by_kind(PieceKind::Pawn).0 & (RANK_1 | RANK_8) != 0;
    let them = position.side_to_move().opponent();
    let opposite_check = king_of(position, them)
        .is_some_and(|king| !position.attackers(king, them.opponent()).is_empty());
    one_king(Color::White) && one_king(Color::Black) && !back_rank_pawn && !opposite_check
}

/// The side to move's king's attackers (none without a king).
pub fn checkers(position: &Position) -> Bitboard {
    let us = position.side_to_move();
    king_of(position, us).map_or(Bitboard::EMPTY, |king| {
        position.attackers(king, us.opponent())
    })
}

/// Whether `mv` leaves the side to move's king (if any) unattacked.
pub fn is_safe(position: &Position, king: Option<Square>, mv: Move) -> bool {
    let Some(king) = king else {
        return true;
    };
    let us = position.side_to_move();
    let after = after(position, mv);
    let king = if mv.from() == king { mv.to() } else { king };
    after.attackers(king, us.opponent()).is_empty()
}

/// The legal moves of a loose position: its pseudo-legal moves (no
/// castling) that leave its king unattacked.
pub fn legal_moves(position: &Position) -> MoveList {
    let all = Bitboard::FULL;
    let king = king_of(position, position.side_to_move());
    let mut list = MoveList::new();
    for mv in pseudo::pseudo_legal(position, &MoveList::new(), all, all) {
        if is_safe(position, king, mv) {
            list.push(mv);
        }
    }
    list
}

/// Whether `mv` (legal here) checks the other side's king.
pub fn gives_check(position: &Position, mv: Move) -> bool {
    let after = after(position, mv);
    !checkers(&after).is_empty()
}

/// The position after passing the turn.
pub fn null_move(position: &Position) -> Position {
    let mut setup = position.setup();
    if setup.side_to_move == Color::Black {
        setup.fullmove_number = setup.fullmove_number.saturating_add(1);
    }
    setup.side_to_move = setup.side_to_move.opponent();
    setup.en_passant = None;
    setup.halfmove_clock = setup.halfmove_clock.saturating_add(1);
    Position::from_setup_unchecked(setup)
}

/// `mv` (among `legal`, the position's legal moves) in SAN.
pub fn san(position: &Position, legal: &MoveList, mv: Move) -> String {
    let mut text = san_plain(position, legal, mv);
    let after = after(position, mv);
    if !checkers(&after).is_empty() {
        text.push(if legal_moves(&after).is_empty() {
            '#'
        } else {
            '+'
        });
    }
    text
}

/// SAN without the check mark.
fn san_plain(position: &Position, legal: &MoveList, mv: Move) -> String {
    let Some(piece) = position.piece_on(mv.from()) else {
        return mv.to_string();
    };
    let (from, to) = (mv.from(), mv.to());
    let capture = mv.kind() == MoveKind::EnPassant || position.occupied().contains(to);
    let mut text = String::with_capacity(8);
    if piece.kind() == PieceKind::Pawn {
        if capture {
            text.push(from.file().to_char());
            text.push('x');
        }
        text.push_str(to.name());
        if let MoveKind::Promotion(kind) = mv.kind() {
            text.push('=');
            text.push(Piece::new(Color::White, kind).to_char());
        }
        return text;
    }
    text.push(Piece::new(Color::White, piece.kind()).to_char());
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|other| {
            other.to() == to
                && other.from() != from
                && position.piece_on(other.from()).map(|p| p.kind()) == Some(piece.kind())
        })
        .map(|other| other.from())
        .collect();
    if !rivals.is_empty() {
        let same_file = rivals.iter().any(|rival| rival.file() == from.file());
        let same_rank = rivals.iter().any(|rival| rival.rank() == from.rank());
        if !same_file {
            text.push(from.file().to_char());
        } else if !same_rank {
            text.push(from.rank().to_char());
        } else {
            text.push_str(from.name());
        }
    }
    if capture {
        text.push('x');
    }
    text.push_str(to.name());
    text
}

/// The legal move (among `legal`) written `san` (check marks and
/// annotations optional).
pub fn parse_san(position: &Position, legal: &MoveList, san: &str) -> Option<Move> {
    let plain = san.trim_end_matches(['+', '#', '!', '?']);
    legal
        .iter()
        .copied()
        .find(|&mv| san_plain(position, legal, mv) == plain)
}
