use bitboards::bitboard;

fn main() {
    let _ = bitboard! {
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    };
}
