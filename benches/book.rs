//! Polyglot book lookups, in one run:
//!
//! ```text
//! cargo bench --bench book
//! ```
//!
//! - `book_lookup`: a book of 20,000 seeded random games' first 20 plies
//!   (BookWriter), and every position of those games looked up with
//!   `Book::entries`, its entries counted (each checked legal, as the
//!   reader does). Throughput in lookups. python-chess's reader on the same
//!   book and positions is timed by `tests/python/bench_book.py`.

use std::hint::black_box;
use std::time::Duration;

use bitboards::Position;
use bitboards::book::{Book, BookWriter};
use bitboards_test_support::Rng;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The book's bytes and the positions looked up.
fn workload() -> (Vec<u8>, Vec<Position>) {
    let mut rng = Rng::new(0xB00C_BE4C);
    let mut writer = BookWriter::new();
    let mut positions = Vec::new();
    for _ in 0..20_000 {
        let mut position = Position::START;
        for _ in 0..20 {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Openings repeat: the first plies come from a few moves.
            let mv = moves[rng.below(moves.len().min(4))];
            writer.add(position.polyglot_key(), mv, 1 + rng.below(10) as u64, 0);
            positions.push(position);
            position = position.play_unchecked(mv);
        }
    }
    (writer.to_bytes(), positions)
}

fn book_lookup(c: &mut Criterion) {
    let (bytes, positions) = workload();
    let book = Book::from_bytes(&bytes[..]).expect("a valid book");
    eprintln!(
        "book_lookup workload: {} entries, {} lookups",
        book.len(),
        positions.len()
    );
    if let Ok(path) = std::env::var("BOOK_BENCH_OUT") {
        // For tests/python/bench_book.py: the same book and positions.
        std::fs::write(format!("{path}.bin"), &bytes).expect("writable");
        let fens: String = positions.iter().map(|p| format!("{}\n", p.fen())).collect();
        std::fs::write(format!("{path}.fens"), fens).expect("writable");
    }
    let mut group = c.benchmark_group("book_lookup");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("bitboards", |b| {
        b.iter(|| {
            let mut found = 0usize;
            for position in &positions {
                found += book.entries(black_box(position)).count();
            }
            black_box(found)
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(20);
    targets = book_lookup
}
criterion_main!(benches);
