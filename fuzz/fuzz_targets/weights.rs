//! Classic evaluation weights files: `eval::classic::Weights::parse`. Weights that read
//! must write back (`to_text`) to the same weights and evaluate the start position and
//! a random playout's positions in every variant.

#![no_main]

mod common;

use dama::eval::classic::{evaluate, Weights};
use dama::{with_variant, Rules, Variant};
use libfuzzer_sys::fuzz_target;

fn check<R: Rules>(w: &Weights, seed: &[u8]) {
    let mut rng = common::Rng::new(seed);
    for pos in common::playout::<R>(&mut rng, 40) {
        let _ = evaluate(&pos, w);
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(w) = Weights::parse(&text) else {
        return;
    };
    let back = Weights::parse(&w.to_text()).expect("weights read write back readable");
    assert_eq!(back.to_text(), w.to_text());
    for v in Variant::ALL {
        with_variant!(v, R => check::<R>(&w, data));
    }
});
