//! The editor as a pure state machine: an [`Editor`] and an [`Input`] make
//! the next [`Editor`]. No terminal is involved, so every key sequence can
//! be tested directly.

use bitboards::{Bitboard, File, Rank, Square};
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::numbering::Numbering;

use super::layout;

/// One thing the user did, in the editor's terms.
///
/// ```
/// use bitboards::Square;
/// use bitboards_cli::edit::{Editor, Input};
///
/// let mut editor = Editor::new(Square::E4.bitboard(), Default::default());
/// editor.apply(Input::Toggle);
/// assert!(editor.board().is_empty());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Input {
    /// Move the cursor one rank up (towards rank 8).
    Up,
    /// Move the cursor one rank down.
    Down,
    /// Move the cursor one file left (towards file a).
    Left,
    /// Move the cursor one file right.
    Right,
    /// Toggle the square under the cursor.
    Toggle,
    /// Empty the board.
    Clear,
    /// Set every square.
    Fill,
    /// Toggle every square.
    Invert,
    /// Turn the board upside down (rank 1 swaps with rank 8).
    FlipRanks,
    /// Mirror the board left to right (file a swaps with file h).
    MirrorFiles,
    /// Show and read numbers in the next numbering.
    NextNumbering,
    /// A mouse button went down on this screen cell.
    Press {
        /// The screen column.
        column: u16,
        /// The screen row.
        row: u16,
    },
    /// The mouse moved with the button down over this screen cell.
    Drag {
        /// The screen column.
        column: u16,
        /// The screen row.
        row: u16,
    },
    /// The mouse button came up.
    Release,
    /// Finish, printing the board.
    Done,
    /// Quit without printing anything.
    Abort,
}

impl Input {
    /// The input a terminal event stands for, if any: arrows or `hjkl`
    /// move, space toggles, `c` clears, `f` fills, `i` inverts, `v` flips
    /// the ranks, `m` mirrors the files, `n` switches numbering, `q`, Enter
    /// or Esc finish, Ctrl-C quits; the left mouse button toggles (and a
    /// drag paints).
    ///
    /// ```
    /// use bitboards_cli::edit::Input;
    /// use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    ///
    /// let key = |code| Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
    /// assert_eq!(Input::from_event(&key(KeyCode::Char('k'))), Some(Input::Up));
    /// assert_eq!(Input::from_event(&key(KeyCode::Char(' '))), Some(Input::Toggle));
    /// let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    /// assert_eq!(Input::from_event(&ctrl_c), Some(Input::Abort));
    /// ```
    #[must_use]
    pub fn from_event(event: &Event) -> Option<Input> {
        match *event {
            Event::Key(key) => Input::from_key(key),
            Event::Mouse(MouseEvent {
                kind, column, row, ..
            }) => match kind {
                MouseEventKind::Down(MouseButton::Left) => Some(Input::Press { column, row }),
                MouseEventKind::Drag(MouseButton::Left) => Some(Input::Drag { column, row }),
                MouseEventKind::Up(MouseButton::Left) => Some(Input::Release),
                _ => None,
            },
            _ => None,
        }
    }

    fn from_key(key: KeyEvent) -> Option<Input> {
        // Windows reports releases too; only presses and repeats act.
        if key.kind == KeyEventKind::Release {
            return None;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            return matches!(key.code, KeyCode::Char('c' | 'C')).then_some(Input::Abort);
        }
        Some(match key.code {
            KeyCode::Up | KeyCode::Char('k') => Input::Up,
            KeyCode::Down | KeyCode::Char('j') => Input::Down,
            KeyCode::Left | KeyCode::Char('h') => Input::Left,
            KeyCode::Right | KeyCode::Char('l') => Input::Right,
            KeyCode::Char(' ') => Input::Toggle,
            KeyCode::Char('c') => Input::Clear,
            KeyCode::Char('f') => Input::Fill,
            KeyCode::Char('i') => Input::Invert,
            KeyCode::Char('v') => Input::FlipRanks,
            KeyCode::Char('m') => Input::MirrorFiles,
            KeyCode::Char('n') => Input::NextNumbering,
            KeyCode::Char('q') | KeyCode::Enter | KeyCode::Esc => Input::Done,
            _ => return None,
        })
    }
}

/// How an editing session ended.
///
/// ```
/// use bitboards_cli::edit::{Editor, Input, Outcome};
///
/// let mut editor = Editor::new(Default::default(), Default::default());
/// assert_eq!(editor.outcome(), None);
/// editor.apply(Input::Done);
/// assert_eq!(editor.outcome(), Some(Outcome::Done));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The user finished: print the board.
    Done,
    /// The user quit (Ctrl-C): print nothing.
    Aborted,
}

/// The editor's whole state: the board, the cursor, the numbering, and
/// whether a mouse drag is painting.
///
/// ```
/// use bitboards::{Bitboard, Square};
/// use bitboards_cli::edit::{Editor, Input};
/// use bitboards_cli::numbering::Numbering;
///
/// let mut editor = Editor::new(Bitboard::EMPTY, Numbering::Lerf);
/// assert_eq!(editor.cursor(), Square::E4);
/// for input in [Input::Right, Input::Toggle, Input::Up, Input::Toggle] {
///     editor.apply(input);
/// }
/// assert_eq!(editor.board(), Square::F4.bitboard() | Square::F5.bitboard());
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Editor {
    board: Bitboard,
    cursor: Square,
    numbering: Numbering,
    painting: Option<bool>,
    outcome: Option<Outcome>,
}

impl Editor {
    /// An editor on `board`, cursor on e4, numbers in `numbering`.
    ///
    /// ```
    /// use bitboards::masks;
    /// use bitboards_cli::edit::Editor;
    /// use bitboards_cli::numbering::Numbering;
    ///
    /// let editor = Editor::new(masks::CENTER, Numbering::Berbef);
    /// assert_eq!(editor.board(), masks::CENTER);
    /// assert_eq!(editor.numbering(), Numbering::Berbef);
    /// ```
    #[must_use]
    pub fn new(board: Bitboard, numbering: Numbering) -> Editor {
        Editor {
            board,
            cursor: Square::E4,
            numbering,
            painting: None,
            outcome: None,
        }
    }

    /// The board as it stands.
    ///
    /// ```
    /// use bitboards::masks;
    /// use bitboards_cli::edit::{Editor, Input};
    ///
    /// let mut editor = Editor::new(masks::RANK_1, Default::default());
    /// editor.apply(Input::FlipRanks);
    /// assert_eq!(editor.board(), masks::RANK_8);
    /// ```
    #[must_use]
    pub fn board(&self) -> Bitboard {
        self.board
    }

    /// The square under the cursor.
    ///
    /// ```
    /// use bitboards::Square;
    /// use bitboards_cli::edit::{Editor, Input};
    ///
    /// let mut editor = Editor::new(Default::default(), Default::default());
    /// editor.apply(Input::Left);
    /// assert_eq!(editor.cursor(), Square::D4);
    /// ```
    #[must_use]
    pub fn cursor(&self) -> Square {
        self.cursor
    }

    /// The numbering numbers are shown in.
    ///
    /// ```
    /// use bitboards_cli::edit::{Editor, Input};
    /// use bitboards_cli::numbering::Numbering;
    ///
    /// let mut editor = Editor::new(Default::default(), Numbering::Lerf);
    /// editor.apply(Input::NextNumbering);
    /// assert_eq!(editor.numbering(), Numbering::Lerbef);
    /// ```
    #[must_use]
    pub fn numbering(&self) -> Numbering {
        self.numbering
    }

    /// How the session ended, once it has.
    ///
    /// ```
    /// use bitboards_cli::edit::{Editor, Input, Outcome};
    ///
    /// let mut editor = Editor::new(Default::default(), Default::default());
    /// editor.apply(Input::Abort);
    /// assert_eq!(editor.outcome(), Some(Outcome::Aborted));
    /// ```
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Applies one input. Inputs after the session has ended change nothing.
    ///
    /// ```
    /// use bitboards::Bitboard;
    /// use bitboards_cli::edit::{Editor, Input};
    ///
    /// let mut editor = Editor::new(Bitboard::EMPTY, Default::default());
    /// editor.apply(Input::Invert);
    /// assert_eq!(editor.board(), Bitboard::FULL);
    /// editor.apply(Input::Clear);
    /// assert_eq!(editor.board(), Bitboard::EMPTY);
    /// ```
    pub fn apply(&mut self, input: Input) {
        if self.outcome.is_some() {
            return;
        }
        let (file, rank) = (self.cursor.file().index(), self.cursor.rank().index());
        match input {
            Input::Up => self.move_to(file, rank + 1),
            Input::Down => self.move_to(file, rank.wrapping_sub(1)),
            Input::Left => self.move_to(file.wrapping_sub(1), rank),
            Input::Right => self.move_to(file + 1, rank),
            Input::Toggle => self.board.toggle(self.cursor),
            Input::Clear => self.board = Bitboard::EMPTY,
            Input::Fill => self.board = Bitboard::FULL,
            Input::Invert => self.board = !self.board,
            Input::FlipRanks => self.board = self.board.flip_ranks(),
            Input::MirrorFiles => self.board = self.board.mirror_files(),
            Input::NextNumbering => self.numbering = self.numbering.next(),
            Input::Press { column, row } => {
                if let Some(square) = layout::square_at(column, row) {
                    self.cursor = square;
                    self.board.toggle(square);
                    self.painting = Some(self.board.contains(square));
                }
            }
            Input::Drag { column, row } => {
                if let (Some(square), Some(set)) = (layout::square_at(column, row), self.painting) {
                    self.cursor = square;
                    if set {
                        self.board.set(square);
                    } else {
                        self.board.clear(square);
                    }
                }
            }
            Input::Release => self.painting = None,
            Input::Done => self.outcome = Some(Outcome::Done),
            Input::Abort => self.outcome = Some(Outcome::Aborted),
        }
    }

    /// Moves the cursor, staying put at the edge of the board.
    fn move_to(&mut self, file: usize, rank: usize) {
        let file = u8::try_from(file).ok().and_then(File::new);
        let rank = u8::try_from(rank).ok().and_then(Rank::new);
        if let (Some(file), Some(rank)) = (file, rank) {
            self.cursor = Square::from_file_rank(file, rank);
        }
    }
}
