//! What the Stockfish tests share.

use std::path::Path;

/// Stockfish's path (`$STOCKFISH`, else Debian's `/usr/games/stockfish`),
/// or `None` (with a message) when it is not installed. Under `CI=true`
/// a missing engine is a failure: `.ci/run` installs Debian's `stockfish`.
pub fn stockfish() -> Option<String> {
    let path = std::env::var("STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".to_owned());
    if Path::new(&path).exists() {
        Some(path)
    } else if std::env::var("CI").is_ok_and(|ci| ci == "true") {
        panic!("CI=true and no Stockfish at {path}: .ci/run installs Debian's `stockfish`");
    } else {
        eprintln!(
            "skipped: no Stockfish at {path} (apt-get install stockfish, or set STOCKFISH=path)"
        );
        None
    }
}
