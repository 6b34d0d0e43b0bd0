//! Helpers shared by the fuzz targets: the variant a byte names, random playouts
//! steered by fuzz bytes, and the FNV-1a checksum the file formats end with.

#![allow(dead_code)]

use dama::{movegen, Position, Rules, Variant};

/// The variant a byte names (its value modulo 5).
pub fn variant(b: u8) -> Variant {
    Variant::ALL[b as usize % Variant::ALL.len()]
}

/// A small deterministic generator seeded from fuzz bytes (xorshift64*).
pub struct Rng(u64);

impl Rng {
    /// A generator from up to 8 bytes (never the zero state).
    pub fn new(bytes: &[u8]) -> Rng {
        let mut s = [0u8; 8];
        let n = bytes.len().min(8);
        s[..n].copy_from_slice(&bytes[..n]);
        Rng(u64::from_le_bytes(s) | 1)
    }

    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The positions of a random playout of at most `plies` plies from the start, the
/// start included; the moves are picked by `rng`.
pub fn playout<R: Rules>(rng: &mut Rng, plies: usize) -> Vec<Position<R>> {
    let mut pos = Position::<R>::start();
    let mut out = vec![pos];
    for _ in 0..plies {
        let moves = movegen::legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let mv = moves[(rng.next() % moves.len() as u64) as usize];
        pos = pos.play(&mv);
        out.push(pos);
    }
    out
}

/// FNV-1a, 64 bits: the checksum of model, book and database files.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
