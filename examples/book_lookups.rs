//! Every position of a FEN file looked up in a Polyglot book with
//! `Book::entries`, as an engine or a Rust program does it; prints the
//! lookups per second (best of three passes) and the entries found. For
//! `tests/python/bench_users.py`, which times python-chess's reader on the
//! same book and positions in the same run.
//!
//! ```text
//! cargo run --release --example book_lookups -- book.bin fens.txt
//! ```

use std::time::Instant;

use bitboards::Position;
use bitboards::book::Book;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: book_lookups BOOK FENS";
    let book = Book::open(args.next().ok_or(usage)?)?;
    let fens = std::fs::read_to_string(args.next().ok_or(usage)?)?;
    let positions: Vec<Position> = fens
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|fen| Position::from_fen(fen.trim()))
        .collect::<Result<_, _>>()?;
    let mut best = f64::INFINITY;
    let mut found = 0;
    for _ in 0..3 {
        let start = Instant::now();
        found = positions
            .iter()
            .map(|position| book.entries(position).count())
            .sum::<usize>();
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{} lookups, {found} entries, {:.0} lookups/s",
        positions.len(),
        positions.len() as f64 / best
    );
    Ok(())
}
