//! The UCI client's readers: `Info::parse` (an engine's `info` line) and
//! `UciOption::parse` (an `option` line of the handshake) on any text, in
//! several positions. Neither panics; a PV read is legal move after move
//! from the position (and so are refutations, current lines and the
//! current move), and its rank starts at 1; a declared option checks
//! any value without panicking.
#![no_main]

use bitboards_engine::{Info, OptionValue, UciOption};
use bitboards_fuzz::{number_of, positions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for position in positions(number_of(data)) {
        let (info, warnings) = Info::parse(&text, &position);
        assert!(info.multipv >= 1);
        assert_eq!(info.turn, position.side_to_move());
        let mut current = position;
        for &mv in &info.pv {
            current = current.play(mv).unwrap_or_else(|_| {
                panic!("{text:?}: PV move {mv:?} illegal in {}", current.fen())
            });
        }
        // The other lines are legal too: a refutation after its move, a
        // current line from the position; the current move is legal.
        let lines = info.refutation.iter().map(|(mv, line)| (Some(*mv), line));
        let lines = lines.chain(info.currline.iter().map(|(_, line)| (None, line)));
        for (first, line) in lines {
            let mut current = position;
            for mv in first.into_iter().chain(line.iter().copied()) {
                current = current.play(mv).unwrap_or_else(|_| {
                    panic!("{text:?}: move {mv:?} illegal in {}", current.fen())
                });
            }
        }
        if let Some(mv) = info.currmove {
            assert!(position.is_legal(mv), "{text:?}: currmove {mv:?}");
        }
        for warning in &warnings {
            let _ = warning.to_string();
        }
        let _ = info
            .white_score()
            .map(|score| (score.to_string(), score.score(30_000)));
    }
    if let Some(option) = UciOption::parse(&text) {
        assert!(!option.name.is_empty());
        for value in [
            OptionValue::from(true),
            OptionValue::from(i64::MIN),
            OptionValue::from(64),
            OptionValue::from(text.as_ref()),
            OptionValue::Button,
        ] {
            let _ = option.check(&value);
        }
    }
});
