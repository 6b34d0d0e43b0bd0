//! Search reports as text for the `analyze` command: one human-readable or JSON line per
//! completed iteration, and the final best move. The JSON fields are a stable interface
//! for scripts.

use crate::engine::search::{Info, SearchResult};
use crate::moves::Move;
use crate::notation::move_text;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::Score;
use serde_json::{json, Value};

/// The moves of a line from `pos`, in the variant's notation.
pub fn pv_texts<R: Rules>(pos: &Position<R>, pv: &[Move]) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(pv.len());
    for mv in pv {
        out.push(move_text(&p, mv));
        p = p.play(mv);
    }
    out
}

/// A score as text: `+0.25` (men), `win in 7` / `loss in 4` (plies), or `egdb win` /
/// `egdb loss` (a won or lost endgame-database position in the line).
pub fn score_text(score: Score) -> String {
    match crate::engine::search::win_in(score) {
        Some(p) if p >= 0 => format!("win in {p}"),
        Some(p) => format!("loss in {}", -p),
        None => match crate::engine::search::egdb_parts(score) {
            Some((true, ..)) => "egdb win".to_string(),
            Some((false, ..)) => "egdb loss".to_string(),
            None => format!("{:+.2}", score as f64 / 100.0),
        },
    }
}

fn info_fields<R: Rules>(pos: &Position<R>, info: &Info) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert("depth".into(), json!(info.depth));
    m.insert("seldepth".into(), json!(info.seldepth));
    m.insert("score".into(), json!(info.score));
    if let Some(p) = info.win_in() {
        m.insert("win_in".into(), json!(p));
    }
    m.insert("nodes".into(), json!(info.nodes));
    m.insert("nps".into(), json!(info.nps()));
    m.insert("time_ms".into(), json!(info.time.as_millis() as u64));
    m.insert("hashfull".into(), json!(info.hashfull));
    m.insert("multipv".into(), json!(info.multipv));
    m.insert("pv".into(), json!(pv_texts(pos, &info.pv)));
    if let Some(v) = info.egdb {
        m.insert("egdb".into(), json!(v.word()));
        if let Some(d) = v.distance() {
            m.insert("egdb_dtc".into(), json!(d));
        }
    }
    if info.egdb_hits > 0 {
        m.insert("egdb_hits".into(), json!(info.egdb_hits));
    }
    m
}

/// One iteration as a JSON object on one line.
pub fn info_json<R: Rules>(pos: &Position<R>, info: &Info) -> String {
    Value::Object(info_fields(pos, info)).to_string()
}

/// One iteration as a human-readable line.
pub fn info_line<R: Rules>(pos: &Position<R>, info: &Info) -> String {
    let mut egdb = String::new();
    if let Some(v) = info.egdb {
        egdb.push_str(&format!(" egdb {v}"));
    }
    if info.egdb_hits > 0 {
        egdb.push_str(&format!(" egdb_hits {}", info.egdb_hits));
    }
    format!(
        "depth {:>2} seldepth {:>2} multipv {} score {} nodes {} nps {} time {:.3} hashfull {}{egdb} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score),
        info.nodes,
        info.nps(),
        info.time.as_secs_f64(),
        info.hashfull,
        pv_texts(pos, &info.pv).join(" ")
    )
}

/// The final line: `{"bestmove": ..., "ponder": ..., <fields of the best line>}`, with
/// `"bestmove": null` and a reason when the side to move has no legal move (G8).
pub fn best_json<R: Rules>(pos: &Position<R>, r: &SearchResult) -> String {
    let mut m = serde_json::Map::new();
    match r.best {
        Some(mv) => {
            m.insert("bestmove".into(), json!(move_text(pos, &mv)));
            if let Some(p) = r.ponder {
                m.insert("ponder".into(), json!(move_text(&pos.play(&mv), &p)));
            }
        }
        None => {
            m.insert("bestmove".into(), Value::Null);
            m.insert(
                "reason".into(),
                json!("no legal move: the side to move has lost (G8)"),
            );
        }
    }
    if let Some(best) = r.lines.first() {
        m.extend(info_fields(pos, best));
    }
    m.insert("nodes".into(), json!(r.nodes));
    m.insert("time_ms".into(), json!(r.time.as_millis() as u64));
    let nps = if r.time.as_secs_f64() > 0.0 {
        (r.nodes as f64 / r.time.as_secs_f64()) as u64
    } else {
        0
    };
    m.insert("nps".into(), json!(nps));
    Value::Object(m).to_string()
}

/// The final line as text: `bestmove <m> [ponder <m>]`.
pub fn best_line<R: Rules>(pos: &Position<R>, r: &SearchResult) -> String {
    match r.best {
        Some(mv) => {
            let mut s = format!("bestmove {}", move_text(pos, &mv));
            if let Some(p) = r.ponder {
                s.push_str(&format!(" ponder {}", move_text(&pos.play(&mv), &p)));
            }
            s
        }
        None => "bestmove none (no legal move: the side to move has lost)".to_string(),
    }
}
