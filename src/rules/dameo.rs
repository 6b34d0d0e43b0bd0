//! Dameo (Christian Freeling, 2000): `docs/rules.md` section D.

use super::{squares, Rules};
use crate::bitboard::{Bitboard, ALL, FORWARD, ORTHOGONAL};
use crate::variant::Variant;

/// Dameo: all 64 squares, men move in lines, queen-like kings that capture orthogonally,
/// majority capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dameo;

impl Rules for Dameo {
    const VARIANT: Variant = Variant::Dameo;
    // D1: all 64 squares; 18 men a side in a trapezium; White first (default).
    const BOARD: Bitboard = ALL;
    const START_WHITE: Bitboard = squares(&[
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "b2", "c2", "d2", "e2", "f2", "g2", "c3",
        "d3", "e3", "f3",
    ]);
    const START_BLACK: Bitboard = squares(&[
        "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "b7", "c7", "d7", "e7", "f7", "g7", "c6",
        "d6", "e6", "f6",
    ]);
    // D2: one step straight or diagonally forward, and linear moves.
    const MAN_STEPS: u8 = FORWARD;
    const MAN_LINES: bool = true;
    // D4: men capture orthogonally in all four directions, short leap (default).
    const MAN_CAPTURES: u8 = ORTHOGONAL;
    // D3: kings move like a chess queen, any distance (default).
    const KING_STEPS: u8 = 0xFF;
    // D5: kings capture orthogonally only, long leap (default).
    const KING_CAPTURES: u8 = ORTHOGONAL;
    // D6: majority rule.
    const MAJORITY: bool = true;
    // D7 = G7: a man on the far rank mid-capture goes on capturing as a man.
    const CROWNING_ENDS_CAPTURE: bool = false;
    // D8: repetition only (G9), no no-capture rule (default); square names, not numbers
    // (default).
}
