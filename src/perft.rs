//! Perft: the number of leaf nodes of the legal move tree to a given depth,
//! the field's proof of a move generator.

use crate::moves::{Move, MoveList};
use crate::position::movegen::{Sink, behind};
use crate::{Bitboard, PieceKind, Position, Square};

/// The number of leaves of the legal move tree of `position`, `depth` plies
/// deep (1 at depth 0).
///
/// The last ply is counted, not played ("bulk counting"): a position one ply
/// above the leaves adds the size of its move sets.
///
/// ```
/// use bitboards::{perft, Position};
///
/// assert_eq!(perft(&Position::START, 0), 1);
/// assert_eq!(perft(&Position::START, 3), 8_902);
/// let kiwipete = Position::from_fen(
///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
/// )?;
/// assert_eq!(perft(&kiwipete, 2), 2_039);
/// # Ok::<(), bitboards::FenError>(())
/// ```
///
/// On x86-64 with the standard library (feature `std`, on by default), the
/// count runs in code compiled for the POPCNT instruction when the CPU has
/// it (checked once per call, cached by the standard library): the default
/// x86-64 target lacks it, and population counts are a large part of
/// counting. The answer is the same either way.
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    #[cfg(all(
        feature = "std",
        target_arch = "x86_64",
        not(target_feature = "popcnt"),
        not(miri)
    ))]
    if let Some(popcnt) = popcnt::Popcnt::detect() {
        return popcnt.perft(position, depth);
    }
    Plain.perft(position, depth)
}

/// How the recursion continues: plain code, or code compiled for an
/// instruction the CPU was found to have.
pub(crate) trait Mode: Copy {
    /// [`perft`] in this mode.
    fn perft(self, position: &Position, depth: u32) -> u64;
}

/// Code for the compilation target as it is.
#[derive(Clone, Copy)]
pub(crate) struct Plain;

impl Mode for Plain {
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn perft(self, position: &Position, depth: u32) -> u64 {
        perft_plain(position, depth)
    }
}

fn perft_plain(position: &Position, depth: u32) -> u64 {
    perft_in(Plain, position, depth)
}

/// The count, in the code of `mode` (inlined into each mode's function).
#[cfg_attr(not(bitboards_unoptimized), inline(always))]
fn perft_in<M: Mode>(mode: M, position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_moves_inline(),
        _ => {
            let mut walker = Walker {
                position,
                depth: depth - 1,
                nodes: 0,
                mode,
            };
            position.generate(&mut walker);
            walker.nodes
        }
    }
}

/// Perft in code compiled with POPCNT, chosen at run time.
#[cfg(all(
    feature = "std",
    target_arch = "x86_64",
    not(target_feature = "popcnt"),
    not(miri)
))]
pub(crate) mod popcnt {
    use super::{Mode, perft_in};
    use crate::Position;

    /// Proof that the CPU has POPCNT: the only way to make one is
    /// [`Popcnt::detect`].
    #[derive(Clone, Copy)]
    pub(crate) struct Popcnt(());

    impl Popcnt {
        /// A `Popcnt` when the CPU has the instruction.
        #[inline]
        pub(crate) fn detect() -> Option<Popcnt> {
            std::is_x86_feature_detected!("popcnt").then_some(Popcnt(()))
        }
    }

    impl Mode for Popcnt {
        #[cfg_attr(not(bitboards_unoptimized), inline(always))]
        #[allow(unsafe_code)]
        fn perft(self, position: &Position, depth: u32) -> u64 {
            // SAFETY: `perft_popcnt` may run only where the CPU has POPCNT;
            // a `Popcnt` value exists only when `detect` found it (its
            // field is private to this module, and only `detect` builds
            // one).
            unsafe { perft_popcnt(self, position, depth) }
        }
    }

    #[target_feature(enable = "popcnt")]
    fn perft_popcnt(mode: Popcnt, position: &Position, depth: u32) -> u64 {
        perft_in(mode, position, depth)
    }
}

/// [`perft`] with the root moves spread over threads (rayon's current
/// pool: the global one, or one set up with `ThreadPool::install` for a
/// chosen number of threads). Feature `parallel`, which brings in `std` and
/// rayon; the counts equal [`perft`]'s.
///
/// ```
/// use bitboards::{perft, perft_parallel, Position};
///
/// assert_eq!(perft_parallel(&Position::START, 4), perft(&Position::START, 4));
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// assert_eq!(pool.install(|| perft_parallel(&Position::START, 3)), 8_902);
/// ```
#[cfg(feature = "parallel")]
#[must_use]
pub fn perft_parallel(position: &Position, depth: u32) -> u64 {
    use rayon::prelude::*;
    if depth <= 2 {
        return perft(position, depth);
    }
    // One task per move of the first two plies (400 at the start rather
    // than 20), so that two threads share the work evenly however unequal
    // the root moves' trees are.
    let moves = position.legal_moves();
    moves
        .as_slice()
        .par_iter()
        .map(|&mv| {
            let child = position.play_unchecked(mv);
            let replies = child.legal_moves();
            replies
                .as_slice()
                .par_iter()
                .map(|&reply| perft(&child.play_unchecked(reply), depth - 2))
                .sum::<u64>()
        })
        .sum()
}

/// Perft split by root move: each legal move with the number of leaves
/// below it at `depth` (the move itself is the first ply), in generation
/// order. From depth 1 up the counts add up to [`perft`] at the same depth;
/// comparing them with another program's finds the move where two
/// generators disagree. (Depth 0 has no first ply: each move then counts 1,
/// as at depth 1.)
///
/// ```
/// use bitboards::{perft, perft_divide, Position};
///
/// let divided = perft_divide(&Position::START, 2);
/// assert_eq!(divided.len(), 20);
/// assert!(divided.iter().all(|(_, nodes)| nodes == 20));
/// assert_eq!(divided.iter().map(|(_, nodes)| nodes).sum::<u64>(), perft(&Position::START, 2));
/// ```
#[must_use]
pub fn perft_divide(position: &Position, depth: u32) -> RootMoveCounts {
    perft_divide_with(position, depth, perft, |_, _| {})
}

/// [`perft_divide`] with the count below each root move done by
/// `count_below` (such as [`perft`], or `perft_parallel` on a thread pool),
/// and `after_root_move` called with each move and its count as it is done
/// (a progress bar's step): the one per-root-move loop, shared with the
/// `bitboards perft` command.
///
/// ```
/// use bitboards::{perft, perft_divide_with, Position};
///
/// let mut done = Vec::new();
/// let divided = perft_divide_with(&Position::START, 3, perft, |mv, nodes| done.push((mv, nodes)));
/// assert_eq!(done.len(), 20);
/// assert_eq!(divided.iter().collect::<Vec<_>>(), done);
/// assert_eq!(done.iter().map(|(_, nodes)| nodes).sum::<u64>(), 8_902);
/// ```
pub fn perft_divide_with(
    position: &Position,
    depth: u32,
    mut count_below: impl FnMut(&Position, u32) -> u64,
    mut after_root_move: impl FnMut(Move, u64),
) -> RootMoveCounts {
    let moves = position.legal_moves();
    let mut counts = [0u64; crate::moves::MAX_MOVES];
    for (count, &mv) in counts.iter_mut().zip(moves.iter()) {
        *count = count_below(&position.play_unchecked(mv), depth.saturating_sub(1));
        after_root_move(mv, *count);
    }
    RootMoveCounts { moves, counts }
}

/// [`perft_divide`]'s answer: the leaf count under each root move, as
/// `(move, leaves)` pairs, on the stack.
///
/// ```
/// use bitboards::{perft_divide, Position};
///
/// let divided = perft_divide(&Position::START, 1);
/// let (mv, nodes) = divided.iter().next().unwrap();
/// assert_eq!(nodes, 1);
/// assert!(Position::START.is_legal(mv));
/// ```
#[derive(Clone, Debug)]
pub struct RootMoveCounts {
    moves: MoveList,
    counts: [u64; crate::moves::MAX_MOVES],
}

/// The old name of [`RootMoveCounts`], kept for one release.
#[deprecated(
    since = "0.1.0",
    note = "renamed to `RootMoveCounts`, which says what it holds"
)]
pub type Divided = RootMoveCounts;

impl RootMoveCounts {
    /// The root moves with their leaf counts.
    ///
    /// ```
    /// use bitboards::{perft_divide, Position};
    ///
    /// assert_eq!(perft_divide(&Position::START, 3).iter().map(|(_, n)| n).sum::<u64>(), 8_902);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Move, u64)> + '_ {
        self.moves.iter().copied().zip(self.counts.iter().copied())
    }

    /// How many root moves there are.
    ///
    /// ```
    /// use bitboards::{perft_divide, Position};
    ///
    /// assert_eq!(perft_divide(&Position::START, 1).len(), 20);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there is no root move (checkmate or stalemate).
    ///
    /// ```
    /// use bitboards::{perft_divide, Position};
    ///
    /// assert!(!perft_divide(&Position::START, 1).is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The sum of the counts: [`perft`] at the same depth.
    ///
    /// ```
    /// use bitboards::{perft_divide, Position};
    ///
    /// assert_eq!(perft_divide(&Position::START, 2).total(), 400);
    /// ```
    #[must_use]
    pub fn total(&self) -> u64 {
        self.counts[..self.moves.len()].iter().sum()
    }
}

/// Plays each generated move and counts below it, without a move list.
struct Walker<'a, M> {
    position: &'a Position,
    depth: u32,
    nodes: u64,
    mode: M,
}

impl<M: Mode> Walker<'_, M> {
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn visit(&mut self, mv: Move) {
        let child = self.position.play_unchecked(mv);
        self.nodes += self.mode.perft(&child, self.depth);
    }

    /// A normal move whose piece kind generation already knows.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn visit_normal(&mut self, kind: PieceKind, from: Square, to: Square) {
        let mut child = *self.position;
        child.play_normal(kind, from, to);
        self.nodes += self.mode.perft(&child, self.depth);
    }
}

impl<M: Mode> Sink for Walker<'_, M> {
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn moves(&mut self, kind: PieceKind, from: Square, targets: Bitboard) {
        for to in targets {
            self.visit_normal(kind, from, to);
        }
    }

    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.visit_normal(PieceKind::Pawn, behind(to, delta), to);
        }
    }

    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn one(&mut self, mv: Move) {
        self.visit(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::{Mode, Plain};
    use crate::Position;

    /// Published counts (the perft reference data's README): the start
    /// position, Kiwipete and position 4, depths 1 to 3.
    const CASES: [(&str, [u64; 3]); 3] = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            [20, 400, 8_902],
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            [48, 2_039, 97_862],
        ),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            [6, 264, 9_467],
        ),
    ];

    /// Miri runs these too, slowly: two plies there.
    const DEPTH: u32 = if cfg!(miri) { 2 } else { 3 };

    #[test]
    fn the_plain_path_counts_the_published_numbers() {
        for (fen, counts) in CASES {
            let position = Position::from_fen(fen).unwrap();
            for depth in 1..=DEPTH {
                let expected = counts[depth as usize - 1];
                assert_eq!(Plain.perft(&position, depth), expected, "{fen} {depth}");
            }
        }
    }

    /// The POPCNT path, on a CPU that has the instruction (every x86-64 CPU
    /// of the last fifteen years; the test says so when it has not run).
    #[cfg(all(
        feature = "std",
        target_arch = "x86_64",
        not(target_feature = "popcnt"),
        not(miri)
    ))]
    #[test]
    fn the_popcnt_path_counts_the_published_numbers() {
        let Some(popcnt) = super::popcnt::Popcnt::detect() else {
            std::eprintln!("skipped: this CPU has no POPCNT");
            return;
        };
        for (fen, counts) in CASES {
            let position = Position::from_fen(fen).unwrap();
            for depth in 1..=DEPTH {
                let expected = counts[depth as usize - 1];
                assert_eq!(popcnt.perft(&position, depth), expected, "{fen} {depth}");
                assert_eq!(super::perft(&position, depth), expected, "{fen} {depth}");
            }
        }
    }
}
