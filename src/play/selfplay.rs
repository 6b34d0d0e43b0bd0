//! In-process engine-against-engine games: two [`Player`] settings of `dama` play
//! openings twice with colours swapped. Used to measure strength (tuned against untuned
//! weights, 2 threads against 1) and to make training positions for the tuner.
//! (`dama match` will drive external engines through the protocol.)

use crate::engine::time::Limits;
use crate::engine::Engine;
use crate::eval::classic::Weights;
use crate::game::{Game, Outcome};
use crate::play::pool::{self, Flow};
use crate::play::stats::Tally;
use crate::rules::Rules;
use crate::types::Color;
use std::sync::Mutex;

/// One side's settings.
#[derive(Clone, Debug)]
pub struct Player {
    /// A name for reports.
    pub name: String,
    /// Search limits per move.
    pub limits: Limits,
    /// Search threads.
    pub threads: usize,
    /// Evaluation weights.
    pub weights: Weights,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (G8, G9, E7).
    Rules(Outcome),
    /// Adjudicated a draw after the maximum number of plies.
    MaxPlies,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Record<R: Rules> {
    /// The game, opening included.
    pub game: Game<R>,
    /// Plies of the opening (not chosen by the engines).
    pub opening_plies: usize,
    /// White's score: 1, 0.5 or 0.
    pub white_score: f64,
    /// Why it ended.
    pub ending: Ending,
}

/// An engine set up as `p`.
fn engine_for<R: Rules>(p: &Player) -> Engine<R> {
    let mut e = Engine::<R>::new(8, p.threads);
    e.set_weights(p.weights.clone());
    e
}

/// Plays one game from `opening`, `engines[0]` (set up as `white`) against `engines[1]`
/// (`black`); a game longer than `max_plies` after the opening is adjudicated a draw.
pub fn play<R: Rules>(
    opening: &Game<R>,
    white: &Player,
    black: &Player,
    engines: [&mut Engine<R>; 2],
    max_plies: usize,
) -> Record<R> {
    let mut game = opening.clone();
    let opening_plies = game.moves().len();
    let [we, be] = engines;
    we.new_game();
    be.new_game();
    loop {
        if let Some(outcome) = game.outcome() {
            let white_score = match outcome.winner() {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
            return Record {
                game,
                opening_plies,
                white_score,
                ending: Ending::Rules(outcome),
            };
        }
        if game.moves().len() - opening_plies >= max_plies {
            return Record {
                game,
                opening_plies,
                white_score: 0.5,
                ending: Ending::MaxPlies,
            };
        }
        let (player, engine) = match game.position().side() {
            Color::White => (white, &mut *we),
            Color::Black => (black, &mut *be),
        };
        engine.set_game(game.clone());
        let result = engine.search(&player.limits, 1, &|_| {});
        let mv = result
            .best
            .expect("the game has not ended, so there is a move");
        game.play(&mv);
    }
}

/// A match: every opening twice with colours swapped, games in parallel on
/// `concurrency` threads (each with its own pair of engines). `progress` sees (games
/// done, games, tally so far). Returns the tally from `a`'s point of view and the
/// records in opening order.
pub fn run_match<R: Rules>(
    a: &Player,
    b: &Player,
    openings: &[Game<R>],
    max_plies: usize,
    concurrency: usize,
    progress: &(dyn Fn(usize, usize, &Tally) + Sync),
) -> (Tally, Vec<Record<R>>) {
    let tally = Mutex::new(Tally::default());
    let total = openings.len() * 2;
    let results: Mutex<Vec<(usize, [Record<R>; 2])>> = Mutex::new(Vec::new());
    let engines = || Some((engine_for::<R>(a), engine_for::<R>(b)));
    pool::run(concurrency, openings.len(), engines, |(ea, eb), i| {
        let op = &openings[i];
        let first = play(op, a, b, [ea, eb], max_plies);
        let second = play(op, b, a, [eb, ea], max_plies);
        let (s1, s2) = (first.white_score, 1.0 - second.white_score);
        let mut res = results.lock().expect("results");
        res.push((i, [first, second]));
        let mut t = tally.lock().expect("tally");
        t.add_game(s1);
        t.add_game(s2);
        t.add_pair(s1 + s2);
        progress(res.len() * 2, total, &t);
        Flow::Next
    });
    let mut res = results.into_inner().expect("results");
    res.sort_by_key(|(i, _)| *i);
    let records = res.into_iter().flat_map(|(_, pair)| pair).collect();
    (tally.into_inner().expect("tally"), records)
}
