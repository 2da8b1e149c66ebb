//! The generated lookup tables, as plain `u64` arrays.
//!
//! Each table is computed by the generator (`crates/codegen`) and committed
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

/// Includes a generated file: the committed copy, or the one build.rs just
/// wrote with feature `regenerate`.
macro_rules! generated {
    ($file:literal) => {
        #[cfg(not(feature = "regenerate"))]
        include!(concat!("../generated/", $file));
        #[cfg(feature = "regenerate")]
        include!(concat!(env!("OUT_DIR"), "/", $file));
    };
}

generated!("masks.rs");
generated!("leapers.rs");
generated!("rays.rs");
generated!("sliders.rs");
#[cfg(feature = "pext")]
generated!("pext.rs");
#[cfg(feature = "names")]
generated!("names.rs");
