//! SAN for loose positions, as python-chess writes it: no castling, the
//! check mark by the side to move's highest king.

use alloc::string::String;

use super::{after, checkers, loose_legal_moves};
use crate::{Color, Move, MoveKind, MoveList, Piece, PieceKind, Position};

/// `mv` (among `legal`, the loose position's legal moves) in SAN, with `+`
/// or `#` where it checks the other side's king.
///
/// ```
/// use bitboards::{AnySetup, any_setup};
///
/// // Two white kings: the position is loose.
/// let setup = AnySetup::from_fen("k7/8/1K6/8/8/8/8/6RK w - - 0 1")?;
/// let (position, loose) = setup.to_position(false);
/// assert!(loose);
/// let legal = any_setup::loose_legal_moves(&position);
/// let sans: Vec<String> = legal.iter().map(|&mv| any_setup::san(&position, &legal, mv)).collect();
/// assert!(sans.contains(&"Rg8#".to_string()));
/// # Ok::<(), bitboards::AnyFenError>(())
/// ```
#[must_use]
pub fn san(position: &Position, legal: &MoveList, mv: Move) -> String {
    let mut text = san_plain(position, legal, mv);
    let after = after(position, mv);
    if !checkers(&after).is_empty() {
        text.push(if loose_legal_moves(&after).is_empty() {
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
        let mut text = String::new();
        text.push_str(mv.from().name());
        text.push_str(mv.to().name());
        return text;
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
    let rivals = legal.iter().filter(|other| {
        other.to() == to
            && other.from() != from
            && position.piece_on(other.from()).map(Piece::kind) == Some(piece.kind())
    });
    let (mut any, mut same_file, mut same_rank) = (false, false, false);
    for rival in rivals {
        any = true;
        same_file |= rival.from().file() == from.file();
        same_rank |= rival.from().rank() == from.rank();
    }
    if any {
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

/// The legal move (among `legal`) written `san`, check marks and
/// annotation marks optional.
#[must_use]
pub fn parse_san(position: &Position, legal: &MoveList, san: &str) -> Option<Move> {
    let plain = san.trim_end_matches(['+', '#', '!', '?']);
    legal
        .iter()
        .copied()
        .find(|&mv| san_plain(position, legal, mv) == plain)
}
