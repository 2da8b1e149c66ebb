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
use proc_macro2::{Ident, Literal, Span, TokenStream, TokenTree};

/// Expands an 8x8 diagram (rank 8 on top, `X` set, `.` empty, labels
/// optional) to its `u64` literal, or to compile errors pointing at every
/// bad cell, label or row.
#[proc_macro]
pub fn bitboard_bits(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    match expand(input.into()) {
        Ok(tokens) => tokens.into(),
        Err(errors) => {
            // Several `compile_error!`s are not one expression: wrap them in
            // a block that still has the type of the literal.
            let errors = errors.into_compile_error();
            quote::quote!({ #errors 0u64 }).into()
        }
    }
}

/// The macro's logic on `proc_macro2` tokens, so that it can be tested
/// without a compiler in the loop.
fn expand(input: TokenStream) -> syn::Result<TokenStream> {
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

    let mut errors: Option<syn::Error> = None;
    let bits = diagram::parse(rows, end, |error| {
        let error = to_syn_error(error);
        match &mut errors {
            Some(all) => all.combine(error),
            None => errors = Some(error),
        }
    });
    match (bits, errors) {
        (_, Some(errors)) => Err(errors),
        // `parse` returns `None` only after reporting an error.
        (bits, None) => {
            Ok(TokenTree::Literal(Literal::u64_suffixed(bits.unwrap_or_default())).into())
        }
    }
}

/// A diagram error as a compile error over the tokens it concerns.
fn to_syn_error(error: DiagramError<Span>) -> syn::Error {
    let message = error.kind.to_string();
    // `new_spanned` underlines from the first token's start to the last
    // token's end, which is how a whole row gets one underline.
    let range: TokenStream = [error.start, error.end]
        .into_iter()
        .map(|span| TokenTree::Ident(Ident::new("cell", span)))
        .collect();
    syn::Error::new_spanned(range, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(text: &str) -> Result<String, Vec<String>> {
        let tokens: TokenStream = text.parse().expect("test input lexes");
        expand(tokens)
            .map(|tokens| tokens.to_string())
            .map_err(|errors| errors.into_iter().map(|e| e.to_string()).collect())
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
        let spans: Vec<(usize, usize)> = error
            .into_iter()
            .map(|e| {
                let start = e.span().start();
                (start.line, start.column)
            })
            .collect();
        // The short row is blamed from its first cell; `#` at line 9, column 14.
        assert_eq!(spans, [(2, 0), (9, 14)]);
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
