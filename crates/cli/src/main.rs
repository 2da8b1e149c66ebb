//! `bitboards`: see any bitboard as a board, hex and binary, and edit one
//! interactively. Run `bitboards --help`.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use bitboards_cli::{CommandError, edit, show};
use clap::{Parser, Subcommand};

/// See chess bitboards as boards, hex and binary, and edit them.
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
