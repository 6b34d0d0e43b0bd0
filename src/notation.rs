//! Move and square notation (N2): algebraic squares (`e4`) in every variant, PDN
//! numbers (`1`-`32`, E8) in the dark-square ones; moves as `from-to` or the capture
//! path `from x landing x ...`. English is written in numbers, the others in algebraic.

use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Square;
use std::fmt;

/// What is wrong with a square or a move in text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Nothing to parse.
    Empty,
    /// A token that is not a square of the variant.
    BadSquare {
        /// The token as written.
        token: String,
        /// Why it is not a square.
        reason: String,
    },
    /// Text that is not of the form `sq-sq` or `sq x sq x ...`.
    BadSyntax(String),
    /// Well-formed, but no legal move matches.
    Illegal {
        /// The move as written.
        text: String,
        /// Why it is not legal here.
        reason: String,
    },
    /// Several legal moves match (`from x to` with several captured sets).
    Ambiguous {
        /// The move as written.
        text: String,
        /// The matching moves, in full notation.
        candidates: Vec<String>,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(f, "empty move"),
            NotationError::BadSquare { token, reason } => {
                write!(f, "bad square '{token}': {reason}")
            }
            NotationError::BadSyntax(t) => write!(
                f,
                "cannot read move '{t}': expected from-to or a capture path like from x to x ..."
            ),
            NotationError::Illegal { text, reason } => {
                write!(f, "illegal move '{text}': {reason}")
            }
            NotationError::Ambiguous { text, candidates } => write!(
                f,
                "ambiguous move '{text}': it could be {}",
                candidates.join(" or ")
            ),
        }
    }
}

impl std::error::Error for NotationError {}

/// The name of `sq` in the variant's notation: a PDN number for english, else algebraic.
pub fn square_name<R: Rules>(sq: Square) -> String {
    if R::NUMERIC_SQUARES {
        if let Some(n) = sq.pdn_number() {
            return n.to_string();
        }
    }
    sq.algebraic()
}

/// Reads a square: algebraic (`e4`, any case) in every variant, a PDN number (`1`-`32`)
/// in the dark-square variants. The square must be playable.
pub fn parse_square<R: Rules>(token: &str) -> Result<Square, NotationError> {
    let bad = |reason: String| NotationError::BadSquare {
        token: token.to_string(),
        reason,
    };
    let t = token.trim();
    if t.is_empty() {
        return Err(bad("empty".into()));
    }
    let sq = if t.bytes().all(|b| b.is_ascii_digit()) {
        if R::BOARD.count() != 32 {
            return Err(bad(format!(
                "numbered squares are only used on the dark-square boards, not in {}",
                R::NAME
            )));
        }
        let n: u32 = t.parse().map_err(|_| bad("number too large".into()))?;
        if !(1..=32).contains(&n) {
            return Err(bad("square numbers run from 1 to 32".into()));
        }
        Square::from_pdn_number(n as u8).expect("1..=32")
    } else {
        let b = t.as_bytes();
        if b.len() != 2 {
            return Err(bad("expected a file a-h and a rank 1-8, like e4".into()));
        }
        let file = b[0].to_ascii_lowercase();
        let rank = b[1];
        if !(b'a'..=b'h').contains(&file) {
            return Err(bad("the file must be a letter a-h".into()));
        }
        if !(b'1'..=b'8').contains(&rank) {
            return Err(bad("the rank must be a digit 1-8".into()));
        }
        Square::from_coords(file - b'a', rank - b'1').expect("on the board")
    };
    if !R::BOARD.contains(sq) {
        return Err(bad(format!(
            "{} is a light square, not played on in {}",
            sq.algebraic(),
            R::NAME
        )));
    }
    Ok(sq)
}

/// The canonical path of a legal move: `[from, to]` for a quiet move, the origin and
/// every landing square for a capture (the first path the generator finds, G1/N2).
pub fn move_path<R: Rules>(pos: &Position<R>, mv: &Move) -> Vec<Square> {
    if mv.is_capture() {
        if let Some((_, path)) = movegen::capture_paths(pos)
            .into_iter()
            .find(|(m, _)| m == mv)
        {
            return path;
        }
    }
    vec![mv.from, mv.to]
}

/// Writes squares as a path: joined by `x` for a capture, `-` otherwise.
pub fn path_text<R: Rules>(path: &[Square], capture: bool) -> String {
    let sep = if capture { "x" } else { "-" };
    path.iter()
        .map(|s| square_name::<R>(*s))
        .collect::<Vec<_>>()
        .join(sep)
}

/// The moves of `game` in the variant's notation, in order.
pub fn move_texts<R: Rules>(game: &crate::game::Game<R>) -> Vec<String> {
    let positions = game.positions();
    game.moves()
        .iter()
        .enumerate()
        .map(|(i, mv)| move_text(&positions[i], mv))
        .collect()
}

/// A legal move of `pos` in the variant's notation (N2).
pub fn move_text<R: Rules>(pos: &Position<R>, mv: &Move) -> String {
    path_text::<R>(&move_path(pos, mv), mv.is_capture())
}

/// Reads a move of `pos`: `from-to` for a quiet move; for a capture any of its paths
/// (`e2xe4xg4xg6`), or `fromxto` alone when only one legal capture joins the two squares.
pub fn parse_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let capture = t.contains(['x', 'X', ':']);
    let quiet = t.contains('-');
    if capture == quiet {
        return Err(NotationError::BadSyntax(t.to_string()));
    }
    let squares = t
        .split(['x', 'X', ':', '-'])
        .map(parse_square::<R>)
        .collect::<Result<Vec<_>, _>>()?;
    if squares.len() < 2 {
        return Err(NotationError::BadSyntax(t.to_string()));
    }
    let illegal = |reason: String| NotationError::Illegal {
        text: t.to_string(),
        reason,
    };
    let legal = movegen::legal_moves(pos);
    let must_capture = legal.first().is_some_and(|m| m.is_capture());
    if quiet {
        if squares.len() != 2 {
            return Err(NotationError::BadSyntax(t.to_string()));
        }
        if must_capture {
            return Err(illegal("a capture is compulsory (G2)".into()));
        }
        return legal
            .iter()
            .find(|m| m.from == squares[0] && m.to == squares[1])
            .copied()
            .ok_or_else(|| illegal(why_not_quiet(pos, squares[0])));
    }
    if !must_capture {
        return Err(illegal("no capture is possible in this position".into()));
    }
    let paths = movegen::capture_paths(pos);
    if let Some((mv, _)) = paths.iter().find(|(_, p)| *p == squares) {
        return Ok(*mv);
    }
    if squares.len() == 2 {
        let mut matches: Vec<(Move, &[Square])> = Vec::new();
        for (mv, path) in &paths {
            if mv.from == squares[0] && mv.to == squares[1] && !matches.iter().any(|(m, _)| m == mv)
            {
                matches.push((*mv, path));
            }
        }
        match matches.len() {
            1 => return Ok(matches[0].0),
            n if n > 1 => {
                let mut candidates: Vec<String> = matches
                    .iter()
                    .map(|(_, p)| path_text::<R>(p, true))
                    .collect();
                candidates.sort();
                return Err(NotationError::Ambiguous {
                    text: t.to_string(),
                    candidates,
                });
            }
            _ => {}
        }
    }
    let from_here: Vec<String> = {
        let mut v: Vec<String> = Vec::new();
        for (mv, path) in &paths {
            let s = path_text::<R>(path, true);
            if mv.from == squares[0] && !v.contains(&s) {
                v.push(s);
            }
        }
        v
    };
    Err(illegal(if from_here.is_empty() {
        format!(
            "the piece on {} has no capture; legal captures start from {}",
            square_name::<R>(squares[0]),
            origins::<R>(&legal)
        )
    } else {
        format!(
            "not a legal capture path; from {} the legal paths are {}",
            square_name::<R>(squares[0]),
            from_here.join(", ")
        )
    }))
}

fn origins<R: Rules>(legal: &[Move]) -> String {
    let mut v: Vec<Square> = legal.iter().map(|m| m.from).collect();
    v.sort();
    v.dedup();
    v.iter()
        .map(|s| square_name::<R>(*s))
        .collect::<Vec<_>>()
        .join(", ")
}

fn why_not_quiet<R: Rules>(pos: &Position<R>, from: Square) -> String {
    match pos.piece_at(from) {
        None => format!("no piece on {}", square_name::<R>(from)),
        Some(p) if p.color != pos.side() => format!(
            "the piece on {} belongs to {}, and {} is to move",
            square_name::<R>(from),
            p.color,
            pos.side()
        ),
        Some(_) => format!("the piece on {} cannot move there", square_name::<R>(from)),
    }
}
