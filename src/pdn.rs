//! PDN game records: written by the match runner, read back by its tests.

use std::fmt::Write as _;

/// One game: its tags in order and its moves as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs, e.g. ("White", "dama").
    pub tags: Vec<(String, String)>,
    /// The moves in the variant's notation.
    pub moves: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
}

impl PdnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game as PDN text (tags, blank line, numbered moves, result).
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (n, v) in &self.tags {
            let _ = writeln!(s, "[{n} \"{}\"]", v.replace('"', "'"));
        }
        s.push('\n');
        let mut line = String::new();
        for (i, mv) in self.moves.iter().enumerate() {
            let token = if i % 2 == 0 {
                format!("{}. {mv}", i / 2 + 1)
            } else {
                mv.clone()
            };
            if line.len() + token.len() + 1 > 79 {
                s.push_str(line.trim_end());
                s.push('\n');
                line.clear();
            }
            line.push_str(&token);
            line.push(' ');
        }
        line.push_str(&self.result);
        s.push_str(&line);
        s.push_str("\n\n");
        s
    }
}

/// Reads every game of a PDN text: tags, moves (move numbers, comments in braces and
/// the result skipped).
pub fn parse_pdn(text: &str) -> Vec<PdnGame> {
    let mut games = Vec::new();
    let mut cur = PdnGame::default();
    let mut in_moves = false;
    let mut comment = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') && !comment {
            if in_moves {
                games.push(std::mem::take(&mut cur));
                in_moves = false;
            }
            let inner = t.trim_start_matches('[').trim_end_matches(']');
            if let Some((name, value)) = inner.split_once(' ') {
                cur.tags
                    .push((name.to_string(), value.trim().trim_matches('"').to_string()));
            }
            continue;
        }
        for tok in t.split_whitespace() {
            if comment {
                if tok.ends_with('}') {
                    comment = false;
                }
                continue;
            }
            if tok.starts_with('{') {
                comment = !tok.ends_with('}');
                continue;
            }
            in_moves = true;
            if ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"].contains(&tok) {
                cur.result = tok.to_string();
                continue;
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
            if !tok.is_empty() {
                cur.moves.push(tok.to_string());
            }
        }
    }
    if in_moves || !cur.tags.is_empty() {
        games.push(cur);
    }
    games
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
}
