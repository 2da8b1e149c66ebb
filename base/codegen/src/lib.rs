//! The generator behind `bitboards`' lookup tables.
//!
//! Every table is computed here the obvious way, by walking file and rank
//! coordinates, rendered as `pub static NAME: [T; N]` Rust source with
//! `quote` and `prettyplease`, and written by one function ([`run`]) that
//! owns the `@generated` header and writes a file only when its bytes change.
//!
//! - `cargo xtask gen` runs it on the workspace ([`Destination::Workspace`]):
//!   `generated/*.rs` and the table list in `docs/design.md`;
//!   `cargo xtask gen --check` runs it in [`Mode::Check`].
//! - The `bitboards` build script runs it on `OUT_DIR` with feature
//!   `regenerate` ([`Destination::Directory`]; never the table list). That is why
//!   this crate is published: a from-source build from crates.io needs it,
//!   and everything it reads (the published magics, the Polyglot keys) is
//!   inside its package.
//! - The tests run it in memory ([`Destination::Memory`]) and walk
//!   [`Report::tables`]: each table's values, and how it is pictured in the
//!   snapshots.
//!
//! # One registry
//!
//! Each generated file has one module under `files/`, with one function per
//! table. The registry (`src/registry.rs`) lists every file and table once,
//! with the table's [`Picture`] and [`Naming`]; the index file that the
//! runtime includes, the name registry, the `masks` constants, the snapshot
//! pictures and the table list in `docs/design.md` all follow from it. The recipe for
//! adding a table is in the workspace's `CONTRIBUTING.md`.
//!
//! # Geometry of its own, on purpose
//!
//! The generator does not use `bitboards-core` for geometry: it walks
//! (file, rank) coordinates, while the tests check every table with core's
//! one-step shifts, so a table passes only when two methods agree. It depends
//! on `bitboards-core` for [`Bitboard::subsets`](bitboards_core::Bitboard::subsets)
//! alone (the carry-rippler that enumerates a slider mask's occupancies),
//! and shares its seeded PRNG, [`rng::SplitMix64`], with the tests and
//! benches.
//!
//! ```
//! use bitboards_codegen::{Destination, Options, Status, run};
//!
//! let report = run(&Options::new(Destination::Memory)).unwrap();
//! let masks = &report.files[0];
//! assert_eq!((masks.name, masks.status), ("masks.rs", Status::InMemory));
//! assert!(masks.contents.starts_with(bitboards_codegen::HEADER));
//! ```

mod files;
mod geometry;
mod inputs;
mod magics;
mod published_magics;
mod registry;
mod render;
pub mod rng;
mod table;
mod table_list;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use magics::MagicSource;
pub use render::HEADER;
pub use table::{Element, Index, Naming, Picture};
pub use table_list::{END as TABLE_LIST_END, START as TABLE_LIST_START};

use inputs::Inputs;
use registry::BuiltFile;

/// What [`run`] does: where it writes, whether it may, and which magics.
///
/// ```
/// use bitboards_codegen::{Destination, MagicSource, Mode, Options};
///
/// let options = Options::new(Destination::Workspace(".".into()));
/// assert_eq!(options.mode, Mode::Write);
/// assert_eq!(options.magics, MagicSource::Published);
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    /// Where the files go.
    pub destination: Destination,
    /// Write, or only compare ([`Destination::Memory`] ignores it).
    pub mode: Mode,
    /// Where the slider magics come from.
    pub magics: MagicSource,
}

impl Options {
    /// Writes to `destination`, with the published magics.
    ///
    /// ```
    /// use bitboards_codegen::{Destination, Mode, Options};
    ///
    /// let mut check = Options::new(Destination::Directory("generated".into()));
    /// check.mode = Mode::Check;
    /// ```
    #[must_use]
    pub fn new(destination: Destination) -> Options {
        Options {
            destination,
            mode: Mode::Write,
            magics: MagicSource::Published,
        }
    }
}

/// Where [`run`] puts the generated files.
///
/// ```
/// use bitboards_codegen::Destination;
///
/// let build_script = Destination::Directory("/tmp/out".into());
/// assert_ne!(build_script, Destination::Memory);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Destination {
    /// Nowhere: render in memory only (tests).
    Memory,
    /// The workspace at this root: `generated/` and the table list in
    /// `docs/design.md` (`cargo xtask gen`).
    Workspace(PathBuf),
    /// This folder, and nothing else (the build script's `OUT_DIR`).
    Directory(PathBuf),
}

/// Whether [`run`] may write files.
///
/// ```
/// use bitboards_codegen::Mode;
///
/// assert_ne!(Mode::Write, Mode::Check);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Write every file whose bytes differ from what is generated now.
    Write,
    /// Write nothing; report the files that differ as stale.
    Check,
}

/// What [`run`] did with one file.
///
/// ```
/// use bitboards_codegen::{Destination, Options, Status, run};
///
/// let report = run(&Options::new(Destination::Memory)).unwrap();
/// assert!(report.files.iter().all(|file| file.status == Status::InMemory));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    /// The file already held exactly the generated bytes.
    Unchanged,
    /// The file was missing or different and has been written.
    Written,
    /// The file is missing or different (check mode: nothing written).
    Stale,
    /// Rendered in memory only ([`Destination::Memory`]).
    InMemory,
}

/// What [`run`] produced and did.
///
/// ```
/// use bitboards_codegen::{Destination, Options, run};
///
/// let report = run(&Options::new(Destination::Memory)).unwrap();
/// assert!(report.is_fresh());
/// assert!(report.tables().any(|table| table.name == "SLIDER_ATTACKS"));
/// ```
#[derive(Clone, Debug)]
pub struct Report {
    /// Every generated file, in registry order, the index last.
    pub files: Vec<FileReport>,
    /// The table list in `docs/design.md` ([`Destination::Workspace`] only).
    pub table_list: Option<TableListReport>,
    /// Files in the destination folder that nothing generates (left alone).
    pub strays: Vec<PathBuf>,
    /// How long the magic search took ([`MagicSource::Searched`] only).
    pub magic_search: Option<Duration>,
}

impl Report {
    /// Every table of every file, in registry order.
    ///
    /// ```
    /// use bitboards_codegen::{Destination, Options, run};
    ///
    /// let report = run(&Options::new(Destination::Memory)).unwrap();
    /// let files = report.tables().next().unwrap();
    /// assert_eq!((files.name, files.values.len()), ("FILES", 8));
    /// ```
    pub fn tables(&self) -> impl Iterator<Item = &TableReport> {
        self.files.iter().flat_map(|file| file.tables.iter())
    }

    /// Whether nothing is stale and nothing stray: what `--check` demands.
    ///
    /// ```
    /// use bitboards_codegen::{Destination, Mode, Options, run};
    ///
    /// let empty = std::env::temp_dir().join(format!("codegen-doc-{}", std::process::id()));
    /// let mut options = Options::new(Destination::Directory(empty));
    /// options.mode = Mode::Check;
    /// assert!(!run(&options).unwrap().is_fresh());
    /// ```
    #[must_use]
    pub fn is_fresh(&self) -> bool {
        let stale = |status| status == Status::Stale;
        self.strays.is_empty()
            && !self.files.iter().any(|file| stale(file.status))
            && !self
                .table_list
                .as_ref()
                .is_some_and(|list| stale(list.status))
    }
}

/// One generated file's outcome.
///
/// ```
/// use bitboards_codegen::{Destination, Options, run};
///
/// let report = run(&Options::new(Destination::Memory)).unwrap();
/// let index = report.files.last().unwrap();
/// assert_eq!(index.name, "index.rs");
/// assert!(index.tables.is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The file name inside the destination folder.
    pub name: &'static str,
    /// Where it is (`None` in memory).
    pub path: Option<PathBuf>,
    /// What happened to it.
    pub status: Status,
    /// The feature that gates it in the runtime crate.
    pub feature: Option<&'static str>,
    /// The whole file: header, formatted Rust.
    pub contents: String,
    /// The tables it holds, in order.
    pub tables: Vec<TableReport>,
}

/// What happened to the table list in `docs/design.md`.
///
/// ```
/// use bitboards_codegen::{Destination, Options, run};
///
/// let report = run(&Options::new(Destination::Memory)).unwrap();
/// assert!(report.table_list.is_none());
/// ```
#[derive(Clone, Debug)]
pub struct TableListReport {
    /// The page that holds the list (`docs/design.md`).
    pub path: PathBuf,
    /// Whether its list was up to date, rewritten or stale.
    pub status: Status,
}

/// One table: its values, type and size, and how it is pictured and named.
///
/// ```
/// use bitboards_codegen::{Destination, Element, Options, run};
///
/// let report = run(&Options::new(Destination::Memory)).unwrap();
/// let pawns = report.tables().find(|t| t.name == "PAWN_ATTACKS").unwrap();
/// assert_eq!(pawns.rust_type, "[[u64; 64]; 2]");
/// assert_eq!((pawns.dimensions.as_slice(), pawns.element), (&[2, 64][..], Element::U64));
/// assert_eq!(pawns.bytes, 1024);
/// ```
#[derive(Clone, Debug)]
pub struct TableReport {
    /// The Rust item's name.
    pub name: &'static str,
    /// Its type as Rust spells it: `[u64; 8]`, `[[u64; 64]; 2]`, `u64`.
    pub rust_type: String,
    /// Its entries' type.
    pub element: Element,
    /// Outermost first: `[]` for a word, `[n]` for a list or map,
    /// `[rows, columns]` for a grid.
    pub dimensions: Vec<usize>,
    /// Every entry, row after row, widened to `u64` (a map's values, in the
    /// order of `keys`).
    pub values: Vec<u64>,
    /// A map's names (empty for other tables).
    pub keys: Vec<String>,
    /// Its size in memory, in bytes.
    pub bytes: usize,
    /// How the snapshot test pictures it.
    pub picture: Picture,
    /// What it gives to the name registry.
    pub naming: Naming,
}

/// Generates every table, renders every file and the index, and, as
/// `options` say, writes them (only those whose bytes changed), checks them,
/// or keeps them in memory. The one entry point of the generator.
///
/// ```
/// use bitboards_codegen::{Destination, Options, Status, run};
///
/// let dir = std::env::temp_dir().join(format!("codegen-run-doc-{}", std::process::id()));
/// let options = Options::new(Destination::Directory(dir.clone()));
/// let first = run(&options).unwrap();
/// assert!(first.files.iter().all(|file| file.status == Status::Written));
/// let again = run(&options).unwrap();
/// assert!(again.files.iter().all(|file| file.status == Status::Unchanged));
/// std::fs::remove_dir_all(dir).unwrap();
/// ```
///
/// # Errors
///
/// [`Error::Table`] when a table cannot be built correctly (a magic
/// collision, a malformed data file), [`Error::Io`] when a file cannot be
/// read or written, [`Error::TableList`] when `docs/design.md` lacks the table
/// list's markers.
pub fn run(options: &Options) -> Result<Report, Error> {
    let inputs = Inputs {
        magics: magics::Magics::new(options.magics)?,
        named: registry::named_tables(),
    };
    let mut built = Vec::new();
    for spec in registry::FILES {
        let tables = spec
            .tables
            .iter()
            .map(|entry| Ok((entry, (entry.build)(&inputs)?)))
            .collect::<Result<Vec<_>, Error>>()?;
        built.push(BuiltFile { spec, tables });
    }

    let mut rendered: Vec<FileReport> = Vec::new();
    for file in &built {
        let tables: Vec<table::Table> = file.tables.iter().map(|(_, t)| t.clone()).collect();
        rendered.push(FileReport {
            name: file.spec.name,
            path: None,
            status: Status::InMemory,
            feature: file.spec.feature,
            contents: render::file(&(file.spec.about)(&inputs), &tables)?,
            tables: file
                .tables
                .iter()
                .map(|(entry, table)| TableReport {
                    name: table.name,
                    rust_type: table.rust_type(),
                    element: table.element,
                    dimensions: table.dimensions(),
                    values: table.values.clone(),
                    keys: match &table.shape {
                        table::Shape::Map { keys } => keys.clone(),
                        _ => Vec::new(),
                    },
                    bytes: table.bytes(),
                    picture: entry.picture,
                    naming: entry.naming,
                })
                .collect(),
        });
    }
    rendered.push(FileReport {
        name: render::INDEX,
        path: None,
        status: Status::InMemory,
        feature: None,
        contents: render::index(&built)?,
        tables: Vec::new(),
    });

    let mut report = Report {
        files: rendered,
        table_list: None,
        strays: Vec::new(),
        magic_search: inputs.magics.search_time(),
    };
    match &options.destination {
        Destination::Memory => {}
        Destination::Directory(dir) => sync_folder(dir, options.mode, &mut report)?,
        Destination::Workspace(root) => {
            // The table list's page first: a page without markers stops
            // the run before anything is written.
            let path = root.join(table_list::PAGE);
            let current = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
            let wanted = table_list::splice(&path, &current, &table_list::table_list(&built))?;
            sync_folder(&root.join("generated"), options.mode, &mut report)?;
            let status = sync_file(&path, Some(current.as_bytes()), &wanted, options.mode)?;
            report.table_list = Some(TableListReport { path, status });
        }
    }
    Ok(report)
}

/// Brings `dir` up to date with the report's files (or only compares), and
/// lists the `.rs` files in it that nothing generates.
fn sync_folder(dir: &Path, mode: Mode, report: &mut Report) -> Result<(), Error> {
    if mode == Mode::Write {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    for file in &mut report.files {
        let path = dir.join(file.name);
        let current = std::fs::read(&path).ok();
        file.status = sync_file(&path, current.as_deref(), &file.contents, mode)?;
        file.path = Some(path);
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries {
            let path = entry.map_err(|e| Error::io(dir, e))?.path();
            let generated = report
                .files
                .iter()
                .any(|file| path.file_name() == Some(file.name.as_ref()));
            if !generated && path.extension().is_some_and(|e| e == "rs") {
                report.strays.push(path);
            }
        }
    }
    report.strays.sort();
    Ok(())
}

/// The single place where generated text is written: only when `current`
/// differs from `wanted`, and never in check mode.
fn sync_file(
    path: &Path,
    current: Option<&[u8]>,
    wanted: &str,
    mode: Mode,
) -> Result<Status, Error> {
    Ok(if current == Some(wanted.as_bytes()) {
        Status::Unchanged
    } else if mode == Mode::Check {
        Status::Stale
    } else {
        std::fs::write(path, wanted).map_err(|e| Error::io(path, e))?;
        Status::Written
    })
}

/// Why generation failed.
///
/// ```
/// use bitboards_codegen::{Destination, Error, Options, run};
///
/// // A workspace without docs/design.md (the table list's page): the error
/// // names the file, and nothing was written.
/// let root = std::env::temp_dir().join(format!("codegen-error-doc-{}", std::process::id()));
/// let error = run(&Options::new(Destination::Workspace(root.clone()))).unwrap_err();
/// assert!(matches!(error, Error::Io { .. }));
/// assert!(error.to_string().contains("design.md"));
/// assert!(!root.exists());
/// ```
#[derive(Debug)]
pub enum Error {
    /// Reading or writing a file failed.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A table could not be built correctly (for example a magic factor that
    /// maps two occupancies with different attacks to one entry).
    Table(String),
    /// The table list's page (`docs/design.md`) has no place for it.
    TableList {
        /// The page.
        path: PathBuf,
        /// What is missing or doubled.
        problem: String,
    },
}

impl Error {
    fn io(path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Table(message) => f.write_str(message),
            Error::TableList { path, problem } => write!(f, "{}: {problem}", path.display()),
        }
    }
}

/// No `source`: the message already holds the I/O error's, and a chain
/// printer would print it twice.
impl std::error::Error for Error {}
