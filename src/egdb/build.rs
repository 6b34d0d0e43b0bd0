//! Retrograde analysis of one slice: every position's [`Value`] with its distance to
//! capture, from the values of the slices its captures and crownings lead to.
//!
//! 1. **Init**: each position's legal moves are generated. A move that captures or
//!    crowns leaves the slice: its value is read from the smaller slice (a capture is
//!    the conversion, distance 1; a crowning adds one ply to its successor's distance).
//!    A position without moves is lost in 0; one with a winning capture is won in 1;
//!    one with a winning crowning is won in that many plies for now (a quicker win
//!    inside the slice may still be found); one whose moves all leave the slice into
//!    won positions is lost; one with a drawing exit can no longer lose. The others
//!    keep a count of their moves that stay in the slice.
//! 2. **Rounds** d = 0, 1, 2 ...: for each position whose value has distance d (final by
//!    then), its predecessors in the slice (quiet moves played backwards,
//!    [`predecessors`]) are visited. A lost position makes each predecessor won in
//!    d + 1 unless it is already won as quickly; a won position takes one from each
//!    predecessor's count, and a predecessor whose count reaches 0 (with no drawing
//!    exit) is lost, in d + 1 or in its longest losing exit.
//! 3. Positions never decided are draws.

use super::index::Indexer;
use super::material::Material;
use super::tables::Tables;
use super::value::{Entry, Value, MAX_DISTANCE};
use crate::bitboard::{flip_dirs, Bitboard, Dir};
use crate::movegen;
use crate::moves::MoveList;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Color;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering};

/// Positions handled per parallel task.
const CHUNK: u64 = 1 << 14;
/// Set in a count: the position has a drawing exit, so it cannot be lost.
const DRAW_EXIT: u8 = 0x80;

/// What a solved slice holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SliceStats {
    /// Indices that name a position (both sides to move).
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// The longest distance to capture.
    pub max_distance: u16,
}

impl SliceStats {
    /// The counts of a slice's values.
    pub fn of<R: Rules>(material: Material, values: &[Entry]) -> SliceStats {
        let ix = Indexer::<R>::new(material);
        let mut s = SliceStats::default();
        for (i, &b) in values.iter().enumerate() {
            if ix.position(i as u64).is_none() {
                continue;
            }
            s.positions += 1;
            let v = Value::decode(b);
            match v {
                Value::Win(_) => s.wins += 1,
                Value::Draw => s.draws += 1,
                Value::Loss(_) => s.losses += 1,
            }
            s.max_distance = s.max_distance.max(v.distance().unwrap_or(0));
        }
        s
    }
}

/// A man's step directions for `side`.
fn man_dirs<R: Rules>(side: Color) -> u8 {
    match side {
        Color::White => R::MAN_STEPS,
        Color::Black => flip_dirs(R::MAN_STEPS),
    }
}

/// One step from `sq` in direction `d` onto a playable square, if there is one.
fn step<R: Rules>(sq: Bitboard, d: Dir) -> Bitboard {
    sq.shift(d) & R::BOARD
}

/// Appends to `out` every position of the same slice from which a legal quiet move
/// leads to `q`: the side not to move in `q` moved a king (any king step, flying where
/// kings fly) or a man (a step, or a Dameo line move, D2) without being crowned, and had
/// no capture (G2).
pub fn predecessors<R: Rules>(q: &Position<R>, out: &mut Vec<Position<R>>) {
    let x = q.side().opponent();
    let empty = q.empty();
    let ours = q.pieces(x);
    let theirs = q.pieces(q.side());
    let mut push = |from: Bitboard, to: Bitboard, king: bool| {
        let mut pieces = [Bitboard::EMPTY; 2];
        pieces[x.index()] = ours ^ from ^ to;
        pieces[q.side().index()] = theirs;
        let mut kings = q.all_kings();
        if king {
            kings ^= from ^ to;
        }
        if let Ok(p) = Position::new(pieces, kings, x) {
            if !movegen::has_capture(&p) {
                out.push(p);
            }
        }
    };
    for t in q.kings(x) {
        let t = Bitboard::from_square(t);
        for d in Dir::ALL {
            if R::KING_STEPS & d.bit() == 0 {
                continue;
            }
            let back = d.opposite();
            let mut s = step::<R>(t, back) & empty;
            while s.any() {
                push(t, s, true);
                if !R::KING_FLIES {
                    break;
                }
                s = step::<R>(s, back) & empty;
            }
        }
    }
    let men = q.men(x);
    let dirs = man_dirs::<R>(x);
    for t in men {
        let t = Bitboard::from_square(t);
        for d in Dir::ALL {
            if dirs & d.bit() == 0 {
                continue;
            }
            let back = d.opposite();
            let mut s = step::<R>(t, back);
            if R::MAN_LINES {
                while (s & men).any() {
                    s = step::<R>(s, back);
                }
            }
            if (s & empty).any() {
                push(t, s, false);
            }
        }
    }
}

/// Solves the slice `material` with the slices its captures and crownings lead to in
/// `tables`.
/// `progress(done, total)` is called as work is done. Returns the values by index.
pub fn solve<R: Rules>(
    tables: &Tables<R>,
    material: Material,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Vec<Entry>, String> {
    let ix = Indexer::<R>::new(material);
    let n = ix.size();
    let values: Vec<AtomicU16> = (0..n).map(|_| AtomicU16::new(0)).collect();
    let counts: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
    let chunks = n.div_ceil(CHUNK);
    let done = AtomicU64::new(0);
    // Each round visits every index once more; the init pass counts as two (it
    // generates every move), so the total grows as rounds are found to be needed.
    let total = AtomicU64::new(3 * n);
    // The largest distance given so far: the rounds go on to it.
    let longest = AtomicU16::new(1);
    let too_far = || {
        format!(
            "slice {material}: a distance to capture above {MAX_DISTANCE} plies, which \
             this format cannot store"
        )
    };

    (0..chunks)
        .into_par_iter()
        .try_for_each(|c| -> Result<(), String> {
            let mut list = MoveList::new();
            for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
                let Some(pos) = ix.position(i) else { continue };
                list.clear();
                movegen::generate(&pos, &mut list);
                if list.is_empty() {
                    values[i as usize].store(Value::Loss(0).encode(), Ordering::Relaxed);
                    continue;
                }
                let (mut inside, mut draw) = (0u32, false);
                let (mut win, mut loss) = (u16::MAX, 0u16);
                for mv in list.iter() {
                    let succ = pos.play(mv);
                    if Material::of(&succ) == material {
                        inside += 1;
                        continue;
                    }
                    let v = tables.lookup(&succ)?.ok_or_else(|| {
                        format!(
                            "slice {} is needed by {material} but is not built",
                            Material::of(&succ).canonical()
                        )
                    })?;
                    match v.before_move(mv.is_capture()) {
                        Value::Win(d) => win = win.min(d),
                        Value::Draw => draw = true,
                        Value::Loss(d) => loss = loss.max(d),
                    }
                }
                if inside >= DRAW_EXIT as u32 {
                    return Err(format!("a position of {material} has {inside} quiet moves"));
                }
                let flag = if draw { DRAW_EXIT } else { 0 };
                counts[i as usize].store(inside as u8 | flag, Ordering::Relaxed);
                // A win by a capture (1) is final; one by a crowning may still be
                // bettered by a quicker win inside the slice.
                let set = if win != u16::MAX {
                    Some(Value::Win(win))
                } else if inside == 0 && !draw {
                    Some(Value::Loss(loss))
                } else {
                    None
                };
                if let Some(v) = set {
                    let d = v.distance().unwrap_or(0);
                    if d > MAX_DISTANCE - 1 {
                        return Err(too_far());
                    }
                    longest.fetch_max(d, Ordering::Relaxed);
                    values[i as usize].store(v.encode(), Ordering::Relaxed);
                }
            }
            let d = done.fetch_add(2 * CHUNK, Ordering::Relaxed) + 2 * CHUNK;
            progress(d.min(2 * n), total.load(Ordering::Relaxed));
            Ok(())
        })?;
    done.store(2 * n, Ordering::Relaxed);

    let mut d: u16 = 0;
    loop {
        let win = Value::Win(d).encode();
        let loss = Value::Loss(d).encode();
        let next_win = Value::Win(d + 1).encode();
        (0..chunks)
            .into_par_iter()
            .try_for_each(|c| -> Result<(), String> {
                let mut preds = Vec::new();
                for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
                    let b = values[i as usize].load(Ordering::Relaxed);
                    let lost = b == loss;
                    if !(lost || (d > 0 && b == win)) {
                        continue;
                    }
                    let Some(q) = ix.position(i) else { continue };
                    preds.clear();
                    predecessors(&q, &mut preds);
                    for p in &preds {
                        let j = ix.index(p) as usize;
                        if lost {
                            // Won in d + 1, unless already won as quickly.
                            let mut cur = values[j].load(Ordering::Relaxed);
                            loop {
                                let better = match Value::decode(cur) {
                                    Value::Draw => true,
                                    Value::Win(y) => y > d + 1,
                                    Value::Loss(_) => false,
                                };
                                if !better {
                                    break;
                                }
                                match values[j].compare_exchange(
                                    cur,
                                    next_win,
                                    Ordering::Relaxed,
                                    Ordering::Relaxed,
                                ) {
                                    Ok(_) => {
                                        longest.fetch_max(d + 1, Ordering::Relaxed);
                                        break;
                                    }
                                    Err(now) => cur = now,
                                }
                            }
                        } else if counts[j].fetch_sub(1, Ordering::Relaxed) == 1 {
                            // Every move inside the slice now loses; with its crownings
                            // and captures (all losing too) it is lost in the longest.
                            let mut worst = d + 1;
                            let mut list = MoveList::new();
                            movegen::generate(p, &mut list);
                            for mv in list.iter() {
                                let succ = p.play(mv);
                                if Material::of(&succ) != material {
                                    if let Some(Value::Loss(e)) = tables
                                        .lookup(&succ)?
                                        .map(|v| v.before_move(mv.is_capture()))
                                    {
                                        worst = worst.max(e);
                                    }
                                }
                            }
                            if worst > MAX_DISTANCE - 1 {
                                return Err(too_far());
                            }
                            if values[j]
                                .compare_exchange(
                                    0,
                                    Value::Loss(worst).encode(),
                                    Ordering::Relaxed,
                                    Ordering::Relaxed,
                                )
                                .is_ok()
                            {
                                longest.fetch_max(worst, Ordering::Relaxed);
                            }
                        }
                    }
                }
                let t = total.load(Ordering::Relaxed);
                let dn = done.fetch_add(CHUNK, Ordering::Relaxed) + CHUNK;
                progress(dn.min(t), t);
                Ok(())
            })?;
        if d >= longest.load(Ordering::Relaxed) {
            break;
        }
        d += 1;
        total.fetch_add(n, Ordering::Relaxed);
    }
    Ok(values.into_iter().map(AtomicU16::into_inner).collect())
}
