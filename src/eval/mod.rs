//! What the search calls to score a position: the classic linear evaluation
//! ([`classic`], weights in `weights/<variant>.txt`), the learned network's integer
//! inference ([`network`]) and its file format ([`model`]), the models shipped in the
//! binary (`models/<variant>.nnue`, remade by `dama train`: docs/evaluation.md, "Learned
//! evaluation"), and the [`Evaluation`] switch between them. The choice is made once per
//! search; inside the search the network's first layer is updated incrementally move by
//! move. Making evaluations (data, training, tuning) is the `learn` layer's.

pub mod classic;
pub mod model;
pub mod network;

use crate::rules::Rules;
use classic::Weights;
use model::Model;
use network::Network;
use std::sync::{Arc, OnceLock};

/// An evaluation.
#[derive(Clone, Debug)]
pub enum Evaluation {
    /// The linear evaluation with these weights.
    Classic(Weights),
    /// A network.
    Net(Arc<Network>),
}

impl Evaluation {
    /// What `R` plays with by default: its shipped network when it has one, else the
    /// classic evaluation with the tuned weights.
    pub fn default_for<R: Rules>() -> Evaluation {
        Self::shipped_net::<R>().unwrap_or_else(Self::classic::<R>)
    }

    /// The classic evaluation with the tuned weights of `R`.
    pub fn classic<R: Rules>() -> Evaluation {
        Evaluation::Classic(Weights::default_for::<R>())
    }

    /// The network shipped in the binary for `R`, if there is one.
    pub fn shipped_net<R: Rules>() -> Option<Evaluation> {
        crate::eval::shipped::<R>().map(|m| Evaluation::Net(Arc::new(m.net.clone())))
    }

    /// An evaluation by name: `classic`, `nn` (the shipped network; an error when `R`
    /// has none), or the path of a model file.
    pub fn by_name<R: Rules>(name: &str) -> Result<Evaluation, String> {
        match name {
            "classic" => Ok(Self::classic::<R>()),
            "nn" | "net" => Self::shipped_net::<R>()
                .ok_or_else(|| format!("no network is shipped for {}", R::NAME)),
            path => {
                let m = crate::eval::model::Model::read(std::path::Path::new(path), R::NAME)?;
                Ok(Evaluation::Net(Arc::new(m.net)))
            }
        }
    }

    /// `classic` or `nn`.
    pub fn kind(&self) -> &'static str {
        match self {
            Evaluation::Classic(_) => "classic",
            Evaluation::Net(_) => "nn",
        }
    }

    /// The static evaluation of `pos` for the side to move, computed from scratch.
    pub fn evaluate<R: Rules>(&self, pos: &crate::position::Position<R>) -> crate::types::Score {
        match self {
            Evaluation::Classic(w) => crate::eval::classic::evaluate(pos, w),
            Evaluation::Net(n) => n.evaluate_position(pos),
        }
    }
}

/// The bytes of the model shipped for `variant`, if any.
fn shipped_bytes(variant: &str) -> Option<&'static [u8]> {
    match variant {
        "dameo" => Some(include_bytes!("models/dameo.nnue")),
        "croda" => Some(include_bytes!("models/croda.nnue")),
        "english" => Some(include_bytes!("models/english.nnue")),
        "scandinavian" => Some(include_bytes!("models/scandinavian.nnue")),
        "boyer-parton" => Some(include_bytes!("models/boyer-parton.nnue")),
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
