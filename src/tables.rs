//! The generated lookup tables, as plain `static` arrays (and `const` words).
//!
//! Each table is computed by the generator (`base/codegen`) and committed
//! under `generated/`; nothing here is computed at run time or compile time.
//! Per-square tables are indexed by [`Square::index`](crate::Square::index),
//! per-colour tables by [`Color::index`](crate::Color::index) first. The
//! functions in [`attacks`](crate::attacks), [`masks`](crate::masks) and the
//! crate root wrap these in [`Bitboard`](crate::Bitboard)s.
//!
//! ```
//! use bitboards::{tables, Square};
//!
//! assert_eq!(tables::SQUARES[Square::E4.index()], Square::E4.bitboard().0);
//! ```

// The generated index includes every generated file (under its feature), by
// paths relative to itself: the committed copies, or the ones build.rs just
// wrote with feature `regenerate`.
#[cfg(not(feature = "regenerate"))]
include!("../generated/index.rs");
#[cfg(feature = "regenerate")]
include!(concat!(env!("OUT_DIR"), "/index.rs"));

#[cfg(feature = "names")]
pub use crate::names::NameMap;

/// A table's entries as [`CATALOG`] lists them. Not API: for the tests that
/// compare every runtime table with the generator's registry.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub enum Entries {
    /// Every entry, row after row.
    U64(&'static [u64]),
    /// Every entry of a compressed table, row after row.
    U16(&'static [u16]),
    /// The name registry.
    #[cfg(feature = "names")]
    Map(&'static NameMap),
    /// A table behind a feature this build leaves out.
    Disabled {
        /// The feature.
        feature: &'static str,
    },
}
