//! Running the editor on a real terminal (drawn on standard error, so that
//! standard output carries only the result), and putting the terminal back
//! on every way out.

use std::io::{self, Write};
use std::sync::Once;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use super::state::{Editor, Input};
use super::view::EditorView;

/// Puts the terminal back when dropped: on a normal return, on an error
/// (`?`), and while unwinding from a panic. The panic hook below restores it
/// before the panic message is printed, so the message is readable.
struct TerminalGuard;

impl TerminalGuard {
    fn enter() -> io::Result<TerminalGuard> {
        install_panic_hook();
        enable_raw_mode()?;
        // From here on, dropping the guard undoes whatever succeeded.
        let guard = TerminalGuard;
        execute!(io::stderr(), EnterAlternateScreen, EnableMouseCapture)?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Undoes raw mode, mouse capture and the alternate screen. Safe to call
/// more than once; errors are ignored because there is nothing better to
/// do with them on the way out.
fn restore() {
    let mut stderr = io::stderr();
    let _ = execute!(
        stderr,
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
    let _ = stderr.flush();
}

fn install_panic_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Runs `editor` until the user finishes or quits; returns its final state.
/// Ctrl-C arrives as a key in raw mode, so it ends the loop like any other
/// input and the guard restores the terminal.
pub(crate) fn run(mut editor: Editor, color: bool) -> io::Result<Editor> {
    let guard = TerminalGuard::enter()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stderr()))?;
    terminal.hide_cursor()?;
    while editor.outcome().is_none() {
        terminal.draw(|frame| {
            frame.render_widget(
                EditorView {
                    editor: &editor,
                    color,
                },
                frame.area(),
            );
        })?;
        if let Some(input) = Input::from_event(&event::read()?) {
            editor.apply(input);
        }
    }
    drop(terminal);
    drop(guard);
    Ok(editor)
}
