//! `dama match`: a match between two Hub engines.

use crate::rules::Rules;
use crate::variant::Variant;
use clap::Args;

use super::{parse_variant, tally_line};

pub(super) const MATCH_HELP: &str = "\
Each --option NAME=VALUE applies to the --engine given before it (before any --engine:
to both). An engine also gets variant=<V>. The option tc=SPEC gives that engine its own
time control (e.g. --option tc=depth=4). The option ponder=true makes that engine ponder:
after its move it searches the reply it expects on the opponent's time (go ponder), and
gets ponder-hit when that reply is played (its clock runs from then), stop otherwise.
Time controls: depth=D, nodes=N, movetime=MS, or BASE+INC in seconds (10+0.1).
Adjudication: max-plies=N, no-progress=N (plies without capture or man move),
win=MEN/MOVES, draw=MEN/MOVES (both engines agree for MOVES moves each).
Example:
  dama match --variant english --engine 'dama hub' --option threads=2 \\
      --engine 'dama hub' --games 200 --concurrency 1 --tc 5+0.05 --pdn out.pdn \\
      --sprt elo0=0,elo1=10 --adjudicate no-progress=100,max-plies=400
The final table gives wins, draws, losses of the first engine, its score, the Elo
difference with a 95% margin (from game pairs), and the SPRT log-likelihood ratio.
Each game is appended to the --pdn file, whole and synced, the moment it ends (a file
that already holds games is not overwritten: give --resume or remove it). Ctrl-C
(SIGINT or SIGTERM) stops the match: the games in progress are abandoned, the engines
told to quit, the table so far printed, and the exit code is 130; a second Ctrl-C
exits at once. Run the same command with --resume to go on: the games in the PDN are
checked against the command line (engines, options, variant, time control, openings
and seed), counted again, and the match plays the games it lacks, with the same
openings and colours (the missing half of a pair too).";

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
    #[arg(long, default_value = "depth=6", value_parser = |s: &str| s.parse::<crate::play::match_runner::TimeControl>())]
    pub tc: crate::play::match_runner::TimeControl,
    /// A file of openings: FENs and/or move sequences, one per line, each played twice
    /// with colours swapped (`dama openings` makes such files; shipped: openings/).
    #[arg(long, conflicts_with = "random_openings")]
    pub openings: Option<std::path::PathBuf>,
    /// Random balanced openings of this many plies (the default, 6): level material, no
    /// capture pending, and within 0.40 men by a depth-4 search with the classic evaluation.
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
    /// Play all --games even when the SPRT decides early (it is still reported).
    #[arg(long, requires = "sprt")]
    pub play_all: bool,
    /// Adjudication options.
    #[arg(long, default_value = "", value_parser = |s: &str| s.parse::<crate::play::match_runner::Adjudication>())]
    pub adjudicate: crate::play::match_runner::Adjudication,
    /// Milliseconds an engine may overrun its clock before it loses on time.
    #[arg(long, default_value_t = 50)]
    pub margin: u64,
    /// Seconds to wait for a move under depth/nodes limits (and for start-up).
    #[arg(long, default_value_t = 60)]
    pub timeout: u64,
    /// Start the engines anew for every game.
    #[arg(long)]
    pub restart: bool,
    /// Continue the interrupted match whose games are in --pdn (same command line).
    #[arg(long, requires = "pdn")]
    pub resume: bool,
}

/// Where the games go: the PDN file opened for appending, and the games it already
/// holds when the match is resumed.
fn open_pdn<R: Rules>(
    args: &MatchArgs,
    cfg: &crate::play::match_runner::MatchConfig,
) -> Result<
    (
        Option<crate::atomic_file::Appender>,
        Vec<crate::play::match_runner::GameResult>,
    ),
    String,
> {
    let Some(path) = &args.pdn else {
        return Ok((None, Vec::new()));
    };
    let text = match crate::pdn::read_pdn_text(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let previous = if args.resume {
        crate::play::match_resume::games_from_pdn::<R>(cfg, &text)
            .map_err(|e| format!("cannot resume from {}: {e}", path.display()))?
    } else {
        if !text.trim().is_empty() {
            return Err(format!(
                "{} already holds games: add --resume to continue that match, or remove the file",
                path.display()
            ));
        }
        Vec::new()
    };
    let appender = crate::atomic_file::Appender::open(path, !args.resume)?;
    Ok((Some(appender), previous))
}

/// Ctrl-C and SIGTERM set `flag`; a second one while it is set exits at once (130).
pub(super) fn catch_signals(
    flag: &std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Result<(), String> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    for sig in [SIGINT, SIGTERM] {
        // The order matters: the exit is armed only once the flag is already set.
        signal_hook::flag::register_conditional_shutdown(sig, INTERRUPTED, flag.clone())
            .and_then(|_| signal_hook::flag::register(sig, flag.clone()))
            .map_err(|e| format!("cannot catch signal {sig}: {e}"))?;
    }
    Ok(())
}

/// The exit code of an interrupted match (128 + SIGINT, as shells report it).
pub const INTERRUPTED: i32 = 130;

/// Engine specs from the command line: each `--option` goes to the `--engine` before it
/// (to both when it comes before any engine).
fn engine_specs(
    args: &MatchArgs,
    raw: &[String],
) -> Result<[crate::play::match_runner::EngineSpec; 2], String> {
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
    let mut tcs: [Option<crate::play::match_runner::TimeControl>; 2] = [None, None];
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
        crate::play::match_runner::EngineSpec {
            command: args.engine[i].clone(),
            ponder: options[i].iter().any(|(k, v)| k == "ponder" && v == "true"),
            options: opts,
            name,
            tc: tcs[i],
        }
    };
    Ok([mk(0), mk(1)])
}

pub(super) fn run<R: Rules>(args: &MatchArgs) -> i32 {
    use crate::play::match_runner as mr;
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
            .and_then(|t| crate::play::opening::read_openings::<R>(&t))
        {
            Ok(o) => o,
            Err(e) => return fail(e),
        },
        None => crate::play::opening::random_openings::<R>(
            pairs,
            args.random_openings.unwrap_or(6),
            args.seed,
        ),
    };
    // A file without an opening was refused when read; random openings may all fail.
    if openings.is_empty() {
        return fail(format!(
            "no random opening of {} plies was level and scored within {:.2} men of equal: \
             try fewer plies",
            args.random_openings.unwrap_or(6),
            crate::play::opening::EVEN as f64 / 100.0
        ));
    }
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
        play_all: args.play_all,
        event: format!("dama match ({})", R::NAME),
        interrupt: std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    };
    let total = cfg.total_games();
    let (appender, previous) = match open_pdn::<R>(args, &cfg) {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    if args.resume {
        eprintln!(
            "resuming: {} of {total} games already played",
            previous.len()
        );
    }
    let appender = std::sync::Mutex::new(appender);
    if let Err(e) = catch_signals(&cfg.interrupt) {
        return fail(e);
    }
    let on_game = |g: &mr::GameResult, r: &mr::MatchReport| -> Result<(), String> {
        // The game is on disk, whole, before it is reported.
        if let Some(a) = appender.lock().map_err(|_| "PDN writer poisoned")?.as_mut() {
            a.append(&g.pdn.to_text())?;
        }
        let mut line = format!("game {}/{total}: {}", r.played, tally_line(&r.tally));
        if let Some(s) = r.sprt {
            line.push_str(&format!(
                " llr {:.2} [{:.2}, {:.2}]",
                s.llr, s.lower, s.upper
            ));
        }
        eprintln!("{line}");
        Ok(())
    };
    let report = mr::run::<R>(&cfg, previous, &on_game);
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
    if let Some(e) = &report.error {
        eprintln!("error: {e}");
        return 1;
    }
    if report.interrupted {
        println!(
            "interrupted after {} of {total} games; the games in progress were abandoned",
            t.games()
        );
        if args.pdn.is_some() {
            println!("continue with the same command and --resume");
        }
        return INTERRUPTED;
    }
    0
}
