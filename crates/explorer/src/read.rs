//! Reading a segment, held in memory (read whole when opened: no mapping
//! that another process could cut short under the reader).

use std::path::{Path, PathBuf};

use crate::IndexError;
use crate::format::{Cursor, HEADER_BYTES, Header, ROW_GAMES};
use crate::key::{KEY_BYTES, Key};
use crate::model::{Speed, Stats};
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
}

impl GameView<'_> {
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
    pub(crate) fn from_bytes(map: Vec<u8>, path: &Path) -> Result<Segment, IndexError> {
        let header = Header::read(&map, path)?;
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
        let moves = cursor.take(plies)?;
        let fen = cursor.text()?;
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
        let (_, offset) = self.block(low - 1)?;
        let end = if low < self.header.blocks {
            self.block(low)?.1
        } else {
            self.header.block_index_at
        };
        let mut cursor = self.cursor(offset);
        while (cursor.at as u64) < end {
            let found = cursor.key()?;
            let length = cursor.count(self.map.len())?;
            let payload = cursor.take(length)?;
            if found == key {
                let mut inner = Cursor {
                    bytes: payload,
                    at: 0,
                    file: &self.path,
                };
                return read_rows(&mut inner, key, self.header.games, rows);
            }
            if found > key {
                break;
            }
        }
        Ok(())
    }

    /// Calls `each` with every key's rows, in key order.
    pub(crate) fn for_each_key(&self, mut each: impl FnMut(&[Row])) -> Result<(), IndexError> {
        let mut cursor = self.cursor(self.header.blocks_at);
        let mut rows = Vec::new();
        while (cursor.at as u64) < self.header.block_index_at {
            let key = cursor.key()?;
            let length = cursor.count(self.map.len())?;
            let payload = cursor.take(length)?;
            let mut inner = Cursor {
                bytes: payload,
                at: 0,
                file: &self.path,
            };
            rows.clear();
            read_rows(&mut inner, key, self.header.games, &mut rows)?;
            each(&rows);
        }
        Ok(())
    }
}

fn read_rows(
    cursor: &mut Cursor<'_>,
    key: Key,
    games: u64,
    rows: &mut Vec<Row>,
) -> Result<(), IndexError> {
    let count = cursor.count(cursor.bytes.len())?;
    let mut month = 0u16;
    let game_index = |cursor: &mut Cursor<'_>| {
        let value = cursor.varint()?;
        u32::try_from(value)
            .ok()
            .filter(|_| value < games)
            .ok_or_else(|| cursor.corrupt("game out of range"))
    };
    for _ in 0..count {
        let step = cursor.varint()?;
        month = u16::try_from(u64::from(month) + step)
            .map_err(|_| cursor.corrupt("month out of range"))?;
        let mv = cursor.u16()?;
        let packed = cursor.u8()?;
        let (speed, band) = (packed & 7, packed >> 3 & 15);
        if speed >= 6 || band > 9 {
            return Err(cursor.corrupt("bad speed or rating band"));
        }
        let mut row = Row {
            key,
            month,
            mv,
            speed,
            band,
            stats: Stats::default(),
            games: [0; ROW_GAMES],
            game_count: 0,
        };
        if packed & 0x80 != 0 {
            let value = cursor.varint()?;
            let rating_sum = value >> 2;
            row.stats = match value & 3 {
                0 => Stats {
                    white: 1,
                    rating_sum,
                    ..Stats::default()
                },
                1 => Stats {
                    draws: 1,
                    rating_sum,
                    ..Stats::default()
                },
                2 => Stats {
                    black: 1,
                    rating_sum,
                    ..Stats::default()
                },
                _ => return Err(cursor.corrupt("bad result")),
            };
            row.games[0] = game_index(cursor)?;
            row.game_count = 1;
        } else {
            row.stats = Stats {
                white: cursor.varint()?,
                draws: cursor.varint()?,
                black: cursor.varint()?,
                rating_sum: cursor.varint()?,
            };
            let n = cursor.u8()?;
            if usize::from(n) > ROW_GAMES || u64::from(n) > row.stats.games() {
                return Err(cursor.corrupt("too many games in a row"));
            }
            for slot in 0..usize::from(n) {
                row.games[slot] = game_index(cursor)?;
            }
            row.game_count = n;
        }
        rows.push(row);
    }
    Ok(())
}
