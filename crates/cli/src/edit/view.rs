//! Drawing an [`Editor`] into a ratatui [`Buffer`], at the places
//! [`layout`](super::layout) fixes.

use bitboards::{File, Rank, Square};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Text;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::layout::{
    BOARD_LEFT, BOARD_TOP, LABEL_LEFT, MIN_HEIGHT, MIN_WIDTH, NUMBERS_TOP, PANEL_LEFT, VALUE_LEFT,
    cell_position,
};
use super::state::Editor;
use crate::numbering::Numbering;
use crate::render::{binary_groups, hex, rank_labels, square_list};

/// The editor as a ratatui widget: the board with its cursor, the keys,
/// and the number in hex, decimal and binary with the set squares.
///
/// ```
/// use bitboards::Square;
/// use bitboards_cli::edit::{Editor, EditorView};
/// use ratatui::{buffer::Buffer, layout::Rect, widgets::Widget};
///
/// let editor = Editor::new(Square::E4.bitboard(), Default::default());
/// let mut buffer = Buffer::empty(Rect::new(0, 0, 80, 19));
/// EditorView { editor: &editor, color: false }.render(buffer.area, &mut buffer);
/// let hex_row: String = (0..80).map(|x| buffer[(x, 11)].symbol()).collect();
/// assert_eq!(hex_row.trim_end(), " hex     0x0000000010000000");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct EditorView<'a> {
    /// The state to draw.
    pub editor: &'a Editor,
    /// Whether set squares and bits are drawn in colour (bold either way).
    pub color: bool,
}

impl EditorView<'_> {
    fn set_style(&self) -> Style {
        let style = Style::new().add_modifier(Modifier::BOLD);
        if self.color {
            style.fg(Color::Green)
        } else {
            style
        }
    }

    /// The squares of the board, rank 8 on top, with the ranks' and files'
    /// names and the cursor marked.
    fn render_board(&self, area: Rect, buf: &mut Buffer) {
        let editor = self.editor;
        let board = editor.board();
        let set = self.set_style();
        for rank in Rank::ALL {
            let (_, row) = cell_position(Square::from_file_rank(File::A, rank));
            let (x, y) = at(area, BOARD_LEFT, row);
            buf.set_string(x, y, rank.to_char().to_string(), Style::new());
            for file in File::ALL {
                let square = Square::from_file_rank(file, rank);
                let (column, row) = cell_position(square);
                let (x, y) = at(area, column, row);
                let (symbol, mut style) = if board.contains(square) {
                    ("X", set)
                } else {
                    (".", Style::new())
                };
                if square == editor.cursor() {
                    style = style.patch(CURSOR);
                }
                buf.set_string(x, y, symbol, style);
            }
        }
        let (x, y) = at(area, BOARD_LEFT + 2, BOARD_TOP + 8);
        buf.set_string(x, y, "a b c d e f g h", Style::new());
    }

    /// The panel beside the board: the cursor, the numbering and the keys.
    fn render_panel(&self, area: Rect, buf: &mut Buffer) {
        let editor = self.editor;
        let numbering = editor.numbering();
        let panel = [
            format!("cursor    {} = bit {}", editor.cursor(), self.cursor_bit()),
            format!("numbering {numbering} ({})", numbering.corners()),
            String::new(),
            "move      arrows or h j k l".to_owned(),
            "toggle    space or click (drag paints)".to_owned(),
            "c clear   f fill   i invert".to_owned(),
            "v flip ranks       m mirror files".to_owned(),
            "n next numbering".to_owned(),
            "q, Enter, Esc: done   Ctrl-C: quit".to_owned(),
        ];
        for (offset, line) in (0u16..).zip(panel) {
            let (x, y) = at(area, PANEL_LEFT, BOARD_TOP + offset);
            buf.set_string(x, y, line, Style::new());
        }
    }

    /// The number in hex, decimal and binary (bit by bit, the cursor's bit
    /// marked) with its heading and the count of set squares.
    fn render_numbers(&self, area: Rect, buf: &mut Buffer) {
        let board = self.editor.board();
        let numbering = self.editor.numbering();
        let number = numbering.to_number(board);
        let rows = [
            ("hex", hex(number)),
            ("decimal", number.to_string()),
            ("binary", binary_groups(number)),
            ("", rank_labels(numbering)),
            ("count", board.count().to_string()),
        ];
        let (x, y) = at(area, LABEL_LEFT, NUMBERS_TOP - 1);
        buf.set_string(x, y, numbers_heading(number, numbering), Style::new());
        for (offset, (label, value)) in (0u16..).zip(rows) {
            let (x, y) = at(area, LABEL_LEFT, NUMBERS_TOP + offset);
            buf.set_string(x, y, label, Style::new());
            let (x, y) = at(area, VALUE_LEFT, NUMBERS_TOP + offset);
            buf.set_string(x, y, value, Style::new());
        }
        let set = self.set_style();
        let cursor_bit = self.cursor_bit();
        for bit in 0..64u16 {
            let from_left = 63 - bit;
            let column = VALUE_LEFT + from_left + from_left / 8;
            let (x, y) = at(area, column, NUMBERS_TOP + 2);
            let mut style = if number >> bit & 1 == 1 {
                set
            } else {
                Style::new()
            };
            if u32::from(bit) == cursor_bit {
                style = style.patch(CURSOR);
            }
            buf.set_style(Rect::new(x, y, 1, 1), style);
        }
    }

    /// The set squares, wrapped under their label.
    fn render_squares(&self, area: Rect, buf: &mut Buffer) {
        let squares_top = NUMBERS_TOP + 5;
        let (x, y) = at(area, LABEL_LEFT, squares_top);
        buf.set_string(x, y, "squares", Style::new());
        let (x, y) = at(area, VALUE_LEFT, squares_top);
        let squares_area = Rect::new(x, y, MIN_WIDTH - VALUE_LEFT, MIN_HEIGHT - squares_top);
        Paragraph::new(Text::raw(square_list(self.editor.board())))
            .wrap(Wrap { trim: true })
            .render(squares_area, buf);
    }

    /// The cursor's bit in the numbering.
    fn cursor_bit(&self) -> u32 {
        self.editor
            .numbering()
            .to_number(self.editor.cursor().bitboard())
            .trailing_zeros()
    }
}

/// The style that marks the cursor, on the board and among the bits.
const CURSOR: Style = Style::new().add_modifier(Modifier::REVERSED);

/// The cell `x` columns right of and `y` rows below `area`'s corner.
fn at(area: Rect, x: u16, y: u16) -> (u16, u16) {
    (area.x + x, area.y + y)
}

/// What a terminal smaller than the editor shows instead: the size it
/// needs, and how to finish.
fn render_too_small(area: Rect, buf: &mut Buffer) {
    let message = format!(
        "bitboards edit needs a terminal of at least {MIN_WIDTH} x {MIN_HEIGHT}; \
         this one is {} x {}. Enlarge it, or press q to finish.",
        area.width, area.height
    );
    Paragraph::new(Text::raw(message))
        .wrap(Wrap { trim: true })
        .render(area, buf);
}

impl Widget for EditorView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            render_too_small(area, buf);
            return;
        }
        let (x, y) = at(area, 0, 0);
        buf.set_string(
            x,
            y,
            " bitboards edit",
            Style::new().add_modifier(Modifier::BOLD),
        );
        self.render_board(area, buf);
        self.render_panel(area, buf);
        self.render_numbers(area, buf);
        self.render_squares(area, buf);
    }
}

/// The line above the numbers: their numbering, and the lerf number (the
/// one `Bitboard` holds and a literal draws) when the numbering is another.
fn numbers_heading(number: u64, numbering: Numbering) -> String {
    let heading = format!("numbers in {numbering} ({})", numbering.corners());
    if numbering == Numbering::Lerf {
        heading
    } else {
        let lerf = Numbering::Lerf.to_number(numbering.to_board(number));
        format!("{heading}; in lerf {}", hex(lerf))
    }
}
