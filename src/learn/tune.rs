//! The evaluation tuner: logistic regression of the linear evaluation on positions from
//! self-play games labelled with the games' results (Texel's method).
//!
//! `dama tune` plays games with the current weights, keeps the quiet positions after the
//! opening, and minimises the mean squared error between each game's result and
//! `sigmoid(k * eval / 100)` by gradient descent (the man's value stays at 100 to fix the
//! scale). It writes the weights in the text format of [`crate::eval::classic::Weights::parse`].

#![allow(clippy::needless_range_loop)] // parallel arrays of features and weights

use crate::eval::classic::{draw_scale, features, Weights, FEATURES};
use crate::movegen;
use crate::play::selfplay::Record;
use crate::rules::Rules;
use crate::types::Color;

/// One training position: its features, tempo sign, draw scale and White's game score.
#[derive(Clone, Debug)]
pub struct Sample {
    f: [i32; FEATURES],
    tempo: i32,
    scale: i32,
    result: f64,
}

/// The quiet positions of finished games (after the opening), labelled with the result.
pub fn samples<R: Rules>(records: &[Record<R>]) -> Vec<Sample> {
    let mut out = Vec::new();
    for r in records {
        for pos in &r.game.positions()[r.opening_plies..] {
            if movegen::has_capture(pos) || !movegen::has_moves(pos) {
                continue;
            }
            out.push(Sample {
                f: features(pos),
                tempo: if pos.side() == Color::White { 1 } else { -1 },
                scale: draw_scale(pos),
                result: r.white_score,
            });
        }
    }
    out
}

/// White's evaluation of a sample under `w` (as the engine computes it, before the side
/// to move's sign).
fn eval(s: &Sample, w: &[f64; FEATURES + 1]) -> f64 {
    let mut e = 0.0;
    for i in 0..FEATURES {
        e += w[i] * s.f[i] as f64;
    }
    e * s.scale as f64 / 64.0 + w[FEATURES] * s.tempo as f64
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 100.0).exp())
}

/// Mean squared error of the predictions.
pub fn error(samples: &[Sample], w: &[f64; FEATURES + 1], k: f64) -> f64 {
    let n = samples.len().max(1) as f64;
    samples
        .iter()
        .map(|s| (sigmoid(k, eval(s, w)) - s.result).powi(2))
        .sum::<f64>()
        / n
}

fn as_vec(w: &Weights) -> [f64; FEATURES + 1] {
    let mut v = [0.0; FEATURES + 1];
    for i in 0..FEATURES {
        v[i] = w.values[i] as f64;
    }
    v[FEATURES] = w.tempo as f64;
    v
}

/// The scaling constant `k` that best fits the results with the weights `w`.
pub fn fit_k(samples: &[Sample], w: &Weights) -> f64 {
    let v = as_vec(w);
    let mut best = (f64::MAX, 1.0);
    let mut k = 0.1;
    while k <= 4.0 {
        let e = error(samples, &v, k);
        if e < best.0 {
            best = (e, k);
        }
        k += 0.05;
    }
    best.1
}

/// Report of a tuning run.
#[derive(Clone, Debug)]
pub struct Tuned {
    /// The tuned weights.
    pub weights: Weights,
    /// The fitted scaling constant.
    pub k: f64,
    /// Error before and after.
    pub error_before: f64,
    /// Error after tuning.
    pub error_after: f64,
}

/// Features that stay at their start value: the man (it fixes the scale) and the men on
/// the first rank above home (the rank counts add up to the men count, so one of them
/// must be fixed for the others to mean something).
const FROZEN: [usize; 2] = [0, 2];

/// Gradient descent (Adam) from `start` for `epochs` passes, minimising the mean squared
/// error plus `lambda * Σ ((w - w_start) / 100)²`, which keeps the weights near the
/// hand-set ones unless the games clearly say otherwise.
pub fn tune(samples: &[Sample], start: &Weights, epochs: usize, lambda: f64) -> Tuned {
    let k = fit_k(samples, start);
    let w0 = as_vec(start);
    let mut w = w0;
    let before = error(samples, &w, k);
    let (mut m, mut v) = ([0.0f64; FEATURES + 1], [0.0f64; FEATURES + 1]);
    let (b1, b2, lr, eps) = (0.9, 0.999, 1.0, 1e-8);
    let n = samples.len().max(1) as f64;
    for t in 1..=epochs {
        let mut g = [0.0f64; FEATURES + 1];
        for s in samples {
            let p = sigmoid(k, eval(s, &w));
            // d/dw (p - y)^2 = 2 (p - y) p (1 - p) k/100 * de/dw
            let common = 2.0 * (p - s.result) * p * (1.0 - p) * k / 100.0;
            let scale = s.scale as f64 / 64.0;
            for i in 0..FEATURES {
                g[i] += common * s.f[i] as f64 * scale;
            }
            g[FEATURES] += common * s.tempo as f64;
        }
        for i in 0..=FEATURES {
            if FROZEN.contains(&i) {
                continue;
            }
            let gi = g[i] / n + 2.0 * lambda * (w[i] - w0[i]) / 10_000.0;
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps);
        }
    }
    let after = error(samples, &w, k);
    let mut out = start.clone();
    for i in 0..FEATURES {
        out.values[i] = w[i].round() as i32;
    }
    out.tempo = w[FEATURES].round() as i32;
    Tuned {
        weights: out,
        k,
        error_before: before,
        error_after: after,
    }
}
