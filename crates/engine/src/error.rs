//! [`EngineError`]: every way talking to an engine can fail.

use std::fmt;
use std::io;
use std::time::Duration;

/// What went wrong with an engine, and with which command or line.
///
/// After the faults of the process itself ([`Terminated`], [`Timeout`]
/// when the engine did not come back, [`NotUci`], [`IllegalBestMove`],
/// [`Io`]) the engine has been shut down: told to `quit`, killed if it did
/// not, and reaped. Every later call returns [`EngineError::Closed`]. The
/// errors of a request ([`UnknownOption`], [`InvalidOptionValue`],
/// [`ManagedOption`], [`InvalidLimit`], [`IllegalMoveInQuery`],
/// [`Chess960Unsupported`], [`NoLegalMove`]) are found before anything is sent, and leave
/// the engine as it was.
///
/// [`Terminated`]: EngineError::Terminated
/// [`Timeout`]: EngineError::Timeout
/// [`NotUci`]: EngineError::NotUci
/// [`IllegalBestMove`]: EngineError::IllegalBestMove
/// [`Io`]: EngineError::Io
/// [`UnknownOption`]: EngineError::UnknownOption
/// [`InvalidOptionValue`]: EngineError::InvalidOptionValue
/// [`ManagedOption`]: EngineError::ManagedOption
/// [`InvalidLimit`]: EngineError::InvalidLimit
/// [`IllegalMoveInQuery`]: EngineError::IllegalMoveInQuery
/// [`Chess960Unsupported`]: EngineError::Chess960Unsupported
/// [`NoLegalMove`]: EngineError::NoLegalMove
///
/// ```
/// use bitboards_engine::EngineError;
///
/// let error = EngineError::UnknownOption {
///     name: "Hsh".to_owned(),
///     known: vec!["Hash".to_owned(), "Threads".to_owned()],
/// };
/// assert_eq!(
///     error.to_string(),
///     "the engine has no option `Hsh`; it declared: Hash, Threads"
/// );
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum EngineError {
    /// The program could not be started.
    Spawn {
        /// The program's path.
        path: String,
        /// Why the operating system refused.
        source: io::Error,
    },
    /// The program never finished the UCI handshake: it exited, or wrote no
    /// `uciok` within the handshake timeout (`/bin/cat`, `/bin/true`, an
    /// engine for another protocol).
    NotUci {
        /// The program's path.
        path: String,
        /// What happened instead of `uciok`.
        reason: String,
    },
    /// The engine exited (its output ended) while a command waited for its
    /// answer.
    Terminated {
        /// The command that was waiting (`go nodes 1000`, `isready`).
        command: String,
        /// The exit status, when known (`exit status: 1`, `signal: 9`).
        status: Option<String>,
    },
    /// No answer within the deadline. For a search the engine was told to
    /// `stop`; if it did not answer that either, it was killed.
    Timeout {
        /// The command that was not answered.
        command: String,
        /// The answer waited for (`bestmove`, `readyok`, `uciok`).
        expected: &'static str,
        /// How long the client waited.
        waited: Duration,
        /// Whether the engine was killed (it did not answer `stop` either).
        killed: bool,
    },
    /// The engine wrote more lines in one search than any search writes
    /// (a million) without its `bestmove`: it was killed.
    Flood {
        /// The search's command.
        command: String,
        /// The lines it wrote.
        lines: u64,
    },
    /// The engine's `bestmove` is not a legal move in the position searched
    /// (a `ponder` move that is not legal is only a warning).
    IllegalBestMove {
        /// The line as the engine wrote it.
        line: String,
        /// The position searched, as FEN.
        fen: String,
    },
    /// Writing to the engine failed for another reason than its exit.
    Io {
        /// The command being written.
        command: String,
        /// The error.
        source: io::Error,
    },
    /// `setoption` with a name the engine did not declare.
    UnknownOption {
        /// The name asked for.
        name: String,
        /// Every name the engine declared, in its order.
        known: Vec<String>,
    },
    /// `setoption` with a value the option does not take.
    InvalidOptionValue {
        /// The option, as the engine declared it.
        name: String,
        /// The value asked for.
        value: String,
        /// What the option takes (`an integer from 1 to 33554432`).
        expected: String,
    },
    /// An option the client sets itself from each request (`MultiPV`,
    /// `UCI_Chess960`).
    ManagedOption {
        /// The option.
        name: String,
        /// Where to ask for it instead.
        instead: &'static str,
    },
    /// A [`Limit`](crate::Limit) the client cannot send (nothing set, so the
    /// search would never end), or a `multipv` of 0.
    InvalidLimit(String),
    /// A move of the request is not legal where it is played.
    IllegalMoveInQuery {
        /// The move's index among the request's moves (0 for the first).
        index: usize,
        /// The move, in UCI.
        mv: String,
        /// The position it was played in, as FEN.
        fen: String,
    },
    /// The position needs Chess960 castling and the engine declared no
    /// `UCI_Chess960` option.
    Chess960Unsupported {
        /// The position, as FEN.
        fen: String,
    },
    /// [`Engine::play`](crate::Engine::play) in a position without a legal
    /// move (checkmate or stalemate).
    NoLegalMove {
        /// The position, as FEN.
        fen: String,
    },
    /// The engine was shut down by an earlier fault or by `quit`.
    Closed {
        /// Why it was shut down.
        reason: String,
    },
}

impl EngineError {
    /// Whether the engine was shut down by this error (a fault of the
    /// process), so that a pool must start another one; `false` for an
    /// error of the request, which leaves the engine as it was.
    ///
    /// ```
    /// use bitboards_engine::EngineError;
    ///
    /// assert!(!EngineError::InvalidLimit("no limit".into()).is_fatal());
    /// ```
    #[must_use]
    pub fn is_fatal(&self) -> bool {
        match self {
            EngineError::Spawn { .. }
            | EngineError::NotUci { .. }
            | EngineError::Terminated { .. }
            | EngineError::IllegalBestMove { .. }
            | EngineError::Flood { .. }
            | EngineError::Io { .. }
            | EngineError::Closed { .. } => true,
            EngineError::Timeout { killed, .. } => *killed,
            EngineError::UnknownOption { .. }
            | EngineError::InvalidOptionValue { .. }
            | EngineError::ManagedOption { .. }
            | EngineError::InvalidLimit(_)
            | EngineError::IllegalMoveInQuery { .. }
            | EngineError::Chess960Unsupported { .. }
            | EngineError::NoLegalMove { .. } => false,
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn { path, source } => {
                write!(f, "could not start the engine `{path}`: {source}")
            }
            EngineError::NotUci { path, reason } => {
                write!(f, "`{path}` is not a UCI engine: {reason}")
            }
            EngineError::Terminated { command, status } => {
                write!(
                    f,
                    "the engine exited while waiting for the answer to `{command}`"
                )?;
                match status {
                    Some(status) => write!(f, " ({status})"),
                    None => Ok(()),
                }
            }
            EngineError::Timeout {
                command,
                expected,
                waited,
                killed,
            } => {
                write!(
                    f,
                    "no `{expected}` within {:.3} s of `{command}`",
                    waited.as_secs_f64()
                )?;
                if *killed {
                    write!(f, "; the engine did not answer `stop` and was killed")
                } else {
                    write!(f, "; the search was stopped")
                }
            }
            EngineError::Flood { command, lines } => write!(
                f,
                "the engine wrote {lines} lines after `{command}` without a `bestmove`: it floods, and was killed"
            ),
            EngineError::IllegalBestMove { line, fen } => {
                write!(
                    f,
                    "the engine answered `{line}`, which is not a legal move in {fen}"
                )
            }
            EngineError::Io { command, source } => {
                write!(f, "could not write `{command}` to the engine: {source}")
            }
            EngineError::UnknownOption { name, known } => {
                write!(
                    f,
                    "the engine has no option `{name}`; it declared: {}",
                    known.join(", ")
                )
            }
            EngineError::InvalidOptionValue {
                name,
                value,
                expected,
            } => write!(
                f,
                "option `{name}` does not take `{value}`: it takes {expected}"
            ),
            EngineError::ManagedOption { name, instead } => {
                write!(f, "option `{name}` is set by the client itself; {instead}")
            }
            EngineError::InvalidLimit(why) => write!(f, "invalid search limit: {why}"),
            EngineError::IllegalMoveInQuery { index, mv, fen } => write!(
                f,
                "move {} of the request, `{mv}`, is not legal in {fen}",
                index + 1
            ),
            EngineError::Chess960Unsupported { fen } => write!(
                f,
                "{fen} needs Chess960 castling and the engine has no `UCI_Chess960` option"
            ),
            EngineError::NoLegalMove { fen } => {
                write!(f, "there is no legal move to play in {fen}")
            }
            EngineError::Closed { reason } => {
                write!(f, "the engine was shut down earlier: {reason}")
            }
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EngineError::Spawn { source, .. } | EngineError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
