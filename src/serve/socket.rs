//! One page's live channel: the WebSocket, bounded in message size and rate, and the
//! page's worker thread, which owns its [`Table`] and runs its searches. A new command
//! stops the running search; a closed page stops it and ends the worker.

use super::message::{parse_command, Command};
use super::table::{new_table, pdn_variant, EngineConfig, Table, Task};
use crate::search::Shared;
use crate::variant::Variant;
use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::mpsc::UnboundedSender;

/// Largest message a page may send, bytes (a long PDN game fits many times over).
pub const MAX_MESSAGE: usize = 64 * 1024;
/// Messages a page may send in a burst.
pub const RATE_BURST: f64 = 40.0;
/// Messages a page may send per second, sustained.
pub const RATE_PER_SECOND: f64 = 20.0;

/// A token bucket: `RATE_BURST` messages at once, refilled at `RATE_PER_SECOND`.
struct Rate {
    tokens: f64,
    at: Instant,
}

impl Rate {
    fn new() -> Rate {
        Rate {
            tokens: RATE_BURST,
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * RATE_PER_SECOND;
        self.tokens = (self.tokens + refill).min(RATE_BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

fn error(message: &str) -> String {
    json!({"type": "error", "message": message}).to_string()
}

/// The stop handle of the page's current search, shared by the reader (which stops)
/// and the worker (which replaces it with each new table).
type StopHandle = Arc<Mutex<Option<Arc<Shared>>>>;

fn stop_search(stop: &StopHandle) {
    if let Ok(s) = stop.lock() {
        if let Some(s) = s.as_ref() {
            s.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// Serves one page until it closes.
pub async fn page(socket: WebSocket, config: EngineConfig) {
    let (mut sink, mut stream) = socket.split();
    let (out_tx, mut out_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let (cmd_tx, cmd_rx) = mpsc::channel::<Command>();
    let stop: StopHandle = Arc::new(Mutex::new(None));
    let worker = {
        let out = out_tx.clone();
        let stop = stop.clone();
        std::thread::Builder::new()
            .name("dama-page".into())
            .spawn(move || worker(cmd_rx, out, stop, config))
    };
    if let Err(e) = worker {
        let _ = sink
            .send(Message::Text(
                error(&format!("no thread for the page: {e}")).into(),
            ))
            .await;
        return;
    }
    let writer = tokio::spawn(async move {
        while let Some(text) = out_rx.recv().await {
            if sink.send(Message::Text(text.into())).await.is_err() {
                return;
            }
        }
        let _ = sink.send(Message::Close(None)).await;
    });
    let mut rate = Rate::new();
    while let Some(msg) = stream.next().await {
        match msg {
            Ok(Message::Text(text)) => {
                if !rate.take() {
                    let _ = out_tx.send(error(&format!(
                        "too many messages: at most {RATE_PER_SECOND} a second; this one was dropped"
                    )));
                    continue;
                }
                match parse_command(text.as_str()) {
                    Ok(cmd) => {
                        // Queue first, then stop: a search that starts after the stop
                        // sees the queued command and does not run.
                        if cmd_tx.send(cmd).is_err() {
                            break;
                        }
                        stop_search(&stop);
                    }
                    Err(e) => {
                        let _ = out_tx.send(error(&e));
                    }
                }
            }
            Ok(Message::Binary(_)) => {
                let _ = out_tx.send(error("binary messages are not understood; send JSON text"));
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(e) => {
                let _ = out_tx.send(error(&format!("connection closed: {e}")));
                break;
            }
        }
    }
    // The page is gone (or broke the rules of the channel): stop its search; the
    // worker ends when its command channel closes, the writer when the worker's
    // sender and ours are dropped.
    drop(cmd_tx);
    stop_search(&stop);
    drop(out_tx);
    let _ = writer.await;
}

/// The page's worker: applies commands in order and, between them, runs the engine's
/// move or the analysis.
fn worker(
    rx: mpsc::Receiver<Command>,
    out: UnboundedSender<String>,
    stop: StopHandle,
    config: EngineConfig,
) {
    let send = |v: Value| {
        let _ = out.send(v.to_string());
    };
    let mut pending: VecDeque<Command> = VecDeque::new();
    let mut table: Box<dyn Table> = match new_table(Variant::English, None, None, &config) {
        Ok(t) => t,
        Err(e) => {
            send(json!({"type": "error", "message": e}));
            return;
        }
    };
    *stop.lock().expect("stop handle") = Some(table.stop_flag());
    send(table.state());
    loop {
        let cmd = match pending.pop_front() {
            Some(c) => c,
            None => match rx.recv() {
                Ok(c) => c,
                Err(_) => return,
            },
        };
        let replies = match &cmd {
            Command::New {
                variant,
                fen,
                moves,
            } => new_table(*variant, fen.as_deref(), moves.as_deref(), &config).map(|t| {
                table = t;
                *stop.lock().expect("stop handle") = Some(table.stop_flag());
                vec![table.state()]
            }),
            Command::Pdn { text } if pdn_variant(text).is_some_and(|v| v != table.variant()) => {
                let v = pdn_variant(text).expect("checked");
                new_table(v, None, None, &config).and_then(|mut t| {
                    let r = t.command(&cmd)?;
                    table = t;
                    *stop.lock().expect("stop handle") = Some(table.stop_flag());
                    Ok(r)
                })
            }
            _ => table.command(&cmd),
        };
        match replies {
            Ok(r) => r.into_iter().for_each(send),
            Err(e) => send(json!({"type": "error", "message": e})),
        }
        // Idle work, until a command waits.
        loop {
            while let Ok(c) = rx.try_recv() {
                pending.push_back(c);
            }
            if !pending.is_empty() {
                break;
            }
            let flag = table.stop_flag();
            match table.task() {
                Task::Idle => break,
                Task::Move => {
                    // Arm, then look for a command once more: a command sent after
                    // this point stops the search.
                    flag.stop.store(false, Ordering::SeqCst);
                    while let Ok(c) = rx.try_recv() {
                        pending.push_back(c);
                    }
                    if !pending.is_empty() {
                        break;
                    }
                    send(json!({"type": "thinking"}));
                    let best = table.think(true, &send);
                    while let Ok(c) = rx.try_recv() {
                        pending.push_back(c);
                    }
                    if !pending.is_empty() {
                        // Interrupted: the move is not played.
                        break;
                    }
                    match best {
                        Some(mv) if table.play_engine_move(mv) => send(table.state()),
                        _ => break,
                    }
                }
                Task::Analyze => {
                    flag.stop.store(false, Ordering::SeqCst);
                    while let Ok(c) = rx.try_recv() {
                        pending.push_back(c);
                    }
                    if !pending.is_empty() {
                        break;
                    }
                    table.analyze(&send);
                    // Only a command ends an analysis.
                    break;
                }
            }
        }
    }
}
