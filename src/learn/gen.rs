//! `dama gen`: training data from self-play. Each game starts from a random balanced
//! opening of its own (seeded by the run's seed and the game number, so a game is the
//! same whatever thread plays it and whenever) and is played out by one engine against
//! itself at a fixed node or depth limit; every quiet position (no capture pending) is
//! written with the search's score and the game's result.

use crate::egdb::{Tables, Value};
use crate::engine::time::Limits;
use crate::engine::Engine;
use crate::eval::Evaluation;
use crate::learn::data::{Record, Writer};
use crate::movegen;
use crate::play::opening::{self, Opening};
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
    /// Lines the games start from, game `i` from line `i % len` followed by
    /// `opening_plies` random plies that keep its balance
    /// ([`opening::for_game_from`]); empty: random balanced openings from the start
    /// ([`opening::for_game`]).
    pub openings: Vec<Opening>,
}

/// Plays game `index` and returns its records (quiet positions after the opening). When
/// `engine` has endgame databases, the game ends at the first position they hold (no
/// capture pending), and their value is its result; that position is not written.
/// A line of `cfg.openings` that does not read in `R` gives no records.
pub fn play_game<R: Rules>(engine: &mut Engine<R>, cfg: &GenConfig, index: u32) -> Vec<Record> {
    let mut game = if cfg.openings.is_empty() {
        opening::for_game(engine, cfg.opening_plies, cfg.seed, index)
    } else {
        let line = &cfg.openings[index as usize % cfg.openings.len()];
        let Ok(start) = opening::opening_game::<R>(line) else {
            return Vec::new();
        };
        opening::for_game_from(engine, &start, cfg.opening_plies, cfg.seed, index)
    };
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
        // With endgame databases the game ends where they know the position, with
        // their value as its result (`dama gen --egdb-pieces`).
        if let Some(v) = engine.egdb().and_then(|t| t.probe(game.position())) {
            let mover: u8 = match v {
                Value::Win(_) => 2,
                Value::Draw => 1,
                Value::Loss(_) => 0,
            };
            break match game.position().side() {
                Color::White => mover,
                Color::Black => 2 - mover,
            };
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

/// The finished games not yet written: a game is written only when every game before it
/// in `todo` is, so that the file holds its games in order whatever the threads' timing,
/// and a remade file (or one stopped and resumed) is byte for byte the same.
struct Output<'a> {
    writer: &'a mut Writer,
    /// Games finished in this run (written or held).
    finished: usize,
    /// Positions written.
    positions: usize,
    /// The index into `todo` of the next game to write.
    next: usize,
    /// Finished games after `next`, by index into `todo`.
    held: std::collections::BTreeMap<usize, Vec<Record>>,
    error: Option<String>,
}

impl Output<'_> {
    /// Takes game `i`'s records and writes every game now in order.
    fn finish(&mut self, i: usize, records: Vec<Record>) -> Result<(), String> {
        self.finished += 1;
        self.held.insert(i, records);
        while let Some(records) = self.held.remove(&self.next) {
            self.writer
                .write_game(&records)
                .map_err(|e| format!("writing the data: {e}"))?;
            self.positions += records.len();
            self.next += 1;
        }
        Ok(())
    }
}

/// Plays the games of `todo` on `threads` threads (searching with the endgame databases
/// `egdb`, and ending each game where they know it) and appends them to `writer` in the
/// order of `todo`, each as soon as the games before it are written. `progress` sees
/// (games finished in this run, positions written) after every game. Returns the number
/// of positions written, or the first write error. When `stop` is set the games in
/// progress finish, and those that would be out of order are not written (`--resume`
/// plays them again), so that the file stays in order.
pub fn run<R: Rules>(
    cfg: &GenConfig,
    todo: &[u32],
    threads: usize,
    writer: &mut Writer,
    egdb: Option<&std::sync::Arc<Tables<R>>>,
    progress: &(dyn Fn(usize, usize) + Sync),
    stop: &std::sync::atomic::AtomicBool,
) -> Result<usize, String> {
    use crate::play::pool::{self, Flow};
    use std::sync::atomic::Ordering;
    use std::sync::Mutex;
    let out = Mutex::new(Output {
        writer,
        finished: 0,
        positions: 0,
        next: 0,
        held: Default::default(),
        error: None,
    });
    let engine = || match Engine::<R>::try_new(16, 1) {
        Ok(mut e) => {
            e.set_evaluation(cfg.evaluation.clone());
            e.set_egdb(egdb.cloned());
            Some(e)
        }
        Err(e) => {
            out.lock().expect("writer").error.get_or_insert(e);
            None
        }
    };
    pool::run(threads, todo.len(), engine, |engine, i| {
        if stop.load(Ordering::Relaxed) {
            return Flow::Stop;
        }
        let records = play_game(engine, cfg, todo[i]);
        let mut o = out.lock().expect("writer");
        if o.error.is_some() {
            return Flow::Stop;
        }
        if let Err(e) = o.finish(i, records) {
            o.error = Some(e);
            return Flow::Stop;
        }
        progress(o.finished, o.positions);
        Flow::Next
    });
    let o = out.into_inner().expect("writer");
    match o.error {
        Some(e) => Err(e),
        None => Ok(o.positions),
    }
}
