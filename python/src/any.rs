//! The one run-time variant switch of the module: an enum over the five monomorphised
//! types of a generic Rust type, and [`dispatch!`] to run generic code on it.

use dama::rules::{BoyerParton, Croda, Dameo, English, Scandinavian};
use dama::Variant;

/// One value of `T<R>` for whichever of the five rules `R` it was made in.
pub enum Any<T: Family> {
    /// Dameo.
    Dameo(T::Of<Dameo>),
    /// Croda.
    Croda(T::Of<Croda>),
    /// Scandinavian.
    Scandinavian(T::Of<Scandinavian>),
    /// Boyer-Parton.
    BoyerParton(T::Of<BoyerParton>),
    /// English.
    English(T::Of<English>),
}

/// A generic type over the rules: `Of<R>` is the type for the rules `R`.
pub trait Family {
    /// The type for the rules `R`.
    type Of<R: dama::Rules>;
}

impl<T: Family> Any<T> {
    /// The variant the value was made in.
    pub fn variant(&self) -> Variant {
        match self {
            Any::Dameo(_) => Variant::Dameo,
            Any::Croda(_) => Variant::Croda,
            Any::Scandinavian(_) => Variant::Scandinavian,
            Any::BoyerParton(_) => Variant::BoyerParton,
            Any::English(_) => Variant::English,
        }
    }
}

impl<T: Family> Clone for Any<T>
where
    T::Of<Dameo>: Clone,
    T::Of<Croda>: Clone,
    T::Of<Scandinavian>: Clone,
    T::Of<BoyerParton>: Clone,
    T::Of<English>: Clone,
{
    fn clone(&self) -> Self {
        match self {
            Any::Dameo(x) => Any::Dameo(x.clone()),
            Any::Croda(x) => Any::Croda(x.clone()),
            Any::Scandinavian(x) => Any::Scandinavian(x.clone()),
            Any::BoyerParton(x) => Any::BoyerParton(x.clone()),
            Any::English(x) => Any::English(x.clone()),
        }
    }
}

/// Runs `$body` with `$x` bound to the value inside `$any` and the type alias `$R` to
/// its rules.
#[macro_export]
macro_rules! dispatch {
    ($any:expr, $x:ident, $R:ident => $body:expr) => {
        match $any {
            $crate::any::Any::Dameo($x) => {
                type $R = dama::rules::Dameo;
                $body
            }
            $crate::any::Any::Croda($x) => {
                type $R = dama::rules::Croda;
                $body
            }
            $crate::any::Any::Scandinavian($x) => {
                type $R = dama::rules::Scandinavian;
                $body
            }
            $crate::any::Any::BoyerParton($x) => {
                type $R = dama::rules::BoyerParton;
                $body
            }
            $crate::any::Any::English($x) => {
                type $R = dama::rules::English;
                $body
            }
        }
    };
}

/// Makes an `Any<$family>` of `$variant` from `$body`, with `$R` bound to its rules.
#[macro_export]
macro_rules! make_any {
    ($variant:expr, $R:ident => $body:expr) => {
        match $variant {
            dama::Variant::Dameo => {
                type $R = dama::rules::Dameo;
                $crate::any::Any::Dameo($body)
            }
            dama::Variant::Croda => {
                type $R = dama::rules::Croda;
                $crate::any::Any::Croda($body)
            }
            dama::Variant::Scandinavian => {
                type $R = dama::rules::Scandinavian;
                $crate::any::Any::Scandinavian($body)
            }
            dama::Variant::BoyerParton => {
                type $R = dama::rules::BoyerParton;
                $crate::any::Any::BoyerParton($body)
            }
            dama::Variant::English => {
                type $R = dama::rules::English;
                $crate::any::Any::English($body)
            }
        }
    };
}

/// Runs `$body` with `$x` and `$y` bound to the values inside `$a` and `$b` when both
/// are of the same variant, else gives `$other`.
#[macro_export]
macro_rules! dispatch_pair {
    ($a:expr, $b:expr, $x:ident, $y:ident => $body:expr, else $other:expr) => {
        match ($a, $b) {
            ($crate::any::Any::Dameo($x), $crate::any::Any::Dameo($y)) => $body,
            ($crate::any::Any::Croda($x), $crate::any::Any::Croda($y)) => $body,
            ($crate::any::Any::Scandinavian($x), $crate::any::Any::Scandinavian($y)) => $body,
            ($crate::any::Any::BoyerParton($x), $crate::any::Any::BoyerParton($y)) => $body,
            ($crate::any::Any::English($x), $crate::any::Any::English($y)) => $body,
            _ => $other,
        }
    };
}
