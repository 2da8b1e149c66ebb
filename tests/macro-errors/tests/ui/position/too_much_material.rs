use bitboards::position;

fn main() {
    let _ = position! {
        8 . . . . k . . .
        7 p p p p p p p p
        6 . . . . . . . .
        5 . . . . . . . .
        4 . . . . . . . .
        3 . . . . . . . .
        2 . . . . . . . .
        1 . q q . K . . .
          a b c d e f g h
    };
}
