#![allow(uncommon_codepoints, confusable_idents, mixed_script_confusables)]
// The compiler's own warnings about look-alike identifiers are allowed
// here so that this case pins the macro's messages only.

use bitboards::bitboard;

fn main() {
    // Cyrillic Х, Greek Χ, fullwidth Ｘ, Roman numeral Ⅹ and lowercase x are
    // not `X`; the middle dot inside `X·X` is not `.`.
    let _ = bitboard! {
        8 Х . . . . . . .
        7 . Χ . . . . . .
        6 . . Ｘ . . . . .
        5 . . . Ⅹ . . . .
        4 . . . . x . . .
        3 . . . . . X·X
        2 . . . . . . . .
        1 . . . . . . . .
    };
}
