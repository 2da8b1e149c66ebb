//! [`GamesVisitor`]: the reader's events straight into the game table's
//! column buffers, with no [`GameRecord`](crate::record::GameRecord) in
//! between.

use arrow_array::RecordBatch;
use bitboards::{Position, Repetitions};

use super::{GamesBuilder, ReadRow, Row};
use crate::annotations::Annotations;
use crate::record::{GAME_TABLE, MovetextForm, Rewriter, RowFields, TagFinder, whole_comment};
use crate::result::GameResult;
use crate::visitor::{PgnMove, Visitor};

/// A [`Visitor`] that reads games straight into the columns of a game
/// table ([`games_schema`](super::games_schema)): each tag, move, clock,
/// eval and the movetext are appended to their column's buffers as the
/// reader hands them over, and [`finish`](Self::finish) makes the rows read
/// so far a [`RecordBatch`]. A game that fails leaves no row (what it had
/// appended is dropped when the next game begins, or at `finish`).
///
/// The rows are those [`GamesBuilder::push`] makes of the
/// [`RecordVisitor`](crate::record::RecordVisitor)'s records, with the
/// same settings, without the records.
///
/// ```
/// use bitboards_pgn::Reader;
/// use bitboards_pgn::table::GamesVisitor;
///
/// let pgn = "[White \"A\"]\n\n1. e4 { [%clk 0:03:00] } e5 *\n\n[White \"B\"]\n\n1. e4 Ke7 *\n\n";
/// let mut games = GamesVisitor::default();
/// let mut reader = Reader::new(pgn.as_bytes());
/// assert!(reader.read_game(&mut games)?);
/// assert!(reader.read_game(&mut games).is_err(), "Ke7 is illegal");
/// let batch = games.finish();
/// assert_eq!(batch.num_rows(), 1);
/// assert_eq!(games.len(), 0);
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
#[derive(Debug)]
pub struct GamesVisitor {
    builder: GamesBuilder,
    /// What the rows hold of the costly columns.
    fields: RowFields,
    /// Whether a game has begun whose row is not ended: its moves, clocks
    /// and evals are in the builder, to be dropped should it fail.
    open: bool,
    /// This game's tag values for the tag columns, one after another in
    /// `tag_text`, as ranges by column (the first tag of a name counts).
    tag_text: String,
    tags: [Option<(usize, usize)>; GAME_TABLE.len()],
    finder: TagFinder,
    /// The keys of this game's positions since the last capture or pawn
    /// move, as the reader reaches them (for `outcome`'s repetitions).
    keys: Repetitions,
    plies: u32,
    /// The movetext written back ([`MovetextForm::Rewritten`]).
    rewritten: String,
    rewriter: Rewriter,
    /// A comment too long for the reader's buffer, in pieces.
    partial: String,
}

impl Default for GamesVisitor {
    fn default() -> GamesVisitor {
        GamesVisitor {
            builder: GamesBuilder::new(),
            fields: RowFields::default(),
            open: false,
            tag_text: String::new(),
            tags: [None; GAME_TABLE.len()],
            finder: TagFinder::default(),
            keys: Repetitions::default(),
            plies: 0,
            rewritten: String::new(),
            rewriter: Rewriter::default(),
            partial: String::new(),
        }
    }
}

impl GamesVisitor {
    /// Whether to fill `movetext` (on by default; off, it holds `""`).
    #[must_use]
    pub fn movetext(mut self, on: bool) -> GamesVisitor {
        self.fields.movetext = on;
        self
    }

    /// What `movetext` holds: the file's text (the default) or the text
    /// written back ([`MovetextForm`]).
    #[must_use]
    pub fn movetext_form(mut self, form: MovetextForm) -> GamesVisitor {
        self.fields.rewrite = form == MovetextForm::Rewritten;
        self
    }

    /// Whether to fill `uci` (on by default; off, every list is empty).
    #[must_use]
    pub fn uci(mut self, on: bool) -> GamesVisitor {
        self.fields.uci = on;
        self
    }

    /// Whether to fill `clocks` and `evals` from the comments (on by
    /// default; off, every list is empty, and with `movetext` off or
    /// copied from the file the reader skips the comments unread).
    #[must_use]
    pub fn annotations(mut self, on: bool) -> GamesVisitor {
        self.fields.annotations = on;
        self
    }

    /// The rows of the games read since the last batch.
    #[must_use]
    pub fn len(&self) -> usize {
        self.builder.len()
    }

    /// Whether no game was read since the last batch.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.builder.is_empty()
    }

    /// The games read since the last batch as a [`RecordBatch`] of
    /// [`games_schema`](super::games_schema) (a game that failed left no
    /// row); the next batch starts empty, with room made for one like this.
    pub fn finish(&mut self) -> RecordBatch {
        self.close_failed();
        self.builder.finish()
    }

    /// The last ply's clock and eval from a comment after it, where it has
    /// none yet (the first comment that gives one counts).
    fn annotate(&mut self, found: &Annotations) {
        let (_, clocks, evals) = self.builder.lists();
        clocks.seconds.fill_last(found.clock);
        evals.scores.fill_last(found.eval.map(|eval| eval.score));
    }

    /// Drops what a game that did not end appended.
    fn close_failed(&mut self) {
        if self.open {
            self.builder.drop_open_row();
            self.open = false;
        }
    }
}

impl Visitor for GamesVisitor {
    fn wants_comments(&mut self) -> bool {
        self.fields.wants_comments()
    }

    fn wants_movetext_text(&mut self) -> bool {
        self.fields.copies_movetext()
    }

    fn begin_game(&mut self, _: usize) {
        self.close_failed();
        self.builder.ready();
        self.open = true;
        self.tag_text.clear();
        self.tags = [None; GAME_TABLE.len()];
        self.finder = TagFinder::default();
        self.plies = 0;
        self.rewritten.clear();
        self.rewriter = Rewriter::default();
        self.partial.clear();
    }

    fn tag(&mut self, name: &str, value: &str) {
        if let Some(column) = self.finder.column(name)
            && self.tags[column].is_none()
        {
            let start = self.tag_text.len();
            self.tag_text.push_str(value);
            self.tags[column] = Some((start, self.tag_text.len()));
        }
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.keys.restart(start);
    }

    fn san(&mut self, played: PgnMove<'_>) {
        if self.fields.rewriting() {
            self.rewriter.san(&played, &mut self.rewritten);
        }
        let (uci, clocks, evals) = self.builder.lists();
        if self.fields.uci {
            uci.push_move(played.before.uci(played.mv));
        }
        if self.fields.annotations {
            clocks.seconds.push(None);
            evals.scores.push_none();
        }
        self.plies += 1;
        // The reader has played the move: no second replay.
        self.keys.push(played.mv, played.after);
    }

    fn nag(&mut self, nag: u8) {
        if self.fields.rewriting() {
            self.rewriter.nag(nag, &mut self.rewritten);
        }
    }

    fn comment_bytes(&mut self, bytes: &[u8]) {
        if self.fields.rewriting() || !self.partial.is_empty() {
            self.comment(&crate::text::lossy(bytes));
        } else if self.fields.annotations && self.plies > 0 {
            // Only the annotations are wanted: read from the bytes, without
            // first making the comment text.
            self.annotate(&Annotations::parse_bytes(bytes));
        }
    }

    fn comment_part(&mut self, text: &str) {
        self.partial.push_str(text);
    }

    fn comment(&mut self, text: &str) {
        let text = whole_comment(&mut self.partial, text);
        if self.fields.annotations && self.plies > 0 {
            self.annotate(&Annotations::parse(&text));
        }
        if self.fields.rewriting() {
            self.rewriter.comment(&text, &mut self.rewritten);
        }
    }

    fn result(&mut self, result: GameResult) {
        if self.fields.rewriting() {
            Rewriter::result(result, &mut self.rewritten);
        }
    }

    fn movetext_text(&mut self, text: &str) {
        // The last event before `end_game`: nothing can fail after it.
        self.builder.push_movetext(text);
    }

    fn end_game(&mut self, last: &Position) {
        if !self.fields.copies_movetext() {
            self.builder.push_movetext(&self.rewritten);
        }
        let fen = last.fen().text();
        let outcome = self.keys.outcome(last);
        let read = ReadRow {
            plies: self.plies,
            fen: fen.as_str(),
            outcome: outcome.map(|outcome| outcome.name()),
        };
        let tags = self
            .tags
            .map(|range| range.map(|(start, end)| &self.tag_text[start..end]));
        self.builder.end_row(Row::Read(&read), &tags);
        self.open = false;
    }
}
