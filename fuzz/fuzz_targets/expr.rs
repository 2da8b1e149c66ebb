//! The expression language (`bitboards_expr::evaluate`, the command's and
//! the web page's): any text, in every numbering. The input up to a NUL
//! byte is the expression, the rest what `-` reads from standard input (a
//! fixed diagram when there is no NUL). It never panics, and an error's
//! span is a range of the expression on character boundaries, which
//! `render` can underline.
#![no_main]

use bitboards::{Bitboard, Square};
use bitboards_expr::{Numbering, evaluate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (source, stdin) = match text.split_once('\0') {
        Some((source, stdin)) => (source, stdin.to_owned()),
        None => (
            text,
            (Square::D6.bitboard() | Bitboard::FULL.south()).to_string(),
        ),
    };
    for numbering in Numbering::ALL {
        if let Err(error) = evaluate(source, numbering, || Ok(stdin.clone())) {
            let span = error.span();
            assert!(
                span.start <= span.end
                    && span.end <= source.len()
                    && source.is_char_boundary(span.start)
                    && source.is_char_boundary(span.end),
                "span {span:?} of {source:?}: {error}"
            );
            let _ = error.render(source);
        }
    }
});
