//! The engine's process: started with piped standard input and output, its
//! output read line by line by a thread of its own into a bounded channel
//! (so that every wait has a deadline, and an engine that writes faster
//! than it is read waits instead of filling the memory), and always shut
//! down and reaped.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line kept; the rest of a longer one is dropped (an engine
/// writing without newlines cannot fill the memory).
const MAX_LINE: usize = 1 << 16;

/// The lines read ahead of the client at most: beyond them the reading
/// thread waits, and so does an engine writing faster than its lines are
/// taken (64 MiB at the very most, lines being at most [`MAX_LINE`]).
const LINES_AHEAD: usize = 1024;

/// The engines running now: their process ids, and whether each leads a
/// process group of its own. What [`kill_all`] kills.
static RUNNING: Mutex<Vec<(u32, bool)>> = Mutex::new(Vec::new());

/// Kills every engine this process has started and not yet reaped, each
/// with its process group where it has one of its own (an engine behind a
/// wrapper script too): for a program about to exit on a signal (SIGINT,
/// SIGTERM), whose engines' drops will not run. The engines are reaped by
/// their owners, or by init once this process has exited.
///
/// ```
/// bitboards_engine::kill_all(); // no engine running: nothing to do
/// ```
pub fn kill_all() {
    let running = RUNNING
        .lock()
        .map(|running| running.clone())
        .unwrap_or_default();
    for (pid, group) in running {
        kill_process(pid, group);
    }
}

/// Kills the process `pid`, or with `group` the process group it leads;
/// what already exited is not there to kill.
fn kill_process(pid: u32, group: bool) {
    #[cfg(unix)]
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let signal = rustix::process::Signal::KILL;
        let _ = if group {
            rustix::process::kill_process_group(pid, signal)
        } else {
            rustix::process::kill_process(pid, signal)
        };
    }
    #[cfg(not(unix))]
    let _ = (pid, group);
}

/// Takes `pid` off [`kill_all`]'s list.
fn forget(pid: u32) {
    if let Ok(mut running) = RUNNING.lock() {
        running.retain(|&(running, _)| running != pid);
    }
}

/// What a wait for the next line found.
#[derive(Debug)]
pub(crate) enum Next {
    /// A line, without its line ending (invalid UTF-8 replaced).
    Line(String),
    /// The engine's output ended: it exited, or closed it.
    Eof,
    /// Nothing before the deadline.
    Timeout,
}

/// A running engine process.
#[derive(Debug)]
pub(crate) struct Process {
    child: Child,
    /// Whether the process leads a process group of its own.
    group: bool,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    eof: bool,
    reaped: bool,
}

impl Process {
    /// Starts `path` with `args`, its standard error inherited or dropped;
    /// with `group`, in a process group of its own (on Unix), so that what
    /// it starts in turn is killed with it.
    pub(crate) fn spawn(
        path: &str,
        args: &[String],
        inherit_stderr: bool,
        group: bool,
    ) -> io::Result<Process> {
        let mut command = Command::new(path);
        #[cfg(unix)]
        if group {
            std::os::unix::process::CommandExt::process_group(&mut command, 0);
        }
        let group = group && cfg!(unix);
        let mut child = command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if inherit_stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()?;
        if let Ok(mut running) = RUNNING.lock() {
            running.push((child.id(), group));
        }
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let (sender, lines) = mpsc::sync_channel(LINES_AHEAD);
        if let Some(stdout) = stdout {
            let spawned = thread::Builder::new()
                .name("uci-reader".to_owned())
                .spawn(move || read_lines(stdout, |line| sender.send(line).is_ok()));
            if let Err(error) = spawned {
                kill_process(child.id(), group);
                let _ = child.kill();
                let _ = child.wait();
                forget(child.id());
                return Err(error);
            }
        }
        Ok(Process {
            child,
            group,
            stdin,
            lines,
            eof: false,
            reaped: false,
        })
    }

    /// The process id.
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes `text` (whole lines) to the engine at once.
    pub(crate) fn send(&mut self, text: &str) -> io::Result<()> {
        match self.stdin.as_mut() {
            Some(stdin) => {
                stdin.write_all(text.as_bytes())?;
                stdin.flush()
            }
            None => Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the engine's input is closed",
            )),
        }
    }

    /// The next line, waiting until `deadline` at most: first polling for
    /// up to `spin` (yielding the core to other threads in between), then
    /// asleep. An engine answers a short search in a few hundred
    /// microseconds, and waking a sleeping thread costs about a quarter of
    /// that; polling first saves it.
    pub(crate) fn next_line(&mut self, deadline: Instant, spin: Duration) -> Next {
        if self.eof {
            return Next::Eof;
        }
        let started = Instant::now();
        let spin_until = (started + spin).min(deadline);
        loop {
            match self.lines.try_recv() {
                Ok(line) => return Next::Line(line),
                Err(TryRecvError::Disconnected) => {
                    self.eof = true;
                    return Next::Eof;
                }
                Err(TryRecvError::Empty) if Instant::now() < spin_until => thread::yield_now(),
                Err(TryRecvError::Empty) => break,
            }
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Next::Line(line),
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Next::Eof
            }
        }
    }

    /// The exit status once the output has ended, waiting a little for the
    /// exit that usually follows (the process is reaped if it exited).
    pub(crate) fn exit_status(&mut self) -> Option<String> {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped();
                    return Some(status.to_string());
                }
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    /// Whether the process has been reaped.
    pub(crate) fn is_reaped(&self) -> bool {
        self.reaped
    }

    /// Sends `quit`, closes the engine's input, waits up to `grace` for it
    /// to exit, kills it if it has not, and reaps it. Returns whether it
    /// had to be killed.
    pub(crate) fn shutdown(&mut self, grace: Duration) -> bool {
        if self.reaped {
            return false;
        }
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.write_all(b"quit\n");
            let _ = stdin.flush();
            // Dropped here: the engine reads the end of its input.
        }
        let until = Instant::now() + grace;
        let mut pause = Duration::from_micros(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => {
                    self.reaped();
                    return false;
                }
                Ok(None) if Instant::now() < until => {
                    // An engine blocked writing to a full channel reads no
                    // `quit`: take its lines.
                    while self.lines.try_recv().is_ok() {}
                    thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(10));
                }
                _ => {
                    self.kill();
                    return true;
                }
            }
        }
    }

    /// Kills the process now, with its process group, and reaps it.
    pub(crate) fn kill(&mut self) {
        if self.reaped {
            return;
        }
        self.stdin = None;
        if self.group {
            kill_process(self.child.id(), true);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reaped();
    }

    /// Marks the process reaped, after killing what is left of its group
    /// if it has one (what a wrapper script started and left running), and
    /// takes it off [`kill_all`]'s list.
    fn reaped(&mut self) {
        if self.group {
            kill_process(self.child.id(), true);
        }
        self.reaped = true;
        forget(self.child.id());
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.shutdown(Duration::from_millis(500));
    }
}

/// Reads `input` line by line into `deliver` until the end, an error, or
/// `deliver` returning `false`. A line longer than [`MAX_LINE`] is cut
/// there; `\r\n` endings are taken as `\n`.
pub(crate) fn read_lines(input: impl Read, mut deliver: impl FnMut(String) -> bool) {
    let mut reader = BufReader::with_capacity(1 << 14, input);
    let mut line: Vec<u8> = Vec::new();
    loop {
        let (used, complete) = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buffer) => match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    let room = MAX_LINE.saturating_sub(line.len());
                    line.extend_from_slice(&buffer[..at.min(room)]);
                    (at + 1, true)
                }
                None => {
                    let room = MAX_LINE.saturating_sub(line.len());
                    line.extend_from_slice(&buffer[..buffer.len().min(room)]);
                    (buffer.len(), false)
                }
            },
        };
        reader.consume(used);
        if complete {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let text = String::from_utf8_lossy(&line).into_owned();
            line.clear();
            if !deliver(text) {
                return;
            }
        }
    }
    if !line.is_empty() {
        deliver(String::from_utf8_lossy(&line).into_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_cut_and_endings() {
        let mut input = b"uciok\r\nid name X\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend_from_slice(b"\n\xff\xfe\nlast");
        let mut lines = Vec::new();
        read_lines(&input[..], |line| {
            lines.push(line);
            true
        });
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[0], "uciok");
        assert_eq!(lines[1], "id name X");
        assert_eq!(lines[2].len(), MAX_LINE);
        assert_eq!(lines[3], "\u{fffd}\u{fffd}");
        assert_eq!(lines[4], "last");
    }
}
