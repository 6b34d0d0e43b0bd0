//! [`Indexer`]: a dense number for every position of one slice, and back.
//!
//! Each of the four groups of pieces (white men, black men, white kings, black kings)
//! is numbered on its own as a combination of squares of its domain (colex order):
//! men never stand on their promotion rank, kings anywhere on the playable squares.
//! The numbers are combined with the side to move into one index. Indices whose
//! groups overlap name no position; [`Indexer::position`] returns `None` for them.

use super::material::Material;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Color, Square};
use std::marker::PhantomData;

/// Binomial coefficients C(n, k) for n <= 64, k <= 8.
const BINOMIAL: [[u64; 9]; 65] = {
    let mut t = [[0u64; 9]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k) (k at most 8).
pub fn binomial(n: usize, k: usize) -> u64 {
    BINOMIAL[n][k]
}

/// The squares of one group's domain, in increasing order, and the inverse map.
#[derive(Clone, Debug)]
struct Domain {
    squares: Vec<Square>,
    dense: [u8; 64],
}

impl Domain {
    fn new(board: Bitboard) -> Domain {
        let squares: Vec<Square> = board.collect();
        let mut dense = [u8::MAX; 64];
        for (i, sq) in squares.iter().enumerate() {
            dense[sq.index()] = i as u8;
        }
        Domain { squares, dense }
    }

    /// The colex rank of a set of squares of this domain.
    fn rank(&self, set: Bitboard) -> u64 {
        let mut r = 0;
        for (i, sq) in set.enumerate() {
            r += binomial(self.dense[sq.index()] as usize, i + 1);
        }
        r
    }

    /// The set of `k` squares with colex rank `r`.
    fn unrank(&self, mut r: u64, k: usize) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        let mut hi = self.squares.len();
        for i in (1..=k).rev() {
            // The largest c < hi with C(c, i) <= r.
            let mut c = hi - 1;
            while binomial(c, i) > r {
                c -= 1;
            }
            r -= binomial(c, i);
            set |= Bitboard::from_square(self.squares[c]);
            hi = c;
        }
        set
    }
}

/// The numbering of one slice of the rules `R`.
#[derive(Clone, Debug)]
pub struct Indexer<R: Rules> {
    material: Material,
    /// Domains and counts of white men, black men, white kings, black kings.
    groups: [(usize, usize); 4],
    domains: [Domain; 2],
    /// Combinations per group.
    sizes: [u64; 4],
    /// Positions per side to move.
    half: u64,
    rules: PhantomData<R>,
}

impl<R: Rules> Indexer<R> {
    /// The numbering of `material`.
    pub fn new(material: Material) -> Indexer<R> {
        // White men never stand on rank 8; Black's men use the same domain turned 180
        // degrees (the playable squares are symmetric that way in every variant).
        let men = Domain::new(R::BOARD & !Bitboard(0xFF << 56));
        let kings = Domain::new(R::BOARD);
        let groups = [
            (0, material.white_men as usize),
            (1, material.black_men as usize),
            (2, material.white_kings as usize),
            (2, material.black_kings as usize),
        ];
        let lens = [men.squares.len(), men.squares.len(), kings.squares.len()];
        let sizes = groups.map(|(d, k)| binomial(lens[d], k));
        Indexer {
            material,
            groups,
            domains: [men, kings],
            sizes,
            half: sizes.iter().product(),
            rules: PhantomData,
        }
    }

    /// The slice numbered.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The number of indices (both sides to move, overlapping placements included).
    pub fn size(&self) -> u64 {
        2 * self.half
    }

    fn domain(&self, group: usize) -> DomainRef<'_> {
        match self.groups[group].0 {
            0 => DomainRef::WhiteMen(&self.domains[0]),
            1 => DomainRef::BlackMen(&self.domains[0]),
            _ => DomainRef::Kings(&self.domains[1]),
        }
    }

    /// The index of `pos`, which must have this slice's material.
    pub fn index(&self, pos: &Position<R>) -> u64 {
        debug_assert_eq!(Material::of(pos), self.material);
        let sets = [
            pos.men(Color::White),
            pos.men(Color::Black),
            pos.kings(Color::White),
            pos.kings(Color::Black),
        ];
        let mut idx = 0;
        for (g, set) in sets.into_iter().enumerate() {
            idx = idx * self.sizes[g] + self.domain(g).rank(set);
        }
        match pos.side() {
            Color::White => idx,
            Color::Black => self.half + idx,
        }
    }

    /// The position with index `idx`, or `None` where two groups overlap.
    pub fn position(&self, idx: u64) -> Option<Position<R>> {
        let (side, mut rest) = if idx >= self.half {
            (Color::Black, idx - self.half)
        } else {
            (Color::White, idx)
        };
        let mut sets = [Bitboard::EMPTY; 4];
        for g in (0..4).rev() {
            let r = rest % self.sizes[g];
            rest /= self.sizes[g];
            sets[g] = self.domain(g).unrank(r, self.groups[g].1);
        }
        let [wm, bm, wk, bk] = sets;
        let mut seen = Bitboard::EMPTY;
        for s in sets {
            if (seen & s).any() {
                return None;
            }
            seen |= s;
        }
        Position::new([wm | wk, bm | bk], wk | bk, side).ok()
    }
}

/// A group's domain; black men use the white men's domain turned 180 degrees.
enum DomainRef<'a> {
    WhiteMen(&'a Domain),
    BlackMen(&'a Domain),
    Kings(&'a Domain),
}

impl DomainRef<'_> {
    fn rank(&self, set: Bitboard) -> u64 {
        match self {
            DomainRef::WhiteMen(d) | DomainRef::Kings(d) => d.rank(set),
            DomainRef::BlackMen(d) => d.rank(Bitboard(set.0.reverse_bits())),
        }
    }

    fn unrank(&self, r: u64, k: usize) -> Bitboard {
        match self {
            DomainRef::WhiteMen(d) | DomainRef::Kings(d) => d.unrank(r, k),
            DomainRef::BlackMen(d) => Bitboard(d.unrank(r, k).0.reverse_bits()),
        }
    }
}
