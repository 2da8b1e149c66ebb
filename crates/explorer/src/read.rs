//! Reading a segment, held in memory (read whole when opened: no mapping
//! that another process could cut short under the reader).

use std::path::{Path, PathBuf};

use bitboards::{Move, Position};

use crate::IndexError;
use crate::format::{Cursor, FLAG_MASTERS, HEADER_BYTES, Header, MASTERS_ROW_GAMES, ROW_GAMES};
use crate::game::MastersTags;
use crate::key::{KEY_BYTES, Key};

use crate::model::{RatingGroup, Speed, Stats, winner_of};
use crate::write::{Row, StoredGame};

/// One segment of an index.
pub(crate) struct Segment {
    pub(crate) path: PathBuf,
    map: Vec<u8>,
    pub(crate) header: Header,
}

/// A game as read from a segment.
#[derive(Clone, Debug)]
pub(crate) struct GameView<'a> {
    pub(crate) id: &'a str,
    pub(crate) names: [&'a str; 2],
    pub(crate) ratings: [u16; 2],
    pub(crate) outcome: u8,
    pub(crate) speed: Speed,
    pub(crate) rated: bool,
    pub(crate) month: u16,
    pub(crate) moves: &'a [u8],
    pub(crate) fen: &'a str,
    /// A masters game's `Event`, `Site`, `Round` and `Date`.
    pub(crate) masters: Option<[&'a str; 4]>,
}

impl GameView<'_> {
    /// Replays the game's stored moves from its start: `each` hears each
    /// position and the move played from it.
    pub(crate) fn replay(&self, mut each: impl FnMut(&Position, Move)) -> Result<(), &'static str> {
        let mut position = if self.fen.is_empty() {
            Position::START
        } else {
            Position::from_fen(self.fen).map_err(|_| "a game's FEN does not read")?
        };
        for bits in self.moves.chunks_exact(2) {
            let mv = Move::from_bits(u16::from_le_bytes([bits[0], bits[1]]))
                .filter(|&mv| position.is_legal(mv))
                .ok_or("a game's move is not legal where it is played")?;
            each(&position, mv);
            position.play_unchecked_in_place(mv);
        }
        Ok(())
    }

    pub(crate) fn to_stored(&self) -> StoredGame {
        StoredGame {
            id: self.id.to_owned(),
            names: [self.names[0].to_owned(), self.names[1].to_owned()],
            ratings: self.ratings,
            outcome: self.outcome,
            speed: self.speed,
            rated: self.rated,
            month: self.month,
            moves: self.moves.to_vec(),
            fen: (!self.fen.is_empty()).then(|| self.fen.to_owned()),
            masters: self.masters.map(|[event, site, round, date]| {
                Box::new(MastersTags {
                    event: event.to_owned(),
                    site: site.to_owned(),
                    round: round.to_owned(),
                    date: date.to_owned(),
                })
            }),
        }
    }
}

impl Segment {
    /// Reads the segment at `path` and checks it whole.
    pub(crate) fn open(path: &Path) -> Result<Segment, IndexError> {
        let map = std::fs::read(path).map_err(|error| IndexError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        Segment::from_bytes(map, path)
    }

    /// The segment of `map` (the bytes of the file at `path`), checked.
    pub(crate) fn from_bytes(file: Vec<u8>, path: &Path) -> Result<Segment, IndexError> {
        let (header, map) = Header::read(&file, path)?;
        Ok(Segment {
            path: path.to_path_buf(),
            map,
            header,
        })
    }

    fn cursor(&self, at: u64) -> Cursor<'_> {
        Cursor {
            bytes: &self.map,
            at: usize::try_from(at).unwrap_or(usize::MAX),
            file: &self.path,
        }
    }

    fn offset(&self, table: u64, index: u64) -> Result<u64, IndexError> {
        let mut cursor = self.cursor(table + 8 * index);
        let offset = cursor.u64()?;
        if offset < HEADER_BYTES as u64 || offset >= self.header.end {
            return Err(cursor.corrupt("offset out of range"));
        }
        Ok(offset)
    }

    /// The number of games.
    pub(crate) fn games(&self) -> u64 {
        self.header.games
    }

    /// Game `index`.
    pub(crate) fn game(&self, index: u32) -> Result<GameView<'_>, IndexError> {
        if u64::from(index) >= self.header.games {
            return Err(self
                .cursor(0)
                .corrupt(&format!("game {index} of {}", self.header.games)));
        }
        let mut cursor = self.cursor(self.offset(self.header.game_offsets_at, u64::from(index))?);
        let id = cursor.text()?;
        let names = [cursor.text()?, cursor.text()?];
        let ratings = [cursor.u16()?, cursor.u16()?];
        let packed = cursor.u8()?;
        let month = cursor.u16()?;
        let plies = cursor.count(1 << 16)?;
        let moves = cursor.take(2 * plies)?;
        let fen = cursor.text()?;
        let masters = if self.header.flags & FLAG_MASTERS != 0 {
            Some([
                cursor.text()?,
                cursor.text()?,
                cursor.text()?,
                cursor.text()?,
            ])
        } else {
            None
        };
        let outcome = packed & 3;
        let speed = Speed::from_index(packed >> 2 & 7)
            .filter(|_| outcome < 3)
            .ok_or_else(|| cursor.corrupt("bad game flags"))?;
        Ok(GameView {
            id,
            names,
            ratings,
            outcome,
            speed,
            rated: packed & 32 != 0,
            month,
            moves,
            fen,
            masters,
        })
    }

    /// The games of the player named `lower` (in lower case): each game's
    /// index and the colour played.
    pub(crate) fn player_games(&self, lower: &str) -> Result<Vec<(u32, u8)>, IndexError> {
        let (mut low, mut high) = (0, self.header.names);
        while low < high {
            let middle = low + (high - low) / 2;
            let mut cursor = self.cursor(self.offset(self.header.name_offsets_at, middle)?);
            let name = cursor.text()?;
            match name.cmp(lower) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => {
                    let count =
                        cursor.count(usize::try_from(self.header.games).unwrap_or(usize::MAX))?;
                    let mut games = Vec::with_capacity(count);
                    let mut game = 0u64;
                    for _ in 0..count {
                        let packed = cursor.varint()?;
                        game += packed >> 1;
                        let index = u32::try_from(game)
                            .ok()
                            .filter(|&index| u64::from(index) < self.header.games)
                            .ok_or_else(|| cursor.corrupt("game out of range"))?;
                        games.push((index, (packed & 1) as u8));
                    }
                    return Ok(games);
                }
            }
        }
        Ok(Vec::new())
    }

    /// Every player's name (in lower case), in order.
    pub(crate) fn player_names(&self) -> Result<Vec<&str>, IndexError> {
        (0..self.header.names)
            .map(|index| {
                self.cursor(self.offset(self.header.name_offsets_at, index)?)
                    .text()
            })
            .collect()
    }

    /// The first key and offset of block `index`.
    fn block(&self, index: u64) -> Result<(Key, u64), IndexError> {
        let mut cursor = self.cursor(self.header.block_index_at + index * (KEY_BYTES as u64 + 8));
        let key = cursor.key()?;
        let offset = cursor.u64()?;
        if offset < self.header.blocks_at || offset >= self.header.block_index_at {
            return Err(cursor.corrupt("block offset out of range"));
        }
        Ok((key, offset))
    }

    /// Appends the rows of `key` to `rows`.
    pub(crate) fn rows(&self, key: Key, rows: &mut Vec<Row>) -> Result<(), IndexError> {
        // The last block whose first key is at most `key`.
        let (mut low, mut high) = (0, self.header.blocks);
        while low < high {
            let middle = low + (high - low) / 2;
            if self.block(middle)?.0 <= key {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        if low == 0 {
            return Ok(());
        }
        let mut found = None;
        self.scan_block(low - 1, |entry, payload| {
            if entry == key {
                found = Some(payload);
            }
            entry < key
        })?;
        if let Some(payload) = found {
            let mut inner = Cursor {
                bytes: payload,
                at: 0,
                file: &self.path,
            };
            self.read_rows(&mut inner, key, rows)?;
        }
        Ok(())
    }

    /// Reads block `index`'s keys and payloads in order, handing each to
    /// `each` until it returns false.
    fn scan_block<'a>(
        &'a self,
        index: u64,
        mut each: impl FnMut(Key, &'a [u8]) -> bool,
    ) -> Result<(), IndexError> {
        let (first, offset) = self.block(index)?;
        let end = if index + 1 < self.header.blocks {
            self.block(index + 1)?.1
        } else {
            self.header.block_index_at
        };
        if end < offset {
            return Err(self.cursor(offset).corrupt("blocks out of order"));
        }
        let mut cursor = self.cursor(offset);
        let shared = usize::from(cursor.u8()?);
        if shared > KEY_BYTES {
            return Err(cursor.corrupt("a block's shared key bytes out of range"));
        }
        let mut bytes = first.to_bytes();
        while (cursor.at as u64) < end {
            bytes[shared..].copy_from_slice(cursor.take(KEY_BYTES - shared)?);
            let key = Key::from_bytes(&bytes).ok_or_else(|| cursor.corrupt("bad key"))?;
            let length = cursor.count(self.map.len())?;
            let payload = cursor.take(length)?;
            if !each(key, payload) {
                break;
            }
        }
        Ok(())
    }

    /// Calls `each` with every key's rows, in key order.
    pub(crate) fn for_each_key(&self, mut each: impl FnMut(&[Row])) -> Result<(), IndexError> {
        let mut rows = Vec::new();
        let mut failure = None;
        for block in 0..self.header.blocks {
            self.scan_block(block, |key, payload| {
                let mut inner = Cursor {
                    bytes: payload,
                    at: 0,
                    file: &self.path,
                };
                rows.clear();
                match self.read_rows(&mut inner, key, &mut rows) {
                    Ok(()) => {
                        each(&rows);
                        true
                    }
                    Err(error) => {
                        failure = Some(error);
                        false
                    }
                }
            })?;
            if let Some(error) = failure {
                return Err(error);
            }
        }
        Ok(())
    }
}

impl Segment {
    /// Appends the rows of `key` (its payload at `cursor`) to `rows`; see
    /// the writer's `put_rows` for the layout.
    fn read_rows(
        &self,
        cursor: &mut Cursor<'_>,
        key: Key,
        rows: &mut Vec<Row>,
    ) -> Result<(), IndexError> {
        let count = cursor.count(cursor.bytes.len())?;
        let mut month = 0u16;
        let games = self.header.games;
        let game_index = |cursor: &mut Cursor<'_>| {
            let value = cursor.varint()?;
            u32::try_from(value)
                .ok()
                .filter(|_| value < games)
                .ok_or_else(|| cursor.corrupt("game out of range"))
        };
        for _ in 0..count {
            let tag = cursor.u8()?;
            if tag & 0x80 != 0 {
                if tag & 0x7e != 0 {
                    return Err(cursor.corrupt("bad row tag"));
                }
                let mv = cursor.u16()?;
                let index = game_index(cursor)?;
                let game = self.game(index)?;
                let mut games = [0; MASTERS_ROW_GAMES];
                games[0] = index;
                rows.push(Row {
                    key,
                    month: game.month,
                    mv,
                    speed: game.speed.index(),
                    band: RatingGroup::band(game.ratings[0], game.ratings[1]),
                    stats: Stats::single(
                        winner_of(game.outcome),
                        game.ratings[usize::from(tag & 1)],
                    ),
                    games,
                    game_count: 1,
                });
                continue;
            }
            let (speed, band) = (tag & 7, tag >> 3 & 15);
            if speed >= 6 || band > 9 {
                return Err(cursor.corrupt("bad speed or rating band"));
            }
            let step = cursor.varint()?;
            month = u16::try_from(step)
                .map(|step| month.wrapping_add(step))
                .map_err(|_| cursor.corrupt("month out of range"))?;
            let mv = cursor.u16()?;
            let stats = Stats {
                white: cursor.varint()?,
                draws: cursor.varint()?,
                black: cursor.varint()?,
                rating_sum: cursor.varint()?,
            };
            let n = cursor.u8()?;
            let most = if self.header.flags & FLAG_MASTERS != 0 {
                MASTERS_ROW_GAMES
            } else {
                ROW_GAMES
            };
            if usize::from(n) > most || u64::from(n) > stats.games() {
                return Err(cursor.corrupt("too many games in a row"));
            }
            let mut row = Row {
                key,
                month,
                mv,
                speed,
                band,
                stats,
                games: [0; MASTERS_ROW_GAMES],
                game_count: n,
            };
            for slot in 0..usize::from(n) {
                row.games[slot] = game_index(cursor)?;
            }
            rows.push(row);
        }
        Ok(())
    }
}
