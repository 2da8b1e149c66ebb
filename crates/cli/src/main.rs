//! `bitboards`: see any bitboard as a board, hex and binary, edit one
//! interactively, look inside a position, count perft and replay PGN. Run
//! `bitboards --help`.

#![deny(unsafe_code)]

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use bitboards_cli::{CommandError, analyse, book, edit, explorer, fen, perft, pgn, show, tb};
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
    /// An opening explorer of your own games: build an index from PGN
    /// files, query it by position with Lichess's filters, or serve
    /// Lichess's explorer and tablebase APIs over HTTP.
    Explorer(explorer::ExplorerArgs),
}

/// Has glibc's allocator keep the memory the command frees for its next
/// allocations instead of handing it back to the kernel at once.
///
/// By default glibc maps every allocation above 128 KiB (a threshold that
/// grows only with what is freed) on its own and unmaps it when freed, and
/// trims the free top of each heap: the columns of each record batch that
/// `pgn --to parquet` builds, and the pages its encoders write, were fresh
/// memory every time, faulted in 4 KiB at a time. With allocations up to
/// 32 MiB kept in the heaps and no trimming below 1 GiB, `pgn --to parquet
/// --rows positions` in batches of 1,024 rows took 5,307 page faults
/// instead of 131,589, and a fifth less CPU time (docs/performance.md,
/// "Parquet of positions"). The memory held is the peak the command
/// reached, which its bounded batches and row groups keep small.
#[cfg(all(target_os = "linux", target_env = "gnu", not(miri)))]
#[allow(unsafe_code)]
fn keep_freed_memory() {
    // SAFETY: `mallopt` only sets two of glibc's tuning parameters, to
    // values in their documented ranges (the mmap threshold at most
    // HEAP_MAX_SIZE / 2, 32 MiB on 64-bit; any trim threshold); it is
    // called before any other thread starts, and no memory changes hands
    // or meaning. It returns 0 when it declines a value, which leaves
    // glibc's default: nothing to handle.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}

/// Other allocators are left as they are.
#[cfg(not(all(target_os = "linux", target_env = "gnu", not(miri))))]
fn keep_freed_memory() {}

fn main() -> ExitCode {
    keep_freed_memory();
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
        Command::Explorer(args) => explorer::run(
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
