//! Lazy SMP: N threads search the same root, sharing the transposition table and a stop
//! flag. The main thread (id 0) reports and its last completed iteration is played;
//! helpers fill the table. Node counts are summed over all threads.

use crate::eval::Weights;
use crate::movegen;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::{Info, SearchResult, Shared, Worker};
use crate::time::{Limits, TimeManager};
use crate::tt::TranspositionTable;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Stack size of a search thread (move lists live on the stack, one per ply).
const STACK: usize = 64 * 1024 * 1024;

/// Searches the last position of `history` with `threads` threads until `limits` or
/// `shared.stop`. `report` receives every completed iteration of the main thread.
#[allow(clippy::too_many_arguments)]
pub fn search<R: Rules>(
    history: &[Position<R>],
    limits: &Limits,
    multipv: usize,
    threads: usize,
    tt: &TranspositionTable,
    weights: &Weights,
    shared: &Shared,
    report: &(dyn Fn(&Info) + Sync),
) -> SearchResult {
    let start = Instant::now();
    let time = TimeManager::new(limits, start);
    tt.new_search();
    shared.nodes.store(0, Ordering::Relaxed);
    let threads = threads.max(1);
    let lines = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(threads);
        for id in 0..threads {
            let builder = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(STACK);
            let handle = builder
                .spawn_scoped(scope, move || {
                    let mut w = Worker::new(id, shared, tt, weights, limits, time, history);
                    let lines = w.run(multipv, report);
                    if id == 0 {
                        // The main thread is done: stop the helpers.
                        shared.stop.store(true, Ordering::Relaxed);
                    }
                    lines
                })
                .expect("spawn a search thread");
            handles.push(handle);
        }
        let mut main = Vec::new();
        for (id, h) in handles.into_iter().enumerate() {
            let lines = h.join().unwrap_or_default();
            if id == 0 {
                main = lines;
            }
        }
        main
    });
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
