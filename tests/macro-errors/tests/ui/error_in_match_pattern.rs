use bitboards::{Bitboard, bitboard};

fn describe(board: Bitboard) -> &'static str {
    match board {
        bitboard! {
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . X o . . .
            . . . X X . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
        } => "center",
        bitboard! {
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . ? . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
        } => "e5",
        _ => "other",
    }
}

fn main() {
    let _ = describe(Bitboard::EMPTY);
}
