//! `dama.Board` and `dama.Move`: a game of any variant with its history, in
//! python-chess's shape (`legal_moves`, `push`, `pop`, `fen`, `turn`, `result`).

use crate::any::{Any, Family};
use crate::errors::{FenError, IllegalMoveError};
use crate::{dispatch, make_any};
use dama::fen::{parse_fen, to_fen};
use dama::game::{Game, Outcome};
use dama::notation::{move_path, move_text, parse_move, square_name};
use dama::{Bitboard, Color, Position, Rules, Square, Variant};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// The deepest perft taken: deeper ones run for days.
const MAX_PERFT_DEPTH: u32 = 20;

/// `Game<R>` over the rules.
pub struct GameOf;
impl Family for GameOf {
    type Of<R: Rules> = Game<R>;
}

/// A game of any variant.
pub type AnyGame = Any<GameOf>;

/// The variant named `name` (any name or alias the CLI takes).
pub fn variant_named(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>().map_err(PyValueError::new_err)
}

/// The canonical names of the five variants, in the order of the rules text.
#[pyfunction]
pub fn variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}

/// A move, as it stands in the position it was made for.
#[pyclass(module = "dama", frozen)]
#[derive(Clone, Debug)]
pub struct Move {
    pub(crate) variant: Variant,
    pub(crate) raw: dama::Move,
    text: String,
    path: Vec<String>,
    captured: Vec<String>,
}

impl Move {
    /// The move `mv` of `pos`.
    pub fn new<R: Rules>(pos: &Position<R>, mv: &dama::Move) -> Move {
        let path = move_path(pos, mv)
            .into_iter()
            .map(square_name::<R>)
            .collect();
        Move {
            variant: R::VARIANT,
            raw: *mv,
            text: move_text(pos, mv),
            path,
            captured: mv.captured.map(square_name::<R>).collect(),
        }
    }

    /// The moves of a line from `pos`.
    pub fn line<R: Rules>(pos: &Position<R>, line: &[dama::Move]) -> Vec<Move> {
        let mut p = *pos;
        line.iter()
            .map(|mv| {
                let m = Move::new(&p, mv);
                p = p.play(mv);
                m
            })
            .collect()
    }
}

#[pymethods]
impl Move {
    /// The move as the CLI writes it (`11-15`, `a3xc5xe7`).
    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.text)
    }

    /// The square the moving piece starts on.
    #[getter]
    #[allow(clippy::wrong_self_convention)] // python-chess's name
    fn from_square(&self) -> &str {
        &self.path[0]
    }

    /// The square it ends on.
    #[getter]
    fn to_square(&self) -> &str {
        &self.path[self.path.len() - 1]
    }

    /// The squares of the pieces it captures, in board order (a1 first).
    #[getter]
    fn captured(&self) -> Vec<String> {
        self.captured.clone()
    }

    /// The squares it passes through: its start, every landing square, its end.
    #[getter]
    fn path(&self) -> Vec<String> {
        self.path.clone()
    }

    /// Whether it captures.
    fn is_capture(&self) -> bool {
        self.raw.is_capture()
    }

    /// The variant the move belongs to.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Move>()
            .map(|o| {
                let o = o.get();
                o.variant == self.variant && o.raw == self.raw
            })
            .unwrap_or(false)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.variant.name(), self.raw).hash(&mut h);
        h.finish()
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
        let py = slf.py();
        let m = slf.get();
        let state = (
            m.variant.name(),
            m.raw.from.index() as u8,
            m.raw.to.index() as u8,
            m.raw.captured.0,
            m.text.clone(),
            m.path.clone(),
            m.captured.clone(),
        );
        let f = py.import("dama._dama")?.getattr("_move_from_state")?;
        Ok((f.unbind(), state.into_pyobject(py)?.into_any().unbind()))
    }
}

/// A `Move` from its pickled state.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn _move_from_state(
    variant: &str,
    from: u8,
    to: u8,
    captured: u64,
    text: String,
    path: Vec<String>,
    captured_names: Vec<String>,
) -> PyResult<Move> {
    if from >= 64 || to >= 64 || path.is_empty() {
        return Err(PyValueError::new_err("not the state of a dama.Move"));
    }
    Ok(Move {
        variant: variant_named(variant)?,
        raw: dama::Move {
            captured: Bitboard(captured),
            from: Square::new(from),
            to: Square::new(to),
        },
        text,
        path,
        captured: captured_names,
    })
}

/// A game of one variant: its start, the moves played and the position they lead to.
#[pyclass(module = "dama")]
#[derive(Clone)]
pub struct Board {
    pub(crate) game: AnyGame,
}

/// The legal move of `pos` that `item` is: a `Move` of this variant or its text.
pub fn legal_move<R: Rules>(pos: &Position<R>, item: &Bound<'_, PyAny>) -> PyResult<dama::Move> {
    if let Ok(m) = item.cast::<Move>() {
        let m = m.get();
        if m.variant != R::VARIANT {
            return Err(IllegalMoveError::new_err(format!(
                "the move {} is a move of {}, not of {}",
                m.text,
                m.variant.name(),
                R::NAME
            )));
        }
        let legal = dama::movegen::legal_moves(pos);
        return legal.iter().find(|l| **l == m.raw).copied().ok_or_else(|| {
            IllegalMoveError::new_err(format!("illegal move '{}': not legal here", m.text))
        });
    }
    let text: String = item
        .extract()
        .map_err(|_| PyTypeError::new_err("a move is a dama.Move or its text"))?;
    parse_move(pos, &text).map_err(|e| IllegalMoveError::new_err(e.to_string()))
}

/// The game from `fen` (or the start position).
pub fn new_game(variant: Variant, fen: Option<&str>) -> PyResult<AnyGame> {
    Ok(make_any!(variant, R => {
        let start = match fen {
            Some(f) => parse_fen::<R>(f).map_err(|e| FenError::new_err(e.to_string()))?,
            None => Position::<R>::start(),
        };
        Game::new(start)
    }))
}

/// The result of a game as PDN writes it.
pub fn result_text(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "*",
        Some(o) => match o.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        },
    }
}

impl Board {
    /// A board holding `game`.
    pub fn of(game: AnyGame) -> Board {
        Board { game }
    }
}

#[pymethods]
impl Board {
    /// A board of `variant` (a name or alias: `english`, `checkers`, `dameo`, ...) at
    /// its start position, or at `fen`.
    #[new]
    #[pyo3(signature = (variant = "english", fen = None))]
    fn py_new(variant: &str, fen: Option<&str>) -> PyResult<Board> {
        Ok(Board::of(new_game(variant_named(variant)?, fen)?))
    }

    /// The variant's canonical name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant().name()
    }

    /// The legal moves of the position, in the generator's order.
    #[getter]
    fn legal_moves(&self) -> Vec<Move> {
        dispatch!(&self.game, g, R => {
            let pos = g.position();
            dama::movegen::legal_moves(pos).iter().map(|m| Move::new::<R>(pos, m)).collect()
        })
    }

    /// Plays a move: a `Move` of `legal_moves` or its text in any form the CLI takes.
    /// An illegal move raises `IllegalMoveError` and changes nothing.
    fn push(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<Move> {
        dispatch!(&mut self.game, g, R => {
            let raw = legal_move::<R>(g.position(), mv)?;
            let m = Move::new::<R>(g.position(), &raw);
            g.play(&raw);
            Ok(m)
        })
    }

    /// Takes the last move back and returns it; `IndexError` when no move was played.
    fn pop(&mut self) -> PyResult<Move> {
        dispatch!(&mut self.game, g, R => {
            let mv = g.undo().ok_or_else(|| PyIndexError::new_err("pop from a board with no move played"))?;
            Ok(Move::new::<R>(g.position(), &mv))
        })
    }

    /// The moves played, first to last.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        dispatch!(&self.game, g, R => Move::line::<R>(&g.positions()[0], g.moves()))
    }

    /// A copy with the same history.
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// The position as a PDN FEN.
    fn fen(&self) -> String {
        dispatch!(&self.game, g, _R => to_fen(g.position()))
    }

    /// The start position's FEN.
    fn start_fen(&self) -> String {
        dispatch!(&self.game, g, _R => to_fen(&g.positions()[0]))
    }

    /// The side to move: `"white"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        dispatch!(&self.game, g, _R => match g.position().side() {
            Color::White => "white",
            Color::Black => "black",
        })
    }

    /// The plies played since the start position.
    #[getter]
    fn ply(&self) -> usize {
        dispatch!(&self.game, g, _R => g.moves().len())
    }

    /// The leaves of the legal-move tree `depth` plies deep (the search runs without
    /// the GIL).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > MAX_PERFT_DEPTH {
            return Err(PyValueError::new_err(format!(
                "perft depth runs from 0 to {MAX_PERFT_DEPTH}"
            )));
        }
        let game = self.game.clone();
        Ok(py.detach(move || dispatch!(&game, g, _R => dama::perft::perft(g.position(), depth))))
    }

    /// Whether the game has ended by the rules (G8 no move, G9 repetition, E7).
    fn is_game_over(&self) -> bool {
        dispatch!(&self.game, g, _R => g.outcome().is_some())
    }

    /// `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"` while the game goes on.
    fn result(&self) -> &'static str {
        dispatch!(&self.game, g, _R => result_text(g.outcome()))
    }

    /// The rule that ended the game, with its id in docs/rules.md, or `None`.
    fn termination(&self) -> Option<String> {
        dispatch!(&self.game, g, _R => g.outcome().map(|o| match o {
            Outcome::NoMoves { loser } => format!("G8: {loser} has no legal move"),
            Outcome::Repetition => "G9: the same position for the third time".to_string(),
            Outcome::NoCapture(n) => format!("E7: {n} plies without a capture"),
        }))
    }

    /// The pieces: square name to letter (`w` white man, `W` white king, `b`, `B`).
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        dispatch!(&self.game, g, R => {
            let pos = g.position();
            for sq in pos.occupied() {
                if let Some(p) = pos.piece_at(sq) {
                    d.set_item(square_name::<R>(sq), p.letter().to_string())?;
                }
            }
        });
        Ok(d)
    }

    /// A text diagram of the position.
    fn __str__(&self) -> String {
        dispatch!(&self.game, g, _R => g.position().diagram())
    }

    fn __repr__(&self) -> String {
        format!("Board('{}', fen='{}')", self.variant(), self.fen())
    }

    /// The position as an SVG picture (Jupyter shows it by itself).
    fn _repr_svg_(&self) -> String {
        crate::svg::board_svg(&self.game)
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
        let py = slf.py();
        let b = slf.borrow();
        let moves: Vec<String> = b.move_stack().iter().map(|m| m.text.clone()).collect();
        let state = (b.variant(), b.start_fen(), moves);
        let f = py.import("dama._dama")?.getattr("_board_from_state")?;
        Ok((f.unbind(), state.into_pyobject(py)?.into_any().unbind()))
    }
}

/// A `Board` from its pickled state: the variant, the start and the moves.
#[pyfunction]
pub fn _board_from_state(variant: &str, fen: &str, moves: Vec<String>) -> PyResult<Board> {
    let mut game = new_game(variant_named(variant)?, Some(fen))?;
    dispatch!(&mut game, g, R => {
        for m in &moves {
            let mv = parse_move::<R>(g.position(), m).map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
            g.play(&mv);
        }
    });
    Ok(Board::of(game))
}
