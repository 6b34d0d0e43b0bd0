//! One page's live channel: the WebSocket, bounded in message size and rate, and the
//! page's worker thread, which owns its [`Table`] and runs its searches. A new command
//! stops the running search; a closed page stops it and ends the worker.

use super::message::{parse_command, Command};
use super::table::{new_table, pdn_variant, EngineConfig, Table, Task};
use crate::engine::search::Shared;
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

/// What the reader and the worker share: the command queue's sending end and whether a
/// search runs, under one lock. The reader queues a command and stops the running search
/// in one step; the worker looks for commands and arms a search in one step. So a stop
/// always hits the search that was running when its command came, never a search
/// started after it. The lock is taken per command and per search, never inside one.
struct Control {
    /// The queue to the worker (`None` once the page is gone).
    tx: Option<mpsc::Sender<Command>>,
    /// The stop handle of the search running now, if one runs.
    searching: Option<Arc<Shared>>,
}

type SharedControl = Arc<Mutex<Control>>;

fn lock(c: &SharedControl) -> std::sync::MutexGuard<'_, Control> {
    // A panic elsewhere cannot leave the control half-changed: take it as it is.
    c.lock().unwrap_or_else(|e| e.into_inner())
}

/// Queues `cmd` and stops the running search; false when the worker is gone.
fn queue(control: &SharedControl, cmd: Command) -> bool {
    let c = lock(control);
    let Some(tx) = c.tx.as_ref() else {
        return false;
    };
    if tx.send(cmd).is_err() {
        return false;
    }
    if let Some(s) = &c.searching {
        s.stop.store(true, Ordering::SeqCst);
    }
    true
}

/// The page is gone: no more commands, and the running search stops.
fn close(control: &SharedControl) {
    let mut c = lock(control);
    c.tx = None;
    if let Some(s) = &c.searching {
        s.stop.store(true, Ordering::SeqCst);
    }
}

/// Serves one page until it closes.
pub async fn page(
    socket: WebSocket,
    config: EngineConfig,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let (mut sink, mut stream) = socket.split();
    let (out_tx, mut out_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    let (cmd_tx, cmd_rx) = mpsc::channel::<Command>();
    let control: SharedControl = Arc::new(Mutex::new(Control {
        tx: Some(cmd_tx),
        searching: None,
    }));
    let worker = {
        let out = out_tx.clone();
        let control = control.clone();
        std::thread::Builder::new()
            .name("dama-page".into())
            .spawn(move || worker(cmd_rx, out, control, config))
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
    loop {
        let msg = tokio::select! {
            m = stream.next() => match m {
                Some(m) => m,
                None => break,
            },
            _ = shutdown.changed() => {
                let _ = out_tx.send(error("the server is shutting down"));
                break;
            }
        };
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
                        if !queue(&control, cmd) {
                            break;
                        }
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
    close(&control);
    drop(out_tx);
    let _ = writer.await;
}

/// The page's worker: applies commands in order and, between them, runs the engine's
/// move or the analysis.
fn worker(
    rx: mpsc::Receiver<Command>,
    out: UnboundedSender<String>,
    control: SharedControl,
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
    send(table.state());
    // Takes the waiting commands into `pending`; false once the page is gone.
    let drain = |pending: &mut VecDeque<Command>| loop {
        match rx.try_recv() {
            Ok(c) => pending.push_back(c),
            Err(mpsc::TryRecvError::Empty) => return true,
            Err(mpsc::TryRecvError::Disconnected) => return false,
        }
    };
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
                vec![table.state()]
            }),
            Command::Pdn { text } if pdn_variant(text).is_some_and(|v| v != table.variant()) => {
                let v = pdn_variant(text).expect("checked");
                new_table(v, None, None, &config).and_then(|mut t| {
                    let r = t.command(&cmd)?;
                    table = t;
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
            let task = table.task();
            if task == Task::Idle {
                break;
            }
            // Arm the search unless a command waits (one step under the lock: a
            // command queued from now on stops this search).
            {
                let mut c = lock(&control);
                if !drain(&mut pending) {
                    return;
                }
                if !pending.is_empty() {
                    break;
                }
                let flag = table.stop_flag();
                flag.stop.store(false, Ordering::SeqCst);
                c.searching = Some(flag);
            }
            if task == Task::Move {
                send(json!({"type": "thinking"}));
            }
            let best = match task {
                Task::Move => table.think(true, &send),
                _ => {
                    table.analyze(&send);
                    None
                }
            };
            {
                let mut c = lock(&control);
                c.searching = None;
                if !drain(&mut pending) {
                    return;
                }
            }
            // Interrupted by a command, or an analysis (only a command ends one):
            // the command comes first; an interrupted move is not played.
            if !pending.is_empty() || task == Task::Analyze {
                break;
            }
            match best {
                Some(mv) if table.play_engine_move(mv) => send(table.state()),
                _ => break,
            }
        }
    }
}
