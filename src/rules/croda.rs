//! Croda (Ljuban Dedic, 1995): `docs/rules.md` section C.

use super::{ranks, Rules};
use crate::bitboard::{Bitboard, ALL, FORWARD, ORTHOGONAL};
use crate::variant::Variant;

/// Croda: all 64 squares, 24 men a side, rook-like kings, orthogonal captures, majority
/// capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Croda;

impl Rules for Croda {
    const VARIANT: Variant = Variant::Croda;
    // C1: all 64 squares; White fills ranks 1-3, Black ranks 6-8; White first (default).
    const BOARD: Bitboard = ALL;
    const START_WHITE: Bitboard = ranks(0, 2);
    const START_BLACK: Bitboard = ranks(5, 7);
    // C2: one square straight or diagonally forward; no linear moves (default).
    const MAN_STEPS: u8 = FORWARD;
    // C4 = D4: orthogonal short-leap captures in all four directions (default leap).
    const MAN_CAPTURES: u8 = ORTHOGONAL;
    // C3: kings move like a chess rook, any distance (default).
    const KING_STEPS: u8 = ORTHOGONAL;
    // C5 = D5: orthogonal long-leap captures (default leap).
    const KING_CAPTURES: u8 = ORTHOGONAL;
    // C6: majority rule.
    const MAJORITY: bool = true;
    // C7 = G7.
    const CROWNING_ENDS_CAPTURE: bool = false;
    // C8: repetition only (G9), no no-capture rule (default); square names (default).
}
