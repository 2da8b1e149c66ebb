//! The bitboard expression language of the `bitboards` command and of its
//! web page: one tokenizer and one Pratt parser, with byte spans for every
//! error, evaluated over the `bitboards` crate's own lookups.
//!
//! An expression names a set of squares:
//!
//! | form | meaning |
//! | --- | --- |
//! | `0x0000000004000000`, `67108864`, `0b1_0000` | a number, in the chosen [`Numbering`] (`_` may separate digits) |
//! | `e4` | one square |
//! | `file_a`, `rank_1`, `light_squares`, ... | any name `Bitboard::from_name` knows |
//! | `knight(g5)`, `king(e1)`, `pawn(white, e4)`, `pawn_push(black, e7)` | attacks (of every square in the set) |
//! | `rook(d4, d6 \| f4)`, `bishop(..)`, `queen(..)` | slider attacks; the occupied squares are optional |
//! | `between(a1, h8)`, `line(c2, e4)`, `diagonal(c1)`, `anti_diagonal(c1)` | rays, from one square each |
//! | `north(x)` .. `south_west(x)`, `flip(x)`, `mirror(x)`, `flip_diagonal(x)` | the board shifted or turned |
//! | `-` as an operand | a diagram supplied by the caller (the command reads standard input) |
//!
//! Operators, tightest first, as in Rust: `!` or `~` (complement); `-` (set
//! difference, at Rust's `-` level); `<< n` and `>> n` (a numeric shift of
//! the number in the chosen numbering, `n` from 0 to 63); `&`; `^`; `|`;
//! and `,` (union, loosest: `e4,d5`). All binary operators are
//! left-associative; parentheses group.
//!
//! Evaluation happens while parsing (syntax-directed), so there is no tree
//! to walk or drop: the only recursion is nesting, which is capped. Bad
//! input of any kind is an [`ExprError`], never a panic.
//!
//! The crate has no terminal dependencies: the `bitboards` command and the
//! WebAssembly page both use it. The optional `clap` feature derives
//! `clap::ValueEnum` for [`Numbering`].
//!
//! ```
//! use bitboards::{masks, Square};
//! use bitboards_expr::{evaluate, Numbering};
//!
//! let no_stdin = || -> std::io::Result<String> { Ok(String::new()) };
//! let board = evaluate("file_a & !rank_1 - a8", Numbering::Lerf, no_stdin).unwrap();
//! assert_eq!(board, masks::FILE_A - Square::A1.bitboard() - Square::A8.bitboard());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod numbering;
pub mod text;

pub use numbering::Numbering;

use core::fmt;
use core::iter::Peekable;
use core::ops::Range;
use core::str::CharIndices;

use bitboards::{Bitboard, Color, FromName, Square, attacks, masks};

/// Nesting deeper than this (parentheses, calls, `!`) is an error rather
/// than a risk to the stack.
const MAX_NESTING: usize = 128;

/// What an operand may be, for error messages.
const OPERAND: &str = "a square such as `e4`, a name such as `file_a`, a number, \
                       a function such as `knight(g5)`, `!`, `(`, or `-` (a diagram on standard input)";

/// An expression that could not be read or evaluated: what was expected,
/// and the byte range of the offending token in the expression (or the
/// place in standard input, for a bad diagram there).
///
/// ```
/// use bitboards_expr::{evaluate, Numbering};
///
/// let error = evaluate("e4 | fil_a", Numbering::Lerf, || Ok(String::new())).unwrap_err();
/// assert_eq!(error.span(), 5..10);
/// assert!(error.message().contains("did you mean `file_a`?"));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ExprError {
    message: String,
    span: Range<usize>,
    stdin_excerpt: Option<StdinExcerpt>,
}

/// The line of standard input that a diagram error points at.
#[derive(Clone, PartialEq, Eq, Debug)]
struct StdinExcerpt {
    line_number: usize,
    line: String,
    column: usize,
}

impl ExprError {
    fn new(span: Range<usize>, message: impl Into<String>) -> ExprError {
        ExprError {
            message: message.into(),
            span,
            stdin_excerpt: None,
        }
    }

    /// The sentence saying what is wrong and what was expected.
    ///
    /// ```
    /// use bitboards_expr::{evaluate, Numbering};
    ///
    /// let error = evaluate("(e4", Numbering::Lerf, || Ok(String::new())).unwrap_err();
    /// assert_eq!(error.message(), "expected `)` to close the `(` at column 1, found the end of the expression");
    /// ```
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The byte range in the expression of the token the error is about
    /// (an empty range at the end for a missing token).
    ///
    /// ```
    /// use bitboards_expr::{evaluate, Numbering};
    ///
    /// let error = evaluate("e4 |", Numbering::Lerf, || Ok(String::new())).unwrap_err();
    /// assert_eq!(error.span(), 4..4);
    /// ```
    #[must_use]
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    /// The message, then the expression (or the line of standard input at
    /// fault) with carets under the offending part, as the command prints
    /// it.
    ///
    /// ```
    /// use bitboards_expr::{evaluate, Numbering};
    ///
    /// let source = "knight(g5) | fil_a";
    /// let error = evaluate(source, Numbering::Lerf, || Ok(String::new())).unwrap_err();
    /// let lines: Vec<String> = error.render(source).lines().map(String::from).collect();
    /// assert_eq!(lines[1], "  knight(g5) | fil_a");
    /// assert_eq!(lines[2], "               ^^^^^");
    /// ```
    #[must_use]
    pub fn render(&self, source: &str) -> String {
        let mut out = format!("error: {}\n", self.message);
        match &self.stdin_excerpt {
            Some(excerpt) => {
                let prefix = format!("  stdin:{}: ", excerpt.line_number);
                out.push_str(&prefix);
                out.push_str(&printable(&excerpt.line));
                out.push('\n');
                let indent = prefix.chars().count() + excerpt.column.saturating_sub(1);
                out.push_str(&" ".repeat(indent));
                out.push_str("^\n");
            }
            None => {
                let start = self.span.start.min(source.len());
                let end = self.span.end.clamp(start, source.len());
                let before = source.get(..start).map_or(0, |s| s.chars().count());
                let width = source.get(start..end).map_or(0, |s| s.chars().count());
                out.push_str("  ");
                out.push_str(&printable(source));
                out.push('\n');
                out.push_str(&" ".repeat(2 + before));
                out.push_str(&"^".repeat(width.max(1)));
                out.push('\n');
            }
        }
        out
    }
}

/// One column per character: control characters (a tab, a newline) become
/// spaces so the caret line stays aligned.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExprError {}

/// Evaluates `source` to a bitboard. Numbers are read in `numbering`;
/// `read_stdin` is called (at most once) when the expression uses `-`.
///
/// ```
/// use bitboards::Square;
/// use bitboards_expr::{evaluate, Numbering};
///
/// let f5 = evaluate("0x0000000004000000", Numbering::Berbef, || Ok(String::new())).unwrap();
/// assert_eq!(f5, Square::F5.bitboard());
///
/// let diagram = || Ok(Square::D6.bitboard().to_string());
/// let board = evaluate("- | f4", Numbering::Lerf, diagram).unwrap();
/// assert_eq!(board, Square::D6.bitboard() | Square::F4.bitboard());
/// ```
pub fn evaluate(
    source: &str,
    numbering: Numbering,
    read_stdin: impl FnMut() -> std::io::Result<String>,
) -> Result<Bitboard, ExprError> {
    if source.trim().is_empty() {
        return Err(ExprError::new(
            0..source.len(),
            format!("the expression is empty; expected {OPERAND}"),
        ));
    }
    let tokens = tokenize(source)?;
    let mut parser = Parser {
        source,
        tokens,
        position: 0,
        nesting: 0,
        numbering,
        read_stdin: Box::new(read_stdin),
        stdin_board: None,
    };
    let result = parser.expression(0)?;
    let next = parser.peek().clone();
    if next.kind != TokenKind::End {
        return Err(parser.trailing_token_error(&result, &next));
    }
    parser.board(result)
}

// ---------------------------------------------------------------- tokens

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TokenKind {
    Number(u64),
    Identifier,
    Or,
    And,
    Xor,
    Not,
    Minus,
    ShiftLeft,
    ShiftRight,
    OpenParen,
    CloseParen,
    Comma,
    End,
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Token {
    kind: TokenKind,
    span: Range<usize>,
}

fn tokenize(source: &str) -> Result<Vec<Token>, ExprError> {
    let mut tokens = Vec::new();
    let mut chars = source.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let single = |kind| Token {
            kind,
            span: start..start + c.len_utf8(),
        };
        let token = match c {
            '|' => single(TokenKind::Or),
            '&' => single(TokenKind::And),
            '^' => single(TokenKind::Xor),
            '!' | '~' => single(TokenKind::Not),
            '-' => single(TokenKind::Minus),
            '(' => single(TokenKind::OpenParen),
            ')' => single(TokenKind::CloseParen),
            ',' => single(TokenKind::Comma),
            '<' | '>' => {
                let token = shift(source, start, c)?;
                chars.next();
                token
            }
            c if c.is_ascii_alphanumeric() || c == '_' => {
                tokens.push(word(source, &mut chars, start, c)?);
                continue;
            }
            other => {
                return Err(ExprError::new(
                    start..start + other.len_utf8(),
                    format!(
                        "unexpected `{}`; expected {OPERAND}, or an operator: `|`, `&`, `^`, `-`, `<<`, `>>`, `,`",
                        other.escape_debug()
                    ),
                ));
            }
        };
        chars.next();
        tokens.push(token);
    }
    tokens.push(Token {
        kind: TokenKind::End,
        span: source.len()..source.len(),
    });
    Ok(tokens)
}

/// The shift `<<` or `>>` at `start` in `source`, where `c` is its first
/// character; an error for a single `<` or `>`.
fn shift(source: &str, start: usize, c: char) -> Result<Token, ExprError> {
    let doubled = source[start + 1..].starts_with(c);
    if !doubled {
        let name = if c == '<' { "<<" } else { ">>" };
        return Err(ExprError::new(
            start..start + 1,
            format!(
                "a single `{c}` means nothing here; expected `{name}`, a shift such as `x {name} 8`"
            ),
        ));
    }
    Ok(Token {
        kind: if c == '<' {
            TokenKind::ShiftLeft
        } else {
            TokenKind::ShiftRight
        },
        span: start..start + 2,
    })
}

/// The word (ASCII letters, digits and `_`) at `start`, whose first character
/// is `first`, taken from `chars`: a number when it starts with a digit.
fn word(
    source: &str,
    chars: &mut Peekable<CharIndices<'_>>,
    start: usize,
    first: char,
) -> Result<Token, ExprError> {
    let mut end = start;
    while let Some(&(i, c)) = chars.peek() {
        if !(c.is_ascii_alphanumeric() || c == '_') {
            break;
        }
        end = i + c.len_utf8();
        chars.next();
    }
    let kind = if first.is_ascii_digit() {
        TokenKind::Number(read_number(source, start..end)?)
    } else {
        TokenKind::Identifier
    };
    Ok(Token {
        kind,
        span: start..end,
    })
}

/// Reads a number word (`0x..`, `0b..`, `0o..` or decimal, `_` allowed
/// between digits).
fn read_number(source: &str, span: Range<usize>) -> Result<u64, ExprError> {
    let word = &source[span.clone()];
    let (radix, digits_start, kind) = match word.get(..2) {
        Some("0x" | "0X") => (16, 2, "hex"),
        Some("0b" | "0B") => (2, 2, "binary"),
        Some("0o" | "0O") => (8, 2, "octal"),
        _ => (10, 0, "decimal"),
    };
    let mut value = 0u64;
    let mut digits = 0usize;
    for (offset, c) in word[digits_start..].char_indices() {
        if c == '_' {
            continue;
        }
        let at = span.start + digits_start + offset;
        let Some(digit) = c.to_digit(radix) else {
            let hint = match radix {
                16 => "hex digits are 0-9 and a-f",
                2 => "binary digits are 0 and 1",
                8 => "octal digits are 0-7",
                _ => "hex numbers start with `0x`, binary ones with `0b`",
            };
            return Err(ExprError::new(
                at..at + c.len_utf8(),
                format!("`{c}` is not a {kind} digit; {hint}"),
            ));
        };
        digits += 1;
        value = value
            .checked_mul(u64::from(radix))
            .and_then(|v| v.checked_add(u64::from(digit)))
            .ok_or_else(|| {
                ExprError::new(
                    span.clone(),
                    format!("`{word}` does not fit in 64 bits; a bitboard is a 64-bit number"),
                )
            })?;
    }
    if digits == 0 {
        return Err(ExprError::new(
            span,
            format!("`{word}` has no digits; expected {kind} digits after the prefix"),
        ));
    }
    Ok(value)
}

// ---------------------------------------------------------------- parser

/// A value while evaluating: a set of squares, or a colour (only ever the
/// first argument of `pawn` and `pawn_push`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Value {
    Board(Bitboard),
    Color(Color),
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Spanned {
    value: Value,
    span: Range<usize>,
}

/// The infix operators with their left and right binding powers, loosest
/// first. Each right power is one more than its left: left-associative.
fn infix_binding_power(kind: TokenKind) -> Option<(u8, u8)> {
    Some(match kind {
        TokenKind::Comma => (1, 2),
        TokenKind::Or => (3, 4),
        TokenKind::Xor => (5, 6),
        TokenKind::And => (7, 8),
        TokenKind::ShiftLeft | TokenKind::ShiftRight => (9, 10),
        TokenKind::Minus => (11, 12),
        _ => return None,
    })
}

/// `!` binds tighter than every infix operator.
const PREFIX_NOT_POWER: u8 = 13;
/// A call's arguments are separated by commas, so each is parsed above `,`.
const ARGUMENT_POWER: u8 = 2;

struct Parser<'a> {
    source: &'a str,
    tokens: Vec<Token>,
    position: usize,
    nesting: usize,
    numbering: Numbering,
    read_stdin: Box<dyn FnMut() -> std::io::Result<String> + 'a>,
    stdin_board: Option<Bitboard>,
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        // `tokenize` always ends with `End`, and `advance` never moves past it.
        &self.tokens[self.position.min(self.tokens.len() - 1)]
    }

    fn advance(&mut self) -> Token {
        let token = self.peek().clone();
        if token.kind != TokenKind::End {
            self.position += 1;
        }
        token
    }

    fn text(&self, span: &Range<usize>) -> &str {
        self.source.get(span.clone()).unwrap_or("")
    }

    fn describe(&self, token: &Token) -> String {
        match token.kind {
            TokenKind::End => "the end of the expression".to_owned(),
            _ => format!("`{}`", self.text(&token.span)),
        }
    }

    fn column_of(&self, byte: usize) -> usize {
        self.source.get(..byte).map_or(0, |s| s.chars().count()) + 1
    }

    fn expected(&self, what: &str, token: &Token) -> ExprError {
        ExprError::new(
            token.span.clone(),
            format!("expected {what}, found {}", self.describe(token)),
        )
    }

    fn expression(&mut self, min_power: u8) -> Result<Spanned, ExprError> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            let token = self.peek().clone();
            return Err(ExprError::new(
                token.span,
                format!("the expression nests more than {MAX_NESTING} levels deep"),
            ));
        }
        let mut left = self.operand()?;
        loop {
            let operator = self.peek().clone();
            let Some((left_power, right_power)) = infix_binding_power(operator.kind) else {
                break;
            };
            if left_power < min_power {
                break;
            }
            self.advance();
            left = match operator.kind {
                TokenKind::ShiftLeft | TokenKind::ShiftRight => self.shift(left, &operator)?,
                _ => {
                    let right = self.expression(right_power)?;
                    let (a, b) = (self.board(left.clone())?, self.board(right.clone())?);
                    let value = match operator.kind {
                        TokenKind::Comma | TokenKind::Or => a | b,
                        TokenKind::Xor => a ^ b,
                        TokenKind::And => a & b,
                        _ => a - b,
                    };
                    Spanned {
                        value: Value::Board(value),
                        span: left.span.start..right.span.end,
                    }
                }
            };
        }
        self.nesting -= 1;
        Ok(left)
    }

    /// `x << n` shifts the number as written in the chosen numbering, so
    /// `<<` means what it means in code written for that numbering.
    fn shift(&mut self, left: Spanned, operator: &Token) -> Result<Spanned, ExprError> {
        let amount_token = self.advance();
        let name = self.text(&operator.span).to_owned();
        let TokenKind::Number(amount) = amount_token.kind else {
            return Err(self.expected(
                &format!("the shift amount after `{name}`, a number from 0 to 63"),
                &amount_token,
            ));
        };
        if amount > 63 {
            return Err(ExprError::new(
                amount_token.span,
                format!(
                    "a shift moves 0 to 63 bits; `{name} {amount}` would move every square off the board"
                ),
            ));
        }
        let number = self.numbering.to_number(self.board(left.clone())?);
        let shifted = if operator.kind == TokenKind::ShiftLeft {
            number << amount
        } else {
            number >> amount
        };
        Ok(Spanned {
            value: Value::Board(self.numbering.to_board(shifted)),
            span: left.span.start..amount_token.span.end,
        })
    }

    fn operand(&mut self) -> Result<Spanned, ExprError> {
        let token = self.advance();
        let span = token.span.clone();
        match token.kind {
            TokenKind::Number(number) => Ok(Spanned {
                value: Value::Board(self.numbering.to_board(number)),
                span,
            }),
            TokenKind::Identifier if self.peek().kind == TokenKind::OpenParen => self.call(token),
            TokenKind::Identifier => Ok(Spanned {
                value: self.name(&span)?,
                span,
            }),
            TokenKind::OpenParen => {
                let inner = self.expression(0)?;
                let close = self.advance();
                if close.kind != TokenKind::CloseParen {
                    let what = format!(
                        "`)` to close the `(` at column {}",
                        self.column_of(span.start)
                    );
                    return Err(self.unexpected_after_operand(&inner, &close, &what));
                }
                Ok(Spanned {
                    value: inner.value,
                    span: span.start..close.span.end,
                })
            }
            TokenKind::Not => {
                let operand = self.expression(PREFIX_NOT_POWER)?;
                let board = self.board(operand.clone())?;
                Ok(Spanned {
                    value: Value::Board(!board),
                    span: span.start..operand.span.end,
                })
            }
            TokenKind::Minus => {
                let next = self.peek().kind;
                let starts_operand = matches!(
                    next,
                    TokenKind::Number(_)
                        | TokenKind::Identifier
                        | TokenKind::OpenParen
                        | TokenKind::Not
                );
                if starts_operand {
                    return Err(ExprError::new(
                        span,
                        "`-` is set difference and needs a left operand (`file_a - a1`); \
                         for the complement write `!` or `~`, and `-` alone reads a diagram \
                         from standard input",
                    ));
                }
                Ok(Spanned {
                    value: Value::Board(self.stdin(&span)?),
                    span,
                })
            }
            _ => Err(self.expected(OPERAND, &token)),
        }
    }

    /// The error for a token that cannot follow a complete operand.
    fn unexpected_after_operand(&self, operand: &Spanned, token: &Token, what: &str) -> ExprError {
        let starts_operand = matches!(
            token.kind,
            TokenKind::Number(_) | TokenKind::Identifier | TokenKind::OpenParen | TokenKind::Not
        );
        if starts_operand {
            ExprError::new(
                token.span.clone(),
                format!(
                    "expected an operator (`|`, `&`, `^`, `-`, `<<`, `>>`) or `,` between `{}` and {}, or {what}",
                    self.text(&operand.span),
                    self.describe(token)
                ),
            )
        } else {
            self.expected(what, token)
        }
    }

    fn trailing_token_error(&self, operand: &Spanned, token: &Token) -> ExprError {
        if token.kind == TokenKind::CloseParen {
            return ExprError::new(
                token.span.clone(),
                "unexpected `)`; there is no `(` open for it to close",
            );
        }
        self.unexpected_after_operand(operand, token, "the end of the expression")
    }

    fn name(&self, span: &Range<usize>) -> Result<Value, ExprError> {
        let written = self.text(span);
        let name = written.to_ascii_lowercase();
        match name.as_str() {
            "white" => return Ok(Value::Color(Color::White)),
            "black" => return Ok(Value::Color(Color::Black)),
            _ => {}
        }
        if let Ok(board) = Bitboard::from_name(&name) {
            return Ok(Value::Board(board));
        }
        if FUNCTIONS.iter().any(|f| f.name == name) {
            return Err(ExprError::new(
                span.clone(),
                format!(
                    "`{written}` is a function; call it with its arguments, as in `{name}({})`",
                    signature(&name)
                ),
            ));
        }
        let looks_like_square = name.len() == 2
            && name.as_bytes()[0].is_ascii_alphabetic()
            && name.as_bytes()[1].is_ascii_digit();
        if looks_like_square && let Err(error) = name.parse::<Square>() {
            return Err(ExprError::new(
                span.clone(),
                format!("`{written}` is not a square: {error}"),
            ));
        }
        let known = bitboards::tables::NAMES.keys().chain(["white", "black"]);
        let suggestion = closest(&name, known)
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        Err(ExprError::new(
            span.clone(),
            format!(
                "unknown name `{written}`{suggestion}; a name is a square (`e4`), a file or rank \
                 (`file_a`, `rank_1`), a region (`light_squares`, `dark_squares`, `center`, \
                 `big_center`, `edges`, `corners`, `back_ranks`, `kingside`, `queenside`), \
                 `empty` or `full`"
            ),
        ))
    }

    fn stdin(&mut self, span: &Range<usize>) -> Result<Bitboard, ExprError> {
        if let Some(board) = self.stdin_board {
            return Ok(board);
        }
        let text = (self.read_stdin)().map_err(|error| {
            ExprError::new(
                span.clone(),
                format!(
                    "`-` reads a diagram from standard input, which could not be read: {error}"
                ),
            )
        })?;
        let diagram = diagram_lines(&text);
        let board = diagram.parse::<Bitboard>().map_err(|error| {
            let line_text = text
                .lines()
                .nth(error.line().saturating_sub(1))
                .unwrap_or("");
            ExprError {
                message: format!(
                    "`-` reads a diagram from standard input, and line {} there is wrong: {}",
                    error.line(),
                    error.kind()
                ),
                span: span.clone(),
                stdin_excerpt: Some(StdinExcerpt {
                    line_number: error.line(),
                    line: line_text.to_owned(),
                    column: error.column(),
                }),
            }
        })?;
        self.stdin_board = Some(board);
        Ok(board)
    }

    /// A set of squares, or an error if `value` is a colour.
    fn board(&self, value: Spanned) -> Result<Bitboard, ExprError> {
        match value.value {
            Value::Board(board) => Ok(board),
            Value::Color(_) => Err(ExprError::new(
                value.span.clone(),
                format!(
                    "`{}` is a colour, not a set of squares; a colour is only the first argument of `pawn` and `pawn_push`",
                    self.text(&value.span)
                ),
            )),
        }
    }

    fn call(&mut self, name_token: Token) -> Result<Spanned, ExprError> {
        let open = self.advance();
        let written = self.text(&name_token.span).to_owned();
        let name = written.to_ascii_lowercase();
        let Some(function) = FUNCTIONS.iter().find(|f| f.name == name) else {
            let suggestion = closest(&name, FUNCTIONS.iter().map(|f| f.name))
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            let all: Vec<&str> = FUNCTIONS.iter().map(|f| f.name).collect();
            return Err(ExprError::new(
                name_token.span,
                format!(
                    "unknown function `{written}`{suggestion}; the functions are {}",
                    all.join(", ")
                ),
            ));
        };
        let mut arguments = Vec::new();
        let close = if self.peek().kind == TokenKind::CloseParen {
            self.advance()
        } else {
            loop {
                let argument = self.expression(ARGUMENT_POWER)?;
                let separator = self.advance();
                let done = match separator.kind {
                    TokenKind::Comma => false,
                    TokenKind::CloseParen => true,
                    _ => {
                        let what = format!(
                            "`,` or `)` to close the `(` of `{written}` at column {}",
                            self.column_of(open.span.start)
                        );
                        return Err(self.unexpected_after_operand(&argument, &separator, &what));
                    }
                };
                arguments.push(argument);
                if done {
                    break separator;
                }
            }
        };
        let span = name_token.span.start..close.span.end;
        if !function.arity.contains(&arguments.len()) {
            let count = arguments.len();
            let plural = if count == 1 { "" } else { "s" };
            // Point at the extra arguments, or at the whole call when some are missing.
            let blamed = match arguments.get(function.arity.end - 1..) {
                Some([first, .., last]) | Some([first @ last]) => first.span.start..last.span.end,
                _ => span,
            };
            return Err(ExprError::new(
                blamed,
                format!(
                    "`{name}` takes {}, as in `{name}({})`; found {count} argument{plural}",
                    function.arguments, function.example
                ),
            ));
        }
        let value = (function.apply)(self, &arguments)?;
        Ok(Spanned {
            value: Value::Board(value),
            span,
        })
    }

    /// The only square of an argument, or an error saying how many it has.
    fn square(&self, argument: &Spanned, function: &str) -> Result<Square, ExprError> {
        let board = self.board(argument.clone())?;
        match (board.first(), board.count()) {
            (Some(square), 1) => Ok(square),
            (_, count) => Err(ExprError::new(
                argument.span.clone(),
                format!(
                    "`{function}` needs one square here; `{}` holds {count}",
                    self.text(&argument.span)
                ),
            )),
        }
    }

    fn color(&self, argument: &Spanned) -> Result<Color, ExprError> {
        match argument.value {
            Value::Color(color) => Ok(color),
            Value::Board(_) => Err(ExprError::new(
                argument.span.clone(),
                format!(
                    "expected a colour, `white` or `black`, found `{}`",
                    self.text(&argument.span)
                ),
            )),
        }
    }

    /// The union of `attack(square)` over every square of `argument`.
    fn each_square(
        &self,
        argument: &Spanned,
        attack: impl Fn(Square) -> Bitboard,
    ) -> Result<Bitboard, ExprError> {
        Ok(self
            .board(argument.clone())?
            .iter()
            .fold(Bitboard::EMPTY, |all, square| all | attack(square)))
    }
}

/// A function of the language: its name, how many arguments it takes, a
/// description and an example of them for messages, and what it computes.
struct Function {
    name: &'static str,
    arity: Range<usize>,
    arguments: &'static str,
    example: &'static str,
    apply: fn(&Parser<'_>, &[Spanned]) -> Result<Bitboard, ExprError>,
}

fn signature(name: &str) -> &'static str {
    FUNCTIONS
        .iter()
        .find(|f| f.name == name)
        .map_or("", |f| f.example)
}

macro_rules! board_function {
    ($name:literal, $method:ident) => {
        Function {
            name: $name,
            arity: 1..2,
            arguments: "one set of squares",
            example: "e4 | d5",
            apply: |parser, args| Ok(parser.board(args[0].clone())?.$method()),
        }
    };
}

/// Attack sets are the union over every square of the first argument, so
/// `knight(b1 | g1)` is where either knight goes.
const FUNCTIONS: &[Function] = &[
    Function {
        name: "knight",
        arity: 1..2,
        arguments: "the knights' squares",
        example: "g5",
        apply: |parser, args| parser.each_square(&args[0], attacks::knight),
    },
    Function {
        name: "king",
        arity: 1..2,
        arguments: "the king's square",
        example: "e1",
        apply: |parser, args| parser.each_square(&args[0], attacks::king),
    },
    Function {
        name: "pawn",
        arity: 2..3,
        arguments: "a colour and the pawns' squares",
        example: "white, e4",
        apply: |parser, args| {
            let color = parser.color(&args[0])?;
            parser.each_square(&args[1], |square| attacks::pawn(color, square))
        },
    },
    Function {
        name: "pawn_push",
        arity: 2..3,
        arguments: "a colour and the pawns' squares",
        example: "white, e2",
        apply: |parser, args| {
            let color = parser.color(&args[0])?;
            parser.each_square(&args[1], |square| attacks::pawn_push(color, square))
        },
    },
    Function {
        name: "rook",
        arity: 1..3,
        arguments: "the rooks' squares and optionally the occupied squares",
        example: "d4, d6 | f4",
        apply: |parser, args| slider(parser, args, attacks::rook),
    },
    Function {
        name: "bishop",
        arity: 1..3,
        arguments: "the bishops' squares and optionally the occupied squares",
        example: "c1, e3",
        apply: |parser, args| slider(parser, args, attacks::bishop),
    },
    Function {
        name: "queen",
        arity: 1..3,
        arguments: "the queens' squares and optionally the occupied squares",
        example: "d1, d2 | e2",
        apply: |parser, args| slider(parser, args, attacks::queen),
    },
    Function {
        name: "between",
        arity: 2..3,
        arguments: "two squares",
        example: "a1, h8",
        apply: |parser, args| {
            let (a, b) = (
                parser.square(&args[0], "between")?,
                parser.square(&args[1], "between")?,
            );
            Ok(bitboards::between(a, b))
        },
    },
    Function {
        name: "line",
        arity: 2..3,
        arguments: "two squares",
        example: "c2, e4",
        apply: |parser, args| {
            let (a, b) = (
                parser.square(&args[0], "line")?,
                parser.square(&args[1], "line")?,
            );
            Ok(bitboards::line(a, b))
        },
    },
    Function {
        name: "diagonal",
        arity: 1..2,
        arguments: "one square",
        example: "c1",
        apply: |parser, args| Ok(masks::diagonal(parser.square(&args[0], "diagonal")?)),
    },
    Function {
        name: "anti_diagonal",
        arity: 1..2,
        arguments: "one square",
        example: "c1",
        apply: |parser, args| {
            Ok(masks::anti_diagonal(
                parser.square(&args[0], "anti_diagonal")?,
            ))
        },
    },
    board_function!("north", north),
    board_function!("south", south),
    board_function!("east", east),
    board_function!("west", west),
    board_function!("north_east", north_east),
    board_function!("north_west", north_west),
    board_function!("south_east", south_east),
    board_function!("south_west", south_west),
    board_function!("flip", flip_ranks),
    board_function!("mirror", mirror_files),
    board_function!("flip_diagonal", flip_diagonal),
];

fn slider(
    parser: &Parser<'_>,
    args: &[Spanned],
    attack: fn(Square, Bitboard) -> Bitboard,
) -> Result<Bitboard, ExprError> {
    let occupied = match args.get(1) {
        Some(occupied) => parser.board(occupied.clone())?,
        None => Bitboard::EMPTY,
    };
    parser.each_square(&args[0], |square| attack(square, occupied))
}

/// Keeps only the diagram in text read from standard input, so the output
/// of `bitboards show` and a pasted `bitboard! { .. }` literal both read
/// back. Dropped lines become blank (the grammar skips blank lines), so
/// line numbers in errors still match the input.
fn diagram_lines(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut after_file_labels = false;
    for line in text.lines() {
        let trimmed = line.trim();
        let is_wrapper = trimmed.ends_with('{') || trimmed == "}" || trimmed == "};";
        if !after_file_labels && !is_wrapper {
            kept.push_str(line);
        }
        if trimmed
            .split_whitespace()
            .eq("abcdefgh".split("").filter(|s| !s.is_empty()))
        {
            after_file_labels = true;
        }
        kept.push('\n');
    }
    kept
}

/// The candidate nearest to `word` by edit distance, if it is near enough
/// to be a likely typo.
fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).clamp(1, 3);
    candidates
        .map(|candidate| (edit_distance(word, candidate), candidate))
        .filter(|&(distance, _)| distance <= limit)
        .min()
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance, one row at a time.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("file_a", "file_a"), 0);
        assert_eq!(edit_distance("fil_a", "file_a"), 1);
        assert_eq!(edit_distance("knigth", "knight"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn diagram_lines_keeps_only_the_diagram() {
        let text = "bitboard! {\n8 X . . . . . . .\n  a b c d e f g h\n}\nhex 0x1\n";
        assert_eq!(
            diagram_lines(text),
            "\n8 X . . . . . . .\n  a b c d e f g h\n\n\n"
        );
    }

    #[test]
    fn tokens_carry_byte_spans() {
        let tokens = tokenize("e4 << 0x10,(!x)").unwrap();
        let spans: Vec<_> = tokens.iter().map(|t| t.span.clone()).collect();
        assert_eq!(
            spans,
            [
                0..2,
                3..5,
                6..10,
                10..11,
                11..12,
                12..13,
                13..14,
                14..15,
                15..15
            ]
        );
        assert_eq!(tokens[2].kind, TokenKind::Number(16));
    }
}
