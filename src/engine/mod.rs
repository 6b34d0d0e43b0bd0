//! [`Engine`]: the facade that the protocol and the CLI drive. It owns the game, the
//! transposition table, the evaluation weights and the thread count; `search` blocks,
//! and `stop_flag` lets another thread end a search early.

pub mod analysis;
pub mod bench;
pub mod book;
pub mod search;
pub mod skill;
pub mod threads;
pub mod time;
pub mod tt;

use crate::egdb::Tables;
use crate::engine::search::{Info, SearchResult, Shared};
use crate::engine::skill::Skill;
use crate::engine::time::Limits;
use crate::engine::tt::TranspositionTable;
use crate::eval::classic::Weights;
use crate::eval::Evaluation;
use crate::game::Game;
use crate::position::Position;
use crate::rules::Rules;
use std::sync::Arc;

/// The engine for the rules `R`.
///
/// Give it a game, then search its last position to a limit; `report` sees each
/// completed iteration:
///
/// ```
/// use dama::engine::{time::Limits, Engine};
/// use dama::{fen, game::Game, notation, rules::English};
///
/// let mut engine = Engine::<English>::new(16, 1); // a 16 MiB table, one thread
/// engine.set_game(Game::new(fen::parse_fen("W:W22,K31:BK15").unwrap()));
/// let limits = Limits { depth: Some(8), ..Limits::default() };
/// let result = engine.search(&limits, 1, &|info| assert!(info.depth <= 8));
/// let best = result.best.unwrap();
/// // 22-18 gives the man away; the king comes back to guard it.
/// assert_eq!(notation::move_text(engine.game().position(), &best), "31-27");
/// ```
pub struct Engine<R: Rules> {
    game: Game<R>,
    tt: TranspositionTable,
    evaluation: Evaluation,
    pool: rayon::ThreadPool,
    shared: Arc<Shared>,
    egdb: Option<Arc<Tables<R>>>,
}

impl<R: Rules> Engine<R> {
    /// An engine at the start position with a `hash_mib` MiB table and `threads` threads.
    ///
    /// # Panics
    /// When the table cannot be allocated; [`Engine::try_new`] reports it instead.
    pub fn new(hash_mib: usize, threads: usize) -> Engine<R> {
        Self::try_new(hash_mib, threads).unwrap_or_else(|e| panic!("{e}"))
    }

    /// As [`Engine::new`], or an error when the table cannot be allocated.
    pub fn try_new(hash_mib: usize, threads: usize) -> Result<Engine<R>, String> {
        Ok(Engine {
            game: Game::new(Position::start()),
            tt: TranspositionTable::try_new(hash_mib)?,
            evaluation: Evaluation::default_for::<R>(),
            pool: threads::pool(threads),
            shared: Arc::new(Shared::new()),
            egdb: None,
        })
    }

    /// Sets the game to search from (its last position is the root).
    pub fn set_game(&mut self, game: Game<R>) {
        self.game = game;
    }

    /// The current game.
    pub fn game(&self) -> &Game<R> {
        &self.game
    }

    /// Forgets what earlier searches learned (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// Uses the classic evaluation with these weights.
    pub fn set_weights(&mut self, w: Weights) {
        self.evaluation = Evaluation::Classic(w);
    }

    /// Sets the evaluation.
    pub fn set_evaluation(&mut self, e: Evaluation) {
        self.evaluation = e;
    }

    /// The evaluation in use.
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// Uses these endgame databases in the search (`None`: none).
    pub fn set_egdb(&mut self, tables: Option<Arc<Tables<R>>>) {
        self.egdb = tables.filter(|t| !t.is_empty());
    }

    /// The endgame databases in use.
    pub fn egdb(&self) -> Option<&Arc<Tables<R>>> {
        self.egdb.as_ref()
    }

    /// A handle that stops the running search when `stop` is stored into it.
    pub fn stop_flag(&self) -> Arc<Shared> {
        Arc::clone(&self.shared)
    }

    /// Searches the current position until `limits` (or a stop) with `multipv` lines;
    /// `report` receives each completed iteration.
    pub fn search(
        &self,
        limits: &Limits,
        multipv: usize,
        report: &(dyn Fn(&Info) + Sync),
    ) -> SearchResult {
        self.shared
            .stop
            .store(false, std::sync::atomic::Ordering::Relaxed);
        self.search_armed(limits, multipv, report)
    }

    /// As [`Engine::search`], but without clearing the stop flag first: the caller
    /// cleared it before handing the search to another thread, so a stop that arrives
    /// before the search starts is not lost.
    pub fn search_armed(
        &self,
        limits: &Limits,
        multipv: usize,
        report: &(dyn Fn(&Info) + Sync),
    ) -> SearchResult {
        threads::search(
            self.game.positions(),
            limits,
            multipv,
            &self.pool,
            &self.tt,
            &self.evaluation,
            &self.shared,
            self.egdb.as_deref(),
            report,
        )
    }

    /// Searches for the move to play at `skill`, the stop flag armed by the caller as
    /// for [`Engine::search_armed`]. At full strength this is that search with one line.
    /// Below it, every root move is searched within the level's budget (`limits`
    /// narrowed by [`Skill::limits`]) and the move is drawn from `noise`
    /// ([`Skill::choose`]): `best` and `ponder` are the drawn line's, `lines` all of
    /// them, best first.
    pub fn play_armed(
        &self,
        limits: &Limits,
        skill: Skill,
        noise: u64,
        report: &(dyn Fn(&Info) + Sync),
    ) -> SearchResult {
        if skill.is_full() {
            return self.search_armed(limits, 1, report);
        }
        let mut result = self.search_armed(&skill.limits(limits), skill.lines(), report);
        skill.pick::<R>(&mut result, noise);
        result
    }

    /// As [`Engine::play_armed`], clearing the stop flag first.
    pub fn play(
        &self,
        limits: &Limits,
        skill: Skill,
        noise: u64,
        report: &(dyn Fn(&Info) + Sync),
    ) -> SearchResult {
        self.shared
            .stop
            .store(false, std::sync::atomic::Ordering::Relaxed);
        self.play_armed(limits, skill, noise, report)
    }
}
