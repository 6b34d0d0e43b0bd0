//! The load run of `dama serve`, on the loopback only, bounded in pages and time:
//! `cargo bench --bench serve_load`.
//!
//! Two runs, each against a fresh server (no endgame databases):
//! - **defaults** (`dama serve --port 0`, so `--max-pages 64` and one search slot per
//!   core): 200 pages connect at once and every second one asks for analysis (five
//!   variants in turn, three lines each). The pages past the bound must each be told
//!   why. Then, 20 times, an idle page leaves and a fresh one comes: the time to its
//!   first `state` is measured while the analyses go on.
//! - **200 pages** (`--max-pages 256`): all 200 are admitted and 100 analyse; then 20
//!   fresh pages come (no page leaves).
//!
//! Each run holds the analyses for 10 s and reports the server's peak resident memory
//! (VmHWM) and its most threads (sampled every 50 ms from /proc), the fresh pages'
//! times to `state` (median and worst of 20), the analysis lines each analysing page
//! received, and what the refused pages received. The targets: memory under 1 GB,
//! threads under 50, a fresh page's `state` in under 0.2 s, every refused page told why.

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

const PAGES: usize = 200;
const FRESH: usize = 20;
const HOLD: Duration = Duration::from_secs(10);
const VARIANTS: [&str; 5] = ["english", "dameo", "croda", "scandinavian", "boyer-parton"];

struct Server {
    child: Child,
    ws_url: String,
}

impl Server {
    fn start(args: &[&str], egdb: &std::path::Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dama"))
            .args(["serve", "--port", "0"])
            .args(args)
            .env("DAMA_EGDB_DIR", egdb)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start dama serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("read the address");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/');
        Server {
            ws_url: format!("{}/ws", url.replace("http://", "ws://")),
            child,
        }
    }

    fn threads(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.child.id()))
            .map(|d| d.count())
            .unwrap_or(0)
    }

    fn status_kib(&self, field: &str) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default()
            .lines()
            .find(|l| l.starts_with(field))
            .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one page saw.
#[derive(Default, Debug)]
struct Seen {
    admitted: bool,
    /// The close frame's code and reason, for a refused page.
    refused: Option<(u16, String)>,
    /// The `busy` message's text.
    busy: Option<String>,
}

async fn send(ws: &mut Ws, v: Value) {
    let _ = ws.send(Message::Text(v.to_string().into())).await;
}

/// Connects and reads the first message: admitted (a `state`) or refused (a `busy`
/// message and a close frame).
async fn open(url: &str) -> (Option<Ws>, Seen) {
    let mut seen = Seen::default();
    let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await else {
        return (None, seen);
    };
    loop {
        match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap_or(Value::Null);
                match v["type"].as_str() {
                    Some("state") => {
                        seen.admitted = true;
                        return (Some(ws), seen);
                    }
                    Some("busy") => seen.busy = v["message"].as_str().map(String::from),
                    _ => {}
                }
            }
            Ok(Some(Ok(Message::Close(f)))) => {
                seen.refused = f.map(|f| (u16::from(f.code), f.reason.to_string()));
                return (None, seen);
            }
            Ok(Some(Ok(_))) => {}
            _ => return (None, seen),
        }
    }
}

/// Reads a page until `stop`, counting its analysis lines.
async fn hold(mut ws: Ws, stop: Arc<AtomicBool>, infos: Arc<AtomicUsize>) -> Ws {
    while !stop.load(Ordering::Relaxed) {
        match tokio::time::timeout(Duration::from_millis(100), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                if t.as_str().contains("\"type\":\"info\"") {
                    infos.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(Some(Ok(_))) | Err(_) => {}
            Ok(Some(Err(_))) | Ok(None) => break,
        }
    }
    ws
}

fn median_and_worst(mut v: Vec<Duration>) -> (Duration, Duration) {
    v.sort();
    (v[v.len() / 2], *v.last().unwrap())
}

struct Report {
    name: String,
    admitted: usize,
    refused: usize,
    refused_told: usize,
    refusal: Option<String>,
    analysing: usize,
    infos_min: usize,
    infos_median: usize,
    fresh: Vec<Duration>,
    peak_rss_kib: u64,
    end_rss_kib: u64,
    peak_threads: usize,
    start_threads: usize,
    start_rss_kib: u64,
}

async fn run(name: &str, args: &[&str], leave_for_fresh: bool) -> Report {
    let egdb = std::env::temp_dir().join("dama-serve-load-no-egdb");
    std::fs::create_dir_all(&egdb).unwrap();
    let server = Arc::new(Server::start(args, &egdb));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let start_threads = server.threads();
    let start_rss_kib = server.status_kib("VmRSS:");
    // Sample the threads while the run goes on.
    let sampling = Arc::new(AtomicBool::new(true));
    let peak_threads = Arc::new(AtomicUsize::new(start_threads));
    let sampler = {
        let (server, sampling, peak) = (server.clone(), sampling.clone(), peak_threads.clone());
        tokio::spawn(async move {
            while sampling.load(Ordering::Relaxed) {
                peak.fetch_max(server.threads(), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
    };
    // 200 pages at once.
    let url = server.ws_url.clone();
    let opened = futures_util::future::join_all((0..PAGES).map(|_| open(&url))).await;
    let mut refused = 0;
    let mut refused_told = 0;
    let mut refusal = None;
    let stop = Arc::new(AtomicBool::new(false));
    let mut analysers = Vec::new();
    let mut idle = Vec::new();
    for (i, (ws, seen)) in opened.into_iter().enumerate() {
        match ws {
            Some(mut ws) if i % 2 == 0 => {
                let v = VARIANTS[(i / 2) % VARIANTS.len()];
                send(&mut ws, json!({"type": "new", "variant": v})).await;
                send(
                    &mut ws,
                    json!({"type": "analyze", "on": true, "multipv": 3}),
                )
                .await;
                let infos = Arc::new(AtomicUsize::new(0));
                analysers.push((tokio::spawn(hold(ws, stop.clone(), infos.clone())), infos));
            }
            Some(ws) => idle.push(tokio::spawn(hold(
                ws,
                stop.clone(),
                Arc::new(AtomicUsize::new(0)),
            ))),
            None => {
                refused += 1;
                let told = matches!(&seen.refused, Some((1013, r)) if !r.is_empty())
                    && seen.busy.is_some();
                if told {
                    refused_told += 1;
                }
                refusal = refusal.or(seen.refused.map(|(c, r)| format!("close {c}: {r}")));
            }
        }
    }
    let admitted = analysers.len() + idle.len();
    // Fresh pages while the analyses run, spread over the hold.
    let began = Instant::now();
    let mut fresh = Vec::new();
    let mut fresh_pages = Vec::new();
    for k in 0..FRESH {
        let at = began + HOLD.mul_f64(k as f64 / FRESH as f64);
        tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await;
        if leave_for_fresh {
            if let Some(h) = idle.pop() {
                h.abort();
                // Let the server see the close before the fresh page comes.
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        let t = Instant::now();
        let (ws, seen) = open(&url).await;
        let took = t.elapsed();
        if seen.admitted {
            fresh.push(took);
            fresh_pages.push(ws);
        } else {
            eprintln!("{name}: a fresh page was refused: {seen:?}");
        }
    }
    tokio::time::sleep_until(tokio::time::Instant::from_std(began + HOLD)).await;
    let peak_rss_kib = server.status_kib("VmHWM:");
    stop.store(true, Ordering::Relaxed);
    let mut counts = Vec::new();
    for (h, infos) in analysers {
        let _ = h.await;
        counts.push(infos.load(Ordering::Relaxed));
    }
    for h in idle {
        let _ = h.await;
    }
    drop(fresh_pages);
    sampling.store(false, Ordering::Relaxed);
    let _ = sampler.await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let end_rss_kib = server.status_kib("VmRSS:");
    counts.sort();
    Report {
        name: name.to_string(),
        admitted,
        refused,
        refused_told,
        refusal,
        analysing: counts.len(),
        infos_min: counts.first().copied().unwrap_or(0),
        infos_median: counts.get(counts.len() / 2).copied().unwrap_or(0),
        fresh,
        peak_rss_kib,
        end_rss_kib,
        peak_threads: peak_threads.load(Ordering::Relaxed),
        start_threads,
        start_rss_kib,
    }
}

fn print(r: &Report) -> bool {
    let (median, worst) = if r.fresh.is_empty() {
        (Duration::MAX, Duration::MAX)
    } else {
        median_and_worst(r.fresh.clone())
    };
    let mib = |k: u64| k as f64 / 1024.0;
    println!("## {}", r.name);
    println!(
        "pages: {} admitted, {} refused ({} told why: {})",
        r.admitted,
        r.refused,
        r.refused_told,
        r.refusal.as_deref().unwrap_or("-")
    );
    println!(
        "analysing pages: {}; analysis lines each in {} s: fewest {}, median {}",
        r.analysing,
        HOLD.as_secs(),
        r.infos_min,
        r.infos_median
    );
    println!(
        "fresh pages: {} of {FRESH} admitted; first state: median {:.1} ms, worst {:.1} ms",
        r.fresh.len(),
        median.as_secs_f64() * 1e3,
        worst.as_secs_f64() * 1e3
    );
    println!(
        "server memory: {:.1} MiB at the start, peak {:.1} MiB, {:.1} MiB after the pages left",
        mib(r.start_rss_kib),
        mib(r.peak_rss_kib),
        mib(r.end_rss_kib)
    );
    println!(
        "server threads: {} at the start, at most {}",
        r.start_threads, r.peak_threads
    );
    let ok = r.peak_rss_kib < 1024 * 1024
        && r.peak_threads < 50
        && r.fresh.len() == FRESH
        && worst < Duration::from_millis(200)
        && r.refused == r.refused_told
        && r.infos_min > 0;
    println!(
        "targets (memory < 1 GB, threads < 50, fresh state < 0.2 s, every refused page told why, every analysis served): {}",
        if ok { "met" } else { "NOT met" }
    );
    println!();
    ok
}

fn main() {
    // `cargo bench` passes --bench; a filter argument picks one run.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let runs: [(&str, &[&str], bool); 2] = [
        ("defaults", &[], true),
        (
            "200 pages (--max-pages 256)",
            &["--max-pages", "256"],
            false,
        ),
    ];
    let mut all = true;
    for (name, args, leave) in runs {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let r = runtime.block_on(run(name, args, leave));
        all &= print(&r);
    }
    if !all {
        std::process::exit(1);
    }
}
