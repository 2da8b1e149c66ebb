//! FEN: `Position::from_fen` and `from_fen_with` (impossible checks allowed) on any
//! text. They never panic; an error's column points into the text; an
//! accepted position's FEN (and Shredder-FEN) reads back, by the same
//! function, to an equal position. In an accepted position every legal
//! move is legal by `is_legal`, and its SAN and UCI read back to it.
#![no_main]

use bitboards::{CastlingNotation, FenError, Position, Validation};
use bitboards_fuzz::assert_column;
use libfuzzer_sys::fuzz_target;

fn check(text: &str, read: fn(&str) -> Result<Position, FenError>) {
    match read(text) {
        Ok(position) => {
            let fen = position.fen().to_string();
            assert_eq!(read(&fen), Ok(position), "{text:?} written {fen:?}");
            let shredder = position.fen().shredder().to_string();
            assert_eq!(
                read(&shredder),
                Ok(position),
                "{text:?} written {shredder:?}"
            );
            for mv in position.legal_moves().iter().copied() {
                assert!(position.is_legal(mv), "{mv:?} in {fen}");
                let san = position.san(mv).to_string();
                assert_eq!(position.parse_san(&san), Ok(mv), "{san:?} in {fen}");
                let uci = mv.uci(CastlingNotation::KingTakesRook).to_string();
                assert_eq!(position.parse_uci(&uci), Ok(mv), "{uci:?} in {fen}");
            }
        }
        Err(error) => assert_column(text, error.column(), &error),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check(text, Position::from_fen);
    check(text, |fen| {
        Position::from_fen_with(fen, Validation::ALL_RULES.allow_impossible_check())
    });
});
