//! What a query asks (the position, filters and limits) and what it
//! answers, in the JSON of Lichess's explorer API (lichess-org/api,
//! `OpeningExplorerLichess` and `OpeningExplorerPlayer`).

use bitboards::{CastlingNotation, Move, Position};
use serde::Serialize;

use crate::model::{Month, RatingGroup, Speed};
use crate::openings::Opening;

/// Which games a query counts: speeds, rating groups and months (`None`:
/// all).
///
/// ```
/// use bitboards_explorer::{Filter, RatingGroup, Speed};
///
/// let filter = Filter::parse(Some("blitz,rapid"), Some("2000,2200,2500"), Some("2024-01"), None)?;
/// assert!(filter.has_speed(Speed::Blitz) && !filter.has_speed(Speed::Bullet));
/// assert!(filter.has_rating(RatingGroup::R2200) && !filter.has_rating(RatingGroup::R1800));
/// # Ok::<(), bitboards_explorer::ParseError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// The speeds counted.
    pub speeds: Option<Vec<Speed>>,
    /// The rating groups counted.
    pub ratings: Option<Vec<RatingGroup>>,
    /// The first month counted.
    pub since: Option<Month>,
    /// The last month counted.
    pub until: Option<Month>,
}

impl Filter {
    /// A filter from the API's comma-separated lists and months.
    ///
    /// # Errors
    /// An unknown speed or rating group, or a month not `YYYY-MM`.
    pub fn parse(
        speeds: Option<&str>,
        ratings: Option<&str>,
        since: Option<&str>,
        until: Option<&str>,
    ) -> Result<Filter, crate::ParseError> {
        Ok(Filter {
            speeds: speeds.map(parse_list).transpose()?,
            ratings: ratings.map(parse_list).transpose()?,
            since: since.map(str::parse).transpose()?,
            until: until.map(str::parse).transpose()?,
        })
    }

    /// Whether games at `speed` count.
    #[must_use]
    pub fn has_speed(&self, speed: Speed) -> bool {
        self.speeds
            .as_ref()
            .is_none_or(|speeds| speeds.contains(&speed))
    }

    /// Whether games of `group` count.
    #[must_use]
    pub fn has_rating(&self, group: RatingGroup) -> bool {
        self.ratings
            .as_ref()
            .is_none_or(|groups| groups.contains(&group))
    }

    /// Whether games of `month` count.
    #[must_use]
    pub fn has_month(&self, month: Month) -> bool {
        self.since.is_none_or(|since| month >= since)
            && self.until.is_none_or(|until| month <= until)
    }
}

/// A comma-separated list (empty items ignored).
pub(crate) fn parse_list<T: core::str::FromStr>(text: &str) -> Result<Vec<T>, T::Err> {
    text.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::parse)
        .collect()
}

/// How much a query answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Moves at most (12 by default).
    pub moves: usize,
    /// Top games at most (4 by default; 4 at the most).
    pub top_games: usize,
    /// Recent games at most (4 by default; 8 at the most, less the top
    /// games).
    pub recent_games: usize,
    /// Whether to answer the history by month.
    pub history: bool,
}

impl Limits {
    /// `/masters`'s defaults: 12 moves and 15 top games (its most).
    #[must_use]
    pub fn masters() -> Limits {
        Limits {
            moves: 12,
            top_games: 15,
            recent_games: 0,
            history: false,
        }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            moves: 12,
            top_games: 4,
            recent_games: 4,
            history: false,
        }
    }
}

/// A player of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Player {
    /// The name.
    pub name: String,
    /// The rating.
    pub rating: u16,
}

/// A game as the API shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameInfo {
    /// The id.
    pub id: String,
    /// `white`, `black`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// The speed (`None` for a masters game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<&'static str>,
    /// `rated` or `casual` (`None` for a masters game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<&'static str>,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The year.
    pub year: u16,
    /// The month, `YYYY-MM` (`None` for a masters game whose date has no
    /// month).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub month: Option<String>,
}

/// A game and the move played in it from the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRef {
    /// The move, in UCI (castling as the king taking its rook, `e1h1`, as
    /// Lichess's explorer writes it).
    pub uci: String,
    /// The game.
    #[serde(flatten)]
    pub game: GameInfo,
}

/// A move played from the position, and how it went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveStats {
    /// UCI, castling written `e1h1`.
    pub uci: String,
    /// SAN.
    pub san: String,
    /// The average rating of the players who played it (the position
    /// explorer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_rating: Option<u16>,
    /// The average rating of their opponents (a player's explorer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_opponent_rating: Option<u16>,
    /// The player's performance with it (a player's explorer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub performance: Option<i32>,
    /// Games White won.
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The game, when it was played in one game only.
    pub game: Option<GameInfo>,
    /// The opening of the position after it, when named.
    pub opening: Option<Opening>,
}

/// One month of a position's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HistoryMonth {
    /// `YYYY-MM`.
    pub month: String,
    /// Games White won.
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
}

/// The answer for a position: `GET /lichess` and `GET /player`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Response {
    /// Games White won from the position.
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The moves, most played first.
    pub moves: Vec<MoveStats>,
    /// The recent games (`None` from a masters index).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recent_games: Option<Vec<GameRef>>,
    /// The top games (by rating; `/lichess` and `/masters` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_games: Option<Vec<GameRef>>,
    /// The opening: the last named position on the way to this one.
    pub opening: Option<Opening>,
    /// The player index's queue: 0, the index being complete (`/player`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_position: Option<u64>,
    /// The history by month, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<Vec<HistoryMonth>>,
}

impl Response {
    /// The response as JSON.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A move's UCI as the explorer writes it: castling as the king taking
/// its rook.
pub(crate) fn explorer_uci(mv: Move) -> String {
    mv.uci(CastlingNotation::KingTakesRook).to_string()
}

/// The name of a winner in the API.
pub(crate) fn winner_name(outcome: u8) -> Option<&'static str> {
    crate::model::winner_of(outcome).map(|color| {
        if color == bitboards::Color::White {
            "white"
        } else {
            "black"
        }
    })
}

/// Where a query starts: a position (a FEN, or the standard start) and
/// moves played from it (`play`, UCI).
#[derive(Clone, Debug)]
pub struct Play {
    /// The position queried, after the moves.
    pub position: Position,
    /// The positions on the way, the first being the start.
    pub path: Vec<Position>,
}

/// A query's position that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The FEN does not read.
    Fen(String),
    /// A `play` move is not legal (or not UCI) where it is played.
    Move {
        /// Its place in the list, from 0.
        index: usize,
        /// The text.
        text: String,
    },
}

impl core::fmt::Display for PlayError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PlayError::Fen(error) => write!(f, "invalid fen: {error}"),
            PlayError::Move { index, text } => {
                write!(f, "illegal move {text:?} (number {} of play)", index + 1)
            }
        }
    }
}

impl std::error::Error for PlayError {}

impl Play {
    /// The position of `fen` (the standard start when `None`; `_` may
    /// stand for spaces, as in Lichess's URLs) after `moves` (UCI, castling
    /// as `e1g1` or `e1h1`).
    ///
    /// ```
    /// use bitboards_explorer::Play;
    ///
    /// let play = Play::new(None, &["e2e4", "c7c5"])?;
    /// assert_eq!(play.position.fen().to_string(), "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    /// assert!(Play::new(None, &["e2e5"]).is_err());
    /// # Ok::<(), bitboards_explorer::PlayError>(())
    /// ```
    ///
    /// # Errors
    /// A FEN that does not read, a move that is not legal.
    pub fn new(fen: Option<&str>, moves: &[&str]) -> Result<Play, PlayError> {
        let start = match fen.map(str::trim).filter(|fen| !fen.is_empty()) {
            None => Position::START,
            Some(fen) => {
                let fen = fen.replace('_', " ");
                Position::from_fen(&fen).map_err(|error| PlayError::Fen(error.to_string()))?
            }
        };
        let mut path = vec![start];
        let mut position = start;
        for (index, text) in moves.iter().enumerate() {
            let mv = position.parse_uci(text).map_err(|_| PlayError::Move {
                index,
                text: (*text).to_owned(),
            })?;
            position = position.play_unchecked(mv);
            path.push(position);
        }
        Ok(Play { position, path })
    }
}
