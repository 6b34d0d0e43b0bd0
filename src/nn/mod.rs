//! The learned evaluation: a small network whose first layer is updated incrementally
//! ([`network`]), its file format ([`model`]), the training data ([`data`]), the
//! self-play that makes it ([`gen`]) and the trainer ([`train`]).
//!
//! Shipped models live in `src/nn/models/<variant>.nnue` and are compiled into the
//! binary; `dama train` remakes them (README: "Learned evaluation").

pub mod data;
pub mod gen;
pub mod model;
pub mod network;
pub mod train;

use crate::rules::Rules;
use model::Model;
use std::sync::OnceLock;

/// The bytes of the model shipped for `variant`, if any.
fn shipped_bytes(variant: &str) -> Option<&'static [u8]> {
    match variant {
        "dameo" => Some(include_bytes!("models/dameo.nnue")),
        "croda" => Some(include_bytes!("models/croda.nnue")),
        "english" => Some(include_bytes!("models/english.nnue")),
        "scandinavian" => Some(include_bytes!("models/scandinavian.nnue")),
        _ => None,
    }
}

/// The model shipped for `R`, read once. A shipped file that does not read is a build
/// defect, caught by the tests; at run time it counts as no model.
pub fn shipped<R: Rules>() -> Option<&'static Model> {
    static MODELS: [OnceLock<Option<Model>>; 5] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let slot = match R::NAME {
        "dameo" => 0,
        "croda" => 1,
        "scandinavian" => 2,
        "boyer-parton" => 3,
        _ => 4,
    };
    MODELS[slot]
        .get_or_init(|| shipped_bytes(R::NAME).and_then(|b| Model::from_bytes(b, R::NAME).ok()))
        .as_ref()
}

/// Reads the shipped model of `R` and reports why it does not read (for tests).
pub fn check_shipped<R: Rules>() -> Result<bool, String> {
    match shipped_bytes(R::NAME) {
        None => Ok(false),
        Some(b) => Model::from_bytes(b, R::NAME).map(|_| true),
    }
}
