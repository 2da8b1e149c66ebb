//! python-chess's pseudo-legal moves: every move of the side to move's
//! pieces by how they move, whether or not it leaves the king in check;
//! castling only where it is legal (as python-chess generates it).

use bitboards::{Bitboard, Color, Move, MoveKind, MoveList, PieceKind, Position, Square, attacks};

/// The promotions python-chess generates, in its order.
const PROMOTIONS: [PieceKind; 4] = [
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
];

/// Every pseudo-legal move from a square of `from` to a square of `to`
/// (castling filtered from `legal` by its king's square and either of
/// its written targets: the king's or the rook's).
pub fn pseudo_legal(
    position: &Position,
    legal: &MoveList,
    from: Bitboard,
    to: Bitboard,
) -> Vec<Move> {
    let us = position.side_to_move();
    let own = position.by_color(us);
    let enemy = position.by_color(us.opponent());
    let occupied = position.occupied();
    let mut moves = Vec::with_capacity(64);
    let pawns = position.pieces(us, PieceKind::Pawn);
    for square in own & !pawns & from {
        let Some(piece) = position.piece_on(square) else {
            continue;
        };
        for target in attacks::piece(piece, square, occupied) & !own & to {
            moves.push(Move::new(square, target, MoveKind::Normal));
        }
    }
    moves.extend(castling(legal, from, to));
    let last_rank = match us {
        Color::White => 7,
        Color::Black => 0,
    };
    let start_rank = match us {
        Color::White => 1,
        Color::Black => 6,
    };
    for square in pawns & from {
        let mut targets = attacks::pawn(us, square) & enemy;
        let single = attacks::pawn_push(us, square) & !occupied;
        targets |= single;
        if let Some(step) = single.first()
            && square.rank().index() == start_rank
        {
            targets |= attacks::pawn_push(us, step) & !occupied;
        }
        for target in targets & to {
            if target.rank().index() == last_rank {
                for kind in PROMOTIONS {
                    moves.push(Move::new(square, target, MoveKind::Promotion(kind)));
                }
            } else {
                moves.push(Move::new(square, target, MoveKind::Normal));
            }
        }
    }
    moves.extend(pseudo_legal_en_passant(position, from, to));
    moves
}

/// The en passant captures by how pawns move (the capture may leave the
/// king in check).
pub fn pseudo_legal_en_passant(position: &Position, from: Bitboard, to: Bitboard) -> Vec<Move> {
    let us = position.side_to_move();
    let Some(square) = position.en_passant() else {
        return Vec::new();
    };
    if !to.contains(square) || position.occupied().contains(square) {
        return Vec::new();
    }
    let takers = attacks::pawn(us.opponent(), square) & position.pieces(us, PieceKind::Pawn) & from;
    takers
        .into_iter()
        .map(|taker| Move::new(taker, square, MoveKind::EnPassant))
        .collect()
}

/// The legal castling moves from `from` to `to`: the king's square in
/// `from`, its rook's square in `to` (as python-chess masks castling).
pub fn castling(legal: &MoveList, from: Bitboard, to: Bitboard) -> impl Iterator<Item = Move> + '_ {
    legal
        .iter()
        .copied()
        .filter(move |mv| mv.is_castling() && from.contains(mv.from()) && to.contains(mv.to()))
}

/// The ray through `square` from `color`'s king along which an enemy
/// slider would pin a piece standing there (python-chess's `pin`: an
/// empty square counts as if a piece stood on it), or every square.
pub fn pin(position: &Position, color: Color, king: Square, square: Square) -> Bitboard {
    let line = bitboards::line(king, square);
    if line.is_empty() {
        return Bitboard(u64::MAX);
    }
    let occupied = position.occupied();
    let enemy = position.by_color(color.opponent());
    let rooks = (position.by_kind(PieceKind::Rook) | position.by_kind(PieceKind::Queen)) & enemy;
    let bishops =
        (position.by_kind(PieceKind::Bishop) | position.by_kind(PieceKind::Queen)) & enemy;
    let straight = attacks::rook_rays(king).contains(square);
    let sliders = if straight { rooks } else { bishops } & line;
    for slider in sliders {
        let between = bitboards::between(king, slider);
        if between.contains(square)
            && (between & (occupied | square.bitboard())) == square.bitboard()
        {
            return line;
        }
    }
    Bitboard(u64::MAX)
}
