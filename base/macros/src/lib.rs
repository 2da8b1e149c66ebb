//! The proc macros behind `bitboards::bitboard!` and `bitboards::position!`.
//!
//! Use them through the `bitboards` crate, which wraps them so that the
//! result is a `Bitboard` or a checked `Position` wherever that crate is
//! (even renamed). On its own, [`bitboard_bits!`] expands to the diagram's
//! `u64` literal:
//!
//! ```
//! const E4: u64 = bitboards_macros::bitboard_bits! {
//!     . . . . . . . .
//!     . . . . . . . .
//!     . . . . . . . .
//!     . . . . . . . .
//!     . . . . X . . .
//!     . . . . . . . .
//!     . . . . . . . .
//!     . . . . . . . .
//! };
//! assert_eq!(E4, 1 << 28);
//! ```
//!
//! and [`position_setup!`] reads a piece-letter diagram and the FEN fields
//! after a `;` (side to move, castling, en passant, the two clocks, each
//! optional from the end) into a `bitboards::Setup` expression, which
//! `position!` hands to `Position::from_setup` in const evaluation.
//!
//! Both diagrams follow `bitboards_core::diagram`'s grammar, the one
//! `Display` prints and `FromStr` reads; only their cells differ (`X` and
//! `.`, or piece letters and `.`).
//!
//! # Errors
//!
//! Every mistake is a `compile_error!` on its token, all of them in one
//! compile. For a position, that includes the rules of
//! `bitboards::PositionError` that the pieces' squares alone decide (king
//! count, pawns on the back ranks, material, castling rights, the en passant
//! square, the fullmove number). They are checked by the one placement
//! checker, `bitboards_core::placement::check`, the same `const fn` that
//! `Position::from_setup` runs; this crate only points each violation at
//! its token. The rules on check need `bitboards`' attack tables, which a
//! crate `bitboards` depends on cannot use; they are left to
//! `Position::from_setup`, which fails const evaluation at the macro call
//! with the same message, squares and all.
//!
//! No `syn` and no `quote`: the input is a flat list of tokens and the
//! output a short expression, and leaving them out keeps the default build
//! of `bitboards` fast.
//!
//! # How rows are found
//!
//! Rows follow source lines, with one exception. A line break ends a row,
//! unless the row has fewer than eight cells and what follows, up to the
//! next line break, fits in the cells it lacks and does not begin with a
//! rank label: then it joins the row. So a cell whose line is not the row's,
//! such as a `macro_rules!` argument (its line is where that macro was
//! called), still lands in its row, while a short row followed by a full one
//! is reported as short. A row that reads `a b c d e f g h` is the
//! file-label row wherever it stands; any other row is a board row until
//! there are eight of them.
//!
//! Comments (`//`, `/* */`) are skipped; a doc comment (`///`, `/** */`) is
//! an error, since the compiler hands it over as an attribute.

use bitboards_core::diagram::{self, Board, Cells, DiagramError, Symbol};
// The macros run on the compiler's own tokens, so that building `bitboards`
// compiles no proc-macro2 (it sat on the critical path of every clean
// build). The unit tests run the very same code on proc-macro2's tokens,
// which, unlike the compiler's, exist outside a macro call; the two APIs
// agree on everything used here but for a span's line (see `line_of`).
#[cfg(not(test))]
use proc_macro as tokens;
#[cfg(test)]
use proc_macro2 as tokens;
use tokens::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// The line a span starts on.
fn line_of(span: Span) -> usize {
    #[cfg(not(test))]
    let line = span.line();
    #[cfg(test)]
    let line = span.start().line;
    line
}

mod position;

/// Expands an 8x8 diagram (rank 8 on top, `X` set, `.` empty, labels
/// optional) to its `u64` literal, or to compile errors pointing at every
/// bad cell, label or row.
// The conversions are no-ops here and real in the unit tests' build,
// where the logic runs on proc-macro2's tokens.
#[allow(clippy::useless_conversion)]
#[proc_macro]
pub fn bitboard_bits(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    match expand(input.into()) {
        Ok(tokens) => tokens.into(),
        Err(errors) => compile_errors(&errors).into(),
    }
}

/// Expands a piece-letter diagram and the FEN fields after it to a
/// `Setup { .. }` expression, or to compile errors pointing at every bad
/// token. The first token is the crate the paths of the expansion start
/// from (`bitboards::position!` passes `$crate`); any crate that names
/// `Setup`, `Piece`, `Color`, `CastlingRights`, `CastlingSide`, `File` and
/// `Square` at its root will do, such as `bitboards_core`:
///
/// ```
/// let setup: bitboards_core::Setup = bitboards_macros::position_setup!(bitboards_core
///     . . . . k . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     R . . . K . . .
///     ; b Q -
/// );
/// assert_eq!(setup.castling.count(), 1);
/// assert_eq!(setup.side_to_move, bitboards_core::Color::Black);
/// ```
// The conversions are no-ops here and real in the unit tests' build,
// where the logic runs on proc-macro2's tokens.
#[allow(clippy::useless_conversion)]
#[proc_macro]
pub fn position_setup(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let mut input = TokenStream::from(input).into_iter();
    let Some(krate) = input.next() else {
        let error = Diagnostic::on(
            Span::call_site(),
            "`position_setup!` needs a crate path".into(),
        );
        return error.to_compile_error().into();
    };
    match position::expand(&krate, input.collect()) {
        Ok(tokens) => tokens.into(),
        Err(errors) => compile_errors(&errors).into(),
    }
}

/// `compile_error!(..) | compile_error!(..)`: every error at once, in tokens
/// that are an expression where an expression is expected and an or-pattern
/// in a `match` arm, so that the user sees the errors rather than the
/// compiler's complaint about the form of the expansion.
fn compile_errors(errors: &[Diagnostic]) -> TokenStream {
    let mut tokens = TokenStream::new();
    for (index, error) in errors.iter().enumerate() {
        if index > 0 {
            tokens.extend([TokenTree::Punct(Punct::new('|', Spacing::Alone))]);
        }
        tokens.extend(error.to_compile_error());
    }
    tokens
}

/// A compile error over the tokens from `start` to `end`.
#[derive(Debug)]
struct Diagnostic {
    start: Span,
    end: Span,
    message: String,
}

impl Diagnostic {
    /// An error on the one token at `at`.
    fn on(at: Span, message: String) -> Diagnostic {
        Diagnostic {
            start: at,
            end: at,
            message,
        }
    }

    /// `::core::compile_error!("message")`, with the path on the first
    /// token's span and the parentheses on the last's, so that the compiler
    /// underlines everything in between (on stable, spans cannot be joined).
    fn to_compile_error(&self) -> TokenStream {
        let (start, end) = (self.start, self.end);
        let punct = |c, spacing| TokenTree::Punct(with_span(Punct::new(c, spacing), start));
        let mut message = Literal::string(&self.message);
        message.set_span(end);
        let mut body = Group::new(Delimiter::Parenthesis, TokenTree::Literal(message).into());
        body.set_span(end);
        [
            punct(':', Spacing::Joint),
            punct(':', Spacing::Alone),
            TokenTree::Ident(Ident::new("core", start)),
            punct(':', Spacing::Joint),
            punct(':', Spacing::Alone),
            TokenTree::Ident(Ident::new("compile_error", start)),
            punct('!', Spacing::Alone),
            TokenTree::Group(body),
        ]
        .into_iter()
        .collect()
    }
}

fn with_span(mut punct: Punct, span: Span) -> Punct {
    punct.set_span(span);
    punct
}

const DOC_COMMENT: &str = "a doc comment cannot appear in a diagram (the compiler reads it as an \
     attribute); write a plain `//` or `/* */` comment";

/// The macro's logic on tokens (proc-macro2's in the unit tests), so that it can be tested
/// without a compiler in the loop: the diagram's bits as a `u64` literal, or
/// every error in it.
fn expand(input: TokenStream) -> Result<TokenStream, Vec<Diagnostic>> {
    let mut tokens = Vec::new();
    flatten(input, &mut tokens);

    let mut errors = Vec::new();
    let (symbols, end) = diagram_symbols(&tokens, &mut errors);
    match parse_cells(symbols, Cells::Bits, end, &mut errors) {
        Some(board) if errors.is_empty() => {
            let set = board.iter().enumerate().filter(|(_, cell)| cell.is_some());
            let bits = set.fold(0u64, |bits, (index, _)| bits | 1 << index);
            Ok(TokenTree::Literal(Literal::u64_suffixed(bits)).into())
        }
        // `parse_cells` returns `None` only after reporting an error.
        _ => Err(errors),
    }
}

/// `diagram::parse_cells` with its errors added to `errors`. Both macros
/// call it, so that the grammar's generic code is compiled once into this
/// crate, which every build of `bitboards` waits for.
fn parse_cells(
    symbols: Vec<Symbol<Span>>,
    cells: Cells,
    end: Span,
    errors: &mut Vec<Diagnostic>,
) -> Option<Board<Span>> {
    diagram::parse_cells(symbols, cells, end, |error: DiagramError<Span>| {
        errors.push(Diagnostic::from(error));
    })
}

impl From<DiagramError<Span>> for Diagnostic {
    fn from(error: DiagramError<Span>) -> Diagnostic {
        Diagnostic {
            start: error.start,
            end: error.end,
            message: error.kind.to_string(),
        }
    }
}

/// The symbols of a diagram's tokens, each with its token's line and span,
/// and the span to blame when rows are missing (the last token's, or the
/// call site's when there is none). A doc comment is reported as an error
/// and skipped.
fn diagram_symbols(
    tokens: &[TokenTree],
    errors: &mut Vec<Diagnostic>,
) -> (Vec<Symbol<Span>>, Span) {
    let mut symbols: Vec<Symbol<Span>> = Vec::new();
    let mut end = Span::call_site();
    let mut rest = tokens;
    while let Some((token, after)) = rest.split_first() {
        if let Some(length) = doc_comment_length(rest) {
            // Consecutive doc comment lines make one error.
            let mut comment = length;
            while let Some(next) = doc_comment_length(&rest[comment..]) {
                comment += next;
            }
            end = rest[comment - 1].span();
            errors.push(Diagnostic {
                start: token.span(),
                end,
                message: DOC_COMMENT.into(),
            });
            rest = &rest[comment..];
            continue;
        }
        let span = token.span();
        end = span;
        // A token such as `XX` or `8.` holds several symbols; each of them
        // is blamed on the whole token.
        let line = line_of(span);
        symbols.extend(
            token
                .to_string()
                .chars()
                .filter(|c| !c.is_whitespace())
                .map(|char| Symbol {
                    char,
                    line,
                    at: span,
                }),
        );
        rest = after;
    }
    (symbols, end)
}

/// The tokens of `input` with invisible groups opened: a `macro_rules!`
/// argument captured as `$cell:ident` or `$row:expr` arrives wrapped in one,
/// and its tokens keep their own spans and lines.
fn flatten(input: TokenStream, out: &mut Vec<TokenTree>) {
    for token in input {
        match token {
            TokenTree::Group(group) if group.delimiter() == Delimiter::None => {
                flatten(group.stream(), out);
            }
            token => out.push(token),
        }
    }
}

/// How many tokens a doc comment at the start of `tokens` takes (`#`,
/// optionally `!`, then `[doc = ".."]`), or `None` if none starts there.
fn doc_comment_length(tokens: &[TokenTree]) -> Option<usize> {
    let TokenTree::Punct(hash) = tokens.first()? else {
        return None;
    };
    if hash.as_char() != '#' {
        return None;
    }
    let inner = matches!(tokens.get(1), Some(TokenTree::Punct(bang)) if bang.as_char() == '!');
    let attribute = usize::from(inner) + 1;
    let TokenTree::Group(group) = tokens.get(attribute)? else {
        return None;
    };
    let is_doc = group.delimiter() == Delimiter::Bracket
        && matches!(group.stream().into_iter().next(), Some(TokenTree::Ident(name)) if matches!(name.to_string().as_str(), "doc"));
    is_doc.then_some(attribute + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(text: &str) -> Result<String, Vec<String>> {
        let tokens: TokenStream = text.parse().expect("test input lexes");
        expand_tokens(tokens)
    }

    fn expand_tokens(tokens: TokenStream) -> Result<String, Vec<String>> {
        expand(tokens)
            .map(|tokens| tokens.to_string())
            .map_err(|errors| errors.into_iter().map(|e| e.message).collect())
    }

    /// The tokens of `diagram` with `cell` put in place of `$c`, the way
    /// `macro_rules!` hands them over: the cell keeps the line it was written
    /// on in its own text, which here starts again at line 1.
    fn interpolated(diagram: &str, cell: &str) -> TokenStream {
        let (before, after) = diagram.split_once("$c").expect("a `$c` in the diagram");
        let mut tokens: TokenStream = before.parse().unwrap();
        tokens.extend(cell.parse::<TokenStream>().unwrap());
        // Keep the lines after the cell where they were.
        let padding = "\n".repeat(before.lines().count() - 1);
        tokens.extend(format!("{padding}{after}").parse::<TokenStream>().unwrap());
        tokens
    }

    const KNIGHT_G5: &str = "
        8 . . . . . . . .
        7 . . . . . X . X
        6 . . . . X . . .
        5 . . . . . . . .
        4 . . . . X . . .
        3 . . . . . X . X
        2 . . . . . . . .
        1 . . . . . . . .
          a b c d e f g h
    ";

    const E4: u64 = 1 << 28;

    #[test]
    fn labelled_diagram_expands_to_its_bits() {
        let expected = (1u64 << 53) | (1 << 55) | (1 << 44) | (1 << 28) | (1 << 21) | (1 << 23);
        assert_eq!(expand_str(KNIGHT_G5), Ok(format!("{expected}u64")));
    }

    #[test]
    fn cells_may_be_written_together() {
        let text = "........\n........\n........\n........\n........\n........\nXXXXXXXX\n........";
        assert_eq!(expand_str(text), Ok(format!("{}u64", 0xFF00u64)));
    }

    #[test]
    fn a_cell_from_a_macro_argument_lands_in_its_row() {
        let labelled = "
            8 . . . . . . . .
            7 . . . . . . . .
            6 . . . . . . . .
            5 . . . . . . . .
            4 . . . . $c . . .
            3 . . . . . . . .
            2 . . . . . . . .
            1 . . . . . . . .
              a b c d e f g h
        ";
        let unlabelled = "
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . $c . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
        ";
        let expected = Ok(format!("{E4}u64"));
        // The argument's line is before the diagram's, on it, or after it.
        for cell in ["X", "\n\n\n\n\nX", &format!("{}X", "\n".repeat(40))] {
            for diagram in [labelled, unlabelled] {
                let tokens = interpolated(diagram, cell);
                assert_eq!(expand_tokens(tokens), expected, "{diagram} with {cell:?}");
            }
        }
    }

    #[test]
    fn a_cell_from_a_macro_argument_may_start_or_end_a_row() {
        let first = "
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            $c . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
        ";
        assert_eq!(
            expand_tokens(interpolated(first, "X")),
            Ok(format!("{}u64", 1u64 << 24))
        );
        let last = "
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . $c
        ";
        let after_the_diagram = format!("{}X", "\n".repeat(40));
        assert_eq!(
            expand_tokens(interpolated(last, &after_the_diagram)),
            Ok(format!("{}u64", 1u64 << 7))
        );
    }

    #[test]
    fn a_bad_cell_from_a_macro_argument_is_blamed_alone() {
        let diagram = "
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . $c . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
        ";
        let errors = expand_tokens(interpolated(diagram, "o")).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("unknown symbol `o`"), "{errors:?}");
    }

    #[test]
    fn invisible_groups_are_opened() {
        // What `macro_rules!` makes of a `$cell:ident` argument.
        let mut tokens: TokenStream = "
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . .
        "
        .parse()
        .unwrap();
        let cell = Group::new(Delimiter::None, "X".parse().unwrap());
        tokens.extend([TokenTree::Group(cell)]);
        tokens.extend(
            "\n\n\n\n\n . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . ."
                .parse::<TokenStream>()
                .unwrap(),
        );
        assert_eq!(expand_tokens(tokens), Ok(format!("{E4}u64")));
    }

    #[test]
    fn a_doc_comment_is_one_error_and_plain_comments_are_skipped() {
        let commented = "
            . . . . . . . .   // rank 8
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . X . . .   /* the only one */
            . . . . . . . .
            . . . /* inline */ . . . . .
            . . . . . . . .
        ";
        assert_eq!(expand_str(commented), Ok(format!("{E4}u64")));
        let documented = "
            /// the e4 square,
            /// alone
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . X . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
        ";
        assert_eq!(expand_str(documented), Err(vec![DOC_COMMENT.to_string()]));
        let inner = documented.replace("///", "//!");
        assert_eq!(expand_str(&inner), Err(vec![DOC_COMMENT.to_string()]));
    }

    #[test]
    fn every_error_is_reported_at_once() {
        let text = "
            8 . . . . . . . .
            7 . . . . . o . .
            5 . . . . . . . .
            5 . . . . . . .
            4 . . . . . . . .
            3 . . . . . . . .
            2 . . . . . . . .
            1 . . . . . . . .
              a b c d e f g i
        ";
        let errors = expand_str(text).unwrap_err();
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert!(errors[0].starts_with("unknown symbol `o`"), "{errors:?}");
        assert!(
            errors[1].starts_with("rank label `5` is out of order"),
            "{errors:?}"
        );
        assert!(errors[2].starts_with("this row has 7 cells"), "{errors:?}");
        assert!(
            errors[3].starts_with("file label `i` is wrong"),
            "{errors:?}"
        );
    }

    #[test]
    fn error_spans_point_at_the_bad_cell() {
        let text = "\n. . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . #";
        let tokens: TokenStream = text.parse().unwrap();
        let error = expand(tokens).unwrap_err();
        let spans: Vec<((usize, usize), (usize, usize))> = error
            .iter()
            .map(|e| {
                let (start, end) = (e.start.start(), e.end.end());
                ((start.line, start.column), (end.line, end.column))
            })
            .collect();
        // The short row is underlined from its first cell to its last; `#`
        // is at line 9, column 14.
        assert_eq!(spans, [((2, 0), (2, 7)), ((9, 14), (9, 15))]);
    }

    #[test]
    fn a_compile_error_spans_from_the_first_token_to_the_last() {
        let start = Span::call_site();
        let error = Diagnostic {
            start,
            end: start,
            message: "bad cell".into(),
        };
        let text = error.to_compile_error().to_string();
        assert_eq!(text, ":: core :: compile_error ! (\"bad cell\")");
    }

    #[test]
    fn several_errors_are_joined_by_bars() {
        let error = |message: &str| Diagnostic {
            start: Span::call_site(),
            end: Span::call_site(),
            message: message.into(),
        };
        let text = compile_errors(&[error("a"), error("b")]).to_string();
        assert_eq!(
            text,
            ":: core :: compile_error ! (\"a\") | :: core :: compile_error ! (\"b\")"
        );
    }

    #[test]
    fn too_few_rows_is_an_error_not_a_panic() {
        let errors = expand_str("").unwrap_err();
        assert_eq!(
            errors,
            ["the diagram has 0 rows; it needs 8, one per rank, 8 down to 1"]
        );
        let errors = expand_str(". . . . . . . .").unwrap_err();
        assert_eq!(
            errors,
            ["the diagram has 1 row; it needs 8, one per rank, 8 down to 1"]
        );
    }
}
