//! `dama serve`: the server over real WebSockets (bad messages, an oversized frame, a
//! wrong Origin, two pages at once, a page closed in mid-search, the rate bound), and
//! the page in a real browser (headless Chromium driven through ChromeDriver): moves
//! entered by clicks, the engine's reply, analysis lines, PDN export read back by
//! dama's own reader. Each browser step is a test of its own (`browser_*`, one server
//! and one browser session each, one at a time) and saves its screenshots under
//! `target/screenshots/` (`serve-dameo-analysis.png` is docs/board.png).
//!
//! The browser tests need Debian's `chromium` and `chromium-driver` (`.ci/run`
//! installs them); without them they fail, unless `DAMA_SKIP_BROWSER=1` is set.

mod common;

use dama::movegen;
use dama::notation::{move_path, square_name};
use dama::position::Position;
use dama::rules::Dameo;
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use common::server::{connect, next_any, next_of, send, Server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_get_errors_and_the_page_goes_on() {
    let s = Server::start();
    let mut ws = connect(&s).await;
    let first = next_of(&mut ws, "state").await;
    assert_eq!(first["variant"], "english");
    for (bad, why) in [
        ("garbage".to_string(), "not JSON"),
        (json!({"type": "fly"}).to_string(), "unknown message type"),
        (
            json!({"type": "move", "from": "22", "to": "17"}).to_string(),
            "not a legal move",
        ),
        (
            json!({"type": "move", "from": "z9", "to": "17"}).to_string(),
            "z9",
        ),
        (
            json!({"type": "fen", "fen": "W:Wz9"}).to_string(),
            "bad FEN",
        ),
        (
            json!({"type": "pdn", "text": "1. 11-15 99-1"}).to_string(),
            "move 2",
        ),
        (
            json!({"type": "goto", "ply": 5}).to_string(),
            "past the end",
        ),
    ] {
        ws.send(Message::Text(bad.clone().into())).await.unwrap();
        let e = next_of(&mut ws, "error").await;
        assert!(e["message"].as_str().unwrap().contains(why), "{bad}: {e}");
    }
    ws.send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    let e = next_of(&mut ws, "error").await;
    assert!(e["message"].as_str().unwrap().contains("binary"), "{e}");
    // A linked game: FEN and moves; three times the same position ends it (G9).
    send(
        &mut ws,
        json!({"type": "new", "variant": "english", "fen": "W:WK29:BK4",
               "moves": "29-25 4-8 25-29 8-4 29-25 4-8 25-29 8-4"}),
    )
    .await;
    let st = next_of(&mut ws, "state").await;
    assert_eq!(st["history"].as_array().unwrap().len(), 8);
    assert_eq!(
        st["outcome"], "Draw: the same position for the third time (G9)",
        "{st}"
    );
    send(&mut ws, json!({"type": "move", "from": "29", "to": "25"})).await;
    let e = next_of(&mut ws, "error").await;
    assert!(
        e["message"].as_str().unwrap().contains("the game is over"),
        "{e}"
    );
    send(
        &mut ws,
        json!({"type": "new", "variant": "english", "moves": "11-15 99-1"}),
    )
    .await;
    let e = next_of(&mut ws, "error").await;
    assert!(
        e["message"].as_str().unwrap().contains("move 2 (99-1)"),
        "{e}"
    );
    send(&mut ws, json!({"type": "new", "variant": "english"})).await;
    next_of(&mut ws, "state").await;
    // The page still plays: Black starts in english.
    send(&mut ws, json!({"type": "move", "from": "11", "to": "15"})).await;
    let st = next_of(&mut ws, "state").await;
    assert_eq!(st["history"][0]["text"], "11-15");
    assert_eq!(st["side"], "White");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_frame_closes_that_page_only() {
    let s = Server::start();
    let mut other = connect(&s).await;
    next_of(&mut other, "state").await;
    let mut ws = connect(&s).await;
    next_of(&mut ws, "state").await;
    let big = json!({"type": "pdn", "text": "x".repeat(100_000)}).to_string();
    let _ = ws.send(Message::Text(big.into())).await;
    // The server answers with an error and closes this page.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut closed = false;
    while Instant::now() < deadline {
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await {
            Ok(None) | Ok(Some(Err(_))) | Ok(Some(Ok(Message::Close(_)))) => {
                closed = true;
                break;
            }
            Ok(Some(Ok(_))) => continue,
            Err(_) => break,
        }
    }
    assert!(closed, "an oversized message closes the connection");
    // The other page is unaffected, and new pages connect.
    send(&mut other, json!({"type": "state"})).await;
    next_of(&mut other, "state").await;
    let mut again = connect(&s).await;
    next_of(&mut again, "state").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_origin_is_refused() {
    let s = Server::start();
    let mut req = s.ws_url().into_client_request().unwrap();
    req.headers_mut()
        .insert("Origin", "http://evil.example".parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status(), 403)
        }
        other => panic!("expected 403, got {:?}", other.map(|r| r.1)),
    }
    // The server's own origin is let in.
    let mut req = s.ws_url().into_client_request().unwrap();
    req.headers_mut().insert("Origin", s.url.parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("own origin");
    next_of(&mut ws, "state").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_pages_have_their_own_games() {
    let s = Server::start();
    let mut a = connect(&s).await;
    let mut b = connect(&s).await;
    next_of(&mut a, "state").await;
    next_of(&mut b, "state").await;
    send(&mut a, json!({"type": "new", "variant": "dameo"})).await;
    send(&mut b, json!({"type": "new", "variant": "english"})).await;
    assert_eq!(next_of(&mut a, "state").await["variant"], "dameo");
    assert_eq!(next_of(&mut b, "state").await["variant"], "english");
    // Analysis on page a while page b plays.
    send(&mut a, json!({"type": "analyze", "on": true, "multipv": 2})).await;
    next_of(&mut a, "state").await;
    let info = next_of(&mut a, "info").await;
    assert_eq!(info["purpose"], "analysis");
    send(&mut b, json!({"type": "move", "from": "9", "to": "13"})).await;
    let st = next_of(&mut b, "state").await;
    assert_eq!(st["history"].as_array().unwrap().len(), 1);
    send(&mut a, json!({"type": "state"})).await;
    let st = next_of(&mut a, "state").await;
    assert_eq!(st["variant"], "dameo");
    assert_eq!(st["history"].as_array().unwrap().len(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_page_stops_its_search() {
    // One search slot: a search left running by a closed page would make the next
    // page's analysis wait in line ("queued") instead of starting at once.
    let s = Server::start_with(&["--searches", "1"]);
    let mut ws = connect(&s).await;
    next_of(&mut ws, "state").await;
    send(&mut ws, json!({"type": "analyze", "on": true})).await;
    next_of(&mut ws, "info").await;
    next_of(&mut ws, "info").await;
    // No thread of its own for a page: the search runs on the shared slot.
    assert_eq!(s.threads_named("dama-page"), 0);
    assert_eq!(s.threads_named("dama-slot-0"), 1);
    ws.close(None).await.unwrap();
    // The server has handled the close once it closes in turn.
    while let Some(Ok(_)) = ws.next().await {}
    drop(ws);
    let mut again = connect(&s).await;
    next_of(&mut again, "state").await;
    send(&mut again, json!({"type": "analyze", "on": true})).await;
    let first = loop {
        let m = next_any(&mut again).await;
        if m["type"] == "info" || m["type"] == "queued" {
            break m;
        }
    };
    assert_eq!(
        first["type"], "info",
        "the closed page's search still held the slot: {first}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_closes_the_pages_and_stops_the_server() {
    let mut s = Server::start();
    let mut ws = connect(&s).await;
    next_of(&mut ws, "state").await;
    send(&mut ws, json!({"type": "analyze", "on": true})).await;
    next_of(&mut ws, "info").await;
    let kill = Command::new("kill")
        .args(["-INT", &s.child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    // The page is told and closed.
    let e = next_of(&mut ws, "error").await;
    assert_eq!(e["message"], "the server is shutting down");
    // The server ends by itself, cleanly.
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(st) = s.child.try_wait().unwrap() {
            break st;
        }
        assert!(
            Instant::now() < deadline,
            "the server did not stop on Ctrl-C"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "{status:?}");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut s.stdout, &mut rest).unwrap();
    assert_eq!(rest, "dama serve: stopped\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_messages_is_bounded() {
    let s = Server::start();
    let mut ws = connect(&s).await;
    next_of(&mut ws, "state").await;
    for _ in 0..300 {
        send(&mut ws, json!({"type": "state"})).await;
    }
    let e = next_of(&mut ws, "error").await;
    let text = e["message"].as_str().unwrap();
    assert!(text.contains("too many messages"), "{e}");
    // One warning for the flood, not one per dropped message: the page stays open and
    // answers once the rate allows.
    tokio::time::sleep(Duration::from_millis(200)).await;
    send(&mut ws, json!({"type": "export"})).await;
    let pdn = next_of(&mut ws, "pdn").await;
    assert!(pdn["text"].as_str().unwrap().contains("[Event"), "{pdn}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_replies_and_a_new_command_stops_its_search() {
    // Without the book: the searches are the point here.
    let s = Server::start_with(&["--book", "none"]);
    let mut ws = connect(&s).await;
    next_of(&mut ws, "state").await;
    // dama plays White at depth 2: after Black's move it answers.
    send(
        &mut ws,
        json!({"type": "engine", "side": "white", "depth": 2}),
    )
    .await;
    next_of(&mut ws, "state").await;
    send(&mut ws, json!({"type": "move", "from": "11", "to": "15"})).await;
    let mut st = next_of(&mut ws, "state").await;
    if st["history"].as_array().unwrap().len() < 2 {
        st = next_of(&mut ws, "state").await;
    }
    assert_eq!(st["history"].as_array().unwrap().len(), 2, "{st}");
    assert_eq!(st["side"], "Black");
    // A long think is interrupted by a stop: the engine's move is not played (Black has
    // a choice of moves, so no search ends at once).
    assert!(st["moves"].as_array().unwrap().len() > 1);
    send(
        &mut ws,
        json!({"type": "engine", "side": "black", "movetime": 60000}),
    )
    .await;
    next_of(&mut ws, "thinking").await;
    send(&mut ws, json!({"type": "stop"})).await;
    // Without the stop, this state would come only after a minute.
    let st = next_of(&mut ws, "state").await;
    assert_eq!(st["history"].as_array().unwrap().len(), 2);
    assert_eq!(st["engine"]["side"], "none");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dama_plays_its_book_moves_at_once() {
    let s = Server::start();
    let mut ws = connect(&s).await;
    next_of(&mut ws, "state").await;
    // Black moves first in english: a minute to think, but the book answers at once
    // with one of its moves near the best.
    send(
        &mut ws,
        json!({"type": "engine", "side": "black", "movetime": 60000}),
    )
    .await;
    // (Searched, the move would come after a minute, past next_of's 20 s.)
    let mut st = next_of(&mut ws, "state").await;
    while st["history"].as_array().unwrap().is_empty() {
        st = next_of(&mut ws, "state").await;
    }
    let played = st["history"][0]["text"].as_str().unwrap().to_string();
    let book = dama::engine::book::Book::<dama::rules::English>::builtin();
    let start = dama::Position::<dama::rules::English>::start();
    let moves = book.probe(&start).unwrap();
    let near: Vec<String> = moves
        .iter()
        .filter(|m| m.score >= moves[0].score - dama::serve::table::BOOK_MARGIN)
        .map(|m| dama::notation::move_text(&start, &m.mv))
        .collect();
    assert!(near.contains(&played), "{played} not in {near:?}");
}

/// A playing level on the page: the state carries it with its name, a low level
/// answers at once even with a minute a move (its node budget, not the clock, bounds
/// it), and an out-of-range level is refused with the range.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_level_plays_at_once_and_is_in_the_state() {
    let s = Server::start();
    let mut ws = connect(&s).await;
    next_of(&mut ws, "state").await;
    send(&mut ws, json!({"type": "engine", "skill": 11})).await;
    let e = next_of(&mut ws, "error").await;
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("a level from 1 to 10"),
        "{e}"
    );
    send(
        &mut ws,
        json!({"type": "engine", "side": "black", "movetime": 60000, "skill": 2}),
    )
    .await;
    let mut st = next_of(&mut ws, "state").await;
    assert_eq!(st["engine"]["skill"], 2);
    assert_eq!(st["engine"]["skill_name"], "novice");
    // Searched at full strength, the move would come after a minute, past next_of's 20 s.
    while st["history"].as_array().unwrap().is_empty() {
        st = next_of(&mut ws, "state").await;
    }
    assert_eq!(st["history"].as_array().unwrap().len(), 1);
}

/// Scandinavian's built-in databases on the page: with no files, the first
/// scandinavian page has every slice of up to 4 pieces solved in memory (three kings
/// against one: won, the capture in 18 plies, as `dama egdb probe` says on built files);
/// `--no-egdb-builtin` leaves them out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn builtin_databases_on_the_page() {
    /// The state of a scandinavian page set to three kings against one on `s`.
    async fn lone_king_state(s: &Server) -> Value {
        let mut ws = connect(s).await;
        next_of(&mut ws, "state").await;
        let fen = "W:WKc3,Kd2,Ke1:BKh2";
        send(
            &mut ws,
            json!({"type": "new", "variant": "scandinavian", "fen": fen}),
        )
        .await;
        next_of(&mut ws, "state").await
    }
    let st = lone_king_state(&Server::start_with_builtin(&[])).await;
    assert_eq!(
        st["egdb_slices"],
        "23 slices of scandinavian, complete to 4 pieces (largest 4), solved in memory",
        "{st}"
    );
    assert_eq!(st["egdb"], "database: win, capture in 18", "{st}");
    // `start_with` passes --no-egdb-builtin.
    let st = lone_king_state(&Server::start_with(&[])).await;
    assert!(st["egdb_slices"].is_null(), "{st}");
    assert!(st["egdb"].is_null(), "{st}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endgame_databases_and_forced_wins_on_the_page() {
    let databases = common::egdb::english_three_pieces("serve-egdb");
    let s = Server::start_with(&["--egdb-dir", databases.path().to_str().unwrap()]);
    let mut ws = connect(&s).await;
    let st = next_of(&mut ws, "state").await;
    assert!(
        st["egdb_slices"]
            .as_str()
            .unwrap()
            .contains("complete to 3 pieces"),
        "{st}"
    );
    // Two kings against one: the databases' value on the page and in the analysis.
    send(&mut ws, json!({"type": "fen", "fen": "W:WK30,K26:BK4"})).await;
    let st = next_of(&mut ws, "state").await;
    assert_eq!(st["egdb"], "database: win, capture in 11", "{st}");
    send(&mut ws, json!({"type": "analyze", "on": true})).await;
    let info = next_of(&mut ws, "info").await;
    assert_eq!(info["egdb"], "database: win, capture in 11", "{info}");
    // A forced win the search sees to its end is written as such: 22x15 leaves Black
    // without a move (G8).
    send(&mut ws, json!({"type": "fen", "fen": "W:W22:B18"})).await;
    let st = next_of(&mut ws, "state").await;
    assert_eq!(st["moves"].as_array().unwrap().len(), 1);
    let info = next_of(&mut ws, "info").await;
    assert_eq!(info["score_text"], "win in 1", "{info}");
    assert_eq!(info["pv"][0], "22x15");
    send(
        &mut ws,
        json!({"type": "move", "from": "22", "to": "15", "captured": ["18"]}),
    )
    .await;
    let st = next_of(&mut ws, "state").await;
    assert_eq!(
        st["outcome"], "White wins: Black has no legal move (G8)",
        "{st}"
    );
    assert_eq!(st["moves"].as_array().unwrap().len(), 0);
}

// ---- the browser ----

struct Driver {
    child: Child,
    port: u16,
    _profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // One profile folder per browser test: leave none behind.
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start_driver() -> Option<Driver> {
    let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists());
    let browser = std::path::Path::new("/usr/bin/chromium").exists();
    let (Some(driver), true) = (driver, browser) else {
        if std::env::var("DAMA_SKIP_BROWSER").is_ok_and(|v| v == "1") {
            eprintln!("no chromium / chromedriver: browser test skipped (DAMA_SKIP_BROWSER=1)");
            return None;
        }
        panic!(
            "the browser tests need Debian's chromium and chromium-driver \
             (/usr/bin/chromium, /usr/bin/chromedriver); .ci/run installs them. \
             Set DAMA_SKIP_BROWSER=1 to skip it on a machine without them."
        );
    };
    let port = free_port();
    let profile = std::env::temp_dir().join(format!("dama-chromium-{}-{port}", std::process::id()));
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(Driver {
        child,
        port,
        _profile: profile,
    })
}

async fn browser(d: &Driver) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": "/usr/bin/chromium",
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1200,900",
                format!("--user-data-dir={}", d._profile.display()),
            ]
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", d.port))
        .await
        .expect("a browser session")
}

fn screenshot_dir() -> PathBuf {
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    let dir = target.join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(screenshot_dir().join(format!("serve-{name}.png")), png).unwrap();
}

/// Evaluates `expr` in the page until it is true (20 s at most).
async fn wait_for(c: &Client, expr: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let v = c
            .execute(&format!("return !!({expr});"), vec![])
            .await
            .expect("script");
        if v == Value::Bool(true) {
            return;
        }
        if Instant::now() > deadline {
            let msg = c
                .execute("return document.getElementById('message').textContent + ' | ' + document.getElementById('status').textContent", vec![])
                .await
                .unwrap_or_default();
            panic!("timed out waiting for {what} ({expr}); page says {msg}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn js(c: &Client, expr: &str) -> Value {
    c.execute(&format!("return {expr};"), vec![])
        .await
        .expect("script")
}

/// Opens the page on an english position linked by its FEN and waits until the board
/// shows it (`pieces` pieces).
async fn open_english(c: &Client, url: &str, fen: &str, pieces: usize) {
    c.goto(&format!("{url}/?variant=english&fen={fen}"))
        .await
        .unwrap();
    wait_for(
        c,
        &format!(
            "document.body.dataset.variant === 'english' && \
             document.querySelectorAll('#board .piece').length === {pieces}"
        ),
        "the position",
    )
    .await;
}

async fn click_square(c: &Client, name: &str) {
    click(c, &format!(r#".sq[data-name="{name}"]"#)).await;
}

/// Clicks the element `css`. The board and the analysis lines are drawn anew on every
/// message: an element found just before a redraw is gone by the click, so it is
/// looked up again.
async fn click(c: &Client, css: &str) {
    for _ in 0..50 {
        let el = c
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|_| panic!("no {css}"));
        match el.click().await {
            Ok(()) => return,
            Err(e) if format!("{e:?}").contains("StaleElementReference") => {
                tokio::time::sleep(Duration::from_millis(20)).await
            }
            Err(e) => panic!("click {css}: {e}"),
        }
    }
    panic!("{css} kept being redrawn");
}

/// A dameo opening whose third ply is an orthogonal capture by White, found by dama's
/// own generator: White's move, Black's move, then White's capture (each as square
/// names to click).
fn dameo_capture_opening() -> [Vec<String>; 3] {
    let names = |pos: &Position<Dameo>, mv: &dama::Move| -> Vec<String> {
        move_path(pos, mv)
            .into_iter()
            .map(square_name::<Dameo>)
            .collect()
    };
    let start = Position::<Dameo>::start();
    for m1 in movegen::legal_moves(&start).iter() {
        let p1 = start.play(m1);
        for m2 in movegen::legal_moves(&p1).iter() {
            let p2 = p1.play(m2);
            let replies = movegen::legal_moves(&p2);
            if let Some(cap) = replies.iter().find(|m| m.is_capture()) {
                // Men capture orthogonally in dameo: the capture moves along a file
                // or a rank.
                assert!(cap.from.file() == cap.to.file() || cap.from.rank() == cap.to.rank());
                return [names(&start, m1), names(&p1, m2), names(&p2, cap)];
            }
        }
    }
    panic!("no capture within three plies of the dameo start");
}

/// One browser test's page: a server and a headless Chromium session (through a
/// ChromeDriver) of its own. The browser tests take turns, one Chromium at a time (two
/// cores, 20-second waits): the turn is held until the page is dropped.
struct Page {
    c: Client,
    s: Server,
    _driver: Driver,
    _turn: tokio::sync::MutexGuard<'static, ()>,
}

static BROWSER_TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A fresh server and browser session for one browser test; None when the browser is
/// missing and `DAMA_SKIP_BROWSER=1` is set.
async fn page() -> Option<Page> {
    page_with(&[]).await
}

/// A browser and a server started with `args`.
async fn page_with(args: &[&str]) -> Option<Page> {
    let turn = BROWSER_TURN.lock().await;
    let driver = start_driver()?;
    let s = Server::start_with(args);
    let c = browser(&driver).await;
    Some(Page {
        c,
        s,
        _driver: driver,
        _turn: turn,
    })
}

impl Page {
    /// Ends the browser session (then the driver and the server stop).
    async fn close(self) {
        let Page { c, .. } = self;
        c.close().await.unwrap();
    }
}

/// Dameo, by clicks: White's move, Black's move, then dama plays Black and White
/// captures orthogonally; dama replies. The moves' texts as the page lists them.
async fn play_dameo_capture(c: &Client, url: &str) -> Value {
    let [w1, b1, cap] = dameo_capture_opening();
    c.goto(&format!("{url}/?variant=dameo")).await.unwrap();
    wait_for(
        c,
        "document.body.dataset.variant === 'dameo'",
        "the dameo board",
    )
    .await;
    assert_eq!(
        js(c, "document.querySelectorAll('#board .piece').length").await,
        36
    );
    for sq in &w1 {
        click_square(c, sq).await;
    }
    wait_for(c, "document.body.dataset.plies === '1'", "White's move").await;
    for sq in &b1 {
        click_square(c, sq).await;
    }
    wait_for(c, "document.body.dataset.plies === '2'", "Black's move").await;
    c.execute(
        "const l = document.getElementById('level'); l.value = 'd2'; \
         const e = document.getElementById('engine-side'); e.value = 'black'; \
         e.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .unwrap();
    // Half the capture entered: the first square shows its targets.
    click_square(c, &cap[0]).await;
    wait_for(
        c,
        "document.querySelectorAll('.sq.target').length > 0",
        "capture targets",
    )
    .await;
    for sq in &cap[1..] {
        click_square(c, sq).await;
    }
    wait_for(c, "document.body.dataset.plies === '4'", "dama's reply").await;
    // Two captures made: 34 pieces left.
    assert_eq!(
        js(c, "document.querySelectorAll('#board .piece').length").await,
        34
    );
    let texts = js(
        c,
        "[...document.querySelectorAll('#moves .mv')].map(e => e.textContent)",
    )
    .await;
    assert!(texts[2].as_str().unwrap().contains('x'), "{texts}");
    texts
}

/// From an english position of two pieces, a FEN of the 24 men (White to move) is
/// imported with dama playing nobody, and analysis lines appear with their depth.
async fn import_fen_and_analyse(c: &Client, url: &str) {
    open_english(c, url, "W:W22:B18", 2).await;
    c.execute(
        "document.getElementById('engine-side').value = 'none'; \
         document.getElementById('engine-side').dispatchEvent(new Event('change')); \
         document.getElementById('io').value = 'W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';",
        vec![],
    )
    .await
    .unwrap();
    c.find(Locator::Id("load-fen"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(c, "document.body.dataset.plies === '0' && document.querySelectorAll('#board .piece').length === 24", "the FEN").await;
    c.find(Locator::Id("analyze"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        "document.querySelectorAll('#lines li').length >= 3",
        "three analysis lines",
    )
    .await;
    wait_for(
        c,
        "document.getElementById('depth-text').textContent.startsWith('depth')",
        "the depth",
    )
    .await;
}

/// Load the page: an english board of 64 squares, 32 of them numbered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_shows_the_english_board() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    c.goto(&format!("{}/", p.s.url)).await.unwrap();
    wait_for(
        c,
        "document.body.dataset.connected === 'true'",
        "the connection",
    )
    .await;
    assert_eq!(
        js(c, "document.querySelectorAll('#board .sq').length").await,
        64
    );
    assert_eq!(
        js(c, "document.querySelectorAll('#board .label.num').length").await,
        32
    );
    assert_eq!(
        js(c, "document.querySelectorAll('#board .piece').length").await,
        24
    );
    shot(c, "english-start").await;
    p.close().await;
}

/// An illegal attempt snaps back with a reason: a black man that cannot move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_snaps_back_an_illegal_attempt_with_a_reason() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    c.goto(&format!("{}/", p.s.url)).await.unwrap();
    wait_for(
        c,
        "document.body.dataset.connected === 'true'",
        "the connection",
    )
    .await;
    click_square(c, "1").await;
    wait_for(
        c,
        "document.getElementById('message').textContent.includes('no legal move')",
        "a reason",
    )
    .await;
    assert_eq!(
        js(c, "document.querySelectorAll('.sq.sel').length").await,
        0
    );
    p.close().await;
}

/// Dameo by clicks, with an orthogonal capture and dama's reply.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_plays_dameo_by_clicks_with_a_capture() {
    let Some(p) = page().await else {
        return;
    };
    play_dameo_capture(&p.c, &p.s.url).await;
    shot(&p.c, "dameo-capture").await;
    p.close().await;
}

/// The same dameo position analysed (the picture in README.md), then analysis off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_analyses_the_dameo_position() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    play_dameo_capture(c, &p.s.url).await;
    click(c, "#analyze").await;
    wait_for(
        c,
        "document.querySelectorAll('#lines li').length >= 3",
        "dameo analysis lines",
    )
    .await;
    shot(c, "dameo-analysis").await;
    click(c, "#analyze").await;
    wait_for(
        c,
        "document.querySelectorAll('#lines li').length === 0",
        "the analysis off",
    )
    .await;
    p.close().await;
}

/// Export the PDN of the dameo game and read it back with dama's own reader.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_exports_a_pdn_that_reads_back() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    let texts = play_dameo_capture(c, &p.s.url).await;
    c.find(Locator::Id("export-pdn"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        "document.getElementById('io').value.includes('[Variant \"dameo\"]')",
        "the PDN",
    )
    .await;
    let pdn = js(c, "document.getElementById('io').value").await;
    let game =
        dama::serve::table::game_from_pdn::<Dameo>(pdn.as_str().unwrap()).expect("PDN reads back");
    assert_eq!(game.moves().len(), 4);
    let texts: Vec<String> = texts
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    let games = dama::pdn::parse_pdn(pdn.as_str().unwrap());
    assert_eq!(games[0].moves, texts);
    assert_eq!(games[0].tag("Black"), Some("dama"));
    p.close().await;
}

/// The level chosen on the page is shown, and a game saved from it carries the level in
/// its tags and in the engine's name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_plays_at_a_level_and_saves_it_in_the_pdn() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    c.goto(&format!("{}/?variant=english", p.s.url))
        .await
        .unwrap();
    wait_for(
        c,
        "document.body.dataset.variant === 'english'",
        "the board",
    )
    .await;
    c.execute(
        "const k = document.getElementById('skill'); k.value = '3'; \
         k.dispatchEvent(new Event('change')); \
         const e = document.getElementById('engine-side'); e.value = 'black'; \
         e.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .unwrap();
    // Black moves first in english: dama plays at once at level 3.
    wait_for(
        c,
        "document.body.dataset.skill === '3' && document.body.dataset.plies === '1'",
        "dama's move at level 3",
    )
    .await;
    assert_eq!(
        js(
            c,
            "document.getElementById('skill').selectedOptions[0].textContent"
        )
        .await,
        "3 casual player"
    );
    shot(c, "level").await;
    click(c, "#export-pdn").await;
    wait_for(
        c,
        "document.getElementById('io').value.includes('[Level')",
        "the PDN",
    )
    .await;
    let pdn = js(c, "document.getElementById('io').value").await;
    let games = dama::pdn::parse_pdn(pdn.as_str().unwrap());
    assert_eq!(games[0].tag("Level"), Some("3"));
    assert_eq!(games[0].tag("Black"), Some("dama level 3 (casual player)"));
    assert_eq!(games[0].tag("White"), Some("human"));
    assert_eq!(games[0].moves.len(), 1);
    p.close().await;
}

/// Keyboard arrows step through the moves of the dameo game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_steps_through_the_moves_with_the_arrow_keys() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    play_dameo_capture(c, &p.s.url).await;
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{E012}")
        .await
        .unwrap();
    wait_for(c, "document.body.dataset.cursor === '3'", "a step back").await;
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{E014}")
        .await
        .unwrap();
    wait_for(c, "document.body.dataset.cursor === '4'", "a step forward").await;
    p.close().await;
}

/// English: a double capture entered square by square, from a linked position; dama
/// (Black) replies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_enters_a_double_capture_square_by_square() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    c.goto(&format!("{}/?variant=english&fen=W:W22:B1,11,18", p.s.url))
        .await
        .unwrap();
    wait_for(
        c,
        "document.body.dataset.variant === 'english'",
        "the english board",
    )
    .await;
    c.execute(
        "const l = document.getElementById('level'); l.value = 'd2'; \
         const e = document.getElementById('engine-side'); e.value = 'black'; \
         e.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .unwrap();
    click_square(c, "22").await;
    click_square(c, "15").await;
    // Mid-capture: the move is not sent yet; the next landing square is shown.
    assert_eq!(js(c, "document.body.dataset.plies").await, "0");
    wait_for(
        c,
        "document.querySelector('.sq[data-name=\"8\"]').classList.contains('target')",
        "the next landing square",
    )
    .await;
    click_square(c, "8").await;
    wait_for(
        c,
        "document.body.dataset.plies === '2'",
        "the capture and dama's reply",
    )
    .await;
    let first = js(c, "document.querySelector('#moves .mv').textContent").await;
    assert_eq!(first, "22x15x8");
    shot(c, "english-multicapture").await;
    p.close().await;
}

/// Two captures from 22 to 6 that take different men (17 and 9, or 18 and 10):
/// clicking origin and destination offers both; the one chosen is played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_offers_a_choice_between_two_captures() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    open_english(c, &p.s.url, "W:W22:B17,18,9,10,1", 6).await;
    click_square(c, "22").await;
    click_square(c, "6").await;
    wait_for(
        c,
        "!document.getElementById('choices').hidden",
        "the choice",
    )
    .await;
    assert_eq!(
        js(
            c,
            "[...document.querySelectorAll('#choices .choice')].map(e => e.textContent)"
        )
        .await,
        json!(["22x13x6: takes 17, 9", "22x15x6: takes 18, 10"])
    );
    shot(c, "english-choice").await;
    click(c, "#choices .choice:nth-of-type(2)").await;
    wait_for(
        c,
        "document.body.dataset.plies === '1'",
        "the chosen capture",
    )
    .await;
    assert_eq!(
        js(c, "document.querySelector('#moves .mv').textContent").await,
        "22x15x6"
    );
    assert_eq!(
        js(c, "['17', '9', '18', '10'].map(n => !!document.querySelector(`.sq[data-name=\"${n}\"] .piece`))").await,
        json!([true, true, false, false])
    );
    p.close().await;
}

/// A move by drag: press on 11, move, release on 15 (a fresh english game).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_takes_a_move_by_drag() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    c.goto(&format!("{}/?variant=english", p.s.url))
        .await
        .unwrap();
    wait_for(
        c,
        "document.body.dataset.variant === 'english' && document.body.dataset.plies === '0'",
        "a new english game",
    )
    .await;
    let centre = |name: &str| {
        format!(
            "(() => {{ const r = document.querySelector('.sq[data-name=\"{name}\"]').getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2]; }})()"
        )
    };
    let from = js(c, &centre("11")).await;
    let to = js(c, &centre("15")).await;
    let xy = |v: &Value| (v[0].as_f64().unwrap(), v[1].as_f64().unwrap());
    let ((x0, y0), (x1, y1)) = (xy(&from), xy(&to));
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: x0,
            y: y0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(150)),
            x: (x0 + x1) / 2.0,
            y: (y0 + y1) / 2.0,
        })
        .then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(150)),
            x: x1,
            y: y1,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(mouse).await.unwrap();
    wait_for(c, "document.body.dataset.plies === '1'", "the dragged move").await;
    assert_eq!(
        js(c, "document.querySelector('#moves .mv').textContent").await,
        "11-15"
    );
    p.close().await;
}

/// The end of the game is announced with its rule.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_announces_the_end_of_the_game_with_its_rule() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    open_english(c, &p.s.url, "W:W22:B18", 2).await;
    click_square(c, "22").await;
    click_square(c, "15").await;
    wait_for(c, "!document.getElementById('result').hidden", "the result").await;
    assert_eq!(
        js(c, "document.getElementById('result').textContent").await,
        "White wins: Black has no legal move (G8)"
    );
    shot(c, "english-end").await;
    p.close().await;
}

/// Import a FEN and see analysis lines appear.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_imports_a_fen_and_shows_analysis_lines() {
    let Some(p) = page().await else {
        return;
    };
    import_fen_and_analyse(&p.c, &p.s.url).await;
    shot(&p.c, "english-analysis").await;
    p.close().await;
}

/// An analysis line previews on the board; Esc leaves the preview.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_previews_an_analysis_line_until_esc() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    import_fen_and_analyse(c, &p.s.url).await;
    click(c, "#lines li").await;
    wait_for(
        c,
        "document.getElementById('board').classList.contains('previewing')",
        "the preview",
    )
    .await;
    shot(c, "english-preview").await;
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{E00C}")
        .await
        .unwrap();
    wait_for(
        c,
        "!document.getElementById('board').classList.contains('previewing')",
        "the game's board again",
    )
    .await;
    p.close().await;
}

/// A bad FEN is refused with the reason on the page; the game (24 pieces) stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_refuses_a_bad_fen_and_keeps_the_game() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    open_english(
        c,
        &p.s.url,
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        24,
    )
    .await;
    c.execute("document.getElementById('io').value = 'W:Wz9:B1';", vec![])
        .await
        .unwrap();
    click(c, "#load-fen").await;
    wait_for(
        c,
        "document.getElementById('message').textContent.includes('bad FEN')",
        "the FEN error",
    )
    .await;
    assert_eq!(
        js(c, "document.querySelectorAll('#board .piece').length").await,
        24
    );
    p.close().await;
}

/// A URL with moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_opens_a_url_with_moves() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    c.goto(&format!("{}/?variant=english&moves=11-15%2023-19", p.s.url))
        .await
        .unwrap();
    wait_for(c, "document.body.dataset.plies === '2'", "the linked moves").await;
    assert_eq!(
        js(
            c,
            "[...document.querySelectorAll('#moves .mv')].map(e => e.textContent).join(' ')"
        )
        .await,
        "11-15 23-19"
    );
    p.close().await;
}

/// At phone width the board fits the screen, without sideways scrolling.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_fits_the_board_to_a_phone_screen() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    c.set_window_size(390, 844).await.unwrap();
    c.goto(&format!("{}/?variant=croda", p.s.url))
        .await
        .unwrap();
    wait_for(
        c,
        "document.body.dataset.variant === 'croda'",
        "the croda board",
    )
    .await;
    assert_eq!(
        js(c, "document.getElementById('board').getBoundingClientRect().right <= window.innerWidth && document.documentElement.scrollWidth <= window.innerWidth").await,
        true
    );
    shot(c, "croda-phone").await;
    p.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_says_when_the_server_is_busy() {
    // One page at most, and a script holds it: the browser's page is refused.
    let Some(p) = page_with(&["--max-pages", "1"]).await else {
        return;
    };
    let mut script = connect(&p.s).await;
    next_of(&mut script, "state").await;
    let c = &p.c;
    c.goto(&format!("{}/", p.s.url)).await.unwrap();
    wait_for(
        c,
        "document.body.dataset.closeCode === '1013'",
        "the refusal",
    )
    .await;
    let message = js(c, "document.getElementById('message').textContent").await;
    assert!(
        message
            .as_str()
            .unwrap()
            .starts_with("the server is busy: try again later"),
        "{message}"
    );
    let status = js(c, "document.getElementById('status').textContent").await;
    assert!(
        status
            .as_str()
            .unwrap()
            .starts_with("Disconnected from dama: the server is busy"),
        "{status}"
    );
    shot(c, "server-busy").await;
    drop(script);
    p.close().await;
}

/// A won ending thrown away on move 5 (22-18 lets the black king take the man: one
/// king each is a draw), after four quiet king moves.
const THROWN_AWAY: &str = "[Event \"thrown away\"]\n[White \"w\"]\n[Black \"b\"]\n\
    [GameType \"21\"]\n[FEN \"W:W22,K31:BK15\"]\n\n\
    1. 31-26 15-11 2. 26-23 11-15 3. 22-18 15x22 *\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn annotate_rates_every_move_and_exports_the_annotated_pdn() {
    let s = Server::start();
    let mut ws = connect(&s).await;
    next_of(&mut ws, "state").await;
    send(&mut ws, json!({"type": "pdn", "text": THROWN_AWAY})).await;
    let st = next_of(&mut ws, "state").await;
    assert_eq!(st["history"].as_array().unwrap().len(), 6);
    send(&mut ws, json!({"type": "annotate", "movetime": 100})).await;
    // Going through the moves meanwhile does not stop the annotation.
    send(&mut ws, json!({"type": "goto", "ply": 2})).await;
    let done = loop {
        let a = next_of(&mut ws, "annotation").await;
        assert_eq!(a["total"], 7);
        if a["done"] == 7 {
            break a;
        }
    };
    assert_eq!(done["active"], false);
    let moves = done["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    assert_eq!(moves[4]["ply"], 5);
    assert_eq!(moves[4]["mark"], "??", "{}", moves[4]);
    assert_eq!(moves[4]["label"], "blunder");
    assert!(
        moves[4]["best"].is_string(),
        "the better move is named: {}",
        moves[4]
    );
    assert_ne!(moves[4]["best"], "22-18");
    let points = done["points"].as_array().unwrap();
    assert!(points.iter().all(|p| p["white_score"].is_i64()));
    assert!(
        done["summary"]["white"]["blunders"] == 1,
        "{}",
        done["summary"]
    );
    send(&mut ws, json!({"type": "export"})).await;
    let pdn = next_of(&mut ws, "pdn").await;
    assert_eq!(pdn["annotated"], true);
    let text = pdn["text"].as_str().unwrap();
    let g = &dama::pdn::parse_pdn(text)[0];
    assert!(
        g.tag("Annotator").unwrap().starts_with("dama serve"),
        "{text}"
    );
    assert_eq!(g.moves.len(), 6);
    assert_eq!(g.marks[4], "??", "{text}");
    // A move that changes the line drops the annotation of the positions after it.
    send(&mut ws, json!({"type": "goto", "ply": 4})).await;
    next_of(&mut ws, "state").await;
    send(&mut ws, json!({"type": "annotate", "on": false})).await;
    next_of(&mut ws, "state").await;
    send(&mut ws, json!({"type": "move", "from": "23", "to": "27"})).await;
    let st = next_of(&mut ws, "state").await;
    let a = &st["annotation"];
    assert_eq!(a["total"], 6, "{a}");
    assert_eq!(a["done"], 5, "positions 0 to 4 stand: {a}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_analyses_a_game_with_a_graph_that_goes_to_its_moves() {
    let Some(p) = page().await else {
        return;
    };
    let c = &p.c;
    c.goto(&format!("{}/", p.s.url)).await.unwrap();
    wait_for(
        c,
        "document.body.dataset.connected === 'true'",
        "the connection",
    )
    .await;
    c.execute(
        "document.getElementById('io').value = arguments[0];",
        vec![json!(THROWN_AWAY)],
    )
    .await
    .unwrap();
    click(c, "#load-pdn").await;
    wait_for(c, "document.body.dataset.plies === '6'", "the game").await;
    c.execute(
        "document.getElementById('annotate-time').value = '200';",
        vec![],
    )
    .await
    .unwrap();
    click(c, "#annotate").await;
    // The graph fills in, point by point.
    wait_for(
        c,
        "document.querySelectorAll('#graph circle.point').length === 7",
        "the graph's seven points",
    )
    .await;
    let d = js(
        c,
        "document.querySelector('#graph path.curve').getAttribute('d')",
    )
    .await;
    assert_eq!(d.as_str().unwrap().matches('L').count(), 6, "{d}");
    wait_for(
        c,
        "document.getElementById('annotate-progress').textContent === 'done'",
        "the end",
    )
    .await;
    // The blunder's mark and the better move in the move list.
    let mark = js(
        c,
        "document.querySelector('#moves .mv[data-ply=\"5\"] .mark').textContent",
    )
    .await;
    assert_eq!(mark, "??");
    let better = js(c, "document.querySelector('#moves .better').textContent").await;
    assert!(better.as_str().unwrap().starts_with("(better "), "{better}");
    assert_eq!(
        js(
            c,
            "document.querySelectorAll('#graph circle.mark-blunder').length"
        )
        .await,
        1
    );
    // A click on the graph's third point goes to the position after move 2.
    let point = c
        .find(Locator::Css("#graph circle.point[data-index=\"2\"]"))
        .await
        .unwrap();
    point.click().await.unwrap();
    wait_for(
        c,
        "document.body.dataset.cursor === '2'",
        "the move clicked",
    )
    .await;
    shot(c, "annotated-game").await;
    // The annotated PDN is exported.
    click(c, "#export-pdn").await;
    wait_for(
        c,
        "document.getElementById('io').value.includes('[Annotator')",
        "the annotated PDN",
    )
    .await;
    let text = js(c, "document.getElementById('io').value").await;
    assert!(text.as_str().unwrap().contains("22-18??"), "{text}");
    p.close().await;
}
