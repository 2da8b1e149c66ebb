//! The opening explorer: the compiled part of `bitboards.explorer` over
//! the `bitboards-explorer` crate. Building reads PGN on every core with
//! the GIL released; a query answers the JSON of Lichess's explorer API,
//! which the Python side reads into a dict (or a table).

use bitboards::Color;
use bitboards_explorer::{BuildOptions, Explorer, Filter, IndexError, Limits, Play, PlayerFilter};
use bitboards_pgn::{ReadCounter, Source};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

pyo3::create_exception!(
    bitboards.explorer,
    IndexCorruptError,
    PyValueError,
    "An explorer index whose files are truncated or damaged."
);

fn index_error(error: IndexError) -> PyErr {
    match error {
        IndexError::Corrupt { .. } => IndexCorruptError::new_err(error.to_string()),
        IndexError::Mismatch(_) => PyValueError::new_err(error.to_string()),
        IndexError::NoIndex(_) | IndexError::Io { .. } => PyOSError::new_err(error.to_string()),
    }
}

/// Builds (or adds to) the index in `out` from the PGN files `paths`, on
/// `threads` threads (every core when `None`), counting `max_ply` plies
/// (50 when `None`; every ply for a masters index). Returns the build's
/// report.
#[pyfunction]
#[pyo3(signature = (paths, out, max_ply = None, threads = None, masters = false))]
fn explorer_build<'py>(
    py: Python<'py>,
    paths: Vec<String>,
    out: String,
    max_ply: Option<usize>,
    threads: Option<usize>,
    masters: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let sources: Vec<Source> = paths.iter().map(|path| Source::from_arg(path)).collect();
    let defaults = if masters {
        BuildOptions::masters()
    } else {
        BuildOptions::default()
    };
    let options = BuildOptions {
        max_ply: max_ply.unwrap_or(defaults.max_ply),
        threads,
        ..defaults
    };
    let report = py
        .detach(|| {
            bitboards_explorer::build(&sources, out.as_ref(), &options, &ReadCounter::default())
        })
        .map_err(index_error)?;
    let dict = PyDict::new(py);
    dict.set_item("games_read", report.games_read)?;
    dict.set_item("games_indexed", report.games_indexed)?;
    let skipped = PyDict::new(py);
    for (skip, count) in &report.skipped {
        skipped.set_item(skip.name(), count)?;
    }
    dict.set_item("skipped", skipped)?;
    dict.set_item("segments_written", report.segments_written)?;
    dict.set_item("bytes_written", report.bytes_written)?;
    dict.set_item("seconds", report.seconds)?;
    Ok(dict)
}

/// Merges the segments of the index in `path`, and the indexes in
/// `others` after them, into one segment in `path`.
#[pyfunction]
#[pyo3(signature = (path, others = Vec::new()))]
fn explorer_merge(py: Python<'_>, path: String, others: Vec<String>) -> PyResult<u64> {
    let others: Vec<&std::path::Path> = others.iter().map(std::path::Path::new).collect();
    py.detach(|| bitboards_explorer::merge_indexes(path.as_ref(), &others))
        .map(|report| report.games_indexed)
        .map_err(index_error)
}

/// An index, opened: the compiled base of `bitboards.explorer.Explorer`.
#[pyclass(module = "bitboards._bitboards", subclass, frozen)]
pub struct ExplorerIndex {
    explorer: Explorer,
}

fn play_of(fen: Option<&str>, play: &[String]) -> PyResult<Play> {
    let moves: Vec<&str> = play.iter().map(String::as_str).collect();
    Play::new(fen, &moves).map_err(|error| PyValueError::new_err(error.to_string()))
}

fn filter_of(
    speeds: Option<&str>,
    ratings: Option<&str>,
    since: Option<&str>,
    until: Option<&str>,
) -> PyResult<Filter> {
    Filter::parse(speeds, ratings, since, until)
        .map_err(|error| PyValueError::new_err(error.to_string()))
}

#[pymethods]
impl ExplorerIndex {
    #[new]
    fn new(py: Python<'_>, path: String) -> PyResult<ExplorerIndex> {
        let explorer = py.detach(|| Explorer::open(&path)).map_err(index_error)?;
        Ok(ExplorerIndex { explorer })
    }

    /// The games indexed.
    #[getter]
    fn games(&self) -> u64 {
        self.explorer.games()
    }

    /// The segments.
    #[getter]
    fn segments(&self) -> usize {
        self.explorer.segment_count()
    }

    /// `GET /lichess`'s JSON for the position of `fen` after `play`.
    #[pyo3(signature = (fen, play, speeds, ratings, since, until, moves, top_games, recent_games, history))]
    #[allow(clippy::too_many_arguments)]
    fn lichess_json(
        &self,
        py: Python<'_>,
        fen: Option<String>,
        play: Vec<String>,
        speeds: Option<String>,
        ratings: Option<String>,
        since: Option<String>,
        until: Option<String>,
        moves: usize,
        top_games: usize,
        recent_games: usize,
        history: bool,
    ) -> PyResult<String> {
        let play = play_of(fen.as_deref(), &play)?;
        let filter = filter_of(
            speeds.as_deref(),
            ratings.as_deref(),
            since.as_deref(),
            until.as_deref(),
        )?;
        let limits = Limits {
            moves,
            top_games,
            recent_games,
            history,
        };
        py.detach(|| self.explorer.lichess(&play, &filter, &limits))
            .map(|answer| answer.to_json())
            .map_err(index_error)
    }

    /// Whether the index is a masters index.
    #[getter]
    fn is_masters(&self) -> bool {
        self.explorer.is_masters()
    }

    /// `GET /masters`'s JSON for the position of `fen` after `play`.
    #[pyo3(signature = (fen, play, since, until, moves, top_games))]
    #[allow(clippy::too_many_arguments)]
    fn masters_json(
        &self,
        py: Python<'_>,
        fen: Option<String>,
        play: Vec<String>,
        since: Option<u16>,
        until: Option<u16>,
        moves: usize,
        top_games: usize,
    ) -> PyResult<String> {
        let play = play_of(fen.as_deref(), &play)?;
        let limits = Limits {
            moves,
            top_games,
            ..Limits::masters()
        };
        py.detach(|| self.explorer.masters(&play, since, until, &limits))
            .map(|answer| answer.to_json())
            .map_err(index_error)
    }

    /// `GET /masters/pgn/{id}`'s PGN of game `id`, `None` when there is no
    /// such game.
    fn masters_pgn(&self, py: Python<'_>, id: String) -> PyResult<Option<String>> {
        py.detach(|| self.explorer.masters_pgn(&id))
            .map_err(index_error)
    }

    /// `GET /player`'s JSON for `player` as `color` at the position.
    #[pyo3(signature = (player, color, fen, play, speeds, modes, since, until, moves, recent_games))]
    #[allow(clippy::too_many_arguments)]
    fn player_json(
        &self,
        py: Python<'_>,
        player: String,
        color: bool,
        fen: Option<String>,
        play: Vec<String>,
        speeds: Option<String>,
        modes: Option<String>,
        since: Option<String>,
        until: Option<String>,
        moves: usize,
        recent_games: usize,
    ) -> PyResult<String> {
        let play = play_of(fen.as_deref(), &play)?;
        let filter = PlayerFilter::parse(
            speeds.as_deref(),
            modes.as_deref(),
            since.as_deref(),
            until.as_deref(),
        )
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
        let limits = Limits {
            moves,
            top_games: 0,
            recent_games,
            history: false,
        };
        let color = if color { Color::White } else { Color::Black };
        py.detach(|| {
            self.explorer
                .player(&player, color, &play, &filter, &limits)
        })
        .map(|answer| answer.to_json())
        .map_err(index_error)
    }
}

pub fn register(py: Python<'_>, module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<ExplorerIndex>()?;
    module.add_function(wrap_pyfunction!(explorer_build, module)?)?;
    module.add_function(wrap_pyfunction!(explorer_merge, module)?)?;
    module.add("IndexCorruptError", py.get_type::<IndexCorruptError>())?;
    Ok(())
}
