//! What can go wrong: [`SyzygyError`].

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why a probe has no answer. Each says what is wrong and where.
#[derive(Debug)]
#[non_exhaustive]
pub enum SyzygyError {
    /// No table of this material was added (`name` is the table the
    /// position needs, `KQvKR.rtbw`).
    MissingTable {
        /// The file name the position needs.
        name: String,
    },
    /// The position has castling rights: the tables hold none.
    Castling,
    /// More pieces than the tables hold (7 at most, kings included).
    TooManyPieces {
        /// The pieces on the board.
        count: u32,
    },
    /// A file could not be opened or read.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A file is not a Syzygy table of the kind its name says, or is cut
    /// short or corrupted.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong, and at which byte offset where there is one.
        problem: String,
    },
}

impl fmt::Display for SyzygyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyzygyError::MissingTable { name } => {
                write!(f, "no table {name}: add a directory that holds it")
            }
            SyzygyError::Castling => {
                f.write_str("the position has castling rights; Syzygy tables hold none")
            }
            SyzygyError::TooManyPieces { count } => write!(
                f,
                "{count} pieces on the board; Syzygy tables hold at most 7, kings included"
            ),
            SyzygyError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            SyzygyError::Corrupt { path, problem } => {
                write!(f, "{}: not a valid Syzygy table: {problem}", path.display())
            }
        }
    }
}

impl std::error::Error for SyzygyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SyzygyError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A problem found in a table's bytes, before the file it is in is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Malformed(pub(crate) String);

impl Malformed {
    pub(crate) fn at(offset: usize, what: &str) -> Malformed {
        Malformed(format!("{what} (byte {offset})"))
    }

    pub(crate) fn in_file(self, path: PathBuf) -> SyzygyError {
        SyzygyError::Corrupt {
            path,
            problem: self.0,
        }
    }
}
