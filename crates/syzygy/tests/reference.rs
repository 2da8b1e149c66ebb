//! Every answer against python-chess's, on the random positions of
//! tests/data/syzygy-reference.csv (written by
//! tests/python/syzygy_reference.py): every 3- and 4-piece table, both
//! sides to move, en passant among them.

use std::path::PathBuf;

use bitboards::Position;
use bitboards_syzygy::{Tablebase, Wdl};

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data")
}

pub fn tables() -> Tablebase {
    tables_read(Tablebase::IN_MEMORY)
}

/// The tables, files of more than `in_memory` bytes read where they lie.
fn tables_read(in_memory: u64) -> Tablebase {
    let mut tables = Tablebase::new();
    tables.set_in_memory_limit(in_memory);
    let added = tables.add_directory(data().join("syzygy")).unwrap();
    assert_eq!(added, 70);
    tables
}

#[test]
fn every_answer_is_python_chess_s() {
    check_every_answer(&tables());
}

/// The same answers from files read where they lie (positioned reads, a
/// few bytes a probe), as a table too large for memory is read.
#[test]
fn every_answer_is_python_chess_s_read_from_the_files() {
    check_every_answer(&tables_read(0));
}

fn check_every_answer(tables: &Tablebase) {
    let text = std::fs::read_to_string(data().join("syzygy-reference.csv")).unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text.lines().skip(1) {
        let mut fields = line.rsplitn(3, ',');
        let dtz: i32 = fields.next().unwrap().parse().unwrap();
        let wdl: i32 = fields.next().unwrap().parse().unwrap();
        let fen = fields.next().unwrap();
        let position = Position::from_fen(fen).unwrap();
        let got_wdl = tables.probe_wdl(&position).unwrap() as i32;
        let got_dtz = tables.probe_dtz(&position).unwrap().0;
        if (got_wdl, got_dtz) != (wdl, dtz) {
            failures.push(format!(
                "{fen}: wdl {got_wdl} dtz {got_dtz}, python-chess {wdl} {dtz}"
            ));
        }
        count += 1;
    }
    assert!(count > 2000, "{count} positions");
    assert!(
        failures.is_empty(),
        "{} of {count} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
    let _ = Wdl::Draw;
}
