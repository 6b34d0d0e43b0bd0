//! Zobrist keys from a fixed seed, computed at compile time, and the full hash of a
//! position from scratch (the reference the incremental hash is checked against).

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

const SEED: u64 = 0x6461_6D61_2D7A_6F62; // "dama-zob"

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// `PIECE_KEYS[color][king][square]`.
pub static PIECE_KEYS: [[[u64; 64]; 2]; 2] = {
    let mut keys = [[[0u64; 64]; 2]; 2];
    let mut state = SEED;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 2 {
            let mut sq = 0;
            while sq < 64 {
                let (s, key) = splitmix(state);
                state = s;
                keys[c][k][sq] = key;
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    keys
};

/// Xored into the hash when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(SEED ^ 0xB1AC).1;

/// The key of one piece on one square.
#[inline(always)]
pub fn piece_key(color: Color, king: bool, sq: Square) -> u64 {
    PIECE_KEYS[color.index()][king as usize][sq.index()]
}

/// The hash of a position computed from scratch.
pub fn full_hash(pieces: [Bitboard; 2], kings: Bitboard, side: Color) -> u64 {
    let mut h = if side == Color::Black {
        BLACK_TO_MOVE
    } else {
        0
    };
    for c in Color::ALL {
        for sq in pieces[c.index()] {
            h ^= piece_key(c, kings.contains(sq), sq);
        }
    }
    h
}
