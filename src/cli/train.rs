//! `dama train`: trains a network on `dama gen` data and writes the model file.

use super::parse_variant;
use super::progress::Progress;
use crate::eval::model::Model;
use crate::learn::data;
use crate::learn::train::{
    mirror_symmetric, quantization_error, rescale_each, thin_endgames, train, TrainConfig,
    TrainEvent,
};
use crate::rules::Rules;
use crate::variant::Variant;
use clap::Args;
use std::time::Instant;

pub(super) const TRAIN_HELP: &str = "\
Each position's target is lambda * sigmoid(score / scale) + (1 - lambda) * result, where
scale is fitted to the data unless given. One game in --validation-every (by game number)
is held out; the training and validation losses are printed after every epoch (stdout),
and the steps as they go (stderr: a bar on a terminal, else a line each twentieth of an
epoch). The same
data, settings and --seed give the same model, bit for bit, on any number of threads.
The model file records the variant, the architecture, the scale (--model-scale if given),
the data and this command line in its header.
Example:
  dama train --variant english --data data/english-0.bin --epochs 20 \\
      --out src/eval/models/english.nnue";

/// Arguments of `dama train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Rule set.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// Data files written by `dama gen` (give several to train on all of them).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<std::path::PathBuf>,
    /// Write the model here.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 8192)]
    pub batch: usize,
    /// Learning rate (Adam).
    #[arg(long, default_value_t = 0.002)]
    pub lr: f32,
    /// Factor applied to the learning rate after each epoch.
    #[arg(long, default_value_t = 0.85)]
    pub lr_decay: f32,
    /// Weight of the search score in the target (0: results only, 1: scores only).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f32,
    /// Hundredths of a man per unit of logit (default: fitted to the data).
    #[arg(long)]
    pub scale: Option<f32>,
    /// The scale written in the model, in hundredths of a man per unit of logit: the
    /// units of its scores (default: the training scale). The scale fitted to a new
    /// generation's data grows with the scores of the model that played its games; give
    /// the previous model's scale to keep the new model's scores, and the search margins
    /// tuned to them, in the previous model's units.
    #[arg(long)]
    pub model_scale: Option<f32>,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// One game in this many is held out for validation.
    #[arg(long, default_value_t = 20)]
    pub validation_every: u32,
    /// Threads (default: every core); the result does not depend on it.
    #[arg(long, short = 't')]
    pub threads: Option<usize>,
    /// Also accept data files of this variant (it must use the same squares: e.g.
    /// scandinavian data to train a boyer-parton model, or dameo data for croda).
    #[arg(long, value_parser = parse_variant)]
    pub also_variant: Option<Variant>,
    /// Heads (sets of dense layers after the first layer), chosen by the number of
    /// pieces on the board: the piece counts from 0 to the start's are cut into this
    /// many equal ranges. 1 is a single network.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub heads: u32,
    /// First-layer width per perspective: 64, 128 (the shipped models'), 192 or 256.
    /// A wider layer sees more but is slower to update and evaluate.
    #[arg(long, default_value_t = crate::eval::network::L1)]
    pub width: usize,
    /// Fit the scale to each data file on its own and put every file's scores in one
    /// unit (--scale, else the scale fitted to all the files) before training. For files
    /// played by successive models, whose scores are in different units: without it one
    /// scale serves them all, and the same score is a different target in each file.
    #[arg(long)]
    pub scale_each_file: bool,
    /// Thin the endings: of the positions with at most N pieces, keep one in K (N:K, for
    /// example 5:8). Self-play data is mostly endings of a few kings played out to the
    /// draw rule (70 % of scandinavian's positions have 5 pieces or fewer); thinned, the
    /// training goes more to the positions before them.
    #[arg(long, value_name = "N:K", value_parser = parse_thin)]
    pub thin_endgames: Option<(u32, u32)>,
    /// Do not add the left-right mirror image of each position (added by default where
    /// the rules are symmetric that way: dameo and croda).
    #[arg(long)]
    pub no_mirror: bool,
}

/// Parses `--thin-endgames N:K`.
fn parse_thin(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{s:?} is not N:K (pieces 1..=64, keep one in K >= 1), e.g. 5:8");
    let (n, k) = s.split_once(':').ok_or_else(bad)?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    let k: u32 = k.trim().parse().map_err(|_| bad())?;
    if !(1..=64).contains(&n) || k == 0 {
        return Err(bad());
    }
    Ok((n, k))
}

pub(super) fn run_train<R: Rules>(args: &TrainArgs) -> i32 {
    let fail = |e: String| {
        eprintln!("error: {e}");
        2
    };
    if !(0.0..=1.0).contains(&args.lambda) {
        return fail(format!("--lambda {} is not in [0, 1]", args.lambda));
    }
    if !crate::eval::network::WIDTHS.contains(&args.width) {
        return fail(format!(
            "--width {}: the widths this build runs are {:?}",
            args.width,
            crate::eval::network::WIDTHS
        ));
    }
    if let Some(m) = args.model_scale {
        if !(1.0..=100_000.0).contains(&m) {
            return fail(format!("--model-scale {m} is not in [1, 100000]"));
        }
    }
    if args.epochs == 0 || args.batch == 0 {
        return fail("--epochs and --batch must be positive".into());
    }
    let mut accepted = vec![R::NAME];
    if let Some(other) = args.also_variant {
        let board = crate::with_variant!(other, O => O::BOARD);
        if board != R::BOARD {
            return fail(format!(
                "--also-variant {other}: its board is not the board of {}",
                R::NAME
            ));
        }
        accepted.push(other.name());
    }
    let start = Instant::now();
    let mut sets = Vec::new();
    for path in &args.data {
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        eprintln!(
            "train: reading {} ({:.1} MB)",
            path.display(),
            size as f64 / 1e6
        );
        match data::read_any(path, &accepted) {
            Ok(r) => {
                eprintln!("train: {} positions from {}", r.len(), path.display());
                sets.push(r);
            }
            Err(e) => return fail(e),
        }
    }
    if sets.iter().all(|s| s.is_empty()) {
        return fail("the data holds no positions".into());
    }
    if let Some((pieces, keep)) = args.thin_endgames {
        for (path, set) in args.data.iter().zip(sets.iter_mut()) {
            let all = set.len();
            let dropped = thin_endgames(set, pieces, keep);
            eprintln!(
                "train: {}: {dropped} of {all} positions with {pieces} pieces or fewer \
                 dropped (one in {keep} kept), {} left",
                path.display(),
                set.len()
            );
        }
    }
    let mut scale = args.scale;
    if args.scale_each_file {
        if let Some(path) = args.data.iter().zip(&sets).find(|(_, s)| s.is_empty()) {
            return fail(format!(
                "--scale-each-file: {} holds no positions",
                path.0.display()
            ));
        }
        let (scales, unit) = rescale_each(&mut sets, args.validation_every, args.scale);
        for (path, s) in args.data.iter().zip(&scales) {
            eprintln!(
                "train: {}: scale {s:.1}, its scores multiplied by {:.3}",
                path.display(),
                unit / s
            );
        }
        scale = Some(unit);
    }
    let records: Vec<_> = sets.into_iter().flatten().collect();
    let cfg = TrainConfig {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lr_decay: args.lr_decay,
        lambda: args.lambda,
        scale,
        seed: args.seed,
        validation_every: args.validation_every,
        mirror: !args.no_mirror && mirror_symmetric::<R>(),
        heads: args.heads as usize,
        start_pieces: (R::START_WHITE | R::START_BLACK).count(),
        width: args.width,
    };
    if cfg.mirror {
        eprintln!("train: every position is also used mirrored left to right");
    }
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => return fail(format!("threads: {e}")),
    };
    let epochs = cfg.epochs;
    let mut bar: Option<Progress> = None;
    let mut steps_per_epoch = 1;
    let trained = pool.install(|| {
        train(&records, &cfg, &mut |event| match event {
            TrainEvent::Prepared {
                train,
                validation,
                scale,
                steps_per_epoch: steps,
            } => {
                let plural = |n: usize, what: &str| match n {
                    1 => format!("1 {what}"),
                    n => format!("{n} {what}s"),
                };
                eprintln!(
                    "train: {train} training and {validation} validation positions, scale \
                     {scale:.1}, {} of {}",
                    plural(epochs, "epoch"),
                    plural(steps, "step")
                );
                steps_per_epoch = steps.max(1);
                // Plain lines (stderr not a terminal): twenty an epoch.
                bar = Some(Progress::new(
                    "train",
                    (epochs * steps_per_epoch) as u64,
                    steps_per_epoch.div_ceil(20) as u64,
                ));
            }
            TrainEvent::Step {
                epoch,
                done,
                train_loss,
            } => {
                if let Some(bar) = &bar {
                    bar.update(
                        ((epoch - 1) * steps_per_epoch + done) as u64,
                        &format!("steps, epoch {epoch}/{epochs}, train loss {train_loss:.6}"),
                    );
                }
            }
            TrainEvent::Epoch(r) => {
                let line = format!(
                    "epoch {:3} lr {:.6} train loss {:.6} validation loss {:.6} ({:.0}s)",
                    r.epoch,
                    r.lr,
                    r.train_loss,
                    r.validation_loss,
                    start.elapsed().as_secs_f64()
                );
                match &bar {
                    Some(bar) => bar.suspend(|| println!("{line}")),
                    None => println!("{line}"),
                }
            }
        })
    });
    if let Some(bar) = &bar {
        bar.finish();
    }
    let model_scale = args.model_scale.unwrap_or(trained.scale);
    let net = trained.float.quantize(model_scale);
    let valid = crate::learn::train::validation_samples(&records, &cfg, trained.scale);
    let qerr = quantization_error(&trained.float, &net, model_scale, &valid);
    let last = trained.epochs.last().copied();
    let names: Vec<String> = args
        .data
        .iter()
        .map(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .collect();
    let command: Vec<String> = std::env::args()
        .enumerate()
        .map(|(i, a)| if i == 0 { "dama".to_string() } else { a })
        .collect();
    let extra = vec![
        ("data".to_string(), names.join(" ")),
        (
            "positions".to_string(),
            format!(
                "{} training, {} validation",
                trained.sizes.0, trained.sizes.1
            ),
        ),
        ("command".to_string(), command.join(" ")),
        (
            "loss".to_string(),
            match last {
                Some(l) => format!(
                    "train {:.6} validation {:.6} (initial validation {:.6})",
                    l.train_loss, l.validation_loss, trained.initial_validation_loss
                ),
                None => String::new(),
            },
        ),
        (
            "quantization".to_string(),
            format!("mean |float - integer| {qerr:.2} hundredths of a man"),
        ),
    ];
    let model = Model::new(R::NAME, net, extra);
    if let Err(e) = model.write(&args.out) {
        return fail(e);
    }
    println!(
        "train: scale {:.1}, model scale {:.1}, quantization error {:.2}, model written to {} ({:.0}s)",
        trained.scale,
        model_scale,
        qerr,
        args.out.display(),
        start.elapsed().as_secs_f64()
    );
    0
}
