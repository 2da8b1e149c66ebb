//! Building an index from PGN, on every core, and merging its segments.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use bitboards::Color;
use bitboards_pgn::{ReadCounter, Source};

use crate::IndexError;
use crate::format::{FLAG_MASTERS, MASTERS_ROW_GAMES, segment_path};
use crate::game::{GameReader, GameRecord, Skip};
use crate::index::Manifest;
use crate::key::Key;
use crate::model::{RatingGroup, Stats, winner_of};
use crate::read::Segment;
use crate::write::{
    EncodedRun, Facts, Keep, Positions, Row, Run, StoredGame, combine, encode_blocks, encode_rows,
    write_segment,
};
use rayon::prelude::*;

/// How an index is built.
///
/// ```
/// use bitboards_explorer::BuildOptions;
///
/// let options = BuildOptions::default();
/// assert_eq!(options.max_ply, 50);
/// ```
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Plies of each game counted (50, as Lichess's explorer; every ply
    /// for [`BuildOptions::masters`], as its masters explorer).
    pub max_ply: usize,
    /// Threads reading (every core when `None`).
    pub threads: Option<usize>,
    /// A masters index (kept apart: `--masters`).
    pub masters: bool,
    /// Games held in memory before they are written out as a segment
    /// (about 5 KB each): 400,000 by default, about 2 GB.
    pub segment_games: usize,
}

impl BuildOptions {
    /// A masters index's options: every ply counted.
    ///
    /// ```
    /// use bitboards_explorer::BuildOptions;
    ///
    /// let options = BuildOptions::masters();
    /// assert!(options.masters && options.max_ply == usize::MAX);
    /// ```
    #[must_use]
    pub fn masters() -> BuildOptions {
        BuildOptions {
            max_ply: usize::MAX,
            masters: true,
            ..BuildOptions::default()
        }
    }
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            max_ply: 50,
            threads: None,
            masters: false,
            segment_games: 400_000,
        }
    }
}

/// What a build did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildReport {
    /// Games read, counted or not.
    pub games_read: u64,
    /// Games indexed.
    pub games_indexed: u64,
    /// Games left out, by reason (those of [`Skip::LICHESS`] or
    /// [`Skip::MASTERS`], in that order).
    pub skipped: Vec<(Skip, u64)>,
    /// Segments written.
    pub segments_written: usize,
    /// Bytes written.
    pub bytes_written: u64,
    /// Seconds taken.
    pub seconds: f64,
}

/// Builds (or adds to) the index in `dir` from `sources`, counting the
/// bytes read into `counter` (a progress bar reads it). The new games go
/// into new segments; nothing already written is rewritten. The manifest
/// lists the new segments only once they are all written: a build that
/// stops leaves the index as it was.
///
/// # Errors
/// A source that cannot be read (the index is left as it was), an index
/// built with another `max_ply`, a file that cannot be written.
pub fn build(
    sources: &[Source],
    dir: &Path,
    options: &BuildOptions,
    counter: &ReadCounter,
) -> Result<BuildReport, IndexError> {
    let started = Instant::now();
    // A missing file stops the build before anything is read or written.
    for source in sources {
        if let Source::File(path) = source
            && !path.exists()
        {
            return Err(IndexError::Io {
                path: path.clone(),
                error: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            });
        }
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |error| IndexError::Io { path, error }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let max_ply = u32::try_from(options.max_ply).unwrap_or(u32::MAX);
    let mut manifest = match Manifest::read(dir)? {
        Some(manifest) => {
            if manifest.max_ply != max_ply || manifest.masters != options.masters {
                return Err(IndexError::Mismatch(format!(
                    "the index in {} counts {} plies{}; this build asks {max_ply}{}",
                    dir.display(),
                    manifest.max_ply,
                    if manifest.masters { " (masters)" } else { "" },
                    if options.masters { " (masters)" } else { "" },
                )));
            }
            manifest
        }
        None => Manifest {
            max_ply,
            masters: options.masters,
            segments: Vec::new(),
        },
    };
    remove_strays(dir, &manifest)?;
    let mut next_number = manifest.segments.iter().max().map_or(1, |last| last + 1);
    let mut pending = Pending::default();
    if options.masters {
        // A masters game is indexed once: the ids already there.
        for &number in &manifest.segments {
            let segment = Segment::open(&segment_path(dir, number))?;
            for index in 0..u32::try_from(segment.games()).unwrap_or(u32::MAX) {
                pending.ids.insert(segment.game(index)?.id.to_owned());
            }
        }
    }
    let mut report = BuildReport {
        skipped: if options.masters {
            &Skip::MASTERS[..]
        } else {
            &Skip::LICHESS[..]
        }
        .iter()
        .map(|&skip| (skip, 0))
        .collect(),
        ..BuildReport::default()
    };
    let mut written = Vec::new();
    let flags = if options.masters { FLAG_MASTERS } else { 0 };
    let mut failure: Option<IndexError> = None;
    for source in sources {
        let reader = match source.open(options.threads, counter) {
            Ok(reader) => reader,
            Err(error) => {
                discard(dir, &written);
                return Err(IndexError::Io {
                    path: source.name().into(),
                    error,
                });
            }
        };
        let result = reader.for_each_chunk(
            || {
                let reader = if options.masters {
                    GameReader::masters(options.max_ply)
                } else {
                    GameReader::new(options.max_ply)
                };
                (reader, Vec::<GameRecord>::new())
            },
            |reader, records, _, error| records.push(reader.finish(error)),
            std::mem::take,
            |chunk| {
                for record in chunk.value {
                    report.games_read += 1;
                    let skip = match record.skip {
                        Some(skip) => Some(skip),
                        None if options.masters => {
                            (!pending.add_masters(record)).then_some(Skip::Duplicate)
                        }
                        None => {
                            pending.add(record);
                            None
                        }
                    };
                    if let Some(skip) = skip {
                        if let Some(entry) = report.skipped.iter_mut().find(|entry| entry.0 == skip)
                        {
                            entry.1 += 1;
                        }
                        continue;
                    }
                    report.games_indexed += 1;
                    if pending.games.len() >= options.segment_games.max(1) && failure.is_none() {
                        match pending.write(dir, next_number, flags, max_ply) {
                            Ok(bytes) => {
                                written.push(next_number);
                                report.bytes_written += bytes;
                                next_number += 1;
                            }
                            Err(error) => failure = Some(error),
                        }
                    }
                }
            },
        );
        if let Err(error) = result {
            discard(dir, &written);
            return Err(IndexError::Io {
                path: source.name().into(),
                error: std::io::Error::other(error.to_string()),
            });
        }
        if let Some(error) = failure.take() {
            discard(dir, &written);
            return Err(error);
        }
    }
    if !pending.games.is_empty() {
        match pending.write(dir, next_number, flags, max_ply) {
            Ok(bytes) => {
                written.push(next_number);
                report.bytes_written += bytes;
            }
            Err(error) => {
                discard(dir, &written);
                return Err(error);
            }
        }
    }
    report.segments_written = written.len();
    manifest.segments.extend(written);
    manifest.write(dir)?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Builds the index in `dir` from PGN held in memory (plain or compressed).
///
/// # Errors
/// As [`build`]'s.
pub fn build_bytes(
    pgn: Vec<u8>,
    dir: &Path,
    options: &BuildOptions,
) -> Result<BuildReport, IndexError> {
    build(
        &[Source::Bytes(Arc::from(pgn))],
        dir,
        options,
        &ReadCounter::default(),
    )
}

/// Games not yet written, and each position they reach (one entry per
/// game and position, 32 bytes), kept in [`BUCKETS`] buckets by the key's
/// first byte: each sorted, folded into rows and encoded on its own when
/// written, on every core, and laid end to end in key order.
struct Pending {
    games: Vec<StoredGame>,
    buckets: Vec<Bucket>,
    /// A masters build's game ids, of the index and of this build.
    ids: std::collections::HashSet<String>,
}

/// A bucket's entries, in pages of [`PAGE`] entries: added to without
/// ever being copied (a vector would copy them each time it grows).
#[derive(Default)]
struct Bucket {
    pages: Vec<Vec<Seen>>,
    len: usize,
}

/// Entries a page of a [`Bucket`] holds (128 KiB).
const PAGE: usize = 4096;

impl Bucket {
    fn push(&mut self, seen: Seen) {
        match self.pages.last_mut() {
            Some(page) if page.len() < PAGE => page.push(seen),
            _ => {
                let mut page = Vec::with_capacity(PAGE);
                page.push(seen);
                self.pages.push(page);
            }
        }
        self.len += 1;
    }

    fn iter(&self) -> impl Iterator<Item = &Seen> {
        self.pages.iter().flatten()
    }
}

/// The buckets of [`Pending`]: by the key's first byte.
const BUCKETS: usize = 256;
/// Entries a task of the writer takes at least (buckets grouped): enough
/// that its run of blocks compresses as well as one long run would.
const TASK_ENTRIES: usize = 32 * 1024;

impl Default for Pending {
    fn default() -> Pending {
        Pending {
            games: Vec::new(),
            buckets: (0..BUCKETS).map(|_| Bucket::default()).collect(),
            ids: std::collections::HashSet::new(),
        }
    }
}

/// A position met in a game: the row it counts in, the game, its result
/// and the mover's rating.
#[derive(Clone, Copy)]
struct Seen {
    key: Key,
    /// Month, move, speed and band, in that order of bits: the row.
    row: u64,
    game: u32,
    outcome: u8,
    rating: u16,
}

impl Seen {
    fn row(key: Key, month: u16, mv: u16, speed: u8, band: u8) -> (Key, u64) {
        (
            key,
            u64::from(month) << 32 | u64::from(mv) << 16 | u64::from(speed) << 8 | u64::from(band),
        )
    }
}

impl Pending {
    /// Adds a masters game, its id given (from its `LichessId`, or made
    /// from the game); false, and nothing added, when a game of that id is
    /// already indexed.
    fn add_masters(&mut self, mut record: GameRecord) -> bool {
        if !crate::write::is_usable_id(&record.id) {
            let positions = std::mem::take(&mut record.positions);
            if let Some(game) = StoredGame::from_record(record.clone()) {
                record.id = crate::write::made_id(&game);
            }
            record.positions = positions;
        }
        if !self.ids.insert(record.id.clone()) {
            return false;
        }
        self.add(record);
        true
    }

    fn add(&mut self, mut record: GameRecord) {
        let band = RatingGroup::band(record.ratings[0], record.ratings[1]);
        let ratings = record.ratings;
        let positions = std::mem::take(&mut record.positions);
        let Some(game) = StoredGame::from_record(record) else {
            return;
        };
        let index = self.games.len() as u32;
        for (key, mv, color) in positions {
            let (key, row) = Seen::row(key, game.month, mv.to_bits(), game.speed.index(), band);
            self.buckets[(key.0 >> 88) as usize & (BUCKETS - 1)].push(Seen {
                key,
                row,
                game: index,
                outcome: game.outcome,
                rating: ratings[usize::from(color == Color::Black)],
            });
        }
        self.games.push(game);
    }

    fn write(
        &mut self,
        dir: &Path,
        number: u64,
        flags: u32,
        max_ply: u32,
    ) -> Result<u64, IndexError> {
        let path = segment_path(dir, number);
        let masters = flags & FLAG_MASTERS != 0;
        let Pending { games, buckets, .. } = self;
        let result = write_segment(&path, flags, max_ply, games, || {
            positions(buckets, games, masters)
        });
        games.clear();
        result.map_err(|error| IndexError::Io { path, error })
    }
}

/// The positions of `buckets`, encoded: the buckets in groups of at least
/// [`TASK_ENTRIES`] entries, each on a core of its own: each bucket sorted
/// by position, row and game, folded into rows (each keeping its latest
/// games, or for a masters index its top-rated ones), encoded as blocks,
/// and emptied.
fn positions(buckets: &mut [Bucket], games: &[StoredGame], masters: bool) -> Positions {
    let sums = if masters {
        Keep::sums(games)
    } else {
        Vec::new()
    };
    let keep = if masters {
        Keep::TopRated(&sums)
    } else {
        Keep::Latest
    };
    let facts = Facts::of(games);
    let games = &facts;
    let mut tasks: Vec<&mut [Bucket]> = Vec::new();
    let mut rest: &mut [Bucket] = buckets;
    while !rest.is_empty() {
        let mut entries = 0;
        let mut take = 0;
        while take < rest.len() && entries < TASK_ENTRIES {
            entries += rest[take].len;
            take += 1;
        }
        let (task, after) = rest.split_at_mut(take);
        tasks.push(task);
        rest = after;
    }
    let encoded: Vec<(Run, u64)> = tasks
        .into_par_iter()
        .map(|task| {
            let mut run = EncodedRun::default();
            let mut keys = 0;
            let mut rows = Vec::new();
            let mut scratch = Vec::new();
            for bucket in task.iter_mut() {
                sort_bucket(bucket, &mut scratch);
                *bucket = Bucket::default();
                rows.clear();
                fold(&scratch, keep, &mut rows);
                keys += encode_blocks(&mut run, &rows, games);
            }
            (Run::seal(run), keys)
        })
        .collect();
    Positions {
        keys: encoded.iter().map(|(_, keys)| keys).sum(),
        runs: encoded.into_iter().map(|(run, _)| run).collect(),
    }
}

/// A bucket's entries into `scratch`, sorted by position, row and game:
/// spread by the key's second byte (the first is the bucket's), then each
/// part sorted (a few entries: keys are hashes, spread evenly).
fn sort_bucket(bucket: &Bucket, scratch: &mut Vec<Seen>) {
    let byte = |seen: &Seen| (seen.key.0 >> 80) as u8 as usize;
    let mut starts = [0usize; 257];
    for seen in bucket.iter() {
        starts[byte(seen) + 1] += 1;
    }
    for index in 1..257 {
        starts[index] += starts[index - 1];
    }
    scratch.clear();
    scratch.resize(
        bucket.len,
        Seen {
            key: Key(0),
            row: 0,
            game: 0,
            outcome: 0,
            rating: 0,
        },
    );
    let mut next = starts;
    for seen in bucket.iter() {
        let at = &mut next[byte(seen)];
        scratch[*at] = *seen;
        *at += 1;
    }
    for part in starts.windows(2) {
        scratch[part[0]..part[1]].sort_unstable_by_key(|seen| (seen.key, seen.row, seen.game));
    }
}

/// Folds `seen` (sorted by position, row and game) into `rows`, each row
/// keeping its games as `keep` says.
fn fold(seen: &[Seen], keep: Keep<'_>, rows: &mut Vec<Row>) {
    let mut last = None;
    for seen in seen {
        let stats = Stats::single(winner_of(seen.outcome), seen.rating);
        match rows.last_mut() {
            Some(row) if last == Some((seen.key, seen.row)) => {
                row.add_game(stats, seen.game, keep);
            }
            _ => {
                let mut games = [0; MASTERS_ROW_GAMES];
                games[0] = seen.game;
                rows.push(Row {
                    key: seen.key,
                    month: (seen.row >> 32) as u16,
                    mv: (seen.row >> 16) as u16,
                    speed: (seen.row >> 8) as u8,
                    band: seen.row as u8,
                    stats,
                    games,
                    game_count: 1,
                });
                last = Some((seen.key, seen.row));
            }
        }
    }
}

/// Removes segments a build wrote but did not list (a build that stopped).
fn remove_strays(dir: &Path, manifest: &Manifest) -> Result<(), IndexError> {
    let entries = std::fs::read_dir(dir).map_err(|error| IndexError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let listed = manifest.segments.iter().any(|&number| {
            segment_path(dir, number).file_name() == Some(entry.file_name().as_os_str())
        });
        let ours =
            name.starts_with("segment-") && (name.ends_with(".bbx") || name.ends_with(".partial"));
        if ours && !listed || name == "MANIFEST.partial" {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    Ok(())
}

fn discard(dir: &Path, numbers: &[u64]) {
    for &number in numbers {
        let _ = std::fs::remove_file(segment_path(dir, number));
    }
}

/// Merges every segment of the index in `dir` into one, which answers as
/// they did together. The old segments are removed once the manifest
/// lists the new one alone.
///
/// # Errors
/// A segment that cannot be read or is damaged; a file that cannot be
/// written.
pub fn merge(dir: &Path) -> Result<BuildReport, IndexError> {
    merge_indexes(dir, &[])
}

/// Merges the index in `dir` (if any) and the indexes in `others`, in that
/// order, into one segment in `dir`: the games of `others` come after
/// those of `dir`, as if built after them. The indexes in `others` are
/// left as they were. This joins indexes built apart, one per file on
/// several machines, say.
///
/// # Errors
/// An index that is missing, damaged or counts other plies; a file that
/// cannot be written.
pub fn merge_indexes(dir: &Path, others: &[&Path]) -> Result<BuildReport, IndexError> {
    let started = Instant::now();
    let own = Manifest::read(dir)?;
    let mut sources: Vec<(&Path, Manifest)> = Vec::new();
    if let Some(manifest) = own.clone() {
        sources.push((dir, manifest));
    }
    for &other in others {
        let manifest =
            Manifest::read(other)?.ok_or_else(|| IndexError::NoIndex(other.to_path_buf()))?;
        sources.push((other, manifest));
    }
    let Some((_, first)) = sources.first() else {
        return Err(IndexError::NoIndex(dir.to_path_buf()));
    };
    let (max_ply, masters) = (first.max_ply, first.masters);
    if let Some((path, _)) = sources
        .iter()
        .find(|(_, manifest)| (manifest.max_ply, manifest.masters) != (max_ply, masters))
    {
        return Err(IndexError::Mismatch(format!(
            "the index in {} counts other plies (or is a masters index) than the one in {}",
            path.display(),
            sources[0].0.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(|error| IndexError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    let mut games = Vec::new();
    let mut rows = Vec::new();
    for (source, manifest) in &sources {
        for &number in &manifest.segments {
            let segment = Segment::open(&segment_path(source, number))?;
            let offset = u32::try_from(games.len())
                .map_err(|_| IndexError::Mismatch("too many games for one segment".into()))?;
            for index in 0..u32::try_from(segment.games()).unwrap_or(u32::MAX) {
                games.push(segment.game(index)?.to_stored());
            }
            segment.for_each_key(|key_rows| {
                rows.extend(key_rows.iter().map(|row| {
                    let mut row = *row;
                    for game in &mut row.games[..usize::from(row.game_count)] {
                        *game += offset;
                    }
                    row
                }));
            })?;
        }
    }
    let sums = Keep::sums(&games);
    combine(
        &mut rows,
        if masters {
            Keep::TopRated(&sums)
        } else {
            Keep::Latest
        },
    );
    let old = own.map(|manifest| manifest.segments).unwrap_or_default();
    let number = old.iter().max().map_or(1, |last| last + 1);
    let path = segment_path(dir, number);
    let flags = if masters { FLAG_MASTERS } else { 0 };
    let bytes = write_segment(&path, flags, max_ply, &games, || encode_rows(&rows, &games))
        .map_err(|error| IndexError::Io { path, error })?;
    Manifest {
        max_ply,
        masters,
        segments: vec![number],
    }
    .write(dir)?;
    discard(dir, &old);
    Ok(BuildReport {
        games_read: games.len() as u64,
        games_indexed: games.len() as u64,
        skipped: Vec::new(),
        segments_written: 1,
        bytes_written: bytes,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A Polyglot opening book from the games of the index in `dir`, written
/// to `out`: each game replayed to the plies the index counts, each move
/// weighted for the side that played it as `bitboards book build` weighs
/// it (2 for a win, 1 for a draw: polyglot's `make-book`), moves played in
/// fewer than `min_games` games left out. The same book as `bitboards book
/// build --max-ply N` makes from the games the index holds. Returns the
/// book's entries.
///
/// # Errors
/// A damaged index; a file that cannot be written.
pub fn book(dir: &Path, out: &Path, min_games: u32) -> Result<u64, IndexError> {
    use bitboards_pgn::GameResult;
    use bitboards_pgn::book::{BookBuilder, BuildOptions as BookOptions, GameMoves};

    let manifest = Manifest::read(dir)?.ok_or_else(|| IndexError::NoIndex(dir.to_path_buf()))?;
    let mut builder = BookBuilder::new(BookOptions {
        max_ply: usize::try_from(manifest.max_ply).unwrap_or(usize::MAX),
        min_games,
        ..BookOptions::default()
    });
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |error| IndexError::Io { path, error }
    };
    let mut moves = GameMoves::default();
    for &number in &manifest.segments {
        let path = segment_path(dir, number);
        let segment = Segment::open(&path)?;
        for index in 0..u32::try_from(segment.games()).unwrap_or(u32::MAX) {
            let game = segment.game(index)?;
            moves.moves.clear();
            moves.result = Some(match game.outcome {
                0 => GameResult::WhiteWins,
                2 => GameResult::BlackWins,
                _ => GameResult::Draw,
            });
            game.replay(|position, mv| {
                moves
                    .moves
                    .push((position.polyglot_key(), mv, position.side_to_move()))
            })
            .map_err(|detail| IndexError::Corrupt {
                file: path.clone(),
                detail: format!("game {index}: {detail}"),
            })?;
            builder.add_game(&moves).map_err(io(out))?;
        }
    }
    let mut file = bitboards_pgn::StagedFile::create(out).map_err(io(out))?;
    let entries = builder.write(&mut file).map_err(io(out))?;
    file.commit().map_err(io(out))?;
    Ok(entries)
}
