//! The registry: every generated file and every table in it, in order, each
//! with how it is pictured and named. Everything else follows from this list:
//! the files under `generated/`, the index the runtime includes, the name
//! registry, the `masks` constants, the snapshot pictures and the README's
//! table list.
//!
//! Adding a table of an existing shape: write its generator function in the
//! module of its file (under `files/`), and add one line below.

use crate::files::{leapers, lines, masks, names, pext, rays, sliders, zobrist};
use crate::inputs::{Build, Inputs};
use crate::table::{Index, Naming, Picture, Table};

/// The feature that gates the name registry (`Bitboard::from_name`).
pub(crate) const NAMES_FEATURE: &str = "names";

/// Every generated file, in order.
pub(crate) const FILES: &[FileSpec] = &[
    FileSpec {
        name: "masks.rs",
        about: masks::about,
        feature: None,
        tables: &[
            named(
                masks::files,
                Picture::Diagrams {
                    caption: "file",
                    index: Index::File,
                },
                Naming::Indexed {
                    prefix: "file_",
                    index: Index::File,
                },
            ),
            table(
                masks::not_files,
                Picture::Diagrams {
                    caption: "not file",
                    index: Index::File,
                },
            ),
            named(
                masks::ranks,
                Picture::Diagrams {
                    caption: "rank",
                    index: Index::Rank,
                },
                Naming::Indexed {
                    prefix: "rank_",
                    index: Index::Rank,
                },
            ),
            table(
                masks::not_ranks,
                Picture::Diagrams {
                    caption: "not rank",
                    index: Index::Rank,
                },
            ),
            table(
                masks::diagonals,
                Picture::Diagrams {
                    caption: "diagonal",
                    index: Index::Number,
                },
            ),
            table(
                masks::anti_diagonals,
                Picture::Diagrams {
                    caption: "anti-diagonal",
                    index: Index::Number,
                },
            ),
            table(masks::squares, Picture::PerSquare),
            region(masks::light_squares),
            region(masks::dark_squares),
            region(masks::center),
            region(masks::big_center),
            region(masks::edges),
            region(masks::corners),
            region(masks::back_ranks),
            region(masks::kingside),
            region(masks::queenside),
        ],
    },
    FileSpec {
        name: "leapers.rs",
        about: leapers::about,
        feature: None,
        tables: &[
            table(leapers::knight_attacks, Picture::PerSquare),
            table(leapers::king_attacks, Picture::PerSquare),
            table(leapers::pawn_attacks, Picture::PerColorAndSquare),
            table(leapers::pawn_pushes, Picture::PerColorAndSquare),
        ],
    },
    FileSpec {
        name: "rays.rs",
        about: rays::about,
        feature: None,
        tables: &[
            table(rays::between, Picture::SquarePairs),
            table(rays::line, Picture::SquarePairs),
            table(rays::rook_rays, Picture::PerSquare),
            table(rays::bishop_rays, Picture::PerSquare),
        ],
    },
    FileSpec {
        name: "names.rs",
        about: names::about,
        feature: Some(NAMES_FEATURE),
        tables: &[table(names::names, Picture::Names)],
    },
    FileSpec {
        name: "sliders.rs",
        about: sliders::about,
        feature: None,
        tables: &[
            table(sliders::rook_shift, Picture::Number),
            table(sliders::bishop_shift, Picture::Number),
            table(
                sliders::rook_magics,
                Picture::SliderRows {
                    piece: "rook",
                    second: "factor",
                    shift: Some(crate::magics::ROOK_SHIFT),
                },
            ),
            table(
                sliders::bishop_magics,
                Picture::SliderRows {
                    piece: "bishop",
                    second: "factor",
                    shift: Some(crate::magics::BISHOP_SHIFT),
                },
            ),
            table(sliders::slider_attacks, Picture::Digest),
        ],
    },
    FileSpec {
        name: "lines.rs",
        about: lines::about,
        feature: None,
        tables: &[
            table(lines::line_index_multiplier, Picture::Number),
            table(lines::file_index_multiplier, Picture::Number),
            table(lines::line_attacks_table, Picture::Digest),
            table(lines::file_attacks_table, Picture::Digest),
            table(lines::diagonal_rays, Picture::PerSquare),
            table(lines::anti_diagonal_rays, Picture::PerSquare),
        ],
    },
    FileSpec {
        name: "pext.rs",
        about: pext::about,
        feature: Some("pext"),
        tables: &[
            table(
                pext::rook_pext,
                Picture::SliderRows {
                    piece: "rook",
                    second: "rays",
                    shift: None,
                },
            ),
            table(
                pext::bishop_pext,
                Picture::SliderRows {
                    piece: "bishop",
                    second: "rays",
                    shift: None,
                },
            ),
            table(pext::pext_attacks, Picture::Digest),
        ],
    },
    FileSpec {
        name: "zobrist.rs",
        about: zobrist::about,
        feature: None,
        tables: &[table(zobrist::polyglot_random64, Picture::Digest)],
    },
];

/// One generated file: its name under `generated/`, the comment under its
/// header, the feature that gates it in the runtime crate, and its tables.
pub(crate) struct FileSpec {
    pub(crate) name: &'static str,
    pub(crate) about: fn(&Inputs) -> String,
    pub(crate) feature: Option<&'static str>,
    pub(crate) tables: &'static [Entry],
}

/// One table: the function that computes and documents it, how the snapshot
/// test pictures it, and what it gives to the name registry.
pub(crate) struct Entry {
    pub(crate) build: Build,
    pub(crate) picture: Picture,
    pub(crate) naming: Naming,
}

/// A table with no name in the name registry.
const fn table(build: Build, picture: Picture) -> Entry {
    Entry {
        build,
        picture,
        naming: Naming::None,
    }
}

/// A table whose entries are named in the name registry.
const fn named(build: Build, picture: Picture, naming: Naming) -> Entry {
    Entry {
        build,
        picture,
        naming,
    }
}

/// A named region: a single word, pictured with the other regions, named in
/// lower case, and a `Bitboard` constant in `bitboards::masks`.
const fn region(build: Build) -> Entry {
    Entry {
        build,
        picture: Picture::Region,
        naming: Naming::Region,
    }
}

/// A file's tables, computed, each with its registry entry.
pub(crate) struct BuiltFile {
    pub(crate) spec: &'static FileSpec,
    pub(crate) tables: Vec<(&'static Entry, Table)>,
}

/// The tables that name their entries, in registry order, for the name
/// registry (`files/names.rs` reads them from [`Inputs`]).
pub(crate) fn named_tables() -> Vec<(Build, Naming)> {
    entries()
        .filter(|entry| entry.naming != Naming::None)
        .map(|entry| (entry.build, entry.naming))
        .collect()
}

/// Every registry entry, file after file.
pub(crate) fn entries() -> impl Iterator<Item = &'static Entry> {
    FILES.iter().flat_map(|file| file.tables.iter())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MagicSource;

    #[test]
    fn names_are_unique_and_files_end_in_rs() {
        let inputs = Inputs {
            magics: crate::magics::Magics::new(MagicSource::Published).unwrap(),
            named: named_tables(),
        };
        let mut names: Vec<&str> = entries()
            .map(|entry| (entry.build)(&inputs).unwrap().name)
            .collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "two tables share a name");
        let mut files: Vec<&str> = FILES.iter().map(|f| f.name).collect();
        files.push(crate::render::INDEX);
        assert!(files.iter().all(|f| f.ends_with(".rs")));
        files.sort_unstable();
        files.dedup();
        assert_eq!(files.len(), FILES.len() + 1, "two files share a name");
    }

    #[test]
    fn regions_are_words_and_named_tables_are_lists() {
        let inputs = Inputs {
            magics: crate::magics::Magics::new(MagicSource::Published).unwrap(),
            named: named_tables(),
        };
        for entry in entries() {
            let table = (entry.build)(&inputs).unwrap();
            match entry.naming {
                Naming::Region => assert_eq!(table.dimensions(), [0usize; 0], "{}", table.name),
                Naming::Indexed { .. } => assert_eq!(table.dimensions().len(), 1, "{}", table.name),
                Naming::None => {}
            }
        }
    }
}
