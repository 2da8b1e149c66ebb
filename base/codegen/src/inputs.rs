//! What the generator functions share, in a module of its own so that the
//! files under `files/` depend on it and not on the registry that lists
//! them.

use crate::Error;
use crate::magics::Magics;
use crate::table::{Naming, Table};

/// A function that computes one table (and its documentation).
pub(crate) type Build = fn(&Inputs) -> Result<Table, Error>;

/// What the generator functions share: the slider magics, taken or searched
/// once per run, and the tables that name their entries (for the name
/// registry), in registry order.
pub(crate) struct Inputs {
    pub(crate) magics: Magics,
    pub(crate) named: Vec<(Build, Naming)>,
}
