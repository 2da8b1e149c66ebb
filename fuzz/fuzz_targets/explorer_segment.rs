//! The opening explorer's segment files: any bytes, read as a segment as
//! written (the checksums find a damaged one) and with its checksums made
//! right (so that the decoder meets the damage), then walked whole (every
//! game, every player's games, every position's rows, by order and by key):
//! an error or an answer, never a panic or a read out of bounds.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let as_written = bitboards_explorer::walk_segment(data.to_vec(), false);
    let resealed = bitboards_explorer::walk_segment(data.to_vec(), true);
    // Bytes whose checksums are right already read the same either way.
    if let Ok(rows) = as_written {
        assert_eq!(resealed.ok(), Some(rows));
    }
});
