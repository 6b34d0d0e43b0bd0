//! The one pool of workers for games played in parallel (`dama selfplay`, `tune`, `match`,
//! `gen` and the database conversion runs): a fixed number of scoped threads, each with
//! state of its own (its engines or engine processes), taking job numbers in order from
//! one shared counter, so that a slow job never holds up the others.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What a worker does after a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Take the next job.
    Next,
    /// Stop: no worker takes another job (the jobs running finish).
    Stop,
}

/// Runs jobs `0..jobs` on `workers` threads (at least 1, at most one per job). Each
/// thread first makes its state with `init` (`None`: the thread takes no job, for
/// example when its engine cannot be made; `init` reports why), then calls `work` with
/// it for each job number it takes, until the jobs run out or a job returns
/// [`Flow::Stop`]. The state is dropped on its own thread when that thread ends.
pub fn run<S, I, W>(workers: usize, jobs: usize, init: I, work: W)
where
    I: Fn() -> Option<S> + Sync,
    W: Fn(&mut S, usize) -> Flow + Sync,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, jobs.max(1)) {
            scope.spawn(|| {
                let Some(mut state) = init() else {
                    return;
                };
                while !stop.load(Ordering::Relaxed) {
                    let job = next.fetch_add(1, Ordering::Relaxed);
                    if job >= jobs {
                        break;
                    }
                    if work(&mut state, job) == Flow::Stop {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn every_job_once_and_stop_ends_the_run() {
        let done = Mutex::new(Vec::new());
        run(
            3,
            100,
            || Some(0usize),
            |n, job| {
                *n += 1;
                done.lock().unwrap().push(job);
                Flow::Next
            },
        );
        let mut d = done.into_inner().unwrap();
        d.sort_unstable();
        assert_eq!(d, (0..100).collect::<Vec<_>>());

        let taken = AtomicUsize::new(0);
        run(
            1,
            100,
            || Some(()),
            |_, job| {
                taken.fetch_add(1, Ordering::Relaxed);
                if job == 9 {
                    Flow::Stop
                } else {
                    Flow::Next
                }
            },
        );
        assert_eq!(taken.into_inner(), 10);

        // No state, no job; no jobs, no call.
        run(2, 5, || None::<()>, |_, _| panic!("no state"));
        run(2, 0, || Some(()), |_, _| panic!("no job"));
    }
}
