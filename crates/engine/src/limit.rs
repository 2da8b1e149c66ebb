//! [`Limit`]: when a search ends, written as the arguments of `go`.

use std::fmt::Write as _;
use std::time::Duration;

use bitboards::Color;

/// When a search ends: any of a time, a depth, a node count, a mate
/// distance and the game clocks (the engine stops at the first reached).
/// At least one must be set.
///
/// ```
/// use std::time::Duration;
/// use bitboards_engine::Limit;
///
/// assert_eq!(Limit::nodes(10_000).go(), "go nodes 10000");
/// assert_eq!(Limit::depth(12).with_movetime(Duration::from_millis(500)).go(), "go movetime 500 depth 12");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limit {
    /// Search exactly this long (`go movetime`; python-chess's `time`).
    pub movetime: Option<Duration>,
    /// Search to this depth in plies (`go depth`).
    pub depth: Option<u32>,
    /// Search this many nodes (`go nodes`).
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves (`go mate`).
    pub mate: Option<u32>,
    /// The game clocks (`go wtime btime winc binc movestogo`).
    pub clocks: Option<Clocks>,
    /// Search until told to stop (`go infinite`): no deadline, no limit
    /// on silence; the search ends by the caller's stop flag
    /// ([`Engine::analyse_until`](crate::Engine::analyse_until)).
    pub infinite: bool,
}

/// The game clocks of a `go` command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Clocks {
    /// White's time left.
    pub wtime: Duration,
    /// Black's time left.
    pub btime: Duration,
    /// White's increment per move.
    pub winc: Duration,
    /// Black's increment per move.
    pub binc: Duration,
    /// Moves to the next time control, if any.
    pub movestogo: Option<u32>,
}

/// The deadline of an infinite search: a century (an `Instant` this far
/// off does not overflow).
const INFINITE: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

fn millis(duration: Duration) -> u128 {
    duration.as_millis()
}

impl Limit {
    /// A search of `movetime`.
    #[must_use]
    pub fn movetime(movetime: Duration) -> Limit {
        Limit {
            movetime: Some(movetime),
            ..Limit::default()
        }
    }

    /// A search to `depth` plies.
    #[must_use]
    pub fn depth(depth: u32) -> Limit {
        Limit {
            depth: Some(depth),
            ..Limit::default()
        }
    }

    /// A search of `nodes` nodes.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limit {
        Limit {
            nodes: Some(nodes),
            ..Limit::default()
        }
    }

    /// A search for a mate in `moves` moves.
    #[must_use]
    pub fn mate(moves: u32) -> Limit {
        Limit {
            mate: Some(moves),
            ..Limit::default()
        }
    }

    /// A search on the game clocks.
    #[must_use]
    pub fn clocks(clocks: Clocks) -> Limit {
        Limit {
            clocks: Some(clocks),
            ..Limit::default()
        }
    }

    /// This limit and a movetime.
    #[must_use]
    pub fn with_movetime(self, movetime: Duration) -> Limit {
        Limit {
            movetime: Some(movetime),
            ..self
        }
    }

    /// This limit and a depth.
    #[must_use]
    pub fn with_depth(self, depth: u32) -> Limit {
        Limit {
            depth: Some(depth),
            ..self
        }
    }

    /// This limit and a node count.
    #[must_use]
    pub fn with_nodes(self, nodes: u64) -> Limit {
        Limit {
            nodes: Some(nodes),
            ..self
        }
    }

    /// A search until told to stop (`go infinite`).
    #[must_use]
    pub fn infinite() -> Limit {
        Limit {
            infinite: true,
            ..Limit::default()
        }
    }

    /// Whether nothing is set (the search would never end).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        !self.infinite
            && self.movetime.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
            && self.clocks.is_none()
    }

    /// The `go` command, without its newline.
    #[must_use]
    pub fn go(&self) -> String {
        let mut go = String::from("go");
        // Writing to a String cannot fail.
        if let Some(movetime) = self.movetime {
            let _ = write!(go, " movetime {}", millis(movetime));
        }
        if let Some(depth) = self.depth {
            let _ = write!(go, " depth {depth}");
        }
        if let Some(nodes) = self.nodes {
            let _ = write!(go, " nodes {nodes}");
        }
        if let Some(mate) = self.mate {
            let _ = write!(go, " mate {mate}");
        }
        if let Some(clocks) = self.clocks {
            let _ = write!(
                go,
                " wtime {} btime {} winc {} binc {}",
                millis(clocks.wtime),
                millis(clocks.btime),
                millis(clocks.winc),
                millis(clocks.binc)
            );
            if let Some(moves) = clocks.movestogo {
                let _ = write!(go, " movestogo {moves}");
            }
        }
        if self.infinite {
            go.push_str(" infinite");
        }
        go
    }

    /// Whether the search has no time of its own (no movetime, no clocks):
    /// a limit of depth, nodes or mate alone, or none.
    ///
    /// ```
    /// use std::time::Duration;
    /// use bitboards_engine::Limit;
    ///
    /// assert!(Limit::nodes(100).is_untimed());
    /// assert!(!Limit::movetime(Duration::from_millis(50)).is_untimed());
    /// ```
    #[must_use]
    pub fn is_untimed(&self) -> bool {
        self.movetime.is_none() && self.clocks.is_none()
    }

    /// How long the search may take before it is a fault: the movetime, or
    /// the mover's clock and increment, plus `margin`; `untimed` for a
    /// limit of depth, nodes or mate alone.
    #[must_use]
    pub fn deadline(&self, turn: Color, margin: Duration, untimed: Duration) -> Duration {
        if self.infinite {
            return INFINITE;
        }
        let clock = self.clocks.map(|clocks| match turn {
            Color::White => clocks.wtime + clocks.winc,
            Color::Black => clocks.btime + clocks.binc,
        });
        match (self.movetime, clock) {
            (Some(a), Some(b)) => a.min(b) + margin,
            (Some(time), None) | (None, Some(time)) => time + margin,
            (None, None) => untimed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_and_deadline() {
        let clocks = Clocks {
            wtime: Duration::from_secs(60),
            btime: Duration::from_secs(30),
            winc: Duration::from_secs(1),
            binc: Duration::from_secs(2),
            movestogo: Some(20),
        };
        let limit = Limit::clocks(clocks).with_nodes(5);
        assert_eq!(
            limit.go(),
            "go nodes 5 wtime 60000 btime 30000 winc 1000 binc 2000 movestogo 20"
        );
        let margin = Duration::from_secs(1);
        let untimed = Duration::from_secs(100);
        assert_eq!(
            limit.deadline(Color::Black, margin, untimed),
            Duration::from_secs(33)
        );
        assert_eq!(
            Limit::nodes(1).deadline(Color::White, margin, untimed),
            untimed
        );
        assert_eq!(
            Limit::movetime(Duration::from_millis(10)).deadline(Color::White, margin, untimed),
            Duration::from_millis(1010)
        );
        assert!(Limit::default().is_empty());
        let infinite = Limit::infinite();
        assert!(!infinite.is_empty() && infinite.is_untimed());
        assert_eq!(infinite.go(), "go infinite");
        assert_eq!(infinite.deadline(Color::White, margin, untimed), INFINITE);
    }
}
