//! Conversion runs: won positions drawn from the databases, played out by dama against
//! itself, to show that the engine wins what the databases call won (and how fast),
//! with the databases and without them.

use crate::egdb::index::Indexer;
use crate::egdb::material::Material;
use crate::egdb::tables::Tables;
use crate::egdb::value::Value;
use crate::engine::time::Limits;
use crate::engine::Engine;
use crate::game::{Game, Outcome};
use crate::movegen;
use crate::play::pool::{self, Flow};
use crate::position::Position;
use crate::rules::Rules;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playout {
    /// True when the side to move at the start won.
    pub won: bool,
    /// Plies played.
    pub plies: u32,
    /// Why the game ended (`None`: stopped at the ply limit).
    pub outcome: Option<Outcome>,
    /// The first position of the game, if any, where the databases' best defence
    /// delays the winner's next capture past the variant's no-capture draw (E7): its
    /// FEN, the plies since the last capture there and the database distance. From
    /// there the win cannot be brought home under the full rules by any play.
    pub beyond_rule: Option<(String, u32, u16)>,
}

/// Plays `start` out, dama against itself with `limits` a move and the databases
/// `egdb` (or none), until the game ends or `max_plies` are played. `judge` (the
/// databases, whether or not the engine plays with them) marks the positions whose
/// win lies beyond the no-capture draw.
pub fn play_out<R: Rules>(
    start: Position<R>,
    limits: &Limits,
    egdb: Option<Arc<Tables<R>>>,
    judge: Option<&Tables<R>>,
    max_plies: u32,
) -> Result<Playout, String> {
    let mut engine = Engine::<R>::try_new(16, 1)?;
    engine.set_egdb(egdb);
    let winner = start.side();
    let mut game = Game::new(start);
    let mut plies = 0;
    let mut beyond_rule = None;
    loop {
        let pos = *game.position();
        if let (Some(t), Some(limit), None) = (judge, R::NO_CAPTURE_DRAW_PLIES, &beyond_rule) {
            let d = match t.lookup(&pos) {
                Ok(Some(Value::Win(d))) if pos.side() == winner => Some(d),
                Ok(Some(Value::Loss(d))) if pos.side() != winner => Some(d),
                _ => None,
            };
            if let Some(d) = d {
                if pos.plies_since_capture() + d as u32 > limit {
                    beyond_rule = Some((crate::fen::to_fen(&pos), pos.plies_since_capture(), d));
                }
            }
        }
        if let Some(outcome) = game.outcome() {
            return Ok(Playout {
                won: outcome.winner() == Some(winner),
                plies,
                outcome: Some(outcome),
                beyond_rule,
            });
        }
        if plies >= max_plies {
            return Ok(Playout {
                won: false,
                plies,
                outcome: None,
                beyond_rule,
            });
        }
        engine.set_game(game.clone());
        let result = engine.search(limits, 1, &|_| {});
        let mv = result.best.ok_or("the search found no move")?;
        game.play(&mv);
        plies += 1;
    }
}

/// Plays out every position of `positions` as [`play_out`] does, on `concurrency`
/// workers of the [`pool`](crate::play::pool::run); `progress` sees the number played out
/// after each. The playouts in the order of `positions`, or the first error.
pub fn play_all<R: Rules>(
    positions: &[Position<R>],
    limits: &Limits,
    egdb: Option<Arc<Tables<R>>>,
    judge: &Tables<R>,
    max_plies: u32,
    concurrency: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<Playout>, String> {
    let results: Mutex<Vec<Option<Playout>>> = Mutex::new(vec![None; positions.len()]);
    let done = AtomicUsize::new(0);
    let error: Mutex<Option<String>> = Mutex::new(None);
    pool::run(
        concurrency,
        positions.len(),
        || Some(()),
        |_, i| match play_out(positions[i], limits, egdb.clone(), Some(judge), max_plies) {
            Ok(p) => {
                results.lock().expect("results")[i] = Some(p);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                Flow::Next
            }
            Err(e) => {
                *error.lock().expect("error") = Some(e);
                Flow::Stop
            }
        },
    );
    if let Some(e) = error.into_inner().expect("error") {
        return Err(e);
    }
    Ok(results
        .into_inner()
        .expect("results")
        .into_iter()
        .flatten()
        .collect())
}
