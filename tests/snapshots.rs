//! The human view of every table, as insta snapshots in tests/snapshots/:
//! a change to a table is reviewed as pictures (`cargo insta review`, or
//! `INSTA_UPDATE=always cargo test` and `git diff`). With `CI=true` a
//! mismatch fails instead of writing.
//!
//! One test walks the generator's registry: for every table it compares the
//! runtime's copy (through `tables::CATALOG`) with the generator's values,
//! then snapshots the picture its registry entry asks for. A new table is
//! pictured without touching this file.

mod common;

use bitboards::tables::{CATALOG, Entries};
use bitboards::{Color, Square};
use bitboards_codegen::{Destination, Options, Picture, TableReport, run};
use common::{diagrams, digest, per_square};
use insta::assert_snapshot;

#[test]
fn every_table_equals_the_generators_and_is_pictured() {
    let report = run(&Options::new(Destination::Memory)).expect("the generator runs");
    let mut regions = String::new();
    let mut walked = 0;
    for file in &report.files {
        for table in &file.tables {
            walked += 1;
            let name = table.name;
            let Some((_, entries)) = CATALOG.iter().find(|(n, _)| *n == name) else {
                panic!("{name} is in the generator's registry but not in tables::CATALOG");
            };
            match *entries {
                Entries::Disabled { feature } => {
                    assert_eq!(file.feature, Some(feature), "{name}");
                    continue;
                }
                Entries::U64(values) => {
                    assert!(
                        values == table.values,
                        "{name} differs from the generator's"
                    );
                }
                Entries::U16(values) => assert!(
                    values
                        .iter()
                        .map(|&v| u64::from(v))
                        .eq(table.values.iter().copied()),
                    "{name} differs from the generator's"
                ),
                #[cfg(feature = "names")]
                Entries::Map(map) => {
                    assert_eq!(map.len(), table.keys.len(), "{name}");
                    for (key, value) in table.keys.iter().zip(&table.values) {
                        assert_eq!(map.get(key.as_str()), Some(value), "{name}[{key:?}]");
                    }
                }
            }
            match table.picture {
                Picture::Region => {
                    regions.push_str(&diagrams([(name.to_string(), table.values[0])]))
                }
                _ => picture(table),
            }
        }
    }
    assert_eq!(
        walked,
        CATALOG.len(),
        "tables::CATALOG lists tables the generator does not make"
    );
    assert_snapshot!("named_regions", regions);
}

/// Snapshots `table` as its registry entry says, under its name in lower case.
fn picture(table: &TableReport) {
    let name = table.name.to_lowercase();
    let values = &table.values;
    match table.picture {
        Picture::Diagrams { caption, index } => assert_snapshot!(
            name,
            diagrams(
                values
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (format!("{caption} {}", index.label(i)), v))
            )
        ),
        Picture::PerSquare => assert_snapshot!(name, per_square(values)),
        Picture::PerColorAndSquare => {
            assert_eq!(table.dimensions, [2, 64], "{name}");
            for (color, row) in Color::ALL.into_iter().zip(values.chunks(64)) {
                assert_snapshot!(format!("{name}_{color}"), per_square(row));
            }
        }
        Picture::SquarePairs => assert_snapshot!(name, square_pairs(table)),
        Picture::SliderRows {
            piece,
            second,
            shift,
        } => {
            assert_eq!(table.dimensions, [64, 3], "{name}");
            let shift = shift.map(|s| format!(", shift {s}")).unwrap_or_default();
            assert_snapshot!(
                name,
                diagrams(
                    Square::ALL
                        .iter()
                        .zip(values.chunks(3))
                        .map(|(square, row)| {
                            (
                                format!(
                                    "{piece} {square}: {second} {:#018x}{shift}, offset {}",
                                    row[1], row[2]
                                ),
                                row[0],
                            )
                        })
                )
            );
        }
        Picture::Region => unreachable!("regions share one picture"),
        Picture::Number => assert_snapshot!(name, format!("{} = {}", table.name, values[0])),
        Picture::Names => {
            let mut names: Vec<(&String, u64)> =
                table.keys.iter().zip(values.iter().copied()).collect();
            names.sort();
            let listing: String = names
                .iter()
                .map(|(name, bits)| format!("{name:<14} Bitboard({bits:#018x})\n"))
                .collect();
            assert_snapshot!(name, listing);
        }
        Picture::Digest => assert_snapshot!(
            name,
            format!(
                "{} entries: {}\nbytes: {}\ndigest (FNV-1a): {:#018x}\n",
                table.name,
                values.len(),
                table.bytes,
                digest(values.iter().copied())
            )
        ),
    }
}

/// A few pairs of a 64 x 64 table, then the whole table's size and digest.
fn square_pairs(table: &TableReport) -> String {
    use Square::*;
    assert_eq!(table.dimensions, [64, 64], "{}", table.name);
    let entry = |a: Square, b: Square| table.values[a.index() * 64 + b.index()];
    let pairs = [
        (A1, H8),
        (H8, A1),
        (B2, G7),
        (E1, E8),
        (A4, H4),
        (C1, H6),
        (H1, A8),
        (D4, F5),
        (E4, E5),
        (E4, E4),
        (B6, F2),
        (G3, B3),
    ];
    let mut out = diagrams(pairs.map(|(a, b)| (format!("{a} {b}"), entry(a, b))));
    let nonempty = table.values.iter().filter(|&&e| e != 0).count();
    out.push_str(&format!(
        "entries: {}\nnon-empty: {nonempty}\ndigest (FNV-1a): {:#018x}\n",
        table.values.len(),
        digest(table.values.iter().copied())
    ));
    out
}
