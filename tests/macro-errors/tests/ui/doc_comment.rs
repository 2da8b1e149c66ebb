use bitboards::bitboard;

fn main() {
    // Plain comments are fine; a doc comment is not.
    let _ = bitboard! {
        8 . . . . . . . .  // the back rank
        7 . . . . . . . .
        6 . . . . . . . .
        5 . . . . . . . .
        /// the e4 square
        4 . . . . X . . .
        3 . . . /* nothing here */ . . . . .
        2 . . . . . . . .
        1 . . . . . . . .
          a b c d e f g h
    };
}
