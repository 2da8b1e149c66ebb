//! What the tests, benches and xtask of `bitboards` share, written once:
//!
//! - [`Rng`]: the project's one seeded generator ([`SplitMix64`], the magic
//!   search's) with [`Rng::below`], so every run draws the same cases;
//! - [`read_epd`] and [`read`]: an EPD record or FEN read strictly, else
//!   without the rules on impossible checks (published perft suites hold
//!   such positions), through the library's own [`Epd`] reader;
//! - [`epd_fens`]: the FEN text of each record of an EPD file.
//!
//! The reference files themselves (`tests/data/*.epd`) belong to the
//! `bitboards` package, whose tests and benches include them.
//!
//! Not published: only this workspace's tests, benches and tools use it.
//!
//! ```
//! use bitboards_test_support::{Rng, epd_fens, read_epd};
//!
//! let mut rng = Rng::new(1);
//! assert!(rng.below(6) < 6);
//! let suite = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20\n";
//! let first = epd_fens(suite).next().unwrap();
//! let (record, impossible_check) = read_epd(first).unwrap();
//! assert!(!impossible_check);
//! assert_eq!(record.position().fen().to_string(), first);
//! ```

use bitboards::Validation;
use bitboards::{Epd, EpdError, Position};

pub use bitboards_codegen::rng::SplitMix64;

/// The seeded generator with the helpers the tests need.
///
/// ```
/// use bitboards_test_support::Rng;
///
/// let (mut a, mut b) = (Rng::new(7), Rng::new(7));
/// assert_eq!(a.below(1000), b.below(1000));
/// assert_eq!(a.pick(&['x', 'y']), b.pick(&['x', 'y']));
/// ```
#[derive(Clone, Debug)]
pub struct Rng(pub SplitMix64);

impl Rng {
    /// A generator whose stream is fixed by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }

    /// One of `items` (not empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// `count` positions of seeded random games from the start, each with a
/// legal move: a game starts again after `max_plies` plies or at its end.
///
/// ```
/// let positions = bitboards_test_support::random_positions(50, 3, 40);
/// assert_eq!(positions.len(), 50);
/// assert!(positions.iter().all(|position| !position.legal_moves().is_empty()));
/// assert_eq!(positions, bitboards_test_support::random_positions(50, 3, 40));
/// ```
#[must_use]
pub fn random_positions(count: usize, seed: u64, max_plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut found = Vec::with_capacity(count);
    let (mut position, mut ply) = (Position::START, 0);
    while found.len() < count {
        let moves = position.legal_moves();
        if moves.is_empty() || ply == max_plies {
            (position, ply) = (Position::START, 0);
            continue;
        }
        position = position.play_unchecked(rng.pick(moves.as_slice()));
        ply += 1;
        if !position.legal_moves().is_empty() {
            found.push(position);
        }
    }
    found
}

/// Reads an EPD record (or a bare FEN) strictly, or, when that fails,
/// without the four rules on how the side to move can be in check; the
/// flag says whether the fallback was needed. The error is the strict
/// reading's.
///
/// ```
/// use bitboards_test_support::read_epd;
///
/// // Two rooks check along the eighth rank from both sides.
/// let (_, impossible_check) = read_epd("R3k2R/8/8/8/8/8/8/6K1 b - -").unwrap();
/// assert!(impossible_check);
/// assert!(read_epd("8/8/8/8/8/8/8/8 w - -").is_err());
/// ```
pub fn read_epd(line: &str) -> Result<(Epd, bool), EpdError> {
    match Epd::parse(line) {
        Ok(record) => Ok((record, false)),
        Err(strict) => Epd::parse_with(line, Validation::ALL_RULES.allow_impossible_check())
            .map(|record| (record, true))
            .map_err(|_| strict),
    }
}

/// The position of a FEN (an EPD record without operations) from the
/// reference files or a test, read as [`read_epd`] reads it; panics with the
/// FEN and the error on a bad one.
///
/// ```
/// assert_eq!(bitboards_test_support::read("8/8/8/8/8/8/8/K6k w - -").occupied().count(), 2);
/// ```
#[must_use]
pub fn read(fen: &str) -> Position {
    read_epd(fen)
        .map(|(record, _)| *record.position())
        .unwrap_or_else(|error| panic!("{fen}: {error}"))
}

/// The FENs of an EPD perft file as the file writes them: of each record
/// (read by [`read_epd`]), the text of its FEN fields, four or six.
///
/// ```
/// use bitboards_test_support::epd_fens;
///
/// let text = "8/8/8/8/8/8/8/K6k w - - ;D1 3\n\n4k3/8/8/8/8/8/8/4K3 b - - 0 7 ;D1 5\n";
/// assert_eq!(epd_fens(text).collect::<Vec<_>>(), ["8/8/8/8/8/8/8/K6k w - -", "4k3/8/8/8/8/8/8/4K3 b - - 0 7"]);
/// ```
pub fn epd_fens(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            let (record, _) =
                read_epd(line).unwrap_or_else(|error| panic!("line {}: {error}", index + 1));
            fen_fields(line, if record.fen_has_clocks() { 6 } else { 4 })
        })
}

/// The first `count` fields of `line` (separated by whitespace, ended by
/// `;` too), without the whitespace around them.
fn fen_fields(line: &str, count: usize) -> &str {
    let is_end = |b: u8| b.is_ascii_whitespace() || b == b';';
    let bytes = line.as_bytes();
    let start = line.len() - line.trim_ascii_start().len();
    let mut at = start;
    for _ in 0..count {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        while bytes.get(at).is_some_and(|&b| !is_end(b)) {
            at += 1;
        }
    }
    &line[start..at]
}

/// A Lichess-shaped PGN file of `games` seeded random legal games, as the
/// open database writes them: its seventeen tags, the movetext on one line,
/// and a `{ [%eval ...] [%clk ...] }` comment after every move (mates as
/// `#n`, clocks counting down from the time control). Games run to mate,
/// stalemate or a ply limit drawn between 20 and 120, so a game is about
/// 3 KB, as on Lichess. The same `seed` gives the same bytes.
///
/// ```
/// let pgn = bitboards_test_support::lichess_games(3, 7);
/// let text = String::from_utf8(pgn).unwrap();
/// assert_eq!(text.matches("[Event \"Rated Blitz game\"]").count(), 3);
/// assert!(text.contains("1. "));
/// assert!(text.contains("[%clk 0:0"));
/// ```
#[must_use]
pub fn lichess_games(games: usize, seed: u64) -> Vec<u8> {
    use std::fmt::Write as _;
    const OPENINGS: [(&str, &str); 4] = [
        ("C20", "King's Pawn Game"),
        ("B01", "Scandinavian Defense"),
        ("A00", "Van't Kruijs Opening"),
        ("D00", "Queen's Pawn Game"),
    ];
    let mut rng = Rng::new(seed);
    let mut text = String::new();
    for number in 0..games {
        let mut position = Position::START;
        let limit = 20 + rng.below(100);
        let mut movetext = String::new();
        let mut clocks = [180_u32 * 10; 2];
        let mut eval: i32 = 20;
        let mut plies = 0;
        while plies < limit {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let san = position.san(mv);
            let white = position.side_to_move() == bitboards::Color::White;
            if white {
                let _ = write!(movetext, "{}. {san}", position.fullmove_number());
            } else {
                let _ = write!(movetext, "{}... {san}", position.fullmove_number());
            }
            position = position.play_unchecked(mv);
            let side = usize::from(!white);
            clocks[side] = clocks[side].saturating_sub(rng.below(80) as u32);
            eval += rng.below(81) as i32 - 40;
            let tenths = clocks[side];
            let (minutes, seconds) = (tenths / 600, tenths % 600);
            let score = if rng.below(40) == 0 {
                format!("#{}", rng.below(9) as i32 - 4)
            } else {
                let sign = if eval < 0 { "-" } else { "" };
                format!("{sign}{}.{:02}", eval.abs() / 100, eval.abs() % 100)
            };
            let clock = if seconds % 10 == 0 {
                format!("0:{minutes:02}:{:02}", seconds / 10)
            } else {
                format!("0:{minutes:02}:{:02}.{}", seconds / 10, seconds % 10)
            };
            let _ = write!(movetext, " {{ [%eval {score}] [%clk {clock}] }} ");
            plies += 1;
        }
        let result = ["1-0", "0-1", "1/2-1/2"][rng.below(3)];
        let (eco, opening) = OPENINGS[rng.below(OPENINGS.len())];
        let (white_elo, black_elo) = (1000 + rng.below(1500), 1000 + rng.below(1500));
        let diff = rng.below(12) + 1;
        let _ = write!(
            text,
            "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/{number:08x}\"]\n\
             [Date \"2024.01.{day:02}\"]\n[Round \"-\"]\n[White \"player{w}\"]\n[Black \"player{b}\"]\n\
             [Result \"{result}\"]\n[UTCDate \"2024.01.{day:02}\"]\n[UTCTime \"{hour:02}:{minute:02}:{second:02}\"]\n\
             [WhiteElo \"{white_elo}\"]\n[BlackElo \"{black_elo}\"]\n[WhiteRatingDiff \"+{diff}\"]\n\
             [BlackRatingDiff \"-{diff}\"]\n[ECO \"{eco}\"]\n[Opening \"{opening}\"]\n\
             [TimeControl \"180+0\"]\n[Termination \"Normal\"]\n\n{movetext}{result}\n\n",
            day = 1 + rng.below(31),
            w = rng.below(100_000),
            b = rng.below(100_000),
            hour = rng.below(24),
            minute = rng.below(60),
            second = rng.below(60),
        );
    }
    text.into_bytes()
}

/// A UCI engine driven through its pipes with nothing parsed or checked:
/// the floor the engine benchmarks compare the client with (commands
/// written, lines read until the one awaited).
///
/// ```no_run
/// use bitboards_test_support::BareEngine;
///
/// let mut engine = BareEngine::start("/usr/games/stockfish");
/// engine.send("position startpos\ngo nodes 1\n");
/// engine.wait_for("bestmove");
/// engine.quit();
/// ```
pub struct BareEngine {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    line: String,
}

impl BareEngine {
    /// Starts the engine at `path` and waits for its `readyok` after `uci`
    /// and `isready`. Panics (a benchmark's failure) when it cannot.
    #[must_use]
    pub fn start(path: &str) -> BareEngine {
        use std::process::{Command, Stdio};
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("a piped stdin");
        let stdout = std::io::BufReader::new(child.stdout.take().expect("a piped stdout"));
        let mut engine = BareEngine {
            child,
            stdin,
            stdout,
            line: String::new(),
        };
        engine.send("uci\nisready\n");
        engine.wait_for("readyok");
        engine
    }

    /// Writes `text` (commands ending in newlines) to the engine.
    pub fn send(&mut self, text: &str) {
        use std::io::Write;
        self.stdin
            .write_all(text.as_bytes())
            .expect("the engine reads its input");
    }

    /// Reads lines until one starts with `word`.
    pub fn wait_for(&mut self, word: &str) {
        use std::io::BufRead;
        loop {
            self.line.clear();
            let read = self
                .stdout
                .read_line(&mut self.line)
                .expect("the engine's output");
            assert!(read > 0, "the engine exited before `{word}`");
            if self.line.starts_with(word) {
                return;
            }
        }
    }

    /// Sends `quit` and waits for the process to end.
    pub fn quit(mut self) {
        self.send("quit\n");
        let _ = self.child.wait();
    }
}
