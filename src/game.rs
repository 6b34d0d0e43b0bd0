//! [`Game`]: a position with its history, and the end of the game by the rules:
//! no legal move loses (G8), the third repetition draws (G9), 100 plies without a
//! capture draw in english (E7).

use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Color;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// G8: the side to move has no legal move and loses; the other side wins.
    NoMoves {
        /// The side that lost.
        loser: Color,
    },
    /// G9: the same position, same side to move, for the third time.
    Repetition,
    /// E7: the given number of plies without a capture.
    NoCapture(u32),
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::NoMoves { loser } => Some(loser.opponent()),
            _ => None,
        }
    }
}

/// A game: the positions from the first to the current one and the moves between them.
#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    positions: Vec<Position<R>>,
    moves: Vec<Move>,
}

impl<R: Rules> Game<R> {
    /// A game starting at `pos`.
    pub fn new(pos: Position<R>) -> Game<R> {
        Game {
            positions: vec![pos],
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position<R> {
        self.positions.last().expect("a game has a position")
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The positions so far, the first one included.
    pub fn positions(&self) -> &[Position<R>] {
        &self.positions
    }

    /// Plays `mv` if it is legal in the current position; returns whether it was.
    pub fn play(&mut self, mv: &Move) -> bool {
        let pos = *self.position();
        if !movegen::legal_moves(&pos).contains(mv) {
            return false;
        }
        self.positions.push(pos.play(mv));
        self.moves.push(*mv);
        true
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

    /// How many times the current position has occurred (1 the first time). Only the
    /// positions since the last capture or man move can be equal to it.
    pub fn occurrences(&self) -> usize {
        let cur = self.position();
        let window = cur.reversible_plies() as usize;
        let n = self.positions.len();
        let first = n - 1 - window.min(n - 1);
        self.positions[first..n - 1]
            .iter()
            .filter(|p| same_position(p, cur))
            .count()
            + 1
    }

    /// The end of the game, if it has ended. A draw (G9, E7) is reached when the
    /// move that completes it is played, so it is checked before G8.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if self.occurrences() >= 3 {
            return Some(Outcome::Repetition);
        }
        if let Some(limit) = R::NO_CAPTURE_DRAW_PLIES {
            if pos.plies_since_capture() >= limit {
                return Some(Outcome::NoCapture(limit));
            }
        }
        if !movegen::has_moves(pos) {
            return Some(Outcome::NoMoves { loser: pos.side() });
        }
        None
    }
}

/// Same pieces on the same squares and the same side to move (G9); counters aside.
fn same_position<R: Rules>(a: &Position<R>, b: &Position<R>) -> bool {
    a.hash() == b.hash()
        && a.side() == b.side()
        && Color::ALL
            .iter()
            .all(|c| a.pieces(*c) == b.pieces(*c) && a.kings(*c) == b.kings(*c))
}
