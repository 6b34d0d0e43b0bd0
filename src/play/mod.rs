//! Games between engines: openings ([`opening`]), test openings that separate engines
//! ([`selection`]) and what a match says of each line ([`line_outcome`]), in-process
//! self-play ([`selfplay`]), matches against Hub engines ([`match_runner`]) and their resumption
//! ([`match_resume`]), match statistics ([`stats`]), endgame-database conversion runs
//! ([`conversion`]), whole games annotated ([`annotation`]), and the one worker pool they
//! all play their games on ([`pool`]).

pub mod annotation;
pub mod conversion;
pub mod line_outcome;
pub mod match_resume;
pub mod match_runner;
pub mod opening;
pub mod pool;
pub mod selection;
pub mod selfplay;
pub mod stats;
