//! In-process matches and the tuner: games end by the rules, replay legally, tallies add
//! up, and tuning does not make the fit worse.

use dama::engine::time::Limits;
use dama::eval::classic::Weights;
use dama::game::Game;
use dama::play::opening::openings;
use dama::play::selfplay::{run_match, Ending, Player};
use dama::rules::{Dameo, English, Scandinavian};
use dama::{movegen, Position, Rules};

fn player<R: Rules>(name: &str, depth: u32) -> Player {
    Player {
        name: name.into(),
        limits: Limits {
            depth: Some(depth),
            ..Default::default()
        },
        threads: 1,
        weights: Weights::default_for::<R>(),
    }
}

fn small_match<R: Rules>() {
    let ops = openings::<R>(3, 4, 5);
    assert_eq!(ops.len(), 3, "{}", R::NAME);
    let (a, b) = (player::<R>("a", 3), player::<R>("b", 1));
    let (tally, records) = run_match(&a, &b, &ops, 200, 2, &|_, _, _| {});
    assert_eq!(tally.games(), 6);
    assert_eq!(tally.pairs.iter().sum::<u32>(), 3);
    assert_eq!(records.len(), 6);
    for r in &records {
        // Replay every move through the rules from the start position.
        let mut g = Game::new(Position::<R>::start());
        for mv in r.game.moves() {
            assert!(
                movegen::legal_moves(g.position()).contains(mv),
                "{}",
                R::NAME
            );
            assert!(g.play(mv));
        }
        match r.ending {
            Ending::Rules(o) => {
                assert_eq!(g.outcome(), Some(o));
                let expected = match o.winner() {
                    Some(dama::Color::White) => 1.0,
                    Some(dama::Color::Black) => 0.0,
                    None => 0.5,
                };
                assert_eq!(r.white_score, expected);
            }
            Ending::MaxPlies => {
                assert_eq!(r.white_score, 0.5);
                assert_eq!(g.moves().len() - r.opening_plies, 200);
            }
        }
    }
    let score = tally.wins as f64 + 0.5 * tally.draws as f64;
    let from_records: f64 = records
        .chunks(2)
        .map(|p| p[0].white_score + (1.0 - p[1].white_score))
        .sum();
    assert_eq!(score, from_records);
}

#[test]
fn matches_replay_legally_and_add_up() {
    small_match::<English>();
    small_match::<Scandinavian>();
    small_match::<Dameo>();
}

#[test]
fn tuning_does_not_worsen_the_fit() {
    let ops = openings::<English>(6, 6, 9);
    let p = player::<English>("p", 2);
    let (_, records) = run_match(&p, &p, &ops, 150, 2, &|_, _, _| {});
    let samples = dama::learn::tune::samples(&records);
    assert!(samples.len() > 100);
    let t = dama::learn::tune::tune(&samples, &Weights::hand_set::<English>(), 50, 0.0005);
    assert!(t.error_after <= t.error_before + 1e-12, "{t:?}");
    assert_eq!(t.weights.values[0], 100);
}
