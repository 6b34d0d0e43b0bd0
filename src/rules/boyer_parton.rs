//! The Boyer/Parton variant of Scandinavian draughts: `docs/rules.md` section B.

use super::scandinavian::{DARK_START_BLACK, DARK_START_WHITE};
use super::Rules;
use crate::bitboard::{Bitboard, DARK, DIAGONAL, FORWARD_DIAGONAL};
use crate::types::Color;

/// Boyer-parton: scandinavian, except that men capture with the long leap (B1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BoyerParton;

impl Rules for BoyerParton {
    const NAME: &'static str = "boyer-parton";
    // B1: exactly scandinavian (S1-S7) ...
    const BOARD: Bitboard = DARK;
    const START_WHITE: Bitboard = DARK_START_WHITE;
    const START_BLACK: Bitboard = DARK_START_BLACK;
    const FIRST: Color = Color::White;
    const MAN_STEPS: u8 = FORWARD_DIAGONAL;
    const MAN_LINES: bool = false;
    const MAN_CAPTURES: u8 = FORWARD_DIAGONAL;
    // ... except that men capture with the long leap, still diagonally forward only.
    const MAN_LONG_LEAP: bool = true;
    const KING_STEPS: u8 = DIAGONAL;
    const KING_FLIES: bool = true;
    const KING_CAPTURES: u8 = DIAGONAL;
    const KING_LONG_LEAP: bool = true;
    const MAJORITY: bool = false;
    const CROWNING_ENDS_CAPTURE: bool = true;
    const NUMERIC_SQUARES: bool = false;
    const NO_CAPTURE_DRAW_PLIES: Option<u32> = None;
    // The threat replies lost here: -20.1 ± 11.4 against the search without them
    // (259 games at 2+0.02, README).
    const QUIESCENCE_THREAT_PLIES: u32 = 0;
}
