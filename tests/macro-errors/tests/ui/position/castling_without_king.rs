use bitboards::position;

fn main() {
    let _ = position! {
        8 r . . . . . . r
        7 . . . . . k . .
        6 . . . . . . . .
        5 . . . . . . . .
        4 . . . . . . . .
        3 . . . . . . . .
        2 . . . . . . . .
        1 R . . . K . . R
          a b c d e f g h
        ; w KQkq -
    };
}
