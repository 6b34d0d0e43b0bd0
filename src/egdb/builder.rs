//! Building a variant's databases slice by slice, in dependency order, into files:
//! slices whose file is already there and sound are kept, so a stopped build resumes
//! where it stopped.

use super::build::{solve, SliceStats};
use super::file;
use super::index::Indexer;
use super::material::Material;
use super::tables::{slice_path, Tables};
use crate::rules::Rules;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// What the builder reports as it goes.
#[derive(Clone, Debug)]
pub enum BuildEvent {
    /// A slice whose file was already there and sound is kept.
    Kept {
        /// The slice.
        material: Material,
    },
    /// A slice's file was there but unreadable; it is built again.
    Rebuilding {
        /// The slice.
        material: Material,
        /// Why the file was refused.
        reason: String,
    },
    /// A slice is being solved.
    Started {
        /// The slice.
        material: Material,
        /// Its place in the build order (from 1) and the number of slices.
        number: usize,
        /// The number of slices.
        of: usize,
        /// Its indices (both sides to move).
        size: u64,
    },
    /// Work done on the current slice.
    Progress {
        /// Units done.
        done: u64,
        /// Units expected.
        total: u64,
    },
    /// A slice is solved and written.
    Finished {
        /// The slice.
        material: Material,
        /// Its counts.
        stats: SliceStats,
        /// Seconds spent.
        seconds: f64,
        /// Bytes of its file.
        bytes: u64,
    },
}

/// Builds every slice of up to `pieces` pieces of the rules `R` into `dir/<variant>/`,
/// keeping the slices already built. Returns the tables, all in memory.
pub fn build_all<R: Rules>(
    dir: &Path,
    pieces: u32,
    report: &(dyn Fn(&BuildEvent) + Sync),
) -> Result<Tables<R>, String> {
    let vdir = dir.join(R::NAME);
    std::fs::create_dir_all(&vdir).map_err(|e| format!("cannot create {}: {e}", vdir.display()))?;
    let on_disk = Tables::<R>::open(dir);
    let mut tables = Tables::<R>::new();
    let order = Material::all_up_to(pieces);
    for (k, &m) in order.iter().enumerate() {
        if on_disk.has(m) {
            match on_disk.values(m) {
                Ok(Some(v)) => {
                    tables.insert(m, v);
                    report(&BuildEvent::Kept { material: m });
                    continue;
                }
                Ok(None) => {}
                Err(reason) => report(&BuildEvent::Rebuilding {
                    material: m,
                    reason,
                }),
            }
        }
        let start = Instant::now();
        report(&BuildEvent::Started {
            material: m,
            number: k + 1,
            of: order.len(),
            size: Indexer::<R>::new(m).size(),
        });
        let values = solve(&tables, m, &|done, total| {
            report(&BuildEvent::Progress { done, total })
        })?;
        let stats = SliceStats::of::<R>(m, &values);
        let bytes = file::encode(R::NAME, m, &values);
        crate::atomic_file::write(&slice_path::<R>(dir, m), &bytes)?;
        report(&BuildEvent::Finished {
            material: m,
            stats,
            seconds: start.elapsed().as_secs_f64(),
            bytes: bytes.len() as u64,
        });
        tables.insert(m, Arc::new(values));
    }
    Ok(tables)
}

/// Solves every slice of up to `pieces` pieces in memory, without files (tests).
pub fn solve_all<R: Rules>(pieces: u32) -> Result<Tables<R>, String> {
    let mut tables = Tables::<R>::new();
    for m in Material::all_up_to(pieces) {
        let values = solve(&tables, m, &|_, _| {})?;
        tables.insert(m, Arc::new(values));
    }
    Ok(tables)
}
