//! `dama match --resume`: the games of an interrupted match read back from its PDN and
//! checked against the command line, so that the match goes on where it stopped.
//!
//! Every game the match runner writes carries what identifies it: `Round` (the game
//! index plus one; games `2k` and `2k + 1` are the pair of opening `k`, the first
//! engine White in the even one), `Event` and `Variant`, the engine names in `White` and `Black`,
//! `Opening` (the opening's moves) and `FEN` (its start position when not the
//! variant's), and `TimeControl`. A game whose tags differ from what this command line
//! would have written is refused with a message naming the difference; so is a game
//! that does not replay legally or has no result. A pair with only one game played
//! keeps that game, and the runner plays the missing one (same opening, colours
//! swapped), so the pair counts whole in the pentanomial tally.

use crate::game::Game;
use crate::notation::parse_move;
use crate::pdn::{parse_pdn, play_moves, PastEnd, RecordError};
use crate::play::match_runner::{GameResult, MatchConfig};
use crate::play::opening::{opening_game, opening_moves_text};
use crate::rules::Rules;

/// A tag value as the PDN writer stores it (double quotes become single ones).
fn stored(value: &str) -> String {
    value.replace('"', "'")
}

/// Reads the games of a match's PDN and checks each against `cfg`. An empty text
/// gives no games. The error names the game (its place in the file) and what is
/// wrong.
pub fn games_from_pdn<R: Rules>(cfg: &MatchConfig, text: &str) -> Result<Vec<GameResult>, String> {
    let total = cfg.total_games();
    let mut seen = vec![false; total];
    let mut out = Vec::new();
    for (k, g) in parse_pdn(text).into_iter().enumerate() {
        let at = format!("game {} of the PDN", k + 1);
        let tag = |name: &str| -> Result<&str, String> {
            g.tag(name)
                .ok_or_else(|| format!("{at} has no {name} tag: not a game of dama match"))
        };
        let same = |name: &str, expected: &str, what: &str| -> Result<(), String> {
            let found = tag(name)?;
            if found == stored(expected) {
                Ok(())
            } else {
                Err(format!(
                    "{at} does not belong to this match: its {what} is '{found}', the command line gives '{}'",
                    stored(expected)
                ))
            }
        };
        let round = tag("Round")?;
        let index = match round.parse::<usize>() {
            Ok(r) if (1..=total).contains(&r) => r - 1,
            Ok(r) => {
                return Err(format!(
                    "{at} is round {r}, but this match has {total} games (--games)"
                ))
            }
            Err(_) => return Err(format!("{at}: Round '{round}' is not a game number")),
        };
        if seen[index] {
            return Err(format!("{at}: round {} appears twice", index + 1));
        }
        seen[index] = true;
        same("Variant", R::NAME, "variant")?;
        same("Event", &cfg.event, "event")?;
        let white = MatchConfig::white_of(index);
        same("White", &cfg.engines[white].name, "White engine")?;
        same("Black", &cfg.engines[1 - white].name, "Black engine")?;
        same("TimeControl", &cfg.tc.to_string(), "time control (--tc)")?;
        let opening = cfg.opening(index);
        let opening_text = opening_moves_text::<R>(opening)?;
        same("Opening", &opening_text, "opening (--openings, --seed)")?;
        let mut game: Game<R> = opening_game::<R>(opening)?;
        match (g.tag("FEN"), &opening.fen) {
            (None, None) => {}
            (Some(_), Some(_)) => same(
                "FEN",
                &crate::fen::to_fen(&game.positions()[0]),
                "opening position (--openings)",
            )?,
            (found, _) => {
                return Err(format!(
                    "{at} does not belong to this match: its start position is {}, the command line gives {}",
                    found.unwrap_or("the usual one"),
                    if opening.fen.is_some() { "another" } else { "the usual one" }
                ))
            }
        }
        // A game cut short has no result: check that before its (maybe cut) moves.
        let white_score = match g.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            "" => return Err(format!("{at} has no result: it is not whole")),
            other => return Err(format!("{at}: result '{other}' is not a finished game")),
        };
        same("Result", &g.result, "Result tag")?;
        // The moves: the opening's first, then legal ones to the end.
        let opening_plies = game.moves().len();
        let played: Vec<&str> = opening_text.split_whitespace().collect();
        if g.moves.len() < opening_plies
            || g.moves[..opening_plies]
                .iter()
                .zip(&played)
                .any(|(a, b)| a != b)
        {
            return Err(format!("{at} does not start with its opening's moves"));
        }
        play_moves(
            &mut game,
            &g.moves[opening_plies..],
            parse_move::<R>,
            PastEnd::Allow,
        )
        .map_err(|e| match e {
            RecordError::Move {
                number,
                text,
                reason,
            } => format!("{at}: move {number} ({text}) is not legal: {reason}"),
            other => format!("{at}: {other}"),
        })?;
        let termination = tag("Termination")?.to_string();
        out.push(GameResult {
            index,
            white,
            white_score,
            termination,
            pdn: g,
        });
    }
    Ok(out)
}
