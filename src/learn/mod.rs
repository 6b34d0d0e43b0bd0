//! Making evaluations: self-play data generation ([`gen`]), the training-data file
//! ([`data`]), the network trainer ([`train`]), the classic weights' tuner ([`tune`]), and
//! opening books grown by drop-out expansion ([`expansion`]).
//! What the search calls to evaluate is the `eval` layer's; this layer only makes it.

pub mod data;
pub mod expansion;
pub mod gen;
pub mod train;
pub mod tune;
