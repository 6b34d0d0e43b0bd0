//! PDN files as bytes: `pdn::PdnReader` (every encoding and line end it reads), then
//! each game that reads replayed with `read_game` in the variant it names (else every
//! variant) with the variant's `parse_move`, as `annotate` and `read_pdn_game` do. Also
//! `text::decode`, which the match and openings commands use on whole files.

#![no_main]

use dama::notation::parse_move;
use dama::pdn::{read_game, PastEnd, PdnGame, PdnReader};
use dama::{with_variant, Rules, Variant};
use libfuzzer_sys::fuzz_target;

fn read<R: Rules>(g: &PdnGame) {
    let _ = read_game(g.tag("FEN"), &g.moves, parse_move::<R>, PastEnd::Refuse);
}

fuzz_target!(|data: &[u8]| {
    let mut last = 0;
    for entry in PdnReader::new(data) {
        // Games are numbered 1, 2, 3 ... in order, bad ones included.
        assert_eq!(entry.number, last + 1);
        last = entry.number;
        let Ok(g) = entry.game else { continue };
        let variants = match g.variant() {
            Some(v) => vec![v],
            None => Variant::ALL.to_vec(),
        };
        for v in variants {
            with_variant!(v, R => read::<R>(&g));
        }
    }
    let _ = dama::pdn::text::decode(data);
});
