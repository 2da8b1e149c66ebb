//! The proc macro behind `bitboards::bitboard!`.
//!
//! Use it through the `bitboards` crate, which wraps it so that the result is
//! a `Bitboard` wherever that crate is (even renamed). On its own,
//! [`bitboard_bits!`] expands to the diagram's `u64` literal:
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
//! The grammar is `bitboards_core::diagram`'s, the same one `Display` prints
//! and `FromStr` reads. Rows are told apart by source line.

use bitboards_core::diagram::{self, DiagramError};
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// Expands an 8x8 diagram (rank 8 on top, `X` set, `.` empty, labels
/// optional) to its `u64` literal, or to compile errors pointing at every
/// bad cell, label or row.
#[proc_macro]
pub fn bitboard_bits(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    match expand(input.into()) {
        Ok(tokens) => tokens.into(),
        Err(errors) => {
            // `{ compile_error!{..} compile_error!{..} 0u64 }`: every error at
            // once, in an expression that still has the literal's type.
            let mut block: TokenStream = errors
                .iter()
                .flat_map(Diagnostic::to_compile_error)
                .collect();
            block.extend([TokenTree::Literal(Literal::u64_suffixed(0))]);
            TokenStream::from(TokenTree::Group(Group::new(Delimiter::Brace, block))).into()
        }
    }
}

/// A compile error over the tokens from `start` to `end`.
#[derive(Debug)]
struct Diagnostic {
    start: Span,
    end: Span,
    message: String,
}

impl Diagnostic {
    /// `::core::compile_error! { "message" }`, with the path on the first
    /// token's span and the braces on the last's, so that the compiler
    /// underlines everything in between (on stable, spans cannot be joined).
    fn to_compile_error(&self) -> TokenStream {
        let (start, end) = (self.start, self.end);
        let punct = |c, spacing| TokenTree::Punct(with_span(Punct::new(c, spacing), start));
        let mut message = Literal::string(&self.message);
        message.set_span(end);
        let mut body = Group::new(Delimiter::Brace, TokenTree::Literal(message).into());
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

/// The macro's logic on `proc_macro2` tokens, so that it can be tested
/// without a compiler in the loop: the diagram's bits as a `u64` literal, or
/// every error in it.
fn expand(input: TokenStream) -> Result<TokenStream, Vec<Diagnostic>> {
    let mut rows: Vec<Vec<(char, Span)>> = Vec::new();
    let mut current_line = None;
    let mut end = Span::call_site();
    for token in input {
        let span = token.span();
        let line = span.start().line;
        if current_line != Some(line) {
            current_line = Some(line);
            rows.push(Vec::new());
        }
        end = span;
        // A token such as `XX` or `8.` holds several cells; each of them is
        // blamed on the whole token.
        let text = token.to_string();
        if let Some(row) = rows.last_mut() {
            row.extend(
                text.chars()
                    .filter(|c| !c.is_whitespace())
                    .map(|c| (c, span)),
            );
        }
    }

    let mut errors = Vec::new();
    let bits = diagram::parse(rows, end, |error: DiagramError<Span>| {
        errors.push(Diagnostic {
            start: error.start,
            end: error.end,
            message: error.kind.to_string(),
        });
    });
    match bits {
        Some(bits) if errors.is_empty() => {
            Ok(TokenTree::Literal(Literal::u64_suffixed(bits)).into())
        }
        // `parse` returns `None` only after reporting an error.
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(text: &str) -> Result<String, Vec<String>> {
        let tokens: TokenStream = text.parse().expect("test input lexes");
        expand(tokens)
            .map(|tokens| tokens.to_string())
            .map_err(|errors| errors.into_iter().map(|e| e.message).collect())
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
        assert_eq!(text, ":: core :: compile_error ! { \"bad cell\" }");
    }

    #[test]
    fn too_few_rows_is_an_error_not_a_panic() {
        let errors = expand_str("").unwrap_err();
        assert_eq!(
            errors,
            ["the diagram has 0 rows; it needs 8, one per rank, 8 down to 1"]
        );
    }
}
