//! Perft counts against the published suites (tests/data, copied from the
//! project's shared reference data): the 126-position suite, all 960
//! Chess960 start positions, and 200 Chess960 positions in play.
//!
//! Each position is checked at every depth up to a limit that keeps the
//! run short in CI: depth 5 for the suite, 4 for the Chess960 files, about
//! 740 million leaves, a few seconds with the library optimised in the test
//! profile (`PERFT_DEPTH` sets one limit for all). `cargo xtask perft` runs
//! the files to the end.

use bitboards::Validation;
use bitboards::epd::{self, Epd};
use bitboards::perft;

/// Every record of an EPD perft file. The suite holds one position whose
/// check no legal move could have given; move generation handles it all
/// the same, so the file is read without those rules.
fn records(text: &str) -> Vec<Epd> {
    epd::read_with(text, Validation::ALL_RULES.allow_impossible_check())
        .map(|record| record.unwrap_or_else(|error| panic!("{error}")))
        .collect()
}

fn depth_limit(default: u32) -> u32 {
    std::env::var("PERFT_DEPTH")
        .ok()
        .and_then(|depth| depth.parse().ok())
        .unwrap_or(default)
}

fn check_file(text: &str, max_depth: u32) -> usize {
    let mut checked = 0;
    for record in records(text) {
        let position = record.position();
        for (depth, expected) in record
            .perft_counts()
            .filter(|&(depth, _)| depth <= max_depth)
        {
            assert_eq!(
                perft(position, depth),
                expected,
                "{} at depth {depth}",
                position.fen()
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_suite() {
    let depth = depth_limit(5);
    let checked = check_file(include_str!("data/perftsuite.epd"), depth);
    assert!(
        checked >= 126 * depth as usize,
        "only {checked} counts checked"
    );
}

#[test]
fn chess960_start_positions() {
    let depth = depth_limit(4);
    let checked = check_file(include_str!("data/chess960-starts.epd"), depth);
    assert!(
        checked >= 960 * depth as usize,
        "only {checked} counts checked"
    );
}

#[test]
fn chess960_positions_in_play() {
    let depth = depth_limit(4);
    let checked = check_file(include_str!("data/chess960-random.epd"), depth);
    assert!(
        checked >= 200 * depth as usize,
        "only {checked} counts checked"
    );
}

#[test]
fn divide_counts_every_root_move_under_its_new_name_and_its_old_one() {
    let position = bitboards::Position::START;
    let counts: bitboards::RootMoveCounts = bitboards::perft_divide(&position, 3);
    assert_eq!(counts.len(), 20);
    assert_eq!(counts.iter().map(|(_, leaves)| leaves).sum::<u64>(), 8_902);
    // The deprecated alias names the same type for one release.
    #[allow(deprecated)]
    let old: bitboards::Divided = counts.clone();
    assert_eq!(
        old.iter().collect::<Vec<_>>(),
        counts.iter().collect::<Vec<_>>()
    );
}
