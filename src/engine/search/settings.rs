//! Search settings that differ by variant. They are not rules (`docs/rules.md` knows
//! nothing of them), so they live here, beside the search, and not in [`crate::rules`].
//! Each is a `const fn` of the variant, read through [`Rules::VARIANT`] in a `const`
//! block, so the monomorphised search holds a constant, not a run-time flag.

use crate::rules::Rules;
use crate::variant::Variant;

/// Quiet plies per line that the quiescence search may spend meeting the opponent's
/// pending captures. 1 everywhere but boyer-parton, where the threat replies lost
/// -20.1 ± 11.4 Elo against the search without them (259 games at 2+0.02, README
/// "Learned evaluation").
pub const fn quiescence_threat_plies(variant: Variant) -> u32 {
    match variant {
        Variant::BoyerParton => 0,
        _ => 1,
    }
}

/// [`quiescence_threat_plies`] of `R`, as a constant.
pub const fn quiescence_threat_plies_of<R: Rules>() -> u32 {
    quiescence_threat_plies(R::VARIANT)
}
