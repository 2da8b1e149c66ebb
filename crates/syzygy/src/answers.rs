//! The answers of a probe: [`Wdl`], [`Dtz`] and the [`RankedMove`]s of
//! [`Tablebase::best_moves`](crate::Tablebase::best_moves), on their own so
//! that the probing code (`probe`) and the crate's face both stand on them.

use bitboards::Move;

/// Win, draw or loss for the side to move, under the fifty-move rule.
///
/// ```
/// use bitboards_syzygy::Wdl;
///
/// assert_eq!(-Wdl::CursedWin, Wdl::BlessedLoss);
/// assert_eq!(Wdl::Win as i8, 2);
/// assert!(Wdl::Win > Wdl::CursedWin && Wdl::Draw > Wdl::BlessedLoss);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(i8)]
pub enum Wdl {
    /// Lost.
    Loss = -2,
    /// Lost, but only in more than fifty moves: a draw under the rule.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won, but only in more than fifty moves: a draw under the rule.
    CursedWin = 1,
    /// Won.
    Win = 2,
}

impl Wdl {
    /// From -2..2, the format's numbers (anything else is a draw).
    pub(crate) const fn from_score(score: i32) -> Wdl {
        match score {
            -2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            1 => Wdl::CursedWin,
            2 => Wdl::Win,
            _ => Wdl::Draw,
        }
    }
}

impl core::ops::Neg for Wdl {
    type Output = Wdl;

    fn neg(self) -> Wdl {
        Wdl::from_score(-(self as i32))
    }
}

/// Distance to zeroing, in plies, for the side to move: to the next
/// capture or pawn move on the way to the [`Wdl`] result, positive when
/// winning, negative when losing, 0 for a draw. Past 100 (or -100), the
/// win (or loss) is a cursed one (blessed): the fifty-move rule comes
/// first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dtz(pub i32);

/// A root move as [`Tablebase::best_moves`](crate::Tablebase::best_moves) ranks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// The result it keeps for the side that plays it.
    pub wdl: Wdl,
    /// Its distance to zeroing counted from the position before it (1 for
    /// a zeroing win or a mate).
    pub dtz: Dtz,
    /// Its rank: higher is better; equal ranks are equally good.
    pub rank: i32,
}
