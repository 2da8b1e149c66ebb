//! Opening names from lichess-org/chess-openings (public domain): the
//! names Lichess's explorer gives positions, for a position reached
//! exactly.

use std::collections::HashMap;

use bitboards::Position;
use serde::Serialize;

use crate::key::Key;

/// An opening: its ECO code and name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Opening {
    /// The ECO code, `B20`.
    pub eco: String,
    /// The name, `Sicilian Defense`.
    pub name: String,
}

const TSV: [&str; 5] = [
    include_str!("../data/openings/a.tsv"),
    include_str!("../data/openings/b.tsv"),
    include_str!("../data/openings/c.tsv"),
    include_str!("../data/openings/d.tsv"),
    include_str!("../data/openings/e.tsv"),
];

/// The named positions, by key.
///
/// ```
/// use bitboards::Position;
/// use bitboards_explorer::Openings;
///
/// let openings = Openings::lichess();
/// let mut position = Position::START;
/// for san in ["e4", "c5"] {
///     position.play_san_in_place(san)?;
/// }
/// assert_eq!(openings.name(&position).map(|o| o.name.as_str()), Some("Sicilian Defense"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Openings {
    by_key: HashMap<Key, Opening>,
}

impl Openings {
    /// Lichess's openings, compiled in (about 3,600 positions, read in a
    /// few milliseconds).
    #[must_use]
    pub fn lichess() -> Openings {
        let mut by_key = HashMap::new();
        for tsv in TSV {
            for line in tsv.lines().skip(1) {
                let mut fields = line.split('\t');
                let (Some(eco), Some(name), Some(pgn)) =
                    (fields.next(), fields.next(), fields.next())
                else {
                    continue;
                };
                let mut position = Position::START;
                let reached = pgn
                    .split(' ')
                    .filter(|token| !token.ends_with('.'))
                    .all(|san| position.play_san_in_place(san).is_ok());
                if reached {
                    by_key.insert(
                        Key::of(&position),
                        Opening {
                            eco: eco.to_owned(),
                            name: name.to_owned(),
                        },
                    );
                }
            }
        }
        Openings { by_key }
    }

    /// The opening named at exactly this position.
    #[must_use]
    pub fn name(&self, position: &Position) -> Option<&Opening> {
        self.by_key.get(&Key::of(position))
    }

    /// The number of named positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_data_reaches_its_position() {
        let lines: usize = TSV.iter().map(|tsv| tsv.lines().count() - 1).sum();
        let openings = Openings::lichess();
        // Each line names a distinct position (the data's own rule).
        assert_eq!(openings.len(), lines);
    }
}
