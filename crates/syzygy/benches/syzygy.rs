//! Syzygy probing, ours against Fathom (the MIT-licensed C prober that
//! engines embed; Debian's `libfathom-dev`, linked by this bench alone), in
//! one run on the same positions and the same files:
//!
//! ```text
//! cargo bench -p bitboards-syzygy --bench syzygy
//! ```
//!
//! The positions are every 8th row of tests/data/syzygy-reference.csv
//! (3,063 positions; every 3- and 4-piece table, both sides to move, en
//! passant among them), probed in tests/data/syzygy. Before any timing,
//! each contender answers every position once, which opens (maps) every
//! table it needs, and the answers are checked: ours against the CSV
//! (python-chess's), Fathom's against ours. One element is one position.
//!
//! Warm, every table already open:
//!
//! - `syzygy_wdl`: `Tablebase::probe_wdl` against Fathom's
//!   `tb_probe_wdl_impl` (what the header's inline `tb_probe_wdl` calls
//!   once it has refused castling rights and a non-zero halfmove clock).
//!   The same question, the same work: captures and en passant played out,
//!   then one WDL table read.
//! - `syzygy_dtz`: `Tablebase::probe_dtz` against the only DTZ Fathom
//!   exports, its root probe `tb_probe_root_impl` with no move list: that
//!   probes the position's DTZ and then, to choose a move, every legal
//!   move's (a WDL probe after a zeroing move, a DTZ probe after any
//!   other). It does more work than `probe_dtz`, so the group also times
//!   ours doing the same work, `probe_dtz` then `best_moves` (the
//!   position's DTZ and every move's): that pair is the like-for-like
//!   figure, `probe_dtz` alone what a caller who wants one DTZ pays.
//! - `syzygy_root`: every legal move ranked, the fair match for a root
//!   probe. `Tablebase::best_moves` (a `Vec` of every move with its WDL,
//!   DTZ and rank under the fifty-move rule, sorted) against
//!   `tb_probe_root_impl` filling its array of per-move results and
//!   `tb_probe_root_dtz` (Stockfish's ranking into a `TbRootMoves`). Both
//!   Fathom calls also probe the root's own DTZ first; `best_moves` does
//!   not.
//!
//! Cold, what opening costs (the files stay in the OS page cache, so
//! "cold" is a fresh prober, not a fresh disk):
//!
//! - `syzygy_add_directory`: `Tablebase::new` and `add_directory` of the 70
//!   files (a directory listing; nothing is opened) against Fathom's
//!   `tb_init` on the same directory (which frees the tables of the
//!   previous init, then tries to open every table name it knows).
//! - `syzygy_first_probe`: one KQvKR position (no capture on the board)
//!   probed on a fresh `Tablebase`, so that the probe maps the file and
//!   reads its header, against the same probe once the table is open.
//!   `probe_dtz` opens the WDL and the DTZ file (and the table of any
//!   capture it plays out, where it searches a ply deeper).
//! - `syzygy_cold`: a fresh prober, then `probe_wdl` of every position
//!   (all 35 WDL files mapped and their headers read along the way):
//!   `add_directory` + `probe_wdl` against `tb_init` + `tb_probe_wdl_impl`.

use std::ffi::{CString, c_int, c_uint};
use std::hint::black_box;
use std::os::fd::{AsFd as _, AsRawFd as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

use bitboards::{Color, PieceKind, Position};
use bitboards_syzygy::{Tablebase, table_name};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};

/// Every how many rows of the reference CSV a position is taken.
const STRIDE: usize = 8;

/// Fathom's exported API, as /usr/include/tbprobe.h declares it.
mod fathom {
    use std::ffi::{c_char, c_int, c_uint};

    /// `TB_MAX_MOVES`.
    pub const MAX_MOVES: usize = 192 + 1;
    /// `TB_MAX_PLY`.
    pub const MAX_PLY: usize = 256;
    /// `TB_RESULT_FAILED`.
    pub const FAILED: c_uint = 0xFFFF_FFFF;

    /// `struct TbRootMove`.
    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct RootMove {
        pub mv: u16,
        pub pv: [u16; MAX_PLY],
        pub pv_size: c_uint,
        pub tb_score: i32,
        pub tb_rank: i32,
    }

    /// `struct TbRootMoves`.
    #[repr(C)]
    pub struct RootMoves {
        pub size: c_uint,
        pub moves: [RootMove; MAX_MOVES],
    }

    #[link(name = "fathom")]
    unsafe extern "C" {
        /// The largest table found by the last `tb_init` (pieces).
        pub static TB_LARGEST: c_uint;
        pub fn tb_init(path: *const c_char) -> bool;
        pub fn tb_probe_wdl_impl(
            white: u64,
            black: u64,
            kings: u64,
            queens: u64,
            rooks: u64,
            bishops: u64,
            knights: u64,
            pawns: u64,
            ep: c_uint,
            turn: bool,
        ) -> c_uint;
        pub fn tb_probe_root_impl(
            white: u64,
            black: u64,
            kings: u64,
            queens: u64,
            rooks: u64,
            bishops: u64,
            knights: u64,
            pawns: u64,
            rule50: c_uint,
            ep: c_uint,
            turn: bool,
            results: *mut c_uint,
        ) -> c_uint;
        pub fn tb_probe_root_dtz(
            white: u64,
            black: u64,
            kings: u64,
            queens: u64,
            rooks: u64,
            bishops: u64,
            knights: u64,
            pawns: u64,
            rule50: c_uint,
            castling: c_uint,
            ep: c_uint,
            turn: bool,
            has_repeated: bool,
            use_rule50: bool,
            results: *mut RootMoves,
        ) -> c_int;
    }
}

/// A position as Fathom takes it: eight bitboards, the en passant square
/// (0 for none), the side to move (true for White), the halfmove clock.
#[derive(Clone, Copy)]
struct Boards {
    white: u64,
    black: u64,
    kings: u64,
    queens: u64,
    rooks: u64,
    bishops: u64,
    knights: u64,
    pawns: u64,
    ep: c_uint,
    white_to_move: bool,
    rule50: c_uint,
}

impl Boards {
    fn of(position: &Position) -> Boards {
        let kind = |kind| position.by_kind(kind).0;
        Boards {
            white: position.by_color(Color::White).0,
            black: position.by_color(Color::Black).0,
            kings: kind(PieceKind::King),
            queens: kind(PieceKind::Queen),
            rooks: kind(PieceKind::Rook),
            bishops: kind(PieceKind::Bishop),
            knights: kind(PieceKind::Knight),
            pawns: kind(PieceKind::Pawn),
            ep: position
                .en_passant()
                .map_or(0, |square| square.index() as c_uint),
            white_to_move: position.side_to_move() == Color::White,
            rule50: c_uint::from(position.halfmove_clock()),
        }
    }

    /// Fathom's WDL, 0 (loss) to 4 (win), or `fathom::FAILED`.
    fn wdl(&self) -> c_uint {
        // SAFETY: plain integers by value; Fathom reads only its own
        // tables, which `tb_init` set up before any probe here (`init_fathom`).
        unsafe {
            fathom::tb_probe_wdl_impl(
                self.white,
                self.black,
                self.kings,
                self.queens,
                self.rooks,
                self.bishops,
                self.knights,
                self.pawns,
                self.ep,
                self.white_to_move,
            )
        }
    }

    /// Fathom's root probe: the root's WDL and DTZ with its best move, and
    /// with `results`, every legal move's, ended by `FAILED`.
    fn root(&self, results: Option<&mut [c_uint; fathom::MAX_MOVES]>) -> c_uint {
        let results = results.map_or(std::ptr::null_mut(), |results| results.as_mut_ptr());
        // SAFETY: `results` is null (Fathom then writes no move list) or
        // points to `TB_MAX_MOVES` writable `unsigned`s, the array size the
        // header documents, borrowed mutably for the call; the tables were
        // set up by `tb_init` (`init_fathom`).
        unsafe {
            fathom::tb_probe_root_impl(
                self.white,
                self.black,
                self.kings,
                self.queens,
                self.rooks,
                self.bishops,
                self.knights,
                self.pawns,
                self.rule50,
                self.ep,
                self.white_to_move,
                results,
            )
        }
    }

    /// Fathom's Stockfish-style ranking of the root moves, 1 on success.
    fn root_dtz(&self, moves: &mut fathom::RootMoves) -> c_int {
        // SAFETY: `moves` is a whole `TbRootMoves` (the `repr(C)` struct
        // above, laid out as the header's, `TB_MAX_MOVES` entries),
        // borrowed mutably for the call; no castling rights (0); the
        // tables were set up by `tb_init` (`init_fathom`).
        unsafe {
            fathom::tb_probe_root_dtz(
                self.white,
                self.black,
                self.kings,
                self.queens,
                self.rooks,
                self.bishops,
                self.knights,
                self.pawns,
                self.rule50,
                0,
                self.ep,
                self.white_to_move,
                false,
                true,
                moves,
            )
        }
    }
}

/// Sets Fathom up on a directory (its state is global: one at a time).
fn init_fathom(directory: &Path) {
    let path = CString::new(directory.to_str().expect("a UTF-8 path")).unwrap();
    assert!(init(&path), "tb_init failed");
    // SAFETY: a plain `unsigned` that only `tb_init` writes, and it has
    // returned; nothing else runs Fathom meanwhile.
    let largest = unsafe { fathom::TB_LARGEST };
    assert_eq!(largest, 4, "Fathom found no 4-piece table");
}

fn init(path: &CString) -> bool {
    // SAFETY: a NUL-terminated path that outlives the call (Fathom copies
    // it); the bench is single-threaded, so no probe runs while `tb_init`
    // frees and rebuilds Fathom's global tables.
    unsafe { fathom::tb_init(path.as_ptr()) }
}

/// Fathom's stderr sent to /dev/null while this lives: Debian's build
/// prints `munmap: ...` for each table it unmaps when `tb_init` frees the
/// tables of the init before (the unmapping succeeds: the message's test
/// is the wrong way round), 35 lines an iteration in `syzygy_cold`. It
/// hides criterion's progress lines for those contenders too.
struct QuietStderr {
    saved: std::os::fd::OwnedFd,
}

mod libc {
    use std::ffi::c_int;

    unsafe extern "C" {
        pub fn dup2(old: c_int, new: c_int) -> c_int;
    }
}

impl QuietStderr {
    fn new() -> QuietStderr {
        let saved = std::io::stderr().as_fd().try_clone_to_owned().unwrap();
        let null = std::fs::File::create("/dev/null").unwrap();
        // SAFETY: both descriptors are open (`null` lives to the end of
        // this function); dup2 only makes fd 2 a copy of `null`'s.
        assert_eq!(unsafe { libc::dup2(null.as_raw_fd(), 2) }, 2);
        QuietStderr { saved }
    }
}

impl Drop for QuietStderr {
    fn drop(&mut self) {
        // SAFETY: `saved` is an open descriptor this guard owns; dup2 only
        // makes fd 2 a copy of it again.
        unsafe { libc::dup2(self.saved.as_raw_fd(), 2) };
    }
}

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data")
}

fn tables_dir() -> PathBuf {
    data().join("syzygy")
}

fn fresh() -> Tablebase {
    let mut tables = Tablebase::new();
    assert_eq!(tables.add_directory(tables_dir()).unwrap(), 70);
    tables
}

/// A reference position with python-chess's answers.
struct Case {
    position: Position,
    boards: Boards,
    wdl: i32,
    dtz: i32,
}

/// Every `STRIDE`th position of the reference CSV.
fn workload() -> Vec<Case> {
    let text = std::fs::read_to_string(data().join("syzygy-reference.csv")).unwrap();
    text.lines()
        .skip(1)
        .step_by(STRIDE)
        .map(|line| {
            let mut fields = line.rsplitn(3, ',');
            let dtz = fields.next().unwrap().parse().unwrap();
            let wdl = fields.next().unwrap().parse().unwrap();
            let position = Position::from_fen(fields.next().unwrap()).unwrap();
            Case {
                boards: Boards::of(&position),
                position,
                wdl,
                dtz,
            }
        })
        .collect()
}

/// Opens every table both contenders need and checks their answers: ours
/// against python-chess's, Fathom's against ours.
fn check(tables: &Tablebase, cases: &[Case]) {
    let materials: std::collections::HashSet<String> = cases
        .iter()
        .map(|case| table_name(&case.position))
        .collect();
    assert_eq!(materials.len(), 35, "every 3- and 4-piece table");
    let mut root = [0; fathom::MAX_MOVES];
    let mut root_moves = root_moves();
    for case in cases {
        let position = &case.position;
        let wdl = tables.probe_wdl(position).unwrap() as i32;
        let dtz = tables.probe_dtz(position).unwrap().0;
        assert_eq!((wdl, dtz), (case.wdl, case.dtz), "{}", position.fen());
        let moves = tables.best_moves(position).unwrap();

        let fathom_wdl = case.boards.wdl();
        assert_eq!(
            fathom_wdl as i32 - 2,
            wdl,
            "Fathom's WDL, {}",
            position.fen()
        );
        let result = case.boards.root(Some(&mut root));
        assert_ne!(result, fathom::FAILED, "{}", position.fen());
        if !moves.is_empty() {
            let fathom_dtz = (result >> 20) as i32;
            assert_eq!(fathom_dtz, dtz.abs(), "Fathom's DTZ, {}", position.fen());
            let listed = root.iter().take_while(|&&r| r != fathom::FAILED).count();
            assert_eq!(listed, moves.len(), "Fathom's moves, {}", position.fen());
        }
        assert_eq!(
            case.boards.root_dtz(&mut root_moves),
            1,
            "{}",
            position.fen()
        );
        assert_eq!(root_moves.size as usize, moves.len(), "{}", position.fen());
    }
}

fn root_moves() -> Box<fathom::RootMoves> {
    let empty = fathom::RootMove {
        mv: 0,
        pv: [0; fathom::MAX_PLY],
        pv_size: 0,
        tb_score: 0,
        tb_rank: 0,
    };
    Box::new(fathom::RootMoves {
        size: 0,
        moves: [empty; fathom::MAX_MOVES],
    })
}

fn warm(c: &mut Criterion) {
    let cases = workload();
    let tables = fresh();
    init_fathom(&tables_dir());
    check(&tables, &cases);
    let elements = Throughput::Elements(cases.len() as u64);

    let mut group = c.benchmark_group("syzygy_wdl");
    group.throughput(elements.clone());
    group.bench_function("bitboards probe_wdl", |b| {
        b.iter(|| {
            black_box(&cases)
                .iter()
                .map(|case| tables.probe_wdl(&case.position).unwrap() as i32)
                .sum::<i32>()
        })
    });
    group.bench_function("fathom tb_probe_wdl", |b| {
        b.iter(|| {
            black_box(&cases)
                .iter()
                .map(|case| case.boards.wdl())
                .sum::<c_uint>()
        })
    });
    group.finish();

    let mut group = c.benchmark_group("syzygy_dtz");
    group.throughput(elements.clone());
    group.bench_function(
        "bitboards probe_dtz alone (less work than a root probe)",
        |b| {
            b.iter(|| {
                black_box(&cases)
                    .iter()
                    .map(|case| tables.probe_dtz(&case.position).unwrap().0)
                    .sum::<i32>()
            })
        },
    );
    group.bench_function(
        "bitboards probe_dtz + best_moves (a root probe's work)",
        |b| {
            b.iter(|| {
                black_box(&cases)
                    .iter()
                    .map(|case| {
                        let dtz = tables.probe_dtz(&case.position).unwrap().0;
                        let moves = tables.best_moves(&case.position).unwrap();
                        dtz + moves.first().map_or(0, |best| best.rank)
                    })
                    .sum::<i32>()
            })
        },
    );
    group.bench_function("fathom tb_probe_root, no move list", |b| {
        b.iter(|| {
            black_box(&cases)
                .iter()
                .map(|case| case.boards.root(None) >> 20)
                .sum::<c_uint>()
        })
    });
    group.finish();

    let mut group = c.benchmark_group("syzygy_root");
    group.throughput(elements);
    group.bench_function("bitboards best_moves", |b| {
        b.iter(|| {
            black_box(&cases)
                .iter()
                .map(|case| {
                    let moves = tables.best_moves(&case.position).unwrap();
                    moves.first().map_or(0, |best| best.rank)
                })
                .sum::<i32>()
        })
    });
    let mut results = [0; fathom::MAX_MOVES];
    group.bench_function("fathom tb_probe_root, move list", |b| {
        b.iter(|| {
            black_box(&cases)
                .iter()
                .map(|case| case.boards.root(Some(&mut results)) >> 20)
                .sum::<c_uint>()
        })
    });
    let mut root_moves = root_moves();
    group.bench_function("fathom tb_probe_root_dtz", |b| {
        b.iter(|| {
            black_box(&cases)
                .iter()
                .map(|case| {
                    case.boards.root_dtz(&mut root_moves);
                    root_moves.moves[0].tb_rank
                })
                .sum::<i32>()
        })
    });
    group.finish();
}

fn cold(c: &mut Criterion) {
    let cases = workload();
    let directory = tables_dir();
    let path = CString::new(directory.to_str().unwrap()).unwrap();

    let mut group = c.benchmark_group("syzygy_add_directory");
    // Each contender's drop of the previous state is timed: `tb_init`
    // frees the tables of the init before.
    group.bench_function("bitboards add_directory", |b| {
        b.iter(|| {
            let mut tables = Tablebase::new();
            tables.add_directory(black_box(&directory)).unwrap()
        })
    });
    let quiet = QuietStderr::new();
    group.bench_function("fathom tb_init (tries every table name)", |b| {
        b.iter(|| init(black_box(&path)))
    });
    drop(quiet);
    group.finish();

    // A KQvKR position with no capture on the board: its probes read that
    // table alone (the DTZ probe, both of its files).
    let kqkr = Position::from_fen("3r4/8/8/3k4/8/8/8/KQ6 w - - 0 1").unwrap();
    let warm = fresh();
    warm.probe_dtz(&kqkr).unwrap();
    let mut group = c.benchmark_group("syzygy_first_probe");
    group.bench_function("bitboards probe_wdl, fresh Tablebase", |b| {
        b.iter_batched_ref(
            fresh,
            |tables| tables.probe_wdl(black_box(&kqkr)).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("bitboards probe_wdl, warm", |b| {
        b.iter(|| warm.probe_wdl(black_box(&kqkr)).unwrap())
    });
    group.bench_function("bitboards probe_dtz, fresh Tablebase", |b| {
        b.iter_batched_ref(
            fresh,
            |tables| tables.probe_dtz(black_box(&kqkr)).unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("bitboards probe_dtz, warm", |b| {
        b.iter(|| warm.probe_dtz(black_box(&kqkr)).unwrap())
    });
    group.finish();

    let mut group = c.benchmark_group("syzygy_cold");
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("bitboards add_directory + probe_wdl", |b| {
        b.iter(|| {
            let mut tables = Tablebase::new();
            tables.add_directory(black_box(&directory)).unwrap();
            cases
                .iter()
                .map(|case| tables.probe_wdl(&case.position).unwrap() as i32)
                .sum::<i32>()
        })
    });
    let quiet = QuietStderr::new();
    group.bench_function("fathom tb_init + tb_probe_wdl", |b| {
        b.iter(|| {
            assert!(init(black_box(&path)));
            cases.iter().map(|case| case.boards.wdl()).sum::<c_uint>()
        })
    });
    drop(quiet);
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50);
    targets = warm, cold
}
criterion_main!(benches);
