//! UCI: `Position::parse_uci` on any text, in several positions. It never
//! panics; a move it finds is legal, and its UCI text (either castling
//! notation) reads back to the same move.
#![no_main]

use bitboards::CastlingNotation;
use bitboards_fuzz::{number_of, positions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for position in positions(number_of(data)) {
        match position.parse_uci(text) {
            Ok(mv) => {
                assert!(
                    position.is_legal(mv),
                    "{text:?} read as illegal {mv:?} in {}",
                    position.fen()
                );
                let rook = mv.uci(CastlingNotation::KingTakesRook).to_string();
                assert_eq!(
                    position.parse_uci(&rook),
                    Ok(mv),
                    "{text:?} in {}",
                    position.fen()
                );
                // King-to-target is ambiguous only where a plain king step
                // goes to the same square (Chess960), and then means it.
                let king = mv.uci(CastlingNotation::KingToTarget).to_string();
                let back = position.parse_uci(&king).expect("a legal move's UCI reads");
                assert!(
                    back == mv || (mv.is_castling() && !back.is_castling()),
                    "{text:?} in {}",
                    position.fen()
                );
            }
            Err(error) => {
                let _ = error.to_string();
            }
        }
    }
});
