//! Helpers shared by the integration tests: the built binary ([`bin`]), the 3-piece
//! english databases ([`egdb`]), the slow reference move generator ([`reference`]) and
//! a running `dama serve` with a WebSocket client ([`server`]).
#![allow(dead_code)]

pub mod bin;
pub mod egdb;
pub mod reference;
pub mod server;
