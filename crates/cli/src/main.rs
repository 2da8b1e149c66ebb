//! `bitboards`: see any bitboard as a board, hex and binary, edit one
//! interactively, look inside a position, count perft and replay PGN. Run
//! `bitboards --help`.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use bitboards_cli::{CommandError, analyse, book, edit, fen, perft, pgn, show, tb};
use clap::{Parser, Subcommand};

/// See chess bitboards as boards, hex and binary, edit them, look inside a
/// position and count perft.
#[derive(Parser)]
#[command(name = "bitboards", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// One variant and one module per subcommand.
#[derive(Subcommand)]
enum Command {
    /// Show a bitboard: the diagram, hex, decimal, binary and its squares.
    Show(show::ShowArgs),
    /// Edit a bitboard on an interactive board, then print it.
    Edit(edit::EditArgs),
    /// Show a position from its FEN: the board, its fifteen bitboards, the
    /// Polyglot key, checkers, pins and the legal moves in SAN.
    Fen(fen::FenArgs),
    /// Count the legal move tree's leaves to a depth (perft), with time and
    /// speed.
    Perft(perft::PerftArgs),
    /// Replay every game of PGN files (plain or compressed, on every core):
    /// plies, final position, result, outcome, clocks and evals, or a
    /// Parquet or CSV table; bad games are reported and the rest go on.
    Pgn(pgn::PgnArgs),
    /// Polyglot opening books: show a position's book moves, or build a
    /// book from PGN files.
    Book(book::BookArgs),
    /// Look a position of few pieces up in Syzygy endgame tablebases: win,
    /// draw or loss and the distance to zeroing, and every move's, best
    /// first.
    Tb(tb::TbArgs),
    /// Analyse every position of PGN files (or a list of FENs) with a UCI
    /// engine on every core: Parquet rows, the games back with evals, or
    /// lines of text.
    Analyse(analyse::AnalyseArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = io::stdout().lock();
    let result = match &cli.command {
        Command::Show(args) => {
            let no_color = std::env::var("NO_COLOR").ok();
            let color = args
                .color
                .enabled(io::stdout().is_terminal(), no_color.as_deref());
            show::run(args, color, bitboards_cli::read_stdin, &mut stdout)
        }
        Command::Edit(args) => edit::run(args, &mut stdout),
        Command::Fen(args) => fen::run(args, &mut stdout),
        Command::Perft(args) => perft::run(args, io::stderr().is_terminal(), &mut stdout),
        Command::Book(args) => book::run(args, &mut stdout, &mut io::stderr().lock()),
        Command::Tb(args) => tb::run(args, &mut stdout),
        Command::Analyse(args) => analyse::run(
            args,
            io::stderr().is_terminal(),
            &mut stdout,
            &mut io::stderr().lock(),
        ),
        Command::Pgn(args) => pgn::run(
            args,
            io::stderr().is_terminal(),
            &mut stdout,
            &mut io::stderr().lock(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => report(&error),
    }
}

fn report(error: &CommandError) -> ExitCode {
    // If standard error is gone too, there is no one left to tell.
    let _ = io::stderr().write_all(error.message().as_bytes());
    ExitCode::from(error.exit_code())
}
