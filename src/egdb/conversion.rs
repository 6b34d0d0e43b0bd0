//! Conversion runs: won positions drawn from the databases, played out by dama against
//! itself, to show that the engine wins what the databases call won (and how fast),
//! with the databases and without them.

use super::index::Indexer;
use super::material::Material;
use super::tables::Tables;
use super::value::Value;
use crate::engine::Engine;
use crate::game::{Game, Outcome};
use crate::movegen;
use crate::position::Position;
use crate::rules::Rules;
use crate::time::Limits;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

/// `count` positions drawn at random (fixed `seed`) from the slices of exactly `pieces`
/// pieces, each won for the side to move and without a capture pending.
pub fn won_positions<R: Rules>(
    tables: &Tables<R>,
    pieces: u32,
    count: usize,
    seed: u64,
) -> Result<Vec<Position<R>>, String> {
    let slices: Vec<Material> = tables
        .materials()
        .into_iter()
        .filter(|m| m.pieces() == pieces)
        .collect();
    if slices.is_empty() {
        return Err(format!(
            "no {} slice of {pieces} pieces is at hand",
            R::NAME
        ));
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut tries = 0u64;
    while out.len() < count {
        tries += 1;
        if tries > 1000 * count as u64 + 100_000 {
            return Err(format!(
                "too few won positions without a capture in the {pieces}-piece slices"
            ));
        }
        let m = slices[rng.gen_range(0..slices.len())];
        let ix = Indexer::<R>::new(m);
        let Some(p) = ix.position(rng.gen_range(0..ix.size())) else {
            continue;
        };
        if movegen::has_capture(&p) {
            continue;
        }
        // A random orientation, so that both colours win.
        let p = if rng.gen_bool(0.5) { p.turned() } else { p };
        if let Ok(Some(Value::Win(_))) = tables.lookup(&p) {
            out.push(p);
        }
    }
    Ok(out)
}

/// How one played-out position ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// True when the side to move at the start won.
    pub won: bool,
    /// Plies played.
    pub plies: u32,
    /// Why the game ended (`None`: stopped at the ply limit).
    pub outcome: Option<Outcome>,
}

/// Plays `start` out, dama against itself with `limits` a move and the databases
/// `egdb` (or none), until the game ends or `max_plies` are played.
pub fn play_out<R: Rules>(
    start: Position<R>,
    limits: &Limits,
    egdb: Option<Arc<Tables<R>>>,
    max_plies: u32,
) -> Result<Playout, String> {
    let mut engine = Engine::<R>::try_new(16, 1)?;
    engine.set_egdb(egdb);
    let winner = start.side();
    let mut game = Game::new(start);
    let mut plies = 0;
    loop {
        if let Some(outcome) = game.outcome() {
            return Ok(Playout {
                won: outcome.winner() == Some(winner),
                plies,
                outcome: Some(outcome),
            });
        }
        if plies >= max_plies {
            return Ok(Playout {
                won: false,
                plies,
                outcome: None,
            });
        }
        engine.set_game(game.clone());
        let result = engine.search(limits, 1, &|_| {});
        let mv = result.best.ok_or("the search found no move")?;
        game.play(&mv);
        plies += 1;
    }
}
