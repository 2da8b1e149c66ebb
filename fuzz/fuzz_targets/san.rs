//! SAN: `Position::parse_san` on any text, in several positions. It never
//! panics; a move it finds is legal, and the SAN written for that move reads
//! back to the same move. A malformed text's column points into it.
#![no_main]

use bitboards::SanError;
use bitboards_fuzz::{assert_column, number_of, positions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for position in positions(number_of(data)) {
        match position.parse_san(text) {
            Ok(mv) => {
                assert!(
                    position.is_legal(mv),
                    "{text:?} read as illegal {mv:?} in {}",
                    position.fen()
                );
                let san = position.san(mv).to_string();
                assert_eq!(
                    position.parse_san(&san),
                    Ok(mv),
                    "{text:?} read as {mv:?}, written {san:?}, in {}",
                    position.fen()
                );
            }
            Err(error) => {
                let message = error.to_string();
                if let SanError::Malformed { column, .. } = error {
                    assert_column(text, column, &message);
                }
            }
        }
    }
});
