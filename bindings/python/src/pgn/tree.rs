//! `bitboards.pgn.read_game`'s game built in Rust: its tags (`read_tags`),
//! and its movetext read into `Game` and `ChildNode` objects as
//! python-chess's `GameBuilder` makes them (`build_game_tree`).
//!
//! The tokens are those of `pgn.py`'s `MOVETEXT_REGEX`, found as its
//! `search` finds them (leftmost, alternatives in order, anything else
//! skipped), and each is handled as `pgn.py`'s `_visit_movetext` hands it to
//! `GameBuilder`. What this does not handle, it leaves to that Python
//! loop, over the same tokens (`movetext_tokens`): a move that does not
//! parse (the errors are the visitor's to handle, in Python), a null move,
//! a drop, a result inside a variation, a board whose setup the move
//! generator does not take. Then nothing of what was built here counts:
//! `build_game_tree` says so, and the caller hands the tokens to Python.
//! The Python loop is also the reader of any other visitor, whose methods
//! are Python's; the tokenizer is this module's, for both.

use bitboards::{CastlingNotation, Position};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySet, PyString, PyType};

use crate::board::Board;
use crate::board::types::Move;

/// One token of movetext.
#[derive(Debug, PartialEq, Eq)]
enum Token<'a> {
    /// A move, as written (SAN, long algebraic, castling).
    Move(&'a str),
    /// A null move or a drop, as written: the Python reader's.
    Other(&'a str),
    /// A NAG too large for a `u32`, its digits: an int in Python.
    LongNag(&'a str),
    /// A `{ }` comment's text (unclosed: to the end).
    Comment(&'a str, bool),
    Nag(u32),
    Open,
    Close,
    Result(&'static str),
}

/// python-chess's `!`/`?` suffixes as NAGs.
fn suffix_nag(suffix: &[u8]) -> u32 {
    match suffix {
        b"!" => 1,
        b"?" => 2,
        b"!!" => 3,
        b"??" => 4,
        b"!?" => 5,
        _ => 6, // "?!"
    }
}

/// The end of `[NBKRQ]?[a-h]?[1-8]?[-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?` at
/// `at`, with the regex's backtracking: each optional part tried taken
/// first.
fn san_end(bytes: &[u8], at: usize) -> Option<usize> {
    // Every match starts with one of these.
    if !matches!(bytes[at], b'N' | b'B' | b'K' | b'R' | b'Q' | b'a'..=b'h' | b'1'..=b'8' | b'-' | b'x')
    {
        return None;
    }
    let is = |index: usize, test: fn(u8) -> bool| bytes.get(index).copied().is_some_and(test);
    let piece = |b: u8| b"NBKRQ".contains(&b);
    let file = |b: u8| (b'a'..=b'h').contains(&b);
    let rank = |b: u8| (b'1'..=b'8').contains(&b);
    let dash = |b: u8| b == b'-' || b == b'x';
    let tests: [fn(u8) -> bool; 4] = [piece, file, rank, dash];
    // The 16 ways to take or skip the four optional parts, in the order the
    // regex tries them (taken before skipped, left to right).
    for mask in (0..16u8).rev() {
        let mut index = at;
        let mut fits = true;
        for (part, test) in tests.iter().enumerate() {
            if mask & (8 >> part) != 0 {
                if is(index, *test) {
                    index += 1;
                } else {
                    fits = false;
                    break;
                }
            }
        }
        if !fits || !is(index, file) || !is(index + 1, rank) {
            continue;
        }
        index += 2;
        let promotion = |b: u8| b"nbrqkNBRQK".contains(&b);
        if is(index, |b| b == b'=') && is(index + 1, promotion) {
            return Some(index + 2);
        }
        if is(index, promotion) {
            return Some(index + 1);
        }
        return Some(index);
    }
    None
}

/// The other moves of the regex's `move` group at `at`: drops, null moves,
/// castling.
fn other_move_end(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    if !matches!(
        bytes[at],
        b'P' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'@' | b'-' | b'Z' | b'0' | b'O'
    ) {
        return None;
    }
    let rest = &bytes[at..];
    let square = |index: usize| {
        rest.get(index).is_some_and(|b| (b'a'..=b'h').contains(b))
            && rest
                .get(index + 1)
                .is_some_and(|b| (b'1'..=b'8').contains(b))
    };
    // `[PNBRQK]?@[a-h][1-8]`
    let piece = rest.first().is_some_and(|b| b"PNBRQK".contains(b));
    let at_sign = usize::from(piece);
    if rest.get(at_sign) == Some(&b'@') && square(at_sign + 1) {
        return Some((at + at_sign + 3, false));
    }
    for null in [&b"--"[..], b"Z0", b"0000", b"@@@@"] {
        if rest.starts_with(null) {
            return Some((at + null.len(), false));
        }
    }
    for castle in [&b"O-O-O"[..], b"O-O", b"0-0-0", b"0-0"] {
        if rest.starts_with(castle) {
            return Some((at + castle.len(), true));
        }
    }
    None
}

/// The movetext's tokens, as `MOVETEXT_REGEX.search` finds them, with
/// `%` lines and `;` comments left out as the Python reader leaves them.
struct Tokens<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        Tokens { text, at: 0 }
    }

    /// Skips to the next line.
    fn skip_line(&mut self) {
        let bytes = self.text.as_bytes();
        self.at = memchr(b'\n', &bytes[self.at..]).map_or(bytes.len(), |end| self.at + end + 1);
    }
}

fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&b| b == needle)
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let bytes = self.text.as_bytes();
        while self.at < bytes.len() {
            let at = self.at;
            let byte = bytes[at];
            // A `%` escape at a line's start.
            if byte == b'%' && (at == 0 || bytes[at - 1] == b'\n') {
                self.skip_line();
                continue;
            }
            if let Some(end) = san_end(bytes, at) {
                self.at = end;
                return Some(Token::Move(&self.text[at..end]));
            }
            if let Some((end, castle)) = other_move_end(bytes, at) {
                self.at = end;
                let written = &self.text[at..end];
                return Some(if castle {
                    Token::Move(written)
                } else {
                    Token::Other(written)
                });
            }
            match byte {
                b'{' => {
                    let start = at + 1;
                    return Some(match memchr(b'}', &bytes[start..]) {
                        Some(length) => {
                            self.at = start + length + 1;
                            Token::Comment(&self.text[start..start + length], true)
                        }
                        None => {
                            self.at = bytes.len();
                            Token::Comment(&self.text[start..], false)
                        }
                    });
                }
                b';' => {
                    self.skip_line();
                    continue;
                }
                b'$' => {
                    let digits = bytes[at + 1..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    if digits > 0 {
                        self.at = at + 1 + digits;
                        // A NAG too large for python-chess's int is still
                        // an int there; here it is left to Python.
                        let digits = &self.text[at + 1..self.at];
                        return Some(match digits.parse() {
                            Ok(nag) => Token::Nag(nag),
                            Err(_) => Token::LongNag(digits),
                        });
                    }
                }
                b'(' => {
                    self.at = at + 1;
                    return Some(Token::Open);
                }
                b')' => {
                    self.at = at + 1;
                    return Some(Token::Close);
                }
                _ => {}
            }
            for result in ["*", "1-0", "0-1", "1/2-1/2"] {
                if bytes[at..].starts_with(result.as_bytes()) {
                    self.at = at + result.len();
                    return Some(Token::Result(result));
                }
            }
            if byte == b'!' || byte == b'?' {
                let length = if bytes.get(at + 1).is_some_and(|&b| b == b'!' || b == b'?') {
                    2
                } else {
                    1
                };
                self.at = at + length;
                return Some(Token::Nag(suffix_nag(&bytes[at..at + length])));
            }
            self.at = at + 1;
        }
        None
    }
}

/// A node read but not made yet: made when what follows it can no longer
/// change it (its comment, its NAGs), so that its object is made once.
struct Pending<'py> {
    mv: Bound<'py, Move>,
    comment: String,
    starting_comment: String,
    nags: Vec<u32>,
}

/// One line of play being built: its last node made, the one read after
/// it, and the positions along it from the game's start (the last one
/// after the pending node's move).
struct Level<'py> {
    node: Bound<'py, PyAny>,
    /// The node's `variations` list.
    children: Bound<'py, PyList>,
    pending: Option<Pending<'py>>,
    /// The positions from the game's start along this line.
    positions: Vec<Position>,
}

/// The names of a node's fields, interned.
struct Keys<'py> {
    parent: Bound<'py, PyString>,
    mv: Bound<'py, PyString>,
    variations: Bound<'py, PyString>,
    comment: Bound<'py, PyString>,
    starting_comment: Bound<'py, PyString>,
    nags: Bound<'py, PyString>,
}

/// Makes the pending node of `level` (a `child` object, as
/// `ChildNode.__init__` sets it up) and adds it to its parent's variations.
fn make<'py>(
    level: &mut Level<'py>,
    child: &Bound<'py, PyType>,
    new: &Bound<'py, PyAny>,
    keys: &Keys<'py>,
    empty: &Bound<'py, PyString>,
) -> PyResult<()> {
    let Some(pending) = level.pending.take() else {
        return Ok(());
    };
    let py = child.py();
    let text = |text: &str| {
        if text.is_empty() {
            empty.clone()
        } else {
            PyString::new(py, text)
        }
    };
    let node = new.call1((child,))?;
    let children = PyList::empty(py);
    node.setattr(&keys.parent, &level.node)?;
    node.setattr(&keys.mv, pending.mv)?;
    node.setattr(&keys.variations, &children)?;
    node.setattr(&keys.comment, text(&pending.comment))?;
    node.setattr(&keys.starting_comment, text(&pending.starting_comment))?;
    if pending.nags.is_empty() {
        node.setattr(&keys.nags, py.None())?;
    } else {
        node.setattr(&keys.nags, PySet::new(py, &pending.nags)?)?;
    }
    level.children.append(&node)?;
    level.node = node;
    level.children = children;
    Ok(())
}

/// python-chess's comment joining: with a space where both have text.
fn join(first: &mut String, second: &str) {
    if !first.is_empty() && !second.is_empty() {
        first.push(' ');
    }
    first.push_str(second);
}

/// Builds the tree of `text`, one game's movetext, under `game` (a fresh
/// `Game`) with `child` (`ChildNode`) nodes, from `board`'s position:
/// whether the text ended outside a comment (an empty line there does not
/// end the game: read on, and build again), and the top-level results met,
/// in order. None when the Python reader must read it (see the module's
/// doc). Either way short of a complete tree, `game`'s variations,
/// comment and NAGs are to be reset.
#[pyfunction]
pub fn build_game_tree<'py>(
    game: &Bound<'py, PyAny>,
    child: &Bound<'py, PyType>,
    board: PyRef<'py, Board>,
    text: &str,
) -> PyResult<Option<(bool, Vec<&'static str>)>> {
    if board.is_loose() {
        return Ok(None);
    }
    let notation = board.castling_notation();
    let start = *board.position();
    drop(board);
    build(game, child, start, notation, text)
}

fn build<'py>(
    game: &Bound<'py, PyAny>,
    child: &Bound<'py, PyType>,
    start: Position,
    notation: CastlingNotation,
    text: &str,
) -> PyResult<Option<(bool, Vec<&'static str>)>> {
    let py = game.py();
    let objects = Move::objects(py)?;
    let new = py.get_type::<PyAny>().getattr(intern!(py, "__new__"))?;
    let keys = Keys {
        parent: intern!(py, "parent").clone(),
        mv: intern!(py, "move").clone(),
        variations: intern!(py, "variations").clone(),
        comment: intern!(py, "comment").clone(),
        starting_comment: intern!(py, "starting_comment").clone(),
        nags: intern!(py, "_nags").clone(),
    };
    let empty = PyString::new(py, "");
    let mut levels = vec![Level {
        node: game.clone(),
        children: game.getattr(&keys.variations)?.cast_into::<PyList>()?,
        pending: None,
        positions: vec![start],
    }];
    let mut results = Vec::new();
    let mut starting_comment = String::new();
    let mut in_variation = false;
    let mut complete = true;
    for token in Tokens::new(text) {
        let depth = levels.len();
        let level = levels.last_mut().expect("the main line is never popped");
        match token {
            Token::Move(san) => {
                let position = *level.positions.last().expect("a line starts somewhere");
                let Ok(mv) = position.parse_san(san) else {
                    return Ok(None);
                };
                make(level, child, &new, &keys, &empty)?;
                level.pending = Some(Pending {
                    mv: Move::from_move(mv, notation).shared(py, objects),
                    comment: String::new(),
                    starting_comment: std::mem::take(&mut starting_comment),
                    nags: Vec::new(),
                });
                let mut after = position;
                after.play_unchecked_in_place(mv);
                level.positions.push(after);
                in_variation = true;
            }
            Token::Other(_) | Token::LongNag(_) => return Ok(None),
            Token::Comment(text, closed) => {
                let mut text = text.strip_prefix(' ').unwrap_or(text);
                if closed {
                    text = text.strip_suffix(' ').unwrap_or(text);
                }
                let at_start = level.positions.len() == 1 && level.children.is_empty();
                if in_variation || at_start {
                    match &mut level.pending {
                        Some(pending) => join(&mut pending.comment, text),
                        None => {
                            let mut comment: String =
                                level.node.getattr(&keys.comment)?.extract()?;
                            join(&mut comment, text);
                            level.node.setattr(&keys.comment, comment)?;
                        }
                    }
                } else {
                    join(&mut starting_comment, text);
                }
                if !closed {
                    complete = false;
                    break;
                }
            }
            Token::Nag(nag) => match &mut level.pending {
                Some(pending) => pending.nags.push(nag),
                None => {
                    // The `nags` property makes the set.
                    level
                        .node
                        .getattr(intern!(py, "nags"))?
                        .call_method1(intern!(py, "add"), (nag,))?;
                }
            },
            Token::Open => {
                // The position before the line's last move (any move since
                // the game's start will do, as in python-chess).
                if level.positions.len() > 1 {
                    make(level, child, &new, &keys, &empty)?;
                    let parent = level.node.getattr(&keys.parent)?;
                    if parent.is_none() {
                        return Ok(None);
                    }
                    let mut positions = level.positions.clone();
                    positions.pop();
                    let children = parent.getattr(&keys.variations)?.cast_into::<PyList>()?;
                    levels.push(Level {
                        node: parent,
                        children,
                        pending: None,
                        positions,
                    });
                    in_variation = false;
                }
            }
            Token::Close => {
                if depth > 1 {
                    make(level, child, &new, &keys, &empty)?;
                    levels.pop();
                }
            }
            Token::Result(result) => {
                if depth > 1 {
                    return Ok(None);
                }
                results.push(result);
            }
        }
    }
    for level in levels.iter_mut().rev() {
        make(level, child, &new, &keys, &empty)?;
    }
    Ok(Some((complete, results)))
}

/// Whitespace as Python's `str.isspace` and `re`'s `\s` have it.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// Whether a line is whitespace only (and not empty), as `str.isspace`.
fn is_blank(line: &str) -> bool {
    !line.is_empty() && line.chars().all(is_py_space)
}

/// `pgn.py`'s `TAG_REGEX` (`^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"([^\r]*)"\]\s*$`):
/// a tag line's name and value.
fn tag(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix('[')?;
    let name_length = rest
        .bytes()
        .enumerate()
        .take_while(|&(index, b)| {
            b.is_ascii_alphanumeric() || (index > 0 && b"_+#=:-".contains(&b))
        })
        .count();
    if name_length == 0 {
        return None;
    }
    let (name, rest) = rest.split_at(name_length);
    let spaced = rest.trim_start_matches(is_py_space);
    if spaced.len() == rest.len() {
        return None;
    }
    let quoted = spaced.strip_prefix('"')?;
    // The value runs to the last `"]`, which only whitespace may follow.
    let value = quoted.trim_end_matches(is_py_space).strip_suffix("\"]")?;
    (!value.contains('\r')).then_some((name, value))
}

/// The tag lines of a game, read as `read_game` reads them: from `line`
/// (the first line that is not empty, an escape or a comment), each next
/// one from `readline()`. Returns the first line after them, whether a
/// game was found, and the tags: the Seven Tag Roster's in `roster` (given
/// with its defaults, updated here), the others in order.
#[pyfunction]
pub fn read_tags<'py>(
    readline: &Bound<'py, PyAny>,
    line: Bound<'py, PyString>,
    roster: &Bound<'py, PyDict>,
) -> PyResult<(Bound<'py, PyString>, bool, Bound<'py, PyDict>)> {
    let py = readline.py();
    let others = PyDict::new(py);
    let mut line = line;
    let mut found_game = false;
    let mut blank_lines = 0;
    loop {
        let next = {
            let text = line.to_cow()?;
            if text.is_empty() {
                break;
            }
            if text.starts_with('%') || text.starts_with(';') {
                true
            } else if blank_lines < 1 && is_blank(&text) {
                blank_lines += 1;
                true
            } else {
                found_game = true;
                if !text.starts_with('[') {
                    break;
                }
                blank_lines = 0;
                if let Some((name, value)) = tag(&text) {
                    let target = if roster.contains(name)? {
                        roster
                    } else {
                        &others
                    };
                    target.set_item(name, value)?;
                }
                true
            }
        };
        if next {
            line = readline.call0()?.cast_into::<PyString>()?;
        }
    }
    Ok((line, found_game, others))
}

/// The tokens of `text`, one game's movetext, for `pgn.py`'s reader of
/// any visitor (`_visit_movetext`): `("move", san)` (null moves and drops
/// too), `("comment", text, closed)`, `("nag", int)`, `("open",)`,
/// `("close",)`, `("result", result)`, found as `build_game_tree` finds
/// them, so that both readers see the same movetext; and whether the text
/// ended outside a comment (an empty line inside one does not end the
/// game: read on).
#[pyfunction]
pub fn movetext_tokens<'py>(py: Python<'py>, text: &str) -> PyResult<(Bound<'py, PyList>, bool)> {
    let tokens = PyList::empty(py);
    let mut complete = true;
    for token in Tokens::new(text) {
        match token {
            Token::Move(written) | Token::Other(written) => {
                tokens.append((intern!(py, "move"), written))?;
            }
            Token::Comment(comment, closed) => {
                complete = closed;
                tokens.append((intern!(py, "comment"), comment, closed))?;
            }
            Token::Nag(nag) => tokens.append((intern!(py, "nag"), nag))?,
            Token::LongNag(digits) => {
                let nag = py.get_type::<pyo3::types::PyInt>().call1((digits,))?;
                tokens.append((intern!(py, "nag"), nag))?;
            }
            Token::Open => tokens.append((intern!(py, "open"),))?,
            Token::Close => tokens.append((intern!(py, "close"),))?,
            Token::Result(result) => tokens.append((intern!(py, "result"), result))?,
        }
    }
    Ok((tokens, complete))
}
