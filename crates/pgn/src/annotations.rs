//! Typed access to the commands that PGN files put in comments: the clock
//! (`[%clk 0:03:00]`), the elapsed move time (`[%emt 0:00:05]`), the engine
//! evaluation (`[%eval 0.17]`, `[%eval #-3]`) and the coloured squares and
//! arrows (`[%csl Gd5]`, `[%cal Ge2e4]`), as Lichess and ChessBase write
//! them.
//!
//! The grammar and the meanings are python-chess's (`chess.pgn`, 1.11): a
//! command is read only where the whole of it matches python-chess's pattern
//! (`CLOCK_REGEX`, `EMT_REGEX`, `EVAL_REGEX`, `ARROWS_REGEX`), and any other
//! `[%...]` is passed over. The first command that matches is the one read,
//! as `re.search` finds it, so `[%eval ?] [%eval 0.5]` is an evaluation of
//! 0.5. The command name is followed by exactly one whitespace character
//! (Python's `\s`, Unicode spaces included) and the text runs to the `]`
//! with no other spaces. Where this module differs:
//!
//! - Evaluations are read as exact decimals: `0.29` is 29 centipawns.
//!   python-chess multiplies a binary float (`float("0.29") * 100`), which
//!   can land next to the integer.
//! - Digits are ASCII. (Python's `\d` also takes other Unicode digits.)
//! - A number too large for the result gives `None` for that command, where
//!   Python's integers have no bound: more than `i32` centipawns or mate
//!   moves, a depth over `u32`, hours and minutes past `u64` seconds, an
//!   infinite clock. The later commands of the same kind are not read.
//!
//! Nothing allocates and nothing panics, whatever the input.
//!
//! ```
//! use bitboards_pgn::annotations::{Annotations, Eval, Score};
//!
//! let found = Annotations::parse("[%eval 0.17] [%clk 0:00:30]");
//! assert_eq!(found.eval, Some(Eval { score: Score::Cp(17), depth: None }));
//! assert_eq!(found.clock, Some(30.0));
//! assert_eq!(found.emt, None);
//! ```

use core::iter::FusedIterator;

use bitboards::{File, Rank, Square};

/// A score from White's point of view, as `[%eval ...]` writes it.
///
/// ```
/// use bitboards_pgn::annotations::{eval, Score};
///
/// assert_eq!(eval("[%eval -1.2]").map(|e| e.score), Some(Score::Cp(-120)));
/// assert_eq!(eval("[%eval #-3]").map(|e| e.score), Some(Score::Mate(-3)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Score {
    /// Centipawns, positive when White is better: `[%eval 0.35]` is `Cp(35)`.
    Cp(i32),
    /// Mate in this many moves, negative when Black mates: `[%eval #-3]` is
    /// `Mate(-3)`. `#0` (and `#-0`) is `Mate(0)`: the side to move is mated.
    Mate(i32),
}

/// An engine evaluation: `[%eval 0.35]`, or `[%eval 0.35,22]` with the depth
/// of the search.
///
/// ```
/// use bitboards_pgn::annotations::{eval, Eval, Score};
///
/// assert_eq!(eval("[%eval 0.35,22]"), Some(Eval { score: Score::Cp(35), depth: Some(22) }));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Eval {
    /// The score, from White's point of view.
    pub score: Score,
    /// The search depth after the comma, if the comment gives one.
    pub depth: Option<u32>,
}

/// Everything a comment says about clocks and evals, found in one pass.
///
/// Each field is what [`clock`], [`emt`] and [`eval`] return for the same
/// comment.
///
/// ```
/// use bitboards_pgn::annotations::{Annotations, Eval, Score};
///
/// let found = Annotations::parse("{ [%clk 1:02:03.5] [%emt 0:00:07] [%eval #4] }");
/// assert_eq!(found.clock, Some(3723.5));
/// assert_eq!(found.emt, Some(7.0));
/// assert_eq!(found.eval, Some(Eval { score: Score::Mate(4), depth: None }));
/// ```
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Annotations {
    /// The time left on the mover's clock in seconds (`[%clk ...]`).
    pub clock: Option<f64>,
    /// The time the move took in seconds (`[%emt ...]`).
    pub emt: Option<f64>,
    /// The engine evaluation (`[%eval ...]`).
    pub eval: Option<Eval>,
}

impl Annotations {
    /// Reads the clock, the move time and the evaluation of `comment` in one
    /// left-to-right scan. The first command of each kind that matches wins.
    ///
    /// ```
    /// use bitboards_pgn::annotations::Annotations;
    ///
    /// let found = Annotations::parse("[%clk 0:01:00] [%clk 0:00:59]");
    /// assert_eq!(found.clock, Some(60.0));
    /// assert_eq!(Annotations::parse("no commands"), Annotations::default());
    /// ```
    #[must_use]
    pub fn parse(comment: &str) -> Annotations {
        match lichess(comment.as_bytes()) {
            Some(found) => found,
            None => Annotations::scan(comment),
        }
    }

    /// [`parse`](Self::parse) of a comment as the file's bytes: the
    /// comments Lichess writes are read from the bytes as they are, any
    /// other as text (bytes that are not UTF-8 replaced, as the reader
    /// replaces them).
    ///
    /// ```
    /// use bitboards_pgn::annotations::Annotations;
    ///
    /// let bytes = b"[%eval 0.17] [%clk 0:03:00]";
    /// assert_eq!(Annotations::parse_bytes(bytes), Annotations::parse("[%eval 0.17] [%clk 0:03:00]"));
    /// assert_eq!(Annotations::parse_bytes(b"\xff [%clk 0:00:05]").clock, Some(5.0));
    /// ```
    #[must_use]
    pub fn parse_bytes(comment: &[u8]) -> Annotations {
        match lichess(comment) {
            Some(found) => found,
            None => Annotations::scan(&crate::text::lossy(comment)),
        }
    }

    /// [`parse`](Self::parse) by its general scan, command by command.
    fn scan(comment: &str) -> Annotations {
        // `None` until a command of the kind has matched; then the value it
        // gives, which may be `None` if its numbers are too large.
        let mut clock = None;
        let mut emt = None;
        let mut eval = None;
        let bytes = comment.as_bytes();
        for open in Commands::new(comment) {
            // The command's first letters say which it can be, so each is
            // tried only where its name may stand.
            match (bytes.get(open + 2), bytes.get(open + 3)) {
                (Some(b'c'), _) if clock.is_none() => clock = time(comment, open, b"clk"),
                (Some(b'e'), Some(b'm')) if emt.is_none() => emt = time(comment, open, b"emt"),
                (Some(b'e'), Some(b'v')) if eval.is_none() => eval = evaluation(comment, open),
                _ => {}
            }
            if clock.is_some() && emt.is_some() && eval.is_some() {
                break;
            }
        }
        Annotations {
            clock: clock.flatten(),
            emt: emt.flatten(),
            eval: eval.flatten(),
        }
    }
}

/// The time left on the clock in seconds, from the first `[%clk h:mm:ss]`
/// or `[%clk h:mm:ss.f]` of `comment` (python-chess's `GameNode.clock()`).
///
/// Hours and minutes are any number of digits and are not range-checked;
/// the seconds may have a fraction (`5.` too, not `.5`).
///
/// ```
/// use bitboards_pgn::annotations::clock;
///
/// assert_eq!(clock("[%clk 0:00:30]"), Some(30.0));
/// assert_eq!(clock("[%clk 1:30:00.25]"), Some(5400.25));
/// assert_eq!(clock("[%clk 1:30]"), None);
/// ```
#[must_use]
pub fn clock(comment: &str) -> Option<f64> {
    Commands::new(comment)
        .find_map(|open| time(comment, open, b"clk"))
        .flatten()
}

/// The time the move took in seconds, from the first `[%emt h:mm:ss]` or
/// `[%emt h:mm:ss.f]` of `comment` (python-chess's `GameNode.emt()`). The
/// same grammar as [`clock`].
///
/// ```
/// use bitboards_pgn::annotations::emt;
///
/// assert_eq!(emt("[%emt 0:00:05]"), Some(5.0));
/// assert_eq!(emt("[%emt 0:01:02.5]"), Some(62.5));
/// ```
#[must_use]
pub fn emt(comment: &str) -> Option<f64> {
    Commands::new(comment)
        .find_map(|open| time(comment, open, b"emt"))
        .flatten()
}

/// The engine evaluation from the first `[%eval ...]` of `comment`
/// (python-chess's `GameNode.eval()` and `eval_depth()`, before the turn is
/// applied: the score stays from White's point of view).
///
/// A pawn value is an optional sign and up to ten digits with an optional
/// point, or up to ten digits, a point and one or two digits (`0.35`,
/// `-1.2`, `.5`, `5.`, `+3`); a mate is `#` with an optional sign and digits.
/// Either may be followed by `,depth`.
///
/// ```
/// use bitboards_pgn::annotations::{eval, Eval, Score};
///
/// assert_eq!(eval("[%eval 0.35]"), Some(Eval { score: Score::Cp(35), depth: None }));
/// assert_eq!(eval("[%eval #4,30]"), Some(Eval { score: Score::Mate(4), depth: Some(30) }));
/// assert_eq!(eval("[%eval 0.355]"), None);
/// ```
#[must_use]
pub fn eval(comment: &str) -> Option<Eval> {
    Commands::new(comment)
        .find_map(|open| evaluation(comment, open))
        .flatten()
}

/// The colour of a marked square or an arrow: the letter before its squares
/// (`R`, `G`, `Y`, `B`).
///
/// ```
/// use bitboards_pgn::annotations::{arrows, ArrowColor};
///
/// let colors: Vec<ArrowColor> = arrows("[%csl Ra1,Gb2,Yc3,Bd4]").map(|a| a.color).collect();
/// assert_eq!(colors, [ArrowColor::Red, ArrowColor::Green, ArrowColor::Yellow, ArrowColor::Blue]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ArrowColor {
    /// `R`.
    Red,
    /// `G`.
    Green,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

/// An arrow from `tail` to `head`, or a highlighted square when they are the
/// same (`[%csl Ge4]`), as python-chess's `chess.svg.Arrow`.
///
/// ```
/// use bitboards::Square;
/// use bitboards_pgn::annotations::{arrows, Arrow, ArrowColor};
///
/// let found: Vec<Arrow> = arrows("[%cal Ge2e4]").collect();
/// assert_eq!(found, [Arrow { tail: Square::E2, head: Square::E4, color: ArrowColor::Green }]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Arrow {
    /// The square the arrow starts from.
    pub tail: Square,
    /// The square the arrow points to; `tail` for a highlighted square.
    pub head: Square,
    /// The colour.
    pub color: ArrowColor,
}

/// Every arrow and highlighted square of the `[%csl ...]` and `[%cal ...]`
/// commands of `comment`, in order (python-chess's `GameNode.arrows()`).
///
/// Both commands take both forms: `Ge4` (a square, `tail == head`) and
/// `Ge2e4` (an arrow), separated by commas with no spaces. A command whose
/// list has one bad entry gives no arrows at all. Nothing is allocated.
///
/// ```
/// use bitboards::Square;
/// use bitboards_pgn::annotations::{arrows, Arrow, ArrowColor};
///
/// let found: Vec<Arrow> = arrows("[%cal Ge2e4,Rd2d4] [%csl Yd5] [%csl Gz9]").collect();
/// assert_eq!(found.len(), 3);
/// assert_eq!(found[1], Arrow { tail: Square::D2, head: Square::D4, color: ArrowColor::Red });
/// assert_eq!(found[2], Arrow { tail: Square::D5, head: Square::D5, color: ArrowColor::Yellow });
/// ```
#[must_use]
pub fn arrows(comment: &str) -> Arrows<'_> {
    Arrows {
        text: comment,
        commands: Commands::new(comment),
        list: &[],
    }
}

/// The iterator of [`arrows`]: every [`Arrow`] of a comment's `[%csl ...]`
/// and `[%cal ...]` commands, in order.
///
/// ```
/// use bitboards_pgn::annotations::{arrows, Arrows};
///
/// let mut found: Arrows<'_> = arrows("[%csl Ge4] [%cal Bb1c3]");
/// assert_eq!(found.next().map(|a| a.tail == a.head), Some(true));
/// assert_eq!(found.next().map(|a| a.tail == a.head), Some(false));
/// assert_eq!(found.next(), None);
/// ```
#[derive(Clone, Debug)]
pub struct Arrows<'a> {
    text: &'a str,
    commands: Commands<'a>,
    /// What is left of the current command's list, checked whole when the
    /// command was found: entries separated by commas, without the `]`.
    list: &'a [u8],
}

impl Iterator for Arrows<'_> {
    type Item = Arrow;

    fn next(&mut self) -> Option<Arrow> {
        loop {
            if let Some((arrow, len)) = entry(self.list) {
                // Past the entry and its comma; empty after the last entry.
                self.list = self.list.get(len + 1..).unwrap_or_default();
                return Some(arrow);
            }
            let open = self.commands.next()?;
            self.list = arrow_list(self.text, open).unwrap_or_default();
        }
    }
}

impl FusedIterator for Arrows<'_> {}

/// The byte offsets of every `[%` in a text, left to right.
#[derive(Clone, Debug)]
struct Commands<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Commands<'a> {
    fn new(text: &'a str) -> Commands<'a> {
        Commands {
            bytes: text.as_bytes(),
            at: 0,
        }
    }
}

impl Iterator for Commands<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        // Comments are short: a scan eight bytes at a time beats a call to
        // `memchr`. A byte of `word ^ OPENS` is zero where `[` stands; the
        // classic test sets the top bit of the lowest zero byte (the borrow
        // can mark bytes above it, never below), so the trailing zeros
        // count the bytes before the first `[` of the eight.
        const ONES: u64 = u64::from_le_bytes([0x01; 8]);
        const TOPS: u64 = u64::from_le_bytes([0x80; 8]);
        const OPENS: u64 = u64::from_le_bytes([b'['; 8]);
        let bytes = self.bytes;
        let mut open = self.at;
        while let Some(chunk) = bytes.get(open..open + 8) {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            let word = u64::from_le_bytes(word) ^ OPENS;
            let zeros = word.wrapping_sub(ONES) & !word & TOPS;
            if zeros == 0 {
                open += 8;
                continue;
            }
            open += (zeros.trailing_zeros() / 8) as usize;
            if bytes.get(open + 1) == Some(&b'%') {
                self.at = open + 1;
                return Some(open);
            }
            open += 1;
        }
        while open + 1 < bytes.len() {
            if bytes[open] == b'[' && bytes[open + 1] == b'%' {
                self.at = open + 1;
                return Some(open);
            }
            open += 1;
        }
        self.at = bytes.len();
        None
    }
}

impl FusedIterator for Commands<'_> {}

/// The bytes after `[%name` and one whitespace character, if the command at
/// `open` is `name`.
fn body<'a, const N: usize>(text: &'a str, open: usize, name: &[u8; N]) -> Option<&'a [u8]> {
    let bytes = text.as_bytes();
    let after = open + 2 + N;
    // An array compared with an array: a few instructions, not a call.
    if bytes.get(open + 2..after)? != name {
        return None;
    }
    match *bytes.get(after)? {
        byte if byte.is_ascii() => {
            is_python_space(char::from(byte)).then(|| bytes.get(after + 1..).unwrap_or_default())
        }
        _ => {
            // `[%` and the ASCII name end at a char boundary.
            let space = text.get(after..)?.chars().next()?;
            is_python_space(space)
                .then(|| bytes.get(after + space.len_utf8()..).unwrap_or_default())
        }
    }
}

/// Python's `\s` for text: Unicode's white space and the four ASCII
/// separators `\x1c` to `\x1f`, which Python counts too.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\x1c'..='\x1f')
}

/// A position in the bytes of a command, read left to right.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor { bytes, at: 0 }
    }

    /// Steps over `byte` if it comes next.
    fn eat(&mut self, byte: u8) -> bool {
        let next = self.bytes.get(self.at) == Some(&byte);
        self.at += usize::from(next);
        next
    }

    /// Steps over `+` or `-` if one comes next; true for `-`.
    fn sign(&mut self) -> bool {
        !self.eat(b'+') && self.eat(b'-')
    }

    /// Steps over the ASCII digits that come next (maybe none).
    fn digits(&mut self) -> &'a [u8] {
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        self.since(start)
    }

    fn since(&self, start: usize) -> &'a [u8] {
        self.bytes.get(start..self.at).unwrap_or_default()
    }
}

/// The value of a run of ASCII digits, `None` past `u64`.
fn number(digits: &[u8]) -> Option<u64> {
    if digits.len() < 20 {
        // Nineteen digits stay below `u64::MAX`: no overflow to check.
        let mut value = 0u64;
        for &digit in digits {
            let digit = digit.wrapping_sub(b'0');
            if digit > 9 {
                return None;
            }
            value = value * 10 + u64::from(digit);
        }
        return Some(value);
    }
    digits.iter().try_fold(0u64, |value, &digit| {
        let digit = char::from(digit).to_digit(10)?;
        value.checked_mul(10)?.checked_add(u64::from(digit))
    })
}

/// A whole comment as Lichess writes it, `[%clk h:mm:ss]` or
/// `[%eval 0.17] [%clk h:mm:ss]` (a clock or an eval in the short forms
/// [`short_time`] and [`short_eval`] read), read without a scan for
/// commands: `None` for any other text, which [`Annotations::scan`] reads.
/// Where this reads a comment the scan gives the same (the unit test
/// `lichess_comments_read_as_the_scan_does` holds them together): its
/// first command of each kind is the one here, and there is no other.
fn lichess(comment: &[u8]) -> Option<Annotations> {
    let (eval, rest) = match strip(comment, b"[%eval ") {
        Some(body) => {
            let (eval, len) = short_eval(body)?;
            (Some(eval), strip(body.get(len..)?, b" ")?)
        }
        None => (None, comment),
    };
    let body = strip(rest, b"[%clk ")?;
    let (clock, len) = short_time(body)?;
    (len == body.len()).then_some(Annotations {
        clock: Some(clock),
        emt: None,
        eval,
    })
}

/// `text` after `prefix`, if it starts with it: the bytes compared as an
/// array of known length, in a word or two, where a slice's
/// `strip_prefix` called `memcmp`.
#[inline]
fn strip<'a, const N: usize>(text: &'a [u8], prefix: &[u8; N]) -> Option<&'a [u8]> {
    let (head, rest) = text.split_first_chunk::<N>()?;
    (head == prefix).then_some(rest)
}

/// `[%clk ...]` or `[%emt ...]` at `open`: `None` if it does not match
/// `\[%name\s(\d+):(\d+):(\d+(?:\.\d*)?)\]`, else the seconds it gives
/// (`None` inside when they are too large).
fn time(text: &str, open: usize, name: &[u8; 3]) -> Option<Option<f64>> {
    let body = body(text, open, name)?;
    match short_time(body) {
        Some((seconds, _)) => Some(Some(seconds)),
        None => any_time(body),
    }
}

/// The clock as Lichess writes it, `h:mm:ss]` or `h:mm:ss.f]`, read in
/// one step: `None` for any other text, which [`any_time`] reads. Where
/// both read a text they give the same bits (the unit test
/// `short_forms_read_as_the_grammar_does` holds them together): the same
/// whole seconds, the same one division for the tenth, the same addition.
/// With the seconds comes the length read, `]` included.
fn short_time(body: &[u8]) -> Option<(f64, usize)> {
    // `h:mm:ss` and the byte after, as one word (the first byte lowest):
    // its two colons and five digits checked at once.
    let word = u64::from_le_bytes(*body.first_chunk::<8>()?);
    const DIGITS: u64 = u64::from_le_bytes([0xff, 0, 0xff, 0xff, 0, 0xff, 0xff, 0]);
    const COLONS: u64 = u64::from_le_bytes([0, 0xff, 0, 0, 0xff, 0, 0, 0]);
    const ONES: u64 = DIGITS / 0xff;
    if word & COLONS != u64::from_le_bytes([0, b':', 0, 0, b':', 0, 0, 0]) {
        return None;
    }
    // A byte is a digit when its high half is 3 and stays 3 with 6 added
    // (`0x3a` to `0x3f` become `0x40` to `0x45`); once the first test
    // holds, every byte is `0x30` to `0x3f` and the addition carries
    // into no other.
    let digits = word & DIGITS;
    if digits & (ONES * 0xf0) != ONES * 0x30 || (digits + ONES * 6) & (ONES * 0xf0) != ONES * 0x30 {
        return None;
    }
    let [h, _, m1, m2, _, s1, s2, _] = (digits - ONES * 0x30).to_le_bytes();
    let [h, m1, m2, s1, s2] = [h, m1, m2, s1, s2].map(u64::from);
    let whole = h * 3600 + (m1 * 10 + m2) * 60;
    let seconds = s1 * 10 + s2;
    #[allow(clippy::cast_precision_loss)] // Small integers: exact.
    let (seconds, len) = match &body[7..] {
        [b']', ..] => (seconds as f64, 8),
        [b'.', tenth, b']', ..] if tenth.is_ascii_digit() => {
            ((seconds * 10 + u64::from(tenth - b'0')) as f64 / 10.0, 10)
        }
        _ => return None,
    };
    #[allow(clippy::cast_precision_loss)] // Below 2^53: exact.
    Some((whole as f64 + seconds, len))
}

/// The general grammar of [`time`], after the name and its space.
fn any_time(body: &[u8]) -> Option<Option<f64>> {
    let mut cursor = Cursor::new(body);
    let hours = cursor.digits();
    if hours.is_empty() || !cursor.eat(b':') {
        return None;
    }
    let minutes = cursor.digits();
    if minutes.is_empty() || !cursor.eat(b':') {
        return None;
    }
    let start = cursor.at;
    if cursor.digits().is_empty() {
        return None;
    }
    if cursor.eat(b'.') {
        cursor.digits();
    }
    let seconds = cursor.since(start);
    if !cursor.eat(b']') {
        return None;
    }
    Some(seconds_of(hours, minutes, seconds))
}

/// `hours * 3600 + minutes * 60 + seconds` as python-chess adds them: the
/// whole part exactly, then one rounding to `f64` and one addition of the
/// correctly rounded seconds.
fn seconds_of(hours: &[u8], minutes: &[u8], seconds: &[u8]) -> Option<f64> {
    let whole = number(hours)?
        .checked_mul(3600)?
        .checked_add(number(minutes)?.checked_mul(60)?)?;
    let seconds = decimal(seconds)?;
    #[allow(clippy::cast_precision_loss)] // Python rounds the same way.
    let total = whole as f64 + seconds;
    total.is_finite().then_some(total)
}

/// The `f64` nearest to ASCII digits with at most one point, as Python's
/// `float` reads them. Clocks have a few digits: their value is an integer
/// over a power of ten, both exact in an `f64`, so one correctly rounded
/// division gives the nearest `f64`; longer texts go through `str::parse`.
fn decimal(text: &[u8]) -> Option<f64> {
    if text.len() <= 15 {
        let mut mantissa = 0u64;
        let mut scale = 1u64;
        let mut point = false;
        for &byte in text {
            match byte {
                b'.' => point = true,
                _ => {
                    mantissa = mantissa * 10 + u64::from(byte - b'0');
                    if point {
                        scale *= 10;
                    }
                }
            }
        }
        // Below 2^53 and at most 10^14: both exact.
        #[allow(clippy::cast_precision_loss)]
        return Some(mantissa as f64 / scale as f64);
    }
    // ASCII digits with at most one point: always UTF-8 and a float
    // (`"5."` too), or infinite when absurdly long.
    core::str::from_utf8(text).ok()?.parse().ok()
}

/// The text of a matched `[%eval ...]`.
enum ScoreText<'a> {
    Mate {
        negative: bool,
        moves: &'a [u8],
    },
    Pawns {
        negative: bool,
        whole: &'a [u8],
        fraction: &'a [u8],
    },
}

/// `[%eval ...]` at `open`: `None` if it does not match python-chess's
/// `EVAL_REGEX`, else the evaluation it gives (`None` inside when a number
/// is too large).
fn evaluation(text: &str, open: usize) -> Option<Option<Eval>> {
    let body = body(text, open, b"eval")?;
    match short_eval(body) {
        Some((eval, _)) => Some(Some(eval)),
        None => any_evaluation(body),
    }
}

/// The evaluation as Lichess writes it in pawns, `-?d{1,4}.dd?]`, read in
/// one step: `None` for any other text (mates, depths, signs, other digit
/// counts), which [`any_evaluation`] reads to the same value. With the
/// evaluation comes the length read, `]` included.
fn short_eval(text: &[u8]) -> Option<(Eval, usize)> {
    let (negative, body) = match text {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, text),
    };
    let mut cents = 0i32;
    let mut at = 0;
    while let Some(&digit) = body.get(at).filter(|digit| digit.is_ascii_digit()) {
        if at == 4 {
            return None;
        }
        cents = cents * 10 + i32::from(digit - b'0');
        at += 1;
    }
    let (cents, fraction) = match body.get(at..)? {
        [b'.', tenths, b']', ..] if at > 0 && tenths.is_ascii_digit() => {
            (cents * 100 + i32::from(tenths - b'0') * 10, 1)
        }
        [b'.', tenths, hundredths, b']', ..]
            if at > 0 && tenths.is_ascii_digit() && hundredths.is_ascii_digit() =>
        {
            let cents = cents * 100 + i32::from(tenths - b'0') * 10 + i32::from(hundredths - b'0');
            (cents, 2)
        }
        _ => return None,
    };
    let eval = Eval {
        score: Score::Cp(if negative { -cents } else { cents }),
        depth: None,
    };
    // The sign, the digits, the point, the fraction and `]`.
    Some((eval, usize::from(negative) + at + fraction + 2))
}

/// The general grammar of [`evaluation`], after the name and its space.
fn any_evaluation(body: &[u8]) -> Option<Option<Eval>> {
    let mut cursor = Cursor::new(body);
    let score = if cursor.eat(b'#') {
        // `\#[+-]?\d+`
        let negative = cursor.sign();
        let moves = cursor.digits();
        if moves.is_empty() {
            return None;
        }
        ScoreText::Mate { negative, moves }
    } else {
        // `[+-]?(?:\d{0,10}\.\d{1,2}|\d{1,10}\.?)`: as the next byte must be
        // `,` or `]`, reading every digit and checking the counts after
        // matches what the regex's backtracking accepts.
        let negative = cursor.sign();
        let whole = cursor.digits();
        let fraction = if cursor.eat(b'.') {
            cursor.digits()
        } else {
            &[]
        };
        let matches = if fraction.is_empty() {
            (1..=10).contains(&whole.len())
        } else {
            whole.len() <= 10 && fraction.len() <= 2
        };
        if !matches {
            return None;
        }
        ScoreText::Pawns {
            negative,
            whole,
            fraction,
        }
    };
    let depth = if cursor.eat(b',') {
        let digits = cursor.digits();
        if digits.is_empty() {
            return None;
        }
        Some(digits)
    } else {
        None
    };
    if !cursor.eat(b']') {
        return None;
    }
    Some(eval_of(&score, depth))
}

/// The value of a matched evaluation, `None` if a number is too large.
fn eval_of(score: &ScoreText<'_>, depth: Option<&[u8]>) -> Option<Eval> {
    let score = match *score {
        ScoreText::Mate { negative, moves } => Score::Mate(signed(negative, number(moves)?)?),
        ScoreText::Pawns {
            negative,
            whole,
            fraction,
        } => {
            // Exact decimal arithmetic. python-chess computes
            // `round(float(text) * 100)` (`int(...)`, truncating, in older
            // releases): the binary float of `0.29` times 100 is
            // 28.999999999999996, which `int` cuts to 28. With at most two
            // decimals the exact value in centipawns is always an integer,
            // so there is nothing to round or truncate here and `0.29` is 29.
            let hundredths = match fraction.len() {
                1 => number(fraction)?.checked_mul(10)?,
                _ => number(fraction)?,
            };
            let cents = number(whole)?.checked_mul(100)?.checked_add(hundredths)?;
            Score::Cp(signed(negative, cents)?)
        }
    };
    let depth = match depth {
        Some(digits) => Some(u32::try_from(number(digits)?).ok()?),
        None => None,
    };
    Some(Eval { score, depth })
}

/// `magnitude` with its sign as an `i32`, if it fits.
fn signed(negative: bool, magnitude: u64) -> Option<i32> {
    let value = i64::try_from(magnitude).ok()?;
    i32::try_from(if negative { -value } else { value }).ok()
}

/// The list of a `[%csl ...]` or `[%cal ...]` at `open` without its `]`,
/// if the command matches python-chess's `ARROWS_REGEX`.
fn arrow_list(text: &str, open: usize) -> Option<&[u8]> {
    let body = body(text, open, b"csl").or_else(|| body(text, open, b"cal"))?;
    let mut at = 0;
    loop {
        let (_, len) = entry(body.get(at..)?)?;
        at += len;
        match body.get(at) {
            Some(b',') => at += 1,
            Some(b']') => return body.get(..at),
            _ => return None,
        }
    }
}

/// The entry at the start of `bytes` (`Ge4` or `Ge2e4`) and its length.
fn entry(bytes: &[u8]) -> Option<(Arrow, usize)> {
    let color = match bytes.first()? {
        b'R' => ArrowColor::Red,
        b'G' => ArrowColor::Green,
        b'Y' => ArrowColor::Yellow,
        b'B' => ArrowColor::Blue,
        _ => return None,
    };
    let tail = square(bytes.get(1..3)?)?;
    Some(match bytes.get(3..5).and_then(square) {
        Some(head) => (Arrow { tail, head, color }, 5),
        None => (
            Arrow {
                tail,
                head: tail,
                color,
            },
            3,
        ),
    })
}

/// The square named by two bytes such as `e4`.
fn square(name: &[u8]) -> Option<Square> {
    let [file, rank] = *name else {
        return None;
    };
    let file = File::new(file.checked_sub(b'a')?)?;
    let rank = Rank::new(rank.checked_sub(b'1')?)?;
    Some(Square::from_file_rank(file, rank))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;
    use std::vec::Vec;

    /// `base`, each of its prefixes, and `base` with one byte or two
    /// changed to bytes of `alphabet`.
    fn mutations(base: &[u8], alphabet: &[u8]) -> Vec<Vec<u8>> {
        let mut out = vec![base.to_vec()];
        for cut in 0..base.len() {
            out.push(base[..cut].to_vec());
        }
        for i in 0..base.len() {
            for &a in alphabet {
                let mut one = base.to_vec();
                one[i] = a;
                for j in i + 1..base.len() {
                    for &b in alphabet {
                        let mut two = one.clone();
                        two[j] = b;
                        out.push(two);
                    }
                }
                out.push(one);
            }
        }
        out
    }

    fn cp(centipawns: i32) -> Option<Eval> {
        Some(Eval {
            score: Score::Cp(centipawns),
            depth: None,
        })
    }

    fn mate(moves: i32) -> Option<Eval> {
        Some(Eval {
            score: Score::Mate(moves),
            depth: None,
        })
    }

    fn all_arrows(comment: &str) -> Vec<Arrow> {
        arrows(comment).collect()
    }

    fn arrow(color: ArrowColor, tail: Square, head: Square) -> Arrow {
        Arrow { tail, head, color }
    }

    #[test]
    fn eval_pawn_forms() {
        assert_eq!(eval("[%eval 0.35]"), cp(35));
        assert_eq!(eval("[%eval -1.2]"), cp(-120));
        assert_eq!(eval("[%eval -0.05]"), cp(-5));
        assert_eq!(eval("[%eval +0.05]"), cp(5));
        assert_eq!(eval("[%eval .5]"), cp(50));
        assert_eq!(eval("[%eval -.5]"), cp(-50));
        assert_eq!(eval("[%eval 5.]"), cp(500));
        assert_eq!(eval("[%eval 5]"), cp(500));
        assert_eq!(eval("[%eval -3]"), cp(-300));
        assert_eq!(eval("[%eval 0]"), cp(0));
        assert_eq!(eval("[%eval -0.00]"), cp(0));
        assert_eq!(eval("[%eval 12.07]"), cp(1207));
        assert_eq!(eval("[%eval 007.5]"), cp(750));
    }

    #[test]
    fn eval_is_exact_where_floats_are_not() {
        // float("0.29") * 100 == 28.999999999999996 in Python.
        assert_eq!(eval("[%eval 0.29]"), cp(29));
        assert_eq!(eval("[%eval -0.29]"), cp(-29));
        assert_eq!(eval("[%eval 0.57]"), cp(57));
        assert_eq!(eval("[%eval 1.13]"), cp(113));
        assert_eq!(eval("[%eval 4.35]"), cp(435));
        for hundredths in 0..10_000 {
            let text = std::format!("[%eval {}.{:02}]", hundredths / 100, hundredths % 100);
            assert_eq!(eval(&text), cp(hundredths), "{text}");
            let text = std::format!("[%eval -{}.{:02}]", hundredths / 100, hundredths % 100);
            assert_eq!(eval(&text), cp(-hundredths), "{text}");
        }
    }

    #[test]
    fn eval_digit_limits() {
        // Up to ten digits before the point, one or two after it.
        assert_eq!(eval("[%eval 0.355]"), None);
        assert_eq!(eval("[%eval 0.295]"), None);
        assert_eq!(
            eval("[%eval 1234567890]"),
            None,
            "too many centipawns for i32"
        );
        assert_eq!(eval("[%eval 12345678901]"), None, "eleven digits");
        assert_eq!(eval("[%eval 12345678901.5]"), None, "eleven digits");
        assert_eq!(eval("[%eval 21474836.47]"), cp(i32::MAX));
        assert_eq!(eval("[%eval -21474836.47]"), cp(-i32::MAX));
        assert_eq!(eval("[%eval -21474836.48]"), cp(i32::MIN));
        assert_eq!(eval("[%eval 21474836.48]"), None);
        assert_eq!(eval("[%eval 0000000001.5]"), cp(150));
    }

    #[test]
    fn eval_malformed() {
        for text in [
            "[%eval abc]",
            "[%eval ]",
            "[%eval .]",
            "[%eval -]",
            "[%eval +-1]",
            "[%eval --1]",
            "[%eval 1..2]",
            "[%eval 1.2.3]",
            "[%eval 0.35",
            "[%eval 0.35 ]",
            "[%eval  0.35]",
            "[%eval0.35]",
            "[%eval\u{0}0.35]",
            "[% eval 0.35]",
            "[%Eval 0.35]",
            "[%evals 0.35]",
            "[eval 0.35]",
            "%eval 0.35]",
            "[%eval 1e2]",
            "[%eval #]",
            "[%eval #-]",
            "[%eval # 3]",
            "[%eval #3.0]",
            "[%eval ##3]",
            "[%eval 0.35,]",
            "[%eval 0.35,x]",
            "[%eval 0.35,-2]",
            "[%eval 0.35, 22]",
            "[%eval 0.35,22,3]",
            "[%eval #3,]",
            "",
            "[",
            "[%",
            "[%eval",
            "[%eval ",
        ] {
            assert_eq!(eval(text), None, "{text:?}");
            assert_eq!(Annotations::parse(text).eval, None, "{text:?}");
        }
    }

    #[test]
    fn eval_mates() {
        assert_eq!(eval("[%eval #4]"), mate(4));
        assert_eq!(eval("[%eval #+4]"), mate(4));
        assert_eq!(eval("[%eval #-3]"), mate(-3));
        assert_eq!(eval("[%eval #0]"), mate(0));
        assert_eq!(eval("[%eval #-0]"), mate(0));
        assert_eq!(eval("[%eval #+0]"), mate(0));
        assert_eq!(eval("[%eval #007]"), mate(7));
        assert_eq!(eval("[%eval #2147483647]"), mate(i32::MAX));
        assert_eq!(eval("[%eval #-2147483648]"), mate(i32::MIN));
        assert_eq!(eval("[%eval #2147483648]"), None);
        assert_eq!(eval("[%eval #99999999999999999999999999]"), None);
    }

    #[test]
    fn eval_depth() {
        assert_eq!(
            eval("[%eval 0.35,22]"),
            Some(Eval {
                score: Score::Cp(35),
                depth: Some(22)
            })
        );
        assert_eq!(
            eval("[%eval #-3,40]"),
            Some(Eval {
                score: Score::Mate(-3),
                depth: Some(40)
            })
        );
        assert_eq!(
            eval("[%eval 5.,0]"),
            Some(Eval {
                score: Score::Cp(500),
                depth: Some(0)
            })
        );
        assert_eq!(
            eval("[%eval -1,4294967295]").and_then(|e| e.depth),
            Some(u32::MAX)
        );
        assert_eq!(eval("[%eval -1,4294967296]"), None);
    }

    #[test]
    fn absurd_first_match_is_not_skipped() {
        // The first command that matches is the one python-chess reads; a
        // value too large for the types here gives `None`, not the next one.
        assert_eq!(eval("[%eval #9999999999999] [%eval 0.5]"), None);
        assert_eq!(
            clock("[%clk 99999999999999999999:00:00] [%clk 0:00:01]"),
            None
        );
        let found = Annotations::parse("[%eval 1,99999999999] [%eval 0.5] [%clk 0:00:01]");
        assert_eq!(found.eval, None);
        assert_eq!(found.clock, Some(1.0));
    }

    #[test]
    fn clocks() {
        assert_eq!(clock("[%clk 0:00:30]"), Some(30.0));
        assert_eq!(clock("[%clk 1:02:03]"), Some(3723.0));
        assert_eq!(clock("[%clk 0:00:30.5]"), Some(30.5));
        assert_eq!(clock("[%clk 0:00:07.25]"), Some(7.25));
        assert_eq!(clock("[%clk 0:00:05.]"), Some(5.0));
        assert_eq!(clock("[%clk 0:0:5]"), Some(5.0));
        assert_eq!(clock("[%clk 100:75:99]"), Some(360_000.0 + 4500.0 + 99.0));
        assert_eq!(clock("[%clk 0:00:00]"), Some(0.0));
        assert_eq!(clock("[%clk\t0:00:30]"), Some(30.0));
        assert_eq!(clock("[%clk\n0:00:30]"), Some(30.0));
        assert_eq!(clock("[%clk\u{a0}0:00:30]"), Some(30.0));
        assert_eq!(clock("[%clk\u{1f}0:00:30]"), Some(30.0));
        assert_eq!(clock("[%clk\u{3000}0:00:30]"), Some(30.0));
        // 0.1 is added to 3600 in binary floating point, as Python does.
        assert_eq!(clock("[%clk 1:00:00.1]"), Some(3600.0 + 0.1));
    }

    #[test]
    fn clocks_malformed() {
        for text in [
            "[%clk 1:2]",
            "[%clk 0:00]",
            "[%clk 30]",
            "[%clk 0:00:30",
            "[%clk 0:00:.5]",
            "[%clk 0:00:30.5.]",
            "[%clk :00:30]",
            "[%clk 0::30]",
            "[%clk 0:00:]",
            "[%clk -0:00:30]",
            "[%clk 0:00:30 ]",
            "[%clk  0:00:30]",
            "[%clk0:00:30]",
            "[%clk 0:00:3a]",
            "[%clk 0:00:30,5]",
            "[%CLK 0:00:30]",
            "[%clk 0:00:30:00]",
            "[%clk 1:2] [%emt 1:2]",
        ] {
            assert_eq!(clock(text), None, "{text:?}");
            assert_eq!(Annotations::parse(text).clock, None, "{text:?}");
        }
    }

    /// The eight-bytes-at-a-time scan finds every `[%` a byte-by-byte scan
    /// finds, at any offset, among near misses (`[[%`, `[ %`, `%[`) and
    /// non-ASCII bytes.
    #[test]
    fn commands_are_found_at_every_offset() {
        let mut rng = bitboards_test_support::Rng::new(0xC0DE);
        let pieces: [&str; 6] = ["[", "%", "[%", "a", "é", " "];
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..rng.below(40) {
                text.push_str(rng.pick(&pieces));
            }
            let bytes = text.as_bytes();
            let naive: Vec<usize> = (0..bytes.len().saturating_sub(1))
                .filter(|&at| bytes[at] == b'[' && bytes[at + 1] == b'%')
                .collect();
            assert_eq!(Commands::new(&text).collect::<Vec<_>>(), naive, "{text:?}");
        }
    }

    /// Every text one or two byte changes (or a cut) away from the shapes
    /// Lichess writes: where the one-step readers read a text, the general
    /// grammar reads it to the same value, bit for bit.
    #[test]
    fn short_forms_read_as_the_grammar_does() {
        let variants = |base: &str| mutations(base.as_bytes(), b"0159:.]-+#,x ");
        let mut read = [0usize; 2];
        for base in ["0:02:59.9]", "1:02:03]", "9:59:59.9] ", "0:00:00]x"] {
            for body in variants(base) {
                if let Some((seconds, len)) = short_time(&body) {
                    read[0] += 1;
                    let general = any_time(&body).flatten().map(f64::to_bits);
                    assert_eq!(Some(seconds.to_bits()), general, "{body:?}");
                    assert_eq!(body[len - 1], b']', "{body:?}");
                    assert_eq!(any_time(&body[..len]), any_time(&body), "{body:?}");
                }
            }
        }
        for base in ["0.31]", "-12.07]", "1234.5] ", "-0.00]", "9.9]x"] {
            for body in variants(base) {
                if let Some((eval, len)) = short_eval(&body) {
                    read[1] += 1;
                    assert_eq!(Some(Some(eval)), any_evaluation(&body), "{body:?}");
                    assert_eq!(body[len - 1], b']', "{body:?}");
                    assert_eq!(any_evaluation(&body[..len]), any_evaluation(&body));
                }
            }
        }
        // The one-step readers do take the common shapes.
        assert!(read.iter().all(|&count| count > 1000), "{read:?}");
        assert_eq!(short_time(b"0:02:59.9]x"), Some((179.9, 10)));
        assert_eq!(short_time(b"1:02:03] "), Some((3723.0, 8)));
        assert_eq!(
            short_eval(b"-12.07]").map(|(eval, len)| (eval.score, len)),
            Some((Score::Cp(-1207), 7))
        );
        assert_eq!(
            short_eval(b"0.3] ").map(|(eval, len)| (eval.score, len)),
            Some((Score::Cp(30), 4))
        );
    }

    /// Comments near the two that Lichess writes, changed a byte or two
    /// at a time: where the one-step reader of whole comments takes one,
    /// the scan reads the same from it, and it takes the common ones.
    #[test]
    fn lichess_comments_read_as_the_scan_does() {
        const ALPHABET: &[u8] = b"019:.]-[%#, ceklv";
        let bases = [
            "[%eval 0.17] [%clk 0:03:00]",
            "[%eval -12.5] [%clk 1:00:09.5]",
            "[%clk 0:00:59.9]",
            "[%eval 0.1] [%clk 0:00:01]",
        ];
        let (mut taken, mut tried) = (0, 0);
        for base in bases {
            let base = base.as_bytes();
            let mut texts = mutations(base, ALPHABET);
            for i in 0..base.len() {
                texts.push(base[i..].to_vec());
                let mut longer = base.to_vec();
                longer.insert(i, b' ');
                texts.push(longer);
            }
            texts.push([base, b" [%emt 0:00:01]"].concat());
            texts.push([base, b" [%eval 9.99]"].concat());
            texts.push([base, b" "].concat());
            for text in texts {
                let Ok(text) = core::str::from_utf8(&text) else {
                    continue;
                };
                tried += 1;
                if let Some(found) = lichess(text.as_bytes()) {
                    taken += 1;
                    assert_eq!(found, Annotations::scan(text), "{text}");
                }
                assert_eq!(Annotations::parse(text), Annotations::scan(text), "{text}");
            }
        }
        assert!(taken > 1000, "{taken} of {tried}");
        assert!(taken < tried / 2, "{taken} of {tried}");
        assert_eq!(
            lichess(b"[%eval -0.25] [%clk 0:03:00]"),
            Some(Annotations {
                clock: Some(180.0),
                emt: None,
                eval: cp(-25),
            })
        );
        assert_eq!(lichess(b"[%clk 0:03:00] [%eval 0.1]"), None);
    }

    #[test]
    fn clock_limits() {
        assert_eq!(
            clock("[%clk 5124095576030431:00:00]"),
            Some(5_124_095_576_030_431.0 * 3600.0)
        );
        assert_eq!(clock("[%clk 5124095576030432:00:00]"), None);
        assert_eq!(
            clock("[%clk 0:307445734561825860:15]"),
            Some(u64::MAX as f64 + 15.0)
        );
        let long = std::format!("[%clk 0:00:{}]", "9".repeat(400));
        assert_eq!(clock(&long), None, "infinite");
        let zeros = std::format!("[%clk {0}1:{0}2:{0}3.{0}]", "0".repeat(400));
        assert_eq!(clock(&zeros), Some(3723.0));
    }

    #[test]
    fn emts() {
        assert_eq!(emt("[%emt 0:00:05]"), Some(5.0));
        assert_eq!(emt("[%emt 0:01:02.5]"), Some(62.5));
        assert_eq!(emt("[%emt 1:2]"), None);
        assert_eq!(emt("[%clk 0:00:05]"), None);
        assert_eq!(clock("[%emt 0:00:05]"), None);
        assert_eq!(emt("[%emt 0:00:03] [%emt 0:00:04]"), Some(3.0));
    }

    #[test]
    fn lichess_comments() {
        let found = Annotations::parse(" [%eval 0.17] [%clk 0:00:30] ");
        assert_eq!(found.eval, cp(17));
        assert_eq!(found.clock, Some(30.0));
        assert_eq!(found.emt, None);
        let found = Annotations::parse(" [%eval #-3] [%clk 0:00:12] ");
        assert_eq!(found.eval, mate(-3));
        assert_eq!(found.clock, Some(12.0));
        let found = Annotations::parse(" [%clk 0:03:00] ");
        assert_eq!(found.clock, Some(180.0));
        assert_eq!(found.eval, None);
        // A Lichess study comment.
        let text = "Good move. [%csl Gd5][%cal Gg1f3,Rd1h5] [%eval 0.2] [%clk 0:09:58]";
        let found = Annotations::parse(text);
        assert_eq!(found.eval, cp(20));
        assert_eq!(found.clock, Some(598.0));
        assert_eq!(
            all_arrows(text),
            [
                arrow(ArrowColor::Green, Square::D5, Square::D5),
                arrow(ArrowColor::Green, Square::G1, Square::F3),
                arrow(ArrowColor::Red, Square::D1, Square::H5),
            ]
        );
    }

    #[test]
    fn chessbase_comments() {
        let text = "[%emt 0:00:21] [%evp 17,23,-5] White is better. [%clk 1:29:37]";
        let found = Annotations::parse(text);
        assert_eq!(found.emt, Some(21.0));
        assert_eq!(found.clock, Some(5377.0));
        assert_eq!(found.eval, None);
    }

    #[test]
    fn any_order_and_first_wins() {
        let text = "[%clk 0:00:02] [%eval -0.3,18] [%emt 0:00:01] [%eval 9] [%clk 0:00:09]";
        let found = Annotations::parse(text);
        assert_eq!(found.clock, Some(2.0));
        assert_eq!(found.emt, Some(1.0));
        assert_eq!(
            found.eval,
            Some(Eval {
                score: Score::Cp(-30),
                depth: Some(18)
            })
        );
        let text = "[%emt 0:00:01][%eval #2][%clk 0:10:00]";
        let found = Annotations::parse(text);
        assert_eq!(found.clock, Some(600.0));
        assert_eq!(found.emt, Some(1.0));
        assert_eq!(found.eval, mate(2));
        assert_eq!(clock("[%clk 0:00:01][%clk 0:00:02]"), Some(1.0));
        assert_eq!(eval("[%eval 1][%eval 2]"), cp(100));
    }

    #[test]
    fn first_match_skips_bad_commands() {
        assert_eq!(eval("[%eval abc] [%eval 0.5]"), cp(50));
        assert_eq!(eval("[%eval 0.35 [%eval 0.5]"), cp(50));
        assert_eq!(eval("[%eval [%eval -2]"), cp(-200));
        assert_eq!(clock("[%clk 1:2] [%clk 0:00:09]"), Some(9.0));
        assert_eq!(clock("[[%clk 0:00:09]"), Some(9.0));
        assert_eq!(clock("[%[%clk 0:00:09]"), Some(9.0));
        let found =
            Annotations::parse("[%eval x][%clk 1:2][%emt][%eval 1][%clk 0:0:1][%emt 0:0:2]");
        assert_eq!(found.eval, cp(100));
        assert_eq!(found.clock, Some(1.0));
        assert_eq!(found.emt, Some(2.0));
    }

    #[test]
    fn no_commands() {
        for text in [
            "",
            "just text",
            "[",
            "%",
            "[%",
            "[%]",
            "[%clk",
            "]]]",
            "é [%é]",
        ] {
            assert_eq!(Annotations::parse(text), Annotations::default());
            assert_eq!(arrows(text).next(), None);
        }
    }

    #[test]
    fn unicode_around_commands() {
        let text = "été — [%eval 0.1] ♞ [%clk 0:00:01] ü[%csl Ra1]";
        let found = Annotations::parse(text);
        assert_eq!(found.eval, cp(10));
        assert_eq!(found.clock, Some(1.0));
        assert_eq!(
            all_arrows(text),
            [arrow(ArrowColor::Red, Square::A1, Square::A1)]
        );
        // A multi-byte character where the space belongs is not a space.
        assert_eq!(clock("[%clké0:00:01]"), None);
    }

    #[test]
    fn arrows_several() {
        assert_eq!(
            all_arrows("[%cal Ge2e4,Rd2d4] [%csl Yd5]"),
            [
                arrow(ArrowColor::Green, Square::E2, Square::E4),
                arrow(ArrowColor::Red, Square::D2, Square::D4),
                arrow(ArrowColor::Yellow, Square::D5, Square::D5),
            ]
        );
        assert_eq!(
            all_arrows("[%csl Ge4]"),
            [arrow(ArrowColor::Green, Square::E4, Square::E4)]
        );
        // Both commands take both forms.
        assert_eq!(
            all_arrows("[%csl Ba1h8,Bh1][%cal Yb2]"),
            [
                arrow(ArrowColor::Blue, Square::A1, Square::H8),
                arrow(ArrowColor::Blue, Square::H1, Square::H1),
                arrow(ArrowColor::Yellow, Square::B2, Square::B2),
            ]
        );
        assert_eq!(all_arrows("[%cal\tRa1a1]").len(), 1);
    }

    #[test]
    fn arrows_bad_lists_rejected_whole() {
        for text in [
            "[%cal Ge2e4,Xd2d4]",
            "[%cal Ge2e4,]",
            "[%cal ,Ge2e4]",
            "[%cal Ge2e4, Rd2d4]",
            "[%cal Ge2e4 Rd2d4]",
            "[%cal Ge2e]",
            "[%cal Ge2e4e6]",
            "[%cal Ge2e9]",
            "[%cal Gi2e4]",
            "[%cal ge2e4]",
            "[%cal GE2E4]",
            "[%cal e2e4]",
            "[%cal Ge2e4",
            "[%cal ]",
            "[%cal  Ge2e4]",
            "[%cal Ge0]",
            "[%cal Ge2e4,,Rd2d4]",
            "[%cel Ge4]",
            "[%csl]",
        ] {
            assert_eq!(all_arrows(text), [], "{text:?}");
        }
        // A bad command does not spoil the good ones around it.
        assert_eq!(
            all_arrows("[%csl Ra1] [%cal Ge2e4,Xd2d4] [%csl Bh8]"),
            [
                arrow(ArrowColor::Red, Square::A1, Square::A1),
                arrow(ArrowColor::Blue, Square::H8, Square::H8),
            ]
        );
        assert_eq!(
            all_arrows("[%cal Ge2e4 [%csl Gd4]"),
            [arrow(ArrowColor::Green, Square::D4, Square::D4)]
        );
    }

    #[test]
    fn arrows_iterator_is_fused_and_clonable() {
        let mut found = arrows("[%csl Ra1,Gb2]");
        let copy = found.clone();
        assert!(found.next().is_some());
        assert!(found.next().is_some());
        assert_eq!(found.next(), None);
        assert_eq!(found.next(), None);
        assert_eq!(copy.count(), 2);
    }

    #[test]
    fn squares_cover_the_board() {
        let mut text = String::from("[%csl ");
        for rank in b'1'..=b'8' {
            for file in b'a'..=b'h' {
                text.push('G');
                text.push(char::from(file));
                text.push(char::from(rank));
                text.push(',');
            }
        }
        text.pop();
        text.push(']');
        let found = all_arrows(&text);
        assert_eq!(found.len(), 64);
        for (index, arrow) in found.iter().enumerate() {
            assert_eq!(arrow.tail.index(), index);
            assert_eq!(arrow.head, arrow.tail);
        }
    }

    /// Marsaglia's xorshift64 with a fixed seed.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, bound: usize) -> usize {
            (self.next() % bound as u64) as usize
        }
    }

    fn check_consistent(comment: &str) {
        let found = Annotations::parse(comment);
        assert_eq!(found.clock, clock(comment), "{comment:?}");
        assert_eq!(found.emt, emt(comment), "{comment:?}");
        assert_eq!(found.eval, eval(comment), "{comment:?}");
        assert!(found.clock.is_none_or(f64::is_finite));
        assert!(found.emt.is_none_or(f64::is_finite));
        // Every arrow's squares come from the comment's text.
        for arrow in arrows(comment) {
            assert!(comment.contains(arrow.tail.name()), "{comment:?}");
            assert!(comment.contains(arrow.head.name()), "{comment:?}");
        }
    }

    #[test]
    fn random_bytes_never_panic_and_agree() {
        const ALPHABET: &[u8] = b"[%clkemtvalcs #.,:-0123456789 ]RGYBabcdefgh";
        let mut random = XorShift(0x9E37_79B9_7F4A_7C15);
        let mut text = String::new();
        for _ in 0..5000 {
            text.clear();
            let len = random.below(48);
            for _ in 0..len {
                text.push(char::from(ALPHABET[random.below(ALPHABET.len())]));
            }
            check_consistent(&text);
        }
    }

    #[test]
    fn random_tokens_never_panic_and_agree() {
        // Whole command names and numbers, so that commands match often.
        const TOKENS: &[&str] = &[
            "[%clk ",
            "[%emt ",
            "[%eval ",
            "[%csl ",
            "[%cal ",
            "[%",
            "[",
            "]",
            " ",
            "#",
            "#-",
            "-",
            "+",
            ".",
            ",",
            ":",
            "0",
            "1",
            "12",
            "99999999999",
            "0:00:",
            "Ge4",
            "Ge2e4",
            "Ra1",
            "Bh8h1",
            "X",
            "é",
            "\t",
            "0:00:30]",
            "1:02:03.5]",
            "0.17]",
            "-1.2,20]",
            "#-3]",
            ",5]",
        ];
        let mut random = XorShift(0x0123_4567_89AB_CDEF);
        let mut text = String::new();
        let (mut clocks, mut evals, mut arrows_found) = (0, 0, 0);
        for _ in 0..5000 {
            text.clear();
            for _ in 0..random.below(16) {
                text.push_str(TOKENS[random.below(TOKENS.len())]);
            }
            check_consistent(&text);
            let found = Annotations::parse(&text);
            clocks += usize::from(found.clock.is_some() || found.emt.is_some());
            evals += usize::from(found.eval.is_some());
            arrows_found += arrows(&text).count();
        }
        // The generator reaches the matching paths, not only the rejections.
        assert!(
            clocks > 0 && evals > 0 && arrows_found > 0,
            "{clocks} {evals} {arrows_found}"
        );
    }

    #[test]
    fn short_decimals_read_as_str_parse_reads_them() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = 1 + (state % 15) as usize;
            let point = (state >> 8) as usize % (len + 1);
            let mut text = std::string::String::new();
            for at in 0..len {
                if at == point && at > 0 {
                    text.push('.');
                }
                text.push(char::from(b'0' + ((state >> (at * 4 % 60)) % 10) as u8));
            }
            let text = &text[..text.len().min(15)];
            let expected: f64 = text.parse().unwrap();
            assert_eq!(super::decimal(text.as_bytes()), Some(expected), "{text}");
        }
    }
}
