//! PDN FEN (N1): `<side>:W<squares>:B<squares>`, `K` before a square for a king,
//! e.g. `W:Wa1,c1,Ke5:Bb8,Kd8` or, numbered, `B:W21-32:B1-12`.

use crate::bitboard::Bitboard;
use crate::notation::{parse_square, square_name};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{Color, Square};
use std::fmt;

/// A FEN that could not be read; the message names the field and the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}

/// Reads a PDN FEN. Algebraic squares work in every variant, numbers and ranges
/// (`21-32`) in the dark-square ones. Trailing fields such as `:H0:F1` are ignored;
/// surrounding quotes and a final `.` are tolerated.
pub fn parse_fen<R: Rules>(text: &str) -> Result<Position<R>, FenError> {
    let t = text.trim().trim_matches('"').trim().trim_end_matches('.');
    if t.is_empty() {
        return Err(FenError("empty FEN".into()));
    }
    let mut fields = t.split(':');
    let side = match fields.next().unwrap_or("").trim() {
        "W" | "w" => Color::White,
        "B" | "b" => Color::Black,
        other => {
            return Err(FenError(format!(
                "the side to move must be W or B, found '{other}'"
            )))
        }
    };
    let mut pieces: [Option<Bitboard>; 2] = [None, None];
    let mut kings = Bitboard::EMPTY;
    for field in fields {
        let field = field.trim();
        let color = match field.chars().next() {
            Some('W') | Some('w') => Color::White,
            Some('B') | Some('b') => Color::Black,
            _ => continue, // tolerated extra field, e.g. H0 or F1
        };
        if pieces[color.index()].is_some() {
            return Err(FenError(format!("the {color} pieces are given twice")));
        }
        let mut set = Bitboard::EMPTY;
        for token in field[1..].split(',') {
            let token = token.trim();
            if token.is_empty() {
                continue;
            }
            let (king, body) = match token.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, token),
            };
            for sq in parse_squares::<R>(body)
                .map_err(|e| FenError(format!("in the {color} field, token '{token}': {e}")))?
            {
                let b = Bitboard::from_square(sq);
                if (set & b).any() {
                    return Err(FenError(format!(
                        "square {} is given twice in the {color} field",
                        square_name::<R>(sq)
                    )));
                }
                set |= b;
                if king {
                    kings |= b;
                }
            }
        }
        pieces[color.index()] = Some(set);
    }
    let white = pieces[0].ok_or_else(|| FenError("no White field (like :Wa1,c1)".into()))?;
    let black = pieces[1].ok_or_else(|| FenError("no Black field (like :Bb8,d8)".into()))?;
    Position::new([white, black], kings, side).map_err(|e| FenError(e.to_string()))
}

/// A square or, with numbers, a range `21-32`.
fn parse_squares<R: Rules>(body: &str) -> Result<Vec<Square>, String> {
    if let Some((a, b)) = body.split_once('-') {
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        if !all_digits(a.trim()) || !all_digits(b.trim()) {
            return Err("ranges are written with square numbers, like 21-32".into());
        }
        let lo = parse_square::<R>(a).map_err(|e| e.to_string())?;
        let hi = parse_square::<R>(b).map_err(|e| e.to_string())?;
        let (lo, hi) = (lo.pdn_number().unwrap(), hi.pdn_number().unwrap());
        if lo > hi {
            return Err(format!("the range {lo}-{hi} runs backwards"));
        }
        return Ok((lo..=hi)
            .map(|n| Square::from_pdn_number(n).unwrap())
            .collect());
    }
    Ok(vec![parse_square::<R>(body).map_err(|e| e.to_string())?])
}

/// Writes a position as a PDN FEN, squares in the variant's notation, in ascending order.
pub fn to_fen<R: Rules>(pos: &Position<R>) -> String {
    let mut s = String::new();
    s.push(pos.side().letter());
    for c in Color::ALL {
        s.push(':');
        s.push(c.letter());
        let mut squares: Vec<Square> = pos.pieces(c).collect();
        if R::NUMERIC_SQUARES {
            squares.sort_by_key(|sq| sq.pdn_number());
        }
        let list: Vec<String> = squares
            .iter()
            .map(|sq| {
                let k = if pos.all_kings().contains(*sq) {
                    "K"
                } else {
                    ""
                };
                format!("{k}{}", square_name::<R>(*sq))
            })
            .collect();
        s.push_str(&list.join(","));
    }
    s
}
