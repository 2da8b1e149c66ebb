//! The streaming reader: a byte-level tokenizer over [`Input`] that resolves
//! each move as it reads it and tells a [`Visitor`].

use std::borrow::ToOwned;
use std::io::{self, BufRead};
use std::string::String;
use std::vec::Vec;

use crate::error::{PgnError, PgnErrorKind, ReadError};
use crate::input::{Input, Where};
use crate::result::GameResult;
use crate::text::{lossy, text};
use crate::visitor::{PgnMove, Visit, Visitor};
use bitboards::{Move, Position, San, SanError};

/// How deep entered variations may nest: the stack of their positions is
/// the one buffer besides the input's that depends on the text, and stays
/// bounded by this.
const MAX_DEPTH: usize = 128;

/// The default size of the input buffer: the longest tag, move or comment
/// piece the reader holds in one piece.
const DEFAULT_CAPACITY: usize = 64 * 1024;

/// A streaming PGN reader over any [`BufRead`]: one game per
/// [`read_game`](Reader::read_game) call, told to a [`Visitor`], or games
/// as values through [`games`](Reader::games).
///
/// It holds one fixed-size input buffer, a tag-value buffer no larger than
/// it and a bounded stack of variation positions, and nothing else that
/// grows with the input ([`buffer_capacity`](Reader::buffer_capacity)), so
/// a file of any size is read in constant memory. It reads a UTF-8 byte
/// order mark, CRLF line ends, `%` escape lines, `;` comments, move numbers
/// with or without dots (`12.`, `12...`, `12 .`, `12.e4`), castling with
/// zeros, annotation glyphs glued to moves, and games without tags or
/// without a result.
///
/// ```
/// use bitboards_pgn::{Reader, Visitor};
/// use bitboards::{Move, Position};
///
/// /// Collects the final position of each game.
/// struct Finals(Vec<String>);
/// impl Visitor for Finals {
///     fn end_game(&mut self, last: &Position) {
///         self.0.push(last.fen().to_string());
///     }
/// }
///
/// let pgn = "\u{feff}[White \"A\"]\r\n\r\n1. e4 e5 1-0\r\n\r\n[White \"B\"]\r\n\r\n1. d4 *\r\n";
/// let mut reader = Reader::new(pgn.as_bytes());
/// let mut finals = Finals(Vec::new());
/// while reader.read_game(&mut finals)? {}
/// assert_eq!(finals.0, [
///     "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
///     "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
/// ]);
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
pub struct Reader<R> {
    input: Input<R>,
    /// Games begun so far.
    games: usize,
    /// The tag being read: its name, then its value unescaped.
    tag: Vec<u8>,
    /// The value of the current game's `FEN` tag.
    fen: Vec<u8>,
    /// The lines that entered variations left, innermost last.
    stack: Vec<Line>,
    /// Where the open variations (entered or being skipped) start: line
    /// and column of their `(`, innermost last.
    opens: Vec<Where>,
    started: bool,
    /// The input is not PGN: nothing more is read.
    dead: bool,
    /// Whether the visitor wants this game's comments.
    comments: bool,
    /// Whether the visitor wants this game's movetext as the file has it
    /// ([`Visitor::wants_movetext_text`]).
    movetext_text: bool,
    /// The offset of the input's first token, and its line (up to 40
    /// bytes), for [`ReadError::NotPgn`]: an error on that very token (so
    /// nothing before it was read) says the input is not PGN. `u64::MAX`
    /// for a piece of an input that starts later.
    head: u64,
    head_text: String,
    /// Tests read without the fast paths ([`Reader::fast_paths`]), to
    /// check that the general reading reads the same.
    #[cfg(test)]
    general_only: bool,
}

/// Where a line of play stands: its position, and the one before its last
/// move (where a variation replacing that move starts).
#[derive(Clone, Copy)]
struct Line {
    position: Position,
    before: Option<Position>,
}

/// Why a game stopped: the input failed, or the game is malformed.
enum Failure {
    Io(io::Error),
    Pgn {
        at: Where,
        kind: PgnErrorKind,
        /// Whether the rest of the game still has to be skipped (not when
        /// the error was found at the game's end).
        skip: bool,
    },
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Failure {
        Failure::Io(error)
    }
}

/// Whether a byte belongs to a word (a move, a number, a result): all but
/// whitespace and the bytes with a meaning of their own in movetext.
#[inline]
fn is_word(byte: u8) -> bool {
    WORD_BYTES[usize::from(byte)]
}

/// [`is_word`] for each byte, looked up rather than matched: words are
/// scanned byte by byte.
const WORD_BYTES: [bool; 256] = {
    let mut table = [true; 256];
    let ends = b" \t\r\n\x0b\x0c{}();$[]\".*";
    let mut index = 0;
    while index < ends.len() {
        table[ends[index] as usize] = false;
        index += 1;
    }
    table
};

/// The NAG of an annotation glyph.
fn glyph(text: &[u8]) -> Option<u8> {
    match text {
        b"!" => Some(1),
        b"?" => Some(2),
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        _ => None,
    }
}

/// What a `Variant` tag names: standard chess or Chess960 (whose FEN and
/// castling the reader handles the same way), or a variant it does not
/// play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Variant {
    Standard,
    Chess960,
    Unsupported,
}

/// The variant a `Variant` tag's value names, by python-chess's names of
/// standard chess (`chess.Board.aliases`) and of Chess960
/// (`Headers.is_chess960`), with spaces, `-` and `_` aside and case
/// ignored, and the FICS wild setups it plays as standard chess.
pub(crate) fn variant(value: &str) -> Variant {
    let mut name = [0u8; 16];
    let mut len = 0;
    for byte in value
        .bytes()
        .filter(|byte| !matches!(byte, b' ' | b'-' | b'_'))
    {
        if len == name.len() {
            return Variant::Unsupported;
        }
        name[len] = byte.to_ascii_lowercase();
        len += 1;
    }
    match &name[..len] {
        b"" | b"standard" | b"chess" | b"classical" | b"normal" | b"illegal" | b"fromposition"
        | b"wild/0" | b"wild/1" | b"wild/2" | b"wild/3" | b"wild/4" | b"wild/5" | b"wild/6"
        | b"wild/7" | b"wild/8" | b"wild/8a" => Variant::Standard,
        b"chess960" | b"fischerandom" | b"fischerrandom" | b"fischerrandomchess" | b"960" => {
            Variant::Chess960
        }
        _ => Variant::Unsupported,
    }
}

/// Whether a `Variant` tag's value names standard chess (or a start from
/// a position, `From Position`, which is standard chess from a `FEN`), as
/// the reader reads it: python-chess's names of standard chess, with
/// spaces, `-` and `_` aside and case ignored.
///
/// ```
/// use bitboards_pgn::is_standard_variant;
///
/// assert!(is_standard_variant("Standard"));
/// assert!(is_standard_variant("From Position"));
/// assert!(!is_standard_variant("Chess960"));
/// assert!(!is_standard_variant("Atomic"));
/// ```
#[must_use]
pub fn is_standard_variant(value: &str) -> bool {
    variant(value) == Variant::Standard
}

/// Whether a `Variant` tag's value names Chess960, as the reader reads it
/// (python-chess's names: `Chess960`, `chess 960`, `Fischerandom`,
/// `fischer random`, ..., case, spaces, `-` and `_` aside).
///
/// ```
/// use bitboards_pgn::is_chess960_variant;
///
/// assert!(is_chess960_variant("Chess960"));
/// assert!(is_chess960_variant("fischer-random"));
/// assert!(!is_chess960_variant("Standard"));
/// assert!(!is_chess960_variant("Crazyhouse"));
/// ```
#[must_use]
pub fn is_chess960_variant(value: &str) -> bool {
    variant(value) == Variant::Chess960
}

impl<R: BufRead> Reader<R> {
    /// A reader over `inner` with a 64 KiB buffer.
    ///
    /// ```
    /// use bitboards_pgn::Reader;
    ///
    /// let mut reader = Reader::new(&b"1. e4 *"[..]);
    /// assert_eq!(reader.games().count(), 1);
    /// ```
    pub fn new(inner: R) -> Reader<R> {
        Reader::with_capacity(DEFAULT_CAPACITY, inner)
    }

    /// A reader with an input buffer of `capacity` bytes (at least 64): the
    /// longest tag or move it reads, and the size of the pieces a longer
    /// comment comes in ([`Visitor::comment_part`]).
    ///
    /// ```
    /// use bitboards_pgn::Reader;
    ///
    /// let reader = Reader::with_capacity(4096, &b""[..]);
    /// assert!(reader.buffer_capacity() >= 4096);
    /// ```
    pub fn with_capacity(capacity: usize, inner: R) -> Reader<R> {
        Reader {
            input: Input::new(inner, capacity),
            games: 0,
            tag: Vec::new(),
            fen: Vec::new(),
            stack: Vec::new(),
            opens: Vec::new(),
            started: false,
            dead: false,
            comments: true,
            movetext_text: false,
            head: 0,
            head_text: String::new(),
            #[cfg(test)]
            general_only: false,
        }
    }

    /// The bytes the reader's own buffers hold: the input buffer, the tag
    /// buffers and the variation stack. It stops growing after the first
    /// games: a file of any length is read in this much memory (besides
    /// what a visitor keeps).
    ///
    /// ```
    /// use bitboards_pgn::Reader;
    ///
    /// let pgn = "[Event \"?\"]\n\n1. e4 (1. d4 d5) e5 *\n\n".repeat(100);
    /// let mut reader = Reader::new(pgn.as_bytes());
    /// reader.games().next();
    /// let after_one = reader.buffer_capacity();
    /// assert_eq!(reader.games().count(), 99);
    /// assert_eq!(reader.buffer_capacity(), after_one);
    /// ```
    #[must_use]
    pub fn buffer_capacity(&self) -> usize {
        self.input.capacity()
            + self.tag.capacity()
            + self.fen.capacity()
            + self.stack.capacity() * size_of::<Line>()
            + self.opens.capacity() * size_of::<Where>()
    }

    /// The input, given back.
    ///
    /// ```
    /// use bitboards_pgn::Reader;
    ///
    /// let text: &[u8] = b"";
    /// assert!(Reader::new(text).into_inner().is_empty());
    /// ```
    pub fn into_inner(self) -> R {
        self.input.into_inner()
    }

    /// The input, borrowed.
    pub(crate) fn get_ref(&self) -> &R {
        self.input.get_ref()
    }

    /// How far into the input the reader has gone: the offset of the first
    /// byte it has not read (after a game, where the game ended).
    pub(crate) fn offset(&self) -> u64 {
        self.input.offset()
    }

    /// Reads the next game, telling `visitor` what it contains. `Ok(true)`
    /// after a game, `Ok(false)` at the end of the input.
    ///
    /// # Errors
    ///
    /// [`ReadError::Game`] for a malformed game: the reader has skipped to
    /// the next game (the next tag section after a blank line or a
    /// result), and the next call reads it. [`ReadError::Io`] when the
    /// input fails; reading should stop.
    ///
    /// ```
    /// use bitboards_pgn::{ReadError, Reader, Visitor};
    ///
    /// struct Tags(Vec<(String, String)>);
    /// impl Visitor for Tags {
    ///     fn tag(&mut self, name: &str, value: &str) {
    ///         self.0.push((name.to_string(), value.to_string()));
    ///     }
    /// }
    ///
    /// let pgn = r#"[Event "The \"Big\" one"]
    /// [Site "C:\\games"]
    ///
    /// 1. e4 *
    /// "#;
    /// let mut tags = Tags(Vec::new());
    /// let mut reader = Reader::new(pgn.as_bytes());
    /// assert!(reader.read_game(&mut tags)?);
    /// assert!(!reader.read_game(&mut tags)?);
    /// assert_eq!(tags.0[0].1, r#"The "Big" one"#);
    /// assert_eq!(tags.0[1].1, r"C:\games");
    /// # Ok::<(), ReadError>(())
    /// ```
    pub fn read_game<V: Visitor + ?Sized>(&mut self, visitor: &mut V) -> Result<bool, ReadError> {
        if !self.started {
            self.started = true;
            self.input.fill(3)?;
            if self.input.window().starts_with(b"\xEF\xBB\xBF") {
                self.input.skip_bom();
            }
            // Text has no NUL byte; a binary file gets one error, not one
            // per stretch of bytes that looks like a game.
            let binary = self.input.window().contains(&0);
            if self.input.skip_space()?.is_some() {
                self.head = self.input.where_of(self.input.pos).offset;
                let window = self.input.window();
                let line = window.split(|&b| b == b'\n').next().unwrap_or_default();
                self.head_text = String::from_utf8_lossy(&line[..line.len().min(40)]).into_owned();
            }
            if binary {
                self.dead = true;
                return Err(self.not_pgn());
            }
        }
        if self.dead || self.input.skip_space()?.is_none() {
            return Ok(false);
        }
        self.games += 1;
        visitor.begin_game(self.games);
        self.comments = visitor.wants_comments();
        self.movetext_text = visitor.wants_movetext_text();
        match self.game(visitor) {
            Ok(()) => Ok(true),
            Err(Failure::Io(error)) => Err(ReadError::Io(error)),
            Err(Failure::Pgn { at, kind, .. })
                if at.offset == self.head
                    && matches!(
                        kind,
                        PgnErrorKind::Unexpected(_)
                            | PgnErrorKind::San {
                                error: SanError::Malformed { .. },
                                ..
                            }
                    ) =>
            {
                // The input's first token is not PGN: not a PGN file (a
                // `Cargo.lock`, a binary) rather than a bad first game.
                self.dead = true;
                Err(self.not_pgn())
            }
            Err(Failure::Pgn { at, kind, skip }) => {
                if skip {
                    self.skip_to_next_game()?;
                }
                Err(ReadError::Game(PgnError {
                    game: self.games,
                    line: at.line,
                    column: at.column,
                    offset: at.offset,
                    kind,
                }))
            }
        }
    }

    /// [`ReadError::NotPgn`], quoting the start of the input.
    fn not_pgn(&mut self) -> ReadError {
        ReadError::NotPgn {
            start: core::mem::take(&mut self.head_text),
        }
    }

    /// Reads a piece of a larger input that starts at a line start: its
    /// first byte is on `line` at `offset` of the whole. Only the first
    /// piece (`first`) may start with a byte order mark or be found not to
    /// be PGN at all.
    pub(crate) fn start_at(&mut self, line: u64, offset: u64, first: bool) {
        self.input.start_at(line, offset);
        if !first {
            self.started = true;
            self.head = u64::MAX;
        }
    }

    /// The error `kind` at `buf[at]`.
    fn fail(&self, at: usize, kind: PgnErrorKind, skip: bool) -> Failure {
        Failure::Pgn {
            at: self.input.where_of(at),
            kind,
            skip,
        }
    }

    /// Reads one game: its tag section, then its movetext.
    fn game<V: Visitor + ?Sized>(&mut self, visitor: &mut V) -> Result<(), Failure> {
        self.fen.clear();
        self.stack.clear();
        self.opens.clear();
        // A game that failed may have left its text kept.
        self.input.stop_keeping();
        let Some(start) = self.tag_section(visitor)? else {
            return Ok(());
        };
        self.movetext(visitor, start)
    }

    /// Reads the tags and any comments before the movetext, then tells the
    /// visitor the start position; `None` when the game ends there (the
    /// input ends, or the visitor skips the movetext).
    fn tag_section<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
    ) -> Result<Option<Position>, Failure> {
        let mut fen_at = None;
        loop {
            let Some(byte) = self.input.skip_space()? else {
                let start = self.start_position(fen_at)?;
                visitor.begin_movetext(&start);
                self.end_game(visitor, &start);
                return Ok(None);
            };
            match byte {
                b'[' => {
                    // A comment before this tag was not movetext.
                    self.input.stop_keeping();
                    if self.fast_paths() && self.common_tag(visitor) {
                        continue;
                    }
                    if let Some(at) = self.tag(visitor)? {
                        fen_at = Some(at);
                    }
                }
                b'{' | b';' => {
                    self.keep_movetext();
                    let close = if byte == b'{' { b'}' } else { b'\n' };
                    self.comment(visitor, close, self.comments)?;
                }
                _ => {
                    if visitor.skip_movetext() {
                        self.input.stop_keeping();
                        self.skip_lines_to_tags()?;
                        return Ok(None);
                    }
                    self.keep_movetext();
                    let start = self.start_position(fen_at)?;
                    visitor.begin_movetext(&start);
                    return Ok(Some(start));
                }
            }
        }
    }

    /// Reads the movetext from `start` to the game's end: its result, the
    /// next game's tags or the end of the input.
    fn movetext<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        start: Position,
    ) -> Result<(), Failure> {
        let mut line = Line {
            position: start,
            before: None,
        };
        loop {
            if self.fast_paths() && self.common_tokens(visitor, &mut line)? {
                return self.stop_movetext(visitor, &line);
            }
            let Some(byte) = self.input.skip_space()? else {
                if !self.stack.is_empty() {
                    return Err(self.unclosed());
                }
                self.end_game(visitor, &line.position);
                return Ok(());
            };
            match byte {
                b'A'..=b'Z' | b'a'..=b'z' | b'-' | b'@' => self.san(visitor, &mut line)?,
                b'.' => self.input.pos += 1,
                b'0'..=b'9' => {
                    if let Some(result) = self.digit_word(visitor, &mut line)? {
                        return self.end(visitor, &line, result);
                    }
                }
                b'*' => {
                    self.input.pos += 1;
                    return self.end(visitor, &line, GameResult::Unknown);
                }
                b'(' => self.open_variation(visitor, &mut line)?,
                b')' => self.close_variation(visitor, &mut line)?,
                b'$' => self.nag(visitor)?,
                b'!' | b'?' => self.glyphs(visitor)?,
                b'{' => self.comment(visitor, b'}', self.comments)?,
                b';' => self.comment(visitor, b'\n', self.comments)?,
                b'[' => {
                    // The next game's tags: this one had no result.
                    if !self.stack.is_empty() {
                        return Err(self.unclosed());
                    }
                    self.end_game(visitor, &line.position);
                    return Ok(());
                }
                _ => {
                    let len = self.input.run(0, is_word)?.unwrap_or(1).max(1);
                    return Err(self.unexpected(self.input.pos, len));
                }
            }
            if self.stack.is_empty() && visitor.stop_movetext() {
                return self.stop_movetext(visitor, &line);
            }
        }
    }

    /// The visitor wants no more of this movetext: the game ends at
    /// `line`'s position, and the reader steps over the rest of its text
    /// without reading it, to the next `[` outside a comment (a tag, since
    /// movetext has no other `[`) or the end of the input, counting its
    /// lines. A `%` escape line is not told apart from movetext.
    #[cold]
    fn stop_movetext<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        line: &Line,
    ) -> Result<(), Failure> {
        self.end_game(visitor, &line.position);
        self.input.stop_keeping();
        // The byte that ends the comment the scan is in, if it is in one.
        // Line breaks are found in the same scan (they are counted, and
        // end a `;` comment): the text stepped over is mostly short `{ }`
        // comments, and a search and a count of lines for each cost more
        // than the comment's bytes do.
        let mut close: Option<u8> = None;
        loop {
            let window = self.input.window();
            let found = match close {
                None => first_of(window, [b'[', b'{', b';', b'\n']),
                Some(close) => first_of(window, [close, b'\n']),
            };
            let Some(len) = found else {
                self.input.pos = self.input.end;
                if self.input.fill(1)? == 0 {
                    return Ok(());
                }
                continue;
            };
            self.input.pos += len;
            let byte = self.input.window()[0];
            if byte == b'\n' {
                self.input.newline_at(self.input.pos);
                if close == Some(b'\n') {
                    close = None;
                }
            } else {
                close = match (close, byte) {
                    (None, b'[') => return Ok(()),
                    (None, b'{') => Some(b'}'),
                    (None, _) => Some(b'\n'),
                    (Some(_), _) => None,
                };
            }
            self.input.pos += 1;
        }
    }

    /// Reads the movetext's most common tokens for as long as each lies
    /// whole in the buffer: blanks and line breaks, move numbers, moves
    /// written with a letter, and `{` comments. It stops before anything
    /// else, and before a token that may go on past the buffer, which
    /// [`Reader::movetext`]'s general loop then reads the same way (this is
    /// that loop's fast path, not a second grammar).
    ///
    /// Returns whether the visitor [stopped](Visitor::stop_movetext) the
    /// movetext after a move of the main line.
    #[inline]
    fn common_tokens<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        line: &mut Line,
    ) -> Result<bool, Failure> {
        loop {
            let pos = self.input.pos;
            let buffered = self.input.buffered();
            let Some(&byte) = buffered.get(pos) else {
                return Ok(false);
            };
            match byte {
                b' ' | b'\t' | b'\r' => {
                    let rest = &buffered[pos + 1..];
                    let blanks = rest
                        .iter()
                        .position(|&b| !matches!(b, b' ' | b'\t' | b'\r'))
                        .unwrap_or(rest.len());
                    self.input.pos = pos + 1 + blanks;
                }
                b'\n' => {
                    // A `%` line after it is for the general loop.
                    self.input.newline_at(pos);
                    self.input.pos = pos + 1;
                }
                b'1'..=b'9' => {
                    // A move number: digits, then dots or a byte that ends
                    // the word. Results go to the general loop, as do words
                    // from a `0`: castling with zeros and the null move
                    // `0000`.
                    let rest = &buffered[pos..];
                    let digits = rest
                        .iter()
                        .position(|b| !b.is_ascii_digit())
                        .unwrap_or(rest.len());
                    let mut end = pos + digits;
                    match buffered.get(end) {
                        Some(b'.') => {
                            while buffered.get(end) == Some(&b'.') {
                                end += 1;
                            }
                            // And the blank after the dots.
                            end += usize::from(buffered.get(end) == Some(&b' '));
                        }
                        Some(&after) if !is_word(after) => {}
                        _ => return Ok(false),
                    }
                    self.input.pos = end;
                }
                b'A'..=b'Z' | b'a'..=b'z' => {
                    // A move of a common shape whose word ends where the
                    // move does is read in one pass; anything else, and a
                    // move that is not legal here, goes the general way.
                    if let Some((san, len)) = San::from_ascii_prefix(&buffered[pos..])
                        && buffered.get(pos + len).is_some_and(|&b| !is_word(b))
                        && self.play_san(visitor, line, san, len)
                    {
                        if self.stack.is_empty() && visitor.stop_movetext() {
                            return Ok(true);
                        }
                        continue;
                    }
                    let rest = &self.input.buffered()[pos..];
                    let Some(len) = rest.iter().position(|&b| !is_word(b)) else {
                        return Ok(false);
                    };
                    self.play_word(visitor, line, len)?;
                    if self.stack.is_empty() && visitor.stop_movetext() {
                        return Ok(true);
                    }
                }
                b'{' => {
                    // A comment on one line and whole in the buffer: one
                    // search finds its end.
                    if let Some(len) = first_of(&buffered[pos + 1..], [b'}', b'\n'])
                        && buffered[pos + 1 + len] == b'}'
                    {
                        if self.comments {
                            deliver(visitor, buffered[pos + 1..pos + 1 + len].trim_ascii(), true);
                        }
                        let end = pos + len + 2;
                        self.input.pos = end + usize::from(buffered.get(end) == Some(&b' '));
                        continue;
                    }
                    self.comment(visitor, b'}', self.comments)?;
                }
                _ => return Ok(false),
            }
        }
    }

    /// Reads the word at `pos`, which starts with a digit: skips a move
    /// number and its dots, plays castling or a null move written with
    /// zeros, or returns the result that ends the game.
    fn digit_word<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        line: &mut Line,
    ) -> Result<Option<GameResult>, Failure> {
        let Some(len) = self.input.run(0, is_word)? else {
            return Err(self.too_long());
        };
        let at = self.input.pos;
        let word = self.input.bytes(at, len);
        if word == b"0000" {
            // UCI's null move.
            self.san(visitor, line)?;
        } else if word.iter().all(u8::is_ascii_digit) {
            // A move number, and the dots right after it.
            self.input.pos += len;
            while self.input.window().first() == Some(&b'.') {
                self.input.pos += 1;
            }
        } else if let Some(result) = GameResult::from_bytes(word) {
            self.input.pos += len;
            return Ok(Some(result));
        } else if word.starts_with(b"0-0") {
            self.san(visitor, line)?;
        } else {
            return Err(self.unexpected(at, len));
        }
        Ok(None)
    }

    /// The `(` at `pos`: enters the variation that replaces `line`'s last
    /// move, or skips it if the visitor says so.
    fn open_variation<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        line: &mut Line,
    ) -> Result<(), Failure> {
        let at = self.input.pos;
        let Some(before) = line.before else {
            return Err(self.fail(at, PgnErrorKind::VariationWithoutMove, true));
        };
        if self.opens.len() >= MAX_DEPTH {
            let kind = PgnErrorKind::TooDeep { limit: MAX_DEPTH };
            return Err(self.fail(at, kind, true));
        }
        self.opens.push(self.input.where_of(at));
        match visitor.begin_variation() {
            Visit::Enter => {
                self.input.pos += 1;
                self.stack.push(*line);
                *line = Line {
                    position: before,
                    before: None,
                };
            }
            Visit::Skip => self.skip_variation()?,
        }
        Ok(())
    }

    /// The `)` at `pos`: leaves the entered variation, back to the line it
    /// left.
    fn close_variation<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        line: &mut Line,
    ) -> Result<(), Failure> {
        let Some(outer) = self.stack.pop() else {
            return Err(self.fail(self.input.pos, PgnErrorKind::UnmatchedClose, true));
        };
        self.input.pos += 1;
        self.opens.pop();
        *line = outer;
        visitor.end_variation();
        Ok(())
    }

    /// Reads the NAG at `pos` (`$` and up to three digits) and tells the
    /// visitor.
    fn nag<V: Visitor + ?Sized>(&mut self, visitor: &mut V) -> Result<(), Failure> {
        let Some(len) = self.input.run(1, |byte| byte.is_ascii_digit())? else {
            return Err(self.too_long());
        };
        let at = self.input.pos;
        let digits = self.input.bytes(at + 1, len);
        let nag = (len > 0 && len <= 3)
            .then(|| {
                digits
                    .iter()
                    .fold(0u16, |n, &d| n * 10 + u16::from(d - b'0'))
            })
            .and_then(|n| u8::try_from(n).ok());
        let Some(nag) = nag else {
            return Err(self.fail(at, PgnErrorKind::BadNag, true));
        };
        self.input.pos += 1 + len;
        visitor.nag(nag);
        Ok(())
    }

    /// Reads the annotation glyph at `pos` standing on its own (`!`, `?!`)
    /// and tells the visitor its NAG.
    fn glyphs<V: Visitor + ?Sized>(&mut self, visitor: &mut V) -> Result<(), Failure> {
        let Some(len) = self.input.run(0, |byte| matches!(byte, b'!' | b'?'))? else {
            return Err(self.too_long());
        };
        let at = self.input.pos;
        let Some(nag) = glyph(self.input.bytes(at, len)) else {
            return Err(self.unexpected(at, len));
        };
        self.input.pos += len;
        visitor.nag(nag);
        Ok(())
    }

    /// The result that ends the game.
    fn end<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        line: &Line,
        result: GameResult,
    ) -> Result<(), Failure> {
        if !self.stack.is_empty() {
            return Err(self.unclosed());
        }
        visitor.result(result);
        self.end_game(visitor, &line.position);
        Ok(())
    }

    /// Starts keeping the movetext at `pos`, its first token, when the
    /// visitor wants its text and it is not kept already (from a comment
    /// before the first move).
    #[inline]
    fn keep_movetext(&mut self) {
        if self.movetext_text && !self.input.keeping() {
            self.input.keep_from(self.input.pos);
        }
    }

    /// Ends the game at `pos`, `last` its final position: hands the
    /// visitor the movetext kept since its first token (without the
    /// whitespace before `pos`; empty when the game has none), when it
    /// wants it, then [`Visitor::end_game`].
    fn end_game<V: Visitor + ?Sized>(&mut self, visitor: &mut V, last: &Position) {
        if self.movetext_text {
            let text = self.input.take_kept().trim_ascii_end();
            visitor.movetext_text(&lossy(text));
        }
        visitor.end_game(last);
    }

    /// The innermost variation left open, at the game's end.
    fn unclosed(&self) -> Failure {
        let at = self.opens.last().copied().unwrap_or(Where {
            line: self.input.line,
            column: 1,
            offset: self.input.line_start(),
        });
        Failure::Pgn {
            at,
            kind: PgnErrorKind::UnclosedVariation,
            skip: false,
        }
    }

    /// A token from `pos` that does not fit in the buffer.
    fn too_long(&self) -> Failure {
        self.fail(
            self.input.pos,
            PgnErrorKind::TooLong {
                limit: self.input.capacity(),
            },
            true,
        )
    }

    /// `Unexpected` with the text of the `len` bytes at `at`.
    fn unexpected(&self, at: usize, len: usize) -> Failure {
        let bytes = self.input.bytes(at, len.min(self.input.end - at));
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(40)]).into_owned();
        self.fail(at, PgnErrorKind::Unexpected(text), true)
    }

    /// Reads the move at `pos` (with any glyphs glued to it) and plays it.
    fn san<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        line: &mut Line,
    ) -> Result<(), Failure> {
        let Some(len) = self.input.run(0, is_word)? else {
            return Err(self.too_long());
        };
        self.play_word(visitor, line, len)
    }

    /// Plays `san`, read from the `len` bytes at `pos` (a whole word, and
    /// ASCII), and steps over it; `false` when it is not legal here, with
    /// the position and `pos` unchanged, for [`Reader::play_word`] to say
    /// why.
    #[inline]
    fn play_san<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        line: &mut Line,
        san: San,
        len: usize,
    ) -> bool {
        let Some(text) = text(self.input.bytes(self.input.pos, len)) else {
            return false;
        };
        // The copy kept for a variation, made before the move is known to
        // be legal: on an error `play_word` makes it again.
        let before = line.before.insert(line.position);
        let Ok(mv) = line.position.play_san(san) else {
            return false;
        };
        visitor.san(PgnMove {
            before,
            after: &line.position,
            san: text,
            mv,
        });
        // The blank that nearly always follows, stepped over here rather
        // than by another turn of the token loop.
        let blank = self.input.buffered().get(self.input.pos + len) == Some(&b' ');
        self.input.pos += len + usize::from(blank);
        true
    }

    /// Plays the move written in the `len` bytes at `pos`, a whole word,
    /// and steps over it.
    #[inline]
    fn play_word<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        line: &mut Line,
        len: usize,
    ) -> Result<(), Failure> {
        let at = self.input.pos;
        let word = self.input.bytes(at, len);
        let mut body = len;
        while body > 1 && matches!(word[body - 1], b'!' | b'?') {
            body -= 1;
        }
        let nag = match body < len {
            true => glyph(&word[body..]),
            false => None,
        };
        let Some(san) = text(&word[..body]) else {
            return Err(self.unexpected(at, len));
        };
        // One copy per move: the position before it, kept for a variation
        // that may replace it (an illegal move ends the game, so the copy
        // may be made before knowing).
        let before = line.before.insert(line.position);
        let played = match line.position.play_san_in_place(san) {
            Ok(mv) => Ok(mv),
            Err(error) => play_other(&mut line.position, san).unwrap_or(Err(PgnErrorKind::San {
                san: san.to_owned(),
                error,
            })),
        };
        match played {
            Ok(mv) => visitor.san(PgnMove {
                before,
                after: &line.position,
                san,
                mv,
            }),
            Err(kind) => return Err(self.fail(at, kind, true)),
        }
        self.input.pos += len;
        if let Some(nag) = nag {
            visitor.nag(nag);
        }
        Ok(())
    }

    /// Reads the tag pair at `pos` and tells the visitor; returns where the
    /// value starts when it is the `FEN` tag.
    fn tag<V: Visitor + ?Sized>(&mut self, visitor: &mut V) -> Result<Option<Where>, Failure> {
        self.input.pos += 1;
        self.skip_blanks()?;
        let name_len = self.tag_name()?;
        self.skip_blanks()?;
        if self.input.peek()? != Some(b'"') {
            return Err(self.bad_tag("`\"` and the tag's value"));
        }
        let value_at = self.tag_value()?;
        self.skip_blanks()?;
        if self.input.peek()? != Some(b']') {
            return Err(self.bad_tag("`]` after the value"));
        }
        self.input.pos += 1;
        self.visit_tag(visitor, name_len, value_at)
    }

    /// Reads the tag pair at `pos` when it has the shape nearly every tag
    /// has and lies whole in the buffer: `[Name "Value"]`, one blank
    /// between, no escape in the value, and a name other than `FEN` and
    /// `Variant` (which the reader itself reads). `false` leaves anything
    /// else, and every error, to [`Reader::tag`], with nothing read.
    #[inline]
    fn common_tag<V: Visitor + ?Sized>(&mut self, visitor: &mut V) -> bool {
        let window = self.input.window();
        let Some(name_len) = window.get(1..).and_then(|rest| {
            rest.iter()
                .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
        }) else {
            return false;
        };
        let name = &window[1..1 + name_len];
        let value_at = name_len + 3;
        if name.is_empty()
            || window.get(name_len + 1..value_at) != Some(b" \"")
            || name == b"FEN"
            || name == b"Variant"
        {
            return false;
        }
        let Some(value_len) = first_of(&window[value_at..], [b'"', b'\\', b'\n']) else {
            return false;
        };
        let end = value_at + value_len;
        if window[end] != b'"' || window.get(end + 1) != Some(&b']') {
            return false;
        }
        let Some(name) = text(name) else {
            return false;
        };
        visitor.tag_bytes(name, &window[value_at..end]);
        self.input.pos += end + 2;
        true
    }

    /// Whether to take the fast paths (common tag pairs, the movetext's
    /// common tokens): always, but in the test that holds them to the
    /// general reading.
    #[inline]
    fn fast_paths(&self) -> bool {
        #[cfg(test)]
        return !self.general_only;
        #[cfg(not(test))]
        true
    }

    /// `BadTag` at `pos`: the tag pair lacks what is `expected` there.
    fn bad_tag(&self, expected: &'static str) -> Failure {
        self.fail(self.input.pos, PgnErrorKind::BadTag { expected }, true)
    }

    /// Reads the tag name at `pos` into the tag buffer (cleared first);
    /// returns its length.
    fn tag_name(&mut self) -> Result<usize, Failure> {
        let Some(name_len) = self
            .input
            .run(0, |b| b.is_ascii_alphanumeric() || b == b'_')?
        else {
            return Err(self.too_long());
        };
        if name_len == 0 {
            return Err(self.bad_tag("a tag name"));
        }
        self.tag.clear();
        self.tag
            .extend_from_slice(self.input.bytes(self.input.pos, name_len));
        self.input.pos += name_len;
        Ok(name_len)
    }

    /// Reads the quoted value at `pos` (its `"`) onto the tag buffer,
    /// unescaping `\"` and `\\`; returns where the value starts.
    fn tag_value(&mut self) -> Result<Where, Failure> {
        let quote = self.input.pos;
        let value_at = self.input.where_of(quote + 1);
        let quote_at = self.input.where_of(quote);
        let quote_failure = |kind| Failure::Pgn {
            at: quote_at,
            kind,
            skip: true,
        };
        let unterminated = || {
            quote_failure(PgnErrorKind::BadTag {
                expected: "a closing `\"` on the same line",
            })
        };
        let limit = self.input.capacity();
        self.input.pos += 1;
        loop {
            let window = self.input.window();
            let stop = window
                .iter()
                .position(|&b| matches!(b, b'"' | b'\\' | b'\n'));
            let upto = stop.unwrap_or(window.len());
            if self.tag.len() + upto > limit {
                return Err(quote_failure(PgnErrorKind::TooLong { limit }));
            }
            self.tag.extend_from_slice(&window[..upto]);
            self.input.pos += upto;
            if stop.is_none() {
                if self.input.fill(1)? == 0 {
                    return Err(unterminated());
                }
                continue;
            }
            match self.input.peek()? {
                Some(b'"') => {
                    self.input.pos += 1;
                    return Ok(value_at);
                }
                Some(b'\\') => {
                    self.input.pos += 1;
                    match self.input.peek()? {
                        Some(byte @ (b'"' | b'\\')) => {
                            self.input.pos += 1;
                            self.tag.push(byte);
                        }
                        _ => self.tag.push(b'\\'),
                    }
                }
                _ => return Err(unterminated()),
            }
        }
    }

    /// Tells the visitor the tag pair in the tag buffer (a name of
    /// `name_len` bytes, then the value at `value_at`), keeping a `FEN`
    /// value and refusing an unsupported `Variant`; returns where a `FEN`
    /// value starts.
    fn visit_tag<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        name_len: usize,
        value_at: Where,
    ) -> Result<Option<Where>, Failure> {
        let (name, value) = self.tag.split_at(name_len);
        let name = text(name).unwrap_or_default();
        let value = lossy(value);
        let mut fen = None;
        if name == "FEN" {
            self.fen.clear();
            self.fen.extend_from_slice(value.as_bytes());
            fen = Some(value_at);
        } else if name == "Variant" && variant(&value) == Variant::Unsupported {
            return Err(Failure::Pgn {
                at: value_at,
                kind: PgnErrorKind::UnsupportedVariant(value.into_owned()),
                skip: true,
            });
        }
        visitor.tag(name, &value);
        Ok(fen)
    }

    /// Skips spaces and tabs within a line.
    fn skip_blanks(&mut self) -> io::Result<()> {
        while let Some(b' ' | b'\t') = self.input.peek()? {
            self.input.pos += 1;
        }
        Ok(())
    }

    /// The start position: the `FEN` tag's, or the standard one.
    fn start_position(&self, fen_at: Option<Where>) -> Result<Position, Failure> {
        let Some(at) = fen_at else {
            return Ok(Position::START);
        };
        let text = core::str::from_utf8(&self.fen).unwrap_or("");
        Position::from_fen(text.trim()).map_err(|error| Failure::Pgn {
            at,
            kind: PgnErrorKind::Fen(error),
            skip: true,
        })
    }

    /// Reads a comment from `pos` (at its `{` or `;`) to `close` (`}`, or
    /// the line end) and tells the visitor, in pieces if it is longer than
    /// the buffer.
    fn comment<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
        close: u8,
        wanted: bool,
    ) -> Result<(), Failure> {
        let deliver = |visitor: &mut V, text: &[u8], last: bool| {
            if wanted {
                deliver(visitor, text, last);
            }
        };
        let open = self.input.where_of(self.input.pos);
        self.input.pos += 1;
        let mut first = true;
        loop {
            let window = self.input.window();
            if let Some(found) = scan_to(window, close) {
                if found.newlines > 0 {
                    self.input
                        .newlines_at(found.newlines, self.input.pos + found.last_newline);
                }
                let len = found.len;
                let text = self.input.bytes(self.input.pos, len);
                let text = if first {
                    text.trim_ascii()
                } else {
                    text.trim_ascii_end()
                };
                deliver(visitor, text, true);
                self.input.pos += len;
                if close == b'\n' {
                    self.input.newline_at(self.input.pos);
                }
                self.input.pos += 1;
                return Ok(());
            }
            let available = window.len();
            if self.input.fill(available + 1)? > available {
                continue;
            }
            if available < self.input.capacity() {
                // The end of the input.
                if close == b'}' {
                    self.input.pos = self.input.end;
                    return Err(Failure::Pgn {
                        at: open,
                        kind: PgnErrorKind::UnterminatedComment,
                        skip: false,
                    });
                }
                self.count_lines(available);
                let text = self.input.bytes(self.input.pos, available);
                deliver(
                    visitor,
                    if first {
                        text.trim_ascii()
                    } else {
                        text.trim_ascii_end()
                    },
                    true,
                );
                self.input.pos += available;
                return Ok(());
            }
            // A full buffer: hand over a piece, cut at a character boundary.
            let window = self.input.window();
            let mut len = available;
            while len > available - 4 && window[len - 1] & 0xC0 == 0x80 {
                len -= 1;
            }
            if len > available - 4 && window[len - 1] >= 0xC0 {
                len -= 1;
            }
            self.count_lines(len);
            let text = self.input.bytes(self.input.pos, len);
            let text = if first { text.trim_ascii_start() } else { text };
            first = false;
            deliver(visitor, text, false);
            self.input.pos += len;
        }
    }

    /// Counts the line breaks among the next `len` bytes.
    fn count_lines(&mut self, len: usize) {
        let end = self.input.pos + len;
        let mut from = self.input.pos;
        while let Some(at) = memchr::memchr(b'\n', self.input.bytes(from, end - from)) {
            self.input.newline_at(from + at);
            from += at + 1;
        }
    }

    /// Skips a variation from its `(` at `pos` (already in `opens`) to
    /// the matching `)`, comments included, without reading its moves.
    fn skip_variation(&mut self) -> Result<(), Failure> {
        let depth = self.opens.len() - 1;
        self.input.pos += 1;
        loop {
            let Some(byte) = self.input.skip_space()? else {
                return Err(self.unclosed());
            };
            let at = self.input.pos;
            match byte {
                b'(' => {
                    if self.opens.len() >= MAX_DEPTH {
                        let kind = PgnErrorKind::TooDeep { limit: MAX_DEPTH };
                        return Err(self.fail(at, kind, true));
                    }
                    self.opens.push(self.input.where_of(at));
                    self.input.pos += 1;
                }
                b')' => {
                    self.opens.pop();
                    self.input.pos += 1;
                    if self.opens.len() == depth {
                        return Ok(());
                    }
                }
                b'{' | b';' => {
                    let close = if byte == b'{' { b'}' } else { b'\n' };
                    self.comment(&mut Ignore, close, false)?;
                }
                b'[' if self.input.at_line_start() => return Err(self.unclosed()),
                _ => {
                    let window = self.input.window();
                    let len = window
                        .iter()
                        .position(|&b| matches!(b, b'(' | b')' | b'{' | b';' | b'\n' | b'%'))
                        .unwrap_or(window.len())
                        .max(1);
                    self.input.pos += len;
                }
            }
        }
    }

    /// After an error: skips to the next game, which starts after the
    /// bad game's result, or else at the next line starting with `[` after
    /// a blank line.
    fn skip_to_next_game(&mut self) -> io::Result<()> {
        if self.skip_line_to_result()? {
            return Ok(());
        }
        let mut blank = false;
        loop {
            while let Some(b' ' | b'\t' | b'\r') = self.input.peek()? {
                self.input.pos += 1;
            }
            match self.input.peek()? {
                None => return Ok(()),
                Some(b'\n') => {
                    blank = true;
                    self.input.newline_at(self.input.pos);
                    self.input.pos += 1;
                }
                Some(b'[') if blank => return Ok(()),
                Some(_) => {
                    if self.skip_line_to_result()? {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Steps over movetext a visitor does not want, line by line without
    /// reading it, to the next line starting with `[` after a blank line
    /// (where [`ParallelReader`](crate::ParallelReader) cuts too) or the
    /// end of the input.
    fn skip_lines_to_tags(&mut self) -> io::Result<()> {
        loop {
            // To the end of the line.
            loop {
                if let Some(at) = memchr::memchr(b'\n', self.input.window()) {
                    let at = self.input.pos + at;
                    self.input.newline_at(at);
                    self.input.pos = at + 1;
                    break;
                }
                self.input.pos = self.input.end;
                if self.input.fill(1)? == 0 {
                    return Ok(());
                }
            }
            let mut blank = false;
            while self.next_line_is_blank()? {
                blank = true;
            }
            if blank && self.input.peek()? == Some(b'[') {
                return Ok(());
            }
            if self.input.peek()?.is_none() {
                return Ok(());
            }
        }
    }

    /// Whether the line at `pos` is blank (only spaces, tabs and CR before
    /// its break); steps over it if so.
    fn next_line_is_blank(&mut self) -> io::Result<bool> {
        loop {
            match self.input.peek()? {
                Some(b' ' | b'\t' | b'\r') => self.input.pos += 1,
                Some(b'\n') => {
                    self.input.newline_at(self.input.pos);
                    self.input.pos += 1;
                    return Ok(true);
                }
                _ => return Ok(false),
            }
        }
    }

    /// Consumes the rest of the line, or up to a result on it; whether it
    /// found one.
    fn skip_line_to_result(&mut self) -> io::Result<bool> {
        loop {
            match self.input.peek()? {
                None => return Ok(false),
                Some(b'\n') => {
                    self.input.newline_at(self.input.pos);
                    self.input.pos += 1;
                    return Ok(false);
                }
                Some(b' ' | b'\t' | b'\r') => self.input.pos += 1,
                Some(_) => {
                    let is_text = |b: u8| !matches!(b, b' ' | b'\t' | b'\r' | b'\n');
                    match self.input.run(0, is_text)? {
                        Some(len) => {
                            let word = self.input.bytes(self.input.pos, len);
                            let result = GameResult::from_bytes(word).is_some();
                            self.input.pos += len;
                            if result {
                                return Ok(true);
                            }
                        }
                        None => self.input.pos = self.input.end,
                    }
                }
            }
        }
    }
}

/// A move that is not SAN but that real files write: a null move (`--`,
/// `Z0`, `0000`, `@@@@`) or a move in UCI (`g1f3`, `e7e8q`), played on
/// `position`. `None` when `text` is neither, so that the SAN error
/// stands; otherwise the move, or the error of the notation it is in.
#[cold]
fn play_other(position: &mut Position, text: &str) -> Option<Result<Move, PgnErrorKind>> {
    if matches!(text, "--" | "Z0" | "0000" | "@@@@") {
        return Some(match position.null_move() {
            Some(passed) => {
                *position = passed;
                Ok(Move::NULL)
            }
            None => Err(PgnErrorKind::NullMoveInCheck),
        });
    }
    let bytes = text.as_bytes();
    let square =
        |at: usize| matches!(bytes[at], b'a'..=b'h') && matches!(bytes[at + 1], b'1'..=b'8');
    let uci = match bytes.len() {
        4 => square(0) && square(2),
        5 => square(0) && square(2) && matches!(bytes[4], b'q' | b'r' | b'b' | b'n'),
        _ => false,
    };
    if !uci {
        return None;
    }
    Some(match position.parse_uci(text) {
        Ok(mv) => {
            position.play_unchecked_in_place(mv);
            Ok(mv)
        }
        Err(error) => Err(PgnErrorKind::Uci {
            uci: text.to_owned(),
            error,
        }),
    })
}

/// Where a comment ends: the offset of its closing byte, and the line
/// breaks before it (how many, and the offset of the last).
struct Found {
    len: usize,
    newlines: u64,
    last_newline: usize,
}

/// Finds the first `close` in `bytes`, counting the line breaks before it:
/// one `memchr2` call for a comment on one line, where a search for the end
/// and a second one for the lines in it cost more.
#[inline]
fn scan_to(bytes: &[u8], close: u8) -> Option<Found> {
    let mut found = Found {
        len: 0,
        newlines: 0,
        last_newline: 0,
    };
    let mut from = 0;
    loop {
        let at = from + memchr::memchr2(close, b'\n', &bytes[from..])?;
        if bytes[at] == close {
            found.len = at;
            return Some(found);
        }
        found.newlines += 1;
        found.last_newline = at;
        from = at + 1;
    }
}

/// Where the first of the `needles` in `bytes` is, as `memchr2` and
/// `memchr3` find it: the end of a `{` comment on one line (`}` or a line
/// break), or of a tag's value (`"`, `\\` or a line break).
///
/// Those texts are short: a Lichess comment is some thirty bytes, a tag's
/// value a dozen. For so few, `memchr2` cost a call through its dispatch
/// and its own length checks, and the reader's token loop spent more in it
/// than in any other comment work. Compares of 16 bytes at a time, inline,
/// need neither the call nor the checks; a plain loop over the bytes, left
/// for the compiler to vectorize, did not do as well (the figures are in
/// docs/performance.md, "Figures behind the code").
#[inline]
fn first_of<const N: usize>(bytes: &[u8], needles: [u8; N]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: `first_of_sse2` needs SSE2, and this block is built only
        // where the target has it (`target_feature = "sse2"`, part of every
        // x86_64 target).
        #[allow(unsafe_code)]
        unsafe {
            first_of_sse2(bytes, needles)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    bytes.iter().position(|byte| needles.contains(byte))
}

/// [`first_of`] with SSE2: 16 bytes at a time while 16 are left, then the
/// rest one by one.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
fn first_of_sse2<const N: usize>(bytes: &[u8], needles: [u8; N]) -> Option<usize> {
    use core::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set_epi64x, _mm_set1_epi8,
        _mm_setzero_si128,
    };
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<16>) {
        let bits = u128::from_le_bytes(*chunk);
        // The 16 bytes in one register, the first in the lowest lane.
        #[allow(clippy::cast_possible_truncation)]
        let lanes = _mm_set_epi64x(
            ((bits >> 64) as u64).cast_signed(),
            (bits as u64).cast_signed(),
        );
        let hits = needles.iter().fold(_mm_setzero_si128(), |hits, &needle| {
            _mm_or_si128(
                hits,
                _mm_cmpeq_epi8(lanes, _mm_set1_epi8(needle.cast_signed())),
            )
        });
        let mask = _mm_movemask_epi8(hits);
        if mask != 0 {
            return Some(at + mask.trailing_zeros() as usize);
        }
        at += 16;
    }
    let rest = bytes.get(at..)?;
    rest.iter()
        .position(|byte| needles.contains(byte))
        .map(|len| at + len)
}

/// Hands comment text to the visitor, whole or as a piece: a whole comment
/// (or its last piece) as bytes, which the visitor reads as text unless it
/// takes bytes ([`Visitor::comment_bytes`]).
fn deliver<V: Visitor + ?Sized>(visitor: &mut V, text: &[u8], last: bool) {
    if last {
        visitor.comment_bytes(text);
    } else {
        visitor.comment_part(&lossy(text));
    }
}

/// The visitor of skipped text.
struct Ignore;

impl Visitor for Ignore {}

#[cfg(test)]
mod tests {
    use super::{first_of, is_word, scan_to, text};

    /// `first_of` finds what `memchr2` and `memchr3` find: texts of every
    /// length up to 40 (past two 16-byte steps), with one needle, another
    /// after it, or none at every place (this test runs under Miri, over
    /// the SSE2 block's `unsafe`).
    #[test]
    fn first_of_finds_what_memchr_finds() {
        // Under Miri, the lengths around the 16-byte steps.
        let lengths: Vec<usize> = match cfg!(miri) {
            true => vec![0, 15, 16, 17, 31, 32, 33],
            false => (0..=40).collect(),
        };
        let mut checked = 0;
        for len in lengths {
            for first in 0..=len {
                for (mark, other) in [(b'}', b'\n'), (b'\n', b'"'), (b'\\', b'}')] {
                    for second in [None, Some(first + 1), Some(len.saturating_sub(1))] {
                        let mut text = vec![b'a'; len];
                        if let Some(byte) = text.get_mut(first) {
                            *byte = mark;
                        }
                        if let Some(byte) = second.and_then(|at| text.get_mut(at)) {
                            *byte = other;
                        }
                        // Bytes one bit away from the needles.
                        for (at, byte) in text.iter_mut().enumerate() {
                            if *byte == b'a' && at % 3 == 0 {
                                *byte = [b'|', b'\x0b', b'#', b']'][at % 4];
                            }
                        }
                        assert_eq!(
                            first_of(&text, [b'}', b'\n']),
                            memchr::memchr2(b'}', b'\n', &text),
                            "{text:?}"
                        );
                        assert_eq!(
                            first_of(&text, [b'"', b'\\', b'\n']),
                            memchr::memchr3(b'"', b'\\', b'\n', &text),
                            "{text:?}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500);
    }

    /// `text` takes ASCII as it is (one of the crate's two `unsafe` blocks:
    /// this test runs under Miri), validates the rest, and refuses bytes
    /// that are not UTF-8, as `core::str::from_utf8` does.
    #[test]
    fn text_is_the_utf8_reading_of_the_bytes() {
        let samples: [&[u8]; 9] = [
            b"",
            b"Nf3",
            b"exd8=Q+",
            b"[%clk 0:01:02]",
            "caf\u{e9} \u{265e}".as_bytes(),
            b"\xFF",
            b"e4\x80",
            b"\xC3",
            b"\x7F\x00",
        ];
        for bytes in samples {
            assert_eq!(text(bytes), core::str::from_utf8(bytes).ok(), "{bytes:?}");
        }
    }

    /// What a visitor hears, as text; with `true`, it asks for no
    /// comments.
    #[derive(Default)]
    struct Log(std::vec::Vec<String>, bool);

    impl crate::visitor::Visitor for Log {
        fn wants_comments(&mut self) -> bool {
            !self.1
        }
        fn begin_game(&mut self, number: usize) {
            self.0.push(std::format!("game {number}"));
        }
        fn tag(&mut self, name: &str, value: &str) {
            self.0.push(std::format!("[{name} {value}]"));
        }
        fn san(&mut self, mv: crate::visitor::PgnMove<'_>) {
            self.0
                .push(std::format!("{} {} {}", mv.san, mv.mv, mv.after.fen()));
        }
        fn nag(&mut self, nag: u8) {
            self.0.push(std::format!("${nag}"));
        }
        fn comment(&mut self, text: &str) {
            self.0.push(std::format!("{{{text}}}"));
        }
        fn begin_variation(&mut self) -> crate::visitor::Visit {
            self.0.push("(".into());
            crate::visitor::Visit::Enter
        }
        fn end_variation(&mut self) {
            self.0.push(")".into());
        }
        fn result(&mut self, result: crate::result::GameResult) {
            self.0.push(std::format!("{result}"));
        }
        fn end_game(&mut self, last: &bitboards::Position) {
            self.0.push(std::format!("end {}", last.fen()));
        }
    }

    /// Everything `reader` reads: the events, and each error with where it is.
    fn log<R: std::io::BufRead>(
        mut reader: super::Reader<R>,
        no_comments: bool,
    ) -> std::vec::Vec<String> {
        let mut log = Log(std::vec::Vec::new(), no_comments);
        loop {
            match reader.read_game(&mut log) {
                Ok(true) => {}
                Ok(false) => return log.0,
                Err(error) => log.0.push(std::format!("error {error}")),
            }
        }
    }

    /// The fast path reads as the general loop does: Lichess-shaped games,
    /// then the same text mutated with the bytes that start each kind of
    /// token (and those that end it), compared event by event and error by
    /// error, for a visitor that wants comments and one that does not.
    #[test]
    fn the_fast_path_reads_as_the_general_loop() {
        let games = bitboards_test_support::lichess_games(if cfg!(miri) { 1 } else { 40 }, 7);
        let mut rng = bitboards_test_support::Rng::new(0x5EED);
        let pieces: [&[u8]; 20] = [
            b"[",
            b"]",
            b"\"",
            b"\\",
            b" ",
            b"\n",
            b"{",
            b"}",
            b"0",
            b"1",
            b"0000",
            b"0-0",
            b"1-0",
            b"12...",
            b"--",
            b"Z0",
            b"e4",
            b"%",
            b"(",
            b"\xC3\xA9",
        ];
        for round in 0..if cfg!(miri) { 1 } else { 400 } {
            let mut text = games.clone();
            if round > 0 {
                for _ in 0..1 + rng.below(6) {
                    let at = rng.below(text.len());
                    let piece = rng.pick(&pieces);
                    text.splice(at..at, piece.iter().copied());
                }
            }
            for no_comments in [false, true] {
                let fast = log(super::Reader::new(&text[..]), no_comments);
                let mut general = super::Reader::new(&text[..]);
                general.general_only = true;
                let general = log(general, no_comments);
                assert!(fast.len() > 50, "{}", fast.len());
                if let Some(at) = fast.iter().zip(&general).position(|(a, b)| a != b) {
                    panic!("round {round}: {:?} against {:?}", fast[at], general[at]);
                }
                assert_eq!(fast.len(), general.len(), "round {round}");
            }
        }
    }

    /// `scan_to` against a byte-by-byte reading, on every text of up to
    /// six bytes over `}`, a line break and a letter.
    #[test]
    fn scanning_to_a_close_counts_the_lines_before_it() {
        for length in 0..=if cfg!(miri) { 4 } else { 6 } {
            for mut index in 0..3usize.pow(length) {
                let mut text = std::vec::Vec::new();
                for _ in 0..length {
                    text.push([b'}', b'\n', b'a'][index % 3]);
                    index /= 3;
                }
                let close = text.iter().position(|&b| b == b'}');
                let found = scan_to(&text, b'}');
                assert_eq!(found.as_ref().map(|found| found.len), close, "{text:?}");
                if let (Some(found), Some(close)) = (found, close) {
                    let breaks: std::vec::Vec<usize> =
                        (0..close).filter(|&at| text[at] == b'\n').collect();
                    assert_eq!(found.newlines, breaks.len() as u64, "{text:?}");
                    if let Some(&last) = breaks.last() {
                        assert_eq!(found.last_newline, last, "{text:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn words_end_at_whitespace_and_movetext_punctuation() {
        for byte in 0..=u8::MAX {
            let ends =
                byte.is_ascii_whitespace() || byte == 0x0b || b"{}();$[]\".*".contains(&byte);
            assert_eq!(is_word(byte), !ends, "{byte:#04x}");
        }
    }
}
