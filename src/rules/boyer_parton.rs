//! The Boyer/Parton variant of Scandinavian draughts: `docs/rules.md` section B.

use super::scandinavian::{DARK_START_BLACK, DARK_START_WHITE};
use super::Rules;
use crate::bitboard::{Bitboard, DARK, DIAGONAL, FORWARD_DIAGONAL};
use crate::variant::Variant;

/// Boyer-parton: scandinavian, except that men capture with the long leap (B1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BoyerParton;

impl Rules for BoyerParton {
    const VARIANT: Variant = Variant::BoyerParton;
    // B1: exactly scandinavian (S1-S7; White first, flying kings with the long leap, no
    // no-capture rule, square names: the defaults) ...
    const BOARD: Bitboard = DARK;
    const START_WHITE: Bitboard = DARK_START_WHITE;
    const START_BLACK: Bitboard = DARK_START_BLACK;
    const MAN_STEPS: u8 = FORWARD_DIAGONAL;
    const MAN_CAPTURES: u8 = FORWARD_DIAGONAL;
    // ... except that men capture with the long leap, still diagonally forward only.
    const MAN_LONG_LEAP: bool = true;
    const KING_STEPS: u8 = DIAGONAL;
    const KING_CAPTURES: u8 = DIAGONAL;
    const MAJORITY: bool = false;
    const CROWNING_ENDS_CAPTURE: bool = true;
}
