//! The playing levels (`dama::engine::skill`), through the library: every level plays
//! legal moves through whole games in every variant, stays within its node budget
//! whatever time it is given, draws the same moves from the same seed and other moves
//! from another, and level 10 is the full search unchanged. The protocol's side is in
//! `tests/protocol.rs`, the board's in `tests/serve.rs`.

use dama::engine::skill::{Skill, SETTINGS};
use dama::engine::time::Limits;
use dama::engine::Engine;
use dama::game::Game;
use dama::{movegen, with_variant, Position, Rules, Variant};
use std::time::Duration;

/// The search checks its node budget every this many nodes (the worker's
/// `CHECK_EVERY`) and at the end of every iteration, where a spent budget starts no
/// other; so a budget is passed by less than this many nodes, or by the first
/// iteration, which every search finishes so that it has a move.
const CHECK_EVERY: u64 = 1024;

/// Whether a level's search kept its budget: within it (to [`CHECK_EVERY`]), or past it
/// only by its first iteration (in dameo and croda, with twenty root moves and long
/// captures, depth 1 of every line can take a few thousand nodes).
fn within_budget(r: &dama::engine::search::SearchResult, nodes: u64) -> bool {
    r.nodes <= nodes + CHECK_EVERY || r.lines.iter().all(|l| l.depth == 1)
}

/// Plays a game of the engine against itself, each move at the level `level(ply)`,
/// with `seed` for the draws; every move is checked legal. Returns the moves.
fn game_at<R: Rules>(
    level: impl Fn(usize) -> u32,
    limits: &Limits,
    seed: u64,
    max_plies: usize,
) -> Vec<dama::Move> {
    let mut engine = Engine::<R>::new(4, 1);
    let mut game = Game::new(Position::<R>::start());
    while game.outcome().is_none() && game.moves().len() < max_plies {
        let ply = game.moves().len();
        let skill = Skill::new(level(ply)).unwrap();
        engine.set_game(game.clone());
        let noise = Skill::noise(Some(seed), game.position());
        let r = engine.play(limits, skill, noise, &|_| {});
        let mv = r.best.expect("a move while the game goes on");
        assert!(
            movegen::legal_moves(game.position()).contains(&mv),
            "{} level {}: an illegal move at ply {ply}",
            R::NAME,
            skill.level()
        );
        if let Some(s) = skill.setting() {
            assert!(
                within_budget(&r, s.nodes),
                "{} level {}: {} nodes past the budget {}, depths {:?} nodes {:?}",
                R::NAME,
                skill.level(),
                r.nodes,
                s.nodes,
                r.lines.iter().map(|l| l.depth).collect::<Vec<_>>(),
                r.lines.iter().map(|l| l.nodes).collect::<Vec<_>>()
            );
        }
        assert!(game.play(&mv));
    }
    game.moves().to_vec()
}

/// Every level, in turn move by move, through whole games in every variant (to the end
/// of the game, or 400 plies). Given at most 20,000 nodes a move, the levels above 5
/// search less than their budget here (the deep tier plays them at their budgets).
#[test]
fn every_level_plays_legal_moves_through_whole_games() {
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    for v in Variant::ALL {
        with_variant!(v, R => {
            for seed in 1..=2 {
                let moves = game_at::<R>(|ply| (ply % 10) as u32 + 1, &limits, seed, 400);
                assert!(moves.len() > 10, "{v}: {} plies", moves.len());
            }
        });
    }
}

/// As above, each level at its own budget with an hour a move, one game per level in
/// each variant.
#[test]
#[ignore = "deep tier: about a minute"]
fn every_level_plays_whole_games_at_its_budget() {
    let hour = Limits {
        movetime: Some(Duration::from_secs(3600)),
        ..Limits::default()
    };
    for v in Variant::ALL {
        with_variant!(v, R => {
            for level in 1..Skill::FULL {
                game_at::<R>(|_| level, &hour, u64::from(level), 300);
            }
        });
    }
}

/// A low level answers within its node budget whatever time it is given: a fixed move
/// time of an hour, an hour on the clock, or no limit at all (`infinite`). The node
/// budget, not the clock, bounds it, so the bound holds on any machine.
#[test]
fn a_level_keeps_its_budget_whatever_the_time() {
    let hour = Duration::from_secs(3600);
    let givens = [
        Limits {
            movetime: Some(hour),
            ..Limits::default()
        },
        Limits {
            time: Some(hour),
            increment: Some(hour),
            ..Limits::default()
        },
        Limits {
            infinite: true,
            ..Limits::default()
        },
    ];
    for v in Variant::ALL {
        with_variant!(v, R => {
            let engine = Engine::<R>::new(4, 1);
            for level in 1..=4 {
                let skill = Skill::new(level).unwrap();
                let budget = skill.setting().unwrap();
                for given in &givens {
                    let r = engine.play(given, skill, 1, &|_| {});
                    assert!(r.best.is_some());
                    assert!(within_budget(&r, budget.nodes), "{v} level {level}: {}", r.nodes);
                    let depth = r.lines.iter().map(|l| l.depth).max().unwrap();
                    assert!(depth <= budget.depth, "{v} level {level}: depth {depth}");
                }
            }
        });
    }
    // The time given still bounds a level: a level never takes more than it is given.
    let l = Skill::new(9).unwrap().limits(&Limits {
        movetime: Some(Duration::from_millis(30)),
        ..Limits::default()
    });
    assert_eq!(l.movetime, Some(Duration::from_millis(30)));
    assert_eq!(l.nodes, Some(SETTINGS[8].nodes));
}

/// With a fixed seed a level's games are the same; with another seed they differ.
#[test]
fn a_seed_reproduces_a_level_and_another_seed_varies_it() {
    let budget = Limits::default();
    for v in [Variant::English, Variant::Dameo] {
        with_variant!(v, R => {
            let a = game_at::<R>(|_| 3, &budget, 11, 40);
            let b = game_at::<R>(|_| 3, &budget, 11, 40);
            let c = game_at::<R>(|_| 3, &budget, 12, 40);
            assert_eq!(a, b, "{v}: seed 11 twice");
            assert_ne!(a, c, "{v}: seeds 11 and 12");
        });
    }
}

/// The draw itself: from one position, many seeds give several moves at a low level,
/// mostly the best; level 9 nearly always plays the best.
#[test]
fn low_levels_vary_their_replies() {
    use dama::rules::English;
    let engine = Engine::<English>::new(4, 1);
    let start = Position::<English>::start();
    let limits = Limits::default();
    let replies = |level: u32| {
        let skill = Skill::new(level).unwrap();
        let mut seen = std::collections::BTreeMap::new();
        for seed in 0..60 {
            let r = engine.play(&limits, skill, Skill::noise(Some(seed), &start), &|_| {});
            *seen
                .entry(dama::notation::move_text(&start, &r.best.unwrap()))
                .or_insert(0) += 1;
        }
        seen
    };
    let low = replies(1);
    assert!(low.len() >= 4, "level 1 from the start: {low:?}");
    let high = replies(9);
    assert!(high.len() <= 3, "level 9 from the start: {high:?}");
}

/// Level 10 is the full search: the same move, score and nodes as a one-line search.
#[test]
fn level_ten_is_the_full_search() {
    for v in Variant::ALL {
        with_variant!(v, R => {
            let limits = Limits {
                depth: Some(7),
                ..Limits::default()
            };
            let a = Engine::<R>::new(4, 1);
            let b = Engine::<R>::new(4, 1);
            let full = a.search(&limits, 1, &|_| {});
            let ten = b.play(&limits, Skill::default(), 12345, &|_| {});
            assert_eq!(full.best, ten.best, "{v}");
            assert_eq!(full.nodes, ten.nodes, "{v}");
            let lines = |r: &dama::engine::search::SearchResult| {
                r.lines.iter().map(|l| (l.depth, l.score, l.pv.clone())).collect::<Vec<_>>()
            };
            assert_eq!(lines(&full), lines(&ten), "{v}");
        });
    }
}

/// docs/levels.md's table of settings is the table the engine plays by: every level's
/// name, node budget, depth cap, temperature and book plies as `SETTINGS` and `NAMES`
/// have them (so a retune cannot leave the page behind).
#[test]
fn the_settings_page_shows_the_settings() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/levels.md")).unwrap();
    let header =
        "| level | name | nodes a move | deepest iteration | temperature (men) | book plies |";
    let table: Vec<Vec<String>> = page
        .lines()
        .skip_while(|l| *l != header)
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect();
    assert_eq!(table.len(), 10, "{table:?}");
    for (i, row) in table.iter().enumerate() {
        let level = u32::try_from(i + 1).unwrap();
        let skill = Skill::new(level).unwrap();
        assert_eq!(row[0], level.to_string());
        assert_eq!(row[1], skill.name());
        let Some(s) = skill.setting() else {
            assert_eq!(level, 10);
            continue;
        };
        assert_eq!(s, SETTINGS[i]);
        assert_eq!(
            row[2].replace(',', "").parse::<u64>().unwrap(),
            s.nodes,
            "{row:?}"
        );
        assert_eq!(row[3].parse::<u32>().unwrap(), s.depth, "{row:?}");
        assert_eq!(row[4], format!("{:.2}", s.temperature), "{row:?}");
        assert_eq!(row[5].parse::<u32>().unwrap(), s.book_plies, "{row:?}");
    }
}
