use bitboards::{Position, position};

const START: Position = position! {
    8 r n b q k b n r
    7 p p p p p p p p
    6 . . . . . . . .
    5 . . . . . . . .
    4 . . . . . . . .
    3 . . . . . . . .
    2 P P P P P P P P
    1 R N B Q K B N R
      a b c d e f g h
    ; w KQkq -
};

#[test]
fn start() {
    assert_eq!(START, Position::START);
}

#[test]
fn compile_errors_point_at_the_bad_token() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/position/*.rs");
}
