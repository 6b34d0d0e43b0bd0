//! Whole games annotated (`dama annotate`): every position of a game searched once, and
//! every move rated by what it loses against the best move found.
//!
//! Position `i` of a game (before move `i + 1`) is searched on its own, with the game's
//! history before it, so the score before a move is the search of that position and not
//! the reply to the move before it. The score of the move played is the score of the
//! position it leads to, turned to the mover's side; the loss of a move is the best
//! move's score less the played move's, both held within [`DECIDED`] first (past three
//! men up or down a game is decided, and a won position kept won loses nothing), and
//! nothing when the move played is the best move. The label follows from the loss by
//! [`INACCURACY`], [`MISTAKE`] and [`BLUNDER`].

use crate::engine::analysis::{pv_texts, score_text};
use crate::engine::search::win_in;
use crate::engine::time::Limits;
use crate::engine::Engine;
use crate::fen::to_fen;
use crate::game::{Game, Outcome};
use crate::moves::Move;
use crate::notation::{move_text, move_texts};
use crate::pdn::PdnGame;
use crate::position::Position;
use crate::rules::Rules;
use crate::types::{parent_score, Color, Score, MATE};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};

/// The least loss (hundredths of a man) of an inaccuracy, `?!`.
pub const INACCURACY: Score = 25;
/// The least loss of a mistake, `?`.
pub const MISTAKE: Score = 50;
/// The least loss of a blunder, `??`.
pub const BLUNDER: Score = 100;
/// Scores are held within plus or minus this many hundredths of a man before a loss is
/// taken: three men.
pub const DECIDED: Score = 300;

/// How bad a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Label {
    /// A loss of [`INACCURACY`] or more.
    Inaccuracy,
    /// A loss of [`MISTAKE`] or more.
    Mistake,
    /// A loss of [`BLUNDER`] or more.
    Blunder,
}

impl Label {
    /// Every label, mildest first.
    pub const ALL: [Label; 3] = [Label::Inaccuracy, Label::Mistake, Label::Blunder];

    /// The label of a loss, if it earns one.
    pub fn of(loss: Score) -> Option<Label> {
        match loss {
            l if l >= BLUNDER => Some(Label::Blunder),
            l if l >= MISTAKE => Some(Label::Mistake),
            l if l >= INACCURACY => Some(Label::Inaccuracy),
            _ => None,
        }
    }

    /// The PDN mark: `?!`, `?` or `??`.
    pub fn mark(self) -> &'static str {
        match self {
            Label::Inaccuracy => "?!",
            Label::Mistake => "?",
            Label::Blunder => "??",
        }
    }

    /// The label as a word for `n` moves: `1 inaccuracy`, `2 inaccuracies`.
    pub fn counted(self, n: usize) -> &'static str {
        match (self, n) {
            (Label::Inaccuracy, 1) => "inaccuracy",
            (Label::Inaccuracy, _) => "inaccuracies",
            (Label::Mistake, 1) => "mistake",
            (Label::Mistake, _) => "mistakes",
            (Label::Blunder, 1) => "blunder",
            (Label::Blunder, _) => "blunders",
        }
    }

    /// The label as a word: `inaccuracy`, `mistake` or `blunder`.
    pub fn word(self) -> &'static str {
        match self {
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

/// What the search says of one position, from its side to move's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The score in hundredths of a man (mate scores as the search gives them).
    pub score: Score,
    /// The best move and the line after it; empty when the game is over.
    pub pv: Vec<Move>,
    /// The depth the search completed (0: the game is over, nothing was searched).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The endgame databases' value of the position, when they hold it.
    pub egdb: Option<crate::egdb::Value>,
}

impl Verdict {
    /// The verdict of a finished search: its first line (a loss when it found no move,
    /// which only a position without legal moves gives).
    pub fn of(r: &crate::engine::search::SearchResult) -> Verdict {
        match r.lines.first() {
            Some(line) => Verdict {
                score: line.score,
                pv: line.pv.clone(),
                depth: line.depth,
                nodes: r.nodes,
                egdb: line.egdb,
            },
            None => over_verdict(-MATE),
        }
    }

    /// The best move, if the game goes on.
    pub fn best(&self) -> Option<&Move> {
        self.pv.first()
    }
}

/// One move of a game, rated.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveNote {
    /// The move's number in the game, from 1.
    pub ply: usize,
    /// The side that played it.
    pub side: Color,
    /// The move played.
    pub played: Move,
    /// The search of the position before the move.
    pub before: Verdict,
    /// The score of the move played, from the mover's view: the next position's score
    /// turned over (a mate one ply further away).
    pub played_score: Score,
    /// What the move loses against the best move, in hundredths of a man (see the
    /// module's documentation).
    pub loss: Score,
    /// The label the loss earns.
    pub label: Option<Label>,
}

impl MoveNote {
    /// Whether the move played is the best move the search found.
    pub fn is_best(&self) -> bool {
        self.before.best() == Some(&self.played)
    }
}

/// How one side played in a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    /// Moves played.
    pub moves: usize,
    /// The sum of their losses (hundredths of a man).
    pub total_loss: i64,
    /// Moves per label, in the order of [`Label::ALL`].
    pub labels: [usize; 3],
}

impl SideSummary {
    /// The average loss a move in men (0 with no move).
    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_loss as f64 / self.moves as f64 / 100.0
        }
    }

    /// The moves with `label`.
    pub fn count(&self, label: Label) -> usize {
        self.labels[label as usize]
    }

    /// Adds the moves of `other` (another game of the same player).
    pub fn add(&mut self, other: &SideSummary) {
        self.moves += other.moves;
        self.total_loss += other.total_loss;
        for (a, b) in self.labels.iter_mut().zip(other.labels) {
            *a += b;
        }
    }
}

/// How one player played over several games: the games and their moves together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerSummary {
    /// Games played.
    pub games: usize,
    /// Their moves, together.
    pub sides: SideSummary,
}

impl PlayerSummary {
    /// The line of the by-player table: `12 games, average loss 0.31 over 540 moves;
    /// a game 2.1 ?!, 1.0 ?, 0.5 ??`.
    pub fn line(&self) -> String {
        let per_game: Vec<String> = Label::ALL
            .iter()
            .map(|&l| {
                format!(
                    "{:.1} {}",
                    self.sides.count(l) as f64 / self.games.max(1) as f64,
                    l.mark()
                )
            })
            .collect();
        format!(
            "{} game{}, average loss {:.2} over {} moves; a game {}",
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.sides.average_loss(),
            self.sides.moves,
            per_game.join(", ")
        )
    }
}

/// Searches every position of `game`, from the first to the last (one more than its
/// moves), with `limits`; `searched(i)` is called after position `i`. The engine's
/// table is cleared first, so a game's verdicts do not depend on the games before it.
/// Returns `None` when `interrupt` is set before the last position is done (the search
/// in progress is stopped by the caller through the engine's stop flag).
pub fn verdicts<R: Rules>(
    engine: &mut Engine<R>,
    game: &Game<R>,
    limits: &Limits,
    interrupt: &AtomicBool,
    mut searched: impl FnMut(usize),
) -> Option<Vec<Verdict>> {
    engine.new_game();
    let mut prefix = Game::new(game.positions()[0]);
    let mut out = Vec::with_capacity(game.moves().len() + 1);
    for i in 0..=game.moves().len() {
        if interrupt.load(Ordering::Relaxed) {
            return None;
        }
        let last = i == game.moves().len();
        let over = if last { prefix.outcome() } else { None };
        let verdict = match over {
            Some(o) => end_verdict(o),
            None => {
                engine.set_game(prefix.clone());
                let r = engine.search(limits, 1, &|_| {});
                if interrupt.load(Ordering::Relaxed) {
                    return None;
                }
                Verdict::of(&r)
            }
        };
        out.push(verdict);
        searched(i);
        if !last {
            prefix.play(&game.moves()[i]);
        }
    }
    Some(out)
}

/// The verdict of a position where the game is over: lost for the side to move when it
/// has no move, else drawn.
pub fn end_verdict(o: Outcome) -> Verdict {
    match o {
        Outcome::NoMoves { .. } => over_verdict(-MATE),
        _ => over_verdict(0),
    }
}

fn over_verdict(score: Score) -> Verdict {
    Verdict {
        score,
        pv: Vec::new(),
        depth: 0,
        nodes: 0,
        egdb: None,
    }
}

/// Rates every move of `game` from its verdicts (one per position, as [`verdicts`]
/// gives them).
pub fn notes<R: Rules>(game: &Game<R>, verdicts: &[Verdict]) -> Vec<MoveNote> {
    assert_eq!(
        verdicts.len(),
        game.moves().len() + 1,
        "one verdict a position"
    );
    game.moves()
        .iter()
        .enumerate()
        .map(|(i, mv)| {
            note(
                i + 1,
                game.positions()[i].side(),
                *mv,
                &verdicts[i],
                &verdicts[i + 1],
            )
        })
        .collect()
}

/// Rates move `ply` (from 1), `played` by `side`, from the verdicts of the positions
/// before and after it.
pub fn note(ply: usize, side: Color, played: Move, before: &Verdict, after: &Verdict) -> MoveNote {
    let played_score = parent_score(after.score);
    let mut note = MoveNote {
        ply,
        side,
        played,
        before: before.clone(),
        played_score,
        loss: 0,
        label: None,
    };
    if !note.is_best() {
        let held = |s: Score| s.clamp(-DECIDED, DECIDED);
        note.loss = (held(note.before.score) - held(played_score)).max(0);
        note.label = Label::of(note.loss);
    }
    note
}

/// How each side played, White's first.
pub fn summary(notes: &[MoveNote]) -> [SideSummary; 2] {
    let mut sides = [SideSummary::default(), SideSummary::default()];
    for n in notes {
        let s = &mut sides[n.side as usize];
        s.moves += 1;
        s.total_loss += i64::from(n.loss);
        if let Some(l) = n.label {
            s.labels[l as usize] += 1;
        }
    }
    sides
}

/// The annotated game as PDN: `game`'s tags with `Annotator` set to `annotator`, a
/// preface with the summary of each side, and per move its mark and a comment: the
/// played move's score from the mover's view, the label, the best move and its score
/// when another move was better, a forced result found, and the databases' value of the
/// position before the move.
pub fn annotated_pdn<R: Rules>(
    source: &PdnGame,
    game: &Game<R>,
    notes: &[MoveNote],
    annotator: &str,
) -> PdnGame {
    let mut tags: Vec<(String, String)> = source
        .tags
        .iter()
        .filter(|(n, _)| n != "Annotator")
        .cloned()
        .collect();
    tags.push(("Annotator".to_string(), annotator.to_string()));
    let sides = summary(notes);
    let side_text = |name: &str, s: &SideSummary| {
        let counts: Vec<String> = Label::ALL
            .iter()
            .map(|&l| {
                let n = s.count(l);
                format!("{n} {}", l.counted(n))
            })
            .collect();
        format!(
            "{name}: average loss {:.2} over {} move{}, {}",
            s.average_loss(),
            s.moves,
            if s.moves == 1 { "" } else { "s" },
            counts.join(", ")
        )
    };
    let preface = format!(
        "{annotator}. {}. {}.",
        side_text("White", &sides[0]),
        side_text("Black", &sides[1])
    );
    let moves = move_texts(game);
    let marks = notes
        .iter()
        .map(|n| n.label.map_or("", Label::mark).to_string())
        .collect();
    let comments = notes
        .iter()
        .map(|n| move_comment(&game.positions()[n.ply - 1], n))
        .collect();
    PdnGame {
        tags,
        moves,
        result: source.result.clone(),
        preface,
        marks,
        comments,
    }
}

/// The comment on one move: `-0.85 blunder; best 9-14 +0.10; database draw`.
fn move_comment<R: Rules>(before: &Position<R>, n: &MoveNote) -> String {
    let mut parts = vec![match n.label {
        Some(l) => format!("{} {}", score_text(n.played_score), l.word()),
        None => score_text(n.played_score),
    }];
    if let (false, Some(best)) = (n.is_best(), n.before.best()) {
        parts.push(format!(
            "best {} {}",
            move_text(before, best),
            score_text(n.before.score)
        ));
    }
    if let Some(v) = n.before.egdb {
        parts.push(format!("database {v}"));
    }
    parts.join("; ")
}

/// One JSON object (one line) per move of a game, as docs/books-annotation.md documents them. `game` is
/// the game's number in its file (from 1), `limit` the search's limit as text.
pub fn json_lines<R: Rules>(
    number: usize,
    game: &Game<R>,
    notes: &[MoveNote],
    limit: &str,
) -> Vec<String> {
    notes
        .iter()
        .map(|n| {
            let pos = &game.positions()[n.ply - 1];
            let mut m = serde_json::Map::new();
            m.insert("game".into(), json!(number));
            m.insert("ply".into(), json!(n.ply));
            m.insert("plies".into(), json!(notes.len()));
            m.insert("limit".into(), json!(limit));
            m.insert("side".into(), json!(n.side.to_string()));
            m.insert("fen".into(), json!(to_fen(pos)));
            m.insert("move".into(), json!(move_text(pos, &n.played)));
            m.insert("scores_from".into(), json!("the side to move"));
            m.insert("score_before".into(), json!(n.before.score));
            if let Some(p) = win_in(n.before.score) {
                m.insert("win_in".into(), json!(p));
            }
            m.insert(
                "best".into(),
                json!(n.before.best().map(|b| move_text(pos, b))),
            );
            m.insert("best_score".into(), json!(n.before.score));
            m.insert("pv".into(), json!(pv_texts(pos, &n.before.pv)));
            m.insert("played_score".into(), json!(n.played_score));
            m.insert("loss".into(), json!(n.loss));
            m.insert("label".into(), json!(n.label.map(Label::word)));
            m.insert("mark".into(), json!(n.label.map_or("", Label::mark)));
            m.insert("depth".into(), json!(n.before.depth));
            m.insert("nodes".into(), json!(n.before.nodes));
            if let Some(v) = n.before.egdb {
                m.insert("egdb".into(), json!(v.word()));
                if let Some(d) = v.distance() {
                    m.insert("egdb_dtc".into(), json!(d));
                }
            }
            serde_json::Value::Object(m).to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_thresholds() {
        assert_eq!(Label::of(0), None);
        assert_eq!(Label::of(INACCURACY - 1), None);
        assert_eq!(Label::of(INACCURACY), Some(Label::Inaccuracy));
        assert_eq!(Label::of(MISTAKE), Some(Label::Mistake));
        assert_eq!(Label::of(BLUNDER - 1), Some(Label::Mistake));
        assert_eq!(Label::of(BLUNDER), Some(Label::Blunder));
        assert_eq!(Label::of(10 * BLUNDER), Some(Label::Blunder));
    }

    #[test]
    fn a_mate_is_one_ply_further_for_the_mover() {
        assert_eq!(parent_score(-MATE), MATE - 1);
        assert_eq!(parent_score(MATE - 4), -(MATE - 5));
        assert_eq!(parent_score(35), -35);
        assert_eq!(
            crate::engine::search::win_in(parent_score(-(MATE - 6))),
            Some(7)
        );
    }

    #[test]
    fn a_player_summary_adds_games_up() {
        let mut p = PlayerSummary::default();
        for side in [
            SideSummary {
                moves: 20,
                total_loss: 300,
                labels: [2, 1, 0],
            },
            SideSummary {
                moves: 30,
                total_loss: 700,
                labels: [1, 0, 3],
            },
        ] {
            p.games += 1;
            p.sides.add(&side);
        }
        assert_eq!(
            p.sides,
            SideSummary {
                moves: 50,
                total_loss: 1000,
                labels: [3, 1, 3]
            }
        );
        assert_eq!(
            p.line(),
            "2 games, average loss 0.20 over 50 moves; a game 1.5 ?!, 0.5 ?, 1.5 ??"
        );
    }
}
