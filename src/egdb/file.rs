//! The slice file: a header with a table of independently compressed blocks, each with
//! its own checksum, then the blocks. A probe reads only the block it needs (a
//! positional read), so a slice of hundreds of megabytes costs nothing until used and
//! then only what is touched. A file that is truncated, corrupt, of another format
//! version, another variant or another slice is refused with a message saying which.
//!
//! Layout (integers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `DAMAEGDB` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 1 + n | variant name, length-prefixed |
//! | 4 | material: white men, white kings, black men, black kings |
//! | 1 | metric: win/draw/loss with distance to capture, 1 = one byte a position (distances up to 127), 2 = two bytes (little-endian [`super::Value::encode`]) |
//! | 8 | entries (positions of both sides to move, by [`super::Indexer`]) |
//! | 4 | entries per block |
//! | 4 | blocks |
//! | 8 x (blocks + 1) | offset of each block in the payload, and the payload length |
//! | 8 x blocks | FNV-1a 64 of each block's bytes |
//! | 8 | FNV-1a 64 of every header byte before it |
//! | ... | payload: each block run-length coded ([`pack`]) |

use super::material::Material;
use super::value::{Entry, Value};

/// The magic bytes that open a slice file.
pub const MAGIC: &[u8; 8] = b"DAMAEGDB";
/// The format version written and the only one read.
pub const FORMAT_VERSION: u32 = 3;
/// Metric byte: one byte a position ([`super::Value::byte_of_entry`]).
pub const METRIC_DTC: u8 = 1;
/// Metric byte: two bytes a position, little-endian [`super::Value::encode`].
pub const METRIC_DTC_WIDE: u8 = 2;
/// Positions per compressed block.
pub const BLOCK: usize = 1 << 16;

/// FNV-1a, 64 bits.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Run-length coding: a control byte `c` below 128 is followed by `c + 1` literal
/// bytes; `c` from 128 repeats the next byte `c - 126` times (2 to 129).
pub fn pack(data: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    let mut literal_start = 0;
    let flush = |out: &mut Vec<u8>, from: usize, to: usize| {
        let mut s = from;
        while s < to {
            let n = (to - s).min(128);
            out.push((n - 1) as u8);
            out.extend_from_slice(&data[s..s + n]);
            s += n;
        }
    };
    while i < data.len() {
        let b = data[i];
        let mut run = 1;
        while i + run < data.len() && data[i + run] == b && run < 129 {
            run += 1;
        }
        if run >= 2 {
            flush(out, literal_start, i);
            out.push((run + 126) as u8);
            out.push(b);
            i += run;
            literal_start = i;
        } else {
            i += 1;
        }
    }
    flush(out, literal_start, data.len());
}

/// Decodes [`pack`]'s output, which must give exactly `len` bytes (no more are
/// written to `out`, whatever `packed` holds).
pub fn unpack(packed: &[u8], len: usize, out: &mut Vec<u8>) -> Result<(), String> {
    let start = out.len();
    let too_many = || format!("a block holds more than the {len} values expected");
    let mut i = 0;
    while i < packed.len() {
        let c = packed[i] as usize;
        i += 1;
        if c < 128 {
            let lit = packed
                .get(i..i + c + 1)
                .ok_or("a literal run goes past the block")?;
            if out.len() - start + lit.len() > len {
                return Err(too_many());
            }
            out.extend_from_slice(lit);
            i += c + 1;
        } else {
            let b = *packed.get(i).ok_or("a repeat has no byte")?;
            if out.len() - start + (c - 126) > len {
                return Err(too_many());
            }
            out.extend(std::iter::repeat_n(b, c - 126));
            i += 1;
        }
    }
    if out.len() - start != len {
        return Err(format!(
            "a block holds {} values where {len} were expected",
            out.len() - start
        ));
    }
    Ok(())
}

/// The bytes of a slice file holding `values`: one byte a position when every
/// distance fits in one, else two.
pub fn encode(variant: &str, material: Material, values: &[Entry]) -> Vec<u8> {
    let narrow: Option<Vec<u8>> = values.iter().map(|&e| Value::byte_of_entry(e)).collect();
    let metric = if narrow.is_some() {
        METRIC_DTC
    } else {
        METRIC_DTC_WIDE
    };
    let blocks = values.len().div_ceil(BLOCK);
    let mut payload = Vec::new();
    let mut offsets = Vec::with_capacity(blocks + 1);
    let mut sums = Vec::with_capacity(blocks);
    for b in 0..blocks {
        let chunk = &values[b * BLOCK..((b + 1) * BLOCK).min(values.len())];
        let start = payload.len();
        offsets.push(start as u64);
        match &narrow {
            Some(bytes) => pack(&bytes[b * BLOCK..b * BLOCK + chunk.len()], &mut payload),
            None => {
                let bytes: Vec<u8> = chunk.iter().flat_map(|e| e.to_le_bytes()).collect();
                pack(&bytes, &mut payload);
            }
        }
        sums.push(checksum(&payload[start..]));
    }
    offsets.push(payload.len() as u64);
    let mut out = Vec::with_capacity(payload.len() + 64 + 16 * offsets.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(variant.len() as u8);
    out.extend_from_slice(variant.as_bytes());
    out.extend_from_slice(&[
        material.white_men,
        material.white_kings,
        material.black_men,
        material.black_kings,
    ]);
    out.push(metric);
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&(blocks as u32).to_le_bytes());
    for o in offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    for s in sums {
        out.extend_from_slice(&s.to_le_bytes());
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Where a slice file's bytes come from: the file itself, or bytes in memory.
pub trait Source {
    /// `len` bytes from `offset`, or an error when there are fewer.
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>, String>;
    /// The total length.
    fn size(&self) -> u64;
}

impl Source for [u8] {
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>, String> {
        usize::try_from(offset)
            .ok()
            .and_then(|o| self.get(o..o.checked_add(len)?))
            .map(|s| s.to_vec())
            .ok_or_else(|| "the file is truncated".to_string())
    }

    fn size(&self) -> u64 {
        <[u8]>::len(self) as u64
    }
}

impl Source for std::fs::File {
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>, String> {
        use std::os::unix::fs::FileExt;
        let mut buf = vec![0u8; len];
        FileExt::read_exact_at(self, &mut buf, offset).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => "the file is truncated".to_string(),
            _ => format!("cannot read: {e}"),
        })?;
        Ok(buf)
    }

    fn size(&self) -> u64 {
        self.metadata().map(|m| m.len()).unwrap_or(0)
    }
}

/// An opened slice file: its header checked, its blocks read on demand.
pub struct SliceFile<S: Source + ?Sized> {
    entries: u64,
    wide: bool,
    block: usize,
    offsets: Vec<u64>,
    sums: Vec<u64>,
    payload: u64,
    source: Box<S>,
}

impl<S: Source + ?Sized> SliceFile<S> {
    /// Reads and checks the header: the magic, the format version, the header checksum,
    /// the variant, the slice, the number of entries and the block table.
    pub fn open(
        source: Box<S>,
        variant: &str,
        material: Material,
        entries: u64,
    ) -> Result<SliceFile<S>, String> {
        let magic = source
            .read_at(0, MAGIC.len())
            .map_err(|_| "not a dama endgame database file (bad magic)".to_string())?;
        if magic != MAGIC {
            return Err("not a dama endgame database file (bad magic)".into());
        }
        let version = u32::from_le_bytes(source.read_at(8, 4)?.try_into().unwrap());
        if version != FORMAT_VERSION {
            return Err(format!(
                "format version {version}, but this dama reads version {FORMAT_VERSION}: rebuild it"
            ));
        }
        let n = source.read_at(12, 1)?[0] as usize;
        let fixed = 13 + n + 4 + 1 + 8 + 4 + 4;
        let head = source.read_at(0, fixed)?;
        let blocks = u32::from_le_bytes(head[fixed - 4..fixed].try_into().unwrap()) as usize;
        if blocks as u64 > entries / BLOCK as u64 + 2 {
            return Err("inconsistent block table".into());
        }
        let header_len = fixed + 8 * (blocks + 1) + 8 * blocks;
        let header = source.read_at(0, header_len + 8)?;
        let (body, sum) = header.split_at(header_len);
        if checksum(body) != u64::from_le_bytes(sum.try_into().unwrap()) {
            return Err("header checksum mismatch: the file is corrupt".into());
        }
        let mut c = Cursor {
            bytes: body,
            at: 13,
        };
        let name = String::from_utf8_lossy(c.take(n, "header")?).into_owned();
        if name != variant {
            return Err(format!("the file is for {name}, not {variant}"));
        }
        let m = c.take(4, "header")?;
        let got = Material {
            white_men: m[0],
            white_kings: m[1],
            black_men: m[2],
            black_kings: m[3],
        };
        if got != material {
            return Err(format!("the file holds slice {got}, not {material}"));
        }
        let metric = c.take(1, "header")?[0];
        if metric != METRIC_DTC && metric != METRIC_DTC_WIDE {
            return Err(format!("unknown metric {metric}"));
        }
        let count = c.u64("header")?;
        if count != entries {
            return Err(format!(
                "the file holds {count} positions where {entries} were expected"
            ));
        }
        let block = c.u32("header")? as usize;
        let _ = c.u32("header")?;
        if block == 0 || blocks != (count as usize).div_ceil(block) {
            return Err("inconsistent block table".into());
        }
        let mut offsets = Vec::with_capacity(blocks + 1);
        for _ in 0..=blocks {
            offsets.push(c.u64("block table")?);
        }
        let mut sums = Vec::with_capacity(blocks);
        for _ in 0..blocks {
            sums.push(c.u64("block table")?);
        }
        let payload = (header_len + 8) as u64;
        if offsets.windows(2).any(|w| w[0] > w[1])
            || offsets.first() != Some(&0)
            || payload.checked_add(offsets[blocks]) != Some(source.size())
        {
            return Err("the file is truncated or its block table is inconsistent".into());
        }
        Ok(SliceFile {
            entries,
            wide: metric == METRIC_DTC_WIDE,
            block,
            offsets,
            sums,
            payload,
            source,
        })
    }

    /// Positions per block.
    pub fn block_len(&self) -> usize {
        self.block
    }

    /// The number of blocks.
    pub fn blocks(&self) -> usize {
        self.sums.len()
    }

    /// The entries of block `b`, read and checked now.
    pub fn block(&self, b: usize) -> Result<Vec<Entry>, String> {
        let (from, to) = (self.offsets[b], self.offsets[b + 1]);
        let packed = self
            .source
            .read_at(self.payload + from, (to - from) as usize)?;
        if checksum(&packed) != self.sums[b] {
            return Err(format!("block {b}: checksum mismatch: the file is corrupt"));
        }
        let len = self.block.min(self.entries as usize - b * self.block);
        let width = if self.wide { 2 } else { 1 };
        let mut bytes = Vec::with_capacity(len * width);
        unpack(&packed, len * width, &mut bytes).map_err(|e| format!("block {b}: {e}"))?;
        Ok(if self.wide {
            bytes
                .chunks_exact(2)
                .map(|p| Entry::from_le_bytes([p[0], p[1]]))
                .collect()
        } else {
            bytes.into_iter().map(Value::entry_of_byte).collect()
        })
    }

    /// Every entry, every block checked.
    pub fn read_all(&self) -> Result<Vec<Entry>, String> {
        let mut values = Vec::with_capacity(self.entries as usize);
        for b in 0..self.blocks() {
            values.extend_from_slice(&self.block(b)?);
        }
        Ok(values)
    }
}

/// A reader over the header fields.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let s = self
            .bytes
            .get(self.at..self.at + n)
            .ok_or_else(|| format!("the file ends inside the {what}"))?;
        self.at += n;
        Ok(s)
    }

    fn u32(&mut self, what: &str) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }

    fn u64(&mut self, what: &str) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8, what)?.try_into().unwrap()))
    }
}

/// The entries stored in a slice file's bytes, every block checked, the header checked
/// against the expected variant, material and number of entries.
pub fn decode(
    bytes: &[u8],
    variant: &str,
    material: Material,
    entries: u64,
) -> Result<Vec<Entry>, String> {
    let source: Box<[u8]> = bytes.into();
    SliceFile::open(source, variant, material, entries)?.read_all()
}
