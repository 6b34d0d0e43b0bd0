//! [`Bitboard`]: a set of squares as a `u64` (a1 = bit 0), and the eight board
//! [`Dir`]ections with edge-safe shifts, rays and occluded fills.

use crate::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares, bit `i` = square `i` (a1 = 0, h8 = 63).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

/// The a-file.
pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
/// The h-file.
pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
/// The 32 dark squares (a1 is dark).
pub const DARK: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);
/// All 64 squares.
pub const ALL: Bitboard = Bitboard(!0);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// True when the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the set is not empty.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square of a non-empty set.
    #[inline(always)]
    pub const fn lowest(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// The highest square of a non-empty set.
    #[inline(always)]
    pub const fn highest(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::new(63 - self.0.leading_zeros() as u8)
    }

    /// The set shifted one step in direction `d`; squares leaving the board vanish.
    #[inline(always)]
    pub const fn shift(self, d: Dir) -> Bitboard {
        let b = self.0;
        Bitboard(match d {
            Dir::N => b << 8,
            Dir::S => b >> 8,
            Dir::E => (b << 1) & !FILE_A.0,
            Dir::W => (b >> 1) & !FILE_H.0,
            Dir::NE => (b << 9) & !FILE_A.0,
            Dir::NW => (b << 7) & !FILE_H.0,
            Dir::SE => (b >> 7) & !FILE_A.0,
            Dir::SW => (b >> 9) & !FILE_H.0,
        })
    }

    /// Every square reachable from `self` by sliding in direction `d` over squares of
    /// `empty` (the starting squares included, the first blocker excluded): a
    /// Kogge-Stone occluded fill.
    #[inline(always)]
    pub const fn fill(self, empty: Bitboard, d: Dir) -> Bitboard {
        let (shift, wrap) = d.raw();
        let mut gen = self.0;
        let mut pro = empty.0 & !wrap;
        gen |= pro & rot(gen, shift);
        pro &= rot(pro, shift);
        gen |= pro & rot(gen, 2 * shift);
        pro &= rot(pro, 2 * shift);
        gen |= pro & rot(gen, 4 * shift);
        Bitboard(gen)
    }
}

/// Shift left for positive amounts, right for negative ones.
#[inline(always)]
const fn rot(b: u64, s: i32) -> u64 {
    if s >= 0 {
        b << s
    } else {
        b >> -s
    }
}

/// One of the eight directions of the board, seen from White's side ("north" is up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Up (towards rank 8).
    N = 0,
    /// Up and right.
    NE = 1,
    /// Right.
    E = 2,
    /// Down and right.
    SE = 3,
    /// Down (towards rank 1).
    S = 4,
    /// Down and left.
    SW = 5,
    /// Left.
    W = 6,
    /// Up and left.
    NW = 7,
}

impl Dir {
    /// All eight directions, clockwise from north.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// The direction with index `i` (0 = N, clockwise).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Dir {
        Dir::ALL[i & 7]
    }

    /// The index 0..8 (0 = N, clockwise).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The square index difference of one step.
    #[inline(always)]
    pub const fn delta(self) -> i32 {
        self.raw().0
    }

    /// True when a step increases the square index (N, NE, E, NW).
    #[inline(always)]
    pub const fn increasing(self) -> bool {
        self.delta() > 0
    }

    /// The opposite direction.
    #[inline(always)]
    pub const fn opposite(self) -> Dir {
        Dir::from_index(self.index() + 4)
    }

    /// The direction seen from Black's side: north and south swap, east and west stay.
    #[inline(always)]
    pub const fn flip_vertical(self) -> Dir {
        match self {
            Dir::N => Dir::S,
            Dir::S => Dir::N,
            Dir::NE => Dir::SE,
            Dir::SE => Dir::NE,
            Dir::NW => Dir::SW,
            Dir::SW => Dir::NW,
            Dir::E => Dir::E,
            Dir::W => Dir::W,
        }
    }

    /// The bit of this direction in a [`DirSet`].
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// (index delta, squares a step can never land on because it would wrap round an edge).
    #[inline(always)]
    const fn raw(self) -> (i32, u64) {
        match self {
            Dir::N => (8, 0),
            Dir::S => (-8, 0),
            Dir::E => (1, FILE_A.0),
            Dir::W => (-1, FILE_H.0),
            Dir::NE => (9, FILE_A.0),
            Dir::NW => (7, FILE_H.0),
            Dir::SE => (-7, FILE_A.0),
            Dir::SW => (-9, FILE_H.0),
        }
    }
}

/// A set of directions as a bit mask (bit `d` = [`Dir`] with index `d`).
pub type DirSet = u8;

/// Orthogonal directions.
pub const ORTHOGONAL: DirSet = Dir::N.bit() | Dir::E.bit() | Dir::S.bit() | Dir::W.bit();
/// Diagonal directions.
pub const DIAGONAL: DirSet = Dir::NE.bit() | Dir::SE.bit() | Dir::SW.bit() | Dir::NW.bit();
/// White's forward diagonals.
pub const FORWARD_DIAGONAL: DirSet = Dir::NE.bit() | Dir::NW.bit();
/// White's three forward directions.
pub const FORWARD: DirSet = Dir::N.bit() | FORWARD_DIAGONAL;

/// Runs a block once for each direction of a set, unrolled: with a constant set the tests
/// fold away and every shift in the block has a constant amount (a closure-taking helper
/// was not reliably inlined). Inside the block `continue` skips to the next direction.
///
/// ```
/// use dama::{bitboard::{Dir, ORTHOGONAL}, each_dir};
/// let mut n = 0;
/// each_dir!(ORTHOGONAL, |d| {
///     if d == Dir::S {
///         continue;
///     }
///     n += 1;
/// });
/// assert_eq!(n, 3);
/// ```
#[macro_export]
macro_rules! each_dir {
    ($set:expr, |$d:ident| $body:block) => {{
        let set: u8 = $set;
        $crate::each_dir!(@one set, $d, $body, N, NE, E, SE, S, SW, W, NW);
    }};
    (@one $set:ident, $d:ident, $body:block, $($dir:ident),*) => {
        $(
            if $set & $crate::bitboard::Dir::$dir.bit() != 0 {
                #[allow(clippy::never_loop, clippy::single_element_loop, unused_labels)]
                for $d in [$crate::bitboard::Dir::$dir] $body
            }
        )*
    };
}

/// The set `s` seen from Black's side.
pub const fn flip_dirs(s: DirSet) -> DirSet {
    let mut out = 0;
    let mut i = 0;
    while i < 8 {
        if s & (1 << i) != 0 {
            out |= Dir::from_index(i).flip_vertical().bit();
        }
        i += 1;
    }
    out
}

/// `RAYS[d][sq]`: the squares from `sq` (exclusive) to the edge in direction `d`.
pub static RAYS: [[Bitboard; 64]; 8] = {
    let mut rays = [[Bitboard(0); 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let mut b = Bitboard(1u64 << sq);
            let mut ray = 0;
            loop {
                b = b.shift(Dir::from_index(d));
                if b.0 == 0 {
                    break;
                }
                ray |= b.0;
            }
            rays[d][sq] = Bitboard(ray);
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// The ray from `sq` in direction `d` (exclusive).
#[inline(always)]
pub fn ray(sq: Square, d: Dir) -> Bitboard {
    RAYS[d.index()][sq.index()]
}

/// The nearest square of a non-empty subset `b` of a ray going in direction `d`.
#[inline(always)]
pub fn nearest(b: Bitboard, d: Dir) -> Square {
    if d.increasing() {
        b.lowest()
    } else {
        b.highest()
    }
}

/// The empty squares seen from `sq` in direction `d` before the first occupied square,
/// and that first occupied square if any.
#[inline(always)]
pub fn slide(sq: Square, d: Dir, occupied: Bitboard) -> (Bitboard, Option<Square>) {
    let r = ray(sq, d);
    let blockers = r & occupied;
    if blockers.is_empty() {
        (r, None)
    } else {
        let b = nearest(blockers, d);
        (r & !ray(b, d) & !Bitboard::from_square(b), Some(b))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}
impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ o.0)
    }
}
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}
impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Bitboard) {
        self.0 &= o.0
    }
}
impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0
    }
}
impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, o: Bitboard) {
        self.0 ^= o.0
    }
}

/// Iterates the squares of a set from lowest to highest.
impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lowest();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fill and the shifts agree with a square-by-square walk.
    #[test]
    fn fill_matches_walk() {
        let empty = Bitboard(0x00FF_7E3C_1800_FF00 ^ 0x0000_0400_0020_0000);
        for d in Dir::ALL {
            for sq in 0..64u8 {
                let s = Square::new(sq);
                let mut expect = Bitboard::from_square(s);
                let (f, r) = (s.file() as i32, s.rank() as i32);
                let (df, dr) = match d {
                    Dir::N => (0, 1),
                    Dir::NE => (1, 1),
                    Dir::E => (1, 0),
                    Dir::SE => (1, -1),
                    Dir::S => (0, -1),
                    Dir::SW => (-1, -1),
                    Dir::W => (-1, 0),
                    Dir::NW => (-1, 1),
                };
                let (mut x, mut y) = (f + df, r + dr);
                while (0..8).contains(&x) && (0..8).contains(&y) {
                    let t = Square::new((y * 8 + x) as u8);
                    if !empty.contains(t) {
                        break;
                    }
                    expect |= Bitboard::from_square(t);
                    x += df;
                    y += dr;
                }
                assert_eq!(Bitboard::from_square(s).fill(empty, d), expect, "{d:?} {s}");
            }
        }
    }

    #[test]
    fn rays_stop_at_edges() {
        assert_eq!(ray(Square::new(0), Dir::NE).count(), 7);
        assert_eq!(ray(Square::new(7), Dir::NE).count(), 0);
        assert_eq!(ray(Square::new(7), Dir::W).count(), 7);
        assert_eq!(ray(Square::new(63), Dir::S).count(), 7);
    }
}
