//! One page's live channel: the WebSocket, bounded in message size and rate, and the
//! page's task, which owns its [`Table`] (its game) and asks the shared
//! [`SearchSlots`] for its searches. The page's messages are answered at once, whether
//! its search runs or waits for a slot; a new command stops the search, and a closed
//! page stops it. What the page is sent goes through its bounded [`Outbox`], written by
//! a task of its own, so that a page that does not read costs nothing.

use super::message::{parse_command, Command};
use super::outbox::{Outbox, Outgoing};
use super::resources::Resources;
use super::slots::{Finished, Kind, SearchSlots};
use super::table::{new_table, pdn_variant, Table, Task, VerdictSink, ANNOTATION_LINE};
use crate::variant::Variant;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    /// Messages dropped since the page was last told.
    dropped: u64,
    /// When the page was last told of dropped messages.
    told: Option<Instant>,
}

impl Rate {
    fn new() -> Rate {
        Rate {
            tokens: RATE_BURST,
            at: Instant::now(),
            dropped: 0,
            told: None,
        }
    }

    /// A message was dropped: the warning for the page, at most one a second (a flood
    /// of messages is not answered by a flood of errors).
    fn warning(&mut self) -> Option<String> {
        self.dropped += 1;
        let now = Instant::now();
        if self
            .told
            .is_some_and(|t| now.duration_since(t) < Duration::from_secs(1))
        {
            return None;
        }
        let n = std::mem::take(&mut self.dropped);
        self.told = Some(now);
        Some(format!(
            "too many messages: at most {RATE_PER_SECOND} a second; {n} dropped"
        ))
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

/// What a page's task needs from the server.
#[derive(Clone)]
pub struct PageContext {
    /// The page's number (its searches are queued under it).
    pub id: u64,
    /// The evaluations, books and databases.
    pub resources: Arc<Resources>,
    /// The shared searches.
    pub slots: SearchSlots,
    /// A page that sends nothing for this long is closed.
    pub idle: Duration,
}

/// One page's place among the open pages (`--max-pages`), given back when dropped.
/// A page gives it back before it sends its close frame, so that a page which opens
/// once the close handshake is over (a reload) finds the place free.
pub struct Seat(Arc<AtomicUsize>);

impl Seat {
    /// A place if fewer than `max` pages are open.
    pub fn take(pages: &Arc<AtomicUsize>, max: usize) -> Option<Seat> {
        let before = pages.fetch_add(1, Ordering::SeqCst);
        let seat = Seat(Arc::clone(pages));
        (before < max).then_some(seat)
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Close code: the server is going away.
pub const CLOSE_GOING_AWAY: u16 = 1001;
/// Close code: the page broke a rule of the channel (it did not read its messages).
pub const CLOSE_POLICY: u16 = 1008;
/// Close code: the server is busy, try again later.
pub const CLOSE_TRY_LATER: u16 = 1013;
/// Close code: a normal close (the page was idle too long).
pub const CLOSE_NORMAL: u16 = 1000;

/// Tells a page past the bound why it is refused, and closes it.
pub async fn refuse(socket: WebSocket, reason: String) {
    let (mut sink, _stream) = socket.split();
    let _ = sink
        .send(Message::Text(
            json!({"type": "busy", "message": reason})
                .to_string()
                .into(),
        ))
        .await;
    let _ = sink
        .send(Message::Close(Some(CloseFrame {
            code: CLOSE_TRY_LATER,
            reason: reason.into(),
        })))
        .await;
}

/// Writes the outbox to the socket until a close is written or the peer is gone.
async fn write_loop(mut sink: SplitSink<WebSocket, Message>, outbox: Arc<Outbox>) {
    loop {
        let Some(m) = outbox.pop() else {
            if outbox.has_overflowed() {
                return;
            }
            outbox.ready().await;
            continue;
        };
        let msg = match m {
            Outgoing::Text(t) | Outgoing::Info { text: t, .. } => Message::Text(t.into()),
            Outgoing::Close { code, reason } => {
                let _ = sink
                    .send(Message::Close(Some(CloseFrame {
                        code,
                        reason: reason.into(),
                    })))
                    .await;
                return;
            }
        };
        if sink.send(msg).await.is_err() {
            return;
        }
    }
}

/// One page: its game, its search (at most one, waiting or running) and its socket.
struct Page {
    ctx: PageContext,
    outbox: Arc<Outbox>,
    table: Box<dyn Table>,
    generation: u64,
    /// The ticket and task of the page's search, if one waits or runs.
    search: Option<(u64, Task)>,
    done: tokio::sync::mpsc::UnboundedSender<Finished>,
    /// Where an annotation's verdicts come back.
    verdicts: VerdictSink,
}

impl Page {
    fn send(&self, v: serde_json::Value) {
        self.outbox.send(v.to_string());
    }

    /// Applies a command: the page's search stops first, then the replies are queued
    /// (a new generation: late lines of the stopped search are dropped), then the next
    /// search is asked for.
    fn command(&mut self, cmd: Command) {
        self.ctx.slots.cancel(self.ctx.id);
        self.search = None;
        self.generation = self.outbox.next_generation();
        let resources = &self.ctx.resources;
        let replies = match &cmd {
            Command::New {
                variant,
                fen,
                moves,
            } => new_table(*variant, fen.as_deref(), moves.as_deref(), resources).map(|t| {
                self.table = t;
                vec![self.table.state()]
            }),
            Command::Pdn { text }
                if pdn_variant(text).is_some_and(|v| v != self.table.variant()) =>
            {
                let v = pdn_variant(text).expect("checked");
                new_table(v, None, None, resources).and_then(|mut t| {
                    let r = t.command(&cmd)?;
                    self.table = t;
                    Ok(r)
                })
            }
            _ => self.table.command(&cmd),
        };
        match replies {
            Ok(r) => r.into_iter().for_each(|v| self.send(v)),
            Err(e) => {
                self.outbox.send(error(&e));
            }
        }
        self.schedule();
    }

    /// Starts what the table asks for: an engine move (from the book at once, else a
    /// search) or the analysis.
    fn schedule(&mut self) {
        loop {
            let task = self.table.task();
            let kind = match task {
                Task::Idle => return,
                Task::Move => {
                    if let Some(mv) = self.table.book_move() {
                        if self.table.play_engine_move(mv) {
                            self.send(self.table.state());
                            continue;
                        }
                    }
                    self.send(json!({"type": "thinking"}));
                    Kind::Move
                }
                Task::Analyze | Task::Annotate => Kind::Analysis,
            };
            let job = self.table.job(
                task,
                Arc::clone(&self.outbox),
                self.generation,
                self.verdicts.clone(),
            );
            let (ticket, place) = self
                .ctx
                .slots
                .submit(self.ctx.id, kind, job, self.done.clone());
            self.search = Some((ticket, task));
            if place > 0 {
                self.send(json!({
                    "type": "queued",
                    "place": place,
                    "slots": self.ctx.slots.load().slots,
                }));
            }
            return;
        }
    }

    /// A search ended on its own: an engine move is played (when it is still this
    /// page's search and legal), and the next search is asked for (after an engine
    /// move or a finished annotation; an analysis that ends stays ended).
    fn finished(&mut self, f: Finished) {
        if self.search.map(|(t, _)| t) != Some(f.ticket) {
            return;
        }
        match self.search.take().map(|(_, task)| task) {
            Some(Task::Move) => {
                if let Some(mv) = f.best {
                    if self.table.play_engine_move(mv) {
                        self.send(self.table.state());
                        self.schedule();
                    }
                }
            }
            Some(Task::Annotate) => self.schedule(),
            _ => {}
        }
    }

    /// A verdict of the annotation: kept, and the page gets the annotation so far.
    fn verdict(&mut self, line: u64, index: usize, verdict: crate::play::annotation::Verdict) {
        if let Some(m) = self.table.annotated(line, index, verdict) {
            self.outbox
                .info(self.generation, ANNOTATION_LINE, m.to_string());
        }
    }
}

/// Serves one page until it closes, the server stops, the page is idle for
/// `ctx.idle`, or its outbox overflows.
pub async fn page(
    socket: WebSocket,
    ctx: PageContext,
    seat: Seat,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let (sink, mut stream) = socket.split();
    let outbox = Arc::new(Outbox::new());
    let mut writer = tokio::spawn(write_loop(sink, Arc::clone(&outbox)));
    let (done, mut finished) = tokio::sync::mpsc::unbounded_channel::<Finished>();
    let (verdicts, mut verdicts_back) = tokio::sync::mpsc::unbounded_channel();
    let table = match new_table(Variant::English, None, None, &ctx.resources) {
        Ok(t) => t,
        Err(e) => {
            outbox.send(error(&e));
            drop(seat);
            outbox.close(CLOSE_GOING_AWAY, "the server cannot make a game");
            let _ = writer.await;
            return;
        }
    };
    let generation = outbox.next_generation();
    let mut page = Page {
        ctx,
        outbox: Arc::clone(&outbox),
        table,
        generation,
        search: None,
        done,
        verdicts,
    };
    page.send(page.table.state());
    let mut rate = Rate::new();
    let mut last = Instant::now();
    let idle = page.ctx.idle;
    loop {
        let deadline = tokio::time::Instant::from_std(last + idle);
        let msg = tokio::select! {
            m = stream.next() => match m {
                Some(m) => m,
                None => break,
            },
            Some(f) = finished.recv() => {
                page.finished(f);
                continue;
            }
            Some((line, index, verdict)) = verdicts_back.recv() => {
                page.verdict(line, index, verdict);
                continue;
            }
            _ = shutdown.changed() => {
                outbox.send(error("the server is shutting down"));
                outbox.close(CLOSE_GOING_AWAY, "the server is shutting down");
                break;
            }
            _ = tokio::time::sleep_until(deadline) => {
                let why = format!(
                    "closed after {} without a message: reload the page to go on",
                    idle_text(idle)
                );
                outbox.send(error(&why));
                outbox.close(CLOSE_NORMAL, &why);
                break;
            }
            _ = outbox.overflowed() => break,
        };
        last = Instant::now();
        match msg {
            Ok(Message::Text(text)) => {
                if !rate.take() {
                    if let Some(w) = rate.warning() {
                        outbox.send(error(&w));
                    }
                    continue;
                }
                match parse_command(text.as_str()) {
                    Ok(cmd) => page.command(cmd),
                    Err(e) => {
                        outbox.send(error(&e));
                    }
                }
            }
            Ok(Message::Binary(_)) => {
                outbox.send(error("binary messages are not understood; send JSON text"));
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(e) => {
                outbox.send(error(&format!("connection closed: {e}")));
                outbox.close(CLOSE_POLICY, "the connection broke a rule");
                break;
            }
        }
    }
    // The page is gone (or is closed): its place is free before the close frame
    // goes out; its search stops; the writer sends what is queued, and the close,
    // unless the peer does not read.
    drop(seat);
    page.ctx.slots.cancel(page.ctx.id);
    outbox.close(CLOSE_NORMAL, "goodbye");
    if outbox.has_overflowed()
        || tokio::time::timeout(Duration::from_secs(5), &mut writer)
            .await
            .is_err()
    {
        writer.abort();
    }
}

/// `30 minutes`, `5 seconds`.
fn idle_text(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 && s.is_multiple_of(60) {
        let m = s / 60;
        format!("{m} minute{}", if m == 1 { "" } else { "s" })
    } else {
        format!("{s} second{}", if s == 1 { "" } else { "s" })
    }
}
