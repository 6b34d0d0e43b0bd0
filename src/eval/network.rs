//! The network and its integer inference.
//!
//! Architecture (the same for every variant):
//! - **Inputs**: one per (piece kind, square) seen from a perspective: own men, own
//!   kings, the opponent's men, the opponent's kings, on the 64 squares numbered from
//!   that side (White's view is the board as it is, Black's view the board turned 180
//!   degrees): 256 inputs, of which only the occupied squares are on.
//! - **First layer**: 256 -> W, shared by both perspectives, where the width W is the
//!   model's own (one of [`WIDTHS`]; [`L1`] unless the model says otherwise). Its sums
//!   (the [`Accumulator`]) are kept for both sides and updated incrementally as pieces
//!   leave and reach squares.
//! - The two halves are clipped to [0, 1] and put side to move first: 2 x W ->
//!   [`L2`] -> [`L3`] -> 1, clipped ReLU between the dense layers.
//! - The output is the logit of the side to move's expected score (win 1, draw 0.5); the
//!   evaluation is that logit times the model's scale, in hundredths of a man.
//!
//! The inner loops are compiled once per width in [`WIDTHS`] (a const generic chosen by
//! a `match` on the network's width), so their trip counts are constants and the
//! default width runs as fast as when it was the only one.
//!
//! Turning the board and swapping the colours swaps the two perspectives, so the
//! evaluation is colour-symmetric by construction.
//!
//! Integers: first-layer weights and sums are `i16` in units of 1/[`QA`]; dense weights
//! are `i16` in units of 1/[`QB`]; dense sums are `i32`.

#![allow(clippy::needless_range_loop)] // parallel arrays of weights and activations

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Color;

/// Inputs per perspective.
pub const INPUTS: usize = 256;
/// The default first-layer width per perspective (the shipped models').
pub const L1: usize = 128;
/// The first-layer widths this build runs.
pub const WIDTHS: [usize; 4] = [64, 128, 192, 256];
/// The widest first layer: the [`Accumulator`]'s room per perspective.
pub const L1_MAX: usize = 256;
/// Second-layer width.
pub const L2: usize = 32;
/// Third-layer width.
pub const L3: usize = 32;
/// Activations in [0, 1] are integers in [0, QA].
pub const QA: i32 = 127;
/// Dense weights are integers in units of 1/QB.
pub const QB: i32 = 64;

/// The input of a piece of colour `piece` (a king or not) on square `sq` (0 = a1),
/// seen by `persp`.
#[inline(always)]
pub fn feature(persp: Color, piece: Color, king: bool, sq: usize) -> usize {
    let rel = if persp == Color::White { sq } else { 63 - sq };
    let plane = ((piece != persp) as usize) * 2 + king as usize;
    plane * 64 + rel
}

/// The active inputs of `pos` seen by `persp` (for training and checks).
pub fn active_features<R: Rules>(pos: &Position<R>, persp: Color) -> Vec<usize> {
    let mut out = Vec::with_capacity(48);
    for (piece, king, bb) in planes(pos) {
        for sq in bb {
            out.push(feature(persp, piece, king, sq.index()));
        }
    }
    out
}

/// The four piece sets of a position: (colour, king, squares).
#[inline(always)]
fn planes<R: Rules>(pos: &Position<R>) -> [(Color, bool, Bitboard); 4] {
    [
        (Color::White, false, pos.men(Color::White)),
        (Color::White, true, pos.kings(Color::White)),
        (Color::Black, false, pos.men(Color::Black)),
        (Color::Black, true, pos.kings(Color::Black)),
    ]
}

/// The first-layer sums of both perspectives (index: White 0, Black 1). Only the first
/// `width` sums of each are used (the network's); the rest stay 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// The sums, in units of 1/QA.
    pub v: [[i16; L1_MAX]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            v: [[0; L1_MAX]; 2],
        }
    }
}

/// The dense layers after the first: one set per bucket of the piece count.
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    /// Second layer: `L2` rows of `2 * width` weights, one row after the other.
    pub w2: Vec<i16>,
    /// Second-layer biases (units 1/(QA*QB)).
    pub b2: [i32; L2],
    /// Third layer: one row per output.
    pub w3: [[i16; L2]; L3],
    /// Third-layer biases.
    pub b3: [i32; L3],
    /// Output weights.
    pub w4: [i16; L3],
    /// Output bias.
    pub b4: i32,
}

impl Head {
    /// A head of zeros after a first layer of `width`.
    pub fn zeros(width: usize) -> Head {
        Head {
            w2: vec![0; L2 * 2 * width],
            b2: [0; L2],
            w3: [[0; L2]; L3],
            b3: [0; L3],
            w4: [0; L3],
            b4: 0,
        }
    }
}

/// The bucket (0-based) of a position with `on_board` pieces, for `buckets` buckets of
/// a game that starts with `start` pieces: the piece counts `0..=start` cut into equal
/// ranges, the fullest board in the last bucket.
#[inline(always)]
pub fn bucket_of(on_board: u32, buckets: usize, start: u32) -> usize {
    ((on_board as usize * buckets) / (start as usize + 1)).min(buckets - 1)
}

/// A network with integer weights.
///
/// The vectors' lengths follow from `width` (one of [`WIDTHS`]): `w1` holds `INPUTS *
/// width` weights, `b1` `width`, each head's `w2` `L2 * 2 * width`. The constructors and
/// the model reader keep them so.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// First-layer width per perspective.
    pub width: usize,
    /// First layer: `INPUTS` rows of `width` weights, one row after the other.
    pub w1: Vec<i16>,
    /// First-layer biases (`width`).
    pub b1: Vec<i16>,
    /// The dense layers, one set per piece-count bucket (at least one).
    pub heads: Vec<Head>,
    /// Pieces at the start of the variant's game (sets the bucket ranges).
    pub start_pieces: u32,
    /// Hundredths of a man per unit of output logit.
    pub scale: i32,
}

#[inline(always)]
fn add_row<const W: usize>(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc[..W].iter_mut().zip(&row[..W]) {
        *a = a.wrapping_add(*w);
    }
}

#[inline(always)]
fn sub_row<const W: usize>(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc[..W].iter_mut().zip(&row[..W]) {
        *a = a.wrapping_sub(*w);
    }
}

/// `out[k] = Σ x[j] * w[k][j]` over `n = x.len()` inputs and rows of `n` weights: the
/// second layer, the network's costliest step.
#[inline(always)]
fn dense(x: &[i16], w: &[i16], out: &mut [i32; L2]) {
    let n = x.len();
    for (k, o) in out.iter_mut().enumerate() {
        let row = &w[k * n..(k + 1) * n];
        let mut s = 0i32;
        for j in 0..n {
            s += x[j] as i32 * row[j] as i32;
        }
        *o = s;
    }
}

/// Calls `$f::<W>($args)` with the const `W` equal to the runtime width `$w`.
macro_rules! by_width {
    ($w:expr, $f:ident, $($arg:expr),*) => {
        match $w {
            64 => $f::<64, _>($($arg),*),
            128 => $f::<128, _>($($arg),*),
            192 => $f::<192, _>($($arg),*),
            _ => $f::<256, _>($($arg),*),
        }
    };
}

/// The sums of `child` into `out` from `acc`, those of its parent (see
/// [`Network::update_into`]), for a first layer of width `W`.
#[inline(always)]
fn update_w<const W: usize, R: Rules>(
    net: &Network,
    acc: &Accumulator,
    out: &mut Accumulator,
    (parent, child): (&Position<R>, &Position<R>),
) {
    for p in 0..2 {
        out.v[p][..W].copy_from_slice(&acc.v[p][..W]);
    }
    let before = planes(parent);
    let after = planes(child);
    for k in 0..4 {
        let (piece, king, old) = before[k];
        let new = after[k].2;
        for sq in old & !new {
            for persp in Color::ALL {
                let f = feature(persp, piece, king, sq.index());
                sub_row::<W>(&mut out.v[persp.index()], &net.w1[f * W..f * W + W]);
            }
        }
        for sq in new & !old {
            for persp in Color::ALL {
                let f = feature(persp, piece, king, sq.index());
                add_row::<W>(&mut out.v[persp.index()], &net.w1[f * W..f * W + W]);
            }
        }
    }
}

/// The first-layer sums of `pos` from scratch, for a first layer of width `W`.
fn refresh_w<const W: usize, R: Rules>(net: &Network, pos: &Position<R>) -> Accumulator {
    let mut acc = Accumulator::default();
    for p in 0..2 {
        acc.v[p][..W].copy_from_slice(&net.b1[..W]);
    }
    for (piece, king, bb) in planes(pos) {
        for sq in bb {
            for persp in Color::ALL {
                let f = feature(persp, piece, king, sq.index());
                add_row::<W>(&mut acc.v[persp.index()], &net.w1[f * W..f * W + W]);
            }
        }
    }
    acc
}

impl Network {
    /// A network of zeros (scale 100, the default width): every position evaluates to 0.
    pub fn zeros() -> Network {
        Network::zeros_with(1, 24)
    }

    /// A network of zeros of the default width with `buckets` heads for a game of
    /// `start_pieces` pieces.
    pub fn zeros_with(buckets: usize, start_pieces: u32) -> Network {
        Network::zeros_wide(L1, buckets, start_pieces).expect("the default width runs")
    }

    /// A network of zeros with a first layer of `width`; an error unless `width` is one
    /// of [`WIDTHS`].
    pub fn zeros_wide(width: usize, buckets: usize, start_pieces: u32) -> Result<Network, String> {
        if !WIDTHS.contains(&width) {
            return Err(format!(
                "a first layer of width {width} is not one this build runs ({WIDTHS:?})"
            ));
        }
        Ok(Network {
            width,
            w1: vec![0; INPUTS * width],
            b1: vec![0; width],
            heads: vec![Head::zeros(width); buckets.max(1)],
            start_pieces,
            scale: 100,
        })
    }

    /// The first-layer weights of input `f`.
    #[inline(always)]
    pub fn row(&self, f: usize) -> &[i16] {
        &self.w1[f * self.width..(f + 1) * self.width]
    }

    /// The first-layer sums of `pos`, computed from scratch.
    pub fn refresh<R: Rules>(&self, pos: &Position<R>) -> Accumulator {
        by_width!(self.width, refresh_w, self, pos)
    }

    /// The sums of `child` from those of `parent`: the pieces that left a square are
    /// taken out and those that reached one are put in (moves, captures and crowning
    /// alike).
    #[inline]
    pub fn update<R: Rules>(
        &self,
        acc: &Accumulator,
        parent: &Position<R>,
        child: &Position<R>,
    ) -> Accumulator {
        let mut out = Accumulator::default();
        self.update_into(acc, &mut out, parent, child);
        out
    }

    /// [`Network::update`] written into `out`, which must hold zeros past the width (as
    /// every accumulator made by this network does); only the used sums are copied.
    #[inline]
    pub fn update_into<R: Rules>(
        &self,
        acc: &Accumulator,
        out: &mut Accumulator,
        parent: &Position<R>,
        child: &Position<R>,
    ) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { self.update_avx2(acc, out, parent, child) };
        }
        by_width!(self.width, update_w, self, acc, out, (parent, child))
    }

    /// [`Network::update_into`] compiled for AVX2.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn update_avx2<R: Rules>(
        &self,
        acc: &Accumulator,
        out: &mut Accumulator,
        parent: &Position<R>,
        child: &Position<R>,
    ) {
        by_width!(self.width, update_w, self, acc, out, (parent, child))
    }

    /// The head used for a position with `on_board` pieces.
    #[inline(always)]
    pub fn bucket(&self, on_board: u32) -> usize {
        bucket_of(on_board, self.heads.len(), self.start_pieces)
    }

    /// The output logit in units of 1/(QA*QB), for side `side` to move, through the
    /// head of a position with `on_board` pieces.
    #[inline]
    pub fn forward(&self, acc: &Accumulator, side: Color, on_board: u32) -> i32 {
        let head = &self.heads[self.bucket(on_board)];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // The vector loads below read `2 * width` weights per row of `w2`.
            assert!(head.w2.len() >= L2 * 2 * self.width && self.width <= L1_MAX);
            // SAFETY: the CPU has AVX2 (checked just above), and the head holds the
            // weights the width needs (asserted).
            return unsafe {
                match self.width {
                    64 => Self::forward_avx2::<64>(head, acc, side),
                    128 => Self::forward_avx2::<128>(head, acc, side),
                    192 => Self::forward_avx2::<192>(head, acc, side),
                    _ => Self::forward_avx2::<256>(head, acc, side),
                }
            };
        }
        Self::forward_generic(head, acc, side, self.width)
    }

    /// [`Network::forward`] compiled for AVX2, for a first layer of width `W`.
    ///
    /// # Safety
    /// The CPU must support AVX2; `head.w2` must hold `L2 * 2 * W` weights and `W` be
    /// at most [`L1_MAX`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn forward_avx2<const W: usize>(head: &Head, acc: &Accumulator, side: Color) -> i32 {
        use std::arch::x86_64::*;
        /// Eight row sums (each a vector of eight i32 partial sums) into one vector.
        #[inline(always)]
        unsafe fn reduce8(a: [__m256i; 8]) -> __m256i {
            let s01 = _mm256_hadd_epi32(a[0], a[1]);
            let s23 = _mm256_hadd_epi32(a[2], a[3]);
            let s45 = _mm256_hadd_epi32(a[4], a[5]);
            let s67 = _mm256_hadd_epi32(a[6], a[7]);
            let s0123 = _mm256_hadd_epi32(s01, s23);
            let s4567 = _mm256_hadd_epi32(s45, s67);
            let lo = _mm256_permute2x128_si256(s0123, s4567, 0x20);
            let hi = _mm256_permute2x128_si256(s0123, s4567, 0x31);
            _mm256_add_epi32(lo, hi)
        }
        let us = side.index();
        let zero = _mm256_setzero_si256();
        let qa16 = _mm256_set1_epi16(QA as i16);
        // The clipped first layer, side to move first: 2 * W / 16 vectors of 16 i16.
        let mut x = [zero; 2 * L1_MAX / 16];
        let x = &mut x[..2 * W / 16];
        for (half, persp) in [us, 1 - us].into_iter().enumerate() {
            let src = acc.v[persp].as_ptr();
            for i in 0..W / 16 {
                // SAFETY: i * 16 + 16 <= W <= L1_MAX; unaligned load.
                let v = _mm256_loadu_si256(src.add(i * 16) as *const __m256i);
                x[half * (W / 16) + i] = _mm256_min_epi16(_mm256_max_epi16(v, zero), qa16);
            }
        }
        let qa32 = _mm256_set1_epi32(QA);
        // Second layer, eight outputs at a time.
        let mut h2 = [0i16; L2];
        for k0 in (0..L2).step_by(8) {
            let mut sums = [zero; 8];
            for (r, sum) in sums.iter_mut().enumerate() {
                let row = head.w2.as_ptr().add((k0 + r) * 2 * W);
                let mut a = zero;
                for (i, xv) in x.iter().enumerate() {
                    // SAFETY: (k0 + r) * 2W + i * 16 + 16 <= L2 * 2W, the length of w2;
                    // unaligned load.
                    let w = _mm256_loadu_si256(row.add(i * 16) as *const __m256i);
                    a = _mm256_add_epi32(a, _mm256_madd_epi16(*xv, w));
                }
                *sum = a;
            }
            let b = _mm256_loadu_si256(head.b2.as_ptr().add(k0) as *const __m256i);
            let z = _mm256_srai_epi32(_mm256_add_epi32(reduce8(sums), b), 6);
            let h = _mm256_min_epi32(_mm256_max_epi32(z, zero), qa32);
            let mut out = [0i32; 8];
            _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, h);
            for r in 0..8 {
                h2[k0 + r] = out[r] as i16;
            }
        }
        // Third layer.
        let h2v = [
            _mm256_loadu_si256(h2.as_ptr() as *const __m256i),
            _mm256_loadu_si256(h2.as_ptr().add(16) as *const __m256i),
        ];
        let mut h3 = [0i16; L3];
        for k0 in (0..L3).step_by(8) {
            let mut sums = [zero; 8];
            for (r, sum) in sums.iter_mut().enumerate() {
                let row = head.w3[k0 + r].as_ptr();
                let w0 = _mm256_loadu_si256(row as *const __m256i);
                let w1 = _mm256_loadu_si256(row.add(16) as *const __m256i);
                *sum =
                    _mm256_add_epi32(_mm256_madd_epi16(h2v[0], w0), _mm256_madd_epi16(h2v[1], w1));
            }
            let b = _mm256_loadu_si256(head.b3.as_ptr().add(k0) as *const __m256i);
            let z = _mm256_srai_epi32(_mm256_add_epi32(reduce8(sums), b), 6);
            let h = _mm256_min_epi32(_mm256_max_epi32(z, zero), qa32);
            let mut out = [0i32; 8];
            _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, h);
            for r in 0..8 {
                h3[k0 + r] = out[r] as i16;
            }
        }
        let mut out = head.b4;
        for j in 0..L3 {
            out += h3[j] as i32 * head.w4[j] as i32;
        }
        out
    }

    #[inline(always)]
    fn forward_generic(head: &Head, acc: &Accumulator, side: Color, width: usize) -> i32 {
        let us = side.index();
        let mut x = [0i16; 2 * L1_MAX];
        for j in 0..width {
            x[j] = acc.v[us][j].clamp(0, QA as i16);
            x[width + j] = acc.v[1 - us][j].clamp(0, QA as i16);
        }
        let mut sums = [0i32; L2];
        dense(&x[..2 * width], &head.w2, &mut sums);
        let mut h2 = [0i16; L2];
        for k in 0..L2 {
            h2[k] = ((sums[k] + head.b2[k]) >> 6).clamp(0, QA) as i16;
        }
        let mut h3 = [0i16; L3];
        for (k, h) in h3.iter_mut().enumerate() {
            let row = &head.w3[k];
            let mut s = 0i32;
            for j in 0..L2 {
                s += h2[j] as i32 * row[j] as i32;
            }
            *h = ((s + head.b3[k]) >> 6).clamp(0, QA) as i16;
        }
        let mut out = head.b4;
        for j in 0..L3 {
            out += h3[j] as i32 * head.w4[j] as i32;
        }
        out
    }

    /// The evaluation in hundredths of a man for the side to move, from the sums of a
    /// position with `on_board` pieces.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side: Color, on_board: u32) -> i32 {
        let out = self.forward(acc, side, on_board) as i64;
        let s = out * self.scale as i64 / (QA * QB) as i64;
        s.clamp(-20_000, 20_000) as i32
    }

    /// The evaluation of `pos` from scratch (no incremental sums).
    pub fn evaluate_position<R: Rules>(&self, pos: &Position<R>) -> i32 {
        self.evaluate(&self.refresh(pos), pos.side(), pos.occupied().count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The vectorised forward pass gives exactly the plain one's output, at every width.
    #[test]
    fn forward_paths_agree() {
        let mut rng = StdRng::seed_from_u64(9);
        for width in WIDTHS {
            let mut net = Network::zeros_wide(width, 3, 24).unwrap();
            for head in net.heads.iter_mut() {
                randomize(head, &mut rng);
            }
            for _ in 0..200 {
                let mut acc = Accumulator::default();
                for p in acc.v.iter_mut() {
                    p[..width]
                        .iter_mut()
                        .for_each(|x| *x = rng.gen_range(-300..400));
                }
                let on_board = rng.gen_range(2..=24);
                let head = &net.heads[net.bucket(on_board)];
                for side in Color::ALL {
                    assert_eq!(
                        net.forward(&acc, side, on_board),
                        Network::forward_generic(head, &acc, side, width),
                        "width {width}"
                    );
                }
            }
        }
        let net = Network::zeros_with(3, 24);
        // The buckets cut 0..=24 pieces into three equal ranges.
        let b: Vec<usize> = (0..=24).map(|n| net.bucket(n)).collect();
        assert_eq!(b.iter().filter(|&&x| x == 0).count(), 9);
        assert_eq!(b.iter().filter(|&&x| x == 2).count(), 8);
        assert!(b.windows(2).all(|w| w[0] <= w[1]));
    }

    /// Widths outside [`WIDTHS`] are refused.
    #[test]
    fn odd_widths_refused() {
        for width in [0, 16, 100, 320] {
            assert!(Network::zeros_wide(width, 1, 24).is_err());
        }
    }

    fn randomize(net: &mut Head, rng: &mut StdRng) {
        net.w2
            .iter_mut()
            .for_each(|x| *x = rng.gen_range(-500..500));
        for row in net.w3.iter_mut() {
            row.iter_mut().for_each(|x| *x = rng.gen_range(-500..500));
        }
        net.w4
            .iter_mut()
            .for_each(|x| *x = rng.gen_range(-500..500));
        net.b2
            .iter_mut()
            .for_each(|x| *x = rng.gen_range(-90_000..90_000));
        net.b3
            .iter_mut()
            .for_each(|x| *x = rng.gen_range(-90_000..90_000));
        net.b4 = rng.gen_range(-90_000..90_000);
    }
}
