//! [`Outbox`]: what the server has to send one page, bounded. A page that does not read
//! its socket must not make the server's memory grow: the queue holds at most
//! [`MAX_QUEUED`] messages and [`MAX_BYTES`] bytes. An `info` line replaces the queued
//! one of the same analysis line (a newer iteration supersedes an older one), and the
//! oldest `info` is dropped when the queue is full; when even that is not enough (the
//! page has not read its `state` messages), the outbox overflows and the page is closed.
//!
//! Every `info` carries the generation of the page's commands it belongs to: a search
//! that a command has stopped may still report an iteration before it notices, and such
//! a line is dropped here, under the same lock as the command's new `state`, so that a
//! page never sees a line of the position it has left.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};

/// Most messages queued for one page.
pub const MAX_QUEUED: usize = 256;
/// Most bytes queued for one page.
pub const MAX_BYTES: usize = 1 << 20;

/// One queued message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outgoing {
    /// A JSON text message.
    Text(String),
    /// An `info` line of analysis line `line` (merged and dropped first).
    Info {
        /// The analysis line (multi-PV index) it reports.
        line: usize,
        /// The JSON text.
        text: String,
    },
    /// Close the WebSocket with this code and reason; nothing is sent after it.
    Close {
        /// The close code (1000 normal, 1001 going away, 1008 policy, 1013 try later).
        code: u16,
        /// Why, for the page (at most 123 bytes).
        reason: String,
    },
}

impl Outgoing {
    fn bytes(&self) -> usize {
        match self {
            Outgoing::Text(t) | Outgoing::Info { text: t, .. } => t.len(),
            Outgoing::Close { reason, .. } => reason.len(),
        }
    }
}

#[derive(Default)]
struct Queue {
    items: VecDeque<Outgoing>,
    bytes: usize,
    generation: u64,
    /// A close is queued (or the queue overflowed): nothing more is taken.
    closing: bool,
    overflowed: bool,
    merged: u64,
    dropped: u64,
}

/// The bounded queue of one page's outgoing messages.
#[derive(Default)]
pub struct Outbox {
    queue: Mutex<Queue>,
    /// Wakes the page's writer when something is queued.
    ready: tokio::sync::Notify,
    /// Wakes the page's task when the outbox overflows.
    trouble: tokio::sync::Notify,
}

impl Outbox {
    /// An empty outbox at generation 0.
    pub fn new() -> Outbox {
        Outbox::default()
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        // A panic elsewhere cannot leave the queue half-changed: take it as it is.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts a new generation: `info` lines of older generations are dropped, queued
    /// or not yet sent. Returns the new generation.
    pub fn next_generation(&self) -> u64 {
        let mut q = self.lock();
        q.generation += 1;
        let before = q.items.len();
        q.items.retain(|m| !matches!(m, Outgoing::Info { .. }));
        let dropped = (before - q.items.len()) as u64;
        q.dropped += dropped;
        q.bytes = q.items.iter().map(Outgoing::bytes).sum();
        q.generation
    }

    /// The current generation.
    pub fn generation(&self) -> u64 {
        self.lock().generation
    }

    /// Queues a message that must arrive (a `state`, an error, a `pdn`). When the queue
    /// is full even after dropping every `info`, the outbox overflows: the page is to be
    /// closed. False when the message was not queued.
    pub fn send(&self, text: String) -> bool {
        let mut q = self.lock();
        if q.closing {
            return false;
        }
        while full(&q, text.len()) {
            if !drop_oldest_info(&mut q) {
                q.overflowed = true;
                q.closing = true;
                drop(q);
                self.trouble.notify_one();
                return false;
            }
        }
        q.bytes += text.len();
        q.items.push_back(Outgoing::Text(text));
        drop(q);
        self.ready.notify_one();
        true
    }

    /// Queues an `info` line of `generation` for analysis line `line`: dropped when the
    /// generation is over, merged into the queued line of the same number, or queued
    /// after dropping the oldest `info` when the queue is full (and dropped itself when
    /// no `info` is left to make room).
    pub fn info(&self, generation: u64, line: usize, text: String) {
        let mut q = self.lock();
        if q.closing || generation != q.generation {
            return;
        }
        if let Some(i) = q
            .items
            .iter()
            .position(|m| matches!(m, Outgoing::Info { line: l, .. } if *l == line))
        {
            let old = q.items[i].bytes();
            q.bytes = q.bytes - old + text.len();
            q.items[i] = Outgoing::Info { line, text };
            q.merged += 1;
            drop(q);
            self.ready.notify_one();
            return;
        }
        while full(&q, text.len()) {
            if !drop_oldest_info(&mut q) {
                q.dropped += 1;
                return;
            }
        }
        q.bytes += text.len();
        q.items.push_back(Outgoing::Info { line, text });
        drop(q);
        self.ready.notify_one();
    }

    /// Queues the close of the WebSocket; later messages are not taken.
    pub fn close(&self, code: u16, reason: &str) {
        let mut q = self.lock();
        if q.closing {
            return;
        }
        q.closing = true;
        q.items.push_back(Outgoing::Close {
            code,
            reason: reason.to_string(),
        });
        drop(q);
        self.ready.notify_one();
    }

    /// The next message to write, if any. After an overflow nothing more is written.
    pub fn pop(&self) -> Option<Outgoing> {
        let mut q = self.lock();
        if q.overflowed {
            return None;
        }
        let m = q.items.pop_front()?;
        q.bytes -= m.bytes();
        Some(m)
    }

    /// Waits until a message may be waiting.
    pub async fn ready(&self) {
        self.ready.notified().await
    }

    /// Waits until the outbox overflows.
    pub async fn overflowed(&self) {
        loop {
            if self.lock().overflowed {
                return;
            }
            self.trouble.notified().await;
        }
    }

    /// Whether the outbox overflowed.
    pub fn has_overflowed(&self) -> bool {
        self.lock().overflowed
    }

    /// Messages queued now, and `info` lines merged and dropped so far.
    pub fn counts(&self) -> (usize, u64, u64) {
        let q = self.lock();
        (q.items.len(), q.merged, q.dropped)
    }
}

fn full(q: &Queue, more: usize) -> bool {
    q.items.len() + 1 > MAX_QUEUED || q.bytes + more > MAX_BYTES
}

fn drop_oldest_info(q: &mut Queue) -> bool {
    match q
        .items
        .iter()
        .position(|m| matches!(m, Outgoing::Info { .. }))
    {
        Some(i) => {
            let m = q.items.remove(i).expect("an index of the queue");
            q.bytes -= m.bytes();
            q.dropped += 1;
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(m: Option<Outgoing>) -> Option<String> {
        match m? {
            Outgoing::Text(t) | Outgoing::Info { text: t, .. } => Some(t),
            Outgoing::Close { reason, .. } => Some(format!("close {reason}")),
        }
    }

    #[test]
    fn infos_merge_by_line_and_old_generations_are_dropped() {
        let o = Outbox::new();
        let g = o.next_generation();
        o.info(g, 1, "a1".into());
        o.info(g, 2, "b1".into());
        o.info(g, 1, "a2".into());
        assert_eq!(o.counts(), (2, 1, 0));
        assert_eq!(text(o.pop()).as_deref(), Some("a2"));
        o.info(g, 1, "a3".into());
        let g2 = o.next_generation();
        // The queued lines of the old position are gone, and late ones are refused.
        o.info(g, 1, "late".into());
        o.send("state".into());
        o.info(g2, 1, "new".into());
        let rest: Vec<_> = std::iter::from_fn(|| text(o.pop())).collect();
        assert_eq!(rest, ["state", "new"]);
    }

    #[test]
    fn a_full_queue_drops_infos_first_then_overflows() {
        let o = Outbox::new();
        let g = o.next_generation();
        for line in 0..MAX_QUEUED {
            o.info(g, line, format!("info {line}"));
        }
        assert_eq!(o.counts().0, MAX_QUEUED);
        // Messages that must arrive push the oldest infos out.
        for i in 0..MAX_QUEUED {
            assert!(o.send(format!("state {i}")));
        }
        assert_eq!(o.counts(), (MAX_QUEUED, 0, MAX_QUEUED as u64));
        assert!(!o.has_overflowed());
        // An info finds no room and is dropped; one more state overflows.
        o.info(g, 999, "info".into());
        assert_eq!(o.counts().0, MAX_QUEUED);
        assert!(!o.send("one too many".into()));
        assert!(o.has_overflowed());
        assert_eq!(o.pop(), None);
    }

    #[test]
    fn bytes_are_bounded_too() {
        let o = Outbox::new();
        let big = "x".repeat(MAX_BYTES / 4);
        for _ in 0..4 {
            assert!(o.send(big.clone()));
        }
        assert!(!o.send("y".into()));
        assert!(o.has_overflowed());
    }

    #[test]
    fn nothing_is_taken_after_a_close() {
        let o = Outbox::new();
        o.send("a".into());
        o.close(1000, "bye");
        assert!(!o.send("b".into()));
        assert_eq!(text(o.pop()).as_deref(), Some("a"));
        assert_eq!(text(o.pop()).as_deref(), Some("close bye"));
        assert_eq!(o.pop(), None);
    }
}
