//! [`Move`]: origin, destination and the set of captured squares (G1), and
//! [`MoveList`], a fixed-capacity list that lives on the stack.

use crate::bitboard::Bitboard;
use crate::types::Square;
use std::mem::MaybeUninit;

/// A move, identified by (origin, destination, set of captured squares) as G1 says.
/// Two capture paths with the same triple are the same move. The path itself is not
/// stored: [`crate::notation`] recovers it when a move is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The squares of the captured pieces; empty for a quiet move.
    pub captured: Bitboard,
    /// Where the moving piece starts.
    pub from: Square,
    /// Where it ends (may equal `from` after a circular capture).
    pub to: Square,
}

impl Move {
    /// A quiet move.
    #[inline(always)]
    pub const fn quiet(from: Square, to: Square) -> Move {
        Move {
            captured: Bitboard::EMPTY,
            from,
            to,
        }
    }

    /// True when the move captures.
    #[inline(always)]
    pub const fn is_capture(&self) -> bool {
        self.captured.any()
    }
}

/// The most moves a list holds. No position of any variant comes near it: the largest
/// quiet-move count is bounded by 24 rooks (croda) or 18 queens (dameo) with at most
/// 27 targets each, and captures are far fewer.
pub const MAX_MOVES: usize = 768;

/// A list of moves with fixed capacity, kept on the stack.
pub struct MoveList {
    len: usize,
    moves: [MaybeUninit<Move>; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            // SAFETY: an array of `MaybeUninit` needs no initialisation.
            moves: unsafe { MaybeUninit::uninit().assume_init() },
        }
    }

    /// Appends a move. A list that is full keeps its moves and drops the new one; the
    /// bound above makes this unreachable from legal positions, and debug builds check it.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MAX_MOVES, "move list overflow");
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(mv);
            self.len += 1;
        }
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the list holds no move.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }

    /// True when the list holds `mv`.
    #[inline(always)]
    pub fn contains(&self, mv: &Move) -> bool {
        self.as_slice().contains(mv)
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
