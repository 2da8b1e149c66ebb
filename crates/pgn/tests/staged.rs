//! `StagedFile`: a file appears whole or not at all, and what is not a file
//! to replace (a named pipe, a device) is written in place, never replaced.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use bitboards_pgn::StagedFile;

/// A directory of its own for one test, emptied first.
fn directory(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("staged-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the directory reads")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn a_file_appears_at_commit_and_a_dropped_one_leaves_nothing() {
    let dir = directory("file");
    let path = dir.join("out.parquet");
    let mut file = StagedFile::create(&path).unwrap();
    file.write_all(b"whole").unwrap();
    assert!(!path.exists(), "not before commit");
    assert_eq!(
        names(&dir).len(),
        1,
        "only the temporary file: {:?}",
        names(&dir)
    );
    file.commit().unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"whole");
    assert_eq!(names(&dir), ["out.parquet"]);

    let mut dropped = StagedFile::create(&path).unwrap();
    dropped.write_all(b"half").unwrap();
    drop(dropped);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        b"whole",
        "the file before is kept"
    );
    assert_eq!(names(&dir), ["out.parquet"], "no temporary file left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_written_in_place_not_replaced() {
    use std::os::unix::fs::FileTypeExt;

    let dir = directory("fifo");
    let pipe = dir.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&pipe).status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("no mkfifo here: skipped");
        return;
    }
    let reading = {
        let pipe = pipe.clone();
        std::thread::spawn(move || {
            let mut text = Vec::new();
            std::fs::File::open(pipe)
                .unwrap()
                .read_to_end(&mut text)
                .unwrap();
            text
        })
    };
    let mut out = StagedFile::create(&pipe).unwrap();
    out.write_all(b"rows through the pipe").unwrap();
    out.commit().unwrap();
    // Before waiting on the reader, which a replaced pipe would leave
    // blocked on opening it.
    let kind = std::fs::symlink_metadata(&pipe).unwrap().file_type();
    assert!(kind.is_fifo(), "the pipe was replaced: {kind:?}");
    assert_eq!(reading.join().unwrap(), b"rows through the pipe");
    assert_eq!(names(&dir), ["pipe"], "no temporary file beside it");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_link_keeps_its_place_and_its_file_is_replaced() {
    let dir = directory("link");
    let real = dir.join("real.csv");
    let link = dir.join("link.csv");
    std::fs::write(&real, b"old").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut out = StagedFile::create(&link).unwrap();
    out.write_all(b"new").unwrap();
    out.commit().unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(&real).unwrap(), b"new");
    assert_eq!(names(&dir), ["link.csv", "real.csv"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
