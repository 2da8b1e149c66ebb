//! The views of one bitboard that every subcommand prints: the diagram, the
//! number in hex, decimal and binary, the set squares, the `bitboard!`
//! literal and the JSON object.

use std::fmt::Write as _;

use bitboards::Bitboard;

use crate::numbering::Numbering;

/// `0x` and 16 hex digits, and a pasteable `bitboard!` literal: the
/// expression crate's, so that the command and the web page write the same.
pub use bitboards_expr::text::{hex, literal};

/// Whether to colour the set squares: `auto` colours on a terminal unless
/// `NO_COLOR` is set to anything but the empty string.
///
/// ```
/// use bitboards_cli::render::ColorChoice;
///
/// assert!(!ColorChoice::Auto.enabled(true, Some("1")));
/// assert!(ColorChoice::Auto.enabled(true, None));
/// assert!(!ColorChoice::Auto.enabled(false, None));
/// assert!(ColorChoice::Always.enabled(false, Some("1")));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when writing to a terminal and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    /// Always colour (overrides `NO_COLOR`).
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour, given whether the output is a terminal and the
    /// value of `NO_COLOR`.
    ///
    /// ```
    /// use bitboards_cli::render::ColorChoice;
    ///
    /// // An empty NO_COLOR does not count as set (see no-color.org).
    /// assert!(ColorChoice::Auto.enabled(true, Some("")));
    /// assert!(!ColorChoice::Never.enabled(true, None));
    /// ```
    #[must_use]
    pub fn enabled(self, is_terminal: bool, no_color: Option<&str>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && no_color.is_none_or(str::is_empty),
        }
    }
}

const SET_SQUARE_ON: &str = "\x1b[1;32m";
const COLOR_OFF: &str = "\x1b[0m";

/// The labelled diagram, rank 8 on top, with set squares in bold green when
/// `color` is on. Without colour it is exactly what `Display` prints, which
/// `bitboard!` and `FromStr` read back.
///
/// ```
/// use bitboards::Square;
/// use bitboards_cli::render::diagram;
///
/// let board = Square::C4.bitboard();
/// assert_eq!(diagram(board, false), board.to_string());
/// assert!(diagram(board, true).contains("\x1b[1;32mX\x1b[0m"));
/// ```
#[must_use]
pub fn diagram(board: Bitboard, color: bool) -> String {
    let plain = board.to_string();
    if !color {
        return plain;
    }
    plain.replace('X', &format!("{SET_SQUARE_ON}X{COLOR_OFF}"))
}

/// The number in binary, most significant bit first, in eight groups of
/// eight: one group per rank in every numbering.
///
/// ```
/// use bitboards_cli::render::binary_groups;
///
/// assert_eq!(
///     binary_groups(0x0101),
///     "00000000 00000000 00000000 00000000 00000000 00000000 00000001 00000001"
/// );
/// ```
#[must_use]
pub fn binary_groups(number: u64) -> String {
    number
        .to_be_bytes()
        .iter()
        .map(|byte| format!("{byte:08b}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The rank each group of [`binary_groups`] holds in `numbering`, aligned
/// under the groups.
///
/// ```
/// use bitboards_cli::numbering::Numbering;
/// use bitboards_cli::render::rank_labels;
///
/// assert!(rank_labels(Numbering::Lerf).starts_with("rank 8   rank 7"));
/// assert!(rank_labels(Numbering::Berf).starts_with("rank 1   rank 2"));
/// ```
#[must_use]
pub fn rank_labels(numbering: Numbering) -> String {
    (0..8)
        .rev()
        .map(|byte| format!("rank {:<3}", numbering.rank_of_byte(byte)))
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end()
        .to_owned()
}

/// The set squares' names, a1 first, separated by spaces; `(none)` when empty.
///
/// ```
/// use bitboards::Square;
/// use bitboards_cli::render::square_list;
///
/// assert_eq!(square_list(Square::D5.bitboard() | Square::C4.bitboard()), "c4 d5");
/// assert_eq!(square_list(bitboards::Bitboard::EMPTY), "(none)");
/// ```
#[must_use]
pub fn square_list(board: Bitboard) -> String {
    if board.is_empty() {
        return "(none)".to_owned();
    }
    board.iter().map(|s| s.name()).collect::<Vec<_>>().join(" ")
}

/// The text report: diagram, numbers, squares and count (and the literal
/// when asked), as `bitboards show` prints it.
///
/// ```
/// use bitboards::Square;
/// use bitboards_cli::numbering::Numbering;
/// use bitboards_cli::render::text_report;
///
/// let report = text_report(Square::C4.bitboard(), Numbering::Lerf, false, false);
/// assert!(report.contains("\nhex       0x0000000004000000\n"));
/// assert!(report.contains("\ndecimal   67108864\n"));
/// assert!(report.contains("\nsquares   c4\n"));
/// ```
#[must_use]
pub fn text_report(
    board: Bitboard,
    numbering: Numbering,
    color: bool,
    with_literal: bool,
) -> String {
    let number = numbering.to_number(board);
    let mut out = diagram(board, color);
    out.push_str("\n\n");
    // Writing to a String cannot fail.
    let _ = writeln!(out, "hex       {}", hex(number));
    let _ = writeln!(out, "decimal   {number}");
    let _ = writeln!(out, "binary    {}", binary_groups(number));
    let _ = writeln!(out, "          {}", rank_labels(numbering));
    let _ = writeln!(out, "numbering {numbering} ({})", numbering.corners());
    let _ = writeln!(out, "squares   {}", square_list(board));
    let _ = writeln!(out, "count     {}", board.count());
    if with_literal {
        out.push('\n');
        out.push_str(&literal(board));
        out.push('\n');
    }
    out
}

/// The JSON object for scripts: `value` (the number in `numbering`),
/// `hex`, `binary`, `numbering`, `squares` (their names) and `count`, and
/// `literal` when asked.
///
/// Written by hand: every string in it is ASCII from a fixed alphabet,
/// except the literal's newlines, which are escaped.
///
/// ```
/// use bitboards::Square;
/// use bitboards_cli::numbering::Numbering;
/// use bitboards_cli::render::json_report;
///
/// let json = json_report(Square::D6.bitboard(), Numbering::Lerf, false);
/// assert!(json.contains("\"squares\": [\"d6\"]"));
/// assert!(json.contains("\"count\": 1"));
/// ```
#[must_use]
pub fn json_report(board: Bitboard, numbering: Numbering, with_literal: bool) -> String {
    let number = numbering.to_number(board);
    let squares: Vec<String> = board.iter().map(|s| format!("\"{s}\"")).collect();
    let mut out = String::from("{\n");
    let _ = writeln!(out, "  \"value\": {number},");
    let _ = writeln!(out, "  \"hex\": \"{}\",", hex(number));
    let _ = writeln!(out, "  \"binary\": \"{}\",", binary_groups(number));
    let _ = writeln!(out, "  \"numbering\": \"{numbering}\",");
    let _ = writeln!(out, "  \"squares\": [{}],", squares.join(", "));
    let _ = write!(out, "  \"count\": {}", board.count());
    if with_literal {
        let escaped = literal(board).replace('\n', "\\n");
        let _ = write!(out, ",\n  \"literal\": \"{escaped}\"");
    }
    out.push_str("\n}\n");
    out
}
