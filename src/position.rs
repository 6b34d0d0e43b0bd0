//! [`Position`]: the pieces, the side to move, the Zobrist hash and the draw counters,
//! with copy-make [`Position::play`].

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::rules::Rules;
use crate::types::{Color, Piece, Square};
use crate::zobrist;
use std::fmt;
use std::marker::PhantomData;

/// A position of the rule set `R`.
///
/// Made by [`Position::start`] or from a PDN FEN ([`crate::fen::parse_fen`]); a move is
/// played by copy-make, [`Position::play`], which leaves the position as it was:
///
/// ```
/// use dama::{fen, notation, perft::perft, rules::Scandinavian, Color, Position};
///
/// let pos: Position<Scandinavian> = fen::parse_fen("W:WKa1:Bd4,e7,b6,Kg5,h8").unwrap();
/// assert_eq!(pos.side(), Color::White);
/// assert_eq!(perft(&pos, 1), 2); // the king's two capture paths
///
/// let mv = notation::parse_move(&pos, "a1xf6xh4").unwrap();
/// let after = pos.play(&mv);
/// assert_eq!(after.side(), Color::Black);
/// assert_eq!(after.pieces(Color::Black).count(), 3);
/// assert_eq!(pos.pieces(Color::Black).count(), 5);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<R: Rules> {
    pieces: [Bitboard; 2],
    kings: Bitboard,
    side: Color,
    hash: u64,
    reversible: u32,
    since_capture: u32,
    rules: PhantomData<R>,
}

/// Why a set of pieces is not a position of a variant (N1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A piece on a square the variant does not play on.
    Unplayable(Square),
    /// Two pieces on one square.
    Twice(Square),
    /// A man on the rank where it would already have been crowned.
    ManOnPromotionRank(Square, Color),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Unplayable(sq) => write!(f, "square {sq} is not a playable square"),
            SetupError::Twice(sq) => write!(f, "square {sq} is given twice"),
            SetupError::ManOnPromotionRank(sq, c) => {
                write!(f, "a {c} man on {sq} stands on its promotion rank")
            }
        }
    }
}

impl<R: Rules> Position<R> {
    /// The variant's start position (D1, C1, S1, E1).
    pub fn start() -> Position<R> {
        Position::new([R::START_WHITE, R::START_BLACK], Bitboard::EMPTY, R::FIRST)
            .expect("start positions are valid")
    }

    /// A position from the pieces of each side, the kings among them and the side to
    /// move, with the draw counters at zero. Checks N1: playable squares only, no square
    /// twice, no man on its promotion rank.
    pub fn new(
        pieces: [Bitboard; 2],
        kings: Bitboard,
        side: Color,
    ) -> Result<Position<R>, SetupError> {
        let [white, black] = pieces;
        if let Some(sq) = (white & black).next() {
            return Err(SetupError::Twice(sq));
        }
        if let Some(sq) = ((white | black | kings) & !R::BOARD).next() {
            return Err(SetupError::Unplayable(sq));
        }
        let kings = kings & (white | black);
        let top = Bitboard(0xFF << 56);
        let bottom = Bitboard(0xFF);
        if let Some(sq) = (white & !kings & top).next() {
            return Err(SetupError::ManOnPromotionRank(sq, Color::White));
        }
        if let Some(sq) = (black & !kings & bottom).next() {
            return Err(SetupError::ManOnPromotionRank(sq, Color::Black));
        }
        Ok(Position {
            pieces,
            kings,
            side,
            hash: zobrist::full_hash(pieces, kings, side),
            reversible: 0,
            since_capture: 0,
            rules: PhantomData,
        })
    }

    /// The same position with the draw counters set (as read from a game record).
    pub fn with_counters(mut self, reversible: u32, since_capture: u32) -> Position<R> {
        self.reversible = reversible;
        self.since_capture = since_capture;
        self
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// All pieces of `c`.
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.pieces[c.index()]
    }

    /// The men of `c`.
    #[inline(always)]
    pub fn men(&self, c: Color) -> Bitboard {
        self.pieces[c.index()] & !self.kings
    }

    /// The kings of `c`.
    #[inline(always)]
    pub fn kings(&self, c: Color) -> Bitboard {
        self.pieces[c.index()] & self.kings
    }

    /// All kings of both sides.
    #[inline(always)]
    pub fn all_kings(&self) -> Bitboard {
        self.kings
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// Every empty playable square.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        R::BOARD & !self.occupied()
    }

    /// What stands on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let king = self.kings.contains(sq);
        Color::ALL
            .into_iter()
            .find(|c| self.pieces(*c).contains(sq))
            .map(|color| Piece { color, king })
    }

    /// Whether `other` has the same pieces on the same squares and the same side to
    /// move, whatever the two draw counters say: the same position to a book or a tree
    /// of positions reached by different paths.
    pub fn same_board(&self, other: &Position<R>) -> bool {
        self.pieces == other.pieces && self.kings == other.kings && self.side == other.side
    }

    /// The Zobrist hash (pieces and side to move), kept up to date by [`Position::play`].
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash recomputed from scratch; always equal to [`Position::hash`].
    pub fn compute_hash(&self) -> u64 {
        zobrist::full_hash(self.pieces, self.kings, self.side)
    }

    /// Plies since the last capture or man move: no earlier position can repeat (G9).
    #[inline(always)]
    pub fn reversible_plies(&self) -> u32 {
        self.reversible
    }

    /// Plies since the last capture (E7).
    #[inline(always)]
    pub fn plies_since_capture(&self) -> u32 {
        self.since_capture
    }

    /// The position after `mv`, which must be legal here (copy-make: `self` is unchanged).
    /// Captured pieces are removed together (G4); a man that ends on the far rank is
    /// crowned (G7).
    #[inline(always)]
    pub fn play(&self, mv: &Move) -> Position<R> {
        let us = self.side;
        let them = us.opponent();
        let from = Bitboard::from_square(mv.from);
        let to = Bitboard::from_square(mv.to);
        let was_king = (self.kings & from).any();
        let crowned = !was_king && mv.to.rank() == us.promotion_rank();
        let is_king = was_king || crowned;

        let mut p = *self;
        p.pieces[us.index()] ^= from ^ to;
        let mut h = self.hash
            ^ zobrist::BLACK_TO_MOVE
            ^ zobrist::piece_key(us, was_king, mv.from)
            ^ zobrist::piece_key(us, is_king, mv.to);
        if was_king {
            p.kings ^= from ^ to;
        } else if crowned {
            p.kings |= to;
        }
        if mv.captured.any() {
            p.pieces[them.index()] &= !mv.captured;
            for sq in mv.captured {
                h ^= zobrist::piece_key(them, self.kings.contains(sq), sq);
            }
            p.kings &= !mv.captured;
            p.reversible = 0;
            p.since_capture = 0;
        } else {
            p.reversible = if was_king { self.reversible + 1 } else { 0 };
            p.since_capture = self.since_capture + 1;
        }
        p.side = them;
        p.hash = h;
        p
    }

    /// The position turned 180 degrees with the colours swapped and the other side to
    /// move (draw counters at zero): the same game seen from the other side. Every rule
    /// set is symmetric this way, so the two have the same value.
    pub fn turned(&self) -> Position<R> {
        let rot = |b: Bitboard| Bitboard(b.0.reverse_bits());
        Position::new(
            [
                rot(self.pieces(Color::Black)),
                rot(self.pieces(Color::White)),
            ],
            rot(self.kings),
            self.side.opponent(),
        )
        .expect("the turned position of a position is a position")
    }

    /// A board diagram, rank 8 on top: `w`/`b` men, `W`/`B` kings, `.` empty playable
    /// squares, blank for unplayable ones.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            s.push_str(&format!("{} ", rank + 1));
            for file in 0..8 {
                let sq = Square::from_coords(file, rank).unwrap();
                let c = match self.piece_at(sq) {
                    Some(p) => p.letter(),
                    None if R::BOARD.contains(sq) => '.',
                    None => ' ',
                };
                s.push(c);
                s.push(' ');
            }
            s.push('\n');
        }
        s.push_str("  a b c d e f g h\n");
        s
    }
}

impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{} to move", self.diagram(), self.side)
    }
}
