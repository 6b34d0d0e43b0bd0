//! `dama match`: engine-against-engine matches between Hub engines, with clocks kept by
//! the runner, openings played twice with colours swapped, adjudication, PDN output,
//! Elo with a 95% margin and the SPRT over game pairs.

use crate::game::Outcome;
use crate::notation::{move_text, move_texts};
use crate::pdn::{game_tags, PdnGame};
use crate::play::opening::{opening_game, Opening};
use crate::play::pool::{self, Flow};
use crate::play::stats::{Sprt, Tally};
use crate::protocol::client::{Failure, HubClient};
use crate::protocol::hubpos;
use crate::rules::Rules;
use crate::types::Color;
use dashmap::DashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One engine of the match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The command line that starts it.
    pub command: String,
    /// `set-param` options sent before `init`.
    pub options: Vec<(String, String)>,
    /// The name in reports and PDN.
    pub name: String,
    /// This engine's own time control (`--option tc=...`), instead of the match's.
    pub tc: Option<TimeControl>,
    /// Ponder on the opponent's time (`--option ponder=true`): after its move the engine
    /// searches the reply it expects (`go ponder`), and gets `ponder-hit` when that
    /// reply is played, `stop` otherwise.
    pub ponder: bool,
}

/// The time control of every move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// `level depth=D`.
    Depth(u32),
    /// `level nodes=N`.
    Nodes(u64),
    /// `level move-time=S`.
    MoveTime(Duration),
    /// A clock kept by the runner: base time and increment per move.
    Clock {
        /// Time at the start of the game.
        base: Duration,
        /// Added before every move (as Hub specifies).
        inc: Duration,
    },
}

impl std::fmt::Display for TimeControl {
    /// The form [`TimeControl::from_str`](std::str::FromStr) reads (the PDN
    /// `TimeControl` tag).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::MoveTime(t) => write!(f, "movetime={}", t.as_millis()),
            TimeControl::Clock { base, inc } => {
                write!(f, "{}+{}", base.as_secs_f64(), inc.as_secs_f64())
            }
        }
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    /// `depth=D`, `nodes=N`, `movetime=MS` or `BASE+INC` in seconds (`10+0.1`).
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!("bad time control '{s}': expected depth=D, nodes=N, movetime=MS or BASE+INC (seconds)")
        };
        if let Some(v) = s.strip_prefix("depth=") {
            return v.parse().map(TimeControl::Depth).map_err(|_| bad());
        }
        if let Some(v) = s.strip_prefix("nodes=") {
            return v.parse().map(TimeControl::Nodes).map_err(|_| bad());
        }
        if let Some(v) = s.strip_prefix("movetime=") {
            let ms: u64 = v.parse().map_err(|_| bad())?;
            return Ok(TimeControl::MoveTime(Duration::from_millis(ms)));
        }
        let (b, i) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |x: &str| -> Result<Duration, String> {
            let f: f64 = x.parse().map_err(|_| bad())?;
            if !(0.0..1e6).contains(&f) {
                return Err(bad());
            }
            Ok(Duration::from_secs_f64(f))
        };
        let base = secs(b)?;
        if base.is_zero() {
            return Err(bad());
        }
        Ok(TimeControl::Clock {
            base,
            inc: secs(i)?,
        })
    }
}

/// Adjudication options (G10: never silent, always recorded).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// Draw after this many plies in all.
    pub max_plies: Option<usize>,
    /// Draw after this many plies without a capture or a man move.
    pub no_progress: Option<u32>,
    /// Win when both engines agree on a score of at least this many men (from the
    /// winner's view) for the given number of moves each.
    pub win: Option<(f64, u32)>,
    /// Draw when both engines report at most this many men for the given number of
    /// moves each.
    pub draw: Option<(f64, u32)>,
}

impl std::str::FromStr for Adjudication {
    type Err = String;
    /// `max-plies=N,no-progress=N,win=MEN/MOVES,draw=MEN/MOVES` (any subset).
    fn from_str(s: &str) -> Result<Adjudication, String> {
        let mut a = Adjudication::default();
        for item in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("adjudication '{item}' is not name=value"))?;
            let pair = |v: &str| -> Result<(f64, u32), String> {
                let (m, n) = v
                    .split_once('/')
                    .ok_or_else(|| format!("{k}={v}: expected MEN/MOVES, e.g. 5.0/4"))?;
                Ok((
                    m.parse().map_err(|_| format!("{k}={v}: bad score"))?,
                    n.parse().map_err(|_| format!("{k}={v}: bad move count"))?,
                ))
            };
            match k {
                "max-plies" => a.max_plies = Some(v.parse().map_err(|_| format!("bad {item}"))?),
                "no-progress" => {
                    a.no_progress = Some(v.parse().map_err(|_| format!("bad {item}"))?)
                }
                "win" => a.win = Some(pair(v)?),
                "draw" => a.draw = Some(pair(v)?),
                other => return Err(format!("unknown adjudication '{other}'")),
            }
        }
        Ok(a)
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are from the first one's point of view.
    pub engines: [EngineSpec; 2],
    /// Games to play (each opening twice; rounded up to even).
    pub games: usize,
    /// Games at the same time.
    pub concurrency: usize,
    /// Time control.
    pub tc: TimeControl,
    /// Openings, used in order and cycled.
    pub openings: Vec<Opening>,
    /// Adjudication options.
    pub adjudication: Adjudication,
    /// Time an engine may overrun its clock (or move time) before it loses on time.
    pub margin: Duration,
    /// Longest wait for a move under depth or nodes limits, and for the handshake.
    pub timeout: Duration,
    /// Start engines anew for every game (otherwise they are kept alive).
    pub restart: bool,
    /// SPRT (elo0, elo1), stopping early on a decision.
    pub sprt: Option<(f64, f64)>,
    /// Play every game even after the SPRT has decided (it is still reported).
    pub play_all: bool,
    /// The PDN `Event` tag.
    pub event: String,
    /// Set from outside (Ctrl-C) to stop: games in progress are abandoned, neither
    /// scored nor reported, and the engines are told to quit (killed if they hang).
    pub interrupt: Arc<AtomicBool>,
}

impl MatchConfig {
    /// Games the match plays: `games` rounded up to whole pairs.
    pub fn total_games(&self) -> usize {
        self.games.div_ceil(2) * 2
    }

    /// The opening of game `index` (each opening serves the two games of a pair).
    pub fn opening(&self, index: usize) -> &Opening {
        &self.openings[(index / 2) % self.openings.len()]
    }

    /// The engine playing White in game `index`: the first engine in even games.
    pub fn white_of(index: usize) -> usize {
        index % 2
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Index of the game (2 per opening).
    pub index: usize,
    /// Which engine had White (0 or 1).
    pub white: usize,
    /// White's score: 1, 0.5 or 0.
    pub white_score: f64,
    /// Why the game ended.
    pub termination: String,
    /// The record.
    pub pdn: PdnGame,
}

impl GameResult {
    /// The first engine's score.
    pub fn first_score(&self) -> f64 {
        if self.white == 0 {
            self.white_score
        } else {
            1.0 - self.white_score
        }
    }
}

/// The match's progress and result.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Results by game index: every game in the final report, none in the reports
    /// after each game (so that a long match does not copy all its games after every
    /// game); [`MatchReport::played`] counts them.
    pub games: Vec<GameResult>,
    /// Games played so far (this run's and a resumed run's).
    pub played: usize,
    /// Tally from the first engine's view.
    pub tally: Tally,
    /// The SPRT state, when asked for.
    pub sprt: Option<Sprt>,
    /// Wall time of this run (a resumed match counts from the resumption).
    pub elapsed: Duration,
    /// Whether the match was stopped by [`MatchConfig::interrupt`] before its end.
    pub interrupted: bool,
    /// Why the match stopped early, when the game callback failed (e.g. the PDN
    /// could not be written).
    pub error: Option<String>,
}

/// The PDN result token of White's score.
pub fn result_token(white_score: f64) -> &'static str {
    if white_score > 0.75 {
        "1-0"
    } else if white_score < 0.25 {
        "0-1"
    } else {
        "1/2-1/2"
    }
}

/// Plays one game; `clients` are the two engines' processes (started as needed).
/// `None` when the match was interrupted before the game ended: it is abandoned.
/// Plays game `index`; an engine still pondering when the game ends is stopped.
fn play_game<R: Rules>(
    cfg: &MatchConfig,
    index: usize,
    clients: &mut [Option<HubClient>; 2],
) -> Option<GameResult> {
    let mut pondering: [Option<crate::moves::Move>; 2] = [None, None];
    let result = play_moves::<R>(cfg, index, clients, &mut pondering);
    for (slot, p) in clients.iter_mut().zip(pondering) {
        if p.is_some() {
            if let Some(c) = slot {
                if c.ponder_miss(cfg.timeout).is_err() {
                    *slot = None;
                }
            }
        }
    }
    result
}

/// The moves of game `index`; `pondering[e]` is the reply engine `e` is pondering on.
fn play_moves<R: Rules>(
    cfg: &MatchConfig,
    index: usize,
    clients: &mut [Option<HubClient>; 2],
    pondering: &mut [Option<crate::moves::Move>; 2],
) -> Option<GameResult> {
    let opening = cfg.opening(index);
    let white = MatchConfig::white_of(index); // engine playing White
    let mut game = opening_game::<R>(opening).expect("openings are checked when read");
    let start = game.positions()[0];
    let mut texts: Vec<String> = move_texts(&game);
    let engine_of = |c: Color| if c == Color::White { white } else { 1 - white };
    let clock_of = |i: usize| match cfg.engines[i].tc.unwrap_or(cfg.tc) {
        TimeControl::Clock { base, .. } => base,
        _ => Duration::ZERO,
    };
    let mut clock = [clock_of(0), clock_of(1)];
    let mut scores: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut hub_moves: Vec<String> = game.moves().iter().map(hubpos::hub_move::<R>).collect();
    let opening_text = texts.join(" ");
    let interrupted = || cfg.interrupt.load(Ordering::Relaxed);
    let finish = |white_score: f64, termination: String, texts: Vec<String>| -> GameResult {
        let players = [
            cfg.engines[white].name.as_str(),
            cfg.engines[1 - white].name.as_str(),
        ];
        let result = result_token(white_score);
        let fen = opening.fen.is_some().then_some(&start);
        let mut tags = game_tags::<R>(&cfg.event, Some(index + 1), players, result, fen);
        // What `--resume` checks against its command line.
        tags.push(("Opening".to_string(), opening_text.clone()));
        tags.push(("TimeControl".to_string(), cfg.tc.to_string()));
        tags.push(("Termination".to_string(), termination.clone()));
        GameResult {
            index,
            white,
            white_score,
            termination,
            pdn: PdnGame {
                tags,
                moves: texts,
                result: result_token(white_score).to_string(),
                ..Default::default()
            },
        }
    };
    for slot in clients.iter_mut() {
        if cfg.restart {
            if let Some(c) = slot.take() {
                c.quit();
            }
        }
        // A kept-alive engine that no longer answers is replaced.
        if let Some(c) = slot {
            if c.new_game(cfg.timeout).is_err() {
                *slot = None;
            }
        }
    }
    loop {
        if interrupted() {
            return None;
        }
        let pos = *game.position();
        if let Some(o) = game.outcome() {
            let (score, why) = match o {
                Outcome::NoMoves { loser } => (
                    if loser == Color::White { 0.0 } else { 1.0 },
                    format!("{} has no legal move (G8)", loser),
                ),
                Outcome::Repetition => (0.5, "threefold repetition (G9)".to_string()),
                Outcome::NoCapture(n) => (0.5, format!("{n} plies without a capture (E7)")),
            };
            return Some(finish(score, why, texts));
        }
        let adj = &cfg.adjudication;
        if adj.max_plies.is_some_and(|m| texts.len() >= m) {
            return Some(finish(
                0.5,
                format!("adjudicated draw: {} plies", texts.len()),
                texts,
            ));
        }
        if adj.no_progress.is_some_and(|n| pos.reversible_plies() >= n) {
            return Some(finish(
                0.5,
                format!(
                    "adjudicated draw: {} plies without a capture or a man move",
                    pos.reversible_plies()
                ),
                texts,
            ));
        }
        let side = pos.side();
        let e = engine_of(side);
        // A failure seen after an interrupt is the interrupt's doing: abandon the game.
        let lose = |why: String, texts: Vec<String>| {
            if interrupted() {
                return None;
            }
            let score = if side == Color::White { 0.0 } else { 1.0 };
            Some(finish(
                score,
                format!("{} {why}", cfg.engines[e].name),
                texts,
            ))
        };
        if clients[e].is_none() {
            match HubClient::start_cancellable(
                &cfg.engines[e].command,
                &cfg.engines[e].options,
                cfg.timeout,
                Some(Arc::clone(&cfg.interrupt)),
            ) {
                Ok(c) => clients[e] = Some(c),
                Err(f) => return lose(format!("loses: {f}"), texts),
            }
        }
        let client = clients[e].as_mut().expect("started");
        let tc = cfg.engines[e].tc.unwrap_or(cfg.tc);
        let (level, deadline) = match tc {
            TimeControl::Depth(d) => (format!("level depth={d}"), cfg.timeout),
            TimeControl::Nodes(n) => (format!("level nodes={n}"), cfg.timeout),
            TimeControl::MoveTime(t) => (
                format!("level move-time={:.3}", t.as_secs_f64()),
                t + cfg.margin + Duration::from_millis(200),
            ),
            TimeControl::Clock { inc, .. } => (
                format!(
                    "level time={:.3} inc={:.3}",
                    clock[e].as_secs_f64(),
                    inc.as_secs_f64()
                ),
                clock[e] + inc + cfg.margin + Duration::from_millis(200),
            ),
        };
        let pos_line = format!(
            "pos pos={} moves={}",
            hubpos::to_hub(&start),
            crate::protocol::syntax::quote(&hub_moves.join(" "))
        );
        // An engine that pondered on the move just played goes on with its search;
        // one that pondered on another is stopped and searches afresh.
        let expected = pondering[e].take();
        let hit = expected.is_some() && game.moves().last() == expected.as_ref();
        if expected.is_some() && !hit && client.ponder_miss(cfg.timeout).is_err() {
            clients[e] = None;
            return lose("loses: did not stop its pondering".to_string(), texts);
        }
        let searched = if hit {
            client.ponder_hit(deadline)
        } else {
            client.go(&pos_line, &level, deadline)
        };
        let res = match searched {
            Ok(r) => r,
            Err(f) => {
                clients[e] = None; // kill it; a fresh one plays the next game
                let why = match f {
                    Failure::Hung => "loses: did not answer in time (hung)".to_string(),
                    Failure::Crashed => "loses: crashed".to_string(),
                    other => format!("loses: {other}"),
                };
                return lose(why, texts);
            }
        };
        // Time.
        match tc {
            TimeControl::MoveTime(t) if res.elapsed > t + cfg.margin => {
                return lose(
                    format!(
                        "loses on time: {:.3}s for a {:.3}s move",
                        res.elapsed.as_secs_f64(),
                        t.as_secs_f64()
                    ),
                    texts,
                );
            }
            TimeControl::Clock { inc, .. } => {
                let available = clock[e] + inc;
                if res.elapsed > available + cfg.margin {
                    return lose(
                        format!(
                            "loses on time: {:.3}s used with {:.3}s on the clock",
                            res.elapsed.as_secs_f64(),
                            available.as_secs_f64()
                        ),
                        texts,
                    );
                }
                clock[e] = available.saturating_sub(res.elapsed);
            }
            _ => {}
        }
        let mv = match hubpos::parse_any_move(&pos, &res.mv) {
            Ok(m) => m,
            Err(err) => return lose(format!("loses: illegal move {} ({err})", res.mv), texts),
        };
        texts.push(move_text(&pos, &mv));
        hub_moves.push(hubpos::hub_move::<R>(&mv));
        game.play(&mv);
        if cfg.engines[e].ponder {
            // Ponder on the reply the engine expects, when it is legal and the game goes
            // on after it; the level is the one that applies at the hit (its clock does
            // not run on the opponent's time).
            let after = *game.position();
            let reply = res
                .ponder
                .as_deref()
                .and_then(|p| hubpos::parse_any_move(&after, p).ok());
            if let Some(reply) = reply.filter(|_| game.outcome().is_none()) {
                let mut next = game.clone();
                next.play(&reply);
                if next.outcome().is_none() {
                    let level = match tc {
                        TimeControl::Clock { inc, .. } => format!(
                            "level time={:.3} inc={:.3}",
                            clock[e].as_secs_f64(),
                            inc.as_secs_f64()
                        ),
                        _ => level.clone(),
                    };
                    let moves = hub_moves
                        .iter()
                        .cloned()
                        .chain(std::iter::once(hubpos::hub_move::<R>(&reply)))
                        .collect::<Vec<_>>()
                        .join(" ");
                    let pos_line = format!(
                        "pos pos={} moves={}",
                        hubpos::to_hub(&start),
                        crate::protocol::syntax::quote(&moves)
                    );
                    let client = clients[e].as_mut().expect("started");
                    if client.ponder(&pos_line, &level).is_err() {
                        clients[e] = None;
                        return lose("loses: crashed".to_string(), texts);
                    }
                    pondering[e] = Some(reply);
                }
            }
        }
        if let Some(s) = res.score {
            scores[e].push(s);
        }
        // Score adjudication: both engines agree.
        let last = |v: &Vec<f64>, n: u32| -> Option<Vec<f64>> {
            (v.len() >= n as usize && n > 0).then(|| v[v.len() - n as usize..].to_vec())
        };
        if let Some((men, n)) = adj.win {
            for winner in 0..2 {
                if let (Some(a), Some(b)) = (last(&scores[winner], n), last(&scores[1 - winner], n))
                {
                    if a.iter().all(|s| *s >= men) && b.iter().all(|s| *s <= -men) {
                        let winner_white = winner == white;
                        return Some(finish(
                            if winner_white { 1.0 } else { 0.0 },
                            format!(
                                "adjudicated win for {}: both engines scored it {men:.2} or more for {n} moves",
                                cfg.engines[winner].name
                            ),
                            texts,
                        ));
                    }
                }
            }
        }
        if let Some((men, n)) = adj.draw {
            if let (Some(a), Some(b)) = (last(&scores[0], n), last(&scores[1], n)) {
                if a.iter().chain(&b).all(|s| s.abs() <= men) {
                    return Some(finish(
                        0.5,
                        format!("adjudicated draw: both engines within {men:.2} for {n} moves"),
                        texts,
                    ));
                }
            }
        }
    }
}

/// A worker's two engine processes, started as needed; told to quit (and killed if they
/// hang) when the worker ends.
struct Clients([Option<HubClient>; 2]);

impl Drop for Clients {
    fn drop(&mut self) {
        for c in self.0.iter_mut().filter_map(Option::take) {
            c.quit();
        }
    }
}

/// Runs a match. `previous` are games already played (a resumed match: see
/// [`crate::play::match_resume`]); they count in the tally and are not played again, and the
/// games missing from their pairs are played with the pair's opening and colours, so
/// the pairs are whole again. `on_game` is called after every game, one call at a
/// time, with the game and the results so far (it writes the PDN and reports
/// progress); an error from it stops the match like an interrupt and is kept in the
/// report. On [`MatchConfig::interrupt`] the games in progress are abandoned.
pub fn run<R: Rules>(
    cfg: &MatchConfig,
    previous: Vec<GameResult>,
    on_game: &(dyn Fn(&GameResult, &MatchReport) -> Result<(), String> + Sync),
) -> MatchReport {
    let start = Instant::now();
    let total = cfg.total_games();
    let results: DashMap<usize, GameResult> = DashMap::new();
    for g in previous {
        results.insert(g.index, g);
    }
    let todo: Vec<usize> = (0..total).filter(|i| !results.contains_key(i)).collect();
    let stop = AtomicBool::new(false);
    let error: Mutex<Option<String>> = Mutex::new(None);
    let report_lock = Mutex::new(());
    let summarize = |results: &DashMap<usize, GameResult>, with_games: bool| -> MatchReport {
        let mut scores: Vec<(usize, f64)> = results
            .iter()
            .map(|r| (*r.key(), r.value().first_score()))
            .collect();
        scores.sort_by_key(|g| g.0);
        let mut tally = Tally::default();
        for (_, score) in &scores {
            tally.add_game(*score);
        }
        for pair in 0..total / 2 {
            if let (Some(a), Some(b)) = (results.get(&(2 * pair)), results.get(&(2 * pair + 1))) {
                tally.add_pair(a.first_score() + b.first_score());
            }
        }
        let sprt = cfg.sprt.map(|(e0, e1)| tally.sprt(e0, e1, 0.05, 0.05));
        // An interrupt that came after the last game (or the SPRT's decision) cut
        // nothing short.
        let decided = !cfg.play_all && sprt.and_then(|s| s.decision()).is_some();
        let complete = scores.len() == total || decided;
        let games = if with_games {
            let mut games: Vec<GameResult> = results.iter().map(|r| r.value().clone()).collect();
            games.sort_by_key(|g| g.index);
            games
        } else {
            Vec::new()
        };
        MatchReport {
            interrupted: cfg.interrupt.load(Ordering::Relaxed) && !complete,
            played: scores.len(),
            games,
            tally,
            sprt,
            elapsed: start.elapsed(),
            error: error.lock().ok().and_then(|e| e.clone()),
        }
    };
    // A resumed match whose SPRT had already decided plays no more games.
    if !cfg.play_all
        && summarize(&results, false)
            .sprt
            .and_then(|s| s.decision())
            .is_some()
    {
        stop.store(true, Ordering::Relaxed);
    }
    let clients = || Some(Clients([None, None]));
    pool::run(cfg.concurrency, todo.len(), clients, |clients, job| {
        if stop.load(Ordering::Relaxed) || cfg.interrupt.load(Ordering::Relaxed) {
            return Flow::Stop;
        }
        let i = todo[job];
        let Some(g) = play_game::<R>(cfg, i, &mut clients.0) else {
            return Flow::Stop; // interrupted: the game is abandoned
        };
        let _guard = report_lock.lock();
        results.insert(i, g.clone());
        let r = summarize(&results, false);
        if !cfg.play_all && r.sprt.and_then(|s| s.decision()).is_some() {
            stop.store(true, Ordering::Relaxed);
        }
        if let Err(e) = on_game(&g, &r) {
            if let Ok(mut slot) = error.lock() {
                slot.get_or_insert(e);
            }
            stop.store(true, Ordering::Relaxed);
            cfg.interrupt.store(true, Ordering::Relaxed);
        }
        if stop.load(Ordering::Relaxed) {
            Flow::Stop
        } else {
            Flow::Next
        }
    });
    summarize(&results, true)
}
