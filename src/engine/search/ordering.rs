//! Move ordering: the table move first, then captures (more pieces first), promotions,
//! the two killer moves of the ply, and the rest by history score.

use super::MAX_PLY;
use crate::engine::tt::MoveHint;
use crate::moves::{Move, MoveList};
use crate::types::Color;

/// Killer moves (two per ply) and the history table of one thread.
pub struct Ordering {
    killers: Box<[[Option<Move>; 2]; MAX_PLY]>,
    history: Box<[[[i32; 64]; 64]; 2]>,
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering {
            killers: Box::new([[None; 2]; MAX_PLY]),
            history: Box::new([[[0; 64]; 64]; 2]),
        }
    }
}

impl Ordering {
    /// True when `mv` is a killer at `ply`.
    pub fn is_killer(&self, ply: usize, mv: &Move) -> bool {
        self.killers[ply].iter().any(|k| k.as_ref() == Some(mv))
    }

    /// Records a quiet move that caused a cut-off at `depth`.
    pub fn cutoff(&mut self, side: Color, ply: usize, depth: i32, mv: &Move) {
        if mv.is_capture() {
            return;
        }
        let k = &mut self.killers[ply];
        if k[0].as_ref() != Some(mv) {
            k[1] = k[0];
            k[0] = Some(*mv);
        }
        let h = &mut self.history[side.index()][mv.from.index()][mv.to.index()];
        *h = (*h + depth * depth).min(1 << 24);
    }

    /// Ordering keys for the moves of `list`, higher first.
    pub fn scores(
        &self,
        list: &MoveList,
        side: Color,
        ply: usize,
        hint: Option<MoveHint>,
        out: &mut [i32],
    ) {
        let crown = side.promotion_rank();
        for (i, mv) in list.iter().enumerate() {
            out[i] = if hint.is_some_and(|h| h.matches(mv)) {
                1 << 30
            } else if mv.is_capture() {
                (1 << 28) + mv.captured.count() as i32
            } else if self.is_killer(ply, mv) {
                1 << 27
            } else {
                let promo = if mv.to.rank() == crown { 1 << 26 } else { 0 };
                promo + self.history[side.index()][mv.from.index()][mv.to.index()]
            };
        }
    }
}

/// Swaps the best remaining move (by `keys`) to position `i` and returns it.
#[inline]
pub fn pick(list: &mut MoveList, keys: &mut [i32], i: usize) -> Move {
    let n = list.len();
    let mut best = i;
    for j in i + 1..n {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    list.as_mut_slice().swap(i, best);
    keys.swap(i, best);
    list[i]
}
