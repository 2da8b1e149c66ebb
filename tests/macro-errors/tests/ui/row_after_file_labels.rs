use bitboards::bitboard;

fn main() {
    let _ = bitboard! {
        8 . . . . . . . .
        7 . . . . . . . .
        6 . . . . . . . .
        5 . . . . . . . .
        4 . . . . . . . .
        3 . . . . . . . .
        2 . . . . . . . .
          a b c d e f g h
        1 . . . . . . . .
    };
}
