//! [`Command`]: what one input line asks of the engine, read by [`parse_command`] from
//! the line syntax of [`syntax`](super::syntax). Pure: no I/O, no engine. What depends
//! on the engine's state (the variant's FEN and moves, the deepest perft, whether a
//! session can be made) is checked when the command runs.

use super::params::{self, Param, Value};
use super::syntax::{parse_line, Line};
use crate::engine::time::Limits;
use crate::variant::Variant;
use std::fmt;
use std::time::Duration;

/// What a `go` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `go think` (or a bare `go`): search and answer with a move.
    Think,
    /// `go ponder`: search without a clock until `ponder-hit` or `stop`.
    Ponder,
    /// `go analyze` (or `analyse`): search until a level is reached or `stop`.
    Analyze,
}

/// Where a `pos` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `start`: the variant's start position.
    Initial,
    /// `fen=F`, or `pos=P` when it holds a `:`: a PDN FEN.
    Fen(String),
    /// `pos=P` without `:`: a Hub position string.
    Hub(String),
}

/// One field of a `level` line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Level {
    /// `depth=`: plies, clamped to 1-100.
    Depth(u32),
    /// `nodes=`.
    Nodes(u64),
    /// `move-time=`: seconds for this move.
    MoveTime(Duration),
    /// `time=`: seconds left on the clock.
    Time(Duration),
    /// `inc=`: seconds added per move.
    Inc(Duration),
    /// `moves=`: moves to the next time control.
    MovesToGo(u32),
    /// `infinite`.
    Infinite,
}

impl Level {
    /// Sets this field in `limits` (a later field replaces an earlier one).
    pub fn apply(self, limits: &mut Limits) {
        match self {
            Level::Depth(d) => limits.depth = Some(d),
            Level::Nodes(n) => limits.nodes = Some(n),
            Level::MoveTime(t) => limits.movetime = Some(t),
            Level::Time(t) => limits.time = Some(t),
            Level::Inc(t) => limits.increment = Some(t),
            Level::MovesToGo(n) => limits.moves_to_go = Some(n),
            Level::Infinite => limits.infinite = true,
        }
    }
}

/// One command of the GUI (`protocol.md`, section 9).
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `hub`: the `id`, `param` and `wait` lines.
    Hub,
    /// `set-param name=N value=V`, the value checked against the parameter's kind.
    SetParam {
        /// The parameter.
        param: &'static Param,
        /// Its new value.
        value: Value,
    },
    /// `init`: answers `ready`.
    Init,
    /// `new-game`: clears the table.
    NewGame,
    /// `ping`: answers `pong`, also during a search.
    Ping,
    /// `quit`: exits at once.
    Quit,
    /// `stop`: ends the search.
    Stop,
    /// `ponder-hit`: the pondered move was played; the clock runs.
    PonderHit,
    /// `pos [start] [variant=V] [pos=P] [fen=F] [moves="..."]`.
    Pos {
        /// `variant=`: switch the rule set first.
        variant: Option<Variant>,
        /// Where to start, or the error to report once the variant is switched (so that
        /// `pos variant=V` alone still switches it).
        start: Result<Start, String>,
        /// `moves=`: the moves played from there, not yet read (they need the variant).
        moves: Vec<String>,
    },
    /// `level ...`: the fields in the order given (unknown ones are left out).
    Level(Vec<Level>),
    /// `go think | ponder | analyze`.
    Go(Mode),
    /// `legal`: the legal moves.
    Legal,
    /// `perft depth=D` (how deep the variant allows is checked when it runs).
    Perft {
        /// Plies.
        depth: u32,
    },
    /// `show`: the position.
    Show,
    /// `eval`: the static evaluation.
    Eval,
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The line is not `<command> <name>=<value> ...` (a running search goes on).
    Syntax(String),
    /// An unknown command or a bad argument (a running search is stopped first, as
    /// for any command that is not allowed during a search).
    Invalid(String),
}

impl Error {
    /// The text of the `error message=...` line.
    pub fn message(&self) -> &str {
        match self {
            Error::Syntax(m) | Error::Invalid(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// A whole number, or the error naming the argument.
pub(super) fn number<T: std::str::FromStr>(name: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{name} '{v}' is not a valid number"))
}

/// Seconds, from 0 to 10^7.
fn seconds(name: &str, v: &str) -> Result<Duration, String> {
    let s: f64 = v
        .parse()
        .map_err(|_| format!("{name} '{v}' is not a number of seconds"))?;
    if !(0.0..=1e7).contains(&s) {
        return Err(format!("{name} {v} is out of range"));
    }
    Ok(Duration::from_secs_f64(s))
}

/// The value of `value=`, tolerating an unquoted value of several words (the rest of
/// the line after `value=`).
fn raw_value(line: &Line) -> Option<String> {
    let first = line.get("value")?;
    let pos = line.args.iter().position(|(n, _)| n == "value")?;
    let mut words = vec![first.to_string()];
    for (n, v) in &line.args[pos + 1..] {
        if v.is_some() {
            break;
        }
        words.push(n.clone());
    }
    Some(words.join(" "))
}

/// Reads one input line: `Ok(None)` for a blank line.
pub fn parse_command(text: &str) -> Result<Option<Command>, Error> {
    match parse_line(text) {
        Ok(Some(line)) => from_line(&line).map(Some).map_err(Error::Invalid),
        Ok(None) => Ok(None),
        Err(e) => Err(Error::Syntax(e)),
    }
}

/// The command of a line split by [`parse_line`].
pub fn from_line(line: &Line) -> Result<Command, String> {
    Ok(match line.command.as_str() {
        "hub" => Command::Hub,
        "set-param" => {
            let name = line.get("name").ok_or("set-param needs name=<parameter>")?;
            let value = raw_value(line).ok_or("set-param needs value=<value>")?;
            let param = params::find(name)?;
            Command::SetParam {
                param,
                value: param.read(&value)?,
            }
        }
        "init" => Command::Init,
        "new-game" => Command::NewGame,
        "ping" => Command::Ping,
        "quit" => Command::Quit,
        "stop" => Command::Stop,
        "ponder-hit" => Command::PonderHit,
        "pos" => {
            let variant = line.get("variant").map(str::parse).transpose()?;
            let start = if let Some(f) = line.get("fen") {
                Ok(Start::Fen(f.to_string()))
            } else if let Some(p) = line.get("pos") {
                Ok(if p.contains(':') {
                    Start::Fen(p.to_string())
                } else {
                    Start::Hub(p.to_string())
                })
            } else if line.has("start") {
                Ok(Start::Initial)
            } else {
                Err("pos needs start, pos=<position> or fen=<FEN>".to_string())
            };
            let moves = line
                .get("moves")
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_string)
                .collect();
            Command::Pos {
                variant,
                start,
                moves,
            }
        }
        "level" => {
            let mut fields = Vec::new();
            for (name, value) in &line.args {
                let v = value.as_deref().unwrap_or("");
                fields.push(match name.as_str() {
                    "depth" => Level::Depth(number::<u32>("depth", v)?.clamp(1, 100)),
                    "nodes" => Level::Nodes(number("nodes", v)?),
                    "move-time" => Level::MoveTime(seconds("move-time", v)?),
                    "time" => Level::Time(seconds("time", v)?),
                    "inc" => Level::Inc(seconds("inc", v)?),
                    "moves" => Level::MovesToGo(number("moves", v)?),
                    "infinite" => Level::Infinite,
                    _ => continue, // unknown arguments are ignored
                });
            }
            Command::Level(fields)
        }
        "go" => Command::Go(if line.has("ponder") {
            Mode::Ponder
        } else if line.has("analyze") || line.has("analyse") {
            Mode::Analyze
        } else if line.has("think") || line.args.is_empty() {
            Mode::Think
        } else {
            return Err("go needs think, ponder or analyze".into());
        }),
        "legal" => Command::Legal,
        "perft" => Command::Perft {
            depth: number("depth", line.get("depth").ok_or("perft needs depth=D")?)?,
        },
        "show" => Command::Show,
        "eval" => Command::Eval,
        other => {
            return Err(format!(
                "unknown command '{}'",
                other.chars().take(40).collect::<String>()
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::params::MoveFormat;

    fn ok(text: &str) -> Command {
        match parse_command(text) {
            Ok(Some(c)) => c,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn invalid(text: &str) -> String {
        match parse_command(text) {
            Err(Error::Invalid(e)) => e,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn set(name: &str, value: Value) -> Command {
        Command::SetParam {
            param: params::find(name).unwrap(),
            value,
        }
    }

    #[test]
    fn commands_without_arguments() {
        for (text, command) in [
            ("hub", Command::Hub),
            ("init", Command::Init),
            ("new-game", Command::NewGame),
            ("ping", Command::Ping),
            ("quit", Command::Quit),
            ("stop", Command::Stop),
            ("ponder-hit", Command::PonderHit),
            ("legal", Command::Legal),
            ("show", Command::Show),
            ("eval", Command::Eval),
        ] {
            assert_eq!(ok(text), command, "{text}");
            // Unknown arguments are ignored.
            assert_eq!(ok(&format!("  {text} x=1 flag\r")), command, "{text}");
        }
    }

    #[test]
    fn blank_lines_and_syntax_errors() {
        assert_eq!(parse_command(""), Ok(None));
        assert_eq!(parse_command(" \t \r"), Ok(None));
        assert_eq!(
            parse_command("=x"),
            Err(Error::Syntax(
                "a line must start with a command word".into()
            ))
        );
        assert_eq!(
            parse_command("x=\"unterminated"),
            Err(Error::Syntax(
                "unterminated quote in the value of 'x'".into()
            ))
        );
        let e = parse_command("pos moves=\"11-15").unwrap_err();
        assert_eq!(e.message(), "unterminated quote in the value of 'moves'");
        assert_eq!(e.to_string(), e.message());
    }

    #[test]
    fn unknown_commands() {
        assert_eq!(invalid("frobnicate"), "unknown command 'frobnicate'");
        assert_eq!(invalid("HUB"), "unknown command 'HUB'");
        assert_eq!(
            invalid(&format!("{} x=1", "a".repeat(50))),
            format!("unknown command '{}'", "a".repeat(40))
        );
        assert_eq!(invalid("ÿÿ binary"), "unknown command 'ÿÿ'");
    }

    #[test]
    fn set_param() {
        assert_eq!(
            ok("set-param name=threads value=4"),
            set("threads", Value::Int(4))
        );
        assert_eq!(
            ok("set-param value=path name=move-format"),
            set("move-format", Value::MoveFormat(MoveFormat::Path))
        );
        assert_eq!(
            ok("set-param name=variant value=boyer parton"),
            set("variant", Value::Variant(Variant::BoyerParton))
        );
        assert_eq!(
            ok("set-param name=egdb-path value=/tmp/a b c x=1 d"),
            set("egdb-path", Value::Text("/tmp/a b c".into()))
        );
        assert_eq!(
            ok("set-param name=evaluation value=\"my model.bin\""),
            set("evaluation", Value::Text("my model.bin".into()))
        );
        assert_eq!(
            ok("set-param name=egdb-path value=\"\""),
            set("egdb-path", Value::Text(String::new()))
        );
        assert_eq!(
            ok("set-param name=ponder value=true"),
            set("ponder", Value::Bool(true))
        );
        for (text, error) in [
            ("set-param", "set-param needs name=<parameter>"),
            ("set-param value=3", "set-param needs name=<parameter>"),
            ("set-param name value=3", "set-param needs name=<parameter>"),
            ("set-param name=threads", "set-param needs value=<value>"),
            ("set-param name=threads value", "set-param needs value=<value>"),
            ("set-param name=foo", "set-param needs value=<value>"),
            ("set-param name=foo value=1", "unknown parameter 'foo'"),
            ("set-param name=x value=a value=b", "unknown parameter 'x'"),
            (
                "set-param name=threads value=1 extra",
                "threads '1 extra' is not a valid number",
            ),
            (
                "set-param name=threads value=0",
                "threads 0 is out of range 1-256",
            ),
            (
                "set-param name=hash value=16385",
                "hash 16385 is out of range 1-16384 (MiB)",
            ),
            (
                "set-param name=multipv value=65",
                "multipv=65 is out of range 1-64",
            ),
            (
                "set-param name=egdb-pieces value=9",
                "egdb-pieces 9 is out of range 0-8",
            ),
            (
                "set-param name=ponder value=yes",
                "ponder=yes must be true or false",
            ),
            (
                "set-param name=move-format value=PATH",
                "move-format=PATH must be hub or path",
            ),
            (
                "set-param name=variant value=chess",
                "unknown variant 'chess': expected one of dameo, croda, scandinavian, boyer-parton, english",
            ),
        ] {
            assert_eq!(invalid(text), error, "{text}");
        }
    }

    #[test]
    fn pos() {
        let pos = |variant, start: Result<Start, &str>, moves: &[&str]| Command::Pos {
            variant,
            start: start.map_err(str::to_string),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        };
        assert_eq!(ok("pos start"), pos(None, Ok(Start::Initial), &[]));
        assert_eq!(
            ok("pos start=1 variant=checkers moves=\"11-15  23-19\""),
            pos(
                Some(Variant::English),
                Ok(Start::Initial),
                &["11-15", "23-19"]
            )
        );
        assert_eq!(
            ok("pos fen=W:W21:B1 pos=Bbbbb start"),
            pos(None, Ok(Start::Fen("W:W21:B1".into())), &[])
        );
        assert_eq!(
            ok("pos pos=W:W21:B1"),
            pos(None, Ok(Start::Fen("W:W21:B1".into())), &[])
        );
        assert_eq!(
            ok("pos fen pos=Bbbbb start"),
            pos(None, Ok(Start::Hub("Bbbbb".into())), &[])
        );
        let missing = "pos needs start, pos=<position> or fen=<FEN>";
        assert_eq!(ok("pos"), pos(None, Err(missing), &[]));
        assert_eq!(
            ok("pos variant=dameo moves=a3-b4"),
            pos(Some(Variant::Dameo), Err(missing), &["a3-b4"])
        );
        assert_eq!(
            invalid("pos start variant=chess"),
            "unknown variant 'chess': expected one of dameo, croda, scandinavian, boyer-parton, english"
        );
    }

    #[test]
    fn level() {
        assert_eq!(
            ok("level depth=0 nodes=1000 move-time=0.5 time=60 inc=1.5 moves=40 infinite=3 x=4 bare depth=200"),
            Command::Level(vec![
                Level::Depth(1),
                Level::Nodes(1000),
                Level::MoveTime(Duration::from_millis(500)),
                Level::Time(Duration::from_secs(60)),
                Level::Inc(Duration::from_millis(1500)),
                Level::MovesToGo(40),
                Level::Infinite,
                Level::Depth(100),
            ])
        );
        assert_eq!(ok("level"), Command::Level(vec![]));
        for (text, error) in [
            ("level depth=x", "depth 'x' is not a valid number"),
            ("level depth", "depth '' is not a valid number"),
            (
                "level depth=3 nodes=1.5",
                "nodes '1.5' is not a valid number",
            ),
            (
                "level move-time=abc",
                "move-time 'abc' is not a number of seconds",
            ),
            ("level move-time=-1", "move-time -1 is out of range"),
            ("level move-time=nan", "move-time nan is out of range"),
            ("level time=1e8", "time 1e8 is out of range"),
            ("level inc=x", "inc 'x' is not a number of seconds"),
            ("level moves=-3", "moves '-3' is not a valid number"),
        ] {
            assert_eq!(invalid(text), error, "{text}");
        }
        let mut limits = Limits::default();
        for l in [Level::Depth(3), Level::Infinite, Level::Depth(5)] {
            l.apply(&mut limits);
        }
        assert_eq!((limits.depth, limits.infinite), (Some(5), true));
    }

    #[test]
    fn go() {
        for (text, mode) in [
            ("go", Mode::Think),
            ("go think", Mode::Think),
            ("go think=x", Mode::Think),
            ("go ponder", Mode::Ponder),
            ("go analyze think ponder", Mode::Ponder),
            ("go analyze", Mode::Analyze),
            ("go analyse", Mode::Analyze),
            ("go think analyse", Mode::Analyze),
        ] {
            assert_eq!(ok(text), Command::Go(mode), "{text}");
        }
        assert_eq!(invalid("go foo"), "go needs think, ponder or analyze");
    }

    #[test]
    fn perft() {
        assert_eq!(ok("perft depth=4"), Command::Perft { depth: 4 });
        assert_eq!(ok("perft depth=99"), Command::Perft { depth: 99 });
        assert_eq!(invalid("perft"), "perft needs depth=D");
        assert_eq!(invalid("perft depth"), "perft needs depth=D");
        assert_eq!(invalid("perft depth=x"), "depth 'x' is not a valid number");
        assert_eq!(
            invalid("perft depth=-1"),
            "depth '-1' is not a valid number"
        );
    }
}
