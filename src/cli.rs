//! The command line: `clap` definitions and the commands that run library code. The
//! variant named on the command line is turned into a rules type here, once.

use crate::fen::parse_fen;
use crate::notation::{path_text, square_name};
use crate::perft::{divide, Count};
use crate::position::Position;
use crate::rules::Rules;
use crate::variant::Variant;
use crate::with_variant;
use clap::{Args, Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::time::Instant;

const VARIANTS_HELP: &str = "\
Variants (RULES.md):
  dameo          64 squares, men step or move in lines straight/diagonally forward,
                 capture orthogonally; queen-like kings capture orthogonally with the
                 long leap; majority capture. White starts.
  croda          64 squares, 24 men a side stepping forward, orthogonal captures,
                 rook-like kings; majority capture. White starts.
  scandinavian   dark squares, men capture forward only, flying kings, free choice of
                 capture (= German draughts; aliases german, swedish, danish).
  boyer-parton   scandinavian, but men capture with the long leap.
  english        checkers: dark squares, short kings, free choice; Black starts; squares
                 written as PDN numbers 1-32 (aliases checkers, american).

Positions are PDN FENs: <side>:W<squares>:B<squares>, K before a king's square, e.g.
  W:Wa1,c1,Ke5:Bb8,Kd8        (algebraic squares, every variant)
  B:W21-32:B1-12              (PDN numbers and ranges, dark-square variants)";

/// `dama`: a draughts engine for dameo, croda, scandinavian, boyer-parton and english.
#[derive(Parser, Debug)]
#[command(name = "dama", version, about, long_about = None, after_help = VARIANTS_HELP)]
pub struct Cli {
    /// What to do; without a command, dama speaks the Hub protocol on stdin/stdout.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Speak the Hub protocol on stdin/stdout (see protocol.md); the default command.
    Hub,
    /// Count the leaves of the legal-move tree (move-generator check and benchmark).
    #[command(after_help = PERFT_HELP)]
    Perft(PerftArgs),
    /// Search a position and print one line per completed depth, then the best move.
    #[command(after_help = ANALYZE_HELP)]
    Analyze(AnalyzeArgs),
    /// Search a fixed set of positions of every variant at a fixed depth with one thread
    /// and print the node counts: the signature of the search's behaviour.
    Bench(BenchArgs),
    /// Play games between two settings of dama in-process (strength measurement):
    /// every random balanced opening twice with colours swapped.
    #[command(after_help = SELFPLAY_HELP)]
    Selfplay(SelfplayArgs),
    /// Tune the evaluation weights: self-play games, then logistic regression of the
    /// evaluation on their results; writes a weights file.
    Tune(TuneArgs),
    /// Play a match between two Hub engines (dama hub or any other), with clocks,
    /// openings, adjudication, PDN output, Elo and SPRT.
    #[command(name = "match", after_help = MATCH_HELP)]
    Match(MatchArgs),
}

const MATCH_HELP: &str = "\
Each --option NAME=VALUE applies to the --engine given before it (before any --engine:
to both). An engine also gets variant=<V>. The option tc=SPEC gives that engine its own
time control (e.g. --option tc=depth=4).
Time controls: depth=D, nodes=N, movetime=MS, or BASE+INC in seconds (10+0.1).
Adjudication: max-plies=N, no-progress=N (plies without capture or man move),
win=MEN/MOVES, draw=MEN/MOVES (both engines agree for MOVES moves each).
Example:
  dama match --variant english --engine 'dama hub' --option threads=2 \\
      --engine 'dama hub' --games 200 --concurrency 1 --tc 5+0.05 --pdn out.pdn \\
      --sprt elo0=0,elo1=10 --adjudicate no-progress=100,max-plies=400
The final table gives wins, draws, losses of the first engine, its score, the Elo
difference with a 95% margin (from game pairs), and the SPRT log-likelihood ratio.";

/// Arguments of `dama match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Rule set.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// An engine command line (give exactly two).
    #[arg(long, required = true)]
    pub engine: Vec<String>,
    /// NAME=VALUE for the engine given before it (see below).
    #[arg(long)]
    pub option: Vec<String>,
    /// Games (rounded up to an even number).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Games at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Time control.
    #[arg(long, default_value = "depth=6", value_parser = |s: &str| s.parse::<crate::match_runner::TimeControl>())]
    pub tc: crate::match_runner::TimeControl,
    /// A file of openings: FENs and/or move sequences, one per line.
    #[arg(long, conflicts_with = "random_openings")]
    pub openings: Option<std::path::PathBuf>,
    /// Random balanced openings of this many plies (the default, 6).
    #[arg(long)]
    pub random_openings: Option<usize>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the games here.
    #[arg(long)]
    pub pdn: Option<std::path::PathBuf>,
    /// Sequential test, e.g. elo0=0,elo1=5 (stops on a decision).
    #[arg(long)]
    pub sprt: Option<String>,
    /// Adjudication options.
    #[arg(long, default_value = "", value_parser = |s: &str| s.parse::<crate::match_runner::Adjudication>())]
    pub adjudicate: crate::match_runner::Adjudication,
    /// Milliseconds an engine may overrun its clock before it loses on time.
    #[arg(long, default_value_t = 50)]
    pub margin: u64,
    /// Seconds to wait for a move under depth/nodes limits (and for start-up).
    #[arg(long, default_value_t = 60)]
    pub timeout: u64,
    /// Start the engines anew for every game.
    #[arg(long)]
    pub restart: bool,
}

const SELFPLAY_HELP: &str = "\
A player is a comma-separated list of settings:
  depth=D | nodes=N | movetime=MS    search limit per move (default depth=6)
  threads=N                          search threads (default 1)
  weights=tuned|hand|FILE            evaluation weights (default tuned: src/weights/)
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
    /// Write the tuned weights here (e.g. src/weights/english.txt); default stdout.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
}

const ANALYZE_HELP: &str = "\
Examples:
  dama analyze --variant english --depth 14
  dama analyze --variant dameo --fen 'W:We2:Be3,f4,g5,a8' --depth 8 --json
  dama analyze --variant scandinavian --moves 'c3-d4 f6-g5' --movetime 2000 --threads 2

Scores are in hundredths of a man from the side to move's view; a forced result shows as
'win in N' / 'loss in N' plies (JSON: \"win_in\": N, negative for a loss).
With --json every line is one JSON object: per depth {depth, seldepth, score, nodes, nps,
time_ms, hashfull, multipv, pv[, win_in]}, and last {bestmove, ponder, ...} with the same
fields (bestmove is null when the side to move has no legal move).";

/// Arguments of `dama analyze`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["depth", "nodes", "movetime"])))]
pub struct AnalyzeArgs {
    /// Rule set: dameo, croda, scandinavian, boyer-parton or english.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// Start from this PDN FEN instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the start position or FEN, separated by spaces.
    #[arg(long)]
    pub moves: Option<String>,
    /// Search to this depth (plies).
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Search this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search this many milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Search threads (Lazy SMP).
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Lines of play to show.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub multipv: u32,
    /// One JSON object per line.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `dama bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of every search (default: per variant, see `dama bench --help`).
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
}

const PERFT_HELP: &str = "\
Examples:
  dama perft --variant dameo --depth 5
  dama perft --variant english --depth 11 --threads 2
  dama perft --variant scandinavian --fen 'W:WKa1:Bd4,e7,b6,Kg5,h8' --depth 2 --divide

The last line is always: perft depth=D nodes=N time=SECONDS nps=N
With --divide, one line '<move> <nodes>' per root move comes first, sorted by the
move's squares (numerically for english). Progress goes to stderr on a terminal.

Variants: dameo, croda, scandinavian (german), boyer-parton, english (checkers).
FEN: <side>:W<squares>:B<squares>, K marks a king, e.g. W:Wa1,c1,Ke5:Bb8,Kd8";

/// Arguments of `dama perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Rule set: dameo, croda, scandinavian, boyer-parton or english.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// Start from this PDN FEN instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Plies to search.
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(0..=64))]
    pub depth: u32,
    /// Print the leaf count below every root move.
    #[arg(long)]
    pub divide: bool,
    /// Count capture paths instead of distinct moves (the published checkers figures).
    #[arg(long)]
    pub paths: bool,
    /// Threads to split the tree over (the counts do not depend on it).
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse()
}

/// Parses the arguments, runs the command and returns the process exit code.
pub fn run() -> i32 {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Hub) {
        Command::Hub => crate::protocol::run_stdio(),
        Command::Perft(args) => with_variant!(args.variant, R => run_perft::<R>(&args)),
        Command::Analyze(args) => with_variant!(args.variant, R => run_analyze::<R>(&args)),
        Command::Bench(args) => crate::bench::run(args.depth),
        Command::Selfplay(args) => with_variant!(args.variant, R => run_selfplay::<R>(&args)),
        Command::Tune(args) => with_variant!(args.variant, R => run_tune::<R>(&args)),
        Command::Match(args) => with_variant!(args.variant, R => run_match::<R>(&args)),
    }
}

/// Engine specs from the command line: each `--option` goes to the `--engine` before it
/// (to both when it comes before any engine).
fn engine_specs(
    args: &MatchArgs,
    raw: &[String],
) -> Result<[crate::match_runner::EngineSpec; 2], String> {
    if args.engine.len() != 2 {
        return Err(format!(
            "a match needs exactly two --engine, found {}",
            args.engine.len()
        ));
    }
    let mut options: [Vec<(String, String)>; 2] = [Vec::new(), Vec::new()];
    let mut current: Option<usize> = None;
    let mut engines_seen = 0;
    let mut i = 0;
    while i < raw.len() {
        let (flag, inline) = match raw[i].split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (raw[i].clone(), None),
        };
        let value = |i: &mut usize| -> Option<String> {
            inline.clone().or_else(|| {
                *i += 1;
                raw.get(*i).cloned()
            })
        };
        match flag.as_str() {
            "--engine" => {
                let _ = value(&mut i);
                current = Some(engines_seen);
                engines_seen += 1;
            }
            "--option" => {
                let v = value(&mut i).unwrap_or_default();
                let (k, val) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--option {v}: expected NAME=VALUE"))?;
                let targets: Vec<usize> = match current {
                    Some(e) if e < 2 => vec![e],
                    _ => vec![0, 1],
                };
                for t in targets {
                    options[t].push((k.to_string(), val.to_string()));
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut tcs: [Option<crate::match_runner::TimeControl>; 2] = [None, None];
    for (i, opts) in options.iter_mut().enumerate() {
        if let Some(pos) = opts.iter().rposition(|(k, _)| k == "tc") {
            tcs[i] = Some(opts[pos].1.parse()?);
            opts.retain(|(k, _)| k != "tc");
        }
    }
    let detail_of = |i: usize| -> Vec<String> {
        let mut d: Vec<String> = options[i].iter().map(|(k, v)| format!("{k}={v}")).collect();
        if let Some(tc) = tcs[i] {
            d.push(format!("tc={tc:?}"));
        }
        d
    };
    let details = [detail_of(0), detail_of(1)];
    let mk = |i: usize| {
        let mut opts = vec![("variant".to_string(), args.variant.to_string())];
        opts.extend(options[i].iter().cloned());
        let detail = &details[i];
        let name = if detail.is_empty() {
            format!("{}#{}", args.engine[i], i + 1)
        } else {
            format!("{}#{} ({})", args.engine[i], i + 1, detail.join(","))
        };
        crate::match_runner::EngineSpec {
            command: args.engine[i].clone(),
            options: opts,
            name,
            tc: tcs[i],
        }
    };
    Ok([mk(0), mk(1)])
}

fn run_match<R: Rules>(args: &MatchArgs) -> i32 {
    use crate::match_runner as mr;
    let raw: Vec<String> = std::env::args().collect();
    let fail = |e: String| {
        eprintln!("error: {e}");
        2
    };
    let engines = match engine_specs(args, &raw) {
        Ok(e) => e,
        Err(e) => return fail(e),
    };
    let pairs = args.games.div_ceil(2).max(1);
    let openings = match &args.openings {
        Some(path) => match std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|t| mr::read_openings::<R>(&t))
        {
            Ok(o) => o,
            Err(e) => return fail(e),
        },
        None => mr::random_openings::<R>(pairs, args.random_openings.unwrap_or(6), args.seed),
    };
    let sprt = match &args.sprt {
        None => None,
        Some(s) => {
            let mut e0 = None;
            let mut e1 = None;
            for item in s.split(',') {
                match item.trim().split_once('=') {
                    Some(("elo0", v)) => e0 = v.parse::<f64>().ok(),
                    Some(("elo1", v)) => e1 = v.parse::<f64>().ok(),
                    _ => return fail(format!("--sprt {s}: expected elo0=X,elo1=Y")),
                }
            }
            match (e0, e1) {
                (Some(a), Some(b)) if b > a => Some((a, b)),
                _ => return fail(format!("--sprt {s}: expected elo0=X,elo1=Y with Y > X")),
            }
        }
    };
    let cfg = mr::MatchConfig {
        engines,
        games: args.games.max(1),
        concurrency: args.concurrency.max(1),
        tc: args.tc,
        openings,
        adjudication: args.adjudicate,
        margin: std::time::Duration::from_millis(args.margin),
        timeout: std::time::Duration::from_secs(args.timeout.max(1)),
        restart: args.restart,
        sprt,
        event: format!("dama match ({})", R::NAME),
    };
    let total = cfg.games.div_ceil(2) * 2;
    let progress = |r: &mr::MatchReport| {
        let mut line = format!("game {}/{total}: {}", r.games.len(), tally_line(&r.tally));
        if let Some(s) = r.sprt {
            line.push_str(&format!(
                " llr {:.2} [{:.2}, {:.2}]",
                s.llr, s.lower, s.upper
            ));
        }
        eprintln!("{line}");
    };
    let report = mr::run::<R>(&cfg, &progress);
    if let Some(path) = &args.pdn {
        let text: String = report.games.iter().map(|g| g.pdn.to_text()).collect();
        if let Err(e) = std::fs::write(path, text) {
            return fail(format!("{}: {e}", path.display()));
        }
    }
    let t = &report.tally;
    let (elo, margin) = t.elo();
    println!(
        "{} vs {} ({}, {} games)",
        cfg.engines[0].name,
        cfg.engines[1].name,
        R::NAME,
        t.games()
    );
    println!(
        "wins {} draws {} losses {} score {:.1}%",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score()
    );
    println!("elo {elo:+.1} +/- {margin:.1} (95%) pairs {:?}", t.pairs);
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
    for g in &report.games {
        let key = g.termination.split(':').next().unwrap_or("").to_string();
        *reasons.entry(key).or_default() += 1;
    }
    for (why, n) in reasons {
        println!("ended: {n} x {why}");
    }
    if let Some(s) = report.sprt {
        let verdict = match s.decision() {
            Some(true) => "H1 accepted",
            Some(false) => "H0 accepted",
            None => "no decision",
        };
        println!(
            "sprt llr {:.2} bounds [{:.2}, {:.2}]: {verdict}",
            s.llr, s.lower, s.upper
        );
    }
    println!("time {:.1}s", report.elapsed.as_secs_f64());
    0
}

/// Reads a player's settings (`depth=6,threads=2,weights=hand`).
pub fn parse_player<R: Rules>(name: &str, spec: &str) -> Result<crate::selfplay::Player, String> {
    let mut limits = crate::time::Limits::default();
    let mut threads = 1;
    let mut weights = crate::eval::Weights::default_for::<R>();
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
                    "tuned" => crate::eval::Weights::default_for::<R>(),
                    "hand" => crate::eval::Weights::hand_set::<R>(),
                    file => {
                        let text = std::fs::read_to_string(file)
                            .map_err(|e| format!("player {name}: {file}: {e}"))?;
                        crate::eval::Weights::parse(&text)
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
    Ok(crate::selfplay::Player {
        name: format!("{name}({spec})"),
        limits,
        threads,
        weights,
    })
}

fn tally_line(t: &crate::stats::Tally) -> String {
    let (elo, margin) = t.elo();
    format!(
        "+{} ={} -{} score {:.1}% elo {:+.1} +/- {:.1}",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        elo,
        margin
    )
}

fn run_selfplay<R: Rules>(args: &SelfplayArgs) -> i32 {
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
    let openings = crate::selfplay::openings::<R>(pairs, args.opening_plies, args.seed);
    let start = Instant::now();
    let progress = |done: usize, total: usize, t: &crate::stats::Tally| {
        eprintln!("games {done}/{total}: {}", tally_line(t));
    };
    let (tally, records) = crate::selfplay::run_match(
        &a,
        &b,
        &openings,
        args.max_plies,
        args.concurrency,
        &progress,
    );
    let adjudicated = records
        .iter()
        .filter(|r| r.ending == crate::selfplay::Ending::MaxPlies)
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

fn run_tune<R: Rules>(args: &TuneArgs) -> i32 {
    let player = crate::selfplay::Player {
        name: "tuner".into(),
        limits: crate::time::Limits {
            depth: Some(args.depth),
            ..Default::default()
        },
        threads: 1,
        weights: crate::eval::Weights::hand_set::<R>(),
    };
    let pairs = args.games.div_ceil(2).max(1);
    let openings = crate::selfplay::openings::<R>(pairs, 6, args.seed);
    let start = Instant::now();
    let progress = |done: usize, total: usize, _: &crate::stats::Tally| {
        if done.is_multiple_of(50) || done == total {
            eprintln!(
                "tune: games {done}/{total} ({:.0}s)",
                start.elapsed().as_secs_f64()
            );
        }
    };
    let (_, records) = crate::selfplay::run_match(
        &player,
        &player,
        &openings,
        300,
        args.concurrency,
        &progress,
    );
    let samples = crate::tune::samples(&records);
    eprintln!(
        "tune: {} positions from {} games",
        samples.len(),
        records.len()
    );
    let t = crate::tune::tune(
        &samples,
        &crate::eval::Weights::hand_set::<R>(),
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
            if let Err(e) = std::fs::write(path, &text) {
                eprintln!("error: {}: {e}", path.display());
                return 1;
            }
        }
        None => print!("{text}"),
    }
    0
}

/// The game given by `--fen` and `--moves`, or a message saying what is wrong.
pub fn game_from_args<R: Rules>(
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<crate::game::Game<R>, String> {
    let start = match fen {
        Some(f) => parse_fen::<R>(f).map_err(|e| e.to_string())?,
        None => Position::<R>::start(),
    };
    let mut game = crate::game::Game::new(start);
    for (ply, text) in moves.unwrap_or("").split_whitespace().enumerate() {
        let pos = *game.position();
        let mv = crate::notation::parse_move(&pos, text)
            .map_err(|e| format!("illegal move {text} at ply {}: {e}", ply + 1))?;
        game.play(&mv);
    }
    Ok(game)
}

fn run_analyze<R: Rules>(args: &AnalyzeArgs) -> i32 {
    let game = match game_from_args::<R>(args.fen.as_deref(), args.moves.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let limits = crate::time::Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(std::time::Duration::from_millis),
        ..Default::default()
    };
    let root = *game.position();
    let mut engine = crate::engine::Engine::<R>::new(args.hash as usize, args.threads as usize);
    engine.set_game(game);
    let json = args.json;
    let report = move |info: &crate::search::Info| {
        let line = if json {
            crate::analysis::info_json(&root, info)
        } else {
            crate::analysis::info_line(&root, info)
        };
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let result = engine.search(&limits, args.multipv as usize, &report);
    let last = if json {
        crate::analysis::best_json(&root, &result)
    } else {
        crate::analysis::best_line(&root, &result)
    };
    println!("{last}");
    0
}

fn run_perft<R: Rules>(args: &PerftArgs) -> i32 {
    let pos = match &args.fen {
        Some(f) => match parse_fen::<R>(f) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
        None => Position::<R>::start(),
    };
    let count = if args.paths {
        Count::Paths
    } else {
        Count::Moves
    };
    let show_progress = std::io::stderr().is_terminal();
    let progress = |done: usize, total: usize| {
        if show_progress {
            eprint!("\rperft: {done}/{total} subtrees");
            if done == total {
                eprint!("\r\x1b[K");
            }
        }
    };
    let start = Instant::now();
    let mut roots = divide(&pos, args.depth, count, args.threads as usize, &progress);
    let secs = start.elapsed().as_secs_f64();
    let nodes: u64 = if args.depth == 0 {
        1
    } else {
        roots.iter().map(|r| r.nodes).sum()
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.divide {
        roots.sort_by_key(|r| sort_key::<R>(&r.path));
        for r in &roots {
            let _ = writeln!(
                out,
                "{} {}",
                path_text::<R>(&r.path, r.mv.is_capture()),
                r.nodes
            );
        }
    }
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    let _ = writeln!(
        out,
        "perft depth={} nodes={} time={:.3} nps={}",
        args.depth, nodes, secs, nps
    );
    0
}

/// Orders moves by their squares as written: PDN numbers numerically, algebraic squares
/// by file then rank (the alphabetical order of their names).
fn sort_key<R: Rules>(path: &[crate::types::Square]) -> Vec<(u8, u8)> {
    path.iter()
        .map(|s| {
            if R::NUMERIC_SQUARES {
                (s.pdn_number().unwrap_or(0), 0)
            } else {
                debug_assert_eq!(square_name::<R>(*s), s.algebraic());
                (s.file(), s.rank())
            }
        })
        .collect()
}
