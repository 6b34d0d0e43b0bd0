//! Quiet moves, by bitboard shifts: men's steps (D2, C2, S2, E2) and Dameo's linear
//! moves (D2), kings' steps (E4) and flying moves (D3, C3, S4).

use crate::bitboard::{flip_dirs, slide, Bitboard, Dir};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Color, Square};

/// A man's step directions for the side `BLACK`.
#[inline(always)]
const fn step_dirs<R: Rules, const BLACK: bool>() -> u8 {
    if BLACK {
        const { flip_dirs(R::MAN_STEPS) }
    } else {
        R::MAN_STEPS
    }
}

#[inline(always)]
fn square_plus(sq: Square, d: Dir, steps: i32) -> Square {
    Square::new((sq.index() as i32 + d.delta() * steps) as u8)
}

/// Calls `f(k, movers)` for k = 1, 2, ...: `movers` are the men whose run of `k - 1` own
/// men ahead in direction `d` ends at an empty square, `k` steps away (D2). Without
/// linear moves only k = 1 is visited.
#[inline(always)]
fn man_runs<R: Rules>(men: Bitboard, empty: Bitboard, d: Dir, mut f: impl FnMut(i32, Bitboard)) {
    let back = d.opposite();
    let mut movers = empty.shift(back) & men;
    let mut k = 1;
    while movers.any() {
        f(k, movers);
        if !R::MAN_LINES {
            break;
        }
        movers = movers.shift(back) & men;
        k += 1;
    }
}

/// Appends every quiet move of the side to move.
#[inline(always)]
pub(crate) fn generate<R: Rules, const BLACK: bool>(pos: &Position<R>, list: &mut MoveList) {
    let us = if BLACK { Color::Black } else { Color::White };
    let empty = pos.empty();
    let men = pos.men(us);
    crate::each_dir!(step_dirs::<R, BLACK>(), |d| {
        man_runs::<R>(men, empty, d, |k, movers| {
            for from in movers {
                list.push(Move::quiet(from, square_plus(from, d, k)));
            }
        });
    });
    let kings = pos.kings(us);
    if kings.is_empty() {
        return;
    }
    let occupied = pos.occupied();
    crate::each_dir!(R::KING_STEPS, |d| {
        if R::KING_FLIES {
            for from in kings {
                for to in slide(from, d, occupied).0 {
                    list.push(Move::quiet(from, to));
                }
            }
        } else {
            for to in kings.shift(d) & empty {
                list.push(Move::quiet(square_plus(to, d, -1), to));
            }
        }
    });
}

/// The number of quiet moves of the side to move, by popcounts.
#[inline(always)]
pub(crate) fn count<R: Rules, const BLACK: bool>(pos: &Position<R>) -> usize {
    let us = if BLACK { Color::Black } else { Color::White };
    let empty = pos.empty();
    let men = pos.men(us);
    let mut n = 0;
    crate::each_dir!(step_dirs::<R, BLACK>(), |d| {
        man_runs::<R>(men, empty, d, |_, movers| n += movers.count());
    });
    let kings = pos.kings(us);
    if kings.any() {
        crate::each_dir!(R::KING_STEPS, |d| {
            if R::KING_FLIES {
                // Rays of kings in one direction never overlap: a king behind another
                // stops at it.
                n += kings.fill(empty, d).count() - kings.count();
            } else {
                n += (kings.shift(d) & empty).count();
            }
        });
    }
    n as usize
}

/// True when the side to move has a quiet move.
#[inline(always)]
pub(crate) fn any<R: Rules, const BLACK: bool>(pos: &Position<R>) -> bool {
    let us = if BLACK { Color::Black } else { Color::White };
    let empty = pos.empty();
    let men = pos.men(us);
    let kings = pos.kings(us);
    let mut targets = Bitboard::EMPTY;
    crate::each_dir!(step_dirs::<R, BLACK>(), |d| { targets |= men.shift(d) });
    crate::each_dir!(R::KING_STEPS, |d| { targets |= kings.shift(d) });
    (targets & empty).any()
}
