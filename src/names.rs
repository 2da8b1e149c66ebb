//! Looking bitboards up by name, through a perfect-hash map generated with
//! `phf_codegen`.

use core::fmt;

use crate::{Bitboard, tables};

/// The error for a name that [`FromName::from_name`] does not know.
///
/// ```
/// use bitboards::{Bitboard, FromName};
///
/// let error = Bitboard::from_name("file_z").unwrap_err();
/// assert!(error.to_string().starts_with("unknown bitboard name"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct UnknownName;

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown bitboard name; known names are squares (`e4`), `file_a`..`file_h`, \
             `rank_1`..`rank_8`, ",
        )?;
        // The regions come from the generator's registry, as NAMES does.
        for name in tables::REGION_NAMES {
            write!(f, "`{name}`, ")?;
        }
        f.write_str("`empty` and `full`")
    }
}

impl core::error::Error for UnknownName {}

/// `Bitboard::from_name`: a bitboard by its name.
///
/// ```
/// use bitboards::{masks, Bitboard, FromName, Square};
///
/// assert_eq!(Bitboard::from_name("e4"), Ok(Square::E4.bitboard()));
/// assert_eq!(Bitboard::from_name("file_a"), Ok(masks::FILE_A));
/// assert_eq!(Bitboard::from_name("light_squares"), Ok(masks::LIGHT_SQUARES));
/// assert!(Bitboard::from_name("i9").is_err());
/// ```
pub trait FromName: Sized {
    /// The bitboard called `name` (lower case, as listed in
    /// [`tables::NAMES`]).
    fn from_name(name: &str) -> Result<Self, UnknownName>;
}

impl FromName for Bitboard {
    fn from_name(name: &str) -> Result<Bitboard, UnknownName> {
        tables::NAMES
            .get(name)
            .copied()
            .map(Bitboard)
            .ok_or(UnknownName)
    }
}
