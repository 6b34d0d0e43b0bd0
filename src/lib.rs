//! `dama`: a draughts engine for five rule sets on the 8x8 board (`dameo`, `croda`,
//! `scandinavian`, `boyer-parton`, `english`), following the project's rules
//! specification, `docs/rules.md`.
//!
//! This is the library under the `dama` binary. What the program does, how to build it
//! and a tour of its commands are in the repository's `README.md`; each subject has its
//! page in `docs/` (`docs/engine.md`: search, time, threads; `docs/evaluation.md`: the
//! networks and their training; `docs/egdb.md`: endgame databases;
//! `docs/books-annotation.md`; `docs/matches.md`; `docs/board.md`; `docs/testing.md`;
//! `docs/results.md`: every measurement), and the Hub protocol is in `protocol.md`.
//!
//! A library user starts from [`Position`] (a position of a rule set, its moves), the
//! [`Rules`] types (one per variant), [`engine::Engine`] (the search) and
//! [`pdn::PdnReader`] (the games of a PDN file); each has an example below its name.
//!
//! # Layers
//!
//! The crate is a stack of layers, listed here top-down. A module may import from its own
//! layer and from the layers below it, never from one above; `tests/layers.rs` reads the
//! `crate::` paths of `src/` and fails on an upward one. The table is that test's input.
//!
//! | layer | modules | what it holds |
//! |---|---|---|
//! | cli | [`cli`] | the command line: one file per subcommand; the variant is chosen here |
//! | serve | [`serve`] | the board in the browser |
//! | learn | [`learn`] | making evaluations and books: self-play data, data files, training, tuning, opening books |
//! | play | [`play`] | games between engines: openings, selfplay, matches, stats, conversion runs, annotation |
//! | protocol | [`protocol`] | the Hub protocol, both ends: the engine's loop and the client |
//! | engine | [`engine`] | the facade, search, threads, transposition table, time, bench, opening books |
//! | egdb | [`egdb`] | endgame databases: build, files, probe |
//! | eval | [`eval`] | what the search calls to score a position: classic, network, models |
//! | core | [`types`] [`bitboard`] [`rules`] [`position`] [`moves`] [`movegen`] [`zobrist`] [`fen`] [`notation`] [`game`] [`pdn`] [`perft`] [`variant`] [`atomic_file`] | the rules core, and whole-file writes |
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

// cli
pub mod cli;
// serve
pub mod serve;
// learn
pub mod learn;
// play
pub mod play;
// protocol
pub mod protocol;
// engine
pub mod engine;
// egdb
pub mod egdb;
// eval
pub mod eval;
// core
pub mod atomic_file;
pub mod bitboard;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod position;
pub mod rules;
pub mod types;
pub mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use moves::{Move, MoveList};
pub use position::Position;
pub use rules::Rules;
pub use types::{Color, Piece, Square};
pub use variant::Variant;
