//! A game: a start position, the moves played from it, and what the rules
//! say about how it ended. Feature `alloc`.

use alloc::vec::Vec;
use core::fmt;

use crate::moves::Move;
use crate::{Color, Position, SanError};

/// A game in progress or over: the start position, every move played, the
/// position now, and the Polyglot keys of the positions since the last
/// capture or pawn move (the only ones a repetition can be among).
///
/// ```
/// use bitboards::{Game, Outcome, Color, Position};
///
/// let mut game = Game::new(Position::START);
/// for san in ["f3", "e5", "g4", "Qh4#"] {
///     game.play_san(san)?;
/// }
/// assert_eq!(game.moves().len(), 4);
/// assert_eq!(game.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
/// assert_eq!(game.outcome().unwrap().result(), "0-1");
/// # Ok::<(), bitboards::SanError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    position: Position,
    /// The keys of the positions since the last irreversible move, the
    /// current one last.
    keys: Repetitions,
}

/// The Polyglot keys of a game's positions since the last capture or pawn
/// move (the only ones a repetition can be among), the current one last:
/// what the repetition rules look at. A [`Game`] keeps one; a reader that
/// replays moves its own way (a PGN visitor handed each position as it is
/// reached) keeps one instead of a whole `Game`, with no copy of each
/// position and no list of moves.
///
/// ```
/// use bitboards::{Outcome, Position, Repetitions};
///
/// let mut position = Position::START;
/// let mut keys = Repetitions::new(&position);
/// for uci in ["g1f3", "g8f6", "f3g1", "f6g8"].repeat(2) {
///     let mv = position.parse_uci(uci)?;
///     position = position.play(mv)?;
///     keys.push(mv, &position);
/// }
/// assert!(keys.is_repetition(3));
/// assert_eq!(keys.outcome(&position), Some(Outcome::ThreefoldRepetition));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repetitions {
    keys: Vec<u64>,
}

impl Repetitions {
    /// The keys of a game that starts at `start`.
    #[must_use]
    pub fn new(start: &Position) -> Repetitions {
        Repetitions {
            keys: alloc::vec![start.polyglot_key()],
        }
    }

    /// Starts over at `start`, as [`Repetitions::new`] would, keeping the
    /// memory the keys took.
    pub fn restart(&mut self, start: &Position) {
        self.keys.clear();
        self.keys.push(start.polyglot_key());
    }

    /// Notes that `mv` was played and led to `after`. A capture or a pawn
    /// move (its halfmove clock back at 0; a pass never resets it) leaves
    /// no earlier position to come back, so the keys before it are let go.
    pub fn push(&mut self, mv: Move, after: &Position) {
        if after.halfmove_clock() == 0 && !mv.is_null() {
            self.keys.clear();
        }
        self.keys.push(after.polyglot_key());
    }

    /// Whether the last position pushed has stood on the board at least
    /// `n` times (this time included): as [`Game::is_repetition`].
    #[must_use]
    pub fn is_repetition(&self, n: usize) -> bool {
        let Some(&now) = self.keys.last() else {
            return false;
        };
        // The same side is to move only every other ply.
        self.keys
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&key| key == now)
            .count()
            >= n
    }

    /// What the rules say of the game whose last position pushed is
    /// `position`: as [`Game::outcome`].
    #[must_use]
    pub fn outcome(&self, position: &Position) -> Option<Outcome> {
        Outcome::of(position, |n| self.is_repetition(n))
    }
}

/// How a game ended, by the rules alone (not by resignation, time or
/// agreement, which the moves cannot show). See [`Game::outcome`] for the
/// order in which the rules are asked, and which end the game by
/// themselves.
///
/// ```
/// use bitboards::Outcome;
///
/// assert!(Outcome::ThreefoldRepetition.is_claim());
/// assert!(!Outcome::FivefoldRepetition.is_claim());
/// assert_eq!(Outcome::Stalemate.result(), "1/2-1/2");
/// assert_eq!(Outcome::InsufficientMaterial.name(), "insufficient_material");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The side to move is checkmated: `winner` wins. Ends the game.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check: a draw.
    /// Ends the game.
    Stalemate,
    /// Neither side can checkmate by any sequence of legal moves
    /// ([`Position::is_insufficient_material`]): a draw. Ends the game.
    InsufficientMaterial,
    /// 75 moves by each side without a capture or a pawn move: a draw.
    /// Ends the game (FIDE Laws 9.6.2).
    SeventyFiveMoves,
    /// The same position for the fifth time: a draw. Ends the game (FIDE
    /// Laws 9.6.1).
    FivefoldRepetition,
    /// 50 moves by each side without a capture or a pawn move: a player
    /// may claim a draw (FIDE Laws 9.3). The game goes on until one does.
    FiftyMoves,
    /// The same position for the third time: a player may claim a draw
    /// (FIDE Laws 9.2). The game goes on until one does.
    ThreefoldRepetition,
}

impl Outcome {
    /// What the rules say of `position`, in [`Game::outcome`]'s order,
    /// with `is_repetition(n)` saying whether it has stood `n` times (for
    /// a caller that keeps the history its own way; [`Game::outcome`] asks
    /// its own).
    ///
    /// ```
    /// use bitboards::{Outcome, Position};
    ///
    /// let mate = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")?;
    /// assert!(matches!(Outcome::of(&mate, |_| false), Some(Outcome::Checkmate { .. })));
    /// assert_eq!(Outcome::of(&Position::START, |n| n <= 3), Some(Outcome::ThreefoldRepetition));
    /// assert_eq!(Outcome::of(&Position::START, |_| false), None);
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn of(position: &Position, is_repetition: impl Fn(usize) -> bool) -> Option<Outcome> {
        if !position.has_legal_moves() {
            return Some(if position.is_check() {
                Outcome::Checkmate {
                    winner: position.side_to_move().opponent(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if position.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else if position.halfmove_clock() >= 150 {
            Some(Outcome::SeventyFiveMoves)
        } else if is_repetition(5) {
            Some(Outcome::FivefoldRepetition)
        } else if position.halfmove_clock() >= 100 {
            Some(Outcome::FiftyMoves)
        } else if is_repetition(3) {
            Some(Outcome::ThreefoldRepetition)
        } else {
            None
        }
    }

    /// Whether this is a draw a player may claim rather than the end of
    /// the game: [`Outcome::FiftyMoves`] and
    /// [`Outcome::ThreefoldRepetition`].
    ///
    /// ```
    /// use bitboards::Outcome;
    ///
    /// assert!(Outcome::FiftyMoves.is_claim());
    /// assert!(!Outcome::SeventyFiveMoves.is_claim());
    /// ```
    #[must_use]
    pub const fn is_claim(self) -> bool {
        matches!(self, Outcome::FiftyMoves | Outcome::ThreefoldRepetition)
    }

    /// The winner, or `None` for a draw.
    ///
    /// ```
    /// use bitboards::{Color, Outcome};
    ///
    /// assert_eq!(Outcome::Checkmate { winner: Color::White }.winner(), Some(Color::White));
    /// assert_eq!(Outcome::Stalemate.winner(), None);
    /// ```
    #[must_use]
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }

    /// The result as PGN writes it: `1-0`, `0-1` or `1/2-1/2`.
    ///
    /// ```
    /// use bitboards::{Color, Outcome};
    ///
    /// assert_eq!(Outcome::Checkmate { winner: Color::White }.result(), "1-0");
    /// assert_eq!(Outcome::FiftyMoves.result(), "1/2-1/2");
    /// ```
    #[must_use]
    pub const fn result(self) -> &'static str {
        match self {
            Outcome::Checkmate {
                winner: Color::White,
            } => "1-0",
            Outcome::Checkmate {
                winner: Color::Black,
            } => "0-1",
            _ => "1/2-1/2",
        }
    }

    /// A name in snake case, for machine-readable output: `checkmate`,
    /// `stalemate`, `insufficient_material`, `seventyfive_moves`,
    /// `fivefold_repetition`, `fifty_moves`, `threefold_repetition`.
    ///
    /// ```
    /// use bitboards::Outcome;
    ///
    /// assert_eq!(Outcome::SeventyFiveMoves.name(), "seventyfive_moves");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Checkmate { .. } => "checkmate",
            Outcome::Stalemate => "stalemate",
            Outcome::InsufficientMaterial => "insufficient_material",
            Outcome::SeventyFiveMoves => "seventyfive_moves",
            Outcome::FivefoldRepetition => "fivefold_repetition",
            Outcome::FiftyMoves => "fifty_moves",
            Outcome::ThreefoldRepetition => "threefold_repetition",
        }
    }
}

/// Words for people: "checkmate, White wins", "draw by threefold
/// repetition (claimable)".
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Checkmate {
                winner: Color::White,
            } => f.write_str("checkmate, White wins"),
            Outcome::Checkmate {
                winner: Color::Black,
            } => f.write_str("checkmate, Black wins"),
            Outcome::Stalemate => f.write_str("draw by stalemate"),
            Outcome::InsufficientMaterial => f.write_str("draw by insufficient material"),
            Outcome::SeventyFiveMoves => f.write_str("draw by the seventy-five-move rule"),
            Outcome::FivefoldRepetition => f.write_str("draw by fivefold repetition"),
            Outcome::FiftyMoves => f.write_str("draw by the fifty-move rule (claimable)"),
            Outcome::ThreefoldRepetition => f.write_str("draw by threefold repetition (claimable)"),
        }
    }
}

pub use crate::position::IllegalMoveError;

impl Game {
    /// A game from `start`, no move played yet.
    ///
    /// ```
    /// use bitboards::{Game, Position};
    ///
    /// let game = Game::new(Position::START);
    /// assert_eq!(game.position(), &Position::START);
    /// assert!(game.moves().is_empty());
    /// ```
    #[must_use]
    pub fn new(start: Position) -> Game {
        Game {
            start,
            moves: Vec::new(),
            position: start,
            keys: Repetitions::new(&start),
        }
    }

    /// Starts over from `start`, as [`Game::new`] would, keeping the memory
    /// the moves took: a reader of many games plays them all in one `Game`.
    ///
    /// ```
    /// use bitboards::{Game, Position};
    ///
    /// let mut game = Game::new(Position::START);
    /// game.play_san("e4")?;
    /// let start = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
    /// game.restart(start);
    /// assert_eq!((game.start(), game.position()), (&start, &start));
    /// assert!(game.moves().is_empty());
    /// assert_eq!(game, Game::new(start));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn restart(&mut self, start: Position) {
        self.start = start;
        self.moves.clear();
        self.position = start;
        self.keys.restart(&start);
    }

    /// The position the game started from.
    ///
    /// ```
    /// use bitboards::{Game, Position};
    ///
    /// assert_eq!(Game::new(Position::START).start(), &Position::START);
    /// ```
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position now.
    ///
    /// ```
    /// use bitboards::{Game, Position};
    ///
    /// let mut game = Game::new(Position::START);
    /// game.play_san("e4")?;
    /// assert_eq!(game.position().fen().to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// # Ok::<(), bitboards::SanError>(())
    /// ```
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order.
    ///
    /// ```
    /// use bitboards::{Game, Position};
    ///
    /// let mut game = Game::new(Position::START);
    /// let e4 = game.play_san("e4")?;
    /// assert_eq!(game.moves(), &[e4]);
    /// # Ok::<(), bitboards::SanError>(())
    /// ```
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays `mv` if it is legal in the current position.
    ///
    /// ```
    /// use bitboards::{Game, Position};
    ///
    /// let mut game = Game::new(Position::START);
    /// let mv = game.position().parse_uci("g1f3").unwrap();
    /// game.play(mv)?;
    /// assert!(game.play(mv).is_err(), "the knight has left g1");
    /// # Ok::<(), bitboards::IllegalMoveError>(())
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if !self.position.is_legal(mv) {
            return Err(IllegalMoveError(mv));
        }
        self.push_legal(mv);
        Ok(())
    }

    /// Plays `mv`, which the caller knows to be legal in the current
    /// position (a PGN reader that has just resolved it): no legality test,
    /// which costs a move generation. Checked in debug builds only; an
    /// illegal move here leaves the game in a state no rule describes.
    ///
    /// ```
    /// use bitboards::Game;
    ///
    /// let mut game = Game::default();
    /// let mv = game.position().parse_san("e4")?;
    /// game.play_unchecked(mv);
    /// assert_eq!(game.moves(), &[mv]);
    /// # Ok::<(), bitboards::SanError>(())
    /// ```
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(self.position.is_legal(mv), "{mv:?} is not legal");
        self.push_legal(mv);
    }

    /// Passes: plays [`Move::NULL`] as [`Position::null_move`] does (the
    /// other side to move, no en passant square), as analysis games in PGN
    /// do with `--`. An error when the side to move is in check, where a
    /// pass would leave its king attacked.
    ///
    /// ```
    /// use bitboards::{Color, Game, Move};
    ///
    /// let mut game = Game::default();
    /// game.play_san("e4")?;
    /// game.play_null().expect("Black is not in check");
    /// assert_eq!(game.position().side_to_move(), Color::White);
    /// assert_eq!(game.moves()[1], Move::NULL);
    /// # Ok::<(), bitboards::SanError>(())
    /// ```
    ///
    /// # Errors
    /// [`IllegalMoveError`] holding [`Move::NULL`] when in check.
    pub fn play_null(&mut self) -> Result<(), IllegalMoveError> {
        let Some(passed) = self.position.null_move() else {
            return Err(IllegalMoveError(Move::NULL));
        };
        self.position = passed;
        self.record(Move::NULL);
        Ok(())
    }

    /// Reads `san` in the current position ([`Position::parse_san`]) and
    /// plays it; returns the move.
    ///
    /// ```
    /// use bitboards::Game;
    ///
    /// let mut game = Game::default();
    /// assert_eq!(game.play_san("Nf3")?.to_string(), "g1f3");
    /// assert!(game.play_san("Nf3").is_err());
    /// # Ok::<(), bitboards::SanError>(())
    /// ```
    pub fn play_san(&mut self, san: &str) -> Result<Move, SanError> {
        let mv = self.position.parse_san(san)?;
        self.push_legal(mv);
        Ok(mv)
    }

    /// Records `mv` (a legal move, or [`Move::NULL`] where a pass is
    /// allowed) that the caller has already played: `after` is the
    /// position it leads to, as [`Position::play_unchecked`] or
    /// [`Position::null_move`] gave it. A PGN reader that has just played
    /// each move keeps the game this way without playing it twice. Checked
    /// in debug builds only; a wrong `after` leaves the game in a state no
    /// rule describes.
    ///
    /// ```
    /// use bitboards::{Game, Move, Outcome, Position};
    ///
    /// let mut game = Game::default();
    /// let mut position = Position::START;
    /// for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
    ///     let mv = position.play_san_in_place(san)?;
    ///     game.push_played(mv, &position);
    /// }
    /// assert_eq!(game.position(), &position);
    /// assert_eq!(game.outcome(), Some(Outcome::ThreefoldRepetition));
    /// # Ok::<(), bitboards::SanError>(())
    /// ```
    pub fn push_played(&mut self, mv: Move, after: &Position) {
        debug_assert!(
            if mv.is_null() {
                self.position.null_move() == Some(*after)
            } else {
                self.position.is_legal(mv) && self.position.play_unchecked(mv) == *after
            },
            "{mv:?} does not lead to the position given"
        );
        self.position = *after;
        self.record(mv);
    }

    /// Plays a move already known to be legal.
    fn push_legal(&mut self, mv: Move) {
        self.position.play_unchecked_in_place(mv);
        self.record(mv);
    }

    /// Notes `mv`, which led to the current position.
    fn record(&mut self, mv: Move) {
        self.moves.push(mv);
        self.keys.push(mv, &self.position);
    }

    /// Whether the current position has stood on the board at least `n`
    /// times (this time included) since the last capture or pawn move:
    /// `is_repetition(3)` is the threefold repetition.
    ///
    /// Positions are compared by their Polyglot keys, which hold the pieces,
    /// the side to move, the castling rights and the en passant file when
    /// a pawn stands ready to take (Polyglot's rule; FIDE asks whether the
    /// capture is legal, which differs only when that pawn is pinned).
    ///
    /// ```
    /// use bitboards::Game;
    ///
    /// let mut game = Game::default();
    /// for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
    ///     game.play_san(san)?;
    /// }
    /// assert!(game.is_repetition(3));
    /// assert!(!game.is_repetition(4));
    /// # Ok::<(), bitboards::SanError>(())
    /// ```
    #[must_use]
    pub fn is_repetition(&self, n: usize) -> bool {
        self.keys.is_repetition(n)
    }

    /// What the rules say of the game now, asking them in this order and
    /// answering the first that holds:
    ///
    /// 1. checkmate ([`Outcome::Checkmate`]),
    /// 2. stalemate,
    /// 3. insufficient material (neither side can mate),
    /// 4. the seventy-five-move rule (150 half-moves; a mate on the last one
    ///    was found first),
    /// 5. fivefold repetition,
    /// 6. the fifty-move rule (100 half-moves): claimable,
    /// 7. threefold repetition: claimable.
    ///
    /// The first five end the game by themselves; the last two
    /// ([`Outcome::is_claim`]) only allow a player to claim a draw, and the
    /// game goes on if nobody does. `None` when no rule applies.
    ///
    /// ```
    /// use bitboards::{Game, Outcome, Position};
    ///
    /// let game = Game::new(Position::from_fen("4k3/8/8/8/8/8/8/4KB2 w - - 0 1")?);
    /// assert_eq!(game.outcome(), Some(Outcome::InsufficientMaterial));
    /// assert_eq!(Game::default().outcome(), None);
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.keys.outcome(&self.position)
    }
}

/// A game from the standard start position.
impl Default for Game {
    fn default() -> Game {
        Game::new(Position::START)
    }
}
