//! `dama`: a draughts engine for five rule sets on the 8x8 board (`dameo`, `croda`,
//! `scandinavian`, `boyer-parton`, `english`), following the project's `RULES.md`.
//!
//! The rules core: [`Position`] with copy-make [`Position::play`], a bitboard move
//! generator ([`movegen`]) generic over a [`Rules`] type, PDN [`fen`] and move
//! [`notation`], and [`perft`].
//!
//! ```
//! use dama::{movegen, rules::English, Position};
//! let start = Position::<English>::start();
//! assert_eq!(movegen::count(&start), 7);
//! assert_eq!(dama::perft::perft(&start, 4), 1469);
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod atomic_file;
pub mod bench;
pub mod bitboard;
pub mod cli;
pub mod egdb;
pub mod engine;
pub mod eval;
pub mod evaluation;
pub mod fen;
pub mod game;
pub mod hubclient;
pub mod match_resume;
pub mod match_runner;
pub mod movegen;
pub mod moves;
pub mod nn;
pub mod notation;
pub mod opening;
pub mod pdn;
pub mod perft;
pub mod position;
pub mod progress;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod selfplay;
pub mod serve;
pub mod stats;
pub mod threads;
pub mod time;
pub mod tt;
pub mod tune;
pub mod types;
pub mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use moves::{Move, MoveList};
pub use position::Position;
pub use rules::Rules;
pub use types::{Color, Piece, Square};
pub use variant::Variant;
