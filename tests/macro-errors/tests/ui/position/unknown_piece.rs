use bitboards::position;

fn main() {
    let _ = position! {
        8 r n b q k b n r
        7 p p p p p p p p
        6 . . . . . . . .
        5 . . . . . . . .
        4 . . . . x . . .
        3 . . . . . . . .
        2 P P P P P P P P
        1 R N B Q K B N R
          a b c d e f g h
    };
}
