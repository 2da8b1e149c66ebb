//! The tablebase answer of Lichess's `GET /standard` (tablebase.lichess.ovh,
//! lichess-org/api's `TablebaseJson`), from Syzygy tables.

use bitboards::{MoveKind, PieceKind, Position};
use bitboards_syzygy::{Dtz, Tablebase};
use serde::Serialize;

/// A position's or a move's result, in lila-tablebase's words, from the
/// side to move's view (after a move: the opponent's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Lost.
    Loss,
    /// Not in the tables.
    Unknown,
    /// Lost, or lost only past the fifty-move rule: the tables cannot tell
    /// with the halfmove clock counted.
    SyzygyLoss,
    /// Lost, maybe (depth to conversion tables; never from Syzygy alone).
    MaybeLoss,
    /// Lost, but the fifty-move rule saves it.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but the fifty-move rule saves the loser.
    CursedWin,
    /// Won, maybe.
    MaybeWin,
    /// Won, or won only past the fifty-move rule.
    SyzygyWin,
    /// Won.
    Win,
}

impl Category {
    /// The other side's view.
    #[must_use]
    pub fn flip(self) -> Category {
        match self {
            Category::Loss => Category::Win,
            Category::Win => Category::Loss,
            Category::SyzygyLoss => Category::SyzygyWin,
            Category::SyzygyWin => Category::SyzygyLoss,
            Category::MaybeLoss => Category::MaybeWin,
            Category::MaybeWin => Category::MaybeLoss,
            Category::BlessedLoss => Category::CursedWin,
            Category::CursedWin => Category::BlessedLoss,
            Category::Draw => Category::Draw,
            Category::Unknown => Category::Unknown,
        }
    }

    fn is_positive(self) -> bool {
        matches!(
            self,
            Category::CursedWin | Category::MaybeWin | Category::SyzygyWin | Category::Win
        )
    }

    /// The category of a distance to zeroing counted from a zeroing move:
    /// within 100 plies a result, past it a cursed or blessed one.
    fn from_distance(distance: i32) -> Category {
        match distance {
            ..-100 => Category::BlessedLoss,
            -100..0 => Category::Loss,
            0 => Category::Draw,
            1..=100 => Category::Win,
            _ => Category::CursedWin,
        }
    }
}

/// What a position is: its category, distance to zeroing, and the end of
/// the game when it is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionInfo {
    /// Checkmated.
    pub checkmate: bool,
    /// Stalemated.
    pub stalemate: bool,
    /// Always false: standard chess.
    pub variant_win: bool,
    /// Always false: standard chess.
    pub variant_loss: bool,
    /// Neither side can mate.
    pub insufficient_material: bool,
    /// Distance to zeroing (plies; -1 when checkmated, 0 for a draw);
    /// `null` when not in the tables.
    pub dtz: Option<i32>,
    /// The same, when the tables give it exactly (`null` where they count
    /// moves rather than plies, and the answer may be a ply more).
    pub precise_dtz: Option<i32>,
    /// Depth to mate: not known from Syzygy tables.
    pub dtm: Option<i32>,
    /// Antichess only.
    pub dtw: Option<i32>,
    /// Depth to conversion: not known from Syzygy tables.
    pub dtc: Option<i32>,
    /// The category.
    pub category: Category,
}

/// A legal move and what it leads to (for the opponent).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TablebaseMove {
    /// UCI, castling as `e1g1`.
    pub uci: String,
    /// SAN.
    pub san: String,
    /// A capture or a pawn move.
    pub zeroing: bool,
    /// A capture or a promotion.
    pub conversion: bool,
    /// The position after it.
    #[serde(flatten)]
    pub after: PositionInfo,
    /// The value of the piece it takes (0 for none) and of the piece it
    /// promotes to, for the order of moves.
    #[serde(skip)]
    values: (i32, i32),
}

/// The answer of `GET /standard`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TablebaseAnswer {
    /// The position.
    #[serde(flatten)]
    pub position: PositionInfo,
    /// Every legal move, best first.
    pub moves: Vec<TablebaseMove>,
}

/// The answer for `position` from `tables`, as lila-tablebase gives it
/// (Syzygy only: `dtm` and `dtc` are `null`).
///
/// ```
/// use bitboards::Position;
/// use bitboards_explorer::tablebase::{answer, Category};
/// use bitboards_syzygy::Tablebase;
///
/// let mut tables = Tablebase::new();
/// tables.add_directory("../../tests/data/syzygy")?;
/// let position = Position::from_fen("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")?;
/// let answer = answer(&tables, &position);
/// assert_eq!(answer.position.category, Category::Win);
/// assert_eq!(answer.moves[0].after.category, Category::Loss);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn answer(tables: &Tablebase, position: &Position) -> TablebaseAnswer {
    let mut moves: Vec<TablebaseMove> = position
        .legal_moves()
        .iter()
        .map(|&mv| {
            let after = position.play_unchecked(mv);
            let captured = if mv.kind() == MoveKind::EnPassant {
                Some(PieceKind::Pawn)
            } else if mv.is_castling() {
                None
            } else {
                position.piece_on(mv.to()).map(|piece| piece.kind())
            };
            let pawn = position
                .piece_on(mv.from())
                .is_some_and(|piece| piece.kind() == PieceKind::Pawn);
            TablebaseMove {
                uci: position.uci(mv).to_string(),
                san: position.san(mv).to_string(),
                zeroing: pawn || captured.is_some(),
                conversion: captured.is_some() || mv.promotion().is_some(),
                after: info(tables, &after),
                values: (
                    captured.map_or(0, piece_value),
                    mv.promotion().map_or(0, piece_value),
                ),
            }
        })
        .collect();
    moves.sort_by_key(rank);
    let mut root = info(tables, position);
    if let Some(best) = moves.first() {
        root.category = best.after.category.flip();
    }
    TablebaseAnswer {
        position: root,
        moves,
    }
}

/// How a move ranks, best first: the category it leaves the opponent,
/// mates, stalemates and dead draws first, then by distance to zeroing
/// (zeroing at once while winning, late while losing), captures of
/// bigger pieces and bigger promotions before the rest.
fn rank(mv: &TablebaseMove) -> (Category, bool, bool, bool, bool, bool, i32, i32, i32) {
    let positive = mv.after.category.is_positive();
    (
        mv.after.category,
        !mv.after.checkmate,
        !mv.after.stalemate,
        !mv.after.insufficient_material,
        mv.conversion == positive,
        mv.zeroing == positive,
        mv.after.dtz.map_or(i32::MIN, |dtz| -dtz),
        -mv.values.0,
        -mv.values.1,
    )
}

fn piece_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Knight => 2,
        PieceKind::Bishop => 3,
        PieceKind::Rook => 4,
        PieceKind::Queen => 5,
        PieceKind::King => 6,
    }
}

/// What `position` is, for its side to move.
fn info(tables: &Tablebase, position: &Position) -> PositionInfo {
    let checkmate = position.is_checkmate();
    let stalemate = position.is_stalemate();
    let insufficient_material = position.is_insufficient_material();
    let (category, dtz, precise) = if checkmate {
        (Category::Loss, Some(-1), true)
    } else if stalemate || insufficient_material {
        (Category::Draw, Some(0), true)
    } else {
        match tables.probe_dtz_precision(position) {
            Ok((Dtz(dtz), precise)) => {
                let clock = i32::from(position.halfmove_clock());
                let distance = if dtz > 0 {
                    dtz + clock
                } else if dtz < 0 {
                    dtz - clock
                } else {
                    0
                };
                let category = if clock == 0 {
                    Category::from_distance(dtz)
                } else {
                    match Category::from_distance(distance) {
                        // Past the rule only with the clock: the tables
                        // round, so it may or may not be in time.
                        Category::CursedWin if Category::from_distance(dtz) == Category::Win => {
                            Category::SyzygyWin
                        }
                        Category::BlessedLoss if Category::from_distance(dtz) == Category::Loss => {
                            Category::SyzygyLoss
                        }
                        category => category,
                    }
                };
                (category, Some(dtz), precise)
            }
            Err(_) => (Category::Unknown, None, false),
        }
    };
    PositionInfo {
        checkmate,
        stalemate,
        variant_win: false,
        variant_loss: false,
        insufficient_material,
        dtz,
        precise_dtz: dtz.filter(|_| precise),
        dtm: None,
        dtw: None,
        dtc: None,
        category,
    }
}
