use bitboards::bitboard;

fn main() {
    let _ = bitboard! {
        8 . . . . . . . .
        7 . . . . . . . .
        6 . . . . . . .
        5 . . . . . . . .
        4 . . . . . . . .
        3 . . . . . . . .
        2 . . . . . . . .
        1 . . . . . . . .
    };
}
