//! `board.legal_moves` and `board.pseudo_legal_moves`: python-chess's move
//! generator objects.

use bitboards::any_setup;
use bitboards::{CastlingNotation, Position};
use pyo3::prelude::*;
use pyo3::types::PyList;

use super::state::{Board, find_in};
use super::types::Move;

/// A generator of moves as python-chess has them on a board
/// (`board.legal_moves`, `board.pseudo_legal_moves`): iterate, `len()`,
/// `in`, and a repr in SAN. Made from a `Board`, it holds the board's moves
/// then; made from any other object with python-chess's board methods, it
/// asks that object each time, as python-chess's does.
macro_rules! move_generator {
    ($name:ident, $generate:literal, $test:literal, $make:ident, $doc:literal) => {
        #[doc = $doc]
        #[pyclass(module = "bitboards", frozen)]
        pub struct $name {
            pub(super) moves: Vec<bitboards::Move>,
            /// How the board writes castling. On a standard board `in`
            /// also finds castling written king-takes-rook; iteration does
            /// not give it.
            pub(super) notation: CastlingNotation,
            /// The board's position, for the repr's SAN.
            pub(super) position: Position,
            /// Whether the position is loose (`bitboards::any_setup`).
            pub(super) loose: bool,
            /// Another kind of board, asked each time.
            pub(super) foreign: Option<Py<PyAny>>,
        }

        impl $name {
            /// The moves as python-chess writes them on the board.
            fn written(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
                self.moves
                    .iter()
                    .map(|&mv| Move::from_move(mv, self.notation))
            }
        }

        #[pymethods]
        impl $name {
            #[new]
            fn new(board: &Bound<'_, PyAny>) -> PyResult<$name> {
                if let Ok(board) = board.cast::<Board>() {
                    let mut board = board.borrow_mut();
                    return Ok(board.$make());
                }
                Ok($name {
                    moves: Vec::new(),
                    notation: CastlingNotation::KingToTarget,
                    position: Position::START,
                    loose: false,
                    foreign: Some(board.clone().unbind()),
                })
            }

            fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
                match &self.foreign {
                    None => Ok(self.moves.len()),
                    Some(board) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                        "the moves of a {} are counted with count()",
                        board.bind(py).get_type().name()?
                    ))),
                }
            }

            fn count(&self, py: Python<'_>) -> PyResult<usize> {
                match &self.foreign {
                    None => Ok(self.moves.len()),
                    Some(board) => Ok(board.bind(py).call_method0($generate)?.try_iter()?.count()),
                }
            }

            fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
                match &self.foreign {
                    None => Ok(!self.moves.is_empty()),
                    Some(board) => Ok(board
                        .bind(py)
                        .call_method0($generate)?
                        .try_iter()?
                        .next()
                        .transpose()?
                        .is_some()),
                }
            }

            fn __contains__(&self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<bool> {
                if let Some(board) = &self.foreign {
                    return board.bind(py).call_method1($test, (mv,))?.is_truthy();
                }
                let Ok(mv) = mv.cast::<Move>() else {
                    return Ok(false);
                };
                Ok(find_in(&self.moves, self.notation, *mv.get()).is_some())
            }

            fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                if let Some(board) = &self.foreign {
                    return board
                        .bind(py)
                        .call_method0($generate)?
                        .try_iter()
                        .map(Bound::into_any);
                }
                let objects = Move::objects(py)?;
                PyList::new(py, self.written().map(|mv| mv.shared(py, objects)))?
                    .as_any()
                    .try_iter()
                    .map(Bound::into_any)
            }

            /// python-chess's repr: the moves in SAN (UCI for one that is
            /// not legal).
            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                if let Some(board) = &self.foreign {
                    let board = board.bind(py);
                    let mut sans = Vec::new();
                    for mv in board.call_method0($generate)?.try_iter()? {
                        sans.push(board.call_method1("san", (mv?,))?.extract::<String>()?);
                    }
                    return Ok(format!("<{} ({})>", stringify!($name), sans.join(", ")));
                }
                let legal = if self.loose {
                    any_setup::loose_legal_moves(&self.position)
                } else {
                    self.position.legal_moves()
                };
                let moves: Vec<String> = self
                    .moves
                    .iter()
                    .map(|&mv| {
                        if !legal.contains(&mv) {
                            mv.uci(self.notation).to_string()
                        } else if self.loose {
                            any_setup::san(&self.position, &legal, mv)
                        } else {
                            self.position.san(mv).to_string()
                        }
                    })
                    .collect();
                Ok(format!("<{} ({})>", stringify!($name), moves.join(", ")))
            }
        }
    };
}

move_generator!(
    LegalMoveGenerator,
    "generate_legal_moves",
    "is_legal",
    legal_generator,
    "The legal moves of a board (`board.legal_moves`)."
);
move_generator!(
    PseudoLegalMoveGenerator,
    "generate_pseudo_legal_moves",
    "is_pseudo_legal",
    pseudo_generator,
    "The pseudo-legal moves of a board (`board.pseudo_legal_moves`): by how the pieces move, the king perhaps left in check."
);

impl Board {
    pub(super) fn legal_generator(&mut self) -> LegalMoveGenerator {
        LegalMoveGenerator {
            moves: self.legal().as_slice().to_vec(),
            notation: self.notation(),
            position: self.position,
            loose: self.loose,
            foreign: None,
        }
    }

    pub(super) fn pseudo_generator(&mut self) -> PseudoLegalMoveGenerator {
        PseudoLegalMoveGenerator {
            moves: self.pseudo_legal_list(u64::MAX, u64::MAX),
            notation: self.notation(),
            position: self.position,
            loose: self.loose,
            foreign: None,
        }
    }
}
