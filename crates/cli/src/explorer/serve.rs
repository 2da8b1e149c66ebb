//! `bitboards explorer serve`: Lichess's explorer API (`GET /lichess`,
//! `GET /lichess/history`, `GET /player`) over an index, its masters API
//! (`GET /masters`, `GET /masters/pgn/{id}`) over a masters index, and its
//! tablebase API (`GET /standard`) over Syzygy tables, on axum and tokio,
//! with the query parameters and JSON of lichess-org/api's specification.
//! A bad request is a 400 with a JSON `error`; every answer carries
//! `Access-Control-Allow-Origin: *`.

use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use bitboards::Color;
use bitboards_explorer::{Explorer, Filter, Limits, Play, PlayerFilter};
use bitboards_syzygy::Tablebase;
use clap::Args;

use crate::CommandError;

/// The arguments of `bitboards explorer serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The index for `/lichess` and `/player`.
    pub dir: Option<PathBuf>,
    /// A masters index (`explorer build --masters`) for `/masters`.
    #[arg(long)]
    pub masters: Option<PathBuf>,
    /// Syzygy tables for `/standard`.
    #[arg(long)]
    pub syzygy: Option<PathBuf>,
    /// The port (0: any free port, printed when listening).
    #[arg(long, default_value_t = 9002)]
    pub port: u16,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// A page served at `/` (the visualiser, `target/web/index.html`).
    #[arg(long)]
    pub page: Option<PathBuf>,
    /// Answers kept in memory, by query, for the next time they are asked
    /// (0: none). The index does not change while it is served.
    #[arg(long, default_value_t = 40_000)]
    pub cache: usize,
}

/// What the server answers from.
pub struct Server {
    explorer: Option<Explorer>,
    masters: Option<Explorer>,
    tables: Option<Tablebase>,
    page: Option<String>,
    cache: Cache,
}

/// Answers by request (path and query), in shards each under its lock,
/// each emptied when full. Only answers that succeeded are kept.
struct Cache {
    shards: Vec<Mutex<HashMap<String, (&'static str, Bytes)>>>,
    per_shard: usize,
}

impl Cache {
    const SHARDS: usize = 16;

    fn new(capacity: usize) -> Cache {
        Cache {
            shards: (0..Cache::SHARDS)
                .map(|_| Mutex::new(HashMap::new()))
                .collect(),
            per_shard: capacity.div_ceil(Cache::SHARDS),
        }
    }

    /// The shard of `key`, by its FNV-1a hash.
    fn shard(&self, key: &str) -> &Mutex<HashMap<String, (&'static str, Bytes)>> {
        let mut hash = 0xcbf2_9ce4_8422_2325_u64;
        for byte in key.bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        &self.shards[(hash % Cache::SHARDS as u64) as usize]
    }

    fn get(&self, key: &str) -> Option<(&'static str, Bytes)> {
        if self.per_shard == 0 {
            return None;
        }
        self.shard(key).lock().ok()?.get(key).cloned()
    }

    fn put(&self, key: String, content_type: &'static str, body: Bytes) {
        if self.per_shard == 0 {
            return;
        }
        if let Ok(mut shard) = self.shard(&key).lock() {
            if shard.len() >= self.per_shard {
                shard.clear();
            }
            shard.insert(key, (content_type, body));
        }
    }
}

/// The cached answer to `path?query`, if there is one.
fn hit(server: &Server, path: &str, query: Option<&str>) -> Option<Response> {
    let key = format!("{path}?{}", query.unwrap_or(""));
    let (content_type, body) = server.cache.get(&key)?;
    Some(([(header::CONTENT_TYPE, content_type)], body).into_response())
}

/// `answer` run on tokio's blocking pool (as lila-openingexplorer runs its
/// queries), so that a query computed does not hold up the answers the
/// cache has for other clients.
async fn off_the_runtime(answer: impl FnOnce() -> Response + Send + 'static) -> Response {
    tokio::task::spawn_blocking(answer)
        .await
        .unwrap_or_else(|_| error(StatusCode::INTERNAL_SERVER_ERROR, "the query failed"))
}

/// The answer to `path?query`: from the cache, or made by `answer` (and
/// kept when it succeeded).
fn cached(
    server: &Server,
    path: &str,
    query: Option<&str>,
    answer: impl FnOnce() -> Result<(&'static str, String), Response>,
) -> Response {
    let key = format!("{path}?{}", query.unwrap_or(""));
    if let Some((content_type, body)) = server.cache.get(&key) {
        return ([(header::CONTENT_TYPE, content_type)], body).into_response();
    }
    match answer() {
        Ok((content_type, body)) => {
            let body = Bytes::from(body);
            server.cache.put(key, content_type, body.clone());
            ([(header::CONTENT_TYPE, content_type)], body).into_response()
        }
        Err(response) => response,
    }
}

/// Runs the server until it is stopped (SIGINT or SIGTERM).
///
/// # Errors
/// An index or tables that cannot be opened, an address that cannot be
/// listened on.
pub fn run(args: &ServeArgs, err: &mut impl Write) -> Result<(), CommandError> {
    let explorer = args
        .dir
        .as_ref()
        .map(Explorer::open)
        .transpose()
        .map_err(|error| CommandError::unreadable(error.to_string()))?;
    let masters = match &args.masters {
        Some(dir) => {
            let masters =
                Explorer::open(dir).map_err(|error| CommandError::unreadable(error.to_string()))?;
            if !masters.is_masters() {
                return Err(CommandError::usage(format!(
                    "{} is not a masters index (build it with `explorer build --masters`)",
                    dir.display()
                )));
            }
            Some(masters)
        }
        None => None,
    };
    let tables = match &args.syzygy {
        Some(dir) => {
            let mut tables = Tablebase::new();
            tables.add_directory(dir).map_err(|error| {
                CommandError::unreadable(format!(
                    "cannot read the tables in {}: {error}",
                    dir.display()
                ))
            })?;
            Some(tables)
        }
        None => None,
    };
    let page = args
        .page
        .as_ref()
        .map(|path| {
            std::fs::read_to_string(path).map_err(|error| {
                CommandError::unreadable(format!("cannot read {}: {error}", path.display()))
            })
        })
        .transpose()?;
    let server = Arc::new(Server {
        explorer,
        masters,
        tables,
        page,
        cache: Cache::new(args.cache),
    });
    let address: SocketAddr = format!("{}:{}", args.bind, args.port)
        .parse()
        .map_err(|_| CommandError::usage(format!("invalid address {}:{}", args.bind, args.port)))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|error| CommandError::failure(format!("cannot start the server: {error}")))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|error| {
                CommandError::unreadable(format!("cannot listen on {address}: {error}"))
            })?;
        let bound = listener
            .local_addr()
            .map_err(|error| CommandError::failure(error.to_string()))?;
        let _ = writeln!(err, "listening on http://{bound}");
        let _ = err.flush();
        axum::serve(listener, router(server))
            .with_graceful_shutdown(stopped())
            .await
            .map_err(|error| CommandError::failure(format!("server failed: {error}")))
    })
}

/// Resolves when the process is asked to stop.
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut interrupt), Ok(mut terminate)) = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The routes.
pub fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/lichess", get(lichess))
        .route("/lichess/history", get(lichess_history))
        .route("/player", get(player))
        .route("/masters", get(masters))
        .route("/master", get(masters))
        .route("/masters/pgn/{id}", get(masters_pgn))
        .route("/master/pgn/{id}", get(masters_pgn))
        .route("/standard", get(standard))
        .fallback(not_found)
        .layer(axum::middleware::map_response(allow_any_origin))
        .with_state(server)
}

async fn allow_any_origin(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}

/// A JSON answer.
fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A 400 (or other status) with `{"error": message}`.
fn error(status: StatusCode, message: &str) -> Response {
    json(status, serde_json::json!({ "error": message }).to_string())
}

async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "not found")
}

async fn page(State(server): State<Arc<Server>>) -> Response {
    match &server.page {
        Some(page) => (
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            page.clone(),
        )
            .into_response(),
        None => error(
            StatusCode::NOT_FOUND,
            "no page: start the server with --page FILE",
        ),
    }
}

/// A request's query parameters, as lila reads them: a list as one value
/// with commas or as repeated `name[]` (or `name`) values.
struct Params(Vec<(String, String)>);

impl Params {
    fn parse(query: Option<&str>) -> Result<Params, String> {
        serde_urlencoded::from_str::<Vec<(String, String)>>(query.unwrap_or(""))
            .map(Params)
            .map_err(|error| format!("invalid query string: {error}"))
    }

    /// The value of `name` (with `name[]` values joined by commas).
    fn get(&self, name: &str) -> Option<String> {
        let listed = format!("{name}[]");
        let values: Vec<&str> = self
            .0
            .iter()
            .filter(|(key, _)| key == name || *key == listed)
            .map(|(_, value)| value.as_str())
            .collect();
        (!values.is_empty()).then(|| values.join(","))
    }

    fn number(&self, name: &str, default: usize) -> Result<usize, String> {
        match self.get(name) {
            None => Ok(default),
            Some(text) => text
                .trim()
                .parse()
                .map_err(|_| format!("invalid {name} {text:?}: expected a number")),
        }
    }

    /// A boolean as lila reads one: `true`, `True`, `1`, `on` or `yes`,
    /// and their opposites.
    fn boolean(&self, name: &str) -> Result<bool, String> {
        match self.get(name).as_deref() {
            None => Ok(false),
            Some("true" | "True" | "1" | "on" | "yes") => Ok(true),
            Some("false" | "False" | "0" | "off" | "no" | "") => Ok(false),
            Some(other) => Err(format!("invalid {name} {other:?}: expected true or false")),
        }
    }

    /// The position: `variant` (standard only), `fen` and `play`.
    fn play(&self) -> Result<Play, String> {
        match self.get("variant").as_deref() {
            None | Some("standard" | "chess" | "fromPosition") => {}
            Some(other) => {
                return Err(format!(
                    "unsupported variant {other:?}: this explorer indexes standard chess"
                ));
            }
        }
        let play = self.get("play").unwrap_or_default();
        let moves: Vec<&str> = play
            .split(',')
            .map(str::trim)
            .filter(|mv| !mv.is_empty())
            .collect();
        Play::new(self.get("fen").as_deref(), &moves).map_err(|error| error.to_string())
    }

    fn limits(&self, history: bool) -> Result<Limits, String> {
        Ok(Limits {
            moves: self.number("moves", 12)?,
            top_games: self.number("topGames", 4)?,
            recent_games: self.number("recentGames", 4)?,
            history,
        })
    }
}

fn explorer(server: &Server) -> Result<&Explorer, Response> {
    server.explorer.as_ref().ok_or_else(|| {
        error(
            StatusCode::NOT_FOUND,
            "no index: start the server with an index directory",
        )
    })
}

fn lichess_answer(
    server: &Server,
    path: &str,
    query: Option<&str>,
    history_only: bool,
) -> Response {
    let explorer = match explorer(server) {
        Ok(explorer) => explorer,
        Err(response) => return response,
    };
    cached(server, path, query, || {
        let request = (|| {
            let params = Params::parse(query)?;
            let play = params.play()?;
            let filter = Filter::parse(
                params.get("speeds").as_deref(),
                params.get("ratings").as_deref(),
                params.get("since").as_deref(),
                params.get("until").as_deref(),
            )
            .map_err(|error| error.to_string())?;
            let limits = if history_only {
                Limits {
                    moves: 0,
                    top_games: 0,
                    recent_games: 0,
                    history: true,
                }
            } else {
                params.limits(params.boolean("history")?)?
            };
            Ok::<_, String>((play, filter, limits))
        })();
        match request {
            Err(message) => Err(error(StatusCode::BAD_REQUEST, &message)),
            Ok((play, filter, limits)) => match explorer.lichess(&play, &filter, &limits) {
                Ok(answer) => Ok(("application/json", answer.to_json())),
                Err(failure) => Err(error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    &failure.to_string(),
                )),
            },
        }
    })
}

async fn lichess(State(server): State<Arc<Server>>, RawQuery(query): RawQuery) -> Response {
    if let Some(answer) = hit(&server, "/lichess", query.as_deref()) {
        return answer;
    }
    off_the_runtime(move || lichess_answer(&server, "/lichess", query.as_deref(), false)).await
}

async fn lichess_history(State(server): State<Arc<Server>>, RawQuery(query): RawQuery) -> Response {
    lichess_answer(&server, "/lichess/history", query.as_deref(), true)
}

async fn player(State(server): State<Arc<Server>>, RawQuery(query): RawQuery) -> Response {
    if let Some(answer) = hit(&server, "/player", query.as_deref()) {
        return answer;
    }
    off_the_runtime(move || player_answer(&server, query.as_deref())).await
}

fn player_answer(server: &Server, query: Option<&str>) -> Response {
    let explorer = match explorer(server) {
        Ok(explorer) => explorer,
        Err(response) => return response,
    };
    cached(server, "/player", query, || {
        let request = (|| {
            let params = Params::parse(query)?;
            let name = params
                .get("player")
                .filter(|name| !name.is_empty())
                .ok_or("missing player")?;
            let color = match params.get("color").as_deref() {
                Some("white") => Color::White,
                Some("black") => Color::Black,
                Some(other) => {
                    return Err(format!("invalid color {other:?}: expected white or black"));
                }
                None => return Err("missing color".to_owned()),
            };
            let play = params.play()?;
            let filter = PlayerFilter::parse(
                params.get("speeds").as_deref(),
                params.get("modes").as_deref(),
                params.get("since").as_deref(),
                params.get("until").as_deref(),
            )
            .map_err(|error| error.to_string())?;
            let limits = Limits {
                recent_games: params.number("recentGames", 8)?,
                ..params.limits(false)?
            };
            Ok::<_, String>((name, color, play, filter, limits))
        })();
        match request {
            Err(message) => Err(error(StatusCode::BAD_REQUEST, &message)),
            Ok((name, color, play, filter, limits)) => {
                match explorer.player(&name, color, &play, &filter, &limits) {
                    Ok(answer) => Ok(("application/x-ndjson", answer.to_json() + "\n")),
                    Err(failure) => Err(error(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        &failure.to_string(),
                    )),
                }
            }
        }
    })
}

fn masters_index(server: &Server) -> Result<&Explorer, Response> {
    server.masters.as_ref().ok_or_else(|| {
        error(
            StatusCode::NOT_FOUND,
            "no masters index: start the server with --masters DIR",
        )
    })
}

async fn masters(State(server): State<Arc<Server>>, RawQuery(query): RawQuery) -> Response {
    if let Some(answer) = hit(&server, "/masters", query.as_deref()) {
        return answer;
    }
    off_the_runtime(move || masters_answer(&server, query.as_deref())).await
}

fn masters_answer(server: &Server, query: Option<&str>) -> Response {
    let explorer = match masters_index(server) {
        Ok(explorer) => explorer,
        Err(response) => return response,
    };
    cached(server, "/masters", query, || {
        let request = (|| {
            let params = Params::parse(query)?;
            let play = params.play()?;
            let year = |name: &str| {
                params
                    .get(name)
                    .map(|text| bitboards_explorer::parse_year(&text))
                    .transpose()
                    .map_err(|error| error.to_string())
            };
            let limits = Limits {
                moves: params.number("moves", 12)?,
                top_games: params.number("topGames", 15)?,
                ..Limits::masters()
            };
            Ok::<_, String>((play, year("since")?, year("until")?, limits))
        })();
        match request {
            Err(message) => Err(error(StatusCode::BAD_REQUEST, &message)),
            Ok((play, since, until, limits)) => {
                match explorer.masters(&play, since, until, &limits) {
                    Ok(answer) => Ok(("application/json", answer.to_json())),
                    Err(failure) => Err(error(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        &failure.to_string(),
                    )),
                }
            }
        }
    })
}

async fn masters_pgn(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Response {
    // The first asks for the games by id, made from every game: off the
    // runtime.
    off_the_runtime(move || {
        let explorer = match masters_index(&server) {
            Ok(explorer) => explorer,
            Err(response) => return response,
        };
        match explorer.masters_pgn(&id) {
            Ok(Some(pgn)) => {
                ([(header::CONTENT_TYPE, "application/x-chess-pgn")], pgn).into_response()
            }
            Ok(None) => error(StatusCode::NOT_FOUND, &format!("no game {id:?}")),
            Err(failure) => error(StatusCode::INTERNAL_SERVER_ERROR, &failure.to_string()),
        }
    })
    .await
}

async fn standard(State(server): State<Arc<Server>>, RawQuery(query): RawQuery) -> Response {
    let Some(tables) = &server.tables else {
        return error(
            StatusCode::NOT_FOUND,
            "no tablebase: start the server with --syzygy DIR",
        );
    };
    cached(&server, "/standard", query.as_deref(), || {
        let params = Params::parse(query.as_deref())
            .map_err(|message| error(StatusCode::BAD_REQUEST, &message))?;
        let Some(fen) = params.get("fen") else {
            return Err(error(StatusCode::BAD_REQUEST, "missing fen"));
        };
        let position = Play::new(Some(&fen), &[])
            .map_err(|message| error(StatusCode::BAD_REQUEST, &message.to_string()))?
            .position;
        let answer = bitboards_explorer::tablebase::answer(tables, &position);
        Ok((
            "application/json",
            serde_json::to_string(&answer).unwrap_or_default(),
        ))
    })
}
