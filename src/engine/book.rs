//! The opening book: positions with their good moves, each with a score and a count,
//! read from a checksummed text file ([`Book::parse`]) or from the book shipped in the
//! binary for the variant ([`Book::builtin`]), and written by `dama book build`.
//!
//! The file, one position a line:
//!
//! ```text
//! # dama book 1
//! # variant english
//! # command dama book build --variant english --positions 2000 --depth 12
//! # positions 2000
//! B:W21,22,...:B1,2,... | 11-15 +5 1520 | 9-13 +2 311 | 10-14 -4 96
//! ...
//! # fnv1a64 5c0d6f2e9a1b3c47
//! ```
//!
//! After the `#` header lines, each line is a position's FEN, then per move, best first:
//! the move in the variant's notation, its score in hundredths of a man from the side to
//! move's view (backed up through the book's positions below it), and its count, the book
//! positions under it. The last line is the FNV-1a 64 checksum of every byte before it, in
//! hex; a file whose checksum does not match, or with a move that is not legal in its
//! position, is refused with the line.

use crate::fen::{parse_fen, to_fen};
use crate::moves::Move;
use crate::notation::{move_text, parse_move};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Score;
use crate::variant::Variant;
use std::collections::HashMap;

/// The first line of every book file.
pub const MAGIC: &str = "# dama book 1";

/// One move of a book position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its score from the side to move's view, in hundredths of a man.
    pub score: Score,
    /// The book positions under it.
    pub count: u32,
}

/// An opening book of one variant.
#[derive(Clone, Debug)]
pub struct Book<R: Rules> {
    entries: HashMap<u64, (Position<R>, Vec<BookMove>)>,
    /// The command that made it (the file's `# command` line).
    pub command: String,
    /// The order the positions came in, for writing the file back as it was read.
    order: Vec<u64>,
}

/// FNV-1a, 64 bits: the book file's checksum.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The books shipped in the binary, by variant (`src/engine/books/`).
fn builtin_text(v: Variant) -> &'static str {
    match v {
        Variant::English => include_str!("books/english.book"),
        Variant::Scandinavian => include_str!("books/scandinavian.book"),
        Variant::BoyerParton => include_str!("books/boyer-parton.book"),
        Variant::Dameo => include_str!("books/dameo.book"),
        Variant::Croda => include_str!("books/croda.book"),
    }
}

impl<R: Rules> Default for Book<R> {
    fn default() -> Self {
        Book::new(String::new())
    }
}

impl<R: Rules> Book<R> {
    /// An empty book made by `command`.
    pub fn new(command: String) -> Book<R> {
        Book {
            entries: HashMap::new(),
            command,
            order: Vec::new(),
        }
    }

    /// The book shipped in the binary for the variant.
    pub fn builtin() -> Book<R> {
        Book::parse(builtin_text(R::VARIANT))
            .unwrap_or_else(|e| panic!("the built-in {} book: {e}", R::NAME))
    }

    /// The book of a file: `builtin` for [`Book::builtin`], else a path.
    pub fn load(name: &str) -> Result<Book<R>, String> {
        if name == "builtin" {
            return Ok(Book::builtin());
        }
        let text = std::fs::read_to_string(name).map_err(|e| format!("book {name}: {e}"))?;
        Book::parse(&text).map_err(|e| format!("book {name}: {e}"))
    }

    /// Reads a book file (see the module's documentation).
    pub fn parse(text: &str) -> Result<Book<R>, String> {
        let body_end = text.trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
        let last = text[body_end..].trim_end();
        let sum = last
            .strip_prefix("# fnv1a64 ")
            .ok_or("no checksum line at the end: the file is not whole")?;
        let want = u64::from_str_radix(sum.trim(), 16)
            .map_err(|_| format!("bad checksum line '{last}'"))?;
        if fnv1a64(&text.as_bytes()[..body_end]) != want {
            return Err("the checksum does not match: the file is damaged".to_string());
        }
        let mut lines = text[..body_end].lines().enumerate();
        match lines.next() {
            Some((_, MAGIC)) => {}
            _ => return Err(format!("line 1: not a book file (it must be '{MAGIC}')")),
        }
        let mut book = Book::new(String::new());
        for (i, line) in lines {
            let n = i + 1;
            if let Some(h) = line.strip_prefix("# ") {
                if let Some(v) = h.strip_prefix("variant ") {
                    if v != R::NAME {
                        return Err(format!("line {n}: a book of {v}, not {}", R::NAME));
                    }
                } else if let Some(c) = h.strip_prefix("command ") {
                    book.command = c.to_string();
                }
                continue;
            }
            let (pos, moves) = parse_line::<R>(line).map_err(|e| format!("line {n}: {e}"))?;
            if book.entries.contains_key(&pos.hash()) {
                return Err(format!("line {n}: the position comes twice"));
            }
            book.insert(pos, moves);
        }
        Ok(book)
    }

    /// Adds or replaces a position's moves (kept best first).
    pub fn insert(&mut self, pos: Position<R>, mut moves: Vec<BookMove>) {
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        if self.entries.insert(pos.hash(), (pos, moves)).is_none() {
            self.order.push(pos.hash());
        }
    }

    /// The book moves of `pos`, best first, if the book holds it.
    pub fn probe(&self, pos: &Position<R>) -> Option<&[BookMove]> {
        self.entries
            .get(&pos.hash())
            .filter(|(p, _)| p.same_board(pos))
            .map(|(_, m)| m.as_slice())
            .filter(|m| !m.is_empty())
    }

    /// A move to play from `pos`: one of the book moves within `margin` of the best,
    /// chosen by `pick` (a number; the moves are taken in turn by it modulo their count,
    /// so 0 always gives the best).
    pub fn choose(&self, pos: &Position<R>, margin: Score, pick: u64) -> Option<Move> {
        let moves = self.probe(pos)?;
        // Saturating: a file may score a move as low as `Score::MIN`.
        let floor = moves[0].score.saturating_sub(margin.max(0));
        let near: Vec<&BookMove> = moves.iter().filter(|m| m.score >= floor).collect();
        Some(near[(pick % near.len() as u64) as usize].mv)
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The positions and their moves, in the order they were added.
    pub fn positions(&self) -> impl Iterator<Item = (&Position<R>, &[BookMove])> {
        self.order.iter().map(|h| {
            let (p, m) = &self.entries[h];
            (p, m.as_slice())
        })
    }

    /// The book as its file: header, a line a position, the checksum.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{MAGIC}\n# variant {}\n# command {}\n# positions {}\n",
            R::NAME,
            self.command,
            self.len()
        );
        for (pos, moves) in self.positions() {
            s.push_str(&position_line(pos, moves));
            s.push('\n');
        }
        let sum = fnv1a64(s.as_bytes());
        s.push_str(&format!("# fnv1a64 {sum:016x}\n"));
        s
    }
}

/// One line of the file: `FEN | move score count | ...`.
pub fn position_line<R: Rules>(pos: &Position<R>, moves: &[BookMove]) -> String {
    let mut s = to_fen(pos);
    for m in moves {
        s.push_str(&format!(
            " | {} {:+} {}",
            move_text(pos, &m.mv),
            m.score,
            m.count
        ));
    }
    s
}

/// Reads one position line.
pub fn parse_line<R: Rules>(line: &str) -> Result<(Position<R>, Vec<BookMove>), String> {
    let mut parts = line.split(" | ");
    let fen = parts.next().unwrap_or("").trim();
    let pos = parse_fen::<R>(fen).map_err(|e| format!("FEN '{fen}': {e}"))?;
    let mut moves = Vec::new();
    for part in parts {
        let w: Vec<&str> = part.split_whitespace().collect();
        let [text, score, count] = w[..] else {
            return Err(format!("'{part}': expected a move, a score and a count"));
        };
        let mv = parse_move(&pos, text).map_err(|e| format!("move {text}: {e}"))?;
        let score: Score = score
            .parse()
            .map_err(|_| format!("move {text}: bad score '{score}'"))?;
        let count: u32 = count
            .parse()
            .map_err(|_| format!("move {text}: bad count '{count}'"))?;
        if moves.iter().any(|m: &BookMove| m.mv == mv) {
            return Err(format!("move {text} comes twice"));
        }
        moves.push(BookMove { mv, score, count });
    }
    Ok((pos, moves))
}
