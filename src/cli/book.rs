//! `dama book`: build an opening book by drop-out expansion, and probe one.

use super::parse_variant;
use crate::atomic_file::Appender;
use crate::cli::progress::Progress;
use crate::engine::book::{parse_line, position_line, Book, BookMove, MAGIC};
use crate::learn::expansion::{grow, Expansion, Node, Tree};
use crate::notation::move_text;
use crate::position::Position;
use crate::rules::Rules;
use crate::variant::Variant;
use clap::{Args, Subcommand};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub(super) const BOOK_HELP: &str = "\
Examples:
  dama book build --variant english --positions 2000 --out english.book
  dama book probe --variant english --moves '11-15 23-19'
  dama book probe --variant dameo --book my.book --fen 'W:W...:B...' --json

build grows the book from the start position by drop-out expansion: each position is
searched with --lines lines to --depth (one thread, a fresh table, so the book depends on
its settings alone), and the next positions searched are those whose path from the start
costs least: each move costs how far its score lies below the best move's (scores backed
up through the book), plus --ply-cost a ply; a move more than --margin men below the best
is not followed, and no position past --max-ply plies. It runs on every core (batches of
8 positions) with a progress bar; the positions are journalled in FILE.part as they are
searched, and Ctrl-C or a crash keeps them: the same command with --resume goes on
(--positions may be changed). When
done it writes FILE whole (checksummed; the format is in src/engine/book.rs and docs/books-annotation.md).
Defaults per variant (depth): english 12, scandinavian and boyer-parton 10, dameo and
croda 8.
probe lists a position's book moves, best first, with their scores (hundredths of a man
from the side to move's view) and counts (book positions under the move).";

/// Arguments of `dama book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The book subcommands.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Grow a book from the start position by drop-out expansion.
    Build(BuildArgs),
    /// List the book moves of a position.
    Probe(ProbeArgs),
}

/// Arguments of `dama book build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Rule set.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// The book file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Positions the book should hold.
    #[arg(long, default_value_t = 2000)]
    pub positions: usize,
    /// Depth of each position's search (default per variant: english 12, scandinavian
    /// 14, boyer-parton 10, dameo and croda 8).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub depth: Option<u32>,
    /// Lines (moves) searched in each position.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub lines: u32,
    /// No position deeper than this many plies from the start.
    #[arg(long, default_value_t = 20)]
    pub max_ply: usize,
    /// A move more than this many men below the best is not followed.
    #[arg(long, default_value_t = 0.25)]
    pub margin: f64,
    /// The cost of a ply, in men of drop-out.
    #[arg(long, default_value_t = 0.04)]
    pub ply_cost: f64,
    /// Worker threads (default: every core).
    #[arg(long, short = 't')]
    pub threads: Option<usize>,
    /// Go on with the unfinished build in FILE.part (same settings; --positions may differ).
    #[arg(long)]
    pub resume: bool,
}

/// Arguments of `dama book probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// Rule set.
    #[arg(long, short = 'v', value_parser = parse_variant)]
    pub variant: Variant,
    /// The book: a file, or `builtin` (the one shipped for the variant).
    #[arg(long, default_value = "builtin")]
    pub book: String,
    /// The position's PDN FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the start position or FEN, separated by spaces.
    #[arg(long)]
    pub moves: Option<String>,
    /// One JSON object.
    #[arg(long)]
    pub json: bool,
}

impl BookArgs {
    /// The variant the command is for.
    pub fn variant(&self) -> Variant {
        match &self.command {
            BookCommand::Build(a) => a.variant,
            BookCommand::Probe(a) => a.variant,
        }
    }
}

/// Runs `dama book`.
pub(super) fn run<R: Rules>(args: &BookArgs) -> i32 {
    let r = match &args.command {
        BookCommand::Build(a) => build::<R>(a),
        BookCommand::Probe(a) => probe::<R>(a),
    };
    match r {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// The default depth of a variant's book searches.
fn default_depth(v: Variant) -> u32 {
    match v {
        Variant::English => 12,
        Variant::Scandinavian => 14,
        Variant::BoyerParton => 10,
        Variant::Dameo | Variant::Croda => 8,
    }
}

fn men(x: f64, what: &str) -> Result<i32, String> {
    if !(0.0..=20.0).contains(&x) {
        return Err(format!("--{what} {x}: out of 0..20 men"));
    }
    Ok((x * 100.0).round() as i32)
}

/// The journal of a build in progress: `FILE.part`.
fn part_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".part");
    PathBuf::from(p)
}

fn build<R: Rules>(a: &BuildArgs) -> Result<i32, String> {
    let e = Expansion {
        positions: a.positions,
        depth: a.depth.unwrap_or_else(|| default_depth(R::VARIANT)),
        lines: a.lines as usize,
        max_ply: a.max_ply,
        margin: men(a.margin, "margin")?,
        ply_cost: men(a.ply_cost, "ply-cost")?,
    };
    let command = format!(
        "dama book build --variant {} --positions {} --depth {} --lines {} --max-ply {} \
         --margin {:.2} --ply-cost {:.2}",
        R::NAME,
        e.positions,
        e.depth,
        e.lines,
        e.max_ply,
        e.margin as f64 / 100.0,
        e.ply_cost as f64 / 100.0
    );
    let settings = settings_of(&command);
    let part = part_path(&a.out);
    let mut tree = Tree::new(Position::<R>::start());
    let header = format!("{MAGIC}\n# variant {}\n# command {command}\n", R::NAME);
    if a.resume && !part.exists() {
        return Err(format!(
            "{} does not exist: there is no unfinished build of {} to resume",
            part.display(),
            a.out.display()
        ));
    }
    if a.resume {
        let mut text =
            std::fs::read_to_string(&part).map_err(|e| format!("{}: {e}", part.display()))?;
        // A line torn by a crash is dropped, and searched again.
        if !text.is_empty() && !text.ends_with('\n') {
            text.truncate(text.rfind('\n').map_or(0, |i| i + 1));
            crate::atomic_file::write(&part, text.as_bytes())?;
        }
        let made = text
            .lines()
            .find_map(|l| l.strip_prefix("# command "))
            .ok_or_else(|| format!("{}: no '# command' line", part.display()))?;
        if settings_of(made) != settings {
            return Err(format!(
                "{} was made by '{made}': resume it with the same settings",
                part.display()
            ));
        }
        for (i, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let (pos, moves) = parse_line::<R>(line)
                .map_err(|e| format!("{}: line {}: {e}", part.display(), i + 1))?;
            tree.insert(Node {
                pos,
                moves: moves.iter().map(|m| (m.mv, m.score)).collect(),
            });
        }
    } else if part.exists() || a.out.exists() {
        return Err(format!(
            "{} or {} exists: give --resume to continue, or remove them",
            a.out.display(),
            part.display()
        ));
    } else {
        crate::atomic_file::write(&part, header.as_bytes())?;
    }
    let mut journal = Appender::open(&part, false)?;
    let threads = a.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    eprintln!(
        "book: {} to {} positions ({} already), depth {}, {} lines, {threads} threads",
        R::NAME,
        e.positions,
        tree.len(),
        e.depth,
        e.lines
    );
    let interrupt = Arc::new(AtomicBool::new(false));
    super::matches::catch_signals(&interrupt)?;
    let bar = Progress::new("book: positions", e.positions as u64, 200);
    let start = std::time::Instant::now();
    let write = |nodes: &[Node<R>]| {
        let text: String = nodes.iter().map(journal_line).collect();
        journal.append(&text)
    };
    let progress = |n: usize| {
        bar.update(n as u64, &format!("{:.0}s", start.elapsed().as_secs_f64()));
    };
    grow(&mut tree, &e, threads, write, &progress, &|| {
        interrupt.load(Ordering::Relaxed)
    })?;
    bar.finish();
    if interrupt.load(Ordering::Relaxed) {
        eprintln!(
            "book: interrupted with {} positions in {}; the same command with --resume goes on",
            tree.len(),
            part.display()
        );
        return Ok(super::matches::INTERRUPTED);
    }
    let book = tree.book(&e, command);
    crate::atomic_file::write(&a.out, book.to_text().as_bytes())?;
    let _ = std::fs::remove_file(&part);
    eprintln!(
        "book: {} positions written to {} in {:.0}s",
        book.len(),
        a.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(0)
}

/// The settings of a build command that decide the book: all but the size, which a
/// resume may change.
fn settings_of(command: &str) -> String {
    command
        .split(" --")
        .filter(|w| !w.starts_with("positions"))
        .collect::<Vec<_>>()
        .join(" --")
}

/// A searched position as the journal keeps it: the search's own scores, count 0.
fn journal_line<R: Rules>(n: &Node<R>) -> String {
    let moves: Vec<BookMove> = n
        .moves
        .iter()
        .map(|&(mv, score)| BookMove {
            mv,
            score,
            count: 0,
        })
        .collect();
    position_line(&n.pos, &moves) + "\n"
}

fn probe<R: Rules>(a: &ProbeArgs) -> Result<i32, String> {
    let book = Book::<R>::load(&a.book)?;
    let game = super::game_from_args::<R>(a.fen.as_deref(), a.moves.as_deref())?;
    let pos = game.position();
    let moves = book.probe(pos).unwrap_or(&[]);
    let text = if a.json {
        let list: Vec<_> = moves
            .iter()
            .map(|m| json!({"move": move_text(pos, &m.mv), "score": m.score, "count": m.count}))
            .collect();
        format!(
            "{}\n",
            json!({"fen": crate::fen::to_fen(pos), "moves": list})
        )
    } else if moves.is_empty() {
        format!("not in the book ({} positions)\n", book.len())
    } else {
        moves
            .iter()
            .map(|m| {
                format!(
                    "{} {} {}\n",
                    move_text(pos, &m.mv),
                    crate::engine::analysis::score_text(m.score),
                    m.count
                )
            })
            .collect()
    };
    // A closed pipe (`| head`) ends the output quietly.
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(0)
}
