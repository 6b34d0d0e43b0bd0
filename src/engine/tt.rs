//! The transposition table: fixed size, shared by all search threads, lock-free.
//!
//! # Concurrency contract
//! Each entry is two `AtomicU64`s: `check = key ^ data` and `data`. Writers store both
//! with relaxed ordering and no lock; a reader that sees a torn entry (one word from one
//! write, one from another) finds `check ^ data != key` and treats it as a miss. So a
//! probe returns either nothing or data that some thread stored for exactly this key.
//! The data itself is only a hint (the move is checked against the legal moves before
//! use), so a rare 64-bit key collision cannot make the engine play an illegal move.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::types::Square;
use crate::types::{Score, MATE_BOUND};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at least this (fail high).
    Lower = 1,
    /// The true score is at most this (fail low).
    Upper = 2,
    /// The exact score.
    Exact = 3,
}

/// A move as the table keeps it: origin, destination and a 12-bit fingerprint of the
/// captured set, matched against the legal moves before use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveHint {
    from: u8,
    to: u8,
    captured: u16,
}

impl MoveHint {
    /// The hint of `mv`.
    pub fn of(mv: &Move) -> MoveHint {
        MoveHint {
            from: mv.from.index() as u8,
            to: mv.to.index() as u8,
            captured: fingerprint(mv.captured),
        }
    }

    /// True when `mv` is (in all likelihood) the move this hint was made from.
    pub fn matches(&self, mv: &Move) -> bool {
        mv.from == Square::new(self.from)
            && mv.to == Square::new(self.to)
            && fingerprint(mv.captured) == self.captured
    }
}

fn fingerprint(b: Bitboard) -> u16 {
    let x = b.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x >> 52) as u16
}

/// One probe result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The best move found, if any.
    pub mv: Option<MoveHint>,
    /// The score, with mate scores relative to the probing node (see [`score_from_tt`]).
    pub score: Score,
    /// The depth searched.
    pub depth: i32,
    /// How the score bounds the true score.
    pub bound: Bound,
}

// data layout: from 6 | to 6 | captured 12 | has_move 1 | score 16 | depth 8 | bound 2 | age 6
fn pack(e: &Entry, age: u8) -> u64 {
    let (mv, has) = match e.mv {
        Some(m) => (
            m.from as u64 | (m.to as u64) << 6 | (m.captured as u64 & 0xFFF) << 12,
            1u64,
        ),
        None => (0, 0),
    };
    mv | has << 24
        | ((e.score as i16 as u16) as u64) << 25
        | ((e.depth.clamp(0, 255) as u8) as u64) << 41
        | (e.bound as u64) << 49
        | ((age & 63) as u64) << 51
}

fn unpack(d: u64) -> (Entry, u8) {
    let mv = if d >> 24 & 1 == 1 {
        Some(MoveHint {
            from: (d & 63) as u8,
            to: (d >> 6 & 63) as u8,
            captured: (d >> 12 & 0xFFF) as u16,
        })
    } else {
        None
    };
    let bound = match d >> 49 & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::Exact,
    };
    (
        Entry {
            mv,
            score: (d >> 25 & 0xFFFF) as u16 as i16 as Score,
            depth: (d >> 41 & 0xFF) as i32,
            bound,
        },
        (d >> 51 & 63) as u8,
    )
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Entries per bucket: a probe looks at both, a store replaces the less useful one.
const BUCKET: usize = 2;

/// The shared transposition table.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    mask: usize,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (rounded down to a power of two of entries; at
    /// least one bucket).
    ///
    /// # Panics
    /// When the memory cannot be had; [`TranspositionTable::try_new`] reports it instead.
    pub fn new(mib: usize) -> TranspositionTable {
        Self::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// As [`TranspositionTable::new`], or an error when the memory cannot be had.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, String> {
        let bytes = mib.max(1).saturating_mul(1024 * 1024);
        let mut buckets = 1usize;
        while buckets * 2 * BUCKET * std::mem::size_of::<Slot>() <= bytes {
            buckets *= 2;
        }
        let mut slots: Vec<Slot> = Vec::new();
        slots
            .try_reserve_exact(buckets * BUCKET)
            .map_err(|_| format!("cannot allocate a {mib} MiB transposition table"))?;
        slots.extend((0..buckets * BUCKET).map(|_| Slot {
            check: AtomicU64::new(0),
            data: AtomicU64::new(0),
        }));
        Ok(TranspositionTable {
            slots: slots.into_boxed_slice(),
            mask: buckets - 1,
            age: AtomicU8::new(0),
        })
    }

    /// The size in MiB actually used.
    pub fn size_mib(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>() / (1024 * 1024)
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.store(
            (self.age.load(Ordering::Relaxed) + 1) & 63,
            Ordering::Relaxed,
        );
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[Slot] {
        let i = (key as usize & self.mask) * BUCKET;
        &self.slots[i..i + BUCKET]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for s in self.bucket(key) {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores `entry` for `key`, replacing this key's old entry or the least valuable
    /// one of the bucket (old searches first, then shallow depths). A store without a
    /// move keeps the move already known for the key.
    #[inline]
    pub fn store(&self, key: u64, mut entry: Entry) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let (old, _) = unpack(data);
                if entry.mv.is_none() {
                    entry.mv = old.mv;
                }
                // Keep a deeper exact result of the same search.
                if old.depth > entry.depth + 2 && old.bound == Bound::Exact {
                    return;
                }
                victim = i;
                break;
            }
            let (old, old_age) = unpack(data);
            let value = if data == 0 {
                i32::MIN
            } else {
                old.depth - 8 * ((age.wrapping_sub(old_age) & 63) as i32)
            };
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let data = pack(&entry, age);
        bucket[victim].data.store(data, Ordering::Relaxed);
        bucket[victim].check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written in the current search (the protocol's
    /// `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == age
            })
            .count();
        (used * 1000 / n) as u32
    }
}

/// A score to store: mate scores are made relative to the node `ply` plies from the root.
pub fn score_to_tt(score: Score, ply: i32) -> Score {
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored score seen from a node `ply` plies from the root.
pub fn score_from_tt(score: Score, ply: i32) -> Score {
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trip() {
        let e = Entry {
            mv: Some(MoveHint {
                from: 63,
                to: 0,
                captured: 0xABC,
            }),
            score: -29_950,
            depth: 42,
            bound: Bound::Upper,
        };
        let (u, age) = unpack(pack(&e, 61));
        assert_eq!(u.mv, e.mv);
        assert_eq!(
            (u.score, u.depth, u.bound, age),
            (-29_950, 42, Bound::Upper, 61)
        );
    }

    #[test]
    fn store_probe_and_replace() {
        let tt = TranspositionTable::new(1);
        let e = |depth| Entry {
            mv: None,
            score: 17,
            depth,
            bound: Bound::Exact,
        };
        assert!(tt.probe(3).is_none());
        tt.store(3, e(3));
        assert_eq!(tt.probe(3).unwrap().depth, 3);
        assert!(tt.probe(4).is_none());
        // Same bucket, other keys: the bucket keeps two.
        let other = 3 + ((tt.mask as u64 + 1) << 1);
        tt.store(other, e(5));
        assert!(tt.probe(3).is_some() && tt.probe(other).is_some());
        assert!(tt.hashfull() > 0);
        tt.clear();
        assert!(tt.probe(3).is_none());
    }
}
