//! PDN text: `pdn::parse_pdn`, then each game read with `read_game` in the variant it
//! names (else every variant) with the variant's `parse_move`, as `read_pdn_game` does.
//! Written to change little when the reader takes bytes.

#![no_main]

use dama::notation::parse_move;
use dama::pdn::{parse_pdn, read_game, PastEnd, PdnGame};
use dama::{with_variant, Rules, Variant};
use libfuzzer_sys::fuzz_target;

fn read<R: Rules>(g: &PdnGame) {
    let _ = read_game(g.tag("FEN"), &g.moves, parse_move::<R>, PastEnd::Refuse);
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for g in parse_pdn(&text) {
        let variants = match g.variant() {
            Some(v) => vec![v],
            None => Variant::ALL.to_vec(),
        };
        for v in variants {
            with_variant!(v, R => read::<R>(&g));
        }
    }
});
