//! The model file: a network with a header saying what it is and how it was made.
//!
//! Layout (little-endian):
//!
//! | part | bytes |
//! |---|---|
//! | magic `DAMANET\n` | 8 |
//! | format version (u32, 1) | 4 |
//! | header length H (u32) | 4 |
//! | header: UTF-8 `key: value` lines | H |
//! | weights: w1, b1 (i16), then per head: w2 (i16), b2 (i32), w3 (i16), b3 (i32), w4 (i16), b4 (i32) | fixed by the architecture |
//! | checksum: FNV-1a 64 of every byte before it | 8 |
//!
//! Header keys: `variant`, `architecture` ([`ARCHITECTURE`] for the default width and
//! one head; [`architecture`]`(w, n)` names a first layer of width `w` (`2xw`) and `n`
//! heads chosen by the piece count), `start-pieces` (with
//! several heads: the pieces of the starting position, which set the heads' ranges),
//! `scale` (hundredths of a man per unit of logit), and free-form provenance: `data`, `command`,
//! `positions`, `loss` ... A reader checks the magic, the version, the length, the
//! checksum, the architecture and the variant, and refuses the file with a message
//! naming the first thing that is wrong.

use super::network::{Network, INPUTS, L2, L3, WIDTHS};

/// The file's magic bytes.
pub const MAGIC: &[u8; 8] = b"DAMANET\n";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// The architecture of the default width ([`L1`](super::network::L1)) with one head.
pub const ARCHITECTURE: &str = "perspective 256x2 -> 2x128 crelu -> 32 crelu -> 32 crelu -> 1";

/// Most heads a model may have.
pub const MAX_HEADS: usize = 8;

/// The architecture string of a network with a first layer of `width` and `heads` heads.
pub fn architecture(width: usize, heads: usize) -> String {
    let base =
        format!("perspective {INPUTS}x2 -> 2x{width} crelu -> {L2} crelu -> {L3} crelu -> 1");
    if heads <= 1 {
        base
    } else {
        format!("{base}, {heads} heads by piece count")
    }
}

/// The first-layer width and the number of heads an architecture string names, if this
/// build runs it.
fn shape_of(arch: &str) -> Option<(usize, usize)> {
    let (width, rest) = arch
        .strip_prefix(&format!("perspective {INPUTS}x2 -> 2x"))?
        .split_once(' ')?;
    let width: usize = width.parse().ok()?;
    if !WIDTHS.contains(&width) {
        return None;
    }
    let tail = format!("crelu -> {L2} crelu -> {L3} crelu -> 1");
    if rest == tail {
        return Some((width, 1));
    }
    let n: usize = rest
        .strip_prefix(&tail)?
        .strip_prefix(", ")?
        .strip_suffix(" heads by piece count")?
        .parse()
        .ok()?;
    (2..=MAX_HEADS).contains(&n).then_some((width, n))
}

/// A model: the network and its header.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The header lines, in order (`variant`, `architecture`, `scale` first).
    pub header: Vec<(String, String)>,
    /// The network.
    pub net: Network,
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Reads little-endian integers from a checked buffer.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn i16(&mut self) -> i16 {
        let x = i16::from_le_bytes([self.bytes[self.at], self.bytes[self.at + 1]]);
        self.at += 2;
        x
    }

    fn i32(&mut self) -> i32 {
        let x = i32::from_le_bytes(
            self.bytes[self.at..self.at + 4]
                .try_into()
                .expect("4 bytes"),
        );
        self.at += 4;
        x
    }
}

/// Bytes of the first layer's weights at `width`.
const fn first_bytes(width: usize) -> usize {
    (INPUTS * width + width) * 2
}

/// Bytes of one head's weights after a first layer of `width`.
const fn head_bytes(width: usize) -> usize {
    (2 * width * L2 + L2 * L3 + L3) * 2 + (L2 + L3 + 1) * 4
}

impl Model {
    /// The value of a header key.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// A model for `variant` with the required keys followed by `extra` ones.
    pub fn new(variant: &str, net: Network, extra: Vec<(String, String)>) -> Model {
        let mut header = vec![
            ("variant".to_string(), variant.to_string()),
            (
                "architecture".to_string(),
                architecture(net.width, net.heads.len()),
            ),
            ("scale".to_string(), net.scale.to_string()),
        ];
        if net.heads.len() > 1 {
            header.push(("start-pieces".to_string(), net.start_pieces.to_string()));
        }
        header.extend(extra);
        Model { header, net }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut text = String::new();
        for (k, v) in &self.header {
            text.push_str(&format!("{k}: {}\n", v.replace('\n', " ")));
        }
        let w = self.net.width;
        let weight_bytes = first_bytes(w) + self.net.heads.len() * head_bytes(w);
        let mut b = Vec::with_capacity(weight_bytes + text.len() + 32);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&(text.len() as u32).to_le_bytes());
        b.extend_from_slice(text.as_bytes());
        let n = &self.net;
        let i16s = |b: &mut Vec<u8>, xs: &[i16]| {
            for x in xs {
                b.extend_from_slice(&x.to_le_bytes());
            }
        };
        let i32s = |b: &mut Vec<u8>, xs: &[i32]| {
            for x in xs {
                b.extend_from_slice(&x.to_le_bytes());
            }
        };
        i16s(&mut b, &n.w1);
        i16s(&mut b, &n.b1);
        for h in &n.heads {
            i16s(&mut b, &h.w2);
            i32s(&mut b, &h.b2);
            for row in &h.w3 {
                i16s(&mut b, row);
            }
            i32s(&mut b, &h.b3);
            i16s(&mut b, &h.w4);
            i32s(&mut b, &[h.b4]);
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a model for `variant` from a file's bytes.
    pub fn from_bytes(bytes: &[u8], variant: &str) -> Result<Model, String> {
        if bytes.len() < 16 || &bytes[0..8] != MAGIC {
            return Err("not a dama model file (bad magic)".into());
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(format!(
                "model format version {version}, this build reads version {VERSION}"
            ));
        }
        let hlen = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
        let text_end = 16usize
            .checked_add(hlen)
            .filter(|&n| n <= bytes.len())
            .ok_or_else(|| {
                format!(
                    "the file has {} bytes, its header says more (truncated or corrupt)",
                    bytes.len()
                )
            })?;
        let text = std::str::from_utf8(&bytes[16..text_end])
            .map_err(|_| "the header is not UTF-8 (corrupt)".to_string())?;
        let mut header = Vec::new();
        for line in text.lines() {
            let (k, v) = line
                .split_once(": ")
                .ok_or_else(|| format!("header line '{line}' is not 'key: value'"))?;
            header.push((k.to_string(), v.to_string()));
        }
        let get = |key: &str| {
            header
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| format!("the header has no '{key}'"))
        };
        let arch = get("architecture")?;
        let (width, heads) = shape_of(arch).ok_or_else(|| {
            format!("architecture '{arch}' is not one this build runs ('{ARCHITECTURE}', with a first layer of {WIDTHS:?} and 1 to {MAX_HEADS} heads)")
        })?;
        let expected = text_end + first_bytes(width) + heads * head_bytes(width) + 8;
        if bytes.len() != expected {
            return Err(format!(
                "the file has {} bytes, its header says {expected} (truncated or corrupt)",
                bytes.len()
            ));
        }
        let body = &bytes[..expected - 8];
        let stored = u64::from_le_bytes(bytes[expected - 8..].try_into().expect("8 bytes"));
        if fnv1a(body) != stored {
            return Err("checksum mismatch (the file is corrupt)".into());
        }
        let v = get("variant")?;
        if v != variant {
            return Err(format!("the model is for {v}, not {variant}"));
        }
        let scale: i32 = get("scale")?
            .parse()
            .map_err(|_| "the scale is not an integer".to_string())?;
        if !(1..=100_000).contains(&scale) {
            return Err(format!("scale {scale} is out of range"));
        }
        let start_pieces: u32 = if heads > 1 {
            get("start-pieces")?
                .parse()
                .ok()
                .filter(|n| (2..=64).contains(n))
                .ok_or_else(|| "start-pieces is not a number of pieces".to_string())?
        } else {
            24
        };
        let mut c = Cursor {
            bytes,
            at: 16 + hlen,
        };
        let mut net = Network::zeros_wide(width, heads, start_pieces)?;
        net.w1.iter_mut().for_each(|x| *x = c.i16());
        net.b1.iter_mut().for_each(|x| *x = c.i16());
        for h in net.heads.iter_mut() {
            h.w2.iter_mut().for_each(|x| *x = c.i16());
            h.b2.iter_mut().for_each(|x| *x = c.i32());
            for row in h.w3.iter_mut() {
                row.iter_mut().for_each(|x| *x = c.i16());
            }
            h.b3.iter_mut().for_each(|x| *x = c.i32());
            h.w4.iter_mut().for_each(|x| *x = c.i16());
            h.b4 = c.i32();
        }
        debug_assert_eq!(c.at, expected - 8);
        net.scale = scale;
        Ok(Model { header, net })
    }

    /// Reads a model file for `variant`.
    pub fn read(path: &std::path::Path, variant: &str) -> Result<Model, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Model::from_bytes(&bytes, variant).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the model to `path` through a temporary file renamed at the end, so the
    /// file on disk is always whole.
    pub fn write(&self, path: &std::path::Path) -> Result<(), String> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}
