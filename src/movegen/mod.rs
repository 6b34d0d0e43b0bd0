//! Move generation: three entry points tied by one invariant, as dctl does it:
//! `has_moves(p) == (count(p) > 0)` and `count(p) == generate(p).len()`.
//!
//! Captures come first and are compulsory (G2): when the side to move can capture, only
//! captures are generated. Everything is generic over the rules and monomorphised per
//! side to move.

mod capture;
mod quiet;

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Color, Square};
use capture::{Counter, Distinct, EveryPath, Recorded};

/// Runs `$f::<R, BLACK>(args)` with `BLACK` fixed from the side to move.
macro_rules! by_side {
    ($pos:expr, $f:ident :: < $R:ty $(, $S:ty)? > ($($arg:expr),*)) => {
        match $pos.side() {
            Color::White => $f::<$R, $($S,)? false>($($arg),*),
            Color::Black => $f::<$R, $($S,)? true>($($arg),*),
        }
    };
}

/// Appends the legal moves of `pos` to `list`, each distinct move (G1) once.
#[inline]
pub fn generate<R: Rules>(pos: &Position<R>, list: &mut MoveList) {
    by_side!(pos, generate_side::<R>(pos, list))
}

#[inline(always)]
fn generate_side<R: Rules, const BLACK: bool>(pos: &Position<R>, list: &mut MoveList) {
    if capture::has_capture::<R, BLACK>(pos) {
        capture::generate::<R, _, BLACK>(pos, &mut Distinct(list));
    } else {
        quiet::generate::<R, BLACK>(pos, list);
    }
}

/// Appends the legal moves of `pos` with one entry per capture *path*: a move reached by
/// two paths appears twice. Quiet moves are as in [`generate`].
pub fn generate_paths<R: Rules>(pos: &Position<R>, list: &mut MoveList) {
    by_side!(pos, generate_paths_side::<R>(pos, list))
}

#[inline(always)]
fn generate_paths_side<R: Rules, const BLACK: bool>(pos: &Position<R>, list: &mut MoveList) {
    if capture::has_capture::<R, BLACK>(pos) {
        capture::generate::<R, _, BLACK>(pos, &mut EveryPath(list));
    } else {
        quiet::generate::<R, BLACK>(pos, list);
    }
}

/// The number of legal moves of `pos` (distinct moves, G1). Without a capture on the
/// board this is a sum of popcounts; no list is built.
#[inline]
pub fn count<R: Rules>(pos: &Position<R>) -> usize {
    by_side!(pos, count_side::<R>(pos))
}

#[inline(always)]
fn count_side<R: Rules, const BLACK: bool>(pos: &Position<R>) -> usize {
    if capture::has_capture::<R, BLACK>(pos) {
        let mut counter = Counter::default();
        capture::generate::<R, _, BLACK>(pos, &mut counter);
        if !counter.may_repeat {
            return counter.n;
        }
        let mut list = MoveList::new();
        capture::generate::<R, _, BLACK>(pos, &mut Distinct(&mut list));
        list.len()
    } else {
        quiet::count::<R, BLACK>(pos)
    }
}

/// The number of legal move paths of `pos`: as [`count`], but a capture reached by
/// several paths counts once per path.
#[inline]
pub fn count_paths<R: Rules>(pos: &Position<R>) -> usize {
    by_side!(pos, count_paths_side::<R>(pos))
}

#[inline(always)]
fn count_paths_side<R: Rules, const BLACK: bool>(pos: &Position<R>) -> usize {
    if capture::has_capture::<R, BLACK>(pos) {
        let mut counter = Counter::default();
        capture::generate::<R, _, BLACK>(pos, &mut counter);
        counter.n
    } else {
        quiet::count::<R, BLACK>(pos)
    }
}

/// True when the side to move has a legal move (G8: otherwise it has lost).
#[inline]
pub fn has_moves<R: Rules>(pos: &Position<R>) -> bool {
    by_side!(pos, has_moves_side::<R>(pos))
}

#[inline(always)]
fn has_moves_side<R: Rules, const BLACK: bool>(pos: &Position<R>) -> bool {
    capture::has_capture::<R, BLACK>(pos) || quiet::any::<R, BLACK>(pos)
}

/// True when the side to move can capture (and so must, G2).
#[inline]
pub fn has_capture<R: Rules>(pos: &Position<R>) -> bool {
    by_side!(pos, has_capture_side::<R>(pos))
}

/// True when `side` could capture if it were its turn: for the side not to move, a
/// threat.
#[inline]
pub fn has_capture_for<R: Rules>(pos: &Position<R>, side: Color) -> bool {
    match side {
        Color::White => capture::has_capture::<R, false>(pos),
        Color::Black => capture::has_capture::<R, true>(pos),
    }
}

#[inline(always)]
fn has_capture_side<R: Rules, const BLACK: bool>(pos: &Position<R>) -> bool {
    capture::has_capture::<R, BLACK>(pos)
}

/// Every legal capture path of `pos` as (move, squares): the squares are the origin and
/// every landing square, in the order the generator finds them. Empty when no capture
/// is possible. Used for notation, not on hot paths.
pub fn capture_paths<R: Rules>(pos: &Position<R>) -> Vec<(Move, Vec<Square>)> {
    let mut rec = Recorded::default();
    match pos.side() {
        Color::White => capture::generate::<R, _, false>(pos, &mut rec),
        Color::Black => capture::generate::<R, _, true>(pos, &mut rec),
    }
    rec.paths
}

/// The legal moves of `pos` as a new list.
pub fn legal_moves<R: Rules>(pos: &Position<R>) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, &mut list);
    list
}
