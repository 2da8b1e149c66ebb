//! `position_setup!`: a piece-letter diagram and the FEN fields after it,
//! read into a `Setup` expression, with every mistake a compile error on its
//! token.
//!
//! The rules of a position are the runtime crate's (`PositionError`), which
//! this crate cannot depend on: that crate depends on this one. Those that
//! need only the squares of the pieces are checked here, on the tokens, with
//! `PositionError`'s messages word for word (a test compares them); the
//! rules on checks need attack tables, and are left to `Position::from_setup`
//! in const evaluation, where `bitboards::position!` puts the result.

use core::fmt;

use crate::tokens::{
    Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree,
};
use bitboards_core::diagram::{Board, Cells};
use bitboards_core::{Color, File, Rank, Square};

use crate::{Diagnostic, diagram_symbols, flatten, line_of, parse_cells};

/// The macro's logic on tokens (the compiler's, or proc-macro2's in the
/// unit tests): `krate` is the path the
/// expansion's paths start from (`$crate` from `bitboards::position!`), and
/// `input` the diagram and its fields. The result is a `Setup` expression, or
/// every error found.
pub(crate) fn expand(
    krate: &TokenTree,
    input: TokenStream,
) -> Result<TokenStream, Vec<Diagnostic>> {
    read(input).map(|literal| literal.to_tokens(krate))
}

/// A position as the macro read it, before it becomes tokens; every rule the
/// macro can check on its own holds.
#[derive(Clone, PartialEq, Eq, Debug)]
struct PositionLiteral {
    /// The piece letter on each square, a1 = 0.
    board: [Option<char>; 64],
    side_to_move: Color,
    /// The castling rook's file by colour and side (king side first), as in
    /// `CastlingRights`.
    castling: [[Option<File>; 2]; 2],
    en_passant: Option<Square>,
    halfmove_clock: u16,
    fullmove_number: u16,
}

/// Reads the diagram, then the fields after the first `;`. Syntax errors
/// (the diagram's and the fields') come first; the rules are checked only
/// when there are none, since a board with a missing row has no squares to
/// check them on.
fn read(input: TokenStream) -> Result<PositionLiteral, Vec<Diagnostic>> {
    let mut tokens = Vec::new();
    flatten(input, &mut tokens);
    let separator = tokens
        .iter()
        .position(|token| matches!(token, TokenTree::Punct(punct) if punct.as_char() == ';'));
    let (diagram_tokens, field_tokens, end) = match separator {
        Some(at) => (&tokens[..at], &tokens[at + 1..], Some(tokens[at].span())),
        None => (&tokens[..], &[][..], None),
    };

    let (board, mut errors) = read_diagram(diagram_tokens, end);
    if separator.is_none()
        && !errors.is_empty()
        && let Some(error) = fields_without_separator(&tokens)
    {
        return Err(error);
    }
    let fields = Fields::read(field_tokens, &mut errors);
    match board {
        Some((board, diagram)) if errors.is_empty() => check_rules(&board, diagram, &fields),
        // `read_diagram` returns no board only with an error.
        _ => Err(errors),
    }
}

/// A diagram's board, and the spans of its first and last tokens.
type ReadDiagram = (Board<Span>, (Span, Span));

/// The diagram's board and the span from its first token to its last, and
/// the errors in it. `end` is where to point when rows are missing and the
/// diagram has no tokens at all.
fn read_diagram(tokens: &[TokenTree], end: Option<Span>) -> (Option<ReadDiagram>, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    let (symbols, mut last) = diagram_symbols(tokens, &mut errors);
    if tokens.is_empty()
        && let Some(end) = end
    {
        last = end;
    }
    let board = parse_cells(symbols, Cells::Pieces, last, &mut errors);
    let first = tokens.first().map_or(last, TokenTree::span);
    (board.map(|board| (board, (first, last))), errors)
}

/// When fields are written on a last line of their own without the `;`
/// (`w KQkq -` under the file labels), and the diagram above reads well
/// without that line: one error that says so, and the fields' own errors.
/// Only called when the whole input failed, so it never turns an error into
/// a position.
fn fields_without_separator(tokens: &[TokenTree]) -> Option<Vec<Diagnostic>> {
    let last_line = line_of(tokens.last()?.span());
    let start = tokens
        .iter()
        .rposition(|token| line_of(token.span()) != last_line)
        .map_or(0, |before| before + 1);
    let line = &tokens[start..];
    let starts_like_fields = matches!(&line[0], TokenTree::Ident(side) if matches!(side.to_string().as_str(), "w" | "b"));
    if !starts_like_fields || line.len() < 2 {
        return None;
    }
    let (_, diagram_errors) = read_diagram(&tokens[..start], None);
    if !diagram_errors.is_empty() {
        return None;
    }
    let written: Vec<String> = line.iter().map(ToString::to_string).collect();
    let mut errors = vec![Diagnostic {
        start: line[0].span(),
        end: line[line.len() - 1].span(),
        message: format!(
            "the fields after the diagram follow a `;`: write `; {}`",
            written.join(" ")
        ),
    }];
    Fields::read(line, &mut errors);
    Some(errors)
}

/// A castling letter as written, before it is matched with the board.
#[derive(Clone, Copy, Debug)]
struct CastlingLetter {
    color: Color,
    /// `Some` for `K`/`Q` (the outermost rook on that side), `None` for a
    /// file letter.
    side: Option<CastlingSide>,
    /// A file letter's file; for `K`/`Q`, the standard rook's (h, a), which
    /// they name when the board shows no rook on that side.
    file: File,
    at: Span,
}

/// A side to castle to; the index is `CastlingSide`'s.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CastlingSide {
    King,
    Queen,
}

impl CastlingSide {
    const ALL: [CastlingSide; 2] = [CastlingSide::King, CastlingSide::Queen];

    fn index(self) -> usize {
        self as usize
    }

    fn name(self) -> &'static str {
        match self {
            CastlingSide::King => "king-side",
            CastlingSide::Queen => "queen-side",
        }
    }

    fn path(self) -> &'static str {
        match self {
            CastlingSide::King => "CastlingSide::KingSide",
            CastlingSide::Queen => "CastlingSide::QueenSide",
        }
    }
}

/// The fields after the diagram, as read; a field with an error keeps its
/// default, and the error is reported.
struct Fields {
    side_to_move: Color,
    castling: Vec<CastlingLetter>,
    en_passant: Option<(Square, Span)>,
    halfmove_clock: u16,
    fullmove_number: (u16, Span),
}

const FIELDS: &str = "after the diagram and `;` come at most five fields: the side to move \
     (`w` or `b`), castling, en passant, the halfmove clock and the fullmove number";

impl Fields {
    fn read(tokens: &[TokenTree], errors: &mut Vec<Diagnostic>) -> Fields {
        let mut fields = Fields {
            side_to_move: Color::White,
            castling: Vec::new(),
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: (1, Span::call_site()),
        };
        let mut tokens = tokens.iter();
        let mut error = |token: &TokenTree, message: String| {
            errors.push(Diagnostic::on(token.span(), message));
        };
        if let Some(token) = tokens.next() {
            match token.to_string().as_str() {
                "w" => fields.side_to_move = Color::White,
                "b" => fields.side_to_move = Color::Black,
                other => error(
                    token,
                    format!("`{other}` is not a side to move; expected `w` or `b`"),
                ),
            }
        }
        if let Some(token) = tokens.next() {
            match read_castling(token) {
                Ok(letters) => fields.castling = letters,
                Err(message) => error(token, message),
            }
        }
        if let Some(token) = tokens.next() {
            let text = token.to_string();
            if text != "-" {
                match text.parse::<Square>() {
                    Ok(square) => fields.en_passant = Some((square, token.span())),
                    Err(problem) => error(
                        token,
                        format!("the en passant field is `-` or a square: {problem}"),
                    ),
                }
            }
        }
        if let Some(token) = tokens.next() {
            match read_clock(token) {
                Ok(clock) => fields.halfmove_clock = clock,
                Err(message) => error(token, message),
            }
        }
        if let Some(token) = tokens.next() {
            match read_clock(token) {
                Ok(number) => fields.fullmove_number = (number, token.span()),
                Err(message) => error(token, message),
            }
        }
        if let Some(extra) = tokens.next() {
            let last = tokens.next_back().unwrap_or(extra);
            errors.push(Diagnostic {
                start: extra.span(),
                end: last.span(),
                message: format!("unexpected `{extra}` after the fields; {FIELDS}"),
            });
        }
        fields
    }
}

/// The letters of a castling field (`KQkq`, file letters, or `-`), or the
/// message for the first character that is none of them.
fn read_castling(token: &TokenTree) -> Result<Vec<CastlingLetter>, String> {
    let text = token.to_string();
    if text == "-" {
        return Ok(Vec::new());
    }
    let mut letters = Vec::new();
    for letter in text.chars() {
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let (side, file) = match letter.to_ascii_lowercase() {
            'k' => (Some(CastlingSide::King), File::H),
            'q' => (Some(CastlingSide::Queen), File::A),
            lower => match File::from_char(lower) {
                Some(file) if letter.is_ascii() => (None, file),
                _ => {
                    return Err(format!(
                        "`{letter}` is not a castling right; expected `KQkq`, a rook's file letter \
                         (`A`-`H` White, `a`-`h` Black), or a lone `-`"
                    ));
                }
            },
        };
        letters.push(CastlingLetter {
            color,
            side,
            file,
            at: token.span(),
        });
    }
    Ok(letters)
}

/// A clock's value, or the message for what is wrong with it.
fn read_clock(token: &TokenTree) -> Result<u16, String> {
    let text = token.to_string();
    if let Some(wrong) = text.chars().find(|c| !c.is_ascii_digit()) {
        return Err(format!("`{wrong}` is not a digit; a clock is a number"));
    }
    text.parse()
        .map_err(|_| "the number does not fit; at most 65535".to_string())
}

/// A rule of `PositionError` that the macro checks on the tokens. Its
/// `Display` is `PositionError`'s, word for word: a test compares the two.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rule {
    KingCount {
        color: Color,
        found: usize,
    },
    PawnOnBackRank {
        square: Square,
        color: Color,
    },
    TooMuchMaterial {
        color: Color,
    },
    CastlingWithoutKing {
        color: Color,
        side: CastlingSide,
    },
    CastlingWithoutRook {
        color: Color,
        side: CastlingSide,
        rook: Square,
    },
    EnPassantRank {
        square: Square,
    },
    EnPassantWithoutPawn {
        square: Square,
        pawn: Square,
    },
    EnPassantBlocked {
        square: Square,
        occupied: Square,
    },
    FullmoveNumberZero,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Rule::KingCount { color, found } => {
                write!(f, "{color} has {found} kings; each side has exactly one")
            }
            Rule::PawnOnBackRank { square, color } => write!(
                f,
                "a {color} pawn on {square}: pawns never stand on the first or last rank"
            ),
            Rule::TooMuchMaterial { color } => write!(
                f,
                "{color} has more material than a game can give it: at most 8 pawns, and each queen past the first, rook, knight or bishop (per square colour) past the second is a promoted pawn"
            ),
            Rule::CastlingWithoutKing { color, side } => write!(
                f,
                "{color} has a {} castling right but its king is not on rank {}",
                side.name(),
                home_rank(color)
            ),
            Rule::CastlingWithoutRook { color, side, rook } => write!(
                f,
                "{color}'s {} castling right needs a {color} rook on {rook}, on that side of the king",
                side.name()
            ),
            Rule::EnPassantRank { square } => write!(
                f,
                "en passant square {square} is not on the rank the last double push crossed (rank 6 with White to move, rank 3 with Black)"
            ),
            Rule::EnPassantWithoutPawn { square, pawn } => write!(
                f,
                "en passant square {square}, but no pawn stands on {pawn} that could just have moved two squares"
            ),
            Rule::EnPassantBlocked { square, occupied } => write!(
                f,
                "en passant square {square}, but {occupied} is occupied, so no pawn just moved two squares across it"
            ),
            Rule::FullmoveNumberZero => f.write_str("the fullmove number is 0; it starts at 1"),
        }
    }
}

/// Rank 1 for White, 8 for Black: where the king and rooks start.
fn home_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    }
}

/// The FEN letter of `color`'s piece whose lower-case letter is `kind`.
fn letter(color: Color, kind: char) -> char {
    match color {
        Color::White => kind.to_ascii_uppercase(),
        Color::Black => kind,
    }
}

fn color_of(letter: char) -> Color {
    if letter.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    }
}

/// The squares of the board in reading order: rank 8 first, a to h.
fn reading_order() -> impl Iterator<Item = Square> {
    // Index arithmetic rather than nested array iterators: less generated
    // code in a crate that every build of `bitboards` waits for.
    (0..64).map(|index| Square::ALL[(7 - index / 8) * 8 + index % 8])
}

/// Checks the rules of `PositionError` that need only the squares of the
/// pieces (all but those on checks), each reported on the token that breaks
/// it, in the order `Position::from_setup` checks them. `diagram` spans the
/// whole diagram, for a rule no single token breaks (a missing king).
fn check_rules(
    board: &Board<Span>,
    diagram: (Span, Span),
    fields: &Fields,
) -> Result<PositionLiteral, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut fail = |rule: Rule, start: Span, end: Span| {
        errors.push(Diagnostic {
            start,
            end,
            message: rule.to_string(),
        });
    };
    let on = |square: Square| board[square.index()];
    let letter_on = |square: Square| on(square).map(|cell| cell.char);

    // Exactly one king each: blame the second king in reading order, as
    // `Position::from_fen` does, or the whole diagram when there is none.
    let mut kings: [Vec<Square>; 2] = [Vec::new(), Vec::new()];
    for square in reading_order() {
        if let Some(letter) = letter_on(square)
            && letter.eq_ignore_ascii_case(&'k')
        {
            kings[color_of(letter).index()].push(square);
        }
    }
    for color in Color::ALL {
        let found = &kings[color.index()];
        let rule = Rule::KingCount {
            color,
            found: found.len(),
        };
        match found.get(1).and_then(|&second| on(second)) {
            Some(second) => fail(rule, second.at, second.at),
            None if found.is_empty() => fail(rule, diagram.0, diagram.1),
            None => {}
        }
    }

    for square in reading_order() {
        if let Some(pawn) = on(square)
            && pawn.char.eq_ignore_ascii_case(&'p')
            && matches!(square.rank(), Rank::First | Rank::Eighth)
        {
            let color = color_of(pawn.char);
            fail(Rule::PawnOnBackRank { square, color }, pawn.at, pawn.at);
        }
    }

    // Material: the piece that takes a side past what its pawns can have
    // promoted to, counting in reading order.
    for color in Color::ALL {
        let mut counts = Material::default();
        for square in reading_order() {
            if let Some(piece) = on(square)
                && color_of(piece.char) == color
            {
                counts.add(piece.char, square);
                if !counts.is_standard() {
                    fail(Rule::TooMuchMaterial { color }, piece.at, piece.at);
                    break;
                }
            }
        }
    }

    let castling = resolve_castling(&fields.castling, board, &mut errors);
    let mut fail = |rule: Rule, at: Span| {
        errors.push(Diagnostic::on(at, rule.to_string()));
    };
    for color in Color::ALL {
        // Which king the rights belong to is unclear with more or fewer
        // than one; the king count is reported already.
        let [king] = kings[color.index()][..] else {
            continue;
        };
        for side in CastlingSide::ALL {
            let Some((file, at)) = castling[color.index()][side.index()] else {
                continue;
            };
            if king.rank() != home_rank(color) {
                fail(Rule::CastlingWithoutKing { color, side }, at);
                continue;
            }
            let rook = Square::from_file_rank(file, home_rank(color));
            let on_that_side = match side {
                CastlingSide::King => file > king.file(),
                CastlingSide::Queen => file < king.file(),
            };
            if letter_on(rook) != Some(letter(color, 'r')) || !on_that_side {
                fail(Rule::CastlingWithoutRook { color, side, rook }, at);
            }
        }
    }

    if let Some((square, at)) = fields.en_passant
        && let Some(rule) = en_passant_rule(square, fields.side_to_move, letter_on)
    {
        fail(rule, at);
    }

    let (fullmove_number, at) = fields.fullmove_number;
    if fullmove_number == 0 {
        fail(Rule::FullmoveNumberZero, at);
    }

    if !errors.is_empty() {
        return Err(errors);
    }
    let mut letters = [None; 64];
    for (letter, cell) in letters.iter_mut().zip(board) {
        *letter = cell.map(|cell| cell.char);
    }
    let mut rook_files = [[None; 2]; 2];
    for (index, right) in castling.iter().flatten().enumerate() {
        rook_files[index / 2][index % 2] = right.map(|(file, _)| file);
    }
    Ok(PositionLiteral {
        board: letters,
        side_to_move: fields.side_to_move,
        castling: rook_files,
        en_passant: fields.en_passant.map(|(square, _)| square),
        halfmove_clock: fields.halfmove_clock,
        fullmove_number,
    })
}

/// A side's pieces counted as `PositionError::TooMuchMaterial` counts them.
#[derive(Default)]
struct Material {
    pawns: usize,
    queens: usize,
    rooks: usize,
    knights: usize,
    light_bishops: usize,
    dark_bishops: usize,
}

impl Material {
    fn add(&mut self, letter: char, square: Square) {
        let count = match letter.to_ascii_lowercase() {
            'p' => &mut self.pawns,
            'q' => &mut self.queens,
            'r' => &mut self.rooks,
            'n' => &mut self.knights,
            // a1 is dark: a square is light when its file and rank indices
            // add up to an odd number.
            'b' if (square.file().index() + square.rank().index()) % 2 == 1 => {
                &mut self.light_bishops
            }
            'b' => &mut self.dark_bishops,
            _ => return,
        };
        *count += 1;
    }

    /// Whether the pieces can all come from the starting set and the
    /// promotions of the pawns that are missing.
    fn is_standard(&self) -> bool {
        let promoted = self.queens.saturating_sub(1)
            + self.rooks.saturating_sub(2)
            + self.knights.saturating_sub(2)
            + self.light_bishops.saturating_sub(1)
            + self.dark_bishops.saturating_sub(1);
        self.pawns <= 8 && self.pawns + promoted <= 8
    }
}

/// Matches the castling letters with the board as `Position::from_fen` does:
/// `K`/`Q` name the outermost rook on that side of the king on its home rank
/// (the standard rook's file when there is none, for the rules to report),
/// a file letter names its file, on the side of the king it is on. A right
/// given twice is reported here. Returns each right's rook file and letter.
fn resolve_castling(
    letters: &[CastlingLetter],
    board: &Board<Span>,
    errors: &mut Vec<Diagnostic>,
) -> [[Option<(File, Span)>; 2]; 2] {
    let mut rights = [[None; 2]; 2];
    for letter in letters {
        let color = letter.color;
        let on_home_rank = |file: File, kind: char| {
            let square = Square::from_file_rank(file, home_rank(color));
            board[square.index()].map(|cell| cell.char) == Some(self::letter(color, kind))
        };
        let king_file = File::ALL
            .iter()
            .copied()
            .find(|&file| on_home_rank(file, 'k'));
        let (side, file) = match (letter.side, king_file) {
            (Some(side), Some(king_file)) => {
                let beyond_king = |file: &File| match side {
                    CastlingSide::King => *file > king_file,
                    CastlingSide::Queen => *file < king_file,
                };
                let rook = |file: &&File| on_home_rank(**file, 'r');
                let outermost = match side {
                    CastlingSide::King => File::ALL.iter().rev().find(rook),
                    CastlingSide::Queen => File::ALL.iter().find(rook),
                };
                let file = outermost.copied().filter(beyond_king);
                (side, file.unwrap_or(letter.file))
            }
            (Some(side), None) => (side, letter.file),
            (None, king_file) => {
                // Without a king on the home rank, the side the rook would
                // be on in standard chess.
                let side = if letter.file > king_file.unwrap_or(File::E) {
                    CastlingSide::King
                } else {
                    CastlingSide::Queen
                };
                (side, letter.file)
            }
        };
        let right = &mut rights[color.index()][side.index()];
        if right.is_some() {
            let message = format!("{color}'s {} castling right is given twice", side.name());
            errors.push(Diagnostic::on(letter.at, message));
            continue;
        }
        *right = Some((file, letter.at));
    }
    rights
}

/// The first en passant rule `square` breaks, in `Position::from_setup`'s
/// order: the rank, the pawn that double-pushed, the squares it crossed.
fn en_passant_rule(
    square: Square,
    side_to_move: Color,
    letter_on: impl Fn(Square) -> Option<char>,
) -> Option<Rule> {
    let (expected_rank, pawn_rank, origin_rank) = match side_to_move {
        Color::White => (Rank::Sixth, Rank::Fifth, Rank::Seventh),
        Color::Black => (Rank::Third, Rank::Fourth, Rank::Second),
    };
    if square.rank() != expected_rank {
        return Some(Rule::EnPassantRank { square });
    }
    let pawn = Square::from_file_rank(square.file(), pawn_rank);
    let origin = Square::from_file_rank(square.file(), origin_rank);
    if letter_on(pawn) != Some(letter(side_to_move.opponent(), 'p')) {
        return Some(Rule::EnPassantWithoutPawn { square, pawn });
    }
    let occupied = if letter_on(square).is_some() {
        square
    } else if letter_on(origin).is_some() {
        origin
    } else {
        return None;
    };
    Some(Rule::EnPassantBlocked { square, occupied })
}

impl PositionLiteral {
    /// `$crate::Setup { .. }` built from the runtime crate's constants and
    /// `const fn`s, with `krate` as `$crate`.
    fn to_tokens(&self, krate: &TokenTree) -> TokenStream {
        let mut out = Tokens::new(krate);
        out.krate_path("Setup");
        out.group(Delimiter::Brace, |out| {
            out.field("board");
            out.group(Delimiter::Bracket, |out| {
                for cell in self.board {
                    match cell.and_then(piece_name) {
                        Some(name) => out.some(|out| out.krate_path(&format!("Piece::{name}"))),
                        None => out.core_path("option::Option::None"),
                    }
                    out.punct(",");
                }
            });
            out.punct(",");

            out.field("side_to_move");
            out.krate_path(color_path(self.side_to_move));
            out.punct(",");

            out.field("castling");
            out.krate_path("CastlingRights::NONE");
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    let Some(file) = self.castling[color.index()][side.index()] else {
                        continue;
                    };
                    out.punct(".");
                    out.ident("with");
                    out.group(Delimiter::Parenthesis, |out| {
                        out.krate_path(color_path(color));
                        out.punct(",");
                        out.krate_path(side.path());
                        out.punct(",");
                        let file = format!("File::{}", file.to_char().to_ascii_uppercase());
                        out.some(|out| out.krate_path(&file));
                    });
                }
            }
            out.punct(",");

            out.field("en_passant");
            match self.en_passant {
                Some(square) => {
                    let name = format!("Square::{}", square.name().to_ascii_uppercase());
                    out.some(|out| out.krate_path(&name));
                }
                None => out.core_path("option::Option::None"),
            }
            out.punct(",");

            out.field("halfmove_clock");
            out.literal(Literal::u16_suffixed(self.halfmove_clock));
            out.punct(",");
            out.field("fullmove_number");
            out.literal(Literal::u16_suffixed(self.fullmove_number));
            out.punct(",");
        });
        out.tokens.into_iter().collect()
    }
}

fn color_path(color: Color) -> &'static str {
    match color {
        Color::White => "Color::White",
        Color::Black => "Color::Black",
    }
}

/// The name of the `Piece` variant of a FEN letter.
fn piece_name(letter: char) -> Option<&'static str> {
    Some(match letter {
        'P' => "WhitePawn",
        'N' => "WhiteKnight",
        'B' => "WhiteBishop",
        'R' => "WhiteRook",
        'Q' => "WhiteQueen",
        'K' => "WhiteKing",
        'p' => "BlackPawn",
        'n' => "BlackKnight",
        'b' => "BlackBishop",
        'r' => "BlackRook",
        'q' => "BlackQueen",
        'k' => "BlackKing",
        _ => return None,
    })
}

/// A small writer of tokens, for want of `quote` (left out for build time).
struct Tokens<'a> {
    krate: &'a TokenTree,
    tokens: Vec<TokenTree>,
}

impl<'a> Tokens<'a> {
    fn new(krate: &'a TokenTree) -> Tokens<'a> {
        Tokens {
            krate,
            tokens: Vec::new(),
        }
    }

    /// Punctuation such as `::` or `,`, its characters joined.
    fn punct(&mut self, text: &str) {
        let chars: Vec<char> = text.chars().collect();
        for (index, &c) in chars.iter().enumerate() {
            let spacing = if index + 1 < chars.len() {
                Spacing::Joint
            } else {
                Spacing::Alone
            };
            self.tokens.push(TokenTree::Punct(Punct::new(c, spacing)));
        }
    }

    fn ident(&mut self, name: &str) {
        self.tokens
            .push(TokenTree::Ident(Ident::new(name, Span::call_site())));
    }

    fn literal(&mut self, literal: Literal) {
        self.tokens.push(TokenTree::Literal(literal));
    }

    /// `segments` separated by `::`.
    fn path(&mut self, segments: &str) {
        for (index, segment) in segments.split("::").enumerate() {
            if index > 0 {
                self.punct("::");
            }
            self.ident(segment);
        }
    }

    /// `$crate::` then `path`.
    fn krate_path(&mut self, path: &str) {
        self.tokens.push(self.krate.clone());
        self.punct("::");
        self.path(path);
    }

    /// `::core::` then `path`: immune to the caller's names.
    fn core_path(&mut self, path: &str) {
        self.punct("::");
        self.ident("core");
        self.punct("::");
        self.path(path);
    }

    /// `Some(..)` around what `inner` writes.
    fn some(&mut self, inner: impl FnOnce(&mut Self)) {
        self.core_path("option::Option::Some");
        self.group(Delimiter::Parenthesis, inner);
    }

    /// `name:`, a struct field's name.
    fn field(&mut self, name: &str) {
        self.ident(name);
        self.punct(":");
    }

    fn group(&mut self, delimiter: Delimiter, inner: impl FnOnce(&mut Self)) {
        let mut nested = Tokens::new(self.krate);
        inner(&mut nested);
        let stream = nested.tokens.into_iter().collect();
        self.tokens
            .push(TokenTree::Group(Group::new(delimiter, stream)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_str(text: &str) -> Result<PositionLiteral, Vec<String>> {
        let tokens: TokenStream = text.parse().expect("test input lexes");
        read(tokens).map_err(|errors| errors.into_iter().map(|e| e.message).collect())
    }

    fn errors(text: &str) -> Vec<String> {
        read_str(text).expect_err("the input has errors")
    }

    const KINGS: &str = "
        . . . . k . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . K . . .
    ";

    /// The setup a literal stands for, built with the runtime crate.
    fn setup(literal: &PositionLiteral) -> bitboards::Setup {
        let mut castling = bitboards::CastlingRights::NONE;
        for color in Color::ALL {
            for (side, runtime_side) in CastlingSide::ALL
                .into_iter()
                .zip(bitboards::CastlingSide::ALL)
            {
                let file = literal.castling[color.index()][side.index()];
                castling = castling.with(color, runtime_side, file);
            }
        }
        bitboards::Setup {
            board: literal
                .board
                .map(|cell| cell.and_then(bitboards::Piece::from_char)),
            side_to_move: literal.side_to_move,
            castling,
            en_passant: literal.en_passant,
            halfmove_clock: literal.halfmove_clock,
            fullmove_number: literal.fullmove_number,
        }
    }

    #[test]
    fn fields_default_to_white_no_rights_and_the_first_move() {
        let literal = read_str(KINGS).unwrap();
        assert_eq!(literal.side_to_move, Color::White);
        assert_eq!(literal.castling, [[None; 2]; 2]);
        assert_eq!(
            (
                literal.en_passant,
                literal.halfmove_clock,
                literal.fullmove_number
            ),
            (None, 0, 1)
        );
        assert_eq!(read_str(&format!("{KINGS} ;")), Ok(literal));
        let fen = bitboards::Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(setup(&read_str(KINGS).unwrap()), fen.setup());
    }

    #[test]
    fn all_five_fields_are_read() {
        let text = "
            . . . . k . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . p P . . .
            . . . . . . . .
            . . . . . . . .
            . . . . K . . .
            ; b - e3 7 42
        ";
        let literal = read_str(text).unwrap();
        assert_eq!(literal.side_to_move, Color::Black);
        assert_eq!(literal.en_passant, Some(Square::E3));
        assert_eq!((literal.halfmove_clock, literal.fullmove_number), (7, 42));
    }

    #[test]
    fn field_errors_name_the_field() {
        assert_eq!(
            errors(&format!("{KINGS}; x")),
            ["`x` is not a side to move; expected `w` or `b`"]
        );
        assert_eq!(
            errors(&format!("{KINGS}; w - e9")),
            [format!(
                "the en passant field is `-` or a square: {}",
                "e9".parse::<Square>().unwrap_err()
            )]
        );
        assert_eq!(
            errors(&format!("{KINGS}; w - - x")),
            ["`x` is not a digit; a clock is a number"]
        );
        assert_eq!(
            errors(&format!("{KINGS}; w - - 0 70000")),
            ["the number does not fit; at most 65535"]
        );
        assert_eq!(
            errors(&format!("{KINGS}; w - - 0 0")),
            ["the fullmove number is 0; it starts at 1"]
        );
        let extra = errors(&format!("{KINGS}; w - - 0 1 2 3"));
        assert_eq!(extra.len(), 1);
        assert!(
            extra[0].starts_with("unexpected `2` after the fields"),
            "{extra:?}"
        );
    }

    #[test]
    fn diagram_and_field_errors_are_reported_together() {
        let text = "
            . . . . k . . .
            . . . . . . . .
            . . . . o . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . .
            . . . . K . . .
            ; v KZ
        ";
        let errors = errors(text);
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert!(errors[0].starts_with("unknown symbol `o`; a cell is a piece letter"));
        assert!(errors[1].starts_with("this row has 7 cells"));
        assert!(errors[2].starts_with("`v` is not a side to move"));
        assert!(errors[3].starts_with("`Z` is not a castling right"));
    }

    #[test]
    fn a_missing_diagram_is_blamed_on_the_separator() {
        let tokens: TokenStream = "; w".parse().unwrap();
        let errors = read(tokens).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.starts_with("the diagram has 0 rows"));
        assert_eq!(errors[0].start.start().column, 0);
    }

    #[test]
    fn fields_on_a_line_of_their_own_need_the_separator() {
        let found = errors(&format!("{KINGS}\n w KQkq -"));
        assert_eq!(
            found,
            ["the fields after the diagram follow a `;`: write `; w KQkq -`"]
        );
        // The fields' own errors come with it.
        let found = errors(&format!("{KINGS}\n b KQkq e9"));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[1].starts_with("the en passant field is `-` or a square"));
        // Only when the diagram above is right: otherwise its errors stand.
        let broken = KINGS.replacen(". . . . k", ". . . . o", 1);
        let found = errors(&format!("{broken}\n w - -"));
        assert!(found[0].starts_with("unknown symbol `o`"), "{found:?}");
    }

    #[test]
    fn rule_messages_are_position_errors_word_for_word() {
        use bitboards::PositionError;
        let sides = CastlingSide::ALL
            .into_iter()
            .zip(bitboards::CastlingSide::ALL);
        let mut pairs = vec![
            (
                Rule::KingCount {
                    color: Color::Black,
                    found: 0,
                },
                PositionError::KingCount {
                    color: Color::Black,
                    found: 0,
                },
            ),
            (
                Rule::PawnOnBackRank {
                    square: Square::C8,
                    color: Color::White,
                },
                PositionError::PawnOnBackRank {
                    square: Square::C8,
                    piece: bitboards::Piece::WhitePawn,
                },
            ),
            (
                Rule::TooMuchMaterial {
                    color: Color::White,
                },
                PositionError::TooMuchMaterial {
                    color: Color::White,
                },
            ),
            (
                Rule::EnPassantRank { square: Square::E4 },
                PositionError::EnPassantRank { square: Square::E4 },
            ),
            (
                Rule::EnPassantWithoutPawn {
                    square: Square::E6,
                    pawn: Square::E5,
                },
                PositionError::EnPassantWithoutPawn {
                    square: Square::E6,
                    pawn: Square::E5,
                },
            ),
            (
                Rule::EnPassantBlocked {
                    square: Square::E6,
                    occupied: Square::E7,
                },
                PositionError::EnPassantBlocked {
                    square: Square::E6,
                    occupied: Square::E7,
                },
            ),
            (Rule::FullmoveNumberZero, PositionError::FullmoveNumberZero),
        ];
        for (side, runtime_side) in sides {
            pairs.push((
                Rule::CastlingWithoutKing {
                    color: Color::Black,
                    side,
                },
                PositionError::CastlingWithoutKing {
                    color: Color::Black,
                    side: runtime_side,
                },
            ));
            pairs.push((
                Rule::CastlingWithoutRook {
                    color: Color::White,
                    side,
                    rook: Square::B1,
                },
                PositionError::CastlingWithoutRook {
                    color: Color::White,
                    side: runtime_side,
                    rook: Square::B1,
                },
            ));
        }
        for (rule, error) in pairs {
            assert_eq!(rule.to_string(), error.to_string());
        }
    }

    /// xorshift64*: enough to shuffle test positions, with no dependency.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn pick<T: Copy>(&mut self, items: &[T]) -> T {
            items[self.below(items.len())]
        }
    }

    /// A random position in both notations: the macro's input and a FEN.
    /// Kings and rooks favour their home squares so that castling rights
    /// are often valid, and en passant squares favour ranks 3 and 6.
    fn random_position(random: &mut Random) -> (String, String) {
        let mut board = [None; 64];
        let mut place = |random: &mut Random, letter: char, squares: &[usize]| {
            let square = random.pick(squares);
            board[square] = Some(letter);
        };
        let everywhere: Vec<usize> = (0..64).collect();
        let between_back_ranks: Vec<usize> = (8..56).collect();
        for (rook, rank) in [('R', 0), ('r', 56)] {
            if random.below(2) == 0 {
                place(random, rook, &[rank]);
                place(random, rook, &[rank + 7]);
            } else {
                for _ in 0..random.below(3) {
                    let squares: Vec<usize> = (rank..rank + 8).collect();
                    place(random, rook, &squares);
                }
            }
        }
        for _ in 0..random.below(8) {
            let letter = random.pick(&['P', 'p', 'P', 'p', 'N', 'n', 'B', 'b', 'R', 'r', 'Q', 'q']);
            let squares = if letter.eq_ignore_ascii_case(&'p') && random.below(10) > 0 {
                &between_back_ranks
            } else {
                &everywhere
            };
            place(random, letter, squares);
        }
        // Now and then, more material than a game can give.
        if random.below(10) == 0 {
            for _ in 0..6 + random.below(10) {
                let letter = random.pick(&['Q', 'Q', 'B', 'n']);
                place(random, letter, &everywhere);
            }
        }
        // Kings last, so that nothing takes their squares; now and then
        // none or two.
        for (king, home) in [('K', 4), ('k', 60)] {
            let count = random.pick(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 2]);
            for _ in 0..count {
                let squares = if random.below(3) == 0 {
                    everywhere.clone()
                } else {
                    vec![home, home - 1, home + 1]
                };
                place(random, king, &squares);
            }
        }

        let side = random.pick(&["w", "b"]);
        let mut castling = String::new();
        if random.below(2) == 0 {
            // Standard letters, each at most once.
            castling.extend("KQkq".chars().filter(|_| random.below(2) == 0));
        } else {
            for _ in 0..random.below(3) {
                castling.push(random.pick(&['K', 'q', 'A', 'H', 'a', 'h', 'C', 'f', 'E']));
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let en_passant = match random.below(6) {
            0..=2 => None,
            3 | 4 => {
                let file = random.pick(&[0, 3, 4, 7]);
                let (rank, pawn, step) = match (side, random.below(8)) {
                    // Now and then on the rank of the other side's turn.
                    ("w", 1..) | ("b", 0) => (5, 'p', -8),
                    _ => (2, 'P', 8),
                };
                let square = rank * 8 + file;
                // Mostly with the pawn that double-pushed, sometimes with
                // something in the way.
                if random.below(4) > 0 {
                    board[(square as isize + step) as usize] = Some(pawn);
                }
                if random.below(6) == 0 {
                    board[(square as isize - step * random.below(2) as isize) as usize] = Some('N');
                }
                Some(square)
            }
            _ => Some(random.below(64)),
        };
        let en_passant =
            en_passant.map_or("-".to_string(), |square| Square::ALL[square].to_string());
        let clocks = match random.below(4) {
            0 => String::new(),
            1 => " 3 0".to_string(),
            _ => format!(" {} {}", random.below(100), 1 + random.below(100)),
        };

        let mut diagram = String::new();
        let mut fen_board = String::new();
        let labelled = random.below(2) == 0;
        for rank in (0..8).rev() {
            diagram.push('\n');
            if labelled {
                diagram.push_str(&format!("{} ", rank + 1));
            }
            let mut empty = 0;
            for file in 0..8 {
                let cell = board[rank * 8 + file];
                diagram.push(cell.unwrap_or('.'));
                diagram.push(' ');
                match cell {
                    Some(letter) => {
                        if empty > 0 {
                            fen_board.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen_board.push(letter);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen_board.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen_board.push('/');
            }
        }
        let fields = format!("{side} {castling} {en_passant}{clocks}");
        (
            format!("{diagram}\n; {fields}"),
            format!("{fen_board} {fields}"),
        )
    }

    /// Whether `Position::from_setup` reports `error` on the rules about
    /// check, which the macro leaves to const evaluation.
    fn is_about_check(error: &bitboards::PositionError) -> bool {
        use bitboards::PositionError::*;
        matches!(
            error,
            OpponentInCheck { .. }
                | TooManyCheckers { .. }
                | DoubleCheckWithoutSlider { .. }
                | AlignedCheckers { .. }
                | CheckNotFromDoublePush { .. }
        )
    }

    #[test]
    fn the_macro_agrees_with_the_fen_reader() {
        use bitboards::{FenError, FenSyntaxError, Position};
        let mut random = Random(0x9E37_79B9_7F4A_7C15);
        // Positions read, positions left to const evaluation (checks),
        // rules broken, castling rights given twice.
        let mut outcomes = [0usize; 4];
        let mut rules_broken = std::collections::BTreeMap::new();
        for _ in 0..10_000 {
            let (text, fen) = random_position(&mut random);
            let literal = read_str(&text);
            match Position::from_fen(&fen) {
                Ok(position) => {
                    outcomes[0] += 1;
                    let literal = literal.unwrap_or_else(|e| panic!("{fen}: {e:?}"));
                    assert_eq!(setup(&literal), position.setup(), "{fen}");
                }
                Err(FenError::Illegal { problem, .. }) if is_about_check(&problem) => {
                    outcomes[1] += 1;
                    match literal {
                        Ok(literal) => {
                            let position = Position::from_setup(setup(&literal));
                            assert_eq!(position, Err(problem), "{fen}");
                        }
                        // The one rule checked after those on check.
                        Err(messages) => {
                            let zero = bitboards::PositionError::FullmoveNumberZero.to_string();
                            assert_eq!(messages, [zero], "{fen}");
                        }
                    }
                }
                Err(FenError::Illegal { problem, .. }) => {
                    outcomes[2] += 1;
                    *rules_broken.entry(problem.rule()).or_insert(0) += 1;
                    let messages = literal.expect_err(&fen);
                    assert!(
                        messages.contains(&problem.to_string()),
                        "{fen}: {problem} not in {messages:?}"
                    );
                }
                Err(FenError::Syntax {
                    problem: problem @ FenSyntaxError::CastlingDuplicate { .. },
                    ..
                }) => {
                    outcomes[3] += 1;
                    let messages = literal.expect_err(&fen);
                    assert!(
                        messages.contains(&problem.to_string()),
                        "{fen}: {problem} not in {messages:?}"
                    );
                }
                Err(other) => panic!("{fen}: the generator wrote an unexpected FEN: {other}"),
            }
        }
        // Every branch is taken, and every rule the macro checks is broken,
        // often enough to mean something.
        assert!(outcomes.iter().all(|&count| count > 200), "{outcomes:?}");
        assert_eq!(rules_broken.len(), 9, "{rules_broken:?}");
        assert!(
            rules_broken.values().all(|&count| count > 50),
            "{rules_broken:?}"
        );
    }
}
