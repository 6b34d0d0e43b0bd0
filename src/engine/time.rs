//! Search limits and time allocation: depth, nodes, fixed time per move, and clock time
//! with increment and moves to go. On a clock the planned time of a move (the soft limit)
//! is scaled by what the iterations learn ([`Stability`]): more when the best move
//! changes or the score falls, less when one move has stood for many iterations, none
//! beyond the first iteration for a forced move; the hard limit is never passed.

use crate::moves::Move;
use crate::types::{Score, MATE_BOUND};
use std::time::{Duration, Instant};

/// What bounds a search. Several limits may be set; the first one reached stops it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Stop after this many completed plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Use exactly this much time for the move.
    pub movetime: Option<Duration>,
    /// Time left on the engine's clock.
    pub time: Option<Duration>,
    /// Increment per move.
    pub increment: Option<Duration>,
    /// Moves until the next time control (none: sudden death).
    pub moves_to_go: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
}

/// Time kept back from every allocation for the process and the protocol.
const OVERHEAD: Duration = Duration::from_millis(5);
/// Time kept back on a clock for the lag between the GUI's clock and the engine's: the
/// move travels through pipes, the GUI and sometimes a network.
const LAG: Duration = Duration::from_millis(20);

/// The share of a move's planned time after which no new iteration begins (GuiNN and
/// Cake begin none past 57-70 % of theirs: `../shared/research/search.md`).
pub const ITERATION_SHARE: f64 = 0.6;

/// The factor of the planned time for an obvious move (one best move kept for
/// [`Stability`]'s iterations).
const OBVIOUS_SCALE: f64 = 0.7;

/// The deadlines of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Do not start a new iteration after this.
    soft: Option<Duration>,
    /// Stop the search at once after this.
    hard: Option<Duration>,
    /// A fixed time per move: use all of it.
    fixed: bool,
}

/// The moves a clock without moves to go is shared over, unless the variant says
/// otherwise (`settings::clock_moves`).
pub const CLOCK_MOVES: u32 = 30;

impl TimeManager {
    /// Deadlines for `limits`, counted from `start`, a clock without moves to go shared
    /// over [`CLOCK_MOVES`] moves.
    pub fn new(limits: &Limits, start: Instant) -> TimeManager {
        TimeManager::with_clock_moves(limits, start, CLOCK_MOVES)
    }

    /// Deadlines for `limits`, counted from `start`; a clock without moves to go plans
    /// each move as if `clock_moves` moves (1 to 50) were left, plus three quarters of
    /// the increment.
    pub fn with_clock_moves(limits: &Limits, start: Instant, clock_moves: u32) -> TimeManager {
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
                fixed: false,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(OVERHEAD).max(Duration::from_millis(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
                fixed: true,
            };
        }
        if let Some(left) = limits.time {
            let inc = limits.increment.unwrap_or_default();
            let mtg = limits.moves_to_go.unwrap_or(clock_moves).clamp(1, 50);
            // Never plan to use more than what is left minus a safety margin.
            let margin = OVERHEAD * 2 + LAG + left / 20;
            let usable = left.saturating_sub(margin);
            let share = usable / mtg + inc * 3 / 4;
            let soft = share.min(usable);
            let hard = (share * 4).min(usable * 2 / 5 + inc / 2).min(usable);
            return TimeManager {
                start,
                soft: Some(soft.max(Duration::from_millis(1))),
                hard: Some(hard.max(Duration::from_millis(1))),
                fixed: false,
            };
        }
        TimeManager {
            start,
            soft: None,
            hard: None,
            fixed: false,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True when the search must stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// True when no new iteration should start, at `elapsed` since the start (a clock of
    /// the caller's, so that tests need no wall time). A forced move (`choices` = 1)
    /// stops after the first iteration; otherwise the soft limit scaled by
    /// `stability` (at most the hard limit) is compared with `elapsed`, and an iteration
    /// is begun only before [`ITERATION_SHARE`] of it, as it would likely not finish
    /// after that.
    pub fn stop_iterating_at(
        &self,
        elapsed: Duration,
        stability: &Stability,
        choices: usize,
    ) -> bool {
        if !self.is_timed() {
            return false;
        }
        if choices <= 1 {
            return true;
        }
        if self.fixed {
            return false;
        }
        let Some(soft) = self.soft else {
            return false;
        };
        let planned = soft.mul_f64(stability.scale());
        let planned = self.hard.map_or(planned, |h| planned.min(h));
        elapsed >= planned.mul_f64(ITERATION_SHARE)
    }

    /// [`TimeManager::stop_iterating_at`] now.
    pub fn stop_iterating(&self, stability: &Stability, choices: usize) -> bool {
        self.stop_iterating_at(self.start.elapsed(), stability, choices)
    }

    /// The time the search plans to use (the soft limit), if timed.
    pub fn budget(&self) -> Option<Duration> {
        self.soft
    }

    /// True when the search has a time limit at all.
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

/// What the iterations of a search say about the move, for the clock: the factor by
/// which the planned time of the move is scaled ([`Stability::scale`]).
#[derive(Clone, Debug)]
pub struct Stability {
    best: Option<Move>,
    /// Best-move changes, each halved at every later iteration.
    changes: f64,
    /// Iterations in a row that kept the best move.
    kept: u32,
    last_score: Option<Score>,
    scale: f64,
}

impl Default for Stability {
    fn default() -> Stability {
        Stability {
            best: None,
            changes: 0.0,
            kept: 0,
            last_score: None,
            scale: 1.0,
        }
    }
}

impl Stability {
    /// Iterations of at least this depth count a change of the best move.
    const CHANGE_DEPTH: u32 = 4;
    /// A best move kept this many iterations in a row, from this depth, is obvious.
    const OBVIOUS_KEPT: u32 = 6;
    /// See [`Stability::OBVIOUS_KEPT`].
    const OBVIOUS_DEPTH: u32 = 8;

    /// Takes in the result of the iteration of `depth`: its best move and score.
    pub fn update(&mut self, depth: u32, best: Move, score: Score) {
        self.changes *= 0.5;
        if self.best == Some(best) {
            self.kept += 1;
        } else {
            if self.best.is_some() && depth >= Self::CHANGE_DEPTH {
                self.changes += 1.0;
            }
            self.kept = 0;
            self.best = Some(best);
        }
        // A fall of the score (not counting forced results) asks for more time: up to
        // 1.8 times for a man and a half.
        let fall = match self.last_score {
            Some(last) if last.abs() < MATE_BOUND && score.abs() < MATE_BOUND => {
                (last - score).clamp(0, 150)
            }
            _ => 0,
        };
        self.last_score = Some(score);
        let unstable = 1.0 + 0.7 * self.changes;
        let falling = 1.0 + 0.8 * fall as f64 / 150.0;
        let obvious = if self.kept >= Self::OBVIOUS_KEPT && depth >= Self::OBVIOUS_DEPTH {
            OBVIOUS_SCALE
        } else {
            1.0
        };
        // Each factor is at least OBVIOUS_SCALE's, so only the top needs a bound.
        self.scale = (unstable * falling * obvious).min(2.5);
    }

    /// The factor for the planned time: 1 with nothing learnt, from 0.7
    /// (an obvious move) to 2.5 (a best move that keeps changing while the score falls).
    pub fn scale(&self) -> f64 {
        self.scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_allocation_stays_within_the_clock() {
        let start = Instant::now();
        for left_ms in [10u64, 100, 1_000, 60_000] {
            let l = Limits {
                time: Some(Duration::from_millis(left_ms)),
                increment: Some(Duration::from_millis(100)),
                ..Default::default()
            };
            let tm = TimeManager::new(&l, start);
            let hard = tm.hard.unwrap();
            assert!(
                hard <= Duration::from_millis(left_ms),
                "{left_ms}: {hard:?}"
            );
            assert!(tm.soft.unwrap() <= hard.max(tm.soft.unwrap()));
        }
        let l = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Default::default()
        };
        assert_eq!(
            TimeManager::new(&l, start).hard,
            Some(Duration::from_millis(95))
        );
        assert!(!TimeManager::new(&Limits::default(), start).is_timed());
    }

    #[test]
    fn fewer_clock_moves_plan_more_of_the_clock_unless_moves_to_go_are_given() {
        let start = Instant::now();
        let mut l = Limits {
            time: Some(Duration::from_millis(2_000)),
            increment: Some(Duration::from_millis(20)),
            ..Default::default()
        };
        let at = |l: &Limits, moves| TimeManager::with_clock_moves(l, start, moves);
        let (m30, m15) = (at(&l, 30), at(&l, 15));
        assert_eq!(m30.soft, TimeManager::new(&l, start).soft);
        // (2000 ms - 2 x 5 - 20 - 2000 / 20) / n + 3/4 x 20 ms.
        assert_eq!(m30.soft, Some(Duration::from_nanos(77_333_333)));
        assert_eq!(m15.soft, Some(Duration::from_nanos(139_666_666)));
        assert!(m15.hard.unwrap() <= Duration::from_millis(2_000));
        l.moves_to_go = Some(10);
        assert_eq!(at(&l, 30).soft, at(&l, 15).soft);
    }

    fn clock(left_ms: u64, inc_ms: u64) -> TimeManager {
        let l = Limits {
            time: Some(Duration::from_millis(left_ms)),
            increment: Some(Duration::from_millis(inc_ms)),
            ..Default::default()
        };
        TimeManager::new(&l, Instant::now())
    }

    fn mv(from: u8, to: u8) -> Move {
        Move::quiet(
            crate::types::Square::new(from),
            crate::types::Square::new(to),
        )
    }

    /// `d` in whole milliseconds, rounded up.
    fn ceil_ms(d: Duration) -> u64 {
        d.as_nanos().div_ceil(1_000_000) as u64
    }

    /// The first elapsed time, in ms, at which no new iteration starts.
    fn stop_ms(tm: &TimeManager, st: &Stability, choices: usize) -> u64 {
        (0..200_000u64)
            .find(|&ms| tm.stop_iterating_at(Duration::from_millis(ms), st, choices))
            .unwrap()
    }

    #[test]
    fn a_forced_move_stops_after_its_first_iteration() {
        let tm = clock(10_000, 100);
        let st = Stability::default();
        assert!(tm.stop_iterating_at(Duration::ZERO, &st, 1));
        assert!(!tm.stop_iterating_at(Duration::ZERO, &st, 2));
    }

    #[test]
    fn an_unstable_best_move_earns_more_time_within_the_hard_limit() {
        let tm = clock(10_000, 100);
        let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
        let steady = {
            let mut st = Stability::default();
            for d in 1..=5 {
                st.update(d, mv(8, 17), 10);
            }
            st
        };
        assert_eq!(steady.scale(), 1.0);
        let share_ms = ceil_ms(soft.mul_f64(ITERATION_SHARE));
        assert_eq!(stop_ms(&tm, &steady, 7), share_ms);
        let mut unstable = Stability::default();
        for d in 1..=8 {
            let best = if d % 2 == 0 { mv(8, 17) } else { mv(10, 19) };
            unstable.update(d, best, 10);
        }
        assert!(unstable.scale() > 1.5, "{}", unstable.scale());
        let more = stop_ms(&tm, &unstable, 7);
        assert!(more > stop_ms(&tm, &steady, 7), "{more} ms");
        assert!(
            more <= hard.mul_f64(ITERATION_SHARE).as_millis() as u64 + 1,
            "{more} ms beyond the hard limit"
        );
        // A falling score earns more time too; a rising one none.
        let mut falling = Stability::default();
        falling.update(5, mv(8, 17), 40);
        falling.update(6, mv(8, 17), -60);
        assert!(falling.scale() > 1.4);
        let mut rising = Stability::default();
        rising.update(5, mv(8, 17), -60);
        rising.update(6, mv(8, 17), 40);
        assert_eq!(rising.scale(), 1.0);
        // Forced results are not falls.
        let mut mate = Stability::default();
        mate.update(5, mv(8, 17), crate::types::MATE - 10);
        mate.update(6, mv(8, 17), 0);
        assert_eq!(mate.scale(), 1.0);
        // The scale never reaches past the hard limit, however large.
        let tight = clock(400, 0);
        let mut wild = Stability::default();
        for d in 1..=12 {
            wild.update(d, mv(d as u8 % 4, 20), 100 - 40 * d as i32);
        }
        assert_eq!(wild.scale(), 2.5);
        let share_of_hard_ms = ceil_ms(tight.hard.unwrap().mul_f64(ITERATION_SHARE));
        assert!(stop_ms(&tight, &wild, 7) <= share_of_hard_ms);
    }

    #[test]
    fn an_obvious_move_spends_less() {
        let tm = clock(10_000, 100);
        let mut st = Stability::default();
        for d in 1..=12 {
            st.update(d, mv(8, 17), 20);
        }
        assert_eq!(st.scale(), OBVIOUS_SCALE);
        assert!(stop_ms(&tm, &st, 7) < stop_ms(&tm, &Stability::default(), 7));
    }

    #[test]
    fn fixed_time_and_depth_searches_ignore_stability() {
        let l = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Default::default()
        };
        let tm = TimeManager::new(&l, Instant::now());
        assert!(!tm.stop_iterating_at(Duration::from_millis(90), &Stability::default(), 7));
        let untimed = TimeManager::new(&Limits::default(), Instant::now());
        assert!(!untimed.stop_iterating_at(Duration::from_secs(100), &Stability::default(), 1));
    }
}
