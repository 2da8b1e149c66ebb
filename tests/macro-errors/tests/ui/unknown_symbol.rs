use bitboards::bitboard;

fn main() {
    let _ = bitboard! {
        8 . . . . . . . .
        7 . . . . . . . .
        6 . . . . . . . .
        5 . . . . o . . .
        4 . . . . . . . .
        3 . . . . . . . .
        2 . . . . . . . .
        1 . . . . . . . .
          a b c d e f g h
    };
}
