//! What cannot be answered is an error that says why, and a corrupted
//! table never panics; many threads get the answers one thread gets.

use std::path::PathBuf;
use std::sync::Arc;

use bitboards::Position;
use bitboards_syzygy::{SyzygyError, Tablebase, Wdl, table_name};

fn tables_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/syzygy")
}

fn reference() -> Vec<(Position, i32, i32)> {
    let path = tables_dir().join("../syzygy-reference.csv");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| {
            let mut fields = line.rsplitn(3, ',');
            let dtz = fields.next().unwrap().parse().unwrap();
            let wdl = fields.next().unwrap().parse().unwrap();
            (
                Position::from_fen(fields.next().unwrap()).unwrap(),
                wdl,
                dtz,
            )
        })
        .collect()
}

#[test]
fn missing_tables_castling_and_too_many_pieces_are_named() {
    let mut tables = Tablebase::new();
    let krk = Position::from_fen("8/8/8/8/4k3/8/8/R3K3 w - - 0 1").unwrap();
    let error = tables.probe_wdl(&krk).unwrap_err();
    assert!(matches!(&error, SyzygyError::MissingTable { name } if name == "KRvK.rtbw"));
    assert_eq!(
        error.to_string(),
        "no table KRvK.rtbw: add a directory that holds it"
    );
    // Black the stronger side: the same table, named as the files are.
    let kkr = Position::from_fen("r3k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert!(
        matches!(tables.probe_wdl(&kkr), Err(SyzygyError::MissingTable { name }) if name == "KRvK.rtbw")
    );
    // A capture into a table that is not there.
    let bytes = std::fs::read(tables_dir().join("KRvKN.rtbw")).unwrap();
    tables.add_table_bytes("KRvKN.rtbw", bytes).unwrap();
    let takes = Position::from_fen("8/8/8/8/4k3/8/8/R1n1K3 w - - 0 1").unwrap();
    assert!(
        matches!(tables.probe_wdl(&takes), Err(SyzygyError::MissingTable { name }) if name == "KRvK.rtbw")
    );
    // DTZ needs its own file.
    tables.add_directory(tables_dir()).unwrap();
    assert_eq!(tables.probe_wdl(&takes).unwrap(), Wdl::Win);

    let castling = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    assert!(matches!(
        tables.probe_wdl(&castling),
        Err(SyzygyError::Castling)
    ));
    let start = Position::START;
    let error = tables.probe_dtz(&start).unwrap_err();
    assert!(matches!(error, SyzygyError::Castling));
    let many = Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1").unwrap();
    let error = tables.probe_wdl(&many).unwrap_err();
    assert!(matches!(error, SyzygyError::TooManyPieces { count: 10 }));
    assert!(error.to_string().contains("at most 7"));
    // Five pieces: no 5-piece table here.
    let five = Position::from_fen("4k3/8/8/8/8/8/8/RR2K2R w - - 0 1").unwrap();
    assert!(
        matches!(tables.probe_wdl(&five), Err(SyzygyError::MissingTable { name }) if name == "KRRRvK.rtbw")
    );
    // Bare kings need no table.
    let kk = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1").unwrap();
    assert_eq!(Tablebase::new().probe_wdl(&kk).unwrap(), Wdl::Draw);
    assert!(matches!(
        tables.add_table_bytes("README.md", Vec::new()),
        Err(SyzygyError::Corrupt { .. })
    ));
}

#[test]
fn a_file_that_is_not_a_table_says_so() {
    let mut tables = Tablebase::new();
    tables
        .add_table_bytes("KQvK.rtbw", b"not a table".to_vec())
        .unwrap();
    let kqk = Position::from_fen("8/8/8/8/4k3/8/8/Q3K3 w - - 0 1").unwrap();
    let error = tables.probe_wdl(&kqk).unwrap_err();
    assert!(matches!(&error, SyzygyError::Corrupt { path, .. } if path.ends_with("KQvK.rtbw")));
    assert!(error.to_string().contains("magic"), "{error}");
    // A DTZ file under a WDL name.
    let dtz = std::fs::read(tables_dir().join("KQvK.rtbz")).unwrap();
    tables.add_table_bytes("KQvK.rtbw", dtz).unwrap();
    assert!(matches!(
        tables.probe_wdl(&kqk),
        Err(SyzygyError::Corrupt { .. })
    ));
}

/// Every table cut short at many lengths and with bytes changed answers
/// every probe with a value or an error, never a panic (the test would
/// fail on one).
#[test]
fn corrupted_tables_never_panic() {
    let positions = reference();
    let mut rng = bitboards_test_support::Rng::new(0x5e2e);
    for entry in std::fs::read_dir(tables_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !name.ends_with(".rtbw") && !name.ends_with(".rtbz") {
            continue;
        }
        let good = std::fs::read(&path).unwrap();
        let stem = name[..name.len() - 5].to_string();
        let these: Vec<&(Position, i32, i32)> = positions
            .iter()
            .filter(|(position, _, _)| table_name(position) == stem)
            .take(40)
            .collect();
        for round in 0..12 {
            let mut bad = good.clone();
            if round < 6 {
                let len = rng.below(good.len());
                bad.truncate(len);
            } else {
                for _ in 0..1 + round {
                    let at = rng.below(bad.len());
                    bad[at] ^= 1 << rng.below(8);
                }
            }
            let mut tables = Tablebase::new();
            tables.add_directory(tables_dir()).unwrap();
            tables.add_table_bytes(&name, bad).unwrap();
            for (position, wdl, dtz) in &these {
                let got_wdl = tables.probe_wdl(position);
                let got_dtz = tables.probe_dtz(position);
                // A table cut short is refused whole (its header says how
                // long it is): an error, or the right answer where the
                // probe did without it (a DTZ probe of the side the file
                // does not hold searches one ply with WDL).
                if round < 6 {
                    match got_wdl {
                        Ok(got) => assert_eq!(got as i32, *wdl, "{name}: {}", position.fen()),
                        Err(error) => assert!(matches!(error, SyzygyError::Corrupt { .. })),
                    }
                    match got_dtz {
                        Ok(got) => assert_eq!(got.0, *dtz, "{name}: {}", position.fen()),
                        Err(error) => assert!(matches!(error, SyzygyError::Corrupt { .. })),
                    }
                }
            }
        }
    }
}

#[test]
fn threads_probing_the_same_tables_get_one_thread_s_answers() {
    let positions = Arc::new(reference());
    let mut tables = Tablebase::new();
    tables.add_directory(tables_dir()).unwrap();
    let tables = Arc::new(tables);
    let handles: Vec<_> = (0..4)
        .map(|thread| {
            let (tables, positions) = (tables.clone(), positions.clone());
            std::thread::spawn(move || {
                positions
                    .iter()
                    .skip(thread % 2)
                    .step_by(2)
                    .map(|(position, wdl, dtz)| {
                        let got_wdl = tables.probe_wdl(position).unwrap() as i32;
                        let got_dtz = tables.probe_dtz(position).unwrap().0;
                        if (got_wdl, got_dtz) != (*wdl, *dtz) {
                            eprintln!(
                                "{}: {got_wdl} {got_dtz} against {wdl} {dtz}",
                                position.fen()
                            );
                        }
                        usize::from((got_wdl, got_dtz) == (*wdl, *dtz))
                    })
                    .sum::<usize>()
            })
        })
        .collect();
    let right: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert_eq!(right, 2 * positions.len());
}

#[test]
fn best_moves_keep_the_win_and_zero_soonest() {
    let mut tables = Tablebase::new();
    tables.add_directory(tables_dir()).unwrap();
    let position = Position::from_fen("8/8/8/8/4k3/8/8/R3K3 w - - 0 1").unwrap();
    let ranked = tables.best_moves(&position).unwrap();
    assert_eq!(ranked.len(), position.legal_moves().len());
    assert_eq!(ranked[0].wdl, Wdl::Win);
    assert_eq!(ranked[0].dtz, tables.probe_dtz(&position).unwrap());
    assert!(ranked.windows(2).all(|pair| pair[0].rank >= pair[1].rank));
    // Each move's DTZ is one more than the reply position's, negated.
    for ranked in &ranked {
        let after = position.play_unchecked(ranked.mv);
        let reply = tables.probe_dtz(&after).unwrap().0;
        assert_eq!(ranked.dtz.0, -reply + (-reply).signum(), "{:?}", ranked.mv);
    }
    // A draw keeps the draw: K+B against K+N has no win.
    let drawn = Position::from_fen("8/8/3k4/8/8/2n5/8/B3K3 w - - 0 1").unwrap();
    let ranked = tables.best_moves(&drawn).unwrap();
    assert!(ranked.iter().all(|ranked| ranked.wdl == Wdl::Draw));
    // A mate in one is ranked first with a DTZ of 1.
    let mate = Position::from_fen("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1").unwrap();
    let best = tables.best_moves(&mate).unwrap()[0];
    assert_eq!((best.wdl, best.dtz.0), (Wdl::Win, 1));
    assert!(mate.play_unchecked(best.mv).is_checkmate());
}

/// A table file cut short while in use, read where it lies (as a file too
/// large for memory is): the next probe that reads what it lost is an
/// error that says so, never a crash (a mapped file would end the process
/// with SIGBUS there) and never a wrong answer; a file read into memory
/// before the cut keeps answering.
#[test]
fn a_table_cut_short_while_in_use_is_an_error() {
    let dir = std::env::temp_dir().join(format!("syzygy-cut-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["KQvKR.rtbw", "KQvKR.rtbz"] {
        std::fs::copy(tables_dir().join(name), dir.join(name)).unwrap();
    }
    let positions: Vec<(Position, i32, i32)> = reference()
        .into_iter()
        .filter(|(position, _, _)| table_name(position) == "KQvKR")
        .collect();
    assert!(positions.len() >= 20, "{} positions", positions.len());
    // Every table, KQvKR's from the copies.
    let tables = |in_memory: u64| {
        let mut tables = Tablebase::new();
        tables.set_in_memory_limit(in_memory);
        tables.add_directory(tables_dir()).unwrap();
        tables.add_directory(&dir).unwrap();
        tables
    };
    let where_they_lie = tables(0);
    let in_memory = tables(Tablebase::IN_MEMORY);
    for (position, wdl, dtz) in &positions {
        for tables in [&where_they_lie, &in_memory] {
            assert_eq!(tables.probe_wdl(position).unwrap() as i32, *wdl);
            assert_eq!(tables.probe_dtz(position).unwrap().0, *dtz);
        }
    }
    // Both files cut to a tenth.
    for name in ["KQvKR.rtbw", "KQvKR.rtbz"] {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join(name))
            .unwrap();
        let len = file.metadata().unwrap().len();
        file.set_len(len / 10).unwrap();
    }
    // What the probes say: an error naming the file, or the right answer.
    let mut cut_in_use = 0;
    let mut wdl_errors = 0;
    let mut needs_the_table = None;
    let check = |result: Result<i32, SyzygyError>, right: i32, fen: String| match result {
        Ok(got) => {
            assert_eq!(got, right, "{fen}");
            None
        }
        Err(SyzygyError::Corrupt { path, problem }) => {
            assert!(
                path.to_str().unwrap().contains("KQvKR.rtb"),
                "{}",
                path.display()
            );
            // The WDL file was open before the cut; the DTZ file may not
            // have been, and is then refused whole when opened.
            let in_use = problem.contains("shorter than when it was opened");
            assert!(
                in_use || problem.contains("past the end of the file"),
                "{problem}"
            );
            Some(in_use)
        }
        Err(other) => panic!("{other}"),
    };
    for (position, wdl, dtz) in &positions {
        let fen = position.fen().to_string();
        let got = where_they_lie.probe_wdl(position).map(|wdl| wdl as i32);
        if let Some(in_use) = check(got, *wdl, fen.clone()) {
            needs_the_table.get_or_insert(position);
            wdl_errors += 1;
            cut_in_use += usize::from(in_use);
        }
        let got = where_they_lie.probe_dtz(position).map(|dtz| dtz.0);
        if let Some(in_use) = check(got, *dtz, fen) {
            cut_in_use += usize::from(in_use);
        }
        assert_eq!(in_memory.probe_wdl(position).unwrap() as i32, *wdl);
        assert_eq!(in_memory.probe_dtz(position).unwrap().0, *dtz);
    }
    // Many positions are settled by a capture before the table is read;
    // of the rest, most values lie in the nine tenths cut off.
    assert!(
        wdl_errors * 5 > positions.len(),
        "{wdl_errors} of {}",
        positions.len()
    );
    assert!(
        cut_in_use >= wdl_errors,
        "{cut_in_use} reads of the cut file in use"
    );
    // Opened anew, a cut file is refused whole.
    let error = tables(0).probe_wdl(needs_the_table.unwrap()).unwrap_err();
    assert!(matches!(error, SyzygyError::Corrupt { .. }), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}
