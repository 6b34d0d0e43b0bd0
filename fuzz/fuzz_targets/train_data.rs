//! Training-data files: `learn::data::check_header_any` on the file's first bytes, then
//! each 32-byte record with `Record::from_bytes` and `Record::position` in the variant
//! the header names (what `learn::data::read_any` does with a file's bytes), and
//! `Record::from_bytes` on the whole input.

#![no_main]

use dama::learn::data::{check_header_any, Record, HEADER_BYTES, RECORD_BYTES};
use dama::{with_variant, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = Record::from_bytes(data);
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    if check_header_any(data, &names).is_err() {
        return;
    }
    let variant = Variant::ALL
        .into_iter()
        .find(|v| check_header_any(data, &[v.name()]).is_ok())
        .expect("the header names one of them");
    for chunk in data[HEADER_BYTES..].chunks_exact(RECORD_BYTES) {
        if let Ok(r) = Record::from_bytes(chunk) {
            assert_eq!(Record::from_bytes(&r.to_bytes()), Ok(r));
            with_variant!(variant, R => {
                let _ = r.position::<R>();
            });
        }
    }
});
