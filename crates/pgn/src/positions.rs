//! Every position of a game database as a row: the twelve piece bitboards,
//! the state a FEN holds, the move played from it with its clock and eval,
//! and the game's ratings and result. The shortest path from a `.pgn.zst`
//! to a training set (feature `arrow`).
//!
//! | column | type | value |
//! | --- | --- | --- |
//! | `game` | uint64 | the game's number in the input, from 0 (whatever the thread count) |
//! | `ply` | uint16 | the position's number in its game, from 0 at its start (the `FEN` tag's position where there is one) |
//! | `bitboards` | fixed_size_list\<uint64, 12\> | White's pawns, knights, bishops, rooks, queens, king, then Black's; a1 = bit 0 |
//! | `turn` | bool | true when White is to move |
//! | `castling` | uint64 | the squares of the rooks that may castle ([`Position::castling_rooks`]) |
//! | `ep_square` | uint8, nullable | the en passant square where a capture is legal |
//! | `halfmove_clock`, `fullmove_number` | uint16 | as in FEN |
//! | `move` | utf8, nullable | the move played, in UCI (null for the final position) |
//! | `move_clock` | float64, nullable | the `[%clk]` after the move, in seconds |
//! | `move_eval` | struct\<cp: int32, mate: int32\>, nullable | the `[%eval]` after the move, White's view |
//! | `WhiteElo`, `BlackElo` | int32, nullable | the tags |
//! | `Result` | utf8, nullable | the tag |
//!
//! and then the game columns asked for by name ([`PositionOptions::columns`]):
//! any tag column of the game table ([`GAME_COLUMNS`](crate::record::GAME_COLUMNS))
//! or `plies`, repeated on each row of the game.
//!
//! ```
//! use arrow_array::cast::AsArray;
//! use arrow_array::types::UInt16Type;
//! use bitboards_pgn::positions::{self, PositionOptions};
//!
//! let pgn = "[WhiteElo \"2100\"]\n[BlackElo \"2000\"]\n\n1. e4 { [%clk 0:03:00] } e5 2. Nf3 *\n";
//! let mut rows = 0;
//! let summary = positions::for_each_batch(pgn.as_bytes(), &PositionOptions::default(), Some(1), 0, |batch| {
//!     rows += batch.num_rows();
//!     let ply = batch.column_by_name("ply").unwrap().as_primitive::<UInt16Type>();
//!     assert_eq!(ply.values(), &[0, 1, 2]);
//! })?;
//! assert_eq!((rows, summary.games, summary.errors.len()), (3, 1, 0));
//! # Ok::<(), bitboards_pgn::ReadError>(())
//! ```

use std::io::Read;
use std::sync::{Arc, OnceLock};

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt16Type, UInt64Type};
use arrow_array::{
    ArrayRef, BooleanArray, Date32Array, FixedSizeListArray, Float64Array, Int32Array, RecordBatch,
    StringArray, Time32MillisecondArray, UInt8Array, UInt16Array, UInt64Array,
};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use bitboards::{CastlingNotation, Color, Move, PieceKind, Position};

use crate::annotations::{Annotations, Score};
use crate::columns::{Evals, Nullable, eval_fields, nulls, take_bools, take_with_room};
use crate::error::{PgnError, ReadError};
use crate::parallel::ParallelReader;
use crate::record::{
    GAME_TABLE, TAG_COLUMNS, TagKind, Value, parse_date, parse_int, parse_time, whole_comment,
};
use crate::result::GameResult;
use crate::table::{JoinInto, games_schema};
use crate::visitor::{PgnMove, Visitor};

/// The positions table, one declaration per column, in order: its name
/// and what it holds, from where ([`RowValue`]). The schema
/// ([`positions_schema`]), the builder ([`PositionsBuilder`]) and
/// [`POSITION_COLUMNS`] follow from it, so that adding a column is adding
/// its line here (and, for a value the rows do not hold yet, a field of
/// [`GameRows`] that [`PositionsVisitor`] fills).
pub(crate) const POSITION_TABLE: &[PositionColumn] = &[
    PositionColumn::new("game", RowValue::Game),
    PositionColumn::new("ply", RowValue::U16(|rows| &rows.ply)),
    PositionColumn::new("bitboards", RowValue::Boards(|rows| &rows.bitboards)),
    PositionColumn::new("turn", RowValue::Bool(|rows| &rows.turn)),
    PositionColumn::new("castling", RowValue::U64(|rows| &rows.castling)),
    PositionColumn::new("ep_square", RowValue::Square(|rows| &rows.ep_square)),
    PositionColumn::new("halfmove_clock", RowValue::U16(|rows| &rows.halfmove_clock)),
    PositionColumn::new(
        "fullmove_number",
        RowValue::U16(|rows| &rows.fullmove_number),
    ),
    PositionColumn::new("move", RowValue::Move(|rows| &rows.moves)),
    PositionColumn::new("move_clock", RowValue::Clock(|rows| &rows.clock)),
    PositionColumn::new("move_eval", RowValue::Eval(|rows| &rows.eval)),
    PositionColumn::new("WhiteElo", RowValue::GameInt(|rows| rows.white_elo)),
    PositionColumn::new("BlackElo", RowValue::GameInt(|rows| rows.black_elo)),
    PositionColumn::new("Result", RowValue::GameText(|rows| rows.result.as_deref())),
];

/// One column of the positions table: a line of [`POSITION_TABLE`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct PositionColumn {
    /// Its name, in the schema.
    pub(crate) name: &'static str,
    /// What it holds and where from.
    pub(crate) value: RowValue,
}

impl PositionColumn {
    const fn new(name: &'static str, value: RowValue) -> PositionColumn {
        PositionColumn { name, value }
    }
}

/// What a positions column holds, and where from: one value per row of a
/// game's [`GameRows`], or one per game repeated on each of its rows. Its
/// Arrow type follows (the [module](self)'s docs list them).
#[derive(Clone, Copy, Debug)]
pub(crate) enum RowValue {
    /// The game's number in the input, from 0 (uint64).
    Game,
    /// A count per row (uint16).
    U16(fn(&GameRows) -> &[u16]),
    /// A set of squares per row (uint64).
    U64(fn(&GameRows) -> &[u64]),
    /// The twelve piece boards per row (fixed_size_list\<uint64, 12\>).
    Boards(fn(&GameRows) -> &[[u64; 12]]),
    /// A flag per row (bool).
    Bool(fn(&GameRows) -> &[bool]),
    /// A square per row, or none (uint8, nullable).
    Square(fn(&GameRows) -> &[Option<u8>]),
    /// The move played per row, in UCI as the game writes castling, or
    /// none (utf8, nullable).
    Move(fn(&GameRows) -> &[Option<Move>]),
    /// Seconds per row, or none (float64, nullable).
    Clock(fn(&GameRows) -> &[Option<f64>]),
    /// A score per row, or none (struct\<cp: int32, mate: int32\>, nullable).
    Eval(fn(&GameRows) -> &[Option<Score>]),
    /// An integer of the game (int32, nullable).
    GameInt(fn(&GameRows) -> Option<i32>),
    /// A text of the game (utf8, nullable).
    GameText(fn(&GameRows) -> Option<&str>),
}

impl RowValue {
    /// The Arrow type of a column that holds this, and whether it may be
    /// null.
    fn data_type(self) -> (DataType, bool) {
        match self {
            RowValue::Game | RowValue::U64(_) => (DataType::UInt64, false),
            RowValue::U16(_) => (DataType::UInt16, false),
            RowValue::Boards(_) => (
                DataType::FixedSizeList(
                    Arc::new(Field::new_list_field(DataType::UInt64, false)),
                    12,
                ),
                false,
            ),
            RowValue::Bool(_) => (DataType::Boolean, false),
            RowValue::Square(_) => (DataType::UInt8, true),
            RowValue::Move(_) | RowValue::GameText(_) => (DataType::Utf8, true),
            RowValue::Clock(_) => (DataType::Float64, true),
            RowValue::Eval(_) => (DataType::Struct(eval_fields()), true),
            RowValue::GameInt(_) => (DataType::Int32, true),
        }
    }
}

/// The columns every row has, in order: the names of the lines of
/// `POSITION_TABLE`, the table's declaration (CONTRIBUTING.md).
///
/// ```
/// use bitboards_pgn::positions::POSITION_COLUMNS;
///
/// assert_eq!(POSITION_COLUMNS[..3], ["game", "ply", "bitboards"]);
/// assert_eq!(POSITION_COLUMNS.last(), Some(&"Result"));
/// ```
pub const POSITION_COLUMNS: [&str; POSITION_TABLE.len()] = {
    let mut names = [""; POSITION_TABLE.len()];
    let mut at = 0;
    while at < names.len() {
        names[at] = POSITION_TABLE[at].name;
        at += 1;
    }
    names
};

/// The place of the column named `name` in [`POSITION_TABLE`].
const fn position_column(name: &str) -> usize {
    let mut at = 0;
    while at < POSITION_TABLE.len() {
        if crate::record::same_name(POSITION_TABLE[at].name, name) {
            return at;
        }
        at += 1;
    }
    panic!("no such column of the positions table")
}

/// Where the `game` and `ply` columns are: the sample and the numbering of
/// games in the input read them back from a chunk's batch.
const GAME_AT: usize = position_column("game");
const PLY_AT: usize = position_column("ply");

/// Which positions become rows, and which game columns they carry.
///
/// ```
/// use bitboards_pgn::positions::PositionOptions;
///
/// let options = PositionOptions { every: 4, min_elo: Some(2000), ..PositionOptions::default() };
/// assert!(options.check().is_ok());
/// assert!(PositionOptions { every: 0, ..options }.check().is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PositionOptions {
    /// Every `every`th position of a game (ply 0, `every`, 2 × `every`, ...).
    pub every: u16,
    /// No position before this ply.
    pub min_ply: u16,
    /// No position after this ply.
    pub max_ply: Option<u16>,
    /// Only games whose players are both rated at least this (games without
    /// both ratings are left out).
    pub min_elo: Option<i32>,
    /// A row for the final position too, with a null `move`.
    pub final_position: bool,
    /// Keep each row with this probability (0 to 1), decided by a hash of
    /// the seed, the game's number and the ply: the same rows whatever the
    /// thread count.
    pub sample: Option<(f64, u64)>,
    /// Game columns to add to each row: tag columns of the game table or
    /// `plies`.
    pub columns: Vec<String>,
    /// The rows of a record batch of [`for_each_batch`] (the last one may
    /// hold fewer); [`AS_BUILT`] for the batches as the workers built them
    /// (a chunk of the input's rows each, not copied to be joined).
    pub batch_rows: usize,
}

pub use crate::table::AS_BUILT;

/// The bytes of input in each chunk that [`for_each_batch`] reads: the
/// reader's own size for up to 61 threads, fixed for more, so that the
/// batches as built are the same on any number of threads.
const CHUNK_BYTES: usize = 256 << 10;

impl Default for PositionOptions {
    fn default() -> PositionOptions {
        PositionOptions {
            every: 1,
            min_ply: 0,
            max_ply: None,
            min_elo: None,
            final_position: false,
            sample: None,
            columns: Vec::new(),
            batch_rows: BATCH_ROWS,
        }
    }
}

/// The game columns a row can carry besides the tags.
const GAME_EXTRAS: [&str; 1] = ["plies"];

/// The names of the game table's tag columns, which a row can carry.
fn tag_columns() -> impl Iterator<Item = &'static str> {
    TAG_COLUMNS.iter().map(|&(name, _)| name)
}

impl PositionOptions {
    /// Whether the options make sense: `every` at least 1, a sample
    /// fraction from 0 to 1, known column names.
    ///
    /// # Errors
    /// What is wrong, in words.
    pub fn check(&self) -> Result<(), String> {
        if self.every == 0 {
            return Err("every must be at least 1".into());
        }
        if self.batch_rows == 0 {
            return Err("batches must hold at least one row".into());
        }
        if let Some((fraction, _)) = self.sample
            && !(0.0..=1.0).contains(&fraction)
        {
            return Err(format!(
                "sample must be a fraction from 0 to 1, not {fraction}"
            ));
        }
        for name in &self.columns {
            let tag = tag_columns().any(|tag| tag == name);
            if !tag && !GAME_EXTRAS.contains(&name.as_str()) {
                return Err(format!(
                    "no game column {name:?} for position rows; they can carry {}, {}",
                    tag_columns().collect::<Vec<_>>().join(", "),
                    GAME_EXTRAS.join(", ")
                ));
            }
            if POSITION_COLUMNS.contains(&name.as_str()) {
                return Err(format!("{name:?} is a column of every row already"));
            }
        }
        Ok(())
    }

    fn wants_ply(&self, ply: u16) -> bool {
        ply >= self.min_ply
            && self.max_ply.is_none_or(|max| ply <= max)
            && ply.is_multiple_of(self.every)
    }

    fn keeps(&self, game: u64, ply: u16) -> bool {
        self.sample.is_none_or(|(fraction, seed)| {
            let mixed = splitmix(seed ^ splitmix(game ^ (u64::from(ply) << 48)));
            ((mixed >> 11) as f64 / (1u64 << 53) as f64) < fraction
        })
    }
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash.
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The schema of position rows with `columns` (game columns) added.
///
/// ```
/// use bitboards_pgn::positions::positions_schema;
///
/// let schema = positions_schema(&["Opening".to_string()]);
/// assert_eq!(schema.field(2).name(), "bitboards");
/// assert_eq!(schema.fields().len(), 15);
/// ```
#[must_use]
pub fn positions_schema(columns: &[String]) -> SchemaRef {
    static BASE: OnceLock<Vec<Field>> = OnceLock::new();
    let base = BASE.get_or_init(|| {
        POSITION_TABLE
            .iter()
            .map(|column| {
                let (data_type, nullable) = column.value.data_type();
                Field::new(column.name, data_type, nullable)
            })
            .collect()
    });
    let games = games_schema();
    let mut fields = base.clone();
    for name in columns {
        if let Ok(field) = games.field_with_name(name) {
            fields.push(field.clone().with_nullable(true));
        }
    }
    Arc::new(Schema::new(fields))
}

/// The rows of one game, column by column, as its worker made them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRows {
    /// Per row: the position's ply.
    pub ply: Vec<u16>,
    /// Per row: twelve boards.
    pub bitboards: Vec<[u64; 12]>,
    /// Per row: White to move.
    pub turn: Vec<bool>,
    /// Per row: the castling rooks' squares.
    pub castling: Vec<u64>,
    /// Per row: the legal en passant square.
    pub ep_square: Vec<Option<u8>>,
    /// Per row: the halfmove clock.
    pub halfmove_clock: Vec<u16>,
    /// Per row: the fullmove number.
    pub fullmove_number: Vec<u16>,
    /// Per row: the move played from the position (None for the final one).
    pub moves: Vec<Option<Move>>,
    /// Per row: the clock after the move.
    pub clock: Vec<Option<f64>>,
    /// Per row: the eval after the move.
    pub eval: Vec<Option<Score>>,
    /// How castling moves are written (king takes rook in Chess960).
    pub notation: CastlingNotation,
    /// The game's ratings.
    pub white_elo: Option<i32>,
    /// The game's ratings.
    pub black_elo: Option<i32>,
    /// The `Result` tag.
    pub result: Option<String>,
    /// The asked-for game columns' text (`plies` too).
    pub columns: Vec<Option<String>>,
}

impl GameRows {
    /// Empty rows with room for `rows` of them.
    fn with_capacity(rows: usize) -> GameRows {
        GameRows {
            ply: Vec::with_capacity(rows),
            bitboards: Vec::with_capacity(rows),
            turn: Vec::with_capacity(rows),
            castling: Vec::with_capacity(rows),
            ep_square: Vec::with_capacity(rows),
            halfmove_clock: Vec::with_capacity(rows),
            fullmove_number: Vec::with_capacity(rows),
            moves: Vec::with_capacity(rows),
            clock: Vec::with_capacity(rows),
            eval: Vec::with_capacity(rows),
            ..GameRows::default()
        }
    }

    fn clear(&mut self, columns: usize) {
        self.ply.clear();
        self.bitboards.clear();
        self.turn.clear();
        self.castling.clear();
        self.ep_square.clear();
        self.halfmove_clock.clear();
        self.fullmove_number.clear();
        self.moves.clear();
        self.clock.clear();
        self.eval.clear();
        self.notation = CastlingNotation::KingToTarget;
        self.white_elo = None;
        self.black_elo = None;
        self.result = None;
        self.columns.clear();
        self.columns.resize(columns, None);
    }

    /// The number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.ply.len()
    }

    /// Whether the game gave no rows.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ply.is_empty()
    }

    fn push(&mut self, position: &Position, ply: u16, mv: Option<Move>) {
        self.push_plain(position, ply);
        self.ep_square.push(ep_square(position));
        self.moves.push(mv);
        self.clock.push(None);
        self.eval.push(None);
    }

    /// The columns of a row that are never null.
    fn push_plain(&mut self, position: &Position, ply: u16) {
        self.ply.push(ply);
        self.bitboards
            .push(position.piece_boards().map(|board| board.0));
        self.turn.push(position.side_to_move() == Color::White);
        self.castling.push(position.castling_rooks().0);
        self.halfmove_clock.push(position.halfmove_clock());
        self.fullmove_number.push(position.fullmove_number());
    }
}

/// The `ep_square` of a row: the en passant square where a capture is
/// legal.
fn ep_square(position: &Position) -> Option<u8> {
    // Most double pushes leave no pawn beside them: ask the move
    // generator only when a pawn of the side to move attacks the square.
    let ep = position.en_passant().filter(|&square| {
        let mover = position.side_to_move();
        let takers = bitboards::attacks::pawn(mover.opponent(), square)
            & position.pieces(mover, PieceKind::Pawn);
        !takers.is_empty() && position.legal_en_passant().is_some()
    });
    ep.map(|square| square.index() as u8)
}

/// The nullable columns of a game's rows as a batch holds them (values
/// and validity, moves as text): [`for_each_batch`]'s visitor makes them
/// in place of [`GameRows`]' `Option`s, so that a game joins its batch by
/// a copy of each buffer, not a conversion row by row.
#[derive(Clone, Debug)]
struct Staged {
    ep_square: Nullable<u8>,
    moves: Texts,
    clock: Nullable<f64>,
    eval: Evals,
}

impl Staged {
    fn new() -> Staged {
        Staged {
            ep_square: Nullable::with_capacity(256),
            moves: Texts::with_capacity(256, 1280),
            clock: Nullable::with_capacity(256),
            eval: Evals::with_capacity(256),
        }
    }

    fn clear(&mut self) {
        self.ep_square.clear();
        self.moves.clear();
        self.clock.clear();
        self.eval.clear();
    }

    fn push(&mut self, position: &Position, mv: Option<Move>, notation: CastlingNotation) {
        self.ep_square.push(ep_square(position));
        self.moves.extend_moves(std::iter::once(mv), notation);
        // No annotation yet: `annotate` sets them.
        self.clock.push(None);
        self.eval.push_none();
    }

    /// The last row's clock and eval, where it has none yet.
    fn annotate(&mut self, clock: Option<f64>, eval: Option<Score>) {
        self.clock.fill_last(clock);
        self.eval.fill_last(eval);
    }
}

/// A [`Visitor`] that makes each game's [`GameRows`] as it replays it.
///
/// ```
/// use bitboards_pgn::Reader;
/// use bitboards_pgn::positions::{PositionOptions, PositionsVisitor};
///
/// let mut visitor = PositionsVisitor::new(PositionOptions { final_position: true, ..PositionOptions::default() });
/// Reader::new(&b"1. e4 { [%eval -0.3] } e5 *"[..]).read_game(&mut visitor)?;
/// let rows = visitor.rows();
/// assert_eq!(rows.ply, [0, 1, 2]);
/// assert_eq!(rows.moves[2], None);
/// assert_eq!(rows.eval[0], Some(bitboards_pgn::annotations::Score::Cp(-30)));
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
#[derive(Clone, Debug)]
pub struct PositionsVisitor {
    options: Arc<PositionOptions>,
    rows: GameRows,
    ply: u16,
    /// The last row is the position before the last move (its comments
    /// are that move's annotations).
    pending: bool,
    chess960: bool,
    partial: String,
    /// For [`for_each_batch`]: the nullable columns made here, not in
    /// `rows` (whose columns of them stay empty).
    staged: Option<Box<Staged>>,
}

impl PositionsVisitor {
    /// The last row's clock and eval from a comment after its move, where
    /// it has none yet (the first comment that gives one counts).
    fn annotate(&mut self, found: &Annotations) {
        let eval = found.eval.map(|eval| eval.score);
        if let Some(staged) = &mut self.staged {
            staged.annotate(found.clock, eval);
            return;
        }
        let last = self.rows.len() - 1;
        if self.rows.clock[last].is_none() {
            self.rows.clock[last] = found.clock;
        }
        if self.rows.eval[last].is_none() {
            self.rows.eval[last] = eval;
        }
    }

    /// A visitor with these options.
    #[must_use]
    pub fn new(options: PositionOptions) -> PositionsVisitor {
        PositionsVisitor {
            rows: GameRows::default(),
            options: Arc::new(options),
            ply: 0,
            pending: false,
            chess960: false,
            partial: String::new(),
            staged: None,
        }
    }

    /// A visitor that makes the nullable columns as [`Staged`] buffers.
    fn staged(options: PositionOptions) -> PositionsVisitor {
        PositionsVisitor {
            staged: Some(Box::new(Staged::new())),
            ..PositionsVisitor::new(options)
        }
    }

    /// A row for `position`, before `mv`.
    fn push(&mut self, position: &Position, ply: u16, mv: Option<Move>) {
        match &mut self.staged {
            Some(staged) => {
                self.rows.push_plain(position, ply);
                staged.push(position, mv, self.rows.notation);
            }
            None => self.rows.push(position, ply, mv),
        }
    }

    /// The rows of the game just read.
    #[must_use]
    pub fn rows(&self) -> &GameRows {
        &self.rows
    }

    /// The rows of the game just read, taken out.
    pub fn take(&mut self) -> GameRows {
        // Room for a game as long as this one: the next game's columns are
        // allocated once each rather than doubled from empty.
        let room = self.rows.len().next_power_of_two().max(64);
        std::mem::replace(&mut self.rows, GameRows::with_capacity(room))
    }

    fn column(&self, name: &str) -> Option<usize> {
        self.options
            .columns
            .iter()
            .position(|column| column == name)
    }
}

impl Visitor for PositionsVisitor {
    fn begin_game(&mut self, _: usize) {
        self.rows.clear(self.options.columns.len());
        self.ply = 0;
        self.pending = false;
        self.chess960 = false;
        self.partial.clear();
        if let Some(staged) = &mut self.staged {
            staged.clear();
        }
    }

    fn tag(&mut self, name: &str, value: &str) {
        match name {
            "WhiteElo" if self.rows.white_elo.is_none() => self.rows.white_elo = parse_int(value),
            "BlackElo" if self.rows.black_elo.is_none() => self.rows.black_elo = parse_int(value),
            "Result" if self.rows.result.is_none() => self.rows.result = Some(value.to_owned()),
            "Variant" => {
                self.chess960 = crate::reader::is_chess960_variant(value);
            }
            _ => {}
        }
        if let Some(at) = self.column(name)
            && self.rows.columns[at].is_none()
        {
            self.rows.columns[at] = Some(value.to_owned());
        }
    }

    fn skip_movetext(&mut self) -> bool {
        self.options.min_elo.is_some_and(|min| {
            !(self.rows.white_elo.is_some_and(|elo| elo >= min)
                && self.rows.black_elo.is_some_and(|elo| elo >= min))
        })
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.rows.notation = if self.chess960 {
            CastlingNotation::KingTakesRook
        } else {
            start.castling_notation()
        };
    }

    fn san(&mut self, played: PgnMove<'_>) {
        let ply = self.ply;
        self.pending = self.options.wants_ply(ply);
        if self.pending {
            self.push(played.before, ply, Some(played.mv));
        }
        self.ply = self.ply.saturating_add(1);
    }

    fn comment_part(&mut self, text: &str) {
        self.partial.push_str(text);
    }

    fn comment_bytes(&mut self, bytes: &[u8]) {
        if !self.pending {
            self.partial.clear();
        } else if self.partial.is_empty() {
            // Read from the bytes, without first making the comment text.
            self.annotate(&Annotations::parse_bytes(bytes));
        } else {
            self.comment(&crate::text::lossy(bytes));
        }
    }

    fn comment(&mut self, text: &str) {
        // A comment of no row's ply says nothing, and its pieces (of a
        // comment longer than the reader's buffer) go with it.
        let text = whole_comment(&mut self.partial, text);
        if self.pending {
            self.annotate(&Annotations::parse(&text));
        }
    }

    fn nag(&mut self, _: u8) {}

    fn end_game(&mut self, last: &Position) {
        self.pending = false;
        if self.options.final_position && self.options.wants_ply(self.ply) {
            self.push(last, self.ply, None);
        }
        if let Some(at) = self.column("plies") {
            self.rows.columns[at] = Some(self.ply.to_string());
        }
    }

    fn result(&mut self, _: GameResult) {}
}

/// Builds record batches of position rows from the games' [`GameRows`].
#[derive(Debug)]
pub struct PositionsBuilder {
    options: Arc<PositionOptions>,
    schema: SchemaRef,
    /// One builder per column of [`POSITION_TABLE`], in its order.
    table: Vec<RowBuilder>,
    /// The rows waiting.
    rows: usize,
    /// The asked-for game columns' text, per row.
    columns: Vec<Vec<Option<String>>>,
    /// The rows of a game that the sample keeps, reused.
    kept: Vec<usize>,
}

/// The values of one column of the positions table, of the kind its
/// [`RowValue`] says, with where they come from: Arrow's buffers
/// themselves (values, validity, text and offsets), so that a batch's
/// arrays are made of them without a pass over the rows.
#[derive(Debug)]
enum RowBuilder {
    Game(Vec<u64>),
    U16(fn(&GameRows) -> &[u16], Vec<u16>),
    U64(fn(&GameRows) -> &[u64], Vec<u64>),
    /// Twelve boards a row, one after the other.
    Boards(fn(&GameRows) -> &[[u64; 12]], Vec<u64>),
    Bool(fn(&GameRows) -> &[bool], Vec<bool>),
    Square(fn(&GameRows) -> &[Option<u8>], Nullable<u8>),
    Move(fn(&GameRows) -> &[Option<Move>], Texts),
    Clock(fn(&GameRows) -> &[Option<f64>], Nullable<f64>),
    Eval(fn(&GameRows) -> &[Option<Score>], Evals),
    GameInt(fn(&GameRows) -> Option<i32>, Nullable<i32>),
    GameText(fn(&GameRows) -> Option<&str>, Texts),
}

impl RowBuilder {
    /// The builder of a column that holds `value`, with room for `rows`.
    fn new(value: RowValue, rows: usize) -> RowBuilder {
        match value {
            RowValue::Game => RowBuilder::Game(Vec::with_capacity(rows)),
            RowValue::U16(get) => RowBuilder::U16(get, Vec::with_capacity(rows)),
            RowValue::U64(get) => RowBuilder::U64(get, Vec::with_capacity(rows)),
            RowValue::Boards(get) => RowBuilder::Boards(get, Vec::with_capacity(rows * 12)),
            RowValue::Bool(get) => RowBuilder::Bool(get, Vec::with_capacity(rows)),
            RowValue::Square(get) => RowBuilder::Square(get, Nullable::with_capacity(rows)),
            RowValue::Move(get) => RowBuilder::Move(get, Texts::with_capacity(rows, rows * 5)),
            RowValue::Clock(get) => RowBuilder::Clock(get, Nullable::with_capacity(rows)),
            RowValue::Eval(get) => RowBuilder::Eval(get, Evals::with_capacity(rows)),
            RowValue::GameInt(get) => RowBuilder::GameInt(get, Nullable::with_capacity(rows)),
            RowValue::GameText(get) => {
                RowBuilder::GameText(get, Texts::with_capacity(rows, rows * 3))
            }
        }
    }

    /// Appends the rows `kept` (in order) of game number `game`.
    fn push_rows(&mut self, game: u64, rows: &GameRows, kept: &[usize]) {
        fn pick<T: Copy>(from: &[T], kept: &[usize]) -> impl Iterator<Item = T> + Clone {
            kept.iter().map(move |&row| from[row])
        }
        match self {
            RowBuilder::Game(values) => values.extend(std::iter::repeat_n(game, kept.len())),
            RowBuilder::U16(get, values) => values.extend(pick(get(rows), kept)),
            RowBuilder::U64(get, values) => values.extend(pick(get(rows), kept)),
            RowBuilder::Boards(get, values) => {
                let boards = get(rows);
                for &row in kept {
                    values.extend_from_slice(&boards[row]);
                }
            }
            RowBuilder::Bool(get, values) => values.extend(pick(get(rows), kept)),
            RowBuilder::Square(get, values) => values.extend(pick(get(rows), kept)),
            RowBuilder::Move(get, texts) => {
                texts.extend_moves(pick(get(rows), kept), rows.notation)
            }
            RowBuilder::Clock(get, values) => values.extend(pick(get(rows), kept)),
            RowBuilder::Eval(get, evals) => evals.extend(pick(get(rows), kept)),
            RowBuilder::GameInt(get, values) => values.push_n(get(rows), kept.len()),
            RowBuilder::GameText(get, texts) => texts.push_n(get(rows), kept.len()),
        }
    }

    /// Appends every row of game number `game`: the columns whole, not
    /// row by row.
    fn push_all(&mut self, game: u64, rows: &GameRows, staged: Option<&Staged>) {
        let count = rows.len();
        match (self, staged) {
            (RowBuilder::Square(_, values), Some(staged)) => values.append(&staged.ep_square),
            (RowBuilder::Move(_, texts), Some(staged)) => texts.append(&staged.moves),
            (RowBuilder::Clock(_, values), Some(staged)) => values.append(&staged.clock),
            (RowBuilder::Eval(_, evals), Some(staged)) => evals.append(&staged.eval),
            (column, _) => column.push_all_rows(game, rows, count),
        }
    }

    /// Appends every row of game number `game` from `rows`.
    fn push_all_rows(&mut self, game: u64, rows: &GameRows, count: usize) {
        match self {
            RowBuilder::Game(values) => values.extend(std::iter::repeat_n(game, count)),
            RowBuilder::U16(get, values) => values.extend_from_slice(get(rows)),
            RowBuilder::U64(get, values) => values.extend_from_slice(get(rows)),
            RowBuilder::Boards(get, values) => values.extend_from_slice(get(rows).as_flattened()),
            RowBuilder::Bool(get, values) => values.extend_from_slice(get(rows)),
            RowBuilder::Square(get, values) => values.extend(get(rows).iter().copied()),
            RowBuilder::Move(get, texts) => {
                texts.extend_moves(get(rows).iter().copied(), rows.notation);
            }
            RowBuilder::Clock(get, values) => values.extend(get(rows).iter().copied()),
            RowBuilder::Eval(get, evals) => evals.extend(get(rows).iter().copied()),
            RowBuilder::GameInt(get, values) => values.push_n(get(rows), count),
            RowBuilder::GameText(get, texts) => texts.push_n(get(rows), count),
        }
    }

    /// The values pushed as an array, leaving room for `rows` more.
    fn finish(&mut self, rows: usize) -> ArrayRef {
        match self {
            RowBuilder::Game(values) | RowBuilder::U64(_, values) => {
                Arc::new(UInt64Array::from(take_with_room(values, rows)))
            }
            RowBuilder::U16(_, values) => Arc::new(UInt16Array::from(take_with_room(values, rows))),
            RowBuilder::Boards(_, values) => Arc::new(FixedSizeListArray::new(
                Arc::new(Field::new_list_field(DataType::UInt64, false)),
                12,
                Arc::new(UInt64Array::from(take_with_room(values, rows * 12))),
                None,
            )),
            RowBuilder::Bool(_, values) => {
                let (bits, _) = take_bools(values, rows);
                Arc::new(BooleanArray::new(bits, None))
            }
            RowBuilder::Square(_, values) => {
                let (values, valid) = values.take(rows);
                Arc::new(UInt8Array::new(values, valid))
            }
            RowBuilder::Move(_, texts) | RowBuilder::GameText(_, texts) => {
                Arc::new(texts.take(rows))
            }
            RowBuilder::Clock(_, values) => {
                let (values, valid) = values.take(rows);
                Arc::new(Float64Array::new(values, valid))
            }
            RowBuilder::Eval(_, evals) => Arc::new(evals.take(rows)),
            RowBuilder::GameInt(_, values) => {
                let (values, valid) = values.take(rows);
                Arc::new(Int32Array::new(values, valid))
            }
        }
    }
}

/// A utf8 column's buffers: the text, where each row's text ends (after a
/// first 0), and whether each row is valid.
#[derive(Clone, Debug)]
struct Texts {
    /// UTF-8 (moves are ASCII, tags `&str`s), checked once when the
    /// array is made.
    text: Vec<u8>,
    offsets: Vec<i32>,
    valid: Vec<bool>,
}

impl Texts {
    fn with_capacity(rows: usize, bytes: usize) -> Texts {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        Texts {
            text: Vec::with_capacity(bytes),
            offsets,
            valid: Vec::with_capacity(rows),
        }
    }

    /// The end of the text as an offset: a batch holds far less than
    /// 2 GiB of it.
    fn end(&self) -> i32 {
        i32::try_from(self.text.len()).expect("a batch's text fits i32 offsets")
    }

    /// The moves in UCI as `notation` writes castling, null for none.
    fn extend_moves(
        &mut self,
        moves: impl Iterator<Item = Option<Move>>,
        notation: CastlingNotation,
    ) {
        self.text.reserve(moves.size_hint().0 * 5);
        for mv in moves {
            if let Some(mv) = mv {
                push_uci(&mut self.text, mv, notation);
            }
            self.offsets.push(self.end());
            self.valid.push(mv.is_some());
        }
    }

    fn push_n(&mut self, value: Option<&str>, count: usize) {
        let start = self.end();
        let len = value.map_or(0, |value| value.len());
        if let Some(value) = value
            && count > 0
        {
            // Once, then doubled from what is written: a few copies where a
            // copy per row of a few bytes each cost a call apiece.
            let from = self.text.len();
            let total = len * count;
            self.text.reserve(total);
            self.text.extend_from_slice(value.as_bytes());
            while self.text.len() - from < total {
                let written = self.text.len() - from;
                self.text
                    .extend_from_within(from..from + written.min(total - written));
            }
        }
        self.end();
        // `end` checked the last offset: the ones before fit too.
        let len = len as i32;
        self.offsets
            .extend((1..=count as i32).map(|row| start + row * len));
        self.valid
            .extend(std::iter::repeat_n(value.is_some(), count));
    }

    fn clear(&mut self) {
        self.text.clear();
        self.offsets.truncate(1);
        self.valid.clear();
    }

    fn append(&mut self, other: &Texts) {
        let start = self.end();
        self.text.extend_from_slice(&other.text);
        self.end();
        // `end` checked the last offset: the ones before fit too.
        self.offsets
            .extend(other.offsets[1..].iter().map(|&end| start + end));
        self.valid.extend_from_slice(&other.valid);
    }

    /// The column's array, leaving room for `rows` more.
    fn take(&mut self, rows: usize) -> StringArray {
        let room = self.text.capacity();
        let text = take_with_room(&mut self.text, room);
        let offsets = take_with_room(&mut self.offsets, rows + 1);
        self.offsets.push(0);
        StringArray::new(
            OffsetBuffer::new(ScalarBuffer::from(offsets)),
            Buffer::from(text),
            nulls(&mut self.valid, rows),
        )
    }
}

/// `mv` in UCI as `notation` writes castling ([`Move::uci`]'s text),
/// appended to `text`: the four or five bytes at once.
fn push_uci(text: &mut Vec<u8>, mv: Move, notation: CastlingNotation) {
    let (uci, len) = mv.uci(notation).ascii();
    text.extend_from_slice(&uci[..len]);
}

/// The rows a builder makes room for at once: a batch and a long game
/// more. Sized up front, the columns of a batch are allocated once rather
/// than doubled a dozen times: each doubling copies the column and faults
/// in fresh pages, which cost a quarter of `read_positions` on this
/// crate's 2-core machine.
fn batch_capacity(options: &PositionOptions) -> usize {
    options.batch_rows.min(BATCH_ROWS).saturating_add(1024)
}

impl PositionsBuilder {
    /// A builder for rows made with `options`.
    #[must_use]
    pub fn new(options: PositionOptions) -> PositionsBuilder {
        let schema = positions_schema(&options.columns);
        let rows = batch_capacity(&options);
        let columns = vec![Vec::new(); options.columns.len()];
        PositionsBuilder {
            options: Arc::new(options),
            schema,
            table: POSITION_TABLE
                .iter()
                .map(|column| RowBuilder::new(column.value, rows))
                .collect(),
            rows: 0,
            columns,
            kept: Vec::new(),
        }
    }

    /// The schema of the batches.
    #[must_use]
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The rows waiting for [`finish`](Self::finish).
    #[must_use]
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row waits.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Adds the rows of game number `game` (from 0) that the sample keeps.
    pub fn push(&mut self, game: u64, rows: &GameRows) {
        if self.options.sample.is_none() {
            self.push_all(game, rows, None);
            return;
        }
        self.kept.clear();
        self.kept
            .extend((0..rows.len()).filter(|&row| self.options.keeps(game, rows.ply[row])));
        for column in &mut self.table {
            column.push_rows(game, rows, &self.kept);
        }
        for (column, value) in self.columns.iter_mut().zip(&rows.columns) {
            column.extend(std::iter::repeat_n(value, self.kept.len()).cloned());
        }
        self.rows += self.kept.len();
    }

    /// Adds every row of game number `game`.
    fn push_all(&mut self, game: u64, rows: &GameRows, staged: Option<&Staged>) {
        let count = rows.len();
        for column in &mut self.table {
            column.push_all(game, rows, staged);
        }
        for (column, value) in self.columns.iter_mut().zip(&rows.columns) {
            column.extend(std::iter::repeat_n(value, count).cloned());
        }
        self.rows += count;
    }

    /// The rows pushed since the last batch, as a record batch.
    ///
    /// # Panics
    /// Never: the arrays match the schema by construction.
    pub fn finish(&mut self) -> RecordBatch {
        let rows = batch_capacity(&self.options);
        let mut arrays: Vec<ArrayRef> = self
            .table
            .iter_mut()
            .map(|column| column.finish(rows))
            .collect();
        for (name, values) in self.options.columns.iter().zip(&mut self.columns) {
            arrays.push(game_column(name, std::mem::take(values)));
        }
        self.rows = 0;
        RecordBatch::try_new(self.schema.clone(), arrays).expect("the arrays match the schema")
    }
}

/// A game column's values, typed as in the game table (`plies`, the
/// only one a row carries that is not a tag, as the integer it is).
fn game_column(name: &str, values: Vec<Option<String>>) -> ArrayRef {
    let value = GAME_TABLE
        .iter()
        .find(|column| column.name == name)
        .map_or(Value::Tag(TagKind::Text), |column| column.value);
    let values = values.iter().map(Option::as_deref);
    match value {
        Value::Tag(TagKind::Int) | Value::Int(_) => {
            Arc::new(Int32Array::from_iter(values.map(|v| v.and_then(parse_int))))
        }
        Value::Tag(TagKind::Date) => Arc::new(Date32Array::from_iter(
            values.map(|v| v.and_then(parse_date)),
        )),
        Value::Tag(TagKind::Time) => {
            Arc::new(Time32MillisecondArray::from_iter(values.map(|v| {
                v.and_then(parse_time).map(|seconds| seconds as i32 * 1000)
            })))
        }
        // Rows carry tags and `plies` only (`PositionOptions::check`).
        Value::Tag(TagKind::Text)
        | Value::Text(_)
        | Value::Moves(_)
        | Value::Clocks(_)
        | Value::Evals(_) => Arc::new(arrow_array::StringArray::from_iter(values)),
    }
}

/// What [`for_each_batch`] read.
#[derive(Debug, Default)]
pub struct Summary {
    /// Games read (with or without rows), errors included.
    pub games: u64,
    /// Rows made.
    pub rows: u64,
    /// The games that failed, with their errors (their rows left out).
    pub errors: Vec<PgnError>,
}

/// Rows per batch in [`for_each_batch`] by default.
pub const BATCH_ROWS: usize = 1 << 16;

/// The rows a worker's builder makes room for at once: a chunk of the
/// input holds about a hundred games.
const CHUNK_ROWS: usize = 1 << 13;

/// Reads every game of `input` (decompressed already) on `threads` threads
/// (all cores when None) and hands `each` the rows as record batches of
/// [`PositionOptions::batch_rows`] rows (the last one fewer), in file
/// order. The rows of each chunk of the input are made and built into a
/// batch on the worker thread that read it; the calling thread numbers the
/// games in the input, draws the sample and joins the chunks' batches. The
/// input's first game is number `first_game` (0 for one input; the games
/// read before, for the next of several).
///
/// # Errors
/// [`ReadError::Io`] when the input fails, [`ReadError::NotPgn`] when it
/// is not PGN, [`ReadError::Io`] of kind `InvalidInput` for options that
/// [`PositionOptions::check`] refuses. A game that fails is left out and
/// counted in [`Summary::errors`].
pub fn for_each_batch(
    input: impl Read + Send,
    options: &PositionOptions,
    threads: Option<usize>,
    first_game: u64,
    each: impl FnMut(RecordBatch),
) -> Result<Summary, ReadError> {
    let reader = ParallelReader::new(input).threads_or_default(threads);
    for_each_batch_of(reader, options, first_game, each)
}

/// [`for_each_batch`] with a reader of the caller's: one over text held
/// in memory ([`ParallelReader::in_memory`]: a memory-mapped file is read
/// where it lies, not copied), or one that reports or stops the reading
/// ([`ParallelReader::on_cut`]), on the reader's threads. Its chunk size
/// is set here, as `for_each_batch` sets it.
///
/// ```
/// use bitboards_pgn::ParallelReader;
/// use bitboards_pgn::positions::{self, PositionOptions};
///
/// let pgn = b"1. e4 e5 2. Nf3 *\n\n1. d4 *\n".to_vec();
/// let mut rows = 0;
/// let reader = ParallelReader::in_memory(pgn).threads(1);
/// let summary = positions::for_each_batch_of(reader, &PositionOptions::default(), 0, |batch| {
///     rows += batch.num_rows();
/// })?;
/// // A row for the position before each move.
/// assert_eq!((rows, summary.games), (4, 2));
/// # Ok::<(), bitboards_pgn::ReadError>(())
/// ```
///
/// # Errors
/// As [`for_each_batch`]'s.
pub fn for_each_batch_of<R: Read + Send>(
    reader: ParallelReader<R>,
    options: &PositionOptions,
    first_game: u64,
    each: impl FnMut(RecordBatch),
) -> Result<Summary, ReadError> {
    let invalid = |message: String| {
        ReadError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            message,
        ))
    };
    options.check().map_err(invalid)?;
    let mut summary = Summary::default();
    // Chunks of one size whatever the thread count, so that the batches as
    // built ([`AS_BUILT`]) are the same rows, and a Parquet file written
    // from them the same bytes.
    let reader = reader.chunk_size(CHUNK_BYTES);
    let template = PositionsVisitor::staged(options.clone());
    // A worker keeps every row of a game and numbers the games within its
    // chunk: the sample, which hashes the game's number in the input, is
    // drawn on delivery.
    let chunk_options = PositionOptions {
        sample: None,
        batch_rows: CHUNK_ROWS,
        ..options.clone()
    };
    let mut joined = JoinInto::new(options.batch_rows, each);
    reader.for_each_chunk(
        || {
            (
                template.clone(),
                PositionsBuilder::new(chunk_options.clone()),
            )
        },
        |visitor, builder, game, error| {
            if error.is_none() {
                builder.push_all(game as u64, visitor.rows(), visitor.staged.as_deref());
            }
        },
        PositionsBuilder::finish,
        |chunk| {
            summary.games += chunk.games as u64;
            summary.errors.extend(chunk.errors);
            let batch = in_input(chunk.value, first_game + chunk.games_before as u64, options);
            if let Ok(batch) = &batch {
                summary.rows += batch.num_rows() as u64;
            }
            joined.push(batch);
        },
    )?;
    joined
        .finish()
        .map_err(|error| invalid(error.to_string()))?;
    Ok(summary)
}

/// A chunk's rows as its worker built them, its games numbered from 0,
/// with the games numbered in the input from `first` and the rows that
/// the sample leaves out left out.
fn in_input(
    batch: RecordBatch,
    first: u64,
    options: &PositionOptions,
) -> Result<RecordBatch, ArrowError> {
    let (schema, mut columns, _) = batch.into_parts();
    // Numbered in place (the worker's buffer is the batch's alone) rather
    // than copied to fresh pages.
    let placeholder: ArrayRef = Arc::new(UInt64Array::from(Vec::<u64>::new()));
    let games = std::mem::replace(&mut columns[GAME_AT], placeholder)
        .as_primitive_opt::<UInt64Type>()
        .ok_or_else(|| ArrowError::SchemaError("the game column is not uint64".into()))?
        .clone();
    let games = games
        .unary_mut(|game| game + first)
        .unwrap_or_else(|games| games.unary(|game| game + first));
    let keep = options.sample.and_then(|_| {
        let plies = columns[PLY_AT].as_primitive_opt::<UInt16Type>()?.values();
        Some(
            games
                .values()
                .iter()
                .zip(plies.iter())
                .map(|(&game, &ply)| options.keeps(game, ply))
                .collect::<BooleanArray>(),
        )
    });
    columns[GAME_AT] = Arc::new(games);
    let batch = RecordBatch::try_new(schema, columns)?;
    match keep {
        Some(keep) => arrow_select::filter::filter_record_batch(&batch, &keep),
        None => Ok(batch),
    }
}
