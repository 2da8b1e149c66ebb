use bitboards::bitboard;

fn main() {
    // Labels on some rows but not others.
    let _ = bitboard! {
        8 . . . . . . . .
        7 . . . . . . . .
        . . . . . . . .
        5 . . . . . . . .
        4 . . . . . . . .
        3 . . . . . . . .
        2 . . . . . . . .
        1 . . . . . . . .
    };
    let _ = bitboard! {
        . . . . . . . .
        . . . . . . . .
        6 . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    };
}
