use bitboards::bitboard;

fn main() {
    let _ = bitboard! {
        8 . . . . . . . .
        7 . . . . . . . .
        5 . . . . . . . .
        6 . . . . . . . .
        4 . . . . . . . .
        3 . . . . . . . .
        2 . . . . . . . .
        1 . . . . . . . .
    };
}
