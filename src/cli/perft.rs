//! `dama perft`: leaf counts of the legal-move tree.

use crate::rules::Rules;
use crate::variant::Variant;
use clap::Args;

use super::parse_variant;
use crate::fen::parse_fen;
use crate::notation::{path_text, square_name};
use crate::perft::{divide, Count};
use crate::position::Position;
use std::io::{IsTerminal, Write};
use std::time::Instant;

pub(super) const PERFT_HELP: &str = "\
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
pub(super) fn run<R: Rules>(args: &PerftArgs) -> i32 {
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
