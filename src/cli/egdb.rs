//! `dama egdb`: build, probe and verify the endgame databases.

use crate::cli::progress::Progress;
use crate::egdb::builder::{build_all, BuildEvent};
use crate::egdb::verify::verify_slice;
use crate::egdb::{default_dir, Material, Tables, Value};
use crate::fen::parse_fen;
use crate::notation::move_text;
use crate::rules::Rules;
use crate::variant::Variant;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use super::parse_variant;

pub(super) const EGDB_HELP: &str = "\
Examples:
  dama egdb build --variant scandinavian --pieces 4
  dama egdb probe --variant english --fen 'B:WK30:BK4,K1' --json
  dama egdb verify --variant croda

Values are win, draw or loss for the side to move with the distance to capture: the
plies until the next capture or promotion that keeps the win (the winner hurries, the
loser delays; a lost position without a move is 'loss in 0'). The draw counters are
ignored: no 100-ply rule (E7), a repetition is a draw.

Files: DIR/<variant>/<wm><wk><bm><bk>.egdb, one per slice (men and kings of White and
of Black, in the orientation where White has at least Black's material); both sides to
move are in the one file. DIR is --dir, else $DAMA_EGDB_DIR, else
$XDG_DATA_HOME/dama/egdb, else ~/.local/share/dama/egdb.";

/// Arguments of `dama egdb`.
#[derive(Args, Debug)]
pub struct EgdbArgs {
    /// What to do with the databases.
    #[command(subcommand)]
    pub command: EgdbCommand,
}

/// The `dama egdb` subcommands.
#[derive(Subcommand, Debug)]
pub enum EgdbCommand {
    /// Solve every slice of up to N pieces by retrograde analysis and write the files;
    /// slices already built are kept (a stopped build resumes).
    Build(BuildArgs),
    /// Print the database value of a position and of each of its moves.
    Probe(ProbeArgs),
    /// Check that every stored value equals the value its successors give.
    Verify(VerifyArgs),
    /// Play won positions drawn from the databases out, dama against itself, and count
    /// how many it wins and in how many plies (with the databases, or --without).
    Convert(ConvertArgs),
}

/// Arguments of `dama egdb convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Rule set: dameo, croda, scandinavian, boyer-parton or english.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// Won positions to play out.
    #[arg(long, default_value_t = 200)]
    pub positions: usize,
    /// Draw them from the slices of this many pieces (default: the largest at hand).
    #[arg(long, short = 'p')]
    pub pieces: Option<u32>,
    /// Milliseconds a move.
    #[arg(long, default_value_t = 100)]
    pub movetime: u64,
    /// Seed of the random positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play without the databases (the positions still come from them).
    #[arg(long)]
    pub without: bool,
    /// Games at the same time (one thread each).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// A game not won within this many plies counts as not won.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Database directory (default: see below).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

/// Arguments of `dama egdb build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Rule set: dameo, croda, scandinavian, boyer-parton or english.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// Largest number of pieces on the board (both sides, men and kings).
    #[arg(long, short = 'p', value_parser = clap::value_parser!(u32).range(2..=8))]
    pub pieces: u32,
    /// Database directory (default: see below).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Threads (default: all cores).
    #[arg(long, short = 't', value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

/// Arguments of `dama egdb probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// Rule set: dameo, croda, scandinavian, boyer-parton or english.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// The position, a PDN FEN.
    #[arg(long)]
    pub fen: String,
    /// Database directory (default: see below).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `dama egdb verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Rule set: dameo, croda, scandinavian, boyer-parton or english.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// Check only the slices of at most this many pieces (default: all found).
    #[arg(long, short = 'p')]
    pub pieces: Option<u32>,
    /// Database directory (default: see below).
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Threads (default: all cores).
    #[arg(long, short = 't', value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

/// Runs `dama egdb`.
pub(super) fn run<R: Rules>(args: &EgdbArgs) -> i32 {
    let result = match &args.command {
        EgdbCommand::Build(a) => build::<R>(a),
        EgdbCommand::Probe(a) => probe::<R>(a),
        EgdbCommand::Verify(a) => verify::<R>(a),
        EgdbCommand::Convert(a) => convert::<R>(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// The variant an `egdb` subcommand names.
pub(super) fn variant_of(args: &EgdbArgs) -> Variant {
    match &args.command {
        EgdbCommand::Build(a) => a.variant,
        EgdbCommand::Probe(a) => a.variant,
        EgdbCommand::Verify(a) => a.variant,
        EgdbCommand::Convert(a) => a.variant,
    }
}

fn pool(threads: Option<u32>) -> Result<rayon::ThreadPool, String> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        b = b.num_threads(t as usize);
    }
    b.build()
        .map_err(|e| format!("cannot start the threads: {e}"))
}

fn build<R: Rules>(a: &BuildArgs) -> Result<i32, String> {
    let dir = a.dir.clone().unwrap_or_else(default_dir);
    let pool = pool(a.threads)?;
    eprintln!(
        "building {} databases up to {} pieces in {} with {} threads",
        R::NAME,
        a.pieces,
        dir.display(),
        pool.current_num_threads()
    );
    let bar: Mutex<Option<Progress>> = Mutex::new(None);
    let start = Instant::now();
    let totals = Mutex::new((0u64, 0u64, 0u64, 0u64, 0u64, 0u64));
    let report = |e: &BuildEvent| {
        let mut bar = bar.lock().expect("progress");
        match e {
            BuildEvent::Kept { material } => eprintln!("slice {material}: kept (already built)"),
            BuildEvent::Rebuilding { material, reason } => {
                eprintln!("slice {material}: the file is refused ({reason}); building it again")
            }
            BuildEvent::Started {
                material,
                number,
                of,
                size,
            } => {
                *bar = Some(Progress::new(
                    &format!("slice {number}/{of} {material} ({size} indices)"),
                    1000,
                    250,
                ));
            }
            BuildEvent::Progress { done, total } => {
                if let Some(b) = bar.as_ref() {
                    b.update(done * 1000 / (*total).max(1), "");
                }
            }
            BuildEvent::Finished {
                material,
                stats,
                seconds,
                bytes,
            } => {
                if let Some(b) = bar.take() {
                    b.finish();
                }
                let mut t = totals.lock().expect("totals");
                t.0 += stats.positions;
                t.1 += stats.wins;
                t.2 += stats.draws;
                t.3 += stats.losses;
                t.4 += bytes;
                t.5 += 1;
                println!(
                    "slice {material}: {} positions, {} wins, {} draws, {} losses, \
                     longest {} plies, {seconds:.1} s, {bytes} bytes",
                    stats.positions, stats.wins, stats.draws, stats.losses, stats.max_distance
                );
            }
        }
    };
    let tables = pool.install(|| build_all::<R>(&dir, a.pieces, &report))?;
    let t = *totals.lock().expect("totals");
    println!(
        "built {} slices ({} new: {} positions, {} wins, {} draws, {} losses, {} bytes) in {:.1} s",
        tables.materials().len(),
        t.5,
        t.0,
        t.1,
        t.2,
        t.3,
        t.4,
        start.elapsed().as_secs_f64()
    );
    Ok(0)
}

fn value_json(v: Option<Value>) -> serde_json::Value {
    match v {
        None => serde_json::json!({"value": null}),
        Some(v) => serde_json::json!({"value": v.word(), "distance": v.distance()}),
    }
}

fn probe<R: Rules>(a: &ProbeArgs) -> Result<i32, String> {
    let dir = a.dir.clone().unwrap_or_else(default_dir);
    let pos = parse_fen::<R>(&a.fen).map_err(|e| e.to_string())?;
    let tables = Tables::<R>::open(&dir);
    let material = Material::of(&pos);
    let value = tables.lookup(&pos)?;
    let Some(value) = value else {
        return Err(format!(
            "no {} database for slice {} in {} (build it with: dama egdb build --variant {} \
             --pieces {})",
            R::NAME,
            material.canonical(),
            dir.display(),
            R::NAME,
            material.pieces()
        ));
    };
    let moves = tables.move_values(&pos)?;
    if a.json {
        let mut obj = value_json(Some(value));
        obj["variant"] = R::NAME.into();
        obj["fen"] = crate::fen::to_fen(&pos).into();
        obj["metric"] = "dtc".into();
        obj["slice"] = material.to_string().into();
        obj["moves"] = moves
            .iter()
            .map(|(mv, v)| {
                let mut m = value_json(*v);
                m["move"] = move_text(&pos, mv).into();
                m
            })
            .collect::<Vec<_>>()
            .into();
        println!("{obj}");
    } else {
        let unit = if value == Value::Draw {
            ""
        } else {
            " (plies to the next capture)"
        };
        println!("{material}: {value}{unit}");
        for (mv, v) in &moves {
            let text = match v {
                Some(v) => v.to_string(),
                None => "not in the databases".into(),
            };
            println!("  {:<16} {text}", move_text(&pos, mv));
        }
    }
    Ok(0)
}

fn verify<R: Rules>(a: &VerifyArgs) -> Result<i32, String> {
    let dir = a.dir.clone().unwrap_or_else(default_dir);
    let tables = Tables::<R>::open(&dir);
    let slices: Vec<Material> = tables
        .materials()
        .into_iter()
        .filter(|m| a.pieces.is_none_or(|p| m.pieces() <= p))
        .collect();
    if slices.is_empty() {
        return Err(format!("no {} slices in {}", R::NAME, dir.display()));
    }
    let pool = pool(a.threads)?;
    let (mut checked, mut bad) = (0u64, 0u64);
    for m in &slices {
        let (c, b, examples) = pool.install(|| verify_slice(&tables, *m, 5))?;
        checked += c;
        bad += b;
        println!("slice {m}: {c} positions, {b} inconsistent");
        for x in examples {
            println!(
                "  {}: stored {}, its moves give {}",
                x.fen, x.stored, x.from_moves
            );
        }
    }
    println!(
        "verified {} slices, {checked} positions: {}",
        slices.len(),
        if bad == 0 {
            "all consistent".to_string()
        } else {
            format!("{bad} inconsistent")
        }
    );
    Ok(if bad == 0 { 0 } else { 1 })
}

fn convert<R: Rules>(a: &ConvertArgs) -> Result<i32, String> {
    use crate::play::conversion::{play_all, won_positions, Playout};
    let dir = a.dir.clone().unwrap_or_else(default_dir);
    let tables = std::sync::Arc::new(Tables::<R>::open(&dir));
    if tables.is_empty() {
        return Err(format!("no {} slices in {}", R::NAME, dir.display()));
    }
    let pieces = a.pieces.unwrap_or_else(|| {
        tables
            .materials()
            .iter()
            .map(|m| m.pieces())
            .max()
            .unwrap_or(0)
    });
    let positions = won_positions(&tables, pieces, a.positions, a.seed)?;
    let limits = crate::engine::time::Limits {
        movetime: Some(std::time::Duration::from_millis(a.movetime)),
        ..Default::default()
    };
    let egdb = (!a.without).then(|| tables.clone());
    eprintln!(
        "{} won {}-piece positions of {}, played out at {} ms a move {} databases",
        positions.len(),
        pieces,
        R::NAME,
        a.movetime,
        if a.without { "without" } else { "with" }
    );
    let progress = Progress::new("convert", positions.len() as u64, 10);
    let results = play_all(
        &positions,
        &limits,
        egdb,
        &tables,
        a.max_plies,
        a.concurrency as usize,
        &|done| progress.update(done as u64, ""),
    );
    progress.finish();
    let results = results?;
    for (p, r) in positions.iter().zip(&results) {
        if !r.won {
            let how = match r.outcome {
                Some(o) => format!("{o:?}"),
                None => format!("no result after {} plies", r.plies),
            };
            match &r.beyond_rule {
                Some((fen, since, d)) => println!(
                    "not won: {} ({how}; at {fen}, {since} plies after a capture, the \
                     databases' best defence holds {d} more plies: a draw by the \
                     no-capture rule with best play)",
                    crate::fen::to_fen(p)
                ),
                None => println!("not won: {} ({how})", crate::fen::to_fen(p)),
            }
        }
    }
    let out_of_reach = results
        .iter()
        .filter(|r| !r.won && r.beyond_rule.is_some())
        .count();
    let won: Vec<&Playout> = results.iter().filter(|r| r.won).collect();
    let avg = won.iter().map(|r| r.plies as f64).sum::<f64>() / won.len().max(1) as f64;
    let max = won.iter().map(|r| r.plies).max().unwrap_or(0);
    println!(
        "{} {}-piece positions: won {}/{} {} databases, average {:.1} plies to the win (longest {})",
        R::NAME,
        pieces,
        won.len(),
        results.len(),
        if a.without { "without" } else { "with" },
        avg,
        max
    );
    if out_of_reach > 0 {
        println!(
            "{out_of_reach} of the games not won reached a position whose win needs more \
             plies without a capture than the no-capture draw allows"
        );
    }
    Ok(if won.len() == results.len() { 0 } else { 1 })
}
