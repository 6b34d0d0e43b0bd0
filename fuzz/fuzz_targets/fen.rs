//! `dama::fen::parse_fen` in every variant. A FEN that reads must write back
//! (`to_fen`) to one that reads as the same position, and its moves must generate and
//! play with the incremental hash equal to the recomputed one.

#![no_main]

use dama::fen::{parse_fen, to_fen};
use dama::{movegen, with_variant, Rules, Variant};
use libfuzzer_sys::fuzz_target;

fn check<R: Rules>(text: &str) {
    let Ok(pos) = parse_fen::<R>(text) else {
        return;
    };
    let back = to_fen(&pos);
    let again = parse_fen::<R>(&back).unwrap_or_else(|e| {
        panic!(
            "{}: '{text}' reads but its FEN '{back}' does not: {e}",
            R::NAME
        )
    });
    assert_eq!(again, pos, "{}: '{text}' -> '{back}'", R::NAME);
    assert_eq!(to_fen(&again), back);
    for mv in movegen::legal_moves(&pos).iter() {
        let next = pos.play(mv);
        assert_eq!(next.hash(), next.compute_hash(), "{}: '{text}'", R::NAME);
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for v in Variant::ALL {
        with_variant!(v, R => check::<R>(&text));
    }
});
