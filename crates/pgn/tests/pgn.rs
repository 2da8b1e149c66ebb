//! PGN reading and writing: every edge case of the format, errors with
//! their game, line and column, constant memory over a long stream, round
//! trips over generated games, and a seeded loop of mutated text.

use std::io::{self, BufRead, Read};

use bitboards::{Game, Position, SanError};
use bitboards_pgn::{
    GameResult, ParallelReader, PgnErrorKind, PgnGame, PgnMove, ReadError, Reader, Visit, Visitor,
    Writer,
};
use bitboards_test_support::Rng;

/// Everything a visitor hears, as values.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Event {
    Tag(String, String),
    Start(String),
    Move {
        before: String,
        san: String,
        uci: String,
    },
    Nag(u8),
    Comment(String),
    BeginVariation,
    EndVariation,
    Result(GameResult),
    End(String),
}

/// Records every event of every game, entering variations.
#[derive(Default)]
struct Recorder {
    games: Vec<Vec<Event>>,
    enter: bool,
    /// The pieces of a comment longer than the buffer, so far.
    part: String,
}

impl Recorder {
    fn entering() -> Recorder {
        Recorder {
            games: Vec::new(),
            enter: true,
            part: String::new(),
        }
    }

    fn push(&mut self, event: Event) {
        self.games.last_mut().expect("begin_game first").push(event);
    }
}

/// Whitespace runs as single spaces: the writer may break a comment's line.
fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Visitor for Recorder {
    fn begin_game(&mut self, _: usize) {
        self.games.push(Vec::new());
        self.part.clear();
    }
    fn tag(&mut self, name: &str, value: &str) {
        self.push(Event::Tag(name.into(), value.into()));
    }
    fn begin_movetext(&mut self, start: &Position) {
        self.push(Event::Start(start.fen().to_string()));
    }
    fn san(&mut self, played: PgnMove<'_>) {
        let after = match played.mv.is_null() {
            true => played.before.null_move().expect("a null move out of check"),
            false => played.before.play_unchecked(played.mv),
        };
        assert_eq!(after, *played.after);
        self.push(Event::Move {
            before: played.before.fen().to_string(),
            san: played.san.into(),
            uci: played.mv.to_string(),
        });
    }
    fn nag(&mut self, nag: u8) {
        self.push(Event::Nag(nag));
    }
    fn comment_part(&mut self, text: &str) {
        self.part.push_str(text);
    }
    fn comment(&mut self, text: &str) {
        // A comment longer than the buffer: its pieces, then its end.
        let whole = std::mem::take(&mut self.part) + text;
        self.push(Event::Comment(normalize(&whole)));
    }
    fn begin_variation(&mut self) -> Visit {
        if self.enter {
            self.push(Event::BeginVariation);
            Visit::Enter
        } else {
            Visit::Skip
        }
    }
    fn end_variation(&mut self) {
        self.push(Event::EndVariation);
    }
    fn result(&mut self, result: GameResult) {
        self.push(Event::Result(result));
    }
    fn end_game(&mut self, last: &Position) {
        self.push(Event::End(last.fen().to_string()));
    }
}

/// Reads all of `pgn`, entering variations: the events of each game, or
/// its error.
fn record(pgn: &[u8]) -> Vec<Result<Vec<Event>, String>> {
    let mut reader = Reader::new(pgn);
    let mut recorder = Recorder::entering();
    let mut out = Vec::new();
    loop {
        match reader.read_game(&mut recorder) {
            Ok(false) => return out,
            Ok(true) => out.push(Ok(recorder.games.last().cloned().unwrap())),
            Err(ReadError::Game(error)) => out.push(Err(error.to_string())),
            Err(error) => panic!("{error}"),
        }
    }
}

/// The games of `pgn`, all of which must read.
fn games(pgn: &str) -> Vec<PgnGame> {
    Reader::new(pgn.as_bytes())
        .games()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|error| panic!("{error}"))
}

/// The error of the only game of `pgn`, or of the first bad one.
fn first_error(pgn: &str) -> bitboards_pgn::PgnError {
    for game in Reader::new(pgn.as_bytes()).games() {
        match game {
            Ok(_) => {}
            Err(ReadError::Game(error)) => return error,
            Err(error) => panic!("{error}"),
        }
    }
    panic!("no error in {pgn:?}")
}

fn sans(game: &PgnGame) -> Vec<String> {
    let mut position = *game.mainline.start();
    game.mainline
        .moves()
        .iter()
        .map(|&mv| {
            let san = position.san(mv).to_string();
            position = position.play_unchecked(mv);
            san
        })
        .collect()
}

#[test]
fn empty_input_has_no_games() {
    for text in [
        "",
        "   \n\r\n\t",
        "\u{feff}",
        "\u{feff}\n\n",
        "% only an escape line\n",
    ] {
        assert_eq!(Reader::new(text.as_bytes()).games().count(), 0, "{text:?}");
    }
}

#[test]
fn tags_with_escapes_in_order() {
    let pgn = r#"[Event "The \"Immortal\" Game"]
[Site "London \\ Simpson's Divan"]
[Empty ""]
[  Spaced   "tag"  ]
[White "Anderssen, A."]

1. e4 *
"#;
    let game = &games(pgn)[0];
    let expected = [
        ("Event", r#"The "Immortal" Game"#),
        ("Site", r"London \ Simpson's Divan"),
        ("Empty", ""),
        ("Spaced", "tag"),
        ("White", "Anderssen, A."),
    ];
    let tags: Vec<(&str, &str)> = game
        .tags
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(tags, expected);
}

#[test]
fn bom_and_crlf() {
    let pgn = "\u{feff}[Event \"x\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 e5\r\n2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\r\n\r\n";
    let read = games(pgn);
    assert_eq!(read.len(), 1);
    assert_eq!(read[0].tag("Event"), Some("x"));
    assert_eq!(read[0].mainline.moves().len(), 7);
    assert_eq!(read[0].result, Some(GameResult::WhiteWins));
    // Lines and columns count past the BOM and the CRs.
    let error = first_error("\u{feff}1. e4 e4 *");
    assert_eq!((error.line(), error.column()), (1, 7));
    let error = first_error("[Event \"x\"]\r\n\r\n1. e4\r\n e4 *");
    assert_eq!((error.line(), error.column()), (4, 2));
}

#[test]
fn percent_escape_lines_are_skipped() {
    let pgn = "% a comment for programs\n[Event \"x\"]\n%another\n\n1. e4 e5\n% 2. Nf3 would be illegal: skipped ) ( {\n2. Nf3 *\n";
    let read = games(pgn);
    assert_eq!(sans(&read[0]), ["e4", "e5", "Nf3"]);
    // Only in column 1: elsewhere `%` is an unexpected token.
    let error = first_error("1. e4 % e5 *");
    assert_eq!(error.column(), 7);
    assert!(matches!(error.kind(), PgnErrorKind::Unexpected(text) if text == "%"));
}

#[test]
fn semicolon_comments_run_to_the_line_end() {
    let pgn = "1. e4 ; king's pawn { not a brace comment\ne5 ;last\r\n2. Nf3 *";
    let read = games(pgn);
    assert_eq!(sans(&read[0]), ["e4", "e5", "Nf3"]);
    assert_eq!(
        read[0].comments,
        [
            (1, "king's pawn { not a brace comment".to_string()),
            (2, "last".to_string())
        ]
    );
}

#[test]
fn brace_comments_span_lines_and_hold_anything() {
    let pgn = "{before} 1. e4 {multi\nline ( ) ; % [%clk 0:01:00]} e5 {} 2. Nf3 *";
    let read = games(pgn);
    assert_eq!(
        read[0].comments,
        [
            (0, "before".to_string()),
            (1, "multi\nline ( ) ; % [%clk 0:01:00]".to_string()),
            (2, String::new()),
        ]
    );
    // The line count goes on after a comment's line breaks.
    let error = first_error("1. e4 {a\nb\nc} e4 *");
    assert_eq!((error.line(), error.column()), (3, 4));
}

#[test]
fn nested_variations_start_from_the_right_positions() {
    let pgn = "1. e4 e5 (1... c5 2. Nf3 (2. c3 d5) 2... d6) (1... e6) 2. Nf3 (2. f4 exf4) Nc6 *";
    let recorded = record(pgn.as_bytes());
    let events = recorded[0].as_ref().unwrap();
    let moves: Vec<(String, String)> = events
        .iter()
        .filter_map(|event| match event {
            Event::Move { before, san, .. } => Some((san.clone(), before.clone())),
            _ => None,
        })
        .collect();
    let fen = |sans: &[&str]| {
        let mut game = Game::default();
        for san in sans {
            game.play_san(san).unwrap();
        }
        game.position().fen().to_string()
    };
    let expected = [
        ("e4", fen(&[])),
        ("e5", fen(&["e4"])),
        ("c5", fen(&["e4"])),
        ("Nf3", fen(&["e4", "c5"])),
        ("c3", fen(&["e4", "c5"])),
        ("d5", fen(&["e4", "c5", "c3"])),
        ("d6", fen(&["e4", "c5", "Nf3"])),
        ("e6", fen(&["e4"])),
        ("Nf3", fen(&["e4", "e5"])),
        ("f4", fen(&["e4", "e5"])),
        ("exf4", fen(&["e4", "e5", "f4"])),
        ("Nc6", fen(&["e4", "e5", "Nf3"])),
    ];
    let expected: Vec<(String, String)> = expected
        .into_iter()
        .map(|(s, f)| (s.to_string(), f))
        .collect();
    assert_eq!(moves, expected);
    let opens = events
        .iter()
        .filter(|e| **e == Event::BeginVariation)
        .count();
    let closes = events.iter().filter(|e| **e == Event::EndVariation).count();
    assert_eq!((opens, closes), (4, 4));
    assert_eq!(
        events.last(),
        Some(&Event::End(fen(&["e4", "e5", "Nf3", "Nc6"])))
    );

    // Skipped (the default), variations leave the mainline alone, and
    // their moves are not checked.
    let read = games("1. e4 e5 (1... Qxh8 (nonsense { ) } ; )\n)) 2. Nf3 *");
    assert_eq!(sans(&read[0]), ["e4", "e5", "Nf3"]);
}

#[test]
fn nags_and_glyphs() {
    let read = games("1. e4! $1 e5?? 2. Nf3!? $146 Nc6?! 3. Bb5!! a6? $255 *");
    assert_eq!(sans(&read[0]), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(
        read[0].nags,
        [
            (1, 1),
            (1, 1),
            (2, 4),
            (3, 5),
            (3, 146),
            (4, 6),
            (5, 3),
            (6, 2),
            (6, 255)
        ]
    );
    // Standalone glyphs too.
    assert_eq!(games("1. e4 !? *")[0].nags, [(1, 5)]);
    assert!(matches!(
        first_error("1. e4 $256 *").kind(),
        PgnErrorKind::BadNag
    ));
    assert!(matches!(
        first_error("1. e4 $ *").kind(),
        PgnErrorKind::BadNag
    ));
}

#[test]
fn move_numbers_in_every_form() {
    let expected = ["e4", "e5", "Nf3", "Nc6", "Bb5"];
    for pgn in [
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 *",
        "1.e4 e5 2.Nf3 Nc6 3.Bb5 *",
        "1. e4 1... e5 2. Nf3 2... Nc6 3. Bb5 *",
        "1 . e4 1 ... e5 2 . Nf3 2 ... Nc6 3 . Bb5 *",
        "1...e4 e5 Nf3 Nc6 Bb5 *",
        "e4 e5 Nf3 Nc6 Bb5 *",
        "1. e4 e5 2. Nf3 2...Nc6 3. Bb5 *",
        "1 e4 e5 2 Nf3 Nc6 3 Bb5 *",
    ] {
        assert_eq!(sans(&games(pgn)[0]), expected, "{pgn}");
    }
}

#[test]
fn every_result() {
    for (text, result) in [
        ("1-0", Some(GameResult::WhiteWins)),
        ("0-1", Some(GameResult::BlackWins)),
        ("1/2-1/2", Some(GameResult::Draw)),
        ("*", Some(GameResult::Unknown)),
        ("", None),
    ] {
        let read = games(&format!("[Result \"{text}\"]\n\n1. e4 e5 {text}\n"));
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].result, result, "{text:?}");
        assert_eq!(read[0].mainline.moves().len(), 2);
    }
    // Games back to back: a result ends one; tags start the next even
    // without a result.
    let read = games(
        "1. e4 1-0 1. d4 0-1\n[Event \"no result before me\"]\n1. c4\n[Event \"last\"]\n1. Nf3",
    );
    let plies: Vec<_> = read.iter().map(|game| (sans(game), game.result)).collect();
    assert_eq!(
        plies,
        [
            (vec!["e4".to_string()], Some(GameResult::WhiteWins)),
            (vec!["d4".to_string()], Some(GameResult::BlackWins)),
            (vec!["c4".to_string()], None),
            (vec!["Nf3".to_string()], None),
        ]
    );
    assert_eq!(read[2].tag("Event"), Some("no result before me"));
}

#[test]
fn fen_and_setup_tags_set_the_start() {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 5 40";
    let pgn = format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n40... Kd7 41. e4 *\n");
    let read = games(&pgn);
    assert_eq!(read[0].mainline.start().fen().to_string(), fen);
    assert_eq!(sans(&read[0]), ["Kd7", "e4"]);
    assert_eq!(
        read[0].mainline.position().fen().to_string(),
        "8/3k4/8/8/4P3/8/8/4K3 b - - 0 41"
    );
    // A four-field FEN reads too.
    let read = games("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - -\"]\n\n1. e4 *");
    assert_eq!(sans(&read[0]), ["e4"]);
}

#[test]
fn chess960_with_shredder_fen_and_castling() {
    // Rooks on b and g: castling rights in Shredder-FEN (GBgb) and X-FEN
    // (KQkq, the outermost rooks), castling written both ways.
    for castling in ["GBgb", "KQkq"] {
        let pgn = format!(
            "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w {castling} - 0 1\"]\n\n1. O-O 0-0-0 *\n"
        );
        let read = games(&pgn);
        let castles: Vec<String> = read[0]
            .mainline
            .moves()
            .iter()
            .map(|mv| format!("{mv:?}"))
            .collect();
        // King takes rook.
        assert_eq!(castles, ["Move(e1g1)", "Move(e8b8)"]);
        assert_eq!(
            read[0].mainline.position().fen().to_string(),
            "2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2"
        );
        // Written back with `O-O`, the variant and the FEN.
        let text = read[0].to_string();
        assert!(text.contains("1. O-O O-O-O *"), "{text}");
        assert_eq!(games(&text)[0].mainline, read[0].mainline);
    }
    let no_tags = PgnGame::new(
        games("[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n1. O-O *")[0]
            .mainline
            .clone(),
    );
    let text = no_tags.to_string();
    assert!(text.starts_with("[SetUp \"1\"]\n[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1\"]\n[Variant \"Chess960\"]\n"), "{text}");
    for name in [
        "chess 960",
        "Fischerandom",
        "CHESS960",
        "Standard",
        "From Position",
    ] {
        let pgn = format!(
            "[Variant \"{name}\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. g3 *"
        );
        assert_eq!(games(&pgn).len(), 1, "{name}");
    }
    let error = first_error("[Variant \"Atomic\"]\n\n1. e4 *\n\n[Event \"next\"]\n\n1. d4 *");
    assert_eq!((error.game(), error.line(), error.column()), (1, 1, 11));
    assert_eq!(
        error.kind(),
        &PgnErrorKind::UnsupportedVariant("Atomic".into())
    );
}

#[test]
fn a_bad_game_loses_no_other() {
    let pgn = "[Event \"1\"]\n\n1. e4 e5 *\n\n\
               [Event \"2\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf4 Nc6 1-0\n\n\
               [Event \"3\"]\n\n1. d4 *\n\n\
               [Event \"4\"\n[Site \"?\"]\n\n1. c4 *\n\n\
               [Event \"5\"]\n\n1. c4 ( ( 1. d4 ) *\n\n\
               [Event \"6\"]\n\n1. Nf3 *\n";
    let results: Vec<_> = Reader::new(pgn.as_bytes()).games().collect();
    assert_eq!(results.len(), 6);
    let summary: Vec<Result<String, (usize, u64, u64)>> = results
        .iter()
        .map(|result| match result {
            Ok(game) => Ok(game.tag("Event").unwrap().to_string()),
            Err(ReadError::Game(error)) => Err((error.game(), error.line(), error.column())),
            Err(error) => panic!("{error}"),
        })
        .collect();
    assert_eq!(
        summary,
        [
            Ok("1".to_string()),
            Err((2, 8, 13)),
            Ok("3".to_string()),
            Err((4, 14, 11)),
            Err((5, 21, 7)),
            Ok("6".to_string()),
        ]
    );
    let Err(ReadError::Game(error)) = &results[1] else {
        unreachable!()
    };
    assert_eq!(
        error.to_string(),
        "PGN game 2, line 8, column 13: illegal move `Nf4`: no knight can move to f4 in this position"
    );
    assert!(matches!(
        error.kind(),
        PgnErrorKind::San { san, error: SanError::Illegal { .. } } if san == "Nf4"
    ));
}

#[test]
fn errors_name_game_line_and_column() {
    // (text, line, column, the kind's Display)
    let cases: &[(&str, u64, u64, &str)] = &[
        (
            "[Event x]\n1. e4 *",
            1,
            8,
            "bad tag pair: expected `\"` and the tag's value; a tag is `[Name \"value\"]`",
        ),
        (
            "[\"x\"]\n1. e4 *",
            1,
            2,
            "bad tag pair: expected a tag name; a tag is `[Name \"value\"]`",
        ),
        (
            "[Event \"x\" \n1. e4 *",
            1,
            12,
            "bad tag pair: expected `]` after the value; a tag is `[Name \"value\"]`",
        ),
        (
            "[Event \"x\n\"]\n1. e4 *",
            1,
            8,
            "bad tag pair: expected a closing `\"` on the same line; a tag is `[Name \"value\"]`",
        ),
        ("[FEN \"8/8/8 w - -\"]\n\n1. e4 *", 1, 7, ""),
        (
            "1. e4 e5 2. Nf3 Nc6 3. d3 d6 4. Nd2 *",
            1,
            33,
            "ambiguous move `Nd2`: ambiguous: the knights on b1 and f3 can all move to d2; add the file or rank of the one meant",
        ),
        (
            "1. e4 e5 2. Nz3 *",
            1,
            13,
            "bad move `Nz3`: SAN column 2: `z` has no place in a SAN move here",
        ),
        (
            "1. O-O *",
            1,
            4,
            "illegal move `O-O`: castling O-O is not legal in this position",
        ),
        ("1. e4 ) *", 1, 7, "`)` closes no variation"),
        (
            "1. e4 (1. d4 *",
            1,
            7,
            "the game ends inside a variation: a `(` is not closed by `)`",
        ),
        (
            "1. e4 (1. d4",
            1,
            7,
            "the game ends inside a variation: a `(` is not closed by `)`",
        ),
        (
            "( 1. e4 ) *",
            1,
            1,
            "a variation `(` before any move it could replace",
        ),
        (
            "1. e4 { open",
            1,
            7,
            "a comment `{` is not closed by `}` before the end of the input",
        ),
        (
            "1. e4 $x *",
            1,
            7,
            "a NAG is `$` and a number from 0 to 255",
        ),
        (
            "1. e4 e5 2. -+ *",
            1,
            13,
            "bad move `-+`: SAN column 2: the move ends before its target square (such as `f3`)",
        ),
        (
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+ -- *",
            1,
            41,
            "a null move by the side in check, whose king it leaves attacked",
        ),
        (
            "1. e2e4 e7e5 2. g1f6 *",
            1,
            17,
            "illegal move `g1f6`: g1f6 is not a legal move in this position",
        ),
        ("1. e4\n\n  ] *", 3, 3, "unexpected `]`"),
        ("1. e4 2-0", 1, 7, "unexpected `2-0`"),
        (
            "\n\n[Event \"x\"]\n[Site \"y\"]\n\n1. e4 e5 2. Ke3 *",
            6,
            13,
            "illegal move `Ke3`: no king can move to e3 in this position",
        ),
    ];
    for &(pgn, line, column, message) in cases {
        let error = first_error(pgn);
        assert_eq!(
            (error.game(), error.line(), error.column()),
            (1, line, column),
            "{pgn:?}: {error}"
        );
        if !message.is_empty() {
            assert_eq!(error.kind().to_string(), message, "{pgn:?}");
            assert_eq!(
                error.to_string(),
                format!("PGN game 1, line {line}, column {column}: {message}")
            );
        }
    }
    assert!(matches!(
        first_error("[FEN \"8/8/8 w - -\"]\n\n1. e4 *").kind(),
        PgnErrorKind::Fen(_)
    ));
}

#[test]
fn unterminated_comment_at_the_end() {
    let results: Vec<_> = Reader::new(&b"1. e4 *\n\n1. d4 {never closed\n\n[Event \"x\"]\n"[..])
        .games()
        .collect();
    assert_eq!(results.len(), 2);
    assert!(results[0].is_ok());
    let Err(ReadError::Game(error)) = &results[1] else {
        panic!("{:?}", results[1])
    };
    assert_eq!((error.game(), error.line(), error.column()), (2, 3, 7));
    assert_eq!(error.kind(), &PgnErrorKind::UnterminatedComment);
}

/// A reader that fails after `good` bytes.
struct Failing {
    data: &'static [u8],
    good: usize,
}

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let chunk = self.fill_buf()?;
        let count = chunk.len().min(buf.len());
        buf[..count].copy_from_slice(&chunk[..count]);
        self.consume(count);
        Ok(count)
    }
}

impl BufRead for Failing {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.good == 0 {
            return Err(io::Error::other("disk on fire"));
        }
        let count = self.good.min(self.data.len()).min(7);
        Ok(&self.data[..count])
    }
    fn consume(&mut self, count: usize) {
        self.data = &self.data[count..];
        self.good -= count;
    }
}

#[test]
fn io_errors_stop_the_reading() {
    let data = b"1. e4 e5 *\n\n1. d4 d5 *\n\n1. c4 c5 *\n";
    let mut reader = Reader::new(Failing { data, good: 14 });
    let results: Vec<_> = reader.games().collect();
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(results[0].is_ok());
    let Err(ReadError::Io(error)) = &results[1] else {
        panic!("{:?}", results[1])
    };
    assert_eq!(error.to_string(), "disk on fire");
    assert_eq!(
        results[1].as_ref().unwrap_err().to_string(),
        "cannot read the PGN input: disk on fire"
    );
}

/// A reader that gives at most 7 bytes a call, is interrupted every third
/// call, and fails once it has given `good` bytes.
struct Stuttering {
    data: Vec<u8>,
    at: usize,
    good: usize,
    calls: usize,
}

impl Read for Stuttering {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(3) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        if self.at == self.good {
            return Err(io::Error::other("disk on fire"));
        }
        let count = buf
            .len()
            .min(7)
            .min(self.good - self.at)
            .min(self.data.len() - self.at);
        buf[..count].copy_from_slice(&self.data[self.at..self.at + count]);
        self.at += count;
        Ok(count)
    }
}

#[test]
fn parallel_reading_takes_short_reads_interruptions_and_io_errors() {
    let pgn: String = (0..60)
        .map(|round| format!("[Round \"{round}\"]\n\n1. e4 e5 2. Nf3 *\n\n"))
        .collect();
    let fortieth = pgn.find("[Round \"40\"]").expect("60 games");
    for threads in [1, 2, 3] {
        for (good, games) in [(usize::MAX, 60), (fortieth, 40)] {
            let input = Stuttering {
                data: pgn.clone().into_bytes(),
                at: 0,
                good,
                calls: 0,
            };
            let mut rounds = Vec::new();
            let result = ParallelReader::new(input)
                .threads(threads)
                .chunk_size(100)
                .for_each(
                    Recorder::entering,
                    |recorder| recorder.games.pop().expect("a game"),
                    |number, game| {
                        let events = game.expect("a good game");
                        assert_eq!(events.len(), 7, "game {number}: {events:?}");
                        let Event::Tag(name, round) = &events[0] else {
                            panic!("game {number} starts with {:?}", events[0]);
                        };
                        assert_eq!(name, "Round");
                        rounds.push(round.parse::<usize>().expect("a number") + 1);
                    },
                );
            assert_eq!(rounds, (1..=games).collect::<Vec<_>>(), "{threads} threads");
            match result {
                Ok(()) => assert_eq!(games, 60),
                Err(ReadError::Io(error)) => {
                    assert_eq!((games, error.to_string()), (40, "disk on fire".into()));
                }
                Err(error) => panic!("{threads} threads: {error}"),
            }
        }
    }
}

#[test]
fn a_comment_longer_than_the_buffer_comes_in_pieces() {
    let long: String = (0..2000).map(|i| format!("wörd{i} ")).collect();
    let pgn = format!("1. e4 {{{long}}} e5 *");
    let mut reader = Reader::with_capacity(256, pgn.as_bytes());
    let read: Vec<PgnGame> = reader.games().collect::<Result<_, _>>().unwrap();
    assert_eq!(read[0].comments, [(1, long.trim().to_string())]);
    assert!(reader.buffer_capacity() < 1024);
    // A tag longer than the buffer is an error, and the next game reads.
    let pgn = format!("[Event \"{long}\"]\n\n1. e4 *\n\n[Event \"short\"]\n\n1. d4 *\n");
    let results: Vec<_> = Reader::with_capacity(256, pgn.as_bytes()).games().collect();
    assert_eq!(results.len(), 2);
    assert!(
        matches!(&results[0], Err(ReadError::Game(e)) if matches!(e.kind(), PgnErrorKind::TooLong { limit: 256 }))
    );
    assert_eq!(results[1].as_ref().unwrap().tag("Event"), Some("short"));
}

/// Writes a random game (standard or Chess960) with comments, NAGs and
/// variations through the writer, and returns what a recording reader
/// must hear.
fn random_game(rng: &mut Rng, number: usize, writer: &mut Writer<&mut Vec<u8>>) -> Vec<Event> {
    const WORDS: [&str; 12] = [
        "good",
        "(sharp)",
        "[%clk 0:01:02]",
        "é",
        "White's",
        "{",
        "100%",
        ";",
        "\"q\"",
        "line\\",
        "!?",
        "1-0",
    ];
    let mut events = Vec::new();
    let chess960 = number % 3 == 2;
    let start = if chess960 {
        Position::chess960(rng.below(960) as u16).unwrap()
    } else {
        Position::START
    };
    let tags = [
        ("Event", format!("Game \"{number}\"")),
        ("Site", "C:\\path".to_string()),
        ("Round", rng.below(100).to_string()),
    ];
    for (name, value) in &tags {
        writer.tag(name, value).unwrap();
        events.push(Event::Tag(name.to_string(), value.clone()));
    }
    if chess960 {
        for (name, value) in [
            ("Variant", "Chess960".to_string()),
            ("SetUp", "1".to_string()),
            ("FEN", start.fen().shredder().to_string()),
        ] {
            writer.tag(name, &value).unwrap();
            events.push(Event::Tag(name.to_string(), value));
        }
    }
    events.push(Event::Start(start.fen().to_string()));
    let mut comment = |rng: &mut Rng| -> String {
        let count = rng.below(6);
        (0..count)
            .map(|_| WORDS[rng.below(WORDS.len())])
            .collect::<Vec<_>>()
            .join(" ")
    };
    fn line(
        rng: &mut Rng,
        writer: &mut Writer<&mut Vec<u8>>,
        events: &mut Vec<Event>,
        mut position: Position,
        plies: usize,
        depth: usize,
        comment: &mut dyn FnMut(&mut Rng) -> String,
    ) -> Position {
        for _ in 0..plies {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            writer.san(&position, mv).unwrap();
            events.push(Event::Move {
                before: position.fen().to_string(),
                san: position.san(mv).to_string(),
                uci: mv.to_string(),
            });
            let before = position;
            position = position.play_unchecked(mv);
            if rng.below(8) == 0 {
                let nag = rng.below(256) as u8;
                writer.nag(nag).unwrap();
                events.push(Event::Nag(nag));
            }
            if rng.below(6) == 0 {
                let text = comment(rng);
                writer.comment(&text).unwrap();
                events.push(Event::Comment(normalize(&text)));
            }
            if depth < 3 && rng.below(10) == 0 {
                writer.begin_variation().unwrap();
                events.push(Event::BeginVariation);
                let length = rng.below(8);
                line(rng, writer, events, before, length, depth + 1, comment);
                writer.end_variation().unwrap();
                events.push(Event::EndVariation);
            }
        }
        position
    }
    let plies = rng.below(120);
    let last = line(rng, writer, &mut events, start, plies, 0, &mut comment);
    let result = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ][rng.below(4)];
    writer.result(result).unwrap();
    events.push(Event::Result(result));
    events.push(Event::End(last.fen().to_string()));
    events
}

#[test]
fn round_trip_of_generated_games_with_comments_and_variations() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut text = Vec::new();
    let mut expected = Vec::new();
    {
        let mut writer = Writer::new(&mut text);
        for number in 0..1000 {
            expected.push(random_game(&mut rng, number, &mut writer));
        }
    }
    let pgn = String::from_utf8(text).unwrap();
    for line in pgn.lines() {
        assert!(
            line.len() <= 80 || !line.contains(' '),
            "a line over 80 columns: {line:?}"
        );
    }
    let read = record(pgn.as_bytes());
    assert_eq!(read.len(), expected.len());
    for (index, (read, expected)) in read.into_iter().zip(&expected).enumerate() {
        assert_eq!(read.as_ref(), Ok(expected), "game {}", index + 1);
    }
    assert!(
        expected
            .iter()
            .flatten()
            .any(|event| *event == Event::BeginVariation)
    );

    // Through `PgnGame`: read, write, read again, the same games.
    let first: Vec<PgnGame> = games(&pgn);
    let mut again = Vec::new();
    {
        let mut writer = Writer::new(&mut again);
        for game in &first {
            writer.write_game(game).unwrap();
        }
    }
    let second = games(std::str::from_utf8(&again).unwrap());
    assert_eq!(second.len(), 1000);
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(a.tags, b.tags);
        assert_eq!(a.mainline, b.mainline);
        assert_eq!(a.nags, b.nags);
        assert_eq!(a.result, b.result);
        let comments = |game: &PgnGame| -> Vec<(usize, String)> {
            game.comments
                .iter()
                .map(|(at, text)| (*at, normalize(text)))
                .collect()
        };
        assert_eq!(comments(a), comments(b));
    }
}

#[test]
fn written_games_without_tags_get_setup_fen_and_variant() {
    let mut rng = Rng::new(7);
    for number in 0..200 {
        let start = match number % 2 {
            0 => Position::START,
            _ => Position::chess960(rng.below(960) as u16).unwrap(),
        };
        let mut game = Game::new(start);
        for _ in 0..rng.below(60) {
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        let pgn = PgnGame::new(game.clone());
        let text = pgn.to_string();
        let back = games(&text);
        assert_eq!(back[0].mainline, game, "{text}");
        assert_eq!(back[0].tag("FEN").is_some(), start != Position::START);
        let castles = game.moves().iter().any(|mv| mv.is_castling());
        if start != Position::START && castles {
            assert_eq!(back[0].tag("Variant"), Some("Chess960"));
        }
    }
}

/// A PGN stream of `count` games made on demand, never held whole.
struct LazyPgn {
    rng: Rng,
    left: usize,
    chunk: Vec<u8>,
    at: usize,
    bytes: usize,
}

impl LazyPgn {
    fn new(count: usize) -> LazyPgn {
        LazyPgn {
            rng: Rng::new(99),
            left: count,
            chunk: Vec::new(),
            at: 0,
            bytes: 0,
        }
    }
}

impl Read for LazyPgn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let chunk = self.fill_buf()?;
        let count = chunk.len().min(buf.len());
        buf[..count].copy_from_slice(&chunk[..count]);
        self.consume(count);
        Ok(count)
    }
}

impl BufRead for LazyPgn {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at == self.chunk.len() && self.left > 0 {
            self.left -= 1;
            self.chunk.clear();
            self.at = 0;
            let mut position = Position::START;
            self.chunk
                .extend_from_slice(b"[Event \"lazy\"]\n[Site \"?\"]\n\n");
            let mut writer = Writer::new(&mut self.chunk);
            for _ in 0..self.rng.below(40) {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[self.rng.below(moves.len())];
                writer.san(&position, mv).unwrap();
                let before = position;
                position = position.play_unchecked(mv);
                if self.rng.below(10) == 0 {
                    writer.comment("a comment [%eval 0.3]").unwrap();
                }
                if self.rng.below(15) == 0 {
                    writer.begin_variation().unwrap();
                    writer.san(&before, before.legal_moves()[0]).unwrap();
                    writer.end_variation().unwrap();
                }
            }
            writer.result(GameResult::Unknown).unwrap();
            self.bytes += self.chunk.len();
        }
        Ok(&self.chunk[self.at..])
    }
    fn consume(&mut self, count: usize) {
        self.at += count;
    }
}

#[test]
fn memory_stays_constant_over_a_long_stream() {
    struct Count(usize, usize);
    impl Visitor for Count {
        fn end_game(&mut self, _: &Position) {
            self.0 += 1;
        }
        fn begin_variation(&mut self) -> Visit {
            self.1 += 1;
            Visit::Enter
        }
    }
    let mut reader = Reader::with_capacity(4096, LazyPgn::new(20_000));
    let mut count = Count(0, 0);
    for _ in 0..100 {
        assert!(reader.read_game(&mut count).unwrap());
    }
    let early = reader.buffer_capacity();
    while reader.read_game(&mut count).unwrap() {}
    assert_eq!(count.0, 20_000);
    assert!(count.1 > 1000, "variations entered: {}", count.1);
    assert_eq!(reader.buffer_capacity(), early);
    assert!(early < 8 * 1024, "{early}");
    assert!(reader.into_inner().bytes > 20 * 1024 * 1024 / 10);
}

#[test]
fn mutated_pgn_never_panics() {
    let mut rng = Rng::new(0xF022);
    let mut text = Vec::new();
    {
        let mut writer = Writer::new(&mut text);
        for number in 0..30 {
            random_game(&mut rng, number, &mut writer);
        }
    }
    let pieces: [&[u8]; 16] = [
        b"{",
        b"}",
        b"(",
        b")",
        b"[",
        b"]",
        b"\"",
        b"\\",
        b"\n",
        b";",
        b"%",
        b"$",
        b"1-0",
        b"\xEF\xBB\xBF",
        b"O-O",
        b"\xFF",
    ];
    let mut read_ok = 0;
    for round in 0..3000 {
        let mut mutated = text.clone();
        for _ in 0..1 + rng.below(8) {
            if mutated.is_empty() {
                break;
            }
            let at = rng.below(mutated.len());
            match rng.below(4) {
                0 => mutated[at] = rng.below(256) as u8,
                1 => {
                    mutated.remove(at);
                }
                2 => {
                    let piece = pieces[rng.below(pieces.len())];
                    mutated.splice(at..at, piece.iter().copied());
                }
                _ => mutated.truncate(at),
            }
        }
        // Read with small buffers, where many tokens meet the buffer's end
        // and the reader's general loop reads them; and, to compare, with
        // 1,000 bytes and the default 64 KiB, where its fast path reads
        // most: the same events and errors. (Not for text with a NUL byte:
        // the reader looks for one in its first buffer to tell a binary
        // file, so there the size counts.)
        // Every fourth round (a third of them differential, to keep the
        // test's time): the two larger buffers.
        let capacities: &[usize] = match round % 4 == 3 && !mutated.contains(&0) {
            true => &[1000, 1 << 16],
            false => &[[64, 100, 256, 64][round % 4]],
        };
        let mut outcomes = Vec::new();
        for &capacity in capacities {
            let mut reader = Reader::with_capacity(capacity, &mutated[..]);
            let mut recorder = Recorder::entering();
            let mut errors = Vec::new();
            loop {
                match reader.read_game(&mut recorder) {
                    Ok(true) => read_ok += 1,
                    Ok(false) => break,
                    Err(ReadError::Game(error)) => {
                        assert!(error.line() >= 1 && error.column() >= 1);
                        errors.push(error.to_string());
                    }
                    // Text mutated at its start may no longer be PGN at all:
                    // one error, then nothing.
                    Err(ReadError::NotPgn { .. }) => {
                        assert!(matches!(reader.read_game(&mut recorder), Ok(false)));
                        errors.push("not PGN".to_string());
                        break;
                    }
                    Err(error) => panic!("{error}"),
                }
            }
            outcomes.push((recorder.games, errors));
        }
        let [small, default] = &outcomes[..] else {
            continue;
        };
        let events = |games: &Vec<Vec<Event>>| games.iter().flatten().cloned().collect::<Vec<_>>();
        let (a, b) = (events(&small.0), events(&default.0));
        if let Some(at) = (0..a.len().max(b.len())).find(|&at| a.get(at) != b.get(at)) {
            panic!(
                "round {round}: event {at}: {:?} against {:?} in {:?}",
                a.get(at),
                b.get(at),
                String::from_utf8_lossy(&mutated)
            );
        }
        assert_eq!(small.1, default.1, "round {round}");
    }
    assert!(read_ok > 12_000, "{read_ok}");
}

/// Files as real tools write them: null moves in analysis games, movetext
/// in UCI, python-chess's names of the variants, and files that are not PGN.
#[test]
fn real_files_null_moves_uci_variants_and_not_pgn() {
    // Every spelling of the null move passes the turn, in the mainline and
    // in a variation; `games()` keeps it as `Move::NULL` and writes `--`.
    for null in ["--", "Z0", "0000", "@@@@"] {
        let pgn = format!("1. e4 {null} 2. d4 ({null} 2... d5) 2... e5 *");
        let game = &games(&pgn)[0];
        let moves = game.mainline.moves();
        assert_eq!(moves.len(), 4, "{pgn}");
        assert!(moves[1].is_null() && !moves[2].is_null(), "{pgn}");
        let mut expected = Position::START;
        expected.play_san_in_place("e4").unwrap();
        expected = expected.null_move().unwrap();
        expected.play_san_in_place("d4").unwrap();
        expected.play_san_in_place("e5").unwrap();
        assert_eq!(game.mainline.position(), &expected);
        assert!(game.to_string().contains("1. e4 -- 2. d4 e5 *"), "{game}");
        assert_eq!(games(&game.to_string())[0].mainline, game.mainline);
        let mut recorder = Recorder::entering();
        Reader::new(pgn.as_bytes())
            .read_game(&mut recorder)
            .unwrap();
        assert!(
            recorder.games[0]
                .iter()
                .any(|event| matches!(event, Event::Move { uci, .. } if uci == "0000"))
        );
    }
    // UCI movetext, castling and promotion included, reads as the SAN does.
    let uci = games("1. e2e4 e7e5 2. g1f3 b8c6 3. f1c4 g8f6 4. e1g1 *");
    let san = games("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O *");
    assert_eq!(uci[0].mainline.moves(), san[0].mainline.moves());
    let promotion = games("[FEN \"8/P7/8/8/8/8/8/k6K w - - 0 1\"]\n\n1. a7a8q *");
    assert_eq!(
        promotion[0].mainline.position().fen().to_string(),
        "Q7/8/8/8/8/8/8/k6K b - - 0 1"
    );
    // python-chess's spellings of standard chess and Chess960 read; others
    // are a per-game error.
    for variant in [
        "Standard",
        "Classical",
        "From Position",
        "chess 960",
        "Fischer Random",
        "wild/8a",
    ] {
        let pgn = format!("[Variant \"{variant}\"]\n\n1. e4 *");
        assert_eq!(games(&pgn).len(), 1, "{variant}");
    }
    assert!(
        first_error("[Variant \"Atomic\"]\n\n1. e4 *")
            .to_string()
            .contains("`Atomic` is not supported")
    );
    // Not PGN at all: one error, then nothing.
    let lock = include_str!("../../../Cargo.lock");
    let results: Vec<_> = Reader::new(lock.as_bytes()).games().collect();
    assert_eq!(results.len(), 1);
    let error = results[0].as_ref().unwrap_err().to_string();
    assert!(
        error.starts_with("not a PGN file: it starts with `# This file is automatically"),
        "{error}"
    );
    let binary = b"\x7fELF\x02\x01\x01\x00\x00\x00\x00[Event \"x\"]\n\n1. e4 *";
    let results: Vec<_> = Reader::new(&binary[..]).games().collect();
    assert!(
        matches!(results[..], [Err(ReadError::NotPgn { .. })]),
        "{results:?}"
    );
    // A bad first game of a real PGN file is an ordinary game error.
    let results: Vec<_> = Reader::new(&b"1. e5 *\n\n1. e4 *"[..]).games().collect();
    assert!(
        matches!(results[..], [Err(ReadError::Game(_)), Ok(_)]),
        "{results:?}"
    );
}

#[test]
fn errors_give_the_byte_offset() {
    let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 *\n";
    let error = first_error(pgn);
    assert_eq!((error.game(), error.line(), error.column()), (2, 7, 7));
    assert_eq!(&pgn[error.offset() as usize..][..3], "Ke7");
}

/// Every event of every game through `ParallelReader`, with the number it
/// was delivered with, or its error's text.
fn record_parallel<R: Read + Send>(
    reader: ParallelReader<R>,
) -> Vec<(usize, Result<Vec<Event>, String>)> {
    let mut delivered = Vec::new();
    reader
        .for_each(
            Recorder::entering,
            |recorder| recorder.games.pop().expect("a game"),
            |number, game| delivered.push((number, game.map_err(|(error, _)| error.to_string()))),
        )
        .unwrap();
    delivered
}

/// The same as [`record_parallel`], through `for_each_chunk`: each chunk's
/// games gathered on its worker (a failed one as `None`), their errors
/// (numbered in the input) taken from the chunk on delivery.
/// `reader` with an `on_cut` that counts the bytes it is told of, and
/// that count; it never stops the reading.
fn told_of_every_byte<R: Read + Send>(
    reader: ParallelReader<R>,
) -> (
    ParallelReader<R>,
    std::sync::Arc<std::sync::atomic::AtomicUsize>,
) {
    let cut = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = cut.clone();
    let told = reader.on_cut(move |bytes| {
        counted.fetch_add(bytes, std::sync::atomic::Ordering::Relaxed);
        true
    });
    (told, cut)
}

fn record_chunks<R: Read + Send>(
    reader: ParallelReader<R>,
) -> Vec<(usize, Result<Vec<Event>, String>)> {
    type Games = Vec<Option<Vec<Event>>>;
    let mut delivered = Vec::new();
    reader
        .for_each_chunk(
            || (Recorder::entering(), Games::new()),
            |recorder, games: &mut Games, index, error| {
                assert_eq!(index, games.len(), "the game's index in its chunk");
                let game = recorder.games.pop().expect("a game");
                games.push(error.is_none().then_some(game));
            },
            std::mem::take,
            |chunk| {
                assert_eq!(chunk.games_before, delivered.len());
                assert_eq!(chunk.games, chunk.value.len());
                let mut errors = chunk.errors.iter();
                for (number, game) in (chunk.games_before + 1..).zip(chunk.value) {
                    let game = game.ok_or_else(|| {
                        let error = errors.next().expect("an error for each failed game");
                        assert_eq!(error.game(), number);
                        error.to_string()
                    });
                    delivered.push((number, game));
                }
                assert!(errors.next().is_none(), "an error for a game that read");
            },
        )
        .unwrap();
    delivered
}

#[test]
fn parallel_reading_gives_what_sequential_reading_gives() {
    // Generated games, with bad games mixed in (illegal moves, bad tags, an
    // unterminated variation) so that errors and the skip after them are
    // compared too; chunks far smaller than the input.
    let mut rng = Rng::new(0x005E_ED0F_9A3E);
    let mut text = Vec::new();
    for number in 0..400 {
        random_game(&mut rng, number, &mut Writer::new(&mut text));
        text.extend_from_slice(b"\n\n");
        if number % 37 == 5 {
            text.extend_from_slice(b"[Event \"bad\"]\n\n1. e4 Ke7 2. Nf3 *\n\n");
        }
        if number % 53 == 7 {
            text.extend_from_slice(b"[Event \"worse\n\n1. d4 (1. e4 *\n\n");
        }
    }
    let sequential: Vec<(usize, Result<Vec<Event>, String>)> = record(&text)
        .into_iter()
        .enumerate()
        .map(|(index, game)| (index + 1, game))
        .collect();
    assert!(sequential.iter().filter(|(_, game)| game.is_err()).count() >= 15);
    for (threads, chunk) in [(1, 1 << 16), (2, 4096), (3, 100), (8, 20_000)] {
        let streamed = || {
            ParallelReader::new(&text[..])
                .threads(threads)
                .chunk_size(chunk)
        };
        // The same text held in memory: its chunks read where they lie.
        let held = || {
            ParallelReader::in_memory(text.clone())
                .threads(threads)
                .chunk_size(chunk)
        };
        for (parallel, how) in [
            (record_parallel(streamed()), "streamed"),
            (record_parallel(held()), "in memory"),
        ] {
            assert_eq!(
                parallel.len(),
                sequential.len(),
                "{threads} threads, chunks of {chunk}, {how}"
            );
            for (a, b) in parallel.iter().zip(&sequential) {
                assert_eq!(a, b, "{threads} threads, chunks of {chunk}, {how}");
            }
        }
        let chunked = record_chunks(streamed());
        assert_eq!(chunked, sequential, "{threads} threads, chunks of {chunk}");
        let chunked = record_chunks(held());
        assert_eq!(
            chunked, sequential,
            "{threads} threads, chunks of {chunk}, in memory"
        );
        // Told of every chunk as it is cut: the same games, and every byte
        // of the input in chunks.
        let (told, cut) = told_of_every_byte(held());
        assert_eq!(
            record_chunks(told),
            sequential,
            "{threads} threads, chunks of {chunk}, told"
        );
        assert_eq!(cut.load(std::sync::atomic::Ordering::Relaxed), text.len());
        // Game by game (`for_each`; on one thread, without chunks), streamed
        // or in memory, told of every byte: the same games.
        for (reader, how) in [
            (streamed().boxed(), "streamed"),
            (held().boxed(), "in memory"),
        ] {
            let (told, cut) = told_of_every_byte(reader);
            let games = record_parallel(told);
            assert_eq!(
                games, sequential,
                "{threads} threads, chunks of {chunk}, {how}, told"
            );
            assert_eq!(cut.load(std::sync::atomic::Ordering::Relaxed), text.len());
        }
        // Told to stop halfway: the games before, and not all of them.
        let mut told = 0;
        let half = text.len() / 2;
        let stopped = record_parallel(held().on_cut(move |bytes| {
            told += bytes;
            told < half
        }));
        assert!(
            (1..sequential.len()).contains(&stopped.len()),
            "{threads} threads, chunks of {chunk}: {} games of {}",
            stopped.len(),
            sequential.len()
        );
        assert_eq!(stopped[..], sequential[..stopped.len()]);
    }
    // Not PGN: one error, whatever the thread count.
    let lock = include_bytes!("../../../Cargo.lock");
    let result = ParallelReader::new(&lock[..])
        .threads(2)
        .chunk_size(1000)
        .for_each(
            Recorder::entering,
            |_| (),
            |number, _| panic!("game {number} delivered from Cargo.lock"),
        );
    assert!(
        matches!(result, Err(ReadError::NotPgn { .. })),
        "{result:?}"
    );
}

#[test]
fn a_failed_game_is_delivered_with_what_was_read_of_it() {
    let text = "[Event \"good\"]\n\n1. e4 e5 *\n\n[Event \"bad\"]\n\n1. d4 d5 2. Ke7 *\n\n[Event \"next\"]\n\n1. c4 *\n";
    for threads in [1, 2] {
        let mut delivered = Vec::new();
        ParallelReader::new(text.as_bytes())
            .threads(threads)
            .chunk_size(16)
            .for_each(
                Recorder::entering,
                |recorder| recorder.games.pop().expect("a game"),
                |number, game| delivered.push((number, game)),
            )
            .unwrap();
        assert_eq!(delivered.len(), 3, "{threads} threads");
        let (number, Err((error, partial))) = &delivered[1] else {
            panic!("the second game fails: {:?}", delivered[1]);
        };
        assert_eq!((*number, error.game()), (2, 2));
        assert_eq!(partial[0], Event::Tag("Event".into(), "bad".into()));
        // Its first moves were read before the illegal one.
        let moves = partial
            .iter()
            .filter(|event| matches!(event, Event::Move { .. }))
            .count();
        assert_eq!(moves, 2, "{partial:?}");
        assert!(delivered[2].1.is_ok());
    }
}

#[test]
fn headers_only_reads_the_tags_of_every_game() {
    /// Each game's tags, movetext skipped or read.
    struct Tags {
        skip: bool,
        games: Vec<Vec<(String, String)>>,
    }
    impl Visitor for Tags {
        fn begin_game(&mut self, _: usize) {
            self.games.push(Vec::new());
        }
        fn tag(&mut self, name: &str, value: &str) {
            self.games
                .last_mut()
                .unwrap()
                .push((name.into(), value.into()));
        }
        fn skip_movetext(&mut self) -> bool {
            self.skip
        }
    }
    let pgn = bitboards_test_support::lichess_games(300, 5);
    let tags = |skip: bool| {
        let mut visitor = Tags {
            skip,
            games: Vec::new(),
        };
        let mut reader = Reader::new(&pgn[..]);
        while reader.read_game(&mut visitor).unwrap() {}
        visitor.games
    };
    let (skipped, read) = (tags(true), tags(false));
    assert_eq!(skipped.len(), 300);
    assert_eq!(skipped, read);
}

#[test]
fn lichess_games_round_trip_with_clocks_and_evals() {
    use bitboards_pgn::record::{GameRecord, RecordVisitor};
    let records = |pgn: &[u8]| -> Vec<GameRecord> {
        let mut reader = Reader::new(pgn);
        let mut visitor = RecordVisitor::default();
        let mut records = Vec::new();
        while reader.read_game(&mut visitor).unwrap() {
            records.push(visitor.take());
        }
        records
    };
    let pgn = bitboards_test_support::lichess_games(200, 11);
    let first = records(&pgn);
    assert_eq!(first.len(), 200);
    assert!(
        first
            .iter()
            .all(|record| record.clocks.iter().all(Option::is_some))
    );
    assert!(first.iter().any(|record| {
        record
            .evals
            .iter()
            .any(|eval| matches!(eval, Some(bitboards_pgn::annotations::Score::Mate(_))))
    }));
    // Written back by `Writer` (through `PgnGame`) and read again: the same
    // moves, clocks and evals.
    let mut written = Vec::new();
    {
        let mut writer = Writer::new(&mut written);
        for game in Reader::new(&pgn[..]).games() {
            writer.write_game(&game.unwrap()).unwrap();
        }
    }
    let second = records(&written);
    assert_eq!(second.len(), first.len());
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(
            (&a.uci, &a.clocks, &a.evals, &a.fen),
            (&b.uci, &b.clocks, &b.evals, &b.fen)
        );
        assert_eq!(a.tags, b.tags);
    }
    // And the movetext the record writes reads back to the same record.
    for record in &first {
        let text = format!("{}\n", record.movetext);
        let again = &records(text.as_bytes())[0];
        assert_eq!(
            (&again.uci, &again.clocks, &again.evals),
            (&record.uci, &record.clocks, &record.evals)
        );
        assert_eq!(again.movetext, record.movetext);
    }
}

/// An error and its `source` chain as `anyhow`'s `{:#}` prints it.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut next = error.source();
    while let Some(source) = next {
        text.push_str(": ");
        text.push_str(&source.to_string());
        next = source.source();
    }
    text
}

#[test]
fn errors_print_each_message_once_in_a_chain() {
    // A SAN error inside a PGN error inside a read error; a FEN error; an
    // I/O error; a UCI error.
    let cases: Vec<(ReadError, &str)> = vec![
        (
            Reader::new(&b"1. e4 Nf4 *"[..])
                .games()
                .next()
                .unwrap()
                .unwrap_err(),
            "no knight can move to f4",
        ),
        (
            Reader::new(&b"[FEN \"8/8/8 w - - 0 1\"]\n\n*"[..])
                .games()
                .next()
                .unwrap()
                .unwrap_err(),
            "FEN",
        ),
        (
            Reader::new(&b"1. e2e5 *"[..])
                .games()
                .next()
                .unwrap()
                .unwrap_err(),
            "e2e5",
        ),
        (
            ReadError::Io(io::Error::other("disk on fire")),
            "disk on fire",
        ),
    ];
    for (error, inner) in cases {
        let printed = chain(&error);
        assert!(printed.contains(inner), "{printed}");
        let once = printed.matches(inner).count();
        assert_eq!(once, error.to_string().matches(inner).count(), "{printed}");
        assert!(std::error::Error::source(&error).is_none(), "{printed}");
    }
}

/// Each game's movetext as [`Visitor::movetext_text`] hands it over, and
/// whether the game read.
fn movetext_texts(pgn: &[u8], capacity: usize) -> Vec<(String, bool)> {
    #[derive(Default)]
    struct Texts(Vec<String>);
    impl Visitor for Texts {
        fn wants_movetext_text(&mut self) -> bool {
            true
        }
        fn begin_game(&mut self, _: usize) {
            self.0.push(String::new());
        }
        fn movetext_text(&mut self, text: &str) {
            *self.0.last_mut().unwrap() = text.to_string();
        }
    }
    let mut reader = Reader::with_capacity(capacity, pgn);
    let mut texts = Texts::default();
    let mut read = Vec::new();
    loop {
        match reader.read_game(&mut texts) {
            Ok(false) => break,
            Ok(true) => read.push(true),
            Err(_) => read.push(false),
        }
    }
    texts.0.into_iter().zip(read).collect()
}

#[test]
fn the_movetext_text_is_the_files_on_any_buffer() {
    // The generator writes a game as its tags, a blank line, the movetext
    // and a blank line: splitting the file on blank lines finds each
    // movetext independently of the reader.
    let pgn = bitboards_test_support::lichess_games(300, 5);
    let text = String::from_utf8(pgn.clone()).unwrap();
    let expected: Vec<(String, bool)> = text
        .split("\n\n")
        .filter(|part| !part.starts_with('[') && !part.trim().is_empty())
        .map(|part| (part.trim().to_string(), true))
        .collect();
    assert_eq!(expected.len(), 300);
    // Buffers of 64 bytes (the least), of a size that is no power of two,
    // and the default: games cross the buffer's end at every place.
    for capacity in [64, 1000, 4096, 1 << 16] {
        assert_eq!(
            movetext_texts(&pgn, capacity),
            expected,
            "capacity {capacity}"
        );
    }
}

#[test]
fn the_movetext_text_keeps_what_the_file_has() {
    let pgn = "[Event \"a\"]\n{ before the first move }\n1.e4 $1 (1. d4 {x} (1. c4)) e5\n%escaped line\n2. Nf3 { [%clk 0:03:00] } 1-0\n\n\
               [Event \"no result\"]\n\n1. d4 d5   \n\n\
               [Event \"a comment between tags\"]\n{ not movetext }\n[Site \"?\"]\n\n1. c4 *\n\n\
               [Event \"illegal\"]\n\n1. e4 e4 *\n\n\
               [Event \"to a line's end\"]\n\n1. e4 ; to the line's end\n*\n\n\
               [Event \"no movetext\"]\n\n";
    let expected = [
        ("{ before the first move }\n1.e4 $1 (1. d4 {x} (1. c4)) e5\n%escaped line\n2. Nf3 { [%clk 0:03:00] } 1-0", true),
        ("1. d4 d5", true),
        ("1. c4 *", true),
        ("", false),
        ("1. e4 ; to the line's end\n*", true),
        ("", true),
    ]
    .map(|(text, read)| (text.to_string(), read));
    for capacity in [64, 100, 1 << 16] {
        assert_eq!(
            movetext_texts(pgn.as_bytes(), capacity),
            expected,
            "capacity {capacity}"
        );
    }
    // Bytes that are not UTF-8 are replaced, as in comments.
    let texts = movetext_texts(b"1. e4 {\xff} *", 64);
    assert_eq!(texts, [("1. e4 {\u{fffd}} *".to_string(), true)]);
}

#[test]
fn the_record_keeps_the_files_movetext_or_writes_it_back() {
    use bitboards_pgn::record::{MovetextForm, RecordVisitor};
    let pgn = bitboards_test_support::lichess_games(100, 9);
    let expected = movetext_texts(&pgn, 1 << 16);
    let records = |visitor: &mut RecordVisitor| {
        let mut reader = Reader::new(&pgn[..]);
        let mut records = Vec::new();
        while reader.read_game(visitor).unwrap() {
            records.push(visitor.take());
        }
        records
    };
    let file = records(&mut RecordVisitor::default());
    let rewritten = records(&mut RecordVisitor::default().movetext_form(MovetextForm::Rewritten));
    assert_eq!(file.len(), 100);
    for ((file, rewritten), (text, _)) in file.iter().zip(&rewritten).zip(&expected) {
        assert_eq!(&file.movetext, text);
        // The generator writes as Lichess does, so the text written back
        // is the file's too; every other field is the same either way.
        assert_eq!(&rewritten.movetext, text);
        assert_eq!(
            (
                &file.tags,
                &file.uci,
                &file.clocks,
                &file.evals,
                &file.fen,
                file.plies
            ),
            (
                &rewritten.tags,
                &rewritten.uci,
                &rewritten.clocks,
                &rewritten.evals,
                &rewritten.fen,
                rewritten.plies
            )
        );
    }
    // With variations, the file's text keeps them and the text written
    // back leaves them out.
    let pgn = b"1. e4 (1. d4) 1... e5 *";
    let mut file = RecordVisitor::default();
    Reader::new(&pgn[..]).read_game(&mut file).unwrap();
    let mut rewritten = RecordVisitor::default().movetext_form(MovetextForm::Rewritten);
    Reader::new(&pgn[..]).read_game(&mut rewritten).unwrap();
    assert_eq!(file.record().movetext, "1. e4 (1. d4) 1... e5 *");
    assert_eq!(rewritten.record().movetext, "1. e4 e5 *");
}

/// A visitor that stops each movetext after its first `keep` moves.
struct FirstMoves {
    keep: usize,
    games: Vec<(Vec<String>, String)>,
}

impl Visitor for FirstMoves {
    fn begin_game(&mut self, _: usize) {
        self.games.push((Vec::new(), String::new()));
    }
    fn san(&mut self, played: PgnMove<'_>) {
        self.games
            .last_mut()
            .unwrap()
            .0
            .push(played.san.to_string());
    }
    fn stop_movetext(&mut self) -> bool {
        self.games.last().unwrap().0.len() >= self.keep
    }
    fn end_game(&mut self, last: &Position) {
        self.games.last_mut().unwrap().1 = last.fen().to_string();
    }
}

/// A movetext stopped by the visitor: the rest (an illegal move, comments
/// across lines holding `[`, `{` in a `;` comment, a variation) is stepped
/// over to the next game's tags, a blank line before them or not, with
/// its lines counted (the next game's error is where it is), through a
/// buffer of any size.
#[test]
fn a_stopped_movetext_is_stepped_over_to_the_next_tags() {
    let pgn = "[Event \"1\"]\n\n1. e4 { [%clk 0:01:00] } e5 2. Nf3 { a comment\n\
               [on two lines] } Ke7 ( 2... Nc6 ) ; a { in a line comment\n\
               3. Kd8 *\n[Event \"2\"]\n\n1. d4 d5 1-0\n\n\
               [Event \"3\"]\n\n1. c4 2. Nf3 *\n";
    for capacity in [8, 32, 1 << 16] {
        let mut visitor = FirstMoves {
            keep: 3,
            games: Vec::new(),
        };
        let mut reader = Reader::with_capacity(capacity, pgn.as_bytes());
        assert!(reader.read_game(&mut visitor).unwrap());
        assert!(reader.read_game(&mut visitor).unwrap());
        let Err(ReadError::Game(error)) = reader.read_game(&mut visitor) else {
            panic!("game 3 is not legal");
        };
        assert_eq!(
            (error.game(), error.line(), error.column()),
            (3, 12, 10),
            "{capacity}"
        );
        assert!(!reader.read_game(&mut visitor).unwrap());
        let moves: Vec<Vec<String>> = visitor.games.iter().map(|game| game.0.clone()).collect();
        assert_eq!(
            moves,
            [vec!["e4", "e5", "Nf3"], vec!["d4", "d5"], vec!["c4"]]
        );
        assert_eq!(
            visitor.games[0].1,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        );
    }
}
