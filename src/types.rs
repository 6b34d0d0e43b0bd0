//! The small vocabulary types: [`Color`], [`Square`], [`Piece`], and [`Score`] with its
//! bounds ([`MATE`], [`MATE_BOUND`], [`INFINITE`]), which the search, the table and the
//! evaluations share.

use std::fmt;

/// A side. White sits on ranks 1-3 and moves up the board; Black moves down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that starts on ranks 1-3.
    White = 0,
    /// The side that starts on ranks 6-8.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank (0-based) on which this side's men are crowned (G7).
    #[inline(always)]
    pub const fn promotion_rank(self) -> u8 {
        match self {
            Color::White => 7,
            Color::Black => 0,
        }
    }

    /// The PDN letter of the side: `W` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A square of the 8x8 board, `a1` = 0, `b1` = 1, ..., `h8` = 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with index `index` (0..64).
    ///
    /// # Panics
    /// In debug builds, when `index >= 64`.
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if both are on the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The index 0..64.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 = a.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 = rank 1.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// True for the dark squares (a1 is dark).
    pub const fn is_dark(self) -> bool {
        (self.file() + self.rank()) & 1 == 0
    }

    /// The algebraic name, e.g. `e4`.
    pub fn algebraic(self) -> String {
        format!("{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }

    /// The PDN number 1..32 of a dark square in english numbering (E8): reading order
    /// from the top (b8 = 1, h8 = 4, a7 = 5, ..., g1 = 32). `None` for a light square.
    pub const fn pdn_number(self) -> Option<u8> {
        if !self.is_dark() {
            return None;
        }
        Some((7 - self.rank()) * 4 + self.file() / 2 + 1)
    }

    /// The dark square with PDN number `n` (1..=32), the inverse of [`Square::pdn_number`].
    pub const fn from_pdn_number(n: u8) -> Option<Square> {
        if n < 1 || n > 32 {
            return None;
        }
        let i = n - 1;
        let rank = 7 - i / 4;
        // Dark squares have file + rank even.
        let file = (i % 4) * 2 + (rank % 2);
        Some(Square(rank * 8 + file))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// What stands on a square: a man or a king of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// True for a king.
    pub king: bool,
}

impl Piece {
    /// The piece's letter in diagrams and Hub strings: `w` `W` white man and king,
    /// `b` `B` black man and king.
    pub const fn letter(self) -> char {
        match (self.color, self.king) {
            (Color::White, false) => 'w',
            (Color::White, true) => 'W',
            (Color::Black, false) => 'b',
            (Color::Black, true) => 'B',
        }
    }
}

/// A score in hundredths of a man, from the side to move's point of view.
pub type Score = i32;

/// The score of a won position at the root; a win in `p` plies scores `MATE - p`.
pub const MATE: Score = 30_000;
/// Scores beyond this are forced wins or losses.
pub const MATE_BOUND: Score = MATE - 1_000;
/// Larger than any score.
pub const INFINITE: Score = MATE + 1;

/// The score of a move from the mover's view, given the score of the position it leads
/// to from the other side's view: turned over, and a forced result one ply further away.
pub fn parent_score(child: Score) -> Score {
    let further = if child >= MATE_BOUND {
        child - 1
    } else if child <= -MATE_BOUND {
        child + 1
    } else {
        child
    };
    -further
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdn_numbers_follow_e8() {
        // E8: 1=b8 4=h8 5=a7 13=a5 29=a1 32=g1
        let cases = [
            (1, "b8"),
            (2, "d8"),
            (4, "h8"),
            (5, "a7"),
            (8, "g7"),
            (9, "b6"),
            (13, "a5"),
            (21, "a3"),
            (29, "a1"),
            (32, "g1"),
        ];
        for (n, name) in cases {
            let sq = Square::from_pdn_number(n).unwrap();
            assert_eq!(sq.algebraic(), name, "square {n}");
            assert_eq!(sq.pdn_number(), Some(n));
        }
        for n in 1..=32 {
            let sq = Square::from_pdn_number(n).unwrap();
            assert!(sq.is_dark());
            assert_eq!(sq.pdn_number(), Some(n));
        }
        assert_eq!(Square::from_pdn_number(0), None);
        assert_eq!(Square::from_pdn_number(33), None);
        assert_eq!(Square::new(1).pdn_number(), None);
    }
}
