//! Building a Polyglot opening book from games: each move of each game's
//! opening counts for the side that played it, 2 for a win and 1 for a
//! draw (polyglot's `make-book` weighting), and the book keeps the moves
//! played in enough games.
//!
//! Memory stays bounded however many games go in: the counts are kept in a
//! run of fixed size, which is sorted, merged and spilled to a temporary
//! file when full; the runs are merged at the end, one entry of each at a
//! time.
//!
//! ```
//! use bitboards::book::{Book, Choose};
//! use bitboards::Position;
//! use bitboards_pgn::book::{BookBuilder, BuildOptions, GameMoves};
//! use bitboards_pgn::Reader;
//!
//! let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n\n[Result \"1-0\"]\n\n1. e4 c5 1-0\n";
//! let mut builder = BookBuilder::new(BuildOptions::default());
//! let mut game = GameMoves::default();
//! let mut reader = Reader::new(pgn.as_bytes());
//! while reader.read_game(&mut game)? {
//!     builder.add_game(&game)?;
//! }
//! let bytes = builder.finish()?;
//! let book = Book::from_bytes(&bytes[..])?;
//! // 1. e4 won twice for White (2 + 2), 1. d4 lost (0).
//! let start: Vec<_> = book.entries(&Position::START).map(|e| (e.mv.to_string(), e.weight)).collect();
//! assert_eq!(start, [("e2e4".to_string(), 4), ("d2d4".to_string(), 0)]);
//! assert_eq!(book.best(&Position::START, &Choose::default()).unwrap().mv.to_string(), "e2e4");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use std::cmp::Reverse;

use bitboards::book::{encode, write_position};
use bitboards::{Color, Move, Position};

use crate::result::GameResult;
use crate::visitor::{PgnMove, Visitor};

/// What goes into a book.
///
/// ```
/// use bitboards_pgn::book::BuildOptions;
///
/// let options = BuildOptions::default();
/// assert_eq!((options.max_ply, options.min_games), (40, 1));
/// ```
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Plies of each game that count (the opening): 40 by default.
    pub max_ply: usize,
    /// A move of a position is kept when played there in at least this
    /// many games (1 by default).
    pub min_games: u32,
    /// Only this side's moves, if given.
    pub only: Option<Color>,
    /// Only games whose two players are rated at least this (`WhiteElo`,
    /// `BlackElo`; a game without them is left out), if given.
    pub min_elo: Option<u32>,
    /// Entries held in memory before a run is spilled to disk (24 bytes
    /// each): 8 Mi by default, about 200 MB.
    pub run_entries: usize,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            max_ply: 40,
            min_games: 1,
            only: None,
            min_elo: None,
            run_entries: 8 << 20,
        }
    }
}

/// The moves of one game that a book counts, from reading it: a
/// [`Visitor`] that keeps each mainline move's key, move and side, up to a
/// ply limit, with the result and the ratings.
#[derive(Clone, Debug, Default)]
pub struct GameMoves {
    /// (Polyglot key of the position, the move, the side that played it).
    pub moves: Vec<(u64, Move, Color)>,
    /// The result that ends the movetext, or else the `Result` tag's.
    pub result: Option<GameResult>,
    /// `WhiteElo` and `BlackElo`, where they are numbers.
    pub elos: [Option<u32>; 2],
    /// Whether the game is Chess960 (a `Variant` tag naming it), which
    /// Polyglot books leave out.
    pub chess960: bool,
    /// Plies kept at the most (0: all).
    pub max_ply: usize,
}

impl Visitor for GameMoves {
    fn begin_game(&mut self, _: usize) {
        self.moves.clear();
        self.result = None;
        self.elos = [None; 2];
        self.chess960 = false;
    }

    fn tag(&mut self, name: &str, value: &str) {
        match name {
            "Result" => self.result = value.parse().ok(),
            "WhiteElo" => self.elos[0] = value.parse().ok(),
            "BlackElo" => self.elos[1] = value.parse().ok(),
            "Variant" => self.chess960 = crate::reader::is_chess960_variant(value),
            _ => {}
        }
    }

    fn wants_comments(&mut self) -> bool {
        false
    }

    fn skip_movetext(&mut self) -> bool {
        self.chess960
    }

    fn san(&mut self, played: PgnMove<'_>) {
        if (self.max_ply == 0 || self.moves.len() < self.max_ply) && !played.mv.is_null() {
            let before: &Position = played.before;
            self.moves
                .push((before.polyglot_key(), played.mv, before.side_to_move()));
        }
    }

    fn result(&mut self, result: GameResult) {
        if result != GameResult::Unknown {
            self.result = Some(result);
        }
    }
}

/// One counted move: the position's key, the move's bits, its
/// weight and the games it was played in. Sorted by key, then move.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Entry {
    key: u64,
    mv: u16,
    weight: u32,
    games: u32,
}

const ENTRY_BYTES: usize = 18;

impl Entry {
    fn write(self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(&self.key.to_le_bytes())?;
        out.write_all(&self.mv.to_le_bytes())?;
        out.write_all(&self.weight.to_le_bytes())?;
        out.write_all(&self.games.to_le_bytes())
    }

    fn read(input: &mut impl Read) -> io::Result<Option<Entry>> {
        let mut bytes = [0u8; ENTRY_BYTES];
        match input.read_exact(&mut bytes) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(error) => return Err(error),
        }
        let u32_at = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let mut key = [0; 8];
        key.copy_from_slice(&bytes[..8]);
        Ok(Some(Entry {
            key: u64::from_le_bytes(key),
            mv: u16::from_le_bytes([bytes[8], bytes[9]]),
            weight: u32_at(10),
            games: u32_at(14),
        }))
    }

    fn merge(&mut self, other: Entry) {
        self.weight = self.weight.saturating_add(other.weight);
        self.games = self.games.saturating_add(other.games);
    }
}

/// A spilled run: a temporary file, removed when dropped.
struct Run {
    path: PathBuf,
}

impl Drop for Run {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Builds a book from games in bounded memory; see the module's example.
pub struct BookBuilder {
    options: BuildOptions,
    run: Vec<Entry>,
    runs: Vec<Run>,
    used: u64,
    skipped: u64,
}

impl BookBuilder {
    /// A builder with `options`.
    #[must_use]
    pub fn new(options: BuildOptions) -> BookBuilder {
        BookBuilder {
            options,
            run: Vec::new(),
            runs: Vec::new(),
            used: 0,
            skipped: 0,
        }
    }

    /// A visitor that reads games for this builder (with its ply limit).
    #[must_use]
    pub fn visitor(&self) -> GameMoves {
        GameMoves {
            max_ply: self.options.max_ply,
            ..GameMoves::default()
        }
    }

    /// Games counted, and games left out (Chess960, no result, too low a
    /// rating).
    #[must_use]
    pub fn games(&self) -> (u64, u64) {
        (self.used, self.skipped)
    }

    /// Counts the moves of a game just read.
    ///
    /// # Errors
    /// An I/O error while spilling a full run to disk.
    pub fn add_game(&mut self, game: &GameMoves) -> io::Result<()> {
        let Some(result) = game.result.filter(|&result| result != GameResult::Unknown) else {
            self.skipped += 1;
            return Ok(());
        };
        let rated = match self.options.min_elo {
            None => true,
            Some(min) => game
                .elos
                .iter()
                .all(|elo| elo.is_some_and(|elo| elo >= min)),
        };
        if game.chess960 || !rated {
            self.skipped += 1;
            return Ok(());
        }
        self.used += 1;
        let limit = match self.options.max_ply {
            0 => usize::MAX,
            plies => plies,
        };
        for &(key, mv, side) in game.moves.iter().take(limit) {
            if self.options.only.is_some_and(|only| only != side) {
                continue;
            }
            let weight = match (result, side) {
                (GameResult::Draw, _) => 1,
                (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
                _ => 0,
            };
            self.run.push(Entry {
                key,
                mv: mv.to_bits(),
                weight,
                games: 1,
            });
        }
        if self.run.len() >= self.options.run_entries.max(1) {
            self.spill()?;
        }
        Ok(())
    }

    /// Sorts and merges the run in memory.
    fn compact(&mut self) {
        self.run.sort_unstable_by_key(|entry| (entry.key, entry.mv));
        self.run.dedup_by(|later, earlier| {
            let same = later.key == earlier.key && later.mv == earlier.mv;
            if same {
                earlier.merge(*later);
            }
            same
        });
    }

    /// Writes the run, sorted and merged, to a temporary file.
    fn spill(&mut self) -> io::Result<()> {
        static RUNS: AtomicU64 = AtomicU64::new(0);
        self.compact();
        let path = std::env::temp_dir().join(format!(
            "bitboards-book-{}-{}.run",
            std::process::id(),
            RUNS.fetch_add(1, Ordering::Relaxed)
        ));
        let run = Run { path };
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&run.path)?);
        for entry in self.run.drain(..) {
            entry.write(&mut out)?;
        }
        out.flush()?;
        self.runs.push(run);
        Ok(())
    }

    /// Writes the book to `out`: every move played in at least
    /// `min_games` games, merged over the runs and written one position at
    /// a time, so that memory stays bounded however large the book is.
    /// Returns the number of entries written.
    ///
    /// # Errors
    /// An I/O error reading a spilled run back or writing `out`.
    pub fn write(mut self, out: &mut impl Write) -> io::Result<u64> {
        self.compact();
        let min_games = self.options.min_games;
        let mut written = 0u64;
        let mut position: Vec<(u16, u64, u32)> = Vec::new();
        let mut position_key = None;
        let mut failed = None;
        let mut flush =
            |key: Option<u64>, moves: &mut Vec<(u16, u64, u32)>, out: &mut dyn Write| {
                if let Some(key) = key {
                    write_position(key, moves, |entry| {
                        if failed.is_none()
                            && let Err(error) = out.write_all(&entry)
                        {
                            failed = Some(error);
                        }
                        written += 1;
                    });
                }
                moves.clear();
            };
        let mut keep = |entry: Entry, out: &mut dyn Write| {
            if entry.games < min_games {
                return;
            }
            let Some(mv) = Move::from_bits(entry.mv) else {
                return;
            };
            if position_key != Some(entry.key) {
                flush(position_key, &mut position, out);
                position_key = Some(entry.key);
            }
            position.push((encode(mv), u64::from(entry.weight), 0));
        };
        self.for_each_merged(|entry| keep(entry, out))?;
        flush(position_key, &mut position, out);
        match failed {
            Some(error) => Err(error),
            None => Ok(written),
        }
    }

    /// Calls `each` with every entry of the runs, spilled and in memory,
    /// merged: in key and move order, each key and move once.
    fn for_each_merged(&self, mut each: impl FnMut(Entry)) -> io::Result<()> {
        if self.runs.is_empty() {
            for &entry in &self.run {
                each(entry);
            }
            return Ok(());
        }
        // A k-way merge of the spilled runs and the one in memory.
        let mut readers: Vec<BufReader<File>> = Vec::new();
        for run in &self.runs {
            readers.push(BufReader::with_capacity(1 << 16, File::open(&run.path)?));
        }
        let mut memory = self.run.iter().copied();
        let mut heap = BinaryHeap::new();
        for (index, reader) in readers.iter_mut().enumerate() {
            if let Some(entry) = Entry::read(reader)? {
                heap.push(Reverse((entry, index)));
            }
        }
        if let Some(entry) = memory.next() {
            heap.push(Reverse((entry, readers.len())));
        }
        let mut current: Option<Entry> = None;
        while let Some(Reverse((entry, source))) = heap.pop() {
            let next = match readers.get_mut(source) {
                Some(reader) => Entry::read(reader)?,
                None => memory.next(),
            };
            if let Some(next) = next {
                heap.push(Reverse((next, source)));
            }
            match &mut current {
                Some(current) if current.key == entry.key && current.mv == entry.mv => {
                    current.merge(entry);
                }
                _ => {
                    if let Some(done) = current.replace(entry) {
                        each(done);
                    }
                }
            }
        }
        if let Some(done) = current {
            each(done);
        }
        Ok(())
    }

    /// The book's bytes, as [`write`](BookBuilder::write) writes them.
    ///
    /// # Errors
    /// An I/O error reading a spilled run back.
    pub fn finish(self) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        self.write(&mut bytes)?;
        Ok(bytes)
    }
}
