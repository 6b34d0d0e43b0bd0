//! Progress of long runs (`dama gen`, `train`, `selfplay`, `tune`, `annotate`, ...): a
//! bar with an ETA when stderr is a terminal, drawn as steps are done, otherwise plain
//! lines, one each time a multiple of `every` steps is passed and at the end, so that
//! logs stay short and the same on every run.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Progress towards `total` steps.
pub struct Progress {
    bar: Option<ProgressBar>,
    label: String,
    total: u64,
    every: u64,
    /// The last `done` reported, so that a step past a multiple of `every` prints.
    last: std::sync::atomic::AtomicU64,
}

impl Progress {
    /// A progress report named `label`; plain lines every `every` steps when stderr is
    /// not a terminal.
    pub fn new(label: &str, total: u64, every: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed}, eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            bar.set_prefix(label.to_string());
            bar
        });
        Progress {
            bar,
            label: label.to_string(),
            total,
            every: every.max(1),
            last: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// `done` steps are done; `message` says how things stand.
    pub fn update(&self, done: u64, message: &str) {
        match &self.bar {
            Some(bar) => {
                bar.set_position(done);
                bar.set_message(message.to_string());
            }
            None => {
                let last = self.last.swap(done, std::sync::atomic::Ordering::Relaxed);
                if done / self.every > last / self.every || done == self.total {
                    eprintln!("{}: {done}/{} {message}", self.label, self.total);
                }
            }
        }
    }

    /// Prints `line` on stderr above the bar.
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// Runs `f` (which writes to stdout, say) with the bar hidden, then draws it again.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Clears the bar (plain lines stay as they are).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
