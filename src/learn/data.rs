//! The training-data file written by `dama gen` and read by `dama train`.
//!
//! A file is a 64-byte header followed by fixed-size 32-byte records, all little-endian:
//!
//! | offset | size | header field |
//! |---|---|---|
//! | 0 | 8 | magic `DAMADATA` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | record size (32) |
//! | 16 | 16 | variant name, ASCII, zero-padded |
//! | 32 | 8 | the run's seed |
//! | 40 | 8 | nodes per move (0: a depth limit) |
//! | 48 | 4 | depth per move (0: a node limit) |
//! | 52 | 2 | random opening plies |
//! | 54 | 2 | plies before a draw is adjudicated |
//! | 56 | 8 | FNV-1a 64 of the evaluation's name (`classic`, `nn` or a model path) |
//!
//! The run's settings are there so that `dama gen --resume` refuses to continue a file
//! with other settings than those that began it.
//!
//! | offset | size | record field |
//! |---|---|---|
//! | 0 | 8 | White's pieces (bitboard, a1 = bit 0) |
//! | 8 | 8 | Black's pieces |
//! | 16 | 8 | the kings of both sides |
//! | 24 | 2 | search score, hundredths of a man, side to move's view (i16) |
//! | 26 | 1 | side to move: 0 White, 1 Black |
//! | 27 | 1 | game result, side to move's view: 0 loss, 1 draw, 2 win |
//! | 28 | 4 | game number (u32) |
//!
//! A game's records are written together, in one write, so a file cut short by a crash
//! holds whole games and at most one partial game at its end, which `dama gen --resume`
//! drops and plays again.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Color;
use std::io::{Read, Write};
use std::path::Path;

/// The file's magic bytes.
pub const MAGIC: &[u8; 8] = b"DAMADATA";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 64;
/// Bytes of one record.
pub const RECORD_BYTES: usize = 32;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// The kings of both sides.
    pub kings: u64,
    /// The search score from the side to move's view (hundredths of a man).
    pub score: i16,
    /// The side to move.
    pub side: Color,
    /// The game's result from the side to move's view: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// The game the position comes from.
    pub game: u32,
}

impl Record {
    /// The record of `pos` with its score and result.
    pub fn of<R: Rules>(pos: &Position<R>, score: i16, result: u8, game: u32) -> Record {
        Record {
            white: pos.pieces(Color::White).0,
            black: pos.pieces(Color::Black).0,
            kings: pos.all_kings().0,
            score,
            side: pos.side(),
            result,
            game,
        }
    }

    /// The position (draw counters at zero), or an error when the record is not a
    /// position of `R`.
    pub fn position<R: Rules>(&self) -> Result<Position<R>, String> {
        Position::new(
            [Bitboard(self.white), Bitboard(self.black)],
            Bitboard(self.kings),
            self.side,
        )
        .map_err(|e| e.to_string())
    }

    /// The 32 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..8].copy_from_slice(&self.white.to_le_bytes());
        b[8..16].copy_from_slice(&self.black.to_le_bytes());
        b[16..24].copy_from_slice(&self.kings.to_le_bytes());
        b[24..26].copy_from_slice(&self.score.to_le_bytes());
        b[26] = (self.side == Color::Black) as u8;
        b[27] = self.result;
        b[28..32].copy_from_slice(&self.game.to_le_bytes());
        b
    }

    /// Reads a record ([`RECORD_BYTES`] bytes); an error names what is wrong with it.
    pub fn from_bytes(b: &[u8]) -> Result<Record, String> {
        if b.len() != RECORD_BYTES {
            return Err(format!(
                "a record has {RECORD_BYTES} bytes, not {}",
                b.len()
            ));
        }
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let side = match b[26] {
            0 => Color::White,
            1 => Color::Black,
            x => return Err(format!("side to move {x} is not 0 or 1")),
        };
        if b[27] > 2 {
            return Err(format!("result {} is not 0, 1 or 2", b[27]));
        }
        let r = Record {
            white: u64_at(0),
            black: u64_at(8),
            kings: u64_at(16),
            score: i16::from_le_bytes([b[24], b[25]]),
            side,
            result: b[27],
            game: u32::from_le_bytes(b[28..32].try_into().expect("4 bytes")),
        };
        if r.white & r.black != 0 || r.kings & !(r.white | r.black) != 0 {
            return Err("pieces overlap".into());
        }
        Ok(r)
    }
}

/// The settings of the run that wrote a file (checked on resume).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunInfo {
    /// The run's seed.
    pub seed: u64,
    /// Nodes per move (0 when limited by depth).
    pub nodes: u64,
    /// Depth per move (0 when limited by nodes).
    pub depth: u32,
    /// Random opening plies.
    pub opening_plies: u16,
    /// Plies before a draw is adjudicated.
    pub max_plies: u16,
    /// FNV-1a 64 of the evaluation's name.
    pub evaluation: u64,
}

impl RunInfo {
    /// FNV-1a 64 of a name.
    pub fn fingerprint(name: &str) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in name.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    }

    fn read(h: &[u8]) -> RunInfo {
        let u64_at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().expect("8 bytes"));
        RunInfo {
            seed: u64_at(32),
            nodes: u64_at(40),
            depth: u32::from_le_bytes(h[48..52].try_into().expect("4 bytes")),
            opening_plies: u16::from_le_bytes([h[52], h[53]]),
            max_plies: u16::from_le_bytes([h[54], h[55]]),
            evaluation: u64_at(56),
        }
    }

    /// The first setting that differs from `other`, as a message.
    pub fn mismatch(&self, other: &RunInfo) -> Option<String> {
        let pairs: [(&str, u64, u64); 6] = [
            ("seed", self.seed, other.seed),
            ("nodes", self.nodes, other.nodes),
            ("depth", self.depth as u64, other.depth as u64),
            (
                "opening plies",
                self.opening_plies as u64,
                other.opening_plies as u64,
            ),
            ("max plies", self.max_plies as u64, other.max_plies as u64),
            ("evaluation", self.evaluation, other.evaluation),
        ];
        pairs.iter().find(|(_, a, b)| a != b).map(|(name, a, b)| {
            if *name == "evaluation" {
                "the file was made with another evaluation (or other endgame databases or openings)"
                    .to_string()
            } else {
                format!("the file was made with {name} {a}, this run has {b}")
            }
        })
    }
}

/// The header of a data file for `variant`, written by a run with `info`.
pub fn header(variant: &str, info: &RunInfo) -> [u8; HEADER_BYTES] {
    let mut h = [0u8; HEADER_BYTES];
    h[32..40].copy_from_slice(&info.seed.to_le_bytes());
    h[40..48].copy_from_slice(&info.nodes.to_le_bytes());
    h[48..52].copy_from_slice(&info.depth.to_le_bytes());
    h[52..54].copy_from_slice(&info.opening_plies.to_le_bytes());
    h[54..56].copy_from_slice(&info.max_plies.to_le_bytes());
    h[56..64].copy_from_slice(&info.evaluation.to_le_bytes());
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_BYTES as u32).to_le_bytes());
    let name = variant.as_bytes();
    h[16..16 + name.len().min(16)].copy_from_slice(&name[..name.len().min(16)]);
    h
}

/// Checks a header: the magic, the version, the record size and that the file is for
/// `variant`.
pub fn check_header(h: &[u8], variant: &str) -> Result<(), String> {
    check_header_any(h, &[variant])
}

/// Checks a data file's header for a file of any of `variants`.
pub fn check_header_any(h: &[u8], variants: &[&str]) -> Result<(), String> {
    if h.len() < HEADER_BYTES || &h[0..8] != MAGIC {
        return Err("not a dama training-data file (bad magic)".into());
    }
    let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(format!(
            "data format version {version}, this build reads version {VERSION}"
        ));
    }
    let size = u32::from_le_bytes(h[12..16].try_into().expect("4 bytes"));
    if size as usize != RECORD_BYTES {
        return Err(format!("record size {size}, expected {RECORD_BYTES}"));
    }
    let name: String = h[16..32]
        .iter()
        .take_while(|b| **b != 0)
        .map(|b| *b as char)
        .collect();
    if !variants.contains(&name.as_str()) {
        return Err(format!(
            "the data is for {name}, not {}",
            variants.join(" or ")
        ));
    }
    Ok(())
}

/// Reads every record of a data file for `variant`. A trailing partial record (a write
/// cut short) is ignored; any bad record is an error naming its index.
pub fn read(path: &Path, variant: &str) -> Result<Vec<Record>, String> {
    read_any(path, &[variant])
}

/// Reads every record of a data file made for any of `variants` (training on a related
/// variant's positions: same board, same pieces).
pub fn read_any(path: &Path, variants: &[&str]) -> Result<Vec<Record>, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    check_header_any(&bytes, variants).map_err(|e| format!("{}: {e}", path.display()))?;
    let body = &bytes[HEADER_BYTES..];
    body.chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, c)| {
            Record::from_bytes(c).map_err(|e| format!("{}: record {i}: {e}", path.display()))
        })
        .collect()
}

/// Appends whole games to a data file, one write and flush per game.
pub struct Writer {
    file: std::fs::File,
}

impl Writer {
    /// Creates `path` with a fresh header (an existing file is replaced).
    pub fn create(path: &Path, variant: &str, info: &RunInfo) -> Result<Writer, String> {
        let mut file =
            std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        file.write_all(&header(variant, info))
            .and_then(|_| file.flush())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Writer { file })
    }

    /// Opens an existing file to continue it: checks the header, drops a trailing
    /// partial record and the last game (it may have been cut short) and returns the
    /// writer with the numbers of the games that are whole in the file.
    pub fn resume(
        path: &Path,
        variant: &str,
        info: &RunInfo,
    ) -> Result<(Writer, Vec<u32>), String> {
        let err = |e: std::io::Error| format!("{}: {e}", path.display());
        let mut head = [0u8; HEADER_BYTES];
        std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut head))
            .map_err(|e| format!("{}: {e} (not a whole data-file header)", path.display()))?;
        check_header(&head, variant).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(m) = RunInfo::read(&head).mismatch(info) {
            return Err(format!("{}: cannot resume: {m}", path.display()));
        }
        let records = read(path, variant)?;
        let mut keep = records.len();
        if let Some(last) = records.last() {
            while keep > 0 && records[keep - 1].game == last.game {
                keep -= 1;
            }
        }
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(err)?;
        file.set_len((HEADER_BYTES + keep * RECORD_BYTES) as u64)
            .map_err(err)?;
        let mut games: Vec<u32> = records[..keep].iter().map(|r| r.game).collect();
        games.dedup();
        games.sort_unstable();
        games.dedup();
        let mut w = Writer { file };
        use std::io::Seek;
        w.file.seek(std::io::SeekFrom::End(0)).map_err(err)?;
        Ok((w, games))
    }

    /// Appends one game's records in a single write and flushes them.
    pub fn write_game(&mut self, records: &[Record]) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(records.len() * RECORD_BYTES);
        for r in records {
            buf.extend_from_slice(&r.to_bytes());
        }
        self.file.write_all(&buf)?;
        self.file.flush()
    }
}
