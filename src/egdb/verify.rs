//! `dama egdb verify`: every stored value is the value its moves give (the best of the
//! successors' values under distance-to-capture play), for every position of a
//! slice. It rereads the files and shares nothing with the builder's rounds.

use super::index::Indexer;
use super::material::Material;
use super::tables::Tables;
use super::value::Value;
use crate::fen::to_fen;
use crate::rules::Rules;
use rayon::prelude::*;

/// One stored value that disagrees with its successors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The position, as a FEN.
    pub fen: String,
    /// The value stored.
    pub stored: Value,
    /// The value its moves give.
    pub from_moves: Value,
}

/// Checks every position of `material` against its successors in `tables`. Returns
/// the number of positions checked and the mismatches (at most `keep` of them kept).
pub fn verify_slice<R: Rules>(
    tables: &Tables<R>,
    material: Material,
    keep: usize,
) -> Result<(u64, u64, Vec<Mismatch>), String> {
    let values = tables
        .values(material)?
        .ok_or_else(|| format!("slice {material} is not at hand"))?;
    let ix = Indexer::<R>::new(material);
    let n = ix.size();
    let chunk = 1u64 << 14;
    let results: Vec<(u64, u64, Vec<Mismatch>)> = (0..n.div_ceil(chunk))
        .into_par_iter()
        .map(|c| -> Result<(u64, u64, Vec<Mismatch>), String> {
            let (mut checked, mut bad, mut kept) = (0u64, 0u64, Vec::new());
            for i in c * chunk..((c + 1) * chunk).min(n) {
                let Some(pos) = ix.position(i) else { continue };
                checked += 1;
                let mut vs = Vec::new();
                for (mv, v) in tables.move_values(&pos)? {
                    vs.push(v.ok_or_else(|| {
                        format!(
                            "the move {} of {} leads to a slice that is not at hand",
                            crate::notation::move_text(&pos, &mv),
                            to_fen(&pos)
                        )
                    })?);
                }
                let from_moves = Value::best(vs);
                let stored = Value::decode(values[i as usize]);
                if stored != from_moves {
                    bad += 1;
                    if kept.len() < keep {
                        kept.push(Mismatch {
                            fen: to_fen(&pos),
                            stored,
                            from_moves,
                        });
                    }
                }
            }
            Ok((checked, bad, kept))
        })
        .collect::<Result<_, _>>()?;
    let mut total = (0, 0, Vec::new());
    for (c, b, k) in results {
        total.0 += c;
        total.1 += b;
        total.2.extend(k);
    }
    total.2.truncate(keep);
    Ok(total)
}
