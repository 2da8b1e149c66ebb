//! `Serialize` and `Deserialize` for moves, positions and outcomes (feature
//! `serde`; the core types' impls are in `bitboards-core`).
//!
//! - A [`Position`] is its FEN, in every format, and reading one checks it
//!   by every rule [`Position::from_fen`] checks: a deserialized position is
//!   as valid as a parsed one.
//! - A [`Move`] is its UCI text in readable formats (`"e2e4"`, `"e7e8q"`).
//!   UCI alone cannot tell castling from a rook's move along the back rank,
//!   nor en passant from a plain capture, so those two kinds carry a tag:
//!   `"e1h1:castling"` (king takes rook) and `"e5d6:en_passant"`. Binary
//!   formats get the move's 16 bits ([`Move::to_bits`]).
//! - An [`Outcome`] is its [`Outcome::name`] (`"checkmate"` with the winner
//!   beside it: `{"checkmate": "white"}`), as serde writes enums.

use core::fmt;

use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::moves::{CastlingNotation, Move, MoveKind};
use crate::{Position, Square};

/// `"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"`: the FEN,
/// in every format.
///
/// ```
/// use bitboards::Position;
///
/// let json = serde_json::to_string(&Position::START)?;
/// assert_eq!(json, r#""rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1""#);
/// assert_eq!(serde_json::from_str::<Position>(&json)?, Position::START);
///
/// // Read back with every rule of `from_fen`.
/// let error = serde_json::from_str::<Position>(r#""4k3/8/8/8/8/8/8/4K2R w Q - 0 1""#).unwrap_err();
/// assert!(error.to_string().contains("queen-side castling right needs a white rook on a1"));
/// # Ok::<(), serde_json::Error>(())
/// ```
impl Serialize for Position {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.fen())
    }
}

/// A FEN checked as [`Position::from_fen`] checks it.
impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Position, D::Error> {
        deserializer.deserialize_str(FenVisitor)
    }
}

use serde::de::Deserialize;

struct FenVisitor;

impl Visitor<'_> for FenVisitor {
    type Value = Position;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a FEN such as \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"")
    }

    fn visit_str<E: de::Error>(self, fen: &str) -> Result<Position, E> {
        Position::from_fen(fen).map_err(E::custom)
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Position, E> {
        match core::str::from_utf8(bytes) {
            Ok(fen) => self.visit_str(fen),
            Err(_) => Err(E::invalid_value(Unexpected::Bytes(bytes), &self)),
        }
    }
}

/// The tags of the two kinds that UCI text cannot tell apart.
const CASTLING_TAG: &str = ":castling";
const EN_PASSANT_TAG: &str = ":en_passant";

/// `"g1f3"`, `"e7e8q"`, `"e1h1:castling"`, `"e5d6:en_passant"` in readable
/// formats; the 16 bits of [`Move::to_bits`] in binary ones.
///
/// ```
/// use bitboards::{Move, MoveKind, Position, Square};
///
/// let mv = Move::new(Square::G1, Square::F3, MoveKind::Normal);
/// assert_eq!(serde_json::to_string(&mv)?, r#""g1f3""#);
/// assert_eq!(serde_json::from_str::<Move>(r#""g1f3""#)?, mv);
///
/// // Castling and en passant keep their kind.
/// let castle = Move::new(Square::E1, Square::H1, MoveKind::Castling);
/// assert_eq!(serde_json::to_string(&castle)?, r#""e1h1:castling""#);
/// assert_eq!(serde_json::from_str::<Move>(r#""e1h1:castling""#)?, castle);
///
/// let error = serde_json::from_str::<Move>(r#""e2e9""#).unwrap_err();
/// assert!(error.to_string().contains("`9` is not a rank"));
/// # Ok::<(), serde_json::Error>(())
/// ```
impl Serialize for Move {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !serializer.is_human_readable() {
            return serializer.serialize_u16(self.to_bits());
        }
        let mut text = [0u8; 16];
        let uci = self.uci(CastlingNotation::KingTakesRook);
        let mut writer = Buffer {
            bytes: &mut text,
            len: 0,
        };
        fmt::write(&mut writer, format_args!("{uci}")).map_err(serde::ser::Error::custom)?;
        let tag = match self.kind() {
            MoveKind::Castling => CASTLING_TAG,
            MoveKind::EnPassant => EN_PASSANT_TAG,
            _ => "",
        };
        fmt::Write::write_str(&mut writer, tag).map_err(serde::ser::Error::custom)?;
        let len = writer.len;
        // Square names, promotion letters and tags are ASCII.
        let text = core::str::from_utf8(&text[..len]).map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(text)
    }
}

/// Reads what [`Serialize`] writes; a plain UCI text is a normal move or a
/// promotion.
impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Move, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_str(MoveVisitor)
        } else {
            deserializer.deserialize_u16(MoveVisitor)
        }
    }
}

/// A fixed buffer for `fmt::Write`, so that writing needs no allocation.
struct Buffer<'a> {
    bytes: &'a mut [u8],
    len: usize,
}

impl fmt::Write for Buffer<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let end = self.len + text.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(text.as_bytes());
        self.len = end;
        Ok(())
    }
}

struct MoveVisitor;

impl Visitor<'_> for MoveVisitor {
    type Value = Move;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "a UCI move such as \"e2e4\" or \"e7e8q\" (\"e1h1:castling\", \"e5d6:en_passant\"), or a move's 16 bits",
        )
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Move, E> {
        let (uci, kind) = if let Some(uci) = text.strip_suffix(CASTLING_TAG) {
            (uci, Some(MoveKind::Castling))
        } else if let Some(uci) = text.strip_suffix(EN_PASSANT_TAG) {
            (uci, Some(MoveKind::EnPassant))
        } else {
            (text, None)
        };
        let square = |part: Option<&str>| -> Result<Square, E> {
            let part = part.ok_or_else(|| E::invalid_value(Unexpected::Str(text), &self))?;
            part.parse::<Square>().map_err(E::custom)
        };
        if !uci.is_ascii() || !(4..=5).contains(&uci.len()) {
            return Err(E::invalid_value(Unexpected::Str(text), &self));
        }
        let from = square(uci.get(0..2))?;
        let to = square(uci.get(2..4))?;
        let promotion = match uci.as_bytes().get(4) {
            None => None,
            Some(b'n') => Some(crate::PieceKind::Knight),
            Some(b'b') => Some(crate::PieceKind::Bishop),
            Some(b'r') => Some(crate::PieceKind::Rook),
            Some(b'q') => Some(crate::PieceKind::Queen),
            Some(_) => return Err(E::invalid_value(Unexpected::Str(text), &self)),
        };
        let kind = match (kind, promotion) {
            (Some(kind), None) => kind,
            (None, Some(piece)) => MoveKind::Promotion(piece),
            (None, None) => MoveKind::Normal,
            (Some(_), Some(_)) => return Err(E::invalid_value(Unexpected::Str(text), &self)),
        };
        Ok(Move::new(from, to, kind))
    }

    fn visit_u64<E: de::Error>(self, bits: u64) -> Result<Move, E> {
        u16::try_from(bits)
            .ok()
            .and_then(Move::from_bits)
            .ok_or_else(|| E::invalid_value(Unexpected::Unsigned(bits), &self))
    }
}

#[cfg(feature = "alloc")]
mod outcome {
    use serde::de::{self, Deserializer, Visitor};
    use serde::ser::{SerializeMap, Serializer};
    use serde::{Deserialize, Serialize};

    use crate::{Color, Outcome};

    /// `"stalemate"`, `"threefold_repetition"`, ... ([`Outcome::name`]);
    /// checkmate with its winner, `{"checkmate": "white"}`.
    ///
    /// ```
    /// use bitboards::{Color, Outcome};
    ///
    /// assert_eq!(serde_json::to_string(&Outcome::FiftyMoves)?, r#""fifty_moves""#);
    /// let mate = Outcome::Checkmate { winner: Color::Black };
    /// assert_eq!(serde_json::to_string(&mate)?, r#"{"checkmate":"black"}"#);
    /// assert_eq!(serde_json::from_str::<Outcome>(r#"{"checkmate":"black"}"#)?, mate);
    /// assert_eq!(serde_json::from_str::<Outcome>(r#""stalemate""#)?, Outcome::Stalemate);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    impl Serialize for Outcome {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            match self {
                Outcome::Checkmate { winner } => {
                    let mut map = serializer.serialize_map(Some(1))?;
                    map.serialize_entry("checkmate", winner)?;
                    map.end()
                }
                other => serializer.serialize_str(other.name()),
            }
        }
    }

    /// Reads what [`Serialize`] writes.
    impl<'de> Deserialize<'de> for Outcome {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Outcome, D::Error> {
            deserializer.deserialize_any(OutcomeVisitor)
        }
    }

    const DRAWS: [Outcome; 6] = [
        Outcome::Stalemate,
        Outcome::InsufficientMaterial,
        Outcome::SeventyFiveMoves,
        Outcome::FivefoldRepetition,
        Outcome::FiftyMoves,
        Outcome::ThreefoldRepetition,
    ];

    struct OutcomeVisitor;

    impl<'de> Visitor<'de> for OutcomeVisitor {
        type Value = Outcome;

        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("an outcome name such as \"stalemate\", or {\"checkmate\": \"white\"}")
        }

        fn visit_str<E: de::Error>(self, name: &str) -> Result<Outcome, E> {
            DRAWS
                .into_iter()
                .find(|outcome| outcome.name() == name)
                .ok_or_else(|| E::unknown_variant(name, &NAMES))
        }

        fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Outcome, A::Error> {
            let key: Option<&str> = map.next_key()?;
            match key {
                Some("checkmate") => {
                    let winner: Color = map.next_value()?;
                    Ok(Outcome::Checkmate { winner })
                }
                Some(other) => Err(de::Error::unknown_variant(other, &["checkmate"])),
                None => Err(de::Error::invalid_length(0, &self)),
            }
        }
    }

    const NAMES: [&str; 7] = [
        "checkmate",
        "stalemate",
        "insufficient_material",
        "seventyfive_moves",
        "fivefold_repetition",
        "fifty_moves",
        "threefold_repetition",
    ];
}
