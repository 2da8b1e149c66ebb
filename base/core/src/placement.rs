//! The placement rules of a position: everything [`PositionError`] checks
//! that needs only where the pieces stand and the FEN fields, not attack
//! tables. [`check`] returns every violation, each with its square, in a
//! fixed-capacity list (no allocation, `const`). `bitboards`'
//! `Position::from_setup` and its `position!` macro both call it; the
//! rules on checks, which need attack tables, are left to the former.
//!
//! ```
//! use bitboards_core::{CastlingRights, Piece, PositionError, Setup, Square};
//! use bitboards_core::placement;
//!
//! let mut setup = Setup { board: [None; 64], castling: CastlingRights::NONE, ..Setup::START };
//! setup.board[Square::E1.index()] = Some(Piece::WhiteKing);
//! setup.board[Square::E8.index()] = Some(Piece::BlackKing);
//! setup.board[Square::A1.index()] = Some(Piece::WhitePawn);
//! setup.board[Square::H8.index()] = Some(Piece::BlackPawn);
//! let violations = placement::check(&setup);
//! assert_eq!(violations.len(), 2);
//! assert_eq!(violations.as_slice()[1].square, Some(Square::H8));
//! assert!(matches!(violations.as_slice()[0].error, PositionError::PawnOnBackRank { .. }));
//! ```

use core::fmt;

use crate::{Bitboard, CastlingSide, Color, Piece, PieceKind, Rank, Setup, Square};

/// Why a setup is not a position that can arise in a game: each rule
/// `Position::from_setup` and `Position::from_fen` check.
///
/// The placement rules are [`check`]'s; `bitboards` adds the rules on
/// checks, which need its attack tables.
///
/// ```
/// use bitboards_core::{Piece, PositionError, Setup, Square, placement};
///
/// let mut setup = Setup::START;
/// setup.board[Square::A1.index()] = Some(Piece::WhitePawn);
/// let error = placement::check(&setup).first().expect("a pawn on a1").error;
/// assert_eq!(error, PositionError::PawnOnBackRank { square: Square::A1, piece: Piece::WhitePawn });
/// assert!(error.to_string().contains("a1"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum PositionError {
    /// A side does not have exactly one king.
    KingCount {
        /// The side with too many or no kings.
        color: Color,
        /// How many kings of that colour are on the board.
        found: u32,
    },
    /// A pawn stands on the first or last rank, where no pawn can be.
    PawnOnBackRank {
        /// The pawn's square.
        square: Square,
        /// The pawn.
        piece: Piece,
    },
    /// More pieces of one side than a game can produce: more than 8 pawns,
    /// or more queens, rooks, knights and bishops (per square colour)
    /// beyond the starting set than pawns missing to have promoted.
    TooMuchMaterial {
        /// The side with too much material.
        color: Color,
    },
    /// A castling right while the king is not on its home rank (rank 1 for
    /// White, 8 for Black).
    CastlingWithoutKing {
        /// Whose right.
        color: Color,
        /// Which side.
        side: CastlingSide,
    },
    /// A castling right whose rook is not on the home rank, on that side of
    /// the king.
    CastlingWithoutRook {
        /// Whose right.
        color: Color,
        /// Which side.
        side: CastlingSide,
        /// Where the right says the rook stands.
        rook: Square,
    },
    /// An en passant square on a rank where the side to move cannot capture
    /// en passant (rank 6 when White is to move, rank 3 when Black is).
    EnPassantRank {
        /// The en passant square.
        square: Square,
    },
    /// No pawn of the side that just moved stands just past the en passant
    /// square, so none can just have double-pushed over it.
    EnPassantWithoutPawn {
        /// The en passant square.
        square: Square,
        /// Where the pawn that double-pushed should stand.
        pawn: Square,
    },
    /// The en passant square or the square the pawn started from is
    /// occupied, so no pawn can just have double-pushed across them.
    EnPassantBlocked {
        /// The en passant square.
        square: Square,
        /// The occupied square.
        occupied: Square,
    },
    /// The side not to move is in check: its opponent could take its king.
    OpponentInCheck {
        /// The king in check.
        king: Square,
        /// A piece attacking it.
        checker: Square,
    },
    /// The king of the side to move is attacked by more than two pieces; no
    /// move gives more than a double check.
    TooManyCheckers {
        /// How many pieces give check.
        count: u32,
    },
    /// Two checking pieces of which neither is a bishop, rook or queen: a
    /// double check needs a slider uncovered by the other piece's move.
    DoubleCheckWithoutSlider {
        /// One checking piece.
        first: Square,
        /// The other.
        second: Square,
    },
    /// Two checking pieces on one line through the king, one on each side:
    /// one of them must have given check before the last move.
    AlignedCheckers {
        /// One checking piece.
        first: Square,
        /// The other.
        second: Square,
    },
    /// The en passant square says the last move was a double push, but that
    /// push could not have given this check (neither by the pawn nor by
    /// uncovering a slider), or there are two checkers.
    CheckNotFromDoublePush {
        /// A checking piece the push does not explain.
        checker: Square,
    },
    /// The fullmove number is 0; it starts at 1.
    FullmoveNumberZero,
}

impl PositionError {
    /// The rule broken, as a fixed sentence without the squares: usable in a
    /// `const` panic, where the full `Display` message cannot be formatted.
    ///
    /// ```
    /// use bitboards_core::{Setup, placement};
    ///
    /// const EMPTY: Setup = Setup { board: [None; 64], ..Setup::START };
    /// // In a `const` item, a violation here could stop the compile with this text.
    /// const RULE: &str = match placement::check(&EMPTY).first() {
    ///     Some(violation) => violation.error.rule(),
    ///     None => "",
    /// };
    /// assert_eq!(RULE, "each side has exactly one king");
    /// ```
    #[must_use]
    pub const fn rule(&self) -> &'static str {
        match self {
            PositionError::KingCount { .. } => "each side has exactly one king",
            PositionError::PawnOnBackRank { .. } => "pawns never stand on the first or last rank",
            PositionError::TooMuchMaterial { .. } => {
                "a side has at most 8 pawns, and no more extra pieces than pawns it lacks"
            }
            PositionError::CastlingWithoutKing { .. } => {
                "a castling right needs its king on the home rank"
            }
            PositionError::CastlingWithoutRook { .. } => {
                "a castling right needs its rook on the home rank, on that side of the king"
            }
            PositionError::EnPassantRank { .. } => {
                "the en passant square is on rank 6 with White to move, rank 3 with Black"
            }
            PositionError::EnPassantWithoutPawn { .. } => {
                "the en passant square needs the pawn that just moved two squares past it"
            }
            PositionError::EnPassantBlocked { .. } => "the squares a double push crossed are empty",
            PositionError::OpponentInCheck { .. } => "the side not to move is not in check",
            PositionError::TooManyCheckers { .. } => "no more than two pieces give check",
            PositionError::DoubleCheckWithoutSlider { .. } => {
                "a double check includes a bishop, rook or queen"
            }
            PositionError::AlignedCheckers { .. } => {
                "two checking pieces are not on one line through the king"
            }
            PositionError::CheckNotFromDoublePush { .. } => {
                "a check after a double push comes from that push"
            }
            PositionError::FullmoveNumberZero => "the fullmove number starts at 1",
        }
    }
}

impl PositionError {
    /// The whole message, as [`Display`](fmt::Display) writes it, built by a
    /// `const fn`: a `const` panic (the `position!` macro's) can print it,
    /// squares and all, where `format!` cannot run.
    ///
    /// ```
    /// use bitboards_core::{PositionError, Square};
    ///
    /// const ERROR: PositionError = PositionError::OpponentInCheck { king: Square::E1, checker: Square::E2 };
    /// const TEXT: bitboards_core::placement::Message = ERROR.message();
    /// assert_eq!(TEXT.as_str(), ERROR.to_string());
    /// assert!(TEXT.as_str().ends_with("(the king on e1 is attacked from e2)"));
    /// ```
    #[must_use]
    pub const fn message(&self) -> Message {
        let mut m = Message::new();
        match *self {
            PositionError::KingCount { color, found } => {
                m.color(color);
                m.push(" has ");
                m.number(found);
                m.push(" kings; each side has exactly one");
            }
            PositionError::PawnOnBackRank { square, piece } => {
                m.push("a ");
                m.color(piece.color());
                m.push(" ");
                m.push(piece.kind().name());
                m.push(" on ");
                m.push(square.name());
                m.push(": pawns never stand on the first or last rank");
            }
            PositionError::TooMuchMaterial { color } => {
                m.color(color);
                m.push(
                    " has more material than a game can give it: at most 8 pawns, and no more \
                     promoted pieces than pawns missing, counting as promoted each queen past \
                     the first, rook or knight past the second, and bishop past the first on \
                     either square colour",
                );
            }
            PositionError::CastlingWithoutKing { color, side } => {
                m.color(color);
                m.push(" has a ");
                m.push(side.name());
                m.push(" castling right but its king is not on rank ");
                m.number(home_rank(color) as u32 + 1);
            }
            PositionError::CastlingWithoutRook { color, side, rook } => {
                m.color(color);
                m.push("'s ");
                m.push(side.name());
                m.push(" castling right needs a ");
                m.color(color);
                m.push(" rook on ");
                m.push(rook.name());
                m.push(", on that side of the king");
            }
            PositionError::EnPassantRank { square } => {
                m.push("en passant square ");
                m.push(square.name());
                m.push(
                    " is not on the rank the last double push crossed (rank 6 with White to \
                     move, rank 3 with Black)",
                );
            }
            PositionError::EnPassantWithoutPawn { square, pawn } => {
                m.push("en passant square ");
                m.push(square.name());
                m.push(", but no pawn stands on ");
                m.push(pawn.name());
                m.push(" that could just have moved two squares");
            }
            PositionError::EnPassantBlocked { square, occupied } => {
                m.push("en passant square ");
                m.push(square.name());
                m.push(", but ");
                m.push(occupied.name());
                m.push(" is occupied, so no pawn just moved two squares across it");
            }
            PositionError::OpponentInCheck { king, checker } => {
                m.push("the side not to move is in check (the king on ");
                m.push(king.name());
                m.push(" is attacked from ");
                m.push(checker.name());
                m.push(")");
            }
            PositionError::TooManyCheckers { count } => {
                m.number(count);
                m.push(" pieces give check; a move gives at most a double check");
            }
            PositionError::DoubleCheckWithoutSlider { first, second } => {
                m.push("double check from ");
                m.push(first.name());
                m.push(" and ");
                m.push(second.name());
                m.push(", neither a bishop, rook or queen: no single move gives that");
            }
            PositionError::AlignedCheckers { first, second } => {
                m.push("double check from ");
                m.push(first.name());
                m.push(" and ");
                m.push(second.name());
                m.push(" along one line through the king: no single move gives that");
            }
            PositionError::CheckNotFromDoublePush { checker } => {
                m.push("the check from ");
                m.push(checker.name());
                m.push(
                    " cannot come from the double push the en passant square says was the \
                     last move",
                );
            }
            PositionError::FullmoveNumberZero => m.push("the fullmove number is 0; it starts at 1"),
        }
        m
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().as_str())
    }
}

impl core::error::Error for PositionError {}

/// A message put together in a `const fn`: a fixed buffer of ASCII text
/// (see [`PositionError::message`]).
#[derive(Clone, Copy)]
pub struct Message {
    bytes: [u8; Message::CAPACITY],
    length: usize,
}

impl Message {
    /// Room for the longest message with its squares.
    const CAPACITY: usize = 256;

    const fn new() -> Message {
        Message {
            bytes: [0; Message::CAPACITY],
            length: 0,
        }
    }

    const fn push(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut index = 0;
        while index < bytes.len() && self.length < Message::CAPACITY {
            self.bytes[self.length] = bytes[index];
            self.length += 1;
            index += 1;
        }
    }

    const fn color(&mut self, color: Color) {
        self.push(match color {
            Color::White => "white",
            Color::Black => "black",
        });
    }

    const fn number(&mut self, mut value: u32) {
        let mut digits = [0u8; 10];
        let mut count = 0;
        loop {
            digits[count] = b'0' + (value % 10) as u8;
            count += 1;
            value /= 10;
            if value == 0 {
                break;
            }
        }
        while count > 0 && self.length < Message::CAPACITY {
            count -= 1;
            self.bytes[self.length] = digits[count];
            self.length += 1;
        }
    }

    /// The message as text.
    ///
    /// ```
    /// use bitboards_core::PositionError;
    ///
    /// assert_eq!(
    ///     PositionError::FullmoveNumberZero.message().as_str(),
    ///     "the fullmove number is 0; it starts at 1"
    /// );
    /// ```
    #[must_use]
    pub const fn as_str(&self) -> &str {
        // Every part is ASCII, so any cut is on a character boundary.
        match core::str::from_utf8(self.bytes.split_at(self.length).0) {
            Ok(text) => text,
            Err(_) => "",
        }
    }
}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// Rank 1 for White, 8 for Black: where the king and rooks start.
///
/// ```
/// use bitboards_core::{Color, Rank};
///
/// assert_eq!(bitboards_core::placement::home_rank(Color::Black), Rank::Eighth);
/// ```
#[must_use]
pub const fn home_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    }
}

/// A broken placement rule, and the square on the board that breaks it:
/// the second king of a side (none when it has no king), the pawn on a
/// back rank, the piece that takes a side past what its pawns can have
/// promoted to (counting in reading order: rank 8 first, a to h), the king
/// of a castling right without its king on the home rank, the rook square
/// a castling right names, the en passant square. A rule on a field alone
/// (the fullmove number) has no square.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Violation {
    /// The rule broken, as `Position::from_setup` reports it.
    pub error: PositionError,
    /// Where on the board.
    pub square: Option<Square>,
}

/// Every placement rule a setup breaks, in the order
/// `Position::from_setup` checks them: a fixed-capacity list (a setup
/// breaks at most 2 king rules, 16 pawn rules, 2 material rules, 4 castling
/// rules, 1 en passant rule and the fullmove number).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Violations {
    list: [Violation; Violations::CAPACITY],
    length: usize,
}

/// The first `N` violations found: [`Violations`] keeps every one (26, the
/// most a setup can have), [`first_violation`] only one.
struct Found<const N: usize> {
    list: [Violation; N],
    length: usize,
}

impl<const N: usize> Found<N> {
    const fn new() -> Found<N> {
        Found {
            list: [Violation {
                error: PositionError::FullmoveNumberZero,
                square: None,
            }; N],
            length: 0,
        }
    }

    const fn push(&mut self, error: PositionError, square: Option<Square>) {
        if self.length < N {
            self.list[self.length] = Violation { error, square };
            self.length += 1;
        }
    }
}

impl Violations {
    const CAPACITY: usize = 26;

    /// The violations, in checking order.
    #[must_use]
    pub const fn as_slice(&self) -> &[Violation] {
        self.list.split_at(self.length).0
    }

    /// How many rules the setup breaks.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.length
    }

    /// Whether the setup breaks no placement rule.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.length == 0
    }

    /// The first violation, the one `Position::from_setup` reports (unless
    /// it is [`PositionError::FullmoveNumberZero`], which comes after the
    /// rules on checks).
    #[must_use]
    pub const fn first(&self) -> Option<Violation> {
        if self.length == 0 {
            None
        } else {
            Some(self.list[0])
        }
    }
}

/// The squares of the board in reading order: rank 8 first, a to h.
const fn reading_order(index: usize) -> Square {
    Square::ALL[(7 - index / 8) * 8 + index % 8]
}

/// Checks every placement rule of `setup`: all rules of [`PositionError`]
/// but the five on checks (`OpponentInCheck`, `TooManyCheckers`,
/// `DoubleCheckWithoutSlider`, `AlignedCheckers`, `CheckNotFromDoublePush`).
/// Castling rights are checked only for a side with exactly one king.
#[must_use]
pub const fn check(setup: &Setup) -> Violations {
    let found = collect::<{ Violations::CAPACITY }>(setup, &piece_boards(&setup.board));
    Violations {
        list: found.list,
        length: found.length,
    }
}

/// The twelve boards of a mailbox board: the squares of each piece, indexed
/// by [`Piece::index`] (White's pawns first, Black's king last).
///
/// ```
/// use bitboards_core::{Piece, Setup, Square, placement};
///
/// let boards = placement::piece_boards(&Setup::START.board);
/// assert_eq!(boards[Piece::WhiteKing.index()], Square::E1.bitboard());
/// assert_eq!(boards[Piece::BlackPawn.index()].count(), 8);
/// ```
#[must_use]
pub const fn piece_boards(board: &[Option<Piece>; 64]) -> [Bitboard; Piece::COUNT] {
    let mut boards = [Bitboard::EMPTY; Piece::COUNT];
    let mut index = 0;
    while index < 64 {
        if let Some(piece) = board[index] {
            boards[piece.index()].0 |= 1 << index;
        }
        index += 1;
    }
    boards
}

/// The first placement rule `setup` breaks (the first of [`check`]'s list),
/// for a caller that has the setup's [`piece_boards`] already, as one
/// building a position from them does: `boards` must be
/// `piece_boards(&setup.board)` (with other boards the answer is
/// meaningless, though never a panic).
///
/// ```
/// use bitboards_core::{PositionError, Setup, placement};
///
/// let boards = placement::piece_boards(&Setup::START.board);
/// assert_eq!(placement::first_violation(&Setup::START, &boards), None);
///
/// let setup = Setup { fullmove_number: 0, ..Setup::START };
/// let first = placement::first_violation(&setup, &boards).map(|violation| violation.error);
/// assert_eq!(first, Some(PositionError::FullmoveNumberZero));
/// ```
#[must_use]
pub const fn first_violation(
    setup: &Setup,
    boards: &[Bitboard; Piece::COUNT],
) -> Option<Violation> {
    let found = collect::<1>(setup, boards);
    if found.length == 0 {
        None
    } else {
        Some(found.list[0])
    }
}

/// Checks the rules in order and keeps the first `N` violations.
const fn collect<const N: usize>(setup: &Setup, boards: &[Bitboard; Piece::COUNT]) -> Found<N> {
    let mut found = Found::<N>::new();
    let kings = king_rules(boards, &mut found);
    back_rank_rules(setup, boards, &mut found);

    let mut color_index = 0;
    while color_index < 2 {
        let color = Color::ALL[color_index];
        if let Some(square) = excess_material(setup, color, boards) {
            found.push(PositionError::TooMuchMaterial { color }, Some(square));
        }
        color_index += 1;
    }

    castling_rules(setup, boards, kings, &mut found);

    if let Some(square) = setup.en_passant
        && let Some(error) = en_passant_error(setup, square)
    {
        found.push(error, Some(square));
    }

    if setup.fullmove_number == 0 {
        found.push(PositionError::FullmoveNumberZero, None);
    }
    found
}

/// Exactly one king each, White's checked first; the square is the second
/// king in reading order. Returns each side's king, when it has one.
const fn king_rules<const N: usize>(
    boards: &[Bitboard; Piece::COUNT],
    found: &mut Found<N>,
) -> [Option<Square>; 2] {
    let mut kings = [None; 2];
    let mut color_index = 0;
    while color_index < 2 {
        let color = Color::ALL[color_index];
        let board = boards[Piece::new(color, PieceKind::King).index()];
        let count = board.count();
        if count == 1 {
            kings[color_index] = board.first();
        } else {
            found.push(
                PositionError::KingCount {
                    color,
                    found: count,
                },
                second_in_reading_order(board),
            );
        }
        color_index += 1;
    }
    kings
}

/// The second square of `board` in reading order, if it has two.
const fn second_in_reading_order(board: Bitboard) -> Option<Square> {
    let mut second = None;
    let mut seen = 0;
    let mut index = 0;
    while index < 64 && second.is_none() {
        let square = reading_order(index);
        if board.contains(square) {
            seen += 1;
            if seen == 2 {
                second = Some(square);
            }
        }
        index += 1;
    }
    second
}

/// Pawns on the back ranks, a1 to h1 then a8 to h8: square order.
const fn back_rank_rules<const N: usize>(
    setup: &Setup,
    boards: &[Bitboard; Piece::COUNT],
    found: &mut Found<N>,
) {
    const BACK_RANKS: Bitboard = Bitboard(0xFF00_0000_0000_00FF);
    let mut pawns = boards[Piece::WhitePawn.index()]
        .union(boards[Piece::BlackPawn.index()])
        .intersection(BACK_RANKS);
    while let Some(square) = pawns.pop() {
        if let Some(piece) = setup.board[square.index()] {
            found.push(
                PositionError::PawnOnBackRank { square, piece },
                Some(square),
            );
        }
    }
}

/// Each castling right of a side with one king (`kings`, from
/// [`king_rules`]): its king on the home rank, its rook on that side of it.
const fn castling_rules<const N: usize>(
    setup: &Setup,
    boards: &[Bitboard; Piece::COUNT],
    kings: [Option<Square>; 2],
    found: &mut Found<N>,
) {
    let mut index = 0;
    while index < 4 {
        let color = Color::ALL[index / 2];
        let side = CastlingSide::ALL[index % 2];
        index += 1;
        let (Some(rook_file), Some(king)) =
            (setup.castling.rook_file(color, side), kings[color as usize])
        else {
            continue;
        };
        let rank = home_rank(color);
        if king.rank() as u8 != rank as u8 {
            found.push(
                PositionError::CastlingWithoutKing { color, side },
                Some(king),
            );
            continue;
        }
        let rook = Square::from_file_rank(rook_file, rank);
        let on_that_side = match side {
            CastlingSide::KingSide => rook_file as u8 > king.file() as u8,
            CastlingSide::QueenSide => (rook_file as u8) < king.file() as u8,
        };
        if !boards[Piece::new(color, PieceKind::Rook).index()].contains(rook) || !on_that_side {
            found.push(
                PositionError::CastlingWithoutRook { color, side, rook },
                Some(rook),
            );
        }
    }
}

/// The piece that takes `color` past what the starting set and its pawns'
/// promotions can give, counting in reading order; `None` when there is
/// none. This also bounds the number of legal moves, so that a `MoveList`
/// always has room.
const fn excess_material(
    setup: &Setup,
    color: Color,
    boards: &[Bitboard; Piece::COUNT],
) -> Option<Square> {
    // The counts only grow along the reading order, so when the whole
    // board is within bounds, every prefix is: one population count per
    // kind answers nearly every setup without the walk below.
    const LIGHT: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    // No more of any kind than the starting set has: nothing promoted, and
    // then eight pawns are allowed. Most setups end here, before counting.
    const fn at_most_one(board: Bitboard) -> bool {
        board.0 & board.0.wrapping_sub(1) == 0
    }
    const fn at_most_two(board: Bitboard) -> bool {
        at_most_one(Bitboard(board.0 & board.0.wrapping_sub(1)))
    }
    let bishops = boards[Piece::new(color, PieceKind::Bishop).index()];
    if at_most_one(boards[Piece::new(color, PieceKind::Queen).index()])
        && at_most_two(boards[Piece::new(color, PieceKind::Rook).index()])
        && at_most_two(boards[Piece::new(color, PieceKind::Knight).index()])
        && at_most_one(bishops.intersection(LIGHT))
        && at_most_one(bishops.difference(LIGHT))
        && boards[Piece::new(color, PieceKind::Pawn).index()].count() <= 8
    {
        return None;
    }
    let light = bishops.intersection(LIGHT).count();
    let dark = bishops.count() - light;
    let pawns = boards[Piece::new(color, PieceKind::Pawn).index()].count();
    let queens = boards[Piece::new(color, PieceKind::Queen).index()].count();
    let rooks = boards[Piece::new(color, PieceKind::Rook).index()].count();
    let knights = boards[Piece::new(color, PieceKind::Knight).index()].count();
    let promoted = queens.saturating_sub(1)
        + rooks.saturating_sub(2)
        + knights.saturating_sub(2)
        + light.saturating_sub(1)
        + dark.saturating_sub(1);
    if pawns + promoted <= 8 {
        return None;
    }
    // Pawns, queens, rooks, knights, light and dark bishops.
    let mut counts = [0u32; 6];
    let mut index = 0;
    while index < 64 {
        let square = reading_order(index);
        index += 1;
        let Some(piece) = setup.board[square.index()] else {
            continue;
        };
        if piece.color() as u8 != color as u8 {
            continue;
        }
        let slot = match piece.kind() {
            PieceKind::Pawn => 0,
            PieceKind::Queen => 1,
            PieceKind::Rook => 2,
            PieceKind::Knight => 3,
            // a1 is dark: a square is light when its file and rank indices
            // add up to an odd number.
            PieceKind::Bishop if (square.file() as usize + square.rank() as usize) % 2 == 1 => 4,
            PieceKind::Bishop => 5,
            PieceKind::King => continue,
        };
        counts[slot] += 1;
        let promoted = counts[1].saturating_sub(1)
            + counts[2].saturating_sub(2)
            + counts[3].saturating_sub(2)
            + counts[4].saturating_sub(1)
            + counts[5].saturating_sub(1);
        if counts[0] > 8 || counts[0] + promoted > 8 {
            return Some(square);
        }
    }
    None
}

/// For an en passant square: the square of the pawn that double-pushed over
/// it and the square that pawn started from, seen from the side to move.
/// `None` when the square is not on rank 3 or 6.
#[must_use]
pub const fn double_push_squares(
    en_passant: Square,
    side_to_move: Color,
) -> Option<(Square, Square)> {
    let toward_mover = match side_to_move {
        Color::White => -1,
        Color::Black => 1,
    };
    match (
        en_passant.offset(0, toward_mover),
        en_passant.offset(0, -toward_mover),
    ) {
        (Some(pawn), Some(origin)) => Some((pawn, origin)),
        _ => None,
    }
}

/// The first en passant rule `square` breaks: the rank, the pawn that
/// double-pushed, the squares it crossed.
const fn en_passant_error(setup: &Setup, square: Square) -> Option<PositionError> {
    let us = setup.side_to_move;
    let expected_rank = match us {
        Color::White => Rank::Sixth,
        Color::Black => Rank::Third,
    };
    if square.rank() as u8 != expected_rank as u8 {
        return Some(PositionError::EnPassantRank { square });
    }
    let Some((pawn, origin)) = double_push_squares(square, us) else {
        return Some(PositionError::EnPassantRank { square });
    };
    let their_pawn = Piece::new(us.opponent(), PieceKind::Pawn);
    match setup.board[pawn.index()] {
        Some(piece) if piece as u8 == their_pawn as u8 => {}
        _ => return Some(PositionError::EnPassantWithoutPawn { square, pawn }),
    }
    if setup.board[square.index()].is_some() {
        return Some(PositionError::EnPassantBlocked {
            square,
            occupied: square,
        });
    }
    if setup.board[origin.index()].is_some() {
        return Some(PositionError::EnPassantBlocked {
            square,
            occupied: origin,
        });
    }
    None
}
