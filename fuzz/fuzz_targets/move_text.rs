//! Move and square text: `notation::parse_move`, `hubpos::parse_any_move` and
//! `notation::parse_square` on a position reached by a random playout that the input
//! steers. Input: a variant byte, a plies byte, 8 seed bytes, then the text. A move
//! that reads must be a legal move; every legal move, written in either notation, must
//! read back as itself.

#![no_main]

mod common;

use dama::notation::{move_text, parse_move, parse_square, square_name};
use dama::protocol::hubpos::{hub_move, parse_any_move};
use dama::{movegen, with_variant, Position, Rules};
use libfuzzer_sys::fuzz_target;

fn check<R: Rules>(pos: &Position<R>, text: &str) {
    let legal = movegen::legal_moves(pos);
    if let Ok(mv) = parse_move(pos, text) {
        assert!(
            legal.contains(&mv),
            "{}: '{text}' read as an illegal move",
            R::NAME
        );
    }
    if let Ok(mv) = parse_any_move(pos, text) {
        assert!(
            legal.contains(&mv),
            "{}: '{text}' read as an illegal move",
            R::NAME
        );
    }
    if let Ok(sq) = parse_square::<R>(text) {
        assert!(R::BOARD.contains(sq));
        assert_eq!(parse_square::<R>(&square_name::<R>(sq)), Ok(sq));
    }
    for mv in legal.iter() {
        let path = move_text(pos, mv);
        assert_eq!(
            parse_move(pos, &path).as_ref(),
            Ok(mv),
            "{}: '{path}'",
            R::NAME
        );
        let hub = hub_move::<R>(mv);
        assert_eq!(
            parse_any_move(pos, &hub).as_ref(),
            Ok(mv),
            "{}: '{hub}'",
            R::NAME
        );
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 10 {
        return;
    }
    let variant = common::variant(data[0]);
    let plies = data[1] as usize % 80;
    let mut rng = common::Rng::new(&data[2..10]);
    let text = String::from_utf8_lossy(&data[10..]);
    with_variant!(variant, R => {
        let positions = common::playout::<R>(&mut rng, plies);
        check::<R>(&positions[0], &text);
        if let Some(last) = positions.last() {
            check::<R>(last, &text);
        }
    });
});
