//! Endgame databases: the exact value of every position with few pieces, by retrograde
//! analysis, with the distance to capture (plies to the next capture
//! that keeps the win).
//!
//! A **slice** is one [`Material`] (men and kings of each colour) with both sides to
//! move; only one colour orientation is stored ([`Material::is_canonical`]) and the
//! other is read through the position turned 180 degrees. Values ignore the draw
//! counters: the 100-ply rule (E7) does not exist here and a repetition is a draw, as in
//! every published database.
//!
//! - [`index`]: the numbering of a slice's positions;
//! - [`build`]: retrograde analysis of one slice;
//! - [`builder`]: every slice of a variant in dependency order, into files;
//! - [`builtin`]: the small slices the engine solves for itself, in memory;
//! - [`file`](mod@file): the compressed, checksummed slice file;
//! - [`tables`]: the slices at hand and the lookup of a position;
//! - [`verify`]: every stored value checked against its successors.
//!
//! Conversion runs (won positions played out by dama) are the `play` layer's.

pub mod build;
pub mod builder;
pub mod builtin;
pub mod file;
pub mod index;
pub mod material;
pub mod tables;
pub mod value;
pub mod verify;

pub use index::Indexer;
pub use material::Material;
pub use tables::Tables;
pub use value::Value;

use std::path::PathBuf;

/// The directory searched for databases when none is given: `$DAMA_EGDB_DIR`, else
/// `$XDG_DATA_HOME/dama/egdb`, else `$HOME/.local/share/dama/egdb`, else `./egdb`.
/// Each variant's slices are in a subdirectory named after it.
pub fn default_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("DAMA_EGDB_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(d).join("dama").join("egdb");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(h)
            .join(".local")
            .join("share")
            .join("dama")
            .join("egdb");
    }
    PathBuf::from("egdb")
}
