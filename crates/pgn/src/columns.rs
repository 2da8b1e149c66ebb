//! The column buffers both tables write (the games' and the positions'):
//! values and validity as plain vectors, a byte a row, made into Arrow
//! buffers once per batch.

use std::sync::Arc;

use arrow_array::{ArrayRef, Int32Array, StructArray};
use arrow_buffer::{ArrowNativeType, BooleanBuffer, Buffer, NullBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields};

use crate::annotations::Score;

/// The fields of an `evals` element: `cp` or `mate`, the other null.
pub(crate) fn eval_fields() -> Fields {
    Fields::from(vec![
        Field::new("cp", DataType::Int32, true),
        Field::new("mate", DataType::Int32, true),
    ])
}

/// A nullable column's buffers: the values (a default where null) and
/// whether each is valid, a byte a row until the batch is made (bytes
/// append as fast as the values; the batch packs them in one pass).
#[derive(Clone, Debug)]
pub(crate) struct Nullable<T> {
    pub(crate) values: Vec<T>,
    pub(crate) valid: Vec<bool>,
}

impl<T: Copy + Default + ArrowNativeType> Nullable<T> {
    pub(crate) fn with_capacity(rows: usize) -> Nullable<T> {
        Nullable {
            values: Vec::with_capacity(rows),
            valid: Vec::with_capacity(rows),
        }
    }

    pub(crate) fn extend(&mut self, values: impl Iterator<Item = Option<T>> + Clone) {
        self.values
            .extend(values.clone().map(Option::unwrap_or_default));
        self.valid.extend(values.map(|value| value.is_some()));
    }

    pub(crate) fn push_n(&mut self, value: Option<T>, count: usize) {
        self.values
            .extend(std::iter::repeat_n(value.unwrap_or_default(), count));
        self.valid
            .extend(std::iter::repeat_n(value.is_some(), count));
    }

    pub(crate) fn clear(&mut self) {
        self.values.clear();
        self.valid.clear();
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        self.values.truncate(len);
        self.valid.truncate(len);
    }

    /// Appends `value`.
    #[inline]
    pub(crate) fn push(&mut self, value: Option<T>) {
        self.values.push(value.unwrap_or_default());
        self.valid.push(value.is_some());
    }

    /// Sets the last value, unless it is set already (the first of a
    /// ply's annotations counts).
    #[inline]
    pub(crate) fn fill_last(&mut self, value: Option<T>) {
        if let (Some(value), Some(valid @ false)) = (value, self.valid.last_mut()) {
            *valid = true;
            if let Some(last) = self.values.last_mut() {
                *last = value;
            }
        }
    }

    pub(crate) fn append(&mut self, other: &Nullable<T>) {
        self.values.extend_from_slice(&other.values);
        self.valid.extend_from_slice(&other.valid);
    }

    /// The values and their nulls, leaving room for `rows` more.
    pub(crate) fn take(&mut self, rows: usize) -> (ScalarBuffer<T>, Option<NullBuffer>) {
        let values = ScalarBuffer::from(take_with_room(&mut self.values, rows));
        (values, nulls(&mut self.valid, rows))
    }
}

/// The null buffer of a column whose rows' validity is `valid` (None when
/// every row is), leaving it empty with room for `rows`.
pub(crate) fn nulls(valid: &mut Vec<bool>, rows: usize) -> Option<NullBuffer> {
    let (bits, all) = take_bools(valid, rows);
    (!all).then(|| NullBuffer::new(bits))
}

/// `bools` packed ([`pack_bools`]), and whether every one is true,
/// leaving `bools` empty with room for `rows`.
pub(crate) fn take_bools(bools: &mut Vec<bool>, rows: usize) -> (BooleanBuffer, bool) {
    let packed = pack_bools(bools);
    bools.clear();
    bools.reserve(rows);
    packed
}

/// `bools` as a bitmap (the first in the lowest bit), and whether every
/// one is true. Eight at a time: the eight bytes of `false` (0) and `true`
/// (1) read as one word, and one multiplication moves the low bit of each
/// byte into the top byte, in order, with no two products on the same bit
/// (byte `i` lands on bit `56 + i`). Arrow's `collect_bool`, a call and a
/// shift a row, took 1.7% of `read_positions` (docs/performance.md).
pub(crate) fn pack_bools(bools: &[bool]) -> (BooleanBuffer, bool) {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut bytes = Vec::with_capacity(bools.len().div_ceil(64) * 8);
    let mut all = true;
    let mut eights = bools.chunks_exact(8);
    for eight in &mut eights {
        let word = u64::from_le_bytes(core::array::from_fn(|at| u8::from(eight[at])));
        let packed = (word.wrapping_mul(GATHER) >> 56) as u8;
        all &= packed == u8::MAX;
        bytes.push(packed);
    }
    let rest = eights.remainder();
    if !rest.is_empty() {
        let packed = rest
            .iter()
            .enumerate()
            .fold(0u8, |packed, (at, &bit)| packed | u8::from(bit) << at);
        all &= packed.count_ones() as usize == rest.len();
        bytes.push(packed);
    }
    (BooleanBuffer::new(Buffer::from(bytes), 0, bools.len()), all)
}

/// Scores as their buffers, for the game table's `evals` items and the
/// positions' `move_eval`: `cp` or `mate`, the other null; the struct null
/// where there is none. The struct's fields are written directly, where a
/// `StructBuilder` looked each one up by type for every value.
#[derive(Clone, Debug)]
pub(crate) struct Evals {
    pub(crate) cp: Nullable<i32>,
    pub(crate) mate: Nullable<i32>,
    pub(crate) valid: Vec<bool>,
}

impl Evals {
    pub(crate) fn with_capacity(rows: usize) -> Evals {
        Evals {
            cp: Nullable::with_capacity(rows),
            mate: Nullable::with_capacity(rows),
            valid: Vec::with_capacity(rows),
        }
    }

    pub(crate) fn extend(&mut self, scores: impl Iterator<Item = Option<Score>> + Clone) {
        self.cp.extend(scores.clone().map(|score| match score {
            Some(Score::Cp(cp)) => Some(cp),
            _ => None,
        }));
        self.mate.extend(scores.clone().map(|score| match score {
            Some(Score::Mate(mate)) => Some(mate),
            _ => None,
        }));
        self.valid.extend(scores.map(|score| score.is_some()));
    }

    pub(crate) fn clear(&mut self) {
        self.cp.clear();
        self.mate.clear();
        self.valid.clear();
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        self.cp.truncate(len);
        self.mate.truncate(len);
        self.valid.truncate(len);
    }

    /// Appends a ply without a score.
    #[inline]
    pub(crate) fn push_none(&mut self) {
        self.cp.push(None);
        self.mate.push(None);
        self.valid.push(false);
    }

    /// Sets the last ply's score, unless it has one already.
    #[inline]
    pub(crate) fn fill_last(&mut self, score: Option<Score>) {
        if let (Some(score), Some(valid @ false)) = (score, self.valid.last_mut()) {
            *valid = true;
            match score {
                Score::Cp(cp) => self.cp.fill_last(Some(cp)),
                Score::Mate(mate) => self.mate.fill_last(Some(mate)),
            }
        }
    }

    pub(crate) fn append(&mut self, other: &Evals) {
        self.cp.append(&other.cp);
        self.mate.append(&other.mate);
        self.valid.extend_from_slice(&other.valid);
    }

    pub(crate) fn take(&mut self, rows: usize) -> StructArray {
        let (cp, cp_valid) = self.cp.take(rows);
        let (mate, mate_valid) = self.mate.take(rows);
        StructArray::new(
            eval_fields(),
            vec![
                Arc::new(Int32Array::new(cp, cp_valid)) as ArrayRef,
                Arc::new(Int32Array::new(mate, mate_valid)),
            ],
            nulls(&mut self.valid, rows),
        )
    }
}

/// The values of `column`, leaving it empty with room for `rows`. Their
/// unused room is given back first (a shrink in place): a batch fills
/// little more than half of the room made for it, and where the room of
/// batches already handed on stayed allocated, each new batch's columns
/// went into pages never touched before, each a page fault.
pub(crate) fn take_with_room<T>(column: &mut Vec<T>, rows: usize) -> Vec<T> {
    let mut values = std::mem::take(column);
    values.shrink_to_fit();
    *column = Vec::with_capacity(rows);
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bools_pack_as_arrow_packs_them() {
        let mut rng = bitboards_test_support::Rng::new(0xB17_5EED);
        for len in (0..=200).chain([1023, 1024, 1025]) {
            for density in [0, 1, 2, 8] {
                // density 0: all true; else about one in `density` false.
                let bools: Vec<bool> = (0..len)
                    .map(|_| density == 0 || !rng.next_u64().is_multiple_of(density))
                    .collect();
                let (bits, all) = pack_bools(&bools);
                let expected = BooleanBuffer::collect_bool(len, |at| bools[at]);
                assert_eq!(bits, expected, "{len} rows, density {density}");
                assert_eq!(
                    all,
                    !bools.contains(&false),
                    "{len} rows, density {density}"
                );
            }
        }
    }
}
