//! `dama serve`: a board in the browser. One process serves the page (its assets are
//! compiled into the binary) and a WebSocket per page to the engine ([`socket`]); each
//! page has its own game ([`table`]), and all pages share a fixed pool of searches
//! ([`slots`]) and what each variant loads once ([`resources`]). Bound to localhost
//! unless told otherwise; the WebSocket checks its Origin, bounds message size and
//! rate, the number of pages ([`ServeConfig::max_pages`]) and what is queued for each
//! ([`outbox`]).

pub mod message;
pub mod outbox;
pub mod resources;
pub mod slots;
pub mod socket;
pub mod table;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use resources::{EngineConfig, Resources};
use slots::SearchSlots;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The page.
const INDEX_HTML: &str = include_str!("assets/index.html");
/// Its script.
const APP_JS: &str = include_str!("assets/app.js");
/// Its style.
const STYLE_CSS: &str = include_str!("assets/style.css");

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The address to bind, e.g. `127.0.0.1`.
    pub host: String,
    /// The port (0: any free port).
    pub port: u16,
    /// The engine: threads and table of each search slot, databases, book.
    pub engine: EngineConfig,
    /// Search slots shared by all pages (each with its own table).
    pub searches: usize,
    /// Most pages open at once; one more is refused with a reason.
    pub max_pages: usize,
    /// A page that sends nothing for this long is closed.
    pub idle: Duration,
}

/// The default number of search slots: the machine's cores.
pub fn default_searches() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The default bound on open pages.
pub const DEFAULT_MAX_PAGES: usize = 64;
/// The default time a page may stay silent, seconds (30 minutes).
pub const DEFAULT_IDLE_SECONDS: u64 = 30 * 60;

/// What every request handler sees: the shared searches and resources, the bound on
/// pages, and the signal that the server is shutting down (every page then closes).
#[derive(Clone)]
pub struct AppState {
    /// Evaluations, books and databases, loaded once per variant.
    pub resources: Arc<Resources>,
    /// The searches every page shares.
    pub slots: SearchSlots,
    /// Pages open now.
    pub pages: Arc<AtomicUsize>,
    /// Most pages open at once.
    pub max_pages: usize,
    /// The number of the next page.
    pub next_page: Arc<AtomicU64>,
    /// A page that sends nothing for this long is closed.
    pub idle: Duration,
    /// Becomes true when the server stops.
    pub shutdown: tokio::sync::watch::Receiver<bool>,
    /// Held by every open page: the server waits for all of them to close before it
    /// ends (its receiver sees the end when the last one is dropped).
    pub open_pages: tokio::sync::mpsc::Sender<()>,
}

/// The router: the page, its assets and the WebSocket.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/app.js", get(app_js))
        .route("/style.css", get(style_css))
        .route("/ws", get(ws))
        .fallback(not_found)
        .with_state(state)
}

/// A compiled-in asset with its content type (never cached, so a new binary's page is
/// what a reload shows).
fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

async fn app_js() -> Response {
    asset("text/javascript; charset=utf-8", APP_JS)
}

async fn style_css() -> Response {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

async fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        "not found: dama serve has only / and /ws\n",
    )
        .into_response()
}

/// The host and port of an `Origin` header (`http://localhost:8080` gives
/// `localhost:8080`), or `None` when it is not an http(s) origin.
fn origin_authority(origin: &str) -> Option<&str> {
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))?;
    Some(rest.trim_end_matches('/'))
}

/// A WebSocket from a browser must come from a page of this server: its `Origin` names
/// the same host and port as its `Host`. Clients that are not browsers send no Origin
/// and are let in.
pub fn check_origin(headers: &HeaderMap) -> Result<(), String> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin
        .to_str()
        .map_err(|_| "unreadable Origin".to_string())?;
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .ok_or("no Host header")?;
    match origin_authority(origin) {
        Some(a) if a.eq_ignore_ascii_case(host) => Ok(()),
        _ => Err(format!(
            "the WebSocket is only for pages of this server ({host}), not {origin}"
        )),
    }
}

async fn ws(ws: WebSocketUpgrade, headers: HeaderMap, State(state): State<AppState>) -> Response {
    if let Err(why) = check_origin(&headers) {
        return (StatusCode::FORBIDDEN, why).into_response();
    }
    // Counted before the upgrade; a page past the bound is told why in a close frame
    // (a browser cannot read the body of a refused upgrade).
    let seat = socket::Seat::take(&state.pages, state.max_pages);
    let ws = ws
        .max_message_size(socket::MAX_MESSAGE)
        .max_frame_size(socket::MAX_MESSAGE);
    let Some(seat) = seat else {
        let reason = format!(
            "the server is busy: try again later (it serves at most {} pages at once)",
            state.max_pages
        );
        return ws.on_upgrade(move |s| socket::refuse(s, reason));
    };
    ws.on_upgrade(move |s| async move {
        let _open = state.open_pages;
        let ctx = socket::PageContext {
            id: state.next_page.fetch_add(1, Ordering::Relaxed),
            resources: state.resources,
            slots: state.slots,
            idle: state.idle,
        };
        socket::page(s, ctx, seat, state.shutdown).await
    })
}

/// Serves until Ctrl-C (or SIGTERM). `ready` receives the bound address once the
/// server listens.
pub fn run(config: ServeConfig, ready: impl FnOnce(std::net::SocketAddr)) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server runtime: {e}"))?;
    // The searches' tables are allocated once, before the server listens.
    let slots = SearchSlots::new(
        config.searches,
        config.engine.hash_mib,
        config.engine.threads,
    )?;
    resources::solve_builtin(&config.engine)?;
    runtime.block_on(async move {
        let addr = format!("{}:{}", config.host, config.port);
        let listener = tokio::net::TcpListener::bind(&addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener
            .local_addr()
            .map_err(|e| format!("no local address: {e}"))?;
        ready(local);
        // On Ctrl-C the open pages are told first (they close their WebSockets and
        // stop their searches); then the server waits for them and ends.
        let (tx, rx) = tokio::sync::watch::channel(false);
        let (open_pages, mut all_closed) = tokio::sync::mpsc::channel::<()>(1);
        let state = AppState {
            resources: Arc::new(Resources::new(config.engine)),
            slots: slots.clone(),
            pages: Arc::new(AtomicUsize::new(0)),
            max_pages: config.max_pages,
            next_page: Arc::new(AtomicU64::new(1)),
            idle: config.idle,
            shutdown: rx,
            open_pages,
        };
        axum::serve(listener, router(state))
            .with_graceful_shutdown(async move {
                shutdown().await;
                let _ = tx.send(true);
            })
            .await
            .map_err(|e| format!("server error: {e}"))?;
        // The pages' WebSockets are not the server's connections any more: wait for
        // them to say goodbye (a page whose peer does not answer is left after 10 s).
        let _ = tokio::time::timeout(Duration::from_secs(10), all_closed.recv()).await;
        slots.shutdown();
        Ok(())
    })
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins() {
        let h = |origin: Option<&str>, host: &str| {
            let mut m = HeaderMap::new();
            m.insert(header::HOST, host.parse().unwrap());
            if let Some(o) = origin {
                m.insert(header::ORIGIN, o.parse().unwrap());
            }
            check_origin(&m)
        };
        assert!(h(None, "127.0.0.1:8080").is_ok());
        assert!(h(Some("http://127.0.0.1:8080"), "127.0.0.1:8080").is_ok());
        assert!(h(Some("http://LOCALHOST:8080"), "localhost:8080").is_ok());
        assert!(h(Some("http://evil.example"), "127.0.0.1:8080").is_err());
        assert!(h(Some("http://127.0.0.1:9999"), "127.0.0.1:8080").is_err());
        assert!(h(Some("null"), "127.0.0.1:8080").is_err());
    }
}
