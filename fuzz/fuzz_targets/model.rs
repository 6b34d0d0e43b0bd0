//! Model files: `eval::model::Model::from_bytes` for each variant's name. Input: a
//! flags byte, a variant byte, then the file. With flag bit 0 the last 8 bytes are
//! replaced by the FNV-1a checksum of the others, so that mutations get past the
//! checksum to the header and weights. A model that reads must write back bytes that
//! read as the same model, and evaluate a position.

#![no_main]

mod common;

use dama::eval::model::Model;
use dama::{with_variant, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let variant = common::variant(data[1]);
    let mut file = data[2..].to_vec();
    if data[0] & 1 == 1 && file.len() >= 8 {
        let end = file.len() - 8;
        let sum = common::fnv1a64(&file[..end]);
        file[end..].copy_from_slice(&sum.to_le_bytes());
    }
    for name in [variant.name(), "dameo"] {
        if let Ok(model) = Model::from_bytes(&file, name) {
            let written = model.to_bytes();
            let again =
                Model::from_bytes(&written, name).expect("a model read writes back readable");
            assert_eq!(
                again.to_bytes(),
                written,
                "a model read writes back otherwise"
            );
            with_variant!(variant, R => {
                let _ = model.net.evaluate_position(&Position::<R>::start());
            });
        }
    }
});
