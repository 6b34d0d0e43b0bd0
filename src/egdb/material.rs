//! [`Material`]: the piece counts that name an endgame-database slice, their canonical
//! colour orientation, and the order in which slices are solved.

use crate::position::Position;
use crate::rules::Rules;
use crate::types::Color;
use std::fmt;

/// Men and kings of each colour: the name of one slice of the databases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White's men.
    pub white_men: u8,
    /// White's kings.
    pub white_kings: u8,
    /// Black's men.
    pub black_men: u8,
    /// Black's kings.
    pub black_kings: u8,
}

impl Material {
    /// The material of a position.
    pub fn of<R: Rules>(pos: &Position<R>) -> Material {
        Material {
            white_men: pos.men(Color::White).count() as u8,
            white_kings: pos.kings(Color::White).count() as u8,
            black_men: pos.men(Color::Black).count() as u8,
            black_kings: pos.kings(Color::Black).count() as u8,
        }
    }

    /// All pieces on the board.
    pub fn pieces(&self) -> u32 {
        self.white_men as u32
            + self.white_kings as u32
            + self.black_men as u32
            + self.black_kings as u32
    }

    /// All men on the board.
    pub fn men(&self) -> u32 {
        self.white_men as u32 + self.black_men as u32
    }

    /// The pieces of one colour.
    pub fn pieces_of(&self, c: Color) -> u32 {
        match c {
            Color::White => self.white_men as u32 + self.white_kings as u32,
            Color::Black => self.black_men as u32 + self.black_kings as u32,
        }
    }

    /// The same material with the colours swapped.
    pub fn flipped(&self) -> Material {
        Material {
            white_men: self.black_men,
            white_kings: self.black_kings,
            black_men: self.white_men,
            black_kings: self.white_kings,
        }
    }

    /// True for the orientation that is stored: White's (men, kings) at least Black's.
    /// A slice holds both sides to move, so its colour-swapped twin needs no file.
    pub fn is_canonical(&self) -> bool {
        (self.white_men, self.white_kings) >= (self.black_men, self.black_kings)
    }

    /// The stored orientation of this material.
    pub fn canonical(&self) -> Material {
        if self.is_canonical() {
            *self
        } else {
            self.flipped()
        }
    }

    /// The file-name stem: the four counts as digits, e.g. `2110` for two white men
    /// and a white king against a black man.
    pub fn stem(&self) -> String {
        format!(
            "{}{}{}{}",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }

    /// Parses a [`Material::stem`].
    pub fn from_stem(stem: &str) -> Option<Material> {
        let d: Vec<u8> = stem
            .chars()
            .map(|c| c.to_digit(10).map(|d| d as u8))
            .collect::<Option<_>>()?;
        match d[..] {
            [wm, wk, bm, bk] => Some(Material {
                white_men: wm,
                white_kings: wk,
                black_men: bm,
                black_kings: bk,
            }),
            _ => None,
        }
    }

    /// Every canonical slice with at least one piece a side and at most `pieces` pieces,
    /// in an order where each slice comes after every slice its moves can lead to:
    /// captures lead to fewer pieces, promotions to fewer men with as many pieces.
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let mut all = Vec::new();
        for total in 2..=pieces {
            for white in 1..total {
                let black = total - white;
                for wm in 0..=white {
                    for bm in 0..=black {
                        let m = Material {
                            white_men: wm as u8,
                            white_kings: (white - wm) as u8,
                            black_men: bm as u8,
                            black_kings: (black - bm) as u8,
                        };
                        if m.is_canonical() {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.pieces(), m.men(), *m));
        all
    }
}

impl fmt::Display for Material {
    /// `2m1k v 1m0k`: White's men and kings against Black's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}m{}k v {}m{}k",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }
}
