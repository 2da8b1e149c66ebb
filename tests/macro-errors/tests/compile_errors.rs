//! Every `bitboard!` and `position!` misuse is a compile error on the bad
//! token: the cases in tests/ui (`bitboard!`) and tests/ui/position
//! (`position!`), each with the compiler's output pinned in its .stderr file.

#[test]
fn bitboard_errors_point_at_the_bad_token() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}

#[test]
fn position_errors_point_at_the_bad_token() {
    trybuild::TestCases::new().compile_fail("tests/ui/position/*.rs");
}
