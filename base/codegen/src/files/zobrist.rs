//! `zobrist.rs`: the Polyglot opening-book Zobrist keys, parsed from the
//! data file that ships in this crate's package.

use super::example;
use crate::Error;
use crate::inputs::Inputs;
use crate::table::Table;

/// The published keys, one hex `u64` a line after a `#` header (copied from
/// the Polyglot book format's Random64 array).
const DATA: &str = include_str!("../../data/polyglot-random64.txt");
const DATA_NAME: &str = "base/codegen/data/polyglot-random64.txt";

/// How many keys the Polyglot format has: 768 + 4 + 8 + 1.
const KEYS: usize = 781;

pub(crate) fn about(_: &Inputs) -> String {
    format!(
        "Zobrist keys: the {KEYS} keys of the Polyglot opening-book format (Fabien\n\
         Letouzey), parsed from {DATA_NAME}."
    )
}

/// The keys in `text`: `#` lines and blank lines skipped, every other line
/// one `0x` hex `u64`, exactly [`KEYS`] of them.
fn parse(text: &str) -> Result<Vec<u64>, Error> {
    let mut keys = Vec::with_capacity(KEYS);
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let key = line
            .strip_prefix("0x")
            .and_then(|digits| u64::from_str_radix(digits, 16).ok())
            .ok_or_else(|| {
                Error::Table(format!(
                    "{DATA_NAME} line {}: `{line}` is not a 0x-prefixed hex u64",
                    number + 1
                ))
            })?;
        keys.push(key);
    }
    if keys.len() != KEYS {
        return Err(Error::Table(format!(
            "{DATA_NAME}: {} keys, the Polyglot format has {KEYS}",
            keys.len()
        )));
    }
    Ok(keys)
}

pub(crate) fn polyglot_random64(_: &Inputs) -> Result<Table, Error> {
    Ok(Table::list(
        "POLYGLOT_RANDOM64",
        format!(
            "The {KEYS} Zobrist keys of the Polyglot opening-book format (Fabien Letouzey),\n\
             in Polyglot's order; a position's Polyglot key is the XOR of its keys:\n\
             \n\
             - `0..768`, pieces: `64 * kind + 8 * rank + file` (rank and file 0-based from a1,\n  \
               so `64 * kind + square.index()`), kind black pawn 0, white pawn 1, black\n  \
               knight 2, white knight 3, black bishop 4, white bishop 5, black rook 6, white\n  \
               rook 7, black queen 8, white queen 9, black king 10, white king 11;\n\
             - `768..772`, castling rights: white short, white long, black short, black long;\n\
             - `772..780`, en passant, by file a to h: only when a pawn of the side to move\n  \
               stands beside the pawn that just moved two squares;\n\
             - `780`, the side to move: XORed in when White is to move.{}",
            example(
                "use bitboards::{tables::POLYGLOT_RANDOM64, Square};\n\
                 const WHITE_KNIGHT: usize = 3;\n\
                 let knight_on_g1 = POLYGLOT_RANDOM64[64 * WHITE_KNIGHT + Square::G1.index()];\n\
                 assert_ne!(knight_on_g1, 0);\n\
                 // The first key (a black pawn on a1) and White's side-to-move key.\n\
                 assert_eq!(POLYGLOT_RANDOM64[0], 0x9D39_247E_3377_6D41);\n\
                 assert_eq!(POLYGLOT_RANDOM64[780], 0xF8D6_26AA_AF27_8509);"
            )
        ),
        parse(DATA)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_holds_781_distinct_keys() {
        let mut keys = parse(DATA).unwrap();
        assert_eq!(keys[0], 0x9D39_247E_3377_6D41);
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), KEYS, "two keys are equal");
    }

    #[test]
    fn a_bad_line_is_named() {
        let text = "# header\n0x1\nzz\n";
        let error = parse(text).unwrap_err().to_string();
        assert_eq!(
            error,
            format!("{DATA_NAME} line 3: `zz` is not a 0x-prefixed hex u64")
        );
    }

    #[test]
    fn a_short_file_is_an_error() {
        let error = parse("0x1\r\n0x2\r\n").unwrap_err().to_string();
        assert_eq!(
            error,
            format!("{DATA_NAME}: 2 keys, the Polyglot format has 781")
        );
    }
}
