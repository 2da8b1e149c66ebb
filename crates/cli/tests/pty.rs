//! `bitboards edit` end to end on a real pseudo-terminal.
//!
//! The terminal comes from util-linux's `script` (in Debian's essential
//! `bsdutils`, so on every Linux machine this project builds on): it runs
//! the command on a fresh pseudo-terminal and copies our standard input to
//! it, which is all this test needs, with no pty crate to build.
#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const PATIENCE: Duration = Duration::from_secs(30);

/// The editor running under `script`, with everything it writes collected.
struct Session {
    child: Child,
    screen: Arc<Mutex<Vec<u8>>>,
}

impl Session {
    fn start(arguments: &str) -> Session {
        let binary = env!("CARGO_BIN_EXE_bitboards");
        // `script` gives the pty no size when its own input is not a
        // terminal; `stty` sets one before the editor starts.
        let command = format!("stty rows 24 cols 100; exec '{binary}' edit {arguments}");
        let mut child = Command::new("script")
            .args(["--quiet", "--return", "--command", &command, "/dev/null"])
            .env_remove("NO_COLOR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("this test needs util-linux's `script` (package bsdutils) on PATH");
        let screen = Arc::new(Mutex::new(Vec::new()));
        let mut stdout = child.stdout.take().expect("stdout is piped");
        let sink = Arc::clone(&screen);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(count @ 1..) = stdout.read(&mut chunk) {
                sink.lock()
                    .expect("no panics while holding the lock")
                    .extend_from_slice(&chunk[..count]);
            }
        });
        Session { child, screen }
    }

    fn output(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().expect("lock")).into_owned()
    }

    fn wait_for_text(&self, text: &str) {
        let start = Instant::now();
        while !self.output().contains(text) {
            assert!(
                start.elapsed() < PATIENCE,
                "`{text}` never appeared; the terminal showed:\n{:?}",
                self.output()
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    fn type_keys(&mut self, keys: &[u8]) {
        let stdin = self.child.stdin.as_mut().expect("stdin is piped");
        stdin.write_all(keys).expect("script reads its input");
        stdin.flush().expect("flush");
    }

    fn wait(mut self) -> (ExitStatus, String) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait on script") {
                // Let the reader drain what is left.
                thread::sleep(Duration::from_millis(100));
                return (status, self.output());
            }
            if start.elapsed() > PATIENCE {
                let _ = self.child.kill();
                panic!(
                    "the editor did not exit; the terminal showed:\n{:?}",
                    self.output()
                );
            }
            thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Undoes raw mode's output: the pty turns "\n" into "\r\n".
fn lines(text: &str) -> String {
    text.replace("\r\n", "\n")
}

const ENTER_ALTERNATE_SCREEN: &str = "\x1b[?1049h";
const LEAVE_ALTERNATE_SCREEN: &str = "\x1b[?1049l";
const MOUSE_CAPTURE_OFF: &str = "\x1b[?1000l";

#[test]
fn keys_edit_the_board_and_the_result_is_printed_after_the_screen_is_restored() {
    let mut session = Session::start("e4");
    session.wait_for_text("squares");
    // Right to f4, toggle it on; then finish.
    session.type_keys(b"l ");
    session.wait_for_text("805306368");
    session.type_keys(b"q");
    let (status, output) = session.wait();
    assert!(status.success(), "{status}: {output:?}");
    assert!(output.contains(ENTER_ALTERNATE_SCREEN));
    let restored = output
        .rfind(LEAVE_ALTERNATE_SCREEN)
        .expect("the alternate screen is left");
    assert!(output[..restored].contains(MOUSE_CAPTURE_OFF));
    // The result comes after the restore, on the normal screen.
    let result = lines(&output[restored..]);
    assert!(
        result.contains("0x0000000030000000\nbitboard! {\n"),
        "{result:?}"
    );
    assert!(result.contains("\n    4 . . . . X X . .\n"), "{result:?}");
}

#[test]
fn ctrl_c_restores_the_terminal_and_prints_nothing() {
    let mut session = Session::start("--numbering berbef 'knight(g5)'");
    session.wait_for_text("berbef");
    session.type_keys(b"f\x03");
    let (status, output) = session.wait();
    assert_eq!(status.code(), Some(130), "{output:?}");
    let restored = output
        .rfind(LEAVE_ALTERNATE_SCREEN)
        .expect("the alternate screen is left");
    assert!(output[..restored].contains(MOUSE_CAPTURE_OFF));
    assert!(!output.contains("bitboard! {"), "{output:?}");
}
