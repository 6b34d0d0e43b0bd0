//! Endgame-database slice files: `egdb::file::decode` (`SliceFile::open` on the bytes,
//! then every block read and unpacked) and `file::unpack` alone. Input: a flags byte,
//! 3 bytes of the number of entries expected, then the file. The variant and material
//! expected are those the file names (a mismatch is a plain early error); with flag
//! bit 1 the number of entries too. With flag bit 0 the block checksums and the header
//! checksum are recomputed, so that mutations get past them.

#![no_main]

mod common;

use dama::egdb::file::{decode, unpack};
use dama::egdb::material::Material;
use libfuzzer_sys::fuzz_target;

fn u32_at(b: &[u8], i: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(i..i + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], i: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(i..i + 8)?.try_into().ok()?))
}

/// Rewrites the block checksums and the header checksum where the layout allows.
fn repair(file: &mut [u8]) -> Option<()> {
    let n = *file.get(12)? as usize;
    let fixed = 13 + n + 4 + 1 + 8 + 4 + 4;
    let blocks = u32_at(file, fixed - 4)? as usize;
    if blocks > 4096 {
        return None;
    }
    let header_len = fixed + 16 * blocks + 8;
    let payload = header_len + 8;
    file.get(..payload)?;
    for b in 0..blocks {
        let from = u64_at(file, fixed + 8 * b)? as usize;
        let to = u64_at(file, fixed + 8 * (b + 1))? as usize;
        let block = file.get(payload.checked_add(from)?..payload.checked_add(to)?)?;
        let sum = common::fnv1a64(block);
        let at = fixed + 8 * (blocks + 1) + 8 * b;
        file[at..at + 8].copy_from_slice(&sum.to_le_bytes());
    }
    let sum = common::fnv1a64(&file[..header_len]);
    file[header_len..payload].copy_from_slice(&sum.to_le_bytes());
    Some(())
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let flags = data[0];
    let mut entries = u64::from(u32::from_le_bytes([data[1], data[2], data[3], 0]));
    let mut file = data[4..].to_vec();
    if flags & 1 == 1 {
        let _ = repair(&mut file);
    }
    let mut out = Vec::new();
    let _ = unpack(&file, entries as usize, &mut out);
    let n = file.get(12).copied().unwrap_or(0) as usize;
    let variant = file
        .get(13..13 + n)
        .map(|b| String::from_utf8_lossy(b).into_owned())
        .unwrap_or_default();
    let material = match file.get(13 + n..17 + n) {
        Some(m) => Material {
            white_men: m[0],
            white_kings: m[1],
            black_men: m[2],
            black_kings: m[3],
        },
        None => Material {
            white_men: 1,
            white_kings: 0,
            black_men: 1,
            black_kings: 0,
        },
    };
    if flags & 2 == 2 {
        match u64_at(&file, 18 + n) {
            Some(count) if count <= 1 << 20 => entries = count,
            _ => {}
        }
    }
    if let Ok(values) = decode(&file, &variant, material, entries) {
        assert_eq!(values.len() as u64, entries);
    }
});
