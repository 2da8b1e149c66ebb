//! Probes of tables held in memory (`add_table_bytes` from
//! `include_bytes!`): no file is opened, so these
//! run under Miri (`cargo +nightly miri test -p bitboards-syzygy --lib`),
//! over the decoding of real headers and blocks. The answers are
//! python-chess's, from tests/data/syzygy-reference.csv.

use bitboards::Position;

use crate::{Dtz, Tablebase, Wdl};

macro_rules! table {
    ($name:literal) => {
        (
            $name,
            include_bytes!(concat!("../../../tests/data/syzygy/", $name)).as_slice(),
        )
    };
}

/// KRvK and KPvK, both kinds, and the 3-piece WDL tables a pawn's
/// promotions lead to: 22 KB in all.
const TABLES: [(&str, &[u8]); 7] = [
    table!("KRvK.rtbw"),
    table!("KRvK.rtbz"),
    table!("KPvK.rtbw"),
    table!("KPvK.rtbz"),
    table!("KQvK.rtbw"),
    table!("KBvK.rtbw"),
    table!("KNvK.rtbw"),
];

fn tables() -> Tablebase {
    let mut tables = Tablebase::new();
    for (name, bytes) in TABLES {
        tables.add_table_bytes(name, bytes.to_vec()).unwrap();
    }
    assert_eq!(tables.len(), TABLES.len());
    assert_eq!(tables.max_pieces(), 3);
    tables
}

#[test]
fn tables_in_memory_give_python_chess_s_answers() {
    let tables = tables();
    for (fen, wdl, dtz) in [
        // Black to move loses (where the DTZ table holds White to move
        // only, the probe goes a ply deeper).
        ("8/6R1/8/8/7K/2k5/8/8 b - - 0 1", Wdl::Loss, -28),
        // Black the stronger side: the same table, colours flipped.
        ("8/8/8/8/K7/5k2/8/7r w - - 0 1", Wdl::Loss, -22),
        // The king takes the rook: a draw.
        ("3R4/2k5/8/8/8/5K2/8/8 b - - 0 1", Wdl::Draw, 0),
        // A pawn table, White's pawn and Black's.
        ("8/4P3/8/8/2k1K3/8/8/8 b - - 0 1", Wdl::Loss, -2),
        ("8/8/6p1/8/2k5/8/1K6/8 w - - 0 1", Wdl::Loss, -4),
    ] {
        let position = Position::from_fen(fen).unwrap();
        assert_eq!(tables.probe_wdl(&position).unwrap(), wdl, "{fen}");
        assert_eq!(tables.probe_dtz(&position).unwrap(), Dtz(dtz), "{fen}");
    }
}

#[test]
fn a_table_cut_short_in_memory_is_an_error() {
    let mut tables = Tablebase::new();
    let (name, bytes) = TABLES[0];
    tables
        .add_table_bytes(name, bytes[..bytes.len() / 2].to_vec())
        .unwrap();
    let position = Position::from_fen("8/6R1/8/8/7K/2k5/8/8 b - - 0 1").unwrap();
    assert!(tables.probe_wdl(&position).is_err());
}

#[test]
fn a_file_is_counted_once_and_found_for_either_colour() {
    let mut tables = Tablebase::new();
    let (name, bytes) = TABLES[0];
    tables.add_table_bytes(name, bytes.to_vec()).unwrap();
    // Added again: replaced, not counted twice; the colours-swapped key
    // that lets Black's rook find the file is not a file of its own.
    tables.add_table_bytes(name, bytes.to_vec()).unwrap();
    assert_eq!(tables.len(), 1);
    assert_eq!(tables.max_pieces(), 3);
    let white = Position::from_fen("8/6R1/8/8/7K/2k5/8/8 b - - 0 1").unwrap();
    let black = Position::from_fen("8/8/8/8/K7/5k2/8/7r w - - 0 1").unwrap();
    assert_eq!(tables.probe_wdl(&white).unwrap(), Wdl::Loss);
    assert_eq!(tables.probe_wdl(&black).unwrap(), Wdl::Loss);
    // Other material is still a missing table, named strongest first.
    let missing = Position::from_fen("8/8/8/8/K7/5k2/8/7q w - - 0 1").unwrap();
    assert_eq!(
        tables.probe_wdl(&missing).unwrap_err().to_string(),
        crate::SyzygyError::MissingTable {
            name: "KQvK.rtbw".into()
        }
        .to_string()
    );
}

/// `may_capture`, which lets a probe skip listing captures, says no only
/// where there is none: over every reference position, and each with the
/// other side to move where that is legal.
#[test]
#[cfg_attr(miri, ignore)]
fn may_capture_misses_no_capture() {
    let csv = include_str!("../../../tests/data/syzygy-reference.csv");
    let (mut positions, mut without) = (0, 0);
    for line in csv.lines().skip(1) {
        let fen = line.split(',').next().unwrap();
        let turned = match fen.contains(" w ") {
            true => fen.replacen(" w ", " b ", 1),
            false => fen.replacen(" b ", " w ", 1),
        };
        for fen in [fen.to_string(), turned] {
            let Ok(position) = Position::from_fen(&fen) else {
                continue;
            };
            let captures = position
                .captures()
                .iter()
                .filter(|mv| crate::probe::is_capture(&position, **mv))
                .count();
            positions += 1;
            if !crate::probe::may_capture(&position) {
                without += 1;
                assert_eq!(captures, 0, "{fen}");
            }
        }
    }
    // It must also say no: most positions of a table have no capture.
    assert!(
        positions > 40_000 && without > positions / 3,
        "{without} of {positions}"
    );
}
