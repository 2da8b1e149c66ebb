//! Writing a segment: games, their players, and the rows of every
//! position, sorted by key.

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use crate::format::{
    BLOCK_KEYS, HEADER_BYTES, Header, MASTERS_ROW_GAMES, Part, ROW_GAMES, put_varint,
};
use crate::game::{GameRecord, MastersTags};
use crate::key::Key;
use crate::model::{RatingGroup, Speed, Stats, outcome_of, winner_of};

/// The statistics of one move from one position, in one month, speed and
/// rating band, with games (indices into the segment's games) kept as
/// [`Keep`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    pub(crate) key: Key,
    pub(crate) month: u16,
    pub(crate) mv: u16,
    pub(crate) speed: u8,
    pub(crate) band: u8,
    pub(crate) stats: Stats,
    pub(crate) games: [u32; MASTERS_ROW_GAMES],
    pub(crate) game_count: u8,
}

/// Which games a row keeps.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Keep<'a> {
    /// A Lichess index's: the latest [`ROW_GAMES`] (the highest indices).
    Latest,
    /// A masters index's: the [`MASTERS_ROW_GAMES`] of the highest rating
    /// sums (both players'), ties to the later game; the sums by game.
    TopRated(&'a [u16]),
}

impl Keep<'_> {
    /// The rating sums of `games`, for [`Keep::TopRated`].
    pub(crate) fn sums(games: &[StoredGame]) -> Vec<u16> {
        games
            .iter()
            .map(|game| game.ratings[0].saturating_add(game.ratings[1]))
            .collect()
    }
}

impl Row {
    fn order(&self) -> (Key, u16, u16, u8, u8) {
        (self.key, self.month, self.mv, self.speed, self.band)
    }

    pub(crate) fn games(&self) -> &[u32] {
        &self.games[..usize::from(self.game_count)]
    }

    /// Adds `later`'s games and statistics (of the same position, month,
    /// move, speed and band, and of later games) to this row.
    fn absorb(&mut self, later: &Row, keep: Keep<'_>) {
        self.stats += later.stats;
        for &game in later.games() {
            self.keep(game, keep);
        }
    }

    /// Adds a later game and its statistics to this row.
    pub(crate) fn add_game(&mut self, stats: Stats, game: u32, keep: Keep<'_>) {
        self.stats += stats;
        self.keep(game, keep);
    }

    /// Keeps `game` among the row's games, if it is one `keep` keeps.
    fn keep(&mut self, game: u32, keep: Keep<'_>) {
        let count = usize::from(self.game_count);
        match keep {
            Keep::Latest if count == ROW_GAMES => {
                self.games.copy_within(1..ROW_GAMES, 0);
                self.games[ROW_GAMES - 1] = game;
            }
            Keep::TopRated(sums) if count == MASTERS_ROW_GAMES => {
                let rank = |game: u32| (sums.get(game as usize).copied().unwrap_or(0), game);
                if let Some(lowest) = (0..count).min_by_key(|&at| rank(self.games[at]))
                    && rank(game) > rank(self.games[lowest])
                {
                    self.games[lowest] = game;
                }
            }
            _ => {
                self.games[count] = game;
                self.game_count += 1;
            }
        }
    }
}

/// Sorts `rows` (stably: for equal keys the earlier rows come first) and
/// merges those of the same position, month, move, speed and band.
pub(crate) fn combine(rows: &mut Vec<Row>, keep: Keep<'_>) {
    rows.sort_by_key(Row::order);
    rows.dedup_by(|later, earlier| {
        let same = later.order() == earlier.order();
        if same {
            earlier.absorb(later, keep);
        }
        same
    });
}

/// A game as a segment stores it.
#[derive(Clone, Debug)]
pub(crate) struct StoredGame {
    pub(crate) id: String,
    pub(crate) names: [String; 2],
    pub(crate) ratings: [u16; 2],
    /// 0 White won, 1 draw, 2 Black won.
    pub(crate) outcome: u8,
    pub(crate) speed: Speed,
    pub(crate) rated: bool,
    pub(crate) month: u16,
    /// The moves, two bytes each ([`bitboards::Move::to_bits`], little-endian).
    pub(crate) moves: Vec<u8>,
    pub(crate) fen: Option<String>,
    /// A masters game's tags.
    pub(crate) masters: Option<Box<MastersTags>>,
}

impl StoredGame {
    pub(crate) fn from_record(record: GameRecord) -> Option<StoredGame> {
        Some(StoredGame {
            id: record.id,
            names: record.names,
            ratings: record.ratings,
            outcome: outcome_of(record.winner),
            speed: record.speed?,
            rated: record.rated,
            month: record.month?.to_bits(),
            moves: record
                .moves
                .iter()
                .flat_map(|mv| mv.to_bits().to_le_bytes())
                .collect(),
            fen: record.fen,
            masters: record.masters,
        })
    }
}

/// What a row of one game is checked against (its game's month, speed,
/// rating band, result and ratings), for each game: kept apart from the
/// games, small, so that encoding rows reads it from cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Facts {
    month: u16,
    ratings: [u16; 2],
    speed: u8,
    band: u8,
    outcome: u8,
}

impl Facts {
    /// The facts of each of `games`.
    pub(crate) fn of(games: &[StoredGame]) -> Vec<Facts> {
        games
            .iter()
            .map(|game| Facts {
                month: game.month,
                ratings: game.ratings,
                speed: game.speed.index(),
                band: RatingGroup::band(game.ratings[0], game.ratings[1]),
                outcome: game.outcome,
            })
            .collect()
    }
}

/// Whether `id` can stand as a game's id in a URL: 1 to 32 letters,
/// digits, `-` or `_`.
pub(crate) fn is_usable_id(id: &str) -> bool {
    (1..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// An id for a game that has none: `x` and seven base-36 digits of a
/// hash of what the game is (its players, ratings, month and moves), so
/// that indexes built apart and merged give their games the ids they had.
pub(crate) fn made_id(game: &StoredGame) -> String {
    let mut bytes = Vec::with_capacity(64 + game.moves.len());
    for name in &game.names {
        bytes.extend_from_slice(name.as_bytes());
        bytes.push(0);
    }
    for rating in game.ratings {
        bytes.extend_from_slice(&rating.to_le_bytes());
    }
    bytes.extend_from_slice(&game.month.to_le_bytes());
    bytes.push(game.outcome);
    bytes.extend_from_slice(&game.moves);
    bytes.extend_from_slice(game.fen.as_deref().unwrap_or("").as_bytes());
    let mut value = crate::format::checksum(&bytes);
    let mut digits = [b'0'; 7];
    for digit in digits.iter_mut().rev() {
        *digit = b"0123456789abcdefghijklmnopqrstuvwxyz"[(value % 36) as usize];
        value /= 36;
    }
    let mut id = String::from("x");
    id.push_str(std::str::from_utf8(&digits).unwrap_or("0000000"));
    id
}

/// A run of blocks encoded: its bytes, and each block's first key and
/// where it starts among them.
pub(crate) type EncodedRun = (Vec<u8>, Vec<(Key, usize)>);

/// A segment's positions, encoded: runs of blocks, in key order, and the
/// number of keys.
#[derive(Default)]
pub(crate) struct Positions {
    pub(crate) runs: Vec<Run>,
    pub(crate) keys: u64,
}

/// A run of blocks as the segment stores it: compressed (on the core that
/// encoded it), with its length before, and where its blocks start.
pub(crate) struct Run {
    plain: usize,
    starts: Vec<(Key, usize)>,
    stored: std::io::Result<Vec<u8>>,
}

impl Run {
    /// `run` compressed.
    pub(crate) fn seal(run: EncodedRun) -> Run {
        let (bytes, starts) = run;
        Run {
            plain: bytes.len(),
            starts,
            stored: crate::format::compress_part(&bytes, Part::Blocks),
        }
    }
}

/// Appends `rows` (combined, sorted by key, each key's rows whole) to
/// `run` as blocks of [`BLOCK_KEYS`] keys: each block starts with the
/// number of leading bytes all its keys share (those of its first and last
/// key), and each key then writes the rest of its bytes only. Returns the
/// number of keys.
pub(crate) fn encode_blocks(run: &mut EncodedRun, rows: &[Row], games: &[Facts]) -> u64 {
    let mut ranges: Vec<(Key, usize, usize)> = Vec::new();
    let mut start = 0;
    while start < rows.len() {
        let key = rows[start].key;
        let end = start
            + rows[start..]
                .iter()
                .take_while(|row| row.key == key)
                .count();
        ranges.push((key, start, end));
        start = end;
    }
    let (out, starts) = run;
    let mut payload = Vec::new();
    for block in ranges.chunks(BLOCK_KEYS) {
        let (first, last) = (block[0].0.to_bytes(), block[block.len() - 1].0.to_bytes());
        let shared = first.iter().zip(&last).take_while(|(a, b)| a == b).count();
        starts.push((block[0].0, out.len()));
        out.push(shared as u8);
        for &(key, start, end) in block {
            payload.clear();
            put_rows(&mut payload, &rows[start..end], games);
            out.extend_from_slice(&key.to_bytes()[shared..]);
            put_varint(out, payload.len() as u64);
            out.extend_from_slice(&payload);
        }
    }
    ranges.len() as u64
}

/// `rows` (combined, sorted) encoded as positions, in runs on every core.
pub(crate) fn encode_rows(rows: &[Row], games: &[StoredGame]) -> Positions {
    let games = &Facts::of(games);
    // Runs of about 64 blocks' rows, cut between keys.
    let mut cuts = vec![0];
    let step = BLOCK_KEYS * 64;
    while let Some(&last) = cuts.last() {
        let mut cut = (last + step).min(rows.len());
        while cut < rows.len() && rows[cut].key == rows[cut - 1].key {
            cut += 1;
        }
        if cut == last {
            break;
        }
        cuts.push(cut);
    }
    let encoded: Vec<(Run, u64)> = cuts
        .par_windows(2)
        .map(|cut| {
            let mut run = EncodedRun::default();
            let keys = encode_blocks(&mut run, &rows[cut[0]..cut[1]], games);
            (Run::seal(run), keys)
        })
        .collect();
    Positions {
        keys: encoded.iter().map(|(_, keys)| keys).sum(),
        runs: encoded.into_iter().map(|(run, _)| run).collect(),
    }
}

/// The games and player sections of a segment (its body's first part):
/// the bytes, and the header's counts and offsets for them.
struct Front {
    bytes: Vec<u8>,
    names: u64,
    games_at: u64,
    game_offsets_at: u64,
    names_at: u64,
    name_offsets_at: u64,
}

fn encode_games(games: &[StoredGame], flags: u32) -> Front {
    let mut body = Vec::new();
    let at = |body: &Vec<u8>| (HEADER_BYTES + body.len()) as u64;

    // Players, by name in lower case (Lichess's names ignore case).
    let mut players: HashMap<String, Vec<(u32, u8)>> = HashMap::new();
    for (index, game) in games.iter().enumerate() {
        for (color, name) in game.names.iter().enumerate() {
            players
                .entry(name.to_lowercase())
                .or_default()
                .push((index as u32, color as u8));
        }
    }
    let mut players: Vec<_> = players.into_iter().collect();
    players.sort_by(|a, b| a.0.cmp(&b.0));

    let games_at = at(&body);
    let mut game_offsets = Vec::with_capacity(games.len());
    for game in games {
        game_offsets.push(at(&body));
        let id = if is_usable_id(&game.id) {
            game.id.clone()
        } else {
            made_id(game)
        };
        put_text(&mut body, &id);
        // The names as the game writes them (the player index below finds
        // a player whatever the case).
        for name in &game.names {
            put_text(&mut body, name);
        }
        for rating in game.ratings {
            body.extend_from_slice(&rating.to_le_bytes());
        }
        body.push(game.outcome | game.speed.index() << 2 | u8::from(game.rated) << 5);
        body.extend_from_slice(&game.month.to_le_bytes());
        put_varint(&mut body, (game.moves.len() / 2) as u64);
        body.extend_from_slice(&game.moves);
        put_text(&mut body, game.fen.as_deref().unwrap_or(""));
        if flags & crate::format::FLAG_MASTERS != 0 {
            let tags = game.masters.as_deref().cloned().unwrap_or_default();
            for text in [&tags.event, &tags.site, &tags.round, &tags.date] {
                put_text(&mut body, text);
            }
        }
    }
    let game_offsets_at = at(&body);
    for offset in game_offsets {
        body.extend_from_slice(&offset.to_le_bytes());
    }

    let names_at = at(&body);
    let mut name_offsets = Vec::with_capacity(players.len());
    for (lower, played) in &players {
        name_offsets.push(at(&body));
        put_text(&mut body, lower);
        put_varint(&mut body, played.len() as u64);
        let mut previous = 0;
        for &(game, color) in played {
            put_varint(
                &mut body,
                u64::from(game - previous) << 1 | u64::from(color),
            );
            previous = game;
        }
    }
    let name_offsets_at = at(&body);
    for offset in name_offsets {
        body.extend_from_slice(&offset.to_le_bytes());
    }
    Front {
        bytes: body,
        names: players.len() as u64,
        games_at,
        game_offsets_at,
        names_at,
        name_offsets_at,
    }
}

/// Writes a segment of `games` and the positions `positions` encodes to
/// `path` (the games encoded meanwhile, on another core), through a
/// temporary file renamed into place once whole and synced.
pub(crate) fn write_segment(
    path: &Path,
    flags: u32,
    max_ply: u32,
    games: &[StoredGame],
    positions: impl FnOnce() -> Positions + Send,
) -> std::io::Result<u64> {
    let ((front, front_stored), positions) = rayon::join(
        || {
            let front = encode_games(games, flags);
            let stored = crate::format::compress_part(&front.bytes, Part::Games);
            (front, stored)
        },
        positions,
    );
    let blocks_at = (HEADER_BYTES + front.bytes.len()) as u64;
    let mut stored = vec![front_stored?];
    let mut block_index = Vec::new();
    let mut blocks = 0u64;
    let mut base = blocks_at;
    for run in positions.runs {
        for (key, offset) in &run.starts {
            block_index.extend_from_slice(&key.to_bytes());
            block_index.extend_from_slice(&(base + *offset as u64).to_le_bytes());
            blocks += 1;
        }
        base += run.plain as u64;
        stored.push(run.stored?);
    }
    let block_index_at = base;
    stored.push(crate::format::compress_part(&block_index, Part::Games)?);
    let header = Header {
        flags,
        max_ply,
        games: games.len() as u64,
        names: front.names,
        keys: positions.keys,
        blocks,
        games_at: front.games_at,
        game_offsets_at: front.game_offsets_at,
        names_at: front.names_at,
        name_offsets_at: front.name_offsets_at,
        blocks_at,
        block_index_at,
        end: block_index_at + block_index.len() as u64,
    };
    let stored: Vec<&[u8]> = stored.iter().map(Vec::as_slice).collect();
    let staging = path.with_extension("partial");
    {
        let mut file = std::io::BufWriter::with_capacity(1 << 16, File::create(&staging)?);
        file.write_all(&header.bytes(&stored))?;
        for part in stored {
            file.write_all(part)?;
        }
        file.into_inner()
            .map_err(std::io::IntoInnerError::into_error)?
            .sync_all()?;
    }
    std::fs::rename(&staging, path)?;
    Ok(std::fs::metadata(path)?.len())
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    put_varint(out, text.len() as u64);
    out.extend_from_slice(text.as_bytes());
}

/// The rows of one position: a count, then each row, by its first byte:
///
/// - high bit set: the row of one game, everything of which its game
///   record holds (month, speed, band, result, ratings); the low bit says
///   whether Black moved; then the move and the game's index;
/// - else speed and band (`speed | band << 3`), then the month (as the
///   difference from the last such row's), the move, the statistics and
///   the latest games.
fn put_rows(out: &mut Vec<u8>, rows: &[Row], games: &[Facts]) {
    put_varint(out, rows.len() as u64);
    let mut month = 0;
    for row in rows {
        if let Some(black) = single_game(row, games) {
            out.push(0x80 | u8::from(black));
            out.extend_from_slice(&row.mv.to_le_bytes());
            put_varint(out, u64::from(row.games[0]));
            continue;
        }
        out.push(row.speed | row.band << 3);
        put_varint(out, u64::from(row.month.wrapping_sub(month)));
        month = row.month;
        out.extend_from_slice(&row.mv.to_le_bytes());
        for value in [
            row.stats.white,
            row.stats.draws,
            row.stats.black,
            row.stats.rating_sum,
        ] {
            put_varint(out, value);
        }
        out.push(row.game_count);
        for &game in row.games() {
            put_varint(out, u64::from(game));
        }
    }
}

/// Whether `row` is one game's, all of which its record says (then
/// whether Black moved), so that it can be written as the game alone.
fn single_game(row: &Row, games: &[Facts]) -> Option<bool> {
    if row.stats.games() != 1 || row.game_count != 1 {
        return None;
    }
    let game = games.get(usize::try_from(row.games[0]).ok()?)?;
    let black = u64::from(game.ratings[0]) != row.stats.rating_sum;
    let fits = game.month == row.month
        && game.speed == row.speed
        && game.band == row.band
        && Stats::single(winner_of(game.outcome), game.ratings[usize::from(black)]) == row.stats;
    fits.then_some(black)
}
