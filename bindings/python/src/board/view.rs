//! `Board` shown: text, Unicode, SVG, and the planes of its pieces.

use bitboards::any_setup;
use bitboards::{Color, Square};
use pyo3::prelude::*;

use super::state::{Board, python_part};

#[pymethods]
impl Board {
    /// The board in Unicode pieces, as python-chess draws it.
    #[pyo3(signature = (*, invert_color = false, borders = false, empty_square = "⭘", orientation = true))]
    fn unicode<'py>(
        slf: &Bound<'py, Self>,
        invert_color: bool,
        borders: bool,
        empty_square: &str,
        orientation: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        python_part(slf.py(), "unicode")?.call1((
            slf,
            invert_color,
            borders,
            empty_square,
            orientation,
        ))
    }

    /// The twelve piece boards as a `(12, 8, 8)` uint8 NumPy array: White's
    /// pawns, knights, bishops, rooks, queens, king, then Black's; row 0 is
    /// rank 1 and column 0 file a. With `flip=True` and Black to move, the
    /// board as Black sees it: ranks mirrored and colours swapped, so that
    /// the first six planes are always the mover's.
    #[pyo3(signature = (*, flip = false))]
    fn planes<'py>(&self, py: Python<'py>, flip: bool) -> PyResult<Bound<'py, PyAny>> {
        let boards = self.position.piece_boards().map(|board| board.0);
        let black = flip && self.position.side_to_move() == Color::Black;
        super::planes::to_numpy(py, &[boards], |_| black)?.call_method1("reshape", ((12, 8, 8),))
    }

    fn __str__(&self) -> String {
        let mut text = String::with_capacity(128);
        for rank in (0..8).rev() {
            for file in 0..8 {
                let square = Square::new(rank * 8 + file).expect("0..64");
                text.push(
                    self.position
                        .piece_on(square)
                        .map_or('.', |piece| piece.to_char()),
                );
                text.push(if file == 7 { '\n' } else { ' ' });
            }
        }
        text.pop();
        text
    }

    fn __repr__(&self) -> String {
        match self.chess960 {
            true => format!("Board('{}', chess960=True)", self.fen_as(false, "legal")),
            false => format!("Board('{}')", self.fen_as(false, "legal")),
        }
    }

    /// The board as an SVG picture, `size` pixels wide, from Black's side
    /// when `flipped`.
    #[pyo3(signature = (*, size = 400, flipped = false))]
    fn svg(&self, size: u32, flipped: bool) -> String {
        let last = self.stack.last().map(|&(_, mv)| mv);
        let checked = self
            .in_check()
            .then(|| any_setup::king_of(&self.position, self.position.side_to_move()))
            .flatten();
        crate::svg::board(&self.position, last, checked, size, flipped)
    }

    /// The picture Jupyter shows.
    fn _repr_svg_(&self) -> String {
        self.svg(400, false)
    }
}
