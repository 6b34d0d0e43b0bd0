//! [`Variant`]: the run-time name of a rule set, used only at the boundary (CLI,
//! protocol) to pick the monomorphised code with [`with_variant!`](crate::with_variant).

use std::fmt;
use std::str::FromStr;

/// One of the five rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Dameo (`docs/rules.md` D).
    Dameo,
    /// Croda (`docs/rules.md` C).
    Croda,
    /// Scandinavian / German draughts (`docs/rules.md` S).
    Scandinavian,
    /// The Boyer/Parton variant of Scandinavian (`docs/rules.md` B).
    BoyerParton,
    /// English draughts / checkers (`docs/rules.md` E).
    English,
}

impl Variant {
    /// All variants in the order of `docs/rules.md`.
    pub const ALL: [Variant; 5] = [
        Variant::Dameo,
        Variant::Croda,
        Variant::Scandinavian,
        Variant::BoyerParton,
        Variant::English,
    ];

    /// The canonical name (`dameo`, `croda`, `scandinavian`, `boyer-parton`, `english`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Dameo => "dameo",
            Variant::Croda => "croda",
            Variant::Scandinavian => "scandinavian",
            Variant::BoyerParton => "boyer-parton",
            Variant::English => "english",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;

    /// Parses a name, case-insensitively; accepts the aliases `checkers`, `american`
    /// (english), `german`, `swedish`, `danish` (scandinavian), `boyer_parton` and
    /// `boyer parton`.
    fn from_str(s: &str) -> Result<Variant, String> {
        let name = s
            .trim()
            .to_ascii_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("-");
        match name.as_str() {
            "dameo" => Ok(Variant::Dameo),
            "croda" => Ok(Variant::Croda),
            "scandinavian" | "german" | "swedish" | "danish" => Ok(Variant::Scandinavian),
            "boyer-parton" | "boyer_parton" | "boyerparton" => Ok(Variant::BoyerParton),
            "english" | "checkers" | "american" => Ok(Variant::English),
            other => Err(format!(
                "unknown variant '{other}': expected one of dameo, croda, scandinavian, \
                 boyer-parton, english"
            )),
        }
    }
}

/// Runs `$body` with the type alias `$R` bound to the rules type of `$variant`:
/// the one place where a run-time variant becomes a compile-time type.
///
/// ```
/// use dama::{with_variant, Variant, Position, Rules};
/// let n = with_variant!(Variant::Croda, R => Position::<R>::start().pieces(R::FIRST).count());
/// assert_eq!(n, 24);
/// ```
#[macro_export]
macro_rules! with_variant {
    ($variant:expr, $R:ident => $body:expr) => {
        match $variant {
            $crate::Variant::Dameo => {
                type $R = $crate::rules::Dameo;
                $body
            }
            $crate::Variant::Croda => {
                type $R = $crate::rules::Croda;
                $body
            }
            $crate::Variant::Scandinavian => {
                type $R = $crate::rules::Scandinavian;
                $body
            }
            $crate::Variant::BoyerParton => {
                type $R = $crate::rules::BoyerParton;
                $body
            }
            $crate::Variant::English => {
                type $R = $crate::rules::English;
                $body
            }
        }
    };
}
