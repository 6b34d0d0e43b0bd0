//! [`Tables`]: the slices of one variant, in memory or in files of a directory, loaded
//! on first use, and the lookup of a position's [`Value`].

use super::file;
use super::index::Indexer;
use super::material::Material;
use super::value::{Entry, Value};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Color;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// A slice file opened, with the blocks read so far.
struct Opened {
    file: file::SliceFile<std::fs::File>,
    blocks: Vec<OnceLock<Result<Box<[Entry]>, String>>>,
}

/// Where a slice's values are.
enum Store {
    /// All in memory (a slice just built).
    Memory(Arc<Vec<Entry>>),
    /// In a file, opened on first use; each block is read when first needed.
    File {
        path: PathBuf,
        opened: OnceLock<Result<Opened, String>>,
    },
}

/// One slice: its numbering and where its values are.
struct Slice<R: Rules> {
    indexer: Indexer<R>,
    store: Store,
}

impl<R: Rules> Slice<R> {
    fn opened<'s>(
        &self,
        path: &Path,
        opened: &'s OnceLock<Result<Opened, String>>,
    ) -> Result<&'s Opened, String> {
        opened
            .get_or_init(|| {
                let f = std::fs::File::open(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let file = file::SliceFile::open(
                    Box::new(f),
                    R::NAME,
                    self.indexer.material(),
                    self.indexer.size(),
                )
                .map_err(|e| format!("{}: {e}", path.display()))?;
                let blocks = (0..file.blocks()).map(|_| OnceLock::new()).collect();
                Ok(Opened { file, blocks })
            })
            .as_ref()
            .map_err(|e| e.clone())
    }

    /// The stored entry of index `idx`.
    fn entry(&self, idx: u64) -> Result<Entry, String> {
        match &self.store {
            Store::Memory(v) => Ok(v[idx as usize]),
            Store::File { path, opened } => {
                let o = self.opened(path, opened)?;
                let per = o.file.block_len() as u64;
                let b = (idx / per) as usize;
                let block = o.blocks[b]
                    .get_or_init(|| {
                        o.file
                            .block(b)
                            .map(Vec::into_boxed_slice)
                            .map_err(|e| format!("{}: {e}", path.display()))
                    })
                    .as_ref()
                    .map_err(|e| e.clone())?;
                Ok(block[(idx % per) as usize])
            }
        }
    }

    /// Every value (read now from the file, every block checked).
    fn values(&self) -> Result<Arc<Vec<Entry>>, String> {
        match &self.store {
            Store::Memory(v) => Ok(v.clone()),
            Store::File { path, opened } => {
                let o = self.opened(path, opened)?;
                o.file
                    .read_all()
                    .map(Arc::new)
                    .map_err(|e| format!("{}: {e}", path.display()))
            }
        }
    }
}

/// The endgame databases of the rules `R` that are at hand.
pub struct Tables<R: Rules> {
    slices: HashMap<Material, Slice<R>>,
    /// [`Tables::probe`] answers only positions of at most this many pieces.
    probe_pieces: u32,
    /// The most pieces of any slice at hand.
    largest: u32,
}

impl<R: Rules> Default for Tables<R> {
    fn default() -> Self {
        Tables::new()
    }
}

/// The file of `material` in the database directory `dir`.
pub fn slice_path<R: Rules>(dir: &Path, material: Material) -> PathBuf {
    dir.join(R::NAME).join(format!("{}.egdb", material.stem()))
}

impl<R: Rules> Tables<R> {
    /// No slices.
    pub fn new() -> Tables<R> {
        Tables {
            slices: HashMap::new(),
            probe_pieces: u32::MAX,
            largest: 0,
        }
    }

    /// The slices whose files are in `dir/<variant>/`: their names are read now, their
    /// contents on first use. A missing directory gives no slices.
    pub fn open(dir: &Path) -> Tables<R> {
        let mut t = Tables::new();
        let Ok(entries) = std::fs::read_dir(dir.join(R::NAME)) else {
            return t;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.extension().and_then(|x| x.to_str()) != Some("egdb") {
                continue;
            }
            let Some(m) = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(Material::from_stem)
            else {
                continue;
            };
            if m.is_canonical() && m.pieces_of(Color::White) > 0 && m.pieces_of(Color::Black) > 0 {
                t.slices.insert(
                    m,
                    Slice {
                        indexer: Indexer::new(m),
                        store: Store::File {
                            path,
                            opened: OnceLock::new(),
                        },
                    },
                );
            }
        }
        t.largest = t.slices.keys().map(|m| m.pieces()).max().unwrap_or(0);
        t
    }

    /// Adds a slice held in memory (the builder's newly solved slices).
    pub fn insert(&mut self, material: Material, values: Arc<Vec<Entry>>) {
        let s = Slice {
            indexer: Indexer::new(material),
            store: Store::Memory(values),
        };
        self.slices.insert(material, s);
        self.largest = self.largest.max(material.pieces());
    }

    /// True when the slice of `material` (either orientation) is at hand.
    pub fn has(&self, material: Material) -> bool {
        self.slices.contains_key(&material.canonical())
    }

    /// The slices at hand, canonical orientation, in build order.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = self.slices.keys().copied().collect();
        v.sort_by_key(|m| (m.pieces(), m.men(), *m));
        v
    }

    /// The largest number of pieces N such that every slice of N pieces or fewer is at
    /// hand (0 when the 2-piece slices are missing).
    pub fn complete_pieces(&self) -> u32 {
        let mut n = 0;
        for p in 2..=12 {
            if Material::all_up_to(p)
                .iter()
                .filter(|m| m.pieces() == p)
                .all(|m| self.has(*m))
            {
                n = p;
            } else {
                break;
            }
        }
        n
    }

    /// Limits [`Tables::probe`] to positions of at most `pieces` pieces.
    pub fn set_probe_pieces(&mut self, pieces: u32) {
        self.probe_pieces = pieces;
    }

    /// The piece limit of [`Tables::probe`].
    pub fn probe_pieces(&self) -> u32 {
        self.probe_pieces
    }

    /// True when no slice is at hand.
    pub fn is_empty(&self) -> bool {
        self.slices.is_empty()
    }

    /// The search's probe: the value of `pos` when it has at most the probe limit of
    /// pieces, no capture is pending and its slice is at hand and readable.
    #[inline]
    pub fn probe(&self, pos: &Position<R>) -> Option<Value> {
        if pos.occupied().count() > self.probe_pieces.min(self.largest)
            || crate::movegen::has_capture(pos)
        {
            return None;
        }
        self.lookup(pos).ok().flatten()
    }

    /// A one-line account of the slices at hand: how many, the piece count they cover
    /// completely, the largest one, and where their values are (solved in memory, or
    /// read from files when first used).
    pub fn summary(&self) -> String {
        let memory = self.memory_slices();
        let whence = if memory == 0 {
            "read when first used".to_string()
        } else if memory == self.slices.len() {
            "solved in memory".to_string()
        } else {
            format!("{memory} solved in memory, the others read when first used")
        };
        format!(
            "{} slices of {}, complete to {} pieces (largest {}), {whence}",
            self.slices.len(),
            R::NAME,
            self.complete_pieces(),
            self.largest
        )
    }

    /// [`Tables::summary`] with the directory the files are read from, when any is.
    pub fn summary_in(&self, dir: &Path) -> String {
        if self.memory_slices() == self.slices.len() {
            self.summary()
        } else {
            format!("{} in {}", self.summary(), dir.display())
        }
    }

    /// The slices held in memory (solved, not read from files).
    pub fn memory_slices(&self) -> usize {
        self.slices
            .values()
            .filter(|s| matches!(s.store, Store::Memory(_)))
            .count()
    }

    /// The values of a slice (loaded now if they were not), or why they cannot be read.
    pub fn values(&self, material: Material) -> Result<Option<Arc<Vec<Entry>>>, String> {
        match self.slices.get(&material) {
            None => Ok(None),
            Some(s) => s.values().map(Some),
        }
    }

    /// The value for the side to move of playing each legal move of `pos` (`None` where
    /// the successor's slice is not at hand), with the move.
    pub fn move_values(&self, pos: &Position<R>) -> Result<Vec<(Move, Option<Value>)>, String> {
        let mut list = MoveList::new();
        crate::movegen::generate(pos, &mut list);
        let mut out = Vec::with_capacity(list.len());
        for mv in list.iter() {
            let succ = pos.play(mv);
            out.push((
                *mv,
                self.lookup(&succ)?.map(|v| v.before_move(mv.is_capture())),
            ));
        }
        Ok(out)
    }

    /// The value of `pos` for the side to move: `Ok(None)` when its slice is not at hand
    /// (or the side not to move has no piece, which no game reaches), an error when the
    /// slice's file cannot be read or is corrupt. A side to move without pieces has lost.
    pub fn lookup(&self, pos: &Position<R>) -> Result<Option<Value>, String> {
        let m = Material::of(pos);
        if m.pieces_of(pos.side()) == 0 {
            return Ok(Some(Value::Loss(0)));
        }
        if m.pieces_of(pos.side().opponent()) == 0 {
            return Ok(None);
        }
        let (q, cm) = if m.is_canonical() {
            (*pos, m)
        } else {
            (pos.turned(), m.flipped())
        };
        let Some(slice) = self.slices.get(&cm) else {
            return Ok(None);
        };
        Ok(Some(Value::decode(slice.entry(slice.indexer.index(&q))?)))
    }
}
