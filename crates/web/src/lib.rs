//! The bitboard visualiser page's engine: the `bitboards` library and the
//! `bitboards-expr` language compiled to WebAssembly.
//!
//! `cargo xtask web` builds this crate for `wasm32-unknown-unknown` and
//! inlines it, with `page/app.js` and `page/style.css`, into one HTML file,
//! `target/web/index.html`. The page never computes a bitboard itself: every
//! value it shows comes from one of the three questions here, each answered
//! as a small JSON object (so the script needs no generated glue):
//!
//! - [`evaluate`]: an expression in a numbering, to a board (and the squares
//!   its attacks come from) or an error with its span and caret excerpt;
//! - [`describe`]: a board's hex, decimal, binary (one group per rank),
//!   squares, count and `bitboard!` literal in a numbering;
//! - [`position`]: a FEN's pieces, Polyglot key, fifteen named boards,
//!   per-piece attacks and legal moves, or the error with its column;
//! - [`book_moves`]: a position's moves in a Polyglot book the page opened.
//!
//! The functions never panic on bad input: errors are data. The raw
//! `extern "C"` exports (module `exports`, wasm only) pass strings through
//! two buffers in linear memory: the script writes UTF-8 into the input
//! buffer (`bb_input`), calls a question, and reads the answer from
//! `bb_output_ptr` / `bb_output_len`.
//!
//! ```
//! use bitboards_web::{describe, evaluate};
//! use bitboards_expr::Numbering;
//!
//! // The article's example: 0x0000000004000000 is f5 in BERBEF.
//! let answer = evaluate("0x0000000004000000", Numbering::Berbef);
//! assert!(answer.starts_with(r#"{"ok":true,"board":"0x0000002000000000""#));
//! assert!(describe(0x0000_0020_0000_0000, Numbering::Berbef).contains(r#""squares":"f5""#));
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

use core::fmt::Write as _;

use bitboards::book::Book;
use bitboards::{Bitboard, CastlingNotation, Color, Position, Square, attacks};
use bitboards_expr::Numbering;
use bitboards_expr::text::{hex, literal};

/// Evaluates `source` in `numbering`. The answer is
/// `{"ok":true,"board":"0x…","origins":"0x…"}` with the board and the
/// squares its attacks come from (see [`origins`]) in the crate's own
/// numbering (LERF, a1 = bit 0), or `{"ok":false,"message":…,"start":…,
/// "end":…,"rendered":…}` where `start` and `end` count characters (not
/// bytes) and `rendered` is the message with the expression and a caret line
/// under the bad token, as the `bitboards` command prints it. The page has
/// no standard input, so `-` as an operand is an error.
///
/// ```
/// use bitboards_web::evaluate;
/// use bitboards_expr::Numbering;
///
/// assert_eq!(
///     evaluate("e4", Numbering::Lerf),
///     r#"{"ok":true,"board":"0x0000000010000000","origins":"0x0000000000000000"}"#
/// );
/// // The knight's attacks, and the knight's square g5.
/// assert_eq!(
///     evaluate("knight(g5)", Numbering::Lerf),
///     r#"{"ok":true,"board":"0x00a0100010a00000","origins":"0x0000004000000000"}"#
/// );
/// let error = evaluate("e4 | fil_a", Numbering::Lerf);
/// assert!(error.starts_with(r#"{"ok":false,"message":"unknown name `fil_a`"#));
/// assert!(error.contains(r#""start":5,"end":10"#));
/// assert!(error.contains(r#"\n  e4 | fil_a\n       ^^^^^\n"#));
/// ```
#[must_use]
pub fn evaluate(source: &str, numbering: Numbering) -> String {
    match bitboards_expr::evaluate(source, numbering, no_stdin) {
        Ok(board) => format!(
            r#"{{"ok":true,"board":"{}","origins":"{}"}}"#,
            hex(board.0),
            hex(origins(source, numbering).0)
        ),
        Err(error) => {
            let span = error.span();
            let chars_before = |byte: usize| {
                source
                    .get(..byte.min(source.len()))
                    .map_or(0, |s| s.chars().count())
            };
            let mut out = String::from(r#"{"ok":false,"message":"#);
            push_json_string(&mut out, error.message());
            let _ = write!(
                out,
                r#","start":{},"end":{},"rendered":"#,
                chars_before(span.start),
                chars_before(span.end)
            );
            push_json_string(&mut out, &error.render(source));
            out.push('}');
            out
        }
    }
}

/// The expression language's standard input, which the page does not have.
fn no_stdin() -> std::io::Result<String> {
    Err(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        "the page has no standard input; write the squares instead (`e4 | d5`)",
    ))
}

/// The expression language's attack functions, each with the index of its
/// argument that holds the attacking pieces' squares.
const ATTACK_FUNCTIONS: [(&str, usize); 7] = [
    ("knight", 0),
    ("king", 0),
    ("pawn", 1),
    ("pawn_push", 1),
    ("rook", 0),
    ("bishop", 0),
    ("queen", 0),
];

/// The squares the attacks in `source` (an expression that evaluates) come
/// from: the squares argument of each attack function called at the top
/// of the expression, evaluated in `numbering`. `g5` for `knight(g5)`, `d4`
/// for `rook(d4, d6 | f4)`, `e4` and `e1` for `pawn(white, e4) | king(e1)`.
///
/// Where the page cannot tell, there are none: a shift at the top moves the
/// attacks away from their origin, and a call inside another function
/// (`flip(knight(g5))`) is not looked into.
///
/// ```
/// use bitboards::{Bitboard, Square};
/// use bitboards_expr::Numbering;
/// use bitboards_web::origins;
///
/// assert_eq!(origins("knight(g5) & rank_3", Numbering::Lerf), Square::G5.bitboard());
/// assert_eq!(origins("flip(knight(g5))", Numbering::Lerf), Bitboard::EMPTY);
/// ```
#[must_use]
pub fn origins(source: &str, numbering: Numbering) -> Bitboard {
    let is_word = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'_';
    let bytes = source.as_bytes();
    let mut origins = Bitboard::EMPTY;
    let mut at = 0;
    while at < bytes.len() {
        if matches!(bytes[at], b'<' | b'>') {
            return Bitboard::EMPTY;
        }
        if !is_word(bytes[at]) {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && is_word(bytes[at]) {
            at += 1;
        }
        let name = &source[start..at];
        let open = at + source[at..].len() - source[at..].trim_start().len();
        if bytes.get(open) != Some(&b'(') {
            continue;
        }
        let (arguments, end) = call_arguments(source, open);
        at = end;
        let squares_argument = ATTACK_FUNCTIONS
            .iter()
            .find(|(function, _)| name.eq_ignore_ascii_case(function))
            .and_then(|&(_, index)| arguments.get(index));
        if let Some(argument) = squares_argument
            && let Ok(squares) = bitboards_expr::evaluate(argument, numbering, no_stdin)
        {
            origins |= squares;
        }
    }
    origins
}

/// The arguments of the call whose `(` is at byte `open` in `source`, split
/// at its own commas, and the byte after its `)` (the end of `source` when
/// it is not closed).
fn call_arguments(source: &str, open: usize) -> (Vec<&str>, usize) {
    let mut arguments = Vec::new();
    let mut depth = 0usize;
    let mut argument_start = open + 1;
    for (at, byte) in source.bytes().enumerate().skip(open) {
        match byte {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    arguments.push(&source[argument_start..at]);
                    return (arguments, at + 1);
                }
            }
            b',' if depth == 1 => {
                arguments.push(&source[argument_start..at]);
                argument_start = at + 1;
            }
            _ => {}
        }
    }
    (arguments, source.len())
}

/// Everything the page shows about `board` (in the crate's numbering) when
/// numbers are written in `numbering`: `hex`, `decimal`, `binary` (eight
/// groups of eight bits, most significant first) with `ranks` (the rank
/// each group holds), `squares` (names, a1 first, separated by spaces),
/// `count` and the `bitboard!` `literal`.
///
/// ```
/// use bitboards_web::describe;
/// use bitboards_expr::Numbering;
///
/// let c4 = 0x0000_0000_0400_0000;
/// let json = describe(c4, Numbering::Lerf);
/// assert!(json.contains(r#""hex":"0x0000000004000000","decimal":"67108864""#));
/// assert!(json.contains(r#""squares":"c4","count":1"#));
/// assert!(json.contains(r#""ranks":[8,7,6,5,4,3,2,1]"#));
/// // The same square written in BERBEF.
/// assert!(describe(c4, Numbering::Berbef).contains(r#""hex":"0x0000002000000000""#));
/// ```
#[must_use]
pub fn describe(board: u64, numbering: Numbering) -> String {
    let board = Bitboard(board);
    let number = numbering.to_number(board);
    let binary: Vec<String> = number
        .to_be_bytes()
        .iter()
        .map(|byte| format!("{byte:08b}"))
        .collect();
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|byte| numbering.rank_of_byte(byte).to_string())
        .collect();
    let squares: Vec<&str> = board.iter().map(Square::name).collect();
    let mut out = format!(
        r#"{{"hex":"{}","decimal":"{number}","binary":"{}","ranks":[{}],"squares":"{}","count":{},"literal":"#,
        hex(number),
        binary.join(" "),
        ranks.join(","),
        squares.join(" "),
        board.count()
    );
    push_json_string(&mut out, &literal(board));
    out.push('}');
    out
}

/// A FEN read as a position: `{"ok":true,…}` with `fen` (as the crate
/// writes it back), `hash` (the Polyglot key in hex, 16 digits), `side`,
/// `pieces` (64 characters, a1 first, `.` for an empty square), `boards`
/// (the fifteen named bitboards, name and hex), `attacks` (64 hex numbers,
/// the attacks of the piece on each square, `0x0…0` where there is none),
/// `checkers` and `moves` (each legal move's `from`, `to` (the king's target
/// for castling), `uci`, `san` and the FEN `after` it); or
/// `{"ok":false,"message":…,"column":…,"rendered":…}` with a caret under
/// the column the error names.
///
/// ```
/// use bitboards_web::position;
///
/// let json = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
/// assert!(json.contains(r#""hash":"463b96181691fc9c""#));
/// assert!(json.contains(r#""pieces":"RNBQKBNRPPPPPPPP"#));
/// assert!(json.contains(r#"{"from":"g1","to":"f3","uci":"g1f3","san":"Nf3","after":"rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"}"#));
///
/// let error = position("4k3/8/8/8/8/8/8/4K3 x - - 0 1");
/// assert!(error.starts_with(r#"{"ok":false,"message":"FEN field 2 (side to move), column 21: "#));
/// ```
#[must_use]
pub fn position(fen: &str) -> String {
    let fen = fen.trim();
    let position = match Position::from_fen(fen) {
        Ok(position) => position,
        Err(error) => {
            let printable: String = fen
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            let indent = 2 + error.column().saturating_sub(1);
            let mut out = String::from(r#"{"ok":false,"message":"#);
            push_json_string(&mut out, &error.to_string());
            let _ = write!(out, r#","column":{},"rendered":"#, error.column());
            push_json_string(
                &mut out,
                &format!("error: {error}\n  {printable}\n{}^\n", " ".repeat(indent)),
            );
            out.push('}');
            return out;
        }
    };
    let occupied = position.occupied();
    let mut out = String::from(r#"{"ok":true,"fen":"#);
    push_json_string(&mut out, &position.fen().to_string());
    let side = match position.side_to_move() {
        Color::White => "white",
        Color::Black => "black",
    };
    let pieces: String = Square::ALL
        .iter()
        .map(|&square| {
            position
                .piece_on(square)
                .map_or('.', |piece| piece.to_char())
        })
        .collect();
    let _ = write!(
        out,
        r#","hash":"{:016x}","side":"{side}","pieces":"{pieces}","checkers":"{}","boards":["#,
        position.polyglot_key(),
        hex(position.checkers().0)
    );
    for (index, (name, board)) in position.named_bitboards().iter().enumerate() {
        let comma = if index == 0 { "" } else { "," };
        let _ = write!(
            out,
            r#"{comma}{{"name":"{name}","board":"{}"}}"#,
            hex(board.0)
        );
    }
    out.push_str(r#"],"attacks":["#);
    for (index, &square) in Square::ALL.iter().enumerate() {
        let attacked = position.piece_on(square).map_or(Bitboard::EMPTY, |piece| {
            attacks::piece(piece, square, occupied)
        });
        let comma = if index == 0 { "" } else { "," };
        let _ = write!(out, r#"{comma}"{}""#, hex(attacked.0));
    }
    out.push_str(r#"],"moves":["#);
    for (index, mv) in position.legal_moves().iter().enumerate() {
        let comma = if index == 0 { "" } else { "," };
        let _ = write!(
            out,
            r#"{comma}{{"from":"{}","to":"{}","uci":"{}","san":"{}","after":"{}"}}"#,
            mv.from(),
            mv.king_target(),
            mv.uci(CastlingNotation::KingToTarget),
            position.san(*mv),
            position.play_unchecked(*mv).fen()
        );
    }
    out.push_str("]}");
    out
}

/// The moves of the position `fen` in the Polyglot book `book` (the bytes
/// of a `.bin` file the page opened): `{"ok":true,"moves":[{"from","to",
/// "uci","san","weight","learn","share"}…]}` in book order, `share` the
/// weight's percent of the position's total (one decimal), `to` the king's
/// target for castling; or `{"ok":false,"message":…}` for bytes that are
/// not a book or a FEN that does not read.
///
/// ```
/// use bitboards::book::BookWriter;
/// use bitboards::Position;
/// use bitboards_web::book_moves;
///
/// let start = Position::START;
/// let mut writer = BookWriter::new();
/// writer.add(start.polyglot_key(), start.parse_san("e4")?, 3, 0);
/// writer.add(start.polyglot_key(), start.parse_san("d4")?, 1, 0);
/// let json = book_moves(&writer.to_bytes(), &start.fen().to_string());
/// assert_eq!(
///     json,
///     r#"{"ok":true,"moves":[{"from":"e2","to":"e4","uci":"e2e4","san":"e4","weight":3,"learn":0,"share":"75.0"},{"from":"d2","to":"d4","uci":"d2d4","san":"d4","weight":1,"learn":0,"share":"25.0"}]}"#
/// );
/// assert!(book_moves(&[0; 3], "8/8/8/8/8/8/8/8 w - - 0 1").starts_with(r#"{"ok":false"#));
/// # Ok::<(), bitboards::SanError>(())
/// ```
#[must_use]
pub fn book_moves(book: &[u8], fen: &str) -> String {
    let fail = |message: String| {
        let mut out = String::from(r#"{"ok":false,"message":"#);
        push_json_string(&mut out, &message);
        out.push('}');
        out
    };
    let book = match Book::from_bytes(book) {
        Ok(book) => book,
        Err(error) => return fail(format!("not a Polyglot book: {error}")),
    };
    let position = match Position::from_fen(fen.trim()) {
        Ok(position) => position,
        Err(error) => return fail(error.to_string()),
    };
    let entries: Vec<_> = book.entries(&position).collect();
    let total: u64 = entries.iter().map(|entry| u64::from(entry.weight)).sum();
    let mut out = String::from(r#"{"ok":true,"moves":["#);
    for (index, entry) in entries.iter().enumerate() {
        let comma = if index == 0 { "" } else { "," };
        let tenths = (u64::from(entry.weight) * 1000 + total / 2)
            .checked_div(total)
            .unwrap_or(0);
        let _ = write!(
            out,
            r#"{comma}{{"from":"{}","to":"{}","uci":"{}","san":"{}","weight":{},"learn":{},"share":"{}.{}"}}"#,
            entry.mv.from(),
            entry.mv.king_target(),
            position.uci(entry.mv),
            position.san(entry.mv),
            entry.weight,
            entry.learn,
            tenths / 10,
            tenths % 10,
        );
    }
    out.push_str("]}");
    out
}

/// Appends `text` as a JSON string literal.
fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The numbering with index `index` in [`Numbering::ALL`] (LERF, LERBEF,
/// BERF, BERBEF); LERF for any other number.
///
/// ```
/// use bitboards_web::numbering;
/// use bitboards_expr::Numbering;
///
/// assert_eq!(numbering(3), Numbering::Berbef);
/// assert_eq!(numbering(99), Numbering::Lerf);
/// ```
#[must_use]
pub fn numbering(index: u32) -> Numbering {
    usize::try_from(index)
        .ok()
        .and_then(|index| Numbering::ALL.get(index).copied())
        .unwrap_or_default()
}

/// The raw exports the page's script calls. Strings go through two
/// buffers: the script asks for an input buffer of `len` bytes
/// (`bb_input`), writes UTF-8 there, calls `bb_evaluate`, `bb_describe` or
/// `bb_position`, and reads the JSON answer at `bb_output_ptr` for
/// `bb_output_len` bytes. Invalid UTF-8 is read lossily, never trusted.
#[cfg(target_arch = "wasm32")]
#[allow(unsafe_code)] // `no_mangle` is an unsafe attribute; there are no unsafe blocks.
pub mod exports {
    use core::cell::RefCell;

    thread_local! {
        static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        static BOOK: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }

    fn input() -> String {
        INPUT.with_borrow(|bytes| String::from_utf8_lossy(bytes).into_owned())
    }

    fn answer(json: String) -> usize {
        OUTPUT.with_borrow_mut(|out| {
            *out = json.into_bytes();
            out.len()
        })
    }

    /// A zeroed input buffer of `len` bytes for the script to write into;
    /// its address.
    #[unsafe(no_mangle)]
    pub extern "C" fn bb_input(len: usize) -> *mut u8 {
        INPUT.with_borrow_mut(|bytes| {
            bytes.clear();
            bytes.resize(len, 0);
            bytes.as_mut_ptr()
        })
    }

    /// The address of the last answer.
    #[unsafe(no_mangle)]
    pub extern "C" fn bb_output_ptr() -> *const u8 {
        OUTPUT.with_borrow(|out| out.as_ptr())
    }

    /// The length in bytes of the last answer.
    #[unsafe(no_mangle)]
    pub extern "C" fn bb_output_len() -> usize {
        OUTPUT.with_borrow(Vec::len)
    }

    /// [`crate::evaluate`] of the input in numbering `numbering` (an index
    /// into `Numbering::ALL`); the answer's length.
    #[unsafe(no_mangle)]
    pub extern "C" fn bb_evaluate(numbering: u32) -> usize {
        answer(crate::evaluate(&input(), crate::numbering(numbering)))
    }

    /// [`crate::describe`] of `board` in numbering `numbering`; the
    /// answer's length.
    #[unsafe(no_mangle)]
    pub extern "C" fn bb_describe(board: u64, numbering: u32) -> usize {
        answer(crate::describe(board, crate::numbering(numbering)))
    }

    /// A zeroed buffer of `len` bytes for the script to copy an opened
    /// book's bytes into; its address. The book stays until the next one.
    #[unsafe(no_mangle)]
    pub extern "C" fn bb_book(len: usize) -> *mut u8 {
        BOOK.with_borrow_mut(|bytes| {
            bytes.clear();
            bytes.resize(len, 0);
            bytes.as_mut_ptr()
        })
    }

    /// [`crate::book_moves`] of the book and the input FEN; the answer's
    /// length.
    #[unsafe(no_mangle)]
    pub extern "C" fn bb_book_moves() -> usize {
        let fen = input();
        answer(BOOK.with_borrow(|book| crate::book_moves(book, &fen)))
    }

    /// [`crate::position`] of the input FEN; the answer's length.
    #[unsafe(no_mangle)]
    pub extern "C" fn bb_position() -> usize {
        answer(crate::position(&input()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_escape_quotes_backslashes_and_controls() {
        let mut out = String::new();
        push_json_string(&mut out, "a\"b\\c\nd\te");
        assert_eq!(out, r#""a\"b\\c\nd\u0009e""#);
    }

    #[test]
    fn errors_count_characters_not_bytes() {
        let answer = evaluate("é | fil_a", Numbering::Lerf);
        assert!(answer.contains(r#""start":0,"end":1"#), "{answer}");
    }

    #[test]
    fn standard_input_is_an_error_in_the_page() {
        let answer = evaluate("- | e4", Numbering::Lerf);
        assert!(
            answer.contains("the page has no standard input"),
            "{answer}"
        );
    }

    #[test]
    fn every_piece_has_its_attacks() {
        let answer = position("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        // The rook on h1 sees f1 and g1 (e1 is its own king) and up the h-file.
        assert!(answer.contains(r#""0x8080808080808070""#), "{answer}");
        assert!(answer.contains(r#""uci":"e1g1","san":"O-O""#), "{answer}");
    }

    #[test]
    fn origins_are_the_squares_arguments_of_attacks_at_the_top() {
        let lerf = |source| origins(source, Numbering::Lerf);
        assert_eq!(lerf("king(e1)"), Square::E1.bitboard());
        assert_eq!(lerf("rook(d4, d6 | f4)"), Square::D4.bitboard());
        assert_eq!(lerf(" ( Rook (a1) ) "), Square::A1.bitboard());
        assert_eq!(
            lerf("pawn(white, e4) | pawn_push(black, e7 | d7)"),
            Square::E4.bitboard() | Square::E7.bitboard() | Square::D7.bitboard()
        );
        // The outer knight's origins are where the inner one lands.
        assert_eq!(lerf("knight(knight(g5))"), attacks::knight(Square::G5));
        // Numbers in the argument are read in the numbering.
        let c4 = "knight(0x0000000004000000)";
        assert_eq!(origins(c4, Numbering::Berbef), Square::F5.bitboard());
        for unknown in [
            "e4",
            "between(a1, h8)",
            "knight(g5) << 8",
            "north(king(e1))",
        ] {
            assert_eq!(lerf(unknown), Bitboard::EMPTY, "{unknown}");
        }
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "", " ", "\u{0}", "((((", "8/8/8", "x y z", "é", "0x", "e4 <<",
        ] {
            for index in 0..5 {
                let _ = evaluate(text, numbering(index));
            }
            let _ = position(text);
            let _ = origins(text, Numbering::Lerf);
        }
    }
}
