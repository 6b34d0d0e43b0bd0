//! [`Command`]: what a page asks of the server, read from one JSON text message. Every
//! malformed message is an error in words for the page, never a panic.

use crate::variant::Variant;
use serde_json::Value;

/// Who the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineSide {
    /// Nobody: both sides are moved by hand.
    None,
    /// The engine plays White.
    White,
    /// The engine plays Black.
    Black,
}

impl EngineSide {
    /// The name the page uses.
    pub fn name(self) -> &'static str {
        match self {
            EngineSide::None => "none",
            EngineSide::White => "white",
            EngineSide::Black => "black",
        }
    }
}

/// Most analysis lines a page may ask for.
pub const MAX_MULTIPV: usize = 8;
/// Longest engine move time a page may ask for, milliseconds.
pub const MAX_MOVETIME_MS: u64 = 600_000;
/// Deepest fixed depth a page may ask for.
pub const MAX_DEPTH: u32 = 60;
/// The time a position of a game annotation is searched unless the page says.
pub const ANNOTATE_MOVETIME_MS: u64 = 500;
/// The longest time a position of an annotation may be searched, milliseconds.
pub const MAX_ANNOTATE_MOVETIME_MS: u64 = 60_000;

/// One command of a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A new game: the variant, and optionally a FEN and moves after it.
    New {
        /// The rule set.
        variant: Variant,
        /// The start position (`None`: the variant's start).
        fen: Option<String>,
        /// Moves after it, in the variant's notation.
        moves: Option<String>,
    },
    /// A move by hand: origin, destination and captured squares (G1).
    Move {
        /// Origin square, in the variant's notation.
        from: String,
        /// Destination square.
        to: String,
        /// Captured squares (empty for a quiet move).
        captured: Vec<String>,
    },
    /// Take back the last move (and the engine's reply before it).
    Undo,
    /// Show the position after this many moves.
    Goto {
        /// Moves from the start.
        ply: usize,
    },
    /// A new game from a FEN, same variant.
    Fen {
        /// The FEN.
        fen: String,
    },
    /// A game from PDN text.
    Pdn {
        /// The PDN.
        text: String,
    },
    /// Send the game as PDN.
    Export,
    /// Who the engine plays and how long it thinks.
    Engine {
        /// The engine's side.
        side: EngineSide,
        /// Milliseconds a move.
        movetime: Option<u64>,
        /// Or a fixed depth.
        depth: Option<u32>,
        /// The playing level, 1 to 10 ([`crate::engine::skill`]); `None` keeps it.
        skill: Option<u32>,
    },
    /// Analysis on or off, with this many lines.
    Analyze {
        /// On or off.
        on: bool,
        /// Lines (multi-PV).
        multipv: Option<usize>,
    },
    /// Annotate the whole game (every position searched for `movetime` ms, in the
    /// background), or stop annotating (what is done is kept).
    Annotate {
        /// On or off.
        on: bool,
        /// Milliseconds a position (default [`ANNOTATE_MOVETIME_MS`]).
        movetime: Option<u64>,
    },
    /// The engine moves now, for the side to move.
    Go,
    /// Stop the running search: analysis off, the engine plays nobody.
    Stop,
    /// Send the state again.
    State,
}

fn string(v: &Value, key: &str) -> Result<Option<String>, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("'{key}' must be a string")),
    }
}

fn required(v: &Value, key: &str, kind: &str) -> Result<String, String> {
    string(v, key)?.ok_or_else(|| format!("a '{kind}' message needs '{key}'"))
}

fn number(v: &Value, key: &str, max: u64) -> Result<Option<u64>, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match n.as_u64() {
            Some(x) if x <= max => Ok(Some(x)),
            _ => Err(format!("'{key}' must be a whole number from 0 to {max}")),
        },
        Some(_) => Err(format!("'{key}' must be a number")),
    }
}

/// Reads one message of a page.
pub fn parse_command(text: &str) -> Result<Command, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if !v.is_object() {
        return Err("a message must be a JSON object with a 'type'".to_string());
    }
    let kind = required(&v, "type", "any")?;
    Ok(match kind.as_str() {
        "new" => Command::New {
            variant: required(&v, "variant", "new")?.parse()?,
            fen: string(&v, "fen")?,
            moves: string(&v, "moves")?,
        },
        "move" => {
            let captured = match v.get("captured") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(a)) if a.len() <= 32 => a
                    .iter()
                    .map(|x| {
                        x.as_str()
                            .map(str::to_string)
                            .ok_or_else(|| "'captured' must list square names".to_string())
                    })
                    .collect::<Result<_, _>>()?,
                Some(_) => return Err("'captured' must be a list of squares".to_string()),
            };
            Command::Move {
                from: required(&v, "from", "move")?,
                to: required(&v, "to", "move")?,
                captured,
            }
        }
        "undo" => Command::Undo,
        "goto" => Command::Goto {
            ply: number(&v, "ply", 100_000)?.ok_or("a 'goto' message needs 'ply'")? as usize,
        },
        "fen" => Command::Fen {
            fen: required(&v, "fen", "fen")?,
        },
        "pdn" => Command::Pdn {
            text: required(&v, "text", "pdn")?,
        },
        "export" => Command::Export,
        "engine" => {
            let side = match string(&v, "side")?.as_deref() {
                None | Some("none") => EngineSide::None,
                Some("white") => EngineSide::White,
                Some("black") => EngineSide::Black,
                Some(s) => return Err(format!("'side' must be none, white or black, not '{s}'")),
            };
            let movetime = number(&v, "movetime", MAX_MOVETIME_MS)?;
            let depth = number(&v, "depth", MAX_DEPTH as u64)?.map(|d| d as u32);
            if movetime == Some(0) || depth == Some(0) {
                return Err("the engine needs a move time or a depth above 0".to_string());
            }
            let full = crate::engine::skill::Skill::FULL;
            let skill = match number(&v, "skill", u64::MAX) {
                Ok(None) => None,
                Ok(Some(n)) if (1..=u64::from(full)).contains(&n) => Some(n as u32),
                _ => return Err(format!("'skill' must be a level from 1 to {full}")),
            };
            Command::Engine {
                side,
                movetime,
                depth,
                skill,
            }
        }
        "analyze" => {
            let on = match v.get("on") {
                Some(Value::Bool(b)) => *b,
                _ => return Err("an 'analyze' message needs 'on': true or false".to_string()),
            };
            let multipv = number(&v, "multipv", MAX_MULTIPV as u64)?.map(|n| n as usize);
            if multipv == Some(0) {
                return Err(format!("'multipv' must be 1 to {MAX_MULTIPV}"));
            }
            Command::Analyze { on, multipv }
        }
        "annotate" => {
            let on = match v.get("on") {
                None | Some(Value::Null) => true,
                Some(Value::Bool(b)) => *b,
                _ => return Err("'on' must be true or false".to_string()),
            };
            let movetime = number(&v, "movetime", MAX_ANNOTATE_MOVETIME_MS)?;
            if movetime == Some(0) {
                return Err("an annotation needs a move time above 0".to_string());
            }
            Command::Annotate { on, movetime }
        }
        "go" => Command::Go,
        "stop" => Command::Stop,
        "state" => Command::State,
        other => return Err(format!("unknown message type '{other}'")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_errors() {
        assert_eq!(
            parse_command(r#"{"type":"new","variant":"dameo"}"#),
            Ok(Command::New {
                variant: Variant::Dameo,
                fen: None,
                moves: None
            })
        );
        assert_eq!(
            parse_command(r#"{"type":"move","from":"11","to":"15"}"#),
            Ok(Command::Move {
                from: "11".into(),
                to: "15".into(),
                captured: vec![]
            })
        );
        assert_eq!(
            parse_command(r#"{"type":"engine","side":"black","movetime":500,"skill":3}"#),
            Ok(Command::Engine {
                side: EngineSide::Black,
                movetime: Some(500),
                depth: None,
                skill: Some(3)
            })
        );
        assert_eq!(
            parse_command(r#"{"type":"analyze","on":true,"multipv":3}"#),
            Ok(Command::Analyze {
                on: true,
                multipv: Some(3)
            })
        );
        assert_eq!(
            parse_command(r#"{"type":"annotate","movetime":200}"#),
            Ok(Command::Annotate {
                on: true,
                movetime: Some(200)
            })
        );
        assert_eq!(
            parse_command(r#"{"type":"annotate","on":false}"#),
            Ok(Command::Annotate {
                on: false,
                movetime: None
            })
        );
        for (bad, why) in [
            (r#"{"type":"annotate","movetime":0}"#, "above 0"),
            (r#"{"type":"annotate","movetime":60001}"#, "0 to 60000"),
            (r#"{"type":"annotate","on":"yes"}"#, "true or false"),
            ("", "not JSON"),
            ("[1]", "JSON object"),
            (r#"{"type":"fly"}"#, "unknown message type 'fly'"),
            (r#"{"type":"new"}"#, "needs 'variant'"),
            (r#"{"type":"new","variant":"chess"}"#, "chess"),
            (r#"{"type":"move","from":1,"to":"15"}"#, "must be a string"),
            (r#"{"type":"goto","ply":-1}"#, "whole number"),
            (r#"{"type":"engine","side":"red"}"#, "none, white or black"),
            (r#"{"type":"engine","movetime":0}"#, "above 0"),
            (r#"{"type":"engine","skill":0}"#, "a level from 1 to 10"),
            (r#"{"type":"engine","skill":11}"#, "a level from 1 to 10"),
            (
                r#"{"type":"engine","skill":99999999999999999999}"#,
                "a level from 1 to 10",
            ),
            (
                r#"{"type":"engine","skill":"easy"}"#,
                "a level from 1 to 10",
            ),
            (r#"{"type":"analyze","on":true,"multipv":9}"#, "0 to 8"),
            (r#"{"type":"analyze"}"#, "'on'"),
        ] {
            let e = parse_command(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
