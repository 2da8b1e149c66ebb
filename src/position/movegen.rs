//! Legal move generation.
//!
//! Moves are generated legal, not pseudo-legal and filtered: a check mask
//! (the squares that answer a single check), the pinned pieces (each
//! restricted to the line through its king and its pinner), king targets
//! tested against the enemy's attacks with the king lifted off the board,
//! and an exact test for the two moves that break these rules (en passant,
//! which removes two pieces from a line, and castling).
//!
//! One generator serves every use through a [`Sink`]: it hands over sets of
//! targets per piece, so that counting (perft's last ply) is a population
//! count and never builds a move, and listing builds each move once. The
//! side to move is a const parameter, so pawn directions are constants.
//!
//! A [`Filter`] narrows generation to moves from and to chosen squares
//! (captures only, one piece's moves, ...): pieces outside its origin set
//! are never looked at and targets outside its target set never reach the
//! sink, so a narrow request costs less than generating everything and
//! filtering. Unfiltered generation passes [`Filter::ALL`], a constant the
//! compiler folds away.

use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{CastlingSide, Position};
use crate::{Bitboard, Color, File, PieceKind, Rank, Square, attacks, between, line};

/// The slider lookups move generation uses: the magic tables by default,
/// PEXT with feature `pext` (x86-64 with BMI2).
mod sliders {
    #[cfg(feature = "pext")]
    pub(crate) use crate::attacks::pext::{bishop, queen, rook};
    #[cfg(not(feature = "pext"))]
    pub(crate) use crate::attacks::{bishop, queen, rook};
}

/// Receives generated moves, grouped as generation finds them.
pub(crate) trait Sink {
    /// Normal moves of the `kind` on `from` to each square of `targets` (a
    /// pawn's here too, never onto its last rank).
    fn moves(&mut self, kind: PieceKind, from: Square, targets: Bitboard);
    /// Pawn moves to each square of `targets`, each from the square `delta`
    /// behind it (`from = to - delta`), none onto the last rank.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8);
    /// The non-promoting moves of the unpinned pawns, as four
    /// [`Sink::pawn_moves`] sets: single pushes, double pushes, captures to
    /// one side and to the other.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn pawn_sets(&mut self, sets: [(Bitboard, i8); 4]) {
        for (targets, delta) in sets {
            self.pawn_moves(targets, delta);
        }
    }
    /// Promotions, to each piece, on each square of `targets`, each from the
    /// square `delta` behind it.
    ///
    /// By default each promotion is handed to [`Sink::one`].
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = behind(to, delta);
            for piece in PROMOTIONS {
                self.one(Move::new(from, to, MoveKind::Promotion(piece)));
            }
        }
    }
    /// One move of any kind (en passant and castling).
    fn one(&mut self, mv: Move);
}

/// Counts moves without building them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn moves(&mut self, _: PieceKind, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn pawn_moves(&mut self, targets: Bitboard, _: i8) {
        self.0 += u64::from(targets.count());
    }

    /// Pushes go to empty squares and captures to enemy ones, so the four
    /// sets are disjoint but where both captures reach one square: one
    /// population count for all of them in nearly every position.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn pawn_sets(&mut self, [single, double, left, right]: [(Bitboard, i8); 4]) {
        self.0 += u64::from((single.0 | double.0 | left.0 | right.0).count());
        let both = left.0 & right.0;
        if !both.is_empty() {
            self.0 += u64::from(both.count());
        }
    }

    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn promotions(&mut self, targets: Bitboard, _: i8) {
        self.0 += 4 * u64::from(targets.count());
    }

    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// The four pieces a pawn may become, the queen first.
pub(crate) const PROMOTIONS: [PieceKind; 4] = [
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
];

/// The square `delta` before `to`: the origin of a pawn move.
#[cfg_attr(not(bitboards_unoptimized), inline(always))]
pub(crate) fn behind(to: Square, delta: i8) -> Square {
    // Generation only passes deltas whose origin is on the board.
    match Square::new((to as u8).wrapping_sub(delta as u8)) {
        Some(square) => square,
        None => to,
    }
}

impl Sink for MoveList {
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn moves(&mut self, _: PieceKind, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            self.push(Move::new(behind(to, delta), to, MoveKind::Normal));
        }
    }

    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn one(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Which legal moves generation hands over: those from a square of `from`
/// to a square of `to`, en passant only when `en_passant` says so (its
/// target square is empty, so a target set of enemy pieces cannot name it).
#[derive(Clone, Copy)]
pub(crate) struct Filter {
    pub from: Bitboard,
    pub to: Bitboard,
    pub en_passant: bool,
}

impl Filter {
    /// Every legal move.
    pub const ALL: Filter = Filter {
        from: Bitboard::FULL,
        to: Bitboard::FULL,
        en_passant: true,
    };
}

/// What every piece's generation needs to know about the position, worked
/// out once.
#[derive(Clone, Copy)]
pub(crate) struct Checks {
    /// The pieces giving check.
    pub checkers: Bitboard,
    /// Our pieces pinned to our king.
    pub pinned: Bitboard,
}

impl Position {
    /// `color`'s sliders by the lines they move along: rooks and queens,
    /// then bishops and queens.
    #[inline]
    pub(crate) const fn sliders(&self, color: Color) -> (Bitboard, Bitboard) {
        let queens = self.by_kind(PieceKind::Queen);
        let theirs = self.by_color(color);
        let straight = self
            .by_kind(PieceKind::Rook)
            .union(queens)
            .intersection(theirs);
        let diagonal = self
            .by_kind(PieceKind::Bishop)
            .union(queens)
            .intersection(theirs);
        (straight, diagonal)
    }

    /// The knights and pawns that give check to the side to move.
    #[inline]
    pub(crate) const fn leaper_checkers(&self) -> Bitboard {
        let us = self.side_to_move();
        let king = self.king(us);
        attacks::knight(king)
            .intersection(self.by_kind(PieceKind::Knight))
            .union(attacks::pawn(us, king).intersection(self.by_kind(PieceKind::Pawn)))
            .intersection(self.by_color(us.opponent()))
    }

    /// The checkers of the side to move and its pinned pieces: the one
    /// place checkers are computed ([`Position::checkers`] is this). A
    /// `const fn`, so the slider lookups are the magic tables' even with
    /// feature `pext` (two lookups at most, only when a slider is on the
    /// king's empty-board rays).
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    pub(crate) const fn checks(&self) -> Checks {
        let us = self.side_to_move();
        let them = us.opponent();
        let king = self.king(us);
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let occupied = ours.union(theirs);
        let (straight, diagonal) = self.sliders(them);
        let mut checkers = self.leaper_checkers();
        let mut pinned = Bitboard::EMPTY;
        // Sliders that would see the king if only their own side's pieces
        // blocked: with nothing between they check, with one of ours they pin.
        let mut snipers = Bitboard::EMPTY;
        if !attacks::rook_rays(king).intersection(straight).is_empty() {
            snipers = snipers.union(attacks::rook(king, theirs).intersection(straight));
        }
        if !attacks::bishop_rays(king).intersection(diagonal).is_empty() {
            snipers = snipers.union(attacks::bishop(king, theirs).intersection(diagonal));
        }
        while let Some(sniper) = snipers.pop() {
            let blockers = between(king, sniper).intersection(occupied);
            if blockers.is_empty() {
                checkers.set(sniper);
            } else if !blockers.has_more_than_one() {
                pinned = pinned.union(blockers.intersection(ours));
            }
        }
        Checks { checkers, pinned }
    }

    /// Whether a bishop, rook or queen of `them` attacks `square` when the
    /// board holds `occupied`: a lookup only when one stands on the
    /// square's empty-board rays at all.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    pub(super) fn attacked_by_slider(
        &self,
        square: Square,
        them: Color,
        occupied: Bitboard,
    ) -> bool {
        let theirs = self.by_color(them);
        let queens = self.by_kind(PieceKind::Queen);
        let diagonal = (self.by_kind(PieceKind::Bishop) | queens) & theirs;
        if !(attacks::bishop_rays(square) & diagonal).is_empty()
            && !(sliders::bishop(square, occupied) & diagonal).is_empty()
        {
            return true;
        }
        let straight = (self.by_kind(PieceKind::Rook) | queens) & theirs;
        !(attacks::rook_rays(square) & straight).is_empty()
            && !(sliders::rook(square, occupied) & straight).is_empty()
    }

    /// Hands every legal move to `sink`.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        self.generate_filtered(sink, Filter::ALL);
    }

    /// Hands the legal moves that `filter` lets through to `sink`.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    pub(crate) fn generate_filtered<S: Sink>(&self, sink: &mut S, filter: Filter) {
        // An unoptimised build (`cfg(bitboards_unoptimized)`, set by
        // build.rs at opt-level 0) compiles one generator for all sinks,
        // called through `dyn Sink`, instead of one per sink and colour: a
        // shorter clean debug build. Optimised builds keep one per sink,
        // with the sink's methods inlined.
        #[cfg(bitboards_unoptimized)]
        let sink: &mut dyn Sink = sink;
        let checks = self.checks();
        match self.side_to_move() {
            Color::White => self.generate_for::<_, true>(sink, checks, filter),
            Color::Black => self.generate_for::<_, false>(sink, checks, filter),
        }
    }

    /// The filter of [`Position::captures`]: every origin, the enemy's
    /// pieces as targets, and en passant.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn captures_filter(&self) -> Filter {
        Filter {
            from: Bitboard::FULL,
            to: self.by_color(self.side_to_move().opponent()),
            en_passant: true,
        }
    }

    /// The filter of [`Position::legal_moves_masked`].
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn masked_filter(&self, from: Bitboard, to: Bitboard) -> Filter {
        Filter {
            from,
            to,
            en_passant: self.en_passant().is_some_and(|square| to.contains(square)),
        }
    }

    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn generate_for<S: Sink + ?Sized, const WHITE: bool>(
        &self,
        sink: &mut S,
        checks: Checks,
        filter: Filter,
    ) {
        let us = if WHITE { Color::White } else { Color::Black };
        let them = us.opponent();
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let occupied = ours | theirs;
        let king = self.king(us);
        let Checks { checkers, pinned } = checks;

        // Only a request that includes the king's moves (and castling) needs
        // them: narrow masks (SAN, one piece's moves) skip the work.
        let king_moves = filter.from.contains(king);
        let danger = if king_moves {
            self.king_moves::<S, WHITE>(sink, filter.to)
        } else {
            Bitboard::EMPTY
        };
        if checkers.has_more_than_one() {
            return;
        }

        // Under a single check a move must take the checker or block it.
        let check_mask = match checkers.first() {
            Some(checker) => between(king, checker) | checker.bitboard(),
            None => Bitboard::FULL,
        };
        let targets = (check_mask & filter.to) - ours;
        let movers = ours & filter.from;

        self.piece_moves(sink, movers, targets, pinned, king);

        self.pawn_moves::<S, WHITE>(sink, checks, check_mask, filter);

        if king_moves && checkers.is_empty() && !self.castling().is_empty() {
            self.castling_moves(sink, us, occupied, danger, filter.to);
        }
    }

    /// The king's moves: every target in `to` that the enemy does not attack
    /// once the king has left its square (so that it cannot hide behind
    /// itself on a ray). Returns the squares the enemy's leapers attack, which
    /// castling needs again.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn king_moves<S: Sink + ?Sized, const WHITE: bool>(
        &self,
        sink: &mut S,
        to: Bitboard,
    ) -> Bitboard {
        let us = if WHITE { Color::White } else { Color::Black };
        let them = us.opponent();
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let king = self.king(us);
        // The leapers' attacks are taken set-wise first (pawns by two
        // shifts), so that only the squares they leave ask about sliders.
        let their_pawns = self.by_kind(PieceKind::Pawn) & theirs;
        let mut danger = if WHITE {
            their_pawns.south_east() | their_pawns.south_west()
        } else {
            their_pawns.north_east() | their_pawns.north_west()
        } | attacks::king(self.king(them));
        for knight in self.by_kind(PieceKind::Knight) & theirs {
            danger |= attacks::knight(knight);
        }
        let without_king = (ours | theirs) ^ king.bitboard();
        let mut king_targets = Bitboard::EMPTY;
        for to in (attacks::king(king) & to) - ours - danger {
            if !self.attacked_by_slider(to, them, without_king) {
                king_targets.set(to);
            }
        }
        sink.moves(PieceKind::King, king, king_targets);
        danger
    }

    /// The knights', bishops', rooks' and queens' moves from `movers` to
    /// `targets` (the squares that answer a check, if any), with the pinned
    /// ones kept on their pin lines.
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn piece_moves<S: Sink + ?Sized>(
        &self,
        sink: &mut S,
        movers: Bitboard,
        targets: Bitboard,
        pinned: Bitboard,
        king: Square,
    ) {
        let occupied = self.occupied();
        let knights = self.by_kind(PieceKind::Knight) & movers;
        // A pinned knight never stays on its pin line.
        for from in knights - pinned {
            sink.moves(PieceKind::Knight, from, attacks::knight(from) & targets);
        }

        let bishops = self.by_kind(PieceKind::Bishop) & movers;
        let rooks = self.by_kind(PieceKind::Rook) & movers;
        let queens = self.by_kind(PieceKind::Queen) & movers;
        for from in bishops - pinned {
            sink.moves(
                PieceKind::Bishop,
                from,
                sliders::bishop(from, occupied) & targets,
            );
        }
        for from in rooks - pinned {
            sink.moves(
                PieceKind::Rook,
                from,
                sliders::rook(from, occupied) & targets,
            );
        }
        for from in queens - pinned {
            sink.moves(
                PieceKind::Queen,
                from,
                sliders::queen(from, occupied) & targets,
            );
        }
        // Pinned sliders move along the pin line only (towards the pinner,
        // up to taking it, or back towards the king). In check, a pinned
        // piece has no move: the check mask and the pin line never share a
        // square that answers the check.
        let pinned_sliders = (bishops | rooks | queens) & pinned;
        for from in pinned_sliders {
            let along = targets & line(king, from);
            // A slider moves along its pin only if the pin is in one of its
            // own directions: a rook pinned on a diagonal has no move.
            let (kind, reach) = if bishops.contains(from) {
                (PieceKind::Bishop, sliders::bishop(from, occupied))
            } else if rooks.contains(from) {
                (PieceKind::Rook, sliders::rook(from, occupied))
            } else {
                (PieceKind::Queen, sliders::queen(from, occupied))
            };
            sink.moves(kind, from, reach & along);
        }
    }

    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    fn pawn_moves<S: Sink + ?Sized, const WHITE: bool>(
        &self,
        sink: &mut S,
        checks: Checks,
        check_mask: Bitboard,
        filter: Filter,
    ) {
        let us = if WHITE { Color::White } else { Color::Black };
        let ours = self.by_color(us);
        let theirs = self.by_color(us.opponent());
        let empty = !(ours | theirs);
        let pawns = self.by_kind(PieceKind::Pawn) & ours & filter.from;
        let king = self.king(us);
        let Checks { pinned, .. } = checks;
        let (last_rank, double_rank) = if WHITE {
            (Rank::Eighth.bitboard(), Rank::Third.bitboard())
        } else {
            (Rank::First.bitboard(), Rank::Sixth.bitboard())
        };
        let forward = |board: Bitboard| if WHITE { board.north() } else { board.south() };
        let (up, up_left, up_right): (i8, i8, i8) = if WHITE { (8, 7, 9) } else { (-8, -9, -7) };
        let left = |board: Bitboard| {
            if WHITE {
                board.north_west()
            } else {
                board.south_west()
            }
        };
        let right = |board: Bitboard| {
            if WHITE {
                board.north_east()
            } else {
                board.south_east()
            }
        };

        // Pawns not pinned, all at once.
        let free = pawns - pinned;
        let single = forward(free) & empty;
        let check_mask = check_mask & filter.to;
        let double = forward(single & double_rank) & empty & check_mask;
        let single = single & check_mask;
        let captures_left = left(free) & theirs & check_mask;
        let captures_right = right(free) & theirs & check_mask;
        sink.pawn_sets([
            (single - last_rank, up),
            (double, 2 * up),
            (captures_left - last_rank, up_left),
            (captures_right - last_rank, up_right),
        ]);
        let promoting = (single | captures_left | captures_right) & last_rank;
        if !promoting.is_empty() {
            sink.promotions(single & last_rank, up);
            sink.promotions(captures_left & last_rank, up_left);
            sink.promotions(captures_right & last_rank, up_right);
        }

        // Pinned pawns, one by one, along their pin line.
        for from in pawns & pinned {
            let one = forward(from.bitboard()) & empty;
            let two = forward(one & double_rank) & empty;
            let targets =
                (one | two | (attacks::pawn(us, from) & theirs)) & check_mask & line(king, from);
            sink.moves(PieceKind::Pawn, from, targets - last_rank);
            for to in targets & last_rank {
                sink.promotions(to.bitboard(), to as i8 - from as i8);
            }
        }

        if filter.en_passant
            && let Some(target) = self.en_passant()
        {
            self.en_passant_moves(sink, us, target, filter.from);
        }
    }

    /// En passant captures onto `target`, each tested exactly: the capture
    /// lifts two pawns off one rank and can uncover a check no mask shows.
    #[inline(never)]
    fn en_passant_moves<S: Sink + ?Sized>(
        &self,
        sink: &mut S,
        us: Color,
        target: Square,
        from: Bitboard,
    ) {
        let them = us.opponent();
        let pawns = self.by_kind(PieceKind::Pawn);
        let mut capturers = attacks::pawn(them, target) & pawns & self.by_color(us) & from;
        if capturers.is_empty() {
            return;
        }
        // The pawn that double-pushed stands beside the capturers.
        let Some(captured) = Square::new(target as u8 ^ 8) else {
            return;
        };
        let king = self.king(us);
        let theirs = self.by_color(them) - captured.bitboard();
        let queens = self.by_kind(PieceKind::Queen);
        while let Some(from) = capturers.pop() {
            let occupied = (self.occupied() ^ from.bitboard() ^ captured.bitboard()) | target;
            let exposed = (sliders::rook(king, occupied)
                & (self.by_kind(PieceKind::Rook) | queens))
                | (sliders::bishop(king, occupied) & (self.by_kind(PieceKind::Bishop) | queens))
                | (attacks::knight(king) & self.by_kind(PieceKind::Knight))
                | (attacks::pawn(us, king) & pawns);
            if (exposed & theirs).is_empty() {
                sink.one(Move::new(from, target, MoveKind::EnPassant));
            }
        }
    }

    /// Castling, standard and Chess960 alike: the king and rook end on the
    /// g and f (or c and d) files; every square either crosses is empty but
    /// for the two of them, and no square the king stands on, crosses or
    /// reaches is attacked (`danger`: the enemy leapers' attacks). Called
    /// only when not in check.
    #[inline(never)]
    fn castling_moves<S: Sink + ?Sized>(
        &self,
        sink: &mut S,
        us: Color,
        occupied: Bitboard,
        danger: Bitboard,
        to: Bitboard,
    ) {
        let king = self.king(us);
        let rank = king.rank();
        for side in CastlingSide::ALL {
            let Some(rook_file) = self.castling().rook_file(us, side) else {
                continue;
            };
            let rook = Square::from_file_rank(rook_file, rank);
            // Castling is king takes rook: its target is the rook's square.
            if !to.contains(rook) {
                continue;
            }
            let (king_file, rook_target_file) = match side {
                CastlingSide::KingSide => (File::G, File::F),
                CastlingSide::QueenSide => (File::C, File::D),
            };
            let king_target = Square::from_file_rank(king_file, rank);
            let rook_target = Square::from_file_rank(rook_target_file, rank);
            // Both pieces leave their squares, so neither blocks the other.
            let others = occupied ^ king.bitboard() ^ rook.bitboard();
            let king_path = between(king, king_target) | king_target;
            let crossed = king_path | between(rook, rook_target) | rook_target;
            if !(crossed & others).is_empty() {
                continue;
            }
            // `danger` holds the enemy leapers' attacks (which a castling
            // piece moving cannot change): only sliders are asked per square.
            let them = us.opponent();
            if (king_path & danger).is_empty()
                && king_path
                    .iter()
                    .all(|square| !self.attacked_by_slider(square, them, others))
            {
                sink.one(Move::new(king, rook, MoveKind::Castling));
            }
        }
    }

    /// Every legal move in this position.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// let kiwipete = Position::from_fen(
    ///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    /// )?;
    /// assert_eq!(kiwipete.legal_moves().len(), 48);
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        moves
    }

    /// How many legal moves this position has: [`Position::legal_moves`]'
    /// length, counted without building a single move.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// assert_eq!(Position::START.count_legal_moves(), 20);
    /// ```
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        self.count_moves_inline()
    }

    /// Whether the side to move has any legal move: what tells checkmate
    /// and stalemate from the positions where play goes on. Cheaper than
    /// counting them: a step of the king to a square nothing attacks
    /// answers most positions without generating a move.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// assert!(Position::START.has_legal_moves());
    /// let mate = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")?;
    /// assert!(!mate.has_legal_moves());
    /// let stalemate = Position::from_fen("7k/8/6Q1/8/8/8/8/K7 b - - 0 1")?;
    /// assert!(!stalemate.has_legal_moves());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn has_legal_moves(&self) -> bool {
        let us = self.side_to_move();
        let king = self.king(us);
        // The king lifted off its square: a slider checking it along a line
        // also attacks the square behind it.
        let lifted = self.occupied().difference(king.bitboard());
        let mut steps = attacks::king(king).difference(self.by_color(us));
        while let Some(to) = steps.pop() {
            if self.attackers_through(to, us.opponent(), lifted).is_empty() {
                return true;
            }
        }
        self.count_moves_inline() != 0
    }

    /// [`Position::count_legal_moves`], inlined into its caller (perft's
    /// last ply, in whichever code perft runs).
    #[cfg_attr(not(bitboards_unoptimized), inline(always))]
    pub(crate) fn count_moves_inline(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// Every legal capture: the moves onto an enemy piece (capturing
    /// promotions included) and en passant. Castling is never a capture, and
    /// a promotion by a push is not one either. This is what a quiescence
    /// search asks for, and it costs less than [`Position::legal_moves`]:
    /// quiet targets are never produced.
    ///
    /// ```
    /// use bitboards::{bitboard, Bitboard, MoveKind, Position, Square};
    ///
    /// // White: Nd4 takes e6 or c6, exd6 en passant, and f7 promotes onto g8.
    /// let position = Position::from_fen("2k3r1/5P2/2p1p3/3pP3/3N4/8/8/4K3 w - d6 0 1")?;
    /// let captures = position.captures();
    /// let targets: Bitboard = captures.iter().map(|mv| mv.to()).collect();
    /// assert_eq!(targets, bitboard! {
    ///     8 . . . . . . X .
    ///     7 . . . . . . . .
    ///     6 . . X X X . . .
    ///     5 . . . . . . . .
    ///     4 . . . . . . . .
    ///     3 . . . . . . . .
    ///     2 . . . . . . . .
    ///     1 . . . . . . . .
    ///       a b c d e f g h
    /// });
    /// assert!(captures.iter().any(|mv| mv.kind() == MoveKind::EnPassant));
    /// // Four promotions on g8, two knight captures, one en passant.
    /// assert_eq!(captures.len(), 7);
    /// assert_eq!(position.count_captures(), 7);
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn captures(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_filtered(&mut moves, self.captures_filter());
        moves
    }

    /// How many legal captures there are: [`Position::captures`]' length,
    /// counted without building a move.
    ///
    /// ```
    /// use bitboards::Position;
    ///
    /// assert_eq!(Position::START.count_captures(), 0);
    /// ```
    #[must_use]
    pub fn count_captures(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate_filtered(&mut counter, self.captures_filter());
        counter.0
    }

    /// The legal moves whose [`Move::from`] is in `from` and whose
    /// [`Move::to`] is in `to`. Castling is king takes rook, so it is listed
    /// when `to` holds the castling rook's square; en passant when `to`
    /// holds the square the capturing pawn moves to. Pieces outside `from`
    /// are never looked at, so a narrow mask is cheaper than filtering
    /// [`Position::legal_moves`].
    ///
    /// ```
    /// use bitboards::{Bitboard, Position, Square};
    ///
    /// // The knight on g1's moves.
    /// let knight = Position::START.legal_moves_masked(Square::G1.bitboard(), Bitboard::FULL);
    /// let names: Vec<String> = knight.iter().map(|mv| mv.to_string()).collect();
    /// assert_eq!(names, ["g1f3", "g1h3"]);
    ///
    /// // Every move onto the fourth rank.
    /// let fourth = bitboards::Rank::Fourth.bitboard();
    /// assert_eq!(Position::START.legal_moves_masked(Bitboard::FULL, fourth).len(), 8);
    ///
    /// // Castling goes to the rook's square.
    /// let castles = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")?;
    /// let short = castles.legal_moves_masked(Square::E1.bitboard(), Square::H1.bitboard());
    /// assert!(short.len() == 1 && short[0].is_castling());
    /// # Ok::<(), bitboards::FenError>(())
    /// ```
    #[must_use]
    pub fn legal_moves_masked(&self, from: Bitboard, to: Bitboard) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_filtered(&mut moves, self.masked_filter(from, to));
        moves
    }

    /// How many moves [`Position::legal_moves_masked`] lists, counted
    /// without building them.
    ///
    /// ```
    /// use bitboards::{Bitboard, Position, Rank};
    ///
    /// let pawns_from_second = Rank::Second.bitboard();
    /// assert_eq!(Position::START.count_legal_moves_masked(pawns_from_second, Bitboard::FULL), 16);
    /// ```
    #[must_use]
    pub fn count_legal_moves_masked(&self, from: Bitboard, to: Bitboard) -> u64 {
        let mut counter = Counter(0);
        self.generate_filtered(&mut counter, self.masked_filter(from, to));
        counter.0
    }
}
