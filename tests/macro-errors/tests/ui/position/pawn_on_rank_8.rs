use bitboards::position;

fn main() {
    let _ = position! {
        8 . . . . k . . P
        7 . . . . . . . .
        6 . . . . . . . .
        5 . . . . . . . .
        4 . . . . . . . .
        3 . . . . . . . .
        2 . . . . . . . .
        1 . . . . K . . .
          a b c d e f g h
    };
}
