//! Boards as SVG pictures (what Jupyter shows) and pieces as figurines.

use std::fmt::Write as _;

use bitboards::{Color, Move, Piece, Position, Square};

/// The chess figurine of `piece`: ♔ for a white king.
pub fn figurine(piece: Piece) -> &'static str {
    const WHITE: [&str; 6] = ["♙", "♘", "♗", "♖", "♕", "♔"];
    const BLACK: [&str; 6] = ["♟", "♞", "♝", "♜", "♛", "♚"];
    match piece.color() {
        Color::White => WHITE[piece.kind().index()],
        Color::Black => BLACK[piece.kind().index()],
    }
}

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const LAST_MOVE: &str = "#cdd26a";
const CHECK: &str = "#e8533f";

/// The board `size` pixels wide, rank 8 on top (rank 1 when `flipped`),
/// with file and rank labels, the last move's squares marked and a king
/// in check ringed.
pub fn board(
    position: &Position,
    last: Option<Move>,
    checked: Option<Square>,
    size: u32,
    flipped: bool,
) -> String {
    // Drawn on a 360-unit grid: a 20-unit margin for the labels and
    // 40-unit squares.
    let mut svg = String::with_capacity(8 << 10);
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 360" width="{size}" height="{size}" font-family="sans-serif">"#
    );
    let marked = |square: Square| last.is_some_and(|mv| mv.from() == square || mv.to() == square);
    for square in Square::ALL {
        let (file, rank) = (square.file().index() as u32, square.rank().index() as u32);
        let (column, row) = if flipped {
            (7 - file, rank)
        } else {
            (file, 7 - rank)
        };
        let (x, y) = (20 + 40 * column, 20 + 40 * row);
        let fill = match () {
            () if marked(square) => LAST_MOVE,
            () if square.is_light() => LIGHT,
            () => DARK,
        };
        let _ = write!(
            svg,
            r#"<rect x="{x}" y="{y}" width="40" height="40" fill="{fill}"/>"#
        );
        if checked == Some(square) {
            let _ = write!(
                svg,
                r#"<circle cx="{}" cy="{}" r="18" fill="none" stroke="{CHECK}" stroke-width="3"/>"#,
                x + 20,
                y + 20
            );
        }
        if let Some(piece) = position.piece_on(square) {
            // The black figurines' glyphs for both colours, filled white or
            // black and outlined: the same shape whatever the font.
            let glyph = figurine(Piece::new(Color::Black, piece.kind()));
            let (fill, stroke) = match piece.color() {
                Color::White => ("#ffffff", "#000000"),
                Color::Black => ("#000000", "#ffffff"),
            };
            let _ = write!(
                svg,
                r#"<text x="{}" y="{}" font-size="34" text-anchor="middle" fill="{fill}" stroke="{stroke}" stroke-width="0.8">{glyph}</text>"#,
                x + 20,
                y + 33
            );
        }
    }
    for index in 0..8u32 {
        let file = (b'a' + if flipped { 7 - index } else { index } as u8) as char;
        let rank = if flipped { index + 1 } else { 8 - index };
        let _ = write!(
            svg,
            r#"<text x="{}" y="354" font-size="12" text-anchor="middle">{file}</text><text x="10" y="{}" font-size="12" text-anchor="middle">{rank}</text>"#,
            40 + 40 * index,
            44 + 40 * index
        );
    }
    svg.push_str("</svg>");
    svg
}
