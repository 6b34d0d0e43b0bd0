//! `dama._dama`: the Python module of dama, built by maturin (`pip install ./python`).
//! The Python package `dama` (python/dama/__init__.py) re-exports it.
//!
//! The variant is chosen here, at the boundary, once per object: each Python object
//! holds an enum over the five monomorphised Rust types, and every method dispatches
//! on it with [`dispatch!`].

use pyo3::prelude::*;

mod any;
mod board;
mod engine;
mod errors;
mod records;
mod svg;

#[pymodule]
fn _dama(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::Board>()?;
    m.add_class::<board::Move>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::Analysis>()?;
    m.add_class::<records::Game>()?;
    m.add_function(wrap_pyfunction!(board::variants, m)?)?;
    m.add_function(wrap_pyfunction!(board::_board_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(board::_move_from_state, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_pdn, m)?)?;
    m.add_function(wrap_pyfunction!(records::annotate, m)?)?;
    m.add_function(wrap_pyfunction!(engine::egdb_probe, m)?)?;
    m.add_function(wrap_pyfunction!(engine::book_probe, m)?)?;
    errors::register(m)?;
    Ok(())
}
