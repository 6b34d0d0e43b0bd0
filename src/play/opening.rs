//! Openings, the one place for them: lines read from an openings file ([`Opening`],
//! [`read_openings`]) and random balanced openings, shared by `dama selfplay`/`tune`/
//! `match` (a list drawn from one seed: [`openings`], [`random_openings`]) and `dama gen`
//! (one opening per game number: [`for_game`]): random legal plies from the start, kept
//! when the position is level.

use crate::engine::time::Limits;
use crate::engine::Engine;
use crate::game::Game;
use crate::movegen;
use crate::notation::move_texts;
use crate::pdn::{read_game, PastEnd};
use crate::position::Position;
use crate::protocol::hubpos;
use crate::rules::Rules;
use crate::types::Color;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Score within which a shallow search must rate an opening (hundredths of a man).
pub const EVEN: i32 = 40;

/// `plies` random legal plies from the start; `None` when a side runs out of moves on
/// the way or the game is over at the end.
pub fn random_line<R: Rules>(rng: &mut StdRng, plies: usize) -> Option<Game<R>> {
    random_continuation(rng, &Game::new(Position::<R>::start()), plies)
}

/// `plies` random legal plies from the end of `from`; `None` when a side runs out of
/// moves on the way or the game is over at the end.
pub fn random_continuation<R: Rules>(
    rng: &mut StdRng,
    from: &Game<R>,
    plies: usize,
) -> Option<Game<R>> {
    let mut game = from.clone();
    for _ in 0..plies {
        let moves = movegen::legal_moves(game.position());
        if moves.is_empty() {
            return None;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        game.play(&mv);
    }
    let pos = game.position();
    (movegen::has_moves(pos) && game.outcome().is_none()).then_some(game)
}

/// True when no capture is pending and the material is level (a king counts two men).
pub fn is_level<R: Rules>(pos: &Position<R>) -> bool {
    let material = |c: Color| pos.men(c).count() + 2 * pos.kings(c).count();
    !movegen::has_capture(pos) && material(Color::White) == material(Color::Black)
}

/// A depth-4 search's score of the game's position by `engine`, from White's view;
/// `None` when the search finds no move.
fn shallow_white_score<R: Rules>(engine: &mut Engine<R>, game: &Game<R>) -> Option<i32> {
    let shallow = Limits {
        depth: Some(4),
        ..Default::default()
    };
    engine.new_game();
    engine.set_game(game.clone());
    let r = engine.search(&shallow, 1, &|_| {});
    let score = r.lines.first()?.score;
    Some(match game.position().side() {
        Color::White => score,
        Color::Black => -score,
    })
}

/// True when a depth-4 search by `engine` scores the game's position within [`EVEN`].
pub fn scores_even<R: Rules>(engine: &mut Engine<R>, game: &Game<R>) -> bool {
    shallow_white_score(engine, game).is_some_and(|s| s.abs() <= EVEN)
}

/// Random balanced openings: `plies` random legal plies from the start, kept when the
/// material is level, no capture is pending and a shallow (depth 4) search with the
/// classic evaluation scores the position within 0.4 men of equal. The classic
/// evaluation is the yardstick, whatever the variant plays by default: its scale is in
/// men, so "within 0.4 men" means the same in every variant and build, and a seed draws
/// the same openings whichever network is shipped. (Boyer-parton's networks score far
/// from level: from the start at depth 8, +19.47 by model 1 against +2.02 by the
/// classic evaluation; judged by the first of them, no opening of 6 plies was level.)
pub fn openings<R: Rules>(count: usize, plies: usize, seed: u64) -> Vec<Game<R>> {
    if plies == 0 {
        // No random plies: every game starts from the start position, whatever a search
        // makes of it (boyer-parton's is a forced win for White), and nothing is drawn.
        return vec![Game::new(Position::<R>::start()); count];
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = Engine::<R>::new(1, 1);
    engine.set_evaluation(crate::eval::Evaluation::classic::<R>());
    let mut out = Vec::with_capacity(count);
    let mut tries = 0;
    while out.len() < count && tries < count * 1000 {
        tries += 1;
        let Some(game) = random_line::<R>(&mut rng, plies) else {
            continue;
        };
        if is_level(game.position()) && scores_even(&mut engine, &game) {
            out.push(game);
        }
    }
    out
}

/// A random balanced opening for game `index`: `plies` random legal plies, kept when the
/// material is level, no capture is pending and a depth-4 search scores it within 0.4
/// men of equal (after 200 tries, the first legal one is taken); with no plies, the
/// start position.
pub fn for_game<R: Rules>(engine: &mut Engine<R>, plies: usize, seed: u64, index: u32) -> Game<R> {
    if plies == 0 {
        return Game::new(Position::<R>::start());
    }
    let mut rng =
        StdRng::seed_from_u64(seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut fallback = None;
    for _ in 0..200 {
        let Some(game) = random_line::<R>(&mut rng, plies) else {
            continue;
        };
        if !is_level(game.position()) {
            fallback.get_or_insert(game);
            continue;
        }
        if scores_even(engine, &game) {
            return game;
        }
        fallback.get_or_insert(game);
    }
    fallback.unwrap_or_else(|| Game::new(Position::<R>::start()))
}

/// The opening of game `index` when the games start from given lines (`dama gen
/// --openings`, e.g. the ACF ballots): the line `start`, then `plies` random legal plies
/// that keep its balance, whatever it is (a ballot may favour one side): no capture is
/// pending, and a depth-4 search by `engine` scores the position within [`EVEN`] of its
/// score of the line (both from White's view; a ballot that leaves an exchange pending
/// is scored after it). The random plies are drawn from `seed` and `index` as in [`for_game`]. After
/// 200 tries without such a continuation, or with no plies, the line itself.
pub fn for_game_from<R: Rules>(
    engine: &mut Engine<R>,
    start: &Game<R>,
    plies: usize,
    seed: u64,
    index: u32,
) -> Game<R> {
    if plies == 0 {
        return start.clone();
    }
    let Some(target) = shallow_white_score(engine, start) else {
        return start.clone();
    };
    let mut rng =
        StdRng::seed_from_u64(seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for _ in 0..200 {
        let Some(game) = random_continuation(&mut rng, start, plies) else {
            continue;
        };
        if movegen::has_capture(game.position()) {
            continue;
        }
        if shallow_white_score(engine, &game).is_some_and(|s| (s - target).abs() <= EVEN) {
            return game;
        }
    }
    start.clone()
}

/// An opening: a start position and moves from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// A PDN FEN, or `None` for the variant's start position.
    pub fen: Option<String>,
    /// Moves played from it (any accepted notation).
    pub moves: Vec<String>,
}

/// Whether a line of an openings file holds an opening (not only blanks or a `#`
/// comment): the lines [`read_openings`] reads, in its order.
pub fn is_opening_line(raw: &str) -> bool {
    !raw.split('#').next().unwrap_or("").trim().is_empty()
}

/// Reads an openings file: one opening per line, a PDN FEN (with `:`) optionally
/// followed by moves, or moves from the start position; then, optionally, `;` and the
/// FEN those moves reach, which must be the position they reach (the files of
/// `dama openings`: [`crate::play::selection`]); `#` starts a comment. A line that does
/// not read in `R` is refused with its number.
pub fn read_openings<R: Rules>(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        if !is_opening_line(raw) {
            continue;
        }
        let line = raw.split('#').next().unwrap_or("").trim();
        let at = |e: String| format!("openings line {}: {e}", n + 1);
        let (line, reaches) = match line.split_once(';') {
            Some((moves, fen)) => (moves.trim(), Some(fen.trim())),
            None => (line, None),
        };
        let mut words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        let fen = if words.first().is_some_and(|w| w.contains(':')) {
            Some(words.remove(0))
        } else {
            None
        };
        let o = Opening { fen, moves: words };
        let game = opening_game::<R>(&o).map_err(at)?;
        if let Some(f) = reaches {
            let want =
                crate::fen::parse_fen::<R>(f).map_err(|e| at(format!("the FEN after ';': {e}")))?;
            // Compared as FENs: the draw counters are not part of a FEN.
            if crate::fen::to_fen(&want) != crate::fen::to_fen(game.position()) {
                return Err(at(format!(
                    "the moves reach {}, not the FEN given ({f})",
                    crate::fen::to_fen(game.position())
                )));
            }
        }
        out.push(o);
    }
    if out.is_empty() {
        return Err("the openings file has no opening".into());
    }
    Ok(out)
}

/// Random balanced openings as [`Opening`]s (see [`openings`]).
pub fn random_openings<R: Rules>(count: usize, plies: usize, seed: u64) -> Vec<Opening> {
    openings::<R>(count, plies, seed)
        .into_iter()
        .map(|g| Opening {
            fen: None,
            moves: move_texts(&g),
        })
        .collect()
}

/// The opening's game: its start position and moves played (any notation the Hub
/// accepts).
pub fn opening_game<R: Rules>(o: &Opening) -> Result<Game<R>, String> {
    read_game(
        o.fen.as_deref(),
        &o.moves,
        hubpos::parse_any_move::<R>,
        PastEnd::Allow,
    )
    .map_err(|e| e.to_string())
}

/// The opening's moves as the PDN writes them (the `Opening` tag, space-separated).
pub fn opening_moves_text<R: Rules>(o: &Opening) -> Result<String, String> {
    Ok(move_texts(&opening_game::<R>(o)?).join(" "))
}
