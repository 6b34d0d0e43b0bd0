//! The engine parameters: [`Params`] and the one table of them, [`PARAMS`], which both
//! the `hub` listing ([`Param::hub_line`]) and `set-param` ([`Param::read`]) follow.
//! Pure: no I/O.

use super::syntax::quote;
use crate::variant::Variant;

/// How the engine writes its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveFormat {
    /// `from-to` or `from x to x captured ...` (captured in ascending reading order).
    Hub,
    /// docs/rules.md N2: origin and landing squares.
    Path,
}

impl MoveFormat {
    /// Every format, in the order of the `hub` listing.
    pub const ALL: [MoveFormat; 2] = [MoveFormat::Hub, MoveFormat::Path];

    /// The name `move-format` takes (`hub`, `path`).
    pub const fn name(self) -> &'static str {
        match self {
            MoveFormat::Hub => "hub",
            MoveFormat::Path => "path",
        }
    }
}

/// The engine parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// The rule set.
    pub variant: Variant,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash: usize,
    /// Whether the GUI may ask for pondering (informational).
    pub ponder: bool,
    /// Lines of play in analysis.
    pub multipv: usize,
    /// How moves are written.
    pub format: MoveFormat,
    /// The evaluation: `default` (the shipped network when the variant has one, else
    /// classic), `classic`, `nn`, or the path of a model file.
    pub evaluation: String,
    /// The endgame-database directory (`egdb-path`; at first, and when set empty, the
    /// default directory, [`crate::egdb::default_dir`]).
    pub egdb_path: String,
    /// Probe the databases for positions of at most this many pieces (0: never).
    pub egdb_pieces: u32,
    /// Solve the variant's small databases in memory at `init` when the directory lacks
    /// them (`egdb-builtin`; the pieces are the variant's
    /// [`crate::engine::search::settings::builtin_egdb_pieces`], 0 in most).
    pub egdb_builtin: bool,
    /// The opening book: `builtin` (the one shipped for the variant), `none`, or the
    /// path of a book file.
    pub book: String,
    /// The book moves within this many hundredths of a man of the best are played, in
    /// turn at random (0: the best book move).
    pub book_margin: u32,
    /// The playing level, 1 to 10 (`skill`; 10, full strength, is the default): how
    /// `go think` and `go ponder` choose their move ([`crate::engine::skill`]); `go
    /// analyze` always searches at full strength.
    pub skill: u32,
    /// The seed of the random choices (`seed`: a level's move, a book move within the
    /// margin): 0 draws anew each time, any other value makes them a function of the
    /// seed and the position.
    pub seed: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            variant: Variant::English,
            threads: 1,
            hash: 64,
            ponder: false,
            multipv: 1,
            format: MoveFormat::Hub,
            evaluation: "default".to_string(),
            egdb_path: crate::egdb::default_dir().display().to_string(),
            egdb_pieces: 8,
            egdb_builtin: true,
            book: "none".to_string(),
            book_margin: 0,
            skill: crate::engine::skill::Skill::FULL,
            seed: 0,
        }
    }
}

/// The Rust type of a whole-number field of [`Params`]: a number too big for it is
/// "not a valid number", as that type's parser says, not "out of range".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// `usize`.
    Usize,
    /// `u32`.
    U32,
}

/// A whole-number parameter: its range, and how its out-of-range error reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Int {
    /// The least value.
    pub min: u64,
    /// The greatest value.
    pub max: u64,
    /// The type of the field.
    pub width: Width,
    /// Whether the error writes `multipv=65` (true) or `threads 300` (false).
    pub eq: bool,
    /// The unit the error names after the range (`hash ... 1-16384 (MiB)`).
    pub unit: Option<&'static str>,
}

/// What values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A rule set: listed as `type=enum` with the names of [`Variant::ALL`], read with
    /// the aliases of [`Variant`]'s parser.
    Variant,
    /// A move format: `type=enum`, one of the names of [`MoveFormat::ALL`].
    MoveFormat,
    /// `type=bool`: `true` or `false`.
    Bool,
    /// `type=int`: a whole number in a range.
    Int(Int),
    /// `type=string`: any text.
    Text,
}

/// A value of a parameter, checked against its [`Kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// Of [`Kind::Variant`].
    Variant(Variant),
    /// Of [`Kind::MoveFormat`].
    MoveFormat(MoveFormat),
    /// Of [`Kind::Bool`].
    Bool(bool),
    /// Of [`Kind::Int`], within its range.
    Int(u64),
    /// Of [`Kind::Text`].
    Text(String),
}

impl Value {
    /// The value as the `hub` listing writes it (quoted when it must be).
    fn text(&self) -> String {
        match self {
            Value::Variant(v) => v.name().to_string(),
            Value::MoveFormat(f) => f.name().to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Int(n) => n.to_string(),
            Value::Text(s) => quote(s),
        }
    }
}

/// When a new value of a parameter makes a new session (engine, table and position,
/// which goes back to the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rebuild {
    /// Never: the value is only stored.
    Never,
    /// On every `set-param`, even to the same value.
    Always,
    /// When the value differs from the current one.
    WhenChanged,
}

/// One engine parameter: a row of [`PARAMS`].
#[derive(Debug)]
pub struct Param {
    /// The name `set-param` and the listing use.
    pub name: &'static str,
    /// What values it takes.
    pub kind: Kind,
    /// When setting it makes a new session.
    pub rebuild: Rebuild,
    /// Its value in a [`Params`].
    pub get: fn(&Params) -> Value,
    /// Stores a value of its kind in a [`Params`].
    pub set: fn(&mut Params, Value),
}

/// Parameters are told apart by their names, which are unique.
impl PartialEq for Param {
    fn eq(&self, other: &Param) -> bool {
        self.name == other.name
    }
}

impl Eq for Param {}

/// Every parameter, in the order of the `hub` listing.
pub static PARAMS: [Param; 14] = [
    Param {
        name: "variant",
        kind: Kind::Variant,
        rebuild: Rebuild::WhenChanged,
        get: |p| Value::Variant(p.variant),
        set: |p, v| {
            if let Value::Variant(v) = v {
                p.variant = v;
            }
        },
    },
    Param {
        name: "threads",
        kind: Kind::Int(Int {
            min: 1,
            max: 256,
            width: Width::Usize,
            eq: false,
            unit: None,
        }),
        rebuild: Rebuild::Always,
        get: |p| Value::Int(p.threads as u64),
        set: |p, v| {
            if let Value::Int(n) = v {
                p.threads = n as usize;
            }
        },
    },
    Param {
        name: "hash",
        kind: Kind::Int(Int {
            min: 1,
            max: 16384,
            width: Width::Usize,
            eq: false,
            unit: Some("MiB"),
        }),
        rebuild: Rebuild::Always,
        get: |p| Value::Int(p.hash as u64),
        set: |p, v| {
            if let Value::Int(n) = v {
                p.hash = n as usize;
            }
        },
    },
    Param {
        name: "ponder",
        kind: Kind::Bool,
        rebuild: Rebuild::Never,
        get: |p| Value::Bool(p.ponder),
        set: |p, v| {
            if let Value::Bool(b) = v {
                p.ponder = b;
            }
        },
    },
    Param {
        name: "multipv",
        kind: Kind::Int(Int {
            min: 1,
            max: 64,
            width: Width::Usize,
            eq: true,
            unit: None,
        }),
        rebuild: Rebuild::Never,
        get: |p| Value::Int(p.multipv as u64),
        set: |p, v| {
            if let Value::Int(n) = v {
                p.multipv = n as usize;
            }
        },
    },
    Param {
        name: "move-format",
        kind: Kind::MoveFormat,
        rebuild: Rebuild::Never,
        get: |p| Value::MoveFormat(p.format),
        set: |p, v| {
            if let Value::MoveFormat(f) = v {
                p.format = f;
            }
        },
    },
    Param {
        name: "evaluation",
        kind: Kind::Text,
        rebuild: Rebuild::WhenChanged,
        get: |p| Value::Text(p.evaluation.clone()),
        set: |p, v| {
            if let Value::Text(s) = v {
                p.evaluation = s;
            }
        },
    },
    Param {
        name: "egdb-path",
        kind: Kind::Text,
        rebuild: Rebuild::WhenChanged,
        get: |p| Value::Text(p.egdb_path.clone()),
        set: |p, v| {
            if let Value::Text(s) = v {
                p.egdb_path = s;
            }
        },
    },
    Param {
        name: "egdb-pieces",
        kind: Kind::Int(Int {
            min: 0,
            max: 8,
            width: Width::U32,
            eq: false,
            unit: None,
        }),
        rebuild: Rebuild::WhenChanged,
        get: |p| Value::Int(p.egdb_pieces as u64),
        set: |p, v| {
            if let Value::Int(n) = v {
                p.egdb_pieces = n as u32;
            }
        },
    },
    Param {
        name: "egdb-builtin",
        kind: Kind::Bool,
        rebuild: Rebuild::WhenChanged,
        get: |p| Value::Bool(p.egdb_builtin),
        set: |p, v| {
            if let Value::Bool(b) = v {
                p.egdb_builtin = b;
            }
        },
    },
    Param {
        name: "book",
        kind: Kind::Text,
        rebuild: Rebuild::WhenChanged,
        get: |p| Value::Text(p.book.clone()),
        set: |p, v| {
            if let Value::Text(s) = v {
                p.book = s;
            }
        },
    },
    Param {
        name: "book-margin",
        kind: Kind::Int(Int {
            min: 0,
            max: 100,
            width: Width::U32,
            eq: false,
            unit: None,
        }),
        rebuild: Rebuild::Never,
        get: |p| Value::Int(p.book_margin as u64),
        set: |p, v| {
            if let Value::Int(n) = v {
                p.book_margin = n as u32;
            }
        },
    },
    Param {
        name: "skill",
        kind: Kind::Int(Int {
            min: 1,
            max: crate::engine::skill::Skill::FULL as u64,
            width: Width::U32,
            eq: false,
            unit: None,
        }),
        rebuild: Rebuild::Never,
        get: |p| Value::Int(u64::from(p.skill)),
        set: |p, v| {
            if let Value::Int(n) = v {
                p.skill = n as u32;
            }
        },
    },
    Param {
        name: "seed",
        kind: Kind::Int(Int {
            min: 0,
            max: u32::MAX as u64,
            width: Width::U32,
            eq: false,
            unit: None,
        }),
        rebuild: Rebuild::Never,
        get: |p| Value::Int(u64::from(p.seed)),
        set: |p, v| {
            if let Value::Int(n) = v {
                p.seed = n as u32;
            }
        },
    },
];

/// The parameter called `name`, or the error `set-param` gives.
pub fn find(name: &str) -> Result<&'static Param, String> {
    PARAMS
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| format!("unknown parameter '{name}'"))
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

impl Param {
    /// The words an enum-like parameter takes (none for the others).
    fn words(&self) -> Vec<&'static str> {
        match self.kind {
            Kind::Variant => Variant::ALL.iter().map(|v| v.name()).collect(),
            Kind::MoveFormat => MoveFormat::ALL.iter().map(|f| f.name()).collect(),
            Kind::Bool => vec!["true", "false"],
            Kind::Int(_) | Kind::Text => Vec::new(),
        }
    }

    /// Reads `value` (everything `set-param` gave after `value=`), or says what is wrong
    /// with it.
    pub fn read(&self, value: &str) -> Result<Value, String> {
        let name = self.name;
        let not_one_of = || format!("{name}={value} must be {}", or_list(&self.words()));
        match self.kind {
            Kind::Variant => Ok(Value::Variant(value.parse()?)),
            Kind::MoveFormat => MoveFormat::ALL
                .into_iter()
                .find(|f| f.name() == value)
                .map(Value::MoveFormat)
                .ok_or_else(not_one_of),
            Kind::Bool => match value {
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                _ => Err(not_one_of()),
            },
            Kind::Int(int) => {
                let n = match int.width {
                    Width::Usize => super::command::number::<usize>(name, value)? as u64,
                    Width::U32 => u64::from(super::command::number::<u32>(name, value)?),
                };
                if !(int.min..=int.max).contains(&n) {
                    return Err(format!(
                        "{name}{}{n} is out of range {}-{}{}",
                        if int.eq { "=" } else { " " },
                        int.min,
                        int.max,
                        int.unit.map(|u| format!(" ({u})")).unwrap_or_default()
                    ));
                }
                Ok(Value::Int(n))
            }
            Kind::Text => Ok(Value::Text(value.to_string())),
        }
    }

    /// The `param name=... value=... type=...` line of the `hub` listing, with the
    /// value in `params`.
    pub fn hub_line(&self, params: &Params) -> String {
        let kind = match self.kind {
            Kind::Variant | Kind::MoveFormat => {
                format!("enum values={}", quote(&self.words().join(" ")))
            }
            Kind::Bool => "bool".to_string(),
            Kind::Int(int) => format!("int min={} max={}", int.min, int.max),
            Kind::Text => "string".to_string(),
        };
        format!(
            "param name={} value={} type={kind}",
            self.name,
            (self.get)(params).text()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> Params {
        Params {
            egdb_path: "/home/me/.local/share/dama/egdb".to_string(),
            ..Params::default()
        }
    }

    #[test]
    fn the_listing_of_protocol_md() {
        let lines: Vec<String> = PARAMS.iter().map(|p| p.hub_line(&params())).collect();
        assert_eq!(
            lines,
            [
                "param name=variant value=english type=enum values=\"dameo croda scandinavian boyer-parton english\"",
                "param name=threads value=1 type=int min=1 max=256",
                "param name=hash value=64 type=int min=1 max=16384",
                "param name=ponder value=false type=bool",
                "param name=multipv value=1 type=int min=1 max=64",
                "param name=move-format value=hub type=enum values=\"hub path\"",
                "param name=evaluation value=default type=string",
                // protocol.md quotes this path; quote() leaves a path without spaces bare.
                "param name=egdb-path value=/home/me/.local/share/dama/egdb type=string",
                "param name=egdb-pieces value=8 type=int min=0 max=8",
                "param name=egdb-builtin value=true type=bool",
                "param name=book value=none type=string",
                "param name=book-margin value=0 type=int min=0 max=100",
                "param name=skill value=10 type=int min=1 max=10",
                "param name=seed value=0 type=int min=0 max=4294967295",
            ]
        );
        let empty = Params {
            egdb_path: String::new(),
            evaluation: "my model.bin".to_string(),
            ..params()
        };
        assert_eq!(
            find("egdb-path").unwrap().hub_line(&empty),
            "param name=egdb-path value=\"\" type=string"
        );
        assert_eq!(
            find("evaluation").unwrap().hub_line(&empty),
            "param name=evaluation value=\"my model.bin\" type=string"
        );
    }

    #[test]
    fn names_are_unique_and_values_round_trip() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert_eq!(find(p.name), Ok(p));
            assert!(PARAMS[..i].iter().all(|q| q.name != p.name), "{}", p.name);
        }
        for (name, text, value) in [
            ("variant", "danish", Value::Variant(Variant::Scandinavian)),
            ("threads", "256", Value::Int(256)),
            ("hash", "+1", Value::Int(1)),
            ("ponder", "true", Value::Bool(true)),
            ("multipv", "64", Value::Int(64)),
            ("move-format", "path", Value::MoveFormat(MoveFormat::Path)),
            ("evaluation", "a b", Value::Text("a b".into())),
            ("egdb-path", "", Value::Text(String::new())),
            ("egdb-pieces", "0", Value::Int(0)),
            ("egdb-builtin", "false", Value::Bool(false)),
            ("skill", "1", Value::Int(1)),
            ("seed", "4294967295", Value::Int(4294967295)),
        ] {
            let p = find(name).unwrap();
            assert_eq!(p.read(text), Ok(value.clone()), "{name}={text}");
            let mut params = params();
            assert_ne!((p.get)(&params), value, "{name}: pick another value");
            (p.set)(&mut params, value.clone());
            assert_eq!((p.get)(&params), value, "{name}");
        }
    }

    #[test]
    fn error_texts() {
        assert_eq!(find("foo"), Err("unknown parameter 'foo'".to_string()));
        for (name, value, error) in [
            ("variant", "chess", "unknown variant 'chess': expected one of dameo, croda, scandinavian, boyer-parton, english"),
            ("threads", "0", "threads 0 is out of range 1-256"),
            ("threads", "257", "threads 257 is out of range 1-256"),
            ("threads", "-1", "threads '-1' is not a valid number"),
            ("threads", "1 extra", "threads '1 extra' is not a valid number"),
            ("threads", "18446744073709551616", "threads '18446744073709551616' is not a valid number"),
            ("hash", "0", "hash 0 is out of range 1-16384 (MiB)"),
            ("hash", "16385", "hash 16385 is out of range 1-16384 (MiB)"),
            ("hash", "", "hash '' is not a valid number"),
            ("multipv", "0", "multipv=0 is out of range 1-64"),
            ("multipv", "65", "multipv=65 is out of range 1-64"),
            ("multipv", "4.5", "multipv '4.5' is not a valid number"),
            ("egdb-pieces", "9", "egdb-pieces 9 is out of range 0-8"),
            ("egdb-pieces", "4294967295", "egdb-pieces 4294967295 is out of range 0-8"),
            ("egdb-pieces", "4294967296", "egdb-pieces '4294967296' is not a valid number"),
            ("skill", "0", "skill 0 is out of range 1-10"),
            ("skill", "11", "skill 11 is out of range 1-10"),
            ("skill", "five", "skill 'five' is not a valid number"),
            ("seed", "4294967296", "seed '4294967296' is not a valid number"),
            ("ponder", "TRUE", "ponder=TRUE must be true or false"),
            ("move-format", "PATH", "move-format=PATH must be hub or path"),
        ] {
            assert_eq!(find(name).unwrap().read(value), Err(error.to_string()), "{name}={value}");
        }
    }

    #[test]
    fn or_lists() {
        assert_eq!(or_list(&[]), "");
        assert_eq!(or_list(&["a"]), "a");
        assert_eq!(or_list(&["a", "b"]), "a or b");
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
    }
}
