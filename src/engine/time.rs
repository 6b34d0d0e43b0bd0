//! Search limits and time allocation: depth, nodes, fixed time per move, and clock time
//! with increment and moves to go.

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

impl TimeManager {
    /// Deadlines for `limits`, counted from `start`.
    pub fn new(limits: &Limits, start: Instant) -> TimeManager {
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
            let mtg = limits.moves_to_go.unwrap_or(30).clamp(1, 50);
            // Never plan to use more than what is left minus a safety margin.
            let margin = OVERHEAD * 2 + left / 20;
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

    /// True when no new iteration should start. `fraction` (0-1) of the soft limit is
    /// used, so that an iteration that would surely not finish is not begun.
    pub fn soft_expired(&self, fraction: f64) -> bool {
        !self.fixed
            && self
                .soft
                .is_some_and(|s| self.start.elapsed().as_secs_f64() >= s.as_secs_f64() * fraction)
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
}
