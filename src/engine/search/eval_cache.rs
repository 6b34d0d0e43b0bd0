//! A search thread's cache of static evaluations by position hash. Iterative deepening
//! evaluates the same leaves again at every iteration, and the network's forward pass is
//! the search's costliest step; a small table (it fits in the L2 cache) answers the
//! repeats. The network's evaluation is a function of the position, so a hit returns
//! exactly what the network would: the search, and `dama bench`'s node count, are
//! unchanged.

use crate::types::Score;

/// Slots in a thread's cache (a power of two): 16,384 of 8 bytes, 128 KiB. 2^12 to
/// 2^15 measured alike on the 2-core machine, 2^18 slower (docs/results.md "The evaluation cache").
pub const EVAL_CACHE_SLOTS: usize = 1 << 14;

/// A direct-mapped table of (hash tag, evaluation), one per search thread (no sharing,
/// no atomics).
#[derive(Clone, Debug)]
pub struct EvalCache {
    /// `(hash & TAG) | evaluation as u32`; 0 is an empty slot.
    slots: Vec<u64>,
}

/// The bits of the hash kept as the slot's tag (the low bits choose the slot).
const TAG: u64 = 0xffff_ffff_0000_0000;

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::with_slots(EVAL_CACHE_SLOTS)
    }
}

impl EvalCache {
    /// An empty cache of `slots` slots (rounded up to a power of two, at least 1).
    pub fn with_slots(slots: usize) -> EvalCache {
        EvalCache {
            slots: vec![0; slots.max(1).next_power_of_two()],
        }
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        key as usize & (self.slots.len() - 1)
    }

    /// The evaluation stored for `key`, if its slot holds it.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Score> {
        let slot = self.slots[self.index(key)];
        (slot != 0 && slot & TAG == key & TAG).then_some(slot as u32 as Score)
    }

    /// Stores `eval` for `key`, in place of what its slot held.
    #[inline(always)]
    pub fn store(&mut self, key: u64, eval: Score) {
        let i = self.index(key);
        self.slots[i] = (key & TAG) | eval as u32 as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_evaluation_is_found_under_its_own_key_only() {
        let mut c = EvalCache::with_slots(16);
        assert_eq!(c.probe(0x1234_5678_0000_0003), None);
        for eval in [0, 1, -1, 20_000, -20_000, Score::MAX, Score::MIN] {
            c.store(0x1234_5678_0000_0003, eval);
            assert_eq!(c.probe(0x1234_5678_0000_0003), Some(eval));
        }
        // Same slot, another tag: not found; stored, it takes the slot.
        let other = 0x9999_0000_0000_0003;
        assert_eq!(c.probe(other), None);
        c.store(other, -7);
        assert_eq!(c.probe(other), Some(-7));
        assert_eq!(c.probe(0x1234_5678_0000_0003), None);
        // Another slot is untouched.
        assert_eq!(c.probe(0x1234_5678_0000_0004), None);
        assert_eq!(EvalCache::with_slots(10).slots.len(), 16);
    }
}
