//! Helpers shared by the integration tests: the built binary ([`bin`]), the 3-piece
//! english databases ([`egdb`]) and the slow reference move generator ([`reference`]).
#![allow(dead_code)]

pub mod bin;
pub mod egdb;
pub mod reference;
