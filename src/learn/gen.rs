//! `dama gen`: training data from self-play. Each game starts from a random balanced
//! opening of its own (seeded by the run's seed and the game number, so a game is the
//! same whatever thread plays it and whenever) and is played out by one engine against
//! itself at a fixed node or depth limit; every quiet position (no capture pending) is
//! written with the search's score and the game's result.

use crate::engine::time::Limits;
use crate::engine::Engine;
use crate::eval::Evaluation;
use crate::learn::data::{Record, Writer};
use crate::movegen;
use crate::play::opening;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Color;

/// Scores beyond this (forced wins) are written as this.
pub const SCORE_CLAMP: i32 = 10_000;

/// The settings of a data run.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Games in the whole run (numbered `0..games`).
    pub games: u32,
    /// The search limit of every move.
    pub limits: Limits,
    /// Random plies of each opening.
    pub opening_plies: usize,
    /// Plies after the opening after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// The run's seed.
    pub seed: u64,
    /// The evaluation the games are played with.
    pub evaluation: Evaluation,
}

/// Plays game `index` and returns its records (quiet positions after the opening).
pub fn play_game<R: Rules>(engine: &mut Engine<R>, cfg: &GenConfig, index: u32) -> Vec<Record> {
    let mut game = opening::for_game(engine, cfg.opening_plies, cfg.seed, index);
    engine.new_game();
    let start_ply = game.moves().len();
    let mut quiet: Vec<(Position<R>, i16)> = Vec::new();
    let white_result: u8 = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome.winner() {
                Some(Color::White) => 2,
                Some(Color::Black) => 0,
                None => 1,
            };
        }
        if game.moves().len() - start_ply >= cfg.max_plies {
            break 1;
        }
        engine.set_game(game.clone());
        let r = engine.search(&cfg.limits, 1, &|_| {});
        let Some(mv) = r.best else { break 1 };
        let pos = *game.position();
        if !movegen::has_capture(&pos) {
            let score = r.lines.first().map_or(0, |l| l.score);
            quiet.push((pos, score.clamp(-SCORE_CLAMP, SCORE_CLAMP) as i16));
        }
        game.play(&mv);
    };
    quiet
        .iter()
        .map(|(pos, score)| {
            let result = match pos.side() {
                Color::White => white_result,
                Color::Black => 2 - white_result,
            };
            Record::of(pos, *score, result, index)
        })
        .collect()
}

/// Plays the games of `todo` on `threads` threads and appends each to `writer` as soon
/// as it ends. `progress` sees (games done in this run, positions written) after every
/// game. Returns the number of positions written, or the first write error.
pub fn run<R: Rules>(
    cfg: &GenConfig,
    todo: &[u32],
    threads: usize,
    writer: &mut Writer,
    progress: &(dyn Fn(usize, usize) + Sync),
    stop: &std::sync::atomic::AtomicBool,
) -> Result<usize, String> {
    use crate::play::pool::{self, Flow};
    use std::sync::atomic::Ordering;
    use std::sync::Mutex;
    let out = Mutex::new((writer, 0usize, 0usize, None::<String>));
    let engine = || match Engine::<R>::try_new(16, 1) {
        Ok(mut e) => {
            e.set_evaluation(cfg.evaluation.clone());
            Some(e)
        }
        Err(e) => {
            out.lock().expect("writer").3.get_or_insert(e);
            None
        }
    };
    pool::run(threads, todo.len(), engine, |engine, i| {
        if stop.load(Ordering::Relaxed) {
            return Flow::Stop;
        }
        let records = play_game(engine, cfg, todo[i]);
        let mut o = out.lock().expect("writer");
        if o.3.is_some() {
            return Flow::Stop;
        }
        if let Err(e) = o.0.write_game(&records) {
            o.3 = Some(format!("writing the data: {e}"));
            return Flow::Stop;
        }
        o.1 += 1;
        o.2 += records.len();
        progress(o.1, o.2);
        Flow::Next
    });
    let (_, _, positions, err) = out.into_inner().expect("writer");
    match err {
        Some(e) => Err(e),
        None => Ok(positions),
    }
}
