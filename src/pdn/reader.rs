//! The PDN reader: the games of a file read one at a time from a stream, as other
//! programs and old archives write them (see [`text`](super::text) for encodings and
//! line ends). Tags `[Name "value"]`, moves with their numbers (`12.`, `12...`) and marks
//! (`!`, `?`, `!?`, `?!`, `!!`, `??`, NAGs `$n`), comments `{...}` (over lines too) and
//! `;` to the end of the line, variations `( ... )` nested (skipped), `%` escape lines,
//! and the results `1-0 0-1 1/2-1/2 2-0 0-2 1-1 *`. A game ends at its result, at the
//! tags of the next game, or at the end of the file.
//!
//! A game that cannot be read (a comment or variation still open when the next game's
//! tags begin or the file ends, more than [`MAX_MOVES`] moves) is given as an error with
//! its number and line, and the reading goes on with the next game. Memory stays bounded
//! whatever the input: one game at a time, each bounded.

use super::text::TextLines;
use super::PdnGame;
use std::collections::VecDeque;
use std::io::BufRead;

/// The most moves a game may have (a real game has a few hundred plies at most).
pub const MAX_MOVES: usize = 10_000;
/// The most tags a game may have.
pub const MAX_TAGS: usize = 1_000;
/// The longest comment kept, in bytes; a longer one is cut here and ends in `...`.
pub const MAX_COMMENT: usize = 64 * 1024;

/// One game of a file: its number (from 1, counting the games that do not read too),
/// the line it starts on, and the game or why it does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnEntry {
    /// The game's number in the file, from 1.
    pub number: usize,
    /// The line the game starts on, from 1.
    pub line: usize,
    /// The game, or why it could not be read.
    pub game: Result<PdnGame, String>,
}

impl PdnEntry {
    /// The game as messages name it: `game 3 (line 40)`.
    pub fn place(&self) -> String {
        format!("game {} (line {})", self.number, self.line)
    }
}

/// Where the reader is in the movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Mode {
    /// Between tokens.
    Moves,
    /// In a comment `{...}` opened on `line`.
    Comment { text: String, line: usize },
    /// In a variation `( ... )` opened on `line`, `depth` parentheses deep, and in a
    /// comment inside it when `comment`.
    Variation {
        depth: usize,
        comment: bool,
        line: usize,
    },
}

impl Mode {
    /// The comment or variation still open, and the line it was opened on.
    fn opened(&self) -> Option<(&'static str, usize)> {
        match self {
            Mode::Moves => None,
            Mode::Comment { line, .. } => Some(("comment", *line)),
            Mode::Variation { line, .. } => Some(("variation", *line)),
        }
    }
}

/// The games of a PDN stream, one [`PdnEntry`] at a time.
///
/// A file is opened with [`crate::pdn::open_pdn`]; any `BufRead` will do, in any of
/// the encodings PDN files are found in. A game that does not read is an entry with its
/// error, and the games after it are read:
///
/// ```
/// use dama::pdn::PdnReader;
///
/// let text = "[Event \"first\"]\n\n1. 11-15 23-19 *\n\n[Event \"second\"]\n\n1. 9-13 22-18 1-0\n";
/// let games: Vec<_> = PdnReader::new(text.as_bytes()).collect();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].place(), "game 2 (line 5)");
/// let second = games[1].game.as_ref().unwrap();
/// assert_eq!(second.tag("Event"), Some("second"));
/// assert_eq!(second.moves, ["9-13", "22-18"]);
/// assert_eq!(second.result, "1-0");
/// ```
pub struct PdnReader<B> {
    lines: TextLines<B>,
    mode: Mode,
    cur: PdnGame,
    /// The line the current game starts on (0: no game started).
    start: usize,
    /// A result has ended the last game, and nothing of the next one has come.
    after_result: bool,
    /// The current game failed: lines are skipped up to the next tag line.
    skipping: bool,
    number: usize,
    ready: VecDeque<PdnEntry>,
    /// A read error of the source, given once as the last entry.
    failed: bool,
}

impl<B: BufRead> PdnReader<B> {
    /// A reader of `source` (a file through `BufReader`, or `&[u8]`).
    pub fn new(source: B) -> PdnReader<B> {
        PdnReader {
            lines: TextLines::new(source),
            mode: Mode::Moves,
            cur: PdnGame::default(),
            start: 0,
            after_result: false,
            skipping: false,
            number: 0,
            ready: VecDeque::new(),
            failed: false,
        }
    }

    /// The bytes read from the source so far (for a progress bar).
    pub fn bytes_read(&self) -> u64 {
        self.lines.bytes_read()
    }

    /// Gives out the current game (when it has begun) as read or as failed.
    fn finish(&mut self, error: Option<String>) {
        let game = std::mem::take(&mut self.cur);
        let line = std::mem::replace(&mut self.start, 0);
        if line == 0 {
            return;
        }
        self.number += 1;
        self.ready.push_back(PdnEntry {
            number: self.number,
            line,
            game: match error {
                Some(e) => Err(e),
                None => Ok(game),
            },
        });
    }

    /// The current game does not read: given out as an error, and the lines up to the
    /// next game's tags skipped.
    fn fail(&mut self, why: String) {
        self.finish(Some(why));
        self.mode = Mode::Moves;
        self.skipping = true;
    }

    /// Marks the current game begun on `line`.
    fn begin(&mut self, line: usize) {
        if self.start == 0 {
            self.start = line;
        }
        self.after_result = false;
    }

    /// A comment of the movetext: the preface before the first move, else the comment
    /// of the last move (comments in a row are joined).
    fn comment(&mut self, text: &str) {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if self.after_result || text.is_empty() {
            return;
        }
        let slot = match self.cur.moves.len() {
            0 => &mut self.cur.preface,
            n => {
                self.cur.comments.resize(n, String::new());
                &mut self.cur.comments[n - 1]
            }
        };
        if !slot.is_empty() {
            slot.push(' ');
        }
        slot.push_str(&text);
        if slot.len() > MAX_COMMENT {
            let mut cut = MAX_COMMENT;
            while !slot.is_char_boundary(cut) {
                cut -= 1;
            }
            slot.truncate(cut);
            slot.push_str("...");
        }
    }

    /// Reads one line of the file.
    fn read_line(&mut self, n: usize, line: &str) {
        let tag_line = is_tag_line(line);
        if self.skipping {
            if !tag_line {
                return;
            }
            self.skipping = false;
        }
        if tag_line {
            if let Some((what, at)) = self.mode.opened() {
                self.fail(format!(
                    "the {what} opened on line {at} is not closed before the tags on line {n}"
                ));
                self.skipping = false;
            }
        }
        if self.mode == Mode::Moves && line.starts_with('%') {
            return; // an escape line, for other programs
        }
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let next = match &mut self.mode {
                Mode::Comment { text, .. } => match chars[i..].iter().position(|&c| c == '}') {
                    Some(k) => {
                        let mut text = std::mem::take(text);
                        text.extend(&chars[i..i + k]);
                        self.mode = Mode::Moves;
                        self.comment(&text);
                        i + k + 1
                    }
                    None => {
                        if text.len() < MAX_COMMENT {
                            text.extend(&chars[i..]);
                            text.push(' ');
                        }
                        chars.len()
                    }
                },
                Mode::Variation { depth, comment, .. } => {
                    match (chars[i], *comment) {
                        ('}', true) => *comment = false,
                        (_, true) => {}
                        ('{', false) => *comment = true,
                        ('(', false) => *depth += 1,
                        (')', false) => {
                            *depth -= 1;
                            if *depth == 0 {
                                self.mode = Mode::Moves;
                            }
                        }
                        (';', false) => return,
                        _ => {}
                    }
                    i + 1
                }
                Mode::Moves => self.read_moves(n, &chars, i),
            };
            // Every step reads at least one character, whatever the input.
            i = next.max(i + 1);
            if self.skipping {
                return;
            }
        }
    }

    /// Reads the movetext from `chars[i]` to the end of a token; returns where the
    /// next one starts.
    fn read_moves(&mut self, n: usize, chars: &[char], i: usize) -> usize {
        let c = chars[i];
        if c.is_whitespace() || c == '\u{FEFF}' || c == ')' || c == '}' {
            return i + 1; // a stray closing bracket closes nothing
        }
        match c {
            ';' => {
                let rest: String = chars[i + 1..].iter().collect();
                self.comment(&rest);
                chars.len()
            }
            '{' => {
                self.mode = Mode::Comment {
                    text: String::new(),
                    line: n,
                };
                i + 1
            }
            '(' => {
                self.mode = Mode::Variation {
                    depth: 1,
                    comment: false,
                    line: n,
                };
                i + 1
            }
            '[' => {
                let (end, name, value) = read_tag(chars, i);
                if !self.cur.moves.is_empty() || !self.cur.result.is_empty() {
                    self.finish(None);
                }
                if self.start == 0 {
                    // A comment before the tags belongs to no game.
                    self.cur.preface.clear();
                }
                self.begin(n);
                if let Some(name) = name {
                    if self.cur.tags.len() >= MAX_TAGS {
                        self.fail(format!("more than {MAX_TAGS} tags"));
                        return chars.len();
                    }
                    self.cur.tags.push((name, value));
                }
                end
            }
            _ => {
                let mut j = i;
                while j < chars.len() && !chars[j].is_whitespace() && !"{}()[;".contains(chars[j]) {
                    j += 1;
                }
                let token: String = chars[i..j].iter().collect();
                if self.after_result && crate::pdn::RESULTS.contains(&token.as_str()) {
                    return j; // a result written twice, as some programs do
                }
                self.begin(n);
                crate::pdn::read_token(&mut self.cur, &token);
                if self.cur.moves.len() > MAX_MOVES {
                    self.fail(format!("more than {MAX_MOVES} moves"));
                    return chars.len();
                }
                if !self.cur.result.is_empty() {
                    self.finish(None);
                    self.after_result = true;
                }
                j
            }
        }
    }

    /// The end of the file: the last game given out.
    fn end(&mut self) {
        match self.mode.opened() {
            Some((what, at)) if !self.skipping => self.fail(format!(
                "the {what} opened on line {at} is not closed at the end of the file"
            )),
            _ if !self.skipping => self.finish(None),
            _ => {}
        }
    }
}

impl<B: BufRead> Iterator for PdnReader<B> {
    type Item = PdnEntry;

    fn next(&mut self) -> Option<PdnEntry> {
        loop {
            if let Some(e) = self.ready.pop_front() {
                return Some(e);
            }
            if self.failed {
                return None;
            }
            match self.lines.next_line() {
                Ok(Some((n, line))) => self.read_line(n, &line),
                Ok(None) => {
                    self.end();
                    self.failed = true;
                }
                Err(e) => {
                    let line = self.start.max(1);
                    self.finish(None);
                    self.number += 1;
                    self.ready.push_back(PdnEntry {
                        number: self.number,
                        line,
                        game: Err(format!("the file cannot be read further: {e}")),
                    });
                    self.failed = true;
                }
            }
        }
    }
}

/// Whether `line` is a tag pair: `[Name "value"]`, alone on its line.
fn is_tag_line(line: &str) -> bool {
    let t = line.trim_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    let Some(inner) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
        return false;
    };
    let name_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    name_end > 0 && inner[name_end..].trim_start().starts_with('"')
}

/// The tag that starts at `chars[i]` (a `[`): where the text after it starts, and its
/// name and value (no name when the brackets hold no tag). The value is read up to
/// its closing quote (`\"` and `\\` escape), so it may hold `]`; a tag not closed on
/// its line ends with the line.
fn read_tag(chars: &[char], i: usize) -> (usize, Option<String>, String) {
    let mut j = i + 1;
    let mut name = String::new();
    while j < chars.len() && chars[j].is_whitespace() {
        j += 1;
    }
    while j < chars.len() && !chars[j].is_whitespace() && !"\"]".contains(chars[j]) {
        name.push(chars[j]);
        j += 1;
    }
    let mut value = String::new();
    let mut quoted = false;
    while j < chars.len() {
        let c = chars[j];
        j += 1;
        match (c, quoted) {
            (']', false) => break,
            ('"', q) => quoted = !q,
            ('\\', true) if j < chars.len() && "\"\\".contains(chars[j]) => {
                value.push(chars[j]);
                j += 1;
            }
            (c, true) => value.push(c),
            (c, false) if !c.is_whitespace() => value.push(c),
            _ => {}
        }
    }
    let name = (!name.is_empty()).then_some(name);
    (j, name, value.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<PdnEntry> {
        PdnReader::new(text.as_bytes()).collect()
    }

    fn moves(e: &PdnEntry) -> Vec<&str> {
        e.game
            .as_ref()
            .unwrap()
            .moves
            .iter()
            .map(String::as_str)
            .collect()
    }

    #[test]
    fn a_tag_anywhere_ends_the_game_before_it() {
        // A byte-order mark, then a tag: once a hang.
        let e = read("\u{feff}[Event \"a\"]\n1. 11-15 *\n");
        assert_eq!(e.len(), 1);
        assert_eq!(moves(&e[0]), ["11-15"]);
        // Tags on the line of the moves, and games without results.
        let e = read("[Event \"a\"] 1. 11-15 23-19 [Event \"b\"][Round \"2\"] 1. 9-14");
        assert_eq!(e.len(), 2);
        assert_eq!(moves(&e[0]), ["11-15", "23-19"]);
        assert_eq!(e[1].game.as_ref().unwrap().tag("Round"), Some("2"));
        assert_eq!(moves(&e[1]), ["9-14"]);
        // A value with a bracket and an escaped quote.
        let e = read("[Event \"x ] \\\"y\\\"\"]\n[Black \"z\"]\n1. 11-15 1-0");
        let g = e[0].game.as_ref().unwrap();
        assert_eq!(g.tag("Event"), Some("x ] \"y\""));
        assert_eq!(g.tag("Black"), Some("z"));
    }

    #[test]
    fn games_are_numbered_with_their_lines_and_bad_ones_skipped() {
        let text = "[Event \"1\"]\n\n1. 11-15 {open\n\n[Event \"2\"]\n\n1. 9-14 (1. 10-14 \
                    {x} (1. 11-16) 22-18) 22-18 1-0\n[Event \"3\"]\n1. 11-15 (oops\n";
        let e = read(text);
        assert_eq!(e.len(), 3);
        assert_eq!((e[0].number, e[0].line), (1, 1));
        assert_eq!(
            e[0].game,
            Err("the comment opened on line 3 is not closed before the tags on line 5".into())
        );
        assert_eq!((e[1].number, e[1].line), (2, 5));
        assert_eq!(moves(&e[1]), ["9-14", "22-18"]);
        assert_eq!(e[1].game.as_ref().unwrap().result, "1-0");
        assert_eq!((e[2].number, e[2].line), (3, 8));
        assert_eq!(
            e[2].game,
            Err("the variation opened on line 9 is not closed at the end of the file".into())
        );
    }

    #[test]
    fn results_end_games_and_comments_of_every_kind_are_kept() {
        let text = "1. 11-15 ; to the end {not a comment opener\n23-19 $1 2... 8-11 ?! 1/2-1/2 \
                    1/2-1/2 {after} 1. 9-14 2-0 10-14 *";
        let e = read(text);
        assert_eq!(e.len(), 3);
        let g = e[0].game.as_ref().unwrap();
        assert_eq!(g.moves, ["11-15", "23-19", "8-11"]);
        assert_eq!(g.comment(0), "to the end {not a comment opener");
        assert_eq!((g.mark(1), g.mark(2)), ("!", "?!"));
        assert_eq!(g.result, "1/2-1/2");
        assert_eq!(e[1].game.as_ref().unwrap().preface, "");
        assert_eq!(e[1].game.as_ref().unwrap().result, "2-0");
        assert_eq!(moves(&e[2]), ["10-14"]);
    }

    #[test]
    fn a_stray_closing_brace_or_parenthesis_is_skipped() {
        // A '}' outside a comment once made the reader loop forever.
        let e = read("1. 11-15 } 23-19 ) } 2. 8-11 *");
        assert_eq!(moves(&e[0]), ["11-15", "23-19", "8-11"]);
        assert_eq!(read("}").len(), 0);
    }

    #[test]
    fn a_game_past_its_bounds_is_refused_and_the_next_read() {
        let long = "11-15 ".repeat(MAX_MOVES + 1);
        let text = format!("[Event \"a\"]\n{long}\n{long}\n[Event \"b\"]\n1. 9-14 *");
        let e = read(&text);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].game, Err(format!("more than {MAX_MOVES} moves")));
        assert_eq!(moves(&e[1]), ["9-14"]);
        let big = format!("1. 11-15 {{{}}} *", "c".repeat(3 * MAX_COMMENT));
        let e = read(&big);
        assert_eq!(
            e[0].game.as_ref().unwrap().comment(0).len(),
            MAX_COMMENT + 3
        );
    }
}
