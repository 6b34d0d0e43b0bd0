//! English draughts (checkers): `docs/rules.md` section E.

use super::scandinavian::{DARK_START_BLACK, DARK_START_WHITE};
use super::Rules;
use crate::bitboard::{Bitboard, DARK, DIAGONAL, FORWARD_DIAGONAL};
use crate::types::Color;
use crate::variant::Variant;

/// English draughts: dark squares, short kings, free choice of capture, Black first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct English;

impl Rules for English {
    const VARIANT: Variant = Variant::English;
    // E1: the 32 dark squares, 12 men a side (PDN 21-32 White, 1-12 Black); Black first.
    const BOARD: Bitboard = DARK;
    const START_WHITE: Bitboard = DARK_START_WHITE;
    const START_BLACK: Bitboard = DARK_START_BLACK;
    const FIRST: Color = Color::Black;
    // E2: one square diagonally forward, no linear moves (default). E3: captures
    // diagonally forward only, short leap (default).
    const MAN_STEPS: u8 = FORWARD_DIAGONAL;
    const MAN_CAPTURES: u8 = FORWARD_DIAGONAL;
    // E4: kings step one square and capture with the short leap, in all four diagonals.
    const KING_STEPS: u8 = DIAGONAL;
    const KING_FLIES: bool = false;
    const KING_CAPTURES: u8 = DIAGONAL;
    const KING_LONG_LEAP: bool = false;
    // E5: free choice.
    const MAJORITY: bool = false;
    // E6: promotion ends the move.
    const CROWNING_ENDS_CAPTURE: bool = true;
    // E8: PDN square numbers.
    const NUMERIC_SQUARES: bool = true;
    // E7: 100 plies without a capture draw.
    const NO_CAPTURE_DRAW_PLIES: Option<u32> = Some(100);
}
