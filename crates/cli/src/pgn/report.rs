//! What `bitboards pgn` reads each game with for its reports: the moves,
//! the final position, the result and what the rules say of the end, and,
//! for `--format json`, each ply's clock and eval written as JSON text as
//! soon as their comment is read (no list of values per game to format
//! again, no allocation per value), then the whole line written straight
//! into the worker's output.

use bitboards::{Move, Outcome, Position, Repetitions};
use bitboards_pgn::annotations::{Annotations, Score};
use bitboards_pgn::record::{push_integer_bytes, push_seconds, push_unsigned_bytes};
use bitboards_pgn::{GameResult, PgnMove, Visitor};

/// The visitor of the reports: what a report shows of a game, and no
/// more (no tags but `Result`, no copy of each position: the keys of the
/// positions since the last capture or pawn move are enough for the
/// repetitions, as [`bitboards::Game`] counts them); with `json` the
/// clocks and evals are written as the JSON lists' text while the game is
/// read.
pub(crate) struct ReportVisitor {
    /// Whether the reports are JSON (clocks and evals read).
    json: bool,
    /// Whether this game's movetext has begun.
    in_movetext: bool,
    /// Where the game started, and its moves.
    start: Position,
    moves: Vec<Move>,
    /// The keys of the positions since the last capture or pawn move, as
    /// a [`bitboards::Game`] keeps them.
    keys: Repetitions,
    /// The final position, once the game has ended.
    last: Position,
    /// The game's first `Result` tag, if any.
    result_tag: Option<String>,
    /// The result that ended the movetext, if one did.
    result: Option<GameResult>,
    /// What the rules say of the end.
    outcome: Option<Outcome>,
    /// The text inside the `clocks` list so far, each entry after `, `
    /// (the first one's left out when the list is written).
    clocks: Vec<u8>,
    /// The text inside the `evals` list so far, likewise.
    evals: Vec<u8>,
    /// Whether the current ply's clock is still to be found: the first
    /// comment of the ply that gives one writes it, and a ply without
    /// one gets `null` when the next begins or the game ends.
    clock_open: bool,
    /// Whether the current ply's eval is still to be found, likewise.
    eval_open: bool,
    /// A comment too long for the reader's buffer, in pieces.
    partial: String,
}

impl ReportVisitor {
    /// The visitor for reports in `json` or text.
    pub(crate) fn new(json: bool) -> ReportVisitor {
        ReportVisitor {
            json,
            in_movetext: false,
            start: Position::START,
            moves: Vec::new(),
            keys: Repetitions::default(),
            last: Position::START,
            result_tag: None,
            result: None,
            outcome: None,
            clocks: Vec::new(),
            evals: Vec::new(),
            clock_open: false,
            eval_open: false,
            partial: String::new(),
        }
    }

    /// Whether the game just read had a movetext (a game of tags alone
    /// gets no report).
    pub(crate) fn has_movetext(&self) -> bool {
        self.in_movetext
    }

    /// Where the game just read started.
    pub(crate) fn start(&self) -> &Position {
        &self.start
    }

    /// The moves of the game just read.
    pub(crate) fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The final position of the game just read.
    pub(crate) fn last(&self) -> &Position {
        &self.last
    }

    /// The game's `Result` tag, else the result that ended its movetext.
    pub(crate) fn result(&self) -> Option<&str> {
        self.result_tag
            .as_deref()
            .or_else(|| self.result.map(GameResult::as_str))
    }

    /// What the rules say of the game's end: [`bitboards::Game::outcome`].
    pub(crate) fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The text inside the JSON `clocks` list of the game just read.
    pub(crate) fn clocks(&self) -> &[u8] {
        self.clocks.get(2..).unwrap_or_default()
    }

    /// The text inside the JSON `evals` list of the game just read.
    pub(crate) fn evals(&self) -> &[u8] {
        self.evals.get(2..).unwrap_or_default()
    }

    /// The current ply's clock and eval from any comment, as
    /// [`Annotations::parse`] reads them.
    fn annotations(&mut self, text: &str) {
        let found = Annotations::parse(text);
        if self.clock_open
            && let Some(seconds) = found.clock
        {
            self.clocks.extend_from_slice(b", ");
            push_seconds(&mut self.clocks, seconds);
            self.clock_open = false;
        }
        if self.eval_open
            && let Some(eval) = found.eval
        {
            push_eval(&mut self.evals, eval.score);
            self.eval_open = false;
        }
    }

    /// Writes `null` for the current ply's clock and eval if no comment
    /// gave them.
    fn close_ply(&mut self) {
        if self.clock_open {
            self.clocks.extend_from_slice(b", null");
        }
        if self.eval_open {
            self.evals.extend_from_slice(b", null");
        }
    }
}

impl Visitor for ReportVisitor {
    fn begin_game(&mut self, _: usize) {
        self.in_movetext = false;
        self.result_tag = None;
        self.result = None;
        self.outcome = None;
        self.clocks.clear();
        self.evals.clear();
        self.clock_open = false;
        self.eval_open = false;
        self.partial.clear();
    }

    fn tag(&mut self, name: &str, value: &str) {
        // The reports show the result tag and no other; the first counts.
        if name == "Result" && self.result_tag.is_none() {
            self.result_tag = Some(value.to_owned());
        }
    }

    fn tag_bytes(&mut self, name: &str, value: &[u8]) {
        // The other tags' values go unread.
        if name == "Result" {
            self.tag(name, &String::from_utf8_lossy(value));
        }
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.start = *start;
        self.moves.clear();
        self.keys.restart(start);
        self.in_movetext = true;
    }

    fn wants_comments(&mut self) -> bool {
        self.json
    }

    fn san(&mut self, played: PgnMove<'_>) {
        self.close_ply();
        self.clock_open = self.json;
        self.eval_open = self.json;
        self.moves.push(played.mv);
        self.keys.push(played.mv, played.after);
    }

    fn comment(&mut self, text: &str) {
        self.comment_bytes(text.as_bytes());
    }

    fn comment_bytes(&mut self, bytes: &[u8]) {
        // A comment before the first move is no ply's, and once a ply's
        // comments have given its clock and eval the rest say nothing.
        if !self.clock_open && !self.eval_open {
            self.partial.clear();
            return;
        }
        if !self.partial.is_empty() {
            self.partial.push_str(&String::from_utf8_lossy(bytes));
            let whole = core::mem::take(&mut self.partial);
            return self.annotations(&whole);
        }
        // Read as bytes: the text is needed (and checked as UTF-8) only
        // for a comment in another form.
        let Some((tenths, eval)) = lichess(bytes) else {
            return self.annotations(&String::from_utf8_lossy(bytes));
        };
        // As Lichess writes it: each written straight into its list.
        if self.clock_open {
            push_clock(&mut self.clocks, tenths);
            self.clock_open = false;
        }
        if self.eval_open
            && let Some(eval) = eval
        {
            push_eval_text(&mut self.evals, eval);
            self.eval_open = false;
        }
    }

    fn comment_part(&mut self, text: &str) {
        if self.json {
            self.partial.push_str(text);
        }
    }

    fn result(&mut self, result: GameResult) {
        self.result = Some(result);
    }

    fn end_game(&mut self, last: &Position) {
        self.close_ply();
        self.clock_open = false;
        self.eval_open = false;
        self.last = *last;
        self.outcome = self.in_movetext.then(|| self.keys.outcome(last)).flatten();
    }
}

/// An eval as Lichess writes it, ready to be written: whether it is a
/// mate, and the JSON text of its number and the closing `}` (at most
/// eight bytes, the first lowest in `text`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct EvalText {
    mate: bool,
    text: u64,
    len: u32,
}

/// Appends `, ` and the eval's JSON object.
#[inline(always)]
fn push_eval_text(out: &mut Vec<u8>, eval: EvalText) {
    match eval.mate {
        true => out.extend_from_slice(b", {\"mate\": "),
        false => out.extend_from_slice(b", {\"cp\": "),
    }
    push_word(out, eval.text, eval.len);
}

/// A comment as Lichess writes it, `[%clk h:mm:ss]`, `[%clk h:mm:ss.t]`,
/// or either after `[%eval p.pp] ` (one to four digits before the point,
/// one or two after, maybe a `-`) or `[%eval #n] ` (`#-n`, one to four
/// digits): its clock in tenths and its eval's text, the values
/// [`Annotations::parse`] gives as `push_seconds` and `push_eval` write
/// them (the unit test `lichess_comments_read_as_annotations_do` holds
/// them together). `None` for any other text, which `Annotations::parse`
/// reads.
///
/// The clock is read from the end, eight bytes at a time; the eval, if
/// any, is what stands between `[%eval ` and the clock's `] `.
#[inline(always)]
fn lichess(comment: &[u8]) -> Option<(u32, Option<EvalText>)> {
    let len = comment.len();
    let tenth = len >= 16 && comment[len - 3] == b'.';
    let start = len.checked_sub(if tenth { 16 } else { 14 })?;
    let tenths = clock(&comment[start..], tenth)?;
    if start == 0 {
        return Some((tenths, None));
    }
    // `[%eval ` (seven bytes) and at least one of score, then `] `.
    let head = word(comment.get(..8)?);
    if head & 0x00FF_FFFF_FFFF_FFFF != u64::from_le_bytes(*b"[%eval \0") {
        return None;
    }
    let body = comment.get(7..start)?.strip_suffix(b"] ")?;
    Some((tenths, Some(eval_text(body)?)))
}

/// Eight bytes as a little-endian word (the first byte lowest).
#[inline(always)]
fn word(bytes: &[u8]) -> u64 {
    let mut eight = [0; 8];
    eight.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(eight)
}

/// `[%clk h:mm:ss]` (14 bytes), or `[%clk h:mm:ss.t]` (16) with `tenth`,
/// in tenths of a second.
#[inline(always)]
fn clock(text: &[u8], tenth: bool) -> Option<u32> {
    // `[%clk h:` and `h:mm:ss]` (or `h:mm:ss.`): the bytes that must be
    // these, and the digits, each checked at once.
    const NAME_MASK: u64 = 0xFF00_FFFF_FFFF_FFFF;
    const TIME_MASK: u64 = 0xFF00_00FF_0000_FF00;
    // The digits' places: `h`, `mm`, `ss`.
    const DIGITS: u64 = 0x00FF_FF00_FFFF_00FF;
    const ZEROS: u64 = DIGITS & 0x3030_3030_3030_3030;
    let name = word(&text[..8]);
    let time = word(&text[6..14]);
    let end = if tenth { b'.' } else { b']' };
    let name_bytes = u64::from_le_bytes(*b"[%clk \0:");
    let time_bytes = u64::from_le_bytes([0, b':', 0, 0, b':', 0, 0, end]);
    let values = (time & DIGITS) ^ ZEROS;
    // Each digit's value is below 10: its high half is 0, and so is that
    // of it plus 6 (no carry between bytes once the first holds).
    let digits = values & 0xF0F0_F0F0_F0F0_F0F0 == 0
        && (values + (DIGITS & 0x0606_0606_0606_0606)) & 0xF0F0_F0F0_F0F0_F0F0 == 0;
    if name & NAME_MASK != name_bytes & NAME_MASK
        || time & TIME_MASK != time_bytes & TIME_MASK
        || !digits
    {
        return None;
    }
    #[allow(clippy::cast_possible_truncation)] // One byte.
    let byte = |at: u32| ((values >> (8 * at)) & 0xFF) as u32;
    let seconds = byte(0) * 3600 + (byte(2) * 10 + byte(3)) * 60 + byte(5) * 10 + byte(6);
    if !tenth {
        return Some(seconds * 10);
    }
    match text[14..] {
        [t, b']'] => Some(seconds * 10 + digit(t)?),
        _ => None,
    }
}

/// An eval's text as Lichess writes it, between `[%eval ` and `]`:
/// `-?d{1,4}.d{1,2}` in pawns, or `#-?d{1,4}`; its JSON number is its
/// digits (the fraction's made two) without their leading zeros, after a
/// `-` unless it is 0, as `Display` writes the centipawns or the moves.
#[inline(always)]
fn eval_text(body: &[u8]) -> Option<EvalText> {
    let (mate, body) = match body {
        [b'#', rest @ ..] => (true, rest),
        _ => (false, body),
    };
    let (negative, body) = match body {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, body),
    };
    // Mates are digits alone; pawns have one or two after a point.
    let point = match (mate, body) {
        (true, _) => body.len(),
        (false, [.., b'.', _]) => body.len() - 2,
        (false, [.., b'.', _, _]) => body.len() - 3,
        _ => return None,
    };
    if !(1..=4).contains(&point) {
        return None;
    }
    // The digits, the first lowest: the whole ones, then the fraction's,
    // then a 0 after a single tenth.
    let mut digits = 0u64;
    let mut count = 0;
    for (at, &byte) in body.iter().enumerate() {
        if at == point {
            continue;
        }
        digit(byte)?;
        digits |= u64::from(byte) << (8 * count);
        count += 1;
    }
    if !mate && body.len() - point == 2 {
        digits |= u64::from(b'0') << (8 * count);
        count += 1;
    }
    // The leading zeros are the low bytes that are `0` (past the digits
    // the bytes are 0, not `0`); one digit stays.
    let zeros = ((digits ^ 0x3030_3030_3030_3030).trailing_zeros() / 8).min(count - 1);
    let digits = digits >> (8 * zeros);
    let len = count - zeros;
    let (text, len) = match negative && digits != u64::from(b'0') {
        true => (u64::from(b'-') | digits << 8, len + 1),
        false => (digits, len),
    };
    // `}`: eight bytes at most (a sign, six digits).
    Some(EvalText {
        mate,
        text: text | u64::from(b'}') << (8 * len),
        len: len + 1,
    })
}

/// The value of an ASCII digit.
#[inline]
fn digit(byte: u8) -> Option<u32> {
    let value = byte.wrapping_sub(b'0');
    (value <= 9).then_some(u32::from(value))
}

/// The two ASCII digits of each number below 100, as a little-endian
/// word: the tens in the low byte.
const DIGIT_PAIRS: [u16; 100] = {
    let mut pairs = [0; 100];
    let mut number = 0;
    while number < 100 {
        pairs[number] =
            (b'0' + (number / 10) as u8) as u16 | ((b'0' + (number % 10) as u8) as u16) << 8;
        number += 1;
    }
    pairs
};

/// The decimal digits of `value` (below 1,000,000) as the bytes of a word,
/// the first digit in the low byte, and how many there are: no call, no
/// loop, no buffer.
#[inline(always)]
fn small_digits(value: u32) -> (u64, u32) {
    debug_assert!(value < 1_000_000);
    let pair = |number: u32| u64::from(DIGIT_PAIRS[(number % 100) as usize]);
    // Six digits, leading zeros included, the first lowest.
    let six = pair(value / 10_000) | pair(value / 100) << 16 | pair(value) << 32;
    // The leading zeros are the low bytes that are `0`; one digit stays.
    let zeros = ((six ^ 0x3030_3030_3030).trailing_zeros() / 8).min(5);
    (six >> (8 * zeros), 6 - zeros)
}

/// Appends the first `len` bytes of `word` (at most 8), with one store of
/// eight bytes and the length set back.
#[inline(always)]
fn push_word(out: &mut Vec<u8>, word: u64, len: u32) {
    let end = out.len() + len as usize;
    out.extend_from_slice(&word.to_le_bytes());
    out.truncate(end);
}

/// Appends `, ` and the clock of `tenths` of a second as seconds, as
/// `f64`'s `Display` writes the value the record holds: the whole seconds,
/// then the tenth unless it is 0 (`179.9`, `173`).
#[inline(always)]
pub(crate) fn push_clock(out: &mut Vec<u8>, tenths: u32) {
    let seconds = tenths / 10;
    out.extend_from_slice(b", ");
    if seconds >= 1_000_000 {
        return push_tenths(out, tenths);
    }
    let (digits, len) = small_digits(seconds);
    let tenth = tenths % 10;
    match tenth {
        0 => push_word(out, digits, len),
        // `.` and the tenth after the digits: eight bytes at most.
        #[allow(clippy::cast_possible_truncation)] // Below 10.
        _ => {
            let point = u64::from(b'.') | u64::from(b'0' + tenth as u8) << 8;
            push_word(out, digits | point << (8 * len), len + 2);
        }
    }
}

/// Appends `, ` and `score` as its JSON object, `{"cp": n}` or
/// `{"mate": n}`.
#[inline(always)]
fn push_eval(out: &mut Vec<u8>, score: Score) {
    match score {
        Score::Cp(cp) => push_score(out, b", {\"cp\": ", cp),
        Score::Mate(mate) => push_score(out, b", {\"mate\": ", mate),
    }
}

/// Appends `prefix`, then `value` and `}`, as `Display` writes the number.
#[inline(always)]
fn push_score<const N: usize>(out: &mut Vec<u8>, prefix: &[u8; N], value: i32) {
    out.extend_from_slice(prefix);
    let magnitude = value.unsigned_abs();
    if magnitude >= 1_000_000 {
        push_integer_bytes(out, i64::from(value));
        out.push(b'}');
        return;
    }
    let (digits, len) = small_digits(magnitude);
    // The sign, the digits and `}`: eight bytes at most.
    let brace = u64::from(b'}') << (8 * len);
    match value < 0 {
        true => push_word(out, u64::from(b'-') | (digits | brace) << 8, len + 2),
        false => push_word(out, digits | brace, len + 1),
    }
}

/// Appends `tenths` of a second as seconds, as `f64`'s `Display` writes
/// the clock Lichess's `h:mm:ss.t` gives: the whole seconds, then the
/// tenth unless it is 0 (`179.9`, `173`).
pub(crate) fn push_tenths(out: &mut Vec<u8>, tenths: u32) {
    push_unsigned_bytes(out, u64::from(tenths / 10));
    let tenth = tenths % 10;
    if tenth != 0 {
        #[allow(clippy::cast_possible_truncation)] // Below 10.
        out.extend_from_slice(&[b'.', b'0' + tenth as u8]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboards_pgn::record::RecordVisitor;

    fn tenths(value: u32) -> String {
        let mut out = Vec::new();
        push_tenths(&mut out, value);
        String::from_utf8(out).unwrap()
    }

    /// Every clock of Lichess's short form (hours 0 to 9, minutes and
    /// seconds 00 to 99, with and without a tenth): the tenths written
    /// here are the text the record's `f64` gives, as `Annotations` reads
    /// the clock and `f64`'s `Display` (and so `push_seconds`) writes it.
    #[test]
    fn tenths_as_the_record_writes_them() {
        assert_eq!(tenths(0), "0");
        assert_eq!(tenths(1799), "179.9");
        assert_eq!(tenths(1730), "173");
        assert_eq!(tenths(36_005), "3600.5");
        for h in 0..10 {
            for m in 0..100 {
                for s in 0..100 {
                    for tenth in [None, Some(0), Some(1), Some(5), Some(9)] {
                        let text = match tenth {
                            Some(t) => format!("[%clk {h}:{m:02}:{s:02}.{t}]"),
                            None => format!("[%clk {h}:{m:02}:{s:02}]"),
                        };
                        let Some((read, None)) = lichess(text.as_bytes()) else {
                            panic!("{text} is not read");
                        };
                        let clock = Annotations::parse(&text).clock.unwrap();
                        assert_eq!(tenths(read), clock.to_string(), "{text}");
                    }
                }
            }
        }
        // Hours with more digits go the general way, the same.
        let found = Annotations::parse("[%clk 10:00:00.5]").clock.unwrap();
        assert_eq!(found.to_string(), "36000.5");
        assert_eq!(lichess(b"[%clk 10:00:00.5]"), None);
    }

    /// Comments near Lichess's form, and mutations of them: where
    /// `lichess` reads one, it reads what `Annotations::parse` does.
    #[test]
    fn lichess_comments_read_as_annotations_do() {
        let bases: &[&[u8]] = &[
            b"[%eval 0.31] [%clk 0:02:59.9]",
            b"[%eval -12.5] [%clk 1:00:00]",
            b"[%eval #-3] [%clk 0:00:09.1]",
            b"[%eval #12] [%clk 0:10:00]",
            b"[%eval -0.00] [%clk 0:00:00.0]",
            b"[%eval 9999.99] [%clk 9:99:99.9]",
            b"[%eval #0] [%clk 0:01:00]",
            b"[%clk 0:03:00]",
        ];
        let alphabet = b"0123456789-+#.:,] [%clkeva\t";
        let mut read = 0;
        for base in bases {
            let mut texts = vec![base.to_vec()];
            for at in 0..=base.len() {
                for &byte in alphabet {
                    let mut changed = base.to_vec();
                    changed.insert(at, byte);
                    texts.push(changed);
                    if at < base.len() {
                        let mut changed = base.to_vec();
                        changed[at] = byte;
                        texts.push(changed);
                    }
                }
                let mut shorter = base.to_vec();
                if at < base.len() {
                    shorter.remove(at);
                    texts.push(shorter);
                }
            }
            for text in texts {
                let Ok(text) = String::from_utf8(text) else {
                    continue;
                };
                let Some((clock, eval)) = lichess(text.as_bytes()) else {
                    continue;
                };
                read += 1;
                let found = Annotations::parse(&text);
                let written = eval.map(|eval| {
                    let mut out = Vec::new();
                    push_eval_text(&mut out, eval);
                    String::from_utf8(out).unwrap()
                });
                let expected = found.eval.map(|eval| {
                    let mut out = Vec::new();
                    push_eval(&mut out, eval.score);
                    String::from_utf8(out).unwrap()
                });
                assert_eq!(written, expected, "{text}");
                assert_eq!(tenths(clock), found.clock.unwrap().to_string(), "{text}");
            }
        }
        assert!(read > 300, "{read}");
    }

    /// The outcome of games that end in each way the rules know, and of
    /// random games (null moves too), as `Game::outcome` says it: the
    /// visitor hands its keys each position reached.
    #[test]
    fn outcomes_as_the_game_says_them() {
        let mut pgn = String::new();
        let cycle = "Nf3 Nf6 Ng1 Ng8 ";
        for cycles in 0..5 {
            pgn += &format!("1. e4 e5 {} *\n\n", cycle.repeat(cycles));
        }
        pgn += "[FEN \"8/8/8/8/8/8/6k1/4K2R w K - 99 80\"]\n\n1. Rh3 *\n\n";
        pgn += "[FEN \"8/8/8/8/8/8/6k1/4K2R w K - 149 80\"]\n\n1. Rh3 *\n\n";
        pgn += "[FEN \"8/8/8/8/8/8/6k1/4K2R w K - 149 80\"]\n\n1. Kd2 Kf2 *\n\n";
        pgn += "1. e4 -- 2. d4 -- 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 *\n\n";
        pgn += "1. f3 e5 2. g4 Qh4# 0-1\n\n";
        pgn += "[FEN \"k7/8/1Q6/8/8/8/8/7K w - - 0 1\"]\n\n1. Kg2 *\n\n";
        pgn += "[FEN \"k7/8/8/8/8/8/8/6BK w - - 0 1\"]\n\n1. Kg2 *\n\n";
        let games = bitboards_test_support::lichess_games(30, 3);
        let pgn = [pgn.as_bytes(), &games[..]].concat();
        let (mut report, mut record) = (ReportVisitor::new(true), RecordVisitor::default());
        let mut ours = bitboards_pgn::Reader::new(&pgn[..]);
        let mut theirs = bitboards_pgn::Reader::new(&pgn[..]);
        let mut seen = std::collections::HashSet::new();
        let mut games = 0;
        while ours.read_game(&mut report).unwrap() {
            assert!(theirs.read_game(&mut record).unwrap());
            let game = record.game().unwrap();
            assert_eq!(report.outcome(), game.outcome(), "game {games}");
            assert_eq!(report.moves(), game.moves());
            assert_eq!(report.start(), game.start());
            assert_eq!(report.last().fen().to_string(), record.record().fen);
            seen.insert(report.outcome().map(|outcome| outcome.name()));
            games += 1;
        }
        assert_eq!(games, 42);
        // Each way the rules end a game, and none.
        assert_eq!(seen.len(), 8, "{seen:?}");
    }

    /// The lists a game's comments give, against the record's values as
    /// `RecordVisitor` reads them: comments before the first move, two
    /// comments on a ply, comments without commands, long forms.
    #[test]
    fn lists_as_the_record_reads_them() {
        let pgn = "{ [%clk 0:05:00] } 1. e4 { [%eval 0.2] } { [%clk 0:03:00] [%eval 9] } \
                   1... e5 { no clock } 2. Nf3 { [%clk 1:02:03.25] [%eval #-2,30] } \
                   2... Nc6 { [%eval -0.35] [%clk 0:02:58.5] } { [%clk 0:00:01] } \
                   3. Bb5 $1 { [%emt 0:00:02] [%clk 0:02:57] } *";
        let mut visitor = ReportVisitor::new(true);
        bitboards_pgn::Reader::new(pgn.as_bytes())
            .read_game(&mut visitor)
            .unwrap();
        assert_eq!(
            std::str::from_utf8(visitor.clocks()).unwrap(),
            "180, null, 3723.25, 178.5, 177"
        );
        assert_eq!(
            std::str::from_utf8(visitor.evals()).unwrap(),
            "{\"cp\": 20}, null, {\"mate\": -2}, {\"cp\": -35}, null"
        );
        let mut record = RecordVisitor::default();
        bitboards_pgn::Reader::new(pgn.as_bytes())
            .read_game(&mut record)
            .unwrap();
        assert_eq!(record.record().clocks.len(), 5);
        assert_eq!(record.record().evals[2], Some(Score::Mate(-2)));
    }
}
