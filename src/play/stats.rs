//! Match statistics: score, Elo difference with a 95% error margin from pentanomial
//! (game-pair) or trinomial counts, and the sequential probability ratio test.

/// Results of a match from the first player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Game pairs (same opening, colours swapped) by total score 0, ½, 1, 1½, 2.
    pub pairs: [u32; 5],
}

impl Tally {
    /// Records one game: `score` is 0, 0.5 or 1 for the first player.
    pub fn add_game(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Records a game pair with total score 0..=2 (in halves).
    pub fn add_pair(&mut self, total: f64) {
        let i = (total * 2.0).round().clamp(0.0, 4.0) as usize;
        self.pairs[i] += 1;
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's mean score per game (0-1).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// (Elo difference, 95% margin). The margin comes from the game pairs when there
    /// are any (pentanomial), otherwise from the single games (trinomial).
    pub fn elo(&self) -> (f64, f64) {
        let s = self.score();
        let npairs: u32 = self.pairs.iter().sum();
        let se = if npairs > 1 {
            // Per-pair score in 0..1: 0, 0.25, 0.5, 0.75, 1.
            let mean = (0..5)
                .map(|i| self.pairs[i] as f64 * i as f64 / 4.0)
                .sum::<f64>()
                / npairs as f64;
            let var = (0..5)
                .map(|i| self.pairs[i] as f64 * (i as f64 / 4.0 - mean).powi(2))
                .sum::<f64>()
                / npairs as f64;
            (var / npairs as f64).sqrt()
        } else {
            let n = self.games().max(1) as f64;
            let var = (self.wins as f64 * (1.0 - s).powi(2)
                + self.draws as f64 * (0.5 - s).powi(2)
                + self.losses as f64 * s.powi(2))
                / n;
            (var / n).sqrt()
        };
        let elo = elo_of(s);
        let lo = elo_of((s - 1.96 * se).max(1e-6));
        let hi = elo_of((s + 1.96 * se).min(1.0 - 1e-6));
        (elo, (hi - lo) / 2.0)
    }
}

/// The state of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The log-likelihood ratio of H1 (elo1) against H0 (elo0).
    pub llr: f64,
    /// Accept H0 at or below this.
    pub lower: f64,
    /// Accept H1 at or above this.
    pub upper: f64,
}

impl Sprt {
    /// `Some(true)` once H1 is accepted, `Some(false)` once H0 is, `None` while open.
    pub fn decision(&self) -> Option<bool> {
        if self.llr >= self.upper {
            Some(true)
        } else if self.llr <= self.lower {
            Some(false)
        } else {
            None
        }
    }
}

impl Tally {
    /// The SPRT of H0: Elo = `elo0` against H1: Elo = `elo1` with error rates `alpha`
    /// and `beta`, on the game pairs (pentanomial), in the normal approximation
    /// `LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v)`, where `m` and `v` are the mean and
    /// variance of the per-game score of a pair and `s0`, `s1` the scores of the two
    /// Elo values.
    pub fn sprt(&self, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
        let lower = (beta / (1.0 - alpha)).ln();
        let upper = ((1.0 - beta) / alpha).ln();
        let n: u32 = self.pairs.iter().sum();
        let llr = if n < 2 {
            0.0
        } else {
            let n = n as f64;
            let mean = (0..5)
                .map(|i| self.pairs[i] as f64 * i as f64 / 4.0)
                .sum::<f64>()
                / n;
            let var = (0..5)
                .map(|i| self.pairs[i] as f64 * (i as f64 / 4.0 - mean).powi(2))
                .sum::<f64>()
                / n;
            // Identical pairs (all won, all lost) have no spread: floor the variance at
            // that of one pair in n differing by a quarter, so that a one-sided run
            // still decides, after more pairs the fewer there are.
            let var = var.max(0.25 / n);
            {
                let (s0, s1) = (score_of(elo0), score_of(elo1));
                n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
            }
        };
        Sprt { llr, lower, upper }
    }
}

/// The Elo difference that gives the expected score `s`.
pub fn elo_of(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_figures_by_hand() {
        // 60% score: -400 log10(1/0.6 - 1) = 70.44 Elo.
        assert!((elo_of(0.6) - 70.437).abs() < 0.01);
        assert!((score_of(70.437) - 0.6).abs() < 1e-4);
        assert_eq!(elo_of(0.5), 0.0);
        // 10 wins, 10 draws, 10 losses: score 0.5, sd per game sqrt(1/6),
        // se = 0.4082/sqrt(30) = 0.07454; 95%: 0.5 ± 0.1461 -> ±(elo(0.6461)) = ±104.4
        let t = Tally {
            wins: 10,
            draws: 10,
            losses: 10,
            pairs: [0; 5],
        };
        let (e, m) = t.elo();
        assert!(e.abs() < 1e-9);
        assert!((m - 104.4).abs() < 0.5, "{m}");
    }

    #[test]
    fn sprt_by_hand() {
        // alpha = beta = 0.05: bounds ln(0.05/0.95) = -2.944, ln(0.95/0.05) = 2.944.
        // 100 pairs: 10 x 0, 20 x 0.25, 40 x 0.5, 20 x 0.75, 10 x 1 (per-game score).
        let mut t = Tally {
            pairs: [10, 20, 40, 20, 10],
            ..Default::default()
        };
        let s = t.sprt(0.0, 5.0, 0.05, 0.05);
        assert!((s.lower + 2.944).abs() < 1e-3 && (s.upper - 2.944).abs() < 1e-3);
        // mean 0.5, var = (10*0.25 + 20*0.0625 + 0 + 20*0.0625 + 10*0.25)/100 = 0.075;
        // s0 = 0.5, s1 = score_of(5) = 0.507195; LLR = 100 * 0.007195 * (1 - 1.007195)
        // / 0.15 = -0.03451.
        assert!((s.llr + 0.03451).abs() < 1e-4, "{}", s.llr);
        assert_eq!(s.decision(), None);
        // A clearly better engine: H1 accepted.
        t.pairs = [0, 10, 100, 200, 90];
        assert_eq!(t.sprt(0.0, 5.0, 0.05, 0.05).decision(), Some(true));
        t.pairs = [90, 200, 100, 10, 0];
        assert_eq!(t.sprt(0.0, 5.0, 0.05, 0.05).decision(), Some(false));
    }
}
