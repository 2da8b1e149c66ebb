//! A scripted UCI engine for the tests of `bitboards-engine`: the binary
//! `fake-uci-engine MODE`, where MODE says how it misbehaves.
//!
//! - `normal`: a well-behaved engine. Its options: Hash, Threads, MultiPV,
//!   UCI_Chess960, Style (combo), Clear Hash (button), SyzygyPath (string).
//!   Every `position` and `setoption` command is echoed as `info string
//!   <command>` (read by the client in the next search); `go`
//!   answers one info line per PV rank (the legal moves in order) and
//!   `bestmove` the first legal move, `ponder` the first reply.
//! - `die-after-uci`: the handshake, then exit status 3 at the next command.
//! - `die-on-go`: exit status 3 at `go`.
//! - `hang-on-go`: no answer to `go`, but `stop` is answered.
//! - `hang`: no answer to `go`, and `stop`, `quit` and the end of its input
//!   are ignored: only a kill ends it.
//! - `ignore-quit`: normal, but `quit` and the end of input are ignored.
//! - `garbage`: normal answers among lines of garbage (binary bytes,
//!   unknown words, bad info fields).
//! - `illegal-bestmove`: `bestmove e2e5` (or another illegal move).
//! - `illegal-pv`: a PV whose second move is illegal, and an illegal ponder.
//! - `no-uciok`: `id` and `option` lines, never `uciok`.
//! - `slow-ready`: `readyok` only after 3 s.
//! - `die-on-nth-go N`: normal, but exit status 3 at its Nth `go` (each
//!   process counts its own).
//! - `die-on-position TEXT`: normal, but exit status 3 at a `go` whose
//!   `position` command contains TEXT.
//! - `random-delay`: normal, but each `go` is answered after 0 to 19 ms,
//!   chosen by the position (so that searches end out of order).
//! - `flood`: normal, but `go` is answered with `info` lines without end.
//! - `slow-talker`: normal, but each `go` is answered after 1.2 s, with an
//!   `info string thinking` every 200 ms meanwhile (a long search that
//!   keeps reporting).

use std::io::{self, BufRead, Write};
use std::thread;
use std::time::Duration;

use bitboards::{CastlingNotation, Position};

fn hang_forever() -> ! {
    loop {
        thread::sleep(Duration::from_secs(3600));
    }
}

fn main() {
    let mode = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "normal".to_owned());
    let argument = std::env::args().nth(2).unwrap_or_default();
    let mut gos = 0u64;
    let mut position_line = String::new();
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut position = Position::START;
    let mut chess960 = false;
    let mut multipv = 1usize;
    let mut said = |out: &mut io::StdoutLock<'_>, text: &str| {
        let _ = out.write_all(text.as_bytes());
        let _ = out.write_all(b"\n");
        let _ = out.flush();
    };
    let ignores_quit = mode == "hang" || mode == "ignore-quit";
    let mut handshaken = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else {
            continue;
        };
        if handshaken && mode == "die-after-uci" {
            std::process::exit(3);
        }
        match command {
            "uci" => {
                if mode == "garbage" {
                    said(&mut out, "\u{1}\u{2}garbage ÿþ");
                    said(&mut out, "hello there");
                    said(&mut out, "option name Broken");
                }
                said(&mut out, "id name Fake Engine 1.0");
                said(&mut out, "id author The Tests");
                for option in [
                    "option name Hash type spin default 16 min 1 max 1024",
                    "option name Threads type spin default 1 min 1 max 8",
                    "option name MultiPV type spin default 1 min 1 max 50",
                    "option name UCI_Chess960 type check default false",
                    "option name Style type combo default Normal var Solid var Normal var Risky",
                    "option name Clear Hash type button",
                    "option name SyzygyPath type string default <empty>",
                ] {
                    said(&mut out, option);
                }
                if mode == "no-uciok" {
                    continue;
                }
                said(&mut out, "uciok");
                handshaken = true;
            }
            "isready" => {
                if mode == "slow-ready" {
                    thread::sleep(Duration::from_secs(3));
                }
                said(&mut out, "readyok");
            }
            "setoption" => {
                said(&mut out, &format!("info string {line}"));
                let text = line.to_ascii_lowercase();
                if text.contains("name uci_chess960 value") {
                    chess960 = text.ends_with("true");
                } else if text.contains("name multipv value") {
                    multipv = words.last().and_then(|n| n.parse().ok()).unwrap_or(1);
                }
            }
            "position" => {
                said(&mut out, &format!("info string {line}"));
                position_line.clone_from(&line);
                position = read_position(&words[1..]).unwrap_or(Position::START);
            }
            "go" => match mode.as_str() {
                "die-on-go" => std::process::exit(3),
                "die-on-nth-go" => {
                    gos += 1;
                    if argument.parse() == Ok(gos) {
                        std::process::exit(3);
                    }
                    search(&mut out, &mode, &position, chess960, multipv, &mut said);
                }
                "die-on-position" if position_line.contains(argument.as_str()) => {
                    std::process::exit(3)
                }
                "random-delay" => {
                    let fen = position.fen().to_string();
                    let hash = fen
                        .bytes()
                        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
                    thread::sleep(Duration::from_millis(hash % 20));
                    search(&mut out, &mode, &position, chess960, multipv, &mut said);
                }
                "slow-talker" => {
                    for _ in 0..6 {
                        thread::sleep(Duration::from_millis(200));
                        said(&mut out, "info string thinking");
                    }
                    search(&mut out, &mode, &position, chess960, multipv, &mut said);
                }
                "flood" => loop {
                    if writeln!(out, "info depth 1 score cp 0 string flood").is_err() {
                        return;
                    }
                },
                "hang-on-go" | "hang" => {}
                _ => search(&mut out, &mode, &position, chess960, multipv, &mut said),
            },
            "stop" if mode == "hang-on-go" => {
                let best = position.legal_moves().iter().next().copied();
                match best {
                    Some(mv) => said(&mut out, &format!("bestmove {mv}")),
                    None => said(&mut out, "bestmove (none)"),
                }
            }
            "quit" if !ignores_quit => return,
            _ => {}
        }
    }
    if ignores_quit {
        hang_forever();
    }
}

/// The position of a `position startpos|fen ... [moves ...]` command.
fn read_position(words: &[&str]) -> Option<Position> {
    let (mut position, rest) = match *words.first()? {
        "startpos" => (Position::START, &words[1..]),
        "fen" => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            (
                Position::from_fen(&words[1..end].join(" ")).ok()?,
                &words[end..],
            )
        }
        _ => return None,
    };
    for text in rest.iter().skip(1) {
        position = position.play(position.parse_uci(text).ok()?).ok()?;
    }
    Some(position)
}

fn search(
    out: &mut io::StdoutLock<'_>,
    mode: &str,
    position: &Position,
    chess960: bool,
    multipv: usize,
    said: &mut impl FnMut(&mut io::StdoutLock<'_>, &str),
) {
    let notation = if chess960 {
        CastlingNotation::KingTakesRook
    } else {
        CastlingNotation::KingToTarget
    };
    let moves = position.legal_moves();
    if moves.is_empty() {
        said(out, "info depth 0 score mate 0");
        said(out, "bestmove (none)");
        return;
    }
    if mode == "garbage" {
        said(
            out,
            "info depth banana score cp nodes -5 frobnicate 7 pv zz99",
        );
        said(out, "\u{0}\u{7f}\u{fffd}");
        said(out, "readyok uciok bestmovex");
    }
    for (rank, &mv) in moves.iter().take(multipv).enumerate() {
        let mut pv = mv.uci(notation).to_string();
        let after = position.play_unchecked(mv);
        if let Some(&reply) = after.legal_moves().iter().next() {
            pv.push(' ');
            pv.push_str(&reply.uci(notation).to_string());
        }
        if mode == "illegal-pv" {
            pv = format!("{} e2e5 a1a2", mv.uci(notation));
        }
        said(
            out,
            &format!(
                "info depth 1 seldepth 2 multipv {} score cp {} wdl 500 300 200 nodes 20 nps 1000 hashfull 1 tbhits 0 time 3 pv {pv}",
                rank + 1,
                10 - rank as i32
            ),
        );
    }
    let best = moves.as_slice()[0];
    if mode == "illegal-bestmove" {
        // From the start: e2e5 is no move; elsewhere the same text is
        // almost never legal either.
        said(out, "bestmove e2e5");
        return;
    }
    let after = position.play_unchecked(best);
    let ponder = if mode == "illegal-pv" {
        Some("a1a1".to_owned())
    } else {
        after
            .legal_moves()
            .iter()
            .next()
            .map(|mv| mv.uci(notation).to_string())
    };
    match ponder {
        Some(ponder) => said(
            out,
            &format!("bestmove {} ponder {ponder}", best.uci(notation)),
        ),
        None => said(out, &format!("bestmove {}", best.uci(notation))),
    }
}
