//! The result of a game as PGN writes it: [`GameResult`].

use core::fmt;
use core::str::FromStr;

/// The result of a game as PGN writes it, at the end of the movetext and in
/// the `Result` tag.
///
/// ```
/// use bitboards_pgn::GameResult;
///
/// assert_eq!("1/2-1/2".parse::<GameResult>(), Ok(GameResult::Draw));
/// assert_eq!(GameResult::BlackWins.to_string(), "0-1");
/// assert!("2-0".parse::<GameResult>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, unfinished or abandoned.
    Unknown,
}

impl GameResult {
    /// The text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    ///
    /// ```
    /// use bitboards_pgn::GameResult;
    ///
    /// assert_eq!(GameResult::Unknown.as_str(), "*");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads the result from its text's bytes; `None` for anything else.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<GameResult> {
        match bytes {
            b"1-0" => Some(GameResult::WhiteWins),
            b"0-1" => Some(GameResult::BlackWins),
            b"1/2-1/2" => Some(GameResult::Draw),
            b"*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Text that is not a PGN result, from `GameResult`'s `FromStr`.
///
/// ```
/// use bitboards_pgn::GameResult;
///
/// let error = "½-½".parse::<GameResult>().unwrap_err();
/// assert_eq!(error.to_string(), "not a PGN result; expected `1-0`, `0-1`, `1/2-1/2` or `*`");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ParseResultError;

impl fmt::Display for ParseResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a PGN result; expected `1-0`, `0-1`, `1/2-1/2` or `*`")
    }
}

impl core::error::Error for ParseResultError {}

impl FromStr for GameResult {
    type Err = ParseResultError;

    fn from_str(text: &str) -> Result<GameResult, ParseResultError> {
        GameResult::from_bytes(text.as_bytes()).ok_or(ParseResultError)
    }
}
