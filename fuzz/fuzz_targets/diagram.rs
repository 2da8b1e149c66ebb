//! The diagram grammar (`FromStr` for `Bitboard`, the one the `bitboard!`
//! macro reads): any text. It never panics; an error's line and column
//! count from 1; an accepted board's `Display` reads back to it.
#![no_main]

use bitboards::Bitboard;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<Bitboard>() {
        Ok(board) => {
            let shown = board.to_string();
            assert_eq!(
                shown.parse::<Bitboard>(),
                Ok(board),
                "{text:?} shown as {shown:?}"
            );
        }
        Err(error) => {
            let message = error.to_string();
            assert!(
                error.line() >= 1 && error.column() >= 1,
                "{text:?}: {message}"
            );
            assert!(
                error.line() <= text.lines().count() + 1,
                "{text:?}: {message}"
            );
        }
    }
});
