//! [`SearchSlots`]: the fixed pool of searches that every page of `dama serve` shares.
//! Each slot owns a transposition table and its search threads, allocated once when the
//! server starts; pages hold no engine of their own, only their game. A page's search
//! ([`Job`]) waits in a fair queue for a free slot:
//!
//! - the engine's moves in games go first, in the order they were asked for;
//! - analyses come after them, in turn. When any search waits, an analysis that has had
//!   its slice is stopped and goes to the back of the queue, and an engine move that
//!   waits stops the analysis that has run longest at once. A slice is [`SLICE`], made
//!   shorter when there are many analyses so that each has a turn every [`ROUND`] (but
//!   never shorter than [`MIN_SLICE`]). So every page's analysis moves on, however many
//!   pages there are.
//!
//! Memory is the slots' tables plus a small amount per page; threads are one per slot,
//! its search threads, and one that hands out the slices.

use crate::engine::search::Shared;
use crate::engine::tt::TranspositionTable;
use crate::moves::Move;
use crate::variant::Variant;
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long an analysis runs before it gives its slot to a waiting search, at most.
pub const SLICE: Duration = Duration::from_secs(1);
/// The shortest slice.
pub const MIN_SLICE: Duration = Duration::from_millis(100);
/// With many analyses, slices are cut so that each has a turn within this long.
pub const ROUND: Duration = Duration::from_secs(4);

/// The slice of each analysis when `analyses` share `slots` slots.
pub fn slice(slots: usize, analyses: usize) -> Duration {
    if analyses <= slots {
        return SLICE;
    }
    (ROUND * slots.max(1) as u32 / analyses as u32).clamp(MIN_SLICE, SLICE)
}

/// What one slot has: its table and its search threads.
pub struct Slot {
    /// The slot's transposition table (cleared when the slot moves to another variant:
    /// the variants share their hash keys).
    pub tt: TranspositionTable,
    /// The slot's search threads.
    pub threads: rayon::ThreadPool,
}

/// A search a page asks for: a copy of what it needs (the game, the evaluation, the
/// limits), run on whichever slot is free.
pub trait Job: Send {
    /// The variant searched.
    fn variant(&self) -> Variant;
    /// Runs the search on `slot` until its limits or `stop`; returns the best move. An
    /// analysis may be run again after a stop that was not the page's (its slice ended).
    fn run(&mut self, slot: &Slot, stop: &Shared, turn: &Turn<'_>) -> Option<Move>;
    /// A job of many short searches gives way between them instead of being stopped
    /// inside one: at the end of its slice it is only told ([`Turn::rearm`] says so),
    /// and its page's stop still stops it at once.
    fn yields_between_searches(&self) -> bool {
        false
    }
}

/// A running job's view of its turn on the slot.
pub struct Turn<'a> {
    inner: &'a Inner,
    index: usize,
}

impl Turn<'_> {
    /// Before the next search of a job that [yields between
    /// searches](Job::yields_between_searches): false when the turn is over (its slice
    /// ended, or its page stopped it); else clears `stop` for the next search. Both
    /// under the queue's lock, so no stop is lost.
    pub fn rearm(&self, stop: &Shared) -> bool {
        let q = self.inner.lock();
        match &q.running[self.index] {
            Some(r) if !r.preempted && !r.cancelled => {
                stop.stop.store(false, Ordering::SeqCst);
                true
            }
            _ => false,
        }
    }

    /// Whether the job's page has stopped it.
    pub fn cancelled(&self) -> bool {
        let q = self.inner.lock();
        q.running[self.index].as_ref().is_none_or(|r| r.cancelled)
    }
}

/// Engine move or analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The engine's move in a game: goes first, never sliced.
    Move,
    /// Analysis: runs until the page stops it, in slices when searches wait.
    Analysis,
}

/// A search that has ended on its own (not stopped by its page): its ticket and best
/// move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finished {
    /// The ticket [`SearchSlots::submit`] returned.
    pub ticket: u64,
    /// The move found.
    pub best: Option<Move>,
}

/// Where a page hears that its search has ended.
pub type Done = tokio::sync::mpsc::UnboundedSender<Finished>;

struct Ticket {
    id: u64,
    page: u64,
    kind: Kind,
    job: Box<dyn Job>,
    stop: Arc<Shared>,
    done: Done,
}

struct Running {
    id: u64,
    page: u64,
    kind: Kind,
    since: Instant,
    stop: Arc<Shared>,
    /// Its page stopped it: it is not run again, and its end is not reported.
    cancelled: bool,
    /// Its slice is over: it goes back to the queue.
    preempted: bool,
    /// It gives way between its searches (not stopped at the end of its slice).
    yields: bool,
}

#[derive(Default)]
struct Queue {
    moves: VecDeque<Ticket>,
    analyses: VecDeque<Ticket>,
    running: Vec<Option<Running>>,
    next_id: u64,
    shutdown: bool,
    /// Slices taken from analyses so far.
    preemptions: u64,
}

struct Inner {
    queue: Mutex<Queue>,
    wake: Condvar,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What the slots are doing, for the load report and the tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Load {
    /// Slots in all.
    pub slots: usize,
    /// Slots searching now.
    pub busy: usize,
    /// Engine moves waiting.
    pub moves_waiting: usize,
    /// Analyses waiting.
    pub analyses_waiting: usize,
    /// Analyses stopped at the end of their slice so far.
    pub preemptions: u64,
}

/// The pool of search slots (cheap to clone: every clone is the same pool).
#[derive(Clone)]
pub struct SearchSlots {
    inner: Arc<Inner>,
    handles: Arc<Mutex<Vec<std::thread::JoinHandle<()>>>>,
}

impl SearchSlots {
    /// `slots` slots of `hash_mib` MiB and `threads` search threads each, allocated now.
    pub fn new(slots: usize, hash_mib: usize, threads: usize) -> Result<SearchSlots, String> {
        let slots = slots.max(1);
        let mut made = Vec::with_capacity(slots);
        for _ in 0..slots {
            made.push(Slot {
                tt: TranspositionTable::try_new(hash_mib)?,
                threads: crate::engine::threads::pool(threads),
            });
        }
        let inner = Arc::new(Inner {
            queue: Mutex::new(Queue {
                running: (0..slots).map(|_| None).collect(),
                ..Default::default()
            }),
            wake: Condvar::new(),
        });
        let mut handles = Vec::new();
        for (i, slot) in made.into_iter().enumerate() {
            let inner = Arc::clone(&inner);
            let h = std::thread::Builder::new()
                .name(format!("dama-slot-{i}"))
                .spawn(move || slot_loop(&inner, i, slot))
                .map_err(|e| format!("cannot start a search slot: {e}"))?;
            handles.push(h);
        }
        let timer = Arc::clone(&inner);
        handles.push(
            std::thread::Builder::new()
                .name("dama-slices".into())
                .spawn(move || slice_loop(&timer))
                .map_err(|e| format!("cannot start the slice timer: {e}"))?,
        );
        Ok(SearchSlots {
            inner,
            handles: Arc::new(Mutex::new(handles)),
        })
    }

    /// Queues `job` for `page`; `done` hears when it ends on its own. Returns its ticket
    /// and its place in the line: 0 when a slot is free for it, else how many searches
    /// must start before it does, itself included (1: it is next).
    pub fn submit(&self, page: u64, kind: Kind, job: Box<dyn Job>, done: Done) -> (u64, usize) {
        let mut q = self.inner.lock();
        q.next_id += 1;
        let id = q.next_id;
        let ticket = Ticket {
            id,
            page,
            kind,
            job,
            stop: Arc::new(Shared::new()),
            done,
        };
        // A search stopped by its page is as good as ended: its slot is free.
        let free = q
            .running
            .iter()
            .filter(|r| r.as_ref().is_none_or(|r| r.cancelled))
            .count();
        let before = match kind {
            Kind::Move => {
                q.moves.push_back(ticket);
                q.moves.len() - 1
            }
            Kind::Analysis => {
                q.analyses.push_back(ticket);
                q.moves.len() + q.analyses.len() - 1
            }
        };
        if kind == Kind::Move {
            preempt(&mut q, Instant::now());
        }
        drop(q);
        self.inner.wake.notify_all();
        (id, (before + 1).saturating_sub(free))
    }

    /// Stops `page`'s search, waiting or running: it is dropped and its end is not
    /// reported.
    pub fn cancel(&self, page: u64) {
        let mut q = self.inner.lock();
        q.moves.retain(|t| t.page != page);
        q.analyses.retain(|t| t.page != page);
        for r in q.running.iter_mut().flatten() {
            if r.page == page {
                r.cancelled = true;
                r.stop.stop.store(true, Ordering::SeqCst);
            }
        }
    }

    /// What the slots are doing now.
    pub fn load(&self) -> Load {
        let q = self.inner.lock();
        Load {
            slots: q.running.len(),
            busy: q.running.iter().filter(|r| r.is_some()).count(),
            moves_waiting: q.moves.len(),
            analyses_waiting: q.analyses.len(),
            preemptions: q.preemptions,
        }
    }

    /// Stops every search and ends the slots' threads (waits for them).
    pub fn shutdown(&self) {
        {
            let mut q = self.inner.lock();
            q.shutdown = true;
            q.moves.clear();
            q.analyses.clear();
            for r in q.running.iter_mut().flatten() {
                r.cancelled = true;
                r.stop.stop.store(true, Ordering::SeqCst);
            }
        }
        self.inner.wake.notify_all();
        let handles = std::mem::take(&mut *self.handles.lock().unwrap_or_else(|e| e.into_inner()));
        for h in handles {
            let _ = h.join();
        }
    }
}

/// Stops the analyses that must give way: one per engine move waiting beyond the free
/// slots (the longest running first), and, when anything waits, each whose slice is
/// over. Returns when the next slice ends, if an analysis runs.
fn preempt(q: &mut Queue, now: Instant) -> Option<Instant> {
    let idle = q.running.iter().filter(|r| r.is_none()).count();
    let waiting = q.moves.len() + q.analyses.len();
    let mut moves_short = q.moves.len().saturating_sub(idle);
    let mut taken = 0;
    if moves_short > 0 {
        // The analyses that have run longest give way to the engine's moves.
        let mut order: Vec<(Instant, usize)> = q
            .running
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let r = r.as_ref()?;
                (r.kind == Kind::Analysis && !r.preempted && !r.cancelled).then_some((r.since, i))
            })
            .collect();
        order.sort();
        for (_, i) in order {
            if moves_short == 0 {
                break;
            }
            let r = q.running[i].as_mut().expect("running");
            r.preempted = true;
            if !r.yields {
                r.stop.stop.store(true, Ordering::SeqCst);
            }
            moves_short -= 1;
            taken += 1;
        }
    }
    let live = |r: &Running| r.kind == Kind::Analysis && !r.preempted && !r.cancelled;
    let analyses = q.analyses.len() + q.running.iter().flatten().filter(|r| live(r)).count();
    let turn = slice(q.running.len(), analyses);
    let mut next = None;
    for r in q.running.iter_mut().flatten() {
        if !live(r) {
            continue;
        }
        let end = r.since + turn;
        if waiting > idle && end <= now {
            r.preempted = true;
            if !r.yields {
                r.stop.stop.store(true, Ordering::SeqCst);
            }
            taken += 1;
        } else {
            next = Some(next.map_or(end, |n: Instant| n.min(end)));
        }
    }
    q.preemptions += taken;
    next
}

fn slice_loop(inner: &Inner) {
    let mut q = inner.lock();
    loop {
        if q.shutdown {
            return;
        }
        let now = Instant::now();
        let next = preempt(&mut q, now);
        // Wake at the next slice's end (or when the queue changes).
        let wait = next.map_or(Duration::from_secs(3600), |n| {
            n.saturating_duration_since(now) + Duration::from_millis(5)
        });
        q = inner
            .wake
            .wait_timeout(q, wait)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

fn slot_loop(inner: &Inner, index: usize, slot: Slot) {
    let mut variant: Option<Variant> = None;
    loop {
        let mut ticket = {
            let mut q = inner.lock();
            loop {
                if q.shutdown {
                    return;
                }
                let next = q.moves.pop_front().or_else(|| q.analyses.pop_front());
                if let Some(t) = next {
                    q.running[index] = Some(Running {
                        id: t.id,
                        page: t.page,
                        kind: t.kind,
                        since: Instant::now(),
                        stop: Arc::clone(&t.stop),
                        cancelled: false,
                        preempted: false,
                        yields: t.job.yields_between_searches(),
                    });
                    break t;
                }
                q = inner.wake.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        // The slice timer learns of the new running search.
        inner.wake.notify_all();
        let v = ticket.job.variant();
        if variant != Some(v) {
            slot.tt.clear();
            variant = Some(v);
        }
        let turn = Turn { inner, index };
        let best = ticket.job.run(&slot, &ticket.stop, &turn);
        let mut q = inner.lock();
        let r = q.running[index].take().expect("the slot's running search");
        debug_assert_eq!(r.id, ticket.id);
        if r.cancelled || q.shutdown {
            continue;
        }
        if r.preempted && ticket.kind == Kind::Analysis {
            ticket.stop.stop.store(false, Ordering::SeqCst);
            q.analyses.push_back(ticket);
            drop(q);
            inner.wake.notify_all();
            continue;
        }
        drop(q);
        inner.wake.notify_all();
        let _ = ticket.done.send(Finished {
            ticket: ticket.id,
            best,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// A search that runs until stopped (or `limit`), counting its runs.
    struct Sleeper {
        runs: Arc<AtomicUsize>,
        limit: Duration,
    }

    impl Job for Sleeper {
        fn variant(&self) -> Variant {
            Variant::English
        }
        fn run(&mut self, _slot: &Slot, stop: &Shared, _turn: &Turn<'_>) -> Option<Move> {
            self.runs.fetch_add(1, Ordering::SeqCst);
            let start = Instant::now();
            while !stop.stop.load(Ordering::SeqCst) && start.elapsed() < self.limit {
                std::thread::sleep(Duration::from_millis(2));
            }
            None
        }
    }

    fn sleeper(limit: Duration) -> (Box<dyn Job>, Arc<AtomicUsize>) {
        let runs = Arc::new(AtomicUsize::new(0));
        let job = Sleeper {
            runs: Arc::clone(&runs),
            limit,
        };
        (Box::new(job), runs)
    }

    fn wait_until(what: &str, mut f: impl FnMut() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !f() {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn slices_shorten_with_many_analyses() {
        assert_eq!(slice(2, 2), SLICE);
        assert_eq!(slice(1, 4), SLICE);
        assert_eq!(slice(2, 16), Duration::from_millis(500));
        assert_eq!(slice(2, 100), MIN_SLICE);
    }

    #[test]
    fn analyses_take_turns_when_there_are_more_than_slots() {
        let slots = SearchSlots::new(1, 1, 1).unwrap();
        let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
        let runs: Vec<_> = (0..3)
            .map(|page| {
                let (job, runs) = sleeper(Duration::from_secs(3600));
                slots.submit(page, Kind::Analysis, job, tx.clone());
                runs
            })
            .collect();
        // Each gets the slot, and the first gets it again after the others.
        wait_until("every analysis to run", || {
            runs.iter().all(|r| r.load(Ordering::SeqCst) >= 1)
        });
        wait_until("a second turn", || runs[0].load(Ordering::SeqCst) >= 2);
        assert!(slots.load().preemptions >= 3);
        slots.shutdown();
    }

    #[test]
    fn an_engine_move_goes_before_analysis_and_its_end_is_reported() {
        let slots = SearchSlots::new(1, 1, 1).unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let (analysis, a_runs) = sleeper(Duration::from_secs(3600));
        slots.submit(1, Kind::Analysis, analysis, tx.clone());
        wait_until("the analysis to run", || a_runs.load(Ordering::SeqCst) == 1);
        let (mv, m_runs) = sleeper(Duration::from_millis(50));
        let (ticket, _) = slots.submit(2, Kind::Move, mv, tx.clone());
        // The analysis gives way at once (not after its slice), and runs again after.
        wait_until(
            "the move's end",
            || matches!(rx.try_recv(), Ok(f) if f.ticket == ticket),
        );
        assert_eq!(m_runs.load(Ordering::SeqCst), 1);
        wait_until("the analysis again", || a_runs.load(Ordering::SeqCst) == 2);
        slots.shutdown();
    }

    #[test]
    fn a_cancelled_search_stops_and_is_not_reported() {
        let slots = SearchSlots::new(1, 1, 1).unwrap();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let (running, r_runs) = sleeper(Duration::from_secs(3600));
        slots.submit(1, Kind::Move, running, tx.clone());
        let (waiting, w_runs) = sleeper(Duration::from_secs(3600));
        let (_, place) = slots.submit(2, Kind::Analysis, waiting, tx.clone());
        assert_eq!(place, 1);
        wait_until("the first to run", || r_runs.load(Ordering::SeqCst) == 1);
        slots.cancel(2);
        slots.cancel(1);
        wait_until("the slot to be free", || slots.load().busy == 0);
        assert_eq!(w_runs.load(Ordering::SeqCst), 0);
        assert!(rx.try_recv().is_err());
        let l = slots.load();
        assert_eq!((l.moves_waiting, l.analyses_waiting), (0, 0));
        slots.shutdown();
    }
}
