//! SAN: `Position::parse_san` on any text, in several positions. It never
//! panics; a move it finds is legal, and the SAN written for that move reads
//! back to the same move. A malformed text's column points into it. Where
//! `San::from_ascii_prefix` reads the start of the bytes, the full parse of
//! what it took reads the same, and `Position::play_san` plays what
//! `parse_san` finds (or fails where it fails, the position unchanged).
#![no_main]

use bitboards::{San, SanError};
use bitboards_fuzz::{assert_column, number_of, positions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((san, len)) = San::from_ascii_prefix(data) {
        let taken = std::str::from_utf8(&data[..len]).expect("the prefix is ASCII");
        assert_eq!(taken.parse::<San>(), Ok(san), "{taken:?}");
        for position in positions(number_of(data)) {
            let mut played = position;
            match (played.play_san(san), position.parse_san(taken)) {
                (Ok(mv), Ok(found)) => {
                    assert_eq!(mv, found, "{taken:?} in {}", position.fen());
                    assert_eq!(played, position.play_unchecked(mv));
                }
                (Err(error), Err(expected)) => {
                    assert_eq!(error, expected, "{taken:?} in {}", position.fen());
                    assert_eq!(played, position, "{taken:?} changed the position");
                }
                (one, other) => {
                    panic!("{taken:?} in {}: {one:?} against {other:?}", position.fen())
                }
            }
        }
    }
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
