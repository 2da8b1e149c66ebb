//! EPD records: a position's four FEN fields plus operations (`bm`, `am`,
//! `id`, `c0`..`c9`, `D1`.. perft counts, ...). Feature `alloc`.
//!
//! A record is one line: the board, side to move, castling and en passant
//! fields of a FEN, then operations, each an opcode and its operands ended
//! by `;`. An operand is a token or a double-quoted string (`\"` and `\\`
//! escape a quote and a backslash inside it).
//!
//! ```
//! use bitboards::Epd;
//!
//! let epd: Epd = r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#.parse()?;
//! assert_eq!(epd.best_moves(), ["Qg6"]);
//! assert_eq!(epd.id(), Some("WAC.001"));
//! # Ok::<(), bitboards::EpdError>(())
//! ```
//!
//! The perft files in common use write a whole FEN, clocks included, and put
//! the `;` before each operation; they read too, and write back the same way:
//!
//! ```
//! use bitboards::Epd;
//!
//! let line = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197";
//! let epd: Epd = line.parse()?;
//! assert_eq!(epd.perft_counts().collect::<Vec<_>>(), [(1, 15), (2, 66), (3, 1197)]);
//! assert_eq!(epd.to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1 D1 15; D2 66; D3 1197;");
//! assert_eq!(epd.to_string().parse::<Epd>()?, epd);
//! # Ok::<(), bitboards::EpdError>(())
//! ```

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write as _};
use core::str::FromStr;

use crate::{FenError, Position, Validation};

/// One EPD record: a checked [`Position`] and its operations, in order.
///
/// Read one with [`Epd::parse`] (or `str::parse`), a file with [`read`];
/// `Display` writes the record back. The position's clocks come from the
/// FEN when the record gives all six fields, else from the `hmvc` and
/// `fmvn` operations, else they are 0 and 1. A record read with the FEN's
/// clocks is written with them, so that reading what was written gives an
/// equal `Epd`.
///
/// ```
/// use bitboards::{Epd, Operation, Position};
///
/// let mut epd = Epd::new(Position::START);
/// epd.push(Operation::new("bm", ["e4", "d4"])?);
/// epd.push(Operation::new("id", ["start"])?);
/// assert_eq!(
///     epd.to_string(),
///     r#"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4 d4; id "start";"#
/// );
/// assert_eq!(epd.to_string().parse::<Epd>()?, epd);
/// # Ok::<(), bitboards::EpdError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Epd {
    position: Position,
    operations: Vec<Operation>,
    /// Whether the FEN part is written with its two clocks (six fields).
    fen_clocks: bool,
}

/// An EPD operation: an opcode (a letter, then letters, digits and `_`) and
/// its operands.
///
/// ```
/// use bitboards::Operation;
///
/// let operation = Operation::new("c0", ["a comment; with a semicolon"])?;
/// assert_eq!(operation.opcode(), "c0");
/// assert_eq!(operation.to_string(), r#"c0 "a comment; with a semicolon";"#);
/// # Ok::<(), bitboards::EpdError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Operation {
    opcode: String,
    operands: Vec<String>,
}

/// Why a line is not an EPD record: where (the line when read from a file
/// by [`read`], and the column, both from 1, the column counted in
/// characters) and what is wrong ([`EpdErrorKind`]).
///
/// ```
/// use bitboards::epd::{self, EpdErrorKind};
///
/// let text = "4k3/8/8/8/8/8/8/4K3 w - - D1 5;\n\n4k3/8/8/8/8/8/8/4K3 w - - D1 5; D2 40x;\n";
/// let error = epd::read(text).find_map(Result::err).unwrap();
/// assert_eq!(error.line(), Some(3));
/// assert_eq!(error.column(), 36);
/// assert!(matches!(error.kind(), EpdErrorKind::NotANumber { .. }));
/// assert_eq!(error.to_string(), "EPD line 3, column 36: `D2` needs one unsigned integer, found `40x`");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EpdError {
    line: Option<usize>,
    column: usize,
    kind: EpdErrorKind,
}

/// What is wrong with an EPD record; see [`EpdError`] for where.
///
/// ```
/// use bitboards::{Epd, EpdErrorKind};
///
/// let error = "4k3/8/8/8/8/8/8/4K3 w".parse::<Epd>().unwrap_err();
/// assert_eq!(error.kind(), &EpdErrorKind::MissingFields { found: 2 });
/// assert_eq!(error.column(), 22);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum EpdErrorKind {
    /// The FEN fields do not read as a position.
    Fen(FenError),
    /// The record ends (or an operation starts) before the four FEN fields.
    MissingFields {
        /// How many fields there are.
        found: usize,
    },
    /// An operation built without an opcode ([`Operation::new`]).
    EmptyOpcode,
    /// An opcode does not start with a letter.
    OpcodeStart(char),
    /// An opcode holds a character other than a letter, digit or `_`.
    OpcodeSymbol(char),
    /// A quoted operand without its closing quote; the column is the
    /// opening one's.
    UnterminatedQuote,
    /// A numeric operation (`Dn`, `hmvc`, `fmvn`) without exactly one
    /// operand.
    OperandCount {
        /// The opcode.
        opcode: String,
        /// How many operands it has.
        found: usize,
    },
    /// The operand of a numeric operation is not an unsigned integer.
    NotANumber {
        /// The opcode.
        opcode: String,
        /// The operand.
        operand: String,
    },
    /// The operand of a numeric operation is a number, but too large (or a
    /// full-move number of 0).
    OutOfRange {
        /// The opcode.
        opcode: String,
        /// The operand.
        operand: String,
        /// The smallest number allowed.
        min: u64,
        /// The largest number allowed.
        max: u64,
    },
}

impl Epd {
    /// A record of `position` without operations. It is written with the
    /// position's clocks in the FEN unless they are 0 and 1 (what four
    /// fields read as).
    ///
    /// ```
    /// use bitboards::{Epd, Position};
    ///
    /// let epd = Epd::new(Position::START);
    /// assert_eq!(epd.position(), &Position::START);
    /// assert!(epd.operations().is_empty());
    /// assert_eq!(epd.to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    /// ```
    #[must_use]
    pub fn new(position: Position) -> Epd {
        Epd {
            position,
            operations: Vec::new(),
            fen_clocks: (position.halfmove_clock(), position.fullmove_number()) != (0, 1),
        }
    }

    /// Reads one record. The position must follow every rule of
    /// [`PositionError`](crate::PositionError); see
    /// [`Epd::parse_with`] for the FEN reader's options.
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// let epd = Epd::parse("4k3/8/8/8/8/8/8/4K3 b - - hmvc 12; fmvn 40;")?;
    /// assert_eq!(epd.position().halfmove_clock(), 12);
    /// assert_eq!(epd.position().fullmove_number(), 40);
    ///
    /// let error = Epd::parse("4k3/8/8/8/8/8/8/4K3 w - - D1 5; D2 40x;").unwrap_err();
    /// assert_eq!(error.to_string(), "EPD column 36: `D2` needs one unsigned integer, found `40x`");
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Epd, EpdError> {
        parse_record(text, Validation::ALL_RULES)
    }

    /// [`Epd::parse`] with the FEN read as [`Position::from_fen_with`]
    /// reads it, with these [`Validation`] options.
    ///
    /// ```
    /// use bitboards::{Epd, Validation};
    ///
    /// let line = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1 ;D1 8";
    /// assert!(Epd::parse(line).is_err());
    /// let epd = Epd::parse_with(line, Validation::default().allow_impossible_check())?;
    /// assert_eq!(epd.perft_counts().next(), Some((1, 8)));
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    pub fn parse_with(text: &str, validation: Validation) -> Result<Epd, EpdError> {
        parse_record(text, validation)
    }

    /// [`Epd::parse_with`] and [`Validation::allow_impossible_check`]: the
    /// old name, kept for one release.
    #[deprecated(
        since = "0.1.0",
        note = "use `Epd::parse_with(text, Validation::default().allow_impossible_check())`"
    )]
    pub fn parse_allow_impossible_check(text: &str) -> Result<Epd, EpdError> {
        parse_record(text, Validation::ALL_RULES.allow_impossible_check())
    }

    /// The position.
    ///
    /// ```
    /// use bitboards::{Color, Epd};
    ///
    /// let epd: Epd = "4k3/8/8/8/8/8/8/4K3 b - -".parse()?;
    /// assert_eq!(epd.position().side_to_move(), Color::Black);
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whether the record's FEN carries the clocks (six fields), as the
    /// perft files write it, rather than four fields.
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// assert!("4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5".parse::<Epd>()?.fen_has_clocks());
    /// assert!(!"4k3/8/8/8/8/8/8/4K3 w - - D1 5;".parse::<Epd>()?.fen_has_clocks());
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    #[must_use]
    pub fn fen_has_clocks(&self) -> bool {
        self.fen_clocks
    }

    /// The operations, in the record's order.
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// let epd: Epd = "4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; pv Kd2 Kd7;".parse()?;
    /// let opcodes: Vec<&str> = epd.operations().iter().map(|operation| operation.opcode()).collect();
    /// assert_eq!(opcodes, ["bm", "pv"]);
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    #[must_use]
    pub fn operations(&self) -> &[Operation] {
        &self.operations
    }

    /// The first operation with `opcode` (opcodes are case-sensitive).
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// let epd: Epd = "4k3/8/8/8/8/8/8/4K3 w - - pv Kd2 Kd7;".parse()?;
    /// assert_eq!(epd.operation("pv").map(|pv| pv.operands().len()), Some(2));
    /// assert_eq!(epd.operation("PV"), None);
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    #[must_use]
    pub fn operation(&self, opcode: &str) -> Option<&Operation> {
        self.operations
            .iter()
            .find(|operation| operation.opcode == opcode)
    }

    /// The first operand of the `id` operation.
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// let epd: Epd = r#"4k3/8/8/8/8/8/8/4K3 w - - id "kings only";"#.parse()?;
    /// assert_eq!(epd.id(), Some("kings only"));
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    #[must_use]
    pub fn id(&self) -> Option<&str> {
        self.operation("id").and_then(Operation::operand)
    }

    /// The first operand of comment `n` (`c0` to `c9`); `None` when there is
    /// none, or `n` is over 9.
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// let epd: Epd = r#"4k3/8/8/8/8/8/8/4K3 w - - c0 "a draw; nothing left"; c7 "seven";"#.parse()?;
    /// assert_eq!(epd.comment(0), Some("a draw; nothing left"));
    /// assert_eq!(epd.comment(7), Some("seven"));
    /// assert_eq!(epd.comment(1), None);
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    #[must_use]
    pub fn comment(&self, n: usize) -> Option<&str> {
        const OPCODES: [&str; 10] = ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"];
        OPCODES
            .get(n)
            .and_then(|opcode| self.operation(opcode))
            .and_then(Operation::operand)
    }

    /// The best moves (`bm`) as written, in SAN; empty when there is no
    /// `bm`.
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// let epd: Epd = "4k3/8/8/8/8/8/8/4K2R w K - bm O-O Rh8+;".parse()?;
    /// assert_eq!(epd.best_moves(), ["O-O", "Rh8+"]);
    /// assert!(epd.avoid_moves().is_empty());
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    #[must_use]
    pub fn best_moves(&self) -> &[String] {
        self.operation("bm").map_or(&[], Operation::operands)
    }

    /// The moves to avoid (`am`) as written, in SAN; empty when there is no
    /// `am`.
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// let epd: Epd = "4k3/8/8/8/8/8/8/4K2R w K - am Kf1;".parse()?;
    /// assert_eq!(epd.avoid_moves(), ["Kf1"]);
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    #[must_use]
    pub fn avoid_moves(&self) -> &[String] {
        self.operation("am").map_or(&[], Operation::operands)
    }

    /// The perft counts: `(depth, nodes)` for each `Dn` operation (`D`
    /// then the depth), in the record's order.
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// let epd: Epd = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400".parse()?;
    /// assert_eq!(epd.perft_counts().collect::<Vec<_>>(), [(1, 20), (2, 400)]);
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    pub fn perft_counts(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.operations.iter().filter_map(|operation| {
            let depth = perft_depth(&operation.opcode)?;
            let nodes = operation.operand()?.parse().ok()?;
            Some((depth, nodes))
        })
    }

    /// Adds `operation` after the others. An `hmvc` or `fmvn` operation
    /// sets the position's clock when the record's FEN has no clocks (and
    /// no earlier operation of its kind does).
    ///
    /// ```
    /// use bitboards::{Epd, Operation, Position};
    ///
    /// let mut epd = Epd::new(Position::START);
    /// epd.push(Operation::new("fmvn", ["7"])?);
    /// assert_eq!(epd.position().fullmove_number(), 7);
    /// assert_eq!(epd.to_string().parse::<Epd>()?, epd);
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    pub fn push(&mut self, operation: Operation) {
        self.operations.push(operation);
        self.sync_clocks();
    }

    /// Puts `operation` in place of the operations with its opcode (where
    /// the first of them stood), or adds it after the others when there is
    /// none. Clocks follow as for [`Epd::push`].
    ///
    /// ```
    /// use bitboards::{Epd, Operation};
    ///
    /// let mut epd: Epd = r#"4k3/8/8/8/8/8/8/4K3 w - - id "old"; bm Kd2; id "older";"#.parse()?;
    /// epd.set(Operation::new("id", ["new"])?);
    /// assert_eq!(epd.to_string(), r#"4k3/8/8/8/8/8/8/4K3 w - - id "new"; bm Kd2;"#);
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    pub fn set(&mut self, operation: Operation) {
        match self
            .operations
            .iter()
            .position(|old| old.opcode == operation.opcode)
        {
            Some(first) => {
                let opcode = operation.opcode.clone();
                self.operations[first] = operation;
                let mut index = 0;
                self.operations.retain(|old| {
                    let keep = index <= first || old.opcode != opcode;
                    index += 1;
                    keep
                });
            }
            None => self.operations.push(operation),
        }
        self.sync_clocks();
    }

    /// Without clocks in the FEN, the position's clocks are those of the
    /// first `hmvc` and `fmvn` operations, else 0 and 1.
    fn sync_clocks(&mut self) {
        if self.fen_clocks {
            return;
        }
        let clock = |opcode| {
            self.operation(opcode)
                .and_then(Operation::operand)
                .and_then(|operand| operand.parse::<u16>().ok())
        };
        let halfmove = clock("hmvc").unwrap_or(0);
        let fullmove = clock("fmvn").unwrap_or(1);
        if (halfmove, fullmove)
            == (
                self.position.halfmove_clock(),
                self.position.fullmove_number(),
            )
        {
            return;
        }
        let mut setup = self.position.setup();
        setup.halfmove_clock = halfmove;
        setup.fullmove_number = fullmove;
        // Only the clocks change, and an operation's `fmvn` is never 0, so
        // the position stays one; the checks on check have passed already.
        if let Ok(position) = Position::from_setup_allow_impossible_check(setup) {
            self.position = position;
        }
    }
}

/// Reads one record, as [`Epd::parse`].
///
/// ```
/// use bitboards::Epd;
///
/// let epd: Epd = "4k3/8/8/8/8/8/8/4K3 w - - bm Kd2;".parse()?;
/// assert_eq!(epd.best_moves(), ["Kd2"]);
/// # Ok::<(), bitboards::EpdError>(())
/// ```
impl FromStr for Epd {
    type Err = EpdError;

    fn from_str(text: &str) -> Result<Epd, EpdError> {
        Epd::parse(text)
    }
}

/// Writes the record: the FEN's first four fields (six when it was read
/// with the clocks), then ` opcode operand...;` for each operation.
/// Operands with whitespace, `;` or `"` in them, empty ones, and those of
/// `id` and `c0`..`c9` are quoted.
///
/// ```
/// use bitboards::Epd;
///
/// let epd: Epd = r#"4k3/8/8/8/8/8/8/4K3 w - - id WAC.001 ;pv  "Kd2"  Kd7"#.parse()?;
/// assert_eq!(epd.to_string(), r#"4k3/8/8/8/8/8/8/4K3 w - - id "WAC.001"; pv Kd2 Kd7;"#);
/// # Ok::<(), bitboards::EpdError>(())
/// ```
impl fmt::Display for Epd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fen = self.position.fen().to_string();
        let fen = if self.fen_clocks {
            &fen[..]
        } else {
            let end = fen
                .match_indices(' ')
                .nth(3)
                .map_or(fen.len(), |(at, _)| at);
            &fen[..end]
        };
        f.write_str(fen)?;
        for operation in &self.operations {
            write!(f, " {operation}")?;
        }
        Ok(())
    }
}

impl Operation {
    /// An operation from its opcode and operands. Operands may hold any
    /// text (writing quotes them as needed); the opcode must be a letter,
    /// then letters, digits and `_`, and the numeric operations take one
    /// unsigned integer: `Dn` (perft counts), `hmvc` (up to 65535) and
    /// `fmvn` (1 to 65535). An error's column counts in the operation as
    /// `Display` writes it.
    ///
    /// ```
    /// use bitboards::{EpdErrorKind, Operation};
    ///
    /// let operation = Operation::new("D3", ["8902"])?;
    /// assert_eq!(operation.operands(), ["8902"]);
    ///
    /// let error = Operation::new("3D", ["8902"]).unwrap_err();
    /// assert_eq!(error.kind(), &EpdErrorKind::OpcodeStart('3'));
    /// let error = Operation::new("fmvn", ["0"]).unwrap_err();
    /// assert_eq!(error.to_string(), "EPD column 6: `fmvn` needs a number from 1 to 65535, found `0`");
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    pub fn new<S: Into<String>>(
        opcode: impl Into<String>,
        operands: impl IntoIterator<Item = S>,
    ) -> Result<Operation, EpdError> {
        let operation = Operation {
            opcode: opcode.into(),
            operands: operands.into_iter().map(Into::into).collect(),
        };
        check_opcode(&operation.opcode).map_err(|(offset, kind)| EpdError {
            line: None,
            column: column(&operation.opcode, offset),
            kind,
        })?;
        // The numbers are checked on the written form, so that the error's
        // column points into it.
        let written = operation.to_string();
        let mut operations = Vec::new();
        parse_operations(&written, 0, &mut operations)?;
        Ok(operation)
    }

    /// The opcode.
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// let epd: Epd = "4k3/8/8/8/8/8/8/4K3 w - - acd 12;".parse()?;
    /// assert_eq!(epd.operations()[0].opcode(), "acd");
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    #[must_use]
    pub fn opcode(&self) -> &str {
        &self.opcode
    }

    /// The operands, unquoted, in order.
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// let epd: Epd = r#"4k3/8/8/8/8/8/8/4K3 w - - pv Kd2 "Kd7";"#.parse()?;
    /// assert_eq!(epd.operations()[0].operands(), ["Kd2", "Kd7"]);
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    #[must_use]
    pub fn operands(&self) -> &[String] {
        &self.operands
    }

    /// The first operand, if any.
    ///
    /// ```
    /// use bitboards::Operation;
    ///
    /// assert_eq!(Operation::new("id", ["x", "y"])?.operand(), Some("x"));
    /// assert_eq!(Operation::new("noop", [""; 0])?.operand(), None);
    /// # Ok::<(), bitboards::EpdError>(())
    /// ```
    #[must_use]
    pub fn operand(&self) -> Option<&str> {
        self.operands.first().map(String::as_str)
    }
}

/// Writes `opcode operand...;`, quoting operands as [`Epd`]'s `Display`
/// says.
///
/// ```
/// use bitboards::Operation;
///
/// let operation = Operation::new("c1", [r#"say "hi""#])?;
/// assert_eq!(operation.to_string(), r#"c1 "say \"hi\"";"#);
/// assert_eq!(Operation::new("bm", ["Nf3", ""])?.to_string(), r#"bm Nf3 "";"#);
/// # Ok::<(), bitboards::EpdError>(())
/// ```
impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.opcode)?;
        let always = self.opcode == "id" || comment_opcode(&self.opcode);
        for operand in &self.operands {
            f.write_char(' ')?;
            let quote = always
                || operand.is_empty()
                || operand
                    .chars()
                    .any(|c| c.is_whitespace() || c == ';' || c == '"');
            if quote {
                f.write_char('"')?;
                for c in operand.chars() {
                    if c == '"' || c == '\\' {
                        f.write_char('\\')?;
                    }
                    f.write_char(c)?;
                }
                f.write_char('"')?;
            } else {
                f.write_str(operand)?;
            }
        }
        f.write_char(';')
    }
}

impl EpdError {
    /// The line, counted from 1, when the record was read from a file by
    /// [`read`].
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// assert_eq!("4k3/8/8/8/8/8/8/4K3 w -".parse::<Epd>().unwrap_err().line(), None);
    /// let error = bitboards::epd::read("\n4k3/8/8/8/8/8/8/4K3 w -").next().unwrap().unwrap_err();
    /// assert_eq!(error.line(), Some(2));
    /// ```
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// The column of the problem, counted in characters from 1 (one past
    /// the last character when something is missing at the end).
    ///
    /// ```
    /// use bitboards::Epd;
    ///
    /// let error = r#"4k3/8/8/8/8/8/8/4K3 w - - c0 "open"#.parse::<Epd>().unwrap_err();
    /// assert_eq!(error.column(), 30);
    /// ```
    #[must_use]
    pub fn column(&self) -> usize {
        self.column
    }

    /// What is wrong.
    ///
    /// ```
    /// use bitboards::{Epd, EpdErrorKind};
    ///
    /// let error = "4k3/8/8/8/8/8/8/4K3 w - - 1bm e4;".parse::<Epd>().unwrap_err();
    /// assert_eq!(error.kind(), &EpdErrorKind::OpcodeStart('1'));
    /// ```
    #[must_use]
    pub fn kind(&self) -> &EpdErrorKind {
        &self.kind
    }
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "EPD line {line}, column {}: ", self.column)?,
            None => write!(f, "EPD column {}: ", self.column)?,
        }
        fmt::Display::fmt(&self.kind, f)
    }
}

/// No `source`: the message already holds the FEN error's, and a chain
/// printer (`anyhow`'s `{:#}`) would print it twice.
impl core::error::Error for EpdError {}

/// The problem alone, without where it is.
///
/// ```
/// use bitboards::EpdErrorKind;
///
/// assert_eq!(
///     EpdErrorKind::OpcodeSymbol('-').to_string(),
///     "`-` cannot be in an opcode; an opcode is a letter, then letters, digits and `_`"
/// );
/// ```
impl fmt::Display for EpdErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdErrorKind::Fen(error) => match *error {
                FenError::Syntax { field, problem, .. } => {
                    write!(
                        f,
                        "FEN field {} ({}): {problem}",
                        field.number(),
                        field.name()
                    )
                }
                FenError::Illegal { field, problem, .. } => {
                    write!(
                        f,
                        "FEN field {} ({}): {problem}",
                        field.number(),
                        field.name()
                    )
                }
                // `NotStandardCastling` comes only with
                // `Validation::standard_castling`; its message has the place.
                FenError::FieldCount { .. } | FenError::NotStandardCastling { .. } => {
                    write!(f, "{error}")
                }
            },
            EpdErrorKind::MissingFields { found } => write!(
                f,
                "{found} FEN {}; an EPD record starts with 4 (board, side to move, castling, en passant)",
                if *found == 1 { "field" } else { "fields" }
            ),
            EpdErrorKind::EmptyOpcode => f.write_str("an operation needs an opcode"),
            EpdErrorKind::OpcodeStart(c) => {
                write!(f, "an opcode starts with a letter, not `{c}`")
            }
            EpdErrorKind::OpcodeSymbol(c) => write!(
                f,
                "`{c}` cannot be in an opcode; an opcode is a letter, then letters, digits and `_`"
            ),
            EpdErrorKind::UnterminatedQuote => {
                f.write_str("the quoted operand that starts here has no closing `\"`")
            }
            EpdErrorKind::OperandCount { opcode, found: 0 } => {
                write!(f, "`{opcode}` needs one unsigned integer, found none")
            }
            EpdErrorKind::OperandCount { opcode, found } => {
                write!(
                    f,
                    "`{opcode}` needs one unsigned integer, found {found} operands"
                )
            }
            EpdErrorKind::NotANumber { opcode, operand } => {
                write!(
                    f,
                    "`{opcode}` needs one unsigned integer, found `{operand}`"
                )
            }
            EpdErrorKind::OutOfRange {
                opcode,
                operand,
                min,
                max,
            } => write!(
                f,
                "`{opcode}` needs a number from {min} to {max}, found `{operand}`"
            ),
        }
    }
}

/// Reads every record of `text`, one per line, skipping blank lines; an
/// error carries its line number (from 1). Positions must follow every
/// rule, as in [`Epd::parse`].
///
/// ```
/// use bitboards::epd;
///
/// let text = "\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5\n\n4k3/8/8/8/8/8/8/4K3 b - - 0 1 ;D1 5\n";
/// let records = epd::read(text).collect::<Result<Vec<_>, _>>()?;
/// assert_eq!(records.len(), 2);
/// # Ok::<(), bitboards::EpdError>(())
/// ```
pub fn read(text: &str) -> impl Iterator<Item = Result<Epd, EpdError>> + '_ {
    read_lines(text, Validation::ALL_RULES)
}

/// [`read`] with each position read as by [`Epd::parse_with`].
///
/// ```
/// use bitboards::{Validation, epd};
///
/// let text = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1 ;D1 8\n";
/// assert!(epd::read(text).all(|record| record.is_err()));
/// let relaxed = Validation::default().allow_impossible_check();
/// assert!(epd::read_with(text, relaxed).all(|record| record.is_ok()));
/// ```
pub fn read_with(
    text: &str,
    validation: Validation,
) -> impl Iterator<Item = Result<Epd, EpdError>> + '_ {
    read_lines(text, validation)
}

/// [`read_with`] and [`Validation::allow_impossible_check`]: the old name,
/// kept for one release.
#[deprecated(
    since = "0.1.0",
    note = "use `epd::read_with(text, Validation::default().allow_impossible_check())`"
)]
pub fn read_allow_impossible_check(text: &str) -> impl Iterator<Item = Result<Epd, EpdError>> + '_ {
    read_lines(text, Validation::ALL_RULES.allow_impossible_check())
}

fn read_lines(
    text: &str,
    validation: Validation,
) -> impl Iterator<Item = Result<Epd, EpdError>> + '_ {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.bytes().all(|b| b.is_ascii_whitespace()))
        .map(move |(index, line)| {
            parse_record(line, validation).map_err(|error| EpdError {
                line: Some(index + 1),
                ..error
            })
        })
}

/// The 1-based character column of byte `offset` in `text`.
fn column(text: &str, offset: usize) -> usize {
    text.char_indices()
        .take_while(|&(at, _)| at < offset)
        .count()
        + 1
}

/// Whitespace between fields, tokens and operations: ASCII, as in FEN.
fn is_space(byte: u8) -> bool {
    byte.is_ascii_whitespace()
}

/// The end of the token (up to whitespace or `;`) starting at `at`.
fn token_end(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(|&b| !is_space(b) && b != b';') {
        at += 1;
    }
    at
}

fn skip_spaces(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).copied().is_some_and(is_space) {
        at += 1;
    }
    at
}

fn parse_record(text: &str, validation: Validation) -> Result<Epd, EpdError> {
    let bytes = text.as_bytes();
    let error = |offset, kind| EpdError {
        line: None,
        column: column(text, offset),
        kind,
    };
    // The four FEN fields, each ended by whitespace or `;`.
    let mut at = 0;
    for found in 0..4 {
        at = skip_spaces(bytes, at);
        if at == bytes.len() || bytes[at] == b';' {
            return Err(error(at, EpdErrorKind::MissingFields { found }));
        }
        at = token_end(bytes, at);
    }
    // Two integers next are the clocks of a six-field FEN.
    let is_number =
        |start: usize, end: usize| end > start && bytes[start..end].iter().all(u8::is_ascii_digit);
    let halfmove = skip_spaces(bytes, at);
    let halfmove_end = token_end(bytes, halfmove);
    let fullmove = skip_spaces(bytes, halfmove_end);
    let fullmove_end = token_end(bytes, fullmove);
    let fen_clocks = is_number(halfmove, halfmove_end) && is_number(fullmove, fullmove_end);
    if fen_clocks {
        at = fullmove_end;
    }
    // The FEN is a prefix of the line, so its columns are the line's.
    let fen = &text[..at];
    let position = Position::from_fen_with(fen, validation).map_err(|fen_error| EpdError {
        line: None,
        column: fen_error.column(),
        kind: EpdErrorKind::Fen(fen_error),
    })?;
    let mut epd = Epd {
        position,
        operations: Vec::new(),
        fen_clocks,
    };
    parse_operations(text, at, &mut epd.operations)?;
    epd.sync_clocks();
    Ok(epd)
}

/// Reads the operations of `text` from byte `at` on into `operations`:
/// split at `;` outside quotes, empty ones skipped.
fn parse_operations(
    text: &str,
    mut at: usize,
    operations: &mut Vec<Operation>,
) -> Result<(), EpdError> {
    let bytes = text.as_bytes();
    let error = |offset, kind| EpdError {
        line: None,
        column: column(text, offset),
        kind,
    };
    loop {
        while bytes.get(at).is_some_and(|&b| is_space(b) || b == b';') {
            at += 1;
        }
        if at == bytes.len() {
            return Ok(());
        }
        let opcode_start = at;
        at = token_end(bytes, at);
        let opcode = &text[opcode_start..at];
        check_opcode(opcode).map_err(|(offset, kind)| error(opcode_start + offset, kind))?;
        let mut operands = Vec::new();
        let mut starts = Vec::new();
        loop {
            at = skip_spaces(bytes, at);
            match bytes.get(at) {
                None => break,
                Some(b';') => {
                    at += 1;
                    break;
                }
                Some(b'"') => {
                    let open = at;
                    at += 1;
                    let mut operand = String::new();
                    loop {
                        // `at` is always on a character boundary: after
                        // the quote, an escape or a whole character.
                        let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) else {
                            return Err(error(open, EpdErrorKind::UnterminatedQuote));
                        };
                        match c {
                            '"' => {
                                at += 1;
                                break;
                            }
                            '\\' if matches!(bytes.get(at + 1), Some(b'"' | b'\\')) => {
                                operand.push(char::from(bytes[at + 1]));
                                at += 2;
                            }
                            c => {
                                operand.push(c);
                                at += c.len_utf8();
                            }
                        }
                    }
                    starts.push(open);
                    operands.push(operand);
                }
                Some(_) => {
                    let start = at;
                    at = token_end(bytes, at);
                    starts.push(start);
                    operands.push(text[start..at].to_string());
                }
            }
        }
        check_operands(opcode, &operands, &starts, opcode_start)
            .map_err(|(offset, kind)| error(offset, kind))?;
        operations.push(Operation {
            opcode: opcode.to_string(),
            operands,
        });
    }
}

/// The byte offset in `opcode` of its first wrong character, and why.
fn check_opcode(opcode: &str) -> Result<(), (usize, EpdErrorKind)> {
    let mut chars = opcode.char_indices();
    match chars.next() {
        None => return Err((0, EpdErrorKind::EmptyOpcode)),
        Some((_, first)) if !first.is_ascii_alphabetic() => {
            return Err((0, EpdErrorKind::OpcodeStart(first)));
        }
        Some(_) => {}
    }
    match chars.find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_')) {
        Some((offset, c)) => Err((offset, EpdErrorKind::OpcodeSymbol(c))),
        None => Ok(()),
    }
}

/// Checks the operand of `Dn`, `hmvc` and `fmvn`: one unsigned integer in
/// range. On error, the byte offset to blame (`starts` holds each operand's).
fn check_operands(
    opcode: &str,
    operands: &[String],
    starts: &[usize],
    opcode_start: usize,
) -> Result<(), (usize, EpdErrorKind)> {
    let (min, max) = match opcode {
        "hmvc" => (0, u64::from(u16::MAX)),
        "fmvn" => (1, u64::from(u16::MAX)),
        _ if perft_depth(opcode).is_some() => (0, u64::MAX),
        _ => return Ok(()),
    };
    let (operand, start) = match (operands, starts) {
        ([operand], [start]) => (operand, *start),
        _ => {
            let offset = starts.get(1).copied().unwrap_or(opcode_start);
            return Err((
                offset,
                EpdErrorKind::OperandCount {
                    opcode: opcode.to_string(),
                    found: operands.len(),
                },
            ));
        }
    };
    if operand.is_empty() || !operand.bytes().all(|b| b.is_ascii_digit()) {
        return Err((
            start,
            EpdErrorKind::NotANumber {
                opcode: opcode.to_string(),
                operand: operand.clone(),
            },
        ));
    }
    match operand.parse::<u64>() {
        Ok(number) if (min..=max).contains(&number) => Ok(()),
        _ => Err((
            start,
            EpdErrorKind::OutOfRange {
                opcode: opcode.to_string(),
                operand: operand.clone(),
                min,
                max,
            },
        )),
    }
}

/// The depth of a perft count's opcode: `D` then a number.
fn perft_depth(opcode: &str) -> Option<u32> {
    let digits = opcode.strip_prefix('D')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// `c0` to `c9`.
fn comment_opcode(opcode: &str) -> bool {
    matches!(opcode.as_bytes(), [b'c', b'0'..=b'9'])
}
