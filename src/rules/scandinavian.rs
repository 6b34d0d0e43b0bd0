//! Scandinavian (Swedish / Danish = German) draughts: `docs/rules.md` section S.

use super::{squares, Rules};
use crate::bitboard::{Bitboard, DARK, DIAGONAL, FORWARD_DIAGONAL};
use crate::variant::Variant;

/// Scandinavian draughts: dark squares, flying kings, men capture forward only, free
/// choice of capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Scandinavian;

/// S1: White's men at the start (shared with boyer-parton and english).
pub(crate) const DARK_START_WHITE: Bitboard = squares(&[
    "a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3",
]);
/// S1: Black's men at the start (shared with boyer-parton and english).
pub(crate) const DARK_START_BLACK: Bitboard = squares(&[
    "b6", "d6", "f6", "h6", "a7", "c7", "e7", "g7", "b8", "d8", "f8", "h8",
]);

impl Rules for Scandinavian {
    const VARIANT: Variant = Variant::Scandinavian;
    // S1: the 32 dark squares, 12 men a side, White first (default).
    const BOARD: Bitboard = DARK;
    const START_WHITE: Bitboard = DARK_START_WHITE;
    const START_BLACK: Bitboard = DARK_START_BLACK;
    // S2: one square diagonally forward; no linear moves (default).
    const MAN_STEPS: u8 = FORWARD_DIAGONAL;
    // S3: diagonally forward only, short leap (default).
    const MAN_CAPTURES: u8 = FORWARD_DIAGONAL;
    // S4: flying kings, long-leap captures in all four diagonal directions (defaults).
    const KING_STEPS: u8 = DIAGONAL;
    const KING_CAPTURES: u8 = DIAGONAL;
    // S5: free choice.
    const MAJORITY: bool = false;
    // S6: promotion ends the move.
    const CROWNING_ENDS_CAPTURE: bool = true;
    // S7: repetition only (G9, project policy), no no-capture rule (default); square names
    // (default).
}
