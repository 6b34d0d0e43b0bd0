//! [`Resources`]: what every page of one variant shares, loaded once per server: the
//! evaluation, the opening book and the endgame databases. A page then costs its game
//! only, whatever it plays.

use crate::engine::book::Book;
use crate::eval::Evaluation;
use crate::rules::Rules;
use crate::variant::Variant;
use std::any::Any;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// How the pages' engines are set up.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Search threads per slot.
    pub threads: usize,
    /// Transposition table per slot, MiB.
    pub hash_mib: usize,
    /// Where the endgame databases are (`None`: the default directory).
    pub egdb_dir: Option<PathBuf>,
    /// Solve the variant's small databases in memory when the directory lacks them
    /// ([`crate::egdb::builtin`]; scandinavian: up to 4 pieces), before listening.
    pub egdb_builtin: bool,
    /// The opening book for dama's moves: `builtin`, `none` or a file.
    pub book: String,
}

impl EngineConfig {
    /// The endgame databases of `R` in the configured directory (else the default one),
    /// with the variant's built-in slices the directory lacks when `egdb_builtin`:
    /// solved now when `solve`, else only those this process has solved already.
    fn egdb<R: Rules>(&self, solve: bool) -> Result<crate::egdb::Tables<R>, String> {
        let dir = self
            .egdb_dir
            .clone()
            .unwrap_or_else(crate::egdb::default_dir);
        let pieces = crate::engine::search::settings::builtin_egdb_pieces_within(
            R::VARIANT,
            self.egdb_builtin,
            u32::MAX,
        );
        crate::egdb::builtin::open::<R>(&dir, pieces, solve)
    }
}

/// What the pages of the variant `R` share.
pub struct Kit<R: Rules> {
    /// The evaluation the searches use.
    pub evaluation: Evaluation,
    /// The book for dama's moves, if any.
    pub book: Option<Arc<Book<R>>>,
    /// The endgame databases found, if any.
    pub egdb: Option<Arc<crate::egdb::Tables<R>>>,
}

/// The kits of the variants played so far, made on first use.
pub struct Resources {
    config: EngineConfig,
    kits: Mutex<HashMap<Variant, Arc<dyn Any + Send + Sync>>>,
}

impl Resources {
    /// No kit made yet.
    pub fn new(config: EngineConfig) -> Resources {
        Resources {
            config,
            kits: Mutex::new(HashMap::new()),
        }
    }

    /// The settings.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The kit of `R`, made now if it is the first page of `R`.
    pub fn kit<R: Rules>(&self) -> Result<Arc<Kit<R>>, String> {
        let mut kits = self.kits.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = kits.get(&R::VARIANT) {
            return Arc::clone(k)
                .downcast::<Kit<R>>()
                .map_err(|_| format!("the {} kit has another type", R::NAME));
        }
        // Solved before the server listened ([`solve_builtin`]): taken from memory here.
        let tables = self.config.egdb::<R>(false)?;
        let book = match self.config.book.as_str() {
            "none" => None,
            name => Some(Arc::new(Book::<R>::load(name)?)),
        };
        let kit = Arc::new(Kit {
            evaluation: Evaluation::default_for::<R>(),
            book,
            egdb: (!tables.is_empty()).then(|| Arc::new(tables)),
        });
        kits.insert(R::VARIANT, Arc::clone(&kit) as Arc<dyn Any + Send + Sync>);
        Ok(kit)
    }
}

/// Solves the small databases of every variant that has them (scandinavian: up to 4
/// pieces, about 2 s) unless `config` turns them off or its directory holds them:
/// before the server listens, so that no page waits for them and the threads that solve
/// them are the server's from the start.
pub fn solve_builtin(config: &EngineConfig) -> Result<(), String> {
    if !config.egdb_builtin {
        return Ok(());
    }
    for v in Variant::ALL {
        crate::with_variant!(v, R => config.egdb::<R>(true).map(|_| ()))?;
    }
    Ok(())
}
