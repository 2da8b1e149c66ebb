use bitboards::position;

fn main() {
    let _ = position! {
        8 r . . . k . . r
        7 . . . . . . . .
        6 . . . . . . . .
        5 . . . . . . . .
        4 . . . . . . . .
        3 . . . . . . . .
        2 . . . . . . . .
        1 R . . . K . . R
          a b c d e f g h
        ; w KQkx -
    };
}
