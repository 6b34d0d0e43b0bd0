//! Dameo (Christian Freeling, 2000): `docs/rules.md` section D.

use super::{squares, Rules};
use crate::bitboard::{Bitboard, ALL, FORWARD, ORTHOGONAL};
use crate::types::Color;

/// Dameo: all 64 squares, men move in lines, queen-like kings that capture orthogonally,
/// majority capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dameo;

impl Rules for Dameo {
    const NAME: &'static str = "dameo";
    // D1: all 64 squares; 18 men a side in a trapezium; White first.
    const BOARD: Bitboard = ALL;
    const START_WHITE: Bitboard = squares(&[
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "b2", "c2", "d2", "e2", "f2", "g2", "c3",
        "d3", "e3", "f3",
    ]);
    const START_BLACK: Bitboard = squares(&[
        "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "b7", "c7", "d7", "e7", "f7", "g7", "c6",
        "d6", "e6", "f6",
    ]);
    const FIRST: Color = Color::White;
    // D2: one step straight or diagonally forward, and linear moves.
    const MAN_STEPS: u8 = FORWARD;
    const MAN_LINES: bool = true;
    // D4: men capture orthogonally in all four directions, short leap.
    const MAN_CAPTURES: u8 = ORTHOGONAL;
    const MAN_LONG_LEAP: bool = false;
    // D3: kings move like a chess queen.
    const KING_STEPS: u8 = 0xFF;
    const KING_FLIES: bool = true;
    // D5: kings capture orthogonally only, long leap.
    const KING_CAPTURES: u8 = ORTHOGONAL;
    const KING_LONG_LEAP: bool = true;
    // D6: majority rule.
    const MAJORITY: bool = true;
    // D7 = G7: a man on the far rank mid-capture goes on capturing as a man.
    const CROWNING_ENDS_CAPTURE: bool = false;
    const NUMERIC_SQUARES: bool = false;
    // D8: repetition only (G9).
    const NO_CAPTURE_DRAW_PLIES: Option<u32> = None;
}
