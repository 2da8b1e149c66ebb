//! Move generation, making moves and perft never touch the heap.
//!
//! This binary's global allocator counts the allocations of each thread, and
//! each test counts only around the calls it measures, on its own thread.
//! The allocator is the one place in the project's tests with `unsafe`: the
//! `GlobalAlloc` trait is unsafe to implement, and this one only forwards
//! to the system allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

use bitboards::{Position, perft, perft_divide};

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

struct CountingAllocator;

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// contract; the counter is a const-initialised thread-local `Cell` without
// a destructor, which itself never allocates.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's guarantees on `layout` pass through.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: `ptr` came from this allocator, that is from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

fn count() {
    // `try_with`: during thread teardown the slot may be gone.
    let _ = ALLOCATIONS.try_with(|allocations| allocations.set(allocations.get() + 1));
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// How many allocations this thread made while running `work`.
fn allocations_during(work: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.with(Cell::get);
    work();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn the_counter_sees_an_allocation() {
    let counted = allocations_during(|| {
        black_box(vec![0u8; 16]);
    });
    assert_eq!(counted, 1);
}

#[test]
fn move_generation_make_move_and_perft_allocate_nothing() {
    // Everything that may allocate (reading FEN, building the list of
    // positions) happens before counting.
    let positions: Vec<Position> = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ]
    .into_iter()
    .map(|fen| Position::from_fen(fen).unwrap_or_else(|error| panic!("{fen}: {error}")))
    .collect();

    for position in &positions {
        let first_move = position.legal_moves()[0];
        let first_text = first_move.to_string();
        let mut nodes = 0;
        let counted = allocations_during(|| {
            let moves = black_box(position).legal_moves();
            nodes += black_box(position).count_legal_moves();
            for &mv in moves.iter() {
                let child = black_box(position).play_unchecked(mv);
                nodes += child.count_legal_moves();
                let mut in_place = *position;
                in_place.play_unchecked_in_place(mv);
                nodes += u64::from(in_place == child);
                nodes += u64::from(position.is_legal(mv));
                nodes += u64::from(child.is_checkmate() || child.is_stalemate());
            }
            nodes += perft(black_box(position), 3);
            nodes += perft_divide(black_box(position), 2).total();
            nodes += u64::from(position.parse_uci(black_box(&first_text)) == Ok(first_move));
        });
        assert_eq!(counted, 0, "{position:?}: {counted} allocations");
        assert!(nodes > 1_000, "{position:?}: the work was done ({nodes})");
    }
}
