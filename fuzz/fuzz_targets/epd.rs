//! EPD: `Epd::parse` and `parse_with` (impossible checks allowed) on any text, and
//! `epd::read` on it as a file. They never panic; an accepted record's
//! `to_string()` reads back, by the same function, to an equal record; an
//! error's column points into its record, and its line into the file.
#![no_main]

use bitboards::{Epd, EpdError, Validation, epd};
use bitboards_fuzz::assert_column;
use libfuzzer_sys::fuzz_target;

fn check(text: &str, record: &Epd, read: fn(&str) -> Result<Epd, EpdError>) {
    let written = record.to_string();
    assert_eq!(
        read(&written).as_ref(),
        Ok(record),
        "{text:?} written {written:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    fn relaxed(text: &str) -> Result<Epd, EpdError> {
        Epd::parse_with(text, Validation::ALL_RULES.allow_impossible_check())
    }
    for read in [Epd::parse, relaxed] {
        match read(text) {
            Ok(record) => check(text, &record, read),
            Err(error) => assert_column(text, error.column(), &error),
        }
    }
    for record in epd::read(text) {
        match record {
            Ok(record) => check(text, &record, Epd::parse),
            Err(error) => {
                let line = error.line().expect("a file's error has a line");
                let record = text
                    .lines()
                    .nth(line - 1)
                    .expect("the error's line is in the file");
                assert_column(record, error.column(), &error);
            }
        }
    }
});
