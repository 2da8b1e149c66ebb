//! Which squares a piece attacks, by table lookup.

use crate::{Bitboard, Color, Square, tables};

/// The squares a knight on `square` attacks.
///
/// ```
/// use bitboards::{attacks, bitboard, Square};
///
/// let expected = bitboard! {
///     8 . . . . . . . .
///     7 . . . . . X . X
///     6 . . . . X . . .
///     5 . . . . . . . .
///     4 . . . . X . . .
///     3 . . . . . X . X
///     2 . . . . . . . .
///     1 . . . . . . . .
///       a b c d e f g h
/// };
/// assert_eq!(attacks::knight(Square::G5), expected);
/// ```
#[inline]
#[must_use]
pub const fn knight(square: Square) -> Bitboard {
    Bitboard(tables::KNIGHT_ATTACKS[square.index()])
}

/// The squares a king on `square` attacks.
///
/// ```
/// use bitboards::{attacks, bitboard, Square};
///
/// let expected = bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . . . .
///     5 . . . . . . . .
///     4 . . . . . . . .
///     3 . . . . . . . .
///     2 X X . . . . . .
///     1 . X . . . . . .
///       a b c d e f g h
/// };
/// assert_eq!(attacks::king(Square::A1), expected);
/// ```
#[inline]
#[must_use]
pub const fn king(square: Square) -> Bitboard {
    Bitboard(tables::KING_ATTACKS[square.index()])
}

/// The squares a pawn of `color` on `square` attacks (diagonally forward).
///
/// Because attacks are symmetric, `pawn(!color, s)` is also the set of
/// squares from which a `color` pawn would attack `s`.
///
/// ```
/// use bitboards::{attacks, bitboard, Color, Square};
///
/// let expected = bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . . . .
///     5 . . . X . X . .
///     4 . . . . . . . .
///     3 . . . . . . . .
///     2 . . . . . . . .
///     1 . . . . . . . .
///       a b c d e f g h
/// };
/// assert_eq!(attacks::pawn(Color::White, Square::E4), expected);
/// assert_eq!(attacks::pawn(Color::Black, Square::E4), Square::D3.bitboard() | Square::F3.bitboard());
/// ```
#[inline]
#[must_use]
pub const fn pawn(color: Color, square: Square) -> Bitboard {
    Bitboard(tables::PAWN_ATTACKS[color.index()][square.index()])
}

/// The square a pawn of `color` on `square` moves to with a single push, as
/// a bitboard (empty for a pawn on its last rank).
///
/// ```
/// use bitboards::{attacks, Color, Square};
///
/// assert_eq!(attacks::pawn_push(Color::White, Square::E2), Square::E3.bitboard());
/// assert!(attacks::pawn_push(Color::White, Square::E8).is_empty());
/// ```
#[inline]
#[must_use]
pub const fn pawn_push(color: Color, square: Square) -> Bitboard {
    Bitboard(tables::PAWN_PUSHES[color.index()][square.index()])
}

/// The squares a rook on `square` attacks when `occupied` holds the pieces
/// of both sides: along its rank and file up to and including the first
/// piece in each direction. One multiply, shift and load (fixed-shift magic
/// bitboards; see [`tables::ROOK_MAGICS`]).
///
/// ```
/// use bitboards::{attacks, bitboard, Square};
///
/// let blockers = bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . X . . . .
///     5 . . . . . . . .
///     4 . . . . . X . .
///     3 . . . . . . . .
///     2 . . . . . . . .
///     1 . . . . . . . .
///       a b c d e f g h
/// };
/// assert_eq!(attacks::rook(Square::D4, blockers), bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . X . . . .
///     5 . . . X . . . .
///     4 X X X . X X . .
///     3 . . . X . . . .
///     2 . . . X . . . .
///     1 . . . X . . . .
///       a b c d e f g h
/// });
/// ```
#[inline]
#[must_use]
pub const fn rook(square: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(
        &tables::ROOK_MAGICS[square.index()],
        tables::ROOK_SHIFT,
        occupied,
    )
}

/// The squares a bishop on `square` attacks when `occupied` holds the pieces
/// of both sides: along its diagonals up to and including the first piece in
/// each direction. One multiply, shift and load.
///
/// ```
/// use bitboards::{attacks, bitboard, Square};
///
/// let blockers = bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . X . .
///     5 . . . . . . . .
///     4 . . . . . . . .
///     3 . . . . . . . .
///     2 . X . . . . . .
///     1 . . . . . . . .
///       a b c d e f g h
/// };
/// assert_eq!(attacks::bishop(Square::D4, blockers), bitboard! {
///     8 . . . . . . . .
///     7 X . . . . . . .
///     6 . X . . . X . .
///     5 . . X . X . . .
///     4 . . . . . . . .
///     3 . . X . X . . .
///     2 . X . . . X . .
///     1 . . . . . . X .
///       a b c d e f g h
/// });
/// ```
#[inline]
#[must_use]
pub const fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(
        &tables::BISHOP_MAGICS[square.index()],
        tables::BISHOP_SHIFT,
        occupied,
    )
}

/// The squares a queen on `square` attacks: a rook's and a bishop's.
///
/// ```
/// use bitboards::{attacks, Bitboard, Square};
///
/// let empty = Bitboard::EMPTY;
/// assert_eq!(attacks::queen(Square::D4, empty).count(), 27);
/// assert_eq!(
///     attacks::queen(Square::D4, empty),
///     attacks::rook(Square::D4, empty) | attacks::bishop(Square::D4, empty)
/// );
/// ```
#[inline]
#[must_use]
pub const fn queen(square: Square, occupied: Bitboard) -> Bitboard {
    rook(square, occupied).union(bishop(square, occupied))
}

/// The squares a rook on `square` attacks on an empty board: its rank and
/// file. No rook or queen outside this set can attack `square`, whatever
/// stands between, so it tells when a [`rook`] lookup can be skipped.
///
/// ```
/// use bitboards::{attacks, Bitboard, Square};
///
/// assert_eq!(attacks::rook_rays(Square::D4), attacks::rook(Square::D4, Bitboard::EMPTY));
/// assert_eq!(attacks::rook_rays(Square::A1).count(), 14);
/// ```
#[inline]
#[must_use]
pub const fn rook_rays(square: Square) -> Bitboard {
    Bitboard(tables::ROOK_RAYS[square.index()])
}

/// The squares a bishop on `square` attacks on an empty board: both its
/// diagonals. The [`rook_rays`] of the diagonal sliders.
///
/// ```
/// use bitboards::{attacks, Bitboard, Square};
///
/// assert_eq!(attacks::bishop_rays(Square::D4), attacks::bishop(Square::D4, Bitboard::EMPTY));
/// assert_eq!(attacks::bishop_rays(Square::A1).count(), 7);
/// ```
#[inline]
#[must_use]
pub const fn bishop_rays(square: Square) -> Bitboard {
    Bitboard(tables::BISHOP_RAYS[square.index()])
}

/// `SLIDER_ATTACKS[((occupied & mask) * factor >> shift) + offset]`. The
/// shift is one constant per piece, so it compiles to an immediate.
///
/// The index is bounds-checked like any other; `MAGICS_IN_BOUNDS` proves at
/// compile time that the check never fails, so no lookup can panic. (An
/// unchecked read was tried and measured: no faster in the criterion bench,
/// so the crate keeps no `unsafe` outside feature `pext`.)
#[inline(always)]
const fn magic_lookup(
    &[mask, factor, offset]: &[u64; 3],
    shift: u64,
    occupied: Bitboard,
) -> Bitboard {
    let index = ((occupied.0 & mask).wrapping_mul(factor) >> shift) + offset;
    Bitboard(tables::SLIDER_ATTACKS[index as usize])
}

/// Whether every subset of every square's mask indexes inside
/// `SLIDER_ATTACKS`. A square whose whole block `offset + 2^(64 - shift)`
/// fits needs no more checking; the few blocks that overhang the table's end
/// (the published layout is that tight) are walked subset by subset.
const fn in_bounds(magics: &[[u64; 3]; 64], shift: u64) -> bool {
    let len = tables::SLIDER_ATTACKS.len() as u64;
    let mut square = 0;
    while square < 64 {
        let [mask, factor, offset] = magics[square];
        if offset + (1 << (64 - shift)) > len {
            let mut subset = 0u64;
            loop {
                if (subset.wrapping_mul(factor) >> shift) + offset >= len {
                    return false;
                }
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
        }
        square += 1;
    }
    true
}

/// The compile-time proof that `magic_lookup` never indexes past the table:
/// the index depends on `occupied` only through `occupied & mask`, a subset
/// of `mask`, and every subset of every mask is checked here.
const MAGICS_IN_BOUNDS: () = assert!(
    in_bounds(&tables::ROOK_MAGICS, tables::ROOK_SHIFT)
        && in_bounds(&tables::BISHOP_MAGICS, tables::BISHOP_SHIFT),
    "a magic entry indexes past SLIDER_ATTACKS: regenerate with `cargo xtask gen`"
);
const _: () = MAGICS_IN_BOUNDS;

/// Slider attacks through PEXT-indexed tables (feature `pext`), for x86-64
/// CPUs with BMI2.
///
/// PEXT is fast on Intel from Haswell and on AMD from Zen 3; on earlier AMD
/// CPUs it is microcoded and slower than the magic lookups, which is why it
/// is not the default. These are separate functions rather than a switch
/// inside [`rook`](super::rook) because PEXT cannot run in `const`
/// evaluation, and a feature must not take `const` away from callers.
///
/// Enable with `--features pext` and `RUSTFLAGS="-C target-cpu=native"` (on a
/// CPU with BMI2) or `RUSTFLAGS="-C target-feature=+bmi2"`.
///
/// ```
/// # #[cfg(feature = "pext")] {
/// use bitboards::{attacks, Bitboard, Square};
///
/// let occupied = Square::D6.bitboard() | Square::F4.bitboard();
/// assert_eq!(attacks::pext::rook(Square::D4, occupied), attacks::rook(Square::D4, occupied));
/// # }
/// ```
#[cfg(feature = "pext")]
pub mod pext {
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    compile_error!(
        "feature `pext` needs an x86-64 target with BMI2 enabled: build with \
         RUSTFLAGS=\"-C target-cpu=native\" on a CPU that has BMI2 (Intel Haswell, AMD Zen 3 \
         or later for speed), or RUSTFLAGS=\"-C target-feature=+bmi2\"; \
         without BMI2 use the default magic lookups (`attacks::rook`, `attacks::bishop`)"
    );

    use crate::{Bitboard, Square, tables};

    /// `pdep(PEXT_ATTACKS[offset + pext(occupied, mask)], rays)`: the
    /// table holds each attack set packed into 16 bits, which keeps it at
    /// 215 KB, small enough for a core's L2 cache.
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    #[allow(unsafe_code)]
    #[inline(always)]
    fn lookup(&[mask, rays, offset]: &[u64; 3], occupied: Bitboard) -> Bitboard {
        use core::arch::x86_64::{_pdep_u64, _pext_u64};
        // SAFETY: `_pext_u64` is unsafe only because the CPU might lack
        // BMI2. This function exists only when the whole build targets BMI2
        // (`cfg(target_feature = "bmi2")` above; otherwise `compile_error!`),
        // so every CPU this code may run on has the instruction. It reads no
        // memory. The table index is bounds-checked as usual.
        let index = unsafe { _pext_u64(occupied.0, mask) } + offset;
        let packed = u64::from(tables::PEXT_ATTACKS[index as usize]);
        // SAFETY: as above, for `_pdep_u64`.
        Bitboard(unsafe { _pdep_u64(packed, rays) })
    }

    /// The squares a rook on `square` attacks, by PEXT index.
    ///
    /// ```
    /// # #[cfg(feature = "pext")] {
    /// use bitboards::{attacks, Bitboard, Square};
    ///
    /// assert_eq!(attacks::pext::rook(Square::A1, Bitboard::EMPTY).count(), 14);
    /// # }
    /// ```
    #[inline]
    #[must_use]
    pub fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        lookup(&tables::ROOK_PEXT[square.index()], occupied)
    }

    /// The squares a bishop on `square` attacks, by PEXT index.
    ///
    /// ```
    /// # #[cfg(feature = "pext")] {
    /// use bitboards::{attacks, Bitboard, Square};
    ///
    /// assert_eq!(attacks::pext::bishop(Square::A1, Bitboard::EMPTY).count(), 7);
    /// # }
    /// ```
    #[inline]
    #[must_use]
    pub fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        lookup(&tables::BISHOP_PEXT[square.index()], occupied)
    }

    /// The squares a queen on `square` attacks, by PEXT index.
    ///
    /// ```
    /// # #[cfg(feature = "pext")] {
    /// use bitboards::{attacks, Bitboard, Square};
    ///
    /// assert_eq!(attacks::pext::queen(Square::D4, Bitboard::EMPTY).count(), 27);
    /// # }
    /// ```
    #[inline]
    #[must_use]
    pub fn queen(square: Square, occupied: Bitboard) -> Bitboard {
        rook(square, occupied) | bishop(square, occupied)
    }
}

#[cfg(test)]
mod tests {
    use crate::tables;

    #[test]
    fn the_bounds_proof_accepts_the_tables_and_rejects_an_overhang() {
        assert!(super::in_bounds(&tables::ROOK_MAGICS, tables::ROOK_SHIFT));
        assert!(super::in_bounds(
            &tables::BISHOP_MAGICS,
            tables::BISHOP_SHIFT
        ));
        let len = tables::SLIDER_ATTACKS.len() as u64;
        let mut broken = tables::ROOK_MAGICS;
        // The empty occupancy of h8 now lands one past the end.
        broken[63][2] = len;
        assert!(!super::in_bounds(&broken, tables::ROOK_SHIFT));
        let mut broken = tables::BISHOP_MAGICS;
        broken[0][2] = len - 100;
        assert!(!super::in_bounds(&broken, tables::BISHOP_SHIFT));
    }

    /// A few hundred lookups, few enough for Miri, which checks the crate's
    /// only `unsafe` (the PEXT and PDEP instructions) when run with
    /// `cargo +nightly miri test --lib --features pext` on a BMI2 target.
    #[test]
    fn sampled_lookups_agree_with_the_default_path() {
        use crate::{Bitboard, Square};

        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..300 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let square = Square::ALL[(state % 64) as usize];
            let occupied = Bitboard(state & state.rotate_left(23));
            let rook = super::rook(square, occupied);
            let bishop = super::bishop(square, occupied);
            assert_eq!(super::queen(square, occupied), rook | bishop);
            assert!(!rook.contains(square) && !bishop.contains(square));
            #[cfg(feature = "pext")]
            {
                assert_eq!(super::pext::rook(square, occupied), rook, "{square}");
                assert_eq!(super::pext::bishop(square, occupied), bishop, "{square}");
            }
        }
    }
}
