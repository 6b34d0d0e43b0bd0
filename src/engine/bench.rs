//! `dama bench`: a fixed set of positions of every variant, each searched to a fixed
//! depth with one thread and a fresh table. The node counts are the signature of the
//! search's behaviour: a commit that changes them says the new `bench nodes=` figure.

use crate::engine::time::Limits;
use crate::engine::Engine;
use crate::fen::parse_fen;
use crate::game::Game;
use crate::rules::Rules;
use crate::variant::Variant;
use crate::with_variant;
use std::time::Instant;

/// Bench positions per variant (`start` or a FEN).
const POSITIONS: [(Variant, &[&str]); 5] = [
    (
        Variant::Dameo,
        &[
            "start",
            "W:Wa1,b1,c1,d1,e1,f1,h1,b2,d2,e2,g2,d3,e3,f3,c4,d4,f4,c5:Bb6,c6,d6,e6,f6,g6,b7,c7,d7,e7,f7,g7,a8,c8,e8,f8,h8",
            "W:Wa1,b1,h1,b2,d2,e2,f2,a3,c3,d3,h3,d4,f4,g4:BKg1,b4,c5,b6,c6,d6,e6,g6,b7,d7,e7,a8,c8,d8,h8",
        ],
    ),
    (
        Variant::Croda,
        &[
            "start",
            "W:Wa1,b1,c1,d1,e1,f1,g1,h1,a2,b2,d2,e2,f2,g2,h2,b3,c3,e3,f3,g3,d4,e4,g4:Ba4,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7,a8,b8,d8,e8,f8,g8,h8",
            "W:Wa1,c1,d1,e1,g1,h1,a2,b2,c2,d2,e2,f2,g2,c3,d3,e3,f3,g3,h3,a4,b4,g4:Bb5,d5,f5,h5,d6,e6,f6,a7,b7,c7,d7,e7,f7,g7,h7,a8,b8,c8,d8,e8,g8,h8",
        ],
    ),
    (
        Variant::Scandinavian,
        &[
            "start",
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,f4:Ba3,c3,h4,h6,a7,c7,e7,g7,b8,d8,f8,h8",
            "W:Wc1,e1,b2,d2,f2,h2,a3,b4,h4:Bf4,c5,e5,d6,f6,a7,c7,g7,d8,h8",
        ],
    ),
    (
        Variant::BoyerParton,
        &[
            "start",
            "W:Wa1,c1,g1,b2,d2,c3,h4:Bh2,a3,f6,h6,a7,g7,d8,f8,h8",
            "W:Wa1,b2,Kg5,h6,Kb8:Ba7,g7",
        ],
    ),
    (
        Variant::English,
        &[
            "start",
            "B:W9,17,21,23,24,25,28,29,30,31,32:B1,2,4,5,6,7,8,10,11,12",
            "B:W14,21,22,23,25,26,30,31,32:B1,2,4,5,6,8,15,16,20",
        ],
    ),
];

/// The default depth per variant: a few seconds in all on this project's machines.
fn default_depth(v: Variant) -> u32 {
    match v {
        Variant::Dameo => 9,
        Variant::Croda => 9,
        Variant::Scandinavian => 14,
        Variant::BoyerParton => 14,
        Variant::English => 16,
    }
}

/// Runs the bench and prints `nodes N` per variant and `bench nodes=N nps=N` last.
pub fn run(depth: Option<u32>, evaluation: &str) -> i32 {
    let mut total = 0u64;
    let start = Instant::now();
    for (variant, fens) in POSITIONS {
        let d = depth.unwrap_or_else(|| default_depth(variant));
        let t = Instant::now();
        let nodes = with_variant!(variant, R => bench_variant::<R>(fens, d, evaluation));
        match nodes {
            Ok((n, kind)) => {
                let secs = t.elapsed().as_secs_f64().max(1e-9);
                println!(
                    "{variant} depth {d} evaluation {kind} nodes {n} nps {}",
                    (n as f64 / secs) as u64
                );
                total += n;
            }
            Err(e) => {
                eprintln!("error: {variant}: {e}");
                return 1;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (total as f64 / secs) as u64
    } else {
        0
    };
    println!("bench nodes={total} nps={nps}");
    0
}

fn bench_variant<R: Rules>(
    fens: &[&str],
    depth: u32,
    evaluation: &str,
) -> Result<(u64, &'static str), String> {
    let eval = match evaluation {
        "default" => crate::eval::Evaluation::default_for::<R>(),
        name => crate::eval::Evaluation::by_name::<R>(name)?,
    };
    let mut nodes = 0;
    for fen in fens {
        let pos = if *fen == "start" {
            crate::position::Position::<R>::start()
        } else {
            parse_fen::<R>(fen).map_err(|e| e.to_string())?
        };
        let mut engine = Engine::<R>::new(16, 1);
        engine.set_game(Game::new(pos));
        engine.set_evaluation(eval.clone());
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        nodes += engine.search(&limits, 1, &|_| {}).nodes;
    }
    Ok((nodes, eval.kind()))
}
