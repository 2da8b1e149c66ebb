//! The one diagram grammar, shared by `Display`, `FromStr` and the
//! `bitboard!` macro.
//!
//! A diagram is eight rows of eight cells, rank 8 on top and file a on the
//! left. A cell is `X` (the square is set) or `.` (empty); cells may be
//! separated by spaces or written together. Two kinds of label are optional
//! and checked when present:
//!
//! - a rank label, the digit `8` down to `1`, in front of each row (all rows
//!   or none);
//! - a last row of file labels, `a b c d e f g h`.
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
//! [`parse`] holds the rules. It reads rows of `(symbol, position)` cells,
//! where a position is whatever the caller uses to point at its input (a line
//! and column for text, a token span for the macro), and reports every
//! problem it finds, not just the first.

use core::fmt;

use crate::{File, Rank};

/// What is wrong with a diagram.
///
/// ```
/// use bitboards::Bitboard;
/// use bitboards::diagram::DiagramErrorKind;
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
    /// A cell is neither `X` nor `.`.
    UnknownSymbol(char),
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
    /// A board row comes after the file-label row.
    RowAfterFileLabels,
    /// The diagram has more than eight board rows.
    TooManyRows,
    /// The diagram has fewer than eight board rows.
    TooFewRows {
        /// How many board rows it has.
        found: usize,
    },
}

impl fmt::Display for DiagramErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DiagramErrorKind::RowLength { found } => {
                write!(f, "this row has {found} cells; a row has 8, files a to h")
            }
            DiagramErrorKind::UnknownSymbol(symbol) => write!(
                f,
                "unknown symbol `{symbol}`; a cell is `X` (set) or `.` (empty)"
            ),
            DiagramErrorKind::RankLabel { found, expected } => write!(
                f,
                "rank label `{found}` is out of order; this row is rank {expected} (rank 8 is on top)"
            ),
            DiagramErrorKind::MissingRankLabel { expected } => write!(
                f,
                "this row has no rank label but the rows above have; expected `{expected}`"
            ),
            DiagramErrorKind::UnexpectedRankLabel(found) => write!(
                f,
                "rank label `{found}` on this row but not on the rows above; label all rows or none"
            ),
            DiagramErrorKind::FileLabel {
                found,
                expected: Some(file),
            } => write!(
                f,
                "file label `{found}` is wrong; expected `{file}` (the row reads `a b c d e f g h`)"
            ),
            DiagramErrorKind::FileLabel {
                found,
                expected: None,
            } => write!(
                f,
                "file label `{found}` after `h`; the row reads `a b c d e f g h`"
            ),
            DiagramErrorKind::MissingFileLabels { found } => write!(
                f,
                "the file-label row has {found} labels; it reads `a b c d e f g h`"
            ),
            DiagramErrorKind::RowAfterFileLabels => {
                f.write_str("a board row after the file labels; the labels come last")
            }
            DiagramErrorKind::TooManyRows => {
                f.write_str("more than 8 rows; a diagram has one row per rank, 8 down to 1")
            }
            DiagramErrorKind::TooFewRows { found } => write!(
                f,
                "the diagram has {found} rows; it needs 8, one per rank, 8 down to 1"
            ),
        }
    }
}

/// A problem in a diagram and where it is: `start` and `end` are the
/// positions of the first and last cell it concerns (the same cell for a bad
/// symbol, a whole row for a row of the wrong length).
///
/// ```
/// use bitboards::diagram::{parse, DiagramErrorKind};
///
/// // One row of three cells at positions 0, 1 and 2.
/// let rows = [[('X', 0), ('.', 1), ('.', 2)]];
/// let mut errors = Vec::new();
/// parse(rows, 3, |error| errors.push(error));
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

/// Reads a diagram given as rows of `(symbol, position)` cells, reporting
/// each problem to `report`, and returns the board's bits when there was
/// none.
///
/// Rows with no cells are skipped. `end` is the position to blame when rows
/// are missing. Every error is reported, in reading order.
///
/// ```
/// use bitboards::diagram::{parse, DiagramErrorKind};
///
/// // Positions here are (row, column) pairs; any `Copy` type will do.
/// let text = ["X . . . . . . .", ". . . . . . . .", ". . . . . . . .",
///             ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
///             ". . . . . . . .", ". . . o . . . ."];
/// let rows = text.iter().enumerate().map(|(row, line)| {
///     line.chars().enumerate().filter(|(_, c)| *c != ' ').map(move |(col, c)| (c, (row, col)))
/// });
/// let mut errors = Vec::new();
/// assert_eq!(parse(rows, (8, 0), |error| errors.push(error)), None);
/// assert_eq!(errors[0].kind, DiagramErrorKind::UnknownSymbol('o'));
/// assert_eq!(errors[0].start, (7, 6));
/// ```
pub fn parse<P, R, C>(rows: R, end: P, mut report: impl FnMut(DiagramError<P>)) -> Option<u64>
where
    P: Copy,
    R: IntoIterator<Item = C>,
    C: IntoIterator<Item = (char, P)>,
{
    let mut bits = 0u64;
    let mut ok = true;
    let mut fail = |kind, start, end| {
        ok = false;
        report(DiagramError { kind, start, end });
    };
    let mut board_rows = 0usize;
    let mut labelled: Option<bool> = None;
    let mut file_labels_seen = false;
    let mut too_many_reported = false;

    for row in rows {
        let mut cells = row.into_iter().peekable();
        let Some(&(first, first_pos)) = cells.peek() else {
            continue;
        };
        let mut last_pos = first_pos;

        if ('a'..='h').contains(&first) {
            // The file-label row.
            let mut count = 0usize;
            let mut wrong = false;
            for (symbol, pos) in cells {
                let expected = File::new(count as u8);
                if !wrong && expected.map(File::to_char) != Some(symbol) {
                    wrong = true;
                    fail(
                        DiagramErrorKind::FileLabel {
                            found: symbol,
                            expected,
                        },
                        pos,
                        pos,
                    );
                }
                count += 1;
                last_pos = pos;
            }
            if !wrong && count < 8 {
                fail(
                    DiagramErrorKind::MissingFileLabels { found: count },
                    first_pos,
                    last_pos,
                );
            }
            file_labels_seen = true;
            continue;
        }

        let rank = Rank::new(7u8.saturating_sub(board_rows as u8)).filter(|_| board_rows < 8);
        let has_label = first.is_ascii_digit();
        match (labelled, has_label) {
            (None, _) => labelled = Some(has_label),
            (Some(true), false) => {
                if let Some(expected) = rank {
                    fail(
                        DiagramErrorKind::MissingRankLabel { expected },
                        first_pos,
                        first_pos,
                    );
                }
            }
            (Some(false), true) => fail(
                DiagramErrorKind::UnexpectedRankLabel(first),
                first_pos,
                first_pos,
            ),
            _ => {}
        }
        if has_label {
            cells.next();
            if let Some(expected) = rank
                && labelled == Some(true)
                && expected.to_char() != first
            {
                fail(
                    DiagramErrorKind::RankLabel {
                        found: first,
                        expected,
                    },
                    first_pos,
                    first_pos,
                );
            }
        }

        let mut count = 0usize;
        for (symbol, pos) in cells {
            match symbol {
                'X' => {
                    if let (Some(rank), true) = (rank, count < 8) {
                        bits |= 1 << (rank.index() * 8 + count);
                    }
                }
                '.' => {}
                other => fail(DiagramErrorKind::UnknownSymbol(other), pos, pos),
            }
            count += 1;
            last_pos = pos;
        }
        if count != 8 {
            fail(
                DiagramErrorKind::RowLength { found: count },
                first_pos,
                last_pos,
            );
        }
        if file_labels_seen {
            fail(DiagramErrorKind::RowAfterFileLabels, first_pos, last_pos);
        } else if rank.is_none() && !too_many_reported {
            too_many_reported = true;
            fail(DiagramErrorKind::TooManyRows, first_pos, last_pos);
        }
        board_rows += 1;
    }

    if board_rows < 8 {
        fail(DiagramErrorKind::TooFewRows { found: board_rows }, end, end);
    }
    ok.then_some(bits)
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
/// use bitboards::Bitboard;
/// use bitboards::diagram::DiagramErrorKind;
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
    /// use bitboards::Bitboard;
    /// use bitboards::diagram::DiagramErrorKind;
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
    /// let error = "X . .".parse::<bitboards::Bitboard>().unwrap_err();
    /// assert_eq!(error.line(), 1);
    /// ```
    #[must_use]
    pub fn line(&self) -> usize {
        self.at.line
    }

    /// The column of the problem, counted in characters from 1.
    ///
    /// ```
    /// let error = "X . .".parse::<bitboards::Bitboard>().unwrap_err();
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

/// Parses a text diagram, returning the first problem if there is any.
pub(crate) fn parse_str(text: &str) -> Result<u64, ParseBitboardError> {
    let rows = text.lines().enumerate().map(|(line, content)| {
        content
            .chars()
            .enumerate()
            .filter(|(_, c)| !c.is_whitespace())
            .map(move |(column, c)| {
                (
                    c,
                    Location {
                        line: line + 1,
                        column: column + 1,
                    },
                )
            })
    });
    let end = Location {
        line: text.lines().count().max(1),
        column: text.lines().last().map_or(0, |l| l.chars().count()) + 1,
    };
    let mut first = None;
    let bits = parse(rows, end, |error| {
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

/// Writes the labelled diagram of `bits`, rank 8 first, without a trailing
/// newline.
pub(crate) fn write(bits: u64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    for rank in Rank::ALL.iter().rev() {
        write!(f, "{rank}")?;
        for file in 0..8 {
            let set = bits >> (rank.index() * 8 + file) & 1 != 0;
            f.write_str(if set { " X" } else { " ." })?;
        }
        f.write_str("\n")?;
    }
    f.write_str("  a b c d e f g h")
}
