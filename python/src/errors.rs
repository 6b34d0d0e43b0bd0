//! The exceptions of the module: each a `ValueError`, carrying the CLI's message.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    dama,
    DamaError,
    PyValueError,
    "Any error of dama about its input."
);
create_exception!(dama, FenError, DamaError, "A FEN that does not read.");
create_exception!(
    dama,
    IllegalMoveError,
    DamaError,
    "A move that is not legal, or does not read."
);
create_exception!(
    dama,
    PdnError,
    DamaError,
    "A PDN game that does not read; the message names its number and line."
);
create_exception!(
    dama,
    FileError,
    DamaError,
    "A model, book or database file that is missing or damaged; the message names it."
);

/// Adds the exceptions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DamaError", py.get_type::<DamaError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("PdnError", py.get_type::<PdnError>())?;
    m.add("FileError", py.get_type::<FileError>())?;
    Ok(())
}
