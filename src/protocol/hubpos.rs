//! Hub's own strings: the position (side letter, then one of `w b W B e` per playable
//! square in reading order, a8..h8 down to a1..h1) and the move as Hub clients parse it
//! (`from-to`, or `from x to x captured x ...` with the captured squares in ascending
//! reading order).

use crate::bitboard::Bitboard;
use crate::movegen;
use crate::moves::Move;
use crate::notation::{parse_square, square_name};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Color, Square};

/// The playable squares in reading order (a8..h8, a7..h7, ..., a1..h1); for english
/// this is PDN order 1..32.
pub fn reading_order<R: Rules>() -> Vec<Square> {
    let mut v = Vec::with_capacity(64);
    for rank in (0..8).rev() {
        for file in 0..8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            if R::BOARD.contains(sq) {
                v.push(sq);
            }
        }
    }
    v
}

/// The Hub position string of `pos`.
pub fn to_hub<R: Rules>(pos: &Position<R>) -> String {
    let mut s = String::with_capacity(65);
    s.push(pos.side().letter());
    for sq in reading_order::<R>() {
        s.push(pos.piece_at(sq).map_or('e', |p| p.letter()));
    }
    s
}

/// Reads a Hub position string.
pub fn parse_hub<R: Rules>(text: &str) -> Result<Position<R>, String> {
    let order = reading_order::<R>();
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.len() != order.len() + 1 {
        return Err(format!(
            "a {} Hub position has {} characters (side + {} squares), found {}",
            R::NAME,
            order.len() + 1,
            order.len(),
            chars.len()
        ));
    }
    let side = match chars[0] {
        'W' | 'w' => Color::White,
        'B' | 'b' => Color::Black,
        c => return Err(format!("the side to move must be W or B, found '{c}'")),
    };
    let mut pieces = [Bitboard::EMPTY; 2];
    let mut kings = Bitboard::EMPTY;
    for (i, (sq, c)) in order.iter().zip(&chars[1..]).enumerate() {
        let b = Bitboard::from_square(*sq);
        match c {
            'w' => pieces[0] |= b,
            'b' => pieces[1] |= b,
            'W' => {
                pieces[0] |= b;
                kings |= b
            }
            'B' => {
                pieces[1] |= b;
                kings |= b
            }
            'e' | '.' => {}
            other => {
                return Err(format!(
                    "character {} ('{other}', square {}) must be one of w b W B e",
                    i + 2,
                    square_name::<R>(*sq)
                ))
            }
        }
    }
    Position::new(pieces, kings, side).map_err(|e| e.to_string())
}

/// A legal move in Hub form: `from-to`, or `from x to x captured ...` with the captured
/// squares in ascending reading order.
pub fn hub_move<R: Rules>(mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", square_name::<R>(mv.from), square_name::<R>(mv.to));
    }
    let mut s = format!("{}x{}", square_name::<R>(mv.from), square_name::<R>(mv.to));
    for sq in reading_order::<R>() {
        if mv.captured.contains(sq) {
            s.push('x');
            s.push_str(&square_name::<R>(sq));
        }
    }
    s
}

/// Reads a move in any accepted form: the path form (N2), the Hub captured-set form, or
/// a bare `from x to` when only one capture joins the two squares.
pub fn parse_any_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move, String> {
    let path_err = match crate::notation::parse_move(pos, text) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    // Hub form: from x to x captured x captured ...
    let parts: Vec<&str> = text.trim().split(['x', 'X']).collect();
    if parts.len() >= 3 {
        let squares: Result<Vec<Square>, _> = parts.iter().map(|p| parse_square::<R>(p)).collect();
        if let Ok(squares) = squares {
            let captured = squares[2..]
                .iter()
                .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(*s));
            if let Some(m) = movegen::legal_moves(pos)
                .iter()
                .find(|m| m.from == squares[0] && m.to == squares[1] && m.captured == captured)
            {
                return Ok(*m);
            }
        }
    }
    Err(path_err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Dameo, English};

    #[test]
    fn english_hub_string_is_pdn_order() {
        let p = Position::<English>::start();
        let h = to_hub(&p);
        assert_eq!(h, "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        assert_eq!(parse_hub::<English>(&h).unwrap(), p);
        assert!(parse_hub::<English>("Bbbb").is_err());
        assert!(parse_hub::<English>(&h.replace('e', "x")).is_err());
    }

    #[test]
    fn hub_moves() {
        let p = crate::fen::parse_fen::<English>("W:WK18:B6,7,14,15").unwrap();
        let m = movegen::legal_moves(&p)[0];
        assert_eq!(hub_move::<English>(&m), "18x18x6x7x14x15");
        assert_eq!(parse_any_move(&p, "18x18x15x14x7x6").unwrap(), m);
        assert_eq!(parse_any_move(&p, "18x9x2x11x18").unwrap(), m);
        let d = Position::<Dameo>::start();
        assert_eq!(to_hub(&d).len(), 65);
        assert_eq!(parse_hub::<Dameo>(&to_hub(&d)).unwrap(), d);
    }
}
