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
}
