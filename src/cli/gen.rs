//! `dama gen`: self-play training data for `dama train`.

use super::parse_variant;
use crate::eval::Evaluation;
use crate::learn::data::Writer;
use crate::learn::gen::{run, GenConfig};
use crate::rules::Rules;
use crate::variant::Variant;
use clap::Args;
use std::time::Instant;

pub(super) const GEN_HELP: &str = "\
Every game starts from a random balanced opening of its own (the seed and the game's
number choose it) and is played by dama against itself at --nodes or --depth per move.
With --openings FILE, game i starts from line i mod N of the file instead, followed by
--opening-plies random plies that keep that line's balance (no capture pending, a depth-4
score within 0.4 men of the line's), so that the data holds the positions of the openings
played in matches, the lopsided ones included.
Every quiet position (no capture pending) is written with the search's score and the
game's result; the format is documented in src/learn/data.rs. The games are written in
the order of their numbers, each appended and flushed as soon as the games before it are,
so the same command makes the same file byte for byte on any number of threads, and a
killed run loses only the games in progress or waiting for an earlier one. Ctrl-C
(SIGINT, SIGTERM) lets the games in progress finish and be written, then exits with code
130 (a second Ctrl-C exits at once). Run the same command with --resume to finish: the
finished file is the same as an uninterrupted run's.
--shard K/N splits one run over N machines: each plays the games whose number leaves K-1
when divided by N, so the shards are disjoint and together are the unsharded run, game
for game; `dama train --data` takes all their files (docs/evaluation.md: a GNU parallel line and a
Slurm array job).
Examples:
  dama gen --variant english --games 20000 --nodes 10000 --out data/english-0.bin
  dama gen --variant english --games 20000 --nodes 10000 --out data/english-0.bin --resume
  dama gen --variant dameo --games 5000 --evaluation nn --out data/dameo-1.bin
  dama gen --variant english --games 80000 --shard 3/8 --out data/english-4.3.bin
  dama gen --variant english --games 20000 --openings openings/english-ballots.openings --opening-plies 3 --evaluation nn --out data/english-b.bin";

/// Arguments of `dama gen`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "nodes"])))]
pub struct GenArgs {
    /// Rule set.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// Games in the whole run.
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Nodes per move (the default limit: 10000).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move instead of nodes.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 8)]
    pub opening_plies: usize,
    /// Start the games from the lines of this openings file (e.g.
    /// openings/english-ballots.openings) instead of the start position: game i from line
    /// i mod N, then --opening-plies random plies that keep the line's balance, whatever
    /// it is (give a small number, e.g. 2 to 4).
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Plies after the opening after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time (default: every core).
    #[arg(long, short = 't')]
    pub threads: Option<usize>,
    /// The evaluation the games are played with: classic, nn (the shipped network) or
    /// a model file.
    #[arg(long, default_value = "classic")]
    pub evaluation: String,
    /// End each game at the first position (no capture pending) with at most this many
    /// pieces, with the endgame databases' value as its result, and search with them
    /// (0: no databases; the games are played out to their end). Every slice up to N
    /// pieces must be built (`dama egdb build`). Self-play games otherwise spend most of
    /// their positions on endings of a few pieces, and draw many won ones.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=8))]
    pub egdb_pieces: u32,
    /// Directory of the endgame databases (default: $DAMA_EGDB_DIR, else
    /// ~/.local/share/dama/egdb; see `dama egdb --help`).
    #[arg(long)]
    pub egdb_dir: Option<std::path::PathBuf>,
    /// The data file to write.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Continue the run in --out: keep its whole games and play the missing ones.
    #[arg(long)]
    pub resume: bool,
    /// Play only shard K of N (1 <= K <= N): the games whose number leaves K-1 when
    /// divided by N. The N shards of one command line are disjoint and together are the
    /// whole run, so they can run on N machines (see docs/evaluation.md).
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<Shard>,
}

/// Shard K of N of a run (`--shard K/N`), K counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 1..=count.
    pub index: u32,
    /// How many shards the run is split into.
    pub count: u32,
}

impl Shard {
    /// Whether game number `game` belongs to this shard.
    pub fn holds(self, game: u32) -> bool {
        game % self.count == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Reads `K/N` with 1 <= K <= N.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("'{text}' is not a shard: write K/N with 1 <= K <= N, e.g. 3/8");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let index: u32 = k.trim().parse().map_err(|_| bad())?;
    let count: u32 = n.trim().parse().map_err(|_| bad())?;
    if index == 0 || count == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

pub(super) fn run_gen<R: Rules>(args: &GenArgs) -> i32 {
    let fail = |e: String| {
        eprintln!("error: {e}");
        2
    };
    let evaluation = match Evaluation::by_name::<R>(&args.evaluation) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    let limits = crate::engine::time::Limits {
        depth: args.depth,
        nodes: if args.depth.is_some() {
            None
        } else {
            Some(args.nodes.unwrap_or(10_000))
        },
        ..Default::default()
    };
    let (openings, openings_text) = match &args.openings {
        None => (Vec::new(), None),
        Some(path) => match read_start_lines::<R>(path) {
            Ok(x) => x,
            Err(e) => return fail(e),
        },
    };
    let cfg = GenConfig {
        games: args.games,
        limits,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies,
        seed: args.seed,
        evaluation,
        openings,
    };
    let info = crate::learn::data::RunInfo {
        seed: args.seed,
        nodes: limits_nodes(&cfg),
        depth: args.depth.unwrap_or(0),
        opening_plies: args.opening_plies.min(u16::MAX as usize) as u16,
        max_plies: args.max_plies.min(u16::MAX as usize) as u16,
        // The databases and the openings file change the games, so a file is resumed
        // only with the same ones.
        evaluation: crate::learn::data::RunInfo::fingerprint(&{
            let mut name = args.evaluation.clone();
            if args.egdb_pieces > 0 {
                name += &format!(" egdb {}", args.egdb_pieces);
            }
            if let Some(text) = &openings_text {
                let print = crate::learn::data::RunInfo::fingerprint(text);
                name += &format!(" openings {print:016x}");
            }
            name
        }),
    };
    let egdb = if args.egdb_pieces > 0 {
        let dir = args
            .egdb_dir
            .clone()
            .unwrap_or_else(crate::egdb::default_dir);
        let mut tables = crate::egdb::Tables::<R>::open(&dir);
        if tables.complete_pieces() < args.egdb_pieces {
            return fail(format!(
                "--egdb-pieces {}: the {} databases in {} are complete to {} pieces only \
                 (build them with: dama egdb build --variant {} --pieces {})",
                args.egdb_pieces,
                R::NAME,
                dir.display(),
                tables.complete_pieces(),
                R::NAME,
                args.egdb_pieces
            ));
        }
        tables.set_probe_pieces(args.egdb_pieces);
        eprintln!("gen: egdb {} in {}", tables.summary(), dir.display());
        Some(std::sync::Arc::new(tables))
    } else {
        None
    };
    let (mut writer, done) = if args.resume && args.out.exists() {
        match Writer::resume(&args.out, R::NAME, &info) {
            Ok(x) => x,
            Err(e) => return fail(e),
        }
    } else if args.out.exists() && !args.resume {
        return fail(format!(
            "{} exists: give --resume to continue it, or remove it",
            args.out.display()
        ));
    } else {
        match Writer::create(&args.out, R::NAME, &info) {
            Ok(w) => (w, Vec::new()),
            Err(e) => return fail(e),
        }
    };
    let shard = args.shard.unwrap_or(Shard { index: 1, count: 1 });
    if let Some(g) = done.iter().find(|&&g| !shard.holds(g)) {
        return fail(format!(
            "{} holds game {g}, which is not in shard {shard}: resume it with the --shard \
             it was made with",
            args.out.display(),
        ));
    }
    let todo: Vec<u32> = (0..cfg.games)
        .filter(|&g| shard.holds(g) && done.binary_search(&g).is_err())
        .collect();
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    eprintln!(
        "gen: {} {} games{} ({} already in {}), {} threads, evaluation {}",
        R::NAME,
        todo.len(),
        args.shard
            .map_or(String::new(), |s| format!(" of shard {s}")),
        done.len(),
        args.out.display(),
        threads,
        cfg.evaluation.kind()
    );
    let start = Instant::now();
    let total = todo.len();
    let bar = crate::cli::progress::Progress::new("gen: games", total as u64, 100);
    let progress = |games: usize, positions: usize| {
        bar.update(
            games as u64,
            &format!(
                "{positions} positions, {:.0}s",
                start.elapsed().as_secs_f64()
            ),
        );
    };
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    if let Err(e) = super::matches::catch_signals(&stop) {
        return fail(e);
    }
    let result = run::<R>(
        &cfg,
        &todo,
        threads,
        &mut writer,
        egdb.as_ref(),
        &progress,
        &stop,
    );
    bar.finish();
    match result {
        Ok(positions) if stop.load(std::sync::atomic::Ordering::Relaxed) => {
            eprintln!(
                "gen: interrupted after the games in progress; {positions} positions written \
                 to {}: run the same command with --resume to go on",
                args.out.display()
            );
            super::matches::INTERRUPTED
        }
        Ok(positions) => {
            println!(
                "gen: {} games, {} positions written to {} in {:.1}s",
                total,
                positions,
                args.out.display(),
                start.elapsed().as_secs_f64()
            );
            0
        }
        Err(e) => fail(e),
    }
}

/// The lines of the openings file at `path`, each checked to read in `R`, and the file's
/// text.
fn read_start_lines<R: Rules>(
    path: &std::path::Path,
) -> Result<(Vec<crate::play::opening::Opening>, Option<String>), String> {
    use crate::play::opening::{opening_game, read_openings};
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("--openings {}: {e}", path.display()))?;
    let lines = read_openings::<R>(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if lines.is_empty() {
        return Err(format!("--openings {}: no opening in it", path.display()));
    }
    for (i, line) in lines.iter().enumerate() {
        opening_game::<R>(line)
            .map_err(|e| format!("{}: opening {}: {e}", path.display(), i + 1))?;
    }
    Ok((lines, Some(text)))
}

fn limits_nodes(cfg: &GenConfig) -> u64 {
    cfg.limits.nodes.unwrap_or(0)
}
