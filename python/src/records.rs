//! Game records: `dama.read_pdn` (any PDN file or text, through the CLI's reader),
//! `dama.Game` (tags, start, moves, result; replays into a `Board`, writes PDN), and
//! `dama.annotate` (the rows of `dama annotate --json`).

use crate::board::{new_game, variant_named, Board};
use crate::dispatch;
use crate::errors::{IllegalMoveError, PdnError};
use dama::engine::time::Limits;
use dama::notation::parse_move;
use dama::pdn::{PdnGame, PdnReader};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One game of a PDN file.
#[pyclass(module = "dama")]
#[derive(Clone)]
pub struct Game {
    game: PdnGame,
    number: usize,
    line: usize,
}

#[pymethods]
impl Game {
    /// A game from its parts: `tags` (a dict, in order), `moves` (texts), `result`.
    #[new]
    #[pyo3(signature = (tags = None, moves = None, result = "*"))]
    fn py_new(
        tags: Option<Vec<(String, String)>>,
        moves: Option<Vec<String>>,
        result: &str,
    ) -> Game {
        Game {
            game: PdnGame {
                tags: tags.unwrap_or_default(),
                moves: moves.unwrap_or_default(),
                result: result.to_string(),
                ..Default::default()
            },
            number: 1,
            line: 1,
        }
    }

    /// The tags, in order.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.game.tags {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The moves as written.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.moves.clone()
    }

    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`, `1-1`, `*`), empty when
    /// the game has none.
    #[getter]
    fn result(&self) -> String {
        self.game.result.clone()
    }

    /// The `FEN` tag, or `None` for the variant's start position.
    #[getter]
    fn fen(&self) -> Option<String> {
        self.game.tag("FEN").map(str::to_string)
    }

    /// The variant the game names (`Variant` tag, or `GameType` 21), or `None`.
    #[getter]
    fn variant(&self) -> Option<&'static str> {
        self.game.variant().map(|v| v.name())
    }

    /// The game's number in its file, from 1.
    #[getter]
    fn number(&self) -> usize {
        self.number
    }

    /// The line of its file it starts on.
    #[getter]
    fn line(&self) -> usize {
        self.line
    }

    /// The comment after each move (empty strings where none).
    #[getter]
    fn comments(&self) -> Vec<String> {
        (0..self.game.moves.len())
            .map(|i| self.game.comment(i).to_string())
            .collect()
    }

    /// The game replayed on a `Board` (the variant: `variant`, else the game's own).
    /// A move that is not legal raises `IllegalMoveError` naming the game and the move.
    #[pyo3(signature = (variant = None))]
    fn board(&self, variant: Option<&str>) -> PyResult<Board> {
        let v = match (variant, self.game.variant()) {
            (Some(v), _) => variant_named(v)?,
            (None, Some(v)) => v,
            (None, None) => {
                return Err(PyValueError::new_err(format!(
                    "{} names no variant (no Variant tag, nor GameType 21): give variant=",
                    self.place()
                )))
            }
        };
        let mut game = new_game(v, self.game.tag("FEN")).map_err(|e| {
            Python::attach(|py| {
                PdnError::new_err(format!("{}: FEN tag: {}", self.place(), e.value(py)))
            })
        })?;
        dispatch!(&mut game, g, R => {
            dama::pdn::play_moves(g, &self.game.moves, parse_move::<R>, dama::pdn::PastEnd::Allow)
                .map_err(|e| IllegalMoveError::new_err(format!("{}: {}", self.place(), e.by_ply())))?;
        });
        Ok(Board::of(game))
    }

    /// The game as PDN text.
    fn pdn(&self) -> String {
        self.game.to_text()
    }

    fn __repr__(&self) -> String {
        format!(
            "<dama.Game {} moves={} result='{}'>",
            self.place(),
            self.game.moves.len(),
            self.game.result
        )
    }
}

impl Game {
    fn place(&self) -> String {
        format!("game {} (line {})", self.number, self.line)
    }
}

/// The games of a PDN text or file (`text_or_path`: the text itself, or a path, given
/// as `str` or `os.PathLike`), in any encoding and with any line ends the CLI reads.
/// A game that does not read raises `PdnError` with its number and line, unless
/// `skip_bad`, which leaves it out.
#[pyfunction]
#[pyo3(signature = (text_or_path, skip_bad = false))]
pub fn read_pdn(
    py: Python<'_>,
    text_or_path: &Bound<'_, PyAny>,
    skip_bad: bool,
) -> PyResult<Vec<Game>> {
    let os = py.import("os")?;
    let is_path_like = text_or_path.is_instance(&os.getattr("PathLike")?)?;
    let text: Option<String> = if is_path_like {
        None
    } else {
        text_or_path.extract().ok()
    };
    let path: Option<std::path::PathBuf> = match &text {
        Some(t) if !t.contains('\n') && !t.contains('[') && std::path::Path::new(t).is_file() => {
            Some(t.into())
        }
        Some(_) => None,
        None => Some(
            os.call_method1("fspath", (text_or_path,))?
                .extract::<String>()
                .map_err(|_| PyValueError::new_err("read_pdn takes a PDN text or a path"))?
                .into(),
        ),
    };
    let collect = |entries: &mut dyn Iterator<Item = dama::pdn::PdnEntry>| -> PyResult<Vec<Game>> {
        let mut out = Vec::new();
        for e in entries {
            match e.game {
                Ok(game) => out.push(Game {
                    game,
                    number: e.number,
                    line: e.line,
                }),
                Err(why) if !skip_bad => {
                    return Err(PdnError::new_err(format!(
                        "game {} (line {}): {why}",
                        e.number, e.line
                    )))
                }
                Err(_) => {}
            }
        }
        Ok(out)
    };
    match (path, text) {
        (Some(p), _) => {
            let mut r = dama::pdn::open_pdn(&p).map_err(crate::errors::FileError::new_err)?;
            collect(&mut r)
        }
        (None, Some(t)) => collect(&mut PdnReader::new(t.as_bytes())),
        (None, None) => Err(PyValueError::new_err("read_pdn takes a PDN text or a path")),
    }
}

/// Every move of a game rated as `dama annotate --json` rates it: a list of dicts, one
/// a move (`game`, `ply`, `move`, `score_before`, `best`, `loss`, `label` ...). `game`:
/// a `Game` or a `Board` (its moves from its start). One limit: `depth`, `movetime`
/// (milliseconds, the default 1000) or `nodes`.
#[pyfunction]
#[pyo3(signature = (game, depth = None, movetime = None, nodes = None, threads = 1, hash_mb = 64))]
pub fn annotate<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    depth: Option<u32>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    threads: usize,
    hash_mb: usize,
) -> PyResult<Bound<'py, PyList>> {
    let (board, number) = if let Ok(g) = game.cast::<Game>() {
        let g = g.borrow();
        (g.board(None)?, g.number)
    } else if let Ok(b) = game.cast::<Board>() {
        (b.borrow().clone(), 1)
    } else {
        return Err(PyValueError::new_err(
            "annotate takes a dama.Game or a dama.Board",
        ));
    };
    let mut limits = Limits::default();
    let limit = if let Some(d) = depth {
        limits.depth = Some(d);
        format!("depth {d}")
    } else if let Some(n) = nodes {
        limits.nodes = Some(n);
        format!("nodes {n}")
    } else {
        let ms = movetime.unwrap_or(1000);
        limits.movetime = Some(Duration::from_millis(ms));
        format!("movetime {ms} ms")
    };
    let interrupt = AtomicBool::new(false);
    let rows: Vec<String> = py.detach(|| -> Result<Vec<String>, String> {
        dispatch!(&board.game, g, R => {
            if g.moves().is_empty() {
                return Ok(Vec::new());
            }
            let mut engine = dama::engine::Engine::<R>::try_new(hash_mb.max(1), threads.max(1))?;
            let v = dama::play::annotation::verdicts(&mut engine, g, &limits, &interrupt, |_| {})
                .ok_or("the annotation was interrupted")?;
            let notes = dama::play::annotation::notes(g, &v);
            Ok(dama::play::annotation::json_lines(number, g, &notes, &limit))
        })
    })
    .map_err(PyValueError::new_err)?;
    let json = py.import("json")?;
    let out = PyList::empty(py);
    for r in rows {
        out.append(json.call_method1("loads", (r,))?)?;
    }
    Ok(out)
}
