//! The trainer: mini-batch Adam on the float network, then quantisation to the integer
//! [`Network`].
//!
//! Each position's target mixes the search's opinion and the game's result:
//! `t = lambda * sigmoid(score / scale) + (1 - lambda) * result`, with the result 1, 0.5
//! or 0 for the side to move. The network's output `y` is trained so that
//! `sigmoid(y)` matches `t` (squared error), so `y * scale` is an evaluation in
//! hundredths of a man. `scale` is fitted to the data first: the value for which the
//! search scores best predict the results.
//!
//! Determinism: the batches are cut into a fixed number of chunks whose gradients are
//! computed in parallel and summed in chunk order, so a run with the same data, settings
//! and seed gives the same model bit for bit, whatever the number of threads.

#![allow(clippy::needless_range_loop)] // parallel arrays of weights and gradients

use super::data::Record;
use crate::eval::network::{bucket_of, Network, INPUTS, L1, L1_MAX, L2, L3, QA, QB, WIDTHS};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// Chunks per batch (fixed, so that results do not depend on the thread count).
const CHUNKS: usize = 32;
/// Bound on first-layer weights and biases (the integer sums must fit `i16`).
const W1_BOUND: f32 = 3.5;
/// Bound on the dense weights.
const DENSE_BOUND: f32 = 8.0;

/// The trainer's settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's learning rate at the first epoch.
    pub lr: f32,
    /// The learning rate is multiplied by this after every epoch.
    pub lr_decay: f32,
    /// Weight of the search score in the target (the rest is the game result).
    pub lambda: f32,
    /// Hundredths of a man per unit of logit; `None` fits it to the data.
    pub scale: Option<f32>,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// One game in this many goes to the validation set (by game number).
    pub validation_every: u32,
    /// Also train on every position mirrored left to right (files a and h swapped): for
    /// the variants whose board and rules have that symmetry (dameo and croda, see
    /// [`mirror_symmetric`]), it doubles the data for free.
    pub mirror: bool,
    /// Heads (sets of dense layers) chosen by the piece count; 1 is a plain network.
    pub heads: usize,
    /// Pieces at the start of the variant's game (the heads' ranges).
    pub start_pieces: u32,
    /// First-layer width per perspective (one of [`WIDTHS`]).
    pub width: usize,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 20,
            batch: 8192,
            lr: 0.002,
            lr_decay: 0.85,
            lambda: 0.5,
            scale: None,
            seed: 1,
            validation_every: 20,
            mirror: false,
            heads: 1,
            start_pieces: 24,
            width: L1,
        }
    }
}

/// A training position: its White-perspective inputs (the Black ones are derived), the
/// side to move and the target.
#[derive(Clone, Debug)]
pub struct Sample {
    feats: Vec<u8>,
    black_to_move: bool,
    score: f32,
    result: f32,
    target: f32,
}

/// The Black-perspective input of a White-perspective one: colours swapped, board turned.
#[inline(always)]
fn flip(f: u8) -> usize {
    let plane = (f as usize / 64) ^ 2;
    plane * 64 + (63 - f as usize % 64)
}

impl Sample {
    /// The sample of a record (target not yet set).
    pub fn of(r: &Record) -> Sample {
        let mut feats = Vec::with_capacity(32);
        let planes = [
            (r.white & !r.kings, 0usize),
            (r.white & r.kings, 1),
            (r.black & !r.kings, 2),
            (r.black & r.kings, 3),
        ];
        for (mut bb, plane) in planes {
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                feats.push((plane * 64 + sq) as u8);
            }
        }
        Sample {
            feats,
            black_to_move: r.side == crate::types::Color::Black,
            score: r.score as f32,
            result: r.result as f32 / 2.0,
            target: 0.0,
        }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The scale (hundredths of a man per logit) for which `sigmoid(score / scale)` best
/// predicts the results, searched over 20..=2000.
pub fn fit_scale(samples: &[Sample]) -> f32 {
    let pairs: Vec<(f32, f32)> = samples.iter().map(|x| (x.score, x.result)).collect();
    fit_scale_of_pairs(&pairs)
}

/// [`fit_scale`] on `(score, result)` pairs.
fn fit_scale_of_pairs(pairs: &[(f32, f32)]) -> f32 {
    let err = |s: f32| -> f64 {
        pairs
            .iter()
            .map(|&(score, result)| {
                let d = sigmoid(score / s) - result;
                (d * d) as f64
            })
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (20.0f32, 2000.0f32);
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if err(a) < err(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Whether `r` is held out for validation (one game in `validation_every`, by number).
fn held_out(r: &Record, validation_every: u32) -> bool {
    validation_every > 0 && r.game % validation_every == validation_every - 1
}

/// The scale fitted to the training records of `records` (those not held out by
/// `validation_every`), as [`fit_scale`] fits it.
pub fn fit_scale_of_records(records: &[Record], validation_every: u32) -> f32 {
    let pairs: Vec<(f32, f32)> = records
        .iter()
        .filter(|r| !held_out(r, validation_every))
        .map(|r| (r.score as f32, r.result as f32 / 2.0))
        .collect();
    fit_scale_of_pairs(&pairs)
}

/// Puts the scores of several data sets in one unit: each set's scale is fitted to its
/// own training records, and its scores are multiplied by `unit / scale` (rounded, kept
/// within `i16`), so that a score means the same chance of winning in every set. `unit`
/// defaults to the scale fitted to all the sets together. Returns each set's fitted
/// scale and the unit.
///
/// For data played by successive models, whose scores are in different units (each
/// generation's network scores a man higher than the last), one scale fitted to all of
/// it would make the same score a different target in each set.
pub fn rescale_each(
    sets: &mut [Vec<Record>],
    validation_every: u32,
    unit: Option<f32>,
) -> (Vec<f32>, f32) {
    let scales: Vec<f32> = sets
        .iter()
        .map(|set| fit_scale_of_records(set, validation_every))
        .collect();
    let unit = unit.unwrap_or_else(|| {
        let all: Vec<Record> = sets.iter().flatten().copied().collect();
        fit_scale_of_records(&all, validation_every)
    });
    for (set, &scale) in sets.iter_mut().zip(&scales) {
        let factor = unit / scale;
        for r in set.iter_mut() {
            let s = (r.score as f32 * factor).round();
            r.score = s.clamp(-(i16::MAX as f32), i16::MAX as f32) as i16;
        }
    }
    (scales, unit)
}

/// Thins the endings of a data set: of the records with at most `pieces` pieces on the
/// board, keeps one in `keep_one_in`, chosen by a hash of the record (so the same data
/// always keep the same records); every other record is kept, in order. Returns how many
/// were dropped.
///
/// Self-play games that reach an ending of a few kings play it out to the draw rule, and
/// the same few endings recur from game to game: in scandinavian 70 % of `dama gen`'s
/// positions have 5 pieces or fewer, so most of the training would go to them.
pub fn thin_endgames(records: &mut Vec<Record>, pieces: u32, keep_one_in: u32) -> usize {
    let before = records.len();
    if keep_one_in > 1 {
        records.retain(|r| {
            (r.white | r.black).count_ones() > pieces
                || record_hash(r).is_multiple_of(keep_one_in as u64)
        });
    }
    before - records.len()
}

/// A hash of every field of a record but its score (splitmix64 steps).
fn record_hash(r: &Record) -> u64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let side = matches!(r.side, crate::types::Color::Black) as u64;
    let tail = (r.game as u64) << 16 | (r.result as u64) << 1 | side;
    [r.white, r.black, r.kings, tail]
        .iter()
        .fold(0x9E37_79B9_7F4A_7C15, |h, &x| mix(h ^ x))
}

/// The float dense layers of one head (see [`crate::eval::network::Head`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatHead {
    /// `L2` rows of `2 * width` weights, one row after the other.
    w2: Vec<f32>,
    b2: [f32; L2],
    w3: [[f32; L2]; L3],
    b3: [f32; L3],
    w4: [f32; L3],
    b4: f32,
}

impl FloatHead {
    fn zeros(width: usize) -> FloatHead {
        FloatHead {
            w2: vec![0.0; L2 * 2 * width],
            b2: [0.0; L2],
            w3: [[0.0; L2]; L3],
            b3: [0.0; L3],
            w4: [0.0; L3],
            b4: 0.0,
        }
    }

    fn zip_mut(&mut self, other: &FloatHead, f: &mut impl FnMut(&mut f32, f32)) {
        zip(&mut self.w2, &other.w2, f);
        zip(&mut self.b2, &other.b2, f);
        for (a, b) in self.w3.iter_mut().zip(&other.w3) {
            zip(a, b, f);
        }
        zip(&mut self.b3, &other.b3, f);
        zip(&mut self.w4, &other.w4, f);
        f(&mut self.b4, other.b4);
    }
}

/// Applies `f` to each parameter of `a` with the matching one of `b`.
fn zip(a: &mut [f32], b: &[f32], f: &mut impl FnMut(&mut f32, f32)) {
    a.iter_mut().zip(b).for_each(|(x, y)| f(x, *y));
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// First-layer width per perspective (one of [`WIDTHS`]).
    width: usize,
    /// `INPUTS` rows of `width` weights, one row after the other.
    w1: Vec<f32>,
    b1: Vec<f32>,
    heads: Vec<FloatHead>,
    start_pieces: u32,
}

impl FloatNet {
    fn zeros_like(other: &FloatNet) -> FloatNet {
        FloatNet::zeros(other.width, other.heads.len(), other.start_pieces)
    }

    fn zeros(width: usize, heads: usize, start_pieces: u32) -> FloatNet {
        FloatNet {
            width,
            w1: vec![0.0; INPUTS * width],
            b1: vec![0.0; width],
            heads: vec![FloatHead::zeros(width); heads.max(1)],
            start_pieces,
        }
    }

    /// The first-layer width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Random initial weights from `seed`, one head, the default width.
    pub fn random(seed: u64) -> FloatNet {
        FloatNet::random_with(seed, 1, 24)
    }

    /// Random initial weights from `seed`, the default width, with `heads` heads chosen
    /// by the piece count of a game that starts with `start_pieces` pieces.
    pub fn random_with(seed: u64, heads: usize, start_pieces: u32) -> FloatNet {
        FloatNet::random_wide(seed, L1, heads, start_pieces).expect("the default width runs")
    }

    /// [`FloatNet::random_with`] with a first layer of `width`; an error unless `width`
    /// is one of [`WIDTHS`].
    pub fn random_wide(
        seed: u64,
        width: usize,
        heads: usize,
        start_pieces: u32,
    ) -> Result<FloatNet, String> {
        if !WIDTHS.contains(&width) {
            return Err(format!(
                "a first layer of width {width} is not one this build runs ({WIDTHS:?})"
            ));
        }
        let mut rng = StdRng::seed_from_u64(seed);
        let mut n = FloatNet::zeros(width, heads, start_pieces);
        let mut u = |a: f32| rng.gen_range(-a..a);
        n.w1.iter_mut().for_each(|x| *x = u(0.15));
        n.b1.iter_mut().for_each(|x| *x = 0.25 + u(0.25));
        for h in n.heads.iter_mut() {
            let a2 = (6.0f32 / (2 * width) as f32).sqrt();
            h.w2.iter_mut().for_each(|x| *x = u(a2));
            let a3 = (6.0f32 / L2 as f32).sqrt();
            for row in h.w3.iter_mut() {
                row.iter_mut().for_each(|x| *x = u(a3));
            }
            let a4 = (6.0f32 / L3 as f32).sqrt();
            h.w4.iter_mut().for_each(|x| *x = u(a4) * 0.5);
        }
        Ok(n)
    }

    /// Applies `f` to every parameter of `self` with the matching one of `other`.
    fn zip_mut(&mut self, other: &FloatNet, mut f: impl FnMut(&mut f32, f32)) {
        zip(&mut self.w1, &other.w1, &mut f);
        zip(&mut self.b1, &other.b1, &mut f);
        for (a, b) in self.heads.iter_mut().zip(&other.heads) {
            a.zip_mut(b, &mut f);
        }
    }

    /// The head a sample goes through.
    #[inline]
    fn bucket(&self, s: &Sample) -> usize {
        bucket_of(s.feats.len() as u32, self.heads.len(), self.start_pieces)
    }

    /// The first-layer weights of input `f`.
    #[inline(always)]
    fn row(&self, f: usize) -> &[f32] {
        &self.w1[f * self.width..(f + 1) * self.width]
    }

    /// The output logit of a sample, with the intermediate values when `tape` is given.
    #[inline]
    fn forward(&self, s: &Sample, tape: Option<&mut Tape>) -> f32 {
        let w = self.width;
        let mut acc = [[0.0f32; L1_MAX]; 2]; // [White view, Black view]
        acc[0][..w].copy_from_slice(&self.b1);
        acc[1][..w].copy_from_slice(&self.b1);
        for &f in &s.feats {
            let (rw, rb) = (self.row(f as usize), self.row(flip(f)));
            for j in 0..w {
                acc[0][j] += rw[j];
            }
            for j in 0..w {
                acc[1][j] += rb[j];
            }
        }
        let (us, them) = if s.black_to_move { (1, 0) } else { (0, 1) };
        let mut x = [0.0f32; 2 * L1_MAX];
        for j in 0..w {
            x[j] = acc[us][j].clamp(0.0, 1.0);
            x[w + j] = acc[them][j].clamp(0.0, 1.0);
        }
        let bucket = self.bucket(s);
        let h = &self.heads[bucket];
        let mut z2 = [0.0f32; L2];
        let mut h2 = [0.0f32; L2];
        for k in 0..L2 {
            let row = &h.w2[k * 2 * w..(k + 1) * 2 * w];
            let mut sum = 0.0f32;
            for j in 0..2 * w {
                sum += row[j] * x[j];
            }
            z2[k] = sum + h.b2[k];
            h2[k] = z2[k].clamp(0.0, 1.0);
        }
        let mut z3 = [0.0f32; L3];
        let mut h3 = [0.0f32; L3];
        for k in 0..L3 {
            let mut sum = h.b3[k];
            for j in 0..L2 {
                sum += h.w3[k][j] * h2[j];
            }
            z3[k] = sum;
            h3[k] = sum.clamp(0.0, 1.0);
        }
        let mut y = h.b4;
        for k in 0..L3 {
            y += h.w4[k] * h3[k];
        }
        if let Some(t) = tape {
            t.acc = acc;
            t.x = x;
            t.z2 = z2;
            t.h2 = h2;
            t.z3 = z3;
            t.h3 = h3;
            t.us = us;
            t.bucket = bucket;
        }
        y
    }

    /// Adds the gradient of one sample's loss to `g`; returns the loss.
    fn backward(&self, s: &Sample, g: &mut FloatNet, t: &mut Tape) -> f32 {
        let w = self.width;
        let y = self.forward(s, Some(t));
        let p = sigmoid(y);
        let loss = (p - s.target) * (p - s.target);
        let dy = 2.0 * (p - s.target) * p * (1.0 - p);
        let h = &self.heads[t.bucket];
        let gh = &mut g.heads[t.bucket];
        gh.b4 += dy;
        let mut dz3 = [0.0f32; L3];
        for k in 0..L3 {
            gh.w4[k] += dy * t.h3[k];
            if t.z3[k] > 0.0 && t.z3[k] < 1.0 {
                dz3[k] = dy * h.w4[k];
            }
        }
        let mut dh2 = [0.0f32; L2];
        for k in 0..L3 {
            if dz3[k] == 0.0 {
                continue;
            }
            gh.b3[k] += dz3[k];
            for j in 0..L2 {
                gh.w3[k][j] += dz3[k] * t.h2[j];
                dh2[j] += dz3[k] * h.w3[k][j];
            }
        }
        let mut dx = [0.0f32; 2 * L1_MAX];
        for k in 0..L2 {
            if !(t.z2[k] > 0.0 && t.z2[k] < 1.0) || dh2[k] == 0.0 {
                continue;
            }
            let d = dh2[k];
            gh.b2[k] += d;
            let row = &h.w2[k * 2 * w..(k + 1) * 2 * w];
            let grow = &mut gh.w2[k * 2 * w..(k + 1) * 2 * w];
            for j in 0..2 * w {
                grow[j] += d * t.x[j];
                dx[j] += d * row[j];
            }
        }
        let mut dacc = [[0.0f32; L1_MAX]; 2];
        let them = 1 - t.us;
        for j in 0..w {
            let a = t.acc[t.us][j];
            if a > 0.0 && a < 1.0 {
                dacc[t.us][j] = dx[j];
            }
            let b = t.acc[them][j];
            if b > 0.0 && b < 1.0 {
                dacc[them][j] = dx[w + j];
            }
        }
        for j in 0..w {
            g.b1[j] += dacc[0][j] + dacc[1][j];
        }
        for &f in &s.feats {
            let (fw, fb) = (f as usize, flip(f));
            let grow = &mut g.w1[fw * w..(fw + 1) * w];
            for j in 0..w {
                grow[j] += dacc[0][j];
            }
            let grow = &mut g.w1[fb * w..(fb + 1) * w];
            for j in 0..w {
                grow[j] += dacc[1][j];
            }
        }
        loss
    }

    /// The integer network (`scale` hundredths of a man per logit).
    pub fn quantize(&self, scale: f32) -> Network {
        let q = |x: f32, m: i32| (x * m as f32).round() as i32;
        let mut n = Network::zeros_wide(self.width, self.heads.len(), self.start_pieces)
            .expect("a float network has a width the build runs");
        for (dst, src) in n.w1.iter_mut().zip(&self.w1) {
            *dst = q(*src, QA) as i16;
        }
        for (dst, src) in n.b1.iter_mut().zip(&self.b1) {
            *dst = q(*src, QA) as i16;
        }
        for (nh, h) in n.heads.iter_mut().zip(&self.heads) {
            for (dst, src) in nh.w2.iter_mut().zip(&h.w2) {
                *dst = q(*src, QB) as i16;
            }
            for k in 0..L2 {
                nh.b2[k] = q(h.b2[k], QA * QB);
            }
            for k in 0..L3 {
                for j in 0..L2 {
                    nh.w3[k][j] = q(h.w3[k][j], QB) as i16;
                }
                nh.b3[k] = q(h.b3[k], QA * QB);
                nh.w4[k] = q(h.w4[k], QB) as i16;
            }
            nh.b4 = q(h.b4, QA * QB);
        }
        n.scale = scale.round().max(1.0) as i32;
        n
    }
}

/// The intermediate values of one forward pass (room for the widest first layer).
struct Tape {
    acc: [[f32; L1_MAX]; 2],
    x: [f32; 2 * L1_MAX],
    z2: [f32; L2],
    h2: [f32; L2],
    z3: [f32; L3],
    h3: [f32; L3],
    us: usize,
    bucket: usize,
}

impl Tape {
    fn new() -> Tape {
        Tape {
            acc: [[0.0; L1_MAX]; 2],
            x: [0.0; 2 * L1_MAX],
            z2: [0.0; L2],
            h2: [0.0; L2],
            z3: [0.0; L3],
            h3: [0.0; L3],
            us: 0,
            bucket: 0,
        }
    }
}

/// Mean loss of `net` over `samples` (in parallel, summed in a fixed order).
pub fn mean_loss(net: &FloatNet, samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let parts: Vec<f64> = samples
        .par_chunks(samples.len().div_ceil(CHUNKS).max(1))
        .map(|c| {
            c.iter()
                .map(|s| {
                    let d = sigmoid(net.forward(s, None)) - s.target;
                    (d * d) as f64
                })
                .sum::<f64>()
        })
        .collect();
    parts.iter().sum::<f64>() / samples.len() as f64
}

/// The training samples the loss before the first step is measured on, at most.
pub const INITIAL_LOSS_SAMPLES: usize = 1 << 16;

/// What one epoch reports.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// 1-based epoch number.
    pub epoch: usize,
    /// Mean training loss during the epoch.
    pub train_loss: f64,
    /// Mean validation loss after it.
    pub validation_loss: f64,
    /// The learning rate used.
    pub lr: f32,
}

/// The outcome of training.
#[derive(Clone, Debug)]
pub struct Trained {
    /// The float network.
    pub float: FloatNet,
    /// The scale used (hundredths of a man per logit).
    pub scale: f32,
    /// Training and validation positions.
    pub sizes: (usize, usize),
    /// Validation loss before the first step.
    pub initial_validation_loss: f64,
    /// Training loss before the first step, over at most [`INITIAL_LOSS_SAMPLES`] evenly
    /// spaced training samples.
    pub initial_train_loss: f64,
    /// Every epoch's losses.
    pub epochs: Vec<EpochReport>,
}

/// A set of squares mirrored left to right (file a <-> file h, ranks unchanged).
pub fn mirror(bb: u64) -> u64 {
    bb.reverse_bits().swap_bytes()
}

/// True when `R`'s rules are unchanged by the left-right mirror: its playable squares are
/// (every piece moves and captures symmetrically in all five rule sets; on the 32 dark
/// squares the mirror lands on light squares, so only dameo and croda qualify).
pub fn mirror_symmetric<R: crate::rules::Rules>() -> bool {
    mirror(R::BOARD.0) == R::BOARD.0
        && mirror(R::START_WHITE.0) == R::START_WHITE.0
        && mirror(R::START_BLACK.0) == R::START_BLACK.0
}

/// A record mirrored left to right (see [`mirror`]).
pub fn mirrored(r: &Record) -> Record {
    Record {
        white: mirror(r.white),
        black: mirror(r.black),
        kings: mirror(r.kings),
        ..*r
    }
}

/// Splits records into training and validation samples (by game number) and sets their
/// targets; returns (train, validation, scale). With `cfg.mirror`, each record's mirror
/// image goes to the same side of the split as the record.
pub fn prepare(records: &[Record], cfg: &TrainConfig) -> (Vec<Sample>, Vec<Sample>, f32) {
    let mut train = Vec::new();
    let mut valid = Vec::new();
    for r in records {
        let to_valid = held_out(r, cfg.validation_every);
        push_samples(if to_valid { &mut valid } else { &mut train }, r, cfg);
    }
    let scale = cfg.scale.unwrap_or_else(|| fit_scale(&train));
    set_targets(train.iter_mut().chain(valid.iter_mut()), cfg, scale);
    (train, valid, scale)
}

/// Appends the samples of `r` to `set`: the record, and its mirror image with `cfg.mirror`.
fn push_samples(set: &mut Vec<Sample>, r: &Record, cfg: &TrainConfig) {
    set.push(Sample::of(r));
    if cfg.mirror {
        set.push(Sample::of(&mirrored(r)));
    }
}

/// Sets each sample's target: `cfg.lambda` of the score's sigmoid at `scale`, the rest
/// the result.
fn set_targets<'a>(samples: impl Iterator<Item = &'a mut Sample>, cfg: &TrainConfig, scale: f32) {
    for s in samples {
        s.target = cfg.lambda * sigmoid(s.score / scale) + (1.0 - cfg.lambda) * s.result;
    }
}

/// What training reports as it goes (for progress output: the result does not depend on
/// what is done with them).
#[derive(Clone, Copy, Debug)]
pub enum TrainEvent<'a> {
    /// The samples are split and their targets set; the first step comes next.
    Prepared {
        /// Training samples (mirror images included).
        train: usize,
        /// Validation samples.
        validation: usize,
        /// The scale of the targets (hundredths of a man per logit).
        scale: f32,
        /// Steps (batches) in each epoch.
        steps_per_epoch: usize,
    },
    /// A step (one batch) is done.
    Step {
        /// The 1-based epoch it belongs to.
        epoch: usize,
        /// Steps done in this epoch.
        done: usize,
        /// Mean training loss over this epoch's steps so far.
        train_loss: f64,
    },
    /// An epoch is done.
    Epoch(&'a EpochReport),
}

/// The validation samples of [`prepare`] alone, their targets set with `scale` (the one
/// [`prepare`] returned): the training samples are not built.
pub fn validation_samples(records: &[Record], cfg: &TrainConfig, scale: f32) -> Vec<Sample> {
    let mut valid = Vec::new();
    for r in records.iter().filter(|r| held_out(r, cfg.validation_every)) {
        push_samples(&mut valid, r, cfg);
    }
    set_targets(valid.iter_mut(), cfg, scale);
    valid
}

/// Trains a network on `records`; `progress` sees each step and each epoch's report.
pub fn train(
    records: &[Record],
    cfg: &TrainConfig,
    progress: &mut dyn FnMut(TrainEvent),
) -> Trained {
    let (train, valid, scale) = prepare(records, cfg);
    let batch = cfg.batch.max(CHUNKS);
    progress(TrainEvent::Prepared {
        train: train.len(),
        validation: valid.len(),
        scale,
        steps_per_epoch: train.len().div_ceil(batch),
    });
    let mut net = FloatNet::random_wide(cfg.seed, cfg.width, cfg.heads, cfg.start_pieces)
        .expect("the width is checked by the caller");
    let initial_validation_loss = mean_loss(&net, &valid);
    // On evenly spaced samples: the whole set would take as long as a tenth of an epoch.
    let spaced: Vec<Sample> = train
        .iter()
        .step_by(train.len().div_ceil(INITIAL_LOSS_SAMPLES).max(1))
        .cloned()
        .collect();
    let initial_train_loss = mean_loss(&net, &spaced);
    let mut m = FloatNet::zeros_like(&net);
    let mut v = FloatNet::zeros_like(&net);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut lr = cfg.lr;
    let mut epochs = Vec::new();
    for epoch in 1..=cfg.epochs {
        let mut rng = StdRng::seed_from_u64(cfg.seed.wrapping_add(epoch as u64 * 7919));
        order.shuffle(&mut rng);
        let mut loss_sum = 0.0f64;
        let mut seen = 0usize;
        for (done, idx) in order.chunks(batch).enumerate() {
            let chunk = idx.len().div_ceil(CHUNKS).max(1);
            let parts: Vec<(FloatNet, f64)> = idx
                .par_chunks(chunk)
                .map(|c| {
                    let mut g = FloatNet::zeros_like(&net);
                    let mut tape = Tape::new();
                    let mut l = 0.0f64;
                    for &i in c {
                        l += net.backward(&train[i as usize], &mut g, &mut tape) as f64;
                    }
                    (g, l)
                })
                .collect();
            let mut grad = FloatNet::zeros_like(&net);
            for (g, l) in &parts {
                grad.zip_mut(g, |a, b| *a += b);
                loss_sum += l;
            }
            let n = idx.len() as f32;
            step += 1;
            let c1 = 1.0 - b1.powi(step);
            let c2 = 1.0 - b2.powi(step);
            m.zip_mut(&grad, |mm, g| *mm = b1 * *mm + (1.0 - b1) * g / n);
            v.zip_mut(&grad, |vv, g| {
                let g = g / n;
                *vv = b2 * *vv + (1.0 - b2) * g * g
            });
            // net -= lr * mhat / (sqrt(vhat) + eps), one parameter at a time.
            let mut upd = m.clone();
            upd.zip_mut(&v, |mm, vv| {
                *mm = lr * (*mm / c1) / ((vv / c2).sqrt() + eps)
            });
            net.zip_mut(&upd, |w, u| *w -= u);
            clip(&mut net);
            seen += idx.len();
            progress(TrainEvent::Step {
                epoch,
                done: done + 1,
                train_loss: loss_sum / seen as f64,
            });
        }
        let report = EpochReport {
            epoch,
            train_loss: loss_sum / train.len().max(1) as f64,
            validation_loss: mean_loss(&net, &valid),
            lr,
        };
        progress(TrainEvent::Epoch(&report));
        epochs.push(report);
        lr *= cfg.lr_decay;
    }
    Trained {
        float: net,
        scale,
        sizes: (train.len(), valid.len()),
        initial_validation_loss,
        initial_train_loss,
        epochs,
    }
}

/// Keeps the weights where the integer network can hold them.
fn clip(n: &mut FloatNet) {
    n.w1.iter_mut()
        .for_each(|x| *x = x.clamp(-W1_BOUND, W1_BOUND));
    n.b1.iter_mut()
        .for_each(|x| *x = x.clamp(-W1_BOUND, W1_BOUND));
    for h in n.heads.iter_mut() {
        h.w2.iter_mut()
            .for_each(|x| *x = x.clamp(-DENSE_BOUND, DENSE_BOUND));
        for row in h.w3.iter_mut() {
            row.iter_mut()
                .for_each(|x| *x = x.clamp(-DENSE_BOUND, DENSE_BOUND));
        }
        h.w4.iter_mut()
            .for_each(|x| *x = x.clamp(-DENSE_BOUND, DENSE_BOUND));
    }
}

/// Mean absolute difference, in hundredths of a man, between the float network's and
/// the integer network's evaluations over `samples` (a check of the quantisation).
pub fn quantization_error(float: &FloatNet, int: &Network, scale: f32, samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut sum = 0.0f64;
    for s in samples {
        let yf = float.forward(s, None) * scale;
        let w = int.width;
        let mut acc = crate::eval::network::Accumulator::default();
        acc.v[0][..w].copy_from_slice(&int.b1);
        acc.v[1][..w].copy_from_slice(&int.b1);
        for &f in &s.feats {
            let (rw, rb) = (int.row(f as usize), int.row(flip(f)));
            for j in 0..w {
                acc.v[0][j] = acc.v[0][j].wrapping_add(rw[j]);
                acc.v[1][j] = acc.v[1][j].wrapping_add(rb[j]);
            }
        }
        let side = if s.black_to_move {
            crate::types::Color::Black
        } else {
            crate::types::Color::White
        };
        let yi = int.evaluate(&acc, side, s.feats.len() as u32) as f32;
        sum += (yf - yi).abs() as f64;
    }
    sum / samples.len() as f64
}
