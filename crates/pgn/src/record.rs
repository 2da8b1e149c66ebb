//! One game as one row of a table: [`GameRecord`], and the names of the
//! columns that the Parquet and CSV writers give it ([`GAME_COLUMNS`]).
//!
//! The first 17 columns are the tags of the Lichess open database as
//! published on Hugging Face (`Lichess/standard-chess-games`), then its
//! `movetext`; the last six are ours. Both writers read the tags the same
//! way: the first tag of a name counts, a missing tag is null, and so is an
//! integer, date or time that does not parse (`"?"`, `""`, `"????.??.??"`).

use crate::annotations::Score;

/// One game as a row: what `--to parquet` / `--to csv` write.
///
/// ```
/// use bitboards_pgn::record::GameRecord;
///
/// let record = GameRecord {
///     tags: vec![("White".into(), "Carlsen".into()), ("White".into(), "Other".into())],
///     ..GameRecord::default()
/// };
/// assert_eq!(record.tag("White"), Some("Carlsen"));
/// assert_eq!(record.tag("Black"), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    /// Every tag pair in file order (name, value).
    pub tags: Vec<(String, String)>,
    /// The movetext, written back as PGN (moves, comments, result).
    pub movetext: String,
    /// The number of half-moves in the mainline.
    pub plies: u32,
    /// FEN of the final position.
    pub fen: String,
    /// What the rules say of the end: "checkmate", "stalemate", ... or None.
    pub outcome: Option<String>,
    /// The mainline's moves in UCI.
    pub uci: Vec<String>,
    /// Per ply: the `[%clk]` after the move, in seconds.
    pub clocks: Vec<Option<f64>>,
    /// Per ply: the `[%eval]` after the move.
    pub evals: Vec<Option<Score>>,
}

impl GameRecord {
    /// The value of the first tag named `name` (names are case-sensitive),
    /// or `None` if the game has no such tag.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// The values of the tag columns (the first [`TAG_COLUMNS`] of
    /// [`GAME_COLUMNS`]) in one pass over the tags: the first tag of each
    /// name, `None` where the game has none.
    pub(crate) fn tag_columns(&self) -> [Option<&str>; TAG_COLUMNS] {
        let mut values = [None; TAG_COLUMNS];
        for (name, value) in &self.tags {
            if let Some(column) = GAME_COLUMNS[..TAG_COLUMNS].iter().position(|c| c == name)
                && values[column].is_none()
            {
                values[column] = Some(value.as_str());
            }
        }
        values
    }
}

/// The columns of a game table, in order: the Lichess database's 17 tags
/// and `movetext`, then `plies`, `fen`, `outcome`, `uci`, `clocks` and
/// `evals`.
///
/// ```
/// use bitboards_pgn::record::GAME_COLUMNS;
///
/// assert_eq!(GAME_COLUMNS[0], "Event");
/// assert_eq!(GAME_COLUMNS[17], "movetext");
/// assert_eq!(GAME_COLUMNS[23], "evals");
/// ```
pub const GAME_COLUMNS: [&str; 24] = [
    "Event",
    "Site",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "WhiteElo",
    "BlackElo",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "UTCDate",
    "UTCTime",
    "ECO",
    "Opening",
    "Termination",
    "TimeControl",
    "movetext",
    "plies",
    "fen",
    "outcome",
    "uci",
    "clocks",
    "evals",
];

/// How many of [`GAME_COLUMNS`] come from tags (`Event` to `TimeControl`).
pub(crate) const TAG_COLUMNS: usize = 17;

/// What a tag column holds, and so how its text is read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum TagKind {
    /// The tag's text as it is.
    Text,
    /// An integer: `WhiteElo`, `BlackElo`, `WhiteRatingDiff`, `BlackRatingDiff`.
    Int,
    /// `UTCDate`, `YYYY.MM.DD`.
    Date,
    /// `UTCTime`, `HH:MM:SS`.
    Time,
}

/// The kind of tag column `column` (an index below [`TAG_COLUMNS`]).
pub(crate) const fn tag_kind(column: usize) -> TagKind {
    match column {
        7..=10 => TagKind::Int,
        11 => TagKind::Date,
        12 => TagKind::Time,
        _ => TagKind::Text,
    }
}

/// An integer tag (`"1500"`, `"+11"`, `"-9"`), or `None` for anything else
/// (`"?"`, `""`).
pub(crate) fn parse_int(text: &str) -> Option<i32> {
    text.parse().ok()
}

/// A `YYYY.MM.DD` date as days since 1970-01-01 (Arrow's `date32`), or
/// `None` if it is not a real date (`"????.??.??"`, `"2024.02.30"`).
pub(crate) fn parse_date(text: &str) -> Option<i32> {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'.' || bytes[7] != b'.' {
        return None;
    }
    let year = digits(&bytes[0..4])?;
    let month = digits(&bytes[5..7])?;
    let day = digits(&bytes[8..10])?;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if day == 0 || day > month_days {
        return None;
    }
    // Days from civil (proleptic Gregorian), with years starting in March.
    let (year, month, day) = (year as i32, month as i32, day as i32);
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    Some(era * 146_097 + day_of_era - 719_468)
}

/// An `HH:MM:SS` time as seconds since midnight, or `None` if it is not a
/// time of day (`"??:??:??"`, `"24:00:00"`).
pub(crate) fn parse_time(text: &str) -> Option<u32> {
    let bytes = text.as_bytes();
    if bytes.len() != 8 || bytes[2] != b':' || bytes[5] != b':' {
        return None;
    }
    let hours = digits(&bytes[0..2])?;
    let minutes = digits(&bytes[3..5])?;
    let seconds = digits(&bytes[6..8])?;
    (hours < 24 && minutes < 60 && seconds < 60).then_some(hours * 3600 + minutes * 60 + seconds)
}

/// The number written by ASCII digits alone (at most 4 of them here).
fn digits(bytes: &[u8]) -> Option<u32> {
    bytes.iter().try_fold(0, |number, &byte| {
        byte.is_ascii_digit()
            .then(|| number * 10 + u32::from(byte - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(parse_date("1970.01.01"), Some(0));
        assert_eq!(parse_date("2024.01.31"), Some(19_753));
        assert_eq!(parse_date("2000.03.01"), Some(11_017));
        assert_eq!(parse_date("1969.12.31"), Some(-1));
        assert_eq!(parse_date("2024.02.29"), Some(19_782));
        assert_eq!(parse_date("2023.02.29"), None);
        assert_eq!(parse_date("1900.02.29"), None);
        assert_eq!(parse_date("2024.13.01"), None);
        assert_eq!(parse_date("2024.00.10"), None);
        assert_eq!(parse_date("2024.01.00"), None);
        assert_eq!(parse_date("????.??.??"), None);
        assert_eq!(parse_date("2024.??.??"), None);
        assert_eq!(parse_date("2024-01-31"), None);
        assert_eq!(parse_date("2024.1.31"), None);
        assert_eq!(parse_date(""), None);
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("00:00:00"), Some(0));
        assert_eq!(parse_time("23:59:59"), Some(86_399));
        assert_eq!(parse_time("24:00:00"), None);
        assert_eq!(parse_time("12:60:00"), None);
        assert_eq!(parse_time("??:??:??"), None);
        assert_eq!(parse_time("1:02:03"), None);
    }

    #[test]
    fn ints_and_tags() {
        assert_eq!(parse_int("1500"), Some(1500));
        assert_eq!(parse_int("+11"), Some(11));
        assert_eq!(parse_int("-9"), Some(-9));
        assert_eq!(parse_int("?"), None);
        assert_eq!(parse_int(""), None);
        let record = GameRecord {
            tags: vec![
                ("TimeControl".into(), "60+0".into()),
                ("Event".into(), "A".into()),
                ("Round".into(), "1".into()),
                ("Event".into(), "B".into()),
            ],
            ..GameRecord::default()
        };
        let columns = record.tag_columns();
        assert_eq!(columns[0], Some("A"));
        assert_eq!(columns[16], Some("60+0"));
        assert_eq!(columns.iter().flatten().count(), 2);
        assert_eq!(tag_kind(7), TagKind::Int);
        assert_eq!(tag_kind(16), TagKind::Text);
    }
}
