//! Reading a game for the index: which games count, and what of them.

use bitboards::{Color, Move, Position};
use bitboards_pgn::{PgnError, PgnErrorKind, PgnMove, Visitor};

use crate::key::Key;
use crate::model::{Month, Speed, Winner};

/// Why a game was left out of the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Skip {
    /// A variant other than standard chess (its `Variant` tag).
    Variant,
    /// A player with the `BOT` title.
    Bot,
    /// No known result (`1-0`, `0-1` or `1/2-1/2`) in the `Result` tag.
    Result,
    /// `WhiteElo` or `BlackElo` missing or not a number.
    Rating,
    /// No month in the `Date` or `UTCDate` tag.
    Date,
    /// No `TimeControl` tag that gives a speed.
    TimeControl,
    /// The PGN of the game is malformed where it is read (an illegal move
    /// among the plies counted, say; what comes after them is not read).
    Unreadable,
    /// A masters index: the players' midpoint rating is below 2200.
    BelowMasters,
    /// A masters index: a game already indexed (the same id).
    Duplicate,
    /// A masters index: no year in the `Date` tag.
    Year,
}

impl Skip {
    /// Every reason, in the order the counts are reported.
    pub const ALL: [Skip; 10] = [
        Skip::Variant,
        Skip::Bot,
        Skip::Result,
        Skip::Rating,
        Skip::Date,
        Skip::TimeControl,
        Skip::Unreadable,
        Skip::BelowMasters,
        Skip::Duplicate,
        Skip::Year,
    ];

    /// The reasons a Lichess index leaves games out.
    pub const LICHESS: [Skip; 7] = [
        Skip::Variant,
        Skip::Bot,
        Skip::Result,
        Skip::Rating,
        Skip::Date,
        Skip::TimeControl,
        Skip::Unreadable,
    ];

    /// The reasons a masters index leaves games out (a bot or a missing
    /// time control is not one).
    pub const MASTERS: [Skip; 7] = [
        Skip::Variant,
        Skip::Result,
        Skip::Rating,
        Skip::BelowMasters,
        Skip::Year,
        Skip::Unreadable,
        Skip::Duplicate,
    ];

    /// A short name for reports.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Skip::Variant => "variant",
            Skip::Bot => "bot",
            Skip::Result => "no result",
            Skip::Rating => "no ratings",
            Skip::Date => "no month",
            Skip::TimeControl => "no time control",
            Skip::Unreadable => "unreadable",
            Skip::BelowMasters => "below 2200",
            Skip::Duplicate => "duplicate",
            Skip::Year => "no year",
        }
    }
}

/// What the index keeps of a game: who played it, when, at what speed,
/// how it ended, and its opening's positions (the first `max_ply` plies).
/// A masters game also keeps its `Event`, `Site`, `Round` and `Date` and
/// all of its moves, to be given back as PGN.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    /// The game's id: the last part of its `Site` URL (Lichess's eight
    /// characters), or empty when it has none (the index then makes one).
    pub id: String,
    /// The players' names.
    pub names: [String; 2],
    /// The players' ratings.
    pub ratings: [u16; 2],
    /// The winner; `None` for a draw.
    pub winner: Winner,
    /// The speed.
    pub speed: Option<Speed>,
    /// The month.
    pub month: Option<Month>,
    /// Whether the game was rated (an `Event` without "Casual").
    pub rated: bool,
    /// The `FEN` the game starts from, when it has one.
    pub fen: Option<String>,
    /// The moves of the first `max_ply` plies (all of them, for a masters
    /// game).
    pub moves: Vec<Move>,
    /// A masters game's `Event`, `Site`, `Round` and `Date` tags (`None`
    /// for a Lichess game).
    pub masters: Option<Box<MastersTags>>,
    /// For each position of the first `max_ply` plies, once (the move
    /// played from it last, as lila-openingexplorer's `without_loops`):
    /// its key, the move, and the side that played it; sorted by key once
    /// the game is finished.
    pub positions: Vec<(Key, Move, Color)>,
    /// Why the game is left out, if it is.
    pub skip: Option<Skip>,
    /// A null move was met: the plies after it do not count.
    ended: bool,
    /// `Result` as read.
    result: Option<Winner>,
    elos: [Option<u16>; 2],
    bot: bool,
    variant: bool,
    time_control: Option<Speed>,
    lichess_id: String,
}

/// Why Lichess's explorer leaves `game` out, if it does (its order of
/// checks).
fn lichess_skip(game: &GameRecord, unplayable: bool, failed: bool) -> Option<Skip> {
    if game.variant || unplayable {
        Some(Skip::Variant)
    } else if game.bot {
        Some(Skip::Bot)
    } else if game.result.is_none() {
        Some(Skip::Result)
    } else if game.elos.iter().any(Option::is_none) {
        Some(Skip::Rating)
    } else if game.month.is_none() {
        Some(Skip::Date)
    } else if game.time_control.is_none() {
        Some(Skip::TimeControl)
    } else if failed {
        Some(Skip::Unreadable)
    } else {
        None
    }
}

/// Why Lichess's masters explorer leaves `game` out, if it does; its
/// month set from its `Date` (January when the date has a year only).
fn masters_skip(game: &mut GameRecord, unplayable: bool, failed: bool) -> Option<Skip> {
    let tags = game.masters.get_or_insert_with(Box::default);
    let (year, month) = crate::model::year_and_month(&tags.date);
    game.month = year.and_then(|year| Month::new(year, month.unwrap_or(1)));
    let midpoint = match game.elos {
        [Some(white), Some(black)] => Some((u32::from(white) + u32::from(black)) / 2),
        _ => None,
    };
    if game.variant || unplayable {
        Some(Skip::Variant)
    } else if game.result.is_none() {
        Some(Skip::Result)
    } else if midpoint.is_none() {
        Some(Skip::Rating)
    } else if midpoint < Some(2200) {
        Some(Skip::BelowMasters)
    } else if game.month.is_none() {
        Some(Skip::Year)
    } else if failed {
        Some(Skip::Unreadable)
    } else {
        None
    }
}

/// Keeps one entry of each position, the last: reversed, sorted by key
/// (stably: the last occurrence first), then one of each key (lila's
/// `without_loops`).
fn without_loops(positions: &mut Vec<(Key, Move, Color)>) {
    positions.reverse();
    positions.sort_by_key(|&(key, _, _)| key);
    positions.dedup_by_key(|&mut (key, _, _)| key);
}

/// The tags a masters game is given back with (`GET /masters/pgn/{id}`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MastersTags {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Round`.
    pub round: String,
    /// `Date` as written (`YYYY.MM.DD`, parts possibly `??`).
    pub date: String,
}

/// A [`Visitor`] that reads a game into a [`GameRecord`].
#[derive(Clone, Debug)]
pub struct GameReader {
    /// The game read.
    pub game: GameRecord,
    /// Plies counted (50, as Lichess's explorer).
    pub max_ply: usize,
    /// Whether games are read for a masters index: by the rules of
    /// lila-openingexplorer's masters import (a midpoint of 2200 and up,
    /// a year, no time control needed; the id from a `LichessId` tag, or
    /// made from the game; every move kept).
    pub masters: bool,
}

impl GameReader {
    /// A reader that keeps `max_ply` plies of each game.
    #[must_use]
    pub fn new(max_ply: usize) -> GameReader {
        GameReader {
            game: GameRecord::default(),
            max_ply,
            masters: false,
        }
    }

    /// A reader for a masters index, counting `max_ply` plies of each game.
    #[must_use]
    pub fn masters(max_ply: usize) -> GameReader {
        GameReader {
            masters: true,
            ..GameReader::new(max_ply)
        }
    }

    /// The game read, with its reason to be left out settled: call after
    /// the game has been read, with the error that ended it if it failed.
    pub fn finish(&mut self, error: Option<&PgnError>) -> GameRecord {
        // The reader stops at a variant it does not play, before the
        // visitor hears of its tag.
        let unplayable =
            error.is_some_and(|error| matches!(error.kind(), PgnErrorKind::UnsupportedVariant(_)));
        let failed = error.is_some();
        let game = &mut self.game;
        game.skip = if self.masters {
            masters_skip(game, unplayable, failed)
        } else {
            lichess_skip(game, unplayable, failed)
        };
        game.winner = game.result.flatten();
        game.ratings = [game.elos[0].unwrap_or(0), game.elos[1].unwrap_or(0)];
        if self.masters {
            game.speed = Some(Speed::Classical);
            game.id = core::mem::take(&mut game.lichess_id);
            game.positions.truncate(self.max_ply);
        } else {
            game.speed = game.time_control;
        }
        without_loops(&mut game.positions);
        core::mem::take(game)
    }

    fn wants_moves(&self) -> bool {
        !self.game.variant
            && (self.masters || !self.game.bot)
            && self.game.result.is_some()
            && self.game.elos.iter().all(Option::is_some)
    }
}

impl Visitor for GameReader {
    fn begin_game(&mut self, _: usize) {
        self.game = GameRecord {
            rated: true,
            moves: Vec::with_capacity(self.max_ply.min(64)),
            positions: Vec::with_capacity(self.max_ply.min(64)),
            ..GameRecord::default()
        };
    }

    fn tag(&mut self, name: &str, value: &str) {
        let game = &mut self.game;
        match name {
            "White" => game.names[0] = value.to_owned(),
            "Black" => game.names[1] = value.to_owned(),
            "WhiteElo" => game.elos[0] = value.parse().ok(),
            "BlackElo" => game.elos[1] = value.parse().ok(),
            "WhiteTitle" | "BlackTitle" => game.bot |= value == "BOT",
            "Variant" => game.variant = !bitboards_pgn::is_standard_variant(value),
            "Result" => {
                game.result = match value {
                    "1-0" => Some(Some(Color::White)),
                    "0-1" => Some(Some(Color::Black)),
                    "1/2-1/2" => Some(None),
                    _ => None,
                };
            }
            "Date" if self.masters => {
                game.masters.get_or_insert_with(Box::default).date = value.to_owned();
            }
            "UTCDate" if self.masters => {}
            "Date" | "UTCDate" => game.month = Month::from_pgn_date(value),
            "TimeControl" => game.time_control = Speed::from_time_control(value),
            "Site" | "Event" | "Round" if self.masters => {
                let tags = game.masters.get_or_insert_with(Box::default);
                let field = match name {
                    "Site" => &mut tags.site,
                    "Event" => &mut tags.event,
                    _ => &mut tags.round,
                };
                value.clone_into(field);
            }
            "LichessId" if self.masters => value.clone_into(&mut game.lichess_id),
            "Site" => {
                let id = value.rsplit('/').next().unwrap_or("");
                id.clone_into(&mut game.id);
            }
            "Event" => game.rated = !value.contains("Casual"),
            "FEN" => game.fen = Some(value.to_owned()),
            _ => {}
        }
    }

    fn wants_comments(&mut self) -> bool {
        false
    }

    fn skip_movetext(&mut self) -> bool {
        !self.wants_moves()
    }

    fn stop_movetext(&mut self) -> bool {
        // As lila, which replays the first `max_ply` moves of a game and
        // never looks at the rest: what follows them is not read (an
        // illegal move there leaves the game counted). A masters game
        // keeps every move.
        self.game.ended || (!self.masters && self.game.moves.len() >= self.max_ply)
    }

    fn san(&mut self, played: PgnMove<'_>) {
        let game = &mut self.game;
        let counted = self.masters || game.moves.len() < self.max_ply;
        if game.ended || !counted {
            return;
        }
        if played.mv.is_null() {
            // A null move ends what the explorer counts: no position after
            // it is one a legal game reaches.
            game.ended = true;
            return;
        }
        let before: &Position = played.before;
        game.moves.push(played.mv);
        game.positions
            .push((Key::of(before), played.mv, before.side_to_move()));
    }
}
