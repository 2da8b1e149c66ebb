//! `bitboards edit [EXPR]`: an interactive board in the terminal.
//!
//! The editor is a pure state machine ([`Editor`], [`Input`]) drawn by a
//! ratatui widget ([`EditorView`]); only [`run`] touches a real terminal.

mod layout;
mod state;
mod terminal;
mod view;

use std::io::{IsTerminal, Write};

use bitboards::Bitboard;

pub use layout::{MIN_HEIGHT, MIN_WIDTH};
pub use state::{Editor, Input, Outcome};
pub use view::EditorView;

use crate::numbering::Numbering;
use crate::render::{ColorChoice, hex, literal};
use crate::{CommandError, expr};

/// The arguments of `bitboards edit`.
///
/// ```
/// use bitboards_cli::edit::EditArgs;
/// use clap::Parser;
///
/// let args = EditArgs::parse_from(["edit", "--numbering", "berbef", "e4", "|", "d5"]);
/// assert_eq!(args.expression, ["e4", "|", "d5"]);
/// ```
#[derive(Clone, Debug, clap::Parser)]
#[command(
    after_help = "Keys: arrows or h j k l move; space or a click toggles (a drag paints); \
    c clears, f fills, i inverts, v flips the ranks, m mirrors the files, n switches numbering; \
    q, Enter or Esc finish and print the number and its bitboard! literal; Ctrl-C quits \
    without printing (exit code 130)."
)]
pub struct EditArgs {
    /// The board to start from, as for `show` (empty if left out). The
    /// arguments are joined with spaces into one expression.
    #[arg(value_name = "EXPR")]
    pub expression: Vec<String>,
    /// The numbering numbers are read and shown in; `n` switches it in the editor.
    #[arg(long, value_enum, default_value_t)]
    pub numbering: Numbering,
    /// Colour the set squares.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
}

/// Runs the editor on the terminal, then writes the final number (in the
/// numbering chosen last) and the `bitboard!` literal to `out`. Ctrl-C quits
/// with exit code 130 and writes nothing.
///
/// ```no_run
/// use bitboards_cli::edit::{run, EditArgs};
/// use clap::Parser;
///
/// let args = EditArgs::parse_from(["edit", "knight(g5)"]);
/// run(&args, &mut std::io::stdout()).unwrap();
/// ```
pub fn run(args: &EditArgs, out: &mut dyn Write) -> Result<(), CommandError> {
    let source = args.expression.join(" ");
    let board = if source.trim().is_empty() {
        Bitboard::EMPTY
    } else {
        let read_stdin = crate::stdin_in_numbering(args.numbering, crate::read_stdin);
        expr::evaluate(&source, args.numbering, read_stdin)
            .map_err(|error| CommandError::expression(&error, &source))?
    };
    if !std::io::stderr().is_terminal() {
        return Err(CommandError::failure(
            "`bitboards edit` draws on standard error, which is not a terminal; \
             run it in a terminal (use `bitboards show` in scripts)",
        ));
    }
    let no_color = std::env::var("NO_COLOR").ok();
    let color = args.color.enabled(true, no_color.as_deref());
    let editor = terminal::run(Editor::new(board, args.numbering), color)
        .map_err(|error| CommandError::failure(format!("the terminal failed: {error}")))?;
    match editor.outcome() {
        Some(Outcome::Aborted) => Err(CommandError::aborted()),
        _ => {
            write_result(&editor, out)?;
            Ok(())
        }
    }
}

/// What `edit` prints when it finishes: the number in the editor's
/// numbering alone on the first line (for scripts), then, when that is not
/// lerf, a comment naming the numbering and giving the lerf number (what
/// `Bitboard` holds and the literal draws), then the literal.
///
/// ```
/// use bitboards::Square;
/// use bitboards_cli::edit::{write_result, Editor};
/// use bitboards_cli::numbering::Numbering;
///
/// let mut out = Vec::new();
/// write_result(&Editor::new(Square::E4.bitboard(), Default::default()), &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("0x0000000010000000\nbitboard! {\n"));
///
/// let mut out = Vec::new();
/// write_result(&Editor::new(Square::E4.bitboard(), Numbering::Berf), &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("0x0000001000000000\n// 0x0000001000000000 is in berf "));
/// ```
pub fn write_result(editor: &Editor, out: &mut dyn Write) -> Result<(), CommandError> {
    let numbering = editor.numbering();
    let number = numbering.to_number(editor.board());
    let label = if numbering == Numbering::Lerf {
        String::new()
    } else {
        let lerf = Numbering::Lerf.to_number(editor.board());
        format!(
            "// {} is in {numbering} ({}); the board below is Bitboard({}) in lerf\n",
            hex(number),
            numbering.corners(),
            hex(lerf)
        )
    };
    let text = format!("{}\n{label}{}\n", hex(number), literal(editor.board()));
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(CommandError::from_write)
}
