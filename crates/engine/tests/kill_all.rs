//! `kill_all`: what a program calls on SIGINT or SIGTERM, before it exits.
//! A test binary of its own: it kills every engine of the process.
#![cfg(target_os = "linux")]

use std::path::Path;
use std::time::{Duration, Instant};

use bitboards::Position;
use bitboards_engine::{EngineBuilder, EngineError, Limit};

const FAKE: &str = env!("CARGO_BIN_EXE_fake-uci-engine");

fn gone_soon(pid: u32) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        // A zombie keeps its /proc entry; its state is `Z`.
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(stat) if stat.split_whitespace().nth(2) == Some("Z") => return true,
            Ok(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    false
}

#[test]
fn kill_all_kills_every_engine_and_its_group() {
    let mut engines: Vec<_> = (0..2)
        .map(|_| EngineBuilder::new(FAKE).arg("normal").start().unwrap())
        .collect();
    let pids: Vec<u32> = engines.iter().map(|engine| engine.pid()).collect();
    assert!(
        pids.iter()
            .all(|pid| Path::new(&format!("/proc/{pid}")).exists())
    );
    bitboards_engine::kill_all();
    for &pid in &pids {
        assert!(gone_soon(pid), "engine {pid} is still running");
    }
    // Their owners see the engines gone, and reap them.
    let error = engines[0]
        .analyse(&Position::START, &Limit::nodes(1), 1)
        .unwrap_err();
    assert!(
        matches!(
            error,
            EngineError::Terminated { .. } | EngineError::Io { .. }
        ),
        "{error}"
    );
    drop(engines);
    for pid in pids {
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "{pid} not reaped"
        );
    }
}
