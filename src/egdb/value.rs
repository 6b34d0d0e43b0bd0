//! [`Value`]: the stored result of a position for the side to move, with its distance to
//! conversion, and its one-byte encoding.
//!
//! **Distance to conversion (DTC)** counts the plies until the next capture or promotion
//! (the move that leaves the slice) with best play: the winner converts as fast as it
//! can into a position that is still won, the loser holds out as long as it can. A lost
//! position with no legal move has distance 0. Playing the move of least DTC in every
//! won position wins: each slice is left within its distances, and the material only
//! goes down.

use std::fmt;

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Won; the winner converts in this many plies (at least 1).
    Win(u8),
    /// Drawn with best play (repetitions; the 100-ply rule is ignored).
    Draw,
    /// Lost; the loser can delay the conversion this many plies (0: no legal move).
    Loss(u8),
}

/// The largest distance a byte holds.
pub const MAX_DISTANCE: u8 = 127;

impl Value {
    /// The byte stored: 0 draw, 1..=127 win in d, 128 + d loss in d.
    pub fn encode(self) -> u8 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => d,
            Value::Loss(d) => 128 + d,
        }
    }

    /// The value of a stored byte.
    pub fn decode(b: u8) -> Value {
        match b {
            0 => Value::Draw,
            1..=127 => Value::Win(b),
            _ => Value::Loss(b - 128),
        }
    }

    /// The distance in plies (`None` for a draw).
    pub fn distance(self) -> Option<u8> {
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

    /// The value for the side that moved into a position of value `self`, by a move that
    /// stays in the slice (`exit` false: the distance grows by one ply) or that converts
    /// (`exit` true: distance 1).
    pub fn before_move(self, exit: bool) -> Value {
        let step = |d: u8| if exit { 1 } else { d.saturating_add(1) };
        match self {
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(step(d)),
            Value::Win(d) => Value::Loss(step(d)),
        }
    }

    /// True when `self` is better for the side to move than `other` under DTC play:
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
    /// `win in 7`, `draw`, `loss in 0`: the distance is plies to conversion.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Draw => f.write_str("draw"),
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}
