//! Writes a Lichess-shaped PGN file of seeded random games
//! (`bitboards_test_support::lichess_games`: the open database's tags and a
//! `{ [%eval ...] [%clk ...] }` comment after every move), the workload the
//! benches and `tests/python/bench_users.py` time.
//!
//! ```text
//! cargo run --release -p bitboards-pgn --example lichess_pgn -- 5000 games.pgn
//! ```

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: lichess_pgn GAMES OUT";
    let games: usize = args.next().and_then(|n| n.parse().ok()).expect(usage);
    let out = args.next().expect(usage);
    let mut file = std::io::BufWriter::new(std::fs::File::create(out)?);
    // In pieces of 10,000 games, each with its own seed: a file of any size
    // in bounded memory, the same bytes for the same count.
    for (piece, start) in (0..games).step_by(10_000).enumerate() {
        let count = (games - start).min(10_000);
        std::io::Write::write_all(
            &mut file,
            &bitboards_test_support::lichess_games(count, 0x011C_4E55 + piece as u64),
        )?;
    }
    std::io::Write::flush(&mut file)
}
