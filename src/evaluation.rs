//! Which static evaluation the search uses: the classic linear one ([`crate::eval`]) or
//! a learned network ([`crate::nn`]). The choice is made once per search; inside the
//! search the network's first layer is updated incrementally move by move.

use crate::eval::Weights;
use crate::nn::network::Network;
use crate::rules::Rules;
use std::sync::Arc;

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
        crate::nn::shipped::<R>().map(|m| Evaluation::Net(Arc::new(m.net.clone())))
    }

    /// An evaluation by name: `classic`, `nn` (the shipped network; an error when `R`
    /// has none), or the path of a model file.
    pub fn by_name<R: Rules>(name: &str) -> Result<Evaluation, String> {
        match name {
            "classic" => Ok(Self::classic::<R>()),
            "nn" | "net" => Self::shipped_net::<R>()
                .ok_or_else(|| format!("no network is shipped for {}", R::NAME)),
            path => {
                let m = crate::nn::model::Model::read(std::path::Path::new(path), R::NAME)?;
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
    pub fn evaluate<R: Rules>(&self, pos: &crate::position::Position<R>) -> crate::eval::Score {
        match self {
            Evaluation::Classic(w) => crate::eval::evaluate(pos, w),
            Evaluation::Net(n) => n.evaluate_position(pos),
        }
    }
}
