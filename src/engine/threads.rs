//! Lazy SMP: N threads search the same root, sharing the transposition table and a stop
//! flag. The main thread (id 0) reports and its last completed iteration is played;
//! helpers fill the table. Node counts are summed over all threads.

use crate::engine::search::{settings, Info, SearchResult, Shared, Worker};
use crate::engine::time::{Limits, TimeManager};
use crate::engine::tt::TranspositionTable;
use crate::eval::Evaluation;
use crate::movegen;
use crate::position::Position;
use crate::rules::Rules;
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::Instant;

/// Stack size of a search thread (move lists live on the stack, one per ply).
pub const STACK: usize = 64 * 1024 * 1024;

/// A pool of `threads` search threads with large stacks, kept alive between searches
/// (a fresh thread would fault its stack in again on every move).
pub fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(STACK)
        .thread_name(|i| format!("search-{i}"))
        .build()
        .expect("create the search threads")
}

/// Searches the last position of `history` with the threads of `pool` until `limits`
/// or `shared.stop`. `report` receives every completed iteration of the main thread.
#[allow(clippy::too_many_arguments)]
pub fn search<R: Rules>(
    history: &[Position<R>],
    limits: &Limits,
    multipv: usize,
    pool: &rayon::ThreadPool,
    tt: &TranspositionTable,
    evaluation: &Evaluation,
    shared: &Shared,
    egdb: Option<&crate::egdb::Tables<R>>,
    report: &(dyn Fn(&Info) + Sync),
) -> SearchResult {
    let start = Instant::now();
    let time = TimeManager::with_clock_moves(limits, start, settings::clock_moves_of::<R>());
    tt.new_search();
    shared.nodes.store(0, Ordering::Relaxed);
    shared.egdb_hits.store(0, Ordering::Relaxed);
    let threads = pool.current_num_threads().max(1);
    let main: Mutex<Vec<Info>> = Mutex::new(Vec::new());
    pool.scope(|scope| {
        for id in 0..threads {
            let main = &main;
            scope.spawn(move |_| {
                let mut w = Worker::new(id, shared, tt, evaluation, limits, time, history, egdb);
                let lines = w.run(multipv, report);
                if id == 0 {
                    // The main thread is done: stop the helpers.
                    shared.stop.store(true, Ordering::Relaxed);
                    *main.lock().expect("main thread result") = lines;
                }
            });
        }
    });
    let lines = main.into_inner().expect("main thread result");
    let root = history.last().expect("a position");
    let mut best = lines.first().and_then(|l| l.pv.first().copied());
    if best.is_none() {
        // Never leave without a move when there is one.
        best = movegen::legal_moves(root).first().copied();
    }
    let ponder = lines.first().and_then(|l| l.pv.get(1).copied());
    SearchResult {
        best,
        ponder,
        nodes: shared.nodes.load(Ordering::Relaxed),
        time: start.elapsed(),
        lines,
    }
}
