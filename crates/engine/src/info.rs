//! The engine's `info` lines: scores, principal variations and the search
//! figures, read into [`Info`] with every PV move checked against the
//! position.

use std::fmt;
use std::time::Duration;

use bitboards::{Color, Move, Position};

/// An evaluation, from one side's point of view (an [`Info`]'s is the side
/// to move's, as the engine gives it; [`Info::white_score`] turns it).
///
/// ```
/// use bitboards_engine::Score;
///
/// assert_eq!(Score::Cp(35).negate(), Score::Cp(-35));
/// assert_eq!(Score::Mate(3).negate(), Score::Mate(-3));
/// assert_eq!(Score::Mated.negate(), Score::MateGiven);
/// assert_eq!(Score::Mate(3).score(10_000), 9_997);
/// assert_eq!(Score::Mate(-2).to_string(), "mate -2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (`score cp 35`).
    Cp(i32),
    /// Mate in this many moves: positive when this side mates, negative
    /// when it is mated (`score mate -3`). Never 0.
    Mate(i32),
    /// This side is checkmated (`score mate 0`).
    Mated,
    /// This side has checkmated: [`Score::Mated`] from the other side.
    MateGiven,
}

impl Score {
    /// The same evaluation from the other side.
    #[must_use]
    pub const fn negate(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
            Score::Mated => Score::MateGiven,
            Score::MateGiven => Score::Mated,
        }
    }

    /// The centipawns, when it is not a mate.
    #[must_use]
    pub const fn cp(self) -> Option<i32> {
        match self {
            Score::Cp(cp) => Some(cp),
            _ => None,
        }
    }

    /// Moves to mate: positive when this side mates, negative when it is
    /// mated, 0 when the mate is on the board; `None` for centipawns.
    #[must_use]
    pub const fn mate(self) -> Option<i32> {
        match self {
            Score::Cp(_) => None,
            Score::Mate(n) => Some(n),
            Score::Mated | Score::MateGiven => Some(0),
        }
    }

    /// Whether it is a mate score.
    #[must_use]
    pub const fn is_mate(self) -> bool {
        !matches!(self, Score::Cp(_))
    }

    /// One number for every score, to sort or average: centipawns as they
    /// are, a mate in `n` as `mate_score - n` (and a mated one as its
    /// negation), as python-chess's `Score.score(mate_score=...)`.
    #[must_use]
    pub const fn score(self, mate_score: i32) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => mate_score - n,
            Score::Mate(n) => -mate_score - n,
            Score::Mated => -mate_score,
            Score::MateGiven => mate_score,
        }
    }
}

/// As UCI writes it: `cp 35`, `mate -3`, `mate 0` (mated), `mate +0`
/// (mate given).
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
            Score::Mated => f.write_str("mate 0"),
            Score::MateGiven => f.write_str("mate +0"),
        }
    }
}

/// Whether a score is exact or a bound from an aspiration window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The score itself.
    #[default]
    Exact,
    /// At least this (`lowerbound`).
    Lower,
    /// At most this (`upperbound`).
    Upper,
}

impl Bound {
    /// The bound from the other side's view (a lower bound becomes an upper one).
    #[must_use]
    pub const fn flip(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }
}

/// Win, draw and loss chances in permille (`wdl 400 500 100`, with
/// `UCI_ShowWDL`), from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Wins per thousand.
    pub win: u32,
    /// Draws per thousand.
    pub draw: u32,
    /// Losses per thousand.
    pub loss: u32,
}

impl Wdl {
    /// From the other side's view.
    #[must_use]
    pub const fn flip(self) -> Wdl {
        Wdl {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }
}

/// Something the client read and set aside: a line it could not read, a
/// token it skipped, a PV cut short at an illegal move, a `ponder` move that
/// is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The engine's line.
    pub line: String,
    /// What was wrong with it.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (in `{}`)", self.message, self.line)
    }
}

/// One `info` line, read: what the engine said about one principal
/// variation. Absent fields are `None`.
///
/// ```
/// use bitboards::Position;
/// use bitboards_engine::{Bound, Info, Score};
///
/// let line = "info depth 8 seldepth 6 multipv 2 score cp -36 upperbound nodes 5001 nps 416750 \
///             hashfull 0 tbhits 0 time 12 pv e2e4 e7e5 g1f3";
/// let (info, warnings) = Info::parse(line, &Position::START);
/// assert!(warnings.is_empty());
/// assert_eq!((info.depth, info.seldepth, info.multipv), (Some(8), Some(6), 2));
/// assert_eq!((info.score, info.bound), (Some(Score::Cp(-36)), Bound::Upper));
/// assert_eq!(info.pv.len(), 3);
/// assert_eq!(info.time, Some(std::time::Duration::from_millis(12)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// The rank of this PV, from 1 (`multipv`; 1 when absent).
    pub multipv: u32,
    /// The search depth in plies.
    pub depth: Option<u32>,
    /// The selective depth in plies.
    pub seldepth: Option<u32>,
    /// The score, from the side to move's view as the engine gives it.
    pub score: Option<Score>,
    /// Whether `score` is exact or a bound (side to move's view).
    pub bound: Bound,
    /// Win/draw/loss permille, side to move's view.
    pub wdl: Option<Wdl>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Time searched.
    pub time: Option<Duration>,
    /// How full the hash table is, in permille.
    pub hashfull: Option<u32>,
    /// Tablebase hits.
    pub tbhits: Option<u64>,
    /// The principal variation: legal moves, played one after the other
    /// from the position (cut at the first that is not legal).
    pub pv: Vec<Move>,
    /// The text after `string`, to the end of the line, spaces as sent.
    pub string: Option<String>,
    /// The move being searched (`currmove`).
    pub currmove: Option<Move>,
    /// Its number in the engine's order, from 1 (`currmovenumber`).
    pub currmovenumber: Option<u32>,
    /// How busy the processors are, in permille (`cpuload`).
    pub cpuload: Option<u32>,
    /// Moves and the lines that refute them (`refutation MOVE LINE`), in
    /// the order sent; the line may be empty (the move is not refuted).
    pub refutation: Vec<(Move, Vec<Move>)>,
    /// The line each processor is searching (`currline CPU LINE`).
    pub currline: Vec<(u32, Vec<Move>)>,
    /// The effective branching factor (`ebf`).
    pub ebf: Option<f64>,
    /// The side to move in the position searched.
    pub turn: Color,
}

/// The words that start a field of an `info` line (and end a PV).
const KEYWORDS: [&str; 19] = [
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
    "wdl",
    "ebf",
];

impl Info {
    /// An empty info for a position with `turn` to move.
    #[must_use]
    pub fn new(turn: Color) -> Info {
        Info {
            multipv: 1,
            depth: None,
            seldepth: None,
            score: None,
            bound: Bound::Exact,
            wdl: None,
            nodes: None,
            nps: None,
            time: None,
            hashfull: None,
            tbhits: None,
            pv: Vec::new(),
            string: None,
            currmove: None,
            currmovenumber: None,
            cpuload: None,
            refutation: Vec::new(),
            currline: Vec::new(),
            ebf: None,
            turn,
        }
    }

    /// The score from White's view.
    #[must_use]
    pub fn white_score(&self) -> Option<Score> {
        self.score.map(|score| match self.turn {
            Color::White => score,
            Color::Black => score.negate(),
        })
    }

    /// The bound of [`Info::white_score`].
    #[must_use]
    pub fn white_bound(&self) -> Bound {
        match self.turn {
            Color::White => self.bound,
            Color::Black => self.bound.flip(),
        }
    }

    /// The win/draw/loss chances from White's view.
    #[must_use]
    pub fn white_wdl(&self) -> Option<Wdl> {
        self.wdl.map(|wdl| match self.turn {
            Color::White => wdl,
            Color::Black => wdl.flip(),
        })
    }

    /// Whether this line says something about a PV (a score or moves), as
    /// opposed to a progress line (`currmove`, `hashfull`, `string`).
    #[must_use]
    pub fn is_pv_line(&self) -> bool {
        self.score.is_some() || !self.pv.is_empty()
    }

    /// Reads an `info` line about `position`: the fields it knows, unknown
    /// tokens skipped and bad numbers left out (each with a warning), the
    /// PV's moves checked and played one by one (an illegal one ends the PV
    /// there, with a warning). Never panics, whatever the text.
    #[must_use]
    pub fn parse(line: &str, position: &Position) -> (Info, Vec<Warning>) {
        let mut info = Info::new(position.side_to_move());
        let mut warnings = Vec::new();
        let mut warn = |message: String| {
            warnings.push(Warning {
                line: line.to_owned(),
                message,
            });
        };
        let mut tokens = line.split_whitespace().peekable();
        if tokens.peek() == Some(&"info") {
            tokens.next();
        }
        while let Some(token) = tokens.next() {
            macro_rules! number {
                ($field:expr) => {
                    match tokens.next().map(|text| (text, text.parse())) {
                        Some((_, Ok(n))) => $field = Some(n),
                        Some((text, Err(_))) => {
                            warn(format!("`{token}` is followed by `{text}`, not a number"))
                        }
                        None => warn(format!(
                            "`{token}` at the end of the line, without a number"
                        )),
                    }
                };
            }
            match token {
                "depth" => number!(info.depth),
                "seldepth" => number!(info.seldepth),
                "nodes" => number!(info.nodes),
                "nps" => number!(info.nps),
                "hashfull" => number!(info.hashfull),
                "tbhits" => number!(info.tbhits),
                "multipv" => {
                    let mut rank: Option<u32> = None;
                    number!(rank);
                    match rank {
                        Some(0) => warn("`multipv 0`: ranks start at 1".to_owned()),
                        Some(rank) => info.multipv = rank,
                        None => {}
                    }
                }
                "time" => {
                    let mut ms: Option<u64> = None;
                    number!(ms);
                    info.time = ms.map(Duration::from_millis);
                }
                "score" => {
                    let kind = tokens.next();
                    let value = tokens.next();
                    match (kind, value.map(|v| (v, v.parse::<i32>()))) {
                        (Some("cp"), Some((_, Ok(cp)))) => info.score = Some(Score::Cp(cp)),
                        (Some("mate"), Some(("+0", _))) => info.score = Some(Score::MateGiven),
                        (Some("mate"), Some((_, Ok(0)))) => info.score = Some(Score::Mated),
                        (Some("mate"), Some((_, Ok(n)))) => info.score = Some(Score::Mate(n)),
                        _ => warn(format!(
                            "`score {} {}` is not `cp N` or `mate N`",
                            kind.unwrap_or(""),
                            value.unwrap_or("")
                        )),
                    }
                    match tokens.peek() {
                        Some(&"lowerbound") => {
                            info.bound = Bound::Lower;
                            tokens.next();
                        }
                        Some(&"upperbound") => {
                            info.bound = Bound::Upper;
                            tokens.next();
                        }
                        _ => {}
                    }
                }
                "wdl" => {
                    let numbers: Vec<Option<u32>> = (0..3)
                        .map(|_| tokens.next().and_then(|t| t.parse().ok()))
                        .collect();
                    match numbers[..] {
                        [Some(win), Some(draw), Some(loss)] => {
                            info.wdl = Some(Wdl { win, draw, loss });
                        }
                        _ => warn("`wdl` is not followed by three numbers".to_owned()),
                    }
                }
                "currmovenumber" => number!(info.currmovenumber),
                "cpuload" => number!(info.cpuload),
                "ebf" => number!(info.ebf),
                "string" => {
                    // The rest of the line as sent: the token is a slice of
                    // `line`, so its end is an offset into it.
                    let end = token.as_ptr() as usize - line.as_ptr() as usize + token.len();
                    info.string = Some(line[end..].trim().to_owned());
                    break;
                }
                "pv" => {
                    // A second `pv` field replaces the first.
                    info.pv = variation(&mut tokens, *position, "PV", &mut warn);
                }
                "currmove" => match tokens.next() {
                    Some(text) => match position.parse_uci(text) {
                        Ok(mv) => info.currmove = Some(mv),
                        Err(error) => warn(format!(
                            "`currmove {text}` is not legal in {} ({error})",
                            position.fen()
                        )),
                    },
                    None => warn("`currmove` at the end of the line, without a move".to_owned()),
                },
                "refutation" => match tokens.next() {
                    Some(text) => match position.parse_uci(text) {
                        Ok(mv) => {
                            let after = position.play_unchecked(mv);
                            let line = variation(&mut tokens, after, "refutation", &mut warn);
                            info.refutation.push((mv, line));
                        }
                        Err(error) => {
                            warn(format!(
                                "`refutation {text}` is not legal in {} ({error})",
                                position.fen()
                            ));
                            skip_field(&mut tokens);
                        }
                    },
                    None => warn("`refutation` at the end of the line, without a move".to_owned()),
                },
                "currline" => {
                    let mut cpu: Option<u32> = None;
                    number!(cpu);
                    let line = variation(&mut tokens, *position, "currline", &mut warn);
                    if let Some(cpu) = cpu {
                        info.currline.push((cpu, line));
                    }
                }
                // A known field this client does not keep: its values are
                // skipped up to the next keyword.
                "sbhits" => skip_field(&mut tokens),
                other => warn(format!("unknown token `{other}` skipped")),
            }
        }
        (info, warnings)
    }
}

/// Skips the values of a field, up to the next keyword.
fn skip_field<'a>(tokens: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>) {
    while tokens.peek().is_some_and(|t| !KEYWORDS.contains(t)) {
        tokens.next();
    }
}

/// The moves of a line (a PV, a refutation, a current line) from
/// `position`, up to the next keyword: each checked and played, the line
/// cut at the first that is not legal (with a warning naming `what`).
fn variation<'a>(
    tokens: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
    position: Position,
    what: &str,
    warn: &mut impl FnMut(String),
) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut current = position;
    let mut cut = false;
    while let Some(&text) = tokens.peek() {
        if KEYWORDS.contains(&text) {
            break;
        }
        tokens.next();
        if cut {
            continue;
        }
        match current.parse_uci(text) {
            Ok(mv) => {
                moves.push(mv);
                current = current.play_unchecked(mv);
            }
            Err(error) => {
                warn(format!(
                    "{what} move {} `{text}` is not legal in {} ({error}); the {what} ends before it",
                    moves.len() + 1,
                    current.fen()
                ));
                cut = true;
            }
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_illegal_pv_move_ends_the_pv() {
        let (info, warnings) = Info::parse(
            "info depth 3 score mate 2 pv e2e4 e2e4 d7d5 nodes 10",
            &Position::START,
        );
        assert_eq!(info.pv.len(), 1);
        assert_eq!(info.nodes, Some(10));
        assert_eq!(info.score, Some(Score::Mate(2)));
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].message.contains("PV move 2 `e2e4`"),
            "{warnings:?}"
        );
    }

    #[test]
    fn every_field_python_chess_returns_is_kept() {
        let position = Position::from_fen("8/8/6k1/8/8/8/1K6/3B4 w - - 0 1").unwrap();
        let mv = |position: &Position, uci: &str| position.parse_uci(uci).unwrap();
        let line = "info currmove d1h5 currmovenumber 3 cpuload 456 ebf 0.42 refutation d1h5 g6h5 refutation b2c3 currline 1 b2b3 g6g5 string keep  two  spaces ";
        let (info, warnings) = Info::parse(line, &position);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(info.currmove, Some(mv(&position, "d1h5")));
        assert_eq!(
            (info.currmovenumber, info.cpuload, info.ebf),
            (Some(3), Some(456), Some(0.42))
        );
        let after = position.play_unchecked(mv(&position, "d1h5"));
        assert_eq!(
            info.refutation,
            [
                (mv(&position, "d1h5"), vec![mv(&after, "g6h5")]),
                (mv(&position, "b2c3"), vec![])
            ]
        );
        let b3 = position.play_unchecked(mv(&position, "b2b3"));
        assert_eq!(
            info.currline,
            [(1, vec![mv(&position, "b2b3"), mv(&b3, "g6g5")])]
        );
        // The string is the rest of the line, its inner spaces as sent.
        assert_eq!(info.string.as_deref(), Some("keep  two  spaces"));
    }

    #[test]
    fn a_refutation_of_an_illegal_move_is_a_warning() {
        let (info, warnings) = Info::parse("info refutation e2e5 e7e5 depth 3", &Position::START);
        assert!(info.refutation.is_empty());
        assert_eq!(info.depth, Some(3));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
    }

    /// Found by the fuzz target: two `pv` fields on one line made one PV
    /// of both, the second's moves played after the first's.
    #[test]
    fn a_second_pv_replaces_the_first() {
        let (info, warnings) = Info::parse("info pv e2e4 e7e5 pv d2d4", &Position::START);
        assert!(warnings.is_empty());
        assert_eq!(info.pv, [Position::START.parse_uci("d2d4").unwrap()]);
    }

    #[test]
    fn bad_numbers_and_unknown_tokens_are_warnings() {
        let (info, warnings) = Info::parse(
            "info depth x seldepth -1 frob 7 score cp lowerbound wdl 1 2 time 5 multipv 0 hashfull",
            &Position::START,
        );
        assert_eq!(info.depth, None);
        assert_eq!(info.seldepth, None);
        assert_eq!(info.multipv, 1);
        assert_eq!(info.wdl, None);
        assert!(warnings.len() >= 6, "{warnings:?}");
    }

    #[test]
    fn mate_on_the_board_and_white_view() {
        let black = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
        let (info, _) = Info::parse("info depth 0 score mate 0", &black);
        assert_eq!(info.score, Some(Score::Mated));
        assert_eq!(info.white_score(), Some(Score::MateGiven));
        let (info, _) = Info::parse(
            "info score cp 20 lowerbound wdl 300 600 100 string hello  world",
            &black,
        );
        assert_eq!(info.white_score(), Some(Score::Cp(-20)));
        assert_eq!(info.white_bound(), Bound::Upper);
        assert_eq!(
            info.white_wdl(),
            Some(Wdl {
                win: 100,
                draw: 600,
                loss: 300
            })
        );
        assert_eq!(info.string.as_deref(), Some("hello  world"));
    }

    #[test]
    fn chess960_castling_in_either_notation() {
        let position = Position::from_fen("4k3/8/8/8/8/8/8/RK6 w A - 0 1").unwrap();
        let (info, warnings) = Info::parse("info pv b1a1 e8f7", &position);
        assert!(warnings.is_empty());
        assert!(info.pv[0].is_castling());
        let standard = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for text in ["e1g1", "e1h1"] {
            let (info, _) = Info::parse(&format!("info pv {text}"), &standard);
            assert!(info.pv[0].is_castling());
        }
    }

    /// Garbage of every kind: the parser never panics (the fuzz target
    /// does the same at length).
    #[test]
    fn random_bytes_never_panic() {
        let mut rng = bitboards_test_support::Rng::new(11);
        let mut next = move || rng.next_u64();
        let words = [
            "info",
            "depth",
            "score",
            "cp",
            "mate",
            "pv",
            "multipv",
            "wdl",
            "e2e4",
            "e7e5",
            "lowerbound",
            "upperbound",
            "string",
            "-",
            "0",
            "-0",
            "+0",
            "99999999999999999999",
            "g1f3",
            "e1g1",
            "a7a8q",
            "nodes",
            "time",
            "currmove",
            "\u{0}",
            "é",
            "ebf",
        ];
        let positions = [
            Position::START,
            Position::from_fen("4k3/8/8/8/8/8/8/RK6 w A - 0 1").unwrap(),
            Position::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
        ];
        for round in 0..20_000 {
            let mut line = String::new();
            for _ in 0..(next() % 24) {
                if next() % 4 == 0 {
                    let bytes: Vec<u8> = (0..next() % 8).map(|_| next() as u8).collect();
                    line.push_str(&String::from_utf8_lossy(&bytes));
                } else {
                    line.push_str(words[(next() % words.len() as u64) as usize]);
                }
                line.push(if next() % 5 == 0 { '\t' } else { ' ' });
            }
            let position = positions[round % positions.len()];
            let (info, _) = Info::parse(&line, &position);
            assert!(info.multipv >= 1);
            let mut current = position;
            for &mv in &info.pv {
                current = current
                    .play(mv)
                    .expect("a PV read is legal move after move");
            }
        }
    }
}
