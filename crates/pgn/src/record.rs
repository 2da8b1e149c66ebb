//! One game as one row of a table: [`GameRecord`], and the table's columns,
//! declared once each (`GAME_TABLE`, whose names are [`GAME_COLUMNS`]),
//! from which the Parquet and CSV writers follow.
//!
//! The first 17 columns are the tags of the Lichess open database as
//! published on Hugging Face (`Lichess/standard-chess-games`), then its
//! `movetext`; the last six are ours. Both writers read the tags the same
//! way: the first tag of a name counts, a missing tag is null, and so is an
//! integer, date or time that does not parse (`"?"`, `""`, `"????.??.??"`).

use core::fmt::Write as _;
use std::borrow::Cow;

use bitboards::{Color, Game, Outcome, Piece, PieceKind, Position};

use crate::annotations::{Annotations, Score};
use crate::result::GameResult;
use crate::visitor::{PgnMove, Visitor};

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
    /// The movetext: as the file has it (comments, NAGs, variations and
    /// whitespace as read, to the result), or written back as Lichess
    /// writes it, as the visitor's [`MovetextForm`] says.
    pub movetext: String,
    /// The number of half-moves in the mainline.
    pub plies: u32,
    /// FEN of the final position.
    pub fen: String,
    /// What the rules say of the end: "checkmate", "stalemate", ... or None.
    pub outcome: Option<String>,
    /// The mainline's moves in UCI, separated by single spaces
    /// ([`uci_moves`](GameRecord::uci_moves) lists them): one string per
    /// game rather than one per move.
    pub uci: String,
    /// Per ply: the `[%clk]` after the move, in seconds (empty when the
    /// visitor reads no [`annotations`](RecordVisitor::annotations)).
    pub clocks: Vec<Option<f64>>,
    /// Per ply: the `[%eval]` after the move (empty likewise).
    pub evals: Vec<Option<Score>>,
}

impl GameRecord {
    /// The value of the first tag named `name` (names are case-sensitive),
    /// or `None` if the game has no such tag.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        first_tag(&self.tags, name)
    }

    /// The mainline's moves in UCI, one by one.
    ///
    /// ```
    /// use bitboards_pgn::record::GameRecord;
    ///
    /// let record = GameRecord { uci: "e2e4 e7e5".into(), ..GameRecord::default() };
    /// assert_eq!(record.uci_moves().collect::<Vec<_>>(), ["e2e4", "e7e5"]);
    /// assert_eq!(GameRecord::default().uci_moves().count(), 0);
    /// ```
    pub fn uci_moves(&self) -> impl Iterator<Item = &str> {
        self.uci.split_ascii_whitespace()
    }

    /// The text of each tag column of [`GAME_TABLE`], by the column's
    /// place in the table, in one pass over the tags: the first tag of each
    /// name; `None` where the game has none, and for the other columns.
    pub(crate) fn tag_values(&self) -> [Option<&str>; GAME_TABLE.len()] {
        let mut values = [None; GAME_TABLE.len()];
        let mut finder = TagFinder::default();
        for (name, value) in &self.tags {
            if let Some(column) = finder.column(name)
                && values[column].is_none()
            {
                values[column] = Some(value.as_str());
            }
        }
        values
    }
}

/// Finds the tag columns of [`GAME_TABLE`] of a game's tags, one after
/// another. Each name is looked for from the place after the last one
/// found, round the list: tags in the table's order (Lichess's, mostly)
/// are found at the first or second comparison instead of a search from
/// the top for each.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TagFinder {
    next: usize,
}

impl TagFinder {
    /// The place in [`GAME_TABLE`] of the column of the tag `name`, if
    /// the table has one.
    #[inline]
    pub(crate) fn column(&mut self, name: &str) -> Option<usize> {
        let (before, from) = TAG_COLUMNS.split_at(self.next);
        let offset = from
            .iter()
            .chain(before)
            .position(|(tag, _)| *tag == name)?;
        let at = (self.next + offset) % TAG_COLUMNS.len();
        self.next = (at + 1) % TAG_COLUMNS.len();
        Some(TAG_COLUMNS[at].1)
    }
}

/// Whether two names are the same, at compile time.
#[cfg_attr(not(feature = "arrow"), allow(dead_code))]
pub(crate) const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut at = 0;
    while at < a.len() && a[at] == b[at] {
        at += 1;
    }
    at == a.len()
}

/// The place of the column `name` in [`GAME_TABLE`]; a compile error
/// where it is used in a constant and the table has no such column.
#[cfg_attr(not(feature = "arrow"), allow(dead_code))]
pub(crate) const fn game_column(name: &str) -> usize {
    let mut at = 0;
    while at < GAME_TABLE.len() {
        if same_name(GAME_TABLE[at].name, name) {
            return at;
        }
        at += 1;
    }
    panic!("no such column of the game table")
}

/// The value of the first tag named `name` among `tags`.
pub(crate) fn first_tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(tag, _)| tag == name)
        .map(|(_, value)| value.as_str())
}

/// The game table, one declaration per column, in order: its name, what
/// it holds and where from ([`Value`]). The schema
/// ([`games_schema`](crate::table::games_schema)), the Arrow builder
/// ([`GamesBuilder`](crate::table::GamesBuilder)), the CSV writer
/// ([`csv`](crate::csv)) and [`GAME_COLUMNS`] all follow from it, so that
/// adding a column is adding its line here (CONTRIBUTING.md shows one).
///
/// The first 17 columns are the tags of the Lichess open database as
/// published on Hugging Face (`Lichess/standard-chess-games`), then its
/// `movetext`; the rest are ours.
pub(crate) const GAME_TABLE: &[GameColumn] = &[
    GameColumn::tag("Event", TagKind::Text),
    GameColumn::tag("Site", TagKind::Text),
    GameColumn::tag("White", TagKind::Text),
    GameColumn::tag("Black", TagKind::Text),
    GameColumn::tag("Result", TagKind::Text),
    GameColumn::tag("WhiteTitle", TagKind::Text),
    GameColumn::tag("BlackTitle", TagKind::Text),
    GameColumn::tag("WhiteElo", TagKind::Int),
    GameColumn::tag("BlackElo", TagKind::Int),
    GameColumn::tag("WhiteRatingDiff", TagKind::Int),
    GameColumn::tag("BlackRatingDiff", TagKind::Int),
    GameColumn::tag("UTCDate", TagKind::Date),
    GameColumn::tag("UTCTime", TagKind::Time),
    GameColumn::tag("ECO", TagKind::Text),
    GameColumn::tag("Opening", TagKind::Text),
    GameColumn::tag("Termination", TagKind::Text),
    GameColumn::tag("TimeControl", TagKind::Text),
    GameColumn::new("movetext", Value::Text(|game| Some(&game.movetext))),
    GameColumn::new("plies", Value::Int(|game| game.plies)),
    GameColumn::new("fen", Value::Text(|game| Some(&game.fen))).not_null(),
    GameColumn::new("outcome", Value::Text(|game| game.outcome.as_deref())),
    GameColumn::new("uci", Value::Moves(|game| &game.uci)),
    GameColumn::new("clocks", Value::Clocks(|game| &game.clocks)),
    GameColumn::new("evals", Value::Evals(|game| &game.evals)),
];

/// The tag columns of [`GAME_TABLE`]: each one's tag name and place.
pub(crate) const TAG_COLUMNS: [(&str, usize); tag_count()] = {
    let mut tags = [("", 0); tag_count()];
    let (mut at, mut found) = (0, 0);
    while at < GAME_TABLE.len() {
        if GAME_TABLE[at].is_tag() {
            tags[found] = (GAME_TABLE[at].name, at);
            found += 1;
        }
        at += 1;
    }
    tags
};

/// How many columns of [`GAME_TABLE`] hold a tag.
const fn tag_count() -> usize {
    let (mut at, mut count) = (0, 0);
    while at < GAME_TABLE.len() {
        if GAME_TABLE[at].is_tag() {
            count += 1;
        }
        at += 1;
    }
    count
}

/// One column of the game table: a line of [`GAME_TABLE`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct GameColumn {
    /// Its name, in the schema and the CSV header.
    pub(crate) name: &'static str,
    /// What it holds and where from.
    pub(crate) value: Value,
    /// Whether it may be null. Tag columns may (a missing tag, a number
    /// that does not parse); lists never are (an empty list instead).
    /// The Arrow schema says so; CSV writes a null as an empty field.
    #[cfg_attr(not(feature = "arrow"), allow(dead_code))]
    pub(crate) nullable: bool,
}

impl GameColumn {
    /// The column of the first tag named `name`, read as `kind`.
    const fn tag(name: &'static str, kind: TagKind) -> GameColumn {
        GameColumn {
            name,
            value: Value::Tag(kind),
            nullable: true,
        }
    }

    /// A column of the record's own values: nullable where the value can
    /// be absent (text), never for numbers and lists.
    const fn new(name: &'static str, value: Value) -> GameColumn {
        let nullable = matches!(value, Value::Tag(_) | Value::Text(_));
        GameColumn {
            name,
            value,
            nullable,
        }
    }

    /// The same column, never null.
    const fn not_null(self) -> GameColumn {
        GameColumn {
            nullable: false,
            ..self
        }
    }

    /// Whether it holds a tag.
    pub(crate) const fn is_tag(&self) -> bool {
        matches!(self.value, Value::Tag(_))
    }
}

/// What a game column holds, and where from; its Arrow type and its CSV
/// text follow (the [`table`](crate::table) and [`csv`](crate::csv)
/// modules' docs list them).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Value {
    /// The first tag named as the column, read as `TagKind` says.
    Tag(TagKind),
    /// Text (utf8); `None` is null.
    Text(fn(&GameRecord) -> Option<&str>),
    /// A count (int32; a value above `i32::MAX` is written as `i32::MAX`).
    Int(fn(&GameRecord) -> u32),
    /// Moves in UCI separated by single spaces (list\<utf8\>).
    Moves(fn(&GameRecord) -> &str),
    /// Seconds per ply, `None` where absent (list\<float64\>).
    Clocks(fn(&GameRecord) -> &[Option<f64>]),
    /// Scores per ply, `None` where absent (list\<struct\<cp, mate\>\>).
    Evals(fn(&GameRecord) -> &[Option<Score>]),
}

/// The columns of a game table, in order: the names of the lines of
/// `GAME_TABLE`, the table's declaration (CONTRIBUTING.md): the Lichess
/// database's 17 tags and `movetext`, then `plies`, `fen`, `outcome`,
/// `uci`, `clocks` and `evals`.
///
/// ```
/// use bitboards_pgn::record::GAME_COLUMNS;
///
/// assert_eq!(GAME_COLUMNS[0], "Event");
/// assert_eq!(GAME_COLUMNS[17], "movetext");
/// assert_eq!(GAME_COLUMNS[23], "evals");
/// ```
pub const GAME_COLUMNS: [&str; GAME_TABLE.len()] = {
    let mut names = [""; GAME_TABLE.len()];
    let mut at = 0;
    while at < names.len() {
        names[at] = GAME_TABLE[at].name;
        at += 1;
    }
    names
};

/// What a tag column holds, and so how its text is read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum TagKind {
    /// The tag's text as it is (utf8).
    Text,
    /// An integer (int32): `"+11"` is 11.
    Int,
    /// A `YYYY.MM.DD` date (date32).
    Date,
    /// An `HH:MM:SS` time (time32\[ms\]).
    Time,
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

/// What [`GameRecord::movetext`] holds.
///
/// ```
/// use bitboards_pgn::Reader;
/// use bitboards_pgn::record::{MovetextForm, RecordVisitor};
///
/// let pgn = "1.e4 {[%clk 0:03:00]} (1.d4) e5 $1 *";
/// let mut visitor = RecordVisitor::default();
/// Reader::new(pgn.as_bytes()).read_game(&mut visitor)?;
/// assert_eq!(visitor.take().movetext, pgn);
///
/// let mut visitor = RecordVisitor::default().movetext_form(MovetextForm::Rewritten);
/// Reader::new(pgn.as_bytes()).read_game(&mut visitor)?;
/// assert_eq!(visitor.take().movetext, "1. e4 { [%clk 0:03:00] } 1... e5 $1 *");
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MovetextForm {
    /// The game's movetext as the file has it, from its first token to its
    /// result: comments, NAGs and variations included, whitespace and line
    /// breaks as read (what Lichess's own Parquet dataset holds, and what
    /// reads back to the same game). The default, and the cheaper: the text
    /// is copied, not written.
    #[default]
    File,
    /// Written back as the Lichess database writes it: the mainline's
    /// moves in canonical SAN with their numbers, its comments in `{ }` and
    /// NAGs as `$n`, then the result; variations left out. Costs about as
    /// much as reading the moves.
    Rewritten,
}

/// What a game's row holds of its costly fields, as a [`RecordVisitor`]
/// or a [`GamesVisitor`](crate::table::GamesVisitor) is set: the movetext
/// and its form, the moves in UCI, the clocks and evals; and so what the
/// visitor asks the reader for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RowFields {
    /// Whether to fill `movetext` and `uci`.
    pub(crate) movetext: bool,
    /// Whether `movetext` is written back ([`MovetextForm::Rewritten`])
    /// rather than copied from the file.
    pub(crate) rewrite: bool,
    pub(crate) uci: bool,
    /// Whether to read clocks and evals from the comments.
    pub(crate) annotations: bool,
}

impl Default for RowFields {
    fn default() -> RowFields {
        RowFields {
            movetext: true,
            rewrite: false,
            uci: true,
            annotations: true,
        }
    }
}

impl RowFields {
    /// Whether `movetext` is written back move by move.
    #[inline]
    pub(crate) fn rewriting(self) -> bool {
        self.movetext && self.rewrite
    }

    /// Whether `movetext` is the file's text, copied
    /// ([`Visitor::wants_movetext_text`]).
    pub(crate) fn copies_movetext(self) -> bool {
        self.movetext && !self.rewrite
    }

    /// Whether the comments are read: for the clocks and evals, or to
    /// write them back ([`Visitor::wants_comments`]).
    pub(crate) fn wants_comments(self) -> bool {
        self.rewriting() || self.annotations
    }
}

/// A [`Visitor`] that reads each game into a [`GameRecord`]: the fast way
/// to the rows of a table, with no value per comment or move besides what
/// the record keeps. The comments of the mainline give each ply's clock
/// and eval ([`Annotations`]); `movetext` is the game's movetext as the
/// file has it, or written back as the Lichess database writes it
/// ([`MovetextForm`]).
///
/// ```
/// use bitboards_pgn::Reader;
/// use bitboards_pgn::annotations::Score;
/// use bitboards_pgn::record::RecordVisitor;
///
/// let pgn = "[White \"A\"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%clk 0:02:58.5] } 2. Qh5 $2 *";
/// let mut visitor = RecordVisitor::default();
/// Reader::new(pgn.as_bytes()).read_game(&mut visitor)?;
/// let record = visitor.take();
/// assert_eq!(record.tag("White"), Some("A"));
/// assert_eq!(record.plies, 3);
/// assert_eq!(record.uci, "e2e4 e7e5 d1h5");
/// assert_eq!(record.clocks, [Some(180.0), Some(178.5), None]);
/// assert_eq!(record.evals, [Some(Score::Cp(17)), None, None]);
/// assert_eq!(
///     record.movetext,
///     "1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%clk 0:02:58.5] } 2. Qh5 $2 *"
/// );
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
#[derive(Default)]
pub struct RecordVisitor {
    record: GameRecord,
    /// What the record holds of the costly fields.
    fields: RowFields,
    /// The game being read; one for every game, restarted at each
    /// movetext so that its moves keep their memory.
    game: Game,
    /// Whether this game's movetext has begun (`game` is this game's).
    in_movetext: bool,
    /// Where the movetext is numbered when it is written back.
    rewriter: Rewriter,
    /// A comment too long for the reader's buffer, in pieces.
    partial: String,
    /// The result that ended the movetext.
    result: Option<GameResult>,
    /// What the rules say of the game's end, worked out once at its end.
    outcome: Option<Outcome>,
    /// The last game's tag names and values, cleared, for this game's tags
    /// to be written into: no allocation per tag once games are alike.
    spare_tags: Vec<(String, String)>,
}

impl RecordVisitor {
    /// Whether to fill [`GameRecord::movetext`] (on by default). Copying
    /// the text costs little, writing SAN back about as much as reading
    /// it: leave it out when the table does not need it.
    ///
    /// ```
    /// use bitboards_pgn::Reader;
    /// use bitboards_pgn::record::RecordVisitor;
    ///
    /// let mut visitor = RecordVisitor::default().movetext(false).uci(false);
    /// Reader::new(&b"1. e4 e5 *"[..]).read_game(&mut visitor)?;
    /// let record = visitor.take();
    /// assert_eq!((record.plies, record.movetext.as_str(), record.uci.as_str()), (2, "", ""));
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    #[must_use]
    pub fn movetext(mut self, on: bool) -> RecordVisitor {
        self.fields.movetext = on;
        self
    }

    /// What [`GameRecord::movetext`] holds: the file's text (the default)
    /// or the text written back ([`MovetextForm`]).
    #[must_use]
    pub fn movetext_form(mut self, form: MovetextForm) -> RecordVisitor {
        self.fields.rewrite = form == MovetextForm::Rewritten;
        self
    }

    /// Whether to fill [`GameRecord::uci`] (on by default).
    #[must_use]
    pub fn uci(mut self, on: bool) -> RecordVisitor {
        self.fields.uci = on;
        self
    }

    /// Whether to fill [`GameRecord::clocks`] and [`GameRecord::evals`]
    /// from the comments (on by default). Off, and with
    /// [`movetext`](RecordVisitor::movetext) off too, the reader skips the
    /// comments unread: a quarter of the time of a Lichess file, which has
    /// one after every move.
    ///
    /// ```
    /// use bitboards_pgn::Reader;
    /// use bitboards_pgn::record::RecordVisitor;
    ///
    /// let pgn = "1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:59] } *";
    /// let mut visitor = RecordVisitor::default().movetext(false).annotations(false);
    /// Reader::new(pgn.as_bytes()).read_game(&mut visitor)?;
    /// let record = visitor.take();
    /// assert_eq!((record.plies, record.clocks.len(), record.evals.len()), (2, 0, 0));
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    #[must_use]
    pub fn annotations(mut self, on: bool) -> RecordVisitor {
        self.fields.annotations = on;
        self
    }

    /// The record of the game just read; the visitor is ready for the next.
    ///
    /// ```
    /// use bitboards_pgn::Reader;
    /// use bitboards_pgn::record::RecordVisitor;
    ///
    /// let mut visitor = RecordVisitor::default();
    /// Reader::new(&b"1. f3 e5 2. g4 Qh4# 0-1"[..]).read_game(&mut visitor)?;
    /// let record = visitor.take();
    /// assert_eq!(record.outcome.as_deref(), Some("checkmate"));
    /// assert_eq!(record.fen, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    pub fn take(&mut self) -> GameRecord {
        // Room for a game as long as this one: the next record's text and
        // lists are allocated once each rather than doubled from empty.
        let room = GameRecord {
            tags: Vec::with_capacity(self.record.tags.len()),
            movetext: String::with_capacity(self.record.movetext.len()),
            uci: String::with_capacity(self.record.uci.len()),
            clocks: Vec::with_capacity(self.record.clocks.len()),
            evals: Vec::with_capacity(self.record.evals.len()),
            ..GameRecord::default()
        };
        core::mem::replace(&mut self.record, room)
    }

    /// The record of the game just read, until the next one begins: what
    /// [`take`](Self::take) would take, borrowed (a table's builder copies
    /// it, and the visitor keeps its buffers for the next game).
    ///
    /// ```
    /// use bitboards_pgn::Reader;
    /// use bitboards_pgn::record::RecordVisitor;
    ///
    /// let mut visitor = RecordVisitor::default();
    /// Reader::new(&b"1. e4 e5 *"[..]).read_game(&mut visitor)?;
    /// assert_eq!(visitor.record().uci, "e2e4 e7e5");
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    #[must_use]
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The game just read (its start, moves and positions), until the next
    /// one begins.
    #[must_use]
    pub fn game(&self) -> Option<&Game> {
        self.in_movetext.then_some(&self.game)
    }

    /// The result that ended the game's movetext, if one did (the `Result`
    /// tag is among the record's tags).
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// What the rules say of the end of the game just read (the record's
    /// `outcome` is its name).
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

/// A comment whole: `text` alone, or after the pieces of it gathered in
/// `partial` (which is then left empty).
pub(crate) fn whole_comment<'a>(partial: &mut String, text: &'a str) -> Cow<'a, str> {
    if partial.is_empty() {
        Cow::Borrowed(text)
    } else {
        partial.push_str(text);
        Cow::Owned(core::mem::take(partial))
    }
}

/// Writes a game's mainline back as the Lichess database writes it
/// ([`MovetextForm::Rewritten`]), event by event, onto a text of the
/// caller's: moves in canonical SAN with their numbers, comments in `{ }`,
/// NAGs as `$n`, the result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rewriter {
    /// The next move needs its number (White's always does; Black's after
    /// a comment, a NAG or at the start).
    need_number: bool,
}

impl Default for Rewriter {
    fn default() -> Rewriter {
        Rewriter { need_number: true }
    }
}

impl Rewriter {
    /// A space before the next token, unless it is the first.
    fn space(text: &mut String) {
        if !text.is_empty() {
            text.push(' ');
        }
    }

    /// A move, with its number where it needs one. Written byte by byte:
    /// `write!` would cost as much again as reading the move.
    pub(crate) fn san(&mut self, played: &PgnMove<'_>, text: &mut String) {
        Self::space(text);
        let before = played.before;
        let dots = match (before.side_to_move(), self.need_number) {
            (Color::White, _) => Some(". "),
            (Color::Black, true) => Some("... "),
            (Color::Black, false) => None,
        };
        if let Some(dots) = dots {
            push_integer(text, i64::from(before.fullmove_number()));
            text.push_str(dots);
        }
        match played.mv.is_null() {
            true => text.push_str("--"),
            false => push_san(played, text),
        }
        self.need_number = false;
    }

    /// A NAG, `$n`.
    pub(crate) fn nag(&mut self, nag: u8, text: &mut String) {
        Self::space(text);
        text.push('$');
        push_integer(text, i64::from(nag));
        self.need_number = true;
    }

    /// A comment, in `{ }`.
    pub(crate) fn comment(&mut self, comment: &str, text: &mut String) {
        Self::space(text);
        text.push_str("{ ");
        text.push_str(comment);
        text.push_str(" }");
        self.need_number = true;
    }

    /// The result that ends the movetext.
    pub(crate) fn result(result: GameResult, text: &mut String) {
        Self::space(text);
        text.push_str(result.as_str());
    }
}

impl Visitor for RecordVisitor {
    fn wants_comments(&mut self) -> bool {
        self.fields.wants_comments()
    }

    fn wants_movetext_text(&mut self) -> bool {
        self.fields.copies_movetext()
    }

    fn movetext_text(&mut self, text: &str) {
        self.record.movetext.push_str(text);
    }

    fn begin_game(&mut self, _: usize) {
        self.spare_tags.append(&mut self.record.tags);
        self.record.movetext.clear();
        self.record.plies = 0;
        self.record.fen.clear();
        self.record.outcome = None;
        self.record.uci.clear();
        self.record.clocks.clear();
        self.record.evals.clear();
        self.in_movetext = false;
        self.rewriter = Rewriter::default();
        self.partial.clear();
        self.result = None;
        self.outcome = None;
    }

    fn tag(&mut self, name: &str, value: &str) {
        let (mut own_name, mut own_value) = self.spare_tags.pop().unwrap_or_default();
        own_name.clear();
        own_name.push_str(name);
        own_value.clear();
        own_value.push_str(value);
        self.record.tags.push((own_name, own_value));
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.game.restart(*start);
        self.in_movetext = true;
    }

    fn san(&mut self, played: PgnMove<'_>) {
        let before = played.before;
        if self.fields.rewriting() {
            self.rewriter.san(&played, &mut self.record.movetext);
        }
        if self.fields.uci {
            if !self.record.uci.is_empty() {
                self.record.uci.push(' ');
            }
            before.uci(played.mv).push_to(&mut self.record.uci);
        }
        self.record.plies += 1;
        if self.fields.annotations {
            self.record.clocks.push(None);
            self.record.evals.push(None);
        }
        if self.in_movetext {
            // The reader has played the move: no second replay.
            self.game.push_played(played.mv, played.after);
        }
    }

    fn nag(&mut self, nag: u8) {
        if self.fields.rewriting() {
            self.rewriter.nag(nag, &mut self.record.movetext);
        }
    }

    fn comment_part(&mut self, text: &str) {
        self.partial.push_str(text);
    }

    fn comment(&mut self, text: &str) {
        let text = whole_comment(&mut self.partial, text);
        let text = text.as_ref();
        if self.fields.annotations
            && let Some(ply) = (self.record.plies as usize).checked_sub(1)
        {
            let found = Annotations::parse(text);
            if self.record.clocks[ply].is_none() {
                self.record.clocks[ply] = found.clock;
            }
            if self.record.evals[ply].is_none() {
                self.record.evals[ply] = found.eval.map(|eval| eval.score);
            }
        }
        if self.fields.rewriting() {
            self.rewriter.comment(text, &mut self.record.movetext);
        }
    }

    fn result(&mut self, result: GameResult) {
        self.result = Some(result);
        if self.fields.rewriting() {
            Rewriter::result(result, &mut self.record.movetext);
        }
    }

    fn end_game(&mut self, last: &Position) {
        // Into the last game's string, which keeps its memory. Writing to
        // a `String` cannot fail.
        self.record.fen.clear();
        let _ = write!(self.record.fen, "{}", last.fen());
        self.outcome = self.game().and_then(Game::outcome);
        self.record.outcome = self.outcome.map(|outcome| outcome.name().to_owned());
    }
}

/// Appends the canonical SAN of a move the reader played: the file's own
/// text when it already is canonical (as Lichess writes every move), else
/// the SAN [`Position::san`] writes. The two agree byte for byte (the test
/// `file_sans_are_kept_only_where_canonical` holds them together).
fn push_san(played: &PgnMove<'_>, text: &mut String) {
    if is_canonical(played) {
        text.push_str(played.san);
    } else {
        played.before.san(played.mv).push_to(text);
    }
}

/// Whether `played.san` is the SAN [`Position::san`] writes for the move.
///
/// The reader has resolved the text to `played.mv`, one legal move. So a
/// text without a file or rank of origin names a piece that no other of
/// its kind could replace (canonical SAN adds no origin either), a pawn
/// capture's file is the pawn's, and a promotion letter is the move's.
/// What resolving does not check is checked here: the shape (`O-O` not
/// `0-0`, `=Q` not `Q`, no origin where none is needed), the `x` against a
/// capture, and the suffix against the position after the move.
fn is_canonical(played: &PgnMove<'_>) -> bool {
    let text = played.san.as_bytes();
    let (body, suffix) = match text.split_last() {
        Some((&mark @ (b'+' | b'#'), body)) => (body, Some(mark)),
        _ => (text, None),
    };
    let file = |byte: &u8| (b'a'..=b'h').contains(byte);
    let rank = |byte: &u8| (b'1'..=b'8').contains(byte);
    let promotion = |byte: &u8| matches!(byte, b'N' | b'B' | b'R' | b'Q');
    let before = played.before;
    let to = played.mv.to();
    // What moves, as the board says (the letter is checked against it, not
    // trusted to the reader's resolving alone).
    let mover = before.piece_on(played.mv.from()).map(Piece::kind);
    let pawn = mover == Some(PieceKind::Pawn);
    let shape = match body {
        b"O-O" | b"O-O-O" => played.mv.is_castling(),
        // A king's text may name castling (`Kg1`); its SAN is `O-O`.
        [piece, target @ ..]
            if matches!(piece, b'N' | b'B' | b'R' | b'Q' | b'K')
                && mover == PieceKind::from_char(char::from(*piece))
                && !played.mv.is_castling() =>
        {
            let takes = before
                .by_color(before.side_to_move().opponent())
                .contains(to);
            match target {
                [f, r] => !takes && file(f) && rank(r),
                [b'x', f, r] => takes && file(f) && rank(r),
                _ => false,
            }
        }
        // Pushes: the reader resolves a pawn text without a file only to a
        // push, and its `=` letter to the move's promotion.
        [f, r] | [f, r, b'=', _] if pawn && file(f) && rank(r) => body.get(3).is_none_or(promotion),
        // A capture changes file (`dxd5` is read as the push `d5`).
        [f, b'x', tf, r] | [f, b'x', tf, r, b'=', _]
            if pawn && file(f) && file(tf) && rank(r) && f != tf =>
        {
            body.get(5).is_none_or(promotion)
        }
        _ => false,
    };
    if !shape {
        return false;
    }
    let after = played.after;
    let check = after.is_check();
    // Legal moves are looked for only for a check that is written.
    let mate = || check && !after.has_legal_moves();
    match suffix {
        None => !check,
        Some(b'+') => check && !mate(),
        Some(_) => mate(),
    }
}

/// Appends `value` in decimal, as `Display` writes it, without the
/// formatter's machinery: tables and reports write numbers by the hundred
/// per game (move numbers, NAGs, clocks, evals).
///
/// ```
/// use bitboards_pgn::record::push_integer;
///
/// let mut text = String::from("1. e4 $");
/// push_integer(&mut text, 14);
/// push_integer(&mut text, -305);
/// assert_eq!(text, "1. e4 $14-305");
/// ```
pub fn push_integer(text: &mut String, value: i64) {
    push_decimal(value < 0, value.unsigned_abs(), |digits| {
        text.push_str(digits)
    });
}

/// [`push_integer`] onto bytes.
///
/// ```
/// use bitboards_pgn::record::push_integer_bytes;
///
/// let mut out = b"#".to_vec();
/// push_integer_bytes(&mut out, -3);
/// assert_eq!(out, b"#-3");
/// ```
pub fn push_integer_bytes(out: &mut Vec<u8>, value: i64) {
    push_decimal(value < 0, value.unsigned_abs(), |digits| {
        out.extend_from_slice(digits.as_bytes());
    });
}

/// [`push_integer_bytes`] of a `u64`: counts and offsets, up to
/// `u64::MAX`.
///
/// ```
/// use bitboards_pgn::record::push_unsigned_bytes;
///
/// let mut out = b"game ".to_vec();
/// push_unsigned_bytes(&mut out, u64::MAX);
/// assert_eq!(out, b"game 18446744073709551615");
/// ```
pub fn push_unsigned_bytes(out: &mut Vec<u8>, value: u64) {
    push_decimal(false, value, |digits| {
        out.extend_from_slice(digits.as_bytes())
    });
}

/// Hands `push` the text in decimal of `magnitude`, after a minus sign if
/// `negative`, in pieces (the sign, then groups of digits).
#[inline(always)]
fn push_decimal(negative: bool, magnitude: u64, mut push: impl FnMut(&str)) {
    if negative {
        push("-");
    }
    let mut rest = magnitude;
    // The groups of three digits below the leading one, lowest first: at
    // most six (`u64::MAX` has twenty digits).
    let mut groups = [0; 6];
    let mut count = 0;
    while rest >= 1000 {
        groups[count] = (rest % 1000) as usize;
        rest /= 1000;
        count += 1;
    }
    // The leading group without its leading zeros, then the others whole:
    // slices of one table, where digits made one by one and checked as
    // UTF-8 took a tenth of a JSON report's time.
    let lead = rest as usize * 3;
    let zeros = usize::from(rest < 100) + usize::from(rest < 10);
    push(&THREE_DIGITS[lead + zeros..lead + 3]);
    for &group in groups[..count].iter().rev() {
        push(&THREE_DIGITS[group * 3..group * 3 + 3]);
    }
}

/// Appends `seconds` as `f64`'s `Display` writes it, the quick way for the
/// tenths that clocks hold (`179.9`, `173`); other values through
/// `Display`.
///
/// ```
/// use bitboards_pgn::record::push_seconds;
///
/// let mut out = Vec::new();
/// for seconds in [179.9, 173.0, 0.1, 1e-7, 2.25] {
///     push_seconds(&mut out, seconds);
///     out.push(b' ');
/// }
/// assert_eq!(out, b"179.9 173 0.1 0.0000001 2.25 ");
/// ```
pub fn push_seconds(out: &mut Vec<u8>, seconds: f64) {
    let scaled = seconds * 10.0;
    // The nearest whole number of tenths, rounded by hand (`f64::round` is
    // a library call on x86-64's baseline): if it is the clock exactly and
    // small, its shortest text is the integer and at most one decimal.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_precision_loss,
        clippy::cast_sign_loss,
        clippy::cast_possible_wrap
    )]
    if (0.0..1e12).contains(&scaled) && seconds.is_sign_positive() {
        let whole = scaled as u64;
        let tenths = whole + u64::from(scaled - whole as f64 >= 0.5);
        if tenths as f64 / 10.0 == seconds {
            push_integer_bytes(out, (tenths / 10) as i64);
            if !tenths.is_multiple_of(10) {
                out.extend_from_slice(&[b'.', b'0' + (tenths % 10) as u8]);
            }
            return;
        }
    }
    out.extend_from_slice(seconds.to_string().as_bytes());
}

/// `000` to `999`, three digits each.
const THREE_DIGITS: &str = {
    const BYTES: [u8; 3000] = {
        let mut bytes = [0; 3000];
        let mut number = 0;
        while number < 1000 {
            bytes[number * 3] = b'0' + (number / 100) as u8;
            bytes[number * 3 + 1] = b'0' + (number / 10 % 10) as u8;
            bytes[number * 3 + 2] = b'0' + (number % 10) as u8;
            number += 1;
        }
        bytes
    };
    match core::str::from_utf8(&BYTES) {
        Ok(text) => text,
        Err(_) => panic!("ASCII digits are UTF-8"),
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    fn seconds(value: f64) -> String {
        let mut out = Vec::new();
        push_seconds(&mut out, value);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn integers_as_display_writes_them() {
        let edges = [
            0,
            1,
            9,
            10,
            99,
            100,
            101,
            999,
            1000,
            -1,
            -9,
            -10,
            -99,
            -100,
            -32_000,
            i64::from(i32::MIN),
            i64::from(i32::MAX),
            i64::MIN,
            i64::MIN + 1,
            i64::MAX,
            7,
            -7,
            -1001,
            1_000_000,
        ];
        for value in (-100_000..=100_000).chain(edges) {
            let mut out = Vec::new();
            push_integer_bytes(&mut out, value);
            assert_eq!(String::from_utf8(out).unwrap(), value.to_string());
        }
        // Unsigned: every power of ten and its neighbours, up to the
        // largest.
        let mut power = 1u64;
        let mut unsigned = vec![u64::MAX, u64::MAX - 1, 1 << 63];
        for _ in 0..20 {
            unsigned.extend([power - 1, power, power + 1]);
            power = power.saturating_mul(10);
        }
        for value in (0..=100_000).chain(unsigned) {
            let mut out = Vec::new();
            push_unsigned_bytes(&mut out, value);
            assert_eq!(String::from_utf8(out).unwrap(), value.to_string());
        }
    }

    #[test]
    fn seconds_as_display_writes_them() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Tenths, hundredths and any other float.
            #[allow(clippy::cast_precision_loss)]
            for value in [
                (state % 100_000) as f64 / 10.0,
                (state % 100_000) as f64 / 100.0,
                f64::from_bits(state >> 2),
                f64::from_bits(state),
            ] {
                assert_eq!(seconds(value), value.to_string());
            }
        }
        for value in [
            0.0,
            -0.0,
            0.1,
            5400.0,
            36_000.5,
            1e11,
            1e12,
            -1.5,
            f64::INFINITY,
            f64::NAN,
        ] {
            assert_eq!(seconds(value), value.to_string());
        }
    }

    /// One visitor for game after game: each record and each `Game` is
    /// that game's alone, from its own start (the `Game` is restarted, not
    /// made anew).
    #[test]
    fn one_visitor_reads_game_after_game() {
        let pgn = "1. f3 e5 2. g4 Qh4# 0-1\n\n\
                   [FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O *\n\n\
                   [White \"no movetext\"]";
        let mut reader = crate::reader::Reader::new(pgn.as_bytes());
        let mut visitor = RecordVisitor::default();

        assert!(reader.read_game(&mut visitor).unwrap());
        let game = visitor.game().unwrap();
        assert_eq!(game.moves().len(), 4);
        assert_eq!(visitor.record().outcome.as_deref(), Some("checkmate"));

        assert!(reader.read_game(&mut visitor).unwrap());
        let start = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let game = visitor.game().unwrap();
        assert_eq!((game.start(), game.moves().len()), (&start, 1));
        assert!(!game.is_repetition(2));
        assert_eq!(visitor.record().outcome, None);
        assert_eq!(visitor.record().fen, "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
        assert_eq!(visitor.record().uci, "e1g1");

        // A game that ends with its tags: an empty movetext from the start.
        assert!(reader.read_game(&mut visitor).unwrap());
        let game = visitor.game().unwrap();
        assert_eq!((game.start(), game.moves().len()), (&Position::START, 0));
        assert_eq!(visitor.record().plies, 0);
        assert!(!reader.read_game(&mut visitor).unwrap());
    }

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

    /// For the legal moves of positions from random games, texts a file
    /// may write for each (the SAN, without or with a wrong suffix, with
    /// origins, `0-0`, promotions without `=`, an `x` added or dropped)
    /// that resolve to the move: the file's text is kept exactly when it is
    /// the SAN `Position::san` writes (and names no origin), and what is
    /// written is that SAN either way.
    #[test]
    fn file_sans_are_kept_only_where_canonical() {
        let games = bitboards_test_support::lichess_games(30, 11);
        let mut positions = Vec::new();
        let mut reader = crate::reader::Reader::new(&games[..]);
        while reader
            .read_game(&mut Positions(&mut positions))
            .expect("generated games read")
        {}
        // Mates, promotions with and without check, castling, en passant.
        for fen in [
            "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2",
            "6k1/5ppp/8/8/8/8/8/R3K2R w KQ - 0 1",
            "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        ] {
            positions.push(Position::from_fen(fen).expect("a legal FEN"));
        }
        let mut kept = 0;
        for before in &positions {
            for mv in before.legal_moves() {
                let after = before.play_unchecked(mv);
                let san = before.san(mv).to_string();
                let bare = san.trim_end_matches(['+', '#']).to_owned();
                let uci = before.uci(mv).to_string();
                let mut texts = vec![
                    san.clone(),
                    bare.clone(),
                    format!("{bare}+"),
                    format!("{bare}#"),
                    bare.replace('O', "0"),
                    bare.replace('=', ""),
                    bare.replacen('x', "", 1),
                    format!("{}x{bare}", &uci[..1]),
                    uci.clone(),
                ];
                if let Some((piece, rest)) = bare.split_at_checked(1) {
                    texts.push(format!("{piece}x{rest}"));
                    texts.push(format!("{piece}{}{rest}", &uci[..1]));
                    texts.push(format!("{piece}{}{rest}", &uci[1..2]));
                    texts.push(format!("{piece}{}{rest}", &uci[..2]));
                }
                for text in texts {
                    if before.parse_san(&text) != Ok(mv) {
                        continue;
                    }
                    let played = PgnMove {
                        before,
                        after: &after,
                        san: &text,
                        mv,
                    };
                    // Only SAN with an origin (`Rha6`) goes the long way.
                    let origin = bare.starts_with(['N', 'B', 'R', 'Q', 'K'])
                        && bare.replace('x', "").len() > 3;
                    let expected = text == san && !origin;
                    let fen = before.fen();
                    assert_eq!(is_canonical(&played), expected, "{text} for {san} in {fen}");
                    let mut written = String::new();
                    push_san(&played, &mut written);
                    assert_eq!(written, san);
                    kept += usize::from(text == san);
                }
            }
        }
        assert!(kept > 10_000, "{kept}");
    }

    /// Every position a game passes through, before each move.
    struct Positions<'a>(&'a mut Vec<Position>);

    impl Visitor for Positions<'_> {
        fn san(&mut self, played: PgnMove<'_>) {
            self.0.push(*played.before);
        }
    }

    #[test]
    fn numbers() {
        let every_group = (-2000..=2000).chain([999_999, 1_000_000, 1_000_001, 10_000_000_007]);
        for number in every_group.chain([0, 7, 10, 99, 100, 1234, -1, -10, i64::MIN, i64::MAX]) {
            let mut text = String::from("x");
            push_integer(&mut text, number);
            assert_eq!(text, format!("x{number}"));
        }
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
        let columns = record.tag_values();
        assert_eq!(columns[0], Some("A"));
        assert_eq!(columns[16], Some("60+0"));
        assert_eq!(columns.iter().flatten().count(), 2);
        assert!(matches!(GAME_TABLE[7].value, Value::Tag(TagKind::Int)));
        assert!(matches!(GAME_TABLE[16].value, Value::Tag(TagKind::Text)));
    }
}
