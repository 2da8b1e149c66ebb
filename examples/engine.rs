//! A small UCI chess engine built on `bitboards`.
//!
//! ```text
//! cargo run --release --example engine
//! ```
//!
//! It reads UCI commands from stdin and answers on stdout, so any UCI GUI
//! (or a pipe) can drive it: `uci`, `isready`, `ucinewgame`,
//! `setoption name UCI_Chess960 value true|false`,
//! `setoption name Book value <path>` (a Polyglot `.bin` book, played from by
//! weighted choice while the position is in it; `OwnBook` turns it off),
//! `setoption name SyzygyPath value <dirs>` (Syzygy endgame tables, the
//! directories separated as in `PATH`: played from at the root while the
//! position is in them, and probed in the search after captures and pawn
//! moves), `position startpos|fen <fen> [moves ...]`, `go depth N | movetime MS |
//! wtime/btime/winc/binc [movestogo N] | infinite`, `stop` and `quit`.
//! With `UCI_Chess960` on, castling is written as the king taking its own
//! rook (`e1h1`), as Chess960 GUIs expect; either form is read.
//!
//! The crate does the chess: legal move generation, copy-make `play_unchecked`, the
//! Polyglot key (`polyglot_key`), captures-only generation for the quiescence search,
//! `null_move`, `gives_check` and the static exchange evaluator `see`. What
//! is left here is the classic recipe, kept short:
//!
//! - iterative deepening over a negamax alpha-beta (principal variation
//!   search, null-move pruning, a one-ply late move reduction);
//! - a quiescence search over captures, losing ones (by SEE) skipped;
//! - move ordering: the hash move, good captures by MVV-LVA, killers,
//!   quiet moves by their piece-square gain, losing captures last;
//! - a transposition table keyed by the position's hash;
//! - draws by repetition (against the game's history too), the fifty-move
//!   rule and insufficient material;
//! - with Syzygy tables (`bitboards-syzygy`), the tables' best move at the
//!   root, and their win, draw or loss for positions of the search that a
//!   capture or pawn move has just brought into them;
//! - an evaluation of material and piece-square tables, tapered between the
//!   middlegame and the endgame.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use bitboards::book::{Book, Choose};
use bitboards::{CastlingNotation, Color, Move, MoveKind, MoveList, PieceKind, Position, Square};
use bitboards_syzygy::{Tablebase, Wdl};

// --- Scores ----------------------------------------------------------------

/// Above every score a search can return.
const INFINITY: i32 = 32_000;
/// The score of checkmating now; a mate `ply` half-moves from the root
/// scores `MATE - ply`, so shorter mates score higher.
const MATE: i32 = 31_000;
/// The deepest the search goes (extensions and quiescence included).
const MAX_PLY: usize = 128;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The score of a win the tables prove, `ply` half-moves from the root:
/// `TB_WIN - ply`, below every mate and above every evaluation.
const TB_WIN: i32 = 20_000;

/// Piece values in centipawns, by `PieceKind` (pawn, knight, bishop, rook,
/// queen, king): the same scale as `Position::see`.
const VALUE: [i32; 6] = [100, 300, 300, 500, 900, 0];

/// How much each piece counts towards "still the middlegame": 24 with all
/// the pieces on the board, 0 with only kings and pawns.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const FULL_PHASE: i32 = 24;

// --- Evaluation: material and piece-square tables --------------------------

// The tables read like a diagram from White's side: rank 8 on top, file a
// on the left. A white piece on `square` looks up
// `square.flip_rank().index()`, a black one `square.index()` (its mirror).

#[rustfmt::skip]
const PAWN_MIDDLEGAME: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     60,  60,  60,  60,  60,  60,  60,  60,
     20,  20,  25,  35,  35,  25,  20,  20,
      8,   8,  12,  25,  25,  12,   8,   8,
      0,   0,   5,  20,  20,   5,   0,   0,
      4,   0,   0,   5,   5,  -5,   0,   4,
      5,   8,   8, -15, -15,   8,   8,   5,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const PAWN_ENDGAME: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
    100, 100, 100, 100, 100, 100, 100, 100,
     55,  55,  55,  55,  55,  55,  55,  55,
     30,  30,  30,  30,  30,  30,  30,  30,
     15,  15,  15,  15,  15,  15,  15,  15,
      5,   5,   5,   5,   5,   5,   5,   5,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const KNIGHT: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -35, -15,   0,   5,   5,   0, -15, -35,
    -20,   5,  12,  18,  18,  12,   5, -20,
    -20,   5,  18,  22,  22,  18,   5, -20,
    -20,   0,  15,  22,  22,  15,   0, -20,
    -25,   5,  12,  12,  12,  12,   5, -25,
    -35, -15,   0,   5,   5,   0, -15, -35,
    -50, -30, -25, -20, -20, -25, -30, -50,
];

#[rustfmt::skip]
const BISHOP: [i32; 64] = [
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,  10,  10,   5,   0, -10,
    -10,   5,   5,  12,  12,   5,   5, -10,
    -10,   0,  12,  12,  12,  12,   0, -10,
    -10,  10,  10,  10,  10,  10,  10, -10,
    -10,   8,   0,   0,   0,   0,   8, -10,
    -20, -10, -12, -10, -10, -12, -10, -20,
];

#[rustfmt::skip]
const ROOK: [i32; 64] = [
      5,   5,   5,   5,   5,   5,   5,   5,
     15,  20,  20,  20,  20,  20,  20,  15,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -8,   0,   0,   0,   0,   0,   0,  -8,
      0,   0,   3,   8,   8,   5,   0,   0,
];

#[rustfmt::skip]
const QUEEN: [i32; 64] = [
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
     -5,   0,   5,   8,   8,   5,   0,  -5,
     -5,   0,   5,   8,   8,   5,   0,  -5,
    -10,   3,   5,   5,   5,   5,   0, -10,
    -10,   0,   3,   0,   0,   0,   0, -10,
    -20, -10, -10,  -3,  -5, -10, -10, -20,
];

#[rustfmt::skip]
const KING_MIDDLEGAME: [i32; 64] = [
    -40, -45, -45, -50, -50, -45, -45, -40,
    -40, -45, -45, -50, -50, -45, -45, -40,
    -40, -45, -45, -50, -50, -45, -45, -40,
    -35, -40, -40, -45, -45, -40, -40, -35,
    -25, -30, -30, -40, -40, -30, -30, -25,
    -15, -20, -20, -25, -25, -20, -20, -15,
     15,  15,   0,  -5,  -5,   0,  15,  15,
     20,  30,  12,   0,   0,  10,  30,  20,
];

#[rustfmt::skip]
const KING_ENDGAME: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -35, -15,  -5,   0,   0,  -5, -15, -35,
    -25,  -5,  15,  25,  25,  15,  -5, -25,
    -25,  -5,  25,  35,  35,  25,  -5, -25,
    -25,  -5,  25,  35,  35,  25,  -5, -25,
    -25,  -5,  15,  25,  25,  15,  -5, -25,
    -35, -20,  -5,   0,   0,  -5, -20, -35,
    -50, -35, -25, -25, -25, -25, -35, -50,
];

/// The tables by `PieceKind`, for each end of the game.
const MIDDLEGAME: [&[i32; 64]; 6] = [
    &PAWN_MIDDLEGAME,
    &KNIGHT,
    &BISHOP,
    &ROOK,
    &QUEEN,
    &KING_MIDDLEGAME,
];
const ENDGAME: [&[i32; 64]; 6] = [
    &PAWN_ENDGAME,
    &KNIGHT,
    &BISHOP,
    &ROOK,
    &QUEEN,
    &KING_ENDGAME,
];

/// Where `square` is in the tables for a piece of `color`.
fn table_index(color: Color, square: Square) -> usize {
    match color {
        Color::White => square.flip_rank().index(),
        Color::Black => square.index(),
    }
}

/// The static evaluation in centipawns, from the side to move's point of
/// view (what negamax wants).
fn evaluate(position: &Position) -> i32 {
    let mut middlegame = 0;
    let mut endgame = 0;
    let mut phase = 0;
    for color in [Color::White, Color::Black] {
        let sign = if color == Color::White { 1 } else { -1 };
        for kind in PieceKind::ALL {
            let k = kind.index();
            for square in position.pieces(color, kind) {
                let i = table_index(color, square);
                middlegame += sign * (VALUE[k] + MIDDLEGAME[k][i]);
                endgame += sign * (VALUE[k] + ENDGAME[k][i]);
                phase += PHASE[k];
            }
        }
    }
    let phase = phase.min(FULL_PHASE);
    let mut score = (middlegame * phase + endgame * (FULL_PHASE - phase)) / FULL_PHASE;
    score += mop_up(position, Color::White) - mop_up(position, Color::Black);
    match position.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// A bonus for `winner` when the other side has nothing but its king: drive
/// that king to the edge and bring ours close, which is how the basic mates
/// are won. Without it a shallow search shuffles the pieces around.
fn mop_up(position: &Position, winner: Color) -> i32 {
    let loser = winner.opponent();
    let lone_king = position.by_color(loser).count() == 1;
    let material = position.by_color(winner).count() > 1;
    if !(lone_king && material) {
        return 0;
    }
    let theirs = position.king(loser);
    let ours = position.king(winner);
    let (file, rank) = (theirs.file().index() as i32, theirs.rank().index() as i32);
    let from_centre = (3 - file).max(file - 4) + (3 - rank).max(rank - 4);
    10 * from_centre + 4 * (14 - i32::from(ours.manhattan_distance(theirs)))
}

// --- The transposition table -----------------------------------------------

/// What a stored score says about the true score.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Bound {
    /// The exact score (a principal variation node).
    #[default]
    Exact,
    /// At least this much (the search failed high: a cutoff).
    Lower,
    /// At most this much (no move raised alpha).
    Upper,
}

/// One slot: 16 bytes. The best move is kept as `Move::to_bits`; whatever
/// comes back is only used if it is among the position's legal moves, so a
/// collision in the index costs a little time, never an illegal move.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    best: u16,
    score: i16,
    depth: i8,
    bound: Bound,
}

struct Table {
    entries: Vec<Entry>,
}

impl Table {
    /// 2^20 entries: 16 MiB.
    const SIZE: usize = 1 << 20;

    fn new() -> Table {
        Table {
            entries: vec![Entry::default(); Table::SIZE],
        }
    }

    fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    fn slot(&self, key: u64) -> usize {
        (key % self.entries.len() as u64) as usize
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries[self.slot(key)];
        (entry.key == key).then_some(entry)
    }

    /// Stores a search result, the score made relative to this node (see
    /// `shift_mate`). An entry for another position is always replaced; one for
    /// the same position unless it came from a much deeper search.
    fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        best: Option<Move>,
        ply: usize,
    ) {
        let slot = self.slot(key);
        let old = self.entries[slot];
        if old.key == key && i32::from(old.depth) > depth + 2 && bound != Bound::Exact {
            return;
        }
        // Keep the old best move when this search found none (all moves failed low).
        let best = match best {
            Some(mv) => mv.to_bits(),
            None if old.key == key => old.best,
            None => 0,
        };
        self.entries[slot] = Entry {
            key,
            best,
            score: shift_mate(score, ply as i32) as i16,
            depth: depth.clamp(0, i32::from(i8::MAX)) as i8,
            bound,
        };
    }
}

impl Entry {
    /// The score this entry settles at a node `ply` from the root searched
    /// with the window `alpha`..`beta`, if its bound settles it.
    fn cutoff(self, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let score = shift_mate(i32::from(self.score), -(ply as i32));
        match self.bound {
            Bound::Exact => Some(score),
            Bound::Lower if score >= beta => Some(score),
            Bound::Upper if score <= alpha => Some(score),
            _ => None,
        }
    }
}

/// A mate score counts plies from the root; the table stores it counted from
/// the node (`shift` = `ply`), so that an entry means the same wherever the
/// position recurs, and reading it back shifts by `-ply`.
fn shift_mate(score: i32, shift: i32) -> i32 {
    match score {
        _ if score > MATE_BOUND => score + shift,
        _ if score < -MATE_BOUND => score - shift,
        _ => score,
    }
}

// --- Move ordering ---------------------------------------------------------

const HASH_MOVE: i32 = 1 << 24;
const GOOD_CAPTURE: i32 = 1 << 20;
const QUEEN_PROMOTION: i32 = 1 << 19;
const KILLER: i32 = 1 << 18;
const BAD_CAPTURE: i32 = -(1 << 20);

/// The kind of piece `mv` captures, if any. Castling is stored as the king
/// taking its own rook, so it is no capture; en passant takes a pawn from a
/// square other than the target.
fn captured(position: &Position, mv: Move) -> Option<PieceKind> {
    match mv.kind() {
        MoveKind::EnPassant => Some(PieceKind::Pawn),
        MoveKind::Castling => None,
        _ => position.piece_on(mv.to()).map(|piece| piece.kind()),
    }
}

/// How early to try `mv`: higher first.
fn order_score(
    position: &Position,
    mv: Move,
    hash_move: Option<Move>,
    killers: [Option<Move>; 2],
) -> i32 {
    if hash_move == Some(mv) {
        return HASH_MOVE;
    }
    let piece = position
        .piece_on(mv.from())
        .map_or(PieceKind::Pawn, |piece| piece.kind());
    if let Some(victim) = captured(position, mv) {
        // Most valuable victim first, then least valuable attacker.
        let mvv_lva = 10 * VALUE[victim.index()] - VALUE[piece.index()];
        return if position.see_ge(mv, 0) {
            GOOD_CAPTURE + mvv_lva
        } else {
            BAD_CAPTURE + mvv_lva
        };
    }
    match mv.promotion() {
        Some(PieceKind::Queen) => return QUEEN_PROMOTION,
        Some(_) => return BAD_CAPTURE - 1,
        None => {}
    }
    if killers[0] == Some(mv) {
        return KILLER + 1;
    }
    if killers[1] == Some(mv) {
        return KILLER;
    }
    // Quiet moves: by how much the piece-square table likes the move.
    let color = position.side_to_move();
    let table = MIDDLEGAME[piece.index()];
    table[table_index(color, mv.king_target())] - table[table_index(color, mv.from())]
}

/// The moves of a list, best-scored first, picked one at a time: a cutoff
/// on the first move or two (the common case) sorts nothing else.
struct Ordered<'a> {
    moves: &'a [Move],
    scores: [i32; bitboards::MAX_MOVES],
}

impl<'a> Ordered<'a> {
    fn new(
        position: &Position,
        moves: &'a MoveList,
        hash_move: Option<Move>,
        killers: [Option<Move>; 2],
    ) -> Self {
        let mut scores = [0; bitboards::MAX_MOVES];
        for (score, &mv) in scores.iter_mut().zip(moves.iter()) {
            *score = order_score(position, mv, hash_move, killers);
        }
        Ordered {
            moves: moves.as_slice(),
            scores,
        }
    }
}

impl Iterator for Ordered<'_> {
    /// A move and its ordering score.
    type Item = (Move, i32);

    fn next(&mut self) -> Option<(Move, i32)> {
        const TAKEN: i32 = i32::MIN;
        let (index, score) = self.scores[..self.moves.len()]
            .iter()
            .copied()
            .enumerate()
            .filter(|&(_, score)| score != TAKEN)
            .max_by_key(|&(_, score)| score)?;
        self.scores[index] = TAKEN;
        Some((self.moves[index], score))
    }
}

// --- Input: a thread reads stdin, so a search can notice `stop` and `isready` ---

struct Input {
    lines: Receiver<String>,
    /// Lines that arrived during a search, to be handled after it.
    pending: VecDeque<String>,
    /// Stdin has closed: finish the current search, then exit.
    closed: bool,
    /// `quit` arrived during a search.
    quit: bool,
}

impl Input {
    fn spawn() -> Input {
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Input {
            lines,
            pending: VecDeque::new(),
            closed: false,
            quit: false,
        }
    }

    /// The next command, waiting for one; `None` once stdin has closed.
    fn next(&mut self) -> Option<String> {
        self.pending.pop_front().or_else(|| self.lines.recv().ok())
    }

    /// Between nodes of a search: whether the GUI asked to stop. `isready`
    /// is answered at once, as UCI wants; other commands wait their turn.
    fn poll_stop(&mut self) -> bool {
        loop {
            match self.lines.try_recv() {
                Ok(line) => match line.trim() {
                    "stop" => return true,
                    "quit" => {
                        self.quit = true;
                        return true;
                    }
                    "isready" => send("readyok"),
                    _ => self.pending.push_back(line),
                },
                Err(TryRecvError::Empty) => return false,
                Err(TryRecvError::Disconnected) => {
                    self.closed = true;
                    return false;
                }
            }
        }
    }
}

/// Writes one line to the GUI, flushed at once.
fn send(line: impl std::fmt::Display) {
    let mut out = io::stdout().lock();
    // A GUI that went away is not this process's problem: ignore write errors.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

// --- The search ------------------------------------------------------------

/// When to stop.
struct Limits {
    depth: i32,
    /// Stop searching, even mid-iteration, at this instant.
    hard: Option<Instant>,
    /// Start no new iteration after this instant.
    soft: Option<Instant>,
    /// `go infinite`: search until `stop` (or stdin closes).
    infinite: bool,
}

struct Search<'a> {
    table: &'a mut Table,
    input: &'a mut Input,
    limits: Limits,
    /// The hashes of the positions before the current node: the game's
    /// history, then the search path.
    path: Vec<u64>,
    killers: [[Option<Move>; 2]; MAX_PLY],
    nodes: u64,
    stopped: bool,
    /// The best move at the root in the current iteration.
    root_best: Option<Move>,
    /// The Syzygy tables (`SyzygyPath`), and how many positions of the
    /// search they answered.
    tables: Option<&'a Tablebase>,
    tb_hits: u64,
}

impl Search<'_> {
    /// Every 2048 nodes, look at the clock and the input.
    fn should_stop(&mut self) -> bool {
        if !self.stopped && self.nodes.is_multiple_of(2048) {
            let late = self.limits.hard.is_some_and(|hard| Instant::now() >= hard);
            let asked = self.input.poll_stop();
            let abandoned = self.limits.infinite && self.input.closed;
            self.stopped = late || asked || abandoned;
        }
        self.stopped
    }

    /// Whether the node is a draw by rule: a repetition of a position since
    /// the last capture or pawn move (one repetition is enough inside the
    /// search), the fifty-move rule, or too little material to mate.
    fn is_draw(&self, position: &Position, key: u64) -> bool {
        if position.halfmove_clock() >= 100 && !position.is_checkmate() {
            return true;
        }
        if position.is_insufficient_material() {
            return true;
        }
        // Same side to move: 2, 4, ... plies back, no further than the last
        // irreversible move.
        let back = usize::from(position.halfmove_clock()).min(self.path.len());
        self.path[self.path.len() - back..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&earlier| earlier == key)
    }

    fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let in_check = position.is_check();
        // Check extension: a check is searched one ply deeper, so that a
        // node in check is never left to the quiescence search.
        let depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 {
            return self.quiesce(position, ply, alpha, beta);
        }
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        let key = position.polyglot_key();
        if ply > 0 {
            if self.is_draw(position, key) {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return evaluate(position);
            }
        }

        // A null window: only "better than alpha or not" is asked.
        let scout = beta - alpha == 1;
        let entry = self.table.probe(key);
        let hash_move = entry.and_then(|entry| Move::from_bits(entry.best));
        if let Some(score) = entry
            .filter(|entry| scout && i32::from(entry.depth) >= depth)
            .and_then(|entry| entry.cutoff(ply, alpha, beta))
        {
            return score;
        }

        if ply > 0
            && let Some(score) = self.probe_tables(position, key, depth, ply)
        {
            return score;
        }

        let moves = position.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }

        if scout && let Some(score) = self.null_move_cutoff(position, key, depth, ply, beta) {
            return score;
        }

        let killers = self.killers[ply];
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut bound = Bound::Upper;
        for (index, (mv, order)) in Ordered::new(position, &moves, hash_move, killers).enumerate() {
            let child = position.play_unchecked(mv);
            // Plain quiet moves score near zero; killers, captures and
            // promotions far from it.
            let quiet = order.abs() < KILLER;
            self.path.push(key);
            let score = if index == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                // Principal variation search. A late quiet move that gives
                // no check starts one ply shallower.
                let reduction = i32::from(
                    depth >= 3 && index >= 3 && quiet && !in_check && !position.gives_check(mv),
                );
                self.search_later_move(&child, reduction, depth, ply, alpha, beta)
            };
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if ply == 0 {
                    self.root_best = Some(mv);
                }
                if score > alpha {
                    alpha = score;
                    bound = Bound::Exact;
                }
                if score >= beta {
                    bound = Bound::Lower;
                    // A quiet move that refutes here may refute the sibling
                    // positions too: remember it for this ply.
                    if quiet && killers[0] != Some(mv) {
                        self.killers[ply] = [Some(mv), killers[0]];
                    }
                    break;
                }
            }
        }
        self.table
            .store(key, depth, best_score, bound, best_move, ply);
        best_score
    }

    /// The tables' answer for a node a capture or pawn move has just
    /// reached (the halfmove clock at 0, as the tables assume), with no
    /// castling rights and few enough pieces: a win scores `TB_WIN - ply`,
    /// a loss its negation, a draw 0 (a win or loss the fifty-move rule
    /// turns into a draw, one centipawn off it). Taken as the node's score,
    /// as a mate would be: the search does not go on to find a shorter way,
    /// the root's probe plays the win out once it is there.
    fn probe_tables(
        &mut self,
        position: &Position,
        key: u64,
        depth: i32,
        ply: usize,
    ) -> Option<i32> {
        let tables = self.tables?;
        if position.halfmove_clock() != 0 || !in_tables(tables, position) {
            return None;
        }
        let wdl = tables.probe_wdl(position).ok()?;
        self.tb_hits += 1;
        let score = tablebase_score(wdl, ply as i32);
        self.table.store(key, depth, score, Bound::Exact, None, ply);
        Some(score)
    }

    /// Null-move pruning: the score to return when passing, searched
    /// shallower, still reaches beta (0 when the search stopped).
    fn null_move_cutoff(
        &mut self,
        position: &Position,
        key: u64,
        depth: i32,
        ply: usize,
        beta: i32,
    ) -> Option<i32> {
        // If passing still leaves us at or above beta after a reduced
        // search, a real move will too. Not in check (no null move exists),
        // and not with only king and pawns, where passing would be an
        // advantage (zugzwang) the pruning cannot see.
        let us = position.side_to_move();
        let pieces =
            position.by_color(us).count() - position.pieces(us, PieceKind::Pawn).count() - 1;
        if depth >= 3
            && pieces > 0
            && evaluate(position) >= beta
            && let Some(passed) = position.null_move()
        {
            let reduction = if depth >= 6 { 3 } else { 2 };
            self.path.push(key);
            let score = -self.negamax(&passed, depth - 1 - reduction, ply + 1, -beta, -beta + 1);
            self.path.pop();
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                // A mate found after passing is not a proven mate.
                return Some(score.min(MATE_BOUND));
            }
        }
        None
    }

    /// The score of a move after the first, by principal variation search:
    /// a null window first (`reduction` plies shallower), wider if it fails.
    fn search_later_move(
        &mut self,
        child: &Position,
        reduction: i32,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        // The first move is probably the best: prove this one worse with a
        // null window, and search again at full depth, then with the full
        // window, only when that fails.
        let mut score = -self.negamax(child, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
        if score > alpha && reduction > 0 {
            score = -self.negamax(child, depth - 1, ply + 1, -alpha - 1, -alpha);
        }
        if score > alpha && score < beta {
            score = -self.negamax(child, depth - 1, ply + 1, -beta, -alpha);
        }
        score
    }

    /// Quiescence: resolve the captures before trusting the static
    /// evaluation. The side to move may "stand pat" on the evaluation instead
    /// of capturing, except in check, where every evasion is searched.
    fn quiesce(&mut self, position: &Position, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(position);
        }
        let in_check = position.is_check();
        let mut best;
        let moves;
        if in_check {
            moves = position.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            best = -INFINITY;
        } else {
            let stand_pat = evaluate(position);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            moves = position.captures();
        }
        for (mv, order) in Ordered::new(position, &moves, None, [None; 2]) {
            // Captures that lose material by SEE are not worth a look.
            if !in_check && order < GOOD_CAPTURE {
                break;
            }
            let score = -self.quiesce(&position.play_unchecked(mv), ply + 1, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The principal variation: the root's best move, then the hash moves
    /// from there, as long as each is legal and no position repeats.
    fn principal_variation(&self, root: &Position, first: Move, depth: i32) -> Vec<Move> {
        let mut line = vec![first];
        let mut position = root.play_unchecked(first);
        let mut seen = vec![root.polyglot_key(), position.polyglot_key()];
        while line.len() < depth.max(1) as usize + 8 {
            let Some(mv) = self
                .table
                .probe(position.polyglot_key())
                .and_then(|entry| Move::from_bits(entry.best))
                .filter(|&mv| position.legal_moves().contains(&mv))
            else {
                break;
            };
            position = position.play_unchecked(mv);
            if seen.contains(&position.polyglot_key()) {
                break;
            }
            seen.push(position.polyglot_key());
            line.push(mv);
        }
        line
    }
}

/// Whether the tables can answer for `position`: no castling rights, and
/// no more pieces than their largest table holds.
fn in_tables(tables: &Tablebase, position: &Position) -> bool {
    position.castling_rooks().is_empty()
        && position.occupied().count() as usize <= tables.max_pieces()
}

/// The score of a result the tables give, `ply` half-moves from the root:
/// a win `TB_WIN - ply` (the sooner the better), a loss its negation, and a
/// win or loss the fifty-move rule turns into a draw one centipawn off it.
fn tablebase_score(wdl: Wdl, ply: i32) -> i32 {
    match wdl {
        Wdl::Win => TB_WIN - ply,
        Wdl::CursedWin => 1,
        Wdl::Draw => 0,
        Wdl::BlessedLoss => -1,
        Wdl::Loss => -TB_WIN + ply,
    }
}

/// A score as UCI writes it: `cp 35`, or `mate 3` (mating in 3 moves),
/// `mate -2` (mated in 2).
fn uci_score(score: i32) -> String {
    if score > MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

// --- The engine: the game so far and the UCI commands ----------------------

struct Engine {
    table: Table,
    /// The position to search from.
    root: Position,
    /// The hashes of the positions the game went through before `root`.
    history: Vec<u64>,
    /// How castling is written: the king's two-square step, or (with the
    /// `UCI_Chess960` option on) the king taking its own rook.
    castling: CastlingNotation,
    /// The opening book (`setoption name Book value PATH`), and whether to
    /// play from it (`OwnBook`, on by default).
    book: Option<Book<Vec<u8>>>,
    own_book: bool,
    /// The state of the generator behind the book's weighted choice.
    random: u64,
    /// The Syzygy tables of `setoption name SyzygyPath value DIRS`.
    tables: Option<Tablebase>,
}

impl Engine {
    fn new() -> Engine {
        Engine {
            table: Table::new(),
            root: Position::START,
            history: Vec::new(),
            castling: CastlingNotation::KingToTarget,
            book: None,
            own_book: true,
            random: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x9E37_79B9_7F4A_7C15, |since| since.as_nanos() as u64)
                | 1,
            tables: None,
        }
    }

    /// `setoption name SyzygyPath value DIRS`: the tables of every
    /// directory (separated as in `PATH`); `<empty>` or nothing turns them
    /// off. A directory that cannot be read is said, and the others used.
    fn set_syzygy_path(&mut self, value: &str) {
        self.tables = None;
        if value.is_empty() || value == "<empty>" {
            return;
        }
        let mut tables = Tablebase::new();
        for directory in std::env::split_paths(value) {
            if let Err(error) = tables.add_directory(&directory) {
                // The error names the directory.
                send(format_args!(
                    "info string cannot read the tablebase directory {error}"
                ));
            }
        }
        if tables.is_empty() {
            send(format_args!("info string no Syzygy tables in {value}"));
            return;
        }
        send(format_args!(
            "info string Syzygy tables: {} files, up to {} pieces",
            tables.len(),
            tables.max_pieces()
        ));
        self.tables = Some(tables);
    }

    /// The tables' best move at the root, when the root is in them (and its
    /// score, a win or loss as far from the root as its distance to
    /// zeroing): the quickest to zero of the moves that keep the result,
    /// under the fifty-move rule from the root's halfmove clock.
    fn tablebase_move(&self) -> Option<(Move, i32, usize)> {
        let tables = self.tables.as_ref()?;
        if !in_tables(tables, &self.root) {
            return None;
        }
        let ranked = tables.best_moves(&self.root).ok()?;
        let best = ranked.first()?;
        let clock = i32::from(self.root.halfmove_clock());
        let plies = best.dtz.0.abs();
        // Past the fifty-move rule's count, a win is a draw.
        let wdl = match best.wdl {
            Wdl::Win if plies + clock > 100 => Wdl::CursedWin,
            Wdl::Loss if plies + clock > 100 => Wdl::BlessedLoss,
            wdl => wdl,
        };
        Some((best.mv, tablebase_score(wdl, plies), ranked.len()))
    }

    /// A move from the book, if there is one for the root and the engine
    /// plays from it: a weighted choice, as the book's weights say.
    fn book_move(&mut self) -> Option<Move> {
        if !self.own_book {
            return None;
        }
        let book = self.book.as_ref()?;
        let state = &mut self.random;
        // xorshift64: enough to vary the openings.
        let mut random = || {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            *state
        };
        book.weighted_choice(&self.root, &Choose::default(), &mut random)
            .map(|entry| entry.mv)
    }

    /// `position startpos|fen <fen> [moves m1 m2 ...]`.
    fn set_position(&mut self, args: &str) -> Result<(), String> {
        let (setup, moves) = match args.split_once("moves") {
            Some((setup, moves)) => (setup.trim(), moves),
            None => (args.trim(), ""),
        };
        let mut position = match setup.split_once(' ') {
            _ if setup == "startpos" => Position::START,
            Some(("fen", fen)) => {
                Position::from_fen(fen.trim()).map_err(|error| format!("{fen}: {error}"))?
            }
            _ => return Err(format!("expected `startpos` or `fen`: `{setup}`")),
        };
        let mut history = Vec::new();
        for text in moves.split_whitespace() {
            let mv = position
                .parse_uci(text)
                .map_err(|e| format!("{text}: {e}"))?;
            history.push(position.polyglot_key());
            position = position.play_unchecked(mv);
        }
        self.root = position;
        self.history = history;
        Ok(())
    }

    /// `go ...`: search, print `info` lines per iteration, and answer the
    /// best move (`None` when there is no legal move).
    fn go(&mut self, args: &str, input: &mut Input) -> Option<Move> {
        if let Some(mv) = self.book_move() {
            send("info string book move");
            return Some(mv);
        }
        let start = Instant::now();
        if let Some((mv, score, probes)) = self.tablebase_move() {
            send("info string tablebase move");
            send(format_args!(
                "info depth 1 score {} nodes 0 time {} tbhits {probes} pv {}",
                uci_score(score),
                start.elapsed().as_millis(),
                mv.uci(self.castling)
            ));
            return Some(mv);
        }
        let limits = self.limits(args, start);
        let moves = self.root.legal_moves();
        let mut best = moves.iter().next().copied()?;

        let mut search = Search {
            table: &mut self.table,
            input,
            limits,
            path: self.history.clone(),
            killers: [[None; 2]; MAX_PLY],
            nodes: 0,
            stopped: false,
            root_best: None,
            tables: self.tables.as_ref(),
            tb_hits: 0,
        };
        for depth in 1..=search.limits.depth {
            let score = search.negamax(&self.root, depth, 0, -INFINITY, INFINITY);
            if search.stopped {
                // An unfinished iteration proves nothing: keep the last one.
                break;
            }
            best = search.root_best.unwrap_or(best);
            let elapsed = start.elapsed();
            let micros = elapsed.as_micros().max(1);
            let pv: Vec<String> = search
                .principal_variation(&self.root, best, depth)
                .iter()
                .map(|mv| mv.uci(self.castling).to_string())
                .collect();
            // `tbhits` only with tables, so that without them the line is
            // as it always was.
            let tb_hits = search
                .tables
                .map(|_| format!(" tbhits {}", search.tb_hits))
                .unwrap_or_default();
            send(format_args!(
                "info depth {depth} score {} nodes {} nps {} time {}{tb_hits} pv {}",
                uci_score(score),
                search.nodes,
                u128::from(search.nodes) * 1_000_000 / micros,
                elapsed.as_millis(),
                pv.join(" ")
            ));
            // A mate within the depth searched is the shortest there is.
            let mate_plies = MATE - score.abs();
            if mate_plies <= depth && !search.limits.infinite {
                break;
            }
            let late = search
                .limits
                .soft
                .is_some_and(|soft| Instant::now() >= soft);
            if late {
                break;
            }
        }
        Some(best)
    }

    /// Reads the `go` arguments into limits.
    fn limits(&self, args: &str, start: Instant) -> Limits {
        let mut depth = None;
        let mut movetime = None;
        let (mut time, mut increment, mut moves_to_go) = (None, 0, None);
        let mut infinite = false;
        let white = self.root.side_to_move() == Color::White;
        let mut words = args.split_whitespace();
        while let Some(word) = words.next() {
            // A missing or negative number (an overrun clock) reads as 0.
            let mut number = || words.next().and_then(|n| n.parse().ok()).unwrap_or(0u64);
            match word {
                "depth" => depth = Some(number()),
                "movetime" => movetime = Some(number()),
                "wtime" if white => time = Some(number()),
                "btime" if !white => time = Some(number()),
                "winc" if white => increment = number(),
                "binc" if !white => increment = number(),
                "movestogo" => moves_to_go = Some(number()),
                "infinite" => infinite = true,
                _ => {}
            }
        }
        let at = |millis: u64| Some(start + Duration::from_millis(millis));
        let (hard, soft) = if let Some(movetime) = movetime {
            (at(movetime), at(movetime))
        } else if let Some(time) = time {
            // About a thirtieth of what is left (or a share of the moves to
            // the next time control) plus half the increment, never more than
            // the clock holds minus a margin for the GUI's latency.
            let share = moves_to_go.map_or(30, |n| n.clamp(1, 30) + 1);
            let budget = (time / share + increment / 2)
                .min(time.saturating_sub(50))
                .max(1);
            (at(budget), at(budget / 2))
        } else {
            (None, None)
        };
        // With no limit at all (`go` or `go infinite`), search until `stop`.
        let infinite = infinite || (depth.is_none() && hard.is_none());
        let depth = depth.map_or(MAX_PLY as i32 - 1, |depth| {
            depth.clamp(1, MAX_PLY as u64 - 1) as i32
        });
        Limits {
            depth,
            hard,
            soft,
            infinite,
        }
    }
}

/// The name and value of `setoption name <name> value <value>` (the
/// arguments after `setoption`), or `None` when they are not in that form.
/// An empty value (`value` last) reads as "".
fn set_option(args: &str) -> Option<(&str, &str)> {
    let rest = args.trim().strip_prefix("name ")?;
    let (name, value) = match rest.split_once(" value ") {
        Some(split) => split,
        None => (rest.strip_suffix(" value")?, ""),
    };
    Some((name.trim(), value.trim()))
}

fn main() {
    let mut input = Input::spawn();
    let mut engine = Engine::new();
    while let Some(line) = input.next() {
        let line = line.trim();
        let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match command {
            "uci" => {
                send("id name bitboards example engine");
                send("id author the bitboards authors");
                send("option name UCI_Chess960 type check default false");
                send("option name OwnBook type check default true");
                send("option name Book type string default <empty>");
                send("option name SyzygyPath type string default <empty>");
                send("uciok");
            }
            "setoption" => match set_option(args) {
                Some(("UCI_Chess960", "true")) => engine.castling = CastlingNotation::KingTakesRook,
                Some(("UCI_Chess960", "false")) => engine.castling = CastlingNotation::KingToTarget,
                Some(("OwnBook", value)) => engine.own_book = value == "true",
                Some(("Book", "<empty>" | "")) => engine.book = None,
                Some(("SyzygyPath", value)) => engine.set_syzygy_path(value),
                Some(("Book", path)) => match Book::open(path) {
                    Ok(book) => engine.book = Some(book),
                    Err(error) => send(format_args!(
                        "info string cannot read the book {path}: {error}"
                    )),
                },
                _ => send(format_args!("info string unknown option: {args}")),
            },
            "isready" => send("readyok"),
            "ucinewgame" => engine.table.clear(),
            "position" => {
                if let Err(error) = engine.set_position(args) {
                    send(format_args!("info string position: {error}"));
                }
            }
            "go" => match engine.go(args, &mut input) {
                Some(best) => send(format_args!("bestmove {}", best.uci(engine.castling))),
                None => send("bestmove 0000"),
            },
            "quit" => break,
            // `stop` outside a search, and whatever UCI lets us ignore.
            _ => {}
        }
        if input.quit {
            break;
        }
    }
}
