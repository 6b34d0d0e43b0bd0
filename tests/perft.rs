//! Perft tables (docs/rules.md P and the engine's own deeper figures), read from
//! `tests/perft/<variant>.txt`. Rows up to `BUDGET` nodes run by default; the deep rows
//! run with `cargo test --release -- --ignored`.

use dama::fen::parse_fen;
use dama::perft::{perft, perft_paths};
use dama::{with_variant, Position, Rules, Variant};

/// Rows with more leaves than this are deep rows.
const BUDGET: u64 = 20_000_000;

struct Row {
    line: usize,
    fen: Option<String>,
    paths: bool,
    depth: u32,
    nodes: u64,
}

fn rows(variant: Variant) -> Vec<Row> {
    let path = format!("{}/tests/perft/{}.txt", env!("CARGO_MANIFEST_DIR"), variant);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut fen: Option<String> = None;
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[0] {
            "position" => {
                fen = match words.get(1) {
                    Some(&"start") => None,
                    Some(f) => Some(f.to_string()),
                    None => panic!("{path}:{}: position needs start or a FEN", i + 1),
                }
            }
            kind @ ("moves" | "paths") => {
                assert_eq!(words.len(), 3, "{path}:{}: {kind} <depth> <nodes>", i + 1);
                out.push(Row {
                    line: i + 1,
                    fen: fen.clone(),
                    paths: kind == "paths",
                    depth: words[1].parse().expect("depth"),
                    nodes: words[2].parse().expect("nodes"),
                });
            }
            other => panic!("{path}:{}: unknown keyword {other}", i + 1),
        }
    }
    assert!(!out.is_empty(), "{path} has no rows");
    out
}

fn check(variant: Variant, deep: bool) {
    let mut ran = 0;
    for row in rows(variant) {
        if (row.nodes > BUDGET) != deep {
            continue;
        }
        let got = with_variant!(variant, R => run::<R>(&row));
        assert_eq!(
            got,
            row.nodes,
            "{variant} perft line {}: {} depth {} from {}",
            row.line,
            if row.paths { "paths" } else { "moves" },
            row.depth,
            row.fen.as_deref().unwrap_or("start")
        );
        ran += 1;
    }
    assert!(deep || ran > 0, "no fast rows for {variant}");
}

fn run<R: Rules>(row: &Row) -> u64 {
    let pos = match &row.fen {
        Some(f) => parse_fen::<R>(f).expect("valid FEN in perft file"),
        None => Position::<R>::start(),
    };
    if row.paths {
        perft_paths(&pos, row.depth)
    } else {
        perft(&pos, row.depth)
    }
}

#[test]
fn perft_dameo() {
    check(Variant::Dameo, false);
}
#[test]
fn perft_croda() {
    check(Variant::Croda, false);
}
#[test]
fn perft_scandinavian() {
    check(Variant::Scandinavian, false);
}
#[test]
fn perft_boyer_parton() {
    check(Variant::BoyerParton, false);
}
#[test]
fn perft_english() {
    check(Variant::English, false);
}

#[test]
#[ignore = "deep perft: run with --ignored in a release build"]
fn perft_deep_dameo() {
    check(Variant::Dameo, true);
}
#[test]
#[ignore = "deep perft: run with --ignored in a release build"]
fn perft_deep_croda() {
    check(Variant::Croda, true);
}
#[test]
#[ignore = "deep perft: run with --ignored in a release build"]
fn perft_deep_scandinavian() {
    check(Variant::Scandinavian, true);
}
#[test]
#[ignore = "deep perft: run with --ignored in a release build"]
fn perft_deep_boyer_parton() {
    check(Variant::BoyerParton, true);
}
#[test]
#[ignore = "deep perft: run with --ignored in a release build"]
fn perft_deep_english() {
    check(Variant::English, true);
}
