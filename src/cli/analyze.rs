//! `dama analyze`: search one position and print its lines.

use crate::rules::Rules;
use crate::variant::Variant;
use clap::Args;

use super::{game_from_args, parse_variant};
use std::io::Write;

pub(super) const ANALYZE_HELP: &str = "\
Examples:
  dama analyze --variant english --depth 14
  dama analyze --variant dameo --fen 'W:We2:Be3,f4,g5,a8' --depth 8 --json
  dama analyze --variant scandinavian --moves 'c3-d4 f6-g5' --movetime 2000 --threads 2

Scores are in hundredths of a man from the side to move's view; a forced result shows as
'win in N' / 'loss in N' plies (JSON: \"win_in\": N, negative for a loss).
With --json every line is one JSON object: per depth {depth, seldepth, score, nodes, nps,
time_ms, hashfull, multipv, pv[, win_in]}, and last {bestmove, ponder, ...} with the same
fields (bestmove is null when the side to move has no legal move).
With endgame databases (see 'dama egdb --help'), lines also give the database value of
the position, 'egdb win in 7' (plies to the next capture; JSON \"egdb\": \"win\",
\"egdb_dtc\": 7) and the positions of the tree the databases answered ('egdb_hits').
With --book FILE (or builtin), the first line lists the book moves of the position with
their scores and counts ('book 11-15 +0.00 (340) 9-14 -0.06 (81)'; JSON {\"book\": [{move,
score, count}]}), or 'book none'.
A score of a database win inside the tree shows as 'egdb win' (JSON score 28000 - 512 x pieces - dtc,
so that fewer pieces, then a quicker capture, score higher).";

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
    /// The evaluation: default (the shipped network when the variant has one, else
    /// classic), classic, nn, or the path of a model file.
    #[arg(long, default_value = "default")]
    pub evaluation: String,
    /// Endgame-database directory (default: $DAMA_EGDB_DIR, else
    /// ~/.local/share/dama/egdb; see `dama egdb --help`). Without slices there, the
    /// search runs without databases.
    #[arg(long)]
    pub egdb_dir: Option<std::path::PathBuf>,
    /// Probe the databases for positions of at most this many pieces (0: never).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=8))]
    pub egdb_pieces: u32,
    /// Do not solve the variant's small endgame databases in memory when the directory
    /// lacks them (scandinavian: every slice of up to 4 pieces, about 4 s once).
    #[arg(long)]
    pub no_egdb_builtin: bool,
    /// An opening book (`builtin` or a file): its moves of the position are printed
    /// first (the search runs as ever).
    #[arg(long)]
    pub book: Option<String>,
}

pub(super) fn run<R: Rules>(args: &AnalyzeArgs) -> i32 {
    let game = match game_from_args::<R>(args.fen.as_deref(), args.moves.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let limits = crate::engine::time::Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(std::time::Duration::from_millis),
        ..Default::default()
    };
    let root = *game.position();
    let engine = engine_for::<R>(
        args.hash,
        args.threads,
        &args.evaluation,
        args.egdb_dir.as_deref(),
        args.egdb_pieces,
        !args.no_egdb_builtin,
    );
    let mut engine = match engine {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    engine.set_game(game);
    let json = args.json;
    if let Some(name) = &args.book {
        let book = match crate::engine::book::Book::<R>::load(name) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        };
        let moves = book.probe(&root).unwrap_or(&[]);
        if json {
            let list: Vec<_> = moves
                .iter()
                .map(|m| {
                    serde_json::json!({"move": crate::notation::move_text(&root, &m.mv),
                        "score": m.score, "count": m.count})
                })
                .collect();
            println!("{}", serde_json::json!({ "book": list }));
        } else if moves.is_empty() {
            println!("book none (the position is not in the book)");
        } else {
            let list: Vec<String> = moves
                .iter()
                .map(|m| {
                    format!(
                        "{} {:+.2} ({})",
                        crate::notation::move_text(&root, &m.mv),
                        m.score as f64 / 100.0,
                        m.count
                    )
                })
                .collect();
            println!("book {}", list.join(" "));
        }
    }
    let report = move |info: &crate::engine::search::Info| {
        let line = if json {
            crate::engine::analysis::info_json(&root, info)
        } else {
            crate::engine::analysis::info_line(&root, info)
        };
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let result = engine.search(&limits, args.multipv as usize, &report);
    let last = if json {
        crate::engine::analysis::best_json(&root, &result)
    } else {
        crate::engine::analysis::best_line(&root, &result)
    };
    println!("{last}");
    0
}

/// An engine for analysis: `hash` MiB, `threads`, the evaluation by name (`default`
/// keeps the variant's own), and the endgame databases of `egdb_dir` (or the default
/// directory) up to `egdb_pieces` pieces, with the variant's small slices solved in
/// memory when `builtin` and the directory lacks them; reported on stderr when found.
pub(super) fn engine_for<R: Rules>(
    hash: u32,
    threads: u32,
    evaluation: &str,
    egdb_dir: Option<&std::path::Path>,
    egdb_pieces: u32,
    builtin: bool,
) -> Result<crate::engine::Engine<R>, String> {
    let mut engine = crate::engine::Engine::<R>::try_new(hash as usize, threads as usize)?;
    if evaluation != "default" {
        engine.set_evaluation(crate::eval::Evaluation::by_name::<R>(evaluation)?);
    }
    if egdb_pieces > 0 {
        let dir = egdb_dir
            .map(std::path::Path::to_path_buf)
            .unwrap_or_else(crate::egdb::default_dir);
        let pieces = crate::engine::search::settings::builtin_egdb_pieces_within(
            R::VARIANT,
            builtin,
            egdb_pieces,
        );
        if pieces > 0 {
            // Solving takes seconds: said before, not only after.
            eprintln!(
                "egdb: solving in memory the {} slices of up to {pieces} pieces that {} lacks \
                 (a few seconds, once; --no-egdb-builtin skips it)",
                R::NAME,
                dir.display()
            );
        }
        let start = std::time::Instant::now();
        let mut tables = crate::egdb::builtin::open::<R>(&dir, pieces, true)?;
        tables.set_probe_pieces(egdb_pieces);
        if !tables.is_empty() {
            let took = if tables.memory_slices() > 0 {
                format!(" ({:.1} s)", start.elapsed().as_secs_f64())
            } else {
                String::new()
            };
            eprintln!("egdb: {}{took}", tables.summary_in(&dir));
            engine.set_egdb(Some(std::sync::Arc::new(tables)));
        } else if egdb_dir.is_some() {
            eprintln!("egdb: no {} slices in {}", R::NAME, dir.display());
        }
    }
    Ok(engine)
}
