// The one encoding of a setup as a line of text, shared by two tests across
// the layers: the macro crate's unit test (`include!`d there, from this
// folder) and the library's tests/macro_fen_agreement.rs, which writes the
// corpus beside this file. Self-contained: every path is spelled out.

/// A setup in one line: the board in FEN's notation, the side to move, the
/// castling rooks' files (White king side, White queen side, Black king
/// side, Black queen side; upper case for White, `-` for none), the en
/// passant square or `-`, and the two clocks.
fn encode(setup: &bitboards_core::Setup) -> String {
    use bitboards_core::{CastlingSide, Color};
    use std::fmt::Write as _;
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match setup.board[rank * 8 + file] {
                Some(piece) => {
                    if empty > 0 {
                        write!(out, "{empty}").unwrap();
                        empty = 0;
                    }
                    out.push(piece.to_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            write!(out, "{empty}").unwrap();
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(match setup.side_to_move {
        Color::White => 'w',
        Color::Black => 'b',
    });
    out.push(' ');
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            out.push(match setup.castling.rook_file(color, side) {
                Some(file) if color == Color::White => file.to_char().to_ascii_uppercase(),
                Some(file) => file.to_char(),
                None => '-',
            });
        }
    }
    match setup.en_passant {
        Some(square) => write!(out, " {square}").unwrap(),
        None => out.push_str(" -"),
    }
    write!(out, " {} {}", setup.halfmove_clock, setup.fullmove_number).unwrap();
    out
}
