//! Playing levels for people: [`Skill`], from 1 (a beginner's partner) to 10 (full
//! strength).
//!
//! Below level 10 the engine searches every root move as a line of its own (multi-PV)
//! within a small node budget and a depth cap that grow with the level, then draws its
//! move among the lines at random, a line's chance falling off exponentially with how
//! much worse than the best it scores (a softmax over the scores, with a temperature that
//! falls as the level rises). So a level:
//! - sees combinations only as deep as its budget: a low level misses what a person at
//!   that level misses, the short shots included at the lowest levels;
//! - slips where moves are close (small losses are likely, large ones rare), and leaves
//!   a man hanging often only at the lowest levels, where the temperature is near a man;
//! - varies its games: the same position does not always get the same reply;
//! - answers quickly whatever the time given (the node budget), and never takes more than
//!   the time given (the budget only narrows the limits).
//!
//! The draw is made from a number the caller passes ([`Skill::noise`]): from a fixed seed
//! and the position it is reproducible; from entropy the games differ. Level 10 is the
//! engine as it always plays: one line, no draw, no budget. The measured strength of each
//! level is in `docs/levels.md`.

use crate::engine::search::{Info, SearchResult};
use crate::engine::time::Limits;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Score;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// How one level below full strength searches and chooses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting {
    /// The node budget of a move (all lines together).
    pub nodes: u64,
    /// The deepest iteration.
    pub depth: u32,
    /// The softmax temperature, in men: a move a man worse than the best is chosen
    /// `exp(-1 / temperature)` times as often.
    pub temperature: f64,
    /// Plies of the game during which the opening book is used (when one is set).
    pub book_plies: u32,
}

/// Levels 1 to 9, in order (level 10 is full strength).
pub const SETTINGS: [Setting; 9] = [
    Setting {
        nodes: 150,
        depth: 1,
        temperature: 1.20,
        book_plies: 2,
    },
    Setting {
        nodes: 450,
        depth: 2,
        temperature: 0.95,
        book_plies: 4,
    },
    Setting {
        nodes: 1_200,
        depth: 3,
        temperature: 0.62,
        book_plies: 6,
    },
    Setting {
        nodes: 3_000,
        depth: 5,
        temperature: 0.42,
        book_plies: 8,
    },
    Setting {
        nodes: 9_000,
        depth: 6,
        temperature: 0.33,
        book_plies: 10,
    },
    Setting {
        nodes: 18_000,
        depth: 7,
        temperature: 0.23,
        book_plies: 12,
    },
    Setting {
        nodes: 40_000,
        depth: 9,
        temperature: 0.16,
        book_plies: 14,
    },
    Setting {
        nodes: 75_000,
        depth: 11,
        temperature: 0.08,
        book_plies: 16,
    },
    Setting {
        nodes: 200_000,
        depth: 40,
        temperature: 0.04,
        book_plies: 18,
    },
];

/// The names of the levels, 1 to 10, as the board shows them.
pub const NAMES: [&str; 10] = [
    "beginner",
    "novice",
    "casual player",
    "improving player",
    "club player",
    "strong club player",
    "expert",
    "master",
    "grandmaster",
    "full strength",
];

/// The scores are clamped this many men below the best before the draw: a line lost by
/// more is as unlikely as one lost by this much (and the weights stay finite).
const MAX_GAP_MEN: f64 = 40.0;

/// A playing level, 1 to [`Skill::FULL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Skill(u32);

impl Default for Skill {
    fn default() -> Self {
        Self::FULL_STRENGTH
    }
}

impl Skill {
    /// Full strength: the engine as it plays without a level.
    pub const FULL: u32 = 10;

    /// Level [`Skill::FULL`], as a constant.
    pub const FULL_STRENGTH: Skill = Skill(Self::FULL);

    /// The level `level`, or an error that gives the range.
    pub fn new(level: u32) -> Result<Skill, String> {
        if (1..=Self::FULL).contains(&level) {
            Ok(Skill(level))
        } else {
            Err(format!("skill {level} is out of range 1-{}", Self::FULL))
        }
    }

    /// The level, 1 to 10.
    pub fn level(self) -> u32 {
        self.0
    }

    /// Whether this is full strength (level 10).
    pub fn is_full(self) -> bool {
        self.0 == Self::FULL
    }

    /// The level in words (`beginner` ... `full strength`).
    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize - 1]
    }

    /// How the level searches; `None` at full strength.
    pub fn setting(self) -> Option<Setting> {
        SETTINGS.get(self.0 as usize - 1).copied()
    }

    /// The limits of a move at this level: `given` narrowed by the level's node budget
    /// and depth cap (never widened: the time given still bounds it).
    pub fn limits(self, given: &Limits) -> Limits {
        let Some(s) = self.setting() else {
            return given.clone();
        };
        Limits {
            depth: Some(given.depth.map_or(s.depth, |d| d.min(s.depth))),
            nodes: Some(given.nodes.map_or(s.nodes, |n| n.min(s.nodes))),
            infinite: false,
            ..given.clone()
        }
    }

    /// Lines to search: one at full strength, else every root move (the search clamps
    /// it to their number).
    pub fn lines(self) -> usize {
        if self.is_full() {
            1
        } else {
            usize::MAX
        }
    }

    /// Whether the opening book may be used at `ply` plies into the game.
    pub fn uses_book(self, ply: usize) -> bool {
        self.setting().is_none_or(|s| ply < s.book_plies as usize)
    }

    /// The number the draw of a move is made from: from `seed` and the position when a
    /// seed is given (the same position, history aside, always gets the same draw), else
    /// from entropy.
    pub fn noise<R: Rules>(seed: Option<u64>, pos: &Position<R>) -> u64 {
        match seed {
            Some(s) => splitmix(s ^ splitmix(pos.hash())),
            None => rand::random(),
        }
    }

    /// The index of the line to play among `lines` (each a root move's line, any order),
    /// drawn from `noise`; `man` is a man's worth in the evaluation's hundredths (see
    /// [`crate::engine::search::settings::skill_man`]). At full strength, the best
    /// line. `None` when there is no line.
    pub fn choose(self, lines: &[Info], man: Score, noise: u64) -> Option<usize> {
        let best = lines.iter().map(|l| l.score).max()?;
        let Some(s) = self.setting() else {
            return lines.iter().position(|l| l.score == best);
        };
        let scale = s.temperature * f64::from(man.max(1));
        let weights: Vec<f64> = lines
            .iter()
            .map(|l| {
                let gap = (f64::from(best) - f64::from(l.score)) / scale;
                (-gap.min(MAX_GAP_MEN / s.temperature)).exp()
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = StdRng::seed_from_u64(noise).gen::<f64>() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return Some(i);
            }
            x -= w;
        }
        // Rounding left a sliver past the last weight: the best line.
        lines.iter().position(|l| l.score == best)
    }
}

impl Skill {
    /// Makes `result` (a search of [`Skill::limits`] with [`Skill::lines`] in the rules
    /// `R`) this level's move: `best` and `ponder` become those of the line drawn from
    /// `noise`; `lines` stay as they are, best first. At full strength, nothing changes.
    pub fn pick<R: Rules>(self, result: &mut SearchResult, noise: u64) {
        if self.is_full() {
            return;
        }
        let man = crate::engine::search::settings::skill_man(R::VARIANT);
        if let Some(i) = self.choose(&result.lines, man, noise) {
            let line = &result.lines[i];
            if let Some(first) = line.pv.first() {
                result.best = Some(*first);
                result.ponder = line.pv.get(1).copied();
            }
        }
    }
}

/// SplitMix64's finaliser: spreads a seed's bits over the whole word.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn line(score: Score) -> Info {
        Info {
            depth: 1,
            seldepth: 1,
            score,
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            multipv: 1,
            hashfull: 0,
            egdb: None,
            egdb_hits: 0,
        }
    }

    #[test]
    fn levels_and_their_range() {
        assert_eq!(Skill::default(), Skill::new(10).unwrap());
        assert!(Skill::default().is_full());
        assert_eq!(
            Skill::new(0),
            Err("skill 0 is out of range 1-10".to_string())
        );
        assert_eq!(
            Skill::new(11),
            Err("skill 11 is out of range 1-10".to_string())
        );
        assert_eq!(Skill::new(1).unwrap().name(), "beginner");
        assert_eq!(Skill::new(10).unwrap().name(), "full strength");
        // Each level searches more and draws less at random than the one below.
        for w in SETTINGS.windows(2) {
            assert!(w[0].nodes < w[1].nodes && w[0].depth < w[1].depth);
            assert!(w[0].temperature > w[1].temperature);
            assert!(w[0].book_plies < w[1].book_plies);
        }
    }

    #[test]
    fn limits_only_narrow() {
        let one = Skill::new(1).unwrap();
        let given = Limits {
            movetime: Some(Duration::from_millis(10)),
            depth: Some(1),
            ..Limits::default()
        };
        let l = one.limits(&given);
        assert_eq!(
            (l.depth, l.nodes, l.movetime),
            (Some(1), Some(SETTINGS[0].nodes), given.movetime)
        );
        let l = one.limits(&Limits {
            infinite: true,
            nodes: Some(5),
            ..Limits::default()
        });
        assert_eq!(
            (l.depth, l.nodes, l.infinite),
            (Some(SETTINGS[0].depth), Some(5), false)
        );
        let full = Skill::default();
        assert_eq!(full.limits(&given), given);
        assert_eq!(full.lines(), 1);
    }

    #[test]
    fn the_draw_follows_the_gaps() {
        let lines = [line(0), line(-100), line(-20), line(-3000)];
        let draws = |level: u32| {
            let skill = Skill::new(level).unwrap();
            let mut counts = [0u32; 4];
            for noise in 0..20_000u64 {
                counts[skill.choose(&lines, 100, splitmix(noise)).unwrap()] += 1;
            }
            counts
        };
        let low = draws(1);
        let mid = draws(5);
        // A man left hanging is played exp(-1 / temperature) times as often as the best
        // move: at level 1 a little under half as often, at level 5 one time in 21.
        let ratio = |c: [u32; 4]| f64::from(c[1]) / f64::from(c[0]);
        let expected = |level: usize| (-1.0 / SETTINGS[level - 1].temperature).exp();
        assert!((ratio(low) - expected(1)).abs() < 0.03, "{low:?}");
        assert!((ratio(mid) - expected(5)).abs() < 0.01, "{mid:?}");
        assert!(expected(1) > 0.4 && expected(5) < 0.1);
        // A lost game (30 men down) is never drawn, and at full strength only the best.
        assert_eq!(low[3], 0);
        assert_eq!(draws(10), [20_000, 0, 0, 0]);
        // The lines may come in any order: full strength finds the best wherever it is.
        assert_eq!(
            Skill::default().choose(&[line(-5), line(9)], 100, 7),
            Some(1)
        );
        assert_eq!(Skill::new(3).unwrap().choose(&[], 100, 7), None);
    }

    #[test]
    fn noise_from_a_seed_is_reproducible() {
        use crate::rules::English;
        let start = Position::<English>::start();
        let a = Skill::noise(Some(1), &start);
        assert_eq!(a, Skill::noise(Some(1), &start));
        assert_ne!(a, Skill::noise(Some(2), &start));
        let next = start.play(&crate::movegen::legal_moves(&start)[0]);
        assert_ne!(a, Skill::noise(Some(1), &next));
    }
}
