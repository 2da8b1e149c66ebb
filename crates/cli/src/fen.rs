//! `bitboards fen FEN`: a position as a piece diagram, its fifteen
//! bitboards in a grid, and what the rules say about it.

use std::fmt::Write as _;
use std::io::Write;

use bitboards::{Bitboard, Color, Position};

use crate::CommandError;
use crate::render::{hex, square_list};
use crate::tb;

pub use crate::Format;
/// Kept here too, where it was first: [`crate::read_position`].
pub use crate::read_position;

/// The arguments of `bitboards fen`.
///
/// ```
/// use bitboards_cli::fen::FenArgs;
/// use clap::Parser;
///
/// let args = FenArgs::parse_from(["fen", "4k3/8/8/8/8/8/8/4K3", "w", "-", "-"]);
/// assert_eq!(args.fen.join(" "), "4k3/8/8/8/8/8/8/4K3 w - -");
/// ```
#[derive(Clone, Debug, clap::Parser)]
pub struct FenArgs {
    /// The position in FEN: standard, X-FEN or Shredder-FEN castling (for
    /// Chess960), six fields or the first four. One argument in quotes, or
    /// the fields as separate arguments: they are joined with spaces.
    #[arg(value_name = "FEN", required = true)]
    pub fen: Vec<String>,
    /// Text for people (the diagrams and the facts), or JSON for scripts (one
    /// object: the FEN, the facts and the fifteen boards in hex).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Accept a check no game can reach (two checkers on one line, a
    /// double check by two non-sliders...), as some perft suites hold.
    #[arg(long)]
    pub allow_impossible_check: bool,
    /// A directory of Syzygy tables (repeat for several): adds what they
    /// say of the position, its WDL and DTZ for the side to move and the
    /// best move (`tablebase` in JSON), as `bitboards tb` shows them. A
    /// position they do not hold (castling rights, too many pieces, a
    /// table missing) says why instead.
    #[arg(long, value_name = "DIR")]
    pub tb: Vec<String>,
}

/// Reads the FEN and writes the report to `out`.
///
/// ```
/// use bitboards_cli::fen::{run, FenArgs};
/// use clap::Parser;
///
/// let args = FenArgs::parse_from(["fen", "4k3/8/8/8/8/3n4/8/4K3 w - - 0 1"]);
/// let mut out = Vec::new();
/// run(&args, &mut out).unwrap();
/// assert!(String::from_utf8(out).unwrap().contains("\ncheckers      d3 "));
/// ```
pub fn run(args: &FenArgs, out: &mut dyn Write) -> Result<(), CommandError> {
    let fen = args.fen.join(" ");
    let position = read_position(&fen, args.allow_impossible_check)?;
    let mut report = match args.format {
        Format::Text => text_report(&position),
        Format::Json => json_report(&position),
    };
    if !args.tb.is_empty() {
        let tables = tb::open_tables(&args.tb)?;
        let answer = tablebase_answer(&tables, &position, &args.tb)?;
        match args.format {
            Format::Text => report.push_str(&tablebase_text(&position, &answer)),
            Format::Json => {
                // The object's last line is `}`: the field goes before it.
                report.truncate(report.len() - "\n}\n".len());
                report.push_str(",\n");
                report.push_str(&tablebase_json(&position, &answer));
                report.push_str("}\n");
            }
        }
    }
    out.write_all(report.as_bytes())
        .and_then(|()| out.flush())
        .map_err(CommandError::from_write)
}

/// How many diagrams stand side by side: three makes each colour's six
/// boards two rows, and the three unions the last row.
const GRID_COLUMNS: usize = 3;
/// The width of one grid column: the hex line (`0x` and 16 digits) is the
/// widest thing in it.
const GRID_COLUMN_WIDTH: usize = 18;
const GRID_GAP: &str = "  ";

/// The labelled diagrams of `boards`, `GRID_COLUMNS` to a row, each with
/// its name above and its hex below, as the literature draws a position's
/// bitboards.
///
/// ```
/// use bitboards::Position;
/// use bitboards_cli::fen::grid;
///
/// let text = grid(&Position::START.named_bitboards());
/// assert!(text.starts_with("WhitePawns          WhiteRooks          WhiteKnights\n"));
/// assert!(text.contains("\n0x000000000000ff00  0x0000000000000081  0x0000000000000042\n"));
/// ```
#[must_use]
pub fn grid(boards: &[(&str, Bitboard)]) -> String {
    let mut out = String::new();
    for (row_index, row) in boards.chunks(GRID_COLUMNS).enumerate() {
        if row_index > 0 {
            out.push('\n');
        }
        // Each cell as lines: the name, the diagram's nine lines, the hex.
        let cells: Vec<Vec<String>> = row
            .iter()
            .map(|(name, board)| {
                let mut lines = vec![(*name).to_owned()];
                lines.extend(board.to_string().lines().map(str::to_owned));
                lines.push(hex(board.0));
                lines
            })
            .collect();
        let height = cells.iter().map(Vec::len).max().unwrap_or(0);
        for line_index in 0..height {
            let mut line = String::new();
            for (cell_index, cell) in cells.iter().enumerate() {
                if cell_index > 0 {
                    line.push_str(GRID_GAP);
                }
                let text = cell.get(line_index).map_or("", String::as_str);
                let _ = write!(line, "{text:<GRID_COLUMN_WIDTH$}");
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

/// The side's name in lower case, as the reports write it.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The FEN's castling field: the standard (or X-FEN) letters, and the
/// Shredder-FEN letters that name each rook's file.
fn castling_fields(position: &Position) -> (String, String) {
    let field = |fen: String| fen.split(' ').nth(2).unwrap_or("-").to_owned();
    (
        field(position.fen().to_string()),
        field(position.fen().shredder().to_string()),
    )
}

/// The number of legal moves, with the verdict when there are none.
fn legal_moves_line(position: &Position) -> String {
    let count = position.count_legal_moves();
    if position.is_checkmate() {
        format!("{count} (checkmate)")
    } else if position.is_stalemate() {
        format!("{count} (stalemate)")
    } else {
        count.to_string()
    }
}

/// A set of squares by name, with the board's hex when it is not empty.
fn squares_with_hex(board: Bitboard) -> String {
    if board.is_empty() {
        square_list(board)
    } else {
        format!("{} ({})", square_list(board), hex(board.0))
    }
}

/// The text report: the piece diagram and FEN, the fifteen boards in a
/// grid, then side to move, castling, en passant, the Polyglot key,
/// checkers, pinned pieces, the legal move count and the moves in SAN.
///
/// ```
/// use bitboards::Position;
/// use bitboards_cli::fen::text_report;
///
/// let report = text_report(&Position::START);
/// assert!(report.starts_with("8 r n b q k b n r\n"));
/// assert!(report.contains("\nPolyglot key  0x463b96181691fc9c\n"));
/// assert!(report.contains("\ncastling      KQkq (Shredder-FEN HAha)\n"));
/// ```
#[must_use]
pub fn text_report(position: &Position) -> String {
    let mut out = position.to_string();
    out.push_str("\n\n");
    out.push_str(&grid(&position.named_bitboards()));
    out.push('\n');
    let (castling, shredder) = castling_fields(position);
    let castling = if castling == shredder {
        castling
    } else {
        format!("{castling} (Shredder-FEN {shredder})")
    };
    let en_passant = position
        .en_passant()
        .map_or_else(|| "-".to_owned(), |square| square.name().to_owned());
    let _ = writeln!(out, "side to move  {}", color_name(position.side_to_move()));
    let _ = writeln!(out, "castling      {castling}");
    let _ = writeln!(out, "en passant    {en_passant}");
    let _ = writeln!(out, "Polyglot key  {}", hex(position.polyglot_key()));
    let _ = writeln!(
        out,
        "checkers      {}",
        squares_with_hex(position.checkers())
    );
    let _ = writeln!(out, "pinned        {}", squares_with_hex(position.pinned()));
    let _ = writeln!(out, "legal moves   {}", legal_moves_line(position));
    for line in wrap(&san_moves(position), 80 - 14) {
        let _ = writeln!(out, "              {line}");
    }
    out
}

/// Every legal move in SAN, in generation order.
fn san_moves(position: &Position) -> Vec<String> {
    position
        .legal_moves()
        .iter()
        .map(|&mv| position.san(mv).to_string())
        .collect()
}

/// `words` joined by spaces into lines of at most `width` characters.
fn wrap(words: &[String], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in words {
        match lines.last_mut() {
            Some(line) if line.len() + 1 + word.len() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.clone()),
        }
    }
    lines
}

/// The JSON object for scripts: `fen`, `shredder_fen`, `side_to_move`,
/// `castling`, `en_passant` (a square or `null`), `polyglot_key` (hex),
/// `checkers` and `pinned` (square names), `legal_moves`, `san` (the
/// legal moves in SAN), `checkmate`, `stalemate`, and `bitboards`: the
/// fifteen boards by their literature names, as hex.
///
/// Written by hand: every string in it is ASCII from a fixed alphabet
/// (FEN letters, digits, `/`, `-`, `+`, `#`, `=`, square and board names).
///
/// ```
/// use bitboards::Position;
/// use bitboards_cli::fen::json_report;
///
/// let json = json_report(&Position::START);
/// assert!(json.contains("\"polyglot_key\": \"0x463b96181691fc9c\""));
/// assert!(json.contains("\"WhiteRooks\": \"0x0000000000000081\""));
/// assert!(json.contains("\"en_passant\": null"));
/// ```
#[must_use]
pub fn json_report(position: &Position) -> String {
    let names = |board: Bitboard| {
        board
            .iter()
            .map(|square| format!("\"{square}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let en_passant = position
        .en_passant()
        .map_or_else(|| "null".to_owned(), |square| format!("\"{square}\""));
    let (castling, _) = castling_fields(position);
    let boards: Vec<String> = position
        .named_bitboards()
        .iter()
        .map(|(name, board)| format!("    \"{name}\": \"{}\"", hex(board.0)))
        .collect();
    let mut out = String::from("{\n");
    let _ = writeln!(out, "  \"fen\": \"{}\",", position.fen());
    let _ = writeln!(
        out,
        "  \"shredder_fen\": \"{}\",",
        position.fen().shredder()
    );
    let _ = writeln!(
        out,
        "  \"side_to_move\": \"{}\",",
        color_name(position.side_to_move())
    );
    let _ = writeln!(out, "  \"castling\": \"{castling}\",");
    let _ = writeln!(out, "  \"en_passant\": {en_passant},");
    let _ = writeln!(
        out,
        "  \"polyglot_key\": \"{}\",",
        hex(position.polyglot_key())
    );
    let _ = writeln!(out, "  \"checkers\": [{}],", names(position.checkers()));
    let _ = writeln!(out, "  \"pinned\": [{}],", names(position.pinned()));
    let _ = writeln!(out, "  \"legal_moves\": {},", position.count_legal_moves());
    let san: Vec<String> = san_moves(position)
        .iter()
        .map(|san| format!("\"{san}\""))
        .collect();
    let _ = writeln!(out, "  \"san\": [{}],", san.join(", "));
    let _ = writeln!(out, "  \"checkmate\": {},", position.is_checkmate());
    let _ = writeln!(out, "  \"stalemate\": {},", position.is_stalemate());
    let _ = writeln!(out, "  \"bitboards\": {{\n{}\n  }}", boards.join(",\n"));
    out.push_str("}\n");
    out
}

/// What `--tb` adds: the tables' answer, or why they hold none for this
/// position (castling rights, too many pieces, a missing table). A table
/// that cannot be read is an error of the command.
fn tablebase_answer(
    tables: &bitboards_syzygy::Tablebase,
    position: &Position,
    paths: &[String],
) -> Result<Result<tb::Probe, String>, CommandError> {
    use bitboards_syzygy::SyzygyError;
    match tb::probe(tables, position) {
        Ok(answer) => Ok(Ok(answer)),
        Err(
            error @ (SyzygyError::Castling
            | SyzygyError::TooManyPieces { .. }
            | SyzygyError::MissingTable { .. }),
        ) => {
            let message = tb::probe_error(&error, paths, tables).message().to_owned();
            let reason = message
                .trim_end()
                .strip_prefix("error: ")
                .unwrap_or(&message)
                .to_owned();
            Ok(Err(reason))
        }
        Err(error) => Err(tb::probe_error(&error, paths, tables)),
    }
}

/// The text lines of `--tb`.
fn tablebase_text(position: &Position, answer: &Result<tb::Probe, String>) -> String {
    let mut out = String::new();
    match answer {
        Ok(answer) => {
            let _ = writeln!(
                out,
                "tablebase     WDL {} ({}), DTZ {}",
                answer.wdl as i8,
                tb::wdl_name(answer.wdl),
                answer.dtz.0
            );
            if let Some(best) = answer.moves.first() {
                let _ = writeln!(
                    out,
                    "              best {} ({})",
                    position.san(best.mv),
                    position.uci(best.mv)
                );
            }
        }
        Err(reason) => {
            let _ = writeln!(out, "tablebase     not in the tables: {reason}");
        }
    }
    out
}

/// The `tablebase` field of `--tb` in JSON: `{"wdl", "dtz", "best"}` (the
/// best move as `{"san", "uci"}`, `null` without a legal move), or
/// `{"error": "..."}` when the tables hold no answer.
fn tablebase_json(position: &Position, answer: &Result<tb::Probe, String>) -> String {
    match answer {
        Ok(answer) => {
            let best = tb::best_json(position, answer);
            format!(
                "  \"tablebase\": {{\"wdl\": {}, \"dtz\": {}, \"best\": {best}}}\n",
                answer.wdl as i8, answer.dtz.0
            )
        }
        Err(reason) => {
            // The reason names directories, which may hold any character.
            let mut escaped = String::new();
            for c in reason.chars() {
                match c {
                    '"' => escaped.push_str("\\\""),
                    '\\' => escaped.push_str("\\\\"),
                    c if c.is_control() => {
                        let _ = write!(escaped, "\\u{:04x}", u32::from(c));
                    }
                    c => escaped.push(c),
                }
            }
            format!("  \"tablebase\": {{\"error\": \"{escaped}\"}}\n")
        }
    }
}
