//! The line syntax of the protocol: `<command> <name>=<value> ...`, values in double
//! quotes when they hold spaces or are empty, flags without `=`. Pure functions: no I/O.

/// One input line split into its command and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The command word.
    pub command: String,
    /// Arguments in order: (name, value); a flag has no value.
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// The value of argument `name` (the last one if repeated).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// True when `name` is present, as a flag or with a value.
    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }
}

/// Splits a line. Runs of whitespace separate tokens; `name="a b"` keeps the quoted
/// value whole. Returns `None` for a blank line, an error for an unterminated quote.
pub fn parse_line(text: &str) -> Result<Option<Line>, String> {
    let mut chars = text.trim().chars().peekable();
    let mut tokens: Vec<(String, Option<String>)> = Vec::new();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '=' {
                break;
            }
            name.push(c);
            chars.next();
        }
        let value = if chars.peek() == Some(&'=') {
            chars.next();
            let mut v = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '"' {
                        closed = true;
                        break;
                    }
                    v.push(c);
                }
                if !closed {
                    return Err(format!("unterminated quote in the value of '{name}'"));
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    v.push(c);
                    chars.next();
                }
            }
            Some(v)
        } else {
            None
        };
        tokens.push((name, value));
    }
    let mut it = tokens.into_iter();
    let Some((command, value)) = it.next() else {
        return Ok(None);
    };
    if value.is_some() || command.is_empty() {
        return Err("a line must start with a command word".into());
    }
    Ok(Some(Line {
        command,
        args: it.collect(),
    }))
}

/// A value as it must be written: quoted when empty or holding whitespace (any that
/// [`parse_line`] splits at, form feeds and no-break spaces too), `=` or quote (inner
/// double quotes become single quotes: the syntax has no escape).
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains(|c: char| c.is_whitespace() || c == '=' || c == '"') {
        format!("\"{}\"", value.replace('"', "'"))
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_quotes_and_flags() {
        let l = parse_line("  pos  pos=W:W21:B1   moves=\"11-15 23-19\" start\r")
            .unwrap()
            .unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(l.get("pos"), Some("W:W21:B1"));
        assert_eq!(l.get("moves"), Some("11-15 23-19"));
        assert!(l.has("start") && l.get("start").is_none());
        assert_eq!(parse_line(" \t ").unwrap(), None);
        assert!(parse_line("set-param name=x value=\"a b").is_err());
        assert!(parse_line("=x").is_err());
        assert_eq!(parse_line("go think").unwrap().unwrap().args.len(), 1);
        let e = parse_line("error message=\"\"").unwrap().unwrap();
        assert_eq!(e.get("message"), Some(""));
    }

    #[test]
    fn quoting() {
        assert_eq!(quote("abc"), "abc");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("a b"), "\"a b\"");
        assert_eq!(quote("say \"hi\""), "\"say 'hi'\"");
    }
}
