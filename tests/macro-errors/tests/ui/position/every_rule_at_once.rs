use bitboards::position;

fn main() {
    let _ = position! {
        8 r . . . k . . P
        7 . . . . . . . .
        6 . . . . . . . .
        5 . . . . . . . .
        4 . . . . k . . .
        3 . . . . . . . .
        2 . . . . . . . .
        1 R . . K . . . .
          a b c d e f g h
        ; w KQq e3 0 0
    };
}
