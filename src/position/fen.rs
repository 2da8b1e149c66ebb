//! Forsyth-Edwards Notation: reading (standard, X-FEN and Shredder-FEN) and
//! writing.
//!
//! A FEN has six fields separated by spaces: the board (rank 8 first, `/`
//! between ranks, a digit for a run of empty squares), the side to move (`w`
//! or `b`), castling rights, the en passant square, the halfmove clock and
//! the fullmove number. The last two may be left out (they then read as 0
//! and 1).
//!
//! Castling rights are read in all three common forms: `KQkq` (standard;
//! in Chess960, X-FEN's "the outermost rook on that side"), a rook's file
//! letter (`HAha`, Shredder-FEN; X-FEN uses it where `K` or `Q` would be
//! ambiguous), or `-`.
//!
//! ```
//! use bitboards::Position;
//!
//! let position = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha -")?;
//! assert_eq!(position, Position::START);
//! assert_eq!(position.fen().to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
//! # Ok::<(), bitboards::FenError>(())
//! ```

use core::fmt;
use core::str::FromStr;

use super::{CastlingRights, CastlingSide, Position, PositionError, Setup, Validation, validate};
use crate::{Bitboard, Color, File, ParseSquareError, Piece, PieceKind, Rank, Square};
use bitboards_core::placement::home_rank;

/// One of the six fields of a FEN.
///
/// ```
/// use bitboards::FenField;
///
/// assert_eq!(FenField::Castling.number(), 3);
/// assert_eq!(FenField::Castling.name(), "castling");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum FenField {
    /// Field 1: where the pieces stand.
    Board,
    /// Field 2: `w` or `b`.
    SideToMove,
    /// Field 3: castling rights.
    Castling,
    /// Field 4: the en passant square or `-`.
    EnPassant,
    /// Field 5: the halfmove clock.
    HalfmoveClock,
    /// Field 6: the fullmove number.
    FullmoveNumber,
}

impl FenField {
    /// The six fields in order.
    ///
    /// ```
    /// use bitboards::FenField;
    ///
    /// assert_eq!(FenField::ALL[5], FenField::FullmoveNumber);
    /// ```
    pub const ALL: [FenField; 6] = [
        FenField::Board,
        FenField::SideToMove,
        FenField::Castling,
        FenField::EnPassant,
        FenField::HalfmoveClock,
        FenField::FullmoveNumber,
    ];

    /// The field's number, 1 to 6.
    ///
    /// ```
    /// assert_eq!(bitboards::FenField::Board.number(), 1);
    /// ```
    #[must_use]
    pub const fn number(self) -> usize {
        self as usize + 1
    }

    /// The field's name, such as `"en passant"`.
    ///
    /// ```
    /// assert_eq!(bitboards::FenField::SideToMove.name(), "side to move");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FenField::Board => "board",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
        }
    }
}

/// A character that does not belong where it stands in a FEN field.
///
/// ```
/// use bitboards::{FenError, FenField, FenSyntaxError, Position};
///
/// let error = Position::from_fen("4k3/8/8/8/8/8/8/4K3 x - - 0 1").unwrap_err();
/// assert_eq!(error, FenError::Syntax {
///     field: FenField::SideToMove,
///     column: 21,
///     problem: FenSyntaxError::SideToMove('x'),
/// });
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum FenSyntaxError {
    /// A character in the board that is neither a piece letter
    /// (`PNBRQKpnbrqk`), a digit `1` to `8`, nor `/`.
    BoardSymbol(char),
    /// Two digits in a row in the board, such as `44`: their sum is written
    /// as one digit.
    AdjacentDigits,
    /// A rank that does not describe exactly eight squares.
    RankSquares {
        /// The rank.
        rank: Rank,
        /// How many squares it describes.
        squares: usize,
    },
    /// The board does not have exactly eight ranks.
    RankCount {
        /// How many it has (9 when there are more than eight).
        found: usize,
    },
    /// The side to move is not `w` or `b`.
    SideToMove(char),
    /// A character in the castling field that is not `K`, `Q`, `k`, `q`, a
    /// file letter `A`-`H` or `a`-`h`, or a lone `-`.
    CastlingSymbol(char),
    /// A castling right given twice (such as `KK`, or `K` and `H` for the
    /// same rook).
    CastlingDuplicate {
        /// Whose right.
        color: Color,
        /// Which side.
        side: CastlingSide,
    },
    /// The en passant field is neither `-` nor a square name.
    EnPassant(ParseSquareError),
    /// A clock holds a character that is not a digit.
    ClockNotANumber(char),
    /// A clock does not fit: both clocks are at most 65535.
    ClockTooLarge,
    /// Characters after a field that is complete (`wb`, `e3x`, `-K`).
    Trailing(char),
}

impl fmt::Display for FenSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FenSyntaxError::BoardSymbol(c) => write!(
                f,
                "`{c}` is not a piece letter (`PNBRQK` White, `pnbrqk` Black), a digit 1 to 8 or `/`"
            ),
            FenSyntaxError::AdjacentDigits => {
                f.write_str("two digits in a row; a run of empty squares is one digit")
            }
            FenSyntaxError::RankSquares { rank, squares } => {
                write!(f, "rank {rank} has {squares} squares; a rank has 8")
            }
            FenSyntaxError::RankCount { found } if found > 8 => {
                f.write_str("more than 8 ranks; a board has 8")
            }
            FenSyntaxError::RankCount { found } => {
                write!(f, "the board has {found} ranks; a board has 8")
            }
            FenSyntaxError::SideToMove(c) => {
                write!(f, "`{c}` is not a side to move; expected `w` or `b`")
            }
            FenSyntaxError::CastlingSymbol(c) => write!(
                f,
                "`{c}` is not a castling right; expected `KQkq`, a rook's file letter (`A`-`H` White, `a`-`h` Black), or a lone `-`"
            ),
            FenSyntaxError::CastlingDuplicate { color, side } => {
                write!(f, "{color}'s {} castling right is given twice", side.name())
            }
            FenSyntaxError::EnPassant(error) => {
                write!(f, "the en passant field is `-` or a square: {error}")
            }
            FenSyntaxError::ClockNotANumber(c) => {
                write!(f, "`{c}` is not a digit; a clock is a number")
            }
            FenSyntaxError::ClockTooLarge => f.write_str("the number does not fit; at most 65535"),
            FenSyntaxError::Trailing(c) => write!(f, "unexpected `{c}` after the end of the field"),
        }
    }
}

/// Why a string is not the FEN of a legal position: which field, which
/// column (counted in characters from 1 over the whole string) and what is
/// wrong.
///
/// ```
/// use bitboards::{FenError, FenField, FenSyntaxError, Position, Rank};
///
/// let error = Position::from_fen("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err();
/// assert_eq!(error.to_string(), "FEN field 1 (board), column 19: `9` is not a piece letter (`PNBRQK` White, `pnbrqk` Black), a digit 1 to 8 or `/`");
///
/// let error = Position::from_fen("rnbqkbnr/pppppppp/ppp6/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err();
/// assert_eq!(error.to_string(), "FEN field 1 (board), column 22: rank 6 has 9 squares; a rank has 8");
/// assert_eq!(error.field(), Some(FenField::Board));
/// assert!(matches!(error, FenError::Syntax { problem: FenSyntaxError::RankSquares { rank: Rank::Sixth, squares: 9 }, .. }));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum FenError {
    /// Not 6 fields (or the first 4).
    FieldCount {
        /// How many fields the string has (7 when there are more than six).
        found: usize,
        /// Where the first extra field starts, or just past the end when
        /// fields are missing.
        column: usize,
    },
    /// A field is not written as FEN writes it.
    Syntax {
        /// The field.
        field: FenField,
        /// The column of the wrong character.
        column: usize,
        /// What is wrong.
        problem: FenSyntaxError,
    },
    /// The FEN is well formed, but the position breaks a rule.
    Illegal {
        /// The field that, changed, could make the position legal.
        field: FenField,
        /// The column of the character that breaks the rule (a piece, a
        /// castling letter, the first character of a field).
        column: usize,
        /// The rule broken.
        problem: PositionError,
    },
    /// Read with [`Validation::standard_castling`]: a castling right whose
    /// king is off the e-file or whose rook is off its corner, which only
    /// Chess960 allows.
    ///
    /// ```
    /// use bitboards::{FenError, Position, Validation};
    ///
    /// let standard = Validation::default().standard_castling();
    /// let error = Position::from_fen_with("4k3/8/8/8/8/8/8/3K3R w K - 0 1", standard).unwrap_err();
    /// assert!(matches!(error, FenError::NotStandardCastling { .. }));
    /// ```
    NotStandardCastling {
        /// The column of the castling letter.
        column: usize,
        /// Whose right.
        color: Color,
        /// Which side.
        side: CastlingSide,
        /// Where the king stands.
        king: Square,
        /// Where the castling rook stands.
        rook: Square,
    },
}

impl FenError {
    /// The field the error is in; `None` for extra fields.
    ///
    /// ```
    /// use bitboards::{FenField, Position};
    ///
    /// let error = Position::from_fen("8/8/8/8/8/8/8/8 w").unwrap_err();
    /// assert_eq!(error.field(), Some(FenField::Castling));
    /// ```
    #[must_use]
    pub const fn field(&self) -> Option<FenField> {
        match *self {
            FenError::FieldCount { found, .. } => {
                if found < 4 {
                    Some(FenField::ALL[found])
                } else if found == 5 {
                    Some(FenField::FullmoveNumber)
                } else {
                    None
                }
            }
            FenError::Syntax { field, .. } | FenError::Illegal { field, .. } => Some(field),
            FenError::NotStandardCastling { .. } => Some(FenField::Castling),
        }
    }

    /// The column the error points at, counted in characters from 1.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let error = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra").unwrap_err();
    /// assert_eq!(error.column(), 31);
    /// ```
    #[must_use]
    pub const fn column(&self) -> usize {
        match *self {
            FenError::FieldCount { column, .. }
            | FenError::Syntax { column, .. }
            | FenError::Illegal { column, .. }
            | FenError::NotStandardCastling { column, .. } => column,
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FenError::FieldCount { found, column } => {
                write!(f, "FEN column {column}: ")?;
                if found > 6 {
                    f.write_str("more than 6 fields")?;
                } else {
                    let plural = if found == 1 { "" } else { "s" };
                    write!(f, "{found} field{plural}")?;
                }
                f.write_str(
                    "; a FEN has 6 (board, side to move, castling, en passant, halfmove clock, fullmove number) or the first 4",
                )
            }
            FenError::Syntax {
                field,
                column,
                problem,
            } => write!(
                f,
                "FEN field {} ({}), column {column}: {problem}",
                field.number(),
                field.name()
            ),
            FenError::Illegal {
                field,
                column,
                problem,
            } => write!(
                f,
                "FEN field {} ({}), column {column}: {problem}",
                field.number(),
                field.name()
            ),
            FenError::NotStandardCastling {
                column,
                color,
                side,
                king,
                rook,
            } => {
                let home = Square::from_file_rank(File::E, king.rank());
                let corner = Square::from_file_rank(
                    match side {
                        CastlingSide::KingSide => File::H,
                        CastlingSide::QueenSide => File::A,
                    },
                    king.rank(),
                );
                write!(
                    f,
                    "FEN field 3 (castling), column {column}: {color}'s {} castling right has \
                     its king on {king} and its rook on {rook}, which only Chess960 allows; \
                     standard chess castles with the king on {home} and the rook on {corner} \
                     (`Position::from_fen` reads Chess960)",
                    side.name()
                )
            }
        }
    }
}

impl core::error::Error for FenError {}

/// The text being read. Positions inside it are byte offsets while
/// reading (FEN is ASCII, so that is fast); an error turns its offset into
/// a column counted in characters.
#[derive(Clone, Copy)]
struct Input<'a> {
    fen: &'a str,
}

impl<'a> Input<'a> {
    /// The 1-based character column of byte `offset` (any offset: one that
    /// is not on a character boundary counts the character it is inside).
    fn column(self, offset: usize) -> usize {
        self.fen
            .char_indices()
            .take_while(|&(start, _)| start < offset)
            .count()
            + 1
    }

    /// The character starting at byte `offset` (a space past the end).
    fn char_at(self, offset: usize) -> char {
        self.fen
            .get(offset..)
            .and_then(|rest| rest.chars().next())
            .unwrap_or(' ')
    }

    fn syntax(self, field: FenField, offset: usize, problem: FenSyntaxError) -> FenError {
        FenError::Syntax {
            field,
            column: self.column(offset),
            problem,
        }
    }

    fn bytes(self, field: Span) -> &'a [u8] {
        self.fen
            .as_bytes()
            .get(field.start..field.end)
            .unwrap_or_default()
    }
}

/// A field: the byte range it occupies in the input.
#[derive(Clone, Copy, Default)]
struct Span {
    start: usize,
    end: usize,
}

/// Splits the input at runs of ASCII whitespace into at most 7 fields (a
/// 7th only to point at it), and counts them.
fn split_fields(fen: &str) -> ([Span; 7], usize) {
    let bytes = fen.as_bytes();
    let mut fields = [Span::default(); 7];
    let mut count = 0;
    let mut at = 0;
    loop {
        while bytes.get(at).is_some_and(|&byte| is_space(byte)) {
            at += 1;
        }
        if at == bytes.len() {
            return (fields, count);
        }
        let start = at;
        at = field_end(bytes, at);
        if let Some(field) = fields.get_mut(count) {
            *field = Span { start, end: at };
        }
        count += 1;
    }
}

/// ASCII whitespace as [`u8::is_ascii_whitespace`] has it (space, tab,
/// line feed, form feed, carriage return), by one shift and mask.
const fn is_space(byte: u8) -> bool {
    const SPACES: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\n' | 1 << 0x0C | 1 << b'\r';
    byte <= b' ' && SPACES >> byte & 1 != 0
}

/// The offset of the first whitespace byte at or after `at` (the length
/// when there is none). Eight bytes at a time: a chunk without any byte
/// below `!` is skipped whole; otherwise the lowest such byte (which the
/// borrow trick finds exactly) is looked at.
fn field_end(bytes: &[u8], mut at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    while let Some(chunk) = bytes.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
        let word = u64::from_le_bytes(*chunk);
        // The high bit of each byte below 0x21 (bytes of 0x80 and above,
        // which are never whitespace, are masked out by `!word`).
        let low = word.wrapping_sub(ONES * 0x21) & !word & (ONES * 0x80);
        if low == 0 {
            at += 8;
            continue;
        }
        let first = at + (low.trailing_zeros() / 8) as usize;
        if is_space(bytes[first]) {
            return first;
        }
        at = first + 1;
    }
    while bytes.get(at).is_some_and(|&byte| !is_space(byte)) {
        at += 1;
    }
    at
}

/// What each byte is in a FEN's board field: a piece's index in
/// [`Piece::ALL`] (0 to 11), [`SLASH`], `SLASH + n` for the digit `n` (1 to
/// 8), or [`NOT_BOARD`].
const BOARD_BYTES: [u8; 256] = {
    let mut table = [NOT_BOARD; 256];
    let mut index = 0;
    while index < Piece::COUNT {
        let piece = Piece::ALL[index];
        table[piece.to_char() as usize] = index as u8;
        index += 1;
    }
    let mut digit = 1;
    while digit <= 8 {
        table[(b'0' + digit) as usize] = SLASH + digit;
        digit += 1;
    }
    table[b'/' as usize] = SLASH;
    table
};
const SLASH: u8 = 12;
const NOT_BOARD: u8 = 255;

/// The board field as a mailbox and as the twelve piece boards
/// (`placement::piece_boards` of that mailbox, built while reading).
fn parse_board(
    input: Input<'_>,
    field: Span,
) -> Result<([Option<Piece>; 64], [Bitboard; Piece::COUNT]), FenError> {
    let error = |offset, problem| input.syntax(FenField::Board, offset, problem);
    let mut board = [None; 64];
    let mut boards = [Bitboard::EMPTY; Piece::COUNT];
    // Ranks counted from the top: 0 is rank 8.
    let mut rank_from_top = 0;
    let mut squares = 0;
    let mut first_extra: Option<usize> = None;
    let mut previous_was_digit = false;

    let rank_done = |rank_from_top: usize, squares: usize, first_extra: Option<usize>, at| {
        if squares == 8 {
            return Ok(());
        }
        let rank = Rank::ALL[7 - rank_from_top];
        Err(error(
            first_extra.unwrap_or(at),
            FenSyntaxError::RankSquares { rank, squares },
        ))
    };

    for (at, &byte) in (field.start..).zip(input.bytes(field)) {
        let class = BOARD_BYTES[byte as usize];
        if class < SLASH {
            previous_was_digit = false;
            if squares < 8 {
                let square = (7 - rank_from_top) * 8 + squares;
                board[square] = Some(Piece::ALL[class as usize]);
                boards[class as usize].0 |= 1 << square;
            } else if first_extra.is_none() {
                first_extra = Some(at);
            }
            squares += 1;
        } else if class == SLASH {
            rank_done(rank_from_top, squares, first_extra, at)?;
            if rank_from_top == 7 {
                return Err(error(at, FenSyntaxError::RankCount { found: 9 }));
            }
            rank_from_top += 1;
            squares = 0;
            first_extra = None;
            previous_was_digit = false;
        } else if class != NOT_BOARD {
            if previous_was_digit {
                return Err(error(at, FenSyntaxError::AdjacentDigits));
            }
            previous_was_digit = true;
            let run = usize::from(class - SLASH);
            if squares + run > 8 && first_extra.is_none() {
                first_extra = Some(at);
            }
            squares += run;
        } else {
            return Err(error(at, FenSyntaxError::BoardSymbol(input.char_at(at))));
        }
    }
    rank_done(rank_from_top, squares, first_extra, field.end)?;
    if rank_from_top < 7 {
        return Err(error(
            field.end,
            FenSyntaxError::RankCount {
                found: rank_from_top + 1,
            },
        ));
    }
    Ok((board, boards))
}

/// The byte offset of `square`'s letter in a board field already read
/// without error (the field's start if the square is empty).
fn square_offset(input: Input<'_>, field: Span, square: Square) -> usize {
    let mut rank_start: usize = 56;
    let mut index = rank_start;
    for (at, &byte) in (field.start..).zip(input.bytes(field)) {
        match byte {
            b'/' => {
                rank_start = rank_start.saturating_sub(8);
                index = rank_start;
            }
            b'1'..=b'8' => index += usize::from(byte - b'0'),
            _ => {
                if index == square.index() {
                    return at;
                }
                index += 1;
            }
        }
    }
    field.start
}

fn parse_side(input: Input<'_>, field: Span) -> Result<Color, FenError> {
    let side = match input.bytes(field).first() {
        Some(b'w') => Color::White,
        Some(b'b') => Color::Black,
        _ => {
            let found = input.char_at(field.start);
            return Err(input.syntax(
                FenField::SideToMove,
                field.start,
                FenSyntaxError::SideToMove(found),
            ));
        }
    };
    no_trailing(input, FenField::SideToMove, field, 1)?;
    Ok(side)
}

/// An error for anything in `field` past its first `length` bytes.
fn no_trailing(
    input: Input<'_>,
    field: FenField,
    span: Span,
    length: usize,
) -> Result<(), FenError> {
    let end = span.start + length;
    if end < span.end {
        let found = input.char_at(end);
        return Err(input.syntax(field, end, FenSyntaxError::Trailing(found)));
    }
    Ok(())
}

/// One letter of the castling field, before it is matched with the board.
#[derive(Clone, Copy)]
struct CastlingLetter {
    letter: bitboards_core::CastlingLetter,
    offset: usize,
}

/// Reads the castling field's letters (at most four can be distinct; a
/// fifth is reported as a duplicate when the letters are matched).
fn parse_castling(
    input: Input<'_>,
    field: Span,
) -> Result<([Option<CastlingLetter>; 5], usize), FenError> {
    let mut letters = [None; 5];
    let mut count = 0;
    let bytes = input.bytes(field);
    if bytes == b"-" {
        return Ok((letters, 0));
    }
    for (offset, &byte) in (field.start..).zip(bytes) {
        let Some(letter) = bitboards_core::CastlingLetter::from_ascii(byte) else {
            let found = input.char_at(offset);
            return Err(input.syntax(
                FenField::Castling,
                offset,
                FenSyntaxError::CastlingSymbol(found),
            ));
        };
        if let Some(slot) = letters.get_mut(count) {
            *slot = Some(CastlingLetter { letter, offset });
            count += 1;
        }
    }
    Ok((letters, count))
}

/// Matches castling letters with the board (see
/// [`bitboards_core::CastlingLetter::resolve`]); a right given twice is an
/// error. Returns the rights and the offset of each one's letter.
fn resolve_castling(
    input: Input<'_>,
    letters: &[Option<CastlingLetter>],
    board: &[Option<Piece>; 64],
) -> Result<(CastlingRights, [[usize; 2]; 2]), FenError> {
    let mut rights = CastlingRights::NONE;
    let mut offsets = [[0; 2]; 2];
    for letter in letters.iter().flatten() {
        let color = letter.letter.color;
        let (side, file) = letter.letter.resolve(board);
        if rights.has(color, side) {
            return Err(input.syntax(
                FenField::Castling,
                letter.offset,
                FenSyntaxError::CastlingDuplicate { color, side },
            ));
        }
        rights = rights.with(color, side, Some(file));
        offsets[color.index()][side.index()] = letter.offset;
    }
    Ok((rights, offsets))
}

fn parse_en_passant(input: Input<'_>, field: Span) -> Result<Option<Square>, FenError> {
    let bytes = input.bytes(field);
    if bytes == b"-" {
        return Ok(None);
    }
    let error = |offset, problem| {
        input.syntax(
            FenField::EnPassant,
            offset,
            FenSyntaxError::EnPassant(problem),
        )
    };
    let (file, rank) = match *bytes {
        [file, rank, ..] => (file, rank),
        _ => return Err(error(field.start, ParseSquareError::BadLength(1))),
    };
    let file = match file {
        b'a'..=b'h' => File::ALL[usize::from(file - b'a')],
        _ => {
            let found = input.char_at(field.start);
            return Err(error(field.start, ParseSquareError::BadFile(found)));
        }
    };
    let rank = match rank {
        b'1'..=b'8' => Rank::ALL[usize::from(rank - b'1')],
        _ => {
            let found = input.char_at(field.start + 1);
            return Err(error(field.start + 1, ParseSquareError::BadRank(found)));
        }
    };
    no_trailing(input, FenField::EnPassant, field, 2)?;
    Ok(Some(Square::from_file_rank(file, rank)))
}

fn parse_clock(input: Input<'_>, field: FenField, span: Span) -> Result<u16, FenError> {
    let mut value: u16 = 0;
    for (offset, &byte) in (span.start..).zip(input.bytes(span)) {
        if !byte.is_ascii_digit() {
            let found = input.char_at(offset);
            return Err(input.syntax(field, offset, FenSyntaxError::ClockNotANumber(found)));
        }
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u16::from(byte - b'0')))
            .ok_or_else(|| input.syntax(field, span.start, FenSyntaxError::ClockTooLarge))?;
    }
    Ok(value)
}

/// The first castling right (White's first, king side first) that is not
/// standard chess's, a king on file e and its rook in the corner, with
/// that right's rook file.
fn first_not_standard(position: &Position) -> Option<(Color, CastlingSide, File)> {
    let rights = position.castling();
    Color::ALL.into_iter().find_map(|color| {
        let king_file = position.king(color).file();
        CastlingSide::ALL.into_iter().find_map(|side| {
            let file = rights.rook_file(color, side)?;
            let corner = match side {
                CastlingSide::KingSide => File::H,
                CastlingSide::QueenSide => File::A,
            };
            (king_file != File::E || file != corner).then_some((color, side, file))
        })
    })
}

/// Reads a FEN written the plain way, in one pass: single spaces between
/// four or six fields, nothing before or after. `None` for anything else,
/// and for any error: the careful reader ([`Position::read_fen_located`])
/// then reads the text again, for the exact error and its column, or for
/// the other layouts it accepts. Both build the position with the same
/// rules ([`validate::check_with_boards`]), so where this one answers,
/// they agree.
///
/// This is the reader of nearly every FEN a program meets (a dataset, an
/// EPD file, a PGN `FEN` tag): one loop over the bytes, the board and the
/// fields split as they are read, where the careful reader finds the
/// fields first and keeps every offset.
fn read_plain(bytes: &[u8], allow_impossible_check: bool) -> Option<Position> {
    let mut board = [None; 64];
    let mut boards = [Bitboard::EMPTY; Piece::COUNT];
    // The next square to fill and the end of its rank (exclusive).
    let mut square = 56;
    let mut rank_end = 64;
    let mut previous_was_digit = false;
    let mut at = 0;
    loop {
        let byte = *bytes.get(at)?;
        at += 1;
        let class = BOARD_BYTES[usize::from(byte)];
        if class < SLASH {
            if square >= rank_end {
                return None;
            }
            board[square] = Some(Piece::ALL[usize::from(class)]);
            boards[usize::from(class)].0 |= 1 << square;
            square += 1;
            previous_was_digit = false;
        } else if class == SLASH {
            if square != rank_end || rank_end == 8 {
                return None;
            }
            rank_end -= 8;
            square = rank_end - 8;
            previous_was_digit = false;
        } else if class != NOT_BOARD {
            if previous_was_digit {
                return None;
            }
            square += usize::from(class - SLASH);
            if square > rank_end {
                return None;
            }
            previous_was_digit = true;
        } else if byte == b' ' && square == 8 && rank_end == 8 {
            break;
        } else {
            return None;
        }
    }
    let rest = bytes.get(at..)?;
    let (side_to_move, rest) = match rest {
        [b'w', b' ', rest @ ..] => (Color::White, rest),
        [b'b', b' ', rest @ ..] => (Color::Black, rest),
        _ => return None,
    };
    let (castling, rest) = plain_castling(rest, &board)?;
    let (en_passant, rest) = match rest {
        [b'-', rest @ ..] => (None, rest),
        [file @ b'a'..=b'h', rank @ b'1'..=b'8', rest @ ..] => (
            Some(Square::from_file_rank(
                File::ALL[usize::from(file - b'a')],
                Rank::ALL[usize::from(rank - b'1')],
            )),
            rest,
        ),
        _ => return None,
    };
    let (halfmove_clock, fullmove_number) = match rest {
        [] => (0, 1),
        [b' ', rest @ ..] => {
            let (halfmove, rest) = plain_number(rest)?;
            let (fullmove, rest) = plain_number(rest.strip_prefix(b" ")?)?;
            if !rest.is_empty() {
                return None;
            }
            (halfmove, fullmove)
        }
        _ => return None,
    };
    let setup = Setup {
        board,
        side_to_move,
        castling,
        en_passant,
        halfmove_clock,
        fullmove_number,
    };
    validate::check_with_boards(&setup, &boards, allow_impossible_check).ok()
}

/// The castling field and a space, for [`read_plain`]: `-` or up to four
/// letters, no right twice.
fn plain_castling<'a>(
    bytes: &'a [u8],
    board: &[Option<Piece>; 64],
) -> Option<(CastlingRights, &'a [u8])> {
    if let [b'-', b' ', rest @ ..] = bytes {
        return Some((CastlingRights::NONE, rest));
    }
    let mut rights = CastlingRights::NONE;
    for (at, &byte) in bytes.iter().enumerate() {
        if byte == b' ' && at > 0 {
            return Some((rights, &bytes[at + 1..]));
        }
        let letter = bitboards_core::CastlingLetter::from_ascii(byte)?;
        let (side, file) = letter.resolve(board);
        if rights.has(letter.color, side) {
            return None;
        }
        rights = rights.with(letter.color, side, Some(file));
    }
    None
}

/// A clock, for [`read_plain`]: one to five digits that fit a `u16`.
fn plain_number(bytes: &[u8]) -> Option<(u16, &[u8])> {
    let digits = bytes
        .iter()
        .take_while(|byte| byte.is_ascii_digit())
        .count();
    if digits == 0 || digits > 5 {
        return None;
    }
    let (number, rest) = bytes.split_at(digits);
    let value = number.iter().try_fold(0u16, |value, &digit| {
        value.checked_mul(10)?.checked_add(u16::from(digit - b'0'))
    })?;
    Some((value, rest))
}

/// Where each part of a FEN was read, for pointing at what breaks a rule.
struct Locations {
    board: Span,
    side: usize,
    castling: [[usize; 2]; 2],
    en_passant: usize,
    fullmove: usize,
}

impl Locations {
    /// The field and column to blame for `problem`.
    fn locate(
        &self,
        input: Input<'_>,
        problem: PositionError,
        board: &[Option<Piece>; 64],
    ) -> FenError {
        let board_at = |square: Square| (FenField::Board, square_offset(input, self.board, square));
        let (field, offset) = match problem {
            PositionError::KingCount { color, found } => {
                // The second king in the order a FEN writes the squares:
                // rank 8 first, a to h.
                let king = Some(Piece::new(color, PieceKind::King));
                let second = Rank::ALL
                    .into_iter()
                    .rev()
                    .flat_map(|rank| File::ALL.map(|file| Square::from_file_rank(file, rank)))
                    .filter(|square| board[square.index()] == king)
                    .nth(1);
                match second {
                    Some(second) if found > 1 => board_at(second),
                    _ => (FenField::Board, self.board.start),
                }
            }
            PositionError::PawnOnBackRank { square, .. } => board_at(square),
            PositionError::CastlingWithoutKing { color, side }
            | PositionError::CastlingWithoutRook { color, side, .. } => (
                FenField::Castling,
                self.castling[color.index()][side.index()],
            ),
            PositionError::EnPassantRank { .. }
            | PositionError::EnPassantWithoutPawn { .. }
            | PositionError::EnPassantBlocked { .. }
            | PositionError::CheckNotFromDoublePush { .. } => {
                (FenField::EnPassant, self.en_passant)
            }
            PositionError::OpponentInCheck { .. } => (FenField::SideToMove, self.side),
            PositionError::TooMuchMaterial { .. } => (FenField::Board, self.board.start),
            PositionError::TooManyCheckers { .. } => (FenField::Board, self.board.start),
            PositionError::DoubleCheckWithoutSlider { second, .. }
            | PositionError::AlignedCheckers { second, .. } => board_at(second),
            PositionError::FullmoveNumberZero => (FenField::FullmoveNumber, self.fullmove),
            // `PositionError` is `#[non_exhaustive]`: a rule added later
            // points at the board until it gets a place of its own.
            _ => (FenField::Board, self.board.start),
        };
        FenError::Illegal {
            field,
            column: input.column(offset),
            problem,
        }
    }
}

impl Position {
    /// Reads a FEN: standard, X-FEN or Shredder-FEN castling, six fields or
    /// the first four (the clocks then read as 0 and 1), separated by
    /// whitespace. The position must follow every rule of
    /// [`PositionError`].
    ///
    /// This is the Chess960 reading: a castling right may have its king
    /// and rook on any files of the home rank, so `K` with the king on d1
    /// and a rook on h1 is Chess960 castling. For standard chess only, with
    /// castling kings on e1/e8 and their rooks in the corners, use
    /// [`Position::from_fen_with`] and [`Validation::standard_castling`].
    ///
    /// ```
    /// use bitboards::{CastlingSide, Color, File, Position};
    ///
    /// let position = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?;
    /// assert_eq!(position.castling().rook_file(Color::White, CastlingSide::QueenSide), Some(File::A));
    ///
    /// // Shredder-FEN and four fields.
    /// let chess960 = Position::from_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf -")?;
    /// assert_eq!(chess960, Position::chess960(0).unwrap());
    ///
    /// let error = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w Q - 0 1").unwrap_err();
    /// assert_eq!(
    ///     error.to_string(),
    ///     "FEN field 3 (castling), column 24: white's queen-side castling right needs a white rook on a1, on that side of the king"
    /// );
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, Validation::ALL_RULES)
    }

    /// [`Position::from_fen`] with the [`Validation`] options: standard
    /// castling only, or impossible checks allowed.
    ///
    /// ```
    /// use bitboards::{FenError, Position, Validation};
    ///
    /// let standard = Validation::default().standard_castling();
    /// let chess960 = "4k3/8/8/8/8/8/8/3K3R w K - 0 1";
    /// assert!(matches!(
    ///     Position::from_fen_with(chess960, standard),
    ///     Err(FenError::NotStandardCastling { column: 24, .. })
    /// ));
    /// assert_eq!(
    ///     Position::from_fen_with("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", standard)?,
    ///     Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")?
    /// );
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    pub fn from_fen_with(fen: &str, validation: Validation) -> Result<Position, FenError> {
        if let Some(position) = read_plain(fen.as_bytes(), validation.allows_impossible_check())
            && (!validation.requires_standard_castling() || first_not_standard(&position).is_none())
        {
            return Ok(position);
        }
        let (position, castling_offsets) =
            Position::read_fen_located(fen, validation.allows_impossible_check())?;
        if !validation.requires_standard_castling() {
            return Ok(position);
        }
        let Some((color, side, file)) = first_not_standard(&position) else {
            return Ok(position);
        };
        let king = position.king(color);
        let offset = castling_offsets[color.index()][side.index()];
        Err(FenError::NotStandardCastling {
            column: Input { fen }.column(offset),
            color,
            side,
            king,
            rook: Square::from_file_rank(file, king.rank()),
        })
    }

    /// [`Position::from_fen_with`] and
    /// [`Validation::standard_castling`]: the old name, kept for one release.
    #[deprecated(
        since = "0.1.0",
        note = "use `Position::from_fen_with(fen, Validation::default().standard_castling())`"
    )]
    pub fn from_fen_standard(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, Validation::ALL_RULES.standard_castling())
    }

    /// [`Position::from_fen_with`] and
    /// [`Validation::allow_impossible_check`]: the old name, kept for one
    /// release.
    #[deprecated(
        since = "0.1.0",
        note = "use `Position::from_fen_with(fen, Validation::default().allow_impossible_check())`"
    )]
    pub fn from_fen_allow_impossible_check(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, Validation::ALL_RULES.allow_impossible_check())
    }

    /// [`Position::read_fen`], with the byte offset of the castling letter
    /// that gave each right, by colour and side.
    fn read_fen_located(
        fen: &str,
        allow_impossible_check: bool,
    ) -> Result<(Position, [[usize; 2]; 2]), FenError> {
        let input = Input { fen };
        let (fields, count) = split_fields(fen);
        if !(count == 4 || count == 6) {
            let offset = if count > 6 {
                fields[6].start
            } else {
                fen.len()
            };
            return Err(FenError::FieldCount {
                found: count.min(7),
                column: input.column(offset),
            });
        }
        let (board, boards) = parse_board(input, fields[0])?;
        let side_to_move = parse_side(input, fields[1])?;
        let (letters, letter_count) = parse_castling(input, fields[2])?;
        let en_passant = parse_en_passant(input, fields[3])?;
        let (halfmove_clock, fullmove_number) = if count == 6 {
            (
                parse_clock(input, FenField::HalfmoveClock, fields[4])?,
                parse_clock(input, FenField::FullmoveNumber, fields[5])?,
            )
        } else {
            (0, 1)
        };
        let (castling, castling_offsets) =
            resolve_castling(input, &letters[..letter_count], &board)?;

        let setup = Setup {
            board,
            side_to_move,
            castling,
            en_passant,
            halfmove_clock,
            fullmove_number,
        };
        validate::check_with_boards(&setup, &boards, allow_impossible_check)
            .map(|position| (position, castling_offsets))
            .map_err(|problem| {
                Locations {
                    board: fields[0],
                    side: fields[1].start,
                    castling: castling_offsets,
                    en_passant: fields[3].start,
                    fullmove: fields[5].start,
                }
                .locate(input, problem, &board)
            })
    }

    /// The position's FEN, to print with `Display` (`to_string()`).
    ///
    /// Castling rights are written `KQkq` where those letters say which rook
    /// is meant (the outermost one on that side of the king) and as the
    /// rook's file letter otherwise (X-FEN);
    /// [`Fen::shredder`] writes file letters throughout (Shredder-FEN).
    /// Printing and reading back gives the same position, and printing what
    /// was read gives the same text when the text was written this way.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let text = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let position = Position::from_fen(text)?;
    /// assert_eq!(position.fen().to_string(), text);
    /// assert_eq!(position.fen().shredder().to_string(), text.replace("KQkq", "HAha"));
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn fen(&self) -> Fen<'_> {
        Fen {
            position: self,
            shredder: false,
        }
    }
}

/// Reads a FEN, as [`Position::from_fen`].
///
/// ```
/// use bitboards::Position;
///
/// let position: Position = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse()?;
/// assert_eq!(position.occupied().count(), 2);
/// # Ok::<(), bitboards::FenError>(())
/// ```
impl FromStr for Position {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

/// A position's FEN, written by `Display`: from [`Position::fen`].
///
/// ```
/// use bitboards::Position;
///
/// let position = Position::chess960(0).unwrap();
/// let fen = position.fen();
/// assert_eq!(fen.to_string(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
/// assert_eq!(fen.shredder().to_string(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Fen<'a> {
    position: &'a Position,
    shredder: bool,
}

impl Fen<'_> {
    /// The same FEN with every castling right written as its rook's file
    /// letter (Shredder-FEN: `HAha`).
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// assert!(Position::START.fen().shredder().to_string().contains(" HAha "));
    /// ```
    #[must_use]
    pub fn shredder(self) -> Self {
        Fen {
            shredder: true,
            ..self
        }
    }
}

impl fmt::Display for Fen<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written into a buffer and handed to the formatter once: a
        // formatter call per square cost more than the rest of the FEN.
        f.write_str(self.text().as_str())
    }
}

impl Fen<'_> {
    /// The FEN's text on the stack, without `Display`'s formatter or an
    /// allocation: for a program that writes many FENs into a buffer of
    /// its own (a table's column, a line of JSON).
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let mut out = Vec::new();
    /// out.extend_from_slice(Position::START.fen().text().as_bytes());
    /// assert_eq!(out, b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    /// assert_eq!(Position::START.fen().text().as_str(), Position::START.fen().to_string());
    /// ```
    #[must_use]
    pub fn text(&self) -> FenText {
        let mut out = FenText {
            bytes: [0; FenText::CAPACITY],
            len: 0,
        };
        self.write_board(&mut out);
        out.push(b' ');
        out.push(match self.position.side_to_move() {
            Color::White => b'w',
            Color::Black => b'b',
        });
        out.push(b' ');
        self.write_castling(&mut out);
        out.push(b' ');
        match self.position.en_passant() {
            Some(square) => {
                out.push(square.file().to_char() as u8);
                out.push(square.rank().to_char() as u8);
            }
            None => out.push(b'-'),
        }
        out.push(b' ');
        out.number(self.position.halfmove_clock());
        out.push(b' ');
        out.number(self.position.fullmove_number());
        out
    }
}

impl Fen<'_> {
    /// The piece placement, rank 8 first: a store per square and no
    /// branch on what stands there (an empty square or a piece, a run of
    /// them ending or not: the processor could not foresee them).
    fn write_board(&self, out: &mut FenText) {
        let position = self.position;
        let mut letters = [0u8; 64];
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let letter = Piece::new(color, kind).to_char() as u8;
                for square in position.pieces(color, kind) {
                    letters[square as usize] = letter;
                }
            }
        }
        for (rank, row) in letters.chunks_exact(8).enumerate().rev() {
            let mut empty = 0u8;
            for &letter in row {
                // A piece ends a run of empty squares (its count written
                // before it); an empty square adds to the run.
                let piece = u8::from(letter != 0);
                out.put(b'0' + empty, piece & u8::from(empty > 0));
                out.put(letter, piece);
                empty = (empty + 1) * (1 - piece);
            }
            out.put(b'0' + empty, u8::from(empty > 0));
            out.put(b'/', u8::from(rank != 0));
        }
    }

    /// The castling field: `KQkq`-style letters, or file letters where a
    /// letter would not say which rook (always, for Shredder-FEN).
    fn write_castling(&self, out: &mut FenText) {
        let position = self.position;
        let castling = position.castling();
        if castling.is_empty() {
            out.push(b'-');
        }
        for color in Color::ALL {
            let rooks = position.pieces(color, PieceKind::Rook) & home_rank(color).bitboard();
            for side in CastlingSide::ALL {
                let Some(file) = castling.rook_file(color, side) else {
                    continue;
                };
                let outermost = match side {
                    CastlingSide::KingSide => rooks.last(),
                    CastlingSide::QueenSide => rooks.first(),
                }
                .is_some_and(|square| square.file() == file);
                let letter = match (self.shredder || !outermost, side) {
                    (true, _) => file.to_char(),
                    (false, CastlingSide::KingSide) => 'k',
                    (false, CastlingSide::QueenSide) => 'q',
                };
                let letter = match color {
                    Color::White => letter.to_ascii_uppercase(),
                    Color::Black => letter,
                };
                out.push(letter as u8);
            }
        }
    }
}

/// The text of one FEN, on the stack: from [`Fen::text`].
#[derive(Clone, Copy)]
pub struct FenText {
    bytes: [u8; FenText::CAPACITY],
    len: usize,
}

impl FenText {
    /// The longest FEN: 64 letters and 7 slashes, ` w `, four castling
    /// letters, ` e3 `, two clocks of five digits and the space between.
    const CAPACITY: usize = 71 + 3 + 4 + 4 + 5 + 1 + 5;

    fn push(&mut self, byte: u8) {
        self.put(byte, 1);
    }

    /// Stores `byte` after the text and keeps it there when `keep` is 1
    /// (when 0 the next byte stores over it).
    fn put(&mut self, byte: u8, keep: u8) {
        // Never full (see CAPACITY; a byte not kept is stored at most
        // one past the board's 71): a byte past it would be dropped, not
        // a panic.
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = byte;
            self.len += usize::from(keep);
        }
    }

    fn number(&mut self, value: u16) {
        let mut digits = [0u8; 5];
        let mut at = digits.len();
        let mut rest = value;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        for &digit in &digits[at..] {
            self.push(digit);
        }
    }

    /// The FEN as bytes (ASCII).
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The FEN as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Every byte pushed is ASCII; the fallback is never taken.
        core::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

impl fmt::Debug for FenText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for FenText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    extern crate alloc;
    use alloc::vec::Vec;

    use super::{BOARD_BYTES, NOT_BOARD, SLASH, field_end, is_space, read_plain};
    use crate::{Piece, Position};

    /// The FENs of the perft suite and the Chess960 suites, and the
    /// positions of a few random moves from each (written back as FENs).
    fn sample_fens() -> Vec<alloc::string::String> {
        use alloc::string::ToString;
        let files = [
            include_str!("../../tests/data/perftsuite.epd"),
            include_str!("../../tests/data/chess960-starts.epd"),
            include_str!("../../tests/data/chess960-random.epd"),
        ];
        let mut fens = Vec::new();
        let mut rng = bitboards_codegen::rng::SplitMix64::new(0x0F3A_D1E5);
        for line in files.iter().flat_map(|file| file.lines()) {
            let Some(fen) = line.split(';').next().map(str::trim) else {
                continue;
            };
            fens.push(fen.to_string());
            let Ok(mut position) = Position::from_fen(fen) else {
                continue;
            };
            for _ in 0..6 {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let pick = (rng.next_u64() % moves.len() as u64) as usize;
                position = position.play(moves[pick]).unwrap();
                fens.push(position.fen().to_string());
                fens.push(position.fen().shredder().to_string());
            }
        }
        fens
    }

    /// Where the one-pass reader answers, the careful reader gives the
    /// same position; and it answers every plainly written legal FEN.
    fn assert_agree(fen: &str, allow_impossible_check: bool) -> bool {
        let careful = Position::read_fen_located(fen, allow_impossible_check).map(|(p, _)| p);
        let plain = read_plain(fen.as_bytes(), allow_impossible_check);
        if let Some(plain) = plain {
            assert_eq!(Ok(plain), careful, "{fen:?}");
        }
        plain.is_some()
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "safe code only, and thousands of FENs: too slow under Miri"
    )]
    fn the_one_pass_reader_reads_every_suite_fen_as_the_careful_one() {
        let fens = sample_fens();
        assert!(fens.len() > 6_000, "{}", fens.len());
        for fen in &fens {
            let legal = Position::read_fen_located(fen, false).is_ok();
            assert_eq!(assert_agree(fen, false), legal, "{fen:?}");
            let four_fields: Vec<&str> = fen.split(' ').take(4).collect();
            assert_eq!(
                assert_agree(&four_fields.join(" "), false),
                legal,
                "{fen:?}"
            );
        }
    }

    /// Every FEN of the sample with one byte deleted, or replaced by one
    /// that matters somewhere in a FEN: the one-pass reader never accepts
    /// what the careful one refuses, nor reads it differently.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "safe code only, and thousands of FENs: too slow under Miri"
    )]
    fn the_one_pass_reader_never_accepts_what_the_careful_one_refuses() {
        let replacements = b" /18Kkpqb-wa3\t0x";
        let mut accepted = 0;
        let mut tried = 0;
        for fen in sample_fens().iter().step_by(7) {
            let bytes = fen.as_bytes();
            for at in 0..=bytes.len() {
                let mut edits: Vec<Vec<u8>> = Vec::new();
                if at < bytes.len() {
                    edits.push([&bytes[..at], &bytes[at + 1..]].concat());
                }
                for &byte in replacements {
                    edits
                        .push([&bytes[..at], &[byte], bytes.get(at + 1..).unwrap_or(&[])].concat());
                    edits.push([&bytes[..at], &[byte], &bytes[at..]].concat());
                }
                for edit in edits {
                    let Ok(edit) = core::str::from_utf8(&edit) else {
                        continue;
                    };
                    tried += 1;
                    for allow in [false, true] {
                        accepted += usize::from(assert_agree(edit, allow));
                    }
                }
            }
        }
        // Many edits still read (a digit for a digit, a piece for a piece).
        assert!(accepted > tried / 20, "{accepted} of {tried}");
    }

    #[test]
    fn is_space_is_ascii_whitespace() {
        for byte in 0..=u8::MAX {
            assert_eq!(is_space(byte), byte.is_ascii_whitespace(), "{byte:#04x}");
        }
    }

    #[test]
    fn board_bytes_classify_every_byte() {
        for byte in 0..=u8::MAX {
            let expected = match byte {
                b'/' => SLASH,
                b'1'..=b'8' => SLASH + (byte - b'0'),
                _ => match Piece::from_char(char::from(byte)).filter(|_| byte.is_ascii()) {
                    Some(piece) => piece.index() as u8,
                    None => NOT_BOARD,
                },
            };
            assert_eq!(BOARD_BYTES[usize::from(byte)], expected, "{byte:#04x}");
        }
    }

    /// The eight-bytes-at-a-time scan against a byte-by-byte one, on
    /// strings of every length up to 40 from an alphabet rich in bytes
    /// just below and at the whitespace boundary and in non-ASCII bytes.
    #[test]
    fn field_end_finds_the_first_whitespace() {
        const ALPHABET: &[u8] = b" \t\n\x0b\x0c\r\x00\x1f!/8Kk-\x80\xc3\xa9\xff";
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        // Miri runs the library's unit tests; a few strings per length do there.
        let strings = if cfg!(miri) { 2 } else { 500 };
        for length in 0..=40 {
            for _ in 0..strings {
                let bytes: Vec<u8> = (0..length)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        ALPHABET[(state % ALPHABET.len() as u64) as usize]
                    })
                    .collect();
                for start in 0..=length {
                    let expected = (start..length)
                        .find(|&at| bytes[at].is_ascii_whitespace())
                        .unwrap_or(length);
                    assert_eq!(field_end(&bytes, start), expected, "{bytes:?} from {start}");
                }
            }
        }
    }
}
