//! The one diagram grammar, shared by `Display`, `FromStr` and the
//! `bitboard!` and `position!` macros.
//!
//! A diagram is eight rows of eight cells, rank 8 on top and file a on the
//! left. In a bitboard's diagram a cell is `X` (the square is set) or `.`
//! (empty); in a position's, a piece's FEN letter (`PNBRQK` White, `pnbrqk`
//! Black) or `.` (see [`Cells`]). Cells may be separated by spaces or written
//! together. Two kinds of label are optional and checked when present:
//!
//! - a rank label, the digit `8` down to `1`, in front of each row (all rows
//!   or none);
//! - a row of file labels, `a b c d e f g h`, under the eighth row.
//!
//! Blank lines and indentation are ignored. This is exactly what
//! [`Bitboard`](crate::Bitboard)'s `Display` prints:
//!
//! ```text
//! 8 . . . . . . . .
//! 7 . . . . . X . X
//! 6 . . . . X . . .
//! 5 . . . . . . . .
//! 4 . . . . X . . .
//! 3 . . . . . X . X
//! 2 . . . . . . . .
//! 1 . . . . . . . .
//!   a b c d e f g h
//! ```
//!
//! # How rows are found
//!
//! Rows follow lines, with one exception. A line break ends a row, unless
//! the row has fewer than eight cells and what follows, up to the next line
//! break, fits in the cells it lacks and does not begin with a rank label:
//! then it joins the row. So a cell whose line is not the row's, such as a
//! `macro_rules!` argument given to `bitboard!` (its line is where that
//! macro was called), still lands in its row, while a short row followed by
//! a full one is reported as short. A row that reads `a b c d e f g h` is
//! the file-label row wherever it stands; any other row is a board row until
//! there are eight of them.
//!
//! [`parse_cells`] holds the rules, for both kinds of diagram; [`parse`] is
//! its bitboard form. It reads [`Symbol`]s, each a character with its line
//! and a position, which is whatever the caller uses to point at its input (a
//! line and column for text, a token span for a macro), and it reports every
//! problem it finds, not just the first.

use core::fmt::{self, Write};

use crate::{File, Rank};

/// What is wrong with a diagram.
///
/// ```
/// use bitboards_core::Bitboard;
/// use bitboards_core::diagram::DiagramErrorKind;
///
/// let error = "X X X".parse::<Bitboard>().unwrap_err();
/// assert_eq!(error.kind(), DiagramErrorKind::RowLength { found: 3 });
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum DiagramErrorKind {
    /// A row has more or fewer than eight cells.
    RowLength {
        /// How many cells the row has.
        found: usize,
    },
    /// A cell of a bitboard's diagram is neither `X` nor `.`.
    UnknownSymbol(char),
    /// A cell of a position's diagram is neither a piece letter nor `.`.
    ///
    /// ```
    /// use bitboards_core::diagram::DiagramErrorKind;
    ///
    /// assert_eq!(
    ///     DiagramErrorKind::UnknownPiece('o').to_string(),
    ///     "unknown symbol `o`; a cell is a piece letter (`PNBRQK` White, `pnbrqk` Black) or `.` (empty)"
    /// );
    /// ```
    UnknownPiece(char),
    /// A rank label is not the rank of its row.
    RankLabel {
        /// The label as written.
        found: char,
        /// The rank the row stands for.
        expected: Rank,
    },
    /// Earlier rows have rank labels, this one does not.
    MissingRankLabel {
        /// The rank the row stands for.
        expected: Rank,
    },
    /// Earlier rows have no rank labels, this one does.
    UnexpectedRankLabel(char),
    /// A file label is not the file of its column.
    FileLabel {
        /// The label as written.
        found: char,
        /// The file of that column, or `None` past file h.
        expected: Option<File>,
    },
    /// The file-label row has fewer than eight labels.
    MissingFileLabels {
        /// How many labels it has.
        found: usize,
    },
    /// A second row of file labels; a diagram has at most one.
    ///
    /// ```
    /// use bitboards_core::Bitboard;
    /// use bitboards_core::diagram::DiagramErrorKind;
    ///
    /// let text = format!("{}\n  a b c d e f g h", Bitboard::EMPTY);
    /// let error = text.parse::<Bitboard>().unwrap_err();
    /// assert_eq!(error.kind(), DiagramErrorKind::RepeatedFileLabels);
    /// assert_eq!((error.line(), error.column()), (10, 3));
    /// ```
    RepeatedFileLabels,
    /// A board row comes after the file-label row.
    RowAfterFileLabels,
    /// The diagram has more than eight board rows.
    TooManyRows,
    /// The diagram has fewer than eight board rows.
    TooFewRows {
        /// How many board rows it has.
        found: usize,
    },
    /// `FromStr` for [`Bitboard`](crate::Bitboard) read a number (one word
    /// starting with a digit) and found a character that is not a digit of
    /// its base.
    ///
    /// ```
    /// use bitboards_core::Bitboard;
    /// use bitboards_core::diagram::DiagramErrorKind;
    ///
    /// let error = "0x1g".parse::<Bitboard>().unwrap_err();
    /// assert_eq!(error.kind(), DiagramErrorKind::NumberDigit { found: 'g', radix: 16 });
    /// assert_eq!(error.column(), 4);
    /// ```
    NumberDigit {
        /// The character.
        found: char,
        /// The base: 16 after `0x`, 2 after `0b`, 8 after `0o`, else 10.
        radix: u32,
    },
    /// A number's prefix (`0x`, `0b`, `0o`) with no digits after it.
    ///
    /// ```
    /// use bitboards_core::Bitboard;
    /// use bitboards_core::diagram::DiagramErrorKind;
    ///
    /// assert_eq!("0b".parse::<Bitboard>().unwrap_err().kind(), DiagramErrorKind::NumberWithoutDigits);
    /// ```
    NumberWithoutDigits,
    /// A number of 65 bits or more.
    ///
    /// ```
    /// use bitboards_core::Bitboard;
    /// use bitboards_core::diagram::DiagramErrorKind;
    ///
    /// let error = "0x1_0000_0000_0000_0000".parse::<Bitboard>().unwrap_err();
    /// assert_eq!(error.kind(), DiagramErrorKind::NumberTooLarge);
    /// ```
    NumberTooLarge,
}

impl fmt::Display for DiagramErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DiagramErrorKind::RowLength { found } => write!(
                f,
                "this row has {}; a row has 8, files a to h",
                Count(found, "cell")
            ),
            DiagramErrorKind::UnknownSymbol(symbol) => write!(
                f,
                "unknown symbol {}{}; a cell is `X` (set) or `.` (empty)",
                Shown(symbol),
                LookAlike(symbol)
            ),
            DiagramErrorKind::UnknownPiece(symbol) => write!(
                f,
                "unknown symbol {}{}; a cell is a piece letter (`PNBRQK` White, `pnbrqk` Black) or `.` (empty)",
                Shown(symbol),
                LookAlikeInPosition(symbol)
            ),
            DiagramErrorKind::RankLabel { found, expected } => write!(
                f,
                "rank label {} is out of order; this row is rank {expected} (rank 8 is on top)",
                Shown(found)
            ),
            DiagramErrorKind::MissingRankLabel { expected } => write!(
                f,
                "this row has no rank label but the rows above have; expected `{expected}`"
            ),
            DiagramErrorKind::UnexpectedRankLabel(found) => write!(
                f,
                "rank label {} on this row but not on the rows above; label all rows or none",
                Shown(found)
            ),
            DiagramErrorKind::FileLabel {
                found,
                expected: Some(file),
            } => write!(
                f,
                "file label {} is wrong; expected `{file}` (the row reads `a b c d e f g h`)",
                Shown(found)
            ),
            DiagramErrorKind::FileLabel {
                found,
                expected: None,
            } => write!(
                f,
                "file label {} after `h`; the row reads `a b c d e f g h`",
                Shown(found)
            ),
            DiagramErrorKind::MissingFileLabels { found } => write!(
                f,
                "the file-label row has {}; it reads `a b c d e f g h`",
                Count(found, "label")
            ),
            DiagramErrorKind::RepeatedFileLabels => f.write_str(
                "a second row of file labels; the diagram has one, under the eighth row",
            ),
            DiagramErrorKind::RowAfterFileLabels => {
                f.write_str("a board row after the file labels; the labels come last")
            }
            DiagramErrorKind::TooManyRows => {
                f.write_str("more than 8 rows; a diagram has one row per rank, 8 down to 1")
            }
            DiagramErrorKind::TooFewRows { found } => write!(
                f,
                "the diagram has {}; it needs 8, one per rank, 8 down to 1",
                Count(found, "row")
            ),
            DiagramErrorKind::NumberDigit { found, radix } => {
                let base = match radix {
                    16 => "hex",
                    2 => "binary",
                    8 => "octal",
                    _ => "decimal",
                };
                write!(
                    f,
                    "{} is not a {base} digit; a bitboard is read from a diagram, or from a number \
                     in hex (`0x10`), binary (`0b1_0000`), octal (`0o20`) or decimal (`16`)",
                    Shown(found)
                )
            }
            DiagramErrorKind::NumberWithoutDigits => {
                f.write_str("the number has no digits after its prefix")
            }
            DiagramErrorKind::NumberTooLarge => f.write_str("the number does not fit in 64 bits"),
        }
    }
}

/// `1 cell`, `2 cells`: a count with its noun in the right number.
struct Count(usize, &'static str);

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Count(count, noun) = *self;
        let plural = if count == 1 { "" } else { "s" };
        write!(f, "{count} {noun}{plural}")
    }
}

/// A character as an error message shows it: printable ASCII as itself in
/// backticks; anything else also by code point, since it may be invisible or
/// look like a character it is not; an invisible one by code point only.
struct Shown(char);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.0;
        let code = c as u32;
        if c.is_ascii_graphic() {
            write!(f, "`{c}`")
        } else if c == '\u{FEFF}' {
            write!(f, "U+{code:04X} (a byte order mark, invisible)")
        } else if is_invisible(c) {
            write!(f, "U+{code:04X} (invisible)")
        } else {
            write!(f, "`{c}` (U+{code:04X})")
        }
    }
}

/// Characters that print as nothing, or as blank space although Rust does
/// not count them as whitespace: controls, separators, joiners, direction
/// marks, variation selectors and fillers.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || c.is_whitespace()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// The hint after an unknown symbol that is easily taken for a cell.
struct LookAlike(char);

impl fmt::Display for LookAlike {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            'x' => f.write_str(" (did you mean `X`?)"),
            // Cyrillic, Greek, mathematical, fullwidth, Roman-numeral and
            // dingbat crosses.
            '\u{0425}'
            | '\u{0445}'
            | '\u{04B2}'
            | '\u{04B3}'
            | '\u{03A7}'
            | '\u{03C7}'
            | '\u{00D7}'
            | '\u{2A2F}'
            | '\u{FF38}'
            | '\u{FF58}'
            | '\u{2169}'
            | '\u{2179}'
            | '\u{2573}'
            | '\u{2613}'
            | '\u{2715}'..='\u{2718}'
            | '\u{274C}'
            | '\u{274E}'
            | '\u{166D}'
            | '\u{2D5D}' => f.write_str(", which looks like `X` but is not"),
            symbol if LookAlike::looks_like_dot(symbol) => {
                f.write_str(", which looks like `.` but is not")
            }
            _ => Ok(()),
        }
    }
}

impl LookAlike {
    /// Middle dots, leaders, bullets, full stops of other scripts, and
    /// digits zero that are drawn as a dot.
    fn looks_like_dot(symbol: char) -> bool {
        matches!(
            symbol,
            '\u{00B7}'
                | '\u{0387}'
                | '\u{02D9}'
                | '\u{0589}'
                | '\u{0660}'
                | '\u{06D4}'
                | '\u{06F0}'
                | '\u{0701}'
                | '\u{0702}'
                | '\u{1427}'
                | '\u{16EB}'
                | '\u{2022}'
                | '\u{2024}'
                | '\u{2027}'
                | '\u{2219}'
                | '\u{22C5}'
                | '\u{2E31}'
                | '\u{2E33}'
                | '\u{3002}'
                | '\u{30FB}'
                | '\u{A4F8}'
                | '\u{FF0E}'
                | '\u{FF61}'
                | '\u{FF65}'
                | '\u{10101}'
        )
    }
}

/// The hint after an unknown symbol in a position's diagram: only the
/// look-alikes of `.` apply (a cross is no piece), and a digit is taken for
/// FEN's run of empty squares.
struct LookAlikeInPosition(char);

impl fmt::Display for LookAlikeInPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            '1'..='8' => f.write_str(" (a diagram writes each empty square as `.`, not a count)"),
            symbol if LookAlike::looks_like_dot(symbol) => {
                f.write_str(", which looks like `.` but is not")
            }
            _ => Ok(()),
        }
    }
}

/// What the cells of a diagram are written with; `.` is an empty square in
/// both kinds.
///
/// ```
/// use bitboards_core::diagram::Cells;
///
/// assert!(Cells::Bits.is_occupied('X'));
/// assert!(Cells::Pieces.is_occupied('k'));
/// assert!(!Cells::Pieces.is_occupied('X'));
/// assert!(!Cells::Bits.is_occupied('.'));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Cells {
    /// `X` for a set square: a [`Bitboard`](crate::Bitboard)'s diagram.
    Bits,
    /// A piece's FEN letter, `PNBRQK` White and `pnbrqk` Black: a position's
    /// diagram.
    Pieces,
}

impl Cells {
    /// Whether `symbol` is an occupied cell in this kind of diagram.
    ///
    /// ```
    /// use bitboards_core::diagram::Cells;
    ///
    /// assert!(Cells::Pieces.is_occupied('Q'));
    /// assert!(!Cells::Pieces.is_occupied('x'));
    /// ```
    #[must_use]
    pub const fn is_occupied(self, symbol: char) -> bool {
        match self {
            Cells::Bits => symbol == 'X',
            Cells::Pieces => matches!(
                symbol,
                'P' | 'N' | 'B' | 'R' | 'Q' | 'K' | 'p' | 'n' | 'b' | 'r' | 'q' | 'k'
            ),
        }
    }

    /// The error for a cell that is neither occupied nor `.`.
    const fn unknown(self, symbol: char) -> DiagramErrorKind {
        match self {
            Cells::Bits => DiagramErrorKind::UnknownSymbol(symbol),
            Cells::Pieces => DiagramErrorKind::UnknownPiece(symbol),
        }
    }
}

/// One non-blank character of a diagram: the character, the line it stands
/// on (rows follow lines, as the [module docs](self) explain), and its
/// position, whatever the caller uses to point at its input.
///
/// ```
/// use bitboards_core::diagram::{parse, Symbol};
///
/// // Sixty-four `X`s, eight to a line, each pointed at by its index.
/// let symbols = (0..64).map(|at| Symbol { char: 'X', line: at / 8, at });
/// assert_eq!(parse(symbols, 64, |error| panic!("{error:?}")), Some(u64::MAX));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Symbol<P> {
    /// The character itself.
    pub char: char,
    /// The source line it is on; only whether two symbols share a line
    /// matters, not the numbers.
    pub line: usize,
    /// Where to point when it is wrong.
    pub at: P,
}

/// A problem in a diagram and where it is: `start` and `end` are the
/// positions of the first and last symbol it concerns (the same symbol for a
/// bad cell, a whole row for a row of the wrong length).
///
/// ```
/// use bitboards_core::diagram::{parse, DiagramErrorKind, Symbol};
///
/// // One row of three cells on line 1, at positions 0, 1 and 2.
/// let symbols = "X..".chars().enumerate().map(|(at, char)| Symbol { char, line: 1, at });
/// let mut errors = Vec::new();
/// parse(symbols, 3, |error| errors.push(error));
/// assert_eq!(errors[0].kind, DiagramErrorKind::RowLength { found: 3 });
/// assert_eq!((errors[0].start, errors[0].end), (0, 2));
/// assert_eq!(errors[1].kind, DiagramErrorKind::TooFewRows { found: 1 });
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DiagramError<P> {
    /// What is wrong.
    pub kind: DiagramErrorKind,
    /// Where the offending part begins.
    pub start: P,
    /// Where the offending part ends.
    pub end: P,
}

/// Reads a bitboard's diagram given as [`Symbol`]s in reading order,
/// reporting each problem to `report`, and returns the board's bits when
/// there was none: [`parse_cells`] with [`Cells::Bits`].
///
/// Rows are found from the symbols' lines as the [module docs](self)
/// describe. `end` is the position to blame when rows are missing. Every
/// error is reported, in reading order. The iterator is cloned to look
/// ahead, so it should be cheap to clone.
///
/// ```
/// use bitboards_core::diagram::{parse, DiagramErrorKind, Symbol};
///
/// // Positions here are (line, column) pairs; any `Copy` type will do.
/// fn symbols(rows: &[&str]) -> Vec<Symbol<(usize, usize)>> {
///     let mut symbols = Vec::new();
///     for (line, row) in rows.iter().enumerate() {
///         for (column, char) in row.char_indices().filter(|(_, c)| *c != ' ') {
///             symbols.push(Symbol { char, line, at: (line, column) });
///         }
///     }
///     symbols
/// }
/// let mut rows = [". . . . . . . ."; 8];
/// rows[7] = ". . . o . . . .";
/// let mut errors = Vec::new();
/// assert_eq!(parse(symbols(&rows), (8, 0), |error| errors.push(error)), None);
/// assert_eq!(errors.len(), 1);
/// assert_eq!(errors[0].kind, DiagramErrorKind::UnknownSymbol('o'));
/// assert_eq!(errors[0].start, (7, 6));
///
/// // A cell whose line is out of step (say, from a macro argument) joins
/// // the row it completes: this `X` on line 99 is a8.
/// rows[7] = ". . . . . . . .";
/// let mut cells = symbols(&rows);
/// cells[0] = Symbol { char: 'X', line: 99, at: (99, 0) };
/// assert_eq!(parse(cells, (8, 0), |error| panic!("{error:?}")), Some(1 << 56));
/// ```
pub fn parse<P, I>(symbols: I, end: P, report: impl FnMut(DiagramError<P>)) -> Option<u64>
where
    P: Copy,
    I: IntoIterator<Item = Symbol<P>>,
    I::IntoIter: Clone,
{
    let board = parse_cells(symbols, Cells::Bits, end, report)?;
    let set = (0..64).filter(|&index| board[index].is_some());
    Some(set.fold(0, |bits, index| bits | 1 << index))
}

/// The occupied cells of a diagram, by square index (a1 = 0, h8 = 63): the
/// symbol written on each square, with its position, or `None` for `.`.
pub type Board<P> = [Option<Symbol<P>>; 64];

/// Reads a diagram of either kind given as [`Symbol`]s in reading order,
/// reporting each problem to `report`, and returns its occupied cells when
/// there was none. `cells` says which symbols are cells besides `.`, and so
/// which error an unknown one is; the labels, the rows and every message
/// about them are the same for both kinds.
///
/// Rows are found from the symbols' lines as the [module docs](self)
/// describe. `end` is the position to blame when rows are missing. Every
/// error is reported, in reading order. The iterator is cloned to look
/// ahead, so it should be cheap to clone.
///
/// ```
/// use bitboards_core::diagram::{parse_cells, Cells, DiagramErrorKind, Symbol};
///
/// // Positions here are (line, column) pairs; any `Copy` type will do.
/// fn symbols(rows: &[&str]) -> Vec<Symbol<(usize, usize)>> {
///     let mut symbols = Vec::new();
///     for (line, row) in rows.iter().enumerate() {
///         for (column, char) in row.char_indices().filter(|(_, c)| *c != ' ') {
///             symbols.push(Symbol { char, line, at: (line, column) });
///         }
///     }
///     symbols
/// }
/// let mut rows = [". . . . . . . ."; 8];
/// rows[0] = ". . . . k . . .";
/// rows[7] = ". . . . K . . R";
/// let board = parse_cells(symbols(&rows), Cells::Pieces, (8, 0), |e| panic!("{e:?}")).unwrap();
/// // e1 is square 4: the `K` on line 7, column 8.
/// assert_eq!(board[4], Some(Symbol { char: 'K', line: 7, at: (7, 8) }));
/// assert_eq!(board[7].map(|cell| cell.char), Some('R'));
/// assert_eq!(board.iter().flatten().count(), 3);
///
/// rows[3] = ". . . . X . . .";
/// let mut errors = Vec::new();
/// assert_eq!(parse_cells(symbols(&rows), Cells::Pieces, (8, 0), |e| errors.push(e)), None);
/// assert_eq!(errors[0].kind, DiagramErrorKind::UnknownPiece('X'));
/// ```
pub fn parse_cells<P, I>(
    symbols: I,
    cells: Cells,
    end: P,
    report: impl FnMut(DiagramError<P>),
) -> Option<Board<P>>
where
    P: Copy,
    I: IntoIterator<Item = Symbol<P>>,
    I::IntoIter: Clone,
{
    let mut grammar = Grammar {
        report,
        cells,
        board: [None; 64],
        ok: true,
        board_rows: 0,
        labelled: None,
        file_labels_seen: false,
        too_many_reported: false,
    };
    let mut rest = symbols.into_iter();
    loop {
        let length = row_length(rest.clone());
        if length == 0 {
            break;
        }
        grammar.row(rest.clone().take(length));
        // Step past the row just read.
        rest.nth(length - 1);
    }
    grammar.finish(end)
}

/// How many of the symbols, from the first, make its row: those on its line,
/// and after each line break those that fit in the cells the row still lacks
/// (see the module docs). Zero when there are no symbols left.
fn row_length<P>(mut symbols: impl Iterator<Item = Symbol<P>> + Clone) -> usize {
    let Some(first) = symbols.next() else {
        return 0;
    };
    let mut length = 1;
    let mut cells = usize::from(!first.char.is_ascii_digit());
    let mut line = first.line;
    while let Some(next) = symbols.clone().next() {
        if next.line != line {
            let lacking = 8usize.saturating_sub(cells);
            let on_next_line = symbols
                .clone()
                .take_while(|symbol| symbol.line == next.line)
                .take(lacking + 1)
                .count();
            if next.char.is_ascii_digit() || on_next_line > lacking {
                break;
            }
            line = next.line;
        }
        symbols.next();
        length += 1;
        cells += 1;
    }
    length
}

/// The rules for rows once they are found, and what they add up to.
struct Grammar<F, P> {
    report: F,
    cells: Cells,
    board: Board<P>,
    ok: bool,
    board_rows: usize,
    /// Whether the rows have rank labels, as the first board row decides.
    labelled: Option<bool>,
    file_labels_seen: bool,
    too_many_reported: bool,
}

impl<F: FnMut(DiagramError<P>), P: Copy> Grammar<F, P> {
    fn fail(&mut self, kind: DiagramErrorKind, start: P, end: P) {
        self.ok = false;
        (self.report)(DiagramError { kind, start, end });
    }

    fn row(&mut self, row: impl Iterator<Item = Symbol<P>> + Clone) {
        let Some(first) = row.clone().next() else {
            return;
        };
        // File labels come after the eighth row; before it, only a complete
        // label row counts as one (so that it is reported as misplaced), and
        // a row that begins with a letter is a board row with a typo.
        let is_file_labels = ('a'..='h').contains(&first.char)
            && (self.board_rows >= 8 || row.clone().map(|s| s.char).eq("abcdefgh".chars()));
        if is_file_labels {
            self.file_labels(first, row);
        } else {
            self.board_row(first, row);
        }
    }

    fn file_labels(&mut self, first: Symbol<P>, row: impl Iterator<Item = Symbol<P>> + Clone) {
        let last = row.clone().last().map_or(first.at, |symbol| symbol.at);
        if self.file_labels_seen {
            self.fail(DiagramErrorKind::RepeatedFileLabels, first.at, last);
            return;
        }
        self.file_labels_seen = true;
        let mut count = 0usize;
        for symbol in row {
            let expected = u8::try_from(count).ok().and_then(File::new);
            if expected.map(File::to_char) != Some(symbol.char) {
                let kind = DiagramErrorKind::FileLabel {
                    found: symbol.char,
                    expected,
                };
                self.fail(kind, symbol.at, symbol.at);
                return;
            }
            count += 1;
        }
        if count < 8 {
            self.fail(
                DiagramErrorKind::MissingFileLabels { found: count },
                first.at,
                last,
            );
        }
    }

    fn board_row(&mut self, first: Symbol<P>, mut row: impl Iterator<Item = Symbol<P>>) {
        let rank = u8::try_from(self.board_rows)
            .ok()
            .and_then(|row| 7u8.checked_sub(row))
            .and_then(Rank::new);
        let has_label = first.char.is_ascii_digit();
        match (self.labelled, has_label) {
            (None, _) => self.labelled = Some(has_label),
            (Some(true), false) => {
                if let Some(expected) = rank {
                    let kind = DiagramErrorKind::MissingRankLabel { expected };
                    self.fail(kind, first.at, first.at);
                }
            }
            (Some(false), true) => {
                let kind = DiagramErrorKind::UnexpectedRankLabel(first.char);
                self.fail(kind, first.at, first.at);
            }
            _ => {}
        }
        if has_label {
            row.next();
            if let Some(expected) = rank
                && self.labelled == Some(true)
                && expected.to_char() != first.char
            {
                let kind = DiagramErrorKind::RankLabel {
                    found: first.char,
                    expected,
                };
                self.fail(kind, first.at, first.at);
            }
        }

        let mut count = 0usize;
        let mut last = first.at;
        for symbol in row {
            if self.cells.is_occupied(symbol.char) {
                if let (Some(rank), true) = (rank, count < 8) {
                    self.board[rank.index() * 8 + count] = Some(symbol);
                }
            } else if symbol.char != '.' {
                let kind = self.cells.unknown(symbol.char);
                self.fail(kind, symbol.at, symbol.at);
            }
            count += 1;
            last = symbol.at;
        }
        if count != 8 {
            self.fail(DiagramErrorKind::RowLength { found: count }, first.at, last);
        }
        if self.file_labels_seen {
            self.fail(DiagramErrorKind::RowAfterFileLabels, first.at, last);
        } else if rank.is_none() && !self.too_many_reported {
            self.too_many_reported = true;
            self.fail(DiagramErrorKind::TooManyRows, first.at, last);
        }
        self.board_rows += 1;
    }

    fn finish(mut self, end: P) -> Option<Board<P>> {
        if self.board_rows < 8 {
            let kind = DiagramErrorKind::TooFewRows {
                found: self.board_rows,
            };
            self.fail(kind, end, end);
        }
        self.ok.then_some(self.board)
    }
}

/// A place in a text diagram: 1-based line and column (in characters).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Location {
    line: usize,
    column: usize,
}

/// Why a string is not a diagram, and the line and column of the first
/// problem (both counted from 1, columns in characters).
///
/// ```
/// use bitboards_core::Bitboard;
/// use bitboards_core::diagram::DiagramErrorKind;
///
/// let error = "
/// 8 . . . . . . . .
/// 7 . . . . . . . .
/// 6 . . . . . . . .
/// 5 . . . . o . . .
/// 4 . . . . . . . .
/// 3 . . . . . . . .
/// 2 . . . . . . . .
/// 1 . . . . . . . .
/// ".parse::<Bitboard>().unwrap_err();
/// assert_eq!((error.line(), error.column()), (5, 11));
/// assert_eq!(error.kind(), DiagramErrorKind::UnknownSymbol('o'));
/// assert_eq!(
///     error.to_string(),
///     "line 5, column 11: unknown symbol `o`; a cell is `X` (set) or `.` (empty)"
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ParseBitboardError {
    kind: DiagramErrorKind,
    at: Location,
}

impl ParseBitboardError {
    /// What is wrong.
    ///
    /// ```
    /// use bitboards_core::Bitboard;
    /// use bitboards_core::diagram::DiagramErrorKind;
    ///
    /// let error = "".parse::<Bitboard>().unwrap_err();
    /// assert_eq!(error.kind(), DiagramErrorKind::TooFewRows { found: 0 });
    /// ```
    #[must_use]
    pub fn kind(&self) -> DiagramErrorKind {
        self.kind
    }

    /// The line of the problem, counted from 1.
    ///
    /// ```
    /// let error = "X . .".parse::<bitboards_core::Bitboard>().unwrap_err();
    /// assert_eq!(error.line(), 1);
    /// ```
    #[must_use]
    pub fn line(&self) -> usize {
        self.at.line
    }

    /// The column of the problem, counted in characters from 1.
    ///
    /// ```
    /// let error = "X . .".parse::<bitboards_core::Bitboard>().unwrap_err();
    /// assert_eq!(error.column(), 1);
    /// ```
    #[must_use]
    pub fn column(&self) -> usize {
        self.at.column
    }
}

impl fmt::Display for ParseBitboardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.at.line, self.at.column, self.kind
        )
    }
}

impl core::error::Error for ParseBitboardError {}

/// Reads `text` as a number if it is one: a single word (surrounding
/// whitespace aside) that starts with an ASCII digit, in hex after `0x`,
/// binary after `0b`, octal after `0o` and decimal otherwise, `_` allowed
/// between digits. `None` when the text is not such a word, so that it is
/// read as a diagram (which never is one word: it has eight rows).
pub(crate) fn parse_number(text: &str) -> Option<Result<u64, ParseBitboardError>> {
    let (line, content) = text
        .lines()
        .enumerate()
        .find(|(_, content)| !content.trim().is_empty())?;
    let word = content.trim();
    let starts_with_digit = word.chars().next().is_some_and(|c| c.is_ascii_digit());
    let one_word = text.trim() == word && !word.contains(char::is_whitespace);
    if !starts_with_digit || !one_word {
        return None;
    }
    // Columns count characters from 1, as a diagram's do.
    let start = content.chars().take_while(|c| c.is_whitespace()).count() + 1;
    let at = |column| Location {
        line: line + 1,
        column,
    };
    let error = |kind, column| {
        Some(Err(ParseBitboardError {
            kind,
            at: at(column),
        }))
    };
    let (radix, prefix) = match word.get(..2) {
        Some("0x" | "0X") => (16, 2),
        Some("0b" | "0B") => (2, 2),
        Some("0o" | "0O") => (8, 2),
        _ => (10, 0),
    };
    let mut value = 0u64;
    let mut digits = 0usize;
    for (index, c) in word.chars().enumerate().skip(prefix) {
        if c == '_' {
            continue;
        }
        let Some(digit) = c.to_digit(radix) else {
            return error(
                DiagramErrorKind::NumberDigit { found: c, radix },
                start + index,
            );
        };
        digits += 1;
        let Some(next) = value
            .checked_mul(u64::from(radix))
            .and_then(|value| value.checked_add(u64::from(digit)))
        else {
            return error(DiagramErrorKind::NumberTooLarge, start);
        };
        value = next;
    }
    if digits == 0 {
        return error(DiagramErrorKind::NumberWithoutDigits, start);
    }
    Some(Ok(value))
}

/// Parses a text diagram, returning the first problem if there is any.
pub(crate) fn parse_str(text: &str) -> Result<u64, ParseBitboardError> {
    let symbols = text.lines().enumerate().flat_map(|(line, content)| {
        content
            .chars()
            .enumerate()
            .filter(|(_, c)| !c.is_whitespace())
            .map(move |(column, char)| Symbol {
                char,
                line,
                at: Location {
                    line: line + 1,
                    column: column + 1,
                },
            })
    });
    let end = Location {
        line: text.lines().count().max(1),
        column: text.lines().last().map_or(0, |l| l.chars().count()) + 1,
    };
    let mut first = None;
    let bits = parse(symbols, end, |error| {
        first.get_or_insert(ParseBitboardError {
            kind: error.kind,
            at: error.start,
        });
    });
    // `parse` returns `None` only after reporting an error, so `bits` is
    // `Some` whenever `first` is `None`.
    match first {
        Some(error) => Err(error),
        None => Ok(bits.unwrap_or_default()),
    }
}

/// How wide each line of a drawn diagram is, labels included.
const LINE_WIDTH: usize = 17;

/// Writes the labelled diagram of `bits`, rank 8 first, without a trailing
/// newline. Width, fill and alignment apply to each line, so that `{:>21}`
/// indents the whole diagram by four; precision is ignored (cutting lines
/// short would only break the drawing).
pub(crate) fn write(bits: u64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let (before, after) = fill_around_each_line(f);
    for rank in Rank::ALL.iter().rev() {
        write_fill(f, before)?;
        f.write_char(rank.to_char())?;
        for file in 0..8 {
            let set = bits >> (rank.index() * 8 + file) & 1 != 0;
            f.write_str(if set { " X" } else { " ." })?;
        }
        write_fill(f, after)?;
        f.write_char('\n')?;
    }
    write_fill(f, before)?;
    f.write_str("  a b c d e f g h")?;
    write_fill(f, after)
}

/// How many fill characters go before and after each line of a drawn
/// diagram, shared out as `Formatter::pad` shares them for a string.
fn fill_around_each_line(f: &fmt::Formatter<'_>) -> (usize, usize) {
    let padding = f.width().unwrap_or(0).saturating_sub(LINE_WIDTH);
    match f.align() {
        Some(fmt::Alignment::Right) => (padding, 0),
        Some(fmt::Alignment::Center) => (padding / 2, padding - padding / 2),
        Some(fmt::Alignment::Left) | None => (0, padding),
    }
}

/// Writes `count` fill characters.
fn write_fill(f: &mut fmt::Formatter<'_>, count: usize) -> fmt::Result {
    let fill = f.fill();
    for _ in 0..count {
        f.write_char(fill)?;
    }
    Ok(())
}
