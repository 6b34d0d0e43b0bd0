//! Croda (Ljuban Dedic, 1995): `docs/rules.md` section C.

use super::{ranks, Rules};
use crate::bitboard::{Bitboard, ALL, FORWARD, ORTHOGONAL};
use crate::types::Color;

/// Croda: all 64 squares, 24 men a side, rook-like kings, orthogonal captures, majority
/// capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Croda;

impl Rules for Croda {
    const NAME: &'static str = "croda";
    // C1: all 64 squares; White fills ranks 1-3, Black ranks 6-8; White first.
    const BOARD: Bitboard = ALL;
    const START_WHITE: Bitboard = ranks(0, 2);
    const START_BLACK: Bitboard = ranks(5, 7);
    const FIRST: Color = Color::White;
    // C2: one square straight or diagonally forward; no linear moves.
    const MAN_STEPS: u8 = FORWARD;
    const MAN_LINES: bool = false;
    // C4 = D4: orthogonal short-leap captures in all four directions.
    const MAN_CAPTURES: u8 = ORTHOGONAL;
    const MAN_LONG_LEAP: bool = false;
    // C3: kings move like a chess rook.
    const KING_STEPS: u8 = ORTHOGONAL;
    const KING_FLIES: bool = true;
    // C5 = D5: orthogonal long-leap captures.
    const KING_CAPTURES: u8 = ORTHOGONAL;
    const KING_LONG_LEAP: bool = true;
    // C6: majority rule.
    const MAJORITY: bool = true;
    // C7 = G7.
    const CROWNING_ENDS_CAPTURE: bool = false;
    const NUMERIC_SQUARES: bool = false;
    // C8: repetition only (G9).
    const NO_CAPTURE_DRAW_PLIES: Option<u32> = None;
}
