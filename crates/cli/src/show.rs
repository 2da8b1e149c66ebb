//! `bitboards show EXPR...`: a bitboard as a diagram, its number in hex,
//! decimal and binary, and its squares.

use std::io::Write;

use crate::numbering::Numbering;
use crate::render::{ColorChoice, json_report, text_report};
use crate::{CommandError, expr};

pub use crate::Format;

/// The arguments of `bitboards show`.
///
/// ```
/// use bitboards_cli::show::{Format, ShowArgs};
/// use clap::Parser;
///
/// let args = ShowArgs::parse_from(["show", "--format", "json", "knight(g5)"]);
/// assert_eq!(args.format, Format::Json);
/// assert_eq!(args.expression, ["knight(g5)"]);
/// ```
#[derive(Clone, Debug, clap::Parser)]
pub struct ShowArgs {
    /// What to show: a number (`0x0000000004000000`, `67108864`, `0b101`),
    /// squares (`e4,d5`), a name (`file_a`, `light_squares`), a function
    /// (`knight(g5)`, `rook(d4, d6 | f4)`), operators `| & ^ ! ~ - << >>`
    /// with parentheses, or `-` for a diagram or a number on standard input.
    /// The arguments are joined with spaces into one expression; one that
    /// starts with `-` and more goes after `--` (`show -- '- & rank_4'`).
    #[arg(value_name = "EXPR", required = true)]
    pub expression: Vec<String>,
    /// The square numbering every number is read and written in; the diagram
    /// and square names always show the true squares.
    #[arg(long, value_enum, default_value_t)]
    pub numbering: Numbering,
    /// Text for people (the diagram and the numbers), or JSON for scripts (one
    /// object: value, hex, binary, numbering, squares, count).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Also print a `bitboard!` literal to paste into Rust.
    #[arg(long)]
    pub literal: bool,
    /// Colour the set squares.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
}

/// Evaluates the expression and writes the report to `out`. `color` says
/// whether colour is on (the caller resolves `--color` against the
/// terminal and `NO_COLOR`); `read_stdin` supplies the diagram (or number)
/// for `-`.
///
/// ```
/// use bitboards_cli::show::{run, ShowArgs};
/// use clap::Parser;
///
/// let args = ShowArgs::parse_from(["show", "--numbering", "berbef", "0x0000000004000000"]);
/// let mut out = Vec::new();
/// run(&args, false, || Ok(String::new()), &mut out).unwrap();
/// assert!(String::from_utf8(out).unwrap().contains("squares   f5\n"));
/// ```
pub fn run(
    args: &ShowArgs,
    color: bool,
    read_stdin: impl FnMut() -> std::io::Result<String>,
    out: &mut dyn Write,
) -> Result<(), CommandError> {
    let source = args.expression.join(" ");
    let read_stdin = crate::stdin_in_numbering(args.numbering, read_stdin);
    let board = expr::evaluate(&source, args.numbering, read_stdin)
        .map_err(|error| CommandError::expression(&error, &source))?;
    let report = match args.format {
        Format::Text => text_report(board, args.numbering, color, args.literal),
        Format::Json => json_report(board, args.numbering, args.literal),
    };
    out.write_all(report.as_bytes())
        .and_then(|()| out.flush())
        .map_err(CommandError::from_write)
}
