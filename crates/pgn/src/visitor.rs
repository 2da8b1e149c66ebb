//! What the reader tells as it reads a game: the [`Visitor`] trait, the
//! moves it is handed ([`PgnMove`]) and what it answers for a variation
//! ([`Visit`]).

use bitboards::{Move, Position};

use crate::result::GameResult;

/// What a visitor wants done with a variation: read it move by move, or
/// skip over it (fast, and without checking its moves).
///
/// ```
/// use bitboards_pgn::Visit;
///
/// assert_ne!(Visit::Enter, Visit::Skip);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Visit {
    /// Read the variation: its moves, comments and nested variations reach
    /// the visitor, between [`Visitor::begin_variation`] and
    /// [`Visitor::end_variation`].
    Enter,
    /// Skip to its closing `)`; the visitor hears nothing of it, not even
    /// [`Visitor::end_variation`].
    Skip,
}

/// One move of the movetext, as [`Visitor::san`] receives it.
///
/// ```
/// use bitboards_pgn::{PgnMove, Reader, Visitor};
///
/// struct Sans(Vec<String>);
/// impl Visitor for Sans {
///     fn san(&mut self, played: PgnMove<'_>) {
///         assert_eq!(&played.before.play_unchecked(played.mv), played.after);
///         self.0.push(played.san.to_string());
///     }
/// }
///
/// let mut sans = Sans(Vec::new());
/// Reader::new(&b"1. e4 e5 2. Nf3!? *"[..]).read_game(&mut sans)?;
/// assert_eq!(sans.0, ["e4", "e5", "Nf3"]);
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PgnMove<'a> {
    /// The position the move is played in.
    pub before: &'a Position,
    /// The position it leads to.
    pub after: &'a Position,
    /// The move's text as the file writes it: SAN (check marks included),
    /// UCI (`g1f3`, which real files use too) or a null move; annotation
    /// glyphs (`!`, `?!`, ...) left out: those arrive as [`Visitor::nag`].
    pub san: &'a str,
    /// The legal move the text names, or [`Move::NULL`] for a null move
    /// (`--`, `Z0`, `0000`, `@@@@`), which passes the turn as
    /// [`Position::null_move`] does.
    pub mv: Move,
}

/// What [`Reader::read_game`](crate::Reader::read_game) calls as it reads a game. Every method has a
/// default that ignores its event, so a visitor implements only what it
/// needs.
///
/// For each game the calls come in this order: [`begin_game`], then
/// [`tag`] for each tag pair (comments before the first move may come among
/// them), [`begin_movetext`] with the start position (from the `FEN` tag,
/// or the standard one), then the movetext's [`san`], [`nag`], [`comment`]
/// and variations, then [`result`] if the movetext ends with one, and
/// [`end_game`] with the final position of the mainline. A game that turns
/// out malformed ends with the error from `read_game` instead of
/// [`end_game`].
///
/// Variations are skipped unless [`begin_variation`] asks for them. Inside
/// an entered variation, moves start from the position before the move the
/// variation replaces, and [`san`] reports them like mainline moves.
///
/// [`begin_game`]: Visitor::begin_game
/// [`tag`]: Visitor::tag
/// [`begin_movetext`]: Visitor::begin_movetext
/// [`san`]: Visitor::san
/// [`nag`]: Visitor::nag
/// [`comment`]: Visitor::comment
/// [`begin_variation`]: Visitor::begin_variation
/// [`result`]: Visitor::result
/// [`end_game`]: Visitor::end_game
///
/// ```
/// use bitboards_pgn::{PgnMove, Reader, Visit, Visitor};
///
/// /// Counts the moves of the mainline and of every variation.
/// #[derive(Default)]
/// struct Counter {
///     depth: usize,
///     mainline: usize,
///     in_variations: usize,
/// }
///
/// impl Visitor for Counter {
///     fn san(&mut self, _: PgnMove<'_>) {
///         match self.depth {
///             0 => self.mainline += 1,
///             _ => self.in_variations += 1,
///         }
///     }
///     fn begin_variation(&mut self) -> Visit {
///         self.depth += 1;
///         Visit::Enter
///     }
///     fn end_variation(&mut self) {
///         self.depth -= 1;
///     }
/// }
///
/// let mut counter = Counter::default();
/// let pgn = "1. e4 e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 *";
/// Reader::new(pgn.as_bytes()).read_game(&mut counter)?;
/// assert_eq!((counter.mainline, counter.in_variations), (3, 3));
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
pub trait Visitor {
    /// A game starts; `number` counts the games of the input from 1, bad
    /// ones included.
    fn begin_game(&mut self, number: usize) {
        let _ = number;
    }

    /// A tag pair, the value with its escapes (`\"`, `\\`) undone.
    fn tag(&mut self, name: &str, value: &str) {
        let _ = (name, value);
    }

    /// A tag pair whose value comes as the file's bytes (a tag of the
    /// common form, `[Name "Value"]` with nothing to unescape): by default
    /// read as text (with U+FFFD for what is not UTF-8) and handed to
    /// [`tag`](Visitor::tag). A visitor that reads few tags can take the
    /// value here, unchecked until it wants it.
    ///
    /// ```
    /// use bitboards_pgn::{Reader, Visitor};
    ///
    /// struct Result(Option<String>);
    /// impl Visitor for Result {
    ///     fn tag_bytes(&mut self, name: &str, value: &[u8]) {
    ///         if name == "Result" {
    ///             self.0 = Some(String::from_utf8_lossy(value).into_owned());
    ///         }
    ///     }
    /// }
    /// let mut result = Result(None);
    /// Reader::new(&b"[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 1-0"[..]).read_game(&mut result)?;
    /// assert_eq!(result.0.as_deref(), Some("1-0"));
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    fn tag_bytes(&mut self, name: &str, value: &[u8]) {
        self.tag(name, &crate::text::lossy(value));
    }

    /// The tags are over; the movetext starts from `start`.
    fn begin_movetext(&mut self, start: &Position) {
        let _ = start;
    }

    /// Whether this game's comments should reach [`comment`](Visitor::comment),
    /// asked right after [`begin_game`](Visitor::begin_game). A visitor
    /// that reads no comments says no: the reader then steps over them
    /// without checking their text is UTF-8 or trimming it, which matters
    /// in files with a comment after every move (Lichess's clocks and
    /// evals).
    ///
    /// ```
    /// use bitboards_pgn::{Reader, Visitor};
    ///
    /// struct Silent(usize);
    /// impl Visitor for Silent {
    ///     fn wants_comments(&mut self) -> bool {
    ///         false
    ///     }
    ///     fn comment(&mut self, _: &str) {
    ///         self.0 += 1;
    ///     }
    /// }
    ///
    /// let mut silent = Silent(0);
    /// Reader::new(&b"1. e4 { [%clk 0:03:00] } e5 *"[..]).read_game(&mut silent)?;
    /// assert_eq!(silent.0, 0);
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    fn wants_comments(&mut self) -> bool {
        true
    }

    /// Whether to skip this game's movetext, asked once its tags are read:
    /// then the reader steps over it line by line without reading a move,
    /// to the next line that starts with `[` after a blank line, and
    /// neither [`begin_movetext`](Visitor::begin_movetext) nor
    /// [`end_game`](Visitor::end_game) is called. Reading only the tags is
    /// several times faster than replaying the moves.
    ///
    /// ```
    /// use bitboards_pgn::{Reader, Visitor};
    ///
    /// /// The `White` tag of each game, and nothing else.
    /// struct Whites(Vec<String>);
    /// impl Visitor for Whites {
    ///     fn tag(&mut self, name: &str, value: &str) {
    ///         if name == "White" {
    ///             self.0.push(value.to_string());
    ///         }
    ///     }
    ///     fn skip_movetext(&mut self) -> bool {
    ///         true
    ///     }
    /// }
    ///
    /// let pgn = "[White \"A\"]\n\n1. e4 Ke7 *\n\n[White \"B\"]\n\n1. d4 *\n";
    /// let mut whites = Whites(Vec::new());
    /// let mut reader = Reader::new(pgn.as_bytes());
    /// while reader.read_game(&mut whites)? {}
    /// assert_eq!(whites.0, ["A", "B"]);
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    fn skip_movetext(&mut self) -> bool {
        false
    }

    /// Whether the visitor has read all it wants of this game's movetext,
    /// asked as the main line is read, after each of its moves at least.
    /// When it says yes, the reader calls [`end_game`](Visitor::end_game)
    /// with the position reached and steps over the rest of the movetext
    /// without reading a move, to the next `[` outside a comment (the next
    /// game's tags): a visitor that wants a game's first moves only (an
    /// opening book, an explorer) reads far less. The game's result token
    /// is then not read ([`result`](Visitor::result) is not called), nor
    /// is anything after the stop checked: a later illegal move is no
    /// error.
    ///
    /// ```
    /// use bitboards_pgn::{PgnMove, Reader, Visitor};
    ///
    /// /// The first two moves of each game, in UCI.
    /// #[derive(Default)]
    /// struct Openings(Vec<Vec<String>>);
    /// impl Visitor for Openings {
    ///     fn begin_game(&mut self, _: usize) {
    ///         self.0.push(Vec::new());
    ///     }
    ///     fn san(&mut self, played: PgnMove<'_>) {
    ///         self.0.last_mut().unwrap().push(played.mv.to_string());
    ///     }
    ///     fn stop_movetext(&mut self) -> bool {
    ///         self.0.last().unwrap().len() >= 2
    ///     }
    /// }
    ///
    /// // The first game's third move is not legal: never read.
    /// let pgn = "[White \"A\"]\n\n1. e4 e5 2. Ke3 1-0\n\n[White \"B\"]\n\n1. d4 { [a comment] } d5 2. c4 *\n";
    /// let mut openings = Openings::default();
    /// let mut reader = Reader::new(pgn.as_bytes());
    /// while reader.read_game(&mut openings)? {}
    /// assert_eq!(openings.0, [["e2e4", "e7e5"], ["d2d4", "d7d5"]]);
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    fn stop_movetext(&mut self) -> bool {
        false
    }

    /// A move, legal in `played.before`.
    fn san(&mut self, played: PgnMove<'_>) {
        let _ = played;
    }

    /// A Numeric Annotation Glyph: `$n`, or a move's `!` (1), `?` (2),
    /// `!!` (3), `??` (4), `!?` (5), `?!` (6).
    fn nag(&mut self, nag: u8) {
        let _ = nag;
    }

    /// A comment, `{...}` or `;...` to the end of the line, without the
    /// marks and the whitespace around the text. Bytes that are not UTF-8
    /// are replaced as by [`String::from_utf8_lossy`](std::string::String::from_utf8_lossy).
    fn comment(&mut self, text: &str) {
        let _ = text;
    }

    /// A comment, or the last piece of one, as the file's bytes (without
    /// the marks and the whitespace around the text): by default read as
    /// text and handed to [`comment`](Visitor::comment). A visitor that
    /// reads comments as bytes takes them here without the check that
    /// they are UTF-8.
    ///
    /// ```
    /// use bitboards_pgn::{Reader, Visitor};
    ///
    /// struct Lengths(Vec<usize>);
    /// impl Visitor for Lengths {
    ///     fn comment_bytes(&mut self, bytes: &[u8]) {
    ///         self.0.push(bytes.len());
    ///     }
    /// }
    /// let mut lengths = Lengths(Vec::new());
    /// Reader::new(&b"1. e4 { [%clk 0:03:00] } e5 {\xff} *"[..]).read_game(&mut lengths)?;
    /// assert_eq!(lengths.0, [14, 1]);
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    fn comment_bytes(&mut self, bytes: &[u8]) {
        self.comment(&crate::text::lossy(bytes));
    }

    /// A piece of a comment too long for the reader's buffer: such a
    /// comment comes as one or more `comment_part` calls, then a
    /// [`comment`](Visitor::comment) call with its last piece.
    fn comment_part(&mut self, text: &str) {
        let _ = text;
    }

    /// A variation `(` starts; whether to read it or skip it. Skipped
    /// unless the visitor says otherwise.
    fn begin_variation(&mut self) -> Visit {
        Visit::Skip
    }

    /// An entered variation ends.
    fn end_variation(&mut self) {}

    /// The result that ends the movetext.
    fn result(&mut self, result: GameResult) {
        let _ = result;
    }

    /// Whether this game's movetext should reach
    /// [`movetext_text`](Visitor::movetext_text) as the file has it, asked
    /// right after [`begin_game`](Visitor::begin_game). No by default:
    /// keeping the text costs a copy where a game crosses the reader's
    /// buffer.
    fn wants_movetext_text(&mut self) -> bool {
        false
    }

    /// The game's movetext as the file has it, when the visitor
    /// [wants it](Visitor::wants_movetext_text): from its first token (a
    /// comment after the tags included) to the end of its result, or of its
    /// last token where it has none, with comments, NAGs, variations and
    /// the whitespace and line breaks between them as read; empty for a
    /// game without movetext. Called once, before
    /// [`end_game`](Visitor::end_game), after every other event of the
    /// game. Bytes that are not UTF-8 are replaced as by
    /// [`String::from_utf8_lossy`](std::string::String::from_utf8_lossy).
    ///
    /// ```
    /// use bitboards_pgn::{Reader, Visitor};
    ///
    /// struct Source(String);
    /// impl Visitor for Source {
    ///     fn wants_movetext_text(&mut self) -> bool {
    ///         true
    ///     }
    ///     fn movetext_text(&mut self, text: &str) {
    ///         self.0 = text.to_string();
    ///     }
    /// }
    ///
    /// let pgn = "[White \"A\"]\n\n1. e4 {best} (1. d4 $1)\n1... e5 1-0\n\n";
    /// let mut source = Source(String::new());
    /// Reader::new(pgn.as_bytes()).read_game(&mut source)?;
    /// assert_eq!(source.0, "1. e4 {best} (1. d4 $1)\n1... e5 1-0");
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    fn movetext_text(&mut self, text: &str) {
        let _ = text;
    }

    /// The game is over; `last` is the final position of its mainline.
    fn end_game(&mut self, last: &Position) {
        let _ = last;
    }
}
