//! Games as values: [`PgnGame`], and the iterator that reads them.

use std::io::BufRead;
use std::string::String;
use std::vec::Vec;

use crate::error::ReadError;
use crate::reader::Reader;
use crate::result::GameResult;
use crate::visitor::{PgnMove, Visitor};
use bitboards::{Game, Position};

/// One game of a PGN file: its tags in order, the mainline as a [`Game`],
/// the mainline's comments and NAGs, and the result that ends the movetext.
///
/// Variations are not kept (read them with a [`Visitor`]); comments and
/// NAGs are, each with the number of mainline moves before it, so that
/// [`Writer::write_game`](crate::Writer::write_game) writes them back in place.
///
/// ```
/// use bitboards_pgn::{GameResult, PgnGame};
/// use bitboards::Game;
///
/// let mut game = Game::default();
/// for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
///     game.play_san(san)?;
/// }
/// let mut pgn = PgnGame::new(game);
/// pgn.set_tag("White", "Scholar");
/// pgn.result = Some(GameResult::WhiteWins);
/// pgn.comments.push((7, "mate".to_string()));
/// assert_eq!(
///     pgn.to_string(),
///     "[White \"Scholar\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {mate} 1-0\n\n"
/// );
/// # Ok::<(), bitboards::SanError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs, name and value, in the order of the file.
    pub tags: Vec<(String, String)>,
    /// The main line as a [`Game`]: the start position (from the `FEN` tag
    /// or the standard one) and the moves (`pgn_game.mainline.moves()`).
    /// (Called `game` before: a field cannot keep a deprecated alias.)
    pub mainline: Game,
    /// The mainline's comments, each after the given number of moves (0:
    /// before the first move), in order.
    pub comments: Vec<(usize, String)>,
    /// The mainline's NAGs (glyphs such as `!` included), each after the
    /// given number of moves, in order.
    pub nags: Vec<(usize, u8)>,
    /// The result at the end of the movetext, if there is one (the
    /// `Result` tag is among [`tags`](PgnGame::tags)).
    pub result: Option<GameResult>,
}

impl PgnGame {
    /// A game with no tags, comments, NAGs or result.
    ///
    /// ```
    /// use bitboards_pgn::PgnGame;
    /// use bitboards::Game;
    ///
    /// assert!(PgnGame::new(Game::default()).tags.is_empty());
    /// ```
    #[must_use]
    pub fn new(mainline: Game) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            mainline,
            comments: Vec::new(),
            nags: Vec::new(),
            result: None,
        }
    }

    /// The value of the first tag named `name`.
    ///
    /// ```
    /// use bitboards_pgn::Reader;
    ///
    /// let game = Reader::new(&b"[Round \"3\"] *"[..]).games().next().unwrap()?;
    /// assert_eq!(game.tag("Round"), Some("3"));
    /// assert_eq!(game.tag("round"), None);
    /// # Ok::<(), bitboards_pgn::ReadError>(())
    /// ```
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        crate::record::first_tag(&self.tags, name)
    }

    /// Sets the tag `name` to `value`: in place if it is there, at the end
    /// otherwise.
    ///
    /// ```
    /// use bitboards_pgn::PgnGame;
    /// use bitboards::Game;
    ///
    /// let mut pgn = PgnGame::new(Game::default());
    /// pgn.set_tag("Event", "?");
    /// pgn.set_tag("Event", "Final");
    /// assert_eq!(pgn.tags, [("Event".to_string(), "Final".to_string())]);
    /// ```
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(tag, _)| tag == name) {
            Some((_, old)) => {
                old.clear();
                old.push_str(value);
            }
            None => self.tags.push((name.into(), value.into())),
        }
    }
}

/// The games of a [`Reader`], from [`Reader::games`]: each a [`PgnGame`],
/// or the error that made it unreadable. After a malformed game the next
/// one follows; after an I/O error the iterator ends.
///
/// ```
/// use bitboards_pgn::{ReadError, Reader};
///
/// let pgn = "[Event \"1\"]\n\n1. e4 *\n\n[Event \"2\"]\n\n1. e5 *\n\n[Event \"3\"]\n\n1. d4 *\n";
/// let results: Vec<_> = Reader::new(pgn.as_bytes()).games().collect();
/// assert_eq!(results.len(), 3);
/// assert!(results[0].is_ok() && results[2].is_ok());
/// let Err(ReadError::Game(error)) = &results[1] else { panic!() };
/// assert_eq!((error.game(), error.line(), error.column()), (2, 7, 4));
/// ```
pub struct Games<'a, R> {
    reader: &'a mut Reader<R>,
    collector: Collector,
    done: bool,
}

impl<R: BufRead> Reader<R> {
    /// The games that follow, as values.
    ///
    /// ```
    /// use bitboards_pgn::Reader;
    ///
    /// let mut reader = Reader::new(&b"1. e4 e5 1/2-1/2 1. d4 0-1"[..]);
    /// let plies: Vec<usize> = reader.games().map(|game| game.unwrap().mainline.moves().len()).collect();
    /// assert_eq!(plies, [2, 1]);
    /// ```
    pub fn games(&mut self) -> Games<'_, R> {
        Games {
            reader: self,
            collector: Collector::default(),
            done: false,
        }
    }
}

impl<R: BufRead> Iterator for Games<'_, R> {
    type Item = Result<PgnGame, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.reader.read_game(&mut self.collector) {
            Ok(true) => self.collector.game.take().map(Ok),
            Ok(false) => {
                self.done = true;
                None
            }
            Err(error @ (ReadError::Io(_) | ReadError::NotPgn { .. })) => {
                self.done = true;
                Some(Err(error))
            }
            Err(error) => Some(Err(error)),
        }
    }
}

/// The visitor behind [`Games`]: builds a [`PgnGame`] of the mainline.
#[derive(Default)]
struct Collector {
    game: Option<PgnGame>,
    tags: Vec<(String, String)>,
    comments: Vec<(usize, String)>,
    nags: Vec<(usize, u8)>,
    partial: String,
}

impl Collector {
    fn plies(&self) -> usize {
        self.game
            .as_ref()
            .map_or(0, |game| game.mainline.moves().len())
    }
}

impl Visitor for Collector {
    fn begin_game(&mut self, _: usize) {
        self.game = None;
        self.tags.clear();
        self.comments.clear();
        self.nags.clear();
        self.partial.clear();
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.tags.push((name.into(), value.into()));
    }

    fn begin_movetext(&mut self, start: &Position) {
        let mut game = PgnGame::new(Game::new(*start));
        game.tags = core::mem::take(&mut self.tags);
        game.comments = core::mem::take(&mut self.comments);
        self.game = Some(game);
    }

    fn san(&mut self, played: PgnMove<'_>) {
        if let Some(game) = &mut self.game {
            // Legal by the reader's check.
            match played.mv.is_null() {
                true => {
                    let _ = game.mainline.play_null();
                }
                false => game.mainline.play_unchecked(played.mv),
            }
        }
    }

    fn nag(&mut self, nag: u8) {
        let plies = self.plies();
        match &mut self.game {
            Some(game) => game.nags.push((plies, nag)),
            None => self.nags.push((plies, nag)),
        }
    }

    fn comment_part(&mut self, text: &str) {
        self.partial.push_str(text);
    }

    fn comment(&mut self, text: &str) {
        let mut text = String::from(text);
        if !self.partial.is_empty() {
            text.insert_str(0, &self.partial);
            self.partial.clear();
        }
        let plies = self.plies();
        match &mut self.game {
            Some(game) => game.comments.push((plies, text)),
            None => self.comments.push((plies, text)),
        }
    }

    fn result(&mut self, result: GameResult) {
        if let Some(game) = &mut self.game {
            game.result = Some(result);
        }
    }

    fn end_game(&mut self, _: &Position) {
        if let Some(game) = &mut self.game {
            game.nags.splice(0..0, self.nags.drain(..));
        }
    }
}
