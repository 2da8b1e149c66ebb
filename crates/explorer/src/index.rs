//! An index on disk, opened: its segments, queried together.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use bitboards::{Color, Move};

use crate::IndexError;
use crate::format::segment_path;
use crate::key::Key;
use crate::model::{Month, RatingGroup, Speed, Stats, winner_of};
use crate::openings::{Opening, Openings};
use crate::query::{
    Filter, GameInfo, GameRef, HistoryMonth, Limits, MoveStats, Play, Player, Response,
    explorer_uci, winner_name,
};
use crate::read::{GameView, Segment};
use crate::write::Row;

/// The file that lists an index's segments.
pub(crate) const MANIFEST: &str = "MANIFEST";

/// Top games at most (lila-openingexplorer's `MAX_TOP_GAMES`).
const MAX_TOP_GAMES: usize = 4;
/// Top games at most from a masters index (`MAX_MASTERS_GAMES`).
const MASTERS_TOP_GAMES: usize = crate::format::MASTERS_ROW_GAMES;
/// Games a position keeps per row, and recent and top games together.
const MAX_GAMES: usize = crate::format::ROW_GAMES;

/// What an index's manifest says: the plies counted, and its segments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Manifest {
    pub(crate) max_ply: u32,
    pub(crate) masters: bool,
    pub(crate) segments: Vec<u64>,
}

impl Manifest {
    pub(crate) fn read(dir: &Path) -> Result<Option<Manifest>, IndexError> {
        let path = dir.join(MANIFEST);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(IndexError::Io { path, error }),
        };
        let corrupt = |detail: &str| IndexError::Corrupt {
            file: path.clone(),
            detail: detail.to_owned(),
        };
        let mut lines = text.lines();
        if lines.next() != Some("bitboards-explorer 1") {
            return Err(corrupt("not a bitboards explorer manifest (first line)"));
        }
        let mut manifest = Manifest {
            max_ply: 50,
            masters: false,
            segments: Vec::new(),
        };
        for line in lines {
            let (name, value) = line.split_once(' ').unwrap_or((line, ""));
            match name {
                "max-ply" => {
                    manifest.max_ply = value.parse().map_err(|_| corrupt("bad max-ply"))?
                }
                "masters" => manifest.masters = value == "true",
                "segment" => manifest
                    .segments
                    .push(value.parse().map_err(|_| corrupt("bad segment number"))?),
                "" => {}
                _ => return Err(corrupt(&format!("unknown line {line:?}"))),
            }
        }
        Ok(Some(manifest))
    }

    /// Writes the manifest under a temporary name, synced, then renamed
    /// over the old one: a reader sees the old list or the new.
    pub(crate) fn write(&self, dir: &Path) -> Result<(), IndexError> {
        let mut text = format!(
            "bitboards-explorer 1\nmax-ply {}\nmasters {}\n",
            self.max_ply, self.masters
        );
        for segment in &self.segments {
            text.push_str(&format!("segment {segment}\n"));
        }
        let path = dir.join(MANIFEST);
        let staging = dir.join("MANIFEST.partial");
        let io = |error| IndexError::Io {
            path: path.clone(),
            error,
        };
        {
            use std::io::Write;
            let mut file = std::fs::File::create(&staging).map_err(io)?;
            file.write_all(text.as_bytes()).map_err(io)?;
            file.sync_all().map_err(io)?;
        }
        std::fs::rename(&staging, &path).map_err(io)
    }
}

/// An opening explorer's index, opened: query it by position, with
/// Lichess's filters.
///
/// ```
/// use bitboards_explorer::{BuildOptions, Explorer, Filter, Limits, Play};
///
/// let dir = std::env::temp_dir().join(format!("explorer-doc-{}", std::process::id()));
/// let pgn = "[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[WhiteElo \"2100\"]\n[BlackElo \"1900\"]\n\
///            [UTCDate \"2024.05.01\"]\n[TimeControl \"180+0\"]\n[Site \"https://lichess.org/abcdefgh\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
/// bitboards_explorer::build_bytes(pgn.as_bytes().to_vec(), &dir, &BuildOptions::default())?;
/// let explorer = Explorer::open(&dir)?;
/// let answer = explorer.lichess(&Play::new(None, &["e2e4"])?, &Filter::default(), &Limits::default())?;
/// assert_eq!((answer.white, answer.moves[0].san.as_str()), (1, "e5"));
/// assert_eq!(answer.moves[0].average_rating, Some(1900));
/// assert_eq!(answer.moves[0].game.as_ref().unwrap().id, "abcdefgh");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Explorer {
    dir: PathBuf,
    pub(crate) manifest: Manifest,
    pub(crate) segments: Vec<Segment>,
    openings: Openings,
    /// Each game's segment and index by id, made when first asked
    /// (`masters_pgn`).
    ids: std::sync::OnceLock<HashMap<String, (usize, u32)>>,
}

/// A position's rows, gathered for an answer.
#[derive(Default)]
struct Gathered {
    /// Each move, its statistics and latest game, most played first.
    by_move: Vec<(u16, Stats, Option<Order>)>,
    total: Stats,
    games: Vec<Met>,
    months: Vec<(u16, Stats)>,
}

/// Where a game comes in the order games were played and added: its
/// month, segment and index.
type Order = (u16, usize, u32);

/// A game met by a query: where it is, and how it ranks.
#[derive(Clone, Copy, Debug)]
struct Met {
    /// Month, segment, index: the order games were played and added.
    order: (u16, usize, u32),
    band: u8,
    speed: Speed,
    mv: u16,
}

impl Explorer {
    /// Opens the index in `dir`, reading and checking every segment.
    ///
    /// # Errors
    /// No index there, a file that cannot be read, a segment that is
    /// truncated or damaged.
    pub fn open(dir: impl AsRef<Path>) -> Result<Explorer, IndexError> {
        let dir = dir.as_ref().to_path_buf();
        let manifest = Manifest::read(&dir)?.ok_or_else(|| IndexError::NoIndex(dir.clone()))?;
        let segments = manifest
            .segments
            .iter()
            .map(|&number| Segment::open(&segment_path(&dir, number)))
            .collect::<Result<_, _>>()?;
        Ok(Explorer {
            dir,
            manifest,
            segments,
            openings: Openings::lichess(),
            ids: std::sync::OnceLock::new(),
        })
    }

    /// The directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The games indexed.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.segments.iter().map(Segment::games).sum()
    }

    /// The segments.
    #[must_use]
    pub fn segment_count(&self) -> usize {
        self.segments.len()
    }

    /// The plies of each game counted.
    #[must_use]
    pub fn max_ply(&self) -> u32 {
        self.manifest.max_ply
    }

    /// The opening names.
    #[must_use]
    pub fn openings(&self) -> &Openings {
        &self.openings
    }

    /// The opening of a query: the last named position on its way.
    fn opening(&self, play: &Play) -> Option<Opening> {
        play.path
            .iter()
            .rev()
            .find_map(|position| self.openings.name(position))
            .cloned()
    }

    fn game_info(&self, segment: usize, index: u32) -> Result<GameInfo, IndexError> {
        let game = self.segments[segment].game(index)?;
        Ok(info_of(&game))
    }

    /// The rows of `play`'s position that `counted` takes, folded by move
    /// (most played first, then by UCI), with each game they keep and the
    /// statistics by month.
    fn gather(&self, play: &Play, counted: impl Fn(&Row) -> bool) -> Result<Gathered, IndexError> {
        let key = Key::of(&play.position);
        let mut rows = Vec::new();
        let mut sources = Vec::new();
        for (index, segment) in self.segments.iter().enumerate() {
            let before = rows.len();
            segment.rows(key, &mut rows)?;
            sources.extend(std::iter::repeat_n(index, rows.len() - before));
        }
        let mut gathered = Gathered::default();
        for (row, &source) in rows.iter().zip(&sources) {
            if !counted(row) {
                continue;
            }
            let by_move = &mut gathered.by_move;
            let slot = match by_move.iter().position(|entry| entry.0 == row.mv) {
                Some(slot) => slot,
                None => {
                    by_move.push((row.mv, Stats::default(), None));
                    by_move.len() - 1
                }
            };
            by_move[slot].1 += row.stats;
            for &game in row.games() {
                let order = (row.month, source, game);
                if by_move[slot].2.is_none_or(|latest| latest < order) {
                    by_move[slot].2 = Some(order);
                }
                gathered.games.push(Met {
                    order,
                    band: row.band,
                    speed: Speed::from_index(row.speed).unwrap_or(Speed::Correspondence),
                    mv: row.mv,
                });
            }
            match gathered
                .months
                .iter_mut()
                .find(|(month, _)| *month == row.month)
            {
                Some((_, stats)) => *stats += row.stats,
                None => gathered.months.push((row.month, row.stats)),
            }
        }
        // Most played first; ties by UCI, as a reader sorts them.
        gathered.by_move.sort_by_cached_key(|(mv, stats, _)| {
            (
                std::cmp::Reverse(stats.games()),
                Move::from_bits(*mv).map(explorer_uci),
            )
        });
        for (_, stats, _) in &gathered.by_move {
            gathered.total += *stats;
        }
        Ok(gathered)
    }

    /// The first `limits.moves` of `gathered`'s moves, with the average
    /// rating of those who played them, and the game of a move played once.
    fn moves(
        &self,
        play: &Play,
        gathered: &Gathered,
        limits: &Limits,
    ) -> Result<Vec<MoveStats>, IndexError> {
        let position = &play.position;
        let mut moves = Vec::new();
        for (mv, stats, latest) in gathered.by_move.iter().take(limits.moves) {
            let Some(mv) = Move::from_bits(*mv).filter(|&mv| position.is_legal(mv)) else {
                return Err(self.damaged("a move that is not legal in its position"));
            };
            let after = position.play_unchecked(mv);
            let game = match latest {
                Some((_, segment, index)) if stats.games() == 1 => {
                    Some(self.game_info(*segment, *index)?)
                }
                _ => None,
            };
            moves.push(MoveStats {
                uci: explorer_uci(mv),
                san: position.san(mv).to_string(),
                average_rating: stats.average_rating(),
                average_opponent_rating: None,
                performance: None,
                white: stats.white,
                draws: stats.draws,
                black: stats.black,
                game,
                opening: self.openings.name(&after).cloned(),
            });
        }
        Ok(moves)
    }

    /// `games` as the API lists them, each with the move played in it.
    fn game_refs(&self, games: Vec<Met>) -> Result<Vec<GameRef>, IndexError> {
        games
            .into_iter()
            .map(|met| {
                let mv = Move::from_bits(met.mv).ok_or_else(|| self.damaged("a bad move"))?;
                Ok(GameRef {
                    uci: explorer_uci(mv),
                    game: self.game_info(met.order.1, met.order.2)?,
                })
            })
            .collect()
    }

    /// The moves played from `play`'s position in the games that `filter`
    /// counts, as Lichess's `GET /lichess` answers.
    ///
    /// # Errors
    /// A segment found damaged.
    pub fn lichess(
        &self,
        play: &Play,
        filter: &Filter,
        limits: &Limits,
    ) -> Result<Response, IndexError> {
        let gathered = self.gather(play, |row: &Row| {
            filter.has_month(Month::from_bits(row.month))
                && Speed::from_index(row.speed).is_some_and(|speed| filter.has_speed(speed))
                && filter.has_rating(RatingGroup::of_band(row.band))
        })?;
        let moves = self.moves(play, &gathered, limits)?;
        let Gathered {
            total,
            games,
            months,
            ..
        } = gathered;
        let (top, recent) = split_games(games, filter, limits);
        Ok(Response {
            white: total.white,
            draws: total.draws,
            black: total.black,
            moves,
            recent_games: Some(self.game_refs(recent)?),
            top_games: Some(self.game_refs(top)?),
            opening: self.opening(play),
            queue_position: None,
            history: limits.history.then(|| history(months, filter)),
        })
    }

    /// Whether the index is a masters index (built with `masters`).
    #[must_use]
    pub fn is_masters(&self) -> bool {
        self.manifest.masters
    }

    /// The moves played from `play`'s position in the games of the years
    /// `since` to `until` (each `None`: no bound), as Lichess's `GET
    /// /masters` answers: with the top games by the players' rating sum
    /// (15 at the most, `limits.top_games`; ties to the later game), and
    /// no recent games or history. Meant for a masters index; a Lichess
    /// index answers the same way from its games.
    ///
    /// ```
    /// use bitboards_explorer::{BuildOptions, Explorer, Limits, Play};
    ///
    /// let dir = std::env::temp_dir().join(format!("explorer-masters-doc-{}", std::process::id()));
    /// let pgn = "[Event \"Hoogovens\"]\n[Site \"Wijk aan Zee NED\"]\n[Date \"1999.01.20\"]\n[Round \"4\"]\n\
    ///            [White \"Kasparov, G.\"]\n[Black \"Topalov, V.\"]\n[Result \"1-0\"]\n\
    ///            [WhiteElo \"2812\"]\n[BlackElo \"2700\"]\n\n1. e4 d6 2. d4 Nf6 1-0\n\n";
    /// bitboards_explorer::build_bytes(pgn.as_bytes().to_vec(), &dir, &BuildOptions::masters())?;
    /// let explorer = Explorer::open(&dir)?;
    /// let answer = explorer.masters(&Play::new(None, &["e2e4"])?, Some(1990), None, &Limits::masters())?;
    /// assert_eq!((answer.white, answer.moves[0].san.as_str()), (1, "d6"));
    /// let top = &answer.top_games.as_ref().unwrap()[0];
    /// assert_eq!((top.game.year, top.game.month.as_deref()), (1999, Some("1999-01")));
    /// let pgn = explorer.masters_pgn(&top.game.id)?.unwrap();
    /// assert!(pgn.contains("[Site \"Wijk aan Zee NED\"]") && pgn.ends_with("1. e4 d6 2. d4 Nf6 1-0\n"));
    /// assert!(explorer.masters(&Play::new(None, &["e2e4"])?, Some(2000), None, &Limits::masters())?.moves.is_empty());
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A segment found damaged.
    pub fn masters(
        &self,
        play: &Play,
        since: Option<u16>,
        until: Option<u16>,
        limits: &Limits,
    ) -> Result<Response, IndexError> {
        let gathered = self.gather(play, |row: &Row| {
            let year = Month::from_bits(row.month).year();
            since.is_none_or(|since| year >= since) && until.is_none_or(|until| year <= until)
        })?;
        let moves = self.moves(play, &gathered, limits)?;
        let mut ranked = Vec::with_capacity(gathered.games.len());
        for met in gathered.games {
            let game = self.segments[met.order.1].game(met.order.2)?;
            let sum = u32::from(game.ratings[0]) + u32::from(game.ratings[1]);
            ranked.push((sum, met));
        }
        ranked.sort_by_key(|(sum, met)| std::cmp::Reverse((*sum, met.order)));
        ranked.truncate(limits.top_games.min(MASTERS_TOP_GAMES));
        let top = ranked.into_iter().map(|(_, met)| met).collect();
        Ok(Response {
            white: gathered.total.white,
            draws: gathered.total.draws,
            black: gathered.total.black,
            moves,
            recent_games: None,
            top_games: Some(self.game_refs(top)?),
            opening: self.opening(play),
            queue_position: None,
            history: None,
        })
    }

    /// The game `id` of a masters index as PGN, as Lichess's `GET
    /// /masters/pgn/{id}` gives it: the Seven Tag Roster and both Elos
    /// (and the `FEN` it starts from), then its moves in SAN on one line.
    /// `None` when the index has no such game.
    ///
    /// # Errors
    /// A segment found damaged.
    pub fn masters_pgn(&self, id: &str) -> Result<Option<String>, IndexError> {
        let ids = match self.ids.get() {
            Some(ids) => ids,
            None => {
                let mut ids = HashMap::new();
                for (source, segment) in self.segments.iter().enumerate() {
                    for index in 0..u32::try_from(segment.games()).unwrap_or(u32::MAX) {
                        ids.entry(segment.game(index)?.id.to_owned())
                            .or_insert((source, index));
                    }
                }
                self.ids.get_or_init(|| ids)
            }
        };
        let Some(&(source, index)) = ids.get(id) else {
            return Ok(None);
        };
        let game = self.segments[source].game(index)?;
        crate::pgn::masters_pgn(&game)
            .map(Some)
            .map_err(|detail| self.damaged(detail))
    }

    /// The moves `player` played (as `color`) and met from `play`'s
    /// position, as Lichess's `GET /player` answers: with the opponents'
    /// average rating and the player's performance, and the recent games.
    /// The games are replayed from the index (their first plies), so the
    /// answer is the whole index's, at once (`queuePosition` 0).
    ///
    /// # Errors
    /// A segment found damaged.
    pub fn player(
        &self,
        player: &str,
        color: Color,
        play: &Play,
        filter: &PlayerFilter,
        limits: &Limits,
    ) -> Result<Response, IndexError> {
        let key = Key::of(&play.position);
        let lower = player.to_lowercase();
        let side = u8::from(color == Color::Black);
        let mut by_move: HashMap<u16, (Stats, (u16, usize, u32))> = HashMap::new();
        let mut games: Vec<((u16, usize, u32), u16)> = Vec::new();
        for (source, segment) in self.segments.iter().enumerate() {
            for (index, played_as) in segment.player_games(&lower)? {
                if played_as != side {
                    continue;
                }
                let game = segment.game(index)?;
                let month = Month::from_bits(game.month);
                if !filter
                    .speeds
                    .as_ref()
                    .is_none_or(|speeds| speeds.contains(&game.speed))
                    || !filter
                        .modes
                        .as_ref()
                        .is_none_or(|modes| modes.contains(&game.rated))
                    || filter.since.is_some_and(|since| month < since)
                    || filter.until.is_some_and(|until| month > until)
                {
                    continue;
                }
                let Some(mv) = last_move_from(&game, key).map_err(|detail| self.damaged(detail))?
                else {
                    continue;
                };
                let opponent = game.ratings[usize::from(1 - side)];
                let order = (game.month, source, index);
                let entry = by_move
                    .entry(mv.to_bits())
                    .or_insert((Stats::default(), order));
                entry.0 += Stats::single(winner_of(game.outcome), opponent);
                entry.1 = entry.1.max(order);
                games.push((order, mv.to_bits()));
            }
        }
        let position = &play.position;
        let mut ranked: Vec<_> = by_move.into_iter().collect();
        ranked.sort_by(|a, b| b.1.0.games().cmp(&a.1.0.games()).then(a.0.cmp(&b.0)));
        let mut total = Stats::default();
        for (_, (stats, _)) in &ranked {
            total += *stats;
        }
        let mut moves = Vec::new();
        for (mv, (stats, latest)) in ranked.iter().take(limits.moves) {
            let Some(mv) = Move::from_bits(*mv).filter(|&mv| position.is_legal(mv)) else {
                return Err(self.damaged("a move that is not legal in its position"));
            };
            let after = position.play_unchecked(mv);
            moves.push(MoveStats {
                uci: explorer_uci(mv),
                san: position.san(mv).to_string(),
                average_rating: None,
                average_opponent_rating: stats.average_rating(),
                performance: stats.performance(color),
                white: stats.white,
                draws: stats.draws,
                black: stats.black,
                game: if stats.games() == 1 {
                    Some(self.game_info(latest.1, latest.2)?)
                } else {
                    None
                },
                opening: self.openings.name(&after).cloned(),
            });
        }
        games.sort_by_key(|game| std::cmp::Reverse(game.0));
        games.truncate(limits.recent_games.min(MAX_GAMES));
        let recent_games = games
            .into_iter()
            .map(|((_, segment, index), mv)| {
                let mv = Move::from_bits(mv).ok_or_else(|| self.damaged("a bad move"))?;
                Ok(GameRef {
                    uci: explorer_uci(mv),
                    game: self.game_info(segment, index)?,
                })
            })
            .collect::<Result<_, IndexError>>()?;
        Ok(Response {
            white: total.white,
            draws: total.draws,
            black: total.black,
            moves,
            recent_games: Some(recent_games),
            top_games: None,
            opening: self.opening(play),
            queue_position: Some(0),
            history: None,
        })
    }

    fn damaged(&self, detail: &str) -> IndexError {
        IndexError::Corrupt {
            file: self.dir.clone(),
            detail: detail.to_owned(),
        }
    }
}

/// Which of a player's games count: speeds, modes (rated or not) and
/// months (`None`: all).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerFilter {
    /// The speeds counted.
    pub speeds: Option<Vec<Speed>>,
    /// Rated (`true`) or casual (`false`) games, or both.
    pub modes: Option<Vec<bool>>,
    /// The first month counted.
    pub since: Option<Month>,
    /// The last month counted.
    pub until: Option<Month>,
}

impl PlayerFilter {
    /// A filter from the API's comma-separated speeds and modes (`rated`,
    /// `casual`) and its months.
    ///
    /// ```
    /// use bitboards_explorer::{PlayerFilter, Speed};
    ///
    /// let filter = PlayerFilter::parse(Some("blitz"), Some("rated"), None, Some("2024-06"))?;
    /// assert_eq!((filter.speeds, filter.modes), (Some(vec![Speed::Blitz]), Some(vec![true])));
    /// assert!(PlayerFilter::parse(None, Some("turbo"), None, None).is_err());
    /// # Ok::<(), bitboards_explorer::ParseError>(())
    /// ```
    ///
    /// # Errors
    /// An unknown speed or mode, or a month not `YYYY-MM`.
    pub fn parse(
        speeds: Option<&str>,
        modes: Option<&str>,
        since: Option<&str>,
        until: Option<&str>,
    ) -> Result<PlayerFilter, crate::ParseError> {
        let filter = Filter::parse(speeds, None, since, until)?;
        let mode = |text: &str| match text {
            "rated" => Ok(true),
            "casual" => Ok(false),
            other => Err(crate::ParseError::new("mode", other, "rated or casual")),
        };
        Ok(PlayerFilter {
            speeds: filter.speeds,
            modes: modes
                .map(|list| {
                    list.split(',')
                        .map(str::trim)
                        .filter(|item| !item.is_empty())
                        .map(mode)
                        .collect()
                })
                .transpose()?,
            since: filter.since,
            until: filter.until,
        })
    }
}

/// The move `game` played last from the position of `key`, replaying its
/// stored plies; `None` when it never reached it.
fn last_move_from(game: &GameView<'_>, key: Key) -> Result<Option<Move>, &'static str> {
    let mut found = None;
    game.replay(|position, mv| {
        if Key::of(position) == key {
            found = Some(mv);
        }
    })?;
    Ok(found)
}

pub(crate) fn info_of(game: &GameView<'_>) -> GameInfo {
    let month = Month::from_bits(game.month);
    // A masters game's month is shown only when its date has one.
    let masters = game.masters.is_some();
    let known_month = game
        .masters
        .is_none_or(|[_, _, _, date]| crate::model::year_and_month(date).1.is_some());
    GameInfo {
        id: game.id.to_owned(),
        winner: winner_name(game.outcome),
        speed: (!masters).then(|| game.speed.name()),
        mode: (!masters).then_some(if game.rated { "rated" } else { "casual" }),
        white: Player {
            name: game.names[0].to_owned(),
            rating: game.ratings[0],
        },
        black: Player {
            name: game.names[1].to_owned(),
            rating: game.ratings[1],
        },
        year: month.year(),
        month: known_month.then(|| month.to_string()),
    }
}

/// Top and recent games as lila-openingexplorer picks them: top games are
/// those of the highest rating bands the filter takes whole (2000 and up),
/// ranked by how near their band is to the best rating at their speed,
/// then latest first; recent games are the latest of the rest, as many as
/// leave eight games in all.
fn split_games(mut games: Vec<Met>, filter: &Filter, limits: &Limits) -> (Vec<Met>, Vec<Met>) {
    let has_band = |band: u8| filter.has_rating(RatingGroup::of_band(band));
    let mut top_band = None;
    for band in (6..=9).rev() {
        if !has_band(band) {
            break;
        }
        top_band = Some(band);
    }
    let mut top = Vec::new();
    if let Some(top_band) = top_band {
        top = games
            .iter()
            .copied()
            .filter(|met| met.band >= top_band)
            .collect();
        top.sort_by_key(|met| {
            (
                met.speed.highscore() - RatingGroup::band_bound(met.band),
                std::cmp::Reverse(met.order),
            )
        });
        top.truncate(MAX_TOP_GAMES);
        games.retain(|met| !top.iter().any(|chosen| chosen.order == met.order));
    }
    let room = MAX_GAMES - top.len();
    top.truncate(limits.top_games);
    games.sort_by_key(|met| std::cmp::Reverse(met.order));
    games.truncate(room.min(limits.recent_games));
    (top, games)
}

/// The history by month: every month from `since` (or the first with
/// games) to the last with games, the months between with none included.
fn history(mut months: Vec<(u16, Stats)>, filter: &Filter) -> Vec<HistoryMonth> {
    months.sort_by_key(|(month, _)| *month);
    let Some(&(last, _)) = months.last() else {
        return Vec::new();
    };
    let first = filter
        .since
        .map_or(months[0].0, Month::to_bits)
        .min(months[0].0);
    let mut out = Vec::new();
    let mut next = months.iter().peekable();
    for month in first..=last {
        let stats = match next.peek() {
            Some((at, stats)) if *at == month => {
                next.next();
                *stats
            }
            _ => Stats::default(),
        };
        out.push(HistoryMonth {
            month: Month::from_bits(month).to_string(),
            white: stats.white,
            draws: stats.draws,
            black: stats.black,
        });
    }
    out
}
