//! The small databases the engine solves for itself, in memory, when the database
//! directory lacks them (as Stockfish builds its king-and-pawn bitbase at start-up):
//! every slice of up to a few pieces, solved once per process and variant and shared
//! by every engine made after (a Hub session is made again at each parameter change).
//!
//! They are the same values `dama egdb build` writes: a slice whose file is at hand is
//! read from the file and not solved.

use super::build::solve;
use super::material::Material;
use super::tables::Tables;
use super::value::Entry;
use crate::rules::Rules;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Solved slices: each material with its values.
pub type Slices = Arc<Vec<(Material, Arc<Vec<Entry>>)>>;

/// What has been solved so far in this process: (variant, pieces) and the slices.
static SOLVED: Mutex<Vec<(&'static str, u32, Slices)>> = Mutex::new(Vec::new());

/// The slices of up to `pieces` pieces of the rules `R` already solved in this process,
/// if any.
pub fn cached<R: Rules>(pieces: u32) -> Option<Slices> {
    let solved = SOLVED.lock().unwrap_or_else(|e| e.into_inner());
    solved
        .iter()
        .find(|(name, p, _)| *name == R::NAME && *p == pieces)
        .map(|(_, _, s)| Arc::clone(s))
}

/// Every slice of up to `pieces` pieces of the rules `R`, solved in memory (on the
/// current rayon pool) unless this process has solved them before; with the time the
/// solving took (zero when they were at hand).
pub fn solved<R: Rules>(pieces: u32) -> Result<(Slices, Duration), String> {
    if let Some(s) = cached::<R>(pieces) {
        return Ok((s, Duration::ZERO));
    }
    let start = Instant::now();
    let mut tables = Tables::<R>::new();
    let mut out = Vec::new();
    for m in Material::all_up_to(pieces) {
        let values = Arc::new(solve(&tables, m, &|_, _| {})?);
        tables.insert(m, Arc::clone(&values));
        out.push((m, values));
    }
    let slices: Slices = Arc::new(out);
    let took = start.elapsed();
    // Two callers may have solved at once: the first one kept is everyone's.
    let mut solved = SOLVED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, s)) = solved
        .iter()
        .find(|(name, p, _)| *name == R::NAME && *p == pieces)
    {
        return Ok((Arc::clone(s), took));
    }
    solved.push((R::NAME, pieces, Arc::clone(&slices)));
    Ok((slices, took))
}

/// Adds to `tables` the slices of `slices` it does not hold (from files); returns how
/// many were added.
pub fn fill<R: Rules>(tables: &mut Tables<R>, slices: &Slices) -> usize {
    let mut added = 0;
    for (m, values) in slices.iter() {
        if !tables.has(*m) {
            tables.insert(*m, Arc::clone(values));
            added += 1;
        }
    }
    added
}

/// The slices of `dir` for the rules `R`, with every slice of up to `pieces` pieces
/// that the directory lacks added from memory: solved now when `solve` (unless this
/// process has solved them before), else only when already solved. `pieces` below 2
/// adds nothing.
pub fn open<R: Rules>(dir: &Path, pieces: u32, solve: bool) -> Result<Tables<R>, String> {
    let mut tables = Tables::<R>::open(dir);
    if pieces >= 2 && tables.complete_pieces() < pieces {
        let slices = if solve {
            Some(solved::<R>(pieces)?.0)
        } else {
            cached::<R>(pieces)
        };
        if let Some(s) = slices {
            fill(&mut tables, &s);
        }
    }
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Scandinavian;

    #[test]
    fn builtin_slices_equal_the_builders_and_are_solved_once() {
        let (a, took) = solved::<Scandinavian>(3).unwrap();
        let reference = super::super::builder::solve_all::<Scandinavian>(3).unwrap();
        assert_eq!(a.len(), Material::all_up_to(3).len());
        for (m, values) in a.iter() {
            let r = reference.values(*m).unwrap().expect("slice at hand");
            assert_eq!(values.as_slice(), r.as_slice(), "slice {m}");
        }
        assert!(took > Duration::ZERO);
        let (b, again) = solved::<Scandinavian>(3).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(again, Duration::ZERO);
    }

    #[test]
    fn fill_adds_only_the_missing_slices_and_probes_answer() {
        let (s, _) = solved::<Scandinavian>(3).unwrap();
        let mut t = Tables::<Scandinavian>::new();
        let first = s[0].0;
        t.insert(first, Arc::clone(&s[0].1));
        assert_eq!(fill(&mut t, &s), s.len() - 1);
        assert_eq!(fill(&mut t, &s), 0);
        let reference = super::super::builder::solve_all::<Scandinavian>(3).unwrap();
        for fen in [
            "W:WKa1,Kc1:BKh8",
            "B:WKa1,Kc1:BKh8",
            "W:Wc3,Kh2:BKb8",
            "B:Wg7:Be5,Kb2",
        ] {
            let pos = crate::fen::parse_fen::<Scandinavian>(fen).unwrap();
            let v = t.probe(&pos);
            assert!(v.is_some(), "{fen}");
            assert_eq!(v, reference.probe(&pos), "{fen}");
        }
    }
}
