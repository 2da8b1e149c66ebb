//! Perft: the number of leaf nodes of the legal move tree to a given depth,
//! the field's proof of a move generator.

use crate::movegen::{Sink, behind};
use crate::moves::{Move, MoveList};
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
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_legal_moves(),
        _ => {
            let mut walker = Walker {
                position,
                depth: depth - 1,
                nodes: 0,
            };
            position.generate(&mut walker);
            walker.nodes
        }
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
    if depth <= 1 {
        return perft(position, depth);
    }
    let moves = position.legal_moves();
    moves
        .as_slice()
        .par_iter()
        .map(|&mv| perft(&position.play(mv), depth - 1))
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
pub fn perft_divide(position: &Position, depth: u32) -> Divided {
    let moves = position.legal_moves();
    let mut counts = [0u64; crate::moves::MAX_MOVES];
    for (count, &mv) in counts.iter_mut().zip(moves.iter()) {
        *count = perft(&position.play(mv), depth.saturating_sub(1));
    }
    Divided { moves, counts }
}

/// [`perft_divide`]'s answer: `(move, leaves)` pairs, on the stack.
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
pub struct Divided {
    moves: MoveList,
    counts: [u64; crate::moves::MAX_MOVES],
}

impl Divided {
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
struct Walker<'a> {
    position: &'a Position,
    depth: u32,
    nodes: u64,
}

impl Walker<'_> {
    #[inline(always)]
    fn visit(&mut self, mv: Move) {
        let child = self.position.play(mv);
        self.nodes += perft(&child, self.depth);
    }

    /// A normal move whose piece kind generation already knows.
    #[inline(always)]
    fn visit_normal(&mut self, kind: PieceKind, from: Square, to: Square) {
        let mut child = *self.position;
        child.play_normal(kind, from, to);
        self.nodes += perft(&child, self.depth);
    }
}

impl Sink for Walker<'_> {
    #[inline(always)]
    fn moves(&mut self, kind: PieceKind, from: Square, targets: Bitboard) {
        for to in targets {
            self.visit_normal(kind, from, to);
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.visit_normal(PieceKind::Pawn, behind(to, delta), to);
        }
    }

    #[inline(always)]
    fn one(&mut self, mv: Move) {
        self.visit(mv);
    }
}
