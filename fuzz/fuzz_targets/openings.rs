//! Openings files: `play::opening::read_openings` in the variant the first byte names,
//! then, for each opening read, `opening_game` and `opening_moves_text` (what a match
//! does with it), which must succeed.

#![no_main]

mod common;

use dama::play::opening::{opening_game, opening_moves_text, read_openings};
use dama::{with_variant, Rules};
use libfuzzer_sys::fuzz_target;

fn check<R: Rules>(text: &str) {
    let Ok(openings) = read_openings::<R>(text) else {
        return;
    };
    for o in &openings {
        opening_game::<R>(o).expect("an opening read plays");
        opening_moves_text::<R>(o).expect("an opening read writes");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&v, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    with_variant!(common::variant(v), R => check::<R>(&text));
});
