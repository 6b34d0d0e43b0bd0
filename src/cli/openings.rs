//! `dama openings`: a file of test openings that separate engines.

use super::parse_variant;
use crate::atomic_file::Appender;
use crate::cli::progress::Progress;
use crate::play::line_outcome::line_outcomes;
use crate::play::opening::{is_opening_line, opening_game, read_openings};
use crate::play::selection::{candidate_of, select, Chosen, Selection, SHALLOW_DEPTH};
use crate::rules::Rules;
use crate::types::Score;
use crate::variant::Variant;
use clap::Args;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub(super) const OPENINGS_HELP: &str = "\
Each line is a random line of --plies plies from the start that ends in a quiet position
(no capture pending) which dama's search at --depth rates as better for one side by
--margin men, from..to, with no forced win or loss found; no two lines reach the same
position. A line of the file:
  11-15 24-20 8-11 28-24 9-13 22-18 ; W:W18,20,...:B1,2,... # white +0.42, depth 14, candidate 17
the moves, ';' and the FEN they reach (checked when the file is read), then a comment
with the score from White's side, the depth and the candidate's number. `dama match
--openings FILE` plays every line twice, colours swapped.
Defaults per variant (plies, margin, depth): english 8, 0.30..0.90, 14; scandinavian 8,
1.10..3.30, 12 (its network scores a man at several units); boyer-parton 8, 0.40..1.20, 12;
dameo and croda 8, 0.10..0.40, 9.
With --unstable only lines whose best move by a depth-6 search differs from the --depth
search's are kept: positions where a shallow look goes wrong (the header records it).
The lines are rated by the variant's default evaluation, or by --evaluation (classic, nn
or a model file), which the first line then names: the margin holds for that evaluation
(a file rated by an earlier evaluation stays what it was when the default changes).
Lines are written as they are found; Ctrl-C or a crash leaves whole lines, and the same
command with --resume goes on (the file's first line records the settings).
With --sift, no search: the lines of --from are kept whose game pairs in the given
`dama match` PDNs (played on --from, e.g. the engine at 4x time against itself) were
decisive, one engine scoring more than the other, in at least half of their pairs; the
file keeps --from's header and adds a line saying what was sifted.
Examples:
  dama openings --variant english --count 200 --out english.openings
  dama openings --variant english --from candidates.openings --sift match.pdn --out sifted.openings";

/// Arguments of `dama openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// Rule set.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// Lines the file should hold.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// The file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// The better side's advantage in men, from..to (e.g. 0.3..0.9; default per variant).
    #[arg(long, value_parser = parse_margin)]
    pub margin: Option<(Score, Score)>,
    /// Random plies of each line (default per variant).
    #[arg(long)]
    pub plies: Option<usize>,
    /// Depth of the search that rates a line (default per variant).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Seed of the random lines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Candidate lines tried at most before giving up.
    #[arg(long, default_value_t = 200_000)]
    pub candidates: u64,
    /// Go on with an existing file made with the same settings.
    #[arg(long)]
    pub resume: bool,
    /// Sift instead of search: write to --out the lines of --from whose game pairs in
    /// these `dama match` PDNs were decisive (not 1-1) in at least half of their pairs.
    #[arg(long, requires = "from", num_args = 1..)]
    pub sift: Vec<PathBuf>,
    /// The openings file the --sift matches were played on.
    #[arg(long, requires = "sift")]
    pub from: Option<PathBuf>,
    /// The evaluation that rates the lines: classic, nn (the shipped network) or a model
    /// file (default: the variant's default). Given, the file's first line names it.
    #[arg(long)]
    pub evaluation: Option<String>,
    /// Keep only lines whose best move by a depth-6 search differs from the --depth
    /// search's (positions where a shallow look goes wrong). Recorded in the header.
    #[arg(long)]
    pub unstable: bool,
}

/// Reads `LO..HI` in men into hundredths of a man.
fn parse_margin(s: &str) -> Result<(Score, Score), String> {
    let (lo, hi) = s
        .split_once("..")
        .ok_or_else(|| format!("margin '{s}': expected LO..HI in men, e.g. 0.3..0.9"))?;
    let men = |t: &str| -> Result<Score, String> {
        let v: f64 = t
            .trim()
            .parse()
            .map_err(|_| format!("margin '{s}': '{t}' is not a number of men"))?;
        if !(0.0..=20.0).contains(&v) {
            return Err(format!("margin '{s}': {v} men is out of 0..20"));
        }
        Ok((v * 100.0).round() as Score)
    };
    let (lo, hi) = (men(lo)?, men(hi)?);
    if lo > hi {
        return Err(format!("margin '{s}': it runs backwards"));
    }
    Ok((lo, hi))
}

/// The settings as the file's first line records them.
fn header(variant: Variant, sel: &Selection) -> String {
    let mut h = format!(
        "# dama openings variant={} plies={} margin={:.2}..{:.2} depth={} seed={}",
        variant,
        sel.plies,
        sel.margin.0 as f64 / 100.0,
        sel.margin.1 as f64 / 100.0,
        sel.depth,
        sel.seed
    );
    if let Some(e) = &sel.evaluation {
        h.push_str(&format!(" evaluation={e}"));
    }
    if sel.unstable {
        h.push_str(" unstable");
    }
    h
}

/// Runs `dama openings`.
pub fn run<R: Rules>(args: &OpeningsArgs) -> i32 {
    match openings::<R>(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("dama openings: {e}");
            2
        }
    }
}

fn openings<R: Rules>(args: &OpeningsArgs) -> Result<(), String> {
    if let Some(from) = &args.from {
        return sift::<R>(from, &args.sift, &args.out);
    }
    if let Some(e) = &args.evaluation {
        if e.is_empty() || e.contains(char::is_whitespace) {
            return Err(format!(
                "--evaluation '{e}': the file's first line records it, so it must be one word \
                 (a model file's path without spaces)"
            ));
        }
        crate::eval::Evaluation::by_name::<R>(e)?;
    }
    let defaults = Selection::default_for(args.variant);
    let sel = Selection {
        count: args.count,
        plies: args.plies.unwrap_or(defaults.plies),
        margin: args.margin.unwrap_or(defaults.margin),
        depth: args.depth.unwrap_or(defaults.depth).max(1),
        seed: args.seed,
        candidates: args.candidates,
        evaluation: args.evaluation.clone(),
        unstable: args.unstable,
    };
    if sel.unstable && sel.depth <= SHALLOW_DEPTH {
        return Err(format!(
            "--unstable compares a depth-{SHALLOW_DEPTH} search with the --depth one, so \
             --depth must be above {SHALLOW_DEPTH}, not {}",
            sel.depth
        ));
    }
    let head = header(args.variant, &sel);
    let existing = std::fs::read_to_string(&args.out).unwrap_or_default();
    let mut known = HashSet::new();
    let mut first = 0;
    if !existing.trim().is_empty() {
        if !args.resume {
            return Err(format!(
                "{} exists: add --resume to go on with it, or name another file",
                args.out.display()
            ));
        }
        if existing.lines().next() != Some(head.as_str()) {
            return Err(format!(
                "{} was made with other settings ({}), not {}",
                args.out.display(),
                existing.lines().next().unwrap_or(""),
                head
            ));
        }
        let has_lines = existing
            .lines()
            .any(|l| !l.split('#').next().unwrap_or("").trim().is_empty());
        if has_lines {
            for o in
                read_openings::<R>(&existing).map_err(|e| format!("{}: {e}", args.out.display()))?
            {
                known.insert(opening_game::<R>(&o)?.position().hash());
            }
        }
        first = existing
            .lines()
            .filter_map(candidate_of)
            .max()
            .map_or(0, |n| n + 1);
    }
    let mut file = Appender::open(&args.out, false)?;
    if existing.trim().is_empty() {
        file.append(&format!("{head}\n"))?;
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    eprintln!(
        "{}: {} lines wanted, {} in the file; candidates from {}; {} threads",
        args.out.display(),
        sel.count,
        known.len(),
        first,
        threads
    );
    let bar = Progress::new("openings", sel.count as u64, 10);
    let file = Mutex::new(file);
    let write = |c: &Chosen<R>| {
        file.lock()
            .expect("file")
            .append(&format!("{}\n", c.line()))
    };
    let progress = |lines: usize, rated: u64| bar.update(lines as u64, &format!("{rated} rated"));
    let report = select::<R>(&sel, threads, first, known.clone(), &write, &progress);
    bar.finish();
    let report = report?;
    let total = known.len() + report.chosen;
    eprintln!(
        "{} lines in {} ({} new: {} candidates rated, {} reached a position already in the file)",
        total,
        args.out.display(),
        report.chosen,
        report.rated,
        report.repeats
    );
    if total < sel.count {
        return Err(format!(
            "only {total} of {} lines within the margin in {} candidates: widen --margin, \
             or raise --candidates",
            sel.count, sel.candidates
        ));
    }
    Ok(())
}

/// `dama openings --sift`: the lines of `from` that the matches in `pdns` found
/// decisive in at least half of their pairs, written to `out` with `from`'s header.
fn sift<R: Rules>(from: &Path, pdns: &[PathBuf], out: &Path) -> Result<(), String> {
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let text = read(from)?;
    let openings = read_openings::<R>(&text).map_err(|e| format!("{}: {e}", from.display()))?;
    let lines: Vec<&str> = text.lines().filter(|l| is_opening_line(l)).collect();
    let texts = pdns
        .iter()
        .map(|p| crate::pdn::read_pdn_text(p).map_err(|e| format!("{}: {e}", p.display())))
        .collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let (outcomes, partial) = line_outcomes::<R>(&openings, &refs)?;
    if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
        return Err(format!("{} exists: name another file", out.display()));
    }
    let kept: Vec<&str> = lines
        .iter()
        .zip(&outcomes)
        .filter(|(_, o)| o.decisive > 0 && 2 * o.decisive >= o.pairs)
        .map(|(l, _)| *l)
        .collect();
    let played = outcomes.iter().filter(|o| o.pairs > 0).count();
    let pairs: u32 = outcomes.iter().map(|o| o.pairs).sum();
    let decisive: u32 = outcomes.iter().map(|o| o.decisive).sum();
    let names: Vec<String> = pdns.iter().map(|p| file_name(p)).collect();
    let mut body: String = text
        .lines()
        .take_while(|l| l.trim_start().starts_with('#') || l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    body.push_str(&format!(
        "# sifted (dama openings --sift): {} of the {} lines of {}, those decisive in at least \
         half of their pairs in {} ({decisive} of {pairs} pairs decisive)\n",
        kept.len(),
        lines.len(),
        file_name(from),
        names.join(", ")
    ));
    for l in &kept {
        body.push_str(l);
        body.push('\n');
    }
    crate::atomic_file::write(out, body.as_bytes())?;
    eprintln!(
        "{}: {} of {} lines kept; {played} lines played in {pairs} whole pairs, {decisive} \
         of them decisive; {partial} pairs left out (a game missing or unfinished)",
        out.display(),
        kept.len(),
        lines.len()
    );
    if kept.is_empty() {
        return Err("no line was decisive: nothing to keep".into());
    }
    Ok(())
}

/// A path's last part, as the sifted file's header names its inputs.
fn file_name(p: &Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
}
