//! What the explorer's integration tests share: their data files and a
//! directory of their own for each index they build.

use std::path::{Path, PathBuf};

/// `tests/data/NAME`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A directory of its own for a test's index, removed when done.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// `bitboards-explorer-PID-NAME` in the temporary directory, empty.
    pub fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("bitboards-explorer-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
