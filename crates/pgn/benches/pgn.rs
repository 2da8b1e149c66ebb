//! PGN and SAN against the peers, in one run:
//!
//! ```text
//! cargo bench --bench pgn
//! ```
//!
//! - `pgn_read`: 10,000 seeded random legal games (about 80 plies each,
//!   with comments, NAGs and variations), written to memory once, read into
//!   each game's final position. Ours: `pgn::Reader` with a visitor that
//!   keeps `end_game`'s position (variations skipped, the default).
//!   pgn-reader 0.29 with shakmaty 0.30: its documented final-position
//!   visitor, playing each `SanPlus` with `San::to_move` and
//!   `play_unchecked`, variations skipped. Throughput in bytes; games/s is
//!   10,000 over the time. Both are checked to read every game to the same
//!   final FEN before timing.
//! - `pgn_lichess`: 2,000 Lichess-shaped games
//!   (`bitboards_test_support::lichess_games`: the open database's tags and
//!   a `{ [%eval ...] [%clk ...] }` comment after every move), read into
//!   final positions by the same two readers.
//! - `pgn_headers`: the same file, tags only: ours with
//!   `Visitor::skip_movetext`, pgn-reader breaking out at `begin_movetext`.
//! - `pgn_threads`: the same file through `ParallelReader` on 1 and 2
//!   threads (final positions, in file order).
//! - `pgn_zstd`: the same file plain and as zstd (level 3) through
//!   `bitboards_pgn::decompress_in_background` (what `open` and the command
//!   use: decoding on a second thread).
//! - `san_write`: the SAN of every legal move of the perft suite's positions
//!   (written into one reused `String`). Ours `Position::san`; shakmaty
//!   `SanPlus::from_move`; cozy-chess 0.3.4 `util::display_san_move`.
//! - `parquet_write` (feature `parquet`): the Lichess-shaped games' table,
//!   in memory, written as Parquet by a `ParquetWriter` on the calling
//!   thread and by one `in_background()`, which encodes the columns on
//!   every core.
//! - `san_parse`: those SAN strings read back into moves. Ours
//!   `Position::parse_san`; shakmaty `San::from_ascii` + `to_move`;
//!   cozy-chess `util::parse_san_move`.
//!
//! Then the three reading workloads again (`pgn_read`, `pgn_lichess`,
//! `pgn_headers`), ours and the peer's in interleaved rounds, the order
//! rotating, the best pass of each kept: criterion times one contender for
//! seconds and then the other, and this machine's speed drifts between
//! the two, by more than the differences measured (docs/performance.md,
//! "Calls the reader no longer makes", has the peer's own drift).
//! The table is printed as markdown, which `cargo xtask bench` copies into
//! docs/performance.md. `PGN_ROUNDS` sets the rounds (default 30; 0 skips
//! them).

use std::fmt::Write as _;
use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use bitboards::{Move, Position};
use bitboards_codegen::rng::SplitMix64;
use bitboards_pgn::{GameResult, ParallelReader, Reader, Visitor, Writer};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgn_reader::{RawTag, SanPlus, Skip};
use shakmaty::{CastlingMode, Chess, Position as _, fen::Fen, san::San};

const PERFT_SUITE: &str = include_str!("../../../tests/data/perftsuite.epd");
const GAMES: usize = 10_000;

fn below(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// A legal move of `position`, drawn uniformly.
fn pick(rng: &mut SplitMix64, position: &Position) -> Option<Move> {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return None;
    }
    Some(moves[below(rng, moves.len())])
}

/// The workload: `GAMES` games of up to about 80 plies with tags,
/// comments, NAGs and variations.
fn generate() -> Vec<u8> {
    let mut rng = SplitMix64::new(0x005E_ED0F_9A3E);
    let mut text = Vec::new();
    let mut writer = Writer::new(&mut text);
    const COMMENTS: [&str; 4] = [
        "[%clk 0:03:12]",
        "a natural developing move",
        "[%eval 0.25] [%clk 0:02:58]",
        "White keeps the initiative",
    ];
    for number in 0..GAMES {
        let result = [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ][below(&mut rng, 3)];
        for (name, value) in [
            ("Event", "Rated Blitz game".to_string()),
            ("Site", "https://example.org/game".to_string()),
            ("Date", "2024.05.17".to_string()),
            ("Round", (number + 1).to_string()),
            ("White", format!("Player{}", below(&mut rng, 5000))),
            ("Black", format!("Player{}", below(&mut rng, 5000))),
            ("Result", result.to_string()),
            ("WhiteElo", (1200 + below(&mut rng, 1400)).to_string()),
            ("BlackElo", (1200 + below(&mut rng, 1400)).to_string()),
            ("TimeControl", "180+2".to_string()),
        ] {
            writer.tag(name, &value).unwrap();
        }
        let mut position = Position::START;
        let plies = 60 + below(&mut rng, 41);
        for _ in 0..plies {
            let Some(mv) = pick(&mut rng, &position) else {
                break;
            };
            writer.san(&position, mv).unwrap();
            let before = position;
            position = position.play_unchecked(mv);
            if below(&mut rng, 20) == 0 {
                writer.nag(1 + below(&mut rng, 6) as u8).unwrap();
            }
            if below(&mut rng, 8) == 0 {
                writer.comment(COMMENTS[below(&mut rng, 4)]).unwrap();
            }
            if below(&mut rng, 25) == 0 {
                writer.begin_variation().unwrap();
                let mut line = before;
                for _ in 0..1 + below(&mut rng, 6) {
                    let Some(mv) = pick(&mut rng, &line) else {
                        break;
                    };
                    writer.san(&line, mv).unwrap();
                    line = line.play_unchecked(mv);
                }
                writer.end_variation().unwrap();
            }
        }
        writer.result(result).unwrap();
    }
    text
}

/// Ours: each game's final position.
struct Finals<F: FnMut(&Position)>(F);

impl<F: FnMut(&Position)> Visitor for Finals<F> {
    fn end_game(&mut self, last: &Position) {
        (self.0)(last);
    }
    // Like the peer's visitor, which has no `comment`.
    fn wants_comments(&mut self) -> bool {
        false
    }
}

fn ours_read(pgn: &[u8], mut each: impl FnMut(&Position)) -> usize {
    let mut reader = Reader::new(pgn);
    let mut games = 0;
    let mut visitor = Finals(|position: &Position| each(position));
    while reader.read_game(&mut visitor).expect("a valid game") {
        games += 1;
    }
    games
}

/// pgn-reader's final-position visitor, with shakmaty.
struct LastPosition;

impl pgn_reader::Visitor for LastPosition {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = Chess;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            let position = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Standard).ok());
            *tags = position;
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }

    fn begin_variation(&mut self, _: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn san(
        &mut self,
        position: &mut Self::Movetext,
        san_plus: SanPlus,
    ) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(position) {
            Ok(mv) => {
                position.play_unchecked(mv);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(position.clone()),
        }
    }

    fn end_game(&mut self, position: Self::Movetext) -> Self::Output {
        position
    }
}

fn peer_read(pgn: &[u8], mut each: impl FnMut(&Chess)) -> usize {
    let mut reader = pgn_reader::Reader::new(pgn);
    let mut games = 0;
    while let Some(position) = reader.read_game(&mut LastPosition).expect("readable") {
        each(&position);
        games += 1;
    }
    games
}

/// The group `name`: ours and the peer reading `pgn` into each game's
/// final position.
fn final_positions(c: &mut Criterion, name: &str, pgn: &[u8]) {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(pgn.len() as u64));
    group.bench_function("bitboards", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            let games = ours_read(black_box(pgn), |p| sum = sum.wrapping_add(p.polyglot_key()));
            black_box((games, sum))
        });
    });
    group.bench_function("pgn-reader+shakmaty", |b| {
        b.iter(|| {
            let mut sum = 0usize;
            let games = peer_read(black_box(pgn), |p| sum += p.board().occupied().count());
            black_box((games, sum))
        });
    });
    group.finish();
}

fn pgn_read(c: &mut Criterion) {
    let pgn = generate();
    // The same games, to the same final positions, before timing.
    let mut ours_fens = Vec::new();
    let mut peer_fens = Vec::new();
    assert_eq!(
        ours_read(&pgn, |p| ours_fens.push(p.fen().to_string())),
        GAMES
    );
    assert_eq!(
        peer_read(&pgn, |p| peer_fens.push(
            Fen::from_position(p, shakmaty::EnPassantMode::Legal).to_string()
        )),
        GAMES
    );
    // shakmaty writes an en passant square only when a capture is legal; we
    // write it after every double push: compare the other fields.
    let strip = |fen: &String| {
        let mut fields: Vec<&str> = fen.split(' ').collect();
        fields[3] = "-";
        fields.join(" ")
    };
    assert!(
        ours_fens.iter().map(strip).eq(peer_fens.iter().map(strip)),
        "the readers disagree on a final position"
    );
    eprintln!(
        "pgn_read workload: {GAMES} games, {:.1} MB, {} bytes per game",
        pgn.len() as f64 / 1e6,
        pgn.len() / GAMES
    );

    final_positions(c, "pgn_read", &pgn);
}

/// Every suite position, in each contender's form, with its legal moves.
struct SanWorkload {
    ours: Vec<(Position, Vec<Move>)>,
    shakmaty: Vec<(Chess, Vec<shakmaty::Move>)>,
    cozy: Vec<(cozy_chess::Board, Vec<cozy_chess::Move>)>,
    /// Our SAN of each move, in order (the same as shakmaty's).
    texts: Vec<String>,
}

fn san_workload() -> SanWorkload {
    let mut workload = SanWorkload {
        ours: Vec::new(),
        shakmaty: Vec::new(),
        cozy: Vec::new(),
        texts: Vec::new(),
    };
    for record in bitboards::epd::read(PERFT_SUITE) {
        let Ok(record) = record else { continue };
        let position = *record.position();
        let fen = position.fen().to_string();
        let Ok(cozy) = cozy_chess::Board::from_fen(&fen, false) else {
            continue;
        };
        let Some(chess) = Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|fen| fen.into_position::<Chess>(CastlingMode::Standard).ok())
        else {
            continue;
        };
        let ours: Vec<Move> = position.legal_moves().iter().copied().collect();
        let mut theirs = Vec::new();
        let mut cozy_moves = Vec::new();
        for &mv in &ours {
            let uci = mv.to_string();
            let text = position.san(mv).to_string();
            let peer = shakmaty::uci::UciMove::from_ascii(uci.as_bytes())
                .unwrap()
                .to_move(&chess)
                .unwrap();
            assert_eq!(SanPlus::from_move(chess.clone(), peer).to_string(), text);
            theirs.push(peer);
            // cozy-chess writes castling king takes rook.
            let cozy_uci = mv
                .uci(bitboards::CastlingNotation::KingTakesRook)
                .to_string();
            let cozy_move: cozy_chess::Move = cozy_uci.parse().unwrap();
            assert_eq!(
                cozy_chess::util::display_san_move(&cozy, cozy_move).to_string(),
                text
            );
            cozy_moves.push(cozy_move);
            workload.texts.push(text);
        }
        workload.ours.push((position, ours));
        workload.shakmaty.push((chess, theirs));
        workload.cozy.push((cozy, cozy_moves));
    }
    workload
}

fn san(c: &mut Criterion) {
    let w = san_workload();
    let count = w.texts.len() as u64;
    eprintln!("san workload: {} positions, {count} moves", w.ours.len());

    let mut group = c.benchmark_group("san_write");
    group.throughput(Throughput::Elements(count));
    let mut buffer = String::with_capacity(16);
    group.bench_function("bitboards", |b| {
        b.iter(|| {
            let mut total = 0;
            for (position, moves) in &w.ours {
                for &mv in moves {
                    buffer.clear();
                    let _ = write!(buffer, "{}", position.san(mv));
                    total += buffer.len();
                }
            }
            black_box(total)
        });
    });
    group.bench_function("shakmaty", |b| {
        b.iter(|| {
            let mut total = 0;
            for (position, moves) in &w.shakmaty {
                for mv in moves {
                    buffer.clear();
                    let _ = write!(buffer, "{}", SanPlus::from_move(position.clone(), *mv));
                    total += buffer.len();
                }
            }
            black_box(total)
        });
    });
    group.bench_function("cozy-chess", |b| {
        b.iter(|| {
            let mut total = 0;
            for (board, moves) in &w.cozy {
                for &mv in moves {
                    buffer.clear();
                    let _ = write!(buffer, "{}", cozy_chess::util::display_san_move(board, mv));
                    total += buffer.len();
                }
            }
            black_box(total)
        });
    });
    group.finish();

    // Each contender reads the same texts, in its positions.
    let by_position: Vec<usize> = w.ours.iter().map(|(_, moves)| moves.len()).collect();
    let mut group = c.benchmark_group("san_parse");
    group.throughput(Throughput::Elements(count));
    group.bench_function("bitboards", |b| {
        b.iter(|| {
            let mut texts = w.texts.iter();
            let mut found = 0u32;
            for ((position, _), &n) in w.ours.iter().zip(&by_position) {
                for text in texts.by_ref().take(n) {
                    found += u32::from(position.parse_san(black_box(text)).is_ok());
                }
            }
            assert_eq!(u64::from(found), count);
        });
    });
    group.bench_function("shakmaty", |b| {
        b.iter(|| {
            let mut texts = w.texts.iter();
            let mut found = 0u32;
            for ((position, _), &n) in w.shakmaty.iter().zip(&by_position) {
                for text in texts.by_ref().take(n) {
                    let mv = San::from_ascii(black_box(text).as_bytes())
                        .ok()
                        .and_then(|san| san.to_move(position).ok());
                    found += u32::from(mv.is_some());
                }
            }
            assert_eq!(u64::from(found), count);
        });
    });
    group.bench_function("cozy-chess", |b| {
        b.iter(|| {
            let mut texts = w.texts.iter();
            let mut found = 0u32;
            for ((board, _), &n) in w.cozy.iter().zip(&by_position) {
                for text in texts.by_ref().take(n) {
                    found +=
                        u32::from(cozy_chess::util::parse_san_move(board, black_box(text)).is_ok());
                }
            }
            assert_eq!(u64::from(found), count);
        });
    });
    group.finish();
}

/// Games of the Lichess-shaped workload: tags as the open database writes
/// them and `{ [%eval ...] [%clk ...] }` after every move.
const LICHESS_GAMES: usize = 2_000;

/// Ours, headers only: the tags of each game, movetext skipped.
struct Headers(usize);

impl Visitor for Headers {
    fn tag(&mut self, _: &str, value: &str) {
        self.0 += value.len();
    }
    fn skip_movetext(&mut self) -> bool {
        true
    }
}

/// pgn-reader's headers only: tags read, the movetext skipped by breaking
/// out of the game at its start.
struct PeerHeaders(usize);

impl pgn_reader::Visitor for PeerHeaders {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), _: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        self.0 += value.as_bytes().len();
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (): ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Break(())
    }

    fn end_game(&mut self, (): ()) -> Self::Output {}
}

/// Ours on `threads` threads: each game's final position, in file order.
fn ours_parallel(pgn: &[u8], threads: usize) -> (usize, u64) {
    let (mut games, mut sum) = (0, 0u64);
    ParallelReader::new(pgn)
        .threads(threads)
        .for_each(
            || LastOfGame(None),
            |visitor| visitor.0.map_or(0, |position| position.polyglot_key()),
            |_, key| {
                games += 1;
                sum = sum.wrapping_add(key.expect("a valid game"));
            },
        )
        .expect("readable");
    (games, sum)
}

/// The final position of the game just read.
struct LastOfGame(Option<Position>);

impl Visitor for LastOfGame {
    fn end_game(&mut self, last: &Position) {
        self.0 = Some(*last);
    }
    fn wants_comments(&mut self) -> bool {
        false
    }
}

fn lichess(c: &mut Criterion) {
    let pgn = bitboards_test_support::lichess_games(LICHESS_GAMES, 0x011C_4E55);
    // 'static, as the decoding thread of `decompress_in_background` needs.
    let zst: &'static [u8] = zstd::encode_all(&pgn[..], 3)
        .expect("zstd compresses")
        .leak();
    assert_eq!(ours_read(&pgn, |_| {}), LICHESS_GAMES);
    assert_eq!(peer_read(&pgn, |_| {}), LICHESS_GAMES);
    assert_eq!(ours_parallel(&pgn, 2), ours_parallel(&pgn, 1));
    eprintln!(
        "pgn_lichess workload: {LICHESS_GAMES} games, {:.1} MB ({:.1} MB as zstd), {} bytes per game",
        pgn.len() as f64 / 1e6,
        zst.len() as f64 / 1e6,
        pgn.len() / LICHESS_GAMES
    );

    final_positions(c, "pgn_lichess", &pgn);

    let mut group = c.benchmark_group("pgn_headers");
    group.throughput(Throughput::Bytes(pgn.len() as u64));
    group.bench_function("bitboards", |b| {
        b.iter(|| {
            let mut reader = Reader::new(black_box(&pgn[..]));
            let mut headers = Headers(0);
            while reader.read_game(&mut headers).expect("a valid game") {}
            black_box(headers.0)
        });
    });
    group.bench_function("pgn-reader", |b| {
        b.iter(|| {
            let mut reader = pgn_reader::Reader::new(black_box(&pgn[..]));
            let mut headers = PeerHeaders(0);
            while reader.read_game(&mut headers).expect("readable").is_some() {}
            black_box(headers.0)
        });
    });
    group.finish();

    let mut group = c.benchmark_group("pgn_threads");
    group.throughput(Throughput::Bytes(pgn.len() as u64));
    for threads in [1, 2] {
        group.bench_function(format!("bitboards {threads} threads"), |b| {
            b.iter(|| black_box(ours_parallel(black_box(&pgn), threads)));
        });
    }
    group.finish();

    let mut group = c.benchmark_group("pgn_zstd");
    group.throughput(Throughput::Bytes(pgn.len() as u64));
    group.bench_function("bitboards plain", |b| {
        b.iter(|| black_box(ours_read(black_box(&pgn), |_| {})));
    });
    group.bench_function("bitboards zstd", |b| {
        b.iter(|| {
            let input = bitboards_pgn::decompress_in_background(black_box(zst)).expect("zstd");
            let mut reader = Reader::new(input);
            let mut games = 0;
            let mut visitor = LastOfGame(None);
            while reader.read_game(&mut visitor).expect("a valid game") {
                games += 1;
            }
            black_box(games)
        });
    });
    group.finish();
}

/// pgn-reader and shakmaty making the twelve boards of every position
/// before a move: the peer program of the `pgn_positions` group.
#[cfg(feature = "arrow")]
struct PeerRows {
    rows: Vec<[u64; 12]>,
}

#[cfg(feature = "arrow")]
impl pgn_reader::Visitor for PeerRows {
    type Tags = ();
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (): ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(Chess::default())
    }

    fn begin_variation(&mut self, _: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn san(
        &mut self,
        position: &mut Self::Movetext,
        san_plus: SanPlus,
    ) -> ControlFlow<Self::Output> {
        let board = position.board();
        let mut twelve = [0; 12];
        for (at, color) in [shakmaty::Color::White, shakmaty::Color::Black]
            .into_iter()
            .enumerate()
        {
            for (kind, role) in shakmaty::Role::ALL.into_iter().enumerate() {
                twelve[6 * at + kind] = board.by_piece(role.of(color)).0;
            }
        }
        self.rows.push(twelve);
        match san_plus.san.to_move(position) {
            Ok(mv) => {
                position.play_unchecked(mv);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(()),
        }
    }

    fn end_game(&mut self, _: Self::Movetext) -> Self::Output {}
}

/// Position rows (`bitboards_pgn::positions`, Arrow record batches, one
/// thread) against pgn-reader + shakmaty collecting the twelve boards of
/// each position, on the Lichess-shaped workload.
#[cfg(feature = "arrow")]
fn positions(c: &mut Criterion) {
    use bitboards_pgn::positions::{PositionOptions, for_each_batch};
    let pgn = bitboards_test_support::lichess_games(LICHESS_GAMES, 0x011C_4E55);
    let ours = |pgn: &[u8]| {
        let mut rows = 0;
        for_each_batch(pgn, &PositionOptions::default(), Some(1), 0, |batch| {
            rows += batch.num_rows()
        })
        .expect("readable");
        rows
    };
    let peer = |pgn: &[u8]| {
        let mut visitor = PeerRows { rows: Vec::new() };
        let mut reader = pgn_reader::Reader::new(pgn);
        while reader.read_game(&mut visitor).expect("readable").is_some() {}
        visitor.rows.len()
    };
    let rows = ours(&pgn);
    assert_eq!(rows, peer(&pgn));
    let mut group = c.benchmark_group("pgn_positions");
    group.throughput(Throughput::Elements(rows as u64));
    group.bench_function("bitboards", |b| b.iter(|| black_box(ours(black_box(&pgn)))));
    group.bench_function("pgn-reader+shakmaty", |b| {
        b.iter(|| black_box(peer(black_box(&pgn))))
    });
    group.finish();
}

#[cfg(not(feature = "arrow"))]
fn positions(_: &mut Criterion) {
    eprintln!(
        "pgn_positions: skipped (needs feature `arrow`: cargo bench -p bitboards-pgn --features arrow)"
    );
}

/// The Parquet writer alone: the Lichess-shaped workload's game table, in
/// memory as batches of 1,024 games, written to memory by a
/// `ParquetWriter` on the calling thread and by one `in_background()`
/// (its columns encoded on every core). The same bytes either way.
#[cfg(feature = "parquet")]
fn parquet_write(c: &mut Criterion) {
    use bitboards_pgn::table::{self, GamesVisitor, ParquetWriter};
    let pgn = bitboards_test_support::lichess_games(LICHESS_GAMES, 0x011C_4E55);
    let mut batches = Vec::new();
    table::for_each_batch(
        &pgn[..],
        Some(1),
        GamesVisitor::default,
        1024,
        |batch| batches.push(batch),
        |_, _| {},
    )
    .expect("readable");
    let here = || {
        let mut out = ParquetWriter::new(Vec::new()).expect("a writer");
        for batch in &batches {
            out.write(batch).expect("written");
        }
        out.close().expect("closed")
    };
    let background = || {
        let mut out = ParquetWriter::new(Vec::new())
            .expect("a writer")
            .in_background();
        for batch in &batches {
            out.write(batch.clone()).expect("written");
        }
        out.close().expect("closed")
    };
    assert!(here() == background());
    let mut group = c.benchmark_group("parquet_write");
    group.throughput(Throughput::Elements(LICHESS_GAMES as u64));
    group.bench_function("bitboards on the calling thread", |b| {
        b.iter(|| black_box(here()))
    });
    group.bench_function("bitboards in_background", |b| {
        b.iter(|| black_box(background()))
    });
    group.finish();
}

#[cfg(not(feature = "parquet"))]
fn parquet_write(_: &mut Criterion) {
    eprintln!(
        "parquet_write: skipped (needs feature `parquet`: cargo bench -p bitboards-pgn --features parquet)"
    );
}

/// One reading workload of the interleaved rounds: its name, its bytes,
/// its games, and ours and the peer's pass over it (each returning what it
/// read, so that the pass is not optimized away).
struct Workload<'a> {
    name: &'static str,
    pgn: &'a [u8],
    games: usize,
    passes: [fn(&[u8]) -> u64; 2],
}

/// Ours: every game's final position.
fn ours_finals(pgn: &[u8]) -> u64 {
    let mut sum = 0u64;
    ours_read(pgn, |p| sum = sum.wrapping_add(p.polyglot_key()));
    sum
}

/// The peer: every game's final position.
fn peer_finals(pgn: &[u8]) -> u64 {
    let mut sum = 0u64;
    peer_read(pgn, |p| {
        sum += u64::from(p.board().occupied().count() as u32)
    });
    sum
}

/// Ours: the tags alone.
fn ours_headers(pgn: &[u8]) -> u64 {
    let mut reader = Reader::new(pgn);
    let mut headers = Headers(0);
    while reader.read_game(&mut headers).expect("a valid game") {}
    headers.0 as u64
}

/// The peer: the tags alone.
fn peer_headers(pgn: &[u8]) -> u64 {
    let mut reader = pgn_reader::Reader::new(pgn);
    let mut headers = PeerHeaders(0);
    while reader.read_game(&mut headers).expect("readable").is_some() {}
    headers.0 as u64
}

/// `pgn_read`, `pgn_lichess` and `pgn_headers` in interleaved rounds (see
/// the module's docs): prints each contender's best pass, its games/s and
/// MB/s, and our ratio to the peer.
fn interleaved(_: &mut Criterion) {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too
    // (without it), and then one round shows that it works.
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let rounds: usize = std::env::var("PGN_ROUNDS")
        .ok()
        .and_then(|rounds| rounds.parse().ok())
        .unwrap_or(if benchmarking { 30 } else { 1 });
    if rounds == 0 {
        return;
    }
    let random = generate();
    let lichess = bitboards_test_support::lichess_games(LICHESS_GAMES, 0x011C_4E55);
    let workloads = [
        Workload {
            name: "pgn_read",
            pgn: &random,
            games: GAMES,
            passes: [ours_finals, peer_finals],
        },
        Workload {
            name: "pgn_lichess",
            pgn: &lichess,
            games: LICHESS_GAMES,
            passes: [ours_finals, peer_finals],
        },
        Workload {
            name: "pgn_headers",
            pgn: &lichess,
            games: LICHESS_GAMES,
            passes: [ours_headers, peer_headers],
        },
    ];
    println!("\nPGN reading, one thread, best of {rounds} interleaved rounds\n");
    println!("| workload | bitboards | pgn-reader | ours / peer |");
    println!("| --- | ---: | ---: | ---: |");
    for workload in &workloads {
        let mut best = [Duration::MAX; 2];
        for round in 0..rounds {
            for offset in 0..2 {
                let contender = (round + offset) % 2;
                let start = Instant::now();
                black_box((workload.passes[contender])(black_box(workload.pgn)));
                best[contender] = best[contender].min(start.elapsed());
            }
        }
        let cell = |time: Duration| {
            let seconds = time.as_secs_f64();
            format!(
                "{:.2} ms, {:.0} games/s, {:.0} MB/s",
                seconds * 1e3,
                workload.games as f64 / seconds,
                workload.pgn.len() as f64 / seconds / 1e6
            )
        };
        println!(
            "| {} | {} | {} | **{:.2}x** |",
            workload.name,
            cell(best[0]),
            cell(best[1]),
            best[1].as_secs_f64() / best[0].as_secs_f64()
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(20);
    targets = pgn_read, lichess, san, positions, parquet_write, interleaved
}
criterion_main!(benches);
