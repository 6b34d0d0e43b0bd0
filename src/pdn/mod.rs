//! Game records: PDN text out and in ([`PdnGame`], the streaming [`PdnReader`] with
//! [`text`] for the encodings and line ends of other programs, [`parse_pdn`]), the tags
//! a written game starts with ([`game_tags`], [`today`]), and the one reader of the game
//! a record holds ([`read_game`], [`play_moves`], [`read_pdn_game`]), from a FEN and
//! moves or from a PDN game, used by the CLI, the board, the match runner and its resume.

use crate::fen::{parse_fen, to_fen};
use crate::game::Game;
use crate::moves::Move;
use crate::notation::parse_move;
use crate::position::Position;
use crate::rules::Rules;
use std::fmt::{self, Write as _};

pub mod reader;
pub mod text;

pub use reader::{PdnEntry, PdnReader};

/// One game: its tags in order, its moves as written, and the annotations around them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs, e.g. ("White", "dama").
    pub tags: Vec<(String, String)>,
    /// The moves in the variant's notation, without their marks.
    pub moves: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
    /// The comment before the first move (`{...}`), empty when there is none.
    pub preface: String,
    /// Per move, the mark written after it (`!`, `?`, `!?`, `?!`, `??`, `!!`), empty when
    /// none; shorter than `moves` when the last moves have none.
    pub marks: Vec<String>,
    /// Per move, the comment that follows it, empty when none; shorter than `moves`
    /// when the last moves have none.
    pub comments: Vec<String>,
}

/// The result tokens of PDN (draughts writes `2-0`, `0-2`, `1-1` too).
pub(crate) const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"];

impl PdnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The variant the game names: its `Variant` tag, or `GameType` 21 for english.
    pub fn variant(&self) -> Option<crate::variant::Variant> {
        if let Some(v) = self.tag("Variant").and_then(|v| v.parse().ok()) {
            return Some(v);
        }
        self.tag("GameType")
            .filter(|t| t.split(',').next() == Some("21"))
            .map(|_| crate::variant::Variant::English)
    }

    /// The mark after move `i` (from 0), empty when none.
    pub fn mark(&self, i: usize) -> &str {
        self.marks.get(i).map_or("", String::as_str)
    }

    /// The comment after move `i` (from 0), empty when none.
    pub fn comment(&self, i: usize) -> &str {
        self.comments.get(i).map_or("", String::as_str)
    }

    /// The game as PDN text: tags, a blank line, the preface comment, the numbered moves
    /// with their marks and comments, the result. A `}` inside a comment is written `)`,
    /// since PDN comments do not nest.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (n, v) in &self.tags {
            let _ = writeln!(s, "[{n} \"{}\"]", v.replace('"', "'"));
        }
        s.push('\n');
        let comment = |c: &str| format!("{{{}}}", c.replace('}', ")"));
        let mut tokens = Vec::new();
        if !self.preface.is_empty() {
            tokens.push(comment(&self.preface));
        }
        for (i, mv) in self.moves.iter().enumerate() {
            let mv = format!("{mv}{}", self.mark(i));
            tokens.push(if i % 2 == 0 {
                format!("{}. {mv}", i / 2 + 1)
            } else {
                mv
            });
            if !self.comment(i).is_empty() {
                tokens.push(comment(self.comment(i)));
            }
        }
        tokens.push(self.result.clone());
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + token.len() + 1 > 79 {
                s.push_str(line.trim_end());
                s.push('\n');
                line.clear();
            }
            line.push_str(&token);
            line.push(' ');
        }
        s.push_str(line.trim_end());
        s.push_str("\n\n");
        s
    }
}

/// Reads every game of a PDN text that reads ([`PdnReader`] gives the others too, with
/// their numbers and lines, and reads a file as a stream): tags, moves with their marks
/// (`11-15?!`, or a NAG such as `$2`) and comments (`{...}`, over several lines too);
/// move numbers and variations in parentheses are skipped, and the result is kept.
pub fn parse_pdn(text: &str) -> Vec<PdnGame> {
    PdnReader::new(text.as_bytes())
        .filter_map(|e| e.game.ok())
        .collect()
}

/// A whole PDN file as text, in any encoding and with any line ends [`text::decode`]
/// reads (for files that are read whole, such as a match's own games).
pub fn read_pdn_text(path: &std::path::Path) -> std::io::Result<String> {
    std::fs::read(path).map(|b| text::decode(&b))
}

/// A PDN file opened for reading as a stream.
pub fn open_pdn(
    path: &std::path::Path,
) -> Result<PdnReader<std::io::BufReader<std::fs::File>>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(PdnReader::new(std::io::BufReader::new(file)))
}

/// One token of the movetext: a result, a NAG, or a move with its number and mark.
pub(crate) fn read_token(cur: &mut PdnGame, tok: &str) {
    if RESULTS.contains(&tok) {
        cur.result = tok.to_string();
        return;
    }
    let set_mark = |cur: &mut PdnGame, mark: &str| {
        if let Some(n) = cur.moves.len().checked_sub(1) {
            cur.marks.resize(n + 1, String::new());
            cur.marks[n] = mark.to_string();
        }
    };
    if let Some(nag) = tok.strip_prefix('$') {
        let mark = match nag {
            "1" => "!",
            "2" => "?",
            "3" => "!!",
            "4" => "??",
            "5" => "!?",
            "6" => "?!",
            _ => "",
        };
        if !mark.is_empty() {
            set_mark(cur, mark);
        }
        return;
    }
    // A move number ("12." or "12...") may stand alone or before the move.
    let tok = match tok.rfind('.') {
        Some(i)
            if tok[..i]
                .trim_end_matches('.')
                .bytes()
                .all(|b| b.is_ascii_digit()) =>
        {
            &tok[i + 1..]
        }
        _ => tok,
    };
    let mv = tok.trim_end_matches(['!', '?']);
    let mark = &tok[mv.len()..];
    if !mv.is_empty() {
        cur.moves.push(mv.to_string());
        if !mark.is_empty() {
            set_mark(cur, mark);
        }
    } else if !mark.is_empty() {
        set_mark(cur, mark);
    }
}

/// The tags a game written by dama starts with, in this order: `Event`, `Date` (today),
/// `Round` (when given), `White`, `Black`, `Result`, `Variant`, `GameType` 21 for the
/// variants written in PDN numbers, and `FEN` when the game starts from `fen` rather
/// than the start position.
pub fn game_tags<R: Rules>(
    event: &str,
    round: Option<usize>,
    players: [&str; 2],
    result: &str,
    fen: Option<&Position<R>>,
) -> Vec<(String, String)> {
    let mut tags = vec![
        ("Event".to_string(), event.to_string()),
        ("Date".to_string(), today()),
    ];
    if let Some(r) = round {
        tags.push(("Round".to_string(), r.to_string()));
    }
    tags.push(("White".to_string(), players[0].to_string()));
    tags.push(("Black".to_string(), players[1].to_string()));
    tags.push(("Result".to_string(), result.to_string()));
    tags.push(("Variant".to_string(), R::NAME.to_string()));
    if R::NUMERIC_SQUARES {
        tags.push(("GameType".to_string(), "21".to_string()));
    }
    if let Some(start) = fen {
        tags.push(("FEN".to_string(), to_fen(start)));
    }
    tags
}

/// Today's date (UTC) as a PDN `Date` tag writes it: `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Why a game record does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The start position's FEN does not read (the FEN reader's message).
    Fen(String),
    /// Move `number` of the game (from 1), written `text`, is not legal: `reason`.
    Move {
        /// The move's number in the whole game, from 1.
        number: usize,
        /// The move as written.
        text: String,
        /// Why it is not legal.
        reason: String,
    },
    /// Move `number`, written `text`, comes after the end of the game.
    AfterEnd {
        /// The move's number in the whole game, from 1.
        number: usize,
        /// The move as written.
        text: String,
    },
    /// The PDN text holds no game.
    NoGame,
    /// The PDN text does not read (the reader's message, with the game's place).
    Text(String),
}

impl RecordError {
    /// The error as the command line and the Hub loop word it: an illegal move is
    /// `illegal move TEXT at ply N: REASON`, anything else as [`Display`](fmt::Display)
    /// writes it.
    pub fn by_ply(&self) -> String {
        match self {
            RecordError::Move {
                number,
                text,
                reason,
            } => format!("illegal move {text} at ply {number}: {reason}"),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Fen(e) => f.write_str(e),
            RecordError::Move {
                number,
                text,
                reason,
            } => write!(f, "move {number} ({text}): {reason}"),
            RecordError::AfterEnd { number, text } => {
                write!(f, "move {number} ({text}) comes after the end of the game")
            }
            RecordError::NoGame => f.write_str("no game in the PDN text"),
            RecordError::Text(e) => f.write_str(e),
        }
    }
}

/// Whether moves may follow the end of the game (G8, G9, E7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PastEnd {
    /// A move after the end is an error ([`RecordError::AfterEnd`]): the board, where
    /// dama keeps the game.
    Refuse,
    /// Moves go on being played: a GUI or an openings file may not know every draw rule
    /// of dama's (the Hub loop, the command line, matches).
    Allow,
}

/// Plays `moves` on `game`, each read by `read_move` (for example
/// [`parse_move`], the variant's notation). A move that does not read, or (with
/// [`PastEnd::Refuse`]) one that comes after the game has ended, stops the reading with
/// its number in the whole game; the moves before it stay played.
pub fn play_moves<R, S, F, E>(
    game: &mut Game<R>,
    moves: impl IntoIterator<Item = S>,
    read_move: F,
    past_end: PastEnd,
) -> Result<(), RecordError>
where
    R: Rules,
    S: AsRef<str>,
    F: Fn(&Position<R>, &str) -> Result<Move, E>,
    E: fmt::Display,
{
    for text in moves {
        let text = text.as_ref();
        let number = game.moves().len() + 1;
        if past_end == PastEnd::Refuse && game.outcome().is_some() {
            return Err(RecordError::AfterEnd {
                number,
                text: text.to_string(),
            });
        }
        let mv = read_move(game.position(), text).map_err(|e| RecordError::Move {
            number,
            text: text.to_string(),
            reason: e.to_string(),
        })?;
        game.play(&mv);
    }
    Ok(())
}

/// The game from `fen` (or the variant's start position when `None`) through `moves`,
/// read as [`play_moves`] reads them.
pub fn read_game<R, S, F, E>(
    fen: Option<&str>,
    moves: impl IntoIterator<Item = S>,
    read_move: F,
    past_end: PastEnd,
) -> Result<Game<R>, RecordError>
where
    R: Rules,
    S: AsRef<str>,
    F: Fn(&Position<R>, &str) -> Result<Move, E>,
    E: fmt::Display,
{
    let start = match fen {
        Some(f) => parse_fen::<R>(f).map_err(|e| RecordError::Fen(e.to_string()))?,
        None => Position::start(),
    };
    let mut game = Game::new(start);
    play_moves(&mut game, moves, read_move, past_end)?;
    Ok(game)
}

/// The game of the first game of a PDN text: its `FEN` tag or the start position, and
/// its moves in the variant's notation, none after the end of the game.
pub fn read_pdn_game<R: Rules>(text: &str) -> Result<Game<R>, RecordError> {
    let first = PdnReader::new(text.as_bytes())
        .next()
        .ok_or(RecordError::NoGame)?;
    let place = first.place();
    let g = first
        .game
        .map_err(|e| RecordError::Text(format!("{place}: {e}")))?;
    read_game(g.tag("FEN"), &g.moves, parse_move::<R>, PastEnd::Refuse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let g = PdnGame {
            tags: vec![
                ("White".into(), "a".into()),
                ("Result".into(), "1-0".into()),
            ],
            moves: vec!["11-15".into(), "23-19".into(), "8-11".into()],
            result: "1-0".into(),
            ..Default::default()
        };
        let text = format!("{}{}", g.to_text(), g.to_text());
        let back = parse_pdn(&text);
        assert_eq!(back, vec![g.clone(), g]);
        // Move numbers alone or glued to the move; comments skipped.
        let d = parse_pdn("[Variant \"dameo\"]\n\n1. e2-e3 {a comment} d7-d6 2.e3xe5 1/2-1/2\n");
        assert_eq!(d[0].moves, vec!["e2-e3", "d7-d6", "e3xe5"]);
        let e = parse_pdn("1. 11-15 23-19 2... 9-14 0-1");
        assert_eq!(e[0].moves, vec!["11-15", "23-19", "9-14"]);
        assert_eq!(d[0].result, "1/2-1/2");
    }

    #[test]
    fn marks_comments_and_variations() {
        let text = "[Event \"x\"]\n\n{before the\n first move} 1. 11-15?! {slow} 23-19 $4 \
                    2. 8-11 (2. 9-14 {the (main) line} (2. 10-14) 22-17) 22-18!! {a\n} 1-0\n";
        let g = &parse_pdn(text)[0];
        assert_eq!(g.moves, vec!["11-15", "23-19", "8-11", "22-18"]);
        assert_eq!(g.preface, "before the first move");
        assert_eq!(g.mark(0), "?!");
        assert_eq!(g.mark(1), "??");
        assert_eq!(g.mark(2), "");
        assert_eq!(g.mark(3), "!!");
        assert_eq!(g.comment(0), "slow");
        assert_eq!(g.comment(1), "");
        assert_eq!(g.comment(3), "a");
        assert_eq!(g.result, "1-0");
        // What is written reads back the same, a `}` in a comment written as `)`.
        let mut w = g.clone();
        w.comments[0] = "a {nested} brace".into();
        let back = parse_pdn(&w.to_text());
        w.comments[0] = "a {nested) brace".into();
        assert_eq!(back, vec![w]);
        // A tag line inside a comment is part of the comment.
        let c = parse_pdn("1. 11-15 {see\n[this]} 23-19 *");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].comment(0), "see [this]");
        assert_eq!(c[0].moves.len(), 2);
    }
}
