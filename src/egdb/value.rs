//! [`Value`]: the stored result of a position for the side to move, with its distance to
//! capture, and its 16-bit entry (files store it in one byte when every distance of a
//! slice is at most 127 plies).
//!
//! **Distance to capture (DTC, "conversion" = capture)** counts the plies until the next
//! capture with best play: the winner captures as soon as it can while keeping the win,
//! the loser holds out as long as it can; crownings are moves like any other. A lost
//! position with no legal move has distance 0. Playing the move of least distance in
//! every won position wins, since each capture takes material off the board; and a win
//! within 100 plies of its last capture is also a win under the english 100-ply rule
//! (E7), which the databases do not otherwise know.

use std::fmt;

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Won; the winner captures in this many plies (at least 1) and keeps the win.
    Win(u16),
    /// Drawn with best play (repetitions; the 100-ply rule is ignored).
    Draw,
    /// Lost; the loser can delay the next capture this many plies (0: no legal move).
    Loss(u16),
}

/// The largest distance an entry holds.
pub const MAX_DISTANCE: u16 = 0x7FFE;

/// A stored entry: [`Value::encode`].
pub type Entry = u16;

impl Value {
    /// The entry stored: 0 draw, 1..=0x7FFF win in d, 0x8000 + d loss in d.
    pub fn encode(self) -> Entry {
        match self {
            Value::Draw => 0,
            Value::Win(d) => d,
            Value::Loss(d) => 0x8000 + d,
        }
    }

    /// The value of a stored entry.
    pub fn decode(e: Entry) -> Value {
        match e {
            0 => Value::Draw,
            1..=0x7FFF => Value::Win(e),
            _ => Value::Loss(e - 0x8000),
        }
    }

    /// The entry of a byte of a narrow file (distances up to 127): 0 draw, 1..=127 win
    /// in d, 128 + d loss in d.
    pub fn entry_of_byte(b: u8) -> Entry {
        match b {
            0..=127 => b as Entry,
            _ => 0x8000 + (b - 128) as Entry,
        }
    }

    /// The byte of an entry in a narrow file, if its distance fits.
    pub fn byte_of_entry(e: Entry) -> Option<u8> {
        match Value::decode(e) {
            Value::Draw => Some(0),
            Value::Win(d) if d <= 127 => Some(d as u8),
            Value::Loss(d) if d <= 127 => Some(128 + d as u8),
            _ => None,
        }
    }

    /// The distance in plies (`None` for a draw).
    pub fn distance(self) -> Option<u16> {
        match self {
            Value::Draw => None,
            Value::Win(d) | Value::Loss(d) => Some(d),
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        }
    }

    /// The value for the side that moved into a position of value `self`: a capture is
    /// the conversion itself (distance 1); any other move, a crowning included, adds
    /// one ply to the distance.
    pub fn before_move(self, capture: bool) -> Value {
        let step = |d: u16| if capture { 1 } else { d.saturating_add(1) };
        match self {
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(step(d)),
            Value::Win(d) => Value::Loss(step(d)),
        }
    }

    /// The value of a position whose moves have the values `values` (all known): the
    /// best of them under distance-to-capture play, and lost in 0 without a move.
    pub fn best(values: impl IntoIterator<Item = Value>) -> Value {
        values
            .into_iter()
            .fold(None, |best: Option<Value>, v| match best {
                Some(b) if !v.better_than(b) => Some(b),
                _ => Some(v),
            })
            .unwrap_or(Value::Loss(0))
    }

    /// True when `self` is better for the side to move than `other` under distance play:
    /// wins before draws before losses, quicker wins and slower losses first.
    pub fn better_than(self, other: Value) -> bool {
        let key = |v: Value| match v {
            Value::Win(d) => 1000 - d as i32,
            Value::Draw => 0,
            Value::Loss(d) => -1000 + d as i32,
        };
        key(self) > key(other)
    }
}

impl fmt::Display for Value {
    /// `win in 7`, `draw`, `loss in 0`: the distance is plies to the next capture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Draw => f.write_str("draw"),
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}
