//! The search: iterative deepening with aspiration windows, principal-variation search,
//! a quiescence search that resolves every pending capture, move ordering (table move,
//! killers, history) and late-move reductions.
//!
//! The search never prints: each completed iteration is reported as an [`Info`] to a
//! callback, and the protocol or CLI turns it into text.

mod eval_cache;
mod ordering;
pub mod settings;
mod worker;

pub use worker::Worker;

use crate::moves::Move;
use crate::types::Score;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// The deepest ply the search reaches (iterative depth plus extensions and captures).
pub const MAX_PLY: usize = 128;

/// What the search reports after each completed iteration (one per line of play with
/// multi-PV).
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// The nominal depth of the iteration.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score in hundredths of a man from the side to move's view.
    pub score: Score,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation, from the root.
    pub pv: Vec<Move>,
    /// 1 for the best line, 2 for the second ... (multi-PV).
    pub multipv: usize,
    /// Permille of the transposition table used by this search.
    pub hashfull: u32,
    /// The endgame databases' value of the root position, when they hold it.
    pub egdb: Option<crate::egdb::Value>,
    /// Positions of the tree whose value the endgame databases gave, all threads.
    pub egdb_hits: u64,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }

    /// Signed plies to a forced result: positive when the side to move wins, negative
    /// when it loses, `None` when the score is not a forced result.
    pub fn win_in(&self) -> Option<i32> {
        crate::engine::search::win_in(self.score)
    }
}

/// The score of a position the endgame databases call won with no piece left and 0
/// plies to capture: above every evaluation, below every forced win the search finds
/// itself.
pub const EGDB_WIN: Score = crate::types::MATE_BOUND - 1_000;

/// What one piece on the board costs a database win: more than any distance to capture,
/// so that every capture that keeps the win scores above every quiet move.
pub const EGDB_PIECE: Score = 512;

/// The lowest score of a database win (8 pieces, the longest distance): every score
/// from here to [`EGDB_WIN`] is a database win, and the negatives are losses.
pub const EGDB_FLOOR: Score = EGDB_WIN - 9 * EGDB_PIECE;

/// The search score of an endgame-database value in a position of `pieces` pieces: a
/// win scores `EGDB_WIN - EGDB_PIECE * pieces - d` with `d` its plies to capture, a loss
/// the negative, a draw 0.
///
/// Fewer pieces first, then the quicker capture: every ply of the databases' best play
/// raises the winner's score (a quiet move shortens `d`, a capture takes a piece off),
/// so scores compare across captures and a won ending always makes progress. The score
/// does not depend on the ply, so the table keeps it as it is.
pub fn egdb_score(v: crate::egdb::Value, pieces: u32) -> Score {
    use crate::egdb::Value;
    let base = EGDB_WIN - EGDB_PIECE * pieces.min(8) as Score;
    match v {
        Value::Win(d) => base - (d as Score).min(EGDB_PIECE - 1),
        Value::Draw => 0,
        Value::Loss(d) => -base + (d as Score).min(EGDB_PIECE - 1),
    }
}

/// A database score read back: `Some((won, pieces, d))` for a score in the database
/// range (see [`egdb_score`]), `None` for any other score.
pub fn egdb_parts(score: Score) -> Option<(bool, u32, u32)> {
    let won = score > 0;
    let s = score.abs();
    if !(EGDB_FLOOR..=EGDB_WIN).contains(&s) {
        return None;
    }
    let rest = EGDB_WIN - s;
    Some((won, (rest / EGDB_PIECE) as u32, (rest % EGDB_PIECE) as u32))
}

/// Plies to a forced result for a score (see [`Info::win_in`]).
pub fn win_in(score: Score) -> Option<i32> {
    use crate::types::{MATE, MATE_BOUND};
    if score > MATE_BOUND {
        Some(MATE - score)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no legal move (G8).
    pub best: Option<Move>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    /// The last completed iteration of each line (best line first).
    pub lines: Vec<Info>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time used.
    pub time: Duration,
}

/// State shared by the threads of one search.
pub struct Shared {
    /// Set to stop every thread.
    pub stop: AtomicBool,
    /// Nodes searched so far by all threads (flushed in batches).
    pub nodes: AtomicU64,
    /// Endgame-database hits so far by all threads (flushed with the nodes).
    pub egdb_hits: AtomicU64,
}

impl Shared {
    /// Fresh shared state.
    pub fn new() -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            egdb_hits: AtomicU64::new(0),
        }
    }

    /// True once the search has been told to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl Default for Shared {
    fn default() -> Self {
        Self::new()
    }
}
