//! Looking bitboards up by name, in a table the generator sorts by name.

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

/// Names and their words, sorted by name and looked up by binary search: the
/// type of [`tables::NAMES`].
///
/// Only the generator builds one, so the order is the generator's promise
/// (and a test's): about seven string comparisons find any of the 91 names,
/// with no hashing and no dependency.
///
/// ```
/// use bitboards::tables::NAMES;
///
/// assert_eq!(NAMES.get("h8"), Some(&(1 << 63)));
/// assert_eq!(NAMES.get("H8"), None);
/// assert!(NAMES.keys().any(|name| name == "light_squares"));
/// assert_eq!(NAMES.entries().len(), NAMES.len());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct NameMap {
    entries: &'static [(&'static str, u64)],
}

impl NameMap {
    /// The map of `entries`, which must be sorted by name (byte order) with
    /// no name twice, as the generator writes them.
    pub(crate) const fn from_sorted(entries: &'static [(&'static str, u64)]) -> NameMap {
        NameMap { entries }
    }

    /// The word called `name`, if there is one.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&'static u64> {
        let entries = self.entries;
        entries
            .binary_search_by(|&(key, _)| key.cmp(name))
            .ok()
            .map(|i| &entries[i].1)
    }

    /// Whether `name` is in the map.
    #[must_use]
    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// How many names there are.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none (never, for [`tables::NAMES`]).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every name, in byte order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &'static str> + use<> {
        self.entries.iter().map(|&(name, _)| name)
    }

    /// Every name with its word, in the names' byte order.
    #[must_use]
    pub const fn entries(&self) -> &'static [(&'static str, u64)] {
        self.entries
    }
}
