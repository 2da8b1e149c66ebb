//! Analyses as Arrow record batches: one row per PV of each position
//! searched, beside the position's piece boards (feature `arrow`).
//!
//! The `bitboards analyse` command writes these rows to Parquet, and
//! Python's `bitboards.engine.analyse_many` returns them as a
//! `pyarrow.Table`. The columns, in order:
//!
//! | column | Arrow type | what |
//! | --- | --- | --- |
//! | `game` | uint64 | the game's (or the FEN's) number in the input, from 0 |
//! | `ply` | uint16 | plies played from the game's start to the position (0 for a FEN) |
//! | `fen` | utf8 | the position searched |
//! | `bitboards` | fixed_size_list\<uint64, 12\> | White's pawns, knights, bishops, rooks, queens, king, then Black's; a1 = bit 0 (as in the positions table of `bitboards-pgn`) |
//! | `turn` | bool | true when White is to move |
//! | `multipv` | uint16 | the PV's rank, from 1 |
//! | `best` | utf8, nullable | the PV's first move in UCI (rank 1: the engine's `bestmove`); null when there is no legal move |
//! | `cp` | int32, nullable | centipawns, White's view; null for a mate score |
//! | `mate` | int32, nullable | moves to mate, White's view (positive: White mates); 0 when the side to move is checkmated; null for centipawns |
//! | `wdl` | struct\<win, draw, loss: uint16\>, nullable | permille, White's view, when the engine gives it (`UCI_ShowWDL`) |
//! | `depth` | uint32, nullable | the depth the PV comes from |
//! | `seldepth` | uint32, nullable | the selective depth |
//! | `nodes` | uint64, nullable | nodes searched |
//! | `pv` | list\<utf8\> | the PV in UCI, cut at the first illegal move |
//!
//! A position the engine gave no `info` line with a score or PV for still
//! has a row (rank 1, its best move, the rest null).
//!
//! ```
//! use bitboards::Position;
//! use bitboards_engine::table::{analysis_schema, AnalysisBuilder};
//!
//! let mut builder = AnalysisBuilder::new();
//! assert!(builder.is_empty());
//! let batch = builder.finish();
//! assert_eq!(batch.schema(), analysis_schema());
//! assert_eq!(batch.schema().field(2).name(), "fen");
//! ```

use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use arrow_array::builder::{ListBuilder, StringBuilder, StructBuilder, UInt16Builder};
use arrow_array::{
    ArrayRef, BooleanArray, FixedSizeListArray, Int32Array, RecordBatch, UInt16Array, UInt32Array,
    UInt64Array,
};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use bitboards::{Color, Move, Position};

use crate::engine::Analysis;
use crate::info::{Info, Score};

/// The column names, in order.
pub const ANALYSIS_COLUMNS: [&str; 14] = [
    "game",
    "ply",
    "fen",
    "bitboards",
    "turn",
    "multipv",
    "best",
    "cp",
    "mate",
    "wdl",
    "depth",
    "seldepth",
    "nodes",
    "pv",
];

fn wdl_fields() -> Fields {
    Fields::from(vec![
        Field::new("win", DataType::UInt16, false),
        Field::new("draw", DataType::UInt16, false),
        Field::new("loss", DataType::UInt16, false),
    ])
}

fn boards_type() -> DataType {
    DataType::FixedSizeList(Arc::new(Field::new_list_field(DataType::UInt64, false)), 12)
}

fn pv_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::Utf8, false)))
}

/// The schema of the analysis table (the [module](self)'s docs list the
/// columns).
///
/// ```
/// use bitboards_engine::table::{analysis_schema, ANALYSIS_COLUMNS};
///
/// let schema = analysis_schema();
/// let names: Vec<&str> = schema.fields().iter().map(|field| field.name().as_str()).collect();
/// assert_eq!(names, ANALYSIS_COLUMNS);
/// ```
#[must_use]
pub fn analysis_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    Arc::clone(SCHEMA.get_or_init(|| {
        Arc::new(Schema::new(vec![
            Field::new("game", DataType::UInt64, false),
            Field::new("ply", DataType::UInt16, false),
            Field::new("fen", DataType::Utf8, false),
            Field::new("bitboards", boards_type(), false),
            Field::new("turn", DataType::Boolean, false),
            Field::new("multipv", DataType::UInt16, false),
            Field::new("best", DataType::Utf8, true),
            Field::new("cp", DataType::Int32, true),
            Field::new("mate", DataType::Int32, true),
            Field::new("wdl", DataType::Struct(wdl_fields()), true),
            Field::new("depth", DataType::UInt32, true),
            Field::new("seldepth", DataType::UInt32, true),
            Field::new("nodes", DataType::UInt64, true),
            Field::new("pv", pv_type(), false),
        ]))
    }))
}

/// Rows of analyses, built up and taken as a [`RecordBatch`].
///
/// ```no_run
/// use bitboards::Position;
/// use bitboards_engine::table::AnalysisBuilder;
/// use bitboards_engine::{Engine, Limit};
///
/// let mut engine = Engine::start("/usr/games/stockfish", [] as [&str; 0])?;
/// let analysis = engine.analyse(&Position::START, &Limit::nodes(10_000), 3)?;
/// let mut builder = AnalysisBuilder::new();
/// builder.push(0, 0, &analysis);
/// let batch = builder.finish();
/// assert_eq!(batch.num_rows(), 3); // one row per PV
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct AnalysisBuilder {
    game: Vec<u64>,
    ply: Vec<u16>,
    fen: StringBuilder,
    boards: Vec<u64>,
    turn: Vec<bool>,
    multipv: Vec<u16>,
    best: StringBuilder,
    cp: Vec<Option<i32>>,
    mate: Vec<Option<i32>>,
    wdl: StructBuilder,
    depth: Vec<Option<u32>>,
    seldepth: Vec<Option<u32>>,
    nodes: Vec<Option<u64>>,
    pv: ListBuilder<StringBuilder>,
    /// A position's FEN or a move's text, reused.
    text: String,
}

impl Default for AnalysisBuilder {
    fn default() -> Self {
        AnalysisBuilder::new()
    }
}

impl AnalysisBuilder {
    /// An empty builder.
    #[must_use]
    pub fn new() -> AnalysisBuilder {
        AnalysisBuilder {
            game: Vec::new(),
            ply: Vec::new(),
            fen: StringBuilder::new(),
            boards: Vec::new(),
            turn: Vec::new(),
            multipv: Vec::new(),
            best: StringBuilder::new(),
            cp: Vec::new(),
            mate: Vec::new(),
            wdl: new_wdl_builder(),
            depth: Vec::new(),
            seldepth: Vec::new(),
            nodes: Vec::new(),
            pv: new_pv_builder(),
            text: String::new(),
        }
    }

    /// The rows pushed and not yet taken.
    #[must_use]
    pub fn len(&self) -> usize {
        self.game.len()
    }

    /// Whether no row is waiting.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }

    /// Appends the rows of one analysis: one per PV, best first, of the
    /// position `analysis.position`, numbered `game` and `ply` (a ply
    /// beyond 65,535 is written as 65,535).
    pub fn push(&mut self, game: u64, ply: usize, analysis: &Analysis) {
        let position = &analysis.position;
        if analysis.infos.is_empty() {
            self.push_row(game, ply, position, 1, analysis.best, None);
        } else {
            for (rank, info) in analysis.infos.iter().enumerate() {
                let best = if rank == 0 {
                    analysis.best.or_else(|| info.pv.first().copied())
                } else {
                    info.pv.first().copied()
                };
                let multipv = if info.multipv == 0 {
                    u16::try_from(rank + 1).unwrap_or(u16::MAX)
                } else {
                    u16::try_from(info.multipv).unwrap_or(u16::MAX)
                };
                self.push_row(game, ply, position, multipv, best, Some(info));
            }
        }
    }

    fn push_row(
        &mut self,
        game: u64,
        ply: usize,
        position: &Position,
        multipv: u16,
        best: Option<Move>,
        info: Option<&Info>,
    ) {
        let notation = position.castling_notation();
        self.game.push(game);
        self.ply.push(u16::try_from(ply).unwrap_or(u16::MAX));
        self.text.clear();
        let _ = write!(self.text, "{}", position.fen());
        self.fen.append_value(&self.text);
        self.boards
            .extend(position.piece_boards().map(|board| board.0));
        self.turn.push(position.side_to_move() == Color::White);
        self.multipv.push(multipv);
        match best {
            Some(mv) => {
                self.text.clear();
                let _ = write!(self.text, "{}", mv.uci(notation));
                self.best.append_value(&self.text);
            }
            None => self.best.append_null(),
        }
        let score = info.and_then(Info::white_score);
        self.cp.push(score.and_then(Score::cp));
        self.mate.push(score.and_then(Score::mate));
        let wdl = info.and_then(|info| {
            info.wdl.map(|wdl| match info.turn {
                Color::White => wdl,
                Color::Black => wdl.flip(),
            })
        });
        let values = wdl.map_or([0; 3], |wdl| {
            [wdl.win, wdl.draw, wdl.loss].map(|value| u16::try_from(value).unwrap_or(u16::MAX))
        });
        for (at, value) in values.into_iter().enumerate() {
            if let Some(field) = self.wdl.field_builder::<UInt16Builder>(at) {
                field.append_value(value);
            }
        }
        self.wdl.append(wdl.is_some());
        self.depth.push(info.and_then(|info| info.depth));
        self.seldepth.push(info.and_then(|info| info.seldepth));
        self.nodes.push(info.and_then(|info| info.nodes));
        for &mv in info.map_or(&[][..], |info| info.pv.as_slice()) {
            self.text.clear();
            let _ = write!(self.text, "{}", mv.uci(notation));
            self.pv.values().append_value(&self.text);
        }
        self.pv.append(true);
    }

    /// The rows pushed, as a batch of [`analysis_schema`]; the builder is
    /// left empty.
    pub fn finish(&mut self) -> RecordBatch {
        let rows = self.len();
        let columns: Vec<ArrayRef> = vec![
            Arc::new(UInt64Array::from(std::mem::take(&mut self.game))),
            Arc::new(UInt16Array::from(std::mem::take(&mut self.ply))),
            Arc::new(self.fen.finish()),
            Arc::new(FixedSizeListArray::new(
                Arc::new(Field::new_list_field(DataType::UInt64, false)),
                12,
                Arc::new(UInt64Array::from(std::mem::take(&mut self.boards))),
                None,
            )),
            Arc::new(BooleanArray::from(std::mem::take(&mut self.turn))),
            Arc::new(UInt16Array::from(std::mem::take(&mut self.multipv))),
            Arc::new(self.best.finish()),
            Arc::new(Int32Array::from(std::mem::take(&mut self.cp))),
            Arc::new(Int32Array::from(std::mem::take(&mut self.mate))),
            Arc::new(self.wdl.finish()),
            Arc::new(UInt32Array::from(std::mem::take(&mut self.depth))),
            Arc::new(UInt32Array::from(std::mem::take(&mut self.seldepth))),
            Arc::new(UInt64Array::from(std::mem::take(&mut self.nodes))),
            Arc::new(self.pv.finish()),
        ];
        debug_assert!(columns.iter().all(|column| column.len() == rows));
        // The columns are built to the schema, row for row: a mismatch is
        // a bug in this module, and an empty batch of the schema is the
        // answer that loses nothing already taken.
        RecordBatch::try_new(analysis_schema(), columns)
            .unwrap_or_else(|_| RecordBatch::new_empty(analysis_schema()))
    }
}

fn new_wdl_builder() -> StructBuilder {
    StructBuilder::from_fields(wdl_fields(), 0)
}

fn new_pv_builder() -> ListBuilder<StringBuilder> {
    ListBuilder::new(StringBuilder::new())
        .with_field(Arc::new(Field::new_list_field(DataType::Utf8, false)))
}
