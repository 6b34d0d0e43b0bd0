//! `dama selfplay`: in-process games between two settings of dama.

use crate::rules::Rules;
use crate::variant::Variant;
use clap::Args;

use super::{parse_variant, tally_line};
use std::time::Instant;

pub(super) const SELFPLAY_HELP: &str = "\
A player is a comma-separated list of settings:
  depth=D | nodes=N | movetime=MS    search limit per move (default depth=6)
  threads=N                          search threads (default 1)
  weights=tuned|hand|FILE            evaluation weights (default tuned: src/eval/weights/)
Example:
  dama selfplay --variant english --games 200 --a weights=tuned --b weights=hand
  dama selfplay --variant dameo --games 100 --a depth=6,threads=2 --b depth=6 --concurrency 1
The result is from A's point of view: wins, draws, losses, score and the Elo difference
with its 95% margin (from game pairs).";

/// Arguments of `dama selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Rule set.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// Games to play (rounded up to an even number: openings are played twice).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Settings of player A.
    #[arg(long, default_value = "depth=6")]
    pub a: String,
    /// Settings of player B.
    #[arg(long, default_value = "depth=6")]
    pub b: String,
    /// Games played at the same time.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 6)]
    pub opening_plies: usize,
    /// Plies after the opening after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Reads a player's settings (`depth=6,threads=2,weights=hand`).
pub fn parse_player<R: Rules>(
    name: &str,
    spec: &str,
) -> Result<crate::play::selfplay::Player, String> {
    let mut limits = crate::engine::time::Limits::default();
    let mut threads = 1;
    let mut weights = crate::eval::classic::Weights::default_for::<R>();
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("player {name}: '{item}' is not name=value"))?;
        let num = |v: &str| -> Result<u64, String> {
            v.parse()
                .map_err(|_| format!("player {name}: {k}={v} is not a number"))
        };
        match k {
            "depth" => limits.depth = Some(num(v)? as u32),
            "nodes" => limits.nodes = Some(num(v)?),
            "movetime" => limits.movetime = Some(std::time::Duration::from_millis(num(v)?)),
            "threads" => threads = num(v)?.max(1) as usize,
            "weights" => {
                weights = match v {
                    "tuned" => crate::eval::classic::Weights::default_for::<R>(),
                    "hand" => crate::eval::classic::Weights::hand_set::<R>(),
                    file => {
                        let text = std::fs::read_to_string(file)
                            .map_err(|e| format!("player {name}: {file}: {e}"))?;
                        crate::eval::classic::Weights::parse(&text)
                            .map_err(|e| format!("player {name}: {file}: {e}"))?
                    }
                }
            }
            other => return Err(format!("player {name}: unknown setting '{other}'")),
        }
    }
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        limits.depth = Some(6);
    }
    Ok(crate::play::selfplay::Player {
        name: format!("{name}({spec})"),
        limits,
        threads,
        weights,
    })
}

pub(super) fn run<R: Rules>(args: &SelfplayArgs) -> i32 {
    let players =
        parse_player::<R>("A", &args.a).and_then(|a| Ok((a, parse_player::<R>("B", &args.b)?)));
    let (a, b) = match players {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let pairs = args.games.div_ceil(2).max(1);
    let openings = crate::play::opening::openings::<R>(pairs, args.opening_plies, args.seed);
    let start = Instant::now();
    let bar = crate::cli::progress::Progress::new("selfplay", 2 * openings.len() as u64, 2);
    let progress = |done: usize, _total: usize, t: &crate::play::stats::Tally| {
        bar.update(done as u64, &tally_line(t));
    };
    let (tally, records) = crate::play::selfplay::run_match(
        &a,
        &b,
        &openings,
        args.max_plies,
        args.concurrency,
        &progress,
    );
    bar.finish();
    let adjudicated = records
        .iter()
        .filter(|r| r.ending == crate::play::selfplay::Ending::MaxPlies)
        .count();
    println!("variant {} A {} B {}", R::NAME, a.name, b.name);
    println!(
        "games {} {} pairs {:?} adjudicated {} time {:.1}s",
        tally.games(),
        tally_line(&tally),
        tally.pairs,
        adjudicated,
        start.elapsed().as_secs_f64()
    );
    0
}
