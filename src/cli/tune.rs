//! `dama tune`: self-play positions, then logistic regression of the linear weights.

use crate::rules::Rules;
use crate::variant::Variant;
use clap::Args;

use super::parse_variant;
use std::time::Instant;

/// Arguments of `dama tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Rule set.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// Self-play games to learn from.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Search depth of the self-play games.
    #[arg(long, default_value_t = 5)]
    pub depth: u32,
    /// Gradient-descent passes.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Strength of the pull towards the hand-set weights.
    #[arg(long, default_value_t = 0.0005)]
    pub lambda: f64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// Write the tuned weights here (e.g. src/eval/weights/english.txt; written to
    /// FILE.tmp, then renamed, so the file is always whole); default stdout.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
}

pub(super) fn run<R: Rules>(args: &TuneArgs) -> i32 {
    let player = crate::play::selfplay::Player {
        name: "tuner".into(),
        limits: crate::engine::time::Limits {
            depth: Some(args.depth),
            ..Default::default()
        },
        threads: 1,
        weights: crate::eval::classic::Weights::hand_set::<R>(),
    };
    let pairs = args.games.div_ceil(2).max(1);
    let openings = crate::play::opening::openings::<R>(pairs, 6, args.seed);
    let start = Instant::now();
    let bar = crate::cli::progress::Progress::new("tune: games", 2 * openings.len() as u64, 50);
    let progress = |done: usize, _total: usize, _: &crate::play::stats::Tally| {
        bar.update(
            done as u64,
            &format!("({:.0}s)", start.elapsed().as_secs_f64()),
        );
    };
    let (_, records) = crate::play::selfplay::run_match(
        &player,
        &player,
        &openings,
        300,
        args.concurrency,
        &progress,
    );
    bar.finish();
    let samples = crate::learn::tune::samples(&records);
    eprintln!(
        "tune: {} positions from {} games",
        samples.len(),
        records.len()
    );
    let t = crate::learn::tune::tune(
        &samples,
        &crate::eval::classic::Weights::hand_set::<R>(),
        args.epochs,
        args.lambda,
    );
    eprintln!(
        "tune: k {:.2}, error {:.5} -> {:.5} ({:.0}s)",
        t.k,
        t.error_before,
        t.error_after,
        start.elapsed().as_secs_f64()
    );
    let text = format!(
        "# {} evaluation weights (hundredths of a man), tuned by `dama tune --games {} --depth {}`\n# on {} positions: error {:.5} -> {:.5}, k {:.2}\n{}",
        R::NAME,
        args.games,
        args.depth,
        samples.len(),
        t.error_before,
        t.error_after,
        t.k,
        t.weights.to_text()
    );
    match &args.out {
        Some(path) => {
            // Through <path>.tmp and a rename: the weights file is never half-written.
            if let Err(e) = crate::atomic_file::write(path, text.as_bytes()) {
                eprintln!("error: {e}");
                return 1;
            }
        }
        None => print!("{text}"),
    }
    0
}
