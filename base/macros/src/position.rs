//! `position_setup!`: a piece-letter diagram and the FEN fields after it,
//! read into a `Setup` expression, with every mistake a compile error on its
//! token.
//!
//! The placement rules are `bitboards_core::placement::check`, the same
//! checker `Position::from_setup` runs: the macro calls it and only maps each
//! violation's square (or field) to the token to blame. The rules on checks
//! need attack tables, and are left to `Position::from_setup` in const
//! evaluation, where `bitboards::position!` puts the result.

use crate::tokens::{
    Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree,
};
use bitboards_core::diagram::{Board, Cells};
use bitboards_core::placement::{self, Violation};
use bitboards_core::{
    CastlingLetter, CastlingRights, CastlingSide, Color, Piece, PositionError, Setup, Square,
};

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
    read(input).map(|setup| to_tokens(&setup, krate))
}

/// A position as the macro read it, before it becomes tokens; every
/// placement rule holds.
type PositionLiteral = Setup;

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

/// The fields after the diagram, as read; a field with an error keeps its
/// default, and the error is reported.
struct Fields {
    side_to_move: Color,
    /// Each castling letter and its token.
    castling: Vec<(CastlingLetter, Span)>,
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
fn read_castling(token: &TokenTree) -> Result<Vec<(CastlingLetter, Span)>, String> {
    let text = token.to_string();
    if text == "-" {
        return Ok(Vec::new());
    }
    let mut letters = Vec::new();
    for letter in text.chars() {
        match u8::try_from(letter)
            .ok()
            .and_then(CastlingLetter::from_ascii)
        {
            Some(read) => letters.push((read, token.span())),
            None => {
                return Err(format!(
                    "`{letter}` is not a castling right; expected `KQkq`, a rook's file letter \
                     (`A`-`H` White, `a`-`h` Black), or a lone `-`"
                ));
            }
        }
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

/// Builds the setup, matching the castling letters with the board as
/// `Position::from_fen` does, and checks it with the placement checker:
/// every violation is reported on the token that breaks it, in the order
/// `Position::from_setup` checks them (pawns in reading order). `diagram`
/// spans the whole diagram, for a rule no single token breaks (a missing
/// king).
fn check_rules(
    board: &Board<Span>,
    diagram: (Span, Span),
    fields: &Fields,
) -> Result<PositionLiteral, Vec<Diagnostic>> {
    let mut pieces = [None; 64];
    for (piece, cell) in pieces.iter_mut().zip(board) {
        *piece = cell.and_then(|cell| Piece::from_char(cell.char));
    }
    let (castling, letter_at, duplicates) = castling_rights(&fields.castling, &pieces);

    let setup = Setup {
        board: pieces,
        side_to_move: fields.side_to_move,
        castling,
        en_passant: fields.en_passant.map(|(square, _)| square),
        halfmove_clock: fields.halfmove_clock,
        fullmove_number: fields.fullmove_number.0,
    };
    let violations = placement::check(&setup);
    let (on_board, on_fields): (Vec<Violation>, Vec<Violation>) =
        violations.as_slice().iter().partition(|violation| {
            matches!(
                violation.error,
                PositionError::KingCount { .. }
                    | PositionError::PawnOnBackRank { .. }
                    | PositionError::TooMuchMaterial { .. }
            )
        });

    let mut errors = board_errors(on_board, board, diagram);
    errors.extend(duplicates);
    errors.extend(field_errors(on_fields, &letter_at, fields, diagram));
    if errors.is_empty() {
        Ok(setup)
    } else {
        Err(errors)
    }
}

/// The castling rights the letters give on `pieces`, the span of the letter
/// behind each right (by colour, then side), and an error for each repeat.
fn castling_rights(
    letters: &[(CastlingLetter, Span)],
    pieces: &[Option<Piece>; 64],
) -> (CastlingRights, [[Option<Span>; 2]; 2], Vec<Diagnostic>) {
    let mut castling = CastlingRights::NONE;
    let mut letter_at = [[None; 2]; 2];
    let mut duplicates = Vec::new();
    for &(letter, at) in letters {
        let color = letter.color;
        let (side, file) = letter.resolve(pieces);
        if castling.has(color, side) {
            let message = format!("{color}'s {} castling right is given twice", side.name());
            duplicates.push(Diagnostic::on(at, message));
            continue;
        }
        castling = castling.with(color, side, Some(file));
        letter_at[color.index()][side.index()] = Some(at);
    }
    (castling, letter_at, duplicates)
}

/// The errors of the rules broken on the board, on the cell that breaks
/// each (or the whole diagram), in reading order.
fn board_errors(
    mut on_board: Vec<Violation>,
    board: &Board<Span>,
    diagram: (Span, Span),
) -> Vec<Diagnostic> {
    // The checker lists back-rank pawns a1 to h8; a reader reads rank 8
    // first.
    on_board.sort_by_key(|violation| match violation.error {
        PositionError::PawnOnBackRank { square, .. } => 1 + (7 - square.rank().index()),
        PositionError::TooMuchMaterial { .. } => 9,
        _ => 0,
    });

    let mut errors = Vec::new();
    for violation in on_board {
        let (start, end) = match violation.square.and_then(|square| board[square.index()]) {
            Some(cell) => (cell.at, cell.at),
            None => diagram,
        };
        errors.push(Diagnostic {
            start,
            end,
            message: violation.error.to_string(),
        });
    }
    errors
}

/// The errors of the rules broken by the fields, each on its castling
/// letter (`letter_at`), en passant square or fullmove number.
fn field_errors(
    on_fields: Vec<Violation>,
    letter_at: &[[Option<Span>; 2]; 2],
    fields: &Fields,
    diagram: (Span, Span),
) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for violation in on_fields {
        let at = match violation.error {
            PositionError::CastlingWithoutKing { color, side }
            | PositionError::CastlingWithoutRook { color, side, .. } => {
                letter_at[color.index()][side.index()]
            }
            PositionError::FullmoveNumberZero => Some(fields.fullmove_number.1),
            _ => fields.en_passant.map(|(_, at)| at),
        };
        let message = violation.error.to_string();
        errors.push(match at {
            Some(at) => Diagnostic::on(at, message),
            None => Diagnostic {
                start: diagram.0,
                end: diagram.1,
                message,
            },
        });
    }
    errors
}

/// `$crate::Setup { .. }` built from the runtime crate's constants and
/// `const fn`s, with `krate` as `$crate`.
fn to_tokens(setup: &Setup, krate: &TokenTree) -> TokenStream {
    {
        let mut out = Tokens::new(krate);
        out.krate_path("Setup");
        out.group(Delimiter::Brace, |out| {
            out.field("board");
            out.group(Delimiter::Bracket, |out| {
                for cell in setup.board {
                    match cell {
                        Some(piece) => out.some(|out| out.krate_path(&format!("Piece::{piece:?}"))),
                        None => out.core_path("option::Option::None"),
                    }
                    out.punct(",");
                }
            });
            out.punct(",");

            out.field("side_to_move");
            out.krate_path(color_path(setup.side_to_move));
            out.punct(",");

            out.field("castling");
            out.krate_path("CastlingRights::NONE");
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    let Some(file) = setup.castling.rook_file(color, side) else {
                        continue;
                    };
                    out.punct(".");
                    out.ident("with");
                    out.group(Delimiter::Parenthesis, |out| {
                        out.krate_path(color_path(color));
                        out.punct(",");
                        out.krate_path(&format!("CastlingSide::{side:?}"));
                        out.punct(",");
                        let file = format!("File::{}", file.to_char().to_ascii_uppercase());
                        out.some(|out| out.krate_path(&file));
                    });
                }
            }
            out.punct(",");

            out.field("en_passant");
            match setup.en_passant {
                Some(square) => {
                    let name = format!("Square::{}", square.name().to_ascii_uppercase());
                    out.some(|out| out.krate_path(&name));
                }
                None => out.core_path("option::Option::None"),
            }
            out.punct(",");

            out.field("halfmove_clock");
            out.literal(Literal::u16_suffixed(setup.halfmove_clock));
            out.punct(",");
            out.field("fullmove_number");
            out.literal(Literal::u16_suffixed(setup.fullmove_number));
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

    #[test]
    fn fields_default_to_white_no_rights_and_the_first_move() {
        let literal = read_str(KINGS).unwrap();
        assert_eq!(literal.side_to_move, Color::White);
        assert_eq!(literal.castling, CastlingRights::NONE);
        assert_eq!(
            (
                literal.en_passant,
                literal.halfmove_clock,
                literal.fullmove_number
            ),
            (None, 0, 1)
        );
        assert_eq!(read_str(&format!("{KINGS} ;")), Ok(literal));
        // The whole setup, as the FEN `4k3/8/8/8/8/8/8/4K3 w - - 0 1` reads.
        let mut board = [None; 64];
        board[Square::E1.index()] = Some(Piece::WhiteKing);
        board[Square::E8.index()] = Some(Piece::BlackKing);
        let kings = Setup {
            board,
            side_to_move: Color::White,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        };
        assert_eq!(literal, kings);
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

    /// FENs and what `bitboards`' FEN reader makes of them, one per line:
    /// `FEN | ok | S` (it reads, to the setup `S`), `FEN | check | S` (the
    /// setup `S` breaks a rule on check, which the macro leaves to
    /// `Position::from_setup` in const evaluation), `FEN | illegal | message`
    /// and `FEN | duplicate | message` (the macro must report `message`).
    /// The `bitboards` package's test tests/macro_fen_agreement.rs draws the
    /// positions, asks the FEN reader and checks that this file is what it
    /// says (that test holds the format and the generator); this crate cannot
    /// depend on `bitboards`, even to test.
    const CORPUS: &str = include_str!("../tests/data/fen_agreement.txt");

    // `encode`: a setup in one line, as tests/macro_fen_agreement.rs
    // writes it (one file for both).
    include!("../tests/data/setup_line.rs");

    /// The macro's input for a FEN: its board as a diagram (with rank and
    /// file labels when `labelled`), then `;` and its other fields.
    fn diagram_of(fen: &str, labelled: bool) -> String {
        let (board, fields) = fen.split_once(' ').expect("a FEN has fields");
        let mut diagram = String::new();
        for (row, rank) in board.split('/').zip((1..=8).rev()) {
            diagram.push('\n');
            if labelled {
                diagram.push_str(&format!("{rank} "));
            }
            for cell in row.chars() {
                match cell.to_digit(10) {
                    Some(empty) => diagram.push_str(&". ".repeat(empty as usize)),
                    None => {
                        diagram.push(cell);
                        diagram.push(' ');
                    }
                }
            }
        }
        if labelled {
            diagram.push_str("\n  a b c d e f g h");
        }
        format!("{diagram}\n; {fields}")
    }

    #[test]
    fn diagram_of_writes_the_macros_input() {
        let fen = "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1";
        let setup = read_str(&diagram_of(fen, false)).unwrap();
        assert_eq!(read_str(&diagram_of(fen, true)), Ok(setup));
        assert_eq!(encode(&setup), "4k3/8/8/8/8/8/8/R3K3 b -A-- - 0 1");
    }

    /// The macro agrees with the FEN reader, through the corpus: where the
    /// FEN reads, the macro builds the same setup; where it breaks a rule on
    /// check, the macro builds the setup that `Position::from_setup` refuses
    /// with the FEN reader's error (or reports the one rule checked after
    /// those, a fullmove number of 0); where it breaks a placement rule or
    /// names a castling right twice, the macro reports the FEN reader's
    /// message among its errors.
    #[test]
    fn the_macro_agrees_with_the_fen_reader() {
        let zero = PositionError::FullmoveNumberZero.to_string();
        // Positions read, left to const evaluation, with a rule broken,
        // with a castling right given twice.
        let mut verdicts = [0usize; 4];
        let lines = CORPUS.lines().filter(|line| !line.starts_with('#'));
        for (index, line) in lines.enumerate() {
            let mut parts = line.splitn(3, " | ");
            let (Some(fen), Some(verdict), Some(detail)) =
                (parts.next(), parts.next(), parts.next())
            else {
                panic!("line {line:?} is not `FEN | verdict | detail`");
            };
            let read = read_str(&diagram_of(fen, index % 2 == 1));
            match verdict {
                "ok" => {
                    verdicts[0] += 1;
                    assert_eq!(read.map(|setup| encode(&setup)), Ok(detail.into()), "{fen}");
                }
                "check" => {
                    verdicts[1] += 1;
                    let expected = if detail.ends_with(" 0") {
                        Err(vec![zero.clone()])
                    } else {
                        Ok(detail.to_string())
                    };
                    assert_eq!(read.map(|setup| encode(&setup)), expected, "{fen}");
                }
                "illegal" | "duplicate" => {
                    verdicts[2 + usize::from(verdict == "duplicate")] += 1;
                    let messages = read.expect_err(fen);
                    assert!(
                        messages.iter().any(|message| message == detail),
                        "{fen}: {detail} not in {messages:?}"
                    );
                }
                _ => panic!("line {line:?}: unknown verdict `{verdict}`"),
            }
        }
        // The corpus is whole: every verdict, often.
        assert!(verdicts.iter().all(|&count| count >= 50), "{verdicts:?}");
    }
}
