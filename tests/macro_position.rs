//! `position!`: known positions against `Position::START`, `from_fen` and
//! `chess960`, constant contexts and the diagram's forms (its compile errors
//! are pinned by trybuild in tests/macro-errors). That the macro reads
//! random positions as the FEN reader does is tested through a corpus:
//! macro_fen_agreement.rs pins the FEN reader's verdicts, the macro crate's
//! unit tests read the same positions.

use bitboards::{CastlingSide, Color, File, Piece, Position, Square, position};

const START: Position = position! {
    8 r n b q k b n r
    7 p p p p p p p p
    6 . . . . . . . .
    5 . . . . . . . .
    4 . . . . . . . .
    3 . . . . . . . .
    2 P P P P P P P P
    1 R N B Q K B N R
      a b c d e f g h
    ; w KQkq -
};

static KIWIPETE: Position = position! {
    8 r . . . k . . r
    7 p . p p q p b .
    6 b n . . p n p .
    5 . . . P N . . .
    4 . p . . P . . .
    3 . . N . . Q . p
    2 P P P B B P P P
    1 R . . . K . . R
      a b c d e f g h
    ; w KQkq -
};

#[test]
fn the_start_position_is_position_start() {
    assert_eq!(START, Position::START);
    assert_eq!(START.polyglot_key(), Position::START.polyglot_key());
}

#[test]
fn kiwipete_is_its_fen() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(KIWIPETE, Position::from_fen(fen).unwrap());
    assert_eq!(KIWIPETE.fen().to_string(), fen);
}

#[test]
fn chess960_positions_are_their_fens() {
    // From tests/data/chess960-random.epd: Shredder-FEN letters, Black to
    // move, and both clocks.
    let shredder = position! {
        r q k b b r . n
        p . . . p p p p
        . . p . . . . .
        . p . p . n . .
        P . P . . . . .
        R . . . . . . P
        . P . P P P P .
        . Q K B B R N N
        ; b Ffa - 1 6
    };
    let fen = "rqkbbr1n/p3pppp/2p5/1p1p1n2/P1P5/R6P/1P1PPPP1/1QKBBRNN b Ffa - 1 6";
    assert_eq!(shredder, Position::from_fen(fen).unwrap());
    assert_eq!(
        shredder
            .castling()
            .rook_file(Color::White, CastlingSide::KingSide),
        Some(File::F)
    );
    assert_eq!(
        (shredder.halfmove_clock(), shredder.fullmove_number()),
        (1, 6)
    );

    // The same rights in X-FEN's letters: `K`/`Q` are the outermost rook on
    // that side of the king.
    let x_fen = position! {
        r q k b b r . n
        p . . . p p p p
        . . p . . . . .
        . p . p . n . .
        P . P . . . . .
        R . . . . . . P
        . P . P P P P .
        . Q K B B R N N
        ; b Kkq - 1 6
    };
    assert_eq!(x_fen, shredder);

    // A start position, rooks on the b- and g-files.
    let start_0 = position! {
        b b q n n r k r
        p p p p p p p p
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        P P P P P P P P
        B B Q N N R K R
        ; w KQkq -
    };
    assert_eq!(start_0, Position::chess960(0).unwrap());
}

#[test]
fn an_inner_rook_is_named_by_its_file() {
    // Two white rooks east of the king: `K` is the outer one, `G` the inner.
    let inner = position! {
        . . . . k . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . K . R R
        ; w G -
    };
    let outer = position! {
        . . . . k . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . K . R R
        ; w K -
    };
    let rook_file = |position: Position| {
        position
            .castling()
            .rook_file(Color::White, CastlingSide::KingSide)
    };
    assert_eq!(rook_file(inner), Some(File::G));
    assert_eq!(rook_file(outer), Some(File::H));
    assert_eq!(
        inner,
        Position::from_fen("4k3/8/8/8/8/8/8/4K1RR w G - 0 1").unwrap()
    );
}

#[test]
fn en_passant_and_black_to_move() {
    let after_e4 = position! {
        r n b q k b n r
        p p p p p p p p
        . . . . . . . .
        . . . . . . . .
        . . . . P . . .
        . . . . . . . .
        P P P P . P P P
        R N B Q K B N R
        ; b KQkq e3
    };
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert_eq!(after_e4, Position::from_fen(fen).unwrap());
    assert_eq!(after_e4.en_passant(), Some(Square::E3));
}

#[test]
fn fields_may_be_left_out() {
    // White to move, no castling, no en passant, clocks 0 and 1.
    let kings = position! {
        . . . . k . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        R . . . K . . .
    };
    assert_eq!(
        kings,
        Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap()
    );
    let black = position! {
        . . . . k . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        R . . . K . . .
        ; b Q
    };
    assert_eq!(
        black,
        Position::from_fen("4k3/8/8/8/8/8/8/R3K3 b Q - 0 1").unwrap()
    );
}

#[test]
fn labels_are_optional_and_cells_may_touch() {
    let unlabelled = position! {
        r n b q k b n r
        p p p p p p p p
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        P P P P P P P P
        R N B Q K B N R
        ; w KQkq -
    };
    let together = position! {
        rnbqkbnr
        pppppppp
        ........
        ........
        ........
        ........
        PPPPPPPP
        RNBQKBNR
        ; w KQkq -
    };
    let ranks_only = position! {
        8 rnbqkbnr
        7 pppppppp
        6 ........
        5 ........
        4 ........
        3 ........
        2 PPPPPPPP
        1 RNBQKBNR
        ; w KQkq -
    };
    for position in [unlabelled, together, ranks_only] {
        assert_eq!(position, Position::START);
    }
}

#[test]
fn comments_may_sit_inside_a_diagram() {
    let position = position! {
        8 . . . . k . . .  // Black's king at home
        7 . . . . . . . .
        6 . . . . . . . .
        5 . . . . . . . .
        4 . . . . Q . . .  /* a centralised queen */
        3 . . . . . . . .
        2 . . . . . . . .
        1 . . . . K . . .
          a b c d e f g h
        ; b - -  // Black to move, in check from the queen
    };
    assert_eq!(position.checkers(), Square::E4.bitboard());
}

// A piece passed to another macro keeps the line of that macro's call, not
// the line of its row: `position!` must still put it in its row.
macro_rules! with_piece_on_e4 {
    ($piece:tt) => {
        position! {
            8 . . . . k . . .
            7 . . . . . . . .
            6 . . . . . . . .
            5 . . . . . . . .
            4 . . . . $piece . . .
            3 . . . . . . . .
            2 . . . . . . . .
            1 . . . . K . . .
              a b c d e f g h
        }
    };
}

// The same with the side to move as an argument too, captured as `ident`
// (which arrives in an invisible group).
macro_rules! with_side_and_piece {
    ($side:ident, $piece:ident) => {
        position! {
            . . . . k . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . . . .
            . . . . . $piece . .
            . . . . . . . .
            . . . . . . . .
            . . . . K . . .
            ; $side - -
        }
    };
}

const KNIGHT_ON_E4: Position = with_piece_on_e4!(N);

#[test]
fn a_piece_from_a_macro_argument_lands_in_its_row() {
    assert_eq!(KNIGHT_ON_E4.piece_on(Square::E4), Some(Piece::WhiteKnight));
    let on_its_own_line = with_piece_on_e4!(b);
    assert_eq!(
        on_its_own_line.piece_on(Square::E4),
        Some(Piece::BlackBishop)
    );
    assert_eq!(with_piece_on_e4!(.).occupied().count(), 2);
    let position = with_side_and_piece!(b, p);
    assert_eq!(
        position,
        Position::from_fen("4k3/8/8/8/5p2/8/8/4K3 b - - 0 1").unwrap()
    );
}

#[test]
fn usable_in_const_static_and_let() {
    const IN_A_CONST: Position = position! {
        . . . . k . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . K . . .
    };
    static IN_A_STATIC: Position = IN_A_CONST;
    // Its methods are `const fn`s too, so a constant can be taken apart at
    // compile time.
    const KINGS: usize = IN_A_CONST.occupied().count() as usize;
    assert_eq!(KINGS, 2);
    assert_eq!(IN_A_STATIC, IN_A_CONST);
    assert_eq!(KIWIPETE.occupied().count(), 32);
}

/// In a generic function, the position still is one constant.
fn generic_start<T>() -> (Position, usize) {
    let position = position! {
        rnbqkbnr
        pppppppp
        ........
        ........
        ........
        ........
        PPPPPPPP
        RNBQKBNR
    };
    (position, core::mem::size_of::<T>())
}

#[test]
fn usable_in_a_generic_function() {
    let (position, _) = generic_start::<u8>();
    assert_eq!(position.castling(), bitboards::CastlingRights::NONE);
    assert_eq!(position.occupied(), Position::START.occupied());
}
