//! Perft: counts the leaves of the legal-move tree to a fixed depth, with bulk counting
//! at the last ply, a per-root-move divide and a parallel split on a `rayon` pool.

use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Square;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What perft counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Distinct moves (G1): the figures of `docs/rules.md` table P.
    Moves,
    /// Capture paths: a move reached by several paths counts once per path (the
    /// published checkers figures).
    Paths,
}

/// The number of leaves `depth` plies below `pos`, counting distinct moves.
pub fn perft<R: Rules>(pos: &Position<R>, depth: u32) -> u64 {
    perft_with::<R, false>(pos, depth)
}

/// The number of leaves `depth` plies below `pos`, counting capture paths.
pub fn perft_paths<R: Rules>(pos: &Position<R>, depth: u32) -> u64 {
    perft_with::<R, true>(pos, depth)
}

fn perft_with<R: Rules, const PATHS: bool>(pos: &Position<R>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            if PATHS {
                movegen::count_paths(pos) as u64
            } else {
                movegen::count(pos) as u64
            }
        }
        _ => {
            let mut list = MoveList::new();
            if PATHS {
                movegen::generate_paths(pos, &mut list);
            } else {
                movegen::generate(pos, &mut list);
            }
            if depth == 2 {
                list.iter()
                    .map(|m| {
                        let p = pos.play(m);
                        if PATHS {
                            movegen::count_paths(&p) as u64
                        } else {
                            movegen::count(&p) as u64
                        }
                    })
                    .sum()
            } else {
                list.iter()
                    .map(|m| perft_with::<R, PATHS>(&pos.play(m), depth - 1))
                    .sum()
            }
        }
    }
}

/// One root move of a divide: the move, the path it was written with, and its leaves.
#[derive(Clone, Debug)]
pub struct RootCount {
    /// The root move.
    pub mv: Move,
    /// Its squares (origin and landings), for notation.
    pub path: Vec<Square>,
    /// Leaves below it.
    pub nodes: u64,
}

/// The root entries perft expands: each distinct move with its canonical path, or with
/// [`Count::Paths`] each capture path.
fn root_entries<R: Rules>(pos: &Position<R>, count: Count) -> Vec<(Move, Vec<Square>)> {
    let list = movegen::legal_moves(pos);
    if !list.first().is_some_and(|m| m.is_capture()) {
        return list.iter().map(|m| (*m, vec![m.from, m.to])).collect();
    }
    let mut out: Vec<(Move, Vec<Square>)> = Vec::new();
    for (mv, path) in movegen::capture_paths(pos) {
        if count == Count::Paths || !out.iter().any(|(m, _)| *m == mv) {
            out.push((mv, path));
        }
    }
    out
}

/// Perft divided by root move, run on `threads` threads (1 = the calling thread only).
/// The work is split into tasks of one or two plies so that both threads stay busy;
/// the counts never depend on the thread count. `progress` is called with
/// (tasks done, tasks) as tasks finish.
pub fn divide<R: Rules>(
    pos: &Position<R>,
    depth: u32,
    count: Count,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<RootCount> {
    let roots = root_entries(pos, count);
    if depth == 0 {
        return Vec::new();
    }
    let leaf = |p: &Position<R>, d: u32| match count {
        Count::Moves => perft(p, d),
        Count::Paths => perft_paths(p, d),
    };
    // Tasks: (root index, position, remaining depth).
    let mut tasks: Vec<(usize, Position<R>, u32)> = Vec::new();
    for (i, (mv, _)) in roots.iter().enumerate() {
        let child = pos.play(mv);
        if threads > 1 && depth >= 3 {
            let mut list = MoveList::new();
            match count {
                Count::Moves => movegen::generate(&child, &mut list),
                Count::Paths => movegen::generate_paths(&child, &mut list),
            }
            tasks.extend(list.iter().map(|m| (i, child.play(m), depth - 2)));
        } else {
            tasks.push((i, child, depth - 1));
        }
    }
    let done = AtomicUsize::new(0);
    let total = tasks.len();
    let run = |t: &(usize, Position<R>, u32)| {
        let n = leaf(&t.1, t.2);
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        (t.0, n)
    };
    let results: Vec<(usize, u64)> = if threads > 1 {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| tasks.par_iter().map(run).collect()),
            Err(_) => tasks.iter().map(run).collect(),
        }
    } else {
        tasks.iter().map(run).collect()
    };
    let mut nodes = vec![0u64; roots.len()];
    for (i, n) in results {
        nodes[i] += n;
    }
    roots
        .into_iter()
        .zip(nodes)
        .map(|((mv, path), nodes)| RootCount { mv, path, nodes })
        .collect()
}
