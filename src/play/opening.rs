//! Random balanced openings, shared by `dama selfplay`/`tune`/`match` (a list drawn from
//! one seed) and `dama gen` (one opening per game number): random legal plies from the
//! start, kept when the position is level.

use crate::engine::time::Limits;
use crate::engine::Engine;
use crate::game::Game;
use crate::movegen;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Color;
use rand::rngs::StdRng;
use rand::Rng;

/// Score within which a shallow search must rate an opening (hundredths of a man).
pub const EVEN: i32 = 40;

/// `plies` random legal plies from the start; `None` when a side runs out of moves on
/// the way or the game is over at the end.
pub fn random_line<R: Rules>(rng: &mut StdRng, plies: usize) -> Option<Game<R>> {
    let mut game = Game::new(Position::<R>::start());
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

/// True when a depth-4 search by `engine` scores the game's position within [`EVEN`].
pub fn scores_even<R: Rules>(engine: &mut Engine<R>, game: &Game<R>) -> bool {
    let shallow = Limits {
        depth: Some(4),
        ..Default::default()
    };
    engine.new_game();
    engine.set_game(game.clone());
    let r = engine.search(&shallow, 1, &|_| {});
    r.lines.first().is_some_and(|l| l.score.abs() <= EVEN)
}
