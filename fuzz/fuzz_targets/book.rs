//! Polyglot books: `Book::from_bytes` over any bytes never panics; a book it
//! accepts is a whole number of entries with keys in order, and every entry
//! `entries` yields, for positions along a game and for the positions the
//! bytes' own keys could name, is a legal move whose bits the book holds.
#![no_main]

use bitboards::Position;
use bitboards::book::{Book, Choose, encode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(book) = Book::from_bytes(data) else {
        return;
    };
    assert_eq!(book.len() * 16, data.len());
    let mut position = Position::START;
    let mut state = data.len() as u64 | 1;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..8 {
        for entry in book.entries(&position) {
            assert!(
                position.is_legal(entry.mv),
                "{:?} in {}",
                entry.mv,
                position.fen()
            );
            let bits = encode(entry.mv).to_be_bytes();
            assert!(
                data.chunks_exact(16)
                    .any(|chunk| chunk[..8] == position.polyglot_key().to_be_bytes()
                        && chunk[8..10] == bits),
                "the entry is in the book"
            );
        }
        let _ = book.best(&position, &Choose::default());
        let _ = book.choice(&position, &Choose::default(), &mut random);
        let chosen = book.weighted_choice(&position, &Choose::default(), &mut random);
        let next = match chosen {
            Some(entry) => entry.mv,
            None => {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                moves[(random() % moves.len() as u64) as usize]
            }
        };
        position = position.play_unchecked(next);
    }
});
