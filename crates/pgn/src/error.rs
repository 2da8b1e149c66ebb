//! What goes wrong while reading PGN: a malformed game, which the reader
//! reports and steps over, or an I/O error, which stops it.

use core::fmt;
use std::io;
use std::string::String;

use bitboards::{FenError, ParseUciError, SanError};

/// A malformed game: where (the game's number from 1, the line and column
/// from 1) and what ([`PgnErrorKind`]).
///
/// The column counts bytes, which are characters in ASCII text.
///
/// ```
/// use bitboards_pgn::{PgnErrorKind, ReadError, Reader};
///
/// let pgn = "1. e4 e5 *\n\n1. e4 Nf4 *\n";
/// let mut reader = Reader::new(pgn.as_bytes());
/// let mut games = reader.games();
/// assert!(games.next().unwrap().is_ok());
/// let Some(Err(ReadError::Game(error))) = games.next() else { panic!() };
/// assert_eq!((error.game(), error.line(), error.column()), (2, 3, 7));
/// assert!(matches!(error.kind(), PgnErrorKind::San { .. }));
/// assert_eq!(
///     error.to_string(),
///     "PGN game 2, line 3, column 7: illegal move `Nf4`: no knight can move to f4 in this position"
/// );
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PgnError {
    pub(super) game: usize,
    pub(super) line: u64,
    pub(super) column: u64,
    pub(super) offset: u64,
    pub(super) kind: PgnErrorKind,
}

impl PgnError {
    /// The byte offset in the input (from 0) where the error is, for a
    /// program that seeks to it.
    ///
    /// ```
    /// use bitboards_pgn::{ReadError, Reader};
    ///
    /// let mut reader = Reader::new(&b"1. e4 e5 *\n\n1. e4 Nf4 *\n"[..]);
    /// let mut games = reader.games();
    /// games.next();
    /// let Some(Err(ReadError::Game(error))) = games.next() else { panic!() };
    /// assert_eq!(error.offset(), 18);
    /// ```
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The game's number in the input, from 1.
    ///
    /// ```
    /// use bitboards_pgn::{ReadError, Reader};
    ///
    /// let mut reader = Reader::new(&b"[Event \"x]\n\n*\n"[..]);
    /// let mut games = reader.games();
    /// let Some(Err(ReadError::Game(error))) = games.next() else { panic!() };
    /// assert_eq!(error.game(), 1);
    /// ```
    #[must_use]
    pub fn game(&self) -> usize {
        self.game
    }

    /// The line, from 1.
    ///
    /// ```
    /// use bitboards_pgn::{ReadError, Reader};
    ///
    /// let mut reader = Reader::new(&b"1. e4\n1... e4 *"[..]);
    /// let mut games = reader.games();
    /// let Some(Err(ReadError::Game(error))) = games.next() else { panic!() };
    /// assert_eq!((error.line(), error.column()), (2, 6));
    /// ```
    #[must_use]
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The column, from 1, in bytes.
    ///
    /// ```
    /// use bitboards_pgn::{ReadError, Reader};
    ///
    /// let mut reader = Reader::new(&b"1. e4 ) *"[..]);
    /// let mut games = reader.games();
    /// let Some(Err(ReadError::Game(error))) = games.next() else { panic!() };
    /// assert_eq!(error.column(), 7);
    /// ```
    #[must_use]
    pub fn column(&self) -> u64 {
        self.column
    }

    /// What is wrong.
    ///
    /// ```
    /// use bitboards_pgn::{PgnErrorKind, ReadError, Reader};
    ///
    /// let mut reader = Reader::new(&b"1. e4 { never closed"[..]);
    /// let mut games = reader.games();
    /// let Some(Err(ReadError::Game(error))) = games.next() else { panic!() };
    /// assert_eq!(error.kind(), &PgnErrorKind::UnterminatedComment);
    /// ```
    #[must_use]
    pub fn kind(&self) -> &PgnErrorKind {
        &self.kind
    }
}

/// What is wrong with a game; see [`PgnError`] for where.
///
/// ```
/// use bitboards_pgn::PgnErrorKind;
///
/// assert_eq!(
///     PgnErrorKind::UnmatchedClose.to_string(),
///     "`)` closes no variation"
/// );
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// A tag pair is not `[Name "value"]`; the text says what was expected.
    BadTag {
        /// What the tag needed there, such as "a closing `\"`".
        expected: &'static str,
    },
    /// The `FEN` tag does not read as a position.
    Fen(FenError),
    /// A `Variant` tag names a game other than chess or Chess960.
    UnsupportedVariant(String),
    /// A move that is not legal, not SAN, or ambiguous.
    San {
        /// The move's text.
        san: String,
        /// Why it does not name one legal move.
        error: SanError,
    },
    /// A move in UCI notation (`g1f3`) that is not legal.
    Uci {
        /// The move's text.
        uci: String,
        /// Why it is not a legal move.
        error: ParseUciError,
    },
    /// A null move (`--`, `Z0`, `0000`, `@@@@`) by a side in check, which
    /// would leave its king attacked.
    NullMoveInCheck,
    /// A `{` comment with no `}` before the end of the input.
    UnterminatedComment,
    /// A `)` without a `(`.
    UnmatchedClose,
    /// The game ends inside a variation.
    UnclosedVariation,
    /// A `(` before any move it could replace.
    VariationWithoutMove,
    /// Variations nested deeper than the reader follows.
    TooDeep {
        /// The deepest nesting read.
        limit: usize,
    },
    /// A token (a tag, a move) longer than the reader's buffer.
    TooLong {
        /// The buffer's size in bytes.
        limit: usize,
    },
    /// A NAG that is not `$` and a number up to 255.
    BadNag,
    /// Text that has no place in PGN there.
    Unexpected(String),
}

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::BadTag { expected } => {
                write!(
                    f,
                    "bad tag pair: expected {expected}; a tag is `[Name \"value\"]`"
                )
            }
            PgnErrorKind::Fen(error) => write!(f, "bad FEN tag: {error}"),
            PgnErrorKind::UnsupportedVariant(name) => write!(
                f,
                "variant `{}` is not supported; only standard chess and Chess960 are",
                name.escape_debug()
            ),
            PgnErrorKind::San { san, error } => match error {
                SanError::Malformed { .. } => {
                    write!(f, "bad move `{}`: {error}", san.escape_debug())
                }
                SanError::Ambiguous { .. } => write!(f, "ambiguous move `{san}`: {error}"),
                _ => write!(f, "illegal move `{san}`: {error}"),
            },
            PgnErrorKind::Uci { uci, error } => write!(f, "illegal move `{uci}`: {error}"),
            PgnErrorKind::NullMoveInCheck => {
                f.write_str("a null move by the side in check, whose king it leaves attacked")
            }
            PgnErrorKind::UnterminatedComment => {
                f.write_str("a comment `{` is not closed by `}` before the end of the input")
            }
            PgnErrorKind::UnmatchedClose => f.write_str("`)` closes no variation"),
            PgnErrorKind::UnclosedVariation => {
                f.write_str("the game ends inside a variation: a `(` is not closed by `)`")
            }
            PgnErrorKind::VariationWithoutMove => {
                f.write_str("a variation `(` before any move it could replace")
            }
            PgnErrorKind::TooDeep { limit } => {
                write!(f, "variations nested deeper than {limit} levels")
            }
            PgnErrorKind::TooLong { limit } => {
                write!(f, "a token longer than the reader's buffer ({limit} bytes)")
            }
            PgnErrorKind::BadNag => f.write_str("a NAG is `$` and a number from 0 to 255"),
            PgnErrorKind::Unexpected(text) => {
                write!(f, "unexpected `{}`", text.escape_debug())
            }
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PGN game {}, line {}, column {}: {}",
            self.game, self.line, self.column, self.kind
        )
    }
}

/// No `source`: the message already holds the SAN, UCI or FEN error's, and
/// a chain printer (`anyhow`'s `{:#}`) would print it twice.
impl core::error::Error for PgnError {}

/// An error from [`Reader`](super::Reader): a malformed game, after which
/// reading goes on with the next game, or an I/O error, which ends the
/// reading.
///
/// ```
/// use bitboards_pgn::{ReadError, Reader};
///
/// let mut reader = Reader::new(&b"1. e4 e4 *\n\n1. d4 *"[..]);
/// let mut games = reader.games();
/// assert!(matches!(games.next(), Some(Err(ReadError::Game(_)))));
/// assert!(matches!(games.next(), Some(Ok(_))));
/// assert!(games.next().is_none());
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// A malformed game; the next read goes on with the game after it.
    Game(PgnError),
    /// The input could not be read.
    Io(io::Error),
    /// The input is not PGN at all (a binary file, a `Cargo.lock`): its
    /// first token has no place in PGN, or it holds a NUL byte. Reported
    /// once; the reader reads nothing more.
    NotPgn {
        /// The input's first line, up to 40 bytes (lossy UTF-8).
        start: String,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Game(error) => fmt::Display::fmt(error, f),
            ReadError::Io(error) => write!(f, "cannot read the PGN input: {error}"),
            ReadError::NotPgn { start } => write!(
                f,
                "not a PGN file: it starts with `{}`, where PGN has a tag `[Name \"value\"]` or a move",
                start.escape_default()
            ),
        }
    }
}

/// A game's error is passed through whole (its own source, none); an I/O
/// error's message is in this one's already, so neither has a `source`
/// that a chain printer would print a second time.
impl core::error::Error for ReadError {}

impl From<io::Error> for ReadError {
    fn from(error: io::Error) -> ReadError {
        ReadError::Io(error)
    }
}

impl From<PgnError> for ReadError {
    fn from(error: PgnError) -> ReadError {
        ReadError::Game(error)
    }
}
