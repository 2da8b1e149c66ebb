//! The reader's one buffer: a fixed-size window onto the input that keeps
//! the token being read in one piece, and knows the line and column of
//! every byte in it.

use std::boxed::Box;
use std::io::{self, BufRead};
use std::vec;

/// Where a byte of the input is: its line and column (from 1) and its
/// offset (from 0).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Where {
    pub(crate) line: u64,
    pub(crate) column: u64,
    pub(crate) offset: u64,
}

/// [`io::Read::read`] for a reader that buffers its input: copies what
/// `input`'s buffer holds (filling it if empty) into `out`, as much as
/// fits, and consumes it.
pub(crate) fn read_from_buffer(input: &mut impl BufRead, out: &mut [u8]) -> io::Result<usize> {
    let available = input.fill_buf()?;
    let count = available.len().min(out.len());
    out[..count].copy_from_slice(&available[..count]);
    input.consume(count);
    Ok(count)
}

pub(super) struct Input<R> {
    inner: R,
    /// The window: `buf[pos..end]` is read and not yet consumed.
    buf: Box<[u8]>,
    pub(super) pos: usize,
    pub(super) end: usize,
    /// The offset in the input of `buf[0]`.
    base: u64,
    /// The line of `buf[pos]`, from 1, and the input offset where it starts.
    pub(super) line: u64,
    line_start: u64,
    eof: bool,
    /// Where the text being kept ([`Input::keep_from`]) starts in `buf`,
    /// while some is; what of it a refill moved out of the buffer is in
    /// `kept`.
    kept_from: Option<usize>,
    kept: Vec<u8>,
}

impl<R: BufRead> Input<R> {
    pub(super) fn new(inner: R, capacity: usize) -> Input<R> {
        Input {
            inner,
            buf: vec![0; capacity.max(64)].into_boxed_slice(),
            pos: 0,
            end: 0,
            base: 0,
            line: 1,
            line_start: 0,
            eof: false,
            kept_from: None,
            kept: Vec::new(),
        }
    }

    pub(super) fn capacity(&self) -> usize {
        self.buf.len()
    }

    pub(super) fn into_inner(self) -> R {
        self.inner
    }

    pub(super) fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The offset in the input of the first byte not consumed.
    pub(super) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Steps over a byte order mark at `pos`; the line starts after it.
    pub(super) fn skip_bom(&mut self) {
        self.pos += 3;
        self.line_start = self.base + self.pos as u64;
    }

    /// The bytes read and not consumed.
    #[inline]
    pub(super) fn window(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    #[inline]
    pub(super) fn bytes(&self, start: usize, len: usize) -> &[u8] {
        &self.buf[start..start + len]
    }

    /// The column (from 1) of `buf[at]`.
    #[inline]
    pub(super) fn column_of(&self, at: usize) -> u64 {
        (self.base + at as u64).saturating_sub(self.line_start) + 1
    }

    /// The line, column and offset of `buf[at]`.
    #[inline]
    pub(super) fn where_of(&self, at: usize) -> Where {
        Where {
            line: self.line,
            column: self.column_of(at),
            offset: self.base + at as u64,
        }
    }

    /// Numbers the input as if it started on `line` at byte `offset` (at a
    /// line start), before anything is read.
    pub(super) fn start_at(&mut self, line: u64, offset: u64) {
        self.line = line;
        self.base = offset;
        self.line_start = offset;
    }

    /// The offset of the current line's first byte.
    pub(super) fn line_start(&self) -> u64 {
        self.line_start
    }

    /// Whether `buf[pos]` is the first byte of a line.
    #[inline]
    pub(super) fn at_line_start(&self) -> bool {
        self.base + self.pos as u64 == self.line_start
    }

    /// Everything read into the buffer, consumed or not: `pos` and offsets
    /// from it index into this.
    #[inline]
    pub(super) fn buffered(&self) -> &[u8] {
        &self.buf[..self.end]
    }

    /// Notes `count` line breaks, the last at `buf[last]`.
    #[inline]
    pub(super) fn newlines_at(&mut self, count: u64, last: usize) {
        self.line += count;
        self.line_start = self.base + last as u64 + 1;
    }

    /// Notes a line break at `buf[at]`.
    #[inline]
    pub(super) fn newline_at(&mut self, at: usize) {
        self.line += 1;
        self.line_start = self.base + at as u64 + 1;
    }

    /// Makes at least `want` bytes available from `pos` (moving them to the
    /// front of the buffer if need be), as far as the input and the buffer
    /// allow; returns how many are available. Positions in the buffer
    /// change: callers keep offsets from `pos`.
    pub(super) fn fill(&mut self, want: usize) -> io::Result<usize> {
        while self.end - self.pos < want && !self.eof {
            if self.pos > 0 {
                if let Some(from) = self.kept_from {
                    // What the move drops of the kept text, kept aside.
                    self.kept.extend_from_slice(&self.buf[from..self.pos]);
                    self.kept_from = Some(0);
                }
                self.buf.copy_within(self.pos..self.end, 0);
                self.base += self.pos as u64;
                self.end -= self.pos;
                self.pos = 0;
            }
            if self.end == self.buf.len() {
                break;
            }
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if chunk.is_empty() {
                self.eof = true;
                break;
            }
            let count = chunk.len().min(self.buf.len() - self.end);
            self.buf[self.end..self.end + count].copy_from_slice(&chunk[..count]);
            self.inner.consume(count);
            self.end += count;
        }
        Ok(self.end - self.pos)
    }

    /// Starts keeping the text from `buf[at]` on (what was kept before is
    /// let go), so that [`Input::take_kept`] can hand it over whole however
    /// many refills come between.
    #[inline]
    pub(super) fn keep_from(&mut self, at: usize) {
        self.kept.clear();
        self.kept_from = Some(at);
    }

    /// Whether text is being kept.
    #[inline]
    pub(super) fn keeping(&self) -> bool {
        self.kept_from.is_some()
    }

    /// Stops keeping text.
    #[inline]
    pub(super) fn stop_keeping(&mut self) {
        self.kept_from = None;
    }

    /// The text kept from [`Input::keep_from`] up to `pos` (not included),
    /// and keeping stops; empty when none was being kept. It is read in
    /// place while it lies in the buffer, and copied once where a refill
    /// came between.
    pub(super) fn take_kept(&mut self) -> &[u8] {
        let end = self.pos;
        let Some(from) = self.kept_from.take() else {
            return &[];
        };
        if self.kept.is_empty() {
            return &self.buf[from..end];
        }
        self.kept.extend_from_slice(&self.buf[from..end]);
        &self.kept
    }

    /// The byte at `pos`, reading more if need be; `None` at the end.
    #[inline]
    pub(super) fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos < self.end {
            return Ok(Some(self.buf[self.pos]));
        }
        self.fill(1)?;
        Ok(self
            .buf
            .get(self.pos)
            .copied()
            .filter(|_| self.pos < self.end))
    }

    /// The length of the run of bytes from `pos + skip` that `belongs`
    /// accepts, with the byte after it available too when there is one;
    /// `None` when the run does not fit in the buffer.
    #[inline]
    pub(super) fn run(
        &mut self,
        skip: usize,
        belongs: impl Fn(u8) -> bool,
    ) -> io::Result<Option<usize>> {
        let mut len = skip;
        loop {
            if let Some(end) = self.buf[(self.pos + len).min(self.end)..self.end]
                .iter()
                .position(|&byte| !belongs(byte))
            {
                return Ok(Some(len + end - skip));
            }
            len = (self.end - self.pos).max(len);
            if self.fill(len + 1)? <= len {
                // The end of the input, or a full buffer.
                return Ok(if self.eof && self.end - self.pos == len {
                    Some(len - skip)
                } else {
                    None
                });
            }
        }
    }

    /// Skips spaces and line breaks (counting lines), and lines that start
    /// with `%` (PGN's escape mechanism). Returns the byte after them, not
    /// consumed, or `None` at the end of the input.
    #[inline]
    pub(super) fn skip_space(&mut self) -> io::Result<Option<u8>> {
        loop {
            while self.pos < self.end {
                let byte = self.buf[self.pos];
                match byte {
                    b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                    b'\n' => {
                        self.newline_at(self.pos);
                        self.pos += 1;
                    }
                    b'%' if self.at_line_start() => self.skip_line()?,
                    _ => return Ok(Some(byte)),
                }
            }
            if self.fill(1)? == 0 {
                return Ok(None);
            }
        }
    }

    /// Consumes the rest of the line, its line break included.
    pub(super) fn skip_line(&mut self) -> io::Result<()> {
        loop {
            if let Some(at) = self.window().iter().position(|&b| b == b'\n') {
                let at = self.pos + at;
                self.newline_at(at);
                self.pos = at + 1;
                return Ok(());
            }
            self.pos = self.end;
            if self.fill(1)? == 0 {
                return Ok(());
            }
        }
    }
}
