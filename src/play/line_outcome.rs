//! What a match says of each of its opening lines: for every line of an openings file,
//! how many of its game pairs the match played and how many of them were decisive (one
//! engine scored more than the other over the two games, colours swapped).
//!
//! A pair that ends 1-1 (both games drawn, or each side won with the same colour) could
//! not tell the engines apart; a line that gave a decisive pair in a match between an
//! engine and a stronger one (itself at more time) is more likely to separate engines
//! again. `dama openings --sift` keeps such lines (docs/matches.md: how the shipped files were
//! sifted and what that gained on fresh games).
//!
//! The games are read from the PDN that `dama match` writes ([`crate::play::match_resume`]
//! describes its tags): `Round` is the game's index plus one, and games `2k` and `2k + 1`
//! (rounds `2k + 1` and `2k + 2`) are the pair of one opening, the colours swapped.

use crate::fen::to_fen;
use crate::pdn::{parse_pdn, PdnGame};
use crate::play::opening::{opening_game, opening_moves_text, Opening};
use crate::rules::Rules;
use std::collections::{BTreeMap, HashMap};

/// The pairs of one line in a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineOutcome {
    /// Whole pairs played from the line.
    pub pairs: u32,
    /// Pairs in which one engine scored more than the other.
    pub decisive: u32,
}

/// The outcome of every line of `openings` in the matches of `pdns`, in the order of
/// the lines, and the number of pairs left out because one of their games is missing
/// or unfinished (`*`).
///
/// A game that is not of variant `R`, lacks a tag the match writes, or whose opening is
/// not a line of `openings` is refused with its place (the file's index in `pdns` and
/// the game's number in it); so is a pair whose two games name different openings or
/// do not swap the engines.
pub fn line_outcomes<R: Rules>(
    openings: &[Opening],
    pdns: &[&str],
) -> Result<(Vec<LineOutcome>, u32), String> {
    let mut line_of: HashMap<(String, String), usize> = HashMap::new();
    for (i, o) in openings.iter().enumerate() {
        let game = opening_game::<R>(o)?;
        let key = (to_fen(&game.positions()[0]), opening_moves_text::<R>(o)?);
        // A line twice in a file: its games count for its first copy.
        line_of.entry(key).or_insert(i);
    }
    let start = to_fen(&crate::position::Position::<R>::start());
    let mut outcomes = vec![LineOutcome::default(); openings.len()];
    let mut partial = 0;
    for (f, text) in pdns.iter().enumerate() {
        // Per pair: its two games, in round order.
        let mut pairs: BTreeMap<usize, [Option<Played>; 2]> = BTreeMap::new();
        let mut line_of_pair: HashMap<usize, usize> = HashMap::new();
        for (k, g) in parse_pdn(text).into_iter().enumerate() {
            let at = format!("PDN {} game {}", f + 1, k + 1);
            let tag = |name: &str| {
                g.tag(name)
                    .ok_or_else(|| format!("{at} has no {name} tag: not a game of dama match"))
            };
            if g.variant().map(|v| v.to_string()) != Some(R::NAME.to_string()) {
                return Err(format!(
                    "{at} is not a game of {} (Variant '{}')",
                    R::NAME,
                    g.tag("Variant").unwrap_or("")
                ));
            }
            let round: usize = tag("Round")?
                .parse()
                .ok()
                .filter(|&r| r >= 1)
                .ok_or_else(|| format!("{at}: its Round is not a game number"))?;
            let key = (
                g.tag("FEN").unwrap_or(&start).to_string(),
                tag("Opening")?.to_string(),
            );
            let line = *line_of.get(&key).ok_or_else(|| {
                format!(
                    "{at}: its opening '{}' is not a line of the openings file",
                    key.1
                )
            })?;
            let (pair, seat) = ((round - 1) / 2, (round - 1) % 2);
            match line_of_pair.insert(pair, line) {
                Some(other) if other != line => {
                    return Err(format!(
                        "{at}: round {round} opens with line {} but the other game of its pair with line {}",
                        line + 1,
                        other + 1
                    ))
                }
                _ => {}
            }
            let Some(score) = white_score(&g) else {
                continue; // unfinished: its pair is partial
            };
            let game = Played {
                white: tag("White")?.to_string(),
                black: tag("Black")?.to_string(),
                white_score: score,
            };
            if pairs.entry(pair).or_default()[seat].replace(game).is_some() {
                return Err(format!("{at}: round {round} comes twice"));
            }
        }
        // Pairs whose games are all unfinished.
        partial += line_of_pair
            .keys()
            .filter(|p| !pairs.contains_key(p))
            .count() as u32;
        for (pair, games) in pairs {
            let [Some(a), Some(b)] = games else {
                partial += 1;
                continue;
            };
            if a.white != b.black || a.black != b.white {
                return Err(format!(
                    "PDN {}: the games of rounds {} and {} do not swap the engines' colours",
                    f + 1,
                    2 * pair + 1,
                    2 * pair + 2
                ));
            }
            // The first engine: White in the first game, Black in the second.
            let first = a.white_score + (1.0 - b.white_score);
            let o = &mut outcomes[line_of_pair[&pair]];
            o.pairs += 1;
            if (first - 1.0).abs() > 0.25 {
                o.decisive += 1;
            }
        }
    }
    Ok((outcomes, partial))
}

/// A finished game of a pair: who played it and how White scored.
struct Played {
    white: String,
    black: String,
    white_score: f64,
}

/// White's score in a finished game, `None` for `*`.
fn white_score(g: &PdnGame) -> Option<f64> {
    match g.result.as_str() {
        "1-0" | "2-0" => Some(1.0),
        "0-1" | "0-2" => Some(0.0),
        "1/2-1/2" | "1-1" => Some(0.5),
        _ => None,
    }
}
