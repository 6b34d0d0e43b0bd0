//! A running `dama serve` for the tests, and a WebSocket client of it.

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// A running `dama serve --port 0`, killed when dropped.
pub struct Server {
    /// The server process.
    pub child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// Its standard output after the first line.
    pub stdout: BufReader<std::process::ChildStdout>,
}

impl Server {
    /// `dama serve --port 0 --hash 8`.
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// `dama serve --port 0 --hash 8` with more arguments; no endgame databases unless
    /// `--egdb-dir` is among them, and none solved in memory (`--no-egdb-builtin`: they
    /// cost about 2 s at each start; [`Server::start_with_builtin`] has them).
    pub fn start_with(args: &[&str]) -> Server {
        Server::spawn(args, false)
    }

    /// As [`Server::start_with`], with the built-in databases solved at the start.
    pub fn start_with_builtin(args: &[&str]) -> Server {
        Server::spawn(args, true)
    }

    fn spawn(args: &[&str], builtin: bool) -> Server {
        let mut child = super::bin::command_without_databases()
            .args(["serve", "--port", "0", "--hash", "8"])
            .args(if builtin {
                &[][..]
            } else {
                &["--no-egdb-builtin"][..]
            })
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start dama serve");
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut line).expect("read the address");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        Server { child, url, stdout }
    }

    /// The WebSocket address.
    pub fn ws_url(&self) -> String {
        format!("{}/ws", self.url.replace("http://", "ws://"))
    }

    /// How many threads of the server process have this name (from /proc).
    pub fn threads_named(&self, name: &str) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.child.id()))
            .unwrap()
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
            .filter(|comm| comm.trim() == name)
            .count()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A WebSocket client.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A page of `s`.
pub async fn connect(s: &Server) -> Ws {
    tokio_tungstenite::connect_async(s.ws_url())
        .await
        .expect("connect")
        .0
}

/// Sends a JSON message.
pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// The next message of `kind` (others are skipped), within 20 s.
pub async fn next_of(ws: &mut Ws, kind: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let msg = tokio::time::timeout(left, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no '{kind}' message in time"))
            .expect("connection open")
            .expect("a message");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    }
}

impl Server {
    /// Threads of the server process now (from /proc).
    pub fn threads(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.child.id()))
            .unwrap()
            .count()
    }

    /// The server's peak resident memory so far, KiB (VmHWM from /proc).
    pub fn peak_rss_kib(&self) -> u64 {
        status_kib(self.child.id(), "VmHWM:")
    }

    /// The server's resident memory now, KiB (VmRSS from /proc).
    pub fn rss_kib(&self) -> u64 {
        status_kib(self.child.id(), "VmRSS:")
    }
}

/// A `kB` field of /proc/PID/status.
pub fn status_kib(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// The next message of any kind, within 20 s (a frame that is not text as
/// `{"type": "other"}`).
pub async fn next_any(ws: &mut Ws) -> Value {
    let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
        .await
        .expect("a message in time")
        .expect("connection open")
        .expect("a message");
    match msg {
        Message::Text(t) => serde_json::from_str(t.as_str()).unwrap(),
        other => serde_json::json!({"type": "other", "frame": format!("{other:?}")}),
    }
}
