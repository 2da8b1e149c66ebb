//! What the explorer counts by: the speed of a game, the rating group of
//! its players, the month it was played, its result, and the statistics
//! kept for a move.

use core::fmt;
use core::str::FromStr;

use bitboards::Color;

/// A game's speed, from its `TimeControl`: the estimated duration is the
/// initial time plus 40 times the increment, in seconds (Lichess's rule).
///
/// ```
/// use bitboards_explorer::Speed;
///
/// assert_eq!(Speed::from_time_control("180+2"), Some(Speed::Blitz));
/// assert_eq!(Speed::from_time_control("15+0"), Some(Speed::UltraBullet));
/// assert_eq!(Speed::from_time_control("-"), Some(Speed::Correspondence));
/// assert_eq!(Speed::from_time_control("?"), None);
/// assert_eq!("rapid".parse::<Speed>()?, Speed::Rapid);
/// # Ok::<(), bitboards_explorer::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Speed {
    /// Under 30 seconds.
    UltraBullet,
    /// Under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// Under 6 hours.
    Classical,
    /// Longer, or no clock (`-`).
    Correspondence,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The speed of a `TimeControl` tag's value (`seconds+increment`, or
    /// `-` for none); `None` for anything else.
    #[must_use]
    pub fn from_time_control(value: &str) -> Option<Speed> {
        if value == "-" {
            return Some(Speed::Correspondence);
        }
        let (seconds, increment) = value.split_once('+')?;
        let seconds: u64 = seconds.parse().ok()?;
        let increment: u64 = increment.parse().ok()?;
        let total = seconds.saturating_add(increment.saturating_mul(40));
        Some(match total {
            0..30 => Speed::UltraBullet,
            30..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            1500..21_600 => Speed::Classical,
            _ => Speed::Correspondence,
        })
    }

    /// Its name in the Lichess API: `ultraBullet`, `bullet`, ...
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultraBullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The best rating on Lichess's leaderboard at this speed (as
    /// lila-openingexplorer's top games rank by, July 2024; 4000 where there
    /// is no leaderboard).
    pub(crate) const fn highscore(self) -> i32 {
        match self {
            Speed::UltraBullet => 2644,
            Speed::Bullet => 3352,
            Speed::Blitz => 2974,
            Speed::Rapid => 2949,
            Speed::Classical => 2533,
            Speed::Correspondence => 4000,
        }
    }

    pub(crate) const fn index(self) -> u8 {
        self as u8
    }

    pub(crate) fn from_index(index: u8) -> Option<Speed> {
        Speed::ALL.get(usize::from(index)).copied()
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Speed {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Speed, ParseError> {
        Speed::ALL
            .into_iter()
            .find(|speed| speed.name() == text)
            .ok_or_else(|| {
                ParseError::new(
                    "speed",
                    text,
                    "one of ultraBullet, bullet, blitz, rapid, classical, correspondence",
                )
            })
    }
}

/// A game's rating group: where the midpoint of its two ratings (rounded
/// down) falls. The API names a group by its lower bound: `0`, `1000`,
/// `1200`, `1400`, `1600`, `1800`, `2000`, `2200`, `2500`.
///
/// ```
/// use bitboards_explorer::RatingGroup;
///
/// assert_eq!(RatingGroup::of(1900, 2150), RatingGroup::R2000);
/// assert_eq!(RatingGroup::of(800, 1199), RatingGroup::R0);
/// assert_eq!("2500".parse::<RatingGroup>()?, RatingGroup::R2500);
/// assert!("1650".parse::<RatingGroup>().is_err());
/// # Ok::<(), bitboards_explorer::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RatingGroup {
    /// Below 1000.
    R0,
    /// 1000 to 1199.
    R1000,
    /// 1200 to 1399.
    R1200,
    /// 1400 to 1599.
    R1400,
    /// 1600 to 1799.
    R1600,
    /// 1800 to 1999.
    R1800,
    /// 2000 to 2199.
    R2000,
    /// 2200 to 2499.
    R2200,
    /// 2500 and up.
    R2500,
}

impl RatingGroup {
    /// Every group, lowest first.
    pub const ALL: [RatingGroup; 9] = [
        RatingGroup::R0,
        RatingGroup::R1000,
        RatingGroup::R1200,
        RatingGroup::R1400,
        RatingGroup::R1600,
        RatingGroup::R1800,
        RatingGroup::R2000,
        RatingGroup::R2200,
        RatingGroup::R2500,
    ];

    /// The group of a game between players rated `a` and `b`.
    #[must_use]
    pub fn of(a: u16, b: u16) -> RatingGroup {
        let mid = u32::midpoint(u32::from(a), u32::from(b));
        RatingGroup::ALL
            .into_iter()
            .rev()
            .find(|group| mid >= u32::from(group.lower_bound()))
            .unwrap_or(RatingGroup::R0)
    }

    /// The group's lower bound, its name in the API.
    #[must_use]
    pub const fn lower_bound(self) -> u16 {
        [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500][self as usize]
    }

    /// The band a game is kept in: its group's index, or 9 for a midpoint
    /// of 2800 and up, which lila-openingexplorer keeps apart (its group
    /// "3200") to rank top games, and which the API counts as 2500.
    pub(crate) fn band(a: u16, b: u16) -> u8 {
        if u32::midpoint(u32::from(a), u32::from(b)) >= 2800 {
            9
        } else {
            RatingGroup::of(a, b).index()
        }
    }

    /// The group of a band.
    pub(crate) fn of_band(band: u8) -> RatingGroup {
        RatingGroup::from_index(band.min(8)).unwrap_or(RatingGroup::R0)
    }

    /// The lower bound by which top games rank a band.
    pub(crate) fn band_bound(band: u8) -> i32 {
        if band >= 9 {
            3200
        } else {
            i32::from(RatingGroup::of_band(band).lower_bound())
        }
    }

    pub(crate) const fn index(self) -> u8 {
        self as u8
    }

    pub(crate) fn from_index(index: u8) -> Option<RatingGroup> {
        RatingGroup::ALL.get(usize::from(index)).copied()
    }
}

impl fmt::Display for RatingGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.lower_bound())
    }
}

impl FromStr for RatingGroup {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<RatingGroup, ParseError> {
        RatingGroup::ALL
            .into_iter()
            .find(|group| text.parse::<u16>().ok() == Some(group.lower_bound()))
            .ok_or_else(|| {
                ParseError::new(
                    "rating group",
                    text,
                    "one of 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500",
                )
            })
    }
}

/// A month: year and month, written `YYYY-MM`.
///
/// ```
/// use bitboards_explorer::Month;
///
/// let month: Month = "2024-03".parse()?;
/// assert_eq!((month.year(), month.month()), (2024, 3));
/// assert_eq!(month.to_string(), "2024-03");
/// assert_eq!(Month::from_pgn_date("2024.03.15"), Some(month));
/// assert_eq!(Month::from_pgn_date("2024.??.??"), None);
/// assert!("2024-13".parse::<Month>().is_err());
/// # Ok::<(), bitboards_explorer::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Month(u16);

impl Month {
    /// The month `month` (1 to 12) of `year` (0 to 5000).
    #[must_use]
    pub fn new(year: u16, month: u8) -> Option<Month> {
        (year <= 5000 && (1..=12).contains(&month)).then(|| Month(year * 12 + u16::from(month) - 1))
    }

    /// The month of a PGN `Date` (`YYYY.MM.DD`, the day possibly `??`).
    #[must_use]
    pub fn from_pgn_date(date: &str) -> Option<Month> {
        let mut parts = date.split('.');
        let year = parts.next()?.parse().ok()?;
        let month = parts.next()?.parse().ok()?;
        Month::new(year, month)
    }

    /// The year.
    #[must_use]
    pub const fn year(self) -> u16 {
        self.0 / 12
    }

    /// The month of the year, 1 to 12.
    #[must_use]
    pub const fn month(self) -> u8 {
        (self.0 % 12) as u8 + 1
    }

    /// The next month.
    #[must_use]
    pub const fn next(self) -> Month {
        Month(self.0.saturating_add(1))
    }

    pub(crate) const fn to_bits(self) -> u16 {
        self.0
    }

    pub(crate) const fn from_bits(bits: u16) -> Month {
        Month(bits)
    }
}

impl fmt::Display for Month {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}", self.year(), self.month())
    }
}

impl FromStr for Month {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Month, ParseError> {
        let bad = || ParseError::new("month", text, "YYYY-MM");
        let (year, month) = text.split_once('-').ok_or_else(bad)?;
        if year.len() != 4 || month.len() != 2 {
            return Err(bad());
        }
        Month::new(
            year.parse().map_err(|_| bad())?,
            month.parse().map_err(|_| bad())?,
        )
        .ok_or_else(bad)
    }
}

/// The year and month of a PGN date (`YYYY.MM.DD`, any part possibly
/// `??`), where it gives them.
pub(crate) fn year_and_month(date: &str) -> (Option<u16>, Option<u8>) {
    let mut parts = date.split('.');
    let year = parts.next().and_then(|year| year.parse().ok());
    let month = parts
        .next()
        .and_then(|month| month.parse().ok())
        .filter(|month| (1..=12).contains(month));
    (year, month)
}

/// A year of a `/masters` query (`since`, `until`): 0 to 5000.
///
/// ```
/// assert_eq!(bitboards_explorer::parse_year("1999"), Ok(1999));
/// assert!(bitboards_explorer::parse_year("1999-01").is_err());
/// ```
///
/// # Errors
/// Text that is not such a year.
pub fn parse_year(text: &str) -> Result<u16, ParseError> {
    text.trim()
        .parse::<u16>()
        .ok()
        .filter(|&year| year <= 5000)
        .ok_or_else(|| ParseError::new("year", text, "a year, YYYY"))
}

/// How a game ended: the winner, or `None` for a draw.
pub type Winner = Option<Color>;

/// A game's result as a segment stores it: 0 when White won, 1 for a
/// draw, 2 when Black won.
pub(crate) const fn outcome_of(winner: Winner) -> u8 {
    match winner {
        Some(Color::White) => 0,
        None => 1,
        Some(Color::Black) => 2,
    }
}

/// The winner of a stored result (anything but 0 or 2 a draw).
pub(crate) const fn winner_of(outcome: u8) -> Winner {
    match outcome {
        0 => Some(Color::White),
        2 => Some(Color::Black),
        _ => None,
    }
}

/// White wins, draws and black wins, and the sum of one rating per game
/// (the mover's for the position explorer, the opponent's for a player's).
///
/// ```
/// use bitboards_explorer::Stats;
///
/// let stats = Stats { white: 2, draws: 1, black: 1, rating_sum: 6000 };
/// assert_eq!(stats.games(), 4);
/// assert_eq!(stats.average_rating(), Some(1500));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games White won.
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// The sum of the ratings counted.
    pub rating_sum: u64,
}

impl Stats {
    /// One game's statistics.
    #[must_use]
    pub fn single(winner: Winner, rating: u16) -> Stats {
        Stats {
            white: u64::from(winner == Some(Color::White)),
            draws: u64::from(winner.is_none()),
            black: u64::from(winner == Some(Color::Black)),
            rating_sum: u64::from(rating),
        }
    }

    /// The number of games.
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.white + self.draws + self.black
    }

    /// The average rating, rounded; `None` with no games.
    #[must_use]
    pub fn average_rating(&self) -> Option<u16> {
        let games = self.games();
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_precision_loss,
            clippy::cast_sign_loss
        )]
        (games > 0).then(|| (self.rating_sum as f64 / games as f64).round() as u16)
    }

    /// The performance rating of `color` over these games, the average
    /// rating being the opponents': FIDE's table of rating differences by
    /// score (handbook B.02.2017, 8.1), interpolated between whole
    /// percentages, as lila-openingexplorer computes it.
    #[must_use]
    pub fn performance(&self, color: Color) -> Option<i32> {
        // FIDE's dp by percentage score, 0% to 100%.
        const DELTAS: [f64; 101] = [
            -800.0, -677.0, -589.0, -538.0, -501.0, -470.0, -444.0, -422.0, -401.0, -383.0, -366.0,
            -351.0, -336.0, -322.0, -309.0, -296.0, -284.0, -273.0, -262.0, -251.0, -240.0, -230.0,
            -220.0, -211.0, -202.0, -193.0, -184.0, -175.0, -166.0, -158.0, -149.0, -141.0, -133.0,
            -125.0, -117.0, -110.0, -102.0, -95.0, -87.0, -80.0, -72.0, -65.0, -57.0, -50.0, -43.0,
            -36.0, -29.0, -21.0, -14.0, -7.0, 0.0, 7.0, 14.0, 21.0, 29.0, 36.0, 43.0, 50.0, 57.0,
            65.0, 72.0, 80.0, 87.0, 95.0, 102.0, 110.0, 117.0, 125.0, 133.0, 141.0, 149.0, 158.0,
            166.0, 175.0, 184.0, 193.0, 202.0, 211.0, 220.0, 230.0, 240.0, 251.0, 262.0, 273.0,
            284.0, 296.0, 309.0, 322.0, 336.0, 351.0, 366.0, 383.0, 401.0, 422.0, 444.0, 470.0,
            501.0, 538.0, 589.0, 677.0, 800.0,
        ];
        let games = self.games();
        if games == 0 {
            return None;
        }
        let wins = if color == Color::White {
            self.white
        } else {
            self.black
        };
        #[allow(clippy::cast_precision_loss)]
        let (percent, average) = (
            (100 * wins + 50 * self.draws) as f64 / games as f64,
            self.rating_sum as f64 / games as f64,
        );
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let index = percent.trunc() as usize;
        let fraction = percent.fract();
        let next = DELTAS.get(index + 1).copied().unwrap_or(800.0);
        #[allow(clippy::cast_possible_truncation)]
        Some((average + DELTAS[index.min(100)] * (1.0 - fraction) + next * fraction).round() as i32)
    }
}

impl core::ops::AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.white += other.white;
        self.draws += other.draws;
        self.black += other.black;
        self.rating_sum += other.rating_sum;
    }
}

impl core::ops::Sub for Stats {
    type Output = Stats;

    fn sub(self, other: Stats) -> Stats {
        Stats {
            white: self.white - other.white,
            draws: self.draws - other.draws,
            black: self.black - other.black,
            rating_sum: self.rating_sum - other.rating_sum,
        }
    }
}

/// A value that does not parse: what it should have been, and what it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What was being read (`speed`, `month`, ...).
    pub what: &'static str,
    /// The text.
    pub text: String,
    /// What it should be.
    pub expected: &'static str,
}

impl ParseError {
    pub(crate) fn new(what: &'static str, text: &str, expected: &'static str) -> ParseError {
        ParseError {
            what,
            text: text.to_owned(),
            expected,
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid {} {:?}: expected {}",
            self.what, self.text, self.expected
        )
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_split_at_lichess_bounds() {
        let cases = [
            ("29+0", Speed::UltraBullet),
            ("30+0", Speed::Bullet),
            ("0+1", Speed::Bullet),
            ("179+0", Speed::Bullet),
            ("120+2", Speed::Blitz),
            ("479+0", Speed::Blitz),
            ("480+0", Speed::Rapid),
            ("600+22", Speed::Rapid),
            ("600+23", Speed::Classical),
            ("21599+0", Speed::Classical),
            ("21600+0", Speed::Correspondence),
        ];
        for (tc, speed) in cases {
            assert_eq!(Speed::from_time_control(tc), Some(speed), "{tc}");
        }
        assert_eq!(Speed::from_time_control("180"), None);
        assert_eq!(Speed::from_time_control("a+b"), None);
    }

    #[test]
    fn rating_groups_by_midpoint() {
        assert_eq!(RatingGroup::of(999, 1000), RatingGroup::R0);
        assert_eq!(RatingGroup::of(1000, 1001), RatingGroup::R1000);
        assert_eq!(RatingGroup::of(2499, 2500), RatingGroup::R2200);
        assert_eq!(RatingGroup::of(3000, 3000), RatingGroup::R2500);
        for group in RatingGroup::ALL {
            assert_eq!(group.to_string().parse::<RatingGroup>(), Ok(group));
        }
    }

    #[test]
    fn performance_follows_the_fide_table() {
        // 75% against 2000: dp(75) = 193.
        let stats = Stats {
            white: 3,
            draws: 0,
            black: 1,
            rating_sum: 8000,
        };
        assert_eq!(stats.performance(Color::White), Some(2193));
        assert_eq!(stats.performance(Color::Black), Some(2000 - 193));
        let all = Stats {
            white: 2,
            draws: 0,
            black: 0,
            rating_sum: 4000,
        };
        assert_eq!(all.performance(Color::White), Some(2800));
    }
}
