//! Test openings that separate engines (`dama openings`): random lines from the start
//! whose last position dama's search rates as somewhat better for one side, inside a
//! margin, with nothing forced within a deep search, and no two lines reaching the same
//! position. Each candidate line is a function of the seed and its number alone, so a
//! run is the same whatever thread plays it, and a resumed run goes on where it stopped.
//!
//! A line of an openings file (read back by [`crate::play::opening::read_openings`]):
//!
//! ```text
//! 11-15 24-20 8-11 28-24 9-13 22-18 ; W:W18,20,21,...:B1,2,3,... # white +0.42, depth 14, candidate 17
//! ```
//!
//! the moves from the start position, `;`, the FEN they reach (checked when read), and
//! after `#` the search's score from White's side in men, its depth and the candidate's
//! number.

use crate::engine::search::win_in;
use crate::engine::time::Limits;
use crate::engine::Engine;
use crate::fen::to_fen;
use crate::game::Game;
use crate::movegen;
use crate::notation::move_texts;
use crate::play::opening::random_line;
use crate::play::pool::{self, Flow};
use crate::rules::Rules;
use crate::types::{Color, Score};
use crate::variant::Variant;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashSet;
use std::sync::Mutex;

/// Depth of the shallow search that every candidate gets first (the deep one, when
/// `depth` is less): it drops lines far from the margin, and `unstable` compares its best
/// move with the deep search's.
pub const SHALLOW_DEPTH: u32 = 6;

/// How the openings are chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    /// Lines wanted in the file (those already in it count).
    pub count: usize,
    /// Random plies of each line.
    pub plies: usize,
    /// The better side's advantage, from..to, in hundredths of a man.
    pub margin: (Score, Score),
    /// Depth of the search that rates a line.
    pub depth: u32,
    /// Seed of the random lines.
    pub seed: u64,
    /// Candidates tried at most, counting from 0 (a margin no line meets ends there).
    pub candidates: u64,
    /// The evaluation that rates the lines, by name (`classic`, `nn` or a model file;
    /// [`crate::eval::Evaluation::by_name`]); `None`: the variant's default. A file's
    /// margin holds for the evaluation that rated it, so its header names one given here
    /// ([`header_evaluation`]).
    pub evaluation: Option<String>,
    /// Keep only lines whose best move by the shallow search ([`SHALLOW_DEPTH`]) differs
    /// from the deep search's: positions where a shallow look goes wrong, which a stronger
    /// engine is likelier to play right. Meant for `depth` above [`SHALLOW_DEPTH`] (at or
    /// below it the two searches are one, and no line passes; `dama openings` refuses
    /// that).
    pub unstable: bool,
}

impl Selection {
    /// The defaults of `variant`: the margin, plies and depth it is chosen with.
    pub fn default_for(variant: Variant) -> Selection {
        let (plies, margin, depth) = match variant {
            Variant::English => (8, (30, 90), 14),
            // Scandinavian's network scores a man at several of its units (model 2 about
            // 3.7, model 3 5.4 to 9.7), so 0.30..0.90 held nearly level lines that
            // separated no better than random ones; 1.10..3.30 does (docs/results.md "Do they
            // separate?").
            Variant::Scandinavian => (8, (110, 330), 12),
            Variant::BoyerParton => (8, (40, 120), 12),
            // In dameo and croda the stronger engine wins most games from any start, so
            // a line that favours one side much only wins that side both games of a
            // pair: nearly balanced lines separate better there (docs/results.md).
            Variant::Dameo => (8, (10, 40), 9),
            Variant::Croda => (8, (10, 40), 9),
        };
        Selection {
            count: 100,
            plies,
            margin,
            depth,
            seed: 1,
            candidates: 200_000,
            evaluation: None,
            unstable: false,
        }
    }
}

/// A line that passed.
#[derive(Clone, Debug)]
pub struct Chosen<R: Rules> {
    /// The line, from the start position.
    pub game: Game<R>,
    /// The deep search's score from White's side, in hundredths of a man.
    pub white_score: Score,
    /// The depth of that search.
    pub depth: u32,
    /// The candidate's number.
    pub candidate: u64,
}

impl<R: Rules> Chosen<R> {
    /// The line as the openings file writes it, without the newline.
    pub fn line(&self) -> String {
        format!(
            "{} ; {} # white {:+.2}, depth {}, candidate {}",
            move_texts(&self.game).join(" "),
            to_fen(self.game.position()),
            self.white_score as f64 / 100.0,
            self.depth,
            self.candidate
        )
    }
}

/// The candidate number that a file line's comment (as [`Chosen::line`] writes it) gives, if any.
pub fn candidate_of(line: &str) -> Option<u64> {
    let (_, comment) = line.split_once('#')?;
    comment
        .split(',')
        .find_map(|part| part.trim().strip_prefix("candidate "))
        .and_then(|n| n.trim().parse().ok())
}

/// The evaluation named by an openings file's first line (`evaluation=classic`), which
/// rated its lines; `None` when it names none (the variant's default rated them).
pub fn header_evaluation(first_line: &str) -> Option<&str> {
    first_line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("evaluation="))
}

/// Rates candidate `index` with `engine`: its line, when it ends in a quiet position
/// whose shallow and deep scores both lie inside the margin, without a forced result.
pub fn candidate<R: Rules>(
    engine: &mut Engine<R>,
    sel: &Selection,
    index: u64,
) -> Option<Chosen<R>> {
    let mut rng = StdRng::seed_from_u64(sel.seed ^ (index + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let game = random_line::<R>(&mut rng, sel.plies)?;
    if movegen::has_capture(game.position()) {
        return None;
    }
    let inside = |s: Score| (sel.margin.0..=sel.margin.1).contains(&s.abs());
    let score = |engine: &mut Engine<R>, depth: u32| {
        engine.new_game();
        engine.set_game(game.clone());
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let r = engine.search(&limits, 1, &|_| {});
        r.lines.first().map(|l| (l.score, r.best))
    };
    // A shallow search first: most random lines are far from the margin.
    let (shallow, shallow_best) = score(engine, sel.depth.min(SHALLOW_DEPTH))?;
    let slack = (sel.margin.1 - sel.margin.0).max(20);
    if shallow.abs() + slack < sel.margin.0 || shallow.abs() > sel.margin.1 + slack {
        return None;
    }
    let (deep, deep_best) = score(engine, sel.depth)?;
    if win_in(deep).is_some() || !inside(deep) {
        return None;
    }
    if sel.unstable && shallow_best == deep_best {
        return None;
    }
    let white_score = if game.position().side() == Color::White {
        deep
    } else {
        -deep
    };
    Some(Chosen {
        game,
        white_score,
        depth: sel.depth,
        candidate: index,
    })
}

/// What a run of [`select`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Lines chosen in this run.
    pub chosen: usize,
    /// Candidates rated in this run.
    pub rated: u64,
    /// Lines refused because an earlier line reached the same position.
    pub repeats: usize,
}

/// Chooses lines on `threads` workers from candidate `first` on, until `known.len()`
/// plus the lines chosen reach `sel.count` or the candidates run out. `known` holds the
/// hashes of the positions already reached (a resumed file's lines). Each line chosen is
/// handed to `write` at once, one call at a time; `progress` sees the lines chosen so
/// far (with `known`) and the candidates rated. An error from `write` ends the run.
pub fn select<R: Rules>(
    sel: &Selection,
    threads: usize,
    first: u64,
    known: HashSet<u64>,
    write: &(dyn Fn(&Chosen<R>) -> Result<(), String> + Sync),
    progress: &(dyn Fn(usize, u64) + Sync),
) -> Result<Report, String> {
    let have = known.len();
    if have >= sel.count {
        return Ok(Report {
            chosen: 0,
            rated: 0,
            repeats: 0,
        });
    }
    let jobs = sel.candidates.saturating_sub(first) as usize;
    let run = Mutex::new(Run {
        seen: known,
        report: Report {
            chosen: 0,
            rated: 0,
            repeats: 0,
        },
        error: None,
    });
    let evaluation = match &sel.evaluation {
        Some(name) => Some(crate::eval::Evaluation::by_name::<R>(name)?),
        None => None,
    };
    let engine = || {
        let mut e = Engine::<R>::try_new(16, 1).ok()?;
        if let Some(ev) = &evaluation {
            e.set_evaluation(ev.clone());
        }
        Some(e)
    };
    pool::run(threads, jobs, engine, |engine, job| {
        let index = first + job as u64;
        let found = candidate(engine, sel, index);
        let mut r = run.lock().expect("run");
        if r.error.is_some() || have + r.report.chosen >= sel.count {
            return Flow::Stop;
        }
        r.report.rated += 1;
        if let Some(c) = found {
            if !r.seen.insert(c.game.position().hash()) {
                r.report.repeats += 1;
            } else if let Err(e) = write(&c) {
                r.error = Some(e);
                return Flow::Stop;
            } else {
                r.report.chosen += 1;
            }
        }
        let total = have + r.report.chosen;
        progress(total, r.report.rated);
        if total >= sel.count {
            Flow::Stop
        } else {
            Flow::Next
        }
    });
    let r = run.into_inner().expect("run");
    match r.error {
        Some(e) => Err(e),
        None => Ok(r.report),
    }
}

/// The state of a [`select`] run, shared by its workers under one lock.
struct Run {
    seen: HashSet<u64>,
    report: Report,
    error: Option<String>,
}
