//! `dama.Engine`: dama's search in the same process. A search runs on a thread of its
//! own while the calling thread waits without the GIL, so other Python threads go on,
//! and looks for signals every 50 ms, so Ctrl-C (KeyboardInterrupt) stops it at once.
//! Also the database and book probes (`dama.egdb.probe`, `dama.book.probe`).

use crate::any::{Any, Family};
use crate::board::{variant_named, AnyGame, Board, Move};
use crate::errors::FileError;
use crate::{dispatch, dispatch_pair, make_any};
use dama::engine::book::Book;
use dama::engine::search::{Info, SearchResult, Shared};
use dama::engine::skill::Skill;
use dama::engine::time::Limits;
use dama::Rules;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Full strength, as `analyse` and `analysis` search.
const FULL: (Skill, Option<u64>) = (Skill::FULL_STRENGTH, None);

/// `Engine<R>` over the rules.
pub struct EngineOf;
impl Family for EngineOf {
    type Of<R: Rules> = dama::engine::Engine<R>;
}

/// `Book<R>` over the rules.
pub struct BookOf;
impl Family for BookOf {
    type Of<R: Rules> = Book<R>;
}

/// One line of a completed iteration, converted without the GIL.
#[derive(Clone, Debug)]
pub struct Line {
    depth: u32,
    seldepth: u32,
    score: i32,
    win_in: Option<i32>,
    nodes: u64,
    nps: u64,
    time: f64,
    multipv: usize,
    hashfull: u32,
    pv: Vec<Move>,
    egdb: Option<(&'static str, Option<u16>)>,
}

impl Line {
    fn of<R: Rules>(pos: &dama::Position<R>, info: &Info) -> Line {
        Line {
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score,
            win_in: info.win_in(),
            nodes: info.nodes,
            nps: info.nps(),
            time: info.time.as_secs_f64(),
            multipv: info.multipv,
            hashfull: info.hashfull,
            pv: Move::line(pos, &info.pv),
            egdb: info.egdb.map(|v| (v.word(), v.distance())),
        }
    }

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("score", self.score)?;
        d.set_item("win_in", self.win_in)?;
        d.set_item("pv", self.pv.clone())?;
        d.set_item("depth", self.depth)?;
        d.set_item("seldepth", self.seldepth)?;
        d.set_item("nodes", self.nodes)?;
        d.set_item("nps", self.nps)?;
        d.set_item("time", self.time)?;
        d.set_item("multipv", self.multipv)?;
        d.set_item("hashfull", self.hashfull)?;
        d.set_item("egdb", self.egdb.map(|e| e.0))?;
        d.set_item("egdb_distance", self.egdb.and_then(|e| e.1))?;
        Ok(d)
    }
}

/// What a finished search gives: its best move and its lines.
struct Finished {
    best: Option<Move>,
    lines: Vec<Line>,
}

fn finished<R: Rules>(pos: &dama::Position<R>, r: &SearchResult) -> Finished {
    Finished {
        best: r.best.map(|m| Move::new(pos, &m)),
        lines: r.lines.iter().map(|i| Line::of(pos, i)).collect(),
    }
}

/// A search running on its own thread.
struct Running {
    lines: Mutex<Receiver<Line>>,
    handle: Option<JoinHandle<Result<Finished, String>>>,
    stop: Arc<Shared>,
}

impl Running {
    /// Waits for the next completed line (`None` when the search has ended), without
    /// the GIL, looking for signals every 50 ms; a signal stops the search.
    fn next_line(&mut self, py: Python<'_>) -> PyResult<Option<Line>> {
        loop {
            let lines = &self.lines;
            let got = py.detach(|| match lines.lock() {
                Ok(rx) => rx.recv_timeout(Duration::from_millis(50)),
                Err(_) => Err(RecvTimeoutError::Disconnected),
            });
            match got {
                Ok(l) => return Ok(Some(l)),
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.stop_now(py);
                        return Err(e);
                    }
                }
            }
        }
    }

    /// Waits for the end of the search.
    fn finish(&mut self, py: Python<'_>) -> PyResult<Finished> {
        while self.next_line(py)?.is_some() {}
        let handle = self
            .handle
            .take()
            .ok_or_else(|| PyValueError::new_err("the search has already ended"))?;
        py.detach(|| handle.join())
            .map_err(|_| PyValueError::new_err("the search failed"))?
            .map_err(PyValueError::new_err)
    }

    /// Stops the search and waits for its thread.
    fn stop_now(&mut self, py: Python<'_>) {
        self.stop.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = py.detach(|| h.join());
        }
    }
}

/// The limits of a search; one of them must be given.
fn limits(depth: Option<u32>, movetime: Option<u64>, nodes: Option<u64>) -> PyResult<Limits> {
    if depth.is_none() && movetime.is_none() && nodes.is_none() {
        return Err(PyValueError::new_err(
            "give a limit: depth (plies), movetime (milliseconds) or nodes",
        ));
    }
    if depth == Some(0) || depth.is_some_and(|d| d > 100) {
        return Err(PyValueError::new_err("depth runs from 1 to 100"));
    }
    Ok(Limits {
        depth,
        nodes,
        movetime: movetime.map(Duration::from_millis),
        ..Limits::default()
    })
}

/// dama's engine for one variant: a transposition table, threads, an evaluation, and
/// the endgame databases and book it is given.
#[pyclass(module = "dama")]
pub struct Engine {
    engine: Arc<Mutex<Any<EngineOf>>>,
    book: Option<Arc<Any<BookOf>>>,
    stop: Arc<Shared>,
}

fn file_error(e: String) -> PyErr {
    FileError::new_err(e)
}

/// The databases of `dir` (else the default directory), with the variant's built-in
/// slices solved in memory when `builtin`.
fn tables<R: Rules>(dir: Option<&str>, builtin: bool) -> PyResult<Option<dama::egdb::Tables<R>>> {
    let path = match dir {
        Some(d) => {
            let p = PathBuf::from(d);
            if !p.is_dir() {
                return Err(file_error(format!(
                    "egdb directory {d}: not found (or not a directory)"
                )));
            }
            p
        }
        None => dama::egdb::default_dir(),
    };
    let pieces = dama::engine::search::settings::builtin_egdb_pieces_within(R::VARIANT, builtin, 8);
    let t = dama::egdb::builtin::open::<R>(&path, pieces, true)
        .map_err(|e| file_error(format!("egdb directory {}: {e}", path.display())))?;
    Ok((!t.is_empty()).then_some(t))
}

#[pymethods]
impl Engine {
    /// An engine of `variant` with `threads` search threads, a `hash_mb` MiB table, the
    /// evaluation `default` (the shipped network where there is one), `classic`, `nn`
    /// or a model file, the endgame databases of `egdb` (a directory; by default the
    /// CLI's), and an opening book (`"builtin"` or a book file) that `play` follows.
    #[new]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    #[pyo3(signature = (variant = "english", threads = 1, hash_mb = 64, evaluation = "default", egdb = None, book = None, builtin_egdb = true))]
    fn py_new(
        py: Python<'_>,
        variant: &str,
        threads: usize,
        hash_mb: usize,
        evaluation: &str,
        egdb: Option<&str>,
        book: Option<&str>,
        builtin_egdb: bool,
    ) -> PyResult<Engine> {
        let v = variant_named(variant)?;
        if !(1..=256).contains(&threads) {
            return Err(PyValueError::new_err("threads runs from 1 to 256"));
        }
        if !(1..=65536).contains(&hash_mb) {
            return Err(PyValueError::new_err("hash_mb runs from 1 to 65536"));
        }
        let engine = py.detach(|| -> PyResult<Any<EngineOf>> {
            Ok(make_any!(v, R => {
                let mut e = dama::engine::Engine::<R>::try_new(hash_mb, threads)
                    .map_err(PyValueError::new_err)?;
                if evaluation != "default" {
                    let ev = dama::eval::Evaluation::by_name::<R>(evaluation).map_err(|e| {
                        match evaluation {
                            "classic" | "nn" | "net" => PyValueError::new_err(e),
                            _ => file_error(format!("model {evaluation}: {e}")),
                        }
                    })?;
                    e.set_evaluation(ev);
                }
                if let Some(t) = tables::<R>(egdb, builtin_egdb)? {
                    e.set_egdb(Some(Arc::new(t)));
                }
                e
            }))
        })?;
        let book = match book {
            None => None,
            Some(name) => Some(Arc::new(
                make_any!(v, R => Book::<R>::load(name).map_err(file_error)?),
            )),
        };
        let stop = dispatch!(&engine, e, _R => e.stop_flag());
        Ok(Engine {
            engine: Arc::new(Mutex::new(engine)),
            book,
            stop,
        })
    }

    /// The variant's canonical name.
    #[getter]
    fn variant(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.variant().name())
    }

    /// Searches `board`'s position, with its history, to `depth`, `movetime`
    /// (milliseconds) or `nodes`. With `multipv=None` gives one dict, the best line; with a
    /// number gives a list of that many lines, best first. A line: `score` (hundredths of a
    /// man, the side to move's view), `win_in` (plies, when forced; negative for a loss),
    /// `pv` (moves), `depth`, `seldepth`, `nodes`, `nps`, `time` (seconds), `multipv`,
    /// `hashfull`, `egdb` (`win`/`draw`/`loss` where a database holds the position) and
    /// `egdb_distance`.
    #[pyo3(signature = (board, depth = None, movetime = None, nodes = None, multipv = None))]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        board: &Board,
        depth: Option<u32>,
        movetime: Option<u64>,
        nodes: Option<u64>,
        multipv: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let l = limits(depth, movetime, nodes)?;
        let mut run = self.start(board, l, multipv.unwrap_or(1).max(1), FULL)?;
        let f = run.finish(py)?;
        let dicts = f
            .lines
            .iter()
            .map(|l| l.to_dict(py))
            .collect::<PyResult<Vec<_>>>()?;
        match multipv {
            None => match dicts.into_iter().next() {
                Some(d) => Ok(d.into_any()),
                None => Ok(PyDict::new(py).into_any()),
            },
            Some(_) => Ok(dicts.into_pyobject(py)?.into_any()),
        }
    }

    /// The move dama plays in `board`'s position (a book move when the engine has a
    /// book holding it), or `None` when the side to move has no legal move. `skill`
    /// (1 to 10, full strength) is the playing level; `seed` makes a level's draws a
    /// function of the seed and the position (None: new each time).
    #[pyo3(signature = (board, depth = None, movetime = None, nodes = None, skill = 10, seed = None))]
    #[allow(clippy::too_many_arguments)]
    fn play(
        &self,
        py: Python<'_>,
        board: &Board,
        depth: Option<u32>,
        movetime: Option<u64>,
        nodes: Option<u64>,
        skill: u32,
        seed: Option<u64>,
    ) -> PyResult<Option<Move>> {
        let l = limits(depth, movetime, nodes)?;
        let skill = Skill::new(skill).map_err(PyValueError::new_err)?;
        let ply = dispatch!(&board.game, g, _R => g.moves().len());
        if let (Some(book), true) = (&self.book, skill.uses_book(ply)) {
            let chosen = dispatch_pair!(&**book, &board.game, b, g => b
                .choose(g.position(), 0, seed.map_or(0, |_| Skill::noise(seed, g.position())))
                .map(|m| Move::new(g.position(), &m)), else None);
            if chosen.is_some() {
                return Ok(chosen);
            }
        }
        let mut run = self.start(board, l, 1, (skill, seed))?;
        Ok(run.finish(py)?.best)
    }

    /// Each completed depth as it comes, as `analyse` gives a line (an iterator; leaving
    /// it early stops the search).
    #[pyo3(signature = (board, depth = None, movetime = None, nodes = None, multipv = 1))]
    fn analysis(
        &self,
        board: &Board,
        depth: Option<u32>,
        movetime: Option<u64>,
        nodes: Option<u64>,
        multipv: usize,
    ) -> PyResult<Analysis> {
        let l = limits(depth, movetime, nodes)?;
        Ok(Analysis {
            run: Some(self.start(board, l, multipv.max(1), FULL)?),
        })
    }

    /// Forgets what earlier searches learned (a new game).
    fn new_game(&self) -> PyResult<()> {
        dispatch!(&mut *self.lock()?, e, _R => e.new_game());
        Ok(())
    }

    /// Stops the running search (from another thread).
    fn stop(&self) {
        self.stop.stop.store(true, Ordering::Relaxed);
    }
}

impl Engine {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Any<EngineOf>>> {
        self.engine.try_lock().map_err(|_| {
            PyValueError::new_err("this engine is searching already (one search at a time)")
        })
    }

    /// Starts a search of `board` on a thread of its own.
    fn start(
        &self,
        board: &Board,
        limits: Limits,
        multipv: usize,
        level: (Skill, Option<u64>),
    ) -> PyResult<Running> {
        let variant = self.lock()?.variant();
        if board.game.variant() != variant {
            return Err(PyValueError::new_err(format!(
                "the board is {}, the engine {}",
                board.game.variant().name(),
                variant.name()
            )));
        }
        let (tx, rx) = channel();
        let engine = Arc::clone(&self.engine);
        let game: AnyGame = board.game.clone();
        self.stop.stop.store(false, Ordering::Relaxed);
        let handle = std::thread::spawn(move || -> Result<Finished, String> {
            let mut guard = engine
                .lock()
                .map_err(|_| "the engine failed in an earlier search".to_string())?;
            dispatch_pair!(&mut *guard, game, e, g => Ok(search_on(e, g, &limits, multipv, level, &tx)),
                else Err("the board and the engine are of different variants".to_string()))
        });
        Ok(Running {
            lines: Mutex::new(rx),
            handle: Some(handle),
            stop: Arc::clone(&self.stop),
        })
    }
}

/// Searches the last position of `game` with `engine`, sending each completed line;
/// below full strength, as the level `level.0` plays, its draw from the seed `level.1`.
fn search_on<R: Rules>(
    engine: &mut dama::engine::Engine<R>,
    game: dama::game::Game<R>,
    limits: &Limits,
    multipv: usize,
    level: (Skill, Option<u64>),
    tx: &std::sync::mpsc::Sender<Line>,
) -> Finished {
    let pos = *game.position();
    engine.set_game(game);
    let tx = Mutex::new(tx.clone());
    let report = |info: &Info| {
        if let Ok(tx) = tx.lock() {
            let _ = tx.send(Line::of(&pos, info));
        }
    };
    let (skill, seed) = level;
    let r = if skill.is_full() {
        engine.search_armed(limits, multipv, &report)
    } else {
        engine.play_armed(limits, skill, Skill::noise(seed, &pos), &report)
    };
    finished(&pos, &r)
}

/// The lines of a running search, as each depth completes (`Engine.analysis`).
#[pyclass(module = "dama")]
pub struct Analysis {
    run: Option<Running>,
}

#[pymethods]
impl Analysis {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(run) = self.run.as_mut() else {
            return Ok(None);
        };
        match run.next_line(py)? {
            Some(l) => Ok(Some(l.to_dict(py)?)),
            None => {
                if let Some(mut r) = self.run.take() {
                    r.finish(py)?;
                }
                Ok(None)
            }
        }
    }

    /// Stops the search and waits for it.
    fn stop(&mut self, py: Python<'_>) {
        if let Some(mut r) = self.run.take() {
            r.stop_now(py);
        }
    }
}

impl Drop for Analysis {
    fn drop(&mut self) {
        if let Some(r) = self.run.as_mut() {
            r.stop.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The endgame databases' value of `board`'s position: `{"value": "win"|"draw"|"loss",
/// "distance": plies or None}` from the side to move's view, or `None` when they do
/// not hold it. `directory`: the databases' folder (by default the CLI's); the
/// variant's built-in slices (scandinavian, 4 pieces) are solved in memory once.
#[pyfunction]
#[pyo3(signature = (board, directory = None))]
pub fn egdb_probe<'py>(
    py: Python<'py>,
    board: &Board,
    directory: Option<&str>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let game = board.game.clone();
    let v = py.detach(|| -> PyResult<Option<(&'static str, Option<u16>)>> {
        dispatch!(&game, g, R => {
            let Some(t) = tables::<R>(directory, true)? else {
                return Ok(None);
            };
            Ok(t.probe(g.position()).map(|v| (v.word(), v.distance())))
        })
    })?;
    v.map(|(word, d)| {
        let dict = PyDict::new(py);
        dict.set_item("value", word)?;
        dict.set_item("distance", d)?;
        Ok(dict)
    })
    .transpose()
}

/// The book's moves of `board`'s position, best first: dicts of `move`, `score`
/// (hundredths of a man, the side to move's view) and `count` (book positions under
/// it); empty when the book does not hold the position. `book`: `"builtin"` or a file.
#[pyfunction]
#[pyo3(signature = (board, book = "builtin"))]
pub fn book_probe<'py>(
    py: Python<'py>,
    board: &Board,
    book: &str,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let found: Vec<(Move, i32, u32)> = dispatch!(&board.game, g, R => {
        let b = if book == "builtin" { Book::<R>::builtin() } else {
            if !Path::new(book).is_file() {
                return Err(file_error(format!("book {book}: not found")));
            }
            Book::<R>::load(book).map_err(file_error)?
        };
        b.probe(g.position())
            .unwrap_or(&[])
            .iter()
            .map(|m| (Move::new(g.position(), &m.mv), m.score, m.count))
            .collect()
    });
    found
        .into_iter()
        .map(|(m, score, count)| {
            let d = PyDict::new(py);
            d.set_item("move", m)?;
            d.set_item("score", score)?;
            d.set_item("count", count)?;
            Ok(d)
        })
        .collect()
}
