//! Rules as data: the [`Rules`] trait of constants and one zero-sized type per variant.
//!
//! Every constant names the `docs/rules.md` article it encodes, so each variant's file can be
//! held against the specification line by line. Code below the CLI/protocol boundary is
//! generic over `R: Rules` and monomorphised: no variant is ever tested at run time.

use crate::bitboard::{Bitboard, DirSet};
use crate::types::Color;
use crate::variant::Variant;

mod boyer_parton;
mod croda;
mod dameo;
mod english;
mod scandinavian;

pub use boyer_parton::BoyerParton;
pub use croda::Croda;
pub use dameo::Dameo;
pub use english::English;
pub use scandinavian::Scandinavian;

/// The constants that make a rule set. Directions are given from White's side; Black's
/// are the vertical mirror image. Where four of the five variants agree the constant has
/// a default, and the fifth variant's file sets it; each variant's file still names
/// every rule of its section, saying where the default applies.
///
/// Code is generic over `R: Rules`, so one function serves every variant:
///
/// ```
/// use dama::rules::{Croda, Dameo, English, Rules};
/// use dama::{perft::perft, Position};
///
/// fn first_moves<R: Rules>() -> u64 {
///     perft(&Position::<R>::start(), 1)
/// }
/// assert_eq!(English::NAME, "english");
/// assert!(English::NUMERIC_SQUARES && !Dameo::NUMERIC_SQUARES);
/// assert!(Dameo::MAJORITY && !English::MAJORITY);
/// assert_eq!(first_moves::<English>(), 7);
/// assert_eq!(Croda::NAME, "croda");
/// ```
pub trait Rules:
    Copy + Clone + Default + PartialEq + Eq + std::hash::Hash + Send + Sync + std::fmt::Debug + 'static
{
    /// Which of the five rule sets this is.
    const VARIANT: Variant;
    /// The variant's name on the command line and in the protocol.
    const NAME: &'static str = Self::VARIANT.name();
    /// The playable squares: all 64, or the 32 dark ones.
    const BOARD: Bitboard;
    /// White's men at the start.
    const START_WHITE: Bitboard;
    /// Black's men at the start.
    const START_BLACK: Bitboard;
    /// The side that moves first (default White: all but english).
    const FIRST: Color = Color::White;
    /// Directions of a man's one-square quiet step.
    const MAN_STEPS: DirSet;
    /// D2: men move in lines (a run of own men advances one step along itself).
    /// Default false: dameo only.
    const MAN_LINES: bool = false;
    /// Directions in which a man captures.
    const MAN_CAPTURES: DirSet;
    /// G5 for men (B1): a man captures with the long leap; otherwise the short leap (G6).
    /// Default false: boyer-parton only.
    const MAN_LONG_LEAP: bool = false;
    /// Directions of a king's quiet move.
    const KING_STEPS: DirSet;
    /// A king's quiet move goes any distance over empty squares (otherwise one square).
    /// Default true: all but english.
    const KING_FLIES: bool = true;
    /// Directions in which a king captures.
    const KING_CAPTURES: DirSet;
    /// G5 for kings: a king captures with the long leap; otherwise the short leap (G6).
    /// Default true: all but english.
    const KING_LONG_LEAP: bool = true;
    /// D6/C6: only captures taking the largest number of pieces are legal.
    const MAJORITY: bool;
    /// E6/S6: a man that reaches the far rank by a capture is crowned and stops.
    const CROWNING_ENDS_CAPTURE: bool;
    /// N2/E8: moves and positions are written in PDN square numbers (1-32).
    /// Default false: english only.
    const NUMERIC_SQUARES: bool = false;
    /// E7: plies without a capture after which the game is drawn, if the rules have one.
    /// Default none (repetition only, G9): all but english.
    const NO_CAPTURE_DRAW_PLIES: Option<u32> = None;
}

/// Squares `a1`-style list as a bitboard, for writing start positions as data.
pub(crate) const fn squares(list: &[&str]) -> Bitboard {
    let mut b = 0u64;
    let mut i = 0;
    while i < list.len() {
        let s = list[i].as_bytes();
        let file = s[0] - b'a';
        let rank = s[1] - b'1';
        b |= 1 << (rank * 8 + file);
        i += 1;
    }
    Bitboard(b)
}

/// Whole ranks (0-based) as a bitboard.
pub(crate) const fn ranks(first: u8, last: u8) -> Bitboard {
    let mut b = 0u64;
    let mut r = first;
    while r <= last {
        b |= 0xFF << (r * 8);
        r += 1;
    }
    Bitboard(b)
}
