//! The analysis table's rows, from the fake engine's known answers: one row
//! per PV, scores and WDL turned to White's view, moves as UCI text.

use std::time::Duration;

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, UInt16Type, UInt32Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use bitboards::Position;
use bitboards_engine::table::{AnalysisBuilder, analysis_schema};
use bitboards_engine::{EngineBuilder, Limit};

const FAKE: &str = env!("CARGO_BIN_EXE_fake-uci-engine");

fn analyse(fens: &[&str], multipv: u32) -> RecordBatch {
    let mut engine = EngineBuilder::new(FAKE)
        .arg("normal")
        .search_timeout(Duration::from_secs(5))
        .start()
        .unwrap();
    let mut builder = AnalysisBuilder::new();
    for (game, fen) in fens.iter().enumerate() {
        let position = Position::from_fen(fen).unwrap();
        let analysis = engine
            .analyse(&position, &Limit::nodes(1), multipv)
            .unwrap();
        builder.push(game as u64, game * 3, &analysis);
    }
    assert!(builder.len() >= fens.len());
    let batch = builder.finish();
    assert!(builder.is_empty());
    assert_eq!(batch.schema(), analysis_schema());
    batch
}

#[test]
fn a_row_per_pv_in_whites_view() {
    // Black to move: the fake engine says `score cp 10` (rank 1) and
    // `cp 9` (rank 2) and `wdl 500 300 200`, from Black's side.
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let batch = analyse(&[fen], 2);
    assert_eq!(batch.num_rows(), 2);
    let column = |name: &str| batch.column_by_name(name).unwrap().clone();
    assert_eq!(
        column("game").as_primitive::<UInt64Type>().values(),
        &[0, 0]
    );
    assert_eq!(
        column("multipv").as_primitive::<UInt16Type>().values(),
        &[1, 2]
    );
    let fens = column("fen");
    assert_eq!(fens.as_string::<i32>().value(0), fen);
    assert!(!column("turn").as_boolean().value(0));
    let cp = column("cp");
    assert_eq!(
        cp.as_primitive::<Int32Type>().iter().collect::<Vec<_>>(),
        [Some(-10), Some(-9)]
    );
    assert_eq!(column("mate").null_count(), 2);
    let wdl = column("wdl");
    let wdl = wdl.as_struct();
    let win = wdl
        .column_by_name("win")
        .unwrap()
        .as_primitive::<UInt16Type>();
    let loss = wdl
        .column_by_name("loss")
        .unwrap()
        .as_primitive::<UInt16Type>();
    assert_eq!((win.value(0), loss.value(0)), (200, 500));
    assert_eq!(column("depth").as_primitive::<UInt32Type>().value(1), 1);
    assert_eq!(column("nodes").as_primitive::<UInt64Type>().value(0), 20);
    // Each PV: its move and the first reply; `best` is the PV's first move.
    let position = Position::from_fen(fen).unwrap();
    let legal = position.legal_moves();
    let pv = column("pv");
    let pv = pv.as_list::<i32>();
    for row in 0..2 {
        let moves = pv.value(row);
        let moves = moves.as_string::<i32>();
        assert_eq!(moves.len(), 2);
        let first = position.uci(legal.as_slice()[row]).to_string();
        assert_eq!(moves.value(0), first);
        assert_eq!(column("best").as_string::<i32>().value(row), first);
    }
    // The boards, as the positions table of bitboards-pgn writes them.
    let boards = column("bitboards");
    let boards = boards.as_fixed_size_list().value(0);
    let boards = boards.as_primitive::<UInt64Type>().values().to_vec();
    let expected: Vec<u64> = position
        .piece_boards()
        .iter()
        .map(|board| board.0)
        .collect();
    assert_eq!(boards, expected);
}

#[test]
fn a_checkmate_has_a_row_with_no_move() {
    // Fool's mate: White is checkmated; the engine says `score mate 0`.
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let batch = analyse(&[start, mate], 1);
    assert_eq!(batch.num_rows(), 2);
    let column = |name: &str| batch.column_by_name(name).unwrap().clone();
    assert_eq!(column("ply").as_primitive::<UInt16Type>().values(), &[0, 3]);
    let best = column("best");
    assert!(best.is_valid(0) && best.is_null(1));
    let mate = column("mate");
    let mate = mate.as_primitive::<Int32Type>();
    assert!(mate.is_null(0));
    assert_eq!(mate.value(1), 0);
    assert!(column("cp").is_null(1));
    assert_eq!(column("pv").as_list::<i32>().value(1).len(), 0);
    let wdl = column("wdl");
    assert!(wdl.is_valid(0) && wdl.is_null(1));
}
