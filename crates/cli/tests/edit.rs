//! The editor without a terminal: key and mouse sequences go through the
//! same event mapping as on a terminal, and the screens they leave are
//! insta snapshots drawn with ratatui's test backend.

use bitboards::{Bitboard, Square, masks};
use bitboards_cli::edit::{
    Editor, EditorView, Input, MIN_HEIGHT, MIN_WIDTH, Outcome, write_result,
};
use bitboards_cli::numbering::Numbering;
use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::style::{Color, Modifier};

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Events for typing `keys`, one character each (space included).
fn typed(keys: &str) -> Vec<Event> {
    keys.chars().map(|c| key(KeyCode::Char(c))).collect()
}

fn mouse(kind: MouseEventKind, column: u16, row: u16) -> Event {
    Event::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

/// Feeds terminal events to the editor the way the terminal loop does.
fn feed(editor: &mut Editor, events: &[Event]) {
    for event in events {
        if let Some(input) = Input::from_event(event) {
            editor.apply(input);
        }
    }
}

/// Draws the editor through a ratatui `Terminal` on the test backend.
fn draw(editor: &Editor, width: u16, height: u16) -> Buffer {
    let mut terminal =
        Terminal::new(TestBackend::new(width, height)).expect("the test backend never fails");
    terminal
        .draw(|frame| {
            frame.render_widget(
                EditorView {
                    editor,
                    color: true,
                },
                frame.area(),
            );
        })
        .expect("drawing on the test backend never fails");
    terminal.backend().buffer().clone()
}

/// The screen's text, one line per row, trailing spaces trimmed.
fn screen(buffer: &Buffer) -> String {
    let area = buffer.area;
    (area.top()..area.bottom())
        .map(|y| {
            let line: String = (area.left()..area.right())
                .map(|x| buffer[(x, y)].symbol())
                .collect();
            line.trim_end().to_owned() + "\n"
        })
        .collect()
}

/// Where the board draws `square` (rank 8 on row 1, file a at column 3).
fn cell(square: Square) -> (u16, u16) {
    (
        3 + 2 * square.file().index() as u16,
        1 + 7 - square.rank().index() as u16,
    )
}

#[test]
fn the_starting_screen() {
    let editor = Editor::new(Square::E4.bitboard(), Numbering::Lerf);
    assert_snapshot!("start_e4", screen(&draw(&editor, MIN_WIDTH, MIN_HEIGHT)));
}

#[test]
fn moving_and_toggling_with_arrows_and_hjkl() {
    let mut editor = Editor::new(Bitboard::EMPTY, Numbering::Lerf);
    // Up twice with k and the arrow, left with h, toggle; down with j,
    // right twice with l and the arrow, toggle.
    let mut events = vec![key(KeyCode::Char('k')), key(KeyCode::Up)];
    events.extend(typed("h "));
    events.extend([
        key(KeyCode::Char('j')),
        key(KeyCode::Char('l')),
        key(KeyCode::Right),
    ]);
    events.extend(typed(" "));
    feed(&mut editor, &events);
    assert_eq!(
        editor.board(),
        Square::D6.bitboard() | Square::F5.bitboard()
    );
    assert_eq!(editor.cursor(), Square::F5);
    assert_snapshot!("after_moves", screen(&draw(&editor, MIN_WIDTH, MIN_HEIGHT)));
}

#[test]
fn the_cursor_stops_at_the_edges() {
    let mut editor = Editor::new(Bitboard::EMPTY, Numbering::Lerf);
    feed(&mut editor, &typed("kkkkkkkkkklllllllll"));
    assert_eq!(editor.cursor(), Square::H8);
    feed(&mut editor, &typed("jjjjjjjjjjhhhhhhhhhh"));
    assert_eq!(editor.cursor(), Square::A1);
}

#[test]
fn clear_fill_invert_flip_and_mirror() {
    let mut editor = Editor::new(masks::RANK_1 | Square::A2.bitboard(), Numbering::Lerf);
    feed(&mut editor, &typed("v"));
    assert_eq!(editor.board(), masks::RANK_8 | Square::A7.bitboard());
    feed(&mut editor, &typed("m"));
    assert_eq!(editor.board(), masks::RANK_8 | Square::H7.bitboard());
    feed(&mut editor, &typed("i"));
    assert_eq!(editor.board(), !(masks::RANK_8 | Square::H7.bitboard()));
    feed(&mut editor, &typed("c"));
    assert_eq!(editor.board(), Bitboard::EMPTY);
    feed(&mut editor, &typed("f"));
    assert_eq!(editor.board(), Bitboard::FULL);
    assert_snapshot!("full_board", screen(&draw(&editor, MIN_WIDTH, MIN_HEIGHT)));
}

#[test]
fn switching_numbering_changes_the_numbers_not_the_board() {
    let mut editor = Editor::new(Square::C4.bitboard(), Numbering::Lerf);
    let mut numbers = Vec::new();
    for _ in 0..4 {
        let shown = screen(&draw(&editor, MIN_WIDTH, MIN_HEIGHT));
        let hex_line = shown
            .lines()
            .nth(11)
            .expect("the hex row")
            .trim()
            .to_owned();
        numbers.push(format!("{}: {hex_line}", editor.numbering()));
        feed(&mut editor, &typed("n"));
        assert_eq!(editor.board(), Square::C4.bitboard());
    }
    assert_eq!(
        editor.numbering(),
        Numbering::Lerf,
        "four presses cycle back"
    );
    assert_eq!(
        numbers,
        [
            "lerf: hex     0x0000000004000000",
            "lerbef: hex     0x0000000020000000",
            "berf: hex     0x0000000400000000",
            "berbef: hex     0x0000002000000000",
        ]
    );
    feed(&mut editor, &typed("nnn"));
    assert_snapshot!("berbef_c4", screen(&draw(&editor, MIN_WIDTH, MIN_HEIGHT)));
}

#[test]
fn clicking_toggles_and_dragging_paints() {
    let mut editor = Editor::new(Bitboard::EMPTY, Numbering::Lerf);
    let (column, row) = cell(Square::B2);
    feed(
        &mut editor,
        &[mouse(MouseEventKind::Down(MouseButton::Left), column, row)],
    );
    assert_eq!(editor.board(), Square::B2.bitboard());
    assert_eq!(editor.cursor(), Square::B2);
    // Drag across the rank: every square passed over is set, including by
    // the space to the right of a cell.
    for square in [Square::C2, Square::D2] {
        let (column, row) = cell(square);
        feed(
            &mut editor,
            &[mouse(
                MouseEventKind::Drag(MouseButton::Left),
                column + 1,
                row,
            )],
        );
    }
    feed(
        &mut editor,
        &[mouse(MouseEventKind::Up(MouseButton::Left), 0, 0)],
    );
    assert_eq!(
        editor.board(),
        Square::B2.bitboard() | Square::C2.bitboard() | Square::D2.bitboard()
    );
    // A drag after the release paints nothing; a click on a set square
    // clears it, and the drag that follows clears too.
    let (column, row) = cell(Square::H8);
    feed(
        &mut editor,
        &[mouse(MouseEventKind::Drag(MouseButton::Left), column, row)],
    );
    assert!(!editor.board().contains(Square::H8));
    let (column, row) = cell(Square::C2);
    feed(
        &mut editor,
        &[mouse(MouseEventKind::Down(MouseButton::Left), column, row)],
    );
    let (column, row) = cell(Square::D2);
    feed(
        &mut editor,
        &[mouse(MouseEventKind::Drag(MouseButton::Left), column, row)],
    );
    assert_eq!(editor.board(), Square::B2.bitboard());
    // Clicks off the board change nothing; other buttons are ignored.
    feed(
        &mut editor,
        &[
            mouse(MouseEventKind::Down(MouseButton::Left), 60, 15),
            mouse(MouseEventKind::Down(MouseButton::Right), column, row),
        ],
    );
    assert_eq!(editor.board(), Square::B2.bitboard());
}

#[test]
fn styles_mark_the_cursor_and_the_set_squares_and_bits() {
    let mut editor = Editor::new(Square::A1.bitboard(), Numbering::Lerf);
    feed(&mut editor, &typed("h"));
    let buffer = draw(&editor, MIN_WIDTH, MIN_HEIGHT);
    let (column, row) = cell(Square::D4);
    assert!(buffer[(column, row)].modifier.contains(Modifier::REVERSED));
    let (column, row) = cell(Square::A1);
    assert_eq!(buffer[(column, row)].fg, Color::Green);
    assert!(buffer[(column, row)].modifier.contains(Modifier::BOLD));
    assert!(!buffer[(column, row)].modifier.contains(Modifier::REVERSED));
    // In the binary row (row 13, digits from column 9), bit 0 is the last
    // digit and is set; d4 is bit 27, marked as the cursor's.
    let bit_column = |bit: u16| 9 + (63 - bit) + (63 - bit) / 8;
    assert_eq!(buffer[(bit_column(0), 13)].symbol(), "1");
    assert_eq!(buffer[(bit_column(0), 13)].fg, Color::Green);
    assert_eq!(buffer[(bit_column(27), 13)].symbol(), "0");
    assert!(
        buffer[(bit_column(27), 13)]
            .modifier
            .contains(Modifier::REVERSED)
    );
    // Without colour, set squares are bold only.
    let mut plain = Buffer::empty(buffer.area);
    ratatui::widgets::Widget::render(
        EditorView {
            editor: &editor,
            color: false,
        },
        buffer.area,
        &mut plain,
    );
    let (column, row) = cell(Square::A1);
    assert_eq!(plain[(column, row)].fg, Color::Reset);
    assert!(plain[(column, row)].modifier.contains(Modifier::BOLD));
}

#[test]
fn a_small_terminal_gets_a_message_instead_of_a_broken_board() {
    let editor = Editor::new(Square::E4.bitboard(), Numbering::Lerf);
    let shown = screen(&draw(&editor, 40, 6));
    assert_snapshot!("too_small", shown);
    assert!(shown.contains("40 x 6"));
}

#[test]
fn done_and_abort_end_the_session_and_later_input_is_ignored() {
    for (event, outcome) in [
        (key(KeyCode::Char('q')), Outcome::Done),
        (key(KeyCode::Enter), Outcome::Done),
        (key(KeyCode::Esc), Outcome::Done),
        (
            Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Outcome::Aborted,
        ),
    ] {
        let mut editor = Editor::new(Square::E4.bitboard(), Numbering::Lerf);
        feed(&mut editor, std::slice::from_ref(&event));
        assert_eq!(editor.outcome(), Some(outcome), "{event:?}");
        feed(&mut editor, &typed(" f"));
        assert_eq!(editor.board(), Square::E4.bitboard(), "{event:?}");
    }
    let mut editor = Editor::new(Bitboard::EMPTY, Numbering::Lerf);
    feed(&mut editor, &typed("xyz9"));
    assert_eq!(
        editor,
        Editor::new(Bitboard::EMPTY, Numbering::Lerf),
        "unbound keys do nothing"
    );
}

#[test]
fn the_result_is_the_number_in_the_last_numbering_and_the_literal() {
    let mut editor = Editor::new(Square::C4.bitboard(), Numbering::Lerf);
    feed(&mut editor, &typed("nnn"));
    let mut out = Vec::new();
    write_result(&editor, &mut out).expect("writing to a Vec never fails");
    let text = String::from_utf8(out).expect("ASCII");
    assert!(text.starts_with("0x0000002000000000\n"), "{text}");
    assert_snapshot!("result_c4_berbef", text);
}

#[test]
fn the_number_printed_and_shown_says_its_numbering() {
    // Printed: the number alone on its line (for scripts), then a comment
    // naming its numbering and giving the lerf number of the literal below.
    let editor = Editor::new(Square::C4.bitboard(), Numbering::Berbef);
    let mut out = Vec::new();
    write_result(&editor, &mut out).expect("writing to a Vec never fails");
    let text = String::from_utf8(out).expect("ASCII");
    assert!(
        text.starts_with(
            "0x0000002000000000\n\
             // 0x0000002000000000 is in berbef (h8 = bit 0, a1 = bit 63); \
             the board below is Bitboard(0x0000000004000000) in lerf\n\
             bitboard! {\n"
        ),
        "{text}"
    );
    // In lerf the number is the literal's own: no comment.
    let lerf = Editor::new(Square::C4.bitboard(), Numbering::Lerf);
    let mut out = Vec::new();
    write_result(&lerf, &mut out).expect("writing to a Vec never fails");
    assert!(
        String::from_utf8(out)
            .expect("ASCII")
            .starts_with("0x0000000004000000\nbitboard! {\n")
    );
    // On screen, a heading over the numbers names their numbering too.
    let shown = screen(&draw(&editor, MIN_WIDTH, MIN_HEIGHT));
    assert!(
        shown.contains(
            "\n numbers in berbef (h8 = bit 0, a1 = bit 63); in lerf 0x0000000004000000\n \
             hex     0x0000002000000000\n"
        ),
        "{shown}"
    );
    let shown = screen(&draw(&lerf, MIN_WIDTH, MIN_HEIGHT));
    assert!(
        shown.contains("\n numbers in lerf (a1 = bit 0, h8 = bit 63)\n hex "),
        "{shown}"
    );
}
