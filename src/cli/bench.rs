//! `dama bench`: the search signature.

use clap::Args;

/// Arguments of `dama bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of every search (default: per variant, see `dama bench --help`).
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// The evaluation: default (each variant's shipped network, else classic), classic,
    /// or nn (an error for a variant without a network).
    #[arg(long, default_value = "default")]
    pub evaluation: String,
}
