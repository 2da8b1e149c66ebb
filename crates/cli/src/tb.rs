//! `bitboards tb FEN --path DIR`: a position of few pieces looked up in
//! Syzygy endgame tablebases: win, draw or loss (WDL) and the distance to
//! zeroing (DTZ) for the side to move, and every legal move with the
//! result it keeps, best first.

use std::fmt::Write as _;
use std::io::Write;

use bitboards::Position;
use bitboards_syzygy::{Dtz, RankedMove, SyzygyError, Tablebase, Wdl};

use crate::read_position;
use crate::{CommandError, Format};

/// The arguments of `bitboards tb`.
///
/// ```
/// use bitboards_cli::tb::TbArgs;
/// use clap::Parser;
///
/// let args = TbArgs::parse_from(["tb", "8/8/8/8/4k3/8/8/R3K3 w - - 0 1", "--path", "a", "--path", "b"]);
/// assert_eq!(args.fen.join(" "), "8/8/8/8/4k3/8/8/R3K3 w - - 0 1");
/// assert_eq!(args.path, ["a", "b"]);
/// ```
#[derive(Clone, Debug, clap::Parser)]
pub struct TbArgs {
    /// The position in FEN, six fields or the first four, with no castling
    /// rights (the tables hold none). One argument in quotes, or the fields
    /// as separate arguments: they are joined with spaces.
    #[arg(value_name = "FEN", required = true)]
    pub fen: Vec<String>,
    /// A directory of Syzygy tables (`KQvKR.rtbw`, `KQvKR.rtbz`); repeat
    /// for several. DTZ needs the `.rtbz` files as well as the `.rtbw`.
    #[arg(long, value_name = "DIR", required = true)]
    pub path: Vec<String>,
    /// Text for people (the result, then one line per move), or JSON for
    /// scripts (one object: `fen`, `wdl` and `dtz` for the side to move,
    /// the `best` move, and `moves`, best first, each with `san`, `uci`,
    /// `wdl` and `dtz`).
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// Looks the position up and writes the report to `out`.
///
/// # Errors
/// Exit code 2 for a bad FEN, a directory that cannot be read or holds no
/// table, a position with castling rights or more pieces than the tables
/// hold; 1 for a table that is missing or cannot be read.
///
/// ```
/// use bitboards_cli::tb::{run, TbArgs};
/// use clap::Parser;
///
/// let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/syzygy");
/// let args = TbArgs::parse_from(["tb", "8/8/8/8/4k3/8/8/R3K3 w - - 0 1", "--path", tables]);
/// let mut out = Vec::new();
/// run(&args, &mut out).unwrap();
/// assert!(String::from_utf8(out).unwrap().starts_with("WDL   2 (win)\n"));
/// ```
pub fn run(args: &TbArgs, out: &mut dyn Write) -> Result<(), CommandError> {
    let fen = args.fen.join(" ");
    let position = read_position(&fen, false)?;
    let tables = open_tables(&args.path)?;
    let result =
        probe(&tables, &position).map_err(|error| probe_error(&error, &args.path, &tables))?;
    let report = match args.format {
        Format::Text => text_report(&position, &result),
        Format::Json => json_report(&position, &result),
    };
    out.write_all(report.as_bytes())
        .and_then(|()| out.flush())
        .map_err(CommandError::from_write)
}

/// The tables of every directory in `paths`. A directory that cannot be
/// read, or that holds no table file, is an error (exit code 2) that names
/// it.
///
/// # Errors
/// As above.
pub fn open_tables(paths: &[String]) -> Result<Tablebase, CommandError> {
    let mut tables = Tablebase::new();
    for path in paths {
        let added = tables.add_directory(path).map_err(|error| {
            let why = match &error {
                SyzygyError::Io { source, .. } => source.to_string(),
                other => other.to_string(),
            };
            CommandError::unreadable(format!("cannot read the tablebase directory {path}: {why}"))
        })?;
        if added == 0 {
            return Err(CommandError::unreadable(format!(
                "{path} holds no Syzygy table (files named like KQvKR.rtbw and KQvKR.rtbz); \
                 give the directory that holds them"
            )));
        }
    }
    Ok(tables)
}

/// What the tables say about a position: its WDL and DTZ for the side to
/// move, and its legal moves ranked.
#[derive(Clone, Debug)]
pub struct Probe {
    /// Win, draw or loss for the side to move.
    pub wdl: Wdl,
    /// The distance to zeroing, in plies, for the side to move.
    pub dtz: Dtz,
    /// Every legal move, best first.
    pub moves: Vec<RankedMove>,
}

/// Probes `position`: its WDL, DTZ and ranked moves. A position with more
/// pieces than any table added is refused before any table is opened.
///
/// # Errors
/// The library's: castling rights, too many pieces, a missing table, a
/// table that cannot be read.
pub fn probe(tables: &Tablebase, position: &Position) -> Result<Probe, SyzygyError> {
    let count = position.occupied().count();
    // Two kings alone need no table.
    if count > 2 && count as usize > tables.max_pieces() {
        return Err(SyzygyError::TooManyPieces { count });
    }
    Ok(Probe {
        wdl: tables.probe_wdl(position)?,
        dtz: tables.probe_dtz(position)?,
        moves: tables.best_moves(position)?,
    })
}

/// The command's message for a probe that failed: exit code 2 when the
/// position is one no table holds (castling rights, too many pieces), 1
/// when a table is missing or unreadable. `paths` are the directories
/// searched, and `tables` their tables, named in the message.
#[must_use]
pub fn probe_error(error: &SyzygyError, paths: &[String], tables: &Tablebase) -> CommandError {
    let directories = paths.join(", ");
    match error {
        SyzygyError::Castling => CommandError::usage(
            "the position has castling rights, and Syzygy tables hold no position with any; \
             write `-` in the FEN's castling field if no castling is possible",
        ),
        SyzygyError::TooManyPieces { count } => CommandError::usage(format!(
            "{count} pieces on the board (kings included); the tables in {directories} hold at most {}",
            tables
                .max_pieces()
                .min(bitboards_syzygy::MAX_PIECES as usize)
        )),
        SyzygyError::MissingTable { name } => CommandError::failure(format!(
            "no table {name} in {directories}: add the directory that holds it"
        )),
        other => CommandError::failure(format!("cannot probe the tables: {other}")),
    }
}

/// The word for a result, for the side to move.
#[must_use]
pub fn wdl_name(wdl: Wdl) -> &'static str {
    match wdl {
        Wdl::Loss => "loss",
        Wdl::BlessedLoss => "blessed loss: lost, but drawn under the fifty-move rule",
        Wdl::Draw => "draw",
        Wdl::CursedWin => "cursed win: won, but drawn under the fifty-move rule",
        Wdl::Win => "win",
    }
}

/// The text report: the WDL and DTZ for the side to move, the best move,
/// then every move with its SAN, UCI, WDL and DTZ (for the side that plays
/// it, counted from this position), best first.
///
/// ```
/// use bitboards::Position;
/// use bitboards_cli::tb::{probe, text_report};
/// use bitboards_syzygy::Tablebase;
///
/// let mut tables = Tablebase::new();
/// tables.add_directory(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/syzygy")).unwrap();
/// let position = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").unwrap();
/// let report = text_report(&position, &probe(&tables, &position).unwrap());
/// assert!(report.starts_with("WDL   2 (win)\nDTZ   "));
/// ```
#[must_use]
pub fn text_report(position: &Position, result: &Probe) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "WDL   {} ({})", result.wdl as i8, wdl_name(result.wdl));
    let _ = writeln!(out, "DTZ   {}", dtz_words(result.dtz));
    let clock = i32::from(position.halfmove_clock());
    let dtz = result.dtz.0.abs();
    if clock > 0 && dtz > 0 && dtz <= 100 && dtz + clock > 100 {
        let _ = writeln!(
            out,
            "      with the halfmove clock at {clock}, the fifty-move rule comes first: a draw"
        );
    }
    if position.is_checkmate() {
        out.push_str("no legal moves (checkmate)\n");
        return out;
    }
    if position.is_stalemate() {
        out.push_str("no legal moves (stalemate)\n");
        return out;
    }
    if let Some(best) = result.moves.first() {
        let _ = writeln!(
            out,
            "best  {} ({})",
            position.san(best.mv),
            position.uci(best.mv)
        );
    }
    out.push_str("\nmove     uci     WDL   DTZ\n");
    for ranked in &result.moves {
        let _ = writeln!(
            out,
            "{:<8} {:<6} {:>4} {:>5}",
            position.san(ranked.mv).to_string(),
            position.uci(ranked.mv).to_string(),
            ranked.wdl as i8,
            ranked.dtz.0
        );
    }
    out
}

/// A DTZ with what it means.
fn dtz_words(dtz: Dtz) -> String {
    match dtz.0 {
        0 => "0 (drawn: no capture or pawn move to count to)".to_owned(),
        n if n > 0 => format!("{n} (plies to the next capture or pawn move, winning)"),
        n => format!("{n} (plies to the next capture or pawn move, losing)"),
    }
}

/// The best move of a probe as JSON, `{"san": ..., "uci": ...}`, or `null`
/// when there is no legal move.
pub(crate) fn best_json(position: &Position, result: &Probe) -> String {
    result.moves.first().map_or_else(
        || "null".to_owned(),
        |best| {
            format!(
                "{{\"san\": \"{}\", \"uci\": \"{}\"}}",
                position.san(best.mv),
                position.uci(best.mv)
            )
        },
    )
}

/// The JSON object for scripts: `fen`, `wdl` (-2 to 2, for the side to
/// move), `dtz` (plies, positive when winning), `best` (`{"san", "uci"}`
/// or `null` without a legal move) and `moves`, best first: `san`, `uci`,
/// `wdl` and `dtz`, for the side that plays the move and counted from this
/// position.
///
/// Written by hand: every string in it is ASCII from a fixed alphabet
/// (FEN and SAN letters, digits, `/`, `-`, `+`, `#`, `=`).
///
/// ```
/// use bitboards::Position;
/// use bitboards_cli::tb::{json_report, probe};
/// use bitboards_syzygy::Tablebase;
///
/// let mut tables = Tablebase::new();
/// tables.add_directory(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/syzygy")).unwrap();
/// let position = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").unwrap();
/// let json = json_report(&position, &probe(&tables, &position).unwrap());
/// assert!(json.contains("\n  \"wdl\": 2,\n"));
/// ```
#[must_use]
pub fn json_report(position: &Position, result: &Probe) -> String {
    let mut out = String::from("{\n");
    let _ = writeln!(out, "  \"fen\": \"{}\",", position.fen());
    let _ = writeln!(out, "  \"wdl\": {},", result.wdl as i8);
    let _ = writeln!(out, "  \"dtz\": {},", result.dtz.0);
    let best = best_json(position, result);
    let _ = writeln!(out, "  \"best\": {best},");
    let moves: Vec<String> = result
        .moves
        .iter()
        .map(|ranked| {
            format!(
                "    {{\"san\": \"{}\", \"uci\": \"{}\", \"wdl\": {}, \"dtz\": {}}}",
                position.san(ranked.mv),
                position.uci(ranked.mv),
                ranked.wdl as i8,
                ranked.dtz.0
            )
        })
        .collect();
    if moves.is_empty() {
        out.push_str("  \"moves\": []\n");
    } else {
        let _ = writeln!(out, "  \"moves\": [\n{}\n  ]", moves.join(",\n"));
    }
    out.push_str("}\n");
    out
}
