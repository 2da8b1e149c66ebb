//! The `bitboards` command's library: the printed views, and one module
//! per subcommand (`show`, `edit`, `fen`, `perft`, `pgn`, `book`, `tb`, `analyse`); the expression language
//! and the numberings come from `bitboards-expr`, re-exported here as
//! [`expr`] and [`numbering`]. A new subcommand is a new module with an `Args` struct and a
//! `run` function, plus one variant in the binary's `Command` enum.
//!
//! This library exists for the command and its tests; its API follows the
//! command and makes no stability promise of its own.
//!
//! ```
//! use bitboards::Square;
//! use bitboards_cli::{expr, numbering::Numbering};
//!
//! let board = expr::evaluate("knight(g5) & rank_3", Numbering::Lerf, || Ok(String::new())).unwrap();
//! assert_eq!(board, Square::F3.bitboard() | Square::H3.bitboard());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod analyse;
pub mod book;
pub mod edit;
pub mod explorer;
pub mod fen;
pub mod perft;
pub mod pgn;
pub mod render;
pub mod show;
pub mod tb;

/// The expression language (the `bitboards-expr` crate, shared with the web
/// page).
pub use bitboards_expr as expr;

/// The output formats of every subcommand: `--format text` (the default)
/// or `--format json`. Each subcommand's `--format` help says what its
/// text and its JSON object hold.
///
/// ```
/// use bitboards_cli::Format;
///
/// assert_eq!(Format::default(), Format::Text);
/// assert_eq!(bitboards_cli::show::Format::Json, Format::Json);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum Format {
    /// For people.
    #[default]
    Text,
    /// JSON, for scripts.
    Json,
}
/// The square numberings (from `bitboards-expr`).
pub use bitboards_expr::numbering;

use std::io::{self, IsTerminal, Read};

/// Why a subcommand failed, with the text to print on standard error and
/// the exit code: 2 for a bad expression or FEN (as for a usage error), 130 when
/// the user quit the editor with Ctrl-C, 1 for anything else.
///
/// ```
/// use bitboards_cli::{expr, numbering::Numbering, CommandError};
///
/// let source = "e4 |";
/// let error = expr::evaluate(source, Numbering::Lerf, || Ok(String::new())).unwrap_err();
/// let failure = CommandError::expression(&error, source);
/// assert_eq!(failure.exit_code(), 2);
/// assert!(failure.message().starts_with("error: expected"));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CommandError {
    message: String,
    exit_code: u8,
}

impl CommandError {
    /// A bad expression: the message with the caret excerpt, exit code 2.
    ///
    /// ```
    /// use bitboards_cli::{expr, numbering::Numbering, CommandError};
    ///
    /// let error = expr::evaluate("e9", Numbering::Lerf, || Ok(String::new())).unwrap_err();
    /// assert!(CommandError::expression(&error, "e9").message().ends_with("  e9\n  ^^\n"));
    /// ```
    #[must_use]
    pub fn expression(error: &expr::ExprError, source: &str) -> CommandError {
        CommandError {
            message: error.render(source),
            exit_code: 2,
        }
    }

    /// A FEN that does not read: the error (which names the field and the
    /// column) and the FEN with a caret under that column; exit code 2.
    ///
    /// ```
    /// use bitboards::Position;
    /// use bitboards_cli::CommandError;
    ///
    /// let fen = "4k3/8/8/8/8/8/8/4K3 x - - 0 1";
    /// let error = Position::from_fen(fen).unwrap_err();
    /// let failure = CommandError::fen(&error, fen);
    /// assert_eq!(failure.exit_code(), 2);
    /// assert!(failure.message().starts_with("error: FEN field 2 (side to move), column 21: "));
    /// assert!(failure.message().ends_with("\n  4k3/8/8/8/8/8/8/4K3 x - - 0 1\n                      ^\n"));
    /// ```
    #[must_use]
    pub fn fen(error: &bitboards::FenError, fen: &str) -> CommandError {
        // One column per character, control characters as spaces, so the
        // caret stays under the column the error names.
        let printable: String = fen
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let indent = 2 + error.column().saturating_sub(1);
        CommandError {
            message: format!("error: {error}\n  {printable}\n{}^\n", " ".repeat(indent)),
            exit_code: 2,
        }
    }

    /// Any other failure, exit code 1.
    ///
    /// ```
    /// use bitboards_cli::CommandError;
    ///
    /// let error = CommandError::failure("no terminal");
    /// assert_eq!((error.message(), error.exit_code()), ("error: no terminal\n", 1));
    /// ```
    #[must_use]
    pub fn failure(message: impl AsRef<str>) -> CommandError {
        CommandError {
            message: format!("error: {}\n", message.as_ref()),
            exit_code: 1,
        }
    }

    /// A request the command refuses as given (such as a perft depth past
    /// its limit without `--force`): exit code 2, as for a usage error.
    ///
    /// ```
    /// use bitboards_cli::CommandError;
    ///
    /// let error = CommandError::usage("depth 99 is past the limit");
    /// assert_eq!((error.message(), error.exit_code()), ("error: depth 99 is past the limit\n", 2));
    /// ```
    #[must_use]
    pub fn usage(message: impl AsRef<str>) -> CommandError {
        CommandError {
            message: format!("error: {}\n", message.as_ref()),
            exit_code: 2,
        }
    }

    /// An input that cannot be read (a missing file, an I/O error): exit
    /// code 2, as for a usage error.
    ///
    /// ```
    /// use bitboards_cli::CommandError;
    ///
    /// let error = CommandError::unreadable("cannot read games.pgn: not found");
    /// assert_eq!((error.message(), error.exit_code()), ("error: cannot read games.pgn: not found\n", 2));
    /// ```
    #[must_use]
    pub fn unreadable(message: impl AsRef<str>) -> CommandError {
        CommandError {
            message: format!("error: {}\n", message.as_ref()),
            exit_code: 2,
        }
    }

    /// Failures already reported one by one as they happened: nothing more
    /// to print, exit code 1.
    ///
    /// ```
    /// use bitboards_cli::CommandError;
    ///
    /// assert_eq!((CommandError::reported().message(), CommandError::reported().exit_code()), ("", 1));
    /// ```
    #[must_use]
    pub fn reported() -> CommandError {
        CommandError {
            message: String::new(),
            exit_code: 1,
        }
    }

    /// The user quit the editor: nothing to print, exit code 130 (as for an
    /// interrupt).
    ///
    /// ```
    /// use bitboards_cli::CommandError;
    ///
    /// assert_eq!(CommandError::aborted().exit_code(), 130);
    /// assert!(CommandError::aborted().message().is_empty());
    /// ```
    #[must_use]
    pub fn aborted() -> CommandError {
        CommandError {
            message: String::new(),
            exit_code: 130,
        }
    }

    /// A failed write to standard output. A closed pipe (`| head`) is not
    /// worth a message, so it gets none.
    ///
    /// ```
    /// use std::io;
    /// use bitboards_cli::CommandError;
    ///
    /// let closed = CommandError::from_write(io::Error::from(io::ErrorKind::BrokenPipe));
    /// assert!(closed.message().is_empty());
    /// ```
    #[must_use]
    pub fn from_write(error: io::Error) -> CommandError {
        if error.kind() == io::ErrorKind::BrokenPipe {
            CommandError {
                message: String::new(),
                exit_code: 1,
            }
        } else {
            CommandError::failure(format!("could not write the output: {error}"))
        }
    }

    /// The text for standard error (empty when there is nothing to say).
    ///
    /// ```
    /// use bitboards_cli::CommandError;
    ///
    /// assert_eq!(CommandError::failure("x").message(), "error: x\n");
    /// ```
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The process exit code.
    ///
    /// ```
    /// use bitboards_cli::CommandError;
    ///
    /// assert_eq!(CommandError::failure("x").exit_code(), 1);
    /// ```
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        self.exit_code
    }
}

/// Reads all of standard input, for `-` in an expression; on a terminal it
/// first says what it waits for.
///
/// ```no_run
/// use bitboards_cli::{expr, numbering::Numbering, read_stdin};
///
/// let board = expr::evaluate("- & rank_4", Numbering::Lerf, read_stdin).unwrap();
/// println!("{board}");
/// ```
pub fn read_stdin() -> io::Result<String> {
    let mut stdin = io::stdin();
    if stdin.is_terminal() {
        eprintln!("reading a diagram or a number from standard input (finish with Ctrl-D)");
    }
    let mut text = String::new();
    stdin.read_to_string(&mut text)?;
    Ok(text)
}

/// Wraps a reader of standard input for `-` so that a number there (one
/// word starting with a digit, which `Bitboard`'s `FromStr` reads with bit
/// 0 on a1) is read in `numbering`, as numbers in the expression are: it
/// hands the expression the number's diagram. Anything else passes through.
pub(crate) fn stdin_in_numbering(
    numbering: numbering::Numbering,
    mut read_stdin: impl FnMut() -> io::Result<String>,
) -> impl FnMut() -> io::Result<String> {
    move || {
        let text = read_stdin()?;
        let word = text.trim();
        let is_number =
            word.starts_with(|c: char| c.is_ascii_digit()) && !word.contains(char::is_whitespace);
        Ok(match word.parse::<bitboards::Bitboard>() {
            Ok(board) if is_number => numbering.to_board(board.0).to_string(),
            _ => text,
        })
    }
}

/// Reads `fen` as a position; a bad FEN becomes a [`CommandError`] with a
/// caret under the column it names (exit code 2).
///
/// ```
/// use bitboards::Position;
/// use bitboards_cli::read_position;
///
/// let position = read_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", false)?;
/// assert_eq!(position, Position::START);
/// let error = read_position("8/8/8/8/8/8/8/8 w - -", false).unwrap_err();
/// assert!(error.message().contains("king"));
/// # Ok::<(), bitboards_cli::CommandError>(())
/// ```
pub fn read_position(
    fen: &str,
    allow_impossible_check: bool,
) -> Result<bitboards::Position, CommandError> {
    let read = if allow_impossible_check {
        bitboards::Position::from_fen_with(
            fen,
            bitboards::Validation::ALL_RULES.allow_impossible_check(),
        )
    } else {
        bitboards::Position::from_fen(fen)
    };
    read.map_err(|error| CommandError::fen(&error, fen))
}
