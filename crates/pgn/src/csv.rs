//! Game tables as CSV (RFC 4180): one header line, then one line per game,
//! with the 24 columns of [`GAME_COLUMNS`], as the Parquet table has them.
//!
//! Lines end in CRLF. A field is quoted only when it holds a comma, a quote,
//! CR or LF, and a quote inside it is doubled (a movetext wrapped over lines
//! is one quoted field). A null is an empty field: a missing tag, and an
//! integer, date or time tag that does not parse (`"?"`, `"????.??.??"`),
//! so that CSV and Parquet agree on what is null. Integers are written as
//! parsed (`"+11"` becomes `11`); a date or time as in its tag
//! (`2024.01.31`, `23:59:59`). Each list is one field with its elements
//! separated by single spaces, `-` standing for an absent element:
//!
//! - `uci`: `e2e4 e7e5`;
//! - `clocks`: seconds, as `f64` displays them (`300`, `59.5`);
//! - `evals`: centipawns as an integer (`31`, `-140`), a mate as `#3` or
//!   `#-3`.
//!
//! ```
//! use bitboards_pgn::annotations::Score;
//! use bitboards_pgn::csv;
//! use bitboards_pgn::record::GameRecord;
//!
//! let record = GameRecord {
//!     tags: vec![("White".into(), "Doe, John".into()), ("WhiteElo".into(), "?".into())],
//!     movetext: "1. e4 { [%eval 0.3] } 1-0".into(),
//!     plies: 1,
//!     fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
//!     uci: "e2e4".into(),
//!     clocks: vec![None],
//!     evals: vec![Some(Score::Cp(30))],
//!     ..GameRecord::default()
//! };
//! let mut out = Vec::new();
//! csv::write_header(&mut out)?;
//! csv::write_row(&mut out, &record)?;
//! let text = String::from_utf8(out).unwrap();
//! let row = text.lines().nth(1).unwrap();
//! assert_eq!(
//!     row,
//!     ",,\"Doe, John\",,,,,,,,,,,,,,,1. e4 { [%eval 0.3] } 1-0,1,\
//!      rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1,,e2e4,-,30",
//! );
//! # Ok::<(), std::io::Error>(())
//! ```

use std::io::{self, Write};

use crate::annotations::Score;
use crate::record::{
    GAME_COLUMNS, GAME_TABLE, GameRecord, TagKind, Value, parse_date, parse_int, parse_time,
    push_integer_bytes, push_seconds,
};

/// Writes the header line: the names of [`GAME_COLUMNS`], comma-separated.
///
/// # Errors
///
/// What writing to `out` returns.
pub fn write_header(out: &mut impl Write) -> io::Result<()> {
    out.write_all(GAME_COLUMNS.join(",").as_bytes())?;
    out.write_all(b"\r\n")
}

/// Writes one game as one line (see the [module](self) for the format):
/// the line made with [`push_row`], then one write.
///
/// # Errors
///
/// What writing to `out` returns.
pub fn write_row(out: &mut impl Write, record: &GameRecord) -> io::Result<()> {
    let mut line = Vec::with_capacity(record.movetext.len() + 1024);
    push_row(&mut line, record);
    out.write_all(&line)
}

/// Appends one game as one line to `out` (see the [module](self) for the
/// format): what [`write_row`] writes, for a caller that gathers lines in
/// memory (the `bitboards pgn --to csv` workers do).
///
/// ```
/// use bitboards_pgn::csv;
/// use bitboards_pgn::record::GameRecord;
///
/// let record = GameRecord { plies: 2, clocks: vec![Some(59.5), None], ..GameRecord::default() };
/// let mut line = Vec::new();
/// csv::push_row(&mut line, &record);
/// assert!(line.ends_with(b",2,,,,59.5 -,\r\n"), "{}", String::from_utf8_lossy(&line));
/// ```
pub fn push_row(out: &mut Vec<u8>, record: &GameRecord) {
    let tags = record.tag_values();
    for (at, column) in GAME_TABLE.iter().enumerate() {
        if at > 0 {
            out.push(b',');
        }
        push_value(out, column.value, tags[at], record);
    }
    out.extend_from_slice(b"\r\n");
}

/// Appends one column's field of a row: `tag` is the column's tag's text,
/// when it holds a tag. Numbers are written as `Display` writes them,
/// without the formatter ([`push_integer_bytes`], [`push_seconds`]).
fn push_value(out: &mut Vec<u8>, value: Value, tag: Option<&str>, record: &GameRecord) {
    match value {
        Value::Tag(kind) => {
            let Some(text) = tag else { return };
            match kind {
                TagKind::Text => push_field(out, text),
                TagKind::Int => {
                    if let Some(number) = parse_int(text) {
                        push_integer_bytes(out, i64::from(number));
                    }
                }
                TagKind::Date if parse_date(text).is_some() => {
                    out.extend_from_slice(text.as_bytes())
                }
                TagKind::Time if parse_time(text).is_some() => {
                    out.extend_from_slice(text.as_bytes())
                }
                TagKind::Date | TagKind::Time => {}
            }
        }
        Value::Text(get) => {
            if let Some(text) = get(record) {
                push_field(out, text);
            }
        }
        Value::Int(get) => push_integer_bytes(out, i64::from(get(record))),
        Value::Moves(get) => push_field(out, get(record)),
        Value::Clocks(get) => {
            for (ply, clock) in get(record).iter().enumerate() {
                if ply > 0 {
                    out.push(b' ');
                }
                match clock {
                    Some(seconds) => push_seconds(out, *seconds),
                    None => out.push(b'-'),
                }
            }
        }
        Value::Evals(get) => {
            for (ply, eval) in get(record).iter().enumerate() {
                if ply > 0 {
                    out.push(b' ');
                }
                match eval {
                    Some(Score::Cp(centipawns)) => push_integer_bytes(out, i64::from(*centipawns)),
                    Some(Score::Mate(moves)) => {
                        out.push(b'#');
                        push_integer_bytes(out, i64::from(*moves));
                    }
                    None => out.push(b'-'),
                }
            }
        }
    }
}

/// Whether `text` must be quoted to be one field: it holds a comma, a
/// quote, CR or LF (two vector scans: a movetext is some kilobytes).
fn needs_quotes(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr3(b',', b'"', b'\n', bytes).is_some() || memchr::memchr(b'\r', bytes).is_some()
}

/// Appends `text` as one field: as it is, or quoted with its quotes
/// doubled.
fn push_field(out: &mut Vec<u8>, text: &str) {
    if !needs_quotes(text) {
        return out.extend_from_slice(text.as_bytes());
    }
    out.push(b'"');
    for (index, part) in text.split('"').enumerate() {
        if index > 0 {
            out.extend_from_slice(b"\"\"");
        }
        out.extend_from_slice(part.as_bytes());
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|&(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    fn csv(records: &[GameRecord]) -> String {
        let mut out = Vec::new();
        write_header(&mut out).unwrap();
        for record in records {
            write_row(&mut out, record).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn header() {
        assert_eq!(
            csv(&[]),
            "Event,Site,White,Black,Result,WhiteTitle,BlackTitle,WhiteElo,BlackElo,\
             WhiteRatingDiff,BlackRatingDiff,UTCDate,UTCTime,ECO,Opening,Termination,\
             TimeControl,movetext,plies,fen,outcome,uci,clocks,evals\r\n"
        );
    }

    #[test]
    fn lichess_game() {
        let record = GameRecord {
            tags: tags(&[
                ("Event", "Rated Blitz game"),
                ("Site", "https://lichess.org/abcd"),
                ("Date", "2024.01.31"),
                ("Round", "-"),
                ("White", "alice"),
                ("Black", "bob"),
                ("Result", "0-1"),
                ("UTCDate", "2024.01.31"),
                ("UTCTime", "23:59:59"),
                ("WhiteElo", "1500"),
                ("BlackElo", "?"),
                ("WhiteRatingDiff", "-6"),
                ("BlackRatingDiff", "+6"),
                ("BlackTitle", "BOT"),
                ("ECO", "C20"),
                ("Opening", "King's Pawn Game: Wayward Queen Attack"),
                ("TimeControl", "180+2"),
                ("Termination", "Normal"),
            ]),
            movetext: "1. e4 { [%eval 0.3] [%clk 0:03:00] } 1... e5 { [%clk 0:02:59.5] } 2. Qh5 \
                       { [%eval #-3] } 0-1"
                .into(),
            plies: 3,
            fen: "rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2".into(),
            outcome: None,
            uci: "e2e4 e7e5 d1h5".into(),
            clocks: vec![Some(180.0), Some(179.5), None],
            evals: vec![Some(Score::Cp(30)), None, Some(Score::Mate(-3))],
        };
        assert_eq!(
            csv(&[record]).lines().nth(1).unwrap(),
            "Rated Blitz game,https://lichess.org/abcd,alice,bob,0-1,,BOT,1500,,-6,6,\
             2024.01.31,23:59:59,C20,King's Pawn Game: Wayward Queen Attack,Normal,180+2,\
             1. e4 { [%eval 0.3] [%clk 0:03:00] } 1... e5 { [%clk 0:02:59.5] } 2. Qh5 \
             { [%eval #-3] } 0-1,3,\
             rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2,,\
             e2e4 e7e5 d1h5,180 179.5 -,30 - #-3"
        );
    }

    #[test]
    fn no_tags_and_empty_lists() {
        let record = GameRecord {
            movetext: "*".into(),
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            ..GameRecord::default()
        };
        assert_eq!(
            csv(&[record]),
            format!(
                "{}\r\n{}*,0,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,,,,\r\n",
                GAME_COLUMNS.join(","),
                ",".repeat(17),
            )
        );
    }

    #[test]
    fn quoting_and_unparsable_tags() {
        let record = GameRecord {
            tags: tags(&[
                ("White", "Müller, Jörg"),
                ("Black", "Smith \"The Hammer\""),
                ("Event", "Line\nbreak"),
                ("Site", "Carriage\rreturn"),
                ("Result", "1/2-1/2"),
                ("WhiteElo", ""),
                ("BlackElo", "2100"),
                ("UTCDate", "????.??.??"),
                ("UTCTime", "25:00:00"),
                ("Opening", "\"quoted\""),
                ("ECO", ""),
            ]),
            movetext: "1. d4 { a \"quote\", a comma }\n1/2-1/2".into(),
            plies: 1,
            fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            outcome: Some("stalemate".into()),
            uci: "d2d4".into(),
            clocks: vec![Some(0.25)],
            evals: vec![Some(Score::Mate(3))],
        };
        assert_eq!(
            csv(&[record]).split_once("\r\n").unwrap().1,
            "\"Line\nbreak\",\"Carriage\rreturn\",\"Müller, Jörg\",\
             \"Smith \"\"The Hammer\"\"\",1/2-1/2,,,,2100,,,,,,\"\"\"quoted\"\"\",,,\
             \"1. d4 { a \"\"quote\"\", a comma }\n1/2-1/2\",1,8/8/8/8/8/8/8/K6k w - - 0 1,\
             stalemate,d2d4,0.25,#3\r\n"
        );
    }

    #[test]
    fn odd_uci_is_quoted() {
        let record = GameRecord {
            uci: "a,b c".into(),
            ..GameRecord::default()
        };
        assert!(csv(&[record]).ends_with(",\"a,b c\",,\r\n"));
    }
}
