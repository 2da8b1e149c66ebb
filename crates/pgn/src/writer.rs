//! Writing PGN: tags, then movetext with move numbers, wrapped at 80
//! columns.

use core::fmt;
use std::io::{self, Write};

use crate::game::PgnGame;
use crate::result::GameResult;
use bitboards::{CastlingSide, Color, File, Move, Position};

/// The longest line the writer makes (unless one token is longer).
const WIDTH: usize = 80;

/// The Seven Tag Roster, in the order PGN writes it.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Writes PGN to any [`io::Write`] (wrap a file in a
/// [`BufWriter`](std::io::BufWriter): the writer writes token by token).
///
/// Call [`tag`](Writer::tag) for each tag pair, then the movetext events
/// ([`san`](Writer::san), [`comment`](Writer::comment),
/// [`nag`](Writer::nag), [`begin_variation`](Writer::begin_variation),
/// [`end_variation`](Writer::end_variation)), then
/// [`result`](Writer::result), which ends the game; or
/// [`write_game`](Writer::write_game) for a whole [`PgnGame`]. Move numbers
/// are written before White's moves, and before Black's when they start
/// the movetext or follow a comment or a variation (`12...`). Lines break
/// between tokens before they pass 80 columns; a comment may break at its
/// spaces (a reader then sees a line break there).
///
/// ```
/// use bitboards_pgn::{GameResult, Writer};
/// use bitboards::Position;
///
/// let mut writer = Writer::new(Vec::new());
/// writer.tag("Event", "A \"quoted\" name")?;
/// let start = Position::START;
/// let e4 = start.parse_san("e4").unwrap();
/// writer.san(&start, e4)?;
/// writer.begin_variation()?;
/// writer.san(&start, start.parse_san("d4").unwrap())?;
/// writer.end_variation()?;
/// let after = start.play_unchecked(e4);
/// writer.comment("the main line")?;
/// writer.san(&after, after.parse_san("c5").unwrap())?;
/// writer.nag(1)?;
/// writer.result(GameResult::Unknown)?;
/// assert_eq!(
///     String::from_utf8(writer.into_inner()).unwrap(),
///     "[Event \"A \\\"quoted\\\" name\"]\n\n1. e4 (1. d4) {the main line} 1... c5 $1 *\n\n"
/// );
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Writer<W> {
    out: W,
    /// The length of the current movetext line.
    column: usize,
    /// Whether a tag was written and no movetext yet.
    after_tags: bool,
    /// Whether the next Black move needs its number (`12...`).
    need_number: bool,
    /// Whether the next token goes right after the last (after `(`).
    glue: bool,
}

/// A short text built on the stack.
struct Token {
    bytes: [u8; 32],
    len: usize,
}

impl Token {
    fn new() -> Token {
        Token {
            bytes: [0; 32],
            len: 0,
        }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl core::fmt::Write for Token {
    fn write_str(&mut self, text: &str) -> core::fmt::Result {
        let end = self.len + text.len();
        if end > self.bytes.len() {
            return Err(core::fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(text.as_bytes());
        self.len = end;
        Ok(())
    }
}

fn invalid(message: &'static str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// Whether `position` needs `[Variant "Chess960"]`: a castling right whose
/// king or rook is not where standard chess has them.
fn is_chess960(position: &Position) -> bool {
    let castling = position.castling();
    [Color::White, Color::Black].into_iter().any(|color| {
        [
            (CastlingSide::KingSide, File::H),
            (CastlingSide::QueenSide, File::A),
        ]
        .into_iter()
        .any(|(side, standard)| {
            castling
                .rook_file(color, side)
                .is_some_and(|file| file != standard || position.king(color).file() != File::E)
        })
    })
}

impl<W: Write> Writer<W> {
    /// A writer to `out`.
    ///
    /// ```
    /// use bitboards_pgn::Writer;
    ///
    /// assert!(Writer::new(Vec::new()).into_inner().is_empty());
    /// ```
    pub fn new(out: W) -> Writer<W> {
        Writer {
            out,
            column: 0,
            after_tags: false,
            need_number: true,
            glue: false,
        }
    }

    /// The output, given back.
    ///
    /// ```
    /// use bitboards_pgn::{GameResult, Writer};
    ///
    /// let mut writer = Writer::new(Vec::new());
    /// writer.result(GameResult::Draw)?;
    /// assert_eq!(writer.into_inner(), b"1/2-1/2\n\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes a tag pair on its own line, `[Name "value"]`, with `"` and `\`
    /// escaped (and line breaks, which a tag cannot hold, as spaces).
    ///
    /// # Errors
    ///
    /// The output's, and [`io::ErrorKind::InvalidInput`] for a name that is
    /// not letters, digits and `_`, or a tag after the movetext started.
    ///
    /// ```
    /// use bitboards_pgn::Writer;
    ///
    /// let mut writer = Writer::new(Vec::new());
    /// writer.tag("Site", r"C:\path")?;
    /// assert_eq!(writer.into_inner(), b"[Site \"C:\\\\path\"]\n");
    /// assert!(Writer::new(Vec::new()).tag("Bad name", "x").is_err());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn tag(&mut self, name: &str, value: &str) -> io::Result<()> {
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(invalid("a PGN tag name is letters, digits and `_`"));
        }
        if self.column > 0 || !self.need_number {
            return Err(invalid("PGN tags come before the movetext"));
        }
        self.out.write_all(b"[")?;
        self.out.write_all(name.as_bytes())?;
        self.out.write_all(b" \"")?;
        let mut rest = value.as_bytes();
        while let Some(at) = rest
            .iter()
            .position(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))
        {
            self.out.write_all(&rest[..at])?;
            match rest[at] {
                b'"' => self.out.write_all(b"\\\"")?,
                b'\\' => self.out.write_all(b"\\\\")?,
                _ => self.out.write_all(b" ")?,
            }
            rest = &rest[at + 1..];
        }
        self.out.write_all(rest)?;
        self.out.write_all(b"\"]\n")?;
        self.after_tags = true;
        Ok(())
    }

    /// Writes one movetext token, after a space or a line break.
    fn token(&mut self, text: &[u8]) -> io::Result<()> {
        if self.after_tags {
            self.out.write_all(b"\n")?;
            self.after_tags = false;
        }
        let space = usize::from(!self.glue);
        if self.column > 0 {
            if self.column + space + text.len() > WIDTH {
                self.out.write_all(b"\n")?;
                self.column = 0;
            } else if space == 1 {
                self.out.write_all(b" ")?;
                self.column += 1;
            }
        }
        self.out.write_all(text)?;
        self.column += text.len();
        self.glue = false;
        Ok(())
    }

    /// Writes `mv`, legal in `before`, in SAN, with its move number when it
    /// needs one.
    ///
    /// # Errors
    ///
    /// The output's.
    ///
    /// ```
    /// use bitboards_pgn::Writer;
    /// use bitboards::Position;
    ///
    /// let position = Position::from_fen("4k3/8/8/8/8/8/8/4K2R b K - 3 40")?;
    /// let mut writer = Writer::new(Vec::new());
    /// writer.san(&position, position.parse_san("Kd7")?)?;
    /// assert_eq!(writer.into_inner(), b"40... Kd7");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn san(&mut self, before: &Position, mv: Move) -> io::Result<()> {
        use core::fmt::Write as _;
        let mut token = Token::new();
        let number = before.fullmove_number();
        let san = SanOrNull(before, mv);
        let result = match before.side_to_move() {
            Color::White => write!(token, "{number}. {san}"),
            Color::Black if self.need_number => write!(token, "{number}... {san}"),
            Color::Black => write!(token, "{san}"),
        };
        result.map_err(|_| invalid("a SAN move longer than 32 bytes"))?;
        self.need_number = false;
        self.token(token.as_bytes())
    }

    /// Writes a Numeric Annotation Glyph, `$n`.
    ///
    /// # Errors
    ///
    /// The output's.
    ///
    /// ```
    /// use bitboards_pgn::Writer;
    ///
    /// let mut writer = Writer::new(Vec::new());
    /// writer.nag(14)?;
    /// assert_eq!(writer.into_inner(), b"$14");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn nag(&mut self, nag: u8) -> io::Result<()> {
        use core::fmt::Write as _;
        let mut token = Token::new();
        let _ = write!(token, "${nag}");
        self.token(token.as_bytes())
    }

    /// Writes a comment `{text}`, breaking it at spaces to keep lines
    /// within 80 columns. A `}` in the text, which would end the comment,
    /// is written as `)`.
    ///
    /// # Errors
    ///
    /// The output's.
    ///
    /// ```
    /// use bitboards_pgn::Writer;
    ///
    /// let mut writer = Writer::new(Vec::new());
    /// writer.comment("a {nested} remark")?;
    /// assert_eq!(writer.into_inner(), b"{a {nested) remark}");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn comment(&mut self, text: &str) -> io::Result<()> {
        let mut words = text.split_ascii_whitespace().peekable();
        if words.peek().is_none() {
            self.token(b"{}")?;
        }
        let mut first = true;
        let mut word_bytes = std::vec::Vec::new();
        while let Some(word) = words.next() {
            word_bytes.clear();
            if first {
                word_bytes.push(b'{');
            }
            word_bytes.extend(word.bytes().map(|b| if b == b'}' { b')' } else { b }));
            if words.peek().is_none() {
                word_bytes.push(b'}');
            }
            self.token(&word_bytes)?;
            first = false;
        }
        self.need_number = true;
        Ok(())
    }

    /// Opens a variation, `(`: the moves that follow replace the last move
    /// written, and start from the position before it.
    ///
    /// # Errors
    ///
    /// The output's.
    ///
    /// ```
    /// use bitboards_pgn::Writer;
    /// use bitboards::Position;
    ///
    /// let start = Position::START;
    /// let mut writer = Writer::new(Vec::new());
    /// writer.san(&start, start.parse_san("e4")?)?;
    /// writer.begin_variation()?;
    /// writer.san(&start, start.parse_san("c4")?)?;
    /// writer.end_variation()?;
    /// assert_eq!(writer.into_inner(), b"1. e4 (1. c4)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn begin_variation(&mut self) -> io::Result<()> {
        self.token(b"(")?;
        self.glue = true;
        self.need_number = true;
        Ok(())
    }

    /// Closes a variation, `)`.
    ///
    /// # Errors
    ///
    /// The output's.
    ///
    /// ```
    /// use bitboards_pgn::Writer;
    ///
    /// let mut writer = Writer::new(Vec::new());
    /// writer.begin_variation()?;
    /// writer.end_variation()?;
    /// assert_eq!(writer.into_inner(), b"()");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn end_variation(&mut self) -> io::Result<()> {
        self.glue = true;
        self.token(b")")?;
        self.need_number = true;
        Ok(())
    }

    /// Writes the result and ends the game (with a blank line after it);
    /// the writer is ready for the next game's tags.
    ///
    /// # Errors
    ///
    /// The output's.
    ///
    /// ```
    /// use bitboards_pgn::{GameResult, Writer};
    ///
    /// let mut writer = Writer::new(Vec::new());
    /// writer.tag("Result", "1-0")?;
    /// writer.result(GameResult::WhiteWins)?;
    /// assert_eq!(writer.into_inner(), b"[Result \"1-0\"]\n\n1-0\n\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn result(&mut self, result: GameResult) -> io::Result<()> {
        self.token(result.as_str().as_bytes())?;
        self.out.write_all(b"\n\n")?;
        self.column = 0;
        self.need_number = true;
        self.glue = false;
        Ok(())
    }

    /// Writes a whole game: the Seven Tag Roster's tags first in its order
    /// (those the game has), then its other tags in order, `SetUp` and
    /// `FEN` when it starts elsewhere than the standard position and has no
    /// `FEN` tag, `Variant "Chess960"` when its castling needs it and it has
    /// no `Variant` tag; then the mainline with its comments and NAGs, and
    /// the result: the movetext's, else the `Result` tag's, else `*`.
    ///
    /// # Errors
    ///
    /// The output's, and [`io::ErrorKind::InvalidInput`] for a bad tag name.
    ///
    /// ```
    /// use bitboards_pgn::{PgnGame, Writer};
    /// use bitboards::{Game, Position};
    ///
    /// let mut game = PgnGame::new(Game::new(Position::chess960(0).unwrap()));
    /// game.set_tag("Result", "*");
    /// let mut writer = Writer::new(Vec::new());
    /// writer.write_game(&game)?;
    /// assert_eq!(
    ///     String::from_utf8(writer.into_inner()).unwrap(),
    ///     "[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\
    ///      [Variant \"Chess960\"]\n\n*\n\n"
    /// );
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_game(&mut self, game: &PgnGame) -> io::Result<()> {
        for name in ROSTER {
            if let Some(value) = game.tag(name) {
                self.tag(name, value)?;
            }
        }
        for (name, value) in &game.tags {
            if !ROSTER.contains(&name.as_str()) {
                self.tag(name, value)?;
            }
        }
        let start = game.mainline.start();
        if *start != Position::START && game.tag("FEN").is_none() {
            self.tag("SetUp", "1")?;
            let mut fen = std::string::String::new();
            use core::fmt::Write as _;
            let _ = write!(fen, "{}", start.fen());
            self.tag("FEN", &fen)?;
        }
        if is_chess960(start) && game.tag("Variant").is_none() {
            self.tag("Variant", "Chess960")?;
        }
        let mut comments = game.comments.iter().peekable();
        let mut nags = game.nags.iter().peekable();
        let mut position = *start;
        for ply in 0..=game.mainline.moves().len() {
            while let Some((_, nag)) = nags.next_if(|(at, _)| *at <= ply) {
                self.nag(*nag)?;
            }
            while let Some((_, text)) = comments.next_if(|(at, _)| *at <= ply) {
                self.comment(text)?;
            }
            if let Some(&mv) = game.mainline.moves().get(ply) {
                self.san(&position, mv)?;
                match mv.is_null() {
                    true => position = position.null_move().unwrap_or(position),
                    false => position.play_unchecked_in_place(mv),
                }
            }
        }
        let result = game
            .result
            .or_else(|| game.tag("Result").and_then(|text| text.parse().ok()))
            .unwrap_or(GameResult::Unknown);
        self.result(result)
    }
}

/// A move's SAN, or `--` for [`Move::NULL`] (the null move as PGN writes it).
struct SanOrNull<'a>(&'a Position, Move);

impl core::fmt::Display for SanOrNull<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.1.is_null() {
            true => f.write_str("--"),
            false => core::fmt::Display::fmt(&self.0.san(self.1), f),
        }
    }
}

/// The game in PGN, as [`Writer::write_game`] writes it.
impl fmt::Display for PgnGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut writer = Writer::new(Vec::new());
        writer.write_game(self).map_err(|_| fmt::Error)?;
        f.write_str(&String::from_utf8_lossy(&writer.into_inner()))
    }
}
