use bitboards::bitboard;

fn main() {
    let _ = bitboard! {
        8 . . . . . . . .
        7 . . ? . . . . .
        6 . . . . . . .
        5 . . . . . . . .
        3 . . . . . . . .
        3 . . . . . . x .
        2 . . . . . . . .
        1 . . . . . . . .
          a b c d e f g i
    };
}
