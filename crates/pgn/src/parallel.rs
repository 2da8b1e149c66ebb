//! Reading one input on every core: the input is cut into chunks at game
//! boundaries, worker threads replay the chunks, and the games come back in
//! the order of the input.
//!
//! The workers cut the input in turn: each takes the next chunk (reading,
//! and decompressing if the input does, under a lock), replays it without
//! the lock, and hands its games on, so threads meet once per chunk (up to
//! a quarter of a megabyte), never per game. The calling thread is one of
//! the workers: it delivers what the others have done and reads a chunk
//! whenever nothing is ready, so that N threads share N cores (a thread
//! that only delivered would wake for every chunk and take a core from a
//! worker). A fixed number of chunks may be out at once (read and not yet
//! delivered), which bounds memory whatever the thread count and however
//! far one slow chunk holds back the ones after it.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};
use std::ops::Range;
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use crate::error::{PgnError, ReadError};
use crate::input::read_from_buffer;
use crate::reader::Reader;
use crate::visitor::Visitor;

/// What the chunks in flight may hold in all: the chunk size is this over
/// the number of chunks that may be out at once.
const MEMORY_BUDGET: usize = 32 << 20;
/// The largest and smallest chunk.
const MAX_CHUNK: usize = 256 << 10;
const MIN_CHUNK: usize = 64 << 10;

/// The number of threads a [`ParallelReader`] reads on unless told: as
/// many as the machine has cores (1 when that cannot be known).
///
/// ```
/// assert!(bitboards_pgn::default_thread_count() >= 1);
/// ```
#[must_use]
pub fn default_thread_count() -> usize {
    thread::available_parallelism().map_or(1, usize::from)
}

/// A reader of one input on several threads: the games in input order,
/// each handed to a visitor of its worker's own and turned into a value
/// there, then delivered on the calling thread.
///
/// The input is cut where a line starting with `[` follows a blank line
/// and the last line before the blank is not a tag: where the sequential
/// [`Reader`] also starts a new game. So the games, their numbers and
/// their errors (game, line, column, byte offset) are the same as with
/// [`Reader`], whatever the thread count; the one exception is a `{`
/// comment that spans a blank line followed by a line starting with `[`,
/// which no real file writes.
///
/// ```
/// use bitboards_pgn::{ParallelReader, PgnMove, Visitor};
///
/// /// Counts the moves of a game.
/// #[derive(Default)]
/// struct Plies(usize);
/// impl Visitor for Plies {
///     fn begin_game(&mut self, _: usize) {
///         self.0 = 0;
///     }
///     fn san(&mut self, _: PgnMove<'_>) {
///         self.0 += 1;
///     }
/// }
///
/// let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 Nf6 2. c4 *\n\n[Event \"c\"]\n\n1. e4 Ke7 *\n".repeat(1000);
/// let mut plies = Vec::new();
/// let mut errors = 0;
/// ParallelReader::new(pgn.as_bytes()).threads(2).for_each(
///     Plies::default,
///     |visitor| visitor.0,
///     |number, game| match game {
///         Ok(count) => plies.push((number, count)),
///         Err((_error, _partial)) => errors += 1,
///     },
/// )?;
/// assert_eq!(plies.len(), 2000);
/// assert_eq!(errors, 1000);
/// assert_eq!(plies[..3], [(1, 2), (2, 3), (4, 2)]);
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
pub struct ParallelReader<R> {
    input: R,
    /// The input when it is held in memory ([`ParallelReader::in_memory`]):
    /// its chunks are borrowed from it, `input` is empty.
    memory: Option<Memory>,
    threads: usize,
    chunk: Option<usize>,
    /// Hears of each chunk's size as it is cut; false stops the input.
    on_cut: Option<OnCut>,
}

/// Bytes a [`ParallelReader`] reads in place.
type Memory = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// [`ParallelReader::on_cut`]'s function.
type OnCut = Box<dyn FnMut(usize) -> bool + Send>;

/// A chunk's bytes: read into a buffer of its thread's, or a range of the
/// input held in memory.
enum Bytes {
    Read(Vec<u8>),
    Held(Memory, Range<usize>),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Read(bytes) => bytes,
            Bytes::Held(memory, range) => &(**memory).as_ref()[range.clone()],
        }
    }
}

/// The input of a reading game by game ([`ParallelReader::one_by_one`]):
/// the text in memory, read where it lies, or the stream through a buffer,
/// in pieces whose sizes `on_cut` hears as the reader takes them in.
pub(crate) struct Pieces<R> {
    text: Text<R>,
    /// The most bytes handed to the reader at once.
    piece: usize,
    on_cut: Option<OnCut>,
    /// The bytes taken in so far.
    taken: u64,
    /// Where the input ends for the reading, once `on_cut` has said stop:
    /// the end of the piece it was told of last.
    stop_at: Option<u64>,
}

/// Where [`Pieces`] takes its bytes from.
enum Text<R> {
    /// Text in memory, and where the next piece starts.
    Held(Memory, usize),
    Stream(io::BufReader<R>),
}

impl<R: Read> Read for Pieces<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        read_from_buffer(self, out)
    }
}

impl<R: Read> BufRead for Pieces<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let piece = self.piece;
        let rest = match &mut self.text {
            Text::Held(memory, at) => &(**memory).as_ref()[*at..],
            Text::Stream(stream) => stream.fill_buf()?,
        };
        Ok(&rest[..rest.len().min(piece)])
    }

    fn consume(&mut self, count: usize) {
        match &mut self.text {
            Text::Held(_, at) => *at += count,
            Text::Stream(stream) => stream.consume(count),
        }
        self.taken += count as u64;
        if count > 0
            && let Some(hear) = &mut self.on_cut
            && !hear(count)
        {
            self.stop_at = Some(self.taken);
            self.on_cut = None;
        }
    }
}

impl<R: Read> Reader<Pieces<R>> {
    /// The next game, as [`Reader::read_game`] reads it, unless the input
    /// was told to stop ([`ParallelReader::on_cut`]) and the last game
    /// ended at or past the end of the last piece `on_cut` heard of: then
    /// `Ok(false)`, the end.
    pub(crate) fn read_next<V: Visitor + ?Sized>(
        &mut self,
        visitor: &mut V,
    ) -> Result<bool, ReadError> {
        if self
            .get_ref()
            .stop_at
            .is_some_and(|end| self.offset() >= end)
        {
            return Ok(false);
        }
        self.read_game(visitor)
    }
}

/// A chunk of the input and where it starts.
struct Cut {
    index: usize,
    bytes: Bytes,
    /// The line (from 1) and byte offset of its first byte.
    line: u64,
    offset: u64,
}

/// What a worker made of a chunk.
struct Done<U> {
    index: usize,
    value: U,
    /// The games the chunk held, read or failed.
    games: usize,
    /// What ended the chunk early: an input that is not PGN.
    end: Option<ReadError>,
}

/// A chunk of the input as [`ParallelReader::for_each_chunk`] delivers it:
/// what its worker made of its games, and where they are in the input.
#[derive(Debug)]
pub struct Chunk<U> {
    /// What the `finish` of [`ParallelReader::for_each_chunk`] made of the
    /// chunk's games.
    pub value: U,
    /// The number of games in the input before the chunk's first.
    pub games_before: usize,
    /// The chunk's games, read or failed.
    pub games: usize,
    /// The errors of the chunk's games that failed, in order, each with its
    /// game's number in the input.
    pub errors: Vec<PgnError>,
}

/// Reads every game that `read_game` reads (as [`Reader::read_game`]
/// does), handing `each` the value `finish` makes of the visitor after a
/// game that reads, or the game's error, in order; until the input ends,
/// or fails, or is found not to be PGN (the error).
fn replay<V: Visitor, T>(
    mut read_game: impl FnMut(&mut V) -> Result<bool, ReadError>,
    visitor: &mut V,
    finish: &impl Fn(&mut V) -> T,
    mut each: impl FnMut(Result<T, (PgnError, T)>),
) -> Result<(), ReadError> {
    loop {
        match read_game(visitor) {
            Ok(true) => each(Ok(finish(visitor))),
            Ok(false) => return Ok(()),
            Err(ReadError::Game(error)) => each(Err((error, finish(visitor)))),
            Err(error) => return Err(error),
        }
    }
}

impl ParallelReader<io::Empty> {
    /// A reader over PGN text held in memory (decompressed): a memory-mapped
    /// file, say, or a `Vec<u8>`. The chunks are read where they lie, not
    /// copied into buffers as [`new`](ParallelReader::new)'s are; they end
    /// where `new`'s would, so the games, the chunks and what is made of
    /// them are the same either way.
    ///
    /// ```
    /// use bitboards_pgn::{ParallelReader, PgnMove, Visitor};
    ///
    /// #[derive(Default)]
    /// struct Plies(usize);
    /// impl Visitor for Plies {
    ///     fn begin_game(&mut self, _: usize) {
    ///         self.0 = 0;
    ///     }
    ///     fn san(&mut self, _: PgnMove<'_>) {
    ///         self.0 += 1;
    ///     }
    /// }
    ///
    /// let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n".repeat(1000).into_bytes();
    /// let mut plies = 0;
    /// ParallelReader::in_memory(pgn).threads(2).for_each(
    ///     Plies::default,
    ///     |visitor| visitor.0,
    ///     |_, game| plies += game.map_or(0, |count| count),
    /// )?;
    /// assert_eq!(plies, 2000);
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    pub fn in_memory(pgn: impl AsRef<[u8]> + Send + Sync + 'static) -> ParallelReader<io::Empty> {
        ParallelReader {
            memory: Some(Arc::new(pgn)),
            ..ParallelReader::new(io::empty())
        }
    }
}

impl<R: Read + Send> ParallelReader<R> {
    /// A reader over `input` (decompressed already: see
    /// [`decompress`](crate::decompress)), on as many threads as the
    /// machine has cores.
    ///
    /// ```
    /// use bitboards_pgn::ParallelReader;
    ///
    /// let reader = ParallelReader::new(&b"1. e4 *"[..]);
    /// assert!(reader.thread_count() >= 1);
    /// ```
    pub fn new(input: R) -> ParallelReader<R> {
        ParallelReader {
            input,
            memory: None,
            threads: default_thread_count(),
            chunk: None,
            on_cut: None,
        }
    }

    /// Has `hear` told the size in bytes of each chunk as it is cut, in
    /// input order: to count the input read (a progress line), or to stop
    /// early: when it returns false the input ends there, as if it had no
    /// more (the chunks cut before it are still read and delivered). On
    /// one thread, where [`for_each`](ParallelReader::for_each) reads the
    /// games one by one, `hear` is told of the input in pieces of at most
    /// the chunk size as the reader takes them in, and after a false the
    /// reading ends at the first game boundary the reader reaches past
    /// them.
    ///
    /// ```
    /// use bitboards_pgn::{ParallelReader, Visitor};
    ///
    /// struct Nothing;
    /// impl Visitor for Nothing {}
    ///
    /// let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n".repeat(1000);
    /// let mut cut = 0;
    /// let mut games = 0;
    /// ParallelReader::new(pgn.as_bytes())
    ///     .threads(1)
    ///     .chunk_size(1000)
    ///     .on_cut(move |bytes| {
    ///         cut += bytes;
    ///         cut < 5000
    ///     })
    ///     .for_each(|| Nothing, |_| (), |_, _| games += 1)?;
    /// // Told of 5,000 bytes and no more, the reader read on to the first
    /// // game that ends past them: games of 25 bytes, 200 or 201 of them.
    /// assert!((5000 / 25..=5000 / 25 + 1).contains(&games));
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    #[must_use]
    pub fn on_cut(mut self, hear: impl FnMut(usize) -> bool + Send + 'static) -> ParallelReader<R> {
        self.on_cut = Some(Box::new(hear));
        self
    }

    /// Reads on `threads` threads (at least one): the calling thread and
    /// `threads - 1` more. With one, the games are read on the calling
    /// thread, as [`Reader`] does.
    ///
    /// ```
    /// use bitboards_pgn::ParallelReader;
    ///
    /// assert_eq!(ParallelReader::new(&b""[..]).threads(0).thread_count(), 1);
    /// ```
    #[must_use]
    pub fn threads(mut self, threads: usize) -> ParallelReader<R> {
        self.threads = threads.max(1);
        self
    }

    /// Reads on `threads` threads when it is given, else on as many as
    /// [`new`](ParallelReader::new) chose (every core): for a caller whose
    /// user may or may not have said how many.
    ///
    /// ```
    /// use bitboards_pgn::{ParallelReader, default_thread_count};
    ///
    /// let given = ParallelReader::new(&b""[..]).threads_or_default(Some(3));
    /// let not_given = ParallelReader::new(&b""[..]).threads_or_default(None);
    /// assert_eq!(given.thread_count(), 3);
    /// assert_eq!(not_given.thread_count(), default_thread_count());
    /// ```
    #[must_use]
    pub fn threads_or_default(self, threads: Option<usize>) -> ParallelReader<R> {
        match threads {
            Some(threads) => self.threads(threads),
            None => self,
        }
    }

    /// The size of the chunks the input is cut into (a chunk grows past it
    /// only to hold a game longer than it). By default a share of 32 MiB
    /// between the chunks that may be out at once, from 64 KiB to 256 KiB.
    ///
    /// ```
    /// use bitboards_pgn::ParallelReader;
    ///
    /// let reader = ParallelReader::new(&b""[..]).chunk_size(4096);
    /// # let _ = reader;
    /// ```
    #[must_use]
    pub fn chunk_size(mut self, bytes: usize) -> ParallelReader<R> {
        self.chunk = Some(bytes.max(64));
        self
    }

    /// The same reader with its input boxed: readers of a stream and of
    /// text [in memory](ParallelReader::in_memory) as one type, for a
    /// caller that takes either.
    ///
    /// ```
    /// use bitboards_pgn::ParallelReader;
    ///
    /// let stream = ParallelReader::new(&b"1. e4 *"[..]).boxed();
    /// let held = ParallelReader::in_memory(b"1. e4 *".to_vec()).boxed();
    /// let readers = [stream, held];
    /// # let _ = readers;
    /// ```
    #[must_use]
    pub fn boxed<'a>(self) -> ParallelReader<Box<dyn Read + Send + 'a>>
    where
        R: 'a,
    {
        ParallelReader {
            input: Box::new(self.input),
            memory: self.memory,
            threads: self.threads,
            chunk: self.chunk,
            on_cut: self.on_cut,
        }
    }

    /// The number of threads that read, the calling thread included.
    #[must_use]
    pub fn thread_count(&self) -> usize {
        self.threads
    }

    /// A reader of the games one by one on the calling thread, whatever
    /// the thread count: with no chunks to cut, each game is read as soon
    /// as the one before it, where chunks would cost a pass to cut them and
    /// a copy of the text in memory into each. `on_cut` hears of the input
    /// in pieces of at most the chunk size, as the reader takes them in;
    /// after a false, [`Reader::read_next`] reads on until a game ends past
    /// what it was told of, and no further, as a chunked reading reads the
    /// chunks cut until then.
    pub(crate) fn one_by_one(self) -> Reader<Pieces<R>> {
        let text = match self.memory {
            Some(memory) => Text::Held(memory, 0),
            None => Text::Stream(io::BufReader::with_capacity(1 << 16, self.input)),
        };
        Reader::new(Pieces {
            text,
            piece: self.chunk.unwrap_or(MAX_CHUNK),
            on_cut: self.on_cut,
            taken: 0,
            stop_at: None,
        })
    }

    /// Reads every game. Each worker makes its visitor with `make`; after
    /// each game, `finish` turns the visitor into the game's value (on the
    /// worker). `deliver` gets each game's number (from 1) and its value,
    /// or for a game that fails its error and the value `finish` made of
    /// what was read of it before the error (its tags, its first moves),
    /// in input order, on the calling thread.
    ///
    /// A visitor's [`Visitor::begin_game`] hears the game's number within
    /// its chunk, not in the input: use the number `deliver` gets.
    ///
    /// # Errors
    /// [`ReadError::Io`] when the input fails (the games read before are
    /// delivered first), [`ReadError::NotPgn`] when it is not PGN at all.
    /// A malformed game is not an error of the whole: it goes to `deliver`.
    pub fn for_each<V, T>(
        self,
        make: impl Fn() -> V + Sync,
        finish: impl Fn(&mut V) -> T + Sync,
        mut deliver: impl FnMut(usize, Result<T, (PgnError, T)>),
    ) -> Result<(), ReadError>
    where
        V: Visitor,
        T: Send,
    {
        if self.threads == 1 {
            let mut number = 0;
            let each = |game| {
                number += 1;
                deliver(number, game);
            };
            let mut reader = self.one_by_one();
            return replay(
                |visitor| reader.read_next(visitor),
                &mut make(),
                &finish,
                each,
            );
        }
        self.run(
            make,
            |visitor, reader| {
                let mut games = Vec::new();
                let read_game = |visitor: &mut V| reader.read_game(visitor);
                let end = replay(read_game, visitor, &finish, |game| games.push(game)).err();
                let count = games.len();
                (games, count, end)
            },
            |games, before| {
                for (number, game) in (before + 1..).zip(games) {
                    deliver(
                        number,
                        game.map_err(|(mut error, partial)| {
                            error.game = number;
                            (error, partial)
                        }),
                    );
                }
            },
        )
    }

    /// Reads every game, folding the games of each chunk into one value on
    /// the worker that read them, and delivers those values in input order.
    /// Where [`for_each`](Self::for_each) hands each game across threads
    /// and leaves the calling thread to put them together, this leaves the
    /// calling thread only the chunks to join: a table's rows, say, built
    /// where the games were read.
    ///
    /// Each worker makes its visitor and its accumulator with `make`; after
    /// each game, `game` hears of it: its index in its chunk (from 0; the
    /// chunk's [`Chunk::games_before`] gives its place in the input) and,
    /// for a game that failed, its error (numbered within its chunk:
    /// [`Chunk::errors`] has it numbered in the input); at the end of each chunk `finish` turns the accumulator
    /// into the chunk's value (and readies it for the next chunk);
    /// `deliver` gets the chunks in input order, on the calling thread. With
    /// one thread the chunks are read on the calling thread, so the chunks
    /// and their values are the same whatever the thread count.
    ///
    /// ```
    /// use bitboards_pgn::{ParallelReader, PgnMove, Visitor};
    ///
    /// /// Counts the moves of a game.
    /// #[derive(Default)]
    /// struct Plies(usize);
    /// impl Visitor for Plies {
    ///     fn begin_game(&mut self, _: usize) {
    ///         self.0 = 0;
    ///     }
    ///     fn san(&mut self, _: PgnMove<'_>) {
    ///         self.0 += 1;
    ///     }
    /// }
    ///
    /// let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 *\n\n".repeat(1000);
    /// let (mut plies, mut games, mut errors) = (0, 0, Vec::new());
    /// ParallelReader::new(pgn.as_bytes()).threads(2).chunk_size(4096).for_each_chunk(
    ///     || (Plies::default(), 0),
    ///     |visitor, sum, _, error| *sum += if error.is_none() { visitor.0 } else { 0 },
    ///     |sum| std::mem::take(sum),
    ///     |chunk| {
    ///         assert_eq!(chunk.games_before, games);
    ///         (plies, games) = (plies + chunk.value, games + chunk.games);
    ///         errors.extend(chunk.errors.iter().map(|error| error.game()));
    ///     },
    /// )?;
    /// assert_eq!((plies, games), (2000, 2000));
    /// assert_eq!(errors[..3], [2, 4, 6]);
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    ///
    /// # Errors
    /// As [`for_each`](Self::for_each)'s.
    pub fn for_each_chunk<V, A, U>(
        self,
        make: impl Fn() -> (V, A) + Sync,
        game: impl Fn(&mut V, &mut A, usize, Option<&PgnError>) + Sync,
        finish: impl Fn(&mut A) -> U + Sync,
        deliver: impl FnMut(Chunk<U>),
    ) -> Result<(), ReadError>
    where
        V: Visitor,
        U: Send,
    {
        self.for_each_visited_chunk(make, game, |_, acc| finish(acc), deliver)
    }

    /// [`for_each_chunk`](Self::for_each_chunk) whose `finish` has the
    /// visitor too: for a visitor that builds the chunk's value itself (the
    /// game table's columns).
    pub(crate) fn for_each_visited_chunk<V, A, U>(
        self,
        make: impl Fn() -> (V, A) + Sync,
        game: impl Fn(&mut V, &mut A, usize, Option<&PgnError>) + Sync,
        finish: impl Fn(&mut V, &mut A) -> U + Sync,
        mut deliver: impl FnMut(Chunk<U>),
    ) -> Result<(), ReadError>
    where
        V: Visitor,
        U: Send,
    {
        self.run(
            make,
            |(visitor, acc), reader| {
                let (mut games, mut errors) = (0, Vec::new());
                let end = loop {
                    match reader.read_game(visitor) {
                        Ok(true) => game(visitor, acc, games, None),
                        Ok(false) => break None,
                        Err(ReadError::Game(mut error)) => {
                            game(visitor, acc, games, Some(&error));
                            // Numbered within the chunk until delivery.
                            error.game = games + 1;
                            errors.push(error);
                        }
                        Err(error) => break Some(error),
                    }
                    games += 1;
                };
                ((finish(visitor, acc), errors, games), games, end)
            },
            |(value, mut errors, games), games_before| {
                for error in &mut errors {
                    error.game += games_before;
                }
                deliver(Chunk {
                    value,
                    games_before,
                    games,
                    errors,
                });
            },
        )
    }

    /// Cuts the input into chunks and has `chunk` read each with the state
    /// `make` made for its thread (the value, the games it held and what
    /// ended it early); hands `deliver` the values in input order, with the
    /// number of games before each. On the calling thread with one thread.
    fn run<S, U: Send>(
        self,
        make: impl Fn() -> S + Sync,
        chunk: impl Fn(&mut S, &mut Reader<&[u8]>) -> (U, usize, Option<ReadError>) + Sync,
        mut deliver: impl FnMut(U, usize),
    ) -> Result<(), ReadError> {
        let in_flight = 2 * self.threads + 2;
        let chunk_size = self
            .chunk
            .unwrap_or((MEMORY_BUDGET / in_flight).clamp(MIN_CHUNK, MAX_CHUNK));
        let mut cutter = Cutter {
            input: self.input,
            memory: self.memory.map(|memory| (memory, 0)),
            on_cut: self.on_cut,
            chunk_size,
            carry: Vec::new(),
            index: 0,
            line: 1,
            offset: 0,
            eof: false,
            error: None,
        };
        if self.threads == 1 {
            let mut state = make();
            let mut before = 0;
            let mut spare = Vec::new();
            while let Some(cut) = cutter.next(core::mem::take(&mut spare)) {
                let (value, games, end) = chunk(&mut state, &mut cut.reader());
                spare = cut.into_buffer();
                deliver(value, before);
                before += games;
                if let Some(end) = end {
                    return Err(end);
                }
            }
            return cutter
                .error
                .map_or(Ok(()), |error| Err(ReadError::Io(error)));
        }
        let cutter = Mutex::new(cutter);
        let (done_tx, done_rx) = sync_channel::<Done<U>>(in_flight);
        // Credits: a thread takes one per chunk it cuts, delivery gives it
        // back, so that at most `in_flight` chunks are out at once.
        let (credit_tx, credit_rx) = sync_channel::<()>(in_flight);
        for _ in 0..in_flight {
            let _ = credit_tx.send(());
        }
        let credit_rx = Mutex::new(credit_rx);
        thread::scope(|scope| {
            // The calling thread is one of the workers (see the module's
            // docs): a deliverer beside N workers would wake for every chunk
            // and take a core from one of them, so `threads(N)` is N threads
            // in all (docs/performance.md, "N threads on N cores").
            for _ in 1..self.threads {
                let done_tx = done_tx.clone();
                let (cutter, credits, make, chunk) = (&cutter, &credit_rx, &make, &chunk);
                scope.spawn(move || work(cutter, credits, &done_tx, make, chunk));
            }
            drop(done_tx);
            let mut order = Reorder {
                waiting: VecDeque::new(),
                next: 0,
                before: 0,
            };
            let mut state = make();
            let mut spare = Vec::new();
            let delivered = loop {
                // Deliver what the workers have done; else read a chunk if
                // one may go out; else wait for a worker's.
                let done = match done_rx.try_recv() {
                    Ok(done) => done,
                    Err(TryRecvError::Disconnected) => break Ok(()),
                    Err(TryRecvError::Empty) if take_credit(&credit_rx) => {
                        match read_next(&cutter, &mut spare, &mut state, &chunk) {
                            Some(done) => done,
                            // The input is cut: the workers' last chunks.
                            None => {
                                break done_rx.iter().try_for_each(|done| {
                                    order.put(done, &credit_tx, &mut deliver)
                                });
                            }
                        }
                    }
                    Err(TryRecvError::Empty) => match done_rx.recv() {
                        Ok(done) => done,
                        Err(_) => break Ok(()),
                    },
                };
                if let Err(error) = order.put(done, &credit_tx, &mut deliver) {
                    break Err(error);
                }
            };
            // Stopped early (not PGN) or done: the workers find no credit or
            // no one to send to, and end.
            drop(done_rx);
            drop(credit_tx);
            delivered
        })?;
        // An I/O error comes after the games read before it.
        match cutter
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .error
        {
            Some(error) => Err(ReadError::Io(error)),
            None => Ok(()),
        }
    }
}

/// The input and where its next chunk starts: the workers cut it in turn.
struct Cutter<R> {
    input: R,
    /// The input held in memory, and where its next chunk starts.
    memory: Option<(Memory, usize)>,
    on_cut: Option<OnCut>,
    chunk_size: usize,
    /// What was read past the last cut.
    carry: Vec<u8>,
    index: usize,
    line: u64,
    offset: u64,
    eof: bool,
    /// The input's error, which ends the cutting.
    error: Option<io::Error>,
}

impl<R: Read> Cutter<R> {
    /// The next chunk, ending at a game boundary (or the input's end), in
    /// `buffer` (a chunk's that was read: its memory is written already);
    /// `None` when the input is used up or failed.
    fn next(&mut self, buffer: Vec<u8>) -> Option<Cut> {
        let (bytes, len) = match self.memory.take() {
            Some((memory, start)) => {
                let end = start + self.held_end(&(*memory).as_ref()[start..])?;
                self.memory = Some((memory.clone(), end));
                (Bytes::Held(memory, start..end), end - start)
            }
            None => {
                let bytes = self.read_next(buffer)?;
                let len = bytes.len();
                (Bytes::Read(bytes), len)
            }
        };
        if let Some(hear) = &mut self.on_cut
            && !hear(len)
        {
            // The input ends after this chunk.
            self.eof = true;
            self.carry.clear();
            self.memory = None;
            self.on_cut = None;
        }
        let lines = memchr::memchr_iter(b'\n', bytes.as_slice()).count() as u64;
        let chunk = Cut {
            index: self.index,
            bytes,
            line: self.line,
            offset: self.offset,
        };
        self.index += 1;
        self.line += lines;
        self.offset += len as u64;
        Some(chunk)
    }

    /// Where the next chunk of `rest` (the input held in memory, from
    /// where the last chunk ended) ends: where a chunk read from a stream
    /// would, so that the chunks are the same either way. `None` at the
    /// end.
    fn held_end(&self, rest: &[u8]) -> Option<usize> {
        if rest.is_empty() || self.eof {
            return None;
        }
        let mut want = self.chunk_size;
        Some(loop {
            if want >= rest.len() {
                break rest.len();
            }
            if let Some(at) = last_boundary(&rest[..want], want / 2) {
                break at;
            }
            want += self.chunk_size;
        })
    }

    /// The next chunk read from the stream into `buffer`.
    fn read_next(&mut self, mut buffer: Vec<u8>) -> Option<Vec<u8>> {
        loop {
            if self.error.is_some() || self.eof && self.carry.is_empty() {
                return None;
            }
            let mut bytes = core::mem::take(&mut buffer);
            bytes.clear();
            bytes.extend_from_slice(&self.carry);
            self.carry.clear();
            let mut want = self.chunk_size;
            let end = loop {
                if !self.eof {
                    match fill(&mut self.input, &mut bytes, want) {
                        Ok(eof) => self.eof = eof,
                        Err(error) => {
                            // What was read before the error is still read.
                            self.error = Some(error);
                            break bytes.len();
                        }
                    }
                }
                if self.eof {
                    break bytes.len();
                }
                // Cut after the first half, so that a chunk is never tiny.
                if let Some(at) = last_boundary(&bytes, bytes.len() / 2) {
                    break at;
                }
                // One game longer than the chunk: read on.
                want = bytes.len() + self.chunk_size;
            };
            self.carry.extend_from_slice(&bytes[end..]);
            bytes.truncate(end);
            if bytes.is_empty() {
                continue;
            }
            return Some(bytes);
        }
    }
}

/// Reads until `bytes` holds `want` bytes or the input ends; whether it
/// ended. On an error, what was read before it is kept.
fn fill(input: &mut impl Read, bytes: &mut Vec<u8>, want: usize) -> io::Result<bool> {
    let missing = want.saturating_sub(bytes.len());
    bytes.reserve(missing);
    // Into the spare capacity as it is: a file is read without first
    // zeroing what it overwrites.
    let read = input.take(missing as u64).read_to_end(bytes)?;
    Ok(read < missing)
}

/// The last place in `bytes` at or after `from` where a game starts: a
/// line beginning with `[` after a blank line, whose last line before the
/// blank is not itself a tag (tags separated by a blank line belong to one
/// game). The index of that `[`.
fn last_boundary(bytes: &[u8], from: usize) -> Option<usize> {
    let mut end = bytes.len();
    while end > from {
        let open = from + memchr::memrchr(b'[', &bytes[from..end])?;
        end = open;
        if open == 0 || bytes[open - 1] != b'\n' {
            continue;
        }
        // The line before: blank (spaces, tabs, CR)?
        let mut at = open - 1;
        while at > 0 && matches!(bytes[at - 1], b' ' | b'\t' | b'\r') {
            at -= 1;
        }
        if at == 0 || bytes[at - 1] != b'\n' {
            continue;
        }
        // The last line that is not blank: not a tag.
        let mut before = at - 1;
        while before > 0 && matches!(bytes[before - 1], b' ' | b'\t' | b'\r' | b'\n') {
            before -= 1;
        }
        let line_start = bytes[..before]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
        if bytes[line_start..before].trim_ascii_start().first() != Some(&b'[') {
            return Some(open);
        }
    }
    None
}

impl Cut {
    /// Reads the chunk with `chunk` and the thread's `state`; what it made,
    /// and the chunk's buffer, for the next one.
    fn read<S, U>(
        self,
        state: &mut S,
        chunk: &impl Fn(&mut S, &mut Reader<&[u8]>) -> (U, usize, Option<ReadError>),
    ) -> (Done<U>, Vec<u8>) {
        let (value, games, end) = chunk(state, &mut self.reader());
        let done = Done {
            index: self.index,
            value,
            games,
            end,
        };
        (done, self.into_buffer())
    }

    /// The buffer the chunk was read into, for the next one (an empty one
    /// for a chunk of an input held in memory).
    fn into_buffer(self) -> Vec<u8> {
        match self.bytes {
            Bytes::Read(bytes) => bytes,
            Bytes::Held(..) => Vec::new(),
        }
    }

    /// A reader of the chunk, numbering its lines and offsets in the input.
    fn reader(&self) -> Reader<&[u8]> {
        let mut reader = Reader::new(self.bytes.as_slice());
        reader.start_at(self.line, self.offset, self.index == 0);
        reader
    }
}

/// A worker: takes a credit, cuts the next chunk, reads it, hands on what
/// it made; until the input ends or delivery stops.
fn work<R: Read, S, U>(
    cutter: &Mutex<Cutter<R>>,
    credits: &Mutex<Receiver<()>>,
    done: &SyncSender<Done<U>>,
    make: &impl Fn() -> S,
    chunk: &impl Fn(&mut S, &mut Reader<&[u8]>) -> (U, usize, Option<ReadError>),
) {
    let mut state = make();
    let mut spare = Vec::new();
    loop {
        let credit = credits
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .recv();
        if credit.is_err() {
            return;
        }
        let Some(made) = read_next(cutter, &mut spare, &mut state, chunk) else {
            return;
        };
        if done.send(made).is_err() {
            return;
        }
    }
}

/// Cuts the next chunk into `spare` (the thread's last chunk's buffer) and
/// reads it with `chunk` and the thread's `state`, the cutter unlocked;
/// `None` when the input is cut. `spare` is then the chunk's buffer.
fn read_next<R: Read, S, U>(
    cutter: &Mutex<Cutter<R>>,
    spare: &mut Vec<u8>,
    state: &mut S,
    chunk: &impl Fn(&mut S, &mut Reader<&[u8]>) -> (U, usize, Option<ReadError>),
) -> Option<Done<U>> {
    let cut = cutter
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .next(core::mem::take(spare))?;
    let done;
    (done, *spare) = cut.read(state, chunk);
    Some(done)
}

/// Whether a chunk may go out: a credit, taken without waiting. A worker
/// holding the credits' lock is waiting for one: none is free.
fn take_credit(credits: &Mutex<Receiver<()>>) -> bool {
    credits
        .try_lock()
        .is_ok_and(|credits| credits.try_recv().is_ok())
}

/// The chunks read ahead of the next one due, and the number of games
/// before it: delivers the chunks in input order.
struct Reorder<U> {
    /// The chunks done ahead of the next one due, by their distance from it.
    waiting: VecDeque<Option<Done<U>>>,
    next: usize,
    before: usize,
}

impl<U> Reorder<U> {
    /// Takes a chunk that is done and delivers every chunk now due, each
    /// with the number of games before it, giving back its credit; stops at
    /// an input that is not PGN.
    fn put(
        &mut self,
        finished: Done<U>,
        credits: &SyncSender<()>,
        deliver: &mut impl FnMut(U, usize),
    ) -> Result<(), ReadError> {
        let slot = finished.index - self.next;
        if self.waiting.len() <= slot {
            self.waiting.resize_with(slot + 1, || None);
        }
        self.waiting[slot] = Some(finished);
        while let Some(Some(_)) = self.waiting.front() {
            let Some(Some(chunk)) = self.waiting.pop_front() else {
                break;
            };
            self.next += 1;
            let _ = credits.send(());
            deliver(chunk.value, self.before);
            self.before += chunk.games;
            if let Some(end) = chunk.end {
                return Err(end);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::last_boundary;

    #[test]
    fn boundaries_are_blank_lines_before_tags_not_between_tags() {
        let text = b"[A \"1\"]\n\n1. e4 *\n\n[B \"2\"]\n\n[C \"3\"]\n\n1. d4 *\n";
        // The last `[` follows a tag line and a blank: the same game.
        let at = last_boundary(text, 0).unwrap();
        assert_eq!(&text[at..at + 2], b"[B");
        assert_eq!(last_boundary(text, at + 1), None);
        assert_eq!(last_boundary(b"1. e4 [%clk] *", 0), None);
        assert_eq!(last_boundary(b"1. e4 *\r\n\r\n[X \"\"]", 0), Some(11));
    }
}
