//! Search settings that differ by variant. They are not rules (`docs/rules.md` knows
//! nothing of them), so they live here, beside the search, and not in [`crate::rules`].
//! Each is a `const fn` of the variant, read through [`Rules::VARIANT`] in a `const`
//! block, so the monomorphised search holds a constant, not a run-time flag.

use crate::rules::Rules;
use crate::variant::Variant;

/// Quiet plies per line that the quiescence search may spend meeting the opponent's
/// pending captures. 1 everywhere but boyer-parton, where the threat replies lost
/// -23.2 ± 11.0 Elo against the search without them (W43 D194 L63, 300 games at
/// 2+0.02, docs/results.md "Learned evaluation"). In scandinavian, the search without them
/// scored +8.3 ± 8.0 against the search with them (1000 games at 2+0.02, no decision),
/// and with model 4 and truncation +0.0 ± 16.0 (308 games, stopped): kept there.
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

/// The window of static evaluations, relative to alpha, in which a quiet leaf under the
/// opponent's capture threat is searched on (after Cake's leaves:
/// `../shared/research/search.md`): a leaf that evaluates `below` or more under alpha, or
/// `above` or more over it, is scored by its evaluation, as the threat would not change
/// which side of alpha it falls. `None`: every threatened leaf is searched on.
/// english (60, 200) against none: +21.7 ± 14.7 Elo (481 games at 2+0.02 on the ACF
/// ballots, H1; docs/results.md "Selective search"); scandinavian (120, 400) against none:
/// +8.3 ± 8.8 (1000 games at 2+0.02 on its openings, no decision): off there.
pub const fn threat_window(variant: Variant) -> Option<(i32, i32)> {
    match variant {
        Variant::English => Some((60, 200)),
        _ => None,
    }
}

/// [`threat_window`] of `R`, as a constant.
pub const fn threat_window_of<R: Rules>() -> Option<(i32, i32)> {
    threat_window(R::VARIANT)
}

/// The verified evaluation cut (as GuiNN's, like ProbCut): at a quiet node off the
/// principal variation whose static evaluation stands this many hundredths of a man or
/// more above beta, a null-window search [`EVAL_CUT_REDUCTION`] plies shallower tests
/// beta plus the margin; if it holds, the node fails high without its full search.
/// 0 turns the cut off: only variants where it won an SPRT have it. english, margin 30
/// against none: +38.8 ± 20.8 Elo (252 games at 2+0.02 on the ACF ballots, H1);
/// scandinavian: -57.4 ± 28.8 (171 games on its openings, H0), and margin 120 (its
/// network scores about 4x english's) -6.4 ± 16.2 (327 games, stopped); dameo
/// +13.9 ± 24.4 and croda +15.6 ± 26.6 (400 games each, no decision); boyer-parton
/// -16.3 ± 16.7 (171 games, H0): off there (docs/results.md "Selective search"). Scandinavian
/// with [`truncation_margin`] on: margin 250 +2.6 ± 15.9 (264 games, stopped): off.
pub const fn eval_cut_margin(variant: Variant) -> i32 {
    match variant {
        Variant::English => 30,
        _ => 0,
    }
}

/// [`eval_cut_margin`] of `R`, as a constant.
pub const fn eval_cut_margin_of<R: Rules>() -> i32 {
    eval_cut_margin(R::VARIANT)
}

/// How much shallower the verification of the evaluation cut searches.
pub const EVAL_CUT_REDUCTION: i32 = 4;

/// Internal iterative deepening (after GuiNN's and Cake's): a node of at least this depth
/// (off the root) with no table move is first searched [`IID_REDUCTION`] plies shallower,
/// so that the table gives it a move to try first. 0 turns it off. english, with
/// [`truncation_margin`], against the search with neither: +25.8 ± 16.3 Elo (243 games at
/// 2+0.02 on the ACF ballots, H1; docs/results.md "Selective search"); scandinavian, both on at
/// english's margins: -7.8 ± 13.0 (537 games on its openings, H0), and at margins scaled
/// to its network (400, two plies past 640) against neither: +15.4 ± 11.6 (271 games, H1):
/// on there; not yet tried elsewhere.
pub const fn iid_depth(variant: Variant) -> i32 {
    match variant {
        Variant::English | Variant::Scandinavian => 6,
        _ => 0,
    }
}

/// [`iid_depth`] of `R`, as a constant.
pub const fn iid_depth_of<R: Rules>() -> i32 {
    iid_depth(R::VARIANT)
}

/// How much shallower the internal iterative deepening searches.
pub const IID_REDUCTION: i32 = 4;

/// Truncation (after Cake's, `../shared/research/search.md`): a quiet node off the
/// principal variation whose static evaluation lies more than this many hundredths of a
/// man outside the window is searched a ply shallower (two plies past
/// [`truncation_deep`]); the plies taken build up along the line and are all given back
/// at the first node below whose evaluation is within the margin again. 0 turns it off.
/// english and scandinavian: on, with [`iid_depth`] (the SPRTs there). Scandinavian's
/// margins are 4x english's: its network scores far wider (model 2 about 4x english's,
/// model 3 wider still; docs/results.md "Selective search"). Against 400 there, 250 lost
/// (-17.8 ± 16.6, 195 games, H0) and 600 did not win (+6.5 ± 13.0, 479 games, stopped);
/// a soft band beside it (Cake's second counter: 80 to 400 outside, a quarter ply per
/// 64) lost too (-22.3 ± 19.0, 203 games, H0).
pub const fn truncation_margin(variant: Variant) -> i32 {
    match variant {
        Variant::English => 100,
        Variant::Scandinavian => 400,
        _ => 0,
    }
}

/// [`truncation_margin`] of `R`, as a constant.
pub const fn truncation_margin_of<R: Rules>() -> i32 {
    truncation_margin(R::VARIANT)
}

/// The distance outside the window past which truncation takes two plies.
pub const fn truncation_deep(variant: Variant) -> i32 {
    match variant {
        Variant::Scandinavian => 640,
        _ => 160,
    }
}

/// [`truncation_deep`] of `R`, as a constant.
pub const fn truncation_deep_of<R: Rules>() -> i32 {
    truncation_deep(R::VARIANT)
}

/// The moves a sudden-death clock (no moves to go) is shared over: each move plans the
/// time left divided by this, plus three quarters of the increment
/// (`TimeManager::with_clock_moves`). Fewer moves spend more of the clock early.
/// scandinavian 15 against 30, one thread each, `--tc 2+0.02` on its openings,
/// SPRT(0, 10): +11.5 ± 9.2 Elo (W98 D586 L73, 757 games, H1; docs/results.md "The clock in
/// scandinavian"): at 30 its games ended with a third of the base time unused.
/// english 15 against 30, the same way on the ACF ballots: +18.0 ± 12.2 (W33 D280 L16,
/// 329 games, H1). boyer-parton 15 against 30 on its openings: -2.1 ± 9.8 (W56 D219
/// L58, 333 games, H0): 30 there. Not yet tried in dameo and croda.
pub const fn clock_moves(variant: Variant) -> u32 {
    match variant {
        Variant::Scandinavian | Variant::English => 15,
        _ => crate::engine::time::CLOCK_MOVES,
    }
}

/// [`clock_moves`] of `R`, as a constant.
pub const fn clock_moves_of<R: Rules>() -> u32 {
    clock_moves(R::VARIANT)
}

/// The pieces up to which the engine solves every endgame-database slice for itself, in
/// memory, when the database directory lacks them (`crate::egdb::builtin`; the Hub's
/// `egdb-builtin`); 0: none. scandinavian 4 (23 slices, 7.4 M positions, 3.8 s on one
/// thread, once per process): the 4-piece databases against none, one thread each,
/// `--tc 2+0.02` on its openings, SPRT(0, 10): +20.6 ± 14.1 Elo (W45 D214 L28, 287
/// games, H1; docs/results.md "Endgame databases"). english 4 built in against none, on
/// the ACF ballots: +3.4 ± 10.6 (W62 D487 L56, 605 games, no decision, stopped): none.
pub const fn builtin_egdb_pieces(variant: Variant) -> u32 {
    match variant {
        Variant::Scandinavian => 4,
        _ => 0,
    }
}

/// [`builtin_egdb_pieces`] as an engine uses it: 0 when `on` is false (the Hub's
/// `egdb-builtin`, `--no-egdb-builtin`), and never past `limit`, the pieces the search
/// probes (the Hub's `egdb-pieces`).
pub const fn builtin_egdb_pieces_within(variant: Variant, on: bool, limit: u32) -> u32 {
    let pieces = builtin_egdb_pieces(variant);
    if !on {
        0
    } else if pieces < limit {
        pieces
    } else {
        limit
    }
}

/// A man's worth in the variant's evaluation, in its hundredths: the depth-8 score of
/// the start position with one of the opponent's men taken off (english 11 men against
/// 12: +0.79; scandinavian +6.58; dameo, a back man, +0.58; croda +0.55), rounded. The
/// playing levels ([`crate::engine::skill`]) measure their temperatures in men with it,
/// so that a level slips alike in every variant. boyer-parton takes scandinavian's
/// figure: its start, which the forced opening captures decide, reads +19.47, and
/// without one of Black's back men +26.31 to +28.92 (a man worth 680 to 950 hundredths),
/// so 650 is at the low end there.
pub const fn skill_man(variant: Variant) -> i32 {
    match variant {
        Variant::English => 80,
        Variant::Scandinavian | Variant::BoyerParton => 650,
        Variant::Dameo => 60,
        Variant::Croda => 55,
    }
}
