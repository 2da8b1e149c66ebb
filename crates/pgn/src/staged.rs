//! Output files that appear whole or not at all: [`StagedFile`].

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file written under a temporary name beside its own (`.NAME.PID.partial`)
/// and given its name by [`commit`](Self::commit) once it is complete: a
/// write that stops before (an error, a full disk, a killed process) leaves
/// no file at the path that looks whole. Dropped without `commit`, the
/// temporary file is removed (a killed process leaves it, under its
/// temporary name). Writes are buffered (1 MiB).
///
/// A path that is not a file to replace is written in place: a device
/// (`/dev/null`, a terminal), a named pipe, a socket, which a rename would
/// replace with a regular file. A symbolic link keeps its place: the
/// file it points to is the one replaced.
///
/// ```
/// use std::io::Write;
/// use bitboards_pgn::StagedFile;
///
/// let path = std::env::temp_dir().join(format!("staged-doc-{}.txt", std::process::id()));
/// let mut file = StagedFile::create(&path)?;
/// file.write_all(b"whole")?;
/// assert!(!path.exists(), "not before commit");
/// file.commit()?;
/// assert_eq!(std::fs::read(&path)?, b"whole");
///
/// let mut unfinished = StagedFile::create(&path)?;
/// unfinished.write_all(b"half")?;
/// drop(unfinished);
/// assert_eq!(std::fs::read(&path)?, b"whole", "the file before is left as it was");
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct StagedFile {
    /// `None` once committed.
    file: Option<BufWriter<File>>,
    /// The temporary name and the path it becomes; `None` for a path
    /// written in place.
    staged: Option<(PathBuf, PathBuf)>,
}

impl StagedFile {
    /// Starts the file that will be `path`.
    ///
    /// # Errors
    /// What creating the temporary file beside `path` returns.
    pub fn create(path: impl AsRef<Path>) -> io::Result<StagedFile> {
        let path = path.as_ref();
        let target = match std::fs::metadata(path) {
            // What a rename would put a regular file in the place of.
            Ok(found) if !found.is_file() && !found.is_dir() => {
                let file = std::fs::OpenOptions::new().write(true).open(path)?;
                return Ok(StagedFile {
                    file: Some(BufWriter::with_capacity(1 << 20, file)),
                    staged: None,
                });
            }
            // A link's file is replaced, the link left where it is.
            Ok(_) if path.is_symlink() => std::fs::canonicalize(path)?,
            _ => path.to_path_buf(),
        };
        let name = target
            .file_name()
            .map_or_else(|| "output".into(), std::ffi::OsStr::to_os_string);
        let mut temporary = std::ffi::OsString::from(".");
        temporary.push(&name);
        temporary.push(format!(".{}.partial", std::process::id()));
        let temporary = target.with_file_name(temporary);
        let file = File::create(&temporary)?;
        Ok(StagedFile {
            file: Some(BufWriter::with_capacity(1 << 20, file)),
            staged: Some((temporary, target)),
        })
    }

    /// Flushes the file and gives it its name (replacing a file there).
    ///
    /// # Errors
    /// What flushing or renaming returns; the temporary file is then
    /// removed.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(file) = self.file.take() else {
            return Ok(());
        };
        let done = file
            .into_inner()
            .map_err(io::IntoInnerError::into_error)
            .and_then(|file| {
                drop(file);
                match &self.staged {
                    Some((temporary, target)) => std::fs::rename(temporary, target),
                    None => Ok(()),
                }
            });
        if done.is_err()
            && let Some((temporary, _)) = &self.staged
        {
            let _ = std::fs::remove_file(temporary);
        }
        done
    }

    fn file(&mut self) -> io::Result<&mut BufWriter<File>> {
        self.file
            .as_mut()
            .ok_or_else(|| io::Error::other("the file is already committed"))
    }
}

impl Write for StagedFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file()?.write(bytes)
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.file()?.write_all(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file()?.flush()
    }
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        if self.file.take().is_some()
            && let Some((temporary, _)) = &self.staged
        {
            let _ = std::fs::remove_file(temporary);
        }
    }
}
