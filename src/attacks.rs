//! Which squares a piece attacks, by table lookup.

use crate::{Bitboard, Color, Piece, PieceKind, Square, tables};

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
/// bitboards; see [`tables::ROOK_MAGICS`]); with feature `compact`, the
/// [`compact`] lookup instead.
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
/// // A `const fn`, in either layout:
/// const A1: bitboards::Bitboard = attacks::rook(Square::A1, bitboards::Bitboard::EMPTY);
/// assert_eq!(A1.count(), 14);
/// ```
#[inline]
#[must_use]
pub const fn rook(square: Square, occupied: Bitboard) -> Bitboard {
    #[cfg(not(feature = "compact"))]
    {
        magic::rook(square, occupied)
    }
    #[cfg(feature = "compact")]
    {
        compact::rook(square, occupied)
    }
}

/// The squares a bishop on `square` attacks when `occupied` holds the pieces
/// of both sides: along its diagonals up to and including the first piece in
/// each direction. One multiply, shift and load; with feature `compact`, the
/// [`compact`] lookup instead.
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
    #[cfg(not(feature = "compact"))]
    {
        magic::bishop(square, occupied)
    }
    #[cfg(feature = "compact")]
    {
        compact::bishop(square, occupied)
    }
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

/// The squares `piece` on `square` attacks, `occupied` blocking the
/// sliders: the lookup of its kind ([`pawn`] of its color, [`knight`],
/// [`bishop`], [`rook`], [`queen`], [`king`]), for code that holds a piece
/// rather than one kind (a board's pieces in turn, a setup of any
/// placement).
///
/// ```
/// use bitboards::{attacks, bitboard, Bitboard, Color, Piece, PieceKind, Square};
///
/// let black_pawn = Piece::new(Color::Black, PieceKind::Pawn);
/// assert_eq!(attacks::piece(black_pawn, Square::E5, Bitboard::EMPTY), bitboard! {
///     8 . . . . . . . .
///     7 . . . . . . . .
///     6 . . . . . . . .
///     5 . . . . . . . .
///     4 . . . X . X . .
///     3 . . . . . . . .
///     2 . . . . . . . .
///     1 . . . . . . . .
///       a b c d e f g h
/// });
/// let queen = Piece::new(Color::White, PieceKind::Queen);
/// let occupied = Square::D6.bitboard();
/// assert_eq!(attacks::piece(queen, Square::D4, occupied), attacks::queen(Square::D4, occupied));
/// ```
#[inline]
#[must_use]
pub const fn piece(piece: Piece, square: Square, occupied: Bitboard) -> Bitboard {
    match piece.kind() {
        PieceKind::Pawn => pawn(piece.color(), square),
        PieceKind::Knight => knight(square),
        PieceKind::Bishop => bishop(square, occupied),
        PieceKind::Rook => rook(square, occupied),
        PieceKind::Queen => queen(square, occupied),
        PieceKind::King => king(square),
    }
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

/// The default layout: fixed-shift magic bitboards over the published
/// magics' one overlapped table, `SLIDER_ATTACKS`.
#[cfg(not(feature = "compact"))]
mod magic {
    use crate::{Bitboard, Square, tables};

    /// A rook square's block: the entries its shifted product can reach.
    const ROOK_BLOCK: usize = 1 << (64 - tables::ROOK_SHIFT);
    /// A bishop square's block.
    const BISHOP_BLOCK: usize = 1 << (64 - tables::BISHOP_SHIFT);

    /// Each square's block of `SLIDER_ATTACKS`, a1 to h8: the table at the
    /// square's offset, as an array of the length the shift can index. A
    /// lookup then needs neither the offset's addition nor a bounds check
    /// (the shifted product is below the length by construction): an
    /// addition and a compare-and-branch fewer on every lookup
    /// (docs/performance.md has the measured difference). These
    /// are addresses into the generated table, not table contents: the
    /// generator pads `SLIDER_ATTACKS` so that every whole block fits, and
    /// [`block`] refuses to compile if one does not.
    static ROOK_BLOCKS: [&[u64; ROOK_BLOCK]; 64] = blocks(&tables::ROOK_MAGICS);
    static BISHOP_BLOCKS: [&[u64; BISHOP_BLOCK]; 64] = blocks(&tables::BISHOP_MAGICS);

    /// The `N` entries of `SLIDER_ATTACKS` from `offset`; a compile error
    /// when they run past its end.
    const fn block<const N: usize>(offset: u64) -> &'static [u64; N] {
        let Some((_, from_offset)) = tables::SLIDER_ATTACKS.split_at_checked(offset as usize)
        else {
            panic!("a magic offset lies past SLIDER_ATTACKS: regenerate with `cargo xtask gen`")
        };
        match from_offset.first_chunk::<N>() {
            Some(block) => block,
            None => {
                panic!("a magic block overhangs SLIDER_ATTACKS: regenerate with `cargo xtask gen`")
            }
        }
    }

    /// Every square's block, from its `[mask, factor, offset]` row.
    const fn blocks<const N: usize>(magics: &[[u64; 3]; 64]) -> [&'static [u64; N]; 64] {
        let mut blocks = [block::<N>(magics[0][2]); 64];
        let mut square = 1;
        while square < 64 {
            blocks[square] = block::<N>(magics[square][2]);
            square += 1;
        }
        blocks
    }

    /// `block[(occupied & mask) * factor >> shift]`. The shift is one
    /// constant per piece, so it compiles to an immediate, and the index it
    /// leaves is below `N`: no bounds check.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    const fn lookup<const N: usize>(
        &[mask, factor, _]: &[u64; 3],
        block: &[u64; N],
        shift: u64,
        occupied: Bitboard,
    ) -> Bitboard {
        Bitboard(block[((occupied.0 & mask).wrapping_mul(factor) >> shift) as usize])
    }

    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    pub(super) const fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let square = square.index();
        lookup(
            &tables::ROOK_MAGICS[square],
            ROOK_BLOCKS[square],
            tables::ROOK_SHIFT,
            occupied,
        )
    }

    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    pub(super) const fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let square = square.index();
        lookup(
            &tables::BISHOP_MAGICS[square],
            BISHOP_BLOCKS[square],
            tables::BISHOP_SHIFT,
            occupied,
        )
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn every_block_starts_at_its_offset() {
            let at = |offset: u64| tables::SLIDER_ATTACKS[offset as usize..].as_ptr();
            for square in 0..64 {
                let [_, _, rook] = tables::ROOK_MAGICS[square];
                let [_, _, bishop] = tables::BISHOP_MAGICS[square];
                assert!(core::ptr::eq(ROOK_BLOCKS[square].as_ptr(), at(rook)));
                assert!(core::ptr::eq(BISHOP_BLOCKS[square].as_ptr(), at(bishop)));
            }
            assert_eq!((ROOK_BLOCK, BISHOP_BLOCK), (4096, 512));
        }
    }
}

/// The compact layout: about 9 KB of tables ([`tables::LINE_ATTACKS`],
/// [`tables::FILE_ATTACKS`], [`tables::DIAGONAL_RAYS`],
/// [`tables::ANTI_DIAGONAL_RAYS`]) instead of the magics' 709 KB, for
/// WebAssembly and small targets. Feature `compact` makes [`rook`],
/// [`bishop`] and [`queen`] these; with it, nothing references
/// `SLIDER_ATTACKS`, and the linker leaves it out of the binary.
///
/// A slider's attacks are the union of its lines (rank and file, or both
/// diagonals); a multiplication gathers the six inner squares of a line into
/// an index, and a table of 8 x 64 entries answers for every line
/// ("kindergarten" bitboards). Three multiplications per queen instead of
/// two, and more arithmetic around them, but every table stays in the L1
/// cache: on this crate's benchmark, fewer lookups per second than the magics
/// when they run side by side, and shorter latency when each waits for the
/// last (see docs/performance.md, "Slider lookups").
///
/// ```
/// use bitboards::{attacks, Bitboard, Square};
///
/// let occupied = Square::D6.bitboard() | Square::F4.bitboard() | Square::B2.bitboard();
/// assert_eq!(attacks::compact::rook(Square::D4, occupied), attacks::rook(Square::D4, occupied));
/// assert_eq!(attacks::compact::bishop(Square::D4, occupied), attacks::bishop(Square::D4, occupied));
/// ```
pub mod compact {
    use crate::{Bitboard, Square, tables};

    /// The product's top six bits are the index.
    const INDEX_SHIFT: u32 = 58;

    /// The attacks along the rank or diagonal `line` (without the square)
    /// of a slider on `file`, from the index of the line's inner squares.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    const fn along(file: usize, index: u64, line: u64) -> u64 {
        tables::LINE_ATTACKS[file][index as usize] & line
    }

    /// The attacks along a diagonal `ray` through a square on `file`.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    const fn diagonal(file: usize, ray: u64, occupied: u64) -> u64 {
        let index = (occupied & ray).wrapping_mul(tables::LINE_INDEX_MULTIPLIER) >> INDEX_SHIFT;
        along(file, index, ray)
    }

    /// The squares a rook on `square` attacks, from the compact tables: its
    /// rank (shifted down, no multiplication) and its file (moved onto file
    /// a and gathered by [`tables::FILE_INDEX_MULTIPLIER`]).
    ///
    /// ```
    /// use bitboards::{attacks, Bitboard, Square};
    ///
    /// assert_eq!(attacks::compact::rook(Square::A1, Bitboard::EMPTY).count(), 14);
    /// const D4: Bitboard = attacks::compact::rook(Square::D4, Bitboard::EMPTY);
    /// assert_eq!(D4, attacks::rook_rays(Square::D4));
    /// ```
    #[inline]
    #[must_use]
    pub const fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (file, rank) = (square.index() & 7, square.index() >> 3);
        let occupied = occupied.0;
        let rank_index = (occupied >> (8 * rank + 1)) & 63;
        let on_rank = along(file, rank_index, tables::RANKS[rank]);
        let on_file_a = (occupied >> file) & tables::FILES[0];
        let file_index = on_file_a.wrapping_mul(tables::FILE_INDEX_MULTIPLIER) >> INDEX_SHIFT;
        let on_file = tables::FILE_ATTACKS[rank][file_index as usize] << file;
        Bitboard(on_rank | on_file)
    }

    /// The squares a bishop on `square` attacks, from the compact tables:
    /// both diagonals, each gathered by [`tables::LINE_INDEX_MULTIPLIER`].
    ///
    /// ```
    /// use bitboards::{attacks, Bitboard, Square};
    ///
    /// assert_eq!(attacks::compact::bishop(Square::D4, Bitboard::EMPTY).count(), 13);
    /// ```
    #[inline]
    #[must_use]
    pub const fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let file = square.index() & 7;
        let occupied = occupied.0;
        Bitboard(
            diagonal(file, tables::DIAGONAL_RAYS[square.index()], occupied)
                | diagonal(file, tables::ANTI_DIAGONAL_RAYS[square.index()], occupied),
        )
    }

    /// The squares a queen on `square` attacks, from the compact tables.
    ///
    /// ```
    /// use bitboards::{attacks, Bitboard, Square};
    ///
    /// assert_eq!(attacks::compact::queen(Square::D4, Bitboard::EMPTY).count(), 27);
    /// ```
    #[inline]
    #[must_use]
    pub const fn queen(square: Square, occupied: Bitboard) -> Bitboard {
        rook(square, occupied).union(bishop(square, occupied))
    }
}

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
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
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
            assert_eq!(super::compact::rook(square, occupied), rook, "{square}");
            assert_eq!(super::compact::bishop(square, occupied), bishop, "{square}");
            #[cfg(feature = "pext")]
            {
                assert_eq!(super::pext::rook(square, occupied), rook, "{square}");
                assert_eq!(super::pext::bishop(square, occupied), bishop, "{square}");
            }
        }
    }
}
