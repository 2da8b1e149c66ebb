//! `Serialize` and `Deserialize` for the core types (feature `serde`).
//!
//! A human-readable format (JSON, TOML, YAML, RON...) gets what a person
//! writes: squares, files and ranks by name (`"e4"`, `"e"`, `"4"`), colours
//! as `"white"` and `"black"`, and bitboards as a 16-digit hex string
//! (`"0x0000000010000000"`); a plain integer is read back as a bitboard too.
//! A binary format gets integers: the `u8` index of a square, file, rank or
//! colour, and the `u64` of a bitboard.
//!
//! Each impl's doc comment shows its format; they appear on the types' pages.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::{Bitboard, Color, File, Rank, Square};

/// A type written by name in readable formats and by index in binary ones.
trait NameOrIndex: Sized + Copy {
    /// What a readable format must hold, for error messages.
    const EXPECTED_NAME: &'static str;
    /// What a binary format must hold, for error messages.
    const EXPECTED_INDEX: &'static str;

    fn from_name(name: &str) -> Option<Self>;
    fn from_index(index: u64) -> Option<Self>;
    fn to_index(self) -> u8;
    /// Hands the name to `write`; a buffer on the stack holds names that are
    /// not stored as `&'static str`.
    fn with_name<R>(self, write: impl FnOnce(&str) -> R) -> R;
}

impl NameOrIndex for Square {
    const EXPECTED_NAME: &'static str = "a square name such as \"e4\"";
    const EXPECTED_INDEX: &'static str = "a square index from 0 to 63";

    fn from_name(name: &str) -> Option<Square> {
        name.parse().ok()
    }
    fn from_index(index: u64) -> Option<Square> {
        Square::try_from(index).ok()
    }
    fn to_index(self) -> u8 {
        self as u8
    }
    fn with_name<R>(self, write: impl FnOnce(&str) -> R) -> R {
        write(self.name())
    }
}

macro_rules! line_name_or_index {
    ($($Type:ident, $expected_name:literal, $expected_index:literal;)*) => {$(
        impl NameOrIndex for $Type {
            const EXPECTED_NAME: &'static str = $expected_name;
            const EXPECTED_INDEX: &'static str = $expected_index;

            fn from_name(name: &str) -> Option<$Type> {
                name.parse().ok()
            }
            fn from_index(index: u64) -> Option<$Type> {
                u8::try_from(index).ok().and_then($Type::new)
            }
            fn to_index(self) -> u8 {
                self as u8
            }
            fn with_name<R>(self, write: impl FnOnce(&str) -> R) -> R {
                write(self.to_char().encode_utf8(&mut [0; 4]))
            }
        }
    )*};
}

line_name_or_index! {
    File, "a file letter from \"a\" to \"h\"", "a file index from 0 to 7";
    Rank, "a rank digit from \"1\" to \"8\"", "a rank index from 0 to 7";
}

impl NameOrIndex for Color {
    const EXPECTED_NAME: &'static str = "a colour: \"white\", \"black\", \"w\" or \"b\"";
    const EXPECTED_INDEX: &'static str = "a colour index, 0 (white) or 1 (black)";

    fn from_name(name: &str) -> Option<Color> {
        name.parse().ok()
    }
    fn from_index(index: u64) -> Option<Color> {
        match index {
            0 => Some(Color::White),
            1 => Some(Color::Black),
            _ => None,
        }
    }
    fn to_index(self) -> u8 {
        self as u8
    }
    fn with_name<R>(self, write: impl FnOnce(&str) -> R) -> R {
        write(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

fn serialize_name_or_index<T: NameOrIndex, S: Serializer>(
    value: T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    if serializer.is_human_readable() {
        value.with_name(|name| serializer.serialize_str(name))
    } else {
        serializer.serialize_u8(value.to_index())
    }
}

/// Reads a name or an index, whichever the format holds; `readable` only
/// picks what an error message says was expected.
struct NameOrIndexVisitor<T> {
    readable: bool,
    target: PhantomData<T>,
}

impl<'de, T: NameOrIndex> Visitor<'de> for NameOrIndexVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.readable {
            T::EXPECTED_NAME
        } else {
            T::EXPECTED_INDEX
        })
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<T, E> {
        T::from_name(name).ok_or_else(|| E::invalid_value(Unexpected::Str(name), &self))
    }

    fn visit_char<E: de::Error>(self, c: char) -> Result<T, E> {
        T::from_name(c.encode_utf8(&mut [0; 4]))
            .ok_or_else(|| E::invalid_value(Unexpected::Char(c), &self))
    }

    fn visit_u64<E: de::Error>(self, index: u64) -> Result<T, E> {
        T::from_index(index).ok_or_else(|| E::invalid_value(Unexpected::Unsigned(index), &self))
    }

    fn visit_i64<E: de::Error>(self, index: i64) -> Result<T, E> {
        u64::try_from(index)
            .ok()
            .and_then(T::from_index)
            .ok_or_else(|| E::invalid_value(Unexpected::Signed(index), &self))
    }
}

fn deserialize_name_or_index<'de, T: NameOrIndex, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    let readable = deserializer.is_human_readable();
    let visitor = NameOrIndexVisitor {
        readable,
        target: PhantomData,
    };
    if readable {
        deserializer.deserialize_str(visitor)
    } else {
        deserializer.deserialize_u8(visitor)
    }
}

macro_rules! name_or_index_impls {
    ($($(#[$doc:meta])* $Type:ident;)*) => {$(
        $(#[$doc])*
        impl Serialize for $Type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serialize_name_or_index(*self, serializer)
            }
        }

        $(#[$doc])*
        impl<'de> de::Deserialize<'de> for $Type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$Type, D::Error> {
                deserialize_name_or_index(deserializer)
            }
        }
    )*};
}

name_or_index_impls! {
    /// Feature `serde`: a readable format holds the square's name, a binary
    /// one its `u8` index (a1 = 0).
    ///
    /// ```
    /// use bitboards_core::Square;
    ///
    /// assert_eq!(serde_json::to_string(&Square::E4).unwrap(), r#""e4""#);
    /// assert_eq!(serde_json::from_str::<Square>(r#""e4""#).unwrap(), Square::E4);
    /// assert!(serde_json::from_str::<Square>(r#""i9""#).is_err());
    /// ```
    Square;
    /// Feature `serde`: a readable format holds the file's letter, a binary
    /// one its `u8` index (a = 0).
    ///
    /// ```
    /// use bitboards_core::File;
    ///
    /// assert_eq!(serde_json::to_string(&File::E).unwrap(), r#""e""#);
    /// assert_eq!(serde_json::from_str::<File>(r#""e""#).unwrap(), File::E);
    /// ```
    File;
    /// Feature `serde`: a readable format holds the rank's digit as a
    /// string, a binary one its `u8` index (first = 0).
    ///
    /// ```
    /// use bitboards_core::Rank;
    ///
    /// assert_eq!(serde_json::to_string(&Rank::Fourth).unwrap(), r#""4""#);
    /// assert_eq!(serde_json::from_str::<Rank>(r#""4""#).unwrap(), Rank::Fourth);
    /// ```
    Rank;
    /// Feature `serde`: a readable format holds `"white"` or `"black"` (and
    /// reads `"w"` and `"b"` too), a binary one the `u8` index (White = 0).
    ///
    /// ```
    /// use bitboards_core::Color;
    ///
    /// assert_eq!(serde_json::to_string(&Color::Black).unwrap(), r#""black""#);
    /// assert_eq!(serde_json::from_str::<Color>(r#""w""#).unwrap(), Color::White);
    /// ```
    Color;
}

/// Feature `serde`: a readable format holds a hex string, `"0x"` and 16
/// digits (and reads fewer digits, or a plain integer); a binary one the
/// `u64`.
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// let board = Square::E4.bitboard();
/// assert_eq!(serde_json::to_string(&board).unwrap(), r#""0x0000000010000000""#);
/// assert_eq!(serde_json::from_str::<Bitboard>(r#""0x10000000""#).unwrap(), board);
/// assert_eq!(serde_json::from_str::<Bitboard>("268435456").unwrap(), board);
/// assert!(serde_json::from_str::<Bitboard>(r#""0xZZ""#).is_err());
/// ```
impl Serialize for Bitboard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            // "0x" and 16 digits, written into a buffer on the stack.
            let mut text = [b'0'; 18];
            text[1] = b'x';
            for (i, byte) in text[2..].iter_mut().enumerate() {
                let nibble = (self.0 >> (60 - 4 * i)) & 0xF;
                *byte = b"0123456789abcdef"[nibble as usize];
            }
            // Every byte is ASCII, so this cannot fail; an error is still an
            // error rather than a panic.
            let text =
                core::str::from_utf8(&text).map_err(<S::Error as serde::ser::Error>::custom)?;
            serializer.serialize_str(text)
        } else {
            serializer.serialize_u64(self.0)
        }
    }
}

struct BitboardVisitor {
    readable: bool,
}

impl Visitor<'_> for BitboardVisitor {
    type Value = Bitboard;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.readable {
            "a bitboard: a hex string \"0x\" and 1 to 16 digits, or an unsigned integer"
        } else {
            "a bitboard as an unsigned 64-bit integer"
        })
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Bitboard, E> {
        parse_hex(text)
            .map(Bitboard)
            .ok_or_else(|| E::invalid_value(Unexpected::Str(text), &self))
    }

    fn visit_u64<E: de::Error>(self, bits: u64) -> Result<Bitboard, E> {
        Ok(Bitboard(bits))
    }

    fn visit_i64<E: de::Error>(self, bits: i64) -> Result<Bitboard, E> {
        u64::try_from(bits)
            .map(Bitboard)
            .map_err(|_| E::invalid_value(Unexpected::Signed(bits), &self))
    }
}

/// `0x` (or `0X`) and 1 to 16 hex digits, either case; nothing else (no
/// sign, no underscores, no spaces).
fn parse_hex(text: &str) -> Option<u64> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))?;
    if digits.is_empty() || digits.len() > 16 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

/// Feature `serde`: a readable format holds a hex string, `"0x"` and 16
/// digits (and reads fewer digits, or a plain integer); a binary one the
/// `u64`.
///
/// ```
/// use bitboards_core::{Bitboard, Square};
///
/// let board = Square::E4.bitboard();
/// assert_eq!(serde_json::to_string(&board).unwrap(), r#""0x0000000010000000""#);
/// assert_eq!(serde_json::from_str::<Bitboard>(r#""0x10000000""#).unwrap(), board);
/// assert_eq!(serde_json::from_str::<Bitboard>("268435456").unwrap(), board);
/// assert!(serde_json::from_str::<Bitboard>(r#""0xZZ""#).is_err());
/// ```
impl<'de> de::Deserialize<'de> for Bitboard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Bitboard, D::Error> {
        let readable = deserializer.is_human_readable();
        let visitor = BitboardVisitor { readable };
        if readable {
            // A readable format says whether it holds a string or a number.
            deserializer.deserialize_any(visitor)
        } else {
            deserializer.deserialize_u64(visitor)
        }
    }
}
